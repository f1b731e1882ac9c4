/* pts_def.h — SNIA PTS test definitions and spec versions, as data (pts/NAME.ini).
 *
 * A test file has a [test] section and optional [spec NAME] sections whose keys override the
 * test's for that spec version. pts/specs.ini has one section per spec version (title,
 * active_range, write_cache, threads, qd). Only the real control flow (purge, preconditioning,
 * rounds, windows, stop rules; the hir, xsr and dirth kinds) is code (pts_run.c); everything
 * that differs between tests in parameters lives in the files.
 *
 * The keys are rows (lib/keys.h) in pts/pts_def.c: each key's type, range and one line of
 * help, printed by `ptsbench run-test --help` (pts_def_keys_print). docs/pts.md §5 says what
 * each key means, and how each kind (standard, hir, xsr, dirth) uses its keys.
 *
 * The contract:
 *   - A definition is checked as a whole when it is loaded, so that a test that cannot work is
 *     refused before a target is touched, with one line "FILE:LINE: key=value: why".
 *   - Defaults: wipc_fills 2, wipc_bs 128k, access random, element_time 60s, max_rounds 25,
 *     stop_capacity 4, max_time 24h; threads and qd "spec" (0 here: the spec version's).
 *   - report: the kind's own presentation for hir, xsr and dirth, generic for standard, when
 *     not given; never PTS_REPORT_DEFAULT after pts_def_load. A presentation reads the results
 *     of one kind (iops, tp, lat, wsat: standard), and a definition pairing it with another
 *     kind is refused. */
#ifndef PTSBENCH_PTS_DEF_H
#define PTSBENCH_PTS_DEF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define PTS_MAX_LIST 16
#define PTS_MAX_TRACK 4

struct pts_spec {
    char name[32];            /* pts-e-1.1, pts-c-1.2, pts-2.0-e, pts-2.0-c */
    char title[96];
    double active_range_pct;  /* 100 or 75 */
    bool write_cache;         /* PTS-E: off (WCD); PTS-C: on (WCE) */
    unsigned threads, qd;     /* recommended outstanding I/O */
};

struct pts_track {
    char metric[32];          /* a metrics_value() name */
    uint32_t bs;              /* 0 = the subtest's block size ("element") */
    unsigned mix;             /* read percent */
};

enum pts_stop { PTS_STOP_STEADY = 0, PTS_STOP_CAPACITY };
enum pts_kind { PTS_KIND_STANDARD = 0, PTS_KIND_HIR, PTS_KIND_XSR, PTS_KIND_DIRTH };
/* The report's presentation (key `report`); PTS_REPORT_DEFAULT: not given, the kind's. */
enum pts_report {
    PTS_REPORT_DEFAULT = 0, PTS_REPORT_GENERIC, PTS_REPORT_IOPS, PTS_REPORT_TP, PTS_REPORT_LAT,
    PTS_REPORT_WSAT, PTS_REPORT_HIR, PTS_REPORT_XSR, PTS_REPORT_DIRTH,
    PTS_REPORT_COUNT   /* not a presentation: GENERIC..COUNT-1 are (plot/, report/ tables) */
};

struct pts_group {
    bool random;
    uint32_t bs;
    unsigned mix;
    uint64_t duration_ns;
};
enum pts_subtests { PTS_SUB_NONE = 0, PTS_SUB_BS };

struct pts_def {
    char name[32];
    char title[96];
    char source[256];         /* file it came from */
    bool purge;
    bool wipc;
    bool fast_allowed;        /* fast_precondition = allowed: --precondition fast may run the
                                 fast pass in WIPC's place (its stimulus writes at random) */
    char fast_why[160];       /* fast_precondition = refused: WHY (the reason said when asked) */
    uint32_t wipc_bs;         /* 0 = element */
    unsigned wipc_fills;
    enum pts_subtests subtests;
    bool random;
    unsigned mixes[PTS_MAX_LIST];
    unsigned n_mixes;
    uint32_t bss[PTS_MAX_LIST];
    unsigned n_bss;
    unsigned threads, qd;     /* 0 = from the spec */
    uint64_t element_ns;
    struct pts_track track[PTS_MAX_TRACK];
    unsigned n_track;
    enum pts_stop stop;
    unsigned max_rounds;
    double stop_capacity;
    uint64_t max_time_ns;
    unsigned compress_pct;
    enum pts_kind kind;
    enum pts_report report;   /* never DEFAULT after pts_def_load */
    /* hir */
    uint64_t access_ns;
    uint64_t precondition_round_ns;
    uint64_t waits_ns[PTS_MAX_LIST];
    unsigned n_waits;
    unsigned repetitions, baseline_accesses;
    /* dirth */
    unsigned threads_list[PTS_MAX_LIST], n_threads_list;
    unsigned qd_list[PTS_MAX_LIST], n_qd_list;
    unsigned pc_threads, pc_qd;
    uint64_t latency_ceiling_ns, histogram_ns;
    char extra[512];
    /* xsr */
    struct pts_group groups[PTS_MAX_LIST];
    unsigned n_groups;
};

/* Load spec version `name` from DIR/specs.ini (first dir that has it). */
int pts_spec_load(const char *name, const char *const *dirs, struct pts_spec *out,
                  char *err, size_t errlen);
/* Load test `name` (DIR/NAME.ini) with the [spec SPEC] overrides applied. The definition is
 * checked as a whole here, so that a test that cannot work is refused before a target is
 * touched (one line, "FILE:LINE: key=value: why"): durations of at least 1 s (latency_ceiling:
 * above 0), block sizes that are whole 512-byte sectors and listed once, read percentages listed
 * once, tracking variables whose block size and mix are elements of the loops ("element" only
 * with subtests = bs), max_rounds 0 or at least the 5-round window for stop = steady, XSR groups
 * no shorter than element_time, and what each kind needs. */
int pts_def_load(const char *name, const char *spec, const char *const *dirs,
                 struct pts_def *out, char *err, size_t errlen);
/* The names of all tests (*.ini other than specs.ini) in dirs, comma-separated. */
void pts_def_list(const char *const *dirs, char *buf, size_t len);

/* "standard", "hir", "xsr", "dirth": the kind's name in definitions and results. */
const char *pts_kind_name(enum pts_kind k);

/* "iops", "tp", "lat", "wsat", "hir", "xsr", "dirth", "generic": the presentation's name in
 * definitions and results (tests[i].report). */
const char *pts_report_name(enum pts_report r);

/* The keys of a definition, their ranges and help, for --help (from the rows). */
void pts_def_keys_print(FILE *out);

/* "iops@4k/0" for messages and results. */
void pts_track_format(const struct pts_track *t, char *buf, size_t len);

#endif
