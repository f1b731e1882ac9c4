/* export.c — a results document as one table: CSV, TSV or JSON lines (see export.h and
 * docs/export.md for the columns). */
#include "show/export.h"

#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/json_path.h"
#include "lib/util.h"
#include "stats/hist.h"
#include "read/jobs.h"
#include "read/load.h"

/* The identifying columns, in order (docs/export.md says what each holds). */
static const char *const id_cols[] = {
    "schema",  "record",     "test",   "subtest",      "engine",   "workload",
    "repeat",  "round",      "phase",  "point",        "rwmix_read", "bs",
    "workers", "qd",         "compress_pct", "window_first_round", "window_last_round",
    "steady",  "measured_state", "condition", "written_fills", "wdpc_fills", "simulated",
};
#define N_ID (sizeof(id_cols) / sizeof(id_cols[0]))

/* --histogram: "record" is "histogram_bucket", "of" the record the bucket is of (a record
 * name of the figures table), "direction" read, write, trim or total. */
static const char *const hist_cols[] = {
    "schema",  "record",    "of",        "test",          "subtest",    "round", "point",
    "rwmix_read", "bs",     "workers",   "qd",            "condition", "written_fills",
    "wdpc_fills", "simulated", "direction", "low_us", "high_us", "count",
};
#define N_HIST (sizeof(hist_cols) / sizeof(hist_cols[0]))

/* The directions' columns, in order; "trim" only when a record issued trims (dirs_of). */
static const char *const all_dirs[] = {"read", "write", "trim", "total"};
#define N_DIRS (sizeof(all_dirs) / sizeof(all_dirs[0]))
static const char *const dir_keys[] = {"ios", "bytes", "iops", "mb_s", "mib_s"};
static const char *const lat_keys[][2] = {
    {"count", "lat_count"}, {"min", "lat_min_us"}, {"mean", "lat_mean_us"}, {"max", "lat_max_us"}};

struct rec {
    struct json_object *row;   /* the identifying columns (owned) */
    struct json_object *fig;   /* the record holding read/write/total (borrowed) */
};

struct table {
    struct rec *r;
    size_t n, cap;
    const char *schema;
    bool sim;
};

/* A scalar of the document (number, string, boolean) into the row; anything else is absent. */
static void put(struct json_object *row, const char *col, struct json_object *v)
{
    if (!v)
        return;
    enum json_type t = json_object_get_type(v);
    if (t == json_type_double || t == json_type_int || t == json_type_string ||
        t == json_type_boolean)
        json_object_object_add(row, col, json_object_get(v));
}

static void put_str(struct json_object *row, const char *col, const char *s)
{
    if (s && *s)
        json_object_object_add(row, col, json_object_new_string(s));
}

static struct json_object *new_row(struct table *t, const char *record)
{
    struct json_object *row = json_object_new_object();
    put_str(row, "schema", t->schema);
    put_str(row, "record", record);
    json_object_object_add(row, "simulated", json_object_new_boolean(t->sim));
    return row;
}

static void add(struct table *t, struct json_object *row, struct json_object *fig)
{
    if (t->n == t->cap) {
        t->cap = t->cap ? 2 * t->cap : 64;
        t->r = xrealloc(t->r, t->cap * sizeof(*t->r));
    }
    t->r[t->n++] = (struct rec){row, fig};
}

static void put_state(struct json_object *row, struct json_object *st)
{
    put(row, "condition", jp_at(st, "condition"));
    put(row, "written_fills", jp_at(st, "written_fills"));
    put(row, "wdpc_fills", jp_at(st, "wdpc_fills"));
}

/* ---- the records of each schema ---- */

/* A run of several jobs (read/jobs.h): each round's group row ("subtest" names the group; no
 * one workload), then a row per job ("run_job": "point" its label, its own workload). */
