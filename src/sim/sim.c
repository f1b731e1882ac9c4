/* sim.c — the simulated SSD's front end: parameters (defaults, validation, time dilation and
 * the geometry rule), the card layer (n_ctl controllers behind one host link, stripe or vca
 * dispatch), purge, fast fill, info, stats, invariants, and the analytic WA oracle.
 * Design: docs/simulated-drive.md §3, §5.8, §5.9. The controller is sim_ctl.c. */
#include "sim/sim.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "sim/sim_internal.h"

/* Lines the steady-state space accounting takes off T besides the fg_lines reserve (note §3,
 * "which T to use"; measured, see the report): the free pool averages fg_lines - 1/2 (GC tops
 * it up to fg_lines whenever it drops below), the two open write points are half written on
 * average (one line of unwritten space between them), and the victim being collected holds,
 * on average, half of its valid data twice (~1/2 line at low OP, where it matters). Total:
 * fg_lines + 1. With this T, FIFO GC matches the Lambert-W oracle within 0.2 % at rho 0.07,
 * 0.28 and 0.5, and greedy within 0.97-1.0 (greedy beats the formula slightly with small
 * lines, as the note's table shows). */

void sim_params_default(struct sim_params *p)
{
    memset(p, 0, sizeof(*p));
    str_copy(p->name, sizeof(p->name), "generic");
    str_copy(p->description, sizeof(p->description),
             "generic 25 nm MLC drive: 8 ch x 4 dies, 32 GiB raw, OP 28 %, NAND-bound");
    p->n_ctl = 1;
    p->dispatch = SIM_DISPATCH_STRIPE;
    p->stripe_unit_bytes = 16384;
    p->vca_balance_pct = 5;
    p->link_mb_s = 3200;            /* PCIe Gen3 x4, effective */
    p->link_write_mb_s = 0;         /* as the link */
    p->d_card_us = 0;
    p->channels = 8;                /* note §6.1: generic-mlc25 */
    p->dies_per_channel = 4;
    p->planes = 2;
    p->page_bytes = 8192;
    p->pages_per_block = 256;
    p->blocks_per_plane = 256;
    p->t_read_us = 75;
    p->t_prog_us = 1300;
    p->t_erase_us = 3800;
    p->channel_mb_s = 200;
    p->user_bytes = 0;
    p->reserve_pct = 0;
    p->op_pct = 28;
    p->fw_cores = 1;
    p->c_cmd_us = 0;
    p->c_w_us = 2;
    p->c_w_us_per_kib = 0;
    p->c_r_us = 2;
    p->c_r_us_per_kib = 0;
    p->c_unmapped_us = 2;
    p->c_gc_us = 0;
    p->wpipe_mb_s = 0;
    p->d_w_us = 0;
    p->d_r_us = 0;
    p->wbuf_units = 16384;          /* 64 MiB */
    p->gc = SIM_GC_GREEDY;
    p->dchoice_d = 3;
    p->fg_lines_pct = 1;
    p->fg_lines_min = 2;
    p->gc_quantum_units = 16;
    p->bg_gc = true;
    p->idle_delay_ms = 100;
    p->bg_target_pct = 2;
    p->durawrite = false;
    p->meta_pct = 1.5625;
    p->k = 1;
    p->seed = 1;
    sim_thermal_defaults(p);
}

/* ---------------------------------------------------------------- open */

static int sim_chk_num(double v, double lo, double hi, const char *field, char *err, size_t n)
{
    if (!isfinite(v) || v < lo || v > hi)
        return errf(err, n, "sim parameter %s = %g: must be in [%g, %g]", field, v, lo, hi);
    return 0;
}

static int sim_chk_uint(uint64_t v, uint64_t lo, uint64_t hi, const char *field, char *err,
                        size_t n)
{
    if (v < lo || v > hi)
        return errf(err, n, "sim parameter %s = %llu: must be in [%llu, %llu]", field,
                    (unsigned long long)v, (unsigned long long)lo, (unsigned long long)hi);
    return 0;
}

