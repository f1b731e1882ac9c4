/* plot_run.c — charts of a single run (ptsbench.run): IOPS per round with the measurement
 * window, the window itself, and the per-second samples of every round.
 *
 * A run with --precondition steady begins with WDPC rounds (phase "wdpc": the workload
 * preconditioning the drive, not judged); they are drawn as a series of their own and a
 * vertical line marks where the measurement begins, so the transient and the window read
 * apart. Titles say the window's state (plot_state.c): "(steady state)", "(burst, not
 * preconditioned)", ...; results from before the state fields keep the old titles. A run that
 * issued trims (read_has_trim) also draws its trim IOPS, per round and per sample, dotted. */
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lib/units.h"
#include "lib/util.h"
#include "plot/chart.h"
#include "read/jobs.h"
#include "read/load.h"
#include "read/words.h"

static bool is_run(struct json_object *doc) { return !strcmp(read_schema(doc), "ptsbench.run"); }

static size_t n_runs(struct plot_ctx *c)
{
    size_t n = 0;
    for (size_t i = 0; i < c->n_in; i++)
        if (is_run(c->in[i].doc) && jp_len(jp_arr(c->in[i].doc, "rounds")))
            n++;
    return n;
}

/* A workload's pattern, block size and depth: "randwrite, 4 KiB, QD 32". */
static void rw_bs_qd(struct json_object *w, char *buf, size_t len)
{
    const char *rw = jp_str(w, "rw");
    struct json_object *bss = jp_arr(w, "block_sizes");
    char bs[32] = "mixed sizes";
    if (jp_len(bss) == 1)
        units_format_bs(jp_num(jp_idx(bss, 0), "bytes"), bs, sizeof(bs));
    snprintf(buf, len, "%s, %s, QD %g", rw ? rw : "?", bs, jp_num(w, "qd"));
}

/* One job of several in a few words: "randwrite, 4 KiB, QD 32" (" x 4 workers" when more). */
static void job_words(struct json_object *w, char *buf, size_t len)
{
    char what[128];
    rw_bs_qd(w, what, sizeof(what));
    const double workers = jp_num(w, "workers");
    if (workers > 1)
        snprintf(buf, len, "%s x %g workers", what, workers);
    else
        snprintf(buf, len, "%s", what);
}

/* The jobs of a run of several, in file order, each with its words when detail: jobs of one
 * group joined by " + " (at once), groups by ", then " (one after another). */
static void jobs_list(struct json_object *doc, bool detail, char *buf, size_t len)
{
    size_t at = 0;
    buf[0] = '\0';
    for (unsigned g = 0; g < read_run_n_groups(doc); g++) {
        struct read_group rg;
        if (!read_run_group(doc, g, &rg))
            continue;
        for (size_t k = 0; k < jp_len(rg.labels); k++) {
            const char *label = json_object_get_string(jp_idx(rg.labels, k));
            char w[160] = "";
            if (detail)
                job_words(jp_get(read_run_job(doc, label), "workload"), w, sizeof(w));
            int m = snprintf(buf + at, len - at, "%s%s%s%s%s", k ? " + " : at ? ", then " : "",
                             label ? label : "?", detail ? " (" : "", w, detail ? ")" : "");
            if (m < 0 || (size_t)m >= len - at)
                return;
            at += (size_t)m;
        }
    }
}

/* What a run of several jobs ran, short enough for a title: "2 jobs at once: reader (randread,
 * 4 KiB, QD 8) + writer (randwrite, 64 KiB, QD 8)", "4 jobs in 4 groups: seq-read, then
 * rand-read, ..." (the jobs' words only while the list stays short, the labels only while those
 * do, else the counts alone: a title is one line of the image). With list false: the counts. */
static void jobs_text(struct json_object *doc, bool list_them, char *buf, size_t len)
{
    const unsigned n = read_run_n_jobs(doc), groups = read_run_n_groups(doc);
    char head[96], list[1024];
    if (groups > 1)
        snprintf(head, sizeof(head), "%u jobs in %u groups", n, groups);
    else
        snprintf(head, sizeof(head), "%u jobs at once", n);
    if (!list_them) {
        snprintf(buf, len, "%s", head);
        return;
    }
    jobs_list(doc, true, list, sizeof(list));
    if (strlen(list) > 70)
        jobs_list(doc, false, list, sizeof(list));
    if (strlen(list) > 70 || !list[0])
        snprintf(buf, len, "%s", head);
    else
        snprintf(buf, len, "%s: %s", head, list);
}

