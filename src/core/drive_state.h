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
 *   fast    the fast pass done (issue 48, core/fastpass.h: (1 + rho) fills of 4 KiB writes that
 *           leave an FTL with greedy GC at its equilibrium under uniform random writes: a third
 *           road beside WIPC and none); the stimulus has not preconditioned it (yet)
 *   wdpc    the stimulus wrote wdpc_bytes as its WDPC: after WIPC (wipc_bytes > 0) or the fast
 *           pass (fast_bytes > 0), or as the
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
 *     (steady.h); a window that passes the rule but not the guard is "stable, in a transient";
 *   - after the fast pass + WDPC the same, said "after the fast pass + WDPC" (the guard's lag
 *     may be shorter: steady.h), its transient measured "fast"; a read-only workload is steady
 *     "after the fast pass". Without an FTL the words say what it was there (ds_judge_ftl).
 *
 * What the active range holds (content): a read of space nobody wrote (a preallocated or sparse
 * file, LBAs a purge deallocated) is answered without reading the media: an SSD returns zeros
 * for a deallocated LBA from its mapping table, a filesystem for an unwritten extent from its
 * metadata. ptsbench knows it from
 *   extents   a file target's extents (device/content.h), probed again after every round;
 *   purge     its own purge of a block device (every LBA of the range deallocated), less what
 *             its own writes have covered since (ds_cover: an estimate, below);
 *   simulated the simulated drive's map (nothing mapped fresh-out-of-box; its unmapped reads
 *             are counted per round, so the share of reads of never-written space is measured);
 *   unknown   a block device nobody purged in this run: its history is unknown.
 * A round whose reads went, or are estimated to have gone, DS_UNWRITTEN_LABEL_SHARE or more to
 * never-written space is labelled so, and a window holding such a round is never steady state
 * (ds_judge_unwritten). The 1% bound: reads of never-written space complete in a few
 * microseconds, so a share s of them moves the mean latency (and the IOPS at a fixed depth) by
 * at most about s; below 1% that is within the run-to-run noise of a real device.
 * Pure: no I/O, no globals. */
#ifndef PTSBENCH_DRIVE_STATE_H
#define PTSBENCH_DRIVE_STATE_H

#include <stdbool.h>
#include <stddef.h>

#include "stats/steady.h"

enum ds_condition { DS_FOB = 0, DS_PURGED, DS_WIPC, DS_WDPC, DS_FAST };
enum ds_content { DS_CONTENT_UNKNOWN = 0, DS_CONTENT_EXTENTS, DS_CONTENT_PURGE,
                  DS_CONTENT_SIMULATED };
/* How a workload's writes cover the active range (ds_cover), for the purge estimate:
 *   NEW      every byte lands on space not written since the purge: sequential passes, the
 *            first pass of a random map (an overestimate of the coverage only where an earlier
 *            workload's writes overlap, which a run does not have);
 *   UNIFORM  independent uniform draws: a share e^-x of the range stays unwritten after x fills
 *            (a workload with a random map covers faster: this errs towards labelling);
 *   SKEWED   zoned, zipf, pareto or normal distributions: cold blocks may stay unwritten for many
 *            fills; nothing is assumed covered (the range stays labelled until a WIPC). */
enum ds_cover { DS_COVER_NEW = 0, DS_COVER_UNIFORM, DS_COVER_SKEWED };
#define DS_UNWRITTEN_LABEL_SHARE 0.01

struct drive_state {
    bool present;              /* recorded (false: zeroed, nothing known) */
    enum ds_condition condition;
    bool purged;               /* a purge ran in this run */
    bool simulated;            /* the target is a simulated drive */
    double active_bytes;       /* the active range, full-size bytes */
    double wipc_bytes;         /* written by the last WIPC (0 after a fast pass) */
    double fast_bytes;         /* written by the last fast pass (0 after a WIPC) */
    double wdpc_bytes;         /* written by the current stimulus as its WDPC */
    double written_bytes;      /* everything ptsbench wrote to the active range since purge/start */
    enum ds_content content;   /* how ptsbench knows what the range holds (above) */
    double unwritten_bytes;    /* of the active range, never written or deallocated (full-size
                                  bytes); 0 when content is unknown */
};

/* The reads of one round and never-written space: the share of its read bytes that went there,
 * measured (the simulated drive counts them) or estimated (the range's never-written share at
 * the round's start: uniform reads hit it in proportion). */
struct ds_reads {
    bool present;              /* the round read, and what the range held is known */
    bool measured;
    double share;              /* 0..1 of the round's read bytes */
};

