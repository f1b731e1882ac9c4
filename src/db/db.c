/* db.c — opening the results history: the file checked (SQLite? ours? whole?), WAL and the busy
 * timeout, the schema migrated (db.h); SQLite's errors as one line; the history's statistics. */
#include "db/db.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>

#include "db/db_internal.h"
#include "lib/file.h"
#include "lib/util.h"

#define SQLITE_MAGIC "SQLite format 3"   /* the first 16 bytes of every SQLite 3 file */

int db_fail(struct db *d, const char *what, char *err, size_t errlen)
{
    int code = sqlite3_errcode(d->h) & 0xff;
    const char *msg = sqlite3_errmsg(d->h);
    if (code == SQLITE_CORRUPT || code == SQLITE_NOTADB)
        return errf(err, errlen, "%s: damaged database (%s); restore it from a copy or start a "
                    "new file", d->path, msg);
    return errf(err, errlen, "%s: %s: %s", d->path, what, msg);
}

int db_exec(struct db *d, const char *sql, char *err, size_t errlen)
{
    if (sqlite3_exec(d->h, sql, NULL, NULL, NULL) != SQLITE_OK)
        return db_fail(d, "query", err, errlen);
    return 0;
}

int db_begin(struct db *d, char *err, size_t errlen)
{
    return db_exec(d, "BEGIN IMMEDIATE", err, errlen);
}

int db_commit(struct db *d, char *err, size_t errlen)
{
    if (db_exec(d, "COMMIT", err, errlen) != 0) {
        db_rollback(d);
        return -1;
    }
    return 0;
}

void db_rollback(struct db *d)
{
    sqlite3_exec(d->h, "ROLLBACK", NULL, NULL, NULL);
}

int db_prepare(struct db *d, const char *sql, sqlite3_stmt **st, char *err, size_t errlen)
{
    if (sqlite3_prepare_v2(d->h, sql, -1, st, NULL) != SQLITE_OK)
        return db_fail(d, "query", err, errlen);
    return 0;
}

void db_col_text(sqlite3_stmt *st, int col, char *buf, size_t len)
{
    const unsigned char *t = sqlite3_column_text(st, col);
    str_copy(buf, len, t ? (const char *)t : "");
}

void db_bind_text(sqlite3_stmt *st, int i, const char *s)
{
    if (s && *s)
        sqlite3_bind_text(st, i, s, -1, SQLITE_TRANSIENT);
    else
        sqlite3_bind_null(st, i);
}

void db_bind_num(sqlite3_stmt *st, int i, double v)
{
    if (isfinite(v))
        sqlite3_bind_double(st, i, v);
    else
        sqlite3_bind_null(st, i);
}

double db_col_num(sqlite3_stmt *st, int col)
{
    return sqlite3_column_type(st, col) == SQLITE_NULL ? NAN : sqlite3_column_double(st, col);
}

int db_default_path(char *buf, size_t len, char *err, size_t errlen)
{
    const char *env = getenv(DB_ENV);
    if (env && *env) {
        str_copy(buf, len, env);
        return 0;
    }
    const char *xdg = getenv("XDG_DATA_HOME");
    if (xdg && *xdg) {
        snprintf(buf, len, "%s/ptsbench/results.db", xdg);
        return 0;
    }
    const char *home = getenv("HOME");
    if (!home || !*home)
        return errf(err, errlen, "no database file: give --db FILE or set %s (HOME is not set)",
                    DB_ENV);
    snprintf(buf, len, "%s/.local/share/ptsbench/results.db", home);
    return 0;
}

/* A file that exists must start as SQLite 3 files do (an empty one is a new database). */
static int check_header(const char *path, bool create, char *err, size_t errlen)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        if (errno == ENOENT && create)
            return 0;
        return errf(err, errlen, "%s: %s", path, errno == ENOENT ? "no such file (import "
                    "results into it first: ptsbench db import)" : strerror(errno));
    }
    if (!S_ISREG(st.st_mode))
        return errf(err, errlen, "%s: not a regular file", path);
    if (st.st_size == 0)
        return 0;
    char head[16] = {0};
    FILE *f = fopen(path, "rb");
    if (!f)
        return errf(err, errlen, "%s: %s", path, strerror(errno));
    size_t got = fread(head, 1, sizeof(head), f);
    fclose(f);
    if (got < sizeof(head) || memcmp(head, SQLITE_MAGIC, sizeof(SQLITE_MAGIC)) != 0)
        return errf(err, errlen, "%s: not a SQLite database, so not a ptsbench results history "
                    "(give a new file name to start one)", path);
    return 0;
}

