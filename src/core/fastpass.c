/* fastpass.c — issue 48's fast preconditioning pass on the simulated drive (see fastpass.h). */
#include "core/fastpass.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "io/fastgen.h"
#include "lib/util.h"

double fastpass_invalid_share(double rho, unsigned r, unsigned n_regions)
{
    return fastgen_invalid_share(rho, r, n_regions);
}

/* The size of wl's writes that most I/Os take (bssplit: the largest weight, the smaller size on
 * a tie), and whether the writes draw sizes from a range (bsrange). */
static uint32_t write_size_of(const struct workload *wl, bool *ranged)
{
    const struct wl_bs *b = wl->n_bs_write ? wl->bs_write : wl->bs;
    const unsigned n = wl->n_bs_write ? wl->n_bs_write : wl->n_bs;
    *ranged = wl->bsrange_hi[1] || (!wl->n_bs_write && wl->bsrange_hi[0]);
    uint32_t size = 0, weight = 0;
    for (unsigned i = 0; i < n; i++)
        if (b[i].weight > weight || (b[i].weight == weight && b[i].size < size)) {
            size = b[i].size;
            weight = b[i].weight;
        }
    return size;
}

uint32_t fastpass_unit_of(const struct workload *wl, uint64_t range_start, const char **how)
{
    bool ranged = false;
    const uint32_t size = write_size_of(wl, &ranged);
    const unsigned n = wl->n_bs_write ? wl->n_bs_write : wl->n_bs;
    uint32_t unit = size <= FASTPASS_UNIT ? FASTPASS_UNIT
                                          : (size + FASTPASS_UNIT - 1) / FASTPASS_UNIT * FASTPASS_UNIT;
    const char *h = ranged  ? "the smallest of the stimulus's write sizes (bsrange)"
                    : n > 1 ? "the most frequent of the stimulus's write sizes (bssplit)"
                            : "the stimulus's write size";
    if (size < FASTPASS_UNIT)
        h = "4 KiB (the smallest unit; the stimulus's writes are smaller)";
    else if (size % FASTPASS_UNIT)
        h = "the stimulus's write size rounded up to 4 KiB";
    if (range_start % unit) {
        unit = FASTPASS_UNIT;
        h = "4 KiB (the active range does not start on a multiple of the stimulus's write size)";
    }
    if (how)
        *how = h;
    return unit;
}

unsigned fastpass_threads(unsigned workers, uint64_t units, bool *reduced)
{
    unsigned t = workers > FASTPASS_MIN_THREADS ? workers : FASTPASS_MIN_THREADS;
    const uint64_t most = units / FASTPASS_REGIONS;
    *reduced = t > most;
    if (t > most)
        t = most ? (unsigned)most : 1;
    return t;
}

/* The closed loop: qd completion times, the earliest first (a binary min-heap). */
struct fp_loop {
    struct sim_world *w;
    simt *t;
    unsigned n;
    unsigned compress_pct;
    uint64_t base;           /* the range's first byte */
    uint64_t issued;
};

bool fastpass_sim_settled(const struct sim_params *p, const struct sim_info *in,
                          const struct sim_stats *st, unsigned long long *pool_lines)
{
    const double pct = ceil(p->fg_lines_pct / 100.0 * in->lines_per_ctl - 1e-9);
    const double fg = pct > p->fg_lines_min ? pct : p->fg_lines_min;
    const unsigned long long pool = (unsigned long long)(in->n_ctl * (fg + SIM_POOL_EXTRA_LINES));
    if (pool_lines)
        *pool_lines = pool;
    return (unsigned long long)st->free_lines <= pool && st->write_amplification >= 1;
}

void fastpass_heap_settle(simt *t, unsigned n)
{
    for (unsigned i = 0;;) {
        unsigned a = 2 * i + 1, b = a + 1, m = i;
        if (a < n && t[a] < t[m])
            m = a;
        if (b < n && t[b] < t[m])
            m = b;
        if (m == i)
            return;
        simt x = t[i];
        t[i] = t[m];
        t[m] = x;
        i = m;
    }
}

/* One 4 KiB write of unit u, issued when the earliest outstanding one completes. */
static void fp_write(struct fp_loop *l, uint32_t u)
{
    struct sim_io io = {SIM_WRITE, (uint8_t)l->compress_pct,
                        l->base + (uint64_t)u * FASTPASS_UNIT, FASTPASS_UNIT};
    l->t[0] = sim_submit(l->w->dev, l->t[0], &io);
    fastpass_heap_settle(l->t, l->n);
    l->issued++;
}

/* The pass of io/fastgen.h, one worker (0, or 1 when stopped). */
static int fp_regions(struct fp_loop *l, uint64_t units, double rho, uint64_t seed,
                      volatile sig_atomic_t *stop)
{
    struct fastgen g;
    if (fastgen_init(&g, units, rho, seed, 0, 1) != 0)
        return -1;
    int rc = 0;
    for (uint64_t i = 0; i < g.length && !rc; i++) {
        fp_write(l, (uint32_t)fastgen_next(&g));
        if ((i & 0xffff) == 0 && stop && *stop)
            rc = 1;
    }
    fastgen_free(&g);
    return rc;
}

int fastpass_sim(struct sim_world *w, uint64_t offset, uint64_t len, double rho, unsigned qd,
                 unsigned compress_pct, uint64_t seed, volatile sig_atomic_t *stop,
                 struct fastpass_result *out)
{
    memset(out, 0, sizeof(*out));
    const uint64_t units = len / FASTPASS_UNIT;
    if (units < FASTPASS_REGIONS || units > UINT32_MAX || offset % FASTPASS_UNIT)
        return -1;
    struct fp_loop l = {w, xcalloc(qd ? qd : 1, sizeof(simt)), qd ? qd : 1, compress_pct,
                        offset, 0};
    for (unsigned i = 0; i < l.n; i++)
        l.t[i] = w->now;
    out->rho = rho;
    out->units = units;
    out->t_start = w->now;
    int rc = fp_regions(&l, units, rho, seed, stop);
    simt end = w->now;
    for (unsigned i = 0; i < l.n; i++)
        end = l.t[i] > end ? l.t[i] : end;
    w->now = end;
    out->t_end = end;
    out->units_written = l.issued;
    out->unit_bytes = FASTPASS_UNIT;
    free(l.t);
    return rc;
}
