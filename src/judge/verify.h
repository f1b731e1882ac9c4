/* verify.h — spec sheets (specs/NAME.ini: a vendor's claims for one drive, or a purchaser's
 * requirements for any drive) checked against measured points (measure.h).
 *
 * The sheet's format (kind, device keys, the drive's reported_models / capacity / sim_preset,
 * one section per claim: metric, value, unit, per, bs, pattern, random_pct, read_pct, qd,
 * threads, compress, state, assumed, unwritten_reads, source, note), these rules in full and the
 * evidence behind them: docs/spec-sheets.md. verify_sheet_parse refuses what that page does
 * not allow, with one line "path:line: [section] key=value: why".
 *
 * Matching (verify_match_claim): a claim is judged against one measured point, and only one
 * measured under the conditions that decide its figure; nothing stated is substituted. The
 * steps, in order, each keeping the points that pass it:
 *   1. shape: block size ("mixed": mixed-size points only), pattern (random_pct) and read share;
 *   2. figure: a figure for the claimed metric;
 *   3. compressibility: as claimed, unless "any" or assumed;
 *   4. threads x QD: each that is stated and not assumed;
 *   5. state: steady takes steady points; fob (burst) takes fob, then wipc points; "any" takes
 *      every point (and alone takes unknown-state points: WSAT);
 *   6. media: a point that read never-written space (drive_state.h "unwritten") meets only a
 *      claim with unwritten_reads = yes.
 * Of the points left the first is judged, ordered by state (fob claim: fob, wipc, steady,
 * unknown; steady claim: steady, wipc, fob, unknown), then the closest compressibility, then
 * the closest workers x QD (|log2| of the ratio; only assumed conditions can differ), then the
 * smaller sum of |log2| of each ratio, then load order; the assumed conditions the point differs
 * on are listed ('*'). No point left: "no comparable measurement" (never a pass), with the
 * reason of the step that removed the last points (verify_match_reason) and its best point as
 * `nearest` (never judged; shown for a burst claim with only steady-state data).
 *
 * Verdict, tolerance t (default VERIFY_DEFAULT_TOLERANCE), claimed c, measured m in one unit:
 * IOPS and throughput pass when m >= (1 - t) c, latencies when m <= (1 + t) c, with a relative
 * VERIFY_EPSILON at the edge; ratio = m / c (latencies c / m): above 1 is better than claimed.
 *
 * The drive (verify_drive_match): a claim is judged only on results of the sheet's drive; any
 * other target is refused (verify, report --spec: exit 2, one line naming both) unless
 * --any-drive, which judges and marks every verdict "measured on another drive". Every results
 * file given must match. A target is the sheet's drive when:
 *   - simulated: its preset (target.simulated.preset, else sim:NAME of its path) is sim_preset
 *     and its full-size user capacity is within VERIFY_CAPACITY_TOLERANCE of the sheet's;
 *   - a block device: its model (case and runs of spaces ignored) is one of reported_models (a
 *     trailing '*': starts with it) and its capacity is within VERIFY_CAPACITY_TOLERANCE (model
 *     strings are truncated: the capacity tells a family's capacities apart);
 *   - a file, a remote target, or a target the results do not record: never.
 * A sheet that names no drive (neither reported_models nor sim_preset), or no capacity, matches
 * no target.
 *
 * Requirement sheets (`kind = requirements` before the first section): a purchaser's
 * requirements, not a drive's claims. They name no drive (reported_models, capacity and
 * sim_preset are refused) and apply to any target. Their figures are limits: a floor for IOPS
 * and throughput, a ceiling for latencies, judged with no tolerance (--tolerance is for a
 * vendor's claims). A figure may be per TB of the target's capacity (`per = TB`, IOPS and
 * throughput only): the requirement is value x the capacity in decimal TB (10^12 bytes) that
 * the point's results file records (target.capacity_bytes; a simulated drive's full-size
 * capacity, not the scaled model's); results without a capacity leave it without a comparable
 * measurement. A percentile the tail rule left out is neither met nor failed, as for a
 * vendor's claim (VERIFY_WHY_TAIL, the last matching step).
 *
 * Pure functions apart from verify_sheet_load (reads the file). */
