/* pts_rules.h — the PTS suite's decisions and plan arithmetic, as pure functions (no I/O, no
 * globals): what pts_run.c decides from measured figures (XSR recovery, DIRTH's operating
 * points, a table's window statistics, HIR's wait-state numbers), what it promises before it
 * runs (each test's preparation and duration bound), and what it says at the end (the
 * compliance line, the notes for stop rules changed on the command line).
 *
 * Sources: docs/pts.md (the "docs/pts.md §" numbers below), as the
 * definitions in pts/ cite them; where the sources are thin the choice is ptsbench's, and it is said
 * so here and in the results. */
#ifndef PTSBENCH_PTS_RULES_H
#define PTSBENCH_PTS_RULES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pts/pts_def.h"

#define PTS_NOTE_LEN 256

/* ---- durations ---- */

/* ns x scale (--time-scale; 0 or 1: as defined), at least 1 ns. */
uint64_t pts_scaled_ns(uint64_t ns, double scale);
/* "45s", "3m20s", "28h00m". */
void pts_format_duration(double seconds, char *buf, size_t len);

/* ---- WSAT's stop rule (docs/pts.md §2.4: 4x the user capacity or 24 h, whichever first) ---- */

/* The notes for --wsat-capacity (cap_opt > 0) and --wsat-time (time_opt_ns > 0) on a test that
 * stops on capacity (d->stop == PTS_STOP_CAPACITY), naming the value used and the definition's
 * (the PTS's) value. A value equal to the definition's is no departure. Returns how many
 * notes were written (0..2); 0 for any other test. */
unsigned pts_wsat_option_notes(const struct pts_def *d, double cap_opt, uint64_t time_opt_ns,
                               char notes[2][PTS_NOTE_LEN]);

/* ---- XSR recovery (docs/pts.md §2.6: minutes until the last group's throughput reaches the
 * first group's average) ---- */

/* ptsbench's choice: the spec text is not available (UNCERTAIN), and "reaches" compared as
 * exact floating-point numbers calls a drive that returns to the very same throughput (the
 * average of equal figures differs from them in the last bits) "not recovered". A value within
 * 1% below the reference counts as reached. Recorded in the results as recovery_tolerance. */
#define PTS_XSR_RECOVERY_TOLERANCE 0.01

/* value >= reference x (1 - tolerance); false when either is not a number. */
bool pts_recovered(double value, double reference, double tolerance);
/* The last group's per-round throughput mb_s[0..n-1] against the first group's average: the
 * end of the first round that recovered, in minutes ((i + 1) x round_minutes), or NAN when none
 * did. */
double pts_xsr_recovery_minutes(const double *mb_s, size_t n, double reference, double tolerance,
                                double round_minutes);
/* Rounds of element_ns in group g at this time scale (at least 1). */
uint64_t pts_xsr_group_rounds(const struct pts_group *g, double scale, uint64_t element_ns);

/* ---- DIRTH / CBW operating points (docs/pts.md §2.8 step 5) ---- */

struct pts_dirth_points {
    unsigned max, mid, min;   /* indexes into the sweep: ti * nq + qi */
    bool max_found;           /* some point's mean latency is below the ceiling (else max = min) */
    bool min_is_1x1;          /* min is threads 1 x QD 1 (else: the lowest outstanding I/O) */
};

/* iops[i], lat_us[i] (mean latency) for the sweep point i = ti * nq + qi at threads[ti] x
 * qd[qi]:
 *   MaxIOPS = the highest IOPS whose mean latency is below ceiling_us;
 *   MinIOPS = the point at threads 1 x QD 1, found by value in the lists; without one, the
 *             lowest outstanding I/O (threads x QD; the first in sweep order on a tie);
 *   MidIOPS = among the points below the ceiling, the IOPS closest to (max + min) / 2.
 * Ties go to the first point in sweep order. With no point below the ceiling, max and mid are
 * the min point. */
void pts_dirth_choose(const double *iops, const double *lat_us, const unsigned *threads,
                      unsigned nt, const unsigned *qd, unsigned nq, double ceiling_us,
                      struct pts_dirth_points *out);

