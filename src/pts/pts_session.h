/* pts_session.h — inside the suite runner: the session every PTS test kind runs in, and the
 * steps the kinds share (pts_run.c). Private to src/pts/: each control-flow kind is one file
 * (kind_standard.c, kind_hir.c, kind_xsr.c, kind_dirth.c), called through the kind table in
 * pts_suite.c (above the kinds; pts_run.c is below them). */
#ifndef PTSBENCH_PTS_SESSION_H
#define PTSBENCH_PTS_SESSION_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/drive_state.h"
#include "core/live.h"
#include "core/results.h"
#include "core/steps.h"
#include "core/worker.h"
#include "device/hostinfo.h"
#include "device/purge.h"
#include "device/target.h"
#include "io/workload.h"
#include "pts/pts_def.h"
#include "pts/pts_run.h"
#include "sim/sim.h"

#define PTS_MAX_TESTS 16
#define NS_PER_S 1000000000ull

struct pts_session {
    struct pts_config cfg;
    struct pts_spec spec;
    struct pts_def defs[PTS_MAX_TESTS];
    unsigned n_defs;
    struct target_info target;
    struct placement place;        /* where the workers run and ran (target.place points here) */
    const struct engine_ops *engine;
    double weight;
    struct hostinfo host;
    struct purge_facts purge_facts;
    bool wc_before;                /* the write cache as the suite found it (restored at the end) */
    int fd;
    struct wl_range ar;            /* active range (bytes, in the target's address space) */
    unsigned threads, qd;          /* outstanding I/O in force */
    uint64_t element_ns;           /* 0: each definition's own */
    unsigned round_cap, rounds_uncut;   /* --time-limit: the rounds per test after and before
                                           the plan's cut (round_cap 0: not cut) */
    char out_dir[4096];
    char results_path[4200];
    struct json_object *doc, *tests_json, *notes;
    struct results_out out;        /* the document's writer (results.h) */
    bool tty;
    struct live_meter live;        /* the live line inside an element (core/live.h) */
    const char *live_test;         /* the test running, for that line */
    char live_eta[160];            /* the last ETA shown, repeated inside elements */
    double prep_s;                 /* purge and WIPC time so far (ps_clock_s), not measuring */
    double drain_s;                /* time so far after elements' ends, their in-flight I/O
                                      completing (ps_element_measure): not in any element */
    bool live_mb_s;                /* the test tracks MB/s: its lines show MB/s, not IOPS */
    /* A capacity-stopped test (WSAT) in progress, for its ETA: what is left to write, at the
     * rate of the last element, and the time its limit leaves. Zeroed by other tests. */
    struct pts_cap_eta {
        bool on;
        double left_bytes, rate_bps, time_left_s;
    } cap_eta;
    volatile sig_atomic_t *stop;
    struct sim_stats sim_last;
    char started[32];
    struct drive_state state;      /* the drive's state now (drive_state.h) */
    bool stimulus_is_wdpc;         /* the current stimulus preconditions the drive (after WIPC,
                                      or HIR's / DIRTH's own preconditioning) */
    struct fast_prep fast;         /* --precondition fast: the target's FTL and spare factor */
    struct steady_guard guard;     /* the fill guard after the test's preparation (the fast
                                      pass's lag, else STEADY_GUARD_DEFAULT) */
    /* --resume (pts_run.h) */
    unsigned replay_tests;         /* simulated drive: tests replayed quietly, those before it */
    bool keep_stored;              /* real target: complete tests come from the file */
    struct json_object *resume_sub;   /* the interrupted subtest to go on with (kind_standard.c) */
};

/* A stimulus kept running across several measured periods (HIR's accesses, XSR's groups):
 * the workers (and their rings) stay up, idle between periods with nothing in flight. */
struct element_pool {
    struct workload wl;        /* the pool points at it: it lives as long as the pool */
    char label[48];            /* names a whole-round engine's files: "r65-bs4k" */
    struct worker_pool *pool;
};

struct tracked {
    unsigned n_vars;
    double *v[PTS_MAX_TRACK];
    unsigned n, cap;
};

/* ---- steps the kinds share (pts_run.c) ---- */