static int make_parent(const char *path, char *err, size_t errlen)
{
    char dir[4096];
    str_copy(dir, sizeof(dir), path);
    char *slash = strrchr(dir, '/');
    if (!slash || slash == dir)
        return 0;
    *slash = '\0';
    return file_exists(dir) ? 0 : file_mkdir_p(dir, err, errlen);
}

/* 1 when table name exists, 0 when not, -1 on error. */
static int has_table(struct db *d, const char *name, char *err, size_t errlen)
{
    sqlite3_stmt *st;
    if (db_prepare(d, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?",
                   &st, err, errlen) != 0)
        return -1;
    sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
    int rc = sqlite3_step(st);
    int n = rc == SQLITE_ROW ? sqlite3_column_int(st, 0) : -1;
    sqlite3_finalize(st);
    return n < 0 ? db_fail(d, "reading its tables", err, errlen) : n > 0;
}

static int count_tables(struct db *d, char *err, size_t errlen)
{
    sqlite3_stmt *st;
    if (db_prepare(d, "SELECT count(*) FROM sqlite_master", &st, err, errlen) != 0)
        return -1;
    int rc = sqlite3_step(st);
    int n = rc == SQLITE_ROW ? sqlite3_column_int(st, 0) : -1;
    sqlite3_finalize(st);
    return n < 0 ? db_fail(d, "reading its tables", err, errlen) : n;
}

int db_schema_version(struct db *d)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(d->h, "SELECT value FROM meta WHERE name = 'schema_version'", -1,
                           &st, NULL) != SQLITE_OK)
        return -1;
    int v = -1;
    if (sqlite3_step(st) == SQLITE_ROW) {
        const unsigned char *t = sqlite3_column_text(st, 0);
        char *end;
        long x = t ? strtol((const char *)t, &end, 10) : -1;
        v = t && *end == '\0' && x >= 0 && x < 1000000 ? (int)x : -1;
    }
    sqlite3_finalize(st);
    return v;
}

static int set_version(struct db *d, int v, char *err, size_t errlen)
{
    char sql[128];
    snprintf(sql, sizeof(sql), "UPDATE meta SET value = '%d' WHERE name = 'schema_version'", v);
    return db_exec(d, sql, err, errlen);
}

/* Inside a write transaction: create meta on a new file, then apply the missing steps. */
static int migrate_locked(struct db *d, int target, char *err, size_t errlen)
{
    int meta = has_table(d, "meta", err, errlen);
    if (meta < 0)
        return -1;
    if (!meta) {
        int n = count_tables(d, err, errlen);
        if (n < 0)
            return -1;
        if (n > 0)
            return errf(err, errlen, "%s: a SQLite database, but not a ptsbench results history "
                        "(it has no meta table)", d->path);
        if (db_exec(d, "CREATE TABLE meta (name VARCHAR(64) PRIMARY KEY,"
                       " value VARCHAR(256) NOT NULL);"
                       "INSERT INTO meta (name, value) VALUES ('application', 'ptsbench');"
                       "INSERT INTO meta (name, value) VALUES ('schema_version', '0');",
                    err, errlen) != 0)
            return -1;
    }
    int v = db_schema_version(d);
    if (v < 0)
        return errf(err, errlen, "%s: a damaged ptsbench results history (its meta table has no "
                    "schema_version)", d->path);
    if (v > DB_SCHEMA_VERSION)
        return errf(err, errlen, "%s: written by a newer ptsbench (schema version %d; this one "
                    "knows up to %d)", d->path, v, DB_SCHEMA_VERSION);
    for (size_t k = 0; k < db_n_migrations; k++) {
        const struct db_migration *m = &db_migrations[k];
        if (m->version <= v || m->version > target)
            continue;
        if (db_exec(d, m->sql, err, errlen) != 0 || set_version(d, m->version, err, errlen) != 0)
            return -1;
    }
    return 0;
}

