/* simulated.c — the engine for simulated targets ("sim:PRESET"): virtual time.
 *
 * The drive model (src/sim) is passive: sim_submit() returns when an I/O completes. Each worker
 * has one instance of this engine, holding its pending completions in a small binary min-heap
 * keyed by (completion time, submission sequence): a stable tie-break, so a run is deterministic.
 * All instances share the drive and one virtual clock (struct sim_world, opened by the target
 * layer). The worker pool runs every worker in one thread and always reaps from the instance whose
 * completion comes first (next_completion), so the clock only moves forward; idle() jumps it. */
#include "engine/engine.h"

#include <errno.h>
#include <lz4.h>
#include <stdlib.h>
#include <string.h>

#include "device/target.h"
#include "lib/util.h"
#include "sim/sim.h"

#define SIM_MEASURE_CHUNK 4096

enum pend_state {
    PEND_DRIVE = 0,            /* t is the drive's completion before its pauses */
    PEND_PAUSED,               /* t includes the pauses (settle) */
    PEND_HOSTED,               /* t includes the host's part too (settle) */
};

struct pending {
    simt t;                    /* the completion, as far as settled (state) */
    uint64_t seq;
    struct io_unit *u;
    simt issue, stall;         /* when it was issued; the pauses' delay (undilated) */
    uint8_t state;             /* enum pend_state */
};

struct engine {
    struct sim_world *world;
    unsigned depth;
    unsigned compress_pct;
    /* measure_compress: real write data, measured with lz4 (validation of the generator) */
    void *bufs;
    size_t stride;
    char *lz4_out;
    int lz4_cap;
    struct io_unit *units;
    struct pending *heap;
    unsigned n;
    uint64_t seq;
    /* the review's host (sim_params.host_*): this worker's CPU, booked up to cpu, and the
     * shared driver path (world->driver), each per I/O in dilated ns */
    simt cpu, worker_ns, driver_ns;
    simt worker_kib_ns, driver_kib_ns;   /* and per KiB */
};

static inline bool pend_before(const struct pending *a, const struct pending *b)
{
    return a->t < b->t || (a->t == b->t && a->seq < b->seq);
}

static void heap_push(struct engine *e, struct pending p)
{
    unsigned i = e->n++;
    while (i > 0) {
        unsigned parent = (i - 1) / 2;
        if (!pend_before(&p, &e->heap[parent]))
            break;
        e->heap[i] = e->heap[parent];
        i = parent;
    }
    e->heap[i] = p;
}

/* heap[0] moved later (settled, or replaced by the last entry): sift it down. */
static void heap_fix_top(struct engine *e)
{
    struct pending top = e->heap[0];
    unsigned i = 0;
    for (;;) {
        unsigned l = 2 * i + 1, r = l + 1, m = i;
        const struct pending *best = &top;
        if (l < e->n && pend_before(&e->heap[l], best)) {
            m = l;
            best = &e->heap[l];
        }
        if (r < e->n && pend_before(&e->heap[r], best))
            m = r;
        if (m == i)
            break;
        e->heap[i] = e->heap[m];
        i = m;
    }
    e->heap[i] = top;
}

static struct pending heap_pop(struct engine *e)
{
    struct pending top = e->heap[0];
    if (--e->n) {
        e->heap[0] = e->heap[e->n];
        heap_fix_top(e);
    }
    return top;
}

static void simeng_cleanup(struct engine *e);

static int simeng_init(struct engine **out, const struct engine_config *cfg, char *err, size_t errlen)
{
    if (!cfg->handle)
        return errf(err, errlen, "sim engine: the target is not a simulated drive (use a "
                                 "sim:PRESET target)");
    struct engine *e = xcalloc(1, sizeof(*e));
    e->world = cfg->handle;
    e->depth = cfg->depth;
    e->compress_pct = cfg->compress_pct;
    e->units = xcalloc(cfg->depth, sizeof(*e->units));
    const double k = e->world->params.k ? e->world->params.k : 1;
    e->worker_ns = (simt)(e->world->params.host_worker_us * 1000.0 * k + 0.5);
    e->driver_ns = (simt)(e->world->params.host_driver_us * 1000.0 * k + 0.5);
    e->worker_kib_ns = (simt)(e->world->params.host_worker_us_per_kib * 1000.0 * k + 0.5);
    e->driver_kib_ns = (simt)(e->world->params.host_driver_us_per_kib * 1000.0 * k + 0.5);
    e->heap = xcalloc(cfg->depth, sizeof(*e->heap));
    for (unsigned i = 0; i < cfg->depth; i++)
        e->units[i].index = i;     /* no buffers: the model needs no data ... */
    if (e->world->params.measure_compress) {   /* ... unless asked to measure it */
        e->bufs = engine_alloc_buffers(cfg->depth, cfg->max_len, cfg->mem_align, &e->stride);
        if (!e->bufs) {
            simeng_cleanup(e);
            return errf(err, errlen, "sim engine: cannot allocate %u buffers of %u bytes",
                        cfg->depth, cfg->max_len);
        }
        for (unsigned i = 0; i < cfg->depth; i++)
            e->units[i].buf = (char *)e->bufs + (size_t)i * e->stride;
        e->lz4_cap = LZ4_compressBound(SIM_MEASURE_CHUNK);
        e->lz4_out = xcalloc(1, (size_t)e->lz4_cap);
    }
    *out = e;
    return 0;
}

static struct io_unit *simeng_units(struct engine *e) { return e->units; }

/* Compressibility of the data actually generated: lz4 per 4 KiB chunk, as a controller
 * compresses per mapping unit. 100 - stored share, in percent (rounded down: conservative). */
