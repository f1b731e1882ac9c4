/* sim_ctl.c — one simulated SSD controller: page-mapped FTL over lines, greedy / FIFO / d-choice
 * GC, reservation timing. Design: docs/simulated-drive.md §5.2-§5.7.
 *
 * Mapping unit 4 KiB (lpn); storage granule 512 B sector. A line is one erase block from every
 * plane of every die; its data sectors are written in order, superpage by superpage (a superpage
 * = planes x page on one die), the superpages going round-robin over the dies channel-first
 * (die d sits on channel d % channels). Each line keeps an append log of records
 * (lpn, stored sectors) in write order: the reverse map. A record is valid iff l2p[lpn] still
 * points at its position, so there are no per-page bitmaps.
 *
 * Timing is by reservation (no events): every resource keeps a busy_until and a request starts
 * at max(t, busy_until). Dies and firmware cores are FCFS servers. Departure from the note
 * (§5.3): the bandwidth resources (channels, write datapath; the host link in sim.c) are *booked*
 * at the time a request is issued, and the data is ready at max(dependency + transfer, booking
 * end). A plain busy_until cannot backfill: a read queued behind a die's program backlog would
 * otherwise push the channel's busy_until far into the future and every later transfer on that
 * channel would wait behind it, although the channel is idle meanwhile. Booking conserves the
 * bandwidth (throughput limits hold) and keeps QD1 latencies exact.
 *
 * Time is integer ns (dilated by k); costs were converted once at open. No allocation and no
 * formatting on the I/O path. */
#include "sim/sim_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"

#define SIM_PREFETCH 8   /* GC scan: log records looked ahead for the map lookup */

static inline simt sim_max(simt a, simt b) { return a > b ? a : b; }

/* ns to move `bytes` at `ps` picoseconds per byte, rounded up (128-bit: no overflow for any
 * valid bandwidth, k and I/O size). */
static inline simt sim_xfer(uint64_t bytes, uint64_t ps)
{
    if (bytes <= UINT32_MAX && ps <= UINT32_MAX)   /* the common case fits in 64 bits */
        return (bytes * ps + 999) / 1000;
    return (simt)(((unsigned __int128)bytes * ps + 999) / 1000);
}

/* per-KiB cost (ns per KiB) of `len` bytes, rounded up */
static inline simt sim_kib(simt per_kib, uint32_t len) { return (per_kib * len + 1023) / 1024; }

static void sim_fatal(const char *what)
{
    fprintf(stderr, "ptsbench: sim: internal error: %s\n", what);
    abort();
}

/* ---------------------------------------------------------------- resources */

/* A seeded gap uniform in [0.5, 1.5] x mean (splitmix64 state *rng). */
static inline simt sim_gap(uint64_t *rng, simt mean)
{
    const uint64_t x = rng_splitmix64(rng) >> 11;   /* 53 bits */
    return mean / 2 + (simt)((double)mean * ((double)x / 9007199254740992.0));
}

/* The gap before a core's next housekeeping window: uniform in [0.5, 1.5] x (period - hk), so
 * the windows come once a period on average but never in step with a periodic command stream
 * (a QD 1 stream of fixed service time would otherwise alias with them). Seeded. */
static inline simt sim_hk_gap(struct sim_ctl *c)
{
    return sim_gap(&c->hk_rng, c->cfg->hk_period - c->cfg->hk);
}

/* The gap before a controller's next timed pause (pause_ms): uniform in [0.5, 1.5] x
 * (period - pause), seeded (as sim_hk_gap). The card notes the pauses (sim.c). */
simt sim_ctl_pause_gap(struct sim_ctl *c)
{
    return sim_gap(&c->pause_rng, c->cfg->pause_period - c->cfg->pause);
}

/* Reserve `cost` on the earliest-free firmware core from t; returns the end. With
 * housekeeping (hk_period_us, hk_us: the firmware's own background work, such as journaling
 * the map, statistics and wear levelling bookkeeping, on every core about once a period) a
 * command that would start inside a core's window starts at the window's end: at low load
 * about hk / period of the commands wait, up to hk (the percentiles' shoulder above the
 * mean). Windows pass lazily: a core's start times never decrease. */
static inline simt sim_fw(struct sim_ctl *c, simt t, simt cost)
{
    const struct sim_cfg *g = c->cfg;
    simt *fw = c->fw;
    unsigned b = 0;
    for (unsigned i = 1; i < g->fw_cores; i++)
        if (fw[i] < fw[b])
            b = i;
    simt s = sim_max(t, fw[b]);
    if (g->hk_period) {
        simt *nx = &c->hk_next[b];
        while (*nx + g->hk <= s)
            *nx += g->hk + sim_hk_gap(c);
        if (s >= *nx) {   /* inside the window: after it */
            s = *nx + g->hk;
            *nx += g->hk + sim_hk_gap(c);
        }
    }
    fw[b] = s + cost;
    return fw[b];
}

/* The latest booking of any die (idle-time GC starts no step once the dies are booked up to
 * the next host command: sim_idle). */
static inline void sim_die_note(struct sim_ctl *c, simt end)
{
    if (end > c->die_max)
        c->die_max = end;
}

/* Program superpage sp of write point w. Booked when issued (w->issue: channel transfer, then
 * tPROG on the die, FCFS); the program cannot end before its data is ready (w->ready) plus the
 * transfer and tPROG. Booking at issue rather than at data-ready keeps the dies work-conserving:
 * a GC relocation whose source read waits behind a deep queue on another die would otherwise
 * leave its target die idle until then, and every later program on that die behind the hole. */
static simt sim_prog(struct sim_ctl *c, uint32_t sp, const struct sim_wp *w)
{
    const struct sim_cfg *g = c->cfg;
    uint32_t die = sp % g->dies;
    uint32_t ch = die % g->channels;
    simt x = sim_xfer((uint64_t)g->sp_sect * SIM_SECT, g->ch_ps);
    simt xe = sim_max(w->issue, c->ch[ch]) + x;
    c->ch[ch] = xe;
    simt s = sim_max(xe, c->die[die]);
    c->die[die] = s + g->t_prog;
    sim_die_note(c, c->die[die]);
    return sim_max(c->die[die], w->ready + x + g->t_prog);
}

