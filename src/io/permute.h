/* permute.h — a random permutation of [0, n) in O(1) memory: every index exactly once per pass.
 *
 * ptsbench's random workloads visit every block of the active range once per pass in a random
 * order, as fio does by default with its random map (norandommap=0): a drive reaches its
 * steady state after about the same number of fills as under fio-based PTS implementations,
 * instead of leaving e^-x of the range unwritten after x fills under independent draws.
 * Construction: a 4-round Feistel network over [0, 2^bits) with keys from the caller's PRNG,
 * and cycle walking into [0, n). Each pass takes fresh keys (a new permutation). Pure. */
#ifndef PTSBENCH_PERMUTE_H
#define PTSBENCH_PERMUTE_H

#include <stdint.h>

#include "lib/rng.h"

struct permute {
    uint64_t n;              /* domain size */
    uint64_t next;           /* index within the pass */
    unsigned lbits, rbits;   /* Feistel halves: lbits + rbits = bits, lbits >= rbits */
    uint64_t keys[4];
    uint64_t pass;           /* completed passes */
};

void permute_init(struct permute *p, uint64_t n, struct rng *r);
/* The next element of the current pass; starts a new pass (new keys from r) after n. */
uint64_t permute_next(struct permute *p, struct rng *r);
/* The permutation itself (for tests): index i -> element, for the current keys. */
uint64_t permute_at(const struct permute *p, uint64_t i);

#endif
