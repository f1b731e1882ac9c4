/* workload.h — the workload model: what I/O to issue, independent of engine and target.
 *
 * A workload comes from an inline spec ("rw=randrw,rwmix=65,bs=4k,qd=32,workers=4,compress=90"),
 * from a profile file in the INI syntax of ini.h, or from a fio job file. All go through
 * wl_set(), so a key means the same thing everywhere.
 *
 * The keys are rows (lib/keys.h) in io/workload.c, one per key, in four groups:
 *   workload   ptsbench's own keys, with fio's names first where fio has one (rw, rwmixread,
 *              percentage_random, random_map, random_distribution, bs, bssplit, iodepth,
 *              numjobs, region, offset, size, buffer_compress_percentage, runtime,
 *              round_bytes, randseed, name, description) and their aliases (qd, workers, ...)
 *   profile    the matrix `ptsbench profile` runs (sweep_qd, sweep_workers, sweep_compress,
 *              precondition); `ptsbench run` runs the workload's own point and ignores them
 *   fio        fio's job-file keys ptsbench takes (ioengine, direct, time_based, ramp_time,
 *              rate, rate_iops, rate_process, thinktime*, startdelay, number_ios, loops,
 *              fill_device, iodepth_batch*, kb_base, filename, ...) and those it takes
 *              without effect (group_reporting, thread, ...); a bare key is a flag where fio's is
 *   noted      fio's keys that change only fio's own logs or report (write_lat_log,
 *              gtod_reduce, ...): taken, with a note in wl->note saying what fio would do
 *   refused    fio's keys that would change the measurement and that ptsbench does not do
 *              (verify*, fsync, rate_min, zonemode, ...): one error naming the key and why
 * Every option of fio 3.33 (io/fio_opts.h) is one of these; an option of an engine ptsbench
 * does not run is refused naming the engine.
 * Each row's values and one line of help are printed by `ptsbench run --help` (wl_keys_print);
 * docs/workloads.md says what each key means in full, how fio's keys are taken and where fio's
 * defaults differ, and engine/engine_keys.h how each engine applies each key.
 *
 * The contract:
 *   - wl_set() takes one key: 0, or -1 with one line "WHERE: key=value: why" ("WHERE: key why
 *     (key=value)" for a reason about the key as a whole; "WHERE: unknown key 'K' (fio has
 *     no such option either)[: did you mean 'X'?]";
 *     "WHERE: key: why" for a refused one); an empty value is refused but for flags.
 *   - wl_parse_inline(), wl_load_file(), wl_load_ini(), wl_load_fio() and wl_resolve() start
 *     from wl_init() and end with wl_validate(): what they return is complete and consistent
 *     (rw, rwmixread and percentage_random agree; bssplit weights sum to 100; ranges hold).
 *   - A job file gets fio's defaults (rw=read, ioengine=psync as iodepth=1, random_map=always,
 *     region=shared, direct=0: buffered, iodepth_batch_submit=1; sizes by kb_base 1024); what
 *     is not taken one to one
 *     is said in wl->note, which the results keep.
 *   - Sizes are ptsbench's (units.h: 4k = 4096, 4kB = 4000) unless kb_base is given. */
#ifndef PTSBENCH_WORKLOAD_H
#define PTSBENCH_WORKLOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define WL_MAX_BS 64

struct wl_bs {
    uint32_t size;     /* bytes */
    uint32_t weight;   /* percent of I/Os; all weights sum to 100 */
};

/* An offset or length given either in bytes or as a percent of target capacity. */
struct wl_extent {
    bool set;
    bool is_percent;
    double percent;    /* 0..100 when is_percent */
    uint64_t bytes;
};

enum wl_region { WL_REGION_DEFAULT = 0, WL_REGION_SHARED, WL_REGION_SPLIT };
enum wl_dist { WL_DIST_UNIFORM = 0, WL_DIST_ZIPF, WL_DIST_PARETO, WL_DIST_NORMAL };
enum wl_random_map { WL_RANDOM_MAP_ONCE = 0, WL_RANDOM_MAP_ALWAYS, WL_RANDOM_MAP_OFF };

