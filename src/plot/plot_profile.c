/* plot_profile.c — workload profile charts (ptsbench.profile): horizontal bars grouped by
 * workload for the points measured at one queue depth (0% vs 90% compressible data, 1 vs 4
 * workers, as StorageReview draws its server profiles; plot/bars.h lays them out): IOPS below
 * 64 KiB blocks, MB/s from 64 KiB up, mean response time of all; and for queue-depth series the
 * QD ramp (IOPS against effective QD) and latency against IOPS curves, each measurement labelled
 * workers × QD (as the Z-Drive 6300 review draws). */
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/workload.h"
#include "lib/units.h"
#include "lib/util.h"
#include "plot/bars.h"
#include "plot/chart.h"
#include "read/load.h"
#include "read/words.h"

#define MAXK 64


static bool is_profile(struct json_object *doc)
{
    return !strcmp(read_schema(doc), "ptsbench.profile");
}

#define sval(o, path) jp_str_or((o), (path), "")   /* lib/json_path.h */

/* The workload name people read: "database", or "profile/workload" when they differ. */
static void workload_name(struct json_object *p, char *buf, size_t len)
{
    const char *prof = sval(p, "profile"), *wl = sval(p, "workload");
    if (!*wl || !strcmp(prof, wl))
        snprintf(buf, len, "%s", *prof ? prof : wl);
    else if (!*prof)
        snprintf(buf, len, "%s", wl);
    else
        snprintf(buf, len, "%s/%s", prof, wl);
}

static bool same_series(struct json_object *a, struct json_object *b)
{
    return !strcmp(sval(a, "profile"), sval(b, "profile")) &&
           !strcmp(sval(a, "workload"), sval(b, "workload")) &&
           jp_num(a, "compress_pct") == jp_num(b, "compress_pct") &&
           jp_num(a, "workers") == jp_num(b, "workers");
}

/* A point is part of a QD series when its workload, compressibility and workers were also
 * measured at another queue depth. */
static bool in_qd_series(struct json_object *points, struct json_object *p)
{
    for (size_t j = 0; j < jp_len(points); j++) {
        struct json_object *o = jp_idx(points, j);
        if (o != p && same_series(o, p) && jp_num(o, "qd") != jp_num(p, "qd"))
            return true;
    }
    return false;
}

static bool point_ok(struct json_object *p)
{
    return isfinite(jp_path(p, "result.total.iops"));
}

/* ---- transfer-size sweeps (ATTO) ----
 *
 * A point of a transfer-size sweep: sequential (rw=read or rw=write) at one block size, in a
 * profile that has such points at three or more sizes (atto.ini: 0.5 KiB .. 8 MiB). Its value is
 * read from the point's inline spec ("rw=read,bs=4k,..."): *bs the size, *write the direction. */
static bool spec_key(const char *spec, const char *key, char *val, size_t len)
{
    size_t kl = strlen(key);
    for (const char *s = spec; s && *s;) {
        const char *e = strchr(s, ',');
        size_t n = e ? (size_t)(e - s) : strlen(s);
        if (n > kl && !strncmp(s, key, kl) && s[kl] == '=') {
            size_t vl = n - kl - 1;
            if (vl >= len)
                return false;
            memcpy(val, s + kl + 1, vl);
            val[vl] = '\0';
            return true;
        }
        s = e ? e + 1 : NULL;
    }
    return false;
}

static bool seq_point(struct json_object *p, double *bs, bool *write)
{
    char rw[32], b[32], err[128];
    const char *spec = sval(p, "spec");
    if (!spec_key(spec, "rw", rw, sizeof(rw)) || !spec_key(spec, "bs", b, sizeof(b)))
        return false;
    if (strcmp(rw, "read") && strcmp(rw, "write"))
        return false;
    uint64_t v;
    if (strchr(b, ':') || strchr(b, '/') || units_parse_size(b, &v, err, sizeof(err)) || !v)
        return false;
    *bs = (double)v;
    *write = !strcmp(rw, "write");
    return true;
}

/* The point belongs to a transfer-size sweep: sequential, and its profile has sequential points
 * at three or more block sizes. */
static bool in_size_sweep(struct json_object *points, struct json_object *p)
{
    double bs, sizes[3];
    bool w;
    size_t n = 0;
    if (!seq_point(p, &bs, &w))
        return false;
    for (size_t j = 0; j < jp_len(points) && n < 3; j++) {
        struct json_object *o = jp_idx(points, j);
        if (strcmp(sval(o, "profile"), sval(p, "profile")) || !seq_point(o, &bs, &w))
            continue;
        bool seen = false;
        for (size_t k = 0; k < n; k++)
            seen |= sizes[k] == bs;
        if (!seen)
            sizes[n++] = bs;
    }
    return n >= 3;
}

/* The state shared by every profile's points ("steady state", "burst, not preconditioned";
 * plot_state.c), in a title: " (...)"; "" when they differ or the results predate it. */
static void profiles_title(struct plot_ctx *c, const char *base, char *title, size_t len)
{
    char tag[128] = "", t[128];
    bool first = true;
    for (size_t i = 0; i < c->n_in; i++) {
        if (!is_profile(c->in[i].doc))
            continue;
        plot_doc_state_tag(c->in[i].doc, t, sizeof(t));
        if (first)
            str_copy(tag, sizeof(tag), t);
        else if (strcmp(tag, t))
            tag[0] = '\0';
        first = false;
    }
    str_copy(title, len, base);
    plot_title_tag(title, len, tag);
}

