/* metrics.c — a round's figures from the workers' counters. */
#include "core/metrics.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/units.h"
#include "lib/util.h"

const double metrics_percentiles[METRICS_NPCT] = {50.0, 90.0, 95.0, 99.0, 99.9, 99.99, 99.999,
                                                  99.9999};
const char *const metrics_percentile_names[METRICS_NPCT] = {"p50", "p90", "p95", "p99", "p99.9",
                                                            "p99.99", "p99.999", "p99.9999"};

const char *const lat_from_names[] = {NULL, "histograms", "round percentiles (approximation)"};

void lat_summary_from_hist(const struct hist *h, double weight, struct lat_summary *out)
{
    memset(out, 0, sizeof(*out));
    if (!h->count)
        return;
    const double to_us = 1.0 / (1000.0 * weight);
    /* a simulated drive's histogram counts each completion k (= weight) times (lat_add in
     * core/worker.c): the count here is of completions */
    out->count = weight > 1 ? (uint64_t)((double)h->count / weight + 0.5) : h->count;
    out->min_us = (double)h->min * to_us;
    out->max_us = (double)h->max * to_us;
    out->mean_us = hist_mean(h) * to_us;
    /* the tail rule (stats/hist.h): a percentile with fewer than HIST_TAIL_MIN observations
     * beyond it is no figure (NAN; JSON null), whichever percentile it is */
    for (int i = 0; i < METRICS_NPCT; i++)
        out->pct_us[i] = hist_pct_supported(out->count, metrics_percentiles[i])
                             ? (double)hist_percentile(h, metrics_percentiles[i]) * to_us
                             : NAN;
}

static void dir_fill(struct dir_metrics *d, uint64_t ios, uint64_t bytes, double elapsed_s,
                     double weight, const struct hist *h)
{
    d->ios = (uint64_t)((double)ios * weight);
    d->bytes = (uint64_t)((double)bytes * weight);
    d->iops = elapsed_s > 0 ? (double)ios * weight / elapsed_s : 0;
    double bps = elapsed_s > 0 ? (double)bytes * weight / elapsed_s : 0;
    d->mb_s = units_mb(bps);
    d->mib_s = units_mib(bps);
    lat_summary_from_hist(h, weight, &d->lat);
}

/* An interval's mean latency in µs from the histograms' sum and count (lat_summary_from_hist's
 * units: a scaled drive's latencies divided by its weight); NAN without a completion. */
static double sample_lat_us(uint64_t sum_ns, uint64_t n, double weight)
{
    return n ? (double)sum_ns / (double)n / (1000.0 * weight) : NAN;
}

const char *const metrics_depth_how_names[] = {"none", "loop", "virtual", "littles_law"};

/* Declared depths add up; so do the workers' integrals, over the round's length. */
static void metrics_depth(const struct worker_stats *const *ws, unsigned n_workers,
                          uint64_t elapsed_ns, struct depth_figure *out)
{
    memset(out, 0, sizeof(*out));
    double area = 0, at_submit = 0, done = 0;
    for (unsigned i = 0; i < n_workers; i++) {
        out->declared += ws[i]->depth_declared;
        area += ws[i]->inflight_ns;
        out->at_end += ws[i]->inflight_at_end;
        at_submit += (double)ws[i]->done_at_submit;
        for (int d = 0; d < IO_NDIR; d++)
            done += (double)ws[i]->ios[d];
        out->at_submit_known |= ws[i]->done_at_submit_known;
        if (ws[i]->depth_how != DEPTH_NONE)
            out->how = ws[i]->depth_how;
    }
    if (out->how != DEPTH_NONE && elapsed_ns)
        out->mean = area / (double)elapsed_ns;
    if (done > 0)
        out->at_submit_share = at_submit < done ? at_submit / done : 1.0;
}

