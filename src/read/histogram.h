/* histogram.h — recorded latency histograms read back (results' "lat_hist",
 * reports/results-schema.md): merged over records and directions, and turned into percentiles
 * and an exceedance curve.
 *
 * A record (a run round, a profile point's round, a suite element) keeps, per direction (read,
 * write, and trim only when it issued trims), the non-empty buckets of stats/hist.h's
 * log-linear histogram as [bucket, count] pairs; counts are I/Os (they sum to the direction's
 * `ios`) and a bucket's latencies are its bounds in ns divided by the record's `weight` (a
 * simulated drive's completion weight, else 1). Merging adds counts (hist_merge), so a
 * window's histogram is exact, not an average of the rounds' percentiles. Records of different
 * weights do not merge (read_hist_add refuses the second). Min and max are the records' lat_us
 * min and max where given, else the outer buckets' bounds; the sum (the mean) is not kept. A
 * record without lat_hist (results written before it) adds nothing. */
#ifndef PTSBENCH_READ_HISTOGRAM_H
#define PTSBENCH_READ_HISTOGRAM_H

#include <stddef.h>
#include <stdint.h>

#include "stats/hist.h"

struct json_object;

/* Directions, as a mask: total is every direction merged (a record's "trim" histogram is there
 * only when it issued trims: without one, total is read and write as ever). */
#define READ_HIST_READ 1u
#define READ_HIST_WRITE 2u
#define READ_HIST_TRIM 4u
#define READ_HIST_TOTAL 7u

struct read_hist {
    struct hist h;        /* merged counts, ns x weight */
    double weight;        /* 0 until the first record */
    unsigned records;     /* records merged */
};

void read_hist_init(struct read_hist *rh);
/* Merge the lat_hist of rec (an object holding one) in the directions dirs into rh.
 * 1 merged, 0 rec has none, -1 not readable (another bucket scheme, a malformed array, a weight
 * other than rh's). */
int read_hist_add(struct read_hist *rh, struct json_object *rec, unsigned dirs);
/* The I/Os merged. */
uint64_t read_hist_count(const struct read_hist *rh);
/* The latency at percentile p (0, 100] in µs (hist_percentile: nearest rank, a bucket's
 * midpoint, within 1/128); NAN when empty. */
double read_hist_percentile_us(const struct read_hist *rh, double p);

/* The exceedance curve: the fraction of I/Os at least as slow as a latency, from 1 at the
 * fastest bucket's lower bound down to 1/count at the slowest I/O. One point per non-empty
 * bucket (its lower bound, the share of I/Os in it and above), then (max, 1/count): x rising,
 * y never rising, y >= 1/count. Returns the points written (at most cap; 0 when empty). */
struct read_exceed {
    double us, frac;
};
size_t read_hist_exceedance(const struct read_hist *rh, struct read_exceed *pts, size_t cap);

#endif
