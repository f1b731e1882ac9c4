/* chart.c — the chart builder (chart.h): data blocks and tables, gnuplot settings and plot
 * elements, styles, quoting; then each chart's .dat and .gp files and the gnuplot runs
 * (fork/exec, several at once) that render its PNG and SVG. */
#include "plot/chart.h"
#include "read/load.h"

#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/file.h"
#include "lib/spawn.h"
#include "lib/util.h"

#define PLOT_W 1100
#define PLOT_H 650
#define PLOT_JOBS 8

/* ---- growable text ---- */

struct sbuf {
    char *s;
    size_t len, cap;
};

static void sb_vprintf(struct sbuf *b, const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    if (n < 0)
        return;
    if (b->len + (size_t)n + 1 > b->cap) {
        b->cap = (b->len + (size_t)n + 1) * 2 + 256;
        b->s = xrealloc(b->s, b->cap);
    }
    vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
    b->len += (size_t)n;
}

static void sb_printf(struct sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sb_printf(struct sbuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(b, fmt, ap);
    va_end(ap);
}

static void sb_truncate(struct sbuf *b, size_t len)
{
    if (len < b->len) {
        b->len = len;
        b->s[len] = '\0';
    }
}

static const char *sb_str(const struct sbuf *b) { return b->s ? b->s : ""; }

/* ---- the chart builder ---- */

struct plot_chart {
    char name[128], section[64], title[256], caption[512];
    struct sbuf dat, set, elems;
    bool splot;
    bool count_y, round_x;    /* y tics as 400k, 1.2M; x an axis of rounds (thinned) */
    int canvas_h;             /* pixels: PLOT_H unless plot_canvas_height set it */
    int *dev_rank;            /* per input: rank in this chart, -1 unused */
    bool *src;                /* per input: named as a source */
    size_t n_in, n_devs;
    int n_blocks, n_elems;
    bool in_block;
    size_t block_start;
    int block_rows;
    long valid_rows;
    /* rendering */
    int status;               /* 0 ok, -1 failed */
    char err[ERR_LEN];
    struct plot_file file;
};

void plot_caption_add(struct plot_chart *ch, const char *text)
{
    const size_t l = strlen(ch->caption);
    snprintf(ch->caption + l, sizeof(ch->caption) - l, "%s%s", l ? " " : "", text);
}

struct plot_chart *plot_chart_new(struct plot_ctx *c, const char *name, const char *section,
                                  const char *title, const char *caption)
{
    struct plot_chart *ch = xcalloc(1, sizeof(*ch));
    str_copy(ch->name, sizeof(ch->name), name);
    str_copy(ch->section, sizeof(ch->section), section);
    str_copy(ch->title, sizeof(ch->title), title);
    str_copy(ch->caption, sizeof(ch->caption), caption);
    ch->canvas_h = PLOT_H;
    ch->n_in = c->n_in;
    ch->dev_rank = xcalloc(c->n_in ? c->n_in : 1, sizeof(int));
    ch->src = xcalloc(c->n_in ? c->n_in : 1, sizeof(bool));
    for (size_t i = 0; i < c->n_in; i++)
        ch->dev_rank[i] = -1;
    return ch;
}

static void chart_free(struct plot_chart *ch)
{
    if (!ch)
        return;
    free(ch->dat.s);
    free(ch->set.s);
    free(ch->elems.s);
    free(ch->dev_rank);
    free(ch->src);
    free(ch);
}

static bool chart_name_used(const struct plot_ctx *c, const char *name)
{
    for (size_t i = 0; i < c->n_charts; i++)
        if (!strcmp(c->charts[i]->name, name))
            return true;
    return false;
}

void plot_chart_done(struct plot_ctx *c, struct plot_chart *ch)
{
    if (ch->in_block)
        plot_block_end(ch);
    if (ch->valid_rows <= 0 || ch->n_elems <= 0) {
        chart_free(ch);
        return;
    }
    if (chart_name_used(c, ch->name)) {
        char base[128];
        str_copy(base, sizeof(base), ch->name);
        for (int k = 2; chart_name_used(c, ch->name); k++)
            snprintf(ch->name, sizeof(ch->name), "%.100s-%d", base, k);
    }
    if (c->n_charts == c->cap) {
        c->cap = c->cap ? c->cap * 2 : 32;
        c->charts = xrealloc(c->charts, c->cap * sizeof(*c->charts));
    }
    c->charts[c->n_charts++] = ch;
}

int plot_dev(struct plot_chart *ch, size_t input)
{
    if (input >= ch->n_in)
        return 0;
    if (ch->dev_rank[input] < 0)
        ch->dev_rank[input] = (int)ch->n_devs++;
    ch->src[input] = true;
    return (int)input;   /* styles keyed by the input: one look per device in every chart */
}

int plot_dev_rank(const struct plot_chart *ch, size_t input)
{
    return input < ch->n_in ? ch->dev_rank[input] : -1;
}

const char *plot_key_once(struct plot_key_once *k, bool many, const char *what)
{
    if (!many)
        return what;
    for (size_t i = 0; i < k->n; i++)
        if (!strncmp(k->seen[i], what, sizeof(k->seen[i]) - 1))
            return NULL;
    if (k->n < sizeof(k->seen) / sizeof(k->seen[0]))
        snprintf(k->seen[k->n++], sizeof(k->seen[0]), "%s", what);
    return what;
}

void plot_dev_keys(const struct plot_ctx *c, struct plot_chart *ch)
{
    for (size_t i = 0; i < c->n_in && i < ch->n_in; i++) {
        if (ch->dev_rank[i] < 0)
            continue;
        char t[300];
        snprintf(t, sizeof(t), "%s (%s)", c->in[i].label ? c->in[i].label : "results",
                 plot_dt((int)i) == 1 ? "solid" : "dashed");
        plot_elem(ch, t, "keyentry with linespoints lw 2 pt %d dt %d lc rgb '#404040'",
                  plot_pt((int)i), plot_dt((int)i));
    }
}

size_t plot_n_devs(const struct plot_chart *ch) { return ch->n_devs; }

static const char *const bar_fills[] = {"", " fs pattern 4 border", " fs pattern 5 border"};
static const char *const bar_fill_words[] = {"solid", "hatched", "cross-hatched"};

const char *plot_bar_fill(int dev) { return bar_fills[dev < 2 ? (dev < 0 ? 0 : dev) : 2]; }

void plot_bar_dev_keys(const struct plot_ctx *c, struct plot_chart *ch)
{
    for (size_t i = 0; i < c->n_in && i < ch->n_in; i++) {
        if (ch->dev_rank[i] < 0)
            continue;
        const int d = i < 2 ? (int)i : 2;
        char t[300];
        snprintf(t, sizeof(t), "%s (%s)", c->in[i].label ? c->in[i].label : "results",
                 bar_fill_words[d]);
        plot_elem(ch, t, "keyentry with boxes lc rgb '#404040'%s",
                  d ? bar_fills[d] : " fs solid 0.85");
    }
}

void plot_source(struct plot_chart *ch, size_t input)
{
    if (input < ch->n_in)
        ch->src[input] = true;
}

/* Plain, distinct colours (the reviews' charts are simple coloured lines on white). */
static const char *const palette[] = {
    "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b",
    "#17becf", "#7f7f7f", "#bcbd22", "#e377c2", "#000000", "#aec7e8",
};

const char *plot_color(int k)
{
    static char buf[8][32];   /* a few may be in use at once in one plot_elem call */
    static unsigned slot;
    size_t n = sizeof(palette) / sizeof(palette[0]);
    char *b = buf[slot++ % 8];
    snprintf(b, 32, "lc rgb '%s'", palette[(size_t)(k < 0 ? 0 : k) % n]);
    return b;
}

/* One colour per device (input index), the same in every chart of a report. */
const char *plot_dev_color(int dev) { return plot_color(dev); }

const char *plot_trim_color(void) { return "lc rgb '#b8860b'"; }

int plot_dt(int dev)
{
    static const int dts[] = {1, 2, 4, 3, 5};
    return dts[(dev < 0 ? 0 : dev) % 5];
}

int plot_pt(int dev)
{
    static const int pts[] = {7, 5, 9, 13, 11};
    return pts[(dev < 0 ? 0 : dev) % 5];
}

void plot_quote(char *dst, size_t len, const char *s)
{
    size_t o = 0;
    if (len < 3) {
        if (len)
            dst[0] = '\0';
        return;
    }
    dst[o++] = '\'';
    for (; s && *s && o + 3 < len; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch < 0x20 || ch == 0x7f) {
            dst[o++] = ' ';
            continue;
        }
        if (ch == '\'') {
            if (o + 4 >= len)
                break;
            dst[o++] = '\'';
        }
        dst[o++] = (char)ch;
    }
    dst[o++] = '\'';
    dst[o] = '\0';
}

