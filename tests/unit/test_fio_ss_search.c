/* test_fio_ss_search.c — the pure parts of fio's steady state and latency target:
 *   - fio_ss_eval: fio's deviation and slope criteria over a sliding window of samples (the
 *     first window below the limit; a % limit of the mean; never on too few samples);
 *   - fio_ss_run_eval on ss=lat: the samples' mean latency per ss_interval weighted by each
 *     sample's I/Os, across rounds; an interval without a completion is 0 (fio's); runs whose
 *     samples hold no latency are not evaluated;
 *   - lat_search: fio's depth search (doubling, bisecting, settling; one miss at 100 % fails
 *     the window at once; completions of I/Os issued before a window ignored; depth 1 kept). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "core/fio_ss.h"
#include "core/lat_target.h"

static void test_ss_deviation(void **state)
{
    (void)state;
    struct wl_ss ss = {.metric = WL_SS_IOPS, .pct = true, .limit = 2, .dur_ns = 3000000000ull};
    const double y[] = {100, 150, 80, 100, 101, 99, 100};
    struct fio_ss_result r;
    fio_ss_eval(&ss, y, 7, 1.0, &r);
    assert_true(r.evaluated && r.attained);
    assert_int_equal(r.sample, 6);   /* 100, 101, 99: within 1% of 100 */
    assert_true(fabs(r.at_s - 6) < 1e-9);
    assert_true(r.criterion < 2);
    fio_ss_eval(&ss, y, 2, 1.0, &r);   /* fewer samples than the window */
    assert_false(r.evaluated);
    ss.pct = false;
    ss.limit = 0.5;                    /* absolute: within 0.5 IOPS */
    fio_ss_eval(&ss, y, 7, 1.0, &r);
    assert_false(r.attained);
}

static void test_ss_slope(void **state)
{
    (void)state;
    struct wl_ss ss = {.metric = WL_SS_BW, .slope = true, .pct = true, .limit = 1,
                       .dur_ns = 4000000000ull};
    const double y[] = {100, 110, 120, 130, 131, 131, 132, 132};
    struct fio_ss_result r;
    fio_ss_eval(&ss, y, 8, 1.0, &r);
    assert_true(r.attained);
    assert_int_equal(r.sample, 7);   /* 130..132: slope 0.6 per sample of a mean 131: 0.46% */
    ss.limit = 0.1;
    fio_ss_eval(&ss, y, 8, 1.0, &r);
    assert_false(r.attained);
    assert_int_equal(r.windows, 5);
}

/* A window of n I/Os of latency lat each, starting at t; returns the window's end. */
static uint64_t window(struct lat_search *s, uint64_t t, unsigned n, uint64_t lat)
{
    for (unsigned i = 0; i < n; i++)
        lat_search_complete(s, t + i, t + i + lat);
    t += 1000;
    lat_search_check(s, t);
    return t + 1;
}

static void test_search(void **state)
{
    (void)state;
    struct wl_lat_target lt = {.target_ns = 100, .window_ns = 1000, .percentile = 90};
    struct lat_search s;
    lat_search_init(&s, &lt, 64, 1, 0);
    assert_int_equal(lat_search_depth(&s), 1);
    uint64_t t = 1;
    /* latency below the target up to depth 8: 1 -> 2 -> 4 -> 8 -> 16 (fails) -> 12 ... */
    for (int i = 0; i < 40 && !s.settled; i++)
        t = window(&s, t, 100, lat_search_depth(&s) <= 8 ? 50 : 500);
    assert_true(s.settled);
    assert_int_equal(lat_search_depth(&s), 8);
    /* settled: the depth stays, the windows are still judged */
    lat_search_round_begin(&s);
    t = window(&s, t, 100, 500);
    assert_int_equal(lat_search_depth(&s), 8);
    assert_int_equal(s.windows, 1);
    assert_false(s.last_held);
}

static void test_search_strict(void **state)
{
    (void)state;
    struct wl_lat_target lt = {.target_ns = 100, .window_ns = 1000000};
    struct lat_search s;
    lat_search_init(&s, &lt, 32, 1, 0);
    s.qd = 4;   /* as after two good windows */
    s.low = 2;
    lat_search_complete(&s, 10, 500);   /* at 100 %: one miss fails the window at once */
    assert_int_equal(lat_search_depth(&s), 3);
    lat_search_complete(&s, 20, 900);   /* issued before the new window: ignored */
    assert_int_equal(lat_search_depth(&s), 3);
    lat_search_init(&s, &lt, 32, 1, 0);
    lat_search_complete(&s, 10, 500);   /* depth 1 misses: stays 1, not held */
    assert_int_equal(lat_search_depth(&s), 1);
    assert_false(s.last_held);
    struct lat_round r;
    lat_round_add(&r, &s, true);
    assert_true(r.present && r.depth == 1 && !r.last_held);
}

static void test_ss_lat_series(void **state)
{
    (void)state;
    /* two rounds of two 1-second samples; ss_interval 2 s: (10 x 100 + 20 x 300) / 400 = 17.5
     * from round 1, 30 from round 2 (its first second completed nothing) */
    double lat1[] = {10, 20}, iops1[] = {100, 300}, lat2[] = {NAN, 30}, iops2[] = {0, 100};
    struct round_metrics rounds[2];
    memset(rounds, 0, sizeof(rounds));
    rounds[0].round = 1;
    rounds[0].samples = (struct sample_series){.n = 2, .interval_s = 1, .iops = iops1,
                                               .lat_mean_us = lat1};
    rounds[1].round = 2;
    rounds[1].samples = (struct sample_series){.n = 2, .interval_s = 1, .iops = iops2,
                                               .lat_mean_us = lat2};
    static struct run_record rec;   /* large: not on the stack */
    memset(&rec, 0, sizeof(rec));
    rec.rounds = rounds;
    rec.n_rounds = 2;
    rec.wl.ss = (struct wl_ss){.metric = WL_SS_LAT, .pct = true, .limit = 30,
                               .dur_ns = 4000000000ull, .interval_ns = 2000000000ull};
    struct fio_ss_result r;
    fio_ss_run_eval(&rec, &r);
    /* 2 values, window 2: deviation 6.25 of the mean 23.75 = 26.3% < 30% */
    assert_true(r.evaluated);
    assert_true(r.attained);
    assert_int_equal(r.sample, 2);   /* the round it fell in */
    assert_true(fabs(r.criterion - 100.0 * 6.25 / 23.75) < 1e-9);
    rec.wl.ss.limit = 20;
    fio_ss_run_eval(&rec, &r);
    assert_true(r.evaluated);
    assert_false(r.attained);
    /* an interval with no completion at all is 0, as in fio: 1 s intervals, [10 20 0 30] */
    rec.wl.ss.interval_ns = 1000000000ull;
    rec.wl.ss.limit = 1000;
    fio_ss_run_eval(&rec, &r);
    assert_true(r.attained);
    assert_true(fabs(r.criterion - 100.0) < 1e-9);   /* [10 20 0 30]: 15 off the mean 15 */
    /* samples without latency (an engine that measured none): not evaluated */
    rounds[0].samples.lat_mean_us = NULL;
    rounds[1].samples.lat_mean_us = NULL;
    fio_ss_run_eval(&rec, &r);
    assert_false(r.evaluated);
    assert_true(r.no_latency);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ss_deviation),
        cmocka_unit_test(test_ss_slope),
        cmocka_unit_test(test_ss_lat_series),
        cmocka_unit_test(test_search),
        cmocka_unit_test(test_search_strict),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
