/* kind_dirth.c — the Demand Intensity / Response Time Histogram kind, also CBW (docs/pts.md
 * §2.7, §2.8): preconditioning at 32 x 32, rounds of a threads x QD sweep to steady state, then
 * the operating points and their latency histograms. */
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

/* ------------------------------------------------------------------ DIRTH / CBW */

static struct json_object *histogram_json(const struct round_metrics *m, double weight)
{
    struct json_object *o = json_object_new_object(), *b = json_object_new_array();
    const struct hist *h = &m->lat_total;
    for (unsigned i = 0; i < HIST_NBUCKETS; i++) {
        if (!h->buckets[i])
            continue;
        struct json_object *e = json_object_new_array();
        json_object_array_add(e, jw_num((double)hist_bucket_low(i) / 1000.0 / weight));
        json_object_array_add(e, jw_num((double)hist_bucket_high(i) / 1000.0 / weight));
        json_object_array_add(e, json_object_new_int64((int64_t)h->buckets[i]));
        json_object_array_add(b, e);
    }
    json_object_object_add(o, "format", json_object_new_string("[low_us, high_us, count]"));
    json_object_object_add(o, "buckets", b);
    return o;
}

/* The sweep's state: the last round's IOPS and mean latency per operating point. */
struct dirth_sweep {
    unsigned nt, nq, n_el, max_rounds;
    uint64_t el_ns;
    double *iops, *lat;   /* [ti * nq + qi] */
    char tname[64];       /* the tracking variable: IOPS at the first point */
};

/* Preconditioning: the stimulus as writes (RND W) at precondition_threads x _qd, until steady. */
static int dirth_precondition(struct pts_session *s, const struct pts_def *d,
                              struct json_object *sub, char *err, size_t errlen)
{
    struct element_pool *ep = xcalloc(1, sizeof(*ep));
    int st = ps_element_open(s, 0, d->bss[0], true, d->pc_threads, d->pc_qd, d->compress_pct,
                          0x444952ull, d->extra, ep, err, errlen);
    if (st == 0)
        st = ps_precondition_steady(s, d, ep, sub, err, errlen);
    ps_element_close(ep);
    free(ep);
    return st;
}

/* One round of the sweep: every threads x QD point, each on a fresh pool, into pts. 0, 1
 * interrupted, -1. */
static int dirth_round(struct pts_session *s, const struct pts_def *d, struct dirth_sweep *w,
                       unsigned r, struct json_object *pts, char *err, size_t errlen)
{
    const unsigned nq = w->nq;
    for (unsigned ti = 0; ti < w->nt; ti++) {
        for (unsigned qi = 0; qi < nq; qi++) {
            struct round_metrics m;
            struct element_pool *e = xcalloc(1, sizeof(*e));
            int st = ps_element_open(s, d->mixes[0], d->bss[0], d->random, d->threads_list[ti],
                              d->qd_list[qi], d->compress_pct, 0x445600ull + r * 1000 + ti * 16 + qi,
                              d->extra, e, err, errlen);
            if (st == 0)
                st = ps_element_measure(s, e, w->el_ns, 0, NS_PER_S, &m, err, errlen);
            ps_element_close(e);
            free(e);
            if (st != 0)
                return st;
            if (*s->stop) {
                metrics_free(&m);
                return 1;
            }
            struct json_object *pj = ps_period_json(&m);
            results_lat_hist_add(pj, &m);   /* a sweep point is one of the round's elements */
            json_object_object_add(pj, "threads", json_object_new_int(d->threads_list[ti]));
            json_object_object_add(pj, "qd", json_object_new_int(d->qd_list[qi]));
            json_object_object_add(pj, "outstanding", json_object_new_int(d->threads_list[ti] * d->qd_list[qi]));
            json_object_array_add(pts, pj);
            w->iops[ti * nq + qi] = m.total.iops;
            w->lat[ti * nq + qi] = m.total.lat.mean_us;
            const double m_mb_s = m.total.mb_s;
            metrics_free(&m);
            ps_progress(s, d, r, w->max_rounds, ti * nq + qi + 1, w->n_el, d->mixes[0], d->bss[0],
                     w->iops[ti * nq + qi], m_mb_s, "", (double)w->el_ns / 1e9);
        }
    }
    return 0;
}

/* The sweep's tracking variable as parts: the first point's IOPS (its name "iops@T32/Q32") at
 * the stimulus's block size and mix. */
