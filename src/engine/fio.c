/* fio.c — the fio engine: each round is one run of the installed fio binary.
 *
 * fio is the load generator the field trusts; this engine lets every ptsbench number be
 * produced by it, to check the native engines against it and to drive many hosts through
 * fio's client/server mode. It is a whole-round engine (ENGINE_F_WHOLE_ROUND): instead of
 * per-I/O queue/commit/reap it implements round(), which
 *   1. writes a job file for the round from the workload model (fio_job.h),
 *   2. runs `fio --output-format=json+ JOB` (fork/exec, no shell; with --client=HOST,PORT per
 *      remote host in client/server mode),
 *   3. reads the JSON (fio_json.h) into the same worker statistics the native engines fill:
 *      I/Os and bytes per direction, the latency histogram from fio's json+ bins (fio's total
 *      latency, submit to completion, as our loop measures it), elapsed time, per-second
 *      samples from fio's IOPS log with their mean latency from its latency log (lat, total
 *      latency, averaged per second), and each remote host's figures.
 * The job file, fio's JSON, its stderr and its IOPS and latency logs are kept in the artifact directory
 * (OUT/fio/NNNN-LABEL.*) so a user can rerun any element with fio alone.
 *
 * Several jobs run at once (engine_config.jobs: the jobs of one group, io/jobset.h) are one
 * fio run of one job file, a section per job (fio_job_write_group); fio's figures come back
 * per job under its section name (fio_output_job) and fill one worker_stats per job, in the
 * order of the jobs, as for one job: counts, histograms, depth, samples from the job's own
 * IOPS log, and each remote host's figures of that job.
 *
 * fio must not outlive ptsbench (it would go on writing the device after ptsbench's exclusive
 * open is gone). spawn.c gives fio PR_SET_PDEATHSIG(SIGKILL) and its own process group, but
 * neither reaches fio's job processes: by default fio forks one process per job and each calls
 * setsid() (seen with fio 3.33), leaving the group, and the death signal is not inherited. So
 * the job files ask for `thread` (thread=1): the jobs are threads of the one fio process, and
 * whatever kills it kills them. Threads are fio's other standard way to run jobs: the I/O
 * path (io_uring, libaio, O_DIRECT) is the same, and an A/B of 4 KiB random 70/30 at QD 16
 * on a file showed no difference beyond the run-to-run noise. In client/server mode the
 * servers run the jobs: the local fio is only their client. SIGTERM to it (the stop flag)
 * ends the servers' jobs too; after a SIGKILL (the death signal) they go on to their runtime
 * (seen with fio 3.33 on loopback), which nothing on this host can prevent.
 *
 * fio runs SPAWN_STOPPABLE: on SIGINT/SIGTERM (the stop flag) it gets SIGTERM, SIGKILL after
 * SPAWN_GRACE_MS, and the round returns with nothing counted, as a native engine's loop stops
 * issuing; the runner sees the stop flag and drops the round.
 *
 * Two registrations: "fio" (ioengine=io_uring) and "fio-libaio" (ioengine=libaio). */
#include "engine/engine.h"
#include "engine/fio_replay.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "engine/fio_job.h"
#include "engine/fio_json.h"
#include "lib/spawn.h"
#include "lib/util.h"

/* One job of the file (engine_config.jobs), copied at init. */
struct fio_job {
    struct workload wl;
    struct wl_range range;
    char name[FIO_JOB_NAME_MAX];   /* its section: "ptsbench" for one job, else its label made
                                      fio-safe (fio_job_section_names) */
    unsigned force_async;          /* match_native: its force_async=N (0: none) */
};

struct engine {
    const char *ioengine;
    char path[4096];
    struct fio_job *jobs;      /* n_jobs >= 1, in the order round() fills its records */
    unsigned n_jobs;
    char dir[4096];            /* artifacts */
    char **remotes;            /* "host,port" for fio --client */
    unsigned n_remotes;
    char version[64];
    bool reap_all;             /* match_native: iodepth_batch_complete_max=iodepth */
    bool submit_all;           /* match_native: iodepth_batch_submit=iodepth (unpaced) */
    unsigned rounds;           /* rounds run so far: each fio run's seed (fio_job_round_seed) */
};

/* Artifact numbers run on across engine instances (a PTS test opens one per element), so no
 * round's files replace another's. */
static unsigned fio_seq;

