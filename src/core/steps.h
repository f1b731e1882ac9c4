/* steps.h — the shared run layer: the steps that run, suite, profile and crosscheck all take,
 * written once. Opening a target (engine, probe, safety, output directory), one round on a
 * fresh worker pool, the simulated drive's counters per round, and the two preparation steps,
 * purge and WIPC, each with one results record:
 *
 *   "purge": {method, compliant, command, reason, ran, variant, seconds}
 *   WIPC:    {kind: "wipc", bs, threads, qd, fills, compress_pct, bytes_target, bytes_written,
 *             elapsed_s, wall_s, mb_s, round: <a round's figures>}
 *
 * (reports/results-schema.md). A runner keeps its own state and lends the steps a view of it,
 * struct run_ctx; what it prints around a step is its own (the plan's wording differs by
 * command), what the step records and what it does to the drive's state is not.
 * docs/architecture.md shows where these sit between the commands and the engines. */
#ifndef PTSBENCH_STEPS_H
#define PTSBENCH_STEPS_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/drive_state.h"
#include "core/fastpass.h"
#include "core/metrics.h"
#include "device/purge.h"
#include "device/target.h"
#include "engine/engine.h"
#include "io/workload.h"
#include "sim/sim.h"

struct json_object;
struct worker_pool;

/* A runner's state as the steps see it (pointers into the runner's own session). */
struct run_ctx {
    struct target_info *target;
    int fd;
    const char *out_dir;
    const struct engine_ops *engine;
    double weight;                 /* completions' weight (run_target_weight) */
    struct sim_stats *sim_last;    /* simulated drive counters at the end of the last round */
    struct drive_state *state;     /* the drive's state, advanced by the steps */
    volatile sig_atomic_t *stop;
    bool live;                     /* a terminal: purge and WIPC show their progress (live.h) */
};

/* Purge, in two steps so that a runner can say what will run before it runs: the plan for
 * `want` (auto resolves by the target's facts; no I/O), then its execution, its record in *json
 * (caller owns; made also when the purge failed, which is part of the results) and the drive's
 * state set to purged when a purge ran. 0, or -1 with err. */
int step_purge_plan(const struct run_ctx *c, enum purge_method want, struct purge_plan *plan,
                    char *err, size_t errlen);
int step_purge(const struct run_ctx *c, struct purge_plan *plan, struct json_object **json,
               char *err, size_t errlen);
/* The note a purge plan calls for ("no purge: ...", "purge by X is not SNIA-compliant ..."), or
 * NULL when a compliant purge ran. */
const char *step_purge_note(const struct purge_plan *plan, char *buf, size_t len);

/* WIPC (PTS workload independent preconditioning): `fills` x the range written with
 * sequential bs writes, threads x qd, at compress_pct compressible data. The defaults of run
 * and profile are WIPC_SPEC_DEFAULT (128 KiB, 1 x QD 32, 2 fills, core/precondition.h); the
 * PTS tests take their definitions' values. */
struct wipc_spec {
    struct wl_range range;         /* the active range, in the target's address space */
    uint32_t bs;
    unsigned threads, qd, fills, compress_pct;
};
/* Run it on a fresh pool: its figures in *m (metrics_free), its record in *json (caller owns),
 * the drive's state advanced (ds_wipc). 0, 1 interrupted (nothing recorded), -1 with err. */
int step_wipc(const struct run_ctx *c, const struct wipc_spec *w, struct round_metrics *m,
              struct json_object **json, char *err, size_t errlen);
/* The bytes the WIPC writes, in full-size figures (for the line announcing it). */
uint64_t step_wipc_bytes(const struct run_ctx *c, const struct wipc_spec *w);

/* The fast pass (issue 48, core/fastpass.h, docs/fast-precondition.md): (1 + rho) x the range
 * written in units of f->unit bytes (aligned) in io/fastgen.h's order, threads x qd, through the run's engine as
 * WIPC is (its pool, its live line, its figures). The offsets are a workload offset source
 * (io/iogen.h, wl->fastpass), not a replay of a list: each worker of the pool draws its own
 * disjoint share, so the pass keeps the engine's queue depth, latencies and engine choices,
 * and the order "a rewrite after its unit's first write" holds inside each worker without any
 * ordering between threads (a replay keeps one engine instance and one thread). Engines that
 * run whole rounds (fio) cannot take the offsets: refused. */
