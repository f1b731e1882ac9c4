/* crosscheck.c — the same workload on a native engine and on fio, alternating (crosscheck.h). */
#include "core/crosscheck.h"

#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/metrics.h"
#include "core/results.h"
#include "engine/engine.h"
#include "engine/fio_job.h"
#include "lib/units.h"
#include "lib/util.h"

#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>


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
    {"lat_mean_us", "lat mean", true},
    {"lat_p99_us", "lat p99", true},
    {"lat_p99_9_us", "lat p99.9", true},
    {"read_lat_mean_us", "read lat mean", true},
    {"write_lat_mean_us", "write lat mean", true},
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

/* ---- submission choices: what each engine chose on this target, matched or named -------- */

struct xc_choice {
    const char *name;
    char native[160], fio[160];
    bool matched;
};
enum { XC_CH_MARK, XC_CH_REAP, XC_CH_SUBMIT, XC_CH_REGISTER, XC_CH_WAIT, XC_CH_SLICE,
       XC_CH_N };

/* The last job file (by name: NNNN-LABEL.fio, the round's after a ramp's) of a run in out. */
static void xc_last_job(const char *out, char *path, size_t len)
{
    char d[4400];
    snprintf(d, sizeof d, "%s/fio", out);
    path[0] = '\0';
    DIR *dir = opendir(d);
    if (!dir)
        return;
    char best[256] = "";
    for (struct dirent *de; (de = readdir(dir)) != NULL;) {
        size_t n = strlen(de->d_name);
        if (n > 4 && n < sizeof best && !strcmp(de->d_name + n - 4, ".fio") &&
            strcmp(de->d_name, best) > 0)
            str_copy(best, sizeof best, de->d_name);
    }
    closedir(dir);
    if (best[0])
        snprintf(path, len, "%s/%s", d, best);
}

/* The value of `key=` in the job file fio ran, or NULL. */
static const char *job_value(const char *job, const char *key, char *buf, size_t len)
{
    char want[64];
    snprintf(want, sizeof want, "\n%s=", key);
    const char *p = job ? strstr(job, want) : NULL;
    if (!p)
        return NULL;
    p += strlen(want);
    snprintf(buf, len, "%.*s", (int)strcspn(p, "\n"), p);
    return buf;
}

static void xc_mark(struct xc_choice *c, const struct workload *wl, bool uring, bool punts,
                    const char *job)
{
    char v[32];
    const char *fa = job_value(job, "force_async", v, sizeof v);
    unsigned n = fa ? (unsigned)atoi(fa) : 0, pct = 0;
    const unsigned cpus = engine_thread_cpus();
    fio_job_force_async(wl, uring && punts, cpus, &pct);
    c->name = "async marking (IOSQE_ASYNC)";
    if (!uring)
        snprintf(c->native, sizeof c->native, "none (libaio)");
    else if (!punts)
        snprintf(c->native, sizeof c->native, "none (the target takes nowait I/O)");
    else
        snprintf(c->native, sizeof c->native, "%u%% of I/Os (no nowait; depth %u on %u CPUs)",
                 pct, wl->qd * wl->workers, cpus);
    snprintf(c->fio, sizeof c->fio, fa ? "force_async=%s" : "none (force_async=0)", fa);
    c->matched = !uring ? !fa : pct == 0 ? n == 0 : pct == 100 ? n == 1 : false;
    if (uring && pct > 0 && pct < 100)
        snprintf(c->fio, sizeof c->fio, "force_async=%u (every %uth: nearest)", n, n);
}

static void xc_batches(struct xc_choice *ch, const struct workload *wl, const char *job)
{
    char v[32];
    struct xc_choice *c = &ch[XC_CH_REAP];
    c->name = "completions per wait";
    snprintf(c->native, sizeof c->native, "at least %u, every one there",
             wl->batch_complete_min ? wl->batch_complete_min : 1);
    const char *max = job_value(job, "iodepth_batch_complete_max", v, sizeof v);
    snprintf(c->fio, sizeof c->fio, "at least %u, at most %s", wl->batch_complete_min ?
             wl->batch_complete_min : 1, max ? max : "as many (fio's default max = min)");
    c->matched = max && (unsigned)atoi(max) >= wl->qd;
    c = &ch[XC_CH_SUBMIT];
    c->name = "I/Os per submit call";
    const char *sub = job_value(job, "iodepth_batch_submit", v, sizeof v);
    if (wl->batch_submit)
        snprintf(c->native, sizeof c->native, "at most %u (iodepth_batch_submit)",
                 wl->batch_submit);
    else
        snprintf(c->native, sizeof c->native, "every I/O refilled in a turn, one call");
    if (sub)
        snprintf(c->fio, sizeof c->fio, "iodepth_batch_submit=%s%s", sub,
                 wl->batch_submit ? "" : " (queued I/Os go in one call when the queue is full)");
    else
        snprintf(c->fio, sizeof c->fio, "1 (fio's default: each as it is ready)");
    const unsigned want = wl->batch_submit ? wl->batch_submit : wl->qd;
    c->matched = wl->qd == 1 || (sub && (unsigned)atoi(sub) == want);
}

