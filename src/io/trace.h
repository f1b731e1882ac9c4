/* trace.h — block I/O traces: the I/Os a replay issues, read from a file, and what the trace
 * itself says about its workload (counts, bytes, sequential share, queue depths, busy time).
 *
 * Formats (trace_load tells them apart by their first bytes; docs/replay.md has examples):
 *   blktrace   the kernel's binary trace (`blktrace -d DEV`: one file per CPU, DEV.blktrace.N,
 *              or `blkparse -d FILE` merged into one): struct blk_io_trace records. The
 *              I/Os are the requests issued to the driver (D events); their completions (C)
 *              give the trace's own queue depths and busy time.
 *   blkparse   blkparse's default text output ("8,0  3  1  0.000000000  697  D  W 3414264 + 8
 *              [fio]"): the same events as text, for traces captured elsewhere.
 *   fio iolog  "fio version 2 iolog" (times only from `wait` actions, in microseconds since
 *              the previous wait) and "fio version 3 iolog" (every line's microseconds since
 *              the start); read and write actions are I/Os, all files onto the one target.
 *   csv        timestamp,offset,length,direction[,completion]: seconds (decimal), bytes,
 *              bytes, R|W (read|write); an optional header line; # comments.
 * Trims, flushes and syncs are counted and left out (trace->skipped): a replay measures reads
 * and writes. Several files are merged by time (blktrace's per-CPU files). */
#ifndef PTSBENCH_TRACE_H
#define PTSBENCH_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum { TRACE_READ = 0, TRACE_WRITE = 1, TRACE_NDIR = 2 };

#define TRACE_NO_DONE UINT64_MAX   /* completion not recorded */
#define TRACE_QD_MAX 64            /* queue depths counted one by one; deeper ones in the last */

struct trace_rec {
    uint64_t t_ns;           /* issue, from the trace's first issue (0) */
    uint64_t done_ns;        /* completion on the same clock, or TRACE_NO_DONE */
    uint64_t offset;         /* bytes */
    uint32_t len;            /* bytes, > 0 */
    uint8_t dir;             /* TRACE_READ, TRACE_WRITE */
};

struct trace {
    struct trace_rec *r;     /* in issue order (ties: file order) */
    size_t n, cap;
    char format[24];         /* "blktrace", "blkparse", "fio-iolog-v2", "fio-iolog-v3", "csv",
                                "synthetic", or "mixed" when files of several formats merge */
    char source[512];        /* the file(s), for the results */
    bool timed;              /* the records carry issue times (a v2 iolog without waits does
                                not: it can only be replayed as fast as possible) */
    bool has_done;           /* every record has its completion */
    uint64_t skipped;        /* trims, flushes and syncs left out */
    uint64_t unfinished;     /* block traces: issues whose completion the trace does not hold
                                (it ended first): outstanding until its last event */
    uint64_t files;          /* fio iologs: distinct file names merged onto one target */
    /* block-layer events read so far (blktrace, blkparse), matched by trace_finish: a request
     * may complete on another CPU, that is in another of blktrace's per-CPU files */
    struct trace_ev *ev;
    size_t nev, capev;
};

/* Read one file into t (zeroed, or holding earlier files' records). After the last file,
 * trace_finish. 0, or -1 with one line naming the file and line ("x.csv:12: direction 'Q':
 * want R or W"). */
int trace_load(const char *path, struct trace *t, char *err, size_t errlen);
/* Append one record (generators, tests); trace_finish after the last. */
void trace_add(struct trace *t, const struct trace_rec *r);
/* After the last file or record: block events matched into records (issues with their
 * completions), everything sorted by issue time (stable) and re-based so that the first issue
 * is at 0, has_done set. 0, or -1 when there is nothing to replay. */
int trace_finish(struct trace *t, char *err, size_t errlen);
void trace_free(struct trace *t);

/* Time with at least one I/O outstanding, over n intervals [start[i], end[i]) (not sorted;
 * end >= start): the union's length. AnandTech's "disk busy time". Pure; scratch may be NULL
 * (allocated inside) or hold 2n uint64_t. */
uint64_t trace_busy_ns(const uint64_t *start, const uint64_t *end, size_t n, uint64_t *scratch);

/* What a trace (or a replay of it) did, by its own clock. */
struct trace_stats {
    uint64_t ios[TRACE_NDIR], bytes[TRACE_NDIR];
    uint64_t span_ns;             /* first issue to last issue (or completion, when known) */
    uint64_t seq_ios;             /* I/Os that start where the previous one (either direction)
                                     ended: the sequential share is seq_ios / all */
    uint32_t len_min, len_max;
    /* with completions (has_done): */
    bool timed;
    uint64_t busy_ns;             /* union of [issue, completion) */
    uint64_t qd[TRACE_QD_MAX + 1];   /* I/Os by the number outstanding when issued, itself
                                     included (qd[1]: issued to an idle device); qd[0] unused */
    double qd_mean;               /* mean of that over I/Os */
    double lat_mean_us[TRACE_NDIR];   /* completion - issue, the trace's own service times */
};
void trace_stats(const struct trace *t, struct trace_stats *s);
/* The number outstanding when each record was issued, itself included (at most 255), into
 * out[0..n-1]; needs has_done. */
void trace_qd_at_issue(const struct trace *t, uint8_t *out);

/* Fit the trace's offsets to a target of `capacity` bytes with `sector`-byte blocks (every
 * offset and length a multiple of it). mode: "none" (an I/O beyond the capacity is an error
 * naming it), "wrap" (offset modulo the capacity), "scale" (offsets scaled by capacity /
 * extent, the trace's highest end); then aligned down to the sector, lengths up (a 512-byte
 * I/O on a 4096-byte-sector device becomes 4 KiB: counted in *raised). 0, or -1 with err. */
int trace_remap(struct trace *t, uint64_t capacity, uint32_t sector, const char *mode,
                uint64_t *raised, char *err, size_t errlen);
/* The highest offset + length. */
uint64_t trace_extent(const struct trace *t);

#endif
