/* test_results_v1.c — the figures object (results_figures_add) and the version-1 reader
 * (results_upgrade, src/core/results_v1.c).
 *
 * Hand-made version-1 documents (a suite element, a table row and a DIRTH operating point; a
 * profile result; a run round) are upgraded and every figure is checked at its version-2 path,
 * with the version-1 keys gone and no latency for a direction without I/O. A fixture (v1) is
 * upgraded and compared with its own v1 values read here. A version-2 suite document written by
 * the writer round-trips through meas_load with the table's 99.9th percentile. */
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

#include "core/metrics.h"
#include "core/results.h"
#include "helpers.h"
#include "lib/json_path.h"
#include "lib/util.h"
#include "read/measure.h"

static void close_to(double got, double want)
{
    if (!(fabs(got - want) <= 1e-9 * fmax(1, fabs(want))))
        print_error("got %.12g, want %.12g\n", got, want);
    assert_true(fabs(got - want) <= 1e-9 * fmax(1, fabs(want)));
}

static bool has(struct json_object *o, const char *key)
{
    return json_object_object_get_ex(o, key, NULL);
}

/* a value present and JSON null */
static bool is_null(struct json_object *o, const char *key)
{
    struct json_object *v = NULL;
    return json_object_object_get_ex(o, key, &v) && v == NULL;
}

static const char v1_suite[] =
    "{\"schema\": \"ptsbench.suite\", \"schema_version\": 1, \"status\": \"complete\","
    " \"target\": {\"path\": \"sim:x\"}, \"tests\": [{\"name\": \"iops\", \"threads\": 2,"
    " \"qd\": 16, \"access\": \"random\", \"subtests\": [{\"rounds\": [{\"round\": 1,"
    " \"elements\": [{\"rwmix_read\": 65, \"bs\": 4096, \"elapsed_s\": 60, \"iops\": 1500,"
    " \"read_iops\": 1000, \"write_iops\": 500, \"mb_s\": 6.144, \"mib_s\": 5.859375,"
    " \"read_mb_s\": 4.096, \"write_mb_s\": 2.048, \"write_bytes\": 122880000,"
    " \"lat_us\": {\"read\": {\"count\": 60000, \"mean\": 110, \"max\": 900, \"50\": 100,"
    " \"90\": 150, \"99\": 300, \"99.9\": 600, \"99.99\": 800, \"99.999\": 900},"
    " \"write\": {\"count\": 30000, \"mean\": 50, \"max\": 400, \"50\": 45, \"90\": 60,"
    " \"99\": 200, \"99.9\": 350, \"99.99\": 390, \"99.999\": 400},"
    " \"total\": {\"count\": 90000, \"mean\": 90, \"max\": 900, \"50\": 80, \"90\": 140,"
    " \"99\": 290, \"99.9\": 590, \"99.99\": 790, \"99.999\": 900}},"
    " \"device\": {\"write_amplification\": 2.5}},"
    " {\"rwmix_read\": 100, \"bs\": 4096, \"elapsed_s\": 60, \"iops\": 2000, \"read_iops\": 2000,"
    " \"write_iops\": 0, \"mb_s\": 8.192, \"mib_s\": 7.8125, \"read_mb_s\": 8.192,"
    " \"write_mb_s\": 0, \"write_bytes\": 0, \"lat_us\": {\"read\": {\"count\": 120000,"
    " \"mean\": 70, \"max\": 500, \"50\": 60, \"90\": 80, \"99\": 100, \"99.9\": 200,"
    " \"99.99\": 300, \"99.999\": 500}, \"write\": {\"count\": 0}, \"total\": {\"count\": 120000,"
    " \"mean\": 70, \"max\": 500, \"50\": 60, \"90\": 80, \"99\": 100, \"99.9\": 200,"
    " \"99.99\": 300, \"99.999\": 500}}}]}],"
    " \"table\": {\"first_round\": 1, \"last_round\": 1, \"rows\": [{\"rwmix_read\": 100,"
    " \"bs\": 4096, \"iops\": 2000, \"read_iops\": 2000, \"write_iops\": 0, \"mb_s\": 8.192,"
    " \"read_mb_s\": 8.192, \"write_mb_s\": 0, \"lat_us\": {\"read\": {\"count\": 120000,"
    " \"mean\": 70, \"50\": 60, \"90\": 80, \"99\": 100, \"99.9\": 200, \"99.99\": 300,"
    " \"99.999\": 500, \"max\": 500, \"max_round_mean\": 500}, \"write\": {\"count\": 0,"
    " \"mean\": null, \"50\": null, \"max\": null, \"max_round_mean\": null},"
    " \"total\": {\"count\": 120000, \"mean\": 70, \"50\": 60, \"90\": 80, \"99\": 100,"
    " \"99.9\": 200, \"99.99\": 300, \"99.999\": 500, \"max\": 500, \"max_round_mean\": 500}}}]},"
    " \"operating_points\": {\"max\": {\"threads\": 4, \"qd\": 16, \"sweep_iops\": 470000,"
    " \"iops\": 480960, \"histogram\": {\"format\": \"[low_us, high_us, count]\", \"buckets\":"
    " [[29.1, 29.4, 1]], \"lat_us\": {\"count\": 4509, \"mean\": 132.5, \"max\": 1681,"
    " \"50\": 126, \"90\": 146, \"99\": 207, \"99.9\": 1548, \"99.99\": 1681,"
    " \"99.999\": 1681}}}}}]}]}";