/* "fob", "purged", "wipc", "wdpc", "fast" */
const char *ds_condition_name(enum ds_condition c);
/* "extents", "purge", "simulated", "unknown" */
const char *ds_content_name(enum ds_content c);
/* For people: "the file's extents", "ptsbench's purge and its writes since", "the simulated
 * drive's map", "history unknown (not purged by this run)". */
const char *ds_content_words(enum ds_content c);

void ds_init(struct drive_state *s, double active_bytes, bool simulated);
/* A purge ran: back to purged, nothing written; the whole range deallocated (content purge,
 * unless the range's content is known otherwise: a file's extents, a simulated drive). */
void ds_purge(struct drive_state *s);
/* What the range holds, as probed or modelled: basis and never-written bytes (full-size). */
void ds_content_set(struct drive_state *s, enum ds_content basis, double unwritten_bytes);
/* A purged range's estimate after a workload wrote bytes to it (how: enum ds_cover); nothing
 * changes for the other bases (extents are probed, the simulated drive measured). */
void ds_cover(struct drive_state *s, double bytes, enum ds_cover how);
/* The never-written share of the active range, 0..1 (0 when unknown). */
double ds_unwritten_share(const struct drive_state *s);
/* The reads of a round that read read_bytes with the range in state *before: estimated from its
 * never-written share (out->present false when nothing is known or nothing was read). */
void ds_reads_estimate(const struct drive_state *before, double read_bytes, struct ds_reads *out);
/* Does the round's figure carry the label "reads of never-written space"? */
bool ds_reads_labelled(const struct ds_reads *r);
/* WIPC wrote bytes: condition wipc, WDPC restarts (wipc_bytes: this WIPC's). */
void ds_wipc(struct drive_state *s, double bytes);
/* The fast pass wrote bytes: condition fast, WDPC restarts, the last WIPC forgotten (fast_bytes:
 * this pass's). The pass writes every unit of the range fresh once: nothing is left unwritten
 * once it wrote a fill or more. */
void ds_fast(struct drive_state *s, double bytes);
/* A new stimulus starts: its WDPC counts from 0 (the condition stays as it was). */
void ds_stimulus(struct drive_state *s);
/* A round wrote bytes to the active range; as_wdpc when the stimulus preconditions the drive
 * (after WIPC, or as a test's own preconditioning): then the condition becomes wdpc. */
void ds_write(struct drive_state *s, double bytes, bool as_wdpc);
/* written / wipc / wdpc bytes as fills of the active range (0 when it is unknown). */
double ds_fills(const struct drive_state *s, double bytes);

/* How the drive was prepared before a measured window: STEADY is WIPC + WDPC, FAST the fast pass
 * + WDPC (a third road beside WIPC and none). */
enum ds_prep { DS_PREP_NONE = 0, DS_PREP_WIPC, DS_PREP_STEADY, DS_PREP_FAST };
/* The preparation's words for people: "not preconditioned", "WIPC", "WIPC + WDPC",
 * "fast pass + WDPC". */
const char *ds_prep_words(enum ds_prep p);
/* The stimulus preconditions the drive after the preparation (WDPC): STEADY and FAST. */
bool ds_prep_wdpc(enum ds_prep p);

/* What ptsbench knows of a target's flash translation layer, for the fast pass:
 *   MODEL    the simulated drive: its spare factor is known (sim_info.rho_eff) and its state
 *            after the pass can be checked (free lines, write amplification);
 *   NONE     no FTL (a file, zram, a loop or RAM disk): the pass is (1 + rho) fills of writes
 *            that change nothing a later write sees, so it proves nothing about the state;
 *   UNKNOWN  a real drive: an FTL whose spare factor ptsbench cannot read, so the pass needs
 *            --op. NVMe Identify (`nvme id-ctrl -o json`, read by device/purge.c and health.c)
 *            does not give it: TNVMCAP is the capacity namespaces may allocate, not the raw
 *            flash (a WDC SN730 256 GB says 256,060,514,304 bytes, its user capacity: rho 0,
 *            tests/fixtures/health/nvme-cli-1.x-id-ctrl-wdc-sn730.json), and QEMU's emulated
 *            NVMe in the lab says 0 (tests/fixtures/purge/nvme-cli-2.3-id-ctrl-qemu-7.2.json);
 *            TNVMCAP above the namespace's size shows only space the user left unallocated. */