static int sim_validate(const struct sim_params *p, char *err, size_t n)
{
#define NUM(f, lo, hi) if (sim_chk_num(p->f, lo, hi, #f, err, n)) return -1
#define UINT(f, lo, hi) if (sim_chk_uint(p->f, lo, hi, #f, err, n)) return -1
    UINT(n_ctl, 1, 64);
    if (p->dispatch != SIM_DISPATCH_STRIPE && p->dispatch != SIM_DISPATCH_VCA)
        return errf(err, n, "sim parameter dispatch = %d: must be stripe or vca", (int)p->dispatch);
    UINT(stripe_unit_bytes, SIM_UNIT, 1u << 30);
    if (p->stripe_unit_bytes % SIM_UNIT)
        return errf(err, n, "sim parameter stripe_unit_bytes = %u: must be a multiple of 4096",
                    p->stripe_unit_bytes);
    NUM(vca_balance_pct, 0, 100);
    NUM(link_mb_s, 0.001, 1e9);
    NUM(link_write_mb_s, 0, 1e9);
    NUM(host_worker_us, 0, 1e9);
    NUM(host_driver_us, 0, 1e9);
    NUM(host_worker_us_per_kib, 0, 1e9);
    NUM(host_driver_us_per_kib, 0, 1e9);
    NUM(d_card_us, 0, 1e9);
    UINT(channels, 1, 1024);
    UINT(dies_per_channel, 1, 1024);
    if (p->channels * p->dies_per_channel > 4096)
        return errf(err, n, "sim parameters channels x dies_per_channel = %u: at most 4096 dies",
                    p->channels * p->dies_per_channel);
    UINT(planes, 1, 16);
    UINT(page_bytes, SIM_SECT, 1u << 20);
    if (p->page_bytes % SIM_SECT)
        return errf(err, n, "sim parameter page_bytes = %u: must be a multiple of 512",
                    p->page_bytes);
    UINT(pages_per_block, 1, 1u << 16);
    UINT(blocks_per_plane, 16, 1u << 24);
    NUM(t_read_us, 0, 1e9);
    NUM(t_prog_us, 0, 1e9);
    NUM(t_erase_us, 0, 1e9);
    NUM(channel_mb_s, 0.001, 1e9);
    NUM(reserve_pct, 0, 90);
    if (p->user_bytes == 0 && !(p->op_pct > 0))
        return errf(err, n, "sim parameters user_bytes = 0 and op_pct = %g: give user_bytes or "
                    "op_pct > 0", p->op_pct);
    NUM(op_pct, 0, 10000);
    UINT(fw_cores, 1, 256);
    NUM(c_cmd_us, 0, 1e9);
    NUM(hk_period_us, 0, 1e9);
    NUM(hk_us, 0, 1e9);
    if (p->hk_us > 0 && !(p->hk_period_us > p->hk_us))
        return errf(err, n, "sim parameters hk_us = %g, hk_period_us = %g: the housekeeping "
                    "period must be longer than its work", p->hk_us, p->hk_period_us);
    NUM(pause_period_ms, 0, 1e9);
    NUM(pause_ms, 0, 1e6);
    if (p->pause_ms > 0 && !(p->pause_period_ms > p->pause_ms))
        return errf(err, n, "sim parameters pause_ms = %g, pause_period_ms = %g: the pause "
                    "period must be longer than the pause", p->pause_ms, p->pause_period_ms);
    NUM(flush_every_mb, 0, 1e9);
    NUM(flush_ms, 0, 1e6);
    if (p->n_ctl > 64 && (p->pause_ms > 0 || (p->flush_every_mb > 0 && p->flush_ms > 0)))
        return errf(err, n, "sim parameter n_ctl = %u: pauses (pause_ms, flush_ms) need at "
                    "most 64 controllers", p->n_ctl);
    NUM(c_w_us, 0, 1e9);
    NUM(c_w_us_per_kib, 0, 1e9);
    NUM(c_r_us, 0, 1e9);
    NUM(c_r_us_per_kib, 0, 1e9);
    NUM(c_r_page_us, 0, 1e9);
    NUM(c_unmapped_us, 0, 1e9);
    NUM(c_gc_us, 0, 1e9);
    NUM(c_gc_sp_us, 0, 1e9);
    NUM(wpipe_mb_s, 0, 1e9);
    if (p->wpipe_mb_s > 0 && p->wpipe_mb_s < 0.001)
        return errf(err, n, "sim parameter wpipe_mb_s = %g: 0 (none) or >= 0.001", p->wpipe_mb_s);
    NUM(d_w_us, 0, 1e9);
    NUM(d_r_us, 0, 1e9);
    UINT(wbuf_units, 1, 1u << 22);
    if (p->gc != SIM_GC_GREEDY && p->gc != SIM_GC_FIFO && p->gc != SIM_GC_DCHOICE)
        return errf(err, n, "sim parameter gc = %d: must be greedy, fifo or dchoice", (int)p->gc);
    UINT(dchoice_d, 1, 1024);
    NUM(fg_lines_pct, 0, 50);
    UINT(fg_lines_min, 2, 1u << 20);
    UINT(gc_quantum_units, 0, 1u << 24);
    NUM(idle_delay_ms, 0, 1e9);
    NUM(bg_target_pct, 0, 100);
    NUM(bg_busy_pct, 0, 100);
    NUM(meta_pct, 0, 100);
    UINT(k, 1, 1u << 16);
    if (p->k & (p->k - 1))
        return errf(err, n, "sim parameter k = %u: must be a power of two", p->k);
    if (sim_thermal_validate(p, err, n))
        return -1;
#undef NUM
#undef UINT
    return 0;
}

static simt sim_ns(double us, unsigned k) { return (simt)llround(us * 1000.0 * k); }
static uint64_t sim_ps(double mb_s, unsigned k) { return (uint64_t)llround(1e6 / mb_s * k); }