/* ---- grouped bars ---- */

struct combo {
    double compress, workers, qd;
};

static int cmp_combo(const void *a, const void *b)
{
    const struct combo *x = a, *y = b;
    if (x->compress != y->compress)
        return x->compress < y->compress ? -1 : 1;
    if (x->workers != y->workers)
        return x->workers < y->workers ? -1 : 1;
    return x->qd < y->qd ? -1 : x->qd > y->qd;
}

/* What a bar chart of the profiles draws: IOPS of the points below BIG_BS, MB/s of those at
 * BIG_BS and above (a 128 KiB point's IOPS beside 4 KiB IOPS reads as a slow drive), and the mean
 * response time of every point (one unit for all). */
enum bars_what { BARS_IOPS, BARS_MBS, BARS_LAT };
#define BIG_BS 65536.0

/* The point's block size in bytes: its stimulus's one size, else its inline spec's (files
 * written before the stimulus); 0 for several sizes (bssplit) or none known. */
static double point_bs(struct json_object *p)
{
    struct json_object *bss = jp_get(jp_get(p, "stimulus"), "block_sizes");
    if (bss)
        return jp_len(bss) == 1 ? jp_num(jp_idx(bss, 0), "bytes") : 0;
    struct workload wl;
    char err[ERR_LEN];
    const char *spec = sval(p, "spec");
    if (!*spec || wl_parse_inline(spec, &wl, err, sizeof(err)) != 0 || wl.n_bs != 1)
        return 0;
    return (double)wl.bs[0].size;
}

static double point_value(struct json_object *p, enum bars_what what)
{
    struct json_object *r = jp_get(p, "result");
    return what == BARS_LAT   ? jp_path(r, "total.lat_us.mean")
           : what == BARS_MBS ? jp_path(r, "total.mb_s")
                              : jp_path(r, "total.iops");
}

/* A point of the grouped bars: valid, neither in a QD series nor in a size sweep, and of the
 * chart's block sizes. */
static bool bar_point(struct json_object *pts, struct json_object *p, enum bars_what what)
{
    if (!point_ok(p) || in_qd_series(pts, p) || in_size_sweep(pts, p))
        return false;
    return what == BARS_LAT || (point_bs(p) >= BIG_BS) == (what == BARS_MBS);
}

static bool combo_is(struct json_object *p, const struct combo *cb)
{
    return jp_num(p, "compress_pct") == cb->compress && jp_num(p, "workers") == cb->workers &&
           jp_num(p, "qd") == cb->qd;
}

/* The bars' categories (workloads, in order of first use) and combinations (compressibility,
 * workers, QD; sorted) over every profile; returns the number of profiles with a bar. */
static size_t bars_collect(struct plot_ctx *c, enum bars_what what, char (*cats)[128],
                           size_t *n_cats, struct combo *combos, size_t *n_combos)
{
    size_t n_dev = 0;
    for (size_t i = 0; i < c->n_in; i++) {
        if (!is_profile(c->in[i].doc))
            continue;
        struct json_object *pts = jp_arr(c->in[i].doc, "points");
        bool used = false;
        for (size_t j = 0; j < jp_len(pts); j++) {
            struct json_object *p = jp_idx(pts, j);
            if (!bar_point(pts, p, what))
                continue;
            used = true;
            char w[128];
            workload_name(p, w, sizeof(w));
            bool found = false;
            for (size_t k = 0; k < *n_cats; k++)
                if (!strcmp(cats[k], w))
                    found = true;
            if (!found && *n_cats < MAXK)
                str_copy(cats[(*n_cats)++], sizeof(cats[0]), w);
            struct combo cb = {jp_num(p, "compress_pct"), jp_num(p, "workers"), jp_num(p, "qd")};
            found = false;
            for (size_t k = 0; k < *n_combos; k++)
                if (!cmp_combo(&combos[k], &cb))
                    found = true;
            if (!found && *n_combos < MAXK)
                combos[(*n_combos)++] = cb;
        }
        if (used)
            n_dev++;
    }
    qsort(combos, *n_combos, sizeof(combos[0]), cmp_combo);
    return n_dev;
}

/* A series of the bars: a profile (input) and a combination it has; its block name, legend
 * title and style. */
struct bar_col {
    size_t input, combo;
    char name[400], style[128], title[160];
};

/* The series: a profile and a combination it has; returns how many. */
static size_t bars_columns(struct plot_ctx *c, enum bars_what what, const struct combo *combos,
                           size_t n_combos, struct bar_col *col)
{
    size_t n_cols = 0;
    for (size_t i = 0; i < c->n_in; i++) {
        if (!is_profile(c->in[i].doc))
            continue;
        struct json_object *pts = jp_arr(c->in[i].doc, "points");
        for (size_t k = 0; k < n_combos && n_cols < MAXK; k++) {
            bool has = false;
            for (size_t j = 0; j < jp_len(pts) && !has; j++) {
                struct json_object *p = jp_idx(pts, j);
                if (bar_point(pts, p, what) && combo_is(p, &combos[k]))
                    has = true;
            }
            if (!has)
                continue;
            col[n_cols].input = i;
            col[n_cols].combo = k;
            snprintf(col[n_cols].name, sizeof(col[n_cols].name),
                     "%s: %g%% compressible, %gw x QD%g", c->in[i].label, combos[k].compress,
                     combos[k].workers, combos[k].qd);
            n_cols++;
        }
    }
    return n_cols;
}

