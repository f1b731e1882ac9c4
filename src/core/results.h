/* results.h — the results file (JSON, json-c), written atomically.
 *
 * Schema: reports/results-schema.md (schema "ptsbench.run", version RESULTS_SCHEMA_VERSION).
 * results_write() builds the whole document from the run record and replaces DIR/results.json
 * through a temporary file, fsync and rename, so the file is always complete valid JSON and an
 * interrupted run keeps every round that finished. Each round is one line in "rounds". */
#ifndef PTSBENCH_RESULTS_H
#define PTSBENCH_RESULTS_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/run.h"

#define RESULTS_SCHEMA "ptsbench.run"
#define RESULTS_SCHEMA_VERSION 2

struct json_object;

struct json_object *results_build(const struct run_record *rec);
/* Write JSON to path atomically (path.tmp, fsync, rename, fsync dir). */
int results_write_json_atomic(struct json_object *doc, const char *path, char *err, size_t errlen);
/* The same; fsync (file and directory) only when sync. */
int results_write_json_atomic_ext(struct json_object *doc, const char *path, bool sync,
                                  char *err, size_t errlen);
int results_write(struct run_record *rec, char *err, size_t errlen);
void results_cache_free(struct results_cache *c);

/* A document kept in memory and rewritten as a run goes (suite, profile). Every write sets
 * "updated" and the "writer" (results_writer_json); it happens when forced or when 500 ms have
 * passed since the last one (a simulated drive ends rounds in milliseconds), with an fsync at
 * most once a second. Lines that report completed work (a round, a point, a test) are given to
 * results_out_say and printed only after a write that holds that work, so that whatever the
 * console shows as done is in the file even if the process is killed the next moment. A write
 * that fails (a full disk) sets `failed` and `error`: the runner stops with exit 1. */
struct results_out {
    struct json_object *doc;   /* the caller's */
    char path[4200];
    const char *who;           /* "ptsbench suite", for messages */
    uint64_t last_write_ns, last_sync_ns;
    char *pending;             /* lines waiting for the write that holds their work */
    size_t pending_len, pending_cap;
    bool failed;
    bool live;                 /* stdout shows a live line: erase it before the pending lines */
    const struct placement *place;   /* set: every write first refreshes doc's "placement"
                                        from it (where the workers ran so far) */
    char error[512];
};

void results_out_init(struct results_out *o, struct json_object *doc, const char *path,
                      const char *who);
/* Write when due (or forced), then print the pending lines. 0, or -1 when this or an earlier
 * write failed (o->error says why; the pending lines are dropped with it). */
