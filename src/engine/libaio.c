/* libaio.c — Linux native AIO (io_submit / io_getevents) via libaio, one context per worker.
 *
 * Per batch: queue() fills iocbs, commit() submits them all in io_submit calls.  reap() first
 * takes completions straight from the context's completion ring, which the kernel maps into
 * our memory (the context id is its address; fio's userspace_reap does the same), without a
 * syscall: on a device that completes inside io_submit (zram, a RAM disk) they are all there
 * already.  If there are fewer than min, it may spin on that ring for a while first, by the
 * same rules as the io_uring engine (engine.h: at depth up to ENGINE_SPIN_NS while recent
 * waits were that short; at QD 1 when that was measured to cost less CPU than sleeping), then
 * sleeps in io_getevents.  Only this thread reads or moves the ring's head, and io_getevents
 * runs in this thread too, so user space and kernel never move it at the same time.  A ring
 * whose header we do not know (magic or incompat_features) is only read through
 * io_getevents.  After each io_submit on a bio-based target (zram) it reads the ring's new
 * entries to count the I/Os the device ran inside the call (done_at_submit, core/metrics.h:
 * they count as one in flight for the call). */
#include "engine/engine.h"

#include <errno.h>
#include <libaio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"

struct engine {
    io_context_t ctx;
    bool ctx_ok;
    unsigned depth;
    int fd;
    struct io_unit *units;
    struct iocb *iocbs;        /* one per unit, same index */
    struct iocb **staged;      /* pointers waiting for io_submit */
    unsigned n_staged;
    struct io_event *events;
    void *bufs;
    size_t stride;
    struct aio_ring *ring;     /* the completion ring, when its layout is the known one */
    struct engine_waits waits;
    unsigned in_flight;        /* submitted, not yet taken */
    /* completions found in the ring when io_submit returned that belong to the I/Os it just
     * submitted (aio_done_at_submit): the batch each unit went in, by unit index */
    uint32_t *batch_of;
    uint32_t batch;
    uint64_t done_at_submit;
    bool bio_based;            /* the target refuses nowait I/O (engine_refuses_nowait) */
    struct engine_trims trims;      /* trims done inside queue(), reaped first (engine.h) */
    struct engine_choices ch;  /* what the reap chose, counted (engine.h) */
};

/* The header of the completion ring io_setup maps (the kernel's fs/aio.c; a stable ABI). */
struct aio_ring {
    unsigned id, nr, head, tail, magic, compat_features, incompat_features, header_length;
    struct io_event io_events[];
};
#define AIO_RING_MAGIC 0xa10a10a1u
#define LIBAIO_IOCB_FLAG_IOPRIO (1u << 1)   /* linux/aio_abi.h IOCB_FLAG_IOPRIO (4.18) */

static void aio_cleanup(struct engine *e);

static int aio_init(struct engine **out, const struct engine_config *cfg, char *err, size_t errlen)
{
    struct engine *e = xcalloc(1, sizeof(*e));
    e->depth = cfg->depth;
    e->fd = cfg->fd;
    engine_trims_init(&e->trims, cfg->fd, cfg->depth);
    int ret = io_setup((int)cfg->depth, &e->ctx);
    if (ret < 0) {
        free(e);
        return errf(err, errlen, "libaio: io_setup(%u) failed: %s%s", cfg->depth, strerror(-ret),
                    ret == -EAGAIN ? " (raise /proc/sys/fs/aio-max-nr)" : "");
    }
    e->ctx_ok = true;
    e->units = xcalloc(cfg->depth, sizeof(*e->units));
    e->iocbs = xcalloc(cfg->depth, sizeof(*e->iocbs));
    e->staged = xcalloc(cfg->depth, sizeof(*e->staged));
    e->events = xcalloc(cfg->depth, sizeof(*e->events));
    e->batch_of = xcalloc(cfg->depth, sizeof(*e->batch_of));
    e->bio_based = engine_refuses_nowait(cfg->fd);
    e->ch.known = true;
    e->ch.nowait = !e->bio_based;
    e->bufs = engine_alloc_buffers(cfg->depth, cfg->max_len, cfg->mem_align, &e->stride);
    if (!e->bufs) {
        aio_cleanup(e);
        return errf(err, errlen, "libaio: cannot allocate %u buffers of %u bytes", cfg->depth,
                    cfg->max_len);
    }
    for (unsigned i = 0; i < cfg->depth; i++) {
        e->units[i].buf = (char *)e->bufs + (size_t)i * e->stride;
        e->units[i].index = i;
    }
    struct aio_ring *ring = (struct aio_ring *)e->ctx;
    if (ring->magic == AIO_RING_MAGIC && ring->incompat_features == 0 && ring->nr)
        e->ring = ring;
    *out = e;
    return 0;
}