/* The value of workload cat in column col (NaN where none). */
static double bars_value(struct plot_ctx *c, enum bars_what what, const char *cat,
                         const struct combo *cb, const struct bar_col *col)
{
    double v = NAN;
    struct json_object *pts = jp_arr(c->in[col->input].doc, "points");
    for (size_t j = 0; j < jp_len(pts); j++) {
        struct json_object *p = jp_idx(pts, j);
        char wn[128];
        workload_name(p, wn, sizeof(wn));
        if (!strcmp(wn, cat) && bar_point(pts, p, what) && combo_is(p, cb))
            v = point_value(p, what);
    }
    return v;
}

static const struct {
    const char *stem, *title, *caption, *xlabel;
    enum units_figure fig;
} bars_words[] = {
    [BARS_IOPS] = {"profile-bars", "Workload profiles: IOPS by workload, compressibility and "
                   "workers",
                   "IOPS of every profile point below 64 KiB blocks over its measurement window, "
                   "one row per point, grouped by workload; colours the data compressibility and "
                   "worker count. Points at 64 KiB and larger blocks are drawn in MB/s in their "
                   "own chart (profile-mbs-bars): their IOPS do not compare with 4 KiB IOPS.",
                   "IOPS", UNITS_FIG_IOPS},
    [BARS_MBS] = {"profile-mbs-bars", "Workload profiles: MB/s of 64 KiB and larger blocks by "
                  "workload, compressibility and workers",
                  "Throughput (MB/s = 10^6 B/s) of every profile point at 64 KiB and larger "
                  "blocks over its measurement window, one row per point, grouped by workload; "
                  "the points below 64 KiB are drawn in IOPS (profile-bars).",
                  "throughput (MB/s = 10^6 B/s)", UNITS_FIG_MBS},
    [BARS_LAT] = {"profile-lat-bars", "Workload profiles: mean response time by workload, "
                  "compressibility and workers, µs",
                  "Mean response time (µs) of every profile point over its measurement window, "
                  "one row per point, grouped by workload; colours the data compressibility and "
                  "worker count.",
                  "mean response time (µs)", UNITS_FIG_VALUE},
};

static void profile_bars(struct plot_ctx *c, enum bars_what what)
{
    char cats[MAXK][128];
    struct bar_col col[MAXK];
    size_t n_cats = 0, n_combos = 0;
    struct combo combos[MAXK];
    size_t n_dev = bars_collect(c, what, cats, &n_cats, combos, &n_combos);
    if (!n_cats)
        return;
    bool many = n_dev > 1;
    char title[256];
    profiles_title(c, bars_words[what].title, title, sizeof(title));
    struct plot_chart *ch =
        plot_chart_new(c, bars_words[what].stem, "profile", title, bars_words[what].caption);
    size_t n_cols = bars_columns(c, what, combos, n_combos, col);
    double *v = xcalloc(n_cats * (n_cols ? n_cols : 1), sizeof(double));
    for (size_t w = 0; w < n_cats; w++)
        for (size_t k = 0; k < n_cols; k++)
            v[w * n_cols + k] = bars_value(c, what, cats[w], &combos[col[k].combo], &col[k]);
    struct plot_key_once ko = {0};
    const char *names[MAXK], *titles[MAXK], *styles[MAXK], *groups[MAXK];
    size_t inputs[MAXK];
    for (size_t k = 0; k < n_cols; k++) {
        const struct combo *cb = &combos[col[k].combo];
        snprintf(col[k].title, sizeof(col[k].title), "%g%% compressible, %g worker%s x QD %g",
                 cb->compress, cb->workers, cb->workers == 1 ? "" : "s", cb->qd);
        /* colours the combinations, titled once; fills the devices, one entry each */
        titles[k] = plot_key_once(&ko, many, col[k].title);
        snprintf(col[k].style, sizeof(col[k].style), "%s%s", plot_color((int)col[k].combo),
                 plot_bar_fill((int)col[k].input));
        names[k] = col[k].name;
        styles[k] = col[k].style;
        inputs[k] = col[k].input;
    }
    for (size_t w = 0; w < n_cats; w++)
        groups[w] = cats[w];
    size_t n_devs = 0, dev_chars = 0;   /* plot_bar_dev_keys: "LABEL (cross-hatched)" */
    for (size_t i = 0; i < c->n_in && many; i++) {
        if (!is_profile(c->in[i].doc))
            continue;
        n_devs++;
        size_t l = strlen(c->in[i].label ? c->in[i].label : "results") + 16;
        dev_chars = l > dev_chars ? l : dev_chars;
    }
    struct plot_hbars hb = {
        .group_name = groups, .n_groups = n_cats, .n_series = n_cols, .v = v, .name = names,
        .title = titles, .style = styles, .input = inputs, .fig = bars_words[what].fig,
        .xlabel = bars_words[what].xlabel, .extra_keys = (int)n_devs,
        .extra_key_chars = dev_chars,
    };
    plot_hbars(ch, &hb);
    if (many)
        plot_bar_dev_keys(c, ch);
    free(v);
    plot_chart_done(c, ch);
}

