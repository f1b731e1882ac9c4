/* test_steady.c — SNIA PTS steady-state rule on hand-computed series.
 *
 * For a window of 5 rounds x = f..f+4 the least-squares slope is
 *   k = sum((x - xm) * (y - ym)) / sum((x - xm)^2),  with x - xm = -2,-1,0,1,2 and
 *   sum((x - xm)^2) = 10,
 * the intercept is d = ym - k * xm, and the slope excursion is |k| * 4.
 * Steady when range <= 0.20 * avg and |k| * 4 <= 0.10 * avg. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "stats/steady.h"

#define ASSERT_NEAR(got, want)                                                            \
    do {                                                                                  \
        double g_ = (got), w_ = (want);                                                   \
        if (!(fabs(g_ - w_) <= 1e-9 * fmax(1.0, fabs(w_)))) {                             \
            print_error("%s = %.15g, expected %.15g\n", #got, g_, w_);                    \
            fail();                                                                       \
        }                                                                                 \
    } while (0)

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* (a) A cliff that settles.
 *   round:  1    2    3    4    5    6    7    8    9   10
 *   y:    400  200  104  100  100   96  100   98  101   99
 * Window 1..5: 400,200,104,100,100: avg 180.8, range 300 > 36.16      -> not steady
 * Window 2..6: 200,104,100,100,96:  avg 600/5 = 120, range 104 > 24   -> not steady;
 *   deviations from 120: 80,-16,-20,-20,-24;
 *   sxy = -2*80 + -1*-16 + 0 + 1*-20 + 2*-24 = -160+16-20-48 = -212; k = -21.2;
 *   slope excursion 84.8 > 12
 * Window 3..7: 104,100,100,96,100:  avg 500/5 = 100, min 96, max 104, range 8 <= 20;
 *   deviations 4,0,0,-4,0; sxy = -2*4 + 0 + 0 + 1*-4 + 0 = -12; k = -1.2;
 *   d = 100 - (-1.2 * 5) = 106; slope excursion 1.2*4 = 4.8 <= 10  -> steady at round 7 */
static const double cliff[] = {400, 200, 104, 100, 100, 96, 100, 98, 101, 99};

static void test_cliff_settles_at_round_7(void **state)
{
    (void)state;
    struct steady_criteria c = STEADY_CRITERIA_SNIA;
    struct steady_window w;
    assert_int_equal(steady_first(cliff, N(cliff), &c, &w), 7);
    assert_int_equal(w.first_round, 3);
    assert_int_equal(w.last_round, 7);
    ASSERT_NEAR(w.average, 100.0);
    ASSERT_NEAR(w.min, 96.0);
    ASSERT_NEAR(w.max, 104.0);
    ASSERT_NEAR(w.range, 8.0);
    ASSERT_NEAR(w.range_allowed, 20.0);
    ASSERT_NEAR(w.slope, -1.2);
    ASSERT_NEAR(w.intercept, 106.0);
    ASSERT_NEAR(w.slope_excursion, 4.8);
    ASSERT_NEAR(w.slope_excursion_allowed, 10.0);
    assert_true(w.range_ok);
    assert_true(w.slope_ok);
    assert_true(w.steady);

    /* the windows before it fail, with the numbers above */
    assert_int_equal(steady_eval(cliff, N(cliff), 5, &c, &w), 0);
    assert_int_equal(w.first_round, 1);
    ASSERT_NEAR(w.average, 180.8);
    ASSERT_NEAR(w.range, 300.0);
    assert_false(w.range_ok);
    assert_false(w.steady);

    assert_int_equal(steady_eval(cliff, N(cliff), 6, &c, &w), 0);
    assert_int_equal(w.first_round, 2);
    assert_int_equal(w.last_round, 6);
    ASSERT_NEAR(w.average, 120.0);
    ASSERT_NEAR(w.range, 104.0);
    ASSERT_NEAR(w.range_allowed, 24.0);
    ASSERT_NEAR(w.slope, -21.2);
    ASSERT_NEAR(w.slope_excursion, 84.8);
    ASSERT_NEAR(w.slope_excursion_allowed, 12.0);
    assert_false(w.range_ok);
    assert_false(w.slope_ok);
    assert_false(w.steady);
}

