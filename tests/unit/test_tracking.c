/* test_tracking.c — tracking variables from results (src/read/tracking.h).
 *
 * Writers record a tracking variable as its display name "tracking" and, since the structured
 * field exists, its parts "track" {metric, bs, read_pct; DIRTH: threads, qd}. A reader takes the
 * parts (tracking_read, _of, _at); a file written before "track" existed is read through the one
 * parser of the name (tracking_parse), whose every grammar is checked here: METRIC@BS/MIX (BS
 * 4KiB, 1MiB, 512B, or "element"), METRIC@Tn/Qm (DIRTH's sweep point), a bare METRIC (a run). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <json-c/json.h>
#include <string.h>

#include "read/tracking.h"

static void parsed(const char *name, const char *metric, uint32_t bs, int mix, bool element,
                   unsigned threads, unsigned qd)
{
    struct tracking t;
    assert_int_equal(tracking_parse(name, &t), 0);
    assert_string_equal(t.metric, metric);
    assert_int_equal(t.bs, bs);
    assert_int_equal(t.read_pct, mix);
    assert_int_equal(t.element, element);
    assert_int_equal(t.threads, threads);
    assert_int_equal(t.qd, qd);
}

static void test_parse_old_names(void **state)
{
    (void)state;
    parsed("iops@4KiB/0", "iops", 4096, 0, false, 0, 0);
    parsed("write_lat_mean_us@8KiB/65", "write_lat_mean_us", 8192, 65, false, 0, 0);
    parsed("mb_s@1MiB/100", "mb_s", 1048576, 100, false, 0, 0);
    parsed("iops@512B/65", "iops", 512, 65, false, 0, 0);
    parsed("iops@element/0", "iops", 0, 0, true, 0, 0);
    parsed("iops@T32/Q32", "iops", 0, -1, false, 32, 32);
    parsed("iops@4KiB", "iops", 4096, -1, false, 0, 0);   /* no mix: none */
    parsed("iops", "iops", 0, -1, false, 0, 0);           /* a run's: the metric alone */
    struct tracking t;
    assert_int_equal(tracking_parse("iops@4KiB/101", &t), -1);
    assert_int_equal(tracking_parse("iops@/0", &t), -1);
    assert_int_equal(tracking_parse("iops@T0/Q32", &t), -1);
    assert_string_equal(t.metric, "iops@T0/Q32");   /* unreadable: the name as a whole */
    assert_int_equal(tracking_parse("", &t), -1);
    assert_int_equal(tracking_parse(NULL, &t), -1);
    assert_string_equal(t.metric, "");
}

/* The structure wins over the name: a record whose name says one thing and whose "track" says
 * another is read by its "track" (a reader that parsed the name would get 4 KiB / 0). */
static void test_structure_first(void **state)
{
    (void)state;
    struct json_object *rec = json_tokener_parse(
        "{\"tracking\": \"iops@4KiB/0\", \"track\": {\"metric\": \"write_iops\", \"bs\": 131072, "
        "\"read_pct\": 65}}");
    struct tracking t;
    assert_int_equal(tracking_of(rec, &t), 0);
    assert_string_equal(t.metric, "write_iops");
    assert_int_equal(t.bs, 131072);
    assert_int_equal(t.read_pct, 65);
    json_object_put(rec);

    rec = json_tokener_parse("{\"tracking\": \"iops@T32/Q32\", \"track\": {\"metric\": \"iops\", "
                             "\"bs\": 8192, \"read_pct\": 65, \"threads\": 16, \"qd\": 8}}");
    assert_int_equal(tracking_of(rec, &t), 0);
    assert_int_equal(t.bs, 8192);
    assert_int_equal(t.read_pct, 65);
    assert_int_equal(t.threads, 16);
    assert_int_equal(t.qd, 8);
    json_object_put(rec);

    /* a run's: the metric alone, no block size or mix */
    rec = json_tokener_parse("{\"tracking\": \"lat_mean_us\", \"track\": {\"metric\": "
                             "\"lat_mean_us\"}}");
    assert_int_equal(tracking_of(rec, &t), 0);
    assert_string_equal(t.metric, "lat_mean_us");
    assert_int_equal(t.bs, 0);
    assert_int_equal(t.read_pct, -1);
    json_object_put(rec);
}

