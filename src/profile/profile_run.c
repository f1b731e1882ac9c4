/* profile_run.c — profiles as a matrix of points (see profile_run.h). The control flow only:
 * what to run comes from the profile files, the maths from steady.h and saturation.h, the
 * I/O from the worker pool. */
#include "profile/profile_run.h"

#include <json-c/json.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/drive_state.h"
#include "core/live.h"
#include "core/metrics.h"
#include "core/precondition.h"
#include "core/results.h"
#include "engine/engine_keys.h"
#include "core/run.h"
#include "core/worker.h"
#include "device/health.h"
#include "device/target.h"
#include "lib/json_path.h"
#include "lib/units.h"
#include "lib/util.h"
#include "profile/profile.h"
#include "sim/sim_preset.h"
#include "stats/data_measure.h"
#include "stats/hist.h"
#include "stats/saturation.h"
#include "stats/steady.h"

#define NS_PER_S 1000000000ull

/* One workload at one compressibility: the unit of preparation. */
struct pr_group {
    unsigned profile, workload;   /* indexes into the session's profiles */
    unsigned compress;
    enum wl_precondition pre;
    struct wl_range range;        /* the workload's active range on this target */
    unsigned first_point, n_points;
    bool wdpc_done;               /* the stimulus has preconditioned the drive (steady) */
    const char *wdpc_end;         /* how that WDPC ended: "guard", "max_fills" */
    struct steady_guard guard;    /* the fill guard for its WDPC (the fast pass's lag, or 1 fill) */
    double wdpc_fills;            /* its WDPC's floor: the session's, or the fast pass's lag */
    unsigned wdpc_point;          /* the point whose stimulus did it */
    struct json_object *json;     /* owned by the document */
};

struct pr_result {
    bool done, steady;
    struct ds_verdict verdict;    /* what the window may be called (drive_state.h) */
    unsigned first_round, last_round, rounds_run;
    /* the window's figures (point_result): total.lat from the merged histogram */
    struct dir_metrics read, write, total;
    struct data_measure data;     /* the written data's measured compressibility (writes) */
    struct depth_figure depth;    /* the window's: its rounds' means weighted by their time */
    char gap[256];                /* the first window round's with too few I/Os, else "" */
};

struct pr_point {
    unsigned group;
    char adapted[160];            /* how the workload was fitted to the device, or "" */
    struct workload wl;           /* the workload with this point's compress/workers/qd */
    struct wl_range range;
    struct pr_result res;
    struct json_object *json;     /* owned by the document */
};

struct profile_session {
    struct profile_config cfg;
    struct profile profiles[PROFILE_MAX_SPECS];
    unsigned n_profiles;
    struct pr_group *groups;
    unsigned n_groups;
    struct pr_point *points;
    unsigned n_points;
    struct target_info target;
    struct placement place;        /* where the workers run and ran (target.place points here) */
    const struct engine_ops *engine;
    double weight;
    struct hostinfo host;
    int fd;
    bool writes;
    bool layout;                  /* a file target is laid out before the first group (layout.h) */
    struct wl_range layout_range; /* ... over the ranges its unprepared reading groups read */
    char out_dir[4096];
    char results_path[4200];
    struct json_object *doc, *points_json, *groups_json, *notes;
    char (*plan_notes)[256];      /* notes made while planning, before the document exists */
    unsigned n_plan_notes;
    struct results_out out;        /* the document's writer (results.h) */
    volatile sig_atomic_t *stop;
    struct sim_stats sim_last;
    struct drive_state state;     /* the drive's state now */
    struct fast_prep fast;        /* --precondition fast: the target's FTL and spare factor */
    /* --resume: a simulated drive replays the points the stopped run had completed (quietly,
     * checked against the file); a real one keeps them (stored) */
    unsigned replay_points;       /* points replayed quietly: those before this index */
    bool keep_stored;             /* real target: complete points come from the file */
    struct json_object *resumed;  /* the document's "resumed" array */
    /* --time-limit: the plan's cut of the round limits (0: none), and while running the time
     * the rounds have taken (WIPC, WDPC, ramps, measuring; the engine's clock: virtual on the
     * simulated drive), the points cut and the rounds stopped by it */
    unsigned round_cap;
    double spent_s;
    unsigned points_cut;
    bool limit_hit;
};

void profile_config_init(struct profile_config *cfg)
{
    memset(cfg, 0, sizeof(*cfg));
    cfg->purge = PURGE_NONE;
    cfg->track = "iops";
    /* UNCERTAIN: how much of its own stimulus a drive needs after WIPC before its steady
     * state can be judged. The PTS leaves it to the 5-round window (which a large drive can
     * pass on its burst plateau); StorageReview preconditions for hours. One fill of the
     * active range lets a greedy FTL use up its spare area and reach its GC equilibrium on
     * every simulated preset; --wdpc-fills changes it. */
    cfg->wdpc_fills = -1;
    cfg->wdpc_max_fills = 0;
}

/* A group's preparation in words: "fast" for a steady group under --precondition fast. */
static const char *group_pre_name(const struct profile_session *s, const struct pr_group *g)
{
    return s->cfg.fast.on && g->pre == WL_PRECOND_STEADY ? "fast" : wl_precondition_name(g->pre);
}

static const char *precondition_of(const struct profile_session *s, const struct workload *wl,
                                   enum wl_precondition *out)
{
    *out = s->cfg.precondition ? s->cfg.precondition
                               : wl->precondition ? wl->precondition : WL_PRECOND_STEADY;
    return wl_precondition_name(*out);
}

/* The round limit before a --time-limit cut. */
static unsigned max_rounds_uncut(const struct profile_session *s, enum wl_precondition pre)
{
    if (s->cfg.max_rounds)
        return s->cfg.max_rounds;
    return pre == WL_PRECOND_STEADY ? 25 : 1;
}

static unsigned max_rounds_of(const struct profile_session *s, enum wl_precondition pre)
{
    const unsigned max = max_rounds_uncut(s, pre);
    return s->round_cap && s->round_cap < max ? s->round_cap : max;
}

static uint64_t round_ns_of(const struct profile_session *s, const struct workload *wl)
{
    if (s->cfg.round_time_ns)
        return s->cfg.round_time_ns;
    return wl->round_time_ns ? wl->round_time_ns : 60ull * NS_PER_S;
}

/* The values of one axis: the command line's, else the workload's sweep, else its own. */
static struct wl_sweep axis(const struct wl_sweep *cli, const struct wl_sweep *own, unsigned v)
{
    if (cli->n)
        return *cli;
    if (own->n)
        return *own;
    return (struct wl_sweep){.v = {v}, .n = 1};
}

static bool tracking_known(const char *name)
{
    for (size_t i = 0; metrics_tracking_names[i]; i++)
        if (!strcmp(metrics_tracking_names[i], name))
            return true;
    return false;
}

static void plan_note(struct profile_session *s, const char *msg)
{
    for (unsigned i = 0; i < s->n_plan_notes; i++)
        if (!strcmp(s->plan_notes[i], msg))
            return;
    s->plan_notes = xrealloc(s->plan_notes, (s->n_plan_notes + 1) * sizeof(*s->plan_notes));
    str_copy(s->plan_notes[s->n_plan_notes++], sizeof(s->plan_notes[0]), msg);
}

/* Build the groups and points of one workload. */
static int plan_workload(struct profile_session *s, unsigned p, unsigned w, char *err,
                         size_t errlen)
{
    const struct workload *base = &s->profiles[p].wls[w];
    struct wl_sweep cs = axis(&s->cfg.compress, &base->sweep_compress, base->compress_pct);
    struct wl_sweep ws = axis(&s->cfg.workers, &base->sweep_workers, base->workers);
    struct wl_sweep qs = axis(&s->cfg.qd, &base->sweep_qd, base->qd);
    for (unsigned ci = 0; ci < cs.n; ci++) {
        s->groups = xrealloc(s->groups, (s->n_groups + 1) * sizeof(*s->groups));
        struct pr_group *g = &s->groups[s->n_groups];
        memset(g, 0, sizeof(*g));
        g->profile = p;
        g->workload = w;
        g->compress = cs.v[ci];
        precondition_of(s, base, &g->pre);
        g->guard = STEADY_GUARD_DEFAULT;
        g->first_point = s->n_points;
        for (unsigned wi = 0; wi < ws.n; wi++) {
            for (unsigned qi = 0; qi < qs.n; qi++) {
                s->points = xrealloc(s->points, (s->n_points + 1) * sizeof(*s->points));
                struct pr_point *pt = &s->points[s->n_points];
                memset(pt, 0, sizeof(*pt));
                pt->group = s->n_groups;
                pt->wl = *base;
                pt->wl.compress_pct = cs.v[ci];
                pt->wl.workers = ws.v[wi];
                pt->wl.qd = qs.v[qi];
                int fit = wl_fit_sector(&pt->wl, s->target.logical_sector, pt->adapted,
                                        sizeof(pt->adapted));
                if (fit != 0) {
                    char msg[256];
                    snprintf(msg, sizeof(msg), "%s/%s on %s (%u-byte logical sectors): %s%s",
                             s->profiles[p].name, base->name, s->target.path,
                             s->target.logical_sector, pt->adapted,
                             fit < 0 ? "; its points are skipped" : "");
                    plan_note(s, msg);
                }
                if (fit < 0)
                    continue;
                if (wl_validate(&pt->wl, err, errlen) != 0 ||
                    engine_keys_check(s->engine, &pt->wl, err, errlen) != 0)
                    return -1;
                if (pt->wl.buffered)   /* one O_DIRECT descriptor for every point */
                    return errf(err, errlen, "%s: direct=0: a profile measures the device; "
                                "buffered I/O is ptsbench run's", pt->wl.source);
                if (wl_check_target_scaled(&pt->wl, s->target.capacity,
                                           s->target.logical_sector, (uint64_t)s->weight,
                                           s->target.path, &pt->range, err, errlen) != 0) {
                    char why[ERR_LEN];
                    str_copy(why, sizeof(why), err);
                    return errf(err, errlen, "profile %s, workload %s: %s", s->profiles[p].name,
                                base->name, why);
                }
                wl_note_raised(&pt->wl, &pt->range, (uint64_t)s->weight,
                               s->target.logical_sector, s->target.path);
                if (wl_writes(&pt->wl))
                    s->writes = true;
                s->n_points++;
                g->n_points++;
            }
        }
        if (!g->n_points)
            continue;   /* every point skipped: no group */
        g->range = s->points[g->first_point].range;
        if (g->pre != WL_PRECOND_NONE)
            s->writes = true;
        s->n_groups++;
    }
    return 0;
}

/* A layout (layout.h) when a group that is not preconditioned reads a file target: over the
 * span of every such group's range, decided by the shared step. 0, or -1 with err. */
