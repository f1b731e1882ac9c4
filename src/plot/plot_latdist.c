/* plot_latdist.c — latency distributions: exceedance charts (the share of I/Os at least as slow
 * as a latency, both axes log), the shape fio-plot's percentile charts and the PTS's
 * response-time histograms show, from the histograms the results keep (lat_hist,
 * read/histogram.h: windows merged exactly, never averaged).
 *   run      one chart per run: its first round, the measurement window merged, the last
 *            window merged (--all-rounds) and its last round (section "run").
 *   profile  one chart per profile document: one curve per point, its result's window merged
 *            (section "profile").
 *   suite    one chart per standard test (a table over the steady-state window): one curve per
 *            element of interest (a test of at most 9 elements: each; else the tracked block
 *            size at 100/0, 65/35, the tracked mix and 0/100), merged over the table's rounds; the same
 *            test of several results overlaid, one dash per device (section: the test's name).
 * A curve goes from 1 down to 1/count (the slowest I/O): nothing is drawn below what the
 * count supports. Dotted lines mark the 99th and 99.99th percentiles. Results written before
 * lat_hist draw no chart. */
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/units.h"
#include "lib/util.h"
#include "plot/chart.h"
#include "read/histogram.h"
#include "read/load.h"
#include "read/tracking.h"

#define LD_MAX_POINTS (HIST_NBUCKETS + 2)

/* A chart's state: the smallest floor drawn (for the y range). */
struct latdist {
    struct plot_chart *ch;
    double floor;
    struct read_exceed *pts;
};

static struct latdist ld_open(struct plot_ctx *c, const char *name, const char *section,
                              const char *title, const char *caption)
{
    struct latdist l = {.ch = plot_chart_new(c, name, section, title, caption), .floor = 1};
    l.pts = xcalloc(LD_MAX_POINTS, sizeof(*l.pts));
    return l;
}

/* The axes and the reference lines, then the chart kept or dropped. */
static void ld_close(struct plot_ctx *c, struct latdist *l)
{
    struct plot_chart *ch = l->ch;
    double ymin = pow(10, floor(log10(l->floor) + 1e-9));
    if (ymin > 1e-5)
        ymin = 1e-5;   /* room for the 99.99th percentile's line */
    plot_set(ch, "set logscale xy");
    plot_set(ch, "set xlabel 'latency (log scale)'");
    plot_set(ch, "set ylabel 'share of I/Os at least this slow (log scale)'");
    plot_set(ch, "set xtics ('100 ns' 0.1, '1 µs' 1, '10 µs' 10, '100 µs' 100, '1 ms' 1000, "
                 "'10 ms' 10000, '100 ms' 100000, '1 s' 1000000, '10 s' 10000000)");
    plot_set(ch, "set ytics ('all' 1, '1 in 10' 0.1, '1 in 100' 0.01, '1 in 1,000' 0.001, "
                 "'1 in 10k' 1e-4, '1 in 100k' 1e-5, '1 in 1M' 1e-6, '1 in 10M' 1e-7, "
                 "'1 in 100M' 1e-8, '1 in 1G' 1e-9, '1 in 10G' 1e-10)");
    plot_set(ch, "set yrange [%g:1.5]", ymin);
    plot_set(ch, "set grid xtics ytics");
    const struct { double y; const char *what; } ref[] = {{1e-2, "99th percentile"},
                                                          {1e-4, "99.99th percentile"}};
    for (int k = 0; k < 2; k++) {
        plot_set(ch, "set arrow %d from graph 0, first %g to graph 1, first %g nohead lw 1 dt 3 "
                     "lc rgb '#555555' back", k + 1, ref[k].y, ref[k].y);
        plot_set(ch, "set label %d '%s' at graph 0.01, first %g left offset 0,0.6 "
                     "tc rgb '#555555' front", k + 1, ref[k].what, ref[k].y);
    }
    plot_chart_done(c, ch);
    free(l->pts);
}

/* One curve: rh's exceedance as a block of input i in colour k (the same curve of several
 * devices: the same colour, the device's dash), titled "WHAT: p99 X, p99.99 Y, N I/Os". */
