#include "core/fastprep.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/fastpass.h"
#include "core/precondition.h"
#include "core/results.h"
#include "core/worker.h"
#include "io/iogen.h"
#include "io/workload.h"
#include "lib/units.h"
#include "lib/util.h"
#include "sim/sim.h"

int fastprep_check(const struct fast_request *r, char *err, size_t errlen)
{
    if (r->op_rho > 0 && !r->on)
        return errf(err, errlen, "--op %g: only with --precondition fast (the spare factor its "
                    "pass is built for)", r->op_rho);
    if (r->op_rho > 0 && r->rho > 0 && fabs(r->op_rho - r->rho) > 1e-12)
        return errf(err, errlen, "--op %g and --precondition fast:%g: two spare factors",
                    r->op_rho, r->rho);
    return 0;
}

int fastprep_usable(const struct fast_request *r, bool resume, const struct engine_ops *e,
                    char *err, size_t errlen)
{
    if (r->on && resume)
        return errf(err, errlen, "--precondition fast: not with --resume "
                    "(docs/fast-precondition.md)");
    if (r->on && e && (e->flags & ENGINE_F_WHOLE_ROUND))
        return errf(err, errlen, "--precondition fast: the %s engine runs whole rounds and cannot "
                    "take the pass's offsets; use io_uring or libaio", e->name);
    return 0;
}

int fastprep_choose(const struct target_info *t, const struct fast_request *r,
                    struct fast_prep *out, char *err, size_t errlen)
{
    out->ftl = ds_ftl_of(target_kind_name(t->kind), t->attach.interface);
    double sim_rho = 0;
    if (t->sim) {
        struct sim_info in;
        sim_info(t->sim->dev, &in);
        sim_rho = in.rho_eff;
    }
    if (ds_op_choose(out->ftl, sim_rho, r->op_rho > 0 ? r->op_rho : r->rho, &out->op) != 0)
        return errf(err, errlen, "--precondition fast on %s: the drive's spare factor is unknown "
                    "(ptsbench cannot read it); give --op PCT|RHO", t->path);
    return 0;
}

bool fastprep_stimulus_map(struct workload *wl)
{
    if (wl->random_map_set || !wl_writes(wl) || !iogen_maps(wl))
        return false;
    wl->random_map = WL_RANDOM_MAP_OFF;
    return true;
}

bool fastprep_models(const struct workload *wl)
{
    return wl_writes(wl) && wl->random_pct == 100;
}

const char *fastprep_map_said(const struct workload *wl, bool map_off)
{
    if (map_off)
        return "off after the fast pass (docs/fast-precondition.md §4)";
    if (!wl || !wl->random_pct || !wl_writes(wl))
        return NULL;
    if (wl->random_map_set)
        return wl->random_map == WL_RANDOM_MAP_OFF    ? "off, as the workload names it"
               : wl->random_map == WL_RANDOM_MAP_ONCE ? "once, as the workload names it"
                                                      : "always, as the workload names it";
    return "off (the workload's sizes or offsets draw without one)";
}

double fastprep_wdpc_floor(double lag_fills, double min_fills, bool given)
{
    /* WDPC's floor (1 fill by default) is the guard's lag of 1 fill written again: after a pass
     * whose lag is shorter (steady.h STEADY_GUARD_LAG_FAST) it follows the lag, unless
     * --wdpc-fills gave it; the guard still decides when WDPC ends */
    return lag_fills < min_fills && !given ? lag_fills : min_fills;
}

/* The simulated drive after the pass (core/fastpass.h fastpass_sim_settled), recorded. */
static void fast_sim_check(const struct sim_world *w, const struct sim_stats *last,
                           struct results_fast *f)
{
    struct sim_info in;
    sim_info(w->dev, &in);
    f->rho_simulator = in.rho_eff;
    f->sim_checked = true;
    f->sim_wa = last->write_amplification;
    f->sim_free_lines = last->free_lines;
    f->sim_ok = fastpass_sim_settled(&w->params, &in, last, &f->sim_pool_lines);
}

