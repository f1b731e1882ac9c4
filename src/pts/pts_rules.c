/* pts_rules.c — the PTS suite's decisions and plan arithmetic (see pts_rules.h). */
#include "pts/pts_rules.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lib/units.h"

#define NS_PER_S 1e9

/* ------------------------------------------------------------------ durations */

uint64_t pts_scaled_ns(uint64_t ns, double scale)
{
    double f = scale > 0 ? scale : 1.0;
    uint64_t v = (uint64_t)((double)ns * f);
    return v ? v : 1;
}

void pts_format_duration(double sec, char *buf, size_t len)
{
    if (!isfinite(sec))
        snprintf(buf, len, "no limit");
    else if (sec >= 3600)
        snprintf(buf, len, "%.0fh%02.0fm", floor(sec / 3600), fmod(floor(sec / 60), 60));
    else if (sec >= 60)
        snprintf(buf, len, "%.0fm%02.0fs", floor(sec / 60), fmod(floor(sec), 60));
    else
        snprintf(buf, len, "%.3gs", sec);
}

/* ------------------------------------------------------------------ WSAT */

unsigned pts_wsat_option_notes(const struct pts_def *d, double cap_opt, uint64_t time_opt_ns,
                               char notes[2][PTS_NOTE_LEN])
{
    if (d->stop != PTS_STOP_CAPACITY)
        return 0;
    unsigned n = 0;
    if (cap_opt > 0 && cap_opt != d->stop_capacity)
        snprintf(notes[n++], PTS_NOTE_LEN,
                 "%s: stops after %gx the user capacity written (--wsat-capacity) instead of "
                 "the PTS's %gx (or its time limit, whichever first)", d->name, cap_opt,
                 d->stop_capacity);
    if (time_opt_ns && time_opt_ns != d->max_time_ns) {
        char used[32], spec[32];
        pts_format_duration((double)time_opt_ns / NS_PER_S, used, sizeof(used));
        pts_format_duration((double)d->max_time_ns / NS_PER_S, spec, sizeof(spec));
        snprintf(notes[n++], PTS_NOTE_LEN,
                 "%s: stops after %s (--wsat-time) instead of the PTS's %s (or its capacity "
                 "limit, whichever first)", d->name, used, spec);
    }
    return n;
}

/* ------------------------------------------------------------------ XSR */

bool pts_recovered(double value, double reference, double tolerance)
{
    if (!isfinite(value) || !isfinite(reference))
        return false;
    return value >= reference * (1.0 - tolerance);
}

double pts_xsr_recovery_minutes(const double *mb_s, size_t n, double reference, double tolerance,
                                double round_minutes)
{
    for (size_t i = 0; i < n; i++)
        if (pts_recovered(mb_s[i], reference, tolerance))
            return (double)(i + 1) * round_minutes;
    return NAN;
}

uint64_t pts_xsr_group_rounds(const struct pts_group *g, double scale, uint64_t element_ns)
{
    uint64_t n = element_ns ? pts_scaled_ns(g->duration_ns, scale) / element_ns : 1;
    return n ? n : 1;
}

/* ------------------------------------------------------------------ DIRTH */

static bool below(const double *iops, const double *lat_us, unsigned i, double ceiling_us)
{
    return isfinite(iops[i]) && isfinite(lat_us[i]) && lat_us[i] < ceiling_us;
}

static unsigned dirth_min(const unsigned *threads, unsigned nt, const unsigned *qd, unsigned nq,
                          bool *is_1x1)
{
    for (unsigned ti = 0; ti < nt; ti++)
        for (unsigned qi = 0; qi < nq; qi++)
            if (threads[ti] == 1 && qd[qi] == 1) {
                *is_1x1 = true;
                return ti * nq + qi;
            }
    *is_1x1 = false;
    unsigned best = 0;
    for (unsigned ti = 0; ti < nt; ti++)
        for (unsigned qi = 0; qi < nq; qi++) {
            unsigned long oio = (unsigned long)threads[ti] * qd[qi];
            unsigned long b = (unsigned long)threads[best / nq] * qd[best % nq];
            if (oio < b)
                best = ti * nq + qi;
        }
    return best;
}

void pts_dirth_choose(const double *iops, const double *lat_us, const unsigned *threads,
                      unsigned nt, const unsigned *qd, unsigned nq, double ceiling_us,
                      struct pts_dirth_points *out)
{
    const unsigned n = nt * nq;
    memset(out, 0, sizeof(*out));
    out->min = dirth_min(threads, nt, qd, nq, &out->min_is_1x1);
    for (unsigned i = 0; i < n; i++)
        if (below(iops, lat_us, i, ceiling_us) && (!out->max_found || iops[i] > iops[out->max])) {
            out->max = i;
            out->max_found = true;
        }
    if (!out->max_found) {
        out->max = out->mid = out->min;
        return;
    }
    const double target = (iops[out->max] + iops[out->min]) / 2;
    bool have = false;
    for (unsigned i = 0; i < n; i++)
        if (below(iops, lat_us, i, ceiling_us) &&
            (!have || fabs(iops[i] - target) < fabs(iops[out->mid] - target))) {
            out->mid = i;
            have = true;
        }
}

