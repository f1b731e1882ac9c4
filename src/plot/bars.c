/* bars.c — horizontal bar charts (bars.h): the layout as a pure function of values, texts and
 * sizes, and the chart drawn from it with the builder of chart.h. */
#include "plot/bars.h"
#include "plot/chart.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"

#define PX_PER_PT (4.0 / 3.0)   /* pngcairo: 96 dpi */
#define TOP_PX 40.0             /* the title */
#define RIGHT_PX 24.0
#define TIC_GAP_PX 10.0         /* a y tic label's right edge left of the border (8 measured) */
#define LEFT_PAD_PX 12.0
#define LABEL_PAD_PX 5.0        /* bar end to its label */
#define INNER_PX 4.0            /* a label's distance from the plot area's right edge */
#define GROUP_GAP 0.5           /* slots between groups */
#define BAR_HALF 0.4            /* half a bar's thickness, slots */
#define MIN_ROW_FACTOR 1.15     /* a row is at least this many label heights */
#define MAX_ROW_PX 36.0
#define GROUP_NAME_SHARE 0.3    /* of the canvas width, at most */

/* DejaVu Sans advance widths, 1/2048 em, for ' ' (32) to '~' (126). */
static const unsigned short adv[95] = {
    651,  823,  942,  1716, 1303, 1946, 1597, 563,  799,  799,  1024, 1716, 651,  739,  651,
    690,  1303, 1303, 1303, 1303, 1303, 1303, 1303, 1303, 1303, 1303, 690,  690,  1716, 1716,
    1716, 1087, 2048, 1401, 1405, 1430, 1577, 1294, 1178, 1587, 1540, 604,  604,  1343, 1141,
    1767, 1532, 1612, 1235, 1612, 1423, 1300, 1251, 1499, 1401, 2025, 1403, 1251, 1403, 799,
    690,  799,  1716, 1024, 1024, 1255, 1300, 1126, 1300, 1260, 721,  1300, 1298, 569,  569,
    1186, 569,  1995, 1298, 1253, 1300, 1300, 842,  1067, 803,  1298, 1212, 1675, 1212, 1212,
    1075, 1300, 690,  1300, 1716,
};

double bars_text_width(const char *s, double pt)
{
    const double em = pt * PX_PER_PT;
    double w = 0;
    for (const unsigned char *p = (const unsigned char *)s; p && *p; p++) {
        if ((*p & 0xc0) == 0x80)
            continue;   /* a UTF-8 continuation byte */
        double a = *p >= 32 && *p <= 126 ? adv[*p - 32] / 2048.0 : 1.0;
        w += ceil(a * em);
    }
    return w;
}

double bars_line_height(double pt) { return ceil(pt * PX_PER_PT * 1.25); }

/* Below the plot area: the axis's tic labels and its words (gnuplot centres the words about
 * 40 px below the border at 10 points). */
static double bars_axis_height(double pt) { return 2 * bars_line_height(pt) + 22; }

int bars_overlap(const struct bars_rect *a, const struct bars_rect *b)
{
    return a->x0 < b->x1 && b->x0 < a->x1 && a->y0 < b->y1 && b->y0 < a->y1;
}

/* A round step near range / 6: 1, 2, 2.5 or 5 times a power of ten. */
static double nice_step(double range)
{
    double raw = range / 6.0, p = pow(10.0, floor(log10(raw))), f = raw / p;
    return (f <= 1.0 ? 1.0 : f <= 2.0 ? 2.0 : f <= 2.5 ? 2.5 : f <= 5.0 ? 5.0 : 10.0) * p;
}

/* The group's name as drawn: shortened with "..." to at most max_px. */
static void group_text(const char *name, double pt, double max_px, char *out, size_t len)
{
    str_copy(out, len, name ? name : "");
    size_t l = strlen(out);
    while (l > 4 && bars_text_width(out, pt) > max_px) {
        l--;
        while (l > 0 && ((unsigned char)out[l] & 0xc0) == 0x80)
            l--;   /* keep whole UTF-8 characters */
        snprintf(out + l, len - l, "...");
    }
}

