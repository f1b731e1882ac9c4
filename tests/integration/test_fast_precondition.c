/* test_fast_precondition.c — `ptsbench run --precondition fast[:RHO]` (issue 48's prototype,
 * core/fastpass.h): on a simulated drive the pass runs in WIPC's place and is recorded as the
 * fast pass (preconditioning.fast, no WIPC record) with the spare factor it assumed and where
 * that came from; the pass writes (1 + rho) fills; a bad spare factor is refused before
 * anything is written. A small drive, short rounds. */
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
    dir = make_temp_dir("fastpc");
    return dir ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    remove_tree(dir);
    free(dir);
    return 0;
}

static struct json_object *fast_run(const char *name, const char *precondition)
{
    char out[512];
    snprintf(out, sizeof(out), "%s/%s", dir, name);
    char *argv[] = {"ptsbench", "run", "--target", TARGET, "--workload",
                    "rw=randwrite,bs=4k,qd=32", "--purge", "auto", "--precondition",
                    (char *)precondition, "--wdpc-fills", "0.1", "--wdpc-max-fills", "0.2",
                    "--rounds", "5", "--round-time", "2s", "--quiet", "--out", out, NULL};
    struct json_object *doc = ptsbench_results(argv, out, 0, NULL);
    assert_non_null(doc);
    return doc;
}

static struct json_object *pass_of(struct json_object *doc)
{
    struct json_object *pc, *w, *model;
    assert_true(json_object_object_get_ex(doc, "preconditioning", &pc));
    assert_false(json_object_object_get_ex(pc, "wipc", &w));   /* not a WIPC */
    assert_true(json_object_object_get_ex(pc, "fast", &w));
    assert_true(json_object_object_get_ex(w, "model", &model));
    assert_string_equal(json_object_get_string(model), "Desnoyers 1/v, greedy GC");
    return w;
}

static double num(struct json_object *o, const char *key)
{
    struct json_object *v;
    assert_true(json_object_object_get_ex(o, key, &v));
    return json_object_get_double(v);
}

static const char *str(struct json_object *o, const char *key)
{
    struct json_object *v;
    assert_true(json_object_object_get_ex(o, key, &v));
    return json_object_get_string(v);
}

static void test_fast_pass_from_the_simulator(void **state)
{
    (void)state;
    struct json_object *doc = fast_run("sim", "fast");
    struct json_object *w = pass_of(doc);
    assert_string_equal(str(w, "rho_source"), "simulated drive");
    const double rho = num(w, "rho");
    assert_true(rho > 0.1 && rho < 0.5);   /* generic-mlc25: op 28 %, less the GC pool */
    assert_true(fabs(num(w, "rho_simulator") - rho) < 1e-9);
    assert_true(fabs(num(w, "fills") - (1 + rho)) < 0.03 * (1 + rho));
    json_object_put(doc);
}

static void test_fast_pass_told_rho(void **state)
{
    (void)state;
    struct json_object *doc = fast_run("told", "fast:0.1");
    struct json_object *w = pass_of(doc);
    assert_string_equal(str(w, "rho_source"), "option");
    assert_true(fabs(num(w, "rho") - 0.1) < 1e-9);
    assert_true(fabs(num(w, "fills") - 1.1) < 0.03 * 1.1);
    json_object_put(doc);
}

/* A file target is no longer refused: the pass runs through the run's engine on every target
 * (test_fast_step proves it on a file and a zram device); a bad spare factor still is. */
static void test_refused_bad_rho(void **state)
{
    (void)state;
    char out[600];
    snprintf(out, sizeof(out), "%s/file", dir);
    struct cmd_result r;
    const char *b[] = {"run", "--target", TARGET, "--workload", "rw=randwrite,bs=4k",
                       "--precondition", "fast:-1", "--quiet", "--out", out, NULL};
    assert_int_equal(ptsbench_run(&r, b), 2);
    assert_non_null(strstr(r.errout, "fast:RHO"));
    cmd_result_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fast_pass_from_the_simulator),
        cmocka_unit_test(test_fast_pass_told_rho),
        cmocka_unit_test(test_refused_bad_rho),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
