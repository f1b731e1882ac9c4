/* pts_run.c — run SNIA PTS tests as a suite (see pts_run.h): the session (plan, document,
 * notes, resume), the steps the kinds share (pts_session.h: elements on fresh pools, purge and
 * WIPC through core/steps.h, steady-state records, progress) and the kind table; each kind's
 * control flow is its own file (kind_standard.c, kind_hir.c, kind_xsr.c, kind_dirth.c). What
 * each test runs comes from its definition file (pts_def.h). */
#include "pts/pts_run.h"
#include "pts/pts_session.h"

#include <errno.h>
#include <stdarg.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/metrics.h"
#include "core/results.h"
#include "core/run.h"
#include "core/worker.h"
#include "device/health.h"
#include "device/hostinfo.h"
#include "device/target.h"
#include "device/write_cache.h"
#include "io/workload.h"
#include "lib/json_path.h"
#include "lib/units.h"
#include "lib/util.h"
#include "pts/pts_def.h"
#include "pts/pts_rules.h"
#include "stats/data_measure.h"
#include "stats/hist.h"
#include "stats/steady.h"


/* ------------------------------------------------------------------ preparation */

void ps_note(struct pts_session *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    results_note_vadd(s->notes, fmt, ap);
    va_end(ap);
}

struct pts_session *pts_prepare(const struct pts_config *cfg, char *err, size_t errlen)
{
    struct pts_session *s = xcalloc(1, sizeof(*s));
    s->cfg = *cfg;
    s->fd = -1;
    const char *const *pts_dirs = cfg->pts_dirs;
    const char *spec = cfg->spec_name ? cfg->spec_name : "pts-2.0-e";
    s->cfg.spec_name = spec;
    if (pts_spec_load(spec, pts_dirs, &s->spec, err, errlen) != 0)
        goto fail;

