/* show.c — a run or a profile results document as a table (see show.h; suites and crosschecks
 * are show_suite.c). */
#include "show/show.h"

#include <json-c/json.h>
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "core/results.h"
#include "device/health.h"
#include "device/thermal.h"
#include "lib/json_path.h"
#include "lib/units.h"
#include "lib/util.h"
#include "read/jobs.h"
#include "read/load.h"
#include "read/tracking.h"
#include "read/words.h"

#define str(o, path) jp_str_or((o), (path), "")   /* lib/json_path.h */

/* "1.6 TB (1.5 TiB)"; "capacity not recorded" when the file has no usable number (a NAN cast to
 * an integer printed "9223.4 PB"). */
static void capacity(struct json_object *doc, char *buf, size_t len)
{
    double c = jp_path(doc, "target.capacity_bytes");
    if (!isfinite(c) || c < 0 || c >= 18446744073709551616.0)
        snprintf(buf, len, "capacity not recorded");
    else
        units_format_capacity((uint64_t)c, buf, len);
}

/* The status with what it means now: a "running" file whose writer is gone says "dead", and a
 * live one names its pid and when it last wrote (results_life_of). */
static void status_text(struct json_object *doc, char *buf, size_t len)
{
    char why[256];
    const enum results_life l = results_life_of(doc, why, sizeof(why));
    const char *upd = str(doc, "updated");
    switch (l) {
    case RESULTS_RUNNING:
        snprintf(buf, len, "%s%s%s", why, *upd ? ", last written " : "", upd);
        break;
    case RESULTS_DEAD:
        snprintf(buf, len, "dead (%s%s%s)", why, *upd ? "; last written " : "", upd);
        break;
    case RESULTS_UNKNOWN:
        snprintf(buf, len, "%s", why);
        break;
    default:
        snprintf(buf, len, "%s", results_life_name(l));
    }
}

