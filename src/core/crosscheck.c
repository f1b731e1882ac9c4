/* crosscheck.c — the same workload on a native engine and on fio, alternating (crosscheck.h). */
#include "core/crosscheck.h"

#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/results.h"
#include "lib/util.h"


enum xc_metric { XC_IOPS, XC_READ_IOPS, XC_WRITE_IOPS, XC_MB_S, XC_LAT_MEAN, XC_LAT_P99,
                 XC_LAT_P999, XC_READ_LAT_MEAN, XC_WRITE_LAT_MEAN, XC_N };

static const struct {
    const char *name;     /* JSON key */
    const char *label;    /* table */
    bool lower_better;
} xc_metrics[XC_N] = {
    {"iops", "IOPS", false},
    {"read_iops", "read IOPS", false},
    {"write_iops", "write IOPS", false},
    {"mb_s", "MB/s", false},
    {"lat_mean_us", "lat mean (us)", true},
    {"lat_p99_us", "lat p99 (us)", true},
    {"lat_p99_9_us", "lat p99.9 (us)", true},
    {"read_lat_mean_us", "read lat mean (us)", true},
    {"write_lat_mean_us", "write lat mean (us)", true},
};

static void xc_values(const struct round_metrics *m, double v[XC_N])
{
    v[XC_IOPS] = m->total.iops;
    v[XC_READ_IOPS] = m->read.iops;
    v[XC_WRITE_IOPS] = m->write.iops;
    v[XC_MB_S] = m->total.mb_s;
    v[XC_LAT_MEAN] = m->total.lat.mean_us;
    v[XC_LAT_P99] = m->total.lat.pct_us[METRICS_P99];
    v[XC_LAT_P999] = m->total.lat.pct_us[METRICS_P99_9];
    v[XC_READ_LAT_MEAN] = m->read.ios ? m->read.lat.mean_us : NAN;
    v[XC_WRITE_LAT_MEAN] = m->write.ios ? m->write.lat.mean_us : NAN;
}

struct crosscheck {
    struct crosscheck_config cfg;
    char dir[4096], results[4200];
    struct target_info target;   /* the first run's probe, for the plan (never simulated) */
    char spec[512];              /* the workload as run */
    bool writes;
};

struct crosscheck *crosscheck_prepare(const struct crosscheck_config *cfg, char *err,
                                      size_t errlen)
{
    struct crosscheck *x = xcalloc(1, sizeof(*x));
    x->cfg = *cfg;
    if (run_out_dir(cfg->out, "crosscheck", cfg->base.force, x->dir, sizeof(x->dir), x->results,
                    sizeof(x->results), err, errlen) != 0) {
        free(x);
        return NULL;
    }
    const char *engines[2] = {cfg->native, cfg->fio};
    /* Check both runs before anything is written (prepare writes nothing). */
    for (int e = 0; e < 2; e++) {
        struct run_config rc = cfg->base;
        char sub[4300];
        snprintf(sub, sizeof(sub), "%s/%s-1", x->dir, engines[e]);
        rc.engine_name = engines[e];
        rc.out_dir = sub;
        struct run_record *rec = xcalloc(1, sizeof(*rec));
        int st = run_prepare(rec, &rc, cfg->workload, cfg->profile_dirs, err, errlen);
        if (st == 0 && e == 0) {
            x->target = rec->target;
            x->target.sim = NULL;       /* crosscheck runs fio: never a simulated drive */
            x->target.place = NULL;
            wl_format(&rec->wl, x->spec, sizeof(x->spec));
            x->writes = wl_writes(&rec->wl);
        }
        run_record_free(rec);
        free(rec);
        if (st != 0) {
            free(x);
            return NULL;
        }
    }
    return x;
}

void crosscheck_print_plan(const struct crosscheck *x, bool dry_run)
{
    const struct crosscheck_config *c = &x->cfg;
    char round[32], total[32];
    run_format_duration((double)c->base.round_time_ns / 1e9, round, sizeof(round));
    run_format_duration(2.0 * c->repeat * (double)c->base.round_time_ns / 1e9, total,
                        sizeof(total));
    printf("crosscheck %s on %s: %s and %s alternating, %u run%s each\n", x->spec,
           c->base.target_path, c->native, c->fio, c->repeat, c->repeat == 1 ? "" : "s");
    run_print_target_engine(&x->target, engine_find(c->native));
    printf("  drive   not preconditioned: one round per run, the drive's burst\n");
    printf("  time    %u runs of one %s round: at most %s of measuring, plus each fio run's "
           "start\n", 2 * c->repeat, round, total);
    if (x->target.memory_fs[0])
        printf("  memory  %s is on %s: the figures measure memory, not a drive\n",
               x->target.path, x->target.memory_fs);
    printf("  results %s (each run in %s/ENGINE-N/)\n", x->results, x->dir);
    if (dry_run)
        run_print_dry_run(&x->target, x->writes, false, PURGE_NONE, x->results);
    fflush(stdout);
}

void crosscheck_free(struct crosscheck *x)
{
    free(x);
}