    char list[512];
    if (cfg->tests && strlen(cfg->tests) >= sizeof(list)) {
        errf(err, errlen, "--tests: a list of %zu characters is too long", strlen(cfg->tests));
        goto fail;
    }
    /* NULL: the default suite; "" (or only commas) names no test, which is an error */
    str_copy(list, sizeof(list), cfg->tests ? cfg->tests : "iops,tp,lat,wsat");
    char *save = NULL;
    for (char *t = strtok_r(list, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        t = str_trim(t);
        if (!*t)
            continue;
        if (s->n_defs >= PTS_MAX_TESTS) {
            errf(err, errlen, "--tests: at most %d tests", PTS_MAX_TESTS);
            goto fail;
        }
        if (pts_def_load(t, spec, pts_dirs, &s->defs[s->n_defs], err, errlen) != 0)
            goto fail;
        s->n_defs++;
    }
    if (!s->n_defs) {
        errf(err, errlen, "--tests '%s': no test named", cfg->tests ? cfg->tests : "");
        goto fail;
    }

    if (run_select_engine(cfg->engine_name, cfg->target_path, &s->engine, err, errlen) != 0)
        goto fail;
    if (run_probe_target(cfg->target_path, 0, cfg->allow_memory, cfg->profile_dirs, &s->target,
                         err, errlen) != 0)
        goto fail;
    if (run_place(&cfg->numa, &s->target, &s->place, err, errlen) != 0)
        goto fail;
    if (!s->target.exists) {
        errf(err, errlen, "%s: a PTS suite needs an existing device, file or sim:PRESET",
             cfg->target_path);
        goto fail;
    }
    if (cfg->resume && run_resume_same_target(cfg->resume, &s->target, err, errlen) != 0)
        goto fail;
    if (run_check_safety(&s->target, true, cfg->destructive, cfg->overwrite_signatures, err,
                         errlen) != 0)
        goto fail;

    /* Active range: the spec's percentage of the capacity, in whole 1 MiB units (so every
     * block size of the tests divides it), at offset 0. */
    uint64_t ar = (uint64_t)((double)s->target.capacity * s->spec.active_range_pct / 100.0);
    ar -= ar % (1024 * 1024);
    if (ar < 16ull * 1024 * 1024) {
        errf(err, errlen, "%s: %llu bytes is too small for a PTS test (the %g%% active range "
             "needs at least 16 MiB)", cfg->target_path, (unsigned long long)s->target.capacity,
             s->spec.active_range_pct);
        goto fail;
    }
    s->ar.start = 0;
    s->ar.len = ar;
    s->threads = cfg->threads ? cfg->threads : s->spec.threads;
    s->qd = cfg->qd ? cfg->qd : s->spec.qd;
    s->element_ns = cfg->round_time_ns;

    purge_facts_collect(&s->target, &s->purge_facts);
    for (unsigned i = 0; i < s->n_defs; i++) {
        if (!s->defs[i].purge)
            continue;
        struct purge_plan plan;
        if (purge_plan_make(&s->purge_facts, cfg->purge, &plan, err, errlen) != 0)
            goto fail;
        break;
    }
    if (run_out_dir(cfg->out_dir, "suite", cfg->force, s->out_dir, sizeof(s->out_dir),
                    s->results_path, sizeof(s->results_path), err, errlen) != 0)
        goto fail;
    s->weight = run_target_weight(&s->target);
    hostinfo_collect(&s->host, s->engine->flags & ENGINE_F_WHOLE_ROUND);
    s->tty = isatty(STDOUT_FILENO) && !cfg->quiet;
    return s;
fail:
    target_release(&s->target);
    free(s);
    return NULL;
}

/* ------------------------------------------------------------------ plan */

unsigned ps_def_threads(const struct pts_session *s, const struct pts_def *d)
{
    return s->cfg.threads ? s->cfg.threads : d->threads ? d->threads : s->spec.threads;
}

unsigned ps_def_qd(const struct pts_session *s, const struct pts_def *d)
{
    return s->cfg.qd ? s->cfg.qd : d->qd ? d->qd : s->spec.qd;
}

/* --time-scale: every duration of the definitions (elements, accesses, waits, groups, WSAT's
 * time limit) multiplied, for quick checks; the results record it and call it non-compliant. */
uint64_t ps_scaled(const struct pts_session *s, uint64_t ns)
{
    return pts_scaled_ns(ns, s->cfg.time_scale);
}

uint64_t ps_def_element_ns(const struct pts_session *s, const struct pts_def *d)
{
    return s->element_ns ? s->element_ns : ps_scaled(s, d->element_ns);
}

/* --max-rounds bounds the steady-state tests; WSAT stops on bytes or time only. */
unsigned ps_def_max_rounds(const struct pts_session *s, const struct pts_def *d)
{
    if (d->stop == PTS_STOP_CAPACITY)
        return d->max_rounds;
    return s->cfg.max_rounds ? s->cfg.max_rounds : d->max_rounds;
}

double ps_def_stop_capacity(const struct pts_session *s, const struct pts_def *d)
{
    return s->cfg.wsat_capacity > 0 ? s->cfg.wsat_capacity : d->stop_capacity;
}

uint64_t ps_def_max_time(const struct pts_session *s, const struct pts_def *d)
{
    return s->cfg.wsat_time_ns ? s->cfg.wsat_time_ns : ps_scaled(s, d->max_time_ns);
}

/* A block size can run when it is a multiple of the logical sector (0.5 KiB is invalid on 4Kn). */
bool ps_bs_valid(const struct pts_session *s, uint32_t bs)
{
    return bs % s->target.logical_sector == 0;
}

static unsigned elements_per_round(const struct pts_session *s, const struct pts_def *d)
{
    unsigned n = 0;
    for (unsigned b = 0; b < d->n_bss; b++)
        if (ps_bs_valid(s, d->bss[b]))
            n++;
    return d->subtests == PTS_SUB_BS ? d->n_mixes : n * d->n_mixes;
}

/* What the plan arithmetic (pts_rules.h) needs to know of the session for test d. */
static void def_timing(const struct pts_session *s, const struct pts_def *d, struct pts_timing *t)
{
    memset(t, 0, sizeof(*t));
    t->time_scale = s->cfg.time_scale;
    t->element_ns = ps_def_element_ns(s, d);
    t->max_rounds = ps_def_max_rounds(s, d);
    t->elements_per_round = elements_per_round(s, d);
    t->subtests = 1;
    if (d->subtests == PTS_SUB_BS) {
        t->subtests = 0;
        for (unsigned b = 0; b < d->n_bss; b++)
            t->subtests += ps_bs_valid(s, d->bss[b]);
    }
    t->max_time_ns = ps_def_max_time(s, d);
    t->stop_capacity = ps_def_stop_capacity(s, d);
    t->threads = ps_def_threads(s, d);
    t->qd = ps_def_qd(s, d);
}

/* " (simulated)" after every measured figure the console shows for a simulated drive. */
const char *ps_sim_tag(const struct pts_session *s)
{
    return s->target.sim ? " (simulated)" : "";
}

void pts_print_plan(const struct pts_session *s)
{
    char cap[64];
    units_format_capacity(s->target.sim ? (uint64_t)(s->target.capacity * s->weight)
                                        : s->target.capacity, cap, sizeof(cap));
    printf("ptsbench %s suite: %s on %s (%s%s)\n", PTSBENCH_VERSION, s->spec.title,
           s->target.path, cap, s->target.sim ? ", simulated drive: virtual time" : "");
    if (s->target.memory_fs[0])
        printf("  memory  %s is on %s: the figures measure memory, not a drive\n",
               s->target.path, s->target.memory_fs);
    printf("  active range %g%%, write cache %s requested, outstanding I/O %u x %u (spec %u x %u)\n",
           s->spec.active_range_pct, s->spec.write_cache ? "enabled" : "disabled", s->threads,
           s->qd, s->spec.threads, s->spec.qd);
    double total = 0, total_likely = 0;
    for (unsigned i = 0; i < s->n_defs; i++) {
        const struct pts_def *d = &s->defs[i];
        struct pts_timing t;
        def_timing(s, d, &t);
        char loop[512], prep[256], when[32];
        pts_loop_text(d, &t, loop, sizeof(loop));
        pts_preparation_text(d, &t, prep, sizeof(prep));
        double est = pts_estimate_s(d, &t), likely = pts_estimate_likely_s(d, &t);
        total += est;
        total_likely += likely;
        pts_format_duration(est, when, sizeof(when));
        if (likely < est) {
            char lw[32];
            pts_format_duration(likely, lw, sizeof(lw));
            printf("  %-10s %s (about %s if steady at round %u, the earliest; <= %s); %s\n",
                   d->name, loop, lw, PTS_LIKELY_ROUND, when, prep);
        } else if (d->kind == PTS_KIND_STANDARD && d->stop == PTS_STOP_CAPACITY) {
            /* how long the capacity takes is the drive's write rate: known once it writes */
            printf("  %-10s %s (<= %s; as long as the drive takes to write it: the ETA follows "
                   "its measured rate); %s\n", d->name, loop, when, prep);
        } else {
            printf("  %-10s %s (<= %s); %s\n", d->name, loop, when, prep);
        }
    }
    char tt[64], tl[64];
    pts_format_duration(total, tt, sizeof(tt));
    pts_format_duration(total_likely, tl, sizeof(tl));
    printf("  estimated duration: about %s (steady state at round %u, the earliest the 5-round "
           "window allows), at most %s of %s time, plus purge, WIPC and each element's drain of "
           "its in-flight I/O\n", tl, PTS_LIKELY_ROUND, tt,
           s->target.sim ? "virtual" : "measuring");
    printf("  results %s\n", s->results_path);
    fflush(stdout);
}

/* ------------------------------------------------------------------ results */


/* Write the document when due (forced: now); -1 when a write has failed (s->out.error). */
static int results_flush(struct pts_session *s, bool force)
{
    return results_out_flush(&s->out, force);
}

/* The same, as the runners' error: 0, or -1 with err set. */
int ps_flush_or_fail(struct pts_session *s, bool force, char *err, size_t errlen)
{
    return results_flush(s, force) == 0 ? 0 : errf(err, errlen, "%s", s->out.error);
}

/* ------------------------------------------------------------------ one element */

int ps_element_open(struct pts_session *s, unsigned mix, uint32_t bs, bool random,
                        unsigned threads, unsigned qd, unsigned compress, uint64_t seed,
                        const char *extra, struct element_pool *ep, char *err, size_t errlen)
{
    struct workload *wl = &ep->wl;
    ep->pool = NULL;
    wl_init(wl);
    const char *rw = random ? (mix == 100 ? "randread" : mix == 0 ? "randwrite" : "randrw")
                            : (mix == 100 ? "read" : mix == 0 ? "write" : "rw");
    char v[32];
    if (wl_set(wl, "rw", rw, "pts", err, errlen) != 0)
        return -1;
    if (mix != 0 && mix != 100) {
        snprintf(v, sizeof(v), "%u", mix);
        if (wl_set(wl, "rwmixread", v, "pts", err, errlen) != 0)
            return -1;
    }
    wl->bs[0] = (struct wl_bs){.size = bs, .weight = 100};
    wl->n_bs = 1;
    wl->qd = qd;
    wl->workers = threads;
    wl->compress_pct = compress;
    wl->seed = seed;
    /* the active range in the full-size drive's bytes, as a workload's sizes are read
     * (wl_check_target_scaled divides them by the simulated drive's scale again) */
    const uint64_t k = s->weight > 1 ? (uint64_t)s->weight : 1;
    wl->offset = (struct wl_extent){.set = true, .bytes = s->ar.start * k};
    wl->size = (struct wl_extent){.set = true, .bytes = s->ar.len * k};
    str_copy(wl->name, sizeof(wl->name), "pts-element");
    char bsname[32];
    units_format_size(bs, bsname, sizeof(bsname));
    snprintf(ep->label, sizeof(ep->label), "r%u-%s-%s", mix, random ? "rnd" : "seq", bsname);
    if (extra && *extra) {   /* the definition's extra workload keys (bssplit, zones, ...) */
        char buf[512];
        str_copy(buf, sizeof(buf), extra);
        char *save = NULL;
        for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
            char *eq = strchr(t, '=');
            if (!eq)
                return errf(err, errlen, "extra: '%s' is not key=value", t);
            *eq = '\0';
            if (wl_set(wl, str_trim(t), str_trim(eq + 1), "pts extra", err, errlen) != 0)
                return -1;
        }
    }
    if (wl_validate(wl, err, errlen) != 0)
        return -1;
    struct wl_range range;
    if (wl_check_target_scaled(wl, s->target.capacity, s->target.logical_sector,
                               (uint64_t)s->weight, s->target.path, &range, err, errlen) != 0)
        return -1;
    struct engine_config base;
    char artifacts[4200];
    run_engine_base(&s->target, s->fd, s->out_dir, artifacts, sizeof(artifacts), &base);
    ep->pool = worker_pool_start(wl, s->engine, &base, &range, s->stop, err, errlen);
    return ep->pool ? 0 : -1;
}

