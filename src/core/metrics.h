/* metrics.h — a round's figures from the workers' counters (pure).
 *
 * IOPS and throughput are per direction and total; throughput in both MB/s (10^6 B/s, the
 * PTS's and vendors' unit) and MiB/s (2^20 B/s). Latency from the merged log-linear histograms
 * (hist.h states the error bound), with the mixed ("total") figure weighted by I/O count
 * because it is the histogram of all I/Os.  `weight` scales counts (and divides latencies) for
 * targets that simulate at reduced scale; it is 1 for real devices. Also the metric vocabulary
 * (metrics_defs, below): the one table of the figures' names, units, words and JSON paths. */
#ifndef PTSBENCH_METRICS_H
#define PTSBENCH_METRICS_H

#include <stdbool.h>
#include <stdint.h>

#include "core/drive_state.h"
#include "core/lat_target.h"
#include "core/worker.h"
#include "device/thermal.h"
#include "lib/units.h"
#include "stats/data_measure.h"
#include "stats/hist.h"

/* The recorded percentiles, by name: a reader indexes pct_us[] with these, never a number, so
 * that a percentile added to the list moves no reader. */
enum metrics_pct {
    METRICS_P50,
    METRICS_P90,
    METRICS_P95,
    METRICS_P99,
    METRICS_P99_9,
    METRICS_P99_99,
    METRICS_P99_999,
    METRICS_P99_9999,
    METRICS_NPCT
};
extern const double metrics_percentiles[METRICS_NPCT];   /* 50 90 95 99 ... 99.999 99.9999 */
extern const char *const metrics_percentile_names[METRICS_NPCT]; /* "p50", ... "p99.9999" */

/* Where a window's latency figures come from (results' lat_us.from, core/lat_hist.h
 * lat_window_compute): a round's own are its histogram's and carry no label. */
enum lat_from { LAT_FROM_ROUND = 0, LAT_FROM_HISTOGRAMS, LAT_FROM_ROUND_PERCENTILES };
extern const char *const lat_from_names[];   /* by enum lat_from: NULL, "histograms", ... */

/* count: observations (latencies measured one by one: a scaled drive's completions, not its
 * weighted I/Os). pct_us[i] is NAN where the count does not support the percentile (the tail
 * rule, stats/hist.h hist_pct_supported: fewer than HIST_TAIL_MIN observations beyond it); the
 * writer records it as JSON null and readers say "not enough I/Os" (read/words.h). */
struct lat_summary {
    uint64_t count;
    double min_us, max_us, mean_us;
    double pct_us[METRICS_NPCT];
    enum lat_from from;
};

struct dir_metrics {
    uint64_t ios;
    uint64_t bytes;
    double iops;
    double mb_s;
    double mib_s;
    struct lat_summary lat;
};

struct sample_series {
    unsigned n;
    double interval_s;
    double *iops, *read_iops, *write_iops;
    double *mb_s, *read_mb_s, *write_mb_s;
    double *trim_iops, *trim_mb_s;   /* NULL unless the round issued trims */
    /* Mean latency per interval (µs, as the round's lat_us.mean: submission to completion):
     * every direction's I/Os completed in the interval (trims too), and per direction; NAN for
     * an interval that completed none. Weighted by the interval's I/Os (iops x interval_s)
     * they average to the round's mean, but for the I/Os after the last whole interval. */
    double *lat_mean_us, *read_lat_mean_us, *write_lat_mean_us;
};

/* What the device itself reports for a round (the simulated drive: its FTL counters), in
 * full-size figures. */
struct device_round {
    bool present;
    double host_write_bytes, nand_write_bytes, total_host_write_bytes;
    double wa_round, wa_cumulative;
    double gc_relocated_bytes, bg_relocated_bytes, erases;
    uint64_t fg_gc_steps, bg_gc_steps;
    uint64_t free_lines, total_lines;
    double unmapped_read_bytes;   /* read without NAND: never written or trimmed */
};