/* Erase a line: tBERS on every die, each after the work already queued there. */
static simt sim_erase(struct sim_ctl *c, simt t)
{
    const struct sim_cfg *g = c->cfg;
    simt end = t;
    for (uint32_t d = 0; d < g->dies; d++) {
        c->die[d] = sim_max(t, c->die[d]) + g->t_erase;
        if (c->die[d] > end)
            end = c->die[d];
    }
    sim_die_note(c, end);
    return end;
}

/* ---------------------------------------------------------------- write buffer rings */

/* Take buffer room for a unit of ns stored sectors, in FIFO order; *wait = when the oldest
 * units have left enough room (back-pressure: room frees in FIFO order, so this is the latest
 * release among the units pushed out). Returns the unit's slot. The pending units (at most one
 * superpage plus one unit) never need to be pushed out: the budget is larger than that. */
static inline uint32_t sim_ring_take(struct sim_ring *r, simt t, uint32_t ns, simt *wait)
{
    simt w = t;
    uint32_t next = r->head + 1 == r->n ? 0 : r->head + 1;
    while (r->occ + ns > r->budget || next == r->tail) {
        if (r->rel[r->tail] > w)
            w = r->rel[r->tail];
        r->occ -= r->ns[r->tail];
        if (++r->tail == r->n)
            r->tail = 0;
    }
    uint32_t s = r->head;
    r->ns[s] = (uint8_t)ns;
    r->occ += ns;
    r->head = next;
    *wait = w;
    return s;
}

/* All pending slots (units of the superpage just programmed) are released at e. */
static inline void sim_ring_resolve(struct sim_ring *r, simt e)
{
    uint32_t s = r->pend_first;
    for (uint32_t i = 0; i < r->npend; i++) {
        r->rel[s] = e;
        if (++s == r->n)
            s = 0;
    }
    r->npend = 0;
}

static inline void sim_ring_pend(struct sim_ring *r, uint32_t slot)
{
    if (!r->npend)
        r->pend_first = slot;
    r->npend++;
}

/* ---------------------------------------------------------------- line lists */

static inline uint32_t sim_bucket_of(const struct sim_cfg *g, uint32_t valid)
{
    return valid >> g->bucket_shift;
}

static void sim_bucket_unlink(struct sim_ctl *c, uint32_t l)
{
    struct sim_line *L = &c->lines[l];
    if (L->prev != SIM_NONE)
        c->lines[L->prev].next = L->next;
    else
        c->bucket[sim_bucket_of(c->cfg, L->valid)] = L->next;
    if (L->next != SIM_NONE)
        c->lines[L->next].prev = L->prev;
    L->prev = L->next = SIM_NONE;
}

static void sim_bucket_link(struct sim_ctl *c, uint32_t l)
{
    struct sim_line *L = &c->lines[l];
    uint32_t b = sim_bucket_of(c->cfg, L->valid);
    L->prev = SIM_NONE;
    L->next = c->bucket[b];
    if (L->next != SIM_NONE)
        c->lines[L->next].prev = l;
    c->bucket[b] = l;
    if (b < c->bmin)
        c->bmin = b;
}

/* A stored copy of `ns` sectors in line l stops being valid. */
static inline void sim_invalidate(struct sim_ctl *c, uint32_t l, uint32_t ns)
{
    struct sim_line *L = &c->lines[l];
    if (L->state == SIM_LINE_CLOSED) {
        uint32_t ob = sim_bucket_of(c->cfg, L->valid);
        uint32_t nb = sim_bucket_of(c->cfg, L->valid - ns);
        if (ob != nb) {
            sim_bucket_unlink(c, l);
            L->valid -= ns;
            sim_bucket_link(c, l);
            return;
        }
    }
    L->valid -= ns;
}

/* ---------------------------------------------------------------- victim selection */

/* Foreground pacing for the current victim: relocate valid/(cap - valid) sectors per host
 * sector written, so the victim is empty when the host has used up the space it frees. */
static void sim_pace(struct sim_ctl *c)
{
    uint32_t v = c->lines[c->victim].valid;
    uint64_t gain = c->cfg->line_cap - v;
    c->ratio_fx = gain ? ((uint64_t)v << 16) / gain : (uint64_t)c->cfg->line_cap << 16;
    if (c->ratio_fx == 0)
        c->ratio_fx = 1;   /* an all-invalid victim still needs one step to be erased */
}

static bool sim_pick(struct sim_ctl *c)
{
    const struct sim_cfg *g = c->cfg;
    uint32_t v = SIM_NONE;
    if (g->gc == SIM_GC_FIFO) {
        if (!c->nfifo)
            return false;
        /* FIFO takes the oldest line even if it is all valid (cold data): moving it gains
         * nothing but lets the queue advance */
        v = c->fifoq[c->fifo_head];
        c->fifo_head = c->fifo_head + 1 == g->nlines ? 0 : c->fifo_head + 1;
        c->nfifo--;
    } else {
        if (g->gc == SIM_GC_DCHOICE) {
            /* sample d closed lines (MQSim RGA / SimpleSSD d-choice), keep the least valid */
            uint32_t seen = 0;
            for (uint32_t tries = 0; tries < 8 * g->dchoice_d && seen < g->dchoice_d; tries++) {
                uint64_t x = rng_splitmix64(&c->rng);
                uint32_t l = (uint32_t)(((x >> 32) * g->nlines) >> 32);
                if (c->lines[l].state != SIM_LINE_CLOSED)
                    continue;
                seen++;
                if (v == SIM_NONE || c->lines[l].valid < c->lines[v].valid)
                    v = l;
            }
            if (v != SIM_NONE && c->lines[v].valid >= g->line_cap)
                v = SIM_NONE;
        }
        if (v == SIM_NONE) {   /* greedy: lowest non-empty bucket, O(1) amortised */
            while (c->bmin < g->nbuckets && c->bucket[c->bmin] == SIM_NONE)
                c->bmin++;
            if (c->bmin == g->nbuckets)
                return false;
            v = c->bucket[c->bmin];
            if (c->lines[v].valid >= g->line_cap)
                return false;
        }
    }
    sim_bucket_unlink(c, v);
    struct sim_line *L = &c->lines[v];
    L->state = SIM_LINE_VICTIM;
    c->victim = v;
    c->gc_rec = c->gc_off = 0;
    c->victim_v0 = L->valid;
    c->victim_bg = 0;
    sim_pace(c);
    return true;
}

