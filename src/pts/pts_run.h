/* pts_run.h — run SNIA PTS tests (definitions from pts_def.h) on one target, as a suite.
 *
 * The target is opened once; each test purges it (--purge), preconditions it (WIPC), and runs
 * its rounds of elements, each element a workload run by the worker pool (so every engine,
 * including the simulated drive's virtual time, runs the PTS). Results (schema
 * "ptsbench.suite", reports/results-schema.md) are rewritten atomically as rounds complete. */
#ifndef PTSBENCH_PTS_RUN_H
#define PTSBENCH_PTS_RUN_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/fastprep.h"
#include "device/numa.h"
#include "device/purge.h"

struct pts_config {
    const char *const *pts_dirs;       /* where PTS definitions are looked for (cli_data_dirs) */
    const char *const *profile_dirs;   /* where profiles and presets (devices/) are */
    const char *target_path;
    uint64_t create_size;          /* --size: create or extend a file target (as run's) */
    bool destructive;
    bool overwrite_signatures;     /* --overwrite-signatures */
    bool allow_memory;             /* --allow-memory-target: a file on tmpfs/ramfs */
    const char *engine_name;       /* NULL: io_uring, or sim for simulated targets */
    const char *spec_name;         /* pts-e-1.1 | pts-c-1.2 | pts-2.0-e | pts-2.0-c */
    const char *tests;             /* comma-separated test names */
    const char *out_dir;           /* NULL: results/suite-<timestamp> */
    bool force;
    enum purge_method purge;
    uint64_t round_time_ns;        /* element length override (0: the definitions' 60 s) */
    unsigned threads, qd;          /* outstanding I/O override (0: the spec's) */
    unsigned max_rounds;           /* override of the 25-round limit (0: the definitions') */
    double wsat_capacity;          /* WSAT stop: x user capacity (0: the definition's) */
    uint64_t wsat_time_ns;         /* WSAT stop: time (0: the definition's) */
    double time_scale;             /* every definition duration x this (0 or 1: as defined) */
    uint64_t time_limit_ns;        /* --time-limit: the plan cuts the round-limited tests' rounds
                                      so that their bound fits (0: none; pts_print_plan says) */
    bool quiet;
    struct json_object *resume;    /* --resume: the stopped suite's results (not owned) */
    bool resume_as_is;             /* --resume-as-is: an interrupted test goes on where it was */
    struct numa_request numa;      /* --numa, --cpus (device/numa.h) */
    struct fast_request fast;      /* --precondition fast: the fast pass in WIPC's place in the
                                      tests whose definitions allow it (fast_precondition), the
                                      others refused before anything is written */
    int argc;
    char **argv;
};

/* --resume (pts_config.resume): on a simulated drive (its state does not outlive the process)
 * the suite runs again from its start, the tests it had completed reproduced (checked against the
 * file) and not printed. On a real target the completed tests are kept from the file; the
 * interrupted test runs again from its start (purge, WIPC), except WSAT, which goes on after its
 * last complete round with its byte count (a purge would undo the writes it counts), and, with
 * resume_as_is, a test of the standard kind (IOPS, TP, LAT), which goes on likewise without its
 * preparation again; the gap is a compliance note. */
struct json_object;
struct pts_session;

/* Validate everything and plan (no writes). Returns NULL with one line in err. */
struct pts_session *pts_prepare(const struct pts_config *cfg, char *err, size_t errlen);
/* Print the plan and its estimated duration. */
void pts_print_plan(const struct pts_session *s);
/* Run; returns an exit code (EXIT_OK, EXIT_FAILURE_RUN, EXIT_INTERRUPTED). */
int pts_execute(struct pts_session *s, volatile sig_atomic_t *stop);
void pts_free(struct pts_session *s);

#endif
