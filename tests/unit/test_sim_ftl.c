/* test_sim_ftl.c — the simulated SSD model (src/sim): WA oracle, FTL invariants, greedy / FIFO
 * write amplification against the Lambert-W oracle, compression, write cliff and OP sweep
 * against the §3 formulas, time dilation, idle-time GC, TRIM / purge, the card layer and exact
 * QD1 latencies. Design: docs/simulated-drive.md §3, §5, §7.
 *
 * Drives are small (256 lines of 256-2048 units, k = 1 unless the test is about k), so the
 * whole file runs in a few seconds at -O2. Timing tests use the closed-loop driver of
 * tests/sim_loop.h: QD outstanding I/Os; at the earliest completion the next I/O is submitted.
 *
 * rho_eff (sim_info) is T/U - 1 with T = the data space of all lines minus the free-line
 * reserve GC keeps (fg_lines) minus one line for the open write points and the victim in
 * progress (the note's §3 "which T to use"; the derivation is in sim.c). U/T counts 4 KiB
 * units as 8 sectors, so with DuraWrite the tests scale T by the stored sectors per unit. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sim.h"
#include "sim/sim_internal.h"
#include "sim_loop.h"

#define ASSERT_WITHIN(got, lo, hi)                                                          \
    do {                                                                                    \
        double g_ = (got), l_ = (lo), h_ = (hi);                                            \
        if (!(g_ >= l_ && g_ <= h_)) {                                                      \
            print_error("%s = %.6g, expected in [%.6g, %.6g]\n", #got, g_, l_, h_);        \
            fail();                                                                         \
        }                                                                                   \
    } while (0)

#define ASSERT_REL(got, want, tol)                                                          \
    ASSERT_WITHIN(got, (want) - fabs(want) * (tol), (want) + fabs(want) * (tol))

/* ------------------------------------------------------------------ helpers */

static void check_dev(const struct sim_dev *d)
{
    char err[512];
    if (sim_check(d, err, sizeof(err))) {
        print_error("sim_check: %s\n", err);
        fail();
    }
}

static struct sim_dev *open_dev(const struct sim_params *p)
{
    struct sim_dev *d = NULL;
    char err[512];
    if (sim_open(p, &d, err, sizeof(err))) {
        print_error("sim_open: %s\n", err);
        fail();
    }
    return d;
}

/* A small FTL-test drive: 4 dies, 2 planes x 8 KiB (superpage 16 KiB = 4 units), ppb pages per
 * block: a line is ppb x 32 KiB = 8 x ppb units. */
static void ftl_params(struct sim_params *p, double op, unsigned ppb, unsigned lines,
                       enum sim_gc_policy gc)
{
    sim_params_default(p);
    p->channels = 2;
    p->dies_per_channel = 2;
    p->planes = 2;
    p->page_bytes = 8192;
    p->pages_per_block = ppb;
    p->blocks_per_plane = lines;
    p->t_erase_us = 3800.0 * ppb / 256;
    p->op_pct = op;
    p->gc = gc;
    p->bg_gc = false;
    p->wbuf_units = 1024;
}

/* The generic-mlc25 drive of note §6.1 made small: same dies, timings and channels, 8 pages
 * per block (256 lines of 4 MiB = 1024 units, 1 GiB raw), tBERS scaled with the block size
 * as the geometry rule does, a 4 MiB write buffer. */
static void generic_small(struct sim_params *p, double op)
{
    sim_params_default(p);
    p->pages_per_block = 8;
    p->t_erase_us = 3800.0 * 8 / 256;
    p->op_pct = op;
    p->wbuf_units = 1024;
    p->bg_gc = false;
}

static uint64_t user_units(const struct sim_dev *d)
{
    struct sim_info in;
    sim_info(d, &in);
    return in.user_bytes / 4096;
}

/* WA of uniform random 4 KiB writes (FTL only): sequential fill, 3 U random, measured over
 * the next 2 U. */
static double measure_wa(const struct sim_params *p, unsigned compress, double *rho)
{
    struct sim_dev *d = open_dev(p);
    struct sim_info in;
    sim_info(d, &in);
    sim_fast_fill(d, false, in.user_bytes, compress);
    sim_fast_fill(d, true, 3 * in.user_bytes, compress);
    struct sim_stats a, b;
    sim_stats(d, &a);
    sim_fast_fill(d, true, 2 * in.user_bytes, compress);
    sim_stats(d, &b);
    check_dev(d);
    sim_close(d);
    if (rho)
        *rho = in.rho_eff;
    return (double)(b.nand_write_sectors - a.nand_write_sectors) /
           (double)(b.host_write_sectors - a.host_write_sectors);
}

/* ---- closed-loop driver (tests/sim_loop.h): one worker of 4 KiB random writes */

static void loop_start(struct sim_loop *L, struct sim_dev *d, unsigned qd, simt now, bool perm,
                       unsigned compress)
{
    struct sim_loop_job j = {.qd = qd, .random_pct = 100, .perm = perm,
                             .compress_pct = compress};
    char err[256];
    if (sim_loop_open(L, d, &j, 1, now, err, sizeof(err))) {
        print_error("%s\n", err);
        fail();
    }
}

/* The §3 formulas for a drive with one controller. */
static double formula_ss(const struct sim_params *p, double A, unsigned ppb)
{
    double D = p->channels * p->dies_per_channel;
    double u = p->planes * p->page_bytes / 4096.0;
    double ublk = p->planes * (double)ppb * p->page_bytes / 4096.0;
    double te = p->t_erase_us;   /* already scaled to ppb by the caller's params */
    double nand = D / (A * p->t_prog_us / u + (A - 1) * p->t_read_us / u + A * te / ublk) * 1e6;
    double ctl = p->fw_cores / (p->c_w_us + 4 * p->c_w_us_per_kib + (A - 1) * p->c_gc_us) * 1e6;
    return fmin(nand, ctl);
}

static double formula_fob(const struct sim_params *p)
{
    double D = p->channels * p->dies_per_channel;
    double u = p->planes * p->page_bytes / 4096.0;
    return fmin(D * u / p->t_prog_us, p->fw_cores / (p->c_w_us + 4 * p->c_w_us_per_kib)) * 1e6;
}

/* Cliff run: purge state, QD 32 random 4 KiB writes (first pass a permutation, then uniform):
 * FOB IOPS over fills 0.25-0.75, then windows of U/4 up to `fills`; *ss = mean of the windows
 * in the last drive fill, *ss_min / *ss_max their range. */