static char fio_version_text[64];
static int fio_version_status = -2;   /* -2 not checked, 0 fine, -1 missing/too old */
static char fio_version_error[256];

/* Run `fio --version` once per process and check it against the oldest supported version. */
static int fio_check(char *err, size_t errlen)
{
    if (fio_version_status == -2) {
        char out[256] = "", eout[256] = "";
        char *argv[] = {"fio", "--version", NULL};
        int st = spawn_capture(argv, out, sizeof(out), eout, sizeof(eout));
        unsigned major = 0, minor = 0;
        char why[200];
        if (st == 127 || st < 0) {
            fio_version_status = -1;
            snprintf(fio_version_error, sizeof(fio_version_error),
                     "fio not found in PATH (install the fio package, e.g. apt install fio; "
                     "ptsbench needs fio %u.%u or newer)", FIO_MIN_MAJOR, FIO_MIN_MINOR);
        } else if (fio_version_parse(out, &major, &minor, why, sizeof(why)) != 0) {
            fio_version_status = -1;
            snprintf(fio_version_error, sizeof(fio_version_error),
                     "fio --version: %s", why);
        } else if (!fio_version_ok(major, minor)) {
            fio_version_status = -1;
            snprintf(fio_version_error, sizeof(fio_version_error),
                     "fio %u.%u is too old: ptsbench needs fio %u.%u or newer (json+ total-"
                     "latency percentiles, io_uring)", major, minor, FIO_MIN_MAJOR,
                     FIO_MIN_MINOR);
        } else {
            fio_version_status = 0;
            snprintf(fio_version_text, sizeof(fio_version_text), "fio-%u.%u", major, minor);
        }
    }
    if (fio_version_status != 0)
        return errf(err, errlen, "%s", fio_version_error);
    return 0;
}

static void fio_cleanup(struct engine *e)
{
    if (!e)
        return;
    for (unsigned i = 0; i < e->n_remotes; i++)
        free(e->remotes[i]);
    free(e->remotes);
    free(e->jobs);
    free(e);
}

/* The jobs (cfg->jobs, or cfg->wl and cfg->range as one) copied, with their section names. */
static void fio_take_jobs(struct engine *e, const struct engine_config *cfg)
{
    const struct engine_job one = {.wl = cfg->wl, .range = cfg->range, .label = "ptsbench"};
    const struct engine_job *jobs = cfg->jobs && cfg->n_jobs ? cfg->jobs : &one;
    e->n_jobs = cfg->jobs && cfg->n_jobs ? cfg->n_jobs : 1;
    e->jobs = xcalloc(e->n_jobs, sizeof(*e->jobs));
    const char **labels = xcalloc(e->n_jobs, sizeof(*labels));
    char (*names)[FIO_JOB_NAME_MAX] = xcalloc(e->n_jobs, sizeof(*names));
    for (unsigned k = 0; k < e->n_jobs; k++)
        labels[k] = jobs[k].label;
    fio_job_section_names(labels, e->n_jobs, names);
    for (unsigned k = 0; k < e->n_jobs; k++) {
        struct fio_job *j = &e->jobs[k];
        j->wl = *jobs[k].wl;
        j->range = *jobs[k].range;
        /* one job keeps the section name it has always had */
        str_copy(j->name, sizeof(j->name), e->n_jobs == 1 ? "ptsbench" : names[k]);
    }
    free(names);
    free(labels);
}

