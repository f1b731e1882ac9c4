/* permute.c — see permute.h. */
#include "io/permute.h"

static void permute_rekey(struct permute *p, struct rng *r)
{
    for (int i = 0; i < 4; i++)
        p->keys[i] = rng_next(r);
    p->next = 0;
}

void permute_init(struct permute *p, uint64_t n, struct rng *r)
{
    unsigned bits = 1;
    while (bits < 64 && (1ull << bits) < n)
        bits++;
    if (bits < 2)
        bits = 2;
    p->n = n ? n : 1;
    p->rbits = bits / 2;
    p->lbits = bits - p->rbits;
    p->pass = 0;
    permute_rekey(p, r);
}

static inline uint64_t mix(uint64_t x, uint64_t k)
{
    x ^= k;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 31;
    x *= 0x94d049bb133111ebull;
    return x ^ (x >> 29);
}

/* One bijection on [0, 2^(lbits+rbits)): unbalanced Feistel, alternating which half is hashed
 * into the other. Each round is invertible, so the whole is a permutation. */
static inline uint64_t feistel(const struct permute *p, uint64_t x)
{
    const uint64_t lmask = (1ull << p->lbits) - 1, rmask = (1ull << p->rbits) - 1;
    uint64_t l = (x >> p->rbits) & lmask, rr = x & rmask;
    for (int i = 0; i < 4; i += 2) {
        l = (l ^ mix(rr, p->keys[i])) & lmask;
        rr = (rr ^ mix(l, p->keys[i + 1])) & rmask;
    }
    return (l << p->rbits) | rr;
}

uint64_t permute_at(const struct permute *p, uint64_t i)
{
    uint64_t y = feistel(p, i);
    while (y >= p->n)             /* cycle walking: stays a bijection on [0, n) */
        y = feistel(p, y);
    return y;
}

uint64_t permute_next(struct permute *p, struct rng *r)
{
    if (p->next >= p->n) {
        p->pass++;
        permute_rekey(p, r);
    }
    return permute_at(p, p->next++);
}
