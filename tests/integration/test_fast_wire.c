/* test_fast_wire.c — `--precondition fast` beyond `run` (issue 48 point 1): profile runs the fast
 * pass in WIPC's place for its steady groups and records it per group; run-test runs it where the
 * test's definition allows it (fast_precondition = allowed) and refuses the others before
 * anything is written, naming the test and why; every shipped definition says which; bad values
 * of --precondition and --op are refused on one line with exit 2 by every command that takes
 * them. A small simulated drive, short rounds. */
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
#include <sys/stat.h>

#include "helpers.h"
#include "pts/pts_def.h"

#define TARGET "sim:generic-mlc25,blocks_per_plane=16"

static char *dir;

static int setup(void **state)
{
    (void)state;
    dir = make_temp_dir("fastwire");
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

static bool exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

/* A profile with a random-writing workload and a read-only one: each its own group. */
static const char *const profile_ini =
    "[global]\nruntime=2\n\n"
    "[rw4k]\ndescription=random 4 KiB writes\nrw=randwrite\nbs=4k\niodepth=32\n\n"
    "[rd4k]\ndescription=random 4 KiB reads\nrw=randread\nbs=4k\niodepth=32\n";

static void test_profile_fast(void **state)
{
    (void)state;
    char ini[512], out[512];
    assert_true(write_job_file(dir, "fp.ini", profile_ini, ini, sizeof(ini)));
    snprintf(out, sizeof(out), "%s/profile", dir);
    char *argv[] = {"ptsbench", "profile", ini, "--target", TARGET, "--precondition", "fast",
                    "--wdpc-fills", "0.1", "--wdpc-max-fills", "0.2", "--round-time", "1s",
                    "--rounds", "5", "--quiet", "--out", out, NULL};
    struct json_object *doc = ptsbench_results(argv, out, 0, NULL);
    assert_non_null(doc);
    assert_string_equal(str_at(doc, "preconditioning.mode"), "fast");
    struct json_object *groups = json_at(doc, "groups"), *points = json_at(doc, "points");
    assert_int_equal(json_object_array_length(groups), 2);
    for (size_t g = 0; g < 2; g++) {   /* per group: the pass's record, no WIPC */
        struct json_object *gr = json_object_array_get_idx(groups, g);
        assert_null(json_at(gr, "wipc"));
        assert_string_equal(str_at(gr, "fast.model"), "Desnoyers 1/v, greedy GC");
        assert_string_equal(str_at(gr, "fast.rho_source"), "simulated drive");
        assert_true(json_num(gr, "fast.fills") > 1.0);
        assert_string_equal(str_at(gr, "precondition"), "fast");
    }
    for (size_t p = 0; p < 2; p++) {   /* per point: the words and the drive state */
        struct json_object *pt = json_object_array_get_idx(points, p);
        assert_string_equal(str_at(pt, "precondition"), "fast");
        assert_true(json_num(pt, "state.fast_bytes") > 0);
        assert_true(json_num(pt, "state.wipc_bytes") == 0);
    }
    /* the random-writing point: its WDPC after the pass, its guard's lag the fast pass's */
    struct json_object *w = json_object_array_get_idx(points, 0);
    assert_string_equal(str_at(w, "state.condition"), "wdpc");
    assert_true(fabs(json_num(w, "steady_state.guard.lag_fills") - 0.5) < 1e-9);
    /* the read-only point reads the drive as the pass left it */
    struct json_object *r = json_object_array_get_idx(points, 1);
    assert_string_equal(str_at(r, "state.condition"), "fast");
    json_object_put(doc);
}

static void test_run_test_wsat_fast(void **state)
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
    assert_string_equal(str_at(sub, "precondition.kind"), "fast");
    assert_string_equal(str_at(sub, "precondition.rho_source"), "simulated drive");
    assert_true(json_num(sub, "precondition.fills") > 1.0);
    assert_string_equal(str_at(sub, "rounds.0.elements.0.state.condition"), "wdpc");
    assert_true(json_num(sub, "rounds.0.elements.0.state.fast_bytes") > 0);
    const char *notes = json_object_to_json_string(json_at(doc, "compliance.notes"));
    assert_non_null(strstr(notes, "--precondition fast"));
    json_object_put(doc);
}

/* HIR and DIRTH: the pass before their own preconditioning, said in the plan. */
static void test_run_test_hir_plan(void **state)
{
    (void)state;
    char out[512];
    snprintf(out, sizeof(out), "%s/hir", dir);
    const char *a[] = {"run-test", "hir", "--target", TARGET, "--precondition", "fast:0.3",
                       "--dry-run", "--out", out, NULL};
    struct cmd_result r;
    assert_int_equal(ptsbench_run(&r, a), 0);
    assert_non_null(strstr(r.out, "purge, the fast pass (--precondition fast), steady-state"));
    assert_false(exists(out));
    cmd_result_free(&r);
}