static int fio_init_common(struct engine **out, const struct engine_config *cfg,
                           const char *ioengine, char *err, size_t errlen)
{
    if (fio_check(err, errlen) != 0)
        return -1;
    if (!cfg->path || !cfg->wl || !cfg->range)
        return errf(err, errlen, "fio engine: no target path or workload (internal)");
    for (unsigned k = 0; cfg->jobs && k < cfg->n_jobs; k++)
        if (!cfg->jobs[k].wl || !cfg->jobs[k].range)
            return errf(err, errlen, "fio engine: job %u has no workload or range (internal)",
                        k + 1);
    if (cfg->handle)
        return errf(err, errlen, "fio engine: simulated targets run on the sim engine");
    struct engine *e = xcalloc(1, sizeof(*e));
    e->ioengine = ioengine;
    str_copy(e->path, sizeof(e->path), cfg->path);
    fio_take_jobs(e, cfg);
    str_copy(e->dir, sizeof(e->dir), cfg->artifact_dir ? cfg->artifact_dir : ".");
    str_copy(e->version, sizeof(e->version), fio_version_text);
    if (cfg->match_native) {
        /* as the native engine of the same name would run on this target (io_uring.c marks
         * by size and depth where the target refuses nowait I/O; both loops reap all) */
        bool refuses = !strcmp(ioengine, "io_uring") && engine_refuses_nowait(cfg->fd);
        for (unsigned k = 0; refuses && k < e->n_jobs; k++)
            e->jobs[k].force_async = fio_job_force_async(&e->jobs[k].wl, true,
                                                         engine_thread_cpus(), NULL);
        e->reap_all = true;
        e->submit_all = true;
    }
    if (cfg->n_remotes) {
        e->remotes = xcalloc(cfg->n_remotes, sizeof(*e->remotes));
        for (unsigned i = 0; i < cfg->n_remotes; i++) {
            /* HOST[:PORT] -> HOST,PORT (fio's --client syntax); IPv6 needs [addr]:port */
            const char *r = cfg->remotes[i];
            char host[256], buf[300];
            const char *port = NULL;
            if (r[0] == '[') {
                const char *close = strchr(r, ']');
                if (!close) {
                    fio_cleanup(e);
                    return errf(err, errlen, "--remote %s: missing ']'", r);
                }
                snprintf(host, sizeof(host), "ip6:%.*s", (int)(close - r - 1), r + 1);
                if (close[1] == ':')
                    port = close + 2;
            } else {
                const char *colon = strrchr(r, ':');
                snprintf(host, sizeof(host), "%.*s", colon ? (int)(colon - r) : (int)strlen(r), r);
                if (colon)
                    port = colon + 1;
            }
            if (port)
                snprintf(buf, sizeof(buf), "%s,%s", host, port);
            else
                snprintf(buf, sizeof(buf), "%s", host);
            e->remotes[e->n_remotes++] = xstrdup(buf);
        }
    }
    if (mkdir(e->dir, 0755) != 0 && errno != EEXIST) {
        int saved = errno;
        fio_cleanup(e);
        return errf(err, errlen, "cannot create %s: %s", cfg->artifact_dir, strerror(saved));
    }
    *out = e;
    return 0;
}

static int fio_init_uring(struct engine **out, const struct engine_config *cfg, char *err,
                          size_t errlen)
{
    return fio_init_common(out, cfg, "io_uring", err, errlen);
}

static int fio_init_aio(struct engine **out, const struct engine_config *cfg, char *err,
                        size_t errlen)
{
    return fio_init_common(out, cfg, "libaio", err, errlen);
}

static int write_file(const char *path, const char *data, size_t len, char *err, size_t errlen)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return errf(err, errlen, "cannot write %s: %s", path, strerror(errno));
    bool ok = fwrite(data, 1, len, f) == len;
    ok = fclose(f) == 0 && ok;
    if (!ok)
        return errf(err, errlen, "cannot write %s", path);
    return 0;
}

/* One line of a fio log ("msec, value, ddir, ..."): its 0-based interval of ms milliseconds,
 * value and direction; false for a line that is not one or names no direction ptsbench counts. */
static bool log_line(const char *line, double ms, long *idx, double *value, int *dir)
{
    unsigned long long t;
    if (sscanf(line, "%llu, %lf, %d", &t, value, dir) != 3 || *dir < 0 || *dir >= IO_NDIR)
        return false;
    *idx = lround((double)t / ms) - 1;
    return *idx >= 0;
}

/* Per-second samples from fio's IOPS log (per_job_logs=0: one file, one line per job and
 * direction per interval: "msec, iops, ddir, bs, offset[, ...]"): summed per interval and
 * direction; bytes from each direction's mean transfer size. */
