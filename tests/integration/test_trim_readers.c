/* test_trim_readers.c — the readers show trims (fio's rw=trim, randtrim, trimwrite) when a
 * results file has them, and nothing of them when it has none.
 *
 * One short simulated run (randwrite, 2 rounds of 1 s of virtual time) is the file without
 * trims; a copy edited with json-c is the file with them: every round gets a "trim" object
 * beside "read" and "write" (12,345 trims, 77.5 us mean latency), its total summing the three,
 * a lat_hist "trim" array and samples "trim_iops"/"trim_mb_s" (reports/results-schema.md).
 *   - read/: the measured point keeps trim_iops 12,345 and trim_lat_mean_us 77.5 over its 2
 *     rounds; read_has_trim says so (and not of the plain file); a histogram of READ_HIST_TRIM
 *     holds the trims, READ_HIST_TOTAL the writes and the trims;
 *   - show: a "trim" column, 12,345 in each round's row; export (TSV): trim_iops and
 *     trim_lat_mean_us columns with the document's values; report (Markdown): a Trim IOPS
 *     column and the trims' table; the rounds chart's script draws "trim IOPS" (gnuplot);
 *     db import: trim_iops and trim_lat_mean_us measurements;
 *   - the plain file: no trim column in show, export, report or the chart, no trim_*
 *     measurement in the history;
 *   - a malformed trim (a string for trim.iops): show exits 2 with one line naming it. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <json-c/json.h>
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "helpers.h"
#include "read/histogram.h"
#include "read/load.h"
#include "read/measure.h"

#define TRIMS 12345
#define TRIM_LAT_US 77.5

static char *dir;
static char plain[4200], trimmed[4200], bad[4200];

/* A copy of dir/name/results.json's path. */
static void results_of(const char *name, char *buf, size_t len)
{
    snprintf(buf, len, "%s/%s/results.json", dir, name);
}

static void set_num(struct json_object *o, const char *key, double v)
{
    json_object_object_add(o, key, json_object_new_double(v));
}

static void add_num(struct json_object *o, const char *key, double v)
{
    set_num(o, key, json_object_get_double(json_object_object_get(o, key)) + v);
}

/* The trim object of a record (the write's shape, the trims' figures), its total summing it. */
static void add_trim(struct json_object *rec, double elapsed_s)
{
    struct json_object *w = json_object_object_get(rec, "write"), *t = NULL;
    assert_non_null(w);
    assert_int_equal(json_object_deep_copy(w, &t, NULL), 0);
    const double ios = TRIMS * elapsed_s, bytes = ios * 4096;
    set_num(t, "ios", ios);
    set_num(t, "bytes", bytes);
    set_num(t, "iops", TRIMS);
    set_num(t, "mb_s", TRIMS * 4096 / 1e6);
    set_num(t, "mib_s", TRIMS * 4096 / 1048576.0);
    struct json_object *lat = json_object_object_get(t, "lat_us");
    set_num(lat, "count", ios);
    set_num(lat, "mean", TRIM_LAT_US);
    json_object_object_add(rec, "trim", t);
    struct json_object *tot = json_object_object_get(rec, "total");
    add_num(tot, "ios", ios);
    add_num(tot, "bytes", bytes);
    add_num(tot, "iops", TRIMS);
    add_num(tot, "mb_s", TRIMS * 4096 / 1e6);
    add_num(tot, "mib_s", TRIMS * 4096 / 1048576.0);
    /* lat_hist: every trim in the write's first bucket */
    struct json_object *lh = json_object_object_get(rec, "lat_hist");
    assert_non_null(lh);
    struct json_object *wb = json_object_object_get(lh, "write");
    struct json_object *pairs = json_object_new_array();
    json_object_array_add(pairs, json_object_get(json_object_array_get_idx(wb, 0)));
    json_object_array_add(pairs, json_object_new_int64((int64_t)ios));
    json_object_object_add(lh, "trim", pairs);
    struct json_object *sm = json_object_object_get(rec, "samples");
    const char *series[] = {"trim_iops", "trim_mb_s"};
    for (int k = 0; k < 2; k++) {
        size_t n = json_object_array_length(json_object_object_get(sm, "iops"));
        struct json_object *a = json_object_new_array();
        for (size_t i = 0; i < n; i++)
            json_object_array_add(a, json_object_new_double(k ? TRIMS * 4096 / 1e6 : TRIMS));
        json_object_object_add(sm, series[k], a);
    }
}