static int check_input(const struct bars_in *in)
{
    if (!in->n || !in->n_groups || in->canvas_w < 200)
        return -1;
    for (size_t i = 0; i < in->n; i++) {
        if (!isfinite(in->value[i]) || in->value[i] < 0 || in->group[i] >= in->n_groups ||
            (i && in->group[i] < in->group[i - 1]))
            return -1;
    }
    return 0;
}

/* The rows: each bar's centre in slots (groups apart by GROUP_GAP), each group's centre; the
 * total in slots. */
static double place_rows(const struct bars_in *in, struct bars_geom *g)
{
    double y = 0.25;
    size_t first = 0;
    for (size_t i = 0; i < in->n; i++) {
        if (i && in->group[i] != in->group[i - 1])
            y += GROUP_GAP;
        g->bar_y[i] = y + 0.5;
        y += 1.0;
        if (i + 1 == in->n || in->group[i + 1] != in->group[i]) {
            g->group_y[in->group[i]] = (g->bar_y[first] + g->bar_y[i]) / 2.0;
            first = i + 1;
        }
    }
    return y + 0.25;
}

/* The x axis: long enough that every label fits right of its bar inside the plot area. */
static void place_axis(const struct bars_in *in, struct bars_geom *g, const double *w)
{
    const double wp = g->plot.x1 - g->plot.x0;
    double need = 0;
    for (size_t i = 0; i < in->n; i++) {
        double room = wp - LABEL_PAD_PX - w[i] - INNER_PX;
        double x = room > wp * 0.1 ? in->value[i] * wp / room : in->value[i] * 10.0;
        if (x > need)
            need = x;
    }
    if (!(need > 0))
        need = 1.0;
    g->xstep = nice_step(need);
    g->xmax = ceil(need / g->xstep - 1e-9) * g->xstep;
    if (g->xmax < need)
        g->xmax += g->xstep;
}

/* The rows of chart.c's legend (outside below, at most 6 rows where the columns fit): gnuplot
 * makes each column about 9 pixels a character of the longest title, sample included, and puts
 * as many columns as fit in the plot area's width. */
static int legend_rows(int keys, size_t chars, double width)
{
    if (keys <= 0)
        return 0;
    int cols = (int)(width / (9.3 * (double)(chars + 4)));
    cols = cols < 1 ? 1 : cols;
    int rows = (keys + cols - 1) / cols;
    return rows < 6 || cols == 1 ? rows : 6;
}

int bars_layout(const struct bars_in *in, struct bars_geom *g)
{
    memset(g, 0, sizeof(*g));
    if (check_input(in) != 0)
        return -1;
    g->bar = xcalloc(in->n, sizeof(*g->bar));
    g->label = xcalloc(in->n, sizeof(*g->label));
    g->bar_y = xcalloc(in->n, sizeof(double));
    g->label_x = xcalloc(in->n, sizeof(double));
    g->group_label = xcalloc(in->n_groups, sizeof(*g->group_label));
    g->group_y = xcalloc(in->n_groups, sizeof(double));
    g->group_text = xcalloc(in->n_groups, sizeof(*g->group_text));
    double wmax = 0;
    for (size_t k = 0; k < in->n_groups; k++) {
        group_text(in->group_name[k], in->tic_pt, in->canvas_w * GROUP_NAME_SHARE,
                   g->group_text[k], sizeof(g->group_text[k]));
        double w = bars_text_width(g->group_text[k], in->tic_pt);
        wmax = w > wmax ? w : wmax;
    }
    g->slots = place_rows(in, g);
    const double lh = bars_line_height(in->label_pt), th = bars_line_height(in->tic_pt);
    const double x0 = LEFT_PAD_PX + wmax + TIC_GAP_PX, x1 = in->canvas_w - RIGHT_PX;
    g->legend_rows = legend_rows(in->legend_keys, in->legend_chars, x1 - x0);
    const double bottom = bars_axis_height(in->tic_pt) + g->legend_rows * th + 10;
    double row = (in->canvas_h - TOP_PX - bottom) / g->slots;
    const double row_min = (lh > th ? lh : th) * MIN_ROW_FACTOR;
    row = row < row_min ? row_min : row > MAX_ROW_PX ? MAX_ROW_PX : row;
    g->plot = (struct bars_rect){x0, TOP_PX, x1, TOP_PX + ceil(g->slots * row)};
    row = (g->plot.y1 - g->plot.y0) / g->slots;
    g->canvas_h = (int)ceil(g->plot.y1 + bottom);
    double *w = xcalloc(in->n, sizeof(double));
    for (size_t i = 0; i < in->n; i++)
        w[i] = bars_text_width(in->text[i], in->label_pt);
    place_axis(in, g, w);
    const double wp = g->plot.x1 - g->plot.x0;
    for (size_t i = 0; i < in->n; i++) {
        double yc = g->plot.y0 + g->bar_y[i] * row, xe = g->plot.x0 + in->value[i] / g->xmax * wp;
        g->bar[i] = (struct bars_rect){g->plot.x0, yc - BAR_HALF * row, xe, yc + BAR_HALF * row};
        g->label[i] = (struct bars_rect){xe + LABEL_PAD_PX, yc - lh / 2, xe + LABEL_PAD_PX + w[i],
                                         yc + lh / 2};
        g->label_x[i] = in->value[i] + LABEL_PAD_PX * g->xmax / wp;
    }
    for (size_t k = 0; k < in->n_groups; k++) {
        double yc = g->plot.y0 + g->group_y[k] * row, right = g->plot.x0 - TIC_GAP_PX;
        g->group_label[k] = (struct bars_rect){
            right - bars_text_width(g->group_text[k], in->tic_pt), yc - th / 2, right,
            yc + th / 2};
    }
    free(w);
    return 0;
}

