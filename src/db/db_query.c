/* db_query.c — reading the history back (db.h): runs, a run's points as a measure set, tags,
 * the --where filter and a metric's values across runs. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/db.h"
#include "db/db_internal.h"
#include "lib/units.h"
#include "lib/util.h"

/* ---- runs ---- */

#define RUN_COLUMNS                                                                          \
    "r.id, r.identity, r.content_sha256, r.source, r.imported, r.doc_schema, "              \
    "r.ptsbench_version, r.status, r.started, r.finished, r.command_line, r.host, r.kernel, " \
    "r.cpu_model, r.versions, r.target_path, r.target_kind, r.model, r.serial, r.firmware, "  \
    "r.capacity_bytes, r.vendor, r.engine, r.engine_library, r.spec, r.precondition, "        \
    "(SELECT count(*) FROM points p WHERE p.run_id = r.id)"

static void run_from(sqlite3_stmt *st, struct db_run *r)
{
    memset(r, 0, sizeof(*r));
    int c = 0;
    r->id = sqlite3_column_int64(st, c++);
    struct {
        char *buf;
        size_t len;
    } t[] = {{r->identity, sizeof(r->identity)},       {r->content_sha256, sizeof(r->content_sha256)},
             {r->source, sizeof(r->source)},           {r->imported, sizeof(r->imported)},
             {r->doc_schema, sizeof(r->doc_schema)},   {r->ptsbench_version, sizeof(r->ptsbench_version)},
             {r->status, sizeof(r->status)},           {r->started, sizeof(r->started)},
             {r->finished, sizeof(r->finished)},       {r->command_line, sizeof(r->command_line)},
             {r->host, sizeof(r->host)},               {r->kernel, sizeof(r->kernel)},
             {r->cpu_model, sizeof(r->cpu_model)},     {r->versions, sizeof(r->versions)},
             {r->target_path, sizeof(r->target_path)}, {r->target_kind, sizeof(r->target_kind)},
             {r->model, sizeof(r->model)},             {r->serial, sizeof(r->serial)},
             {r->firmware, sizeof(r->firmware)}};
    for (size_t k = 0; k < sizeof(t) / sizeof(t[0]); k++)
        db_col_text(st, c++, t[k].buf, t[k].len);
    r->capacity_bytes = sqlite3_column_type(st, c) == SQLITE_NULL ? -1
                                                                  : sqlite3_column_int64(st, c);
    c++;
    db_col_text(st, c++, r->vendor, sizeof(r->vendor));
    db_col_text(st, c++, r->engine, sizeof(r->engine));
    db_col_text(st, c++, r->engine_library, sizeof(r->engine_library));
    db_col_text(st, c++, r->spec, sizeof(r->spec));
    db_col_text(st, c++, r->precondition, sizeof(r->precondition));
    r->n_points = sqlite3_column_int64(st, c++);
}

static void run_tags(struct db *d, struct db_run *r)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(d->h, "SELECT name FROM tags WHERE run_id = ? ORDER BY name", -1,
                           &st, NULL) != SQLITE_OK)
        return;
    sqlite3_bind_int64(st, 1, r->id);
    while (sqlite3_step(st) == SQLITE_ROW) {
        size_t l = strlen(r->tags);
        snprintf(r->tags + l, sizeof(r->tags) - l, "%s%s", l ? "," : "",
                 (const char *)sqlite3_column_text(st, 0));
    }
    sqlite3_finalize(st);
}

int db_runs(struct db *d, size_t limit, struct db_run **out, size_t *n, char *err,
            size_t errlen)
{
    *out = NULL;
    *n = 0;
    char sql[1024];
    snprintf(sql, sizeof(sql),
             "SELECT * FROM (SELECT " RUN_COLUMNS " FROM runs r ORDER BY r.started DESC, r.id "
             "DESC LIMIT %lld) ORDER BY 9, 1", limit ? (long long)limit : -1LL);
    sqlite3_stmt *st;
    if (db_prepare(d, sql, &st, err, errlen) != 0)
        return -1;
    size_t cap = 0;
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (*n == cap)
            *out = xrealloc(*out, (cap = cap ? 2 * cap : 16) * sizeof(**out));
        run_from(st, &(*out)[*n]);
        run_tags(d, &(*out)[(*n)++]);
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) {
        free(*out);
        *out = NULL;
        *n = 0;
        return db_fail(d, "listing runs", err, errlen);
    }
    return 0;
}

