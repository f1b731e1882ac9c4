/* histogram.h — recorded latency histograms as an exceedance curve (the latency-distribution
 * charts). Reading and merging the records' lat_hist is core/lat_hist.h's (read_hist_*), which
 * the windows of pts, profile and fleet use too. */
#ifndef PTSBENCH_READ_HISTOGRAM_H
#define PTSBENCH_READ_HISTOGRAM_H

#include <stddef.h>

#include "core/lat_hist.h"

/* The exceedance curve: the fraction of I/Os at least as slow as a latency, from 1 at the
 * fastest bucket's lower bound down to 1/count at the slowest I/O. One point per non-empty
 * bucket (its lower bound, the share of I/Os in it and above), then (max, 1/count): x rising,
 * y never rising, y >= 1/count. Returns the points written (at most cap; 0 when empty). */
struct read_exceed {
    double us, frac;
};
size_t read_hist_exceedance(const struct read_hist *rh, struct read_exceed *pts, size_t cap);

#endif
