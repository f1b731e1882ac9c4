/* measure.h — the measured points of results files, flat, for verify, gate and reports.
 *
 * A results file (schema ptsbench.run, ptsbench.suite, ptsbench.profile; a directory is searched
 * for results.json files, recursively) becomes a list of points, each a workload condition
 * (block size, read share, random share, workers x QD, compressibility, drive state) with its
 * figures (IOPS, MB/s, latencies) and the round-to-round spread of each figure over the rounds
 * it was averaged from (the steady-state window, else the stable window), so that a comparison can tell a change from
 * noise. Every point has a stable key that names the same measurement in another run of the
 * same test (gate pairs baseline and current by key). Files are read through the one loader
 * (load.h); a loaded document is measured with meas_doc. Pure apart from reading the files. */
#ifndef PTSBENCH_MEASURE_H
#define PTSBENCH_MEASURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/metrics.h"

struct json_object;

/* The figures a point keeps: the first rows of the metric vocabulary (core/metrics.h), same
 * order, so that a point's v[m] is metrics_defs[m]'s figure. */
enum meas_metric {
    MEAS_IOPS = METRIC_IOPS, MEAS_READ_IOPS = METRIC_READ_IOPS,
    MEAS_WRITE_IOPS = METRIC_WRITE_IOPS, MEAS_MB_S = METRIC_MB_S,
    MEAS_READ_MB_S = METRIC_READ_MB_S, MEAS_WRITE_MB_S = METRIC_WRITE_MB_S,
    MEAS_LAT_MEAN_US = METRIC_LAT_MEAN_US, MEAS_READ_LAT_MEAN_US = METRIC_READ_LAT_MEAN_US,
    MEAS_WRITE_LAT_MEAN_US = METRIC_WRITE_LAT_MEAN_US, MEAS_LAT_P99_US = METRIC_LAT_P99_US,
    MEAS_LAT_P99_9_US = METRIC_LAT_P99_9_US, MEAS_LAT_P99_99_US = METRIC_LAT_P99_99_US,
    MEAS_LAT_MAX_US = METRIC_LAT_MAX_US, MEAS_LAT_P50_US = METRIC_LAT_P50_US,
    MEAS_LAT_P90_US = METRIC_LAT_P90_US, MEAS_LAT_P95_US = METRIC_LAT_P95_US,
    MEAS_LAT_P99_999_US = METRIC_LAT_P99_999_US, MEAS_LAT_P99_9999_US = METRIC_LAT_P99_9999_US,
    MEAS_READ_LAT_P99_US = METRIC_READ_LAT_P99_US,
    MEAS_READ_LAT_P99_9_US = METRIC_READ_LAT_P99_9_US,
    MEAS_READ_LAT_P99_99_US = METRIC_READ_LAT_P99_99_US,
    MEAS_READ_LAT_P99_999_US = METRIC_READ_LAT_P99_999_US,
    MEAS_READ_LAT_P99_9999_US = METRIC_READ_LAT_P99_9999_US,
    MEAS_READ_LAT_MAX_US = METRIC_READ_LAT_MAX_US,
    MEAS_WRITE_LAT_P99_US = METRIC_WRITE_LAT_P99_US,
    MEAS_WRITE_LAT_P99_9_US = METRIC_WRITE_LAT_P99_9_US,
    MEAS_WRITE_LAT_P99_99_US = METRIC_WRITE_LAT_P99_99_US,
    MEAS_WRITE_LAT_P99_999_US = METRIC_WRITE_LAT_P99_999_US,
    MEAS_WRITE_LAT_P99_9999_US = METRIC_WRITE_LAT_P99_9999_US,
    MEAS_WRITE_LAT_MAX_US = METRIC_WRITE_LAT_MAX_US,
    MEAS_N = METRIC_N_MEASURED,
    /* Trims (fio's rw=trim, randtrim, trimwrite): the "trim" direction's figures, kept beside
     * the vocabulary's (gate, verify and --metrics name only those: loops over MEAS_N leave
     * these out). NAN when the point issued no trims: a results file without a "trim" object
     * has every one NAN. */
    MEAS_TRIM_IOPS = MEAS_N, MEAS_TRIM_MB_S, MEAS_TRIM_LAT_MEAN_US,
    /* The observations behind the latency figures (lat_us.count of total, read, write: NAN
     * unknown), by enum metric_dir: a percentile that is NAN with a count that does not support
     * it (stats/hist.h hist_pct_supported) was left out by the tail rule, not unmeasured
     * (verify says "not enough I/Os for this percentile (N)"). */
    MEAS_LAT_COUNT, MEAS_READ_LAT_COUNT, MEAS_WRITE_LAT_COUNT,
    MEAS_N_ALL
};

