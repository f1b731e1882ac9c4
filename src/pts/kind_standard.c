/* kind_standard.c — the standard PTS kind (docs/pts.md §2): the IOPS, throughput, latency and
 * write-saturation tests. A subtest is prepared (purge, WIPC: the shared steps of core/steps.h),
 * then runs rounds of the definition's loop, R/W mix outer and block size inner, each element on
 * a fresh pool, until the tracking variables are steady (PTS 2.0.2 §2.1.1) or, for WSAT, until
 * the bytes or time of its stop rule; then its table is the average over the steady-state
 * window. What a test runs is its definition's (pts/NAME.ini); this file is control flow only. */
#include "pts/pts_session.h"

#include <json-c/json.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/lat_hist.h"
#include "core/metrics.h"
#include "core/results.h"
#include "lib/json_path.h"
#include "lib/units.h"
#include "lib/util.h"
#include "pts/pts_def.h"
#include "pts/pts_rules.h"
#include "stats/steady.h"

/* Append to a line being built (for results_out_say). */
static void line_add(char *line, size_t len, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void line_add(char *line, size_t len, const char *fmt, ...)
{
    size_t used = strlen(line);
    if (used + 1 >= len)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line + used, len - used, fmt, ap);
    va_end(ap);
}

static struct json_object *element_json(unsigned mix, uint32_t bs, const struct round_metrics *m)
{
    struct json_object *o = json_object_new_object();
    json_object_object_add(o, "rwmix_read", json_object_new_int(mix));
    json_object_object_add(o, "bs", json_object_new_int64(bs));
    json_object_object_add(o, "elapsed_s", jw_num(m->elapsed_s));
    results_figures_add(o, &m->read, &m->write, &m->total);
    results_depth_gap_add(o, m);
    if (m->data.present)
        json_object_object_add(o, "data", data_measure_json(&m->data));
    if (m->device.present) {
        struct json_object *d = json_object_new_object();
        json_object_object_add(d, "write_amplification", jw_num(m->device.wa_round));
        json_object_object_add(d, "total_host_write_bytes", jw_num(m->device.total_host_write_bytes));
        json_object_object_add(d, "free_lines", json_object_new_int64((int64_t)m->device.free_lines));
        json_object_object_add(o, "device", d);
    }
    if (m->thermal.present)   /* temperature and throttling (core/thermal_rounds.h) */
        json_object_object_add(o, "thermal", thermal_reading_json(&m->thermal));
    if (m->state.present)
        json_object_object_add(o, "state", results_state_json(&m->state));
    results_lat_hist_add(o, m);
    return o;
}

/* Run one workload element: mix (read %), bs, access, for time_ns or bytes written. */
static int run_element(struct pts_session *s, unsigned mix, uint32_t bs, bool random,
                       unsigned threads, unsigned qd, unsigned compress, uint64_t time_ns,
                       uint64_t bytes, uint64_t seed, struct round_metrics *m, char *err,
                       size_t errlen)
{
    struct element_pool *ep = xcalloc(1, sizeof(*ep));
    int ret = ps_element_open(s, mix, bs, random, threads, qd, compress, seed, NULL, ep, err,
                           errlen);
    if (ret == 0)
        ret = ps_element_measure(s, ep, time_ns, bytes, NS_PER_S, m, err, errlen);
    ps_element_close(ep);
    free(ep);
    return ret;
}

/* WIPC with the test's block size and the suite's threads x QD (PTS step 2). 0, 1
 * interrupted, -1. */
