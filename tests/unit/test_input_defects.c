/* test_input_defects.c — the input defects of "survive any input", one test each, through the
 * library functions the commands call:
 *   - show: a capacity that is absent says "capacity not recorded" (a NAN cast to an integer
 *     printed "9223.4 PB"); json-c's parse error comes out on one line; rounds, points or
 *     saturation of the wrong type is refused with one line naming the field (json-c asserted);
 *   - report: an unknown schema is named in the error without reading the freed document;
 *   - fio's JSON: runtime 0, an absurd I/O count and zero I/Os are refused (the round fails);
 *   - PTS definitions: element_time = 0, block sizes that are no sector multiple, tracking
 *     variables outside the loops and too few rounds for a window are refused when loaded, one
 *     line naming file, line, key and value; the definitions of the tree all still load;
 *   - profiles: 2,000 sections load with one parse of the file and a hashed section index (the
 *     plan of 2,000 sections took 8.7 s: every section re-parsed the whole file, and every
 *     section lookup compared every name). The time is printed; the test asserts the operation
 *     counts, which do not depend on the machine's load.
 *   - json_path: the typed getters and jp_check. */
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
#include <time.h>
#include <unistd.h>

#include "engine/fio_json.h"
#include "helpers.h"
#include "lib/ini.h"
#include "lib/json_path.h"
#include "profile/profile.h"
#include "pts/pts_def.h"
#include "report/report.h"
#include "show/show.h"
#include "lib/util.h"