static int layout_plan(struct profile_session *s, char *err, size_t errlen)
{
    s->layout = false;
    if (s->cfg.no_layout || s->cfg.resume || s->target.kind != TARGET_FILE)
        return 0;
    uint64_t start = UINT64_MAX, end = 0;
    for (unsigned g = 0; g < s->n_groups; g++) {
        const struct pr_group *gr = &s->groups[g];
        if (gr->pre != WL_PRECOND_NONE)
            continue;
        for (unsigned p = gr->first_point; p < gr->first_point + gr->n_points; p++) {
            const struct pr_point *pt = &s->points[p];
            if (pt->wl.read_pct == 0)
                continue;
            if (pt->range.start < start)
                start = pt->range.start;
            if (pt->range.start + pt->range.len > end)
                end = pt->range.start + pt->range.len;
        }
    }
    if (end <= start)
        return 0;
    s->layout_range = (struct wl_range){start, end - start};
    return step_layout_due(&s->target, &s->layout_range, s->cfg.purge != PURGE_NONE, &s->layout,
                           err, errlen);
}

/* --time-limit: the largest round limit per point (at most each point's own) with which every
 * point's rounds and ramps fit in the limit, at least one round each. */
static void time_limit_plan(struct profile_session *s)
{
    s->round_cap = 0;
    if (!s->cfg.time_limit_ns)
        return;
    const double limit = (double)s->cfg.time_limit_ns / 1e9;
    unsigned most = 1;
    for (unsigned i = 0; i < s->n_points; i++) {
        const unsigned max = max_rounds_uncut(s, s->groups[s->points[i].group].pre);
        most = max > most ? max : most;
    }
    unsigned k = most;
    for (; k > 1; k--) {
        double total = 0;
        for (unsigned i = 0; i < s->n_points; i++) {
            const struct pr_point *pt = &s->points[i];
            const unsigned max = max_rounds_uncut(s, s->groups[pt->group].pre);
            total += (double)pt->wl.ramp_ns / 1e9 +
                     (double)round_ns_of(s, &pt->wl) / 1e9 * (max < k ? max : k);
        }
        if (total <= limit)
            break;
    }
    if (k < most)
        s->round_cap = k;
}

/* --precondition fast (profile_config.fast): the request checked, the target's spare factor
 * chosen (core/fastprep.h), refused with --resume and on a whole-round engine, as run does.
 * 0, or -1 with err. */
static int fast_plan(struct profile_session *s, char *err, size_t errlen)
{
    const struct fast_request *r = &s->cfg.fast;
    if (fastprep_check(r, err, errlen) != 0)
        return -1;
    if (!r->on)
        return 0;
    if (fastprep_usable(r, s->cfg.resume != NULL, s->engine, err, errlen) != 0)
        return -1;
    return fastprep_choose(&s->target, r, &s->fast, err, errlen);
}

struct profile_session *profile_prepare(const struct profile_config *cfg, char *err,
                                        size_t errlen)
{
    struct profile_session *s = xcalloc(1, sizeof(*s));
    s->cfg = *cfg;
    s->fd = -1;
    if (!cfg->n_specs) {
        errf(err, errlen, "no profile named (e.g. ptsbench profile database --target T; "
                          "ptsbench profile --list)");
        goto fail;
    }
    if (!tracking_known(cfg->track)) {
        errf(err, errlen, "--track %s: unknown metric (e.g. iops, mb_s, lat_mean_us)", cfg->track);
        goto fail;
    }
    if (run_select_engine(cfg->engine_name, cfg->target_path, &s->engine, err, errlen) != 0)
        goto fail;
    const char *const *dirs = cfg->profile_dirs;
    for (unsigned i = 0; i < cfg->n_specs; i++) {
        if (profile_load(cfg->specs[i], dirs, &s->profiles[i], err, errlen) != 0)
            goto fail;
        s->n_profiles++;
    }
    if (cfg->create_size && cfg->target_path && sim_target_is(cfg->target_path)) {
        errf(err, errlen, "--size: a simulated drive has the capacity of its preset");
        goto fail;
    }
    if (run_probe_target(cfg->target_path, cfg->create_size, cfg->allow_memory,
                         cfg->profile_dirs, &s->target, err, errlen) != 0)
        goto fail;
    if (run_place(&cfg->numa, &s->target, &s->place, err, errlen) != 0)
        goto fail;
    s->weight = run_target_weight(&s->target);   /* the plan reads sizes in full-size bytes */
    if (fast_plan(s, err, errlen) != 0)
        goto fail;
    for (unsigned p = 0; p < s->n_profiles; p++)
        for (unsigned w = 0; w < s->profiles[p].n; w++)
            if (plan_workload(s, p, w, err, errlen) != 0)
                goto fail;
    if (!s->n_points) {
        errf(err, errlen, "nothing to run on %s: %s", s->target.path,
             s->n_plan_notes ? s->plan_notes[0] : "no points");
        goto fail;
    }
    if (cfg->resume && run_resume_same_target(cfg->resume, &s->target, err, errlen) != 0)
        goto fail;
    if (layout_plan(s, err, errlen) != 0)
        goto fail;
    time_limit_plan(s);
    if (run_check_safety(&s->target, s->writes || cfg->purge != PURGE_NONE || s->layout,
                         cfg->destructive, cfg->overwrite_signatures, err, errlen) != 0) {
        if (!s->writes && cfg->purge == PURGE_NONE)
            step_layout_refused(err, errlen);
        goto fail;
    }
    if (cfg->purge != PURGE_NONE) {
        struct purge_facts facts;
        struct purge_plan plan;
        purge_facts_collect(&s->target, &facts);
        if (purge_plan_make(&facts, cfg->purge, &plan, err, errlen) != 0)
            goto fail;
    }
    if (run_out_dir(cfg->out_dir, cfg->mark ? cfg->mark : "profile", cfg->force, s->out_dir, sizeof(s->out_dir),
                    s->results_path, sizeof(s->results_path), err, errlen) != 0)
        goto fail;
    hostinfo_collect(&s->host, s->engine->flags & ENGINE_F_WHOLE_ROUND);
    return s;
fail:
    profile_session_free(s);
    return NULL;
}

/* ------------------------------------------------------------------ plan */

static void fmt_duration(double sec, char *buf, size_t len)
{
    if (sec >= 3600)
        snprintf(buf, len, "%.1f h", sec / 3600);
    else if (sec >= 60)
        snprintf(buf, len, "%.0f min", sec / 60);
    else
        snprintf(buf, len, "%.0f s", sec);
}

static const char *profile_name_of(const struct profile_session *s, const struct pr_group *g)
{
    return s->profiles[g->profile].name;
}

static const char *workload_name_of(const struct profile_session *s, const struct pr_group *g)
{
    return s->profiles[g->profile].wls[g->workload].name;
}

/* "  time limit 30 min: rounds cut from 25 to 14 per point; steady state may not be reached" */
static void print_time_limit(const struct profile_session *s)
{
    char lim[32];
    fmt_duration((double)s->cfg.time_limit_ns / 1e9, lim, sizeof(lim));
    printf("  time limit %s%s: ", lim, s->target.sim ? " of virtual time" : "");
    if (!s->round_cap) {
        printf("the points' rounds fit; WIPC and WDPC count too, and a point they leave no "
               "time for is cut\n");
        return;
    }
    unsigned most = 1;
    bool steady = false;
    for (unsigned g = 0; g < s->n_groups; g++) {
        const unsigned max = max_rounds_uncut(s, s->groups[g].pre);
        most = max > most ? max : most;
        steady |= s->groups[g].pre == WL_PRECOND_STEADY;
    }
    const struct steady_criteria crit = STEADY_CRITERIA_SNIA;
    printf("rounds cut from %u to %u per point%s; WIPC and WDPC count too, and a point they "
           "leave no time for is cut\n", most, s->round_cap,
           !steady ? ""
           : s->round_cap < crit.window ? " (steady state cannot be reached: its window is "
                                          "longer)"
                                        : "; steady state may not be reached");
}

void profile_print_plan(const struct profile_session *s)
{
    printf("ptsbench %s profile: %u profile%s, %u workload group%s, %u point%s\n",
           PTSBENCH_VERSION, s->n_profiles, s->n_profiles == 1 ? "" : "s", s->n_groups,
           s->n_groups == 1 ? "" : "s", s->n_points, s->n_points == 1 ? "" : "s");
    run_print_target_engine(&s->target, s->engine);
    double min_s = 0, max_s = 0, ramp_s = 0;
    bool open_ended = false, wipc = false, wdpc = false;
    for (unsigned i = 0; i < s->n_points; i++)
        ramp_s += (double)s->points[i].wl.ramp_ns / 1e9;
    for (unsigned g = 0; g < s->n_groups; g++) {
        const struct pr_group *gr = &s->groups[g];
        const struct workload *wl = &s->profiles[gr->profile].wls[gr->workload];
        double r = (double)round_ns_of(s, wl) / 1e9;
        unsigned rounds = gr->pre == WL_PRECOND_STEADY ? 5 : max_rounds_of(s, gr->pre);
        if (gr->pre == WL_PRECOND_STEADY && max_rounds_of(s, gr->pre) > 5)
            open_ended = true;
        min_s += r * rounds * gr->n_points;
        max_s += r * max_rounds_of(s, gr->pre) * gr->n_points;
        wipc |= gr->pre != WL_PRECOND_NONE;
        wdpc |= gr->pre == WL_PRECOND_STEADY;
        char spec[512];
        wl_format(&s->points[gr->first_point].wl, spec, sizeof(spec));
        printf("  %-14s %-20s %3u%% compressible, %u point%s, precondition %s\n",
               profile_name_of(s, gr), workload_name_of(s, gr), gr->compress, gr->n_points,
               gr->n_points == 1 ? "" : "s", group_pre_name(s, gr));
    }
    for (unsigned i = 0; i < s->n_plan_notes; i++)
        printf("  note: %s\n", s->plan_notes[i]);
    char d[32], most[32];
    fmt_duration(min_s, d, sizeof(d));
    fmt_duration(max_s, most, sizeof(most));
    printf("  measuring %s%s%s", open_ended ? "at least " : "", d,
           s->target.sim ? " of virtual time" : "");
    if (open_ended)
        printf(", at most %s (every point to its round limit)", most);
    if (ramp_s > 0) {
        char r[32];
        fmt_duration(ramp_s, r, sizeof(r));
        printf(", plus %s of ramp (ramp_time, not recorded)", r);
    }
    if (wipc)
        printf(", plus %s (as long as the drive takes to write them)",
               s->cfg.fast.on ? (wdpc ? "the fast pass and WDPC" : "the fast pass")
                              : (wdpc ? "WIPC and WDPC" : "WIPC"));
    printf("\n");
    if (s->cfg.time_limit_ns)
        print_time_limit(s);
    if (s->target.memory_fs[0])
        printf("  memory  %s is on %s: the figures measure memory, not a drive\n",
               s->target.path, s->target.memory_fs);
    printf("  results %s\n", s->results_path);
    fflush(stdout);
}

