/* engine.h — the I/O engine ops table (in the shape of fio's struct ioengine_ops).
 *
 * One engine instance serves one worker: its own ring / AIO context, its own buffers.
 * The core never knows which engine runs.  The I/O loop calls, per batch:
 *
 *     queue() ... queue()   stage up to `depth` I/Os (no syscall)
 *     commit()              submit what is staged (one syscall for the batch)
 *     reap(min, max, out)   wait for at least `min` completions, return up to `max`
 *     clock()               the engine's time, read once per batch
 *
 * Time: clock() is the engine's clock in nanoseconds. Native engines return CLOCK_MONOTONIC;
 * a target that brings its own clock (the simulated SSD runs in virtual time) sets
 * ENGINE_F_VIRTUAL_CLOCK and advances time itself, and idle() (host idle, used by the
 * Host Idle Recovery test) is a real sleep for native engines and a clock jump for virtual ones.
 * Latency is measured by the loop as clock() at reap minus clock() at commit, so every engine
 * is measured the same way.
 *
 * Whole-round engines (ENGINE_F_WHOLE_ROUND: fio) hand a whole round to another program
 * instead: the pool gives them one worker and calls round() once per round, which fills the
 * same worker statistics the I/O loop fills (counts, latency histograms, samples), so every
 * figure downstream is computed the same way.
 *
 * Adding an engine: one file in src/engine/ ending with a `const struct engine_ops`,
 * plus one line in engine_registry.c's table. */
#ifndef PTSBENCH_ENGINE_H
#define PTSBENCH_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stats/hist.h"

enum io_dir { IO_READ = 0, IO_WRITE = 1, IO_TRIM = 2, IO_NDIR = 3 };

/* A direction's word in messages and records: "read", "write", "trim" ("?" out of range). */
static inline const char *io_dir_name(int dir)
{
    static const char *const names[] = {"read", "write", "trim"};
    return dir >= 0 && dir < IO_NDIR ? names[dir] : "?";
}

struct io_unit {
    uint64_t offset;       /* bytes */
    uint32_t len;          /* bytes */
    uint8_t dir;           /* enum io_dir */
    uint16_t ioprio;       /* the kernel's I/O priority value (0: the thread's own), which the
                              native engines issue (io/iogen.h iogen_prio: fio's prio keys) */
    void *buf;             /* engine-owned, aligned, registered where the engine can */
    uint32_t index;        /* position in the engine's unit array (buffer index) */
    uint64_t issue_ns;     /* set by the loop at commit */
    int64_t result;        /* bytes transferred, or -errno */
    uint64_t stall_ns;     /* virtual-clock engines: of this completion's latency, the part
                              only one of the lat_scale I/Os it stands for waited (the simulated
                              drive's pauses, sim_last_stall); 0 elsewhere */
    uint64_t sync_ns;      /* a trim done synchronously (engine_trims): its syscall's length */
};

#define ENGINE_F_VIRTUAL_CLOCK  (1u << 0)   /* clock() is not wall time: the pool runs every
                                               worker in one thread, in completion-time order */
#define ENGINE_F_SIM_TARGET     (1u << 2)   /* drives simulated targets (cfg.handle), only them */
#define ENGINE_F_WHOLE_ROUND    (1u << 3)   /* runs whole rounds (round()), not single I/Os */

struct workload;
struct wl_range;
struct placement;

/* What an engine chose on its target (engine_ops.choices; docs/engines.md, section 1: "The
 * choices, recorded"): the setting it took from the target at set-up, and per decision of its
 * reap how many waits took it.  The counters are increments where the decision is taken anyway
 * (no clock read, no syscall), counted since init; the worker records a round's difference.
 * A whole-round engine (fio) decides in its own loop: it says so (decided_by) and records the
 * job options it gave (force_async), no counters. */
