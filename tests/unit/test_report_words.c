/* test_report_words.c — tracking names and metric keys in words (read/words.h). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <json-c/json.h>
#include <string.h>

#include "read/words.h"

static void tracking_is(const char *name, const char *want)
{
    char buf[128];
    report_words_tracking(name, buf, sizeof(buf));
    if (strcmp(buf, want) != 0)
        print_error("%s: '%s', want '%s'\n", name, buf, want);
    assert_string_equal(buf, want);
}

static void test_tracking(void **state)
{
    (void)state;
    tracking_is("iops@4KiB/0", "4 KiB random write IOPS");
    tracking_is("iops@4KiB/100", "4 KiB random read IOPS");
    tracking_is("write_lat_mean_us@4KiB/0", "4 KiB random write mean latency");
    tracking_is("mb_s@128KiB/0", "128 KiB sequential write MB/s");
    tracking_is("mb_s@1MiB/100", "1024 KiB sequential read MB/s");
    tracking_is("iops@512B/65", "0.5 KiB random 65/35 read/write IOPS");
    tracking_is("read_lat_mean_us@8KiB/65", "8 KiB random 65/35 read/write, read mean latency");
    tracking_is("iops", "IOPS");
    tracking_is("write_lat_mean_us", "write mean latency");
    tracking_is("", "the tracked value");
    tracking_is(NULL, "the tracked value");
}

static void test_access_given(void **state)
{
    (void)state;
    char buf[128];
    report_words_tracking_access("iops@128KiB/0", "sequential", buf, sizeof(buf));
    assert_string_equal(buf, "128 KiB sequential write IOPS");
    report_words_tracking_access("iops@4KiB/0", "", buf, sizeof(buf));
    assert_string_equal(buf, "4 KiB random write IOPS");
}

static void test_metric(void **state)
{
    (void)state;
    assert_string_equal(report_words_metric("write_lat_mean_us"), "write mean latency");
    assert_string_equal(report_words_metric("read_iops"), "read IOPS");
    assert_string_equal(report_words_metric("bogus_key"), "the tracked value");
    assert_string_equal(report_words_metric(NULL), "the tracked value");
}

static void test_tracking_of_record(void **state)
{
    (void)state;
    char buf[128];
    /* the parts win over the name beside them */
    struct json_object *v = json_tokener_parse("{\"tracking\": \"iops@4KiB/0\", \"track\": "
                                               "{\"metric\": \"mb_s\", \"bs\": 131072, "
                                               "\"read_pct\": 100}}");
    report_words_tracking_of(v, buf, sizeof(buf));
    assert_string_equal(buf, "128 KiB sequential read MB/s");
    json_object_put(v);
    /* a file written before "track": the name */
    v = json_tokener_parse("{\"tracking\": \"write_lat_mean_us@4KiB/0\"}");
    report_words_tracking_of(v, buf, sizeof(buf));
    assert_string_equal(buf, "4 KiB random write mean latency");
    json_object_put(v);
    v = json_tokener_parse("{\"tracking\": \"iops@T32/Q32\"}");   /* DIRTH, as before */
    report_words_tracking_of(v, buf, sizeof(buf));
    assert_string_equal(buf, "T32 random IOPS");
    json_object_put(v);
    report_words_tracking_of(NULL, buf, sizeof(buf));
    assert_string_equal(buf, "the tracked value");
}

/* A percentile in words (lib/units.h units_format_pct, read/words.h words_pct_lat): a number
 * as a latency; null beside a count (the tail rule left it out) "n/a (N I/Os)" and the long
 * form; absent (an older file) or a direction without I/O "-", never 0. */
static void test_percentile_words(void **state)
{
    (void)state;
    char b[64];
    struct json_object *lat = json_tokener_parse(
        "{\"count\": 999999, \"percentiles\": {\"99.99\": 87.25, \"99.999\": null}}");
    assert_non_null(lat);
    assert_string_equal(words_pct_lat(lat, "99.99", UNITS_TEXT, b, sizeof(b)), "87.2 us");
    assert_string_equal(words_pct_lat(lat, "99.999", UNITS_TEXT, b, sizeof(b)),
                        "n/a (999,999 I/Os)");
    assert_int_equal(words_pct_lat_short_of(lat, "99.999"), 999999);
    assert_int_equal(words_pct_lat_short_of(lat, "99.99"), 0);
    assert_string_equal(words_pct_lat(lat, "99.9999", UNITS_TEXT, b, sizeof(b)), "-");
    assert_int_equal(words_pct_lat_short_of(lat, "99.9999"), 0);
    assert_string_equal(words_pct_lat(NULL, "99", UNITS_TEXT, b, sizeof(b)), "-");
    assert_string_equal(units_format_pct_long(999999, b, sizeof(b)),
                        "not enough I/Os for this percentile (999,999)");
    json_object_put(lat);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tracking),
        cmocka_unit_test(test_access_given),
        cmocka_unit_test(test_tracking_of_record),
        cmocka_unit_test(test_metric),
        cmocka_unit_test(test_percentile_words),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
