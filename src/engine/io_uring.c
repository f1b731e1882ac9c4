/* io_uring.c — the default engine: liburing, one ring per worker, used only by the thread that
 * created it.  docs/engines.md section 2 says why each rule below is what it is; the series
 * that chose them are in docs/engines-measurements.md (M2.x); engine.h has the rules as code.
 *
 * The ring: SINGLE_ISSUER|DEFER_TASKRUN|COOP_TASKRUN|TASKRUN_FLAG (6.1), else SINGLE_ISSUER|
 * COOP_TASKRUN|TASKRUN_FLAG (6.0), else COOP_TASKRUN|TASKRUN_FLAG (5.19), else none; the ring fd,
 * the buffers (READ_FIXED/WRITE_FIXED) and the target fd are registered, each falling back
 * quietly to the plain form on kernels that refuse it.  Buffers: engine.c (2 MiB pages above a
 * page).
 *
 * Per batch.  queue() fills SQEs (no syscall); commit() leaves them staged; reap() submits and
 * waits in one of these ways, every completion taken as soon as it is seen (min is honoured, 1
 * by default) and stamped by the loop when reap returns:
 *   - spin (engine_spin_wanted): submit and run the completions already there in one
 *     io_uring_enter (io_uring_submit_and_get_events), take what is in the CQ ring, and if
 *     nothing is, look at the ring (no syscall) for up to engine_spin_limit, then sleep.  At
 *     depth while the recent waits were under ENGINE_SPIN_NS; at QD 1 when the trials found it
 *     cheaper in process CPU time; backed off after a spin that ran out at QD 1;
 *   - nap (engine_nap_wanted; targets without nowait I/O, unmarked, ENGINE_NAP_MIN_IN_FLIGHT or
 *     more in flight, where it would spin): submit and take what is there; if nothing, sleep
 *     ENGINE_NAP_NS on a timer (the thread's timer slack is 1 us), then take what completed;
 *     backed off by engine_note_nap when a nap finds three quarters done;
 *   - yield (engine_yield_wanted; targets without nowait I/O, as many engines there as the
 *     thread's CPUs, at depth, waiting for one): submit; if nothing, sched_yield, one more
 *     io_uring_enter, and sleep only if still nothing (a lone yield costs two syscalls);
 *   - batched (marked I/Os, BATCH_MIN_IN_FLIGHT or more in flight): sleep until a quarter of
 *     those in flight completed or BATCH_WAIT_NS passed; their stamps are up to that late,
 *     never early, and the mean latency stays QD / IOPS;
 *   - sleep: submit and wait for min in one io_uring_enter (io_uring_submit_and_wait).
 * Small batches: with only one or two new I/Os staged and half the depth or more (at least 4)
 * in the kernel, reap() waits without submitting them; they go with the next batch (io_uring
 * plugs the block layer only for 3 or more).  Their latency runs from the loop's stamp at commit.
 * Never when the workload caps the I/Os per call (iodepth_batch_submit, 1 in fio's files): the
 * held ones would go with the next, three under one plug (the block layer merged three
 * sequential 256 KiB reads into one 768 KiB request, fio's io_uring engine none).
 *
 * Targets without nowait I/O (engine_refuses_nowait at set-up: zram and other bio-based
 * drivers, where every I/O goes to an io-wq worker):
 *   - marked IOSQE_ASYNC (engine_mark_wanted): I/Os of ENGINE_MARK_MIN_LEN and up, and all of
 *     them while the process's io_uring engines on such targets have more than
 *     ENGINE_MARK_DEPTH_PER_CPU I/Os of depth per CPU between them (each engine adds its depth
 *     at init and takes it away at cleanup).  Marked I/Os never spin at depth and are never held
 *     back; each way keeps its own wait history;
 *   - the CPUs counted (mark and yield) are those the thread may run on (engine_thread_cpus),
 *     read at init, after the pool pinned the thread;
 *   - the thread asks for the shortest scheduler slice (ENGINE_SLICE_NS) with
 *     SCHED_FLAG_RESET_ON_FORK unless its nice value is negative; a thread that is not
 *     SCHED_OTHER is left as it is.  -DENGINE_SLICE_NS=0u builds without it.
 * Targets that take nowait I/O (blk-mq devices, files) never mark, nap, yield or batch.
 *
 * Recorded: engine_choices (engine.h) counts, per wait, which of the ways above ran, and the I/Os
 * marked; tests/unit/test_engines.c checks each path with data; tests/bench/bench_engines.c
 * (`make bench`) measures the engine against fio at its best. */