/* The round's samples (metrics_compute): the workers' k-th intervals summed, as rates. */
static void metrics_samples(const struct worker_stats *const *ws, unsigned n_workers,
                            unsigned n_samples, double sample_s, double weight, bool trims,
                            struct sample_series *ss)
{
    ss->n = n_samples;
    ss->interval_s = sample_s;
    double **arrays[] = {&ss->iops, &ss->read_iops, &ss->write_iops,
                         &ss->mb_s, &ss->read_mb_s, &ss->write_mb_s,
                         &ss->lat_mean_us, &ss->read_lat_mean_us, &ss->write_lat_mean_us};
    for (size_t a = 0; a < sizeof(arrays) / sizeof(arrays[0]); a++)
        *arrays[a] = xcalloc(n_samples ? n_samples : 1, sizeof(double));
    if (trims) {
        ss->trim_iops = xcalloc(n_samples ? n_samples : 1, sizeof(double));
        ss->trim_mb_s = xcalloc(n_samples ? n_samples : 1, sizeof(double));
    }
    for (unsigned k = 0; k < n_samples && sample_s > 0; k++) {
        uint64_t si[IO_NDIR] = {0}, sb[IO_NDIR] = {0}, sl[IO_NDIR] = {0}, sn[IO_NDIR] = {0};
        for (unsigned i = 0; i < n_workers; i++)
            for (int d = 0; d < IO_NDIR; d++) {
                si[d] += ws[i]->samples[k].ios[d];
                sb[d] += ws[i]->samples[k].bytes[d];
                sl[d] += ws[i]->samples[k].lat_ns[d];
                sn[d] += ws[i]->samples[k].lat_n[d];
            }
        ss->read_lat_mean_us[k] = sample_lat_us(sl[IO_READ], sn[IO_READ], weight);
        ss->write_lat_mean_us[k] = sample_lat_us(sl[IO_WRITE], sn[IO_WRITE], weight);
        ss->lat_mean_us[k] = sample_lat_us(sl[IO_READ] + sl[IO_WRITE] + sl[IO_TRIM],
                                           sn[IO_READ] + sn[IO_WRITE] + sn[IO_TRIM], weight);
        double f = weight / sample_s;
        ss->read_iops[k] = (double)si[IO_READ] * f;
        ss->write_iops[k] = (double)si[IO_WRITE] * f;
        ss->iops[k] = ss->read_iops[k] + ss->write_iops[k];
        ss->read_mb_s[k] = units_mb((double)sb[IO_READ] * f);
        ss->write_mb_s[k] = units_mb((double)sb[IO_WRITE] * f);
        ss->mb_s[k] = ss->read_mb_s[k] + ss->write_mb_s[k];
        if (trims) {   /* added only here: the sums of a round without trims stay as they were */
            ss->trim_iops[k] = (double)si[IO_TRIM] * f;
            ss->trim_mb_s[k] = units_mb((double)sb[IO_TRIM] * f);
            ss->iops[k] += ss->trim_iops[k];
            ss->mb_s[k] += ss->trim_mb_s[k];
        }
    }
}

/* One host's figures from one worker (a job of the group, fio client/server) into the round's:
 * a host not seen yet is copied; a host another job of the group ran on too gets this job's
 * I/Os added (the group's jobs run at once on every host), its IOPS summed, its mean latency
 * weighted by I/Os, its runtime the longest, its histograms merged. */
static void hosts_add(struct round_metrics *out, const struct host_figures *h)
{
    struct host_figures *o = NULL;
    for (unsigned i = 0; i < out->n_hosts && !o; i++)
        if (!strcmp(out->hosts[i].host, h->host))
            o = &out->hosts[i];
    if (!o) {
        out->hosts = xrealloc(out->hosts, (out->n_hosts + 1) * sizeof(*out->hosts));
        host_figures_copy(&out->hosts[out->n_hosts++], h, 1);
        return;
    }
    for (int d = 0; d < IO_NDIR; d++) {
        if (!h->ios[d])
            continue;
        const double n0 = (double)o->ios[d], n1 = (double)h->ios[d];
        o->lat_mean_us[d] = o->ios[d] ? (o->lat_mean_us[d] * n0 + h->lat_mean_us[d] * n1) /
                                            (n0 + n1)
                                      : h->lat_mean_us[d];
        o->ios[d] += h->ios[d];
        o->bytes[d] += h->bytes[d];
        o->iops[d] += h->iops[d];
        if (h->lat[d]) {
            if (!o->lat[d]) {
                o->lat[d] = xcalloc(1, sizeof(*o->lat[d]));
                hist_init(o->lat[d]);
            }
            hist_merge(o->lat[d], h->lat[d]);
        }
    }
    o->runtime_s = fmax(o->runtime_s, h->runtime_s);
    if (!o->disk.present)
        o->disk = h->disk;
}