/* A profile matrix: one line per point, then the saturation points. */
static void show_profile(FILE *out, struct json_object *doc)
{
    char cap[64], st[512], mem[96];
    capacity(doc, cap, sizeof(cap));
    status_text(doc, st, sizeof(st));
    show_memory_label(doc, mem, sizeof(mem));
    fprintf(out, "%s  (%s, %s)%s; status %s\n", str(doc, "target.path"),
            str(doc, "target.kind"), cap, mem, st);
    char place[512];
    if (show_placement_line(doc, place, sizeof(place)))
        fprintf(out, "placement %s\n", place);
    fputc('\n', out);
    const bool sim = jp_at(doc, "target.simulated") != NULL;
    fprintf(out, "%-16s %-16s %5s %7s %4s %6s %10s %9s %10s %10s  %s\n", "profile", "workload",
            "data", "workers", "QD", "effQD", sim ? "IOPS (sim)" : "IOPS", "MB/s", "lat mean",
            "lat p99", "measured");
    struct json_object *pts = jp_arr_at(doc, "points");
    for (size_t i = 0; i < jp_len(pts); i++) {
        struct json_object *p = jp_idx(pts, i);
        if (!jp_obj_at(p, "result"))
            continue;
        char m[32], p99[32], how[160], io[32], mb[32];
        units_format_figure(jp_path(p, "result.total.iops"), UNITS_FIG_IOPS, io, sizeof(io));
        units_format_figure(jp_path(p, "result.total.mb_s"), UNITS_FIG_MBS, mb, sizeof(mb));
        double r0 = jp_path(p, "result.rounds.0"), r1 = jp_path(p, "result.rounds.1");
        units_format_lat(jp_path(p, "result.total.lat_us.mean"), UNITS_TEXT, m, sizeof(m));
        words_pct_lat(jp_obj_at(p, "result.total.lat_us"), "99", UNITS_TEXT, p99, sizeof(p99));
        const char *label = str(p, "result.label");
        if (*label)   /* what the window may be called (drive_state.h) */
            snprintf(how, sizeof(how), "%s r%.0f-%.0f", label, r0, r1);
        else if (!strcmp(str(p, "measure"), "steady"))
            snprintf(how, sizeof(how), "%s r%.0f-%.0f",
                     jp_true(jp_at(p, "result.steady")) ? "steady" : "NOT steady", r0, r1);
        else
            snprintf(how, sizeof(how), "%s, %.0f round(s)", str(p, "precondition"), r1);
        char qd[256];   /* a gap, or the depth in flight not kept (metrics.h) */
        if (*str(p, "result.gap"))
            snprintf(qd, sizeof(qd), "gap: too few I/Os to measure");
        else
            results_depth_text(jp_at(p, "result"), qd, sizeof(qd));
        fprintf(out, "%-16s %-16s %4.0f%% %7.0f %4.0f %6.0f %10s %9s %10s %10s  %s%s%s\n",
                str(p, "profile"), str(p, "workload"), jp_path(p, "compress_pct"),
                jp_path(p, "workers"), jp_path(p, "qd"), jp_path(p, "effective_qd"), io, mb, m,
                p99, how, *qd ? "; " : "", qd);
    }
    struct json_object *sat = jp_arr_at(doc, "saturation");
    for (size_t i = 0; i < jp_len(sat); i++) {
        struct json_object *s = jp_idx(sat, i);
        char m[32], io[32], mx[32];
        units_format_lat(jp_path(s, "lat_mean_us"), UNITS_TEXT, m, sizeof(m));
        units_format_figure(jp_path(s, "iops"), UNITS_FIG_IOPS, io, sizeof(io));
        units_format_figure(jp_path(s, "max_iops"), UNITS_FIG_IOPS, mx, sizeof(mx));
        fprintf(out, "%ssaturation %s %.0f%% %.0f worker(s): effective QD %.0f, %s IOPS (max "
                "%s), lat mean %s\n", i ? "" : "\n", str(s, "workload"),
                jp_path(s, "compress_pct"), jp_path(s, "workers"), jp_path(s, "effective_qd"),
                io, mx, m);
    }
    struct json_object *groups = jp_arr_at(doc, "groups");
    for (size_t i = 0; i < jp_len(groups); i++) {   /* the drive's own counters per group */
        struct json_object *g = jp_idx(groups, i);
        char line[512];
        health_summary(jp_obj_at(g, "health"), line, sizeof(line));
        if (line[0])
            fprintf(out, "%s%s %.0f%%: %s\n", i ? "" : "\n", str(g, "workload"),
                    jp_path(g, "compress_pct"), line);
    }
}