void bars_geom_free(struct bars_geom *g)
{
    free(g->bar);
    free(g->label);
    free(g->bar_y);
    free(g->label_x);
    free(g->group_label);
    free(g->group_y);
    free(g->group_text);
    memset(g, 0, sizeof(*g));
}

/* ---- the chart ---- */

#define HB_LABEL_PT 9.0
#define HB_TIC_PT 10.0

struct hb_bars {
    size_t n, *series, *group;
    double *value;
    char (*text)[32];
};

static void hb_collect(const struct plot_hbars *b, struct hb_bars *o)
{
    size_t cap = b->n_groups * b->n_series;
    o->series = xcalloc(cap ? cap : 1, sizeof(size_t));
    o->group = xcalloc(cap ? cap : 1, sizeof(size_t));
    o->value = xcalloc(cap ? cap : 1, sizeof(double));
    o->text = xcalloc(cap ? cap : 1, sizeof(*o->text));
    o->n = 0;
    for (size_t g = 0; g < b->n_groups; g++)
        for (size_t s = 0; s < b->n_series; s++) {
            double v = b->v[g * b->n_series + s];
            if (!isfinite(v))
                continue;
            o->series[o->n] = s;
            o->group[o->n] = g;
            o->value[o->n] = v < 0 ? 0 : v;
            units_format_figure(v, b->fig, o->text[o->n], sizeof(o->text[0]));
            o->n++;
        }
}

static void hb_free(struct hb_bars *o)
{
    free(o->series);
    free(o->group);
    free(o->value);
    free(o->text);
}

/* The settings: margins at the layout's plot area, the axis's range and tics, the groups'
 * names as y tics. */