void metrics_compute(const struct worker_stats *const *ws, unsigned n_workers, double sample_s,
                     double weight, struct round_metrics *out)
{
    memset(out, 0, sizeof(*out));
    struct hist *hr = xcalloc(1, sizeof(*hr)), *hw = xcalloc(1, sizeof(*hw));
    struct hist *ht = xcalloc(1, sizeof(*ht));
    hist_init(hr);
    hist_init(hw);
    hist_init(ht);
    hist_init(&out->lat_total);
    uint64_t ios[IO_NDIR] = {0}, bytes[IO_NDIR] = {0};
    uint64_t elapsed_ns = 0;
    unsigned n_samples = UINT32_MAX;
    for (unsigned i = 0; i < n_workers; i++) {
        const struct worker_stats *s = ws[i];
        for (int d = 0; d < IO_NDIR; d++) {
            ios[d] += s->ios[d];
            bytes[d] += s->bytes[d];
        }
        hist_merge(hr, &s->lat[IO_READ]);
        hist_merge(hw, &s->lat[IO_WRITE]);
        hist_merge(ht, &s->lat[IO_TRIM]);
        uint64_t e = s->end_ns > s->start_ns ? s->end_ns - s->start_ns : 0;
        if (e > elapsed_ns)
            elapsed_ns = e;   /* workers run concurrently: the round lasts as long as the longest */
        if (s->n_samples < n_samples)
            n_samples = s->n_samples;
    }
    if (n_samples == UINT32_MAX)
        n_samples = 0;
    hist_merge(&out->lat_total, hr);
    hist_merge(&out->lat_total, hw);
    hist_merge(&out->lat_total, ht);

    /* Elapsed virtual time for a scaled target is real device time: weight applies to counts. */
    double elapsed_s = (double)elapsed_ns / 1e9;
    out->elapsed_s = elapsed_s;
    dir_fill(&out->read, ios[IO_READ], bytes[IO_READ], elapsed_s, weight, hr);
    dir_fill(&out->write, ios[IO_WRITE], bytes[IO_WRITE], elapsed_s, weight, hw);
    dir_fill(&out->trim, ios[IO_TRIM], bytes[IO_TRIM], elapsed_s, weight, ht);
    dir_fill(&out->total, ios[IO_READ] + ios[IO_WRITE] + ios[IO_TRIM],
             bytes[IO_READ] + bytes[IO_WRITE] + bytes[IO_TRIM], elapsed_s, weight,
             &out->lat_total);
    out->lat_dir[IO_READ] = hr;
    out->lat_dir[IO_WRITE] = hw;
    const bool trims = ios[IO_TRIM] > 0;
    out->lat_dir[IO_TRIM] = trims ? ht : NULL;
    if (!trims)
        free(ht);
    out->weight = weight;

    metrics_samples(ws, n_workers, n_samples, sample_s, weight, trims, &out->samples);
    metrics_depth(ws, n_workers, elapsed_ns, &out->depth);
    for (unsigned i = 0; i < n_workers; i++) {   /* fio's cmdprio keys: the raised share */
        out->prio_ios += ws[i]->prio_ios;
        out->prio_raised += ws[i]->prio_raised;
    }
    for (unsigned i = 0; i < n_workers; i++)
        engine_choices_add(&out->choices, &ws[i]->choices);
    metrics_data_measure(ws, n_workers, &out->data);
    for (unsigned i = 0; i < n_workers; i++)
        for (unsigned k = 0; k < ws[i]->n_hosts; k++)
            hosts_add(out, &ws[i]->hosts[k]);
}

