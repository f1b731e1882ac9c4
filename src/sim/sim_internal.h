/* sim_internal.h — private structures of the simulated SSD, shared by the card layer (sim.c),
 * the controller (sim_ctl.c) and the unit tests (which inspect per-controller state).
 * Not part of the harness API: use sim.h. */
#ifndef PTSBENCH_SIM_INTERNAL_H
#define PTSBENCH_SIM_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/rng.h"
#include "sim/sim.h"
#include "sim/sim_thermal.h"

#define SIM_NONE       UINT32_MAX      /* no line / no victim / no owner */
#define SIM_UNMAPPED   UINT32_MAX      /* l2p: never written or trimmed */
#define SIM_UNIT       4096u           /* mapping unit, bytes */
#define SIM_SECT       512u            /* storage granule, bytes */
#define SIM_LPN_BITS   28              /* a log record is lpn | (nsect - 1) << 28 */
#define SIM_LPN_MASK   ((1u << SIM_LPN_BITS) - 1)
#define SIM_MAX_NSECT  16u
#define SIM_PAUSES     16u             /* controller pauses remembered (sim_pause_delay) */

enum sim_line_state { SIM_LINE_FREE = 0, SIM_LINE_OPEN, SIM_LINE_CLOSED, SIM_LINE_VICTIM };

/* Per-controller configuration after k and the geometry rule: integer ns, ps per byte,
 * sectors, units. All controllers of a card share one. */
struct sim_cfg {
    uint32_t channels, dies, planes, page_bytes, ppb, nlines;
    uint32_t sp_sect;           /* sectors per die superpage: planes x page */
    uint32_t line_sect;         /* raw sectors per line */
    uint32_t line_cap;          /* data sectors per line (line_sect minus reserve) */
    uint32_t rec_cap;           /* log records a line can hold */
    uint32_t user_units;        /* logical 4 KiB units per controller */
    uint32_t fw_cores;
    simt hk_period, hk;         /* firmware housekeeping windows (0: none) */
    simt pause_period, pause;   /* timed controller pauses, undilated (0: none) */
    uint64_t flush_sect;        /* host-stored sectors between flush pauses (scaled; 0: none) */
    simt flush;                 /* flush pause, undilated */
    simt t_read, t_prog, t_erase;
    simt c_cmd, c_w, c_w_kib, c_r, c_r_kib, c_r_page, c_unmapped, c_gc, c_gc_sp, d_w, d_r;
    simt c_trim, c_trim_unit;   /* a TRIM (Dataset Management, deallocate): fixed + per unit */
    uint64_t ch_ps, pipe_ps;    /* ps per byte (x k); pipe_ps 0 = no write datapath */
    uint32_t wbuf_sect, gcbuf_sect;   /* write buffer, GC buffer: stored sectors */
    enum sim_gc_policy gc;
    uint32_t dchoice_d;
    uint32_t fg_lines;          /* foreground GC when free lines <= this */
    uint32_t quantum;           /* valid units per GC step, 0 = whole victim */
    bool bg_gc;
    simt idle_delay;
    uint64_t bg_target_sect;    /* background GC stops at nfree x line_sect >= this */
    uint32_t bg_busy_pct;       /* busy-time background GC's share of the time (0: none) */
    bool durawrite;
    uint32_t meta_fx;           /* metadata sectors per 4 KiB unit, 16.16 fixed point */
    uint8_t ns_tab[101];        /* stored sectors per 4 KiB unit by compress_pct */
    uint32_t bucket_shift, nbuckets;
};

/* A write buffer: a FIFO ring of units whose room is counted in stored sectors (data is
 * buffered after compression). rel[i] = when unit i's room is free again (its program end).
 * Units whose last superpage is not yet full are "pending" (npend units from pend_first, the
 * newest); their rel is set when that superpage is programmed. The budget exceeds a superpage
 * plus a unit, so room is never waited for on a pending unit. */
struct sim_ring {
    simt *rel;
    uint8_t *ns;                /* stored sectors of each unit */
    uint32_t n, head, tail;     /* entries [tail, head) hold room */
    uint32_t occ, budget;       /* sectors held, capacity in sectors */
    uint32_t pend_first, npend;
};

/* A write point: an open line plus the buffer ring feeding it (host or GC). */
struct sim_wp {
    uint32_t line;              /* SIM_NONE before the first write */
    simt issue;                 /* latest issue time of the units in the partial superpage */
    simt ready;                 /* latest data-ready time of the partial superpage */
    struct sim_ring ring;
};

struct sim_line {
    uint32_t valid;             /* valid stored sectors */
    uint32_t wr;                /* written sectors (write pointer) */
    uint32_t nrec;              /* log records */
    uint32_t prev, next;        /* bucket list (closed lines) */
    uint8_t state;
};

struct sim_cstats {
    uint64_t host_write_sectors, host_read_sectors, nand_write_sectors;
    uint64_t gc_relocated_sectors, bg_relocated_sectors, erases;
    uint64_t bg_gc_steps, fg_gc_steps, unmapped_reads, trimmed_units;
};

