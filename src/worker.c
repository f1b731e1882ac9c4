/* worker.c — worker threads and the I/O loop. */
#include "worker.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct worker {
    unsigned id;
    pthread_t thread;
    bool started;
    struct worker_pool *pool;
    struct engine *eng;
    struct io_unit **free_units, **staged, **done;
    unsigned n_free;
    struct rng rng;
    struct pattern pat;
    uint64_t region_start, region_end;     /* [start, end) */
    uint64_t cursor;                       /* next sequential offset */
    uint32_t bs_table[100];                /* bssplit as a 100-slot lookup */
    struct worker_stats stats;
    int init_ret;
    char err[ERR_LEN];
};

struct worker_pool {
    const struct workload *wl;
    const struct engine_ops *ops;
    int fd;
    uint32_t mem_align;
    volatile sig_atomic_t *stop;
    unsigned n;
    struct worker *w;

    pthread_mutex_t lock;
    pthread_cond_t cond_start, cond_done;
    unsigned generation;       /* bumped for every round */
    unsigned pending;          /* workers still running the current round / initialising */
    bool quit;
    struct round_limits lim;
};

static void worker_fail(struct worker *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void worker_fail(struct worker *w, const char *fmt, ...)
{
    if (w->err[0])
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(w->err, sizeof(w->err), fmt, ap);
    va_end(ap);
}

static inline uint32_t natural_align(uint32_t len)
{
    return len & (~len + 1u);   /* lowest set bit: 4096 -> 4096, 1536 -> 512 */
}

static inline void gen_io(struct worker *w, const struct workload *wl, struct io_unit *u)
{
    uint32_t len = wl->n_bs == 1 ? wl->bs[0].size : w->bs_table[rng_below(&w->rng, 100)];
    u->len = len;
    if (wl->read_pct >= 100)
        u->dir = IO_READ;
    else if (wl->read_pct == 0)
        u->dir = IO_WRITE;
    else
        u->dir = rng_below(&w->rng, 100) < wl->read_pct ? IO_READ : IO_WRITE;

    bool random = wl->random_pct >= 100 ||
                  (wl->random_pct > 0 && rng_below(&w->rng, 100) < wl->random_pct);
    uint64_t off;
    if (random) {
        uint64_t align = natural_align(len);
        uint64_t slots = (w->region_end - w->region_start - len) / align + 1;
        off = w->region_start + rng_below(&w->rng, slots) * align;
    } else {
        off = w->cursor;
        if (off + len > w->region_end)
            off = w->region_start;
    }
    w->cursor = off + len;
    u->offset = off;
}

static void add_sample(struct worker *w, const uint64_t last_ios[IO_NDIR],
                       const uint64_t last_bytes[IO_NDIR])
{
    struct worker_stats *s = &w->stats;
    if (s->n_samples == s->cap_samples) {
        s->cap_samples = s->cap_samples ? s->cap_samples * 2 : 64;
        s->samples = xrealloc(s->samples, s->cap_samples * sizeof(*s->samples));
    }
    struct worker_sample *smp = &s->samples[s->n_samples++];
    for (int d = 0; d < IO_NDIR; d++) {
        smp->ios[d] = s->ios[d] - last_ios[d];
        smp->bytes[d] = s->bytes[d] - last_bytes[d];
    }
}

/* The I/O loop for one round. */
static void worker_round(struct worker *w, const struct round_limits *lim)
{
    struct worker_pool *p = w->pool;
    const struct workload *wl = p->wl;
    const struct engine_ops *ops = p->ops;
    struct engine *eng = w->eng;
    struct worker_stats *s = &w->stats;
    const unsigned qd = wl->qd;
    const bool count_writes = wl_writes(wl);

    memset(s->ios, 0, sizeof(s->ios));
    memset(s->bytes, 0, sizeof(s->bytes));
    hist_init(&s->lat[IO_READ]);
    hist_init(&s->lat[IO_WRITE]);
    s->n_samples = 0;
    w->err[0] = '\0';

    uint64_t quota = lim->bytes ? lim->bytes / p->n : 0;
    if (lim->bytes && quota == 0)
        quota = 1;
    uint64_t issued = 0;
    uint64_t last_ios[IO_NDIR] = {0, 0}, last_bytes[IO_NDIR] = {0, 0};

    uint64_t t = ops->clock(eng);
    const uint64_t start = t;
    const uint64_t end = lim->time_ns ? start + lim->time_ns : UINT64_MAX;
    uint64_t next_sample = lim->sample_ns ? start + lim->sample_ns : UINT64_MAX;
    uint64_t last_counted = start;
    unsigned inflight = 0;
    bool issuing = !*p->stop;

    for (;;) {
        unsigned ns = 0;
        while (issuing && inflight + ns < qd) {
            if (quota && issued >= quota) {
                issuing = false;
                break;
            }
            struct io_unit *u = w->free_units[--w->n_free];
            gen_io(w, wl, u);
            if (u->dir == IO_WRITE)
                pattern_fill(&w->pat, u->buf, u->len);
            if (count_writes == (u->dir == IO_WRITE))
                issued += u->len;
            int ret = ops->queue(eng, u);
            if (ret < 0) {
                w->free_units[w->n_free++] = u;
                worker_fail(w, "%s: cannot queue an I/O: %s", ops->name, strerror(-ret));
                issuing = false;
                break;
            }
            w->staged[ns++] = u;
        }
        if (ns) {
            t = ops->clock(eng);
            for (unsigned i = 0; i < ns; i++)
                w->staged[i]->issue_ns = t;
            int ret = ops->commit(eng);
            if (ret < 0) {
                worker_fail(w, "%s: submit failed: %s", ops->name, strerror(-ret));
                issuing = false;
            }
            inflight += ns;
        }
        if (!inflight)
            break;
        int n = ops->reap(eng, 1, inflight, w->done);
        if (n < 0) {
            worker_fail(w, "%s: waiting for completions failed: %s", ops->name, strerror(-n));
            break;  /* the engine is unusable; cleanup reclaims in-flight units */
        }
        t = ops->clock(eng);
        const bool counted = t <= end;
        for (int i = 0; i < n; i++) {
            struct io_unit *u = w->done[i];
            if (u->result != (int64_t)u->len) {
                if (u->result < 0)
                    worker_fail(w, "%s of %u bytes at offset %llu failed: %s",
                                u->dir == IO_READ ? "read" : "write", u->len,
                                (unsigned long long)u->offset, strerror((int)-u->result));
                else
                    worker_fail(w, "short %s at offset %llu: %lld of %u bytes",
                                u->dir == IO_READ ? "read" : "write",
                                (unsigned long long)u->offset, (long long)u->result, u->len);
                issuing = false;
            } else if (counted) {
                s->ios[u->dir]++;
                s->bytes[u->dir] += u->len;
                hist_add(&s->lat[u->dir], t - u->issue_ns);
            }
            w->free_units[w->n_free++] = u;
        }
        inflight -= (unsigned)n;
        if (counted)
            last_counted = t;
        while (t >= next_sample && next_sample <= end) {
            add_sample(w, last_ios, last_bytes);
            memcpy(last_ios, s->ios, sizeof(last_ios));
            memcpy(last_bytes, s->bytes, sizeof(last_bytes));
            next_sample += lim->sample_ns;
        }
        if (issuing && (t >= end || *p->stop))
            issuing = false;
    }
    s->start_ns = start;
    s->end_ns = lim->time_ns ? end : last_counted;
}

static void *worker_main(void *arg)
{
    struct worker *w = arg;
    struct worker_pool *p = w->pool;
    struct engine_config cfg = {
        .fd = p->fd,
        .depth = p->wl->qd,
        .max_len = wl_max_bs(p->wl),
        .mem_align = p->mem_align,
    };
    w->init_ret = p->ops->init(&w->eng, &cfg, w->err, sizeof(w->err));
    if (w->init_ret == 0) {
        struct io_unit *u = p->ops->units(w->eng);
        for (unsigned i = 0; i < cfg.depth; i++)
            w->free_units[i] = &u[i];
        w->n_free = cfg.depth;
    }

    pthread_mutex_lock(&p->lock);
    unsigned seen = p->generation;
    if (--p->pending == 0)
        pthread_cond_signal(&p->cond_done);
    for (;;) {
        while (p->generation == seen && !p->quit)
            pthread_cond_wait(&p->cond_start, &p->lock);
        if (p->quit)
            break;
        seen = p->generation;
        struct round_limits lim = p->lim;
        pthread_mutex_unlock(&p->lock);
        if (w->init_ret == 0)
            worker_round(w, &lim);
        pthread_mutex_lock(&p->lock);
        if (--p->pending == 0)
            pthread_cond_signal(&p->cond_done);
    }
    pthread_mutex_unlock(&p->lock);
    if (w->eng)
        p->ops->cleanup(w->eng);
    w->eng = NULL;
    return NULL;
}

static void worker_setup(struct worker_pool *p, struct worker *w, unsigned id,
                         const struct wl_range *range)
{
    const struct workload *wl = p->wl;
    w->id = id;
    w->pool = p;
    w->free_units = xcalloc(wl->qd, sizeof(*w->free_units));
    w->staged = xcalloc(wl->qd, sizeof(*w->staged));
    w->done = xcalloc(wl->qd, sizeof(*w->done));
    uint64_t seed = wl->seed ^ (0x9e3779b97f4a7c15ull * (id + 1));
    rng_seed(&w->rng, seed);
    pattern_init(&w->pat, wl->compress_pct, seed ^ 0x7061747465726e00ull /* "pattern" */);

    unsigned slot = 0;
    for (unsigned i = 0; i < wl->n_bs; i++)
        for (unsigned k = 0; k < wl->bs[i].weight && slot < 100; k++)
            w->bs_table[slot++] = wl->bs[i].size;
    while (slot < 100)
        w->bs_table[slot++] = wl->bs[0].size;

    bool split = wl->region == WL_REGION_SPLIT ||
                 (wl->region == WL_REGION_DEFAULT && wl->random_pct == 0);
    if (split && p->n > 1) {
        uint64_t align = natural_align(wl_max_bs(wl));
        uint64_t slice = range->len / p->n / align * align;
        w->region_start = range->start + (uint64_t)id * slice;
        w->region_end = w->region_start + slice;
    } else {
        w->region_start = range->start;
        w->region_end = range->start + range->len;
    }
    w->cursor = w->region_start;
}

struct worker_pool *worker_pool_start(const struct workload *wl, const struct engine_ops *ops,
                                      int fd, uint32_t mem_align, const struct wl_range *range,
                                      volatile sig_atomic_t *stop, char *err, size_t errlen)
{
    struct worker_pool *p = xcalloc(1, sizeof(*p));
    p->wl = wl;
    p->ops = ops;
    p->fd = fd;
    p->mem_align = mem_align;
    p->stop = stop;
    p->n = wl->workers;
    p->w = xcalloc(p->n, sizeof(*p->w));
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->cond_start, NULL);
    pthread_cond_init(&p->cond_done, NULL);

    for (unsigned i = 0; i < p->n; i++)
        worker_setup(p, &p->w[i], i, range);

    pthread_mutex_lock(&p->lock);
    p->pending = p->n;
    pthread_mutex_unlock(&p->lock);
    for (unsigned i = 0; i < p->n; i++) {
        int ret = pthread_create(&p->w[i].thread, NULL, worker_main, &p->w[i]);
        if (ret) {
            pthread_mutex_lock(&p->lock);
            p->pending -= p->n - i;
            pthread_mutex_unlock(&p->lock);
            errf(err, errlen, "cannot start worker thread %u: %s", i, strerror(ret));
            break;
        }
        p->w[i].started = true;
    }
    pthread_mutex_lock(&p->lock);
    while (p->pending)
        pthread_cond_wait(&p->cond_done, &p->lock);
    pthread_mutex_unlock(&p->lock);

    bool ok = true;
    for (unsigned i = 0; i < p->n; i++) {
        if (!p->w[i].started) {
            ok = false;
        } else if (p->w[i].init_ret != 0) {
            if (ok)
                errf(err, errlen, "worker %u: %s", i, p->w[i].err);
            ok = false;
        }
    }
    if (!ok) {
        worker_pool_stop(p);
        return NULL;
    }
    return p;
}