static void run_cliff(const struct sim_params *p, double fills, double *fob, double *ss,
                      double *ss_min, double *ss_max)
{
    struct sim_dev *d = open_dev(p);
    uint64_t U = user_units(d);
    struct sim_loop L;
    loop_start(&L, d, 32, 0, true, 0);
    sim_loop_run(&L, U / 4, NULL);
    *fob = sim_loop_run(&L, U / 2, NULL);
    sim_loop_run(&L, U / 4, NULL);
    unsigned nwin = (unsigned)((fills - 1.0) * 4);
    double sum = 0, mn = 1e300, mx = 0;
    for (unsigned w = 0; w < nwin; w++) {
        double x = sim_loop_run(&L, U / 4, NULL);
        if (w + 4 >= nwin) {
            sum += x;
            mn = fmin(mn, x);
            mx = fmax(mx, x);
        }
    }
    *ss = sum / 4;
    *ss_min = mn;
    *ss_max = mx;
    sim_loop_close(&L);
    check_dev(d);
    sim_close(d);
}

/* ------------------------------------------------------------------ oracle */

static void test_lambert_and_oracle(void **state)
{
    (void)state;
    ASSERT_REL(sim_lambert_w0(1.0), 0.5671432904097838, 1e-12);
    ASSERT_REL(sim_lambert_w0(2.718281828459045), 1.0, 1e-12);
    ASSERT_REL(sim_lambert_w0(-0.2), -0.25917110181907377, 1e-12);
    ASSERT_REL(sim_lambert_w0(10.0), 1.7455280027406994, 1e-12);
    ASSERT_REL(sim_lambert_w0(-0.36787944117144233), -1.0, 1e-9);
    assert_true(isnan(sim_lambert_w0(-0.5)));
    assert_true(sim_lambert_w0(0.0) == 0.0);
    /* w e^w = x on the domain used by the oracle */
    for (double x = -0.3678; x < 0; x += 0.01) {
        double w = sim_lambert_w0(x);
        ASSERT_WITHIN(w * exp(w) - x, -1e-12, 1e-12);
        assert_true(w >= -1.0);
    }
    /* note §3 table */
    ASSERT_REL(sim_wa_oracle(0.07), 7.82, 0.005);
    ASSERT_REL(sim_wa_oracle(0.28), 2.48, 0.005);
    ASSERT_REL(sim_wa_oracle(0.5), 1.72, 0.005);
    ASSERT_REL(sim_wa_oracle(0.3), 2.36, 0.005);
    ASSERT_REL(sim_wa_oracle(1.0), 1.26, 0.005);
    /* always above Agarwal's (1 + rho) / (2 rho) */
    for (double r = 0.05; r <= 1.0; r += 0.05)
        assert_true(sim_wa_oracle(r) > (1 + r) / (2 * r));
    assert_true(isinf(sim_wa_oracle(0.0)));
}

/* ------------------------------------------------------------------ parameters */

static void test_validation_and_geometry(void **state)
{
    (void)state;
    struct sim_params p;
    struct sim_dev *d = NULL;
    char err[512];
    /* each case breaks one field; the message must name it */
    const char *bad[] = {"k", "channels", "op_pct", "stripe_unit_bytes", "page_bytes",
                         "fg_lines_min", "t_prog_us", "user_bytes"};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        sim_params_default(&p);
        switch (i) {
        case 0: p.k = 3; break;
        case 1: p.channels = 0; break;
        case 2: p.op_pct = 0; break;
        case 3: p.stripe_unit_bytes = 6000; break;
        case 4: p.page_bytes = 1000; break;
        case 5: p.fg_lines_min = 1; break;
        case 6: p.t_prog_us = NAN; break;
        case 7: p.user_bytes = 40ull << 30; break;   /* more than the 32 GiB raw */
        }
        err[0] = 0;
        assert_int_equal(sim_open(&p, &d, err, sizeof(err)), -1);
        assert_null(d);
        if (!strstr(err, bad[i])) {
            print_error("error for %s does not name it: %s\n", bad[i], err);
            fail();
        }
    }
    /* geometry rule: lines first down to 256, then pages per block down to 8, tBERS with it */
    sim_params_default(&p);   /* 256 lines x 256 pages */
    p.k = 16;
    d = open_dev(&p);
    struct sim_info in;
    sim_info(d, &in);
    assert_int_equal(in.lines_per_ctl, 256);
    assert_int_equal(in.pages_per_block, 16);
    assert_int_equal(in.raw_bytes, (32ull << 30) / 16);
    assert_int_equal(d->cfg.t_erase, (simt)llround(3800.0 * 1000 * 16 / 16));
    assert_int_equal(d->cfg.t_prog, 1300ull * 1000 * 16);
    assert_int_equal(d->cfg.ch_ps, 5000ull * 16);
    sim_close(d);
    /* the R4 case of note §6.2: 2048 blocks/plane x 256 pages at k = 128 -> 256 lines x 16 */
    sim_params_default(&p);
    p.blocks_per_plane = 2048;
    p.k = 128;
    p.user_bytes = 200000000000ull;
    p.reserve_pct = 100.0 / 32;
    d = open_dev(&p);
    sim_info(d, &in);
    assert_int_equal(in.lines_per_ctl, 256);
    assert_int_equal(in.pages_per_block, 16);
    assert_int_equal(in.raw_bytes, 2ull << 30);
    ASSERT_WITHIN(in.rho_eff, 0.30, 0.34);   /* note: 0.331 with its own pool accounting */
    assert_int_equal(in.nominal_user_bytes, in.user_bytes * 128);
    check_dev(d);
    sim_close(d);
}

/* ------------------------------------------------------------------ WA */

static void test_wa_greedy_vs_oracle(void **state)
{
    (void)state;
    const double ops[] = {7, 28, 50};
    for (int i = 0; i < 3; i++) {
        struct sim_params p;
        ftl_params(&p, ops[i], 32, 256, SIM_GC_GREEDY);   /* 256 lines of 256 units */
        double rho, wa = measure_wa(&p, 0, &rho);
        ASSERT_REL(rho, ops[i] / 100, 0.01);
        double ratio = wa / sim_wa_oracle(rho);
        print_message("  greedy rho %.2f: WA %.3f oracle %.3f ratio %.4f\n", rho, wa,
                      sim_wa_oracle(rho), ratio);
        ASSERT_WITHIN(ratio, 0.97, 1.02);
    }
}