/* ---- QD series ---- */

struct series {
    size_t input;
    struct json_object *first;   /* a point of the series (its key fields) */
};

static size_t collect_series(struct plot_ctx *c, struct series *s, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < c->n_in; i++) {
        if (!is_profile(c->in[i].doc))
            continue;
        struct json_object *pts = jp_arr(c->in[i].doc, "points");
        for (size_t j = 0; j < jp_len(pts); j++) {
            struct json_object *p = jp_idx(pts, j);
            if (!point_ok(p) || !in_qd_series(pts, p))
                continue;
            bool found = false;
            for (size_t k = 0; k < n; k++)
                if (s[k].input == i && same_series(s[k].first, p))
                    found = true;
            if (!found && n < max)
                s[n++] = (struct series){i, p};
        }
    }
    return n;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static int cmp_eqd(const void *a, const void *b)
{
    double x = jp_num(*(struct json_object *const *)a, "effective_qd");
    double y = jp_num(*(struct json_object *const *)b, "effective_qd");
    return x < y ? -1 : x > y;
}

/* the series' points sorted by effective QD */
static size_t series_points(struct plot_ctx *c, const struct series *s, struct json_object **out,
                            size_t max)
{
    struct json_object *pts = jp_arr(c->in[s->input].doc, "points");
    size_t n = 0;
    for (size_t j = 0; j < jp_len(pts) && n < max; j++) {
        struct json_object *p = jp_idx(pts, j);
        if (point_ok(p) && same_series(p, s->first))
            out[n++] = p;
    }
    qsort(out, n, sizeof(out[0]), cmp_eqd);
    return n;
}

static void series_name(struct plot_ctx *c, const struct series *s, size_t n_series,
                        bool many_dev, bool vary_compress, char *buf, size_t len)
{
    char w[128];
    workload_name(s->first, w, sizeof(w));
    double workers = jp_num(s->first, "workers");
    size_t o = 0;
    if (many_dev)
        o += (size_t)snprintf(buf + o, len - o, "%s", c->in[s->input].label);
    if (n_series > 1 || !many_dev)
        o += (size_t)snprintf(buf + o, len - o, "%s%s, %g worker%s", o ? ": " : "", w, workers,
                              workers == 1 ? "" : "s");
    if (vary_compress && o < len)
        snprintf(buf + o, len - o, ", %g%% compressible", jp_num(s->first, "compress_pct"));
}

static void series_shape(struct series *s, size_t n, size_t *n_per_dev, bool *many_dev,
                         bool *vary_compress)
{
    *many_dev = false;
    *vary_compress = false;
    *n_per_dev = 0;
    for (size_t k = 0; k < n; k++) {
        if (s[k].input != s[0].input)
            *many_dev = true;
        if (jp_num(s[k].first, "compress_pct") != jp_num(s[0].first, "compress_pct"))
            *vary_compress = true;
        size_t m = 0;
        for (size_t q = 0; q < n; q++)
            if (s[q].input == s[k].input)
                m++;
        if (m > *n_per_dev)
            *n_per_dev = m;
    }
}

static struct json_object *saturation_of(struct json_object *doc, const struct series *s)
{
    struct json_object *sat = jp_arr(doc, "saturation");
    for (size_t k = 0; k < jp_len(sat); k++) {
        struct json_object *o = jp_idx(sat, k);
        if (same_series(o, s->first))
            return o;
    }
    return NULL;
}

