/* fio_ss.c — fio's steady-state options mapped to a run (fio_ss.h). */
#include "core/fio_ss.h"

#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/json_path.h"
#include "lib/units.h"
#include "lib/util.h"

static const char *const ss_names[] = {"", "iops", "bw", "lat"};
static const char *const ss_tracks[] = {"", "iops", "mb_s", "lat_mean_us"};

/* fio's criterion over y[0..n): max deviation from the mean or least-squares slope per sample,
 * as a percent of the mean when the limit is. */
static double ss_criterion(const struct wl_ss *ss, const double *y, size_t n)
{
    double sum = 0, sxy = 0, sx = 0, sxx = 0;
    for (size_t i = 0; i < n; i++) {
        sum += y[i];
        sxy += (double)i * y[i];
        sx += (double)i;
        sxx += (double)i * (double)i;
    }
    const double mean = sum / (double)n;
    double c = 0;
    if (ss->slope) {
        const double den = sxx - sx * sx / (double)n;
        c = den > 0 ? (sxy - sx * sum / (double)n) / den : 0;
    } else {
        for (size_t i = 0; i < n; i++)
            c = fmax(c, fabs(y[i] - mean));
    }
    if (ss->pct)
        c = mean > 0 ? 100.0 * c / mean : INFINITY;
    return fabs(c);
}

void fio_ss_eval(const struct wl_ss *ss, const double *y, size_t n, double interval_s,
                 struct fio_ss_result *out)
{
    memset(out, 0, sizeof(*out));
    const size_t w = interval_s > 0 ? (size_t)llround((double)ss->dur_ns / 1e9 / interval_s) : 0;
    if (!w || ss->metric == WL_SS_NONE)
        return;
    for (size_t end = w; end <= n; end++) {
        out->evaluated = true;
        out->windows++;
        out->criterion = ss_criterion(ss, y + end - w, w);
        if (out->criterion < ss->limit) {
            out->attained = true;
            out->sample = (unsigned)end;
            out->at_s = (double)end * interval_s;
            return;
        }
    }
}

/* The limit as the job gave it: "2%", "150", "1.5e+06". */
static void ss_limit_text(const struct wl_ss *ss, char *buf, size_t len)
{
    snprintf(buf, len, "%g%s", ss->limit, ss->pct ? "%" : "");
}

/* latency_target: what runs the search, said in the note. */
static void lat_note(struct run_record *rec)
{
    const struct wl_lat_target *lt = &rec->wl.lat;
    if (!lt->target_ns)
        return;
    char t[32], note[320];
    units_format_figure((double)lt->target_ns / 1000.0, UNITS_FIG_LAT, t, sizeof(t));
    if (rec->engine && (rec->engine->flags & ENGINE_F_WHOLE_ROUND))
        snprintf(note, sizeof(note), "latency_target %s: fio searches the depth (up to iodepth "
                 "%u) in each round%s", t, rec->wl.qd,
                 lt->run ? "" : ", ending the round once it settles");
    else
        snprintf(note, sizeof(note), "latency_target %s (%g%% per window): each worker's depth "
                 "is fio's search up to iodepth %u; %s", t,
                 lt->percentile > 0 ? lt->percentile : 100.0, rec->wl.qd,
                 lt->run ? "it searches on (latency_run)"
                         : "once settled it is kept for the rounds (fio would end the job)");
    wl_note_add(&rec->wl, note);
}