/* ---------------------------------------------------------------- open / close lines */

static void sim_close_line(struct sim_ctl *c, struct sim_wp *w)
{
    const struct sim_cfg *g = c->cfg;
    struct sim_line *L = &c->lines[w->line];
    if (L->wr % g->sp_sect) {   /* flush the partial last superpage (the rest is padding) */
        simt e = sim_prog(c, L->wr / g->sp_sect, w);
        sim_ring_resolve(&w->ring, e);
    }
    L->state = SIM_LINE_CLOSED;
    sim_bucket_link(c, w->line);
    if (g->gc == SIM_GC_FIFO) {
        c->fifoq[(c->fifo_head + c->nfifo) % g->nlines] = w->line;
        c->nfifo++;
    }
    w->line = SIM_NONE;
    w->ready = w->issue = 0;
}

static simt sim_gc_step(struct sim_ctl *c, simt t, bool bg, bool *progress);

static void sim_open_line(struct sim_ctl *c, struct sim_wp *w, bool gc)
{
    const struct sim_cfg *g = c->cfg;
    if (!gc) {
        /* Hard floor: the host never takes the last free line, the GC write point may need
         * it to finish a victim. Normally the paced foreground GC keeps nfree at fg_lines. */
        while (c->nfree < 2) {
            bool prog;
            sim_gc_step(c, c->now, false, &prog);
            if (!prog)
                break;
        }
    }
    if (!c->nfree)
        sim_fatal("no free line (user capacity exceeds what GC can keep free)");
    uint32_t l = c->freeq[c->free_head];
    c->free_head = c->free_head + 1 == g->nlines ? 0 : c->free_head + 1;
    c->nfree--;
    struct sim_line *L = &c->lines[l];
    L->state = SIM_LINE_OPEN;
    L->valid = L->wr = L->nrec = 0;
    w->line = l;
    w->ready = w->issue = 0;
}

/* Append one unit (ns stored sectors, issued at `issue`, data ready at `ready`, buffer slot
 * `slot`) at the write point and map lpn to it. Programs every superpage this fills; the
 * unit's buffer room is released when its last sector is programmed. */
static void sim_append(struct sim_ctl *c, struct sim_wp *w, bool gc, uint32_t lpn, uint32_t ns,
                       simt issue, simt ready, uint32_t slot)
{
    const struct sim_cfg *g = c->cfg;
    if (w->line != SIM_NONE && c->lines[w->line].wr + ns > g->line_cap)
        sim_close_line(c, w);
    if (w->line == SIM_NONE)
        sim_open_line(c, w, gc);
    uint32_t l = w->line;
    struct sim_line *L = &c->lines[l];

    uint32_t old = c->l2p[lpn];
    if (old != SIM_UNMAPPED)
        sim_invalidate(c, old / g->line_cap, c->l2n[lpn]);
    uint32_t off = L->wr;
    c->log[(size_t)l * g->rec_cap + L->nrec++] = lpn | (ns - 1) << SIM_LPN_BITS;
    c->l2p[lpn] = l * g->line_cap + off;
    c->l2n[lpn] = (uint8_t)ns;
    L->valid += ns;
    L->wr = off + ns;
    c->st.nand_write_sectors += ns;
    if (ready > w->ready)
        w->ready = ready;
    if (issue > w->issue)
        w->issue = issue;

    uint32_t sp0 = off / g->sp_sect, sp1 = L->wr / g->sp_sect;
    simt e = 0;
    for (uint32_t sp = sp0; sp < sp1; sp++) {
        e = sim_prog(c, sp, w);
        sim_ring_resolve(&w->ring, e);   /* the earlier pending units end in sp0 */
    }
    bool full = L->wr == g->line_cap;
    if (full && L->wr % g->sp_sect) {
        e = sim_prog(c, sp1, w);
        sim_ring_resolve(&w->ring, e);
    }
    if (full || L->wr % g->sp_sect == 0) {
        w->ring.rel[slot] = e;
        w->ready = w->issue = 0;
    } else {
        sim_ring_pend(&w->ring, slot);
        if (sp1 > sp0) {   /* the partial superpage holds only this unit's tail */
            w->ready = ready;
            w->issue = issue;
        }
    }
    if (full) {
        L->state = SIM_LINE_CLOSED;
        sim_bucket_link(c, l);
        if (g->gc == SIM_GC_FIFO) {
            c->fifoq[(c->fifo_head + c->nfifo) % g->nlines] = l;
            c->nfifo++;
        }
        w->line = SIM_NONE;
        w->ready = w->issue = 0;
    }
}

/* ---------------------------------------------------------------- garbage collection */

/* One GC step at time t: relocate up to `quantum` valid units of the victim (finishing the
 * source superpage in progress, so a page is read once), then erase the victim if it is empty.
 * Each relocation: tR on the source die (one multi-plane read per superpage), channel
 * transfer, c_gc x nsect/8 on a firmware core (and c_gc_sp once per source superpage read:
 * relocating a page's worth of valid data costs less per unit than relocating scattered
 * units, as large random writes leave victims), the write datapath, room in the GC buffer, and
 * the program on the GC line. Departure from the note: the firmware cost is reserved from t,
 * not after the source read, because a read may wait behind a long program backlog on its die
 * and an FCFS core reserved that far ahead would block every host command meanwhile.
 * Returns the step's end for idle-time pacing: when its firmware and datapath work is done and
 * the GC buffer had room for it. The next step does not wait for this step's reads: the
 * firmware keeps reads on many dies in flight, and the GC buffer (two superpages per die,
 * freed at program end) bounds how far relocation runs ahead of the NAND. */