static void test_wa_fifo_vs_oracle(void **state)
{
    (void)state;
    const double ops[] = {7, 28, 50};
    for (int i = 0; i < 3; i++) {
        struct sim_params p;
        ftl_params(&p, ops[i], 32, 256, SIM_GC_FIFO);
        double rho, wa = measure_wa(&p, 0, &rho);
        double ratio = wa / sim_wa_oracle(rho);
        print_message("  fifo rho %.2f: WA %.3f oracle %.3f ratio %.4f\n", rho, wa,
                      sim_wa_oracle(rho), ratio);
        ASSERT_WITHIN(ratio, 0.98, 1.02);
    }
}

static void test_wa_size_independence(void **state)
{
    (void)state;
    struct sim_params p;
    ftl_params(&p, 28, 64, 256, SIM_GC_GREEDY);   /* 256 lines of 512 units */
    double base = measure_wa(&p, 0, NULL);
    ftl_params(&p, 28, 64, 512, SIM_GC_GREEDY);   /* twice the lines */
    double more = measure_wa(&p, 0, NULL);
    ftl_params(&p, 28, 32, 256, SIM_GC_GREEDY);   /* half the pages per block */
    double smaller = measure_wa(&p, 0, NULL);
    print_message("  WA %.4f, 2x lines %.4f, 1/2 pages per block %.4f\n", base, more, smaller);
    ASSERT_REL(more, base, 0.03);
    ASSERT_REL(smaller, base, 0.03);
    /* d-choice (d = 3 samples) sits between greedy and random victims ((1 + rho) / rho); it
     * runs and keeps the invariants */
    ftl_params(&p, 28, 64, 256, SIM_GC_DCHOICE);
    double dc = measure_wa(&p, 0, NULL);
    print_message("  d-choice (d = 3): WA %.4f\n", dc);
    ASSERT_WITHIN(dc, base * 1.02, 1.28 / 0.28);
}

/* ------------------------------------------------------------------ compression */

static void test_durawrite(void **state)
{
    (void)state;
    struct sim_params p;
    ftl_params(&p, 28, 32, 256, SIM_GC_GREEDY);
    p.durawrite = true;
    /* 90 % compressible: 1 sector + 1/64 of 4 KiB metadata per unit: NAND/host = 1.125/8 */
    double r90 = measure_wa(&p, 90, NULL);
    print_message("  DuraWrite 90 %% compressible: NAND/host %.4f\n", r90);
    ASSERT_WITHIN(r90, 0.12, 0.16);
    /* 0 %: 8 + 0.125 sectors per unit, so the data takes c = 8.125/8 of U: the oracle at
     * alpha = T / (c U), times c */
    double rho, r0 = measure_wa(&p, 0, &rho);
    double c = 8.125 / 8, want = c * sim_wa_oracle((1 + rho) / c - 1);
    print_message("  DuraWrite 0 %%: NAND/host %.4f, oracle x c %.4f\n", r0, want);
    ASSERT_WITHIN(r0 / want, 0.97, 1.02);
    /* DuraWrite off: compressibility changes nothing (identical stats) */
    ftl_params(&p, 28, 32, 256, SIM_GC_GREEDY);
    struct sim_stats s[2];
    for (int i = 0; i < 2; i++) {
        struct sim_dev *d = open_dev(&p);
        struct sim_info in;
        sim_info(d, &in);
        sim_fast_fill(d, false, in.user_bytes, i ? 90 : 0);
        sim_fast_fill(d, true, 2 * in.user_bytes, i ? 90 : 0);
        sim_stats(d, &s[i]);
        check_dev(d);
        sim_close(d);
    }
    assert_memory_equal(&s[0], &s[1], sizeof(s[0]));

    /* timing: steady-state 4 KiB random writes, 90 % vs 0 % compressible, DuraWrite on */
    generic_small(&p, 28);
    p.durawrite = true;
    double iops[2];
    for (int i = 0; i < 2; i++) {
        unsigned cp = i ? 90 : 0;
        struct sim_dev *d = open_dev(&p);
        struct sim_info in;
        sim_info(d, &in);
        sim_fast_fill(d, false, in.user_bytes, cp);
        sim_fast_fill(d, true, 3 * in.user_bytes, cp);
        struct sim_loop L;
        loop_start(&L, d, 32, 0, false, cp);
        sim_loop_run(&L, L.units / 8, NULL);
        iops[i] = sim_loop_run(&L, L.units / 2, NULL);
        sim_loop_close(&L);
        check_dev(d);
        sim_close(d);
    }
    print_message("  SS 4K RW IOPS: 0 %% %.0f, 90 %% %.0f\n", iops[0], iops[1]);
    assert_true(iops[1] >= 3 * iops[0]);
}

/* ------------------------------------------------------------------ timing: cliff, OP */

static void test_write_cliff_nand_bound(void **state)
{
    (void)state;
    struct sim_params p;
    generic_small(&p, 7);
    struct sim_dev *d = open_dev(&p);
    struct sim_info in;
    sim_info(d, &in);
    sim_close(d);
    double A = sim_wa_oracle(in.rho_eff);
    double f_fob = formula_fob(&p), f_ss = formula_ss(&p, A, 8);
    double fob, ss, mn, mx;
    run_cliff(&p, 4.0, &fob, &ss, &mn, &mx);
    print_message("  generic OP 7 %%: FOB %.0f (formula %.0f), SS %.0f [%.0f, %.0f] (formula "
                  "%.0f), FOB/SS %.2f\n", fob, f_fob, ss, mn, mx, f_ss, fob / ss);
    ASSERT_REL(fob, f_fob, 0.03);
    ASSERT_REL(mn, f_ss, 0.10);
    ASSERT_REL(mx, f_ss, 0.10);
    ASSERT_WITHIN(fob / ss, 7.5, 9.1);   /* note §7.4: about 8.3x at 7 % OP */
}

