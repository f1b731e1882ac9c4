/* test_uring_batch.c — io_uring's "Small batches" hold (docs/engines.md) against the workload's
 * iodepth_batch_submit: a workload that caps the I/Os per submission call (fio's files:
 * iodepth_batch_submit=1 by default) gets each I/O submitted with the call that follows its
 * queue(), never held back to go with the next ones (three held 256 KiB sequential reads went
 * in one call, under one plug, and the block layer merged them into 768 KiB requests:
 * scripts/blockeq.py on fio-seq-read.fio); a workload without the cap keeps the hold.  What the
 * engine did is its recorded choices (engine_choices.held, in each round's results).
 *
 * The loop's rolling rhythm at depth 8: each turn takes one completion and queues one new read,
 * so a turn has one I/O to submit while most of the depth is in the kernel.  On a file of the
 * test's own under /var/tmp (O_DIRECT needs a real filesystem), removed as soon as it is open;
 * io_uring disabled or no O_DIRECT there: skipped with the reason. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/engine.h"
#include "io/workload.h"

#define BLK 4096u
#define NBLK 64u
#define DEPTH 8u
#define TURNS 400u

/* A file of NBLK blocks, open O_DIRECT and already unlinked; -1 (errno set) when it cannot be. */
static int scratch_file(void)
{
    char path[] = "/var/tmp/ptsbench-uring-batch-XXXXXX";
    const int wfd = mkstemp(path);
    if (wfd < 0)
        return -1;
    static unsigned char b[BLK];
    memset(b, 0x5a, sizeof b);
    for (unsigned i = 0; i < NBLK; i++)
        if (pwrite(wfd, b, BLK, (off_t)i * BLK) != (ssize_t)BLK) {
            close(wfd);
            unlink(path);
            return -1;
        }
    close(wfd);
    const int fd = open(path, O_RDONLY | O_DIRECT);
    const int e = errno;
    unlink(path);
    errno = e;
    return fd;
}

/* The rolling rhythm on a fresh engine (wl: the workload the worker would pass, or NULL);
 * returns the engine's choices at the end.  Skips when the engine cannot run here. */
static struct engine_choices rolling(const struct workload *wl)
{
    const int fd = scratch_file();
    if (fd < 0) {
        printf("skipped: no O_DIRECT file under /var/tmp (%s)\n", strerror(errno));
        skip();
    }
    const struct engine_ops *ops = engine_find("io_uring");
    assert_non_null(ops);
    struct engine_config cfg = {.fd = fd, .depth = DEPTH, .max_len = BLK, .mem_align = BLK,
                                .wl = wl};
    struct engine *e = NULL;
    char err[256] = "";
    if (ops->init(&e, &cfg, err, sizeof err) != 0) {
        close(fd);
        printf("skipped: %s\n", err);
        skip();
    }
    struct io_unit *units = ops->units(e);
    unsigned next = 0, done = 0;
    for (unsigned i = 0; i < DEPTH; i++) {
        units[i].dir = IO_READ;
        units[i].len = BLK;
        units[i].offset = (uint64_t)(next++ % NBLK) * BLK;
        assert_int_equal(ops->queue(e, &units[i]), 0);
    }
    assert_int_equal(ops->commit(e), 0);
    for (unsigned t = 0; t < TURNS; t++) {
        struct io_unit *got[1];
        assert_int_equal(ops->reap(e, 1, 1, got), 1);
        assert_int_equal(got[0]->result, BLK);
        done++;
        got[0]->offset = (uint64_t)(next++ % NBLK) * BLK;
        assert_int_equal(ops->queue(e, got[0]), 0);
        assert_int_equal(ops->commit(e), 0);
    }
    while (done < next) {   /* every read comes back, none left staged */
        struct io_unit *got[DEPTH];
        const int r = ops->reap(e, 1, DEPTH, got);
        assert_true(r >= 1);
        done += (unsigned)r;
    }
    struct engine_choices ch;
    ops->choices(e, &ch);
    ops->cleanup(e);
    close(fd);
    return ch;
}

/* iodepth_batch_submit=1 (fio's default): nothing held, every wait submitted what was staged. */
static void test_batch_submit_one_never_held(void **state)
{
    (void)state;
    struct workload wl;
    wl_init(&wl);
    wl.batch_submit = 1;
    const struct engine_choices ch = rolling(&wl);
    assert_true(ch.known);
    assert_true(ch.waits >= TURNS);
    assert_int_equal(ch.held, 0);
}

/* Any cap (here 4): the held I/Os would go with the next call's, past it. */
static void test_batch_submit_cap_never_held(void **state)
{
    (void)state;
    struct workload wl;
    wl_init(&wl);
    wl.batch_submit = 4;
    const struct engine_choices ch = rolling(&wl);
    assert_int_equal(ch.held, 0);
}

/* No cap (ptsbench's own workloads, batch_submit 0; or no workload given): the hold stays. */
static void test_no_cap_holds(void **state)
{
    (void)state;
    struct workload wl;
    wl_init(&wl);
    assert_int_equal(wl.batch_submit, 0);
    struct engine_choices ch = rolling(&wl);
    assert_true(ch.held > 0);
    ch = rolling(NULL);
    assert_true(ch.held > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_batch_submit_one_never_held),
        cmocka_unit_test(test_batch_submit_cap_never_held),
        cmocka_unit_test(test_no_cap_holds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
