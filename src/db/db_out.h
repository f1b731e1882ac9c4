/* db_out.h — the history for people: the tables of `db list`, `db show` and `db compare`
 * (the comparison is gate's table, judge/gate.h: the first run as the baseline). */
#ifndef PTSBENCH_DB_OUT_H
#define PTSBENCH_DB_OUT_H

#include <stdio.h>

#include "db/db.h"

struct gate_result;

/* One line per run: id, start, kind, model, firmware, host, points, tags; then the count. */
void db_write_list(FILE *f, const struct db_run *r, size_t n);
/* The run's fields, one per line, then its points with their main figures. */
void db_write_show(FILE *f, const struct db_run *r, const struct meas_set *s);
/* A line naming both runs, then gate's table of g (a = baseline, b = current). */
void db_write_compare(FILE *f, const struct db_run *a, const struct db_run *b,
                      const struct gate_result *g);

#endif
