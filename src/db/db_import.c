/* db_import.c — one results document into the history (db.h): its run row (host, kernel,
 * target identity, engine and versions, spec, preparation, command line, times), a row per
 * measured point (read/measure.h gives them with their keys, conditions, states and window
 * statistics) and a row per point and metric, in one write transaction, once. */
#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/results.h"
#include "db/db.h"
#include "db/db_internal.h"
#include "lib/json_path.h"
#include "lib/sha256.h"
#include "lib/util.h"
#include "read/measure.h"
#include "read/shape.h"
#include "plot/plot.h"

/* The fields of a run row, read from the document. */
struct doc_fields {
    const char *schema, *ptsbench_version, *status, *started, *finished;
    char command_line[8192];
    const char *host, *kernel, *cpu_model;
    const char *versions;              /* host.versions as JSON text */
    const char *target_path, *target_kind, *model, *serial, *vendor;
    char firmware[256];
    double capacity;
    const char *engine, *engine_library, *spec, *precondition;
    double schema_version;
};

static bool is_results_schema(const char *s)
{
    return s && (!strcmp(s, "ptsbench.run") || !strcmp(s, "ptsbench.suite") ||
                 !strcmp(s, "ptsbench.profile"));
}

/* The command line, its words joined by spaces, a word with a space or a quote in quotes. */
static void join_command(struct json_object *arr, char *buf, size_t len)
{
    buf[0] = '\0';
    for (size_t i = 0; i < jp_len(arr); i++) {
        const char *w = jp_string(jp_idx(arr, i));
        if (!w)
            continue;
        size_t l = strlen(buf);
        bool quote = !*w || strpbrk(w, " \t'\"\\") != NULL;
        snprintf(buf + l, len - l, "%s%s%s%s", l ? " " : "", quote ? "'" : "", w,
                 quote ? "'" : "");
    }
}

/* A simulated drive has no firmware; its preset and overrides ("generic-mlc25,op=28") are
 * what changes its behaviour, so they stand for it. */
static void firmware_of(struct json_object *doc, char *buf, size_t len)
{
    const char *fw = jp_str(doc, "target.firmware");
    const char *path = jp_str(doc, "target.path");
    if (fw && *fw)
        str_copy(buf, len, fw);
    else if (path && !strncmp(path, "sim:", 4))
        str_copy(buf, len, path + 4);
    else
        buf[0] = '\0';
}

static void read_fields(struct json_object *doc, struct doc_fields *f)
{
    memset(f, 0, sizeof(*f));
    f->schema = jp_str(doc, "schema");
    f->schema_version = jp_path(doc, "schema_version");
    f->ptsbench_version = jp_str(doc, "ptsbench_version");
    f->status = jp_str(doc, "status");
    f->started = jp_str(doc, "started");
    f->finished = jp_str(doc, "finished");
    if (!f->finished)
        f->finished = jp_str(doc, "updated");
    struct json_object *cmd = jp_arr(doc, "command_line");
    join_command(cmd ? cmd : jp_arr(doc, "command"), f->command_line, sizeof(f->command_line));
    f->host = jp_str(doc, "host.hostname");
    f->kernel = jp_str(doc, "host.kernel");
    f->cpu_model = jp_str(doc, "host.cpu_model");
    struct json_object *v = jp_obj_at(doc, "host.versions");
    f->versions = v ? json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN) : NULL;
    f->target_path = jp_str(doc, "target.path");
    if (!f->target_path)
        f->target_path = jp_str(doc, "target");   /* a bare path */
    f->target_kind = jp_str(doc, "target.kind");
    f->model = jp_str(doc, "target.model");
    f->serial = jp_str(doc, "target.serial");
    f->vendor = jp_str(doc, "target.vendor");
    firmware_of(doc, f->firmware, sizeof(f->firmware));
    f->capacity = jp_path(doc, "target.capacity_bytes");
    f->engine = jp_str(doc, "engine.name");
    f->engine_library = jp_str(doc, "engine.library");
    f->spec = jp_str(doc, "spec.name");
    f->precondition = plot_doc_prep(doc);
    if (!f->precondition)
        f->precondition = jp_str(doc, "config.precondition");
    if (!f->precondition && f->schema && !strcmp(f->schema, "ptsbench.suite"))
        f->precondition = "pts";   /* each PTS test prepares the drive as its spec says */
}

