/* iogen.c — set-up of the I/O generator (the per-I/O part is inline in iogen.h). */
#include "io/iogen.h"

#include <math.h>
#include <string.h>

static void skewed_init(struct iogen *g, const struct workload *wl);

void iogen_init(struct iogen *g, const struct workload *wl, const struct wl_range *range,
                unsigned id, unsigned n_workers, uint64_t seed)
{
    memset(g, 0, sizeof(*g));
    g->wl = wl;
    rng_seed(&g->rng, seed);

    unsigned slot = 0;
    for (unsigned i = 0; i < wl->n_bs; i++)
        for (unsigned k = 0; k < wl->bs[i].weight && slot < 100; k++)
            g->bs_table[slot++] = wl->bs[i].size;
    while (slot < 100)
        g->bs_table[slot++] = wl->bs[0].size;
    slot = 0;
    for (unsigned i = 0; i < wl->n_bs_write; i++)
        for (unsigned k = 0; k < wl->bs_write[i].weight && slot < 100; k++)
            g->bs_table_w[slot++] = wl->bs_write[i].size;
    while (slot < 100)
        g->bs_table_w[slot++] = wl->n_bs_write ? wl->bs_write[0].size : wl->bs[0].size;
    g->by_dir = wl_sizes_by_dir(wl);
    for (unsigned d = 0; d < 2; d++)
        g->dir_align[d] = wl->blockalign ? wl->blockalign : wl_dir_min_bs(wl, d);

    bool split = wl->region == WL_REGION_SPLIT ||
                 (wl->region == WL_REGION_DEFAULT && wl->random_pct == 0);
    if (split && n_workers > 1) {
        uint64_t align = iogen_natural_align(wl_max_bs(wl));
        uint64_t slice = range->len / n_workers / align * align;
        g->region_start = range->start + (uint64_t)id * slice;
        g->region_end = g->region_start + slice;
    } else {
        g->region_start = range->start;
        g->region_end = range->start + range->len;
    }
    g->cursor = g->region_start;
    g->last_off = g->region_start;
    g->zone_at = g->region_start;
    g->seq_left = wl->seq_nr;
    /* Random map (one block size): the first pass, or every pass, visits each block of the
     * region once in random order (see workload.h). Mixed sizes and zones draw independently. */
    g->use_map = iogen_maps(wl);
    /* Zones: consecutive slices of the region, sized by range %, aligned to the largest block. */
    if (wl->n_zones) {
        uint64_t len = g->region_end - g->region_start, at = g->region_start;
        uint64_t align = iogen_natural_align(wl_max_bs(wl));
        unsigned zslot = 0;
        for (unsigned z = 0; z < wl->n_zones; z++) {
            uint64_t zl = z + 1 == wl->n_zones ? g->region_end - at
                                               : len / 100 * wl->zones[z].range_pct / align * align;
            g->zone_start[z] = at;
            g->zone_len[z] = zl;
            at += zl;
            for (unsigned k = 0; k < wl->zones[z].access_pct && zslot < 100; k++)
                g->zone_table[zslot++] = (uint8_t)z;
        }
    }
    if (g->use_map)
        permute_init(&g->map, (g->region_end - g->region_start) / wl->bs[0].size, &g->rng);
    g->prio_raises = wl_prio_raises(wl);
    g->prio_def = wl_prio_default(wl);
    rng_seed(&g->prio_rng, seed ^ 0x7072696fu);   /* "prio" */
    g->dist = wl->dist;
    if (wl->dist != WL_DIST_UNIFORM)
        skewed_init(g, wl);
    /* The fast pass over the whole range, this worker's share of it (an empty share, more
     * workers than units: the draws above; step_fast refuses such ranges) */
    if (wl->fastpass.on && wl->bs[0].size) {
        g->fast_base = range->start;
        g->fast = fastgen_init(&g->fg, range->len / wl->bs[0].size, wl->fastpass.rho,
                               wl->fastpass.seed, id, n_workers) == 0;
    }
}

void iogen_free(struct iogen *g)
{
    if (g->fast)
        fastgen_free(&g->fg);
    g->fast = false;
}

/* The current strided zone: [lo, hi) within the region. */
static void strided_zone(const struct iogen *g, uint64_t *lo, uint64_t *hi)
{
    *lo = g->zone_at;
    const uint64_t room = g->region_end - g->zone_at, range = g->wl->zone_range;
    *hi = g->zone_at + (room < range ? room : range);
}

uint64_t iogen_strided(struct iogen *g, uint32_t len, uint8_t dir, bool random)
{
    const struct workload *wl = g->wl;
    if (g->zone_done >= wl->zone_size) {   /* on to the next zone */
        g->zone_done = 0;
        g->zone_at += wl->zone_range + wl->zone_skip;
        if (g->zone_at >= g->region_end || g->region_end - g->zone_at < len)
            g->zone_at = g->region_start;
        g->cursor = g->zone_at;
    }
    uint64_t lo, hi, off;
    strided_zone(g, &lo, &hi);
    if (hi - lo < len)
        hi = lo + len <= g->region_end ? lo + len : g->region_end;
    if (random) {
        const uint64_t align = iogen_align(g, len, dir);
        off = lo + rng_below(&g->rng, (hi - lo - len) / align + 1) * align;
    } else {
        off = g->cursor;
        if (off < lo || off + len > hi)   /* zonesize above zonerange: the zone again */
            off = lo;
    }
    g->zone_done += len;
    return off;
}

