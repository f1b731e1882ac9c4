/* lat_hist.h — the latency histograms a record keeps (results' "lat_hist",
 * reports/results-schema.md): written, read back, merged over records and directions, and a
 * window's latency figures computed from the merged histograms (lat_window_compute). It lives
 * in core, below pts, profile and read, because every window (a PTS table row, a profile
 * point's result, a fleet's aggregate round, a measured point of read/measure.c) takes its
 * figures from here; read_hist_* keep the names they had in read/histogram.h.
 *
 * A record (a run round, a profile point's round, a suite element; a window: a table row, a
 * profile result, a fleet round) keeps, per direction (read, write, and trim only when it
 * issued trims), the non-empty buckets of stats/hist.h's log-linear histogram as [bucket,
 * count] pairs; counts are I/Os (they sum to the direction's `ios`) and a bucket's latencies
 * are its bounds in ns divided by the record's `weight` (a simulated drive's completion weight,
 * else 1). Merging adds counts (hist_merge), so a window's histogram is exact, not an average
 * of the rounds' percentiles. Records of different weights do not merge (read_hist_add refuses
 * the second). Min and max are the records' lat_us min and max where given, else the outer
 * buckets' bounds; the sum (the mean) is not kept. A record without lat_hist (results written
 * before it) adds nothing. */
#ifndef PTSBENCH_LAT_HIST_H
#define PTSBENCH_LAT_HIST_H

#include <stddef.h>
#include <stdint.h>

#include "core/metrics.h"
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

/* ---- writing ---- */

/* "lat_hist" of histograms h[IO_READ], h[IO_WRITE], h[IO_TRIM] (NULL: none; trim written only
 * when given) counted at weight (results_lat_hist_add states the form). */
struct json_object *lat_hist_json(const struct hist *const h[IO_NDIR], double weight);

/* ---- a window ---- */

/* A window's latency figures per direction from its records (run rounds, suite elements,
 * profile points' rounds, the targets' rounds of a fleet round): each a figures object
 * (results_figures_add) with its lat_hist. When every record that has latencies has a
 * readable lat_hist, of one weight, the figures are the merged histogram's (from
 * LAT_FROM_HISTOGRAMS): count the observations (merged count / weight), min and max exact (the
 * records' own), mean the records' means weighted by their counts (exact: the histograms keep
 * no sum), each percentile of metrics_percentiles[] the merged histogram's nearest rank (within
 * HIST_REL_ERROR), NAN where hist_pct_supported(count, p) fails. Otherwise (results written
 * before lat_hist, records of different weights) the old figures, labelled
 * LAT_FROM_ROUND_PERCENTILES: the percentiles and the mean weighted by the records' counts, min
 * and max their extremes (an approximation for the percentiles). A direction no record has
 * latencies of has count 0 (written as null). */
enum lat_dir { LAT_READ, LAT_WRITE, LAT_TRIM, LAT_TOTAL, LAT_NDIR };
extern const char *const lat_dir_names[LAT_NDIR];   /* "read", "write", "trim", "total" */
struct lat_window {
    struct lat_summary lat[LAT_NDIR];
    bool trim;                       /* a record issued trims (has a "trim" object) */
    enum lat_from from;
    struct read_hist h[LAT_TOTAL];   /* read, write, trim merged (from histograms) */
};
/* recs[0..n) (NULL entries skipped) into *w (heap: about 100 KiB). */
void lat_window_compute(struct json_object *const *recs, size_t n, struct lat_window *w);
/* The window's merged lat_hist (lat_hist_json), NULL unless from histograms. */
struct json_object *lat_window_hist_json(const struct lat_window *w);

#endif