#include "engine/engine.h"

#include <errno.h>
#include <liburing.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <stdatomic.h>
#include <stdint.h>
#include <time.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/uio.h>

#include "io/workload.h"
#include "lib/util.h"

struct engine {
    struct io_uring ring;
    bool ring_ok;
    unsigned depth;
    struct io_unit *units;
    void *bufs;
    size_t stride;
    bool fixed_bufs;
    bool fixed_file;
    bool batch_waits;   /* the kernel takes a timeout with a wait (IORING_FEAT_EXT_ARG, 5.11) */
    bool punts;     /* every I/O goes to io-wq (engine_refuses_nowait): some marked async */
    bool marking;   /* the last I/O queued was marked (its waits: the header) */
    bool capped;    /* the workload caps the I/Os per submission (iodepth_batch_submit): none held */
    unsigned cpus;  /* the CPUs this thread may run on (engine_thread_cpus), for the rules */
    int fd;
    unsigned staged;
    struct io_uring_cqe **cqes;
    struct engine_waits waits[2];   /* the recent waits, unmarked [0] and marked [1] */
    struct engine_nap nap;          /* naps in place of the unmarked spin (the header) */
    unsigned in_flight; /* submitted, not yet taken */
    struct engine_trims trims;      /* trims done inside queue(), reaped first (engine.h) */
    struct engine_choices ch;       /* what the reap chose, counted (engine.h) */
};


#ifndef IORING_SETUP_SINGLE_ISSUER
#define IORING_SETUP_SINGLE_ISSUER (1U << 12)
#endif
#ifndef IORING_SETUP_COOP_TASKRUN
#define IORING_SETUP_COOP_TASKRUN (1U << 8)
#endif
#ifndef IORING_SETUP_TASKRUN_FLAG
#define IORING_SETUP_TASKRUN_FLAG (1U << 9)
#endif
#ifndef IORING_SETUP_DEFER_TASKRUN
#define IORING_SETUP_DEFER_TASKRUN (1U << 13)
#endif

/* Ring set-up flags, best first: each kernel takes the first it knows (EINVAL for the rest). */
static const unsigned ring_flags[] = {
    IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN | IORING_SETUP_COOP_TASKRUN |
        IORING_SETUP_TASKRUN_FLAG,                                       /* 6.1 */
    IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_COOP_TASKRUN | IORING_SETUP_TASKRUN_FLAG, /* 6.0 */
    IORING_SETUP_COOP_TASKRUN | IORING_SETUP_TASKRUN_FLAG,               /* 5.19 */
    0,
};

static void uring_cleanup(struct engine *e);

#ifndef SCHED_RESET_ON_FORK
#define SCHED_RESET_ON_FORK 0x40000000   /* sched_getscheduler's form of it */
#endif

/* Ask the scheduler for this thread's shortest slice (docs/engines.md: "Short slice"), keeping
 * its policy and nice value; only a SCHED_OTHER thread asks (a real-time one stays as it is).
 * Kernels before 6.12 take the call and keep their own slice; failures change nothing. */