static void hb_settings(struct plot_chart *ch, const struct plot_hbars *b,
                        const struct bars_geom *g, size_t n_used)
{
    const double W = plot_canvas_width(), H = g->canvas_h;
    plot_canvas_height(ch, g->canvas_h);
    plot_set(ch, "set lmargin at screen %.6f", g->plot.x0 / W);
    plot_set(ch, "set rmargin at screen %.6f", g->plot.x1 / W);
    plot_set(ch, "set tmargin at screen %.6f", 1.0 - g->plot.y0 / H);
    plot_set(ch, "set bmargin at screen %.6f", 1.0 - g->plot.y1 / H);
    plot_set(ch, "set style fill solid 0.85 border lc rgb '#303030'");
    plot_set(ch, "set xrange [0:%.10g]", g->xmax);
    plot_set(ch, "set yrange [%.10g:0]", g->slots);
    char q[300], t[64];
    plot_quote(q, sizeof(q), b->xlabel);
    plot_set(ch, "set xlabel %s", q);
    plot_set(ch, "set grid xtics noytics");
    char buf[8192];
    size_t o = (size_t)snprintf(buf, sizeof(buf), "set xtics (");
    for (int k = 0; k * g->xstep <= g->xmax * (1 + 1e-9) && o < sizeof(buf) - 64; k++) {
        units_format_short(k * g->xstep, t, sizeof(t));
        plot_quote(q, sizeof(q), k ? t : "0");
        o += (size_t)snprintf(buf + o, sizeof(buf) - o, "%s%s %.10g", k ? ", " : "", q,
                              k * g->xstep);
    }
    snprintf(buf + o, sizeof(buf) - o, ")");
    plot_set(ch, "%s", buf);
    o = (size_t)snprintf(buf, sizeof(buf), "set ytics scale 0 (");
    for (size_t k = 0; k < n_used && o < sizeof(buf) - 300; k++) {
        plot_quote(q, sizeof(q), g->group_text[k]);
        o += (size_t)snprintf(buf + o, sizeof(buf) - o, "%s%s %.10g", k ? ", " : "", q,
                              g->group_y[k]);
    }
    snprintf(buf + o, sizeof(buf) - o, ")");
    plot_set(ch, "%s", buf);
}

/* Each series: a block of its bars (value, row, label start, label) drawn as boxes and labels. */
static void hb_series(struct plot_chart *ch, const struct plot_hbars *b, const struct hb_bars *x,
                      const struct bars_geom *g)
{
    for (size_t s = 0; s < b->n_series; s++) {
        int ix = plot_block(ch, b->input[s], b->name[s], "value row label_x label");
        for (size_t i = 0; i < x->n; i++)
            if (x->series[i] == s)
                plot_row_label(ch, x->text[i], 3,
                               (double[]){x->value[i], g->bar_y[i], g->label_x[i]});
        if (plot_block_end(ch) <= 0)
            continue;
        plot_dev(ch, b->input[s]);
        plot_elem(ch, b->title[s],
                  "dat index %d using (0):2:(0):1:($2 - %g):($2 + %g) with boxxyerror %s", ix,
                  BAR_HALF, BAR_HALF, b->style[s]);
        plot_elem(ch, NULL, "dat index %d using 3:2:4 with labels left font ',%g' "
                            "tc rgb '#202020'", ix, HB_LABEL_PT);
    }
}

static size_t utf8_chars(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        n += ((unsigned char)*s & 0xc0) != 0x80;
    return n;
}

int plot_hbars(struct plot_chart *ch, const struct plot_hbars *b)
{
    struct hb_bars x;
    hb_collect(b, &x);
    /* the groups that have a bar, renumbered in order */
    size_t n_used = 0;
    const char **names = xcalloc(b->n_groups ? b->n_groups : 1, sizeof(char *));
    for (size_t i = 0; i < x.n; i++) {
        if (!i || x.group[i] != x.group[i - 1])
            names[n_used++] = b->group_name[x.group[i]];
        x.group[i] = n_used - 1;
    }
    int keys = b->extra_keys;
    size_t chars = b->extra_key_chars;
    for (size_t s = 0; s < b->n_series; s++) {
        keys += b->title[s] != NULL;
        size_t l = b->title[s] ? utf8_chars(b->title[s]) : 0;
        chars = l > chars ? l : chars;
    }
    const char **texts = xcalloc(x.n ? x.n : 1, sizeof(char *));
    for (size_t i = 0; i < x.n; i++)
        texts[i] = x.text[i];
    struct bars_in in = {
        .n = x.n, .value = x.value, .text = texts, .group = x.group, .group_name = names,
        .n_groups = n_used, .canvas_w = plot_canvas_width(), .canvas_h = 650,
        .label_pt = HB_LABEL_PT, .tic_pt = HB_TIC_PT,
        .legend_keys = keys, .legend_chars = chars,
    };
    struct bars_geom g;
    int rc = bars_layout(&in, &g);
    if (rc == 0) {
        hb_settings(ch, b, &g, n_used);
        hb_series(ch, b, &x, &g);
        bars_geom_free(&g);
    }
    free(texts);
    free(names);
    hb_free(&x);
    return rc;
}
