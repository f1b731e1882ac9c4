/* test_fast_record.c — the fast pass's honest record (issue 48): `run --precondition fast` on a
 * small simulated drive records preconditioning.fast (not a WIPC), the drive state says fast
 * pass (fast_fills, not wipc_fills), the fill guard's lag is 0.5 fill after a checked pass and 1
 * without a pass or after one that left free lines above the GC pool (its basis recorded and
 * shown; show and report say it), --op is recorded with its source, and bad --op values are refused on one line. */
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

#define TARGET "sim:generic-mlc25,blocks_per_plane=16"

static char *dir;

static int setup(void **state)
{
    (void)state;
    dir = make_temp_dir("fastrec");
    return dir ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    remove_tree(dir);
    free(dir);
    return 0;
}

/* A short run prepared by precondition (with --op op when not NULL); its results. */
static struct json_object *prep_run(const char *name, const char *precondition, const char *op)
{
    char out[512];
    snprintf(out, sizeof(out), "%s/%s", dir, name);
    char *argv[24] = {"ptsbench", "run", "--target", TARGET, "--workload",
                      "rw=randwrite,bs=4k,qd=32", "--purge", "auto", "--precondition",
                      (char *)precondition, "--wdpc-fills", "0.1", "--wdpc-max-fills", "0.2",
                      "--rounds", "5", "--round-time", "2s", "--quiet", "--out", out};
    int n = 21;
    if (op) {
        argv[n++] = "--op";
        argv[n++] = (char *)op;
    }
    argv[n] = NULL;
    struct json_object *doc = ptsbench_results(argv, out, 0, NULL);
    assert_non_null(doc);
    return doc;
}

static const char *str_at(struct json_object *doc, const char *path)
{
    struct json_object *v = json_at(doc, path);
    assert_non_null(v);
    return json_object_get_string(v);
}

static void test_fast_record_not_wipc(void **state)
{
    (void)state;
    struct json_object *doc = prep_run("fast", "fast", NULL);
    assert_non_null(json_at(doc, "preconditioning.fast"));
    assert_null(json_at(doc, "preconditioning.wipc"));
    assert_string_equal(str_at(doc, "preconditioning.mode"), "fast");
    assert_string_equal(str_at(doc, "preconditioning.fast.model"), "Desnoyers 1/v, greedy GC");
    assert_string_equal(str_at(doc, "preconditioning.fast.rho_source"), "simulated drive");
    const double rho = json_num(doc, "preconditioning.fast.rho");
    assert_true(rho > 0.1 && rho < 0.5);
    assert_true(fabs(json_num(doc, "preconditioning.fast.fills") - (1 + rho)) < 0.03 * (1 + rho));
    assert_int_equal((int)json_num(doc, "preconditioning.fast.regions"), 100);
    assert_true(json_num(doc, "preconditioning.fast.elapsed_s") > 0);
    /* the drive state: the pass's fills are its own, the words say fast pass */
    assert_string_equal(str_at(doc, "rounds.0.state.condition"), "wdpc");
    assert_true(json_num(doc, "rounds.0.state.wipc_fills") == 0);
    assert_true(fabs(json_num(doc, "rounds.0.state.fast_fills") - (1 + rho)) < 0.03 * (1 + rho));
    const char *label = str_at(doc, "steady_state.label");
    assert_null(strstr(label, "WIPC"));
    /* the guard's lag after a checked pass, and why */
    assert_true(json_object_get_boolean(json_at(doc, "preconditioning.fast.check.passed")));
    assert_true(json_num(doc, "steady_state.guard.lag_fills") == 0.5);
    assert_non_null(strstr(str_at(doc, "steady_state.guard.lag_basis"), "after the fast pass"));
    json_object_put(doc);

    char out[600];
    snprintf(out, sizeof(out), "%s/fast", dir);
    const char *a[] = {"show", out, NULL};
    struct cmd_result r;
    assert_int_equal(ptsbench_run(&r, a), 0);
    assert_non_null(strstr(r.out, "fast pass + WDPC"));
    assert_non_null(strstr(r.out, "fill guard: lag 0.500 fill"));
    assert_null(strstr(r.out, "WIPC"));
    cmd_result_free(&r);

    /* the report: the pass's words, the state after it, the lag's basis; never "after WIPC" */
    char rep[700], md[720];
    snprintf(rep, sizeof(rep), "%s/rep", dir);
    snprintf(md, sizeof(md), "%s/report.md", rep);
    const char *b[] = {"report", out, "--out", rep, NULL};
    assert_int_equal(ptsbench_run(&r, b), 0);
    cmd_result_free(&r);
    char *text = slurp_file(md, NULL);
    assert_non_null(text);
    assert_non_null(strstr(text, "fast pass ("));
    assert_non_null(strstr(text, "from the simulated drive; Desnoyers 1/v, greedy GC"));
    assert_non_null(strstr(text, "The guard's lag: 0.5 fill after the fast pass"));
    assert_null(strstr(text, "after WIPC,"));
    assert_null(strstr(text, "burst after WIPC"));
    assert_null(strstr(text, "WIPC + WDPC"));
    free(text);
}

