/* replay.c — `ptsbench replay` (replay.h): one engine instance, one thread, the trace's I/Os in
 * order. The loop stages every I/O that is due (timed: its scheduled time has come; afap: the
 * queue has room), stamps and submits them as one batch, then reaps. Native engines are polled
 * (reap with min 0) while an I/O is due soon, so that an I/O is issued within microseconds of
 * its time, and waited on (min 1) when nothing is due; the virtual-clock engine of a simulated
 * drive is advanced to the earlier of its next completion and the next I/O's time.
 *
 * Busy time and the time-weighted queue depth are kept online: one device, one stream, so the
 * outstanding count's changes are the events, and busy time is the time it is above 0 (the
 * union of the I/Os' [issue, completion) intervals, as trace_busy_ns computes for a trace). */
#include "core/replay.h"

#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#include "core/fleet.h"
#include "core/results.h"
#include "core/steps.h"
#include "device/hostinfo.h"
#include "io/pattern.h"
#include "io/tracegen.h"
#include "engine/fio_replay.h"
#include "lib/file.h"
#include "lib/units.h"
#include "lib/util.h"
#include "sim/sim.h"

#define SPIN_NS 200000ull          /* poll without sleeping when an I/O is due this soon */
#define NAP_NS 20000ull            /* else sleep this long between polls */

/* ---------------------------------------------------------------- measure */

static void measure_init(struct replay_measure *m)
{
    memset(m, 0, sizeof(*m));
    for (int d = 0; d < IO_NDIR; d++)
        hist_init(&m->lat[d]);
    hist_init(&m->late);
    m->busy_known = true;
}

static void measure_merge(struct replay_measure *dst, const struct replay_measure *src)
{
    for (int d = 0; d < IO_NDIR; d++) {
        dst->ios[d] += src->ios[d];
        dst->bytes[d] += src->bytes[d];
        hist_merge(&dst->lat[d], &src->lat[d]);
    }
    if (!dst->end_ns || src->start_ns < dst->start_ns)
        dst->start_ns = src->start_ns;
    if (src->end_ns > dst->end_ns)
        dst->end_ns = src->end_ns;
    dst->elapsed_ns += src->elapsed_ns;
    dst->by_fio = src->by_fio;
    dst->busy_known = dst->busy_known && src->busy_known;
    dst->busy_ns += src->busy_ns;
    dst->qd_time_ns += src->qd_time_ns;
    for (int q = 0; q <= TRACE_QD_MAX; q++)
        dst->qd[q] += src->qd[q];
    hist_merge(&dst->late, &src->late);
    dst->late_n += src->late_n;
}

void replay_metrics(const struct replay_measure *m, struct round_metrics *out)
{
    struct worker_stats ws;
    memset(&ws, 0, sizeof(ws));
    for (int d = 0; d < IO_NDIR; d++) {
        ws.ios[d] = m->ios[d];
        ws.bytes[d] = m->bytes[d];
        ws.lat[d] = m->lat[d];
    }
    ws.start_ns = 0;
    ws.end_ns = m->elapsed_ns;
    const struct worker_stats *p = &ws;
    metrics_compute(&p, 1, 0, 1.0, out);
}

/* ---------------------------------------------------------------- prepare */

static int fit_trace(struct replay_session *s, char *err, size_t errlen)
{
    const struct target_info *t = &s->target;
    /* the full-size capacity the trace is fitted to (a simulated drive's is k times its
     * address space), then divided into that space */
    const uint64_t cap = t->sim ? (uint64_t)((double)t->capacity * s->k) : t->capacity;
    const uint32_t sector = t->logical_sector ? t->logical_sector : 512;
    const char *mode = s->cfg.remap;
    if (!mode)
        mode = s->trace_extent <= cap ? "none" : "scale";
    str_copy(s->remap_used, sizeof(s->remap_used), mode);
    char why[ERR_LEN];
    if (trace_remap(&s->trace, cap, sector, mode, &s->raised, why, sizeof(why)) != 0)
        return errf(err, errlen, "%s: %s", t->path, why);
    if (t->sim && s->k > 1) {
        const uint64_t k = (uint64_t)s->k;
        for (size_t i = 0; i < s->trace.n; i++) {
            struct trace_rec *r = &s->trace.r[i];
            uint64_t off = r->offset / k / sector * sector;
            if (off + r->len > t->capacity)
                off = (t->capacity - r->len) / sector * sector;
            r->offset = off;
        }
    }
    return 0;
}

int replay_prepare(const struct replay_config *c, const char *const *profile_dirs,
                   struct replay_session *s, char *err, size_t errlen)
{
    memset(s, 0, sizeof(*s));
    s->cfg = *c;
    if (!c->n_traces)
        return errf(err, errlen, "no trace given (ptsbench replay TRACE... --target T)");
    if (c->loops < 1)
        s->cfg.loops = 1;
    if (!(c->speed > 0))
        s->cfg.speed = 1;
    for (unsigned i = 0; i < c->n_traces; i++) {
        if (tracegen_load_any(c->traces[i], c->trace_dirs, &s->trace, err, errlen) != 0)
            return -1;
    }
    if (trace_finish(&s->trace, err, errlen) != 0)
        return -1;
    trace_stats(&s->trace, &s->trace_stats);
    s->trace_extent = trace_extent(&s->trace);

