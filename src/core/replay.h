/* replay.h — `ptsbench replay`: a block I/O trace (io/trace.h) issued on a target through one
 * engine instance, as fast as the queue depth allows or at the trace's own times, with what
 * the trace says beside what the replay measured.
 *
 * Modes:
 *   timed   each I/O is issued at its trace time (divided by --speed) from the replay's start,
 *           however many are outstanding (up to the engine's depth); how late each was issued
 *           is measured (lateness: median, 99 %, maximum). The default when the trace has times.
 *   afap    as fast as possible, keeping the queue depth: --qd N outstanding, or the trace's
 *           own (the depth each I/O was issued at, when the trace holds completions: blktrace,
 *           blkparse, a csv with a completion column), else 1.
 * Measured: IOPS, MB/s and latency per direction (the figures object of every results
 * schema), disk-busy time (time with at least one I/O outstanding, AnandTech's measure), the
 * queue depth each I/O was issued at and the time-weighted mean while busy; per pass of the
 * trace (--loop N) and over all. On a simulated drive scaled k times the trace's times are
 * stretched k times and every time measured is divided by k, the way its completions stand
 * for k at full size: the figures are the full-size drive's, the counts the trace's.
 *
 * Safety: a trace that writes needs --destructive on a block device or on a file that holds
 * data, and is refused on mounted, swap, held, root and loop-backing devices (device/safety.h),
 * as every writing command. Results: DIR/results.json, schema ptsbench.replay
 * (reports/results-schema.md), written atomically after every pass. */
#ifndef PTSBENCH_REPLAY_H
#define PTSBENCH_REPLAY_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/metrics.h"
#include "device/hostinfo.h"
#include "device/numa.h"
#include "device/target.h"
#include "engine/engine.h"
#include "io/trace.h"
#include "stats/hist.h"

#define REPLAY_MAX_TRACES 64
#define REPLAY_MAX_DEPTH 1024        /* timed mode's bound on outstanding I/Os */
#define REPLAY_SCHEMA "ptsbench.replay"
#define REPLAY_SCHEMA_VERSION 1

enum replay_mode { REPLAY_MODE_DEFAULT = 0, REPLAY_TIMED, REPLAY_AFAP };

struct replay_config {
    const char *traces[REPLAY_MAX_TRACES];   /* files, or gen:NAME[,scale=X][,seed=N]: a
                                                synthetic trace (io/tracegen.h) */
    unsigned n_traces;
    const char *const *trace_dirs;  /* where gen:NAME's definitions are (traces/) */
    const char *target_path;
    uint64_t create_size;           /* a file target to create or extend */
    const char *engine_name;        /* NULL: io_uring (sim for sim: targets) */
    enum replay_mode mode;
    unsigned qd;                    /* afap: outstanding I/Os (0: the trace's own, else 1);
                                       timed: the bound on outstanding (0: REPLAY_MAX_DEPTH) */
    unsigned loops;                 /* passes of the trace (>= 1) */
    double speed;                   /* timed: the trace's rate times this (default 1) */
    const char *remap;              /* none | wrap | scale; NULL: none when the trace fits the
                                       target, else scale */
    unsigned compress_pct;          /* write data compressibility (default 0: incompressible) */
    const char *out_dir;
    bool force, destructive, overwrite_signatures, quiet;
    bool no_layout;                 /* --no-layout: a trace that reads reads a file target's
                                       never-written space as it is (labelled; layout.h) */
    bool allow_memory;              /* --allow-memory-target: a file on tmpfs/ramfs */
    struct numa_request numa;       /* --numa, --cpus (device/numa.h) */
    char *const *argv;              /* the command line, for the results */
    int argc;
};

/* What one pass (or all of them) measured, on the replay's own clock (full size). */
struct replay_measure {
    uint64_t ios[IO_NDIR], bytes[IO_NDIR];
    struct hist lat[IO_NDIR];       /* ns */
    uint64_t start_ns, end_ns;      /* first issue, last completion */
    uint64_t elapsed_ns;            /* end - start of a pass; the sum over passes for all of
                                       them (the pauses between passes are not replay time) */
    uint64_t busy_ns;               /* time with >= 1 outstanding */
    double qd_time_ns;              /* integral of the outstanding count over time */
    uint64_t qd[TRACE_QD_MAX + 1];  /* I/Os by the outstanding count at their issue (itself
                                       included) */
    struct hist late;               /* timed: issue - scheduled time, ns */
    uint64_t late_n;
    bool by_fio;                    /* fio replayed it: busy time from fio's disk utilisation
                                       (busy_known), no queue depths or lateness of ours */
    bool busy_known;
};

struct replay_session {
    struct replay_config cfg;
    struct trace trace;
    struct trace_stats trace_stats;  /* before remapping: the trace as captured */
    uint64_t trace_extent;
    char remap_used[8];
    uint64_t raised;                 /* I/Os whose length was raised to the sector */
    struct target_info target;
    struct placement place;          /* where the replaying thread runs and ran: worker 0 */
    const struct engine_ops *engine;
    double k;                        /* time scale: the simulated drive's k, else 1 */
    enum replay_mode mode;
    bool trace_qd;                   /* afap at the trace's own depths */
    unsigned depth;                  /* the engine's units */
    char out_dir[4096], results_path[4200];
    struct replay_measure *pass;     /* cfg.loops of them */
    unsigned passes_done;
    struct replay_measure all;
    const char *status;
    char error[512];
    char note[512];                  /* what the results should say about how it was measured */
    char started[32], updated[32];
    struct hostinfo host;            /* collected once, at the start */
    bool layout;                     /* a file target is laid out first (core/layout.h) */
    struct json_object *layout_json; /* its record */
    struct drive_state state;        /* what the target holds (drive_state.h: content) before
                                        the first pass */
};

/* Everything that can be checked without writing: the traces read, the target probed and its
 * safety decided, the engine chosen, the offsets fitted to the target, the output directory
 * named. 0, or -1 with one line (exit 2: nothing written). */
int replay_prepare(const struct replay_config *c, const char *const *profile_dirs,
                   struct replay_session *s, char *err, size_t errlen);
/* Run the passes, writing DIR/results.json after each. The exit code (util.h EXIT_*). */
int replay_execute(struct replay_session *s, volatile sig_atomic_t *stop);
/* The plan, as a replay prints it at its start (the trace, the target, the mode, the time
 * bound); and for --dry-run what it would create and write (nothing is). */
void replay_print_plan(const struct replay_session *s);
void replay_print_dry_run(const struct replay_session *s);
void replay_session_free(struct replay_session *s);

/* Figures of a measurement (the figures object's directions), weight 1. */
void replay_metrics(const struct replay_measure *m, struct round_metrics *out);

#endif
