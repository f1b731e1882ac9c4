/* live.h — the live line on a terminal: one line rewritten in place ("\r\033[K") while a long
 * step or round runs, fed by the worker pool's progress hook (worker.h). Lines of finished work
 * are printed over it (live_clear first) and the live line goes on below them.
 *
 *   live_meter  bytes done / target, rate and ETA of a byte-bounded step (WIPC), or the rate
 *               of a time-bounded round (its elapsed / length) -- a prefix names the work.
 *
 * The figures are in full-size terms (a scaled simulated drive's counts times its weight) and
 * in the engine's time: virtual time on the simulated drive, which the line says. */
#ifndef PTSBENCH_LIVE_H
#define PTSBENCH_LIVE_H

#include <stdbool.h>
#include <stdint.h>

#include "core/worker.h"

struct live_meter {
    char prefix[256];          /* "  WIPC", "[iops] round 2/25 element 3/56" */
    double target_bytes;       /* byte-bounded: the full-size bytes to write; 0: time-bounded */
    double length_s;           /* time-bounded: the round's length (0: unknown) */
    double weight;             /* full-size bytes per engine byte (run_target_weight) */
    bool sim;                  /* the line says "(simulated, virtual time)" */
    bool mb_s;                 /* time-bounded lines show MB/s (else IOPS) */
    uint64_t last_print_ns;    /* wall clock of the last print (at most 5 prints a second) */
    bool printed;
};

/* The pool_progress_fn: arg is a struct live_meter. */
void live_meter_hook(void *arg, const struct pool_progress *p);
/* Erase the live line (the cursor back at the start of an empty line). */
void live_clear(void);
/* "45s", "4 min", "1 h 20 min": a duration for an ETA. */
void live_format_eta(double sec, char *buf, size_t len);

#endif