static void ld_curve(struct latdist *l, size_t input, int k, const char *series,
                     const char *what, const struct read_hist *rh)
{
    size_t n = read_hist_exceedance(rh, l->pts, LD_MAX_POINTS);
    if (!n)
        return;
    int ix = plot_block(l->ch, input, series, "latency_us share_at_least_this_slow");
    for (size_t j = 0; j < n; j++)
        plot_row(l->ch, 2, l->pts[j].us, l->pts[j].frac);
    if (plot_block_end(l->ch) <= 0)
        return;
    if (l->pts[n - 1].frac < l->floor)
        l->floor = l->pts[n - 1].frac;
    char p99[32], p9999[32], ios[32], t[600];
    units_format_lat(read_hist_percentile_us(rh, 99), UNITS_TYPESET, p99, sizeof(p99));
    units_format_lat(read_hist_percentile_us(rh, 99.99), UNITS_TYPESET, p9999, sizeof(p9999));
    units_format_short((double)read_hist_count(rh), ios, sizeof(ios));
    snprintf(t, sizeof(t), "%s: p99 %s, p99.99 %s, %s I/Os", what, p99, p9999, ios);
    plot_dev(l->ch, input);
    plot_elem(l->ch, t, "dat index %d using 1:2 with lines lw 2 dt %d %s", ix,
              plot_dt(plot_dev_rank(l->ch, input)), plot_color(k));
}

/* Merge the records rounds[first..last] (1-based "round" numbers) of an array of records;
 * the records merged (0: none kept a histogram, or one could not be read). */
static unsigned ld_merge_rounds(struct read_hist *rh, struct json_object *rounds,
                                double first, double last, const char *key)
{
    read_hist_init(rh);
    for (size_t k = 0; k < jp_len(rounds); k++) {
        struct json_object *r = jp_idx(rounds, k);
        double n = jp_num(r, "round");
        if (!(n >= first && n <= last))
            continue;
        if (read_hist_add(rh, key ? jp_get(r, key) : r, READ_HIST_TOTAL) < 0)
            return 0;
    }
    return rh->records;
}

/* ---- runs */

/* Input i's curves: first round, window, last window, last round (each once). */
static void ld_run(struct plot_ctx *c, struct latdist *l, size_t i)
{
    struct json_object *doc = c->in[i].doc, *rounds = jp_arr(doc, "rounds");
    const size_t nr = jp_len(rounds);
    const double r1 = jp_num(jp_idx(rounds, 0), "round"), rn = jp_num(jp_idx(rounds, nr - 1), "round");
    struct { double a, b; const char *what; struct json_object *win; } cv[4] = {
        {r1, r1, "round", NULL},
        {jp_path(doc, "steady_state.window.first_round"),
         jp_path(doc, "steady_state.window.last_round"), "window", jp_get(doc, "steady_state")},
        {jp_path(doc, "last_window.window.first_round"),
         jp_path(doc, "last_window.window.last_round"), "last window", jp_get(doc, "last_window")},
        {rn, rn, "round", NULL}};
    struct read_hist *rh = xcalloc(1, sizeof(*rh));
    for (int k = 0; k < 4; k++) {
        bool seen = !isfinite(cv[k].a) || !isfinite(cv[k].b);
        for (int j = 0; j < k && !seen; j++)
            seen = cv[j].a == cv[k].a && cv[j].b == cv[k].b;
        if (seen || !ld_merge_rounds(rh, rounds, cv[k].a, cv[k].b, NULL))
            continue;
        char what[300], word[128] = "", series[700];
        if (cv[k].win)
            plot_state_tag(cv[k].win, plot_doc_prep_tag(doc), word, sizeof(word));
        if (cv[k].a == cv[k].b)
            snprintf(what, sizeof(what), "round %g%s", cv[k].a, k == 0 ? " (first)" : " (last)");
        else
            snprintf(what, sizeof(what), "%s, rounds %g-%g merged%s%s%s", cv[k].what, cv[k].a,
                     cv[k].b, word[0] ? " (" : "", word, word[0] ? ")" : "");
        snprintf(series, sizeof(series), "%s: latency distribution, %s", c->in[i].label, what);
        ld_curve(l, i, k, series, what, rh);
    }
    free(rh);
}

