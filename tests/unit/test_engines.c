/* test_engines.c — the native engines' batch paths against a real file (O_DIRECT): every
 * completion is handed back once, with its own result and its own data, whichever way reap()
 * found it (already in the completion ring after submit, by spinning on the ring, or by
 * sleeping in the kernel), including when it hands back fewer than are ready (max below the
 * count) and when the libaio ring's head wraps round, and in the loop's rolling rhythm, where
 * io_uring holds one or two new I/Os back for the next batch.  min = 0 never waits.  The spin's
 * back-off is tested on its own, with a stand-in for the completion ring, and so is the buffer
 * area (2 MiB pages for buffers larger than a page).
 *
 * Each test makes its own file under /var/tmp (O_DIRECT needs a real filesystem, not tmpfs) and
 * removes its name as soon as it is open (nothing is left behind, even by a test killed by its
 * alarm); an engine the kernel refuses (io_uring disabled) or a filesystem without O_DIRECT
 * skips with the reason printed. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <dirent.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "engine/engine.h"
#include "helpers.h"
#include "lib/util.h"

#define BLK 4096u
#define NBLK 256u     /* a 1 MiB file */
#define DEPTH 8u

#define MAX_CPUS 64u   /* test_yield_on_zram: one engine per CPU, up to this */

/* A file (setup) or a zram device of the test's own (setup_zram), open, and the engines set up
 * on it: the teardown cleans up whatever a failed assertion left (on a zram device a ring that
 * holds it keeps it busy, and then not even the exit handler could remove it). */
struct fixture {
    char path[64];
    char dev[64];      /* the zram device, "" for a file */
    int fd;
    int open_errno;    /* when fd < 0 */
    const struct engine_ops *ops;
    struct engine *e;
    unsigned n_others;
    struct engine *others[MAX_CPUS];
};

/* Block i holds the 32-bit word i + salt in every word. */
static void sign(unsigned char *b, uint32_t i, uint32_t salt)
{
    for (size_t k = 0; k < BLK; k += 4) {
        uint32_t v = i + salt;
        memcpy(b + k, &v, 4);
    }
}

static bool signed_as(const unsigned char *b, uint32_t i, uint32_t salt)
{
    unsigned char want[BLK];
    sign(want, i, salt);
    return memcmp(b, want, BLK) == 0;
}

static int setup(void **state, const char *engine)
{
    struct fixture *f = calloc(1, sizeof(*f));
    snprintf(f->path, sizeof(f->path), "/var/tmp/ptsbench-engines-XXXXXX");
    int wfd = mkstemp(f->path);
    if (wfd < 0) {
        free(f);
        return -1;
    }
    unsigned char b[BLK];
    for (uint32_t i = 0; i < NBLK; i++) {
        sign(b, i, 0);
        if (pwrite(wfd, b, BLK, (off_t)i * BLK) != (ssize_t)BLK) {
            close(wfd);
            unlink(f->path);
            free(f);
            return -1;
        }
    }
    close(wfd);
    f->fd = open(f->path, O_RDWR | O_DIRECT);
    f->open_errno = errno;
    unlink(f->path);   /* gone with the fd, also when the test is killed (alarm) */
    f->ops = engine_find(engine);
    *state = f;
    return 0;
}

static int setup_uring(void **state) { return setup(state, "io_uring"); }
static int setup_aio(void **state) { return setup(state, "libaio"); }

static int teardown(void **state)
{
    struct fixture *f = *state;
    if (f->e)
        f->ops->cleanup(f->e);
    for (unsigned i = 0; i < f->n_others; i++)
        if (f->others[i])
            f->ops->cleanup(f->others[i]);
    if (f->fd >= 0)
        close(f->fd);
    if (f->dev[0])
        zram_remove(f->dev);
    free(f);
    return 0;
}

/* An engine of f's kind on f's target, depth I/Os of up to BLK, set up into *e (one of f's,
 * for the teardown), or skip with the reason the kernel gave (io_uring disabled). */
static void init_or_skip(struct fixture *f, struct engine **e, unsigned depth)
{
    assert_non_null(f->ops);
    struct engine_config cfg = {.fd = f->fd, .depth = depth, .max_len = BLK, .mem_align = BLK};
    char err[256] = "";
    if (f->ops->init(e, &cfg, err, sizeof(err)) != 0) {
        printf("skipped: %s\n", err);
        skip();
    }
}

/* The engine on the fixture's file, or skip with the reason. */
static struct io_unit *start(struct fixture *f)
{
    if (f->fd < 0) {
        printf("skipped: %s: O_DIRECT not supported here (%s)\n", f->path,
               strerror(f->open_errno));
        skip();
    }
    init_or_skip(f, &f->e, DEPTH);
    return f->ops->units(f->e);
}

/* Reap until `want` completions, `max` at a time with min 1; each unit is seen once. */
static unsigned reap_all(struct fixture *f, unsigned want, unsigned max, struct io_unit **got)
{
    unsigned n = 0;
    while (n < want) {
        struct io_unit *out[DEPTH];
        int r = f->ops->reap(f->e, 1, max, out);
        assert_true(r >= 1);
        assert_true((unsigned)r <= max);
        for (int i = 0; i < r; i++) {
            for (unsigned j = 0; j < n; j++)
                assert_ptr_not_equal(got[j], out[i]);   /* never handed back twice */
            got[n++] = out[i];
        }
        assert_true(n <= want);
    }
    return n;
}

/* Many batches of DEPTH reads of distinct blocks: each completion carries its block's data.
 * Batches alternate the reap size (all, 3, 1), so completions are left in the ring between
 * calls, and a libaio ring of a few more than DEPTH slots wraps round many times. */