#define WL_MAX_ZONES 16
#define WL_MAX_SWEEP 32

/* A list of values of one matrix axis (sweep_qd, sweep_workers, sweep_compress). */
struct wl_sweep {
    unsigned v[WL_MAX_SWEEP];
    unsigned n;                /* 0: not given */
};

enum wl_precondition { WL_PRECOND_DEFAULT = 0, WL_PRECOND_STEADY, WL_PRECOND_WIPC,
                       WL_PRECOND_NONE };
struct wl_zone {
    unsigned access_pct;       /* share of random accesses */
    unsigned range_pct;        /* share of the active range (zones follow each other) */
};

struct workload {
    char name[64];
    char description[160];
    char source[320];          /* "inline" or "path[:section]" — where it came from */
    char rw[16];               /* rw as given, normalised: "randrw", "read", ... */
    unsigned read_pct;         /* 0..100 */
    unsigned random_pct;       /* 0..100 */
    struct wl_bs bs[WL_MAX_BS];
    unsigned n_bs;
    unsigned qd;               /* per worker */
    unsigned workers;
    enum wl_region region;
    struct wl_extent offset, size;
    unsigned compress_pct;     /* 0..100 */
    uint64_t round_time_ns;    /* 0 = not set */
    uint64_t round_bytes;      /* 0 = not set */
    uint64_t seed;
    /* Internal: which of rw/rwmix/percentage_random were given, for consistency checks. */
    enum wl_random_map random_map;
    bool random_map_set;       /* random_map or norandommap given (a fast pass keeps it) */
    struct wl_zone zones[WL_MAX_ZONES];   /* random_distribution=zoned; n_zones 0 = uniform */
    unsigned n_zones;
    bool rw_set, mix_set, random_set;
    bool trim;                 /* rw=trim|randtrim|trimwrite|randtrimwrite: trims issued (a
                                * discard); trim jobs issue no reads (read_pct 0) */
    bool trimwrite;            /* rw=trimwrite|randtrimwrite: each trim followed by a write of
                                * the same block (fio's), so as many writes as trims */
    /* Profile matrix (the profile keys). */
    struct wl_sweep sweep_qd, sweep_workers, sweep_compress;
    enum wl_precondition precondition;
    /* fio's keys */
    enum wl_dist dist;
    double dist_param;         /* theta, h, sigma (percent) */
    double dist_center;        /* 0..1, or -1: spread (zipf, pareto), the middle (normal) */
    unsigned kb_base;          /* 0: ptsbench's units; 1024 / 1000: fio's rules */
    char engine[16];           /* "io_uring", "libaio", or "" */
    char filename[256];
    char directory[256];       /* fio's directory: filename inside it, or a file per job */
    bool own_file;             /* directory without filename: fio gives the job (each of its
                                  numjobs) a file of its own; io/jobset.c lays them out */
    uint64_t ramp_ns;
    unsigned rate_iops;        /* rate_iops=N as one value (rate_iops_dir: per direction) */
    uint64_t thinktime_ns;
    unsigned batch_submit, batch_complete_min;
    unsigned batch_complete_max;   /* 0: not given; else at least qd (wl_validate) */
    bool time_based;
    bool sync_engine;          /* ioengine=sync/psync/...: one I/O in flight per worker */
    bool fio;                  /* read from a fio job file (wl_load_fio) */
    bool direct_set;           /* direct=1 (or buffered=0) was given */
    /* fio's pacing and flow keys, as fio 3.33 applies them per job (= per worker here);
     * core/worker.c runs them, docs/workloads.md says how. Index 0 reads, 1 writes, 2 trims
     * (fio's: a value not followed by a comma applies to the directions after it). */
    uint64_t rate_bps[3];          /* rate=R[,W[,T]]: bytes a second, 0: no cap that direction */
    unsigned rate_iops_dir[3];     /* rate_iops=R[,W[,T]] (one value: all; rate_iops above) */
    bool rate_poisson;             /* rate_process=poisson: exponential gaps, same mean */
    bool rate_offload;             /* io_submit_mode=offload: no quiesce when ahead of rate */
    unsigned thinktime_blocks;     /* think after this many issues (0 or 1: every one) */
    bool thinktime_blocks_set;
    uint64_t thinktime_spin_ns;    /* of thinktime: polled (CPU busy), the rest slept */
    uint64_t thinktime_iotime_ns;  /* think after this long issuing (or the blocks) */
    uint64_t startdelay_ns;        /* each round: the job starts this long into it */
    uint64_t number_ios;           /* a round ends after this many I/Os per worker; 0: none */
    unsigned loops;                /* fio's loops (> 1: folded by wl_validate, then 1) */
    bool fill_device;              /* a round ends once the active range is written */
    /* fio's flow control between jobs (issue 47, "flow"; fio 3.33 flow.c): the workers of the
     * jobs with the same flow_id share a count of issues; a worker whose share of it is above
     * its weight's share of the weights waits (flow_sleep_ns, after every I/O in flight
     * completes; 0: retries at once) -- core/worker.c flow_* */
    unsigned flow;                 /* weight, 0..1000; 0: no flow control */
    unsigned flow_id;
    uint64_t flow_sleep_ns;
    struct wl_extent filesize;     /* fio's filesize with one file: the range's length */
    char note[640];            /* how fio's keys were taken, when not one to one */
    /* fio's steady state (ss, ss_dur, ss_ramp, ss_interval) and latency target
     * (latency_target, latency_window, latency_percentile, latency_run): what the job asked;
     * core/fio_ss.h maps the first to the run's rule, core/lat_target.h runs the second */
    struct wl_ss {
        enum wl_ss_metric { WL_SS_NONE = 0, WL_SS_IOPS, WL_SS_BW, WL_SS_LAT } metric;
        bool slope;            /* iops_slope, bw_slope, lat_slope: the least-squares slope */
        bool pct;              /* the limit is a percent of the window's mean */
        double limit;          /* percent, or IOPS, bytes/s, microseconds */
        uint64_t dur_ns;       /* ss_dur: fio's window (0: fio does no detection) */
        uint64_t ramp_ns;      /* ss_ramp: before fio collects */
        uint64_t interval_ns;  /* ss_interval: fio's sample interval (0: fio's 1 s) */
    } ss;
    struct wl_lat_target {
        uint64_t target_ns;    /* 0: no search */
        uint64_t window_ns;    /* each depth is judged over this long (0: every check) */
        double percentile;     /* share of a window's I/Os within the target (0: fio's 100) */
        bool run;              /* latency_run: keep adjusting after the search settles */
    } lat;
    /* fio's sizes per direction, bsrange, blockalign; buffered I/O (issue 47, "keys").
     * bs[] are the reads' sizes, and every I/O's unless writes have their own (wl_validate
     * keeps them only for a read/write mix, else moves the one direction's sizes to bs[]). */
    struct wl_bs bs_write[WL_MAX_BS];   /* bs=R,W or bssplit=R,W: the writes' sizes */
    unsigned n_bs_write;                /* 0: writes take bs[] */
    uint32_t bsrange_hi[2];    /* [read, write] bsrange=LO-HI: sizes from bs[0] (bs_write[0])
                                * to HI, uniform over multiples of LO as fio's; 0: none */
    struct wl_bs bs_trim[WL_MAX_BS];    /* bs=R,W,T (a third value): the trims' sizes, moved to
                                         * bs[] by wl_validate for a trim job (no reads) */
    unsigned n_bs_trim;                 /* 0: trims take the writes' (fio's default) */
    uint32_t bsrange_hi_trim;           /* bsrange's third value's HI */
    uint32_t blockalign;       /* random offsets' alignment in bytes; 0: ptsbench's (each size
                                * its natural alignment; by direction: the smallest size) */
    bool buffered;             /* direct=0 / buffered=1: through the page cache */
    unsigned iodepth_low;      /* fio's refill mark: 0 not given, else at least iodepth */
    /* fio's offset modifier rw=MODE:N and zonemode=strided (issue 47, "offset"; iogen.h) */
    int64_t seq_add;           /* sequential rw=read:N: N bytes skipped after each I/O (< 0:
                                * back; past the range's start, on from its end + N) */
    unsigned seq_nr;           /* random rw=randread:N: a random offset every Nth I/O, the
                                * others sequential after it (0 or 1: every I/O random) */
    bool seq_identical;        /* rw_sequencer=identical: those others at the same offset */
    unsigned zonemode;         /* WL_ZONEMODE_*: as given (wl_validate: NONE or STRIDED) */
    uint64_t zone_size;        /* strided: bytes of I/O in each zone before the next one */
    uint64_t zone_range;       /* strided: each zone's length (0 given: zone_size) */
    uint64_t zone_skip;        /* strided: the gap after each zone's range */
    /* fio's I/O priorities (issue 47, "prio"): prio/prioclass, every I/O's unless raised;
     * cmdprio_percentage or cmdprio_bssplit, which I/Os are raised, per direction, to
     * cmdprio_class/cmdprio or the entry's own. Values are the kernel's IOPRIO_PRIO_VALUE
     * (class << 13 | level; 0: none given); io/iogen.h draws, the native engines issue them. */
    struct wl_prio {
        int cls, level;            /* prioclass, prio: -1 not given */
        unsigned pct[2];           /* cmdprio_percentage=R[,W] */
        unsigned cmd_cls[2], cmd_level[2];   /* cmdprio_class (fio's default 1: RT), cmdprio */
        struct wl_prio_split {
            uint32_t bs;
            unsigned pct;          /* of this size's I/Os */
            int cls, level;        /* -1 (until wl_validate): cmdprio_class, cmdprio */
        } split[2][WL_MAX_BS];     /* cmdprio_bssplit=R[,W], entries of 0 % dropped (fio) */
        unsigned n_split[2];
    } prio;
    /* fio's dedupe keys (io/pattern.h makes the data) and NUMA keys (core/job_numa.h takes
     * them as the run's placement when the command gives none and every job agrees) */
    unsigned dedupe_pct;       /* dedupe_percentage: share of 4 KiB chunks repeating one */
    bool dedupe_working_set;   /* dedupe_mode=working_set (else repeat, fio's default) */
    unsigned dedupe_ws_pct;    /* dedupe_working_set_percentage of the range; 0: fio's 5 */
    bool dedupe_global;        /* the working set shared by every job of the run */
    char numa_cpu_nodes[64];   /* as given: "all" or a node list; "" not given */
    char numa_mem_policy[64];  /* as given: default, local, prefer:N, bind:L, interleave:L */
    /* Internal, no key: the fast preconditioning pass (core/steps.c step_fast). When on, every
     * worker writes bs[0]-sized units in the order io/fastgen.h hands it, its share of the pass
     * over the active range built for rho, the permutation keyed by seed (the same in every
     * worker); past its share of the pass, uniform random units of its share. */
    struct wl_fastpass {
        bool on;
        double rho;
        uint64_t seed;
    } fastpass;
};

