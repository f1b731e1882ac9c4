/* gate.h — the CI performance gate: compare current results with a baseline, metric by metric,
 * in each metric's own direction, telling a change from noise.
 *
 * Change.  For a metric with baseline value b and current value c:
 *     change = (c - b) / |b|                      (a fraction; -0.10 is 10% lower)
 * (b = 0: change 0 when c = 0, else +/-infinity in the sign of c - b.)  A change is "bad" when it
 * goes the wrong way for the metric: lower for IOPS and MB/s, higher for latencies
 * (meas_lower_is_better()).
 *
 * Noise band.  Each figure comes with its relative round-to-round spread over the rounds it was
 * averaged from (the steady-state window): spread = (max - min) / mean of those rounds (see
 * measure.h).  The noise band of a comparison is the larger of the two windows' spreads:
 *     noise = max(spread_baseline, spread_current)
 * A spread that is unknown (NAN: a figure from a single round) counts as 0, so such a figure is
 * judged by the tolerance alone.
 *
 * Verdict.  With tolerance t (a fraction, default 0.05), "x exceeds y" meaning x > y + 1e-9
 * (so a change of exactly the tolerance passes, whatever the rounding):
 *     |change| <= t                                   -> pass
 *     bad,  |change| exceeds t and exceeds noise      -> regression   (fails the gate)
 *     bad,  |change| exceeds t but not noise          -> warn         (passes, with a warning:
 *                                                       the change is inside the noise band)
 *     good, |change| exceeds t and exceeds noise      -> improved     (passes, noted)
 *     good, |change| exceeds t but not noise          -> pass
 * Presence, per point and metric (a point is a workload condition, paired by its stable key):
 *     in the baseline, absent from current            -> missing      (fails the gate: something
 *                                                       measured before is no longer measured, so
 *                                                       the gate cannot vouch for it)
 *     absent from the baseline, in current            -> new          (passes, noted)
 *     absent from both                                -> no case (the metric does not apply,
 *                                                       e.g. read latency of a write-only point)
 * A point that appears more than once under the same key in one set (two runs of one test in a
 * directory) is compared once, by its first occurrence; the others are counted in dup_baseline /
 * dup_current so that the caller can say so.
 *
 * Default metrics: iops, mb_s, lat_mean_us, lat_p99_us (GATE_DEFAULT_METRICS) — throughput both
 * ways and latency both typical and tail, without the max (a single outlier) or the per-direction
 * figures (already in the totals).  A metric counts at a point only where it is present (see the
 * presence rules), so "only metrics present in both" falls out of the rules.
 *
 * Everything here is pure (but the clock, for the JSON
 * report's "generated" time). */
#ifndef PTSBENCH_GATE_H
#define PTSBENCH_GATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "read/measure.h"

#define GATE_SCHEMA "ptsbench.gate"
#define GATE_SCHEMA_VERSION 1
#define GATE_DEFAULT_TOLERANCE 0.05
#define GATE_EPSILON 1e-9
#define GATE_NOISE_RULE                                                                      \
    "regression when the change is in the bad direction and |change| > tolerance and "      \
    "|change| > noise band, noise band = max(baseline spread, current spread), spread = "   \
    "(max - min) / mean of the rounds in the steady-state window"

enum gate_verdict {
    GATE_PASS,
    GATE_WARN,        /* beyond the tolerance in the bad direction, but inside the noise band */
    GATE_IMPROVED,
    GATE_REGRESSION,
    GATE_MISSING,     /* in the baseline, not in current */
    GATE_NEW,         /* in current, not in the baseline */
    GATE_SHORT,       /* a percentile the tail rule left out in either (stats/hist.h: not enough
                         I/Os for it, recorded null): neither compared nor failed */
    GATE_N_VERDICTS
};

/* "pass", "warn", "improved", "regression", "missing", "new", "not_enough_ios" */
const char *gate_verdict_name(enum gate_verdict v);
/* regression and missing fail the gate */
bool gate_verdict_fails(enum gate_verdict v);

