/* fastprep.h — `--precondition fast` for the runners beside `run` (profile, the PTS tests):
 * the checks of the request, the spare factor chosen for a target, and the pass issued through
 * core/steps.h step_fast with its hand-off (issue 48, docs/fast-precondition.md).
 *
 * Promises: fastprep_check refuses the combinations run refuses (core/run.c), with the same
 * words; fastprep_choose takes --op (or fast:RHO) first, else the simulated drive's rho_eff,
 * else 0 on a target with no FTL, and refuses a real drive without one (drive_state.h
 * ds_op_choose); fastprep_run writes the pass, advances the drive state (ds_fast: condition
 * "fast", the stimulus after it is the WDPC), builds the "fast" record (results.h
 * results_fast_json; on a simulated drive with the check after the pass) and, when asked, sets
 * the fill guard's lag (ds_guard_lag, steady.h). Nothing here prints unless asked. */
#ifndef PTSBENCH_FASTPREP_H
#define PTSBENCH_FASTPREP_H

#include <stdbool.h>
#include <stddef.h>

#include "core/drive_state.h"
#include "core/steps.h"
#include "stats/steady.h"

struct json_object;

/* The request as parsed (cli: --precondition fast[:RHO], --op PCT|RHO). */
struct fast_request {
    bool on;                   /* --precondition fast */
    double rho;                /* fast:RHO, 0: not given */
    double op_rho;             /* --op, 0: not given */
};

/* --op without fast, or two different spare factors: -1 with err (run's words). */
int fastprep_check(const struct fast_request *r, char *err, size_t errlen);

/* What is known of t's FTL and the spare factor the pass is built for. */
struct fast_prep {
    enum ds_ftl ftl;
    struct ds_op op;
};
/* 0, or -1 with err (a real drive without --op). */
int fastprep_choose(const struct target_info *t, const struct fast_request *r,
                    struct fast_prep *out, char *err, size_t errlen);

/* The pass over range at threads x qd (f's rho is fp's), written through c; `who` opens the
 * announcing line (NULL: none printed). guard (may be NULL): the lag for what follows,
 * ds_guard_lag's for DS_PREP_FAST, left at its default when random_stimulus is false (the pass
 * models uniform random writes: after it a sequential stimulus has its whole fill to show its
 * own state). *json: the record (caller owns). *elapsed_s: the pass's clock (virtual on a
 * simulated drive). 0, 1 interrupted, -1 with err. */
int fastprep_run(const struct run_ctx *c, const struct fast_prep *fp, const struct fast_spec *f,
                 const char *who, bool random_stimulus, struct steady_guard *guard,
                 struct json_object **json, double *elapsed_s, char *err, size_t errlen);

#endif