/* Queue depth of a round, element or point: the declared depth (workers x qd; fio: jobs x
 * iodepth) and the time-weighted mean number of I/Os in flight over the counted time.
 *   loop        the I/O loop's integral (core/worker.c): an I/O is in flight from the clock
 *               stamp read just before its batch is submitted to the stamp read when the reap
 *               that returned it came back, the very interval its latency is measured over; so
 *               the resolution is one batch (a submit or a reap), and the mean equals the sum
 *               of the latencies over the round time plus the I/Os still in flight at its end.
 *   virtual     the same over the simulated drive's virtual clock.
 *   littles_law fio: IOPS x mean latency (lat_ns) from fio's JSON, exact for the I/Os fio
 *               counted; it misses those still in flight when fio stopped.
 * An I/O blocked inside the submission call (libaio's io_submit waiting for a block-layer tag,
 * or completing the I/O there on a device such as zram) is in flight by this count: no clock is
 * read after the submission. Where that matters the label says the declared depth and the
 * effective one; docs/engines-measurements.md (M1.1, M3.1) has the measured cases.
 * kept = mean / declared. A figure whose depth is not kept is labelled (results "depth",
 * show, run lines), never silently. */
#define METRICS_DEPTH_KEPT 0.95   /* below: the effective depth is printed beside the declared */
struct depth_figure {
    unsigned declared;
    double mean;               /* I/Os in flight, time-weighted; 0 when not measured */
    unsigned at_end;           /* loop, virtual: I/Os in flight when the round's time ended
                                  (not counted: the mean exceeds Little's law of the counted
                                  I/Os by at most this many) */
    enum depth_how how;        /* DEPTH_NONE: not measured */
    bool at_submit_known;      /* the engine looks (engine_ops.done_at_submit: libaio) */
    double at_submit_share;    /* of the completions, the share the device ran inside their
                                  submission call (zram under libaio), 0..1; such I/Os count
                                  as one in flight for the call, not all of them at once */
};
#define METRICS_AT_SUBMIT_NAMED 0.5   /* a larger share is named in the depth's words */
extern const char *const metrics_depth_how_names[];   /* by enum depth_how: "none", "loop"... */

/* Minimum for a figure (metrics_too_few): a round, element or point must complete at least one
 * I/O, and at least as many as it left in flight at its end (depth.at_end; fio, whose end is
 * not seen: the declared depth). The I/Os still in flight are not counted however long they
 * took, so with fewer counted than left out the latencies are mostly those of the I/Os that
 * happened to finish first and the IOPS the ramp of the first completions.
 * A simulated drive at scale k counts its I/Os, k per completion (a completion stands for k
 * I/Os in sequence), against its units in flight (one I/O each at any moment).
 * Per runner: `run` fails with the reason (exit 1, the round recorded); suite elements and
 * profile rounds are recorded as labelled gaps ("gap": the reason; a profile point's result
 * carries its window's first) and the runner goes on (a PTS test's bursts under --time-scale,
 * a sweep's largest size in a short round can be shorter than one I/O, and a failure would
 * lose the whole test or sweep). */