static void test_reads(void **state)
{
    struct fixture *f = *state;
    struct io_unit *units = start(f);
    uint32_t next = 0;
    for (unsigned batch = 0; batch < 300; batch++) {
        for (unsigned i = 0; i < DEPTH; i++) {
            struct io_unit *u = &units[i];
            u->dir = IO_READ;
            u->len = BLK;
            u->offset = (uint64_t)(next++ % NBLK) * BLK;
            u->result = -12345;
            memset(u->buf, 0xee, BLK);
            assert_int_equal(f->ops->queue(f->e, u), 0);
        }
        assert_int_equal(f->ops->commit(f->e), 0);
        const unsigned max = batch % 3 == 0 ? DEPTH : batch % 3 == 1 ? 3 : 1;
        struct io_unit *got[DEPTH];
        assert_int_equal(reap_all(f, DEPTH, max, got), DEPTH);
        for (unsigned i = 0; i < DEPTH; i++) {
            assert_int_equal(got[i]->result, BLK);
            assert_true(signed_as(got[i]->buf, (uint32_t)(got[i]->offset / BLK), 0));
        }
    }
    /* nothing in flight: min 0 returns at once with nothing */
    struct io_unit *out[DEPTH];
    assert_int_equal(f->ops->reap(f->e, 0, DEPTH, out), 0);
}

/* Writes land where they were sent (read back with pread), and a read past the end of the file
 * completes with its own short result (0), not a neighbour's. */
static void test_writes_and_results(void **state)
{
    struct fixture *f = *state;
    struct io_unit *units = start(f);
    for (unsigned i = 0; i < DEPTH; i++) {
        struct io_unit *u = &units[i];
        u->dir = IO_WRITE;
        u->len = BLK;
        u->offset = (uint64_t)(i * 7 % NBLK) * BLK;
        sign(u->buf, i * 7 % NBLK, 0x5000);
        assert_int_equal(f->ops->queue(f->e, u), 0);
    }
    assert_int_equal(f->ops->commit(f->e), 0);
    struct io_unit *got[DEPTH];
    reap_all(f, DEPTH, DEPTH, got);
    for (unsigned i = 0; i < DEPTH; i++)
        assert_int_equal(got[i]->result, BLK);
    unsigned char *b = aligned_alloc(BLK, BLK);
    for (unsigned i = 0; i < DEPTH; i++) {
        assert_int_equal(pread(f->fd, b, BLK, (off_t)(i * 7 % NBLK) * BLK), BLK);
        assert_true(signed_as(b, i * 7 % NBLK, 0x5000));
    }
    free(b);

    /* a batch of reads, every other one past the end (0 bytes) and the rest inside (a full
     * block), all complete before the reap: each result must be its own unit's */
    for (unsigned i = 0; i < DEPTH; i++) {
        units[i].dir = IO_READ;
        units[i].len = BLK;
        units[i].offset = i % 2 ? (uint64_t)(i + 100) * BLK : (uint64_t)(NBLK * 4 + i) * BLK;
        units[i].result = -12345;
        assert_int_equal(f->ops->queue(f->e, &units[i]), 0);
    }
    assert_int_equal(f->ops->commit(f->e), 0);
    if (f->ops->flush)   /* io_uring submits in reap(); flush() submits now */
        assert_int_equal(f->ops->flush(f->e), 0);
    struct timespec pause = {0, 20 * 1000 * 1000};
    nanosleep(&pause, NULL);
    reap_all(f, DEPTH, DEPTH, got);
    for (unsigned i = 0; i < DEPTH; i++) {
        assert_int_equal(units[i].result, i % 2 ? (int64_t)BLK : 0);
        if (i % 2)
            assert_true(signed_as(units[i].buf, i + 100, 0));
    }
}

/* min 0 (paced workers) never sleeps: with reads in flight it returns what is there, perhaps
 * nothing, and the reads all come back through later calls. */
static void test_min_zero(void **state)
{
    struct fixture *f = *state;
    struct io_unit *units = start(f);
    for (unsigned i = 0; i < DEPTH; i++) {
        units[i].dir = IO_READ;
        units[i].len = BLK;
        units[i].offset = (uint64_t)(i + 40) * BLK;
        assert_int_equal(f->ops->queue(f->e, &units[i]), 0);
    }
    assert_int_equal(f->ops->commit(f->e), 0);
    unsigned n = 0, calls = 0;
    const uint64_t t0 = now_mono_ns();
    while (n < DEPTH) {
        struct io_unit *out[DEPTH];
        int r = f->ops->reap(f->e, 0, DEPTH, out);
        assert_true(r >= 0);
        for (int i = 0; i < r; i++) {
            assert_int_equal(out[i]->result, BLK);
            assert_true(signed_as(out[i]->buf, (uint32_t)(out[i]->offset / BLK), 0));
        }
        n += (unsigned)r;
        calls++;
        assert_true(now_mono_ns() - t0 < 10ull * 1000 * 1000 * 1000);   /* not stuck */
    }
    assert_int_equal(n, DEPTH);
    assert_true(calls >= 1);
}

/* Rolling reads through ops/e, `depth` kept in flight: the first `depth` queued, then each
 * completion checked (handed back once per issue, result BLK, its block's data signed with
 * salt) and its unit queued again at once for the next block (every step-th of nblk) until
 * `total` were issued.  Reaps with min 1 and max `depth`, or, with small_reaps, 2 and 1 in
 * turn.  A read lost on the way leaves reap() waiting: the alarm ends the test. */
