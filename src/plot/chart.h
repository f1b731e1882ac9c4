/* chart.h — the contract for a chart writer (plot_pts.c, plot_steady.c, plot_profile.c,
 * plot_run.c; db_trend.c): the builder every chart of ptsbench is made with.
 *
 * A writer opens a chart in a plot_ctx (plot_chart_new: file stem, section, title, caption),
 * writes data blocks (gnuplot `index N`, each with a header comment naming its columns and
 * source) or a wide table, gnuplot settings and plot elements, and closes it (plot_chart_done);
 * a chart without a valid data point or without a plot element is dropped. A driver (plot.c's
 * plot_all, db_trend.c) then calls plot_charts_render: NAME.dat and NAME.gp are written into
 * the context's out_dir and gnuplot is run on each script (fork/exec, no shell; several at
 * once) to render NAME.png and NAME.svg, or plot_charts_text builds the same text in memory.
 * One look for every chart: the palette, dash and point types per device, quoting of strings
 * (plot_quote), count axes (400k, 1.2M) and round axes are here and nowhere else.
 *
 * Also here, for the writers: a suite test's presentation (presentation.c), state words
 * (plot_state.c, declared in plot.h), the tracking-variable metrics and the steady-state
 * window chart (plot_steady.c). This header includes plot.h for its public types. */
#ifndef PTSBENCH_PLOT_CHART_H
#define PTSBENCH_PLOT_CHART_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/units.h"
#include "plot/plot.h"

struct plot_chart;

struct plot_ctx {
    const struct plot_input *in;
    size_t n_in;
    const char *out_dir;
    struct plot_chart **charts;
    size_t n_charts, cap;
};

/* A new chart (name: the file stem; section: "iops", "wsat", "profile", "run", ...). */
struct plot_chart *plot_chart_new(struct plot_ctx *c, const char *name, const char *section,
                                  const char *title, const char *caption);
/* A sentence added to the chart's caption (after a space), e.g. what it leaves out; the one for
 * a percentile the count does not support (stats/hist.h tail rule: JSON null), which a chart
 * never draws. */
#define PLOT_PCT_LEFT_OUT "A percentile the I/Os do not support is left out: not enough I/Os " \
    "for it (fewer than 10 beyond it)."
void plot_caption_add(struct plot_chart *ch, const char *text);
/* Keep the chart when it has a valid data point (and at least one plot element), else drop
 * it. The chart must not be used afterwards. */
void plot_chart_done(struct plot_ctx *c, struct plot_chart *ch);

/* Record input i as a device of this chart; returns its style index, the input's index, so
 * that a device has one colour (plot_dev_color), dash and point type in every chart of a
 * report: the first input solid, the others dashed. */
int plot_dev(struct plot_chart *ch, size_t input);
/* The rank of input i among the devices of this chart (0, 1, ... in order of first use), -1
 * when it is not one. */
int plot_dev_rank(const struct plot_chart *ch, size_t input);
/* A legend entry per device of the chart, in its dash and point type ("LABEL (solid)"), for
 * charts whose colours are series titled once (several devices, one legend of series). */
void plot_dev_keys(const struct plot_ctx *c, struct plot_chart *ch);
/* Legends of overlaid charts whose colours (or fills) are series and whose dashes (or bar
 * fills) are devices: each series is titled once, by the first device that draws it, and the
 * devices follow as one entry each (plot_dev_keys), so that S series and D devices give S + D
 * entries, not S x D. Returns what (a series title) the first time, NULL (notitle) after; with
 * one device (many false) every series is titled. */
struct plot_key_once {
    char seen[64][128];
    size_t n;
};
const char *plot_key_once(struct plot_key_once *k, bool many, const char *what);
size_t plot_n_devs(const struct plot_chart *ch);
/* Bars of several devices: the series are colours, the devices fills, the first device (input)
 * solid, the second hatched, the others cross-hatched. plot_bar_fill gives the fill to append to
 * a bar's style ("" for solid: the chart's own fill style); plot_bar_dev_keys a legend entry per
 * device of the chart in its fill ("LABEL (hatched)"). */
const char *plot_bar_fill(int dev);
void plot_bar_dev_keys(const struct plot_ctx *c, struct plot_chart *ch);
/* Styles: "lc rgb '#1f77b4'" for a colour index; a dash type and point type per device
 * rank (solid, dashed, dash-dot, ...). */