static void qd_ramp(struct plot_ctx *c)
{
    struct series s[MAXK];
    size_t n = collect_series(c, s, MAXK);
    if (!n)
        return;
    size_t per_dev;
    bool many_dev, vary_c;
    series_shape(s, n, &per_dev, &many_dev, &vary_c);
    char title[256];
    profiles_title(c, "QD ramp: IOPS against effective queue depth (workers x QD)", title,
                   sizeof(title));
    struct plot_chart *ch = plot_chart_new(
        c, "qd-ramp", "profile", title,
        "Queue-depth ramps: IOPS at every effective queue depth (workers x QD per worker, log "
        "scale); the open circle marks the saturation point, the lowest effective QD reaching "
        "95% of the series' maximum.");
    plot_set(ch, "set xlabel 'effective queue depth (workers x QD, log scale)'");
    plot_set(ch, "set ylabel 'IOPS'");
    plot_set(ch, "set logscale x 2");
    plot_set(ch, "set yrange [0:*]");
    plot_count_axis(ch);
    plot_set(ch, "set offsets graph 0.03, graph 0.03, graph 0.05, 0");
    double eqd[MAXK];
    size_t n_eqd = 0;
    for (size_t k = 0; k < n; k++) {
        struct json_object *pts[MAXK];
        size_t np = series_points(c, &s[k], pts, MAXK);
        for (size_t j = 0; j < np; j++) {
            double e = jp_num(pts[j], "effective_qd");
            bool seen = !isfinite(e);
            for (size_t q = 0; q < n_eqd && !seen; q++)
                seen = eqd[q] == e;
            if (!seen && n_eqd < MAXK)
                eqd[n_eqd++] = e;
        }
    }
    qsort(eqd, n_eqd, sizeof(double), cmp_double);
    plot_xtics_at(ch, eqd, n_eqd);
    for (size_t k = 0; k < n; k++) {
        struct json_object *pts[MAXK];
        size_t np = series_points(c, &s[k], pts, MAXK);
        char t[512], series[600];
        series_name(c, &s[k], per_dev, many_dev, vary_c, t, sizeof(t));
        snprintf(series, sizeof(series), "%s: %s", c->in[s[k].input].label, t);
        int ix = plot_block(ch, s[k].input, series,
                            "effective_qd iops workers qd mb_s lat_mean_us");
        for (size_t j = 0; j < np; j++) {
            struct json_object *r = jp_get(pts[j], "result");
            plot_row(ch, 6, jp_num(pts[j], "effective_qd"), jp_path(r, "total.iops"),
                     jp_num(pts[j], "workers"), jp_num(pts[j], "qd"), jp_path(r, "total.mb_s"),
                     jp_path(r, "total.lat_us.mean"));
        }
        if (plot_block_end(ch) <= 0)
            continue;
        int d = plot_dev(ch, s[k].input);
        int color = many_dev ? d : (int)k;
        plot_elem(ch, t, "dat index %d using 1:2 with linespoints lw 2 pt %d ps 1.1 dt %d %s", ix,
                  plot_pt(d), plot_dt(d), plot_color(color));
        struct json_object *sat = saturation_of(c->in[s[k].input].doc, &s[k]);
        if (!sat)
            continue;
        snprintf(series, sizeof(series), "%s: saturation point of %s", c->in[s[k].input].label,
                 t);
        ix = plot_block(ch, s[k].input, series, "effective_qd iops max_iops");
        plot_row(ch, 3, jp_num(sat, "effective_qd"), jp_num(sat, "iops"),
                 jp_num(sat, "max_iops"));
        if (plot_block_end(ch) > 0) {
            char st[600], fig[32];
            units_format_figure(jp_num(sat, "iops"), UNITS_FIG_IOPS, fig, sizeof(fig));
            snprintf(st, sizeof(st), "%s%ssaturation at effective QD %g (%s IOPS)",
                     many_dev ? c->in[s[k].input].label : "", many_dev ? ": " : "",
                     jp_num(sat, "effective_qd"), fig);
            plot_elem(ch, st, "dat index %d using 1:2 with points pt 6 ps 3 lw 2 %s", ix,
                      plot_color(color));
        }
    }
    plot_chart_done(c, ch);
}

static void lat_vs_iops(struct plot_ctx *c)
{
    static const struct { const char *key, *name; } stats[] = {
        {"mean", "mean"}, {"99", "99%"}, {"99.99", "99.99%"},
    };
    struct series s[MAXK];
    size_t n = collect_series(c, s, MAXK);
    if (!n)
        return;
    size_t per_dev;
    bool many_dev, vary_c, short_of = false;   /* short_of: a percentile left out (chart.h) */
    series_shape(s, n, &per_dev, &many_dev, &vary_c);
    char title[256];
    profiles_title(c, "Response time against IOPS over the queue-depth ramp (mean, 99%, "
                      "99.99%), µs", title, sizeof(title));
    struct plot_chart *ch = plot_chart_new(
        c, "lat-vs-iops", "profile", title,
        "Latency against IOPS as the load rises (effective queue depth grows along each curve): "
        "mean response time and the 99% and 99.99% percentiles (µs, log scale), each "
        "measurement labelled workers × QD under its mean (its percentiles lie above it, at the "
        "same IOPS); other devices dashed.");
    plot_set(ch, "set xlabel 'IOPS'");
    plot_set(ch, "set ylabel 'response time (µs, log scale)'");
    plot_set(ch, "set logscale y");
    plot_set(ch, "set format x '%%.0s%%c'");
    plot_set(ch, "set xrange [0:*]");
    plot_set(ch, "set offsets 0, graph 0.04, 0, 0");
    for (size_t k = 0; k < n; k++) {
        struct json_object *pts[MAXK];
        size_t np = series_points(c, &s[k], pts, MAXK);
        char t[512];
        series_name(c, &s[k], per_dev, many_dev, vary_c, t, sizeof(t));
        size_t series_no = 0;   /* the series' position among its device's series */
        for (size_t q = 0; q < k; q++)
            if (s[q].input == s[k].input)
                series_no++;
        for (size_t m = 0; m < sizeof(stats) / sizeof(stats[0]); m++) {
            char series[700], tl[700];
            snprintf(series, sizeof(series), "%s: %s, %s response time", c->in[s[k].input].label,
                     t, stats[m].name);
            int ix = plot_block(ch, s[k].input, series,
                                "iops latency_us effective_qd workers qd");
            for (size_t j = 0; j < np; j++) {
                struct json_object *r = jp_get(pts[j], "result");
                struct json_object *lu = jp_obj_at(r, "total.lat_us");
                double v = !strcmp(stats[m].key, "mean") ? jp_num(lu, "mean")
                                                         : jp_num(jp_get(lu, "percentiles"),
                                                                  stats[m].key);
                short_of |= strcmp(stats[m].key, "mean") &&
                            words_pct_lat_short_of(lu, stats[m].key);
                plot_row(ch, 5, jp_path(r, "total.iops"), plot_pos(v),
                         jp_num(pts[j], "effective_qd"), jp_num(pts[j], "workers"),
                         jp_num(pts[j], "qd"));
            }
            if (plot_block_end(ch) <= 0)
                continue;
            int d = plot_dev(ch, s[k].input);
            snprintf(tl, sizeof(tl), "%s: %s", t, stats[m].name);
            plot_elem(ch, tl, "dat index %d using 1:2 with linespoints lw 2 pt %d ps 1 dt %d %s",
                      ix, plot_pt(d), plot_dt(d), plot_color((int)(m + 3 * series_no)));
            if (m == 0)   /* the mean, lowest: its measurement's workers × QD under it */
                plot_elem(ch, NULL, "dat index %d using 1:2:(sprintf('%%d × QD %%d', $4, $5)) "
                          "with labels center offset 0,-1 font ',8' tc %s", ix,
                          plot_color((int)(m + 3 * series_no)) + 3);
        }
    }
    if (short_of)
        plot_caption_add(ch, PLOT_PCT_LEFT_OUT);
    plot_chart_done(c, ch);
}