#define ROLL_MAX_DEPTH 64u
static void rolling_reads(const struct engine_ops *ops, struct engine *e, unsigned depth,
                          uint32_t nblk, uint32_t step, uint32_t salt, unsigned total,
                          bool small_reaps)
{
    assert_true(depth <= ROLL_MAX_DEPTH && depth <= total);
    struct io_unit *units = ops->units(e);
    bool out_now[ROLL_MAX_DEPTH] = {false};
    uint32_t next = 0;
    unsigned issued = 0, done = 0;
    alarm(60);
    for (unsigned i = 0; i < depth; i++) {
        struct io_unit *u = &units[i];
        u->dir = IO_READ;
        u->len = BLK;
        u->offset = (uint64_t)(next++ * step % nblk) * BLK;
        u->result = -12345;
        assert_int_equal(ops->queue(e, u), 0);
        out_now[i] = true;
        issued++;
    }
    assert_int_equal(ops->commit(e), 0);
    const uint64_t t0 = now_mono_ns();
    while (done < issued) {
        struct io_unit *got[ROLL_MAX_DEPTH];
        const unsigned max = !small_reaps ? depth : done % 2 ? 1 : 2;
        int r = ops->reap(e, 1, max, got);
        assert_true(r >= 1 && (unsigned)r <= max);
        for (int i = 0; i < r; i++) {
            struct io_unit *u = got[i];
            assert_true(out_now[u->index]);   /* handed back once per issue */
            out_now[u->index] = false;
            assert_int_equal(u->result, BLK);
            assert_true(signed_as(u->buf, (uint32_t)(u->offset / BLK), salt));
            done++;
            if (issued < total) {
                u->offset = (uint64_t)(next++ * step % nblk) * BLK;
                u->result = -12345;
                memset(u->buf, 0xee, BLK);
                assert_int_equal(ops->queue(e, u), 0);
                out_now[u->index] = true;
                issued++;
            }
        }
        assert_int_equal(ops->commit(e), 0);
        assert_true(now_mono_ns() - t0 < 60ull * 1000 * 1000 * 1000);   /* not stuck */
    }
    assert_int_equal(done, total);
    alarm(0);
}

/* The worker loop's rhythm: DEPTH reads kept in flight, each turn reaping one or two and
 * queueing as many new ones at once, so that a turn has fewer than 3 to submit while most of
 * the depth is in the kernel (io_uring then holds them for the next batch). Every read comes
 * back exactly once, with its own block's data, none is lost while held, and the whole run
 * ends (a held read that was never submitted would hang it). */
static void test_rolling(void **state)
{
    struct fixture *f = *state;
    start(f);
    rolling_reads(f->ops, f->e, DEPTH, NBLK, 37, 0, 3000, true);
}

/* The spin's back-off (engine.h), with a look that finds a completion only when told to: no
 * engine, no I/O. */
static unsigned look_finds;
static unsigned look(struct engine *e, unsigned max, struct io_unit **out)
{
    (void)e;
    (void)max;
    (void)out;
    return look_finds;
}

/* Waits whose QD 1 trials (engine_qd1_step) chose spinning, for a long while. */
static struct engine_waits spinning_waits(void)
{
    return (struct engine_waits){.qd1 = {.phase = 0, .spin = true, .left = 1u << 30}};
}

/* Waits that would spin (QD 1), counted until the first that does (that one included). */
static unsigned waits_until_spin(struct engine_waits *w)
{
    unsigned n = 1;
    while (!engine_spin_wanted(w, 1, 1))
        n++;
    return n;
}

static void test_spin_backoff(void **state)
{
    (void)state;
    struct engine_waits w = spinning_waits();
    assert_true(engine_spin_wanted(&w, 1, 1));
    assert_true(engine_spin_wanted(&w, 1, 32));
    assert_false(engine_spin_wanted(&w, 2, 32));   /* only a wait for one completion spins */
    w.avg_ns = ENGINE_SPIN_NS;
    assert_false(engine_spin_wanted(&w, 1, 32));   /* at depth: recent waits too long */
    assert_true(engine_spin_wanted(&w, 1, 1));     /* QD 1: the trials decide */
    w.qd1.spin = false;
    assert_false(engine_spin_wanted(&w, 1, 1));
    w.avg_ns = 0;
    assert_true(engine_spin_wanted(&w, 1, 2));      /* at depth they do not */
    w.qd1.spin = true;

    /* runs out with one I/O in flight: the next 8 waits sleep at once, then 16, 32, ... */
    look_finds = 0;
    uint64_t t0 = now_mono_ns();
    assert_int_equal(engine_spin(NULL, &w, look, 1, NULL, t0, 1), 0);
    assert_true(now_mono_ns() - t0 >= ENGINE_SPIN_NS);   /* it did spin its whole length */
    assert_int_equal(waits_until_spin(&w), 9);
    assert_int_equal(engine_spin(NULL, &w, look, 1, NULL, now_mono_ns(), 1), 0);
    assert_int_equal(waits_until_spin(&w), 17);
    for (int i = 0; i < 12; i++)
        assert_int_equal(engine_spin(NULL, &w, look, 1, NULL, now_mono_ns(), 1), 0);
    assert_int_equal(w.backoff, ENGINE_SPIN_BACKOFF);   /* capped */
    assert_int_equal(waits_until_spin(&w), ENGINE_SPIN_BACKOFF + 1);

    /* runs out with more in flight: no back-off, the next wait spins again */
    assert_int_equal(engine_spin(NULL, &w, look, 1, NULL, now_mono_ns(), 2), 0);
    assert_true(engine_spin_wanted(&w, 1, 2));

    /* a spin that finds one ends the back-off: the next fruitless one skips 8 again */
    look_finds = 1;
    assert_int_equal(engine_spin(NULL, &w, look, 1, NULL, now_mono_ns(), 1), 1);
    assert_int_equal(w.backoff, 0);
    look_finds = 0;
    assert_int_equal(engine_spin(NULL, &w, look, 1, NULL, now_mono_ns(), 1), 0);
    assert_int_equal(waits_until_spin(&w), 9);
}