/* zonemode: not given (zonesize alone means strided, as fio), none, strided. */
enum { WL_ZONEMODE_UNSET = 0, WL_ZONEMODE_NONE, WL_ZONEMODE_STRIDED };

/* The kernel's I/O priority value of class and level (ioprio.h IOPRIO_PRIO_VALUE); class 0
 * is best effort's, as fio's ioprio_value. */
static inline uint16_t wl_ioprio(int cls, int level)
{
    return (uint16_t)(((cls ? cls : 2) << 13) | level);
}
/* The I/O priority of every I/O not raised: prio/prioclass, or 0 (the thread's own). */
static inline uint16_t wl_prio_default(const struct workload *wl)
{
    if (wl->prio.cls < 0 && wl->prio.level < 0)
        return 0;
    return wl_ioprio(wl->prio.cls < 0 ? 0 : wl->prio.cls, wl->prio.level < 0 ? 0 : wl->prio.level);
}
/* Does the workload raise some I/Os' priority (cmdprio_percentage, cmdprio_bssplit)? */
static inline bool wl_prio_raises(const struct workload *wl)
{
    return wl->prio.pct[0] || wl->prio.pct[1] || wl->prio.n_split[0] || wl->prio.n_split[1];
}

/* "steady", "wipc", "none" (NULL for the default) and back; parse returns -1 when unknown. */
const char *wl_precondition_name(enum wl_precondition p);
int wl_precondition_parse(const char *s, enum wl_precondition *out);
/* Parse a list "1:2:4" or "1,2,4" of integers in [lo, hi] into sw (at most WL_MAX_SWEEP,
 * duplicates refused). Returns 0, or -1 with the reason in why. */
