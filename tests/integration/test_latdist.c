/* test_latdist.c — latency histograms in the results and the latency-distribution charts.
 *
 * Short runs on the simulated drive (3 x 2 s rounds of 70/30 4 KiB random at weight 1, 2 rounds
 * on a drive simulated at weight 128) and a PTS latency test of 0.5 s elements:
 *   - every run round and suite element keeps lat_hist with read and write [bucket, count]
 *     pairs; the counts re-sum to the direction's ios (and the two to total.ios);
 *   - the percentiles of the recorded histogram (read/histogram.h) agree with the recorded
 *     percentiles within the histogram's resolution (a bucket: 1/64 of the value), per
 *     direction and for the two merged (total);
 *   - `ptsbench plot` writes run-latdist.dat whose curves start at 1, never rise (x never
 *     falls) and end at 1/count: the first curve, round 1's, at 1/total.ios of round 1.
 * The charts need gnuplot: that case says SKIP without it. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <json-c/json.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "read/histogram.h"
#include "stats/hist.h"

static char *dir;

static const char *sub(const char *name)
{
    static char buf[4][4096];
    static unsigned k;
    char *b = buf[k++ % 4];
    snprintf(b, 4096, "%s/%s", dir, name);
    return b;
}

static int group_setup(void **state)
{
    (void)state;
    dir = make_temp_dir("latdist");
    return dir ? 0 : -1;
}

static int group_teardown(void **state)
{
    (void)state;
    remove_tree(dir);
    free(dir);
    return 0;
}

static struct json_object *run_sim(const char *target, const char *rounds, const char *name)
{
    char *argv[] = {(char *)ptsbench_bin(), "run", "--target", (char *)target, "--workload",
                    "rw=randrw,rwmixread=70,bs=4k,qd=8", "--rounds", (char *)rounds,
                    "--round-time", "2s", "--quiet", "--out", (char *)sub(name), NULL};
    return ptsbench_results(argv, sub(name), 0, NULL);
}

/* The sum of one direction's counts; -1 when the array is malformed. */
static double pairs_sum(struct json_object *a)
{
    size_t n = json_object_array_length(a);
    double s = 0;
    for (size_t i = 1; i < n; i += 2)
        s += (double)json_object_get_int64(json_object_array_get_idx(a, i));
    return n % 2 ? -1 : s;
}

/* rec's lat_hist re-sums to its ios per direction and in total; its percentiles agree with
 * the recorded ones within a bucket. Returns the records' total I/Os. */
static double check_record(struct json_object *rec, const char *what)
{
    struct json_object *lh = json_at(rec, "lat_hist");
    assert_non_null(lh);   /* results written before lat_hist: none */
    assert_string_equal(json_object_get_string(json_at(lh, "buckets")), "log-linear");
    assert_int_equal(json_object_get_int(json_at(lh, "sub_bits")), HIST_SUB_BITS);
    const char *dirs[] = {"read", "write", "total"};
    const unsigned masks[] = {READ_HIST_READ, READ_HIST_WRITE, READ_HIST_TOTAL};
    double sum[2];
    for (int d = 0; d < 2; d++) {
        char path[64];
        snprintf(path, sizeof(path), "lat_hist.%s", dirs[d]);
        sum[d] = pairs_sum(json_at(rec, path));
        snprintf(path, sizeof(path), "%s.ios", dirs[d]);
        assert_true(sum[d] == json_num(rec, path));
    }
    assert_true(sum[0] + sum[1] == json_num(rec, "total.ios"));
    struct read_hist *rh = calloc(1, sizeof(*rh));
    assert_non_null(rh);
    static const char *const pcts[] = {"50", "90", "99", "99.9", "99.99"};
    for (int d = 0; d < 3; d++) {
        char path[96];
        snprintf(path, sizeof(path), "%s.lat_us", dirs[d]);
        if (!json_at(rec, path) || json_object_get_type(json_at(rec, path)) != json_type_object)
            continue;   /* no I/O that way */
        read_hist_init(rh);
        assert_int_equal(read_hist_add(rh, rec, masks[d]), 1);
        assert_true((double)read_hist_count(rh) == (d < 2 ? sum[d] : sum[0] + sum[1]));
        for (size_t p = 0; p < sizeof(pcts) / sizeof(pcts[0]); p++) {
            snprintf(path, sizeof(path), "%s.lat_us.percentiles", dirs[d]);
            struct json_object *v = NULL;   /* "99.9" is one key: not a dotted path */
            assert_true(json_object_object_get_ex(json_at(rec, path), pcts[p], &v));
            snprintf(path, sizeof(path), "%s.lat_us.count", dirs[d]);
            if (!v) {   /* null: the record's I/Os do not support it (the tail rule) */
                assert_false(hist_pct_supported((uint64_t)json_num(rec, path), atof(pcts[p])));
                continue;
            }
            const double want = json_object_get_double(v);
            const double got = read_hist_percentile_us(rh, atof(pcts[p]));
            if (fabs(got - want) > want / 64.0 + 1e-9)
                print_message("%s %s p%s: histogram %.6g us, recorded %.6g us\n", what, dirs[d],
                              pcts[p], got, want);
            assert_true(fabs(got - want) <= want / 64.0 + 1e-9);
        }
    }
    free(rh);
    return sum[0] + sum[1];
}