/* Build the per-controller configuration: k, the geometry rule, capacities. */
static int sim_make_cfg(const struct sim_params *p, struct sim_cfg *g, uint64_t *user_units,
                        double *rho_eff, char *err, size_t n)
{
    const unsigned k = p->k;
    /* §5.9: raw / k. Take the factor out of the line count while >= 256 lines remain, then
     * out of pages per block (down to 8), scaling tBERS with it so erase cost per byte stays;
     * only if that is not enough does the line count go below 256. */
    uint32_t lines = p->blocks_per_plane, ppb = p->pages_per_block;
    unsigned f = k;
    double erase_scale = 1.0;
    while (f > 1 && lines / 2 >= 256) {
        lines /= 2;
        f /= 2;
    }
    while (f > 1 && ppb % 2 == 0 && ppb / 2 >= 8) {
        ppb /= 2;
        f /= 2;
        erase_scale /= 2;
    }
    lines /= f;
    if (lines < 16)
        return errf(err, n, "sim parameter k = %u: leaves %u lines per controller (need >= 16; "
                    "blocks_per_plane %u, pages_per_block %u)", k, lines, p->blocks_per_plane,
                    p->pages_per_block);
    g->channels = p->channels;
    g->dies = p->channels * p->dies_per_channel;
    g->planes = p->planes;
    g->page_bytes = p->page_bytes;
    g->ppb = ppb;
    g->nlines = lines;
    uint64_t sp_bytes = (uint64_t)p->planes * p->page_bytes;
    g->sp_sect = (uint32_t)(sp_bytes / SIM_SECT);
    uint64_t line_sect = (uint64_t)g->dies * ppb * g->sp_sect;
    if (line_sect >= (1ull << 31))
        return errf(err, n, "sim parameters dies x planes x page_bytes x pages_per_block: a line "
                    "of %llu sectors is too large (max 2^31)", (unsigned long long)line_sect);
    g->line_sect = (uint32_t)line_sect;
    uint32_t res = (uint32_t)llround(line_sect * p->reserve_pct / 100.0);
    /* Departure: the reserve (RAISE parity, metadata) is taken from every line's data capacity
     * rather than as whole lines, so it keeps the line count; its program time is not charged. */
    g->line_cap = g->line_sect - res;
    if (g->line_cap < g->sp_sect || g->line_cap < 2 * SIM_MAX_NSECT)
        return errf(err, n, "sim parameter reserve_pct = %g: leaves no data space in a line",
                    p->reserve_pct);
    if ((uint64_t)lines * g->line_cap >= UINT32_MAX)
        return errf(err, n, "sim parameter k = %u: %llu data sectors per controller is too many "
                    "for the model (max 2^32 - 1): raise k", k,
                    (unsigned long long)lines * g->line_cap);
    g->fw_cores = p->fw_cores;
    g->hk_period = p->hk_us > 0 ? sim_ns(p->hk_period_us, k) : 0;
    g->hk = g->hk_period ? sim_ns(p->hk_us, k) : 0;
    /* Pauses are not dilated (sim_pause_delay): their length and period are real time, and
     * the host data between flushes is scaled like the capacity. */
    g->pause_period = p->pause_ms > 0 ? sim_ns(p->pause_period_ms * 1000.0, 1) : 0;
    g->pause = g->pause_period ? sim_ns(p->pause_ms * 1000.0, 1) : 0;
    g->flush = p->flush_every_mb > 0 ? sim_ns(p->flush_ms * 1000.0, 1) : 0;
    g->flush_sect = g->flush ? (uint64_t)llround(p->flush_every_mb * 1e6 / SIM_SECT / k) : 0;
    if (g->flush && !g->flush_sect)
        g->flush_sect = 1;
    g->t_read = sim_ns(p->t_read_us, k);
    g->t_prog = sim_ns(p->t_prog_us, k);
    g->t_erase = sim_ns(p->t_erase_us * erase_scale, k);
    g->c_cmd = sim_ns(p->c_cmd_us, k);
    g->c_w = sim_ns(p->c_w_us, k);
    g->c_w_kib = sim_ns(p->c_w_us_per_kib, k);
    g->c_r = sim_ns(p->c_r_us, k);
    g->c_r_kib = sim_ns(p->c_r_us_per_kib, k);
    g->c_r_page = sim_ns(p->c_r_page_us, k);
    g->c_unmapped = sim_ns(p->c_unmapped_us, k);
    /* A TRIM is an NVMe Dataset Management command with the deallocate attribute: the
     * firmware parses the range list and clears the mapping entries of the units it covers,
     * in its DRAM map; no NAND is touched (GC later finds the units invalid). Modelled as a
     * firmware-only command like a read of unmapped data (c_unmapped: the preset's cost of a
     * command that only consults the map), at least 1 us so that a command always takes
     * virtual time (a timed round of trims on virtual time must end), plus 20 ns per 4 KiB
     * unit deallocated (one map entry and one valid count updated). Both x k, as the other
     * firmware costs. c_cmd (the front end) is charged on top, as for every command. */
    g->c_trim = sim_ns(p->c_unmapped_us > 1.0 ? p->c_unmapped_us : 1.0, k);
    g->c_trim_unit = sim_ns(0.02, k);
    g->c_gc = sim_ns(p->c_gc_us, k);
    g->c_gc_sp = sim_ns(p->c_gc_sp_us, k);
    g->d_w = sim_ns(p->d_w_us, k);
    g->d_r = sim_ns(p->d_r_us, k);
    g->ch_ps = sim_ps(p->channel_mb_s, k);
    g->pipe_ps = p->wpipe_mb_s > 0 ? sim_ps(p->wpipe_mb_s, k) : 0;
    /* Departure from the note (§5.9 lists idle_delay among the durations x k): the idle timer
     * is compared with host think time, which dilation does not stretch (HIR waits stay 5 s).
     * Scaled by k, a 50 ms delay would become 6.4 s at k = 128 and swallow a 5 s wait. Kept
     * as is, the scaled drive runs background GC for the same share of the wait, at 1/k of the
     * rate, on 1/k of the capacity: the same recovery in drive fills. */
    g->idle_delay = (simt)llround(p->idle_delay_ms * 1e6);

    /* Write buffer (counted in stored sectors: data is buffered after compression): a
     * capacity, so / k; but it also sets how many superpages can be in flight (NAND
     * parallelism, which k does not scale), so it keeps at least min(configured, 2 superpages
     * per die); and it holds more than a superpage plus a unit. */
    uint64_t wb = ((uint64_t)p->wbuf_units * 8 + k - 1) / k;
    uint64_t par = (uint64_t)2 * g->dies * g->sp_sect;
    uint64_t floor_sect = (uint64_t)g->sp_sect + 2 * SIM_MAX_NSECT;
    if (wb < par)
        wb = par < (uint64_t)p->wbuf_units * 8 ? par : (uint64_t)p->wbuf_units * 8;
    if (wb < floor_sect)
        wb = floor_sect;
    if (wb >= (1u << 30))
        wb = 1u << 30;
    g->wbuf_sect = (uint32_t)wb;
    /* GC buffer (paces idle-time GC): two superpages per die */
    g->gcbuf_sect = (uint32_t)(par > floor_sect ? par : floor_sect);

    g->gc = p->gc;
    g->dchoice_d = p->dchoice_d;
    uint32_t fg = (uint32_t)ceil(p->fg_lines_pct / 100.0 * lines - 1e-9);
    g->fg_lines = fg > p->fg_lines_min ? fg : p->fg_lines_min;
    g->quantum = p->gc_quantum_units;
    g->bg_gc = p->bg_gc;
    g->bg_target_sect = (uint64_t)llround(p->bg_target_pct / 100.0 * lines * (double)line_sect);
    g->bg_busy_pct = p->bg_gc ? (uint32_t)llround(p->bg_busy_pct) : 0;
    g->durawrite = p->durawrite;
    g->meta_fx = (uint32_t)llround(8.0 * p->meta_pct / 100.0 * 65536.0);
    for (unsigned pct = 0; pct <= 100; pct++) {
        unsigned ns = (8 * (100 - pct) + 99) / 100;
        g->ns_tab[pct] = (uint8_t)(p->durawrite ? (ns ? ns : 1) : 8);
    }
    g->rec_cap = p->durawrite ? g->line_cap : g->line_cap / 8 + 1;
    g->bucket_shift = 0;
    while ((g->line_cap >> g->bucket_shift) >= 65536)
        g->bucket_shift++;
    g->nbuckets = (g->line_cap >> g->bucket_shift) + 1;

    /* Capacity. T = the space usable for data at steady state (note §3, "which T to use"):
     * data sectors of all lines minus the fg_lines free-line reserve GC maintains, minus
     * SIM_POOL_EXTRA_LINES for the open write points and the victim in progress. With
     * user_bytes = 0, U = T / (1 + op_pct/100); rho_eff = T / U - 1 either way (4 KiB units
     * stored as 8 sectors, i.e. incompressible and without DuraWrite metadata). */
    if (g->fg_lines + SIM_POOL_EXTRA_LINES + 4 > lines)
        return errf(err, n, "sim parameters fg_lines_pct / fg_lines_min: %u free lines reserved "
                    "of %u", g->fg_lines, lines);
    uint64_t t_sect = (uint64_t)(lines - g->fg_lines - SIM_POOL_EXTRA_LINES) * g->line_cap;
    uint64_t u = 0;
    uint32_t su = p->stripe_unit_bytes / SIM_UNIT;
    if (p->user_bytes) {
        u = p->user_bytes / k / SIM_UNIT;
    } else {
        u = (uint64_t)floor((double)t_sect / 8.0 / (1.0 + p->op_pct / 100.0));
    }
    if (p->n_ctl > 1 && p->dispatch == SIM_DISPATCH_STRIPE)
        u -= u % su;
    if (u < 1)
        return errf(err, n, "sim parameter user_bytes = %llu: less than one 4 KiB unit per "
                    "controller after k = %u", (unsigned long long)p->user_bytes, k);
    double per_unit = p->durawrite ? 8.0 + 8.0 * p->meta_pct / 100.0 : 8.0;
    if ((double)u * per_unit >= (double)t_sect)
        return errf(err, n, "sim parameter %s: %llu units of %.3g sectors per controller do not "
                    "fit in the %llu usable sectors (raw minus reserve and the free-line pool)",
                    p->user_bytes ? "user_bytes" : "op_pct", (unsigned long long)u, per_unit,
                    (unsigned long long)t_sect);
    *rho_eff = (double)t_sect / (8.0 * (double)u) - 1.0;
    *user_units = u;
    return 0;
}

