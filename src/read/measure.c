/* measure.c — results files as flat measured points (see measure.h).
 *
 * What becomes a point, per schema:
 *   ptsbench.run      one point: the workload, averaged over the steady-state window when the
 *                     run reached steady state, else over the stable window when the run says
 *                     one was stable ("stable": true and a "window"), else over every round;
 *                     rounds of phase "wdpc" (preconditioning under the stimulus) are never
 *                     averaged (a window holding only such rounds: every other round instead).
 *   ptsbench.suite    one point per row of each test's `table` (the steady-state window, or the
 *                     last 5 rounds when steady state was not reached); WSAT has no
 *                     steady-state verdict: its point is its table, the final 5 rounds, state
 *                     unknown (the saturated drive: neither fresh nor a verified steady state).
 *                     DIRTH/CBW: the max operating point only (its histogram phase, one
 *                     measurement: no spread). HIR and XSR are recovery curves, not operating
 *                     points: skipped.
 *   ptsbench.profile  one point per point's `result` (its window).
 *
 * The drive state (enum meas_state), from what the file says:
 *   steady   a steady-state object with "measured_state": "steady"; files without that key:
 *            "reached" true (run, suite: the subtest's; profile: "measure" steady and the
 *            result's "steady") — except a ptsbench.run without a top-level "preconditioning"
 *            object: those runs never preconditioned, so they are fob whatever "reached" says.
 *   wipc     not steady, and something preconditioned the drive: the document's
 *            "preconditioning" mode wipc, steady or fast (or its wipc / fast / wdpc record), a
 *            suite subtest's "precondition" object of a kind other than none, a profile point's
 *            "precondition" wipc or steady or its "state" condition wipc, fast or wdpc;
 *            "measured_state": "wipc" says so directly (the name is the class "preconditioned,
 *            not steady"), and "fast" the same after the fast pass (issue 48; files before it
 *            said "wipc" there): the point's after_fast, its words meas_point_state_label.
 *   fob      not steady and nothing preconditioned the drive; "measured_state": "burst".
 *   unknown  a suite table without a steady-state verdict (WSAT); "measured_state": "saturated"
 *            (a run without preconditioning whose stimulus wrote a whole fill before its window:
 *            a write-saturation plateau, neither burst nor a verified steady state);
 * "measured_state": "unwritten" (its reads went to never-written space, which the device answers
 * without its media) gives the state its preparation gives and sets the point's `unwritten`:
 * verify compares such a point only with a claim that says its own figure read such space.
 * "measured_state": "not stable" (or a name this reader does not know) falls back on "reached"
 * and the preconditioning, as in a file without the key.
 * Figures of a direction the workload does not use (read figures of a write-only point) are
 * NAN, as are figures the file does not hold. */
#include <dirent.h>
#include <errno.h>
#include <json-c/json.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "read/measure.h"

#include "core/results.h"

#include "io/workload.h"
#include "lib/json_path.h"
#include "lib/units.h"
#include "lib/util.h"
#include "read/jobs.h"
#include "read/load.h"
#include "read/tracking.h"
#include "stats/hist.h"

#define MEAS_MAX_DEPTH 16

/* The trim direction's figures and the latency counts (measure.h: after the vocabulary's), where
 * a figures object keeps them. */
static const struct {
    const char *key, *path;
    bool lower_is_better;
} trim_defs[MEAS_N_ALL - MEAS_N] = {
    [MEAS_TRIM_IOPS - MEAS_N] = {"trim_iops", "trim.iops", false},
    [MEAS_TRIM_MB_S - MEAS_N] = {"trim_mb_s", "trim.mb_s", false},
    [MEAS_TRIM_LAT_MEAN_US - MEAS_N] = {"trim_lat_mean_us", "trim.lat_us.mean", true},
    [MEAS_LAT_COUNT - MEAS_N] = {"lat_count", "total.lat_us.count", false},
    [MEAS_READ_LAT_COUNT - MEAS_N] = {"read_lat_count", "read.lat_us.count", false},
    [MEAS_WRITE_LAT_COUNT - MEAS_N] = {"write_lat_count", "write.lat_us.count", false},
};

const char *meas_metric_name(enum meas_metric m)
{
    if ((unsigned)m < MEAS_N)
        return metrics_defs[m].key;
    return (unsigned)m < MEAS_N_ALL ? trim_defs[m - MEAS_N].key : "?";
}

int meas_metric_parse(const char *name, enum meas_metric *out)
{
    const struct metric_def *d = metrics_def(name);
    if (!d || d - metrics_defs >= MEAS_N)
        return -1;
    *out = (enum meas_metric)(d - metrics_defs);
    return 0;
}

int meas_metric_parse_all(const char *name, enum meas_metric *out)
{
    if (meas_metric_parse(name, out) == 0)
        return 0;
    for (unsigned k = 0; name && k < MEAS_N_ALL - MEAS_N; k++)
        if (!strcmp(name, trim_defs[k].key)) {
            *out = (enum meas_metric)(MEAS_N + k);
            return 0;
        }
    return -1;
}

bool meas_lower_is_better(enum meas_metric m)
{
    if ((unsigned)m < MEAS_N)
        return metrics_defs[m].lower_is_better;
    return (unsigned)m < MEAS_N_ALL && trim_defs[m - MEAS_N].lower_is_better;
}

bool meas_point_has_trim(const struct meas_point *p)
{
    for (unsigned m = MEAS_N; m <= MEAS_TRIM_LAT_MEAN_US; m++)
        if (isfinite(p->v[m]))
            return true;
    return false;
}

uint64_t meas_pct_short_of(const struct meas_point *p, enum meas_metric m)
{
    if ((unsigned)m >= MEAS_N || isfinite(p->v[m]))
        return 0;
    const struct metric_def *d = &metrics_defs[m];
    const double n = p->v[MEAS_LAT_COUNT + d->dir];
    if (d->kind != METRIC_KIND_LAT || d->pct < 0 || d->pct >= METRICS_NPCT || !(n >= 1))
        return 0;
    return hist_pct_supported((uint64_t)n, metrics_percentiles[d->pct]) ? 0 : (uint64_t)n;
}

static const struct {
    const char *name, *label;
} meas_states[] = {
    [MEAS_STATE_UNKNOWN] = {"unknown", "unknown"},
    [MEAS_STATE_FOB] = {"fob", "burst (fresh-out-of-box)"},
    [MEAS_STATE_STEADY] = {"steady", "steady state"},
    [MEAS_STATE_WIPC] = {"wipc", "burst after WIPC"},
};
#define N_MEAS_STATES (sizeof(meas_states) / sizeof(meas_states[0]))

