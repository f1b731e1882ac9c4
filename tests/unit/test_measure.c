/* test_measure.c — results files as measured points (src/read/measure.h).
 *
 * The fixtures in tests/fixtures/results/ are loaded with meas_load() and every figure checked
 * is read independently from the same JSON with json-c here (the table row, the profile point's
 * result, the run's rounds). Spreads and window averages are checked on tiny results files
 * written by hand into a temporary directory, with values computed by hand. The drive state
 * (measure.h: steady, fob, wipc, unknown) is checked for every fixture, old format and new, and
 * on copies of them changed one key at a time. */
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
#include "read/measure.h"
#include "lib/util.h"

static char fixture_path[4096];

/* $PTSBENCH_DATADIR/tests/fixtures/results/NAME[/results.json] */
static const char *fixture(const char *name, bool file)
{
    const char *root = getenv("PTSBENCH_DATADIR");
    snprintf(fixture_path, sizeof(fixture_path), "%s/tests/fixtures/results/%s%s",
             root && *root ? root : ".", name, file ? "/results.json" : "");
    return fixture_path;
}

static void load_ok(const char *path, struct meas_set *s)
{
    char err[ERR_LEN] = "";
    int rc = meas_load(path, s, err, sizeof(err));
    if (rc != 0)
        print_error("meas_load(%s): %s\n", path, err);
    assert_int_equal(rc, 0);
}

static const struct meas_point *find(const struct meas_set *s, const char *key)
{
    const struct meas_point *p = meas_find(s, key);
    if (!p)
        print_error("no point '%s'\n", key);
    assert_non_null(p);
    return p;
}

static struct json_object *get(struct json_object *o, const char *key)
{
    struct json_object *v = NULL;
    if (!o || !json_object_object_get_ex(o, key, &v))
        return NULL;
    return v;
}

static double num(struct json_object *o, const char *key)
{
    struct json_object *v = get(o, key);
    return v && !json_object_is_type(v, json_type_null) ? json_object_get_double(v) : NAN;
}

static void close_to(double got, double want)
{
    if (!(fabs(got - want) <= 1e-9 * fmax(1, fabs(want))))
        print_error("got %.12g, want %.12g\n", got, want);
    assert_true(fabs(got - want) <= 1e-9 * fmax(1, fabs(want)));
}

static struct json_object *suite_test(struct json_object *root, const char *name)
{
    struct json_object *tests = get(root, "tests");
    for (size_t i = 0; i < json_object_array_length(tests); i++) {
        struct json_object *t = json_object_array_get_idx(tests, i);
        if (!strcmp(json_object_get_string(get(t, "name")), name))
            return t;
    }
    fail_msg("no test %s", name);
    return NULL;
}

/* The table row (rwmix, bs) of a test's subtest (first subtest holding it). */
static struct json_object *table_row(struct json_object *test, int mix, int bs,
                                     struct json_object **sub_out)
{
    struct json_object *subs = get(test, "subtests");
    for (size_t j = 0; j < json_object_array_length(subs); j++) {
        struct json_object *sub = json_object_array_get_idx(subs, j);
        struct json_object *rows = get(get(sub, "table"), "rows");
        for (size_t i = 0; rows && i < json_object_array_length(rows); i++) {
            struct json_object *r = json_object_array_get_idx(rows, i);
            if (json_object_get_int(get(r, "rwmix_read")) == mix &&
                json_object_get_int(get(r, "bs")) == bs) {
                if (sub_out)
                    *sub_out = sub;
                return r;
            }
        }
    }
    fail_msg("no row %d/%d", mix, bs);
    return NULL;
}

/* ---- suite ---- */