static void sim_vca_reset(struct sim_dev *d)
{
    struct sim_vca *v = &d->vca;
    if (!v->own_ctl)
        return;
    memset(v->own_ctl, 0xff, d->user_units);
    for (unsigned j = 0; j < d->n; j++) {
        for (uint32_t i = 0; i < v->local_units; i++)
            v->free_lpn[j][i] = v->local_units - 1 - i;   /* pops 0, 1, 2, ... */
        v->nfree_lpn[j] = v->local_units;
        v->written[j] = 0;
        v->nheap[j] = 0;
    }
}

int sim_open(const struct sim_params *p, struct sim_dev **out, char *err, size_t errlen)
{
    *out = NULL;
    if (sim_validate(p, err, errlen))
        return -1;
    struct sim_dev *d = xcalloc(1, sizeof(*d));
    uint64_t u = 0;
    if (sim_make_cfg(p, &d->cfg, &u, &d->rho_eff, err, errlen)) {
        free(d);
        return -1;
    }
    d->n = p->n_ctl;
    d->dispatch = p->dispatch;
    d->k = p->k;
    d->pauses = d->cfg.pause_period || d->cfg.flush;
    d->user_units = u * d->n;
    if (d->user_units > UINT32_MAX) {
        free(d);
        return errf(err, errlen, "sim parameter n_ctl = %u: %llu units on the card is too many "
                    "(max 2^32 - 1): raise k", p->n_ctl, (unsigned long long)u * p->n_ctl);
    }
    d->nominal_user_bytes = d->user_units * SIM_UNIT * d->k;
    d->stripe_units = p->stripe_unit_bytes / SIM_UNIT;
    d->link_ps = sim_ps(p->link_mb_s, p->k);
    d->link_wps = p->link_write_mb_s > 0 ? sim_ps(p->link_write_mb_s, p->k) : d->link_ps;
    d->d_card = sim_ns(p->d_card_us, p->k);
    d->vca_balance = p->vca_balance_pct / 100.0;
    d->seed = p->seed;
    if (d->dispatch == SIM_DISPATCH_VCA) {
        /* Each child's logical space is U/N x (1 + slack) so writes can go to any child;
         * slack = the balance allowance, at most half the spare factor so a child can never
         * hold more valid data than its GC can live with. */
        double slack = fmin(d->vca_balance, d->rho_eff / 2.0);
        uint64_t local = u + (uint64_t)floor((double)u * slack);
        double per_unit = p->durawrite ? 8.0 + 8.0 * p->meta_pct / 100.0 : 8.0;
        uint64_t t_sect = (uint64_t)(d->cfg.nlines - d->cfg.fg_lines - SIM_POOL_EXTRA_LINES) *
                          d->cfg.line_cap;
        while (local > u && (double)local * per_unit >= (double)t_sect)
            local--;
        if (local >= (1u << SIM_LPN_BITS)) {
            free(d);
            return errf(err, errlen, "sim parameter k = %u: %llu units per controller is too "
                        "many (max 2^28 - 1): raise k", p->k, (unsigned long long)local);
        }
        d->cfg.user_units = (uint32_t)local;
        struct sim_vca *v = &d->vca;
        v->local_units = (uint32_t)local;
        v->own_ctl = xcalloc(d->user_units, 1);
        v->own_lpn = xcalloc(d->user_units, sizeof(*v->own_lpn));
        v->free_lpn = xcalloc(d->n, sizeof(*v->free_lpn));
        v->nfree_lpn = xcalloc(d->n, sizeof(*v->nfree_lpn));
        v->written = xcalloc(d->n, sizeof(*v->written));
        v->heap = xcalloc(d->n, sizeof(*v->heap));
        v->nheap = xcalloc(d->n, sizeof(*v->nheap));
        v->capheap = xcalloc(d->n, sizeof(*v->capheap));
        for (unsigned j = 0; j < d->n; j++) {
            v->free_lpn[j] = xcalloc(local, sizeof(uint32_t));
            v->capheap[j] = 64;
            v->heap[j] = xcalloc(64, sizeof(simt));
        }
    } else {
        if (u >= (1u << SIM_LPN_BITS)) {
            free(d);
            return errf(err, errlen, "sim parameter k = %u: %llu units per controller is too "
                        "many (max 2^28 - 1): raise k", p->k, (unsigned long long)u);
        }
        d->cfg.user_units = (uint32_t)u;
    }
    d->scratch_cap = d->stripe_units > 256 ? d->stripe_units : 256;
    d->scratch_lpn = xcalloc(d->scratch_cap, sizeof(uint32_t));
    d->ctl = xcalloc(d->n, sizeof(*d->ctl));
    for (unsigned j = 0; j < d->n; j++)
        sim_ctl_init(&d->ctl[j], &d->cfg, p->seed * 0x9e3779b97f4a7c15ull + j + 1);
    sim_thermal_init(&d->thermal, p);
    sim_purge(d, 0);
    *out = d;
    return 0;
}

