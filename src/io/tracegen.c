/* tracegen.c — synthetic traces from definitions (tracegen.h). The timeline is a two-state
 * modulated Poisson process of events (a burst state at burst_ratio times the rate between
 * bursts); an event is one I/O alone, or a group of b I/Os issued a microsecond apart, which
 * is what gives the queue depths a trace was captured at (with service_us, each I/O completes
 * that long after its issue, and a group's I/Os are outstanding together). */
#include "io/tracegen.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/file.h"
#include "lib/ini.h"
#include "lib/rng.h"
#include "lib/units.h"
#include "lib/util.h"

/* ---------------------------------------------------------------- definitions */

static int num(const struct ini_section *s, const char *key, double lo, double hi, double *out,
               const char *path, char *err, size_t errlen)
{
    const struct ini_entry *e = ini_find(s, key);
    if (!e)
        return 0;
    char *end;
    double v = strtod(e->value, &end);
    if (end == e->value || *end || !(v >= lo && v <= hi))
        return errf(err, errlen, "%s:%d: %s=%s: want a number %g..%g", path, e->line, key,
                    e->value, lo, hi);
    *out = v;
    return 0;
}

static int bssplit(const struct ini_section *s, const char *key, struct wl_bs *bs, unsigned *n,
                   const char *path, char *err, size_t errlen)
{
    const struct ini_entry *e = ini_find(s, key);
    *n = 1;
    bs[0] = (struct wl_bs){4096, 100};
    if (!e)
        return 0;
    struct workload w;
    wl_init(&w);
    char where[600];
    snprintf(where, sizeof(where), "%s:%d", path, e->line);
    if (wl_set(&w, "bssplit", e->value, where, err, errlen) != 0)
        return -1;
    memcpy(bs, w.bs, w.n_bs * sizeof(*bs));
    *n = w.n_bs;
    return 0;
}