/* The vocabulary's key ("iops", "read_iops", ..., "lat_p99_9_us": the names gate's --metrics
 * takes); parse: -1 if unknown or not a point's figure. lower_is_better: latencies. */
const char *meas_metric_name(enum meas_metric m);
int meas_metric_parse(const char *name, enum meas_metric *out);
/* Trim figures too: meas_metric_name gives "trim_iops", "trim_mb_s", "trim_lat_mean_us" for
 * them, and meas_metric_parse_all reads those as well as the vocabulary's (the history's
 * measurements, db/). */
int meas_metric_parse_all(const char *name, enum meas_metric *out);
/* Did point p issue trims (a finite trim figure)? */
struct meas_point;
bool meas_point_has_trim(const struct meas_point *p);
/* Point p's figure m is a percentile the tail rule left out (NAN with a count that does not
 * support it: MEAS_LAT_COUNT + its direction): that count (the N of "not enough I/Os for this
 * percentile (N)"), else 0 (a number, not a percentile, or not measured). */
uint64_t meas_pct_short_of(const struct meas_point *p, enum meas_metric m);
bool meas_lower_is_better(enum meas_metric m);

/* The drive state a point was measured in (measure.c derives it per schema; verify.h matches
 * claims on it):
 *   STEADY   SNIA steady state reached, as the results file claims it (PTS: a 5-round window
 *            within the range and slope limits after preconditioning).
 *   FOB      nothing preconditioned the drive (fresh-out-of-box, or purged): a burst figure,
 *            however flat its rounds were. Every ptsbench.run file written before the
 *            "preconditioning" object existed is FOB: those runs never preconditioned, so a
 *            "reached" window there was a burst plateau.
 *   WIPC     preconditioned (workload-independent, with or without workload-dependent rounds)
 *            but steady state not reached: a burst after WIPC.
 *   UNKNOWN  the file does not say (WSAT: the saturated drive, neither fresh nor a verified
 *            steady state). */
enum meas_state { MEAS_STATE_UNKNOWN = 0, MEAS_STATE_FOB, MEAS_STATE_STEADY, MEAS_STATE_WIPC };

struct meas_point {
    char key[256];             /* stable identity, e.g. "suite/iops/bs=4096/read=0",
                                  "profile/database/database/c=90/w=4/qd=32",
                                  "run/rw=randrw,rwmixread=70,bs=4k,iodepth=32,numjobs=4,..." */
    char label[256];           /* for people: "IOPS test, 4 KiB random, R/W 0/100" */
    char source[4096];         /* the results file */
    /* conditions */
    uint32_t bs;               /* bytes; 0 when mixed sizes (bssplit) */
    int read_pct;              /* 0..100 */
    int random_pct;            /* 0..100 */
    unsigned workers, qd;      /* outstanding I/O = workers x qd */
    int compress_pct;          /* 0..100, -1 unknown */
    enum meas_state state;     /* see enum meas_state */
    bool sequential;           /* random_pct == 0 */
    bool unwritten;            /* its reads went to never-written space ("measured_state"
                                  "unwritten"): not the drive's media (core/drive_state.h) */
    bool after_fast;           /* prepared by the fast pass (preconditioning.fast, issue 48; a
                                  "measured_state" "fast"): its MEAS_STATE_WIPC is "fast" */
    bool fast_no_ftl;          /* ... on a target without an FTL (preconditioning.fast.ftl
                                  "none"): the range written over, no FTL state to shape */
    double fast_fills;         /* the pass's fills of the range (NAN: not recorded) */
    char state_words[160];     /* meas_point_state_label's text where it is the point's own */
    /* figures (NAN when absent) and their relative spread over the averaged rounds:
     * (max - min) / mean, NAN when fewer than 2 rounds */
    double v[MEAS_N_ALL];
    double spread[MEAS_N_ALL];
    /* the same rounds' extremes and least-squares slope (units of the figure per round; the
     * PTS's best linear fit over the window), NAN below 2 rounds (min, max: below 1) */
    double min[MEAS_N_ALL], max[MEAS_N_ALL], slope[MEAS_N_ALL];
    unsigned rounds;           /* rounds averaged */
};