static void run_job_rows(struct table *t, struct json_object *doc)
{
    struct json_object *rounds = jp_arr_at(doc, "rounds");
    for (size_t i = 0; i < jp_len(rounds); i++) {
        struct json_object *r = jp_idx(rounds, i);
        char group[32];
        snprintf(group, sizeof(group), "group %.0f", jp_path(r, "group"));
        struct json_object *row = new_row(t, "run_round");
        put(row, "engine", jp_at(doc, "engine.name"));
        put_str(row, "subtest", group);
        put(row, "round", jp_at(r, "round"));
        put(row, "phase", jp_at(r, "phase"));
        put_state(row, jp_obj_at(r, "state"));
        add(t, row, r);
        struct json_object *jobs = jp_arr_at(r, "jobs");
        for (size_t j = 0; j < jp_len(jobs); j++) {
            struct json_object *jr = jp_idx(jobs, j);
            struct json_object *wl = jp_obj_at(read_run_job(doc, jp_str(jr, "label")), "workload");
            struct json_object *bss = jp_arr_at(wl, "block_sizes");
            row = new_row(t, "run_job");
            put(row, "engine", jp_at(doc, "engine.name"));
            put_str(row, "subtest", group);
            put(row, "point", jp_at(jr, "label"));
            put(row, "workload", jp_at(wl, "spec"));
            put(row, "round", jp_at(r, "round"));
            put(row, "phase", jp_at(r, "phase"));
            put(row, "rwmix_read", jp_at(wl, "read_pct"));
            if (jp_len(bss) == 1)
                put(row, "bs", jp_at(jp_idx(bss, 0), "bytes"));
            put(row, "workers", jp_at(wl, "workers"));
            put(row, "qd", jp_at(wl, "qd"));
            put(row, "compress_pct", jp_at(wl, "compress_pct"));
            put_state(row, jp_obj_at(r, "state"));
            add(t, row, jr);
        }
    }
}

/* A remote run (fio client/server): after a round's row, a row per host that carries the
 * figures object ("run_host": "point" the host; results before it had only flat keys: none),
 * its identifying columns the round's. */
static void host_rows(struct table *t, struct json_object *round_row, struct json_object *r)
{
    struct json_object *hosts = jp_arr_at(r, "hosts");
    for (size_t h = 0; h < jp_len(hosts); h++) {
        struct json_object *ho = jp_idx(hosts, h);
        if (!jp_obj_at(ho, "total"))
            continue;
        struct json_object *row = json_object_new_object();
        json_object_object_foreach(round_row, k, v)
            json_object_object_add(row, k, json_object_get(v));
        json_object_object_add(row, "record", json_object_new_string("run_host"));
        /* the round's drive state is the aggregate's bytes over one --size: not a host's */
        json_object_object_del(row, "condition");
        json_object_object_del(row, "written_fills");
        json_object_object_del(row, "wdpc_fills");
        put(row, "point", jp_at(ho, "host"));
        add(t, row, ho);
    }
}

static void run_rows(struct table *t, struct json_object *doc)
{
    if (read_run_multi(doc)) {
        run_job_rows(t, doc);
        return;
    }
    struct json_object *bss = jp_arr_at(doc, "workload.block_sizes");
    struct json_object *rounds = jp_arr_at(doc, "rounds");
    for (size_t i = 0; i < jp_len(rounds); i++) {
        struct json_object *r = jp_idx(rounds, i);
        struct json_object *row = new_row(t, "run_round");
        put(row, "engine", jp_at(doc, "engine.name"));
        put(row, "workload", jp_at(doc, "workload.spec"));
        put(row, "round", jp_at(r, "round"));
        put(row, "phase", jp_at(r, "phase"));
        put(row, "rwmix_read", jp_at(doc, "workload.read_pct"));
        if (jp_len(bss) == 1)   /* a mix of sizes has no one block size */
            put(row, "bs", jp_at(jp_idx(bss, 0), "bytes"));
        put(row, "workers", jp_at(doc, "workload.workers"));
        put(row, "qd", jp_at(doc, "workload.qd"));
        put(row, "compress_pct", jp_at(doc, "workload.compress_pct"));
        put_state(row, jp_obj_at(r, "state"));
        add(t, row, r);
        host_rows(t, row, r);
    }
}