/* The noise band of two spreads (fractions; NAN or negative count as 0). */
double gate_noise_band(double spread_base, double spread_cur);

/* The verdict for one metric. base/cur NAN mean absent (both absent: GATE_PASS with change NAN;
 * callers skip that case). *change and *noise (may be NULL) receive the relative change and the
 * noise band (NAN when not compared). */
enum gate_verdict gate_compare(double base, double cur, double spread_base, double spread_cur,
                               double tolerance, bool lower_is_better, double *change,
                               double *noise);

/* --tolerance: a number of percent, with or without a trailing '%': "5%" and "5" are both 5%,
 * "0.5" is 0.5% (never a fraction, so that no value is ambiguous).  0 <= value <= 1000.
 * Returns 0 and *out as a fraction (0.05), or -1 with one line naming the value. */
int gate_parse_tolerance(const char *s, double *out, char *err, size_t errlen);

/* --metrics: comma-separated names (meas_metric_name; "all" for every metric), duplicates
 * dropped.  Returns the number of metrics (>= 1) written to out[MEAS_N], or -1 with one line. */
int gate_parse_metrics(const char *s, enum meas_metric out[MEAS_N], char *err, size_t errlen);

extern const enum meas_metric GATE_DEFAULT_METRICS[4];

struct gate_case {
    char key[256];             /* the point's key (JUnit classname) */
    char label[256];           /* the point's label, for people */
    enum meas_metric metric;   /* JUnit test name: meas_metric_name(metric) */
    bool lower_is_better;
    double base, cur;          /* NAN when absent */
    double base_spread, cur_spread;   /* NAN when unknown */
    unsigned base_rounds, cur_rounds;
    double change;             /* (cur - base) / |base|; NAN when not compared */
    double noise;              /* the noise band; NAN when not compared */
    enum gate_verdict verdict;
    uint64_t base_short_of, cur_short_of;   /* GATE_SHORT: the side's count (meas_pct_short_of),
                                               0 where the side has the figure or no point */
};

struct gate_options {
    double tolerance;                  /* fraction */
    const enum meas_metric *metrics;   /* NULL: GATE_DEFAULT_METRICS */
    size_t n_metrics;
    const char *baseline_path, *current_path;   /* for the reports (may be NULL) */
};

struct gate_result {
    struct gate_case *c;
    size_t n;
    size_t count[GATE_N_VERDICTS];
    size_t compared;                   /* cases with a baseline value (not "new") */
    size_t dup_baseline, dup_current;  /* points skipped as repeated keys */
    bool failed;                       /* any regression or missing */
    double tolerance;
    enum meas_metric metrics[MEAS_N];
    size_t n_metrics;
    char baseline_path[4096], current_path[4096];
    char baseline_device[256], current_device[256];
};

/* Pair the points of base and cur by key and compare the selected metrics.  Cases come in the
 * baseline's order (metrics in the selected order), then the points only in current.  Returns 0
 * (always; the result is owned by r: gate_result_free). */
int gate_run(const struct meas_set *base, const struct meas_set *cur,
             const struct gate_options *o, struct gate_result *r);
void gate_result_free(struct gate_result *r);

/* One sentence for a case, e.g. "iops 100000 -> 90000 (-10.00%): beyond the tolerance 5.00%
 * and the noise band 1.00%". */
void gate_case_message(const struct gate_case *c, double tolerance, char *buf, size_t len);

/* The text table: point label, metric, baseline, current, change %, noise %, verdict, then one
 * summary line.  only_changes: leave out the plain passes. */
void gate_write_text(FILE *f, const struct gate_result *r, bool only_changes);

/* The JSON report (schema "ptsbench.gate"): tolerance, metrics, the rule, summary counts and
 * every case.  Caller json_object_put()s. */
struct json_object;
struct json_object *gate_json(const struct gate_result *r);
/* gate_json to path, atomically, or "-": stdout (pretty, %.10g numbers). 0, or -1 with err. */
int gate_write_json(const struct gate_result *r, const char *path, char *err, size_t errlen);

#endif
