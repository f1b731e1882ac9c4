/* pts_def.h — SNIA PTS test definitions and spec versions, as data (pts/NAME.ini).
 *
 * A test file has a [test] section and optional [spec NAME] sections whose keys override the
 * test's for that spec version. pts/specs.ini has one section per spec version. Only the real
 * control flow (purge, preconditioning, rounds, windows, stop rules) is code (pts_run.c);
 * everything that differs between tests in parameters lives in the files.
 *
 * [test] keys:
 *   name, title             identifiers ("iops", "IOPS")
 *   purge                   yes | no: purge before the test (and before each subtest)
 *   precondition            wipc | none: workload-independent preconditioning (SEQ writes)
 *   wipc_bs                 block size of the WIPC writes, or "element" (the subtest's size)
 *   wipc_fills              how many times the active range is written (2)
 *   subtests                none | bs: repeat purge + WIPC + loop for each block size (TP)
 *   access                  random | sequential
 *   mixes                   outer loop: read percentages, e.g. 100,95,65,50,35,5,0
 *   block_sizes             inner loop, e.g. 1024k,128k,64k,32k,16k,8k,4k,512
 *   threads, qd             numbers, or "spec" (the spec version's recommendation)
 *   element_time            one element's length (60s in the PTS; --round-time overrides)
 *   tracking                steady-state variables: METRIC@BS/MIX[, ...]; METRIC is iops,
 *                           mb_s, write_mb_s, lat_mean_us, write_lat_mean_us ...; BS may be
 *                           "element" (the subtest's size). E.g. iops@4k/0
 *   stop                    steady (SNIA rule on all tracking variables) | capacity (WSAT: stop
 *                           when stop_capacity x user capacity has been written, or max_time)
 *   max_rounds              25 (steady); 0 = no limit
 *   stop_capacity           4 (x user capacity)
 *   max_time                24h
 *   compress                data compressibility (0: random data, as the PTS requires)
 *   kind                    standard (the loops above) | hir | xsr | dirth: the control flow
 *   report                  how the report presents the test, its section and charts:
 *                           iops | tp | lat | wsat (standard kind: the IOPS, TP, LAT, WSAT
 *                           tables and charts, read from this test's own results) | hir | xsr |
 *                           dirth (the kind of the same name) | generic (the test's parameters,
 *                           preparation and steady-state charts only). Default: the kind's own
 *                           for hir, xsr and dirth, generic for standard. Recorded in results as
 *                           tests[i].report
 * Host Idle Recovery (kind = hir): precondition with the test's element in rounds of
 * element_time to steady state on `tracking`, then for each wait state: `repetitions` x
 * (access_time of the element, then host idle of the wait), then `baseline_accesses` x
 * access_time of the element with no idle (the return to baseline).
 *   precondition_round      length of a preconditioning round (default element_time)
 *   access_time             5s
 *   wait_states             idle times, e.g. 5s, 10s, 15s, 25s, 50s (wait states 1,2,3,5,10)
 *   repetitions             360
 *   baseline_accesses       360
 * Demand Intensity / Response Time Histogram (kind = dirth; also the composite workload CBW):
 * precondition with RND writes at precondition_threads x precondition_qd to steady state, then
 * demand-variation rounds over threads_list x qd_list (high to low) of the stimulus (mixes[0],
 * block_sizes[0], plus `extra` workload keys), tracking the first point's IOPS; then the max
 * point (highest IOPS with mean latency under latency_ceiling), the min point (threads 1 x
 * QD 1, found by value in the lists; without one, the lowest outstanding I/O) and the mid point
 * (among the points under the ceiling, IOPS closest to their middle), each measured for
 * histogram_time with its full response-time histogram (pts_rules.h: pts_dirth_choose).
 *   threads_list, qd_list   32,16,8,6,4,2,1
 *   precondition_threads, precondition_qd   32, 32
 *   latency_ceiling         5ms
 *   histogram_time          10m
 *   extra                   more workload keys, e.g. bssplit=...,random_distribution=zoned:...
 * Cross Stimulus Recovery (kind = xsr): groups of one stimulus each, logged every element_time:
 *   groups                  ACCESS/BS/MIX/DURATION, ... e.g. seq/1024k/0/8h, rnd/8k/0/6h,
 *                           seq/1024k/0/8h; recovery = minutes until the last group's
 *                           throughput reaches the first group's average, within
 *                           PTS_XSR_RECOVERY_TOLERANCE (1%, pts_rules.h)
 *
 * specs.ini keys: title, active_range (percent), write_cache (on | off), threads, qd. */
#ifndef PTSBENCH_PTS_DEF_H
#define PTSBENCH_PTS_DEF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

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

/* "iops@4k/0" for messages and results. */
void pts_track_format(const struct pts_track *t, char *buf, size_t len);

#endif