/* A comment line's text: no newlines. */
static void comment_text(char *dst, size_t len, const char *s)
{
    str_copy(dst, len, s ? s : "");
    for (char *p = dst; *p; p++)
        if ((unsigned char)*p < 0x20)
            *p = ' ';
}

int plot_block(struct plot_chart *ch, size_t input, const char *series, const char *columns)
{
    if (ch->in_block)
        plot_block_end(ch);
    plot_source(ch, input);
    ch->in_block = true;
    ch->block_start = ch->dat.len;
    ch->block_rows = 0;
    char s[512], cols[512];
    comment_text(s, sizeof(s), series);
    comment_text(cols, sizeof(cols), columns);
    sb_printf(&ch->dat, "# index %d: %s\n# columns: %s\n", ch->n_blocks, s, cols);
    return ch->n_blocks;
}

static void put_num(struct sbuf *b, double v)
{
    if (isfinite(v))
        sb_printf(b, "%.10g", v);
    else
        sb_printf(b, "NaN");
}

void plot_row(struct plot_chart *ch, int n, ...)
{
    va_list ap;
    va_start(ap, n);
    bool valid = n > 0;
    for (int i = 0; i < n; i++) {
        double v = va_arg(ap, double);
        if (!isfinite(v) && i < 2)
            valid = false;
        if (i)
            sb_printf(&ch->dat, " ");
        put_num(&ch->dat, v);
    }
    va_end(ap);
    sb_printf(&ch->dat, "\n");
    if (valid) {
        ch->block_rows++;
        ch->valid_rows++;
    }
}

