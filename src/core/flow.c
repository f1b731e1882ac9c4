/* flow.c — fio's flow control between jobs (flow.h). */
#include "core/flow.h"

#include <stdlib.h>

#include "lib/util.h"

void flow_set_init(struct flow_set *s, unsigned max)
{
    s->g = max ? xcalloc(max, sizeof(*s->g)) : NULL;
    s->n = 0;
    s->max = max;
}

void flow_set_join(struct flow_set *s, struct flow_member *m, unsigned id, unsigned weight)
{
    m->g = NULL;
    m->weight = weight;
    if (!weight)
        return;
    unsigned i = 0;
    while (i < s->n && s->g[i].id != id)
        i++;
    if (i == s->n) {
        if (s->n == s->max)
            return;   /* cannot happen: one group per member at most */
        s->g[s->n++].id = id;
    }
    s->g[i].weights0 += weight;
    m->g = &s->g[i];
}

void flow_set_free(struct flow_set *s)
{
    free(s->g);
    *s = (struct flow_set){0};
}

void flow_set_round(struct flow_set *s)
{
    for (unsigned i = 0; i < s->n; i++) {
        atomic_store_explicit(&s->g[i].count, 1, memory_order_relaxed);   /* fio's start */
        atomic_store_explicit(&s->g[i].weights, s->g[i].weights0, memory_order_relaxed);
    }
}

void flow_member_round(struct flow_member *m)
{
    m->count = 0;
    m->in = m->g != NULL;
}

bool flow_take(struct flow_member *m)
{
    struct flow_group *g = m->g;
    const uint64_t total = atomic_load_explicit(&g->count, memory_order_relaxed);
    const uint64_t weights = atomic_load_explicit(&g->weights, memory_order_relaxed);
    /* fio: count / total > weight / weights holds it back (in integers, no rounding) */
    if ((unsigned __int128)m->count * weights > (unsigned __int128)m->weight * total)
        return false;
    atomic_fetch_add_explicit(&g->count, 1, memory_order_relaxed);
    m->count++;
    return true;
}

void flow_leave(struct flow_member *m)
{
    if (!m->in)
        return;
    m->in = false;
    atomic_fetch_sub_explicit(&m->g->count, m->count, memory_order_relaxed);
    atomic_fetch_sub_explicit(&m->g->weights, m->weight, memory_order_relaxed);
}