const char *meas_state_name(enum meas_state s)
{
    return (unsigned)s < N_MEAS_STATES ? meas_states[s].name : "unknown";
}

const char *meas_state_label(enum meas_state s)
{
    return (unsigned)s < N_MEAS_STATES ? meas_states[s].label : "unknown";
}

const char *meas_point_state_name(const struct meas_point *p)
{
    return p->after_fast && p->state == MEAS_STATE_WIPC ? "fast" : meas_state_name(p->state);
}

const char *meas_point_state_label(const struct meas_point *p)
{
    if (p->state_words[0])
        return p->state_words;
    if (!p->after_fast || (p->state != MEAS_STATE_WIPC && p->state != MEAS_STATE_STEADY))
        return meas_state_label(p->state);
    static const char *const words[2][2] = {
        {"after the fast pass, not steady state", "after the fast pass + WDPC, not steady state"},
        {"steady state after the fast pass", "steady state after the fast pass + WDPC"}};
    return words[p->state == MEAS_STATE_STEADY][p->read_pct < 100];
}

/* ---- JSON access: NULL / NAN for absent or null values ---- */

/* jpath(o, "a", "b", NULL): o.a.b */
static struct json_object *jpath(struct json_object *o, ...)
{
    va_list ap;
    va_start(ap, o);
    for (const char *k = va_arg(ap, const char *); k && o; k = va_arg(ap, const char *))
        o = jp_get(o, k);
    va_end(ap);
    return o;
}

static long jint(struct json_object *o, long dflt)
{
    if (!o || !(json_object_is_type(o, json_type_double) || json_object_is_type(o, json_type_int)))
        return dflt;
    return (long)json_object_get_int64(o);
}

/* A percentage 0..100, else dflt (a share outside it is no share: it would make "R/W -5/105"). */
static int jpct(struct json_object *o, int dflt)
{
    long v = jint(o, dflt);
    return v >= 0 && v <= 100 ? (int)v : dflt;
}

static const char *jstr(struct json_object *o)
{
    return o && json_object_is_type(o, json_type_string) ? json_object_get_string(o) : NULL;
}

static bool jbool(struct json_object *o)
{
    return o && json_object_is_type(o, json_type_boolean) && json_object_get_boolean(o);
}

/* ---- drive state ---- */

/* The document's "preconditioning" object: absent (a file written before it existed), or
 * whether it preconditioned the drive (mode wipc, steady or fast, or a wipc / fast / wdpc
 * record). */
enum meas_precond { MEAS_PC_ABSENT, MEAS_PC_NONE, MEAS_PC_DONE };

static enum meas_precond precond_of(struct json_object *root)
{
    struct json_object *pc = jp_get(root, "preconditioning");
    if (!pc || !json_object_is_type(pc, json_type_object))
        return MEAS_PC_ABSENT;
    const char *mode = jstr(jp_get(pc, "mode"));
    bool done = (mode && (!strcmp(mode, "wipc") || !strcmp(mode, "steady") ||
                          !strcmp(mode, "fast"))) ||
                json_object_is_type(jp_get(pc, "wipc"), json_type_object) ||
                json_object_is_type(jp_get(pc, "fast"), json_type_object) ||
                json_object_is_type(jp_get(pc, "wdpc"), json_type_object);
    return done ? MEAS_PC_DONE : MEAS_PC_NONE;
}

/* The run was prepared by the fast pass (issue 48): its record, or mode "fast". */
static bool precond_fast(struct json_object *root)
{
    struct json_object *pc = jp_get(root, "preconditioning");
    const char *mode = jstr(jp_get(pc, "mode"));
    return (mode && !strcmp(mode, "fast")) ||
           json_object_is_type(jp_get(pc, "fast"), json_type_object);
}

/* The fast pass's record on a point (measure.h: after_fast, fast_no_ftl, fast_fills): the run's
 * preconditioning.fast (its ftl "none": a target without an FTL), or the point's own
 * "precondition" "fast" or "measured_state" "fast" (profile points). */
static void fast_of(struct json_object *root, const char *pt_precondition, const char *ms,
                    struct meas_point *p)
{
    struct json_object *rec = jp_get(jp_get(root, "preconditioning"), "fast");
    p->after_fast = precond_fast(root) || (pt_precondition && !strcmp(pt_precondition, "fast")) ||
                    (ms && !strcmp(ms, "fast"));
    const char *ftl = jstr(jp_get(rec, "ftl"));
    p->fast_no_ftl = p->after_fast && ftl && !strcmp(ftl, "none");
    struct json_object *fills = jp_get(rec, "fills");
    p->fast_fills = fills && (json_object_is_type(fills, json_type_double) ||
                              json_object_is_type(fills, json_type_int))
                        ? json_object_get_double(fills)
                        : NAN;
    p->state_words[0] = '\0';
    if (!p->fast_no_ftl || (p->state != MEAS_STATE_WIPC && p->state != MEAS_STATE_STEADY))
        return;
    char f[32];
    units_format_figure(isfinite(p->fast_fills) ? p->fast_fills : 1.0, UNITS_FIG_VALUE, f,
                        sizeof(f));
    snprintf(p->state_words, sizeof(p->state_words),
             "%s after the range written %s× sequentially%s: no FTL state to shape",
             p->state == MEAS_STATE_STEADY ? "steady state" : "not steady state", f,
             p->read_pct < 100 ? " + WDPC" : "");
}

/* "measured_state" values; "not stable" (-1) says nothing beyond reached and preconditioning */
static const struct {
    const char *name;
    int state;
} measured_states[] = {
    {"steady", MEAS_STATE_STEADY},
    {"burst", MEAS_STATE_FOB},
    {"wipc", MEAS_STATE_WIPC},
    {"fast", MEAS_STATE_WIPC},   /* the same class after the fast pass: the point's after_fast */
    {"saturated", MEAS_STATE_UNKNOWN},   /* write saturation without preconditioning: as WSAT */
    {"unwritten", -1},   /* reads of never-written space (drive_state.h): the state the
                            preparation gives, and the point's `unwritten` flag */
    {"not stable", -1},
};

/* The state of one measurement: its "measured_state" when the file has one, else steady when
 * steady state was reached, else wipc when the drive was preconditioned, else fob. */
static enum meas_state state_from(const char *measured_state, bool reached, bool preconditioned)
{
    for (size_t i = 0; measured_state && i < sizeof(measured_states) / sizeof(measured_states[0]);
         i++)
        if (!strcmp(measured_state, measured_states[i].name) && measured_states[i].state >= 0)
            return (enum meas_state)measured_states[i].state;
    if (reached)
        return MEAS_STATE_STEADY;
    return preconditioned ? MEAS_STATE_WIPC : MEAS_STATE_FOB;
}

