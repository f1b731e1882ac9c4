/* show_suite.c — `ptsbench show` for suite and crosscheck documents (see show.h). */
#include <json-c/json.h>
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "device/health.h"
#include "core/metrics.h"
#include "core/results.h"
#include "lib/json_path.h"
#include "lib/units.h"
#include "read/words.h"
#include "show/show.h"

#define sstr(o, path) jp_str_or((o), (path), "")   /* lib/json_path.h */

static const char *cnt(double v, char *buf, size_t len)
{
    units_format_figure(v, UNITS_FIG_IOPS, buf, len);
    return buf;
}

static const char *lat(double us, char *buf, size_t len)
{
    units_format_lat(us, UNITS_TEXT, buf, len);
    return buf;
}

/* MB/s by the shared figure rule (units.h): "3,198", "38.4"; "—" when absent. */
static const char *mbs(double v, char *buf, size_t len)
{
    units_format_figure(v, UNITS_FIG_MBS, buf, len);
    return buf;
}

/* A subtest its test's stop cut short ("interrupted", "failed", "running": the last one of a
 * test whose status is not complete): where it stopped, and that no verdict was reached. */
static void subtest_cut(FILE *out, struct json_object *sub, const char *status)
{
    const size_t n = jp_len(jp_arr_at(sub, "rounds"));
    const char *how = !strcmp(status, "running") ? "stopped (its writer did not finish)" : status;
    const char *none = jp_obj_at(sub, "stop") ? "write saturation claims no steady state"
                                              : "no steady-state verdict was reached";
    if (!jp_arr_at(sub, "rounds"))   /* a kind of other loops (HIR, XSR, DIRTH) */
        fprintf(out, "; %s before it was complete: no verdict was reached", how);
    else if (n)
        fprintf(out, "; %s during round %zu (%zu complete): %s", how, n + 1, n, none);
    else
        fprintf(out, "; %s before its first round was complete%s: %s", how,
                jp_obj_at(sub, "precondition") ? "" : " (in its preparation)", none);
}

/* The drive's state at the end of a subtest and its steady-state verdict, in one line; cut:
 * the test's status when it stopped this subtest (else NULL). */
static void subtest_state(FILE *out, struct json_object *sub, bool sim, const char *cut)
{
    struct json_object *st = jp_obj_at(sub, "state");
    struct json_object *ss = jp_obj_at(sub, "steady_state");
    fprintf(out, "  drive: ");
    if (st)
        fprintf(out, "%s, %.2f fills written%s", sstr(st, "condition"),
                jp_path(st, "written_fills"), sim ? " (simulated drive)" : "");
    else
        fprintf(out, "state not recorded%s", sim ? " (simulated drive)" : "");
    if (ss && jp_true(jp_at(ss, "reached")))
        fprintf(out, "; steady state (SNIA PTS rule) at round %.0f of %.0f", jp_path(ss, "round"),
                jp_path(ss, "rounds_run"));
    else if (cut)
        subtest_cut(out, sub, cut);
    else if (ss) {
        double run = jp_path(ss, "rounds_run");
        if (!isfinite(run))
            run = jp_path(ss, "variables.0.rounds_run");
        fprintf(out, "; steady state NOT reached in %.0f rounds", run);
    } else if (jp_obj_at(sub, "stop"))
        fprintf(out, "; write saturation, stopped by %s (no steady state claimed)",
                sstr(sub, "stop.reason"));
    else
        fprintf(out, "; no steady-state verdict (the kind claims none)");
    fprintf(out, "\n");
}

