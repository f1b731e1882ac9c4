/* sim_loop.c — see sim_loop.h. */
#include "sim_loop.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uint64_t sim_loop_rand(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static int sl_err(char *err, size_t n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (err && n)
        vsnprintf(err, n, fmt, ap);
    va_end(ap);
    return -1;
}

static void *sl_alloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size);
    if (!p) {
        fprintf(stderr, "sim_loop: out of memory\n");
        abort();
    }
    return p;
}

/* ---------------------------------------------------------------- heap of slots */

static inline bool sl_before(const struct sim_loop *L, unsigned a, unsigned b)
{
    return L->t_done[a] < L->t_done[b] || (L->t_done[a] == L->t_done[b] && a < b);
}

static void sl_sift_down(struct sim_loop *L, unsigned i)
{
    unsigned *h = L->heap, n = L->nheap, x = h[i];
    for (;;) {
        unsigned a = 2 * i + 1, b = a + 1, m = x;
        unsigned mi = i;
        if (a < n && sl_before(L, h[a], m)) {
            m = h[a];
            mi = a;
        }
        if (b < n && sl_before(L, h[b], m)) {
            m = h[b];
            mi = b;
        }
        if (mi == i)
            break;
        h[i] = m;
        i = mi;
    }
    h[i] = x;
}

static void sl_push(struct sim_loop *L, unsigned slot)
{
    unsigned *h = L->heap, i = L->nheap++;
    while (i) {
        unsigned p = (i - 1) / 2;
        if (!sl_before(L, slot, h[p]))
            break;
        h[i] = h[p];
        i = p;
    }
    h[i] = slot;
}

/* ---------------------------------------------------------------- I/O stream */

static uint64_t sl_block(struct sim_loop_worker *w)
{
    const struct sim_loop_job *j = &w->job;
    bool rnd = j->random_pct >= 100 ||
               (j->random_pct > 0 && sim_loop_rand(&w->rs) % 100 < j->random_pct);
    uint64_t b;
    if (!rnd)
        b = w->next < w->blocks ? w->next : 0;
    else if (w->perm && w->np < w->blocks)
        b = w->perm[w->np++];
    else
        b = sim_loop_rand(&w->rs) % w->blocks;
    w->next = b + 1;
    return b;
}

/* Submit slot's next I/O at `now`. */
static void sl_submit(struct sim_loop *L, unsigned slot, simt now)
{
    struct sim_loop_worker *w = &L->w[L->slot_w[slot]];
    const struct sim_loop_job *j = &w->job;
    bool rd = j->read_pct >= 100 ||
              (j->read_pct > 0 && sim_loop_rand(&w->rs) % 100 < j->read_pct);
    uint64_t b = sl_block(w);
    struct sim_io io = {rd ? SIM_READ : SIM_WRITE, (uint8_t)(rd ? 0 : j->compress_pct),
                        j->offset + b * j->bs, j->bs};
    simt done = sim_submit(L->d, now, &io);
    if (done < now) {
        fprintf(stderr, "sim_loop: completion %llu before submit %llu\n",
                (unsigned long long)done, (unsigned long long)now);
        abort();
    }
    L->t_sub[slot] = now;
    L->t_done[slot] = done;
    L->op[slot] = io.op;
    L->len[slot] = io.len;
}

/* Count the completion of `slot` (the heap top) into s. */
static inline void sl_count(struct sim_loop *L, unsigned slot, struct sim_loop_stats *s)
{
    double lat = (double)(L->t_done[slot] - L->t_sub[slot]);
    s->ios++;
    s->lat_ns += lat;
    if (L->op[slot] == SIM_READ) {
        s->reads++;
        s->read_bytes += L->len[slot];
        s->rlat_ns += lat;
    } else {
        s->writes++;
        s->write_bytes += L->len[slot];
        s->wlat_ns += lat;
    }
}

static void sl_start_all(struct sim_loop *L, simt now)
{
    L->now = now;
    L->nheap = 0;
    for (unsigned s = 0; s < L->nslots; s++) {
        sl_submit(L, s, now);
        sl_push(L, s);
    }
}

/* ---------------------------------------------------------------- API */