int tracegen_load(const char *spec, const char *const *dirs, struct tracegen_def *d, char *err,
                  size_t errlen)
{
    memset(d, 0, sizeof(*d));
    const size_t sl = strlen(spec);
    if (sl > 4 && !strcmp(spec + sl - 4, ".ini")) {
        str_copy(d->path, sizeof(d->path), spec);
    } else {
        for (const char *const *dir = dirs; dir && *dir && !d->path[0]; dir++) {
            snprintf(d->path, sizeof(d->path), "%s/%s.ini", *dir, spec);
            if (!file_exists(d->path))
                d->path[0] = '\0';
        }
        if (!d->path[0])
            return errf(err, errlen, "no trace definition '%s' (traces/%s.ini; ptsbench trace "
                        "list)", spec, spec);
    }
    const char *base = strrchr(d->path, '/');
    base = base ? base + 1 : d->path;
    snprintf(d->name, sizeof(d->name), "%.*s", (int)(strlen(base) - 4), base);
    struct ini_file f;
    if (ini_parse_file(d->path, &f, err, errlen) != 0)
        return -1;
    int rc = -1;
    const struct ini_section *s = ini_find_section(&f, "trace");
    if (!s) {
        errf(err, errlen, "%s: no [trace] section", d->path);
        goto out;
    }
    static const char *const keys[] = {"description", "source", "ios", "reads", "writes",
        "read_pct", "read_bssplit", "write_bssplit", "sequential_pct", "span", "iops",
        "burst_ratio", "burst_pct", "burst_ms", "qd_mean", "qd1_pct", "group_size",
        "service_us", NULL};
    for (size_t i = 0; i < s->n_entries; i++) {
        bool known = false;
        for (const char *const *k = keys; *k && !known; k++)
            known = !strcmp(*k, s->entries[i].key);
        if (!known) {
            errf(err, errlen, "%s:%d: unknown key '%s'", d->path, s->entries[i].line,
                 s->entries[i].key);
            goto out;
        }
    }
    const struct ini_entry *e;
    if ((e = ini_find(s, "description")))
        str_copy(d->description, sizeof(d->description), e->value);
    if ((e = ini_find(s, "source")))
        str_copy(d->source, sizeof(d->source), e->value);
    d->read_pct = 50;
    d->iops = 1000;
    d->burst_ratio = 1;
    d->burst_pct = 20;
    d->burst_ms = 100;
    d->group_size = 4;
    d->span = 100ull << 30;
    if (num(s, "ios", 1, 1e10, &d->ios, d->path, err, errlen) ||
        num(s, "reads", 0, 1e10, &d->reads, d->path, err, errlen) ||
        num(s, "writes", 0, 1e10, &d->writes, d->path, err, errlen) ||
        num(s, "read_pct", 0, 100, &d->read_pct, d->path, err, errlen) ||
        num(s, "sequential_pct", 0, 100, &d->seq_pct, d->path, err, errlen) ||
        num(s, "iops", 1e-3, 1e8, &d->iops, d->path, err, errlen) ||
        num(s, "burst_ratio", 1, 1e6, &d->burst_ratio, d->path, err, errlen) ||
        num(s, "burst_pct", 0.1, 99.9, &d->burst_pct, d->path, err, errlen) ||
        num(s, "burst_ms", 0.001, 1e9, &d->burst_ms, d->path, err, errlen) ||
        num(s, "qd_mean", 1, 1000, &d->qd_mean, d->path, err, errlen) ||
        num(s, "qd1_pct", 0, 100, &d->qd1_pct, d->path, err, errlen) ||
        num(s, "group_size", 2, 1000, &d->group_size, d->path, err, errlen) ||
        num(s, "service_us", 0, 1e9, &d->service_us, d->path, err, errlen) ||
        bssplit(s, "read_bssplit", d->rbs, &d->n_rbs, d->path, err, errlen) ||
        bssplit(s, "write_bssplit", d->wbs, &d->n_wbs, d->path, err, errlen))
        goto out;
    if ((e = ini_find(s, "span"))) {
        char why[256];
        if (units_parse_size(e->value, &d->span, why, sizeof(why)) != 0 || d->span < (1u << 20)) {
            errf(err, errlen, "%s:%d: span=%s: %s", d->path, e->line, e->value,
                 d->span < (1u << 20) ? "at least 1 MiB" : why);
            goto out;
        }
    }
    if (d->reads + d->writes > 0) {
        d->ios = d->reads + d->writes;
        d->read_pct = 100.0 * d->reads / d->ios;
    }
    if (!(d->ios >= 1)) {
        errf(err, errlen, "%s: no ios (or reads and writes)", d->path);
        goto out;
    }
    if (d->qd1_pct > 0 && d->qd_mean > 1 && d->qd1_pct >= 100) {
        errf(err, errlen, "%s: qd1_pct=100 with qd_mean above 1", d->path);
        goto out;
    }
    rc = 0;
out:
    ini_free(&f);
    return rc;
}

void tracegen_groups(const struct tracegen_def *d, double *b, double *g)
{
    *b = 1;
    *g = 0;
    if (!(d->qd_mean > 1))
        return;
    if (d->qd1_pct > 0) {
        const double q1 = d->qd1_pct / 100.0;
        *b = 2 * (d->qd_mean - 1) / (1 - q1);
        if (*b < 2)
            *b = 2;
        *g = (1 - q1) * *b / (*b - 1);
    } else {
        *b = d->group_size;
        *g = 2 * (d->qd_mean - 1) / (*b - 1);
    }
    if (*g > 1)
        *g = 1;
}

/* ---------------------------------------------------------------- generation */

static double uniform(struct rng *r) { return (double)(rng_next(r) >> 11) / 9007199254740992.0; }

static double expo(struct rng *r, double mean)
{
    double u = uniform(r);
    return -mean * log(1 - u);
}

static uint32_t pick_bs(struct rng *r, const struct wl_bs *bs, unsigned n)
{
    unsigned x = (unsigned)rng_below(r, 100), acc = 0;
    for (unsigned i = 0; i < n; i++) {
        acc += bs[i].weight;
        if (x < acc)
            return bs[i].size;
    }
    return bs[n - 1].size;
}

