/* hist.h — log-linear latency histogram (HdrHistogram / fio "plat" style).
 *
 * Values are nanoseconds (uint64).  Values below 2^HIST_SUB_BITS (128 ns) have one bucket
 * each (exact).  Above that every power-of-two range [2^m, 2^(m+1)) is split into
 * 2^(HIST_SUB_BITS-1) = 64 equal buckets, so a bucket is never wider than 1/64 of the
 * values it holds, and the value reported for a bucket (its midpoint, clamped to the
 * recorded min and max) is within HIST_REL_ERROR = 1/128 (0.79%) of every value in it.
 * Percentiles use the nearest-rank definition on the bucket counts, so a reported
 * percentile is within 1/128 of the exact nearest-rank percentile of the raw values.
 * Histograms merge by adding buckets (workers, rounds, directions).
 * Pure: no I/O, no globals; hist_add is inline for the I/O loop. */
#ifndef PTSBENCH_HIST_H
#define PTSBENCH_HIST_H

#include <stdint.h>
#include <stddef.h>

#define HIST_SUB_BITS 7
#define HIST_SUB_HALF (1u << (HIST_SUB_BITS - 1))           /* 64 */
#define HIST_NBUCKETS ((64 - HIST_SUB_BITS + 1) * HIST_SUB_HALF + HIST_SUB_HALF) /* 3776 */
#define HIST_REL_ERROR (1.0 / 128.0)

struct hist {
    uint64_t count;
    uint64_t sum;      /* ns; exact mean */
    uint64_t min, max; /* exact; min = UINT64_MAX when empty */
    uint64_t buckets[HIST_NBUCKETS];
};

static inline unsigned hist_index(uint64_t v)
{
    if (v < (1u << HIST_SUB_BITS))
        return (unsigned)v;
    unsigned msb = 63u - (unsigned)__builtin_clzll(v);
    unsigned shift = msb - (HIST_SUB_BITS - 1);
    return shift * HIST_SUB_HALF + (unsigned)(v >> shift);
}

static inline void hist_add(struct hist *h, uint64_t v)
{
    h->buckets[hist_index(v)]++;
    h->count++;
    h->sum += v;
    if (v < h->min)
        h->min = v;
    if (v > h->max)
        h->max = v;
}

/* n samples of v at once (a completion that stands for n I/Os) */
static inline void hist_add_n(struct hist *h, uint64_t v, uint64_t n)
{
    h->buckets[hist_index(v)] += n;
    h->count += n;
    h->sum += v * n;
    if (v < h->min)
        h->min = v;
    if (v > h->max)
        h->max = v;
}

void hist_init(struct hist *h);
void hist_merge(struct hist *dst, const struct hist *src);
/* Bucket bounds: [low, high] inclusive. */
uint64_t hist_bucket_low(unsigned idx);
uint64_t hist_bucket_high(unsigned idx);
double hist_mean(const struct hist *h);          /* 0 when empty */
/* p in (0,100]; nearest rank; 0 when empty. */
uint64_t hist_percentile(const struct hist *h, double p);

/* Is percentile p backed by enough observations to be a number? The tail beyond it must hold
 * at least HIST_TAIL_MIN of them: observations x (1 - p/100) >= HIST_TAIL_MIN, so 99.9999 needs
 * 10 million, 99.999 one million, 99 a thousand. Below that the nearest-rank percentile is one
 * of the few slowest I/Os (at 99.9999 with 1 million I/Os: the slowest one, the max), a figure
 * that a rerun would not repeat; readers say "not enough I/Os for this percentile (count)".
 * Observations are latencies measured one by one: a histogram's count divided by the completion
 * weight where one completion stands for several I/Os (the simulated drive's k). The threshold
 * is ours (no standard states one: HdrHistogram and fio print any percentile of any count);
 * 10 makes the percentile the 10th-slowest I/O's neighbourhood or better, not one outlier. */
#define HIST_TAIL_MIN 10
int hist_pct_supported(uint64_t observations, double p);

#endif