int db_run_get(struct db *d, long long id, struct db_run *out, char *err, size_t errlen)
{
    sqlite3_stmt *st;
    if (db_prepare(d, "SELECT " RUN_COLUMNS " FROM runs r WHERE r.id = ?", &st, err, errlen) != 0)
        return -1;
    sqlite3_bind_int64(st, 1, id);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        run_from(st, out);
    sqlite3_finalize(st);
    if (rc == SQLITE_DONE)
        return 1;
    if (rc != SQLITE_ROW)
        return db_fail(d, "reading the run", err, errlen);
    run_tags(d, out);
    return 0;
}

/* ---- a run's points ---- */

/* A point's state as stored (db_import: meas_point_state_name): "fast" is WIPC's class after
 * the fast pass (the point's after_fast). */
static enum meas_state state_parse(const char *s)
{
    if (!strcmp(s, "fast"))
        return MEAS_STATE_WIPC;
    for (int k = MEAS_STATE_UNKNOWN; k <= MEAS_STATE_WIPC; k++)
        if (!strcmp(meas_state_name((enum meas_state)k), s))
            return (enum meas_state)k;
    return MEAS_STATE_UNKNOWN;
}

static void point_blank(struct meas_point *p)
{
    memset(p, 0, sizeof(*p));
    for (unsigned m = 0; m < MEAS_N_ALL; m++)
        p->v[m] = p->spread[m] = p->min[m] = p->max[m] = p->slope[m] = NAN;
}

int db_run_points(struct db *d, long long id, struct meas_set *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof(*out));
    sqlite3_stmt *st;
    if (db_prepare(d, "SELECT p.id, p.point_key, p.label, p.bs, p.read_pct, p.random_pct, "
                      "p.workers, p.qd, p.compress_pct, p.state, p.rounds, m.metric, m.mean, "
                      "m.min_value, m.max_value, m.spread, m.slope, r.source, r.model "
                      "FROM points p JOIN runs r ON r.id = p.run_id "
                      "LEFT JOIN measurements m ON m.point_id = p.id "
                      "WHERE p.run_id = ? ORDER BY p.id", &st, err, errlen) != 0)
        return -1;
    sqlite3_bind_int64(st, 1, id);
    long long last = -1;
    size_t cap = 0;
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        long long pid = sqlite3_column_int64(st, 0);
        if (pid != last) {
            if (out->n == cap)
                out->p = xrealloc(out->p, (cap = cap ? 2 * cap : 32) * sizeof(*out->p));
            struct meas_point *p = &out->p[out->n++];
            point_blank(p);
            db_col_text(st, 1, p->key, sizeof(p->key));
            db_col_text(st, 2, p->label, sizeof(p->label));
            db_col_text(st, 17, p->source, sizeof(p->source));
            p->bs = (uint32_t)sqlite3_column_int64(st, 3);
            p->read_pct = sqlite3_column_int(st, 4);
            p->random_pct = sqlite3_column_int(st, 5);
            p->workers = (unsigned)sqlite3_column_int(st, 6);
            p->qd = (unsigned)sqlite3_column_int(st, 7);
            p->compress_pct = sqlite3_column_type(st, 8) == SQLITE_NULL
                                  ? -1 : sqlite3_column_int(st, 8);
            char state[32];
            db_col_text(st, 9, state, sizeof(state));
            p->state = state_parse(state);
            p->after_fast = !strcmp(state, "fast");   /* a transient after the fast pass */
            p->rounds = (unsigned)sqlite3_column_int(st, 10);
            p->sequential = p->random_pct == 0;
            if (!out->device[0])
                db_col_text(st, 18, out->device, sizeof(out->device));
            last = pid;
        }
        char metric[32];
        db_col_text(st, 11, metric, sizeof(metric));
        enum meas_metric m;
        if (!*metric || meas_metric_parse_all(metric, &m) != 0)
            continue;
        struct meas_point *p = &out->p[out->n - 1];
        p->v[m] = db_col_num(st, 12);
        p->min[m] = db_col_num(st, 13);
        p->max[m] = db_col_num(st, 14);
        p->spread[m] = db_col_num(st, 15);
        p->slope[m] = db_col_num(st, 16);
    }
    sqlite3_finalize(st);
    out->n_files = 1;
    if (rc != SQLITE_DONE) {
        meas_free(out);
        return db_fail(d, "reading the points", err, errlen);
    }
    return 0;
}

