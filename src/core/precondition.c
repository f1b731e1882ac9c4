/* precondition.c — the WDPC's tracking for run and profile (see precondition.h). */
#include "core/precondition.h"

#include <stdlib.h>
#include <string.h>

#include "lib/util.h"

void precond_track_push(struct precond_track *t, double y, double fills)
{
    if (t->n == t->cap) {
        t->cap = t->cap ? 2 * t->cap : 64;
        t->y = xrealloc(t->y, t->cap * sizeof(*t->y));
        t->fills = xrealloc(t->fills, t->cap * sizeof(*t->fills));
    }
    t->y[t->n] = y;
    t->fills[t->n] = fills;
    t->n++;
}

void precond_track_free(struct precond_track *t)
{
    free(t->y);
    free(t->fills);
    memset(t, 0, sizeof(*t));
}

bool precond_track_eval(const struct precond_track *t, unsigned first_round,
                        const struct steady_criteria *c, const struct steady_guard *g,
                        struct steady_window *win, struct steady_guard_result *gr)
{
    memset(win, 0, sizeof(*win));
    if (gr)
        memset(gr, 0, sizeof(*gr));
    if (t->n < c->window || t->n - c->window + 1 < first_round)
        return false;
    if (steady_eval(t->y, t->n, t->n, c, win) != 0)
        return false;
    if (!g)
        return win->steady;
    steady_guard_eval(t->y, t->fills, t->n, win, c, g, gr);
    return win->steady && gr->passed;
}

const char *precond_wdpc_end(double fills, double min_fills, double max_fills, bool guard_passed)
{
    if (fills >= min_fills && guard_passed)
        return "guard";
    if (fills >= max_fills)
        return "max_fills";
    return "";
}