void metrics_host(const struct host_figures *h, struct dir_metrics *read,
                  struct dir_metrics *write, struct dir_metrics *trim, struct dir_metrics *total)
{
    struct hist *all = xcalloc(1, sizeof(*all)), *none = xcalloc(1, sizeof(*none));
    hist_init(all);
    hist_init(none);
    struct dir_metrics *out[IO_NDIR] = {read, write, trim};
    for (int d = 0; d < IO_NDIR; d++) {
        dir_fill(out[d], h->ios[d], h->bytes[d], h->runtime_s, 1, h->lat[d] ? h->lat[d] : none);
        if (h->lat[d])
            hist_merge(all, h->lat[d]);
    }
    dir_fill(total, h->ios[IO_READ] + h->ios[IO_WRITE] + h->ios[IO_TRIM],
             h->bytes[IO_READ] + h->bytes[IO_WRITE] + h->bytes[IO_TRIM], h->runtime_s, 1, all);
    free(all);
    free(none);
}

void metrics_data_measure(const struct worker_stats *const *ws, unsigned n_workers,
                          struct data_measure *out)
{
    memset(out, 0, sizeof(*out));
    for (unsigned i = 0; i < n_workers; i++) {
        const struct worker_stats *s = ws[i];
        if (!s->data_writes)
            continue;
        struct data_measure one = {
            .present = true,
            .declared_pct = s->data_declared_pct,
            .declared_dedupe_pct = s->data_declared_dedupe_pct,
            .generated = s->data_generated,
        };
        if (s->data_sample && s->data_sample_len)
            data_measure_add(&one, s->data_sample, s->data_sample_len);
        data_measure_merge(out, &one);
    }
}

double metrics_judge_unwritten(const struct round_metrics *r, unsigned n, unsigned first,
                               unsigned last, struct ds_verdict *v)
{
    double max = 0;
    bool measured = false;
    for (unsigned i = first; i >= 1 && i <= last && i <= n; i++) {
        const struct ds_reads *u = &r[i - 1].unwritten;
        if (u->present && u->share > max) {
            max = u->share;
            measured = u->measured;
        }
    }
    ds_judge_unwritten(max, measured, v);
    return max;
}

void metrics_free(struct round_metrics *m)
{
    struct sample_series *ss = &m->samples;
    free(ss->iops);
    free(ss->read_iops);
    free(ss->write_iops);
    free(ss->mb_s);
    free(ss->read_mb_s);
    free(ss->write_mb_s);
    free(ss->trim_iops);
    free(ss->trim_mb_s);
    free(ss->lat_mean_us);
    free(ss->read_lat_mean_us);
    free(ss->write_lat_mean_us);
    memset(ss, 0, sizeof(*ss));
    host_figures_free(m->hosts, m->n_hosts);
    m->hosts = NULL;
    for (int d = 0; d < IO_NDIR; d++) {
        free(m->lat_dir[d]);
        m->lat_dir[d] = NULL;
    }
    m->n_hosts = 0;
    for (unsigned j = 0; j < m->n_jobs; j++)
        metrics_free(&m->jobs[j]);
    free(m->jobs);
    m->jobs = NULL;
    m->n_jobs = 0;
}

