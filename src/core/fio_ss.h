/* fio_ss.h — fio's steady-state options (ss, ss_dur, ss_ramp, ss_interval) mapped to a run.
 *
 * fio judges samples taken every ss_interval (1 s) over a sliding window of ss_dur seconds,
 * from ss_ramp on, and ends the job at the first window whose criterion is below the limit:
 * iops/bw/lat: every sample within the limit of the window's mean; *_slope: the least-squares
 * slope per sample below it (a % limit: of the mean). That is not the PTS's rule (5 rounds,
 * range <= 20% and slope excursion <= 10% of their average, steady.h), and a window fio calls
 * steady is not steady state unless the drive was prepared for it (drive_state.h).
 *
 * The mapping (fio_ss_map, in run_prepare): the run tracks fio's variable (iops, mb_s,
 * lat_mean_us) unless --track names another; it stops at ptsbench's window (stop_at_steady,
 * as every run by default); a deviation limit in percent tighter than the PTS's 20% becomes the
 * window's range limit (a range within N% keeps every round within N% of the mean, so fio's
 * criterion holds over the rounds); no window starts before ss_ramp. The verdict and its label
 * stay ds_judge's. fio's own criterion is evaluated on the run's per-second samples of the
 * stimulus (every round, WDPC too, back to back: fio's job is one stream) and recorded beside
 * the verdict ("steady_state"."fio"): which rule decided, and whether and when fio would have
 * stopped. lat, lat_slope: on the samples' mean latency (metrics.h: sample_series.lat_mean_us,
 * every direction), an ss_interval of several samples weighted by their I/Os, an interval
 * without a completion 0, as fio does (steadystate.c: the change of Σ clat mean x samples over
 * the change of samples); the limit without % in microseconds. ptsbench's latency runs from
 * submission to completion, fio's ss uses completion latency (clat, without the submission):
 * the same within the submission time. Not evaluated when no sample holds a latency (--engine
 * fio whose latency log is missing). Pure but for the printing. */
#ifndef PTSBENCH_FIO_SS_H
#define PTSBENCH_FIO_SS_H

#include <stdbool.h>
#include <stddef.h>

#include "core/run.h"
#include "io/workload.h"

struct fio_ss_result {
    bool evaluated;        /* the variable is in the samples and a window was judged */
    bool no_latency;       /* lat: no sample holds a mean latency (not evaluated) */
    bool attained;         /* fio would have stopped the job */
    double at_s;           /* ... at this second of the stimulus (from its first round) */
    unsigned sample;       /* ... after this many samples (1-based; 0: not attained) */
    double criterion;      /* fio's criterion then (or at the last window judged): percent of
                              the mean for a % limit, else the variable's units */
    unsigned windows;      /* windows judged */
};

/* fio's check over y[0..n), one value per interval_s (already past ss_ramp), window
 * ss->dur_ns / interval samples: the first window whose criterion is below ss->limit. */
void fio_ss_eval(const struct wl_ss *ss, const double *y, size_t n, double interval_s,
                 struct fio_ss_result *out);

/* The run's rule from the job's keys (above), said in wl->note. Nothing when the job has no
 * detection (ss_dur 0). 0, or -1 with err (a variable the run cannot track). */
int fio_ss_map(struct run_record *rec, char *err, size_t errlen);

/* fio's criterion over the run's rounds so far (the samples, ss_interval, ss_ramp). */
void fio_ss_run_eval(const struct run_record *rec, struct fio_ss_result *out);

/* The "fio" object of "steady_state" (NULL when the job asked for no detection). */
struct json_object *fio_ss_json(const struct run_record *rec);

/* One line for the run's summary: what fio's criterion would have done. */
void fio_ss_print(const struct run_record *rec);

#endif