static void show_preconditioning(FILE *out, struct json_object *doc, bool sim)
{
    struct json_object *pc = jp_obj_at(doc, "preconditioning");
    if (!pc)
        return;
    const char *mode = str(pc, "mode");
    /* the fast pass on a target without an FTL: the range written over, nothing shaped */
    const bool no_ftl = jp_at(pc, "fast.ftl") && !strcmp(str(pc, "fast.ftl"), "none");
    fprintf(out, "drive     %s%s", !strcmp(mode, "none")   ? "not preconditioned"
                                   : no_ftl                ? "range written over + WDPC"
                                   : !strcmp(mode, "fast") ? "fast pass + WDPC"
                                                           : mode,
            sim ? " (simulated drive)" : "");
    if (jp_at(pc, "wipc"))
        fprintf(out, "; WIPC %.0fx the active range", jp_path(pc, "wipc.fills"));
    if (jp_at(pc, "fast")) {   /* issue 48's fast pass, in WIPC's place */
        char f[32], r[32];
        units_format_figure(jp_path(pc, "fast.fills"), UNITS_FIG_VALUE, f, sizeof(f));
        units_format_figure(jp_path(pc, "fast.rho"), UNITS_FIG_VALUE, r, sizeof(r));
        if (no_ftl)
            fprintf(out, "; the range written %s× sequentially (the fast pass without an FTL: "
                    "no FTL state to shape)", f);
        else
            fprintf(out, "; fast pass %s fills (spare factor %s: %s)", f, r,
                    str(pc, "fast.rho_source"));
    }
    if (jp_at(pc, "wdpc"))
        fprintf(out, "; WDPC %.2f fills in %.0f rounds (ended: %s)", jp_path(pc, "wdpc.fills"),
                jp_path(pc, "wdpc.rounds"), str(pc, "wdpc.ended"));
    if (jp_at(pc, "layout.ran") && jp_true(jp_at(pc, "layout.ran"))) {
        char b[32];
        units_format_size((uint64_t)jp_path(pc, "layout.bytes"), b, sizeof(b));
        fprintf(out, "; laid out %s in %.1f s", b, jp_path(pc, "layout.seconds"));
    }
    const char *content = str(doc, "state.content");
    if (*content)   /* what the active range holds (drive_state.h) */
        fprintf(out, "\ncontent   %s", !strcmp(content, "unknown")
                    ? "history unknown (not purged by this run)" : "");
    if (*content && strcmp(content, "unknown"))
        fprintf(out, "known from %s: %.0f%% never written at the end",
                !strcmp(content, "extents") ? "the file's extents"
                : !strcmp(content, "purge") ? "ptsbench's purge and its writes since"
                                            : "the simulated drive's map",
                100 * jp_path(doc, "state.unwritten_share"));
    fprintf(out, "\n");
}

/* A round's or a job's figures: IOPS total, read, write (trim: and trim, when the run issued
 * trims), MB/s, mean and 99.9% latency, each column led by a space. */
static void show_figures(FILE *out, struct json_object *r, bool trim)
{
    char m[32], p[32], t[32], rd[32], wr[32], tr[32], mb[32];
    units_format_lat(jp_path(r, "total.lat_us.mean"), UNITS_TEXT, m, sizeof(m));
    words_pct_lat(jp_obj_at(r, "total.lat_us"), "99.9", UNITS_TEXT, p, sizeof(p));
    units_format_figure(jp_path(r, "total.iops"), UNITS_FIG_IOPS, t, sizeof(t));
    units_format_figure(jp_path(r, "read.iops"), UNITS_FIG_IOPS, rd, sizeof(rd));
    units_format_figure(jp_path(r, "write.iops"), UNITS_FIG_IOPS, wr, sizeof(wr));
    units_format_figure(jp_path(r, "trim.iops"), UNITS_FIG_IOPS, tr, sizeof(tr));
    units_format_figure(jp_path(r, "total.mb_s"), UNITS_FIG_MBS, mb, sizeof(mb));
    fprintf(out, " %10s %10s %10s", t, rd, wr);
    if (trim)
        fprintf(out, " %10s", tr);
    fprintf(out, " %10s %11s %11s", mb, m, p);
}

/* A run of several jobs: one job's figures in a round, under the group's line. */
static void show_round_job(FILE *out, struct json_object *j, bool trim)
{
    char qd[256];
    fprintf(out, "      ");
    show_figures(out, j, trim);
    fprintf(out, "  job %s", str(j, "label"));
    if (*results_depth_text(j, qd, sizeof(qd)))
        fprintf(out, "  %s", qd);
    fprintf(out, "\n");
}

/* A run of several jobs: a group's heading before its first round. */
static void show_group_heading(FILE *out, struct json_object *doc, unsigned group)
{
    struct read_group g;
    if (!read_run_group(doc, group - 1, &g))
        return;
    fprintf(out, "group %u of %u (", group, read_run_n_groups(doc));
    for (size_t i = 0; i < jp_len(g.labels); i++)
        fprintf(out, "%s%s", i ? ", " : "", json_object_get_string(jp_idx(g.labels, i)));
    fprintf(out, jp_len(g.labels) > 1 ? "): the group's figures, then each job's\n" : ")\n");
}

