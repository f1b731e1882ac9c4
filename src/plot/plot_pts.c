/* plot_pts.c — the SNIA PTS tests' own charts (ptsbench.suite): IOPS by block size per R/W mix
 * (2D and 3D), throughput, latency by block size and mix, WSAT against time and total GB
 * written, HIR across wait states, XSR against time, DIRTH demand variation and intensity.
 * Devices (inputs) are overlaid in every chart; the steady-state charts are plot_steady.c's. */
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/results.h"
#include "lib/units.h"
#include "lib/util.h"
#include "plot/chart.h"
#include "read/load.h"
#include "read/tracking.h"
#include "read/words.h"
#include "stats/hist.h"

#define MAXV 64

static const char *test_title(struct plot_ctx *c, const char *test)
{
    for (size_t i = 0; i < c->n_in; i++) {
        const char *t = jp_str(plot_suite_test(c->in[i].doc, test), "title");
        if (t)
            return t;
    }
    return test;
}

static size_t n_inputs_with(struct plot_ctx *c, const char *test)
{
    size_t n = 0;
    for (size_t i = 0; i < c->n_in; i++)
        if (plot_suite_test(c->in[i].doc, test))
            n++;
    return n;
}

static struct json_object *first_subtest(struct plot_ctx *c, size_t i, const char *test)
{
    return jp_idx(jp_arr(plot_suite_test(c->in[i].doc, test), "subtests"), 0);
}

/* The test's state in the chart's title: "(steady state)", "(from the purged drive, not
 * preconditioned)", ... (plot_state.c). */
static void state_title(struct plot_ctx *c, const char *test, enum plot_suite_view view,
                        char *title, size_t len)
{
    char tag[128];
    plot_suite_state_tag(c, test, view, tag, sizeof(tag));
    plot_title_tag(title, len, tag);
}

/* series title: "LABEL: what" when several devices share the chart, else "what" */
static void series_title(char *buf, size_t len, bool many, const char *label, const char *what)
{
    if (many)
        snprintf(buf, len, "%s: %s", label, what);
    else
        snprintf(buf, len, "%s", what);
}

static void add_unique(double *v, size_t *n, double x)
{
    if (!isfinite(x))
        return;
    for (size_t i = 0; i < *n; i++)
        if (v[i] == x)
            return;
    if (*n < MAXV)
        v[(*n)++] = x;
}