/* dir/name/results.json: the plain run's document with trims (bad: trim.iops a string). */
static void write_trimmed(const char *name, bool malformed, char *path, size_t len)
{
    struct json_object *doc = load_json(plain);
    assert_non_null(doc);
    struct json_object *rounds = json_object_object_get(doc, "rounds");
    for (size_t i = 0; i < json_object_array_length(rounds); i++) {
        struct json_object *r = json_object_array_get_idx(rounds, i);
        add_trim(r, json_object_get_double(json_object_object_get(r, "elapsed_s")));
        if (malformed)
            json_object_object_add(json_object_object_get(r, "trim"), "iops",
                                   json_object_new_string("many"));
    }
    char d[4200];
    snprintf(d, sizeof(d), "%s/%s", dir, name);
    assert_int_equal(mkdir(d, 0755), 0);
    results_of(name, path, len);
    assert_int_equal(json_object_to_file_ext(path, doc, JSON_C_TO_STRING_PRETTY), 0);
    json_object_put(doc);
}

static int setup(void **state)
{
    (void)state;
    dir = make_temp_dir("trim-readers");
    if (!dir)
        return -1;
    char out[4200];
    snprintf(out, sizeof(out), "%s/plain", dir);
    const char *args[] = {"run", "--target", "sim:generic-mlc25", "--workload",
                          "rw=randwrite,bs=4k", "--rounds", "2", "--round-time", "1", "--out",
                          out, "--quiet", NULL};
    struct cmd_result r;
    int st = ptsbench_run(&r, args);
    if (st != 0)
        print_message("run: %s", r.errout);
    cmd_result_free(&r);
    if (st != 0)
        return -1;
    results_of("plain", plain, sizeof(plain));
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    remove_tree(dir);
    free(dir);
    return 0;
}

/* ptsbench ARGS...: its stdout (the caller frees), the exit status checked. */
static char *cmd_out(int want, const char *const *args)
{
    struct cmd_result r;
    int st = ptsbench_run(&r, args);
    if (st != want)
        print_message("ptsbench %s %s: exit %d: %s", args[0], args[1], st, r.errout);
    assert_int_equal(st, want);
    char *out = want ? r.errout : r.out;
    if (want)
        r.errout = NULL;
    else
        r.out = NULL;
    cmd_result_free(&r);
    return out;
}

/* The line of text that starts (after blanks) with word, copied into buf; false if none. */
static bool line_of(const char *text, const char *word, char *buf, size_t len)
{
    for (const char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
        const char *s = l;
        while (*s == ' ')
            s++;
        if (!strncmp(s, word, strlen(word))) {
            size_t n = strcspn(l, "\n");
            snprintf(buf, len, "%.*s", (int)(n < len ? n : len - 1), l);
            return true;
        }
    }
    return false;
}

static void test_measure_and_histogram(void **state)
{
    (void)state;
    write_trimmed("measure", false, trimmed, sizeof(trimmed));
    struct meas_set s = {0}, p = {0};
    char err[512];
    assert_int_equal(meas_load(trimmed, &s, err, sizeof(err)), 0);
    assert_int_equal(s.n, 1);
    assert_true(meas_point_has_trim(&s.p[0]));
    assert_float_equal(s.p[0].v[MEAS_TRIM_IOPS], TRIMS, 1e-6);
    assert_float_equal(s.p[0].v[MEAS_TRIM_LAT_MEAN_US], TRIM_LAT_US, 1e-6);
    assert_float_equal(s.p[0].v[MEAS_TRIM_MB_S], TRIMS * 4096 / 1e6, 1e-6);
    assert_string_equal(meas_metric_name(MEAS_TRIM_IOPS), "trim_iops");
    enum meas_metric m;
    assert_int_equal(meas_metric_parse_all("trim_lat_mean_us", &m), 0);
    assert_int_equal(m, MEAS_TRIM_LAT_MEAN_US);
    assert_int_equal(meas_metric_parse("trim_iops", &m), -1);   /* not a gate metric */
    assert_int_equal(meas_load(plain, &p, err, sizeof(err)), 0);
    assert_false(meas_point_has_trim(&p.p[0]));
    assert_true(isnan(p.p[0].v[MEAS_TRIM_IOPS]));
    assert_float_equal(s.p[0].v[MEAS_WRITE_IOPS], p.p[0].v[MEAS_WRITE_IOPS], 1e-9);
    meas_free(&s);
    meas_free(&p);

    struct json_object *doc = NULL, *pdoc = NULL;
    assert_int_equal(read_load(trimmed, READ_RUN, READ_VOICE_PLAIN, &doc, NULL, 0, err,
                               sizeof(err)), 0);
    assert_int_equal(read_load(plain, READ_RUN, READ_VOICE_PLAIN, &pdoc, NULL, 0, err,
                               sizeof(err)), 0);
    assert_true(read_has_trim(doc));
    assert_false(read_has_trim(pdoc));
    struct json_object *r0 = json_object_array_get_idx(json_object_object_get(doc, "rounds"), 0);
    const double ios = json_num(r0, "trim.ios"), wios = json_num(r0, "write.ios");
    struct read_hist tr, to, wr;
    read_hist_init(&tr);
    read_hist_init(&to);
    read_hist_init(&wr);
    assert_int_equal(read_hist_add(&tr, r0, READ_HIST_TRIM), 1);
    assert_int_equal(read_hist_add(&to, r0, READ_HIST_TOTAL), 1);
    assert_int_equal(read_hist_add(&wr, r0, READ_HIST_WRITE), 1);
    assert_int_equal(read_hist_count(&tr), (uint64_t)ios);
    assert_int_equal(read_hist_count(&wr), (uint64_t)wios);
    assert_int_equal(read_hist_count(&to), (uint64_t)(ios + wios));
    json_object_put(doc);
    json_object_put(pdoc);
}