void iogen_seq_skip(struct iogen *g, uint64_t off, uint32_t len)
{
    const int64_t add = g->wl->seq_add;
    uint64_t lo = g->region_start, hi = g->region_end;
    if (g->wl->zone_size)
        strided_zone(g, &lo, &hi);
    const uint64_t at = off + len;
    if (add > 0) {   /* holes: past the end, iogen_next starts again at lo */
        g->cursor = hi - at > (uint64_t)add ? at + (uint64_t)add : hi;
        return;
    }
    const uint64_t back = (uint64_t)-add;   /* backwards: past the start, on from the end */
    if (at - lo >= back)
        g->cursor = at - back;
    else
        g->cursor = hi - lo > back ? hi - back : lo;
}

/* zeta(n, theta) = sum 1/i^theta, i = 1..n: the first 10^5 terms summed, the rest by the
 * integral (their difference is below 10^-5 of the sum for the ranges that matter here). */
static double zeta(uint64_t n, double theta)
{
    const uint64_t head = n < 100000 ? n : 100000;
    double z = 0;
    for (uint64_t i = 1; i <= head; i++)
        z += pow((double)i, -theta);
    if (n > head)
        z += (pow((double)n + 0.5, 1 - theta) - pow((double)head + 0.5, 1 - theta)) / (1 - theta);
    return z;
}

static uint64_t gcd64(uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

static void skewed_init(struct iogen *g, const struct workload *wl)
{
    const uint32_t len = wl_min_bs(wl);
    g->dunit = iogen_natural_align(len);
    const uint64_t span = g->region_end - g->region_start;
    g->dn = span >= len ? (span - len) / g->dunit + 1 : 1;
    /* an affine bijection of [0, dn): a multiplier coprime with dn (from the seed) */
    uint64_t m = (rng_next(&g->rng) | 1) % g->dn;
    while (g->dn > 1 && (m == 0 || gcd64(m, g->dn) != 1))
        m = (m + 1) % g->dn;
    g->dmul = g->dn > 1 ? m : 1;
    g->dadd = g->dn > 1 ? rng_below(&g->rng, g->dn) : 0;
    g->center = wl->dist_center;
    if (wl->dist == WL_DIST_ZIPF) {
        g->theta = wl->dist_param;
        g->zetan = zeta(g->dn, g->theta);
        g->zeta2 = zeta(2, g->theta);
        g->alpha = 1.0 / (1.0 - g->theta);
        g->eta = (1.0 - pow(2.0 / (double)g->dn, 1.0 - g->theta)) / (1.0 - g->zeta2 / g->zetan);
    } else if (wl->dist == WL_DIST_PARETO) {
        const double h = wl->dist_param;
        g->ppow = log(h) / log(1.0 - h);
    } else {
        g->sigma = wl->dist_param / 100.0;
        if (g->center < 0)
            g->center = 0.5;
    }
}

static double unit_draw(struct iogen *g)
{
    return (double)(rng_next(&g->rng) >> 11) / 9007199254740992.0;
}

uint64_t iogen_skewed_rank(struct iogen *g)
{
    const double n = (double)g->dn;
    uint64_t r;
    if (g->dist == WL_DIST_NORMAL) {
        /* Box-Muller: one normal deviate around the centre, sigma a share of the range */
        double u1 = unit_draw(g), u2 = unit_draw(g);
        if (u1 < 1e-300)
            u1 = 1e-300;
        const double z = sqrt(-2.0 * log(u1)) * cos(2 * M_PI * u2);
        double x = (g->center + z * g->sigma) * n;
        if (x < 0)
            x = 0;
        if (x > n - 1)
            x = n - 1;
        return (uint64_t)x;
    }
    if (g->dist == WL_DIST_ZIPF) {
        const double u = unit_draw(g), uz = u * g->zetan;
        if (uz < 1)
            r = 0;
        else if (uz < 1 + pow(0.5, g->theta))
            r = 1;
        else
            r = (uint64_t)(n * pow(g->eta * u - g->eta + 1, g->alpha));
    } else {   /* pareto: the hot (1 - h) of the ranks take h of the accesses, at the top */
        r = (uint64_t)(n * pow(unit_draw(g), g->ppow));
        r = g->dn - 1 - (r < g->dn ? r : g->dn - 1);   /* the hottest rank 0 */
    }
    if (r >= g->dn)
        r = g->dn - 1;
    if (g->center >= 0)   /* the hottest at the centre, the rest after it, wrapping */
        return (r + (uint64_t)(g->center * n)) % g->dn;
    return (uint64_t)(((unsigned __int128)r * g->dmul + g->dadd) % g->dn);
}