enum ds_ftl { DS_FTL_MODEL = 0, DS_FTL_NONE, DS_FTL_UNKNOWN };
/* From the target's kind ("simulated", "file", "block") and a block device's interface ("zram",
 * "loop", "nvme", ...): NONE for a file, zram and loop (as core/steps.h step_fast_no_ftl). */
enum ds_ftl ds_ftl_of(const char *kind, const char *interface);

/* The spare factor the fast pass is built for, and where it came from. */
struct ds_op {
    double rho;                /* (raw - user) / user */
    const char *source;        /* "option" (--op), "simulated drive" (sim_info.rho_eff),
                                  "default (no FTL: 0)"; "unknown" when refused */
};
/* Choose: --op (op_rho > 0) first, else the simulated drive's; a real drive without --op: -1
 * (refused: its spare factor is unknown). A target without an FTL without --op takes
 * DS_FAST_RHO_NO_FTL, source "default (no FTL: 0)": the pass shapes nothing there, so it writes
 * the range once, sequentially (core/steps.h step_fast; more bytes would change nothing). */
#define DS_FAST_RHO_NO_FTL 0.0
int ds_op_choose(enum ds_ftl ftl, double sim_rho, double op_rho, struct ds_op *out);

/* The fill guard's lag for a run prepared by prep on a target whose FTL is ftl: after the fast
 * pass STEADY_GUARD_LAG_FAST with its basis (steady.h), unless the target has no FTL or the
 * simulated drive's check after the pass failed (pass_checked false: free lines above the GC
 * pool); else g is left as it is (1 fill). g->lag_basis says why. */
void ds_guard_lag(enum ds_prep prep, enum ds_ftl ftl, bool pass_checked, struct steady_guard *g);

/* The measured state of a window (or a point, an element): the JSON "measured_state". */
/* FAST is WIPC's class after the fast pass: preconditioned (the fast pass + WDPC), stable, not
 * steady state (issue 48; results written before it say "wipc" there, and readers tell the two
 * apart by the run's preconditioning.mode "fast"). A steady window is "steady" whatever prepared
 * it: the SNIA rule and the fill guard decide, and the label says what came before. */
enum ds_measured { DS_M_NOT_STABLE = 0, DS_M_BURST, DS_M_WIPC, DS_M_STEADY, DS_M_SATURATED,
                   DS_M_UNWRITTEN, DS_M_FAST };
/* "not stable", "burst", "wipc", "steady", "saturated", "unwritten", "fast" */
const char *ds_measured_name(enum ds_measured m);

struct ds_verdict {
    enum ds_measured measured;
    bool steady;               /* SNIA steady state may be claimed */
    bool stable;               /* a window passed the 5-round rule */
    char label[192];           /* for people: "stable (fresh-out-of-box / burst)" */
    char reason[320];          /* why it is not steady state ("" when it is) */
};

/* Judge a window. prep: how the drive was prepared; writes: the workload writes; rule_ok: the
 * window passes the SNIA rule (steady.h); guard: the fill guard's result for it (NULL when not
 * evaluated: a read-only stimulus, prep wipc); with prep none only its fills_before is used
 * (burst or write saturation); rounds: rounds measured (for the reason). */
void ds_judge(enum ds_prep prep, bool writes, bool rule_ok,
              const struct steady_guard_result *guard, const struct steady_guard *g,
              unsigned rounds, struct ds_verdict *out);
/* What the fast pass was, for people: "the fast pass" on a target with an FTL (a model or a real
 * drive's); on one without (ftl NONE: a file, zram, a loop device) "the range written 1.00×
 * sequentially: no FTL state to shape", fills the pass's (1 + rho): there is no free-space state
 * for it to leave, only the range written over. */
void ds_fast_words(enum ds_ftl ftl, double fills, char *buf, size_t len);
/* After ds_judge of a run prepared by the fast pass (prep FAST) on a target without an FTL: the
 * label says what the pass was there (ds_fast_words), not "the fast pass" bare, and the reason
 * of a window that is not steady adds it; nothing changes otherwise. */
void ds_judge_ftl(enum ds_prep prep, enum ds_ftl ftl, double fast_fills, bool writes,
                  struct ds_verdict *out);
/* After ds_judge: a window whose rounds read never-written space (the largest share of them,
 * >= DS_UNWRITTEN_LABEL_SHARE) is never steady state: measured "unwritten", the label and the
 * reason say so. Nothing changes below the bound. */
void ds_judge_unwritten(double max_share, bool measured, struct ds_verdict *out);
/* The label of a round or window that read never-written space: "reads of never-written space
 * (37% of reads): the device does not read its media there". */
void ds_unwritten_label(double share, char *buf, size_t len);

#endif