static void identity_of(const struct doc_fields *f, const char *content_sha, char out[65])
{
    if (!f->started || !*f->started) {
        str_copy(out, 65, content_sha);
        return;
    }
    char buf[10000];
    snprintf(buf, sizeof(buf), "%s\n%s\n%s\n%s\n%s\n%s", f->schema ? f->schema : "", f->started,
             f->host ? f->host : "", f->target_path ? f->target_path : "",
             f->serial ? f->serial : "", f->command_line);
    sha256_hex(buf, strlen(buf), out);
}

/* The results file of path (a file, or DIR/results.json). */
static void resolve(const char *path, char *file, size_t len)
{
    struct stat st;
    size_t l = strlen(path);
    while (l > 1 && path[l - 1] == '/')
        l--;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
        snprintf(file, len, "%.*s/results.json", (int)l, path);
    else
        str_copy(file, len, path);
}

/* The document, its bytes' SHA-256 and fields; NULL with one line. */
static struct json_object *load_doc(const char *file, char sha[65], struct doc_fields *f,
                                    char *err, size_t errlen)
{
    FILE *fp = fopen(file, "rb");
    if (!fp) {
        errf(err, errlen, "%s: cannot read: %s", file, strerror(errno));
        return NULL;
    }
    char *buf = NULL;
    size_t n = 0, cap = 0;
    for (;;) {
        if (n + 65536 > cap)
            buf = xrealloc(buf, cap = 2 * cap + 65536);
        size_t got = fread(buf + n, 1, cap - n - 1, fp);
        n += got;
        if (got == 0)
            break;
    }
    fclose(fp);
    buf[n] = '\0';
    sha256_hex(buf, n, sha);
    struct json_object *doc = json_tokener_parse(buf);
    free(buf);
    if (!doc || !json_object_is_type(doc, json_type_object)) {
        json_object_put(doc);
        errf(err, errlen, "%s: not a results file (not a JSON object)", file);
        return NULL;
    }
    results_upgrade(doc);
    read_fields(doc, f);
    if (!is_results_schema(f->schema)) {
        errf(err, errlen, "%s: schema %s holds no run to keep in the history (a ptsbench.run, "
             ".suite or .profile document does)", file, f->schema ? f->schema : "(none)");
        json_object_put(doc);
        return NULL;
    }
    return doc;
}

int db_identity_of(const char *path, char identity[65], char *model, size_t model_len,
                   char *err, size_t errlen)
{
    char file[4200], sha[65];
    struct doc_fields f;
    resolve(path, file, sizeof(file));
    struct json_object *doc = load_doc(file, sha, &f, err, errlen);
    if (!doc)
        return -1;
    identity_of(&f, sha, identity);
    str_copy(model, model_len, f.model ? f.model : "");
    json_object_put(doc);
    return 0;
}

/* "suite/iops/bs=4096/read=0" -> "iops"; "profile/database/..." -> "database"; "run/..." ->
 * "run". */
static void test_of(const char *key, char *buf, size_t len)
{
    const char *slash = strchr(key, '/');
    if (!slash || !strncmp(key, "run/", 4)) {
        str_copy(buf, len, "run");
        return;
    }
    const char *end = strchr(slash + 1, '/');
    size_t l = end ? (size_t)(end - slash - 1) : strlen(slash + 1);
    snprintf(buf, len, "%.*s", (int)l, slash + 1);
}

static long long run_by_identity(struct db *d, const char *identity, char *err, size_t errlen)
{
    sqlite3_stmt *st;
    if (db_prepare(d, "SELECT id FROM runs WHERE identity = ?", &st, err, errlen) != 0)
        return -1;
    sqlite3_bind_text(st, 1, identity, -1, SQLITE_STATIC);
    int rc = sqlite3_step(st);
    long long id = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
    sqlite3_finalize(st);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        return db_fail(d, "looking the run up", err, errlen);
    return id;
}

static const char RUN_INSERT[] =
    "INSERT INTO runs (identity, content_sha256, source, imported, doc_schema, "
    "doc_schema_version, ptsbench_version, status, started, finished, command_line, host, "
    "kernel, cpu_model, versions, target_path, target_kind, model, serial, firmware, "
    "capacity_bytes, vendor, engine, engine_library, spec, precondition) VALUES (?, ?, ?, ?, ?, "
    "?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";