static void ask_short_slice(void)
{
    if (!ENGINE_SLICE_NS)   /* a build without it (engine.h) */
        return;
    const int policy = sched_getscheduler(0);   /* with SCHED_RESET_ON_FORK or'ed in when set */
    if (policy < 0 || (policy & ~SCHED_RESET_ON_FORK) != SCHED_OTHER)
        return;
    errno = 0;
    const int nice = getpriority(PRIO_PROCESS, 0);   /* this thread's: Linux keeps it per thread */
    if (nice == -1 && errno)
        return;
    struct engine_sched_attr a;
    memset(&a, 0, sizeof(a));
    a.size = sizeof(a);
    a.policy = SCHED_OTHER;
    /* io-wq's workers, made later from this thread, keep the default slice; but the reset
     * would also put a negative nice value of theirs back to 0, so under one they inherit the
     * short slice instead (measured as good: docs/engines-measurements.md M2.11). */
    a.flags = nice >= 0 ? ENGINE_SCHED_RESET_ON_FORK : 0;
    a.nice = nice;
    a.runtime = ENGINE_SLICE_NS;
    (void)syscall(SYS_sched_setattr, 0, &a, 0U);
}

/* The depth of this process's io_uring engines on targets that refuse nowait I/O, together
 * (engine_mark_wanted): workers' engines are set up and torn down on their own threads. */
static atomic_uint punting_depth;
static atomic_uint punting_engines;   /* and how many they are (engine_yield_wanted) */

static int uring_init(struct engine **out, const struct engine_config *cfg, char *err, size_t errlen)
{
    struct engine *e = xcalloc(1, sizeof(*e));
    e->depth = cfg->depth;
    e->fd = cfg->fd;
    engine_trims_init(&e->trims, cfg->fd, cfg->depth);
    e->capped = cfg->wl && cfg->wl->batch_submit;

    unsigned entries = 1;
    while (entries < cfg->depth)
        entries <<= 1;
    int ret = -EINVAL;
    for (size_t i = 0; i < sizeof(ring_flags) / sizeof(ring_flags[0]) && ret == -EINVAL; i++) {
        struct io_uring_params p;
        memset(&p, 0, sizeof(p));
        p.flags = ring_flags[i];
        ret = io_uring_queue_init_params(entries, &e->ring, &p);
    }
    if (ret < 0) {
        free(e);
        return errf(err, errlen, "io_uring: cannot set up a ring of %u entries: %s%s", entries,
                    strerror(-ret),
                    ret == -EPERM || ret == -ENOSYS ? " (io_uring disabled? try --engine libaio)" : "");
    }
    e->ring_ok = true;

    e->units = xcalloc(cfg->depth, sizeof(*e->units));
    e->cqes = xcalloc(cfg->depth, sizeof(*e->cqes));
    e->bufs = engine_alloc_buffers(cfg->depth, cfg->max_len, cfg->mem_align, &e->stride);
    if (!e->bufs) {
        uring_cleanup(e);
        return errf(err, errlen, "io_uring: cannot allocate %u buffers of %u bytes", cfg->depth,
                    cfg->max_len);
    }
    struct iovec *iov = xcalloc(cfg->depth, sizeof(*iov));
    for (unsigned i = 0; i < cfg->depth; i++) {
        e->units[i].buf = (char *)e->bufs + (size_t)i * e->stride;
        e->units[i].index = i;
        iov[i].iov_base = e->units[i].buf;
        iov[i].iov_len = e->stride;
    }
    e->punts = engine_refuses_nowait(cfg->fd);
    e->ch.known = true;
    e->ch.nowait = !e->punts;
    /* Without EXT_ARG liburing would queue a timeout SQE of its own, and submit ours with it. */
    e->batch_waits = e->ring.features & IORING_FEAT_EXT_ARG;
    if (e->punts) {
        e->cpus = engine_thread_cpus();   /* set up on the thread that will use it, pinned */
        atomic_fetch_add(&punting_depth, e->depth);
        atomic_fetch_add(&punting_engines, 1);
        /* A nap (the header) is a timed sleep: the thread's default timer slack (50 us) would let
         * the kernel stretch 10 us to 60, and the device run dry (QD 32 on zram: 311K IOPS
         * against 576K).  The thread is ours and does nothing else. */
        (void)prctl(PR_SET_TIMERSLACK, 1000UL, 0UL, 0UL, 0UL);
        ask_short_slice();
    }
    e->fixed_bufs = io_uring_register_buffers(&e->ring, iov, cfg->depth) == 0;
    free(iov);
    e->fixed_file = io_uring_register_files(&e->ring, &e->fd, 1) == 0;
    (void)io_uring_register_ring_fd(&e->ring);   /* 5.18; liburing uses it when it took */
    *out = e;
    return 0;
}