static void table_rows(FILE *out, struct json_object *sub, bool sim)
{
    struct json_object *tab = jp_obj_at(sub, "table");
    struct json_object *rows = jp_arr_at(tab, "rows");
    if (!jp_len(rows))
        return;
    const bool steady = jp_true(jp_at(sub, "steady_state.reached"));
    fprintf(out, "  table over %srounds %.0f-%.0f%s\n", steady ? "the steady-state window, " : "",
            jp_path(tab, "first_round"), jp_path(tab, "last_round"),
            steady ? "" : " (the last rounds: not steady state)");
    fprintf(out, "  %6s %9s %12s %10s %11s %11s\n", "R/W", "bs", sim ? "IOPS (sim)" : "IOPS",
            "MB/s", "lat mean", "lat 99.9%");
    for (size_t i = 0; i < jp_len(rows); i++) {
        struct json_object *r = jp_idx(rows, i);
        char mix[16], bs[16], io[32], mb[40], m[32], p[32];
        double rd = jp_path(r, "rwmix_read");
        snprintf(mix, sizeof(mix), "%.0f/%.0f", rd, 100 - rd);
        units_format_bs(jp_path(r, "bs"), bs, sizeof(bs));
        fprintf(out, "  %6s %9s %12s %10s %11s %11s\n", mix, bs,
                cnt(jp_path(r, "total.iops"), io, sizeof(io)),
                mbs(jp_path(r, "total.mb_s"), mb, sizeof(mb)),
                lat(jp_path(r, "total.lat_us.mean"), m, sizeof(m)),
                words_pct_lat(jp_obj_at(r, "total.lat_us"), "99.9", UNITS_TEXT, p, sizeof(p)));
    }
}

static void hir_headline(FILE *out, struct json_object *sub, bool sim)
{
    struct json_object *ws = jp_arr_at(sub, "wait_states");
    fprintf(out, "  %10s %9s %16s %16s\n", "wait state", "wait", sim ? "write IOPS (sim)" :
            "write IOPS", "baseline IOPS");
    for (size_t i = 0; i < jp_len(ws); i++) {
        struct json_object *w = jp_idx(ws, i);
        char a[32], b[32], t[32];
        snprintf(t, sizeof(t), "%.3g s", jp_path(w, "wait_s"));
        fprintf(out, "  %10.0f %9s %16s %16s\n", jp_path(w, "state"), t,
                cnt(jp_path(w, "write_iops_mean"), a, sizeof(a)),
                cnt(jp_path(w, "baseline_iops_mean"), b, sizeof(b)));
    }
}

static void xsr_headline(FILE *out, struct json_object *sub, bool sim)
{
    struct json_object *gs = jp_arr_at(sub, "groups");
    fprintf(out, "  %5s %-20s %8s %14s %12s %11s\n", "group", "stimulus", "minutes",
            sim ? "MB/s mean (sim)" : "MB/s mean", "MB/s end", "peak lat");
    for (size_t i = 0; i < jp_len(gs); i++) {
        struct json_object *g = jp_idx(gs, i);
        char a[40], b[40], m[32];
        fprintf(out, "  %5.0f %-20s %8.2f %14s %12s %11s\n", jp_path(g, "group"),
                sstr(g, "stimulus"), jp_path(g, "minutes"),
                mbs(jp_path(g, "mb_s_mean"), a, sizeof(a)),
                mbs(jp_path(g, "mb_s_end"), b, sizeof(b)),
                lat(jp_path(g, "peak_lat_mean_us"), m, sizeof(m)));
    }
    double rec = jp_path(sub, "recovery_minutes");
    if (isfinite(rec))
        fprintf(out, "  recovery: %.3g minutes to the first group's average\n", rec);
    else
        fprintf(out, "  recovery: the last group never reached the first group's average\n");
}

static void dirth_headline(FILE *out, struct json_object *sub, bool sim)
{
    struct json_object *op = jp_obj_at(sub, "operating_points");
    if (!op)
        return;
    char c[32];
    fprintf(out, "  operating points (latency ceiling %s)\n",
            lat(jp_path(op, "latency_ceiling_us"), c, sizeof(c)));
    fprintf(out, "  %5s %8s %4s %12s %11s %11s\n", "point", "threads", "QD",
            sim ? "IOPS (sim)" : "IOPS", "lat mean", "lat 99.9%");
    static const char *const names[] = {"max", "mid", "min"};
    for (int i = 0; i < 3; i++) {
        struct json_object *p = jp_obj_at(op, names[i]);
        if (!p)
            continue;
        char io[32], m[32], q[32];
        fprintf(out, "  %5s %8.0f %4.0f %12s %11s %11s\n", names[i], jp_path(p, "threads"),
                jp_path(p, "qd"), cnt(jp_path(p, "total.iops"), io, sizeof(io)),
                lat(jp_path(p, "total.lat_us.mean"), m, sizeof(m)),
                words_pct_lat(jp_obj_at(p, "total.lat_us"), "99.9", UNITS_TEXT, q, sizeof(q)));
    }
}