    s->mode = c->mode;
    if (s->mode == REPLAY_MODE_DEFAULT)
        s->mode = s->trace.timed ? REPLAY_TIMED : REPLAY_AFAP;
    if (s->mode == REPLAY_TIMED && !s->trace.timed)
        return errf(err, errlen, "--mode timed: the trace (%s) holds no times (a version 2 fio "
                    "iolog without waits): replay it with --mode afap", s->trace.source);
    if (s->mode == REPLAY_TIMED && c->qd > REPLAY_MAX_DEPTH)
        return errf(err, errlen, "--qd %u: at most %u outstanding I/Os", c->qd,
                    REPLAY_MAX_DEPTH);
    s->trace_qd = s->mode == REPLAY_AFAP && !c->qd && s->trace.has_done;
    if (s->mode == REPLAY_TIMED)
        s->depth = c->qd ? c->qd : REPLAY_MAX_DEPTH;
    else if (s->trace_qd) {
        unsigned q = 1;
        for (unsigned d = 1; d <= TRACE_QD_MAX; d++)
            if (s->trace_stats.qd[d])
                q = d;
        s->depth = q;
    } else {
        s->depth = c->qd ? c->qd : 1;
    }
    if (s->depth > 65536)
        return errf(err, errlen, "--qd %u: at most 65536", s->depth);

    if (run_select_engine(c->engine_name, c->target_path, &s->engine, err, errlen) != 0)
        return -1;
    if ((s->engine->flags & ENGINE_F_WHOLE_ROUND) && !fio_replay_ioengine(s->engine))
        return errf(err, errlen, "--engine %s: replay runs on io_uring, libaio, fio, "
                    "fio-libaio and the simulated drive", s->engine->name);
    if ((s->engine->flags & ENGINE_F_WHOLE_ROUND) && s->trace_qd)
        return errf(err, errlen, "--engine %s: fio replays at one queue depth: give --qd N",
                    s->engine->name);
    if ((s->engine->flags & ENGINE_F_WHOLE_ROUND) && s->mode == REPLAY_TIMED) {
        /* fio 3.33, measured: at iodepth > 1 a timed iolog replay queues I/Os ahead of their
         * times and counts the wait as their latency (a 2 s trace of 40 us I/Os: 1 s mean) */
        if (c->qd > 1)
            return errf(err, errlen, "--engine %s --mode timed --qd %u: fio holds queued I/Os "
                        "for their times and counts that wait as latency at iodepth above 1: "
                        "use --qd 1, or a native engine", s->engine->name, c->qd);
        s->depth = 1;
    }
    if (run_probe_target(c->target_path, c->create_size, c->allow_memory, profile_dirs,
                         &s->target, err, errlen) != 0)
        return -1;
    if (run_place(&c->numa, &s->target, &s->place, err, errlen) != 0)
        return -1;
    s->k = run_target_weight(&s->target);
    const bool writes = s->trace_stats.ios[TRACE_WRITE] > 0;
    const struct wl_range whole = {0, s->target.capacity};
    if (!c->no_layout && s->trace_stats.ios[TRACE_READ] > 0 &&
        step_layout_due(&s->target, &whole, false, &s->layout, err, errlen) != 0)
        return -1;
    if (run_check_safety(&s->target, writes || s->layout, c->destructive,
                         c->overwrite_signatures, err, errlen) != 0) {
        if (!writes)
            step_layout_refused(err, errlen);
        return -1;
    }
    if (fit_trace(s, err, errlen) != 0)
        return -1;
    if (run_out_dir(c->out_dir, "replay", c->force, s->out_dir, sizeof(s->out_dir),
                    s->results_path, sizeof(s->results_path), err, errlen) != 0)
        return -1;
    s->pass = xcalloc(s->cfg.loops, sizeof(*s->pass));
    s->status = "prepared";
    return 0;
}

void replay_session_free(struct replay_session *s)
{
    trace_free(&s->trace);
    free(s->pass);
    placement_free(&s->place);
    target_release(&s->target);
    s->pass = NULL;
    if (s->layout_json)
        json_object_put(s->layout_json);
    s->layout_json = NULL;
}

/* ---------------------------------------------------------------- results */

static struct json_object *jnum(double v)
{
    return isfinite(v) ? json_object_new_double(v) : NULL;
}

static struct json_object *qd_json(const uint64_t *qd)
{
    struct json_object *o = json_object_new_object();
    for (int q = 1; q <= TRACE_QD_MAX; q++)
        if (qd[q]) {
            char k[16];
            snprintf(k, sizeof(k), q == TRACE_QD_MAX ? "%d+" : "%d", q);
            json_object_object_add(o, k, json_object_new_int64((int64_t)qd[q]));
        }
    return o;
}

static double qd_mean(const uint64_t *qd)
{
    double n = 0, sum = 0;
    for (int q = 1; q <= TRACE_QD_MAX; q++) {
        n += (double)qd[q];
        sum += (double)q * (double)qd[q];
    }
    return n ? sum / n : NAN;
}

static struct json_object *trace_json(const struct replay_session *s)
{
    const struct trace *t = &s->trace;
    const struct trace_stats *st = &s->trace_stats;
    struct json_object *o = json_object_new_object();
    json_object_object_add(o, "source", json_object_new_string(t->source));
    json_object_object_add(o, "format", json_object_new_string(t->format));
    json_object_object_add(o, "timed", json_object_new_boolean(t->timed));
    json_object_object_add(o, "completions", json_object_new_boolean(t->has_done));
    json_object_object_add(o, "skipped", json_object_new_int64((int64_t)t->skipped));
    json_object_object_add(o, "unfinished", json_object_new_int64((int64_t)t->unfinished));
    if (t->files)
        json_object_object_add(o, "files", json_object_new_int64((int64_t)t->files));
    json_object_object_add(o, "extent_bytes", json_object_new_int64((int64_t)s->trace_extent));
    for (int d = 0; d < TRACE_NDIR; d++) {   /* the trace's directions: read, write */
        struct json_object *x = json_object_new_object();
        json_object_object_add(x, "ios", json_object_new_int64((int64_t)st->ios[d]));
        json_object_object_add(x, "bytes", json_object_new_int64((int64_t)st->bytes[d]));
        if (t->has_done)
            json_object_object_add(x, "lat_mean_us", jnum(st->lat_mean_us[d]));
        json_object_object_add(o, io_dir_name(d), x);
    }
    const uint64_t n = st->ios[0] + st->ios[1];
    json_object_object_add(o, "ios", json_object_new_int64((int64_t)n));
    json_object_object_add(o, "bytes",
                           json_object_new_int64((int64_t)(st->bytes[0] + st->bytes[1])));
    json_object_object_add(o, "sequential_pct", jnum(n ? 100.0 * st->seq_ios / n : NAN));
    json_object_object_add(o, "span_s", json_object_new_double((double)st->span_ns / 1e9));
    if (t->timed && st->span_ns)
        json_object_object_add(o, "iops", json_object_new_double(n / (st->span_ns / 1e9)));
    if (t->has_done) {
        json_object_object_add(o, "busy_s", json_object_new_double(st->busy_ns / 1e9));
        json_object_object_add(o, "busy_pct",
                               jnum(st->span_ns ? 100.0 * st->busy_ns / st->span_ns : NAN));
        json_object_object_add(o, "qd_mean", jnum(st->qd_mean));
        json_object_object_add(o, "qd1_pct", jnum(n ? 100.0 * st->qd[1] / n : NAN));
        json_object_object_add(o, "qd_at_issue", qd_json(st->qd));
    }
    return o;
}