void ps_note(struct pts_session *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
uint64_t ps_scaled(const struct pts_session *s, uint64_t ns);
const char *ps_sim_tag(const struct pts_session *s);
unsigned ps_def_qd(const struct pts_session *s, const struct pts_def *d);
unsigned ps_def_threads(const struct pts_session *s, const struct pts_def *d);
uint64_t ps_def_element_ns(const struct pts_session *s, const struct pts_def *d);
unsigned ps_def_max_rounds(const struct pts_session *s, const struct pts_def *d);
/* WSAT's stop rule: the capacity multiple to write, the time bound (ns). */
double ps_def_stop_capacity(const struct pts_session *s, const struct pts_def *d);
uint64_t ps_def_max_time(const struct pts_session *s, const struct pts_def *d);
/* bs is a multiple of the target's logical sector (0.5 KiB is not valid on 4Kn devices). */
bool ps_bs_valid(const struct pts_session *s, uint32_t bs);
/* What the plan arithmetic (pts_rules.h) needs to know of the session for test d. */
struct pts_timing;
void ps_def_timing(const struct pts_session *s, const struct pts_def *d, struct pts_timing *t);
int ps_flush_or_fail(struct pts_session *s, bool force, char *err, size_t errlen);
/* The shared steps' view of the session (core/steps.h). */
struct run_ctx ps_ctx(struct pts_session *s);
int ps_do_purge(struct pts_session *s, struct json_object *sub, char *err, size_t errlen);
/* --precondition fast: the pass (core/fastprep.h) in 4 KiB units (WSAT, HIR, DIRTH write 4 KiB at
 * random; chosen for IOPS and LAT), on fastpass_threads(threads) x QD 32, its record into
 * sub[key] ("precondition", kind "fast", where the standard kind's WIPC record would be; "fast"
 * beside HIR's and DIRTH's own preconditioning), s->guard its lag. 0, 1 interrupted, -1. */
int ps_do_fast(struct pts_session *s, const struct pts_def *d, unsigned threads,
               const char *key, struct json_object *sub, char *err, size_t errlen);
int ps_element_open(struct pts_session *s, unsigned mix, uint32_t bs, bool random,
                        unsigned threads, unsigned qd, unsigned compress, uint64_t seed,
                        const char *extra, struct element_pool *ep, char *err, size_t errlen);
void ps_element_close(struct element_pool *ep);
int ps_element_measure(struct pts_session *s, struct element_pool *ep, uint64_t time_ns,
                           uint64_t bytes, uint64_t sample_ns, struct round_metrics *m, char *err,
                           size_t errlen);
int ps_measure_or_stop(struct pts_session *s, struct element_pool *ep, uint64_t time_ns,
                           uint64_t sample_ns, struct round_metrics *m, char *err, size_t errlen);
struct json_object *ps_period_json(const struct round_metrics *m);
int ps_precondition_steady(struct pts_session *s, const struct pts_def *d,
                               struct element_pool *ep, struct json_object *sub, char *err,
                               size_t errlen);
void ps_stimulus_begins(struct pts_session *s, bool as_wdpc);
void ps_tracked_push(struct tracked *t, const double *vals);
void ps_tracked_free(struct tracked *t);
void ps_progress(struct pts_session *s, const struct pts_def *d, unsigned round,
                     unsigned max_rounds, unsigned el, unsigned n_el, unsigned mix, uint32_t bs,
                     double iops, double mb_s, const char *ss, double element_s);
/* The round at which a steady-state test likely ends (pts_rules.h PTS_LIKELY_ROUND). */
/* The session's clock in seconds: the simulated drive's virtual time, else monotonic. */
double ps_clock_s(const struct pts_session *s);
unsigned ps_likely_round(unsigned round, unsigned max_rounds);
struct json_object *ps_steady_obj(const char *const *names, const struct steady_window *w,
                                      unsigned n_vars, unsigned round, unsigned rounds_run,
                                      unsigned max_rounds);
/* ps_steady_obj for the definition's tracking variables ("element" = the subtest's size). */
struct json_object *ps_steady_json(const struct pts_def *d, uint32_t sub_bs,
                                   const struct steady_window *w, unsigned n_vars,
                                   unsigned round, unsigned rounds_run, unsigned max_rounds);
/* A tracking variable's parts for results ("track" beside its name "tracking"): metric, bs,
 * read_pct (results_track_json). */
struct json_object *ps_track_json(const struct pts_track *t);

/* ---- the kinds (one file each) ----
 * One subtest of definition d: sub_bs is its block size when the definition has one subtest
 * per block size, else 0. Returns 0, 1 interrupted, -1 with err. */
typedef int (*pts_kind_run_fn)(struct pts_session *s, const struct pts_def *d, uint32_t sub_bs,
                               struct json_object *sub, char *err, size_t errlen);
int pts_kind_standard(struct pts_session *s, const struct pts_def *d, uint32_t sub_bs,
                      struct json_object *sub, char *err, size_t errlen);
int pts_kind_hir(struct pts_session *s, const struct pts_def *d, uint32_t sub_bs,
                 struct json_object *sub, char *err, size_t errlen);
int pts_kind_xsr(struct pts_session *s, const struct pts_def *d, uint32_t sub_bs,
                 struct json_object *sub, char *err, size_t errlen);
int pts_kind_dirth(struct pts_session *s, const struct pts_def *d, uint32_t sub_bs,
                   struct json_object *sub, char *err, size_t errlen);

#endif