struct sim_ctl {
    const struct sim_cfg *cfg;
    uint32_t *l2p;              /* lpn -> sector address line * line_cap + offset */
    uint8_t *l2n;               /* lpn -> stored sectors */
    uint32_t *log;              /* line * rec_cap + i: records in write order (reverse map) */
    struct sim_line *lines;
    uint32_t *bucket;           /* greedy: head line per valid-sector bucket */
    uint32_t bmin;              /* no closed line in a bucket below this */
    uint32_t *freeq, free_head, nfree;
    uint32_t *fifoq, fifo_head, nfifo;   /* closed lines in close order (FIFO policy) */
    struct sim_wp host, gcw;
    uint32_t victim, gc_rec, gc_off;
    uint32_t victim_v0;         /* victim's valid sectors when picked */
    uint32_t victim_bg;         /* of which relocated by background GC */
    int64_t debt;               /* foreground GC debt, sectors << 16 */
    uint64_t ratio_fx;          /* victim valid / gain, << 16 */
    simt *fw, *ch, *die;        /* busy_until per fw core, channel (booking), die */
    simt die_max;               /* the latest of die[] */
    simt *hk_next;              /* per fw core: the next housekeeping window's start */
    uint64_t hk_rng;            /* splitmix64 state of the housekeeping gaps */
    simt pause_next;            /* the next timed pause the card has not noted yet */
    uint64_t pause_rng;         /* splitmix64 state of the timed pauses' gaps */
    uint64_t flush_acc;         /* host-stored sectors since the last flush */
    bool flush_due;             /* the last write filled the journal: the card notes a flush */
    simt pipe;                  /* write datapath booking */
    simt last_done;             /* latest completion returned */
    simt bg_until;              /* background GC already ran up to here */
    simt now;                   /* time of the command in progress (for emergency GC) */
    uint32_t meta_acc;
    uint64_t rng;               /* splitmix64 state (d-choice) */
    uint64_t seed;
    struct sim_cstats st;
};

/* Card-level state of vca dispatch. */
struct sim_vca {
    uint8_t *own_ctl;           /* card unit -> child (0xff none) */
    uint32_t *own_lpn;          /* card unit -> child-local lpn */
    uint32_t **free_lpn;        /* per child: stack of free local lpns */
    uint32_t *nfree_lpn;
    uint32_t local_units;       /* per child logical space (U/N x (1 + slack)) */
    uint64_t *written;          /* per child bytes written */
    simt **heap;                /* per child: min-heap of outstanding completion times */
    uint32_t *nheap, *capheap;
};

struct sim_dev {
    struct sim_cfg cfg;
    struct sim_ctl *ctl;
    unsigned n;
    enum sim_dispatch dispatch;
    unsigned k;
    uint64_t user_units;        /* card */
    uint64_t nominal_user_bytes;
    double rho_eff;
    uint32_t stripe_units;
    uint64_t link_ps, link_wps;  /* ps per byte: the link's read and write directions */
    simt link_w, link_r;        /* host link, each direction (booking) */
    simt d_card;
    double vca_balance;
    struct sim_vca vca;
    uint64_t seed;
    struct rng rng;             /* vca ties, fast_fill */
    /* scratch for one I/O (no allocation per I/O) */
    uint32_t *scratch_lpn;      /* vca: local lpns of one part */
    uint32_t scratch_cap;
    simt *part_done;
    bool pauses;                /* the controllers pause (pause_ms or flush_ms) */
    simt pz_start[SIM_PAUSES], pz_end[SIM_PAUSES];   /* the latest pauses of any controller,
                                                        overlaps merged (a ring) */
    uint32_t pz_head;           /* the latest pause's slot */
    simt pz_last_end;           /* the latest end of a noted pause */
    simt pz_next_timed;         /* the earliest timed pause not noted yet (UINT64_MAX: none) */
    struct sim_thermal thermal;  /* temperature and throttling (sim_thermal.h); a purge keeps it */
    struct sim_stats before_purge;   /* counters summed over every purge so far (a real drive's
                                        lifetime counters survive a sanitize; sim_lifetime_stats) */
};

/* Controller (sim_ctl.c). Times are in ns; lpns is NULL for lpn0, lpn0+1, ... */
int sim_ctl_init(struct sim_ctl *c, const struct sim_cfg *g, uint64_t seed);
void sim_ctl_free(struct sim_ctl *c);
void sim_ctl_reset(struct sim_ctl *c, simt now);
simt sim_ctl_write(struct sim_ctl *c, simt t, uint32_t lpn0, const uint32_t *lpns, uint32_t n,
                   uint32_t len, unsigned compress_pct);
simt sim_ctl_read(struct sim_ctl *c, simt t, uint32_t lpn0, const uint32_t *lpns, uint32_t n,
                  uint32_t len);
simt sim_ctl_pause_gap(struct sim_ctl *c);
simt sim_ctl_trim(struct sim_ctl *c, simt t, uint32_t lpn0, const uint32_t *lpns, uint32_t n);
/* Unmap one unit without timing or trim accounting (vca moving a unit between children). */
void sim_ctl_unmap(struct sim_ctl *c, uint32_t lpn);
/* fast_fill: write one unit with no timing (call sim_ctl_untime afterwards). */
void sim_ctl_fill(struct sim_ctl *c, uint32_t lpn, unsigned compress_pct);
void sim_ctl_untime(struct sim_ctl *c);
int sim_ctl_check(const struct sim_ctl *c, unsigned idx, char *err, size_t errlen);

#endif
