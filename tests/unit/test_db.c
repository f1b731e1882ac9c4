/* test_db.c — the results history (src/db/db.h) on the fixture results of every schema:
 *   - every ptsbench.run, .suite and .profile fixture (old format, new format with the
 *     preconditioning object) is imported and read back field by field: the run's host, kernel,
 *     target, engine, times and command line equal the document's; every point's key, label,
 *     conditions, state, rounds and each metric's mean, min, max, spread and slope equal what
 *     read/measure.h reads from the file;
 *   - importing again adds nothing (runs, points and measurements counted with SQL);
 *   - a crosscheck document, a text file, a SQLite file of another application, a damaged file
 *     and a file of a newer schema are refused with one line naming the file;
 *   - a file at schema 1 (before tags) is migrated to the current schema with its runs kept;
 *   - the history's statistics, by hand: values {100 x 9, 50} with window spreads 0.01 give the
 *     median 100 and the band 0.01 (MAD 0: the outlier moves neither); {1, 2, 3, 4, 100} give
 *     the median 3, MAD median{2,1,0,1,97} = 1, band 3 x 1.4826 x 1 / 3 = 1.4826. */
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

#include "db/db.h"
#include "helpers.h"
#include "lib/json_path.h"
#include "read/measure.h"

static char *dir;

static const char *const fixtures[] = {"run-generic", "run-burst-r4",  "run-steady-6300",
                                       "suite-6300",  "suite-r4",      "suite2-6300",
                                       "profile-r4",  "ramp-6300",     "ramp-r4"};
#define N_FIX (sizeof(fixtures) / sizeof(fixtures[0]))

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

static const char *fixture(const char *name)
{
    char path[512];
    snprintf(path, sizeof(path), "results/%s/results.json", name);
    return test_fixture_path(path);
}

static const char *tmp_path(const char *name)
{
    static char buf[4][4096];
    static unsigned k;
    char *b = buf[k++ % 4];
    snprintf(b, 4096, "%s/%s", dir, name);
    return b;
}

