/* fastpass.h — issue 48's fast preconditioning pass (PROTOTYPE, simulated drive only): one pass
 * that leaves an FTL with greedy (or FIFO) garbage collection in the state uniform random writes
 * lead to, so that the stimulus starts at its steady level (docs/fast-precondition.md).
 *
 * Model (Desnoyers, "Analytic models of SSD write performance", ACM TOS 2012; the idea of
 * fio 3.40's sprandom): under uniform random writes with spare factor rho, a line written y host
 * writes ago holds a share exp(-y/U) of valid units, so in write order (x = 0 oldest .. 1
 * newest) the line at x holds v_gc^(1-x), where v_gc = 1 - 1/A is the share the collector finds
 * and A the Lambert-W write amplification (sim_wa_oracle). The pass writes the physical space
 * U (1 + rho) once in FASTPASS_REGIONS regions in order: each region takes the next fresh units
 * of one random permutation of the range, after rewriting the units chosen in the region before
 * it; each write of region r is chosen (for rewriting at the start of r + 1) with probability
 * fastpass_invalid_share(rho, r). It writes (1 + rho) fills of the range in all.
 *
 * Promises: fastpass_invalid_share is pure; the generator yields every unit of the range at least
 * once and is deterministic for a seed. fastpass_sim issues the pass on a simulated drive in a
 * closed loop of qd outstanding 4 KiB writes from the drive's virtual clock, and advances the
 * clock to the last completion. It does not go through an engine (UNCERTAIN for a merge: the
 * engine takes workloads, not offset lists; docs/fast-precondition.md §6). */
#ifndef PTSBENCH_FASTPASS_H
#define PTSBENCH_FASTPASS_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "device/target.h"
#include "io/fastgen.h"

#define FASTPASS_REGIONS FASTGEN_REGIONS
#define FASTPASS_UNIT 4096u

/* The share of region r's writes (0 = the first written) that the pass invalidates. */
double fastpass_invalid_share(double rho, unsigned r, unsigned n_regions);

struct fastpass_result {
    double rho;              /* the spare factor the pass was built for */
    uint64_t units_written;  /* 4 KiB writes issued */
    uint64_t units;          /* the range, in 4 KiB units */
    simt t_start, t_end;     /* virtual ns (fastpass_sim); step_fast: 0 and the pass's elapsed
                                ns on the engine's clock (virtual on the simulated drive) */
    unsigned workers, qd;    /* step_fast: the pool it ran on */
    bool no_ftl;             /* step_fast: a target with no FTL (file, zram, loop): the pass
                                was only (1 + rho) fills of writes (steps.h step_fast_no_ftl) */
    double wall_s;           /* step_fast: wall-clock seconds */
};

/* The pass over [offset, offset + len) of the simulated drive w (4 KiB aligned), qd outstanding,
 * data compress_pct compressible. 0, 1 when *stop was set (the pass cut short), -1 when the range
 * is too small (under FASTPASS_REGIONS units) or too large (2^32 units). */
int fastpass_sim(struct sim_world *w, uint64_t offset, uint64_t len, double rho, unsigned qd,
                 unsigned compress_pct, uint64_t seed, volatile sig_atomic_t *stop,
                 struct fastpass_result *out);

#endif