/* A measurement: the figures object, then what replay adds. */
static struct json_object *measure_json(const struct replay_session *s,
                                        const struct replay_measure *m, int pass)
{
    struct json_object *o = json_object_new_object();
    if (pass > 0)
        json_object_object_add(o, "pass", json_object_new_int(pass));
    struct round_metrics rm;
    replay_metrics(m, &rm);
    results_figures_add(o, &rm.read, &rm.write, &rm.total);
    json_object_object_add(o, "elapsed_s", json_object_new_double(rm.elapsed_s));
    metrics_free(&rm);
    const double span = (double)m->elapsed_ns;
    if (m->by_fio)
        json_object_object_add(o, "measured_by", json_object_new_string(
            "fio: busy time from its disk utilisation (the kernel's io_ticks); no queue depths "
            "or lateness"));
    json_object_object_add(o, "busy_s", m->busy_known ? json_object_new_double(m->busy_ns / 1e9)
                                                      : NULL);
    json_object_object_add(o, "busy_pct", m->busy_known && span > 0
                                              ? jnum(100.0 * m->busy_ns / span) : NULL);
    if (m->by_fio)
        return o;
    json_object_object_add(o, "qd_mean", jnum(qd_mean(m->qd)));
    json_object_object_add(o, "qd_busy_mean",
                           jnum(m->busy_ns ? m->qd_time_ns / (double)m->busy_ns : NAN));
    const uint64_t n = m->ios[0] + m->ios[1];
    json_object_object_add(o, "qd1_pct", jnum(n ? 100.0 * m->qd[1] / n : NAN));
    json_object_object_add(o, "qd_at_issue", qd_json(m->qd));
    if (s->mode == REPLAY_TIMED && m->late_n) {
        struct lat_summary ls;
        lat_summary_from_hist(&m->late, 1.0, &ls);
        struct json_object *l = json_object_new_object();
        json_object_object_add(l, "count", json_object_new_int64((int64_t)m->late_n));
        json_object_object_add(l, "median", jnum(ls.pct_us[METRICS_P50]));
        json_object_object_add(l, "p99", jnum(ls.pct_us[METRICS_P99]));
        json_object_object_add(l, "max", jnum(ls.max_us));
        json_object_object_add(l, "mean", jnum(ls.mean_us));
        json_object_object_add(o, "lateness_us", l);
    }
    return o;
}

static struct json_object *build_doc(const struct replay_session *s)
{
    const struct replay_config *c = &s->cfg;
    struct json_object *doc = json_object_new_object();
    json_object_object_add(doc, "schema", json_object_new_string(REPLAY_SCHEMA));
    json_object_object_add(doc, "schema_version", json_object_new_int(REPLAY_SCHEMA_VERSION));
    json_object_object_add(doc, "ptsbench_version", json_object_new_string(PTSBENCH_VERSION));
    struct json_object *argv = json_object_new_array();
    for (int i = 0; i < c->argc; i++)
        json_object_array_add(argv, json_object_new_string(c->argv[i]));
    json_object_object_add(doc, "command_line", argv);
    json_object_object_add(doc, "started", json_object_new_string(s->started));
    json_object_object_add(doc, "updated", json_object_new_string(s->updated));
    json_object_object_add(doc, "status", json_object_new_string(s->status));
    json_object_object_add(doc, "writer", results_writer_json());
    if (s->error[0])
        json_object_object_add(doc, "error", json_object_new_string(s->error));
    json_object_object_add(doc, "host", results_host_json(&s->host));
    json_object_object_add(doc, "target", results_target_json(&s->target));
    json_object_object_add(doc, "placement", results_placement_json(&s->place));
    struct json_object *eng = json_object_new_object();
    json_object_object_add(eng, "name", json_object_new_string(s->engine->name));
    json_object_object_add(eng, "library", json_object_new_string(s->engine->version()));
    json_object_object_add(eng, "clock",
                           json_object_new_string(s->engine->flags & ENGINE_F_VIRTUAL_CLOCK
                                                      ? "virtual" : "CLOCK_MONOTONIC"));
    json_object_object_add(eng, "time_scale", json_object_new_double(s->k));
    json_object_object_add(doc, "engine", eng);
    json_object_object_add(doc, "trace", trace_json(s));
    if (s->layout_json)   /* core/layout.h */
        json_object_object_add(doc, "layout", json_object_get(s->layout_json));
    if (s->state.present) {   /* what the target held before the first pass (drive_state.h) */
        struct json_object *ct = results_state_json(&s->state);
        const double share = ds_unwritten_share(&s->state);
        if (s->trace_stats.ios[TRACE_READ] && share >= DS_UNWRITTEN_LABEL_SHARE) {
            char label[160];
            ds_unwritten_label(share, label, sizeof(label));
            json_object_object_add(ct, "label", json_object_new_string(label));
        }
        json_object_object_add(doc, "state", ct);
    }
    struct json_object *r = json_object_new_object();
    json_object_object_add(r, "mode",
                           json_object_new_string(s->mode == REPLAY_TIMED ? "timed" : "afap"));
    if (s->mode == REPLAY_TIMED)
        json_object_object_add(r, "speed", json_object_new_double(c->speed));
    json_object_object_add(r, "queue_depth",
                           s->trace_qd ? json_object_new_string("trace")
                                       : json_object_new_int((int)s->depth));
    json_object_object_add(r, "max_outstanding", json_object_new_int((int)s->depth));
    json_object_object_add(r, "loops", json_object_new_int((int)c->loops));
    json_object_object_add(r, "remap", json_object_new_string(s->remap_used));
    json_object_object_add(r, "raised_to_sector", json_object_new_int64((int64_t)s->raised));
    json_object_object_add(r, "compress_pct", json_object_new_int((int)c->compress_pct));
    if (s->note[0])
        json_object_object_add(r, "note", json_object_new_string(s->note));
    json_object_object_add(doc, "replay", r);
    struct json_object *passes = json_object_new_array();
    for (unsigned i = 0; i < s->passes_done; i++)
        json_object_array_add(passes, measure_json(s, &s->pass[i], (int)i + 1));
    json_object_object_add(doc, "passes", passes);
    if (s->passes_done)
        json_object_object_add(doc, "total", measure_json(s, &s->all, 0));
    return doc;
}