/* "randwrite, 4 KiB, QD 32 x 1 worker" (and the workload's name when it has one); for a run of
 * several jobs, the jobs (jobs_text), not the first job's workload. */
static void workload_text(struct json_object *doc, char *buf, size_t len)
{
    if (read_run_multi(doc)) {
        jobs_text(doc, true, buf, len);
        return;
    }
    struct json_object *w = jp_get(doc, "workload");
    const char *name = jp_str(w, "name");
    char what[128];
    rw_bs_qd(w, what, sizeof(what));
    const double workers = jp_num(w, "workers");
    snprintf(buf, len, "%s%s%s x %g worker%s", name && strcmp(name, "inline") ? name : "",
             name && strcmp(name, "inline") ? ": " : "", what, workers, workers == 1 ? "" : "s");
}

/* The round where the measurement begins, when WDPC rounds came before it, else NAN. */
static double first_measured(struct json_object *rounds)
{
    bool wdpc = false;
    for (size_t r = 0; r < jp_len(rounds); r++) {
        struct json_object *ro = jp_idx(rounds, r);
        if (plot_round_is_wdpc(ro))
            wdpc = true;
        else if (wdpc)
            return jp_num(ro, "round");
    }
    return NAN;
}

static bool has_wdpc(struct json_object *rounds)
{
    for (size_t r = 0; r < jp_len(rounds); r++)
        if (plot_round_is_wdpc(jp_idx(rounds, r)))
            return true;
    return false;
}

/* The run's state for a title; samples: the chart also shows the WDPC ("WDPC, then ..."). */
static void run_tag(struct json_object *doc, bool samples, char *buf, size_t len)
{
    char tag[128];
    plot_doc_state_tag(doc, tag, sizeof(tag));
    if (samples && tag[0] && has_wdpc(jp_arr(doc, "rounds")))
        snprintf(buf, len, "WDPC, then %s", tag);
    else
        str_copy(buf, len, tag);
}

/* The state shared by every run of the chart, else "". */
static void runs_tag(struct plot_ctx *c, bool samples, char *buf, size_t len)
{
    buf[0] = '\0';
    bool first = true;
    for (size_t i = 0; i < c->n_in; i++) {
        if (!is_run(c->in[i].doc) || !jp_len(jp_arr(c->in[i].doc, "rounds")))
            continue;
        char t[160];
        run_tag(c->in[i].doc, samples, t, sizeof(t));
        if (first)
            str_copy(buf, len, t);
        else if (strcmp(buf, t)) {
            buf[0] = '\0';
            return;
        }
        first = false;
    }
}

/* Any run judged with the state fields (drive_state.h): "measurement window", not
 * "steady-state window", since a window is not steady state unless it says so. */
static bool runs_judged(struct plot_ctx *c)
{
    for (size_t i = 0; i < c->n_in; i++)
        if (is_run(c->in[i].doc) && jp_str(c->in[i].doc, "steady_state.measured_state"))
            return true;
    return false;
}

/* The vertical line where the measurement begins (after the WDPC rounds); its text goes on
 * the side with room: left of the line when it is in the right half (frac of the x range). */
static void measure_line(struct plot_chart *ch, int *arrow, int *label, const char *who,
                         double x, double frac, double round, int d)
{
    char text[300], q[400];
    snprintf(text, sizeof(text), "%s%smeasurement begins (round %g)", who ? who : "",
             who ? ": " : "", round);
    plot_quote(q, sizeof(q), text);
    plot_set(ch, "set arrow %d from %g, graph 0 to %g, graph 1 nohead lw 1.5 dt 1 %s front",
             *arrow, x, x, plot_dev_color(d));
    plot_set(ch, "set label %d %s at %g, graph %.2f %s front", *label, q, x,
             0.96 - 0.05 * (*label - 1), frac > 0.5 ? "right offset -0.5,0" : "left offset 0.5,0");
    (*arrow)++;
    (*label)++;
}

/* The rounds chart's title: the workload and state of one run, or the state of several. */
static void rounds_title(struct plot_ctx *c, bool many, const char *win, char *title,
                         size_t len)
{
    char tag[160];
    runs_tag(c, false, tag, sizeof(tag));
    if (many) {
        snprintf(title, len, "Run: IOPS per round with the %s", win);
        plot_title_tag(title, len, tag);
        return;
    }
    for (size_t i = 0; i < c->n_in; i++)
        if (is_run(c->in[i].doc) && jp_len(jp_arr(c->in[i].doc, "rounds"))) {
            char w[256];
            workload_text(c->in[i].doc, w, sizeof(w));
            snprintf(title, len, "Run: IOPS per round with %s%s (%s%s%s)",
                     read_run_n_groups(c->in[i].doc) > 1 ? "each group's " : "the ", win, w,
                     tag[0] ? "; " : "", tag);
        }
}