static void test_suite_element_row_point(void **state)
{
    (void)state;
    struct json_object *doc = json_tokener_parse(v1_suite);
    assert_non_null(doc);
    assert_int_equal(results_upgrade(doc), 1);
    close_to(jp_path(doc, "schema_version"), RESULTS_SCHEMA_VERSION);
    struct json_object *sub = jp_at(doc, "tests.0.subtests.0");

    /* the mixed element: every v1 figure at its v2 path */
    struct json_object *e = jp_at(sub, "rounds.0.elements.0");
    close_to(jp_path(e, "rwmix_read"), 65);
    close_to(jp_path(e, "elapsed_s"), 60);
    close_to(jp_path(e, "total.iops"), 1500);
    close_to(jp_path(e, "read.iops"), 1000);
    close_to(jp_path(e, "write.iops"), 500);
    close_to(jp_path(e, "total.mb_s"), 6.144);
    close_to(jp_path(e, "total.mib_s"), 5.859375);
    close_to(jp_path(e, "read.mb_s"), 4.096);
    close_to(jp_path(e, "write.mb_s"), 2.048);
    close_to(jp_path(e, "write.bytes"), 122880000);
    close_to(jp_path(e, "read.lat_us.count"), 60000);
    close_to(jp_path(e, "read.lat_us.mean"), 110);
    close_to(jp_path(e, "read.lat_us.max"), 900);
    close_to(jp_path(e, "read.lat_us.percentiles.99.9"), 600);
    close_to(jp_path(e, "write.lat_us.percentiles.50"), 45);
    close_to(jp_path(e, "write.lat_us.percentiles.99.999"), 400);
    close_to(jp_path(e, "total.lat_us.percentiles.99.99"), 790);
    close_to(jp_path(e, "device.write_amplification"), 2.5);
    /* figures v1 did not record stay absent, not zero */
    assert_true(isnan(jp_path(e, "read.bytes")) && isnan(jp_path(e, "total.ios")));
    /* no v1 keys left, no percentile beside mean */
    static const char *const gone[] = {"iops", "read_iops", "write_iops", "mb_s", "mib_s",
                                       "read_mb_s", "write_mb_s", "write_bytes", "lat_us"};
    for (size_t k = 0; k < sizeof(gone) / sizeof(gone[0]); k++)
        assert_false(has(e, gone[k]));
    assert_false(has(jp_obj_at(e, "total.lat_us"), "99.9"));

    /* the read-only element: its write direction has no latency (null), figures 0 */
    e = jp_at(sub, "rounds.0.elements.1");
    assert_true(is_null(jp_obj_at(e, "write"), "lat_us"));
    close_to(jp_path(e, "write.iops"), 0);
    close_to(jp_path(e, "read.lat_us.percentiles.99.9"), 200);

    /* the table row: the same, with max_round_mean kept beside the latency */
    struct json_object *row = jp_at(sub, "table.rows.0");
    close_to(jp_path(row, "total.iops"), 2000);
    close_to(jp_path(row, "read.mb_s"), 8.192);
    close_to(jp_path(row, "total.lat_us.percentiles.99.9"), 200);
    close_to(jp_path(row, "total.lat_us.max_round_mean"), 500);
    close_to(results_figures_lat(row, "read", "99.99"), 300);
    close_to(results_figures_lat(row, "read", "mean"), 70);
    assert_true(is_null(jp_obj_at(row, "write"), "lat_us"));
    assert_false(has(row, "lat_us") || has(row, "iops"));

    /* DIRTH's operating point: iops and the histogram's latency are the total direction */
    struct json_object *op = jp_at(sub, "operating_points.max");
    close_to(jp_path(op, "total.iops"), 480960);
    close_to(jp_path(op, "sweep_iops"), 470000);
    close_to(jp_path(op, "total.lat_us.mean"), 132.5);
    close_to(jp_path(op, "total.lat_us.percentiles.99.9"), 1548);
    assert_false(has(jp_obj_at(op, "histogram"), "lat_us") || has(op, "iops"));
    assert_int_equal(jp_len(jp_arr_at(op, "histogram.buckets")), 1);

    /* a second pass changes nothing */
    const char *once = xstrdup(json_object_to_json_string(doc));
    assert_int_equal(results_upgrade(doc), 0);
    assert_string_equal(once, json_object_to_json_string(doc));
    free((void *)once);
    json_object_put(doc);
}