/* ---- latency sweep (threads x queue depth) ----
 *
 * A workload measured at several worker (thread) counts and queue depths, as the latency
 * figure of the Z-Drive 6300 PTS review draws it: IOPS on x, latency on y, one curve per
 * thread count (QD rising along it), one chart per workload and statistic (mean, 99%,
 * 99.99%), named WORKLOAD-mean, WORKLOAD-p99, WORKLOAD-p99.99 (profiles/latency-sweep.ini:
 * latency-sweep-read-mean, ...). Latency of all the point's I/Os (result.total). */

static int cmp_qd(const void *a, const void *b)
{
    double x = jp_num(*(struct json_object *const *)a, "qd");
    double y = jp_num(*(struct json_object *const *)b, "qd");
    return x < y ? -1 : x > y;
}

static void sweep_chart(struct plot_ctx *c, const char *workload, const char *key,
                        const char *stat, const char *stem)
{
    char title[256], name[128], caption[512];
    snprintf(name, sizeof(name), "%s-%s", workload, stem);
    char base[200];
    snprintf(base, sizeof(base), "%s: %s latency against IOPS, one curve per thread count",
             workload, stat);
    profiles_title(c, base, title, sizeof(title));
    snprintf(caption, sizeof(caption),
             "%s latency (µs, log scale) of all I/Os against IOPS, one curve per thread count, "
             "the queue depth per thread rising along each curve (labelled); other devices "
             "dashed.", stat);
    struct plot_chart *ch = plot_chart_new(c, name, "profile", title, caption);
    bool short_of = false;   /* a percentile left out (chart.h) */
    plot_set(ch, "set xlabel 'IOPS'");
    plot_set(ch, "set ylabel '%s latency (µs, log scale)'", stat);
    plot_set(ch, "set logscale y");
    plot_set(ch, "set format x '%%.0s%%c'");
    plot_set(ch, "set xrange [0:*]");
    plot_set(ch, "set offsets 0, graph 0.04, 0, 0");
    bool many = false;
    size_t n_dev = 0;
    for (size_t i = 0; i < c->n_in; i++)
        if (is_profile(c->in[i].doc))
            n_dev++;
    many = n_dev > 1;
    struct plot_key_once ko = {0};
    for (size_t i = 0; i < c->n_in; i++) {
        if (!is_profile(c->in[i].doc))
            continue;
        struct json_object *pts = jp_arr(c->in[i].doc, "points");
        double workers[MAXK];
        size_t n_w = 0;
        for (size_t j = 0; j < jp_len(pts); j++) {
            struct json_object *p = jp_idx(pts, j);
            if (!point_ok(p) || strcmp(sval(p, "workload"), workload))
                continue;
            double w = jp_num(p, "workers");
            bool seen = false;
            for (size_t k = 0; k < n_w; k++)
                seen |= workers[k] == w;
            if (!seen && n_w < MAXK)
                workers[n_w++] = w;
        }
        qsort(workers, n_w, sizeof(workers[0]), cmp_double);
        for (size_t k = 0; k < n_w; k++) {
            struct json_object *sel[MAXK];
            size_t np = 0;
            for (size_t j = 0; j < jp_len(pts) && np < MAXK; j++) {
                struct json_object *p = jp_idx(pts, j);
                if (point_ok(p) && !strcmp(sval(p, "workload"), workload) &&
                    jp_num(p, "workers") == workers[k])
                    sel[np++] = p;
            }
            qsort(sel, np, sizeof(sel[0]), cmp_qd);
            char series[400], t[400];
            snprintf(t, sizeof(t), "%g thread%s", workers[k], workers[k] == 1 ? "" : "s");
            snprintf(series, sizeof(series), "%s: %s, %s latency", c->in[i].label, t, stat);
            int ix = plot_block(ch, i, series, "iops latency_us qd_per_thread");
            for (size_t j = 0; j < np; j++) {
                struct json_object *lu = jp_obj_at(jp_get(sel[j], "result"), "total.lat_us");
                double v = !strcmp(key, "mean") ? jp_num(lu, "mean")
                                                : jp_num(jp_get(lu, "percentiles"), key);
                short_of |= strcmp(key, "mean") && words_pct_lat_short_of(lu, key);
                plot_row(ch, 3, jp_path(sel[j], "result.total.iops"), plot_pos(v),
                         jp_num(sel[j], "qd"));
            }
            if (plot_block_end(ch) <= 0)
                continue;
            int d = plot_dev(ch, i);
            /* colours the thread counts (titled once), dashes the devices (one entry each) */
            plot_elem(ch, plot_key_once(&ko, many, t),
                      "dat index %d using 1:2 with linespoints lw 2 pt %d ps 1 dt %d %s",
                      ix, plot_pt(d), plot_dt(d), plot_color((int)k));
            plot_elem(ch, NULL, "dat index %d using 1:2:(sprintf('QD %%d', $3)) with labels "
                      "offset 0,0.8 font ',7' tc %s", ix, plot_color((int)k) + 3);
        }
    }
    if (many)
        plot_dev_keys(c, ch);
    if (short_of)
        plot_caption_add(ch, PLOT_PCT_LEFT_OUT);
    plot_chart_done(c, ch);
}