static int write_doc(struct replay_session *s, char *err, size_t errlen)
{
    iso8601_now(s->updated, sizeof(s->updated));
    struct json_object *doc = build_doc(s);
    int rc = results_write_json_atomic(doc, s->results_path, err, errlen);
    json_object_put(doc);
    return rc;
}

/* ---------------------------------------------------------------- the loop */

struct loop {
    struct replay_session *s;
    struct engine *e;
    const struct engine_ops *ops;
    struct io_unit **free_units, **staged, **done;
    unsigned n_free, inflight;
    uint64_t *sched;              /* per unit: its scheduled issue (timed), for lateness */
    uint8_t *qd_limit;            /* afap at the trace's depths: per record */
    struct pattern pat;
    bool fill;                    /* the engine carries data: fill write buffers */
    bool virt;
    /* online busy and queue-depth integral */
    uint64_t last_change;
    struct replay_measure *m;
};

static inline uint64_t scaled(const struct loop *L, uint64_t v)
{
    return L->s->k > 1 ? (uint64_t)((double)v / L->s->k) : v;
}

/* The outstanding count changes at time t (engine clock). */
static inline void level(struct loop *L, uint64_t t)
{
    if (L->inflight && t > L->last_change) {
        L->m->busy_ns += scaled(L, t - L->last_change);
        L->m->qd_time_ns += (double)L->inflight * (double)scaled(L, t - L->last_change);
    }
    L->last_change = t;
}

static void account(struct loop *L, int n, uint64_t t, char *err, size_t errlen, int *failed)
{
    level(L, t);
    for (int i = 0; i < n; i++) {
        struct io_unit *u = L->done[i];
        if (u->result != (int64_t)u->len && !*failed) {
            *failed = 1;
            if (u->result < 0)
                errf(err, errlen, "%s of %u bytes at offset %llu failed: %s",
                     io_dir_name(u->dir), u->len,
                     (unsigned long long)u->offset, strerror((int)-u->result));
            else
                errf(err, errlen, "short %s at offset %llu: %lld of %u bytes",
                     io_dir_name(u->dir), (unsigned long long)u->offset,
                     (long long)u->result, u->len);
        }
        L->m->ios[u->dir]++;
        L->m->bytes[u->dir] += u->len;
        hist_add(&L->m->lat[u->dir], scaled(L, t - u->issue_ns));
        L->free_units[L->n_free++] = u;
    }
    L->inflight -= (unsigned)n;
    const uint64_t ts = scaled(L, t);
    if (ts > L->m->end_ns)
        L->m->end_ns = ts;
}

/* Sleep until about `until` (engine clock, native): short naps, the rest polled. */
static void nap(uint64_t now, uint64_t until)
{
    if (until <= now + SPIN_NS)
        return;
    uint64_t d = until - now - SPIN_NS;
    if (d > NAP_NS)
        d = NAP_NS;
    struct timespec ts = {0, (long)d};
    nanosleep(&ts, NULL);
}

