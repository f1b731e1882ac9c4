/* verify.h — vendor spec sheets (specs/NAME.ini) checked against measured points (measure.h).
 *
 * A spec sheet is an INI file (ini.h): keys before the first section describe the device
 * (device, vendor, model, capacity, source); every section is one claim:
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
 *                           KB or KiB (a vendor's "4KB" transfer is 4096 bytes)
 *   pattern  = sequential   random | sequential
 *   read_pct = 100          read share in percent: 100 read, 0 write, 70 a 70/30 mix
 *   qd       = 32           queue depth per worker ("unknown": not stated)
 *   threads  = 4            workers ("unknown": not stated)
 *   compress = 100          data compressibility in percent ("any": does not matter)
 *   state    = fob          fob | steady | any
 *   source   = ...          where the claim comes from (file and quote)
 *   note     = ...          free text
 *
 * Matching (verify_match_claim): a claim is compared with one measured point.
 *   1. Candidates: points with the same block size (a mixed-size point never matches), the
 *      same pattern (random claim: 100% random point; sequential: 0% random), the same read
 *      share, and a figure for the claimed metric. None: "no measured point matches".
 *   2. Exact conditions first: among the candidates, those whose compressibility and drive
 *      state are as claimed ("any" matches everything). Without one, the candidate with the
 *      fewest differing conditions, then the closest compressibility, wins, and the result
 *      says which conditions differ.
 *   3. Then the closest outstanding I/O (workers x QD), by ratio (|log2(measured / claimed)|;
 *      not a criterion when the claim states none); then the first point in load order.
 *
 * Verdict, with tolerance t (a fraction, default 0.05), claimed c and measured m in the same
 * unit: IOPS and throughput pass when m >= (1 - t) c; latencies pass when m <= (1 + t) c; a
 * relative 1e-9 absorbs rounding at the edge. ratio = m / c, for latencies c / m, so that a
 * ratio above 1 is always better than claimed. No matching point: "no data" (neither passes
 * nor fails).
 *
 * Pure functions apart from verify_sheet_load (reads the file). */
#ifndef PTSBENCH_VERIFY_H
#define PTSBENCH_VERIFY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "measure.h"

struct ini_file;

#define VERIFY_DEFAULT_TOLERANCE 0.05
#define VERIFY_EPSILON 1e-9
#define VERIFY_MATCH_RULE                                                                      \
    "same block size, pattern and read share (else no data); then points whose "              \
    "compressibility and drive state are as claimed, else the fewest differing conditions "   \
    "and the closest compressibility; then the closest outstanding I/O (workers x QD, by "    \
    "ratio); then load order"

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
    int read_pct;
    unsigned qd, threads;      /* 0: not stated */
    int compress_pct;          /* -1: any */
    enum meas_state state;     /* MEAS_STATE_UNKNOWN: any */
    char source[1024];
    char note[512];
};

struct verify_sheet {
    char path[4096];
    char device[256];          /* "device" key, else the file name */
    char source[1024];
    struct verify_claim *c;
    size_t n;
};

/* Claims from a parsed INI file. Returns 0, or -1 with "path:line: [section] key=value: why". */
int verify_sheet_parse(const struct ini_file *ini, struct verify_sheet *out, char *err,
                       size_t errlen);
int verify_sheet_load(const char *path, struct verify_sheet *out, char *err, size_t errlen);
void verify_sheet_free(struct verify_sheet *s);

enum verify_verdict { VERIFY_PASS, VERIFY_FAIL, VERIFY_NO_DATA };
const char *verify_verdict_name(enum verify_verdict v);   /* "pass", "fail", "no data" */

struct verify_match {
    const struct meas_point *point;   /* NULL: no measured point matches */
    bool exact;                       /* compressibility and state as claimed */
    bool compress_differs, state_differs;
};

/* The matching rule above, over n points. */
void verify_match_claim(const struct verify_claim *c, const struct meas_point *pts, size_t n,
                        struct verify_match *m);

/* The verdict for claimed and measured values of one kind (same unit), tolerance t (fraction).
 * *ratio (may be NULL): m / c, or c / m for latencies. NAN measured: VERIFY_NO_DATA. */
enum verify_verdict verify_judge(enum verify_kind kind, double claimed, double measured,
                                 double tolerance, double *ratio);

struct verify_result {
    const struct verify_claim *claim;
    struct verify_match match;
    double measured;           /* in the claim's unit; NAN without data */
    double measured_base;      /* in the base unit */
    double ratio;              /* NAN without data */
    enum verify_verdict verdict;
};

/* Match and judge one claim. */
void verify_check(const struct verify_claim *c, const struct meas_point *pts, size_t n,
                  double tolerance, struct verify_result *r);

/* "4 KiB random, R/W 100/0, 4x32, steady, compress 0%" (unstated conditions left out). */
void verify_claim_conditions(const struct verify_claim *c, char *buf, size_t len);
/* "compress 0% (claimed 100%), state steady (claimed fob)"; "" when exact. */
void verify_match_differences(const struct verify_claim *c, const struct verify_match *m,
                              char *buf, size_t len);

#endif