int results_out_flush(struct results_out *o, bool force);
/* A line reporting completed work (the newline is added): printed after the next write. */
void results_out_say(struct results_out *o, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void results_out_free(struct results_out *o);

/* Who writes a results file: {"pid", "boot_id", "hostname", "program"}. With "updated", a reader
 * can tell a run that is still going from one whose writer died (results_life). */
struct json_object *results_writer_json(void);

/* What a results document's status means now. */
enum results_life {
    RESULTS_COMPLETE = 0,
    RESULTS_RUNNING,           /* status running, and its writer is alive on this machine */
    RESULTS_DEAD,              /* status running, but its writer is gone (killed, crashed, a
                                  reboot since) */
    RESULTS_INTERRUPTED,       /* stopped by a signal; every completed round is kept */
    RESULTS_FAILED,
    RESULTS_UNKNOWN,           /* status running, written on another host or by a ptsbench that
                                  recorded no writer: cannot tell */
};
const char *results_life_name(enum results_life l);   /* "complete", "running", "dead", ... */
/* From "status" and "writer" (a running document's pid alive on this boot and running
 * ptsbench). why: one phrase for people ("pid 4242 is not running"). Reads /proc only. */
enum results_life results_life_of(struct json_object *doc, char *why, size_t len);
/* Append text to a JSON array of notes unless it is there already. */
void results_note_add(struct json_object *notes, const char *text);
/* The same from a format (the runners' note functions: ps_note, profile's note). */
void results_note_vadd(struct json_object *notes, const char *fmt, va_list ap);

/* Pieces reused by other result producers. */
struct json_object *results_host_json(const struct hostinfo *h);
struct json_object *results_target_json(const struct target_info *t);
/* The placement record (device/numa.h; reports/results-schema.md, "placement"): the decision
 * and, per worker, the CPUs it was allowed (read back) and the CPUs it ran on. */
struct json_object *results_placement_json(const struct placement *pl);
/* A direction's "lat_us" object (count, min, mean, max, percentiles; "from" for a window's);
 * NULL when count is 0 (no I/O of the direction: null, not zeros). */
struct json_object *results_lat_json(const struct lat_summary *l);
/* A round's record (results-schema.md, "Rounds"), with its lat_hist (results_lat_hist_add). */
struct json_object *results_round_json(const struct round_metrics *m);
/* The round's latency histograms (m->lat_dir, metrics.h) as "lat_hist": {format, buckets
 * ("log-linear"), sub_bits (stats/hist.h's HIST_SUB_BITS), weight (m->weight: bucket b holds
 * latencies hist_bucket_low(b) .. hist_bucket_high(b) ns / weight), read, write: the non-empty
 * buckets as a flat [bucket, count, bucket, count, ...] in bucket order, the counts summing to
 * the direction's ios}; the arrays are written on one line even in a pretty-printed document.
 * Nothing when m kept no histograms. Run rounds, profile points' rounds and suite elements;
 * the windows (PTS table rows, profile point results, fleet rounds) keep their merged one
 * (core/lat_hist.h, lat_window_hist_json). */
void results_lat_hist_add(struct json_object *o, const struct round_metrics *m);
/* The purge record (steps.h): the plan, whether a purge ran, how long it took. */
struct json_object *results_purge_json(const struct purge_plan *plan, bool ran, double seconds);
/* The WIPC record (steps.h): what it was asked to write and what it did; m its figures. */
struct results_wipc {
    uint32_t bs;
    unsigned threads, qd, fills, compress_pct;
    double bytes_target, wall_s;   /* full-size bytes; wall-clock seconds */
};
struct json_object *results_wipc_json(const struct results_wipc *w, const struct round_metrics *m);
/* The fast pass's record (issue 48, core/fastpass.h; "preconditioning.fast"): the spare factor
 * it was built for and where that came from, what it wrote, and on the simulated drive the check
 * after it (steady.h: the guard's lag). */
struct results_fast {
    double rho;
    const char *rho_source;        /* struct ds_op's: "option", "simulated drive", ... */
    double rho_simulator;          /* the simulated drive's rho_eff; <= 0: not a simulated drive */
    const char *ftl;               /* "simulated drive", "none", "unknown" (drive_state.h ds_ftl) */
    unsigned regions, threads, qd;   /* threads: 0 when not through an engine's workers */
    const char *threads_basis;     /* why threads is what it is (NULL: not recorded) */
    unsigned unit_bytes;           /* the size of the pass's writes (0: not recorded) */
    const char *unit_basis;        /* which of the stimulus's sizes it is (NULL: not recorded) */
    const char *stimulus_random_map;   /* what the stimulus after the pass draws with (NULL:
                                          no random offsets) */
    double wdpc_min_fills;         /* WDPC's floor set to the guard's shorter lag (0: unchanged) */
    double bytes, fills;           /* full-size bytes written; fills of the active range */
    double elapsed_s;              /* virtual seconds on a simulated drive, else wall-clock */
    double wall_s;                 /* wall-clock seconds; 0: not measured */
    bool sim_checked;              /* the check after the pass ran (simulated drive) */
    bool sim_ok;                   /* ... and passed: free lines <= pool (WA >= 1) */
    double sim_wa;
    unsigned long long sim_free_lines, sim_pool_lines;
};
/* m: the pass's figures when it went through an engine (NULL: none). */
struct json_object *results_fast_json(const struct results_fast *f, const struct round_metrics *m);
/* The figures object (reports/results-schema.md, "The figures object"): adds "read", "write" and
 * "total" to o, each {ios, bytes, iops, mb_s, mib_s, lat_us {count, min, mean, max,
 * percentiles}}; lat_us is null for a direction without I/O (no zeros posing as latencies).
 * Written by every record that carries figures: run rounds, suite elements and table rows,
 * DIRTH's operating points, profile point results. */
/* ... with a "trim" object between write and total when trim is not NULL and trim->ios > 0
 * (reports/results-schema.md: only rounds and jobs that issued trims have it). */
void results_figures_trim_add(struct json_object *o, const struct dir_metrics *read,
                              const struct dir_metrics *write, const struct dir_metrics *trim,
                              const struct dir_metrics *total);
void results_figures_add(struct json_object *o, const struct dir_metrics *read,
                         const struct dir_metrics *write, const struct dir_metrics *total);
/* The queue depth of a round, element or point (metrics.h: struct depth_figure) as its "depth"
 * object: {declared, mean, kept (mean / declared), how ("loop", "virtual", "littles_law"),
 * at_end (not with littles_law), label (the depth in words when not kept, else absent)};
 * nothing when not measured. */
void results_depth_add(struct json_object *o, const struct depth_figure *d);
/* The same and, for a figure with too few I/Os (round_metrics.gap), "gap": the reason; and
 * "engine_choices", what the engine chose over it (engine.h: struct engine_choices), where the
 * engine records them. */
void results_depth_gap_add(struct json_object *o, const struct round_metrics *m);
/* The depth in words (metrics_depth_text) read back from o's "depth" object: "" when o has
 * none or its depth was kept. Returns buf. */
const char *results_depth_text(struct json_object *o, char *buf, size_t len);
/* A latency of a figures object o: dir "read", "write" or "total", key "count", "min", "mean",
 * "max", "max_round_mean" or a percentile ("99.9"). NAN when absent or null. */
double results_figures_lat(struct json_object *o, const char *dir, const char *key);
/* The version-1 reader (results_v1.c): rewrites a version-1 document (run, suite or profile) in
 * memory into the version-2 shape: suite elements, table rows and DIRTH operating points, and
 * profile point results, get the figures object; a direction without I/O gets lat_us null.
 * Every loader calls it before reading (show, report, plot, verify, gate, --resume). Figures
 * version 1 did not record stay absent. Returns 1 when it rewrote the document, else 0 (a
 * version-2 document, or not an object). Tolerates any malformed input. */
int results_upgrade(struct json_object *doc);
struct json_object *results_workload_json(const struct workload *wl, const struct wl_range *range);
/* The drive's state (drive_state.h): condition, bytes and fills written since purge / start. */
struct json_object *results_state_json(const struct drive_state *s);
/* The reverse, for --resume: the fields of a state object into *s (others left as they are). */
void results_state_from_json(struct json_object *o, struct drive_state *s);
/* Add a window's verdict to a steady-state object (from results_steady_json): "reached" (SNIA
 * steady state claimed), "stable", "measured_state", "label", "reason", and the fill guard (when
 * gr and g are given). */
void results_verdict_json(struct json_object *steady, const struct ds_verdict *v,
                          const struct steady_guard_result *gr, const struct steady_guard *g);
/* The fill guard's result (steady.h) as an object: rule, limits, evaluated, passed, ... */
struct json_object *results_guard_json(const struct steady_guard_result *gr,
                                       const struct steady_guard *g);
struct json_object *results_steady_json(const struct steady_window *w, unsigned steady_round,
                                        const struct steady_criteria *c, const char *tracking,
                                        unsigned rounds_run);
/* A tracking variable's parts, written beside its display name "tracking" as "track"
 * (read/tracking.h reads them back): {"metric"}, plus "bs" (bytes) when bs is not 0 and
 * "read_pct" when read_pct >= 0. */
struct json_object *results_track_json(const char *metric, uint32_t bs, int read_pct);

#endif
