/* plot_steady.c — steady-state charts: convergence (the tracked figure per round, one line per
 * block size) and the measurement window (values, average, ±10% and ±20% bands, fitted line),
 * as the SNIA PTS report pages draw them; also the preconditioning rounds of HIR and DIRTH. */
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/metrics.h"
#include "core/results.h"
#include "lib/units.h"
#include "lib/util.h"
#include "plot/chart.h"
#include "read/tracking.h"
#include "read/words.h"

/* ---- metrics ---- */

bool plot_metric_is_latency(const char *metric)
{
    const struct metric_def *d = metrics_def(metric);
    return d && d->kind == METRIC_KIND_LAT;
}

double plot_elem_metric(struct json_object *e, const char *metric)
{
    if (!jp_obj_at(e, "total"))
        return jp_num(e, metric);   /* the flat records of precondition / HIR / XSR */
    const struct metric_def *d = metrics_def(metric);   /* a suite element: figures object */
    return d ? jp_path(e, d->path) : NAN;
}

const char *plot_metric_axis(const char *metric)
{
    const struct metric_def *d = metrics_def(metric);
    return metrics_kind_axis(d ? d->kind : METRIC_KIND_IOPS);
}

static const char *metric_word(const char *metric)
{
    const struct metric_def *d = metrics_def(metric);
    return d ? d->chart : report_words_metric(metric);   /* never the key itself */
}

/* A variable of a block size and a R/W mix (METRIC@BS/MIX): the charts draw those. */
static bool tracked_at(const struct tracking *t)
{
    return t->bs && t->read_pct >= 0;
}

/* The maximum latency of a mean latency's direction ("write_lat_mean_us" -> "write_lat_max_us"),
 * NULL for another metric. */
static const char *max_of(const char *metric)
{
    const struct metric_def *d = metrics_def(metric);
    for (unsigned i = 0; d && d->kind == METRIC_KIND_LAT && d->pct == METRIC_STAT_MEAN &&
                         i < METRIC_N; i++)
        if (metrics_defs[i].kind == METRIC_KIND_LAT && metrics_defs[i].dir == d->dir &&
            metrics_defs[i].pct == METRIC_STAT_MAX)
            return metrics_defs[i].key;
    return NULL;
}

/* ---- the measurement window ---- */

static struct json_object *round_by_number(struct json_object *rounds, double r)
{
    for (size_t i = 0; i < jp_len(rounds); i++) {
        struct json_object *o = jp_idx(rounds, i);
        if (jp_num(o, "round") == r)
            return o;
    }
    return NULL;
}

double plot_tracked_value(struct json_object *round, const struct plot_window_src *s)
{
    struct json_object *tr = jp_arr(round, "tracked");
    if (tr)
        return jp_number(jp_idx(tr, (size_t)s->k));
    struct tracking t;
    tracking_of(s->var, &t);
    if (!t.metric[0])
        return NAN;
    return plot_elem_metric(round, t.metric);   /* a suite element or a run round: figures */
}

/* The unit of a window's tracked values, for its annotation: "IOPS", "MB/s", "µs". */
static const char *window_unit(struct json_object *var)
{
    struct tracking t;
    tracking_of(var, &t);
    const struct metric_def *d = metrics_def(t.metric);
    return d && d->kind != METRIC_KIND_MIB_S ? metrics_kind_unit(d->kind) : "";
}

static void window_chart_one(struct plot_ctx *c, const char *name, const char *section,
                             const char *title, const char *ylabel,
                             const struct plot_window_src *s, size_t n);

/* One chart per device (their bands would lie over each other): the sources of the first
 * input with a window make NAME, the next input's NAME-2, ... */
void plot_window_chart(struct plot_ctx *c, const char *name, const char *section,
                       const char *title, const char *ylabel, const struct plot_window_src *s,
                       size_t n)
{
    struct plot_window_src *sub = xcalloc(n ? n : 1, sizeof(*sub));
    for (size_t input = 0; input < c->n_in; input++) {
        size_t k = 0;
        for (size_t i = 0; i < n; i++)
            if (s[i].input == input)
                sub[k++] = s[i];
        if (k)
            window_chart_one(c, name, section, title, ylabel, sub, k);
    }
    free(sub);
}

