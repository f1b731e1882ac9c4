/* test_iogen_offsets.c — fio's offset modifier and strided zones in the I/O generator (issue 47,
 * "offset"): rw=read:8k leaves 8k holes, rw=read:-8k walks backwards and wraps to the range's
 * end as fio's get_next_seq_offset, rw=randread:N draws every Nth offset (rw_sequencer), and
 * zonemode=strided does zonesize bytes in each zone, then skips, wrapping past the end as fio's
 * setup_strided_zone_mode. The keys, their canonical form and fio's job file lines too. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "engine/fio_job.h"
#include "io/iogen.h"
#include "lib/util.h"

#define K 1024ull
#define M (1024ull * 1024ull)

static void parse(const char *spec, struct workload *wl)
{
    char err[ERR_LEN];
    if (wl_parse_inline(spec, wl, err, sizeof err) != 0)
        fail_msg("%s: %s", spec, err);
}

/* The first n offsets of spec over [start, start + len), worker 0 of 1. */
static void offsets(const char *spec, uint64_t start, uint64_t len, uint64_t *out, unsigned n,
                    struct workload *wl)
{
    parse(spec, wl);
    const struct wl_range range = {start, len};
    struct iogen g;
    iogen_init(&g, wl, &range, 0, 1, 7);
    for (unsigned i = 0; i < n; i++) {
        uint8_t dir;
        uint32_t l;
        iogen_next(&g, &dir, &l, &out[i]);
        assert_true(out[i] >= start && out[i] + l <= start + len);
    }
}

static void test_holes(void **state)
{
    (void)state;
    struct workload wl;
    uint64_t o[8];
    offsets("rw=read:8k,bs=4k", 0, 48 * K, o, 8, &wl);
    assert_int_equal(wl.seq_add, 8192);
    const uint64_t want[] = {0, 12 * K, 24 * K, 36 * K, 0, 12 * K, 24 * K, 36 * K};
    for (unsigned i = 0; i < 8; i++)
        assert_int_equal(o[i], want[i]);
    /* with an offset: the holes count from the range's start */
    offsets("rw=write:8k,bs=4k", 1 * M, 48 * K, o, 3, &wl);
    assert_int_equal(o[1], 1 * M + 12 * K);
}

/* fio's backwards-read.fio: the first I/O at the start, then from the end back (fio wraps to
 * the end + N: the range's last 4k are never read), down to the start again. */
static void test_backwards(void **state)
{
    (void)state;
    struct workload wl;
    uint64_t o[10];
    offsets("rw=read:-8k,bs=4k", 0, 32 * K, o, 10, &wl);
    assert_int_equal(wl.seq_add, -8192);
    const uint64_t want[] = {0, 24 * K, 20 * K, 16 * K, 12 * K, 8 * K, 4 * K, 0, 24 * K, 20 * K};
    for (unsigned i = 0; i < 10; i++)
        assert_int_equal(o[i], want[i]);
    offsets("rw=read:-8k,bs=4k", 64 * K, 32 * K, o, 3, &wl);
    assert_int_equal(o[0], 64 * K);
    assert_int_equal(o[1], 64 * K + 24 * K);
    assert_int_equal(o[2], 64 * K + 20 * K);
}

/* rw=randread:4: I/Os 1..3 sequential from the start, the 4th random, 5..7 after it, ... */
static void test_randread_nr(void **state)
{
    (void)state;
    struct workload wl;
    uint64_t o[12];
    offsets("rw=randread:4,bs=4k", 0, 64 * M, o, 12, &wl);
    assert_int_equal(wl.seq_nr, 4);
    assert_int_equal(o[0], 0);
    assert_int_equal(o[1], 4 * K);
    assert_int_equal(o[2], 8 * K);
    for (unsigned i = 4; i < 7; i++)
        assert_int_equal(o[i], o[i - 1] + 4 * K);
    for (unsigned i = 8; i < 11; i++)
        assert_int_equal(o[i], o[i - 1] + 4 * K);
    assert_true(o[3] != 12 * K || o[7] != o[6] + 4 * K);   /* drawn, not the run going on */
    offsets("rw=randread:4,rw_sequencer=identical,bs=4k", 0, 64 * M, o, 12, &wl);
    assert_int_equal(o[1], 0);
    assert_int_equal(o[5], o[4]);
    assert_int_equal(o[6], o[4]);
    assert_int_equal(o[9], o[8]);
    assert_int_equal(o[8] % (4 * K), 0);
}

