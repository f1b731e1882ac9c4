/* drive_state.h — what ptsbench knows of a drive's state when it measures a figure, and what a
 * measured window may honestly be called.
 *
 * The state (struct drive_state) is kept by every runner as it writes: a purge, the
 * workload-independent preconditioning (WIPC: the active range written twice with 128 KiB
 * sequential writes, PTS 2.0.2 IOPS test step 2.2), the workload-dependent preconditioning (WDPC:
 * the stimulus itself, PTS step 3), and every byte written to the active range since the purge
 * (or since the run began when nothing purged the drive: then the drive's earlier history is
 * unknown). Bytes are full-size bytes (a scaled simulated drive's writes times its k).
 *
 * Conditions, in order:
 *   fob     nothing preconditioned the drive and nothing purged it: fresh-out-of-box for a new
 *           simulated drive, unknown history for a real device
 *   purged  purged, no preconditioning since
 *   wipc    WIPC done; the stimulus has not preconditioned it (yet)
 *   wdpc    the stimulus wrote wdpc_bytes as its WDPC: after WIPC (wipc_bytes > 0), or as the
 *           whole preconditioning where a test prescribes that (the PTS's HIR and DIRTH
 *           precondition with their own stimulus from the purged drive)
 *
 * What a window may be called (ds_judge): the SNIA rule (steady.h) finds a flat window; whether
 * that window is "steady state" depends on what came before it:
 *   - without preconditioning, a flat window is the drive's burst plateau: "stable
 *     (fresh-out-of-box / burst)", never steady state (a fresh 1.6 TB drive answers 4 KiB random
 *     writes from its spare area at 396K IOPS for tens of minutes; its steady level is 48K);
 *     once the stimulus itself has written a whole fill of the active range before the window
 *     (a write-saturation run from fresh-out-of-box), the window is past the burst: "stable
 *     after N fills without preconditioning (write saturation)", still not steady state (the
 *     PTS's WSAT makes no steady-state claim either);
 *   - after WIPC alone, a workload that writes is "stable after WIPC" (not steady: the drive has
 *     not yet seen the stimulus); a read-only workload is steady (reads do not change the state;
 *     the PTS preconditions reads with WIPC only: its IOPS test's reads run inside the WDPC of
 *     the write elements, UNCERTAIN for read-only workloads outside the PTS tests);
 *   - after WIPC + WDPC, a window is steady state when it passes the SNIA rule and the fill guard
 *     (steady.h); a window that passes the rule but not the guard is "stable, in a transient".
 * Pure: no I/O, no globals. */
#ifndef PTSBENCH_DRIVE_STATE_H
#define PTSBENCH_DRIVE_STATE_H

#include <stdbool.h>
#include <stddef.h>

#include "stats/steady.h"

enum ds_condition { DS_FOB = 0, DS_PURGED, DS_WIPC, DS_WDPC };

struct drive_state {
    bool present;              /* recorded (false: zeroed, nothing known) */
    enum ds_condition condition;
    bool purged;               /* a purge ran in this run */
    bool simulated;            /* the target is a simulated drive */
    double active_bytes;       /* the active range, full-size bytes */
    double wipc_bytes;         /* written by the last WIPC */
    double wdpc_bytes;         /* written by the current stimulus as its WDPC */
    double written_bytes;      /* everything ptsbench wrote to the active range since purge/start */
};

const char *ds_condition_name(enum ds_condition c);   /* "fob", "purged", "wipc", "wdpc" */

void ds_init(struct drive_state *s, double active_bytes, bool simulated);
/* A purge ran: back to purged, nothing written. */
void ds_purge(struct drive_state *s);
/* WIPC wrote bytes: condition wipc, WDPC restarts (wipc_bytes: this WIPC's). */
void ds_wipc(struct drive_state *s, double bytes);
/* A new stimulus starts: its WDPC counts from 0 (the condition stays as it was). */
void ds_stimulus(struct drive_state *s);
/* A round wrote bytes to the active range; as_wdpc when the stimulus preconditions the drive
 * (after WIPC, or as a test's own preconditioning): then the condition becomes wdpc. */
void ds_write(struct drive_state *s, double bytes, bool as_wdpc);
/* written / wipc / wdpc bytes as fills of the active range (0 when it is unknown). */
double ds_fills(const struct drive_state *s, double bytes);

/* How the drive was prepared before a measured window. */
enum ds_prep { DS_PREP_NONE = 0, DS_PREP_WIPC, DS_PREP_STEADY };

/* The measured state of a window (or a point, an element): the JSON "measured_state". */
enum ds_measured { DS_M_NOT_STABLE = 0, DS_M_BURST, DS_M_WIPC, DS_M_STEADY, DS_M_SATURATED };
/* "not stable", "burst", "wipc", "steady", "saturated" */
const char *ds_measured_name(enum ds_measured m);

struct ds_verdict {
    enum ds_measured measured;
    bool steady;               /* SNIA steady state may be claimed */
    bool stable;               /* a window passed the 5-round rule */
    char label[96];            /* for people: "stable (fresh-out-of-box / burst)" */
    char reason[320];          /* why it is not steady state ("" when it is) */
};

/* Judge a window. prep: how the drive was prepared; writes: the workload writes; rule_ok: the
 * window passes the SNIA rule (steady.h); guard: the fill guard's result for it (NULL when not
 * evaluated: a read-only stimulus, prep wipc); with prep none only its fills_before is used
 * (burst or write saturation); rounds: rounds measured (for the reason). */
void ds_judge(enum ds_prep prep, bool writes, bool rule_ok,
              const struct steady_guard_result *guard, const struct steady_guard *g,
              unsigned rounds, struct ds_verdict *out);

#endif