/* What a results file measured: its "target" record (reports/results-schema.md), the fields
 * verify needs to tell which drive that was (verify.h, verify_drive_match). */
struct meas_target {
    char source[4096];         /* the results file */
    char kind[16];             /* "block", "file", "simulated", "remote"; "" not recorded */
    char path[1024];           /* /dev/sdg, a file, sim:PRESET[,key=value...] */
    char device[64];           /* kernel name: the block device, or the file's filesystem's */
    char model[256];           /* as sysfs reports it; "" not reported (a simulated drive's
                                  "model" is its description: not kept) */
    char preset[128];          /* simulated: target.simulated.preset, else the path's name */
    uint64_t capacity;         /* bytes (a simulated drive's full size); 0 not recorded */
};

/* The target record of a loaded results document (ptsbench.run, .suite, .profile). */
void meas_target_read(struct json_object *root, const char *source, struct meas_target *t);

struct meas_set {
    struct meas_point *p;
    size_t n;
    struct meas_target *targets;   /* one per file loaded, in load order */
    unsigned n_targets;
    char device[256];          /* target model or path of the first file, for tables */
    bool simulated;            /* a file's target is a simulated drive (sim:PRESET) */
    unsigned n_files;
    unsigned n_incomplete;     /* files whose run is not complete (running, dead, interrupted,
                                  failed: results_life_of) */
    char incomplete[768];      /* the first of them: "PATH: status dead: its writer ..." */
};

/* Load a results file, or every results.json under a directory. Returns 0, or -1 with one line
 * (no such file, not JSON, unknown schema, no results found). */
int meas_load(const char *path, struct meas_set *out, char *err, size_t errlen);
/* meas_load with MEAS_LOAD_* flags:
 *   MEAS_LOAD_RECOVERY  also a point per HIR wait state, its write accesses' mean IOPS
 *                       ("suite/hir/wait=5", state unknown): recovery figures that the simulated
 *                       drive's calibration compares with a review's, which verify, gate and
 *                       the report do not judge as operating points. */
#define MEAS_LOAD_RECOVERY 1u
int meas_load_flags(const char *path, unsigned flags, struct meas_set *out, char *err,
                    size_t errlen);
/* Measure a document already loaded and shape-checked (load.h, read_load; doc.h,
 * results_doc_meas keeps the result with the document): the same points as meas_load_flags of
 * its file, path naming it.
 * Returns 0, or -1 with one line (a schema without points, no completed round). */
int meas_doc(struct json_object *root, const char *path, unsigned flags, struct meas_set *out,
             char *err, size_t errlen);
void meas_free(struct meas_set *s);
const struct meas_point *meas_find(const struct meas_set *s, const char *key);

/* Added for verify and reports:
 * short names for JSON: "steady", "fob", "wipc", "unknown";
 * names for people: "steady state", "burst (fresh-out-of-box)", "burst after WIPC", "unknown". */
const char *meas_state_name(enum meas_state s);
const char *meas_state_label(enum meas_state s);
/* A point's state, where the fast pass prepared it (after_fast, issue 48): the name "fast" for
 * MEAS_STATE_WIPC (db, verify's JSON); for people "after the fast pass + WDPC, not steady
 * state", "steady state after the fast pass + WDPC" ("+ WDPC" when the point writes), and on a
 * target without an FTL "steady state after the range written 1.00× sequentially + WDPC: no
 * FTL state to shape" (never "fast pass" bare there). Otherwise meas_state_name and
 * meas_state_label. The label may live in the point (state_words): valid while it is. */
const char *meas_point_state_name(const struct meas_point *p);
const char *meas_point_state_label(const struct meas_point *p);
/* Move every point of src to the end of dst (dst's device kept if set); src is emptied
 * (meas_free). For several RESULTS arguments. */
void meas_merge(struct meas_set *dst, struct meas_set *src);
/* Notes on the figures: a direction the workload does not use has NAN figures (read_iops,
 * read_mb_s, read_lat_mean_us of a write-only point), not 0. Keys are unique within one file;
 * the same key from two files of a directory (two runs of one test) is kept twice and
 * meas_find returns the first. Directories are walked in name order, the directory's own
 * results.json before its subdirectories; hidden entries and fio artifact directories ("fio")
 * are skipped, as are files of other schemas (ptsbench.crosscheck) found in a directory. */

#endif