/* The axes of a chart of IOPS per round (most: the most rounds of a run). */
static void round_axes(struct plot_chart *ch, size_t most)
{
    plot_set(ch, "set xlabel 'round'");
    plot_set(ch, "set ylabel 'IOPS'");
    plot_set(ch, "set yrange [0:*]");
    if (most <= 30)
        plot_round_xtics(ch);
    plot_count_axis(ch);
    plot_set(ch, "set offsets 0.3, 0.3, graph 0.05, 0");
}

/* Any run of several jobs among the inputs. */
static bool runs_multi(struct plot_ctx *c)
{
    for (size_t i = 0; i < c->n_in; i++)
        if (is_run(c->in[i].doc) && read_run_multi(c->in[i].doc))
            return true;
    return false;
}

/* Said under the rounds and samples charts of a run of several jobs. */
#define JOBS_CAPTION                                                                            \
    " Several jobs: a round's figure is its group's, all its jobs together."

static const char *rounds_caption(bool wdpc, bool judged)
{
    return wdpc ? "IOPS of every round: the WDPC rounds (the workload preconditioning the drive, "
                  "not judged) drawn apart, a vertical line where the measurement begins; the "
                  "shaded span is the measurement window (the passing window, else the last one "
                  "evaluated) with its average."
           : judged ? "IOPS of every round; the shaded span is the measurement window (the "
                      "passing window, else the last one evaluated) with its average."
                    : "IOPS of every round; the shaded span is the steady-state measurement "
                      "window (the passing window, else the last one evaluated) with its "
                      "average.";
}

/* A block of input i's rounds (its WDPC rounds when wdpc, else its measured rounds); returns
 * the block's index. */
static int rounds_block(struct plot_chart *ch, size_t i, struct json_object *rounds, bool wdpc,
                        const char *series)
{
    int ix = plot_block(ch, i, series, "round iops read_iops write_iops elapsed_s");
    for (size_t r = 0; r < jp_len(rounds); r++) {
        struct json_object *ro = jp_idx(rounds, r);
        if (plot_round_is_wdpc(ro) == wdpc)
            plot_row(ch, 5, jp_num(ro, "round"), jp_path(ro, "total.iops"),
                     jp_path(ro, "read.iops"), jp_path(ro, "write.iops"),
                     jp_num(ro, "elapsed_s"));
    }
    return ix;
}

/* Input i's trim IOPS per measured round (a run that issued trims: read_has_trim), a dotted
 * line of its own (the IOPS line counts the trims too: "total" sums every direction). */
static void rounds_trim(struct plot_ctx *c, struct plot_chart *ch, size_t i,
                        struct json_object *rounds, bool many)
{
    if (!read_has_trim(c->in[i].doc))
        return;
    char series[512], t[512];
    snprintf(series, sizeof(series), "%s: trim IOPS per round", c->in[i].label);
    int ix = plot_block(ch, i, series, "round trim_iops");
    for (size_t r = 0; r < jp_len(rounds); r++) {
        struct json_object *ro = jp_idx(rounds, r);
        if (!plot_round_is_wdpc(ro))
            plot_row(ch, 2, jp_num(ro, "round"), jp_path(ro, "trim.iops"));
    }
    if (plot_block_end(ch) <= 0)
        return;
    int d = plot_dev(ch, i);
    snprintf(t, sizeof(t), "%s%strim IOPS", many ? c->in[i].label : "", many ? ": " : "");
    plot_elem(ch, t, "dat index %d using 1:2 with linespoints lw 1.5 pt %d ps 0.6 dt 3 %s", ix,
              plot_pt(d), many ? plot_dev_color(d) : plot_trim_color());
}

/* Any run of the chart that issued trims. */
static bool runs_trim(struct plot_ctx *c)
{
    for (size_t i = 0; i < c->n_in; i++)
        if (is_run(c->in[i].doc) && read_has_trim(c->in[i].doc))
            return true;
    return false;
}

/* The trims' words appended to a caption (nothing without trims). */
static void trim_caption(struct plot_ctx *c, char *caption, size_t len)
{
    size_t l = strlen(caption);
    if (runs_trim(c))
        snprintf(caption + l, len - l, " The dotted line is the trims' IOPS (the run issued "
                 "trims: fio's trim, randtrim or trimwrite); the IOPS line counts them too.");
}