static void test_suite_iops(void **state)
{
    (void)state;
    struct meas_set s;
    load_ok(fixture("suite-6300", true), &s);
    struct json_object *root = load_json(fixture("suite-6300", true));
    assert_non_null(root);
    struct json_object *iops = suite_test(root, "iops");
    struct json_object *sub = NULL;

    /* 4 KiB 0/100: the table row's figures */
    struct json_object *row = table_row(iops, 0, 4096, &sub);
    const struct meas_point *p = find(&s, "suite/iops/bs=4096/read=0");
    close_to(p->v[MEAS_IOPS], num(row, "iops"));
    close_to(p->v[MEAS_WRITE_IOPS], num(row, "write_iops"));
    close_to(p->v[MEAS_MB_S], num(row, "mb_s"));
    close_to(p->v[MEAS_WRITE_MB_S], num(row, "write_mb_s"));
    struct json_object *tot = get(get(row, "lat_us"), "total");
    close_to(p->v[MEAS_LAT_MEAN_US], num(tot, "mean"));
    close_to(p->v[MEAS_LAT_P99_US], num(tot, "99"));
    close_to(p->v[MEAS_LAT_P99_99_US], num(tot, "99.99"));
    close_to(p->v[MEAS_LAT_MAX_US], num(tot, "max"));
    close_to(p->v[MEAS_WRITE_LAT_MEAN_US], num(get(get(row, "lat_us"), "write"), "mean"));
    /* a write-only point has no read figures (NAN, not 0) */
    assert_true(isnan(p->v[MEAS_READ_IOPS]));
    assert_true(isnan(p->v[MEAS_READ_MB_S]));
    assert_true(isnan(p->v[MEAS_READ_LAT_MEAN_US]));
    assert_int_equal(p->bs, 4096);
    assert_int_equal(p->read_pct, 0);
    assert_int_equal(p->random_pct, 100);
    assert_false(p->sequential);
    assert_int_equal(p->workers, json_object_get_int(get(iops, "threads")));
    assert_int_equal(p->qd, json_object_get_int(get(iops, "qd")));
    assert_int_equal(p->compress_pct, 0);
    assert_int_equal(p->state, MEAS_STATE_STEADY);
    assert_string_equal(p->source, fixture("suite-6300", true));

    /* the window's rounds, element 0/4096: 99.9% (not in the table) and the spread */
    struct json_object *table = get(sub, "table");
    int first = json_object_get_int(get(table, "first_round"));
    int last = json_object_get_int(get(table, "last_round"));
    double sum = 0, mn = INFINITY, mx = -INFINITY, p999 = 0;
    unsigned n = 0;
    struct json_object *rounds = get(sub, "rounds");
    for (size_t i = 0; i < json_object_array_length(rounds); i++) {
        struct json_object *r = json_object_array_get_idx(rounds, i);
        int rn = json_object_get_int(get(r, "round"));
        if (rn < first || rn > last)
            continue;
        struct json_object *els = get(r, "elements");
        for (size_t j = 0; j < json_object_array_length(els); j++) {
            struct json_object *e = json_object_array_get_idx(els, j);
            if (json_object_get_int(get(e, "rwmix_read")) == 0 &&
                json_object_get_int(get(e, "bs")) == 4096) {
                double v = num(e, "iops");
                sum += v;
                mn = fmin(mn, v);
                mx = fmax(mx, v);
                p999 += num(get(get(e, "lat_us"), "total"), "99.9");
                n++;
            }
        }
    }
    assert_int_equal(n, last - first + 1);
    assert_int_equal(p->rounds, n);
    close_to(p->spread[MEAS_IOPS], (mx - mn) / (sum / n));
    close_to(p->v[MEAS_LAT_P99_9_US], p999 / n);
    assert_true(p->spread[MEAS_IOPS] > 0);

    /* 4 KiB 100/0 and the label of a mix */
    row = table_row(iops, 100, 4096, NULL);
    p = find(&s, "suite/iops/bs=4096/read=100");
    close_to(p->v[MEAS_IOPS], num(row, "iops"));
    close_to(p->v[MEAS_READ_IOPS], num(row, "read_iops"));
    assert_true(isnan(p->v[MEAS_WRITE_IOPS]));
    p = find(&s, "suite/iops/bs=4096/read=65");
    assert_string_equal(p->label, "PTS IOPS, 4 KiB random, R/W 65/35");
    close_to(p->v[MEAS_IOPS], num(table_row(iops, 65, 4096, NULL), "iops"));
    close_to(p->v[MEAS_READ_LAT_MEAN_US],
             num(get(get(table_row(iops, 65, 4096, NULL), "lat_us"), "read"), "mean"));
    p = find(&s, "suite/iops/bs=512/read=100");
    assert_string_equal(p->label, "PTS IOPS, 0.5 KiB random, R/W 100/0");

    /* the device: target.model */
    assert_string_equal(s.device, json_object_get_string(get(get(root, "target"), "model")));
    assert_int_equal(s.n_files, 1);
    json_object_put(root);
    meas_free(&s);
}

static void test_suite_tp_lat_wsat(void **state)
{
    (void)state;
    struct meas_set s;
    load_ok(fixture("suite-r4", true), &s);
    struct json_object *root = load_json(fixture("suite-r4", true));
    assert_non_null(root);

    /* one point per table row of every test */
    size_t rows = 0;
    struct json_object *tests = get(root, "tests");
    for (size_t i = 0; i < json_object_array_length(tests); i++) {
        struct json_object *subs = get(json_object_array_get_idx(tests, i), "subtests");
        for (size_t j = 0; j < json_object_array_length(subs); j++)
            rows += json_object_array_length(
                get(get(json_object_array_get_idx(subs, j), "table"), "rows"));
    }
    assert_int_equal(s.n, rows);

    struct json_object *tp = suite_test(root, "tp");
    const struct meas_point *p = find(&s, "suite/tp/bs=131072/read=100");
    close_to(p->v[MEAS_MB_S], num(table_row(tp, 100, 131072, NULL), "mb_s"));
    assert_true(p->sequential);
    assert_int_equal(p->random_pct, 0);
    assert_int_equal(p->workers, 1);
    assert_int_equal(p->qd, 32);
    assert_string_equal(p->label, "PTS Throughput, 128 KiB sequential, R/W 100/0");
    p = find(&s, "suite/tp/bs=1048576/read=0");
    close_to(p->v[MEAS_WRITE_MB_S], num(table_row(tp, 0, 1048576, NULL), "write_mb_s"));

    struct json_object *lat = suite_test(root, "lat");
    p = find(&s, "suite/lat/bs=8192/read=65");
    close_to(p->v[MEAS_LAT_MEAN_US],
             num(get(get(table_row(lat, 65, 8192, NULL), "lat_us"), "total"), "mean"));
    assert_int_equal(p->workers, 1);
    assert_int_equal(p->qd, 1);

    /* WSAT: the final rounds, no steady-state verdict: state unknown */
    struct json_object *wsat = suite_test(root, "wsat");
    struct json_object *sub = NULL;
    struct json_object *row = table_row(wsat, 0, 4096, &sub);
    p = find(&s, "suite/wsat/bs=4096/read=0");
    close_to(p->v[MEAS_IOPS], num(row, "iops"));
    assert_int_equal(p->state, MEAS_STATE_UNKNOWN);
    int last = json_object_get_int(get(get(sub, "table"), "last_round"));
    assert_int_equal(last, (int)json_object_array_length(get(sub, "rounds")));
    assert_int_equal(p->rounds, 5);
    json_object_put(root);
    meas_free(&s);
}

static void test_suite_dirth(void **state)
{
    (void)state;
    struct meas_set s;
    load_ok(fixture("suite2-6300", true), &s);
    struct json_object *root = load_json(fixture("suite2-6300", true));
    struct json_object *dirth = suite_test(root, "dirth");
    struct json_object *sub = json_object_array_get_idx(get(dirth, "subtests"), 0);
    struct json_object *mx = get(get(sub, "operating_points"), "max");
    /* HIR and XSR are skipped: the DIRTH max operating point is the only point */
    assert_int_equal(s.n, 1);
    const struct meas_point *p = find(&s, "suite/dirth/max/bs=8192/read=65");
    close_to(p->v[MEAS_IOPS], num(mx, "iops"));
    close_to(p->v[MEAS_MB_S], num(mx, "iops") * 8192 / 1e6);
    close_to(p->v[MEAS_LAT_P99_9_US], num(get(get(mx, "histogram"), "lat_us"), "99.9"));
    assert_int_equal(p->workers, json_object_get_int(get(mx, "threads")));
    assert_int_equal(p->qd, json_object_get_int(get(mx, "qd")));
    /* its steady_state was not reached, after a precondition of kind "steady": a burst after
     * preconditioning, not fresh-out-of-box */
    assert_string_equal(json_object_get_string(get(get(sub, "precondition"), "kind")), "steady");
    assert_int_equal(p->state, MEAS_STATE_WIPC);
    assert_true(isnan(p->spread[MEAS_IOPS]));
    json_object_put(root);
    meas_free(&s);
}