static int do_wipc(struct pts_session *s, const struct pts_def *d, uint32_t bs,
                   struct json_object *sub, char *err, size_t errlen)
{
    struct run_ctx ctx = ps_ctx(s);
    struct wipc_spec w = {.range = s->ar, .bs = bs, .threads = s->threads, .qd = s->qd,
                          .fills = d->wipc_fills, .compress_pct = 0};
    if (!s->tty && !s->cfg.quiet) {
        char b[32];
        units_format_size(bs, b, sizeof(b));
        if (ps_flush_or_fail(s, true, err, errlen) != 0)   /* what is reported done is on disk */
            return -1;
        printf("  WIPC: SEQ %s writes, %ux the active range%s\n", b, d->wipc_fills, ps_sim_tag(s));
        fflush(stdout);
    }
    struct round_metrics m;
    struct json_object *json;
    const double c0 = ps_clock_s(s);
    int ret = step_wipc(&ctx, &w, &m, &json, err, errlen);
    s->prep_s += ps_clock_s(s) - c0;
    if (ret != 0)
        return ret;   /* 1: interrupted, nothing recorded */
    json_object_object_add(sub, "precondition", json);
    metrics_free(&m);
    return 0;
}

/* Element e of round r (1-based) of a subtest's rounds array, or NULL. */
static struct json_object *round_element(struct json_object *rounds_json, unsigned r, size_t e)
{
    struct json_object *rr = json_object_array_get_idx(rounds_json, r - 1), *els;
    if (!rr || !json_object_object_get_ex(rr, "elements", &els))
        return NULL;
    return json_object_array_get_idx(els, e);
}

/* One direction of element e over the window [first, last], into d (the figures object's
 * fields): ios and bytes the window's totals, iops, mb_s and mib_s the means of the rounds; the
 * latency is the caller's (lat_window_compute). *max_round_mean: the mean of the rounds'
 * maxima. */
static void window_dir(struct json_object *rounds_json, unsigned first, unsigned last, size_t e,
                       const char *dir, struct dir_metrics *d, double *max_round_mean)
{
    const unsigned n = last - first + 1;
    double *v = xcalloc(n, sizeof(double));
    struct json_object **fig = xcalloc(n, sizeof(*fig));
    double ios = 0, bytes = 0;
    for (unsigned r = first; r <= last; r++) {
        fig[r - first] = jp_obj_at(round_element(rounds_json, r, e), dir);
        double x = jp_num(fig[r - first], "ios"), y = jp_num(fig[r - first], "bytes");
        ios += isfinite(x) ? x : 0;
        bytes += isfinite(y) ? y : 0;
    }
    memset(d, 0, sizeof(*d));
    d->ios = (uint64_t)ios;
    d->bytes = (uint64_t)bytes;
    const char *keys[] = {"iops", "mb_s", "mib_s"};
    double *dst[] = {&d->iops, &d->mb_s, &d->mib_s};
    for (int k = 0; k < 3; k++) {
        for (unsigned i = 0; i < n; i++)
            v[i] = jp_num(fig[i], keys[k]);
        *dst[k] = pts_weighted_mean(v, NULL, n);
    }
    for (unsigned i = 0; i < n; i++)
        v[i] = jp_path(fig[i], "lat_us.max");
    *max_round_mean = pts_weighted_mean(v, NULL, n);
    free(fig);
    free(v);
}

/* The test's table: each element's average over the steady-state window (or the last 5 rounds
 * when steady state was not reached), as the figures object (window_dir), its latencies from
 * the window's merged histograms (core/lat_hist.h), which the row keeps as its lat_hist.
 * rounds_json: the subtest's rounds array. */
