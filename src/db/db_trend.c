/* db_trend.c — a figure across the history: the rows with their bands, the table and the
 * chart (db_trend.h). */
#include "db/db_trend.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/file.h"
#include "lib/units.h"
#include "lib/util.h"
#include "plot/chart.h"

static void row_band(struct db_trend_row *r)
{
    r->outside = isfinite(r->median) && isfinite(r->value) && r->median != 0 &&
                 fabs(r->value - r->median) / fabs(r->median) > (isfinite(r->band) ? r->band : 0)
                                                                  + 1e-9;
}

/* Over time: v[0..n) of one key, oldest first. */
static void series_time(struct db_trend_series *s, const struct db_value *v, size_t n,
                        unsigned window)
{
    s->r = xcalloc(n, sizeof(*s->r));
    s->n = n;
    double *x = xcalloc(n, sizeof(*x)), *sp = xcalloc(n, sizeof(*sp));
    for (size_t j = 0; j < n; j++) {
        struct db_trend_row *r = &s->r[j];
        r->run_id = v[j].run_id;
        str_copy(r->started, sizeof(r->started), v[j].started);
        str_copy(r->firmware, sizeof(r->firmware), v[j].firmware);
        r->value = v[j].mean;
        r->min = v[j].min;
        r->max = v[j].max;
        r->n = 1;
        size_t first = j > window ? j - window : 0;
        if (j == 0) {
            r->median = v[j].mean;
            r->band = isfinite(v[j].spread) ? v[j].spread : 0;
        } else {
            for (size_t k = first; k < j; k++) {
                x[k - first] = v[k].mean;
                sp[k - first] = v[k].spread;
            }
            db_history_stats(x, sp, j - first, &r->median, &r->band);
        }
        row_band(r);
    }
    free(x);
    free(sp);
}

/* Over firmware: a row per firmware, in order of first appearance. */
static void series_firmware(struct db_trend_series *s, const struct db_value *v, size_t n)
{
    s->r = xcalloc(n, sizeof(*s->r));
    bool *done = xcalloc(n, sizeof(*done));
    double *x = xcalloc(n, sizeof(*x)), *sp = xcalloc(n, sizeof(*sp));
    for (size_t j = 0; j < n; j++) {
        if (done[j])
            continue;
        struct db_trend_row *r = &s->r[s->n++];
        r->run_id = v[j].run_id;
        str_copy(r->started, sizeof(r->started), v[j].started);
        str_copy(r->firmware, sizeof(r->firmware), v[j].firmware);
        r->min = INFINITY;
        r->max = -INFINITY;
        for (size_t k = j; k < n; k++) {
            if (done[k] || strcmp(v[k].firmware, v[j].firmware))
                continue;
            done[k] = true;
            x[r->n] = v[k].mean;
            sp[r->n++] = v[k].spread;
            r->min = fmin(r->min, v[k].mean);
            r->max = fmax(r->max, v[k].mean);
        }
        db_history_stats(x, sp, r->n, &r->median, &r->band);
        r->value = r->median;
    }
    free(done);
    free(x);
    free(sp);
}

int db_trend_build(struct db *d, enum meas_metric m, const struct db_filter *f, unsigned window,
                   bool by_firmware, struct db_trend *t, char *err, size_t errlen)
{
    memset(t, 0, sizeof(*t));
    t->metric = m;
    t->by_firmware = by_firmware;
    t->window = window ? window : DB_TREND_WINDOW;
    struct db_value *v;
    size_t n;
    if (db_values(d, m, f, &v, &n, err, errlen) != 0)
        return -1;
    size_t cap = 0;
    for (size_t first = 0, end; first < n; first = end) {
        for (end = first + 1; end < n && !strcmp(v[end].key, v[first].key); end++)
            ;
        if (t->n == cap)
            t->s = xrealloc(t->s, (cap = cap ? 2 * cap : 8) * sizeof(*t->s));
        struct db_trend_series *s = &t->s[t->n++];
        memset(s, 0, sizeof(*s));
        str_copy(s->key, sizeof(s->key), v[first].key);
        str_copy(s->label, sizeof(s->label), v[first].label);
        if (by_firmware)
            series_firmware(s, v + first, end - first);
        else
            series_time(s, v + first, end - first, t->window);
    }
    free(v);
    return 0;
}

void db_trend_free(struct db_trend *t)
{
    for (size_t i = 0; i < t->n; i++)
        free(t->s[i].r);
    free(t->s);
    memset(t, 0, sizeof(*t));
}

/* A value in the metric's figure kind, a band or change as a percentage (units_format_figure). */
static const char *trend_fig(double v, enum units_figure kind, bool sign, char *buf, size_t len)
{
    char p[64];
    if (!isfinite(v)) {
        snprintf(buf, len, "-");
        return buf;
    }
    units_format_figure(v, kind, p, sizeof(p));
    snprintf(buf, len, "%s%s", sign && p[0] != '-' ? "+" : "", p);
    return buf;
}