/* One pass of the trace, scheduled from `base` (engine clock). */
static int run_pass(struct loop *L, uint64_t base, volatile sig_atomic_t *stop, char *err,
                    size_t errlen)
{
    struct replay_session *s = L->s;
    const struct trace *t = &s->trace;
    const bool timed = s->mode == REPLAY_TIMED;
    const double stretch = s->k / s->cfg.speed;   /* trace ns -> engine ns */
    size_t next = 0;
    int failed = 0;
    bool first = true;
    L->last_change = L->ops->clock(L->e);
    while ((next < t->n && !failed) || L->inflight) {
        if (*stop)
            break;
        uint64_t now = L->ops->clock(L->e);
        unsigned ns = 0;
        uint64_t due_at = UINT64_MAX;   /* the next record's time, when it is not due yet */
        while (next < t->n && !failed && !*stop) {
            const struct trace_rec *r = &t->r[next];
            if (L->inflight + ns >= s->depth)
                break;
            if (L->qd_limit && L->inflight + ns >= L->qd_limit[next])
                break;
            const uint64_t at = timed ? base + (uint64_t)((double)r->t_ns * stretch) : 0;
            if (timed && at > now) {
                due_at = at;
                break;
            }
            struct io_unit *u = L->free_units[--L->n_free];
            u->dir = r->dir == TRACE_WRITE ? IO_WRITE : IO_READ;
            u->len = r->len;
            u->offset = r->offset;
            if (u->dir == IO_WRITE && L->fill)
                pattern_fill(&L->pat, u->buf, u->len);
            L->sched[u->index] = at;
            int ret = L->ops->queue(L->e, u);
            if (ret < 0) {
                L->free_units[L->n_free++] = u;
                failed = 1;
                errf(err, errlen, "%s: cannot queue an I/O: %s", L->ops->name, strerror(-ret));
                break;
            }
            L->staged[ns++] = u;
            next++;
        }
        if (ns) {
            const uint64_t st = L->ops->clock(L->e);
            level(L, st);
            if (first) {
                const uint64_t s0 = scaled(L, st);
                if (!L->m->start_ns || s0 < L->m->start_ns)
                    L->m->start_ns = s0;
                first = false;
            }
            for (unsigned i = 0; i < ns; i++) {
                struct io_unit *u = L->staged[i];
                u->issue_ns = st;
                unsigned q = L->inflight + i + 1;
                L->m->qd[q < TRACE_QD_MAX ? q : TRACE_QD_MAX]++;
                if (timed) {
                    hist_add(&L->m->late, scaled(L, st > L->sched[u->index]
                                                        ? st - L->sched[u->index] : 0));
                    L->m->late_n++;
                }
            }
            int ret = L->ops->commit(L->e);
            if (ret < 0) {
                errf(err, errlen, "%s: submit failed: %s", L->ops->name, strerror(-ret));
                return -1;
            }
            L->inflight += ns;
        }
        if (failed && !L->inflight)
            break;
        /* wait: for a completion, or for the next I/O's time */
        if (L->virt) {
            const uint64_t nc = L->ops->next_completion(L->e);
            if (due_at != UINT64_MAX && due_at <= nc) {
                now = L->ops->clock(L->e);
                if (due_at > now)
                    L->ops->idle(L->e, due_at - now);
                continue;
            }
            if (!L->inflight)
                continue;
            int n = L->ops->reap(L->e, 1, L->inflight, L->done);
            if (n < 0)
                return errf(err, errlen, "%s: no completion to reap", L->ops->name);
            if (n)
                account(L, n, L->ops->clock(L->e), err, errlen, &failed);
            continue;
        }
        if (!L->inflight) {
            if (due_at != UINT64_MAX)
                nap(L->ops->clock(L->e), due_at);
            continue;
        }
        const bool soon = due_at != UINT64_MAX;
        int n = L->ops->reap(L->e, soon ? 0 : 1, L->inflight, L->done);
        if (n < 0) {
            errf(err, errlen, "%s: waiting for completions failed: %s", L->ops->name,
                 strerror(-n));
            return -1;
        }
        if (n)
            account(L, n, L->ops->clock(L->e), err, errlen, &failed);
        else if (soon)
            nap(L->ops->clock(L->e), due_at);
    }
    return failed ? -1 : 0;
}

/* ---------------------------------------------------------------- fio */

static void print_measure(const char *what, const struct replay_measure *m,
                          enum replay_mode mode);

/* The remapped trace as a version 3 iolog for fio (microseconds). */
static int write_iolog(const struct replay_session *s, const char *path, char *err,
                       size_t errlen)
{
    const char *tgt = s->target.path;
    FILE *f = fopen(path, "w");
    if (!f)
        return errf(err, errlen, "%s: %s", path, strerror(errno));
    fprintf(f, "fio version 3 iolog\n0 %s add\n0 %s open\n", tgt, tgt);
    uint64_t last = 0;
    for (size_t i = 0; i < s->trace.n; i++) {
        const struct trace_rec *r = &s->trace.r[i];
        last = r->t_ns / 1000;
        fprintf(f, "%llu %s %s %llu %u\n", (unsigned long long)last, tgt,
                r->dir == TRACE_WRITE ? "write" : "read", (unsigned long long)r->offset, r->len);
    }
    fprintf(f, "%llu %s close\n", (unsigned long long)last, tgt);
    if (fclose(f) != 0)
        return errf(err, errlen, "%s: %s", path, strerror(errno));
    return 0;
}

static int run_fio(struct replay_session *s, volatile sig_atomic_t *stop)
{
    const struct replay_config *c = &s->cfg;
    char dir[4300], iolog[4400], err[ERR_LEN];
    snprintf(dir, sizeof(dir), "%s/fio", s->out_dir);
    snprintf(iolog, sizeof(iolog), "%s/trace.iolog", dir);
    if (file_mkdir_p(dir, err, sizeof(err)) != 0 || write_iolog(s, iolog, err, sizeof(err)) != 0) {
        snprintf(s->error, sizeof(s->error), "%s", err);
        return EXIT_FAILURE_RUN;
    }
    measure_init(&s->all);
    for (unsigned p = 0; p < c->loops; p++) {
        if (*stop)
            return EXIT_INTERRUPTED;
        char label[32], version[64];
        snprintf(label, sizeof(label), "pass-%02u", p + 1);
        struct fio_replay_opts o = {
            .ioengine = fio_replay_ioengine(s->engine), .target = s->target.path,
            .iolog = iolog, .iodepth = s->depth, .no_stall = s->mode == REPLAY_AFAP,
            .time_scale_pct = (unsigned)llround(100 * c->speed), .dir = dir, .label = label,
        };
        struct worker_stats *ws = xcalloc(1, sizeof(*ws));
        for (int d = 0; d < IO_NDIR; d++)
            hist_init(&ws->lat[d]);
        double util;
        int rc = fio_replay_run(&o, ws, &util, version, sizeof(version), err, sizeof(err));
        if (rc != 0) {
            free(ws);
            if (rc > 0)
                return EXIT_INTERRUPTED;
            snprintf(s->error, sizeof(s->error), "pass %u: %s", p + 1, err);
            return EXIT_FAILURE_RUN;
        }
        struct replay_measure *m = &s->pass[p];
        measure_init(m);
        m->by_fio = true;
        for (int d = 0; d < IO_NDIR; d++) {
            m->ios[d] = ws->ios[d];
            m->bytes[d] = ws->bytes[d];
            m->lat[d] = ws->lat[d];
        }
        m->start_ns = 0;
        m->end_ns = m->elapsed_ns = ws->end_ns;
        m->busy_known = isfinite(util);
        m->busy_ns = m->busy_known ? (uint64_t)llround(util / 100.0 * (double)ws->end_ns) : 0;
        free(ws);
        const uint64_t tb = s->trace_stats.bytes[0] + s->trace_stats.bytes[1];
        const uint64_t fb = m->bytes[0] + m->bytes[1];
        if (fb != tb)   /* fio 3.33's iolog replay at iodepth > 1 undercounts mixed sizes */
            snprintf(s->note, sizeof(s->note), "%s reported %llu bytes where the trace holds "
                     "%llu (%+.2f%%) for the same %llu I/Os: fio's own count, kept as it is",
                     version, (unsigned long long)fb, (unsigned long long)tb,
                     100.0 * ((double)fb - (double)tb) / (double)tb,
                     (unsigned long long)(m->ios[0] + m->ios[1]));
        measure_merge(&s->all, m);
        s->passes_done++;
        if (!c->quiet) {
            char what[48];
            snprintf(what, sizeof(what), "pass %u (%s)", p + 1, version);
            print_measure(what, m, s->mode);
        }
        if (write_doc(s, err, sizeof(err)) != 0) {
            snprintf(s->error, sizeof(s->error), "%s", err);
            return EXIT_FAILURE_RUN;
        }
    }
    return EXIT_OK;
}

