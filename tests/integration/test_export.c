/* test_export.c — `ptsbench show` and `ptsbench export` on one fixture of each schema (run,
 * suite, profile, crosscheck): show prints each, and export's CSV, read back by Python's csv
 * module, has the columns docs/export.md documents, one row per record and the document's own
 * values (the workload specification's commas quoted). Bad input: exit 2, nothing written. */
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

static char *dir;

static int setup(void **state)
{
    (void)state;
    dir = make_temp_dir("export");
    return dir ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    remove_tree(dir);
    free(dir);
    return 0;
}

static void fixture(const char *name, char *buf, size_t len)
{
    snprintf(buf, len, "%s/tests/fixtures/results/%s",
             getenv("PTSBENCH_DATADIR") ? getenv("PTSBENCH_DATADIR") : ".", name);
}

static char *show(const char *name)
{
    char f[600];
    fixture(name, f, sizeof(f));
    char *argv[] = {(char *)ptsbench_bin(), "show", f, NULL};
    struct cmd_result r;
    assert_int_equal(run_cmd(argv, &r), 0);
    if (r.status != 0)
        print_message("show %s: %s", name, r.errout);
    assert_int_equal(r.status, 0);
    char *out = r.out;
    r.out = NULL;
    cmd_result_free(&r);
    return out;
}

/* export NAME --csv --out DIR/NAME.csv (and extra arguments); the file's path. */
static void export_csv(const char *name, const char *extra, char *csv, size_t len)
{
    char f[600];
    fixture(name, f, sizeof(f));
    snprintf(csv, len, "%s/%s.csv", dir, name);
    char *argv[] = {(char *)ptsbench_bin(), "export", f, "--csv", "--out", csv, (char *)extra,
                    NULL};
    struct cmd_result r;
    assert_int_equal(run_cmd(argv, &r), 0);
    if (r.status != 0)
        print_message("export %s: %s", name, r.errout);
    assert_int_equal(r.status, 0);
    cmd_result_free(&r);
}

/* Python's csv module reads the file: the header, the row count and the asked cells, one
 * line each ("header a,b,...", "rows N", then each cell's value). */
static const char *const py =
    "import csv, sys\n"
    "with open(sys.argv[1], newline='') as f:\n"
    "    rows = list(csv.reader(f, strict=True))\n"
    "assert all(len(r) == len(rows[0]) for r in rows), 'ragged rows'\n"
    "print('header ' + '|'.join(rows[0]))\n"
    "print('rows %d' % (len(rows) - 1))\n"
    "d = [dict(zip(rows[0], r)) for r in rows[1:]]\n"
    "for a in sys.argv[2:]:\n"
    "    i, c = a.split(':', 1)\n"
    "    print(d[int(i)][c])\n";

struct parsed {
    char header[8192];
    long rows;
    char cell[8][512];
};

static void py_read(const char *csv, const char *const *cells, unsigned n, struct parsed *p)
{
    char *argv[16] = {"python3", "-c", (char *)py, (char *)csv};
    for (unsigned i = 0; i < n; i++)
        argv[4 + i] = (char *)cells[i];
    argv[4 + n] = NULL;
    struct cmd_result r;
    if (run_cmd(argv, &r) != 0 || r.status == 127) {
        print_message("SKIP: python3 is not available\n");
        skip();
    }
    if (r.status != 0)
        print_message("python3: %s", r.errout);
    assert_int_equal(r.status, 0);
    char *save = NULL, *line = strtok_r(r.out, "\n", &save);
    assert_non_null(line);
    assert_true(!strncmp(line, "header ", 7));
    snprintf(p->header, sizeof(p->header), "%s", line + 7);
    line = strtok_r(NULL, "\n", &save);
    assert_non_null(line);
    assert_int_equal(sscanf(line, "rows %ld", &p->rows), 1);
    for (unsigned i = 0; i < n; i++) {
        line = strtok_r(NULL, "\n", &save);
        snprintf(p->cell[i], sizeof(p->cell[i]), "%s", line ? line : "");
    }
    cmd_result_free(&r);
}

/* Every column of the header is named in docs/export.md (as `name`, or as `D_...` for the
 * per-direction ones, or the percentile pattern). */
