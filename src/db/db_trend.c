/* db_trend.c — a figure across the history: the rows with their bands, the table and the
 * chart (db_trend.h). */
#include "db/db_trend.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/file.h"
#include "lib/spawn.h"
#include "lib/util.h"

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

void db_trend_write_text(FILE *f, const struct db_trend *t)
{
    const char *metric = meas_metric_name(t->metric);
    for (size_t i = 0; i < t->n; i++) {
        const struct db_trend_series *s = &t->s[i];
        fprintf(f, "%s%s  [%s]\n", i ? "\n" : "", s->label, s->key);
        if (t->by_firmware)
            fprintf(f, "%-32s %5s %14s %14s %14s %8s\n", "firmware", "runs", metric, "min", "max",
                    "band%");
        else
            fprintf(f, "%-6s %-20s %-32s %14s %14s %8s %9s\n", "run", "started", "firmware",
                    metric, "median", "band%", "change%");
        for (size_t j = 0; j < s->n; j++) {
            const struct db_trend_row *r = &s->r[j];
            if (t->by_firmware) {
                fprintf(f, "%-32.32s %5u %14.6g %14.6g %14.6g %8.2f\n",
                        *r->firmware ? r->firmware : "-", r->n, r->value, r->min, r->max,
                        100 * r->band);
                continue;
            }
            double change = r->median != 0 ? (r->value - r->median) / fabs(r->median) : NAN;
            fprintf(f, "%-6lld %-20s %-32.32s %14.6g %14.6g %8.2f %+9.2f%s\n", r->run_id,
                    *r->started ? r->started : "-", *r->firmware ? r->firmware : "-", r->value,
                    r->median, 100 * r->band, 100 * change, r->outside ? " *" : "");
        }
    }
    if (!t->by_firmware)
        fprintf(f, "\nband: the median of the %u runs before each (the first: its own window) "
                "and the larger of their window spread and 3 robust standard deviations; "
                "* outside it\n", t->window);
}

/* A gnuplot string: single quotes, a quote doubled. */
static void gp_quote(FILE *f, const char *s)
{
    fputc('\'', f);
    for (; *s; s++) {
        if (*s == '\'')
            fputc('\'', f);
        fputc(*s, f);
    }
    fputc('\'', f);
}

static const char *const colors[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
                                     "#8c564b"};

static int write_dat(const struct db_trend *t, const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return errf(err, errlen, "%s: %s", path, strerror(errno));
    fprintf(f, "# ptsbench db trend: %s over %s; one block (gnuplot index) per point\n",
            meas_metric_name(t->metric), t->by_firmware ? "firmware" : "time");
    for (size_t i = 0; i < t->n; i++) {
        const struct db_trend_series *s = &t->s[i];
        fprintf(f, "%s# %s [%s]\n# x value median band_low band_high label\n", i ? "\n\n" : "",
                s->label, s->key);
        for (size_t j = 0; j < s->n; j++) {
            const struct db_trend_row *r = &s->r[j];
            double b = isfinite(r->band) ? r->band : 0;
            char label[300];
            if (t->by_firmware)
                snprintf(label, sizeof(label), "%s", *r->firmware ? r->firmware : "-");
            else
                snprintf(label, sizeof(label), "%.16s", *r->started ? r->started : "-");
            for (char *c = label; *c; c++)
                if (*c == '"')
                    *c = '\'';
            fprintf(f, "%zu %.10g %.10g %.10g %.10g \"%s\"\n", j + 1, r->value, r->median,
                    r->median - fabs(r->median) * b, r->median + fabs(r->median) * b, label);
        }
    }
    int rc = ferror(f) | fclose(f);
    return rc ? errf(err, errlen, "%s: cannot write", path) : 0;
}