/* ---------------------------------------------------------------- execute */

static void print_measure(const char *what, const struct replay_measure *m,
                          enum replay_mode mode)
{
    struct round_metrics rm;
    replay_metrics(m, &rm);
    char iops[32], mbs[32];
    units_format_figure(rm.total.iops, UNITS_FIG_IOPS, iops, sizeof(iops));
    units_format_figure(rm.total.mb_s, UNITS_FIG_MBS, mbs, sizeof(mbs));
    const double span = (double)m->elapsed_ns;
    char lat[3][32];
    units_format_figure(rm.total.lat.mean_us, UNITS_FIG_LAT, lat[0], sizeof(lat[0]));
    units_format_figure(rm.read.lat.mean_us, UNITS_FIG_LAT, lat[1], sizeof(lat[1]));
    units_format_figure(rm.write.lat.mean_us, UNITS_FIG_LAT, lat[2], sizeof(lat[2]));
    printf("%s: %s IOPS, %s MB/s, mean latency %s (read %s, write %s)", what, iops, mbs, lat[0],
           lat[1], lat[2]);
    if (m->busy_known)
        printf(", busy %.3f s (%.0f%%)", m->busy_ns / 1e9,
               span > 0 ? 100.0 * m->busy_ns / span : 0.0);
    else
        printf(", busy time not reported");
    if (!m->by_fio)
        printf(", mean QD at issue %.2f", qd_mean(m->qd));
    if (mode == REPLAY_TIMED && m->late_n) {
        struct lat_summary ls;
        lat_summary_from_hist(&m->late, 1.0, &ls);
        units_format_figure(ls.pct_us[METRICS_P50], UNITS_FIG_LAT, lat[0], sizeof(lat[0]));
        units_format_figure(ls.pct_us[METRICS_P99], UNITS_FIG_LAT, lat[1], sizeof(lat[1]));
        units_format_figure(ls.max_us, UNITS_FIG_LAT, lat[2], sizeof(lat[2]));
        printf("; issued late by %s median, %s 99%%, %s max", lat[0], lat[1], lat[2]);
    }
    putchar('\n');
    metrics_free(&rm);
}

/* The plan's time bound: a timed replay takes the trace's span at its speed per pass (longer
 * when the target falls behind); as fast as possible has none before it runs. */
static void print_time_bound(const struct replay_session *s)
{
    const struct trace_stats *st = &s->trace_stats;
    const uint64_t n = st->ios[0] + st->ios[1];
    const char *clock = s->target.sim ? " of virtual time" : "";
    char pass[32], total[32];
    if (s->mode == REPLAY_TIMED) {
        run_format_duration((double)st->span_ns / 1e9 / s->cfg.speed, pass, sizeof(pass));
        run_format_duration((double)st->span_ns / 1e9 / s->cfg.speed * s->cfg.loops, total,
                            sizeof(total));
        printf("  time    %u pass%s of %s%s: about %s, longer when the target falls behind the "
               "trace's times\n", s->cfg.loops, s->cfg.loops == 1 ? "" : "es", pass, clock,
               total);
    } else {
        char ios[32];
        units_format_figure((double)n, UNITS_FIG_COUNT, ios, sizeof(ios));
        printf("  time    %u pass%s of %s I/Os as fast as possible: unbounded here (as long "
               "as the target takes)\n", s->cfg.loops, s->cfg.loops == 1 ? "" : "es", ios);
    }
}

