/* steady.h — SNIA PTS steady-state detection, as pure functions.
 *
 * PTS 2.0.2 §2.1.24 (quoted in research/snia-pts.md §1.4): over a measurement window of 5
 * rounds, for the tracked variable y:
 *   a) data excursion  max(y) - min(y)                 <= 20% of avg(y)
 *   b) slope excursion |k| * (last - first round)      <= 10% of avg(y)
 *      where y = k*x + d is the least-squares line over the window (x = round number).
 * UNCERTAIN in the spec text: "less than" vs "no more than". We use <= ("no more than",
 * "within"), as cloudharmony does.  The window slides by one round; the first round whose
 * window (rounds x-4..x) passes is the steady-state round.  Default limit 25 rounds. */
#ifndef PTSBENCH_STEADY_H
#define PTSBENCH_STEADY_H

#include <stdbool.h>
#include <stddef.h>

struct steady_criteria {
    unsigned window;       /* rounds in the measurement window (5) */
    double range_frac;     /* allowed data excursion as a fraction of the average (0.20) */
    double slope_frac;     /* allowed slope excursion as a fraction of the average (0.10) */
    unsigned max_rounds;   /* rounds before giving up (25); 0 = no limit */
};

#define STEADY_CRITERIA_SNIA ((struct steady_criteria){5, 0.20, 0.10, 25})

struct steady_window {
    unsigned first_round, last_round;   /* 1-based round numbers of the window */
    double average, min, max;
    double range, range_allowed;        /* measured and allowed data excursion */
    double slope, intercept;            /* fitted y = slope * round + intercept */
    double slope_excursion, slope_excursion_allowed;
    bool range_ok, slope_ok, steady;
};

/* Least-squares fit y = slope*x + intercept; n >= 2 (n < 2: slope 0, intercept = y[0]). */
void steady_fit(const double *x, const double *y, size_t n, double *slope, double *intercept);

/* Evaluate the window ending at round last_round (1-based) of y[0..n_rounds-1] (y[i] is
 * round i+1).  Returns 0, or -1 when fewer than c->window rounds end there. */
int steady_eval(const double *y, size_t n_rounds, unsigned last_round,
                const struct steady_criteria *c, struct steady_window *out);

/* Scan rounds c->window .. min(n_rounds, max_rounds): return the first round whose window
 * is steady (and fill *out with that window), or 0 when none is (then *out holds the last
 * window evaluated, or is zeroed with steady=false when there were too few rounds). */
unsigned steady_first(const double *y, size_t n_rounds, const struct steady_criteria *c,
                      struct steady_window *out);

/* Several tracking variables (PTS 2.0 IOPS: 4 KiB 0/100, 64 KiB 65/35, 1024 KiB 100/0): the
 * device is steady at a round only when every variable's window ending there is steady.
 * ys[v][r] is variable v at round r+1. Returns the first such round (0 if none) and fills
 * windows[v] with each variable's window at that round (or at the last round evaluated). */
unsigned steady_first_all(const double *const *ys, unsigned n_vars, size_t n_rounds,
                          const struct steady_criteria *c, struct steady_window *windows);

#endif