/* The last round's latency tail per direction with I/O: 99% up to 99.9999% and the maximum,
 * every I/O of the round; a percentile the round's count does not support (the tail rule,
 * read/words.h) is "n/a (N I/Os)", and the line after it says why in words. */
static void show_tail(FILE *out, struct json_object *doc, struct json_object *rounds)
{
    /* a simulated drive counts completions, each standing for k of its I/Os (metrics.h) */
    const double scale = jp_path(doc, "target.simulated.time_scale_k");
    char sim[128] = "";
    if (scale > 1)
        snprintf(sim, sizeof(sim), " (the simulated drive's completions, each standing for %.0f "
                 "I/Os)", scale);
    struct json_object *r = jp_idx(rounds, jp_len(rounds) ? jp_len(rounds) - 1 : 0);
    static const char *const dirs[] = {"read", "write", "trim"};
    static const int pcts[] = {METRICS_P99, METRICS_P99_9, METRICS_P99_99, METRICS_P99_999,
                               METRICS_P99_9999};
    bool head = false;
    for (size_t d = 0; r && d < sizeof(dirs) / sizeof(dirs[0]); d++) {
        char path[32];
        snprintf(path, sizeof(path), "%s.lat_us", dirs[d]);
        struct json_object *lat = jp_obj_at(r, path);
        if (!lat)
            continue;
        if (!head)
            fprintf(out, "\nlatency tail, round %.0f (every I/O of the round):\n",
                    jp_path(r, "round"));
        head = true;
        fprintf(out, "  %-5s", dirs[d]);
        uint64_t short_of = 0;
        for (size_t k = 0; k < sizeof(pcts) / sizeof(pcts[0]); k++) {
            const char *key = metrics_percentile_names[pcts[k]] + 1;
            char v[48];
            words_pct_lat(lat, key, UNITS_TEXT, v, sizeof(v));
            fprintf(out, "  %s%% %s", key, v);
            if (!short_of)
                short_of = words_pct_lat_short_of(lat, key);
        }
        char mx[32], why[96];
        units_format_lat(jp_path(lat, "max"), UNITS_TEXT, mx, sizeof(mx));
        fprintf(out, "  max %s\n", mx);
        if (short_of)
            fprintf(out, "         n/a: %s: fewer than %d I/Os beyond it%s\n",
                    units_format_pct_long(short_of, why, sizeof(why)), HIST_TAIL_MIN, sim);
    }
}

/* A remote run (fio client/server): the last round's figures per host, each from the host's
 * own histogram (rounds[].hosts[]); percentiles the host's count does not support read
 * "n/a (N I/Os)" (the tail rule, read/words.h). Results written before hosts carried figures
 * show "-". */
static void show_hosts(FILE *out, struct json_object *rounds)
{
    struct json_object *r = jp_idx(rounds, jp_len(rounds) ? jp_len(rounds) - 1 : 0);
    struct json_object *hosts = r ? jp_arr_at(r, "hosts") : NULL;
    if (!jp_len(hosts))
        return;
    fprintf(out, "\nhosts, round %.0f (each host's own I/Os):\n", jp_path(r, "round"));
    fprintf(out, "  %-24s %10s %10s %11s %17s %17s %11s  %s\n", "host", "IOPS", "MB/s",
            "lat mean", "lat 99%", "lat 99.99%", "lat max", "device (util)");
    for (size_t i = 0; i < jp_len(hosts); i++) {
        struct json_object *h = jp_idx(hosts, i);
        struct json_object *lat = jp_obj_at(h, "total.lat_us");
        char iops[32], mb[32], m[32], p99[48], p9999[48], mx[32], disk[96] = "-";
        units_format_figure(jp_path(h, "iops"), UNITS_FIG_IOPS, iops, sizeof(iops));
        units_format_figure(jp_path(h, "total.mb_s"), UNITS_FIG_MBS, mb, sizeof(mb));
        units_format_lat(jp_path(h, "total.lat_us.mean"), UNITS_TEXT, m, sizeof(m));
        words_pct_lat(lat, "99", UNITS_TEXT, p99, sizeof(p99));
        words_pct_lat(lat, "99.99", UNITS_TEXT, p9999, sizeof(p9999));
        units_format_lat(jp_path(h, "total.lat_us.max"), UNITS_TEXT, mx, sizeof(mx));
        if (jp_obj_at(h, "disk"))
            snprintf(disk, sizeof(disk), "%s (%.1f%%)", str(h, "disk.name"),
                     jp_path(h, "disk.util_pct"));
        fprintf(out, "  %-24s %10s %10s %11s %17s %17s %11s  %s\n", str(h, "host"), iops, mb, m,
                p99, p9999, mx, disk);
    }
    /* fio client/server brings no drive health back: the note the results carry */
    if (*str(jp_idx(hosts, 0), "health.note"))
        fprintf(out, "  health: %s\n", str(jp_idx(hosts, 0), "health.note"));
}

