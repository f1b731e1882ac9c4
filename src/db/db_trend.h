/* db_trend.h — `ptsbench db trend`: one figure of the selected points across the history, as
 * a table and a gnuplot chart with its noise band.
 *
 * Over time (the default) there is a row per run, oldest first; each row's band is the
 * history's distribution of the `window` runs before it (db_history_stats, db.h: their median,
 * and the larger of their median window spread and 3 robust standard deviations), the first
 * row's its own window spread. A row outside its band ("*") is a change the history had not
 * seen: a firmware step, a drift that has added up. Over firmware there is a row per firmware
 * (a simulated drive's preset and overrides stand for it), in order of first appearance: the
 * median of its runs, their band, min, max and count. */
#ifndef PTSBENCH_DB_TREND_H
#define PTSBENCH_DB_TREND_H

#include <stdbool.h>
#include <stdio.h>

#include "db/db.h"

#define DB_TREND_WINDOW 5   /* default: the band of a row is that of the 5 runs before it */

struct db_trend_row {
    long long run_id;            /* over firmware: the first run of the firmware */
    char started[32], firmware[256];
    double value;                /* the run's figure; over firmware the median of its runs */
    double median, band;         /* the band's centre and relative half-width */
    double min, max;             /* over firmware: of its runs; over time: the run's window */
    unsigned n;                  /* runs in the row (1 over time) */
    bool outside;                /* |value - median| / |median| > band */
};

struct db_trend_series {
    char key[256], label[256];
    struct db_trend_row *r;
    size_t n;
};

struct db_trend {
    enum meas_metric metric;
    bool by_firmware;
    unsigned window;
    struct db_trend_series *s;
    size_t n;
};

int db_trend_build(struct db *d, enum meas_metric m, const struct db_filter *f, unsigned window,
                   bool by_firmware, struct db_trend *t, char *err, size_t errlen);
void db_trend_free(struct db_trend *t);
/* Per series: its label and key, then a row per run (or firmware). */
void db_trend_write_text(FILE *f, const struct db_trend *t);
/* DIR/STEM.dat (an index block per series: x, value, median, band low, band high, label),
 * DIR/STEM.gp, rendered by gnuplot to DIR/STEM.png and .svg: a chart of plot/chart.h, in the
 * look of every other chart. The .png path into png (may be NULL). 0, or -1 with one line (no
 * gnuplot, an unwritable directory, no value to chart). */
int db_trend_plot(const struct db_trend *t, const char *dir, const char *stem, const char *title,
                  char *png, size_t pnglen, char *err, size_t errlen);

#endif
