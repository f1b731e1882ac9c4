/* test_trace.c — block I/O traces (io/trace.h): every reader on a fixture whose figures are
 * worked out by hand (tests/fixtures/traces/), disk-busy time and queue depths, blktrace's
 * binary form in both byte orders, the errors a bad trace gets, and fitting offsets to a
 * target. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <linux/blktrace_api.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "device/capture.h"
#include "io/trace.h"
#include "lib/util.h"

#define FIX "tests/fixtures/traces/"
#define MS 1000000ull

static void load_ok(const char *path, struct trace *t)
{
    char err[ERR_LEN] = "";
    memset(t, 0, sizeof(*t));
    int rc = trace_load(path, t, err, sizeof(err));
    if (!rc)
        rc = trace_finish(t, err, sizeof(err));
    if (rc)
        print_error("%s: %s\n", path, err);
    assert_int_equal(rc, 0);
}

/* Loading must fail with a message containing want. */
static void load_bad(const char *path, const char *want)
{
    struct trace t = {0};
    char err[ERR_LEN] = "";
    int rc = trace_load(path, &t, err, sizeof(err));
    if (!rc)
        rc = trace_finish(&t, err, sizeof(err));
    assert_int_equal(rc, -1);
    if (!strstr(err, want))
        print_error("'%s' does not say '%s'\n", err, want);
    assert_non_null(strstr(err, want));
    trace_free(&t);
}

static char tmpdir[64];

static const char *write_tmp(const char *name, const void *data, size_t len)
{
    static char path[128];
    snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, len, f), len);
    fclose(f);
    return path;
}

static int setup(void **state)
{
    (void)state;
    snprintf(tmpdir, sizeof(tmpdir), "/tmp/ptsbench-trace-XXXXXX");
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof(cmd), "%s", tmpdir);
    /* the files this test wrote, then the directory */
    const char *names[] = {"bad.csv", "bt.bin", "bt-swapped.bin", "bt-cut.bin", "v3wait.iolog",
                           "empty.csv", "odd.csv", "captured.blkparse"};
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        char p[160];
        snprintf(p, sizeof(p), "%s/%s", tmpdir, names[i]);
        unlink(p);
    }
    return rmdir(cmd);
}

/* busy.csv: every figure in its header comment, worked out by hand. */
static void test_busy_fixture(void **state)
{
    (void)state;
    struct trace t;
    load_ok(FIX "busy.csv", &t);
    assert_string_equal(t.format, "csv");
    assert_int_equal(t.n, 8);
    assert_true(t.timed);
    assert_true(t.has_done);
    struct trace_stats s;
    trace_stats(&t, &s);
    assert_int_equal(s.busy_ns, 45 * MS);
    assert_int_equal(s.ios[TRACE_READ], 6);
    assert_int_equal(s.ios[TRACE_WRITE], 2);
    assert_int_equal(s.bytes[TRACE_READ], 6 * 4096);
    assert_int_equal(s.bytes[TRACE_WRITE], 8192 + 4096);
    assert_int_equal(s.seq_ios, 3);
    assert_int_equal(s.qd[1], 4);
    assert_int_equal(s.qd[2], 4);
    assert_true(fabs(s.qd_mean - 1.5) < 1e-12);
    assert_int_equal(s.span_ns, 70 * MS);
    assert_true(fabs(s.lat_mean_us[TRACE_READ] - 35000.0 / 6) < 1e-6);
    assert_true(fabs(s.lat_mean_us[TRACE_WRITE] - 10000.0) < 1e-6);
    assert_int_equal(s.len_min, 4096);
    assert_int_equal(s.len_max, 8192);
    /* the same union from the bare intervals, in another order */
    uint64_t st[8], en[8];
    for (size_t i = 0; i < 8; i++) {
        st[7 - i] = t.r[i].t_ns;
        en[7 - i] = t.r[i].done_ns;
    }
    assert_int_equal(trace_busy_ns(st, en, 8, NULL), 45 * MS);
    assert_int_equal(trace_busy_ns(st, en, 0, NULL), 0);
    trace_free(&t);
}

/* small.blkparse: issues matched with completions on another CPU, a flush and a discard left
 * out, an issue the trace never completes kept to the trace's end, the summary ignored. */
