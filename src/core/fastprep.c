#include "core/fastprep.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/fastpass.h"
#include "core/results.h"
#include "core/worker.h"
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

/* The simulated drive after the pass (as core/run.c's run_fast_check): its free lines no more
 * than the GC pool, its write amplification recorded. */
static void fast_sim_check(const struct sim_world *w, const struct sim_stats *last,
                           struct results_fast *f)
{
    struct sim_info in;
    sim_info(w->dev, &in);
    const double pct = ceil(w->params.fg_lines_pct / 100.0 * in.lines_per_ctl - 1e-9);
    const double fg = pct > w->params.fg_lines_min ? pct : w->params.fg_lines_min;
    f->rho_simulator = in.rho_eff;
    f->sim_checked = true;
    f->sim_wa = last->write_amplification;
    f->sim_free_lines = last->free_lines;
    f->sim_pool_lines = (unsigned long long)(in.n_ctl * (fg + SIM_POOL_EXTRA_LINES));
    f->sim_ok = f->sim_free_lines <= f->sim_pool_lines && f->sim_wa >= 1;
}

static void fast_announce(const struct run_ctx *c, const struct fast_prep *fp,
                          const struct fast_spec *f, const char *who)
{
    char r[32];
    units_format_figure(fp->op.rho, UNITS_FIG_VALUE, r, sizeof(r));
    if (step_fast_no_ftl(c->target))
        printf("%sfast pass (no FTL here: the same as writing the range): (1 + %s) x the active "
               "range sequentially in WIPC's writes (up to 128 KiB), %u x QD %u\n", who, r, f->threads, f->qd);
    else
        printf("%sfast pass: (1 + %s) x the active range, regions invalidated to greedy GC's "
               "equilibrium (rho %s: %s), %u x QD %u\n", who, r, r, fp->op.source, f->threads,
               f->qd);
    fflush(stdout);
}

int fastprep_run(const struct run_ctx *c, const struct fast_prep *fp, const struct fast_spec *f,
                 const char *who, bool random_stimulus, struct steady_guard *guard,
                 struct json_object **json, double *elapsed_s, char *err, size_t errlen)
{
    struct fast_spec spec = *f;
    spec.rho = fp->op.rho;
    if (who)
        fast_announce(c, fp, &spec, who);
    struct fastpass_result fr;
    struct round_metrics m;
    int rc = step_fast(c, &spec, &m, &fr, err, errlen);
    if (rc != 0)
        return rc;
    const double bytes = (double)fr.units_written * FASTPASS_UNIT * c->weight;
    ds_fast(c->state, bytes);
    m.state = *c->state;
    struct results_fast rf = {.rho = fp->op.rho, .rho_source = fp->op.source,
                              .ftl = fp->ftl == DS_FTL_MODEL  ? "simulated drive"
                                     : fp->ftl == DS_FTL_NONE ? "none"
                                                              : "unknown",
                              .regions = FASTPASS_REGIONS, .threads = fr.workers, .qd = fr.qd,
                              .bytes = bytes, .fills = ds_fills(c->state, bytes),
                              .elapsed_s = (double)(fr.t_end - fr.t_start) / 1e9,
                              .wall_s = fr.wall_s};
    if (c->target->sim)
        fast_sim_check(c->target->sim, c->sim_last, &rf);
    if (guard && random_stimulus)
        ds_guard_lag(DS_PREP_FAST, fp->ftl, rf.sim_checked ? rf.sim_ok : true, guard);
    if (elapsed_s)
        *elapsed_s = m.elapsed_s;
    *json = results_fast_json(&rf, &m);
    metrics_free(&m);
    return 0;
}