static void test_run_test_refused(void **state)
{
    (void)state;
    static const char *const why[][2] = {
        {"tp", "tp: preconditions with sequential 128 KiB"},
        {"xsr", "xsr: measures the recovery"},
        {"cbw", "cbw: preconditions with zoned random writes"},
        {"wsat-vod", "wsat-vod: writes SEQ 128 KiB"},
    };
    char out[512];
    snprintf(out, sizeof(out), "%s/refused", dir);
    for (size_t i = 0; i < sizeof(why) / sizeof(why[0]); i++) {
        const char *a[] = {"run-test", why[i][0], "--target", TARGET, "--precondition", "fast",
                           "--quiet", "--out", out, NULL};
        struct cmd_result r;
        assert_int_equal(ptsbench_run(&r, a), 2);
        assert_non_null(strstr(r.errout, why[i][1]));
        assert_true(is_one_line(r.errout));
        assert_false(exists(out));   /* nothing created */
        cmd_result_free(&r);
    }
    const char *a[] = {"suite", "--tests", "wsat,tp", "--target", TARGET, "--precondition",
                       "fast", "--quiet", "--out", out, NULL};
    struct cmd_result r;
    assert_int_equal(ptsbench_run(&r, a), 2);
    assert_non_null(strstr(r.errout, "tp: "));
    assert_false(exists(out));
    cmd_result_free(&r);
}

static void test_bad_values(void **state)
{
    (void)state;
    char out[512], ini[512];
    snprintf(out, sizeof(out), "%s/bad", dir);
    assert_true(write_job_file(dir, "fp.ini", profile_ini, ini, sizeof(ini)));
    const char *const cmds[][12] = {
        {"profile", ini, "--target", TARGET, "--precondition", "fast", "--op", "0.28x"},
        {"profile", ini, "--target", TARGET, "--precondition", "fast:9"},
        {"profile", ini, "--target", TARGET, "--precondition", "steady", "--op", "28%"},
        {"quick", "--target", TARGET, "--precondition", "fast", "--op", "500%"},
        {"run-test", "wsat", "--target", TARGET, "--precondition", "fast", "--op", "-1"},
        {"run-test", "wsat", "--target", TARGET, "--op", "28%"},
        {"run-test", "wsat", "--target", TARGET, "--precondition", "wipc"},
        {"suite", "--target", TARGET, "--precondition", "fast:abc"},
        {"run", "--target", TARGET, "-w", "rw=randwrite", "--precondition", "slow"},
    };
    static const char *const want[] = {
        "--op 0.28x:", "--precondition fast:9:", "only with --precondition fast", "--op 500%:",
        "--op -1:", "only with --precondition fast", "--precondition wipc: want fast[:RHO]",
        "--precondition fast:abc:", "--precondition slow: want none, wipc, steady or fast",
    };
    for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
        const char *a[16];
        size_t n = 0;
        for (; cmds[i][n]; n++)
            a[n] = cmds[i][n];
        a[n++] = "--quiet";
        a[n++] = "--out";
        a[n++] = out;
        a[n] = NULL;
        struct cmd_result r;
        assert_int_equal(ptsbench_run(&r, a), 2);
        if (!strstr(r.errout, want[i]))
            fail_msg("%s: want '%s' in: %s", cmds[i][0], want[i], r.errout);
        assert_true(is_one_line(r.errout));
        assert_false(exists(out));
        cmd_result_free(&r);
    }
}

/* Every shipped definition says whether the fast pass may replace its preconditioning: a
 * property of the data (fast_precondition), never a list in code. */
static void test_definitions_say(void **state)
{
    (void)state;
    static const char *const allowed[] = {"wsat", "wsat-oltp", "iops", "lat", "hir", "dirth"};
    static const char *const refused[] = {"tp", "xsr", "cbw", "wsat-vod", "wsat-meta"};
    char pts[4200];
    const char *root = getenv("PTSBENCH_DATADIR");
    snprintf(pts, sizeof(pts), "%s/pts", root && *root ? root : ".");
    const char *dirs[] = {pts, NULL};
    struct pts_def d;
    char err[512];
    for (size_t i = 0; i < sizeof(allowed) / sizeof(allowed[0]); i++) {
        if (pts_def_load(allowed[i], NULL, dirs, &d, err, sizeof(err)) != 0)
            fail_msg("%s", err);
        assert_true(d.fast_allowed);
    }
    for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
        if (pts_def_load(refused[i], NULL, dirs, &d, err, sizeof(err)) != 0)
            fail_msg("%s", err);
        assert_false(d.fast_allowed);
        assert_true(d.fast_why[0]);   /* its own reason, not the default's */
        assert_null(strstr(d.fast_why, "does not say fast_precondition"));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_profile_fast),
        cmocka_unit_test(test_run_test_wsat_fast),
        cmocka_unit_test(test_run_test_hir_plan),
        cmocka_unit_test(test_run_test_refused),
        cmocka_unit_test(test_bad_values),
        cmocka_unit_test(test_definitions_say),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