void db_trend_write_text(FILE *f, const struct db_trend *t)
{
    const char *metric = meas_metric_name(t->metric);
    const enum units_figure kind = metrics_figure_kind(metric);
    for (size_t i = 0; i < t->n; i++) {
        const struct db_trend_series *s = &t->s[i];
        fprintf(f, "%s%s  [%s]\n", i ? "\n" : "", s->label, s->key);
        if (t->by_firmware)
            fprintf(f, "%-32s %5s %14s %14s %14s %8s\n", "firmware", "runs", metric, "min", "max",
                    "band");
        else
            fprintf(f, "%-6s %-20s %-32s %14s %14s %8s %9s\n", "run", "started", "firmware",
                    metric, "median", "band", "change");
        for (size_t j = 0; j < s->n; j++) {
            const struct db_trend_row *r = &s->r[j];
            char v[64], a[64], b[64], band[64], ch[64];
            trend_fig(100 * r->band, UNITS_FIG_PCT, false, band, sizeof(band));
            if (t->by_firmware) {
                fprintf(f, "%-32.32s %5u %14s %14s %14s %8s\n", *r->firmware ? r->firmware : "-",
                        r->n, trend_fig(r->value, kind, false, v, sizeof(v)),
                        trend_fig(r->min, kind, false, a, sizeof(a)),
                        trend_fig(r->max, kind, false, b, sizeof(b)), band);
                continue;
            }
            double change = r->median != 0 ? (r->value - r->median) / fabs(r->median) : NAN;
            fprintf(f, "%-6lld %-20s %-32.32s %14s %14s %8s %9s%s\n", r->run_id,
                    *r->started ? r->started : "-", *r->firmware ? r->firmware : "-",
                    trend_fig(r->value, kind, false, v, sizeof(v)),
                    trend_fig(r->median, kind, false, a, sizeof(a)), band,
                    trend_fig(100 * change, UNITS_FIG_PCT, true, ch, sizeof(ch)),
                    r->outside ? " *" : "");
        }
    }
    if (!t->by_firmware)
        fprintf(f, "\nband: the median of the %u runs before each (the first: its own window) "
                "and the larger of their window spread and 3 robust standard deviations; "
                "* outside it\n", t->window);
}

/* A series' rows as a block: x (1, 2, ...), value, median, band low, band high, label (the
 * firmware, or the run's start time to the minute). Returns the block's index, -1 if empty. */
static int trend_block(struct plot_chart *ch, const struct db_trend *t,
                       const struct db_trend_series *s)
{
    char series[600];
    snprintf(series, sizeof(series), "%s [%s]", s->label, s->key);
    int k = plot_block(ch, 0, series, "x value median band_low band_high label");
    for (size_t j = 0; j < s->n; j++) {
        const struct db_trend_row *r = &s->r[j];
        double b = isfinite(r->band) ? r->band : 0;
        char label[300];
        if (t->by_firmware)
            snprintf(label, sizeof(label), "%s", *r->firmware ? r->firmware : "-");
        else
            snprintf(label, sizeof(label), "%.16s", *r->started ? r->started : "-");
        const double v[5] = {(double)(j + 1), r->value, r->median,
                             r->median - fabs(r->median) * b, r->median + fabs(r->median) * b};
        plot_row_label(ch, label, 5, v);
    }
    return plot_block_end(ch) > 0 ? k : -1;
}

/* The chart: per series its noise band (shaded), the median it is the band of (dashed) and
 * the values, in the series' colour; the x axis labelled by firmware or start time. */
static void trend_chart(struct plot_ctx *c, const struct db_trend *t, const char *stem,
                        const char *title)
{
    char caption[300], q[300];
    snprintf(caption, sizeof(caption), "%s over %s; the shaded band is the history's spread "
             "before each run", meas_metric_name(t->metric), t->by_firmware ? "firmware" : "time");
    struct plot_chart *ch = plot_chart_new(c, stem, "history", title, caption);
    plot_quote(q, sizeof(q), meas_metric_name(t->metric));
    plot_set(ch, "set ylabel %s", q);
    plot_set(ch, "set xlabel '%s'", t->by_firmware ? "firmware" : "run (start time)");
    plot_set(ch, "set xtics rotate by -45 noenhanced");
    plot_set(ch, "set offsets 0.5, 0.5, 0, 0");
    plot_set(ch, "set style fill transparent solid 0.18 noborder");
    plot_count_axis(ch);
    for (size_t i = 0; i < t->n; i++) {
        int k = trend_block(ch, t, &t->s[i]);
        if (k < 0)
            continue;
        const char *col = plot_color((int)i);
        plot_elem(ch, t->n == 1 ? "noise band" : NULL,
                  "dat index %d using 1:4:5 with filledcurves %s", k, col);
        plot_elem(ch, t->n == 1 ? (t->by_firmware ? "median" : "median of the runs before") : NULL,
                  "dat index %d using 1:3 with lines dt 2 %s", k, col);
        plot_elem(ch, t->s[i].label, "dat index %d using 1:2:xtic(6) with linespoints pt 7 lw 2 %s",
                  k, col);
    }
    plot_chart_done(c, ch);
}

int db_trend_plot(const struct db_trend *t, const char *dir, const char *stem, const char *title,
                  char *png, size_t pnglen, char *err, size_t errlen)
{
    if (plot_gnuplot_check(err, errlen) != 0 || file_mkdir_p(dir, err, errlen) != 0)
        return -1;
    struct plot_ctx c = {.out_dir = dir};
    trend_chart(&c, t, stem, title);
    struct plot_list l = {0};
    int rc = c.n_charts ? plot_charts_render(&c, &l, err, errlen)
                        : errf(err, errlen, "%s: no value to chart", stem);
    if (rc == 0 && png)
        str_copy(png, pnglen, l.n ? l.f[0].png : "");
    plot_list_free(&l);
    plot_ctx_free(&c);
    return rc;
}