struct engine_choices {
    bool known;              /* the engine records its choices (not: the simulated drive) */
    bool nowait;             /* the target took a nowait read at set-up (engine_refuses_nowait
                                false): io_uring issues each I/O nowait first; false: every
                                I/O goes to io-wq (io_uring), the device runs it inside the
                                submission call (libaio) */
    const char *decided_by;  /* NULL: the engine, counted below; "fio": fio's own loop */
    unsigned force_async;    /* decided_by fio: the job's force_async=N (0: none) */
    uint64_t marked;         /* I/Os marked IOSQE_ASYNC (io_uring, targets without nowait) */
    uint64_t waits;          /* reaps that asked for at least one completion; each took one or
                                more of the ways below, or none (one was there already) */
    uint64_t held;           /* ... that held one or two new I/Os back for the next batch */
    uint64_t spun;           /* ... that spun on the completion ring (engine_spin) */
    uint64_t napped;         /* ... that napped on a timer (engine_nap_wanted) */
    uint64_t yielded;        /* ... that yielded the CPU to io-wq (engine_yield_wanted) */
    uint64_t batched;        /* ... that slept for a batch of completions with a time bound */
    uint64_t slept;          /* ... that slept in the kernel for min completions */
};
/* d = now - start, counter by counter (the settings are now's). */
void engine_choices_since(struct engine_choices *d, const struct engine_choices *now,
                          const struct engine_choices *start);
/* sum += one worker's (the settings: nowait only while every worker's target took it). */
void engine_choices_add(struct engine_choices *sum, const struct engine_choices *one);

/* What a round measured, per worker: the I/O loop (core/worker.c) fills it for per-I/O engines,
 * a whole-round engine's round() (engine/fio.c) from its tool's output. Defined here, below
 * both. */
/* One sample interval of one worker. */
struct worker_sample {
    uint64_t ios[IO_NDIR];
    uint64_t bytes[IO_NDIR];
    /* the interval's latencies: their sum (ns) and how many, in the round histogram's units
     * (worker_stats.lat: a scaled drive's count k per completion); lat_n 0: none measured */
    uint64_t lat_ns[IO_NDIR], lat_n[IO_NDIR];
};

/* A remote load generator's own figures for a round (whole-round engines in client/server
 * mode: fio --client). lat[d]: the host's own latency histogram of direction d (fio's json+
 * bins, 1:1 to stats/hist.h buckets: engine/fio_json.h fio_lat_to_hist), NULL without I/O of
 * that direction; owned (host_figures_free), copied by host_figures_copy. disk: fio's
 * disk_util entry of that host (the device as the host's kernel names it). */
struct host_disk {
    bool present;
    char name[64];
    double util_pct;           /* io_ticks over the run, % */
    uint64_t read_ios, write_ios;
};
struct host_figures {
    char host[256];
    uint64_t ios[IO_NDIR], bytes[IO_NDIR];
    double iops[IO_NDIR];
    double lat_mean_us[IO_NDIR];   /* NAN without I/O in that direction */
    double runtime_s;
    struct hist *lat[IO_NDIR];
    struct host_disk disk;
};
/* Free the histograms of n hosts, then the array. */
void host_figures_free(struct host_figures *h, unsigned n);
/* dst[0..n) = src[0..n), each histogram duplicated. */
void host_figures_copy(struct host_figures *dst, const struct host_figures *src, unsigned n);

/* How a round's mean queue depth was found (core/metrics.h: struct depth_figure). */
enum depth_how {
    DEPTH_NONE = 0,     /* not measured (a stats record nothing filled) */
    DEPTH_LOOP,         /* the I/O loop's integral over the engine's clock (core/worker.c) */
    DEPTH_VIRTUAL,      /* the same loop over a virtual clock (the simulated drive) */
    DEPTH_LITTLE,       /* Little's law from the tool's own figures: IOPS x mean latency (fio) */
};