/* (b) +6% per round for 25 rounds: y_i = 100 * 1.06^(i-1).  Every window is the first one
 * scaled by 1.06^(f-1), so the verdict is the same for all.  First window:
 *   y = 100, 106, 112.36, 119.1016, 126.247696
 *   sum 563.709296, avg 112.7418592, range 26.247696 > 22.54837184 (23.3% of avg)
 *   sxy = -2*100 - 106 + 0 + 119.1016 + 2*126.247696 = 65.596992; k = 6.5596992
 *   slope excursion 26.2387968 > 11.27418592 (23.3% of avg)                -> never steady */
static void test_rising_never_steady(void **state)
{
    (void)state;
    double y[30];
    y[0] = 100;
    for (int i = 1; i < 30; i++)
        y[i] = y[i - 1] * 1.06;
    struct steady_criteria c = STEADY_CRITERIA_SNIA;
    struct steady_window w;

    assert_int_equal(steady_eval(y, 30, 5, &c, &w), 0);
    ASSERT_NEAR(w.average, 112.7418592);
    ASSERT_NEAR(w.range, 26.247696);
    ASSERT_NEAR(w.range_allowed, 22.54837184);
    ASSERT_NEAR(w.slope, 6.5596992);
    ASSERT_NEAR(w.slope_excursion, 26.2387968);
    ASSERT_NEAR(w.slope_excursion_allowed, 11.27418592);
    assert_false(w.range_ok);
    assert_false(w.slope_ok);

    /* 25 rounds: none steady; out holds the last window evaluated (21..25) */
    assert_int_equal(steady_first(y, 25, &c, &w), 0);
    assert_false(w.steady);
    assert_int_equal(w.first_round, 21);
    assert_int_equal(w.last_round, 25);
    /* window 21..25 = first window * 1.06^20 */
    double scale = pow(1.06, 20);
    ASSERT_NEAR(w.average, 112.7418592 * scale);
    ASSERT_NEAR(w.slope, 6.5596992 * scale);
    /* 30 rounds available but the SNIA limit is 25: the search stops at 25 */
    assert_int_equal(steady_first(y, 30, &c, &w), 0);
    assert_int_equal(w.last_round, 25);
}

/* (c) Noisy but flat: 100, 108, 93, 105, 97 repeating.
 * Window 1..5: sum 503, avg 100.6, min 93, max 108, range 15 <= 20.12;
 *   deviations -0.6, 7.4, -7.6, 4.4, -3.6;
 *   sxy = -2*-0.6 + -1*7.4 + 0 + 1*4.4 + 2*-3.6 = 1.2-7.4+4.4-7.2 = -9; k = -0.9;
 *   d = 100.6 - (-0.9 * 3) = 103.3; slope excursion 3.6 <= 10.06       -> steady at round 5 */
static void test_noisy_flat_steady(void **state)
{
    (void)state;
    static const double pat[5] = {100, 108, 93, 105, 97};
    double y[25];
    for (int i = 0; i < 25; i++)
        y[i] = pat[i % 5];
    struct steady_criteria c = STEADY_CRITERIA_SNIA;
    struct steady_window w;
    assert_int_equal(steady_first(y, 25, &c, &w), 5);
    assert_int_equal(w.first_round, 1);
    assert_int_equal(w.last_round, 5);
    ASSERT_NEAR(w.average, 100.6);
    ASSERT_NEAR(w.min, 93.0);
    ASSERT_NEAR(w.max, 108.0);
    ASSERT_NEAR(w.range, 15.0);
    ASSERT_NEAR(w.range_allowed, 20.12);
    ASSERT_NEAR(w.slope, -0.9);
    ASSERT_NEAR(w.intercept, 103.3);
    ASSERT_NEAR(w.slope_excursion, 3.6);
    ASSERT_NEAR(w.slope_excursion_allowed, 10.06);
    assert_true(w.steady);

    /* Every later window is a rotation of the same five values: avg 100.6, range 15.
     * Window 2..6 = 108, 93, 105, 97, 100: deviations 7.4,-7.6,4.4,-3.6,-0.6;
     * sxy = -14.8 + 7.6 + 0 - 3.6 - 1.2 = -12; k = -1.2; excursion 4.8 -> steady */
    assert_int_equal(steady_eval(y, 25, 6, &c, &w), 0);
    ASSERT_NEAR(w.slope, -1.2);
    ASSERT_NEAR(w.intercept, 100.6 + 1.2 * 4);
    assert_true(w.steady);
}