static struct io_unit *uring_units(struct engine *e) { return e->units; }

static int uring_queue(struct engine *e, struct io_unit *u)
{
    if (u->dir == IO_TRIM) {   /* synchronously, as fio (engine.h: engine_trims) */
        engine_trims_run(&e->trims, e->fd, u);
        return 0;
    }
    struct io_uring_sqe *sqe = io_uring_get_sqe(&e->ring);
    if (!sqe)
        return -EBUSY;
    int fd = e->fixed_file ? 0 : e->fd;
    if (e->fixed_bufs) {
        if (u->dir == IO_READ)
            io_uring_prep_read_fixed(sqe, fd, u->buf, u->len, u->offset, (int)u->index);
        else
            io_uring_prep_write_fixed(sqe, fd, u->buf, u->len, u->offset, (int)u->index);
    } else {
        if (u->dir == IO_READ)
            io_uring_prep_read(sqe, fd, u->buf, u->len, u->offset);
        else
            io_uring_prep_write(sqe, fd, u->buf, u->len, u->offset);
    }
    if (e->fixed_file)
        sqe->flags |= IOSQE_FIXED_FILE;
    sqe->ioprio = u->ioprio;   /* fio's prio keys (0: the thread's priority) */
    if (e->punts) {
        e->marking = engine_mark_wanted(
            u->len, atomic_load_explicit(&punting_depth, memory_order_relaxed), e->cpus);
        if (e->marking) {
            sqe->flags |= IOSQE_ASYNC;
            e->ch.marked++;
        }
    }
    io_uring_sqe_set_data(sqe, u);
    e->staged++;
    return 0;
}

static int uring_commit(struct engine *e)
{
    /* Submission happens in reap(), together with the wait: one syscall per batch. */
    (void)e;
    return 0;
}

/* A submit error that leaves the ring unusable (interrupted or busy: try again later). */
static bool submit_error(int ret)
{
    return ret < 0 && ret != -EINTR && ret != -EAGAIN && ret != -EBUSY;
}

/* After an io_uring_enter that may have submitted: ret SQEs went to the kernel (ret < 0: none,
 * they stay staged and go with the next call). */
static void submitted(struct engine *e, int ret)
{
    if (ret >= 0) {
        e->staged = 0;
        e->in_flight += (unsigned)ret;
    }
}

static int uring_flush(struct engine *e)
{
    if (!e->staged)
        return 0;
    int ret = io_uring_submit(&e->ring);
    if (submit_error(ret))
        return ret;
    submitted(e, ret);
    return 0;
}

/* Take up to max completions from the CQ ring (running pending completions first when the
 * kernel flagged them); no wait. */
static unsigned take(struct engine *e, unsigned max, struct io_unit **out)
{
    unsigned n = io_uring_peek_batch_cqe(&e->ring, e->cqes, max);
    for (unsigned i = 0; i < n; i++) {
        struct io_unit *u = io_uring_cqe_get_data(e->cqes[i]);
        u->result = e->cqes[i]->res;
        out[i] = u;
    }
    io_uring_cq_advance(&e->ring, n);
    e->in_flight -= n;
    return n;
}

/* A marked engine's sleeping waits at depth (docs/engines.md: "The marked way's waits"). */
#define BATCH_MIN_IN_FLIGHT 64u
#define BATCH_DIV 4u
#define BATCH_WAIT_NS 100000L