static int migrate(struct db *d, int target, char *err, size_t errlen)
{
    /* a file already at the version needs no write lock */
    if (has_table(d, "meta", err, errlen) == 1) {
        int v = db_schema_version(d);
        if (v == target)
            return 0;
        if (v > DB_SCHEMA_VERSION)
            return errf(err, errlen, "%s: written by a newer ptsbench (schema version %d; this "
                        "one knows up to %d)", d->path, v, DB_SCHEMA_VERSION);
        if (v > target)
            return 0;
    }
    if (db_begin(d, err, errlen) != 0)
        return -1;
    if (migrate_locked(d, target, err, errlen) != 0) {
        db_rollback(d);
        return -1;
    }
    return db_commit(d, err, errlen);
}

/* WAL mode.  Switching to it takes the file's exclusive lock, and SQLite does not call the busy
 * handler for that: while another process opens the same new file (two `db import`s into one
 * history at once), the pragma fails at once with SQLITE_BUSY (measured: 4 failed imports in
 * 200, two at a time, on a new file each time).  So it is retried, for up to DB_BUSY_MS as every
 * other lock is waited for, in sleeps of 1 ms doubling up to 50 ms.  Once the file is in WAL
 * mode the pragma takes no lock. */
static int set_wal(struct db *d, char *err, size_t errlen)
{
    for (long waited = 0, step = 1;; waited += step, step = step < 50 ? step * 2 : 50) {
        const int rc = sqlite3_exec(d->h, "PRAGMA journal_mode = WAL", NULL, NULL, NULL);
        if (rc == SQLITE_OK)
            return 0;
        if ((rc & 0xff) != SQLITE_BUSY || waited >= DB_BUSY_MS)
            return db_fail(d, "switching to WAL mode", err, errlen);
        const struct timespec ts = {.tv_sec = 0, .tv_nsec = step * 1000000L};
        nanosleep(&ts, NULL);
    }
}

static struct db *open_at(const char *path, int target, bool create, char *err, size_t errlen)
{
    if (!path || !*path) {
        errf(err, errlen, "--db: empty file name");
        return NULL;
    }
    if (check_header(path, create, err, errlen) != 0)
        return NULL;
    if (create && !file_exists(path) && make_parent(path, err, errlen) != 0)
        return NULL;
    struct db *d = xcalloc(1, sizeof(*d));
    str_copy(d->path, sizeof(d->path), path);
    int flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0);
    if (sqlite3_open_v2(path, &d->h, flags, NULL) != SQLITE_OK) {
        errf(err, errlen, "%s: cannot open: %s", path,
             d->h ? sqlite3_errmsg(d->h) : "out of memory");
        db_close(d);
        return NULL;
    }
    sqlite3_busy_timeout(d->h, DB_BUSY_MS);
    if (count_tables(d, err, errlen) < 0 ||
        set_wal(d, err, errlen) != 0 ||
        db_exec(d, "PRAGMA synchronous = NORMAL", err, errlen) != 0 ||   /* WAL: safe */
        db_exec(d, "PRAGMA foreign_keys = ON", err, errlen) != 0 ||
        migrate(d, target, err, errlen) != 0) {
        db_close(d);
        return NULL;
    }
    return d;
}

struct db *db_open(const char *path, bool create, char *err, size_t errlen)
{
    return open_at(path, DB_SCHEMA_VERSION, create, err, errlen);
}

struct db *db_open_at(const char *path, int version, char *err, size_t errlen)
{
    return open_at(path, version, true, err, errlen);
}

void db_close(struct db *d)
{
    if (!d)
        return;
    if (d->h)
        sqlite3_close(d->h);
    free(d);
}

const char *db_path(const struct db *d)
{
    return d->path;
}

/* ---- the history's statistics ---- */

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median_of(double *v, size_t n)
{
    if (n == 0)
        return NAN;
    qsort(v, n, sizeof(*v), cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

void db_history_stats(const double *v, const double *spread, size_t n, double *median,
                      double *band)
{
    *median = *band = NAN;
    double *w = xcalloc(n ? n : 1, sizeof(*w));
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (isfinite(v[i]))
            w[k++] = v[i];
    if (k == 0) {
        free(w);
        return;
    }
    double m = median_of(w, k);
    for (size_t i = 0; i < k; i++)
        w[i] = fabs(w[i] - m);
    double mad = median_of(w, k);
    size_t ks = 0;
    for (size_t i = 0; i < n; i++)
        if (isfinite(v[i]) && spread && isfinite(spread[i]))
            w[ks++] = spread[i];
    double win = ks ? median_of(w, ks) : 0;
    double hist = m != 0 ? 3 * 1.4826 * mad / fabs(m) : 0;
    *median = m;
    *band = win > hist ? win : hist;
    free(w);
}