/* ------------------------------------------------------------------ window statistics */

double pts_weighted_mean(const double *v, const double *count, size_t n)
{
    double sum = 0, w = 0;
    for (size_t i = 0; i < n; i++) {
        double wi = count && isfinite(count[i]) ? count[i] : 1.0;
        if (!isfinite(v[i]) || !(wi > 0))
            continue;
        sum += v[i] * wi;
        w += wi;
    }
    return w > 0 ? sum / w : NAN;
}

double pts_max(const double *v, size_t n)
{
    double m = NAN;
    for (size_t i = 0; i < n; i++)
        if (isfinite(v[i]) && (isnan(m) || v[i] > m))
            m = v[i];
    return m;
}

/* ------------------------------------------------------------------ HIR */

unsigned pts_hir_state_number(uint64_t wait_ns, uint64_t access_ns)
{
    if (!access_ns)
        return 0;
    return (unsigned)llround((double)wait_ns / (double)access_ns);
}

/* ------------------------------------------------------------------ the plan */

/* HIR's and DIRTH's preconditioning round (the definition's precondition_round, scaled, or
 * the element). */
static double pc_round_s(const struct pts_def *d, const struct pts_timing *t)
{
    return d->precondition_round_ns
               ? (double)pts_scaled_ns(d->precondition_round_ns, t->time_scale) / NS_PER_S
               : (double)t->element_ns / NS_PER_S;
}

static double rounds_bound(unsigned max_rounds, double per_round)
{
    return max_rounds ? (double)max_rounds * per_round : INFINITY;
}

double pts_estimate_s(const struct pts_def *d, const struct pts_timing *t)
{
    const double el = (double)t->element_ns / NS_PER_S;
    const double sc = t->time_scale;
    switch (d->kind) {
    case PTS_KIND_HIR: {
        double sum = rounds_bound(t->max_rounds, pc_round_s(d, t));
        const double access = (double)pts_scaled_ns(d->access_ns, sc) / NS_PER_S;
        for (unsigned w = 0; w < d->n_waits; w++) {
            const double wait = (double)pts_scaled_ns(d->waits_ns[w], sc) / NS_PER_S;
            sum += d->repetitions * (access + wait) + d->baseline_accesses * access;
        }
        return sum;
    }
    case PTS_KIND_XSR: {
        double sum = 0;
        for (unsigned g = 0; g < d->n_groups; g++)
            sum += (double)pts_xsr_group_rounds(&d->groups[g], sc, t->element_ns) * el;
        return sum;
    }
    case PTS_KIND_DIRTH: {
        const unsigned points = d->n_threads_list * d->n_qd_list;
        return rounds_bound(t->max_rounds, pc_round_s(d, t) + points * el) +
               3.0 * (double)pts_scaled_ns(d->histogram_ns, sc) / NS_PER_S;
    }
    case PTS_KIND_STANDARD:
    default:
        if (d->stop == PTS_STOP_CAPACITY)
            return (double)t->max_time_ns / NS_PER_S;
        return rounds_bound(t->max_rounds, (double)t->subtests * t->elements_per_round * el);
    }
}

double pts_estimate_likely_s(const struct pts_def *d, const struct pts_timing *t)
{
    struct pts_timing l = *t;
    if (!l.max_rounds || l.max_rounds > PTS_LIKELY_ROUND)
        l.max_rounds = PTS_LIKELY_ROUND;
    if (d->kind == PTS_KIND_STANDARD && d->stop == PTS_STOP_CAPACITY)
        l.max_rounds = t->max_rounds;
    return pts_estimate_s(d, &l);
}

bool pts_tracks_mb_s(const struct pts_def *d)
{
    if (d->kind == PTS_KIND_XSR)
        return true;
    return d->n_track && strstr(d->track[0].metric, "mb_s") != NULL;
}

static void steady_pc_text(const struct pts_def *d, const struct pts_timing *t, bool random,
                           unsigned threads, unsigned qd, unsigned mix, char *buf, size_t len)
{
    char bs[32], round[32];
    units_format_size(d->bss[0], bs, sizeof(bs));
    pts_format_duration(pc_round_s(d, t), round, sizeof(round));
    snprintf(buf, len, "steady-state preconditioning: %s %s%s %u/%u at %u x %u in rounds of %s",
             random ? "RND" : "SEQ", bs, d->extra[0] ? " (with the definition's extra keys)" : "",
             mix, 100 - mix, threads, qd, round);
}

