/* gate_session.h — `ptsbench gate` below the command line: load the baseline and current
 * results, compare them (gate.h has the rule), write the text table, the JSON (--json) and
 * JUnit (--junit) reports, and update the baseline (baseline.h) when the gate passes. */
#ifndef PTSBENCH_GATE_SESSION_H
#define PTSBENCH_GATE_SESSION_H

#include <stdbool.h>
#include <stddef.h>

#include "read/measure.h"

struct gate_config {
    const char *baseline, *current;   /* results files or directories */
    const char *junit, *json;         /* NULL: none; json "-": stdout (the table to stderr) */
    const char *update;               /* --update-baseline PATH, or NULL */
    bool force_update;                /* update also when the gate fails */
    bool quiet;                       /* table rows only for cases that are not a plain pass */
    bool allow_incomplete;            /* gate on results of runs that did not complete */
    double tolerance;                 /* a fraction */
    const enum meas_metric *metrics;  /* NULL: GATE_DEFAULT_METRICS */
    size_t n_metrics;
};

struct gate_session;

/* Load both sides, plan the baseline update, compare (nothing written). NULL with one line in
 * err and *code the exit status: 2 bad input (unreadable results, a bad update path, nothing
 * to compare), 1 results of a run that did not complete. */
struct gate_session *gate_prepare(const struct gate_config *cfg, int *code, char *err,
                                  size_t errlen);
/* gate_prepare on sets the caller loaded: base built elsewhere (the results history's own
 * distribution, db/db_gate.h) and cur. cfg->baseline and cfg->current name them in the
 * reports; cfg->update must be NULL. A current set of a run that did not complete is refused
 * (*code 1) unless cfg->allow_incomplete. The sets stay the caller's. */
struct gate_session *gate_prepare_sets(const struct gate_config *cfg,
                                       const struct meas_set *base, const struct meas_set *cur,
                                       int *code, char *err, size_t errlen);
/* Write the table and the reports, update the baseline. Each output that cannot be written is
 * one line "ptsbench gate: --OPT: why" on stderr. Returns the exit status: 0 pass, 1 the gate
 * failed, 2 an output not written. */
int gate_execute(struct gate_session *s);
void gate_session_free(struct gate_session *s);

#endif