static void test_run_rounds_keep_their_histograms(void **state)
{
    (void)state;
    const struct { const char *target, *rounds, *name; } runs[] = {
        {"sim:generic-mlc25", "3", "run"}, {"sim:zdrive-r4-cm88-1.6t", "2", "run-k"}};
    for (size_t k = 0; k < 2; k++) {
        struct json_object *doc = run_sim(runs[k].target, runs[k].rounds, runs[k].name);
        assert_non_null(doc);
        struct json_object *rounds = json_at(doc, "rounds");
        assert_int_equal(json_object_array_length(rounds), atoi(runs[k].rounds));
        for (size_t r = 0; r < json_object_array_length(rounds); r++) {
            char what[64];
            snprintf(what, sizeof(what), "%s round %zu", runs[k].name, r + 1);
            double n = check_record(json_object_array_get_idx(rounds, r), what);
            print_message("%s: %.0f I/Os in the histogram (weight %g)\n", what, n,
                          json_num(doc, "rounds.0.lat_hist.weight"));
        }
        json_object_put(doc);
    }
}

static void test_suite_elements_keep_their_histograms(void **state)
{
    (void)state;
    char *argv[] = {(char *)ptsbench_bin(), "run-test", "lat", "--target", "sim:generic-mlc25",
                    "--round-time", "0.5s", "--out", (char *)sub("lat"), NULL};
    struct json_object *doc = ptsbench_results(argv, sub("lat"), 0, NULL);
    assert_non_null(doc);
    struct json_object *rounds = json_at(doc, "tests.0.subtests.0.rounds");
    assert_true(json_object_array_length(rounds) > 0);
    size_t n = 0;
    for (size_t r = 0; r < json_object_array_length(rounds); r++) {
        struct json_object *els = json_at(json_object_array_get_idx(rounds, r), "elements");
        for (size_t e = 0; e < json_object_array_length(els); e++, n++) {
            char what[64];
            snprintf(what, sizeof(what), "lat round %zu element %zu", r + 1, e + 1);
            check_record(json_object_array_get_idx(els, e), what);
        }
    }
    print_message("lat: %zu elements checked\n", n);
    assert_true(n >= 9);
    json_object_put(doc);
}

/* The blocks of a .dat: each a curve (x, y); checks each and returns the first's last y. */
static double check_dat(const char *path)
{
    char *text = slurp_file(path, NULL);
    assert_non_null(text);
    double first_last = NAN, px = NAN, py = NAN;
    int blocks = 0, rows = 0;
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (!strncmp(line, "# index ", 8)) {
            if (blocks == 1)
                first_last = py;
            blocks++;
            px = py = NAN;
            continue;
        }
        double x, y;
        if (line[0] == '#' || sscanf(line, "%lf %lf", &x, &y) != 2)
            continue;
        if (isnan(py))
            assert_true(y == 1.0);   /* a curve starts with every I/O */
        else {
            assert_true(x >= px);
            assert_true(y <= py);
        }
        assert_true(y > 0);
        px = x;
        py = y;
        rows++;
    }
    if (blocks == 1)
        first_last = py;
    print_message("%s: %d curves, %d points\n", path, blocks, rows);
    assert_true(blocks >= 2);   /* round 1 and the window at least */
    free(text);
    return first_last;
}

static void test_exceedance_data(void **state)
{
    (void)state;
    char *gp[] = {"gnuplot", "--version", NULL};
    struct cmd_result r;
    if (run_cmd(gp, &r) != 0 || r.status != 0) {
        printf("SKIP: gnuplot is not installed: the chart's data file is not written\n");
        cmd_result_free(&r);
        skip();
    }
    cmd_result_free(&r);
    struct json_object *doc = load_json(sub("run/results.json"));
    if (!doc)
        doc = run_sim("sim:generic-mlc25", "3", "run");
    assert_non_null(doc);
    char *argv[] = {(char *)ptsbench_bin(), "plot", (char *)sub("run"), "--out",
                    (char *)sub("plots"), NULL};
    assert_int_equal(run_cmd(argv, &r), 0);
    assert_int_equal(r.status, 0);
    cmd_result_free(&r);
    const double last = check_dat(sub("plots/run-latdist.dat"));
    const double floor = 1.0 / json_num(doc, "rounds.0.total.ios");
    print_message("round 1's curve ends at %.6g, 1/count %.6g\n", last, floor);
    assert_true(fabs(last - floor) <= floor * 1e-6);
    json_object_put(doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_run_rounds_keep_their_histograms),
        cmocka_unit_test(test_suite_elements_keep_their_histograms),
        cmocka_unit_test(test_exceedance_data),
    };
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