/* One measured period on an open pool: for time_ns, or until `bytes` are written. */
int ps_element_measure(struct pts_session *s, struct element_pool *ep, uint64_t time_ns,
                           uint64_t bytes, uint64_t sample_ns, struct round_metrics *m, char *err,
                           size_t errlen)
{
    struct round_limits lim = {.time_ns = time_ns, .bytes = bytes, .sample_ns = sample_ns,
                               .label = ep->label};
    const bool live = s->tty && !s->cfg.quiet;
    if (live) {   /* the live line inside the element, at least once a second */
        s->live = (struct live_meter){.length_s = (double)time_ns / 1e9, .weight = s->weight,
                                      .sim = s->target.sim != NULL, .mb_s = s->live_mb_s};
        if (bytes)
            s->live.target_bytes = (double)bytes * s->weight;
        snprintf(s->live.prefix, sizeof(s->live.prefix), "[%s] %s%s",
                 s->live_test ? s->live_test : "pts", ep->label, s->live_eta);
    }
    worker_pool_set_progress(ep->pool, live ? live_meter_hook : NULL, &s->live);
    const double c0 = ps_clock_s(s);
    int ret = worker_pool_round(ep->pool, &lim, err, errlen);
    if (ret != 0)
        return ret;
    run_pool_metrics(ep->pool, sample_ns, s->weight, m);
    /* metrics.h: the minimum; a suite records a labelled gap and goes on */
    if (metrics_too_few(m, wl_max_bs(&ep->wl), m->gap, sizeof(m->gap)) && !s->cfg.quiet)
        results_out_say(&s->out, "  [%s] %s: gap: %s", s->live_test ? s->live_test : "pts",
                        ep->label, m->gap);
    /* the I/O in flight at the element's end completing after it: on the simulated drive, a
     * drive scaled down k times at the full queue depth, k times the real drive's drain */
    const double drain = ps_clock_s(s) - c0 - m->elapsed_s;
    if (drain > 0)
        s->drain_s += drain;
    run_device_round(&s->target, s->weight, &s->sim_last, m);
    ds_write(&s->state, (double)m->write.bytes, s->stimulus_is_wdpc);
    m->state = s->state;
    return 0;
}

/* A new stimulus: its WDPC counts from 0; as_wdpc: its writes precondition the drive (the PTS
 * test loop after WIPC, HIR's and DIRTH's steady-state preconditioning), not (WSAT from the
 * purged drive, XSR's groups). */
void ps_stimulus_begins(struct pts_session *s, bool as_wdpc)
{
    ds_stimulus(&s->state);
    s->stimulus_is_wdpc = as_wdpc;
}

/* element_measure, then the stop flag: 0 measured, -1 error, 1 interrupted (m freed). */
int ps_measure_or_stop(struct pts_session *s, struct element_pool *ep, uint64_t time_ns,
                           uint64_t sample_ns, struct round_metrics *m, char *err, size_t errlen)
{
    if (ps_element_measure(s, ep, time_ns, 0, sample_ns, m, err, errlen) != 0)
        return -1;
    if (*s->stop) {
        metrics_free(m);
        return 1;
    }
    return 0;
}

void ps_element_close(struct element_pool *ep)
{
    worker_pool_stop(ep->pool);
    ep->pool = NULL;
}

/* ------------------------------------------------------------------ purge and WIPC */

double ps_clock_s(const struct pts_session *s)
{
    return s->target.sim ? (double)s->target.sim->now / 1e9 : (double)now_mono_ns() / 1e9;
}

struct run_ctx ps_ctx(struct pts_session *s)
{
    return (struct run_ctx){&s->target, s->fd, s->out_dir, s->engine, s->weight, &s->sim_last,
                            &s->state, s->stop, s->tty && !s->cfg.quiet};
}

int ps_do_purge(struct pts_session *s, struct json_object *sub, char *err, size_t errlen)
{
    struct run_ctx ctx = ps_ctx(s);
    struct purge_plan plan;
    struct json_object *p;
    if (step_purge_plan(&ctx, s->cfg.purge, &plan, err, errlen) != 0)
        return -1;
    const double c0 = ps_clock_s(s);
    int ret = step_purge(&ctx, &plan, &p, err, errlen);
    s->prep_s += ps_clock_s(s) - c0;
    json_object_object_add(sub, "purge", p);
    char buf[512];
    if (step_purge_note(&plan, buf, sizeof(buf)))
        ps_note(s, "%s", buf);
    return ret;
}

/* ------------------------------------------------------------------ rounds */

void ps_tracked_push(struct tracked *t, const double *vals)
{
    if (t->n == t->cap) {
        t->cap = t->cap ? t->cap * 2 : 32;
        for (unsigned i = 0; i < t->n_vars; i++)
            t->v[i] = xrealloc(t->v[i], t->cap * sizeof(double));
    }
    for (unsigned i = 0; i < t->n_vars; i++)
        t->v[i][t->n] = vals[i];
    t->n++;
}

void ps_tracked_free(struct tracked *t)
{
    for (unsigned i = 0; i < t->n_vars; i++)
        free(t->v[i]);
    memset(t, 0, sizeof(*t));
}

/* A steady-state object: the verdict, and each tracking variable's window under the SNIA
 * criteria with the round limit in force (--max-rounds, or the definition's). */
struct json_object *ps_steady_obj(const char *const *names, const struct steady_window *w,
                                      unsigned n_vars, unsigned round, unsigned rounds_run,
                                      unsigned max_rounds)
{
    struct json_object *o = json_object_new_object();
    json_object_object_add(o, "reached", json_object_new_boolean(round > 0));
    json_object_object_add(o, "round", round ? json_object_new_int(round) : NULL);
    json_object_object_add(o, "rounds_run", json_object_new_int(rounds_run));
    json_object_object_add(o, "max_rounds", json_object_new_int(max_rounds));
    struct json_object *vars = json_object_new_array();
    struct steady_criteria c = STEADY_CRITERIA_SNIA;
    c.max_rounds = max_rounds;
    for (unsigned v = 0; v < n_vars; v++)
        json_object_array_add(vars, results_steady_json(&w[v], round, &c, names[v], rounds_run));
    json_object_object_add(o, "variables", vars);
    return o;
}

/* steady_obj for the definition's tracking variables ("element" = the subtest's size). */
struct json_object *ps_steady_json(const struct pts_def *d, uint32_t sub_bs,
                                       const struct steady_window *w, unsigned n_vars,
                                       unsigned round, unsigned rounds_run, unsigned max_rounds)
{
    char names[PTS_MAX_TRACK][64];
    const char *np[PTS_MAX_TRACK] = {NULL};
    struct pts_track t[PTS_MAX_TRACK];
    for (unsigned v = 0; v < n_vars && v < PTS_MAX_TRACK; v++) {
        t[v] = d->track[v];
        if (!t[v].bs)
            t[v].bs = sub_bs;
        pts_track_format(&t[v], names[v], sizeof(names[v]));
        np[v] = names[v];
    }
    struct json_object *o = ps_steady_obj(np, w, n_vars, round, rounds_run, max_rounds);
    struct json_object *vars = json_object_object_get(o, "variables");
    for (unsigned v = 0; v < n_vars && v < PTS_MAX_TRACK; v++)   /* the parts beside the name */
        json_object_object_add(json_object_array_get_idx(vars, v), "track", ps_track_json(&t[v]));
    return o;
}

