/* test_workload_sizes.c — fio's size keys reach both kinds of engine, and direct=0 opens the
 * target without O_DIRECT.
 *
 * bsrange=MIN-MAX (fio 3.33 io_u.c get_next_buflen: MIN + a uniform draw below MAX, down to a
 * multiple of MIN, at most MAX: 16k-64k gives 16k, 32k, 48k and 64k a quarter each),
 * blockalign/ba, bs=READ,WRITE and bssplit=READ,WRITE (each direction its own sizes, aligned
 * to its smallest as fio's default blockalign), zoned's open range ("20/": what is left):
 *   - native: the sizes, directions and alignments iogen issues (200,000 draws: shares within
 *     1.5 points);
 *   - fio: the lines of the job file the fio engine writes;
 *   - direct=0 and buffered=1: a temp file on a disk filesystem opened without O_DIRECT (and
 *     with it by default), the note the run records; a simulated drive runs direct, noted.
 * On the code before (main at 6dc373b) bsrange, blockalign and ba were "unknown key",
 * bs=4k,64k and bssplit=R,W were refused, "zoned:50/5:30/15:20/" was a bad zone and direct=0
 * was refused. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "device/target.h"
#include "engine/engine.h"
#include "engine/engine_keys.h"
#include "engine/fio_job.h"
#include "io/iogen.h"
#include "lib/util.h"

#define N_IOS 200000

static void parse(const char *spec, struct workload *wl)
{
    char err[ERR_LEN];
    if (wl_parse_inline(spec, wl, err, sizeof err) != 0)
        fail_msg("%s: %s", spec, err);
}

/* Shares (percent) of each size per direction over N_IOS draws; every offset checked. */
struct tally {
    uint32_t size[2][8];
    unsigned count[2][8], n[2];
};

static void draw(const struct workload *wl, struct tally *t, const uint64_t align[2])
{
    memset(t, 0, sizeof *t);
    struct wl_range range = {1ull << 20, 256ull << 20};
    struct iogen g;
    iogen_init(&g, wl, &range, 0, 1, 7);
    for (int i = 0; i < N_IOS; i++) {
        uint8_t d;
        uint32_t len;
        uint64_t off;
        iogen_next(&g, &d, &len, &off);
        assert_true(off >= range.start && off + len <= range.start + range.len);
        if (align)
            assert_int_equal((off - range.start) % align[d], 0);
        unsigned k = 0;
        while (k < t->n[d] && t->size[d][k] != len)
            k++;
        assert_true(k < 8);
        if (k == t->n[d])
            t->size[d][t->n[d]++] = len;
        t->count[d][k]++;
    }
}

static double share(const struct tally *t, unsigned d, uint32_t size)
{
    unsigned all = 0, hit = 0;
    for (unsigned k = 0; k < t->n[d]; k++) {
        all += t->count[d][k];
        hit += t->size[d][k] == size ? t->count[d][k] : 0;
    }
    return all ? 100.0 * hit / all : 0;
}

static void want_share(const struct tally *t, unsigned d, uint32_t size, double pct)
{
    double got = share(t, d, size);
    print_message("  %s %6u B: %5.2f%% (want %g%%)\n", d ? "write" : "read ", size, got, pct);
    assert_true(fabs(got - pct) <= 1.5);
}

static int job_for(const struct workload *wl, char *job, size_t len)
{
    char err[512];
    struct wl_range range = {0, 256ull << 20};
    struct fio_job_opts o = {.name = "k", .filename = "/dev/null", .ioengine = "io_uring",
                             .runtime_ns = 1000000000ull};
    int rc = fio_job_write(wl, &range, &o, job, len, err, sizeof err);
    if (rc)
        print_message("fio job: %s\n", err);
    return rc;
}

static void want_line(const char *job, const char *line)
{
    char want[256];
    snprintf(want, sizeof want, "\n%s\n", line);
    if (!strstr(job, want))
        fail_msg("no line '%s' in:\n%s", line, job);
}