int worker_pool_round(struct worker_pool *p, const struct round_limits *lim, char *err, size_t errlen)
{
    pthread_mutex_lock(&p->lock);
    p->lim = *lim;
    p->pending = p->n;
    p->generation++;
    pthread_cond_broadcast(&p->cond_start);
    while (p->pending)
        pthread_cond_wait(&p->cond_done, &p->lock);
    pthread_mutex_unlock(&p->lock);
    for (unsigned i = 0; i < p->n; i++)
        if (p->w[i].err[0])
            return errf(err, errlen, "worker %u: %s", i, p->w[i].err);
    return 0;
}

unsigned worker_pool_size(const struct worker_pool *p) { return p->n; }

const struct worker_stats *worker_pool_stats(const struct worker_pool *p, unsigned i)
{
    return &p->w[i].stats;
}

struct engine *worker_pool_engine(struct worker_pool *p, unsigned i) { return p->w[i].eng; }

void worker_pool_stop(struct worker_pool *p)
{
    if (!p)
        return;
    pthread_mutex_lock(&p->lock);
    p->quit = true;
    pthread_cond_broadcast(&p->cond_start);
    pthread_mutex_unlock(&p->lock);
    for (unsigned i = 0; i < p->n; i++) {
        if (p->w[i].started)
            pthread_join(p->w[i].thread, NULL);
        free(p->w[i].free_units);
        free(p->w[i].staged);
        free(p->w[i].done);
        free(p->w[i].stats.samples);
    }
    pthread_mutex_destroy(&p->lock);
    pthread_cond_destroy(&p->cond_start);
    pthread_cond_destroy(&p->cond_done);
    free(p->w);
    free(p);
}