/* ---- profile ---- */

static void test_profile(void **state)
{
    (void)state;
    struct meas_set s;
    load_ok(fixture("profile-r4", true), &s);
    struct json_object *root = load_json(fixture("profile-r4", true));
    struct json_object *pts = get(root, "points");
    assert_int_equal(s.n, json_object_array_length(pts));
    for (size_t i = 0; i < json_object_array_length(pts); i++) {
        struct json_object *pt = json_object_array_get_idx(pts, i);
        struct json_object *res = get(pt, "result");
        char key[256];
        snprintf(key, sizeof(key), "profile/%s/%s/c=%d/w=%d/qd=%d",
                 json_object_get_string(get(pt, "profile")),
                 json_object_get_string(get(pt, "workload")),
                 json_object_get_int(get(pt, "compress_pct")),
                 json_object_get_int(get(pt, "workers")), json_object_get_int(get(pt, "qd")));
        const struct meas_point *p = find(&s, key);
        close_to(p->v[MEAS_IOPS], num(res, "iops"));
        close_to(p->v[MEAS_MB_S], num(res, "mb_s"));
        close_to(p->v[MEAS_LAT_MEAN_US], num(get(res, "lat_us"), "mean"));
        close_to(p->v[MEAS_LAT_P99_US], num(get(get(res, "lat_us"), "percentiles"), "99"));
        close_to(p->v[MEAS_LAT_P99_9_US], num(get(get(res, "lat_us"), "percentiles"), "99.9"));
        assert_int_equal(p->compress_pct, json_object_get_int(get(pt, "compress_pct")));
        assert_int_equal(p->state, MEAS_STATE_STEADY);
        assert_int_equal(p->rounds, 5);
        assert_true(isfinite(p->spread[MEAS_IOPS]));
    }
    const struct meas_point *p = find(&s, "profile/database/database/c=90/w=4/qd=32");
    assert_int_equal(p->bs, 8192);
    assert_int_equal(p->read_pct, 67);
    assert_int_equal(p->random_pct, 100);
    assert_string_equal(p->label, "Profile database, 8 KiB random, R/W 67/33, 4x32, compress 90%");
    p = find(&s, "profile/webserver/webserver/c=0/w=1/qd=32");
    assert_int_equal(p->bs, 0);                    /* a bssplit */
    assert_int_equal(p->read_pct, 100);
    assert_true(isnan(p->v[MEAS_WRITE_IOPS]));
    json_object_put(root);
    meas_free(&s);

    /* a fixed-round QD ramp after WIPC (precondition "wipc", no steady-state measurement):
     * wipc, one round, no spread */
    load_ok(fixture("ramp-6300", false), &s);
    assert_int_equal(s.n, 7);
    p = find(&s, "profile/qd-ramp-4k-read/qd-ramp-4k-read/c=0/w=4/qd=64");
    assert_int_equal(p->state, MEAS_STATE_WIPC);
    assert_int_equal(p->rounds, 1);
    assert_true(isnan(p->spread[MEAS_IOPS]));
    assert_int_equal(p->bs, 4096);
    meas_free(&s);
}

/* ---- run ---- */

static void test_run(void **state)
{
    (void)state;
    struct meas_set s;
    load_ok(fixture("run-generic", true), &s);
    struct json_object *root = load_json(fixture("run-generic", true));
    assert_int_equal(s.n, 1);
    const struct meas_point *p = &s.p[0];
    assert_string_equal(p->key, "run/rw=randwrite,bs=4k,iodepth=32,numjobs=1,region=shared,"
                                "buffer_compress_percentage=0");
    assert_null(strstr(p->key, "randseed"));
    struct json_object *win = get(get(root, "steady_state"), "window");
    int first = json_object_get_int(get(win, "first_round"));
    int last = json_object_get_int(get(win, "last_round"));
    double sum = 0, mb = 0;
    unsigned n = 0;
    struct json_object *rounds = get(root, "rounds");
    for (size_t i = 0; i < json_object_array_length(rounds); i++) {
        struct json_object *r = json_object_array_get_idx(rounds, i);
        int rn = json_object_get_int(get(r, "round"));
        if (rn >= first && rn <= last) {
            sum += num(get(r, "total"), "iops");
            mb += num(get(r, "total"), "mb_s");
            n++;
        }
    }
    close_to(p->v[MEAS_IOPS], sum / n);
    close_to(p->v[MEAS_MB_S], mb / n);
    /* the window's average is what the steady-state verdict averaged (iops tracked) */
    assert_true(fabs(p->v[MEAS_IOPS] - num(win, "average")) < 0.01);
    assert_int_equal(p->rounds, n);
    /* an old run (no "preconditioning" object) never preconditioned: its "reached" window is a
     * burst plateau of a fresh drive, fob, not steady */
    assert_true(json_object_get_boolean(get(get(root, "steady_state"), "reached")));
    assert_null(get(root, "preconditioning"));
    assert_int_equal(p->state, MEAS_STATE_FOB);
    assert_int_equal(p->bs, 4096);
    assert_int_equal(p->read_pct, 0);
    assert_int_equal(p->workers, 1);
    assert_int_equal(p->qd, 32);
    assert_true(isnan(p->v[MEAS_READ_LAT_MEAN_US]));
    json_object_put(root);
    meas_free(&s);
}

/* ---- keys ---- */