static void test_show(void **state)
{
    (void)state;
    write_trimmed("show", false, trimmed, sizeof(trimmed));
    const char *a[] = {"show", trimmed, NULL};
    char *out = cmd_out(0, a), line[512];
    assert_true(line_of(out, "round", line, sizeof(line)));
    assert_non_null(strstr(line, " trim "));
    assert_true(strstr(line, " write ") < strstr(line, " trim "));
    assert_true(line_of(out, "1 ", line, sizeof(line)));
    assert_non_null(strstr(line, " 12,345 "));
    assert_true(line_of(out, "2 ", line, sizeof(line)));
    assert_non_null(strstr(line, " 12,345 "));
    free(out);
    const char *b[] = {"show", plain, NULL};
    out = cmd_out(0, b);
    assert_true(line_of(out, "round", line, sizeof(line)));
    assert_null(strstr(line, "trim"));
    assert_null(strstr(out, "12,345"));
    free(out);
}

/* The header of an export (TSV: no quoting), and the index of column name in it (-1: none). */
static int tsv_col(const char *text, const char *name)
{
    int col = 0;
    size_t n = strlen(name);
    for (const char *c = text; *c && *c != '\n'; col++) {
        size_t w = strcspn(c, "\t\n");
        if (w == n && !strncmp(c, name, n))
            return col;
        c += w + (c[w] == '\t');
    }
    return -1;
}

static void test_export(void **state)
{
    (void)state;
    write_trimmed("export", false, trimmed, sizeof(trimmed));
    const char *a[] = {"export", trimmed, "--tsv", NULL};
    char *out = cmd_out(0, a);
    const int ti = tsv_col(out, "trim_iops");
    assert_true(ti > 0);
    assert_true(tsv_col(out, "trim_lat_mean_us") > ti);
    assert_true(tsv_col(out, "write_iops") >= 0 && tsv_col(out, "write_iops") < ti);
    assert_true(tsv_col(out, "total_iops") > ti);
    const int tl = tsv_col(out, "trim_lat_mean_us");
    unsigned rows = 0;
    for (const char *l = strchr(out, '\n') + 1; *l; l = strchr(l, '\n') + 1, rows++) {
        const char *c = l;
        for (int k = 0; k < ti; k++)
            c = strchr(c, '\t') + 1;
        assert_float_equal(strtod(c, NULL), TRIMS, 1e-9);
        for (int k = ti; k < tl; k++)
            c = strchr(c, '\t') + 1;
        assert_float_equal(strtod(c, NULL), TRIM_LAT_US, 1e-9);
    }
    assert_int_equal(rows, 2);
    free(out);
    const char *b[] = {"export", plain, "--csv", NULL};
    out = cmd_out(0, b);
    size_t hl = strcspn(out, "\r\n");
    char head[8192];
    snprintf(head, sizeof(head), "%.*s", (int)hl, out);
    assert_null(strstr(head, "trim"));
    assert_non_null(strstr(head, ",write_iops,"));
    free(out);
}