static void test_bsrange_as_fio_draws_it(void **state)
{
    (void)state;
    struct workload wl;
    struct tally t;
    parse("rw=randread,bsrange=16k-64k", &wl);
    const uint64_t a[2] = {16384, 16384};   /* fio's blockalign: the smallest size */
    draw(&wl, &t, a);
    assert_int_equal(t.n[0], 4);
    for (uint32_t s = 16384; s <= 65536; s += 16384)
        want_share(&t, 0, s, 25);
    /* 4k-10k: 4k and 8k 40% each, 12k clamped to 10k: 20% (MIN + u * MAX, floored) */
    parse("rw=randwrite,bsrange=4k-10k", &wl);
    draw(&wl, &t, NULL);
    want_share(&t, 1, 4096, 40);
    want_share(&t, 1, 8192, 40);
    want_share(&t, 1, 10240, 20);
    assert_int_equal(wl_max_bs(&wl), 10240);
    static char job[16384];
    parse("rw=randread,blocksize_range=16k-1m", &wl);
    assert_int_equal(job_for(&wl, job, sizeof job), 0);
    want_line(job, "bsrange=16384-1048576");
    want_line(job, "norandommap=1");
    char spec[512];
    wl_format(&wl, spec, sizeof spec);
    assert_non_null(strstr(spec, ",bsrange=16k-1m,"));
    struct workload back;
    parse(spec, &back);
    assert_int_equal(back.bsrange_hi[0], 1u << 20);
    assert_int_equal(back.bs[0].size, 16384);
}

static void test_sizes_per_direction(void **state)
{
    (void)state;
    struct workload wl;
    struct tally t;
    parse("rw=randrw,rwmixread=50,bs=4k,64k", &wl);
    assert_true(wl_sizes_by_dir(&wl));
    const uint64_t a[2] = {4096, 65536};
    draw(&wl, &t, a);
    assert_int_equal(t.n[0], 1);
    assert_int_equal(t.n[1], 1);
    want_share(&t, 0, 4096, 100);
    want_share(&t, 1, 65536, 100);
    static char job[16384];
    assert_int_equal(job_for(&wl, job, sizeof job), 0);
    want_line(job, "bs=4096,65536");
    /* fio's example: bssplit=64k/40:1024k/60,1024k/100 */
    parse("rw=randrw,bssplit=64k/40:1024k/60,1024k/100", &wl);
    const uint64_t a2[2] = {65536, 1 << 20};
    draw(&wl, &t, a2);
    want_share(&t, 0, 65536, 40);
    want_share(&t, 0, 1 << 20, 60);
    want_share(&t, 1, 1 << 20, 100);
    assert_int_equal(job_for(&wl, job, sizeof job), 0);
    want_line(job, "bssplit=65536/40:1048576/60,1048576/100");
    /* one direction only: its sizes are every I/O's */
    parse("rw=write,bs=4k,64k", &wl);
    assert_false(wl_sizes_by_dir(&wl));
    assert_int_equal(wl.n_bs, 1);
    assert_int_equal(wl.bs[0].size, 65536);
    parse("rw=read,bs=4k,64k", &wl);
    assert_int_equal(wl.bs[0].size, 4096);
    /* "bs=,8k": reads keep the default */
    parse("rw=randrw,bs=,8k", &wl);
    assert_int_equal(wl.bs[0].size, 4096);
    assert_int_equal(wl.bs_write[0].size, 8192);
    /* the same both ways is no split */
    parse("rw=randrw,bs=8k,8k", &wl);
    assert_false(wl_sizes_by_dir(&wl));
    char spec[512];
    parse("rw=randrw,bssplit=4k/50:8k/50,16k", &wl);
    wl_format(&wl, spec, sizeof spec);
    assert_non_null(strstr(spec, ",bssplit=4k/50:8k/50,16k,"));
}

static void test_blockalign(void **state)
{
    (void)state;
    struct workload wl;
    struct tally t;
    parse("rw=randread,bs=4k,blockalign=64k", &wl);
    const uint64_t a[2] = {65536, 65536};
    draw(&wl, &t, a);
    static char job[16384];
    assert_int_equal(job_for(&wl, job, sizeof job), 0);
    want_line(job, "blockalign=65536");
    want_line(job, "norandommap=1");
    parse("rw=randread,bssplit=4k/50:64k/50,ba=4k", &wl);
    const uint64_t a4[2] = {4096, 4096};
    draw(&wl, &t, a4);
    assert_int_equal(job_for(&wl, job, sizeof job), 0);
    want_line(job, "blockalign=4096");
    char err[256];
    assert_int_equal(wl_parse_inline("bs=4k,blockalign=1000", &wl, err, sizeof err), 0);
    struct wl_range r;
    assert_int_equal(wl_check_target(&wl, 1ull << 30, 512, "t", &r, err, sizeof err), -1);
    assert_non_null(strstr(err, "blockalign 1000 is not a multiple of the 512-byte"));
}

static void test_zoned_open_range(void **state)
{
    (void)state;
    struct workload wl;
    parse("random_distribution=zoned:50/5:30/15:20/", &wl);
    assert_int_equal(wl.n_zones, 3);
    assert_int_equal(wl.zones[2].access_pct, 20);
    assert_int_equal(wl.zones[2].range_pct, 80);
    parse("random_distribution=zoned:60/10:20/:20/", &wl);
    assert_int_equal(wl.zones[1].range_pct, 45);
    assert_int_equal(wl.zones[2].range_pct, 45);
    char err[256];
    assert_int_equal(wl_parse_inline("random_distribution=zoned:50/50:30/50:20/", &wl, err,
                                     sizeof err), -1);
    assert_non_null(strstr(err, "no range left"));
}