static long long insert_run(struct db *d, const struct doc_fields *f, const char *identity,
                            const char *sha, const char *source, char *err, size_t errlen)
{
    sqlite3_stmt *st;
    if (db_prepare(d, RUN_INSERT, &st, err, errlen) != 0)
        return -1;
    char now[32];
    iso8601_now(now, sizeof(now));
    const char *text[] = {identity, sha, source, now, f->schema};
    int i = 1;
    for (size_t k = 0; k < sizeof(text) / sizeof(text[0]); k++)
        db_bind_text(st, i++, text[k]);
    if (isfinite(f->schema_version))
        sqlite3_bind_int(st, i, (int)f->schema_version);
    i++;
    const char *text2[] = {f->ptsbench_version, f->status, f->started, f->finished,
                           f->command_line, f->host, f->kernel, f->cpu_model, f->versions,
                           f->target_path, f->target_kind, f->model, f->serial, f->firmware};
    for (size_t k = 0; k < sizeof(text2) / sizeof(text2[0]); k++)
        db_bind_text(st, i++, text2[k]);
    if (isfinite(f->capacity))
        sqlite3_bind_int64(st, i, (long long)f->capacity);
    i++;
    const char *text3[] = {f->vendor, f->engine, f->engine_library, f->spec, f->precondition};
    for (size_t k = 0; k < sizeof(text3) / sizeof(text3[0]); k++)
        db_bind_text(st, i++, text3[k]);
    int rc = sqlite3_step(st);
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE)
        return db_fail(d, "adding the run", err, errlen);
    return sqlite3_last_insert_rowid(d->h);
}

struct point_stmts {
    sqlite3_stmt *point, *meas;
};

static int insert_point(struct db *d, struct point_stmts *s, long long run_id,
                        const struct meas_point *p, struct db_import_result *r, char *err,
                        size_t errlen)
{
    char test[64];
    test_of(p->key, test, sizeof(test));
    sqlite3_stmt *st = s->point;
    sqlite3_reset(st);
    sqlite3_bind_int64(st, 1, run_id);
    db_bind_text(st, 2, p->key);
    db_bind_text(st, 3, p->label);
    db_bind_text(st, 4, test);
    if (p->bs)
        sqlite3_bind_int64(st, 5, p->bs);
    else
        sqlite3_bind_null(st, 5);
    sqlite3_bind_int(st, 6, p->read_pct);
    sqlite3_bind_int(st, 7, p->random_pct);
    sqlite3_bind_int(st, 8, (int)p->workers);
    sqlite3_bind_int(st, 9, (int)p->qd);
    if (p->compress_pct >= 0)
        sqlite3_bind_int(st, 10, p->compress_pct);
    else
        sqlite3_bind_null(st, 10);
    db_bind_text(st, 11, meas_point_state_name(p));   /* "fast" after the fast pass */
    sqlite3_bind_int(st, 12, (int)p->rounds);
    int rc = sqlite3_step(st);
    if ((rc & 0xff) == SQLITE_CONSTRAINT)
        return 0;   /* the same key twice in one document: the first is kept (measure.h) */
    if (rc != SQLITE_DONE)
        return db_fail(d, "adding a point", err, errlen);
    long long pid = sqlite3_last_insert_rowid(d->h);
    r->points++;
    for (unsigned m = 0; m < MEAS_N_ALL; m++) {   /* trim_* too, when it issued trims, and the
                                                     latency counts; a null percentile (not
                                                     enough I/Os) is no row */
        if (!isfinite(p->v[m]))
            continue;
        st = s->meas;
        sqlite3_reset(st);
        sqlite3_bind_int64(st, 1, pid);
        sqlite3_bind_text(st, 2, meas_metric_name(m), -1, SQLITE_STATIC);
        sqlite3_bind_double(st, 3, p->v[m]);
        db_bind_num(st, 4, p->min[m]);
        db_bind_num(st, 5, p->max[m]);
        db_bind_num(st, 6, p->spread[m]);
        db_bind_num(st, 7, p->slope[m]);
        sqlite3_bind_int(st, 8, (int)p->rounds);
        if (sqlite3_step(st) != SQLITE_DONE)
            return db_fail(d, "adding a measurement", err, errlen);
        r->measurements++;
    }
    return 0;
}