static simt sim_gc_step(struct sim_ctl *c, simt t, bool bg, bool *progress)
{
    const struct sim_cfg *g = c->cfg;
    if (c->victim == SIM_NONE && !sim_pick(c)) {
        *progress = false;
        return t;
    }
    *progress = true;
    const uint32_t v = c->victim;
    struct sim_line *L = &c->lines[v];
    const uint32_t *recs = c->log + (size_t)v * g->rec_cap;
    const uint32_t base = v * g->line_cap;

    unsigned core = 0;
    for (unsigned i = 1; i < g->fw_cores; i++)
        if (c->fw[i] < c->fw[core])
            core = i;
    simt fw_t = sim_max(t, c->fw[core]);
    simt pipe_t = sim_max(t, c->pipe);
    simt end = t, rd = t;
    uint32_t last_sp = SIM_NONE, ch = 0, units = 0, moved = 0;

    while (c->gc_rec < L->nrec) {
        if (c->gc_rec + SIM_PREFETCH < L->nrec) {   /* the map is random access: look ahead */
            uint32_t pl = recs[c->gc_rec + SIM_PREFETCH] & SIM_LPN_MASK;
            __builtin_prefetch(&c->l2p[pl]);
            __builtin_prefetch(&c->l2n[pl]);
        }
        uint32_t r = recs[c->gc_rec];
        uint32_t off = c->gc_off;
        uint32_t sp0 = off / g->sp_sect;
        if (g->quantum && units >= g->quantum && sp0 != last_sp)
            break;
        uint32_t lpn = r & SIM_LPN_MASK, ns = (r >> SIM_LPN_BITS) + 1;
        c->gc_rec++;
        c->gc_off = off + ns;
        if (c->l2p[lpn] != base + off)
            continue;   /* overwritten or trimmed since */
        uint32_t sp1 = (off + ns - 1) / g->sp_sect;
        if (sp0 != last_sp) {
            uint32_t die = sp0 % g->dies;
            rd = sim_max(t, c->die[die]) + g->t_read;
            c->die[die] = rd;
            sim_die_note(c, rd);
            ch = die % g->channels;
            last_sp = sp0;
            fw_t += g->c_gc_sp;   /* per source page read: its setup, whatever it holds */
        }
        simt ready = rd;
        if (sp1 != sp0) {   /* unit straddles two superpages: read both */
            uint32_t die = sp1 % g->dies;
            rd = sim_max(t, c->die[die]) + g->t_read;
            c->die[die] = rd;
            sim_die_note(c, rd);
            last_sp = sp1;
            ready = sim_max(ready, rd);
            fw_t += g->c_gc_sp;
        }
        simt x = sim_xfer((uint64_t)ns * SIM_SECT, g->ch_ps);
        simt cb = sim_max(t, c->ch[ch]) + x;
        c->ch[ch] = cb;
        ready = sim_max(ready + x, cb);
        fw_t += (g->c_gc * ns) >> 3;
        ready = sim_max(ready, fw_t);
        if (g->pipe_ps) {
            pipe_t += sim_xfer((uint64_t)ns * SIM_SECT, g->pipe_ps);
            ready = sim_max(ready, pipe_t);
        }
        simt w;
        uint32_t slot = sim_ring_take(&c->gcw.ring, t, ns, &w);
        end = sim_max(end, w);
        sim_append(c, &c->gcw, true, lpn, ns, t, sim_max(ready, w), slot);
        units++;
        moved += ns;
    }
    if (units) {
        c->fw[core] = fw_t;
        if (g->pipe_ps)
            c->pipe = pipe_t;
        end = sim_max(end, sim_max(fw_t, pipe_t));
    }
    c->st.gc_relocated_sectors += moved;
    if (bg) {
        c->victim_bg += moved;
        c->st.bg_relocated_sectors += moved;
        c->st.bg_gc_steps++;
    } else {
        c->st.fg_gc_steps++;
        c->debt -= (int64_t)moved << 16;
    }
    if (c->gc_rec == L->nrec) {   /* victim empty: erase, back to the free pool */
        if (L->valid)
            sim_fatal("victim still holds valid sectors after its log was scanned");
        sim_erase(c, t);
        L->state = SIM_LINE_FREE;
        L->wr = L->nrec = 0;
        c->freeq[(c->free_head + c->nfree) % g->nlines] = v;
        c->nfree++;
        c->st.erases++;
        c->victim = SIM_NONE;
        c->gc_rec = c->gc_off = 0;
    }
    return end;
}

/* Foreground GC before a host write of `sect_fx` stored sectors (<< 16): while the pool is at
 * or below fg_lines, relocate in quanta so that relocations keep pace with host writes (the
 * debt grows by sect x valid/gain of the current victim and each relocated sector pays one).
 * This keeps the pool at the threshold with bounded work per command (incremental GC).
 * Departure from the note (§5.5: "runs quanta until a victim completes or the pool is above
 * the trigger"): taken literally that collects a whole victim in the first command that finds
 * the pool at the trigger, i.e. whole-victim GC once per line; pacing spreads it evenly. The
 * hard floor (sim_open_line) still collects synchronously if the pool ever gets down to one. */
static void sim_fg_gc(struct sim_ctl *c, simt t, uint64_t sect_fx)
{
    const struct sim_cfg *g = c->cfg;
    if (c->nfree > g->fg_lines) {
        c->debt = 0;
        return;
    }
    if (c->victim == SIM_NONE && !sim_pick(c))
        return;
    const int64_t cap = (int64_t)(2 * (uint64_t)g->line_cap) << 16;
    unsigned __int128 add = ((unsigned __int128)sect_fx * c->ratio_fx) >> 16;
    int64_t room = cap - (c->debt > 0 ? c->debt : 0);
    c->debt += add > (unsigned __int128)room ? room : (int64_t)add;
    while (c->debt > 0) {
        bool prog;
        sim_gc_step(c, t, false, &prog);
        if (!prog)
            break;
        if (c->victim == SIM_NONE && c->nfree > g->fg_lines) {
            c->debt = 0;
            break;
        }
    }
}

/* Free space for background GC's target, in raw-line sectors: free lines, the unwritten part
 * of the two open lines, and the victim's relocation progress as a share of a line. Unlike
 * the free-line count it changes smoothly (host writes lower it, relocation raises it by the
 * gain, an erase turns the finished victim into a free line), so bg_target is not rounded to
 * whole lines (a line is 1/256 of the drive or more) and does not depend on where in its
 * cycle the idle period finds foreground GC. In foreground steady state it sits near
 * fg_lines + 1 lines; background GC adds to that. */
static uint64_t sim_prepared(const struct sim_ctl *c)
{
    const struct sim_cfg *g = c->cfg;
    uint64_t f = (uint64_t)c->nfree * g->line_sect;
    if (c->host.line != SIM_NONE)
        f += (uint64_t)(g->line_cap - c->lines[c->host.line].wr) * g->line_sect / g->line_cap;
    if (c->gcw.line != SIM_NONE)
        f += (uint64_t)(g->line_cap - c->lines[c->gcw.line].wr) * g->line_sect / g->line_cap;
    if (c->victim != SIM_NONE && c->victim_v0)
        f += (uint64_t)g->line_sect * (c->victim_v0 - c->lines[c->victim].valid) / c->victim_v0;
    return f;
}