int plot_block_end(struct plot_chart *ch)
{
    if (!ch->in_block)
        return 0;
    ch->in_block = false;
    if (ch->block_rows == 0) {   /* nothing gnuplot could draw: drop the block */
        sb_truncate(&ch->dat, ch->block_start);
        return 0;
    }
    sb_printf(&ch->dat, "\n\n");
    ch->n_blocks++;
    return ch->block_rows;
}

/* A text column: double-quoted, its own double quotes and control characters dropped. */
static void put_label(struct sbuf *b, const char *label)
{
    sb_printf(b, "\"");
    for (const char *p = label ? label : ""; *p; p++)
        if (*p != '"' && (unsigned char)*p >= 0x20)
            sb_printf(b, "%c", *p);
    sb_printf(b, "\"");
}

void plot_table(struct plot_chart *ch, const char *columns)
{
    char cols[1024];
    comment_text(cols, sizeof(cols), columns);
    sb_printf(&ch->dat, "# columns: %s\n", cols);
}

void plot_table_row(struct plot_chart *ch, const char *label, int n, const double *v)
{
    put_label(&ch->dat, label);
    bool any = false;
    for (int i = 0; i < n; i++) {
        sb_printf(&ch->dat, " ");
        put_num(&ch->dat, v[i]);
        if (isfinite(v[i]))
            any = true;
    }
    sb_printf(&ch->dat, "\n");
    if (any)
        ch->valid_rows++;
}

void plot_row_label(struct plot_chart *ch, const char *label, int n, const double *v)
{
    bool valid = n > 0;
    for (int i = 0; i < n; i++) {
        if (!isfinite(v[i]) && i < 2)
            valid = false;
        if (i)
            sb_printf(&ch->dat, " ");
        put_num(&ch->dat, v[i]);
    }
    sb_printf(&ch->dat, " ");
    put_label(&ch->dat, label);
    sb_printf(&ch->dat, "\n");
    if (valid) {
        ch->block_rows++;
        ch->valid_rows++;
    }
}

void plot_set(struct plot_chart *ch, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(&ch->set, fmt, ap);
    va_end(ap);
    sb_printf(&ch->set, "\n");
}

void plot_elem(struct plot_chart *ch, const char *title, const char *fmt, ...)
{
    if (ch->n_elems)
        sb_printf(&ch->elems, ", \\\n     ");
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(&ch->elems, fmt, ap);
    va_end(ap);
    if (title) {
        char q[600];
        plot_quote(q, sizeof(q), title);
        sb_printf(&ch->elems, " title %s", q);
    } else {
        sb_printf(&ch->elems, " notitle");
    }
    ch->n_elems++;
}