/* The spin's length (engine.h): at depth ENGINE_SPIN_NS; at QD 1 half the waits that slept,
 * within ENGINE_SPIN_NS..ENGINE_SPIN_MAX_NS; only sleeping waits count towards that. */
static void test_spin_limit(void **state)
{
    (void)state;
    struct engine_waits w = spinning_waits();
    assert_int_equal(engine_spin_limit(&w, 1), ENGINE_SPIN_NS);
    for (int i = 0; i < 200; i++)   /* waits that slept 60 us (zram, QD 1, unpinned) */
        engine_note_wait(&w, 60000, true);
    assert_true(w.slept_ns > 59000 && w.slept_ns <= 60000);
    assert_int_equal(engine_spin_limit(&w, 1), w.slept_ns / 2);
    assert_int_equal(engine_spin_limit(&w, 2), ENGINE_SPIN_NS);   /* at depth: as ever */
    for (int i = 0; i < 200; i++)   /* spun waits move the average, not the sleeping one */
        engine_note_wait(&w, 13000, false);
    assert_true(w.avg_ns < 14000);
    assert_true(w.slept_ns > 59000);
    assert_true(engine_spin_wanted(&w, 1, 1));

    /* a spin at QD 1 that finds nothing lasts the whole limit, then backs off */
    look_finds = 0;
    uint64_t t0 = now_mono_ns();
    assert_int_equal(engine_spin(NULL, &w, look, 1, NULL, t0, 1), 0);
    assert_true(now_mono_ns() - t0 >= w.slept_ns / 2);
    assert_int_equal(w.skip, 8);

    for (int i = 0; i < 200; i++)   /* a device slower than any spin: capped */
        engine_note_wait(&w, 5000000, true);
    assert_int_equal(engine_spin_limit(&w, 1), ENGINE_SPIN_MAX_NS);
    for (int i = 0; i < 200; i++)   /* short sleeping waits (pinned): not below ENGINE_SPIN_NS */
        engine_note_wait(&w, 8000, true);
    assert_int_equal(engine_spin_limit(&w, 1), ENGINE_SPIN_NS);
}

/* The QD 1 trials (engine.h): a fake CPU clock that charges each wait what its way costs. */
static uint64_t fake_cpu, cost_spin_ns, cost_sleep_ns;
static unsigned cpu_reads;
static uint64_t read_fake_cpu(void)
{
    cpu_reads++;
    return fake_cpu;
}
/* n waits; returns how many of them spun. */
static unsigned qd1_waits(struct engine_waits *w, unsigned n)
{
    unsigned spun = 0;
    for (unsigned i = 0; i < n; i++) {
        bool spin = engine_qd1_step(w, read_fake_cpu);
        fake_cpu += spin ? cost_spin_ns : cost_sleep_ns;
        spun += spin;
    }
    return spun;
}

static void test_qd1_trials(void **state)
{
    (void)state;
    const unsigned T = ENGINE_QD1_TRIAL, P = ENGINE_QD1_PERIOD_MIN;
    struct engine_waits w = {0};
    fake_cpu = 0;
    cpu_reads = 0;
    /* spinning is cheaper (zram, QD 1, unpinned): T sleep, T spin, then spin for the period */
    cost_spin_ns = 20000;
    cost_sleep_ns = 46000;
    assert_int_equal(qd1_waits(&w, T), 0);
    assert_int_equal(qd1_waits(&w, T), T);
    assert_int_equal(w.qd1.trials, 0);
    assert_int_equal(qd1_waits(&w, P), P);
    assert_int_equal(w.qd1.trials, 1);
    assert_true(w.qd1.spin);
    assert_int_equal(cpu_reads, 3);   /* once per phase, not per wait */
    /* the same way wins again: the period doubles (the trial's T sleeping waits first) */
    assert_int_equal(qd1_waits(&w, T), 0);
    assert_int_equal(qd1_waits(&w, T + 2 * P), T + 2 * P);
    assert_int_equal(w.qd1.period, 2 * P);
    /* sleeping becomes cheaper (an O_DIRECT file on a virtual disk): after the next trial the
     * engine sleeps, and the period starts again at its shortest */
    cost_spin_ns = 45000;
    cost_sleep_ns = 35000;
    assert_int_equal(qd1_waits(&w, T), 0);
    assert_int_equal(qd1_waits(&w, T), T);
    assert_int_equal(qd1_waits(&w, P), 0);
    assert_false(w.qd1.spin);
    assert_int_equal(w.qd1.period, P);
    assert_int_equal(w.qd1.trials, 3);
    /* the period never grows past ENGINE_QD1_PERIOD_MAX */
    for (int i = 0; i < 12; i++)
        qd1_waits(&w, 2 * T + w.qd1.period);
    assert_int_equal(w.qd1.period, ENGINE_QD1_PERIOD_MAX);
    assert_false(w.qd1.spin);
}

/* Which I/Os the io_uring engine marks async on a target that refuses nowait I/O
 * (engine.h: engine_mark_wanted): large ones always, short ones only past a total depth per
 * CPU; the figures are this project's measurements on 2 CPUs (io_uring.c). */
static void test_mark_rule(void **state)
{
    (void)state;
    assert_true(engine_mark_wanted(128u << 10, 8, 2));     /* 128 KiB reads at QD 8: 38K vs 21K */
    assert_true(engine_mark_wanted(64u << 10, 1, 2));
    assert_false(engine_mark_wanted((64u << 10) - 4096, 8, 2));
    assert_false(engine_mark_wanted(4096, 8, 2));          /* QD 8: 486K unmarked vs 232K */
    assert_false(engine_mark_wanted(4096, 32, 2));         /* QD 32: 440K vs 407K */
    assert_true(engine_mark_wanted(4096, 64, 2));          /* QD 32 x 2: 469K vs 572K */
    assert_true(engine_mark_wanted(4096, 128, 2));         /* QD 128: 478K vs 503K, 548K */
    assert_false(engine_mark_wanted(4096, 64, 4));         /* scaled by the CPUs */
    assert_false(engine_mark_wanted(4096, 1, 1));          /* QD 1 */
}