int wl_sweep_parse(const char *value, unsigned lo, unsigned hi, struct wl_sweep *sw, char *why,
                   size_t whylen);

/* Defaults: rw=randread, rwmixread follows rw, bs=4k, qd=1, workers=1, region by rw,
 * offset=0, size=100%, compress=0, seed=0x5054534245 ("PTSBE"). */
void wl_init(struct workload *wl);

/* Set one key. `where` is a prefix for messages ("inline" or "profiles/web.ini:12").
 * Errors name the key and the bad value, e.g. "inline: bs=4q: bad size '4q'". */
int wl_set(struct workload *wl, const char *key, const char *value, const char *where,
           char *err, size_t errlen);

/* Inline spec: comma-separated key=value. bssplit's own ':' and '/' are fine. */
int wl_parse_inline(const char *spec, struct workload *wl, char *err, size_t errlen);

/* Profile file. section NULL: the first section other than "global" (global keys apply
 * first, then the section's). */
int wl_load_file(const char *path, const char *section, struct workload *wl,
                 char *err, size_t errlen);
/* The same from a file already parsed (ini.h), so that a profile of many sections is parsed
 * once rather than once per section. */
struct ini_file;
int wl_load_ini(const struct ini_file *f, const char *section, struct workload *wl, char *err,
                size_t errlen);

