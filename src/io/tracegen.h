/* tracegen.h — synthetic block I/O traces with published characteristics, from definitions as
 * data (traces/NAME.ini), so that a replay has something to replay where the real trace was
 * never published (StorageReview's mail-server trace, AnandTech's Storage Bench 2011 traces).
 * They are approximations: the counts, read share, sizes, sequential share and queue depths a
 * publication states, with everything it does not state chosen (and said so in the file).
 *
 * A definition's [trace] section (every key but ios optional):
 *   description, source   text, for people and the results
 *   ios                   I/Os at --scale 1 (or reads + writes: reads, writes)
 *   read_pct              share of reads, percent of I/Os (when reads/writes are not given)
 *   read_bssplit, write_bssplit   sizes as fio's bssplit ("4k/50:64k/50"; default 4k)
 *   sequential_pct        I/Os that start where the previous one ended (else a random
 *                         4 KiB-aligned offset in the span)
 *   span                  the traced device's size (bytes: "146GB"); offsets lie below it
 *   iops                  mean issue rate over the trace's timeline (default 1000)
 *   burst_ratio           arrival rate in a burst over the rate between bursts (default 1:
 *                         Poisson); burst_pct: the share of time in bursts (default 20);
 *                         burst_ms: a burst's mean length (default 100)
 *   qd_mean, qd1_pct      the queue depths the trace was captured at: I/Os come alone (QD 1)
 *                         or in groups of b issued together, with b and the groups' share
 *                         solved from the two (docs/replay.md §3); group_size gives b when
 *                         qd1_pct is not published
 *   service_us            the captured device's service time: each I/O's completion is its
 *                         issue plus this, so the trace carries its own queue depths and busy
 *                         time (0: no completions)
 * Deterministic: the same definition, scale and seed give the same trace. */
#ifndef PTSBENCH_TRACEGEN_H
#define PTSBENCH_TRACEGEN_H

#include <stddef.h>
#include <stdint.h>

#include "io/trace.h"
#include "io/workload.h"

struct tracegen_def {
    char name[64];
    char path[512];
    char description[256];
    char source[512];
    double ios, reads, writes;          /* at scale 1; reads + writes = ios when given */
    double read_pct;
    struct wl_bs rbs[WL_MAX_BS], wbs[WL_MAX_BS];
    unsigned n_rbs, n_wbs;
    double seq_pct;
    uint64_t span;
    double iops, burst_ratio, burst_pct, burst_ms;
    double qd_mean, qd1_pct, group_size;
    double service_us;
};

/* NAME (traces/NAME.ini in one of dirs) or a path ending in .ini. 0, or -1 with one line
 * naming the file, line and key. */
int tracegen_load(const char *spec, const char *const *dirs, struct tracegen_def *d, char *err,
                  size_t errlen);
/* The trace, scale x the definition's I/Os (at least 1), into out (zeroed). 0, or -1. */
int tracegen_run(const struct tracegen_def *d, double scale, uint64_t seed, struct trace *out,
                 char *err, size_t errlen);
/* A trace file (trace_load), or gen:NAME[,scale=X][,seed=N]: the synthetic trace of
 * traces/NAME.ini in one of dirs, its source the spec that makes it again. Records added to t;
 * 0, or -1 with one line. */
int tracegen_load_any(const char *trace, const char *const *dirs, struct trace *t, char *err,
                      size_t errlen);
/* Group size b and the share of I/Os in groups g that give the definition's queue depths:
 * QD 1 share = (1 - g) + g / b, mean = (1 - g) + g (b + 1) / 2. */
void tracegen_groups(const struct tracegen_def *d, double *b, double *g);

/* Write a trace as csv (timestamp,offset,length,direction[,completion]), atomically. */
int trace_write_csv(const struct trace *t, const char *path, char *err, size_t errlen);

#endif
