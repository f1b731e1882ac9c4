/* tracking.h — a steady-state tracking variable as its parts, from what results record.
 *
 * Writers record a tracking variable twice: its display name "tracking" (METRIC@BS/READ% as
 * pts_track_format writes it, "iops@4KiB/0"; DIRTH's sweep point "iops@T32/Q32"; a run's bare
 * METRIC, "iops") and, since the structured field exists, "track": {"metric", "bs" (bytes),
 * "read_pct"; DIRTH adds "threads", "qd"} (reports/results-schema.md). Readers take the parts
 * from here: the object when the file has it, else the name parsed by tracking_parse, the one
 * parser of the name, kept for files written before "track" existed. Nothing else parses it.
 * Pure apart from reading the given JSON. */
#ifndef PTSBENCH_TRACKING_H
#define PTSBENCH_TRACKING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/units.h"

struct json_object;

struct tracking {
    char metric[32];           /* a metric key (core/metrics.h); may be outside the vocabulary */
    uint32_t bs;               /* bytes; 0: none recorded (a run's) or "element" */
    bool element;              /* old definitions' names: the subtest's own block size */
    int read_pct;              /* 0..100; -1: none recorded */
    unsigned threads, qd;      /* DIRTH's tracked sweep point; 0: none */
};

/* A display name: METRIC, METRIC@BS/MIX (BS a size "4KiB", "1MiB", "512B", or "element"; MIX
 * 0..100, may be absent), METRIC@Tn/Qm. Returns 0, or -1 (out holds the whole name as metric)
 * for a name with '@' whose rest is none of these, or NULL / "". */
int tracking_parse(const char *name, struct tracking *out);

/* The parts recorded in a "track" object (NULL: none), else those of the name. 0 or -1. */
int tracking_read(struct json_object *track, const char *name, struct tracking *out);

/* A record that holds "tracking" and maybe "track" (a steady_state object or one of its
 * variables[]): tracking_read of the two. */
int tracking_of(struct json_object *rec, struct tracking *out);

/* How the figure a record (as for tracking_of) tracks is printed: its metric's kind in the
 * vocabulary (core/metrics.h, metrics_figure_kind); a plain value when it has none. */
enum units_figure tracking_figure_kind(struct json_object *rec);

/* A suite subtest's k-th tracking variable: "track"[k] and "tracking"[k]. */
int tracking_at(struct json_object *sub, size_t k, struct tracking *out);

#endif
