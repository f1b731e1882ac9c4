/* lat_target.h — fio's latency_target depth search (latency_window, latency_percentile,
 * latency_run), for the native engines' I/O loop. Pure: the loop gives it completions and the
 * clock; it gives back the depth to keep.
 *
 * As fio 3.33 (io_u.c lat_target_*): the search starts at depth 1 and is judged per window of
 * latency_window: a window in which at least latency_percentile of the I/Os completed within
 * latency_target is a success, the depth doubles (or, once a depth failed, bisects towards it,
 * the failed depth as the high end; three successes one below it raise that end by one); a
 * failure bisects down towards the last good depth. At latency_percentile 100 one I/O over the
 * target fails the window at once. Depths stay within 1..iodepth. When a success leaves the
 * depth where it was, the search has settled: without latency_run fio runs one more window
 * there and ends the job; ptsbench keeps that depth for the rest of the run (its rounds go
 * on), with latency_run it goes on searching. Where fio quiesces (waits for every I/O in
 * flight) before a new window, the search here ignores the completions of I/Os issued before
 * the window began: the same I/Os are kept out of the verdict without idling the device.
 * Where fio ends a job whose target fails at depth 1 (ETIMEDOUT), ptsbench keeps depth 1
 * and records that the target did not hold.
 *
 * Times are the engine's clock (on a scaled simulated drive dilated k times: lat_search_init
 * takes k). Per round (lat_search_round_begin .. the round's end): the deepest depth allowed,
 * the depth at the end, the windows judged and held, whether the last one held. */
#ifndef PTSBENCH_LAT_TARGET_H
#define PTSBENCH_LAT_TARGET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "io/workload.h"

struct lat_search {
    uint64_t target, window;   /* engine-clock ns */
    double percentile;         /* 0..100 */
    bool run;
    unsigned max_qd;
    unsigned qd, low, high, stable;
    bool end_run;              /* the settled depth's last window (fio's "final run") */
    bool settled;              /* without latency_run: the depth is fixed from here on */
    uint64_t win_start, ios, failed;
    /* this round */
    unsigned round_max_qd, windows, held;
    bool last_held, any_window;
};

/* The round's record of one worker's search, or of a pool's (lat_round_merge). */
struct lat_round {
    bool present;
    unsigned depth;            /* the depth at the round's end (a pool: summed over workers) */
    unsigned depth_min, depth_max;   /* over workers, at the end */
    unsigned max_depth;        /* the deepest allowed during the round (summed) */
    unsigned windows, held;    /* windows judged during the round, and how many held */
    bool last_held;            /* every worker's last window held */
    bool settled;              /* every worker's search settled (no latency_run) */
};

void lat_search_init(struct lat_search *s, const struct wl_lat_target *lt, unsigned max_qd,
                     unsigned scale, uint64_t now);
void lat_search_round_begin(struct lat_search *s);
/* One completion: issued at issue, complete at t. */
void lat_search_complete(struct lat_search *s, uint64_t issue, uint64_t t);
/* After the completions of a reap: judge the window when it is over. */
void lat_search_check(struct lat_search *s, uint64_t now);
static inline unsigned lat_search_depth(const struct lat_search *s) { return s->qd; }

/* This worker's round, added to a pool's record (r zeroed first for the first worker). */
void lat_round_add(struct lat_round *r, const struct lat_search *s, bool first);

/* For the round's line: "latency target: QD 12, held" appended to buf (after "; " when buf
 * is not empty; nothing when no search). */
void lat_round_text(const struct lat_round *r, char *buf, size_t len);

struct json_object;
/* A round's "latency_target" object. */
struct json_object *lat_round_json(const struct lat_round *r);

#endif