/* What a subtest's records say of themselves, found wherever they are (elements, rounds,
 * accesses, points: every object with "gap" or "depth"): the gaps and the depths not kept. */
struct subtest_marks {
    unsigned gaps, shallow;
    const char *first_gap;
    double lowest_kept;
    char lowest[256];   /* the shallowest depth in words (results_depth_text) */
};

static void marks_walk(struct json_object *o, struct subtest_marks *mk, int level)
{
    if (level > 12)
        return;
    if (json_object_is_type(o, json_type_array)) {
        for (size_t i = 0; i < jp_len(o); i++)
            marks_walk(jp_idx(o, i), mk, level + 1);
        return;
    }
    if (!json_object_is_type(o, json_type_object))
        return;
    const char *gap = jp_string(jp_at(o, "gap"));
    if (gap && !mk->gaps++)
        mk->first_gap = gap;
    char qd[256];
    if (*results_depth_text(o, qd, sizeof(qd))) {
        mk->shallow++;
        const double kept = jp_path(o, "depth.kept");
        if (mk->shallow == 1 || kept < mk->lowest_kept) {
            mk->lowest_kept = kept;
            snprintf(mk->lowest, sizeof(mk->lowest), "%s", qd);
        }
    }
    json_object_object_foreach(o, key, val)
    {
        if (strcmp(key, "depth"))
            marks_walk(val, mk, level + 1);
    }
}

static void subtest_marks(FILE *out, struct json_object *sub)
{
    struct subtest_marks mk = {0};
    marks_walk(sub, &mk, 0);
    if (mk.gaps)
        fprintf(out, "  gaps: %u record(s) with too few I/Os to measure (the first: "
                "%s)\n", mk.gaps, mk.first_gap);
    if (mk.shallow)
        fprintf(out, "  depth: %u record(s) below %.0f%% of the declared depth (the lowest: %s)\n",
                mk.shallow, 100 * METRICS_DEPTH_KEPT, mk.lowest);
}

void show_suite(FILE *out, struct json_object *doc)
{
    const bool sim = jp_at(doc, "target.simulated") != NULL ||
                     !strcmp(sstr(doc, "target.kind"), "simulated");
    char mem[96];
    show_memory_label(doc, mem, sizeof(mem));
    fprintf(out, "%s  (%s)%s; %s, status %s\n", sstr(doc, "target.path"),
            sim ? "simulated drive: the figures are the model's" : sstr(doc, "target.kind"),
            mem, sstr(doc, "spec.name"), sstr(doc, "status"));
    char place[512];
    if (show_placement_line(doc, place, sizeof(place)))
        fprintf(out, "placement %s\n", place);
    struct json_object *c = jp_obj_at(doc, "compliance");
    if (c)
        fprintf(out, "compliance: %s\n", jp_true(jp_at(c, "compliant")) ? "compliant"
                                                                       : "not compliant");
    struct json_object *notes = jp_arr_at(c, "notes");
    for (size_t i = 0; i < jp_len(notes); i++)
        fprintf(out, "  note: %s\n", jp_string(jp_idx(notes, i)) ? jp_string(jp_idx(notes, i))
                                                                   : "");
    struct json_object *tests = jp_arr_at(doc, "tests");
    for (size_t i = 0; i < jp_len(tests); i++) {
        struct json_object *t = jp_idx(tests, i);
        const char *kind = sstr(t, "kind");
        fprintf(out, "\n%s (%s)%s%s\n", sstr(t, "title"), sstr(t, "name"),
                strcmp(sstr(t, "status"), "complete") ? ", status " : "",
                strcmp(sstr(t, "status"), "complete") ? sstr(t, "status") : "");
        struct json_object *subs = jp_arr_at(t, "subtests");
        const char *status = sstr(t, "status");
        for (size_t j = 0; j < jp_len(subs); j++) {
            struct json_object *s = jp_idx(subs, j);
            if (jp_len(subs) > 1)
                fprintf(out, " subtest %s\n", sstr(s, "label"));
            const bool last = j + 1 == jp_len(subs);
            subtest_state(out, s, sim, last && *status && strcmp(status, "complete") ? status
                                                                                    : NULL);
            if (jp_obj_at(s, "table"))
                table_rows(out, s, sim);
            else if (!strcmp(kind, "hir") || jp_arr_at(s, "wait_states"))
                hir_headline(out, s, sim);
            else if (!strcmp(kind, "xsr") || jp_arr_at(s, "groups"))
                xsr_headline(out, s, sim);
            else if (jp_obj_at(s, "operating_points"))
                dirth_headline(out, s, sim);
            subtest_marks(out, s);
        }
        char health[512];
        health_summary(jp_obj_at(t, "health"), health, sizeof(health));
        if (health[0])
            fprintf(out, "  %s\n", health);
    }
}