int db_tag(struct db *d, long long id, const char *name, char *err, size_t errlen)
{
    if (!name || !*name || strlen(name) > 128 || strpbrk(name, ", \t\n"))
        return errf(err, errlen, "tag '%s': 1 to 128 characters, without commas or spaces",
                    name ? name : "");
    struct db_run r;
    int rc = db_run_get(d, id, &r, err, errlen);
    if (rc != 0)
        return rc;
    if (db_begin(d, err, errlen) != 0)
        return -1;
    sqlite3_stmt *st;
    if (db_prepare(d, "DELETE FROM tags WHERE name = ? AND run_id = ?", &st, err, errlen) != 0) {
        db_rollback(d);
        return -1;
    }
    sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 2, id);
    rc = sqlite3_step(st);
    sqlite3_finalize(st);
    char now[32];
    iso8601_now(now, sizeof(now));
    if (rc != SQLITE_DONE ||
        db_prepare(d, "INSERT INTO tags (name, run_id, created) VALUES (?, ?, ?)", &st, err,
                   errlen) != 0) {
        if (rc != SQLITE_DONE)
            db_fail(d, "tagging", err, errlen);
        db_rollback(d);
        return -1;
    }
    sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 2, id);
    sqlite3_bind_text(st, 3, now, -1, SQLITE_STATIC);
    rc = sqlite3_step(st);
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) {
        db_fail(d, "tagging", err, errlen);
        db_rollback(d);
        return -1;
    }
    return db_commit(d, err, errlen);
}

/* ---- the --where filter ---- */

void db_filter_init(struct db_filter *f)
{
    memset(f, 0, sizeof(*f));
    f->bs = f->workers = f->qd = -1;
    f->mix = f->random = f->compress = -1;
}

static int set_str(const char *v, void *target, char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    *(const char **)target = v;
    return 0;
}

static int set_bs(const char *v, void *target, char *err, size_t errlen)
{
    uint64_t b;
    char why[ERR_LEN];
    if (units_parse_size(v, &b, why, sizeof(why)) != 0 || b == 0 || b > (1ull << 40))
        return errf(err, errlen, "bs=%s: not a block size (4k, 128k, 4096)", v);
    *(long long *)target = (long long)b;
    return 0;
}

static int set_pct(const char *v, void *target, char *err, size_t errlen)
{
    char *end;
    long x = strtol(v, &end, 10);
    if (end == v || *end || x < 0 || x > 100)
        return errf(err, errlen, "%s: not a percentage from 0 to 100", v);
    *(int *)target = (int)x;
    return 0;
}

static int set_count(const char *v, void *target, char *err, size_t errlen)
{
    char *end;
    long long x = strtoll(v, &end, 10);
    if (end == v || *end || x < 1 || x > 1000000)
        return errf(err, errlen, "%s: not a count from 1", v);
    *(long long *)target = x;
    return 0;
}

static const struct {
    const char *key;
    int (*set)(const char *v, void *target, char *err, size_t errlen);
    size_t off;
} where_keys[] = {
    {"model", set_str, offsetof(struct db_filter, model)},
    {"firmware", set_str, offsetof(struct db_filter, firmware)},
    {"host", set_str, offsetof(struct db_filter, host)},
    {"test", set_str, offsetof(struct db_filter, test)},
    {"key", set_str, offsetof(struct db_filter, key)},
    {"state", set_str, offsetof(struct db_filter, state)},
    {"preset", set_str, offsetof(struct db_filter, preset)},
    {"bs", set_bs, offsetof(struct db_filter, bs)},
    {"mix", set_pct, offsetof(struct db_filter, mix)},
    {"read", set_pct, offsetof(struct db_filter, mix)},
    {"random", set_pct, offsetof(struct db_filter, random)},
    {"compress", set_pct, offsetof(struct db_filter, compress)},
    {"workers", set_count, offsetof(struct db_filter, workers)},
    {"qd", set_count, offsetof(struct db_filter, qd)},
};

/* The filter keeps pointers into this copy of the --where text (one filter per process). */
static char where_copy[4096];

int db_filter_parse(const char *where, struct db_filter *f, char *err, size_t errlen)
{
    if (strlen(where) >= sizeof(where_copy))
        return errf(err, errlen, "--where: too long");
    str_copy(where_copy, sizeof(where_copy), where);
    char *save = NULL;
    for (char *it = strtok_r(where_copy, ",", &save); it; it = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(it, '=');
        if (!eq || eq == it || !eq[1])
            return errf(err, errlen, "--where %s: '%s' is not KEY=VALUE", where, it);
        *eq = '\0';
        size_t k = 0, nk = sizeof(where_keys) / sizeof(where_keys[0]);
        while (k < nk && strcmp(where_keys[k].key, it))
            k++;
        if (k == nk)
            return errf(err, errlen, "--where %s: unknown key '%s' (model, firmware, host, test, "
                        "key, state, preset, bs, mix, random, compress, workers, qd)", where, it);
        char why[ERR_LEN];
        if (where_keys[k].set(eq + 1, (char *)f + where_keys[k].off, why, sizeof(why)) != 0)
            return errf(err, errlen, "--where %s: %s", where, why);
    }
    return 0;
}

