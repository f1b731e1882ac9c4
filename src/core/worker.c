/* worker.c — worker threads and the I/O loop. */
#include "core/worker.h"

#include "core/fleet.h"
#include "core/flow.h"
#include "core/lat_target.h"
#include "device/numa.h"
#include "io/iogen.h"

#include <errno.h>
#include <sched.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <time.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

/* Loop state of the current round. */
struct round_state {
    uint64_t start, end, now;
    uint64_t next_sample, sample_ns;
    uint64_t last_counted;
    uint64_t quota, issued;        /* byte-based rounds */
    uint64_t last_ios[IO_NDIR], last_bytes[IO_NDIR];
    uint64_t last_lat_ns[IO_NDIR], last_lat_n[IO_NDIR];   /* the histograms' sum and count */
    unsigned inflight;
    /* queue depth (worker.h): the integral of in-flight I/Os up to depth_t, clipped to the
     * counted time, and the level since depth_t */
    double depth_area;
    uint64_t depth_t;
    unsigned depth_level;
    unsigned depth_at_end;         /* the level when the clock first reached end */
    bool depth_ended;
    uint64_t done_at_submit0;      /* the engine's done_at_submit at the round's start */
    uint64_t done_at_submit_seen;  /* ... after the last submission */
    unsigned done_pending;         /* complete at submission, not yet reaped */
    struct engine_choices choices0;   /* the engine's choices at the round's start */
    uint64_t prio_drawn0, prio_raised0;   /* the generator's priority counts at its start */
    bool issuing;
    bool time_based;
    /* pacing (fio's rate, rate_iops, rate_process, thinktime*, startdelay; worker.c's
     * pace_*): no issue before next_issue (the think, the start delay); an I/O of direction d
     * not before due[d] (fio's per-direction schedules, a gap added per issue); an I/O drawn
     * while its direction is ahead is held until due */
    bool paced, rated, thinking;
    bool draining;                 /* io_submit_mode=inline, ahead of the rate: fio's quiesce */
    uint64_t next_issue, think_ns, spin_until;
    double due[IO_NDIR];
    struct io_unit *held;
    unsigned think_count;          /* issues since the last think */
    uint64_t last_think;           /* thinktime_iotime: when the last think ended */
    uint64_t n_issued, ios_quota;  /* number_ios */
    uint64_t fill_quota;           /* fill_device: bytes written (issued counts them) */
    bool cut;                      /* a quota stopped the issues before a timed round's end */
    /* flow (core/flow.h): held back with flow_sleep: every I/O in flight completes, then
     * flow_nap; without: flow_spin, it retries (threaded: polling; virtual time: at every event) */
    uint64_t flow_nap;
    bool flow_spin;
};

struct worker {
    unsigned id;
    pthread_t thread;
    bool started;
    struct worker_pool *pool;
    const struct workload *wl;             /* its job's workload (io/jobset.h) */
    unsigned job;                          /* its job's index in the pool's jobs */
    struct engine *eng;
    struct io_unit **free_units, **staged, **done;
    unsigned n_free;
    struct pattern pat;
    struct iogen gen;                      /* what to issue next */
    bool fill_data;                        /* the engine has buffers: write real data */
    struct worker_stats stats;
    unsigned char *data_sample;            /* write-data sample (worker.h), data_sample_cap bytes */
    uint32_t data_sample_cap;
    uint32_t data_writes_seen;             /* writes this round while the sample had room */
    struct round_state r;
    struct rng pace_rng;                   /* rate_process=poisson's gaps, on from round to round */
    bool pace_seeded;
    cpu_set_t affinity;                    /* the thread's mask as read back after pinning */
    cpu_set_t ran_on;                      /* CPUs it was seen on (note_cpu), since the start */
    _Atomic uint64_t pub_ios[IO_NDIR], pub_bytes[IO_NDIR];   /* for the progress hook */
    struct flow_member flow;               /* flow, flow_id (core/flow.h) */
    struct lat_search lt;                  /* latency_target: the depth search (lat_target.h) */
    bool lt_on;                            /* ... running since the first round */
    int init_ret;
    char err[ERR_LEN];
};

struct worker_pool {
    const struct engine_ops *ops;
    struct engine_config base; /* the target's side of every worker's engine configuration */
    /* the jobs run at once (io/jobset.h), each with its own range (ranges[j], which
     * jobs[j].range points to) and workers first[j] .. first[j] + count[j] - 1 */
    struct engine_job *jobs;
    struct wl_range *ranges;
    unsigned *first, *count;
    unsigned n_jobs;
    struct worker_stats *whole;   /* whole-round engines: one record per job (round()'s out) */
    bool virtual_time;         /* one thread, completion-time order (ENGINE_F_VIRTUAL_CLOCK) */
    bool whole_round;          /* one worker whose engine runs whole rounds (ENGINE_F_WHOLE_ROUND) */
    unsigned lat_scale;        /* base.lat_scale: latency samples per completion (lat_add) */
    FILE *latlog;              /* tests only: every latency sample ($PTSBENCH_TEST_LATLOG,
                                  worker.h); NULL otherwise, one branch per completion */
    volatile sig_atomic_t *stop;
    unsigned n;
    struct worker *w;
    struct flow_set flows;     /* the workers' flow groups (core/flow.h) */

    pthread_mutex_t lock;
    pthread_cond_t cond_start, cond_done;
    unsigned generation;       /* bumped for every round */
    unsigned pending;          /* workers still running the current round / initialising */
    bool quit;
    struct round_limits lim;
    pool_progress_fn progress;
    void *progress_arg;
    /* placement (device/numa.h): where the threads are pinned, and the record of where they
     * ran, merged into it after every round; NULL: not pinned, nothing recorded */
    struct placement *place;
    bool restore;              /* the calling thread was pinned (virtual time, whole rounds) */
    cpu_set_t saved;           /* ... and its mask before, put back by worker_pool_stop */
};

/* Progress ticks: at least once a second of wall-clock time (and of virtual time). */
#define PROGRESS_NS 1000000000ull
/* Virtual-time pools read the wall clock once per this many completions batches. */
#define PROGRESS_CHECK_EVERY 1024u

