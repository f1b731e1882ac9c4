/* test_estimate.c — the plan's estimates against what each test kind ran, on the simulated
 * drives zdrive-6300-1.6t and zdrive-r4-cm88-1.6t (virtual time: deterministic). Every test
 * records estimate_s (the bound), estimate_likely_s, measuring_s, drain_s (after the elements'
 * ends, their in-flight I/O completing) and loop_s (measuring_s - drain_s); for every kind the
 * bound is at least loop_s. Where the test's length is fixed by its definition (XSR; HIR, DIRTH
 * and CBW with their steady-state phases capped at or below round 5; IOPS, TP and LAT capped at
 * round 5) the likely estimate is within 20% of loop_s (the model being exact, within 1%).
 * Where steady state is judged, loop_s is the rounds run x the round's elements (the model of
 * a round is exact), and the likely estimate (round 5, the earliest the window allows) is at
 * most loop_s. WSAT stops at a capacity whose time depends on the drive's write rate: only its
 * bound is checked. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"

static char *dir;
static const char *const presets[] = {"zdrive-6300-1.6t", "zdrive-r4-cm88-1.6t"};

static int setup(void **state)
{
    (void)state;
    dir = make_temp_dir("estimate");
    return dir ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    remove_tree(dir);
    free(dir);
    return 0;
}

/* run-test NAME on sim:PRESET with the extra arguments; the test's record (doc in *doc). */
static struct json_object *run_kind(const char *name, const char *preset, char **extra,
                                    struct json_object **doc)
{
    static int seq;
    char out[512], tgt[96];
    snprintf(out, sizeof(out), "%s/%s-%d", dir, name, ++seq);
    snprintf(tgt, sizeof(tgt), "sim:%s", preset);
    char *argv[32];
    int i = 0;
    argv[i++] = "ptsbench";
    argv[i++] = "run-test";
    argv[i++] = (char *)name;
    argv[i++] = "--target";
    argv[i++] = tgt;
    argv[i++] = "--quiet";
    argv[i++] = "--out";
    argv[i++] = out;
    for (int k = 0; extra[k]; k++)
        argv[i++] = extra[k];
    argv[i] = NULL;
    *doc = ptsbench_results(argv, out, 0, NULL);
    assert_non_null(*doc);
    struct json_object *t = json_object_array_get_idx(json_at(*doc, "tests"), 0);
    assert_non_null(t);
    assert_string_equal(json_object_get_string(json_at(t, "status")), "complete");
    return t;
}

struct est {
    double bound, likely, measuring, drain, loop;
};

static struct est figures(struct json_object *t, const char *what)
{
    struct est e = {json_num(t, "estimate_s"), json_num(t, "estimate_likely_s"),
                    json_num(t, "measuring_s"), json_num(t, "drain_s"), json_num(t, "loop_s")};
    print_message("%-28s loop %9.2f s (measuring %9.2f, drain %8.2f) likely %9.2f bound %9.2f\n",
                  what, e.loop, e.measuring, e.drain, e.likely, e.bound);
    assert_true(isfinite(e.loop) && e.loop > 0);
    assert_true(e.drain >= 0);
    assert_true(fabs(e.measuring - e.drain - e.loop) < 1e-6 * e.measuring + 1e-6);
    assert_true(e.bound >= e.loop * (1 - 1e-9));     /* the bound never below the measured */
    assert_true(e.likely <= e.bound);
    return e;
}

static void within(double est, double measured, double frac)
{
    if (!(fabs(est - measured) <= frac * measured))
        fail_msg("estimate %.3f s not within %.0f%% of the measured %.3f s", est, 100 * frac,
                 measured);
}

/* The standard tests' elements run in a subtest's rounds. */
static unsigned rounds_run(struct json_object *t, unsigned *elements)
{
    struct json_object *subs = json_at(t, "subtests");
    unsigned n = 0;
    *elements = 0;
    for (size_t k = 0; k < json_object_array_length(subs); k++) {
        struct json_object *rs = json_at(json_object_array_get_idx(subs, k), "rounds");
        n += (unsigned)json_object_array_length(rs);
        for (size_t r = 0; r < json_object_array_length(rs); r++)
            *elements += (unsigned)json_object_array_length(
                json_at(json_object_array_get_idx(rs, r), "elements"));
    }
    return n;
}