struct fast_spec {
    struct wl_range range;         /* the active range, in the target's address space */
    double rho;                    /* the spare factor the pass is built for (0: no rewrites) */
    unsigned threads, qd, compress_pct;
    uint64_t seed;
    uint32_t unit;                 /* bytes a write (core/fastpass.h fastpass_unit_of: the
                                    * stimulus's write size, aligned); 0: FASTPASS_UNIT */
};
/* Does t have no flash translation layer a pass could shape: a file, zram, a loop device? There
 * the pass is only (1 + rho) fills of writes: the same as writing the range. */
bool step_fast_no_ftl(const struct target_info *t);
/* Run it on a fresh pool: its figures in *m (metrics_free), what it did in *out; the drive's
 * state is the caller's to advance (drive_state.h: the fast pass's words are the caller's).
 * 0, 1 interrupted, -1 with err (a range under FASTGEN_REGIONS units a worker, a whole-round
 * engine). out->units_written counts units of out->unit_bytes. */
int step_fast(const struct run_ctx *c, const struct fast_spec *f, struct round_metrics *m,
              struct fastpass_result *out, char *err, size_t errlen);

/* Engine by name (NULL: io_uring, or sim for sim: targets); refuses mismatches. */
int run_select_engine(const char *engine_name, const char *target_path,
                      const struct engine_ops **out, char *err, size_t errlen);
/* A device, a file (created later to create_size) or sim:PRESET[,k=v] (presets in
 * PROFILE_DIR/devices). No writes. A file on tmpfs or ramfs (target.h memory_fs) is refused
 * ("PATH is on tmpfs: it measures memory, not a drive; add --allow-memory-target ...") unless
 * allow_memory. */
int run_probe_target(const char *path, uint64_t create_size, bool allow_memory,
                     const char *const *profile_dirs, struct target_info *t, char *err,
                     size_t errlen);
/* Where t's I/O threads will run (numa_place: --numa, --cpus, the device's node, the live
 * /sys), into *pl, and t->place pointed at it so that every pool on t pins to it and records
 * into it. Writes nothing. 0, or -1 with one line (a node the host lacks, CPUs this process
 * may not use). */
struct numa_request;
struct placement;
int run_place(const struct numa_request *req, struct target_info *t, struct placement *pl,
              char *err, size_t errlen);
/* The safety decision (safety.h) for block devices and files; simulated and remote targets
 * pass.  writes: the run writes (workload, preconditioning or purge).  A host-managed zoned
 * device is refused any write before that (zoned.h zoned_check), whatever the flags. */
int run_check_safety(const struct target_info *t, bool writes, bool destructive,
                     bool overwrite_signatures, char *err, size_t errlen);
/* DIR (given, or results/KIND-<timestamp>) and DIR/results.json; refuses to replace results
 * without force, and a DIR that could not be made (run_out_writable). Creates nothing. */
int run_out_dir(const char *given, const char *kind, bool force, char *dir, size_t dirlen,
                char *results, size_t resultslen, char *err, size_t errlen);
/* Could directory dir be made, or written when it exists? Its nearest existing ancestor must
 * be a directory this process may write (access W_OK|X_OK) and not on /proc or /sys (statfs:
 * root may "write" there, but no file can be made). what names it in the message ("--out
 * DIR"). 0, or -1 with one line. Checks only. */
int run_out_writable(const char *dir, const char *what, char *err, size_t errlen);
/* --dry-run: what the command would create and write, after its plan, and that nothing was:
 * the target file to be created (its size), the device or file that would be written (and
 * purged: the plan for purge, PURGE_NONE for none; nothing is run), a file target's layout
 * (core/layout.h) when one is due, the results directory. */
void run_print_dry_run(const struct target_info *t, bool writes, bool layout,
                       enum purge_method purge, const char *results);