#ifndef PTSBENCH_VERIFY_H
#define PTSBENCH_VERIFY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "read/measure.h"

struct ini_file;

#define VERIFY_DEFAULT_TOLERANCE 0.05
#define VERIFY_EPSILON 1e-9
#define VERIFY_MATCH_RULE                                                                      \
    "a claim is judged only against a point at its own block size, pattern, read share, "     \
    "compressibility, workers and QD, and drive state (steady: steady state reached; fob: "   \
    "fresh-out-of-box, else right after WIPC); conditions the sheet marks assumed only "      \
    "order the candidates (closest compressibility, then closest workers x QD by ratio); "    \
    "else no comparable measurement, with the reason"

enum verify_kind { VERIFY_KIND_IOPS, VERIFY_KIND_THROUGHPUT, VERIFY_KIND_LATENCY };

struct verify_unit {
    const char *name;          /* canonical spelling: "IOPS", "K IOPS", "MB/s", "MiB/s", "µs" */
    enum verify_kind kind;
    double scale;              /* one of this unit in the kind's base unit (IOPS, MB/s, µs) */
};

/* "IOPS", "MB/s" (10^6 bytes/s, as measure.h) or "µs". */
const char *verify_base_unit(enum verify_kind k);
/* Parse a unit name (aliases: "iops", "KIOPS", "kB/s", "us", "usec", "μs", ...). 0 or -1. */
int verify_unit_parse(const char *text, struct verify_unit *out);
static inline double verify_to_base(double v, const struct verify_unit *u) { return v * u->scale; }
static inline double verify_from_base(double v, const struct verify_unit *u)
{
    return v / u->scale;
}

/* "700000", "700K", "1.5M", "0.12". Returns 0, or -1 with err naming the text. */
int verify_parse_number(const char *text, double *out, char *err, size_t errlen);
/* A number with an optional unit after it: "100K IOPS", "2.8 GB/s", "120us", "700K".
 * *has_unit tells whether a unit was given (unit untouched when not). */
int verify_parse_quantity(const char *text, double *value, struct verify_unit *unit,
                          bool *has_unit, char *err, size_t errlen);
/* Block size: units_parse_size with KB / MB / GB read as binary (see above). */
int verify_parse_bs(const char *text, uint32_t *out, char *err, size_t errlen);
/* --tolerance: percent with or without '%' ("5%", "5", "0.5" = 0.5%), 0..100. *out is a
 * fraction. Returns 0 or -1 with one line. */
int verify_parse_tolerance(const char *text, double *out, char *err, size_t errlen);

/* The metric of a claim: meas_metric_parse names plus "mib_s" (mb_s, default unit MiB/s) and
 * "lat_us" (lat_mean_us). *default_unit (may be NULL) receives the unit used when the claim
 * names none. Returns 0 or -1. */
int verify_metric_parse(const char *text, enum meas_metric *m, const char **default_unit);
enum verify_kind verify_metric_kind(enum meas_metric m);

/* Conditions a sheet may mark assumed (`assumed = qd, threads`), as bits. */
#define VERIFY_COND_THREADS 1u
#define VERIFY_COND_QD 2u
#define VERIFY_COND_COMPRESS 4u

struct verify_claim {
    char name[64];             /* the section */
    int line;                  /* of the section, for messages */
    enum meas_metric metric;
    char metric_text[32];      /* as written */
    double value;              /* as stated, in unit */
    struct verify_unit unit;
    double claimed;            /* in the base unit of the metric's kind */
    uint32_t bs;
    bool sequential;
    int random_pct;            /* random_pct's 1..99; 0: as the pattern (100 or 0) */
    int read_pct;
    unsigned qd, threads;      /* 0: not stated */
    int compress_pct;          /* -1: any */
    enum meas_state state;     /* MEAS_STATE_FOB, MEAS_STATE_STEADY; MEAS_STATE_UNKNOWN: any */
    unsigned assumed;          /* VERIFY_COND_* of the conditions the sheet assumes */
    bool per_tb;               /* per = TB: value is per TB of the target's capacity (decimal) */
    bool limit;                /* of a requirement sheet: judged with no tolerance */
    bool unwritten_reads;      /* unwritten_reads = yes: the claimed figure itself read space
                                  the drive had never written (a calibration row reproducing
                                  such an experiment); only then is a point that did comparable */
    char source[1024];
    char note[512];
};

