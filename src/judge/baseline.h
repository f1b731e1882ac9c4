/* baseline.h — gate --update-baseline: replacing a CI baseline with the current results, as a
 * file or as a whole directory of results.json files, atomically and only inside what is a
 * baseline (a directory holding anything else is refused). */
#ifndef PTSBENCH_BASELINE_H
#define PTSBENCH_BASELINE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

struct gate_baseline_plan {
    bool dir;                  /* current is a directory */
    char dest[PATH_MAX];       /* the file or directory to replace */
    bool dest_exists;
};

/* Checked before the gate runs, so that a bad destination is a usage error: cur (the current
 * results, a file or a directory) and path (the baseline to replace). 0, or -1 with one line. */
int gate_baseline_plan(const char *cur, const char *path, struct gate_baseline_plan *u, char *err,
                       size_t errlen);
/* Copy cur over the planned baseline: a file atomically; a directory's results.json files to a
 * staged copy swapped in whole. *n_files: how many were copied. 0, or -1 with one line. */
int gate_baseline_update(const char *cur, const struct gate_baseline_plan *u, size_t *n_files,
                           char *err, size_t errlen);

#endif