/* When the io_uring engine yields its CPU before it sleeps on a target that refuses nowait I/O
 * (engine.h: engine_yield_wanted): at depth, with an engine per CPU or more; the figures are
 * this project's measurements on 2 CPUs (docs/engines.md: "Yield"). */
static void test_yield_rule(void **state)
{
    (void)state;
    assert_true(engine_yield_wanted(32, 2, 2));    /* QD 32 x 2: 826K vs 626K */
    assert_true(engine_yield_wanted(16, 4, 2));    /* QD 16 x 4: 934K vs 679K */
    assert_true(engine_yield_wanted(2, 2, 2));
    assert_false(engine_yield_wanted(1, 2, 2));    /* QD 1: its own spin-or-sleep trials */
    assert_false(engine_yield_wanted(0, 2, 2));
    assert_false(engine_yield_wanted(32, 1, 2));   /* QD 32 x 1, marked: 410K vs 550K */
    assert_false(engine_yield_wanted(48, 1, 2));   /* QD 48 x 1: 448K vs 602K */
    assert_false(engine_yield_wanted(32, 2, 4));   /* scaled by the CPUs */
    assert_true(engine_yield_wanted(8, 1, 1));
}

/* When the io_uring engine naps on a timer instead of spinning (engine.h: engine_nap_wanted,
 * engine_note_nap): with 16 or more in flight (at QD 16 a nap of this VM's real length, about
 * 30 us, would let zram run dry); a nap that found three quarters or more of them completed
 * stops the naps for 1024 waits at depth, then 2048, ... up to a bound; one that left more in
 * flight ends the back-off. */
static void test_nap_rule(void **state)
{
    (void)state;
    struct engine_nap p = {0};
    assert_false(engine_nap_wanted(&p, ENGINE_NAP_MIN_IN_FLIGHT - 1));
    assert_false(engine_nap_wanted(&p, 1));
    assert_true(engine_nap_wanted(&p, 16));
    assert_true(engine_nap_wanted(&p, 32));   /* QD 32 on zram: 576K IOPS vs 553K, fio 522K */
    engine_note_nap(&p, 23, 32);   /* 9 still in flight: the device had work */
    assert_true(engine_nap_wanted(&p, 32));
    engine_note_nap(&p, 24, 32);   /* three quarters done: nearly ran dry */
    for (unsigned i = 0; i < ENGINE_NAP_BACKOFF; i++)
        assert_false(engine_nap_wanted(&p, 32));
    assert_false(engine_nap_wanted(&p, 8));   /* waits below the depth do not count it down */
    assert_true(engine_nap_wanted(&p, 32));
    engine_note_nap(&p, 32, 32);   /* again, in a row: twice as long */
    for (unsigned i = 0; i < 2 * ENGINE_NAP_BACKOFF; i++)
        assert_false(engine_nap_wanted(&p, 32));
    assert_true(engine_nap_wanted(&p, 32));
    engine_note_nap(&p, 11, 16);   /* 5 of 16 left: ends the back-off */
    assert_int_equal(p.backoff, 0);
    engine_note_nap(&p, 12, 16);
    assert_int_equal(p.skip, ENGINE_NAP_BACKOFF);   /* from the start again */
    for (int i = 0; i < 40; i++)
        engine_note_nap(&p, 64, 64);
    assert_int_equal(p.skip, ENGINE_NAP_BACKOFF_MAX);   /* bounded */
    engine_note_nap(&p, 3000000000u, 4000000000u);   /* no overflow in the comparison */
    assert_int_equal(p.skip, ENGINE_NAP_BACKOFF_MAX);
}

/* engine_thread_cpus counts the calling thread's CPUs: all of its mask, and 1 in a thread
 * pinned to one CPU (as a worker pinned with --cpus is); the rules count those. */
static void *cpus_pinned(void *arg)
{
    const int *cpu = arg;
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(*cpu, &one);
    if (pthread_setaffinity_np(pthread_self(), sizeof(one), &one) != 0)
        return (void *)(uintptr_t)0;
    return (void *)(uintptr_t)engine_thread_cpus();
}

static void test_thread_cpus(void **state)
{
    (void)state;
    cpu_set_t aff;
    assert_int_equal(sched_getaffinity(0, sizeof(aff), &aff), 0);
    assert_int_equal(engine_thread_cpus(), (unsigned)CPU_COUNT(&aff));
    int cpu = 0;
    while (!CPU_ISSET(cpu, &aff))
        cpu++;
    pthread_t t;
    void *got = NULL;
    assert_int_equal(pthread_create(&t, NULL, cpus_pinned, &cpu), 0);
    assert_int_equal(pthread_join(t, &got), 0);
    assert_int_equal((uintptr_t)got, 1);
    assert_int_equal(engine_thread_cpus(), (unsigned)CPU_COUNT(&aff));   /* this thread's own */
}

/* The buffer area (engine.c): buffers larger than a page in a 2 MiB-aligned area advised for
 * huge pages, rounded up to whole 2 MiB; 4 KiB buffers as they are; zeroed; gone when freed.
 * Read from /proc/self/smaps: the mapping that holds `p`, its end and whether it has the
 * huge-page advice ("hg" in VmFlags).  Whether the kernel found a free 2 MiB page is not asked:
 * that depends on the machine's memory, and the area works either way. */