struct worker_stats {
    uint64_t ios[IO_NDIR];
    uint64_t bytes[IO_NDIR];
    struct hist lat[IO_NDIR];
    uint64_t start_ns, end_ns;       /* engine clock: first submit, end of counted time */
    struct worker_sample *samples;   /* complete intervals only */
    unsigned n_samples, cap_samples;
    /* The round's write-data sample, measured after the round (metrics_compute). */
    bool data_writes;                  /* the workload writes: measure the sample */
    bool data_generated;               /* the engine carries no data: the sample was generated
                                          by the worker's pattern, not written */
    unsigned data_declared_pct;        /* the workload's compress_pct */
    unsigned data_declared_dedupe_pct; /* the workload's dedupe_pct */
    const unsigned char *data_sample;  /* worker-owned, valid until the next round */
    uint32_t data_sample_len;
    struct host_figures *hosts;        /* remote generators (whole-round engines), else NULL */
    unsigned n_hosts;
    /* Queue depth: I/Os in flight integrated over the counted time [start_ns, end_ns], in
     * I/O-nanoseconds of the engine's clock, and the depth declared for what this record
     * covers (a worker's qd; a whole-round engine's jobs x iodepth). */
    double inflight_ns;
    unsigned inflight_at_end;          /* I/Os in flight at the end of the counted time */
    uint64_t done_at_submit;           /* I/Os complete when their submission returned (the
                                          engine's done_at_submit over the round); 0 unknown */
    bool done_at_submit_known;
    struct engine_choices choices;     /* the engine's over the round (engine_ops.choices) */
    unsigned depth_declared;
    enum depth_how depth_how;
    uint64_t prio_ios, prio_raised;    /* fio's cmdprio keys: I/Os issued over the round, and
                                          of them raised (io/iogen.h iogen_prio); 0: none */
};

struct round_limits {
    uint64_t time_ns;          /* > 0: time-based round */
    uint64_t bytes;            /* > 0: byte-based round (per worker share computed inside) */
    uint64_t sample_ns;        /* sample interval (1 s) */
    const char *label;         /* names the round's artifacts (whole-round engines); NULL: "round" */
};


/* One job of several run at once (io/jobset.h): whole-round engines write one job each. */
struct engine_job {
    const struct workload *wl;
    const struct wl_range *range;
    const char *label;                  /* unique among the jobs */
};

struct engine_config {
    int fd;                /* target, opened by the caller (O_DIRECT) */
    unsigned depth;        /* max I/Os in flight (queue depth) */
    uint32_t max_len;      /* largest I/O, sizes the buffers */
    uint32_t mem_align;    /* buffer alignment (>= 4096 is always used) */
    void *handle;          /* target-specific object (the simulated drive), else NULL */
    unsigned lat_scale;    /* I/Os each completion stands for (the simulated drive's k; 0 or
                              1: one): latency histograms count each completion that often */
    unsigned compress_pct; /* the workload's data compressibility, for targets that model it */
    /* For whole-round engines, which hand the workload to another program: */
    const char *path;                   /* the target's path */
    const struct workload *wl;
    const struct wl_range *range;       /* the active range */
    const struct engine_job *jobs;      /* the jobs run at once, n_jobs >= 1 (jobs[0] is wl and
                                           range when one); round() fills one worker_stats per
                                           job, out[0 .. n_jobs-1]; valid during init() only:
                                           an engine copies what it keeps */
    unsigned n_jobs;
    const char *artifact_dir;           /* where job files and outputs are kept */
    const char *const *remotes;         /* HOST[:PORT] of remote load generators */
    unsigned n_remotes;
    bool match_native;                  /* make the submission choices the native engine
                                           makes on this target (crosscheck; fio_job.h) */
    /* The worker pool's, not the engine's: where the pool pins its threads and records where
     * they ran (device/numa.h, core/worker.h); NULL: not pinned, nothing recorded. */
    struct placement *place;
};

struct engine;