static void test_blkparse(void **state)
{
    (void)state;
    struct trace t;
    load_ok(FIX "small.blkparse", &t);
    assert_string_equal(t.format, "blkparse");
    assert_int_equal(t.n, 4);
    assert_int_equal(t.skipped, 2);      /* the flush and the discard */
    assert_int_equal(t.unfinished, 1);
    assert_true(t.has_done);
    const struct trace_rec want[4] = {
        {0, 100000, 0, 4096, TRACE_READ},
        {199000, 499000, 4096, 8192, TRACE_WRITE},
        {249000, 399000, 1000 * 512, 4096, TRACE_READ},
        {799000, 799000, 0, 4096, TRACE_READ},
    };
    for (int i = 0; i < 4; i++) {
        assert_int_equal(t.r[i].t_ns, want[i].t_ns);
        assert_int_equal(t.r[i].done_ns, want[i].done_ns);
        assert_int_equal(t.r[i].offset, want[i].offset);
        assert_int_equal(t.r[i].len, want[i].len);
        assert_int_equal(t.r[i].dir, want[i].dir);
    }
    struct trace_stats s;
    trace_stats(&t, &s);
    assert_int_equal(s.busy_ns, 400000);   /* [0, 100) and [199, 499) us */
    assert_int_equal(s.qd[1], 3);
    assert_int_equal(s.qd[2], 1);          /* the read at 249 us, with the write outstanding */
    trace_free(&t);
}

static void test_iologs(void **state)
{
    (void)state;
    struct trace t;
    load_ok(FIX "v2.iolog", &t);
    assert_string_equal(t.format, "fio-iolog-v2");
    assert_int_equal(t.n, 3);
    assert_true(t.timed);                  /* from the wait */
    assert_false(t.has_done);
    assert_int_equal(t.skipped, 2);        /* trim, sync */
    assert_int_equal(t.files, 2);
    assert_int_equal(t.r[0].t_ns, 0);
    assert_int_equal(t.r[1].t_ns, 1 * MS);
    assert_int_equal(t.r[1].dir, TRACE_WRITE);
    assert_int_equal(t.r[2].len, 512);
    trace_free(&t);

    load_ok(FIX "v3.iolog", &t);
    assert_string_equal(t.format, "fio-iolog-v3");
    assert_int_equal(t.n, 3);
    assert_int_equal(t.r[0].t_ns, 0);      /* re-based from 100 us */
    assert_int_equal(t.r[1].t_ns, 1 * MS);
    assert_int_equal(t.r[2].t_ns, 2 * MS);
    assert_int_equal(t.r[2].offset, 4096);
    struct trace_stats s;
    trace_stats(&t, &s);
    assert_int_equal(s.seq_ios, 0);
    assert_int_equal(s.busy_ns, 0);        /* no completions: not known */
    trace_free(&t);

    static const char v3wait[] = "fio version 3 iolog\n0 /f add\n5 /f wait 100 0\n";
    load_bad(write_tmp("v3wait.iolog", v3wait, strlen(v3wait)), "'wait' is not allowed");
}

/* Two files merged by time: the blktrace per-CPU case, here two csv halves. */
static void test_merge(void **state)
{
    (void)state;
    struct trace t = {0};
    char err[ERR_LEN];
    assert_int_equal(trace_load(FIX "v3.iolog", &t, err, sizeof(err)), 0);
    assert_int_equal(trace_load(FIX "busy.csv", &t, err, sizeof(err)), 0);
    assert_int_equal(trace_finish(&t, err, sizeof(err)), 0);
    assert_int_equal(t.n, 11);
    assert_string_equal(t.format, "mixed");
    assert_false(t.has_done);
    for (size_t i = 1; i < t.n; i++)
        assert_true(t.r[i - 1].t_ns <= t.r[i].t_ns);
    trace_free(&t);
}

static void test_bad_input(void **state)
{
    (void)state;
    static const char bad[] = "timestamp,offset,length,direction\n0.1,0,4096,R\n0.2,4096,4096,Q\n";
    load_bad(write_tmp("bad.csv", bad, strlen(bad)), "bad.csv:3: direction 'Q': want R or W");
    static const char odd[] = "0.1,0,0,R\n";
    load_bad(write_tmp("odd.csv", odd, strlen(odd)), "odd.csv:1: length 0");
    static const char empty[] = "# nothing\n";
    load_bad(write_tmp("empty.csv", empty, strlen(empty)), "no reads or writes");
    load_bad("/nonexistent/trace.csv", "/nonexistent/trace.csv");
}

