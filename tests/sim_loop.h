/* sim_loop.h — closed-loop drivers for the simulated SSD (src/sim), shared by the sim tests.
 *
 * A loop runs one or more workers against one drive. Each worker is a closed loop at a fixed
 * queue depth: it keeps `qd` I/Os outstanding and submits its next I/O at the completion time
 * of one of them. All workers share the drive in completion-time order (one min-heap of the
 * outstanding I/Os keyed by completion time, ties by slot number: worker 0's slots first), so
 * the submit times passed to sim_submit never decrease. Deterministic: same drive, jobs and
 * seeds give the same I/O stream and the same figures.
 *
 * Time is the drive's virtual time (dilated by k, sim.h). Completions weigh k: the figures
 * below are full-size ones (IOPS = completions x k / virtual seconds, latency = virtual
 * latency / k). Wall-clock waits are not dilated: an idle gap of 5 s is 5e9 virtual ns.
 *
 * No cmocka here (the benchmarks link this too): misuse returns -1 with a message, and an
 * I/O that completes before it was submitted aborts. */
#ifndef PTSBENCH_TEST_SIM_LOOP_H
#define PTSBENCH_TEST_SIM_LOOP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sim/sim.h"

/* One worker's stimulus. Zero-initialised fields give: QD 1, 4 KiB, 100 % write, 100 %
 * random, incompressible, the whole drive, seed 777 + worker index. */
struct sim_loop_job {
    unsigned qd;             /* outstanding I/Os (0 = 1) */
    uint32_t bs;             /* bytes per I/O, multiple of 512 (0 = 4096) */
    unsigned read_pct;       /* share of reads, 0..100 (one PRNG draw per I/O only if 1..99) */
    unsigned random_pct;     /* share of random offsets, 0..100; the rest continue from the end
                                of the worker's previous I/O, like fio's percentage_random.
                                Give 100 for random: 0 means sequential */
    unsigned compress_pct;   /* data compressibility of the writes, 0..100 */
    bool perm;               /* random offsets: the first pass visits every bs block of the
                                range once in random order (fio's random map), then uniform */
    uint64_t seed;           /* PRNG (splitmix64); 0 = 777 + worker index */
    uint64_t offset, span;   /* range in bytes (scaled address space); span 0 = to the end */
};

struct sim_loop_worker {
    struct sim_loop_job job;
    uint64_t rs;             /* PRNG state */
    uint64_t blocks;         /* bs blocks in the range */
    uint32_t *perm;
    uint64_t np;             /* perm entries used */
    uint64_t next;           /* block after the previous I/O (sequential continuation) */
};

/* Counts over one call (or merged calls), unweighted: multiply by k for full size. */
struct sim_loop_stats {
    uint64_t ios, reads, writes;
    uint64_t read_bytes, write_bytes;
    double lat_ns, rlat_ns, wlat_ns;   /* sums of virtual latency */
    simt t0, t1;                       /* virtual interval the counts cover */
};

struct sim_loop {
    struct sim_dev *d;
    unsigned k;              /* sim_info().k: the weight of a completion */
    uint64_t units;          /* 4 KiB units of the drive (scaled) */
    uint64_t user_bytes;
    unsigned nw;
    struct sim_loop_worker *w;
    unsigned nslots;         /* sum of the workers' qd */
    unsigned *slot_w;        /* slot -> worker */
    simt *t_done, *t_sub;    /* per slot: completion and submit time of the I/O in flight */
    uint8_t *op;             /* per slot: SIM_READ / SIM_WRITE */
    uint32_t *len;           /* per slot: bytes */
    unsigned *heap, nheap;   /* slots in flight by (t_done, slot) */
    simt now;                /* time of the latest completion handled (or of the restart) */
};

/* Start every worker at virtual time `now` (each submits qd I/Os). 0, or -1 with a message
 * (bad job: block size, range). */
int sim_loop_open(struct sim_loop *L, struct sim_dev *d, const struct sim_loop_job *jobs,
                  unsigned njobs, simt now, char *err, size_t errlen);
void sim_loop_close(struct sim_loop *L);

/* Handle n completions, each worker resubmitting at the completion time. Returns full-size
 * IOPS over [now at the call, time of the n-th completion]; counts into *s if given. */
double sim_loop_run(struct sim_loop *L, uint64_t n, struct sim_loop_stats *s);
/* Handle every completion at or before t_end (resubmitting), then now = t_end. Returns
 * full-size IOPS over [now at the call, t_end]. */
double sim_loop_run_until(struct sim_loop *L, simt t_end, struct sim_loop_stats *s);
/* Let every outstanding I/O complete without submitting more (a round's end); now = the last
 * completion. Counts into *s if given (s->t1 = now). */
void sim_loop_drain(struct sim_loop *L, struct sim_loop_stats *s);
/* Idle gap: drain (counted into *s if given), then nothing outstanding for `gap` ns, then
 * every worker starts again (qd I/Os each) at now + gap. */
void sim_loop_idle(struct sim_loop *L, simt gap, struct sim_loop_stats *s);

/* Figures of a stats record, full size. */
double sim_loop_iops(const struct sim_loop *L, const struct sim_loop_stats *s);
double sim_loop_mib_s(const struct sim_loop *L, const struct sim_loop_stats *s);   /* 2^20 B/s */
/* Mean latency in full-size microseconds: op = -1 all, SIM_READ, SIM_WRITE. */
double sim_loop_lat_us(const struct sim_loop *L, const struct sim_loop_stats *s, int op);
/* Add b's counts to a (a->t1 = b->t1; a->t0 kept, or b->t0 when a is empty). */
void sim_loop_stats_add(struct sim_loop_stats *a, const struct sim_loop_stats *b);

/* The splitmix64 step the loop draws offsets with (tests use it for their own streams). */
uint64_t sim_loop_rand(uint64_t *state);

#endif