/* A measurement whose reads went to never-written space (drive_state.h: "unwritten"). */
static bool unwritten_of(const char *measured_state)
{
    return measured_state && !strcmp(measured_state, "unwritten");
}

static bool str_in(const char *s, const char *a, const char *b)
{
    return s && (!strcmp(s, a) || !strcmp(s, b));
}

/* ---- figures of one round, and averages with spreads over rounds ---- */

/* The figures object (results_figures_add) of a run round, a suite element or table row, or a
 * profile result: read, write, total {iops, mb_s, lat_us {mean, max, percentiles}}, and trim
 * when it issued trims. A direction without I/O has lat_us null: its latencies stay NAN. */
static void figs_from(struct json_object *o, double v[MEAS_N_ALL])
{
    for (unsigned i = 0; i < MEAS_N; i++)
        v[i] = jp_path(o, metrics_defs[i].path);
    for (unsigned i = MEAS_N; i < MEAS_N_ALL; i++)   /* absent (no trims): NAN */
        v[i] = jp_path(o, trim_defs[i - MEAS_N].path);
}

struct meas_acc {
    double sum[MEAS_N_ALL], min[MEAS_N_ALL], max[MEAS_N_ALL];
    double sx[MEAS_N_ALL], sxx[MEAS_N_ALL], sxy[MEAS_N_ALL];   /* x: the round's place */
    unsigned n[MEAS_N_ALL];
    unsigned rounds;
};

static void acc_init(struct meas_acc *a)
{
    memset(a, 0, sizeof(*a));
}

static void acc_add(struct meas_acc *a, const double v[MEAS_N_ALL])
{
    a->rounds++;
    for (unsigned i = 0; i < MEAS_N_ALL; i++) {
        if (!isfinite(v[i]))
            continue;
        if (a->n[i] == 0 || v[i] < a->min[i])
            a->min[i] = v[i];
        if (a->n[i] == 0 || v[i] > a->max[i])
            a->max[i] = v[i];
        double x = (double)(a->rounds - 1);
        a->sum[i] += v[i];
        a->sx[i] += x;
        a->sxx[i] += x * x;
        a->sxy[i] += x * v[i];
        a->n[i]++;
    }
}

static double acc_mean(const struct meas_acc *a, unsigned i)
{
    return a->n[i] ? a->sum[i] / a->n[i] : NAN;
}

/* (max - min) / mean over the rounds; NAN below 2 rounds or for a zero mean. */
static double acc_spread(const struct meas_acc *a, unsigned i)
{
    double mean = acc_mean(a, i);
    if (a->n[i] < 2 || !isfinite(mean) || mean == 0)
        return NAN;
    return (a->max[i] - a->min[i]) / fabs(mean);
}

/* Least-squares slope of the values over their rounds; NAN below 2 rounds. */
static double acc_slope(const struct meas_acc *a, unsigned i)
{
    double n = a->n[i];
    double d = n * a->sxx[i] - a->sx[i] * a->sx[i];
    if (a->n[i] < 2 || d == 0)
        return NAN;
    return (n * a->sxy[i] - a->sx[i] * a->sum[i]) / d;
}

/* The window's spread, extremes and slope of metric i into p. */
static void acc_store(const struct meas_acc *a, unsigned i, struct meas_point *p)
{
    p->spread[i] = acc_spread(a, i);
    p->min[i] = a->n[i] ? a->min[i] : NAN;
    p->max[i] = a->n[i] ? a->max[i] : NAN;
    p->slope[i] = acc_slope(a, i);
}

/* ---- points ---- */

struct meas_ctx {
    struct meas_set *set;
    size_t cap;
    const char *file;
    unsigned flags;            /* MEAS_LOAD_* */
};

static struct meas_point *point_new(struct meas_ctx *c)
{
    struct meas_set *s = c->set;
    if (s->n == c->cap) {
        c->cap = c->cap ? 2 * c->cap : 64;
        s->p = xrealloc(s->p, c->cap * sizeof(*s->p));
    }
    struct meas_point *p = &s->p[s->n++];
    memset(p, 0, sizeof(*p));
    str_copy(p->source, sizeof(p->source), c->file);
    p->compress_pct = -1;
    for (unsigned i = 0; i < MEAS_N_ALL; i++) {
        p->v[i] = NAN;
        p->spread[i] = p->min[i] = p->max[i] = p->slope[i] = NAN;
    }
    return p;
}

/* Conditions are set: blank out the figures of a direction without I/O, derive `sequential`. */
static void point_finish(struct meas_point *p)
{
    static const enum meas_metric rd[] = {MEAS_READ_IOPS, MEAS_READ_MB_S, MEAS_READ_LAT_MEAN_US};
    static const enum meas_metric wr[] = {MEAS_WRITE_IOPS, MEAS_WRITE_MB_S,
                                          MEAS_WRITE_LAT_MEAN_US};
    for (unsigned i = 0; i < 3; i++) {
        if (p->read_pct <= 0)
            p->v[rd[i]] = p->spread[rd[i]] = p->min[rd[i]] = p->max[rd[i]] = p->slope[rd[i]] =
                NAN;
        if (p->read_pct >= 100)
            p->v[wr[i]] = p->spread[wr[i]] = p->min[wr[i]] = p->max[wr[i]] = p->slope[wr[i]] =
                NAN;
    }
    p->sequential = p->random_pct == 0;
}

static void fmt_pattern(int random_pct, char *buf, size_t len)
{
    if (random_pct >= 100)
        snprintf(buf, len, "random");
    else if (random_pct <= 0)
        snprintf(buf, len, "sequential");
    else
        snprintf(buf, len, "%d%% random", random_pct);
}

/* "PREFIX, 4 KiB random, R/W 65/35" followed by extra (may be ""). */
static void point_label(struct meas_point *p, const char *prefix, const char *extra)
{
    char bs[32], pat[32];
    units_format_bs(p->bs, bs, sizeof(bs));
    fmt_pattern(p->random_pct, pat, sizeof(pat));
    snprintf(p->label, sizeof(p->label), "%s, %s %s, R/W %d/%d%s", prefix, bs, pat, p->read_pct,
             100 - p->read_pct, extra);
}

/* ---- ptsbench.run ---- */

/* The canonical spec without its randseed=... item. */
static void spec_without_seed(const char *spec, char *out, size_t len)
{
    out[0] = '\0';
    size_t o = 0;
    const char *s = spec;
    while (*s) {
        const char *e = strchr(s, ',');
        size_t n = e ? (size_t)(e - s) : strlen(s);
        if (!(n >= 9 && !strncmp(s, "randseed=", 9))) {
            int w = snprintf(out + o, len - o, "%s%.*s", o ? "," : "", (int)n, s);
            if (w < 0 || (size_t)w >= len - o)
                return;
            o += (size_t)w;
        }
        s += n;
        if (*s == ',')
            s++;
    }
}