static void window_chart_one(struct plot_ctx *c, const char *name, const char *section,
                             const char *title, const char *ylabel,
                             const struct plot_window_src *s, size_t n)
{
    size_t n_win = 0;
    for (size_t i = 0; i < n; i++)
        if (jp_get(jp_get(s[i].var, "window"), "first_round"))
            n_win++;
    if (!n_win)
        return;
    char caption[512];
    snprintf(caption, sizeof(caption),
             "Measurement window: the tracked values of the window's rounds, their average, "
             "±10%% and ±20%% of the average, and the least-squares line; within the SNIA "
             "steady-state limits when the range is within 20%% and the line's excursion within "
             "10%% of the average (steady state also needs the drive preconditioned: the title "
             "says its state).");
    struct plot_chart *ch = plot_chart_new(c, name, section, title, caption);
    plot_set(ch, "set xlabel 'round'");
    char q[256];
    plot_quote(q, sizeof(q), ylabel);
    plot_set(ch, "set ylabel %s", q);
    plot_round_xtics(ch);
    plot_count_axis(ch);
    /* room above the data for the steady-state determination lines */
    plot_set(ch, "set offsets 0.3, 0.3, graph %.2f, graph 0.04", 0.08 + 0.07 * (double)n_win);
    int label_no = 1;
    for (size_t i = 0; i < n; i++) {
        struct json_object *w = jp_get(s[i].var, "window");
        double r0 = jp_num(w, "first_round"), r1 = jp_num(w, "last_round");
        double avg = jp_num(w, "average"), slope = jp_num(w, "slope");
        double icpt = jp_num(w, "intercept");
        if (!isfinite(r0) || !isfinite(r1) || !isfinite(avg))
            continue;
        const char *label = c->in[s[i].input].label;
        int d = plot_dev(ch, s[i].input);
        bool many = n_win > 1;
        char t[512], series[512];
        char word[128];   /* "steady", or what the window is (plot_state.c) */
        plot_window_word(s[i].var, word, sizeof(word));

        snprintf(series, sizeof(series), "%s: %s, rounds %g-%g", label, s[i].what, r0, r1);
        int ix = plot_block(ch, s[i].input, series, "round value");
        for (double r = r0; r <= r1; r++) {
            struct json_object *ro = round_by_number(s[i].rounds, r);
            if (ro)
                plot_row(ch, 2, r, s[i].value(ro, &s[i]));
        }
        if (plot_block_end(ch) > 0) {
            snprintf(t, sizeof(t), "%s%s%s (%s)", many ? label : "", many ? ": " : "", s[i].what,
                     word);
            plot_elem(ch, t, "dat index %d using 1:2 with linespoints lw 2.5 pt %d ps 1.3 %s", ix,
                      plot_pt(d), (many ? plot_dev_color(d) : plot_color(0)));
        }
        snprintf(series, sizeof(series), "%s: average, bands and least-squares line", label);
        ix = plot_block(ch, s[i].input, series,
                        "round average +10% -10% +20% -20% least_squares_fit");
        for (double r = r0; r <= r1; r += (r1 > r0 ? r1 - r0 : 1)) {
            double fit = isfinite(slope) && isfinite(icpt) ? slope * r + icpt : NAN;
            plot_row(ch, 7, r, avg, avg * 1.1, avg * 0.9, avg * 1.2, avg * 0.8, fit);
        }
        plot_block_end(ch);
        const char *c_avg = (many ? plot_dev_color(d) : plot_color(10)), *c10 = (many ? plot_dev_color(d) : plot_color(1));
        char avg_s[32];
        units_format_short(avg, avg_s, sizeof(avg_s));
        if (many)
            snprintf(t, sizeof(t), "%s: average %s, ±10%% dashed, ±20%% dotted", label, avg_s);
        else
            snprintf(t, sizeof(t), "average %s", avg_s);
        plot_elem(ch, t, "dat index %d using 1:2 with lines lw 1.5 dt 1 %s", ix, c_avg);
        plot_elem(ch, many ? NULL : "±10% of average",
                  "dat index %d using 1:3 with lines lw 1.2 dt 2 %s", ix, c10);
        plot_elem(ch, NULL, "dat index %d using 1:4 with lines lw 1.2 dt 2 %s", ix, c10);
        const char *c20 = (many ? plot_dev_color(d) : plot_color(3));
        plot_elem(ch, many ? NULL : "±20% of average",
                  "dat index %d using 1:5 with lines lw 1.2 dt 3 %s", ix, c20);
        plot_elem(ch, NULL, "dat index %d using 1:6 with lines lw 1.2 dt 3 %s", ix, c20);
        const char *fit = jp_str(w, "fit");
        char fit_s[96], sl_s[32], ic_s[32];
        units_format_short(slope, sl_s, sizeof(sl_s));
        units_format_short(fabs(icpt), ic_s, sizeof(ic_s));
        if (isfinite(slope) && isfinite(icpt))
            snprintf(fit_s, sizeof(fit_s), "y = %s·x %s %s", sl_s, icpt < 0 ? "-" : "+", ic_s);
        else
            str_copy(fit_s, sizeof(fit_s), fit ? fit : "");
        snprintf(t, sizeof(t), "%s%sleast squares: %s", many ? label : "", many ? ": " : "",
                 fit_s);
        plot_elem(ch, t, "dat index %d using 1:7 with lines lw 1.5 dt 4 %s", ix,
                  (many ? plot_dev_color(d) : plot_color(2)));
        /* the SS determination, one line per device */
        char text[512], qt[600], r_s[32], ra_s[32], e_s[32], ea_s[32];
        const char *unit = window_unit(s[i].var);
        units_format_short_sig(jp_num(w, "range"), 2, r_s, sizeof(r_s));
        units_format_short_sig(jp_num(w, "range_allowed"), 2, ra_s, sizeof(ra_s));
        units_format_short_sig(jp_num(w, "slope_excursion"), 2, e_s, sizeof(e_s));
        units_format_short_sig(jp_num(w, "slope_excursion_allowed"), 2, ea_s, sizeof(ea_s));
        snprintf(text, sizeof(text),
                 "%s%srange %s%s%s (allowed %s), slope excursion %s%s%s (allowed %s): %s",
                 many ? label : "", many ? ": " : "", r_s, *unit ? " " : "", unit, ra_s, e_s,
                 *unit ? " " : "", unit, ea_s, word);
        plot_quote(qt, sizeof(qt), text);
        plot_set(ch, "set label %d %s at graph 0.01, graph %.3f left front", label_no, qt,
                 0.97 - 0.05 * (label_no - 1));
        label_no++;
    }
    plot_chart_done(c, ch);
}