static void show_rounds(FILE *out, struct json_object *doc, struct json_object *rounds,
                        unsigned every, bool sim)
{
    size_t nr = jp_len(rounds);
    if (!every)
        every = nr > 40 ? (unsigned)((nr + 29) / 30) : 1;
    bool dev = jp_at(jp_idx(rounds, 0), "device") != NULL;
    bool state = jp_at(jp_idx(rounds, 0), "state") != NULL;
    const bool trim = read_has_trim(doc);   /* a trim column only when trims were issued */
    fprintf(out, "\n%6s %10s %10s %10s", "round", sim ? "IOPS (sim)" : "IOPS", "read", "write");
    if (trim)
        fprintf(out, " %10s", "trim");
    fprintf(out, " %10s %11s %11s%s%s\n", "MB/s", "lat mean", "lat 99.9%", dev ? "     WA" : "",
            state ? "  state  fills: total   WDPC" : "");
    const bool multi = read_run_multi(doc);
    unsigned group = 0;
    for (size_t i = 0; i < nr; i++) {
        struct json_object *r = jp_idx(rounds, i);
        const unsigned rg = multi ? (unsigned)jp_path(r, "group") : 0;
        if (multi && rg != group) {
            group = rg;
            show_group_heading(out, doc, group);
        }
        if ((i + 1) % every && i + 1 != nr && i)
            continue;
        fprintf(out, "%6.0f", jp_path(r, "round"));
        show_figures(out, r, trim);
        if (dev) {
            char wa[32];
            units_format_figure(jp_path(r, "device.write_amplification"), UNITS_FIG_WAF, wa,
                                sizeof(wa));
            fprintf(out, " %6s", wa);
        }
        if (state)
            fprintf(out, "  %-6s %6.2f %6.2f%s", str(r, "state.condition"),
                    jp_path(r, "state.written_fills"), jp_path(r, "state.wdpc_fills"),
                    !strcmp(str(r, "phase"), "wdpc") ? "  (WDPC round, not judged)" : "");
        if (jp_true(jp_at(r, "unwritten_reads.labelled")))
            fprintf(out, "  reads of never-written space %.0f%%%s",
                    100 * jp_path(r, "unwritten_reads.share"),
                    !strcmp(str(r, "unwritten_reads.how"), "measured") ? "" : " (est.)");
        char qd[256];
        if (*results_depth_text(r, qd, sizeof(qd)))   /* the depth not kept (metrics.h) */
            fprintf(out, "  %s", qd);
        char hot[128];   /* the drive throttled (device/thermal.h) */
        thermal_label_json(jp_get(r, "thermal"), hot, sizeof(hot));
        if (*hot)
            fprintf(out, "  %s", hot);
        fprintf(out, "\n");
        struct json_object *jobs = jp_arr_at(r, "jobs");   /* several in its group */
        for (size_t j = 0; jp_len(jobs) > 1 && j < jp_len(jobs); j++)
            show_round_job(out, jp_idx(jobs, j), trim);
    }
}

