/* fio_job.h — a fio job file from a ptsbench workload (pure: text in a buffer, no I/O).
 *
 * The fio engine runs each round element as one fio job group: the workload model's keys map
 * to fio's (rw/rwmixread, bs or bssplit, iodepth, numjobs with group_reporting, offset/size of
 * the active range, percentage_random, random_distribution (zoned, zipf, pareto, normal),
 * rate_iops, thinktime, iodepth_batch_submit and _complete_min/_max, buffer_compress_percentage
 * with buffer_compress_chunk=4k and refill_buffers, randseed with tausworthe64), with
 * direct=1, the chosen ioengine, time_based runtime or io_size, total-latency percentiles
 * (lat_percentiles, our loop measures submit to completion as fio's "lat" does) and a
 * per-second IOPS log for the samples. The text is written beside the results so a user can
 * rerun the element with fio alone.
 *
 * Several jobs run at once (io/jobset.h: the jobs of one group) are one file: [global] with
 * what they share, then one section per job in order, each with its own keys (pattern,
 * numjobs, iodepth, range, pacing, seed, length and IOPS log); no stonewall between them, so
 * fio runs them together, and each after the first says new_group, so fio reports each job on
 * its own (group_reporting sums its numjobs clones). One job writes the file it always has. */
#ifndef PTSBENCH_FIO_JOB_H
#define PTSBENCH_FIO_JOB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "io/workload.h"

struct fio_job_opts {
    const char *name;          /* job (section) name, e.g. "ptsbench" */
    const char *filename;      /* target path (on the remote host in client/server mode) */
    const char *ioengine;      /* "io_uring" or "libaio" */
    uint64_t runtime_ns;       /* > 0: time_based, runtime rounded up to whole ms */
    uint64_t bytes;            /* > 0 (runtime_ns 0): stop after this many bytes in total */
    const char *iops_log;      /* write_iops_log (and write_lat_log) prefix for 1-second
                                  samples, NULL: no log */
    unsigned log_msec;         /* log interval in ms (0: 1000) */
    bool threads;              /* thread=1: jobs run as threads of one fio process */
    unsigned round_index;      /* the engine's rounds before this one: 0 writes the workload's
                                  seed; round k > 0 a seed of its own (fio_job_round_seed), so
                                  each fio run draws new offsets, as the native loop's generator
                                  runs on from round to round instead of repeating */
    /* Submission choices of ptsbench's own engine, for a like-with-like comparison
     * (crosscheck; fio_job_native_choices): */
    unsigned force_async;      /* > 0: force_async=N (io_uring: every Nth I/O marked async) */
    bool reap_all;             /* iodepth_batch_complete_max=iodepth: take every completion */
    bool submit_all;           /* no iodepth_batch_submit given and no pacing: submit what a
                                  turn refilled in one call, as the native loop does (fio
                                  commits its queued I/Os when the queue is full, before it
                                  waits: iodepth_batch_submit=iodepth) */
};

/* The force_async=N that comes nearest ptsbench's io_uring engine on a target that does
 * (refuses_nowait, engine_refuses_nowait) or does not refuse nowait I/O, with `cpus` CPUs
 * (engine_thread_cpus): the engine marks by size and total depth (engine.h:
 * engine_mark_wanted), so a workload marks all its I/Os (1), none (0), or the share of its
 * bssplit that is large enough, which fio can only approach by marking every Nth (N the
 * nearest to 100 / share). marked_pct (may be NULL): the share ptsbench marks. */
unsigned fio_job_force_async(const struct workload *wl, bool refuses_nowait, unsigned cpus,
                             unsigned *marked_pct);

/* The randseed= of a round: the workload's seed for the first, a seed derived from it and
 * the round's index for the others (low 63 bits: fio reads it with strtoll). */
uint64_t fio_job_round_seed(uint64_t seed, unsigned round_index);

/* What fio cannot be given of this workload, as one line (nothing written): thinktime below
 * fio's microsecond. fio_job_write checks it too; the fio engine asks at prepare time through
 * engine_keys_check (engine_keys.h). */
int fio_job_check(const struct workload *wl, char *err, size_t errlen);

/* Write the job file for the workload on `range` (bytes in the target's address space) into
 * buf. Returns 0, or -1 with the reason (a key fio cannot express, a buffer too small). */
int fio_job_write(const struct workload *wl, const struct wl_range *range,
                  const struct fio_job_opts *o, char *buf, size_t len, char *err,
                  size_t errlen);

/* One job of several written into one file (fio_job_write_group). */
struct fio_job_section {
    const struct workload *wl;
    const struct wl_range *range;  /* its active range, bytes in the target's address space */
    const char *name;              /* its section name: fio_job_section_names */
    uint64_t bytes;                /* byte-based rounds (o->runtime_ns 0): this job's bytes over
                                      its numjobs clones; ignored for time-based rounds */
    unsigned force_async;          /* as fio_job_opts.force_async, for this job */
};

/* Section names for jobs labelled labels[0..n-1] (io/jobset.h: unique labels), into
 * names[k] (FIO_JOB_NAME_MAX bytes each): the label where fio reads it back unchanged
 * (check_text's rules), else the label with each byte fio would cut or substitute (';' '#'
 * '$' '[' ']', control characters) as '_' and blanks at its ends dropped; "job" for an empty
 * one, "global" becomes "global_", and a name an earlier job already has gets "_2", "_3"...
 * Names are unique, so fio's JSON gives each job's figures back under its own "jobname". */
#define FIO_JOB_NAME_MAX 96
void fio_job_section_names(const char *const *labels, unsigned n,
                           char (*names)[FIO_JOB_NAME_MAX]);

/* Write one job file for n jobs run at once (n >= 1). o's name, bytes and force_async are
 * ignored (each section has its own); with an IOPS log (o->iops_log) job k logs to
 * fio_job_iops_log(o->iops_log, n, k). n == 1 writes exactly what fio_job_write writes for
 * the section's workload with o's other options. Returns 0, or -1 with the reason (a name
 * that is not fio-safe or not unique, a workload fio cannot be given, a buffer too small). */
int fio_job_write_group(const struct fio_job_section *jobs, unsigned n,
                        const struct fio_job_opts *o, char *buf, size_t len, char *err,
                        size_t errlen);

/* The file fio writes job k's (0-based) IOPS log to for prefix, of a file of n jobs:
 * PREFIX_iops.log for one job, PREFIX.K_iops.log (K = k + 1) for several. */
void fio_job_iops_log(const char *prefix, unsigned n, unsigned k, char *buf, size_t len);
/* The same prefix also names the latency log (write_lat_log, averaged over log_msec: each line
 * a job's mean total latency in ns per interval and direction): PREFIX_lat.log, PREFIX.K_lat.log
 * (fio writes _clat.log and _slat.log beside it). */
void fio_job_lat_log(const char *prefix, unsigned n, unsigned k, char *buf, size_t len);

/* The oldest fio we support, and a check of `fio --version` output ("fio-3.33\n"):
 * returns 0 with the version as numbers, or -1 with a message naming what was found. */
#define FIO_MIN_MAJOR 3
#define FIO_MIN_MINOR 16
int fio_version_parse(const char *text, unsigned *major, unsigned *minor, char *err,
                      size_t errlen);
/* Is MAJOR.MINOR at least FIO_MIN_MAJOR.FIO_MIN_MINOR? */
static inline bool fio_version_ok(unsigned major, unsigned minor)
{
    return major > FIO_MIN_MAJOR || (major == FIO_MIN_MAJOR && minor >= FIO_MIN_MINOR);
}

#endif