/* Input i's WDPC rounds, drawn apart (dotted). */
static void rounds_wdpc(struct plot_ctx *c, struct plot_chart *ch, size_t i,
                        struct json_object *rounds, bool many)
{
    char series[512], t[512];
    snprintf(series, sizeof(series), "%s: WDPC rounds (preconditioning, not judged)",
             c->in[i].label);
    int ix = rounds_block(ch, i, rounds, true, series);
    if (plot_block_end(ch) > 0) {
        int d = plot_dev(ch, i);
        snprintf(t, sizeof(t), "%s%sWDPC (preconditioning, not judged)",
                 many ? c->in[i].label : "", many ? ": " : "");
        plot_elem(ch, t, "dat index %d using 1:2 with linespoints lw 1.5 pt %d ps 0.6 "
                         "dt 3 %s", ix, plot_pt(d), (many ? plot_dev_color(d) : plot_color(7)));
    }
}

/* Input i's measurement window ss (device style d; group: its group's number, 0 for the run's):
 * a shaded span (object *obj) and its average as a dashed line (for an IOPS tracking). */
static void group_window(struct plot_ctx *c, struct plot_chart *ch, size_t i, int d, bool many,
                         const char *win, int *obj, struct json_object *ss, unsigned group)
{
    struct json_object *w = jp_get(ss, "window");
    double r0 = jp_num(w, "first_round"), r1 = jp_num(w, "last_round");
    double avg = jp_num(w, "average");
    if (!isfinite(r0) || !isfinite(r1) || !isfinite(avg))
        return;
    char word[128], series[512], t[512];
    plot_window_word(ss, word, sizeof(word));
    const char *tracking = jp_str(ss, "tracking");
    bool iops = !tracking || !strcmp(tracking, "iops");
    plot_set(ch, "set object %d rect from %g, graph 0 to %g, graph 1 behind "
                 "fillcolor rgb '%s' fillstyle transparent solid 0.12 noborder",
             (*obj)++, r0 - 0.5, r1 + 0.5, d == 0 ? "#1f77b4" : d == 1 ? "#d62728" : "#2ca02c");
    char tw[160];
    report_words_tracking(tracking ? tracking : "iops", tw, sizeof(tw));
    char gw[160];
    if (group)
        snprintf(gw, sizeof(gw), "group %u %s", group, win);
    else
        str_copy(gw, sizeof(gw), win);
    snprintf(series, sizeof(series), "%s: %s average (%s)", c->in[i].label, gw, tw);
    int ix = plot_block(ch, i, series, "round window_average");
    if (iops) {
        plot_row(ch, 2, r0 - 0.5, avg);
        plot_row(ch, 2, r1 + 0.5, avg);
    }
    if (plot_block_end(ch) > 0) {
        char fig[32];
        units_format_figure(avg, UNITS_FIG_VALUE, fig, sizeof(fig));
        snprintf(t, sizeof(t), "%s%s%s, rounds %g-%g (%s), average %s",
                 many ? c->in[i].label : "", many ? ": " : "", gw, r0, r1, word, fig);
        plot_elem(ch, t, "dat index %d using 1:2 with lines lw 2 dt 2 %s", ix,
                  (many ? plot_dev_color(d) : plot_color(10)));
    }
}

/* Input i's measurement windows: the run's, or in a run of several groups each group's over
 * its own rounds (the run's verdict is its last group's: never drawn as the whole run's). */
static void rounds_window(struct plot_ctx *c, struct plot_chart *ch, size_t i, int d, bool many,
                          const char *win, int *obj)
{
    struct json_object *doc = c->in[i].doc;
    if (read_run_n_groups(doc) < 2) {
        group_window(c, ch, i, d, many, win, obj, jp_get(doc, "steady_state"), 0);
        return;
    }
    for (unsigned g = 0; g < read_run_n_groups(doc); g++) {
        struct read_group rg;
        if (read_run_group(doc, g, &rg) && rg.steady)
            group_window(c, ch, i, d, many, win, obj, rg.steady, rg.group);
    }
}

