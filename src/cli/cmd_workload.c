/* cmd_workload.c — `ptsbench workload SPEC`: how a workload, above all a fio job file, will be
 * run: per group and job its workers, depth, pattern, block sizes, range, pacing and round;
 * then every line of a fio file with FILE:LINE and how it is taken (honoured, noted, refused),
 * all refusals at once. Nothing is run. */
#include <json-c/json.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "cli/options.h"
#include "io/jobset.h"
#include "lib/units.h"
#include "lib/util.h"

static bool json;

static const struct cli_opt opts[] = {
    {"json", 0, CLI_FLAG, &json, .help = "the same as JSON (ptsbench.workload) on stdout"},
    {0},
};

static void cmd_workload_usage(FILE *f)
{
    fputs("usage: ptsbench workload [--json] FILE.fio[:SECTION] | SPEC | PROFILE\n"
          "\n"
          "Print how a workload will be run, without running it: per group and job the label,\n"
          "workers (numjobs), iodepth, pattern (rw, read share, random share, distribution),\n"
          "block sizes, range, pacing and round length. For a fio job file, then every key it\n"
          "gives, in order, with FILE:LINE and how it is taken: honoured, noted (what fio would\n"
          "have done differently) or refused (why). Takes what run --workload takes.\n"
          "\n",
          f);
    cli_print_options(f, opts);
    fputs("\nExit status: 0 the workload would run, 2 a key or job is refused (each printed)\n"
          "or the spec cannot be read.\n",
          f);
}

static const char *const take_names[] = {"honoured", "noted", "refused"};

/* "randrw, 70% reads, 100% random, zipf 1.2" */
static void wk_pattern(const struct workload *wl, char *buf, size_t len)
{
    char rd[32], rnd[32];
    units_format_figure(wl->read_pct, UNITS_FIG_PCT, rd, sizeof(rd));
    units_format_figure(wl->random_pct, UNITS_FIG_PCT, rnd, sizeof(rnd));
    int n = snprintf(buf, len, "%s, %s reads, %s random", wl->rw, rd, rnd);
    if (n < 0 || (size_t)n >= len || !wl->random_pct)
        return;
    static const char *const dists[] = {"uniform", "zipf", "pareto", "normal"};
    if (wl->n_zones)
        snprintf(buf + n, len - (size_t)n, ", zoned (%u zones)", wl->n_zones);
    else if (wl->dist != WL_DIST_UNIFORM) {
        char p[32];
        units_format_figure(wl->dist_param, UNITS_FIG_VALUE, p, sizeof(p));
        snprintf(buf + n, len - (size_t)n, ", %s %s", dists[wl->dist], p);
    } else
        snprintf(buf + n, len - (size_t)n, ", uniform");
}

static void wk_sizes(const struct workload *wl, char *buf, size_t len)
{
    size_t pos = 0;
    buf[0] = '\0';
    for (unsigned i = 0; i < wl->n_bs && pos < len; i++) {
        char s[32];
        units_format_size(wl->bs[i].size, s, sizeof(s));
        int n = wl->n_bs > 1 ? snprintf(buf + pos, len - pos, "%s%s/%u%%", i ? " " : "", s,
                                        wl->bs[i].weight)
                             : snprintf(buf + pos, len - pos, "%s", s);
        if (n < 0)
            break;
        pos += (size_t)n;
    }
}

static void wk_extent(const struct wl_extent *e, const char *unset, char *buf, size_t len)
{
    if (!e->set) {
        snprintf(buf, len, "%s", unset);
    } else if (e->is_percent) {
        units_format_figure(e->percent, UNITS_FIG_PCT, buf, len);
    } else {
        units_format_size(e->bytes, buf, len);
    }
}

static void wk_pacing(const struct workload *wl, char *buf, size_t len)
{
    char v[32];
    if (wl->rate_iops) {
        units_format_figure(wl->rate_iops, UNITS_FIG_IOPS, v, sizeof(v));
        snprintf(buf, len, "rate_iops %s per worker", v);
    } else if (wl->thinktime_ns) {
        units_format_figure((double)wl->thinktime_ns / 1e3, UNITS_FIG_LAT, v, sizeof(v));
        snprintf(buf, len, "thinktime %s", v);
    } else {
        snprintf(buf, len, "none");
    }
}