static struct io_unit *aio_units(struct engine *e) { return e->units; }

static int aio_queue(struct engine *e, struct io_unit *u)
{
    if (u->dir == IO_TRIM) {   /* synchronously, as fio (engine.h: engine_trims) */
        engine_trims_run(&e->trims, e->fd, u);
        return 0;
    }
    if (e->n_staged >= e->depth)
        return -EBUSY;
    struct iocb *cb = &e->iocbs[u->index];
    if (u->dir == IO_READ)
        io_prep_pread(cb, e->fd, u->buf, u->len, (long long)u->offset);
    else
        io_prep_pwrite(cb, e->fd, u->buf, u->len, (long long)u->offset);
    if (u->ioprio) {   /* fio's prio keys, as fio's libaio engine */
        cb->aio_reqprio = (short)u->ioprio;
        cb->u.c.flags |= LIBAIO_IOCB_FLAG_IOPRIO;
    }
    cb->data = u;
    e->batch_of[u->index] = e->batch;
    e->staged[e->n_staged++] = cb;
    return 0;
}

static unsigned ring_tail(const struct engine *e)
{
    return e->ring ? __atomic_load_n(&e->ring->tail, __ATOMIC_ACQUIRE) : 0;
}

/* After an io_submit of n I/Os on a target that refuses nowait I/O (a bio-based driver such as
 * zram, whose I/O is the submitting thread's own work): when the completions that arrived in
 * the ring since `from` (its tail before the call) are exactly those n, the device ran them
 * inside the call, and they are counted. A call during which an earlier I/O completed too, or
 * that returned with some of its own still out, worked beside the device: nothing is counted.
 * Elsewhere nothing is: a blk-mq device or a file whose call blocked until its I/Os were done
 * (no free tag, a filesystem lock) had them in flight together, and a hole in a file read
 * inside the call is no device at all.  Memory reads only. */
static void count_done_at_submit(struct engine *e, unsigned from, unsigned n)
{
    const struct aio_ring *r = e->ring;
    if (!r || !e->bio_based)
        return;
    unsigned mine = 0;
    for (unsigned i = from, tail = ring_tail(e); i != tail; i = i + 1 == r->nr ? 0 : i + 1) {
        const struct io_unit *u = (const struct io_unit *)(uintptr_t)r->io_events[i].data;
        if (e->batch_of[u->index] != e->batch)
            return;   /* an earlier I/O completed meanwhile */
        mine++;
    }
    if (mine == n)
        e->done_at_submit += n;
}

static int aio_commit(struct engine *e)
{
    unsigned done = 0;
    while (done < e->n_staged) {
        const unsigned from = ring_tail(e);
        int ret = io_submit(e->ctx, (long)(e->n_staged - done), e->staged + done);
        if (ret < 0) {
            if (ret == -EINTR || ret == -EAGAIN)
                continue;
            e->n_staged = 0;
            return ret;
        }
        done += (unsigned)ret;
        e->in_flight += (unsigned)ret;
        count_done_at_submit(e, from, (unsigned)ret);
    }
    e->n_staged = 0;
    e->batch++;
    return 0;
}

static uint64_t aio_done_at_submit(struct engine *e) { return e->done_at_submit; }

