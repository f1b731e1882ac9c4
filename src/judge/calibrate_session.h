/* calibrate_session.h — `ptsbench sim --calibration` below the command line: find and load
 * PRESET's calibration sheet (calibrate.h) with the command's overrides checked, run its
 * commands on the preset, judge every row and print the table (and --json). */
#ifndef PTSBENCH_CALIBRATE_SESSION_H
#define PTSBENCH_CALIBRATE_SESSION_H

#include <signal.h>

#include "judge/calibrate.h"

struct calib_config {
    const char *spec;                  /* PRESET[,key=value...], "sim:" prefix allowed */
    const char *keep;                  /* keep the commands' results in this directory (made
                                          when missing); NULL: a temporary one, removed */
    const char *json;                  /* the table as JSON in this file, or NULL */
    unsigned jobs;                     /* commands at a time; 0: the online CPUs, at most 8 */
    const char *const *preset_dirs;    /* where presets are (profiles/devices), NULL-ended */
    const char *const *sheet_dirs;     /* where sheets are (profiles/devices/calibration) */
    volatile sig_atomic_t *stop;       /* set by the signal handler */
};

struct calib_session {
    struct calib_config cfg;
    char preset[64];                   /* PRESET as given: the sheet's file name */
    struct calib_sheet sheet;
};

/* Parse the spec, check its overrides (sim_target_parse: one line naming the bad key or
 * value), find PRESET.ini in the sheet directories and load it; nothing is run or written.
 * 0, or -1 with one line in err (exit 2). The session is freed on failure. */
int calib_session_prepare(struct calib_session *s, const struct calib_config *cfg, char *err,
                          size_t errlen);
/* Make the results directory, run the sheet's commands (this program, /proc/self/exe), load
 * each command's points, judge, print the table to stdout (progress to stderr) and write
 * --json; a temporary directory is removed. Each failure is one line "ptsbench sim: ..." on
 * stderr. Returns the exit status: 0 every represented row without a gap within tolerance;
 * 1 a command failed, a row is outside, --json not written, a directory not made; 130
 * interrupted; 2 --keep not made. */
int calib_session_execute(struct calib_session *s);
void calib_session_free(struct calib_session *s);

#endif