/* A share of the window's average in percent ("-" when either is absent or the average 0). */
static double pct_of(struct json_object *ss, const char *path)
{
    double avg = jp_path(ss, "window.average"), v = jp_path(ss, path);
    return avg != 0 ? 100 * v / avg : NAN;
}

static void show_verdict_of(FILE *out, struct json_object *doc, struct json_object *ss,
                            size_t nr, bool sim);

/* A run of several groups: each group's verdict over its own rounds. */
static void show_group_verdicts(FILE *out, struct json_object *doc, bool sim)
{
    for (unsigned g = 0; g < read_run_n_groups(doc); g++) {
        struct read_group gr;
        read_run_group(doc, g, &gr);
        fprintf(out, "\ngroup %u", gr.group);
        if (!gr.first_round) {
            fprintf(out, ": not run\n");
            continue;
        }
        fprintf(out, ", rounds %u-%u%s:", gr.first_round, gr.last_round,
                gr.done ? "" : " (its rounds did not end)");
        size_t nr = gr.last_round - gr.first_round + 1;
        if (!gr.steady || (!*str(gr.steady, "label") && nr < 5 &&
                           !jp_true(jp_at(gr.steady, "reached"))))
            fprintf(out, " fewer rounds than a window: no verdict\n");
        else
            show_verdict_of(out, doc, gr.steady, nr, sim);
    }
}

static void show_verdict(FILE *out, struct json_object *doc, size_t nr, bool sim)
{
    if (read_run_n_groups(doc) > 1) {
        show_group_verdicts(out, doc, sim);
        return;
    }
    show_verdict_of(out, doc, jp_obj_at(doc, "steady_state"), nr, sim);
}

static void show_verdict_of(FILE *out, struct json_object *doc, struct json_object *ss,
                            size_t nr, bool sim)
{
    const char *label = str(ss, "label");
    enum units_figure kind = tracking_figure_kind(ss);
    char avg[32], rng[32], slp[32], lavg[32];
    units_format_figure(jp_path(ss, "window.average"), kind, avg, sizeof(avg));
    units_format_figure(pct_of(ss, "window.range"), UNITS_FIG_PCT, rng, sizeof(rng));
    units_format_figure(pct_of(ss, "window.slope_excursion"), UNITS_FIG_PCT, slp, sizeof(slp));
    if (ss && *label && jp_true(jp_at(ss, "stable")))
        fprintf(out, "\n%s (%s) at rounds %.0f-%.0f: average %s%s, range %s, slope "
                "excursion %s\n", label, str(ss, "tracking"),
                jp_path(ss, "window.first_round"), jp_path(ss, "window.last_round"), avg,
                sim ? " (simulated drive)" : "", rng, slp);
    else if (ss && *label)
        fprintf(out, "\n%s (%s) in %zu rounds\n", label, str(ss, "tracking"), nr);
    else if (ss && jp_true(jp_at(ss, "reached")))
        fprintf(out, "\nsteady state (%s) at round %.0f: rounds %.0f-%.0f, average %s, range "
                "%s, slope excursion %s\n", str(ss, "tracking"), jp_path(ss, "round"),
                jp_path(ss, "window.first_round"), jp_path(ss, "window.last_round"), avg, rng,
                slp);
    else if (nr >= 5)
        fprintf(out, "\nsteady state (%s) NOT reached in %zu rounds\n", str(ss, "tracking"), nr);
    if (ss && *label && !jp_true(jp_at(ss, "reached")) && *str(ss, "reason"))
        fprintf(out, "not SNIA steady state: %s\n", str(ss, "reason"));
    if (ss && *str(ss, "guard.lag_basis")) {   /* a lag other than the default (steady.h) */
        char lag[32];
        units_format_figure(jp_path(ss, "guard.lag_fills"), UNITS_FIG_VALUE, lag, sizeof(lag));
        fprintf(out, "fill guard: lag %s fill: %s\n", lag, str(ss, "guard.lag_basis"));
    }
    struct json_object *lw = ss == jp_obj_at(doc, "steady_state") ? jp_obj_at(doc, "last_window")
                                                                  : NULL;   /* the run's */
    if (lw && jp_at(lw, "window")) {
        units_format_figure(jp_path(lw, "window.average"), kind, lavg, sizeof(lavg));
        fprintf(out, "last rounds %.0f-%.0f: average %s%s; %s\n",
                jp_path(lw, "window.first_round"), jp_path(lw, "window.last_round"), lavg,
                sim ? " (simulated drive)" : "", str(lw, "label"));
    }
}