/* Range boundary: 90, 110, 100, 100, 100: avg 100, range 20 = exactly 20% -> steady (<=).
 *   sxy = -2*-10 + -1*10 = 10; k = 1; excursion 4 <= 10.
 * The same in decimals that are not exact in binary: 6.3, 7.7, 7, 7, 7: range 1.4 = 20% of
 * 7 in exact arithmetic, though 7.7 - 6.3 = 1.4000000000000004 > 0.2 * 7 in doubles: still
 * steady.  Just above: 90, 110.1, 100, 100, 100: avg 100.02, range 20.1 > 20.004 -> not. */
static void test_range_boundary(void **state)
{
    (void)state;
    struct steady_criteria c = STEADY_CRITERIA_SNIA;
    struct steady_window w;
    static const double exact[] = {90, 110, 100, 100, 100};
    assert_int_equal(steady_first(exact, 5, &c, &w), 5);
    ASSERT_NEAR(w.range, 20.0);
    ASSERT_NEAR(w.range_allowed, 20.0);
    ASSERT_NEAR(w.slope, 1.0);
    ASSERT_NEAR(w.slope_excursion, 4.0);
    assert_true(w.range_ok);
    assert_true(w.steady);

    static const double decimal[] = {6.3, 7.7, 7.0, 7.0, 7.0};
    assert_int_equal(steady_first(decimal, 5, &c, &w), 5);
    assert_true(w.range_ok);

    static const double above[] = {90, 110.1, 100, 100, 100};
    assert_int_equal(steady_first(above, 5, &c, &w), 0);
    ASSERT_NEAR(w.average, 100.02);
    ASSERT_NEAR(w.range, 20.1);
    ASSERT_NEAR(w.range_allowed, 20.004);
    assert_false(w.range_ok);
    assert_true(w.slope_ok);
    assert_false(w.steady);
}

/* Slope boundary: a straight line 100 + s*(x - 3) over rounds 1..5 has avg 100, k = s,
 * range = excursion = 4s.  s = 2.5: 95, 97.5, 100, 102.5, 105 -> excursion 10 = exactly 10%
 * -> steady (and range 10 <= 20).  s = 2.5025 -> excursion 10.01 (10.01%) -> not steady,
 * though the range (10.01) is fine.  Falling lines use |k|. */
static void test_slope_boundary(void **state)
{
    (void)state;
    struct steady_criteria c = STEADY_CRITERIA_SNIA;
    struct steady_window w;
    double y[5];

    for (int i = 0; i < 5; i++)
        y[i] = 100 + 2.5 * (i - 2);
    assert_int_equal(steady_first(y, 5, &c, &w), 5);
    ASSERT_NEAR(w.slope, 2.5);
    ASSERT_NEAR(w.intercept, 92.5);
    ASSERT_NEAR(w.slope_excursion, 10.0);
    ASSERT_NEAR(w.slope_excursion_allowed, 10.0);
    assert_true(w.slope_ok);

    for (int i = 0; i < 5; i++)
        y[i] = 100 - 2.5 * (i - 2);         /* falling: 105 .. 95 */
    assert_int_equal(steady_first(y, 5, &c, &w), 5);
    ASSERT_NEAR(w.slope, -2.5);
    ASSERT_NEAR(w.slope_excursion, 10.0);

    for (int i = 0; i < 5; i++)
        y[i] = 100 + 2.5025 * (i - 2);
    assert_int_equal(steady_first(y, 5, &c, &w), 0);
    ASSERT_NEAR(w.slope_excursion, 10.01);
    assert_true(w.range_ok);
    assert_false(w.slope_ok);
    assert_false(w.steady);

    for (int i = 0; i < 5; i++)
        y[i] = 100 - 2.5025 * (i - 2);
    assert_int_equal(steady_first(y, 5, &c, &w), 0);
    assert_false(w.slope_ok);
}