static void test_io_submit_mode_and_iodepth_low(void **state)
{
    (void)state;
    struct workload wl;
    char err[256];
    /* fio's percentage forms: READ,WRITE the same share is one share */
    parse("rw=randrw,percentage_random=40,40", &wl);
    assert_int_equal(wl.random_pct, 40);
    assert_int_equal(wl_parse_inline("rw=randrw,percentage_random=40,60", &wl, err, sizeof err),
                     -1);
    assert_non_null(strstr(err, "different random shares"));
    /* rw=read:8k (fio's offset modifier): honoured (test_iogen_offsets.c); with
     * percentage_random refused naming what it changes, not "unknown" */
    parse("rw=read:8k", &wl);
    assert_int_equal(wl.seq_add, 8192);
    assert_int_equal(wl_parse_inline("rw=read:8k,percentage_random=50", &wl, err, sizeof err),
                     -1);
    assert_non_null(strstr(err, "offset modifier"));
    parse("iodepth=8,iodepth_low=8,io_submit_mode=inline", &wl);
    assert_int_equal(wl_parse_inline("iodepth=8,iodepth_low=2", &wl, err, sizeof err), -1);
    assert_non_null(strstr(err, "iodepth_low=2 below iodepth=8"));
    parse("io_submit_mode=offload", &wl);   /* taken: no quiesce when ahead of a rate */
    assert_true(wl.rate_offload);
    assert_int_equal(wl_parse_inline("io_submit_mode=sometimes", &wl, err, sizeof err), -1);
    assert_non_null(strstr(err, "want inline or offload"));
}

/* direct=0: a temp file on a disk filesystem (/var/tmp), opened without O_DIRECT. */
static void test_direct_0_opens_buffered(void **state)
{
    (void)state;
    struct workload wl;
    parse("rw=randread,direct=0", &wl);
    assert_true(wl.buffered);
    char spec[512];
    wl_format(&wl, spec, sizeof spec);
    assert_non_null(strstr(spec, ",direct=0,"));
    const struct engine_ops *uring = engine_find("io_uring"), *sim = engine_find("sim");
    const struct engine_ops *fio = engine_find("fio");
    assert_non_null(uring);
    assert_non_null(sim);
    assert_non_null(fio);
    char err[512];
    assert_int_equal(engine_keys_check(uring, &wl, err, sizeof err), 0);
    assert_non_null(strstr(wl.note, "buffered (direct=0): the page cache's figures"));
    static char job[16384];
    assert_int_equal(engine_keys_check(fio, &wl, err, sizeof err), 0);
    assert_int_equal(job_for(&wl, job, sizeof job), 0);
    want_line(job, "direct=0");
    struct workload s;
    parse("rw=randread,buffered=1", &s);
    assert_true(s.buffered);
    assert_int_equal(engine_keys_check(sim, &s, err, sizeof err), 0);
    assert_false(s.buffered);   /* no page cache to go through */
    assert_non_null(strstr(s.note, "simulated drive: it has no page cache"));

    char path[128];
    snprintf(path, sizeof path, "/var/tmp/ptsbench-test-direct-%d.img", (int)getpid());
    struct target_info t;
    if (target_probe(path, 1u << 20, &t, err, sizeof err) != 0 ||
        target_create_file(&t, err, sizeof err) != 0) {
        print_message("no temp file in /var/tmp (%s): skipped\n", err);
        unlink(path);
        skip();
    }
    for (int b = 0; b < 2; b++) {
        t.buffered = b;
        int fd = target_open(&t, false, err, sizeof err);
        if (fd < 0 && !b) {   /* a filesystem without O_DIRECT: nothing to tell apart */
            print_message("%s: skipped\n", err);
            unlink(path);
            skip();
        }
        assert_true(fd >= 0);
        int fl = fcntl(fd, F_GETFL);
        print_message("  buffered=%d: O_DIRECT %s\n", b, fl & O_DIRECT ? "set" : "not set");
        assert_int_equal(!!(fl & O_DIRECT), !b);
        close(fd);
    }
    unlink(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bsrange_as_fio_draws_it),
        cmocka_unit_test(test_sizes_per_direction),
        cmocka_unit_test(test_blockalign),
        cmocka_unit_test(test_zoned_open_range),
        cmocka_unit_test(test_io_submit_mode_and_iodepth_low),
        cmocka_unit_test(test_direct_0_opens_buffered),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