static void test_write_cliff_controller_bound(void **state)
{
    (void)state;
    /* an R4-like controller on generic NAND: c_w = 10 + 2.4/KiB, c_gc = 94 us */
    struct sim_params p;
    generic_small(&p, 28);
    p.c_w_us = 10;
    p.c_w_us_per_kib = 2.4;
    p.c_gc_us = 94;
    struct sim_dev *d = open_dev(&p);
    struct sim_info in;
    sim_info(d, &in);
    sim_close(d);
    double A = sim_wa_oracle(in.rho_eff);
    double f_fob = formula_fob(&p), f_ss = formula_ss(&p, A, 8);
    double fob, ss, mn, mx;
    run_cliff(&p, 4.0, &fob, &ss, &mn, &mx);
    print_message("  controller-bound: FOB %.0f (formula %.0f), SS %.0f [%.0f, %.0f] (formula "
                  "%.0f)\n", fob, f_fob, ss, mn, mx, f_ss);
    ASSERT_REL(fob, f_fob, 0.03);
    ASSERT_REL(mn, f_ss, 0.10);
    ASSERT_REL(mx, f_ss, 0.10);
}

static void test_op_sweep(void **state)
{
    (void)state;
    const double ops[] = {7, 28, 50};
    double ss[3], f[3];
    for (int i = 0; i < 3; i++) {
        struct sim_params p;
        generic_small(&p, ops[i]);
        struct sim_dev *d = open_dev(&p);
        struct sim_info in;
        sim_info(d, &in);
        sim_close(d);
        f[i] = formula_ss(&p, sim_wa_oracle(in.rho_eff), 8);
        double fob, mn, mx;
        run_cliff(&p, 3.0, &fob, &ss[i], &mn, &mx);
        print_message("  OP %2.0f %%: SS %.0f (formula %.0f)\n", ops[i], ss[i], f[i]);
        ASSERT_REL(ss[i], f[i], 0.10);
    }
    assert_true(ss[0] < ss[1] && ss[1] < ss[2]);
    ASSERT_REL(ss[1] / ss[0], f[1] / f[0], 0.10);
}

/* ------------------------------------------------------------------ time dilation */

struct dil_result { double fob, ss, wa, cliff_fills, lat_us; };

static void run_dilation(unsigned k, struct dil_result *r)
{
    /* 8 dies, 2 planes x 8 KiB, 64 pages per block: 256 lines of 2048 units at k = 1; at
     * k = 8 the geometry rule keeps 256 lines and takes pages per block to 8 */
    struct sim_params p;
    sim_params_default(&p);
    p.channels = 4;
    p.dies_per_channel = 2;
    p.pages_per_block = 64;
    p.t_erase_us = 3800.0 * 64 / 256;
    p.op_pct = 28;
    p.wbuf_units = 1024;
    p.bg_gc = false;
    p.k = k;
    struct sim_dev *d = open_dev(&p);
    struct sim_info in;
    sim_info(d, &in);
    assert_int_equal(in.lines_per_ctl, 256);
    uint64_t U = in.user_bytes / 4096;
    struct sim_loop L;
    loop_start(&L, d, 32, 0, true, 0);
    sim_loop_run(&L, U / 4, NULL);
    r->fob = sim_loop_run(&L, U / 2, NULL);
    /* cliff position: host writes (in drive fills) when GC first relocates */
    uint64_t n = 3 * U / 4;
    struct sim_stats s;
    for (;;) {
        sim_loop_run(&L, U / 256, NULL);
        n += U / 256;
        sim_stats(d, &s);
        if (s.gc_relocated_sectors)
            break;
    }
    r->cliff_fills = (double)n / U;
    sim_loop_run(&L, (uint64_t)((3.0 - r->cliff_fills) * U), NULL);
    struct sim_stats a, b;
    sim_stats(d, &a);
    struct sim_loop_stats ls;
    r->ss = sim_loop_run(&L, U, &ls);
    r->lat_us = sim_loop_lat_us(&L, &ls, -1);
    sim_stats(d, &b);
    r->wa = (double)(b.nand_write_sectors - a.nand_write_sectors) /
            (double)(b.host_write_sectors - a.host_write_sectors);
    sim_loop_close(&L);
    check_dev(d);
    sim_close(d);
}

static void test_time_dilation(void **state)
{
    (void)state;
    struct dil_result r1, r8;
    run_dilation(1, &r1);
    run_dilation(8, &r8);
    print_message("  k=1: FOB %.0f SS %.0f WA %.3f cliff %.3f fills, lat %.0f us\n", r1.fob,
                  r1.ss, r1.wa, r1.cliff_fills, r1.lat_us);
    print_message("  k=8: FOB %.0f SS %.0f WA %.3f cliff %.3f fills, lat %.0f us\n", r8.fob,
                  r8.ss, r8.wa, r8.cliff_fills, r8.lat_us);
    ASSERT_REL(r8.fob, r1.fob, 0.05);
    ASSERT_REL(r8.ss, r1.ss, 0.05);
    ASSERT_REL(r8.wa, r1.wa, 0.05);
    ASSERT_REL(r8.cliff_fills, r1.cliff_fills, 0.05);
    ASSERT_REL(r8.lat_us, r1.lat_us, 0.05);
}

/* ------------------------------------------------------------------ idle GC */

/* Background GC's measure of free space (sim_ctl.c): free lines, the unwritten part of the
 * open lines, and the victim's relocation progress, in lines. */
static double prepared_lines(const struct sim_ctl *c)
{
    const struct sim_cfg *g = c->cfg;
    double f = c->nfree;
    if (c->host.line != SIM_NONE)
        f += (double)(g->line_cap - c->lines[c->host.line].wr) / g->line_cap;
    if (c->gcw.line != SIM_NONE)
        f += (double)(g->line_cap - c->lines[c->gcw.line].wr) / g->line_cap;
    if (c->victim != SIM_NONE)
        f += (double)(c->victim_v0 - c->lines[c->victim].valid) / c->victim_v0;
    return f;
}