static void run_rounds(struct plot_ctx *c)
{
    size_t n = n_runs(c);
    if (!n)
        return;
    bool many = n > 1, judged = runs_judged(c), wdpc = false;
    size_t most = 0;
    for (size_t i = 0; i < c->n_in; i++) {
        struct json_object *rounds = jp_arr(c->in[i].doc, "rounds");
        if (!is_run(c->in[i].doc))
            continue;
        wdpc = wdpc || has_wdpc(rounds);
        most = jp_len(rounds) > most ? jp_len(rounds) : most;
    }
    const char *win = judged ? "measurement window" : "steady-state window";
    char title[512], caption[1024];
    rounds_title(c, many, win, title, sizeof(title));
    snprintf(caption, sizeof(caption), "%s%s", rounds_caption(wdpc, judged),
             runs_multi(c) ? JOBS_CAPTION : "");
    trim_caption(c, caption, sizeof(caption));
    struct plot_chart *ch = plot_chart_new(c, "run-rounds", "run", title, caption);
    round_axes(ch, most);
    int obj = 1, arrow = 1, label = 1;
    for (size_t i = 0; i < c->n_in; i++) {
        struct json_object *doc = c->in[i].doc;
        struct json_object *rounds = jp_arr(doc, "rounds");
        if (!is_run(doc) || !jp_len(rounds))
            continue;
        char series[512];
        bool pre = has_wdpc(rounds);
        if (pre)
            rounds_wdpc(c, ch, i, rounds, many);
        snprintf(series, sizeof(series), "%s: IOPS per round", c->in[i].label);
        int ix = rounds_block(ch, i, rounds, false, series);
        if (plot_block_end(ch) <= 0)
            continue;
        int d = plot_dev(ch, i);
        plot_elem(ch, many ? c->in[i].label : pre ? "IOPS, measured rounds" : "IOPS",
                  "dat index %d using 1:2 with linespoints lw 2 pt %d dt %d %s", ix, plot_pt(d),
                  plot_dt(d), plot_dev_color(d));
        rounds_trim(c, ch, i, rounds, many);
        double begin = first_measured(rounds);
        if (isfinite(begin))
            measure_line(ch, &arrow, &label, many ? c->in[i].label : NULL, begin - 0.5,
                         begin / (double)most, begin, many ? d : 10);
        rounds_window(c, ch, i, d, many, win, &obj);
    }
    plot_chart_done(c, ch);
}

/* " of group 4 (rand-write)": the group whose verdict a run of several groups records as its
 * own (steady_state.group, its last group run); "" for a run of one group. */
static void group_words(struct json_object *doc, double group, char *buf, size_t len)
{
    struct read_group rg;
    buf[0] = '\0';
    if (read_run_n_groups(doc) < 2 || !(group >= 1) ||
        !read_run_group(doc, (unsigned)group - 1, &rg))
        return;
    char labels[120] = "";
    size_t at = 0;
    for (size_t k = 0; k < jp_len(rg.labels) && at < sizeof(labels); k++) {
        int m = snprintf(labels + at, sizeof(labels) - at, "%s%s", k ? " + " : "",
                         json_object_get_string(jp_idx(rg.labels, k)));
        at += m > 0 ? (size_t)m : 0;
    }
    snprintf(buf, len, " of group %u (%s)", rg.group, labels);
}

static void run_window(struct plot_ctx *c)
{
    struct plot_window_src src[64];
    size_t n = 0;
    char what[128] = "IOPS";
    for (size_t i = 0; i < c->n_in && n < 64; i++) {
        struct json_object *doc = c->in[i].doc;
        if (!is_run(doc))
            continue;
        struct json_object *ss = jp_get(doc, "steady_state");
        if (!jp_get(ss, "window"))
            continue;
        if (n == 0) {
            const char *tr = jp_str(ss, "tracking");
            if (!tr || !strcmp(tr, "iops"))
                snprintf(what, sizeof(what), "IOPS");
            else
                report_words_tracking(tr, what, sizeof(what));
        }
        src[n++] = (struct plot_window_src){.input = i, .var = ss,
                                            .rounds = jp_arr(doc, "rounds"),
                                            .value = plot_tracked_value, .k = 0, .what = what};
    }
    if (!n)
        return;
    char title[256], tag[160], whose[160] = "";
    group_words(c->in[src[0].input].doc, jp_num(src[0].var, "group"), whose, sizeof(whose));
    snprintf(title, sizeof(title), "Run: %s%s, %s",
             runs_judged(c) ? "measurement window" : "steady-state measurement window", whose,
             what);
    runs_tag(c, false, tag, sizeof(tag));
    plot_title_tag(title, sizeof(title), tag);
    const char *tr = jp_str(src[0].var, "tracking");
    plot_window_chart(c, "run-window", "run", title, plot_metric_axis(tr ? tr : "iops"), src, n);
}

/* Round boundaries in the per-second chart: every round's end up to 30 rounds, else every
 * step-th (2, 5, 10, 20, 25, 50, 100, ...) so that at most 30 lines are drawn. */