/* The pass's line before it runs: what it writes, in what unit, on how many threads. */
static void fast_announce(const struct run_ctx *c, const struct fast_prep *fp,
                          const struct fast_spec *f, const struct fastprep_pass *p, bool fewer)
{
    char r[32], u[32];
    units_format_figure(fp->op.rho, UNITS_FIG_VALUE, r, sizeof(r));
    units_format_size(f->unit, u, sizeof(u));
    if (step_fast_no_ftl(c->target))
        printf("%sfast pass (no FTL here: the same as writing the range): (1 + %s) x the "
               "active range sequentially in WIPC's writes (up to 128 KiB), %u x QD %u\n", p->who,
               r, f->threads, f->qd);
    else
        printf("%sfast pass: (1 + %s) x the active range in %s writes (%s), regions invalidated "
               "to greedy GC's equilibrium (rho %s: %s), %u x QD %u\n", p->who, r, u,
               p->unit_basis, r, fp->op.source, f->threads, f->qd);
    if (fewer)
        printf("  fast pass: %u threads, not max(workers, %u): the active range holds too few "
               "units for more shares (%u units a thread at least)\n", f->threads,
               FASTPASS_MIN_THREADS, FASTPASS_REGIONS);
    fflush(stdout);
}

/* After the pass: the guard's lag, WDPC's floor (said when it moved). */
static void fast_after(const struct fast_prep *fp, const struct fastprep_pass *p,
                       struct steady_guard *guard, struct results_fast *rf)
{
    if (!guard || !p->guard_lag)
        return;
    ds_guard_lag(DS_PREP_FAST, fp->ftl, rf->sim_checked ? rf->sim_ok : true, guard);
    if (!p->wdpc_min_fills)
        return;
    const double floor = fastprep_wdpc_floor(guard->lag_fills, *p->wdpc_min_fills,
                                             p->wdpc_given);
    if (floor == *p->wdpc_min_fills)
        return;
    if (p->who)
        printf("  WDPC: at least %g fill after the fast pass (the guard's lag; %g without the "
               "pass)\n", floor, *p->wdpc_min_fills);
    *p->wdpc_min_fills = floor;
    rf->wdpc_min_fills = floor;
}

int fastprep_run(const struct run_ctx *c, const struct fast_prep *fp,
                 const struct fastprep_pass *p, struct steady_guard *guard,
                 struct json_object **json, double *elapsed_s, char *err, size_t errlen)
{
    const uint32_t unit = p->unit ? p->unit : FASTPASS_UNIT;
    bool fewer = false;
    const unsigned threads = fastpass_threads(p->workers ? p->workers : 1, p->range.len / unit,
                                              &fewer);
    const struct fast_spec spec = {p->range, fp->op.rho, threads, PRECOND_WIPC_QD,
                                   p->compress_pct, p->seed, unit};
    if (p->who)
        fast_announce(c, fp, &spec, p, fewer);
    struct fastpass_result fr;
    struct round_metrics m;
    int rc = step_fast(c, &spec, &m, &fr, err, errlen);
    if (rc != 0)
        return rc;
    const double bytes = (double)fr.units_written * fr.unit_bytes * c->weight;
    ds_fast(c->state, bytes);
    m.state = *c->state;
    struct results_fast rf = {
        .rho = fp->op.rho, .rho_source = fp->op.source,
        .ftl = fp->ftl == DS_FTL_MODEL ? "simulated drive" : fp->ftl == DS_FTL_NONE ? "none"
                                                                                   : "unknown",
        .regions = FASTPASS_REGIONS, .threads = fr.workers, .qd = fr.qd,
        .threads_basis = fewer ? "fewer than max(workers, 4): the active range holds too few "
                                 "units for more shares"
                               : "max(workers, 4) (docs/fast-precondition.md §4)",
        .unit_bytes = fr.unit_bytes, .unit_basis = p->unit_basis,
        .stimulus_random_map = p->stimulus_map, .bytes = bytes,
        .fills = ds_fills(c->state, bytes), .elapsed_s = (double)(fr.t_end - fr.t_start) / 1e9,
        .wall_s = fr.wall_s};
    if (c->target->sim)
        fast_sim_check(c->target->sim, c->sim_last, &rf);
    fast_after(fp, p, guard, &rf);
    if (elapsed_s)
        *elapsed_s = m.elapsed_s;
    *json = results_fast_json(&rf, &m);
    metrics_free(&m);
    return 0;
}