static void test_idle_background_gc(void **state)
{
    (void)state;
    struct sim_params p;
    generic_small(&p, 28);
    p.idle_delay_ms = 10;
    p.bg_target_pct = 10;   /* 25.6 lines of free space */
    struct sim_stats before[2], after[2];
    double iops_before[2], iops_after[2], prep_after = 0;
    for (int bg = 0; bg < 2; bg++) {
        p.bg_gc = bg;
        struct sim_dev *d = open_dev(&p);
        uint64_t U = user_units(d);
        struct sim_loop L;
        loop_start(&L, d, 32, 0, true, 0);
        sim_loop_run(&L, 5 * U / 2, NULL);
        iops_before[bg] = sim_loop_run(&L, U / 5, NULL);
        sim_stats(d, &before[bg]);
        assert_int_equal(before[bg].bg_gc_steps, 0);   /* a closed loop is never idle */
        /* drain: every writer finishes, then 2 s of silence, then the writers start again */
        sim_loop_idle(&L, 2000000000ull, NULL);
        sim_stats(d, &after[bg]);
        if (bg)
            prep_after = prepared_lines(&d->ctl[0]);
        iops_after[bg] = sim_loop_run(&L, U / 5, NULL);
        sim_loop_close(&L);
        check_dev(d);
        sim_close(d);
    }
    print_message("  free lines before idle %llu, after: bg off %llu, bg on %llu\n",
                  (unsigned long long)before[1].free_lines,
                  (unsigned long long)after[0].free_lines,
                  (unsigned long long)after[1].free_lines);
    print_message("  IOPS before %.0f, after idle: bg off %.0f, bg on %.0f\n", iops_before[1],
                  iops_after[0], iops_after[1]);
    /* bg off: nothing happened in the gap */
    assert_int_equal(after[0].free_lines, before[0].free_lines);
    assert_int_equal(after[0].bg_gc_steps, 0);
    ASSERT_REL(iops_after[0], iops_before[0], 0.10);
    /* bg on: free space grew to the target (25.6 lines) and no further (one GC step is 16
     * units plus the rest of a superpage, under 1/32 line; measured after the 32 writes that
     * started the loop, 32/1024 line) */
    print_message("  free space after idle %.3f lines (target 25.6)\n", prep_after);
    assert_true(after[1].bg_gc_steps > 0);
    assert_true(after[1].bg_relocated_sectors > 0);
    ASSERT_WITHIN(prep_after, 25.6 - 32.0 / 1024, 25.6 + 1.0 / 32);
    ASSERT_WITHIN((double)after[1].free_lines, 22, 26);
    assert_true(iops_after[1] > 1.3 * iops_after[0]);
    /* identical until the gap */
    assert_memory_equal(&before[0], &before[1], sizeof(before[0]));
}

/* Busy-time background GC (bg_busy_pct): a read-only phase that never leaves the drive idle
 * (QD 1 reads back to back) recovers nothing with idle-time GC alone, and with busy-time GC
 * collects up to the target while the reads go on; the writes after it start faster. The
 * reads keep their service: collection takes at most its share of the time and never delays
 * host work already booked. */
static void test_busy_background_gc(void **state)
{
    (void)state;
    struct sim_params p;
    generic_small(&p, 28);
    p.bg_gc = true;
    p.idle_delay_ms = 10;
    p.bg_target_pct = 10;   /* 25.6 lines of free space */
    double w_before[2], w_after[2], r_iops[2], prep[2];
    struct sim_stats st[2];
    const struct sim_loop_job rj = {.qd = 1, .read_pct = 100, .random_pct = 100};
    const struct sim_loop_job wj = {.qd = 32, .random_pct = 100};
    for (int busy = 0; busy < 2; busy++) {
        p.bg_busy_pct = busy ? 50 : 0;
        struct sim_dev *d = open_dev(&p);
        uint64_t U = user_units(d);
        struct sim_loop L;
        char err[256];
        assert_int_equal(sim_loop_open(&L, d, &wj, 1, 0, err, sizeof(err)), 0);
        sim_loop_run(&L, 5 * U / 2, NULL);
        w_before[busy] = sim_loop_run(&L, U / 5, NULL);
        sim_loop_drain(&L, NULL);
        simt t = L.now;
        sim_loop_close(&L);
        /* 2 s of QD 1 reads, no idle gap before, during or after */
        assert_int_equal(sim_loop_open(&L, d, &rj, 1, t, err, sizeof(err)), 0);
        r_iops[busy] = sim_loop_run_until(&L, t + 2000000000ull, NULL);
        sim_loop_drain(&L, NULL);
        t = L.now;
        sim_loop_close(&L);
        sim_stats(d, &st[busy]);
        prep[busy] = prepared_lines(&d->ctl[0]);
        assert_int_equal(sim_loop_open(&L, d, &wj, 1, t, err, sizeof(err)), 0);
        w_after[busy] = sim_loop_run(&L, U / 20, NULL);
        sim_loop_close(&L);
        check_dev(d);
        sim_close(d);
    }
    print_message("  writes before %.0f IOPS; after 2 s of reads: %.0f (idle GC only), %.0f "
                  "(busy GC 50 %%)\n", w_before[0], w_after[0], w_after[1]);
    print_message("  free space after the reads %.2f / %.2f lines (target 25.6); reads %.0f / "
                  "%.0f IOPS\n", prep[0], prep[1], r_iops[0], r_iops[1]);
    assert_int_equal(st[0].bg_gc_steps, 0);            /* never idle: nothing collected */
    ASSERT_REL(w_after[0], w_before[0], 0.15);
    assert_true(st[1].bg_gc_steps > 0);
    ASSERT_WITHIN(prep[1], 25.6 - 1.0, 25.6 + 1.0 / 32);
    assert_true(w_after[1] > 1.3 * w_after[0]);
    assert_true(r_iops[1] > 0.5 * r_iops[0]);          /* the reads kept their share */
    assert_true(r_iops[1] <= r_iops[0] * 1.001);
}

/* ------------------------------------------------------------------ TRIM, purge */

static uint64_t valid_sectors(const struct sim_dev *d)
{
    uint64_t v = 0;
    for (unsigned j = 0; j < d->n; j++)
        for (uint32_t l = 0; l < d->cfg.nlines; l++)
            v += d->ctl[j].lines[l].valid;
    return v;
}