static const char v1_profile[] =
    "{\"schema\": \"ptsbench.profile\", \"schema_version\": 1, \"points\": [{\"index\": 0,"
    " \"result\": {\"steady\": true, \"rounds\": [4, 8], \"iops\": 47994, \"read_iops\": 32349,"
    " \"write_iops\": 15644, \"mb_s\": 393.16, \"mib_s\": 374.95, \"read_mb_s\": 265.01,"
    " \"write_mb_s\": 128.15, \"lat_us\": {\"mean\": 664.98, \"read_mean\": 655.08,"
    " \"write_mean\": 685.46, \"max\": 4589.48, \"percentiles\": {\"50\": 501.75, \"99\": 2473.9,"
    " \"99.9\": 3391.4}}, \"data\": {\"declared_compress_pct\": 0}}, \"rounds\": [{\"round\": 1,"
    " \"read\": {\"ios\": 0, \"iops\": 0, \"lat_us\": {\"count\": 0, \"min\": 0, \"mean\": 0,"
    " \"max\": 0, \"percentiles\": {\"50\": 0}}}, \"write\": {\"ios\": 5, \"iops\": 5,"
    " \"lat_us\": {\"count\": 5, \"mean\": 7}}, \"total\": {\"ios\": 5, \"iops\": 5,"
    " \"lat_us\": {\"count\": 5, \"mean\": 7}}}]}, {\"index\": 1, \"result\": {\"iops\": 900,"
    " \"read_iops\": 900, \"write_iops\": 0, \"lat_us\": {\"mean\": 80, \"read_mean\": 80,"
    " \"write_mean\": null, \"max\": 99, \"percentiles\": {\"99\": 95}}}}]}";

static void test_profile_result(void **state)
{
    (void)state;
    struct json_object *doc = json_tokener_parse(v1_profile);
    assert_non_null(doc);
    assert_int_equal(results_upgrade(doc), 1);
    struct json_object *r = jp_at(doc, "points.0.result");
    close_to(jp_path(r, "total.iops"), 47994);
    close_to(jp_path(r, "read.iops"), 32349);
    close_to(jp_path(r, "write.iops"), 15644);
    close_to(jp_path(r, "total.mb_s"), 393.16);
    close_to(jp_path(r, "total.mib_s"), 374.95);
    close_to(jp_path(r, "read.mb_s"), 265.01);
    close_to(jp_path(r, "write.mb_s"), 128.15);
    close_to(jp_path(r, "total.lat_us.mean"), 664.98);
    close_to(jp_path(r, "total.lat_us.max"), 4589.48);
    close_to(jp_path(r, "total.lat_us.percentiles.99.9"), 3391.4);
    close_to(jp_path(r, "read.lat_us.mean"), 655.08);
    close_to(jp_path(r, "write.lat_us.mean"), 685.46);
    close_to(jp_path(r, "rounds.1"), 8);
    assert_true(jp_true(jp_at(r, "steady")));
    assert_non_null(jp_obj_at(r, "data"));
    assert_false(has(r, "lat_us") || has(r, "iops") || has(r, "read_mb_s"));
    /* its round: the read direction had no I/O, its zeros were no latencies */
    struct json_object *rd = jp_at(doc, "points.0.rounds.0.read");
    assert_true(is_null(rd, "lat_us"));
    close_to(jp_path(rd, "iops"), 0);
    close_to(jp_path(doc, "points.0.rounds.0.write.lat_us.mean"), 7);
    /* a read-only point: no write latency */
    r = jp_at(doc, "points.1.result");
    assert_true(is_null(jp_obj_at(r, "write"), "lat_us"));
    close_to(jp_path(r, "read.lat_us.mean"), 80);
    close_to(jp_path(r, "write.iops"), 0);
    json_object_put(doc);
}