int fio_ss_map(struct run_record *rec, char *err, size_t errlen)
{
    const struct wl_ss *ss = &rec->wl.ss;
    struct run_config *c = &rec->cfg;
    lat_note(rec);
    if (!ss->dur_ns || ss->metric == WL_SS_NONE)
        return 0;
    (void)err;
    (void)errlen;
    const char *want = ss_tracks[ss->metric];
    const bool own = !strcmp(c->track, "iops") || !strcmp(c->track, want);   /* iops: default */
    if (own)
        c->track = want;
    bool tighter = false;
    if (!ss->slope && ss->pct && ss->limit / 100.0 < c->criteria.range_frac) {
        c->criteria.range_frac = ss->limit / 100.0;
        tighter = true;
    }
    const double ramp = (double)ss->ramp_ns / 1e9, round = (double)c->round_time_ns / 1e9;
    if (ramp > 0 && round > 0)
        rec->ss_floor = (unsigned)ceil(ramp / round - 1e-9) + 1;
    char lim[32], note[320];
    ss_limit_text(ss, lim, sizeof(lim));
    snprintf(note, sizeof(note),
             "ss=%s%s:%s, ss_dur %g s: ptsbench's rule decides, not fio's: %s%s over %u rounds, "
             "range <= %g%%%s, slope <= %g%%%s; fio's criterion recorded (steady_state.fio)",
             ss_names[ss->metric], ss->slope ? "_slope" : "", lim, (double)ss->dur_ns / 1e9,
             c->track, own ? "" : " (--track)", c->criteria.window, 100 * c->criteria.range_frac,
             tighter ? " (fio's limit)" : "", 100 * c->criteria.slope_frac,
             rec->ss_floor > 1 ? ", no window before ss_ramp" : "");
    wl_note_add(&rec->wl, note);
    if (ss->metric == WL_SS_LAT)
        wl_note_add(&rec->wl, "ss=lat (fio newer than 3.33): fio's criterion is evaluated on "
                              "the mean latency per interval, submission to completion (fio's "
                              "is completion latency, without the submission)");
    if (ramp > 0 && !round)
        wl_note_add(&rec->wl, "ss_ramp with rounds of bytes: not applied (no round has a time)");
    return 0;
}

/* One sample's value of fio's variable and its weight in an ss_interval: IOPS and bandwidth
 * average over the samples; the mean latency weighs by the sample's I/Os (fio: the change of
 * Σ clat mean x samples over every direction, over the change of samples). */
static void ss_take(const struct wl_ss *ss, const struct sample_series *s, unsigned j,
                    double *acc, double *wsum)
{
    if (ss->metric == WL_SS_LAT) {
        const double lat = s->lat_mean_us ? s->lat_mean_us[j] : NAN;
        if (isfinite(lat) && s->iops[j] > 0) {
            *acc += lat * s->iops[j];
            *wsum += s->iops[j];
        }
        return;
    }
    *acc += ss->metric == WL_SS_BW ? s->mb_s[j] * 1e6 : s->iops[j];
    *wsum += 1;
}

/* The stimulus's per-second values of fio's variable, past ss_ramp, in ss_interval steps; an
 * interval that completed no I/O has latency 0, as in fio. */
static double *ss_series(const struct run_record *rec, double *interval_s, size_t *n_out,
                         unsigned **round_of)
{
    const struct wl_ss *ss = &rec->wl.ss;
    size_t cap = 0;
    for (unsigned i = 0; i < rec->n_rounds; i++)
        cap += rec->rounds[i].samples.n;
    double *y = xcalloc(cap + 1, sizeof(*y));
    *round_of = xcalloc(cap + 1, sizeof(**round_of));
    double base = rec->n_rounds ? rec->rounds[0].samples.interval_s : 1;
    if (!(base > 0))
        base = 1;
    const unsigned k = ss->interval_ns ? (unsigned)llround((double)ss->interval_ns / 1e9 / base) : 1;
    const double skip_s = (double)ss->ramp_ns / 1e9;
    size_t n = 0, seen = 0;
    double acc = 0, wsum = 0;
    unsigned in = 0;
    for (unsigned i = 0; i < rec->n_rounds; i++) {
        const struct sample_series *s = &rec->rounds[i].samples;
        for (unsigned j = 0; j < s->n; j++, seen++) {
            if ((double)seen * base < skip_s - 1e-9)
                continue;
            ss_take(ss, s, j, &acc, &wsum);
            if (++in < (k ? k : 1))
                continue;
            (*round_of)[n] = rec->rounds[i].round;
            y[n++] = wsum > 0 ? acc / wsum : 0;
            acc = 0;
            wsum = 0;
            in = 0;
        }
    }
    *interval_s = base * (k ? k : 1);
    *n_out = n;
    return y;
}

/* Whether any sample of the run holds a mean latency (an engine that measured none: no). */
static bool samples_hold_lat(const struct run_record *rec)
{
    for (unsigned i = 0; i < rec->n_rounds; i++) {
        const struct sample_series *s = &rec->rounds[i].samples;
        for (unsigned j = 0; s->lat_mean_us && j < s->n; j++)
            if (isfinite(s->lat_mean_us[j]))
                return true;
    }
    return false;
}