struct round_metrics {
    unsigned round;            /* 1-based */
    double elapsed_s;
    struct dir_metrics read, write, total;   /* total: every direction, trims too */
    struct dir_metrics trim;   /* rw=trim, randtrim, trimwrite; recorded only when trim.ios */
    struct sample_series samples;
    struct lat_round lat_target;   /* latency_target's depth search (core/lat_target.h) */
    struct hist lat_total;     /* merged, kept for later merges (reports) */
    struct hist *lat_dir[IO_NDIR];   /* read, write, trim (NULL: not kept; trim: no trims): recorded per round as
                                        lat_hist (results_lat_hist_add); metrics_free frees */
    double weight;             /* metrics_compute's: the histograms' count scale (above) */
    struct device_round device;
    struct thermal_reading thermal;   /* temperature, throttling at its end (thermal_rounds.h) */
    struct data_measure data;  /* measured compressibility of the write data (writing rounds) */
    struct host_figures *hosts;   /* remote load generators' own figures (fio client/server);
                                     owned: metrics_compute copies, metrics_free frees */
    unsigned n_hosts;
    const char *phase;         /* NULL, or "wdpc" (preconditioning under the stimulus, not
                                  judged) / "measure" (a round of the measurement) */
    struct drive_state state;  /* the drive's state at the end of the round (drive_state.h) */
    struct ds_reads unwritten; /* its reads of never-written space (drive_state.h) */
    struct depth_figure depth;
    struct engine_choices choices;   /* the engines' over the round, summed over the workers */
    uint64_t prio_ios, prio_raised;  /* fio's cmdprio keys: I/Os issued, and raised (0: none) */
    /* A run of several jobs (io/jobset.h): the round's group (0-based) and each of its jobs'
     * own figures (n_jobs of them, jobs[j].label names it; NULL, 0 for one job); the figures
     * above are then the group's: every job's I/O together. */
    unsigned group;
    struct round_metrics *jobs;
    unsigned n_jobs;
    const char *label;         /* a job's record: its label (the jobset's, not owned) */
    char gap[256];             /* a suite element or profile round with too few I/Os
                                  (metrics_too_few): why; its figures are recorded, labelled
                                  with this ("gap") */
};

void lat_summary_from_hist(const struct hist *h, double weight, struct lat_summary *out);
/* Compute from the worker stats; allocates the sample arrays (metrics_free). */
void metrics_compute(const struct worker_stats *const *ws, unsigned n_workers, double sample_s,
                     double weight, struct round_metrics *out);
/* A remote host's figures (fio client/server, engine.h struct host_figures) as a round's: read,
 * write, trim and total over the host's runtime (its longest direction's, as a round's elapsed
 * time from fio), latencies from its own histograms (weight 1; total: its directions merged),
 * so that a host's figures and the round's (the hosts' bins merged) are computed alike. */
void metrics_host(const struct host_figures *h, struct dir_metrics *read,
                  struct dir_metrics *write, struct dir_metrics *trim, struct dir_metrics *total);
void metrics_free(struct round_metrics *m);
/* A window's verdict after ds_judge: the largest share of reads of never-written space over
 * rounds first..last (1-based) of r[0..n), and ds_judge_unwritten with it. Returns the share. */
double metrics_judge_unwritten(const struct round_metrics *r, unsigned n, unsigned first,
                               unsigned last, struct ds_verdict *v);
/* Too few I/Os to measure (above): true, with one line saying why ("completed 0 I/Os in 1 s,
 * 256 left in flight at its end (declared depth 256 x 64 MiB): too few to measure..."); max_bs,
 * the largest I/O, is named when not 0. */
bool metrics_too_few(const struct round_metrics *m, uint32_t max_bs, char *why, size_t len);
/* The depth in words when it is not kept (mean below METRICS_DEPTH_KEPT of declared):
 * "QD 1024 declared, 37 in flight on average"; "" when kept or not measured. Returns buf. */
const char *metrics_depth_text(const struct depth_figure *d, char *buf, size_t len);
/* The data part of metrics_compute: every worker's write-data sample measured per 4 KiB chunk
 * and merged (present when the workload writes). */
void metrics_data_measure(const struct worker_stats *const *ws, unsigned n_workers,
                          struct data_measure *out);

/* ---- the metric vocabulary: one row per figure a writer records and a reader names ----
 * The key is the figure's name everywhere (steady-state tracking, gate --metrics, results'
 * tracking variables); the row says where the figure sits in a figures object
 * (results_figures_add), its unit, its words for people and which way is better. Readers
 * (read/measure.c, read/words.c, plot/plot_steady.c) use this table and no other. The first
 * METRIC_N_MEASURED rows are the figures every measured point keeps (read/measure.h). */