static void read_samples(const char *path, double interval_s, struct worker_stats *s)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    double mean_bs[IO_NDIR];
    for (int d = 0; d < IO_NDIR; d++)
        mean_bs[d] = s->ios[d] ? (double)s->bytes[d] / (double)s->ios[d] : 0;
    char line[512];
    const double ms = interval_s * 1000.0;
    while (fgets(line, sizeof(line), f)) {
        double iops;
        int dir;
        long idx;
        if (!log_line(line, ms, &idx, &iops, &dir) || idx > 1000000)
            continue;
        while ((unsigned)idx >= s->n_samples) {
            if (s->n_samples == s->cap_samples) {
                s->cap_samples = s->cap_samples ? s->cap_samples * 2 : 64;
                s->samples = xrealloc(s->samples, s->cap_samples * sizeof(*s->samples));
            }
            memset(&s->samples[s->n_samples++], 0, sizeof(s->samples[0]));
        }
        uint64_t ios = (uint64_t)llround(iops * interval_s);
        s->samples[idx].ios[dir] += ios;
        s->samples[idx].bytes[dir] += (uint64_t)llround((double)ios * mean_bs[dir]);
    }
    fclose(f);
    /* the last interval is usually partial (fio logs what it has at exit): drop it */
    if (s->n_samples && interval_s * (double)s->n_samples > (double)(s->end_ns - s->start_ns) / 1e9 + 0.5 * interval_s)
        s->n_samples--;
}

/* The latency log beside the IOPS log (log_avg_msec: per line a job's mean total latency in ns
 * over the interval, "msec, lat_ns, ddir, ..."): per sample and direction the sum of the means
 * and the lines, into sum[k * IO_NDIR + d], cnt[...] for k < n. Several lines of an interval
 * (numjobs, hosts) are its jobs' means: taken alike, so exact for one job and close for jobs of
 * one workload at one depth. */
static void read_lat_log(const char *path, double interval_s, unsigned n, double *sum,
                         unsigned *cnt)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    char line[512];
    const double ms = interval_s * 1000.0;
    while (fgets(line, sizeof(line), f)) {
        double lat;
        int dir;
        long idx;
        if (!log_line(line, ms, &idx, &lat, &dir) || (unsigned long)idx >= n || !(lat >= 0))
            continue;
        sum[idx * IO_NDIR + dir] += lat;
        cnt[idx * IO_NDIR + dir]++;
    }
    fclose(f);
}

/* The samples' latencies (worker_sample.lat_ns, lat_n) from read_lat_log's means and each
 * sample's I/Os: the I/O count of a direction times its mean. */
static void take_lat_log(const double *sum, const unsigned *cnt, struct worker_stats *s)
{
    for (unsigned k = 0; k < s->n_samples; k++)
        for (int d = 0; d < IO_NDIR; d++) {
            struct worker_sample *smp = &s->samples[k];
            const unsigned c = cnt[k * IO_NDIR + d];
            if (!c || !smp->ios[d])
                continue;
            smp->lat_n[d] = smp->ios[d];
            smp->lat_ns[d] = (uint64_t)llround(sum[k * IO_NDIR + d] / c * (double)smp->ios[d]);
        }
}

/* fio's figures of one direction into the worker statistics. */
static void take_dir(const struct fio_dir *d, int dir, struct worker_stats *s)
{
    s->ios[dir] += d->ios;
    s->bytes[dir] += d->bytes;
    if (d->ios)
        fio_dir_hist(d, &s->lat[dir]);
}

/* The round's queue depth by Little's law (worker_stats.inflight_ns): fio's total I/Os x mean
 * latency (lat_ns, submission to completion) is the sum of the latencies, the integral of the
 * I/Os in flight. fio's json "iodepth_level" is no time average: it counts, at each
 * submission, the depth then in power-of-two bins (fio's HOWTO, "IO depths"). Declared: jobs x
 * iodepth, on each host (client/server: fio's figures are all the hosts'). */
static void take_depth(const struct fio_stats *t, const struct workload *wl, unsigned hosts,
                       struct worker_stats *s)
{
    for (int d = 0; d < IO_NDIR; d++)
        if (t->dir[d].ios)
            s->inflight_ns += (double)t->dir[d].ios * t->dir[d].lat.mean_ns;
    s->depth_declared = (hosts ? hosts : 1) * wl->workers * wl->qd;
    s->depth_how = DEPTH_LITTLE;
}

static void first_line(const char *text, char *buf, size_t len)
{
    const char *p = text ? text : "";
    while (*p == '\n' || *p == ' ')
        p++;
    size_t n = strcspn(p, "\n");
    snprintf(buf, len, "%.*s", (int)(n > 300 ? 300 : n), p);
}

/* The round's artifacts: OUT/fio/NNNN-LABEL.{fio,json,stderr} and the IOPS log prefix. */
struct round_files {
    char base[4400], job[4500], out[4500], err[4500];
};

