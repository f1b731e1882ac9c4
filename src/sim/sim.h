/* sim.h — the built-in simulated SSD: a deterministic, passive, reservation-based drive model.
 *
 * Design: docs/simulated-drive.md (departures from it are stated in the code).
 *   - The model is passive: t_done = sim_submit(dev, t_now, io). Calls come with non-decreasing
 *     t_now. The harness owns the event loop (a min-heap of completions); the model only
 *     reserves resources (busy_until per host link, firmware core, write datapath, channel, die).
 *   - Page-mapped FTL per controller over lines (one erase block from every plane of every die),
 *     a reverse log per line, greedy (or FIFO / d-choice) victims, incremental foreground GC at a
 *     free-line threshold, background GC in host idle time (detected lazily at the next submit)
 *     capped by a target free level, an early-ack write buffer with back-pressure, unmapped reads
 *     answered without NAND, TRIM, purge (secure erase back to fresh-out-of-box), DuraWrite-style
 *     compression (fewer stored sectors for compressible data), and a card of N controllers with
 *     stripe or vca dispatch.
 *   - Time is integer nanoseconds of virtual time. Time dilation k: user and raw capacity are
 *     divided by k, every device duration is multiplied by k; each completion weighs k. The
 *     scaled drive is a real-speed model of a C/k drive with a clock k times slower, so IOPS,
 *     MB/s and latency (after x k on counts and / k on times) equal the full-size drive's while
 *     test durations (60 s rounds, 6 h WSAT, HIR waits) stay as they are.
 *   - Single-threaded and deterministic: same parameters, seed and I/O stream give identical stats.
 *
 * Units in parameter names: _bytes, _us (microseconds, double), _mb_s (10^6 bytes/s), _pct (0..100). */
#ifndef PTSBENCH_SIM_H
#define PTSBENCH_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef uint64_t simt;   /* virtual nanoseconds (dilated by k) */

enum sim_dispatch { SIM_DISPATCH_STRIPE = 0, SIM_DISPATCH_VCA = 1 };
enum sim_gc_policy { SIM_GC_GREEDY = 0, SIM_GC_FIFO = 1, SIM_GC_DCHOICE = 2 };

/* Everything that describes a simulated drive. Presets (profiles/devices/NAME.ini) set these by
 * key: the key of each field is its name. Values are for the FULL-SIZE drive; sim_open applies k. */
struct sim_params {
    char name[64];
    char description[256];

    /* Card / drive front end. n_ctl = 1 is a plain single-controller drive. */
    unsigned n_ctl;                 /* controllers behind the host interface */
    enum sim_dispatch dispatch;     /* stripe (default) | vca */
    uint32_t stripe_unit_bytes;     /* stripe: LBA striping unit over controllers (16 KiB) */
    double vca_balance_pct;         /* vca: allowed written-byte imbalance between children (5) */
    double link_mb_s;               /* host link bandwidth (PCIe), shared by all controllers */
    double link_write_mb_s;         /* the link's write direction when it is slower (a bridge
                                       whose write path is narrower); 0 = link_mb_s */
    double d_card_us;               /* fixed per-I/O card latency (reserves nothing) */

    /* Per controller: NAND geometry and timing. */
    unsigned channels;
    unsigned dies_per_channel;
    unsigned planes;
    uint32_t page_bytes;            /* per plane */
    uint32_t pages_per_block;
    uint32_t blocks_per_plane;      /* = lines per controller */
    double t_read_us, t_prog_us, t_erase_us;
    double channel_mb_s;

    /* Per controller: capacity. user_bytes = 0 and op_pct > 0: user = usable / (1 + op_pct/100),
     * where usable = raw - reserve - the free-line pool GC keeps. */
    uint64_t user_bytes;            /* logical capacity per controller */
    double reserve_pct;             /* raw space never used for user data (parity, metadata) */
    double op_pct;                  /* spare factor rho = (T - U) / U in percent (key alias "op") */