static struct json_object *table_json(struct json_object *rounds_json, unsigned first,
                                      unsigned last)
{
    struct json_object *tab = json_object_new_array();
    if (!last)
        return tab;
    struct json_object *r0 = json_object_array_get_idx(rounds_json, last - 1), *els;
    if (!json_object_object_get_ex(r0, "elements", &els))
        return tab;
    for (size_t e = 0; e < json_object_array_length(els); e++) {
        struct json_object *proto = json_object_array_get_idx(els, e), *x;
        struct json_object *row = json_object_new_object();
        json_object_object_get_ex(proto, "rwmix_read", &x);
        json_object_object_add(row, "rwmix_read", json_object_get(x));
        json_object_object_get_ex(proto, "bs", &x);
        json_object_object_add(row, "bs", json_object_get(x));
        const char *dirs[] = {"read", "write", "total"};
        const enum lat_dir ld[] = {LAT_READ, LAT_WRITE, LAT_TOTAL};
        struct dir_metrics d[3];
        double max_round_mean[3];
        struct json_object **recs = xcalloc(last - first + 1, sizeof(*recs));
        for (unsigned r = first; r <= last; r++)
            recs[r - first] = round_element(rounds_json, r, e);
        struct lat_window *w = xcalloc(1, sizeof(*w));
        lat_window_compute(recs, last - first + 1, w);
        for (int dd = 0; dd < 3; dd++) {
            window_dir(rounds_json, first, last, e, dirs[dd], &d[dd], &max_round_mean[dd]);
            d[dd].lat = w->lat[ld[dd]];
        }
        results_figures_add(row, &d[0], &d[1], &d[2]);
        struct json_object *lh = lat_window_hist_json(w);
        if (lh)
            jw_add(row, "lat_hist", lh);
        free(w);
        free(recs);
        for (int dd = 0; dd < 3; dd++) {
            struct json_object *lat = jp_obj_at(row, dirs[dd]);
            lat = jp_obj_at(lat, "lat_us");
            if (lat)
                json_object_object_add(lat, "max_round_mean", jw_num(max_round_mean[dd]));
        }
        json_object_array_add(tab, row);
    }
    return tab;
}

/* ptsbench's fill guard (steady.h) for the PTS window of the first tracking variable, recorded
 * beside the PTS's verdict for information: the spec's own rule decides a PTS test's steady
 * state; the guard says whether the window could still sit inside a transient (too little
 * written since WIPC, or a trend over the last fill). */
static void fill_guard_note(struct pts_session *s, const struct pts_def *d,
                            const struct tracked *tk, const double *fills,
                            const struct steady_window *w, struct json_object *steady,
                            char *line, size_t len)
{
    const struct steady_criteria c = STEADY_CRITERIA_SNIA;
    const struct steady_guard g = s->guard;   /* the fast pass's lag after it (ps_do_fast) */
    struct steady_guard_result gr;
    if (steady_guard_eval(tk->v[0], fills, tk->n, w, &c, &g, &gr) != 0)
        return;
    struct json_object *o = results_guard_json(&gr, &g);
    json_object_object_add(o, "advisory", json_object_new_string(
        "ptsbench's check, not the PTS's: the PTS's own rule decides this test's steady state"));
    json_object_object_add(steady, "fill_guard", o);
    if (s->cfg.quiet)
        return;
    if (!gr.evaluated)
        snprintf(line, len, "  [%s] fill guard (ptsbench's, for information): the test loop "
                 "had written %.2f fills since %s before the window; a transient cannot be "
                 "ruled out", d->name, gr.fills_before, s->cfg.fast.on ? "the fast pass" : "WIPC");
    else
        snprintf(line, len, "  [%s] fill guard (ptsbench's, for information): %s (5-round "
                 "averages over the last fill within %.1f%% of the window's, limit %.0f%%)",
                 d->name, gr.passed ? "passed" : "FAILED", 100 * gr.max_deviation,
                 100 * g.band_frac);
}

/* --resume: a stopped subtest's complete rounds into rounds_json and its tracking, its totals
 * (WSAT's byte count) and the drive's state as its last element left it. */