/* The round's job file, every job a section, written to f->job. Returns 0 or -1. */
static int write_round_job(struct engine *e, const struct round_limits *lim,
                           const struct round_files *f, struct fio_job_opts *o, char *err,
                           size_t errlen)
{
    unsigned log_msec = lim->sample_ns ? (unsigned)(lim->sample_ns / 1000000ull) : 1000;
    *o = (struct fio_job_opts){
        .filename = e->path,
        .ioengine = e->ioengine,
        .runtime_ns = lim->time_ns,
        .iops_log = f->base,
        .log_msec = log_msec ? log_msec : 1000,
        .threads = true,   /* the jobs die with fio (above) */
        .reap_all = e->reap_all,
        .submit_all = e->submit_all,
        .round_index = e->rounds++,
    };
    unsigned workers = 0;
    for (unsigned k = 0; k < e->n_jobs; k++)
        workers += e->jobs[k].wl.workers;
    struct fio_job_section *sec = xcalloc(e->n_jobs, sizeof(*sec));
    for (unsigned k = 0; k < e->n_jobs; k++) {
        const struct workload *wl = &e->jobs[k].wl;
        /* A byte-based round counts bytes written (all bytes for a read-only workload); fio's
         * io_size counts reads and writes together. Several jobs share the round's bytes by
         * their workers. */
        uint64_t bytes = lim->time_ns ? 0 : lim->bytes;
        if (bytes && e->n_jobs > 1)
            bytes = bytes / (workers ? workers : 1) * wl->workers;
        if (bytes && wl->read_pct > 0 && wl->read_pct < 100)
            bytes = bytes / (100u - wl->read_pct) * 100u;
        sec[k] = (struct fio_job_section){.wl = wl, .range = &e->jobs[k].range,
                                          .name = e->jobs[k].name, .bytes = bytes,
                                          .force_async = e->jobs[k].force_async};
    }
    size_t cap = 16384 * (size_t)e->n_jobs;
    char *job = xcalloc(1, cap);
    int ret = fio_job_write_group(sec, e->n_jobs, o, job, cap, err, errlen);
    free(sec);
    if (ret == 0)
        ret = write_file(f->job, job, strlen(job), err, errlen);
    free(job);
    return ret;
}

/* Run fio on the job file and parse its output into fo. 0, 1 when stopped (nothing to
 * count), -1 with one line. */
static int run_round_fio(struct engine *e, const struct round_files *f, struct fio_output *fo,
                         char *err, size_t errlen)
{
    /* every host (no cap here: the CLI's --remote limit is the only one) */
    char **argv = xcalloc(4 + 2 * (size_t)e->n_remotes, sizeof(*argv));
    char (*client_args)[320] = xcalloc(e->n_remotes + 1, sizeof(*client_args));
    unsigned n = 0;
    argv[n++] = "fio";
    argv[n++] = "--output-format=json+";
    if (e->n_remotes) {
        for (unsigned i = 0; i < e->n_remotes; i++) {
            snprintf(client_args[i], sizeof(client_args[i]), "--client=%s", e->remotes[i]);
            argv[n++] = client_args[i];
            argv[n++] = (char *)f->job;
        }
    } else {
        argv[n++] = (char *)f->job;
    }
    argv[n] = NULL;
    struct spawn_result r;
    int spawned = spawn_run_flags(argv, SPAWN_STOPPABLE, &r);
    int saved = errno;
    free(argv);
    free(client_args);
    if (spawned != 0)
        return errf(err, errlen, "cannot run fio: %s", strerror(saved));
    write_file(f->out, r.out, r.out_len, err, errlen);
    write_file(f->err, r.err, r.err_len, err, errlen);
    if (r.stopped) {   /* ptsbench is stopping: the round is cut short, nothing to count */
        spawn_result_free(&r);
        return 1;
    }
    if (r.status != 0) {
        char line[320];
        first_line(r.err_len ? r.err : r.out, line, sizeof(line));
        errf(err, errlen, "%s exited with status %d: %s (job file %s)", e->version, r.status, line,
             f->job);
        spawn_result_free(&r);
        return -1;
    }
    if (fio_output_parse(r.out, r.out_len, e->version, fo, err, errlen) != 0) {
        char why[ERR_LEN];
        str_copy(why, sizeof(why), err);
        errf(err, errlen, "%s (output kept in %s)", why, f->out);
        spawn_result_free(&r);
        return -1;
    }
    spawn_result_free(&r);
    return 0;
}

