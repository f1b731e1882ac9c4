/* test_pts_rules.c — the PTS suite's decisions (pts_rules.h) on hand-made figures, and its plan
 * arithmetic on the definitions in pts/ ($PTSBENCH_DATADIR/pts, else ./pts).
 *
 * Hand computations are in each test's comment. Where the code before pts_rules.c decided
 * differently, the comment says what it picked. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pts/pts_def.h"
#include "pts/pts_rules.h"

#define S 1000000000ull

static const char *const *pts_dirs(void)
{
    static char dir[4096];
    static const char *dirs[2];
    const char *root = getenv("PTSBENCH_DATADIR");
    snprintf(dir, sizeof(dir), "%s/pts", root && *root ? root : ".");
    dirs[0] = dir;
    dirs[1] = NULL;
    return dirs;
}

static void load(const char *name, struct pts_def *d)
{
    char err[512];
    if (pts_def_load(name, "pts-2.0-e", pts_dirs(), d, err, sizeof(err)) != 0)
        fail_msg("%s (set PTSBENCH_DATADIR to the repository root)", err);
}

/* ---- XSR recovery ---- */

/* The drive returns to exactly the first group's throughput, 1547.977796 MB/s in every round:
 * the average of 48 equal figures summed in order is 1547.9777960000001, so the old test
 * `value >= first_avg` said "never recovered". Within the 1% tolerance it recovered at the end
 * of the last group's first round. */
static void test_recovered_at_the_same_throughput(void **state)
{
    (void)state;
    const double x = 1547.977796;
    double sum = 0;
    for (int i = 0; i < 48; i++)
        sum += x;
    const double avg = sum / 48;
    assert_true(avg > x);                 /* the old comparison fails here */
    assert_false(x >= avg);
    assert_true(pts_recovered(x, avg, PTS_XSR_RECOVERY_TOLERANCE));
    const double last[] = {x, x, x};
    assert_true(pts_xsr_recovery_minutes(last, 3, avg, PTS_XSR_RECOVERY_TOLERANCE, 1.0) == 1.0);
}

/* Reference 1000: 990 is within 1% (1000 x 0.99 = 990), 989.9 is not; not-a-number never is. */
static void test_recovered_tolerance_boundary(void **state)
{
    (void)state;
    assert_true(pts_recovered(990, 1000, 0.01));
    assert_false(pts_recovered(989.9, 1000, 0.01));
    assert_true(pts_recovered(1200, 1000, 0.01));
    assert_false(pts_recovered(NAN, 1000, 0.01));
    assert_false(pts_recovered(1000, NAN, 0.01));
    assert_true(pts_recovered(1000, 1000, 0));
}

/* Rounds of 0.5 min; reference 1547.98: 500, 900 no; 1540 >= 1532.50 (99%) yes: the end of the
 * third round, 1.5 min. A last group that stays at 1500 (< 1532.50) never recovers: NAN. */
static void test_xsr_recovery_minutes(void **state)
{
    (void)state;
    const double a[] = {500, 900, 1540, 1547.98};
    assert_true(pts_xsr_recovery_minutes(a, 4, 1547.98, 0.01, 0.5) == 1.5);
    const double b[] = {500, 1500, 1500};
    assert_true(isnan(pts_xsr_recovery_minutes(b, 3, 1547.98, 0.01, 0.5)));
    assert_true(isnan(pts_xsr_recovery_minutes(NULL, 0, 1547.98, 0.01, 0.5)));
}

/* 8 h at a 0.05 time scale = 1440 s = 24 rounds of 60 s; a group shorter than a round still
 * runs one. */
static void test_xsr_group_rounds(void **state)
{
    (void)state;
    struct pts_group g = {.random = false, .bs = 1048576, .mix = 0, .duration_ns = 8 * 3600 * S};
    assert_int_equal(pts_xsr_group_rounds(&g, 1, 60 * S), 480);
    assert_int_equal(pts_xsr_group_rounds(&g, 0.05, 60 * S), 24);
    assert_int_equal(pts_xsr_group_rounds(&g, 0.000001, 60 * S), 1);
}

