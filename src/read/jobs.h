/* jobs.h — a run of several jobs (io/jobset.h) as its results document records it.
 *
 * core/results.c writes, for a run of several jobs only: "jobs" (each job's label, its group,
 * 1-based, and its workload), "groups" (each group's job labels, first and last round, whether
 * its rounds ended, and its steady-state verdict over its own rounds), and in every round its
 * "group" and "jobs" (each job's figures: read, write, total, depth). The round's own figures
 * are then the group's: every job of the group together. A document without "jobs" is a run of
 * one job, read as always.
 *
 * The contract: readers find a run's groups and jobs here, never by walking the document
 * themselves; a group's verdict is never shown as another group's, nor as the run's. */
#ifndef PTSBENCH_READ_JOBS_H
#define PTSBENCH_READ_JOBS_H

#include <stdbool.h>

struct json_object;

struct read_group {
    unsigned group;                 /* 1-based, as recorded and printed */
    unsigned first_round, last_round;   /* 0: not run */
    bool done;
    struct json_object *labels;     /* its jobs' labels (array of strings; the document's) */
    struct json_object *steady;     /* its steady_state (the document's), or NULL */
};

/* Is doc a run of several jobs? */
bool read_run_multi(struct json_object *doc);
unsigned read_run_n_jobs(struct json_object *doc);
unsigned read_run_n_groups(struct json_object *doc);
/* Group g (0-based) into out; false when there is none. */
bool read_run_group(struct json_object *doc, unsigned g, struct read_group *out);
/* The job entry (label, group, workload) with this label, or NULL; job i in file order. */
struct json_object *read_run_job(struct json_object *doc, const char *label);
struct json_object *read_run_job_at(struct json_object *doc, unsigned i);
/* A round's figures of the job with this label, or NULL. */
struct json_object *read_round_job(struct json_object *round, const char *label);

#endif