const char *plot_color(int k);
/* The colour of a device (the input's index), for charts whose series are devices. */
const char *plot_dev_color(int dev);
/* The trims' colour (fio's rw=trim, randtrim, trimwrite): a chart of one run draws its trims in
 * it, apart from every device's and the palette's colours. */
const char *plot_trim_color(void);
int plot_dt(int dev);
int plot_pt(int dev);

/* Data: a block (gnuplot `index`) for one series of one input; columns names its columns.
 * Returns the index the block will have. plot_row writes n numbers (NaN or infinite: "NaN",
 * which gnuplot skips); a row counts as valid when its first two numbers (x, y) are finite. plot_block_end
 * returns the valid rows written; a block without one is removed (and its index reused). */
int plot_block(struct plot_chart *ch, size_t input, const char *series, const char *columns);
void plot_row(struct plot_chart *ch, int n, ...);
int plot_block_end(struct plot_chart *ch);
/* A wide table (one row per category, one column per series): the header, then rows with a
 * quoted category label and n numbers. Plot it as `dat using K:xtic(1)`. */
void plot_table(struct plot_chart *ch, const char *columns);
void plot_table_row(struct plot_chart *ch, const char *label, int n, const double *v);
/* A row of a block with a text column last: n numbers (as plot_row), then label quoted (double
 * quotes dropped), for tic labels: `dat index K using 1:2:xtic(N + 1)`. */
void plot_row_label(struct plot_chart *ch, const char *label, int n, const double *v);
/* Record input i as a source of the chart's data (named in the .dat header). */
void plot_source(struct plot_chart *ch, size_t input);

/* gnuplot settings (one line each, printf style) and plot elements: elem is e.g.
 * "dat index 3 using 1:2 with lines lw 2 dt 1 lc rgb '#d62728'" (`dat` is the .dat file's
 * name); title NULL for notitle. splot: the chart uses splot instead of plot. */