int tracegen_run(const struct tracegen_def *d, double scale, uint64_t seed, struct trace *out,
                 char *err, size_t errlen)
{
    memset(out, 0, sizeof(*out));
    if (!(scale > 0))
        return errf(err, errlen, "--scale %g: want more than 0", scale);
    const double want = d->ios * scale;
    if (want > 1e9)
        return errf(err, errlen, "%s at scale %g is %.0f I/Os: at most 10^9", d->name, scale,
                    want);
    const uint64_t n = want < 1 ? 1 : (uint64_t)llround(want);
    struct rng r;
    rng_seed(&r, seed ^ 0x5452414345ull);   /* "TRACE" */
    double b, g;
    tracegen_groups(d, &b, &g);
    /* events: a group with probability pg (g is a share of I/Os, not of events) */
    const double pg = g > 0 ? (g / b) / ((1 - g) + g / b) : 0;
    const double b_lo = floor(b), b_frac = b - b_lo;
    /* the mean event rate that gives d->iops I/Os per second */
    const double io_per_event = (1 - pg) + pg * b;
    const double ev_rate = d->iops / io_per_event;
    /* two states: burst at ratio x the quiet rate, burst_pct of the time */
    const double fb = d->burst_pct / 100.0;
    const double quiet = ev_rate / (fb * d->burst_ratio + (1 - fb));
    const double burst = quiet * d->burst_ratio;
    const double burst_s = d->burst_ms / 1e3, quiet_s = burst_s * (1 - fb) / fb;
    bool in_burst = false;
    double t = 0, state_end = expo(&r, quiet_s);
    uint64_t prev_end = 0, last_done = 0;
    const uint64_t span_units = d->span / 4096;
    const double seq = d->seq_pct / 100.0, rd = d->read_pct / 100.0;
    const uint64_t service = (uint64_t)llround(d->service_us * 1e3);
    while (out->n < n) {
        /* the next event's time */
        for (;;) {
            const double rate = in_burst ? burst : quiet;
            const double dt = expo(&r, 1.0 / rate);
            if (d->burst_ratio == 1 || t + dt < state_end) {
                t += dt;
                break;
            }
            t = state_end;   /* memoryless: draw again in the other state */
            in_burst = !in_burst;
            state_end = t + expo(&r, in_burst ? burst_s : quiet_s);
        }
        unsigned size = 1;
        if (pg > 0 && uniform(&r) < pg)
            size = (unsigned)b_lo + (uniform(&r) < b_frac);
        uint64_t t0 = (uint64_t)llround(t * 1e9);
        /* with queue depths to keep, an event waits for the previous one to complete: an I/O
         * alone is at QD 1, a group's at 1..b, whatever the arrival process drew */
        if (service && g > 0 && t0 < last_done) {
            t0 = last_done;
            t = (double)t0 / 1e9;
        }
        for (unsigned i = 0; i < size && out->n < n; i++) {
            const bool is_read = uniform(&r) < rd;
            const uint32_t len = is_read ? pick_bs(&r, d->rbs, d->n_rbs)
                                         : pick_bs(&r, d->wbs, d->n_wbs);
            uint64_t off;
            if (out->n && uniform(&r) < seq && prev_end + len <= d->span)
                off = prev_end;
            else
                off = rng_below(&r, span_units ? span_units : 1) * 4096;
            if (off + len > d->span)
                off = (d->span - len) / 4096 * 4096;
            const uint64_t at = t0 + i * 1000ull;   /* a group: a microsecond apart */
            trace_add(out, &(struct trace_rec){at, service ? at + service : TRACE_NO_DONE, off,
                                               len, is_read ? TRACE_READ : TRACE_WRITE});
            prev_end = off + len;
            if (service && at + service > last_done)
                last_done = at + service;
        }
    }
    str_copy(out->format, sizeof(out->format), "synthetic");
    snprintf(out->source, sizeof(out->source), "gen:%s,scale=%g,seed=%llu", d->name, scale,
             (unsigned long long)seed);   /* the spec that makes it again */
    out->timed = true;
    return trace_finish(out, err, errlen);
}