/* A fio job file: [global] and job sections, keys as fio spells them (bare flags too), sizes
 * by kb_base (1024 unless the file says). section NULL: the file's one job (several: an error
 * naming them, since fio would run them at once and ptsbench runs one workload). Keys ptsbench
 * has no use for but that change nothing it measures are accepted; keys that would change the
 * measurement and that it does not do are one error naming the key and why. */
int wl_load_fio(const char *path, const char *section, struct workload *wl, char *err,
                size_t errlen);

/* SPEC is inline when it contains '='; otherwise a file path ("x.ini" or "x.ini:section", a
 * fio job file "x.fio" or "x.fio:section") if it exists, otherwise a profile name looked up as
 * DIR/NAME.ini in each of the NULL-terminated data directories (each being a "profiles"
 * directory). */
int wl_resolve(const char *spec, const char *const *profile_dirs, struct workload *wl,
               char *err, size_t errlen);

/* The keys wl_set takes, one at a time: i = 0, 1, ... until NULL (aliases each count; the
 * keys it refuses by name do not). */
const char *wl_key_at(size_t i);
/* How wl_set takes key: "honoured", "noted" (taken, a note recorded), "refused", or NULL when
 * fio has no such option either. */
const char *wl_key_class(const char *key);
/* The row key stands for (an alias gives its row's key), or NULL when it has no row. */
const char *wl_key_row(const char *key);
/* Row i of the key table (lib/keys.h), in table order, or NULL past the end (docs/workloads.md's
 * key table is made from them: tests/unit/test_keys_fio.c). */