void plot_set(struct plot_chart *ch, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void plot_elem(struct plot_chart *ch, const char *title, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void plot_use_splot(struct plot_chart *ch);
/* The canvas: every chart is plot_canvas_width() pixels wide and 650 high unless
 * plot_canvas_height sets its height (200..4000; bars.h's charts grow with their rows). */
int plot_canvas_width(void);
void plot_canvas_height(struct plot_chart *ch, int h);
/* A linear y axis of counts (IOPS, MB/s, µs): tics at a round step labelled 400k, 1.2M (as
 * units_format_short writes numbers) once the axis reaches 10000; below, plain numbers. */
void plot_count_axis(struct plot_chart *ch);
/* An x axis of rounds: a tic every round up to 25 rounds, then a round step (about 6 tics). */
void plot_round_xtics(struct plot_chart *ch);
/* x tics exactly at these values (for log axes of block sizes and queue depths). */
void plot_xtics_at(struct plot_chart *ch, const double *v, size_t n);
/* Values above the bars of a clustered histogram (gap 1) of n_cols data columns (2..n+1),
 * written as units_format_figure writes a figure of that kind (UNITS_FIG_IOPS, _COUNT: 3,198;
 * _MBS, _VALUE: 41.5, 358, 3,198), by the gnuplot functions of plot_figure_functions. */
void plot_bar_values(struct plot_chart *ch, size_t n_cols, enum units_figure kind);
/* gnuplot definitions of fig_count(x) and fig_sig3(x): units_format_figure's IOPS/COUNT and
 * MBS/VALUE forms for x >= 0, in gnuplot (tests/unit/test_chart_figures compares them). */
extern const char plot_figure_functions[];

/* A gnuplot string literal: single-quoted, quotes doubled, control characters dropped. */
void plot_quote(char *dst, size_t len, const char *s);

/* JSON access: json_path.h (jp_get, jp_num, jp_path, ...); the schema: read_schema
 * (read/load.h). */

/* Suite helpers: the test named `name` in a ptsbench.suite document, or NULL. */
struct json_object *plot_suite_test(struct json_object *doc, const char *name);
/* plot_test_presentation of the test named `name`, in the first input that has it
 * (PTS_REPORT_GENERIC); plot_suite_report: its name. */
enum pts_report plot_suite_presentation(struct plot_ctx *c, const char *name);
const char *plot_suite_report(struct plot_ctx *c, const char *name);
/* Whether plot_pts.c's table draws presentation p (every one has an entry; "generic": the
 * steady-state convergence and window any standard test records). */
bool plot_presentation_has_charts(enum pts_report p);
/* "R/W 65/35" (block sizes: units_format_bs). */
void plot_mix_label(double rwmix_read, char *buf, size_t len);
/* A time axis: seconds below 10 minutes, minutes below 10 hours, else hours. Sets *div. */
const char *plot_time_unit(double max_s, double *div);
/* Positive finite v, else NAN (for log axes). */
double plot_pos(double v);

/* Metrics by name, as the tracking variables name them: "iops", "write_iops", "mb_s",
 * "write_lat_mean_us", "lat_max_us", "lat_p99_us", ... of an object holding the figures object
 * (a suite element or table row, a run round), or of a flat record (iops, write_iops, mb_s,
 * lat_mean_us, lat_max_us, lat_p99_9_us: precondition, HIR and XSR periods). */
double plot_elem_metric(struct json_object *elem, const char *metric);
/* Axis label with unit for a metric (core/metrics.h's vocabulary): "IOPS", "throughput (MB/s =
 * 10^6 B/s)", "latency (µs)". */
const char *plot_metric_axis(const char *metric);
bool plot_metric_is_latency(const char *metric);

/* Steady-state measurement-window chart (plot_steady.c): for each source, the tracked values
 * of the window's rounds, their average, ±10% and ±20% bands and the least-squares line. */
struct plot_window_src {
    size_t input;
    struct json_object *var;      /* {tracking, window{first_round, last_round, average, ...}} */
    struct json_object *rounds;   /* rounds, each with "round" */
    double (*value)(struct json_object *round, const struct plot_window_src *s);
    int k;                        /* index of the variable in the round's "tracked" */
    const char *what;             /* e.g. "RND 4 KiB R/W 0/100 IOPS" */
};
void plot_window_chart(struct plot_ctx *c, const char *name, const char *section,
                       const char *title, const char *ylabel, const struct plot_window_src *s,
                       size_t n);
/* The tracked value of a round: rounds[].tracked[k], else the metric the tracking variable
 * names, looked up in the round (precondition rounds) or in its "total" (ptsbench.run). */
double plot_tracked_value(struct json_object *round, const struct plot_window_src *s);

/* A suite test's state for its charts (plot_state.c): PS_RESULT for window averages, tables
 * and windows ("steady state", "steady state NOT reached"; WSAT "from the purged drive, not
 * preconditioned"), PS_ROUNDS for round-by-round charts ("purge, WIPC, then the test loop as
 * WDPC"), PS_PRECONDITION for HIR's and DIRTH's preconditioning; "" when the inputs differ. */
enum plot_suite_view { PS_RESULT, PS_ROUNDS, PS_PRECONDITION };
void plot_suite_state_tag(struct plot_ctx *c, const char *test, enum plot_suite_view view,
                          char *buf, size_t len);

/* The chart writers (each adds what applies to the inputs). */
void plot_suite_steady(struct plot_ctx *c, const char *test);        /* IOPS, TP, LAT */
void plot_precondition_charts(struct plot_ctx *c, const char *test); /* HIR, DIRTH */
void plot_pts_charts(struct plot_ctx *c);
void plot_profile_charts(struct plot_ctx *c);
void plot_quick_charts(struct plot_ctx *c);    /* plot_quick.c: ptsbench quick */
void plot_run_charts(struct plot_ctx *c);
void plot_latdist_charts(struct plot_ctx *c);   /* latency distributions (lat_hist) */
void plot_thermal_charts(struct plot_ctx *c);   /* plot_thermal.c: temperature beside IOPS */

/* ---- For drivers (plot.c, db_trend.c) ---- */

/* gnuplot can be run: 0, or -1 with one line (not installed, failing). */
int plot_gnuplot_check(char *err, size_t errlen);
/* Write every chart of c into c->out_dir (NAME.dat, NAME.gp) and render each with gnuplot
 * (NAME.png, NAME.svg); out lists them. 0, or -1 with one line (the first failure). */
int plot_charts_render(struct plot_ctx *c, struct plot_list *out, char *err, size_t errlen);
/* The .dat and .gp text of every chart, built in memory and dropped (plot_build, fuzzing). */
void plot_charts_text(const struct plot_ctx *c);
/* Free the charts of c (c itself is the caller's). */
void plot_ctx_free(struct plot_ctx *c);

#endif
