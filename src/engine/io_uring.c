/* io_uring.c — the default engine: liburing, one ring per worker, used only by the thread that
 * created it.
 *
 * Per batch.  queue() fills SQEs (no syscall); commit() leaves them staged.  reap() then does
 * one of three things (engine.h: engine_spin_wanted, engine_yield_wanted):
 *   - spin: submit and run the completions already there in one io_uring_enter
 *     (io_uring_submit_and_get_events) and take what is in the CQ ring; if nothing is yet,
 *     spin on the ring (no syscall) for a while, then sleep.  At depth it spins for up to
 *     ENGINE_SPIN_NS (10 us), while the recent waits for a completion (a moving average) were
 *     that short: a fast device.  At QD 1 it spins when that was measured to cost the process
 *     less CPU per I/O than sleeping (engine.h), for up to half a sleeping wait;
 *   - nap (targets without nowait I/O, 16 or more in flight, where it would spin; "Nap"
 *     below): submit and take what is there, and if there is nothing, sleep 10 us on a timer,
 *     then take what the io-wq workers completed meanwhile (a spin and a sleep after it if
 *     that is still nothing);
 *   - yield (targets without nowait I/O, an engine per CPU; "Yield" below): submit and run the
 *     completions already there, and if there are none, give the CPU to the io-wq workers
 *     (sched_yield), run what they completed, and sleep only if that is still nothing;
 *   - sleep: submit and sleep until a completion in one io_uring_enter
 *     (io_uring_submit_and_wait), as fio does.
 * Small batches: when the turn has only one or two new I/Os to submit and half the depth or
 * more is already in the kernel, reap() waits for the next completions without submitting
 * them, and they go with the following batch.  io_uring plugs the block layer only for a
 * submission of 3 or more, so one or two I/Os each cost the device a doorbell of their own
 * (on a virtio disk, an exit to the host); held back, the device still has half the depth or
 * more to work on.  Measured on an O_DIRECT file on a virtio disk, 4 KiB random reads at QD 32:
 * 0.94x fio's IOPS before, 1.00x after, and 0.84x -> 0.71x fio's CPU per I/O.  Their latency
 * runs from when the loop stamped them (at commit), so the wait is in it and nothing is
 * reported faster than it was (mean latency stays QD / IOPS).
 * Targets without nowait I/O: io_uring first issues each I/O without blocking (IOCB_NOWAIT) and
 * hands it to an io-wq worker when that cannot be done; a device without NOWAIT support (zram and
 * other bio-based drivers; engine_refuses_nowait asks once at set-up) refuses every such I/O, so
 * all of them go to io-wq. io-wq starts another worker for a punted I/O only while none of its
 * workers is running, unless the I/O was marked IOSQE_ASYNC (the kernel marks its work
 * IO_WQ_WORK_CONCURRENT). zram's I/O is CPU work that never blocks, so unmarked, one worker runs
 * the whole queue; marked, a worker per I/O up to io-wq's bound, on every CPU. Which is faster
 * depends on the depth, the size and the CPUs (zram, 2 vCPUs, kernel 6.18, series of five
 * 3-second runs, each way forced: 4 KiB random reads at QD 8 486K IOPS unmarked against 232K
 * marked, at QD 32 440K against 407K, at QD 32 x 2 469K against 572K, at QD 128 478K against
 * 503K (548K with the batched wait below); 128 KiB reads at QD 8 21K against 38K; at QD 8,
 * 64 KiB reads 59K against 36K, 16 KiB 201K against 173K).  So on such a target the engine
 * marks I/Os of 64 KiB and up, and shorter ones when the process's engines there have more than
 * 16 I/Os of depth per online CPU between them (engine.h: engine_mark_wanted; both bounds are
 * UNCERTAIN: nothing was measured between 16 and 64 KiB, nor between a total depth of 32 and 64
 * on 2 CPUs, nor on more CPUs).
 * Choosing by trials at run time was built and measured, and dropped: io-wq keeps idle workers for
 * 5 s and wakes a free one for unmarked work too, so a trial of either way ran in the state the
 * other had left, and short trials on this VM followed whichever way had run before
 * (docs/engines.md, section 2). Each way has its own wait history:
 *   - unmarked: as on any target, spinning at depth while the waits are short (one worker does the
 *     I/O; a woken thread costs it a wake-up per completion);
 *   - marked: no spin at depth (the spinning thread would take a CPU from the workers that do the
 *     I/O), never held back (the small-batch hold is for the block layer's plug; these go to
 *     io-wq), and with BATCH_MIN_IN_FLIGHT (64) or more in flight a sleeping wait asks for a
 *     quarter of them or BATCH_WAIT_NS (100 us), whichever comes first: with DEFER_TASKRUN a
 *     worker wakes the waiting thread only once that many completions are waiting, so the
 *     workers spend their time on I/O instead of on waking it. At QD 128 on one VM: 451K IOPS
 *     at 3.92 us CPU per I/O waiting for one, 548K at 3.21 us waiting for a quarter with no
 *     bound (fio with force_async=1: 499K at 3.67 us; a 20 us bound gave 484K, 50 us 526K,
 *     100 us 535K); on another VM of the same kind the two were even (528K and 534K, fio 524K).
 *     With fewer in flight, batching and holding idled the workers while the thread waited:
 *     on that second VM, 128 KiB reads at QD 8 (two at a time) ran 64K IOPS with both, 87K
 *     with neither (fio 84K), and 4 KiB reads at QD 32 x 2 440K against 536K (fio 540K).  The
 *     64 is UNCERTAIN: nothing was measured between 32 and 128 in flight.  The cost: a
 *     completion reaped in a batch is stamped when the batch is, up to 100 us after it
 *     completed, never before; the mean latency stays QD / IOPS, as for any closed loop that
 *     refills a slot only when its completion is reaped, and below 64 in flight (a QD 1
 *     latency run) nothing is batched.
 * Yield: on a target without nowait I/O, when the process's io_uring engines there are at least
 * as many as the online CPUs (workers=2 on 2 CPUs), a reap at depth waiting for one completion
 * that finds none neither spins nor sleeps at once: it calls sched_yield, runs the completions the workers made
 * meanwhile, and sleeps only when there are none.  Each CPU then has a thread that submits and
 * io-wq workers that run its I/Os; a sleeping thread has to be woken by a worker for each batch
 * (the worker pays the wake-up, the thread a switch back in), a yielding one lets the worker
 * that its own submission woke run on its CPU straight away and finds the result when it gets
 * the CPU back.  perf stat, 4 KiB random reads at QD 32 x 2 on zram: sleeps in the ring wait
 * 0.07 per I/O before, none after; context switches 0.17 -> 0.12, wake-ups 0.09 -> 0.06 per
 * I/O (fio: 0.05, 0.11, 0.06).  Series of 5-8 runs of 3 s (2 vCPUs, kernel 6.18, fio 3.33
 * at its best, force_async=1): QD 32 x 2 826K IOPS at 2.41 us CPU per I/O against 626K at
 * 3.03 (fio 695K at 2.93), QD 16 x 4 marked 934K against 679K (fio 726K), QD 128 x 2 830K
 * against 736K (the yield before the batched wait below), QD 16 x 2 unmarked (yield instead of
 * the spin) 808K against 567K (fio 647K), 128 KiB reads at QD 8 x 2 75K against 62K (fio 65K);
 * both workers pinned to one CPU, QD 16 x 2, 425K against 327K (fio 362K).  With one engine on
 * 2 CPUs it lost every time (the workers on the other CPU ran out of work while this thread
 * waited behind the one it yielded to): QD 32 marked 410K against 550K unmarked and spinning,
 * QD 32 unmarked 442K against 533K, QD 48 448K against 602K, 128 KiB reads at QD 8 71K
 * against 95K, each at less CPU per I/O.  So one engine keeps the spin and the sleeps below.
 * Not measured on more CPUs (engine.h says what is UNCERTAIN).  A yield with nothing else to
 * run on the CPU returns at once: two syscalls more before the sleep.  The CPUs counted are the
 * ones the engine's thread may run on (engine_thread_cpus), for this rule and the mark's: a
 * worker pinned to one CPU (--cpus) has an engine per CPU, and its io-wq workers run on that
 * CPU too.  4 KiB random reads at QD 32 on zram, pinned to CPU 0 (series of 5 and 3): 520K and
 * 441K IOPS at 1.93 and 2.27 us CPU per I/O, against 346K and 295K at 2.90 and 3.40 us when the
 * online CPUs were counted (fio 488K and 371K at 2.16 and 2.84 us).
 * Nap: one engine at depth on such a target, with CPUs to spare (QD 32 on 2 CPUs: unmarked,
 * one io-wq worker runs the whole queue on the other CPU), spun: its thread was busy about
 * 85 % of the time against fio's 65 % (docs/engines.md, section 2: "What the spin costs"),
 * and made about one io_uring_enter per I/O, because a spin takes each completion as it comes.
 * A sleeping wait for a count of completions costs the worker a wake-up each time (see "Why
 * spin" below), so a batched wait did not pay either (docs, section 2).  A timer wakes the
 * thread without the worker: with 16 or more in flight, a reap that finds nothing sleeps
 * ENGINE_NAP_NS (10 us; on this VM about 30 us with the wake-up and the look after it, in
 * which about half of 32 in flight complete), then runs and takes what completed, and submits
 * that many again with the next batch; the worker never runs out of queue.  The thread's timer
 * slack is set to 1 us (init), or the kernel may stretch the nap by 50 us and the device runs
 * dry.  A nap that finds three quarters or more of what was in flight done backs off (engine.h:
 * engine_note_nap: at QD 16 here the naps stop and the spin runs as before).  Measured on 2
 * vCPUs, kernel 6.18, zram, 4 KiB, interleaved series of 3 s runs, before / with the nap / fio
 * at its best: random reads at QD 32 553K at 3.58 us CPU per I/O / 576K at 2.79 / 522K at 3.43
 * (another series 510K at 3.85 / 541K at 3.06 / 496K at 3.62), random writes at QD 32 299K at
 * 6.62 / 297K at 5.43 / 299K at 5.91, reads at QD 16 550K / 551K / 416K (backed off), QD 24
 * 537K / 520K / 424K.  Timed sleeps of 1 and 5 us used about as much CPU as the spin (3.89
 * and 3.80 us per I/O against 3.95), 15 us about as little as 10 (3.10), 30 us let the device
 * run dry (465K); a length fitted at run time to half of what is in flight ran no better than
 * the fixed one (508K at 3.33 us against 541K at 3.06).  The nap's completions are stamped
 * when taken, up to one nap after they completed, as the batched wait's are; mean latency
 * stays QD / IOPS.
 * Short slice: on a target without nowait I/O the thread shares the CPUs with the io-wq workers
 * that run its I/Os (8 or 9 of them on 2 CPUs at QD 128, each busy with zram's CPU work), and
 * they take the CPU from it: perf sched at QD 128 showed the thread runnable but waiting
 * 0.1-0.3 ms at a time for its CPU, while the workers drained what it had submitted and the
 * other CPU went idle (23 % of the time against 14 % with fio, /proc/stat).  So at set-up the
 * thread asks the scheduler for the shortest slice it grants (ENGINE_SLICE_NS, 100 us; the
 * default here is 1.4 ms), keeping its policy and nice value, and not for the workers made from
 * it (SCHED_FLAG_RESET_ON_FORK, unless its nice value is negative); the scheduler (EEVDF, 6.12
 * and later) then gives it back its CPU sooner.  Interleaved series of 3 s runs on zram, 2
 * vCPUs, kernel 6.18, the same build with and without it, fio at its best: 4 KiB random reads
 * at QD 128 603K against 592K IOPS (with it the faster in 18 of 20 rounds, CPU idle 11 %
 * against 14 %), at QD 32 545K against 528K, at QD 32 x 2 857K against 776K (fio 486K and
 * 594K), 4 KiB random writes at QD 32 273K against 253K, 128 KiB reads at QD 8 104K against
 * 102K; 128 KiB writes 22.1K against 22.4K (fio 20.6K), at QD 1 pinned 170K against 166K.  The
 * workers with the short slice too did as well (a paired 1.034 against 1.037 at QD 128), so
 * which rule of the scheduler makes the difference is UNCERTAIN; a thread that is not
 * SCHED_OTHER is left as it is.
 * Why spin: a thread that sleeps for every completion has to be woken for it, and the waker pays:
 * on zram (no NOWAIT, so every read runs in one io-wq worker) a third of that worker's time
 * went into try_to_wake_up for our thread (perf, kernel 6.18 on a 2-vCPU VM), time in which
 * the device does not read.  At QD 1 there a sleeping wait was 60 us, a spinning one 13-18 us,
 * and the process spent half the CPU per I/O spinning; on a file on the VM's virtual disk
 * spinning cost more CPU than sleeping, so there the QD 1 trials choose sleep.  At depth a
 * spin of at most ENGINE_SPIN_NS costs no more CPU than the sleep and wake-up it replaces, and
 * happens only while waits are that short; once they are longer the thread sleeps again.  A
 * spin that runs out with one I/O in flight backs off (engine.h: pinned to one CPU, the io-wq
 * worker needs the CPU the spin holds).  Every
 * completion is taken as soon as it is seen (min is honoured, 1 by default; the marked way's
 * batched waits above apart), so latencies are still stamped when a completion is reaped.
 *
 * The ring: SINGLE_ISSUER|DEFER_TASKRUN (completions are run in our thread when it asks for
 * them, in a batch, instead of interrupting it; the io-wq worker only adds to a list and does
 * not wake us unless we sleep) with TASKRUN_FLAG (the kernel marks the SQ ring when
 * completions wait to be run, so the spin sees them without a syscall); on kernels before 6.1
 * COOP_TASKRUN|TASKRUN_FLAG, then no flags.  The ring fd is registered (io_uring_enter skips
 * the fd lookup), buffers are registered (READ_FIXED/WRITE_FIXED) and the target fd is a
 * registered file (the buffers of I/Os larger than a page are in 2 MiB pages: engine.c).  Each
 * falls back quietly to the plain form on kernels that refuse it.
 * docs/engines.md has what was tried and left out; tests/bench/bench_engines.c (`make bench`)
 * measures it against fio at its best. */
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
    bool marking;   /* the last I/O queued was marked (its waits: header) */
    unsigned cpus;  /* the CPUs this thread may run on (engine_thread_cpus), for the rules */
    int fd;
    unsigned staged;
    struct io_uring_cqe **cqes;
    struct engine_waits waits[2];   /* the recent waits, unmarked [0] and marked [1] */
    struct engine_nap nap;          /* naps in place of the unmarked spin (header: "Nap") */
    unsigned in_flight; /* submitted, not yet taken */
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