struct engine_ops {
    const char *name;
    const char *description;
    unsigned flags;
    /* Create the per-worker state and `depth` units with buffers. */
    int (*init)(struct engine **out, const struct engine_config *cfg, char *err, size_t errlen);
    /* The engine's units: units[0..depth-1], each with index set, and buf set when the engine
     * carries data (the loop fills write buffers only then: a simulated drive needs none). */
    struct io_unit *(*units)(struct engine *e);
    /* Stage one unit; the loop never stages more than depth - in_flight. */
    int (*queue)(struct engine *e, struct io_unit *u);
    /* Submit every staged unit. Returns 0 or -errno. */
    int (*commit)(struct engine *e);
    /* Optional: submit the staged units now, without waiting (engines whose commit defers
     * submission to reap, to batch it with the wait). The loop calls it in the middle of a
     * batch when generating write data takes long. Returns 0 or -errno. */
    int (*flush)(struct engine *e);
    /* Wait for >= min completions (min may be 0: poll), store up to max in out[].
     * Returns the number stored or -errno. */
    int (*reap)(struct engine *e, unsigned min, unsigned max, struct io_unit **out);
    uint64_t (*clock)(struct engine *e);
    /* Virtual-clock engines: time of this instance's earliest pending completion, UINT64_MAX
     * when none is pending. The pool runs the instance whose completion comes first. */
    uint64_t (*next_completion)(struct engine *e);
    /* Host idle for ns nanoseconds (no I/O in flight). */
    int (*idle)(struct engine *e, uint64_t ns);
    /* Whole-round engines: run one round within lim and fill out (zeroed by the caller) with
     * its counts, histograms, elapsed time and samples. label names the round's artifacts.
     * Returns 0, or -1 with a message. */
    int (*round)(struct engine *e, const struct round_limits *lim, const char *label,
                 struct worker_stats *out, char *err, size_t errlen);
    /* Optional: the I/Os the device ran inside the submission call that carried them, since
     * init: a call that returned with every I/O it carried complete and no other completion
     * meanwhile (libaio on zram: the I/O is the submitting thread's own work). Read after each
     * submission (memory reads, no syscall). NULL: the engine does not look. */
    uint64_t (*done_at_submit)(struct engine *e);
    /* Optional: the engine's choices since init (struct engine_choices; memory reads only).
     * NULL: it records none. */
    void (*choices)(struct engine *e, struct engine_choices *out);
    /* Version of the library behind the engine, for the results ("liburing 2.3"). */
    const char *(*version)(void);
    /* Optional: can the engine run on this machine (its tool installed and new enough)? Asked
     * when the plan is made, before anything is written. Returns 0, or -1 with a message. */
    int (*available)(char *err, size_t errlen);
    void (*cleanup)(struct engine *e);
};

/* Registry (engine_registry.c). */
const struct engine_ops *engine_find(const char *name);
/* NULL-terminated list of all engines. */
const struct engine_ops *const *engine_list(void);
/* Helpers shared by native engines. */
uint64_t engine_clock_monotonic(struct engine *e);
int engine_idle_sleep(struct engine *e, uint64_t ns);
/* Allocate `n` buffers of `len` bytes aligned to `align` in one region, zeroed and faulted in;
 * buffers larger than a page are in 2 MiB pages where the kernel has them (engine.c says why).
 * Returns base or NULL. */
void *engine_alloc_buffers(size_t n, size_t len, size_t align, size_t *stride_out);
void engine_free_buffers(void *base, size_t n, size_t stride);
/* Does the target refuse nowait I/O?  One 4 KiB read at offset 0 with RWF_NOWAIT (preadv2):
 * EOPNOTSUPP means the device cannot take an I/O without blocking at all (a bio-based driver
 * without NOWAIT support, such as zram), so io_uring hands every I/O on it to an io-wq worker
 * (docs/engines.md: "Targets without nowait I/O").  EAGAIN (a file whose blocks are not
 * mapped yet or that has dirty pages, a busy device) says nothing about later I/Os: false; so
 * does any other error (a descriptor not open for reading) and a short read.  The read changes
 * nothing on the target. */
