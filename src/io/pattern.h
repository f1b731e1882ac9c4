/* pattern.h — write-buffer contents with a chosen compressibility, fresh on every write.
 *
 * The buffer is cut into chunks of PATTERN_CHUNK (4 KiB, or the whole buffer when smaller).
 * Each chunk is random bytes from the worker's PRNG followed by zeros; the zero share is the
 * compressibility: compress_pct=90 leaves 10% random bytes, so a compressor (zlib, lz4, a
 * SandForce controller, zram) stores about 10% of the data.  The random head of every chunk
 * is at least PATTERN_MIN_RANDOM bytes, so no two chunks (and so no two writes) are equal even
 * at 100%: a deduplicating controller cannot cheat.  Pure apart from the PRNG state. */
#ifndef PTSBENCH_PATTERN_H
#define PTSBENCH_PATTERN_H

#include <stddef.h>
#include <stdint.h>

#include "lib/rng.h"

#define PATTERN_CHUNK 4096u
#define PATTERN_MIN_RANDOM 16u

struct pattern {
    unsigned compress_pct;   /* 0..100 */
    struct rng rng;
};

void pattern_init(struct pattern *p, unsigned compress_pct, uint64_t seed);
/* Fill len bytes (any length; the hot path uses multiples of 512) with fresh content. */
void pattern_fill(struct pattern *p, void *buf, size_t len);
/* Random bytes at the head of a chunk of chunk_len bytes for this compressibility. */
size_t pattern_random_bytes(unsigned compress_pct, size_t chunk_len);

#endif