static void test_report(void **state)
{
    (void)state;
    write_trimmed("report", false, trimmed, sizeof(trimmed));
    char out[4200], md[4300];
    snprintf(out, sizeof(out), "%s/report-trim", dir);
    const char *a[] = {"report", trimmed, "--out", out, NULL};
    free(cmd_out(0, a));
    snprintf(md, sizeof(md), "%s/report.md", out);
    char *text = slurp_file(md, NULL);
    assert_non_null(text);
    assert_non_null(strstr(text, "| Write IOPS | Trim IOPS | MB/s |"));
    assert_non_null(strstr(text, "| 12,345 |"));
    assert_non_null(strstr(text, "| Trim IOPS | Trim MB/s | Trim mean latency |"));
    assert_non_null(strstr(text, "| 2 | 12,345 | 50.6 | 77.5 µs |"));
    free(text);
    char gp[4300];
    snprintf(gp, sizeof(gp), "%s/plots/run-rounds.gp", out);
    char *script = slurp_file(gp, NULL);
    if (script) {   /* the charts are there when gnuplot is */
        assert_non_null(strstr(script, "trim IOPS"));
        free(script);
    }
    snprintf(out, sizeof(out), "%s/report-plain", dir);
    const char *b[] = {"report", plain, "--out", out, NULL};
    free(cmd_out(0, b));
    snprintf(md, sizeof(md), "%s/report.md", out);
    text = slurp_file(md, NULL);
    assert_non_null(text);
    assert_non_null(strstr(text, "| Write IOPS | MB/s |"));
    assert_null(strstr(text, "Trim"));
    free(text);
    snprintf(gp, sizeof(gp), "%s/plots/run-rounds.gp", out);
    script = slurp_file(gp, NULL);
    if (script) {
        assert_null(strstr(script, "trim"));
        free(script);
    }
}

/* The count and sum of the history's measurements of this metric. */
static void sql_metric(const char *db, const char *metric, long long *n, double *mean)
{
    sqlite3 *h;
    assert_int_equal(sqlite3_open(db, &h), SQLITE_OK);
    sqlite3_stmt *st;
    assert_int_equal(sqlite3_prepare_v2(h, "SELECT count(*), total(mean) FROM measurements "
                                           "WHERE metric = ?", -1, &st, NULL), SQLITE_OK);
    sqlite3_bind_text(st, 1, metric, -1, SQLITE_STATIC);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    *n = sqlite3_column_int64(st, 0);
    *mean = sqlite3_column_double(st, 1);
    sqlite3_finalize(st);
    sqlite3_close(h);
}

static void test_db_import(void **state)
{
    (void)state;
    write_trimmed("db", false, trimmed, sizeof(trimmed));
    char db[4200], db2[4200];
    snprintf(db, sizeof(db), "%s/trim.db", dir);
    snprintf(db2, sizeof(db2), "%s/plain.db", dir);
    const char *a[] = {"db", "import", "--db", db, trimmed, NULL};
    free(cmd_out(0, a));
    long long n;
    double v;
    sql_metric(db, "trim_iops", &n, &v);
    assert_int_equal(n, 1);
    assert_float_equal(v, TRIMS, 1e-6);
    sql_metric(db, "trim_lat_mean_us", &n, &v);
    assert_int_equal(n, 1);
    assert_float_equal(v, TRIM_LAT_US, 1e-6);
    sql_metric(db, "write_iops", &n, &v);
    assert_int_equal(n, 1);
    const char *b[] = {"db", "import", "--db", db2, plain, NULL};
    free(cmd_out(0, b));
    sql_metric(db2, "trim_iops", &n, &v);
    assert_int_equal(n, 0);
    sql_metric(db2, "write_iops", &n, &v);
    assert_int_equal(n, 1);
}

static void test_malformed_trim(void **state)
{
    (void)state;
    write_trimmed("bad", true, bad, sizeof(bad));
    const char *a[] = {"show", bad, NULL};
    char *err = cmd_out(2, a);
    assert_true(is_one_line(err));
    assert_non_null(strstr(err, "trim.iops"));
    free(err);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_measure_and_histogram),
        cmocka_unit_test(test_show),
        cmocka_unit_test(test_export),
        cmocka_unit_test(test_report),
        cmocka_unit_test(test_db_import),
        cmocka_unit_test(test_malformed_trim),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
