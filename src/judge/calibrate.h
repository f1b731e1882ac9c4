/* calibrate.h — how far to trust a simulated-drive preset: every figure a review published of
 * the drive, the ptsbench command that measures it on the preset, and the two side by side.
 *
 * A calibration sheet is profiles/devices/calibration/PRESET.ini. Before the first row:
 *   preset = zdrive-6300-1.6t      the preset it calibrates (sim:PRESET)
 *   device, source, ...            as a spec sheet (docs/spec-sheets.md)
 * Every section is one published figure. Its conditions are a spec sheet's claim
 * (docs/spec-sheets.md: metric, value, unit, bs, pattern, read_pct, qd, threads, compress,
 * state, assumed, source, note), and the calibration adds:
 *   figure      = what the review published, in words ("PTS IOPS test, 4 KiB random write")
 *   command     = the ptsbench command that measures it, without the program name and without
 *                 --target, --out and --quiet (the runner adds them): "run-test lat",
 *                 "profile database --workers 1,4 --compress 0,90". Words are split at
 *                 spaces; no quoting.
 *   span        = the part of the drive the review measured over, for people ("5 GiB")
 *   point       = optional: only measured points whose key matches this fnmatch pattern
 *                 ("suite/hir/wait=5", "profile/qd-ramp-4k-read/" and a star)
 *   pick        = optional, "max": the largest figure among the points that meet the
 *                 conditions (a review's peak of a ramp), instead of verify's one best point
 *   tolerance   = the allowed |measured / published - 1| (default 15%; 25% for 99.9%,
 *                 99.99% and maximum latencies)
 *   represented = no, with why = ...: the model cannot represent the figure (a private
 *                 trace); the row is listed, not measured. Its conditions may be partial.
 *   gap         = ...: the model is meant to represent the figure but does not reach it
 *                 yet; said in the table, and the test does not require it.
 * The runner measures each distinct command once, on sim:PRESET, and judges every row against
 * the points of its own command's results (measure.h, with HIR's wait states): the claim's
 * conditions select the point exactly as verify does (verify_check), and the verdict is
 * two-sided, since a model that is too fast is as wrong as one that is too slow. */
#ifndef PTSBENCH_CALIBRATE_H
#define PTSBENCH_CALIBRATE_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "read/measure.h"
#include "judge/verify.h"

#define CALIB_TOLERANCE 0.15
#define CALIB_TOLERANCE_TAIL 0.25

struct calib_row {
    char name[64];             /* the section */
    int line;
    char figure[256];
    char command[512];
    char span[64];
    char point[128];           /* "" = every point of the command */
    bool pick_max;
    double tolerance;          /* fraction */
    bool represented;
    char why[1024];            /* represented = no */
    char gap[1024];            /* "" = none */
    char value_text[64];       /* as published ("708K"), with its unit */
    char unit_text[32];
    const struct verify_claim *claim;   /* represented rows: their conditions */
    /* after calib_judge */
    int cmd;                   /* index into the sheet's commands, -1 none */
    bool judged;               /* a comparable point was found */
    double published, measured;   /* in the claim's unit */
    double ratio;              /* measured / published; NAN without a point */
    bool within;
    char point_label[256];     /* the measured point, for people */
    char reason[512];          /* why there is no figure: no comparable point, command failed */
    uint64_t short_of;         /* not judged: the command's points hold too few I/Os for the
                                  percentile (the tail rule, verify's VERIFY_WHY_TAIL): their
                                  count; neither within nor failing */
};

struct calib_cmd {
    char text[512];
    char dir[4096];            /* its results directory */
    int status;                /* exit status; -1 not run */
    double wall_s;
    char err[512];             /* the first line it wrote to stderr, when it failed */
};

struct calib_sheet {
    char path[4096];
    char preset[64];
    char overrides[512];       /* "key=value,..." applied after the preset ("" none): the
                                  commands run on sim:PRESET,OVERRIDES (a what-if) */
    char device[256];
    char source[1024];
    struct verify_sheet vs;    /* the represented rows' claims */
    struct calib_row *r;
    size_t n;
    struct calib_cmd *cmd;
    size_t ncmd;
};

/* Load and check a sheet. 0, or -1 with "path:line: [section] ...: why". */
int calib_load(const char *path, struct calib_sheet *out, char *err, size_t errlen);
void calib_free(struct calib_sheet *s);

/* Run every command of the sheet on sim:PRESET with exe (this ptsbench), jobs at a time, each
 * into dir/cNN (dir must exist); progress lines to `progress` (NULL: none). A command that
 * fails is recorded in its calib_cmd, not an error. Returns 0, or -1 (could not start one;
 * interrupted: *stop set) with one line. */
int calib_run(struct calib_sheet *s, const char *exe, const char *dir, unsigned jobs,
              volatile sig_atomic_t *stop, FILE *progress, char *err, size_t errlen);

/* Judge every represented row against its command's measured points (sets[i]: the points of
 * command i, NULL when it failed or did not run). Pure. */
void calib_judge(struct calib_sheet *s, const struct meas_set *const *sets);

/* Counts over the rows. */
struct calib_count {
    unsigned rows, represented, measured, within, gaps, gaps_within, failing, short_of;
    /* failing: represented rows without a gap that are not within tolerance nor short of I/Os;
     * short_of: rows whose percentile the command's I/Os do not support (calib_row.short_of) */
};
struct calib_count calib_counts(const struct calib_sheet *s);

/* The table for people: one line per row (published, measured, ratio, tolerance, verdict,
 * the figure and its conditions), then the counts. */
void calib_print(const struct calib_sheet *s, FILE *f);
/* The same as a JSON document (schema ptsbench.calibration). Caller frees (json_object_put). */
struct json_object *calib_json(const struct calib_sheet *s);

#endif