static void resume_rounds(struct pts_session *s, const struct pts_def *d, struct json_object *was,
                          struct json_object *rounds_json, struct tracked *tk, double **fills,
                          double *elapsed, double *written)
{
    struct json_object *rounds = json_object_object_get(was, "rounds");
    size_t n = json_object_is_type(rounds, json_type_array) ? json_object_array_length(rounds) : 0;
    for (size_t r = 0; r < n; r++) {
        struct json_object *rj = json_object_array_get_idx(rounds, r);
        json_object_array_add(rounds_json, json_object_get(rj));
        struct json_object *els = json_object_object_get(rj, "elements");
        size_t ne = json_object_is_type(els, json_type_array) ? json_object_array_length(els) : 0;
        for (size_t e = 0; e < ne; e++) {
            struct json_object *el = json_object_array_get_idx(els, e);
            *elapsed += json_object_get_double(json_object_object_get(el, "elapsed_s"));
            const double wb = jp_path(el, "write.bytes");
            *written += isfinite(wb) ? wb : 0;
            struct json_object *st = json_object_object_get(el, "state");
            if (st)
                results_state_from_json(st, &s->state);
        }
        double vals[PTS_MAX_TRACK];
        struct json_object *tv = json_object_object_get(rj, "tracked");
        for (unsigned v = 0; v < d->n_track; v++)
            vals[v] = json_object_get_double(json_object_array_get_idx(tv, (size_t)v));
        ps_tracked_push(tk, vals);   /* WSAT (no tracking variable): the rounds are counted */
        *fills = xrealloc(*fills, tk->n * sizeof(**fills));
        (*fills)[tk->n - 1] = ds_fills(&s->state, s->state.wdpc_bytes);
    }
    s->stimulus_is_wdpc = d->wipc;
    ps_note(s, "%s resumed after round %zu: the drive was not held between the stop and the resume, "
            "so its state then is unknown%s", d->name, n,
         d->stop == PTS_STOP_CAPACITY ? " (WSAT goes on with its byte count; a purge would undo "
                                        "the writes it counts)" : "");
}

/* One subtest's loop: what its rounds need and what they have found so far. */
struct subtest_loop {
    const struct pts_def *d;
    uint32_t sub_bs;                 /* TP's subtest block size (0: the test's own list) */
    struct json_object *sub, *rounds_json, *tr_names;
    uint32_t bss[PTS_MAX_LIST];      /* the block sizes valid on this target */
    unsigned n_bss, n_el;            /* elements per round: mixes x block sizes */
    unsigned threads, qd, max_rounds;
    uint64_t el_ns;
    bool wsat;                       /* stops by bytes written or time, not by steady state */
    double stop_bytes, max_time_s;
    struct tracked tk;
    double *fills;                   /* the stimulus's fills (WDPC) at the end of each round */
    struct steady_window win[PTS_MAX_TRACK];
    unsigned steady_round;
    double elapsed_total, written_total;
    unsigned throttled_els;          /* this round's elements during which the drive throttled */
    char ss[128];                    /* the steady-state verdict so far, for progress lines */
    char guard[512];                 /* the fill guard's line, said after the round's */
};

/* Phase 1: the drive's preparation (purge, WIPC), or the stopped run's records on --resume.
 * 0, 1 interrupted, -1. */
static int subtest_prepare(struct pts_session *s, const struct pts_def *d, uint32_t sub_bs,
                           struct json_object *sub, struct json_object *was, char *err,
                           size_t errlen)
{
    if (was) {
        static const char *const keep[] = {"purge", "precondition"};
        for (size_t k = 0; k < 2; k++) {
            struct json_object *v = json_object_object_get(was, keep[k]);
            if (v)
                json_object_object_add(sub, keep[k], json_object_get(v));
        }
    } else if (d->purge && ps_do_purge(s, sub, err, errlen) != 0) {
        return -1;
    }
    if (*s->stop)
        return 1;
    if (s->cfg.fast.on && !was) {   /* in WIPC's place (the definition allows it: pts_run.c) */
        int w = ps_do_fast(s, d, ps_def_threads(s, d), "precondition", sub, err, errlen);
        if (w != 0)
            return w;
    } else if (d->wipc && !was) {
        int w = do_wipc(s, d, d->wipc_bs ? d->wipc_bs : sub_bs, sub, err, errlen);
        if (w != 0)
            return w;
        if (ps_flush_or_fail(s, true, err, errlen) != 0)
            return -1;
    }
    if (*s->stop)
        return 1;
    /* After WIPC (or the fast pass) the test loop is the WDPC (PTS step 3); WSAT writes from
     * the purged drive. */
    if (!was)
        ps_stimulus_begins(s, d->wipc || s->cfg.fast.on);
    return 0;
}