#define LAT(d_, p_) .kind = METRIC_KIND_LAT, .dir = (d_), .pct = (p_), .lower_is_better = true
const struct metric_def metrics_defs[METRIC_N] = {
    [METRIC_IOPS] = {"iops", "IOPS", "IOPS", "total.iops", .kind = METRIC_KIND_IOPS,
                     .trackable = true},
    [METRIC_READ_IOPS] = {"read_iops", "read IOPS", "read IOPS", "read.iops",
                          .kind = METRIC_KIND_IOPS, .dir = METRIC_READ, .trackable = true},
    [METRIC_WRITE_IOPS] = {"write_iops", "write IOPS", "write IOPS", "write.iops",
                           .kind = METRIC_KIND_IOPS, .dir = METRIC_WRITE, .trackable = true},
    [METRIC_MB_S] = {"mb_s", "MB/s", "MB/s (10^6 B/s)", "total.mb_s", .kind = METRIC_KIND_MB_S,
                     .trackable = true},
    [METRIC_READ_MB_S] = {"read_mb_s", "read MB/s", "read MB/s (10^6 B/s)", "read.mb_s",
                          .kind = METRIC_KIND_MB_S, .dir = METRIC_READ, .trackable = true},
    [METRIC_WRITE_MB_S] = {"write_mb_s", "write MB/s", "write MB/s (10^6 B/s)", "write.mb_s",
                           .kind = METRIC_KIND_MB_S, .dir = METRIC_WRITE, .trackable = true},
    [METRIC_LAT_MEAN_US] = {"lat_mean_us", "mean latency", "mean latency (µs)",
                            "total.lat_us.mean", LAT(METRIC_TOTAL, METRIC_STAT_MEAN),
                            .trackable = true},
    [METRIC_READ_LAT_MEAN_US] = {"read_lat_mean_us", "read mean latency",
                                 "mean read latency (µs)", "read.lat_us.mean",
                                 LAT(METRIC_READ, METRIC_STAT_MEAN), .trackable = true},
    [METRIC_WRITE_LAT_MEAN_US] = {"write_lat_mean_us", "write mean latency",
                                  "mean write latency (µs)", "write.lat_us.mean",
                                  LAT(METRIC_WRITE, METRIC_STAT_MEAN), .trackable = true},
    [METRIC_LAT_P99_US] = {"lat_p99_us", "99% latency", "99% latency (µs)",
                           "total.lat_us.percentiles.99", LAT(METRIC_TOTAL, METRICS_P99)},
    [METRIC_LAT_P99_9_US] = {"lat_p99_9_us", "99.9% latency", "99.9% latency",
                             "total.lat_us.percentiles.99.9", LAT(METRIC_TOTAL, METRICS_P99_9)},
    [METRIC_LAT_P99_99_US] = {"lat_p99_99_us", "99.99% latency", "99.99% latency",
                              "total.lat_us.percentiles.99.99",
                              LAT(METRIC_TOTAL, METRICS_P99_99)},
    [METRIC_LAT_MAX_US] = {"lat_max_us", "maximum latency", "max latency (µs)",
                           "total.lat_us.max", LAT(METRIC_TOTAL, METRIC_STAT_MAX)},
    [METRIC_LAT_P50_US] = {"lat_p50_us", "median latency", "median latency (µs)",
                           "total.lat_us.percentiles.50", LAT(METRIC_TOTAL, METRICS_P50)},
    [METRIC_LAT_P90_US] = {"lat_p90_us", "90% latency", "90% latency (µs)",
                           "total.lat_us.percentiles.90", LAT(METRIC_TOTAL, METRICS_P90)},
    [METRIC_LAT_P95_US] = {"lat_p95_us", "95% latency", "95% latency (µs)",
                           "total.lat_us.percentiles.95", LAT(METRIC_TOTAL, METRICS_P95)},
    [METRIC_LAT_P99_999_US] = {"lat_p99_999_us", "99.999% latency", "99.999% latency (µs)",
                               "total.lat_us.percentiles.99.999",
                               LAT(METRIC_TOTAL, METRICS_P99_999)},
    [METRIC_LAT_P99_9999_US] = {"lat_p99_9999_us", "99.9999% latency", "99.9999% latency (µs)",
                                "total.lat_us.percentiles.99.9999",
                                LAT(METRIC_TOTAL, METRICS_P99_9999)},
    [METRIC_READ_LAT_P99_US] = {"read_lat_p99_us", "read 99% latency",
        "read 99% latency (µs)", "read.lat_us.percentiles.99",
        LAT(METRIC_READ, METRICS_P99)},
    [METRIC_READ_LAT_P99_9_US] = {"read_lat_p99_9_us", "read 99.9% latency",
        "read 99.9% latency (µs)", "read.lat_us.percentiles.99.9",
        LAT(METRIC_READ, METRICS_P99_9)},
    [METRIC_READ_LAT_P99_99_US] = {"read_lat_p99_99_us", "read 99.99% latency",
        "read 99.99% latency (µs)", "read.lat_us.percentiles.99.99",
        LAT(METRIC_READ, METRICS_P99_99)},
    [METRIC_READ_LAT_P99_999_US] = {"read_lat_p99_999_us", "read 99.999% latency",
        "read 99.999% latency (µs)", "read.lat_us.percentiles.99.999",
        LAT(METRIC_READ, METRICS_P99_999)},
    [METRIC_READ_LAT_P99_9999_US] = {"read_lat_p99_9999_us", "read 99.9999% latency",
        "read 99.9999% latency (µs)", "read.lat_us.percentiles.99.9999",
        LAT(METRIC_READ, METRICS_P99_9999)},
    [METRIC_READ_LAT_MAX_US] = {"read_lat_max_us", "read maximum latency",
        "max read latency (µs)", "read.lat_us.max", LAT(METRIC_READ, METRIC_STAT_MAX)},
    [METRIC_WRITE_LAT_P99_US] = {"write_lat_p99_us", "write 99% latency",
        "write 99% latency (µs)", "write.lat_us.percentiles.99",
        LAT(METRIC_WRITE, METRICS_P99)},
    [METRIC_WRITE_LAT_P99_9_US] = {"write_lat_p99_9_us", "write 99.9% latency",
        "write 99.9% latency (µs)", "write.lat_us.percentiles.99.9",
        LAT(METRIC_WRITE, METRICS_P99_9)},
    [METRIC_WRITE_LAT_P99_99_US] = {"write_lat_p99_99_us", "write 99.99% latency",
        "write 99.99% latency (µs)", "write.lat_us.percentiles.99.99",
        LAT(METRIC_WRITE, METRICS_P99_99)},
    [METRIC_WRITE_LAT_P99_999_US] = {"write_lat_p99_999_us", "write 99.999% latency",
        "write 99.999% latency (µs)", "write.lat_us.percentiles.99.999",
        LAT(METRIC_WRITE, METRICS_P99_999)},
    [METRIC_WRITE_LAT_P99_9999_US] = {"write_lat_p99_9999_us", "write 99.9999% latency",
        "write 99.9999% latency (µs)", "write.lat_us.percentiles.99.9999",
        LAT(METRIC_WRITE, METRICS_P99_9999)},
    [METRIC_WRITE_LAT_MAX_US] = {"write_lat_max_us", "write maximum latency",
        "max write latency (µs)", "write.lat_us.max", LAT(METRIC_WRITE, METRIC_STAT_MAX)},
    [METRIC_MIB_S] = {"mib_s", "MiB/s", "MiB/s", "total.mib_s", .kind = METRIC_KIND_MIB_S},
    [METRIC_READ_MIB_S] = {"read_mib_s", "read MiB/s", "read MiB/s", "read.mib_s",
                           .kind = METRIC_KIND_MIB_S, .dir = METRIC_READ},
    [METRIC_WRITE_MIB_S] = {"write_mib_s", "write MiB/s", "write MiB/s", "write.mib_s",
                            .kind = METRIC_KIND_MIB_S, .dir = METRIC_WRITE},
};
#undef LAT

