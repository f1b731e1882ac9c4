/* iogen.h — the I/O generator: what one worker issues next (direction, size, offset), from the
 * workload model. Pure apart from its PRNG state: no I/O, so tests can check that the issued
 * mix matches a profile (block-size histogram, read share, random share, zoned LBA spread). */
#ifndef PTSBENCH_IOGEN_H
#define PTSBENCH_IOGEN_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include "io/fastgen.h"
#include "io/permute.h"
#include "io/workload.h"
#include "lib/rng.h"

enum { IOGEN_READ = 0, IOGEN_WRITE = 1, IOGEN_TRIM = 2 };

struct iogen {
    const struct workload *wl;
    struct rng rng;
    uint64_t region_start, region_end;   /* [start, end): this worker's part of the range */
    uint64_t cursor;                     /* next sequential offset */
    bool use_map;                        /* random map: every slot once per pass */
    struct permute map;
    uint32_t bs_table[100];              /* bssplit as a 100-slot lookup */
    uint32_t bs_table_w[100];            /* the writes' own (wl->n_bs_write) */
    bool by_dir;                         /* sizes per direction or bsrange (wl_sizes_by_dir):
                                          * the direction is drawn first, then its size */
    uint32_t dir_align[2];               /* by_dir: each direction's alignment (blockalign,
                                          * or its smallest size, as fio's default) */
    uint8_t zone_table[100];             /* random_distribution=zoned: access -> zone */
    uint64_t zone_start[WL_MAX_ZONES], zone_len[WL_MAX_ZONES];
    /* random_distribution=zipf|pareto|normal: a rank in [0, dn) units of dunit bytes, spread
     * over the region by an affine bijection (rank * dmul + dadd mod dn) unless centred */
    enum wl_dist dist;
    uint64_t dn, dmul, dadd;
    uint32_t dunit;
    double zetan, zeta2, theta, alpha, eta;   /* zipf (Gray et al., SIGMOD 1994) */
    double ppow;                              /* pareto: value = dn * u^ppow */
    double sigma, center;                     /* normal; the centre of any (-1: spread) */
    /* fio's offset modifier and strided zones (workload.h seq_add, seq_nr, zone_*) */
    uint64_t last_off;                   /* the last I/O's offset (rw_sequencer=identical) */
    unsigned seq_left;                   /* rw=randread:N: I/Os left until the next draw */
    uint64_t zone_at, zone_done;         /* strided: the zone's start, bytes issued in it */
    /* fio's I/O priorities (wl->prio): a generator of their own, so that the offsets and
     * sizes drawn are the same with and without them, as fio's prio_state */
    struct rng prio_rng;
    bool prio_raises;                         /* wl_prio_raises */
    uint16_t prio_def;                        /* wl_prio_default */
    uint64_t prio_drawn, prio_raised;         /* I/Os drawn, and raised, so far (iogen_prio) */
    /* rw=trimwrite: the block just trimmed, written next (fio: the write reuses the trim's
     * offset and length, io_u.c) */
    bool tw_pending;
    uint64_t tw_off;
    uint32_t tw_len;
    /* wl->fastpass: the offsets come from the fast pass's generator (its units from fast_base),
     * not from the draws above: an offset source of its own, so that the rewrites of the pass
     * follow their first writes within each worker's share (io/fastgen.h) */
    bool fast;
    uint64_t fast_base;
    struct fastgen fg;
};

/* zonemode=strided: the next I/O's offset in the current zone (the next zone once zonesize
 * bytes went to this one; from the region's start again past its end), as fio's
 * setup_strided_zone_mode (iogen.c). */
uint64_t iogen_strided(struct iogen *g, uint32_t len, uint8_t dir, bool random);
/* A sequential I/O at off of len done: the cursor skips rw=MODE:N's N bytes (iogen.c). */
void iogen_seq_skip(struct iogen *g, uint64_t off, uint32_t len);

/* A rank in [0, g->dn) by the skewed distribution (iogen.c). */
uint64_t iogen_skewed_rank(struct iogen *g);