/* ---- DIRTH operating points ---- */

/* A 3 x 3 sweep whose lists run low to high (threads 1, 2, 4 x QD 1, 4, 8), ceiling 5000 us:
 *
 *   i  T x Q   IOPS   mean us
 *   0  1 x 1   1000   1000
 *   1  1 x 4   3000   1500
 *   2  1 x 8   4000   2500
 *   3  2 x 1   2000   1000
 *   4  2 x 4   5500   6000   over the ceiling
 *   5  2 x 8   6000   7000   over
 *   6  4 x 1   3500   1200
 *   7  4 x 4   9000   4000   the highest IOPS below the ceiling: max
 *   8  4 x 8  12000   8000   over
 *
 * min = 1 x 1 = point 0 (1000 IOPS); the middle is (9000 + 1000) / 2 = 5000; below the ceiling
 * the closest is point 2 (4000, 1000 away; point 6 is 1500 away). Point 4 (5500, 500 away) is
 * over the ceiling and must not be picked.
 * The old code took the last point as min (i 8, 4 x 8, over the ceiling), aimed at
 * (9000 + 12000) / 2 = 10500 over all points and picked point 7 as mid. */
static void test_dirth_grid_low_to_high(void **state)
{
    (void)state;
    const unsigned th[] = {1, 2, 4}, qd[] = {1, 4, 8};
    const double iops[] = {1000, 3000, 4000, 2000, 5500, 6000, 3500, 9000, 12000};
    const double lat[] = {1000, 1500, 2500, 1000, 6000, 7000, 1200, 4000, 8000};
    struct pts_dirth_points p;
    pts_dirth_choose(iops, lat, th, 3, qd, 3, 5000, &p);
    assert_true(p.max_found);
    assert_true(p.min_is_1x1);
    assert_int_equal(p.max, 7);
    assert_int_equal(p.min, 0);
    assert_int_equal(p.mid, 2);
}

/* No 1 x 1 in the lists (threads 4, 2 x QD 8, 2): min = the lowest outstanding I/O, 2 x 2 = 4
 * (point 3). Every point over a 100 us ceiling: max and mid fall back to min. */
static void test_dirth_no_1x1_nothing_below(void **state)
{
    (void)state;
    const unsigned th[] = {4, 2}, qd[] = {8, 2};
    const double iops[] = {8000, 5000, 6000, 3000};
    const double lat[] = {4000, 1600, 2600, 650};
    struct pts_dirth_points p;
    pts_dirth_choose(iops, lat, th, 2, qd, 2, 5000, &p);
    assert_false(p.min_is_1x1);
    assert_int_equal(p.min, 3);
    assert_int_equal(p.max, 0);
    pts_dirth_choose(iops, lat, th, 2, qd, 2, 100, &p);
    assert_false(p.max_found);
    assert_int_equal(p.max, 3);
    assert_int_equal(p.mid, 3);
    assert_int_equal(p.min, 3);
}

/* The default 7 x 7 sweep (32 ... 1 both ways): min is the last point, 1 x 1, as before. */
static void test_dirth_default_lists_min_is_last(void **state)
{
    (void)state;
    struct pts_def d;
    load("dirth", &d);
    const unsigned n = d.n_threads_list * d.n_qd_list;
    double iops[PTS_MAX_LIST * PTS_MAX_LIST], lat[PTS_MAX_LIST * PTS_MAX_LIST];
    for (unsigned i = 0; i < n; i++) {
        iops[i] = 1000.0 * (n - i);
        lat[i] = 100.0 * (n - i);
    }
    struct pts_dirth_points p;
    pts_dirth_choose(iops, lat, d.threads_list, d.n_threads_list, d.qd_list, d.n_qd_list,
                     (double)d.latency_ceiling_ns / 1000, &p);
    assert_true(p.min_is_1x1);
    assert_int_equal(p.min, n - 1);
    assert_int_equal(p.max, 0);   /* 4900 us < 5000 us */
}

