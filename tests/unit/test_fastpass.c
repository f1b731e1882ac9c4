/* test_fastpass.c — issue 48's fast preconditioning pass (core/fastpass.h, a prototype): the
 * invalid shares follow the model (v_gc^(1-x)), the pass writes (1 + rho) fills and leaves a
 * greedy FTL at its equilibrium: the next half fill of uniform random writes runs at the
 * Lambert-W write amplification at once, where after a sequential fill it does not. Small drives
 * (256 lines of 512 units), well under a second. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/fastpass.h"
#include "sim/sim.h"

static void test_invalid_share(void **state)
{
    (void)state;
    const double rhos[] = {0.07, 0.25, 0.331, 0.5};
    for (unsigned i = 0; i < 4; i++) {
        const double rho = rhos[i], v_gc = 1.0 - 1.0 / sim_wa_oracle(rho);
        double mean = 0, last = 2;
        for (unsigned r = 0; r < FASTPASS_REGIONS; r++) {
            double s = fastpass_invalid_share(rho, r, FASTPASS_REGIONS);
            assert_true(s >= 0 && s < last);   /* the oldest region most invalidated */
            last = s;
            mean += s / FASTPASS_REGIONS;
        }
        /* the first region is collected next: it holds v_gc valid */
        assert_true(fabs(fastpass_invalid_share(rho, 0, FASTPASS_REGIONS) - (1 - v_gc)) < 0.01);
        /* the rewrites add T - U: the mean invalid share is rho / (1 + rho) */
        assert_true(fabs(mean - rho / (1 + rho)) < 0.002);
    }
    assert_true(fastpass_invalid_share(0, 3, FASTPASS_REGIONS) == 0);
}

static struct sim_dev *small_drive(void)
{
    struct sim_params p;
    sim_params_default(&p);
    p.channels = 2;
    p.dies_per_channel = 2;
    p.planes = 2;
    p.page_bytes = 8192;
    p.pages_per_block = 64;    /* a line: 64 x 4 dies x 2 planes x 8 KiB = 512 units */
    p.blocks_per_plane = 256;
    p.t_erase_us = 3800.0 * 64 / 256;
    p.op_pct = 28;
    p.gc = SIM_GC_GREEDY;
    p.bg_gc = false;
    p.wbuf_units = 1024;
    struct sim_dev *d = NULL;
    char err[512];
    if (sim_open(&p, &d, err, sizeof(err))) {
        print_error("sim_open: %s\n", err);
        fail();
    }
    return d;
}

/* WA of the next half fill of uniform random 4 KiB writes (FTL only). */
static double next_half_fill_wa(struct sim_dev *d, uint64_t user)
{
    struct sim_stats a, b;
    sim_stats(d, &a);
    sim_fast_fill(d, true, user / 2, 0);
    sim_stats(d, &b);
    return (double)(b.nand_write_sectors - a.nand_write_sectors) /
           (double)(b.host_write_sectors - a.host_write_sectors);
}

static void test_pass_leaves_equilibrium(void **state)
{
    (void)state;
    struct sim_dev *d = small_drive();
    struct sim_info in;
    sim_info(d, &in);
    struct sim_world w;
    memset(&w, 0, sizeof(w));
    w.dev = d;
    struct fastpass_result fr;
    assert_int_equal(fastpass_sim(&w, 0, in.user_bytes, in.rho_eff, 32, 0, 7, NULL, &fr), 0);
    char err[512];
    assert_int_equal(sim_check(d, err, sizeof(err)), 0);
    assert_true(w.now == fr.t_end && fr.t_end > fr.t_start);
    const double fills = (double)fr.units_written / (double)fr.units;
    assert_true(fabs(fills - (1 + in.rho_eff)) < 0.02 * (1 + in.rho_eff));
    const double oracle = sim_wa_oracle(in.rho_eff);
    const double wa_fast = next_half_fill_wa(d, in.user_bytes);
    print_message("rho_eff %.3f oracle WA %.3f; after the pass %.3f\n", in.rho_eff, oracle,
                  wa_fast);
    assert_true(fabs(wa_fast / oracle - 1) < 0.08);
    sim_close(d);

    /* the contrast: after a sequential fill the same half fill is far from equilibrium */
    d = small_drive();
    sim_fast_fill(d, false, in.user_bytes, 0);
    const double wa_seq = next_half_fill_wa(d, in.user_bytes);
    print_message("after a sequential fill %.3f\n", wa_seq);
    assert_true(wa_seq < 0.8 * oracle);
    sim_close(d);
}

static void test_refuses_small_ranges(void **state)
{
    (void)state;
    struct sim_dev *d = small_drive();
    struct sim_world w;
    memset(&w, 0, sizeof(w));
    w.dev = d;
    struct fastpass_result fr;
    assert_int_equal(fastpass_sim(&w, 0, 50 * FASTPASS_UNIT, 0.3, 4, 0, 1, NULL, &fr), -1);
    assert_int_equal(fastpass_sim(&w, 512, 1 << 20, 0.3, 4, 0, 1, NULL, &fr), -1);
    sim_close(d);
}

/* The unit: the stimulus's write size (bs, bs=R,W's W, bssplit's most frequent, the smaller on
 * a tie, bsrange's smallest), rounded up to 4 KiB, 4 KiB on a range not aligned to it. */
static void unit_case(const char *spec, uint64_t start, uint32_t want, const char *how)
{
    struct workload wl;
    char err[256];
    assert_int_equal(wl_parse_inline(spec, &wl, err, sizeof(err)), 0);
    assert_int_equal(wl_validate(&wl, err, sizeof(err)), 0);
    const char *h = NULL;
    const uint32_t u = fastpass_unit_of(&wl, start, &h);
    printf("  %s at %llu: %u (%s)\n", spec, (unsigned long long)start, u, h);
    assert_int_equal(u, want);
    assert_non_null(strstr(h, how));
}

static void test_unit_of_the_stimulus(void **state)
{
    (void)state;
    unit_case("rw=randrw,rwmixread=67,bs=8k", 0, 8192, "write size");
    unit_case("rw=randwrite,bs=4k", 0, 4096, "write size");
    unit_case("rw=randrw,bs=4k,64k", 0, 65536, "write size");
    unit_case("rw=randwrite,bssplit=4k/30:16k/70", 0, 16384, "most frequent");
    unit_case("rw=randwrite,bssplit=8k/50:32k/50", 0, 8192, "most frequent");
    unit_case("rw=randwrite,bsrange=8k-64k", 0, 8192, "bsrange");
    unit_case("rw=randwrite,bs=512", 0, 4096, "smallest unit");
    unit_case("rw=randwrite,bs=6k", 0, 8192, "rounded up");
    unit_case("rw=randwrite,bs=8k", 4096, 4096, "does not start");
}

/* max(workers, 4) threads, fewer when the range has under FASTPASS_REGIONS units a thread. */
static void test_threads(void **state)
{
    (void)state;
    bool fewer = true;
    assert_int_equal(fastpass_threads(1, 1u << 20, &fewer), 4);
    assert_false(fewer);
    assert_int_equal(fastpass_threads(8, 1u << 20, &fewer), 8);
    assert_false(fewer);
    assert_int_equal(fastpass_threads(1, 256, &fewer), 2);
    assert_true(fewer);
    assert_int_equal(fastpass_threads(1, 50, &fewer), 1);
    assert_true(fewer);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_invalid_share),
        cmocka_unit_test(test_pass_leaves_equilibrium),
        cmocka_unit_test(test_refuses_small_ranges),
        cmocka_unit_test(test_unit_of_the_stimulus),
        cmocka_unit_test(test_threads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