static void worker_fail(struct worker *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void worker_fail(struct worker *w, const char *fmt, ...)
{
    if (w->err[0])
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(w->err, sizeof(w->err), fmt, ap);
    va_end(ap);
}

/* The interval since the last sample: its I/Os, bytes and latencies (the histograms' exact
 * sum and count, so that the samples' mean latencies weigh up to the round's). */
static void add_sample(struct worker *w)
{
    struct worker_stats *s = &w->stats;
    struct round_state *r = &w->r;
    if (s->n_samples == s->cap_samples) {
        s->cap_samples = s->cap_samples ? s->cap_samples * 2 : 64;
        s->samples = xrealloc(s->samples, s->cap_samples * sizeof(*s->samples));
    }
    struct worker_sample *smp = &s->samples[s->n_samples++];
    for (int d = 0; d < IO_NDIR; d++) {
        smp->ios[d] = s->ios[d] - r->last_ios[d];
        smp->bytes[d] = s->bytes[d] - r->last_bytes[d];
        smp->lat_ns[d] = s->lat[d].sum - r->last_lat_ns[d];
        smp->lat_n[d] = s->lat[d].count - r->last_lat_n[d];
        r->last_ios[d] = s->ios[d];
        r->last_bytes[d] = s->bytes[d];
        r->last_lat_ns[d] = s->lat[d].sum;
        r->last_lat_n[d] = s->lat[d].count;
    }
}

/* ---- placement: pinning and where the threads ran ---- */

/* Where this worker's thread is now (numa.h: at a round's start and end and once per sample
 * interval, never per I/O). */
static inline void note_cpu(struct worker *w) { placement_note_cpu(&w->ran_on); }

/* After a round, with every worker idle: each worker's mask and CPUs into the placement. */
static void pool_record_placement(struct worker_pool *p)
{
    if (!p->place)
        return;
    p->place->threads = p->whole_round    ? PLACE_THREADS_CHILD
                        : p->virtual_time ? PLACE_THREADS_CALLING
                                          : PLACE_THREADS_WORKER;
    for (unsigned i = 0; i < p->n; i++)
        placement_worker_add(p->place, i, &p->w[i].affinity, &p->w[i].ran_on);
}

/* ---- the I/O loop, in three steps shared by the threaded and the virtual-time pools ---- */

/* The depth the loop keeps: the workload's, or the latency_target search's (lat_target.h). */
static inline unsigned worker_qd(const struct worker *w)
{
    return w->lt_on ? lat_search_depth(&w->lt) : w->wl->qd;
}

/* latency_target: the search starts with the first round and goes on across rounds. */
static void lat_round_begin(struct worker *w)
{
    if (!w->lt_on)
        lat_search_init(&w->lt, &w->wl->lat, w->wl->qd, w->pool->lat_scale, w->r.start);
    w->lt_on = true;
    lat_search_round_begin(&w->lt);
}

/* ---- pacing: fio's rate, rate_iops, rate_process, thinktime*, startdelay, and the round's
 * quotas of number_ios and fill_device (fio 3.33: backend.c usec_for_io, handle_thinktime,
 * exceeds_number_ios; io_u.c rate_ddir) ---- */

/* engine time is dilated k times on a scaled simulated drive: the pacing too (a worker's I/Os
 * each stand for k there) */
static inline uint64_t pace_k(const struct worker *w)
{
    return w->pool->lat_scale > 1 ? w->pool->lat_scale : 1;
}

/* The round's pacing state: a start delay shifts the worker's whole round (its counted time
 * is its own, as fio's job's figures are); the schedules start at the worker's start. */
static void pace_begin(struct worker *w, const struct round_limits *lim)
{
    const struct workload *wl = w->wl;
    struct round_state *r = &w->r;
    const uint64_t k = pace_k(w);
    if (wl->startdelay_ns) {
        r->start += wl->startdelay_ns * k;
        r->end = lim->time_ns ? r->start + lim->time_ns : UINT64_MAX;
        r->next_sample = lim->sample_ns ? r->start + lim->sample_ns : UINT64_MAX;
        r->last_counted = r->start;
    }
    r->think_ns = wl->thinktime_ns * k;
    r->rated = false;
    for (int d = 0; d < IO_NDIR; d++)
        r->rated |= wl->rate_bps[d] || wl->rate_iops_dir[d];
    flow_member_round(&w->flow);
    r->paced = r->rated || r->think_ns || wl->startdelay_ns || w->flow.g;
    r->next_issue = r->last_think = r->start;
    for (int d = 0; d < IO_NDIR; d++)
        r->due[d] = (double)r->start;
    if (!w->pace_seeded) {   /* once: fio seeds its poisson state once per job */
        rng_seed(&w->pace_rng, wl->seed ^ (0x9e3779b97f4a7c15ull * (w->id + 1)));
        w->pace_seeded = true;
    }
    r->ios_quota = wl->number_ios;
    if (wl->fill_device) {   /* each worker its share of its job's active range, once */
        const uint64_t len = w->gen.region_end - w->gen.region_start;
        r->fill_quota = wl->region == WL_REGION_SPLIT ? len : len / wl->workers;
        if (!r->fill_quota)
            r->fill_quota = 1;
    }
}

/* The gap an issue of len bytes in direction d adds to d's schedule (ns of engine time):
 * rate= as bytes over the rate, rate_iops= one I/O over the rate; poisson: an exponential
 * draw of fio's mean (the smallest block over the rate, for rate=). */
static double pace_gap(struct worker *w, int d, uint32_t len)
{
    const struct workload *wl = w->wl;
    const double k = (double)pace_k(w);
    double mean;
    if (wl->rate_bps[d])
        mean = 1e9 * (wl->rate_poisson ? wl_min_bs(wl) : len) / (double)wl->rate_bps[d];
    else if (wl->rate_iops_dir[d])
        mean = 1e9 / wl->rate_iops_dir[d];
    else
        return 0;
    if (wl->rate_poisson) {
        const double u = ((double)(rng_next(&w->pace_rng) >> 11) + 0.5) * 0x1p-53;
        mean *= -log(u);
    }
    return mean * k;
}

/* When the held I/O may go: its direction's schedule, or the other's when the workload mixes
 * and that one is due first (fio's rate_ddir switches to the direction behind its rate). */
static uint64_t pace_held_due(const struct worker *w, int *dir)
{
    const struct round_state *r = &w->r;
    const int d = r->held->dir, od = d ^ 1;
    const bool mixed = w->wl->read_pct > 0 && w->wl->read_pct < 100;
    *dir = mixed && r->due[od] < r->due[d] ? od : d;
    return (uint64_t)r->due[*dir];
}

/* The earliest engine time this worker may issue again (next_issue, and a held I/O's due). */
static uint64_t pace_at(const struct worker *w)
{
    const struct round_state *r = &w->r;
    uint64_t t = r->next_issue;
    if (r->held) {
        int d;
        const uint64_t h = pace_held_due(w, &d);
        if (h > t)
            t = h;
    }
    return t < r->end ? t : r->end;
}

/* A paced worker that could issue (not thinking, a slot free) is waiting for pace_at. */
static inline bool pace_waiting(const struct worker *w)
{
    const struct round_state *r = &w->r;
    return r->paced && r->issuing && !r->thinking && !r->draining && r->inflight < worker_qd(w);
}

/* The drawn I/O u at time now, on a rated worker: true when it may go (its direction, maybe
 * switched, is due; that schedule advanced), false when it is held until due. Behind schedule
 * (a stall, every slot busy) it goes at once until back on it, as fio: the I/Os a stall held
 * back are still offered (an open loop: dropping them would hide the stall). */
static bool pace_rate(struct worker *w, struct io_unit *u, uint64_t now)
{
    struct round_state *r = &w->r;
    r->held = u;
    int d;
    if (pace_held_due(w, &d) > now && (uint64_t)r->due[u->dir] > now)
        return false;
    if ((uint64_t)r->due[u->dir] > now)
        u->dir = (uint8_t)d;   /* fio's rate_ddir: the other direction is behind its rate */
    r->held = NULL;
    r->due[u->dir] += pace_gap(w, u->dir, u->len);
    return true;
}

/* After an issue at time now: thinktime after thinktime_blocks issues (or thinktime_iotime of
 * issuing): no more issues until every I/O in flight completes (fio's io_u_quiesce). */
static inline void pace_issued(struct worker *w, uint64_t now)
{
    struct round_state *r = &w->r;
    r->n_issued++;
    if (!r->think_ns)
        return;
    const struct workload *wl = w->wl;
    r->think_count++;
    const bool by_time = wl->thinktime_iotime_ns &&
                         now >= r->last_think + wl->thinktime_iotime_ns * pace_k(w);
    const bool by_blocks = !(wl->thinktime_iotime_ns && !wl->thinktime_blocks_set) &&
                           r->think_count >= (wl->thinktime_blocks ? wl->thinktime_blocks : 1);
    if (by_time || by_blocks)
        r->thinking = true;
}

/* Completions reaped at t: the think starts once nothing is in flight (spin, then sleep). */
static inline void pace_reaped(struct worker *w, uint64_t t)
{
    struct round_state *r = &w->r;
    if (r->inflight)
        return;
    r->draining = false;
    if (r->flow_nap && t + r->flow_nap > r->next_issue)
        r->next_issue = t + r->flow_nap;   /* flow_sleep, after fio's quiesce */
    r->flow_nap = 0;
    if (!r->thinking)
        return;
    r->thinking = false;
    r->think_count = 0;
    r->spin_until = t + w->wl->thinktime_spin_ns * pace_k(w);
    if (t + r->think_ns > r->next_issue)
        r->next_issue = t + r->think_ns;
    r->last_think = r->next_issue;
}

static void round_begin(struct worker *w, const struct round_limits *lim)
{
    struct worker_pool *p = w->pool;
    struct worker_stats *s = &w->stats;
    struct round_state *r = &w->r;

    memset(s->ios, 0, sizeof(s->ios));
    memset(s->bytes, 0, sizeof(s->bytes));
    for (int d = 0; d < IO_NDIR; d++)
        hist_init(&s->lat[d]);
    s->n_samples = 0;
    s->data_sample_len = 0;
    s->data_generated = !w->fill_data;
    w->data_writes_seen = 0;
    w->err[0] = '\0';

    for (int d = 0; d < IO_NDIR; d++) {
        atomic_store_explicit(&w->pub_ios[d], 0, memory_order_relaxed);
        atomic_store_explicit(&w->pub_bytes[d], 0, memory_order_relaxed);
    }
    memset(r, 0, sizeof(*r));
    r->sample_ns = lim->sample_ns;
    r->quota = lim->bytes ? lim->bytes / p->n : 0;
    if (lim->bytes && r->quota == 0)
        r->quota = 1;
    r->start = p->ops->clock(w->eng);
    r->end = lim->time_ns ? r->start + lim->time_ns : UINT64_MAX;
    r->time_based = lim->time_ns != 0;
    r->next_sample = lim->sample_ns ? r->start + lim->sample_ns : UINT64_MAX;
    r->last_counted = r->start;
    r->issuing = !*p->stop && w->init_ret == 0;
    pace_begin(w, lim);
    r->depth_t = r->start;
    r->done_at_submit0 = p->ops->done_at_submit ? p->ops->done_at_submit(w->eng) : 0;
    r->done_at_submit_seen = r->done_at_submit0;
    r->prio_drawn0 = w->gen.prio_drawn;
    r->prio_raised0 = w->gen.prio_raised;
    if (p->ops->choices)
        p->ops->choices(w->eng, &r->choices0);
    if (w->wl->lat.target_ns)
        lat_round_begin(w);
    note_cpu(w);
}

/* The in-flight count becomes `level` at engine time t (a stamp the loop has read anyway):
 * the time since the last change, clipped to the round's counted time, at the old level. */
static inline void depth_step(struct round_state *r, uint64_t t, unsigned level)
{
    const uint64_t tt = t < r->end ? t : r->end;
    if (tt > r->depth_t) {
        r->depth_area += (double)r->depth_level * (double)(tt - r->depth_t);
        r->depth_t = tt;
    }
    if (t >= r->end && !r->depth_ended) {
        r->depth_at_end = r->depth_level;
        r->depth_ended = true;
    }
    r->depth_level = level;
}

/* Add (the head of) one write to the round's data sample: a copy of the bytes just written or,
 * when the engine carries no data, the same pattern generated straight into the sample. */
static void sample_write(struct worker *w, const struct io_unit *u, bool filled)
{
    struct worker_stats *s = &w->stats;
    uint32_t room = w->data_sample_cap - s->data_sample_len;
    uint32_t n = u->len < room ? u->len : room;
    unsigned char *dst = w->data_sample + s->data_sample_len;
    if (filled)
        memcpy(dst, u->buf, n);
    else
        pattern_fill(&w->pat, dst, n);
    s->data_sample_len += n;
}

/* Writes whose data costs more than this to generate are submitted in smaller batches: a
 * batch is only submitted once every I/O in it is staged, so filling a whole queue of large
 * buffers first would leave the device idle for that long (at QD 8 x 128 KiB of fresh random
 * data, about 0.2 ms per batch). Engines without a flush op batch as before. */
#define WORKER_FLUSH_BYTES (64u << 10)

/* Stamp staged[from..to) with the engine's clock, just before they are submitted: from then
 * on staged[0..to) are in flight besides those already there. */
static void stamp(struct worker *w, unsigned from, unsigned to)
{
    uint64_t t = w->pool->ops->clock(w->eng);
    for (unsigned i = from; i < to; i++)
        w->staged[i]->issue_ns = t;
    depth_step(&w->r, t, w->r.inflight + to - w->r.done_pending);
}

/* After a submission of staged[..to): the I/Os the engine found complete when the call
 * returned (done_at_submit: a device that runs them inside the call, one after another) were in
 * flight for the call as one, not all at once: the level since the stamp is set so (no time
 * has been counted at it yet), and they stay out of it until reaped. No clock is read. */
static void after_submit(struct worker *w, unsigned to)
{
    const struct engine_ops *ops = w->pool->ops;
    if (!ops->done_at_submit)
        return;
    struct round_state *r = &w->r;
    const uint64_t now = ops->done_at_submit(w->eng);
    const unsigned k = (unsigned)(now - r->done_at_submit_seen);
    r->done_at_submit_seen = now;
    if (!k)
        return;
    r->done_pending += k;
    r->depth_level = r->inflight + to - r->done_pending + 1;
}

/* Before drawing an I/O (fio's flow_threshold_exceeded): true when its flow holds the worker
 * back; with flow_sleep, fio's quiesce first (the nap starts once nothing is in flight). */
static bool flow_wait(struct worker *w, uint64_t now, unsigned staged)
{
    struct round_state *r = &w->r;
    r->flow_spin = false;
    if (flow_take(&w->flow))
        return false;
    const uint64_t nap = w->wl->flow_sleep_ns * pace_k(w);
    if (!nap)
        r->flow_spin = true;
    else if (r->inflight + staged > 0) {
        r->draining = true;
        r->flow_nap = nap;
    } else {
        r->next_issue = now + nap;
    }
    return true;
}

/* Stage and submit as many I/Os as the queue depth allows. */
static void round_fill(struct worker *w)
{
    struct worker_pool *p = w->pool;
    const struct workload *wl = w->wl;
    const struct engine_ops *ops = p->ops;
    struct round_state *r = &w->r;
    const bool fill_data = w->fill_data;
    const bool count_writes = wl_writes(wl);
    unsigned ns = 0, flushed = 0;
    uint32_t filled = 0;   /* bytes of data generated since the last submission */

    const uint64_t now = r->paced ? ops->clock(w->eng) : 0;
    while (r->issuing && r->inflight + ns < worker_qd(w)) {
        if (r->quota && r->issued >= r->quota) {
            r->issuing = false;
            break;
        }
        if ((r->ios_quota && r->n_issued >= r->ios_quota) ||
            (r->fill_quota && r->issued >= r->fill_quota)) {
            r->issuing = false;   /* number_ios, fill_device: the round ends here */
            r->cut = true;
            break;
        }
        if (r->paced) {
            if (now >= r->end) {
                r->issuing = false;
                break;
            }
            if (now < r->next_issue || r->thinking || r->draining)
                break;   /* not yet: the loop waits for next_issue or a completion */
        }
        if (wl->batch_submit && ns - flushed >= wl->batch_submit) {
            stamp(w, flushed, ns);   /* iodepth_batch_submit: at most this many per call */
            int fr = ops->flush ? ops->flush(w->eng) : ops->commit(w->eng);
            after_submit(w, ns);
            if (fr < 0) {
                worker_fail(w, "%s: submit failed: %s", ops->name, strerror(-fr));
                r->issuing = false;
                r->inflight += ns;
                return;
            }
            flushed = ns;
        }
        if (w->flow.g && !r->held && flow_wait(w, now, ns))
            break;   /* held back by its flow: flow_sleep, or a retry */
        struct io_unit *u = r->held;
        if (!u) {
            u = w->free_units[--w->n_free];
            iogen_next(&w->gen, &u->dir, &u->len, &u->offset);
            u->ioprio = iogen_prio(&w->gen, u->dir, u->len);
        }
        if (r->rated && !pace_rate(w, u, now)) {
            /* held until its direction is due; fio's inline submission first waits for every
             * I/O in flight (io_u.c rate_ddir: io_u_quiesce), its offload mode does not */
            r->draining = !wl->rate_offload && r->inflight + ns > 0;
            break;
        }
        if (r->paced)
            pace_issued(w, now);
        else
            r->n_issued++;
        if (u->dir == IO_WRITE) {
            if (fill_data) {
                pattern_fill(&w->pat, u->buf, u->len);
                filled += u->len;
            }
            if (w->stats.data_sample_len < w->data_sample_cap &&
                w->data_writes_seen++ % WORKER_DATA_EVERY == 0)
                sample_write(w, u, fill_data);
        }
        if (count_writes == (u->dir != IO_READ))   /* trims count as writes do */
            r->issued += u->len;
        int ret = ops->queue(w->eng, u);
        if (ret < 0) {
            w->free_units[w->n_free++] = u;
            worker_fail(w, "%s: cannot queue an I/O: %s", ops->name, strerror(-ret));
            r->issuing = false;
            break;
        }
        w->staged[ns++] = u;
        if (filled >= WORKER_FLUSH_BYTES && ops->flush) {
            stamp(w, flushed, ns);
            ret = ops->flush(w->eng);
            after_submit(w, ns);
            if (ret < 0) {
                worker_fail(w, "%s: submit failed: %s", ops->name, strerror(-ret));
                r->issuing = false;
                r->inflight += ns;
                return;
            }
            flushed = ns;
            filled = 0;
        }
    }
    if (!ns)
        return;
    stamp(w, flushed, ns);
    int ret = ops->commit(w->eng);
    after_submit(w, ns);
    if (ret < 0) {
        worker_fail(w, "%s: submit failed: %s", ops->name, strerror(-ret));
        r->issuing = false;
    }
    r->inflight += ns;
}

/* n samples of latency v into the histogram, and into the test hook's log when it is open
 * (worker.h, WORKER_LATLOG_ENV: "DIR NS COUNT"; NULL always outside tests). */
static inline void lat_put(struct hist *h, FILE *log, int dir, uint64_t v, uint64_t n)
{
    hist_add_n(h, v, n);
    if (log)
        fprintf(log, "%d %llu %llu\n", dir, (unsigned long long)v, (unsigned long long)n);
}

/* One completion's latency v in the histogram. A completion that stands for k I/Os (the
 * simulated drive's dilation) counts k times: k - 1 at v - stall and one at v - stall plus
 * k x stall, the one that waited the drive's undilated pause (sim_last_stall; the histogram
 * holds dilated ns, divided by k when read). */
static inline void lat_add(struct hist *h, FILE *log, int dir, uint64_t v, uint64_t stall,
                           unsigned k)
{
    if (k <= 1) {
        lat_put(h, log, dir, v, 1);
        return;
    }
    if (!stall || stall > v) {
        lat_put(h, log, dir, v, k);
        return;
    }
    lat_put(h, log, dir, v - stall, k - 1);
    lat_put(h, log, dir, v - stall + stall * k, 1);
}

/* Count n completions observed at time t. */
static void round_account(struct worker *w, int n, uint64_t t)
{
    struct worker_pool *p = w->pool;
    struct worker_stats *s = &w->stats;
    struct round_state *r = &w->r;
    const bool counted = t <= r->end;

    for (int i = 0; i < n; i++) {
        struct io_unit *u = w->done[i];
        if (u->result != (int64_t)u->len) {
            /* the target first: the line names the device, the operation and the error */
            const char *tp = p->base.path ? p->base.path : "the target";
            if (u->result < 0)
                worker_fail(w, "%s: %s of %u bytes at offset %llu failed: %s", tp,
                            io_dir_name(u->dir), u->len,
                            (unsigned long long)u->offset, strerror((int)-u->result));
            else
                worker_fail(w, "%s: short %s at offset %llu: %lld of %u bytes", tp,
                            io_dir_name(u->dir),
                            (unsigned long long)u->offset, (long long)u->result, u->len);
            r->issuing = false;
        } else if (counted) {
            s->ios[u->dir]++;
            s->bytes[u->dir] += u->len;
            lat_add(&s->lat[u->dir], p->latlog, (int)u->dir, t - u->issue_ns, u->stall_ns,
                    p->lat_scale);
            if (w->lt_on)
                lat_search_complete(&w->lt, u->issue_ns, t);
        }
        w->free_units[w->n_free++] = u;
    }
    r->inflight -= (unsigned)n;
    if (w->lt_on)
        lat_search_check(&w->lt, t);
    /* a reap takes every completion there (max: all in flight), those done at submission too */
    r->done_pending = 0;
    depth_step(r, t, r->inflight);
    r->now = t;
    if ((r->thinking || r->draining) && n > 0)
        pace_reaped(w, t);   /* thinktime, fio's quiesce: once every I/O in flight completed */
    if (counted) {
        r->last_counted = t;
        if (p->progress && !p->virtual_time)
            for (int d = 0; d < IO_NDIR; d++) {
                atomic_store_explicit(&w->pub_ios[d], s->ios[d], memory_order_relaxed);
                atomic_store_explicit(&w->pub_bytes[d], s->bytes[d], memory_order_relaxed);
            }
    }
    while (t >= r->next_sample && r->next_sample <= r->end) {
        note_cpu(w);
        add_sample(w);
        r->next_sample += r->sample_ns;
    }
    if (r->issuing && (t >= r->end || *p->stop))
        r->issuing = false;
}

static void round_finish(struct worker *w)
{
    struct worker_stats *s = &w->stats;
    if (w->r.held) {   /* drawn, held by its rate, never issued */
        w->free_units[w->n_free++] = w->r.held;
        w->r.held = NULL;
    }
    const bool timed = w->r.time_based && !w->r.cut;   /* cut: number_ios, fill_device */
    s->start_ns = w->r.start;
    s->end_ns = timed ? w->r.end : w->r.last_counted;
    depth_step(&w->r, s->end_ns, w->r.depth_level);
    s->inflight_ns = w->r.depth_area;
    s->inflight_at_end = timed ? w->r.depth_at_end : 0;
    const struct engine_ops *ops = w->pool->ops;
    s->done_at_submit_known = ops->done_at_submit != NULL;
    s->done_at_submit = ops->done_at_submit ? ops->done_at_submit(w->eng) - w->r.done_at_submit0 : 0;
    if (ops->choices) {
        struct engine_choices now;
        ops->choices(w->eng, &now);
        engine_choices_since(&s->choices, &now, &w->r.choices0);
    }
    s->depth_declared = w->lt_on ? w->lt.round_max_qd : w->wl->qd;   /* the search's, if any */
    s->depth_how = w->pool->virtual_time ? DEPTH_VIRTUAL : DEPTH_LOOP;
    s->prio_ios = w->gen.prio_drawn - w->r.prio_drawn0;
    s->prio_raised = w->gen.prio_raised - w->r.prio_raised0;
    note_cpu(w);
}

/* A paced worker with nothing to issue yet: sleep towards next_issue (20 us at most, so a
 * completion is not left waiting long; the last 60 us polled), or stop issuing at the
 * round's end or a stop. */
static void pace_nap(struct worker *w, uint64_t now)
{
    struct round_state *r = &w->r;
    if (now >= r->end || *w->pool->stop) {
        r->issuing = false;
        return;
    }
    uint64_t until = pace_at(w);
    if (until <= now || now < r->spin_until)
        return;   /* due, or thinktime_spin: polled, as fio spins */
    uint64_t d = until - now;
    if (d <= 60000)
        return;   /* the last 60 us polled: a sleep that short oversleeps by tens of us */
    d -= 60000;
    if (d > 20000)
        d = 20000;
    struct timespec ts = {0, (long)d};
    nanosleep(&ts, NULL);
}

/* Threaded pools: each worker runs its own round, blocking in reap(). */
static void worker_round(struct worker *w, const struct round_limits *lim)
{
    const struct engine_ops *ops = w->pool->ops;
    const struct workload *wl = w->wl;
    struct round_state *r = &w->r;
    round_begin(w, lim);
    for (;;) {
        round_fill(w);
        /* paced (pace_*): an issue is due at pace_at, before the round's end */
        const bool wait_issue = pace_waiting(w);
        if (r->flow_spin)
            sched_yield();   /* held back by its flow, no flow_sleep: a retry (fio spins) */
        if (!r->inflight) {
            if (!wait_issue)
                break;
            pace_nap(w, ops->clock(w->eng));
            continue;
        }
        unsigned want = wl->batch_complete_min ? wl->batch_complete_min : 1;
        if (want > r->inflight)
            want = r->inflight;
        int n = ops->reap(w->eng, wait_issue ? 0 : want, r->inflight, w->done);
        if (n < 0) {
            worker_fail(w, "%s: waiting for completions failed: %s", ops->name, strerror(-n));
            break;  /* the engine is unusable; cleanup reclaims in-flight units */
        }
        if (n)
            round_account(w, n, ops->clock(w->eng));
        else
            pace_nap(w, ops->clock(w->eng));
    }
    if (w->flow.g)
        flow_leave(&w->flow);   /* done: the others of its flow are not held by it */
    round_finish(w);
}

/* The pool's progress so far: the published counts (threaded pools) or the workers' own
 * (virtual time, same thread). */
static void progress_report(struct worker_pool *p, uint64_t elapsed_ns)
{
    struct pool_progress pr = {.elapsed_ns = elapsed_ns};
    for (unsigned i = 0; i < p->n; i++)
        for (int d = 0; d < IO_NDIR; d++) {
            if (p->virtual_time) {
                pr.ios[d] += p->w[i].stats.ios[d];
                pr.bytes[d] += p->w[i].stats.bytes[d];
            } else {
                pr.ios[d] += atomic_load_explicit(&p->w[i].pub_ios[d], memory_order_relaxed);
                pr.bytes[d] += atomic_load_explicit(&p->w[i].pub_bytes[d], memory_order_relaxed);
            }
        }
    p->progress(p->progress_arg, &pr);
}

/* Virtual time, after an event: the workers of a flow that are done leave it, those held
 * back without flow_sleep retry (they have no time of their own to wake at). */
static void flow_retry(struct worker_pool *p)
{
    for (unsigned i = 0; i < p->n; i++) {
        struct worker *w = &p->w[i];
        if (w->flow.g && !w->r.issuing && !w->r.inflight)
            flow_leave(&w->flow);
    }
    for (unsigned i = 0; i < p->n; i++)
        if (p->w[i].r.flow_spin && p->w[i].r.issuing)
            round_fill(&p->w[i]);
}

/* Virtual-time pools: every worker in this thread; always advance the worker whose next
 * completion comes first (ties: lowest worker index), so the shared clock only moves forward. */
static void pool_round_virtual(struct worker_pool *p, const struct round_limits *lim)
{
    const struct engine_ops *ops = p->ops;
    for (unsigned i = 0; i < p->n; i++)
        round_begin(&p->w[i], lim);
    for (unsigned i = 0; i < p->n; i++)
        round_fill(&p->w[i]);
    if (p->flows.n)
        flow_retry(p);
    uint64_t v0 = p->n ? p->w[0].r.start : 0;
    for (unsigned i = 1; i < p->n; i++)   /* startdelay shifts a worker's start */
        if (p->w[i].r.start < v0)
            v0 = p->w[i].r.start;
    uint64_t next_virtual = v0 + PROGRESS_NS, next_wall = now_mono_ns() + PROGRESS_NS;
    unsigned batches = 0;
    for (;;) {
        struct worker *next = NULL;
        uint64_t best = UINT64_MAX;
        bool wake = false;   /* the earliest event is a paced worker's next issue */
        for (unsigned i = 0; i < p->n; i++) {
            uint64_t t = ops->next_completion(p->w[i].eng);
            if (t < best) {
                best = t;
                next = &p->w[i];
                wake = false;
            }
            if (pace_waiting(&p->w[i]) && !p->w[i].r.flow_spin) {
                const uint64_t at = pace_at(&p->w[i]);
                if (at < best) {
                    best = at;
                    next = &p->w[i];
                    wake = true;
                }
            }
        }
        if (!next)
            break;
        if (wake) {   /* time passes to the issue (no completion comes first), then it fills */
            const uint64_t now = ops->clock(next->eng);
            if (best > now)
                ops->idle(next->eng, best - now);
            round_fill(next);
            if (p->flows.n)
                flow_retry(p);
            continue;
        }
        int n = ops->reap(next->eng, 1, next->r.inflight, next->done);
        if (n == 0)
            continue;   /* its earliest completion moved later when settled: choose again */
        if (n < 0) {
            worker_fail(next, "%s: no completion to reap", ops->name);
            break;
        }
        const uint64_t t = ops->clock(next->eng);
        round_account(next, n, t);
        round_fill(next);
        if (p->flows.n)
            flow_retry(p);
        if (p->progress) {
            bool due = t >= next_virtual;
            if (!due && ++batches % PROGRESS_CHECK_EVERY == 0 && now_mono_ns() >= next_wall)
                due = true;
            if (due) {
                progress_report(p, t - v0);
                while (next_virtual <= t)
                    next_virtual += PROGRESS_NS;
                next_wall = now_mono_ns() + PROGRESS_NS;
            }
        }
    }
    for (unsigned i = 0; i < p->n; i++)
        round_finish(&p->w[i]);
}

/* The write-data sample buffer (worker.h), once the engine said whether it carries data: this
 * worker's share of the per-round budget, at most WORKER_DATA_SAMPLE, whole 4 KiB chunks; when
 * there are more workers than chunks in the budget, the first workers take one chunk each. */
static void worker_sample_alloc(struct worker *w)
{
    if (!w->stats.data_writes)
        return;
    uint32_t total = w->fill_data ? WORKER_DATA_TOTAL : WORKER_DATA_GEN_TOTAL;
    uint32_t cap = total / w->pool->n / PATTERN_CHUNK * PATTERN_CHUNK;
    if (cap > WORKER_DATA_SAMPLE)
        cap = WORKER_DATA_SAMPLE;
    if (cap == 0 && w->id < total / PATTERN_CHUNK)
        cap = PATTERN_CHUNK;
    if (cap == 0)
        return;
    w->data_sample_cap = cap;
    w->data_sample = xcalloc(1, cap);
    w->stats.data_sample = w->data_sample;
}

static void worker_engine_init(struct worker *w)
{
    struct worker_pool *p = w->pool;
    struct engine_config cfg = p->base;
    cfg.depth = w->wl->qd;
    cfg.max_len = wl_max_bs(w->wl);
    cfg.compress_pct = w->wl->compress_pct;
    cfg.wl = w->wl;
    cfg.range = &p->ranges[w->job];
    /* a whole-round engine runs every job of the pool; a worker runs its own */
    cfg.jobs = p->whole_round ? p->jobs : &p->jobs[w->job];
    cfg.n_jobs = p->whole_round ? p->n_jobs : 1;
    w->init_ret = p->ops->init(&w->eng, &cfg, w->err, sizeof(w->err));
    if (w->init_ret == 0 && !p->whole_round) {
        struct io_unit *u = p->ops->units(w->eng);
        for (unsigned i = 0; i < cfg.depth; i++)
            w->free_units[i] = &u[i];
        w->n_free = cfg.depth;
        w->fill_data = u[0].buf != NULL;
        worker_sample_alloc(w);
    }
}

static void *worker_main(void *arg)
{
    struct worker *w = arg;
    struct worker_pool *p = w->pool;
    if (w->wl->rate_iops || w->wl->thinktime_ns)
        prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);   /* paced: sleeps to the microsecond */
    /* pinned before the engine allocates and first touches its buffers: their pages come
     * from the pinned node's memory (the kernel's first-touch policy) */
    if (placement_pin_self(p->place, &w->affinity, w->err, sizeof(w->err)) != 0)
        w->init_ret = -1;
    else
        worker_engine_init(w);
    /* named once pinned: "ptsb-w0" in /proc/PID/task/TID/comm and top -H is always a thread
     * whose mask is the one recorded (tests/integration/test_numa.c reads it) */
    char name[16];
    snprintf(name, sizeof(name), "ptsb-w%u", w->id);
    pthread_setname_np(pthread_self(), name);

    pthread_mutex_lock(&p->lock);
    unsigned seen = p->generation;
    if (--p->pending == 0)
        pthread_cond_signal(&p->cond_done);
    for (;;) {
        while (p->generation == seen && !p->quit)
            pthread_cond_wait(&p->cond_start, &p->lock);
        if (p->quit)
            break;
        seen = p->generation;
        struct round_limits lim = p->lim;
        pthread_mutex_unlock(&p->lock);
        if (w->init_ret == 0)
            worker_round(w, &lim);
        pthread_mutex_lock(&p->lock);
        if (--p->pending == 0)
            pthread_cond_signal(&p->cond_done);
    }
    pthread_mutex_unlock(&p->lock);
    if (w->eng)
        p->ops->cleanup(w->eng);
    w->eng = NULL;
    return NULL;
}