/* Average the rounds numbered first..last, leaving out preconditioning rounds (phase wdpc);
 * job not NULL: that job's figures in each round (read/jobs.h), else the round's. */
static void run_rounds_acc_job(struct json_object *rounds, long first, long last,
                               const char *job, struct meas_acc *a);
static void run_rounds_acc(struct json_object *rounds, long first, long last, struct meas_acc *a)
{
    run_rounds_acc_job(rounds, first, last, NULL, a);
}

static void run_rounds_acc_job(struct json_object *rounds, long first, long last,
                               const char *job, struct meas_acc *a)
{
    acc_init(a);
    for (size_t i = 0; i < jp_len(rounds); i++) {
        struct json_object *r = jp_idx(rounds, i);
        long rn = jint(jp_get(r, "round"), (long)i + 1);
        const char *phase = jstr(jp_get(r, "phase"));
        if (rn < first || rn > last || (phase && !strcmp(phase, "wdpc")))
            continue;
        struct json_object *o = job ? read_round_job(r, job) : r;
        if (!o)
            continue;
        double v[MEAS_N_ALL];
        figs_from(o, v);
        acc_add(a, v);
    }
}

/* The conditions a workload object records (results_workload_json: a run's "workload", a
 * profile point's "stimulus"): block size (0 for several), shares, workers x QD, compressibility. */
static void conditions_of(struct json_object *wl, struct meas_point *p)
{
    struct json_object *bss = jp_get(wl, "block_sizes");
    p->bs = jp_len(bss) == 1 ? (uint32_t)jint(jp_get(jp_idx(bss, 0), "bytes"), 0) : 0;
    p->read_pct = jpct(jp_get(wl, "read_pct"), 0);
    p->random_pct = jpct(jp_get(wl, "random_pct"), 0);
    p->workers = (unsigned)jint(jp_get(wl, "workers"), 1);
    p->qd = (unsigned)jint(jp_get(wl, "qd"), 1);
    p->compress_pct = jpct(jp_get(wl, "compress_pct"), -1);
}

/* A run of several jobs (read/jobs.h): one point per job, over its group's window (the group's
 * steady or stable window, else the group's rounds), in the group's state: a group's verdict is
 * never another's, and jobs of different workloads are never one point. */
static void load_run_job(struct meas_ctx *c, struct json_object *root, const struct read_group *g,
                         const char *label)
{
    struct json_object *ss = g->steady;
    bool reached = jbool(jp_get(ss, "reached"));
    struct json_object *w = jp_get(ss, "window");
    long first = g->first_round, last = g->last_round;
    if (reached || (jbool(jp_get(ss, "stable")) && w)) {
        first = jint(jp_get(w, "first_round"), first);
        last = jint(jp_get(w, "last_round"), last);
    }
    struct meas_acc a;
    run_rounds_acc_job(jp_get(root, "rounds"), first, last, label, &a);
    if (a.rounds == 0)
        return;
    enum meas_precond pc = precond_of(root);
    struct meas_point *p = point_new(c);
    struct json_object *wl = jp_get(read_run_job(root, label), "workload");
    conditions_of(wl, p);
    p->state = pc == MEAS_PC_ABSENT ? MEAS_STATE_FOB
                                    : state_from(jstr(jp_get(ss, "measured_state")), reached,
                                                 pc == MEAS_PC_DONE);
    p->unwritten = unwritten_of(jstr(jp_get(ss, "measured_state")));
    fast_of(root, NULL, jstr(jp_get(ss, "measured_state")), p);
    p->rounds = a.rounds;
    for (unsigned i = 0; i < MEAS_N_ALL; i++) {
        p->v[i] = acc_mean(&a, i);
        acc_store(&a, i, p);
    }
    char spec[sizeof(p->key)];
    const char *full = jstr(jp_get(wl, "spec"));
    spec_without_seed(full ? full : "", spec, sizeof(spec) - 8);
    snprintf(p->key, sizeof(p->key), "run/%s", spec);
    char prefix[128], extra[96];
    snprintf(prefix, sizeof(prefix), "Run %s (group %u of %u)", label, g->group,
             read_run_n_groups(root));
    snprintf(extra, sizeof(extra), ", %ux%u, compress %d%%", p->workers, p->qd, p->compress_pct);
    point_label(p, prefix, extra);
    point_finish(p);
}

static int load_run_jobs(struct meas_ctx *c, struct json_object *root)
{
    for (unsigned g = 0; g < read_run_n_groups(root); g++) {
        struct read_group gr;
        if (!read_run_group(root, g, &gr) || !gr.first_round)
            continue;
        for (size_t j = 0; j < jp_len(gr.labels); j++)
            load_run_job(c, root, &gr, json_object_get_string(jp_idx(gr.labels, j)));
    }
    return 0;
}

static int load_run(struct meas_ctx *c, struct json_object *root, char *err, size_t errlen)
{
    if (read_run_multi(root))
        return load_run_jobs(c, root);
    struct json_object *wl = jp_get(root, "workload");
    struct json_object *rounds = jp_get(root, "rounds");
    if (!wl)
        return errf(err, errlen, "%s: no workload", c->file);
    size_t nr = jp_len(rounds);
    if (nr == 0)
        return 0;

    /* the window: steady state's, else a stable one (new files), else every round */
    struct json_object *ss = jp_get(root, "steady_state");
    bool reached = jbool(jp_get(ss, "reached"));
    struct json_object *w = jp_get(ss, "window");
    bool windowed = reached || (jbool(jp_get(ss, "stable")) && w);
    long first = 1, last = LONG_MAX;
    if (windowed) {
        first = jint(jp_get(w, "first_round"), 1);
        last = jint(jp_get(w, "last_round"), LONG_MAX);
    }
    struct meas_acc a;
    run_rounds_acc(rounds, first, last, &a);
    if (a.rounds == 0 && windowed)
        run_rounds_acc(rounds, 1, LONG_MAX, &a);
    if (a.rounds == 0)
        return 0;

    enum meas_precond pc = precond_of(root);
    enum meas_state state = pc == MEAS_PC_ABSENT
                                ? MEAS_STATE_FOB   /* never preconditioned: a burst plateau */
                                : state_from(jstr(jp_get(ss, "measured_state")), reached,
                                             pc == MEAS_PC_DONE);

    struct meas_point *p = point_new(c);
    conditions_of(wl, p);
    p->state = state;
    p->unwritten = unwritten_of(jstr(jp_get(ss, "measured_state")));
    fast_of(root, NULL, jstr(jp_get(ss, "measured_state")), p);
    p->rounds = a.rounds;
    for (unsigned i = 0; i < MEAS_N_ALL; i++) {
        p->v[i] = acc_mean(&a, i);
        acc_store(&a, i, p);
    }
    char spec[sizeof(p->key)];
    const char *full = jstr(jp_get(wl, "spec"));
    spec_without_seed(full ? full : "", spec, sizeof(spec) - 8);
    snprintf(p->key, sizeof(p->key), "run/%s", spec);
    const char *name = jstr(jp_get(wl, "name"));
    char prefix[96], extra[96];
    if (name && *name && strcmp(name, "inline"))
        snprintf(prefix, sizeof(prefix), "Run %s", name);
    else
        snprintf(prefix, sizeof(prefix), "Run");
    snprintf(extra, sizeof(extra), ", %ux%u, compress %d%%", p->workers, p->qd, p->compress_pct);
    point_label(p, prefix, extra);
    point_finish(p);
    return 0;
}