static void suite_rows(struct table *t, struct json_object *doc)
{
    static const char *const ops[] = {"max", "mid", "min"};
    struct json_object *tests = jp_arr_at(doc, "tests");
    for (size_t i = 0; i < jp_len(tests); i++) {
        struct json_object *te = jp_idx(tests, i);
        struct json_object *subs = jp_arr_at(te, "subtests");
        for (size_t j = 0; j < jp_len(subs); j++) {
            struct json_object *s = jp_idx(subs, j);
            struct json_object *ss = jp_obj_at(s, "steady_state");
            /* a window is steady only where the test's own rule said so; WSAT claims none */
            struct json_object *steady = json_object_new_boolean(jp_true(jp_at(ss, "reached")));
            {
                struct json_object *rounds = jp_arr_at(s, "rounds");
                for (size_t k = 0; k < jp_len(rounds); k++) {
                    struct json_object *rd = jp_idx(rounds, k);
                    struct json_object *els = jp_arr_at(rd, "elements");
                    for (size_t e = 0; e < jp_len(els); e++) {
                        struct json_object *el = jp_idx(els, e);
                        struct json_object *row = new_row(t, "suite_element");
                        put(row, "test", jp_at(te, "name"));
                        put(row, "subtest", jp_at(s, "label"));
                        put(row, "engine", jp_at(doc, "engine.name"));
                        put(row, "round", jp_at(rd, "round"));
                        put(row, "rwmix_read", jp_at(el, "rwmix_read"));
                        put(row, "bs", jp_at(el, "bs"));
                        put(row, "workers", jp_at(te, "threads"));
                        put(row, "qd", jp_at(te, "qd"));
                        put_state(row, jp_obj_at(el, "state"));
                        add(t, row, el);
                    }
                }
                struct json_object *tab = jp_obj_at(s, "table");
                struct json_object *rows = jp_arr_at(tab, "rows");
                for (size_t k = 0; k < jp_len(rows); k++) {
                    struct json_object *tr = jp_idx(rows, k);
                    struct json_object *row = new_row(t, "suite_table");
                    put(row, "test", jp_at(te, "name"));
                    put(row, "subtest", jp_at(s, "label"));
                    put(row, "engine", jp_at(doc, "engine.name"));
                    put(row, "rwmix_read", jp_at(tr, "rwmix_read"));
                    put(row, "bs", jp_at(tr, "bs"));
                    put(row, "workers", jp_at(te, "threads"));
                    put(row, "qd", jp_at(te, "qd"));
                    put(row, "window_first_round", jp_at(tab, "first_round"));
                    put(row, "window_last_round", jp_at(tab, "last_round"));
                    put(row, "steady", steady);
                    put_state(row, jp_obj_at(s, "state"));
                    add(t, row, tr);
                }
            }
            struct json_object *op = jp_obj_at(s, "operating_points");
            for (int k = 0; op && k < 3; k++) {
                struct json_object *p = jp_obj_at(op, ops[k]);
                if (!p)
                    continue;
                struct json_object *base = new_row(t, "dirth_point");
                put(base, "test", jp_at(te, "name"));
                put(base, "subtest", jp_at(s, "label"));
                put_str(base, "point", ops[k]);
                put(base, "workers", jp_at(p, "threads"));
                put(base, "qd", jp_at(p, "qd"));
                put_state(base, jp_obj_at(s, "state"));
                put(base, "engine", jp_at(doc, "engine.name"));
                put(base, "steady", steady);
                add(t, base, p);
            }
            json_object_put(steady);
        }
    }
}