enum metric_id {
    METRIC_IOPS, METRIC_READ_IOPS, METRIC_WRITE_IOPS,
    METRIC_MB_S, METRIC_READ_MB_S, METRIC_WRITE_MB_S,          /* MB/s = 10^6 bytes/s */
    METRIC_LAT_MEAN_US, METRIC_READ_LAT_MEAN_US, METRIC_WRITE_LAT_MEAN_US,
    METRIC_LAT_P99_US, METRIC_LAT_P99_9_US, METRIC_LAT_P99_99_US, METRIC_LAT_MAX_US,
    METRIC_LAT_P50_US, METRIC_LAT_P90_US, METRIC_LAT_P95_US,
    METRIC_LAT_P99_999_US, METRIC_LAT_P99_9999_US,
    METRIC_READ_LAT_P99_US, METRIC_READ_LAT_P99_9_US, METRIC_READ_LAT_P99_99_US,
    METRIC_READ_LAT_P99_999_US, METRIC_READ_LAT_P99_9999_US, METRIC_READ_LAT_MAX_US,
    METRIC_WRITE_LAT_P99_US, METRIC_WRITE_LAT_P99_9_US, METRIC_WRITE_LAT_P99_99_US,
    METRIC_WRITE_LAT_P99_999_US, METRIC_WRITE_LAT_P99_9999_US, METRIC_WRITE_LAT_MAX_US,
    METRIC_N_MEASURED,
    METRIC_MIB_S = METRIC_N_MEASURED, METRIC_READ_MIB_S, METRIC_WRITE_MIB_S,
    METRIC_N
};
enum metric_kind { METRIC_KIND_IOPS, METRIC_KIND_MB_S, METRIC_KIND_MIB_S, METRIC_KIND_LAT };
enum metric_dir { METRIC_TOTAL, METRIC_READ, METRIC_WRITE };
#define METRIC_STAT_MEAN (-1)   /* metric_def.pct of a mean latency */
#define METRIC_STAT_MAX (-2)    /* ... of a maximum latency */
struct metric_def {
    const char *key;           /* "write_lat_mean_us" */
    const char *words;         /* for people, no unit: "write mean latency" */
    const char *chart;         /* chart titles, with the unit: "mean write latency (µs)" */
    const char *path;          /* in a figures object: "write.lat_us.mean" */
    enum metric_kind kind;     /* its unit (metrics_kind_unit) */
    enum metric_dir dir;
    int pct;                   /* latencies: enum metrics_pct, or METRIC_STAT_MEAN / _MAX */
    bool lower_is_better;      /* latencies */
    bool trackable;            /* a steady-state tracking variable (metrics_value) */
};
extern const struct metric_def metrics_defs[METRIC_N];   /* indexed by enum metric_id */
/* The row of a key; NULL for a key outside the vocabulary. */
const struct metric_def *metrics_def(const char *key);
/* "IOPS", "MB/s", "MiB/s", "µs"; and the axis label "IOPS", "throughput (MB/s = 10^6 B/s)",
 * "throughput (MiB/s)", "latency (µs)". */
const char *metrics_kind_unit(enum metric_kind k);
const char *metrics_kind_axis(enum metric_kind k);
/* How a figure of this key is printed (lib/units.h: IOPS, MB/s, latency); a key outside the
 * vocabulary or NULL: a plain value. MiB/s prints as MB/s does. */
enum units_figure metrics_figure_kind(const char *key);
/* A round's figure of a row. */
double metrics_figure(const struct round_metrics *m, const struct metric_def *d);

/* Named metric for steady-state tracking (the rows with `trackable`: "iops", "read_iops",
 * "write_iops", "mb_s", "read_mb_s", "write_mb_s", "lat_mean_us", "read_lat_mean_us",
 * "write_lat_mean_us"). Returns 0 and the value, or -1 for another name. */
int metrics_value(const struct round_metrics *m, const char *name, double *out);
extern const char *const metrics_tracking_names[];   /* NULL-terminated: the trackable rows'
                                                        keys, in table order (test_metrics) */

#endif