void sim_close(struct sim_dev *d)
{
    if (!d)
        return;
    for (unsigned j = 0; j < d->n; j++)
        sim_ctl_free(&d->ctl[j]);
    free(d->ctl);
    struct sim_vca *v = &d->vca;
    if (v->own_ctl) {
        for (unsigned j = 0; j < d->n; j++) {
            free(v->free_lpn[j]);
            free(v->heap[j]);
        }
        free(v->own_ctl);
        free(v->own_lpn);
        free(v->free_lpn);
        free(v->nfree_lpn);
        free(v->written);
        free(v->heap);
        free(v->nheap);
        free(v->capheap);
    }
    free(d->scratch_lpn);
    free(d);
}

static void sim_stats_accumulate(struct sim_stats *to, const struct sim_stats *s)
{
    to->host_write_sectors += s->host_write_sectors;
    to->host_read_sectors += s->host_read_sectors;
    to->nand_write_sectors += s->nand_write_sectors;
    to->gc_relocated_sectors += s->gc_relocated_sectors;
    to->bg_relocated_sectors += s->bg_relocated_sectors;
    to->erases += s->erases;
    to->bg_gc_steps += s->bg_gc_steps;
    to->fg_gc_steps += s->fg_gc_steps;
    to->unmapped_reads += s->unmapped_reads;
    to->trimmed_units += s->trimmed_units;
}

void sim_purge(struct sim_dev *d, simt now)
{
    struct sim_stats was;
    sim_stats(d, &was);
    sim_stats_accumulate(&d->before_purge, &was);
    for (unsigned j = 0; j < d->n; j++)
        sim_ctl_reset(&d->ctl[j], now);
    sim_vca_reset(d);
    d->link_w = d->link_r = now;
    memset(d->pz_start, 0, sizeof(d->pz_start));
    memset(d->pz_end, 0, sizeof(d->pz_end));
    d->pz_head = 0;
    d->pz_last_end = 0;
    d->pz_next_timed = 0;   /* sim_pause_delay generates the schedule on first use */
    rng_seed(&d->rng, d->seed ^ 0x5eed5eed5eedull);
}

static void sim_pause_note(struct sim_dev *d, simt s, simt len);

/* ---------------------------------------------------------------- stripe dispatch */

static simt sim_ctl_op(struct sim_ctl *c, unsigned op, simt t, uint64_t lbyte, uint32_t len,
                       unsigned cp)
{
    uint32_t lpn0 = (uint32_t)(lbyte / SIM_UNIT);
    uint32_t n = (uint32_t)((lbyte + len - 1) / SIM_UNIT) - lpn0 + 1;
    switch (op) {
    case SIM_WRITE:
        return sim_ctl_write(c, t, lpn0, NULL, n, len, cp);
    case SIM_TRIM: {
        /* TRIM deallocates only the units it covers completely (a partial unit keeps its
         * data: deallocating it would lose the rest of the unit). */
        uint64_t a = (lbyte + SIM_UNIT - 1) / SIM_UNIT, b = (lbyte + len) / SIM_UNIT;
        return sim_ctl_trim(c, t, (uint32_t)a, NULL, b > a ? (uint32_t)(b - a) : 0);
    }
    default:
        return sim_ctl_read(c, t, lpn0, NULL, n, len);
    }
}

/* LBA striping over the children in stripe_unit chunks. Child j's chunks of one I/O are
 * contiguous in its own address space, so an I/O becomes at most one part per child; all parts
 * start at t and the I/O completes with the last. n_ctl = 1 is the same code with one part. */
static simt sim_stripe(struct sim_dev *d, unsigned op, simt t, uint64_t off, uint32_t len,
                       unsigned cp)
{
    const uint64_t S = (uint64_t)d->stripe_units * SIM_UNIT, N = d->n;
    uint64_t s0 = off / S, s1 = (off + len - 1) / S;
    if (s0 == s1) {   /* within one stripe unit (every I/O of a single controller): one part */
        const uint64_t j = N == 1 ? 0 : s0 % N;
        simt e = sim_ctl_op(&d->ctl[j], op, t, (s0 / N) * S + (off - s0 * S), len, cp);
        if (d->ctl[j].flush_due) {
            d->ctl[j].flush_due = false;
            sim_pause_note(d, t, d->cfg.flush);
        }
        return e > t ? e : t;
    }
    simt done = t;
    for (uint64_t j = 0; j < N; j++) {
        uint64_t sj = s0 + (j + N - s0 % N) % N;
        if (sj > s1)
            continue;
        uint64_t sl = s1 - (s1 % N + N - j) % N;
        uint64_t start = (sj / N) * S + (sj == s0 ? off - s0 * S : 0);
        uint64_t end = (sl / N) * S + (sl == s1 ? off + len - s1 * S : S);
        simt e = sim_ctl_op(&d->ctl[j], op, t, start, (uint32_t)(end - start), cp);
        if (d->ctl[j].flush_due) {
            d->ctl[j].flush_due = false;
            sim_pause_note(d, t, d->cfg.flush);
        }
        if (e > done)
            done = e;
    }
    return done;
}