static void ld_runs(struct plot_ctx *c)
{
    unsigned nth = 0;
    for (size_t i = 0; i < c->n_in; i++) {
        if (strcmp(read_schema(c->in[i].doc), "ptsbench.run") != 0 ||
            !jp_len(jp_arr(c->in[i].doc, "rounds")))
            continue;
        char name[64];
        snprintf(name, sizeof(name), nth ? "run-latdist-%u" : "run-latdist", nth + 1);
        nth++;
        struct latdist l = ld_open(
            c, name, "run", "Run: latency distribution, first and last rounds and the "
                            "measurement window",
            "Share of the I/Os at least as slow as each latency (both axes log), from the "
            "rounds' latency histograms (reads and writes): the first and last rounds, and the "
            "measurement window's rounds merged (the drive's state of each window in its "
            "legend); a curve ends at its slowest I/O (1 in the count), the dotted lines are the "
            "99th and 99.99th percentiles.");
        ld_run(c, &l, i);
        ld_close(c, &l);
    }
}

/* ---- profiles */

static void ld_profile(struct plot_ctx *c, size_t i, unsigned nth)
{
    struct json_object *points = jp_arr(c->in[i].doc, "points");
    char name[64], title[400], tag[160];
    snprintf(name, sizeof(name), nth ? "profile-latdist-%u" : "profile-latdist", nth + 1);
    plot_doc_state_tag(c->in[i].doc, tag, sizeof(tag));
    snprintf(title, sizeof(title), "Profile: latency distribution per point");
    plot_title_tag(title, sizeof(title), tag);
    struct latdist l = ld_open(
        c, name, "profile", title,
        "Share of each point's I/Os at least as slow as each latency (both axes log), from the "
        "histograms of the rounds of its result's window merged (reads and writes); a curve "
        "ends at its slowest I/O, the dotted lines are the 99th and 99.99th percentiles.");
    struct read_hist *rh = xcalloc(1, sizeof(*rh));
    for (size_t k = 0; k < jp_len(points); k++) {
        struct json_object *p = jp_idx(points, k), *win = jp_arr_at(p, "result.rounds");
        if (jp_len(win) != 2 ||
            !ld_merge_rounds(rh, jp_arr(p, "rounds"), jp_number(jp_idx(win, 0)),
                             jp_number(jp_idx(win, 1)), NULL))
            continue;
        char what[300], series[700], word[128];
        plot_state_tag(jp_get(p, "result"), jp_str(p, "precondition"), word, sizeof(word));
        snprintf(what, sizeof(what), "%s, %.0f%% compressible, %.0f x QD %.0f%s%s%s",
                 jp_str_or(p, "workload", "?"), jp_num(p, "compress_pct"), jp_num(p, "workers"),
                 jp_num(p, "qd"), word[0] ? " (" : "", word, word[0] ? ")" : "");
        snprintf(series, sizeof(series), "%s: latency distribution, point %zu: %s",
                 c->in[i].label, k, what);
        ld_curve(&l, i, (int)k, series, what, rh);
    }
    free(rh);
    ld_close(c, &l);
}

static void ld_profiles(struct plot_ctx *c)
{
    unsigned nth = 0;
    for (size_t i = 0; i < c->n_in; i++)
        if (!strcmp(read_schema(c->in[i].doc), "ptsbench.profile"))
            ld_profile(c, i, nth++);
}

/* ---- suites */

/* Element e of a subtest's rounds is of interest: every one of a round of at most 9 (4 when
 * several devices share the chart, so that the legend stays below a dozen rows), else the
 * tracked block size at 100/0, 65/35, the tracked mix and 0/100. */
static bool ld_interesting(struct json_object *sub, struct json_object *el, size_t n_el,
                           bool many)
{
    if (n_el <= (many ? 4u : 9u))
        return true;
    struct tracking t;
    if (tracking_at(sub, 0, &t) != 0 || !t.bs)
        return false;
    const double mix = jp_num(el, "rwmix_read");
    return jp_num(el, "bs") == t.bs && (mix == 100 || mix == 65 || mix == 0 || mix == t.read_pct);
}

