/* profile_run.h — run workload profiles as a matrix of points on one target.
 *
 * `ptsbench profile database webserver --compress 0,90 --workers 1,4 --qd 1,2,4,...` runs
 * every workload of every profile (profile.h) at every combination of data compressibility,
 * worker count and queue depth per worker, the way the reviews do: StorageReview measures its
 * server profiles "in steady state with 0% and 90% compressibility" at 1 and 4 workers, and
 * sweeps queue depth to show where a drive saturates.
 *
 * Preparation (--precondition, else the workload's own `precondition` key, else steady), per
 * workload and compressibility, before its points:
 *   steady  WIPC (the active range written twice with 128 KiB sequential writes of that
 *           compressibility, so reads read real data of that kind and the FTL is full);
 *           then, for a workload that writes, WDPC: its first point's stimulus runs in
 *           rounds that are recorded but not judged until it has written at least
 *           wdpc_fills (1) x the active range and the fill guard passes (steady.h: every
 *           5-round average over the last fill within 5% of the latest window's), or it has
 *           written wdpc_max_fills (5): a drive fresh from WIPC answers random writes from its
 *           spare area at burst speed and then goes through a transient of one to three
 *           fills, and a 5-round window would pass inside either;
 *           then every point runs rounds of its own stimulus until its tracked metric is in
 *           SNIA steady state (5-round window, 20% range, 10% slope; at most --rounds, 25)
 *           and, for the first point, the fill guard holds; it reports the window's average.
 *           The group's later points (other workers / QD of the same workload and data)
 *           inherit its WDPC: the equilibrium of the FTL depends on where and what is written,
 *           not on how many workers write it (UNCERTAIN for drives whose background work
 *           depends on the queue depth).
 *   wipc    the same WIPC, then each point runs a fixed number of rounds (--rounds, 1) and
 *           reports their average.
 *   none    nothing is written first: fresh-out-of-box / burst figures on the drive as it is
 *           (a purge before, --purge, makes that state known).
 *   fast    (--precondition fast[:RHO], --op; profile_config.fast) steady with core/fastprep.h's
 *           pass in WIPC's place, recorded per group ("fast" beside "wipc"); the WDPC and the
 *           guard follow, its lag shortened only for a random-writing stimulus (the pass models
 *           uniform random writes); a read-only group reads the drive as the pass left it.
 * The effective queue depth (workers x QD) is recorded with every point, and each series of
 * queue depths (one workload, compressibility and worker count) gets its saturation point
 * (saturation.h). Results: schema "ptsbench.profile" (reports/results-schema.md), rewritten
 * atomically as rounds complete.
 *
 * --resume (profile_config.resume): a simulated drive's state does not outlive its process, so
 * the profile runs again from its start, the points it had completed reproduced (checked against
 * the file) and not printed; on a real target the completed points are kept from the file and the
 * interrupted group is prepared again (WIPC, and WDPC by its next writing point) before its
 * interrupted point runs again, or, with resume_as_is, goes on without (its WDPC inherited, the
 * gap noted).
 *
 * A workload's ramp_time runs before each of its points' first round, not recorded (what it
 * writes counts for the drive's state).
 *
 * --time-limit (profile_config.time_limit_ns): a total for the measuring rounds. The plan cuts
 * each point's round limit so that every point's rounds fit (at least one round each; WIPC and
 * WDPC are not counted, as their length depends on the drive) and prints what it cut; while
 * running, no round starts once the measured time has reached the limit, and the points left
 * are recorded as cut ("status": "cut"). The document's "time_limit" records the limit, the
 * rounds before and after the cut and whether anything was cut; a cut steady point that did
 * not reach its window is labelled not steady, as any point that ran out of rounds. */
#ifndef PTSBENCH_PROFILE_RUN_H
#define PTSBENCH_PROFILE_RUN_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/fastprep.h"
#include "device/numa.h"
#include "device/purge.h"

struct json_object;
#include "io/workload.h"

#define PROFILE_MAX_SPECS 32

struct profile_config {
    const char *const *profile_dirs;  /* where profiles and presets (devices/) are */
    const char *target_path;
    uint64_t create_size;             /* --size: create or extend a file target */
    bool destructive;
    bool overwrite_signatures;        /* --overwrite-signatures */
    bool allow_memory;                /* --allow-memory-target: a file on tmpfs/ramfs */
    const char *engine_name;          /* NULL: io_uring, or sim for sim: targets */
    const char *specs[PROFILE_MAX_SPECS];
    unsigned n_specs;
    struct wl_sweep compress, workers, qd;   /* n = 0: each workload's sweep, else its value */
    enum wl_precondition precondition;       /* DEFAULT: the workload's key, else steady */
    struct fast_request fast;                /* --precondition fast: steady groups get the
                                                fast pass in WIPC's place (above) */
    enum purge_method purge;                 /* once, before everything (default none) */
    uint64_t round_time_ns;           /* 0: the workload's runtime, else 60 s */
    unsigned max_rounds;              /* 0: 25 for steady, 1 for a fixed measurement */
    const char *track;                /* steady-state metric (metrics.h), default iops */
    double wdpc_fills;                /* steady: WDPC writes at least this x the active range;
                                         negative: the default, 1 */
    double wdpc_max_fills;            /* steady: ... and at most this (0: the default, 5) */
    const char *out_dir;              /* NULL: results/profile-<timestamp> */
    bool force;
    bool quiet;
    struct json_object *resume;       /* --resume: the stopped profile's results (not owned) */
    bool resume_as_is;                /* --resume-as-is: no WIPC / WDPC again after the gap */
    bool no_layout;                   /* --no-layout: reading points read a file target's
                                         never-written space as it is (labelled; layout.h) */
    struct numa_request numa;         /* --numa, --cpus (device/numa.h) */
    uint64_t time_limit_ns;           /* --time-limit: 0 none; else the measuring rounds are
                                         cut to fit (profile_print_plan says how), and no round
                                         starts past it (virtual time on a simulated drive) */
    bool own_table;                   /* the caller prints its own table (ptsbench quick) */
    const char *mark;                 /* the document's "mark" ("quick"), or NULL; it names the
                                         default results folder (results/quick-<timestamp>) */
    int argc;
    char **argv;
};

void profile_config_init(struct profile_config *cfg);

struct profile_session;

/* Load the profiles, probe the target, check every point against it and the safety rules,
 * plan. No writes. Returns NULL with one line in err. */
struct profile_session *profile_prepare(const struct profile_config *cfg, char *err,
                                        size_t errlen);
void profile_print_plan(const struct profile_session *s);
/* Run; returns an exit code (EXIT_OK, EXIT_FAILURE_RUN, EXIT_INTERRUPTED). */
int profile_execute(struct profile_session *s, volatile sig_atomic_t *stop);
void profile_session_free(struct profile_session *s);
/* The results file the session writes (OUT/results.json). */
const char *profile_results_path(const struct profile_session *s);
/* --dry-run, after the plan: what the profile would create and write (steps.h
 * run_print_dry_run); nothing is. */
void profile_print_dry_run(const struct profile_session *s);

#endif