/* ---- ptsbench.suite ---- */

/* Every element of the subtest's rounds first..last with this (rwmix_read, bs). */
static void suite_element_acc(struct json_object *sub, long first, long last, long mix, long bs,
                              struct meas_acc *a)
{
    struct json_object *rounds = jp_get(sub, "rounds");
    for (size_t i = 0; i < jp_len(rounds); i++) {
        struct json_object *r = jp_idx(rounds, i);
        long rn = jint(jp_get(r, "round"), 0);
        if (rn < first || rn > last)
            continue;
        struct json_object *els = jp_get(r, "elements");
        for (size_t j = 0; j < jp_len(els); j++) {
            struct json_object *e = jp_idx(els, j);
            if (jint(jp_get(e, "rwmix_read"), -1) == mix && jint(jp_get(e, "bs"), -1) == bs) {
                double v[MEAS_N_ALL];
                figs_from(e, v);
                acc_add(a, v);
                break;
            }
        }
    }
}

/* Whether the drive was preconditioned before a suite subtest: the document's preconditioning,
 * or the subtest's own "precondition" record of a kind other than none (wipc, steady). */
static bool suite_preconditioned(enum meas_precond pc, struct json_object *sub)
{
    const char *kind = jstr(jpath(sub, "precondition", "kind", NULL));
    return pc == MEAS_PC_DONE || (kind && strcmp(kind, "none") != 0);
}

/* A subtest's state from its steady-state object (NULL: none). */
static enum meas_state suite_state(enum meas_precond pc, struct json_object *sub)
{
    struct json_object *ss = jp_get(sub, "steady_state");
    return state_from(jstr(jp_get(ss, "measured_state")), jbool(jp_get(ss, "reached")),
                      suite_preconditioned(pc, sub));
}

static void suite_table(struct meas_ctx *c, enum meas_precond pc, struct json_object *test,
                        struct json_object *sub)
{
    struct json_object *table = jp_get(sub, "table");
    struct json_object *rows = jp_get(table, "rows");
    if (!jp_len(rows))
        return;
    const char *name = jstr(jp_get(test, "name"));
    const char *title = jstr(jp_get(test, "title"));
    const char *access = jstr(jp_get(test, "access"));
    long first = jint(jp_get(table, "first_round"), 1);
    long last = jint(jp_get(table, "last_round"), LONG_MAX);
    /* steady: the window passed; wipc / fob: a steady-state verdict that failed (the table is
     * the last 5 rounds), after preconditioning or not; unknown: no verdict at all (WSAT, whose
     * final rounds after writing twice the capacity are the saturated drive, neither fresh nor
     * a verified steady state) */
    enum meas_state state = jp_get(sub, "steady_state") ? suite_state(pc, sub)
                                                        : MEAS_STATE_UNKNOWN;
    char prefix[128];
    snprintf(prefix, sizeof(prefix), "PTS %s", title ? title : name ? name : "test");

    for (size_t i = 0; i < jp_len(rows); i++) {
        struct json_object *row = jp_idx(rows, i);
        long mix = jint(jp_get(row, "rwmix_read"), -1), bs = jint(jp_get(row, "bs"), -1);
        if (mix < 0 || mix > 100 || bs <= 0)
            continue;
        struct meas_point *p = point_new(c);
        p->bs = (uint32_t)bs;
        p->read_pct = (int)mix;
        p->random_pct = access && !strcmp(access, "sequential") ? 0 : 100;
        p->workers = (unsigned)jint(jp_get(test, "threads"), 1);
        p->qd = (unsigned)jint(jp_get(test, "qd"), 1);
        p->compress_pct = 0;
        p->state = state;
        snprintf(p->key, sizeof(p->key), "suite/%s/bs=%ld/read=%ld", name ? name : "test", bs,
                 mix);
        point_label(p, prefix, "");

        /* The table holds the window's averages; the rounds give the spread and the figures
         * an old table leaves out (99.9% before the tables recorded it). */
        struct meas_acc a;
        acc_init(&a);
        suite_element_acc(sub, first, last, mix, bs, &a);
        double tv[MEAS_N_ALL];
        figs_from(row, tv);
        for (unsigned m = 0; m < MEAS_N_ALL; m++) {
            p->v[m] = isfinite(tv[m]) ? tv[m] : acc_mean(&a, m);
            acc_store(&a, m, p);
        }
        p->rounds = a.rounds ? a.rounds : (unsigned)(last >= first && last != LONG_MAX
                                                         ? last - first + 1 : 0);
        point_finish(p);
    }
}

/* DIRTH / CBW: the max operating point (highest IOPS under the latency ceiling), measured once
 * with a full histogram. The stimulus (block size, R/W mix) is read from the precondition's
 * tracking variable ("track" {bs, read_pct}; an older file's name "iops@8KiB/65"); without it
 * the point is skipped. */
static void suite_dirth(struct meas_ctx *c, enum meas_precond pc, struct json_object *test,
                        struct json_object *sub)
{
    struct json_object *op = jpath(sub, "operating_points", "max", NULL);
    if (!op)
        return;
    struct json_object *vars = jpath(sub, "precondition", "steady_state", "variables", NULL);
    struct tracking tk;
    tracking_of(jp_idx(vars, 0), &tk);
    if (!tk.bs || tk.read_pct < 0)
        return;
    const uint32_t bs = tk.bs;
    const long mix = tk.read_pct;
    double fig[MEAS_N_ALL];
    figs_from(op, fig);
    const double iops = fig[MEAS_IOPS];
    if (!isfinite(iops))
        return;