void plot_use_splot(struct plot_chart *ch) { ch->splot = true; }

int plot_canvas_width(void) { return PLOT_W; }

void plot_canvas_height(struct plot_chart *ch, int h)
{
    ch->canvas_h = h < 200 ? 200 : h > 4000 ? 4000 : h;
}

void plot_count_axis(struct plot_chart *ch) { ch->count_y = true; }

void plot_round_xtics(struct plot_chart *ch)
{
    plot_set(ch, "set xtics 1");
    ch->round_x = true;
}

/* The gnuplot text of plot_count_axis and plot_round_xtics: a first pass on the `unknown`
 * terminal finds the axes' ranges, then y tics at a round step labelled as units_format_short
 * writes numbers (400k, 1.2M; the same words as the annotations) and x tics of rounds every
 * 1 up to 25 rounds, then at a round step (about 6 tics). */
static void axis_text(const struct plot_chart *ch, struct sbuf *gp, const char *q_png)
{
    if (ch->splot || (!ch->count_y && !ch->round_x))
        return;
    sb_printf(gp,
              "# numbers as 400k, 1.2M and rounds thinned: a first pass finds the ranges\n"
              "_cnum(v) = abs(v) >= 1e9 ? sprintf('%%gG', v / 1e9) : abs(v) >= 1e6 ? "
              "sprintf('%%gM', v / 1e6) : abs(v) >= 1e3 ? sprintf('%%gk', v / 1e3) : "
              "sprintf('%%g', v)\n"
              "_fr(r) = r / 6.0 / 10.0 ** floor(log10(r / 6.0))\n"
              "_step(r) = (_fr(r) < 1.5 ? 1 : _fr(r) < 3.5 ? 2 : _fr(r) < 7.5 ? 5 : 10) * "
              "10.0 ** floor(log10(r / 6.0))\n"
              "set terminal push\n"
              "set terminal unknown\n"
              "plot %s\n"
              "set terminal pop\n"
              "set output %s\n",
              sb_str(&ch->elems), q_png);
    if (ch->count_y)
        sb_printf(gp,
                  "_lo = GPVAL_Y_MIN; _hi = GPVAL_Y_MAX\n"
                  "if (_hi > _lo && (abs(_hi) >= 1e4 || abs(_lo) >= 1e4)) {\n"
                  "    set yrange [_lo:_hi]\n"
                  "    _st = _step(_hi - _lo)\n"
                  "    set ytics _st\n"
                  "    set format y ''\n"
                  "    do for [_i = ceil(_lo / _st):floor(_hi / _st)] {\n"
                  "        set ytics add (_cnum(_i * _st) _i * _st)\n"
                  "    }\n"
                  "}\n");
    if (ch->round_x)
        sb_printf(gp,
                  "_xr = GPVAL_X_MAX - GPVAL_X_MIN\n"
                  "if (_xr > 25) {\n"
                  "    set xtics _step(_xr)\n"
                  "}\n");
}

void plot_xtics_at(struct plot_chart *ch, const double *v, size_t n)
{
    if (!n)
        return;
    struct sbuf b = {0};
    sb_printf(&b, "set xtics (");
    for (size_t i = 0; i < n; i++)
        sb_printf(&b, "%s'%g' %.10g", i ? ", " : "", v[i], v[i]);
    sb_printf(&b, ")");
    plot_set(ch, "%s", b.s);
    free(b.s);
}

/* units_format_figure's rules in gnuplot: a whole number rounded as C's "%.0f" rounds and
 * grouped by threes (units_group); three significant digits from the value rounded to three
 * ("%.2e"), so that 99.96 is 100 (units_sig3), grouped when whole. */
const char plot_figure_functions[] =
    "fig_commas(s) = strlen(s) <= 3 ? s : fig_commas(s[1:strlen(s) - 3]) . ',' . "
    "s[strlen(s) - 2:strlen(s)]\n"
    "fig_count(x) = fig_commas(sprintf('%.0f', x))\n"
    "fig_clamp(d) = d < 0 ? 0 : d > 6 ? 6 : d\n"
    "fig_dec(x) = x <= 0 ? 0 : fig_clamp(2 - floor(log10(real(sprintf('%.2e', x)))))\n"
    "fig_sig3(x) = fig_dec(x) == 0 ? fig_count(x) : sprintf('%.' . sprintf('%d', fig_dec(x)) . "
    "'f', x)\n";