/* ---- suite tests: IOPS, throughput, latency ---- */

struct series_key {
    double bs, mix;
};

static int key_find(const struct series_key *k, size_t n, double bs, double mix)
{
    for (size_t i = 0; i < n; i++)
        if (k[i].bs == bs && k[i].mix == mix)
            return (int)i;
    return -1;
}

static int cmp_key(const void *a, const void *b)
{
    const struct series_key *x = a, *y = b;
    if (x->mix != y->mix)
        return x->mix > y->mix ? -1 : 1;
    return x->bs < y->bs ? -1 : x->bs > y->bs;
}

/* Convergence: the tracked metric of every round, one line per block size at the tracked
 * R/W mix (IOPS, latency), or per block size and mix (throughput: read and write). */
static void suite_convergence(struct plot_ctx *c, const char *test, const char *name,
                              const char *metric_override, bool all_mixes, bool logy)
{
    struct series_key keys[64];
    size_t n_keys = 0;
    char metric[64] = "";
    double tmix = 0;
    for (size_t i = 0; i < c->n_in; i++) {
        struct json_object *t = plot_suite_test(c->in[i].doc, test);
        struct json_object *subs = jp_arr(t, "subtests");
        for (size_t j = 0; j < jp_len(subs); j++) {
            struct json_object *st = jp_idx(subs, j);
            struct tracking tk;
            tracking_at(st, 0, &tk);
            if (!tracked_at(&tk))
                continue;
            tmix = tk.read_pct;
            if (!metric[0])
                str_copy(metric, sizeof(metric), metric_override ? metric_override : tk.metric);
            struct json_object *r0 = jp_idx(jp_arr(st, "rounds"), 0);
            struct json_object *els = jp_arr(r0, "elements");
            for (size_t e = 0; e < jp_len(els); e++) {
                struct json_object *el = jp_idx(els, e);
                double bs = jp_num(el, "bs"), mix = jp_num(el, "rwmix_read");
                if (!all_mixes && mix != tmix)
                    continue;
                if (key_find(keys, n_keys, bs, mix) < 0 && n_keys < 64)
                    keys[n_keys++] = (struct series_key){bs, mix};
            }
        }
    }
    if (!n_keys || !metric[0])
        return;
    qsort(keys, n_keys, sizeof(keys[0]), cmp_key);

    char title[256], caption[512], mixl[32];
    plot_mix_label(tmix, mixl, sizeof(mixl));
    const char *tt = NULL;
    for (size_t i = 0; i < c->n_in && !tt; i++)
        tt = jp_str(plot_suite_test(c->in[i].doc, test), "title");
    if (all_mixes)
        snprintf(title, sizeof(title), "%s test: steady-state convergence, %s per round",
                 tt ? tt : test, metric_word(metric));
    else
        snprintf(title, sizeof(title), "%s test: steady-state convergence, %s %s per round",
                 tt ? tt : test, mixl, metric_word(metric));
    char tag[128];
    plot_suite_state_tag(c, test, PS_ROUNDS, tag, sizeof(tag));
    plot_title_tag(title, sizeof(title), tag);
    snprintf(caption, sizeof(caption),
             "Steady-state convergence: %s of every round, one line per block size%s; the "
             "tracking variable must settle within the 5-round measurement window.",
             metric_word(metric), all_mixes ? " and direction" : "");
    struct plot_chart *ch = plot_chart_new(c, name, test, title, caption);
    char q[128];
    plot_quote(q, sizeof(q), plot_metric_axis(metric));
    plot_set(ch, "set xlabel 'round'");
    plot_set(ch, "set ylabel %s", q);
    plot_round_xtics(ch);
    if (logy) {
        plot_set(ch, "set logscale y");
        plot_set(ch, "set format y '%%.0s%%c'");
    } else {
        plot_set(ch, "set yrange [0:*]");
    }
    size_t n_src = 0;
    for (size_t i = 0; i < c->n_in; i++)
        if (plot_suite_test(c->in[i].doc, test))
            n_src++;
    bool titled[64] = {false};
    for (size_t i = 0; i < c->n_in; i++) {
        struct json_object *t = plot_suite_test(c->in[i].doc, test);
        struct json_object *subs = jp_arr(t, "subtests");
        if (!subs)
            continue;
        for (size_t k = 0; k < n_keys; k++) {
            char bsl[32], series[512], tl[512];
            units_format_bs(keys[k].bs, bsl, sizeof(bsl));
            plot_mix_label(keys[k].mix, mixl, sizeof(mixl));
            const char *dirw = keys[k].mix == 100 ? "read" : keys[k].mix == 0 ? "write" : mixl;
            snprintf(series, sizeof(series), "%s: %s %s", c->in[i].label, bsl,
                     all_mixes ? dirw : mixl);
            int ix = plot_block(ch, i, series, "round value");
            for (size_t j = 0; j < jp_len(subs); j++) {
                struct json_object *rounds = jp_arr(jp_idx(subs, j), "rounds");
                for (size_t r = 0; r < jp_len(rounds); r++) {
                    struct json_object *ro = jp_idx(rounds, r);
                    struct json_object *els = jp_arr(ro, "elements");
                    for (size_t e = 0; e < jp_len(els); e++) {
                        struct json_object *el = jp_idx(els, e);
                        if (jp_num(el, "bs") != keys[k].bs ||
                            jp_num(el, "rwmix_read") != keys[k].mix)
                            continue;
                        double v = plot_elem_metric(el, metric);
                        plot_row(ch, 2, jp_num(ro, "round"), logy ? plot_pos(v) : v);
                    }
                }
            }
            if (plot_block_end(ch) <= 0)
                continue;
            int d = plot_dev(ch, i);
            /* colours the block sizes (and directions), dashes the devices: several devices
             * give each series one entry, by the first device that draws it, and each device
             * one (plot_dev_keys), S + D entries instead of S x D */
            snprintf(tl, sizeof(tl), "%s%s%s", bsl, all_mixes ? " " : "", all_mixes ? dirw : "");
            plot_elem(ch, titled[k] ? NULL : tl,
                      "dat index %d using 1:2 with linespoints lw 2 pt %d dt %d %s", ix,
                      plot_pt(d), plot_dt(d), plot_color((int)k));
            titled[k] = n_src > 1;
        }
    }
    if (n_src > 1)
        plot_dev_keys(c, ch);
    plot_chart_done(c, ch);
}