struct json_object *ps_track_json(const struct pts_track *t)
{
    return results_track_json(t->metric, t->bs, (int)t->mix);
}

/* The round at which the test is likely to end: the first the SNIA window allows (5 rounds),
 * or this one once past it; never beyond the bound. */
unsigned ps_likely_round(unsigned round, unsigned max_rounds)
{
    unsigned likely = round > PTS_LIKELY_ROUND ? round : PTS_LIKELY_ROUND;
    return max_rounds && likely > max_rounds ? max_rounds : likely;
}

void ps_progress(struct pts_session *s, const struct pts_def *d, unsigned round,
                     unsigned max_rounds, unsigned el, unsigned n_el, unsigned mix, uint32_t bs,
                     double iops, double mb_s, const char *ss, double element_s)
{
    if (!s->tty)
        return;
    if (s->out.pending_len)   /* lines of completed work go out first, once they are on disk */
        results_flush(s, true);
    char b[32];
    units_format_size(bs, b, sizeof(b));
    char rounds[32], eta[160] = "", eta_live[160] = "";
    /* the line says "virtual" after its ETAs; the live line inside the next element says
     * "(simulated, virtual time)" itself, so its copy of the ETAs does not */
    const char *virt = s->target.sim ? " virtual" : "";
    if (max_rounds) {
        snprintf(rounds, sizeof(rounds), "%u/%u", round, max_rounds);
        const unsigned likely = ps_likely_round(round, max_rounds);
        double left = ((double)(n_el - el) + (double)n_el * (max_rounds - round)) * element_s;
        double left_likely = ((double)(n_el - el) + (double)n_el * (likely - round)) * element_s;
        char t[32], tl[32];
        live_format_eta(left, t, sizeof(t));
        live_format_eta(left_likely, tl, sizeof(tl));
        for (int k = 0; k < 2; k++) {
            char *dst = k ? eta_live : eta;
            const char *v = k ? "" : virt;
            if (d->stop == PTS_STOP_STEADY && d->n_track && likely < max_rounds)
                snprintf(dst, sizeof(eta), "  ETA %s%s (steady at round %u), at most %s", tl, v,
                         likely, t);
            else
                snprintf(dst, sizeof(eta), "  ETA at most %s%s", t, v);
        }
    } else {
        snprintf(rounds, sizeof(rounds), "%u", round);
        const struct pts_cap_eta *c = &s->cap_eta;
        if (c->on && c->rate_bps > 0) {   /* WSAT: the bytes left at the last element's rate */
            char t[32], tl[32], r[32];
            const double at_rate = c->left_bytes > 0 ? c->left_bytes / c->rate_bps : 0;
            live_format_eta(c->time_left_s > 0 ? c->time_left_s : 0, t, sizeof(t));
            live_format_eta(at_rate < c->time_left_s ? at_rate : c->time_left_s, tl, sizeof(tl));
            units_format_figure(c->rate_bps / 1e6, UNITS_FIG_MBS, r, sizeof(r));
            for (int k = 0; k < 2; k++) {
                if (at_rate < c->time_left_s)
                    snprintf(k ? eta_live : eta, sizeof(eta),
                             "  ETA %s%s (the capacity left at %s MB/s), at most %s", tl,
                             k ? "" : virt, r, t);
                else
                    snprintf(k ? eta_live : eta, sizeof(eta), "  ETA %s%s (the time limit)", t,
                             k ? "" : virt);
            }
        }
    }
    snprintf(s->live_eta, sizeof(s->live_eta), " (round %s)%s", rounds, eta_live);
    char rate[48];
    char fig[32];
    units_format_figure(s->live_mb_s ? mb_s : iops, s->live_mb_s ? UNITS_FIG_MBS : UNITS_FIG_IOPS,
                        fig, sizeof(fig));
    snprintf(rate, sizeof(rate), "%s %s", fig, s->live_mb_s ? "MB/s" : "IOPS");
    printf("\r\033[K[%s] round %s  element %u/%u (%u/%u %s)  %s%s  %s%s", d->name,
           rounds, el, n_el, mix, 100 - mix, b, rate, ps_sim_tag(s), ss, eta);
    fflush(stdout);
}

struct json_object *ps_period_json(const struct round_metrics *m)
{
    struct json_object *o = json_object_new_object();
    json_object_object_add(o, "iops", jw_num(m->total.iops));
    json_object_object_add(o, "write_iops", jw_num(m->write.iops));
    json_object_object_add(o, "mb_s", jw_num(m->total.mb_s));
    json_object_object_add(o, "lat_mean_us", jw_num(m->total.lat.mean_us));
    json_object_object_add(o, "lat_max_us", jw_num(m->total.lat.max_us));
    json_object_object_add(o, "lat_p99_9_us", jw_num(m->total.lat.pct_us[METRICS_P99_9]));
    if (m->device.present)
        json_object_object_add(o, "write_amplification", jw_num(m->device.wa_round));
    if (m->state.present)
        json_object_object_add(o, "state", results_state_json(&m->state));
    results_depth_gap_add(o, m);
    return o;
}

/* Rounds of the open stimulus until its tracking variable is steady (HIR's preconditioning). */
int ps_precondition_steady(struct pts_session *s, const struct pts_def *d,
                               struct element_pool *ep, struct json_object *sub, char *err,
                               size_t errlen)
{
    const uint64_t el_ns = d->precondition_round_ns ? ps_scaled(s, d->precondition_round_ns)
                                                    : ps_def_element_ns(s, d);
    const unsigned max_rounds = ps_def_max_rounds(s, d);
    struct json_object *pc = json_object_new_object(), *rounds = json_object_new_array();
    json_object_object_add(pc, "kind", json_object_new_string("steady"));
    json_object_object_add(pc, "round_s", jw_num((double)el_ns / 1e9));
    json_object_object_add(pc, "threads", json_object_new_int((int)ep->wl.workers));
    json_object_object_add(pc, "qd", json_object_new_int((int)ep->wl.qd));
    json_object_object_add(pc, "rounds", rounds);
    json_object_object_add(sub, "precondition", pc);
    struct tracked tk = {.n_vars = 1};
    struct steady_window win;
    unsigned steady = 0;
    for (unsigned r = 1; !max_rounds || r <= max_rounds; r++) {
        struct round_metrics m;
        int st = ps_measure_or_stop(s, ep, el_ns, NS_PER_S, &m, err, errlen);
        if (st != 0) {
            ps_tracked_free(&tk);
            return st;
        }
        double v = NAN;
        metrics_value(&m, d->kind == PTS_KIND_DIRTH ? "iops" : d->track[0].metric, &v);
        struct json_object *rj = ps_period_json(&m);
        json_object_object_add(rj, "round", json_object_new_int(r));
        json_object_array_add(rounds, rj);
        metrics_free(&m);
        ps_tracked_push(&tk, &v);
        struct steady_criteria c = STEADY_CRITERIA_SNIA;
        c.max_rounds = 0;
        const double *ys[1] = {tk.v[0]};
        steady = steady_first_all(ys, 1, tk.n, &c, &win);
        json_object_object_add(pc, "steady_state",
                               ps_steady_json(d, d->bss[0], &win, 1, steady, r, max_rounds));
        if (ps_flush_or_fail(s, false, err, errlen) != 0) {
            ps_tracked_free(&tk);
            return -1;
        }
        if (steady)
            break;
    }
    if (!steady)
        ps_note(s, "%s: preconditioning did not reach steady state in %u rounds", d->name,
             (unsigned)tk.n);
    ps_tracked_free(&tk);
    return 0;
}

