/* fastprep.h — `--precondition fast`, one hand-off for every runner (run, profile, the PTS
 * tests): the checks of the request, the spare factor chosen for a target, the stimulus's
 * random map, and the pass issued through core/steps.h step_fast with what follows it (issue
 * 48, docs/fast-precondition.md).
 *
 * Promises: fastprep_check refuses --op without fast and two different spare factors;
 * fastprep_choose takes --op (or fast:RHO) first, else the simulated drive's rho_eff, else 0 on
 * a target with no FTL, and refuses a real drive without one (drive_state.h ds_op_choose);
 * fastprep_stimulus_map turns a writing stimulus's random map off unless the workload names
 * it; fastprep_run writes the pass in the unit the runner gives (fastpass_unit_of for a
 * workload) on fastpass_threads threads x QD 32, advances the drive state (ds_fast), builds the
 * "fast" record (results.h results_fast_json; on a simulated drive with the check after the
 * pass), sets the fill guard's lag (ds_guard_lag, steady.h) and lowers WDPC's floor to it
 * unless the user gave the floor (fastprep_wdpc_floor). Nothing here prints unless asked. */
#ifndef PTSBENCH_FASTPREP_H
#define PTSBENCH_FASTPREP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/drive_state.h"
#include "core/steps.h"
#include "stats/steady.h"

struct json_object;
struct workload;

/* The request as parsed (cli: --precondition fast[:RHO], --op PCT|RHO). */
struct fast_request {
    bool on;                   /* --precondition fast */
    double rho;                /* fast:RHO, 0: not given */
    double op_rho;             /* --op, 0: not given */
};

/* --op without fast, or two different spare factors: -1 with err. */
int fastprep_check(const struct fast_request *r, char *err, size_t errlen);

/* What the pass cannot follow or run on (only when r->on): a resumed run (--resume), an engine
 * that runs whole rounds (it cannot take the pass's offsets; e NULL: not chosen yet). 0, or -1
 * with err. */
int fastprep_usable(const struct fast_request *r, bool resume, const struct engine_ops *e,
                    char *err, size_t errlen);

/* What is known of t's FTL and the spare factor the pass is built for. */
struct fast_prep {
    enum ds_ftl ftl;
    struct ds_op op;
};
/* 0, or -1 with err (a real drive without --op). */
int fastprep_choose(const struct target_info *t, const struct fast_request *r,
                    struct fast_prep *out, char *err, size_t errlen);

/* The stimulus after the pass draws its random writes without a random map (uniform
 * independent offsets, the model's assumption: docs/fast-precondition.md §4), unless wl names
 * random_map or norandommap itself. Returns whether it turned wl's map off. */
bool fastprep_stimulus_map(struct workload *wl);
/* What stimulus wl draws with after the pass, for the record; map_off: fastprep_stimulus_map
 * turned it (or another job's) off (wl may then be NULL). NULL: no random writes. */
const char *fastprep_map_said(const struct workload *wl, bool map_off);

/* Does the pass model wl's stimulus: random writes only (random_pct 100, a write share), whose
 * equilibrium the pass leaves? Only then is the guard's lag shortened after it (steady.h
 * STEADY_GUARD_LAG_FAST's basis was measured on such stimuli); a sequential or partly sequential
 * stimulus keeps its whole fill to show its own state. */
bool fastprep_models(const struct workload *wl);

/* WDPC's floor after a pass whose guard lag is lag_fills: the lag when it is shorter than
 * min_fills and the user did not give min_fills (--wdpc-fills), else min_fills. Pure. */
double fastprep_wdpc_floor(double lag_fills, double min_fills, bool given);

/* The pass a runner asks for. */
struct fastprep_pass {
    struct wl_range range;     /* the active range */
    uint32_t unit;             /* bytes a write: fastpass_unit_of(stimulus), or the runner's */
    const char *unit_basis;    /* the unit in words (recorded) */
    unsigned workers;          /* the stimulus's: the pass runs fastpass_threads of them */
    unsigned compress_pct;
    uint64_t seed;
    const char *who;           /* opens the announcing line (NULL: nothing printed) */
    bool guard_lag;            /* set the guard's lag (a random-writing stimulus: the pass models
                                  uniform random writes, a sequential one has its whole fill) */
    const char *stimulus_map;  /* recorded: fastprep_map_said's */
    double *wdpc_min_fills;    /* WDPC's floor, lowered by fastprep_wdpc_floor (NULL: none) */
    bool wdpc_given;           /* ... the user gave it */
};

/* The pass (f's rho is fp's), written through c. guard (may be NULL): its lag for what
 * follows (ds_guard_lag's for DS_PREP_FAST) when p->guard_lag. *json: the record (caller
 * owns). *elapsed_s (may be NULL): the pass's clock (virtual on a simulated drive). 0, 1
 * interrupted, -1 with err. */
int fastprep_run(const struct run_ctx *c, const struct fast_prep *fp,
                 const struct fastprep_pass *p, struct steady_guard *guard,
                 struct json_object **json, double *elapsed_s, char *err, size_t errlen);

#endif