/* Phase 2: the loop's parameters, the block sizes valid on the target (others noted and
 * skipped) and the tracking variables' names. 0 or -1 (none valid). */
static int subtest_plan(struct pts_session *s, struct subtest_loop *L, char *err, size_t errlen)
{
    const struct pts_def *d = L->d;
    L->threads = ps_def_threads(s, d);
    L->qd = ps_def_qd(s, d);
    L->el_ns = ps_def_element_ns(s, d);
    L->max_rounds = ps_def_max_rounds(s, d);
    L->wsat = d->stop == PTS_STOP_CAPACITY;
    L->stop_bytes = ps_def_stop_capacity(s, d) * (double)s->target.capacity * s->weight;
    L->max_time_s = (double)ps_def_max_time(s, d) / 1e9;
    if (d->subtests == PTS_SUB_BS) {
        L->bss[L->n_bss++] = L->sub_bs;
    } else {
        for (unsigned b = 0; b < d->n_bss; b++) {
            if (ps_bs_valid(s, d->bss[b])) {
                L->bss[L->n_bss++] = d->bss[b];
            } else {
                char bs[32];
                units_format_size(d->bss[b], bs, sizeof(bs));
                ps_note(s, "%s: %s skipped: not a multiple of the %u-byte logical sector of %s",
                     d->name, bs, s->target.logical_sector, s->target.path);
            }
        }
    }
    if (!L->n_bss)
        return errf(err, errlen, "%s: no block size of the test is valid on %s (%u-byte "
                                 "sectors)", d->name, s->target.path, s->target.logical_sector);
    L->n_el = d->n_mixes * L->n_bss;
    L->rounds_json = json_object_new_array();
    json_object_object_add(L->sub, "rounds", L->rounds_json);
    L->tr_names = json_object_new_array();
    struct json_object *tracks = json_object_new_array();
    for (unsigned v = 0; v < d->n_track; v++) {
        struct pts_track t = d->track[v];
        if (!t.bs)
            t.bs = L->sub_bs;
        char name[64];
        pts_track_format(&t, name, sizeof(name));
        json_object_array_add(L->tr_names, json_object_new_string(name));
        json_object_array_add(tracks, ps_track_json(&t));
    }
    json_object_object_add(L->sub, "tracking", L->tr_names);
    json_object_object_add(L->sub, "track", tracks);
    L->tk.n_vars = d->n_track;
    return 0;
}

/* Phase 3: one round's elements (R/W mix outer, block size inner), each on a fresh pool, into
 * els; the tracking variables' values into vals. 0, 1 interrupted mid-element (the round is
 * not recorded), -1. */
static int round_elements(struct pts_session *s, struct subtest_loop *L, unsigned round,
                          struct json_object *els, double *vals, char *err, size_t errlen)
{
    const struct pts_def *d = L->d;
    unsigned el = 0;
    for (unsigned v = 0; v < d->n_track; v++)
        vals[v] = NAN;
    L->throttled_els = 0;
    for (unsigned mi = 0; mi < d->n_mixes; mi++) {
        for (unsigned bi = 0; bi < L->n_bss; bi++) {
            unsigned mix = d->mixes[mi];
            uint32_t bs = L->bss[bi];
            el++;
            struct round_metrics m;
            uint64_t seed = 0x50545300ull ^ ((uint64_t)round << 32) ^ (el << 8) ^ mix;
            if (run_element(s, mix, bs, d->random, L->threads, L->qd, d->compress_pct, L->el_ns,
                            0, seed, &m, err, errlen) != 0)
                return -1;
            if (*s->stop) {
                metrics_free(&m);
                return 1;
            }
            json_object_array_add(els, element_json(mix, bs, &m));
            L->throttled_els += m.thermal.throttled == THERMAL_YES;
            L->elapsed_total += m.elapsed_s;
            L->written_total += (double)m.write.bytes;
            for (unsigned v = 0; v < d->n_track; v++) {
                uint32_t tbs = d->track[v].bs ? d->track[v].bs : L->sub_bs;
                if (tbs == bs && d->track[v].mix == mix)
                    metrics_value(&m, d->track[v].metric, &vals[v]);
            }
            if (L->wsat)   /* its ETA: the bytes left at this element's write rate */
                s->cap_eta = (struct pts_cap_eta){
                    .on = true, .left_bytes = L->stop_bytes - L->written_total,
                    .rate_bps = m.elapsed_s > 0 ? (double)m.write.bytes / m.elapsed_s : 0,
                    .time_left_s = L->max_time_s - L->elapsed_total};
            ps_progress(s, d, round, L->max_rounds, el, L->n_el, mix, bs, m.total.iops,
                        m.total.mb_s, L->ss, (double)L->el_ns / 1e9);
            metrics_free(&m);
        }
    }
    return 0;
}