/* Worker id of the pool, the k-th of its job's count (the job's share of its range). */
static void worker_setup(struct worker_pool *p, struct worker *w, unsigned id, unsigned job,
                         unsigned k)
{
    const struct workload *wl = p->jobs[job].wl;
    w->id = id;
    w->job = job;
    w->pool = p;
    w->wl = wl;
    w->free_units = xcalloc(wl->qd, sizeof(*w->free_units));
    w->staged = xcalloc(wl->qd, sizeof(*w->staged));
    w->done = xcalloc(wl->qd, sizeof(*w->done));
    /* seeded by the pool's worker id: two jobs of the same workload issue different I/O */
    uint64_t seed = wl->seed ^ (0x9e3779b97f4a7c15ull * (id + 1));
    iogen_init(&w->gen, wl, &p->ranges[job], k, p->count[job], seed);
    pattern_init(&w->pat, wl->compress_pct, seed ^ 0x7061747465726e00ull /* "pattern" */);
    if (wl->dedupe_pct) {   /* fio's working set: a share of the job's range, in 4 KiB */
        uint64_t ws = p->ranges[job].len / 100u * (wl->dedupe_ws_pct ? wl->dedupe_ws_pct : 5u);
        pattern_dedupe(&w->pat, wl->dedupe_pct, wl->dedupe_working_set, ws / PATTERN_CHUNK,
                       wl->dedupe_global ? 0x474c4f42414cull /* "GLOBAL" */ : 0);
    }
    w->stats.data_writes = wl_writes(wl);
    w->stats.data_declared_pct = wl->compress_pct;
    w->stats.data_declared_dedupe_pct = wl->dedupe_pct;
}

