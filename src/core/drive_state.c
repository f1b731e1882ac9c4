/* drive_state.c — the drive's state as ptsbench knows it, and what a window may be called
 * (see drive_state.h). */
#include "core/drive_state.h"

#include "lib/units.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

const char *ds_condition_name(enum ds_condition c)
{
    switch (c) {
    case DS_PURGED: return "purged";
    case DS_WIPC: return "wipc";
    case DS_WDPC: return "wdpc";
    case DS_FAST: return "fast";
    default: return "fob";
    }
}

const char *ds_measured_name(enum ds_measured m)
{
    switch (m) {
    case DS_M_BURST: return "burst";
    case DS_M_WIPC: return "wipc";
    case DS_M_STEADY: return "steady";
    case DS_M_SATURATED: return "saturated";
    case DS_M_UNWRITTEN: return "unwritten";
    case DS_M_FAST: return "fast";
    default: return "not stable";
    }
}

const char *ds_content_name(enum ds_content c)
{
    switch (c) {
    case DS_CONTENT_EXTENTS: return "extents";
    case DS_CONTENT_PURGE: return "purge";
    case DS_CONTENT_SIMULATED: return "simulated";
    default: return "unknown";
    }
}

const char *ds_content_words(enum ds_content c)
{
    switch (c) {
    case DS_CONTENT_EXTENTS: return "the file's extents";
    case DS_CONTENT_PURGE: return "ptsbench's purge and its writes since";
    case DS_CONTENT_SIMULATED: return "the simulated drive's map";
    default: return "history unknown (not purged by this run)";
    }
}

void ds_init(struct drive_state *s, double active_bytes, bool simulated)
{
    memset(s, 0, sizeof(*s));
    s->present = true;
    s->condition = DS_FOB;
    s->simulated = simulated;
    s->active_bytes = active_bytes;
    if (simulated) {   /* a simulated drive opens fresh-out-of-box: nothing mapped */
        s->content = DS_CONTENT_SIMULATED;
        s->unwritten_bytes = active_bytes;
    }
}

void ds_purge(struct drive_state *s)
{
    s->condition = DS_PURGED;
    s->purged = true;
    s->wipc_bytes = s->fast_bytes = s->wdpc_bytes = s->written_bytes = 0;
    if (s->content == DS_CONTENT_UNKNOWN)
        s->content = DS_CONTENT_PURGE;
    s->unwritten_bytes = s->active_bytes;
}

void ds_content_set(struct drive_state *s, enum ds_content basis, double unwritten_bytes)
{
    s->content = basis;
    s->unwritten_bytes = basis == DS_CONTENT_UNKNOWN ? 0 : unwritten_bytes;
}

void ds_cover(struct drive_state *s, double bytes, enum ds_cover how)
{
    if (s->content != DS_CONTENT_PURGE && s->content != DS_CONTENT_SIMULATED)
        return;
    if (bytes <= 0 || s->active_bytes <= 0 || s->unwritten_bytes <= 0)
        return;
    if (how == DS_COVER_NEW)
        s->unwritten_bytes = s->unwritten_bytes > bytes ? s->unwritten_bytes - bytes : 0;
    else if (how == DS_COVER_UNIFORM)
        s->unwritten_bytes *= exp(-bytes / s->active_bytes);
}

double ds_unwritten_share(const struct drive_state *s)
{
    if (s->content == DS_CONTENT_UNKNOWN || s->active_bytes <= 0)
        return 0;
    double v = s->unwritten_bytes / s->active_bytes;
    return v > 1 ? 1 : v < 0 ? 0 : v;
}

void ds_reads_estimate(const struct drive_state *before, double read_bytes, struct ds_reads *out)
{
    memset(out, 0, sizeof(*out));
    if (read_bytes <= 0 || !before->present || before->content == DS_CONTENT_UNKNOWN)
        return;
    out->present = true;
    out->share = ds_unwritten_share(before);
}

bool ds_reads_labelled(const struct ds_reads *r)
{
    return r->present && r->share >= DS_UNWRITTEN_LABEL_SHARE;
}

void ds_unwritten_label(double share, char *buf, size_t len)
{
    snprintf(buf, len, "reads of never-written space (%.0f%% of reads): the device does not read "
             "its media there", 100 * share);
}

void ds_wipc(struct drive_state *s, double bytes)
{
    s->condition = DS_WIPC;
    s->wipc_bytes = bytes;   /* the last WIPC: a new one starts the preparation over */
    s->fast_bytes = s->wdpc_bytes = 0;
    s->written_bytes += bytes;
    /* WIPC writes the whole range sequentially (twice): nothing of it is left unwritten */
    if (bytes >= s->active_bytes)
        s->unwritten_bytes = 0;
    else
        ds_cover(s, bytes, DS_COVER_NEW);
}