void plot_bar_values(struct plot_chart *ch, size_t n_cols, enum units_figure kind)
{
    const char *fn = kind == UNITS_FIG_IOPS || kind == UNITS_FIG_COUNT ? "fig_count" : "fig_sig3";
    plot_set(ch, "%s", plot_figure_functions);
    /* a clustered histogram with gap 1 draws column k of row r centred at
     * r + (k - (n - 1) / 2) / (n + 1) */
    for (size_t k = 0; k < n_cols; k++)
        plot_elem(ch, NULL,
                  "dat using ($0 + (%zu - %g) / %g):%zu:(%s($%zu)) with labels center "
                  "offset 0,0.6 font ',8'",
                  k, ((double)n_cols - 1) / 2.0, (double)n_cols + 1.0, k + 2, fn, k + 2);
}

void plot_mix_label(double rwmix_read, char *buf, size_t len)
{
    if (!isfinite(rwmix_read))
        snprintf(buf, len, "R/W ?");
    else
        snprintf(buf, len, "R/W %g/%g", rwmix_read, 100.0 - rwmix_read);
}

const char *plot_time_unit(double max_s, double *div)
{
    if (!(max_s < 600.0 * 60.0)) {
        *div = 3600.0;
        return "h";
    }
    if (max_s >= 600.0) {
        *div = 60.0;
        return "min";
    }
    *div = 1.0;
    return "s";
}

double plot_pos(double v) { return isfinite(v) && v > 0 ? v : NAN; }

/* ---- writing and rendering ---- */

static int write_file(const char *path, const char *a, const char *b, char *err, size_t errlen)
{
    const char *parts[] = {a, b};
    const size_t lens[] = {strlen(a), strlen(b)};
    return file_write_atomic(path, parts, lens, 2, false, err, errlen);
}

static void input_source(const struct plot_ctx *c, size_t i, char *buf, size_t len)
{
    if (c->in[i].source && *c->in[i].source) {
        str_copy(buf, len, c->in[i].source);
        return;
    }
    const char *path = jp_str(jp_get(c->in[i].doc, "target"), "path");
    snprintf(buf, len, "%s document for target %s", read_schema(c->in[i].doc),
             path ? path : "(unknown)");
}

/* "simulated" when every input of the chart is a simulated drive ("simulated drives" for
 * several), else "" (a mix: the legend's labels say which). */
static const char *sim_tag(const struct plot_ctx *c, const struct plot_chart *ch)
{
    size_t n = 0;
    for (size_t i = 0; i < c->n_in; i++) {
        if (!ch->src[i])
            continue;
        if (!plot_doc_simulated(c->in[i].doc))
            return "";
        n++;
    }
    return n > 1 ? "simulated drives" : n ? "simulated" : "";
}

/* The chart's .dat header and its .gp script (the paths in ch->file set), in memory. */
static void chart_text(const struct plot_ctx *c, struct plot_chart *ch, struct sbuf *head,
                       struct sbuf *gp)
{
    struct plot_file *f = &ch->file;
    str_copy(f->name, sizeof(f->name), ch->name);
    str_copy(f->title, sizeof(f->title), ch->title);
    plot_title_tag(f->title, sizeof(f->title), sim_tag(c, ch));
    str_copy(f->caption, sizeof(f->caption), ch->caption);
    str_copy(f->section, sizeof(f->section), ch->section);
    snprintf(f->png, sizeof(f->png), "%s/%s.png", c->out_dir, ch->name);
    snprintf(f->svg, sizeof(f->svg), "%s/%s.svg", c->out_dir, ch->name);
    snprintf(f->gp, sizeof(f->gp), "%s/%s.gp", c->out_dir, ch->name);
    snprintf(f->dat, sizeof(f->dat), "%s/%s.dat", c->out_dir, ch->name);

    char title[512], caption[1024], line[4400];
    comment_text(title, sizeof(title), f->title);
    comment_text(caption, sizeof(caption), ch->caption);