bool engine_refuses_nowait(int fd);

/* Trims (IO_TRIM) on the native engines, as fio 3.33 issues them with io_uring and libaio:
 * synchronously, inside queue() (fio's do_io_u_trim: a block device ioctl BLKDISCARD, a
 * regular file fallocate PUNCH_HOLE | KEEP_SIZE), no SQE or iocb. The unit waits in `done`
 * and the engine's reap() hands it back first, through its normal completion path; its
 * latency is the syscall's (reap sets issue_ns to the clock then less sync_ns). A worker
 * therefore keeps one trim in flight at a time, whatever its depth (core/run.c notes it). */
struct engine_trims {
    struct io_unit **done;   /* trims done, not yet reaped (at most depth) */
    unsigned n;
    bool blk;                /* the target is a block device (BLKDISCARD) */
};
void engine_trims_init(struct engine_trims *t, int fd, unsigned depth);
void engine_trims_run(struct engine_trims *t, int fd, struct io_unit *u);
unsigned engine_trims_take(struct engine_trims *t, unsigned max, struct io_unit **out);
void engine_trims_free(struct engine_trims *t);
/* Can the target at path discard? A block device: its queue's discard_max_bytes is not 0; a
 * file: its file system punches holes (probed on an unnamed O_TMPFILE beside it, else on the
 * file past its end: nothing written). 0, or -1 with one line naming the target. */
int engine_trim_check(const char *path, bool block, char *err, size_t errlen);

/* The CPUs the calling thread may run on (its affinity: a worker pinned with --cpus or
 * --numa, a cpuset), at least 1; the online CPUs when the affinity cannot be read.  The io-wq
 * workers that run an engine's punted I/Os take their CPUs from the same mask, so the rules
 * below count these, not the machine's: pinned to one CPU of two, one engine is an engine per
 * CPU. */
unsigned engine_thread_cpus(void);

/* Marked or not: on a target that refuses nowait I/O (above), whether the io_uring engine
 * marks an I/O IOSQE_ASYNC (docs/engines.md: "Targets without nowait I/O" says what each way
 * does; docs/engines-measurements.md M2.5 what was measured).  I/Os of ENGINE_MARK_MIN_LEN and
 * up always; shorter ones when the process's io_uring engines on such targets have more than
 * ENGINE_MARK_DEPTH_PER_CPU I/Os of depth between them per CPU (engine_thread_cpus: the workers
 * that run marked I/Os share those CPUs).
 * Measured on 2 CPUs only: a total depth of 32 ran faster unmarked, 64 and 128 marked; the
 * bound between, and its scaling with the CPU count, is UNCERTAIN. */
#define ENGINE_MARK_MIN_LEN (64u << 10)
#define ENGINE_MARK_DEPTH_PER_CPU 16u
static inline bool engine_mark_wanted(uint32_t len, unsigned total_depth, unsigned cpus)
{
    return len >= ENGINE_MARK_MIN_LEN || total_depth > ENGINE_MARK_DEPTH_PER_CPU * cpus;
}

/* Yield before sleeping: on a target that refuses nowait I/O, whether the io_uring engine's
 * reap, finding no completion, gives its CPU to the io-wq workers (sched_yield) and looks once
 * more before it sleeps, instead of spinning or sleeping at once (docs/engines.md: "Yield";
 * measured: docs/engines-measurements.md M2.8, M2.9).  With more than one I/O in flight, and
 * when the process's io_uring engines on such targets are at least as many as the CPUs
 * (engine_thread_cpus): every CPU has a thread that submits.  One engine pinned to one CPU
 * is such a case (4 KiB random reads at QD 32 on zram, pinned to CPU 0: 520K IOPS at 1.93 us
 * CPU per I/O counting the CPUs it may run on, 346K at 2.90 us counting the online ones; fio
 * 488K at 2.16 us).
 * With fewer (one engine on 2 CPUs) the yield lost at every depth and size tried, with as many
 * it won at every one; whether one engine per CPU is the bound on more CPUs is UNCERTAIN. */