/* Ask the scheduler for this thread's shortest slice (header: "Short slice"), keeping its
 * policy and nice value; only a SCHED_OTHER thread asks (a real-time one stays as it is).
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
     * short slice instead (measured as good: header). */
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
        /* A nap (header) is a timed sleep: the thread's default timer slack (50 us) would let
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

/* A marked engine's sleeping waits at depth (header: "Targets without nowait I/O"). */
#define BATCH_MIN_IN_FLIGHT 64u
#define BATCH_DIV 4u
#define BATCH_WAIT_NS 100000L

/* io_uring's submission plugs the block layer from 3 I/Os up (io_submit_state_start). */
#define HOLD_BELOW 3u

static int uring_reap(struct engine *e, unsigned min, unsigned max, struct io_unit **out)
{
    if (max > e->depth)
        max = e->depth;
    /* One or two new I/Os while half the depth or more is in the kernel: wait for completions
     * without submitting them; they go with the next batch (header: "Small batches").  Not
     * marked ones: they go to io-wq, not to a plugged block layer. */
    const bool hold = !e->marking && min && min <= e->in_flight && e->staged &&
                      e->staged < HOLD_BELOW && e->in_flight >= 4 && e->in_flight >= e->depth / 2;
    /* Each way keeps its own waits (header: "Targets without nowait I/O").  Marked I/Os run in
     * io-wq workers on every CPU: a spin at depth would take one from them. */
    struct engine_waits *w = &e->waits[e->marking];
    const unsigned submitted_now = e->in_flight + (hold ? 0 : e->staged);
    /* An engine per CPU or more: yield to the workers instead of spinning (header: "Yield").
     * Not when the workload asks for several completions per wait (batch_complete_min): that
     * wait sleeps for them, as the spin does not run then either. */
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
             * completed meanwhile (header: "Nap").  No wait is noted: whatever the nap found
             * had not been waited for. */
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
     * completed, or BATCH_WAIT_NS has passed (header: "Targets without nowait I/O"). */
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