static char *put(const char *dir, const char *name, const char *text)
{
    char *path = malloc(4096);
    snprintf(path, 4096, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
    return path;
}

static void assert_one_line(const char *err)
{
    assert_true(err[0] != '\0');
    assert_null(strchr(err, '\n'));
}

static void assert_has(const char *text, const char *want)
{
    if (!strstr(text, want))
        fail_msg("'%s' does not say '%s'", text, want);
}

/* ---- show ---- */

static char *show_text(const char *json)
{
    struct json_object *doc = json_tokener_parse(json);
    assert_non_null(doc);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    show_write(f, doc, 0);
    fclose(f);
    json_object_put(doc);
    return buf;
}

static void test_show_capacity_not_recorded(void **state)
{
    (void)state;
    char *t = show_text("{\"schema\":\"ptsbench.run\",\"target\":{\"path\":\"/dev/x\"}}");
    assert_has(t, "/dev/x  (, capacity not recorded)");
    assert_null(strstr(t, "PB"));
    free(t);
    t = show_text("{\"schema\":\"ptsbench.profile\",\"target\":{\"capacity_bytes\":null}}");
    assert_has(t, "capacity not recorded");
    free(t);
    t = show_text("{\"schema\":\"ptsbench.run\",\"target\":{\"capacity_bytes\":1600000000000}}");
    assert_has(t, "1.60 TB");
    free(t);
}

static void test_show_errors_are_one_line(void **state)
{
    (void)state;
    char *dir = make_temp_dir("defects");
    static const struct {
        const char *text, *want;
    } bad[] = {
        {"{bad", "cannot read it as JSON (json_tokener_parse_ex failed"},
        {"{\"schema\":\"ptsbench.run\",\"rounds\":{}}", "rounds: an object where an array belongs"},
        {"{\"schema\":\"ptsbench.profile\",\"points\":{}}", "points: an object where an array"},
        {"{\"schema\":\"ptsbench.profile\",\"saturation\":7}", "saturation: a number where an"},
        {"{\"schema\":\"ptsbench.run\",\"rounds\":[null]}", "rounds.0: null where an object"},
        {"{\"schema\":\"ptsbench.nosuch\"}", "not a ptsbench results file (run, suite,"},
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        char *path = put(dir, "results.json", bad[i].text);
        struct json_object *doc = (void *)1;
        char file[4200], err[ERR_LEN];
        assert_int_equal(show_load(path, &doc, file, sizeof(file), err, sizeof(err)), -1);
        assert_null(doc);
        assert_one_line(err);
        assert_has(err, bad[i].want);
        free(path);
    }
    remove_tree(dir);
    free(dir);
}

/* ---- report ---- */

static void test_report_unknown_schema_named(void **state)
{
    (void)state;
    char *dir = make_temp_dir("defects");
    char *path = put(dir, "y.json", "{\"schema\":\"ptsbench.nosuch\"}");
    struct json_object *doc;
    char file[4200], err[ERR_LEN];
    assert_int_equal(report_load(path, &doc, file, sizeof(file), err, sizeof(err)), -1);
    assert_null(doc);
    assert_has(err, "schema 'ptsbench.nosuch' is not a ptsbench run, suite or profile result");
    free(path);
    remove_tree(dir);
    free(dir);
}

/* ---- fio's JSON ---- */

static int fio_parse(const char *read_dir, char *err, size_t errlen)
{
    char text[2048];
    snprintf(text, sizeof(text),
             "{\"fio version\":\"fio-3.33\",\"jobs\":[{\"jobname\":\"j\",\"error\":0,"
             "\"read\":%s,\"write\":{\"total_ios\":0,\"io_bytes\":0,\"runtime\":0}}]}\n",
             read_dir);
    struct fio_output o;
    int rc = fio_output_parse(text, strlen(text), "fio-3.33", &o, err, errlen);
    if (rc == 0)
        fio_output_free(&o);
    return rc;
}

#define LAT "\"lat_ns\":{\"min\":1000,\"max\":90000,\"mean\":20000,\"N\":50000}"

static void test_fio_figures_that_are_no_measurement(void **state)
{
    (void)state;
    char err[ERR_LEN];
    assert_int_equal(fio_parse("{\"total_ios\":50000,\"io_bytes\":204800000,\"runtime\":1000,"
                               LAT "}", err, sizeof(err)), 0);
    static const struct {
        const char *dir, *want;
    } bad[] = {
        {"{\"total_ios\":50000,\"io_bytes\":204800000,\"runtime\":0," LAT "}",
         "read: 50000 I/Os in a runtime of 0 ms: not a measurement"},
        {"{\"total_ios\":18446744073709551615,\"io_bytes\":204800000,\"runtime\":1000," LAT "}",
         "not a believable count"},
        {"{\"total_ios\":9000000000000000,\"io_bytes\":9000000000000000000,\"runtime\":1," LAT "}",
         "IOPS, more than 1e+10: not a believable count"},
        {"{\"total_ios\":0,\"io_bytes\":0,\"runtime\":1000}",
         "job 'j' did no I/O (read and write total_ios 0): not a complete round"},
        {"{\"total_ios\":50000,\"io_bytes\":204800000,\"runtime\":1000,"
         "\"lat_ns\":{\"min\":-1,\"max\":90000,\"mean\":20000,\"N\":50000}}",
         "latency min -1"},
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        assert_int_equal(fio_parse(bad[i].dir, err, sizeof(err)), -1);
        assert_one_line(err);
        assert_has(err, bad[i].want);
    }
    /* a job that failed keeps its own error for the caller (fio's errno is the message) */
    const char *failed = "{\"jobs\":[{\"jobname\":\"j\",\"error\":5,\"read\":{\"total_ios\":0}}]}";
    struct fio_output o;
    assert_int_equal(fio_output_parse(failed, strlen(failed), "fio-3.33", &o, err, sizeof(err)), 0);
    assert_int_equal(o.total.error, 5);
    fio_output_free(&o);
}

/* ---- PTS definitions ---- */

static const char *const base_def =
    "; a test definition\n"
    "[test]\n"
    "title = T\n"
    "mixes = 100, 0\n"
    "block_sizes = 128k, 4k\n"
    "threads = 1\n"
    "qd = 1\n"
    "element_time = 60s\n"
    "tracking = iops@4k/0\n"
    "stop = steady\n";

static void def_refused(const char *extra, const char *want)
{
    char *dir = make_temp_dir("defects");
    char text[2048];
    snprintf(text, sizeof(text), "%s%s", base_def, extra);
    char *path = put(dir, "t.ini", text);
    const char *dirs[] = {dir, NULL};
    struct pts_def d;
    char err[ERR_LEN];
    int rc = pts_def_load("t", NULL, dirs, &d, err, sizeof(err));
    if (rc == 0)
        fail_msg("accepted: %s", extra);
    assert_one_line(err);
    assert_has(err, path);
    assert_has(err, want);
    free(path);
    remove_tree(dir);
    free(dir);
}

static void test_pts_definition_checked_when_loaded(void **state)
{
    (void)state;
    def_refused("element_time = 0\n", ":11: element_time=0: want a duration of at least 1s");
    def_refused("element_time = 1ns\n", "element_time=1ns: want a duration of at least 1s");
    def_refused("mixes = 0\nblock_sizes = 3\n",
                ":12: block_sizes=3: block size 3 is not a multiple of 512 bytes");
    def_refused("block_sizes = 128k\n", ":9: tracking=iops@4k/0: iops@");
    def_refused("block_sizes = 128k\n", "its block size is not in block_sizes");
    def_refused("mixes = 100, 65\n", "its read percentage is not in mixes");
    def_refused("mixes = 100, 0, 100\n", "mixes=100, 0, 100: want read percentages 0..100");
    def_refused("block_sizes = 4k, 4k\n", "block size 4k is listed twice");
    def_refused("tracking = iops@element/0\n", "'element' is the subtest's block size");
    def_refused("max_rounds = 3\n", "max_rounds=3: steady state needs a window of 5 rounds");
    def_refused("wipc_bs = 0\n", "wipc_bs=0: want element or a block size");
    def_refused("kind = xsr\ngroups = seq/1024k/0/8h, rnd/8k/0/500ms\n",
                "groups=seq/1024k/0/8h, rnd/8k/0/500ms: want a duration of at least 1s");
    def_refused("kind = xsr\ngroups = seq/1024k/0/8h, rnd/8k/0/1s\n",
                "group 2 is shorter than one element_time");
}

static void test_pts_definitions_of_the_tree_load(void **state)
{
    (void)state;
    char dir[4096];
    const char *root = getenv("PTSBENCH_DATADIR");
    snprintf(dir, sizeof(dir), "%s/pts", root && *root ? root : ".");
    const char *dirs[] = {dir, NULL};
    static const char *const tests[] = {"iops", "tp", "lat", "wsat", "wsat-meta", "wsat-oltp",
                                        "wsat-vod", "hir", "xsr", "dirth", "cbw"};
    static const char *const specs[] = {NULL, "pts-e-1.1", "pts-c-1.2", "pts-2.0-e", "pts-2.0-c"};
    for (size_t t = 0; t < sizeof(tests) / sizeof(tests[0]); t++)
        for (size_t s = 0; s < sizeof(specs) / sizeof(specs[0]); s++) {
            struct pts_def d;
            char err[ERR_LEN];
            if (pts_def_load(tests[t], specs[s], dirs, &d, err, sizeof(err)) != 0)
                fail_msg("%s (%s): %s", tests[t], specs[s] ? specs[s] : "no spec", err);
        }
}

/* ---- profiles of many sections ---- */

static void test_profile_of_2000_sections_loads_in_linear_time(void **state)
{
    (void)state;
    enum { N = 2000 };
    char *dir = make_temp_dir("defects");
    size_t cap = (size_t)N * 64 + 256, len = 0;
    char *text = malloc(cap);
    len += (size_t)snprintf(text + len, cap - len, "; many sections\n[global]\nrw=randread\n");
    for (int i = 0; i < N; i++)
        len += (size_t)snprintf(text + len, cap - len, "[w%d]\nqd=%d\n\n", i, 1 + i % 32);
    unsigned long lines = 1;
    for (size_t i = 0; i < len; i++)
        lines += text[i] == '\n';
    char *path = put(dir, "big.ini", text);
    struct profile p;
    char err[ERR_LEN];
    unsigned long l0 = ini_lines_parsed(), c0 = ini_section_compares();
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    if (profile_load(path, NULL, &p, err, sizeof(err)) != 0)
        fail_msg("%s", err);
    clock_gettime(CLOCK_MONOTONIC, &b);
    unsigned long parsed = ini_lines_parsed() - l0, compares = ini_section_compares() - c0;
    printf("  %d sections: %.1f ms, %lu lines parsed (%lu in the file), %lu section-name "
           "compares\n", N, ((double)(b.tv_sec - a.tv_sec) * 1e3 + (double)(b.tv_nsec - a.tv_nsec) / 1e6),
           parsed, lines, compares);
    assert_int_equal(p.n, N);
    assert_int_equal(p.wls[N - 1].qd, 1 + (N - 1) % 32);
    assert_int_equal(parsed, lines);          /* the file is parsed once */
    assert_true(compares < 8ul * N);          /* hashed: a few per section, not N per section */
    profile_free(&p);
    free(path);
    free(text);
    remove_tree(dir);
    free(dir);
}

/* ---- json_path ---- */

static void test_json_path_typed_getters(void **state)
{
    (void)state;
    struct json_object *d = json_tokener_parse(
        "{\"a\":{\"b\":[1,\"x\",null,{\"c\":true}]},\"n\":NaN,\"i\":Infinity,\"s\":\"t\"}");
    assert_non_null(d);
    assert_null(jp_arr_at(d, "a"));
    assert_non_null(jp_obj_at(d, "a"));
    assert_non_null(jp_arr_at(d, "a.b"));
    assert_int_equal(jp_len(jp_at(d, "a")), 0);
    assert_int_equal(jp_len(jp_at(d, "a.b")), 4);
    assert_null(jp_idx(jp_at(d, "a.b"), 2));
    assert_null(jp_idx(jp_at(d, "a"), 0));
    assert_true(isnan(jp_path(d, "a.b.1")));
    assert_true(isnan(jp_num(d, "n")));
    assert_true(isnan(jp_num(d, "i")));
    assert_true(jp_true(jp_at(d, "a.b.3.c")));
    assert_false(jp_true(jp_at(d, "s")));
    assert_null(jp_string(jp_at(d, "a")));
    assert_string_equal(jp_string(jp_at(d, "s")), "t");

    static const struct jp_rule ok[] = {{"a", JP_OBJECT, false, 0, 0},
                                        {"a.b", JP_ARRAY, false, 0, 0},
                                        {"a.b.3.c", JP_BOOLEAN, false, 0, 0},
                                        {"missing.x", JP_NUMBER, false, 0, 0}};
    char err[ERR_LEN];
    assert_int_equal(jp_check(d, ok, 4, err, sizeof(err)), 0);
    static const struct jp_rule elems = {"a.b.*", JP_NUMBER, true, 0, 10};
    assert_int_equal(jp_check(d, &elems, 1, err, sizeof(err)), -1);
    assert_string_equal(err, "a.b.1: a string where a number belongs");
    static const struct jp_rule nan = {"n", JP_NUMBER, true, 0, 0};
    assert_int_equal(jp_check(d, &nan, 1, err, sizeof(err)), -1);
    assert_has(err, "n: nan is not a finite number");
    json_object_put(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_show_capacity_not_recorded),
        cmocka_unit_test(test_show_errors_are_one_line),
        cmocka_unit_test(test_report_unknown_schema_named),
        cmocka_unit_test(test_fio_figures_that_are_no_measurement),
        cmocka_unit_test(test_pts_definition_checked_when_loaded),
        cmocka_unit_test(test_pts_definitions_of_the_tree_load),
        cmocka_unit_test(test_profile_of_2000_sections_loads_in_linear_time),
        cmocka_unit_test(test_json_path_typed_getters),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