static inline bool engine_yield_wanted(unsigned in_flight, unsigned engines, unsigned cpus)
{
    return in_flight > 1 && engines >= cpus;
}

/* Back-offs (the nap's and the spin's): a wait skipped while *skip counts down, and the next
 * back-off's length after one of cur (0: none running), doubling from first up to max. */
static inline bool engine_skip(unsigned *skip)
{
    if (!*skip)
        return false;
    (*skip)--;
    return true;
}
static inline unsigned engine_backoff_next(unsigned cur, unsigned first, unsigned max)
{
    return !cur ? first : cur < max / 2 ? cur * 2 : max;
}

/* The slice the io_uring engine's thread asks the scheduler for on a target that refuses
 * nowait I/O (docs/engines.md: "Short slice"): the shortest the kernel grants a SCHED_OTHER
 * thread (6.12 and later clamp a requested slice to 0.1-100 ms; the default was 1.4 ms on the
 * 2-vCPU VMs this was measured on: se.slice in /proc/TID/sched).  Measured on 2 vCPUs (kernel
 * 6.18) on zram; no other length was tried (UNCERTAIN whether a longer one would do as well).
 * -DENGINE_SLICE_NS=0u builds an engine that keeps the default. */
#ifndef ENGINE_SLICE_NS
#define ENGINE_SLICE_NS 100000u
#endif
/* sched_setattr(2)'s and sched_getattr(2)'s argument, its first version (SCHED_ATTR_SIZE_VER0,
 * 48 bytes; a SCHED_OTHER thread's slice is runtime): glibc before 2.41 has no wrapper, and
 * <linux/sched/types.h> would clash with one that has. */
struct engine_sched_attr {
    uint32_t size, policy;
    uint64_t flags;
    int32_t nice;
    uint32_t priority;
    uint64_t runtime, deadline, period;
};
#define ENGINE_SCHED_RESET_ON_FORK 0x01u   /* SCHED_FLAG_RESET_ON_FORK, in flags */

/* Nap instead of spinning: on a target that refuses nowait I/O, where the io_uring engine's
 * unmarked reap would spin at depth (engine_spin_wanted) with ENGINE_NAP_MIN_IN_FLIGHT or more
 * I/Os in flight, it sleeps ENGINE_NAP_NS on a timer instead and then takes what completed
 * meanwhile (docs/engines.md: "Nap" says why; measured: docs/engines-measurements.md M2.10).
 * A nap after which three quarters or more of what was in flight had completed nearly let the
 * device run dry: the next ENGINE_NAP_BACKOFF waits do not nap (they spin), then twice as many
 * after each such nap in a row, up to ENGINE_NAP_BACKOFF_MAX; a nap that leaves a quarter or
 * more in flight ends the back-off.  Measured on 2 vCPUs (kernel 6.18) at depths 16 to 32 on
 * zram; the 10 us and the 16 are UNCERTAIN beyond that (a timer's real length is the VM's: a
 * 10 us nap took about 30 us there, a 1 us one 18 us). */
#define ENGINE_NAP_NS 10000u
#define ENGINE_NAP_MIN_IN_FLIGHT 16u
#define ENGINE_NAP_BACKOFF 1024u
#define ENGINE_NAP_BACKOFF_MAX (1u << 20)
struct engine_nap {
    unsigned skip;      /* waits left that do not nap */
    unsigned backoff;   /* the last back-off's length; 0: none since a nap left enough in flight */
};
/* Whether a wait that would spin with in_flight I/Os submitted naps instead (counts a skipped
 * wait down). */