/* A fixture (v1) upgraded: the figures of its first element and table row are its v1 values. */
static void test_fixture_upgraded(void **state)
{
    (void)state;
    const char *root = getenv("PTSBENCH_DATADIR");
    char path[4096];
    snprintf(path, sizeof(path), "%s/tests/fixtures/results/suite-6300/results.json",
             root && *root ? root : ".");
    struct json_object *v1 = load_json(path), *v2 = load_json(path);
    assert_non_null(v1);
    assert_non_null(v2);
    assert_int_equal(results_upgrade(v2), 1);
    static const struct {
        const char *v1, *v2;
    } map[] = {
        {"rounds.0.elements.9.iops", "rounds.0.elements.9.total.iops"},
        {"rounds.0.elements.9.read_iops", "rounds.0.elements.9.read.iops"},
        {"rounds.0.elements.9.write_mb_s", "rounds.0.elements.9.write.mb_s"},
        {"rounds.0.elements.9.write_bytes", "rounds.0.elements.9.write.bytes"},
        {"rounds.0.elements.9.lat_us.total.99", "rounds.0.elements.9.total.lat_us.percentiles.99"},
        {"rounds.0.elements.9.lat_us.write.mean", "rounds.0.elements.9.write.lat_us.mean"},
        {"table.rows.10.iops", "table.rows.10.total.iops"},
        {"table.rows.10.read_mb_s", "table.rows.10.read.mb_s"},
        {"table.rows.10.lat_us.total.99.99", "table.rows.10.total.lat_us.percentiles.99.99"},
        {"table.rows.10.lat_us.read.mean", "table.rows.10.read.lat_us.mean"},
    };
    struct json_object *s1 = jp_at(v1, "tests.0.subtests.0"), *s2 = jp_at(v2, "tests.0.subtests.0");
    for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++) {
        double a = jp_path(s1, map[i].v1), b = jp_path(s2, map[i].v2);
        if (!isfinite(a))
            fail_msg("fixture: %s absent", map[i].v1);
        close_to(b, a);
    }
    json_object_put(v1);
    json_object_put(v2);
}

static void dir_set(struct dir_metrics *d, uint64_t ios, double iops, double p999)
{
    memset(d, 0, sizeof(*d));
    d->ios = ios;
    d->bytes = ios * 4096;
    d->iops = iops;
    d->mb_s = iops * 4096 / 1e6;
    d->mib_s = iops * 4096 / 1048576.0;
    if (!ios)
        return;
    d->lat.count = ios;
    d->lat.min_us = 10;
    d->lat.mean_us = 100;
    d->lat.max_us = 2 * p999;
    for (int i = 0; i < METRICS_NPCT; i++)   /* each a share of the 99.9th */
        d->lat.pct_us[i] = p999 * (i + 1) / (METRICS_P99_9 + 1.0);
}

/* An element or row: rwmix 0 (write only), 4 KiB, figures written by the writer. */
static struct json_object *element(uint64_t ios, double iops, double p999)
{
    struct json_object *o = json_object_new_object();
    jw_add(o, "rwmix_read", jw_int(0));
    jw_add(o, "bs", jw_int(4096));
    struct dir_metrics r, w;
    dir_set(&r, 0, 0, 0);
    dir_set(&w, ios, iops, p999);
    results_figures_add(o, &r, &w, &w);
    return o;
}

