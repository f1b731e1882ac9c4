/* kind_hir.c — the Host Idle Recovery kind (docs/pts.md §2.5): purge, random 4 KiB writes to
 * steady state, then wait states of accesses and host idle, each followed by a return to
 * baseline. */
#include "pts/pts_session.h"

#include <errno.h>
#include <stdarg.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/metrics.h"
#include "core/results.h"
#include "core/run.h"
#include "core/worker.h"
#include "device/hostinfo.h"
#include "device/target.h"
#include "device/write_cache.h"
#include "io/workload.h"
#include "lib/json_path.h"
#include "lib/units.h"
#include "lib/util.h"
#include "pts/pts_def.h"
#include "pts/pts_rules.h"
#include "stats/data_measure.h"
#include "stats/hist.h"
#include "stats/steady.h"

/* Host idle: nothing in flight for ns (real sleep, or the simulated drive's clock jumps).
 * Real sleeps end on time: an absolute-deadline sleep to 300 us before the end, then a short
 * spin (a plain nanosleep overshoots by its timer slack and the scheduler's wake-up, which is a
 * visible error on HIR's short scaled waits). Returns the idle time measured. */
static uint64_t host_idle(struct pts_session *s, uint64_t ns)
{
    if (s->target.sim) {
        s->target.sim->now += ns;
        return ns;
    }
    const uint64_t t0 = now_mono_ns(), end = t0 + ns, spin = 300000;
    while (!*s->stop) {
        uint64_t now = now_mono_ns();
        if (now + spin >= end)
            break;
        uint64_t until = end - spin;
        if (until - now > 100000000ull)
            until = now + 100000000ull;   /* wake every 100 ms to notice ^C */
        struct timespec ts = {(time_t)(until / NS_PER_S), (long)(until % NS_PER_S)};
        clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
    }
    while (!*s->stop && now_mono_ns() < end)
        ;
    return now_mono_ns() - t0;
}

/* ------------------------------------------------------------------ HIR and XSR */

static double session_clock_s(const struct pts_session *s)
{
    return s->target.sim ? (double)s->target.sim->now / 1e9 : (double)now_mono_ns() / 1e9;
}

int pts_kind_hir(struct pts_session *s, const struct pts_def *d, uint32_t sub_bs,
                   struct json_object *sub, char *err, size_t errlen)
{
    (void)sub_bs;   /* one subtest: the kind's own stimuli */
    if (d->purge && ps_do_purge(s, sub, err, errlen) != 0)
        return -1;
    if (s->cfg.fast.on) {   /* the fast pass before its own preconditioning (pts_run.c) */
        int f = ps_do_fast(s, d, ps_def_threads(s, d), "fast", sub, err, errlen);
        if (f != 0)
            return f;
    }
    ps_stimulus_begins(s, true);   /* HIR preconditions with its own stimulus (PTS-E 1.1 §11.2.3) */
    struct element_pool *ep = xcalloc(1, sizeof(*ep));
    int st = ps_element_open(s, d->mixes[0], d->bss[0], d->random, ps_def_threads(s, d), ps_def_qd(s, d),
                          d->compress_pct, 0x484952ull /* "HIR" */, d->extra, ep, err, errlen);
    if (st == 0)
        st = ps_precondition_steady(s, d, ep, sub, err, errlen);
    const uint64_t access_ns = ps_scaled(s, d->access_ns);
    struct json_object *states = json_object_new_array(), *accesses = json_object_new_array();
    json_object_object_add(sub, "wait_states", states);
    json_object_object_add(sub, "accesses", accesses);
    const double t0 = session_clock_s(s);
    for (unsigned w = 0; w < d->n_waits && st == 0; w++) {
        const uint64_t wait_ns = ps_scaled(s, d->waits_ns[w]);
        /* the PTS's name for the state (1, 2, 3, 5, 10: the idle time in accesses), from the
         * definition's times; "ordinal" is its place in the test (1..5) */
        const unsigned state = pts_hir_state_number(d->waits_ns[w], d->access_ns);
        double sum_w = 0, sum_b = 0, idle_err = 0;
        unsigned n_w = 0, n_b = 0;
        for (unsigned phase = 0; phase < 2 && st == 0; phase++) {
            unsigned reps = phase ? d->baseline_accesses : d->repetitions;
            for (unsigned rep = 1; rep <= reps && st == 0; rep++) {
                double start = session_clock_s(s) - t0;
                struct round_metrics m;
                st = ps_measure_or_stop(s, ep, access_ns, access_ns, &m, err, errlen);
                if (st != 0)
                    break;
                struct json_object *a = ps_period_json(&m);
                json_object_object_add(a, "state", json_object_new_int((int)state));
                json_object_object_add(a, "ordinal", json_object_new_int(w + 1));
                json_object_object_add(a, "phase", json_object_new_string(phase ? "baseline" : "write"));
                json_object_object_add(a, "rep", json_object_new_int(rep));
                json_object_object_add(a, "start_s", jw_num(start));
                if (phase == 0) {
                    sum_w += m.total.iops;
                    n_w++;
                    uint64_t idle = host_idle(s, wait_ns);
                    double e = fabs((double)idle - (double)wait_ns) / (double)wait_ns;
                    if (e > idle_err)
                        idle_err = e;
                    json_object_object_add(a, "idle_after_s", jw_num((double)idle / 1e9));
                } else {
                    sum_b += m.total.iops;
                    n_b++;
                }
                json_object_array_add(accesses, a);
                metrics_free(&m);
                st = ps_flush_or_fail(s, false, err, errlen);
            }
        }
        struct json_object *sj = json_object_new_object();
        json_object_object_add(sj, "state", json_object_new_int((int)state));
        json_object_object_add(sj, "ordinal", json_object_new_int(w + 1));
        json_object_object_add(sj, "wait_s", jw_num((double)wait_ns / 1e9));
        json_object_object_add(sj, "access_s", jw_num((double)access_ns / 1e9));
        json_object_object_add(sj, "write_accesses", json_object_new_int(n_w));
        json_object_object_add(sj, "baseline_accesses", json_object_new_int(n_b));
        json_object_object_add(sj, "write_iops_mean", n_w ? jw_num(sum_w / n_w) : NULL);
        json_object_object_add(sj, "baseline_iops_mean", n_b ? jw_num(sum_b / n_b) : NULL);
        json_object_object_add(sj, "idle_max_error_pct", jw_num(100 * idle_err));
        json_object_array_add(states, sj);
        if (!s->cfg.quiet && st == 0) {
            char wi[32], bi[32];
            units_format_figure(n_w ? sum_w / n_w : 0, UNITS_FIG_IOPS, wi, sizeof(wi));
            units_format_figure(n_b ? sum_b / n_b : 0, UNITS_FIG_IOPS, bi, sizeof(bi));
            results_out_say(&s->out, "  [%s] wait state %u (%g s idle): %s IOPS with idle, "
                            "baseline %s IOPS%s", d->name, state, (double)wait_ns / 1e9,
                            wi, bi, ps_sim_tag(s));
        }
    }
    ps_element_close(ep);
    free(ep);
    return st;
}