static void wk_round(const struct workload *wl, char *buf, size_t len)
{
    char v[32];
    if (wl->round_bytes) {
        units_format_size(wl->round_bytes, v, sizeof(v));
        snprintf(buf, len, "%s per round", v);
    } else if (wl->round_time_ns) {
        units_format_figure((double)wl->round_time_ns / 1e9, UNITS_FIG_VALUE, v, sizeof(v));
        snprintf(buf, len, "%s s", v);
    } else {
        snprintf(buf, len, "the command's (--round-time)");
    }
}

static void wk_print_job(const struct wl_job *j)
{
    const struct workload *wl = &j->wl;
    char pat[160], bs[400], off[32], size[32], pace[64], round[64];
    wk_pattern(wl, pat, sizeof(pat));
    wk_sizes(wl, bs, sizeof(bs));
    wk_extent(&wl->offset, "0", off, sizeof(off));
    wk_extent(&wl->size, "100.0%", size, sizeof(size));
    wk_pacing(wl, pace, sizeof(pace));
    wk_round(wl, round, sizeof(round));
    printf("  job %s\n", j->label);
    printf("    workers %u, iodepth %u%s\n", wl->workers, wl->qd,
           wl->sync_engine ? " (a sync engine: one I/O at a time per worker)" : "");
    printf("    pattern   %s\n", pat);
    printf("    bs        %s\n", bs);
    printf("    range     offset %s, size %s\n", off, size);
    printf("    pacing    %s\n", pace);
    printf("    round     %s\n", round);
    if (wl->note[0])
        printf("    note      %s\n", wl->note);
}

static void wk_print(const struct wl_jobset *js, const struct wl_verdicts *v)
{
    if (js->n) {
        printf("%s: %u job%s in %u group%s\n", js->source, js->n, js->n == 1 ? "" : "s",
               js->n_groups, js->n_groups == 1 ? "" : "s");
        if (js->note[0])
            printf("note: %s\n", js->note);
    }
    for (unsigned g = 0; g < js->n_groups; g++) {
        unsigned first, count;
        wl_jobset_group(js, g, &first, &count);
        printf("group %u (%u job%s at once)\n", g + 1, count, count == 1 ? "" : "s");
        for (unsigned i = first; i < first + count; i++)
            wk_print_job(&js->jobs[i]);
    }
    if (!v || !v->n)
        return;
    printf("keys\n");
    for (unsigned i = 0; i < v->n; i++) {
        const struct wl_verdict *k = &v->v[i];
        printf("  %s [%s] %s%s%s: %s%s%s\n", k->where, k->section, k->key,
               k->value[0] ? "=" : "", k->value, take_names[k->take], k->why[0] ? ": " : "",
               k->why);
    }
    if (v->refused)
        printf("%u refused: ptsbench would not run %s\n", v->refused, js->source);
}

static json_object *wk_json_job(const struct wl_job *j)
{
    const struct workload *wl = &j->wl;
    json_object *o = json_object_new_object(), *bs = json_object_new_array();
    json_object_object_add(o, "label", json_object_new_string(j->label));
    json_object_object_add(o, "group", json_object_new_int((int)j->group));
    json_object_object_add(o, "workers", json_object_new_int((int)wl->workers));
    json_object_object_add(o, "iodepth", json_object_new_int((int)wl->qd));
    json_object_object_add(o, "sync_engine", json_object_new_boolean(wl->sync_engine));
    json_object_object_add(o, "rw", json_object_new_string(wl->rw));
    json_object_object_add(o, "read_pct", json_object_new_int((int)wl->read_pct));
    json_object_object_add(o, "random_pct", json_object_new_int((int)wl->random_pct));
    for (unsigned i = 0; i < wl->n_bs; i++) {
        json_object *b = json_object_new_object();
        json_object_object_add(b, "size", json_object_new_int64(wl->bs[i].size));
        json_object_object_add(b, "weight", json_object_new_int((int)wl->bs[i].weight));
        json_object_array_add(bs, b);
    }
    json_object_object_add(o, "bs", bs);
    json_object_object_add(o, "rate_iops", json_object_new_int64(wl->rate_iops));
    json_object_object_add(o, "thinktime_ns", json_object_new_int64((int64_t)wl->thinktime_ns));
    json_object_object_add(o, "round_time_ns",
                           json_object_new_int64((int64_t)wl->round_time_ns));
    json_object_object_add(o, "round_bytes", json_object_new_int64((int64_t)wl->round_bytes));
    json_object_object_add(o, "source", json_object_new_string(wl->source));
    json_object_object_add(o, "note", json_object_new_string(wl->note));
    return o;
}

