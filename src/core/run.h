/* run.h — a measured run: a workload on a target for rounds, with steady-state tracking.
 *
 * run_prepare() checks everything (workload, target geometry, active range, safety, output
 * directory) without writing anything; run_execute() then creates what it must (a file target,
 * the output directory), starts the workers and runs the rounds, writing the results file
 * atomically after every round.
 *
 * Several jobs (a fio file of several sections, io/jobset.h): every job is checked as one would
 * be; purge and preconditioning run once, before the first group; then each group runs on a
 * pool of its jobs (worker_pool_start_jobs) for the run's rounds, with its ramp, and is judged
 * on its own rounds only; the drive's state carries over from group to group. Every round
 * records its group and each job's figures (metrics.h), the results each group's verdict. */
#ifndef PTSBENCH_RUN_H
#define PTSBENCH_RUN_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/drive_state.h"
#include "core/metrics.h"
#include "core/precondition.h"
#include "device/health.h"
#include "device/hostinfo.h"
#include "device/numa.h"
#include "device/purge.h"
#include "device/safety.h"
#include "device/target.h"
#include "engine/engine.h"
#include "io/jobset.h"
#include "io/workload.h"
#include "stats/steady.h"

/* run_config's wdpc_min_fills before run_start: not given by the user. */
#define RUN_WDPC_FILLS_DEFAULT (-1.0)

struct run_config {
    const char *target_path;
    uint64_t create_size;        /* --size: create/extend a file target */
    bool destructive;            /* --destructive: writes to block devices allowed */
    bool overwrite_signatures;   /* --overwrite-signatures: ... even over a filesystem etc. */
    bool allow_memory;           /* --allow-memory-target: a file on tmpfs/ramfs (memory) */
    const char *engine_name;     /* NULL: io_uring, or sim for sim: targets; libaio */
    const char *out_dir;         /* NULL: results/run-<timestamp> */
    bool force;                  /* overwrite an existing results.json in out_dir */
    unsigned max_rounds;
    uint64_t round_time_ns;      /* 0: from workload, else 60 s */
    uint64_t round_bytes;        /* 0: from workload */
    uint64_t sample_ns;          /* per-second samples */
    const char *track;           /* tracking variable for steady state */
    const char *remotes[64];     /* --remote HOST[:PORT] (fio engine, client/server mode) */
    unsigned n_remotes;
    bool stop_at_steady;         /* stop at the first window that is steady (or, without the
                                    preconditioning that steady state needs, stable) */
    bool quiet;
    enum purge_method purge;     /* --purge: PURGE_NONE (default), or before the preconditioning */
    enum wl_precondition precondition;   /* DEFAULT/NONE: none; WIPC; STEADY: WIPC + WDPC */
    bool fast_pass;              /* --precondition fast (PROTOTYPE, issue 48; simulated drive
                                    only): STEADY with core/fastpass.h's pass instead of WIPC */
    double fast_rho;             /* --precondition fast:RHO: the spare factor the pass is built
                                    for (0: the simulator's rho_eff) */
    double op_rho;               /* --op PCT|RHO: the drive's spare factor (0: not given); the
                                    same as fast:RHO (drive_state.h ds_op_choose) */
    double wdpc_min_fills;       /* STEADY: the stimulus writes at least this x the range
                                    (RUN_WDPC_FILLS_DEFAULT: not given, PRECOND_WDPC_MIN_FILLS
                                    and lowered after a fast pass: core/fastprep.h) */
    double wdpc_max_fills;       /* ... and at most this before its rounds are measured */
    struct steady_criteria criteria;
    struct steady_guard guard;   /* the fill guard (steady.h) for STEADY with writes */
    struct json_object *resume;  /* --resume: the stopped run's results document (not owned) */
    bool resume_as_is;           /* --resume-as-is: no preconditioning again after the gap */
    bool no_layout;              /* --no-layout: a reading workload reads a file target's
                                    never-written space as it is (labelled; core/layout.h) */
    struct numa_request numa;    /* --numa, --cpus (device/numa.h) */
    bool match_native;           /* whole-round engines: the native engine's submission
                                    choices on this target (crosscheck) */
    uint64_t time_limit_ns;      /* --time-limit: 0 none; else timed rounds are cut to fit (the
                                    plan says so) and no round starts once the ramp and rounds
                                    have taken it (the engine's clock: virtual on the sim) */
    int argc;
    char **argv;
};

/* Serialised rounds, kept by results.c between writes. */
struct results_cache {
    char **text;
    size_t *len;
    unsigned n;
    uint64_t last_sync_ns;
};

/* One group of a run's jobs (io/jobset.h): its jobs run at once; groups run one after another,
 * each for the run's rounds, with its own steady-state verdict over its own rounds only. */
struct run_group {
    unsigned first_job, n_jobs;  /* the jobset's jobs first_job .. first_job + n_jobs - 1 */
    unsigned first_round, last_round;   /* its rounds in the run's counting; 0: none yet */
    unsigned measured;
    unsigned steady_round;
    struct steady_window steady;
    struct steady_guard_result guard;
    struct ds_verdict verdict;
    struct steady_window last_window;
    struct ds_verdict last_verdict;
    bool done;                   /* its rounds ended */
    struct json_object *steady_json;   /* --resume: a group that had ended: its recorded
                                          verdict (owned), written as it was */
};

