/* capture.h — `ptsbench trace capture`: the requests a block device is sent, recorded from the
 * kernel's block tracepoints (block_rq_issue, block_rq_complete) while a command runs, written
 * in blkparse's text form so that `ptsbench replay` (io/trace.h) and other tools read it.
 *
 * Where blktrace runs, `blktrace -d DEV` records the same requests; it needs the kernel's
 * blktrace interface in debugfs, which containers and locked-down kernels refuse. The
 * tracepoints need only tracefs. The capture works in a tracing instance of its own
 * (tracefs instances/ptsbench-capture-PID, its own ring buffer and event switches), so the
 * host's own tracing is not touched; where tracefs is not mounted, the capture mounts it on a
 * directory of its own and unmounts it after (another capture's mount is never touched). The instance is removed on every way out but SIGKILL; a later
 * capture removes an instance whose process is gone.
 *
 * Root. The ring buffer keeps what it can hold (capture_config.buffer_mb per CPU, new events
 * dropped when full, not old ones overwritten): a capture that lost events says how many and
 * fails. Time stamps are CLOCK_MONOTONIC ("mono" trace clock), in microseconds. */
#ifndef PTSBENCH_CAPTURE_H
#define PTSBENCH_CAPTURE_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct capture_config {
    const char *device;        /* a block device */
    const char *out;           /* the trace file (blkparse text), written atomically */
    uint64_t duration_ns;      /* without a command: how long (0: until interrupted) */
    char *const *argv;         /* the command to run while capturing, or NULL */
    unsigned buffer_mb;        /* ring buffer per CPU (0: 64) */
    bool quiet;
};

/* The exit code: 0 captured, 1 failed (nothing written), 2 bad input. */
int capture_run(const struct capture_config *c, volatile sig_atomic_t *stop);

/* One line of the tracepoints' text ("dd-23775 [001] ..... 7477.864861: block_rq_issue: 7,0
 * RS 4096 () 0 + 8 be,0,4 [dd]") as blkparse's ("7,0 1 SEQ 7477.864861000 23775 D RS 0 + 8
 * [dd]") into out; seq numbers the events. Returns 1 when written, 0 for a line that is not a
 * block request with a sector range (headers, flushes). Pure, for tests. */
int capture_line_to_blkparse(const char *line, uint64_t seq, char *out, size_t outlen);

#endif
