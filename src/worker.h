/* worker.h — one worker: a thread with its own engine instance running the I/O loop.
 *
 * Workers live for the whole run.  With a virtual-clock engine (the simulated drive) the pool
 * starts no threads: it runs every worker in the calling thread as a discrete-event loop,
 * always advancing the worker whose next completion comes first.  For each round the coordinator sets the round's limits,
 * releases the workers, and waits for them (worker_pool_round); each worker counts its own
 * I/Os, bytes and latency histograms and records a sample every sample interval.  Nothing in
 * the I/O loop allocates, locks or formats: per batch it stages I/Os, reads the clock, submits,
 * reaps, reads the clock, and adds the latencies to the histograms. */
#ifndef PTSBENCH_WORKER_H
#define PTSBENCH_WORKER_H

#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "engine.h"
#include "hist.h"
#include "pattern.h"
#include "rng.h"
#include "util.h"
#include "workload.h"

/* One sample interval of one worker. */
struct worker_sample {
    uint64_t ios[IO_NDIR];
    uint64_t bytes[IO_NDIR];
};

struct worker_stats {
    uint64_t ios[IO_NDIR];
    uint64_t bytes[IO_NDIR];
    struct hist lat[IO_NDIR];
    uint64_t start_ns, end_ns;       /* engine clock: first submit, end of counted time */
    struct worker_sample *samples;   /* complete intervals only */
    unsigned n_samples, cap_samples;
};

struct round_limits {
    uint64_t time_ns;          /* > 0: time-based round */
    uint64_t bytes;            /* > 0: byte-based round (per worker share computed inside) */
    uint64_t sample_ns;        /* sample interval (1 s) */
};

struct worker_pool;

/* Start `workers` threads, each initialising its engine on fd (errors are returned here, with
 * every thread joined).  regions: per-worker active ranges (split) or the shared range. */
struct worker_pool *worker_pool_start(const struct workload *wl, const struct engine_ops *ops,
                                      int fd, void *handle, uint32_t mem_align,
                                      const struct wl_range *range, volatile sig_atomic_t *stop,
                                      char *err, size_t errlen);
/* Run one round on every worker and wait. Returns 0, or -1 with an I/O error message. */
int worker_pool_round(struct worker_pool *p, const struct round_limits *lim, char *err, size_t errlen);
unsigned worker_pool_size(const struct worker_pool *p);
const struct worker_stats *worker_pool_stats(const struct worker_pool *p, unsigned i);
/* The first worker's engine (for clock/idle between rounds). */
struct engine *worker_pool_engine(struct worker_pool *p, unsigned i);
void worker_pool_stop(struct worker_pool *p);

#endif