    const char *name = jstr(jp_get(test, "name"));
    const char *access = jstr(jp_get(test, "access"));
    struct meas_point *p = point_new(c);
    p->bs = (uint32_t)bs;
    p->read_pct = (int)mix;
    p->random_pct = access && !strcmp(access, "sequential") ? 0 : 100;
    p->workers = (unsigned)jint(jp_get(op, "threads"), 1);
    p->qd = (unsigned)jint(jp_get(op, "qd"), 1);
    p->compress_pct = 0;
    p->state = suite_state(pc, sub);
    p->rounds = 1;
    p->v[MEAS_IOPS] = iops;
    p->v[MEAS_MB_S] = iops * (double)bs / 1e6;
    if (jp_obj_at(op, "total.lat_us")) {   /* the total latency of the point's full histogram */
        static const enum meas_metric lat[] = {MEAS_LAT_MEAN_US, MEAS_LAT_MAX_US, MEAS_LAT_P99_US,
                                               MEAS_LAT_P99_9_US, MEAS_LAT_P99_99_US,
                                               MEAS_LAT_P99_999_US, MEAS_LAT_P99_9999_US,
                                               MEAS_LAT_COUNT};
        for (size_t k = 0; k < sizeof(lat) / sizeof(lat[0]); k++)
            p->v[lat[k]] = fig[lat[k]];
    } else {
        p->v[MEAS_LAT_MEAN_US] = jp_number(jp_get(op, "sweep_lat_mean_us"));
    }
    snprintf(p->key, sizeof(p->key), "suite/%s/max/bs=%lu/read=%ld", name ? name : "dirth",
             (unsigned long)bs, mix);
    char prefix[160], extra[64];
    char up[32];
    snprintf(up, sizeof(up), "%s", name ? name : "dirth");
    for (char *q = up; *q; q++)
        *q = (char)(*q >= 'a' && *q <= 'z' ? *q - 'a' + 'A' : *q);
    snprintf(prefix, sizeof(prefix), "PTS %s max operating point", up);
    snprintf(extra, sizeof(extra), ", %ux%u", p->workers, p->qd);
    point_label(p, prefix, extra);
    point_finish(p);
}

/* HIR with MEAS_LOAD_RECOVERY: a point per wait state, the mean IOPS of its write accesses.
 * The stimulus is the test's (random writes, threads x QD); its block size is the accesses'
 * bytes per I/O (MB/s over IOPS), 4 KiB in every HIR definition. */
static void suite_hir(struct meas_ctx *c, struct json_object *test, struct json_object *sub)
{
    struct json_object *acc = jp_idx(jp_get(sub, "accesses"), 0);
    const double a_iops = jp_num(acc, "iops"), a_mb_s = jp_num(acc, "mb_s");
    if (!(a_iops > 0) || !isfinite(a_mb_s))
        return;
    const double bs = round(a_mb_s * 1e6 / a_iops / 512) * 512;
    if (!(bs >= 512 && bs <= UINT32_MAX))
        return;
    struct json_object *ws = jp_get(sub, "wait_states");
    for (size_t i = 0; i < jp_len(ws); i++) {
        struct json_object *w = jp_idx(ws, i);
        const double iops = jp_num(w, "write_iops_mean"), wait = jp_num(w, "wait_s");
        if (!isfinite(iops) || !isfinite(wait))
            continue;
        struct meas_point *p = point_new(c);
        p->bs = (uint32_t)bs;
        p->read_pct = 0;
        p->random_pct = 100;
        p->workers = (unsigned)jint(jp_get(test, "threads"), 1);
        p->qd = (unsigned)jint(jp_get(test, "qd"), 1);
        p->compress_pct = 0;
        p->state = MEAS_STATE_UNKNOWN;   /* recovering: neither fresh nor steady */
        p->rounds = (unsigned)jint(jp_get(w, "write_accesses"), 0);
        p->v[MEAS_IOPS] = p->v[MEAS_WRITE_IOPS] = iops;
        p->v[MEAS_MB_S] = p->v[MEAS_WRITE_MB_S] = iops * bs / 1e6;
        snprintf(p->key, sizeof(p->key), "suite/%s/wait=%g",
                 jstr(jp_get(test, "name")) ? jstr(jp_get(test, "name")) : "hir", wait);
        char extra[64];
        snprintf(extra, sizeof(extra), ", %g s waits", wait);
        point_label(p, "PTS Host Idle Recovery write accesses", extra);
        point_finish(p);
    }
}

static int load_suite(struct meas_ctx *c, struct json_object *root, char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    enum meas_precond pc = precond_of(root);
    struct json_object *tests = jp_get(root, "tests");
    for (size_t i = 0; i < jp_len(tests); i++) {
        struct json_object *t = jp_idx(tests, i);
        struct json_object *subs = jp_get(t, "subtests");
        for (size_t j = 0; j < jp_len(subs); j++) {
            struct json_object *s = jp_idx(subs, j);
            if (jp_get(s, "table"))
                suite_table(c, pc, t, s);
            else if (jp_get(s, "operating_points"))
                suite_dirth(c, pc, t, s);
            else if (jp_get(s, "wait_states") && (c->flags & MEAS_LOAD_RECOVERY))
                suite_hir(c, t, s);
            /* HIR (wait_states/accesses) and XSR (groups/log): recovery behaviour over time,
             * not an operating point to compare with a claim or a baseline: skipped unless
             * asked for (HIR's, MEAS_LOAD_RECOVERY). */
        }
    }
    return 0;
}

/* ---- ptsbench.profile ---- */

/* A profile point's state: the result's "measured_state", else steady when it measured to
 * steady state and reached it, else wipc when the point (or the document) preconditioned. */
static enum meas_state profile_state(enum meas_precond pc, struct json_object *pt,
                                     struct json_object *res)
{
    const char *measure = jstr(jp_get(pt, "measure"));
    bool reached = measure && !strcmp(measure, "steady") && jbool(jp_get(res, "steady"));
    bool pre = pc == MEAS_PC_DONE || str_in(jstr(jp_get(pt, "precondition")), "wipc", "steady") ||
               str_in(jstr(jpath(pt, "state", "condition", NULL)), "wipc", "wdpc") ||
               str_in(jstr(jpath(pt, "state", "condition", NULL)), "fast", "fast") ||
               str_in(jstr(jp_get(pt, "precondition")), "fast", "fast");
    return state_from(jstr(jp_get(res, "measured_state")), reached, pre);
}

/* A profile point's conditions: its "stimulus" (the workload object a run records), else, in a
 * file written before it, its inline "spec" read by the workload parser (io/workload.h).
 * 0, or -1 with "bad spec: why". */