/* io_uring's submission plugs the block layer from 3 I/Os up (io_submit_state_start). */
#define HOLD_BELOW 3u

static int uring_reap_ring(struct engine *e, unsigned min, unsigned max, struct io_unit **out)
{
    if (max > e->depth)
        max = e->depth;
    /* One or two new I/Os while half the depth or more is in the kernel: wait for completions
     * without submitting them; they go with the next batch (docs/engines.md: "Small batches").
     * Not marked ones: they go to io-wq, not to a plugged block layer.  Not under
     * iodepth_batch_submit: held ones would go with the next call's, past the cap. */
    const bool hold = !e->marking && !e->capped && min && min <= e->in_flight && e->staged &&
                      e->staged < HOLD_BELOW && e->in_flight >= 4 && e->in_flight >= e->depth / 2;
    /* Each way keeps its own waits (docs/engines.md: "The marked way's waits").  Marked I/Os
     * run in io-wq workers on every CPU: a spin at depth would take one from them. */
    struct engine_waits *w = &e->waits[e->marking];
    const unsigned submitted_now = e->in_flight + (hold ? 0 : e->staged);
    /* An engine per CPU or more: yield to the workers instead of spinning (docs/engines.md:
     * "Yield").  Not when the workload asks for several completions per wait
     * (batch_complete_min): that wait sleeps for them, as the spin does not run then either. */
    const bool yielding =
        e->punts && min == 1 &&
        engine_yield_wanted(submitted_now,
                            atomic_load_explicit(&punting_engines, memory_order_relaxed), e->cpus);
    const bool spinning = !yielding && !(e->marking && submitted_now > 1) &&
                          engine_spin_wanted(w, min, submitted_now);
    unsigned n = 0;
    uint64_t t0 = 0;
    e->ch.waits += min != 0;
    e->ch.held += hold;
    if (spinning || !min || hold || yielding) {
        /* submit what is staged (unless held) and run the completions already there: one
         * syscall */
        int ret = hold ? io_uring_get_events(&e->ring) : io_uring_submit_and_get_events(&e->ring);
        if (submit_error(ret))
            return ret;
        if (!hold)
            submitted(e, ret);
        n = take(e, max, out);
        if (n || !min) {
            if (spinning || hold || yielding)
                engine_note_wait(w, 0, false);
            return (int)n;
        }
        t0 = now_mono_ns();
        if (yielding) {
            /* let the workers on this CPU run, then run what they completed: one look */
            sched_yield();
            e->ch.yielded++;
            ret = io_uring_get_events(&e->ring);
            if (submit_error(ret))
                return ret;
            n = take(e, max, out);
            if (n) {
                engine_note_wait(w, now_mono_ns() - t0, true);
                return (int)n;
            }
        }
        if (spinning && e->punts && engine_nap_wanted(&e->nap, e->in_flight)) {
            /* sleep on a timer instead of spinning, then run and take what the workers
             * completed meanwhile (docs/engines.md: "Nap").  No wait is noted: whatever the nap
             * found had not been waited for. */
            const unsigned before = e->in_flight;
            const struct timespec len = {.tv_sec = 0, .tv_nsec = ENGINE_NAP_NS};
            (void)nanosleep(&len, NULL);   /* EINTR: a shorter nap */
            e->ch.napped++;
            ret = io_uring_get_events(&e->ring);
            if (submit_error(ret))
                return ret;
            /* all that completed, not only the max this reap hands back */
            engine_note_nap(&e->nap, io_uring_cq_ready(&e->ring), before);
            n = take(e, max, out);
            if (n)
                return (int)n;
        }
        if (spinning) {
            e->ch.spun++;
            n = engine_spin(e, w, take, max, out, t0, e->in_flight);
            if (n) {
                engine_note_wait(w, now_mono_ns() - t0, false);
                return (int)n;
            }
        }
    } else {
        t0 = now_mono_ns();
    }
    /* Marked, BATCH_MIN_IN_FLIGHT or more in flight: sleep until a quarter of them have
     * completed, or BATCH_WAIT_NS has passed (docs/engines.md: "The marked way's waits"). */
    if (e->marking && e->batch_waits && min == 1 && submitted_now >= BATCH_MIN_IN_FLIGHT) {
        const int ret = uring_flush(e);   /* marked: never held */
        if (ret)
            return ret;
        struct __kernel_timespec ts = {.tv_sec = 0, .tv_nsec = BATCH_WAIT_NS};
        struct io_uring_cqe *cqe;
        e->ch.batched++;
        /* -ETIME: the bound passed first */
        (void)io_uring_wait_cqes(&e->ring, &cqe, submitted_now / BATCH_DIV, &ts, NULL);
        n = take(e, max, out);
        if (n) {
            engine_note_wait(w, now_mono_ns() - t0, true);
            return (int)n;
        }
    }
    e->ch.slept++;
    do {   /* sleep until min completions (submitting what is staged, unless held) */
        struct io_uring_cqe *cqe;
        int ret = hold ? io_uring_wait_cqes(&e->ring, &cqe, min, NULL, NULL)
                       : io_uring_submit_and_wait(&e->ring, min);
        if (submit_error(ret))
            return ret;
        if (!hold)
            submitted(e, ret);
        n = take(e, max, out);
    } while (n == 0);   /* an interrupted wait: wait again */
    engine_note_wait(w, now_mono_ns() - t0, !spinning);
    return (int)n;
}