    /* Per controller: firmware and datapath. */
    unsigned fw_cores;
    double hk_period_us, hk_us;     /* firmware housekeeping: every hk_period_us each core is
                                       busy hk_us with the firmware's own work (0: none) */
    double pause_period_ms, pause_ms;   /* a controller-wide pause (the controller answers
                                       nothing): about every pause_period_ms of real time,
                                       pause_ms long (0: none); neither is multiplied by k */
    double flush_every_mb, flush_ms;    /* a controller-wide pause after every flush_every_mb
                                       (10^6 bytes, full size) of host data stored: the write
                                       buffer's and map journal's commit, flush_ms long (0:
                                       none); flush_ms is not multiplied by k */
    double c_cmd_us;                /* front-end command processing per host command */
    double c_w_us, c_w_us_per_kib;  /* firmware cost of a host write: fixed + per KiB */
    double c_r_us, c_r_us_per_kib;  /* firmware cost of a mapped read */
    double c_r_page_us;             /* ... and per superpage (planes x page on one die) the read
                                       touches: page-level work (the NAND command, ECC decode,
                                       decompression set-up), so a read's cost follows where its
                                       data lies: compressed units share pages, incompressible
                                       ones straddle them, scattered units take one each */
    double c_unmapped_us;           /* read of never-written / trimmed data (no NAND) */
    double c_gc_us;                 /* firmware cost per relocated 4 KiB (x stored/8 compressed) */
    double c_gc_sp_us;              /* ... and per source superpage (planes x page on one die)
                                       read for relocation, whatever it holds: page-level work
                                       (copyback setup, ECC), so victims of large random writes,
                                       whose pages are wholly valid or empty, cost less per unit */
    double wpipe_mb_s;              /* write datapath shared by host and GC writes, in stored
                                       (compressed) bytes: incompressible data fills it, a
                                       compressing controller's reduced data does not; 0 = none */
    double d_w_us, d_r_us;          /* fixed pipeline delays for writes / reads (reserve nothing) */
    uint32_t wbuf_units;            /* early-ack write buffer, in 4 KiB units of stored data;
                                       divided by k but never below 2 superpages per die (k does
                                       not scale NAND parallelism) */

    /* Per controller: garbage collection. */
    enum sim_gc_policy gc;
    unsigned dchoice_d;             /* samples for d-choice */
    double fg_lines_pct;            /* foreground GC when free lines <= max(fg_lines_min, pct) */
    unsigned fg_lines_min;
    unsigned gc_quantum_units;      /* relocations per GC step; 0 = whole victim at once */
    bool bg_gc;                     /* idle-time background GC */
    double idle_delay_ms;           /* host idle before background GC starts; NOT multiplied by
                                       k (host waits are not dilated: a 5 s HIR wait is 5 s) */
    double bg_target_pct;           /* background GC stops when free space (free lines + the
                                       unwritten part of the open lines + the victim's progress)
                                       reaches this % of raw; about fg_lines + 1 lines is where
                                       steady state sits, so a smaller target does nothing */
    double bg_busy_pct;             /* background GC also while the host is busy, below the same
                                       target: in the firmware's and datapath's idle gaps, taking
                                       at most this share of the time and preempted by host
                                       commands at step granularity (0: idle time only) */

    /* Per controller: compression (SandForce DuraWrite style). */
    bool durawrite;
    double meta_pct;                /* metadata per 4 KiB unit, % of the unit (1/64 = 1.5625),
                                       stored with the unit; gives the note's 0.14 at 90% */
    bool measure_compress;          /* harness: generate the write data and measure its
                                       compressibility with lz4 per I/O, instead of trusting the
                                       workload's declared percentage (validation; slower) */

    /* The review's host and driver (not the drive: the engine applies them, so that a
     * preset's figures compare with the review's). Per I/O, real microseconds. */
    double host_worker_us;          /* CPU time of one worker (submit and complete) per I/O:
                                       one worker tops out at 1 / host_worker_us */
    double host_driver_us;          /* a driver path all workers share (one lock, one queue)
                                       per I/O: the card tops out at 1 / host_driver_us */
    double host_worker_us_per_kib;  /* ... and per KiB of the I/O, for each (buffer pinning */
    double host_driver_us_per_kib;  /* and scatter-gather lists are built per page) */

    /* Temperature and thermal throttling (sim_thermal.h: a first-order model; off unless set). */
    bool thermal;
    double thermal_ambient_c, thermal_tau_s;        /* settles toward ambient, time constant */
    double thermal_write_c_per_gb, thermal_read_c_per_gb;   /* heat per full-size GB */
    double thermal_throttle_c, thermal_resume_c;    /* throttled from ..., until it falls to */
    double thermal_throttle_mb_s;                   /* the drive's rate while throttled */

    /* Scale and determinism. */
    unsigned k;                     /* time dilation / capacity scale, power of two, >= 1 */
    uint64_t seed;
};

/* Space the model never counts as usable for data, beyond the foreground-GC free-line reserve:
 * one line's worth for the unwritten part of the open host and GC lines and the victim in
 * progress (measured: see sim.c). T = (lines - fg_lines - SIM_POOL_EXTRA_LINES) x line data. */
#define SIM_POOL_EXTRA_LINES 1

enum sim_op { SIM_READ = 0, SIM_WRITE = 1, SIM_TRIM = 2 };

struct sim_io {
    uint8_t op;                     /* enum sim_op */
    uint8_t compress_pct;           /* data compressibility 0..100 (writes) */
    uint64_t offset;                /* bytes, in the scaled address space, multiple of 512 */
    uint32_t len;                   /* bytes, multiple of 512 */
};