/* Phase 4: the round in the results (its elements, tracked values, WSAT's running totals). */
static void round_record(struct subtest_loop *L, unsigned round, struct json_object *els,
                         const double *vals)
{
    struct json_object *rj = json_object_new_object();
    json_object_object_add(rj, "round", json_object_new_int(round));
    json_object_object_add(rj, "elements", els);
    if (L->d->n_track) {
        struct json_object *tv = json_object_new_array();
        for (unsigned v = 0; v < L->d->n_track; v++)
            json_object_array_add(tv, jw_num(vals[v]));
        json_object_object_add(rj, "tracked", tv);
    }
    if (L->wsat) {
        json_object_object_add(rj, "elapsed_total_s", jw_num(L->elapsed_total));
        json_object_object_add(rj, "total_written_bytes", jw_num(L->written_total));
        json_object_object_add(rj, "total_written_gb", jw_num(L->written_total / 1e9));
    }
    json_object_array_add(L->rounds_json, rj);
}

/* Phase 5: the steady-state window over the tracking variables after this round (PTS 2.0.2
 * §2.1.1, docs/pts.md). 0, or -1 when a tracking variable is not in the test's loops. */
static int round_judge(struct pts_session *s, struct subtest_loop *L, unsigned round,
                       const double *vals, char *err, size_t errlen)
{
    const struct pts_def *d = L->d;
    if (!d->n_track)
        return 0;
    for (unsigned v = 0; v < d->n_track; v++)
        if (isnan(vals[v]))
            return errf(err, errlen, "%s: a tracking variable's element is not in the test's "
                                     "loops (check tracking in %s)", d->name, d->source);
    ps_tracked_push(&L->tk, vals);
    L->fills = xrealloc(L->fills, L->tk.n * sizeof(*L->fills));
    L->fills[L->tk.n - 1] = ds_fills(&s->state, s->state.wdpc_bytes);
    struct steady_criteria c = STEADY_CRITERIA_SNIA;
    c.max_rounds = 0;
    const double *ys[PTS_MAX_TRACK];
    for (unsigned v = 0; v < d->n_track; v++)
        ys[v] = L->tk.v[v];
    L->steady_round = steady_first_all(ys, d->n_track, L->tk.n, &c, L->win);
    if (L->steady_round)
        snprintf(L->ss, sizeof(L->ss), "steady (rounds %u-%u)", L->win[0].first_round,
                 L->win[0].last_round);
    else if (L->tk.n < c.window)
        snprintf(L->ss, sizeof(L->ss), "window %u/%u", L->tk.n, c.window);
    else
        snprintf(L->ss, sizeof(L->ss), "not steady yet");
    struct json_object *ssj = ps_steady_json(d, L->sub_bs, L->win, d->n_track, L->steady_round,
                                          round, L->max_rounds);
    L->guard[0] = '\0';
    /* ptsbench's fill guard, for information */
    if (L->steady_round && (d->wipc || s->cfg.fast.on))
        fill_guard_note(s, d, &L->tk, L->fills, &L->win[0], ssj, L->guard, sizeof(L->guard));
    json_object_object_add(L->sub, "steady_state", ssj);
    return 0;
}