static void columns_documented(const char *header)
{
    char doc[600];
    snprintf(doc, sizeof(doc), "%s/docs/export.md",
             getenv("PTSBENCH_DATADIR") ? getenv("PTSBENCH_DATADIR") : ".");
    size_t len;
    char *text = slurp_file(doc, &len);
    assert_non_null(text);
    char h[8192];
    snprintf(h, sizeof(h), "%s", header);
    unsigned n = 0;
    for (char *save = NULL, *c = strtok_r(h, "|", &save); c; c = strtok_r(NULL, "|", &save)) {
        char want[300];
        const char *d = NULL;
        if (!strncmp(c, "read_", 5) || !strncmp(c, "total_", 6) || !strncmp(c, "write_", 6))
            d = strchr(c, '_') + 1;
        if (d && !strncmp(d, "lat_p", 5))
            snprintf(want, sizeof(want), "`D_lat_pP_us`");
        else
            snprintf(want, sizeof(want), "`%s%s`", d ? "D_" : "", d ? d : c);
        if (!strstr(text, want))
            print_message("column %s: %s not in docs/export.md\n", c, want);
        assert_non_null(strstr(text, want));
        n++;
    }
    assert_true(n >= 20);
    free(text);
}

static double num(const char *s)
{
    char *end;
    double v = strtod(s, &end);
    assert_true(end != s && *end == 0);
    return v;
}

static void test_run(void **state)
{
    (void)state;
    char *out = show("run-steady-6300");
    assert_non_null(strstr(out, "WDPC round, not judged"));
    free(out);
    char csv[700], f[600];
    export_csv("run-steady-6300", NULL, csv, sizeof(csv));
    fixture("run-steady-6300/results.json", f, sizeof(f));
    struct json_object *doc = load_json(f);
    const char *cells[] = {"0:record", "0:phase", "0:workload", "6:total_iops", "6:round",
                           "6:simulated", "6:condition", "0:bs"};
    struct parsed p;
    py_read(csv, cells, 8, &p);
    columns_documented(p.header);
    assert_int_equal(p.rows, (long)json_object_array_length(json_at(doc, "rounds")));
    assert_string_equal(p.cell[0], "run_round");
    assert_string_equal(p.cell[1], "wdpc");
    assert_string_equal(p.cell[2], json_object_get_string(json_at(doc, "workload.spec")));
    assert_non_null(strchr(p.cell[2], ','));   /* a quoted field came back whole */
    assert_true(num(p.cell[3]) == json_num(doc, "rounds.6.total.iops"));
    assert_true(num(p.cell[4]) == json_num(doc, "rounds.6.round"));
    assert_string_equal(p.cell[5], "true");
    assert_string_equal(p.cell[6], json_object_get_string(json_at(doc, "rounds.6.state.condition")));
    assert_string_equal(p.cell[7], "4096");
    json_object_put(doc);
}

static void test_suite(void **state)
{
    (void)state;
    char *out = show("suite-r4");
    assert_non_null(strstr(out, "IOPS (iops)"));
    assert_non_null(strstr(out, "steady state (SNIA PTS rule) at round 9"));
    assert_non_null(strstr(out, "2,499"));   /* 1 MiB reads: 2498.56 IOPS, with the separator */
    assert_non_null(strstr(out, "IOPS (sim)"));
    assert_non_null(strstr(out, "stopped by"));   /* WSAT: no steady state claimed */
    free(out);
    out = show("suite2-6300");   /* HIR, XSR, DIRTH headlines */
    assert_non_null(strstr(out, "wait state"));
    assert_non_null(strstr(out, "recovery: 0.002 minutes"));
    assert_non_null(strstr(out, "480,960"));   /* DIRTH's max operating point */
    free(out);

    char csv[700], f[600];
    export_csv("suite-r4", NULL, csv, sizeof(csv));
    fixture("suite-r4/results.json", f, sizeof(f));
    struct json_object *doc = load_json(f);
    long want = 0, first_table = -1;
    struct json_object *tests = json_at(doc, "tests");
    for (size_t i = 0; i < json_object_array_length(tests); i++) {
        struct json_object *subs = json_at(json_object_array_get_idx(tests, i), "subtests");
        for (size_t j = 0; j < json_object_array_length(subs); j++) {
            struct json_object *s = json_object_array_get_idx(subs, j);
            struct json_object *rounds = json_at(s, "rounds");
            for (size_t k = 0; k < json_object_array_length(rounds); k++)
                want += (long)json_object_array_length(
                    json_at(json_object_array_get_idx(rounds, k), "elements"));
            if (first_table < 0)
                first_table = want;
            want += (long)json_object_array_length(json_at(s, "table.rows"));
        }
    }
    char c0[32], c1[32], c2[32], c3[32];
    snprintf(c0, sizeof(c0), "%ld:record", first_table);
    snprintf(c1, sizeof(c1), "%ld:total_iops", first_table);
    snprintf(c2, sizeof(c2), "%ld:steady", first_table);
    snprintf(c3, sizeof(c3), "%ld:total_lat_mean_us", first_table);
    const char *cells[] = {"0:record", "0:test", "0:bs", c0, c1, c2, c3, "0:simulated"};
    struct parsed p;
    py_read(csv, cells, 8, &p);
    columns_documented(p.header);
    assert_int_equal(p.rows, want);
    assert_string_equal(p.cell[0], "suite_element");
    assert_string_equal(p.cell[1], "iops");
    assert_true(num(p.cell[2]) == json_num(doc, "tests.0.subtests.0.rounds.0.elements.0.bs"));
    assert_string_equal(p.cell[3], "suite_table");
    /* version 1: the flat "iops" of the table row, read as total.iops */
    assert_true(num(p.cell[4]) == json_num(doc, "tests.0.subtests.0.table.rows.0.iops"));
    assert_string_equal(p.cell[5], "true");
    assert_true(num(p.cell[6]) == json_num(doc, "tests.0.subtests.0.table.rows.0.lat_us.total.mean"));
    assert_string_equal(p.cell[7], "true");
    json_object_put(doc);
}