/* Job k's figures from fio into s: counts, histograms, depth, samples from its IOPS log (each
 * server's, client/server), each host's figures. */
static void take_job(const struct engine *e, unsigned k, const struct fio_job_figures *fj,
                     const struct round_files *f, const struct fio_job_opts *o,
                     struct worker_stats *s)
{
    const struct fio_stats *t = &fj->total;
    for (int d = 0; d < IO_NDIR; d++)
        take_dir(&t->dir[d], d, s);
    double runtime_ms = fmax(fmax(t->dir[0].runtime_ms, t->dir[1].runtime_ms), t->dir[2].runtime_ms);
    s->start_ns = 0;
    s->end_ns = (uint64_t)llround(runtime_ms * 1e6);
    take_depth(t, &e->jobs[k].wl, e->n_remotes, s);
    /* fio's loop decides its waits; what it was given is the job's force_async (engine.h) */
    s->choices = (struct engine_choices){.known = true, .decided_by = "fio",
                                         .force_async = e->jobs[k].force_async};
    char iops_log[4600], lat_log[4600];
    fio_job_iops_log(f->base, e->n_jobs, k, iops_log, sizeof(iops_log));
    fio_job_lat_log(f->base, e->n_jobs, k, lat_log, sizeof(lat_log));
    const double interval_s = (double)o->log_msec / 1000.0;
    if (!e->n_remotes) {
        read_samples(iops_log, interval_s, s);
    } else {
        /* client/server: fio writes each server's log here as PREFIX_iops.log.HOST */
        for (unsigned i = 0; i < e->n_remotes; i++) {
            char host_log[4800];
            const char *rem = e->remotes[i];
            const char *comma = strchr(rem, ',');
            snprintf(host_log, sizeof(host_log), "%s.%.*s", iops_log,
                     comma ? (int)(comma - rem) : (int)strlen(rem), rem);
            read_samples(host_log, interval_s, s);
        }
    }
    double *lat_sum = xcalloc((size_t)s->n_samples * IO_NDIR + 1, sizeof(*lat_sum));
    unsigned *lat_cnt = xcalloc((size_t)s->n_samples * IO_NDIR + 1, sizeof(*lat_cnt));
    if (!e->n_remotes) {
        read_lat_log(lat_log, interval_s, s->n_samples, lat_sum, lat_cnt);
    } else {
        for (unsigned i = 0; i < e->n_remotes; i++) {   /* PREFIX_lat.log.HOST, as the IOPS */
            char host_log[4800];
            const char *rem = e->remotes[i];
            const char *comma = strchr(rem, ',');
            snprintf(host_log, sizeof(host_log), "%s.%.*s", lat_log,
                     comma ? (int)(comma - rem) : (int)strlen(rem), rem);
            read_lat_log(host_log, interval_s, s->n_samples, lat_sum, lat_cnt);
        }
    }
    take_lat_log(lat_sum, lat_cnt, s);
    free(lat_sum);
    free(lat_cnt);
    if (!fj->n_hosts)
        return;
    s->hosts = xcalloc(fj->n_hosts, sizeof(*s->hosts));
    s->n_hosts = fj->n_hosts;
    for (unsigned i = 0; i < fj->n_hosts; i++)
        fio_host_figures(&fj->hosts[i], &s->hosts[i]);
}

/* Each job's figures as fio reported them (one job: fio's only one), or -1 naming the job
 * fio gave none for or reported an error on. */
static int find_jobs(const struct engine *e, const struct fio_output *fo,
                     const struct fio_job_figures **fj, char *err, size_t errlen)
{
    for (unsigned k = 0; k < e->n_jobs; k++) {
        fj[k] = e->n_jobs == 1 ? &fo->jobs[0] : fio_output_job(fo, e->jobs[k].name);
        if (!fj[k])
            return errf(err, errlen, "%s reported no figures for job [%s]", e->version,
                        e->jobs[k].name);
        int error = fj[k]->total.error;
        if (error && e->n_jobs == 1)
            return errf(err, errlen, "%s reported error %d (%s) on %s", e->version, error,
                        strerror(error), e->path);
        if (error)
            return errf(err, errlen, "%s reported error %d (%s) on %s in job [%s]", e->version,
                        error, strerror(error), e->path, e->jobs[k].name);
    }
    return 0;
}