/* One window chart per subtest and tracking variable, devices overlaid. */
static void suite_windows(struct plot_ctx *c, const char *test)
{
    struct wkey {
        char sub[64], tracking[128];
        struct tracking t;
    } keys[32];
    size_t n_keys = 0;
    bool multi_sub = false;
    for (size_t i = 0; i < c->n_in; i++) {
        struct json_object *subs = jp_arr(plot_suite_test(c->in[i].doc, test), "subtests");
        if (jp_len(subs) > 1)
            multi_sub = true;
        for (size_t j = 0; j < jp_len(subs); j++) {
            struct json_object *st = jp_idx(subs, j);
            struct json_object *vars = jp_arr(jp_get(st, "steady_state"), "variables");
            for (size_t k = 0; k < jp_len(vars); k++) {
                const char *tr = jp_str(jp_idx(vars, k), "tracking");
                const char *lab = jp_str(st, "label");
                if (!tr)
                    continue;
                bool found = false;
                for (size_t q = 0; q < n_keys; q++)
                    if (!strcmp(keys[q].tracking, tr) && !strcmp(keys[q].sub, lab ? lab : ""))
                        found = true;
                if (!found && n_keys < 32) {
                    str_copy(keys[n_keys].sub, sizeof(keys[n_keys].sub), lab ? lab : "");
                    str_copy(keys[n_keys].tracking, sizeof(keys[n_keys].tracking), tr);
                    tracking_of(jp_idx(vars, k), &keys[n_keys].t);
                    n_keys++;
                }
            }
        }
    }
    const char *tt = NULL;
    for (size_t i = 0; i < c->n_in && !tt; i++)
        tt = jp_str(plot_suite_test(c->in[i].doc, test), "title");
    for (size_t q = 0; q < n_keys; q++) {
        struct plot_window_src src[64];
        size_t n = 0;
        char what[128], metric[64];
        if (tracked_at(&keys[q].t)) {
            char bsl[32], mixl[32];
            str_copy(metric, sizeof(metric), keys[q].t.metric);
            units_format_bs(keys[q].t.bs, bsl, sizeof(bsl));
            plot_mix_label(keys[q].t.read_pct, mixl, sizeof(mixl));
            snprintf(what, sizeof(what), "%s %s %s", bsl, mixl, metric_word(metric));
        } else {
            str_copy(what, sizeof(what), keys[q].tracking);
            str_copy(metric, sizeof(metric), keys[q].tracking);
        }
        for (size_t i = 0; i < c->n_in && n < 64; i++) {
            struct json_object *subs = jp_arr(plot_suite_test(c->in[i].doc, test), "subtests");
            for (size_t j = 0; j < jp_len(subs); j++) {
                struct json_object *st = jp_idx(subs, j);
                const char *lab = jp_str(st, "label");
                if (strcmp(lab ? lab : "", keys[q].sub))
                    continue;
                struct json_object *vars = jp_arr(jp_get(st, "steady_state"), "variables");
                for (size_t k = 0; k < jp_len(vars); k++) {
                    struct json_object *v = jp_idx(vars, k);
                    const char *tr = jp_str(v, "tracking");
                    if (!tr || strcmp(tr, keys[q].tracking) || n >= 64)
                        continue;
                    src[n++] = (struct plot_window_src){.input = i, .var = v,
                                                        .rounds = jp_arr(st, "rounds"),
                                                        .value = plot_tracked_value,
                                                        .k = (int)k, .what = NULL};
                }
            }
        }
        for (size_t k = 0; k < n; k++)
            src[k].what = what;
        /* names: iops-window; tp-window-128KiB; further variables of a subtest get their tag */
        char name[128], title[256], tag[128] = "";
        bool first_of_sub = true;
        for (size_t p = 0; p < q; p++)
            if (!strcmp(keys[p].sub, keys[q].sub))
                first_of_sub = false;
        if (!first_of_sub) {
            size_t o = 0;
            for (const char *p = keys[q].tracking; *p && o + 1 < sizeof(tag); p++)
                tag[o++] = (*p == '@' || *p == '/' || *p == ' ') ? '-' : *p;
            tag[o] = '\0';
        }
        snprintf(name, sizeof(name), "%s-window%s%s%s%s", test, multi_sub ? "-" : "",
                 multi_sub ? keys[q].sub : "", tag[0] ? "-" : "", tag);
        snprintf(title, sizeof(title), "%s test: steady-state measurement window, %s",
                 tt ? tt : test, what);
        char state[128];
        plot_suite_state_tag(c, test, PS_RESULT, state, sizeof(state));
        plot_title_tag(title, sizeof(title), state);
        plot_window_chart(c, name, test, title, plot_metric_axis(metric), src, n);
    }
}