/* A profile point's identifying columns. */
static void profile_ids(struct json_object *row, struct json_object *doc, struct json_object *p)
{
    put(row, "test", jp_at(p, "profile"));
    put(row, "subtest", jp_at(p, "workload"));
    put(row, "engine", jp_at(doc, "engine.name"));
    put(row, "workload", jp_at(p, "spec"));
    put(row, "point", jp_at(p, "index"));
    put(row, "workers", jp_at(p, "workers"));
    put(row, "qd", jp_at(p, "qd"));
    put(row, "compress_pct", jp_at(p, "compress_pct"));
}

/* rounds: each point's rounds too ("profile_round"; --histogram) */
static void profile_rows(struct table *t, struct json_object *doc, bool rounds)
{
    struct json_object *pts = jp_arr_at(doc, "points");
    for (size_t i = 0; i < jp_len(pts); i++) {
        struct json_object *p = jp_idx(pts, i);
        struct json_object *rr = jp_arr_at(p, "rounds");
        for (size_t k = 0; rounds && k < jp_len(rr); k++) {
            struct json_object *row = new_row(t, "profile_round");
            profile_ids(row, doc, p);
            put(row, "round", jp_at(jp_idx(rr, k), "round"));
            put(row, "phase", jp_at(jp_idx(rr, k), "phase"));
            put_state(row, jp_obj_at(jp_idx(rr, k), "state"));
            add(t, row, jp_idx(rr, k));
        }
        struct json_object *res = jp_obj_at(p, "result");
        if (!res)
            continue;
        struct json_object *row = new_row(t, "profile_point");
        profile_ids(row, doc, p);
        put(row, "window_first_round", jp_at(res, "rounds.0"));
        put(row, "window_last_round", jp_at(res, "rounds.1"));
        json_object_object_add(row, "steady", json_object_new_boolean(jp_true(jp_at(res,
                                                                                  "steady"))));
        put(row, "measured_state", jp_at(res, "measured_state"));
        put_state(row, jp_obj_at(p, "state"));
        add(t, row, res);
    }
}

static void crosscheck_rows(struct table *t, struct json_object *doc)
{
    struct json_object *runs = jp_arr_at(doc, "runs");
    for (size_t i = 0; i < jp_len(runs); i++) {
        struct json_object *r = jp_idx(runs, i);
        struct json_object *rd = jp_obj_at(r, "round");
        struct json_object *row = new_row(t, "crosscheck_run");
        put(row, "engine", jp_at(r, "engine"));
        put(row, "workload", jp_at(doc, "workload"));
        put(row, "repeat", jp_at(r, "repeat"));
        put(row, "round", jp_at(rd, "round"));
        put(row, "phase", jp_at(rd, "phase"));
        put_state(row, jp_obj_at(rd, "state"));
        add(t, row, rd);
    }
}

/* A replay: one row per pass ("round" its number) and one for all passes. */
static void replay_rows(struct table *t, struct json_object *doc)
{
    struct json_object *passes = jp_arr_at(doc, "passes");
    for (size_t i = 0; i < jp_len(passes); i++) {
        struct json_object *p = jp_idx(passes, i);
        struct json_object *row = new_row(t, "replay_pass");
        put(row, "engine", jp_at(doc, "engine.name"));
        put(row, "workload", jp_at(doc, "trace.source"));
        put(row, "round", jp_at(p, "pass"));
        put(row, "qd", jp_at(doc, "replay.queue_depth"));
        put(row, "compress_pct", jp_at(doc, "replay.compress_pct"));
        add(t, row, p);
    }
    struct json_object *total = jp_obj_at(doc, "total");
    if (total) {
        struct json_object *row = new_row(t, "replay_total");
        put(row, "engine", jp_at(doc, "engine.name"));
        put(row, "workload", jp_at(doc, "trace.source"));
        put(row, "qd", jp_at(doc, "replay.queue_depth"));
        put(row, "compress_pct", jp_at(doc, "replay.compress_pct"));
        add(t, row, total);
    }
}

