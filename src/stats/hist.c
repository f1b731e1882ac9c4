/* hist.c — log-linear latency histogram (see hist.h). */
#include "stats/hist.h"

#include <math.h>
#include <string.h>

void hist_init(struct hist *h)
{
    memset(h, 0, sizeof(*h));
    h->min = UINT64_MAX;
}

void hist_merge(struct hist *dst, const struct hist *src)
{
    if (src->count == 0)
        return;
    for (unsigned i = 0; i < HIST_NBUCKETS; i++)
        dst->buckets[i] += src->buckets[i];
    dst->count += src->count;
    dst->sum += src->sum;
    if (src->min < dst->min)
        dst->min = src->min;
    if (src->max > dst->max)
        dst->max = src->max;
}

/* Inverse of hist_index(): an index >= 2^HIST_SUB_BITS holds the values v with
 * v >> shift == sub, where shift = idx/64 - 1 and sub = 64 + idx%64 (64..127). */
uint64_t hist_bucket_low(unsigned idx)
{
    if (idx < (1u << HIST_SUB_BITS))
        return idx;
    if (idx >= HIST_NBUCKETS)
        return UINT64_MAX;
    unsigned shift = idx / HIST_SUB_HALF - 1u;
    uint64_t sub = HIST_SUB_HALF + idx % HIST_SUB_HALF;
    return sub << shift;
}

uint64_t hist_bucket_high(unsigned idx)
{
    if (idx < (1u << HIST_SUB_BITS))
        return idx;
    if (idx >= HIST_NBUCKETS)
        return UINT64_MAX;
    unsigned shift = idx / HIST_SUB_HALF - 1u;
    /* low + width - 1; never overflows (the last bucket ends at UINT64_MAX). */
    return hist_bucket_low(idx) + ((UINT64_C(1) << shift) - 1u);
}

double hist_mean(const struct hist *h)
{
    if (h->count == 0)
        return 0.0;
    return (double)h->sum / (double)h->count;
}

/* Nearest rank: ceil(p/100 * count), in [1, count].  The product is computed in double;
 * a relative slack of 1e-12 keeps p values that are not exact in binary (99.9, 99.99)
 * from adding a rank when p/100*count is mathematically an integer. */
static uint64_t nearest_rank(double p, uint64_t count)
{
    if (!(p > 0.0))         /* also NaN */
        return 1;
    if (p >= 100.0)
        return count;
    double x = p / 100.0 * (double)count;
    double r = ceil(x - x * 1e-12);
    if (r < 1.0)
        return 1;
    if (r >= (double)count)
        return count;
    return (uint64_t)r;
}

uint64_t hist_percentile(const struct hist *h, double p)
{
    if (h->count == 0)
        return 0;
    uint64_t rank = nearest_rank(p, h->count);
    if (rank >= h->count)
        return h->max;      /* the largest value, exactly */
    if (rank == 1)
        return h->min;      /* the smallest value, exactly */

    uint64_t cum = 0;
    unsigned i = 0;
    for (; i < HIST_NBUCKETS; i++) {
        cum += h->buckets[i];
        if (cum >= rank)
            break;
    }
    if (i == HIST_NBUCKETS)     /* inconsistent counts; cannot happen via hist_add */
        return h->max;

    uint64_t lo = hist_bucket_low(i), hi = hist_bucket_high(i);
    uint64_t mid = lo + (hi - lo) / 2u;
    if (mid < h->min)
        mid = h->min;
    if (mid > h->max)
        mid = h->max;
    return mid;
}

int hist_pct_supported(uint64_t observations, double p)
{
    if (!(p > 0) || p > 100)
        return 0;
    /* 100 - 99.9999 is 1e-4 only up to rounding (1.00000000000477e-4): compare with a relative
     * margin far below one observation in 10^7 rather than exactly. */
    return (double)observations * (100.0 - p) / 100.0 >= HIST_TAIL_MIN * (1 - 1e-9);
}