struct worker_pool *worker_pool_start(const struct workload *wl, const struct engine_ops *ops,
                                      const struct engine_config *base,
                                      const struct wl_range *range, volatile sig_atomic_t *stop,
                                      char *err, size_t errlen)
{
    const struct engine_job one = {.wl = wl, .range = range, .label = wl->name};
    return worker_pool_start_jobs(&one, 1, ops, base, stop, err, errlen);
}

/* The pool's copy of the jobs, their ranges and their workers' places. */
static void pool_jobs_setup(struct worker_pool *p, const struct engine_job *jobs, unsigned n_jobs)
{
    p->n_jobs = n_jobs;
    p->jobs = xcalloc(n_jobs, sizeof(*p->jobs));
    p->ranges = xcalloc(n_jobs, sizeof(*p->ranges));
    p->first = xcalloc(n_jobs, sizeof(*p->first));
    p->count = xcalloc(n_jobs, sizeof(*p->count));
    for (unsigned j = 0; j < n_jobs; j++) {
        p->jobs[j] = jobs[j];
        p->ranges[j] = *jobs[j].range;
        p->jobs[j].range = &p->ranges[j];
        p->first[j] = p->n;
        p->count[j] = p->whole_round ? 1 : jobs[j].wl->workers;
        p->n += p->whole_round ? 0 : p->count[j];
    }
    if (p->whole_round) {   /* the other program runs the workers: one worker, a record a job */
        p->n = 1;
        p->whole = xcalloc(n_jobs, sizeof(*p->whole));
    }
}