static unsigned measured_compress_pct(struct engine *e, const struct io_unit *u)
{
    size_t stored = 0;
    for (uint32_t off = 0; off < u->len; off += SIM_MEASURE_CHUNK) {
        int n = (int)(u->len - off < SIM_MEASURE_CHUNK ? u->len - off : SIM_MEASURE_CHUNK);
        int c = LZ4_compress_default((const char *)u->buf + off, e->lz4_out, n, e->lz4_cap);
        stored += c > 0 && c < n ? (size_t)c : (size_t)n;
    }
    return (unsigned)(100 - (stored * 100 + u->len - 1) / u->len);
}

static inline bool simeng_has_host(const struct engine *e)
{
    return e->worker_ns || e->driver_ns || e->worker_kib_ns || e->driver_kib_ns;
}

static int simeng_queue(struct engine *e, struct io_unit *u)
{
    if (e->n >= e->depth)
        return -EBUSY;
    unsigned pct = e->compress_pct;
    if (e->bufs && u->dir == IO_WRITE)
        pct = measured_compress_pct(e, u);
    struct sim_io io = {
        .op = u->dir == IO_TRIM ? SIM_TRIM : u->dir == IO_READ ? SIM_READ : SIM_WRITE,
        .compress_pct = (uint8_t)pct,
        .offset = u->offset,
        .len = u->len,
    };
    struct sim_dev *dev = e->world->dev;
    simt done = sim_submit(dev, e->world->now, &io);
    u->result = u->len;
    u->stall_ns = 0;
    uint8_t st = sim_has_pauses(dev) ? PEND_DRIVE
                 : !simeng_has_host(e) ? PEND_HOSTED : PEND_PAUSED;
    heap_push(e, (struct pending){done, e->seq++, u, e->world->now, 0, st});
    return 0;
}

/* Settle the earliest pending completions, in the order the drive completes them. First
 * the drive's pauses (sim_pause_delay): only when `final`, that is when this completion is
 * the earliest of every worker's (the pool is about to reap it), since a pause may begin with
 * any I/O issued before then. Then the host's part (sim_params.host_*): the worker's CPU (one
 * worker tops out at 1 / host_worker_us, less for large I/Os with host_worker_us_per_kib),
 * then the driver path all workers share (the card at 1 / host_driver_us, likewise): the completion queues for those and goes back with the host's
 * finishing time; a worker busy with an earlier completion delays it, one that is idle does
 * not. */
static void settle(struct engine *e, bool final)
{
    const bool host = simeng_has_host(e);
    while (e->n && e->heap[0].state != PEND_HOSTED) {
        struct pending *p = &e->heap[0];
        if (p->state == PEND_DRIVE) {
            if (!final)
                return;
            simt x = sim_pause_delay(e->world->dev, p->issue, p->t);
            p->state = host ? PEND_PAUSED : PEND_HOSTED;
            if (x) {
                p->t += x;
                p->stall = x;
                heap_fix_top(e);
                continue;
            }
            if (!host)
                continue;
            /* unchanged: still the earliest, on to the host's part */
        }
        simt h = p->t;
        const uint64_t len = p->u->len;
        if (e->worker_ns || e->worker_kib_ns) {
            h = (h > e->cpu ? h : e->cpu) + e->worker_ns + (e->worker_kib_ns * len + 1023) / 1024;
            e->cpu = h;
        }
        if (e->driver_ns || e->driver_kib_ns) {
            h = (h > e->world->driver ? h : e->world->driver) + e->driver_ns +
                (e->driver_kib_ns * len + 1023) / 1024;
            e->world->driver = h;
        }
        p->t = h;
        p->state = PEND_HOSTED;
        heap_fix_top(e);
    }
}

static int simeng_commit(struct engine *e)
{
    (void)e;
    return 0;
}

static int simeng_reap(struct engine *e, unsigned min, unsigned max, struct io_unit **out)
{
    (void)min;
    unsigned n = 0;
    settle(e, false);
    if (!e->n || !max)
        return 0;
    /* The pool chose this worker by its earliest completion as far as settled: settling it
     * now may move it later, and then it is not the earliest any more (none reaped: ask
     * again). Otherwise everything that completes at that time, in submission order. */
    simt t = e->heap[0].t;
    settle(e, true);
    if (e->heap[0].t != t)
        return 0;
    while (e->n && n < max) {
        settle(e, true);
        if (!e->n || e->heap[0].t != t)
            break;
        struct pending p = heap_pop(e);
        p.u->stall_ns = p.stall;
        out[n++] = p.u;
    }
    if (t > e->world->now)
        e->world->now = t;
    return (int)n;
}

static uint64_t simeng_clock(struct engine *e) { return e->world->now; }

static uint64_t simeng_next(struct engine *e)
{
    settle(e, false);
    return e->n ? e->heap[0].t : UINT64_MAX;
}

static int simeng_idle(struct engine *e, uint64_t ns)
{
    e->world->now += ns;
    return 0;
}

static const char *simeng_version(void) { return "ptsbench simulated SSD"; }

static void simeng_cleanup(struct engine *e)
{
    if (!e)
        return;
    engine_free_buffers(e->bufs, e->depth, e->stride);
    free(e->lz4_out);
    free(e->units);
    free(e->heap);
    free(e);
}

const struct engine_ops engine_sim = {
    .name = "sim",
    .description = "the built-in simulated SSD (sim:PRESET targets), in virtual time",
    .flags = ENGINE_F_VIRTUAL_CLOCK | ENGINE_F_SIM_TARGET,
    .init = simeng_init,
    .units = simeng_units,
    .queue = simeng_queue,
    .commit = simeng_commit,
    .reap = simeng_reap,
    .clock = simeng_clock,
    .next_completion = simeng_next,
    .idle = simeng_idle,
    .version = simeng_version,
    .cleanup = simeng_cleanup,
};