static void give(struct io_event *ev, struct io_unit **out)
{
    struct io_unit *u = ev->data;
    u->result = (int64_t)(long)ev->res;
    *out = u;
}

/* Up to max completions from the mapped ring, no syscall. */
static unsigned user_reap(struct engine *e, unsigned max, struct io_unit **out)
{
    struct aio_ring *r = e->ring;
    if (!r)
        return 0;
    unsigned head = r->head, n = 0;
    const unsigned tail = __atomic_load_n(&r->tail, __ATOMIC_ACQUIRE);
    while (n < max && head != tail) {
        give(&r->io_events[head], &out[n++]);
        head = head + 1 == r->nr ? 0 : head + 1;
    }
    if (n)
        __atomic_store_n(&r->head, head, __ATOMIC_RELEASE);
    e->in_flight -= n;
    return n;
}

static int aio_reap_ring(struct engine *e, unsigned min, unsigned max, struct io_unit **out)
{
    if (max > e->depth)
        max = e->depth;
    e->ch.waits += min != 0;
    unsigned n = user_reap(e, max, out);
    if (e->ring && n >= min) {
        if (n && min)
            engine_note_wait(&e->waits, 0, false);
        return (int)n;
    }
    const uint64_t t0 = now_mono_ns();
    const bool spinning = e->ring && engine_spin_wanted(&e->waits, min, e->in_flight);
    if (spinning) {
        e->ch.spun++;
        n = engine_spin(e, &e->waits, user_reap, max, out, t0, e->in_flight);
        if (n) {
            engine_note_wait(&e->waits, now_mono_ns() - t0, false);
            return (int)n;
        }
    }
    struct timespec zero = {0, 0};
    e->ch.slept += min != 0;
    for (;;) {
        int ret = io_getevents(e->ctx, (long)(min - n), (long)(max - n), e->events,
                               min ? NULL : &zero);
        if (ret == -EINTR)
            continue;
        if (ret < 0)
            return ret;
        for (int i = 0; i < ret; i++)
            give(&e->events[i], &out[n + (unsigned)i]);
        n += (unsigned)ret;
        e->in_flight -= (unsigned)ret;
        if (min)
            engine_note_wait(&e->waits, now_mono_ns() - t0, !spinning);
        return (int)n;
    }
}

/* Trims done inside queue() first (engine_trims), then the ring's without a wait once min
 * are there. */
static int aio_reap(struct engine *e, unsigned min, unsigned max, struct io_unit **out)
{
    if (max > e->depth)
        max = e->depth;
    const unsigned n = engine_trims_take(&e->trims, max, out);
    if (!n)
        return aio_reap_ring(e, min, max, out);
    const int r = e->in_flight ? aio_reap_ring(e, n < min ? min - n : 0, max - n, out + n) : 0;
    return r < 0 ? r : (int)n + r;
}

static void aio_choices(struct engine *e, struct engine_choices *out) { *out = e->ch; }

static const char *aio_version(void) { return "libaio"; }

static void aio_cleanup(struct engine *e)
{
    if (!e)
        return;
    if (e->ctx_ok)
        io_destroy(e->ctx);
    engine_free_buffers(e->bufs, e->depth, e->stride);
    engine_trims_free(&e->trims);
    free(e->units);
    free(e->iocbs);
    free(e->staged);
    free(e->events);
    free(e->batch_of);
    free(e);
}

const struct engine_ops engine_libaio = {
    .name = "libaio",
    .description = "Linux native AIO via libaio (io_submit/io_getevents)",
    .flags = 0,
    .init = aio_init,
    .units = aio_units,
    .queue = aio_queue,
    .commit = aio_commit,
    .flush = aio_commit,
    .reap = aio_reap,
    .clock = engine_clock_monotonic,
    .idle = engine_idle_sleep,
    .done_at_submit = aio_done_at_submit,
    .choices = aio_choices,
    .version = aio_version,
    .cleanup = aio_cleanup,
};
