/* jobset.h — a workload of several jobs: what a fio job file of many sections describes.
 *
 * A job is one workload (io/workload.h) with its own workers (numjobs), pattern, range and
 * pacing. Jobs of one group run at the same time, each on its own workers, and are measured
 * each on its own and together; groups run one after another, in file order, as fio runs them
 * when a job says stonewall, new_group, wait_for or wait_for_previous (fio's HOWTO, "Job
 * description": a stonewall waits for every job before it to finish, and starts a new
 * reporting group).
 *
 * The contract:
 *   - wl_resolve_jobs() takes what --workload takes: an inline spec, a profile name, a file, or
 *     FILE:SECTION; everything but a fio job file of several jobs gives one job in one group,
 *     exactly as wl_resolve() would. A fio file with several jobs gives each of its job sections
 *     in file order, each complete and validated (wl_validate), with group numbers 0, 1, ...
 *     rising in file order, every group holding at least one job.
 *   - Labels are unique within the set: the section's name, or "NAME#2", "NAME#3" ... for a
 *     later section of the same name (fio runs same-name jobs as distinct jobs).
 *   - Errors: one line naming the file, line and key, as wl_resolve's; nothing is returned
 *     half-filled (js is empty after a failure). */
#ifndef PTSBENCH_JOBSET_H
#define PTSBENCH_JOBSET_H

#include <stddef.h>

#include "io/workload.h"

struct wl_job {
    struct workload wl;
    unsigned group;            /* 0-based; groups run in order */
    char label[80];            /* unique within the set */
};

struct wl_jobset {
    struct wl_job *jobs;       /* n of them, in file order */
    unsigned n;
    unsigned n_groups;
    char source[320];          /* the file (or spec) it came from */
    char note[640];            /* how the file's jobs and groups were taken, when worth saying */
};

/* Resolve SPEC (as wl_resolve) into js. 0, or -1 with one line in err. */
int wl_resolve_jobs(const char *spec, const char *const *profile_dirs, struct wl_jobset *js,
                    char *err, size_t errlen);

/* A fio job file's jobs (section NULL: all of them; else that one job alone). */
int wl_load_fio_jobs(const char *path, const char *section, struct wl_jobset *js, char *err,
                     size_t errlen);

/* The jobs of group g: *first and *count (count 0 when g is out of range). */
void wl_jobset_group(const struct wl_jobset *js, unsigned g, unsigned *first, unsigned *count);

void wl_jobset_free(struct wl_jobset *js);

#endif