static struct json_object *dirth_track_json(const struct pts_def *d)
{
    struct pts_track t = {.metric = "iops", .bs = d->bss[0], .mix = d->mixes[0]};
    struct json_object *o = ps_track_json(&t);
    json_object_object_add(o, "threads", json_object_new_int((int)d->threads_list[0]));
    json_object_object_add(o, "qd", json_object_new_int((int)d->qd_list[0]));
    return o;
}

/* Rounds of the sweep until the first point's IOPS is steady (PTS DIRTH, docs/pts.md). 0, 1
 * interrupted, -1. */
static int dirth_sweep(struct pts_session *s, const struct pts_def *d, struct dirth_sweep *w,
                       struct json_object *sub, char *err, size_t errlen)
{
    struct json_object *rounds = json_object_new_array();
    json_object_object_add(sub, "rounds", rounds);
    struct json_object *tn = json_object_new_array();
    snprintf(w->tname, sizeof(w->tname), "iops@T%u/Q%u", d->threads_list[0], d->qd_list[0]);
    json_object_array_add(tn, json_object_new_string(w->tname));
    json_object_object_add(sub, "tracking", tn);
    struct json_object *tracks = json_object_new_array();
    json_object_array_add(tracks, dirth_track_json(d));
    json_object_object_add(sub, "track", tracks);
    struct tracked tk = {.n_vars = 1};
    struct steady_window win;
    unsigned steady = 0;
    int st = 0;
    for (unsigned r = 1; st == 0 && (!w->max_rounds || r <= w->max_rounds); r++) {
        struct json_object *rj = json_object_new_object(), *pts = json_object_new_array();
        json_object_object_add(rj, "round", json_object_new_int(r));
        st = dirth_round(s, d, w, r, pts, err, errlen);
        if (st != 0) {
            json_object_put(rj);
            json_object_put(pts);
            break;
        }
        json_object_object_add(rj, "points", pts);
        json_object_array_add(rounds, rj);
        ps_tracked_push(&tk, &w->iops[0]);
        struct steady_criteria c = STEADY_CRITERIA_SNIA;
        c.max_rounds = 0;
        const double *ys[1] = {tk.v[0]};
        steady = steady_first_all(ys, 1, tk.n, &c, &win);
        const char *names[1] = {w->tname};
        struct json_object *sso = ps_steady_obj(names, &win, 1, steady, r, w->max_rounds);
        json_object_object_add(json_object_array_get_idx(json_object_object_get(sso, "variables"),
                                                         0), "track", dirth_track_json(d));
        json_object_object_add(sub, "steady_state", sso);
        if (!s->cfg.quiet) {   /* on a terminal too: over the live line, which goes on below */
            char fig[32];
            units_format_figure(w->iops[0], UNITS_FIG_IOPS, fig, sizeof(fig));
            results_out_say(&s->out, "  [%s] round %u: %u points, %s %s%s", d->name, r, w->n_el,
                            w->tname, fig, ps_sim_tag(s));
        }
        st = ps_flush_or_fail(s, false, err, errlen);
        if (steady)
            break;
    }
    if (s->tty && !s->cfg.quiet)
        live_clear();
    if (st == 0 && !steady)
        ps_note(s, "%s: steady state NOT achieved in %u rounds", d->name, (unsigned)tk.n);
    ps_tracked_free(&tk);
    return st;
}

/* The operating points (max, mid, min) from the last round, each measured again for its
 * histogram. 0, 1 interrupted, -1. */