struct worker_pool *worker_pool_start_jobs(const struct engine_job *jobs, unsigned n_jobs,
                                           const struct engine_ops *ops,
                                           const struct engine_config *base,
                                           volatile sig_atomic_t *stop, char *err, size_t errlen)
{
    struct worker_pool *p = xcalloc(1, sizeof(*p));
    p->ops = ops;
    p->base = *base;
    p->virtual_time = (ops->flags & ENGINE_F_VIRTUAL_CLOCK) != 0;
    p->whole_round = (ops->flags & ENGINE_F_WHOLE_ROUND) != 0;
    p->lat_scale = p->virtual_time && base->lat_scale > 1 ? base->lat_scale : 1;
    const char *ll = getenv(WORKER_LATLOG_ENV);
    if (ll && *ll) {   /* tests only: one file per process (several copies run at once) */
        char path[4096];
        snprintf(path, sizeof(path), "%s.%ld", ll, (long)getpid());
        p->latlog = fopen(path, "a");   /* not there: no log, nothing else changes */
    }
    p->stop = stop;
    p->place = base->place;
    pool_jobs_setup(p, jobs, n_jobs);
    p->w = xcalloc(p->n, sizeof(*p->w));
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->cond_start, NULL);
    pthread_condattr_t ca;   /* cond_done's timed waits (the progress hook) on the monotonic clock */
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&p->cond_done, &ca);
    pthread_condattr_destroy(&ca);

    for (unsigned j = 0; j < p->n_jobs && !p->whole_round; j++)
        for (unsigned k = 0; k < p->count[j]; k++)
            worker_setup(p, &p->w[p->first[j] + k], p->first[j] + k, j, k);
    flow_set_init(&p->flows, p->whole_round ? 0 : p->n);   /* fio's own flow for fio */
    for (unsigned i = 0; i < p->n && !p->whole_round; i++)
        flow_set_join(&p->flows, &p->w[i].flow, p->w[i].wl->flow_id, p->w[i].wl->flow);
    if (p->whole_round) {
        worker_setup(p, &p->w[0], 0, 0, 0);
        p->w[0].stats.data_writes = false;   /* the data is the other program's own */
    }

    if (p->virtual_time || p->whole_round) {
        /* the workers run in this thread (or in fio's processes, which inherit its mask): it
         * is pinned for the pool's life */
        cpu_set_t aff;
        if (p->place && p->place->pinned &&
            pthread_getaffinity_np(pthread_self(), sizeof(p->saved), &p->saved) == 0)
            p->restore = true;
        if (placement_pin_self(p->place, &aff, err, errlen) != 0) {
            worker_pool_stop(p);
            return NULL;
        }
        for (unsigned i = 0; i < p->n; i++)
            p->w[i].affinity = aff;
        for (unsigned i = 0; i < p->n; i++) {
            worker_engine_init(&p->w[i]);
            if (p->w[i].init_ret != 0) {
                errf(err, errlen, "worker %u: %s", i, p->w[i].err);
                worker_pool_stop(p);
                return NULL;
            }
        }
        return p;
    }

    pthread_mutex_lock(&p->lock);
    p->pending = p->n;
    pthread_mutex_unlock(&p->lock);
    for (unsigned i = 0; i < p->n; i++) {
        int ret = pthread_create(&p->w[i].thread, NULL, worker_main, &p->w[i]);
        if (ret) {
            pthread_mutex_lock(&p->lock);
            p->pending -= p->n - i;
            pthread_mutex_unlock(&p->lock);
            errf(err, errlen, "cannot start worker thread %u: %s", i, strerror(ret));
            break;
        }
        p->w[i].started = true;
    }
    pthread_mutex_lock(&p->lock);
    while (p->pending)
        pthread_cond_wait(&p->cond_done, &p->lock);
    pthread_mutex_unlock(&p->lock);

    bool ok = true;
    for (unsigned i = 0; i < p->n; i++) {
        if (!p->w[i].started) {
            ok = false;
        } else if (p->w[i].init_ret != 0) {
            if (ok)
                errf(err, errlen, "worker %u: %s", i, p->w[i].err);
            ok = false;
        }
    }
    if (!ok) {
        worker_pool_stop(p);
        return NULL;
    }
    return p;
}