/* A file written before "track": the name, parsed. A "track" of the wrong shape is no track. */
static void test_old_file(void **state)
{
    (void)state;
    struct json_object *sub = json_tokener_parse(
        "{\"tracking\": [\"iops@4KiB/0\", \"iops@64KiB/65\"], \"steady_state\": {\"variables\": "
        "[{\"tracking\": \"iops@4KiB/0\"}]}}");
    struct tracking t;
    assert_int_equal(tracking_at(sub, 1, &t), 0);
    assert_string_equal(t.metric, "iops");
    assert_int_equal(t.bs, 65536);
    assert_int_equal(t.read_pct, 65);
    struct json_object *vars = json_object_object_get(json_object_object_get(sub, "steady_state"),
                                                      "variables");
    assert_int_equal(tracking_of(json_object_array_get_idx(vars, 0), &t), 0);
    assert_int_equal(t.bs, 4096);
    assert_int_equal(t.read_pct, 0);
    assert_int_equal(tracking_at(sub, 2, &t), -1);   /* no such variable */
    json_object_put(sub);

    sub = json_tokener_parse("{\"tracking\": [\"iops@4KiB/0\"], \"track\": [\"bogus\"]}");
    assert_int_equal(tracking_at(sub, 0, &t), 0);
    assert_int_equal(t.bs, 4096);
    json_object_put(sub);

    sub = json_tokener_parse("{\"tracking\": [\"iops@4KiB/0\"], \"track\": [{\"metric\": "
                             "\"mb_s\", \"bs\": 1048576, \"read_pct\": 100}]}");
    assert_int_equal(tracking_at(sub, 0, &t), 0);
    assert_string_equal(t.metric, "mb_s");
    assert_int_equal(t.bs, 1048576);
    assert_int_equal(t.read_pct, 100);
    json_object_put(sub);
}

/* How a tracked figure prints: its metric's kind in the vocabulary, from the parts recorded,
 * else from an old file's name; a name outside the vocabulary is a plain value. */
static void test_figure_kind(void **state)
{
    (void)state;
    static const struct {
        const char *rec;
        enum units_figure kind;
    } cases[] = {
        {"{\"tracking\": \"iops@4KiB/0\"}", UNITS_FIG_IOPS},
        {"{\"tracking\": \"write_iops\"}", UNITS_FIG_IOPS},
        {"{\"tracking\": \"mb_s@128KiB/0\"}", UNITS_FIG_MBS},
        {"{\"tracking\": \"read_mib_s\"}", UNITS_FIG_MBS},
        {"{\"tracking\": \"lat_mean_us@4KiB/100\"}", UNITS_FIG_LAT},
        {"{\"tracking\": \"write_lat_mean_us\"}", UNITS_FIG_LAT},
        {"{\"tracking\": \"iops@T32/Q32\"}", UNITS_FIG_IOPS},
        /* the parts win over the name */
        {"{\"tracking\": \"iops@4KiB/0\", \"track\": {\"metric\": \"lat_mean_us\", "
         "\"bs\": 4096, \"read_pct\": 0}}", UNITS_FIG_LAT},
        {"{\"tracking\": \"fills\"}", UNITS_FIG_VALUE},
        {"{}", UNITS_FIG_VALUE},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        struct json_object *rec = json_tokener_parse(cases[i].rec);
        assert_non_null(rec);
        if (tracking_figure_kind(rec) != cases[i].kind)
            print_error("%s: kind %d, want %d\n", cases[i].rec, tracking_figure_kind(rec),
                        cases[i].kind);
        assert_int_equal(tracking_figure_kind(rec), cases[i].kind);
        json_object_put(rec);
    }
    assert_int_equal(tracking_figure_kind(NULL), UNITS_FIG_VALUE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_old_names),
        cmocka_unit_test(test_structure_first),
        cmocka_unit_test(test_old_file),
        cmocka_unit_test(test_figure_kind),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
