/* test_lat_window.c — a window's latencies are its merged histograms', not averaged percentiles.
 *
 * The test hook $PTSBENCH_TEST_LATLOG (core/worker.h) logs every sample that went into the
 * rounds' histograms ("DIR NS COUNT", a line "round" as each round starts). The exact
 * nearest-rank percentile of a window's logged samples (rank ceil(p/100 x N) of the N samples
 * in order, in µs = ns / 1000 / k) is the figure the merged histogram approximates within
 * HIST_REL_ERROR = 1/128 (stats/hist.h). Checked:
 *   - a run of 3 x 1 s rounds of 50/50 4 KiB random on sim:generic-mlc25 at k = 256 (about
 *     2,500 completions: the drive fills and its rounds differ, a p99 of 430 µs then 810):
 *     the window's figures per direction (core/lat_hist.h lat_window_compute on the records)
 *     and the measured point's (read/measure.h: what verify, gate and report use) agree with
 *     the exact percentiles, mean and max; a percentile the tail rule refuses
 *     (hist_pct_supported: 10 observations beyond it) is NAN. The old figures (the rounds'
 *     percentiles averaged: 680 µs for that p99) are not within 1/128;
 *   - the same for a fleet's aggregate rounds (two simulated drives at once, --parallel);
 *   - a PTS latency test's table rows and a profile point's result: their read and write
 *     percentiles are the window's merged histogram's (merged here with read_hist_add), and
 *     each keeps that histogram (lat_hist) re-summing to its I/Os; a table row's percentile
 *     its count does not support (null) stays NAN in the measured point;
 *   - `export --histogram` gives the buckets of every kind of record (run rounds, fleet rounds,
 *     table rows, profile rounds and results), their counts re-summing to the records' I/Os. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <sys/stat.h>
#include <json-c/json.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/lat_hist.h"
#include "core/worker.h"
#include "helpers.h"
#include "read/measure.h"

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
    dir = make_temp_dir("latwin");
    return dir ? 0 : -1;
}

static int group_teardown(void **state)
{
    (void)state;
    remove_tree(dir);
    free(dir);
    return 0;
}

/* ---- the log ---- */

struct sample {
    uint64_t ns, n;
};
struct samples {
    struct sample *s;
    size_t len, cap;
};
/* One process's log: per round, per direction (0 read, 1 write, 2 trim). */
struct latlog {
    struct samples (*round)[3];
    size_t rounds;
};

static void samples_add(struct samples *a, uint64_t ns, uint64_t n)
{
    if (a->len == a->cap) {
        a->cap = a->cap ? 2 * a->cap : 1024;
        a->s = realloc(a->s, a->cap * sizeof(*a->s));
        assert_non_null(a->s);
    }
    a->s[a->len++] = (struct sample){ns, n};
}

static void log_read(const char *path, struct latlog *lg)
{
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char line[128];
    memset(lg, 0, sizeof(*lg));
    while (fgets(line, sizeof(line), f)) {
        if (!strcmp(line, "round\n")) {
            lg->round = realloc(lg->round, (lg->rounds + 1) * sizeof(*lg->round));
            assert_non_null(lg->round);
            memset(lg->round[lg->rounds++], 0, sizeof(*lg->round));
            continue;
        }
        int d;
        unsigned long long ns, n;
        assert_int_equal(sscanf(line, "%d %llu %llu", &d, &ns, &n), 3);
        assert_true(d >= 0 && d < 3 && lg->rounds > 0);
        samples_add(&lg->round[lg->rounds - 1][d], ns, n);
    }
    fclose(f);
}

static void log_free(struct latlog *lg)
{
    for (size_t r = 0; r < lg->rounds; r++)
        for (int d = 0; d < 3; d++)
            free(lg->round[r][d].s);
    free(lg->round);
}