void fio_ss_run_eval(const struct run_record *rec, struct fio_ss_result *out)
{
    memset(out, 0, sizeof(*out));
    const struct wl_ss *ss = &rec->wl.ss;
    if (!ss->dur_ns || ss->metric == WL_SS_NONE)
        return;
    if (ss->metric == WL_SS_LAT && !samples_hold_lat(rec)) {
        out->no_latency = true;
        return;
    }
    double interval = 1;
    size_t n = 0;
    unsigned *round_of = NULL;
    double *y = ss_series(rec, &interval, &n, &round_of);
    fio_ss_eval(ss, y, n, interval, out);
    if (out->attained) {   /* seconds of the stimulus: past ss_ramp, as fio counts from start */
        out->at_s += (double)ss->ramp_ns / 1e9;
        out->sample = round_of[out->sample - 1];   /* the round it fell in */
    }
    free(y);
    free(round_of);
}

struct json_object *fio_ss_json(const struct run_record *rec)
{
    const struct wl_ss *ss = &rec->wl.ss;
    if (!ss->dur_ns || ss->metric == WL_SS_NONE)
        return NULL;
    struct fio_ss_result r;
    fio_ss_run_eval(rec, &r);
    struct json_object *o = json_object_new_object();
    char form[32];
    snprintf(form, sizeof(form), "%s%s", ss_names[ss->metric], ss->slope ? "_slope" : "");
    jw_add(o, "decided_by", jw_str("ptsbench"));   /* the window above: steady.h, drive_state.h */
    jw_add(o, "criterion", jw_str(form));
    jw_add(o, "limit", jw_num(ss->limit));
    jw_add(o, "limit_unit", jw_str(ss->pct ? "percent_of_mean"
                                   : ss->metric == WL_SS_BW ? "bytes_per_s"
                                   : ss->metric == WL_SS_LAT ? "us" : "iops"));
    jw_add(o, "duration_s", jw_num((double)ss->dur_ns / 1e9));
    jw_add(o, "ramp_s", jw_num((double)ss->ramp_ns / 1e9));
    jw_add(o, "interval_s", jw_num(ss->interval_ns ? (double)ss->interval_ns / 1e9 : 1));
    if (rec->ss_floor > 1)
        jw_add(o, "first_window_round", jw_int(rec->ss_floor));
    jw_add(o, "evaluated", json_object_new_boolean(r.evaluated));
    if (!r.evaluated) {
        jw_add(o, "why_not", jw_str(r.no_latency ? "the samples hold no latency"
                                                 : "fewer samples than fio's window"));
        return o;
    }
    jw_add(o, "fio_would_stop", json_object_new_boolean(r.attained));
    if (r.attained) {
        jw_add(o, "at_s", jw_num(r.at_s));
        jw_add(o, "at_round", jw_int(r.sample));
    }
    jw_add(o, "criterion_value", jw_num(r.criterion));
    jw_add(o, "windows", jw_int(r.windows));
    return o;
}

void fio_ss_print(const struct run_record *rec)
{
    const struct wl_ss *ss = &rec->wl.ss;
    if (!ss->dur_ns || ss->metric == WL_SS_NONE)
        return;
    struct fio_ss_result r;
    fio_ss_run_eval(rec, &r);
    char lim[32], when[32], crit[32];
    ss_limit_text(ss, lim, sizeof(lim));
    printf("\nfio's ss=%s%s:%s (ss_dur %g s; not the rule that decided): ", ss_names[ss->metric],
           ss->slope ? "_slope" : "", lim, (double)ss->dur_ns / 1e9);
    if (!r.evaluated) {
        printf("not evaluated (%s)", r.no_latency ? "no per-interval latency"
                                                  : "fewer samples than its window");
        return;
    }
    units_format_figure(r.criterion, ss->pct ? UNITS_FIG_PCT
                                     : ss->metric == WL_SS_LAT ? UNITS_FIG_LAT : UNITS_FIG_VALUE,
                        crit, sizeof(crit));
    if (r.attained) {
        units_format_figure(r.at_s, UNITS_FIG_VALUE, when, sizeof(when));
        printf("fio would have stopped after %s s (round %u), criterion %s", when, r.sample, crit);
    } else {
        printf("fio would not have stopped (last criterion %s over %u windows)", crit, r.windows);
    }
}
