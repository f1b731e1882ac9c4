/* workload_view.h — how a workload will be run, for people and for scripts (`ptsbench
 * workload`): per group and job the label, workers, iodepth, pattern (rw, read share, random
 * share, distribution), block sizes, range, pacing, round and note; then, for a fio file, every
 * line with FILE:LINE, [section], key=value as written and how it is taken (honoured, noted:
 * the note, refused: why), one line each. Figures through units_format_figure / units_format_size.
 * JSON: schema "ptsbench.workload" {spec, runs, groups, note, jobs[], keys[]}. */
#ifndef PTSBENCH_WORKLOAD_VIEW_H
#define PTSBENCH_WORKLOAD_VIEW_H

#include <stdio.h>

#include "io/jobset.h"

/* v may be NULL (not a fio file: no key lines). */
void show_workload(FILE *out, const struct wl_jobset *js, const struct wl_verdicts *v);
void show_workload_json(FILE *out, const struct wl_jobset *js, const struct wl_verdicts *v,
                        const char *spec);

#endif