/* ---- a table's window statistics ---- */

/* The mean of v[0..n-1] weighted by count[i] (count NULL, or count[i] not a number: weight
 * 1). Values that are not numbers and zero counts are left out; NAN when nothing is left.
 * A table's rates are the plain means of its rounds'; its latencies are not averaged here but
 * taken from the window's merged histograms (core/lat_hist.h, lat_window_compute). */
double pts_weighted_mean(const double *v, const double *count, size_t n);
/* The largest number in v[0..n-1] (NAN when none is). */
double pts_max(const double *v, size_t n);

/* ---- HIR (docs/pts.md §2.5: wait states 1, 2, 3, 5, 10 = the idle time in multiples of the
 * access time, 5 s) ---- */

/* The spec's wait-state number: wait / access, rounded (0 when access_ns is 0). */
unsigned pts_hir_state_number(uint64_t wait_ns, uint64_t access_ns);

/* ---- the plan ---- */

struct pts_timing {
    double time_scale;            /* --time-scale (0 or 1: as defined) */
    uint64_t element_ns;          /* the element length in force (--round-time, or scaled) */
    unsigned max_rounds;          /* the round limit in force; 0 = none */
    unsigned elements_per_round;  /* standard tests: elements per round the target can run */
    unsigned subtests;            /* standard tests: subtests the target can run */
    uint64_t max_time_ns;         /* capacity-stopped tests: the time limit in force */
    double stop_capacity;         /* capacity-stopped tests: x user capacity in force */
    unsigned threads, qd;         /* the test's outstanding I/O (HIR: its preconditioning) */
    bool fast;                    /* --precondition fast: the fast pass in WIPC's place */
};

/* An upper bound of the test's measuring time in seconds, from its definition (purge and WIPC
 * not included; INFINITY without a round limit):
 *   standard, steady:   subtests x max_rounds x elements_per_round x element
 *   standard, capacity: the time limit
 *   hir:   max_rounds x precondition round + sum over wait states of repetitions x (access +
 *          wait) + wait states x baseline_accesses x access
 *   xsr:   the groups' rounds x element
 *   dirth: max_rounds x (precondition round + points x element) + 3 x histogram time */
double pts_estimate_s(const struct pts_def *d, const struct pts_timing *t);
/* The round a steady-state loop likely ends at: the first the SNIA 5-round window allows. */
#define PTS_LIKELY_ROUND 5u
/* The likely measuring time: pts_estimate_s with every steady-state loop (the standard tests'
 * rounds, HIR's and DIRTH's preconditioning and DIRTH's sweep) ending at PTS_LIKELY_ROUND (or
 * its round limit, when lower); WSAT's, XSR's and HIR's wait states' times are as bounded. */
double pts_estimate_likely_s(const struct pts_def *d, const struct pts_timing *t);
/* Does the test's tracking metric measure throughput (mb_s: its lines show MB/s)? XSR, which
 * tracks none, measures throughput too. */
bool pts_tracks_mb_s(const struct pts_def *d);
/* How the test prepares the device, e.g. "purge, WIPC 2x SEQ 128KiB writes",
 * "purge, steady-state preconditioning: RND 8KiB writes at 32 x 32 in rounds of 30m00s",
 * "purge, no preconditioning (from fresh-out-of-box)". */
void pts_preparation_text(const struct pts_def *d, const struct pts_timing *t, char *buf,
                          size_t len);
/* What the test's loop is, e.g. "5 wait states x 360 x (5s + idle), 360 x 5s baseline". */
void pts_loop_text(const struct pts_def *d, const struct pts_timing *t, char *buf, size_t len);

/* ---- the closing line ---- */

/* "complete; compliant with the spec's settings", "complete; NOT compliant:" (notes follow),
 * "interrupted; NOT compliant (did not complete)"; with " (simulated drive)" after
 * "compliant" for a simulated target. Compliant = complete and no notes. */
void pts_closing_line(const char *status, bool complete, size_t n_notes, bool simulated,
                      char *buf, size_t len);

#endif