/* The last recorded round's IOPS: its elements' IOPS weighted by their time. */
static double round_iops(const struct subtest_loop *L)
{
    size_t n = json_object_array_length(L->rounds_json);
    struct json_object *els = n ? json_object_object_get(
                                      json_object_array_get_idx(L->rounds_json, n - 1), "elements")
                                : NULL;
    double ios = 0, secs = 0;
    for (size_t e = 0; els && e < json_object_array_length(els); e++) {
        struct json_object *el = json_object_array_get_idx(els, e);
        const double io = jp_path(el, "total.iops"), t = jp_path(el, "elapsed_s");
        if (isfinite(io) && isfinite(t)) {
            ios += io * t;
            secs += t;
        }
    }
    return secs > 0 ? ios / secs : NAN;
}

/* The round's progress line, printed once the round is in the file. */
static void round_say(struct pts_session *s, const struct subtest_loop *L, unsigned round,
                      const double *vals)
{
    if (s->cfg.quiet)   /* on a terminal too: over the live line, which goes on below */
        return;
    char line[1024] = "";
    line_add(line, sizeof(line), "  [%s] round %u: %u element%s", L->d->name, round, L->n_el,
             L->n_el == 1 ? "" : "s");
    for (unsigned v = 0; v < L->d->n_track; v++) {
        const char *tn = json_object_get_string(json_object_array_get_idx(L->tr_names, v));
        char fig[32];
        units_format_figure(vals[v], metrics_figure_kind(L->d->track[v].metric), fig, sizeof(fig));
        line_add(line, sizeof(line), ", %s %s", tn, fig);
    }
    if (L->wsat) {   /* the round's IOPS (its elements' time-weighted mean), then the total */
        char gb[32], io[32];
        units_format_figure(round_iops(L), UNITS_FIG_IOPS, io, sizeof(io));
        units_format_figure(L->written_total, UNITS_FIG_BYTES, gb, sizeof(gb));
        line_add(line, sizeof(line), ", %s IOPS, %s written in all", io, gb);
    }
    if (L->throttled_els)   /* thermal_rounds.h: recorded per element, said per round */
        line_add(line, sizeof(line), "; the drive throttled during %u of its elements",
                 L->throttled_els);
    line_add(line, sizeof(line), "%s%s%s", L->ss[0] ? "; " : "", L->ss, ps_sim_tag(s));
    results_out_say(&s->out, "%s", line);
    if (L->guard[0])   /* about the window this round completed: after it */
        results_out_say(&s->out, "%s", L->guard);
}

/* Phase 6: how the loop ended (WSAT's stop record, the steady-state note and line) and the
 * test's table over the steady-state window (or the last 5 rounds). */