struct key_row;
const struct key_row *wl_row_at(size_t i);
/* The key rows of group ("workload", "profile", "fio", "refused"; NULL: all) for --help: each
 * key with its aliases, its values and one line of help. */
void wl_keys_print(FILE *out, const char *group);

/* Add a sentence to wl->note (how a key was taken, when not one to one), once. */
void wl_note_add(struct workload *wl, const char *text);

/* Consistency after all keys: weights sum, rw vs rwmix, ranges. */
int wl_validate(struct workload *wl, char *err, size_t errlen);

/* Active range in bytes on a target. */
struct wl_range {
    uint64_t start;
    uint64_t len;
};

/* Check the workload against a target: every block size and the active range's offset and
 * length must be multiples of the logical sector size, the range must fit in the capacity,
 * and must hold at least one of the largest blocks per worker region.
 * target_name is used in messages. */
int wl_check_target(const struct workload *wl, uint64_t capacity, uint32_t logical_sector,
                    const char *target_name, struct wl_range *out, char *err, size_t errlen);
/* The same on a simulated drive scaled down `scale` times (capacity its addressable, scaled
 * bytes): offset= and size= in bytes mean the full-size drive's, as every figure the results
 * report does, and are divided by scale (a whole number of sectors); percentages are of the
 * capacity either way; messages give full-size bytes. The range out is in the target's
 * (scaled) address space. A size in bytes that the scale takes below the room of one largest
 * block (one per worker when split) is raised to that room: the caller says so in the
 * results' note (wl_note_raised). */
int wl_check_target_scaled(const struct workload *wl, uint64_t capacity,
                           uint32_t logical_sector, uint64_t scale, const char *target_name,
                           struct wl_range *out, char *err, size_t errlen);
/* When wl_check_target_scaled raised wl's size to range (the same scale and sector): the note
 * saying so ("size=256 KiB is 2 KiB on TARGET, scaled down 128 times, less than the job's room
 * of one block: raised to 4 KiB, which stands for 512 KiB of the full-size drive"), added to
 * wl's note. Returns whether it was raised. */
bool wl_note_raised(struct workload *wl, const struct wl_range *range, uint64_t scale,
                    uint32_t logical_sector, const char *target_name);

/* Fit a bssplit to a device whose logical sector is larger than some of its block sizes (a 4Kn
 * drive cannot do the 512 B and 1 KiB transfers of the Iometer file/web server mixes): every
 * size below `sector` is raised to it, weights merged. Returns 0 when nothing needed to change,
 * 1 when sizes were raised (what changed is described in what, e.g. "512 B, 1 KiB, 2 KiB
 * (45% of I/Os) raised to 4 KiB"), -1 when it cannot be fitted: a single block size below the
 * sector (an ATTO 0.5 KiB point: skip it rather than measure 4 KiB twice). */
int wl_fit_sector(struct workload *wl, uint32_t sector, char *what, size_t whatlen);

/* Do reads and writes draw their sizes apart (bs=R,W, bssplit=R,W, bsrange)? */
static inline bool wl_sizes_by_dir(const struct workload *wl)
{
    return wl->n_bs_write > 0 || wl->bsrange_hi[0] || wl->bsrange_hi[1];
}

/* True when the workload issues any writes. */
static inline bool wl_writes(const struct workload *wl) { return wl->read_pct < 100; }

uint32_t wl_max_bs(const struct workload *wl);
uint32_t wl_min_bs(const struct workload *wl);
/* The smallest size of direction dir (0 reads, 1 writes; writes without sizes of their own:
 * the shared ones). */
uint32_t wl_dir_min_bs(const struct workload *wl, unsigned dir);

/* Canonical inline form, e.g. "rw=randrw,rwmixread=65,bs=4k,iodepth=32,numjobs=4,..." */
void wl_format(const struct workload *wl, char *buf, size_t len);

#endif