/* ---------------------------------------------------------------- vca dispatch */

static void sim_heap_push(struct sim_vca *v, unsigned j, simt x)
{
    if (v->nheap[j] == v->capheap[j]) {   /* grows to the peak outstanding count, then stays */
        v->capheap[j] *= 2;
        v->heap[j] = xrealloc(v->heap[j], v->capheap[j] * sizeof(simt));
    }
    simt *h = v->heap[j];
    uint32_t i = v->nheap[j]++;
    while (i) {
        uint32_t p = (i - 1) / 2;
        if (h[p] <= x)
            break;
        h[i] = h[p];
        i = p;
    }
    h[i] = x;
}

/* Outstanding commands of child j at time t (drops those completed by t). */
static uint32_t sim_heap_prune(struct sim_vca *v, unsigned j, simt t)
{
    simt *h = v->heap[j];
    while (v->nheap[j] && h[0] <= t) {
        simt x = h[--v->nheap[j]];
        uint32_t i = 0, m = v->nheap[j];
        for (;;) {
            uint32_t a = 2 * i + 1, b = a + 1, s = i;
            simt sx = x;
            if (a < m && h[a] < sx) {
                s = a;
                sx = h[a];
            }
            if (b < m && h[b] < sx)
                s = b;
            if (s == i)
                break;
            h[i] = h[s];
            i = s;
        }
        if (m)
            h[i] = x;
    }
    return v->nheap[j];
}

/* vca: the child with the fewest outstanding commands among those whose written bytes are
 * within the balance allowance and that have room for m more units; ties at random. */
static unsigned sim_vca_pick(struct sim_dev *d, simt t, uint32_t m, bool timed)
{
    struct sim_vca *v = &d->vca;
    uint64_t total = 0;
    for (unsigned j = 0; j < d->n; j++)
        total += v->written[j];
    unsigned best = UINT32_MAX;
    for (int pass = 0; pass < 2 && best == UINT32_MAX; pass++) {
        uint32_t bestq = UINT32_MAX, ties = 0;
        for (unsigned j = 0; j < d->n; j++) {
            if (v->nfree_lpn[j] < m)
                continue;   /* full */
            if (pass == 0 && total &&
                (double)v->written[j] * d->n > (double)total * (1.0 + d->vca_balance))
                continue;
            uint32_t q = timed ? sim_heap_prune(v, j, t) : 0;
            if (!timed)   /* fast fill: least written */
                q = (uint32_t)((v->written[j] >> 12) > UINT32_MAX - 1 ? UINT32_MAX - 1
                                                                      : v->written[j] >> 12);
            if (q < bestq) {
                best = j;
                bestq = q;
                ties = 1;
            } else if (q == bestq && rng_below(&d->rng, ++ties) == 0) {
                best = j;
            }
        }
    }
    return best;
}

/* Move card units u0..u0+m-1 to child j (an overwrite on another child unmaps the old copy
 * there: the card-level TRIM of §5.8, charged no firmware time) and list their local lpns. */
static void sim_vca_claim(struct sim_dev *d, unsigned j, uint64_t u0, uint32_t m)
{
    struct sim_vca *v = &d->vca;
    for (uint32_t i = 0; i < m; i++) {
        uint64_t u = u0 + i;
        unsigned o = v->own_ctl[u];
        if (o != j) {
            if (o != 0xff) {
                sim_ctl_unmap(&d->ctl[o], v->own_lpn[u]);
                v->free_lpn[o][v->nfree_lpn[o]++] = v->own_lpn[u];
            }
            v->own_lpn[u] = v->free_lpn[j][--v->nfree_lpn[j]];
            v->own_ctl[u] = (uint8_t)j;
        }
        d->scratch_lpn[i] = v->own_lpn[u];
    }
}

static simt sim_vca(struct sim_dev *d, unsigned op, simt t, uint64_t off, uint32_t len,
                    unsigned cp)
{
    struct sim_vca *v = &d->vca;
    const uint64_t S = (uint64_t)d->stripe_units * SIM_UNIT;
    const uint64_t end = off + len;
    simt done = t;
    if (op == SIM_WRITE) {
        /* writes go out in stripe_unit chunks, each to the least busy child */
        for (uint64_t a = off; a < end;) {
            uint64_t b = (a / S + 1) * S;
            if (b > end)
                b = end;
            uint64_t u0 = a / SIM_UNIT;
            uint32_t m = (uint32_t)((b - 1) / SIM_UNIT - u0 + 1);
            unsigned j = sim_vca_pick(d, t, m, true);
            if (j == UINT32_MAX)
                j = 0;   /* cannot happen: the card holds less than the children's room */
            sim_vca_claim(d, j, u0, m);
            simt e = sim_ctl_write(&d->ctl[j], t, 0, d->scratch_lpn, m, (uint32_t)(b - a), cp);
            if (d->ctl[j].flush_due) {
                d->ctl[j].flush_due = false;
                sim_pause_note(d, t, d->cfg.flush);
            }
            sim_heap_push(v, j, e);
            v->written[j] += b - a;
            if (e > done)
                done = e;
            a = b;
        }
        return done;
    }
    /* reads and trims: runs of consecutive units with the same owner, one command each;
     * unowned units are read (as unmapped) from child u % N */
    uint64_t u = op == SIM_TRIM ? (off + SIM_UNIT - 1) / SIM_UNIT : off / SIM_UNIT;
    uint64_t ulast = op == SIM_TRIM ? end / SIM_UNIT : (end - 1) / SIM_UNIT + 1;   /* excl. */
    while (u < ulast) {
        unsigned j = v->own_ctl[u];
        bool owned = j != 0xff;
        if (!owned)
            j = (unsigned)(u % d->n);
        uint32_t m = 0;
        uint64_t bytes = 0;
        while (u < ulast && m < d->scratch_cap &&
               (v->own_ctl[u] == (owned ? j : 0xff)) && (owned || u % d->n == j)) {
            uint64_t a = u * SIM_UNIT > off ? u * SIM_UNIT : off;
            uint64_t b = (u + 1) * SIM_UNIT < end ? (u + 1) * SIM_UNIT : end;
            bytes += b - a;
            d->scratch_lpn[m++] = owned ? v->own_lpn[u] : SIM_UNMAPPED;
            if (op == SIM_TRIM && owned) {
                v->free_lpn[j][v->nfree_lpn[j]++] = v->own_lpn[u];
                v->own_ctl[u] = 0xff;
            }
            u++;
        }
        simt e;
        if (op == SIM_TRIM) {
            if (!owned)
                continue;
            e = sim_ctl_trim(&d->ctl[j], t, 0, d->scratch_lpn, m);
        } else {
            e = sim_ctl_read(&d->ctl[j], t, 0, d->scratch_lpn, m, (uint32_t)bytes);
        }
        sim_heap_push(v, j, e);
        if (e > done)
            done = e;
    }
    return done;
}

