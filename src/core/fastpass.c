/* fastpass.c — issue 48's fast preconditioning pass on the simulated drive (see fastpass.h). */
#include "core/fastpass.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/rng.h"
#include "lib/util.h"

double fastpass_invalid_share(double rho, unsigned r, unsigned n_regions)
{
    if (!(rho > 0) || !n_regions)
        return 0.0;
    const double v_gc = 1.0 - 1.0 / sim_wa_oracle(rho);
    const double x = ((double)r + 0.5) / (double)n_regions;
    return 1.0 - pow(v_gc, 1.0 - x);
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

static void fp_sift(struct fp_loop *l)
{
    for (unsigned i = 0;;) {
        unsigned a = 2 * i + 1, b = a + 1, m = i;
        if (a < l->n && l->t[a] < l->t[m])
            m = a;
        if (b < l->n && l->t[b] < l->t[m])
            m = b;
        if (m == i)
            return;
        simt x = l->t[i];
        l->t[i] = l->t[m];
        l->t[m] = x;
        i = m;
    }
}

/* One 4 KiB write of unit u, issued when the earliest outstanding one completes. */
static void fp_write(struct fp_loop *l, uint32_t u)
{
    struct sim_io io = {SIM_WRITE, (uint8_t)l->compress_pct,
                        l->base + (uint64_t)u * FASTPASS_UNIT, FASTPASS_UNIT};
    l->t[0] = sim_submit(l->w->dev, l->t[0], &io);
    fp_sift(l);
    l->issued++;
}

static uint32_t *fp_permutation(uint64_t units, uint64_t *seed)
{
    uint32_t *p = xcalloc(units, sizeof(*p));
    for (uint64_t i = 0; i < units; i++)
        p[i] = (uint32_t)i;
    for (uint64_t i = units - 1; i > 0; i--) {
        uint64_t j = rng_splitmix64(seed) % (i + 1);
        uint32_t x = p[i];
        p[i] = p[j];
        p[j] = x;
    }
    return p;
}

/* The regions in order (fastpass.h); 0, or 1 when stopped. */
static int fp_regions(struct fp_loop *l, uint64_t units, double rho, uint64_t *seed,
                      volatile sig_atomic_t *stop)
{
    uint32_t *perm = fp_permutation(units, seed);
    uint32_t *prev = xcalloc(units, sizeof(*prev)), *next = xcalloc(units, sizeof(*next));
    const uint64_t region = (uint64_t)((double)units * (1.0 + rho) / FASTPASS_REGIONS);
    uint64_t n_prev = 0, fresh = 0;
    int rc = 0;
    for (unsigned r = 0; (r < FASTPASS_REGIONS || fresh < units) && !rc; r++) {
        const double inv = r < FASTPASS_REGIONS ? fastpass_invalid_share(rho, r,
                                                                         FASTPASS_REGIONS) : 0;
        uint64_t n_next = 0, in_region = 0;
        for (uint64_t i = 0; i < n_prev || (in_region < region && fresh < units); i++) {
            uint32_t u = i < n_prev ? prev[i] : perm[fresh++];
            fp_write(l, u);
            in_region++;
            if ((double)(rng_splitmix64(seed) >> 11) * 0x1.0p-53 < inv)
                next[n_next++] = u;
        }
        uint32_t *t = prev;
        prev = next;
        next = t;
        n_prev = n_next;
        if (stop && *stop)
            rc = 1;
    }
    for (uint64_t i = 0; i < n_prev && !rc; i++)   /* the last region's choices */
        fp_write(l, prev[i]);
    free(perm);
    free(prev);
    free(next);
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
    int rc = fp_regions(&l, units, rho, &seed, stop);
    simt end = w->now;
    for (unsigned i = 0; i < l.n; i++)
        end = l.t[i] > end ? l.t[i] : end;
    w->now = end;
    out->t_end = end;
    out->units_written = l.issued;
    free(l.t);
    return rc;
}