    sb_printf(head, "# %s.dat: %s\n# %s\n", ch->name, title, caption);
    if (ch->n_blocks)
        sb_printf(head, "# Written by ptsbench plot for %s.gp: one block per series (blocks are "
                         "separated by two blank\n# lines: gnuplot's `index N`); missing values "
                         "are NaN. Sources:\n", ch->name);
    else
        sb_printf(head, "# Written by ptsbench plot for %s.gp: one row per category, one column "
                         "per series; missing\n# values are NaN. Sources:\n", ch->name);
    for (size_t i = 0; i < c->n_in; i++) {
        if (!ch->src[i])
            continue;
        char src[4200], lab[300];
        input_source(c, i, src, sizeof(src));
        comment_text(lab, sizeof(lab), c->in[i].label ? c->in[i].label : "");
        comment_text(line, sizeof(line), src);
        sb_printf(head, "#   %s: %s\n", lab, line);
    }
    sb_printf(head, "\n");

    /* one device: name it in the image's title (its label says "(simulated)" for a simulated
     * drive); several: the legend names them, and the title says when all are simulated */
    char shown[600];
    str_copy(shown, sizeof(shown), f->title);
    for (size_t i = 0; ch->n_devs == 1 && i < c->n_in; i++)
        if (ch->dev_rank[i] == 0 && c->in[i].label && *c->in[i].label)
            snprintf(shown, sizeof(shown), "%s — %s", ch->title, c->in[i].label);
    char q_title[700], q_dat[300], q_png[300], q_svg[300], tmp[200];
    plot_quote(q_title, sizeof(q_title), shown);
    snprintf(tmp, sizeof(tmp), "%s.dat", ch->name);
    plot_quote(q_dat, sizeof(q_dat), tmp);
    snprintf(tmp, sizeof(tmp), "%s.png", ch->name);
    plot_quote(q_png, sizeof(q_png), tmp);
    snprintf(tmp, sizeof(tmp), "%s.svg", ch->name);
    plot_quote(q_svg, sizeof(q_svg), tmp);

    sb_printf(gp,
              "# %s.gp: %s\n"
              "# %s\n"
              "# Written by ptsbench plot. Renders %s.png and %s.svg from %s.dat; from this\n"
              "# directory: gnuplot %s.gp  (edit the settings below to restyle)\n"
              "dat = %s\n"
              "set encoding utf8\n"
              "if (strstrt(GPVAL_TERMINALS, ' pngcairo ') > 0) {\n"
              "    set terminal pngcairo size %d,%d noenhanced font 'Sans,10'\n"
              "} else {\n"
              "    set terminal png size %d,%d noenhanced truecolor\n"
              "}\n"
              "set output %s\n"
              "set title %s\n"
              "set grid lc rgb '#d8d8d8' lw 1 dt 1\n"
              "set border lc rgb '#404040'\n"
              "set key outside below center horizontal maxrows 6 reverse Left noenhanced\n"
              "set datafile missing 'NaN'\n",
              ch->name, title, caption, ch->name, ch->name, ch->name, ch->name, q_dat, PLOT_W,
              ch->canvas_h, PLOT_W, ch->canvas_h, q_png, q_title);
    sb_printf(gp, "%s", sb_str(&ch->set));
    axis_text(ch, gp, q_png);
    sb_printf(gp, "%s %s\n", ch->splot ? "splot" : "plot", sb_str(&ch->elems));
    sb_printf(gp,
              "set terminal svg size %d,%d fixed noenhanced font 'Sans,10' background '#ffffff'\n"
              "set output %s\n"
              "replot\n"
              "unset output\n",
              PLOT_W, ch->canvas_h, q_svg);
}

static int chart_write(const struct plot_ctx *c, struct plot_chart *ch, char *err, size_t errlen)
{
    struct sbuf head = {0}, gp = {0};
    chart_text(c, ch, &head, &gp);
    int rc = write_file(ch->file.dat, sb_str(&head), sb_str(&ch->dat), err, errlen);
    if (!rc)
        rc = write_file(ch->file.gp, sb_str(&gp), "", err, errlen);
    free(head.s);
    free(gp.s);
    return rc;
}

static bool file_nonempty(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0;
}