/* Busy-time background GC (bg_busy_pct), lazily at the next host command (at now): below the
 * target, steps start in the gaps the host leaves, when the firmware core and the write
 * datapath are free and no die is booked up to now (host work already booked is never
 * delayed; a command arriving during a step waits for that step only), and each step of
 * length d is followed by d x (100 - pct) / pct without one, so collection takes at most pct
 * of the time. Returns whether a step ran. */
static bool sim_busy_gc(struct sim_ctl *c, simt now)
{
    const struct sim_cfg *g = c->cfg;
    simt t = c->bg_until;
    bool ran = false;
    while (t < now && c->die_max < now && sim_prepared(c) < g->bg_target_sect) {
        unsigned b = 0;   /* the earliest-free core, the one a step takes */
        for (unsigned i = 1; i < g->fw_cores; i++)
            if (c->fw[i] < c->fw[b])
                b = i;
        simt s = sim_max(t, c->fw[b]);
        if (g->pipe_ps)
            s = sim_max(s, c->pipe);
        if (s >= now)
            break;
        bool prog;
        simt e = sim_gc_step(c, s, true, &prog);
        if (!prog)
            break;
        ran = true;
        const simt d = e > s ? e - s : 1;
        t = s + d * 100 / g->bg_busy_pct;
    }
    if (t > c->bg_until)
        c->bg_until = t;
    return ran;
}

/* Idle-time background GC, detected lazily at the next submit: the controller has been idle
 * since last_done; from last_done + idle_delay run steps back to back (each step starts when
 * the previous one has left the firmware, datapath, source dies and GC buffer) until a step
 * would start at or after now, the dies are booked up to now, or the free pool reaches
 * bg_target. The command arriving now then waits for whatever those steps still hold: the
 * step in progress, not a queue of them (firmware keeps background work from queueing ahead
 * of the host: a read finds at most one relocation program on its die, as after a busy
 * period). */
static void sim_idle(struct sim_ctl *c, simt now)
{
    const struct sim_cfg *g = c->cfg;
    if (!g->bg_gc)
        return;
    simt t = c->last_done + g->idle_delay;
    if (t < c->bg_until)
        t = c->bg_until;
    bool ran = false;
    if (t < now) {
        while (t < now && c->die_max < now && sim_prepared(c) < g->bg_target_sect) {
            bool prog;
            simt e = sim_gc_step(c, t, true, &prog);
            if (!prog)
                break;
            ran = true;
            t = e > t ? e : t + 1;
        }
        c->bg_until = t;
    }
    if (g->bg_busy_pct)
        ran |= sim_busy_gc(c, now);
    if (ran && c->victim != SIM_NONE)
        sim_pace(c);   /* foreground GC takes over what is left of the victim */
}

/* ---------------------------------------------------------------- host commands */

static inline uint32_t sim_stored(struct sim_ctl *c, uint32_t ns)
{
    const struct sim_cfg *g = c->cfg;
    if (!g->durawrite)
        return ns;
    /* metadata: meta_pct of the 4 KiB unit (not of the stored data: note §5.7's 90 % case,
     * 0.125 + 0.016 = 0.14, takes 1/64 of 4 KiB), accumulated in 1/65536 sector and stored as
     * whole extra sectors with the unit (so it is relocated with it) */
    c->meta_acc += g->meta_fx;
    ns += c->meta_acc >> 16;
    c->meta_acc &= 0xffff;
    return ns > SIM_MAX_NSECT ? SIM_MAX_NSECT : ns;
}

/* Stored sectors n units of ns sectors will take, metadata included (what GC must free),
 * in 1/65536 sector. */
static inline uint64_t sim_charge(const struct sim_cfg *g, uint32_t n, uint32_t ns)
{
    uint64_t s = ((uint64_t)n * ns) << 16;
    return g->durawrite ? s + (uint64_t)n * g->meta_fx : s;
}

/* Host write of n units. A write that covers a unit only partly rewrites the whole unit
 * (the model does not charge the read-modify-write read). Order (note §5.3): d_w, foreground
 * GC, firmware (c_cmd + c_w + c_w_kib x KiB of the command, one reservation on the earliest-
 * free core: c_cmd shares the cores), the write datapath (the units' stored sectors: what a
 * compressing controller reduced does not fill it), then buffer room
 * for each unit. Completion is early (buffer with power-loss protection): when the firmware
 * and datapath are done and every unit has room; room frees when its unit is programmed
 * (back-pressure). */
simt sim_ctl_write(struct sim_ctl *c, simt t, uint32_t lpn0, const uint32_t *lpns, uint32_t n,
                   uint32_t len, unsigned compress_pct)
{
    const struct sim_cfg *g = c->cfg;
    sim_idle(c, t);
    t += g->d_w;
    c->now = t;
    uint32_t ns = g->ns_tab[compress_pct > 100 ? 100 : compress_pct];
    if (!lpns && n == 1) {
        __builtin_prefetch(&c->l2p[lpn0]);   /* used after the GC step below */
        __builtin_prefetch(&c->l2n[lpn0]);
    }
    sim_fg_gc(c, t, sim_charge(g, n, ns));
    simt tf = sim_fw(c, t, g->c_cmd + g->c_w + sim_kib(g->c_w_kib, len));
    if (g->pipe_ps) {   /* the datapath moves the stored (compressed) data */
        c->pipe = sim_max(tf, c->pipe) + sim_xfer((uint64_t)n * ns * SIM_SECT, g->pipe_ps);
        tf = c->pipe;
    }
    simt done = tf;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t lpn = lpns ? lpns[i] : lpn0 + i;
        uint32_t stored = sim_stored(c, ns);
        simt w;
        uint32_t slot = sim_ring_take(&c->host.ring, tf, stored, &w);
        if (w > done)
            done = w;
        sim_append(c, &c->host, false, lpn, stored, tf, w, slot);
        c->flush_acc += stored;
    }
    if (g->flush_sect && c->flush_acc >= g->flush_sect) {
        /* the write buffer's and map journal's commit, from this write's arrival: the card
         * notes it (sim.c) */
        c->flush_acc -= g->flush_sect;
        c->flush_due = true;
    }
    c->st.host_write_sectors += len / SIM_SECT;
    if (done > c->last_done)
        c->last_done = done;
    return done;
}

