/* db_internal.h — what the files of src/db/ share: the handle, SQLite's errors as one line,
 * transactions, and the migrations (db_schema.c). Not for callers outside src/db/. */
#ifndef PTSBENCH_DB_INTERNAL_H
#define PTSBENCH_DB_INTERNAL_H

#include <sqlite3.h>
#include <stddef.h>

struct db {
    sqlite3 *h;
    char path[4096];
};

/* One line for SQLite's last error on d: "FILE: damaged database (...)" for a corrupt file,
 * "FILE: WHAT: sqlite message" otherwise. Returns -1. */
int db_fail(struct db *d, const char *what, char *err, size_t errlen);
/* sql (no parameters, no rows) or -1 with db_fail. */
int db_exec(struct db *d, const char *sql, char *err, size_t errlen);
/* A write transaction (BEGIN IMMEDIATE: the write lock at once, waiting up to DB_BUSY_MS for
 * another writer), its commit, and a rollback that reports nothing. */
int db_begin(struct db *d, char *err, size_t errlen);
int db_commit(struct db *d, char *err, size_t errlen);
void db_rollback(struct db *d);
/* Prepare sql, or -1 with db_fail. */
int db_prepare(struct db *d, const char *sql, sqlite3_stmt **st, char *err, size_t errlen);
/* Column text copied into buf ("" for NULL). */
void db_col_text(sqlite3_stmt *st, int col, char *buf, size_t len);
/* Bind text or NULL for an empty / NULL string; a double or NULL when not finite. */
void db_bind_text(sqlite3_stmt *st, int i, const char *s);
void db_bind_num(sqlite3_stmt *st, int i, double v);
/* A column's double, NAN for NULL. */
double db_col_num(sqlite3_stmt *st, int col);

/* The migrations (db_schema.c): step k (1-based) takes the schema from version k - 1 to k. */
struct db_migration {
    int version;
    const char *what;
    const char *sql;
};
extern const struct db_migration db_migrations[];
extern const size_t db_n_migrations;

#endif