/* A fleet (one command on several targets): its aggregate, one row per round or pass ("point"
 * names the targets' labels, joined by "+"). */
static void fleet_rows(struct table *t, struct json_object *doc)
{
    struct json_object *agg = jp_obj_at(doc, "aggregate");
    const bool passes = jp_arr_at(agg, "passes") != NULL;
    struct json_object *rows = jp_arr_at(agg, passes ? "passes" : "rounds");
    struct json_object *tg = jp_arr_at(doc, "targets");
    char labels[512] = "";
    for (size_t i = 0, at = 0; i < jp_len(tg) && at < sizeof(labels); i++)
        at += (size_t)snprintf(labels + at, sizeof(labels) - at, "%s%s", i ? "+" : "",
                               jp_str(jp_idx(tg, i), "label") ? jp_str(jp_idx(tg, i), "label")
                                                              : "?");
    for (size_t i = 0; i < jp_len(rows); i++) {
        struct json_object *r = jp_idx(rows, i);
        struct json_object *row = new_row(t, "fleet_round");
        put(row, "test", jp_at(doc, "command"));
        put_str(row, "point", labels);
        put(row, "round", jp_at(r, passes ? "pass" : "round"));
        add(t, row, r);
    }
}

/* ---- --histogram: every record's buckets ---- */

/* A bound in µs, written with 10 significant digits (a bucket's bound is an integer of ns
 * divided by the weight: its binary tail says nothing). */
static struct json_object *us_json(double v)
{
    char b[32];
    snprintf(b, sizeof(b), "%.10g", v);
    return json_object_new_double_s(v, b);
}

/* The bucket rows of record r into out: from its lat_hist (run rounds and jobs, suite elements
 * and table rows, profile rounds and results, fleet rounds), per direction, a bucket's bounds
 * hist_bucket_low .. hist_bucket_high ns / weight in µs; or from a DIRTH/CBW operating point's
 * "histogram" ([low_us, high_us, count], every I/O: direction total). */
static void hist_rows(struct table *out, const struct rec *r)
{
    static const char *const dirs[] = {"read", "write", "trim"};
    struct json_object *lh = jp_obj_at(r->fig, "lat_hist");
    struct json_object *op = jp_arr_at(r->fig, "histogram.buckets");
    const double w = jp_num(lh, "weight");
    for (int d = 0; d < 4; d++) {
        struct json_object *a = d < 3 ? jp_arr_at(lh, dirs[d]) : op;
        const bool pairs = d < 3;
        if (!a || (pairs && (!(w > 0) || jp_num(lh, "sub_bits") != HIST_SUB_BITS)))
            continue;
        for (size_t i = 0; i + (pairs ? 1 : 0) < jp_len(a); i += pairs ? 2 : 1) {
            struct json_object *row = NULL;
            json_object_deep_copy(r->row, &row, NULL);
            json_object_object_add(row, "of", json_object_get(jp_get(row, "record")));
            json_object_object_add(row, "record", json_object_new_string("histogram_bucket"));
            put_str(row, "direction", d < 3 ? dirs[d] : "total");
            if (pairs) {
                const double b = jp_number(jp_idx(a, i));
                if (!(b >= 0 && b < HIST_NBUCKETS)) {
                    json_object_put(row);
                    continue;
                }
                json_object_object_add(row, "low_us",
                                       us_json((double)hist_bucket_low((unsigned)b) / 1000.0 / w));
                json_object_object_add(row, "high_us",
                                       us_json((double)hist_bucket_high((unsigned)b) / 1000.0 / w));
                put(row, "count", jp_idx(a, i + 1));
            } else {
                struct json_object *bk = jp_idx(a, i);
                put(row, "low_us", jp_idx(bk, 0));
                put(row, "high_us", jp_idx(bk, 1));
                put(row, "count", jp_idx(bk, 2));
            }
            add(out, row, NULL);
        }
    }
}