static int profile_conditions(struct json_object *pt, struct meas_point *out, char *err,
                              size_t errlen)
{
    memset(out, 0, sizeof(*out));
    struct json_object *stim = jp_obj_at(pt, "stimulus");
    if (stim) {
        conditions_of(stim, out);
        return 0;
    }
    const char *spec = jstr(jp_get(pt, "spec"));
    struct workload wl;
    char why[ERR_LEN];
    if (!spec || wl_parse_inline(spec, &wl, why, sizeof(why)) != 0)
        return errf(err, errlen, "bad spec: %s", spec ? why : "absent");
    out->bs = wl.n_bs == 1 ? wl.bs[0].size : 0;
    out->read_pct = (int)wl.read_pct;
    out->random_pct = (int)wl.random_pct;
    out->workers = wl.workers;
    out->qd = wl.qd;
    out->compress_pct = (int)wl.compress_pct;
    return 0;
}

static int load_profile(struct meas_ctx *c, struct json_object *root, char *err, size_t errlen)
{
    enum meas_precond pc = precond_of(root);
    struct json_object *points = jp_get(root, "points");
    for (size_t i = 0; i < jp_len(points); i++) {
        struct json_object *pt = jp_idx(points, i);
        struct json_object *res = jp_get(pt, "result");
        if (!res || !isfinite(jp_path(res, "total.iops")))
            continue;
        struct meas_point cond;
        char why[ERR_LEN];
        if (profile_conditions(pt, &cond, why, sizeof(why)) != 0)
            return errf(err, errlen, "%s: points[%zu]: %s", c->file, i, why);
        const char *prof = jstr(jp_get(pt, "profile"));
        const char *wname = jstr(jp_get(pt, "workload"));
        struct meas_point *p = point_new(c);
        p->bs = cond.bs;
        p->read_pct = cond.read_pct;
        p->random_pct = cond.random_pct;
        p->workers = (unsigned)jint(jp_get(pt, "workers"), cond.workers);
        p->qd = (unsigned)jint(jp_get(pt, "qd"), cond.qd);
        p->compress_pct = jpct(jp_get(pt, "compress_pct"), cond.compress_pct);
        p->state = profile_state(pc, pt, res);
        p->unwritten = unwritten_of(jstr(jp_get(res, "measured_state")));
        fast_of(root, jstr(jp_get(pt, "precondition")), jstr(jp_get(res, "measured_state")), p);
        if (!prof)
            prof = "profile";
        if (!wname)
            wname = prof;
        snprintf(p->key, sizeof(p->key), "profile/%s/%s/c=%d/w=%u/qd=%u", prof, wname,
                 p->compress_pct, p->workers, p->qd);
        char prefix[160], extra[64];
        if (!strcmp(prof, wname))
            snprintf(prefix, sizeof(prefix), "Profile %s", prof);
        else
            snprintf(prefix, sizeof(prefix), "Profile %s/%s", prof, wname);
        snprintf(extra, sizeof(extra), ", %ux%u, compress %d%%", p->workers, p->qd,
                 p->compress_pct);
        point_label(p, prefix, extra);

        figs_from(res, p->v);
        struct json_object *win = jp_get(res, "rounds");
        long first = jint(jp_idx(win, 0), 1), last = jint(jp_idx(win, 1), LONG_MAX);
        struct meas_acc a;
        acc_init(&a);
        struct json_object *rounds = jp_get(pt, "rounds");
        for (size_t r = 0; r < jp_len(rounds); r++) {
            struct json_object *ro = jp_idx(rounds, r);
            long rn = jint(jp_get(ro, "round"), (long)r + 1);
            if (rn < first || rn > last)
                continue;
            double v[MEAS_N_ALL];
            figs_from(ro, v);
            acc_add(&a, v);
        }
        for (unsigned m = 0; m < MEAS_N_ALL; m++) {
            if (!isfinite(p->v[m]))
                p->v[m] = acc_mean(&a, m);
            acc_store(&a, m, p);
        }
        p->rounds = a.rounds;
        point_finish(p);
    }
    return 0;
}

/* ---- files and directories ---- */

static void set_device(struct meas_set *s, struct json_object *root)
{
    struct json_object *t = jp_get(root, "target");
    const char *kind = jstr(jp_get(t, "kind"));
    if ((kind && !strcmp(kind, "simulated")) || jp_get(t, "simulated"))
        s->simulated = true;
    if (s->device[0])
        return;
    const char *model = jstr(jp_get(t, "model"));
    const char *path = jstr(jp_get(t, "path"));
    str_copy(s->device, sizeof(s->device), model && *model ? model : path ? path : "");
}

void meas_target_read(struct json_object *root, const char *source, struct meas_target *t)
{
    memset(t, 0, sizeof(*t));
    str_copy(t->source, sizeof(t->source), source ? source : "");
    struct json_object *o = jp_get(root, "target");
    const char *v;
    if ((v = jstr(jp_get(o, "kind"))))
        str_copy(t->kind, sizeof(t->kind), v);
    if ((v = jstr(jp_get(o, "path"))))
        str_copy(t->path, sizeof(t->path), v);
    if ((v = jstr(jp_get(o, "device"))))
        str_copy(t->device, sizeof(t->device), v);
    long cap = jint(jp_get(o, "capacity_bytes"), 0);
    t->capacity = cap > 0 ? (uint64_t)cap : 0;
    if (!strcmp(t->kind, "simulated")) {   /* its "model" is the preset's description */
        if ((v = jstr(jpath(o, "simulated", "preset", NULL))))
            str_copy(t->preset, sizeof(t->preset), v);
        else if (!strncmp(t->path, "sim:", 4))   /* older files: sim:PRESET[,key=value...] */
            snprintf(t->preset, sizeof(t->preset), "%.*s", (int)strcspn(t->path + 4, ","),
                     t->path + 4);
    } else if ((v = jstr(jp_get(o, "model")))) {
        str_copy(t->model, sizeof(t->model), v);
    }
}

static void add_target(struct meas_set *s, struct json_object *root, const char *path)
{
    s->targets = xrealloc(s->targets, (s->n_targets + 1) * sizeof(*s->targets));
    meas_target_read(root, path, &s->targets[s->n_targets++]);
}

/* One loaded document's points into c. in_dir: documents of a schema that holds no points
 * (crosscheck) are skipped rather than refused. */
