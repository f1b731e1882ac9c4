/* test_fast_unify.c — one fast-pass hand-off for run, profile and the PTS tests (issue 48,
 * core/fastprep.h fastprep_run):
 *   - fastprep_wdpc_floor: the guard's shorter lag replaces WDPC's floor only when the user did
 *     not give it;
 *   - run: a sequential stimulus keeps the guard's lag of 1 fill (fastprep_models);
 *   - report: the pass's unit as recorded (8 KiB), not always 4 KiB;
 *   - run: an explicit `--wdpc-fills 1` (the default's value) is kept after the fast pass (the
 *     code before lowered it to the lag, as it lowered the default);
 *   - profile: the pass in the stimulus's write size (8 KiB), on max(workers, 4) threads, the
 *     stimulus without a random map, WDPC's floor the guard's lag (0.5), all recorded;
 *   - run-test wsat: the pass in 4 KiB units, said why, the stimulus without a random map.
 * On the code before this change profile and PTS wrote 4 KiB units without these record fields,
 * and run lowered the given floor: every case but the first fails there. A small simulated
 * drive, short rounds: a few seconds. */
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

#include "core/fastprep.h"
#include "helpers.h"

#define TARGET "sim:generic-mlc25,blocks_per_plane=16"
#define MAP_OFF "off after the fast pass (docs/fast-precondition.md §4)"

static char *dir;

static int setup(void **state)
{
    (void)state;
    dir = make_temp_dir("fastunify");
    return dir ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    remove_tree(dir);
    free(dir);
    return 0;
}

static const char *str_at(struct json_object *o, const char *dotted)
{
    struct json_object *v = json_at(o, dotted);
    assert_non_null(v);
    return json_object_get_string(v);
}

static void test_floor_rule(void **state)
{
    (void)state;
    assert_true(fastprep_wdpc_floor(0.5, 1.0, false) == 0.5);   /* the default: the lag */
    assert_true(fastprep_wdpc_floor(0.5, 1.0, true) == 1.0);    /* given: kept */
    assert_true(fastprep_wdpc_floor(0.5, 0.05, false) == 0.05); /* already under the lag */
    assert_true(fastprep_wdpc_floor(1.0, 1.0, false) == 1.0);   /* no shorter lag */
}

/* run: --wdpc-fills 1 given explicitly stays 1 after a checked pass (lag 0.5). */
static void test_run_given_floor_kept(void **state)
{
    (void)state;
    char out[512];
    snprintf(out, sizeof(out), "%s/given", dir);
    char *argv[] = {"ptsbench", "run", "--target", TARGET, "--workload",
                    "rw=randwrite,bs=4k,qd=32,workers=2", "--purge", "auto", "--precondition",
                    "fast", "--wdpc-fills", "1", "--wdpc-max-fills", "1.2", "--rounds", "2",
                    "--round-time", "2s", "--quiet", "--out", out, NULL};
    struct json_object *doc = ptsbench_results(argv, out, 0, NULL);
    assert_non_null(doc);
    printf("  given: lag %g, WDPC min %g, %g fills\n",
           json_num(doc, "steady_state.guard.lag_fills"),
           json_num(doc, "preconditioning.wdpc.min_fills"),
           json_num(doc, "preconditioning.wdpc.fills"));
    assert_true(json_num(doc, "steady_state.guard.lag_fills") == 0.5);
    assert_true(json_num(doc, "preconditioning.wdpc.min_fills") == 1.0);
    assert_null(json_at(doc, "preconditioning.fast.wdpc_min_fills"));
    assert_true(json_num(doc, "preconditioning.wdpc.fills") >= 1.0);
    json_object_put(doc);
}

/* run: a sequential write stimulus after the pass keeps the guard's whole fill (the pass models
 * random writes: fastprep_models), and WDPC's floor stays 1; the code before shortened the lag
 * for any stimulus. */
static void test_run_sequential_keeps_lag(void **state)
{
    (void)state;
    char out[512];
    snprintf(out, sizeof(out), "%s/seq", dir);
    char *argv[] = {"ptsbench", "run", "--target", TARGET, "--workload",
                    "rw=write,bs=128k,qd=32,workers=1", "--purge", "auto", "--precondition",
                    "fast", "--wdpc-max-fills", "1.2", "--rounds", "2", "--round-time", "2s",
                    "--quiet", "--out", out, NULL};
    struct json_object *doc = ptsbench_results(argv, out, 0, NULL);
    assert_non_null(doc);
    printf("  sequential: lag %g, WDPC min %g\n", json_num(doc, "steady_state.guard.lag_fills"),
           json_num(doc, "preconditioning.wdpc.min_fills"));
    assert_true(json_num(doc, "steady_state.guard.lag_fills") == 1.0);
    assert_true(json_num(doc, "preconditioning.wdpc.min_fills") == 1.0);
    assert_null(json_at(doc, "preconditioning.fast.wdpc_min_fills"));
    json_object_put(doc);
}

/* run: a pass in 8 KiB units is reported as one ("fills of 8 KiB writes"), not the 4 KiB the
 * report said before the unit was recorded. */