/* A duration in words people read: "45 s", "25 min", "2 h 5 min". */
void run_format_duration(double s, char *buf, size_t len);
/* One round of wl on range (time or bytes) on a fresh pool, its figures in *m (metrics_free);
 * the simulated drive's counters advance in *sim_last. Returns 0 or -1 with err. */
int run_pool_once(const struct target_info *t, int fd, const char *out_dir,
                  const struct engine_ops *engine, double weight, struct sim_stats *sim_last,
                  const struct workload *wl, const struct wl_range *range, uint64_t time_ns,
                  uint64_t bytes, volatile sig_atomic_t *stop, struct round_metrics *m,
                  char *err, size_t errlen);
/* --resume: 0 when t is the target the results document measured (path, kind, capacity, sector,
 * model, serial; a simulated drive's preset, seed and scale), else -1 with the difference. */
struct json_object;
int run_resume_same_target(struct json_object *doc, const struct target_info *t, char *err,
                           size_t errlen);
/* Completion weight: k for a scaled simulated drive, else 1. */
double run_target_weight(const struct target_info *t);
/* The plan's "  target ..." and "  engine ..." lines (run and profile print them alike). */
void run_print_target_engine(const struct target_info *t, const struct engine_ops *e);
/* The simulated drive's own counters for the round that just ended, in full-size figures
 * (nothing for other targets); *last holds the counters at the end of the previous round. */
void run_device_round(const struct target_info *t, double weight, struct sim_stats *last,
                      struct round_metrics *m);
/* The target's side of the engine configuration for worker_pool_start: fd (or the simulated
 * drive), buffer alignment, path; whole-round engines keep their files in OUT_DIR/fio, whose
 * name is kept in dir (which must outlive worker_pool_start). */
void run_engine_base(const struct target_info *t, int fd, const char *out_dir, char *dir,
                     size_t dirlen, struct engine_config *base);
/* A round's metrics from every worker of the pool. */
struct worker_pool;
void run_pool_metrics(struct worker_pool *pool, uint64_t sample_ns, double weight,
                      struct round_metrics *m);
/* The same, and (labels not NULL: a run of several jobs) each job of the pool's own figures in
 * m->jobs, labels[j] naming job j (metrics.h). */
void run_pool_job_metrics(struct worker_pool *pool, uint64_t sample_ns, double weight,
                          const char *const *labels, struct round_metrics *m);
/* How wl's writes cover the active range, for the drive state's estimate of what a purged range
 * still holds (drive_state.h, enum ds_cover): sequential NEW, uniform random UNIFORM, zoned and
 * other skewed distributions SKEWED. */
enum ds_cover run_cover_kind(const struct workload *wl);
/* A file target's content record: its active range probed (device/content.h) into the drive
 * state (content extents, never-written bytes times weight). 0, or -1 with err. */
int run_probe_content(int fd, const struct wl_range *range, double weight,
                      struct drive_state *state, char *err, size_t errlen);
/* Layout (core/layout.h): is one due before a workload reads file target t's range, with nothing
 * writing the range first? When the file is created or extended here, a purge punches holes
 * (purge), or its extents show never-written space. A layout writes the file (its never-written
 * parts only), so the safety rules apply as to any write: a file that holds data needs
 * --destructive (safety.h). Other targets: not due. Reads only. 0, or -1 with err. */
int step_layout_due(const struct target_info *t, const struct wl_range *range, bool purge,
                    bool *due, char *err, size_t errlen);
/* A refusal of a run whose only writes would be its layout: err gets what the layout is and how
 * to go without it (--no-layout). */
void step_layout_refused(char *err, size_t errlen);
/* A file target's content into c->state (its extents over range; other targets: nothing), then
 * the layout when due: announced (unless quiet), its record in *json (caller owns; NULL when none
 * was due), the content set again. 0, 1 interrupted, -1 with err. */
int step_layout(const struct run_ctx *c, const struct wl_range *range, bool due,
                const struct workload *wl, bool quiet, struct json_object **json, char *err,
                size_t errlen);
/* mkdir -p. */
int run_make_dir(const char *path, char *err, size_t errlen);


#endif