static int write_gp(const struct db_trend *t, const char *path, const char *stem,
                    const char *title, char *err, size_t errlen)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return errf(err, errlen, "%s: %s", path, strerror(errno));
    fprintf(f, "# %s.gp: written by ptsbench db trend; gnuplot %s.gp renders %s.png and "
            "%s.svg from %s.dat\n", stem, stem, stem, stem, stem);
    fprintf(f, "dat = '%s.dat'\nset encoding utf8\nset datafile missing 'NaN'\n"
            "set grid lc rgb '#d8d8d8'\nset key outside below center horizontal noenhanced\n"
            "set xtics rotate by -45 noenhanced\nset ylabel '%s'\nset title ", stem,
            meas_metric_name(t->metric));
    gp_quote(f, title);
    fprintf(f, " noenhanced\nset xlabel '%s'\nset offsets 0.5, 0.5, 0, 0\n",
            t->by_firmware ? "firmware" : "run (start time)");
    fputs("set style fill transparent solid 0.18 noborder\n", f);
    fputs("plot ", f);
    for (size_t i = 0; i < t->n; i++) {
        const char *c = colors[i % (sizeof(colors) / sizeof(colors[0]))];
        fprintf(f, "%sdat index %zu using 1:4:5 with filledcurves lc rgb '%s' title ",
                i ? ", \\\n     " : "", i, c);
        gp_quote(f, t->n == 1 ? "noise band" : "");
        fprintf(f, ", \\\n     dat index %zu using 1:3 with lines dt 2 lc rgb '%s' title ", i, c);
        gp_quote(f, t->n == 1 ? (t->by_firmware ? "median" : "median of the runs before")
                              : "");
        fprintf(f, ", \\\n     dat index %zu using 1:2:xtic(6) with linespoints pt 7 lw 2 lc "
                "rgb '%s' title ", i, c);
        gp_quote(f, t->s[i].label);
    }
    fputc('\n', f);
    int rc = ferror(f) | fclose(f);
    return rc ? errf(err, errlen, "%s: cannot write", path) : 0;
}

static int render(const char *dir, const char *stem, const char *term, const char *ext,
                  char *err, size_t errlen)
{
    char cd[4400], gp[300];
    snprintf(cd, sizeof(cd), "cd '%s'; set terminal %s; set output '%s.%s'", dir, term, stem, ext);
    snprintf(gp, sizeof(gp), "%s.gp", stem);
    char *argv[] = {"gnuplot", "-e", cd, gp, NULL};
    struct spawn_result r;
    if (spawn_run(argv, &r) != 0)
        return errf(err, errlen, "cannot run gnuplot: %s", strerror(errno));
    int rc = 0;
    if (r.status == 127)
        rc = errf(err, errlen, "gnuplot is not installed (not found in PATH; e.g. apt-get "
                  "install gnuplot-nox)");
    else if (r.status != 0) {
        char msg[300];
        if (!str_last_line(r.err, msg, sizeof(msg)))
            str_copy(msg, sizeof(msg), "no message");
        rc = errf(err, errlen, "gnuplot failed on %s/%s (exit %d): %s", dir, gp, r.status, msg);
    }
    spawn_result_free(&r);
    return rc;
}

int db_trend_plot(const struct db_trend *t, const char *dir, const char *stem, const char *title,
                  char *png, size_t pnglen, char *err, size_t errlen)
{
    if (strchr(dir, '\'') || strchr(stem, '\''))
        return errf(err, errlen, "%s: a chart directory without single quotes, please", dir);
    if (file_mkdir_p(dir, err, errlen) != 0)
        return -1;
    char path[4400];
    snprintf(path, sizeof(path), "%s/%s.dat", dir, stem);
    if (write_dat(t, path, err, errlen) != 0)
        return -1;
    snprintf(path, sizeof(path), "%s/%s.gp", dir, stem);
    if (write_gp(t, path, stem, title, err, errlen) != 0)
        return -1;
    if (render(dir, stem, "pngcairo size 1000,560 noenhanced font 'Sans,10'", "png", err,
               errlen) != 0 &&
        render(dir, stem, "png size 1000,560 noenhanced", "png", err, errlen) != 0)
        return -1;
    if (render(dir, stem, "svg size 1000,560 noenhanced", "svg", err, errlen) != 0)
        return -1;
    if (png)
        snprintf(png, pnglen, "%s/%s.png", dir, stem);
    return 0;
}
