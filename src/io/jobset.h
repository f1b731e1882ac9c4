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
 *     half-filled (js is empty after a failure).
 *   - A fio file is read as fio reads it (io/fio_parse.h): each job gets fio's defaults, then
 *     the [global] sections before it in file order, then its own lines. Groups: a job with
 *     stonewall (wait_for_previous) or wait_for=NAME starts a new group (wait_for: after the
 *     whole group holding NAME, said in the set's note); new_group is fio's reporting only
 *     (its jobs still run at once in fio), said in the note. FILE:SECTION is one job, the
 *     globals before it applied (the first section of that name).
 *   - wl_fio_verdicts() (for `ptsbench workload`) reads every job and key and says how each
 *     line is taken, all refusals at once, instead of stopping at the first. */
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

/* How a line of a fio file is taken. */
enum wl_take { WL_TAKE_HONOURED, WL_TAKE_NOTED, WL_TAKE_REFUSED };
struct wl_verdict {
    char key[64];
    char value[256];           /* as written ("" for a flag) */
    char where[320];           /* FILE:LINE */
    char section[80];          /* the section holding the line */
    enum wl_take take;
    char why[640];             /* the note, or the refusal (empty when honoured) */
};
struct wl_verdicts {
    struct wl_verdict *v;      /* one per line of the file, in file order; then job refusals */
    unsigned n;
    unsigned refused;
};

/* Every job of the fio file path (section NULL: all) into js, and every line's verdict into
 * out. 0 when the file would run (js filled), 1 when some line or job is refused (out says
 * which; js holds the jobs as far as they were taken, for showing only: never run it), -1 when
 * the file cannot be read as fio reads it (err; js empty). */
int wl_fio_verdicts(const char *path, const char *section, struct wl_jobset *js,
                    struct wl_verdicts *out, char *err, size_t errlen);
void wl_verdicts_free(struct wl_verdicts *v);
/* One verdict into out (a line said once: a [global]'s line counts for its first job). */
void wl_verdict_add(struct wl_verdicts *out, const char *key, const char *value,
                    const char *where, const char *section, enum wl_take take,
                    const char *why);

/* Job section idx of a parsed fio file into wl, as wl_load_fio promises (workload.h): fio's
 * defaults, the [global]s before it, its lines. out NULL: stop at the first refusal (err);
 * else every line's verdict into out, and -1 when any was refused. (io/workload.c) */
struct fio_doc;
int wl_fio_job(const struct fio_doc *d, size_t idx, struct workload *wl,
               struct wl_verdicts *out, char *err, size_t errlen);

/* The jobs of group g: *first and *count (count 0 when g is out of range). */
void wl_jobset_group(const struct wl_jobset *js, unsigned g, unsigned *first, unsigned *count);

void wl_jobset_free(struct wl_jobset *js);

#endif