void show_write(FILE *out, struct json_object *doc, unsigned every)
{
    if (!strcmp(str(doc, "schema"), "ptsbench.profile")) {
        show_profile(out, doc);
        return;
    }
    if (!strcmp(str(doc, "schema"), "ptsbench.suite")) {
        show_suite(out, doc);
        return;
    }
    if (!strcmp(str(doc, "schema"), "ptsbench.crosscheck")) {
        show_crosscheck(out, doc);
        return;
    }
    if (!strcmp(str(doc, "schema"), "ptsbench.replay")) {
        show_replay(out, doc);
        return;
    }
    if (!strcmp(str(doc, "schema"), "ptsbench.fleet")) {
        show_fleet(out, doc);
        return;
    }
    char cap[64], st[512], mem[96];
    capacity(doc, cap, sizeof(cap));
    status_text(doc, st, sizeof(st));
    show_memory_label(doc, mem, sizeof(mem));
    fprintf(out, "%s  (%s, %s)%s\n", str(doc, "target.path"), str(doc, "target.kind"), cap, mem);
    if (read_run_multi(doc)) {   /* several jobs: each, with its group */
        fprintf(out, "workload  %u jobs in %u group%s (a group's jobs at once, groups in turn)\n",
                read_run_n_jobs(doc), read_run_n_groups(doc),
                read_run_n_groups(doc) == 1 ? "" : "s");
        for (unsigned j = 0; j < read_run_n_jobs(doc); j++) {
            struct json_object *jo = read_run_job_at(doc, j);
            fprintf(out, "  job %s (group %.0f): %s\n", str(jo, "label"), jp_path(jo, "group"),
                    str(jo, "workload.spec"));
        }
    } else {
        fprintf(out, "workload  %s\n", str(doc, "workload.spec"));
    }
    fprintf(out, "engine    %s, %s; status %s\n", str(doc, "engine.name"),
            str(doc, "engine.clock"), st);
    char place[512];
    if (show_placement_line(doc, place, sizeof(place)))
        fprintf(out, "placement %s\n", place);
    const bool sim = jp_at(doc, "target.simulated") != NULL;
    show_preconditioning(out, doc, sim);
    struct json_object *rounds = jp_arr_at(doc, "rounds");
    show_rounds(out, doc, rounds, every, sim);
    show_tail(out, doc, rounds);
    show_hosts(out, rounds);
    show_verdict(out, doc, jp_len(rounds), sim);
    char health[512];
    health_summary(jp_obj_at(doc, "health"), health, sizeof(health));
    if (health[0])
        fprintf(out, "%s\n", health);
    if (health_warning_summary(jp_obj_at(doc, "health"), rounds, health, sizeof(health)))
        fprintf(out, "%s\n", health);
}

int show_load(const char *arg, struct json_object **doc, char *path, size_t len, char *err,
              size_t errlen)
{
    return read_load(arg, READ_RESULTS | READ_REPLAY | READ_CROSSCHECK | READ_FLEET,
                     READ_VOICE_SHOW, doc, path, len, err, errlen);
}