static void test_keys_stable_unique(void **state)
{
    (void)state;
    static const char *const names[] = {"suite-6300", "suite2-6300", "suite-r4", "profile-r4",
                                        "ramp-6300", "ramp-r4", "run-generic", "run-burst-r4",
                                        "run-steady-6300"};
    for (size_t f = 0; f < sizeof(names) / sizeof(names[0]); f++) {
        struct meas_set a, b;
        load_ok(fixture(names[f], false), &a);
        load_ok(fixture(names[f], true), &b);
        assert_int_equal(a.n, b.n);
        for (size_t i = 0; i < a.n; i++) {
            assert_string_equal(a.p[i].key, b.p[i].key);
            assert_ptr_equal(meas_find(&a, a.p[i].key), &a.p[i]);   /* unique in a file */
            assert_true(a.p[i].label[0] != '\0');
            assert_true(a.p[i].rounds >= 1);
        }
        meas_free(&a);
        meas_free(&b);
    }
    /* the whole fixture tree: every file, the sum of the points */
    const char *root = getenv("PTSBENCH_DATADIR");
    char dir[4096];
    snprintf(dir, sizeof(dir), "%s/tests/fixtures/results/", root && *root ? root : ".");
    struct meas_set all;
    load_ok(dir, &all);
    assert_int_equal(all.n_files, 9);
    assert_int_equal(all.n, 70 + 1 + 70 + 8 + 7 + 7 + 1 + 1 + 1);
    meas_free(&all);
}

/* ---- hand-made files: windows, spreads, directories, errors ---- */

