/* words.h — the report's names for what the results file calls by key: a tracking variable
 * ("iops@4KiB/0" → "4 KiB random write IOPS"), a metric ("write_lat_mean_us" → "write mean
 * latency"), so that no internal name reaches a reader (report text, chart titles). */
#ifndef PTSBENCH_REPORT_WORDS_H
#define PTSBENCH_REPORT_WORDS_H

#include <stddef.h>
#include <stdint.h>

#include "lib/units.h"

/* A metric key of core/metrics.h (iops, read_iops, write_mb_s, lat_mean_us, ...) in words
 * without its unit, the vocabulary's (metrics_defs[].words): "IOPS", "read IOPS", "write MB/s",
 * "mean latency". Unknown keys: "the tracked value" (never the key itself). */
const char *report_words_metric(const char *metric);

/* A tracking variable's name as results record it (pts_track_format: METRIC@BS/READ%, or a bare
 * METRIC for a run) in words: "4 KiB random write IOPS", "128 KiB sequential write MB/s",
 * "4 KiB random write mean latency", "65/35 read/write". The access is the PTS's for the metric
 * (throughput sequential, IOPS and latency random); report_words_tracking_access names it. */
void report_words_tracking(const char *name, char *buf, size_t len);

/* The same with the access given ("random", "sequential"; NULL or "": the PTS's). */
void report_words_tracking_access(const char *name, const char *access, char *buf, size_t len);

/* The same from the parts (read/tracking.h), and from a record holding "track" / "tracking"
 * (a steady_state object or one of its variables): the structure when the file has it. */
struct tracking;
struct json_object;
void report_words_track(const struct tracking *t, const char *access, char *buf, size_t len);
void report_words_tracking_of(struct json_object *rec, char *buf, size_t len);

/* ---- a percentile the count does not support ----
 * Writers record a percentile that fails the tail rule (stats/hist.h hist_pct_supported: fewer
 * than HIST_TAIL_MIN observations beyond it) as JSON null beside the direction's "count"; the
 * words are lib/units.h units_format_pct ("n/a (999,999 I/Os)") and units_format_pct_long
 * ("not enough I/Os for this percentile (999,999)"), there so that the run's console (core/)
 * says the same. From a results file's lat_us object {count, percentiles {"99.9": ...}} and a
 * percentile's key ("99.9999"): words_pct_lat gives the latency, "n/a (N I/Os)" where the key
 * holds null, "-" where it is absent (an older file: not recorded) or lat_us is null (no I/O).
 * words_pct_lat_short_of: the count when the key holds null, else 0 (a footnote's N). */
const char *words_pct_lat(struct json_object *lat_us, const char *key, enum units_style style,
                          char *buf, size_t len);
uint64_t words_pct_lat_short_of(struct json_object *lat_us, const char *key);

#endif
