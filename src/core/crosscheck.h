/* crosscheck.h — `ptsbench crosscheck`: the same workload on a native engine and on fio,
 * alternating, side by side with the ratio per metric.
 *
 * Each run is an ordinary run of one round (its own results in OUT/ENGINE-N/, fio's job file and
 * JSON in OUT/fio-N/fio/), so anything that differs between the engines is in the files. Runs
 * alternate (native, fio, native, fio, ...) so that a drive's drift (its state, temperature,
 * background work) falls on both engines alike; the table shows each engine's mean over its
 * runs and fio / native, and OUT/results.json (schema ptsbench.crosscheck) holds both.
 *
 * Like with like: the fio runs make the submission choices the native engine makes on the
 * target where fio has an option for them (run_config.match_native: force_async=N where
 * io_uring marks I/O async on a target without nowait I/O, iodepth_batch_submit and
 * iodepth_batch_complete_max as the native loop batches); every choice, matched or not (how
 * the engines wait for completions, the submitting thread's slice), is printed under the
 * table and kept in results.json's "choices" ({choice, native, fio, matched}), read from the
 * job file fio ran. docs/workloads.md, "Crosscheck: like with like". */
#ifndef PTSBENCH_CROSSCHECK_H
#define PTSBENCH_CROSSCHECK_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

#include "core/run.h"

#define CROSSCHECK_MAX_REPEAT 20

struct crosscheck_config {
    struct run_config base;            /* target, round time, flags: as for one run */
    const char *workload;              /* the workload spec */
    const char *native, *fio;          /* "io_uring" | "libaio"; "fio" | "fio-libaio" */
    const char *out;                   /* NULL: results/crosscheck-STAMP */
    unsigned repeat;                   /* runs per engine, 1..CROSSCHECK_MAX_REPEAT */
    bool quiet;
    const char *const *profile_dirs;
};

struct crosscheck;
/* Check both engines' runs (nothing written). NULL with one line in err: bad input. */
struct crosscheck *crosscheck_prepare(const struct crosscheck_config *cfg, char *err,
                                      size_t errlen);
/* Run, print the table, write the results. Returns the exit code (EXIT_OK, EXIT_FAILURE_RUN,
 * EXIT_INTERRUPTED). */
int crosscheck_execute(struct crosscheck *x, volatile sig_atomic_t *stop);
void crosscheck_free(struct crosscheck *x);
/* The plan (the workload, the target, the engines, the time bound, the results); with dry_run
 * also what the runs would create and write (nothing is). */
void crosscheck_print_plan(const struct crosscheck *x, bool dry_run);

#endif