void pts_preparation_text(const struct pts_def *d, const struct pts_timing *t, char *buf,
                          size_t len)
{
    char what[192];
    switch (d->kind) {
    case PTS_KIND_HIR:   /* the stimulus itself, at the test's outstanding I/O */
        steady_pc_text(d, t, d->random, t->threads, t->qd, d->mixes[0], what, sizeof(what));
        break;
    case PTS_KIND_DIRTH: /* RND writes, at the definition's precondition_threads x _qd */
        steady_pc_text(d, t, true, d->pc_threads, d->pc_qd, 0, what, sizeof(what));
        break;
    case PTS_KIND_XSR:
    case PTS_KIND_STANDARD:
    default:
        if (d->wipc) {
            char bs[32] = "";
            if (d->wipc_bs)
                units_format_size(d->wipc_bs, bs, sizeof(bs));
            snprintf(what, sizeof(what), "WIPC %ux the active range in SEQ %s%swrites%s",
                     d->wipc_fills, bs, bs[0] ? " " : "",
                     d->wipc_bs ? (d->subtests == PTS_SUB_BS ? " before each subtest" : "")
                                : " of each subtest's block size, before it");
        } else {
            snprintf(what, sizeof(what), "no preconditioning (from fresh-out-of-box)");
        }
        break;
    }
    if (t->fast && d->kind == PTS_KIND_STANDARD)
        snprintf(what, sizeof(what), "the fast pass in WIPC's place (--precondition fast), then "
                 "the test loop as the WDPC");
    snprintf(buf, len, "%s, %s%s", d->purge ? "purge" : "no purge",
             t->fast && d->kind != PTS_KIND_STANDARD ? "the fast pass (--precondition fast), "
                                                     : "", what);
}

void pts_loop_text(const struct pts_def *d, const struct pts_timing *t, char *buf, size_t len)
{
    char el[32], a[32];
    pts_format_duration((double)t->element_ns / NS_PER_S, el, sizeof(el));
    switch (d->kind) {
    case PTS_KIND_HIR:
        pts_format_duration((double)pts_scaled_ns(d->access_ns, t->time_scale) / NS_PER_S, a,
                            sizeof(a));
        snprintf(buf, len, "%u wait states x %u x (%s + idle), then %u x %s baseline", d->n_waits,
                 d->repetitions, a, d->baseline_accesses, a);
        break;
    case PTS_KIND_XSR: {
        size_t o = (size_t)snprintf(buf, len, "%u groups in rounds of %s:", d->n_groups, el);
        for (unsigned g = 0; g < d->n_groups && o < len; g++) {
            char bs[32], dur[32];
            const struct pts_group *gr = &d->groups[g];
            units_format_size(gr->bs, bs, sizeof(bs));
            pts_format_duration((double)pts_xsr_group_rounds(gr, t->time_scale, t->element_ns) *
                                    (double)t->element_ns / NS_PER_S, dur, sizeof(dur));
            o += (size_t)snprintf(buf + o, len - o, "%s %s %s %u/%u %s", g ? "," : "",
                                  gr->random ? "RND" : "SEQ", bs, gr->mix, 100 - gr->mix, dur);
        }
        break;
    }
    case PTS_KIND_DIRTH:
        pts_format_duration((double)pts_scaled_ns(d->histogram_ns, t->time_scale) / NS_PER_S, a,
                            sizeof(a));
        if (t->max_rounds)
            snprintf(buf, len, "up to %u rounds x %u points of %s, then 3 histograms of %s",
                     t->max_rounds, d->n_threads_list * d->n_qd_list, el, a);
        else
            snprintf(buf, len, "rounds x %u points of %s, then 3 histograms of %s",
                     d->n_threads_list * d->n_qd_list, el, a);
        break;
    case PTS_KIND_STANDARD:
    default:
        if (d->stop == PTS_STOP_CAPACITY) {
            pts_format_duration((double)t->max_time_ns / NS_PER_S, a, sizeof(a));
            snprintf(buf, len, "rounds of %s until %gx the capacity is written or %s", el,
                     t->stop_capacity, a);
        } else {
            snprintf(buf, len, "%u subtest%s x up to %u rounds x %u elements of %s",
                     t->subtests, t->subtests == 1 ? "" : "s", t->max_rounds,
                     t->elements_per_round, el);
        }
        break;
    }
}

/* ------------------------------------------------------------------ closing line */

void pts_closing_line(const char *status, bool complete, size_t n_notes, bool simulated,
                      char *buf, size_t len)
{
    const char *sim = simulated ? " (simulated drive)" : "";
    if (complete && !n_notes)
        snprintf(buf, len, "%s; compliant with the spec's settings%s", status, sim);
    else if (!complete && !n_notes)
        snprintf(buf, len, "%s; NOT compliant%s (did not complete)", status, sim);
    else
        snprintf(buf, len, "%s; NOT compliant%s:", status, sim);
}