/* ---- values of a metric across runs ---- */

/* The WHERE clause for f, its parameters bound from index 2 on (1 is the metric). */
static void where_sql(const struct db_filter *f, char *sql, size_t len)
{
    struct {
        bool on;
        const char *cond;
    } c[] = {
        {f->model != NULL, " AND r.model = ?"},
        {f->firmware != NULL, " AND r.firmware = ?"},
        {f->host != NULL, " AND r.host = ?"},
        {f->test != NULL, " AND p.test = ?"},
        {f->key != NULL, " AND p.point_key = ?"},
        {f->state != NULL, " AND p.state = ?"},
        {f->preset != NULL, " AND (r.firmware = ? OR r.firmware LIKE ? || ',%')"},
        {f->bs >= 0, " AND p.bs = ?"},
        {f->mix >= 0, " AND p.read_pct = ?"},
        {f->random >= 0, " AND p.random_pct = ?"},
        {f->compress >= 0, " AND p.compress_pct = ?"},
        {f->workers >= 0, " AND p.workers = ?"},
        {f->qd >= 0, " AND p.qd = ?"},
        {f->exclude_identity != NULL, " AND r.identity <> ?"},
        {f->tag != NULL, " AND r.id IN (SELECT t.run_id FROM tags t WHERE t.name = ?)"},
    };
    for (size_t k = 0; k < sizeof(c) / sizeof(c[0]); k++)
        if (c[k].on) {
            size_t l = strlen(sql);
            snprintf(sql + l, len - l, "%s", c[k].cond);
        }
}

static void where_bind(sqlite3_stmt *st, const struct db_filter *f)
{
    int i = 2;
    const char *s[] = {f->model, f->firmware, f->host, f->test, f->key, f->state};
    for (size_t k = 0; k < sizeof(s) / sizeof(s[0]); k++)
        if (s[k])
            sqlite3_bind_text(st, i++, s[k], -1, SQLITE_STATIC);
    if (f->preset) {
        sqlite3_bind_text(st, i++, f->preset, -1, SQLITE_STATIC);
        sqlite3_bind_text(st, i++, f->preset, -1, SQLITE_STATIC);
    }
    long long n[] = {f->bs, f->mix, f->random, f->compress, f->workers, f->qd};
    for (size_t k = 0; k < sizeof(n) / sizeof(n[0]); k++)
        if (n[k] >= 0)
            sqlite3_bind_int64(st, i++, n[k]);
    if (f->exclude_identity)
        sqlite3_bind_text(st, i++, f->exclude_identity, -1, SQLITE_STATIC);
    if (f->tag)
        sqlite3_bind_text(st, i++, f->tag, -1, SQLITE_STATIC);
}

int db_values(struct db *d, enum meas_metric m, const struct db_filter *f,
              struct db_value **out, size_t *n, char *err, size_t errlen)
{
    *out = NULL;
    *n = 0;
    char sql[2048] = "SELECT r.id, r.started, r.firmware, p.point_key, p.label, m.mean, "
                     "m.min_value, m.max_value, m.spread, m.rounds "
                     "FROM measurements m JOIN points p ON p.id = m.point_id "
                     "JOIN runs r ON r.id = p.run_id WHERE m.metric = ?";
    where_sql(f, sql, sizeof(sql));
    size_t l = strlen(sql);
    snprintf(sql + l, sizeof(sql) - l, " ORDER BY p.point_key, r.started, r.id");
    sqlite3_stmt *st;
    if (db_prepare(d, sql, &st, err, errlen) != 0)
        return -1;
    sqlite3_bind_text(st, 1, meas_metric_name(m), -1, SQLITE_STATIC);
    where_bind(st, f);
    size_t cap = 0;
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (*n == cap)
            *out = xrealloc(*out, (cap = cap ? 2 * cap : 64) * sizeof(**out));
        struct db_value *v = &(*out)[(*n)++];
        v->run_id = sqlite3_column_int64(st, 0);
        db_col_text(st, 1, v->started, sizeof(v->started));
        db_col_text(st, 2, v->firmware, sizeof(v->firmware));
        db_col_text(st, 3, v->key, sizeof(v->key));
        db_col_text(st, 4, v->label, sizeof(v->label));
        v->mean = db_col_num(st, 5);
        v->min = db_col_num(st, 6);
        v->max = db_col_num(st, 7);
        v->spread = db_col_num(st, 8);
        v->rounds = (unsigned)sqlite3_column_int(st, 9);
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) {
        free(*out);
        *out = NULL;
        *n = 0;
        return db_fail(d, "reading values", err, errlen);
    }
    return 0;
}