static bool smaps_find(const void *p, uintptr_t *end, bool *hg)
{
    FILE *f = fopen("/proc/self/smaps", "r");
    assert_non_null(f);
    char line[512];
    bool in = false, found = false;
    uintptr_t a = (uintptr_t)p;
    while (fgets(line, sizeof line, f)) {
        unsigned long lo, hi;
        if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2 && strchr(line, '-') < strchr(line, ' ')) {
            in = a >= lo && a < hi;
            if (in) {
                *end = hi;
                found = true;
            }
        } else if (in && strncmp(line, "VmFlags:", 8) == 0) {
            *hg = strstr(line, " hg") != NULL;
        }
    }
    fclose(f);
    return found;
}

static void check_area(size_t n, size_t len, size_t want_stride, size_t want_len, bool want_huge)
{
    size_t stride = 0;
    unsigned char *p = engine_alloc_buffers(n, len, 4096, &stride);
    assert_non_null(p);
    assert_int_equal(stride, want_stride);
    assert_int_equal((uintptr_t)p % (want_huge ? (2u << 20) : 4096u), 0);
    for (size_t off = 0; off < n * stride; off += 1021)
        assert_int_equal(p[off], 0);
    memset(p, 0xa5, n * stride);   /* writable to the last byte */
    uintptr_t end = 0;
    bool hg = false;
    assert_true(smaps_find(p, &end, &hg));
    assert_true(end >= (uintptr_t)p + want_len);   /* the whole rounded length is mapped */
    if (!want_huge)
        assert_false(hg);
    else if (access("/sys/kernel/mm/transparent_hugepage/enabled", F_OK) == 0)
        assert_true(hg);
    else
        print_message("buffer area: no transparent huge pages in this kernel, advice not checked\n");
    engine_free_buffers(p, n, stride);
    /* unmapped, rounded part included: mincore(2) fails with ENOMEM on a page not mapped (and,
     * unlike reading smaps, allocates nothing that could be mapped there in between) */
    unsigned char vec[1];
    errno = 0;
    assert_int_equal(mincore(p, 4096, vec), -1);
    assert_int_equal(errno, ENOMEM);
    errno = 0;
    assert_int_equal(mincore(p + want_len - 4096, 4096, vec), -1);
    assert_int_equal(errno, ENOMEM);
}

static void test_buffers(void **state)
{
    (void)state;
    check_area(8, 128 << 10, 128 << 10, 2u << 20, true);     /* 1 MiB -> one 2 MiB page */
    check_area(16, 128 << 10, 128 << 10, 2u << 20, true);    /* exactly 2 MiB */
    check_area(24, 128 << 10, 128 << 10, 4u << 20, true);    /* 3 MiB -> 4 MiB */
    check_area(1, 5000, 8192, 2u << 20, true);               /* more than a page */
    check_area(128, 4096, 4096, 128 * 4096, false);          /* 4 KiB I/O: as it is */
}

/* Reap n completions of ops/e (min 1), each with result len. */
static void reap_n(const struct engine_ops *ops, struct engine *e, unsigned n, int64_t len)
{
    for (unsigned got = 0; got < n;) {
        struct io_unit *out[DEPTH];
        int r = ops->reap(e, 1, DEPTH, out);
        assert_true(r >= 1);
        for (int i = 0; i < r; i++)
            assert_int_equal(out[i]->result, len);
        got += (unsigned)r;
        assert_true(got <= n);
    }
}

/* Writes `depth` I/Os of 128 KiB through the io_uring engine on fd (a target that refuses
 * nowait I/O, so every one is marked async), reads them back and checks each I/O's own data.
 * Returns false (and says why) when the engine cannot be set up here.  `held` (or NULL) holds
 * the engine while it is set up, for a teardown to clean up after a failed assertion. */
static bool marked_round_trip(int fd, unsigned depth, struct engine **held)
{
    const uint32_t len = 128u << 10, per = len / BLK;
    struct engine_config cfg = {.fd = fd, .depth = depth, .max_len = len, .mem_align = BLK};
    struct engine *e = NULL;
    char err[256] = "";
    const struct engine_ops *ops = engine_find("io_uring");
    assert_non_null(ops);
    if (ops->init(&e, &cfg, err, sizeof(err)) != 0) {
        printf("skipped: %s\n", err);
        return false;
    }
    if (held)
        *held = e;
    struct io_unit *units = ops->units(e);
    for (int dir = IO_WRITE; dir >= IO_READ; dir--) {   /* write depth x 128 KiB, read it back */
        for (unsigned i = 0; i < depth; i++) {
            struct io_unit *u = &units[i];
            u->dir = (uint8_t)dir;
            u->len = len;
            u->offset = (uint64_t)i * len;
            u->result = -12345;
            for (uint32_t k = 0; k < per; k++) {
                if (dir == IO_WRITE)
                    sign((unsigned char *)u->buf + k * BLK, i * per + k, 7);
                else
                    memset((unsigned char *)u->buf + k * BLK, 0xee, BLK);
            }
            assert_int_equal(ops->queue(e, u), 0);
        }
        assert_int_equal(ops->commit(e), 0);
        reap_n(ops, e, depth, len);
    }
    for (unsigned i = 0; i < depth; i++)
        for (uint32_t k = 0; k < per; k++)
            assert_true(signed_as((unsigned char *)units[i].buf + k * BLK, i * per + k, 7));
    if (held)
        *held = NULL;
    ops->cleanup(e);
    return true;
}

/* A 16 MiB zram device of the test's own, open (dev "" when none could be made: said why) */
static int setup_zram(void **state)
{
    struct fixture *f = calloc(1, sizeof(*f));
    if (!f)
        return -1;
    f->fd = -1;
    f->ops = engine_find("io_uring");
    *state = f;
    if (!zram_create("16M", f->dev, sizeof(f->dev)))
        f->dev[0] = '\0';
    else
        f->fd = open(f->dev, O_RDWR | O_DIRECT);
    return 0;
}

