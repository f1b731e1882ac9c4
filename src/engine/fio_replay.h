/* fio_replay.h — a trace replayed by fio itself: an iolog (version 3) given to fio's
 * read_iolog, every I/O redirected to the target (replay_redirect), at the log's times
 * (replay_time_scale) or as fast as possible (replay_no_stall), at a queue depth. The replay
 * command (core/replay.h) uses it for --engine fio and fio-libaio, so a replay can be
 * checked against fio's own. Implemented in fio.c beside the engine's rounds. */
#ifndef PTSBENCH_FIO_REPLAY_H
#define PTSBENCH_FIO_REPLAY_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/engine.h"

struct fio_replay_opts {
    const char *ioengine;      /* "io_uring" or "libaio" (the engine_ops name decides) */
    const char *target;        /* replay_redirect */
    const char *iolog;         /* the iolog to replay */
    unsigned iodepth;
    bool no_stall;             /* as fast as possible */
    unsigned time_scale_pct;   /* replay_time_scale: 100 = the log's times */
    const char *dir;           /* where the job file, fio's JSON and stderr are kept */
    const char *label;         /* their names' stem */
};

/* Run fio on the log; its counts and latency histograms into s (zeroed by the caller),
 * s->end_ns the runtime; *util_pct fio's disk utilisation (NAN when it gives none); *version
 * fio's. 0, 1 when stopped by the stop flag (nothing counted), -1 with one line. */
int fio_replay_run(const struct fio_replay_opts *o, struct worker_stats *s, double *util_pct,
                   char *version, size_t vlen, char *err, size_t errlen);
/* The name fio knows the engine by, for an engine_ops (fio -> io_uring, fio-libaio -> libaio);
 * NULL for an engine that is not fio's. */
const char *fio_replay_ioengine(const struct engine_ops *ops);

#endif