/* gen:NAME[,scale=X][,seed=N] (spec after "gen:"): the synthetic trace's records added to t. */
static int tracegen_add(const char *spec, const char *const *dirs, struct trace *t,
                          char *err, size_t errlen)
{
    char buf[256];
    str_copy(buf, sizeof(buf), spec);
    char *save = NULL, *name = strtok_r(buf, ",", &save);
    double scale = 1;
    unsigned long long seed = 1;
    for (char *kv = strtok_r(NULL, ",", &save); kv; kv = strtok_r(NULL, ",", &save)) {
        char *end;
        if (!strncmp(kv, "scale=", 6)) {
            scale = strtod(kv + 6, &end);
            if (end == kv + 6 || *end || !(scale > 0))
                return errf(err, errlen, "gen:%s: %s: want scale=X, X above 0", spec, kv);
        } else if (!strncmp(kv, "seed=", 5)) {
            seed = strtoull(kv + 5, &end, 10);
            if (end == kv + 5 || *end)
                return errf(err, errlen, "gen:%s: %s: want seed=N", spec, kv);
        } else {
            return errf(err, errlen, "gen:%s: unknown '%s' (scale=X, seed=N)", spec, kv);
        }
    }
    if (!name)
        return errf(err, errlen, "gen:: want gen:NAME (ptsbench trace list)");
    struct tracegen_def d;
    if (tracegen_load(name, dirs, &d, err, errlen) != 0)
        return -1;
    struct trace g;
    if (tracegen_run(&d, scale, seed, &g, err, errlen) != 0) {
        trace_free(&g);
        return -1;
    }
    for (size_t i = 0; i < g.n; i++)
        trace_add(t, &g.r[i]);
    if (!t->format[0] || !strcmp(t->format, "synthetic"))
        str_copy(t->format, sizeof(t->format), "synthetic");
    else
        str_copy(t->format, sizeof(t->format), "mixed");
    t->timed = t->n == g.n ? g.timed : t->timed && g.timed;
    size_t sl = strlen(t->source);
    snprintf(t->source + sl, sizeof(t->source) - sl, "%s%s", sl ? ", " : "", g.source);
    trace_free(&g);
    return 0;
}

int tracegen_load_any(const char *trace, const char *const *dirs, struct trace *t, char *err,
                      size_t errlen)
{
    if (!strncmp(trace, "gen:", 4))
        return tracegen_add(trace + 4, dirs, t, err, errlen);
    return trace_load(trace, t, err, errlen);
}

/* ---------------------------------------------------------------- csv out */

int trace_write_csv(const struct trace *t, const char *path, char *err, size_t errlen)
{
    size_t cap = 128 + t->n * 64, len = 0;
    char *buf = xcalloc(1, cap);
    len += (size_t)snprintf(buf, cap, "# %s (%s)\ntimestamp,offset,length,direction%s\n",
                            t->source, t->format, t->has_done ? ",completion" : "");
    for (size_t i = 0; i < t->n; i++) {
        const struct trace_rec *r = &t->r[i];
        if (cap - len < 96) {
            cap *= 2;
            buf = xrealloc(buf, cap);
        }
        int w = snprintf(buf + len, cap - len, "%llu.%09llu,%llu,%u,%c",
                         (unsigned long long)(r->t_ns / 1000000000ull),
                         (unsigned long long)(r->t_ns % 1000000000ull),
                         (unsigned long long)r->offset, r->len,
                         r->dir == TRACE_WRITE ? 'W' : 'R');
        len += (size_t)w;
        if (t->has_done)
            len += (size_t)snprintf(buf + len, cap - len, ",%llu.%09llu",
                                    (unsigned long long)(r->done_ns / 1000000000ull),
                                    (unsigned long long)(r->done_ns % 1000000000ull));
        buf[len++] = '\n';
    }
    const char *parts[1] = {buf};
    int rc = file_write_atomic(path, parts, &len, 1, false, err, errlen);
    free(buf);
    return rc;
}