/* ---------------------------------------------------------------- submit */

static inline simt sim_link_ns(uint64_t ps, uint32_t len)
{
    if (ps <= UINT32_MAX)   /* len is 32 bits: the product fits in 64 */
        return ((uint64_t)len * ps + 999) / 1000;
    return (simt)(((unsigned __int128)len * ps + 999) / 1000);
}

/* Card front end: the host link (departure: one resource per direction, PCIe being full
 * duplex; both shared by all controllers) is booked when the command is issued, like the
 * other bandwidth resources (see sim_ctl.c). Writes cross it before reaching the
 * controllers; read data after the NAND part (done = max(parts + transfer, booking end)).
 * d_card is a pure delay on every command. */
simt sim_submit(struct sim_dev *d, simt now, const struct sim_io *io)
{
    const uint64_t cap = d->user_units * SIM_UNIT;
    uint64_t off = io->offset;
    uint32_t len = io->len;
    if (!len || off >= cap)
        return now;
    if (off + len > cap)
        len = (uint32_t)(cap - off);
    unsigned op = io->op == SIM_WRITE ? SIM_WRITE : io->op == SIM_TRIM ? SIM_TRIM : SIM_READ;
    simt done;
    if (op == SIM_WRITE) {
        d->link_w = (d->link_w > now ? d->link_w : now) + sim_link_ns(d->link_wps, len);
        simt t = d->link_w;
        done = d->dispatch == SIM_DISPATCH_VCA ? sim_vca(d, op, t, off, len, io->compress_pct)
                                               : sim_stripe(d, op, t, off, len, io->compress_pct);
    } else if (op == SIM_READ) {
        simt x = sim_link_ns(d->link_ps, len);
        d->link_r = (d->link_r > now ? d->link_r : now) + x;
        done = d->dispatch == SIM_DISPATCH_VCA ? sim_vca(d, op, now, off, len, 0)
                                               : sim_stripe(d, op, now, off, len, 0);
        done += x;
        if (d->link_r > done)
            done = d->link_r;
    } else {
        done = d->dispatch == SIM_DISPATCH_VCA ? sim_vca(d, op, now, off, len, 0)
                                               : sim_stripe(d, op, now, off, len, 0);
    }
    return sim_thermal_io(&d->thermal, now, done + d->d_card, op, len);
}

bool sim_has_pauses(const struct sim_dev *d) { return d->pauses; }

/* Note a pause [s, s + len) of any controller; one that begins before the latest ends extends
 * it (the card's I/Os wait for the union). */
static void sim_pause_note(struct sim_dev *d, simt s, simt len)
{
    uint32_t h = d->pz_head;
    if (d->pz_end[h] && s <= d->pz_end[h] && s + len >= d->pz_start[h]) {
        if (s < d->pz_start[h])
            d->pz_start[h] = s;
        if (s + len > d->pz_end[h])
            d->pz_end[h] = s + len;
        return;
    }
    h = (h + 1) % SIM_PAUSES;
    d->pz_head = h;
    d->pz_start[h] = s;
    d->pz_end[h] = s + len;
    if (s + len > d->pz_last_end)
        d->pz_last_end = s + len;
}

/* The controllers' timed pauses that begin before `t`, in time order. */
static void sim_pause_timed(struct sim_dev *d, simt t)
{
    if (!d->cfg.pause_period) {
        d->pz_next_timed = UINT64_MAX;
        return;
    }
    for (;;) {
        struct sim_ctl *c = &d->ctl[0];
        for (unsigned j = 1; j < d->n; j++)
            if (d->ctl[j].pause_next < c->pause_next)
                c = &d->ctl[j];
        if (c->pause_next >= t) {
            d->pz_next_timed = c->pause_next;
            return;
        }
        sim_pause_note(d, c->pause_next, d->cfg.pause);
        c->pause_next += d->cfg.pause + sim_ctl_pause_gap(c);
    }
}

/* A completion stands for k consecutive I/Os of one worker, which on the full-size drive
 * spread over every controller (k I/Os span many stripe units): it waits for a pause of any
 * of them, once, whether in progress when it was issued or begun before it completes (each
 * delay moving the completion later). */
simt sim_pause_delay(struct sim_dev *d, simt from, simt to)
{
    /* the common case: every noted pause ended before the I/O, the next timed one begins
     * after it */
    if (from >= d->pz_last_end && to <= d->pz_next_timed)
        return 0;
    simt x = 0, lo = from, hi = to;
    bool first = true;
    for (;;) {
        sim_pause_timed(d, hi);
        simt add = 0;
        for (uint32_t i = 0; i < SIM_PAUSES; i++) {
            const simt s = d->pz_start[i], e = d->pz_end[i];
            if (!e)
                continue;
            if (s >= lo && s < hi)
                add += e - s;                   /* begins while the I/O is in flight */
            else if (first && s < lo && e > lo)
                add += e - lo;                  /* in progress when it was issued */
        }
        if (!add)
            return x;
        x += add;
        first = false;
        lo = hi;
        hi = to + x;
    }
}

