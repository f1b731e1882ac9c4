/* bench_db.c — the results history at 10,000 runs: each run a copy of the run fixture
 * (tests/fixtures/results/run-generic: one point, 12 metrics) with its own start time and its
 * IOPS scaled, every 500th also a copy of the suite fixture (70 points, 969 measurements), so
 * that the file holds the shapes CI keeps. Prints the import time per run (db_import_file: the
 * file read and parsed, its points read by read/measure.c, one transaction), the size of the
 * file, then the query times at 10,000 runs: a trend of one point (db trend's table), the
 * history baseline of a gate (median:10 over every metric), and db list.
 * A benchmark, not a test: it prints figures and exits 0. */
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "db/db.h"
#include "db/db_gate.h"
#include "db/db_trend.h"
#include "lib/util.h"
#include "read/measure.h"

#define N_RUNS 10000

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static const char *datadir(void)
{
    const char *d = getenv("PTSBENCH_DATADIR");
    return d && *d ? d : ".";
}

/* The fixture with start time i and IOPS x f, written to path. */
static int write_run(struct json_object *doc, unsigned i, double f, const char *path)
{
    char started[32];
    snprintf(started, sizeof(started), "2027-%02u-%02uT%02u:%02u:%02uZ", 1 + i / 2678400 % 12,
             1 + i / 86400 % 28, i / 3600 % 24, i / 60 % 60, i % 60);
    json_object_object_add(doc, "started", json_object_new_string(started));
    struct json_object *rounds = json_object_object_get(doc, "rounds");   /* a run's */
    size_t nr = json_object_is_type(rounds, json_type_array) ? json_object_array_length(rounds)
                                                             : 0;
    for (size_t r = 0; r < nr; r++) {
        struct json_object *t = json_object_object_get(json_object_array_get_idx(rounds, r),
                                                       "total");
        struct json_object *orig = json_object_object_get(t, "iops_orig");
        if (!orig) {
            orig = json_object_new_double(json_object_get_double(json_object_object_get(t, "iops")));
            json_object_object_add(t, "iops_orig", orig);
        }
        json_object_object_add(t, "iops", json_object_new_double(json_object_get_double(orig) * f));
    }
    return json_object_to_file_ext(path, doc, JSON_C_TO_STRING_PLAIN);
}

int main(void)
{
    char tmpl[] = "/tmp/ptsbench-bench-db-XXXXXX";
    if (!mkdtemp(tmpl)) {
        perror("mkdtemp");
        return 1;
    }
    char src[4096], suite[4096], dbpath[4200], file[4200], err[ERR_LEN];
    snprintf(src, sizeof(src), "%s/tests/fixtures/results/run-generic/results.json", datadir());
    snprintf(suite, sizeof(suite), "%s/tests/fixtures/results/suite-6300/results.json",
             datadir());
    snprintf(dbpath, sizeof(dbpath), "%s/history.db", tmpl);
    snprintf(file, sizeof(file), "%s/run.json", tmpl);
    struct json_object *doc = json_object_from_file(src), *sdoc = json_object_from_file(suite);
    if (!doc || !sdoc) {
        fprintf(stderr, "bench_db: cannot read the fixtures under %s\n", datadir());
        return 1;
    }
    struct db *d = db_open(dbpath, true, err, sizeof(err));
    if (!d) {
        fprintf(stderr, "bench_db: %s\n", err);
        return 1;
    }
    printf("bench_db: %d runs imported one by one (db_import_file), then queried\n", N_RUNS);
    double t_import = 0, t_first = 0, t_last = 0;
    size_t points = 0, meas = 0;
    for (unsigned i = 0; i < N_RUNS; i++) {
        bool is_suite = i % 500 == 499;
        double f = 1.0 + 0.01 * (double)(i % 7) - (i >= N_RUNS / 2 ? 0.05 : 0);
        if (write_run(is_suite ? sdoc : doc, i, f, file) != 0) {
            fprintf(stderr, "bench_db: cannot write %s\n", file);
            return 1;
        }
        struct db_import_result r;
        double t0 = now_s();
        if (db_import_file(d, file, &r, err, sizeof(err)) != 0 || !r.added) {
            fprintf(stderr, "bench_db: run %u: %s\n", i, r.added ? err : "not added");
            return 1;
        }
        double dt = now_s() - t0;
        t_import += dt;
        if (i < 100)
            t_first += dt;
        if (i >= N_RUNS - 100)
            t_last += dt;
        points += r.points;
        meas += r.measurements;
    }
    struct stat st;
    stat(dbpath, &st);
    printf("  import: %.2f ms per run on average (first 100: %.2f ms, last 100: %.2f ms); "
           "%zu points, %zu measurements; file %.1f MB\n", 1e3 * t_import / N_RUNS,
           1e3 * t_first / 100, 1e3 * t_last / 100, points, meas, (double)st.st_size / 1e6);

    struct db_filter flt;
    db_filter_init(&flt);
    flt.key = "run/rw=randwrite,bs=4k,iodepth=32,numjobs=1,region=shared,"
              "buffer_compress_percentage=0";
    struct db_trend t;
    double t0 = now_s();
    if (db_trend_build(d, MEAS_IOPS, &flt, DB_TREND_WINDOW, false, &t, err, sizeof(err)) != 0) {
        fprintf(stderr, "bench_db: trend: %s\n", err);
        return 1;
    }
    double t_trend = now_s() - t0;
    size_t rows = t.n ? t.s[0].n : 0, outside = 0;
    for (size_t j = 0; j < rows; j++)
        outside += t.s[0].r[j].outside;
    db_trend_free(&t);
    db_filter_init(&flt);
    t0 = now_s();
    if (db_trend_build(d, MEAS_IOPS, &flt, DB_TREND_WINDOW, true, &t, err, sizeof(err)) != 0)
        return 1;
    double t_fw = now_s() - t0;
    size_t series = t.n;
    db_trend_free(&t);
    printf("  trend of one point over time: %zu rows in %.1f ms (%zu outside their band: the "
           "5%% step half way); every point over firmware: %zu series in %.1f ms\n", rows,
           1e3 * t_trend, outside, series, 1e3 * t_fw);

    struct meas_set cur = {0}, base = {0};
    if (meas_load(src, &cur, err, sizeof(err)) != 0)
        return 1;
    struct db_against a;
    db_against_parse("median:10", &a, err, sizeof(err));
    char desc[4400];
    t0 = now_s();
    if (db_history_baseline(d, &a, &cur, NULL, "", &base, desc, sizeof(desc), err,
                            sizeof(err)) != 0) {
        fprintf(stderr, "bench_db: baseline: %s\n", err);
        return 1;
    }
    double t_gate = now_s() - t0;
    printf("  gate baseline (median:10, every metric of the run's point): %.1f ms\n",
           1e3 * t_gate);
    meas_free(&cur);
    meas_free(&base);

    struct db_run *runs;
    size_t n;
    t0 = now_s();
    if (db_runs(d, 0, &runs, &n, err, sizeof(err)) != 0)
        return 1;
    printf("  db list: %zu runs in %.1f ms\n", n, 1e3 * (now_s() - t0));
    free(runs);
    db_close(d);
    json_object_put(doc);
    json_object_put(sdoc);
    unlink(file);
    unlink(dbpath);
    char side[4300];
    snprintf(side, sizeof(side), "%s-wal", dbpath);
    unlink(side);
    snprintf(side, sizeof(side), "%s-shm", dbpath);
    unlink(side);
    rmdir(tmpl);
    return 0;
}