/* IOPS, TP, LAT capped at round 5: 5 rounds (or the steady round, 5 at the earliest) of the
 * round's elements; likely exact. With a cap of 8: rounds x elements, likely <= it. */
static void test_standard(void **state)
{
    (void)state;
    const char *names[] = {"iops", "tp", "lat"};
    for (size_t p = 0; p < 2; p++)
        for (size_t n = 0; n < 3; n++) {
            char what[64];
            struct json_object *doc;
            char *five[] = {"--round-time", "200ms", "--max-rounds", "5", NULL};
            snprintf(what, sizeof(what), "%s %s max 5", names[n], presets[p]);
            struct json_object *t = run_kind(names[n], presets[p], five, &doc);
            struct est e = figures(t, what);
            unsigned els;
            const unsigned rounds = rounds_run(t, &els);
            assert_int_equal(rounds % 5, 0);   /* each subtest: 5 rounds */
            within(e.loop, els * 0.2, 1e-6);   /* the elements' time, drains apart */
            within(e.likely, e.loop, 0.01);
            json_object_put(doc);
            if (n == 1)
                continue;   /* TP: two block-size subtests, the same model */
            char *eight[] = {"--round-time", "200ms", "--max-rounds", "8", NULL};
            snprintf(what, sizeof(what), "%s %s max 8", names[n], presets[p]);
            t = run_kind(names[n], presets[p], eight, &doc);
            e = figures(t, what);
            const unsigned r8 = rounds_run(t, &els);
            assert_true(r8 >= 5 && r8 <= 8);
            within(e.loop, els * 0.2, 1e-6);
            assert_true(e.likely <= e.loop * (1 + 1e-9));
            within(e.likely * r8 / 5.0, e.loop, 0.01);   /* a round is as modelled */
            json_object_put(doc);
        }
}

/* XSR, HIR, DIRTH, CBW with their steady-state phases at most 5 rounds: fixed lengths. */
static void test_fixed(void **state)
{
    (void)state;
    for (size_t p = 0; p < 2; p++) {
        struct {
            const char *name;
            char *args[8];
        } runs[] = {
            {"xsr", {"--time-scale", "0.0005", "--round-time", "1s", NULL}},
            {"hir", {"--time-scale", "0.002", "--max-rounds", "3", NULL}},
            {"dirth", {"--time-scale", "0.002", "--max-rounds", "2", NULL}},
            {"cbw", {"--time-scale", "0.002", "--max-rounds", "2", NULL}},
        };
        for (size_t k = 0; k < sizeof(runs) / sizeof(runs[0]); k++) {
            char what[64];
            snprintf(what, sizeof(what), "%s %s", runs[k].name, presets[p]);
            struct json_object *doc;
            struct json_object *t = run_kind(runs[k].name, presets[p], runs[k].args, &doc);
            struct est e = figures(t, what);
            within(e.likely, e.loop, 0.20);
            within(e.likely, e.loop, 0.01);   /* in fact exact */
            json_object_put(doc);
        }
    }
}

/* WSAT stops at 0.05x the capacity here, long before its time limit: the bound holds; how long
 * the capacity takes is the drive's write rate, not the definition's. */
static void test_wsat(void **state)
{
    (void)state;
    for (size_t p = 0; p < 2; p++) {
        char what[64];
        snprintf(what, sizeof(what), "wsat %s", presets[p]);
        char *args[] = {"--time-scale", "0.01", "--round-time", "1s", "--wsat-capacity", "0.05",
                        NULL};
        struct json_object *doc;
        struct json_object *t = run_kind("wsat", presets[p], args, &doc);
        struct est e = figures(t, what);
        unsigned els;
        rounds_run(t, &els);
        within(e.loop, els * 1.0, 1e-6);
        assert_true(e.loop < e.bound);
        json_object_put(doc);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_standard),
        cmocka_unit_test(test_fixed),
        cmocka_unit_test(test_wsat),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