int crosscheck_execute(struct crosscheck *x, volatile sig_atomic_t *stop)
{
    const struct crosscheck_config *c = &x->cfg;
    const struct run_config base = c->base;
    const char *workload = c->workload, *native = c->native, *fio = c->fio;
    const unsigned repeat = c->repeat;
    const bool quiet = c->quiet;
    const char *dir = x->dir, *results = x->results;
    const char *engines[2] = {native, fio};
    char err[ERR_LEN];
    double vals[2][CROSSCHECK_MAX_REPEAT][XC_N];
    char spec[512] = "";
    int code = EXIT_OK;
    struct json_object *runs = json_object_new_array();
    unsigned done = 0;
    /* what state the drive was in when measured: every run is one round, no steady state */
    const char *state = "burst: not preconditioned (fresh-out-of-box, or as the earlier runs "
                        "left it)";
    for (unsigned r = 0; r < repeat && code == EXIT_OK; r++) {
        for (int e = 0; e < 2 && code == EXIT_OK; e++) {
            struct run_config cfg = base;
            char sub[4300];
            snprintf(sub, sizeof(sub), "%s/%s-%u", dir, engines[e], r + 1);
            cfg.engine_name = engines[e];
            cfg.out_dir = sub;
            cfg.create_size = r || e ? 0 : base.create_size;   /* created once */
            struct run_record *rec = xcalloc(1, sizeof(*rec));
            if (run_prepare(rec, &cfg, workload, c->profile_dirs, err,
                            sizeof(err)) != 0) {
                fprintf(stderr, "ptsbench crosscheck: %s\n", err);
                code = EXIT_FAILURE_RUN;
            } else {
                if (!quiet) {
                    printf("run %u/%u on %s ...\n", r * 2 + e + 1, repeat * 2, engines[e]);
                    fflush(stdout);
                }
                code = run_execute(rec, stop);
                if (code == EXIT_OK && rec->n_rounds == 1) {
                    xc_values(&rec->rounds[0], vals[e][r]);
                    if (rec->prep == DS_PREP_WIPC)
                        state = "after WIPC, one round each: not steady state";
                    wl_format(&rec->wl, spec, sizeof(spec));
                    struct json_object *o = json_object_new_object();
                    json_object_object_add(o, "engine", json_object_new_string(engines[e]));
                    json_object_object_add(o, "engine_version",
                                           json_object_new_string(rec->engine->version()));
                    json_object_object_add(o, "repeat", json_object_new_int((int)r + 1));
                    json_object_object_add(o, "results", json_object_new_string(sub));
                    json_object_object_add(o, "round", results_round_json(&rec->rounds[0]));
                    json_object_array_add(runs, o);
                } else if (code == EXIT_OK) {
                    code = EXIT_FAILURE_RUN;
                }
            }
            run_record_free(rec);
            free(rec);
        }
        if (code == EXIT_OK)
            done = r + 1;
    }
    if (!done) {
        json_object_put(runs);
        return code;
    }

    struct json_object *doc = json_object_new_object();
    json_object_object_add(doc, "schema", json_object_new_string("ptsbench.crosscheck"));
    json_object_object_add(doc, "schema_version", json_object_new_int(1));
    json_object_object_add(doc, "ptsbench_version", json_object_new_string(PTSBENCH_VERSION));
    json_object_object_add(doc, "target", json_object_new_string(base.target_path));
    json_object_object_add(doc, "workload", json_object_new_string(spec));
    json_object_object_add(doc, "native", json_object_new_string(native));
    json_object_object_add(doc, "fio", json_object_new_string(fio));
    json_object_object_add(doc, "repeats", json_object_new_int((int)done));
    json_object_object_add(doc, "drive_state", json_object_new_string(state));
    json_object_object_add(doc, "round_time_s",
                           json_object_new_double((double)base.round_time_ns / 1e9));
    struct json_object *summary = json_object_new_object();
    printf("\n%s on %s, %u run%s of %g s per engine, alternating\ndrive: %s\n", spec,
           base.target_path, done, done == 1 ? "" : "s", (double)base.round_time_ns / 1e9, state);
    printf("%-20s %14s %14s %9s\n", "metric", native, fio, "fio/native");
    for (int m = 0; m < XC_N; m++) {
        double mean[2] = {0, 0};
        for (int e = 0; e < 2; e++) {
            for (unsigned r = 0; r < done; r++)
                mean[e] += vals[e][r][m] / done;
        }
        if (!isfinite(mean[0]) && !isfinite(mean[1]))
            continue;
        if (mean[0] == 0 && mean[1] == 0)
            continue;   /* a direction the workload does not use */
        double ratio = mean[0] > 0 ? mean[1] / mean[0] : NAN;
        printf("%-20s %14.1f %14.1f %9.3f\n", xc_metrics[m].label, mean[0], mean[1], ratio);
        struct json_object *o = json_object_new_object();
        json_object_object_add(o, native, json_object_new_double(mean[0]));
        json_object_object_add(o, fio, json_object_new_double(mean[1]));
        if (isfinite(ratio))
            json_object_object_add(o, "ratio", json_object_new_double(ratio));
        json_object_object_add(o, "lower_is_better",
                               json_object_new_boolean(xc_metrics[m].lower_better));
        json_object_object_add(summary, xc_metrics[m].name, o);
    }
    json_object_object_add(doc, "summary", summary);
    json_object_object_add(doc, "runs", runs);
    if (results_write_json_atomic(doc, results, err, sizeof(err)) != 0) {
        fprintf(stderr, "ptsbench crosscheck: %s\n", err);
        code = EXIT_FAILURE_RUN;
    } else {
        printf("results: %s\n", results);
    }
    json_object_put(doc);
    return code;
}