/* max_rounds limits the search.  Cliff series (a): with max_rounds 6 the steady window
 * (ending at 7) is never looked at.  A series rising 6%/round for 25 rounds and then flat
 * at 500 becomes steady at round 30 (window 26..30 all 500; window 25..29 =
 * 404.89, 500, 500, 500, 500 fails on slope: k = 19.02, excursion 76.1 > 48.1):
 * found with no limit (0) or a limit of 30, not with the SNIA 25 or 29. */
static void test_max_rounds(void **state)
{
    (void)state;
    struct steady_criteria c = STEADY_CRITERIA_SNIA;
    struct steady_window w;

    c.max_rounds = 6;
    assert_int_equal(steady_first(cliff, N(cliff), &c, &w), 0);
    assert_int_equal(w.last_round, 6);      /* the last window evaluated */
    assert_false(w.steady);
    c.max_rounds = 7;
    assert_int_equal(steady_first(cliff, N(cliff), &c, &w), 7);

    double y[40];
    y[0] = 100;
    for (int i = 1; i < 25; i++)
        y[i] = y[i - 1] * 1.06;
    for (int i = 25; i < 40; i++)
        y[i] = 500;
    c.max_rounds = 25;
    assert_int_equal(steady_first(y, 40, &c, &w), 0);
    assert_int_equal(w.last_round, 25);
    c.max_rounds = 29;
    assert_int_equal(steady_first(y, 40, &c, &w), 0);
    assert_int_equal(w.last_round, 29);
    /* window 25..29: y25 = 100 * 1.06^24 */
    double y25 = 100 * pow(1.06, 24), avg = (y25 + 2000) / 5;
    ASSERT_NEAR(w.average, avg);
    ASSERT_NEAR(w.slope, (-2 * (y25 - avg) + (-1 + 1 + 2) * (500 - avg)) / 10);
    assert_false(w.slope_ok);
    c.max_rounds = 30;
    assert_int_equal(steady_first(y, 40, &c, &w), 30);
    c.max_rounds = 0;                       /* no limit */
    assert_int_equal(steady_first(y, 40, &c, &w), 30);
    assert_int_equal(w.first_round, 26);
    ASSERT_NEAR(w.average, 500.0);
    ASSERT_NEAR(w.range, 0.0);
    ASSERT_NEAR(w.slope, 0.0);
    /* no limit but only 29 rounds run so far: not yet */
    assert_int_equal(steady_first(y, 29, &c, &w), 0);
}

static void test_too_few_rounds(void **state)
{
    (void)state;
    static const double flat[] = {100, 100, 100, 100, 100};
    struct steady_criteria c = STEADY_CRITERIA_SNIA;
    struct steady_window w;

    memset(&w, 0xff, sizeof(w));
    assert_int_equal(steady_first(flat, 4, &c, &w), 0);
    assert_false(w.steady);
    assert_int_equal(w.first_round, 0);
    assert_int_equal(w.last_round, 0);
    assert_true(w.average == 0.0);
    assert_int_equal(steady_first(flat, 0, &c, &w), 0);
    assert_false(w.steady);

    /* exactly 5 flat rounds: steady at 5, range and slope 0 */
    assert_int_equal(steady_first(flat, 5, &c, &w), 5);
    ASSERT_NEAR(w.range, 0.0);
    ASSERT_NEAR(w.slope, 0.0);
    ASSERT_NEAR(w.intercept, 100.0);

    /* steady_eval: a window that does not fit is -1 */
    assert_int_equal(steady_eval(flat, 5, 4, &c, &w), -1);
    assert_int_equal(steady_eval(flat, 5, 0, &c, &w), -1);
    assert_int_equal(steady_eval(flat, 5, 6, &c, &w), -1);
    assert_int_equal(steady_eval(flat, 4, 5, &c, &w), -1);
    assert_int_equal(steady_eval(flat, 5, 5, &c, &w), 0);
}

/* Non-SNIA criteria: window 3, 10% range, 5% slope.
 * y = 100, 120, 100, 104, 100: window 1..3 range 20 > 10.67; 2..4 range 20 > 10.8;
 * window 3..5 = 100, 104, 100: avg 101.333.., range 4 <= 10.133..; k = (-1*-1.333 + 1*-1.333)/2
 * = 0, excursion 0 -> steady at round 5. */