static size_t bounds_step(size_t rounds)
{
    static const size_t m[] = {1, 2, 5, 10, 20, 25, 50};
    for (size_t p = 1;; p *= 100)
        for (size_t k = 0; k < sizeof(m) / sizeof(m[0]); k++)
            if (rounds <= 30 * m[k] * p)
                return m[k] * p;
}

/* What the dotted lines of the per-second chart mark, for its caption: " Dotted lines mark
 * ..." */
static void bounds_words(const struct plot_ctx *c, size_t ref, bool many, size_t step,
                         char *buf, size_t len)
{
    char whose[400] = "";
    if (many)
        snprintf(whose, sizeof(whose), " of %s (the run with the most rounds)", c->in[ref].label);
    if (step == 1)
        snprintf(buf, len, " Dotted lines mark the round boundaries%s.", whose);
    else
        snprintf(buf, len, " Dotted lines mark a round boundary every %zu rounds%s (after rounds "
                 "%zu, %zu, ...: too many rounds for a line each).", step, whose, step, 2 * step);
}

/* The dotted lines: the end of every step-th round of rounds but the last. */
static void bounds_draw(struct plot_chart *ch, struct json_object *rounds, size_t step,
                        double div, int *arrow)
{
    double t0 = 0;
    for (size_t r = 0; r + 1 < jp_len(rounds); r++) {
        struct json_object *ro = jp_idx(rounds, r);
        double e = jp_num(ro, "elapsed_s");
        double iv = jp_num(jp_get(ro, "samples"), "interval_s");
        t0 += isfinite(e) ? e : (double)jp_len(jp_arr(jp_get(ro, "samples"), "iops")) *
                                    (iv > 0 ? iv : 1);
        if ((r + 1) % step == 0)
            plot_set(ch, "set arrow %d from %g, graph 0 to %g, graph 1 nohead dt 3 "
                         "lc rgb '#909090'", (*arrow)++, t0 / div, t0 / div);
    }
}

/* Input i's trim IOPS per sample interval of its measured rounds (samples.trim_iops: a run
 * that issued trims), a dotted line of its own; div: the time axis' unit in seconds. */
static void samples_trim(struct plot_ctx *c, struct plot_chart *ch, size_t i,
                         struct json_object *rounds, double div, bool many)
{
    if (!read_has_trim(c->in[i].doc))
        return;
    char series[512], t[512];
    snprintf(series, sizeof(series), "%s: trim IOPS per sample interval", c->in[i].label);
    int ix = plot_block(ch, i, series, "time trim_iops round");
    double t0 = 0;
    for (size_t r = 0; r < jp_len(rounds); r++) {
        struct json_object *ro = jp_idx(rounds, r), *sm = jp_get(ro, "samples");
        struct json_object *io = jp_arr(sm, "iops"), *tr = jp_arr(sm, "trim_iops");
        double iv = jp_num(sm, "interval_s");
        if (!(iv > 0))
            iv = 1;
        for (size_t k = 0; !plot_round_is_wdpc(ro) && k < jp_len(tr); k++)
            plot_row(ch, 3, (t0 + (double)(k + 1) * iv) / div, jp_number(jp_idx(tr, k)),
                     jp_num(ro, "round"));
        double e = jp_num(ro, "elapsed_s");
        t0 += isfinite(e) ? e : (double)jp_len(io) * iv;
    }
    if (plot_block_end(ch) <= 0)
        return;
    int d = plot_dev(ch, i);
    snprintf(t, sizeof(t), "%s%strim IOPS", many ? c->in[i].label : "", many ? ": " : "");
    plot_elem(ch, t, "dat index %d using 1:2 with lines lw 1.5 dt 3 %s", ix,
              many ? plot_dev_color(d) : plot_trim_color());
}