static void test_trim_and_purge(void **state)
{
    (void)state;
    struct sim_params p;
    ftl_params(&p, 28, 32, 256, SIM_GC_GREEDY);
    struct sim_dev *d = open_dev(&p);
    simt t = 0;
    for (uint64_t u = 0; u < 100; u++) {
        struct sim_io io = {SIM_WRITE, 0, u * 4096, 4096};
        t = sim_submit(d, t, &io);
    }
    assert_int_equal(valid_sectors(d), 800);
    /* trim units 10..59 (aligned), and a misaligned range that covers unit 70 only partly */
    struct sim_io tr = {SIM_TRIM, 0, 10 * 4096, 50 * 4096};
    t = sim_submit(d, t, &tr);
    struct sim_io tr2 = {SIM_TRIM, 0, 70 * 4096 + 512, 4096};
    t = sim_submit(d, t, &tr2);
    struct sim_stats s;
    sim_stats(d, &s);
    assert_int_equal(s.trimmed_units, 50);
    assert_int_equal(valid_sectors(d), 400);
    check_dev(d);
    /* trimmed units read as unmapped (no NAND); others are read from NAND */
    t += 1000000000ull;
    for (uint64_t u = 0; u < 100; u++) {
        struct sim_io rd = {SIM_READ, 0, u * 4096, 4096};
        t = sim_submit(d, t, &rd);
    }
    sim_stats(d, &s);
    assert_int_equal(s.unmapped_reads, 50);
    /* purge: fresh-out-of-box */
    sim_purge(d, t);
    sim_stats(d, &s);
    assert_int_equal(s.host_write_sectors + s.host_read_sectors + s.nand_write_sectors +
                     s.erases + s.trimmed_units + s.unmapped_reads + s.fg_gc_steps, 0);
    assert_int_equal(s.free_lines, s.total_lines);
    assert_int_equal(valid_sectors(d), 0);
    check_dev(d);
    /* after purge the drive behaves as a fresh one (shifted by t) */
    struct sim_dev *f = open_dev(&p);
    struct sim_info in;
    sim_info(d, &in);
    sim_fast_fill(d, true, in.user_bytes / 2, 0);
    sim_fast_fill(f, true, in.user_bytes / 2, 0);
    struct sim_stats s1, s2;
    sim_stats(d, &s1);
    sim_stats(f, &s2);
    assert_memory_equal(&s1, &s2, sizeof(s1));
    check_dev(f);
    sim_close(f);
    sim_close(d);
}

/* ------------------------------------------------------------------ QD1 latency */

static void test_qd1_latency_exact(void **state)
{
    (void)state;
    for (unsigned k = 1; k <= 4; k *= 4) {
        struct sim_params p;
        ftl_params(&p, 28, 64, 256, SIM_GC_GREEDY);
        p.k = k;
        p.c_cmd_us = 1.5;
        p.c_r_us = 3;
        p.c_r_us_per_kib = 0.25;     /* 1 us for 4 KiB */
        p.c_w_us = 7;
        p.c_w_us_per_kib = 0.5;      /* 2 us for 4 KiB */
        p.d_r_us = 10;
        p.d_w_us = 4;
        p.t_read_us = 75;
        p.channel_mb_s = 200;        /* 5000 ps/B: 4096 B in 20.48 us */
        p.link_mb_s = 1000;          /* 1000 ps/B: 4096 B in 4.096 us */
        p.wpipe_mb_s = 2048;         /* 4096 B in 2 us (488.28 ps/B, rounded at k = 1) */
        p.d_card_us = 5;
        struct sim_dev *d = open_dev(&p);
        /* a full superpage (4 units), so the data is on NAND */
        simt t = 0;
        simt wlat = 0;
        for (uint64_t u = 0; u < 4; u++) {
            struct sim_io io = {SIM_WRITE, 0, u * 4096, 4096};
            simt done = sim_submit(d, t, &io);
            wlat = done - t;
            t = done;
        }
        /* write: link + d_w + c_cmd + c_w + pipe + d_card, early ack */
        simt pipe = (4096 * (uint64_t)llround(1e6 / 2048 * k) + 999) / 1000;
        simt want_w = k * (4096 + 4000 + 1500 + 7000 + 2000 + 5000) + pipe;
        assert_int_equal(wlat, want_w);
        /* read, much later (everything idle): c_cmd + c_r + d_r + tR + channel + link + d_card */
        simt want_r = (simt)k * (1500 + 3000 + 1000 + 10000 + 75000 + 20480 + 4096 + 5000);
        t += 10000000000ull;
        for (int i = 0; i < 3; i++) {
            struct sim_io rd = {SIM_READ, 0, 2 * 4096, 4096};
            simt done = sim_submit(d, t, &rd);
            assert_int_equal(done - t, want_r);
            t = done + 12345;
        }
        /* unmapped read: c_cmd + c_unmapped + link + d_card, no NAND */
        struct sim_io un = {SIM_READ, 0, 99 * 4096, 4096};
        simt done = sim_submit(d, t, &un);
        assert_int_equal(done - t, (simt)k * (1500 + 2000 + 4096 + 5000));
        check_dev(d);
        sim_close(d);
    }
}

/* ------------------------------------------------------------------ controller pauses */

/* Timed pauses (pause_period_ms, pause_ms) and flushes (flush_every_mb, flush_ms) on a card of
 * two controllers: the share of time a pause holds the card is about 1 - (1 - 10/100)^2; the
 * schedule is real time at any k (the same first pause at k = 1 and k = 4), an I/O in flight
 * when one begins waits all of it; a flush follows every flush_every_mb of (full-size) host
 * data, and delays the write that filled the journal. */
static simt first_pause(unsigned k, double *share, simt *len)
{
    struct sim_params p;
    ftl_params(&p, 28, 32, 256, SIM_GC_GREEDY);
    p.n_ctl = 2;
    p.k = k;
    p.pause_period_ms = 100;
    p.pause_ms = 10;
    struct sim_dev *d = open_dev(&p);
    assert_true(sim_has_pauses(d));
    simt first = 0;
    unsigned held = 0, n = 0;
    for (simt t = 0; t < 10000000000ull; t += 100000, n++) {   /* 10 s in 0.1 ms steps */
        if (sim_pause_delay(d, t, t + 1)) {
            held++;
            if (!first) {
                first = t;
                /* issued at the last step the card was free, due just after it began */
                *len = sim_pause_delay(d, t - 100000, t + 1);
            }
        }
    }
    *share = (double)held / n;
    sim_close(d);
    return first;
}

