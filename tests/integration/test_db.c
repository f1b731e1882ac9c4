/* test_db.c — `ptsbench db` and `gate --db` end to end:
 *   - two `db import` processes at once on one new file, each with every fixture: both exit 0,
 *     the file holds each run once and SQLite's integrity_check says "ok";
 *   - bad input: a results file that is not one, a foreign --db file: exit 2, one line naming
 *     it, nothing written (no database created, the foreign file unchanged);
 *   - the history gate: 10 runs made from the run fixture (IOPS x 1.000, 1.004, 1.008, ...,
 *     one of them, the newest, an outlier at x 1.30). The current run at x 1.00 passes against
 *     median:10 (the median ignores the outlier; its band stays the windows' ~2%) but fails
 *     against last:1 (that one outlier as the baseline: -23%), which shows the verdict is the
 *     history's and not one run's; at x 0.90 (a real 10% regression) it fails against
 *     median:10 with an iops regression in the JSON and the JUnit;
 *   - a trend: 12 runs of the simulated drive, the firmware cost of a write (c_w_us) raised
 *     from 2 to 13 us after the sixth (a firmware change: the write path's CPU cost, 1/13 us =
 *     77K IOPS below the NAND's ~100K), imported with run --db; the chart's data has the 12
 *     runs, the last 6 more than 15% below the first 6, each group flat within 5%, and the
 *     table marks the first run after the step as outside its band; --over firmware gives two
 *     rows of 6 runs. */
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
#include <sys/wait.h>
#include <unistd.h>

#include "helpers.h"

static char *dir;

static int setup(void **state)
{
    (void)state;
    dir = make_temp_dir("db");
    return dir ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    remove_tree(dir);
    free(dir);
    return 0;
}

static const char *tmp_path(const char *name)
{
    static char buf[8][4096];
    static unsigned k;
    char *b = buf[k++ % 8];
    snprintf(b, 4096, "%s/%s", dir, name);
    return b;
}

static const char *fixture(const char *name)
{
    char path[512];
    snprintf(path, sizeof(path), "results/%s", name);
    return test_fixture_path(path);
}

/* ptsbench ARGS... (NULL-terminated); the exit status, output in *r. */
static int pb(struct cmd_result *r, const char *const *args) { return ptsbench_run(r, args); }

