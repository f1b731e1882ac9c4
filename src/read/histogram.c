/* histogram.c — recorded latency histograms as an exceedance curve (histogram.h). */
#include "read/histogram.h"

size_t read_hist_exceedance(const struct read_hist *rh, struct read_exceed *pts, size_t cap)
{
    const struct hist *h = &rh->h;
    if (!h->count || !(rh->weight > 0) || !cap)
        return 0;
    const double to_us = 1.0 / (1000.0 * rh->weight), n = (double)h->count;
    uint64_t left = h->count;   /* I/Os in this bucket and above */
    size_t k = 0;
    for (unsigned i = 0; i < HIST_NBUCKETS && left && k + 1 < cap; i++) {
        if (!h->buckets[i])
            continue;
        uint64_t lo = hist_bucket_low(i);
        if (lo < h->min)
            lo = h->min;   /* the fastest I/O: the curve starts at 1 there */
        pts[k++] = (struct read_exceed){(double)lo * to_us, (double)left / n};
        left -= h->buckets[i];
    }
    pts[k++] = (struct read_exceed){(double)h->max * to_us, 1.0 / n};
    return k;
}
