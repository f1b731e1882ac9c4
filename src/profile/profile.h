/* profile.h — a workload profile: a file of one or more workloads that `ptsbench profile` runs.
 *
 * A profile is an INI file in a "profiles" data directory (profiles/database.ini), in the
 * workload syntax of workload.h. Each section other than [global] is one workload of the
 * profile ([global] keys apply to every section first); a file with only [global] keys is one
 * workload named after the file. The profile keys of workload.h (sweep_qd, sweep_workers,
 * sweep_compress, precondition) say how the profile runner sweeps and prepares each workload.
 *
 * Specs: NAME (profiles/NAME.ini in the data directories), NAME:SECTION (one workload of it),
 * FILE.ini or FILE.ini:SECTION (a file anywhere). */
#ifndef PTSBENCH_PROFILE_H
#define PTSBENCH_PROFILE_H

#include <stddef.h>

#include "io/workload.h"

struct profile {
    char name[64];             /* file name without directory and ".ini" */
    char path[4096];
    char description[160];     /* the first workload's description */
    struct workload *wls;
    unsigned n;
};

/* Load a profile (all its workloads, or the one section named). Returns 0, or -1 with one line
 * naming the spec, the file and line, or the directories searched. */
int profile_load(const char *spec, const char *const *dirs, struct profile *out, char *err,
                 size_t errlen);
void profile_free(struct profile *p);

/* Names of the profiles (NAME.ini) in the data directories, sorted, first directory winning
 * for a name found twice. Returns how many were stored (at most max). */
unsigned profile_list(const char *const *dirs, char (*names)[64], unsigned max);

#endif