/* Without a pass the lag stays 1 (and no basis is written); a pass told half the spare factor
 * leaves free lines above the GC pool: lag 1, --op recorded as the option. */
static void test_guard_lag_without_pass(void **state)
{
    (void)state;
    struct json_object *doc = prep_run("steady", "steady", NULL);
    assert_true(json_num(doc, "steady_state.guard.lag_fills") == 1.0);
    assert_null(json_at(doc, "steady_state.guard.lag_basis"));
    assert_null(json_at(doc, "preconditioning.fast"));
    assert_null(json_at(doc, "rounds.0.state.fast_fills"));
    json_object_put(doc);
    doc = prep_run("half", "fast", "10%");
    assert_string_equal(str_at(doc, "preconditioning.fast.rho_source"), "option");
    assert_true(fabs(json_num(doc, "preconditioning.fast.rho") - 0.1) < 1e-12);
    assert_true(json_num(doc, "preconditioning.fast.rho_simulator") > 0.2);
    assert_false(json_object_get_boolean(json_at(doc, "preconditioning.fast.check.passed")));
    assert_true(json_num(doc, "steady_state.guard.lag_fills") == 1.0);
    assert_non_null(strstr(str_at(doc, "steady_state.guard.lag_basis"), "GC pool"));
    json_object_put(doc);
}

/* --op: a percentage or a spare factor; anything else one line naming the value, exit 2; not
 * without the fast pass. */
static void test_op_refused(void **state)
{
    (void)state;
    char out[600];
    snprintf(out, sizeof(out), "%s/bad", dir);
    static const char *const bad[] = {"abc", "0", "-5%", "5", "28%x", "450%"};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        const char *a[] = {"run", "--target", TARGET, "--workload", "rw=randwrite,bs=4k",
                           "--precondition", "fast", "--op", bad[i], "--quiet", "--out", out,
                           NULL};
        struct cmd_result r;
        assert_int_equal(ptsbench_run(&r, a), 2);
        char want[64];
        snprintf(want, sizeof(want), "--op %s:", bad[i]);
        assert_non_null(strstr(r.errout, want));
        assert_true(is_one_line(r.errout));
        cmd_result_free(&r);
    }
    const char *a[] = {"run", "--target", TARGET, "--workload", "rw=randwrite,bs=4k",
                       "--precondition", "steady", "--op", "28%", "--quiet", "--out", out, NULL};
    struct cmd_result r;
    assert_int_equal(ptsbench_run(&r, a), 2);
    assert_non_null(strstr(r.errout, "only with --precondition fast"));
    assert_true(is_one_line(r.errout));
    cmd_result_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fast_record_not_wipc),
        cmocka_unit_test(test_guard_lag_without_pass),
        cmocka_unit_test(test_op_refused),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