static void latency_sweeps(struct plot_ctx *c)
{
    static const struct { const char *key, *name, *stem; } stats[] = {
        {"mean", "mean", "mean"}, {"99", "99%", "p99"}, {"99.99", "99.99%", "p99.99"},
    };
    char done[MAXK][128];
    size_t n_done = 0;
    for (size_t i = 0; i < c->n_in; i++) {
        if (!is_profile(c->in[i].doc))
            continue;
        struct json_object *pts = jp_arr(c->in[i].doc, "points");
        for (size_t j = 0; j < jp_len(pts); j++) {
            struct json_object *p = jp_idx(pts, j);
            const char *wl = sval(p, "workload");
            if (!point_ok(p) || !*wl)
                continue;
            bool seen = false;
            for (size_t k = 0; k < n_done; k++)
                seen |= !strcmp(done[k], wl);
            if (seen || n_done >= MAXK)
                continue;
            /* a sweep: the workload at two or more thread counts and two or more QDs */
            double w0 = jp_num(p, "workers"), q0 = jp_num(p, "qd");
            bool other_w = false, other_q = false;
            for (size_t m = 0; m < jp_len(pts); m++) {
                struct json_object *o = jp_idx(pts, m);
                if (strcmp(sval(o, "workload"), wl) || !point_ok(o))
                    continue;
                other_w |= jp_num(o, "workers") != w0;
                other_q |= jp_num(o, "qd") != q0;
            }
            if (!other_w || !other_q)
                continue;
            str_copy(done[n_done++], sizeof(done[0]), wl);
            for (size_t s = 0; s < sizeof(stats) / sizeof(stats[0]); s++)
                sweep_chart(c, wl, stats[s].key, stats[s].name, stats[s].stem);
        }
    }
}