void ds_fast(struct drive_state *s, double bytes)
{
    s->condition = DS_FAST;
    s->fast_bytes = bytes;   /* the last pass: it starts the preparation over, as a WIPC does */
    s->wipc_bytes = s->wdpc_bytes = 0;
    s->written_bytes += bytes;
    /* every unit is written fresh once in the pass's permutation; a pass cut short: its fresh
     * writes are a prefix of the permutation, at most bytes of them */
    if (bytes >= s->active_bytes)
        s->unwritten_bytes = 0;
    else
        ds_cover(s, bytes, DS_COVER_NEW);
}

void ds_stimulus(struct drive_state *s)
{
    s->wdpc_bytes = 0;
}

void ds_write(struct drive_state *s, double bytes, bool as_wdpc)
{
    s->written_bytes += bytes;
    if (as_wdpc) {
        s->wdpc_bytes += bytes;
        if (bytes > 0)
            s->condition = DS_WDPC;
    }
}

double ds_fills(const struct drive_state *s, double bytes)
{
    return s->active_bytes > 0 ? bytes / s->active_bytes : 0;
}

const char *ds_prep_words(enum ds_prep p)
{
    switch (p) {
    case DS_PREP_WIPC: return "WIPC";
    case DS_PREP_STEADY: return "WIPC + WDPC";
    case DS_PREP_FAST: return "fast pass + WDPC";
    default: return "not preconditioned";
    }
}

bool ds_prep_wdpc(enum ds_prep p)
{
    return p == DS_PREP_STEADY || p == DS_PREP_FAST;
}

enum ds_ftl ds_ftl_of(const char *kind, const char *interface)
{
    if (kind && !strcmp(kind, "simulated"))
        return DS_FTL_MODEL;
    if (kind && !strcmp(kind, "file"))
        return DS_FTL_NONE;
    if (interface && (!strcmp(interface, "zram") || !strcmp(interface, "loop")))
        return DS_FTL_NONE;
    return DS_FTL_UNKNOWN;
}

int ds_op_choose(enum ds_ftl ftl, double sim_rho, double op_rho, struct ds_op *out)
{
    if (op_rho > 0) {
        *out = (struct ds_op){op_rho, "option"};
        return 0;
    }
    if (ftl == DS_FTL_MODEL && sim_rho > 0) {
        *out = (struct ds_op){sim_rho, "simulated drive"};
        return 0;
    }
    if (ftl == DS_FTL_NONE) {
        *out = (struct ds_op){DS_FAST_RHO_NO_FTL, "default (no FTL: 0)"};
        return 0;
    }
    *out = (struct ds_op){0, "unknown"};
    return -1;
}

void ds_guard_lag(enum ds_prep prep, enum ds_ftl ftl, bool pass_checked, struct steady_guard *g)
{
    if (prep != DS_PREP_FAST)
        return;
    if (ftl == DS_FTL_NONE) {
        g->lag_basis = "1 fill: the fast pass proves nothing on a target without an FTL";
        return;
    }
    if (ftl == DS_FTL_MODEL && !pass_checked) {
        g->lag_basis = "1 fill: after the fast pass the simulated drive still had free lines "
                       "above its GC pool (the pass did not write its physical capacity)";
        return;
    }
    g->lag_fills = STEADY_GUARD_LAG_FAST;
    g->lag_basis = ftl == DS_FTL_MODEL
                       ? "0.5 fill after the fast pass (checked: the simulated drive's free lines "
                         "within its GC pool; docs/fast-precondition.md)"
                       : "0.5 fill after the fast pass at the given --op "
                         "(docs/fast-precondition.md)";
}