struct sim_info {
    uint64_t user_bytes;            /* addressable (scaled) capacity: what the harness uses */
    uint64_t nominal_user_bytes;    /* full-size capacity: what reports show */
    uint64_t raw_bytes;             /* scaled raw NAND over all controllers */
    unsigned k;                     /* each completion weighs k; latencies divide by k */
    uint32_t logical_sector;        /* 512 */
    uint32_t physical_sector;       /* 4096 (the mapping unit) */
    unsigned n_ctl;
    uint32_t lines_per_ctl;
    uint32_t pages_per_block;       /* after scaling (geometry rule: >= 256 lines) */
    double rho_eff;                 /* effective spare factor after reserve and free-line pool */
};

struct sim_stats {                  /* cumulative since open/purge, summed over controllers */
    uint64_t host_write_sectors;    /* 512 B sectors the host wrote */
    uint64_t host_read_sectors;
    uint64_t nand_write_sectors;    /* stored sectors programmed (host + GC relocations) */
    uint64_t gc_relocated_sectors;  /* stored sectors moved by GC (foreground + background) */
    uint64_t bg_relocated_sectors;  /* of which background */
    uint64_t erases;                /* lines erased */
    uint64_t bg_gc_steps;
    uint64_t fg_gc_steps;
    uint64_t unmapped_reads;        /* 4 KiB units read without NAND */
    uint64_t trimmed_units;
    uint64_t free_lines;            /* now */
    uint64_t total_lines;
    double write_amplification;     /* nand_write_sectors / host_write_sectors (0 if none) */
    /* the thermal model (sim_thermal.h), since open: absent unless `thermal` is on */
    bool thermal;
    bool throttled_now;
    double temperature_c;           /* at the latest submission */
    uint64_t throttle_transitions;  /* into the throttled state */
    uint64_t throttled_ns;          /* virtual time spent throttled */
};

struct sim_dev;

/* Defaults for every field (a small generic drive; presets override). */
void sim_params_default(struct sim_params *p);

/* Build the drive (fresh-out-of-box: every line free, nothing mapped). Checks the parameters
 * and applies k and the geometry rule. Returns 0 or -1 with a message naming the bad field. */
int sim_open(const struct sim_params *p, struct sim_dev **out, char *err, size_t errlen);
void sim_close(struct sim_dev *d);

/* Submit one I/O at virtual time now (non-decreasing across calls); returns its completion
 * time (>= now). Reads of unmapped data return zeros without NAND. */
simt sim_submit(struct sim_dev *d, simt now, const struct sim_io *io);

/* Controller pauses (pause_ms, flush_ms). A pause lasts as long in virtual time as in real
 * time: it is not dilated, so the same number of them fall in a test as on the full-size
 * drive and they take the same share of its time. The model holds no resource for it; the
 * harness delays each completion by the pauses in progress when its I/O was issued or begun
 * before it completes: sim_pause_delay(), asked when the completion comes up (by then every
 * pause begun before it is known). A completion stands for k consecutive I/Os of one worker,
 * which on the full-size drive spread over every controller, so a pause of any controller
 * delays it; and only one of those k I/Os waited (the one in flight when the pause began):
 * the harness records the other k - 1 latencies without it (engine/simulated.c,
 * core/worker.c). */
bool sim_has_pauses(const struct sim_dev *d);
simt sim_pause_delay(struct sim_dev *d, simt from, simt to);

/* Secure erase: back to fresh-out-of-box (map cleared, all lines free, stats zeroed, resources
 * idle from `now` on). */
void sim_purge(struct sim_dev *d, simt now);

/* FTL-only fast path for tests and quick starts: write `bytes` of 4 KiB units sequentially
 * (random = false) or uniformly at random from the seeded PRNG, with no timing. */
void sim_fast_fill(struct sim_dev *d, bool random, uint64_t bytes, unsigned compress_pct);

void sim_info(const struct sim_dev *d, struct sim_info *out);
void sim_stats(const struct sim_dev *d, struct sim_stats *out);
/* The same counters since sim_open, across purges (free_lines, total_lines: now): what a real
 * drive's lifetime SMART counters are, which a sanitize does not reset (device/health.c). */
void sim_lifetime_stats(const struct sim_dev *d, struct sim_stats *out);

/* Invariants (tests, debug): valid sectors = mapped stored sectors; line states add up; every
 * mapped unit lies in a written region of a non-free line; no underflow. 0, or -1 with a message. */
int sim_check(const struct sim_dev *d, char *err, size_t errlen);

/* Analytic write amplification for greedy / FIFO GC under uniform random writes with spare factor
 * rho (Xiang & Kurkoski; Desnoyers): A = a / (a + W0(-a e^-a)), a = 1 + rho. Pure. */
double sim_wa_oracle(double rho);
/* Principal branch of Lambert W for x in [-1/e, inf). Pure. */
double sim_lambert_w0(double x);

#endif