/* blktrace's binary records, native and byte-swapped, with a message and a passthrough
 * command to skip; a truncated file is an error. */
static void put(unsigned char *buf, size_t *pos, uint64_t time, uint64_t sector, uint32_t bytes,
                uint32_t action, uint16_t pdu, bool swap)
{
    struct blk_io_trace b = {.magic = BLK_IO_TRACE_MAGIC | BLK_IO_TRACE_VERSION,
                             .time = time, .sector = sector, .bytes = bytes,
                             .action = action, .device = 7u << 20, .pdu_len = pdu};
    if (swap) {
        b.magic = __builtin_bswap32(b.magic);
        b.time = __builtin_bswap64(b.time);
        b.sector = __builtin_bswap64(b.sector);
        b.bytes = __builtin_bswap32(b.bytes);
        b.action = __builtin_bswap32(b.action);
        b.device = __builtin_bswap32(b.device);
        b.pdu_len = __builtin_bswap16(b.pdu_len);
    }
    memcpy(buf + *pos, &b, sizeof(b));
    *pos += sizeof(b);
    memset(buf + *pos, 'x', pdu);
    *pos += pdu;
}

static size_t make_blktrace(unsigned char *buf, bool swap)
{
    size_t pos = 0;
    const uint32_t rd = BLK_TC_ACT(BLK_TC_READ), wr = BLK_TC_ACT(BLK_TC_WRITE);
    put(buf, &pos, 1000, 0, 4096, BLK_TA_QUEUE | rd, 0, swap);
    put(buf, &pos, 2000, 0, 4096, BLK_TA_ISSUE | rd, 0, swap);
    put(buf, &pos, 3000, 0, 0, BLK_TC_ACT(BLK_TC_NOTIFY) | __BLK_TN_MESSAGE, 12, swap);
    put(buf, &pos, 4000, 64, 65536, BLK_TA_ISSUE | wr, 0, swap);
    put(buf, &pos, 5000, 0, 4096, BLK_TA_COMPLETE | rd, 0, swap);
    put(buf, &pos, 6000, 0, 512, BLK_TA_ISSUE | BLK_TC_ACT(BLK_TC_PC), 16, swap);
    put(buf, &pos, 9000, 64, 65536, BLK_TA_COMPLETE | wr, 0, swap);
    return pos;
}

static void test_blktrace_binary(void **state)
{
    (void)state;
    unsigned char buf[4096];
    for (int swap = 0; swap < 2; swap++) {
        size_t len = make_blktrace(buf, swap);
        struct trace t;
        load_ok(write_tmp(swap ? "bt-swapped.bin" : "bt.bin", buf, len), &t);
        assert_string_equal(t.format, "blktrace");
        assert_int_equal(t.n, 2);
        assert_true(t.has_done);
        assert_int_equal(t.r[0].t_ns, 0);
        assert_int_equal(t.r[0].done_ns, 3000);
        assert_int_equal(t.r[0].dir, TRACE_READ);
        assert_int_equal(t.r[1].t_ns, 2000);
        assert_int_equal(t.r[1].done_ns, 7000);
        assert_int_equal(t.r[1].offset, 64 * 512);
        assert_int_equal(t.r[1].len, 65536);
        assert_int_equal(t.r[1].dir, TRACE_WRITE);
        struct trace_stats s;
        trace_stats(&t, &s);
        assert_int_equal(s.busy_ns, 7000);
        trace_free(&t);
    }
    size_t len = make_blktrace(buf, false);
    load_bad(write_tmp("bt-cut.bin", buf, len - 10), "truncated");
}