static void test_custom_criteria(void **state)
{
    (void)state;
    static const double y[] = {100, 120, 100, 104, 100};
    struct steady_criteria c = {3, 0.10, 0.05, 0};
    struct steady_window w;
    assert_int_equal(steady_first(y, 5, &c, &w), 5);
    assert_int_equal(w.first_round, 3);
    ASSERT_NEAR(w.average, 304.0 / 3);
    ASSERT_NEAR(w.range_allowed, 30.4 / 3);
    ASSERT_NEAR(w.slope, 0.0);
    ASSERT_NEAR(w.slope_excursion, 0.0);
    ASSERT_NEAR(w.slope_excursion_allowed, 15.2 / 3);
    assert_int_equal(steady_eval(y, 5, 3, &c, &w), 0);
    assert_false(w.steady);
}

/* steady_fit:
 * x = 1..5, y = 2, 4, 5, 4, 5: xm 3, ym 4; sxy = -2*-2 + -1*0 + 0 + 1*0 + 2*1 = 6, sxx = 10
 *   -> slope 0.6, intercept 4 - 0.6*3 = 2.2.
 * x = 0, 1, 3, 6, y = 1, 3, 7, 13: on the line y = 2x + 1 -> slope 2, intercept 1.
 * x = 2, 4, 6, 8, y = 10, 6, 8, 0: xm 5, ym 6; dx -3,-1,1,3; dy 4,0,2,-6;
 *   sxy = -12 + 0 + 2 - 18 = -28; sxx = 9+1+1+9 = 20 -> slope -1.4, intercept 6 + 7 = 13.
 * n = 1: slope 0, intercept y[0].  All x equal: slope 0, intercept mean(y). */
static void test_fit(void **state)
{
    (void)state;
    double k, d;
    static const double x1[] = {1, 2, 3, 4, 5}, y1[] = {2, 4, 5, 4, 5};
    steady_fit(x1, y1, 5, &k, &d);
    ASSERT_NEAR(k, 0.6);
    ASSERT_NEAR(d, 2.2);

    static const double x2[] = {0, 1, 3, 6}, y2[] = {1, 3, 7, 13};
    steady_fit(x2, y2, 4, &k, &d);
    ASSERT_NEAR(k, 2.0);
    ASSERT_NEAR(d, 1.0);

    static const double x3[] = {2, 4, 6, 8}, y3[] = {10, 6, 8, 0};
    steady_fit(x3, y3, 4, &k, &d);
    ASSERT_NEAR(k, -1.4);
    ASSERT_NEAR(d, 13.0);

    static const double x4[] = {7}, y4[] = {42};
    steady_fit(x4, y4, 1, &k, &d);
    ASSERT_NEAR(k, 0.0);
    ASSERT_NEAR(d, 42.0);

    static const double x5[] = {3, 3, 3}, y5[] = {1, 2, 6};
    steady_fit(x5, y5, 3, &k, &d);
    ASSERT_NEAR(k, 0.0);
    ASSERT_NEAR(d, 3.0);

    /* steady_eval's fit agrees with steady_fit on the same window (cliff rounds 3..7) */
    static const double xr[] = {3, 4, 5, 6, 7};
    steady_fit(xr, cliff + 2, 5, &k, &d);
    ASSERT_NEAR(k, -1.2);
    ASSERT_NEAR(d, 106.0);
}

/* PTS 2.0 IOPS: three tracking variables; steady only at the first round where all three
 * windows pass. a is steady from round 5, b from round 7, c from round 9: the answer is 9. */