static int cmp_dbl(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The transfer sizes of profile prof's sequential sweep points in pts, ascending; returns how
 * many. */
static size_t sweep_sizes(struct json_object *pts, const char *prof, double *sizes)
{
    size_t n_s = 0;
    for (size_t j = 0; j < jp_len(pts); j++) {
        struct json_object *p = jp_idx(pts, j);
        double bs;
        bool w;
        if (strcmp(sval(p, "profile"), prof) || !point_ok(p) || !in_size_sweep(pts, p) ||
            !seq_point(p, &bs, &w))
            continue;
        bool seen = false;
        for (size_t k = 0; k < n_s; k++)
            seen |= sizes[k] == bs;
        if (!seen && n_s < MAXK)
            sizes[n_s++] = bs;
    }
    qsort(sizes, n_s, sizeof(sizes[0]), cmp_dbl);
    return n_s;
}

/* Read and write MB/s of profile prof's sequential points of size bs (NaN where none). */
static void sweep_figures(struct json_object *pts, const char *prof, double size, double *r,
                          double *wr)
{
    *r = *wr = NAN;
    for (size_t j = 0; j < jp_len(pts); j++) {
        struct json_object *p = jp_idx(pts, j);
        double bs;
        bool w;
        if (strcmp(sval(p, "profile"), prof) || !point_ok(p) || !seq_point(p, &bs, &w) ||
            bs != size)
            continue;
        /* a direction without a completed I/O in the window has no figure */
        const char *dir = w ? "write" : "read";
        struct json_object *fig = jp_get(jp_get(p, "result"), dir);
        double v = jp_num(fig, "ios") > 0 ? jp_num(fig, "mb_s") : NAN;
        if (w)
            *wr = v;
        else
            *r = v;
    }
}

/* Input i's read and write lines of profile prof; its sizes added to all (n_all). */
static void sweep_device(struct plot_ctx *c, struct plot_chart *ch, size_t i, const char *prof,
                         bool many, double *all, size_t *n_all)
{
    struct json_object *pts = jp_arr(c->in[i].doc, "points");
    double sizes[MAXK];
    size_t n_s = sweep_sizes(pts, prof, sizes);
    if (!n_s)
        return;
    char series[300];
    snprintf(series, sizeof(series), "%s: %s sequential MB/s by transfer size", c->in[i].label,
             prof);
    int ix = plot_block(ch, i, series, "bs_bytes read_mb_s write_mb_s");
    for (size_t k = 0; k < n_s; k++) {
        double r, wr;
        sweep_figures(pts, prof, sizes[k], &r, &wr);
        plot_row(ch, 3, sizes[k], r, wr);   /* a missing direction: NaN, skipped */
        bool seen = false;
        for (size_t m = 0; m < *n_all; m++)
            seen |= all[m] == sizes[k];
        if (!seen && *n_all < MAXK)
            all[(*n_all)++] = sizes[k];
    }
    if (plot_block_end(ch) <= 0)
        return;
    int d = plot_dev(ch, i);
    char tr[300], tw[300];
    snprintf(tr, sizeof(tr), "%s%sread", many ? c->in[i].label : "", many ? ": " : "");
    snprintf(tw, sizeof(tw), "%s%swrite", many ? c->in[i].label : "", many ? ": " : "");
    plot_elem(ch, tr, "dat index %d using 1:2 with linespoints lw 2 pt 7 ps 1 dt 1 %s", ix,
              many ? plot_dev_color(d) : plot_color(0));
    plot_elem(ch, tw, "dat index %d using 1:3 with linespoints lw 2 pt 5 ps 1 dt 2 %s", ix,
              many ? plot_dev_color(d) : plot_color(3));
}

/* A log2 axis of transfer sizes, a tic at each size of the chart (all, n_all). */
static void sweep_axes(struct plot_chart *ch, double *all, size_t n_all)
{
    qsort(all, n_all, sizeof(all[0]), cmp_dbl);
    char tics[2048] = "set xtics (";
    for (size_t k = 0; k < n_all; k++) {
        char b[32];
        units_format_bs(all[k], b, sizeof(b));
        size_t l = strlen(tics);
        snprintf(tics + l, sizeof(tics) - l, "%s'%s' %.10g", k ? ", " : "", b, all[k]);
    }
    size_t tl = strlen(tics);
    snprintf(tics + tl, sizeof(tics) - tl, ") rotate by -45");
    plot_set(ch, "set logscale x 2");
    if (n_all)
        plot_set(ch, "%s", tics);
    plot_set(ch, "set xlabel 'transfer size'");
    plot_set(ch, "set ylabel 'MB/s (10^6 B/s)'");
    plot_set(ch, "set yrange [0:*]");
    plot_set(ch, "set offsets graph 0.02, graph 0.02, graph 0.05, 0");
    plot_set(ch, "set grid xtics ytics");
    plot_count_axis(ch);
}

/* One chart of profile prof's size sweep, a pair of lines per device. */
static void size_sweep_chart(struct plot_ctx *c, const char *prof, bool many)
{
    char name[160], base[256], title[256];
    snprintf(name, sizeof(name), "%s-transfer-size", prof);
    snprintf(base, sizeof(base), "%s: sequential MB/s by transfer size, read and write",
             !strcmp(prof, "atto") ? "ATTO" : prof);
    profiles_title(c, base, title, sizeof(title));
    struct plot_chart *ch = plot_chart_new(
        c, name, "profile", title,
        "Sequential read and write throughput (MB/s, 10^6 B/s) of each transfer size over "
        "its measurement window, the transfer size on a log2 axis, as AnandTech's ATTO "
        "chart draws it.");
    double all[MAXK];
    size_t n_all = 0;
    for (size_t i = 0; i < c->n_in; i++)
        if (is_profile(c->in[i].doc))
            sweep_device(c, ch, i, prof, many, all, &n_all);
    sweep_axes(ch, all, n_all);
    plot_chart_done(c, ch);
}

/* Sequential MB/s against transfer size, read and write lines, as AnandTech's ATTO chart draws
 * it: x the transfer size (log2), one block per device and profile with rows (bs, read MB/s,
 * write MB/s) of the points' windows (result.read.mb_s, result.write.mb_s). */
static void size_sweeps(struct plot_ctx *c)
{
    char profs[MAXK][128];
    size_t n_prof = 0;
    for (size_t i = 0; i < c->n_in; i++) {
        if (!is_profile(c->in[i].doc))
            continue;
        struct json_object *pts = jp_arr(c->in[i].doc, "points");
        for (size_t j = 0; j < jp_len(pts); j++) {
            struct json_object *p = jp_idx(pts, j);
            if (!point_ok(p) || !in_size_sweep(pts, p))
                continue;
            bool seen = false;
            for (size_t k = 0; k < n_prof; k++)
                seen |= !strcmp(profs[k], sval(p, "profile"));
            if (!seen && n_prof < MAXK)
                str_copy(profs[n_prof++], sizeof(profs[0]), sval(p, "profile"));
        }
    }
    size_t n_dev = 0;
    for (size_t i = 0; i < c->n_in; i++)
        n_dev += is_profile(c->in[i].doc);
    bool many = n_dev > 1;
    for (size_t f = 0; f < n_prof; f++)
        size_sweep_chart(c, profs[f], many);
}

void plot_profile_charts(struct plot_ctx *c)
{
    size_sweeps(c);
    profile_bars(c, BARS_IOPS);
    profile_bars(c, BARS_MBS);
    profile_bars(c, BARS_LAT);
    qd_ramp(c);
    lat_vs_iops(c);
    latency_sweeps(c);
}
