/* db_gate.h — `ptsbench gate --db FILE --against last:N|median:N|tag:NAME`: the baseline of
 * each point and metric is the history's own distribution (db_history_stats, db.h):
 *   last:N, median:N  the median of the last N comparable runs (by start time): runs of the
 *                     same target model, at the same point key, the current run itself left
 *                     out (it may have been imported already); both spellings name this rule;
 *   tag:NAME          the median of the comparable runs tagged NAME (`db tag ID NAME`).
 * The baseline's noise band is the history's band (the larger of the runs' median window spread
 * and 3 robust standard deviations of their values, relative to the median), so that one noisy
 * or outlying baseline run neither moves the baseline nor widens the band; gate's verdict rule
 * (judge/gate.h) then compares the current run with it as with a single baseline. A point with
 * no comparable history is "new". */
#ifndef PTSBENCH_DB_GATE_H
#define PTSBENCH_DB_GATE_H

#include <stddef.h>

#include "db/db.h"
#include "judge/gate_session.h"

enum db_against_kind { DB_AGAINST_LAST, DB_AGAINST_MEDIAN, DB_AGAINST_TAG };

struct db_against {
    enum db_against_kind kind;
    unsigned n;          /* last:N, median:N (1..10000); tag: every tagged run */
    char tag[129];
    char text[160];      /* as given */
};

/* "last:10", "median:5", "tag:release-1.2". 0, or -1 with one line naming the value. */
int db_against_parse(const char *s, struct db_against *a, char *err, size_t errlen);

/* The baseline set for cur's points from the history (cur_identity's run left out; model: the
 * current target's model, "" for any). Points without history are left out of base. desc gets
 * words for the reports ("history FILE: median of the last 10 comparable runs").
 * 0, or -1 with one line. */
int db_history_baseline(struct db *d, const struct db_against *a, const struct meas_set *cur,
                        const char *cur_identity, const char *model, struct meas_set *base,
                        char *desc, size_t desclen, char *err, size_t errlen);

/* The whole prepare of a history gate: cfg->current loaded, the database opened (it must
 * exist), the baseline built, gate_prepare_sets. NULL with one line and *code (2 bad input,
 * 1 an incomplete current run). */
struct gate_session *db_gate_prepare(const struct gate_config *cfg, const char *db_file,
                                     const struct db_against *a, int *code, char *err,
                                     size_t errlen);

#endif