static void test_remap(void **state)
{
    (void)state;
    struct trace t;
    char err[ERR_LEN] = "";
    uint64_t raised;
    load_ok(FIX "busy.csv", &t);   /* extent 1052672 + 4096 */
    assert_int_equal(trace_extent(&t), 1056768);
    assert_int_equal(trace_remap(&t, 1 << 20, 512, "none", &raised, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "use --remap wrap or scale"));
    trace_free(&t);

    load_ok(FIX "busy.csv", &t);
    assert_int_equal(trace_remap(&t, 1 << 20, 512, "wrap", &raised, err, sizeof(err)), 0);
    assert_int_equal(t.r[2].offset, 0);        /* 1048576 mod 1 MiB */
    assert_int_equal(t.r[3].offset, 4096);
    for (size_t i = 0; i < t.n; i++)
        assert_true(t.r[i].offset + t.r[i].len <= 1 << 20);
    trace_free(&t);

    load_ok(FIX "busy.csv", &t);
    assert_int_equal(trace_remap(&t, 1 << 19, 4096, "scale", &raised, err, sizeof(err)), 0);
    assert_int_equal(raised, 0);
    for (size_t i = 0; i < t.n; i++) {
        assert_int_equal(t.r[i].offset % 4096, 0);
        assert_true(t.r[i].offset + t.r[i].len <= 1 << 19);
    }
    assert_int_equal(t.r[6].offset, 12288 / 2 / 4096 * 4096);   /* halved, aligned down */
    trace_free(&t);

    load_ok(FIX "v2.iolog", &t);   /* a 512-byte read on a 4096-byte-sector device */
    assert_int_equal(trace_remap(&t, 1 << 20, 4096, "none", &raised, err, sizeof(err)), 0);
    assert_int_equal(raised, 1);
    assert_int_equal(t.r[2].len, 4096);
    assert_int_equal(trace_remap(&t, 1 << 20, 4096, "fold", &raised, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "--remap fold"));
    trace_free(&t);
}

/* The kernel's block tracepoint lines (as tracefs prints them) turned into blkparse's text
 * form, which the blkparse reader takes back: the same requests, completions matched. */
static void test_capture_lines(void **state)
{
    (void)state;
    static const char *const in[] = {
        "# tracer: nop",
        "              dd-23775   [001] .....  7477.864861: block_rq_issue: 7,0 RS 4096 () 0 + 8 "
        "be,0,4 [dd]",
        "     ksoftirqd/1-22      [001] ..s..  7477.864895: block_rq_complete: 7,0 RS () 0 + 8 "
        "be,0,4 [0]",
        "   kworker/u8:2-1234    [000] .....  7477.865000: block_rq_issue: 7,0 FF 0 () 0 + 0 "
        "none,0,0 [kworker/u8:2]",
        "     fio-worker-77      [003] d..1.  7477.865100: block_rq_issue: 7,0 W 65536 () 2048 + "
        "128 [fio-worker]",
        "          <idle>-0       [003] ..s1.  7477.865600: block_rq_complete: 7,0 W () 2048 + 128 "
        "[0]",
    };
    char out[4096] = "", line[640];
    uint64_t seq = 0;
    int kept = 0;
    for (size_t i = 0; i < sizeof(in) / sizeof(in[0]); i++)
        if (capture_line_to_blkparse(in[i], ++seq, line, sizeof(line))) {
            strcat(out, line);
            kept++;
        }
    assert_int_equal(kept, 4);   /* the header and the flush (no sector range) are not */
    assert_non_null(strstr(out, "  7,0     1        2  7477.864861000 23775  D  RS 0 + 8 [dd]"));
    assert_non_null(strstr(out, "  D   W 2048 + 128 [fio-worker]"));
    struct trace t;
    load_ok(write_tmp("captured.blkparse", out, strlen(out)), &t);
    assert_int_equal(t.n, 2);
    assert_true(t.has_done);
    assert_int_equal(t.r[0].done_ns, 34000);   /* 7477.864895 - 7477.864861 */
    assert_int_equal(t.r[1].t_ns, 239000);
    assert_int_equal(t.r[1].done_ns, 739000);
    assert_int_equal(t.r[1].offset, 2048 * 512);
    assert_int_equal(t.r[1].len, 65536);
    assert_int_equal(t.r[1].dir, TRACE_WRITE);
    trace_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_busy_fixture),
        cmocka_unit_test(test_blkparse),
        cmocka_unit_test(test_iologs),
        cmocka_unit_test(test_merge),
        cmocka_unit_test(test_bad_input),
        cmocka_unit_test(test_blktrace_binary),
        cmocka_unit_test(test_remap),
        cmocka_unit_test(test_capture_lines),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