/* A whole round handed to the engine (fio): statistics from zero, then round(). */
static void pool_round_whole(struct worker_pool *p, const struct round_limits *lim)
{
    struct worker *w = &p->w[0];
    for (unsigned j = 0; j < p->n_jobs; j++) {   /* one record per job (engine.h: round) */
        struct worker_stats *s = &p->whole[j];
        memset(s->ios, 0, sizeof(s->ios));
        memset(s->bytes, 0, sizeof(s->bytes));
        for (int d = 0; d < IO_NDIR; d++)
            hist_init(&s->lat[d]);
        s->start_ns = s->end_ns = 0;
        s->n_samples = 0;
        s->inflight_ns = 0;
        s->depth_declared = 0;
        s->depth_how = DEPTH_NONE;
        memset(&s->choices, 0, sizeof(s->choices));
        host_figures_free(s->hosts, s->n_hosts);
        s->hosts = NULL;
        s->n_hosts = 0;
    }
    struct worker_stats *s = p->whole;
    w->err[0] = '\0';
    if (*p->stop)
        return;
    char msg[ERR_LEN];
    note_cpu(w);
    if (p->ops->round(w->eng, lim, lim->label, s, msg, sizeof(msg)) != 0)
        worker_fail(w, "%s", msg);
    note_cpu(w);
}