static void run_samples(struct plot_ctx *c)
{
    size_t n = n_runs(c);
    if (!n)
        return;
    double tmax = 0;
    size_t most = 0, ref = 0;
    for (size_t i = 0; i < c->n_in; i++) {
        if (!is_run(c->in[i].doc))
            continue;
        struct json_object *rounds = jp_arr(c->in[i].doc, "rounds");
        double t = 0;
        for (size_t r = 0; r < jp_len(rounds); r++) {
            double e = jp_num(jp_idx(rounds, r), "elapsed_s");
            t += isfinite(e) ? e : 0;
        }
        if (t > tmax)
            tmax = t;
        if (jp_len(rounds) > most) {
            most = jp_len(rounds);
            ref = i;
        }
    }
    double div;
    const char *unit = plot_time_unit(tmax, &div);
    char title[256], tag[160];
    snprintf(title, sizeof(title), "Run: IOPS per sample interval against time");
    runs_tag(c, true, tag, sizeof(tag));
    plot_title_tag(title, sizeof(title), tag);
    bool wdpc = false;
    for (size_t i = 0; i < c->n_in; i++)
        wdpc = wdpc || (is_run(c->in[i].doc) && has_wdpc(jp_arr(c->in[i].doc, "rounds")));
    const size_t step = bounds_step(most);
    char caption[1024], bw[512];
    bounds_words(c, ref, n > 1, step, bw, sizeof(bw));
    snprintf(caption, sizeof(caption), "The per-interval samples (normally 1 s) of every round, "
             "one after the other: IOPS against the run's time%s.%s%s",
             wdpc ? "; the WDPC rounds (the workload preconditioning the drive, not judged) "
                    "drawn apart, a solid line where the measurement begins" : "", bw,
             runs_multi(c) ? JOBS_CAPTION : "");
    trim_caption(c, caption, sizeof(caption));
    struct plot_chart *ch = plot_chart_new(c, "run-samples", "run", title, caption);
    char xl[64], q[96];
    snprintf(xl, sizeof(xl), "time (%s)", unit);
    plot_quote(q, sizeof(q), xl);
    plot_set(ch, "set xlabel %s", q);
    plot_set(ch, "set ylabel 'IOPS'");
    plot_set(ch, "set yrange [0:*]");
    plot_count_axis(ch);
    bool many = n > 1;
    int arrow = 1, label = 1;
    bounds_draw(ch, jp_arr(c->in[ref].doc, "rounds"), step, div, &arrow);
    for (size_t i = 0; i < c->n_in; i++) {
        struct json_object *rounds = jp_arr(c->in[i].doc, "rounds");
        if (!is_run(c->in[i].doc) || !jp_len(rounds))
            continue;
        bool pre = has_wdpc(rounds);
        double begin_t = NAN, begin_round = NAN;
        /* pass 0: the WDPC rounds' samples (when there are any), pass 1: the measured ones */
        for (int pass = pre ? 0 : 1; pass < 2; pass++) {
            char series[512];
            snprintf(series, sizeof(series), "%s: IOPS per sample interval%s", c->in[i].label,
                     pass ? "" : ", WDPC rounds (preconditioning, not judged)");
            int ix = plot_block(ch, i, series, "time iops round read_iops write_iops");
            double t0 = 0;
            for (size_t r = 0; r < jp_len(rounds); r++) {
                struct json_object *ro = jp_idx(rounds, r);
                struct json_object *sm = jp_get(ro, "samples");
                double iv = jp_num(sm, "interval_s");
                if (!(iv > 0))
                    iv = 1;
                struct json_object *io = jp_arr(sm, "iops");
                struct json_object *rd = jp_arr(sm, "read_iops");
                struct json_object *wr = jp_arr(sm, "write_iops");
                bool mine = plot_round_is_wdpc(ro) == (pass == 0);
                if (pass && pre && mine && !isfinite(begin_t)) {
                    begin_t = t0;
                    begin_round = jp_num(ro, "round");
                }
                for (size_t k = 0; mine && k < jp_len(io); k++)
                    plot_row(ch, 5, (t0 + (double)(k + 1) * iv) / div,
                             jp_number(jp_idx(io, k)), jp_num(ro, "round"),
                             jp_number(jp_idx(rd, k)),
                             jp_number(jp_idx(wr, k)));
                double e = jp_num(ro, "elapsed_s");
                t0 += isfinite(e) ? e : (double)jp_len(io) * iv;
            }
            /* the read/write columns may be NaN (not recorded): the row still counts */
            if (plot_block_end(ch) <= 0)
                continue;
            int d = plot_dev(ch, i);
            char t[512];
            if (pass)
                snprintf(t, sizeof(t), "%s", many ? c->in[i].label : pre ? "IOPS, measured rounds"
                                                                         : "IOPS");
            else
                snprintf(t, sizeof(t), "%s%sWDPC (preconditioning, not judged)",
                         many ? c->in[i].label : "", many ? ": " : "");
            plot_elem(ch, t, "dat index %d using 1:2 with lines lw %s dt %d %s", ix,
                      pass ? "1.5" : "1", pass ? plot_dt(d) : 3,
                      (pass || many ? plot_dev_color(d) : plot_color(7)));
        }
        samples_trim(c, ch, i, rounds, div, many);
        if (isfinite(begin_t))
            measure_line(ch, &arrow, &label, many ? c->in[i].label : NULL, begin_t / div,
                         tmax > 0 ? begin_t / tmax : 0, begin_round, many ? plot_dev(ch, i) : 10);
    }
    plot_chart_done(c, ch);
}