static void test_report_says_the_unit(void **state)
{
    (void)state;
    char out[512], rep[600], md[640];
    snprintf(out, sizeof(out), "%s/unit8k", dir);
    char *argv[] = {"ptsbench", "run", "--target", TARGET, "--workload",
                    "rw=randwrite,bs=8k,qd=32,workers=2", "--purge", "auto", "--precondition",
                    "fast", "--wdpc-max-fills", "1.2", "--rounds", "2", "--round-time", "2s",
                    "--quiet", "--out", out, NULL};
    struct json_object *doc = ptsbench_results(argv, out, 0, NULL);
    assert_non_null(doc);
    assert_true(json_num(doc, "preconditioning.fast.unit_bytes") == 8192);
    json_object_put(doc);
    snprintf(rep, sizeof(rep), "%s/unit8k-report", dir);
    snprintf(md, sizeof(md), "%s/report.md", rep);
    const char *a[] = {"report", out, "--out", rep, "--no-plots", NULL};
    struct cmd_result r;
    assert_int_equal(ptsbench_run(&r, a), 0);
    assert_int_equal(r.status, 0);
    cmd_result_free(&r);
    char *text = slurp_file(md, NULL);
    assert_non_null(text);
    const char *at = strstr(text, "fills of 8 KiB writes left at greedy GC");
    if (!at)
        printf("%s\n", text);
    assert_non_null(at);
    assert_null(strstr(text, "fills of 4 KiB writes"));
    free(text);
}

static const char *const profile_ini =
    "[global]\nruntime=2\n\n"
    "[rw8k]\ndescription=random 8 KiB writes\nrw=randwrite\nbs=8k\niodepth=32\n";

/* profile: the pass as run's (unit, threads, map, floor), recorded per group. */
static void test_profile_pass_as_run(void **state)
{
    (void)state;
    char ini[512], out[512];
    assert_true(write_job_file(dir, "fu.ini", profile_ini, ini, sizeof(ini)));
    snprintf(out, sizeof(out), "%s/profile", dir);
    char *argv[] = {"ptsbench", "profile", ini, "--target", TARGET, "--precondition", "fast",
                    "--wdpc-max-fills", "0.6", "--round-time", "1s", "--rounds", "5",
                    "--quiet", "--out", out, NULL};
    struct json_object *doc = ptsbench_results(argv, out, 0, NULL);
    assert_non_null(doc);
    struct json_object *g = json_object_array_get_idx(json_at(doc, "groups"), 0);
    assert_non_null(g);
    printf("  profile: unit %g (%s), %g threads, map %s, WDPC min %g\n",
           json_num(g, "fast.unit_bytes"), str_at(g, "fast.unit_basis"),
           json_num(g, "fast.threads"), str_at(g, "fast.stimulus_random_map"),
           json_num(g, "wdpc.min_fills"));
    assert_true(json_num(g, "fast.unit_bytes") == 8192);
    assert_true(json_num(g, "fast.threads") == 4);
    assert_non_null(strstr(str_at(g, "fast.threads_basis"), "max(workers, 4)"));
    assert_string_equal(str_at(g, "fast.stimulus_random_map"), MAP_OFF);
    assert_true(json_num(g, "fast.wdpc_min_fills") == 0.5);
    assert_true(json_num(g, "wdpc.min_fills") == 0.5);
    json_object_put(doc);
}

/* run-test wsat: 4 KiB units (the test's random writes), the stimulus without a map. */
static void test_pts_pass_unit(void **state)
{
    (void)state;
    char out[512];
    snprintf(out, sizeof(out), "%s/wsat", dir);
    char *argv[] = {"ptsbench", "run-test", "wsat", "--target", TARGET, "--precondition", "fast",
                    "--round-time", "1s", "--wsat-capacity", "0.5", "--quiet", "--out", out, NULL};
    struct json_object *doc = ptsbench_results(argv, out, 0, NULL);
    assert_non_null(doc);
    struct json_object *sub = json_at(doc, "tests.0.subtests.0");
    assert_non_null(sub);
    printf("  wsat: unit %g (%s), %g threads, map %s\n", json_num(sub, "precondition.unit_bytes"),
           str_at(sub, "precondition.unit_basis"), json_num(sub, "precondition.threads"),
           str_at(sub, "precondition.stimulus_random_map"));
    assert_true(json_num(sub, "precondition.unit_bytes") == 4096);
    assert_string_equal(str_at(sub, "precondition.unit_basis"), "the test's random writes");
    assert_non_null(json_at(sub, "precondition.threads_basis"));
    assert_string_equal(str_at(sub, "precondition.stimulus_random_map"), MAP_OFF);
    json_object_put(doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_floor_rule),
        cmocka_unit_test(test_run_given_floor_kept),
        cmocka_unit_test(test_run_sequential_keeps_lag),
        cmocka_unit_test(test_report_says_the_unit),
        cmocka_unit_test(test_profile_pass_as_run),
        cmocka_unit_test(test_pts_pass_unit),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
