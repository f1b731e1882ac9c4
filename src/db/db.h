/* db.h — the results history: every run, suite and profile document in one SQLite file, its
 * measured points and their window statistics, tags naming baselines, and the history's own
 * distribution of a point for gates and trends (docs/history.md has the tables, how they map
 * to a server database and the statistics).
 *
 * Safety.  The file is opened in WAL mode with a busy timeout (DB_BUSY_MS), and every change
 * (an import, a tag, a migration) is one BEGIN IMMEDIATE transaction, so that two processes
 * importing at once (two CI jobs) serialise instead of corrupting the file or failing. An
 * import is idempotent: a document's identity (DB_IDENTITY below) is a UNIQUE column, and the
 * check and the insert are in the same transaction.
 *
 * Identity of a document: SHA-256 of its schema, start time, host name, target path, target
 * serial and command line when it records a start time; else of the file's bytes (hand-written
 * files without a start time). So a results file re-written by a later `show` or copied
 * elsewhere is the same run, and a second run of the same command is another.
 *
 * Errors: a file that is not SQLite, SQLite without our meta table, a schema newer than this
 * ptsbench knows, or a damaged file each give one line naming the file (every function below
 * returns -1 with it); callers exit 2. Only the command layer prints. */
#ifndef PTSBENCH_DB_H
#define PTSBENCH_DB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "read/measure.h"

#define DB_SCHEMA_VERSION 2      /* the newest migration (db_schema.c) */
#define DB_BUSY_MS 60000         /* how long a writer waits for another's transaction */
#define DB_ENV "PTSBENCH_DB"

struct db;

/* The default file: $PTSBENCH_DB, else $XDG_DATA_HOME/ptsbench/results.db, else
 * ~/.local/share/ptsbench/results.db. 0, or -1 with one line (no HOME). */
int db_default_path(char *buf, size_t len, char *err, size_t errlen);

/* Open path (create it and its directory when create and it is absent), check that it is a
 * ptsbench history and migrate it to DB_SCHEMA_VERSION. NULL with one line. */
struct db *db_open(const char *path, bool create, char *err, size_t errlen);
/* As db_open, migrating only up to version (tests: a file at an old schema). */
struct db *db_open_at(const char *path, int version, char *err, size_t errlen);
void db_close(struct db *d);
int db_schema_version(struct db *d);   /* meta.schema_version, -1 unknown */
const char *db_path(const struct db *d);

/* ---- import ---- */

struct db_import_result {
    long long run_id;
    bool added;               /* false: the document was there already */
    char schema[32];
    size_t points, measurements;
};

/* The checks of db_import_file without the database: 0, or -1 with the line it would give.
 * For importing several files: all are checked before the first is imported. */
int db_check_file(const char *path, char *err, size_t errlen);
/* Import one results document (a file, or DIR/results.json). Refused (-1, nothing written):
 * not a results file, another schema (crosscheck, fleet), a run that did not complete. */
int db_import_file(struct db *d, const char *path, struct db_import_result *r, char *err,
                   size_t errlen);

/* A results document's identity (above) and its target's model ("" when none), without
 * importing it: gate excludes the current run from its own history and finds its model. */
int db_identity_of(const char *path, char identity[65], char *model, size_t model_len,
                   char *err, size_t errlen);

/* ---- runs ---- */

struct db_run {
    long long id;
    char identity[65], content_sha256[65];
    char source[1024], imported[32], doc_schema[32], ptsbench_version[32], status[32];
    char started[32], finished[32], command_line[2048];
    char host[256], kernel[256], cpu_model[256], versions[1024];
    char target_path[512], target_kind[32], model[256], serial[128], firmware[256];
    long long capacity_bytes;          /* -1 unknown */
    char vendor[128], engine[64], engine_library[256], spec[64], precondition[32];
    char tags[256];                    /* comma-separated */
    long long n_points;
};

/* Every run, oldest first (by start time, then id); limit 0: all, else the newest limit. */
int db_runs(struct db *d, size_t limit, struct db_run **out, size_t *n, char *err,
            size_t errlen);
/* One run; 1 when there is no such id. */
int db_run_get(struct db *d, long long id, struct db_run *out, char *err, size_t errlen);
/* A run's points back as a measure set (v, spread, min, max, slope, rounds; key, label and
 * conditions), in import order. */
int db_run_points(struct db *d, long long id, struct meas_set *out, char *err, size_t errlen);
/* Tag a run (a run may have several tags, a tag several runs). 1: no such run. */
int db_tag(struct db *d, long long id, const char *name, char *err, size_t errlen);

/* ---- history ---- */

/* Which runs count as the history of a point. */
struct db_filter {
    const char *model, *firmware, *host, *test, *key, *state, *preset;
    long long bs;                      /* -1: any */
    int mix, random, compress;         /* read share, random share, compressibility; -1 any */
    long long workers, qd;             /* -1: any */
    const char *exclude_identity;      /* not the run of this identity (NULL: none) */
    const char *tag;                   /* only runs with this tag (NULL: any) */
};
void db_filter_init(struct db_filter *f);
/* --where model=...,test=iops,bs=4k,mix=0: keys model, firmware, host, test, key, state,
 * preset, bs, mix (read %), random, compress, workers, qd. 0, or -1 naming the bad item. */
int db_filter_parse(const char *where, struct db_filter *f, char *err, size_t errlen);

/* One value of a metric in one run. */
struct db_value {
    long long run_id;
    char started[32], firmware[256], key[256], label[256];
    double mean, min, max, spread;     /* spread: (max - min) / mean of the run's window */
    unsigned rounds;
};
/* Every value of metric m at the points the filter selects, ordered by point key, then start
 * time, then run id. */
int db_values(struct db *d, enum meas_metric m, const struct db_filter *f,
              struct db_value **out, size_t *n, char *err, size_t errlen);

/* The history's distribution of one figure (values of N runs with their window spreads):
 *   median    the median of the values;
 *   band      the relative noise band: max(the median of the runs' window spreads,
 *             3 x 1.4826 x MAD / |median|), MAD the median absolute deviation from the median
 *             (1.4826 x MAD estimates a normal standard deviation, unmoved by one outlier).
 * Either NAN when n is 0. */
void db_history_stats(const double *v, const double *spread, size_t n, double *median,
                      double *band);

#endif
