/* fastgen.h — the fast preconditioning pass's offsets (issue 48, docs/fast-precondition.md):
 * a pure generator of the units one worker writes, in order (a unit: the pass's write size,
 * the stimulus's write size aligned, at least 4 KiB: core/fastpass.h), so that a drive
 * with greedy (or FIFO) garbage collection is left in the state uniform random writes lead to.
 *
 * Model (Desnoyers, "Analytic models of SSD write performance", ACM TOS 2012; the idea of fio
 * 3.40's sprandom): at spare factor rho (alpha = 1 + rho) the collector finds a share v_gc of
 * valid units in its victims, v_gc = exp(-alpha (1 - v_gc)) (fastgen_v_gc; the sim layer's
 * sim_wa_oracle is 1 / (1 - v_gc)), and in write order x (0 oldest .. 1 newest) a line holds
 * v_gc^(1 - x) valid. The pass writes (1 + rho) x the worker's share in N regions in order:
 * region r writes first the units chosen in region r - 1 (their rewrite), then the next fresh
 * units of one random permutation of the share; exactly round(p_r s_r) of region r's s_r writes
 * are chosen (selection sampling), p_r = fastgen_invalid_share(rho, r, N) = 1 - v_gc^(1 - x_r),
 * x_r = (r + 1/2) / N. The last region chooses none and takes the fresh units left, so every
 * unit of the share is written fresh exactly once, each rewrite follows its unit's first write,
 * and the length is fixed before the pass (fastgen_length): round((1 + rho) share) within N.
 * rho 0: v_gc 1, no rewrites: the share once in a random order.
 *
 * Workers: the range's units are one permutation (io/permute.h, keyed by the pass's seed, the
 * same in every worker); worker id of n takes the permutation's indexes [id U / n, (id + 1) U / n)
 * (a random, disjoint share), its choices drawn from its own generator. Workers that progress
 * alike write their regions at the same time, so the drive sees the model's order as a whole.
 * Past its length a worker writes uniform random units of its share (the stimulus's kind).
 * Memory: two lists of 4-byte indexes, at most one region's choices each, per worker (30 TB
 * in one share: about 0.3 GB); fastgen_free releases them. */
#ifndef PTSBENCH_FASTGEN_H
#define PTSBENCH_FASTGEN_H

#include <stdbool.h>
#include <stdint.h>

#include "io/permute.h"
#include "lib/rng.h"

#define FASTGEN_REGIONS 100u

/* The valid share of greedy GC's victims at spare factor rho (1 for rho <= 0). Pure. */
double fastgen_v_gc(double rho);
/* The share of region r's writes (0 = the first written) the pass rewrites. Pure. */
double fastgen_invalid_share(double rho, unsigned r, unsigned n_regions);

struct fastgen {
    uint64_t share_lo, share_n;      /* permutation indexes of this worker's units */
    struct permute perm;             /* the range's units, the same keys in every worker */
    struct rng rng;                  /* this worker's choices */
    unsigned n_regions, r;
    uint64_t size[FASTGEN_REGIONS];  /* writes of each region */
    uint64_t pick[FASTGEN_REGIONS];  /* of which chosen for a rewrite */
    uint64_t length, issued;         /* the pass's writes; writes handed out */
    uint64_t fresh;                  /* fresh units handed out */
    uint64_t left, k_left;           /* region r: writes left, choices left */
    uint32_t *prev, *next;           /* region r's rewrites, and its chosen: share indexes */
    uint64_t n_prev, i_prev, n_next;
};

/* Worker id of n_workers over a range of units, built for rho; seed keys the permutation (the
 * same for every worker of a pass), and with id the worker's choices. 0, or -1 when the
 * worker's share is empty or above 2^32 units (16 TiB of 4 KiB: more workers split it). */
int fastgen_init(struct fastgen *g, uint64_t units, double rho, uint64_t seed, unsigned id,
                 unsigned n_workers);
/* The pass's writes for worker id of n_workers (the same plan fastgen_init makes). Pure. */
uint64_t fastgen_length_of(uint64_t units, double rho, unsigned id, unsigned n_workers);
/* The next unit to write (past the pass: a uniform random unit of the share). */
uint64_t fastgen_next(struct fastgen *g);
/* The region of the write fastgen_next last returned (n_regions past the pass). */
static inline unsigned fastgen_region(const struct fastgen *g) { return g->r; }
void fastgen_free(struct fastgen *g);

#endif