/* The superpages a read of these units touches, counted as the read path takes them (a new
 * one whenever the next unit lies elsewhere; a unit straddling two reads both). 0: nothing
 * mapped. */
static uint32_t sim_read_pages(const struct sim_ctl *c, uint32_t lpn0, const uint32_t *lpns,
                               uint32_t n)
{
    const struct sim_cfg *g = c->cfg;
    uint32_t pages = 0, last_line = SIM_NONE, last_sp = SIM_NONE;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t lpn = lpns ? lpns[i] : lpn0 + i;
        uint32_t a = lpn == SIM_UNMAPPED ? SIM_UNMAPPED : c->l2p[lpn];
        if (a == SIM_UNMAPPED)
            continue;
        uint32_t line = a / g->line_cap, off = a - line * g->line_cap;
        uint32_t sp0 = off / g->sp_sect, sp1 = (off + c->l2n[lpn] - 1) / g->sp_sect;
        if (line != last_line || sp0 != last_sp)
            pages++;
        pages += sp1 != sp0;
        last_line = line;
        last_sp = sp1;
    }
    return pages;
}

/* Host read. Units never written or trimmed are answered without NAND (zeros): a read that
 * maps nothing costs c_cmd + c_unmapped, at most c_cmd + the firmware cost of a mapped read
 * of its size (never slower than mapped data: drives answer it from the map), no d_r. A
 * mapped read: firmware (c_cmd + c_r + c_r_kib x KiB of the command + c_r_page per superpage
 * it touches, on the earliest-free core), d_r, then per superpage one tR on its die (FCFS: it
 * waits for programs and erases queued there; a unit straddling two superpages reads both),
 * then the channel transfer of the stored sectors (compressed data moves fewer bytes). The
 * page part makes the cost follow where the data lies: compressed units share pages, units
 * of incompressible data straddle them, data written by small random writes is scattered
 * one unit to a page. Data still in the write buffer is read from NAND too (the model does
 * not track buffer hits). */
simt sim_ctl_read(struct sim_ctl *c, simt t, uint32_t lpn0, const uint32_t *lpns, uint32_t n,
                  uint32_t len)
{
    const struct sim_cfg *g = c->cfg;
    sim_idle(c, t);
    const uint32_t pages = sim_read_pages(c, lpn0, lpns, n);
    simt done;
    if (!pages) {
        /* a read of never-written data is answered from the map: never dearer than the
         * firmware part of a mapped read of the same size */
        const simt mapped = g->c_r + sim_kib(g->c_r_kib, len);
        done = sim_fw(c, t, g->c_cmd + (g->c_unmapped < mapped ? g->c_unmapped : mapped));
        c->st.unmapped_reads += n;
    } else {
        simt tf = sim_fw(c, t, g->c_cmd + g->c_r + sim_kib(g->c_r_kib, len) +
                                   (simt)pages * g->c_r_page) + g->d_r;
        done = tf;
        uint32_t last_line = SIM_NONE, last_sp = SIM_NONE, ch = 0;
        simt rd = tf;
        for (uint32_t i = 0; i < n; i++) {
            uint32_t lpn = lpns ? lpns[i] : lpn0 + i;
            uint32_t a = lpn == SIM_UNMAPPED ? SIM_UNMAPPED : c->l2p[lpn];
            if (a == SIM_UNMAPPED) {
                c->st.unmapped_reads++;
                continue;
            }
            uint32_t ns = c->l2n[lpn];
            uint32_t line = a / g->line_cap, off = a - line * g->line_cap;
            uint32_t sp0 = off / g->sp_sect, sp1 = (off + ns - 1) / g->sp_sect;
            if (line != last_line || sp0 != last_sp) {
                uint32_t die = sp0 % g->dies;
                rd = sim_max(tf, c->die[die]) + g->t_read;
                c->die[die] = rd;
                sim_die_note(c, rd);
                ch = die % g->channels;
                last_line = line;
                last_sp = sp0;
            }
            simt r = rd;
            if (sp1 != sp0) {
                uint32_t die = sp1 % g->dies;
                rd = sim_max(tf, c->die[die]) + g->t_read;
                c->die[die] = rd;
                sim_die_note(c, rd);
                last_sp = sp1;
                r = sim_max(r, rd);
            }
            simt x = sim_xfer((uint64_t)ns * SIM_SECT, g->ch_ps);
            simt cb = sim_max(tf, c->ch[ch]) + x;
            c->ch[ch] = cb;
            done = sim_max(done, sim_max(r + x, cb));
        }
    }
    c->st.host_read_sectors += len / SIM_SECT;
    if (done > c->last_done)
        c->last_done = done;
    return done;
}

void sim_ctl_unmap(struct sim_ctl *c, uint32_t lpn)
{
    uint32_t a = c->l2p[lpn];
    if (a == SIM_UNMAPPED)
        return;
    sim_invalidate(c, a / c->cfg->line_cap, c->l2n[lpn]);
    c->l2p[lpn] = SIM_UNMAPPED;
    c->l2n[lpn] = 0;
}

/* TRIM: the units stop being valid (their sectors become garbage for GC) and read as
 * unmapped. Costs one command on the firmware: c_cmd + c_trim + c_trim_unit per unit. */
simt sim_ctl_trim(struct sim_ctl *c, simt t, uint32_t lpn0, const uint32_t *lpns, uint32_t n)
{
    sim_idle(c, t);
    const struct sim_cfg *g = c->cfg;
    simt done = sim_fw(c, t, g->c_cmd + g->c_trim + (simt)n * g->c_trim_unit);   /* see c_trim */
    for (uint32_t i = 0; i < n; i++)
        sim_ctl_unmap(c, lpns ? lpns[i] : lpn0 + i);
    c->st.trimmed_units += n;
    if (done > c->last_done)
        c->last_done = done;
    return done;
}

/* fast_fill: the write path at t = 0 (GC included); sim_ctl_untime() clears the timing
 * afterwards. */
