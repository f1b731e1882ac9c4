/* iogen.c — set-up of the I/O generator (the per-I/O part is inline in iogen.h). */
#include "io/iogen.h"

#include <string.h>

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
    /* Random map (one block size): the first pass, or every pass, visits each block of the
     * region once in random order (see workload.h). Mixed sizes and zones draw independently. */
    g->use_map = wl->random_map != WL_RANDOM_MAP_OFF && wl->n_bs == 1 && wl->random_pct > 0 &&
                 wl->n_zones == 0;
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
}