void replay_print_plan(const struct replay_session *s)
{
    const struct trace_stats *st = &s->trace_stats;
    const uint64_t n = st->ios[0] + st->ios[1];
    char f[4][32];
    units_format_figure((double)n, UNITS_FIG_COUNT, f[0], sizeof(f[0]));
    units_format_figure((double)st->ios[0], UNITS_FIG_COUNT, f[1], sizeof(f[1]));
    units_format_figure((double)st->ios[1], UNITS_FIG_COUNT, f[2], sizeof(f[2]));
    units_format_figure((double)(st->bytes[0] + st->bytes[1]), UNITS_FIG_BYTES, f[3],
                        sizeof(f[3]));
    printf("replay %s (%s): %s I/Os (%s reads, %s writes), %s, %.1f%% sequential, over %.3f s",
           s->trace.source, s->trace.format, f[0], f[1], f[2], f[3],
           n ? 100.0 * st->seq_ios / n : 0.0, st->span_ns / 1e9);
    if (s->trace.has_done)
        printf("; busy %.3f s, mean QD %.2f", st->busy_ns / 1e9, st->qd_mean);
    printf("\n  on %s%s, engine %s; %s", s->target.path, s->target.sim ? " (simulated)" : "",
           s->engine->name, s->mode == REPLAY_TIMED ? "timed" : "as fast as possible");
    if (s->mode == REPLAY_TIMED)
        printf(" at %gx the trace's rate, up to %u outstanding", s->cfg.speed, s->depth);
    else if (s->trace_qd)
        printf(" at the trace's own queue depths (up to %u)", s->depth);
    else
        printf(" at QD %u", s->depth);
    printf(", %u pass%s; offsets: %s", s->cfg.loops, s->cfg.loops == 1 ? "" : "es",
           s->remap_used);
    if (s->raised)
        printf(", %llu I/Os raised to the %u-byte sector", (unsigned long long)s->raised,
               s->target.logical_sector);
    if (s->trace.skipped)
        printf("; %llu trims, flushes and syncs left out", (unsigned long long)s->trace.skipped);
    putchar('\n');
    print_time_bound(s);
    if (s->target.memory_fs[0])
        printf("  memory  %s is on %s: the figures measure memory, not a drive\n",
               s->target.path, s->target.memory_fs);
}

void replay_print_dry_run(const struct replay_session *s)
{
    run_print_dry_run(&s->target, s->trace_stats.ios[TRACE_WRITE] > 0, s->layout, PURGE_NONE,
                      s->results_path);
}

/* What a file target holds, and its layout when one is due (the shared step, steps.h): the
 * whole file, since a trace's offsets go anywhere in it. 0, or -1 with err. */
static int replay_layout(struct replay_session *s, int fd, volatile sig_atomic_t *stop,
                         char *err, size_t errlen)
{
    ds_init(&s->state, (double)s->target.capacity * s->k, s->target.sim != NULL);
    if (s->target.kind != TARGET_FILE)
        return 0;
    struct run_ctx ctx = {&s->target, fd, s->out_dir, s->engine, s->k, NULL, &s->state, stop,
                          isatty(STDOUT_FILENO) && !s->cfg.quiet};
    const struct wl_range whole = {0, s->target.capacity};
    struct workload wl;
    wl_init(&wl);
    wl.compress_pct = s->cfg.compress_pct;
    int ret = step_layout(&ctx, &whole, s->layout, &wl, s->cfg.quiet, &s->layout_json, err,
                          errlen);
    if (ret > 0)
        return errf(err, errlen, "interrupted during the layout");
    if (ret == 0 && !s->cfg.quiet && s->trace_stats.ios[TRACE_READ] &&
        ds_unwritten_share(&s->state) >= DS_UNWRITTEN_LABEL_SHARE) {
        char label[160];
        ds_unwritten_label(ds_unwritten_share(&s->state), label, sizeof(label));
        printf("note: %.0f%% of %s was never written: %s\n",
               100 * ds_unwritten_share(&s->state), s->target.path, label);
    }
    return ret;
}

/* replay_execute's state: the target's descriptor, the I/O loop (its engine and units), and
 * the CPUs the replaying thread (worker 0) may run on and ran on. */
struct replay_run {
    int fd;
    struct loop L;
    cpu_set_t affinity, ran_on;
};

/* The target made and opened, the results folder made, the layout, the first results written
 * ("running") and the plan printed. 0, or -1 with err (R->fd set when opened). */
static int replay_start(struct replay_session *s, struct replay_run *R,
                        volatile sig_atomic_t *stop, char *err, size_t errlen)
{
    const bool writes = s->trace_stats.ios[TRACE_WRITE] > 0;
    if (s->target.kind == TARGET_FILE &&
        (!s->target.exists || s->target.current_size < s->target.capacity) &&
        target_create_file(&s->target, err, errlen) != 0)
        return -1;
    if (s->target.kind != TARGET_SIM) {
        R->fd = target_open(&s->target, writes || s->layout, err, errlen);
        if (R->fd < 0)
            return -1;
    }
    if (file_mkdir_p(s->out_dir, err, errlen) != 0)
        return -1;
    if (replay_layout(s, R->fd, stop, err, errlen) != 0)
        return -1;
    iso8601_now(s->started, sizeof(s->started));
    hostinfo_collect(&s->host, s->engine->flags & ENGINE_F_WHOLE_ROUND);
    s->status = "running";
    if (write_doc(s, err, errlen) != 0)
        return -1;
    if (!s->cfg.quiet)
        replay_print_plan(s);
    return 0;
}

/* Where the replaying thread ran, noted again (worker 0). */
static void replay_note_cpu(struct replay_session *s, struct replay_run *R)
{
    placement_note_cpu(&R->ran_on);
    placement_worker_add(&s->place, 0, &R->affinity, &R->ran_on);
}

/* The thread pinned, before the engine allocates its buffers (numa.h: first touch); fio's
 * processes inherit this thread's mask. 0, or -1 with err. */
static int replay_pin(struct replay_session *s, struct replay_run *R, char *err, size_t errlen)
{
    if (placement_pin_self(&s->place, &R->affinity, err, errlen) != 0)
        return -1;
    s->place.threads = s->engine->flags & ENGINE_F_WHOLE_ROUND ? PLACE_THREADS_CHILD
                                                                : PLACE_THREADS_CALLING;
    replay_note_cpu(s, R);
    return 0;
}

/* The engine started for the trace (its depth, its longest I/O) and the loop's units, queues
 * and per-record depths allocated. 0, or -1 with err (L->e set when the engine started). */