struct run_record {
    struct run_config cfg;
    char out_dir[4096];
    char results_path[4200];
    struct hostinfo host;
    struct target_info target;
    struct placement place;      /* where the workers run and ran (target.place points here) */
    struct workload wl;          /* one job: its workload; several: the current group's first
                                    job's (what applies to the whole run: the target, the round
                                    length, the preconditioning's data) */
    struct wl_range range;       /* one job: its range; several: the span of every job's */
    /* the run's jobs (always at least one) and groups; ranges[j] is job j's active range */
    struct wl_jobset jobs;
    struct wl_range *ranges;
    struct run_group *groups;
    unsigned group;              /* the group running (or that ran last) */
    unsigned resume_group;       /* --resume: the group the stopped run stopped in */
    const struct engine_ops *engine;
    char started[32];
    char updated[32];
    const char *status;          /* "running", "complete", "interrupted", "failed" */
    struct round_metrics *rounds;   /* every round: WDPC rounds first, then the measured ones */
    unsigned n_rounds;
    enum ds_prep prep;           /* how the drive is prepared (from cfg.precondition) */
    bool wdpc;                   /* STEADY and the workload writes: WDPC rounds come first */
    struct drive_state state;    /* the drive's state now */
    struct precond_track track;  /* the tracked variable and the stimulus's fills per round */
    double stimulus_bytes;       /* written by the stimulus (every round of it) */
    unsigned first_measure;      /* the first measured round (1 without WDPC rounds) */
    unsigned measured;           /* measured rounds so far */
    bool unwritten;              /* the last round could not be written to the results */
    const char *wdpc_end;        /* NULL: WDPC running or none; "guard", "max_fills" */
    unsigned steady_round;       /* round whose window is reported (steady or stable); 0: none */
    struct steady_window steady; /* that window, or the last one evaluated */
    struct steady_guard_result guard;   /* the fill guard for that window */
    struct ds_verdict verdict;   /* what the window may be called */
    /* --all-rounds past the reported window: the last 5 measured rounds and their verdict
     * (a write-saturation run's plateau), when last_window.last_round is set */
    struct steady_window last_window;
    struct ds_verdict last_verdict;
    /* --resume: a simulated drive is replayed (its state does not outlive the process: the
     * rounds before are run again, checked against the file and not printed); a real one keeps
     * the recorded rounds, is preconditioned again (unless as-is) and measures on */
    bool replay;
    unsigned resumed_rounds;     /* rounds the stopped run had completed */
    unsigned window_floor;       /* no steady-state window may start before this round */
    unsigned ss_floor;           /* nor before this one: a fio job's ss_ramp (core/fio_ss.h) */
    struct json_object *wipc_json;   /* the WIPC record (steps.h; a resumed run's, when not redone) */
    struct json_object *fast_json;   /* the fast pass's record (results_fast_json), in WIPC's place */
    enum ds_ftl ftl;             /* what is known of the target's FTL (drive_state.h) */
    struct ds_op op;             /* DS_PREP_FAST: the spare factor of the pass and its source */
    bool wdpc_fills_given;       /* --wdpc-fills given (not RUN_WDPC_FILLS_DEFAULT) */
    bool fast_map_off;           /* DS_PREP_FAST: the stimulus's random map turned off (run.c) */
    struct json_object *purge_json;  /* the purge record, likewise */
    struct json_object *layout_json; /* the layout record (core/layout.h), when one was due */
    bool layout;                 /* a file target read by the workload is laid out first */
    struct json_object *resumed;     /* the document's "resumed" array (owned) */
    double weight;               /* completions' weight: k for a scaled simulated drive, else 1 */
    struct sim_stats sim_last;   /* simulated drive counters at the end of the last round */
    /* the drive's health and lifetime counters (device/health.h) before the first write of the
     * run and after its last round; the results' "health" object */
    struct health_snapshot health_before, health_after;
    bool health_taken, health_done;
    struct results_cache cache;
    /* --time-limit: the round limit before the plan's cut (0: not cut), the time the ramp and
     * rounds have taken, and whether the limit stopped the rounds */
    unsigned rounds_uncut;
    double spent_s;
    bool limit_hit;
    char error[512];
};

/* Does any of the run's jobs write? */
bool run_writes(const struct run_record *rec);

/* Fill cfg with defaults. */
void run_config_init(struct run_config *cfg);

/* Validate and resolve: returns 0, or -1 with one line in err (exit code 2, nothing written).
 * workload_spec as given to --workload; profile_dirs NULL-terminated. */
int run_prepare(struct run_record *rec, const struct run_config *cfg, const char *workload_spec,
                const char *const *profile_dirs, char *err, size_t errlen);

/* The plan, as a run prints it at its start: workload, target, engine, drive preparation,
 * rounds, the time bound ("up to 25 rounds of 60 s: at most 25 min, plus ..."), results. */
void run_print_plan(const struct run_record *rec);

/* Run it. Returns an exit code (EXIT_OK, EXIT_FAILURE_RUN, EXIT_INTERRUPTED) and prints
 * progress and a summary. `stop` is set by the signal handler. */
int run_execute(struct run_record *rec, volatile sig_atomic_t *stop);

void run_record_free(struct run_record *rec);

#include "core/steps.h"   /* the steps run shares with suite, profile and crosscheck */

#endif