/* A version-2 suite document from the writer through meas_load: the table's 99.9th percentile
 * (300, the I/O-weighted figure), not the rounds' unweighted mean (200) the reader falls back
 * to when a table has none. */
static void test_v2_roundtrip(void **state)
{
    (void)state;
    struct json_object *doc = json_object_new_object();
    jw_add(doc, "schema", jw_str("ptsbench.suite"));
    jw_add(doc, "schema_version", jw_int(RESULTS_SCHEMA_VERSION));
    jw_add(doc, "status", jw_str("complete"));
    struct json_object *target = json_object_new_object();
    jw_add(target, "path", jw_str("sim:test"));
    jw_add(doc, "target", target);
    struct json_object *sub = json_object_new_object(), *rounds = json_object_new_array();
    for (int r = 0; r < 2; r++) {
        struct json_object *ro = json_object_new_object(), *els = json_object_new_array();
        jw_add(ro, "round", jw_int(r + 1));
        json_object_array_add(els, element(r ? 3000 : 1000, r ? 300 : 100, r ? 350 : 50));
        jw_add(ro, "elements", els);
        json_object_array_add(rounds, ro);
    }
    jw_add(sub, "rounds", rounds);
    struct json_object *table = json_object_new_object(), *rows = json_object_new_array();
    jw_add(table, "first_round", jw_int(1));
    jw_add(table, "last_round", jw_int(2));
    json_object_array_add(rows, element(4000, 200, 300));
    jw_add(table, "rows", rows);
    jw_add(sub, "table", table);
    struct json_object *subs = json_object_new_array(), *tests = json_object_new_array();
    json_object_array_add(subs, sub);
    struct json_object *test = json_object_new_object();
    jw_add(test, "name", jw_str("iops"));
    jw_add(test, "title", jw_str("IOPS"));
    jw_add(test, "threads", jw_int(2));
    jw_add(test, "qd", jw_int(16));
    jw_add(test, "access", jw_str("random"));
    jw_add(test, "subtests", subs);
    json_object_array_add(tests, test);
    jw_add(doc, "tests", tests);
    assert_int_equal(results_upgrade(doc), 0);   /* version 2: left as it is */

    char *dir = make_temp_dir("results-v1");
    assert_non_null(dir);
    char path[4096], err[ERR_LEN] = "";
    snprintf(path, sizeof(path), "%s/results.json", dir);
    assert_int_equal(results_write_json_atomic(doc, path, err, sizeof(err)), 0);
    json_object_put(doc);

    struct json_object *back = load_json(path);
    assert_non_null(back);
    close_to(jp_path(back, "tests.0.subtests.0.table.rows.0.total.lat_us.percentiles.99.9"), 300);
    assert_true(is_null(jp_obj_at(back, "tests.0.subtests.0.table.rows.0.read"), "lat_us"));
    json_object_put(back);

    struct meas_set s;
    if (meas_load(path, &s, err, sizeof(err)) != 0)
        fail_msg("meas_load: %s", err);
    const struct meas_point *p = meas_find(&s, "suite/iops/bs=4096/read=0");
    assert_non_null(p);
    close_to(p->v[MEAS_LAT_P99_9_US], 300);
    close_to(p->v[MEAS_IOPS], 200);
    close_to(p->v[MEAS_WRITE_IOPS], 200);
    close_to(p->v[MEAS_LAT_MEAN_US], 100);
    close_to(p->v[MEAS_LAT_MAX_US], 600);
    /* a direction the workload does not use: no figures (measure.h), no latency */
    assert_true(isnan(p->v[MEAS_READ_LAT_MEAN_US]) && isnan(p->v[MEAS_READ_IOPS]));
    close_to(p->spread[MEAS_IOPS], (300.0 - 100.0) / 200.0);   /* from the rounds */
    assert_int_equal(p->rounds, 2);
    meas_free(&s);
    remove_tree(dir);
    free(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_suite_element_row_point),
        cmocka_unit_test(test_profile_result),
        cmocka_unit_test(test_fixture_upgraded),
        cmocka_unit_test(test_v2_roundtrip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