static int loop_start(struct replay_session *s, struct loop *L, int fd, char *err,
                      size_t errlen)
{
    const struct replay_config *c = &s->cfg;
    struct engine_config base;
    char artifacts[4200];
    run_engine_base(&s->target, fd, s->out_dir, artifacts, sizeof(artifacts), &base);
    base.depth = s->depth;
    uint32_t max_len = 512;
    for (size_t i = 0; i < s->trace.n; i++)
        if (s->trace.r[i].len > max_len)
            max_len = s->trace.r[i].len;
    base.max_len = max_len;
    base.compress_pct = c->compress_pct;
    base.lat_scale = 1;   /* replay divides its times by k itself */
    int rc = s->engine->init(&L->e, &base, err, errlen);
    if (rc != 0)
        return -1;
    L->virt = s->engine->flags & ENGINE_F_VIRTUAL_CLOCK;
    struct io_unit *units = s->engine->units(L->e);
    L->free_units = xcalloc(s->depth, sizeof(*L->free_units));
    L->staged = xcalloc(s->depth, sizeof(*L->staged));
    L->done = xcalloc(s->depth, sizeof(*L->done));
    L->sched = xcalloc(s->depth, sizeof(*L->sched));
    for (unsigned i = 0; i < s->depth; i++)
        L->free_units[i] = &units[i];
    L->n_free = s->depth;
    L->fill = units[0].buf != NULL;
    pattern_init(&L->pat, c->compress_pct, 0x5245504c4159ull);   /* "REPLAY" */
    if (s->trace_qd) {   /* the depth each I/O was issued at in the trace */
        L->qd_limit = xcalloc(s->trace.n, 1);
        trace_qd_at_issue(&s->trace, L->qd_limit);
    }
    return 0;
}

static void loop_free(struct replay_session *s, struct loop *L)
{
    if (L->e)
        s->engine->cleanup(L->e);
    free(L->free_units);
    free(L->staged);
    free(L->done);
    free(L->sched);
    free(L->qd_limit);
}

/* The passes: each measured, printed and written; a pass starts where the previous one's
 * schedule ended, plus the trace's mean gap. The exit code. */
static int replay_passes(struct replay_session *s, struct replay_run *R,
                         volatile sig_atomic_t *stop)
{
    const struct replay_config *c = &s->cfg;
    struct loop *L = &R->L;
    char err[ERR_LEN];
    prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);   /* nanosleep to the microsecond */
    measure_init(&s->all);
    const uint64_t span = s->trace.n ? s->trace.r[s->trace.n - 1].t_ns : 0;
    const uint64_t gap = s->trace.n > 1 ? span / (s->trace.n - 1) : 0;
    uint64_t base_t = s->engine->clock(L->e);
    for (unsigned p = 0; p < c->loops; p++) {
        /* several targets at once: the passes start together (timed: the first only, the
         * later ones keep the trace's schedule) */
        if (p == 0 || s->mode != REPLAY_TIMED) {
            fleet_barrier(stop);
            if (p == 0)
                base_t = s->engine->clock(L->e);
        }
        measure_init(&s->pass[p]);
        L->m = &s->pass[p];
        if (run_pass(L, base_t, stop, s->error, sizeof(s->error)) != 0)
            return EXIT_FAILURE_RUN;
        if (*stop)
            return EXIT_INTERRUPTED;
        s->pass[p].elapsed_ns = s->pass[p].end_ns - s->pass[p].start_ns;
        replay_note_cpu(s, R);
        measure_merge(&s->all, &s->pass[p]);
        s->passes_done++;
        if (!c->quiet) {
            char what[32];
            snprintf(what, sizeof(what), "pass %u", p + 1);
            print_measure(what, &s->pass[p], s->mode);
        }
        if (write_doc(s, err, sizeof(err)) != 0) {
            snprintf(s->error, sizeof(s->error), "%s", err);
            return EXIT_FAILURE_RUN;
        }
        const uint64_t now = s->engine->clock(L->e);
        const uint64_t next = base_t + (uint64_t)((double)(span + gap) * s->k / c->speed);
        base_t = s->mode == REPLAY_TIMED && next > now ? next : now;
    }
    return EXIT_OK;
}

/* The end of a replay that started: the status written, the error, the passes' sum, the note
 * and the results' path printed. The exit code. */
static int replay_finish(struct replay_session *s, int code)
{
    const struct replay_config *c = &s->cfg;
    char err[ERR_LEN];
    s->status = code == EXIT_OK ? "complete" : code == EXIT_INTERRUPTED ? "interrupted"
                                                                         : "failed";
    if (write_doc(s, err, sizeof(err)) != 0) {
        fprintf(stderr, "ptsbench: %s\n", err);
        code = EXIT_FAILURE_RUN;
    }
    if (s->error[0])
        fprintf(stderr, "ptsbench: %s\n", s->error);
    if (!c->quiet && s->passes_done > 1)
        print_measure("all passes", &s->all, s->mode);
    if (!c->quiet && s->note[0])
        printf("note: %s\n", s->note);
    if (!c->quiet)
        printf("results: %s\n", s->results_path);
    return code;
}

int replay_execute(struct replay_session *s, volatile sig_atomic_t *stop)
{
    char err[ERR_LEN];
    int code;
    struct replay_run R = {.fd = -1, .L = {.s = s, .ops = s->engine}};
    CPU_ZERO(&R.affinity);
    CPU_ZERO(&R.ran_on);
    if (replay_start(s, &R, stop, err, sizeof(err)) != 0 ||
        replay_pin(s, &R, err, sizeof(err)) != 0)
        goto early;
    if (s->engine->flags & ENGINE_F_WHOLE_ROUND) {
        if (R.fd >= 0)
            close(R.fd);
        R.fd = -1;
        code = run_fio(s, stop);
    } else {
        if (loop_start(s, &R.L, R.fd, err, sizeof(err)) != 0)
            goto early;
        code = replay_passes(s, &R, stop);
    }
    replay_note_cpu(s, &R);
    code = replay_finish(s, code);
    loop_free(s, &R.L);
    if (R.fd >= 0)
        close(R.fd);
    return code;

early:
    if (R.L.e)
        s->engine->cleanup(R.L.e);
    if (R.fd >= 0)
        close(R.fd);
    fprintf(stderr, "ptsbench: %s\n", err);
    return EXIT_FAILURE_RUN;
}
