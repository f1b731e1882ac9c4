/* test_prio.c — fio's I/O priority keys (prio, prioclass, cmdprio, cmdprio_class,
 * cmdprio_percentage, cmdprio_bssplit): taken as fio 3.33 takes them, the share of I/Os the
 * generator raises (io/iogen.h iogen_prio), its draw seeded and apart from the offsets', and
 * the native engines issuing each I/O's priority on a zram device of the test's own (a bad
 * class refused by the kernel). */
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
#include "helpers.h"
#include "io/iogen.h"
#include "lib/util.h"

#define N_IOS 100000
#define IOPRIO(c, l) ((uint16_t)((c) << 13 | (l)))

static void parse(const char *spec, struct workload *wl)
{
    char err[ERR_LEN];
    if (wl_parse_inline(spec, wl, err, sizeof err) != 0)
        fail_msg("%s: %s", spec, err);
}

static void refused(const char *spec, const char *words)
{
    struct workload wl;
    char err[ERR_LEN] = "";
    assert_int_equal(wl_parse_inline(spec, &wl, err, sizeof err), -1);
    if (!strstr(err, words))
        fail_msg("%s: '%s' does not say '%s'", spec, err, words);
}

/* cmdprio_percentage=20 with prioclass=3 (fio's cmdprio-percentage.fio): a fifth of the reads
 * at RT level 0 (cmdprio_class=1, cmdprio's default 0), the rest idle; the sizes and offsets
 * drawn are those of the same workload without priorities; the same seed, the same draw. */
static void test_percentage_share(void **state)
{
    (void)state;
    struct workload wl, plain;
    parse("rw=randread,bs=128k,prioclass=3,cmdprio_percentage=20,cmdprio_class=1", &wl);
    parse("rw=randread,bs=128k", &plain);
    struct wl_range range = {0, 1ull << 30};
    struct iogen g, p, again;
    iogen_init(&g, &wl, &range, 0, 1, 42);
    iogen_init(&p, &plain, &range, 0, 1, 42);
    iogen_init(&again, &wl, &range, 0, 1, 42);
    unsigned raised = 0;
    for (int i = 0; i < N_IOS; i++) {
        uint8_t d, d2;
        uint32_t len, len2;
        uint64_t off, off2;
        iogen_next(&g, &d, &len, &off);
        iogen_next(&p, &d2, &len2, &off2);
        assert_true(d == d2 && len == len2 && off == off2);
        uint16_t prio = iogen_prio(&g, d, len);
        assert_int_equal(iogen_prio(&p, d2, len2), 0);   /* no keys: the thread's own */
        iogen_next(&again, &d2, &len2, &off2);
        assert_int_equal(iogen_prio(&again, d2, len2), prio);
        if (prio == IOPRIO(1, 0))
            raised++;
        else
            assert_int_equal(prio, IOPRIO(3, 0));
    }
    assert_int_equal(g.prio_raised, raised);
    assert_true(raised > N_IOS * 19 / 100 && raised < N_IOS * 21 / 100);
}

/* cmdprio_bssplit's advanced form (fio's cmdprio-bssplit.fio, job cmdprio-adv-def): of the
 * 64 KiB reads a quarter RT level 1, three quarters idle level 2; 1 MiB reads and every write
 * at prioclass=2/prio=7; each entry's share within a point. */
static void test_bssplit_share(void **state)
{
    (void)state;
    struct workload wl;
    parse("rw=randrw,bssplit=64k/40:1024k/60,1024k/100,prioclass=2,prio=7,"
          "cmdprio_bssplit=64k/25/1/1:64k/75/3/2:1024k/0", &wl);
    assert_int_equal(wl.prio.n_split[0], 2);   /* the 0 % entry dropped, as fio */
    struct wl_range range = {0, 1ull << 30};
    struct iogen g;
    iogen_init(&g, &wl, &range, 0, 1, 7);
    unsigned small = 0, rt = 0, idle = 0;
    for (int i = 0; i < N_IOS; i++) {
        uint8_t d;
        uint32_t len;
        uint64_t off;
        iogen_next(&g, &d, &len, &off);
        uint16_t prio = iogen_prio(&g, d, len);
        if (len != 65536) {
            assert_int_equal(prio, IOPRIO(2, 7));
            continue;
        }
        small++;
        if (prio == IOPRIO(1, 1))
            rt++;
        else
            assert_int_equal(prio, IOPRIO(3, 2)), idle++;
    }
    assert_int_equal(rt + idle, small);
    assert_true(rt * 100 > small * 24 && rt * 100 < small * 26);
}

