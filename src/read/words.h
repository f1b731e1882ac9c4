/* words.h — the report's names for what the results file calls by key: a tracking variable
 * ("iops@4KiB/0" → "4 KiB random write IOPS"), a metric ("write_lat_mean_us" → "write mean
 * latency"), so that no internal name reaches a reader (report text, chart titles). */
#ifndef PTSBENCH_REPORT_WORDS_H
#define PTSBENCH_REPORT_WORDS_H

#include <stddef.h>

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

#endif