/* Host and port of a fio --client address ("ip:H,P", "ip6:H,P", "H,P" or "H": fio's default
 * port 8765) or of a client_stats name (fio_json.h: "H,P", or "H" on the default port). */
static void host_port(const char *s, char *host, size_t len, long *port)
{
    if (strncmp(s, "ip:", 3) == 0)
        s += 3;
    else if (strncmp(s, "ip6:", 4) == 0)
        s += 4;
    const char *comma = strrchr(s, ',');
    snprintf(host, len, "%.*s", comma ? (int)(comma - s) : (int)strlen(s), s);
    *port = comma ? strtol(comma + 1, NULL, 10) : 8765;
}

/* Every host asked for (--remote) has figures in fio's output: fio runs the servers it could
 * connect to and exits 0 without the others (fio client.c fio_clients_connect; measured with
 * fio-3.33: tests/integration/test_fleet_hosts.c, tests/fixtures/fio/clientserver-unreachable.*),
 * so a missing host would pass unnoticed.
 * -1 naming the first missing one. */
static int fio_check_hosts_reported(const struct engine *e, const struct fio_job_figures *fj,
                                    const struct round_files *f, char *err, size_t errlen)
{
    for (unsigned i = 0; i < e->n_remotes; i++) {
        char want[256], got[256];
        long want_port, got_port;
        host_port(e->remotes[i], want, sizeof(want), &want_port);
        bool found = false;
        for (unsigned h = 0; !found && h < fj->n_hosts; h++) {
            host_port(fj->hosts[h].host, got, sizeof(got), &got_port);
            found = got_port == want_port && strcmp(got, want) == 0;
        }
        if (!found)
            return errf(err, errlen, "--remote %s%s%s:%ld: fio reported no figures for this "
                        "host: not reachable, or lost (fio's output kept in %s and %s)",
                        strchr(want, ':') ? "[" : "", want, strchr(want, ':') ? "]" : "",
                        want_port, f->out, f->err);
    }
    return 0;
}

/* One round: out[0 .. n_jobs-1], one record per job (engine.h). */
static int fio_round(struct engine *e, const struct round_limits *lim, const char *label,
                     struct worker_stats *out, char *err, size_t errlen)
{
    unsigned seq = __atomic_add_fetch(&fio_seq, 1, __ATOMIC_RELAXED);
    struct round_files f;
    snprintf(f.base, sizeof(f.base), "%s/%04u-%s", e->dir, seq,
             label && *label ? label : "round");
    snprintf(f.job, sizeof(f.job), "%s.fio", f.base);
    snprintf(f.out, sizeof(f.out), "%s.json", f.base);
    snprintf(f.err, sizeof(f.err), "%s.stderr", f.base);

    struct fio_job_opts o;
    if (write_round_job(e, lim, &f, &o, err, errlen) != 0)
        return -1;
    struct fio_output fo;
    int ret = run_round_fio(e, &f, &fo, err, errlen);
    if (ret != 0)
        return ret > 0 ? 0 : -1;
    const struct fio_job_figures **fj = xcalloc(e->n_jobs, sizeof(*fj));
    ret = find_jobs(e, &fo, fj, err, errlen);
    for (unsigned k = 0; ret == 0 && e->n_remotes && k < e->n_jobs; k++)
        ret = fio_check_hosts_reported(e, fj[k], &f, err, errlen);
    for (unsigned k = 0; ret == 0 && k < e->n_jobs; k++)
        take_job(e, k, fj[k], &f, &o, &out[k]);
    free(fj);
    fio_output_free(&fo);
    return ret;
}

/* ---------------------------------------------------------------- replay (fio_replay.h) */

const char *fio_replay_ioengine(const struct engine_ops *ops)
{
    extern const struct engine_ops engine_fio, engine_fio_libaio;
    return ops == &engine_fio ? "io_uring" : ops == &engine_fio_libaio ? "libaio" : NULL;
}