static void test_all_three_tracking_variables(void **state)
{
    (void)state;
    /* a: flat 100 from the start (steady at 5) */
    double a[12] = {100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100};
    /* b: settles at round 3 -> window 3..7 first steady */
    double b[12] = {400, 200, 50, 50, 50, 50, 50, 50, 50, 50, 50, 50};
    /* c: settles at round 5 -> window 5..9 first steady */
    double c[12] = {900, 800, 700, 600, 10, 10, 10, 10, 10, 10, 10, 10};
    const double *ys[3] = {a, b, c};
    struct steady_criteria cr = STEADY_CRITERIA_SNIA;
    struct steady_window w[3];
    assert_int_equal(steady_first_all(ys, 1, 12, &cr, w), 5);
    const double *ab[2] = {a, b};
    assert_int_equal(steady_first_all(ab, 2, 12, &cr, w), 7);
    assert_int_equal(steady_first_all(ys, 3, 12, &cr, w), 9);
    for (int v = 0; v < 3; v++) {
        assert_true(w[v].steady);
        assert_int_equal(w[v].first_round, 5);
        assert_int_equal(w[v].last_round, 9);
    }
    assert_true(w[1].average == 50 && w[2].average == 10);
    /* not enough rounds for c yet: 0, and the windows are the last ones evaluated */
    assert_int_equal(steady_first_all(ys, 3, 8, &cr, w), 0);
    assert_int_equal(w[2].last_round, 8);
    assert_false(w[2].steady);
    assert_true(w[0].steady);
    /* the round limit applies to all */
    cr.max_rounds = 8;
    assert_int_equal(steady_first_all(ys, 3, 12, &cr, w), 0);
    /* fewer rounds than the window */
    cr = STEADY_CRITERIA_SNIA;
    assert_int_equal(steady_first_all(ys, 3, 4, &cr, w), 0);
    assert_int_equal(w[0].last_round, 0);
}

/* A variable stuck at zero (nothing completed): range 0 <= 0.2 * 0 and slope 0 <= 0 would pass
 * the limits, but a window averaging 0 is a failure, never steady. Also a negative average. */
static void test_zero_average_never_steady(void **state)
{
    (void)state;
    static const double zero[] = {0, 0, 0, 0, 0, 0};
    struct steady_criteria c = STEADY_CRITERIA_SNIA;
    struct steady_window w;
    assert_int_equal(steady_eval(zero, N(zero), 5, &c, &w), 0);
    ASSERT_NEAR(w.average, 0.0);
    assert_false(w.range_ok);
    assert_false(w.slope_ok);
    assert_false(w.steady);
    assert_int_equal(steady_first(zero, N(zero), &c, &w), 0);
    static const double neg[] = {-5, -5, -5, -5, -5};
    assert_int_equal(steady_eval(neg, N(neg), 5, &c, &w), 0);
    assert_false(w.steady);
}

/* The fill guard on hand-made series of 15 rounds, each writing 0.1 fill of the active range
 * (fills at the end of round r = 0.1 r). The window is rounds 11-15; it began after 1.0 fill
 * (the end of round 10), so the guard is evaluated; one fill before it is fill 0.0, so every
 * 5-round average ending at rounds 5..15 (11 of them) is checked against the window's. */
static const double fills15[] = {0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0,
                                 1.1, 1.2, 1.3, 1.4, 1.5};

static void eval_window_11_15(const double *y, struct steady_window *w,
                              struct steady_guard_result *gr)
{
    struct steady_criteria c = STEADY_CRITERIA_SNIA;
    struct steady_guard g = STEADY_GUARD_DEFAULT;
    assert_int_equal(steady_eval(y, 15, 15, &c, w), 0);
    assert_int_equal(w->first_round, 11);
    assert_int_equal(steady_guard_eval(y, fills15, 15, w, &c, &g, gr), 0);
}

/* Flat at 100 but round 6 at 110: the averages of rounds 2-6 .. 6-10 are (4*100+110)/5 = 102,
 * 2% from the window's 100 (<= 5%): passed, max deviation 0.02 first at round 6. With round 6
 * at 130 they are 106: 6% > 5%: failed. */
