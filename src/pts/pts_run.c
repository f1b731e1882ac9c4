/* pts_run.c — a PTS suite's session (see pts_run.h): its preparation (pts_prepare, pts_free),
 * its plan, and the steps the kinds share (pts_session.h: elements on fresh pools, purge and
 * WIPC through core/steps.h, steady-state records, progress). It sits below the kinds: each
 * kind's control flow is its own file (kind_standard.c, kind_hir.c, kind_xsr.c, kind_dirth.c),
 * and the suite that runs them through the kind table is pts_suite.c, above them. What each
 * test runs comes from its definition file (pts_def.h). */
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
#include "core/precondition.h"
#include "core/results.h"
#include "core/run.h"
#include "core/worker.h"
#include "device/hostinfo.h"
#include "device/target.h"
#include "io/workload.h"
#include "lib/json_path.h"
#include "lib/units.h"
#include "lib/util.h"
#include "pts/pts_def.h"
#include "pts/pts_rules.h"
#include "sim/sim_preset.h"
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

static void time_limit_plan(struct pts_session *s);

/* --precondition fast (pts_config.fast): the request checked (core/fastprep.h), refused with
 * --resume and on a whole-round engine as run refuses it, and for a test whose definition does
 * not allow it: "tp: WHY" (fast_precondition). 0, or -1 with err; nothing is written. */
static int fast_refuse(struct pts_session *s, char *err, size_t errlen)
{
    const struct fast_request *r = &s->cfg.fast;
    s->guard = STEADY_GUARD_DEFAULT;
    if (fastprep_check(r, err, errlen) != 0)
        return -1;
    if (!r->on)
        return 0;
    if (fastprep_usable(r, s->cfg.resume != NULL, NULL, err, errlen) != 0)
        return -1;
    for (unsigned i = 0; i < s->n_defs; i++)
        if (!s->defs[i].fast_allowed)
            return errf(err, errlen, "--precondition fast: %s: %s", s->defs[i].name,
                        s->defs[i].fast_why);
    return 0;
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

    if (fast_refuse(s, err, errlen) != 0)
        goto fail;
    if (run_select_engine(cfg->engine_name, cfg->target_path, &s->engine, err, errlen) != 0)
        goto fail;
    if (cfg->create_size && cfg->target_path && sim_target_is(cfg->target_path)) {
        errf(err, errlen, "--size: a simulated drive has the capacity of its preset (override "
                          "with sim:PRESET,user_bytes=...)");
        goto fail;
    }
    if (run_probe_target(cfg->target_path, cfg->create_size, cfg->allow_memory,
                         cfg->profile_dirs, &s->target, err, errlen) != 0)
        goto fail;
    if (run_place(&cfg->numa, &s->target, &s->place, err, errlen) != 0)
        goto fail;
    if (!s->target.exists && !cfg->create_size) {
        errf(err, errlen, "%s: a PTS suite needs an existing device, file or sim:PRESET (or "
             "--size to create the file)", cfg->target_path);
        goto fail;
    }
    if (cfg->resume && run_resume_same_target(cfg->resume, &s->target, err, errlen) != 0)
        goto fail;
    if (fastprep_usable(&cfg->fast, false, s->engine, err, errlen) != 0)
        goto fail;
    if (cfg->fast.on && fastprep_choose(&s->target, &cfg->fast, &s->fast, err, errlen) != 0)
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
    time_limit_plan(s);
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
    const unsigned r = s->cfg.max_rounds ? s->cfg.max_rounds : d->max_rounds;
    return s->round_cap && (!r || r > s->round_cap) ? s->round_cap : r;   /* --time-limit */
}

/* --time-limit: the largest round limit per test (at least 1, at most each test's own; a test
 * without a limit counts as 1000) with which the tests' bounds fit the limit. */
