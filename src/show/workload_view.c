/* workload_view.c — see workload_view.h. */
#include "show/workload_view.h"

#include <json-c/json.h>
#include <stdio.h>
#include <string.h>

#include "lib/units.h"

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

/* rw's offset modifier and strided zones, in words ("" when neither). */
static void wk_offsets(const struct workload *wl, char *buf, size_t len)
{
    char a[32], b[32], c[32];
    int n = 0;
    buf[0] = '\0';
    units_format_size(wl->seq_add < 0 ? (uint64_t)-wl->seq_add : (uint64_t)wl->seq_add, a,
                      sizeof(a));
    if (wl->seq_add)
        n = snprintf(buf, len, "%s skipped %s after each I/O", a,
                     wl->seq_add < 0 ? "back" : "on");
    else if (wl->seq_nr > 1)
        n = snprintf(buf, len, "a random offset every %u I/Os, the others %s", wl->seq_nr,
                     wl->seq_identical ? "at it" : "sequential after it");
    if (!wl->zone_size || n < 0 || (size_t)n >= len)
        return;
    units_format_size(wl->zone_size, a, sizeof(a));
    units_format_size(wl->zone_range, b, sizeof(b));
    units_format_size(wl->zone_skip, c, sizeof(c));
    snprintf(buf + n, len - (size_t)n, "%sstrided zones: %s in each %s, then %s skipped",
             n ? "; " : "", a, b, c);
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

static void wk_print_job(FILE *out, const struct wl_job *j)
{
    const struct workload *wl = &j->wl;
    char pat[160], bs[400], off[32], size[32], pace[64], round[64];
    wk_pattern(wl, pat, sizeof(pat));
    wk_sizes(wl, bs, sizeof(bs));
    wk_extent(&wl->offset, "0", off, sizeof(off));
    wk_extent(&wl->size, "100.0%", size, sizeof(size));
    wk_pacing(wl, pace, sizeof(pace));
    wk_round(wl, round, sizeof(round));
    fprintf(out, "  job %s\n", j->label);
    fprintf(out, "    workers %u, iodepth %u%s\n", wl->workers, wl->qd,
           wl->sync_engine ? " (a sync engine: one I/O at a time per worker)" : "");
    fprintf(out, "    pattern   %s\n", pat);
    char offs[160];
    wk_offsets(wl, offs, sizeof(offs));
    if (offs[0])
        fprintf(out, "    offsets   %s\n", offs);
    fprintf(out, "    bs        %s\n", bs);
    fprintf(out, "    range     offset %s, size %s\n", off, size);
    fprintf(out, "    pacing    %s\n", pace);
    if (wl->flow) {   /* fio's flow control between jobs (core/flow.h) */
        char nap[32] = "none: a retry";
        if (wl->flow_sleep_ns)
            units_format_figure((double)wl->flow_sleep_ns / 1e3, UNITS_FIG_LAT, nap, sizeof(nap));
        fprintf(out, "    flow      weight %u in flow_id %u, flow_sleep %s\n", wl->flow,
                wl->flow_id, nap);
    }
    fprintf(out, "    round     %s\n", round);
    if (wl->note[0])
        fprintf(out, "    note      %s\n", wl->note);
}

void show_workload(FILE *out, const struct wl_jobset *js, const struct wl_verdicts *v)
{
    if (js->n) {
        fprintf(out, "%s: %u job%s in %u group%s\n", js->source, js->n, js->n == 1 ? "" : "s",
               js->n_groups, js->n_groups == 1 ? "" : "s");
        if (js->note[0])
            fprintf(out, "note: %s\n", js->note);
    }
    for (unsigned g = 0; g < js->n_groups; g++) {
        unsigned first, count;
        wl_jobset_group(js, g, &first, &count);
        fprintf(out, "group %u (%u job%s at once)\n", g + 1, count, count == 1 ? "" : "s");
        for (unsigned i = first; i < first + count; i++)
            wk_print_job(out, &js->jobs[i]);
    }
    if (!v || !v->n)
        return;
    fprintf(out, "keys\n");
    for (unsigned i = 0; i < v->n; i++) {
        const struct wl_verdict *k = &v->v[i];
        fprintf(out, "  %s [%s] %s%s%s: %s%s%s\n", k->where, k->section, k->key,
               k->value[0] ? "=" : "", k->value, take_names[k->take], k->why[0] ? ": " : "",
               k->why);
    }
    if (v->refused)
        fprintf(out, "%u refused: ptsbench would not run %s\n", v->refused, js->source);
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

void show_workload_json(FILE *out, const struct wl_jobset *js, const struct wl_verdicts *v,
                        const char *spec)
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
    fprintf(out, "%s\n", json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY |
                                                 JSON_C_TO_STRING_NOSLASHESCAPE));
    json_object_put(o);
}