/* The nowait probe: a file on a filesystem does not refuse (a read, EAGAIN or none, says
 * nothing against it), nor does a bad descriptor. */
static void test_refuses_nowait(void **state)
{
    struct fixture *f = *state;
    if (f->fd < 0) {
        printf("skipped: %s: O_DIRECT not supported here\n", f->path);
        skip();
    }
    assert_false(engine_refuses_nowait(f->fd));
    assert_false(engine_refuses_nowait(-1));
}

/* A zram device of the test's own refuses nowait I/O (zram has no NOWAIT support on this
 * project's kernels), and there the io_uring engine marks its 128 KiB I/Os async, waits for
 * them one at a time at depth 8 and in batches at depth 64 (io_uring.c: a quarter of what is
 * in flight), and still hands back each I/O's own data. */
static void test_marked_on_zram(void **state)
{
    struct fixture *z = *state;
    if (!z->dev[0])
        skip();   /* zram_create said why */
    assert_true(z->fd >= 0);
    if (!engine_refuses_nowait(z->fd)) {   /* a kernel whose zram took nowait I/O: say so */
        print_message("%s took a RWF_NOWAIT read (or the probe is broken): zram refused it on "
                      "every kernel this was written on\n", z->dev);
        fail();
    }
    if (!marked_round_trip(z->fd, DEPTH, &z->e) || !marked_round_trip(z->fd, 64, &z->e))
        skip();
}

/* With an io_uring engine per CPU (engine_thread_cpus) on a zram device (engine.h: engine_yield_wanted), a
 * reap at depth yields its CPU before it sleeps (docs/engines.md: "Yield"): each I/O still comes
 * back once with its own data (marked_round_trip, 128 KiB), and a wait for several completions
 * (min 4, the workload's batch_complete_min) still returns at least that many: the yield is for
 * waits of one. */
static void test_yield_on_zram(void **state)
{
    struct fixture *z = *state;
    const long cpus = (long)engine_thread_cpus();
    if (cpus > (long)MAX_CPUS) {
        printf("skipped: %ld CPUs: one ring per CPU is more than this test sets up\n", cpus);
        skip();
    }
    if (!z->dev[0])
        skip();   /* zram_create said why */
    assert_true(z->fd >= 0);
    assert_true(engine_refuses_nowait(z->fd));   /* test_marked_on_zram says why */
    const struct engine_ops *ops = z->ops;
    for (; z->n_others < (unsigned)cpus - 1; z->n_others++)   /* with z->e: one per CPU */
        init_or_skip(z, &z->others[z->n_others], DEPTH);
    init_or_skip(z, &z->e, DEPTH);
    /* Each batch: 2 reads submitted and given time to complete, then 6 more, then waits for 4
     * at a time: the first look finds the 2, fewer than asked for. */
    for (unsigned batch = 0; batch < 50; batch++) {
        struct io_unit *units = ops->units(z->e);
        for (unsigned i = 0; i < DEPTH; i++) {
            units[i].dir = IO_READ;
            units[i].len = BLK;
            units[i].offset = (uint64_t)((batch * DEPTH + i) % 4096) * BLK;
            units[i].result = -12345;
            assert_int_equal(ops->queue(z->e, &units[i]), 0);
            if (i == 1) {
                assert_int_equal(ops->flush(z->e), 0);
                usleep(1000);
            }
        }
        assert_int_equal(ops->commit(z->e), 0);
        for (unsigned got = 0; got < DEPTH;) {
            struct io_unit *out[DEPTH];
            const unsigned min = DEPTH - got < 4 ? DEPTH - got : 4;
            const int r = ops->reap(z->e, min, DEPTH, out);
            assert_true(r >= (int)min);
            for (int i = 0; i < r; i++)
                assert_int_equal(out[i]->result, BLK);
            got += (unsigned)r;
        }
    }
    ops->cleanup(z->e);
    z->e = NULL;
    /* a fresh engine beside the others: the yield on 128 KiB marked I/Os, data checked */
    if (!marked_round_trip(z->fd, DEPTH, &z->e))
        skip();
}

/* A thread's scheduling attributes (sched_getattr(2)): the slice of a SCHED_OTHER thread is
 * in runtime on kernels from 6.12 (before, 0). */
static struct engine_sched_attr sattr_of(pid_t tid)
{
    struct engine_sched_attr a;
    memset(&a, 0, sizeof(a));
    assert_int_equal(syscall(SYS_sched_getattr, tid, &a, (unsigned)sizeof(a), 0U), 0);
    return a;
}
/* Put this thread back on the kernel's default slice (and policy: SCHED_OTHER, nice 0). */
static void default_slice(void)
{
    struct engine_sched_attr a;
    memset(&a, 0, sizeof(a));
    a.size = sizeof(a);
    if (syscall(SYS_sched_setattr, 0, &a, 0U) != 0) {
        printf("skipped: sched_setattr to the default slice: %s\n", strerror(errno));
        skip();
    }
}

/* The short slice (docs/engines.md: "Short slice"): an io_uring engine on a file (it takes nowait
 * I/O) leaves its thread's slice alone; on a zram device of the test's own its thread asks
 * for ENGINE_SLICE_NS, not passed on to threads made from it, and the io-wq workers that ran
 * its marked I/Os keep the kernel's default; a second engine on the thread, under nice -1,
 * asks again, without the reset. */