#define VERIFY_MAX_MODELS 8
#define VERIFY_CAPACITY_TOLERANCE 0.02   /* a fraction of the sheet's capacity */

struct verify_sheet {
    char path[4096];
    bool requirements;         /* kind = requirements: no drive, applies to any target */
    char device[256];          /* "device" key, else the file name */
    char models[VERIFY_MAX_MODELS][128];   /* reported_models, as written */
    unsigned n_models;
    uint64_t capacity;         /* bytes; 0: not stated */
    char capacity_text[64];    /* as written: "1.6TB" */
    char sim_preset[128];      /* "": none */
    char source[1024];
    char form_factor[128];     /* "" when the sheet does not say */
    char nand[128];
    struct verify_claim *c;
    size_t n;
};

/* Claims from a parsed INI file. Returns 0, or -1 with "path:line: [section] key=value: why". */
int verify_sheet_parse(const struct ini_file *ini, struct verify_sheet *out, char *err,
                       size_t errlen);
/* The same, accepting (and leaving to the caller) the keys of more_global before the first
 * claim and of more_claim in claims: NULL-terminated lists, either NULL. For files that hold
 * claims among other things (the simulated drive's calibration, judge/calibrate.h). */
int verify_sheet_parse_keys(const struct ini_file *ini, const char *const *more_global,
                            const char *const *more_claim, struct verify_sheet *out,
                            char *err, size_t errlen);
int verify_sheet_load(const char *path, struct verify_sheet *out, char *err, size_t errlen);
void verify_sheet_free(struct verify_sheet *s);

enum verify_verdict { VERIFY_PASS, VERIFY_FAIL, VERIFY_NO_COMPARABLE };
/* "pass", "fail", "no comparable measurement" */
const char *verify_verdict_name(enum verify_verdict v);

/* Why a claim has no comparable measurement: the matching step that removed the last points. */
enum verify_why {
    VERIFY_WHY_NONE,           /* a comparable point */
    VERIFY_WHY_SHAPE,          /* no point at the block size, pattern and read share */
    VERIFY_WHY_FIGURE,         /* ... none of them with a figure for the metric */
    VERIFY_WHY_COMPRESS,       /* compressibility differs */
    VERIFY_WHY_OIO,            /* no point at the claim's own threads x QD */
    VERIFY_WHY_STATE,          /* drive state differs (only burst / only steady-state data) */
    VERIFY_WHY_UNWRITTEN,      /* only points whose reads went to never-written space */
    VERIFY_WHY_CAPACITY,       /* a per-TB figure, and the point's results record no capacity */
    VERIFY_WHY_TAIL,           /* a percentile whose points' I/Os do not support it (the tail
                                  rule, stats/hist.h: recorded null): "not enough I/Os for this
                                  percentile (N)", no comparable measurement, never 0 */
};

struct verify_match {
    const struct meas_point *point;   /* the comparable point judged; NULL: none */
    const struct meas_point *nearest; /* point NULL, why COMPRESS, OIO or STATE: the best point
                                         the last step removed (never judged); else NULL */
    enum verify_why why;
    unsigned assumed_differs;         /* VERIFY_COND_* of assumed conditions point differs on */
    bool exact;                       /* point meets every condition, assumed ones too */
};

/* The matching rule above, over n points. */
void verify_match_claim(const struct verify_claim *c, const struct meas_point *pts, size_t n,
                        struct verify_match *m);
/* Whether m->nearest is shown for reference: a burst claim with only steady-state data. */
bool verify_match_has_reference(const struct verify_claim *c, const struct verify_match *m);
/* The reason of a match without a comparable point ("" when there is one), e.g. "only burst
 * data for a steady-state claim (nearest: burst (fresh-out-of-box))", "no point at the
 * claim's own threads x QD, 1x1 (nearest: 4x32)". */
void verify_match_reason(const struct verify_claim *c, const struct verify_match *m, char *buf,
                         size_t len);