static void test_controller_pauses(void **state)
{
    (void)state;
    double share1, share4;
    simt len1, len4;
    simt f1 = first_pause(1, &share1, &len1), f4 = first_pause(4, &share4, &len4);
    print_message("pauses: first at %.1f ms (k 1) and %.1f ms (k 4); card held %.1f%% / %.1f%% "
                  "of the time; an I/O in flight at the first waits %.2f ms\n", f1 / 1e6,
                  f4 / 1e6, 100 * share1, 100 * share4, len1 / 1e6);
    assert_true(f1 > 0);
    assert_true(f1 == f4);                      /* not dilated */
    assert_true(share1 == share4);
    assert_true(share1 > 0.15 && share1 < 0.23);   /* 1 - 0.9^2 = 19 % */
    assert_true(len1 >= 10000000 && len1 == len4);  /* the whole pause (more if another joins) */

    /* flushes: 4 MiB of scaled 4 KiB writes at k = 4 is 16 MiB full size: 16.8 flushes of 1 MB */
    struct sim_params p;
    ftl_params(&p, 28, 32, 256, SIM_GC_GREEDY);
    p.n_ctl = 2;
    p.k = 4;
    p.flush_every_mb = 1;
    p.flush_ms = 5;
    struct sim_dev *d = open_dev(&p);
    unsigned held = 0;
    simt t = 0;
    for (uint64_t u = 0; u < 1024; u++, t += 1000000000ull) {   /* 1 s apart: no overlap */
        struct sim_io io = {SIM_WRITE, 0, u * 4096, 4096};
        simt done = sim_submit(d, t, &io);
        if (sim_pause_delay(d, t, done) >= 5000000)
            held++;
    }
    print_message("flushes: %u of 1024 writes (16 MiB full size, 1 MB per flush) waited 5 ms\n",
                  held);
    assert_true(held >= 15 && held <= 18);
    check_dev(d);
    sim_close(d);
}

/* ------------------------------------------------------------------ determinism */

static void mixed_run(const struct sim_params *p, struct sim_stats *s, uint64_t *hash)
{
    struct sim_dev *d = open_dev(p);
    struct sim_info in;
    sim_info(d, &in);
    uint64_t U = in.user_bytes / 4096, rs = 99, h = 1469598103934665603ull;
    sim_fast_fill(d, false, in.user_bytes, 0);
    simt t[8] = {0};
    for (uint64_t n = 0; n < 3 * U; n++) {
        if (n % 4096 == 4095) {   /* drain, then 200 ms idle: background GC time */
            simt last = 0;
            for (unsigned i = 0; i < 8; i++)
                last = t[i] > last ? t[i] : last;
            for (unsigned i = 0; i < 8; i++)
                t[i] = last + 200000000ull;
        }
        unsigned m = 0;
        for (unsigned i = 1; i < 8; i++)
            if (t[i] < t[m])
                m = i;
        uint64_t r = sim_loop_rand(&rs);
        uint8_t op = r % 10 < 6 ? SIM_WRITE : r % 10 < 9 ? SIM_READ : SIM_TRIM;
        struct sim_io io = {op, 0, (sim_loop_rand(&rs) % (U - 4)) * 4096,
                            (uint32_t)(4096 << (r >> 60 & 1))};
        t[m] = sim_submit(d, t[m], &io);
        h = (h ^ t[m]) * 1099511628211ull;
    }
    sim_stats(d, s);
    *hash = h;
    check_dev(d);
    sim_close(d);
}

static void test_determinism(void **state)
{
    (void)state;
    struct sim_params p;
    ftl_params(&p, 28, 32, 256, SIM_GC_GREEDY);
    p.bg_gc = true;
    p.idle_delay_ms = 50;
    p.bg_target_pct = 5;
    struct sim_stats a, b;
    uint64_t ha, hb;
    mixed_run(&p, &a, &ha);
    mixed_run(&p, &b, &hb);
    assert_memory_equal(&a, &b, sizeof(a));
    assert_int_equal(ha, hb);
    assert_true(a.bg_gc_steps > 0 && a.fg_gc_steps > 0 && a.trimmed_units > 0);
    /* greedy: the seed does not matter */
    p.seed = 2;
    mixed_run(&p, &b, &hb);
    assert_memory_equal(&a, &b, sizeof(a));
    assert_int_equal(ha, hb);
    /* d-choice: same seed identical, another seed different victims */
    p.gc = SIM_GC_DCHOICE;
    p.seed = 1;
    mixed_run(&p, &a, &ha);
    mixed_run(&p, &b, &hb);
    assert_memory_equal(&a, &b, sizeof(a));
    p.seed = 2;
    mixed_run(&p, &b, &hb);
    assert_true(memcmp(&a, &b, sizeof(a)) != 0);
    /* vca: the seed breaks ties between equally busy children: same seed identical, another
     * seed places units differently (same totals) */
    ftl_params(&p, 28, 32, 256, SIM_GC_GREEDY);
    p.n_ctl = 4;
    p.dispatch = SIM_DISPATCH_VCA;
    p.vca_balance_pct = 100;
    uint64_t h[3];
    for (int i = 0; i < 3; i++) {
        p.seed = i < 2 ? 1 : 2;
        struct sim_dev *d = open_dev(&p);
        simt t = 0;
        for (uint64_t u = 0; u < 4000; u++) {
            struct sim_io io = {SIM_WRITE, 0, (u * 7919 % user_units(d)) * 4096, 4096};
            t = sim_submit(d, t, &io) + (u % 3 ? 0 : 1000000);
        }
        h[i] = 0;
        for (uint64_t u = 0; u < user_units(d); u++)
            h[i] = h[i] * 31 + d->vca.own_ctl[u];
        check_dev(d);
        sim_close(d);
    }
    assert_int_equal(h[0], h[1]);
    assert_int_not_equal(h[0], h[2]);
}

/* ------------------------------------------------------------------ card */

static void card_params(struct sim_params *p, enum sim_dispatch disp)
{
    ftl_params(p, 28, 32, 256, SIM_GC_GREEDY);
    p->n_ctl = disp == SIM_DISPATCH_VCA ? 4 : 8;
    p->dispatch = disp;
    p->stripe_unit_bytes = 16384;
    p->d_card_us = 20;
    p->c_w_us = 10;
}

