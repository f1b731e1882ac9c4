/* metrics.c — a round's figures from the workers' counters. */
#include "core/metrics.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/units.h"
#include "lib/util.h"

const double metrics_percentiles[METRICS_NPCT] = {50.0, 90.0, 95.0, 99.0, 99.9, 99.99, 99.999};
const char *const metrics_percentile_names[METRICS_NPCT] = {"p50", "p90", "p95", "p99", "p99.9",
                                                            "p99.99", "p99.999"};

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
    for (int i = 0; i < METRICS_NPCT; i++)
        out->pct_us[i] = (double)hist_percentile(h, metrics_percentiles[i]) * to_us;
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
        done += (double)(ws[i]->ios[IO_READ] + ws[i]->ios[IO_WRITE]);
        out->at_submit_known |= ws[i]->done_at_submit_known;
        if (ws[i]->depth_how != DEPTH_NONE)
            out->how = ws[i]->depth_how;
    }
    if (out->how != DEPTH_NONE && elapsed_ns)
        out->mean = area / (double)elapsed_ns;
    if (done > 0)
        out->at_submit_share = at_submit < done ? at_submit / done : 1.0;
}

void metrics_compute(const struct worker_stats *const *ws, unsigned n_workers, double sample_s,
                     double weight, struct round_metrics *out)
{
    memset(out, 0, sizeof(*out));
    struct hist *hr = xcalloc(1, sizeof(*hr)), *hw = xcalloc(1, sizeof(*hw));
    hist_init(hr);
    hist_init(hw);
    hist_init(&out->lat_total);
    uint64_t ios[IO_NDIR] = {0, 0}, bytes[IO_NDIR] = {0, 0};
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

    /* Elapsed virtual time for a scaled target is real device time: weight applies to counts. */
    double elapsed_s = (double)elapsed_ns / 1e9;
    out->elapsed_s = elapsed_s;
    dir_fill(&out->read, ios[IO_READ], bytes[IO_READ], elapsed_s, weight, hr);
    dir_fill(&out->write, ios[IO_WRITE], bytes[IO_WRITE], elapsed_s, weight, hw);
    dir_fill(&out->total, ios[0] + ios[1], bytes[0] + bytes[1], elapsed_s, weight, &out->lat_total);
    free(hr);
    free(hw);

    struct sample_series *ss = &out->samples;
    ss->n = n_samples;
    ss->interval_s = sample_s;
    double **arrays[] = {&ss->iops, &ss->read_iops, &ss->write_iops,
                         &ss->mb_s, &ss->read_mb_s, &ss->write_mb_s};
    for (size_t a = 0; a < sizeof(arrays) / sizeof(arrays[0]); a++)
        *arrays[a] = xcalloc(n_samples ? n_samples : 1, sizeof(double));
    for (unsigned k = 0; k < n_samples && sample_s > 0; k++) {
        uint64_t si[IO_NDIR] = {0, 0}, sb[IO_NDIR] = {0, 0};
        for (unsigned i = 0; i < n_workers; i++)
            for (int d = 0; d < IO_NDIR; d++) {
                si[d] += ws[i]->samples[k].ios[d];
                sb[d] += ws[i]->samples[k].bytes[d];
            }
        double f = weight / sample_s;
        ss->read_iops[k] = (double)si[IO_READ] * f;
        ss->write_iops[k] = (double)si[IO_WRITE] * f;
        ss->iops[k] = ss->read_iops[k] + ss->write_iops[k];
        ss->read_mb_s[k] = units_mb((double)sb[IO_READ] * f);
        ss->write_mb_s[k] = units_mb((double)sb[IO_WRITE] * f);
        ss->mb_s[k] = ss->read_mb_s[k] + ss->write_mb_s[k];
    }
    metrics_depth(ws, n_workers, elapsed_ns, &out->depth);
    for (unsigned i = 0; i < n_workers; i++)
        engine_choices_add(&out->choices, &ws[i]->choices);
    metrics_data_measure(ws, n_workers, &out->data);
    for (unsigned i = 0; i < n_workers; i++) {
        if (!ws[i]->n_hosts)
            continue;
        out->hosts = xrealloc(out->hosts, (out->n_hosts + ws[i]->n_hosts) * sizeof(*out->hosts));
        memcpy(out->hosts + out->n_hosts, ws[i]->hosts, ws[i]->n_hosts * sizeof(*out->hosts));
        out->n_hosts += ws[i]->n_hosts;
    }
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
    memset(ss, 0, sizeof(*ss));
    free(m->hosts);
    m->hosts = NULL;
    m->n_hosts = 0;
}

const char *const metrics_tracking_names[] = {
    "iops", "read_iops", "write_iops", "mb_s", "read_mb_s", "write_mb_s",
    "lat_mean_us", "read_lat_mean_us", "write_lat_mean_us", NULL,
};

int metrics_value(const struct round_metrics *m, const char *name, double *out)
{
    struct { const char *name; double v; } t[] = {
        {"iops", m->total.iops},
        {"read_iops", m->read.iops},
        {"write_iops", m->write.iops},
        {"mb_s", m->total.mb_s},
        {"read_mb_s", m->read.mb_s},
        {"write_mb_s", m->write.mb_s},
        {"lat_mean_us", m->total.lat.mean_us},
        {"read_lat_mean_us", m->read.lat.mean_us},
        {"write_lat_mean_us", m->write.lat.mean_us},
    };
    for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
        if (strcmp(t[i].name, name) == 0) {
            *out = t[i].v;
            return 0;
        }
    return -1;
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