static void test_slice(void **state)
{
    struct fixture *z = *state;
    if (!ENGINE_SLICE_NS) {
        printf("skipped: built with -DENGINE_SLICE_NS=0u: the engine keeps the default slice\n");
        skip();
    }
    if (!z->dev[0])
        skip();   /* zram_create said why */
    assert_true(z->fd >= 0);
    const pid_t self = (pid_t)syscall(SYS_gettid);
    default_slice();
    const uint64_t dflt = sattr_of(self).runtime;
    if (!dflt) {
        printf("skipped: this kernel does not report a thread's slice (before 6.12)\n");
        skip();
    }
    assert_int_not_equal(dflt, ENGINE_SLICE_NS);   /* else the test could not tell */

    void *file = NULL;   /* the other tests' O_DIRECT file fixture */
    assert_int_equal(setup(&file, "io_uring"), 0);
    start(file);
    assert_int_equal(sattr_of(self).runtime, dflt);
    teardown(&file);

    init_or_skip(z, &z->e, DEPTH);
    const struct engine_sched_attr mine = sattr_of(self);
    assert_int_equal(mine.policy, SCHED_OTHER);
    assert_int_equal(mine.runtime, ENGINE_SLICE_NS);
    assert_true(mine.flags & ENGINE_SCHED_RESET_ON_FORK);
    if (!marked_round_trip(z->fd, DEPTH, NULL))
        skip();
    /* io-wq keeps an idle worker for seconds: the ones that just ran are still there */
    DIR *d = opendir("/proc/self/task");
    assert_non_null(d);
    unsigned workers = 0;
    for (struct dirent *de; (de = readdir(d));) {
        char comm_path[64], comm[32] = "";
        if (de->d_name[0] == '.')
            continue;
        snprintf(comm_path, sizeof(comm_path), "/proc/self/task/%s/comm", de->d_name);
        FILE *c = fopen(comm_path, "r");
        if (!c)
            continue;
        if (!fgets(comm, sizeof(comm), c))
            comm[0] = '\0';
        fclose(c);
        if (strncmp(comm, "iou-wrk-", 8) != 0)
            continue;
        workers++;
        assert_int_equal(sattr_of((pid_t)atoi(de->d_name)).runtime, dflt);
    }
    closedir(d);
    if (!workers)
        printf("note: no io-wq worker left to look at\n");

    /* Under a negative nice value the reset would put the workers' back to 0: the thread asks
     * for the short slice without it (the workers made from it get the slice too). */
    if (setpriority(PRIO_PROCESS, 0, -1) != 0) {
        printf("note: nice -1 not allowed here (%s): the negative-nice case not tried\n",
               strerror(errno));
    } else {
        z->n_others = 1;
        init_or_skip(z, &z->others[0], DEPTH);
        const struct engine_sched_attr neg = sattr_of(self);
        assert_int_equal(neg.nice, -1);
        assert_int_equal(neg.runtime, ENGINE_SLICE_NS);
        assert_false(neg.flags & ENGINE_SCHED_RESET_ON_FORK);
    }
    default_slice();
}

/* One io_uring engine at depth 32 on a zram device of the test's own (unmarked on 2 CPUs or
 * more, so its waits at depth nap on a timer instead of spinning: docs/engines.md, "Nap"; on one
 * CPU marked, and they yield): 20000 rolling 4 KiB reads over blocks that hold their own
 * numbers, reaped one or more at a time; each comes back once, with its block's data. */
#define ZDEPTH 32u
#define ZBLKS 4096u   /* the 16 MiB device */
static void test_depth_on_zram(void **state)
{
    struct fixture *z = *state;
    if (!z->dev[0])
        skip();   /* zram_create said why */
    assert_true(z->fd >= 0);
    unsigned char *chunk = aligned_alloc(BLK, 16 * BLK);
    assert_non_null(chunk);
    bool written = true;
    for (uint32_t b = 0; b < ZBLKS && written; b += 16) {
        for (uint32_t k = 0; k < 16; k++)
            sign(chunk + k * BLK, b + k, 5);
        written = pwrite(z->fd, chunk, 16 * BLK, (off_t)b * BLK) == (ssize_t)(16 * BLK);
    }
    free(chunk);
    assert_true(written);
    init_or_skip(z, &z->e, ZDEPTH);
    rolling_reads(z->ops, z->e, ZDEPTH, ZBLKS, 97, 5, 20000, false);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_reads, setup_uring, teardown),
        cmocka_unit_test_setup_teardown(test_writes_and_results, setup_uring, teardown),
        cmocka_unit_test_setup_teardown(test_min_zero, setup_uring, teardown),
        cmocka_unit_test_setup_teardown(test_rolling, setup_uring, teardown),
        cmocka_unit_test_setup_teardown(test_reads, setup_aio, teardown),
        cmocka_unit_test_setup_teardown(test_writes_and_results, setup_aio, teardown),
        cmocka_unit_test_setup_teardown(test_min_zero, setup_aio, teardown),
        cmocka_unit_test_setup_teardown(test_rolling, setup_aio, teardown),
        cmocka_unit_test(test_spin_backoff),
        cmocka_unit_test(test_spin_limit),
        cmocka_unit_test(test_qd1_trials),
        cmocka_unit_test(test_buffers),
        cmocka_unit_test_setup_teardown(test_refuses_nowait, setup_uring, teardown),
        cmocka_unit_test_setup_teardown(test_marked_on_zram, setup_zram, teardown),
        cmocka_unit_test_setup_teardown(test_yield_on_zram, setup_zram, teardown),
        cmocka_unit_test_setup_teardown(test_slice, setup_zram, teardown),
        cmocka_unit_test(test_mark_rule),
        cmocka_unit_test(test_yield_rule),
        cmocka_unit_test(test_nap_rule),
        cmocka_unit_test(test_thread_cpus),
        cmocka_unit_test_setup_teardown(test_depth_on_zram, setup_zram, teardown),
    };
    return cmocka_run_group_tests_name("engines", tests, NULL, NULL);
}
