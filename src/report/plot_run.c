/* plot_run.c — charts of a single run (ptsbench.run): IOPS per round with the steady-state
 * window, the window itself, and the per-second samples of every round. */
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "plot.h"
#include "util.h"

static bool is_run(struct json_object *doc) { return !strcmp(pj_schema(doc), "ptsbench.run"); }

static size_t n_runs(struct plot_ctx *c)
{
    size_t n = 0;
    for (size_t i = 0; i < c->n_in; i++)
        if (is_run(c->in[i].doc) && jp_len(jp_arr(c->in[i].doc, "rounds")))
            n++;
    return n;
}

/* "randwrite, 4 KiB, QD 32 x 1 worker" (and the workload's name when it has one) */
static void workload_text(struct json_object *doc, char *buf, size_t len)
{
    struct json_object *w = jp_get(doc, "workload");
    const char *name = jp_str(w, "name");
    const char *rw = jp_str(w, "rw");
    struct json_object *bss = jp_arr(w, "block_sizes");
    char bs[32] = "mixed sizes";
    if (jp_len(bss) == 1)
        plot_bs_label(jp_num(jp_idx(bss, 0), "bytes"), bs, sizeof(bs));
    double qd = jp_num(w, "qd"), workers = jp_num(w, "workers");
    snprintf(buf, len, "%s%s%s, %s, QD %g x %g worker%s", name && strcmp(name, "inline") ? name : "",
             name && strcmp(name, "inline") ? ": " : "", rw ? rw : "?", bs, qd, workers,
             workers == 1 ? "" : "s");
}

static void run_rounds(struct plot_ctx *c)
{
    size_t n = n_runs(c);
    if (!n)
        return;
    bool many = n > 1;
    char title[512];
    if (many)
        snprintf(title, sizeof(title), "Run: IOPS per round with the steady-state window");
    else
        for (size_t i = 0; i < c->n_in; i++)
            if (is_run(c->in[i].doc) && jp_len(jp_arr(c->in[i].doc, "rounds"))) {
                char w[256];
                workload_text(c->in[i].doc, w, sizeof(w));
                snprintf(title, sizeof(title), "Run: IOPS per round with the steady-state "
                                               "window (%s)", w);
            }
    struct plot_chart *ch = plot_chart_new(
        c, "run-rounds", "run", title,
        "IOPS of every round; the shaded span is the steady-state measurement window (the "
        "passing window, else the last one evaluated) with its average.");
    plot_set(ch, "set xlabel 'round'");
    plot_set(ch, "set ylabel 'IOPS'");
    plot_set(ch, "set yrange [0:*]");
    plot_set(ch, "set xtics 1");
    plot_set(ch, "set format y '%%.0f'");
    plot_set(ch, "set offsets 0.3, 0.3, graph 0.05, 0");
    int obj = 1;
    for (size_t i = 0; i < c->n_in; i++) {
        struct json_object *doc = c->in[i].doc;
        struct json_object *rounds = jp_arr(doc, "rounds");
        if (!is_run(doc) || !jp_len(rounds))
            continue;
        char series[512];
        snprintf(series, sizeof(series), "%s: IOPS per round", c->in[i].label);
        int ix = plot_block(ch, i, series, "round iops read_iops write_iops elapsed_s");
        for (size_t r = 0; r < jp_len(rounds); r++) {
            struct json_object *ro = jp_idx(rounds, r);
            plot_row(ch, 5, jp_num(ro, "round"), jp_path(ro, "total.iops"),
                     jp_path(ro, "read.iops"), jp_path(ro, "write.iops"), jp_num(ro, "elapsed_s"));
        }
        if (plot_block_end(ch) <= 0)
            continue;
        int d = plot_dev(ch, i);
        plot_elem(ch, many ? c->in[i].label : "IOPS",
                  "dat index %d using 1:2 with linespoints lw 2 pt %d dt %d %s", ix, plot_pt(d),
                  plot_dt(d), plot_color(d));
        struct json_object *ss = jp_get(doc, "steady_state");
        struct json_object *w = jp_get(ss, "window");
        double r0 = jp_num(w, "first_round"), r1 = jp_num(w, "last_round");
        double avg = jp_num(w, "average");
        if (!isfinite(r0) || !isfinite(r1) || !isfinite(avg))
            continue;
        bool steady = json_object_get_boolean(jp_get(w, "steady"));
        const char *tracking = jp_str(ss, "tracking");
        bool iops = !tracking || !strcmp(tracking, "iops");
        plot_set(ch, "set object %d rect from %g, graph 0 to %g, graph 1 behind "
                     "fillcolor rgb '%s' fillstyle transparent solid 0.12 noborder",
                 obj++, r0 - 0.5, r1 + 0.5, d == 0 ? "#1f77b4" : d == 1 ? "#d62728" : "#2ca02c");
        snprintf(series, sizeof(series), "%s: steady-state window average (%s)", c->in[i].label,
                 tracking ? tracking : "iops");
        ix = plot_block(ch, i, series, "round window_average");
        if (iops) {
            plot_row(ch, 2, r0 - 0.5, avg);
            plot_row(ch, 2, r1 + 0.5, avg);
        }
        if (plot_block_end(ch) > 0) {
            char t[512];
            snprintf(t, sizeof(t), "%s%ssteady-state window, rounds %g-%g (%s), average %.6g",
                     many ? c->in[i].label : "", many ? ": " : "", r0, r1,
                     steady ? "steady" : "not steady", avg);
            plot_elem(ch, t, "dat index %d using 1:2 with lines lw 2 dt 2 %s", ix,
                      plot_color(many ? d : 10));
        }
    }
    plot_chart_done(c, ch);
}