void plot_suite_steady(struct plot_ctx *c, const char *test)
{
    char name[64];
    snprintf(name, sizeof(name), "%s-convergence", test);
    const enum pts_report p = plot_suite_presentation(c, test);
    const bool tp = p == PTS_REPORT_TP, lat = p == PTS_REPORT_LAT;
    suite_convergence(c, test, name, NULL, tp, !tp && !lat);
    if (lat) {
        /* the PTS latency page also tracks the maximum response time */
        char metric[64] = "lat_max_us";
        for (size_t i = 0; i < c->n_in; i++) {
            struct json_object *st = jp_idx(jp_arr(plot_suite_test(c->in[i].doc, test),
                                                    "subtests"), 0);
            struct tracking tk;
            tracking_at(st, 0, &tk);
            const char *max = tracked_at(&tk) ? max_of(tk.metric) : NULL;
            if (max) {
                str_copy(metric, sizeof(metric), max);
                break;
            }
        }
        snprintf(name, sizeof(name), "%s-convergence-max", test);
        suite_convergence(c, test, name, metric, false, true);
    }
    suite_windows(c, test);
}

/* ---- HIR / DIRTH preconditioning: the tracked figure per round, and its window ---- */

void plot_precondition_charts(struct plot_ctx *c, const char *test)
{
    struct plot_window_src src[64];
    size_t n = 0;
    char metric[64] = "iops", what[128] = "IOPS";
    for (size_t i = 0; i < c->n_in && n < 64; i++) {
        struct json_object *st = jp_idx(jp_arr(plot_suite_test(c->in[i].doc, test), "subtests"),
                                        0);
        struct json_object *pc = jp_get(st, "precondition");
        struct json_object *rounds = jp_arr(pc, "rounds");
        if (!jp_len(rounds))
            continue;
        struct json_object *var = jp_idx(jp_arr(jp_get(pc, "steady_state"), "variables"), 0);
        struct tracking tk;
        tracking_of(var, &tk);
        if (n == 0 && tracked_at(&tk)) {
            char bsl[32], mixl[32];
            str_copy(metric, sizeof(metric), tk.metric);
            units_format_bs(tk.bs, bsl, sizeof(bsl));
            plot_mix_label(tk.read_pct, mixl, sizeof(mixl));
            snprintf(what, sizeof(what), "RND %s %s %s", bsl, mixl, metric_word(metric));
        }
        src[n++] = (struct plot_window_src){.input = i, .var = var, .rounds = rounds,
                                            .value = plot_tracked_value, .k = 0, .what = what};
    }
    if (!n)
        return;
    const char *tt = NULL;
    for (size_t i = 0; i < c->n_in && !tt; i++)
        tt = jp_str(plot_suite_test(c->in[i].doc, test), "title");
    char name[128], title[256], caption[512], q[128];
    snprintf(name, sizeof(name), "%s-precondition", test);
    snprintf(title, sizeof(title), "%s: preconditioning, %s per round", tt ? tt : test, what);
    char tag[128];
    plot_suite_state_tag(c, test, PS_PRECONDITION, tag, sizeof(tag));
    plot_title_tag(title, sizeof(title), tag);
    snprintf(caption, sizeof(caption),
             "Preconditioning to steady state before the test: the tracked %s of every round, "
             "one line per device.", metric_word(metric));
    struct plot_chart *ch = plot_chart_new(c, name, test, title, caption);
    plot_quote(q, sizeof(q), plot_metric_axis(metric));
    plot_set(ch, "set xlabel 'round'");
    plot_set(ch, "set ylabel %s", q);
    plot_round_xtics(ch);
    plot_set(ch, "set yrange [0:*]");
    plot_count_axis(ch);
    for (size_t k = 0; k < n; k++) {
        char series[512];
        snprintf(series, sizeof(series), "%s: %s", c->in[src[k].input].label, what);
        int ix = plot_block(ch, src[k].input, series, "round value");
        for (size_t r = 0; r < jp_len(src[k].rounds); r++) {
            struct json_object *ro = jp_idx(src[k].rounds, r);
            plot_row(ch, 2, jp_num(ro, "round"), plot_tracked_value(ro, &src[k]));
        }
        if (plot_block_end(ch) > 0) {
            int d = plot_dev(ch, src[k].input);
            plot_elem(ch, c->in[src[k].input].label,
                      "dat index %d using 1:2 with linespoints lw 2 pt %d dt %d %s", ix,
                      plot_pt(d), plot_dt(d), plot_dev_color(d));
        }
    }
    plot_chart_done(c, ch);
    snprintf(name, sizeof(name), "%s-precondition-window", test);
    snprintf(title, sizeof(title), "%s: preconditioning steady-state window, %s", tt ? tt : test,
             what);
    plot_title_tag(title, sizeof(title), tag);
    plot_window_chart(c, name, test, title, plot_metric_axis(metric), src, n);
}