static inline bool engine_nap_wanted(struct engine_nap *p, unsigned in_flight)
{
    return in_flight >= ENGINE_NAP_MIN_IN_FLIGHT && !engine_skip(&p->skip);
}
/* A nap taken with in_flight I/Os submitted found `found` of them completed. */
static inline void engine_note_nap(struct engine_nap *p, unsigned found, unsigned in_flight)
{
    if ((uint64_t)found * 4 < (uint64_t)in_flight * 3) {
        p->backoff = 0;
        return;
    }
    p->backoff = engine_backoff_next(p->backoff, ENGINE_NAP_BACKOFF, ENGINE_NAP_BACKOFF_MAX);
    p->skip = p->backoff;
}

/* Spin, then sleep (io_uring.c and libaio.c; docs/engines.md section 2 says why): a reap that
 * finds no completion looks at its completion ring again for a while before it sleeps in the
 * kernel.
 * When, and how long, depends on what is in flight:
 *   - more than one I/O (at depth): for up to ENGINE_SPIN_NS, and only while the moving
 *     average of the recent waits is below that.  A spin that runs out does not back off:
 *     while it spins, completions gather, and the next wait takes them as one batch (zram,
 *     4 KiB random reads, QD 32, pinned: 0.91x fio's IOPS when it backed off there too,
 *     1.04-1.06x as it is).
 *   - one I/O (QD 1): spinning or sleeping, whichever costs the process less CPU per wait,
 *     measured (engine_qd1_spin): a block of ENGINE_QD1_TRIAL waits sleeping, then as many
 *     spinning, the process's CPU time (getrusage) read at each block's ends; the cheaper way
 *     is used for the next ENGINE_QD1_PERIOD_MIN waits, then tried again, the period doubling
 *     up to ENGINE_QD1_PERIOD_MAX while the same way wins.  A spin lasts up to half the recent
 *     waits that slept (engine_spin_limit: at least ENGINE_SPIN_NS, at most
 *     ENGINE_SPIN_MAX_NS).  Which is cheaper depends on who wakes a sleeping thread, and it is
 *     not the same on two targets of the same VM (2 vCPUs, kernel 6.18, 4 KiB random reads at
 *     QD 1): on zram every read goes through an io-wq worker, which must wake the sleeping
 *     thread across CPUs; sleeping, a wait took 60 us and the process 46 us of CPU per I/O,
 *     spinning 13-18 us and 19-24 us.  On an O_DIRECT file on the virtual disk spinning also
 *     shortened the waits (77 us to 50 us) but cost more CPU (45 us against 35 us per I/O), so
 *     there the engine sleeps as fio does.  Wall time alone could not tell the two apart.
 *     The trials' waits are measured like any other, so where one way is much faster they
 *     show in the latencies: where spinning won, a sleeping trial's waits (zram: 60 us among
 *     15 us ones) are 1 in 2000 of a million waits and 1 in 4700 of three million (a
 *     one-minute element at 50K IOPS: 10 trials), so they reach the 99.95th or 99.98th
 *     percentile and above; over a 3 s bench run (150K waits), 1 in 400.  Hence short trials
 *     and a period that grows to a million waits.
 * Back-off: a spin that runs out with only one I/O in flight was all loss (nothing else could
 * complete meanwhile), so the next 8 waits sleep at once, then 16, 32, ... up to
 * ENGINE_SPIN_BACKOFF after each such spin in a row; a spin that finds a completion ends it.
 * It runs out where the completion needs the spinning thread's own CPU (an io-wq worker on
 * zram when the thread is pinned to one CPU, as a QD 1 latency run often is: the spin held the
 * worker off the CPU for its whole length; 90K IOPS spinning every wait, 120K-134K with the
 * back-off, fio 104K-109K). */