static void test_profile(void **state)
{
    (void)state;
    char *out = show("profile-r4");
    assert_non_null(strstr(out, "database"));
    free(out);
    char csv[700], f[600];
    export_csv("profile-r4", NULL, csv, sizeof(csv));
    fixture("profile-r4/results.json", f, sizeof(f));
    struct json_object *doc = load_json(f);
    long want = 0;
    struct json_object *pts = json_at(doc, "points");
    for (size_t i = 0; i < json_object_array_length(pts); i++)
        want += json_at(json_object_array_get_idx(pts, i), "result") != NULL;
    const char *cells[] = {"0:record", "0:test", "0:workers", "0:total_iops", "0:steady",
                           "0:compress_pct"};
    struct parsed p;
    py_read(csv, cells, 6, &p);
    columns_documented(p.header);
    assert_true(want > 1);
    assert_int_equal(p.rows, want);
    assert_string_equal(p.cell[0], "profile_point");
    assert_string_equal(p.cell[1], json_object_get_string(json_at(doc, "points.0.profile")));
    assert_true(num(p.cell[2]) == json_num(doc, "points.0.workers"));
    assert_true(num(p.cell[3]) == json_num(doc, "points.0.result.iops"));   /* version 1 */
    assert_string_equal(p.cell[4], json_object_get_boolean(json_at(doc, "points.0.result.steady"))
                                       ? "true" : "false");
    assert_true(num(p.cell[5]) == json_num(doc, "points.0.compress_pct"));
    json_object_put(doc);
}

static void test_crosscheck(void **state)
{
    (void)state;
    char *out = show("crosscheck-file");
    assert_non_null(strstr(out, "fio/native"));
    assert_non_null(strstr(out, "44,864"));   /* io_uring's IOPS */
    free(out);
    char csv[700], f[600];
    export_csv("crosscheck-file", NULL, csv, sizeof(csv));
    fixture("crosscheck-file/results.json", f, sizeof(f));
    struct json_object *doc = load_json(f);
    const char *cells[] = {"0:record", "0:engine", "1:engine", "1:total_iops", "0:simulated",
                           "1:read_lat_p99.9_us"};
    struct parsed p;
    py_read(csv, cells, 6, &p);
    columns_documented(p.header);
    assert_int_equal(p.rows, 2);
    assert_string_equal(p.cell[0], "crosscheck_run");
    assert_string_equal(p.cell[1], "io_uring");
    assert_string_equal(p.cell[2], "fio");
    assert_true(num(p.cell[3]) == json_num(doc, "runs.1.round.total.iops"));
    assert_string_equal(p.cell[4], "false");
    struct json_object *pc = json_at(doc, "runs.1.round.read.lat_us.percentiles"), *v;
    assert_true(json_object_object_get_ex(pc, "99.9", &v));   /* a key with a dot */
    assert_true(num(p.cell[5]) == json_object_get_double(v));
    json_object_put(doc);
}