/* ------------------------------------------------------------------ the suite */

static struct json_object *spec_json(const struct pts_session *s)
{
    struct json_object *o = json_object_new_object();
    json_object_object_add(o, "name", json_object_new_string(s->spec.name));
    json_object_object_add(o, "title", json_object_new_string(s->spec.title));
    json_object_object_add(o, "active_range_pct", jw_num(s->spec.active_range_pct));
    json_object_object_add(o, "active_range_bytes",
                           json_object_new_int64((int64_t)(s->ar.len * s->weight)));
    struct json_object *wc = json_object_new_object();
    json_object_object_add(wc, "requested", json_object_new_string(s->spec.write_cache ? "enabled" : "disabled"));
    const char *actual = s->target.kind == TARGET_SIM ? "simulated (power-loss-protected buffer)"
                         : s->target.kind == TARGET_FILE ? "n/a (file: the page cache is bypassed, O_DIRECT)"
                         : s->target.write_cache ? "enabled (write back)" : "disabled (write through)";
    json_object_object_add(wc, "device", json_object_new_string(actual));
    json_object_object_add(o, "write_cache", wc);
    json_object_object_add(o, "threads", json_object_new_int(s->threads));
    json_object_object_add(o, "qd", json_object_new_int(s->qd));
    json_object_object_add(o, "spec_threads", json_object_new_int(s->spec.threads));
    json_object_object_add(o, "spec_qd", json_object_new_int(s->spec.qd));
    return o;
}

static const char *on_off(bool on)
{
    return on ? "enabled" : "disabled";
}

/* The cache's state as the device says it (get-feature, hdparm -W), else the kernel's
 * queue/write_cache as probed (for NVMe that says only that a volatile cache exists). */
static bool wc_state(struct pts_session *s, bool sysfs, const char **how)
{
    bool on = sysfs;
    char err[ERR_LEN];
    struct wcache_plan q;
    wcache_query_plan(&s->purge_facts, &q);
    *how = "queue/write_cache";
    if (q.supported && wcache_query(&s->purge_facts, &on, err, sizeof(err)) == 0)
        *how = s->purge_facts.transport == PURGE_T_NVME ? "nvme get-feature" : "hdparm -W";
    return on;
}

/* Not changed: why, and whether the device is as the spec asks all the same. */
static void wc_unchanged(struct pts_session *s, struct json_object *wc, bool as_requested,
                         const char *reason)
{
    const bool want = s->spec.write_cache;
    json_object_object_add(wc, "changed", json_object_new_boolean(false));
    json_object_object_add(wc, "as_requested", json_object_new_boolean(as_requested));
    if (reason)
        json_object_object_add(wc, "reason", json_object_new_string(reason));
    if (!as_requested)
        ps_note(s, "write cache: the spec asks for it %s, the device has it %s and it was not "
                "changed (%s)", on_off(want), on_off(!want), reason ? reason : "?");
}

/* Put the device's volatile write cache where the spec wants it, where the device has a tool
 * for it (write_cache.h); report it either way: "before" (as found), "after" (read back),
 * "device" (the state the tests ran with and where it was read). Returns true when it was
 * changed (and must be restored at the end, to s->wc_before). */
static bool set_write_cache(struct pts_session *s)
{
    struct json_object *wc = json_object_object_get(json_object_object_get(s->doc, "spec"),
                                                    "write_cache");
    const bool want = s->spec.write_cache;
    if (s->target.kind != TARGET_BLOCK) {
        json_object_object_add(wc, "changed", json_object_new_boolean(false));
        return false;
    }
    if (s->purge_facts.transport == PURGE_T_NVME && !s->target.write_cache) {
        /* the kernel's write through: the controller has no volatile cache to switch */
        json_object_object_add(wc, "device", json_object_new_string(WCACHE_NO_VWC));
        wc_unchanged(s, wc, !want, WCACHE_NO_VWC);
        return false;
    }
    const char *how;
    const bool before = wc_state(s, s->target.write_cache, &how);
    s->wc_before = before;
    json_object_object_add(wc, "before", json_object_new_string(on_off(before)));
    char dev[128];
    snprintf(dev, sizeof(dev), "%s (%s)", on_off(before), how);
    json_object_object_add(wc, "device", json_object_new_string(dev));
    if (before == want) {
        wc_unchanged(s, wc, true, NULL);
        return false;
    }
    struct wcache_plan plan;
    wcache_plan_make(&s->purge_facts, want, &plan);
    char err[ERR_LEN];
    if (!plan.supported || wcache_apply(&plan, err, sizeof(err)) != 0) {
        wc_unchanged(s, wc, false, plan.supported ? err : plan.reason);
        return false;
    }
    struct target_info now;
    bool sysfs = want;
    if (target_probe(s->target.path, 0, &now, err, sizeof(err)) == 0)
        sysfs = now.write_cache;
    const bool after = wc_state(s, sysfs, &how);
    snprintf(dev, sizeof(dev), "%s (%s)", on_off(after), how);
    json_object_object_add(wc, "device", json_object_new_string(dev));
    json_object_object_add(wc, "command", json_object_new_string(plan.text));
    json_object_object_add(wc, "changed", json_object_new_boolean(true));
    json_object_object_add(wc, "after", json_object_new_string(on_off(after)));
    json_object_object_add(wc, "as_requested", json_object_new_boolean(after == want));
    if (after != want)
        ps_note(s, "write cache: '%s' ran but the device still reports it %s", plan.text,
                on_off(after));
    return true;
}

/* The write cache as the suite found it; "restored" says what the device reads back. */
static void restore_write_cache(struct pts_session *s)
{
    char err[ERR_LEN];
    struct json_object *wc = json_object_object_get(json_object_object_get(s->doc, "spec"),
                                                    "write_cache");
    struct wcache_plan back;
    wcache_plan_make(&s->purge_facts, s->wc_before, &back);
    if (wcache_apply(&back, err, sizeof(err)) != 0) {
        fprintf(stderr, "ptsbench suite: restoring the write cache: %s\n", err);
        json_object_object_add(wc, "restored", json_object_new_string(err));
        return;
    }
    struct target_info now;
    bool sysfs = s->wc_before;
    if (target_probe(s->target.path, 0, &now, err, sizeof(err)) == 0)
        sysfs = now.write_cache;
    const char *how;
    const bool on = wc_state(s, sysfs, &how);
    json_object_object_add(wc, "restored", json_object_new_string(on_off(on)));
    if (on != s->wc_before)
        fprintf(stderr, "ptsbench suite: restoring the write cache: '%s' ran but the device "
                "reports it %s, not %s as before\n", back.text, on_off(on), on_off(s->wc_before));
}

/* What the test runs, as its results header says it: access, outstanding I/O and how the
 * device is prepared, per kind (XSR's groups each have their own access; DIRTH sweeps its
 * lists after preconditioning at its own threads x QD). */