static void chart_render(const struct plot_ctx *c, struct plot_chart *ch)
{
    char cd[4400], gpname[200];
    char q[4300];
    plot_quote(q, sizeof(q), c->out_dir);
    snprintf(cd, sizeof(cd), "cd %s", q);
    snprintf(gpname, sizeof(gpname), "%s.gp", ch->name);
    char *argv[] = {"gnuplot", "-e", cd, gpname, NULL};
    struct spawn_result r;
    unlink(ch->file.png);
    unlink(ch->file.svg);
    if (spawn_run(argv, &r) != 0) {
        ch->status = errf(ch->err, sizeof(ch->err), "cannot run gnuplot: %s", strerror(errno));
        return;
    }
    if (r.status != 0) {
        char msg[300];
        if (!str_last_line(r.err, msg, sizeof(msg)))   /* gnuplot's error message */
            str_copy(msg, sizeof(msg), "no message");
        if (r.status == 127)
            ch->status = errf(ch->err, sizeof(ch->err), "gnuplot is not installed (not found "
                                                        "in PATH)");
        else
            ch->status = errf(ch->err, sizeof(ch->err), "gnuplot failed on %s (exit %d): %s",
                              ch->file.gp, r.status, msg);
    } else if (!file_nonempty(ch->file.png) || !file_nonempty(ch->file.svg)) {
        ch->status = errf(ch->err, sizeof(ch->err), "gnuplot wrote no image for %s",
                          ch->file.gp);
    }
    spawn_result_free(&r);
}

struct render_pool {
    const struct plot_ctx *c;
    pthread_mutex_t lock;
    size_t next;
};

static void *render_worker(void *arg)
{
    struct render_pool *p = arg;
    for (;;) {
        pthread_mutex_lock(&p->lock);
        size_t i = p->next++;
        pthread_mutex_unlock(&p->lock);
        if (i >= p->c->n_charts)
            return NULL;
        chart_render(p->c, p->c->charts[i]);
    }
}

static void render_all(const struct plot_ctx *c)
{
    struct render_pool pool = {.c = c, .next = 0};
    pthread_mutex_init(&pool.lock, NULL);
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    size_t jobs = ncpu > 0 ? (size_t)ncpu : 1;
    if (jobs > PLOT_JOBS)
        jobs = PLOT_JOBS;
    if (jobs > c->n_charts)
        jobs = c->n_charts;
    pthread_t th[PLOT_JOBS];
    size_t started = 0;
    for (size_t i = 1; i < jobs; i++) {
        if (pthread_create(&th[started], NULL, render_worker, &pool) != 0)
            break;
        started++;
    }
    render_worker(&pool);
    for (size_t i = 0; i < started; i++)
        pthread_join(th[i], NULL);
    pthread_mutex_destroy(&pool.lock);
}

int plot_gnuplot_check(char *err, size_t errlen)
{
    char *argv[] = {"gnuplot", "--version", NULL};
    struct spawn_result r;
    if (spawn_run(argv, &r) != 0)
        return errf(err, errlen, "cannot run gnuplot: %s", strerror(errno));
    int st = r.status;
    spawn_result_free(&r);
    if (st == 127)
        return errf(err, errlen, "gnuplot is not installed (not found in PATH; e.g. apt-get "
                                 "install gnuplot-nox)");
    if (st != 0)
        return errf(err, errlen, "gnuplot --version failed (exit %d)", st);
    return 0;
}

void plot_ctx_free(struct plot_ctx *c)
{
    for (size_t i = 0; i < c->n_charts; i++)
        chart_free(c->charts[i]);
    free(c->charts);
    c->charts = NULL;
    c->n_charts = c->cap = 0;
}

void plot_charts_text(const struct plot_ctx *c)
{
    for (size_t i = 0; i < c->n_charts; i++) {
        struct sbuf head = {0}, gp = {0};
        chart_text(c, c->charts[i], &head, &gp);
        free(head.s);
        free(gp.s);
    }
}

int plot_charts_render(struct plot_ctx *c, struct plot_list *out, char *err, size_t errlen)
{
    int rc = 0;
    for (size_t i = 0; i < c->n_charts && !rc; i++)
        rc = chart_write(c, c->charts[i], err, errlen);
    if (!rc)
        render_all(c);
    for (size_t i = 0; i < c->n_charts && !rc; i++) {
        if (c->charts[i]->status != 0) {
            str_copy(err, errlen, c->charts[i]->err);
            rc = -1;
        }
    }
    if (!rc && c->n_charts) {
        out->f = xcalloc(c->n_charts, sizeof(*out->f));
        for (size_t i = 0; i < c->n_charts; i++)
            out->f[i] = c->charts[i]->file;
        out->n = c->n_charts;
    }
    return rc;
}