/* ---- window statistics ---- */

/* Two rounds of one element: 100 I/Os at a mean of 10 us, 300 at 20 us: the window's mean is
 * (100 x 10 + 300 x 20) / 400 = 17.5 (the old table: (10 + 20) / 2 = 15). Maxima 50, 80, 65:
 * the window's max is 80 (the old table: their mean, 65). A round without I/O (count 0, no
 * figure) is left out. */
static void test_window_weighted_mean_and_max(void **state)
{
    (void)state;
    const double mean[] = {10, 20}, count[] = {100, 300};
    assert_true(fabs(pts_weighted_mean(mean, count, 2) - 17.5) < 1e-12);
    assert_true(fabs(pts_weighted_mean(mean, NULL, 2) - 15) < 1e-12);
    const double mean3[] = {10, NAN, 20}, count3[] = {100, 0, 300};
    assert_true(fabs(pts_weighted_mean(mean3, count3, 3) - 17.5) < 1e-12);
    const double none[] = {NAN, NAN};
    assert_true(isnan(pts_weighted_mean(none, NULL, 2)));
    const double maxima[] = {50, 80, 65};
    assert_true(pts_max(maxima, 3) == 80);
    assert_true(isnan(pts_max(none, 2)));
}

/* ---- HIR ---- */

/* The PTS names the wait states by the idle time in 5 s accesses: 5, 10, 15, 25, 50 s are
 * states 1, 2, 3, 5, 10 (the old results numbered them 1..5). From pts/hir.ini too. */
static void test_hir_state_numbers(void **state)
{
    (void)state;
    const unsigned want[] = {1, 2, 3, 5, 10};
    const uint64_t waits[] = {5 * S, 10 * S, 15 * S, 25 * S, 50 * S};
    for (int i = 0; i < 5; i++)
        assert_int_equal(pts_hir_state_number(waits[i], 5 * S), want[i]);
    struct pts_def d;
    load("hir", &d);
    assert_int_equal(d.n_waits, 5);
    for (unsigned i = 0; i < d.n_waits; i++)
        assert_int_equal(pts_hir_state_number(d.waits_ns[i], d.access_ns), want[i]);
    assert_int_equal(pts_hir_state_number(5 * S, 0), 0);
}

/* ---- WSAT's stop rule ---- */

static void test_wsat_option_notes(void **state)
{
    (void)state;
    struct pts_def d;
    load("wsat", &d);
    char n[2][PTS_NOTE_LEN];
    assert_int_equal(pts_wsat_option_notes(&d, 0, 0, n), 0);
    assert_int_equal(pts_wsat_option_notes(&d, 4, 24 * 3600 * S, n), 0);   /* the spec's own */
    assert_int_equal(pts_wsat_option_notes(&d, 2, 0, n), 1);
    assert_non_null(strstr(n[0], "--wsat-capacity"));
    assert_non_null(strstr(n[0], "2x"));
    assert_non_null(strstr(n[0], "4x"));
    assert_int_equal(pts_wsat_option_notes(&d, 0, 3600 * S, n), 1);
    assert_non_null(strstr(n[0], "--wsat-time"));
    assert_non_null(strstr(n[0], "1h00m"));
    assert_non_null(strstr(n[0], "24h00m"));
    assert_int_equal(pts_wsat_option_notes(&d, 1, 3600 * S, n), 2);
    struct pts_def iops;
    load("iops", &iops);
    assert_int_equal(pts_wsat_option_notes(&iops, 2, 3600 * S, n), 0);   /* not a WSAT test */
}

/* ---- the plan ---- */

static struct pts_timing timing(const struct pts_def *d, double scale, unsigned epr)
{
    struct pts_timing t = {.time_scale = scale, .max_rounds = d->max_rounds ? d->max_rounds : 25,
                           .elements_per_round = epr, .subtests = 1, .threads = 4, .qd = 32,
                           .stop_capacity = d->stop_capacity};
    t.element_ns = pts_scaled_ns(d->element_ns, scale);
    t.max_time_ns = pts_scaled_ns(d->max_time_ns, scale);
    return t;
}