static void wk_json(const struct wl_jobset *js, const struct wl_verdicts *v, const char *spec)
{
    json_object *o = json_object_new_object(), *jobs = json_object_new_array(),
                *keys = json_object_new_array();
    json_object_object_add(o, "schema", json_object_new_string("ptsbench.workload"));
    json_object_object_add(o, "spec", json_object_new_string(spec));
    json_object_object_add(o, "runs", json_object_new_boolean(!v || !v->refused));
    json_object_object_add(o, "groups", json_object_new_int((int)js->n_groups));
    json_object_object_add(o, "note", json_object_new_string(js->note));
    for (unsigned i = 0; i < js->n; i++)
        json_object_array_add(jobs, wk_json_job(&js->jobs[i]));
    json_object_object_add(o, "jobs", jobs);
    for (unsigned i = 0; v && i < v->n; i++) {
        json_object *k = json_object_new_object();
        json_object_object_add(k, "where", json_object_new_string(v->v[i].where));
        json_object_object_add(k, "section", json_object_new_string(v->v[i].section));
        json_object_object_add(k, "key", json_object_new_string(v->v[i].key));
        json_object_object_add(k, "value", json_object_new_string(v->v[i].value));
        json_object_object_add(k, "take", json_object_new_string(take_names[v->v[i].take]));
        json_object_object_add(k, "why", json_object_new_string(v->v[i].why));
        json_object_array_add(keys, k);
    }
    json_object_object_add(o, "keys", keys);
    puts(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE));
    json_object_put(o);
}

static bool wk_is_fio(const char *path)
{
    size_t n = strlen(path);
    struct stat st;
    return n > 4 && !strcmp(path + n - 4, ".fio") && stat(path, &st) == 0 &&
           S_ISREG(st.st_mode);
}

/* A fio file (FILE or FILE:SECTION): its jobs and every line's verdict. 0, 1 refused, -1. */
static int wk_fio(const char *spec, struct wl_jobset *js, struct wl_verdicts *v, bool *is_fio,
                  char *err, size_t errlen)
{
    char *base = xstrdup(spec), *colon = strrchr(base, ':');
    const char *section = NULL;
    *is_fio = wk_is_fio(base);
    if (!*is_fio && colon && colon[1]) {
        *colon = '\0';
        section = colon + 1;
        *is_fio = wk_is_fio(base);
    }
    int rc = *is_fio ? wl_fio_verdicts(base, section, js, v, err, errlen) : 0;
    if (*is_fio && rc >= 0)
        snprintf(js->source, sizeof(js->source), "%s", spec);
    if (rc > 0)
        snprintf(js->note + strlen(js->note), sizeof(js->note) - strlen(js->note),
                 "%sas read, refused keys left out: it would not run", js->note[0] ? "; " : "");
    free(base);
    return rc;
}

int cmd_workload(int argc, char **argv, int full_argc, char **full_argv)
{
    (void)full_argc;
    (void)full_argv;
    const char *pos[2];
    unsigned n_pos = 0;
    int prc = cli_parse("workload", opts, argc, argv, pos, &n_pos, 2, cmd_workload_usage);
    if (prc != CLI_GO)
        return prc == CLI_DONE ? EXIT_OK : EXIT_USAGE;
    if (n_pos != 1) {
        cmd_workload_usage(stderr);
        return EXIT_USAGE;
    }
    struct wl_jobset js;
    struct wl_verdicts v = {0};
    char err[1024];
    bool is_fio;
    int rc = wk_fio(pos[0], &js, &v, &is_fio, err, sizeof(err));
    if (!is_fio)
        rc = wl_resolve_jobs(pos[0], cli_data_dirs("profiles"), &js, err, sizeof(err));
    if (rc < 0) {
        fprintf(stderr, "ptsbench workload: %s\n", err);
        return EXIT_USAGE;
    }
    if (json)
        wk_json(&js, is_fio ? &v : NULL, pos[0]);
    else
        wk_print(&js, is_fio ? &v : NULL);
    wl_jobset_free(&js);
    wl_verdicts_free(&v);
    return rc ? EXIT_USAGE : EXIT_OK;
}