int worker_pool_round(struct worker_pool *p, const struct round_limits *lim, char *err, size_t errlen)
{
    fleet_barrier(p->stop);   /* several targets at once: every round starts together */
    if (p->latlog)
        fputs("round\n", p->latlog);   /* the workers are idle between rounds */
    if (p->whole_round) {
        pool_round_whole(p, lim);
        pool_record_placement(p);
        if (p->w[0].err[0])
            return errf(err, errlen, "%s", p->w[0].err);
        return 0;
    }
    flow_set_round(&p->flows);
    if (p->virtual_time) {
        pool_round_virtual(p, lim);
        goto check;
    }
    const uint64_t t0 = now_mono_ns();
    pthread_mutex_lock(&p->lock);
    p->lim = *lim;
    p->pending = p->n;
    p->generation++;
    pthread_cond_broadcast(&p->cond_start);
    while (p->pending) {
        if (!p->progress) {
            pthread_cond_wait(&p->cond_done, &p->lock);
            continue;
        }
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        ts.tv_sec += 1;   /* PROGRESS_NS */
        if (pthread_cond_timedwait(&p->cond_done, &p->lock, &ts) == ETIMEDOUT && p->pending) {
            pthread_mutex_unlock(&p->lock);
            progress_report(p, now_mono_ns() - t0);
            pthread_mutex_lock(&p->lock);
        }
    }
    pthread_mutex_unlock(&p->lock);
check:
    pool_record_placement(p);
    for (unsigned i = 0; i < p->n; i++)
        if (p->w[i].err[0])
            return errf(err, errlen, "worker %u: %s", i, p->w[i].err);
    return 0;
}