static void run_window(struct plot_ctx *c)
{
    struct plot_window_src src[64];
    size_t n = 0;
    char what[128] = "IOPS";
    for (size_t i = 0; i < c->n_in && n < 64; i++) {
        struct json_object *doc = c->in[i].doc;
        if (!is_run(doc))
            continue;
        struct json_object *ss = jp_get(doc, "steady_state");
        if (!jp_get(ss, "window"))
            continue;
        if (n == 0) {
            const char *tr = jp_str(ss, "tracking");
            snprintf(what, sizeof(what), "%s", !tr || !strcmp(tr, "iops") ? "IOPS" : tr);
        }
        src[n++] = (struct plot_window_src){.input = i, .var = ss,
                                            .rounds = jp_arr(doc, "rounds"),
                                            .value = plot_tracked_value, .k = 0, .what = what};
    }
    if (!n)
        return;
    char title[256];
    snprintf(title, sizeof(title), "Run: steady-state measurement window, %s", what);
    const char *tr = jp_str(src[0].var, "tracking");
    plot_window_chart(c, "run-window", "run", title, plot_metric_axis(tr ? tr : "iops"), src, n);
}

static void run_samples(struct plot_ctx *c)
{
    size_t n = n_runs(c);
    if (!n)
        return;
    double tmax = 0;
    for (size_t i = 0; i < c->n_in; i++) {
        if (!is_run(c->in[i].doc))
            continue;
        struct json_object *rounds = jp_arr(c->in[i].doc, "rounds");
        double t = 0;
        for (size_t r = 0; r < jp_len(rounds); r++) {
            double e = jp_num(jp_idx(rounds, r), "elapsed_s");
            t += isfinite(e) ? e : 0;
        }
        if (t > tmax)
            tmax = t;
    }
    double div;
    const char *unit = plot_time_unit(tmax, &div);
    struct plot_chart *ch = plot_chart_new(
        c, "run-samples", "run", "Run: IOPS per sample interval against time",
        "The per-interval samples (normally 1 s) of every round, one after the other: IOPS "
        "against the run's time; dotted lines mark round boundaries.");
    char xl[64], q[96];
    snprintf(xl, sizeof(xl), "time (%s)", unit);
    plot_quote(q, sizeof(q), xl);
    plot_set(ch, "set xlabel %s", q);
    plot_set(ch, "set ylabel 'IOPS'");
    plot_set(ch, "set yrange [0:*]");
    plot_set(ch, "set format y '%%.0f'");
    bool many = n > 1;
    int arrow = 1;
    for (size_t i = 0; i < c->n_in; i++) {
        struct json_object *rounds = jp_arr(c->in[i].doc, "rounds");
        if (!is_run(c->in[i].doc) || !jp_len(rounds))
            continue;
        char series[512];
        snprintf(series, sizeof(series), "%s: IOPS per sample interval", c->in[i].label);
        int ix = plot_block(ch, i, series, "time iops round read_iops write_iops");
        double t0 = 0;
        for (size_t r = 0; r < jp_len(rounds); r++) {
            struct json_object *ro = jp_idx(rounds, r);
            struct json_object *sm = jp_get(ro, "samples");
            double iv = jp_num(sm, "interval_s");
            if (!(iv > 0))
                iv = 1;
            struct json_object *io = jp_arr(sm, "iops");
            struct json_object *rd = jp_arr(sm, "read_iops");
            struct json_object *wr = jp_arr(sm, "write_iops");
            for (size_t k = 0; k < jp_len(io); k++)
                plot_row(ch, 5, (t0 + (double)(k + 1) * iv) / div,
                         json_object_get_double(jp_idx(io, k)), jp_num(ro, "round"),
                         rd ? json_object_get_double(jp_idx(rd, k)) : NAN,
                         wr ? json_object_get_double(jp_idx(wr, k)) : NAN);
            double e = jp_num(ro, "elapsed_s");
            t0 += isfinite(e) ? e : (double)jp_len(io) * iv;
            if (!many && r + 1 < jp_len(rounds))
                plot_set(ch, "set arrow %d from %g, graph 0 to %g, graph 1 nohead dt 3 "
                             "lc rgb '#909090'", arrow++, t0 / div, t0 / div);
        }
        /* the read/write columns may be NaN (not recorded): the row still counts */
        if (plot_block_end(ch) <= 0)
            continue;
        int d = plot_dev(ch, i);
        plot_elem(ch, many ? c->in[i].label : "IOPS",
                  "dat index %d using 1:2 with lines lw 1.5 dt %d %s", ix, plot_dt(d),
                  plot_color(d));
    }
    plot_chart_done(c, ch);
}

void plot_run_charts(struct plot_ctx *c)
{
    run_rounds(c);
    run_window(c);
    run_samples(c);
}