static int dirth_operating_points(struct pts_session *s, const struct pts_def *d,
                                  const struct dirth_sweep *w, struct json_object *sub,
                                  char *err, size_t errlen)
{
    const unsigned nt = w->nt, nq = w->nq;
    const double *iops = w->iops, *lat = w->lat;
    int st = 0;
    const double ceiling_us = (double)d->latency_ceiling_ns / 1000.0;
    struct pts_dirth_points ch;
    pts_dirth_choose(iops, lat, d->threads_list, nt, d->qd_list, nq, ceiling_us, &ch);
    const char *names[3] = {"max", "mid", "min"};
    const unsigned idx[3] = {ch.max, ch.mid, ch.min};
    struct json_object *op = json_object_new_object();
    json_object_object_add(op, "latency_ceiling_us", jw_num(ceiling_us));
    json_object_object_add(op, "rules", json_object_new_string(
        "max: the highest IOPS with mean latency below the ceiling; min: threads 1 x QD 1; "
        "mid: among the points below the ceiling, the IOPS closest to (max + min) / 2"));
    json_object_object_add(op, "max_below_ceiling", json_object_new_boolean(ch.max_found));
    json_object_object_add(op, "min_rule", json_object_new_string(
        ch.min_is_1x1 ? "threads 1 x QD 1"
                      : "the lowest outstanding I/O (threads_list x qd_list has no 1 x 1)"));
    if (!ch.min_is_1x1)
        ps_note(s, "%s: the sweep has no threads 1 x QD 1 point: MinIOPS is the lowest "
             "outstanding I/O, %u x %u", d->name, d->threads_list[ch.min / nq],
             d->qd_list[ch.min % nq]);
    if (!ch.max_found)
        ps_note(s, "%s: no point of the sweep has a mean latency below %g us: the max and mid "
             "operating points are the min point", d->name, ceiling_us);
    for (int k = 0; k < 3 && st == 0; k++) {
        unsigned ti = idx[k] / nq, qi = idx[k] % nq;
        struct round_metrics m;
        struct element_pool *e = xcalloc(1, sizeof(*e));
        st = ps_element_open(s, d->mixes[0], d->bss[0], d->random, d->threads_list[ti],
                          d->qd_list[qi], d->compress_pct, 0x48495354ull + (uint64_t)k,
                          d->extra, e, err, errlen);
        if (st == 0)
            st = ps_element_measure(s, e, ps_scaled(s, d->histogram_ns), 0, NS_PER_S, &m, err,
                                 errlen);
        ps_element_close(e);
        free(e);
        if (st != 0 || *s->stop) {
            if (st == 0) {
                metrics_free(&m);
                st = 1;
            }
            break;
        }
        struct json_object *pj = json_object_new_object();
        json_object_object_add(pj, "threads", json_object_new_int(d->threads_list[ti]));
        json_object_object_add(pj, "qd", json_object_new_int(d->qd_list[qi]));
        json_object_object_add(pj, "sweep_iops", jw_num(iops[idx[k]]));
        json_object_object_add(pj, "sweep_lat_mean_us", jw_num(lat[idx[k]]));
        results_figures_add(pj, &m.read, &m.write, &m.total);
        results_depth_gap_add(pj, &m);
        json_object_object_add(pj, "histogram", histogram_json(&m, s->weight));
        json_object_object_add(op, names[k], pj);
        if (!s->cfg.quiet) {
            char io[32], mean[32], p9999[32];
            units_format_figure(m.total.iops, UNITS_FIG_IOPS, io, sizeof(io));
            units_format_figure(m.total.lat.mean_us, UNITS_FIG_LAT, mean, sizeof(mean));
            units_format_pct(m.total.lat.pct_us[METRICS_P99_99], m.total.lat.count, UNITS_TEXT,
                             p9999, sizeof(p9999));
            results_out_say(&s->out, "  [%s] %s point: %u x %u, %s IOPS, mean %s, "
                            "99.99%% %s%s", d->name, names[k], d->threads_list[ti],
                            d->qd_list[qi], io, mean, p9999, ps_sim_tag(s));
        }
        metrics_free(&m);
    }
    json_object_object_add(sub, "operating_points", op);
    return st;
}

int pts_kind_dirth(struct pts_session *s, const struct pts_def *d, uint32_t sub_bs,
                     struct json_object *sub, char *err, size_t errlen)
{
    (void)sub_bs;   /* one subtest: the kind's own stimuli */
    if (d->purge && ps_do_purge(s, sub, err, errlen) != 0)
        return -1;
    if (s->cfg.fast.on) {   /* the fast pass before its own preconditioning (pts_run.c) */
        int f = ps_do_fast(s, d, d->pc_threads, "fast", sub, err, errlen);
        if (f != 0)
            return f;
    }
    ps_stimulus_begins(s, true);
    int st = dirth_precondition(s, d, sub, err, errlen);
    if (st != 0)
        return st;
    struct dirth_sweep w = {.nt = d->n_threads_list, .nq = d->n_qd_list,
                            .max_rounds = ps_def_max_rounds(s, d),
                            .el_ns = ps_def_element_ns(s, d)};
    w.n_el = w.nt * w.nq;
    w.iops = xcalloc(w.n_el, sizeof(double));
    w.lat = xcalloc(w.n_el, sizeof(double));
    st = dirth_sweep(s, d, &w, sub, err, errlen);
    if (st == 0)
        st = dirth_operating_points(s, d, &w, sub, err, errlen);
    free(w.iops);
    free(w.lat);
    return st;
}
