/* precondition.h — the preconditioning that `run` and `profile` share: WIPC's defaults (the
 * active range written twice with 128 KiB sequential writes, PTS 2.0.2 IOPS step 2.2, at the
 * stimulus's data compressibility; the step itself is step_wipc in core/steps.h) and WDPC (the
 * stimulus itself, PTS step 3) run until the fill guard of steady.h passes.
 *
 * WDPC: the stimulus runs in rounds that are recorded but not judged until it has written at
 * least min_fills of the active range and the window ending at its latest round passes the SNIA
 * rule and the fill guard, or it has written max_fills (then the drive is reported as still in
 * a transient unless a later window passes). Then the measured rounds begin, and the first of
 * their windows that passes the rule and the guard (whose history reaches back into the WDPC
 * rounds) is the steady-state window.
 * UNCERTAIN: the PTS runs its test loop as the WDPC and judges the window inside it; it states
 * no minimum of writes. The defaults (at least 1 fill, at most 5) are ptsbench's: the simulated
 * presets settle after 1-3 fills of 4 KiB random writes after WIPC. */
#ifndef PTSBENCH_PRECONDITION_H
#define PTSBENCH_PRECONDITION_H

#include <stdbool.h>
#include <stddef.h>

#include "device/target.h"
#include "io/workload.h"
#include "stats/steady.h"

#define PRECOND_WIPC_BS (128u * 1024u)
#define PRECOND_WIPC_FILLS 2u
#define PRECOND_WIPC_QD 32u
/* run's and profile's WIPC over an active range at a compressibility (struct wipc_spec). */
#define WIPC_SPEC_DEFAULT(active_range, compress)                                            \
    ((struct wipc_spec){.range = (active_range), .bs = PRECOND_WIPC_BS, .threads = 1,         \
                        .qd = PRECOND_WIPC_QD, .fills = PRECOND_WIPC_FILLS,                   \
                        .compress_pct = (compress)})
#define PRECOND_WDPC_MIN_FILLS 1.0
#define PRECOND_WDPC_MAX_FILLS 5.0

/* The tracked variable and the stimulus's fills, round by round, for the window rule and the
 * fill guard. Rounds are numbered 1.. in the order pushed (WDPC rounds first). */
struct precond_track {
    double *y, *fills;
    unsigned n, cap;
};

void precond_track_push(struct precond_track *t, double y, double fills);
void precond_track_free(struct precond_track *t);
/* The window ending at the latest round, when it starts at or after first_round: the SNIA rule
 * into *win, and (g not NULL) the fill guard into *gr. Returns true when the rule passes (and the
 * guard, when given). false also when there are too few rounds (then *win is zeroed). */
bool precond_track_eval(const struct precond_track *t, unsigned first_round,
                        const struct steady_criteria *c, const struct steady_guard *g,
                        struct steady_window *win, struct steady_guard_result *gr);

/* What ends a WDPC: "" (go on), "guard" (min fills written and the guard passed on the latest
 * window), "max_fills". fills: written by the stimulus so far. */
const char *precond_wdpc_end(double fills, double min_fills, double max_fills, bool guard_passed);

#endif