void sim_ctl_fill(struct sim_ctl *c, uint32_t lpn, unsigned compress_pct)
{
    const struct sim_cfg *g = c->cfg;
    c->now = 0;
    uint32_t ns = g->ns_tab[compress_pct > 100 ? 100 : compress_pct];
    sim_fg_gc(c, 0, sim_charge(g, 1, ns));
    uint32_t stored = sim_stored(c, ns);
    simt w;
    uint32_t slot = sim_ring_take(&c->host.ring, 0, stored, &w);
    sim_append(c, &c->host, false, lpn, stored, 0, 0, slot);
    c->st.host_write_sectors += SIM_UNIT / SIM_SECT;
}

static void sim_hk_reset(struct sim_ctl *c, simt now)
{
    const struct sim_cfg *g = c->cfg;
    c->hk_rng = c->seed ^ 0x686b686b686b686bull;   /* "hkhk": apart from d-choice's */
    for (unsigned i = 0; g->hk_period && i < g->fw_cores; i++)
        c->hk_next[i] = now + sim_hk_gap(c);
    c->pause_rng = c->seed ^ 0x7061757365706175ull;   /* "pausepau" */
    c->pause_next = g->pause_period ? now + sim_ctl_pause_gap(c) : 0;
    /* each controller's journal starts part full (seeded), so that the controllers of a
     * card, which take the same share of a striped stream, do not commit in step */
    c->flush_acc = g->flush_sect ? rng_splitmix64(&c->pause_rng) % g->flush_sect : 0;
    c->flush_due = false;
}

void sim_ctl_untime(struct sim_ctl *c)
{
    const struct sim_cfg *g = c->cfg;
    memset(c->fw, 0, sizeof(*c->fw) * g->fw_cores);
    sim_hk_reset(c, 0);
    memset(c->ch, 0, sizeof(*c->ch) * g->channels);
    memset(c->die, 0, sizeof(*c->die) * g->dies);
    c->die_max = 0;
    memset(c->host.ring.rel, 0, sizeof(simt) * c->host.ring.n);
    memset(c->gcw.ring.rel, 0, sizeof(simt) * c->gcw.ring.n);
    c->host.ready = c->gcw.ready = c->host.issue = c->gcw.issue = 0;
    c->pipe = 0;
}

/* ---------------------------------------------------------------- lifecycle */

void sim_ctl_reset(struct sim_ctl *c, simt now)
{
    const struct sim_cfg *g = c->cfg;
    memset(c->l2p, 0xff, sizeof(*c->l2p) * g->user_units);
    memset(c->l2n, 0, g->user_units);
    for (uint32_t l = 0; l < g->nlines; l++) {
        c->lines[l] = (struct sim_line){.prev = SIM_NONE, .next = SIM_NONE,
                                        .state = SIM_LINE_FREE};
        c->freeq[l] = l;
    }
    for (uint32_t b = 0; b < g->nbuckets; b++)
        c->bucket[b] = SIM_NONE;
    c->bmin = g->nbuckets;
    c->free_head = 0;
    c->nfree = g->nlines;
    c->fifo_head = c->nfifo = 0;
    struct sim_wp *wps[2] = {&c->host, &c->gcw};
    for (int i = 0; i < 2; i++) {
        wps[i]->line = SIM_NONE;
        wps[i]->ready = wps[i]->issue = 0;
        struct sim_ring *r = &wps[i]->ring;
        r->head = r->tail = r->occ = r->npend = r->pend_first = 0;
        for (uint32_t s = 0; s < wps[i]->ring.n; s++)
            wps[i]->ring.rel[s] = now;
    }
    c->victim = SIM_NONE;
    c->gc_rec = c->gc_off = 0;
    c->debt = 0;
    c->ratio_fx = 0;
    for (unsigned i = 0; i < g->fw_cores; i++)
        c->fw[i] = now;
    for (unsigned i = 0; i < g->channels; i++)
        c->ch[i] = now;
    for (unsigned i = 0; i < g->dies; i++)
        c->die[i] = now;
    c->die_max = now;
    c->pipe = now;
    c->last_done = c->bg_until = c->now = now;
    c->meta_acc = 0;
    c->rng = c->seed;
    sim_hk_reset(c, now);
    memset(&c->st, 0, sizeof(c->st));
}

int sim_ctl_init(struct sim_ctl *c, const struct sim_cfg *g, uint64_t seed)
{
    memset(c, 0, sizeof(*c));
    c->cfg = g;
    c->seed = seed;
    c->l2p = xcalloc(g->user_units, sizeof(*c->l2p));
    c->l2n = xcalloc(g->user_units, 1);
    c->log = xcalloc((size_t)g->nlines * g->rec_cap, sizeof(*c->log));
    c->lines = xcalloc(g->nlines, sizeof(*c->lines));
    c->bucket = xcalloc(g->nbuckets, sizeof(*c->bucket));
    c->freeq = xcalloc(g->nlines, sizeof(*c->freeq));
    c->fifoq = xcalloc(g->nlines, sizeof(*c->fifoq));
    c->fw = xcalloc(g->fw_cores, sizeof(*c->fw));
    c->hk_next = xcalloc(g->fw_cores, sizeof(*c->hk_next));
    c->ch = xcalloc(g->channels, sizeof(*c->ch));
    c->die = xcalloc(g->dies, sizeof(*c->die));
    struct sim_ring *rings[2] = {&c->host.ring, &c->gcw.ring};
    uint32_t budgets[2] = {g->wbuf_sect, g->gcbuf_sect};
    for (int i = 0; i < 2; i++) {
        rings[i]->budget = budgets[i];
        rings[i]->n = budgets[i] + 1;   /* room for 1-sector units */
        rings[i]->rel = xcalloc(rings[i]->n, sizeof(simt));
        rings[i]->ns = xcalloc(rings[i]->n, 1);
    }
    sim_ctl_reset(c, 0);
    return 0;
}

void sim_ctl_free(struct sim_ctl *c)
{
    free(c->l2p);
    free(c->l2n);
    free(c->log);
    free(c->lines);
    free(c->bucket);
    free(c->freeq);
    free(c->fifoq);
    free(c->fw);
    free(c->hk_next);
    free(c->ch);
    free(c->die);
    free(c->host.ring.rel);
    free(c->gcw.ring.rel);
    free(c->host.ring.ns);
    free(c->gcw.ring.ns);
    memset(c, 0, sizeof(*c));
}