/* fio's example file as it is, and the values fio refuses. */
static void test_keys_taken_and_refused(void **state)
{
    (void)state;
    char err[ERR_LEN];
    struct workload wl;
    if (wl_load_fio("tests/fixtures/fio-examples/cmdprio-percentage.fio", NULL, &wl, err,
                    sizeof err) != 0)
        fail_msg("%s", err);
    assert_int_equal(wl.prio.cls, 3);
    assert_int_equal(wl.prio.pct[0], 20);
    assert_int_equal(wl.prio.pct[1], 0);   /* a read job: fio sets reads' only */
    assert_int_equal(wl.prio.cmd_cls[0], 1);
    assert_int_equal(wl_prio_default(&wl), IOPRIO(3, 0));
    parse("rw=randrw,cmdprio_percentage=10,cmdprio=3", &wl);
    assert_int_equal(wl.prio.cmd_cls[1], 1);   /* fio's default: the highest class */
    assert_int_equal(wl.prio.cmd_level[1], 3);
    /* the canonical form (results, plans) gives the same priorities back */
    const char *const specs[] = {
        "rw=randrw,prioclass=2,prio=7,cmdprio_percentage=20,10,cmdprio=3",
        "rw=randrw,bssplit=64k/40:1024k/60,1024k/100,cmdprio_bssplit=64k/25/1/1:64k/75/3/2,"
        "1024k/10",
    };
    for (unsigned i = 0; i < 2; i++) {
        struct workload a, b;
        char spec[1024];
        parse(specs[i], &a);
        wl_format(&a, spec, sizeof spec);
        parse(spec, &b);
        assert_memory_equal(&a.prio, &b.prio, sizeof a.prio);
    }
    refused("cmdprio_class=0", "cmdprio_class=0");
    refused("cmdprio_class=4", "cmdprio_class=4");
    refused("prio=8", "prio=8");
    refused("prioclass=4", "prioclass=4");
    refused("cmdprio_percentage=101", "cmdprio_percentage=101");
    refused("bssplit=4k/50:8k/50,cmdprio_percentage=10,cmdprio_bssplit=4k/50", "exclude");
    refused("bssplit=4k/50:8k/50,cmdprio_bssplit=4k/60:4k/50", "above 100");
}

/* A zram device of the test's own, O_DIRECT. */
struct zfix {
    char dev[64];
    int fd;
};

static int setup_zram(void **state)
{
    struct zfix *z = calloc(1, sizeof *z);
    if (!z)
        return -1;
    z->fd = -1;
    if (zram_create("16M", z->dev, sizeof z->dev))
        z->fd = open(z->dev, O_RDWR | O_DIRECT);
    *state = z;
    return 0;
}

static int teardown_zram(void **state)
{
    struct zfix *z = *state;
    if (z->fd >= 0)
        close(z->fd);
    if (z->dev[0])
        zram_remove(z->dev);
    free(z);
    return 0;
}

/* One 4 KiB read at ioprio through the engine: its result (bytes, or -errno from the
 * completion or the submission). */
static int64_t read_at(const struct engine_ops *ops, struct engine *e, uint16_t ioprio)
{
    struct io_unit *u = ops->units(e);
    u->dir = IO_READ;
    u->len = 4096;
    u->offset = 8192;
    u->ioprio = ioprio;
    assert_int_equal(ops->queue(e, u), 0);
    int r = ops->commit(e);
    if (r < 0)
        return r;
    struct io_unit *out[1];
    assert_int_equal(ops->reap(e, 1, 1, out), 1);
    return out[0]->result;
}

/* io_uring (sqe->ioprio) and libaio (IOCB_FLAG_IOPRIO): reads issued best effort level 4
 * and idle succeed; a class the kernel has not (7) is refused by it. */
static void test_engines_issue_ioprio(void **state)
{
    struct zfix *z = *state;
    if (z->fd < 0) {
        print_message("skipped: no zram device of our own\n");
        skip();
    }
    const char *names[] = {"io_uring", "libaio"};
    for (unsigned k = 0; k < 2; k++) {
        const struct engine_ops *ops = engine_find(names[k]);
        assert_non_null(ops);
        struct engine_config cfg = {.fd = z->fd, .depth = 1, .max_len = 4096, .mem_align = 4096};
        struct engine *e = NULL;
        char err[256] = "";
        if (ops->init(&e, &cfg, err, sizeof err) != 0) {
            print_message("%s: %s: not tried\n", names[k], err);
            continue;
        }
        assert_int_equal(read_at(ops, e, IOPRIO(2, 4)), 4096);
        assert_int_equal(read_at(ops, e, IOPRIO(3, 0)), 4096);
        int64_t bad = read_at(ops, e, IOPRIO(7, 0));
        if (bad != -EINVAL)
            fail_msg("%s: a read at class 7 gave %lld, want -EINVAL (the priority not sent?)",
                     names[k], (long long)bad);
        ops->cleanup(e);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_percentage_share),
        cmocka_unit_test(test_bssplit_share),
        cmocka_unit_test(test_keys_taken_and_refused),
        cmocka_unit_test_setup_teardown(test_engines_issue_ioprio, setup_zram, teardown_zram),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