static void write_file(const char *dir, const char *name, const char *text)
{
    char path[4096];
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static const char *round_json(char *buf, size_t len, int n, double riops, double wiops,
                              double lat)
{
    snprintf(buf, len,
             "{\"round\": %d, \"read\": {\"iops\": %g, \"mb_s\": %g, \"lat_us\": {\"count\": 10, "
             "\"mean\": %g}}, \"write\": {\"iops\": %g, \"mb_s\": %g, \"lat_us\": {\"count\": 10,"
             " \"mean\": %g}}, \"total\": {\"iops\": %g, \"mb_s\": %g, \"lat_us\": {\"count\": "
             "20, \"mean\": %g, \"max\": %g, \"percentiles\": {\"99\": %g, \"99.9\": %g, "
             "\"99.99\": %g}}}}",
             n, riops, riops * 4096 / 1e6, lat, wiops, wiops * 4096 / 1e6, lat * 2,
             riops + wiops, (riops + wiops) * 4096 / 1e6, lat * 1.5, lat * 10, lat * 3,
             lat * 4, lat * 5);
    return buf;
}

static void write_run(const char *dir, bool steady, int nrounds, const double *iops)
{
    char text[16384], r[1024];
    int o = snprintf(text, sizeof(text),
                     "{\"schema\": \"ptsbench.run\", \"target\": {\"path\": \"/dev/x\", "
                     "\"model\": null}, \"workload\": {\"name\": \"inline\", \"spec\": "
                     "\"rw=randrw,rwmixread=50,bs=4k,iodepth=8,numjobs=2,randseed=0x1,"
                     "buffer_compress_percentage=50\", \"read_pct\": 50, \"random_pct\": 100, "
                     "\"block_sizes\": [{\"bytes\": 4096, \"weight_pct\": 100}], \"qd\": 8, "
                     "\"workers\": 2, \"compress_pct\": 50}, \"steady_state\": {\"reached\": %s,"
                     " \"window\": {\"first_round\": 2, \"last_round\": 3}}, \"rounds\": [",
                     steady ? "true" : "false");
    for (int i = 0; i < nrounds; i++)
        o += snprintf(text + o, sizeof(text) - (size_t)o, "%s%s", i ? ", " : "",
                      round_json(r, sizeof(r), i + 1, iops[i] / 2, iops[i] / 2, 100 + i));
    snprintf(text + o, sizeof(text) - (size_t)o, "]}");
    write_file(dir, "results.json", text);
}

static void test_run_window_spread(void **state)
{
    (void)state;
    char *dir = make_temp_dir("measure");
    assert_non_null(dir);
    char path[4096];
    snprintf(path, sizeof(path), "%s/results.json", dir);
    struct meas_set s;

    /* steady, window rounds 2..3 of 1000, 2000, 3000 IOPS: mean 2500, spread 1000/2500 */
    const double iops[] = {1000, 2000, 3000};
    write_run(dir, true, 3, iops);
    load_ok(path, &s);
    assert_int_equal(s.n, 1);
    const struct meas_point *p = &s.p[0];
    assert_string_equal(p->key, "run/rw=randrw,rwmixread=50,bs=4k,iodepth=8,numjobs=2,"
                                "buffer_compress_percentage=50");
    assert_string_equal(s.device, "/dev/x");      /* no model: the path */
    assert_int_equal(p->state, MEAS_STATE_FOB);   /* old format: never preconditioned */
    assert_int_equal(p->rounds, 2);
    close_to(p->v[MEAS_IOPS], 2500);
    close_to(p->spread[MEAS_IOPS], 0.4);
    close_to(p->v[MEAS_READ_IOPS], 1250);
    close_to(p->spread[MEAS_READ_IOPS], 0.4);
    close_to(p->v[MEAS_MB_S], 2500 * 4096 / 1e6);
    /* latency means 101, 102 (rounds 2, 3) x 1.5: mean 152.25, spread 1.5 / 152.25 */
    close_to(p->v[MEAS_LAT_MEAN_US], 1.5 * 101.5);
    close_to(p->spread[MEAS_LAT_MEAN_US], 1.5 / 152.25);
    close_to(p->v[MEAS_WRITE_LAT_MEAN_US], 2 * 101.5);
    close_to(p->v[MEAS_LAT_P99_9_US], 4 * 101.5);
    close_to(p->v[MEAS_LAT_MAX_US], 10 * 101.5);
    assert_int_equal(p->compress_pct, 50);
    assert_int_equal(p->workers, 2);
    assert_int_equal(p->qd, 8);
    meas_free(&s);

    /* not steady: every round, state fob: mean 2000, spread 2000/2000 */
    write_run(dir, false, 3, iops);
    load_ok(path, &s);
    assert_int_equal(s.p[0].state, MEAS_STATE_FOB);
    assert_int_equal(s.p[0].rounds, 3);
    close_to(s.p[0].v[MEAS_IOPS], 2000);
    close_to(s.p[0].spread[MEAS_IOPS], 1.0);
    meas_free(&s);

    /* one round: no spread */
    write_run(dir, false, 1, iops);
    load_ok(path, &s);
    assert_int_equal(s.p[0].rounds, 1);
    close_to(s.p[0].v[MEAS_IOPS], 1000);
    assert_true(isnan(s.p[0].spread[MEAS_IOPS]));
    meas_free(&s);

    /* no rounds yet: no points, an error */
    write_run(dir, false, 0, iops);
    char err[ERR_LEN] = "";
    assert_int_equal(meas_load(path, &s, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "no measured points"));
    remove_tree(dir);
    free(dir);
}

/* ---- the new results format: preconditioning, measured_state, phase ---- */

/* root (a copy of a fixture, changed by the caller) written to DIR/results.json and loaded */
static void load_changed(const char *dir, struct json_object *root, struct meas_set *s)
{
    char path[4096];
    snprintf(path, sizeof(path), "%s/results.json", dir);
    assert_int_equal(json_object_to_file(path, root), 0);
    load_ok(path, s);
}

static void set_key(struct json_object *o, const char *key, struct json_object *v)
{
    assert_non_null(o);
    json_object_object_add(o, key, v);
}

/* mean of total.iops over the rounds numbered first..last whose phase is not skip_phase */
static double rounds_mean(struct json_object *root, int first, int last, const char *skip_phase,
                          unsigned *n_out)
{
    struct json_object *rounds = get(root, "rounds");
    double sum = 0;
    unsigned n = 0;
    for (size_t i = 0; i < json_object_array_length(rounds); i++) {
        struct json_object *r = json_object_array_get_idx(rounds, i);
        int rn = json_object_get_int(get(r, "round"));
        const char *ph = json_object_get_string(get(r, "phase"));
        if (rn < first || rn > last || (skip_phase && ph && !strcmp(ph, skip_phase)))
            continue;
        sum += num(get(r, "total"), "iops");
        n++;
    }
    if (n_out)
        *n_out = n;
    return n ? sum / n : NAN;
}

/* No preconditioning, a stable window (not steady): the stable window's average, state fob */
static void test_run_burst_fixture(void **state)
{
    (void)state;
    struct meas_set s;
    load_ok(fixture("run-burst-r4", true), &s);
    struct json_object *root = load_json(fixture("run-burst-r4", true));
    assert_int_equal(s.n, 1);
    const struct meas_point *p = &s.p[0];
    assert_int_equal(p->state, MEAS_STATE_FOB);
    assert_string_equal(meas_state_label(p->state), "burst (fresh-out-of-box)");
    /* the stable window is rounds 2..6 of 6: round 1 left out */
    unsigned n;
    double win = rounds_mean(root, 2, 6, NULL, &n);
    assert_int_equal(n, 5);
    close_to(p->v[MEAS_IOPS], win);
    assert_true(fabs(rounds_mean(root, 1, 6, NULL, NULL) - win) > 1);   /* round 1 matters */
    assert_true(fabs(p->v[MEAS_IOPS] - num(get(get(root, "steady_state"), "window"),
                                           "average")) < 0.01);
    assert_int_equal(p->rounds, 5);
    assert_int_equal(p->workers, 4);
    assert_int_equal(p->qd, 32);
    assert_int_equal(p->compress_pct, 100);
    meas_free(&s);

    /* "reached": true in a new file with "measured_state": "burst": still fob (the state
     * says what the window was) */
    char *dir = make_temp_dir("measure");
    assert_non_null(dir);
    set_key(get(root, "steady_state"), "reached", json_object_new_boolean(true));
    load_changed(dir, root, &s);
    assert_int_equal(s.p[0].state, MEAS_STATE_FOB);
    meas_free(&s);
    /* neither stable nor steady: every round (1..6), and still fob */
    set_key(get(root, "steady_state"), "reached", json_object_new_boolean(false));
    set_key(get(root, "steady_state"), "stable", json_object_new_boolean(false));
    set_key(get(root, "steady_state"), "measured_state", json_object_new_string("not stable"));
    load_changed(dir, root, &s);
    assert_int_equal(s.p[0].state, MEAS_STATE_FOB);
    assert_int_equal(s.p[0].rounds, 6);
    close_to(s.p[0].v[MEAS_IOPS], rounds_mean(root, 1, 6, NULL, NULL));
    meas_free(&s);
    /* the same after WIPC (preconditioning mode wipc): wipc */
    set_key(get(root, "preconditioning"), "mode", json_object_new_string("wipc"));
    load_changed(dir, root, &s);
    assert_int_equal(s.p[0].state, MEAS_STATE_WIPC);
    meas_free(&s);
    json_object_put(root);
    remove_tree(dir);
    free(dir);
}

/* WIPC + WDPC + steady state: the window's measurement rounds; phase "wdpc" never averaged */
static void test_run_steady_fixture(void **state)
{
    (void)state;
    struct meas_set s;
    load_ok(fixture("run-steady-6300", true), &s);
    struct json_object *root = load_json(fixture("run-steady-6300", true));
    const struct meas_point *p = &s.p[0];
    assert_int_equal(p->state, MEAS_STATE_STEADY);
    assert_string_equal(meas_state_label(p->state), "steady state");
    close_to(p->v[MEAS_IOPS], (133760.0 + 150246.4 + 137164.8 + 137472.0 + 140902.4) / 5);
    close_to(p->v[MEAS_IOPS], rounds_mean(root, 3, 7, NULL, NULL));
    assert_int_equal(p->rounds, 5);
    meas_free(&s);

    char *dir = make_temp_dir("measure");
    assert_non_null(dir);
    struct json_object *ss = get(root, "steady_state");
    /* a window reaching into the WDPC rounds (1..7): they are still left out */
    set_key(get(ss, "window"), "first_round", json_object_new_int(1));
    load_changed(dir, root, &s);
    assert_int_equal(s.p[0].rounds, 5);
    close_to(s.p[0].v[MEAS_IOPS], rounds_mean(root, 3, 7, NULL, NULL));
    meas_free(&s);
    /* a window of WDPC rounds only (1..2): the measurement rounds instead */
    set_key(get(ss, "window"), "last_round", json_object_new_int(2));
    load_changed(dir, root, &s);
    assert_int_equal(s.p[0].rounds, 5);
    close_to(s.p[0].v[MEAS_IOPS], rounds_mean(root, 1, 7, "wdpc", NULL));
    meas_free(&s);
    /* not steady, not stable: every round but the WDPC ones; preconditioned: wipc */
    set_key(ss, "reached", json_object_new_boolean(false));
    set_key(ss, "stable", json_object_new_boolean(false));
    set_key(ss, "measured_state", json_object_new_string("not stable"));
    load_changed(dir, root, &s);
    assert_int_equal(s.p[0].state, MEAS_STATE_WIPC);
    unsigned n;
    double want = rounds_mean(root, 1, 7, "wdpc", &n);
    assert_int_equal(n, 5);
    assert_int_equal(s.p[0].rounds, 5);
    close_to(s.p[0].v[MEAS_IOPS], want);
    assert_true(fabs(rounds_mean(root, 1, 7, NULL, NULL) - want) > 1000);   /* 378K left out */
    meas_free(&s);
    /* measured_state "wipc" (stable after WIPC) says so directly */
    set_key(ss, "measured_state", json_object_new_string("wipc"));
    load_changed(dir, root, &s);
    assert_int_equal(s.p[0].state, MEAS_STATE_WIPC);
    meas_free(&s);
    /* without the preconditioning object (an old file) the same run is fob, whatever else */
    set_key(ss, "reached", json_object_new_boolean(true));
    set_key(ss, "measured_state", json_object_new_string("steady"));
    json_object_object_del(root, "preconditioning");
    load_changed(dir, root, &s);
    assert_int_equal(s.p[0].state, MEAS_STATE_FOB);
    meas_free(&s);
    json_object_put(root);
    remove_tree(dir);
    free(dir);
}

/* Suite subtests and profile points: precondition records and measured_state */
static void test_suite_profile_states(void **state)
{
    (void)state;
    char *dir = make_temp_dir("measure");
    assert_non_null(dir);
    struct meas_set s;
    /* suite-6300's IOPS subtest: precondition wipc, reached: steady; not reached: wipc; no
     * precondition at all and not reached: fob; measured_state beats reached */
    struct json_object *root = load_json(fixture("suite-6300", true));
    struct json_object *sub = json_at(root, "tests.0.subtests.0");
    struct json_object *ss = get(sub, "steady_state");
    load_changed(dir, root, &s);
    assert_int_equal(find(&s, "suite/iops/bs=4096/read=0")->state, MEAS_STATE_STEADY);
    assert_int_equal(find(&s, "suite/wsat/bs=4096/read=0")->state, MEAS_STATE_UNKNOWN);
    meas_free(&s);
    set_key(ss, "reached", json_object_new_boolean(false));
    load_changed(dir, root, &s);
    assert_int_equal(find(&s, "suite/iops/bs=4096/read=0")->state, MEAS_STATE_WIPC);
    meas_free(&s);
    json_object_object_del(sub, "precondition");
    load_changed(dir, root, &s);
    assert_int_equal(find(&s, "suite/iops/bs=4096/read=0")->state, MEAS_STATE_FOB);
    meas_free(&s);
    /* the document's preconditioning (new files) counts for every subtest */
    struct json_object *pc = json_object_new_object();
    set_key(pc, "mode", json_object_new_string("wipc"));
    set_key(root, "preconditioning", pc);
    load_changed(dir, root, &s);
    assert_int_equal(find(&s, "suite/iops/bs=4096/read=0")->state, MEAS_STATE_WIPC);
    meas_free(&s);
    set_key(ss, "measured_state", json_object_new_string("steady"));
    load_changed(dir, root, &s);
    assert_int_equal(find(&s, "suite/iops/bs=4096/read=0")->state, MEAS_STATE_STEADY);
    meas_free(&s);
    json_object_put(root);

    /* profile-r4's first point: precondition steady, measured to steady state: steady */
    root = load_json(fixture("profile-r4", true));
    struct json_object *pt = json_at(root, "points.0");
    struct json_object *res = get(pt, "result");
    const char *key = "profile/database/database/c=0/w=1/qd=32";
    set_key(res, "steady", json_object_new_boolean(false));
    load_changed(dir, root, &s);
    assert_int_equal(find(&s, key)->state, MEAS_STATE_WIPC);   /* preconditioned, not steady */
    meas_free(&s);
    set_key(pt, "precondition", json_object_new_string("none"));
    load_changed(dir, root, &s);
    assert_int_equal(find(&s, key)->state, MEAS_STATE_FOB);
    meas_free(&s);
    /* the new per-point state record: condition wdpc means preconditioned */
    struct json_object *st = json_object_new_object();
    set_key(st, "condition", json_object_new_string("wdpc"));
    set_key(pt, "state", st);
    load_changed(dir, root, &s);
    assert_int_equal(find(&s, key)->state, MEAS_STATE_WIPC);
    meas_free(&s);
    set_key(res, "measured_state", json_object_new_string("burst"));
    load_changed(dir, root, &s);
    assert_int_equal(find(&s, key)->state, MEAS_STATE_FOB);
    meas_free(&s);
    json_object_put(root);
    remove_tree(dir);
    free(dir);
}

static void test_suite_window_spread(void **state)
{
    (void)state;
    char *dir = make_temp_dir("measure");
    assert_non_null(dir);
    /* 4 rounds of one element 100/4096; the table's window is rounds 2..4; the table averages
     * (deliberately rounded differently) are taken as given, 99.9 and spreads from the rounds */
    const double iops[] = {500, 900, 1000, 1100};
    const double p999[] = {50, 60, 70, 80};
    char text[16384];
    int o = snprintf(text, sizeof(text),
                     "{\"schema\": \"ptsbench.suite\", \"target\": {\"path\": \"sim:x\", "
                     "\"model\": \"Tiny\"}, \"tests\": [{\"name\": \"iops\", \"title\": \"IOPS\","
                     " \"threads\": 2, \"qd\": 4, \"access\": \"random\", \"subtests\": [{"
                     "\"steady_state\": {\"reached\": false}, \"rounds\": [");
    for (int i = 0; i < 4; i++)
        o += snprintf(text + o, sizeof(text) - (size_t)o,
                      "%s{\"round\": %d, \"elements\": [{\"rwmix_read\": 100, \"bs\": 4096, "
                      "\"iops\": %g, \"read_iops\": %g, \"write_iops\": 0, \"mb_s\": 1, "
                      "\"lat_us\": {\"read\": {\"count\": 1, \"mean\": 10}, \"write\": "
                      "{\"count\": 0}, \"total\": {\"count\": 1, \"mean\": 10, \"99.9\": %g}}}]}",
                      i ? ", " : "", i + 1, iops[i], iops[i], p999[i]);
    snprintf(text + o, sizeof(text) - (size_t)o,
             "], \"table\": {\"first_round\": 2, \"last_round\": 4, \"rows\": [{\"rwmix_read\": "
             "100, \"bs\": 4096, \"iops\": 1000.5, \"read_iops\": 1000.5, \"write_iops\": 0, "
             "\"mb_s\": 4.1, \"lat_us\": {\"read\": {\"mean\": 10}, \"write\": {\"mean\": "
             "null}, \"total\": {\"mean\": 10, \"99\": 20}}}]}}]}]}");
    write_file(dir, "results.json", text);
    struct meas_set s;
    load_ok(dir, &s);
    assert_int_equal(s.n, 1);
    const struct meas_point *p = &s.p[0];
    assert_string_equal(p->key, "suite/iops/bs=4096/read=100");
    assert_string_equal(s.device, "Tiny");
    assert_int_equal(p->state, MEAS_STATE_FOB);
    assert_int_equal(p->workers, 2);
    assert_int_equal(p->qd, 4);
    assert_int_equal(p->rounds, 3);
    close_to(p->v[MEAS_IOPS], 1000.5);                 /* the table's */
    close_to(p->spread[MEAS_IOPS], (1100.0 - 900.0) / 1000.0);
    close_to(p->v[MEAS_LAT_P99_9_US], 70);             /* rounds 2..4 */
    close_to(p->spread[MEAS_LAT_P99_9_US], 20.0 / 70.0);
    close_to(p->v[MEAS_LAT_P99_US], 20);
    assert_true(isnan(p->v[MEAS_LAT_MAX_US]));         /* absent */
    assert_true(isnan(p->v[MEAS_WRITE_LAT_MEAN_US]));
    meas_free(&s);
    remove_tree(dir);
    free(dir);
}

static void test_directories_and_errors(void **state)
{
    (void)state;
    char *dir = make_temp_dir("measure");
    assert_non_null(dir);
    char sub[4096], art[4200], path[4300];
    char err[ERR_LEN];
    struct meas_set s;

    /* an empty directory */
    err[0] = '\0';
    assert_int_equal(meas_load(dir, &s, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "no results found"));

    /* DIR/results.json of another schema (crosscheck) is skipped in a directory, DIR/a/ holds a
     * run, DIR/a/fio/ (artifacts) a file that must not be read, DIR/.hidden too */
    write_file(dir, "results.json", "{\"schema\": \"ptsbench.crosscheck\"}");
    snprintf(sub, sizeof(sub), "%s/a", dir);
    assert_int_equal(mkdir(sub, 0755), 0);
    const double iops[] = {1000, 2000, 3000};
    write_run(sub, true, 3, iops);
    snprintf(art, sizeof(art), "%s/fio", sub);
    assert_int_equal(mkdir(art, 0755), 0);
    write_file(art, "results.json", "not json");
    snprintf(art, sizeof(art), "%s/.hidden", dir);
    assert_int_equal(mkdir(art, 0755), 0);
    write_file(art, "results.json", "not json");
    load_ok(dir, &s);
    assert_int_equal(s.n_files, 1);
    assert_int_equal(s.n, 1);
    snprintf(path, sizeof(path), "%s/results.json", sub);
    assert_string_equal(s.p[0].source, path);
    meas_free(&s);

    /* the crosscheck file named directly: unknown schema */
    snprintf(path, sizeof(path), "%s/results.json", dir);
    err[0] = '\0';
    assert_int_equal(meas_load(path, &s, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "ptsbench.crosscheck"));
    assert_non_null(strstr(err, path));
    assert_null(strchr(err, '\n'));

    /* not JSON */
    write_file(dir, "broken.json", "{\"schema\": ");
    snprintf(path, sizeof(path), "%s/broken.json", dir);
    err[0] = '\0';
    assert_int_equal(meas_load(path, &s, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "not a JSON document"));

    /* no such file */
    snprintf(path, sizeof(path), "%s/absent.json", dir);
    err[0] = '\0';
    assert_int_equal(meas_load(path, &s, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "absent.json"));
    assert_non_null(strstr(err, "No such file"));
    remove_tree(dir);
    free(dir);
}

static void test_metric_names(void **state)
{
    (void)state;
    for (unsigned i = 0; i < MEAS_N; i++) {
        enum meas_metric m;
        const char *name = meas_metric_name((enum meas_metric)i);
        assert_int_equal(meas_metric_parse(name, &m), 0);
        assert_int_equal(m, i);
        assert_int_equal(meas_lower_is_better(m), strstr(name, "lat") != NULL);
    }
    enum meas_metric m;
    assert_int_equal(meas_metric_parse("lat_p99_9_us", &m), 0);
    assert_int_equal(m, MEAS_LAT_P99_9_US);
    assert_string_equal(meas_metric_name(MEAS_MB_S), "mb_s");
    assert_int_equal(meas_metric_parse("bogus", &m), -1);
    assert_int_equal(meas_metric_parse("IOPS", &m), -1);     /* case-sensitive */
    assert_false(meas_lower_is_better(MEAS_IOPS));
    assert_true(meas_lower_is_better(MEAS_LAT_MAX_US));
    assert_string_equal(meas_state_name(MEAS_STATE_STEADY), "steady");
    assert_string_equal(meas_state_name(MEAS_STATE_FOB), "fob");
    assert_string_equal(meas_state_name(MEAS_STATE_WIPC), "wipc");
    assert_string_equal(meas_state_name(MEAS_STATE_UNKNOWN), "unknown");
    assert_string_equal(meas_state_label(MEAS_STATE_STEADY), "steady state");
    assert_string_equal(meas_state_label(MEAS_STATE_FOB), "burst (fresh-out-of-box)");
    assert_string_equal(meas_state_label(MEAS_STATE_WIPC), "burst after WIPC");
    assert_string_equal(meas_state_label(MEAS_STATE_UNKNOWN), "unknown");
}

/* ---- what writers record as structure: tracking's parts, a profile point's workload ---- */

/* A copy of fixture NAME, changed by edit, loaded: the first file of a temporary directory. */
static void load_edited(const char *name, void (*edit)(struct json_object *root),
                        struct meas_set *s)
{
    struct json_object *root = load_json(fixture(name, true));
    edit(root);
    char *dir = make_temp_dir("measure");
    assert_non_null(dir);
    char path[4096];
    snprintf(path, sizeof(path), "%s/results.json", dir);
    assert_int_equal(json_object_to_file_ext(path, root, JSON_C_TO_STRING_PLAIN), 0);
    json_object_put(root);
    load_ok(path, s);
    remove_tree(dir);
    free(dir);
}

/* DIRTH's stimulus from its precondition's "track" {bs, read_pct}, not from the name beside it
 * (here made to say 4 KiB / 0: a reader of the name would key the point bs=4096/read=0). */
static void dirth_track_edit(struct json_object *root)
{
    struct json_object *sub = json_object_array_get_idx(get(suite_test(root, "dirth"),
                                                            "subtests"), 0);
    struct json_object *var = json_object_array_get_idx(
        get(get(get(sub, "precondition"), "steady_state"), "variables"), 0);
    assert_non_null(var);
    json_object_object_add(var, "tracking", json_object_new_string("iops@4KiB/0"));
    json_object_object_add(var, "track", json_tokener_parse("{\"metric\": \"iops\", \"bs\": "
                                                            "8192, \"read_pct\": 65}"));
}

static void test_dirth_track_structure(void **state)
{
    (void)state;
    struct meas_set s;
    load_edited("suite2-6300", dirth_track_edit, &s);
    assert_int_equal(s.n, 1);
    const struct meas_point *p = find(&s, "suite/dirth/max/bs=8192/read=65");
    assert_int_equal(p->bs, 8192);
    assert_int_equal(p->read_pct, 65);
    meas_free(&s);
}

/* A profile point's conditions from its "stimulus" (the workload object a run records); this
 * point has no inline "spec" at all, which a file written before "stimulus" must have. */
static void profile_stimulus_edit(struct json_object *root)
{
    struct json_object *pt = json_object_array_get_idx(get(root, "points"), 0);
    assert_non_null(pt);
    json_object_object_del(pt, "spec");
    json_object_object_add(pt, "stimulus", json_tokener_parse(
        "{\"name\": \"database\", \"read_pct\": 33, \"random_pct\": 50, \"block_sizes\": "
        "[{\"bytes\": 16384, \"weight_pct\": 100}], \"workers\": 1, \"qd\": 32, "
        "\"compress_pct\": 0}"));
}

static void test_profile_stimulus(void **state)
{
    (void)state;
    struct meas_set s, old;
    load_ok(fixture("profile-r4", true), &old);   /* written before "stimulus": its spec */
    load_edited("profile-r4", profile_stimulus_edit, &s);
    assert_int_equal(s.n, old.n);
    const struct meas_point *p = &s.p[0];
    assert_int_equal(p->bs, 16384);
    assert_int_equal(p->read_pct, 33);
    assert_int_equal(p->random_pct, 50);
    assert_string_equal(p->key, old.p[0].key);
    assert_int_equal(old.p[0].bs, 8192);   /* the fixture's own: database, 8 KiB */
    meas_free(&s);
    meas_free(&old);
}

static void test_merge(void **state)
{
    (void)state;
    struct meas_set a, b;
    load_ok(fixture("run-generic", true), &a);
    load_ok(fixture("ramp-6300", true), &b);
    char dev[256];
    str_copy(dev, sizeof(dev), a.device);
    meas_merge(&a, &b);
    assert_int_equal(a.n, 8);
    assert_int_equal(a.n_files, 2);
    assert_string_equal(a.device, dev);
    assert_int_equal(b.n, 0);
    assert_null(b.p);
    assert_non_null(meas_find(&a, "profile/qd-ramp-4k-read/qd-ramp-4k-read/c=0/w=4/qd=1"));
    meas_free(&a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_suite_iops),
        cmocka_unit_test(test_suite_tp_lat_wsat),
        cmocka_unit_test(test_suite_dirth),
        cmocka_unit_test(test_dirth_track_structure),
        cmocka_unit_test(test_profile_stimulus),
        cmocka_unit_test(test_profile),
        cmocka_unit_test(test_run),
        cmocka_unit_test(test_keys_stable_unique),
        cmocka_unit_test(test_run_window_spread),
        cmocka_unit_test(test_run_burst_fixture),
        cmocka_unit_test(test_run_steady_fixture),
        cmocka_unit_test(test_suite_profile_states),
        cmocka_unit_test(test_suite_window_spread),
        cmocka_unit_test(test_directories_and_errors),
        cmocka_unit_test(test_metric_names),
        cmocka_unit_test(test_merge),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