/* t's records replaced by their buckets' rows. */
static void hist_expand(struct table *t)
{
    struct table out = {.schema = t->schema, .sim = t->sim};
    for (size_t i = 0; i < t->n; i++) {
        hist_rows(&out, &t->r[i]);
        json_object_put(t->r[i].row);
    }
    free(t->r);
    *t = out;
}

/* ---- percentiles ---- */

struct pcts {
    const char *key[64];
    double v[64];
    unsigned n;
};

static void pcts_collect(struct pcts *p, struct json_object *lat)
{
    struct json_object *pc = jp_obj_at(lat, "percentiles");
    if (!pc)
        return;
    json_object_object_foreach(pc, k, val)
    {
        (void)val;
        char *end;
        double v = strtod(k, &end);
        if (*end || !isfinite(v))
            continue;
        unsigned i = 0;
        while (i < p->n && p->v[i] != v)
            i++;
        if (i < p->n || p->n == 64)
            continue;
        unsigned at = p->n++;   /* kept in numeric order */
        while (at && p->v[at - 1] > v) {
            p->v[at] = p->v[at - 1];
            p->key[at] = p->key[at - 1];
            at--;
        }
        p->v[at] = v;
        p->key[at] = k;
    }
}

/* The columns asked for: each named percentile must be one the document holds. */
static int pcts_choose(const struct pcts *have, const struct export_opts *o, struct pcts *use,
                       const char *file, char *err, size_t errlen)
{
    if (!o->n_pct) {
        *use = *have;
        return 0;
    }
    use->n = 0;
    for (unsigned i = 0; i < o->n_pct; i++) {
        char *end;
        double v = strtod(o->pct[i], &end);
        unsigned k = 0;
        while (*end == 0 && k < have->n && have->v[k] != v)
            k++;
        if (*end || k == have->n) {
            char list[512] = "";
            size_t at = 0;
            for (unsigned j = 0; j < have->n && at < sizeof(list); j++)
                at += (size_t)snprintf(list + at, sizeof(list) - at, "%s%s", j ? ", " : "",
                                       have->key[j]);
            if (*end)
                return errf(err, errlen, "--percentiles %s: not a number", o->pct[i]);
            return errf(err, errlen, "--percentiles %s: %s does not record it (it holds %s)",
                        o->pct[i], file, have->n ? list : "no percentiles");
        }
        use->key[use->n] = have->key[k];
        use->v[use->n++] = v;
    }
    return 0;
}

/* ---- writing ---- */

static const char *text_of(struct json_object *v, char *buf, size_t len)
{
    if (!v)
        return "";
    switch (json_object_get_type(v)) {
    case json_type_string:
        return json_object_get_string(v);
    case json_type_boolean:
        return json_object_get_boolean(v) ? "true" : "false";
    case json_type_double:
    case json_type_int:
        str_copy(buf, len, json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN));
        return buf;
    default:
        return "";
    }
}

size_t export_csv_field(const char *in, char *out, size_t len)
{
    const bool quote = strpbrk(in, ",\"\r\n") != NULL;
    size_t n = 0;
#define EMIT(c)                                                                              \
    do {                                                                                     \
        if (n + 1 < len)                                                                     \
            out[n] = (c);                                                                    \
        n++;                                                                                 \
    } while (0)
    if (quote)
        EMIT('"');
    for (const char *c = in; *c; c++) {
        if (*c == '"')
            EMIT('"');
        EMIT(*c);
    }
    if (quote)
        EMIT('"');
#undef EMIT
    if (len)
        out[n < len ? n : len - 1] = 0;
    return n;
}

static void field(FILE *f, enum export_format fmt, bool first, const char *s)
{
    if (!first)
        fputc(fmt == EXPORT_CSV ? ',' : '\t', f);
    if (fmt == EXPORT_CSV) {
        size_t need = export_csv_field(s, NULL, 0);
        char *q = xcalloc(need + 1, 1);
        export_csv_field(s, q, need + 1);
        fputs(q, f);
        free(q);
        return;
    }
    for (const char *c = s; *c; c++)   /* TSV: no tab or line break inside a field */
        fputc(*c == '\t' || *c == '\r' || *c == '\n' ? ' ' : *c, f);
}

