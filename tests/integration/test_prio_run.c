/* test_prio_run.c — fio's I/O priority keys through `ptsbench run` on the simulated drive (fast,
 * virtual clock): fio's example cmdprio-percentage.fio and cmdprio-bssplit.fio run as they are
 * (both were refused before: cmdprio_* and prio* were NO() rows), each round records
 * prio_raised, the share of its I/Os issued raised (a fifth for the first), the results' note
 * says the simulated drive has no priority model, and a run without the keys records none. */
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

static int setup(void **state)
{
    (void)state;
    dir = make_temp_dir("prio");
    return dir ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    remove_tree(dir);
    free(dir);
    return 0;
}

static void test_examples_run_and_record_the_share(void **state)
{
    (void)state;
    struct json_object *doc =
        run_workload(dir, "pct", "tests/fixtures/fio-examples/cmdprio-percentage.fio", NULL);
    assert_non_null(doc);
    const double share = json_num(doc, "rounds.0.prio_raised");
    double k = json_num(doc, "target.simulated.time_scale_k");   /* I/Os a completion is */
    const double ios = json_num(doc, "rounds.0.total.ios") / (isnan(k) || k < 1 ? 1 : k);
    print_message("cmdprio_percentage=20: %.0f I/Os drawn, %.3f raised\n", ios, share);
    assert_false(isnan(share));
    /* a binomial share of n I/Os: within 4 standard deviations of 0.2 */
    const double sd = sqrt(0.2 * 0.8 / (ios > 1 ? ios : 1));
    assert_true(fabs(share - 0.2) < 4 * sd + 0.01);
    struct json_object *note = NULL;
    assert_true(json_object_object_get_ex(json_object_object_get(doc, "workload"), "note", &note));
    assert_non_null(strstr(json_object_get_string(note), "no priority model"));
    json_object_put(doc);

    doc = run_workload(dir, "bssplit", "tests/fixtures/fio-examples/cmdprio-bssplit.fio", NULL);
    assert_non_null(doc);
    assert_false(isnan(json_num(doc, "rounds.0.prio_raised")));
    json_object_put(doc);

    doc = run_workload(dir, "plain", "rw=randread,bs=4k,iodepth=8", NULL);
    assert_non_null(doc);
    assert_true(isnan(json_num(doc, "rounds.0.prio_raised")));
    json_object_put(doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_examples_run_and_record_the_share, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