/* The verdict for claimed and measured values of one kind (same unit), tolerance t (fraction).
 * *ratio (may be NULL): m / c, or c / m for latencies. NAN measured: VERIFY_NO_COMPARABLE. */
enum verify_verdict verify_judge(enum verify_kind kind, double claimed, double measured,
                                 double tolerance, double *ratio);

struct verify_result {
    const struct verify_claim *claim;
    struct verify_match match;
    double measured;           /* in the claim's unit; NAN without a comparable point */
    double measured_base;      /* in the base unit */
    double ratio;              /* NAN without a comparable point */
    double reference;          /* verify_match_has_reference: nearest's figure in the claim's
                                  unit, shown, not judged; else NAN */
    double reference_base;
    double capacity_tb;        /* per-TB claim: the point's target capacity, decimal TB; else
                                  NAN */
    double required;           /* the figure judged against, in the claim's unit: value, or
                                  value x capacity_tb for a per-TB claim (NAN without one) */
    enum verify_verdict verdict;
};

/* Match and judge one claim (a per-TB claim: no capacity known, no comparable measurement;
 * verify_check_set knows the points' targets). A claim's limit flag judges with tolerance 0. */
void verify_check(const struct verify_claim *c, const struct meas_point *pts, size_t n,
                  double tolerance, struct verify_result *r);
/* The same over a loaded set, a per-TB claim scaled by the capacity of the matched point's
 * target (the results file it came from). */
void verify_check_set(const struct verify_claim *c, const struct meas_set *set,
                      double tolerance, struct verify_result *r);
/* The capacity recorded for point p's results file (set->targets by source), bytes; 0 none. */
uint64_t verify_point_capacity(const struct meas_set *set, const struct meas_point *p);
/* The claim's figure for people: "700,000 IOPS", "68 MiB/s per TB". */
void verify_claim_figure(const struct verify_claim *c, char *buf, size_t len);

/* "4 KiB random, R/W 100/0, 4x32 (assumed), steady state, compress 0%" (unstated conditions
 * left out). */
void verify_claim_conditions(const struct verify_claim *c, char *buf, size_t len);
/* The claim's state for people: "steady state", "burst", "any". */
const char *verify_claim_state_label(const struct verify_claim *c);
/* The assumed conditions the matched point differs on: "1x32 (assumed 1x128), compress 0%
 * (assumed 100%)"; "" when none. */
void verify_match_differences(const struct verify_claim *c, const struct verify_match *m,
                              char *buf, size_t len);
/* "qd, threads" (the claim's assumed conditions), "" when none. */
void verify_assumed_names(unsigned conds, char *buf, size_t len);

/* ---- the drive (above, "The drive"; verify_drive.c) ---- */

/* Whether the results target t is the sheet's drive. false with why (one phrase: "a file
 * target never matches a drive's sheet", "model \"X\" is not one the sheet names") when not. */
bool verify_drive_match(const struct verify_sheet *s, const struct meas_target *t, char *why,
                        size_t len);
/* The first of set's targets (one per results file) that is not the sheet's drive: its index,
 * with why; -1 when every one is. */
int verify_drive_check(const struct verify_sheet *s, const struct meas_set *set, char *why,
                       size_t len);
/* A target for people: "file /var/tmp/f.img on vda, 268.4 MB (256 MiB)", "block device
 * /dev/sdg, model \"OCZ Z-DRIVE R4 C\", 300.1 GB (279.5 GiB)", "simulated drive
 * sim:zdrive-6300-1.6t, 1.60 TB (1.46 TiB)". */
void verify_target_describe(const struct meas_target *t, char *buf, size_t len);
/* The sheet's drive for people: "OCZ Z-Drive 6300 1.6 TB (model \"ZD6300*\", 1.6TB; simulated:
 * sim:zdrive-6300-1.6t)". */
void verify_sheet_drive_describe(const struct verify_sheet *s, char *buf, size_t len);
/* The refusal, one line: "RESULTS: measured on TARGET, not on the sheet's drive DRIVE: WHY
 * (--any-drive judges the claims anyway, every verdict marked)". */
void verify_drive_refusal(const struct verify_sheet *s, const struct meas_target *t,
                          const char *why, char *buf, size_t len);

#endif