static void test_header_json(const struct pts_session *s, const struct pts_def *d,
                             struct json_object *tj)
{
    struct pts_timing t;
    def_timing(s, d, &t);
    char prep[256];
    pts_preparation_text(d, &t, prep, sizeof(prep));
    json_object_object_add(tj, "preparation", json_object_new_string(prep));
    if (d->kind == PTS_KIND_XSR) {
        json_object_object_add(tj, "access", json_object_new_string("per group"));
        struct json_object *gs = json_object_new_array();
        for (unsigned g = 0; g < d->n_groups; g++) {
            const struct pts_group *gr = &d->groups[g];
            struct json_object *gj = json_object_new_object();
            json_object_object_add(gj, "group", json_object_new_int(g + 1));
            json_object_object_add(gj, "access",
                                   json_object_new_string(gr->random ? "random" : "sequential"));
            json_object_object_add(gj, "bs", json_object_new_int64(gr->bs));
            json_object_object_add(gj, "rwmix_read", json_object_new_int(gr->mix));
            json_object_object_add(gj, "duration_s", jw_num(
                (double)pts_xsr_group_rounds(gr, s->cfg.time_scale, t.element_ns) *
                (double)t.element_ns / 1e9));
            json_object_array_add(gs, gj);
        }
        json_object_object_add(tj, "groups", gs);
    } else {
        json_object_object_add(tj, "access",
                               json_object_new_string(d->random ? "random" : "sequential"));
    }
    if (d->kind == PTS_KIND_DIRTH) {
        /* "threads"/"qd": the preconditioning's; the sweep's are the lists */
        json_object_object_add(tj, "threads", json_object_new_int(d->pc_threads));
        json_object_object_add(tj, "qd", json_object_new_int(d->pc_qd));
        json_object_object_add(tj, "precondition_threads", json_object_new_int(d->pc_threads));
        json_object_object_add(tj, "precondition_qd", json_object_new_int(d->pc_qd));
        struct json_object *tl = json_object_new_array(), *ql = json_object_new_array();
        for (unsigned i = 0; i < d->n_threads_list; i++)
            json_object_array_add(tl, json_object_new_int(d->threads_list[i]));
        for (unsigned i = 0; i < d->n_qd_list; i++)
            json_object_array_add(ql, json_object_new_int(d->qd_list[i]));
        json_object_object_add(tj, "threads_list", tl);
        json_object_object_add(tj, "qd_list", ql);
    } else {
        json_object_object_add(tj, "threads", json_object_new_int(ps_def_threads(s, d)));
        json_object_object_add(tj, "qd", json_object_new_int(ps_def_qd(s, d)));
    }
    json_object_object_add(tj, "estimate_s", jw_num(pts_estimate_s(d, &t)));
    json_object_object_add(tj, "estimate_likely_s", jw_num(pts_estimate_likely_s(d, &t)));
}

/* ------------------------------------------------------------------ --resume */

/* The stopped suite's test i when it is the same test (name), else NULL. */
static struct json_object *stored_test(const struct pts_session *s, unsigned i,
                                       const struct pts_def *d)
{
    struct json_object *ts = json_object_object_get(s->cfg.resume, "tests");
    struct json_object *t = json_object_is_type(ts, json_type_array) &&
                                    i < json_object_array_length(ts)
                                ? json_object_array_get_idx(ts, i) : NULL;
    const char *name = t ? json_object_get_string(json_object_object_get(t, "name")) : NULL;
    return name && !strcmp(name, d->name) ? t : NULL;
}

/* An interrupted test that goes on after its last complete round instead of from its start:
 * WSAT always (its purge would undo what it counts), the standard kind with --resume-as-is. */
static bool goes_on(const struct pts_session *s, const struct pts_def *d)
{
    return d->stop == PTS_STOP_CAPACITY || (s->cfg.resume_as_is && d->kind == PTS_KIND_STANDARD);
}

/* A replayed test must give the stored figures (the simulated drive is deterministic): the same
 * number of rounds in each subtest. */
static int replay_check_test(struct json_object *was, struct json_object *now, char *err,
                             size_t errlen)
{
    struct json_object *a = json_object_object_get(was, "subtests");
    struct json_object *b = json_object_object_get(now, "subtests");
    size_t n = json_object_is_type(a, json_type_array) ? json_object_array_length(a) : 0;
    for (size_t k = 0; k < n; k++) {
        size_t ra = json_object_array_length(json_object_object_get(
            json_object_array_get_idx(a, k), "rounds"));
        size_t rb = json_object_array_length(json_object_object_get(
            json_object_array_get_idx(b, k), "rounds"));
        if (ra != rb)
            return errf(err, errlen, "--resume: replaying %s on the simulated drive took %zu "
                        "rounds where the results file holds %zu: not the same suite",
                        json_object_get_string(json_object_object_get(now, "name")), rb, ra);
    }
    return 0;
}

static bool test_complete(struct json_object *t)
{
    const char *st = json_object_get_string(json_object_object_get(t, "status"));
    return st && !strcmp(st, "complete");
}

/* Before the tests: what a resume keeps, replays or redoes. */
static void suite_resume_begin(struct pts_session *s)
{
    struct json_object *ts = json_object_object_get(s->cfg.resume, "tests");
    size_t n = json_object_is_type(ts, json_type_array) ? json_object_array_length(ts) : 0;
    unsigned done = 0;
    while (done < n && done < s->n_defs && stored_test(s, done, &s->defs[done]) &&
           test_complete(json_object_array_get_idx(ts, done)))
        done++;
    struct json_object *old = json_object_object_get(s->cfg.resume, "resumed");
    struct json_object *resumed = json_object_is_type(old, json_type_array)
                                      ? json_object_get(old) : json_object_new_array();
    struct json_object *r = json_object_new_object();
    char now[32];
    iso8601_now(now, sizeof(now));
    json_object_object_add(r, "at", json_object_new_string(now));
    json_object_object_add(r, "complete_tests", json_object_new_int((int)done));
    if (s->target.sim) {
        s->replay_tests = done;
        json_object_object_add(r, "how", json_object_new_string(
            "replayed: a simulated drive's state does not outlive its process, so the suite ran "
            "again from its start; the tests completed before the stop were reproduced (checked) "
            "and not printed again"));
    } else {
        s->keep_stored = true;
        json_object_object_add(r, "how", json_object_new_string(
            s->cfg.resume_as_is
                ? "the completed tests are kept; the interrupted test goes on after its last "
                  "complete round without its preparation again (--resume-as-is)"
                : "the completed tests are kept; the interrupted test runs again from its start "
                  "(purge, WIPC), except WSAT, which goes on with its byte count"));
        /* the kept tests' departures stay departures */
        struct json_object *notes = json_object_object_get(
            json_object_object_get(s->cfg.resume, "compliance"), "notes");
        for (size_t i = 0; json_object_is_type(notes, json_type_array) &&
                           i < json_object_array_length(notes); i++)
            results_note_add(s->notes, json_object_get_string(json_object_array_get_idx(notes, i)));
        ps_note(s, "resumed after %u complete test%s: the drive was not held between the stop and "
                "the resume", done, done == 1 ? "" : "s");
    }
    json_object_array_add(resumed, r);
    json_object_object_add(s->doc, "resumed", resumed);
}