const char *const metrics_tracking_names[] = {
    "iops", "read_iops", "write_iops", "mb_s", "read_mb_s", "write_mb_s",
    "lat_mean_us", "read_lat_mean_us", "write_lat_mean_us", NULL,
};

const struct metric_def *metrics_def(const char *key)
{
    for (unsigned i = 0; key && i < METRIC_N; i++)
        if (!strcmp(metrics_defs[i].key, key))
            return &metrics_defs[i];
    return NULL;
}

enum units_figure metrics_figure_kind(const char *key)
{
    const struct metric_def *d = key ? metrics_def(key) : NULL;
    if (!d)
        return UNITS_FIG_VALUE;
    switch (d->kind) {
    case METRIC_KIND_IOPS:
        return UNITS_FIG_IOPS;
    case METRIC_KIND_MB_S:
    case METRIC_KIND_MIB_S:
        return UNITS_FIG_MBS;
    case METRIC_KIND_LAT:
        return UNITS_FIG_LAT;
    }
    return UNITS_FIG_VALUE;
}

const char *metrics_kind_unit(enum metric_kind k)
{
    static const char *const unit[] = {"IOPS", "MB/s", "MiB/s", "µs"};
    return (unsigned)k < sizeof(unit) / sizeof(unit[0]) ? unit[k] : "";
}