/* From the definitions at their own durations (the old plan: HIR and DIRTH 25 x 1 element of
 * 60 s, XSR "<= 0s"):
 *   hir:   25 x 30 min = 45000 s; 360 x (5 + 5, 5 + 10, 5 + 15, 5 + 25, 5 + 50) = 360 x 130 =
 *          46800 s; 5 x 360 x 5 s = 9000 s: 100800 s (28 h)
 *   xsr:   8 h + 6 h + 8 h = 79200 s
 *   dirth: 25 x (30 min + 49 x 60 s) + 3 x 10 min = 25 x 4740 + 1800 = 120300 s
 *   iops:  25 rounds x 56 elements x 60 s = 84000 s
 *   wsat:  24 h = 86400 s */
/* The likely case: every steady-state loop ends at round 5 (the first the SNIA window allows):
 *   hir:   5 x 30 min + 46800 + 9000 = 64800 s;  dirth: 5 x 4740 + 1800 = 25500 s;
 *   iops:  5 x 56 x 60 = 16800 s;  xsr and wsat as bounded (79200 s, 86400 s);
 *   a round limit below 5 (--max-rounds 3) is the likely case too: iops 3 x 56 x 60 = 10080 s */
static void test_likely_estimates(void **state)
{
    (void)state;
    struct pts_def d;
    struct pts_timing t;
    load("hir", &d);
    t = timing(&d, 1, 1);
    assert_true(fabs(pts_estimate_likely_s(&d, &t) - 64800) < 1e-6);
    load("dirth", &d);
    t = timing(&d, 1, 1);
    assert_true(fabs(pts_estimate_likely_s(&d, &t) - 25500) < 1e-6);
    load("iops", &d);
    t = timing(&d, 1, 56);
    assert_true(fabs(pts_estimate_likely_s(&d, &t) - 16800) < 1e-6);
    t.max_rounds = 3;
    assert_true(fabs(pts_estimate_likely_s(&d, &t) - 10080) < 1e-6);
    load("xsr", &d);
    t = timing(&d, 1, 0);
    assert_true(fabs(pts_estimate_likely_s(&d, &t) - 79200) < 1e-6);
    load("wsat", &d);
    t = timing(&d, 1, 1);
    assert_true(fabs(pts_estimate_likely_s(&d, &t) - 86400) < 1e-6);
}

static void test_estimates_from_definitions(void **state)
{
    (void)state;
    struct pts_def d;
    struct pts_timing t;
    load("hir", &d);
    t = timing(&d, 1, 1);
    assert_true(fabs(pts_estimate_s(&d, &t) - 100800) < 1e-6);
    load("xsr", &d);
    t = timing(&d, 1, 0);
    assert_true(fabs(pts_estimate_s(&d, &t) - 79200) < 1e-6);
    load("dirth", &d);
    t = timing(&d, 1, 1);
    assert_true(fabs(pts_estimate_s(&d, &t) - 120300) < 1e-6);
    load("cbw", &d);
    t = timing(&d, 1, 1);
    assert_true(fabs(pts_estimate_s(&d, &t) - 120300) < 1e-6);
    load("iops", &d);
    t = timing(&d, 1, 56);
    assert_true(fabs(pts_estimate_s(&d, &t) - 84000) < 1e-6);
    load("wsat", &d);
    t = timing(&d, 1, 1);
    assert_true(fabs(pts_estimate_s(&d, &t) - 86400) < 1e-6);
    t.max_rounds = 0;
    load("iops", &d);
    t = timing(&d, 1, 56);
    t.max_rounds = 0;
    assert_true(isinf(pts_estimate_s(&d, &t)));   /* no round limit: no bound */
}

/* At --time-scale 0.002: HIR's 5 s accesses are 10 ms, 30 min rounds 3.6 s:
 * 25 x 3.6 + 360 x 130 x 0.002 + 5 x 360 x 0.01 = 90 + 93.6 + 18 = 201.6 s. */