static int insert_points(struct db *d, long long run_id, const struct meas_set *ms,
                         struct db_import_result *r, char *err, size_t errlen)
{
    struct point_stmts s = {0};
    int rc = -1;
    if (db_prepare(d, "INSERT INTO points (run_id, point_key, label, test, bs, read_pct, "
                      "random_pct, workers, qd, compress_pct, state, rounds) VALUES (?, ?, ?, ?, "
                      "?, ?, ?, ?, ?, ?, ?, ?)", &s.point, err, errlen) == 0 &&
        db_prepare(d, "INSERT INTO measurements (point_id, metric, mean, min_value, max_value, "
                      "spread, slope, rounds) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", &s.meas, err,
                   errlen) == 0) {
        rc = 0;
        for (size_t i = 0; i < ms->n && rc == 0; i++)
            rc = insert_point(d, &s, run_id, &ms->p[i], r, err, errlen);
    }
    sqlite3_finalize(s.point);
    sqlite3_finalize(s.meas);
    return rc;
}

/* In the write transaction: nothing when the identity is there, else the rows. */
static int import_locked(struct db *d, const struct doc_fields *f, const char *identity,
                         const char *sha, const char *file, const struct meas_set *ms,
                         struct db_import_result *r, char *err, size_t errlen)
{
    long long id = run_by_identity(d, identity, err, errlen);
    if (id < 0)
        return -1;
    if (id > 0) {
        r->run_id = id;
        return 0;
    }
    char source[4096];
    if (!realpath(file, source))
        str_copy(source, sizeof(source), file);
    id = insert_run(d, f, identity, sha, source, err, errlen);
    if (id < 0)
        return -1;
    r->run_id = id;
    r->added = true;
    return insert_points(d, id, ms, r, err, errlen);
}

/* The document of a complete run with its points (ms); the doc, or NULL with one line. */
static struct json_object *load_complete(const char *file, char sha[65], struct doc_fields *f,
                                         struct meas_set *ms, char *err, size_t errlen)
{
    char why[ERR_LEN];
    struct json_object *doc = load_doc(file, sha, f, err, errlen);
    if (!doc)
        return NULL;
    enum results_life life = results_life_of(doc, why, sizeof(why));
    if (life != RESULTS_COMPLETE) {
        errf(err, errlen, "%s: the run is %s%s%s: only complete runs go into the history", file,
             results_life_name(life), *why ? ": " : "", why);
        json_object_put(doc);
        return NULL;
    }
    /* its points from the document read here: shape-checked as read/ does, then measured */
    if (shape_check(doc, file, why, sizeof(why)) != 0 ||
        meas_doc(doc, file, 0, ms, why, sizeof(why)) != 0) {
        errf(err, errlen, "%s", why);
        json_object_put(doc);
        return NULL;
    }
    return doc;
}

int db_check_file(const char *path, char *err, size_t errlen)
{
    char file[4200], sha[65];
    struct doc_fields f;
    struct meas_set ms = {0};
    resolve(path, file, sizeof(file));
    struct json_object *doc = load_complete(file, sha, &f, &ms, err, errlen);
    if (!doc)
        return -1;
    meas_free(&ms);
    json_object_put(doc);
    return 0;
}

int db_import_file(struct db *d, const char *path, struct db_import_result *r, char *err,
                   size_t errlen)
{
    memset(r, 0, sizeof(*r));
    char file[4200], sha[65], identity[65];
    struct doc_fields f;
    struct meas_set ms = {0};
    resolve(path, file, sizeof(file));
    struct json_object *doc = load_complete(file, sha, &f, &ms, err, errlen);
    if (!doc)
        return -1;
    str_copy(r->schema, sizeof(r->schema), f.schema);
    identity_of(&f, sha, identity);
    int rc = db_begin(d, err, errlen);
    if (rc == 0) {
        rc = import_locked(d, &f, identity, sha, file, &ms, r, err, errlen);
        if (rc == 0)
            rc = db_commit(d, err, errlen);
        else
            db_rollback(d);
    }
    meas_free(&ms);
    json_object_put(doc);
    if (rc != 0)
        memset(r, 0, sizeof(*r));
    return rc;
}
