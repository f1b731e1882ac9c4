/* fastpass.h — issue 48's fast preconditioning pass: one pass that leaves an FTL with greedy
 * (or FIFO) garbage collection in the state uniform random writes lead to, so that the stimulus
 * starts at its steady level (docs/fast-precondition.md).
 *
 * Model (Desnoyers, "Analytic models of SSD write performance", ACM TOS 2012; the idea of
 * fio 3.40's sprandom): the offsets are io/fastgen.h's (the one place of the region and
 * permutation logic): (1 + rho) x the range in FASTPASS_REGIONS regions, region r's writes
 * invalidated with share fastpass_invalid_share(rho, r) = 1 - v_gc^(1 - x_r).
 *
 * Two ways to issue it: `run --precondition fast` through the run's engine on any target
 * (core/steps.h step_fast, which fills struct fastpass_result; units of the stimulus's write
 * size, fastpass_unit_of, at fastpass_threads x QD 32), and fastpass_sim, straight into
 * a simulated drive in a closed loop of qd outstanding 4 KiB writes from the drive's virtual
 * clock, advancing the clock to the last completion (no engine: for the model's tests).
 * Promises: fastpass_invalid_share is pure; the pass writes every unit of the range fresh once
 * and is deterministic for a seed. */
#ifndef PTSBENCH_FASTPASS_H
#define PTSBENCH_FASTPASS_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "device/target.h"
#include "io/fastgen.h"
#include "io/workload.h"

#define FASTPASS_REGIONS FASTGEN_REGIONS
#define FASTPASS_UNIT 4096u          /* the smallest unit the pass writes */
#define FASTPASS_MIN_THREADS 4u      /* the pass's threads: max(stimulus workers, this) x QD 32 */

/* The unit the pass writes for stimulus wl (each unit a whole extent the stimulus's writes
 * overwrite, so a read of one lies in one physical place, as after the stimulus): the writes'
 * block size; of a bssplit, the most frequent write size (the smaller on a tie); of a bsrange,
 * its smallest size (UNCERTAIN: a mix of sizes has another equilibrium, not modelled).
 * Rounded up to a multiple of FASTPASS_UNIT; FASTPASS_UNIT when range_start is not aligned to
 * it. *how (may be NULL): in words. Pure. */
uint32_t fastpass_unit_of(const struct workload *wl, uint64_t range_start, const char **how);
/* The pass's threads for a stimulus of `workers` over `units` units: max(workers,
 * FASTPASS_MIN_THREADS), fewer when the range holds under FASTPASS_REGIONS units a thread (at
 * least 1). Returns the threads; *reduced tells whether the range made them fewer. Pure. */
unsigned fastpass_threads(unsigned workers, uint64_t units, bool *reduced);

/* The share of region r's writes (0 = the first written) that the pass invalidates. */
double fastpass_invalid_share(double rho, unsigned r, unsigned n_regions);

struct fastpass_result {
    double rho;              /* the spare factor the pass was built for */
    uint32_t unit_bytes;     /* the unit (fastpass_sim: FASTPASS_UNIT; step_fast: the spec's) */
    uint64_t units_written;  /* unit writes issued */
    uint64_t units;          /* the range, in units */
    simt t_start, t_end;     /* virtual ns (fastpass_sim); step_fast: 0 and the pass's elapsed
                                ns on the engine's clock (virtual on the simulated drive) */
    unsigned workers, qd;    /* step_fast: the pool it ran on */
    bool no_ftl;             /* step_fast: a target with no FTL (file, zram, loop): the pass
                                was only (1 + rho) fills of sequential writes (steps.h
                                step_fast_no_ftl) */
    uint32_t write_bytes;    /* step_fast: the size of the writes issued (unit_bytes, or on a
                                target with no FTL the sequential writes' size, WIPC's 128 KiB) */
    bool sequential;         /* step_fast: written in order (no FTL: nothing to shape) */
    double wall_s;           /* step_fast: wall-clock seconds */
};

/* The pass over [offset, offset + len) of the simulated drive w (4 KiB aligned), qd outstanding,
 * data compress_pct compressible. 0, 1 when *stop was set (the pass cut short), -1 when the range
 * is too small (under FASTPASS_REGIONS units) or too large (2^32 units). */
int fastpass_sim(struct sim_world *w, uint64_t offset, uint64_t len, double rho, unsigned qd,
                 unsigned compress_pct, uint64_t seed, volatile sig_atomic_t *stop,
                 struct fastpass_result *out);

/* The simulated drive after a pass (params p, sim_info in, counters st): the GC pool in lines
 * (fg_lines + SIM_POOL_EXTRA_LINES per controller: what rho_eff leaves out of the usable space)
 * into *pool_lines (may be NULL), and whether the pass wrote the physical capacity: free lines
 * no more than the pool and a write amplification of at least 1 (the stimulus's first writes
 * start GC: steady.h's basis for the shorter lag). Pure; core/fastprep.c's check and the tests'. */
bool fastpass_sim_settled(const struct sim_params *p, const struct sim_info *in,
                          const struct sim_stats *st, unsigned long long *pool_lines);

/* A closed loop's n outstanding completion times t[0..n-1] as a binary min-heap (t[0] the
 * earliest): after t[0] was moved later (the write issued in its slot completes then), restore
 * the order. fastpass_sim's loop, and tests/bench/bench_fastpc's. */
void fastpass_heap_settle(simt *t, unsigned n);

#endif
