/* test_saturation.c — the saturation point of a queue-depth ramp. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "stats/saturation.h"

/* A ramp that rises and flattens: 95% of the maximum 300K is 285K, first reached at 32. */
static void test_ramp_flattens(void **state)
{
    (void)state;
    const struct saturation_point pts[] = {
        {4, 60000, 66, 120},     {8, 115000, 70, 130},    {16, 210000, 76, 150},
        {32, 290000, 110, 300},  {64, 300000, 213, 600},  {128, 298000, 430, 1200},
    };
    struct saturation s;
    assert_int_equal(saturation_find(pts, 6, SATURATION_FRAC, &s), 0);
    assert_true(s.found);
    assert_int_equal(s.index, 3);
    assert_int_equal(s.max_index, 4);
    assert_true(s.eqd == 32);
    assert_true(s.max_iops == 300000);
    assert_true(s.threshold == 285000);
    assert_true(s.lat_mean_us == 110);
    assert_true(s.lat_p99_us == 300);
}

/* Unsorted input, and a point just below the threshold does not count. */
static void test_unsorted_and_threshold(void **state)
{
    (void)state;
    const struct saturation_point pts[] = {
        {64, 100, 1, 1}, {1, 10, 1, 1}, {16, 94.9, 1, 1}, {32, 95, 2, 2}, {8, 50, 1, 1},
    };
    struct saturation s;
    assert_int_equal(saturation_find(pts, 5, 0.95, &s), 0);
    assert_true(s.found);
    assert_int_equal(s.index, 3);
    assert_true(s.eqd == 32);
    /* frac 1: the maximum itself */
    assert_int_equal(saturation_find(pts, 5, 1.0, &s), 0);
    assert_int_equal(s.index, 0);
}

/* The same effective QD twice (1 worker x QD 4 and 4 workers x QD 1): the better one. */
static void test_tie_on_eqd(void **state)
{
    (void)state;
    const struct saturation_point pts[] = {
        {4, 96, 40, 80}, {4, 99, 30, 60}, {16, 100, 100, 200},
    };
    struct saturation s;
    assert_int_equal(saturation_find(pts, 3, 0.95, &s), 0);
    assert_int_equal(s.index, 1);
    assert_true(s.lat_mean_us == 30);
}

/* A flat ramp saturates at its first point; a falling one too. */
static void test_flat_and_falling(void **state)
{
    (void)state;
    const struct saturation_point flat[] = {{1, 1000, 5, 9}, {2, 1001, 9, 17}, {4, 999, 17, 33}};
    struct saturation s;
    assert_int_equal(saturation_find(flat, 3, 0.95, &s), 0);
    assert_int_equal(s.index, 0);
    const struct saturation_point fall[] = {{1, 1000, 5, 9}, {2, 800, 9, 17}};
    assert_int_equal(saturation_find(fall, 2, 0.95, &s), 0);
    assert_int_equal(s.index, 0);
}

static void test_degenerate(void **state)
{
    (void)state;
    struct saturation s;
    const struct saturation_point one[] = {{1, 1000, 5, 9}};
    assert_int_equal(saturation_find(one, 1, 0.95, &s), 0);
    assert_false(s.found);
    const struct saturation_point zero[] = {{1, 0, 0, 0}, {2, 0, 0, 0}};
    assert_int_equal(saturation_find(zero, 2, 0.95, &s), 0);
    assert_false(s.found);
    assert_int_equal(saturation_find(one, 1, 0.0, &s), -1);
    assert_int_equal(saturation_find(one, 1, 1.5, &s), -1);
    assert_int_equal(saturation_find(NULL, 3, 0.95, &s), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ramp_flattens),
        cmocka_unit_test(test_unsorted_and_threshold),
        cmocka_unit_test(test_tie_on_eqd),
        cmocka_unit_test(test_flat_and_falling),
        cmocka_unit_test(test_degenerate),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