static void write_table(FILE *f, enum export_format fmt, const char *const *cols, size_t nc,
                        const struct table *t)
{
    const char *eol = fmt == EXPORT_CSV ? "\r\n" : "\n";
    if (fmt != EXPORT_JSONL) {
        for (size_t c = 0; c < nc; c++)
            field(f, fmt, c == 0, cols[c]);
        fputs(eol, f);
    }
    for (size_t i = 0; i < t->n; i++) {
        struct json_object *row = t->r[i].row;
        if (fmt == EXPORT_JSONL) {
            struct json_object *o = json_object_new_object();
            for (size_t c = 0; c < nc; c++) {
                struct json_object *v = jp_get(row, cols[c]);
                json_object_object_add(o, cols[c], v ? json_object_get(v) : NULL);
            }
            fputs(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN |
                                                        JSON_C_TO_STRING_NOSLASHESCAPE), f);
            fputs("\n", f);
            json_object_put(o);
            continue;
        }
        for (size_t c = 0; c < nc; c++) {
            char buf[64];
            field(f, fmt, c == 0, text_of(jp_get(row, cols[c]), buf, sizeof(buf)));
        }
        fputs(eol, f);
    }
}

/* The directions of t's records: read, write, trim when any record holds a "trim" object
 * (results without trims keep the columns they always had), total. Returns how many. */
static size_t dirs_of(const struct table *t, const char *dirs[N_DIRS])
{
    bool trim = false;
    for (size_t i = 0; i < t->n && !trim; i++)
        trim = read_rec_has_trim(t->r[i].fig);
    size_t n = 0;
    for (size_t d = 0; d < N_DIRS; d++)
        if (trim || strcmp(all_dirs[d], "trim"))
            dirs[n++] = all_dirs[d];
    return n;
}

/* The figure columns after the identifying ones, per direction: dir_keys, lat_keys, the
 * percentiles asked for (every recorded one when none); then each row's figures. *cols gets
 * every column's name (malloc'd). 0, or -1 with one line (a percentile not recorded). */
static int figure_columns(struct table *t, const struct export_opts *o, const char *file,
                          char ***cols_out, size_t *nc_out, char *err, size_t errlen)
{
    const char *dirs[N_DIRS];
    const size_t nd = dirs_of(t, dirs);
    struct pcts have = {0}, use = {0};
    for (size_t i = 0; i < t->n; i++)
        for (size_t d = 0; d < nd; d++)
            pcts_collect(&have, jp_obj_at(jp_obj_at(t->r[i].fig, dirs[d]), "lat_us"));
    if (pcts_choose(&have, o, &use, file, err, errlen) != 0)
        return -1;
    const size_t per_dir = sizeof(dir_keys) / sizeof(dir_keys[0]) +
                           sizeof(lat_keys) / sizeof(lat_keys[0]) + use.n;
    char **cols = xcalloc(N_ID + nd * per_dir, sizeof(*cols));
    size_t nc = 0;
    for (size_t c = 0; c < N_ID; c++)
        cols[nc++] = xstrdup(id_cols[c]);
    for (size_t d = 0; d < nd; d++) {
        char name[96];
        for (size_t k = 0; k < sizeof(dir_keys) / sizeof(dir_keys[0]); k++) {
            snprintf(name, sizeof(name), "%s_%s", dirs[d], dir_keys[k]);
            cols[nc++] = xstrdup(name);
        }
        for (size_t k = 0; k < sizeof(lat_keys) / sizeof(lat_keys[0]); k++) {
            snprintf(name, sizeof(name), "%s_%s", dirs[d], lat_keys[k][1]);
            cols[nc++] = xstrdup(name);
        }
        for (unsigned k = 0; k < use.n; k++) {
            snprintf(name, sizeof(name), "%s_lat_p%s_us", dirs[d], use.key[k]);
            cols[nc++] = xstrdup(name);
        }
    }
    /* the figures, now that the columns are known */
    for (size_t i = 0; i < t->n; i++) {
        struct json_object *row = t->r[i].row;
        size_t c = N_ID;
        for (size_t d = 0; d < nd; d++) {
            struct json_object *dj = jp_obj_at(t->r[i].fig, dirs[d]);
            struct json_object *lat = jp_obj_at(dj, "lat_us");
            for (size_t k = 0; k < sizeof(dir_keys) / sizeof(dir_keys[0]); k++)
                put(row, cols[c++], jp_get(dj, dir_keys[k]));
            for (size_t k = 0; k < sizeof(lat_keys) / sizeof(lat_keys[0]); k++)
                put(row, cols[c++], jp_get(lat, lat_keys[k][0]));
            struct json_object *pc = jp_obj_at(lat, "percentiles");
            for (unsigned k = 0; k < use.n; k++)
                put(row, cols[c++], jp_get(pc, use.key[k]));
        }
    }
    *cols_out = cols;
    *nc_out = nc;
    return 0;
}

