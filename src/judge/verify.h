/* verify.h — vendor spec sheets (specs/NAME.ini) checked against measured points (measure.h).
 *
 * A spec sheet is an INI file (ini.h): keys before the first section describe the device
 * (device, vendor, model (the vendor's part number), source; form_factor and nand, optional:
 * the drive's form factor and NAND type as the vendor states them, "2.5\" U.2", "MLC", shown in
 * the report's header) and name the drive, so that only its results are judged ("The drive"
 * below):
 *
 *   reported_models = OCZ Z-DRIVE R4 C, OCZ Z-DRIVE R4 CM88
 *                           the model strings the drive reports, as the results record them
 *                           (sysfs: NVMe identify "model", SCSI INQUIRY product, which is 16
 *                           characters of an ATA model behind a SCSI layer): up to 8, separated
 *                           by commas; a trailing '*' matches any ending ("ZD6300*")
 *   capacity = 1.6TB        the user capacity as the vendor states it, decimal (units.h: TB,
 *                           GB are powers of 1000)
 *   sim_preset = zdrive-r4-cm88-1.6t
 *                           the simulated drive that models it (profiles/devices/NAME.ini)
 *
 * Every other section is one claim:
 *
 *   [seq-read-128k]
 *   metric   = mb_s         the figure claimed: iops | mb_s | mib_s | lat_us | any name of
 *                           meas_metric_name() (read_iops, lat_p99_us, ...). mib_s is mb_s
 *                           with MiB/s as its default unit; lat_us is lat_mean_us.
 *   value    = 2800         a number, optionally with K (10^3), M (10^6), G (10^9): "700K";
 *                           a unit may follow ("700K IOPS"). Commas are refused (thousands
 *                           separator or decimal comma?).
 *   unit     = MB/s         IOPS, K IOPS; B/s, KB/s, KiB/s, MB/s, MiB/s, GB/s, GiB/s (KB, MB,
 *                           GB decimal; KiB, MiB, GiB binary); ns, us / µs, ms, s. Default:
 *                           the metric's own (IOPS, MB/s, MiB/s for mib_s, µs).
 *   bs       = 128k         block size; in a spec sheet K/M/G are binary whether written
 *                           KB or KiB (a vendor's "4KB" transfer is 4096 bytes); "mixed": a
 *                           mix of sizes (a profile's bssplit), matching mixed-size points
 *                           only, whichever mix (for sheets that tell them apart otherwise:
 *                           the calibration's point = pattern)
 *   pattern  = sequential   random | sequential
 *   random_pct = 80         optional, with pattern = random: the random share of a partly
 *                           random stimulus (Iometer's Workstation: 80); a point must have it
 *   read_pct = 100          read share in percent: 100 read, 0 write, 70 a 70/30 mix
 *   qd       = 32           queue depth per worker ("unknown": not stated)
 *   threads  = 4            workers ("unknown": not stated)
 *   compress = 100          data compressibility in percent ("any": does not matter)
 *   state    = fob          fob (a burst figure: fresh-out-of-box, or right after WIPC) |
 *                           steady (SNIA steady state) | any
 *   assumed  = qd, threads  the conditions above that the vendor did not state and the sheet's
 *                           author filled in: any of qd, threads, compress (each needs its
 *                           value above). Never state: a burst and a steady-state figure of
 *                           one drive differ several-fold, so a claim's state is stated or
 *                           "any". Nor a compressibility that decides the figure (SandForce).
 *   unwritten_reads = yes   the claimed figure itself read space the drive had never written
 *                           (a calibration row reproducing such an experiment: src/judge/
 *                           calibrate.h); default no
 *   source   = ...          where the claim comes from (publication, title, and quote)
 *   note     = ...          free text
 *
 * Matching (verify_match_claim): a claim is judged against one measured point, and only against
 * a point measured under the conditions that decide its figure. Nothing stated is substituted:
 * a point either meets every stated condition or is not comparable. The steps, in order; each
 * keeps the points that pass it:
 *   1. shape: the same block size (a mixed-size point only for a "mixed" claim), pattern (random claim:
 *      100% random point, or random_pct's; sequential: 0% random) and read share;
 *   2. figure: a figure for the claimed metric;
 *   3. compressibility: as claimed, unless "any" or assumed (a point of unknown
 *      compressibility meets no stated one);
 *   4. threads x QD: the claim's own workers and its own QD, each that is stated and not
 *      assumed;
 *   5. state: a steady claim takes steady points only; a fob (burst) claim takes fob points
 *      (nothing preconditioned the drive) and wipc points (measured right after
 *      workload-independent preconditioning, before steady state: still a burst), preferring
 *      fob; "any" takes every point. Unknown-state points (WSAT) meet only "any".
 *   6. media: a point whose reads went to never-written space (measured state "unwritten",
 *      core/drive_state.h: the device answered from its map, not its media) meets only a claim
 *      with unwritten_reads = yes.
 * Of the points left, the first in this order is judged: fob before wipc (for a fob claim;
 * in full, for a fob claim fob, wipc, steady, unknown; for a steady claim steady, wipc, fob,
 * unknown); then the closest compressibility; then the closest outstanding I/O, |log2(measured /
 * claimed)| of workers x QD over the stated values (only assumed ones can differ here); then
 * the smaller sum of |log2| of each ratio (4x32 before 1x128 for a 4x32 claim); then load
 * order. The result lists the assumed conditions the point differs on (shown with a '*').
 *
 * No point left: the verdict is "no comparable measurement" (never a pass), with a reason named
 * by the step that removed the last points (verify_match_reason): no point at the claim's block
 * size, pattern and read share; none with its figure; compressibility differs; no point at its
 * own threads x QD; or the state: "only burst data for a steady-state claim", "only
 * steady-state data" (a burst claim). The best point of that step, in the order above, is kept
 * as `nearest` (for the reason; never judged); for a burst claim with only steady-state data its
 * figure is shown for reference.
 *
 * Verdict, with tolerance t (a fraction, default 0.05), claimed c and measured m in the same
 * unit: IOPS and throughput pass when m >= (1 - t) c; latencies pass when m <= (1 + t) c; a
 * relative 1e-9 absorbs rounding at the edge. ratio = m / c, for latencies c / m, so that a
 * ratio above 1 is always better than claimed.
 *
 * The drive (verify_drive_match): a claim is judged only on results of the sheet's drive; a
 * results file of another target is refused (verify, report --spec: exit 2, one line naming
 * both) unless --any-drive, which judges the claims and marks every verdict "measured on
 * another drive". Every results file given must match. A target is the sheet's drive when:
 *   - simulated: its preset (target.simulated.preset, else sim:NAME of its path) is the
 *     sheet's sim_preset and its capacity (the full-size user capacity) is within
 *     VERIFY_CAPACITY_TOLERANCE of the sheet's. Other preset keys (k, host_worker_us, seed, ...)
 *     still match: the target's path shows them; a user_bytes or op_pct that changes the
 *     capacity does not;
 *   - a block device: its model, compared without case and with runs of spaces as one, is one
 *     of reported_models (a trailing '*': starts with it), and its capacity is within
 *     VERIFY_CAPACITY_TOLERANCE of the sheet's (the vendor's decimal figure against the bytes
 *     the device reports: the Z-Drive R4 CM84 "300 GB" reports 586,135,549 sectors of 512
 *     bytes, 300.1 GB, +0.03%; the CM88 "1.6 TB", 1490 GiB usable, 1,599,875,317,760 bytes,
 *     -0.008%). 2% leaves room for a vendor's rounding and refuses the next capacity of a
 *     family (the R4's double: CM84 300 GB, 600 GB, 1.2 TB; CM88 800 GB, 1.6 TB, 3.2 TB).
 *     Model strings are truncated (SCSI: 16 characters, so a CM84 and a CM88 both say "OCZ
 *     Z-DRIVE R4 C"): the capacity tells apart the capacities of one family;
 *   - a file, a remote target, or a target the results do not record: never (a file measures
 *     the filesystem and the device under it, not a drive's sheet).
 * A sheet that names no drive (neither reported_models nor sim_preset), or no capacity, matches
 * no target.
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
    enum verify_verdict verdict;
};

/* Match and judge one claim. */
void verify_check(const struct verify_claim *c, const struct meas_point *pts, size_t n,
                  double tolerance, struct verify_result *r);

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