/* What the native engine does on the target, and what the fio job file (as fio ran it) says. */
static unsigned xc_choices(const struct crosscheck_config *c, const struct workload *wl,
                           const char *job, struct xc_choice ch[XC_CH_N])
{
    memset(ch, 0, sizeof(struct xc_choice) * XC_CH_N);
    const bool uring = !strcmp(c->native, "io_uring");
    int fd = open(c->base.target_path, O_RDONLY | O_DIRECT);
    const bool punts = fd >= 0 && engine_refuses_nowait(fd);
    if (fd >= 0)
        close(fd);
    xc_mark(&ch[XC_CH_MARK], wl, uring, punts, job);
    xc_batches(ch, wl, job);
    struct xc_choice *r = &ch[XC_CH_REGISTER];
    r->name = "registered buffers and file";
    char v[16];
    const bool fixed = job_value(job, "fixedbufs", v, sizeof v) != NULL;
    snprintf(r->native, sizeof r->native, uring ? "both" : "none (libaio)");
    snprintf(r->fio, sizeof r->fio, fixed ? "fixedbufs=1, registerfiles=1" : "none");
    r->matched = uring == fixed;
    struct xc_choice *w = &ch[XC_CH_WAIT];
    w->name = "waiting for a completion";
    snprintf(w->native, sizeof w->native, "spins, naps or yields before it sleeps (engine.h)%s",
             uring ? "; ring with DEFER_TASKRUN" : "");
    snprintf(w->fio, sizeof w->fio, "sleeps in the kernel (no fio option does the same)");
    w->matched = false;
    struct xc_choice *s = &ch[XC_CH_SLICE];
    s->name = "scheduler slice of the submitting thread";
    snprintf(s->native, sizeof s->native, uring && punts ? "100 us (no nowait: io_uring.c)"
                                                         : "the default");
    snprintf(s->fio, sizeof s->fio, "the default");
    s->matched = !(uring && punts);
    unsigned differ = 0;
    for (int i = 0; i < XC_CH_N; i++)
        differ += !ch[i].matched;
    return differ;
}

static void xc_print_choices(const struct xc_choice ch[XC_CH_N], struct json_object *doc);

/* The choices, from the job file of the first fio run (job_path; "" when there is none),
 * printed and added to doc. */
static void xc_add_choices(const struct crosscheck_config *c, const struct workload *wl,
                           const char *job_path, struct json_object *doc)
{
    static char job[16384];
    if (!job_path[0] || read_text_file(job_path, job, sizeof job) < 0)
        job[0] = '\0';
    struct xc_choice ch[XC_CH_N];
    unsigned differ = xc_choices(c, wl, job, ch);
    xc_print_choices(ch, doc);
    json_object_object_add(doc, "choices_differing", json_object_new_int((int)differ));
}

/* One run's entry in results.json's "runs". */
static struct json_object *xc_run_json(const struct run_record *rec, const char *engine,
                                       unsigned repeat, const char *sub)
{
    struct json_object *o = json_object_new_object();
    json_object_object_add(o, "engine", json_object_new_string(engine));
    json_object_object_add(o, "engine_version", json_object_new_string(rec->engine->version()));
    json_object_object_add(o, "repeat", json_object_new_int((int)repeat));
    json_object_object_add(o, "results", json_object_new_string(sub));
    json_object_object_add(o, "round", results_round_json(&rec->rounds[0]));
    return o;
}

static void xc_print_choices(const struct xc_choice ch[XC_CH_N], struct json_object *doc)
{
    struct json_object *arr = json_object_new_array();
    printf("\nsubmission choices (native | fio): matched, or a difference the ratios include\n");
    for (int i = 0; i < XC_CH_N; i++) {
        printf("  %-9s %s: %s | %s\n", ch[i].matched ? "matched" : "DIFFERS", ch[i].name,
               ch[i].native, ch[i].fio);
        struct json_object *o = json_object_new_object();
        json_object_object_add(o, "choice", json_object_new_string(ch[i].name));
        json_object_object_add(o, "native", json_object_new_string(ch[i].native));
        json_object_object_add(o, "fio", json_object_new_string(ch[i].fio));
        json_object_object_add(o, "matched", json_object_new_boolean(ch[i].matched));
        json_object_array_add(arr, o);
    }
    json_object_object_add(doc, "choices", arr);
}

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
        rc.match_native = e == 1;
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
    char spec[512] = "", job_path[4400] = "";
    struct workload wl_run;
    memset(&wl_run, 0, sizeof wl_run);
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
            cfg.match_native = e == 1;   /* fio as the native engine submits here */
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
                    wl_run = rec->wl;
                    if (e == 1 && r == 0)   /* the job file of the first fio run's round */
                        xc_last_job(sub, job_path, sizeof(job_path));
                    json_object_array_add(runs, xc_run_json(rec, engines[e], r + 1, sub));
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
        const enum units_figure kind = metrics_figure_kind(xc_metrics[m].name);
        char f0[64], f1[64], fr[64];
        units_format_figure(mean[0], kind, f0, sizeof(f0));
        units_format_figure(mean[1], kind, f1, sizeof(f1));
        units_format_figure(ratio, UNITS_FIG_RATIO, fr, sizeof(fr));
        printf("%-20s %14s %14s %9s\n", xc_metrics[m].label, f0, f1, isfinite(ratio) ? fr : "-");
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
    xc_add_choices(c, &wl_run, job_path, doc);
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