/* Input i's curves of test `test`: each element of interest merged over its table's rounds. */
static void ld_suite_input(struct plot_ctx *c, struct latdist *l, size_t i, const char *test,
                           bool many)
{
    struct json_object *subs = jp_arr(plot_suite_test(c->in[i].doc, test), "subtests");
    struct read_hist *rh = xcalloc(1, sizeof(*rh));
    int k = 0;   /* the curve's colour: the element of interest's rank */
    for (size_t s = 0; s < jp_len(subs); s++) {
        struct json_object *sub = jp_idx(subs, s), *rounds = jp_arr(sub, "rounds");
        const double a = jp_path(sub, "table.first_round"), b = jp_path(sub, "table.last_round");
        struct json_object *els = jp_arr(jp_idx(rounds, jp_len(rounds) - 1), "elements");
        for (size_t e = 0; isfinite(a) && isfinite(b) && e < jp_len(els); e++) {
            struct json_object *el = jp_idx(els, e);
            if (!ld_interesting(sub, el, jp_len(els), many))
                continue;
            k++;
            read_hist_init(rh);
            bool ok = true;
            for (size_t r = 0; r < jp_len(rounds) && ok; r++) {
                struct json_object *ro = jp_idx(rounds, r);
                double n = jp_num(ro, "round");
                if (n >= a && n <= b)
                    ok = read_hist_add(rh, jp_idx(jp_arr(ro, "elements"), e), READ_HIST_TOTAL) >= 0;
            }
            if (!ok || !rh->records)
                continue;
            char bs[32], mix[32], what[300], series[700];
            units_format_bs(jp_num(el, "bs"), bs, sizeof(bs));
            plot_mix_label(jp_num(el, "rwmix_read"), mix, sizeof(mix));
            const char *label = jp_len(subs) > 1 ? jp_str_or(sub, "label", "") : "";
            snprintf(what, sizeof(what), "%s%s%s%s%s %s, rounds %g-%g", many ? c->in[i].label : "",
                     many ? ": " : "", label, *label ? " " : "", bs, mix, a, b);
            snprintf(series, sizeof(series), "%s: %s latency distribution, %s", c->in[i].label,
                     test, what);
            ld_curve(l, i, k - 1, series, what, rh);
        }
    }
    free(rh);
}

static void ld_suite_test(struct plot_ctx *c, const char *test)
{
    size_t n = 0;
    for (size_t i = 0; i < c->n_in; i++)
        n += plot_suite_test(c->in[i].doc, test) != NULL;
    char name[160], title[400], tag[160];
    snprintf(name, sizeof(name), "%s-latdist", test);
    plot_suite_state_tag(c, test, PS_RESULT, tag, sizeof(tag));
    snprintf(title, sizeof(title), "%s: latency distribution per element", test);
    plot_title_tag(title, sizeof(title), tag);
    struct latdist l = ld_open(
        c, name, test, title,
        "Share of each element's I/Os at least as slow as each latency (both axes log), from the "
        "histograms of its rounds in the steady-state window merged (reads and writes; the "
        "elements of interest: every one of a short test (at most 9 elements, 4 with several "
        "devices), else the tracked block size read-only, "
        "at 65/35, at the tracked mix and write-only); a curve ends at its slowest I/O, the dotted lines "
        "are the 99th and 99.99th percentiles.");
    for (size_t i = 0; i < c->n_in; i++)
        if (plot_suite_test(c->in[i].doc, test))
            ld_suite_input(c, &l, i, test, n > 1);
    ld_close(c, &l);
}

static void ld_suites(struct plot_ctx *c)
{
    const char *done[64];
    size_t n_done = 0;
    for (size_t i = 0; i < c->n_in; i++) {
        struct json_object *tests = jp_arr(c->in[i].doc, "tests");
        if (strcmp(read_schema(c->in[i].doc), "ptsbench.suite") != 0)
            continue;
        for (size_t t = 0; t < jp_len(tests) && n_done < 64; t++) {
            const char *name = jp_str(jp_idx(tests, t), "name");
            bool seen = !name;
            for (size_t k = 0; k < n_done && !seen; k++)
                seen = !strcmp(done[k], name);
            if (seen)
                continue;
            done[n_done++] = name;
            ld_suite_test(c, name);
        }
    }
}

void plot_latdist_charts(struct plot_ctx *c)
{
    ld_suites(c);
    ld_profiles(c);
    ld_runs(c);
}