static void subtest_finish(struct pts_session *s, struct subtest_loop *L, int status)
{
    const struct pts_def *d = L->d;
    unsigned rounds_done = (unsigned)json_object_array_length(L->rounds_json);
    if (L->wsat) {
        struct json_object *st = json_object_new_object();
        json_object_object_add(st, "rule", json_object_new_string("capacity"));
        json_object_object_add(st, "stop_written_bytes", jw_num(L->stop_bytes));
        json_object_object_add(st, "max_time_s", jw_num(L->max_time_s));
        json_object_object_add(st, "written_bytes", jw_num(L->written_total));
        json_object_object_add(st, "elapsed_s", jw_num(L->elapsed_total));
        json_object_object_add(st, "reason", json_object_new_string(
            L->written_total >= L->stop_bytes ? "capacity"
            : L->elapsed_total >= L->max_time_s ? "time"
            : status != 0 ? "interrupted" : "rounds"));
        json_object_object_add(L->sub, "stop", st);
    }
    if (d->stop == PTS_STOP_STEADY && status == 0 && !L->steady_round)
        ps_note(s, "%s: steady state NOT achieved in %u rounds", d->name, rounds_done);
    if (!s->cfg.quiet && status == 0) {
        char line[1024] = "";
        if (d->stop == PTS_STOP_STEADY && L->steady_round) {
            line_add(line, sizeof(line), "  [%s] steady state at round %u (rounds %u-%u):",
                     d->name, L->steady_round, L->win[0].first_round, L->win[0].last_round);
            for (unsigned v = 0; v < d->n_track; v++) {
                const char *tn = json_object_get_string(json_object_array_get_idx(L->tr_names, v));
                char fig[32];
                units_format_figure(L->win[v].average, metrics_figure_kind(d->track[v].metric), fig,
                                    sizeof(fig));
                line_add(line, sizeof(line), " %s %s", tn, fig);
            }
            line_add(line, sizeof(line), "%s", ps_sim_tag(s));
        } else if (d->stop == PTS_STOP_STEADY) {
            line_add(line, sizeof(line), "  [%s] steady state NOT achieved in %u rounds%s",
                     d->name, rounds_done, ps_sim_tag(s));
        } else {
            char gb[32], secs[32];
            units_format_figure(L->written_total, UNITS_FIG_BYTES, gb, sizeof(gb));
            units_format_figure(L->elapsed_total, UNITS_FIG_IOPS, secs, sizeof(secs));
            line_add(line, sizeof(line), "  [%s] stopped after %u rounds: %s written in "
                     "%s s%s", d->name, rounds_done, gb, secs, ps_sim_tag(s));
        }
        results_out_say(&s->out, "%s", line);
    }
    unsigned first = L->steady_round ? L->win[0].first_round
                                     : (rounds_done >= 5 ? rounds_done - 4 : (rounds_done ? 1 : 0));
    unsigned last = L->steady_round ? L->win[0].last_round : rounds_done;
    struct json_object *tab = json_object_new_object();
    json_object_object_add(tab, "first_round", json_object_new_int(first));
    json_object_object_add(tab, "last_round", json_object_new_int(last));
    json_object_object_add(tab, "rows", table_json(L->rounds_json, first, last));
    json_object_object_add(L->sub, "table", tab);
}

/* One subtest (the whole test, or one block size of TP): prepare the drive, plan the loop,
 * then rounds of elements, each recorded, judged and flushed, until the test's stop rule. */
int pts_kind_standard(struct pts_session *s, const struct pts_def *d, uint32_t sub_bs,
                      struct json_object *sub, char *err, size_t errlen)
{
    struct json_object *was = s->resume_sub;   /* --resume: go on with this subtest's rounds */
    s->resume_sub = NULL;
    int status = subtest_prepare(s, d, sub_bs, sub, was, err, errlen);
    if (status != 0)
        return status;
    struct subtest_loop L = {.d = d, .sub_bs = sub_bs, .sub = sub};
    if (subtest_plan(s, &L, err, errlen) != 0)
        return -1;
    if (was)
        resume_rounds(s, d, was, L.rounds_json, &L.tk, &L.fills, &L.elapsed_total,
                      &L.written_total);
    for (unsigned round = L.tk.n + 1; L.max_rounds == 0 || round <= L.max_rounds; round++) {
        struct json_object *els = json_object_new_array();
        double vals[PTS_MAX_TRACK];
        status = round_elements(s, &L, round, els, vals, err, errlen);
        if (status != 0) {
            json_object_put(els);
            break;
        }
        round_record(&L, round, els, vals);
        if (round_judge(s, &L, round, vals, err, errlen) != 0) {
            ps_tracked_free(&L.tk);
            free(L.fills);
            return -1;
        }
        round_say(s, &L, round, vals);
        if (ps_flush_or_fail(s, false, err, errlen) != 0) {
            status = -1;
            break;
        }
        if (d->stop == PTS_STOP_STEADY && L.steady_round)
            break;
        if (L.wsat && (L.written_total >= L.stop_bytes || L.elapsed_total >= L.max_time_s))
            break;
    }
    if (s->tty && !s->cfg.quiet)
        live_clear();
    subtest_finish(s, &L, status);
    ps_tracked_free(&L.tk);
    free(L.fills);
    return status;
}