const char *metrics_kind_axis(enum metric_kind k)
{
    static const char *const axis[] = {"IOPS", "throughput (MB/s = 10^6 B/s)",
                                       "throughput (MiB/s)", "latency (µs)"};
    return (unsigned)k < sizeof(axis) / sizeof(axis[0]) ? axis[k] : "";
}

double metrics_figure(const struct round_metrics *m, const struct metric_def *d)
{
    const struct dir_metrics *x = d->dir == METRIC_READ    ? &m->read
                                  : d->dir == METRIC_WRITE ? &m->write
                                                           : &m->total;
    switch (d->kind) {
    case METRIC_KIND_IOPS:
        return x->iops;
    case METRIC_KIND_MB_S:
        return x->mb_s;
    case METRIC_KIND_MIB_S:
        return x->mib_s;
    case METRIC_KIND_LAT:
        break;
    }
    if (d->pct == METRIC_STAT_MEAN)
        return x->lat.mean_us;
    if (d->pct == METRIC_STAT_MAX)
        return x->lat.max_us;
    return d->pct >= 0 && d->pct < METRICS_NPCT ? x->lat.pct_us[d->pct] : NAN;
}

int metrics_value(const struct round_metrics *m, const char *name, double *out)
{
    const struct metric_def *d = metrics_def(name);
    if (!d || !d->trackable)
        return -1;
    *out = metrics_figure(m, d);
    return 0;
}

bool metrics_too_few(const struct round_metrics *m, uint32_t max_bs, char *why, size_t len)
{
    const uint64_t done = m->total.ios;   /* a scaled drive's weighted: k per completion */
    const bool end_seen = m->depth.how == DEPTH_LOOP || m->depth.how == DEPTH_VIRTUAL;
    const unsigned left = end_seen ? m->depth.at_end : m->depth.declared;
    if (done >= 1 && done >= left)
        return false;
    char bs[40] = "";
    if (max_bs) {
        char b[32];
        units_format_bs((double)max_bs, b, sizeof(b));
        snprintf(bs, sizeof(bs), " x %s", b);
    }
    char at_end[64] = "";
    if (end_seen)
        snprintf(at_end, sizeof(at_end), ", %u left in flight at its end", left);
    snprintf(why, len,
             "completed %llu I/O%s in %.3g s%s (declared depth %u%s): too few to measure (a "
             "longer round, or a smaller depth or size)", (unsigned long long)done,
             done == 1 ? "" : "s", m->elapsed_s, at_end, m->depth.declared, bs);
    return true;
}

const char *metrics_depth_text(const struct depth_figure *d, char *buf, size_t len)
{
    buf[0] = '\0';
    if (d->how == DEPTH_NONE || !d->declared || d->mean >= METRICS_DEPTH_KEPT * d->declared)
        return buf;
    char why[128] = "";
    if (d->at_submit_share >= METRICS_AT_SUBMIT_NAMED)
        snprintf(why, sizeof(why), " (%.0f%% of the I/Os ran inside their submission call: the "
                 "device does the I/O in the submitting thread)", 100 * d->at_submit_share);
    snprintf(buf, len, "QD %u declared, %.*f in flight on average%s%s", d->declared, d->mean < 10 ? 1 : 0,
             d->mean, d->how == DEPTH_LITTLE ? " (Little's law)" : "", why);
    return buf;
}