/* ---- the test kinds ----
 * What runs one subtest of a definition, by its kind (pts_def.h: enum pts_kind): a new test of
 * an existing kind runs from its definition file alone. */
static const pts_kind_run_fn pts_kind_run[] = {
    [PTS_KIND_STANDARD] = pts_kind_standard,   /* rounds of a loop to steady state (IOPS, TP, LAT, WSAT) */
    [PTS_KIND_HIR] = pts_kind_hir,       /* wait states after a saturated preconditioning */
    [PTS_KIND_XSR] = pts_kind_xsr,       /* groups of stimuli one after another */
    [PTS_KIND_DIRTH] = pts_kind_dirth,   /* a threads x QD sweep and its operating points */
};

/* Open the target and the output directory; the drive's state begins. 0 or -1 with err. */
static int suite_open(struct pts_session *s, char *err, size_t errlen)
{
    if (s->target.kind != TARGET_SIM) {
        s->fd = target_open(&s->target, true, err, errlen);
        if (s->fd < 0)
            return -1;
    }
    if (run_make_dir(s->out_dir, err, errlen) != 0)
        return -1;
    if (s->target.sim)
        sim_stats(s->target.sim->dev, &s->sim_last);
    ds_init(&s->state, (double)s->ar.len * s->weight, s->target.sim != NULL);
    return 0;
}

/* The results document's head: what ran where, with what, and the notes so far. */
static void suite_doc_start(struct pts_session *s)
{
    s->doc = json_object_new_object();
    results_out_init(&s->out, s->doc, s->results_path, "ptsbench suite");
    s->out.live = s->tty;
    json_object_object_add(s->doc, "schema", json_object_new_string("ptsbench.suite"));
    json_object_object_add(s->doc, "schema_version", json_object_new_int(RESULTS_SCHEMA_VERSION));
    json_object_object_add(s->doc, "ptsbench_version", json_object_new_string(PTSBENCH_VERSION));
    struct json_object *argv = json_object_new_array();
    for (int i = 0; i < s->cfg.argc; i++)
        json_object_array_add(argv, json_object_new_string(s->cfg.argv[i]));
    json_object_object_add(s->doc, "command_line", argv);
    iso8601_now(s->started, sizeof(s->started));
    json_object_object_add(s->doc, "started", json_object_new_string(s->started));
    json_object_object_add(s->doc, "status", json_object_new_string("running"));
    json_object_object_add(s->doc, "host", results_host_json(&s->host));
    json_object_object_add(s->doc, "target", results_target_json(&s->target));
    json_object_object_add(s->doc, "placement", results_placement_json(&s->place));
    s->out.place = &s->place;
    struct json_object *eng = json_object_new_object();
    json_object_object_add(eng, "name", json_object_new_string(s->engine->name));
    json_object_object_add(eng, "library", json_object_new_string(s->engine->version()));
    json_object_object_add(eng, "clock", json_object_new_string(
        s->engine->flags & ENGINE_F_VIRTUAL_CLOCK ? "virtual" : "CLOCK_MONOTONIC"));
    json_object_object_add(eng, "completion_weight", jw_num(s->weight));
    json_object_object_add(s->doc, "engine", eng);
    json_object_object_add(s->doc, "spec", spec_json(s));
    s->notes = json_object_new_array();
    struct json_object *comp = json_object_new_object();
    json_object_object_add(comp, "notes", json_object_get(s->notes));
    json_object_object_add(comp, "simulated", json_object_new_boolean(s->target.sim != NULL));
    json_object_object_add(s->doc, "compliance", comp);
    s->tests_json = json_object_new_array();
    json_object_object_add(s->doc, "tests", s->tests_json);

    if (s->cfg.time_scale > 0 && s->cfg.time_scale != 1)
        ps_note(s, "every duration scaled by %g (--time-scale)", s->cfg.time_scale);
    if (s->target.memory_fs[0])   /* --allow-memory-target */
        ps_note(s, "%s is on %s: the figures measure memory, not a drive", s->target.path,
                s->target.memory_fs);
    json_object_object_add(s->doc, "time_scale", jw_num(s->cfg.time_scale > 0 ? s->cfg.time_scale : 1));
    if (s->element_ns && s->element_ns != 60 * NS_PER_S)
        ps_note(s, "round elements of %g s instead of the PTS's 60 s (--round-time)",
             (double)s->element_ns / 1e9);
    if (s->threads != s->spec.threads || s->qd != s->spec.qd)
        ps_note(s, "outstanding I/O %u x %u instead of the spec's recommended %u x %u", s->threads,
             s->qd, s->spec.threads, s->spec.qd);
    for (unsigned i = 0; i < s->n_defs; i++) {
        char wn[2][PTS_NOTE_LEN];
        unsigned n = pts_wsat_option_notes(&s->defs[i], s->cfg.wsat_capacity, s->cfg.wsat_time_ns,
                                           wn);
        for (unsigned k = 0; k < n; k++)
            results_note_add(s->notes, wn[k]);
    }
}

/* A test's record as it starts: its definition and parameters, status running. */
static struct json_object *test_start_json(const struct pts_session *s, const struct pts_def *d)
{
    struct json_object *tj = json_object_new_object();
    json_object_object_add(tj, "name", json_object_new_string(d->name));
    json_object_object_add(tj, "title", json_object_new_string(d->title));
    json_object_object_add(tj, "kind", json_object_new_string(pts_kind_name(d->kind)));
    json_object_object_add(tj, "report", json_object_new_string(pts_report_name(d->report)));
    json_object_object_add(tj, "definition", json_object_new_string(d->source));
    json_object_object_add(tj, "element_time_s", jw_num((double)ps_def_element_ns(s, d) / 1e9));
    test_header_json(s, d, tj);
    json_object_object_add(tj, "status", json_object_new_string("running"));
    json_object_object_add(tj, "subtests", json_object_new_array());
    return tj;
}

/* A test's subtests (TP: one per valid block size; others one), each run by its kind. On
 * --resume of an interrupted WSAT, or of a standard test as-is, the complete subtests are
 * kept and the last one goes on after its last complete round. 0, 1 interrupted, -1. */
static int test_subtests(struct pts_session *s, const struct pts_def *d, struct json_object *was,
                         struct json_object *subs, char *err, size_t errlen)
{
    unsigned n_sub = d->subtests == PTS_SUB_BS ? d->n_bss : 1;
    int st = 0;
    struct json_object *was_subs = was && s->keep_stored && goes_on(s, d)
                                       ? json_object_object_get(was, "subtests") : NULL;
    size_t n_was = json_object_is_type(was_subs, json_type_array)
                       ? json_object_array_length(was_subs) : 0;
    size_t k_sub = 0;   /* the subtests started, valid block sizes only */
    for (unsigned k = 0; k < n_sub && st == 0; k++) {
        uint32_t sub_bs = d->subtests == PTS_SUB_BS ? d->bss[k] : 0;
        if (sub_bs && !ps_bs_valid(s, sub_bs))
            continue;
        if (k_sub + 1 < n_was) {   /* complete before the stop */
            json_object_array_add(subs, json_object_get(json_object_array_get_idx(was_subs,
                                                                                  k_sub++)));
            continue;
        }
        if (k_sub + 1 == n_was)
            s->resume_sub = json_object_array_get_idx(was_subs, k_sub);
        k_sub++;
        struct json_object *sj = json_object_new_object();
        char label[32] = "all";
        if (sub_bs)
            units_format_size(sub_bs, label, sizeof(label));
        json_object_object_add(sj, "label", json_object_new_string(label));
        if (sub_bs)
            json_object_object_add(sj, "bs", json_object_new_int64(sub_bs));
        json_object_array_add(subs, sj);
        st = pts_kind_run[d->kind](s, d, sub_bs, sj, err, errlen);
        json_object_object_add(sj, "state", results_state_json(&s->state));
    }
    return st;
}

