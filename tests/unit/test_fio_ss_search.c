/* test_fio_ss_search.c — the pure parts of fio's steady state and latency target:
 *   - fio_ss_eval: fio's deviation and slope criteria over a sliding window of samples (the
 *     first window below the limit; a % limit of the mean; never on too few samples);
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ss_deviation),
        cmocka_unit_test(test_ss_slope),
        cmocka_unit_test(test_search),
        cmocka_unit_test(test_search_strict),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
