/* fastgen.c — the fast pass's offsets (see fastgen.h). */
#include "io/fastgen.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"

double fastgen_v_gc(double rho)
{
    if (!(rho > 1e-9))
        return 1.0;
    /* the root below 1 of f(v) = v - exp(-a (1 - v)); f is concave and rises through it, so
     * Newton's steps from v = 0 climb to it from below */
    const double a = 1.0 + rho;
    double v = 0.0;
    for (int i = 0; i < 100; i++) {
        const double e = exp(-a * (1.0 - v)), f = v - e, d = 1.0 - a * e;
        if (!(d > 0))
            break;
        const double nv = v - f / d;
        if (fabs(nv - v) < 1e-15)
            return nv;
        v = nv;
    }
    return v;
}

double fastgen_invalid_share(double rho, unsigned r, unsigned n_regions)
{
    if (!(rho > 0) || !n_regions)
        return 0.0;
    const double x = ((double)r + 0.5) / (double)n_regions;
    return 1.0 - pow(fastgen_v_gc(rho), 1.0 - x);
}

/* The plan for a share of n units: each region's writes and choices (fastgen.h). Returns the
 * number of regions. */
static unsigned plan(uint64_t n, double rho, uint64_t *size, uint64_t *pick)
{
    const unsigned nr = n < FASTGEN_REGIONS ? (unsigned)n : FASTGEN_REGIONS;
    const double total = (double)n * (1.0 + (rho > 0 ? rho : 0.0));
    uint64_t fresh_left = n, prev = 0;
    for (unsigned r = 0; r < nr; r++) {
        uint64_t s, k = 0;
        if (r + 1 == nr) {
            s = prev + fresh_left;
        } else {
            const uint64_t nominal = (uint64_t)llround(total * (r + 1) / nr) -
                                     (uint64_t)llround(total * r / nr);
            uint64_t f = nominal > prev ? nominal - prev : 0;
            f = f < fresh_left ? f : fresh_left;
            s = prev + f;
            fresh_left -= f;
            k = (uint64_t)llround(fastgen_invalid_share(rho, r, nr) * (double)s);
            k = k < s ? k : s;
        }
        size[r] = s;
        pick[r] = k;
        prev = k;
    }
    return nr;
}

static void share_of(uint64_t units, unsigned id, unsigned n_workers, uint64_t *lo, uint64_t *n)
{
    const unsigned w = n_workers ? n_workers : 1;
    *lo = units * id / w;
    *n = units * (id + 1) / w - *lo;
}

uint64_t fastgen_length_of(uint64_t units, double rho, unsigned id, unsigned n_workers)
{
    uint64_t lo, n, size[FASTGEN_REGIONS], pick[FASTGEN_REGIONS], len = 0;
    share_of(units, id, n_workers, &lo, &n);
    const unsigned nr = plan(n, rho, size, pick);
    for (unsigned r = 0; r < nr; r++)
        len += size[r];
    return len;
}

int fastgen_init(struct fastgen *g, uint64_t units, double rho, uint64_t seed, unsigned id,
                 unsigned n_workers)
{
    memset(g, 0, sizeof(*g));
    share_of(units, id, n_workers, &g->share_lo, &g->share_n);
    if (!g->share_n || g->share_n > UINT32_MAX)
        return -1;
    struct rng keys;
    rng_seed(&keys, seed);
    permute_init(&g->perm, units, &keys);
    rng_seed(&g->rng, seed ^ (0x9e3779b97f4a7c15ull * (id + 1ull)));
    g->n_regions = plan(g->share_n, rho, g->size, g->pick);
    uint64_t most = 1;
    for (unsigned r = 0; r < g->n_regions; r++) {
        g->length += g->size[r];
        most = g->pick[r] > most ? g->pick[r] : most;
    }
    g->prev = xcalloc(most, sizeof(*g->prev));
    g->next = xcalloc(most, sizeof(*g->next));
    g->left = g->size[0];
    g->k_left = g->pick[0];
    return 0;
}

/* On to region r + 1: region r's choices become its rewrites. */
static void next_region(struct fastgen *g)
{
    uint32_t *t = g->prev;
    g->prev = g->next;
    g->next = t;
    g->n_prev = g->n_next;
    g->i_prev = g->n_next = 0;
    if (++g->r < g->n_regions) {
        g->left = g->size[g->r];
        g->k_left = g->pick[g->r];
    }
}

uint64_t fastgen_next(struct fastgen *g)
{
    while (g->r < g->n_regions && !g->left)
        next_region(g);
    if (g->r >= g->n_regions)
        return permute_at(&g->perm, g->share_lo + rng_below(&g->rng, g->share_n));
    /* the lists hold indexes into the share (< 2^32), the unit is the permutation's */
    const uint64_t i = g->i_prev < g->n_prev ? g->prev[g->i_prev++] : g->fresh++;
    const uint64_t u = permute_at(&g->perm, g->share_lo + i);
    if (g->k_left && rng_below(&g->rng, g->left) < g->k_left) {   /* selection sampling */
        g->next[g->n_next++] = (uint32_t)i;
        g->k_left--;
    }
    g->left--;
    g->issued++;
    return u;
}

void fastgen_free(struct fastgen *g)
{
    free(g->prev);
    free(g->next);
    g->prev = g->next = NULL;
}
