/* test_workload_cmd.c — `ptsbench workload` on three of fio's examples (tests/fixtures/
 * fio-examples): one that runs (exit 0), one of several jobs, one refused (exit 2, every
 * refused key on its own line); --json; --help. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"

static int wk(struct cmd_result *r, const char *example, const char *flag)
{
    char path[1024];
    snprintf(path, sizeof(path), "%s", test_fixture_path(example));
    const char *args[] = {"workload", path, flag, NULL};
    return ptsbench_run(r, args);
}

static void test_runs(void **st)
{
    (void)st;
    struct cmd_result r;
    assert_int_equal(wk(&r, "fio-examples/fio-seq-read.fio", NULL), 0);
    assert_non_null(strstr(r.out, "1 job in 1 group"));
    assert_non_null(strstr(r.out, "job fio-seq-reads"));
    assert_non_null(strstr(r.out, "workers 1, iodepth 16"));
    assert_non_null(strstr(r.out, "bs        256KiB"));
    assert_non_null(strstr(r.out, "round     900 s"));
    assert_non_null(strstr(r.out, "fio-seq-read.fio:14 [file1] iodepth=16: honoured"));
    assert_null(strstr(r.out, "refused"));
    cmd_result_free(&r);
    assert_int_equal(wk(&r, "fio-examples/fio-seq-read.fio", "--json"), 0);
    struct json_object *o = json_tokener_parse(r.out), *v;
    assert_non_null(o);
    assert_true(json_object_object_get_ex(o, "runs", &v) && json_object_get_boolean(v));
    assert_true(json_object_object_get_ex(o, "jobs", &v) && json_object_array_length(v) == 1);
    json_object_put(o);
    cmd_result_free(&r);
}

static void test_several_jobs(void **st)
{
    (void)st;
    struct cmd_result r;
    assert_int_equal(wk(&r, "fio-examples/aio-read.fio", NULL), 0);   /* a file per job */
    assert_non_null(strstr(r.out, "4 jobs in 1 group"));
    assert_non_null(strstr(r.out, "group 1 (4 jobs at once)"));
    assert_non_null(strstr(r.out, "job file4"));
    assert_non_null(strstr(r.out, "workers 1, iodepth 32"));
    assert_non_null(strstr(r.out, "aio-read.fio:8 [global] directory=/data1: honoured"));
    cmd_result_free(&r);
}

static void test_refused(void **st)
{
    (void)st;
    struct cmd_result r;
    assert_int_equal(wk(&r, "fio-examples/gfapi.fio", NULL), 2);
    /* every refusal at once, one line each */
    assert_non_null(strstr(r.out, "gfapi.fio:4 [global] ioengine=gfapi: refused: "));
    assert_non_null(strstr(r.out, "gfapi.fio:5 [global] volume=vol: refused: "));
    assert_non_null(strstr(r.out, "gfapi.fio:14 [reopen_file_test] openfiles=2: noted: "));
    assert_non_null(strstr(r.out, "gfapi.fio:8 [global] rw=write: honoured"));
    assert_non_null(strstr(r.out, "refused: ptsbench would not run"));
    cmd_result_free(&r);
    const char *args[] = {"workload", "--help", NULL};
    assert_int_equal(ptsbench_run(&r, args), 0);
    assert_non_null(strstr(r.out, "usage: ptsbench workload"));
    cmd_result_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_runs),
        cmocka_unit_test(test_several_jobs),
        cmocka_unit_test(test_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