static void test_card_stripe(void **state)
{
    (void)state;
    struct sim_params p;
    card_params(&p, SIM_DISPATCH_STRIPE);
    struct sim_dev *d = open_dev(&p);
    struct sim_info in;
    sim_info(d, &in);
    assert_int_equal(in.n_ctl, 8);
    assert_int_equal(in.user_bytes, 8 * (uint64_t)d->cfg.user_units * 4096);
    /* keep controller 2 busy: 20 writes to its first stripe at t = 0 (its firmware queues) */
    for (int i = 0; i < 20; i++) {
        struct sim_io io = {SIM_WRITE, 0, 2 * 16384, 16384};
        sim_submit(d, 0, &io);
    }
    simt busy2 = d->ctl[2].last_done;
    /* one 64 KiB write at offset 0: 16 KiB on each of controllers 0..3 */
    struct sim_io io = {SIM_WRITE, 0, 0, 65536};
    simt done = sim_submit(d, 0, &io);
    for (unsigned j = 0; j < 8; j++) {
        uint64_t want = j < 4 ? 32 : 0;
        if (j == 2)
            want += 20 * 32;
        assert_int_equal(d->ctl[j].st.host_write_sectors, want);
    }
    simt mx = 0;
    for (unsigned j = 0; j < 4; j++)
        mx = d->ctl[j].last_done > mx ? d->ctl[j].last_done : mx;
    assert_int_equal(done, mx + 20000);       /* completes with the slowest part, + d_card */
    assert_true(d->ctl[2].last_done > busy2); /* which is controller 2, behind its queue */
    assert_true(d->ctl[0].last_done < d->ctl[2].last_done);
    /* a 256 KiB write from 0 covers 16 stripes: 32 KiB (two stripes, contiguous locally,
     * units 0..7) on every controller */
    struct sim_io big = {SIM_WRITE, 0, 0, 262144};
    sim_submit(d, done, &big);
    for (unsigned j = 0; j < 8; j++) {
        for (uint32_t u = 0; u < 8; u++)
            assert_int_not_equal(d->ctl[j].l2p[u], SIM_UNMAPPED);
        if (j != 2)
            assert_int_equal(d->ctl[j].l2p[8], SIM_UNMAPPED);
    }
    /* a read of 64 KiB at 16 KiB: controllers 1..4 */
    uint64_t rs[8];
    for (unsigned j = 0; j < 8; j++)
        rs[j] = d->ctl[j].st.host_read_sectors;
    struct sim_io rd = {SIM_READ, 0, 16384, 65536};
    sim_submit(d, done + 1000000000ull, &rd);
    for (unsigned j = 0; j < 8; j++)
        assert_int_equal(d->ctl[j].st.host_read_sectors - rs[j], j >= 1 && j <= 4 ? 32 : 0);
    check_dev(d);
    sim_close(d);
}

static unsigned vca_outstanding(struct sim_dev *d, unsigned j, simt t)
{
    unsigned n = 0;
    for (uint32_t i = 0; i < d->vca.nheap[j]; i++)
        n += d->vca.heap[j][i] > t;
    return n;
}

static void test_card_vca(void **state)
{
    (void)state;
    struct sim_params p;
    card_params(&p, SIM_DISPATCH_VCA);
    p.vca_balance_pct = 100;   /* let "least busy" decide, not the written-bytes balance */
    struct sim_dev *d = open_dev(&p);
    /* four 4 KiB writes at t = 0 to units 0..3: each goes to a child with nothing outstanding,
     * so they land on four different children */
    unsigned seen = 0;
    for (uint64_t u = 0; u < 4; u++) {
        unsigned minq = 99;
        for (unsigned j = 0; j < 4; j++)
            minq = vca_outstanding(d, j, 0) < minq ? vca_outstanding(d, j, 0) : minq;
        struct sim_io io = {SIM_WRITE, 0, u * 4096, 4096};
        sim_submit(d, 0, &io);
        unsigned o = d->vca.own_ctl[u];
        assert_true(o < 4);
        assert_int_equal(vca_outstanding(d, o, 0), minq + 1);   /* it was a least-busy child */
        seen |= 1u << o;
    }
    assert_int_equal(seen, 0xf);
    /* reads go to the owner */
    simt t = 1000000000ull;
    for (uint64_t u = 0; u < 4; u++) {
        unsigned o = d->vca.own_ctl[u];
        uint64_t before = d->ctl[o].st.host_read_sectors;
        struct sim_io rd = {SIM_READ, 0, u * 4096, 4096};
        t = sim_submit(d, t, &rd);
        assert_int_equal(d->ctl[o].st.host_read_sectors - before, 8);
        assert_int_equal(d->ctl[o].st.unmapped_reads, 0);
    }
    /* overwrite unit 0 while its owner is busy: it moves, the old copy is trimmed there */
    unsigned o0 = d->vca.own_ctl[0];
    uint32_t l0 = d->vca.own_lpn[0];
    t += 1000000000ull;
    for (int i = 0; i < 3 && d->vca.own_ctl[0] == o0; i++) {
        struct sim_io io = {SIM_WRITE, 0, 0, 4096};
        sim_submit(d, t, &io);   /* same t: the owner now has one outstanding, others none */
    }
    unsigned o1 = d->vca.own_ctl[0];
    assert_int_not_equal(o1, o0);
    assert_int_equal(d->ctl[o0].l2p[l0], SIM_UNMAPPED);
    uint64_t before = d->ctl[o1].st.host_read_sectors;
    struct sim_io rd = {SIM_READ, 0, 0, 4096};
    sim_submit(d, t + 1000000000ull, &rd);
    assert_int_equal(d->ctl[o1].st.host_read_sectors - before, 8);
    check_dev(d);
    /* a steady mixed load keeps the card consistent */
    sim_fast_fill(d, false, user_units(d) * 4096, 0);
    struct sim_loop L;
    loop_start(&L, d, 16, t + 2000000000ull, false, 0);
    sim_loop_run(&L, user_units(d), NULL);
    sim_loop_close(&L);
    check_dev(d);
    sim_close(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lambert_and_oracle),
        cmocka_unit_test(test_validation_and_geometry),
        cmocka_unit_test(test_wa_greedy_vs_oracle),
        cmocka_unit_test(test_wa_fifo_vs_oracle),
        cmocka_unit_test(test_wa_size_independence),
        cmocka_unit_test(test_durawrite),
        cmocka_unit_test(test_write_cliff_nand_bound),
        cmocka_unit_test(test_write_cliff_controller_bound),
        cmocka_unit_test(test_op_sweep),
        cmocka_unit_test(test_time_dilation),
        cmocka_unit_test(test_idle_background_gc),
        cmocka_unit_test(test_busy_background_gc),
        cmocka_unit_test(test_trim_and_purge),
        cmocka_unit_test(test_qd1_latency_exact),
        cmocka_unit_test(test_controller_pauses),
        cmocka_unit_test(test_determinism),
        cmocka_unit_test(test_card_stripe),
        cmocka_unit_test(test_card_vca),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