void sim_fast_fill(struct sim_dev *d, bool random, uint64_t bytes, unsigned compress_pct)
{
    uint64_t units = bytes / SIM_UNIT;
    const uint64_t su = d->stripe_units, N = d->n;
    for (uint64_t i = 0; i < units; i++) {
        uint64_t u = random ? rng_below(&d->rng, d->user_units) : i % d->user_units;
        if (d->dispatch == SIM_DISPATCH_VCA) {
            unsigned j = sim_vca_pick(d, 0, 1, false);
            if (j == UINT32_MAX)
                continue;
            sim_vca_claim(d, j, u, 1);
            d->vca.written[j] += SIM_UNIT;
            sim_ctl_fill(&d->ctl[j], d->scratch_lpn[0], compress_pct);
        } else {
            uint64_t s = u / su;
            sim_ctl_fill(&d->ctl[s % N], (uint32_t)((s / N) * su + u % su), compress_pct);
        }
    }
    for (unsigned j = 0; j < d->n; j++)
        sim_ctl_untime(&d->ctl[j]);
}

/* ---------------------------------------------------------------- info, stats, check */

void sim_info(const struct sim_dev *d, struct sim_info *out)
{
    memset(out, 0, sizeof(*out));
    out->user_bytes = d->user_units * SIM_UNIT;
    out->nominal_user_bytes = d->nominal_user_bytes;
    out->raw_bytes = (uint64_t)d->n * d->cfg.nlines * d->cfg.line_sect * SIM_SECT;
    out->k = d->k;
    out->logical_sector = SIM_SECT;
    out->physical_sector = SIM_UNIT;
    out->n_ctl = d->n;
    out->lines_per_ctl = d->cfg.nlines;
    out->pages_per_block = d->cfg.ppb;
    out->rho_eff = d->rho_eff;
}

void sim_stats(const struct sim_dev *d, struct sim_stats *out)
{
    memset(out, 0, sizeof(*out));
    for (unsigned j = 0; j < d->n; j++) {
        const struct sim_ctl *c = &d->ctl[j];
        const struct sim_cstats *s = &c->st;
        out->host_write_sectors += s->host_write_sectors;
        out->host_read_sectors += s->host_read_sectors;
        out->nand_write_sectors += s->nand_write_sectors;
        out->gc_relocated_sectors += s->gc_relocated_sectors;
        out->bg_relocated_sectors += s->bg_relocated_sectors;
        out->erases += s->erases;
        out->bg_gc_steps += s->bg_gc_steps;
        out->fg_gc_steps += s->fg_gc_steps;
        out->unmapped_reads += s->unmapped_reads;
        out->trimmed_units += s->trimmed_units;
        out->free_lines += c->nfree;
        out->total_lines += d->cfg.nlines;
    }
    out->write_amplification = out->host_write_sectors
                                   ? (double)out->nand_write_sectors / out->host_write_sectors
                                   : 0.0;
    sim_thermal_stats(&d->thermal, out);
}

void sim_lifetime_stats(const struct sim_dev *d, struct sim_stats *out)
{
    sim_stats(d, out);
    sim_stats_accumulate(out, &d->before_purge);
    out->write_amplification = out->host_write_sectors
                                   ? (double)out->nand_write_sectors / out->host_write_sectors
                                   : 0.0;
}

int sim_check(const struct sim_dev *d, char *err, size_t errlen)
{
    for (unsigned j = 0; j < d->n; j++)
        if (sim_ctl_check(&d->ctl[j], j, err, errlen))
            return -1;
    if (d->dispatch != SIM_DISPATCH_VCA)
        return 0;
    const struct sim_vca *v = &d->vca;
    uint64_t owned[64] = {0};
    for (uint64_t u = 0; u < d->user_units; u++) {
        unsigned j = v->own_ctl[u];
        if (j == 0xff)
            continue;
        if (j >= d->n || v->own_lpn[u] >= v->local_units)
            return errf(err, errlen, "vca: card unit %llu owned by child %u lpn %u: out of range",
                        (unsigned long long)u, j, v->own_lpn[u]);
        if (d->ctl[j].l2p[v->own_lpn[u]] == SIM_UNMAPPED)
            return errf(err, errlen, "vca: card unit %llu owned by child %u lpn %u, which holds "
                        "no data", (unsigned long long)u, j, v->own_lpn[u]);
        owned[j]++;
    }
    for (unsigned j = 0; j < d->n; j++) {
        uint64_t mapped = 0;
        for (uint32_t l = 0; l < v->local_units; l++)
            mapped += d->ctl[j].l2p[l] != SIM_UNMAPPED;
        if (mapped != owned[j] || owned[j] + v->nfree_lpn[j] != v->local_units)
            return errf(err, errlen, "vca: child %u maps %llu units, owns %llu, %u free of %u", j,
                        (unsigned long long)mapped, (unsigned long long)owned[j],
                        v->nfree_lpn[j], v->local_units);
    }
    return 0;
}

/* ---------------------------------------------------------------- WA oracle */

double sim_lambert_w0(double x)
{
    const double em1 = 0.36787944117144233;   /* 1/e */
    if (isnan(x) || x < -em1 - 1e-15)
        return NAN;
    if (x <= -em1)
        return -1.0;
    if (x == 0.0)
        return 0.0;
    double w;
    if (x < -0.25) {   /* series about the branch point */
        double p = sqrt(2.0 * (2.718281828459045 * x + 1.0));
        w = -1.0 + p - p * p / 3.0 + 11.0 / 72.0 * p * p * p;
    } else if (x < 3.0) {
        w = log1p(x);
        w = w * (1.0 - log1p(w) / (2.0 + w));
    } else {
        double l = log(x);
        w = l - log(l);
    }
    for (int i = 0; i < 100; i++) {   /* Halley */
        double ew = exp(w), f = w * ew - x, wp1 = w + 1.0;
        if (wp1 == 0.0)
            break;
        double dw = f / (ew * wp1 - (w + 2.0) * f / (2.0 * wp1));
        w -= dw;
        if (fabs(dw) <= 1e-15 * (1.0 + fabs(w)))
            break;
    }
    return w;
}

double sim_wa_oracle(double rho)
{
    if (!(rho > 0))
        return INFINITY;
    double a = 1.0 + rho;
    return a / (a + sim_lambert_w0(-a * exp(-a)));
}