void ds_judge(enum ds_prep prep, bool writes, bool rule_ok,
              const struct steady_guard_result *guard, const struct steady_guard *g,
              unsigned rounds, struct ds_verdict *out)
{
    memset(out, 0, sizeof(*out));
    out->stable = rule_ok;
    if (!rule_ok) {
        out->measured = DS_M_NOT_STABLE;
        snprintf(out->label, sizeof(out->label), "not stable");
        snprintf(out->reason, sizeof(out->reason),
                 "no 5-round window met the SNIA limits (range <= 20%%, slope excursion <= 10%% "
                 "of the average) in %u round%s", rounds, rounds == 1 ? "" : "s");
        return;
    }
    if (prep == DS_PREP_NONE && writes && guard && g && guard->fills_before >= g->lag_fills) {
        out->measured = DS_M_SATURATED;
        snprintf(out->label, sizeof(out->label),
                 "stable after %.1f fills without preconditioning (write saturation)",
                 guard->fills_before);
        snprintf(out->reason, sizeof(out->reason),
                 "no preconditioning: the stimulus wrote %.2f fills of the active range from the "
                 "drive's initial state before the window (a write-saturation curve, as the "
                 "PTS's WSAT, which claims no steady state); use --precondition steady",
                 guard->fills_before);
        return;
    }
    if (prep == DS_PREP_NONE) {
        out->measured = DS_M_BURST;
        snprintf(out->label, sizeof(out->label), "stable (fresh-out-of-box / burst)");
        snprintf(out->reason, sizeof(out->reason),
                 "no preconditioning: a flat window of a drive that was not preconditioned is "
                 "its burst plateau (fresh-out-of-box, or whatever earlier writes left), not "
                 "SNIA steady state; use --precondition steady");
        return;
    }
    if (!writes) {
        out->measured = DS_M_STEADY;
        out->steady = true;
        snprintf(out->label, sizeof(out->label), "steady state (SNIA PTS rule, after %s)",
                 prep == DS_PREP_FAST ? "the fast pass" : "WIPC");
        return;
    }
    if (prep == DS_PREP_WIPC) {
        out->measured = DS_M_WIPC;
        snprintf(out->label, sizeof(out->label), "stable after WIPC (not steady state)");
        snprintf(out->reason, sizeof(out->reason),
                 "WIPC only: the stimulus did not precondition the drive (no WDPC), so a flat "
                 "window can be the spare area's burst; use --precondition steady");
        return;
    }
    if (guard && guard->passed) {
        out->measured = DS_M_STEADY;
        out->steady = true;
        snprintf(out->label, sizeof(out->label),
                 "steady state (SNIA PTS rule and fill guard, after %s)", ds_prep_words(prep));
        return;
    }
    out->measured = prep == DS_PREP_FAST ? DS_M_FAST : DS_M_WIPC;
    snprintf(out->label, sizeof(out->label), "stable%s, but inside a transient (not steady state)",
             prep == DS_PREP_FAST ? " after the fast pass + WDPC" : "");
    if (!guard || !guard->evaluated)
        snprintf(out->reason, sizeof(out->reason),
                 "the stimulus had written %.2f fills of the active range before the window; "
                 "the fill guard needs %.2f", guard ? guard->fills_before : 0.0,
                 g ? g->lag_fills : 1.0);
    else
        snprintf(out->reason, sizeof(out->reason),
                 "the window met the 5-round limits, but over the fill before it the 5-round "
                 "averages moved up to %.1f%% from the window's average (the fill guard allows "
                 "%.0f%%): the drive was still changing", 100 * guard->max_deviation,
                 100 * (g ? g->band_frac : 0.05));
}

void ds_fast_words(enum ds_ftl ftl, double fills, char *buf, size_t len)
{
    if (ftl != DS_FTL_NONE) {
        snprintf(buf, len, "the fast pass");
        return;
    }
    char f[32];
    units_format_figure(fills, UNITS_FIG_VALUE, f, sizeof(f));
    snprintf(buf, len, "the range written %s× sequentially: no FTL state to shape", f);
}

void ds_judge_ftl(enum ds_prep prep, enum ds_ftl ftl, double fast_fills, bool writes,
                  struct ds_verdict *out)
{
    if (prep != DS_PREP_FAST || ftl != DS_FTL_NONE)
        return;
    char f[32];
    units_format_figure(fast_fills, UNITS_FIG_VALUE, f, sizeof(f));
    const char *tail = writes ? " + WDPC" : "";
    if (out->measured == DS_M_STEADY)
        snprintf(out->label, sizeof(out->label),
                 "steady state (SNIA PTS rule%s, after the range written %s× sequentially%s: "
                 "no FTL state to shape)", writes ? " and fill guard" : "", f, tail);
    else if (out->measured == DS_M_FAST)
        snprintf(out->label, sizeof(out->label),
                 "stable after the range written %s× sequentially%s, but inside a transient "
                 "(not steady state; no FTL state to shape)", f, tail);
    else if (out->measured == DS_M_NOT_STABLE)
        snprintf(out->label, sizeof(out->label),
                 "not stable (after the range written %s× sequentially%s: no FTL state to "
                 "shape)", f, tail);
    char w[96];
    ds_fast_words(ftl, fast_fills, w, sizeof(w));
    size_t n = strlen(out->reason);
    if (n && n < sizeof(out->reason))
        snprintf(out->reason + n, sizeof(out->reason) - n, "; the fast pass here: %s", w);
}

void ds_judge_unwritten(double max_share, bool measured, struct ds_verdict *out)
{
    if (!(max_share >= DS_UNWRITTEN_LABEL_SHARE))
        return;
    out->measured = DS_M_UNWRITTEN;
    out->steady = false;
    ds_unwritten_label(max_share, out->label, sizeof(out->label));
    snprintf(out->reason, sizeof(out->reason),
             "up to %.0f%% of the window's reads went to space nobody wrote (%s), which the "
             "device answers without reading its media: not the drive's figure, never steady "
             "state; write the range first (a file target is laid out unless --no-layout; "
             "--precondition wipc or steady)", 100 * max_share,
             measured ? "counted by the simulated drive" : "estimated from what the range held");
}