int sim_loop_open(struct sim_loop *L, struct sim_dev *d, const struct sim_loop_job *jobs,
                  unsigned njobs, simt now, char *err, size_t errlen)
{
    memset(L, 0, sizeof(*L));
    if (!njobs)
        return sl_err(err, errlen, "sim_loop: no workers");
    struct sim_info in;
    sim_info(d, &in);
    L->d = d;
    L->k = in.k;
    L->user_bytes = in.user_bytes;
    L->units = in.user_bytes / 4096;
    L->nw = njobs;
    L->w = sl_alloc(njobs, sizeof(*L->w));
    for (unsigned i = 0; i < njobs; i++) {
        struct sim_loop_worker *w = &L->w[i];
        struct sim_loop_job *j = &w->job;
        *j = jobs[i];
        if (!j->qd)
            j->qd = 1;
        if (!j->bs)
            j->bs = 4096;
        if (!j->seed)
            j->seed = 777 + i;
        if (j->bs % 512 || j->read_pct > 100 || j->random_pct > 100 || j->compress_pct > 100 ||
            j->offset % 512 || j->offset >= in.user_bytes) {
            sim_loop_close(L);
            return sl_err(err, errlen, "sim_loop: worker %u: bs %u, read %u %%, random %u %%, "
                          "compress %u %%, offset %llu: out of range", i, j->bs, j->read_pct,
                          j->random_pct, j->compress_pct, (unsigned long long)j->offset);
        }
        if (!j->span || j->offset + j->span > in.user_bytes)
            j->span = in.user_bytes - j->offset;
        w->blocks = j->span / j->bs;
        if (!w->blocks || w->blocks > UINT32_MAX) {
            sim_loop_close(L);
            return sl_err(err, errlen, "sim_loop: worker %u: %llu blocks of %u bytes in the "
                          "range", i, (unsigned long long)w->blocks, j->bs);
        }
        w->rs = j->seed;
        if (j->perm) {
            w->perm = sl_alloc(w->blocks, sizeof(uint32_t));
            for (uint64_t b = 0; b < w->blocks; b++)
                w->perm[b] = (uint32_t)b;
            for (uint64_t b = w->blocks - 1; b > 0; b--) {
                uint64_t r = sim_loop_rand(&w->rs) % (b + 1);
                uint32_t x = w->perm[b];
                w->perm[b] = w->perm[r];
                w->perm[r] = x;
            }
        }
        L->nslots += j->qd;
    }
    L->slot_w = sl_alloc(L->nslots, sizeof(*L->slot_w));
    L->t_done = sl_alloc(L->nslots, sizeof(simt));
    L->t_sub = sl_alloc(L->nslots, sizeof(simt));
    L->op = sl_alloc(L->nslots, 1);
    L->len = sl_alloc(L->nslots, sizeof(uint32_t));
    L->heap = sl_alloc(L->nslots, sizeof(unsigned));
    for (unsigned i = 0, s = 0; i < njobs; i++)
        for (unsigned q = 0; q < L->w[i].job.qd; q++)
            L->slot_w[s++] = i;
    sl_start_all(L, now);
    return 0;
}

void sim_loop_close(struct sim_loop *L)
{
    if (L->w)
        for (unsigned i = 0; i < L->nw; i++)
            free(L->w[i].perm);
    free(L->w);
    free(L->slot_w);
    free(L->t_done);
    free(L->t_sub);
    free(L->op);
    free(L->len);
    free(L->heap);
    memset(L, 0, sizeof(*L));
}

double sim_loop_run(struct sim_loop *L, uint64_t n, struct sim_loop_stats *s)
{
    struct sim_loop_stats st;
    memset(&st, 0, sizeof(st));
    st.t0 = L->now;
    for (uint64_t c = 0; c < n && L->nheap; c++) {
        unsigned slot = L->heap[0];
        L->now = L->t_done[slot];
        sl_count(L, slot, &st);
        sl_submit(L, slot, L->now);
        sl_sift_down(L, 0);
    }
    st.t1 = L->now;
    if (s)
        *s = st;
    return sim_loop_iops(L, &st);
}

double sim_loop_run_until(struct sim_loop *L, simt t_end, struct sim_loop_stats *s)
{
    struct sim_loop_stats st;
    memset(&st, 0, sizeof(st));
    st.t0 = L->now;
    while (L->nheap && L->t_done[L->heap[0]] <= t_end) {
        unsigned slot = L->heap[0];
        L->now = L->t_done[slot];
        sl_count(L, slot, &st);
        sl_submit(L, slot, L->now);
        sl_sift_down(L, 0);
    }
    if (t_end > L->now)
        L->now = t_end;
    st.t1 = L->now;
    if (s)
        *s = st;
    return sim_loop_iops(L, &st);
}

void sim_loop_drain(struct sim_loop *L, struct sim_loop_stats *s)
{
    struct sim_loop_stats st;
    memset(&st, 0, sizeof(st));
    st.t0 = L->now;
    while (L->nheap) {
        unsigned slot = L->heap[0];
        L->now = L->t_done[slot];
        sl_count(L, slot, &st);
        L->heap[0] = L->heap[--L->nheap];
        if (L->nheap)
            sl_sift_down(L, 0);
    }
    st.t1 = L->now;
    if (s)
        *s = st;
}

void sim_loop_idle(struct sim_loop *L, simt gap, struct sim_loop_stats *s)
{
    sim_loop_drain(L, s);
    sl_start_all(L, L->now + gap);
}

double sim_loop_iops(const struct sim_loop *L, const struct sim_loop_stats *s)
{
    if (s->t1 <= s->t0)
        return 0.0;
    return (double)s->ios * L->k / ((double)(s->t1 - s->t0) * 1e-9);
}

double sim_loop_mib_s(const struct sim_loop *L, const struct sim_loop_stats *s)
{
    if (s->t1 <= s->t0)
        return 0.0;
    return (double)(s->read_bytes + s->write_bytes) * L->k / 1048576.0 /
           ((double)(s->t1 - s->t0) * 1e-9);
}

double sim_loop_lat_us(const struct sim_loop *L, const struct sim_loop_stats *s, int op)
{
    double sum = op == SIM_READ ? s->rlat_ns : op == SIM_WRITE ? s->wlat_ns : s->lat_ns;
    uint64_t n = op == SIM_READ ? s->reads : op == SIM_WRITE ? s->writes : s->ios;
    return n ? sum / (double)n / 1000.0 / L->k : 0.0;
}

void sim_loop_stats_add(struct sim_loop_stats *a, const struct sim_loop_stats *b)
{
    if (!a->ios && a->t1 == a->t0)
        a->t0 = b->t0;
    a->ios += b->ios;
    a->reads += b->reads;
    a->writes += b->writes;
    a->read_bytes += b->read_bytes;
    a->write_bytes += b->write_bytes;
    a->lat_ns += b->lat_ns;
    a->rlat_ns += b->rlat_ns;
    a->wlat_ns += b->wlat_ns;
    a->t1 = b->t1;
}