int export_table(struct json_object *doc, const char *file, const struct export_opts *o,
                 char **text, size_t *len, char *err, size_t errlen)
{
    *text = NULL;
    *len = 0;
    struct table t = {0};
    t.schema = jp_str(doc, "schema");
    if (!t.schema)
        return errf(err, errlen, "%s: no schema", file);
    const char *kind = jp_str(doc, "target.kind");
    const char *path = jp_str(doc, "target.path");
    const char *xc_target = jp_str(doc, "target");   /* crosscheck: the path itself */
    t.sim = jp_at(doc, "target.simulated") != NULL || (kind && !strcmp(kind, "simulated")) ||
            (path && !strncmp(path, "sim:", 4)) || (xc_target && !strncmp(xc_target, "sim:", 4));
    if (!strcmp(t.schema, "ptsbench.run"))
        run_rows(&t, doc);
    else if (!strcmp(t.schema, "ptsbench.suite"))
        suite_rows(&t, doc);
    else if (!strcmp(t.schema, "ptsbench.profile"))
        profile_rows(&t, doc, o->histogram);
    else if (!strcmp(t.schema, "ptsbench.crosscheck"))
        crosscheck_rows(&t, doc);
    else if (!strcmp(t.schema, "ptsbench.replay"))
        replay_rows(&t, doc);
    else if (!strcmp(t.schema, "ptsbench.fleet"))
        fleet_rows(&t, doc);
    else
        return errf(err, errlen, "%s: schema '%s' is not one export knows", file, t.schema);
    int rc = 0;
    char **cols = NULL;
    size_t nc = 0;
    if (o->histogram) {
        hist_expand(&t);
        if (!t.n) {
            rc = errf(err, errlen, "%s: holds no latency histogram (results written before "
                      "the records kept lat_hist, and DIRTH/CBW operating points' before "
                      "that, hold percentiles only)", file);
            goto out;
        }
        cols = xcalloc(N_HIST, sizeof(*cols));
        for (size_t c = 0; c < N_HIST; c++)
            cols[nc++] = xstrdup(hist_cols[c]);
    } else if (figure_columns(&t, o, file, &cols, &nc, err, errlen) != 0) {
        rc = -1;
        goto out;
    }
    {
        FILE *f = open_memstream(text, len);
        if (!f) {
            rc = errf(err, errlen, "out of memory");
            goto out;
        }
        write_table(f, o->format, (const char *const *)cols, nc, &t);
        fclose(f);
    }
out:
    for (size_t c = 0; c < nc; c++)
        free(cols[c]);
    free(cols);
    for (size_t i = 0; i < t.n; i++)
        json_object_put(t.r[i].row);
    free(t.r);
    return rc;
}