/* The logs the runs in out_dir's tag left: every file "latlog.PID" there, at most cap. */
static size_t logs_read(const char *where, struct latlog *lg, size_t cap)
{
    DIR *d = opendir(where);
    assert_non_null(d);
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d)) && n < cap) {
        if (strncmp(e->d_name, "latlog.", 7) != 0)
            continue;
        char path[4400];
        snprintf(path, sizeof(path), "%s/%s", where, e->d_name);
        log_read(path, &lg[n++]);
    }
    closedir(d);
    return n;
}

static int by_ns(const void *a, const void *b)
{
    const struct sample *x = a, *y = b;
    return x->ns < y->ns ? -1 : x->ns > y->ns;
}

/* The exact figures of the samples of directions dirs (bits 1 << DIR) in rounds [first, last]
 * (1-based, counted from the log's end: a log holds only measured rounds here) of every log:
 * count (samples / k), mean, max and each percentile of metrics_percentiles[], in µs. */
struct exact {
    double count, mean, max, pct[METRICS_NPCT];
};
static void exact_of(struct latlog *lg, size_t n_logs, size_t first, size_t last, unsigned dirs,
                     double k, struct exact *out)
{
    struct samples all = {0};
    for (size_t l = 0; l < n_logs; l++)
        for (size_t r = first; r <= last; r++)
            for (int d = 0; d < 3; d++)
                for (size_t i = 0; (dirs & (1u << d)) && i < lg[l].round[r - 1][d].len; i++)
                    samples_add(&all, lg[l].round[r - 1][d].s[i].ns, lg[l].round[r - 1][d].s[i].n);
    qsort(all.s, all.len, sizeof(*all.s), by_ns);
    double total = 0, sum = 0;
    for (size_t i = 0; i < all.len; i++) {
        total += (double)all.s[i].n;
        sum += (double)all.s[i].ns * (double)all.s[i].n;
    }
    const double to_us = 1.0 / (1000.0 * k);
    out->count = total / k;
    out->mean = total ? sum / total * to_us : NAN;
    out->max = all.len ? (double)all.s[all.len - 1].ns * to_us : NAN;
    for (int p = 0; p < METRICS_NPCT; p++) {
        const double rank = ceil(metrics_percentiles[p] / 100.0 * total - 1e-9);
        double cum = 0;
        out->pct[p] = NAN;
        for (size_t i = 0; i < all.len; i++) {
            cum += (double)all.s[i].n;
            if (cum >= rank) {
                out->pct[p] = (double)all.s[i].ns * to_us;
                break;
            }
        }
    }
    free(all.s);
}

/* got is the exact figure within the histogram's resolution; or NAN where the tail rule says
 * the count does not support percentile p. Returns how many percentiles were numbers. */
static int check_pcts(const double *got, const struct exact *x, const char *what)
{
    int numbers = 0;
    for (int p = 0; p < METRICS_NPCT; p++) {
        const double pc = metrics_percentiles[p];
        if (!hist_pct_supported((uint64_t)llround(x->count), pc)) {
            if (!isnan(got[p]))
                fail_msg("%s p%g: %g, but %.0f observations do not support it", what, pc,
                         got[p], x->count);
            continue;
        }
        numbers++;
        if (!(fabs(got[p] - x->pct[p]) <= x->pct[p] * HIST_REL_ERROR + 1e-6))
            fail_msg("%s p%g: %g, exact %g (more than 1/128 apart)", what, pc, got[p],
                     x->pct[p]);
    }
    return numbers;
}

static void check_summary(const struct lat_summary *l, const struct exact *x, const char *what)
{
    assert_int_equal(l->from, LAT_FROM_HISTOGRAMS);
    assert_true(fabs((double)l->count - x->count) <= 1);
    assert_true(fabs(l->mean_us - x->mean) <= 1e-6 * x->mean);
    assert_true(fabs(l->max_us - x->max) <= 1e-3);
    const int numbers = check_pcts(l->pct_us, x, what);
    print_message("%s: %.0f I/Os, %d percentiles checked, p50 %.3f µs\n", what, x->count,
                  numbers, l->pct_us[METRICS_P50]);
    assert_true(numbers >= 3);
}