void show_crosscheck(FILE *out, struct json_object *doc)
{
    const char *target = sstr(doc, "target");
    const bool sim = !strncmp(target, "sim:", 4);
    const char *nat = sstr(doc, "native"), *fio = sstr(doc, "fio");
    fprintf(out, "%s%s\nworkload  %s\n", target, sim ? "  (simulated drive)" : "",
            sstr(doc, "workload"));
    fprintf(out, "drive     %s\n", sstr(doc, "drive_state"));
    fprintf(out, "%.0f run(s) of %.3g s per engine, alternating\n\n", jp_path(doc, "repeats"),
            jp_path(doc, "round_time_s"));
    fprintf(out, "%-20s %14s %14s %10s\n", "metric", nat, fio, "fio/native");
    struct json_object *sum = jp_obj_at(doc, "summary");
    if (sum) {
        json_object_object_foreach(sum, key, val)
        {
            char a[40], b[40];
            struct json_object *vn = NULL, *vf = NULL;
            json_object_object_get_ex(val, nat, &vn);
            json_object_object_get_ex(val, fio, &vf);
            double n = vn ? json_object_get_double(vn) : NAN;
            double f = vf ? json_object_get_double(vf) : NAN;
            const enum units_figure kind = metrics_figure_kind(key);
            char r[40];
            units_format_figure(n, kind, a, sizeof(a));
            units_format_figure(f, kind, b, sizeof(b));
            units_format_figure(jp_path(val, "ratio"), UNITS_FIG_RATIO, r, sizeof(r));
            fprintf(out, "%-20s %14s %14s %10s\n", key, a, b, r);
        }
    }
    struct json_object *runs = jp_arr_at(doc, "runs");
    fprintf(out, "\n%-10s %6s %12s %10s %11s %11s\n", "engine", "repeat", "IOPS", "MB/s",
            "lat mean", "lat 99.9%");
    for (size_t i = 0; i < jp_len(runs); i++) {
        struct json_object *r = jp_idx(runs, i);
        char io[32], mb[40], m[32], p[32];
        fprintf(out, "%-10s %6.0f %12s %10s %11s %11s\n", sstr(r, "engine"), jp_path(r, "repeat"),
                cnt(jp_path(r, "round.total.iops"), io, sizeof(io)),
                mbs(jp_path(r, "round.total.mb_s"), mb, sizeof(mb)),
                lat(jp_path(r, "round.total.lat_us.mean"), m, sizeof(m)),
                words_pct_lat(jp_obj_at(r, "round.total.lat_us"), "99.9", UNITS_TEXT, p,
                              sizeof(p)));
    }
}
