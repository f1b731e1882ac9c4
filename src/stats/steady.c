/* steady.c — SNIA PTS steady-state detection (see steady.h). */
#include "stats/steady.h"

#include <math.h>
#include <string.h>

/* Comparisons use <= with a relative slack of 1e-9 of the allowed value, so that a measured
 * excursion that equals the limit in exact arithmetic is not rejected because of rounding in
 * the average or the fit (e.g. range exactly 20% of the average).  Anything measurably above
 * the limit (even by one part in a million) still fails. */
#define STEADY_SLACK 1e-9

static bool within(double measured, double allowed)
{
    return measured <= allowed + fabs(allowed) * STEADY_SLACK;
}

void steady_fit(const double *x, const double *y, size_t n, double *slope, double *intercept)
{
    if (n < 2) {
        *slope = 0.0;
        *intercept = n ? y[0] : 0.0;
        return;
    }
    double xm = 0.0, ym = 0.0;
    for (size_t i = 0; i < n; i++) {
        xm += x[i];
        ym += y[i];
    }
    xm /= (double)n;
    ym /= (double)n;
    double sxx = 0.0, sxy = 0.0;
    for (size_t i = 0; i < n; i++) {
        double dx = x[i] - xm;
        sxx += dx * dx;
        sxy += dx * (y[i] - ym);
    }
    if (sxx == 0.0) {       /* all x equal: no slope can be fitted */
        *slope = 0.0;
        *intercept = ym;
        return;
    }
    *slope = sxy / sxx;
    *intercept = ym - *slope * xm;
}

int steady_eval(const double *y, size_t n_rounds, unsigned last_round,
                const struct steady_criteria *c, struct steady_window *out)
{
    unsigned w = c->window;
    if (w == 0 || last_round < w || last_round > n_rounds)
        return -1;

    unsigned first = last_round - w + 1;
    const double *yw = y + (first - 1);

    double sum = 0.0, mn = yw[0], mx = yw[0];
    for (unsigned i = 0; i < w; i++) {
        sum += yw[i];
        if (yw[i] < mn)
            mn = yw[i];
        if (yw[i] > mx)
            mx = yw[i];
    }
    double avg = sum / (double)w;

    /* Least squares over x = first..last_round (steady_fit with the x values implied). */
    double xm = (double)first + (double)(w - 1) / 2.0;
    double sxx = 0.0, sxy = 0.0;
    for (unsigned i = 0; i < w; i++) {
        double dx = (double)(first + i) - xm;
        sxx += dx * dx;
        sxy += dx * (yw[i] - avg);
    }
    double k = sxx > 0.0 ? sxy / sxx : 0.0;
    double d = avg - k * xm;

    memset(out, 0, sizeof(*out));
    out->first_round = first;
    out->last_round = last_round;
    out->average = avg;
    out->min = mn;
    out->max = mx;
    out->range = mx - mn;
    out->range_allowed = c->range_frac * avg;
    out->slope = k;
    out->intercept = d;
    out->slope_excursion = fabs(k) * (double)(last_round - first);
    out->slope_excursion_allowed = c->slope_frac * avg;
    /* An average at or below zero (nothing completed) makes both limits 0 or negative: such a
     * window is a failure, never "steady". */
    out->range_ok = avg > 0.0 && within(out->range, out->range_allowed);
    out->slope_ok = avg > 0.0 && within(out->slope_excursion, out->slope_excursion_allowed);
    out->steady = out->range_ok && out->slope_ok;
    return 0;
}

unsigned steady_first(const double *y, size_t n_rounds, const struct steady_criteria *c,
                      struct steady_window *out)
{
    memset(out, 0, sizeof(*out));
    if (c->window == 0)
        return 0;
    size_t limit = n_rounds;
    if (c->max_rounds && c->max_rounds < limit)
        limit = c->max_rounds;
    for (size_t r = c->window; r <= limit; r++) {
        if (steady_eval(y, n_rounds, (unsigned)r, c, out) != 0)
            break;
        if (out->steady)
            return (unsigned)r;
    }
    return 0;
}

unsigned steady_first_all(const double *const *ys, unsigned n_vars, size_t n_rounds,
                          const struct steady_criteria *c, struct steady_window *windows)
{
    for (unsigned v = 0; v < n_vars; v++)
        memset(&windows[v], 0, sizeof(windows[v]));
    if (!n_vars || c->window == 0 || n_rounds < c->window)
        return 0;
    size_t last = n_rounds;
    if (c->max_rounds && last > c->max_rounds)
        last = c->max_rounds;
    for (size_t r = c->window; r <= last; r++) {
        bool all = true;
        for (unsigned v = 0; v < n_vars; v++) {
            steady_eval(ys[v], n_rounds, (unsigned)r, c, &windows[v]);
            all = all && windows[v].steady;
        }
        if (all)
            return (unsigned)r;
    }
    return 0;
}

int steady_guard_eval(const double *y, const double *fills, size_t n_rounds,
                      const struct steady_window *w, const struct steady_criteria *c,
                      const struct steady_guard *g, struct steady_guard_result *out)
{
    memset(out, 0, sizeof(*out));
    const unsigned len = c->window;
    if (!len || !w->last_round || w->last_round > n_rounds || w->first_round < 1)
        return -1;
    const unsigned first = w->first_round, last = w->last_round;
    out->span_last_round = last;
    out->fills_before = first >= 2 ? fills[first - 2] : 0.0;
    if (out->fills_before < g->lag_fills || !(w->average > 0.0))
        return 0;   /* not enough history before the window: not evaluated, not passed */
    out->evaluated = true;
    /* The earliest round that ended at most lag_fills before the window began. */
    const double from = out->fills_before - g->lag_fills;
    unsigned r0 = 1;
    while (r0 < first && fills[r0 - 1] < from)
        r0++;
    /* Every 5-round average ending at r0 (or at the first round that completes one) .. last. */
    unsigned end = r0 < len ? len : r0;
    out->span_first_round = end - len + 1;
    out->passed = true;
    for (unsigned r = end; r <= last; r++) {
        double sum = 0.0;
        for (unsigned i = r - len + 1; i <= r; i++)
            sum += y[i - 1];
        double dev = fabs(sum / (double)len - w->average) / w->average;
        if (dev > out->max_deviation) {
            out->max_deviation = dev;
            out->worst_round = r;
        }
        if (!within(dev, g->band_frac))
            out->passed = false;
    }
    return 0;
}

unsigned steady_first_guarded(const double *y, const double *fills, size_t n_rounds,
                              unsigned first_eligible, const struct steady_criteria *c,
                              const struct steady_guard *g, struct steady_window *win,
                              struct steady_guard_result *gr)
{
    memset(win, 0, sizeof(*win));
    memset(gr, 0, sizeof(*gr));
    if (!c->window)
        return 0;
    size_t r = first_eligible > c->window ? first_eligible : c->window;
    for (; r <= n_rounds; r++) {
        if (steady_eval(y, n_rounds, (unsigned)r, c, win) != 0)
            break;
        if (g)
            steady_guard_eval(y, fills, n_rounds, win, c, g, gr);
        if (win->steady && (!g || gr->passed))
            return (unsigned)r;
    }
    return 0;
}
