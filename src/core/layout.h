/* layout.h — a file target laid out before a workload reads it, as fio lays out its files.
 *
 * A file that was only preallocated or is sparse answers reads of that space without reading
 * the disk (device/content.h): the figures would be the page cache's and the filesystem's, not
 * the drive's. fio writes ("lays out") a file it creates before a job that reads it (fio's
 * filesetup.c, "Laying out IO file"); ptsbench does the same for every reading workload on a file
 * target, and writes exactly the never-written runs of the active range, so a file that already
 * holds data keeps it:
 *   - the runs content_probe_file() found, in order, in writes of up to LAYOUT_CHUNK bytes
 *     through the run's own O_DIRECT descriptor (the page cache keeps none of it);
 *   - the data is the run's pattern (io/pattern.h) at the workload's compressibility, so a
 *     compressing filesystem or device stores what the workload's own writes would;
 *   - then fdatasync, and the range probed again: what is still never written is recorded (a
 *     filesystem may keep an unwritten extent it was asked to write only when the write failed,
 *     which is an error here).
 * The time and bytes are shown and recorded (preconditioning.layout, reports/results-schema.md);
 * `--no-layout` skips it, and then the rounds are labelled as reading never-written space
 * (drive_state.h). */
#ifndef PTSBENCH_LAYOUT_H
#define PTSBENCH_LAYOUT_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "device/content.h"

#define LAYOUT_CHUNK (1u << 20)

struct json_object;

struct layout_result {
    bool ran;                  /* something was written */
    uint64_t bytes;            /* written */
    double seconds;            /* wall time of the writes and the sync */
    uint64_t range_bytes;      /* the active range */
    uint64_t unwritten_before, unwritten_after;   /* never-written bytes of the range */
    const char *method;        /* how the range was probed (content.h) */
};

/* Write map's never-written runs through fd (open for writing, O_DIRECT: buffers aligned to
 * align, at least 4096) with data of compress_pct compressibility from seed, sync, and probe the
 * range again. progress: print a line a second on stdout (a terminal). 0, 1 interrupted by
 * *stop (what was written is recorded), -1 with err. */
int layout_file(int fd, const struct content_map *map, unsigned compress_pct, uint64_t seed,
                uint32_t align, bool progress, volatile sig_atomic_t *stop,
                struct layout_result *out, char *err, size_t errlen);

/* {"ran", "bytes", "seconds", "mb_s", "range_bytes", "unwritten_before_bytes",
 *  "unwritten_after_bytes", "method"} */
struct json_object *layout_json(const struct layout_result *r);

#endif