static void test_estimate_scaled_hir(void **state)
{
    (void)state;
    struct pts_def d;
    load("hir", &d);
    struct pts_timing t = timing(&d, 0.002, 1);
    assert_true(fabs(pts_estimate_s(&d, &t) - 201.6) < 1e-3);
}

/* Each kind says how it prepares the device: only the tests with WIPC say WIPC. */
static void test_preparation_per_kind(void **state)
{
    (void)state;
    const struct {
        const char *name, *has, *has2;
    } c[] = {
        {"iops", "purge, WIPC 2x the active range in SEQ 128KiB writes", NULL},
        {"lat", "WIPC 2x", NULL},
        {"tp", "WIPC 2x", "each subtest's block size"},
        {"hir", "steady-state preconditioning: RND 4KiB 0/100 at 4 x 32", "30m00s"},
        {"dirth", "steady-state preconditioning: RND 8KiB 0/100 at 32 x 32", NULL},
        {"cbw", "at 32 x 32", "extra keys"},
        {"xsr", "purge, no preconditioning", NULL},
        {"wsat", "purge, no preconditioning", NULL},
    };
    for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
        struct pts_def d;
        load(c[i].name, &d);
        struct pts_timing t = timing(&d, 1, 1);
        char buf[256];
        pts_preparation_text(&d, &t, buf, sizeof(buf));
        print_message("%-6s %s\n", c[i].name, buf);
        assert_non_null(strstr(buf, c[i].has));
        if (c[i].has2)
            assert_non_null(strstr(buf, c[i].has2));
        if (d.kind != PTS_KIND_STANDARD || !d.wipc)
            assert_null(strstr(buf, "WIPC"));
    }
}

static void test_loop_text(void **state)
{
    (void)state;
    struct pts_def d;
    char buf[512];
    load("xsr", &d);
    struct pts_timing t = timing(&d, 1, 0);
    pts_loop_text(&d, &t, buf, sizeof(buf));
    assert_non_null(strstr(buf, "SEQ 1MiB 0/100 8h00m, RND 8KiB 0/100 6h00m, SEQ 1MiB 0/100 8h00m"));
    load("hir", &d);
    t = timing(&d, 1, 1);
    pts_loop_text(&d, &t, buf, sizeof(buf));
    assert_non_null(strstr(buf, "5 wait states x 360"));
}

/* ---- the closing line ---- */

static void test_closing_line(void **state)
{
    (void)state;
    char b[160];
    pts_closing_line("complete", true, 0, true, b, sizeof(b));
    assert_string_equal(b, "complete; compliant with the spec's settings (simulated drive)");
    pts_closing_line("complete", true, 0, false, b, sizeof(b));
    assert_string_equal(b, "complete; compliant with the spec's settings");
    pts_closing_line("complete", true, 2, true, b, sizeof(b));
    assert_string_equal(b, "complete; NOT compliant (simulated drive):");
    pts_closing_line("interrupted", false, 0, false, b, sizeof(b));
    assert_string_equal(b, "interrupted; NOT compliant (did not complete)");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_recovered_at_the_same_throughput),
        cmocka_unit_test(test_recovered_tolerance_boundary),
        cmocka_unit_test(test_xsr_recovery_minutes),
        cmocka_unit_test(test_xsr_group_rounds),
        cmocka_unit_test(test_dirth_grid_low_to_high),
        cmocka_unit_test(test_dirth_no_1x1_nothing_below),
        cmocka_unit_test(test_dirth_default_lists_min_is_last),
        cmocka_unit_test(test_window_weighted_mean_and_max),
        cmocka_unit_test(test_hir_state_numbers),
        cmocka_unit_test(test_wsat_option_notes),
        cmocka_unit_test(test_estimates_from_definitions),
        cmocka_unit_test(test_likely_estimates),
        cmocka_unit_test(test_estimate_scaled_hir),
        cmocka_unit_test(test_preparation_per_kind),
        cmocka_unit_test(test_loop_text),
        cmocka_unit_test(test_closing_line),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