/* Do wl's random offsets draw through the random map (workload.h random_map once or always):
 * one block size, random offsets, no zones, sizes shared by reads and writes, the natural
 * alignment? Pure; iogen_init's choice, and the fast pass's (core/fastprep.c: the stimulus after it
 * draws without one unless the workload names random_map itself). */
static inline bool iogen_maps(const struct workload *wl)
{
    return wl->random_map != WL_RANDOM_MAP_OFF && wl->n_bs == 1 && wl->random_pct > 0 &&
           wl->n_zones == 0 && !wl_sizes_by_dir(wl) && !wl->zone_size &&
           (!wl->blockalign || wl->blockalign == wl->bs[0].size);
}

/* Worker `id` of `n_workers` over the active range: its own region when the workload splits
 * the range (sequential by default), else the whole range. seed: the worker's PRNG seed. */
void iogen_init(struct iogen *g, const struct workload *wl, const struct wl_range *range,
                unsigned id, unsigned n_workers, uint64_t seed);

/* What iogen_init allocated (the fast pass's lists); the generator is not used after it. */
void iogen_free(struct iogen *g);

/* The next I/O. */
static inline uint32_t iogen_natural_align(uint32_t len)
{
    return len & (~len + 1u);   /* lowest set bit: 4096 -> 4096, 1536 -> 512 */
}

static inline uint8_t iogen_dir(struct iogen *g)
{
    const struct workload *wl = g->wl;
    if (wl->trim)
        return IOGEN_TRIM;
    if (wl->read_pct >= 100)
        return IOGEN_READ;
    if (wl->read_pct == 0)
        return IOGEN_WRITE;
    return rng_below(&g->rng, 100) < wl->read_pct ? IOGEN_READ : IOGEN_WRITE;
}

/* by_dir: direction d's next size. bsrange as fio's get_next_buflen: MIN + a uniform draw
 * below MAX, down to a multiple of MIN, at most MAX. */
static inline uint32_t iogen_dir_len(struct iogen *g, uint8_t d)
{
    const struct workload *wl = g->wl;
    const unsigned k = d == IOGEN_WRITE && wl->n_bs_write ? 1 : 0;
    const uint32_t lo = k ? wl->bs_write[0].size : wl->bs[0].size, hi = wl->bsrange_hi[k];
    if (hi) {
        uint64_t x = lo + rng_below(&g->rng, hi);
        x -= x % lo;
        return x > hi ? hi : (uint32_t)x;
    }
    if ((k ? wl->n_bs_write : wl->n_bs) == 1)
        return lo;
    return (k ? g->bs_table_w : g->bs_table)[rng_below(&g->rng, 100)];
}

/* Random offsets' alignment for an I/O of len bytes in direction d. */
static inline uint64_t iogen_align(const struct iogen *g, uint32_t len, uint8_t d)
{
    if (g->by_dir)
        return g->dir_align[d == IOGEN_TRIM ? IOGEN_READ : d];   /* trims: the reads' */
    return g->wl->blockalign ? g->wl->blockalign : iogen_natural_align(len);
}