void worker_pool_set_progress(struct worker_pool *p, pool_progress_fn fn, void *arg)
{
    p->progress = fn;
    p->progress_arg = arg;
}

unsigned worker_pool_size(const struct worker_pool *p)
{
    return p->whole_round ? p->n_jobs : p->n;
}

void worker_pool_lat_round(const struct worker_pool *p, struct lat_round *out)
{
    memset(out, 0, sizeof(*out));
    for (unsigned i = 0, first = 1; i < p->n; i++)
        if (p->w[i].lt_on) {
            lat_round_add(out, &p->w[i].lt, first);
            first = 0;
        }
}

const struct worker_stats *worker_pool_stats(const struct worker_pool *p, unsigned i)
{
    return p->whole_round ? &p->whole[i] : &p->w[i].stats;
}

unsigned worker_pool_jobs(const struct worker_pool *p) { return p->n_jobs; }

void worker_pool_job_records(const struct worker_pool *p, unsigned job, unsigned *first,
                             unsigned *count)
{
    *first = p->whole_round ? job : p->first[job];
    *count = p->count[job];
}

struct engine *worker_pool_engine(struct worker_pool *p, unsigned i) { return p->w[i].eng; }

void worker_pool_stop(struct worker_pool *p)
{
    if (!p)
        return;
    pthread_mutex_lock(&p->lock);
    p->quit = true;
    pthread_cond_broadcast(&p->cond_start);
    pthread_mutex_unlock(&p->lock);
    for (unsigned i = 0; i < p->n; i++) {
        if (p->w[i].started)
            pthread_join(p->w[i].thread, NULL);
        else if (p->w[i].eng)
            p->ops->cleanup(p->w[i].eng);   /* virtual-time pools: engines live in this thread */
        free(p->w[i].free_units);
        free(p->w[i].staged);
        free(p->w[i].done);
        free(p->w[i].stats.samples);
        host_figures_free(p->w[i].stats.hosts, p->w[i].stats.n_hosts);
        free(p->w[i].data_sample);
        iogen_free(&p->w[i].gen);
    }
    if (p->latlog)   /* the workers have ended */
        fclose(p->latlog);
    for (unsigned j = 0; p->whole && j < p->n_jobs; j++) {
        free(p->whole[j].samples);
        host_figures_free(p->whole[j].hosts, p->whole[j].n_hosts);
    }
    free(p->whole);
    free(p->jobs);
    free(p->ranges);
    free(p->first);
    free(p->count);
    if (p->restore)
        pthread_setaffinity_np(pthread_self(), sizeof(p->saved), &p->saved);
    pthread_mutex_destroy(&p->lock);
    pthread_cond_destroy(&p->cond_start);
    pthread_cond_destroy(&p->cond_done);
    free(p->w);
    flow_set_free(&p->flows);
    free(p);
}