/* Test i of the suite: kept from the stopped run when complete there, else run. Returns the
 * suite's exit code so far (EXIT_OK to go on). */
static int suite_test(struct pts_session *s, unsigned i)
{
    char err[ERR_LEN];
    const struct pts_def *d = &s->defs[i];
    struct json_object *was = s->cfg.resume ? stored_test(s, i, d) : NULL;
    const char *was_status = was ? json_object_get_string(json_object_object_get(was, "status"))
                                 : NULL;
    if (was && s->keep_stored && was_status && !strcmp(was_status, "complete")) {
        json_object_array_add(s->tests_json, json_object_get(was));   /* kept as it was */
        return EXIT_OK;
    }
    const bool quiet = s->cfg.quiet;
    if (i < s->replay_tests)
        s->cfg.quiet = true;   /* replayed: printed by the run before */
    struct json_object *tj = test_start_json(s, d);
    json_object_array_add(s->tests_json, tj);
    int code = EXIT_OK;
    if (!s->cfg.quiet) {
        if (ps_flush_or_fail(s, true, err, sizeof(err)) != 0) {
            fprintf(stderr, "ptsbench suite: %s\n", err);
            s->cfg.quiet = quiet;
            return EXIT_FAILURE_RUN;
        }
        printf("%s (%s)\n", d->title, d->name);
    }
    s->live_test = d->name;
    s->live_mb_s = pts_tracks_mb_s(d);
    s->live_eta[0] = '\0';
    s->cap_eta = (struct pts_cap_eta){0};
    const double clock0 = ps_clock_s(s), prep0 = s->prep_s, drain0 = s->drain_s;
    /* the drive's own counters around the test, its purge and preconditioning included
     * (device/health.h): its write amplification over the test, beside the simulator's */
    struct health_snapshot before, after;
    health_collect(&s->target, &before);
    int st = test_subtests(s, d, was, json_object_object_get(tj, "subtests"), err, sizeof(err));
    health_collect(&s->target, &after);
    json_object_object_add(tj, "health", health_json(&before, &after));
    if (!s->cfg.quiet) {
        char line[512];
        health_summary(json_object_object_get(tj, "health"), line, sizeof(line));
        printf("  %s\n", line);
    }
    /* the test's time (virtual on the simulated drive), purges and WIPC excluded; of it, the
     * drains after the elements' ends and the loop itself (elements, HIR's waits): what the
     * plan's estimate stands for */
    const double measuring = ps_clock_s(s) - clock0 - (s->prep_s - prep0);
    const double drain = s->drain_s - drain0;
    json_object_object_add(tj, "measuring_s", jw_num(measuring));
    json_object_object_add(tj, "drain_s", jw_num(drain));
    json_object_object_add(tj, "loop_s", jw_num(measuring - drain));
    json_object_object_add(tj, "status", json_object_new_string(
        st == 0 ? "complete" : st > 0 ? "interrupted" : "failed"));
    if (st < 0) {
        fprintf(stderr, "ptsbench suite: %s: %s\n", d->name, err);
        json_object_object_add(tj, "error", json_object_new_string(err));
        code = EXIT_FAILURE_RUN;
    } else if (st > 0) {
        code = EXIT_INTERRUPTED;
    }
    s->cfg.quiet = quiet;
    if (st == 0 && i < s->replay_tests && replay_check_test(was, tj, err, sizeof(err)) != 0) {
        fprintf(stderr, "ptsbench suite: %s\n", err);
        code = EXIT_FAILURE_RUN;
    }
    if (ps_flush_or_fail(s, true, err, sizeof(err)) != 0 && code != EXIT_FAILURE_RUN) {
        fprintf(stderr, "ptsbench suite: %s\n", err);
        code = EXIT_FAILURE_RUN;
    }
    return code;
}

/* The end: the write cache as it was, the status, the last flush and the closing lines. */
static int suite_finish(struct pts_session *s, int code, bool restore_wc)
{
    if (restore_wc)
        restore_write_cache(s);
    json_object_object_add(json_object_object_get(s->doc, "compliance"), "compliant",
                           json_object_new_boolean(json_object_array_length(s->notes) == 0 &&
                                                   code == EXIT_OK));
    json_object_object_add(s->doc, "status", json_object_new_string(
        code == EXIT_OK ? "complete" : code == EXIT_INTERRUPTED ? "interrupted" : "failed"));
    const bool said = s->out.failed;   /* the test that hit it has said so */
    if (results_flush(s, true) != 0) {
        /* the results file does not hold the end of the run: never call it complete */
        if (!said)
            fprintf(stderr, "ptsbench suite: %s (it holds what was printed before)\n",
                    s->out.error);
        return EXIT_FAILURE_RUN;
    }
    if (!s->cfg.quiet) {
        size_t nn = json_object_array_length(s->notes);
        char line[160];
        pts_closing_line(code == EXIT_OK ? "complete" : code == EXIT_INTERRUPTED ? "interrupted"
                                                                                 : "failed",
                         code == EXIT_OK, nn, s->target.sim != NULL, line, sizeof(line));
        printf("\n%s\n", line);
        for (size_t i = 0; i < nn; i++)
            printf("  - %s\n", json_object_get_string(json_object_array_get_idx(s->notes, i)));
        printf("results: %s\n", s->results_path);
    }
    return code;
}

int pts_execute(struct pts_session *s, volatile sig_atomic_t *stop)
{
    char err[ERR_LEN];
    s->stop = stop;
    if (suite_open(s, err, sizeof(err)) != 0) {
        fprintf(stderr, "ptsbench suite: %s\n", err);
        return EXIT_FAILURE_RUN;
    }
    suite_doc_start(s);
    /* a drive that reports a critical warning is not benchmarked silently (each test's health
     * records the bits) */
    struct health_snapshot h;
    health_collect(&s->target, &h);
    if (health_warning_line(&h, err, sizeof(err)))
        fprintf(stderr, "ptsbench suite: warning: %s\n", err);
    bool restore_wc = set_write_cache(s);
    int code = EXIT_OK;
    if (ps_flush_or_fail(s, true, err, sizeof(err)) != 0) {
        fprintf(stderr, "ptsbench suite: %s\n", err);
        code = EXIT_FAILURE_RUN;
    }
    if (s->cfg.resume)
        suite_resume_begin(s);
    for (unsigned i = 0; i < s->n_defs && code == EXIT_OK; i++)
        code = suite_test(s, i);
    return suite_finish(s, code, restore_wc);
}

void pts_free(struct pts_session *s)
{
    if (!s)
        return;
    if (s->fd >= 0)
        close(s->fd);
    results_out_free(&s->out);
    if (s->doc)
        json_object_put(s->doc);
    if (s->notes)
        json_object_put(s->notes);
    placement_free(&s->place);
    target_release(&s->target);
    free(s);
}