/* ------------------------------------------------------------------ results document */


static void note(struct profile_session *s, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void note(struct profile_session *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    results_note_vadd(s->notes, fmt, ap);
    va_end(ap);
}

/* Write the document when due (forced: now); -1 when a write has failed (s->out.error). */
static int flush(struct profile_session *s, bool force)
{
    return results_out_flush(&s->out, force);
}

static struct json_object *sweep_json(const struct wl_sweep *sw)
{
    if (!sw->n)
        return NULL;
    struct json_object *a = json_object_new_array();
    for (unsigned i = 0; i < sw->n; i++)
        json_object_array_add(a, jw_int(sw->v[i]));
    return a;
}

static double wdpc_fills_of(const struct profile_session *s);
static double wdpc_max_fills_of(const struct profile_session *s);

/* The document's "time_limit" (null without --time-limit): the limit, the round limit per
 * point before and after the plan's cut, and what the limit stopped while running. */
static void time_limit_json(struct profile_session *s)
{
    if (!s->cfg.time_limit_ns) {
        jw_add(s->doc, "time_limit", NULL);
        return;
    }
    unsigned most = 1;
    for (unsigned g = 0; g < s->n_groups; g++) {
        const unsigned max = max_rounds_uncut(s, s->groups[g].pre);
        most = max > most ? max : most;
    }
    struct json_object *o = json_object_new_object();
    jw_add(o, "limit_s", jw_num((double)s->cfg.time_limit_ns / 1e9));
    jw_add(o, "clock", jw_str(s->target.sim ? "virtual" : "wall"));
    jw_add(o, "max_rounds_planned", jw_int(most));
    jw_add(o, "max_rounds", jw_int(s->round_cap ? s->round_cap : most));
    jw_add(o, "rounds_cut", json_object_new_boolean(s->round_cap != 0));
    jw_add(o, "stopped_rounds", json_object_new_boolean(s->limit_hit));
    jw_add(o, "points_cut", jw_int(s->points_cut));
    jw_add(o, "spent_s", jw_num(s->spent_s));
    jw_add(o, "cut", json_object_new_boolean(s->round_cap != 0 || s->limit_hit));
    jw_add(s->doc, "time_limit", o);
}

/* The limit reached: no round starts (it is noted once). */
static bool time_up(struct profile_session *s)
{
    if (!s->cfg.time_limit_ns || s->spent_s < (double)s->cfg.time_limit_ns / 1e9)
        return false;
    if (!s->limit_hit) {
        s->limit_hit = true;
        time_limit_json(s);
    }
    return true;
}

static void doc_start(struct profile_session *s)
{
    char now[32];
    iso8601_now(now, sizeof(now));
    s->doc = json_object_new_object();
    jw_add(s->doc, "schema", jw_str("ptsbench.profile"));
    jw_add(s->doc, "schema_version", jw_int(RESULTS_SCHEMA_VERSION));
    jw_add(s->doc, "ptsbench_version", jw_str(PTSBENCH_VERSION));
    if (s->cfg.mark)   /* the command that ran the profile (ptsbench quick), for its readers */
        jw_add(s->doc, "mark", jw_str(s->cfg.mark));
    jw_add(s->doc, "status", jw_str("running"));
    jw_add(s->doc, "started", jw_str(now));
    jw_add(s->doc, "updated", jw_str(now));
    struct json_object *cmd = json_object_new_array();
    for (int i = 0; i < s->cfg.argc; i++)
        json_object_array_add(cmd, jw_str(s->cfg.argv[i]));
    jw_add(s->doc, "command", cmd);
    jw_add(s->doc, "host", results_host_json(&s->host));
    jw_add(s->doc, "target", results_target_json(&s->target));
    jw_add(s->doc, "placement", results_placement_json(&s->place));
    struct json_object *eng = json_object_new_object();
    jw_add(eng, "name", jw_str(s->engine->name));
    jw_add(eng, "library", jw_str(s->engine->version()));
    jw_add(s->doc, "engine", eng);
    struct json_object *c = json_object_new_object();
    struct json_object *profiles = json_object_new_array();
    for (unsigned i = 0; i < s->n_profiles; i++) {
        struct json_object *p = json_object_new_object();
        jw_add(p, "name", jw_str(s->profiles[i].name));
        jw_add(p, "file", jw_str(s->profiles[i].path));
        jw_add(p, "description", jw_str(s->profiles[i].description));
        json_object_array_add(profiles, p);
    }
    jw_add(c, "profiles", profiles);
    jw_add(c, "compress_pct", sweep_json(&s->cfg.compress));
    jw_add(c, "workers", sweep_json(&s->cfg.workers));
    jw_add(c, "qd", sweep_json(&s->cfg.qd));
    const char *pre = s->cfg.fast.on ? "fast"
                      : s->cfg.precondition ? wl_precondition_name(s->cfg.precondition) : NULL;
    jw_add(c, "precondition", pre ? jw_str(pre) : NULL);
    jw_add(c, "purge", jw_str(purge_method_name(s->cfg.purge)));
    jw_add(c, "round_time_s", s->cfg.round_time_ns ? jw_num((double)s->cfg.round_time_ns / 1e9) : NULL);
    jw_add(c, "max_rounds", s->cfg.max_rounds ? jw_int(s->cfg.max_rounds) : NULL);
    jw_add(c, "track", jw_str(s->cfg.track));
    jw_add(c, "wdpc_fills", jw_num(wdpc_fills_of(s)));
    jw_add(c, "wdpc_max_fills", jw_num(wdpc_max_fills_of(s)));
    jw_add(c, "wipc", jw_str("2x the active range, sequential 128 KiB, QD 32, at the point's "
                        "compressibility"));
    jw_add(c, "saturation_fraction", jw_num(SATURATION_FRAC));
    jw_add(s->doc, "config", c);
    time_limit_json(s);
    /* How the drive is prepared: per group (groups[].wipc, groups[].wdpc); the mode here is the
     * command line's, or "per workload" when each workload's own key decides. */
    struct json_object *pc = json_object_new_object();
    jw_add(pc, "mode", jw_str(s->cfg.fast.on ? "fast"
                              : s->cfg.precondition ? wl_precondition_name(s->cfg.precondition)
                                                    : "per workload"));
    jw_add(pc, "purge", NULL);
    jw_add(pc, "wipc", NULL);   /* per group: groups[].wipc */
    jw_add(pc, "per_group", jw_str("groups[].wipc and groups[].wdpc: each group's WIPC and WDPC"));
    struct json_object *wd = json_object_new_object();
    const struct steady_guard guard = STEADY_GUARD_DEFAULT;
    jw_add(wd, "min_fills", jw_num(wdpc_fills_of(s)));
    jw_add(wd, "max_fills", jw_num(wdpc_max_fills_of(s)));
    jw_add(wd, "guard_lag_fills", jw_num(guard.lag_fills));
    jw_add(wd, "guard_band_pct", jw_num(100 * guard.band_frac));
    jw_add(pc, "wdpc", wd);
    jw_add(s->doc, "preconditioning", pc);
    s->notes = json_object_new_array();
    jw_add(s->doc, "notes", s->notes);
    if (s->target.memory_fs[0])   /* --allow-memory-target */
        note(s, "%s is on %s: the figures measure memory, not a drive", s->target.path,
             s->target.memory_fs);
    for (unsigned i = 0; i < s->n_plan_notes; i++)
        json_object_array_add(s->notes, jw_str(s->plan_notes[i]));
    s->groups_json = json_object_new_array();
    jw_add(s->doc, "groups", s->groups_json);
    s->points_json = json_object_new_array();
    jw_add(s->doc, "points", s->points_json);
    jw_add(s->doc, "saturation", json_object_new_array());
}

static struct json_object *result_json(const struct pr_result *r)
{
    struct json_object *o = json_object_new_object();
    jw_add(o, "steady", json_object_new_boolean(r->steady));
    jw_add(o, "measured_state", jw_str(ds_measured_name(r->verdict.measured)));
    jw_add(o, "label", jw_str(r->verdict.label));
    jw_add(o, "reason", r->verdict.reason[0] ? jw_str(r->verdict.reason) : NULL);
    struct json_object *win = json_object_new_array();
    json_object_array_add(win, jw_int(r->first_round));
    json_object_array_add(win, jw_int(r->last_round));
    jw_add(o, "rounds", win);
    results_figures_add(o, &r->read, &r->write, &r->total);
    results_depth_add(o, &r->depth);
    if (r->gap[0])
        jw_add(o, "gap", jw_str(r->gap));
    if (r->data.present)
        jw_add(o, "data", data_measure_json(&r->data));
    return o;
}

/* A finished series' saturation point (saturation.h): its group, worker count, the point
 * index of the saturation and that of the maximum. */
struct series_sat {
    const struct pr_group *group;
    unsigned workers, n, point;
    double max_eqd;
    struct saturation sat;
};
typedef void (*series_sat_fn)(const struct profile_session *s, const struct series_sat *ss,
                              void *arg);

/* One worker count of group gr, from its first point a: its saturation, false when the series
 * is unfinished, has fewer than two queue depths or none saturates. */
static bool series_saturation(const struct profile_session *s, const struct pr_group *gr,
                              unsigned a, struct saturation_point *sp, unsigned *idx,
                              struct series_sat *out)
{
    const unsigned workers = s->points[a].wl.workers;
    size_t n = 0;
    for (unsigned b = a; b < gr->first_point + gr->n_points; b++) {
        const struct pr_point *pt = &s->points[b];
        if (pt->wl.workers != workers)
            continue;
        if (!pt->res.done)
            return false;
        sp[n] = (struct saturation_point){(double)pt->wl.workers * pt->wl.qd,
                                          pt->res.total.iops, pt->res.total.lat.mean_us,
                                          pt->res.total.lat.pct_us[METRICS_P99]};
        idx[n++] = b;
    }
    struct saturation sat;
    if (n < 2 || saturation_find(sp, n, SATURATION_FRAC, &sat) != 0 || !sat.found)
        return false;
    *out = (struct series_sat){.group = gr, .workers = workers, .n = (unsigned)n,
                               .point = idx[sat.index], .max_eqd = sp[sat.max_index].eqd,
                               .sat = sat};
    return true;
}

/* fn for the saturation point of every finished series (workload, compressibility, worker
 * count) with at least two queue depths. */
static void each_saturation(const struct profile_session *s, series_sat_fn fn, void *arg)
{
    struct saturation_point *sp = xcalloc(s->n_points ? s->n_points : 1, sizeof(*sp));
    unsigned *idx = xcalloc(s->n_points ? s->n_points : 1, sizeof(*idx));
    for (unsigned g = 0; g < s->n_groups; g++) {
        const struct pr_group *gr = &s->groups[g];
        for (unsigned a = gr->first_point; a < gr->first_point + gr->n_points; a++) {
            bool first = true;   /* handle each worker count once, at its first point */
            for (unsigned b = gr->first_point; b < a && first; b++)
                first = s->points[b].wl.workers != s->points[a].wl.workers;
            struct series_sat ss;
            if (first && series_saturation(s, gr, a, sp, idx, &ss))
                fn(s, &ss, arg);
        }
    }
    free(sp);
    free(idx);
}

static void saturation_json(const struct profile_session *s, const struct series_sat *ss,
                            void *arg)
{
    struct json_object *o = json_object_new_object();
    jw_add(o, "profile", jw_str(profile_name_of(s, ss->group)));
    jw_add(o, "workload", jw_str(workload_name_of(s, ss->group)));
    jw_add(o, "compress_pct", jw_int(ss->group->compress));
    jw_add(o, "workers", jw_int(ss->workers));
    jw_add(o, "points", jw_int((int64_t)ss->n));
    jw_add(o, "max_iops", jw_num(ss->sat.max_iops));
    jw_add(o, "max_iops_effective_qd", jw_num(ss->max_eqd));
    jw_add(o, "effective_qd", jw_num(ss->sat.eqd));
    jw_add(o, "qd", jw_int(s->points[ss->point].wl.qd));
    jw_add(o, "iops", jw_num(ss->sat.iops));
    jw_add(o, "lat_mean_us", jw_num(ss->sat.lat_mean_us));
    jw_add(o, "lat_p99_us", jw_num(ss->sat.lat_p99_us));
    jw_add(o, "point", jw_int(ss->point));
    json_object_array_add(arg, o);
}

/* The document's "saturation": every finished series' saturation point. */
static void saturation_update(struct profile_session *s)
{
    struct json_object *arr = json_object_new_array();
    each_saturation(s, saturation_json, arr);
    jw_add(s->doc, "saturation", arr);
}

/* ------------------------------------------------------------------ measuring */

/* "database 90% 4x32" */
static void point_label(const struct profile_session *s, const struct pr_point *pt, char *buf,
                        size_t len)
{
    const struct pr_group *g = &s->groups[pt->group];
    const struct profile *p = &s->profiles[g->profile];
    if (p->n > 1 || strcmp(p->name, workload_name_of(s, g)) != 0)
        snprintf(buf, len, "%s/%s %u%% %ux%u", p->name, workload_name_of(s, g), g->compress,
                 pt->wl.workers, pt->wl.qd);
    else
        snprintf(buf, len, "%s %u%% %ux%u", p->name, g->compress, pt->wl.workers, pt->wl.qd);
}

/* The shared steps' view of the session (core/steps.h). */
static struct run_ctx ctx_of(struct profile_session *s)
{
    return (struct run_ctx){&s->target, s->fd, s->out_dir, s->engine, s->weight, &s->sim_last,
                            &s->state, s->stop, isatty(STDOUT_FILENO) && !s->cfg.quiet};
}

/* --precondition fast, a steady group: the fast pass in WIPC's place (core/fastprep.h), in its
 * first point's write size, on max(its workers, 4) threads x QD 32, at the group's
 * compressibility; its points' random map off unless they name it; its record is the group's
 * "fast", its lag the group's guard and WDPC floor (for a random-writing stimulus only). */
static int fast_group(struct profile_session *s, struct pr_group *g, struct run_ctx *ctx,
                      char *err, size_t errlen)
{
    bool map_off = false;
    for (unsigned i = g->first_point; i < g->first_point + g->n_points; i++)
        map_off |= fastprep_stimulus_map(&s->points[i].wl);
    const struct workload *wl = &s->points[g->first_point].wl;
    g->wdpc_fills = wdpc_fills_of(s);
    struct fastprep_pass p = {.range = g->range, .workers = wl->workers,
                              .compress_pct = g->compress, .seed = 48,
                              .guard_lag = fastprep_models(wl),
                              .stimulus_map = fastprep_map_said(wl, map_off),
                              .wdpc_min_fills = &g->wdpc_fills,
                              .wdpc_given = s->cfg.wdpc_fills >= 0};
    p.unit = fastpass_unit_of(wl, g->range.start, &p.unit_basis);
    char who[160] = "";
    if (!s->cfg.quiet && g->first_point >= s->replay_points) {
        if (flush(s, true) != 0)
            return errf(err, errlen, "%s", s->out.error);
        snprintf(who, sizeof(who), "%s/%s %u%%: ", profile_name_of(s, g), workload_name_of(s, g),
                 g->compress);
        p.who = who;
    }
    struct json_object *json = NULL;
    double elapsed = 0;
    if (fastprep_run(ctx, &s->fast, &p, &g->guard, &json, &elapsed, err, errlen) != 0)
        return -1;
    s->spent_s += elapsed;
    jw_add(g->json, "fast", json);
    return flush(s, true) == 0 ? 0 : errf(err, errlen, "%s", s->out.error);
}

/* WIPC for a group: its active range written PRECOND_WIPC_FILLS times, sequential 128 KiB, at
 * the group's compressibility (the fast pass instead for a steady group under
 * --precondition fast: fast_group). */
static int precondition_group(struct profile_session *s, struct pr_group *g, char *err,
                              size_t errlen)
{
    struct run_ctx ctx = ctx_of(s);
    ctx.live = ctx.live && g->first_point >= s->replay_points;   /* replays are quiet */
    if (s->cfg.fast.on && g->pre == WL_PRECOND_STEADY) {
        s->state.active_bytes = (double)g->range.len * s->weight;
        return fast_group(s, g, &ctx, err, errlen);
    }
    struct wipc_spec w = WIPC_SPEC_DEFAULT(g->range, g->compress);
    if (!s->cfg.quiet && g->first_point >= s->replay_points) {
        char b[32];
        units_format_size(step_wipc_bytes(&ctx, &w), b, sizeof(b));
        if (flush(s, true) != 0)   /* what is reported done is in the file before this line */
            return errf(err, errlen, "%s", s->out.error);
        printf("%s/%s %u%%: WIPC, %s of sequential 128 KiB writes (%ux the active range)%s\n",
               profile_name_of(s, g), workload_name_of(s, g), g->compress, b,
               PRECOND_WIPC_FILLS, s->target.sim ? " on the simulated drive" : "");
        fflush(stdout);
    }
    s->state.active_bytes = (double)g->range.len * s->weight;
    struct round_metrics m;
    struct json_object *json;
    int ret = step_wipc(&ctx, &w, &m, &json, err, errlen);
    if (ret != 0)
        return -1;
    s->spent_s += m.elapsed_s;
    jw_add(g->json, "wipc", json);
    metrics_free(&m);
    return flush(s, true) == 0 ? 0 : errf(err, errlen, "%s", s->out.error);
}

/* One direction over rounds [a, b]: ios and bytes summed, iops, mb_s and mib_s the rounds'
 * means, the latency's mean weighted by I/Os, min and max the extremes, count and percentiles
 * from the rounds' (their percentiles weighted by the counts: the directions' histograms are not
 * kept; total's are replaced by the merged histogram's). */
static void window_dir(const struct round_metrics *r, unsigned a, unsigned b, int dir,
                       struct dir_metrics *out)
{
    memset(out, 0, sizeof(*out));
    const double n = (double)(b - a + 1);
    double ios = 0, lat = 0, cnt = 0, pct[METRICS_NPCT] = {0};
    for (unsigned i = a; i <= b; i++) {
        const struct dir_metrics *d = dir == 0 ? &r[i - 1].read
                                      : dir == 1 ? &r[i - 1].write : &r[i - 1].total;
        out->iops += d->iops / n;
        out->mb_s += d->mb_s / n;
        out->mib_s += d->mib_s / n;
        out->ios += d->ios;
        out->bytes += d->bytes;
        ios += (double)d->ios;
        lat += d->ios ? d->lat.mean_us * (double)d->ios : 0;
        if (!d->lat.count)
            continue;
        if (!out->lat.count || d->lat.min_us < out->lat.min_us)
            out->lat.min_us = d->lat.min_us;
        if (d->lat.max_us > out->lat.max_us)
            out->lat.max_us = d->lat.max_us;
        out->lat.count += d->lat.count;
        cnt += (double)d->lat.count;
        for (int p = 0; p < METRICS_NPCT; p++)
            pct[p] += d->lat.pct_us[p] * (double)d->lat.count;
    }
    out->lat.mean_us = ios ? lat / ios : NAN;
    for (int p = 0; p < METRICS_NPCT; p++)
        out->lat.pct_us[p] = cnt ? pct[p] / cnt : NAN;
}

/* The point's figures over rounds [a, b] (1-based, inclusive). */
static void point_result(const struct profile_session *s, const struct round_metrics *r,
                         unsigned a, unsigned b, bool steady, struct pr_result *out)
{
    memset(out, 0, sizeof(*out));
    out->done = true;
    out->steady = steady;
    out->first_round = a;
    out->last_round = b;
    window_dir(r, a, b, 0, &out->read);
    window_dir(r, a, b, 1, &out->write);
    window_dir(r, a, b, 2, &out->total);
    struct hist h;
    hist_init(&h);
    double t = 0, area = 0;
    for (unsigned i = a; i <= b; i++) {
        const struct round_metrics *m = &r[i - 1];
        out->depth = m->depth;   /* declared, how, at_end: the last round's */
        if (m->gap[0] && !out->gap[0])
            snprintf(out->gap, sizeof(out->gap), "round %u %s", i, m->gap);
        t += m->elapsed_s;
        area += m->depth.mean * m->elapsed_s;
        hist_merge(&h, &m->lat_total);
        if (m->data.present) {
            if (!out->data.present)
                out->data = m->data;
            else
                data_measure_merge(&out->data, &m->data);
        }
    }
    out->depth.mean = t > 0 ? area / t : 0;
    /* every I/O of the window: count, min and percentiles from the merged histogram; the mean
     * weighted by I/Os and the largest of the rounds' maxima, as the rounds give them */
    const double mean = out->total.lat.mean_us, max = out->total.lat.max_us;
    lat_summary_from_hist(&h, s->weight, &out->total.lat);
    if (out->total.lat.count) {
        out->total.lat.mean_us = mean;
        out->total.lat.max_us = max;
    }
}

static void print_round(struct profile_session *s, const struct pr_point *pt,
                        const struct round_metrics *m, unsigned max, const char *state)
{
    char label[160], iops[32], mean[32], p99[32], mb[32];
    point_label(s, pt, label, sizeof(label));
    units_format_figure(m->total.iops, UNITS_FIG_IOPS, iops, sizeof(iops));
    units_format_figure(m->total.mb_s, UNITS_FIG_MBS, mb, sizeof(mb));
    units_format_lat(m->total.lat.mean_us, UNITS_TEXT, mean, sizeof(mean));
    units_format_pct(m->total.lat.pct_us[METRICS_P99], m->total.lat.count, UNITS_TEXT, p99,
                     sizeof(p99));
    char qd[256];   /* the depth not kept (metrics.h) */
    metrics_depth_text(&m->depth, qd, sizeof(qd));
    results_out_say(&s->out,
                    "  %-32s round %2u/%u  IOPS %s%s  %s MB/s  lat mean %s p99 %s  %s%s%s%s",
                    label, m->round, max, iops, s->target.sim ? " (simulated)" : "", mb, mean,
                    p99, state, *qd ? "  " : "", qd,
                    m->thermal.throttled == THERMAL_YES ? "  throttled" : "");   /* thermal_rounds.h */
}

static void print_point(struct profile_session *s, const struct pr_point *pt)
{
    char label[160], iops[32], mean[32], p99[32], mb[32];
    point_label(s, pt, label, sizeof(label));
    const struct pr_result *r = &pt->res;
    units_format_figure(r->total.iops, UNITS_FIG_IOPS, iops, sizeof(iops));
    units_format_figure(r->total.mb_s, UNITS_FIG_MBS, mb, sizeof(mb));
    units_format_lat(r->total.lat.mean_us, UNITS_TEXT, mean, sizeof(mean));
    units_format_pct(r->total.lat.pct_us[METRICS_P99], r->total.lat.count, UNITS_TEXT, p99,
                     sizeof(p99));
    char how[480];
    if (r->steady)
        snprintf(how, sizeof(how), "steady state, rounds %u-%u", r->first_round, r->last_round);
    else
        snprintf(how, sizeof(how), "%s, rounds %u-%u of %u", r->verdict.label, r->first_round,
                 r->last_round, r->rounds_run);
    results_out_say(&s->out, "%s (effective QD %u): %s IOPS%s, %s MB/s, lat mean %s, p99 %s; %s",
                    label, pt->wl.workers * pt->wl.qd, iops, s->target.sim ? " (simulated)" : "",
                    mb, mean, p99, how);
}

static double wdpc_fills_of(const struct profile_session *s)
{
    return s->cfg.wdpc_fills < 0 ? PRECOND_WDPC_MIN_FILLS : s->cfg.wdpc_fills;
}

/* Group g's WDPC floor: the fast pass's (fastprep_wdpc_floor), else the session's. */
static double group_wdpc_fills(const struct profile_session *s, const struct pr_group *g)
{
    return g->wdpc_fills > 0 ? g->wdpc_fills : wdpc_fills_of(s);
}

static double wdpc_max_fills_of(const struct profile_session *s)
{
    double max = s->cfg.wdpc_max_fills > 0 ? s->cfg.wdpc_max_fills : PRECOND_WDPC_MAX_FILLS;
    return max < wdpc_fills_of(s) ? wdpc_fills_of(s) : max;
}

/* One round of the open pool into *m, with the drive's state. 0, 1 interrupted, -1 error. */
static int point_round(struct profile_session *s, struct worker_pool *pool,
                       const struct round_limits *lim, bool as_wdpc, unsigned index,
                       struct round_metrics *m, char *err, size_t errlen)
{
    if (*s->stop)
        return 1;
    /* a terminal: the live line inside the round, at least once a second (live.h), as run's;
     * replayed points are quiet */
    const bool live = isatty(STDOUT_FILENO) && !s->cfg.quiet && index >= s->replay_points;
    struct live_meter lm = {.length_s = (double)lim->time_ns / 1e9,
                            .target_bytes = (double)lim->bytes * s->weight,
                            .weight = s->weight, .sim = s->target.sim != NULL};
    snprintf(lm.prefix, sizeof(lm.prefix), "  %s", lim->label ? lim->label : "round");
    worker_pool_set_progress(pool, live ? live_meter_hook : NULL, &lm);
    const int rr = worker_pool_round(pool, lim, err, errlen);
    worker_pool_set_progress(pool, NULL, NULL);
    if (live && lm.printed)
        live_clear();
    if (rr != 0)
        return -1;
    if (*s->stop)   /* cut short: not recorded */
        return 1;
    run_pool_metrics(pool, NS_PER_S, s->weight, m);
    s->spent_s += m->elapsed_s;
    /* metrics.h: the minimum; a profile records a labelled gap and goes on (a sweep's largest
     * size may not complete in a short round: the plot draws no figure there) */
    if (metrics_too_few(m, 0, m->gap, sizeof(m->gap)) && !s->cfg.quiet)
        results_out_say(&s->out, "  %s: gap: %s", lim->label ? lim->label : "round", m->gap);
    run_device_round(&s->target, s->weight, &s->sim_last, m);
    const struct pr_point *pt = &s->points[index];
    if (!m->unwritten.present)   /* the simulated drive counts them; others: the range */
        ds_reads_estimate(&s->state, (double)m->read.bytes, &m->unwritten);
    ds_write(&s->state, (double)m->write.bytes, as_wdpc);
    ds_cover(&s->state, (double)m->write.bytes, run_cover_kind(&pt->wl));
    if (m->write.bytes && s->state.content == DS_CONTENT_EXTENTS &&
        run_probe_content(s->fd, &pt->range, s->weight, &s->state, err, errlen) != 0)
        return -1;
    m->state = s->state;
    return 0;
}

/* WDPC: the point's stimulus, on its open pool, in rounds of round_ns recorded (compactly) with
 * the group but not judged, until it has written at least wdpc_fills x the active range and the
 * fill guard passes on its latest window, or it has written wdpc_max_fills. The rounds' tracked
 * values and fills go into *tk, so the measured rounds' guard can look back into them. Returns
 * 0, 1 when interrupted, -1 on error. */
static int wdpc(struct profile_session *s, struct pr_point *pt, struct worker_pool *pool,
                uint64_t round_ns, struct precond_track *tk, char *err, size_t errlen)
{
    struct pr_group *g = &s->groups[pt->group];
    const struct steady_criteria crit = STEADY_CRITERIA_SNIA;
    const struct steady_guard guard = g->guard;
    struct json_object *w = json_object_new_object();
    jw_add(w, "min_fills", jw_num(group_wdpc_fills(s, g)));
    jw_add(w, "max_fills", jw_num(wdpc_max_fills_of(s)));
    jw_add(w, "point", jw_int(pt - s->points));
    jw_add(w, "workers", jw_int(pt->wl.workers));
    jw_add(w, "qd", jw_int(pt->wl.qd));
    struct json_object *rounds = json_object_new_array();
    jw_add(w, "rounds", rounds);
    jw_add(g->json, "wdpc", w);
    double written = 0;
    unsigned n = 0;
    const char *end = "";
    char art[48];
    snprintf(art, sizeof(art), "point-%03u-wdpc", (unsigned)(pt - s->points));
    struct round_limits lim = {.time_ns = round_ns, .sample_ns = NS_PER_S, .label = art};
    int ret = 0;
    while (!*end) {
        if (time_up(s)) {
            ret = 2;
            break;
        }
        struct round_metrics m;
        ret = point_round(s, pool, &lim, true, (unsigned)(pt - s->points), &m, err, errlen);
        if (ret != 0)
            break;
        if (m.write.bytes == 0) {
            metrics_free(&m);
            ret = -1;
            errf(err, errlen, "%s/%s: WDPC wrote nothing in a round", profile_name_of(s, g),
                 workload_name_of(s, g));
            break;
        }
        written += (double)m.write.bytes;
        n++;
        const double fills = written / ((double)pt->range.len * s->weight);
        double v = NAN;
        metrics_value(&m, s->cfg.track, &v);
        precond_track_push(tk, v, fills);
        struct steady_window win;
        struct steady_guard_result gr;
        bool ok = precond_track_eval(tk, 1, &crit, &guard, &win, &gr);
        end = precond_wdpc_end(fills, group_wdpc_fills(s, g), wdpc_max_fills_of(s), ok);
        struct json_object *r = json_object_new_object();
        jw_add(r, "round", jw_int(n));
        jw_add(r, "iops", jw_num(m.total.iops));
        jw_add(r, "write_iops", jw_num(m.write.iops));
        jw_add(r, "mb_s", jw_num(m.total.mb_s));
        jw_add(r, "lat_mean_us", jw_num(m.total.lat.mean_us));
        jw_add(r, "written_fills", jw_num(fills));
        if (gr.evaluated)
            jw_add(r, "guard_deviation_pct", jw_num(100 * gr.max_deviation));
        if (m.device.present)
            jw_add(r, "write_amplification", jw_num(m.device.wa_round));
        jw_add(r, "state", results_state_json(&m.state));
        json_object_array_add(rounds, r);
        if (!s->cfg.quiet && (unsigned)(pt - s->points) >= s->replay_points) {
            char label[160], iops[32], gtxt[64] = "";
            point_label(s, pt, label, sizeof(label));
            units_format_figure(m.total.iops, UNITS_FIG_IOPS, iops, sizeof(iops));
            if (gr.evaluated)
                snprintf(gtxt, sizeof(gtxt), "; fill guard %.1f%% (<= %.0f%%)",
                         100 * gr.max_deviation, 100 * guard.band_frac);
            results_out_say(&s->out, "  %-32s WDPC %3u  IOPS %s%s  written %.2f fills (%g..%g)%s",
                            label, n, iops, s->target.sim ? " (simulated)" : "", fills,
                            group_wdpc_fills(s, g), wdpc_max_fills_of(s), gtxt);
        }
        metrics_free(&m);
        if (flush(s, false) != 0) {
            ret = -1;
            errf(err, errlen, "%s", s->out.error);
            break;
        }
    }
    jw_add(w, "written_bytes", jw_num(written));
    jw_add(w, "fills", jw_num(written / ((double)pt->range.len * s->weight)));
    jw_add(w, "ended", *end ? jw_str(end)
                            : jw_str(ret == 2 ? "time_limit" : ret > 0 ? "interrupted" : "failed"));
    jw_add(w, "complete", json_object_new_boolean(ret == 0));
    if (ret == 0) {
        g->wdpc_end = end;
        g->wdpc_point = (unsigned)(pt - s->points);
    }
    return ret;
}

static void point_header_json(struct profile_session *s, unsigned index, uint64_t round_ns)
{
    struct pr_point *pt = &s->points[index];
    const struct pr_group *g = &s->groups[pt->group];
    pt->json = json_object_new_object();
    char spec[512];
    wl_format(&pt->wl, spec, sizeof(spec));
    jw_add(pt->json, "index", jw_int(index));
    jw_add(pt->json, "profile", jw_str(profile_name_of(s, g)));
    jw_add(pt->json, "workload", jw_str(workload_name_of(s, g)));
    jw_add(pt->json, "description", jw_str(pt->wl.description));
    jw_add(pt->json, "compress_pct", jw_int(g->compress));
    jw_add(pt->json, "workers", jw_int(pt->wl.workers));
    jw_add(pt->json, "qd", jw_int(pt->wl.qd));
    jw_add(pt->json, "effective_qd", jw_int((int64_t)pt->wl.workers * pt->wl.qd));
    jw_add(pt->json, "precondition", jw_str(group_pre_name(s, g)));
    jw_add(pt->json, "measure", jw_str(g->pre == WL_PRECOND_STEADY ? "steady" : "fixed"));
    jw_add(pt->json, "spec", jw_str(spec));
    jw_add(pt->json, "stimulus", results_workload_json(&pt->wl, NULL));   /* as a run's "workload" */
    if (pt->adapted[0])
        jw_add(pt->json, "adapted", jw_str(pt->adapted));
    jw_add(pt->json, "round_time_s", jw_num((double)round_ns / 1e9));
    jw_add(pt->json, "status", jw_str("running"));
    jw_add(pt->json, "rounds", json_object_new_array());
    json_object_array_add(s->points_json, pt->json);
}

/* The verdict of a point: what its window (or its fixed rounds) may be called. */
static void point_verdict(const struct profile_session *s, const struct pr_point *pt,
                          bool rule_ok, bool guarded, const struct steady_guard_result *gr,
                          unsigned rounds, struct ds_verdict *v)
{
    const struct pr_group *g = &s->groups[pt->group];
    const struct steady_guard guard = g->guard;
    const bool writes = wl_writes(&pt->wl);
    if (g->pre == WL_PRECOND_STEADY) {
        struct steady_guard_result inherited;
        const struct steady_guard_result *use = guarded ? gr : NULL;
        if (writes && !guarded) {   /* a later point of the group: its WDPC's verdict */
            memset(&inherited, 0, sizeof(inherited));
            inherited.evaluated = g->wdpc_done;
            inherited.passed = g->wdpc_end && !strcmp(g->wdpc_end, "guard");
            inherited.max_deviation = inherited.passed ? 0 : 1;
            use = &inherited;
        }
        ds_judge(s->cfg.fast.on ? DS_PREP_FAST : DS_PREP_STEADY, writes, rule_ok, use, &guard,
                 rounds, v);
        if (writes && !guarded && !use->passed)
            snprintf(v->reason, sizeof(v->reason), "the group's WDPC (point %u) ended at its "
                     "maximum of %g fills while the drive was still changing", g->wdpc_point,
                     wdpc_max_fills_of(s));
        return;
    }
    /* fixed rounds: their average, not a window */
    memset(v, 0, sizeof(*v));
    v->measured = g->pre == WL_PRECOND_WIPC ? DS_M_WIPC : DS_M_BURST;
    snprintf(v->label, sizeof(v->label), "%s",
             g->pre == WL_PRECOND_WIPC ? "burst after WIPC (fixed rounds)"
                                       : "burst (not preconditioned, fixed rounds)");
    snprintf(v->reason, sizeof(v->reason), "%s", g->pre == WL_PRECOND_WIPC
             ? "fixed rounds after WIPC: not measured to steady state"
             : "fixed rounds on a drive that was not preconditioned");
}

/* A measured point's verdict, window and figures into its JSON: the steady window (or the last
 * 5 rounds) of its n rounds r, renumbered from the tracker's rounds (WDPC rounds first) to the
 * point's own. */
static void point_record(struct profile_session *s, struct pr_point *pt,
                         const struct round_metrics *r, unsigned n, unsigned steady_round,
                         const struct steady_window *last_win,
                         const struct steady_guard_result *last_gr, bool guarded,
                         unsigned first_measure, unsigned max)
{
    const struct pr_group *g = &s->groups[pt->group];
    const struct steady_criteria crit = STEADY_CRITERIA_SNIA;
    const struct steady_guard guard = g->guard;
    unsigned a = 1, b = n;
    if (g->pre == WL_PRECOND_STEADY) {
        b = steady_round ? steady_round : n;
        a = b >= crit.window ? b - crit.window + 1 : 1;
        struct steady_window pw = *last_win;
        if (pw.last_round) {
            pw.first_round = a;
            pw.last_round = b;
            pw.intercept += pw.slope * (double)(first_measure - 1);
        }
        point_verdict(s, pt, pw.steady && pw.last_round, guarded, last_gr, n, &pt->res.verdict);
        struct steady_criteria rec_crit = crit;
        rec_crit.max_rounds = max;
        struct json_object *ss = results_steady_json(&pw, pt->res.verdict.steady ? b : 0,
                                                     &rec_crit, s->cfg.track, n);
        jw_add(ss, "track", results_track_json(s->cfg.track, 0, -1));
        results_verdict_json(ss, &pt->res.verdict, guarded ? last_gr : NULL,
                             guarded ? &guard : NULL);
        if (!guarded && wl_writes(&pt->wl))
            jw_add(ss, "guard_inherited_from_point", jw_int(g->wdpc_point));
        jw_add(pt->json, "steady_state", ss);
        if (!pt->res.verdict.steady)
            note(s, "%s/%s %u%% %ux%u: not steady state (%s); rounds %u-%u are reported",
                 profile_name_of(s, g), workload_name_of(s, g), g->compress, pt->wl.workers,
                 pt->wl.qd, pt->res.verdict.reason[0] ? pt->res.verdict.reason
                                                      : pt->res.verdict.label, a, b);
    } else {
        point_verdict(s, pt, false, false, NULL, n, &pt->res.verdict);
    }
    /* reads of never-written space in the reported rounds (drive_state.h) */
    if (metrics_judge_unwritten(r, n, a, b, &pt->res.verdict) >= DS_UNWRITTEN_LABEL_SHARE) {
        struct json_object *ss = json_object_object_get(pt->json, "steady_state");
        if (ss)
            results_verdict_json(ss, &pt->res.verdict, NULL, NULL);
        note(s, "%s/%s %u%% %ux%u: %s", profile_name_of(s, g), workload_name_of(s, g),
             g->compress, pt->wl.workers, pt->wl.qd, pt->res.verdict.label);
    }
    struct ds_verdict keep = pt->res.verdict;
    point_result(s, r, a, b, keep.steady, &pt->res);
    pt->res.verdict = keep;
    pt->res.rounds_run = n;
    jw_add(pt->json, "result", result_json(&pt->res));
    jw_add(pt->json, "state", results_state_json(&s->state));
    jw_add(pt->json, "status", jw_str("complete"));
}

/* ramp_time: the point's stimulus before its first round, not recorded (what it writes counts
 * for the drive's state). 0, 1 interrupted, -1 error. */
static int point_ramp(struct profile_session *s, unsigned index, struct worker_pool *pool,
                      char *err, size_t errlen)
{
    struct pr_point *pt = &s->points[index];
    if (!pt->wl.ramp_ns || time_up(s))
        return 0;
    char art[48];
    snprintf(art, sizeof(art), "point-%03u-ramp", index);
    struct round_limits lim = {.time_ns = pt->wl.ramp_ns, .sample_ns = NS_PER_S, .label = art};
    struct round_metrics m;
    int ret = point_round(s, pool, &lim, false, index, &m, err, errlen);
    if (ret != 0)
        return ret;
    jw_add(pt->json, "ramp_s", jw_num(m.elapsed_s));
    metrics_free(&m);
    return 0;
}

/* A point the time limit left no round for, or whose WDPC it stopped: recorded as cut. */
static void point_cut(struct profile_session *s, struct pr_point *pt, const char *when)
{
    const struct pr_group *g = &s->groups[pt->group];
    jw_add(pt->json, "status", jw_str("cut"));
    s->points_cut++;
    note(s, "%s/%s %u%% %ux%u: not measured: the time limit was reached %s",
         profile_name_of(s, g), workload_name_of(s, g), g->compress, pt->wl.workers, pt->wl.qd,
         when);
    if (!s->cfg.quiet && (unsigned)(pt - s->points) >= s->replay_points) {
        char label[160];
        point_label(s, pt, label, sizeof(label));
        results_out_say(&s->out, "%s: not measured: the time limit was reached %s", label, when);
    }
}

/* The state column of a steady point's round line: "steady (rounds 3-7)", "window 2/5", ... */
static void round_state_text(unsigned n, unsigned steady_round, const struct steady_window *win,
                             const struct steady_guard_result *gr, char *buf, size_t len)
{
    const struct steady_criteria crit = STEADY_CRITERIA_SNIA;
    const struct steady_guard guard = STEADY_GUARD_DEFAULT;
    if (steady_round)
        snprintf(buf, len, "steady (rounds %u-%u)", n - crit.window + 1, n);
    else if (n < crit.window)
        snprintf(buf, len, "window %u/%u", n, crit.window);
    else if (win->steady)
        snprintf(buf, len, "flat, fill guard %.1f%% > %.0f%%", 100 * gr->max_deviation,
                 100 * guard.band_frac);
    else
        snprintf(buf, len, "not steady yet");
}

/* One point: rounds of its stimulus (to steady state, or a fixed number). Returns 0, 1 when
 * interrupted, -1 on error. */
static int run_point(struct profile_session *s, unsigned index, char *err, size_t errlen)
{
    struct pr_point *pt = &s->points[index];
    struct pr_group *g = &s->groups[pt->group];
    const unsigned max = max_rounds_of(s, g->pre);
    const uint64_t round_ns = round_ns_of(s, &pt->wl);
    const struct steady_criteria crit = STEADY_CRITERIA_SNIA;
    const struct steady_guard guard = g->guard;

    point_header_json(s, index, round_ns);
    if (time_up(s)) {
        point_cut(s, pt, "before its first round");
        return 0;
    }
    struct json_object *rounds_json = json_object_object_get(pt->json, "rounds");
    struct engine_config base;
    char artifacts[4200];
    run_engine_base(&s->target, s->fd, s->out_dir, artifacts, sizeof(artifacts), &base);
    struct worker_pool *pool = worker_pool_start(&pt->wl, s->engine, &base, &pt->range, s->stop,
                                                 err, errlen);
    if (!pool)
        return -1;
    ds_stimulus(&s->state);
    const int rr = point_ramp(s, index, pool, err, errlen);
    if (rr != 0) {
        worker_pool_stop(pool);
        jw_add(pt->json, "status", jw_str(rr > 0 ? "interrupted" : "failed"));
        return rr;
    }
    struct precond_track tk = {0};
    /* The group's first writing point preconditions it (WDPC) and is judged with the guard. */
    const bool guarded = g->pre == WL_PRECOND_STEADY && !g->wdpc_done && wl_writes(&pt->wl);
    if (guarded) {
        int w = wdpc(s, pt, pool, round_ns, &tk, err, errlen);
        if (w != 0) {
            worker_pool_stop(pool);
            precond_track_free(&tk);
            if (w == 2) {
                point_cut(s, pt, "during its WDPC");
                return 0;
            }
            jw_add(pt->json, "status", jw_str(w > 0 ? "interrupted" : "failed"));
            return w;
        }
        g->wdpc_done = true;
    }
    const unsigned first_measure = tk.n + 1;
    const double fills0 = tk.n ? tk.fills[tk.n - 1] : 0;
    double written = 0;
    struct round_metrics *r = xcalloc(max, sizeof(*r));
    unsigned n = 0, steady_round = 0;
    struct steady_window win, last_win;
    struct steady_guard_result gr, last_gr;
    memset(&last_win, 0, sizeof(last_win));
    memset(&last_gr, 0, sizeof(last_gr));
    int ret = 0;
    char art[48];
    snprintf(art, sizeof(art), "point-%03u", index);
    struct round_limits lim = {.time_ns = round_ns, .sample_ns = NS_PER_S, .label = art};
    while (n < max && !time_up(s)) {
        struct round_metrics *m = &r[n];
        ret = point_round(s, pool, &lim, g->pre == WL_PRECOND_STEADY, index, m, err, errlen);
        if (ret != 0)
            break;
        m->round = ++n;
        m->phase = "measure";
        written += (double)m->write.bytes;
        double v = NAN;
        metrics_value(m, s->cfg.track, &v);
        precond_track_push(&tk, v, fills0 + written / ((double)pt->range.len * s->weight));
        json_object_array_add(rounds_json, results_round_json(m));
        char state[128] = "";
        if (g->pre == WL_PRECOND_STEADY) {
            bool ok = precond_track_eval(&tk, first_measure, &crit, guarded ? &guard : NULL,
                                         &win, &gr);
            if (win.last_round) {
                last_win = win;
                last_gr = gr;
            }
            if (ok)
                steady_round = n;
            round_state_text(n, steady_round, &win, &gr, state, sizeof(state));
        }
        if (!s->cfg.quiet && index >= s->replay_points)
            print_round(s, pt, m, max, state);   /* printed once the round is in the file */
        if (flush(s, false) != 0) {
            ret = -1;
            errf(err, errlen, "%s", s->out.error);
            break;
        }
        if (steady_round)
            break;
    }
    worker_pool_stop(pool);

    if (ret == 0 && n)
        point_record(s, pt, r, n, steady_round, &last_win, &last_gr, guarded, first_measure, max);
    else if (ret == 0)
        point_cut(s, pt, "before its first round");
    else
        jw_add(pt->json, "status", jw_str(ret == 1 ? "interrupted" : "failed"));
    if (ret == 0 && n && !steady_round && n < max)
        note(s, "%s/%s %u%% %ux%u: the time limit stopped it after %u of %u rounds",
             profile_name_of(s, g), workload_name_of(s, g), g->compress, pt->wl.workers,
             pt->wl.qd, n, max);
    for (unsigned i = 0; i < n; i++)
        metrics_free(&r[i]);
    free(r);
    precond_track_free(&tk);
    if (ret == 0 && n && !s->cfg.quiet && index >= s->replay_points)
        print_point(s, pt);
    return ret;
}

/* The file target's content, and its layout when one is due (the shared step), recorded in the
 * document's "preconditioning.layout". 0, or -1 with err (an interrupted layout: the stop is
 * seen by the first point). */
static int do_layout(struct profile_session *s, char *err, size_t errlen)
{
    if (s->target.kind != TARGET_FILE)
        return 0;
    struct run_ctx ctx = ctx_of(s);
    struct wl_range whole = {0, s->target.capacity};
    struct json_object *json = NULL;
    int ret = step_layout(&ctx, s->layout ? &s->layout_range : &whole, s->layout,
                          &s->points[0].wl, s->cfg.quiet, &json, err, errlen);
    if (json)
        jw_add(json_object_object_get(s->doc, "preconditioning"), "layout", json);
    if (ret < 0)
        return -1;
    return flush(s, true) == 0 ? 0 : errf(err, errlen, "%s", s->out.error);
}

static int do_purge(struct profile_session *s, char *err, size_t errlen)
{
    struct run_ctx ctx = ctx_of(s);
    struct purge_plan plan;
    struct json_object *p;
    if (step_purge_plan(&ctx, s->cfg.purge, &plan, err, errlen) != 0)
        return -1;
    if (!s->cfg.quiet && !(ctx.live && plan.method != PURGE_NONE)) {   /* live: the step says it */
        printf("purge: %s (%s)%s\n", purge_method_name(plan.method), plan.argv_text,
               s->target.sim ? " on the simulated drive" : "");
        fflush(stdout);
    }
    int ret = step_purge(&ctx, &plan, &p, err, errlen);
    jw_add(s->doc, "purge", p);
    jw_add(json_object_object_get(s->doc, "preconditioning"), "purge", json_object_get(p));
    char buf[512];
    if (step_purge_note(&plan, buf, sizeof(buf)))
        note(s, "%s", buf);
    return ret;
}

/* "  database/database 90% 4 workers: effective QD 64, 120 k IOPS (max 125 k), lat mean 2.1
 * ms", under a heading before the first. */
static void saturation_line(const struct profile_session *s, const struct series_sat *ss,
                            void *arg)
{
    unsigned *n = arg;
    if (!(*n)++)
        printf("\nsaturation (lowest effective QD reaching %.0f%% of the maximum IOPS):\n",
               100 * SATURATION_FRAC);
    char a[32], b[32], l[32];
    units_format_figure(ss->sat.iops, UNITS_FIG_IOPS, a, sizeof(a));
    units_format_figure(ss->sat.max_iops, UNITS_FIG_IOPS, b, sizeof(b));
    units_format_lat(ss->sat.lat_mean_us, UNITS_TEXT, l, sizeof(l));
    printf("  %s/%s %u%% %u worker%s: effective QD %.0f, %s IOPS (max %s), lat mean %s\n",
           profile_name_of(s, ss->group), workload_name_of(s, ss->group), ss->group->compress,
           ss->workers, ss->workers == 1 ? "" : "s", ss->sat.eqd, a, b, l);
}

static void print_table(const struct profile_session *s)
{
    printf("\n%-14s %-20s %5s %7s %4s %6s %12s %10s %10s %10s  %s\n", "profile", "workload",
           "data", "workers", "QD", "effQD", s->target.sim ? "IOPS (sim)" : "IOPS", "MB/s", "lat mean",
           "lat p99", "measured");
    for (unsigned i = 0; i < s->n_points; i++) {
        const struct pr_point *pt = &s->points[i];
        if (!pt->res.done)
            continue;
        const struct pr_group *g = &s->groups[pt->group];
        char iops[32], mean[32], p99[32], comp[16], how[64], mb[32];
        units_format_figure(pt->res.total.iops, UNITS_FIG_IOPS, iops, sizeof(iops));
        units_format_figure(pt->res.total.mb_s, UNITS_FIG_MBS, mb, sizeof(mb));
        units_format_lat(pt->res.total.lat.mean_us, UNITS_TEXT, mean, sizeof(mean));
        units_format_pct(pt->res.total.lat.pct_us[METRICS_P99], pt->res.total.lat.count,
                         UNITS_TEXT, p99, sizeof(p99));
        snprintf(comp, sizeof(comp), "%u%%", g->compress);
        if (pt->res.verdict.measured == DS_M_UNWRITTEN)
            snprintf(how, sizeof(how), "NEVER-WRITTEN space read, r%u-%u", pt->res.first_round,
                     pt->res.last_round);
        else if (g->pre == WL_PRECOND_STEADY)
            snprintf(how, sizeof(how), "%s r%u-%u",
                     pt->res.steady ? "steady"
                     : pt->res.verdict.measured == DS_M_NOT_STABLE ? "NOT stable"
                                                                  : "NOT steady (transient)",
                     pt->res.first_round, pt->res.last_round);
        else
            snprintf(how, sizeof(how), "%s, %u round%s",
                     g->pre == WL_PRECOND_WIPC ? "burst after WIPC" : "burst",
                     pt->res.last_round, pt->res.last_round == 1 ? "" : "s");
        printf("%-14s %-20s %5s %7u %4u %6u %12s %10s %10s %10s  %s\n", profile_name_of(s, g),
               workload_name_of(s, g), comp, pt->wl.workers, pt->wl.qd,
               pt->wl.workers * pt->wl.qd, iops, mb, mean, p99, how);
    }
    unsigned n_sat = 0;
    each_saturation(s, saturation_line, &n_sat);
    printf("\nresults: %s\n", s->results_path);
    fflush(stdout);
}

/* ------------------------------------------------------------------ --resume */

/* The stopped run's point `index` when it completed, else NULL. */
static struct json_object *stored_point(const struct profile_session *s, unsigned index)
{
    struct json_object *pts = json_object_object_get(s->cfg.resume, "points");
    size_t n = json_object_is_type(pts, json_type_array) ? json_object_array_length(pts) : 0;
    for (size_t i = 0; i < n; i++) {
        struct json_object *p = json_object_array_get_idx(pts, i);
        struct json_object *ix = json_object_object_get(p, "index");
        const char *st = json_object_get_string(json_object_object_get(p, "status"));
        if (ix && json_object_get_int(ix) == (int)index)
            return st && !strcmp(st, "complete") ? p : NULL;
    }
    return NULL;
}

/* A stored point's figures back into pr_result (for the table and the saturation points). */
static void stored_result(struct json_object *pj, struct pr_result *r)
{
    struct json_object *res = json_object_object_get(pj, "result");
    memset(r, 0, sizeof(*r));
    r->done = true;
    r->steady = json_object_get_boolean(json_object_object_get(res, "steady"));
    struct json_object *rr = json_object_object_get(res, "rounds");
    r->first_round = (unsigned)json_object_get_int(json_object_array_get_idx(rr, 0));
    r->last_round = (unsigned)json_object_get_int(json_object_array_get_idx(rr, 1));
    r->rounds_run = (unsigned)json_object_array_length(json_object_object_get(pj, "rounds"));
    r->total.iops = jp_path(res, "total.iops");
    r->total.mb_s = jp_path(res, "total.mb_s");
    r->total.lat.mean_us = jp_path(res, "total.lat_us.mean");
    for (int i = 0; i < METRICS_NPCT; i++) {
        char key[48];
        snprintf(key, sizeof(key), "total.lat_us.percentiles.%s", metrics_percentile_names[i] + 1);
        r->total.lat.pct_us[i] = jp_path(res, key);
    }
    const char *label = json_object_get_string(json_object_object_get(res, "label"));
    str_copy(r->verdict.label, sizeof(r->verdict.label), label ? label : "");
    r->verdict.steady = r->steady;
    r->verdict.measured = r->steady ? DS_M_STEADY : DS_M_WIPC;
}

/* The stopped run's group g (groups are recorded in run order), or NULL. */
static struct json_object *stored_group(const struct profile_session *s, unsigned g)
{
    struct json_object *gs = json_object_object_get(s->cfg.resume, "groups");
    return json_object_is_type(gs, json_type_array) && g < json_object_array_length(gs)
               ? json_object_array_get_idx(gs, g) : NULL;
}

static void resume_note(struct profile_session *s, const char *how, unsigned after)
{
    struct json_object *r = json_object_new_object();
    char now[32];
    iso8601_now(now, sizeof(now));
    jw_add(r, "at", jw_str(now));
    jw_add(r, "complete_points", jw_int(after));
    jw_add(r, "how", jw_str(how));
    json_object_array_add(s->resumed, r);
}

/* Before the groups run: what a resume keeps, replays or redoes (see profile_run.h). */
static void resume_begin(struct profile_session *s)
{
    unsigned done = 0;
    while (done < s->n_points && stored_point(s, done))
        done++;
    struct json_object *old = json_object_object_get(s->cfg.resume, "resumed");
    s->resumed = json_object_is_type(old, json_type_array) ? json_object_get(old)
                                                           : json_object_new_array();
    jw_add(s->doc, "resumed", json_object_get(s->resumed));
    if (s->target.sim) {
        s->replay_points = done;
        resume_note(s, "replayed: a simulated drive's state does not outlive its process, so the "
                       "profile was run again from its start; the points completed before the "
                       "stop were reproduced (checked) and not printed again", done);
        return;
    }
    s->keep_stored = true;
    resume_note(s, s->cfg.resume_as_is
                       ? "continued as it was (--resume-as-is): the completed points are kept and "
                         "the interrupted group goes on without WIPC and WDPC again; the drive "
                         "was not held between the stop and the resume, so its state then is "
                         "unknown"
                       : "the completed points are kept; the interrupted group is preconditioned "
                         "again (WIPC, then WDPC) because the drive was not held between the stop "
                         "and the resume, and its interrupted point runs again",
                done);
    note(s, "resumed after %u complete point%s%s", done, done == 1 ? "" : "s",
         s->cfg.resume_as_is ? " as-is: the gap before the resume is not preconditioned away"
                             : "");
}

/* A replayed point must give the stored figure (the model is deterministic). */
static int replay_check(const struct profile_session *s, unsigned index, char *err,
                        size_t errlen)
{
    struct json_object *pj = stored_point(s, index);
    double was = jp_path(json_object_object_get(pj, "result"), "total.iops");
    double now = s->points[index].res.total.iops;
    if (!(fabs(now - was) <= 1e-6 * fmax(1.0, fabs(was))))
        return errf(err, errlen, "--resume: replaying point %u on the simulated drive gave %.6g "
                    "IOPS where the results file holds %.6g: not the same profile", index, now,
                    was);
    return 0;
}

/* A real target's resume: the group's complete points from the file. Returns the first point
 * still to run. */
static unsigned keep_stored_points(struct profile_session *s, struct pr_group *gr)
{
    unsigned p = gr->first_point;
    for (; p < gr->first_point + gr->n_points; p++) {
        struct json_object *pj = stored_point(s, p);
        if (!pj)
            break;
        struct pr_point *pt = &s->points[p];
        pt->json = json_object_get(pj);
        json_object_array_add(s->points_json, pt->json);
        stored_result(pj, &pt->res);
    }
    return p;
}

/* The target made and opened, the results folder made, the drive's state begun, the document
 * started (a resume's state taken up) and written. 0, or -1 with err. */
static int profile_start(struct profile_session *s, char *err, size_t errlen)
{
    if (s->target.kind == TARGET_FILE &&
        (!s->target.exists || s->target.current_size < s->target.capacity)) {
        if (target_create_file(&s->target, err, errlen) != 0)
            return -1;
    }
    if (s->target.kind != TARGET_SIM) {
        s->fd = target_open(&s->target, s->writes || s->cfg.purge != PURGE_NONE || s->layout,
                            err, errlen);   /* a purge writes too (discard needs the fd) */
        if (s->fd < 0)
            return -1;
    }
    if (run_make_dir(s->out_dir, err, errlen) != 0)
        return -1;
    if (s->target.sim)
        sim_stats(s->target.sim->dev, &s->sim_last);
    ds_init(&s->state, (double)s->target.capacity * s->weight, s->target.sim != NULL);
    doc_start(s);
    if (s->cfg.resume)
        resume_begin(s);
    results_out_init(&s->out, s->doc, s->results_path, "ptsbench profile");
    s->out.place = &s->place;
    if (flush(s, true) != 0)
        return errf(err, errlen, "%s", s->out.error);
    return 0;
}

/* The group's record begun in the document, and the note when nothing prepares the drive. */
static void group_begin(struct profile_session *s, struct pr_group *gr)
{
    gr->json = json_object_new_object();
    jw_add(gr->json, "profile", jw_str(profile_name_of(s, gr)));
    jw_add(gr->json, "workload", jw_str(workload_name_of(s, gr)));
    jw_add(gr->json, "compress_pct", jw_int(gr->compress));
    jw_add(gr->json, "precondition", jw_str(group_pre_name(s, gr)));
    jw_add(gr->json, "points", jw_int(gr->n_points));
    json_object_array_add(s->groups_json, gr->json);
    if (gr->pre == WL_PRECOND_NONE && s->cfg.purge == PURGE_NONE)
        note(s, "%s/%s: no preconditioning and no purge: burst figures on the drive in the "
                "state earlier work left it", profile_name_of(s, gr), workload_name_of(s, gr));
}

/* A resume on a real target: the group's complete points from the file, and its record when
 * the whole group was done (true: nothing to run); the interrupted group keeps what it had
 * done before the stop (as-is: its WDPC's end). *from: the first point still to run. */
static bool group_resume(struct profile_session *s, unsigned g, unsigned *from)
{
    struct pr_group *gr = &s->groups[g];
    *from = keep_stored_points(s, gr);
    struct json_object *was = stored_group(s, g);
    if (*from == gr->first_point + gr->n_points && was) {
        json_object_array_put_idx(s->groups_json, json_object_array_length(s->groups_json) - 1,
                                  json_object_get(was));
        gr->json = was;
        return true;
    }
    if (was) {
        jw_add(gr->json, "before_resume", json_object_get(was));
        struct json_object *wd = json_object_object_get(was, "wdpc");
        const char *ended = json_object_get_string(json_object_object_get(wd, "ended"));
        if (s->cfg.resume_as_is && ended &&
            (!strcmp(ended, "guard") || !strcmp(ended, "max_fills"))) {
            gr->wdpc_done = true;
            gr->wdpc_end = !strcmp(ended, "guard") ? "guard" : "max_fills";
            gr->wdpc_point = (unsigned)json_object_get_int(json_object_object_get(wd, "point"));
        }
    }
    return false;
}

/* One group: its record, its preconditioning, its points (each written), the drive's own
 * counters around it (device/health.h: its write amplification, beside the simulator's per
 * round). 0, 1 interrupted, or -1 with err. */
static int run_group(struct profile_session *s, unsigned g, char *err, size_t errlen)
{
    struct pr_group *gr = &s->groups[g];
    group_begin(s, gr);
    unsigned from = gr->first_point;
    if (s->keep_stored && group_resume(s, g, &from))
        return 0;   /* the whole group was done */
    struct health_snapshot before, after;
    health_collect(&s->target, &before);
    if (gr->pre != WL_PRECOND_NONE && !(s->keep_stored && s->cfg.resume_as_is) &&
        !time_up(s) && precondition_group(s, gr, err, errlen) != 0)
        return -1;
    if (*s->stop)
        return 1;
    for (unsigned p = from; p < gr->first_point + gr->n_points; p++) {
        int ret = run_point(s, p, err, errlen);
        if (ret < 0)
            return -1;
        if (ret == 0 && p < s->replay_points && replay_check(s, p, err, errlen) != 0)
            return -1;
        saturation_update(s);
        if (flush(s, true) != 0)
            return errf(err, errlen, "%s", s->out.error);
        if (ret > 0)
            return 1;
    }
    health_collect(&s->target, &after);
    jw_add(gr->json, "health", health_json(&before, &after));
    if (!s->cfg.quiet) {
        char line[512];
        health_summary(json_object_object_get(gr->json, "health"), line, sizeof(line));
        printf("  %s/%s: %s\n", profile_name_of(s, gr), workload_name_of(s, gr), line);
    }
    return 0;
}

/* The purge, the layout and the groups in order. 0, 1 interrupted, or -1 with err. */
static int run_groups(struct profile_session *s, char *err, size_t errlen)
{
    if (s->cfg.purge != PURGE_NONE && !s->keep_stored && do_purge(s, err, errlen) != 0)
        return -1;
    if (do_layout(s, err, errlen) != 0)
        return -1;
    for (unsigned g = 0; g < s->n_groups; g++) {
        int ret = run_group(s, g, err, errlen);
        if (ret != 0)
            return ret;
    }
    return 0;
}

int profile_execute(struct profile_session *s, volatile sig_atomic_t *stop)
{
    char err[ERR_LEN];
    s->stop = stop;
    int code = EXIT_OK;
    const char *status = "complete";

    if (profile_start(s, err, sizeof(err)) != 0) {
        fprintf(stderr, "ptsbench profile: %s\n", err);
        return EXIT_FAILURE_RUN;
    }
    int ret = run_groups(s, err, sizeof(err));
    if (ret > 0) {
        status = "interrupted";
        code = EXIT_INTERRUPTED;
    } else if (ret < 0) {
        status = "failed";
        code = EXIT_FAILURE_RUN;
        jw_add(s->doc, "error", jw_str(err));
        fprintf(stderr, "ptsbench profile: %s\n", err);
    }
    jw_add(s->doc, "status", jw_str(status));
    time_limit_json(s);
    const bool said = s->out.failed;   /* the failure above was this write's */
    if (flush(s, true) != 0) {
        /* nothing more can be recorded: say so, and do not call the run done */
        if (!said)
            fprintf(stderr, "ptsbench profile: %s (it holds what was printed before)\n",
                        s->out.error);
        return EXIT_FAILURE_RUN;
    }
    if ((!s->cfg.quiet || code != EXIT_OK) && !s->cfg.own_table)
        print_table(s);
    return code;
}

void profile_session_free(struct profile_session *s)
{
    if (!s)
        return;
    if (s->fd >= 0)
        close(s->fd);
    for (unsigned i = 0; i < s->n_profiles; i++)
        profile_free(&s->profiles[i]);
    free(s->groups);
    free(s->points);
    free(s->plan_notes);
    results_out_free(&s->out);
    if (s->resumed)
        json_object_put(s->resumed);
    if (s->doc)
        json_object_put(s->doc);
    placement_free(&s->place);
    target_release(&s->target);
    free(s);
}

void profile_print_dry_run(const struct profile_session *s)
{
    run_print_dry_run(&s->target, s->writes || s->cfg.purge != PURGE_NONE, s->layout,
                      s->cfg.purge, s->results_path);
}

const char *profile_results_path(const struct profile_session *s)
{
    return s->results_path;
}