static void time_limit_plan(struct pts_session *s)
{
    s->round_cap = 0;
    if (!s->cfg.time_limit_ns)
        return;
    unsigned most = 1;
    for (unsigned i = 0; i < s->n_defs; i++) {
        const unsigned r = ps_def_max_rounds(s, &s->defs[i]);
        most = !r ? 1000 : r > most ? r : most;
    }
    s->rounds_uncut = most;
    for (unsigned k = most; k >= 1; k--) {
        s->round_cap = k;
        double total = 0;
        for (unsigned i = 0; i < s->n_defs; i++) {
            struct pts_timing t;
            ps_def_timing(s, &s->defs[i], &t);
            total += pts_estimate_s(&s->defs[i], &t);
        }
        if (total <= (double)s->cfg.time_limit_ns / 1e9)
            break;
    }
    if (s->round_cap >= most)
        s->round_cap = 0;
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
void ps_def_timing(const struct pts_session *s, const struct pts_def *d, struct pts_timing *t)
{
    memset(t, 0, sizeof(*t));
    t->time_scale = s->cfg.time_scale;
    t->fast = s->cfg.fast.on;
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
    bool own = false;   /* a test that defines its own (LAT: 1 x 1) says so on its line */
    for (unsigned i = 0; i < s->n_defs; i++)
        own |= ps_def_threads(s, &s->defs[i]) != s->threads || ps_def_qd(s, &s->defs[i]) != s->qd;
    printf("  active range %g%%, write cache %s requested, outstanding I/O (threads x queue "
           "depth) %u x %u (spec %u x %u)%s\n", s->spec.active_range_pct,
           s->spec.write_cache ? "enabled" : "disabled", s->threads, s->qd, s->spec.threads,
           s->spec.qd, own ? " for WIPC and the tests that set none" : "");
    double total = 0, total_likely = 0;
    for (unsigned i = 0; i < s->n_defs; i++) {
        const struct pts_def *d = &s->defs[i];
        struct pts_timing t;
        ps_def_timing(s, d, &t);
        char loop[600], prep[256], when[32];
        pts_loop_text(d, &t, loop, sizeof(loop));
        if (t.threads != s->threads || t.qd != s->qd) {   /* and where each comes from */
            const char *th = s->cfg.threads ? "--threads"
                             : d->threads   ? "the test's"
                                            : "the suite's";
            const char *qd = s->cfg.qd ? "--qd" : d->qd ? "the test's" : "the suite's";
            size_t l = strlen(loop);
            if (!strcmp(th, "the test's") && !strcmp(qd, th))
                snprintf(loop + l, sizeof(loop) - l, " at outstanding I/O %u x %u (the test's "
                         "own)", t.threads, t.qd);
            else
                snprintf(loop + l, sizeof(loop) - l, " at outstanding I/O %u x %u (threads: "
                         "%s, queue depth: %s)", t.threads, t.qd, th, qd);
        }
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
           "window allows), at most %s of %s time, plus purge, %s and each element's drain of "
           "its in-flight I/O\n", tl, PTS_LIKELY_ROUND, tt,
           s->target.sim ? "virtual" : "measuring", s->cfg.fast.on ? "the fast pass" : "WIPC");
    if (s->cfg.time_limit_ns) {
        char lim[64];
        pts_format_duration((double)s->cfg.time_limit_ns / 1e9, lim, sizeof(lim));
        if (s->round_cap)
            printf("  time limit %s: rounds cut from %u to %u per test; steady state may not be "
                   "reached%s\n", lim, s->rounds_uncut, s->round_cap,
                   total > (double)s->cfg.time_limit_ns / 1e9 ? "; the bound still exceeds the "
                   "limit (WSAT, HIR, XSR times are not cut)" : "");
        else
            printf("  time limit %s: the rounds fit\n", lim);
    }
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
    if (s->cfg.fast.on)   /* after the fast pass: no random map (core/fastprep.h) */
        fastprep_stimulus_map(wl);
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

int ps_do_fast(struct pts_session *s, const struct pts_def *d, unsigned threads,
               const char *key, struct json_object *sub, char *err, size_t errlen)
{
    struct run_ctx ctx = ps_ctx(s);
    /* the unit: WSAT, HIR and DIRTH write 4 KiB at random; IOPS and LAT several sizes (4 KiB
     * chosen: the smallest whole page most drives map) */
    const bool four = d->n_bss == 1 && d->bss[0] == FASTPASS_UNIT;
    const struct fastprep_pass p = {
        .range = s->ar, .unit = FASTPASS_UNIT, .workers = threads,
        .unit_basis = four ? "the test's random writes" : "chosen: the test writes several sizes",
        .compress_pct = d->compress_pct, .seed = 0x46415354ull /* "FAST" */,
        .who = s->cfg.quiet ? NULL : "  ", .guard_lag = d->random,
        .stimulus_map = fastprep_map_said(NULL, d->random)};   /* ps_element_open */
    struct json_object *json = NULL;
    const double c0 = ps_clock_s(s);
    int ret = fastprep_run(&ctx, &s->fast, &p, &s->guard, &json, NULL, err, errlen);
    s->prep_s += ps_clock_s(s) - c0;
    if (ret != 0)
        return ret;
    if (!strcmp(key, "precondition"))
        json_object_object_add(json, "kind", json_object_new_string("fast"));
    json_object_object_add(sub, key, json);
    return ps_flush_or_fail(s, true, err, errlen) != 0 ? -1 : 0;
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