/* The window's records [first, last] of rounds (1-based "round" numbers). */
static size_t window_recs(struct json_object *rounds, long first, long last,
                          struct json_object **recs)
{
    size_t n = 0;
    for (size_t i = 0; i < json_object_array_length(rounds); i++) {
        struct json_object *r = json_object_array_get_idx(rounds, i);
        const long rn = (long)json_num(r, "round");
        if (rn >= first && rn <= last)
            recs[n++] = r;
    }
    return n;
}

static const unsigned dir_bits[LAT_NDIR] = {1u, 2u, 4u, 7u};

/* `ptsbench export --histogram --json-lines` of out_dir's results: the sum of the bucket rows'
 * counts of record kind `of` and direction dir. */
static double export_sum(const char *out_dir, const char *of, const char *dirname)
{
    char path[4200];
    snprintf(path, sizeof(path), "%s/results.json", out_dir);
    char *argv[] = {(char *)ptsbench_bin(), "export", "--histogram", "--json-lines", path, NULL};
    struct cmd_result r;
    assert_int_equal(run_cmd(argv, &r), 0);
    assert_int_equal(r.status, 0);
    double sum = 0;
    char *save = NULL;
    for (char *line = strtok_r(r.out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        struct json_object *o = json_tokener_parse(line);
        assert_non_null(o);
        const char *k = json_object_get_string(json_at(o, "of"));
        const char *d = json_object_get_string(json_at(o, "direction"));
        if (k && d && !strcmp(k, of) && !strcmp(d, dirname))
            sum += json_num(o, "count");
        json_object_put(o);
    }
    cmd_result_free(&r);
    return sum;
}

/* The sum of DIR.ios over the array arr's items (path within each: where). */
static double ios_sum(struct json_object *arr, const char *where)
{
    double s = 0;
    for (size_t i = 0; i < json_object_array_length(arr); i++)
        s += json_num(json_object_array_get_idx(arr, i), where);
    return s;
}

/* rec's DIR.lat_us.percentiles[key] (a key such as "99.9" holds a dot: not a dotted path);
 * NAN when null or absent. */
static double pct_of(struct json_object *rec, const char *dirname, int p)
{
    char path[64];
    snprintf(path, sizeof(path), "%s.lat_us.percentiles", dirname);
    struct json_object *pc = json_at(rec, path), *v = NULL;
    if (!pc || !json_object_object_get_ex(pc, metrics_percentile_names[p] + 1, &v) || !v)
        return NAN;
    return json_object_get_double(v);
}

/* ptsbench argv into out with the hook logging into logdir/latlog.PID; its results. */
static struct json_object *logged_run(char **argv, const char *out, const char *logdir)
{
    char logp[4300];
    snprintf(logp, sizeof(logp), "%s/latlog", logdir);
    setenv(WORKER_LATLOG_ENV, logp, 1);
    struct json_object *doc = ptsbench_results(argv, out, 0, NULL);
    unsetenv(WORKER_LATLOG_ENV);
    assert_non_null(doc);
    return doc;
}

/* ---- (a) a run ---- */

static void test_run_window_is_exact(void **state)
{
    (void)state;
    const char *out = sub("run");
    char *argv[] = {NULL, "run", "--target", "sim:generic-mlc25,k=256", "--workload",
                    "rw=randrw,rwmixread=50,bs=4k,qd=8", "--rounds", "3", "--round-time", "1s",
                    "--quiet", "--out", (char *)out, NULL};
    struct json_object *doc = logged_run(argv, out, dir);
    struct latlog lg[2];
    assert_int_equal(logs_read(dir, lg, 2), 1);
    struct json_object *rounds = json_at(doc, "rounds");
    assert_int_equal(lg[0].rounds, json_object_array_length(rounds));
    assert_int_equal(lg[0].rounds, 3);

    /* the window measure takes: no steady state in 3 rounds, so every round */
    struct meas_set ms;
    char err[512];
    char path[4200];
    snprintf(path, sizeof(path), "%s/results.json", out);
    assert_int_equal(meas_load(path, &ms, err, sizeof(err)), 0);
    assert_int_equal(ms.n, 1);
    assert_int_equal(ms.p[0].rounds, 3);

    struct json_object *recs[3];
    assert_int_equal(window_recs(rounds, 1, 3, recs), 3);
    struct lat_window *w = calloc(1, sizeof(*w));
    assert_non_null(w);
    lat_window_compute(recs, 3, w);
    for (int d = 0; d < LAT_NDIR; d++) {
        if (d == LAT_TRIM)
            continue;
        struct exact x;
        exact_of(lg, 1, 1, 3, dir_bits[d], 256, &x);
        char what[64];
        snprintf(what, sizeof(what), "run window, %s", lat_dir_names[d]);
        check_summary(&w->lat[d], &x, what);
    }
    /* the measured point: every latency of the vocabulary over the total */
    struct exact x;
    exact_of(lg, 1, 1, 3, 7, 256, &x);
    double got[METRICS_NPCT];
    for (int p = 0; p < METRICS_NPCT; p++)
        got[p] = NAN;
    for (unsigned m = 0; m < MEAS_N; m++) {
        const struct metric_def *d = &metrics_defs[m];
        if (d->kind == METRIC_KIND_LAT && d->dir == METRIC_TOTAL && d->pct >= 0)
            got[d->pct] = ms.p[0].v[m];
    }
    for (int p = 0; p < METRICS_NPCT; p++)   /* those the vocabulary does not name */
        if (isnan(got[p]))
            got[p] = hist_pct_supported((uint64_t)llround(x.count), metrics_percentiles[p])
                         ? w->lat[LAT_TOTAL].pct_us[p] : NAN;
    assert_true(check_pcts(got, &x, "measured point") >= 3);
    assert_true(fabs(ms.p[0].v[MEAS_LAT_MEAN_US] - x.mean) <= 1e-6 * x.mean);
    assert_true(fabs(ms.p[0].v[MEAS_LAT_MAX_US] - x.max) <= 1e-3);
    assert_true(fabs(ms.p[0].v[MEAS_READ_LAT_MEAN_US] - w->lat[LAT_READ].mean_us) <= 1e-9);
    free(w);
    meas_free(&ms);
    log_free(&lg[0]);
    /* export --histogram: the rounds' buckets, re-summing to their I/Os */
    const double ios = ios_sum(rounds, "read.ios");
    assert_true(ios > 0);
    assert_true(export_sum(out, "run_round", "read") == ios);
    json_object_put(doc);
}

/* ---- (b) a fleet's aggregate ---- */

static void test_fleet_aggregate_is_exact(void **state)
{
    (void)state;
    char logdir[4200];
    snprintf(logdir, sizeof(logdir), "%s/fleetlog", dir);
    assert_int_equal(mkdir(logdir, 0755), 0);
    const char *out = sub("fleet");
    char *argv[] = {NULL, "run", "--target", "sim:generic-mlc25,k=256", "--target",
                    "sim:generic-mlc25,k=256,seed=7", "--parallel", "--workload",
                    "rw=randrw,rwmixread=50,bs=4k,qd=8", "--rounds", "2", "--round-time", "1s",
                    "--quiet", "--out", (char *)out, NULL};
    struct json_object *doc = logged_run(argv, out, logdir);
    struct latlog lg[3];
    assert_int_equal(logs_read(logdir, lg, 3), 2);
    assert_int_equal(lg[0].rounds, 2);
    assert_int_equal(lg[1].rounds, 2);
    struct json_object *rows = json_at(doc, "aggregate.rounds");
    assert_non_null(rows);
    assert_int_equal(json_object_array_length(rows), 2);
    static const char *const names[] = {"read", "write", "total"};
    for (size_t r = 0; r < 2; r++) {
        struct json_object *row = json_object_array_get_idx(rows, r);
        for (int d = 0; d < 3; d++) {
            const int ld = d == 2 ? LAT_TOTAL : d;
            struct exact x;
            exact_of(lg, 2, r + 1, r + 1, dir_bits[ld], 256, &x);
            char key[64], what[64];
            double got[METRICS_NPCT];
            for (int p = 0; p < METRICS_NPCT; p++)
                got[p] = pct_of(row, names[d], p);
            snprintf(what, sizeof(what), "fleet round %zu, %s", r + 1, names[d]);
            assert_true(check_pcts(got, &x, what) >= 3);
            snprintf(key, sizeof(key), "%s.lat_us.count", names[d]);
            assert_true(fabs(json_num(row, key) - x.count) <= 1);
            snprintf(key, sizeof(key), "%s.lat_us.max", names[d]);
            assert_true(fabs(json_num(row, key) - x.max) <= 1e-3);
            snprintf(key, sizeof(key), "%s.lat_us.from", names[d]);
            assert_string_equal(json_object_get_string(json_at(row, key)), "histograms");
        }
        assert_non_null(json_at(row, "lat_hist.read"));
    }
    assert_true(export_sum(out, "fleet_round", "write") == ios_sum(rows, "write.ios"));
    for (int l = 0; l < 2; l++)
        log_free(&lg[l]);
    json_object_put(doc);
}

/* ---- (c) a PTS table row and a profile point ---- */

/* rec's read and write percentiles are those of the histograms of recs[0..n) merged here, and
 * its lat_hist holds them. Returns the percentiles compared. */
static int check_merged(struct json_object *rec, struct json_object **recs, size_t n,
                        const char *what)
{
    static const char *const names[] = {"read", "write"};
    int compared = 0;
    for (int d = 0; d < 2; d++) {
        struct read_hist rh, kept;
        read_hist_init(&rh);
        read_hist_init(&kept);
        for (size_t i = 0; i < n; i++)
            assert_int_equal(read_hist_add(&rh, recs[i], 1u << d), 1);
        const double obs = (double)read_hist_count(&rh) / rh.weight;
        for (int p = 0; p < METRICS_NPCT; p++) {
            const double got = pct_of(rec, names[d], p);
            if (!hist_pct_supported((uint64_t)llround(obs), metrics_percentiles[p])) {
                assert_true(isnan(got));
                continue;
            }
            const double want = read_hist_percentile_us(&rh, metrics_percentiles[p]);
            if (!(fabs(got - want) <= 1e-9 * want))
                fail_msg("%s %s p%g: %g, the merged histogram's %g", what, names[d],
                         metrics_percentiles[p], got, want);
            compared++;
        }
        /* the record keeps the merged histogram */
        assert_int_equal(read_hist_add(&kept, rec, 1u << d), 1);
        assert_true(read_hist_count(&kept) == read_hist_count(&rh));
        assert_memory_equal(kept.h.buckets, rh.h.buckets, sizeof(rh.h.buckets));
    }
    return compared;
}

static void test_table_row_and_profile_point(void **state)
{
    (void)state;
    const char *out = sub("lat");
    char *argv[] = {NULL, "run-test", "lat", "--target", "sim:generic-mlc25", "--round-time",
                    "0.5s", "--quiet", "--out", (char *)out, NULL};
    struct json_object *doc = ptsbench_results(argv, out, 0, NULL);
    assert_non_null(doc);
    struct json_object *s = json_at(doc, "tests.0.subtests.0");
    const long first = (long)json_num(s, "table.first_round"), last = (long)json_num(s, "table.last_round");
    struct json_object *rows = json_at(s, "table.rows"), *rounds = json_at(s, "rounds");
    int compared = 0;
    for (size_t i = 0; i < json_object_array_length(rows); i++) {
        struct json_object *row = json_object_array_get_idx(rows, i);
        const double mix = json_num(row, "rwmix_read"), bs = json_num(row, "bs");
        if (mix <= 0 || mix >= 100)
            continue;   /* read and write: the mixed rows */
        struct json_object *recs[32];
        size_t n = 0;
        for (size_t r = 0; r < json_object_array_length(rounds) && n < 32; r++) {
            struct json_object *rd = json_object_array_get_idx(rounds, r);
            const long rn = (long)json_num(rd, "round");
            struct json_object *els = json_at(rd, "elements");
            for (size_t e = 0; rn >= first && rn <= last && e < json_object_array_length(els); e++) {
                struct json_object *el = json_object_array_get_idx(els, e);
                if (json_num(el, "rwmix_read") == mix && json_num(el, "bs") == bs)
                    recs[n++] = el;
            }
        }
        assert_true(n >= 2);
        char what[64];
        snprintf(what, sizeof(what), "lat table %g/%g bs %g", mix, 100 - mix, bs);
        compared += check_merged(row, recs, n, what);
    }
    print_message("lat table: %d percentiles compared\n", compared);
    assert_true(compared >= 6);
    assert_true(export_sum(out, "suite_table", "read") == ios_sum(rows, "read.ios"));
    /* the measured points (verify, gate, report) keep a table row's null: a percentile its
     * count does not support is not refilled from the rounds' */
    struct meas_set ms;
    char err[512], path[4200];
    snprintf(path, sizeof(path), "%s/results.json", out);
    assert_int_equal(meas_load(path, &ms, err, sizeof(err)), 0);
    unsigned nulls = 0;
    for (size_t i = 0; i < json_object_array_length(rows); i++) {
        struct json_object *row = json_object_array_get_idx(rows, i);
        char key[128];
        snprintf(key, sizeof(key), "suite/lat/bs=%.0f/read=%.0f", json_num(row, "bs"),
                 json_num(row, "rwmix_read"));
        const struct meas_point *mp = meas_find(&ms, key);
        assert_non_null(mp);
        const double want = pct_of(row, "total", METRICS_P99_99);
        assert_true(isnan(want) ? isnan(mp->v[MEAS_LAT_P99_99_US])
                                : mp->v[MEAS_LAT_P99_99_US] == want);
        nulls += isnan(want);
    }
    assert_true(nulls > 0);
    meas_free(&ms);
    json_object_put(doc);

    out = sub("profile");
    char *pargv[] = {NULL, "profile", "database", "--target", "sim:generic-mlc25", "--workers",
                     "1", "--qd", "8", "--compress", "0", "--precondition", "none", "--rounds",
                     "3", "--round-time", "0.5s", "--quiet", "-o", (char *)out, NULL};
    doc = ptsbench_results(pargv, out, 0, NULL);
    assert_non_null(doc);
    struct json_object *pt = json_at(doc, "points.0");
    struct json_object *recs[8];
    const size_t n = window_recs(json_at(pt, "rounds"), (long)json_num(pt, "result.rounds.0"),
                                 (long)json_num(pt, "result.rounds.1"), recs);
    assert_int_equal(n, 3);
    compared = check_merged(json_at(pt, "result"), recs, n, "profile point");
    print_message("profile point: %d percentiles compared\n", compared);
    assert_true(compared >= 6);
    assert_true(export_sum(out, "profile_point", "write") == json_num(pt, "result.write.ios"));
    assert_true(export_sum(out, "profile_round", "write") ==
                ios_sum(json_at(pt, "rounds"), "write.ios"));
    json_object_put(doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_run_window_is_exact),
        cmocka_unit_test(test_fleet_aggregate_is_exact),
        cmocka_unit_test(test_table_row_and_profile_point),
    };
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