static inline void iogen_next(struct iogen *g, uint8_t *dir, uint32_t *len_out, uint64_t *offset)
{
    const struct workload *wl = g->wl;
    if (g->fast) {   /* the fast pass: its writes in the generator's order */
        *dir = IOGEN_WRITE;
        *len_out = wl->bs[0].size;
        *offset = g->fast_base + fastgen_next(&g->fg) * wl->bs[0].size;
        return;
    }
    if (g->tw_pending) {   /* rw=trimwrite: write the block trimmed last */
        g->tw_pending = false;
        *dir = IOGEN_WRITE;
        *len_out = g->tw_len;
        *offset = g->tw_off;
        return;
    }
    uint32_t len;
    if (g->by_dir) {
        *dir = iogen_dir(g);
        len = iogen_dir_len(g, *dir);
    } else {   /* the size first, then the direction (the draws of every earlier release) */
        len = wl->n_bs == 1 ? wl->bs[0].size : g->bs_table[rng_below(&g->rng, 100)];
        *dir = iogen_dir(g);
    }
    *len_out = len;

    bool random, repeat = false;
    if (wl->seq_nr > 1 && --g->seq_left) {   /* rw=randread:N between two draws */
        random = false;
        repeat = wl->seq_identical;
    } else {
        g->seq_left = wl->seq_nr;
        random = wl->random_pct >= 100 ||
                 (wl->random_pct > 0 && rng_below(&g->rng, 100) < wl->random_pct);
    }
    uint64_t off;
    if (repeat && g->last_off + len <= g->region_end) {
        off = g->last_off;
    } else if (wl->zone_size) {
        off = iogen_strided(g, len, *dir, random);
    } else if (random && g->dist != WL_DIST_UNIFORM) {
        const uint64_t align = iogen_align(g, len, *dir);
        uint64_t o = g->region_start + iogen_skewed_rank(g) * g->dunit;
        o -= (o - g->region_start) % align;
        if (o + len > g->region_end)
            o = g->region_end - len - (g->region_end - len - g->region_start) % align;
        off = o;
    } else if (random && wl->n_zones) {
        unsigned z = g->zone_table[rng_below(&g->rng, 100)];
        uint64_t align = iogen_align(g, len, *dir);
        uint64_t zlen = g->zone_len[z] >= len ? g->zone_len[z] : len;
        uint64_t start = g->zone_start[z];
        if (start + zlen > g->region_end)
            start = g->region_end - zlen;
        off = start + rng_below(&g->rng, (zlen - len) / align + 1) * align;
    } else if (random && g->use_map) {
        off = g->region_start + permute_next(&g->map, &g->rng) * len;
        if (g->map.next >= g->map.n && wl->random_map == WL_RANDOM_MAP_ONCE)
            g->use_map = false;   /* the first pass covered every block: draw freely now */
    } else if (random) {
        uint64_t align = iogen_align(g, len, *dir);
        uint64_t slots = (g->region_end - g->region_start - len) / align + 1;
        off = g->region_start + rng_below(&g->rng, slots) * align;
    } else {
        off = g->cursor;
        if (off + len > g->region_end)
            off = g->region_start;
    }
    g->cursor = off + len;
    g->last_off = off;
    if (wl->seq_add && !random)
        iogen_seq_skip(g, off, len);
    *offset = off;
    if (wl->trimwrite) {
        g->tw_pending = true;
        g->tw_off = off;
        g->tw_len = len;
    }
}

/* The I/O priority of an I/O of direction dir and len bytes (the kernel's value, 0: the
 * thread's own): cmdprio_percentage's share of its direction, or cmdprio_bssplit's share of
 * its size, raised (to cmdprio_class/cmdprio or the entry's own), as fio 3.33's
 * fio_cmdprio_set_ioprio; every other I/O at prio/prioclass. */
static inline uint16_t iogen_prio(struct iogen *g, uint8_t dir, uint32_t len)
{
    if (!g->prio_raises)
        return g->prio_def;
    const struct wl_prio *p = &g->wl->prio;
    const unsigned d = dir == IOGEN_WRITE;
    g->prio_drawn++;
    if (p->pct[d]) {
        if (rng_below(&g->prio_rng, 100) >= p->pct[d])
            return g->prio_def;
        g->prio_raised++;
        return wl_ioprio((int)p->cmd_cls[d], (int)p->cmd_level[d]);
    }
    unsigned tot = 0;
    for (unsigned i = 0; i < p->n_split[d]; i++)
        tot += p->split[d][i].bs == len ? p->split[d][i].pct : 0;
    if (!tot)
        return g->prio_def;
    const unsigned r = (unsigned)rng_below(&g->prio_rng, 100);
    if (r >= tot)
        return g->prio_def;
    unsigned cum = 0;
    for (unsigned i = 0; i < p->n_split[d]; i++) {
        const struct wl_prio_split *e = &p->split[d][i];
        if (e->bs != len || r >= (cum += e->pct))
            continue;
        g->prio_raised++;
        return wl_ioprio(e->cls < 0 ? (int)p->cmd_cls[d] : e->cls,
                         e->cls < 0 ? (int)p->cmd_level[d] : e->level);
    }
    return g->prio_def;
}

#endif
