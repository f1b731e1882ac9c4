/* test_workload_trim.c — fio's trim modes in the workload and the generator:
 *   - rw=trim, randtrim, trimwrite, randtrimwrite accepted (refused before), read_pct 0;
 *   - bs=R,W,T: the trims' size is the third value; bs=R,W gives trims W (fio: a value not
 *     followed by a comma applies to the directions after it); bs=R,W, gives fio's 4 KiB;
 *   - rate=R,W,T and rate_iops=R,W,T keep three values (R,W: trims W);
 *   - the generator: randtrim issues trims only; trimwrite issues a trim, then a write of the
 *     same offset and length, alternately, sequentially;
 *   - rwmixread with trims refused as with rw=read ("only trims"); direct=0 noted. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "io/iogen.h"
#include "lib/util.h"

static void parse(const char *spec, struct workload *wl)
{
    char err[ERR_LEN] = "";
    int rc = wl_parse_inline(spec, wl, err, sizeof err);
    if (rc != 0)
        print_error("%s: %s\n", spec, err);
    assert_int_equal(rc, 0);
}

static void test_modes_accepted(void **state)
{
    (void)state;
    const char *const modes[] = {"trim", "randtrim", "trimwrite", "randtrimwrite"};
    for (unsigned i = 0; i < 4; i++) {
        char spec[64];
        snprintf(spec, sizeof spec, "rw=%s", modes[i]);
        struct workload wl;
        parse(spec, &wl);
        assert_true(wl.trim);
        assert_int_equal(wl.trimwrite, i >= 2);
        assert_int_equal(wl.read_pct, 0);
        assert_int_equal(wl.random_pct, i % 2 ? 100 : 0);
    }
}

static void test_third_values(void **state)
{
    (void)state;
    struct workload wl;
    parse("rw=randtrim,bs=4k,8k,64k", &wl);
    assert_int_equal(wl.n_bs, 1);
    assert_int_equal(wl.bs[0].size, 65536);
    parse("rw=randtrim,bs=4k,16k", &wl);
    assert_int_equal(wl.bs[0].size, 16384);
    parse("rw=randtrim,bs=8k,16k,", &wl);
    assert_int_equal(wl.bs[0].size, 4096);
    parse("rw=randtrim,bs=32k", &wl);
    assert_int_equal(wl.bs[0].size, 32768);
    parse("rw=randread,bs=4k,8k,64k", &wl);   /* no trims: the reads' */
    assert_int_equal(wl.bs[0].size, 4096);

    parse("rw=randtrim,rate=1m:2m:3m", &wl);
    assert_true(wl.rate_bps[2] > wl.rate_bps[1] && wl.rate_bps[1] > wl.rate_bps[0]);
    parse("rw=randtrim,rate=1m:2m", &wl);
    assert_true(wl.rate_bps[2] == wl.rate_bps[1]);
    parse("rw=randtrim,rate_iops=100:200:300", &wl);
    assert_int_equal(wl.rate_iops_dir[2], 300);
    parse("rw=randtrim,rate_iops=100", &wl);
    assert_int_equal(wl.rate_iops_dir[2], 100);
    char out[1024];
    parse("rw=randtrim,rate_iops=100:200:300", &wl);
    wl_format(&wl, out, sizeof out);
    assert_non_null(strstr(out, "rate_iops=100:200:300"));
}

static void test_generator(void **state)
{
    (void)state;
    struct workload wl;
    struct wl_range range = {0, 64ull << 20};
    struct iogen g;
    parse("rw=randtrim,bs=4k", &wl);
    iogen_init(&g, &wl, &range, 0, 1, 42);
    for (int i = 0; i < 1000; i++) {
        uint8_t dir;
        uint32_t len;
        uint64_t off;
        iogen_next(&g, &dir, &len, &off);
        assert_int_equal(dir, IOGEN_TRIM);
        assert_int_equal(len, 4096);
    }
    parse("rw=trimwrite,bs=16k", &wl);
    iogen_init(&g, &wl, &range, 0, 1, 42);
    uint64_t want = 0;
    for (int i = 0; i < 1000; i++) {
        uint8_t dt, dw;
        uint32_t lt, lw;
        uint64_t ot, ow;
        iogen_next(&g, &dt, &lt, &ot);
        iogen_next(&g, &dw, &lw, &ow);
        assert_int_equal(dt, IOGEN_TRIM);
        assert_int_equal(dw, IOGEN_WRITE);
        assert_int_equal(lt, 16384);
        assert_int_equal(lw, lt);
        assert_int_equal(ow, ot);
        assert_int_equal(ot, want);   /* sequential */
        want += 16384;
    }
}

static void test_notes(void **state)
{
    (void)state;
    struct workload wl;
    char err[ERR_LEN] = "";
    assert_int_equal(wl_parse_inline("rw=randtrim,rwmixread=30", &wl, err, sizeof err), -1);
    assert_non_null(strstr(err, "only trims"));
    parse("rw=randtrim,direct=0", &wl);
    assert_non_null(strstr(wl.note, "trims go to the device"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_modes_accepted),
        cmocka_unit_test(test_third_values),
        cmocka_unit_test(test_generator),
        cmocka_unit_test(test_notes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