/* Trims done inside queue() first (engine_trims), then the ring's: what is staged is
 * submitted and what completed taken, without a wait once min are there. */
static int uring_reap(struct engine *e, unsigned min, unsigned max, struct io_unit **out)
{
    const unsigned n = engine_trims_take(&e->trims, max < e->depth ? max : e->depth, out);
    if (!n)
        return uring_reap_ring(e, min, max, out);
    if (n < min && e->in_flight + e->staged) {
        const int r = uring_reap_ring(e, min - n, max - n, out + n);
        return r < 0 ? r : (int)n + r;
    }
    const int ret = uring_flush(e);
    if (ret)
        return ret;
    return (int)(n + take(e, max - n, out + n));
}

static void uring_choices(struct engine *e, struct engine_choices *out) { *out = e->ch; }

static const char *uring_version(void)
{
#ifdef PTSBENCH_LIBURING_VERSION
    return "liburing " PTSBENCH_LIBURING_VERSION;
#else
    return "liburing";
#endif
}

static void uring_cleanup(struct engine *e)
{
    if (!e)
        return;
    if (e->punts) {
        atomic_fetch_sub(&punting_depth, e->depth);
        atomic_fetch_sub(&punting_engines, 1);
    }
    /* Unregister the file first: that waits until the kernel has dropped its reference, while
     * a plain exit leaves the ring (and the file, for a block device its O_EXCL claim) to a
     * kernel worker, and a reopen right after would find the device "in use". */
    if (e->ring_ok && e->fixed_file)
        io_uring_unregister_files(&e->ring);
    if (e->ring_ok)
        io_uring_queue_exit(&e->ring);
    engine_free_buffers(e->bufs, e->depth, e->stride);
    engine_trims_free(&e->trims);
    free(e->units);
    free(e->cqes);
    free(e);
}

const struct engine_ops engine_io_uring = {
    .name = "io_uring",
    .description = "Linux io_uring via liburing (registered buffers and file), the default",
    .flags = 0,
    .init = uring_init,
    .units = uring_units,
    .queue = uring_queue,
    .commit = uring_commit,
    .flush = uring_flush,
    .reap = uring_reap,
    .clock = engine_clock_monotonic,
    .idle = engine_idle_sleep,
    .choices = uring_choices,
    .version = uring_version,
    .cleanup = uring_cleanup,
};