/* zonemode=strided: 16k of I/O in each 32k zone, zones 32k + 64k apart, wrapping at the end. */
static void test_strided(void **state)
{
    (void)state;
    struct workload wl;
    uint64_t o[32];
    offsets("rw=read,bs=4k,zonemode=strided,zonesize=16k,zonerange=32k,zoneskip=64k", 0,
            256 * K, o, 16, &wl);
    assert_int_equal(wl.zone_range, 32 * K);
    const uint64_t zones[] = {0, 96 * K, 192 * K, 0};
    for (unsigned i = 0; i < 16; i++)
        assert_int_equal(o[i], zones[i / 4] + (i % 4) * 4 * K);
    /* zonesize alone: strided, zonerange = zonesize; zonesize above zonerange: the zone again */
    offsets("rw=read,bs=4k,zonesize=8k", 0, 1 * M, o, 4, &wl);
    assert_int_equal(wl.zonemode, WL_ZONEMODE_STRIDED);
    assert_int_equal(wl.zone_range, 8 * K);
    assert_int_equal(o[2], 8 * K);
    offsets("rw=read,bs=4k,zonesize=16k,zonerange=8k,zoneskip=8k", 0, 1 * M, o, 6, &wl);
    const uint64_t again[] = {0, 4 * K, 0, 4 * K, 16 * K, 20 * K};
    for (unsigned i = 0; i < 6; i++)
        assert_int_equal(o[i], again[i]);
    /* random: every offset inside the current zone */
    offsets("rw=randread,bs=4k,zonesize=64k,zonerange=1m,zoneskip=1m", 0, 64 * M, o, 32, &wl);
    for (unsigned i = 0; i < 32; i++) {
        const uint64_t zone = (i / 16) * 2 * M;
        assert_true(o[i] >= zone && o[i] + 4 * K <= zone + 1 * M);
    }
    /* zonemode=none: the zone keys are ignored */
    offsets("rw=read,bs=4k,zonemode=none,zonesize=8k", 0, 1 * M, o, 4, &wl);
    assert_int_equal(o[3], 12 * K);
}

static void test_keys(void **state)
{
    (void)state;
    struct workload wl;
    char err[ERR_LEN], buf[1024];
    parse("rw=read:-8k,bs=4k", &wl);
    wl_format(&wl, buf, sizeof buf);
    assert_non_null(strstr(buf, "rw=read:-8k,"));
    parse("rw=randread:8,rw_sequencer=identical", &wl);
    wl_format(&wl, buf, sizeof buf);
    assert_non_null(strstr(buf, "rw=randread:8,rw_sequencer=identical,"));
    parse("rw=read,zonesize=256m,zoneskip=2g,bs=64k", &wl);
    wl_format(&wl, buf, sizeof buf);
    assert_non_null(strstr(buf, ",zonemode=strided,zonesize=256m,zonerange=256m,zoneskip=2g"));
    struct workload again;
    parse(buf, &again);   /* the canonical form reads back the same */
    assert_int_equal(again.zone_size, wl.zone_size);
    assert_int_equal(again.zone_skip, wl.zone_skip);
    assert_int_not_equal(wl_parse_inline("zonemode=zbd", &wl, err, sizeof err), 0);
    assert_non_null(strstr(err, "zbd"));
    assert_int_not_equal(wl_parse_inline("zonemode=strided", &wl, err, sizeof err), 0);
    assert_non_null(strstr(err, "zonesize"));
    assert_int_not_equal(wl_parse_inline("rw=read:8k,percentage_random=50", &wl, err,
                                         sizeof err), 0);
    assert_int_not_equal(wl_parse_inline("rw=randread:x", &wl, err, sizeof err), 0);
}

/* The fio job file says the same. */
static void test_fio_lines(void **state)
{
    (void)state;
    struct workload wl;
    static char job[16384];
    char err[ERR_LEN];
    const struct wl_range range = {0, 1ull << 30};
    struct fio_job_opts opts = {.name = "t", .filename = "/dev/null", .ioengine = "io_uring",
                              .runtime_ns = 1000000000};
    parse("rw=read:-8k,bs=4k", &wl);
    assert_int_equal(fio_job_write(&wl, &range, &opts, job, sizeof job, err, sizeof err), 0);
    assert_non_null(strstr(job, "\nrw=read:-8192\n"));
    parse("rw=randread:8,rw_sequencer=identical", &wl);
    assert_int_equal(fio_job_write(&wl, &range, &opts, job, sizeof job, err, sizeof err), 0);
    assert_non_null(strstr(job, "\nrw=randread:8\nrw_sequencer=identical\n"));
    parse("rw=randread:8,percentage_random=0", &wl);   /* sequential: ':8' would be bytes */
    assert_int_equal(fio_job_write(&wl, &range, &opts, job, sizeof job, err, sizeof err), 0);
    assert_non_null(strstr(job, "\nrw=read\n"));
    parse("rw=read,bs=64k,zonesize=256m,zoneskip=2g", &wl);
    assert_int_equal(fio_job_write(&wl, &range, &opts, job, sizeof job, err, sizeof err), 0);
    assert_non_null(strstr(job, "\nzonemode=strided\nzonesize=268435456\nzonerange=268435456\n"
                                "zoneskip=2147483648\n"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_holes),       cmocka_unit_test(test_backwards),
        cmocka_unit_test(test_randread_nr), cmocka_unit_test(test_strided),
        cmocka_unit_test(test_keys),        cmocka_unit_test(test_fio_lines),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