/* ---------------------------------------------------------------- invariants */

int sim_ctl_check(const struct sim_ctl *c, unsigned idx, char *err, size_t errlen)
{
    const struct sim_cfg *g = c->cfg;
    uint32_t nstate[4] = {0, 0, 0, 0};
    uint64_t valid_lines = 0, valid_map = 0;
    for (uint32_t l = 0; l < g->nlines; l++) {
        const struct sim_line *L = &c->lines[l];
        if (L->state > SIM_LINE_VICTIM)
            return errf(err, errlen, "ctl %u line %u: bad state %u", idx, l, L->state);
        nstate[L->state]++;
        if (L->wr > g->line_cap || L->valid > L->wr || L->nrec > g->rec_cap)
            return errf(err, errlen, "ctl %u line %u: valid %u wr %u nrec %u out of range (cap %u)",
                        idx, l, L->valid, L->wr, L->nrec, g->line_cap);
        if (L->state == SIM_LINE_FREE && (L->wr || L->valid))
            return errf(err, errlen, "ctl %u line %u: free but holds %u sectors", idx, l, L->wr);
        uint32_t off = 0, v = 0;
        const uint32_t *recs = c->log + (size_t)l * g->rec_cap;
        for (uint32_t i = 0; i < L->nrec; i++) {
            uint32_t lpn = recs[i] & SIM_LPN_MASK, ns = (recs[i] >> SIM_LPN_BITS) + 1;
            if (lpn >= g->user_units)
                return errf(err, errlen, "ctl %u line %u rec %u: lpn %u out of range", idx, l, i,
                            lpn);
            if (c->l2p[lpn] == l * g->line_cap + off) {
                if (c->l2n[lpn] != ns)
                    return errf(err, errlen, "ctl %u lpn %u: l2n %u, log says %u", idx, lpn,
                                c->l2n[lpn], ns);
                v += ns;
            }
            off += ns;
        }
        if (off != L->wr)
            return errf(err, errlen, "ctl %u line %u: log holds %u sectors, wr %u", idx, l, off,
                        L->wr);
        if (v != L->valid)
            return errf(err, errlen, "ctl %u line %u: %u valid sectors by the log, counter %u",
                        idx, l, v, L->valid);
        valid_lines += v;
    }
    for (uint32_t lpn = 0; lpn < g->user_units; lpn++) {
        uint32_t a = c->l2p[lpn];
        if (a == SIM_UNMAPPED) {
            if (c->l2n[lpn])
                return errf(err, errlen, "ctl %u lpn %u: unmapped with l2n %u", idx, lpn,
                            c->l2n[lpn]);
            continue;
        }
        uint32_t l = a / g->line_cap, off = a % g->line_cap;
        if (l >= g->nlines || c->lines[l].state == SIM_LINE_FREE ||
            off + c->l2n[lpn] > c->lines[l].wr)
            return errf(err, errlen, "ctl %u lpn %u: maps to line %u +%u outside written data",
                        idx, lpn, l, off);
        valid_map += c->l2n[lpn];
    }
    if (valid_map != valid_lines)
        return errf(err, errlen, "ctl %u: mapped stored sectors %llu != valid sectors %llu", idx,
                    (unsigned long long)valid_map, (unsigned long long)valid_lines);
    uint32_t nopen = (c->host.line != SIM_NONE) + (c->gcw.line != SIM_NONE);
    uint32_t nvict = c->victim != SIM_NONE;
    if (nstate[SIM_LINE_FREE] != c->nfree || nstate[SIM_LINE_OPEN] != nopen ||
        nstate[SIM_LINE_VICTIM] != nvict ||
        nstate[0] + nstate[1] + nstate[2] + nstate[3] != g->nlines)
        return errf(err, errlen, "ctl %u: lines free %u (nfree %u) open %u (%u) closed %u victim "
                    "%u (%u), total %u", idx, nstate[0], c->nfree, nstate[1], nopen, nstate[2],
                    nstate[3], nvict, g->nlines);
    for (uint32_t i = 0; i < c->nfree; i++) {
        uint32_t l = c->freeq[(c->free_head + i) % g->nlines];
        if (l >= g->nlines || c->lines[l].state != SIM_LINE_FREE)
            return errf(err, errlen, "ctl %u: free queue holds line %u, not free", idx, l);
    }
    uint32_t nb = 0;
    for (uint32_t b = 0; b < g->nbuckets; b++) {
        uint32_t prev = SIM_NONE;
        for (uint32_t l = c->bucket[b]; l != SIM_NONE; l = c->lines[l].next) {
            if (c->lines[l].state != SIM_LINE_CLOSED || sim_bucket_of(g, c->lines[l].valid) != b ||
                c->lines[l].prev != prev)
                return errf(err, errlen, "ctl %u: bucket %u holds line %u wrongly", idx, b, l);
            if (b < c->bmin)
                return errf(err, errlen, "ctl %u: bucket %u below bmin %u is not empty", idx, b,
                            c->bmin);
            prev = l;
            if (++nb > g->nlines)
                return errf(err, errlen, "ctl %u: bucket lists loop", idx);
        }
    }
    if (nb != nstate[SIM_LINE_CLOSED])
        return errf(err, errlen, "ctl %u: %u lines in buckets, %u closed", idx, nb,
                    nstate[SIM_LINE_CLOSED]);
    if (g->gc == SIM_GC_FIFO && c->nfifo != nstate[SIM_LINE_CLOSED])
        return errf(err, errlen, "ctl %u: FIFO queue %u, closed %u", idx, c->nfifo,
                    nstate[SIM_LINE_CLOSED]);
    const struct sim_ring *rings[2] = {&c->host.ring, &c->gcw.ring};
    for (int i = 0; i < 2; i++) {
        const struct sim_ring *r = rings[i];
        uint32_t used = (r->head + r->n - r->tail) % r->n;
        uint64_t occ = 0;
        for (uint32_t j = 0; j < used; j++)
            occ += r->ns[(r->tail + j) % r->n];
        if (occ != r->occ || r->occ > r->budget || r->npend > used)
            return errf(err, errlen, "ctl %u: %s buffer holds %llu sectors in %u units, counter "
                        "%u, budget %u, %u pending", idx, i ? "GC" : "write",
                        (unsigned long long)occ, used, r->occ, r->budget, r->npend);
    }
    return 0;
}