static int cmp_up(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static int cmp_down(const void *a, const void *b) { return -cmp_up(a, b); }

/* The block sizes (ascending) and R/W mixes (read share descending) of a test's tables. */
static void table_axes(struct plot_ctx *c, const char *test, double *bs, size_t *n_bs,
                       double *mix, size_t *n_mix)
{
    *n_bs = *n_mix = 0;
    for (size_t i = 0; i < c->n_in; i++) {
        struct json_object *subs = jp_arr(plot_suite_test(c->in[i].doc, test), "subtests");
        for (size_t j = 0; j < jp_len(subs); j++) {
            struct json_object *rows = jp_arr(jp_get(jp_idx(subs, j), "table"), "rows");
            for (size_t r = 0; r < jp_len(rows); r++) {
                add_unique(bs, n_bs, jp_num(jp_idx(rows, r), "bs"));
                add_unique(mix, n_mix, jp_num(jp_idx(rows, r), "rwmix_read"));
            }
        }
    }
    qsort(bs, *n_bs, sizeof(double), cmp_up);
    qsort(mix, *n_mix, sizeof(double), cmp_down);
}

static struct json_object *table_row(struct json_object *subtest, double bs, double mix)
{
    struct json_object *rows = jp_arr(jp_get(subtest, "table"), "rows");
    for (size_t r = 0; r < jp_len(rows); r++) {
        struct json_object *row = jp_idx(rows, r);
        if (jp_num(row, "bs") == bs && jp_num(row, "rwmix_read") == mix)
            return row;
    }
    return NULL;
}

/* "set xtics ('0.5' 0.5, '4' 4, ...)" for a log2 KiB axis */
static void bs_xtics_kib(struct plot_chart *ch, const double *bs, size_t n)
{
    double kib[MAXV];
    for (size_t i = 0; i < n && i < MAXV; i++)
        kib[i] = bs[i] / 1024.0;
    plot_xtics_at(ch, kib, n < MAXV ? n : MAXV);
}

/* ---- IOPS ---- */

static void iops_bs_mix(struct plot_ctx *c, const char *test)
{
    double bs[MAXV], mix[MAXV];
    size_t n_bs, n_mix;
    table_axes(c, test, bs, &n_bs, mix, &n_mix);
    if (!n_bs)
        return;
    char title[256], tag[128], name[96];
    snprintf(name, sizeof(name), "%s-bs-mix", test);
    plot_suite_state_tag(c, test, PS_RESULT, tag, sizeof(tag));
    snprintf(title, sizeof(title), "%s test: IOPS by block size, one line per R/W mix "
                                   "(steady-state window average%s%s)", test_title(c, test),
             tag[0] ? "; " : "", tag);
    struct plot_chart *ch = plot_chart_new(
        c, name, test, title,
        "Random IOPS averaged over the steady-state measurement window, by block size, one "
        "series per read/write mix (the PTS's 2D IOPS plot).");
    plot_set(ch, "set xlabel 'block size (KiB, log scale)'");
    plot_set(ch, "set ylabel 'IOPS (log scale)'");
    plot_set(ch, "set logscale x 2");
    plot_set(ch, "set logscale y");
    plot_set(ch, "set format y '%%.0s%%c'");
    plot_set(ch, "set offsets graph 0.03, graph 0.03, 0, 0");
    bs_xtics_kib(ch, bs, n_bs);
    bool many = n_inputs_with(c, test) > 1;
    for (size_t i = 0; i < c->n_in; i++) {
        struct json_object *st = first_subtest(c, i, test);
        if (!st)
            continue;
        for (size_t m = 0; m < n_mix; m++) {
            char ml[32], series[512], t[512];
            plot_mix_label(mix[m], ml, sizeof(ml));
            snprintf(series, sizeof(series), "%s: %s", c->in[i].label, ml);
            int ix = plot_block(ch, i, series, "bs_kib iops bs_bytes rwmix_read");
            for (size_t b = 0; b < n_bs; b++) {
                struct json_object *row = table_row(st, bs[b], mix[m]);
                if (row)
                    plot_row(ch, 4, bs[b] / 1024.0, plot_pos(jp_path(row, "total.iops")), bs[b],
                             mix[m]);
            }
            if (plot_block_end(ch) <= 0)
                continue;
            int d = plot_dev(ch, i);
            /* several devices: the mixes once (colours), the devices below (dash, point) */
            series_title(t, sizeof(t), false, c->in[i].label, ml);
            plot_elem(ch, many && plot_dev_rank(ch, i) > 0 ? NULL : t,
                      "dat index %d using 1:2 with linespoints lw 2 pt %d dt %d %s", ix,
                      plot_pt(d), plot_dt(d), plot_color((int)m));
        }
    }
    if (many)
        plot_dev_keys(c, ch);
    plot_chart_done(c, ch);
}

/* 3D columns: block size x R/W mix x value, one chart per device (overlaid devices' columns
 * hide each other): the first device's chart is NAME, the next NAME-2, ... */
static void bs_mix_3d(struct plot_ctx *c, const char *test, const char *name, const char *title,
                      const char *caption, const char *metric, const char *zlabel)
{
    double bs[MAXV], mix[MAXV];
    size_t n_bs, n_mix;
    table_axes(c, test, bs, &n_bs, mix, &n_mix);
    if (!n_bs)
        return;
    for (size_t i = 0; i < c->n_in; i++) {
        struct json_object *st = first_subtest(c, i, test);
        if (!st)
            continue;
        struct plot_chart *ch = plot_chart_new(c, name, test, title, caption);
        plot_use_splot(ch);
        char buf[1024], q[128];
        size_t o = (size_t)snprintf(buf, sizeof(buf), "set xtics (");
        for (size_t b = 0; b < n_bs && o < sizeof(buf) - 40; b++)
            o += (size_t)snprintf(buf + o, sizeof(buf) - o, "%s'%g' %zu", b ? ", " : "",
                                  bs[b] / 1024.0, b);
        snprintf(buf + o, sizeof(buf) - o, ") offset 0,-0.5");
        plot_set(ch, "%s", buf);
        o = (size_t)snprintf(buf, sizeof(buf), "set ytics (");
        for (size_t m = 0; m < n_mix && o < sizeof(buf) - 40; m++)
            o += (size_t)snprintf(buf + o, sizeof(buf) - o, "%s'%g/%g' %zu", m ? ", " : "",
                                  mix[m], 100 - mix[m], m);
        snprintf(buf + o, sizeof(buf) - o, ")");
        plot_set(ch, "%s", buf);
        plot_quote(q, sizeof(q), zlabel);
        plot_set(ch, "set xlabel 'block size (KiB)' offset 0,-1.5");
        plot_set(ch, "set ylabel 'R/W mix (%%)' offset 2,0");
        plot_set(ch, "set zlabel %s rotate parallel offset -1,0", q);
        plot_set(ch, "set view 58, 32, 1, 1.1");
        plot_set(ch, "set xyplane at 0");
        plot_set(ch, "set zrange [0:*]");
        plot_set(ch, "set format z '%s'", plot_metric_is_latency(metric) ? "%.0f" : "%.0s%c");
        plot_set(ch, "set style fill solid 0.9 border lc rgb '#303030'");
        plot_set(ch, "set boxwidth 0.5 absolute");
        plot_set(ch, "set boxdepth 0.5");
        plot_set(ch, "set pm3d depthorder base");
        plot_set(ch, "set grid x y z vertical");
        plot_set(ch, "set xrange [-0.6:%g]", (double)n_bs - 0.4);
        plot_set(ch, "set yrange [-0.6:%g]", (double)n_mix - 0.4);
        for (size_t m = 0; m < n_mix; m++) {
            char ml[32], series[512], t[512];
            plot_mix_label(mix[m], ml, sizeof(ml));
            snprintf(series, sizeof(series), "%s: %s", c->in[i].label, ml);
            int ix = plot_block(ch, i, series, "bs_position mix_position value bs_bytes "
                                               "rwmix_read");
            for (size_t b = 0; b < n_bs; b++) {
                struct json_object *row = table_row(st, bs[b], mix[m]);
                if (row)
                    plot_row(ch, 5, (double)b, (double)m, plot_elem_metric(row, metric), bs[b],
                             mix[m]);
            }
            if (plot_block_end(ch) <= 0)
                continue;
            plot_dev(ch, i);
            series_title(t, sizeof(t), false, "", ml);
            plot_elem(ch, t, "dat index %d using 1:2:3 with boxes %s", ix, plot_color((int)m));
        }
        plot_chart_done(c, ch);
    }
}

/* ---- throughput ---- */

static void tp_bs(struct plot_ctx *c, const char *test)
{
    double bs[MAXV], mix[MAXV];
    size_t n_bs, n_mix;
    table_axes(c, test, bs, &n_bs, mix, &n_mix);
    if (!n_bs)
        return;
    char title[256], name[96];
    snprintf(name, sizeof(name), "%s-bs", test);
    snprintf(title, sizeof(title), "%s test: sequential read and write throughput by block "
                                   "size, MB/s", test_title(c, test));
    state_title(c, test, PS_RESULT, title, sizeof(title));
    struct plot_chart *ch = plot_chart_new(
        c, name, test, title,
        "Sequential throughput (MB/s = 10^6 B/s) averaged over each block size's steady-state "
        "window, read (R/W 100/0) and write (R/W 0/100) in colours; with several devices, each "
        "device's bars in its own fill (solid, hatched).");
    char cols[2048] = "block_size";
    size_t n_cols = 0;
    struct { size_t input; double mix; } col[MAXV];
    for (size_t i = 0; i < c->n_in; i++) {
        if (!plot_suite_test(c->in[i].doc, test))
            continue;
        for (size_t m = 0; m < n_mix && n_cols < MAXV; m++) {
            col[n_cols].input = i;
            col[n_cols].mix = mix[m];
            size_t l = strlen(cols);
            snprintf(cols + l, sizeof(cols) - l, " | %s %s", c->in[i].label,
                     mix[m] == 100 ? "read" : mix[m] == 0 ? "write" : "mixed");
            n_cols++;
        }
    }
    plot_table(ch, cols);
    for (size_t b = 0; b < n_bs; b++) {
        double v[MAXV];
        for (size_t k = 0; k < n_cols; k++) {
            v[k] = NAN;
            struct json_object *subs =
                jp_arr(plot_suite_test(c->in[col[k].input].doc, test), "subtests");
            for (size_t j = 0; j < jp_len(subs); j++) {
                struct json_object *row = table_row(jp_idx(subs, j), bs[b], col[k].mix);
                if (row)
                    v[k] = jp_path(row, "total.mb_s");
            }
        }
        char bl[32];
        units_format_bs(bs[b], bl, sizeof(bl));
        plot_table_row(ch, bl, (int)n_cols, v);
    }
    plot_set(ch, "set style data histogram");
    plot_set(ch, "set style histogram clustered gap 1");
    plot_set(ch, "set style fill solid 0.85 border lc rgb '#303030'");
    plot_set(ch, "set boxwidth 0.9");
    plot_set(ch, "set yrange [0:*]");
    plot_set(ch, "set xlabel 'block size'");
    plot_set(ch, "set ylabel 'throughput (MB/s = 10^6 B/s)'");
    plot_set(ch, "set grid noxtics ytics");
    bool many = n_inputs_with(c, test) > 1;
    struct plot_key_once ko = {0};
    for (size_t k = 0; k < n_cols; k++) {   /* colours the directions, fills the devices */
        int d = plot_dev(ch, col[k].input);
        const char *dir = col[k].mix == 100 ? "read" : col[k].mix == 0 ? "write" : "mixed";
        const int cidx = col[k].mix == 100 ? 0 : col[k].mix == 0 ? 1 : 2;
        plot_elem(ch, plot_key_once(&ko, many, dir), "dat using %zu%s %s%s", k + 2,
                  k == 0 ? ":xtic(1)" : "", plot_color(cidx), plot_bar_fill(d));
    }
    if (many)
        plot_bar_dev_keys(c, ch);
    plot_bar_values(ch, n_cols, UNITS_FIG_MBS);
    plot_chart_done(c, ch);
}

/* ---- latency ---- */

static void lat_bs(struct plot_ctx *c, const char *test)
{
    static const struct { const char *key, *name; } stats[] = {
        {"mean", "mean"}, {"99", "99%"}, {"99.99", "99.99%"}, {"99.999", "99.999%"},
        {"99.9999", "99.9999%"},
    };
    const size_t n_stats = sizeof(stats) / sizeof(stats[0]);
    double bs[MAXV], mix[MAXV];
    size_t n_bs, n_mix;
    table_axes(c, test, bs, &n_bs, mix, &n_mix);
    if (!n_bs)
        return;
    char title[256], name[96];
    snprintf(name, sizeof(name), "%s-bs", test);
    snprintf(title, sizeof(title), "%s test: response time by block size and R/W mix (mean, "
                                   "99%% to 99.9999%%), µs", test_title(c, test));
    state_title(c, test, PS_RESULT, title, sizeof(title));
    struct plot_chart *ch = plot_chart_new(
        c, name, test, title,
        "Response time at T1/Q1 over the steady-state window: mean and the 99%, 99.99%, "
        "99.999% and 99.9999% percentiles (µs, log scale) for every R/W mix and block size.");
    bool short_of = false;   /* a bar left out: the window's I/Os do not support it */
    char cols[4096] = "mix_and_block_size";
    size_t n_cols = 0;
    struct { size_t input, stat; } col[MAXV];
    for (size_t i = 0; i < c->n_in; i++) {
        if (!plot_suite_test(c->in[i].doc, test))
            continue;
        for (size_t s = 0; s < n_stats && n_cols < MAXV; s++) {
            col[n_cols].input = i;
            col[n_cols].stat = s;
            size_t l = strlen(cols);
            snprintf(cols + l, sizeof(cols) - l, " | %s %s µs", c->in[i].label, stats[s].name);
            n_cols++;
        }
    }
    plot_table(ch, cols);
    double vmin = INFINITY;
    for (size_t m = 0; m < n_mix; m++) {
        for (size_t b = 0; b < n_bs; b++) {
            double v[MAXV];
            bool any = false;
            for (size_t k = 0; k < n_cols; k++) {
                struct json_object *row = table_row(first_subtest(c, col[k].input, test), bs[b],
                                                    mix[m]);
                v[k] = plot_pos(results_figures_lat(row, "total", stats[col[k].stat].key));
                short_of |= words_pct_lat_short_of(jp_obj_at(row, "total.lat_us"),
                                                   stats[col[k].stat].key) > 0;
                if (isfinite(v[k])) {
                    any = true;
                    if (v[k] < vmin)
                        vmin = v[k];
                }
            }
            if (!any)
                continue;
            char label[64], bl[32];
            units_format_bs(bs[b], bl, sizeof(bl));
            snprintf(label, sizeof(label), "%g/%g %s", mix[m], 100 - mix[m], bl);
            plot_table_row(ch, label, (int)n_cols, v);
        }
    }
    if (!isfinite(vmin)) {
        plot_chart_done(c, ch);
        return;
    }
    if (short_of)
        plot_caption_add(ch, PLOT_PCT_LEFT_OUT);
    plot_set(ch, "set style data histogram");
    plot_set(ch, "set style histogram clustered gap 1");
    plot_set(ch, "set style fill solid 0.85 border lc rgb '#303030'");
    plot_set(ch, "set boxwidth 0.9");
    plot_set(ch, "set logscale y");
    plot_set(ch, "set yrange [%g:*]", pow(10, floor(log10(vmin))));
    plot_set(ch, "set xlabel 'R/W mix (%%) and block size'");
    plot_set(ch, "set ylabel 'response time (µs, log scale)'");
    plot_set(ch, "set grid noxtics ytics mytics");
    plot_set(ch, "set xtics rotate by -30");
    bool many = n_inputs_with(c, test) > 1;
    struct plot_key_once ko = {0};
    static const char *const fills[] = {"", " fs pattern 4 border", " fs pattern 5 border"};
    static const char *const fill_words[] = {"solid", "hatched", "cross-hatched"};
    for (size_t k = 0; k < n_cols; k++) {
        int d = plot_dev(ch, col[k].input);
        /* colours the statistics, titled once; fills the devices, one entry each below */
        plot_elem(ch, plot_key_once(&ko, many, stats[col[k].stat].name), "dat using %zu%s %s%s",
                  k + 2, k == 0 ? ":xtic(1)" : "", plot_color((int)col[k].stat),
                  fills[d < 2 ? d : 2]);
    }
    for (size_t i = 0; many && i < c->n_in; i++) {
        int r = plot_dev_rank(ch, i);
        if (r < 0)
            continue;
        int d = (int)i < 2 ? (int)i : 2;
        char t[512];
        snprintf(t, sizeof(t), "%s (%s)", c->in[i].label, fill_words[d]);
        plot_elem(ch, t, "keyentry with boxes lc rgb '#404040'%s",
                  d ? fills[d] : " fs solid 0.85");
    }
    plot_chart_done(c, ch);
}

/* ---- write saturation ---- */

static struct json_object *wsat_rounds(struct plot_ctx *c, size_t i, const char *test)
{
    return jp_arr(first_subtest(c, i, test), "rounds");
}

/* The test's stimulus from its first round's element: "RND 4 KiB write", "SEQ 128 KiB R/W
 * 90/10" (the WSAT definitions differ in it). */
static void wsat_stimulus(struct plot_ctx *c, const char *test, char *buf, size_t len)
{
    snprintf(buf, len, "the stimulus's");
    for (size_t i = 0; i < c->n_in; i++) {
        struct json_object *el = jp_idx(jp_arr(jp_idx(wsat_rounds(c, i, test), 0), "elements"), 0);
        double bs = jp_num(el, "bs"), mix = jp_num(el, "rwmix_read");
        if (!isfinite(bs) || !isfinite(mix))
            continue;
        const char *access = jp_str(plot_suite_test(c->in[i].doc, test), "access");
        char bl[32], ml[32];
        units_format_bs(bs, bl, sizeof(bl));
        if (mix == 0)
            snprintf(ml, sizeof(ml), "write");
        else
            plot_mix_label(mix, ml, sizeof(ml));
        snprintf(buf, len, "%s %s %s", access && !strcmp(access, "sequential") ? "SEQ" : "RND",
                 bl, ml);
        return;
    }
}

/* suffix: the chart's name after the test's, e.g. "iops-time" (wsat-iops-time) */
static void wsat_iops(struct plot_ctx *c, const char *test, const char *suffix, bool tgbw,
                      bool logx)
{
    char name[96];
    snprintf(name, sizeof(name), "%s-%s", test, suffix);
    double tmax = 0;
    for (size_t i = 0; i < c->n_in; i++) {
        struct json_object *rs = wsat_rounds(c, i, test);
        double t = jp_num(jp_idx(rs, jp_len(rs) ? jp_len(rs) - 1 : 0), "elapsed_total_s");
        if (isfinite(t) && t > tmax)
            tmax = t;
    }
    double div;
    const char *unit = plot_time_unit(tmax, &div);
    char title[256], caption[512], q[128], stim[96];
    wsat_stimulus(c, test, stim, sizeof(stim));
    if (tgbw) {
        snprintf(title, sizeof(title), "%s: IOPS against total GB written (TGBW)",
                 test_title(c, test));
        snprintf(caption, sizeof(caption),
                 "Write saturation from fresh-out-of-box: %s IOPS of every round against the "
                 "total written since the purge (GB = 10^9 B).", stim);
    } else {
        snprintf(title, sizeof(title), "%s: IOPS against time%s", test_title(c, test),
                 logx ? " (log scale)" : "");
        snprintf(caption, sizeof(caption),
                 "Write saturation from fresh-out-of-box: %s IOPS of every round against time "
                 "(%s%s).", stim, unit, logx ? ", log scale" : "");
    }
    state_title(c, test, PS_RESULT, title, sizeof(title));
    struct plot_chart *ch = plot_chart_new(c, name, test, title, caption);
    if (tgbw) {
        plot_set(ch, "set xlabel 'total written (GB = 10^9 B)'");
    } else {
        char xl[96];
        snprintf(xl, sizeof(xl), "time (%s%s)", unit, logx ? ", log scale" : "");
        plot_quote(q, sizeof(q), xl);
        plot_set(ch, "set xlabel %s", q);
    }
    if (logx)
        plot_set(ch, "set logscale x");
    plot_set(ch, "set autoscale xfix");
    plot_set(ch, "set ylabel 'IOPS'");
    plot_set(ch, "set yrange [0:*]");
    plot_count_axis(ch);
    for (size_t i = 0; i < c->n_in; i++) {
        struct json_object *rs = wsat_rounds(c, i, test);
        if (!jp_len(rs))
            continue;
        char series[512];
        snprintf(series, sizeof(series), "%s: %s IOPS per round", c->in[i].label, stim);
        int ix = plot_block(ch, i, series, tgbw ? "total_written_gb iops round"
                                                : (div == 1 ? "time_s iops round"
                                                   : div == 60 ? "time_min iops round"
                                                               : "time_h iops round"));
        for (size_t r = 0; r < jp_len(rs); r++) {
            struct json_object *ro = jp_idx(rs, r);
            struct json_object *el = jp_idx(jp_arr(ro, "elements"), 0);
            double x = tgbw ? jp_num(ro, "total_written_gb") : jp_num(ro, "elapsed_total_s") / div;
            plot_row(ch, 3, logx ? plot_pos(x) : x, jp_path(el, "total.iops"),
                     jp_num(ro, "round"));
        }
        if (plot_block_end(ch) <= 0)
            continue;
        int d = plot_dev(ch, i);
        plot_elem(ch, c->in[i].label, "dat index %d using 1:2 with lines lw 2 dt %d %s", ix,
                  plot_dt(d), plot_dev_color(d));
    }
    plot_chart_done(c, ch);
}

static void wsat_lat(struct plot_ctx *c, const char *test)
{
    static const struct { const char *key, *name; } stats[] = {
        {"mean", "mean"}, {"99", "99%"}, {"99.9", "99.9%"}, {"99.99", "99.99%"}, {"max", "max"},
    };
    double tmax = 0;
    for (size_t i = 0; i < c->n_in; i++) {
        struct json_object *rs = wsat_rounds(c, i, test);
        double t = jp_num(jp_idx(rs, jp_len(rs) ? jp_len(rs) - 1 : 0), "elapsed_total_s");
        if (isfinite(t) && t > tmax)
            tmax = t;
    }
    double div;
    const char *unit = plot_time_unit(tmax, &div);
    char title[256], xl[96], q[128], name[96];
    snprintf(name, sizeof(name), "%s-lat-time", test);
    snprintf(title, sizeof(title), "%s: response time against time (mean, 99%%, 99.9%%, 99.99%%, "
                                   "max), µs", test_title(c, test));
    state_title(c, test, PS_RESULT, title, sizeof(title));
    struct plot_chart *ch = plot_chart_new(
        c, name, test, title,
        "Write saturation: response time of every round, from the mean to the maximum with the "
        "99%, 99.9% and 99.99% percentiles (µs, log scales).");
    snprintf(xl, sizeof(xl), "time (%s, log scale)", unit);
    plot_quote(q, sizeof(q), xl);
    plot_set(ch, "set xlabel %s", q);
    plot_set(ch, "set ylabel 'response time (µs, log scale)'");
    plot_set(ch, "set logscale x");
    plot_set(ch, "set logscale y");
    plot_set(ch, "set autoscale xfix");
    bool many = n_inputs_with(c, test) > 1, short_of = false;
    struct plot_key_once ko = {0};
    for (size_t i = 0; i < c->n_in; i++) {
        struct json_object *rs = wsat_rounds(c, i, test);
        if (!jp_len(rs))
            continue;
        for (size_t s = 0; s < sizeof(stats) / sizeof(stats[0]); s++) {
            char series[512];
            snprintf(series, sizeof(series), "%s: %s response time", c->in[i].label,
                     stats[s].name);
            int ix = plot_block(ch, i, series, "time latency_us round");
            for (size_t r = 0; r < jp_len(rs); r++) {
                struct json_object *ro = jp_idx(rs, r);
                struct json_object *el = jp_idx(jp_arr(ro, "elements"), 0);
                double v = results_figures_lat(el, "total", stats[s].key);
                short_of |= words_pct_lat_short_of(jp_obj_at(el, "total.lat_us"),
                                                   stats[s].key) > 0;
                plot_row(ch, 3, plot_pos(jp_num(ro, "elapsed_total_s") / div), plot_pos(v),
                         jp_num(ro, "round"));
            }
            if (plot_block_end(ch) <= 0)
                continue;
            int d = plot_dev(ch, i);
            plot_elem(ch, plot_key_once(&ko, many, stats[s].name),
                      "dat index %d using 1:2 with lines lw 1.5 dt %d %s", ix, plot_dt(d),
                      plot_color((int)s));
        }
    }
    if (many)
        plot_dev_keys(c, ch);
    if (short_of)
        plot_caption_add(ch, PLOT_PCT_LEFT_OUT);
    plot_chart_done(c, ch);
}

/* ---- host idle recovery ---- */

static void hir_time(struct plot_ctx *c, const char *test, const char *suffix,
                     const char *metric, bool logy)
{
    char name[96];
    snprintf(name, sizeof(name), "%s-%s", test, suffix);
    double tmax = 0;
    for (size_t i = 0; i < c->n_in; i++) {
        struct json_object *acc = jp_arr(first_subtest(c, i, test), "accesses");
        for (size_t a = 0; a < jp_len(acc); a++) {
            double t = jp_num(jp_idx(acc, a), "start_s");
            if (isfinite(t) && t > tmax)
                tmax = t;
        }
    }
    double div;
    const char *unit = plot_time_unit(tmax, &div);
    bool lat = plot_metric_is_latency(metric);
    char title[256], caption[512], xl[64], q[128];
    snprintf(title, sizeof(title), "%s: %s of each access against time, across wait states",
             test_title(c, test), lat ? "mean response time (µs)" : "IOPS");
    snprintf(caption, sizeof(caption),
             "Host idle recovery: %s of every RND 4 KiB write access against time; coloured "
             "segments alternate access and host idle (wait state n), black segments are the "
             "return to baseline (continuous writes).", lat ? "mean response time" : "IOPS");
    state_title(c, test, PS_RESULT, title, sizeof(title));
    struct plot_chart *ch = plot_chart_new(c, name, test, title, caption);
    snprintf(xl, sizeof(xl), "time (%s)", unit);
    plot_quote(q, sizeof(q), xl);
    plot_set(ch, "set xlabel %s", q);
    plot_quote(q, sizeof(q), lat ? "mean response time (µs, log scale)" : "IOPS");
    plot_set(ch, "set ylabel %s", q);
    if (logy) {
        plot_set(ch, "set logscale y");
    } else {
        plot_set(ch, "set yrange [0:*]");
        plot_count_axis(ch);
    }
    bool many = n_inputs_with(c, test) > 1;
    struct plot_key_once ko = {0};
    for (size_t i = 0; i < c->n_in; i++) {
        struct json_object *st = first_subtest(c, i, test);
        struct json_object *acc = jp_arr(st, "accesses");
        struct json_object *ws = jp_arr(st, "wait_states");
        if (!jp_len(acc))
            continue;
        for (size_t w = 0; w < jp_len(ws); w++) {
            struct json_object *wo = jp_idx(ws, w);
            double state = jp_num(wo, "state");
            for (int phase = 0; phase < 2; phase++) {
                const char *ph = phase ? "baseline" : "write";
                char what[256], series[512];
                if (phase)
                    snprintf(what, sizeof(what), "return to baseline (continuous)");
                else
                    snprintf(what, sizeof(what), "wait state %g: %g s access + %g s idle", state,
                             jp_num(wo, "access_s"), jp_num(wo, "wait_s"));
                snprintf(series, sizeof(series), "%s: %s", c->in[i].label, what);
                int ix = plot_block(ch, i, series, "time value state rep");
                for (size_t a = 0; a < jp_len(acc); a++) {
                    struct json_object *ao = jp_idx(acc, a);
                    const char *p = jp_str(ao, "phase");
                    if (jp_num(ao, "state") != state || !p || strcmp(p, ph))
                        continue;
                    double v = jp_num(ao, metric);
                    plot_row(ch, 4, jp_num(ao, "start_s") / div, logy ? plot_pos(v) : v, state,
                             jp_num(ao, "rep"));
                }
                if (plot_block_end(ch) <= 0)
                    continue;
                int d = plot_dev(ch, i);
                /* the baseline (one colour) once per chart, as every wait state */
                plot_elem(ch, plot_key_once(&ko, true, what),
                          "dat index %d using 1:2 with linespoints lw 1 pt %d ps 0.35 dt %d %s", ix,
                          plot_pt(d), plot_dt(d), plot_color(phase ? 10 : (int)w));
            }
        }
    }
    if (many)
        plot_dev_keys(c, ch);
    plot_chart_done(c, ch);
}

/* ---- cross stimulus recovery ---- */

static void xsr_time(struct plot_ctx *c, const char *test, bool lat)
{
    double tmax = 0;
    for (size_t i = 0; i < c->n_in; i++) {
        struct json_object *log = jp_arr(first_subtest(c, i, test), "log");
        double t = jp_num(jp_idx(log, jp_len(log) ? jp_len(log) - 1 : 0), "t_min");
        if (isfinite(t) && t > tmax)
            tmax = t;
    }
    double div;
    const char *unit = plot_time_unit(tmax * 60.0, &div);
    div /= 60.0;   /* the log is in minutes */
    char title[256], xl[64], q[128], name[96];
    snprintf(name, sizeof(name), "%s-%s", test, lat ? "lat-time" : "tp-time");
    if (lat)
        snprintf(title, sizeof(title), "%s: mean and maximum response time against time, µs",
                 test_title(c, test));
    else
        snprintf(title, sizeof(title), "%s: throughput against time, MB/s", test_title(c, test));
    state_title(c, test, PS_RESULT, title, sizeof(title));
    struct plot_chart *ch = plot_chart_new(
        c, name, test, title,
        lat ? "Cross stimulus recovery: mean and maximum response time of every logging "
              "interval (µs, log scale) through the three access groups."
            : "Cross stimulus recovery: throughput (MB/s = 10^6 B/s) of every logging interval "
              "through the access groups (sequential 1 MiB writes, random 8 KiB writes, then "
              "sequential again); recovery is the time until group 3 reaches group 1's average.");
    snprintf(xl, sizeof(xl), "time (%s)", unit);
    plot_quote(q, sizeof(q), xl);
    plot_set(ch, "set xlabel %s", q);
    if (lat) {
        plot_set(ch, "set ylabel 'response time (µs, log scale)'");
        plot_set(ch, "set logscale y");
    } else {
        plot_set(ch, "set ylabel 'throughput (MB/s = 10^6 B/s)'");
        plot_set(ch, "set yrange [0:*]");
    }
    bool many = n_inputs_with(c, test) > 1;
    struct plot_key_once ko = {0};
    static const char *const lat_keys[] = {"lat_mean_us", "lat_max_us"};
    static const char *const lat_names[] = {"mean", "max"};
    for (size_t i = 0; i < c->n_in; i++) {
        struct json_object *st = first_subtest(c, i, test);
        struct json_object *log = jp_arr(st, "log");
        struct json_object *groups = jp_arr(st, "groups");
        if (!jp_len(log))
            continue;
        for (size_t s = 0; s < (lat ? 2u : 1u); s++) {
            for (size_t g = 0; g < jp_len(groups); g++) {
                struct json_object *go = jp_idx(groups, g);
                double gn = jp_num(go, "group");
                const char *stim = jp_str(go, "stimulus");
                char what[256], series[512], t[512];
                if (lat)
                    snprintf(what, sizeof(what), "%s response time", lat_names[s]);
                else
                    snprintf(what, sizeof(what), "group %g: %s", gn, stim ? stim : "");
                snprintf(series, sizeof(series), "%s: group %g %s, %s", c->in[i].label, gn,
                         stim ? stim : "", lat ? what : "MB/s");
                int ix = plot_block(ch, i, series, lat ? "time latency_us group"
                                                       : "time mb_s group");
                for (size_t k = 0; k < jp_len(log); k++) {
                    struct json_object *lo = jp_idx(log, k);
                    if (jp_num(lo, "group") != gn)
                        continue;
                    double v = lat ? plot_pos(jp_num(lo, lat_keys[s])) : jp_num(lo, "mb_s");
                    plot_row(ch, 3, jp_num(lo, "t_min") / div, v, gn);
                }
                if (plot_block_end(ch) <= 0)
                    continue;
                int d = plot_dev(ch, i);
                /* the groups (colours) once; the last group's entry is the device's own
                 * (its recovery time), naming it with its dash, so a throughput chart needs
                 * no device entries: G - 1 + D entries; latency: the statistics once plus
                 * one entry per device */
                bool last = !lat && g + 1 == jp_len(groups);
                series_title(t, sizeof(t), many && last, c->in[i].label, what);
                if (last) {
                    double rec = jp_num(st, "recovery_minutes");
                    size_t l = strlen(t);
                    if (isfinite(rec))
                        snprintf(t + l, sizeof(t) - l, " (recovery %.3g min)", rec);
                    else
                        snprintf(t + l, sizeof(t) - l, " (did not recover)");
                }
                plot_elem(ch, last ? t : plot_key_once(&ko, true, what),
                          "dat index %d using 1:2 with lines lw 2 dt %d %s", ix, plot_dt(d),
                          plot_color(lat ? (int)s : (int)g));
            }
        }
    }
    if (many && lat)
        plot_dev_keys(c, ch);
    plot_chart_done(c, ch);
}

/* ---- demand intensity (DIRTH, and CBW which records the same) ---- */

static struct json_object *dirth_last_round(struct plot_ctx *c, size_t i, const char *test)
{
    struct json_object *rs = jp_arr(first_subtest(c, i, test), "rounds");
    return jp_len(rs) ? jp_idx(rs, jp_len(rs) - 1) : NULL;
}

static void dirth_axes(struct plot_ctx *c, const char *test, double *tc, size_t *n_tc,
                       double *qd, size_t *n_qd)
{
    *n_tc = *n_qd = 0;
    for (size_t i = 0; i < c->n_in; i++) {
        struct json_object *pts = jp_arr(dirth_last_round(c, i, test), "points");
        for (size_t p = 0; p < jp_len(pts); p++) {
            add_unique(tc, n_tc, jp_num(jp_idx(pts, p), "threads"));
            add_unique(qd, n_qd, jp_num(jp_idx(pts, p), "qd"));
        }
    }
    qsort(tc, *n_tc, sizeof(double), cmp_down);
    qsort(qd, *n_qd, sizeof(double), cmp_up);
}

/* intensity: mean latency against IOPS, one series per thread count (points from high to low
 * queue depth); variation: IOPS against QD, one series per thread count */
static void dirth_curves(struct plot_ctx *c, const char *test, bool intensity)
{
    double tc[MAXV], qd[MAXV];
    size_t n_tc, n_qd;
    dirth_axes(c, test, tc, &n_tc, qd, &n_qd);
    if (!n_tc)
        return;
    char name[64], title[256];
    snprintf(name, sizeof(name), "%s-%s", test, intensity ? "intensity" : "variation");
    if (intensity)
        snprintf(title, sizeof(title), "%s: demand intensity, mean response time (µs) against "
                                       "IOPS per thread count", test_title(c, test));
    else
        snprintf(title, sizeof(title), "%s: demand variation, IOPS against queue depth per "
                                       "thread count", test_title(c, test));
    state_title(c, test, PS_RESULT, title, sizeof(title));
    struct plot_chart *ch = plot_chart_new(
        c, name, test, title,
        intensity ? "Demand intensity: mean response time (µs, log scale) against IOPS for every "
                    "thread count (TC) over the queue depths of the last demand-variation round; "
                    "circles mark the MaxIOPS, MidIOPS and MinIOPS operating points."
                  : "Demand variation: IOPS against queue depth per thread (TC), last "
                    "demand-variation round.");
    if (intensity) {
        plot_set(ch, "set xlabel 'IOPS'");
        plot_set(ch, "set ylabel 'mean response time (µs, log scale)'");
        plot_set(ch, "set logscale y");
        plot_set(ch, "set format x '%%.0s%%c'");
        plot_set(ch, "set xrange [0:*]");
        plot_set(ch, "set offsets 0, graph 0.15, 0, 0");   /* room for the operating points' names */
    } else {
        plot_set(ch, "set xlabel 'queue depth per thread (log scale)'");
        plot_set(ch, "set ylabel 'IOPS'");
        plot_set(ch, "set logscale x 2");
        plot_count_axis(ch);
        plot_set(ch, "set yrange [0:*]");
        plot_set(ch, "set offsets graph 0.03, graph 0.03, 0, 0");
        plot_xtics_at(ch, qd, n_qd);
    }
    bool many = n_inputs_with(c, test) > 1;
    struct plot_key_once ko = {0};
    for (size_t i = 0; i < c->n_in; i++) {
        struct json_object *pts = jp_arr(dirth_last_round(c, i, test), "points");
        if (!jp_len(pts))
            continue;
        for (size_t t = 0; t < n_tc; t++) {
            char what[64], series[512];
            snprintf(what, sizeof(what), "TC %g", tc[t]);
            snprintf(series, sizeof(series), "%s: %s", c->in[i].label, what);
            int ix = plot_block(ch, i, series, intensity ? "iops lat_mean_us qd outstanding"
                                                         : "qd iops lat_mean_us outstanding");
            for (size_t p = 0; p < jp_len(pts); p++) {
                struct json_object *po = jp_idx(pts, p);
                if (jp_num(po, "threads") != tc[t])
                    continue;
                if (intensity)
                    plot_row(ch, 4, jp_num(po, "iops"), plot_pos(jp_num(po, "lat_mean_us")),
                             jp_num(po, "qd"), jp_num(po, "outstanding"));
                else
                    plot_row(ch, 4, jp_num(po, "qd"), jp_num(po, "iops"),
                             jp_num(po, "lat_mean_us"), jp_num(po, "outstanding"));
            }
            if (plot_block_end(ch) <= 0)
                continue;
            int d = plot_dev(ch, i);
            plot_elem(ch, plot_key_once(&ko, many, what),
                      "dat index %d using 1:2 with linespoints lw 1.5 pt %d ps 0.9 dt %d %s",
                      ix, plot_pt(d), plot_dt(d), plot_color((int)t));
        }
        if (!intensity)
            continue;
        struct json_object *op = jp_get(first_subtest(c, i, test), "operating_points");
        static const char *const ops[] = {"max", "mid", "min"};
        char series[512];
        snprintf(series, sizeof(series), "%s: operating points", c->in[i].label);
        int ix = plot_block(ch, i, series, "sweep_iops sweep_lat_mean_us name threads qd");
        bool any = false;
        for (int k = 0; k < 3; k++) {
            struct json_object *o = jp_get(op, ops[k]);
            if (!o)
                continue;
            plot_row(ch, 5, jp_num(o, "sweep_iops"), plot_pos(jp_num(o, "sweep_lat_mean_us")),
                     (double)k, jp_num(o, "threads"), jp_num(o, "qd"));
            any = true;
        }
        if (any && plot_block_end(ch) > 0) {
            int d = plot_dev(ch, i);
            plot_elem(ch, plot_key_once(&ko, many, "operating points (MaxIOPS, MidIOPS, MinIOPS)"), "dat index %d using 1:2 with points pt 6 ps 2.8 lw 2 %s", ix,
                      plot_color(d == 0 ? 10 : 7));
            plot_elem(ch, NULL,
                      "dat index %d using 1:2:(sprintf('%%s TC%%d/QD%%d', "
                      "word('MaxIOPS MidIOPS MinIOPS', int($3)+1), int($4), int($5))) "
                      "with labels left offset 1.5,0.8 tc rgb '%s'",
                      ix, d == 0 ? "#000000" : "#7f7f7f");
        } else {
            plot_block_end(ch);
        }
    }
    if (many)
        plot_dev_keys(c, ch);
    plot_chart_done(c, ch);
}

/* The response-time histograms of the operating points, one chart per point
 * (TEST-histogram-max, -mid, -min): each bucket [low_us, high_us, count] of
 * operating_points.POINT.histogram.buckets a bar over its own latency range (log x) as high as
 * its share of the point's I/Os (log y), one colour per device. */
static const char *const dirth_ops[] = {"max", "mid", "min"};

/* "max IOPS point, 16 threads × QD 32" */
static void dirth_point_words(struct json_object *o, int k, char *buf, size_t len)
{
    double t = jp_num(o, "threads");
    snprintf(buf, len, "%s IOPS point, %g thread%s × QD %g", dirth_ops[k], t,
             t == 1 ? "" : "s", jp_num(o, "qd"));
}

/* The latency at percentile pct of a histogram's buckets: the upper edge (high_us) of the
 * bucket in which the cumulative count, buckets in latency order, first reaches pct% of all
 * counted I/Os. The percentile lies somewhere inside that bucket; its upper edge is a
 * conservative bound (never below the true value). NAN without counts. */
static double bucket_percentile(struct json_object *buckets, double pct)
{
    double total = 0, cum = 0;
    size_t n = jp_len(buckets);
    for (size_t j = 0; j < n; j++)
        total += json_object_get_double(jp_idx(jp_idx(buckets, j), 2));
    if (!(total > 0))
        return NAN;
    double need = pct / 100.0 * total;
    /* buckets are written in latency order; take the smallest low edge not yet passed */
    bool *used = xcalloc(n ? n : 1, sizeof(bool));
    double v = NAN;
    for (size_t m = 0; m < n; m++) {
        size_t best = n;
        for (size_t j = 0; j < n; j++)
            if (!used[j] && (best == n || json_object_get_double(jp_idx(jp_idx(buckets, j), 0)) <
                                              json_object_get_double(jp_idx(jp_idx(buckets, best), 0))))
                best = j;
        used[best] = true;
        struct json_object *bo = jp_idx(buckets, best);
        cum += json_object_get_double(jp_idx(bo, 2));
        if (cum >= need * (1 - 1e-12)) {
            v = json_object_get_double(jp_idx(bo, 1));
            break;
        }
    }
    free(used);
    return v;
}

static void dirth_histogram(struct plot_ctx *c, const char *test, int k)
{
    char name[64], title[256];
    snprintf(name, sizeof(name), "%s-histogram-%s", test, dirth_ops[k]);
    snprintf(title, sizeof(title), "%s: response-time histogram at the %s IOPS point",
             test_title(c, test), dirth_ops[k]);
    state_title(c, test, PS_RESULT, title, sizeof(title));
    char caption[512];
    snprintf(caption, sizeof(caption),
             "Response-time histogram of the %s IOPS operating point: each bar one histogram "
             "bucket, as wide as its latency range (log scale) and as high as its share of the "
             "point's I/Os (log scale); one colour per device.", dirth_ops[k]);
    struct plot_chart *ch = plot_chart_new(c, name, test, title, caption);
    plot_set(ch, "set xlabel 'response time (µs, log scale)'");
    plot_set(ch, "set ylabel 'I/Os in bucket (%%, log scale)'");
    plot_set(ch, "set logscale x");
    plot_set(ch, "set logscale y");
    plot_set(ch, "set grid xtics ytics");
    bool many = n_inputs_with(c, test) > 1;
    double floor_pct = INFINITY;
    for (size_t i = 0; i < c->n_in; i++) {
        struct json_object *o = jp_get(jp_get(first_subtest(c, i, test), "operating_points"),
                                       dirth_ops[k]);
        struct json_object *b = jp_arr(jp_get(o, "histogram"), "buckets");
        double total = 0;
        for (size_t j = 0; j < jp_len(b); j++)
            total += json_object_get_double(jp_idx(jp_idx(b, j), 2));
        if (!(total > 0))
            continue;
        struct json_object *lu = jp_obj_at(o, "total.lat_us");
        double p9999 = jp_num(jp_get(lu, "percentiles"), "99.99");
        if (!isfinite(p9999))
            p9999 = bucket_percentile(b, 99.99);
        char pw[128], mean[32], p4[32], what[320], series[512], t[512];
        dirth_point_words(o, k, pw, sizeof(pw));
        units_format_lat(jp_num(lu, "mean"), UNITS_TYPESET, mean, sizeof(mean));
        units_format_lat(p9999, UNITS_TYPESET, p4, sizeof(p4));
        snprintf(what, sizeof(what), "%s: mean %s, 99.99%% %s", pw, mean, p4);
        snprintf(series, sizeof(series), "%s: %s", c->in[i].label, what);
        int ix = plot_block(ch, i, series, "percent_of_ios low_us high_us count");
        for (size_t j = 0; j < jp_len(b); j++) {
            struct json_object *bo = jp_idx(b, j);
            double lo = json_object_get_double(jp_idx(bo, 0));
            double hi = json_object_get_double(jp_idx(bo, 1));
            double n = json_object_get_double(jp_idx(bo, 2));
            double pct = 100.0 * n / total;
            if (pct > 0 && pct < floor_pct)
                floor_pct = pct;
            plot_row(ch, 4, plot_pos(pct), plot_pos(lo), hi, n);
        }
        if (plot_block_end(ch) <= 0)
            continue;
        int d = plot_dev(ch, i);
        series_title(t, sizeof(t), many, c->in[i].label, what);
        /* a box from the axis floor up to the bucket's share, over [low_us, high_us] */
        plot_elem(ch, t, "dat index %d using (sqrt($2*$3)):1:2:3:(ymin):1 with boxxyerror "
                  "%s fs transparent solid %s border %s",
                  ix, plot_dev_color(d), many ? "0.45" : "0.8", plot_dev_color(d));
    }
    if (isfinite(floor_pct)) {
        plot_set(ch, "ymin = %.6g", floor_pct / 2);
        plot_set(ch, "set yrange [ymin:100]");
    }
    plot_chart_done(c, ch);
}

/* Latency at 3, 4 and 5 nines (99.9%, 99.99%, 99.999%) of each operating point, from its
 * histogram (bucket_percentile: the upper edge of the bucket the percentile falls in), as bars
 * grouped per point: one colour per device, the fill's density the nines. */
static void dirth_nines(struct plot_ctx *c, const char *test)
{
    static const double pcts[] = {99.9, 99.99, 99.999};
    static const char *const pw[] = {"99.9%", "99.99%", "99.999%"};
    char name[64], title[256];
    snprintf(name, sizeof(name), "%s-nines", test);
    snprintf(title, sizeof(title),
             "%s: response time at 3, 4 and 5 nines per operating point",
             test_title(c, test));
    state_title(c, test, PS_RESULT, title, sizeof(title));
    struct plot_chart *ch = plot_chart_new(
        c, name, test, title,
        "Response time (µs, log scale) at 3, 4 and 5 nines of the max, mid and min IOPS "
        "operating points, from each point's histogram: the upper edge of the bucket in which "
        "the percentile falls (a conservative bound); one colour per device.");
    size_t dev[MAXV], n_dev = 0;
    char cols[4096] = "point";
    for (size_t i = 0; i < c->n_in && n_dev < MAXV / 3; i++) {
        if (!jp_get(first_subtest(c, i, test), "operating_points"))
            continue;
        dev[n_dev++] = i;
        for (int q = 0; q < 3; q++) {
            size_t l = strlen(cols);
            snprintf(cols + l, sizeof(cols) - l, " | %s %s latency_us", c->in[i].label, pw[q]);
        }
    }
    if (!n_dev) {
        plot_chart_done(c, ch);
        return;
    }
    plot_table(ch, cols);
    bool short_of = false;
    for (int k = 0; k < 3; k++) {
        double v[MAXV];
        for (size_t d = 0; d < n_dev; d++) {
            struct json_object *o = jp_get(
                jp_get(first_subtest(c, dev[d], test), "operating_points"), dirth_ops[k]);
            struct json_object *b = jp_arr(jp_get(o, "histogram"), "buckets");
            const double n = jp_path(o, "total.lat_us.count");   /* observations (hist.h) */
            for (int q = 0; q < 3; q++) {
                const bool no = n >= 1 && !hist_pct_supported((uint64_t)n, pcts[q]);
                short_of |= no;
                v[d * 3 + q] = no ? NAN : plot_pos(bucket_percentile(b, pcts[q]));
            }
        }
        char label[64];
        snprintf(label, sizeof(label), "%s IOPS point", dirth_ops[k]);
        plot_table_row(ch, label, (int)(n_dev * 3), v);
    }
    plot_set(ch, "set style data histogram");
    plot_set(ch, "set style histogram clustered gap 1");
    plot_set(ch, "set boxwidth 0.9");
    plot_set(ch, "set logscale y");
    if (short_of)
        plot_caption_add(ch, PLOT_PCT_LEFT_OUT);
    plot_set(ch, "set xlabel 'operating point'");
    plot_set(ch, "set ylabel 'response time (µs, log scale)'");
    plot_set(ch, "set grid noxtics ytics");
    bool many = n_dev > 1;
    static const char *const fills[] = {"fs solid 0.9", "fs solid 0.55", "fs solid 0.25"};
    for (size_t d = 0; d < n_dev; d++) {
        int di = plot_dev(ch, dev[d]);
        for (int q = 0; q < 3; q++) {
            char t[300];
            series_title(t, sizeof(t), many, c->in[dev[d]].label, pw[q]);
            size_t col = d * 3 + (size_t)q + 2;
            plot_elem(ch, t, "dat using %zu%s %s %s border lc rgb '#303030'", col,
                      col == 2 ? ":xtic(1)" : "", plot_dev_color(di), fills[q]);
        }
    }
    plot_chart_done(c, ch);
}

/* convergence: the IOPS of the highest thread count at every QD, per round */
static void dirth_convergence(struct plot_ctx *c, const char *test)
{
    double tc[MAXV], qd[MAXV];
    size_t n_tc, n_qd;
    dirth_axes(c, test, tc, &n_tc, qd, &n_qd);
    if (!n_tc)
        return;
    double top = tc[0];
    char name[64], title[256];
    snprintf(name, sizeof(name), "%s-convergence", test);
    snprintf(title, sizeof(title), "%s: demand-variation rounds, IOPS at TC %g per round, one "
                                   "line per queue depth", test_title(c, test), top);
    state_title(c, test, PS_ROUNDS, title, sizeof(title));
    struct plot_chart *ch = plot_chart_new(
        c, name, test, title,
        "Steady-state convergence of the demand-variation rounds: IOPS at the highest thread "
        "count for every queue depth, per round (the TC32/QD32 point is tracked).");
    plot_set(ch, "set xlabel 'round'");
    plot_set(ch, "set ylabel 'IOPS'");
    plot_round_xtics(ch);
    plot_set(ch, "set yrange [0:*]");
    plot_count_axis(ch);
    bool many = n_inputs_with(c, test) > 1;
    struct plot_key_once ko = {0};
    for (size_t i = 0; i < c->n_in; i++) {
        struct json_object *rs = jp_arr(first_subtest(c, i, test), "rounds");
        if (!jp_len(rs))
            continue;
        for (size_t q = n_qd; q-- > 0;) {
            char what[64], series[512];
            snprintf(what, sizeof(what), "TC %g / QD %g", top, qd[q]);
            snprintf(series, sizeof(series), "%s: %s", c->in[i].label, what);
            int ix = plot_block(ch, i, series, "round iops");
            for (size_t r = 0; r < jp_len(rs); r++) {
                struct json_object *ro = jp_idx(rs, r);
                struct json_object *pts = jp_arr(ro, "points");
                for (size_t p = 0; p < jp_len(pts); p++) {
                    struct json_object *po = jp_idx(pts, p);
                    if (jp_num(po, "threads") == top && jp_num(po, "qd") == qd[q])
                        plot_row(ch, 2, jp_num(ro, "round"), jp_num(po, "iops"));
                }
            }
            if (plot_block_end(ch) <= 0)
                continue;
            int d = plot_dev(ch, i);
            plot_elem(ch, plot_key_once(&ko, many, what),
                      "dat index %d using 1:2 with linespoints lw 1.5 pt %d dt %d %s", ix,
                      plot_pt(d), plot_dt(d), plot_color((int)(n_qd - 1 - q)));
        }
    }
    if (many)
        plot_dev_keys(c, ch);
    plot_chart_done(c, ch);
}

static double dirth_tracked(struct json_object *round, const struct plot_window_src *s)
{
    struct tracking tk;
    tracking_of(s->var, &tk);
    const double t = tk.threads ? tk.threads : 32, q = tk.threads ? tk.qd : 32;
    struct json_object *pts = jp_arr(round, "points");
    for (size_t p = 0; p < jp_len(pts); p++) {
        struct json_object *po = jp_idx(pts, p);
        if (jp_num(po, "threads") == t && jp_num(po, "qd") == q)
            return jp_num(po, "iops");
    }
    return NAN;
}

static void dirth_window(struct plot_ctx *c, const char *test)
{
    struct plot_window_src src[64];
    size_t n = 0;
    for (size_t i = 0; i < c->n_in && n < 64; i++) {
        struct json_object *st = first_subtest(c, i, test);
        struct json_object *var = jp_idx(jp_arr(jp_get(st, "steady_state"), "variables"), 0);
        if (!var)
            continue;
        src[n++] = (struct plot_window_src){.input = i, .var = var,
                                            .rounds = jp_arr(st, "rounds"),
                                            .value = dirth_tracked, .k = 0,
                                            .what = "IOPS at TC32/QD32"};
    }
    char name[64], title[256];
    snprintf(name, sizeof(name), "%s-window", test);
    snprintf(title, sizeof(title), "%s: steady-state measurement window, IOPS at TC32/QD32",
             test_title(c, test));
    state_title(c, test, PS_RESULT, title, sizeof(title));
    plot_window_chart(c, name, test, title, "IOPS", src, n);
}

/* ---- all: each test's charts by its presentation (plot_test_report) ---- */

static void iops_charts(struct plot_ctx *c, const char *test)
{
    plot_suite_steady(c, test);
    iops_bs_mix(c, test);
    char title[256], name[96];
    snprintf(name, sizeof(name), "%s-3d", test);
    snprintf(title, sizeof(title), "%s test: IOPS by block size and R/W mix (3D)",
             test_title(c, test));
    state_title(c, test, PS_RESULT, title, sizeof(title));
    bs_mix_3d(c, test, name, title,
              "Random IOPS over the steady-state window as 3D columns: block size against "
              "read/write mix (the PTS's 3D IOPS plot).", "iops", "IOPS");
}

static void tp_charts(struct plot_ctx *c, const char *test)
{
    plot_suite_steady(c, test);
    tp_bs(c, test);
}

static void lat_charts(struct plot_ctx *c, const char *test)
{
    plot_suite_steady(c, test);
    lat_bs(c, test);
    char title[256], name[96];
    snprintf(name, sizeof(name), "%s-3d", test);
    snprintf(title, sizeof(title), "%s test: mean response time by block size and R/W mix "
                                   "(3D), µs", test_title(c, test));
    state_title(c, test, PS_RESULT, title, sizeof(title));
    bs_mix_3d(c, test, name, title,
              "Mean response time (µs) at T1/Q1 over the steady-state window as 3D columns: "
              "block size against read/write mix.", "lat_mean_us", "mean response time (µs)");
}

static void wsat_charts(struct plot_ctx *c, const char *test)
{
    wsat_iops(c, test, "iops-time", false, true);
    wsat_iops(c, test, "iops-time-linear", false, false);
    wsat_iops(c, test, "iops-tgbw", true, false);
    wsat_lat(c, test);
}

static void hir_charts(struct plot_ctx *c, const char *test)
{
    plot_precondition_charts(c, test);
    hir_time(c, test, "iops-time", "iops", false);
    hir_time(c, test, "lat-time", "lat_mean_us", true);
}

static void xsr_charts(struct plot_ctx *c, const char *test)
{
    xsr_time(c, test, false);
    xsr_time(c, test, true);
}

static void dirth_charts(struct plot_ctx *c, const char *test)
{
    plot_precondition_charts(c, test);
    dirth_convergence(c, test);
    dirth_window(c, test);
    dirth_curves(c, test, true);
    dirth_curves(c, test, false);
    for (int k = 0; k < 3; k++)
        dirth_histogram(c, test, k);
    dirth_nines(c, test);
}

/* A test's charts by its presentation; "generic" (a standard test without one of the PTS's
 * presentations): its steady-state convergence and window, which any standard test records.
 * The report's sections are report.c's by the same names. */
static void (*const pts_charts[PTS_REPORT_COUNT])(struct plot_ctx *c, const char *test) = {
    [PTS_REPORT_IOPS] = iops_charts, [PTS_REPORT_TP] = tp_charts,
    [PTS_REPORT_LAT] = lat_charts,   [PTS_REPORT_WSAT] = wsat_charts,
    [PTS_REPORT_HIR] = hir_charts,   [PTS_REPORT_XSR] = xsr_charts,
    [PTS_REPORT_DIRTH] = dirth_charts, [PTS_REPORT_GENERIC] = plot_suite_steady,
};

bool plot_presentation_has_charts(enum pts_report p)
{
    return p >= PTS_REPORT_GENERIC && p < PTS_REPORT_COUNT && pts_charts[p];
}

void plot_pts_charts(struct plot_ctx *c)
{
    /* every test name, in the order first seen, each once */
    const char *seen[64];
    size_t n_seen = 0;
    for (size_t i = 0; i < c->n_in; i++) {
        if (strcmp(read_schema(c->in[i].doc), "ptsbench.suite"))
            continue;
        struct json_object *tests = jp_arr(c->in[i].doc, "tests");
        for (size_t k = 0; k < jp_len(tests) && n_seen < 64; k++) {
            const char *n = jp_str(jp_idx(tests, k), "name");
            bool dup = !n;
            for (size_t q = 0; q < n_seen && !dup; q++)
                dup = !strcmp(seen[q], n);
            if (dup)
                continue;
            seen[n_seen++] = n;
            enum pts_report p = plot_suite_presentation(c, n);
            if (plot_presentation_has_charts(p))
                pts_charts[p](c, n);
        }
    }
}