/* --percentiles: the columns asked for, in that order; one the document lacks is refused. */
static void test_percentiles(void **state)
{
    (void)state;
    char csv[700];
    export_csv("crosscheck-file", "--percentiles=99.9,50", csv, sizeof(csv));
    struct parsed p;
    py_read(csv, NULL, 0, &p);
    assert_non_null(strstr(p.header, "total_lat_p99.9_us|total_lat_p50_us"));
    assert_null(strstr(p.header, "p90"));

    char f[600], bad[700];
    fixture("suite-r4", f, sizeof(f));
    snprintf(bad, sizeof(bad), "%s/bad.csv", dir);
    char *argv[] = {(char *)ptsbench_bin(), "export", f, "--out", bad, "--percentiles", "99,95",
                    NULL};
    struct cmd_result r;
    assert_int_equal(run_cmd(argv, &r), 0);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.errout, "--percentiles 95:"));
    assert_non_null(strstr(r.errout, "it holds 50, 90, 99"));
    assert_true(strchr(r.errout, '\n') == r.errout + strlen(r.errout) - 1);   /* one line */
    cmd_result_free(&r);
    struct stat st;
    assert_int_not_equal(stat(bad, &st), 0);
}

/* --histogram: DIRTH's operating points' buckets; a run has none (exit 2). */
static void test_histogram(void **state)
{
    (void)state;
    char csv[700], f[600];
    export_csv("suite2-6300", "--histogram", csv, sizeof(csv));
    fixture("suite2-6300/results.json", f, sizeof(f));
    struct json_object *doc = load_json(f);
    struct json_object *sub = json_at(doc, "tests.2.subtests.0.operating_points");
    long want = 0;
    static const char *const ops[] = {"max.histogram.buckets", "mid.histogram.buckets",
                                      "min.histogram.buckets"};
    for (int i = 0; i < 3; i++)
        want += (long)json_object_array_length(json_at(sub, ops[i]));
    const char *cells[] = {"0:record", "0:point", "0:low_us", "0:count"};
    struct parsed p;
    py_read(csv, cells, 4, &p);
    assert_true(want > 10);
    assert_int_equal(p.rows, want);
    assert_string_equal(p.cell[0], "histogram_bucket");
    assert_string_equal(p.cell[1], "max");
    assert_true(num(p.cell[2]) == json_num(sub, "max.histogram.buckets.0.0"));
    assert_true(num(p.cell[3]) == json_num(sub, "max.histogram.buckets.0.2"));
    json_object_put(doc);

    fixture("run-steady-6300", f, sizeof(f));
    char *argv[] = {(char *)ptsbench_bin(), "export", f, "--histogram", NULL};
    struct cmd_result r;
    assert_int_equal(run_cmd(argv, &r), 0);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.errout, "holds no latency histogram"));
    assert_string_equal(r.out, "");
    cmd_result_free(&r);
}

/* A run of today records the 95th percentile: export --percentiles 95 gives it, between the
 * 90th and the 99th (JSON lines: numbers, the simulated mark a boolean). */
static void test_fresh_run_p95(void **state)
{
    (void)state;
    char out[700];
    snprintf(out, sizeof(out), "%s/fresh", dir);
    char *argv[] = {(char *)ptsbench_bin(), "run", "--target", "sim:zdrive-r4-cm88-1.6t",
                    "--workload", "rw=randrw,bs=4k,qd=8,workers=2", "--round-time", "5s", "-n",
                    "2", "--quiet", "--out", out, NULL};
    struct json_object *doc = ptsbench_results(argv, out, 0, NULL);
    assert_non_null(doc);
    json_object_put(doc);
    char *eargv[] = {(char *)ptsbench_bin(), "export", out, "--json-lines", "--percentiles",
                     "90,95,99", NULL};
    struct cmd_result r;
    assert_int_equal(run_cmd(eargv, &r), 0);
    if (r.status != 0)
        print_message("export: %s", r.errout);
    assert_int_equal(r.status, 0);
    char *nl = strchr(r.out, '\n');
    assert_non_null(nl);
    *nl = 0;
    struct json_object *row = json_tokener_parse(r.out);
    assert_non_null(row);
    assert_string_equal(json_object_get_string(json_at(row, "record")), "run_round");
    assert_true(json_object_get_boolean(json_at(row, "simulated")));
    double p90 = json_num(row, "total_lat_p90_us"), p95 = json_num(row, "total_lat_p95_us");
    double p99 = json_num(row, "total_lat_p99_us");
    print_message("p90 %.1f p95 %.1f p99 %.1f us\n", p90, p95, p99);
    assert_true(isfinite(p95) && p95 >= p90 && p95 <= p99 && p95 > 0);
    json_object_put(row);
    cmd_result_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_run),
        cmocka_unit_test(test_suite),
        cmocka_unit_test(test_profile),
        cmocka_unit_test(test_crosscheck),
        cmocka_unit_test(test_percentiles),
        cmocka_unit_test(test_histogram),
        cmocka_unit_test(test_fresh_run_p95),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
