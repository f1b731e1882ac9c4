/* fio_json.h — read fio's JSON output (--output-format=json or json+), json-c.
 *
 * fio prints warnings and other text around its JSON (fio issues #731, #1685, #2048): the
 * parser finds the JSON object, keeps the rest as the engine's log, and fails with a message
 * naming the fio version and the first bad byte when there is none. Per direction it keeps
 * what the round metrics need: I/Os, bytes, runtime, IOPS, total latency ("lat_ns": fio's
 * submit-to-completion, what our loop measures) min/mean/max/percentiles and the json+ bins,
 * which become a ptsbench histogram (fio's bins are log-linear with 64 sub-buckets, error about
 * 1/128; ours the same order). In client/server mode every host's figures are kept, and the
 * "All clients" aggregate.
 *
 * Per job: fio reports a job's numjobs clones each as its own entry unless group_reporting
 * sums them, and jobs of one reporting group as one entry. out->jobs has one record per
 * "jobname", in order of first appearance: its entries added together (I/Os, bytes, IOPS,
 * bandwidth; longest runtime; latency min/max, N-weighted mean, json+ bins merged; fio's
 * percentiles NAN, as they cannot be combined) or the entry itself when there is one. */
#ifndef PTSBENCH_FIO_JSON_H
#define PTSBENCH_FIO_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stats/hist.h"

#define FIO_NPCT 7   /* 50 90 99 99.9 99.99 99.999 99.9999: fio's own (the job's percentile_list); the
                        recorded percentiles come from fio's histogram bins (metrics.h) */

struct fio_bin {
    uint64_t ns;               /* bucket value (fio: the bucket's representative latency) */
    uint64_t count;
};

struct fio_lat {
    uint64_t n;                /* samples */
    double min_ns, max_ns, mean_ns;
    double pct_ns[FIO_NPCT];   /* NAN when fio did not report that percentile */
    struct fio_bin *bins;      /* json+ only; NULL and 0 otherwise */
    size_t n_bins;
};

struct fio_dir {
    uint64_t ios;              /* total_ios */
    uint64_t bytes;            /* io_bytes */
    double runtime_ms;
    double iops;
    double bw_bytes;           /* bytes/s */
    struct fio_lat lat;        /* lat_ns (total); clat_ns when lat_ns is absent */
};

#define FIO_NDIR 3             /* fio's directions: read, write, trim */

/* Client/server: a "disk_util" entry of one host (its hostname and port), the device as that
 * host's kernel names it. */
struct fio_disk {
    bool present;
    char name[64];
    double util_pct;           /* NAN when fio's "util" is out of 0..100 */
    uint64_t read_ios, write_ios;
};

/* One job group (group_reporting) of one host, or the aggregate. */
struct fio_stats {
    char host[256];            /* client/server: the host; "" for a local run or "All clients" */
    char jobname[128];
    int error;                 /* fio's per-job error (errno), 0 when fine */
    double elapsed_s;          /* "elapsed" (s) */
    struct fio_dir dir[FIO_NDIR];   /* 0 read, 1 write, 2 trim (engine.h enum io_dir) */
    struct fio_disk disk;      /* client/server hosts: the host's disk_util entry */
};

/* One job (jobname): its figures, and each host's in client/server mode. */
struct fio_job_figures {
    struct fio_stats total;    /* the job's entries added together (every host's) */
    struct fio_stats *hosts;   /* client/server: the job on each host (NULL, 0 locally) */
    unsigned n_hosts;
};

struct fio_output {
    char version[64];          /* "fio-3.33" */
    struct fio_stats total;    /* the first job (jobs[0].total); client/server with one job:
                                  All clients */
    struct fio_stats *hosts;   /* client/server: one per host, the first job's (NULL, 0 for a
                                  local run) */
    unsigned n_hosts;
    struct fio_job_figures *jobs;  /* every job, in order of first appearance (n_jobs >= 1) */
    unsigned n_jobs;
    double disk_util_pct;      /* the first "disk_util" entry's "util": the share of the run the
                                  kernel counted the device busy (io_ticks); NAN when fio gives
                                  none (a file on tmpfs). Client/server: every host's entries
                                  carry its hostname and port (hosts[].disk); this one is the
                                  first host's */
    char *log;                 /* every byte outside the JSON object (warnings...), NUL-ended */
};

/* Parse fio's whole output (stdout). fio_version names fio in messages ("fio-3.33").
 * Returns 0, or -1 with one line: no JSON object ("fio-3.33 printed no JSON: first bad byte at
 * offset 0: 'f' ..."), bad JSON, no jobs, or figures that are no measurement (the round fails,
 * nothing is recorded): a job without an error that did no I/O, I/Os in a runtime of 0, fewer
 * bytes than I/Os, more than 1e10 IOPS, a latency outside 0 to 1e15 ns (any job's). */
int fio_output_parse(const char *text, size_t len, const char *fio_version,
                     struct fio_output *out, char *err, size_t errlen);
void fio_output_free(struct fio_output *o);
/* The job named jobname (NULL when fio reported none of that name). */
const struct fio_job_figures *fio_output_job(const struct fio_output *o, const char *jobname);

/* Add a direction's json+ bins to a ptsbench histogram (count, sum, min, max kept consistent
 * with the bins; fio's exact min/max/mean replace the bin-derived ones). Returns false when
 * there are no bins (plain json). */
bool fio_lat_to_hist(const struct fio_lat *l, struct hist *h);
/* A direction's latencies into h: fio_lat_to_hist, else (plain JSON, no bins) every I/O at
 * fio's mean, which keeps count and mean exact. */
void fio_dir_hist(const struct fio_dir *d, struct hist *h);

/* A client/server host's figures for ptsbench (engine.h struct host_figures): its counts,
 * fio's IOPS and mean latency, its own histogram per direction with I/O (fio_dir_hist; the
 * round's is the hosts' bins merged, so the hosts' histograms add up to it bucket for bucket)
 * and its disk_util entry. hf's histograms are allocated (host_figures_free). */
struct host_figures;
void fio_host_figures(const struct fio_stats *h, struct host_figures *hf);

#endif