/* Input i's jobs as series of the per-job chart: each job's IOPS in the rounds it ran. */
static void jobs_series(struct plot_ctx *c, struct plot_chart *ch, size_t i, bool many)
{
    struct json_object *doc = c->in[i].doc, *rounds = jp_arr(doc, "rounds");
    const int d = plot_dev(ch, i);
    for (unsigned j = 0; j < read_run_n_jobs(doc); j++) {
        const char *label = jp_str(read_run_job_at(doc, j), "label");
        if (!label)
            continue;
        char series[600], t[600];
        snprintf(series, sizeof(series), "%s: job %s, IOPS per round", c->in[i].label, label);
        int ix = plot_block(ch, i, series, "round iops read_iops write_iops");
        for (size_t r = 0; r < jp_len(rounds); r++) {
            struct json_object *ro = jp_idx(rounds, r);
            struct json_object *rj = read_round_job(ro, label);
            if (rj)
                plot_row(ch, 4, jp_num(ro, "round"), jp_path(rj, "total.iops"),
                         jp_path(rj, "read.iops"), jp_path(rj, "write.iops"));
        }
        if (plot_block_end(ch) <= 0)
            continue;
        snprintf(t, sizeof(t), "%s%sjob %s", many ? c->in[i].label : "", many ? ": " : "",
                 label);
        plot_elem(ch, t, "dat index %d using 1:2 with linespoints lw 2 pt %d dt %d %s", ix,
                  plot_pt(d), plot_dt(d), plot_color((int)j));
    }
}

/* The first round of each group after the first, as a dotted line named by the group (the
 * groups of the first run of several jobs). */
static void jobs_groups(struct plot_chart *ch, struct json_object *doc, int *arrow, int *label)
{
    for (unsigned g = 1; g < read_run_n_groups(doc); g++) {
        struct read_group rg;
        if (!read_run_group(doc, g, &rg) || !rg.first_round)
            continue;
        char text[64], q[96];
        snprintf(text, sizeof(text), "group %u", rg.group);
        plot_quote(q, sizeof(q), text);
        const double x = rg.first_round - 0.5;
        plot_set(ch, "set arrow %d from %g, graph 0 to %g, graph 1 nohead dt 3 "
                     "lc rgb '#909090'", (*arrow)++, x, x);
        plot_set(ch, "set label %d %s at %g, graph 0.96 left offset 0.5,0 front", (*label)++, q,
                 x);
    }
}

/* IOPS per round of each job, for runs of several jobs (rounds[].jobs[]): a series per job,
 * a dotted line where each later group begins. */
static void run_jobs(struct plot_ctx *c)
{
    if (!runs_multi(c))
        return;
    const bool many = n_runs(c) > 1;
    size_t most = 0, first = c->n_in;
    char what[512] = "";
    for (size_t i = 0; i < c->n_in; i++) {
        struct json_object *doc = c->in[i].doc;
        if (!is_run(doc) || !read_run_multi(doc))
            continue;
        most = jp_len(jp_arr(doc, "rounds")) > most ? jp_len(jp_arr(doc, "rounds")) : most;
        if (first == c->n_in) {
            first = i;
            jobs_text(doc, false, what, sizeof(what));
        }
    }
    char title[768], tag[160];
    if (many)
        snprintf(title, sizeof(title), "Run: IOPS per round of each job");
    else
        snprintf(title, sizeof(title), "Run: IOPS per round of each job (%s)", what);
    runs_tag(c, false, tag, sizeof(tag));
    plot_title_tag(title, sizeof(title), tag);
    struct plot_chart *ch = plot_chart_new(c, "run-jobs", "run", title,
                                           "Each job's IOPS in every round it ran, a series per "
                                           "job: the jobs of a group run at once, the groups one "
                                           "after another (a dotted line where a group begins).");
    round_axes(ch, most);
    int arrow = 1, label = 1;
    jobs_groups(ch, c->in[first].doc, &arrow, &label);
    for (size_t i = 0; i < c->n_in; i++)
        if (is_run(c->in[i].doc) && read_run_multi(c->in[i].doc))
            jobs_series(c, ch, i, many);
    plot_chart_done(c, ch);
}

void plot_run_charts(struct plot_ctx *c)
{
    run_rounds(c);
    run_jobs(c);
    run_window(c);
    run_samples(c);
}
