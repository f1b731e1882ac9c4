/* bars.h — horizontal bar charts whose labels are placed, not hoped for: the layout is a pure
 * function (bars_layout: values, label texts, groups, canvas width and font sizes in; every bar,
 * value label and group label as a pixel rectangle out) and the chart is drawn from it
 * (plot_hbars), so a test can check what a reader sees: no two labels overlap, every value
 * label lies inside the plot area, every group label inside the canvas.
 *
 * The shape, as StorageReview draws its profile and 4K charts: one row per bar, bars of a group
 * (a workload) together, the group's name left of them, each bar's figure right of its end in
 * the figure format people read everywhere (units_format_figure: "53,769"). The axis is made
 * long enough that the longest bar's label fits; rows are never thinner than a label (the
 * canvas grows instead); a group name longer than 30% of the canvas is shortened with "...".
 *
 * Pixels: gnuplot's pngcairo renders a font of P points P x 4/3 pixels high (96 dpi) and
 * advances each character by a whole number of pixels; bars_text_width uses DejaVu Sans's
 * advances (what "Sans" is on Debian), rounded up per character, so it never underestimates.
 * The SVG terminal draws the same text no larger. */
#ifndef PTSBENCH_PLOT_BARS_H
#define PTSBENCH_PLOT_BARS_H

#include <stddef.h>

#include "lib/units.h"

struct plot_chart;

struct bars_rect {
    double x0, y0, x1, y1;   /* pixels from the canvas's top left; x0 <= x1, y0 <= y1 */
};

struct bars_in {
    size_t n;                        /* bars, in drawing order (top first) */
    const double *value;             /* each >= 0 and finite */
    const char *const *text;         /* each bar's value label */
    const size_t *group;             /* each bar's group: 0, 1, ... non-decreasing */
    const char *const *group_name;   /* n_groups names */
    size_t n_groups;
    int canvas_w, canvas_h;          /* pixels: canvas_h is the height wanted; the layout
                                        shrinks it to the rows' need or grows it so that every
                                        row holds a label */
    double label_pt, tic_pt;         /* font sizes: value labels, group names and axis */
    int legend_keys;                 /* entries of the legend below the plot (chart.c: */
    size_t legend_chars;             /* outside below), the longest title's characters */
};

#define BARS_GROUP_TEXT 128

struct bars_geom {
    int canvas_h;                    /* the canvas height to draw at */
    struct bars_rect plot;           /* the plot area */
    double xmax, xstep;              /* x axis: [0, xmax], tics every xstep */
    double slots;                    /* y axis: [0, slots] downward, a bar's row is 1 slot */
    int legend_rows;                 /* the legend's rows, reserved at the bottom */
    struct bars_rect *bar, *label;   /* n each */
    double *bar_y, *label_x;         /* n each: the row's centre (slots), label start (x units) */
    struct bars_rect *group_label;   /* n_groups */
    double *group_y;                 /* n_groups: the group's centre (slots) */
    char (*group_text)[BARS_GROUP_TEXT];   /* n_groups: the name as drawn */
};

/* Lay the bars out. 0, or -1 when the input is unusable (no bar, a group out of order, a
 * negative or non-finite value). g is filled (bars_geom_free) only on 0. */
int bars_layout(const struct bars_in *in, struct bars_geom *g);
void bars_geom_free(struct bars_geom *g);
/* The rendered width in pixels of s (UTF-8) at pt points, never less than gnuplot's. */
double bars_text_width(const char *s, double pt);
/* A line of text's height in pixels at pt points (ascent, descent and leading). */
double bars_line_height(double pt);
/* Whether two rectangles share an area (touching edges do not). */
int bars_overlap(const struct bars_rect *a, const struct bars_rect *b);

/* Draw a horizontal bar chart into ch: n_groups groups (rows of the table) by n_series series
 * (columns); v[g * n_series + s] the value (NaN: no bar). Series s: its data block's name
 * (name[s]), legend title (title[s], NULL: none), style (style[s]: "lc rgb '...'" and a fill)
 * and input (input[s]). Value labels as units_format_figure(fig); xlabel the axis's words;
 * extra_keys: legend entries the caller adds after (plot_bar_dev_keys), the longest
 * extra_key_chars characters (the legend's rows are reserved below the axis). 0, or -1
 * without a bar. */
struct plot_hbars {
    const char *const *group_name;
    size_t n_groups, n_series;
    const double *v;
    const char *const *name, *const *title, *const *style;
    const size_t *input;
    enum units_figure fig;
    const char *xlabel;
    int extra_keys;
    size_t extra_key_chars;
};
int plot_hbars(struct plot_chart *ch, const struct plot_hbars *b);

#endif
