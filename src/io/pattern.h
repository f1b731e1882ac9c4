/* pattern.h — write-buffer contents with a chosen compressibility, fresh on every write.
 *
 * The buffer is cut into chunks of PATTERN_CHUNK (4 KiB, or the whole buffer when smaller).
 * Each chunk is random bytes from the worker's PRNG followed by zeros; the zero share is the
 * compressibility: compress_pct=90 leaves 10% random bytes, so a compressor (zlib, lz4, a
 * SandForce controller, zram) stores about 10% of the data.  The random head of every chunk
 * is at least PATTERN_MIN_RANDOM bytes, so no two chunks (and so no two writes) are equal even
 * at 100%: a deduplicating controller cannot cheat -- unless dedupe is asked for.
 *
 * fio's dedupe_percentage (pattern_dedupe): that share of chunks repeats an earlier one, the
 * rest stay unique; each chunk keeps its compressibility (a repeat is a whole chunk, random
 * head and zeros alike).  fio decides per write buffer; ptsbench per 4 KiB chunk, the unit
 * deduplicating stores work in (the same for fio's bs=4k).  repeat (fio's default): a repeat is
 * the last unique chunk again.  working_set: a repeat is one of ws_chunks chunks drawn
 * uniformly; without dedupe_global they are this generator's own first ws_chunks unique chunks,
 * with it a set every generator seeded with the same ws_seed shares (the jobs' repeats
 * coincide across their targets).  With dedupe the unique chunks are seeded one by one (so a
 * chunk can be made again); without it the bytes are those of before, byte for byte.  Pure
 * apart from the PRNG state. */
#ifndef PTSBENCH_PATTERN_H
#define PTSBENCH_PATTERN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/rng.h"

#define PATTERN_CHUNK 4096u
#define PATTERN_MIN_RANDOM 16u

struct pattern {
    unsigned compress_pct;   /* 0..100 */
    struct rng rng;
    /* dedupe (pattern_dedupe); dedupe_pct 0: none */
    unsigned dedupe_pct;     /* 0..100: share of chunks that repeat an earlier one */
    bool working_set;        /* fio's dedupe_mode=working_set (else repeat) */
    uint64_t ws_chunks;      /* working_set: the set's size in chunks (>= 1) */
    uint64_t base, ws_base;  /* unique chunk k is seeded from base and k; the set's from ws_base */
    uint64_t unique;         /* unique chunks made so far */
    struct rng dd;           /* draws: repeat or not, which chunk of the set */
};

void pattern_init(struct pattern *p, unsigned compress_pct, uint64_t seed);
/* After pattern_init: make pct percent of the chunks repeats (mode repeat, or working_set over
 * ws_chunks chunks: ws_seed 0 for the generator's own first ws_chunks unique chunks, one
 * shared non-zero value for dedupe_global). pct 0 leaves the generator as pattern_init made it. */
void pattern_dedupe(struct pattern *p, unsigned pct, bool working_set, uint64_t ws_chunks,
                    uint64_t ws_seed);
/* Fill len bytes (any length; the hot path uses multiples of 512) with fresh content. */
void pattern_fill(struct pattern *p, void *buf, size_t len);
/* Random bytes at the head of a chunk of chunk_len bytes for this compressibility. */
size_t pattern_random_bytes(unsigned compress_pct, size_t chunk_len);

#endif