#ifndef ENGINE_SPIN_NS   /* -DENGINE_SPIN_NS=1u builds an engine that does not spin */
#define ENGINE_SPIN_NS 10000u
#endif
#define ENGINE_SPIN_MAX_NS 50000u
#define ENGINE_SPIN_BACKOFF 1024u
#define ENGINE_QD1_TRIAL 64u
#define ENGINE_QD1_PERIOD_MIN 4096u
#define ENGINE_QD1_PERIOD_MAX (1u << 20)
struct engine_qd1 {
    unsigned phase;        /* 0: running the chosen way, 1: sleeping trial, 2: spinning trial */
    unsigned left;         /* waits left in the phase */
    unsigned period;       /* the last period's length in waits (0: none yet) */
    bool spin;             /* the chosen way */
    uint64_t cpu0;         /* the process's CPU time at the phase's start, ns */
    uint64_t cost_sleep;   /* CPU time of the last sleeping trial, ns */
    unsigned trials;       /* trials so far (for tests and a curious reader) */
};
struct engine_waits {
    uint64_t avg_ns;    /* moving average (1/8) of the time to the first completion of a wait */
    uint64_t slept_ns;  /* the same, of the waits that slept at once (no spin) */
    unsigned skip;      /* waits left that sleep without spinning */
    unsigned backoff;   /* the last back-off's length; 0: none since a spin found a completion */
    struct engine_qd1 qd1;
};
/* The trials' next phase, started at the process CPU time `now` (engine.c); returns whether its
 * first wait spins. */
bool engine_qd1_phase(struct engine_waits *w, uint64_t now);
/* The process's CPU time (getrusage: every thread, io-wq workers included), ns. */
uint64_t engine_process_cpu_ns(void);
/* One wait at QD 1: whether it spins (the trials above).  cpu_ns reads the process's CPU time;
 * it is called once per phase, not per wait: the wait in a phase is counted inline, on the I/O
 * loop's path.  engine_qd1_spin is the same with getrusage. */
static inline bool engine_qd1_step(struct engine_waits *w, uint64_t (*cpu_ns)(void))
{
    struct engine_qd1 *q = &w->qd1;
    if (q->left) {
        q->left--;
        return q->phase == 0 ? q->spin : q->phase == 2;
    }
    return engine_qd1_phase(w, cpu_ns());
}
static inline bool engine_qd1_spin(struct engine_waits *w)
{
    return engine_qd1_step(w, engine_process_cpu_ns);
}
/* How long a spin with in_flight I/Os submitted may last. */
static inline uint64_t engine_spin_limit(const struct engine_waits *w, unsigned in_flight)
{
    const uint64_t half = w->slept_ns / 2;
    if (in_flight > 1 || half <= ENGINE_SPIN_NS)
        return ENGINE_SPIN_NS;
    return half < ENGINE_SPIN_MAX_NS ? half : ENGINE_SPIN_MAX_NS;
}
/* Whether a wait for min completions with in_flight I/Os submitted spins first (counts a
 * skipped wait down). Inline: it is asked on every reap. */
static inline bool engine_spin_wanted(struct engine_waits *w, unsigned min, unsigned in_flight)
{
    if (min != 1)
        return false;
    if (in_flight <= 1 ? !engine_qd1_spin(w) : w->avg_ns >= ENGINE_SPIN_NS)
        return false;
    return !engine_skip(&w->skip);
}
/* A wait that took ns to its first completion (0: there was one already); slept: it did not
 * spin first. */
static inline void engine_note_wait(struct engine_waits *w, uint64_t ns, bool slept)
{
    w->avg_ns += ((int64_t)ns - (int64_t)w->avg_ns) / 8;
    if (slept)
        w->slept_ns += ((int64_t)ns - (int64_t)w->slept_ns) / 8;
}
/* Look (no syscall: `look` reads the engine's completion ring, up to max into out) until it
 * finds completions or engine_spin_limit has passed since t0; the clock is read every 16
 * looks.  Returns what the look found, 0 when the time ran out (then w backs off if
 * in_flight <= 1: the I/Os the engine has submitted and not yet handed out). */
typedef unsigned (*engine_look_fn)(struct engine *e, unsigned max, struct io_unit **out);
unsigned engine_spin(struct engine *e, struct engine_waits *w, engine_look_fn look, unsigned max,
                     struct io_unit **out, uint64_t t0, unsigned in_flight);

#endif