int fio_replay_run(const struct fio_replay_opts *o, struct worker_stats *s, double *util_pct,
                   char *version, size_t vlen, char *err, size_t errlen)
{
    *util_pct = NAN;
    if (fio_check(err, errlen) != 0)
        return -1;
    str_copy(version, vlen, fio_version_text);
    unsigned major = 0, minor = 0;
    char why[128];
    if (fio_version_parse(fio_version_text, &major, &minor, why, sizeof(why)) == 0 &&
        (major < 3 || (major == 3 && minor < 31)))
        return errf(err, errlen, "%s cannot read version 3 iologs (fio 3.31 or newer can)",
                    fio_version_text);
    char job_path[4400], out_path[4400], err_path[4400];
    snprintf(job_path, sizeof(job_path), "%s/%s.fio", o->dir, o->label);
    snprintf(out_path, sizeof(out_path), "%s/%s.json", o->dir, o->label);
    snprintf(err_path, sizeof(err_path), "%s/%s.stderr", o->dir, o->label);
    char job[12288];
    int n = snprintf(job, sizeof(job),
                     "; written by ptsbench replay: the trace replayed by fio itself\n"
                     "[global]\nioengine=%s\ndirect=1\nthread\n"
                     "read_iolog=%s\nreplay_redirect=%s\niodepth=%u\n"
                     "replay_no_stall=%d\nreplay_time_scale=%u\n"
                     "percentile_list=50:90:99:99.9:99.99:99.999:99.9999\n\n[replay]\n",
                     o->ioengine, o->iolog, o->target, o->iodepth, o->no_stall ? 1 : 0,
                     o->time_scale_pct ? o->time_scale_pct : 100);
    if (n < 0 || (size_t)n >= sizeof(job))
        return errf(err, errlen, "fio job file: a path is too long");
    if (write_file(job_path, job, (size_t)n, err, errlen) != 0)
        return -1;
    char *argv[] = {"fio", "--output-format=json+", job_path, NULL};
    struct spawn_result r;
    if (spawn_run_flags(argv, SPAWN_STOPPABLE, &r) != 0)
        return errf(err, errlen, "cannot run fio: %s", strerror(errno));
    write_file(out_path, r.out, r.out_len, err, errlen);
    write_file(err_path, r.err, r.err_len, err, errlen);
    if (r.stopped) {
        spawn_result_free(&r);
        return 1;
    }
    if (r.status != 0) {
        char line[320];
        first_line(r.err_len ? r.err : r.out, line, sizeof(line));
        errf(err, errlen, "%s exited with status %d: %s (job file %s)", fio_version_text,
             r.status, line, job_path);
        spawn_result_free(&r);
        return -1;
    }
    struct fio_output fo;
    if (fio_output_parse(r.out, r.out_len, fio_version_text, &fo, err, errlen) != 0) {
        spawn_result_free(&r);
        return -1;
    }
    spawn_result_free(&r);
    if (fo.total.error) {
        errf(err, errlen, "%s reported error %d (%s) on %s", fio_version_text, fo.total.error,
             strerror(fo.total.error), o->target);
        fio_output_free(&fo);
        return -1;
    }
    for (int d = 0; d < IO_NDIR; d++)
        take_dir(&fo.total.dir[d], d, s);
    const double runtime_ms = fmax(fmax(fo.total.dir[0].runtime_ms, fo.total.dir[1].runtime_ms),
                                 fo.total.dir[2].runtime_ms);
    s->start_ns = 0;
    s->end_ns = (uint64_t)llround(runtime_ms * 1e6);
    *util_pct = fo.disk_util_pct;
    fio_output_free(&fo);
    return 0;
}

static const char *fio_version_op(void)
{
    char err[256];
    if (fio_check(err, sizeof(err)) != 0)
        return "fio (not available)";
    return fio_version_text;
}

const struct engine_ops engine_fio = {
    .name = "fio",
    .description = "the installed fio binary (ioengine=io_uring), one fio run per round",
    .flags = ENGINE_F_WHOLE_ROUND,
    .init = fio_init_uring,
    .round = fio_round,
    .idle = engine_idle_sleep,
    .version = fio_version_op,
    .available = fio_check,
    .cleanup = fio_cleanup,
};

const struct engine_ops engine_fio_libaio = {
    .name = "fio-libaio",
    .description = "the installed fio binary (ioengine=libaio), one fio run per round",
    .flags = ENGINE_F_WHOLE_ROUND,
    .init = fio_init_aio,
    .round = fio_round,
    .idle = engine_idle_sleep,
    .version = fio_version_op,
    .available = fio_check,
    .cleanup = fio_cleanup,
};