static void test_guard_band(void **state)
{
    (void)state;
    double y[15];
    for (int i = 0; i < 15; i++)
        y[i] = 100;
    y[5] = 110;
    struct steady_window w;
    struct steady_guard_result gr;
    eval_window_11_15(y, &w, &gr);
    assert_true(w.steady);
    assert_true(gr.evaluated);
    assert_true(gr.passed);
    ASSERT_NEAR(gr.fills_before, 1.0);
    assert_int_equal(gr.span_first_round, 1);
    assert_int_equal(gr.span_last_round, 15);
    ASSERT_NEAR(gr.max_deviation, 0.02);
    assert_int_equal(gr.worst_round, 6);
    y[5] = 130;
    eval_window_11_15(y, &w, &gr);
    assert_true(w.steady);        /* the 5-round rule alone passes */
    assert_true(gr.evaluated);
    assert_false(gr.passed);      /* the fill before it does not */
    ASSERT_NEAR(gr.max_deviation, 0.06);
}

/* After a sequential fill the simulated R4's random-write IOPS fall, recover and fall again with
 * a period of about one fill. A flat window at the second trough (rounds 11-15, ~20) compared
 * with the single span one fill earlier (rounds 1-5 would be 100, but a span at the first trough,
 * rounds 4-6, is ~21) can look settled; every 5-round average across the fill cannot: the one
 * ending at round 10 is (22+40+70+100+100)/5 = 66.4, 229% above the window's 20.14. */
static void test_guard_one_fill_oscillation(void **state)
{
    (void)state;
    const double y[15] = {100, 100, 100, 20, 21, 22, 40, 70, 100, 100,
                          20, 20.4, 20.2, 20, 20.1};
    struct steady_window w;
    struct steady_guard_result gr;
    eval_window_11_15(y, &w, &gr);
    assert_true(w.steady);
    ASSERT_NEAR(w.average, 20.14);
    assert_true(gr.evaluated);
    assert_false(gr.passed);
    assert_true(gr.max_deviation > 2.0);
    /* no window of this series is steady with the guard */
    struct steady_criteria c = STEADY_CRITERIA_SNIA;
    struct steady_guard g = STEADY_GUARD_DEFAULT;
    struct steady_window win;
    struct steady_guard_result r;
    assert_int_equal(steady_first_guarded(y, fills15, 15, 1, &c, &g, &win, &r), 0);
    /* without it the rule accepts the first trough (rounds 4-8 is not flat; the window
     * 11-15 is; steady_first finds the earliest: 11..15, round 15) */
    assert_int_equal(steady_first(y, 15, &c, &win), 15);
}

/* Too little written before the window: not evaluated, not passed, whatever the values. */
static void test_guard_needs_a_fill(void **state)
{
    (void)state;
    const double y[6] = {50, 50, 50, 50, 50, 50};
    const double f[6] = {0.1, 0.2, 0.3, 0.4, 0.5, 0.6};
    struct steady_criteria c = STEADY_CRITERIA_SNIA;
    struct steady_guard g = STEADY_GUARD_DEFAULT;
    struct steady_window w;
    struct steady_guard_result gr;
    assert_int_equal(steady_eval(y, 6, 6, &c, &w), 0);
    assert_int_equal(steady_guard_eval(y, f, 6, &w, &c, &g, &gr), 0);
    assert_true(w.steady);
    assert_false(gr.evaluated);
    assert_false(gr.passed);
    ASSERT_NEAR(gr.fills_before, 0.1);
    assert_int_equal(steady_first_guarded(y, f, 6, 1, &c, &g, &w, &gr), 0);
    assert_int_equal(steady_first_guarded(y, f, 6, 1, &c, NULL, &w, &gr), 5);
    /* first_eligible: no window may start before round 2 */
    assert_int_equal(steady_first_guarded(y, f, 6, 6, &c, NULL, &w, &gr), 6);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_all_three_tracking_variables),
        cmocka_unit_test(test_cliff_settles_at_round_7),
        cmocka_unit_test(test_rising_never_steady),
        cmocka_unit_test(test_noisy_flat_steady),
        cmocka_unit_test(test_range_boundary),
        cmocka_unit_test(test_slope_boundary),
        cmocka_unit_test(test_max_rounds),
        cmocka_unit_test(test_too_few_rounds),
        cmocka_unit_test(test_custom_criteria),
        cmocka_unit_test(test_fit),
        cmocka_unit_test(test_zero_average_never_steady),
        cmocka_unit_test(test_guard_band),
        cmocka_unit_test(test_guard_one_fill_oscillation),
        cmocka_unit_test(test_guard_needs_a_fill),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