static int measure_root(struct meas_ctx *c, struct json_object *root, const char *path,
                        bool in_dir, char *err, size_t errlen)
{
    const char *schema = jstr(jp_get(root, "schema"));
    int rc = 0;
    c->file = path;
    if (schema && !strcmp(schema, "ptsbench.fleet")) {
        /* several devices' points would be taken for one device's */
        return errf(err, errlen, "%s: the results of one command on several targets: give one "
                                 "target's (the directory beside it named by its label), or "
                                 "compare them with ptsbench report", path);
    }
    if (schema && !strcmp(schema, "ptsbench.run"))
        rc = load_run(c, root, err, errlen);
    else if (schema && !strcmp(schema, "ptsbench.suite"))
        rc = load_suite(c, root, err, errlen);
    else if (schema && !strcmp(schema, "ptsbench.profile"))
        rc = load_profile(c, root, err, errlen);
    else if (in_dir)
        return 0;
    else
        rc = errf(err, errlen, "%s: schema '%s' is not a results schema (ptsbench.run, "
                               "ptsbench.suite, ptsbench.profile)", path, schema ? schema : "");
    char why[512];
    const enum results_life life = results_life_of(root, why, sizeof(why));
    if (rc == 0) {
        set_device(c->set, root);
        add_target(c->set, root, path);
        c->set->n_files++;
        if (life != RESULTS_COMPLETE && !c->set->n_incomplete++)
            snprintf(c->set->incomplete, sizeof(c->set->incomplete), "%s: %s", path, why);
    } else if (life != RESULTS_COMPLETE && schema) {
        /* a run that stopped before its first figure: say why there is none */
        char was[ERR_LEN];
        str_copy(was, sizeof(was), err);
        errf(err, errlen, "%s (%s)", was, why);
    }
    return rc;
}

/* One file, read through the one loader (load.h). */
static int load_file(struct meas_ctx *c, const char *path, bool in_dir, char *err, size_t errlen)
{
    struct json_object *root;
    if (read_load(path, READ_ANY, READ_VOICE_PLAIN, &root, NULL, 0, err, errlen) != 0)
        return -1;
    const int rc = measure_root(c, root, path, in_dir, err, errlen);
    json_object_put(root);
    return rc;
}

static int skip_entry(const struct dirent *d)
{
    /* hidden entries, and fio's artifacts (job files, fio's own JSON) */
    return d->d_name[0] != '.' && strcmp(d->d_name, "fio") != 0;
}

static int load_dir(struct meas_ctx *c, const char *dir, int depth, char *err, size_t errlen)
{
    if (depth > MEAS_MAX_DEPTH)
        return 0;
    struct dirent **ents = NULL;
    int n = scandir(dir, &ents, skip_entry, alphasort);
    if (n < 0)
        return errf(err, errlen, "%s: %s", dir, strerror(errno));
    int rc = 0;
    /* the directory's own results.json first, then its subdirectories in name order */
    for (int pass = 0; pass < 2 && rc == 0; pass++) {
        for (int i = 0; i < n && rc == 0; i++) {
            char path[4096];
            snprintf(path, sizeof(path), "%s/%s", dir, ents[i]->d_name);
            struct stat st;
            if (stat(path, &st) != 0)
                continue;
            if (pass == 0 && S_ISREG(st.st_mode) && !strcmp(ents[i]->d_name, "results.json"))
                rc = load_file(c, path, true, err, errlen);
            else if (pass == 1 && S_ISDIR(st.st_mode))
                rc = load_dir(c, path, depth + 1, err, errlen);
        }
    }
    for (int i = 0; i < n; i++)
        free(ents[i]);
    free(ents);
    return rc;
}

/* The end of a load: no point at all is a failure (out emptied then). */
static int loaded(int rc, const char *path, struct meas_set *out, char *err, size_t errlen)
{
    if (rc == 0 && out->n == 0)
        rc = out->n_incomplete
                 ? errf(err, errlen, "%s: no measured points yet (%s)", path, out->incomplete)
                 : errf(err, errlen, "%s: no measured points (no completed rounds)", path);
    if (rc != 0)
        meas_free(out);
    return rc;
}

int meas_load(const char *path, struct meas_set *out, char *err, size_t errlen)
{
    return meas_load_flags(path, 0, out, err, errlen);
}

int meas_load_flags(const char *path, unsigned flags, struct meas_set *out, char *err,
                    size_t errlen)
{
    memset(out, 0, sizeof(*out));
    struct meas_ctx c = {.set = out, .cap = 0, .file = path, .flags = flags};
    struct stat st;
    if (stat(path, &st) != 0)
        return errf(err, errlen, "%s: %s", path, strerror(errno));
    int rc;
    if (S_ISDIR(st.st_mode)) {
        char dir[4096];
        str_copy(dir, sizeof(dir), path);
        size_t l = strlen(dir);
        while (l > 1 && dir[l - 1] == '/')
            dir[--l] = '\0';
        rc = load_dir(&c, dir, 0, err, errlen);
        if (rc == 0 && out->n_files == 0)
            rc = errf(err, errlen, "%s: no results found (no results.json of a run, suite or "
                                   "profile)", path);
    } else {
        rc = load_file(&c, path, false, err, errlen);
    }
    return loaded(rc, path, out, err, errlen);
}

int meas_doc(struct json_object *root, const char *path, unsigned flags, struct meas_set *out,
             char *err, size_t errlen)
{
    memset(out, 0, sizeof(*out));
    struct meas_ctx c = {.set = out, .cap = 0, .file = path, .flags = flags};
    return loaded(measure_root(&c, root, path, false, err, errlen), path, out, err, errlen);
}

void meas_free(struct meas_set *s)
{
    if (!s)
        return;
    free(s->p);
    s->p = NULL;
    s->n = 0;
    free(s->targets);
    s->targets = NULL;
    s->n_targets = 0;
    s->n_files = 0;
    s->n_incomplete = 0;
    s->incomplete[0] = '\0';
    s->device[0] = '\0';
}

const struct meas_point *meas_find(const struct meas_set *s, const char *key)
{
    for (size_t i = 0; s && key && i < s->n; i++)
        if (!strcmp(s->p[i].key, key))
            return &s->p[i];
    return NULL;
}

void meas_merge(struct meas_set *dst, struct meas_set *src)
{
    if (src->n) {
        dst->p = xrealloc(dst->p, (dst->n + src->n) * sizeof(*dst->p));
        memcpy(dst->p + dst->n, src->p, src->n * sizeof(*src->p));
        dst->n += src->n;
    }
    if (src->n_targets) {
        dst->targets = xrealloc(dst->targets,
                                (dst->n_targets + src->n_targets) * sizeof(*dst->targets));
        memcpy(dst->targets + dst->n_targets, src->targets,
               src->n_targets * sizeof(*src->targets));
        dst->n_targets += src->n_targets;
    }
    if (!dst->device[0])
        str_copy(dst->device, sizeof(dst->device), src->device);
    dst->simulated |= src->simulated;
    if (src->n_incomplete && !dst->n_incomplete)
        str_copy(dst->incomplete, sizeof(dst->incomplete), src->incomplete);
    dst->n_incomplete += src->n_incomplete;
    dst->n_files += src->n_files;
    meas_free(src);
}