static long long sql_count(const char *path, const char *query)
{
    sqlite3 *h;
    assert_int_equal(sqlite3_open(path, &h), SQLITE_OK);
    sqlite3_stmt *st;
    assert_int_equal(sqlite3_prepare_v2(h, query, -1, &st, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    long long n = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    sqlite3_close(h);
    return n;
}

static const char *const fixtures[] = {"run-generic", "run-burst-r4",  "run-steady-6300",
                                       "suite-6300",  "suite-r4",      "suite2-6300",
                                       "profile-r4",  "ramp-6300",     "ramp-r4"};
#define N_FIX (sizeof(fixtures) / sizeof(fixtures[0]))

static void test_two_imports_at_once(void **state)
{
    (void)state;
    const char *db = tmp_path("concurrent.db");
    char *argv[2][N_FIX + 6];
    for (int k = 0; k < 2; k++) {
        int n = 0;
        argv[k][n++] = (char *)ptsbench_bin();
        argv[k][n++] = "db";
        argv[k][n++] = "import";
        argv[k][n++] = "--db";
        argv[k][n++] = (char *)db;
        for (size_t i = 0; i < N_FIX; i++)   /* the second in reverse order */
            argv[k][n++] = (char *)fixture(fixtures[k ? N_FIX - 1 - i : i]);
        argv[k][n] = NULL;
    }
    pid_t pid[2];
    for (int k = 0; k < 2; k++) {
        pid[k] = fork();
        assert_true(pid[k] >= 0);
        if (pid[k] == 0) {
            freopen("/dev/null", "w", stdout);
            execv(argv[k][0], argv[k]);
            _exit(127);
        }
    }
    for (int k = 0; k < 2; k++) {
        int st;
        assert_int_equal(waitpid(pid[k], &st, 0), pid[k]);
        assert_true(WIFEXITED(st));
        assert_int_equal(WEXITSTATUS(st), 0);
    }
    assert_int_equal(sql_count(db, "SELECT count(*) FROM runs"), (long long)N_FIX);
    assert_int_equal(sql_count(db, "SELECT count(*) FROM (SELECT identity FROM runs GROUP BY "
                                   "identity HAVING count(*) > 1)"), 0);
    assert_int_equal(sql_count(db, "SELECT count(*) FROM points WHERE run_id NOT IN (SELECT id "
                                   "FROM runs)"), 0);
    sqlite3 *h;
    assert_int_equal(sqlite3_open(db, &h), SQLITE_OK);
    sqlite3_stmt *st;
    assert_int_equal(sqlite3_prepare_v2(h, "PRAGMA integrity_check", -1, &st, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    assert_string_equal((const char *)sqlite3_column_text(st, 0), "ok");
    sqlite3_finalize(st);
    assert_int_equal(sqlite3_prepare_v2(h, "PRAGMA journal_mode", -1, &st, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    assert_string_equal((const char *)sqlite3_column_text(st, 0), "wal");
    sqlite3_finalize(st);
    sqlite3_close(h);
}

static void one_line(const struct cmd_result *r, const char *want)
{
    if (!strstr(r->errout, want))
        fail_msg("stderr '%s' lacks '%s'", r->errout, want);
    const char *nl = strchr(r->errout, '\n');
    assert_true(nl && nl[1] == '\0');
}

static void test_bad_input(void **state)
{
    (void)state;
    struct cmd_result r;
    const char *db = tmp_path("never.db");
    const char *a1[] = {"db", "import", "--db", db, fixture("run-generic"),
                        fixture("crosscheck-file"), NULL};
    assert_int_equal(pb(&r, a1), 2);
    one_line(&r, "ptsbench.crosscheck");
    assert_false(access(db, F_OK) == 0);   /* nothing written, not even the run before it */
    cmd_result_free(&r);

    const char *text = tmp_path("notes.txt");
    FILE *f = fopen(text, "w");
    assert_non_null(f);
    fputs("hello\n", f);
    fclose(f);
    const char *a2[] = {"db", "import", "--db", text, fixture("run-generic"), NULL};
    assert_int_equal(pb(&r, a2), 2);
    one_line(&r, "not a SQLite database");
    cmd_result_free(&r);
    char *t = slurp_file(text, NULL);
    assert_string_equal(t, "hello\n");
    free(t);

    const char *a3[] = {"db", "trend", "--db", text, "--metric", "iops", NULL};
    assert_int_equal(pb(&r, a3), 2);
    one_line(&r, text);
    cmd_result_free(&r);
    const char *a4[] = {"db", "trend", "--db", db, "--metric", "speed", NULL};
    assert_int_equal(pb(&r, a4), 2);
    one_line(&r, "--metric speed");
    cmd_result_free(&r);
    const char *a5[] = {"gate", "--db", db, "--against", "mean:3", "--current",
                        fixture("run-generic"), NULL};
    assert_int_equal(pb(&r, a5), 2);
    one_line(&r, "--against mean:3");
    cmd_result_free(&r);
    const char *a6[] = {"run", "--target", "sim:generic-mlc25", "--workload",
                        "rw=randwrite,bs=4k,qd=32", "--round-time", "1s", "-n", "1", "-q", "-o",
                        tmp_path("run-bad-db"), "--db", text, NULL};
    assert_int_equal(pb(&r, a6), 2);
    one_line(&r, "--db");
    assert_false(access(tmp_path("run-bad-db"), F_OK) == 0);
    cmd_result_free(&r);
}

/* The run fixture with every IOPS and MB/s figure of its rounds times f and its own start
 * time (another run), written to name. */
static const char *scaled_run(const char *name, double f, int minute)
{
    char src[4200];
    snprintf(src, sizeof(src), "%s/results.json", fixture("run-generic"));
    struct json_object *doc = load_json(src);
    assert_non_null(doc);
    char started[32];
    snprintf(started, sizeof(started), "2026-12-01T10:%02d:00Z", minute);
    json_object_object_add(doc, "started", json_object_new_string(started));
    struct json_object *rounds = json_object_object_get(doc, "rounds");
    for (size_t i = 0; i < json_object_array_length(rounds); i++) {
        struct json_object *ro = json_object_array_get_idx(rounds, i);
        const char *dirs[] = {"read", "write", "total"}, *keys[] = {"iops", "mb_s", "mib_s"};
        for (int d = 0; d < 3; d++) {
            struct json_object *o = json_object_object_get(ro, dirs[d]);
            for (int k = 0; o && k < 3; k++) {
                struct json_object *v = json_object_object_get(o, keys[k]);
                if (v && (json_object_is_type(v, json_type_double) ||
                          json_object_is_type(v, json_type_int)))
                    json_object_object_add(o, keys[k],
                                           json_object_new_double(json_object_get_double(v) * f));
            }
        }
    }
    const char *out = tmp_path(name);
    assert_int_equal(json_object_to_file_ext(out, doc, JSON_C_TO_STRING_PLAIN), 0);
    json_object_put(doc);
    return out;
}

static void test_gate_history_outlier_and_regression(void **state)
{
    (void)state;
    char db[4096];
    snprintf(db, sizeof(db), "%s", tmp_path("history.db"));
    struct cmd_result r;
    for (int i = 0; i < 10; i++) {
        char name[64];
        snprintf(name, sizeof(name), "hist-%d.json", i);
        double f = i == 9 ? 1.30 : 1.0 + 0.004 * (i % 3);   /* the newest is the outlier */
        char path[4096];
        snprintf(path, sizeof(path), "%s", scaled_run(name, f, i));
        const char *a[] = {"db", "import", "-q", "--db", db, path, NULL};
        assert_int_equal(pb(&r, a), 0);
        cmd_result_free(&r);
    }
    assert_int_equal(sql_count(db, "SELECT count(*) FROM runs"), 10);
    char same[4096], low[4096];
    snprintf(same, sizeof(same), "%s", scaled_run("current.json", 1.0, 30));
    snprintf(low, sizeof(low), "%s", scaled_run("current-low.json", 0.90, 31));

    /* the median of 10 with one outlier: the same figures pass */
    const char *a1[] = {"gate", "--db", db, "--against", "median:10", "--current", same,
                        "--json", tmp_path("pass.json"), NULL};
    if (pb(&r, a1) != 0)
        fail_msg("%s", r.errout);
    assert_non_null(strstr(r.out, "gate: PASS"));
    cmd_result_free(&r);
    struct json_object *j = load_json(tmp_path("pass.json"));
    assert_non_null(j);
    assert_int_equal(json_object_get_int(json_at(j, "summary.regression")), 0);
    assert_true(json_object_get_int(json_at(j, "summary.pass")) >= 4);
    json_object_put(j);

    /* the outlier alone as the baseline flips it */
    const char *a2[] = {"gate", "--db", db, "--against", "last:1", "--current", same, NULL};
    assert_int_equal(pb(&r, a2), 1);
    assert_non_null(strstr(r.out, "REGRESSION"));
    cmd_result_free(&r);

    /* a real 10% regression fails against the median */
    const char *a3[] = {"gate", "--db", db, "--against", "median:10", "--current", low,
                        "--json", tmp_path("fail.json"), "--junit", tmp_path("fail.xml"), NULL};
    assert_int_equal(pb(&r, a3), 1);
    cmd_result_free(&r);
    j = load_json(tmp_path("fail.json"));
    assert_non_null(j);
    struct json_object *cases = json_at(j, "cases");
    bool iops_regressed = false;
    for (size_t i = 0; i < json_object_array_length(cases); i++) {
        struct json_object *c = json_object_array_get_idx(cases, i);
        if (!strcmp(json_object_get_string(json_at(c, "metric")), "iops")) {
            assert_string_equal(json_object_get_string(json_at(c, "verdict")), "regression");
            double change = json_num(c, "change_pct");
            if (!isfinite(change))
                change = 100 * json_num(c, "change");
            assert_true(fabs(change + 10.3) < 0.5);   /* 0.90 / median 1.004 - 1 = -10.4% */
            iops_regressed = true;
        }
    }
    assert_true(iops_regressed);
    json_object_put(j);
    char *xml = slurp_file(tmp_path("fail.xml"), NULL);
    assert_non_null(xml);
    assert_non_null(strstr(xml, "<failure"));
    free(xml);

    /* a tag names a baseline: the outlier alone fails, like last:1 */
    const char *a4[] = {"db", "tag", "--db", db, "10", "noisy", NULL};
    assert_int_equal(pb(&r, a4), 0);
    cmd_result_free(&r);
    const char *a5[] = {"gate", "--db", db, "--against", "tag:noisy", "--current", same, NULL};
    assert_int_equal(pb(&r, a5), 1);
    cmd_result_free(&r);
}

/* x value median lo hi "label" rows of the .dat's first block. */
static size_t read_dat(const char *path, double *value, size_t max)
{
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char line[1024];
    size_t n = 0;
    while (fgets(line, sizeof(line), f) && n < max) {
        if (line[0] == '#' || line[0] == '\n')
            continue;
        double x, v, m, lo, hi;
        if (sscanf(line, "%lf %lf %lf %lf %lf", &x, &v, &m, &lo, &hi) == 5) {
            assert_true(x == (double)(n + 1));
            assert_true(lo <= m && m <= hi);
            value[n++] = v;
        }
    }
    fclose(f);
    return n;
}

static void test_trend_shows_the_step(void **state)
{
    (void)state;
    char db[4096], charts[4096];
    snprintf(db, sizeof(db), "%s", tmp_path("trend.db"));
    snprintf(charts, sizeof(charts), "%s", tmp_path("charts"));
    struct cmd_result r;
    for (int i = 0; i < 12; i++) {
        char out[4096], target[64];
        snprintf(out, sizeof(out), "%s/sim-%02d", dir, i);
        snprintf(target, sizeof(target), "sim:generic-mlc25%s", i < 6 ? "" : ",c_w_us=13");
        const char *a[] = {"run", "--target", target, "--workload", "rw=randwrite,bs=4k,qd=32",
                           "--round-time", "2s", "-n", "3", "-q", "-o", out, "--db", db, NULL};
        assert_int_equal(pb(&r, a), 0);
        cmd_result_free(&r);
    }
    assert_int_equal(sql_count(db, "SELECT count(*) FROM runs"), 12);
    assert_int_equal(sql_count(db, "SELECT count(DISTINCT firmware) FROM runs"), 2);
    const char *a[] = {"db", "trend", "--db", db, "--metric", "iops", "--where",
                       "preset=generic-mlc25,test=run,bs=4k,mix=0", "--plot", charts, NULL};
    assert_int_equal(pb(&r, a), 0);
    /* the table: the first run after the change is outside the band of the 5 before it */
    unsigned rows = 0, marked_after = 0, marked_before = 0;
    char *save = NULL, *text = strdup(r.out);
    for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
        const char *fw = strstr(l, " generic-mlc25");
        if (!fw)
            continue;
        size_t len = strlen(l);
        bool star = len > 2 && l[len - 1] == '*';
        bool after = strncmp(fw, " generic-mlc25,c_w_us=13", 24) == 0;
        if (star && after)
            marked_after++;
        else if (star)
            marked_before++;
        if (after && rows == 6)
            assert_true(star);
        rows++;
    }
    free(text);
    if (rows != 12)
        fail_msg("%u rows in:\n%s", rows, r.out);
    assert_int_equal(marked_before, 0);
    assert_true(marked_after >= 1);
    cmd_result_free(&r);

    double v[32];
    char dat[4200];
    snprintf(dat, sizeof(dat), "%s/trend-iops.dat", charts);
    assert_int_equal(read_dat(dat, v, 32), 12);
    double a_min = INFINITY, a_max = 0, b_min = INFINITY, b_max = 0;
    for (int i = 0; i < 6; i++) {
        a_min = fmin(a_min, v[i]);
        a_max = fmax(a_max, v[i]);
        b_min = fmin(b_min, v[i + 6]);
        b_max = fmax(b_max, v[i + 6]);
    }
    assert_true(a_max / a_min < 1.05 && b_max / b_min < 1.05);   /* flat on each side */
    assert_true(b_max < 0.85 * a_min);                           /* the step */
    struct stat st;
    char png[4200];
    snprintf(png, sizeof(png), "%s/trend-iops.png", charts);
    assert_int_equal(stat(png, &st), 0);
    assert_true(st.st_size > 1000);

    const char *b[] = {"db", "trend", "--db", db, "--metric", "iops", "--over", "firmware",
                       NULL};
    assert_int_equal(pb(&r, b), 0);
    assert_non_null(strstr(r.out, "generic-mlc25                        6"));
    assert_non_null(strstr(r.out, "generic-mlc25,c_w_us=13              6"));
    cmd_result_free(&r);

    /* report --db: the last run's point charted across the history, the step in its data */
    char last[4096], rep[4096], md[4200], hdat[4200];
    snprintf(last, sizeof(last), "%s/sim-11", dir);
    snprintf(rep, sizeof(rep), "%s", tmp_path("report"));
    const char *c[] = {"report", last, "--out", rep, "--db", db, NULL};
    assert_int_equal(pb(&r, c), 0);
    cmd_result_free(&r);
    snprintf(md, sizeof(md), "%s/report.md", rep);
    char *text2 = slurp_file(md, NULL);
    assert_non_null(text2);
    assert_non_null(strstr(text2, "## History"));
    assert_non_null(strstr(text2, "iops across 12 runs"));
    free(text2);
    snprintf(hdat, sizeof(hdat), "%s/plots/history-1-1.dat", rep);
    assert_int_equal(read_dat(hdat, v, 32), 12);
    assert_true(v[11] < 0.85 * v[0]);
    /* a file that is not a history: one line, exit 2, no report */
    char notdb[4096], rep2[4096];
    snprintf(notdb, sizeof(notdb), "%s/sim-11/results.json", dir);
    snprintf(rep2, sizeof(rep2), "%s", tmp_path("report2"));
    const char *bad[] = {"report", last, "--out", rep2, "--db", notdb, NULL};
    assert_int_equal(pb(&r, bad), 2);
    assert_non_null(strstr(r.errout, "--db"));
    cmd_result_free(&r);
    assert_int_not_equal(stat(rep2, &st), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_two_imports_at_once),
        cmocka_unit_test(test_bad_input),
        cmocka_unit_test(test_gate_history_outlier_and_regression),
        cmocka_unit_test(test_trend_shows_the_step),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