static long long count_rows(const char *path, const char *table)
{
    sqlite3 *h;
    assert_int_equal(sqlite3_open(path, &h), SQLITE_OK);
    char sql[128];
    snprintf(sql, sizeof(sql), "SELECT count(*) FROM %s", table);
    sqlite3_stmt *st;
    assert_int_equal(sqlite3_prepare_v2(h, sql, -1, &st, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    long long n = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    sqlite3_close(h);
    return n;
}

static void same_str(const char *db_value, const char *doc_value)
{
    assert_string_equal(db_value, doc_value ? doc_value : "");
}

/* NAN equals NAN; numbers equal as stored (SQLite keeps doubles exactly). */
static void same_num(double a, double b)
{
    if (isnan(b)) {
        assert_true(isnan(a));
        return;
    }
    assert_true(a == b);
}

static void check_run(const struct db_run *r, const char *path)
{
    struct json_object *doc = load_json(path);
    assert_non_null(doc);
    same_str(r->doc_schema, jp_str(doc, "schema"));
    same_str(r->status, jp_str(doc, "status"));
    same_str(r->started, jp_str(doc, "started"));
    same_str(r->host, jp_str(doc, "host.hostname"));
    same_str(r->kernel, jp_str(doc, "host.kernel"));
    same_str(r->cpu_model, jp_str(doc, "host.cpu_model"));
    same_str(r->target_path, jp_str(doc, "target.path"));
    same_str(r->target_kind, jp_str(doc, "target.kind"));
    same_str(r->model, jp_str(doc, "target.model"));
    same_str(r->serial, jp_str(doc, "target.serial"));
    same_str(r->engine, jp_str(doc, "engine.name"));
    same_str(r->spec, jp_str(doc, "spec.name"));
    same_str(r->ptsbench_version, jp_str(doc, "ptsbench_version"));
    double cap = jp_path(doc, "target.capacity_bytes");
    assert_true(r->capacity_bytes == (isfinite(cap) ? (long long)cap : -1));
    /* a simulated drive's firmware: its preset and overrides */
    const char *tp = jp_str(doc, "target.path");
    assert_non_null(tp);
    assert_string_equal(r->firmware, tp + 4);
    /* the command line: every word of it, in order */
    struct json_object *cmd = jp_arr(doc, "command_line");
    if (!cmd)
        cmd = jp_arr(doc, "command");
    const char *at = r->command_line;
    for (size_t i = 0; i < jp_len(cmd); i++) {
        const char *w = jp_string(jp_idx(cmd, i));
        at = strstr(at, w);
        assert_non_null(at);
        at += strlen(w);
    }
    if (!cmd)
        assert_string_equal(r->command_line, "");
    json_object_put(doc);
}

static void check_points(struct db *d, long long id, const char *path)
{
    struct meas_set want = {0}, got = {0};
    char err[512];
    assert_int_equal(meas_load(path, &want, err, sizeof(err)), 0);
    assert_int_equal(db_run_points(d, id, &got, err, sizeof(err)), 0);
    assert_int_equal(got.n, want.n);
    assert_true(want.n > 0);
    for (size_t i = 0; i < want.n; i++) {
        const struct meas_point *a = &got.p[i], *b = &want.p[i];
        assert_string_equal(a->key, b->key);
        assert_string_equal(a->label, b->label);
        assert_int_equal(a->bs, b->bs);
        assert_int_equal(a->read_pct, b->read_pct);
        assert_int_equal(a->random_pct, b->random_pct);
        assert_int_equal(a->workers, b->workers);
        assert_int_equal(a->qd, b->qd);
        assert_int_equal(a->compress_pct, b->compress_pct);
        assert_int_equal(a->state, b->state);
        assert_int_equal(a->rounds, b->rounds);
        for (unsigned m = 0; m < MEAS_N; m++) {
            same_num(a->v[m], b->v[m]);
            if (isnan(b->v[m]))
                continue;
            same_num(a->spread[m], b->spread[m]);
            same_num(a->min[m], b->min[m]);
            same_num(a->max[m], b->max[m]);
            same_num(a->slope[m], b->slope[m]);
        }
    }
    meas_free(&want);
    meas_free(&got);
}

static void test_import_every_schema_field_by_field(void **state)
{
    (void)state;
    const char *path = tmp_path("all.db");
    char err[512];
    struct db *d = db_open(path, true, err, sizeof(err));
    assert_non_null(d);
    long long ids[N_FIX];
    size_t points = 0, measurements = 0;
    for (size_t i = 0; i < N_FIX; i++) {
        struct db_import_result r;
        if (db_import_file(d, fixture(fixtures[i]), &r, err, sizeof(err)) != 0)
            fail_msg("%s: %s", fixtures[i], err);
        assert_true(r.added);
        ids[i] = r.run_id;
        points += r.points;
        measurements += r.measurements;
    }
    for (size_t i = 0; i < N_FIX; i++) {
        struct db_run r;
        assert_int_equal(db_run_get(d, ids[i], &r, err, sizeof(err)), 0);
        check_run(&r, fixture(fixtures[i]));
        check_points(d, ids[i], fixture(fixtures[i]));
    }
    db_close(d);
    assert_int_equal(count_rows(path, "runs"), (long long)N_FIX);
    assert_int_equal(count_rows(path, "points"), (long long)points);
    assert_int_equal(count_rows(path, "measurements"), (long long)measurements);
}

static void test_import_twice_adds_nothing(void **state)
{
    (void)state;
    const char *path = tmp_path("twice.db");
    char err[512];
    long long first[N_FIX];
    long long counts[3] = {0};
    for (int pass = 0; pass < 2; pass++) {
        struct db *d = db_open(path, true, err, sizeof(err));
        assert_non_null(d);
        for (size_t i = 0; i < N_FIX; i++) {
            struct db_import_result r;
            assert_int_equal(db_import_file(d, fixture(fixtures[i]), &r, err, sizeof(err)), 0);
            assert_true(r.added == (pass == 0));
            if (pass == 0)
                first[i] = r.run_id;
            else
                assert_true(r.run_id == first[i]);
        }
        db_close(d);
        const char *tables[] = {"runs", "points", "measurements"};
        for (int k = 0; k < 3; k++) {
            long long n = count_rows(path, tables[k]);
            if (pass == 0)
                counts[k] = n;
            else
                assert_true(n == counts[k]);
        }
    }
    assert_true(counts[0] == (long long)N_FIX && counts[1] > 0 && counts[2] > counts[1]);
}

static void expect_open_error(const char *path, const char *want)
{
    char err[512] = "";
    struct db *d = db_open(path, true, err, sizeof(err));
    assert_null(d);
    if (!strstr(err, want) || !strstr(err, path))
        fail_msg("error '%s' lacks '%s' or the path", err, want);
    assert_null(strchr(err, '\n'));
}

static void sql(const char *path, const char *text)
{
    sqlite3 *h;
    assert_int_equal(sqlite3_open(path, &h), SQLITE_OK);
    assert_int_equal(sqlite3_exec(h, text, NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(h);
}

static void test_foreign_damaged_and_newer_files(void **state)
{
    (void)state;
    char err[512];
    /* not SQLite */
    const char *text = tmp_path("notes.txt");
    FILE *f = fopen(text, "w");
    assert_non_null(f);
    fputs("these are not the results you are looking for\n", f);
    fclose(f);
    expect_open_error(text, "not a SQLite database");
    /* SQLite, but another application's */
    const char *other = tmp_path("other.db");
    sql(other, "CREATE TABLE contacts (name TEXT)");
    expect_open_error(other, "no meta table");
    assert_int_equal(count_rows(other, "contacts"), 0);   /* and left alone */
    /* a newer schema */
    const char *newer = tmp_path("newer.db");
    struct db *d = db_open(newer, true, err, sizeof(err));
    assert_non_null(d);
    db_close(d);
    sql(newer, "UPDATE meta SET value = '99' WHERE name = 'schema_version'");
    expect_open_error(newer, "newer ptsbench");
    /* damaged: the schema page overwritten after the header */
    const char *bad = tmp_path("damaged.db");
    d = db_open(bad, true, err, sizeof(err));
    assert_non_null(d);
    struct db_import_result r;
    assert_int_equal(db_import_file(d, fixture("suite-6300"), &r, err, sizeof(err)), 0);
    db_close(d);
    f = fopen(bad, "r+b");
    assert_non_null(f);
    fseek(f, 100, SEEK_SET);
    for (int i = 0; i < 3000; i++)
        fputc(0xA5, f);
    fclose(f);
    expect_open_error(bad, "damaged database");
    /* a document that is no run */
    d = db_open(tmp_path("x.db"), true, err, sizeof(err));
    assert_non_null(d);
    char cc[4200];
    snprintf(cc, sizeof(cc), "%s", fixture("crosscheck-file"));
    assert_int_equal(db_import_file(d, cc, &r, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "ptsbench.crosscheck"));
    db_close(d);
    assert_int_equal(count_rows(tmp_path("x.db"), "runs"), 0);
}

static void test_migration_from_schema_1(void **state)
{
    (void)state;
    const char *path = tmp_path("v1.db");
    char err[512];
    struct db *d = db_open_at(path, 1, err, sizeof(err));
    assert_non_null(d);
    assert_int_equal(db_schema_version(d), 1);
    struct db_import_result r;
    assert_int_equal(db_import_file(d, fixture("run-generic"), &r, err, sizeof(err)), 0);
    assert_int_equal(db_tag(d, r.run_id, "golden", err, sizeof(err)), -1);   /* no tags yet */
    db_close(d);
    d = db_open(path, false, err, sizeof(err));
    assert_non_null(d);
    assert_int_equal(db_schema_version(d), DB_SCHEMA_VERSION);
    assert_int_equal(db_tag(d, r.run_id, "golden", err, sizeof(err)), 0);
    struct db_run run;
    assert_int_equal(db_run_get(d, r.run_id, &run, err, sizeof(err)), 0);
    assert_string_equal(run.tags, "golden");
    check_points(d, r.run_id, fixture("run-generic"));
    db_close(d);
}

static void test_history_stats_by_hand(void **state)
{
    (void)state;
    double v[10], s[10], med, band;
    for (int i = 0; i < 10; i++) {
        v[i] = i == 4 ? 50 : 100;
        s[i] = 0.01;
    }
    db_history_stats(v, s, 10, &med, &band);
    assert_true(med == 100);
    assert_true(fabs(band - 0.01) < 1e-12);
    double w[5] = {1, 2, 3, 4, 100};
    db_history_stats(w, NULL, 5, &med, &band);
    assert_true(med == 3);
    assert_true(fabs(band - 3 * 1.4826 / 3) < 1e-12);
    db_history_stats(w, NULL, 0, &med, &band);
    assert_true(isnan(med) && isnan(band));
}

static void test_where_filter(void **state)
{
    (void)state;
    struct db_filter f;
    char err[512];
    db_filter_init(&f);
    assert_int_equal(db_filter_parse("test=iops,bs=4k,mix=0", &f, err, sizeof(err)), 0);
    assert_string_equal(f.test, "iops");
    assert_true(f.bs == 4096 && f.mix == 0);
    const char *bad[] = {"bs=4q", "mix=101", "colour=red", "test", "qd=0"};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        db_filter_init(&f);
        assert_int_equal(db_filter_parse(bad[i], &f, err, sizeof(err)), -1);
        assert_non_null(strstr(err, bad[i]));
    }
    /* the filter on the suite fixture: the IOPS test's 4 KiB write-only point, one value */
    struct db *d = db_open(tmp_path("where.db"), true, err, sizeof(err));
    assert_non_null(d);
    struct db_import_result r;
    assert_int_equal(db_import_file(d, fixture("suite-6300"), &r, err, sizeof(err)), 0);
    db_filter_init(&f);
    assert_int_equal(db_filter_parse("test=iops,bs=4k,mix=0", &f, err, sizeof(err)), 0);
    struct db_value *v;
    size_t n;
    assert_int_equal(db_values(d, MEAS_IOPS, &f, &v, &n, err, sizeof(err)), 0);
    assert_int_equal(n, 1);
    assert_string_equal(v[0].key, "suite/iops/bs=4096/read=0");
    struct meas_set s = {0};
    assert_int_equal(meas_load(fixture("suite-6300"), &s, err, sizeof(err)), 0);
    same_num(v[0].mean, meas_find(&s, "suite/iops/bs=4096/read=0")->v[MEAS_IOPS]);
    meas_free(&s);
    free(v);
    db_close(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_import_every_schema_field_by_field),
        cmocka_unit_test(test_import_twice_adds_nothing),
        cmocka_unit_test(test_foreign_damaged_and_newer_files),
        cmocka_unit_test(test_migration_from_schema_1),
        cmocka_unit_test(test_history_stats_by_hand),
        cmocka_unit_test(test_where_filter),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
