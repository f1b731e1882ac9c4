/* test_show_cut.c — `ptsbench show` of a suite test cut short (show_suite.c): an IOPS test
 * interrupted in its third round says so (during round 3, 2 complete) and that no steady-state
 * verdict was reached, not "steady state NOT reached in 2 rounds" (which reads as a drive that
 * never settled); one interrupted before its first round says that, never "the kind claims
 * none"; a WSAT cut short claims no steady state; a complete test's verdict is unchanged, and
 * only the last subtest of a test cut short is the one cut. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "show/show.h"

/* show_suite's text for a suite document whose "tests" are tests_json. */
static char *shown(const char *tests_json)
{
    char doc_text[4096];
    snprintf(doc_text, sizeof(doc_text),
             "{\"schema\": \"ptsbench.suite\", \"status\": \"interrupted\", "
             "\"target\": {\"path\": \"/dev/x\", \"kind\": \"block\"}, "
             "\"spec\": {\"name\": \"pts-2.0-e\"}, \"tests\": %s}", tests_json);
    struct json_object *doc = json_tokener_parse(doc_text);
    assert_non_null(doc);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    show_suite(f, doc);
    fclose(f);
    json_object_put(doc);
    return buf;
}

static void test_interrupted_in_round_3(void **state)
{
    (void)state;
    char *t = shown("[{\"name\": \"iops\", \"title\": \"IOPS\", \"kind\": \"standard\", "
                    "\"status\": \"interrupted\", \"subtests\": [{\"precondition\": {}, "
                    "\"rounds\": [{\"round\": 1}, {\"round\": 2}], \"steady_state\": "
                    "{\"reached\": false, \"rounds_run\": 2}}]}]");
    if (!strstr(t, "interrupted during round 3 (2 complete): no steady-state verdict was "
                   "reached"))
        fail_msg("%s", t);
    assert_null(strstr(t, "NOT reached"));
    free(t);
}

static void test_interrupted_before_round_1(void **state)
{
    (void)state;
    char *t = shown("[{\"name\": \"iops\", \"title\": \"IOPS\", \"kind\": \"standard\", "
                    "\"status\": \"interrupted\", \"subtests\": [{\"rounds\": []}]}]");
    if (!strstr(t, "interrupted before its first round was complete (in its preparation): no "
                   "steady-state verdict was reached"))
        fail_msg("%s", t);
    assert_null(strstr(t, "claims none"));
    free(t);
}

static void test_wsat_cut_short(void **state)
{
    (void)state;
    char *t = shown("[{\"name\": \"wsat\", \"title\": \"WSAT\", \"kind\": \"standard\", "
                    "\"status\": \"interrupted\", \"subtests\": [{\"rounds\": [{}, {}, {}], "
                    "\"stop\": {\"reason\": \"interrupted\"}}]}]");
    if (!strstr(t, "interrupted during round 4 (3 complete): write saturation claims no "
                   "steady state"))
        fail_msg("%s", t);
    free(t);
}

/* TP: the first subtest complete (its own verdict), the second cut short. */
static void test_only_the_last_subtest_is_cut(void **state)
{
    (void)state;
    char *t = shown("[{\"name\": \"tp\", \"title\": \"TP\", \"kind\": \"standard\", "
                    "\"status\": \"interrupted\", \"subtests\": ["
                    "{\"label\": \"1024 KiB\", \"rounds\": [{}, {}, {}, {}, {}], "
                    "\"steady_state\": {\"reached\": true, \"round\": 5, \"rounds_run\": 5}}, "
                    "{\"label\": \"128 KiB\", \"rounds\": [{}], "
                    "\"steady_state\": {\"reached\": false, \"rounds_run\": 1}}]}]");
    const char *first = strstr(t, "steady state (SNIA PTS rule) at round 5 of 5");
    const char *cut = strstr(t, "interrupted during round 2 (1 complete)");
    if (!first || !cut || cut < first)
        fail_msg("%s", t);
    free(t);
    /* complete: the verdict as before */
    t = shown("[{\"name\": \"iops\", \"title\": \"IOPS\", \"kind\": \"standard\", "
              "\"status\": \"complete\", \"subtests\": [{\"rounds\": [{}, {}], "
              "\"steady_state\": {\"reached\": false, \"rounds_run\": 25}}]}]");
    assert_non_null(strstr(t, "steady state NOT reached in 25 rounds"));
    free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_interrupted_in_round_3),
        cmocka_unit_test(test_interrupted_before_round_1),
        cmocka_unit_test(test_wsat_cut_short),
        cmocka_unit_test(test_only_the_last_subtest_is_cut),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
