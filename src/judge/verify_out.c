/* verify_out.c — `ptsbench verify` below the command line: load, judge, print the claim table
 * and the JSON document (verify_out.h). */
#include "judge/verify_out.h"

#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/file.h"
#include "lib/units.h"
#include "lib/util.h"
#include "read/measure.h"
#include "judge/verify.h"

struct verify_session {
    struct verify_config cfg;
    struct verify_sheet sheet;
    struct meas_set set;
    int other;                 /* the first target that is not the sheet's drive, -1 none */
    char drive_why[ERR_LEN];   /* ... why not */
    char drive_note[2048];     /* "measured on another drive: TARGET (WHY)", "" when none */
};

/* The shared figure rule (units.h): 700000 -> "700,000", 2637 -> "2,637", 86.95 -> "87.0" */
static void fmt_num(double v, char *buf, size_t len)
{
    units_format_figure(v, UNITS_FIG_VALUE, buf, len);
}

/* "4x32 c=0%" for a point */
static void fmt_at(const struct meas_point *p, char *buf, size_t len)
{
    char c[16];
    if (p->compress_pct < 0)
        snprintf(c, sizeof(c), "?");
    else
        snprintf(c, sizeof(c), "%d%%", p->compress_pct);
    snprintf(buf, len, "%ux%u c=%s", p->workers, p->qd, c);
}

/* "4 KiB random 100/0 ~4x~32 c=~0%" for a claim: unstated conditions "?" / "any", assumed
 * ones marked '~' */
static void fmt_claim_cond(const struct verify_claim *c, char *buf, size_t len)
{
    char bs[32], t[16] = "?", q[16] = "?", comp[16];
    units_format_bs(c->bs, bs, sizeof(bs));
    if (c->threads)
        snprintf(t, sizeof(t), "%s%u", c->assumed & VERIFY_COND_THREADS ? "~" : "", c->threads);
    if (c->qd)
        snprintf(q, sizeof(q), "%s%u", c->assumed & VERIFY_COND_QD ? "~" : "", c->qd);
    if (c->compress_pct < 0)
        snprintf(comp, sizeof(comp), "any");
    else
        snprintf(comp, sizeof(comp), "%s%d%%", c->assumed & VERIFY_COND_COMPRESS ? "~" : "",
                 c->compress_pct);
    snprintf(buf, len, "%s %s %d/%d %sx%s c=%s", bs, c->sequential ? "sequential" : "random",
             c->read_pct, 100 - c->read_pct, t, q, comp);
}

struct verify_counts {
    unsigned pass, fail, none, approx;
};

static void count_results(const struct verify_result *res, size_t n, struct verify_counts *k)
{
    memset(k, 0, sizeof(*k));
    for (size_t i = 0; i < n; i++) {
        k->pass += res[i].verdict == VERIFY_PASS;
        k->fail += res[i].verdict == VERIFY_FAIL;
        k->none += res[i].verdict == VERIFY_NO_COMPARABLE;
        k->approx += res[i].match.point && !res[i].match.exact && res[i].match.why == VERIFY_WHY_NONE;
    }
}

enum { COL_CLAIM, COL_COND, COL_CSTATE, COL_CLAIMED, COL_MEASURED, COL_POINT, COL_AT,
       COL_PSTATE, COL_RATIO, COL_VERDICT, N_COLS };
#define CELL 320

/* The claimed cell: "700,000 IOPS"; per TB "68 MiB/s per TB x 1.60 TB = 108.8 MiB/s" (the
 * figure judged for this capacity), "68 MiB/s per TB" when none is known. */
static void claimed_cell(const struct verify_result *r, char *buf, size_t len)
{
    const struct verify_claim *c = r->claim;
    char fig[96], cap[32], req[64];
    verify_claim_figure(c, fig, sizeof(fig));
    if (!c->per_tb || !isfinite(r->required)) {
        snprintf(buf, len, "%s", fig);
        return;
    }
    snprintf(cap, sizeof(cap), "%.2f", r->capacity_tb);
    fmt_num(r->required, req, sizeof(req));
    snprintf(buf, len, "%s x %s TB = %s %s", fig, cap, req, c->unit.name);
}

/* One row of the table. */
static void table_row(const struct verify_result *r, bool other, char (*cell)[CELL])
{
    const struct verify_claim *c = r->claim;
    const struct meas_point *p = r->match.point;
    bool ref = !p && isfinite(r->reference);
    const struct meas_point *shown = p ? p : ref ? r->match.nearest : NULL;
    char num[64];
    snprintf(cell[COL_CLAIM], CELL, "%s", c->name);
    fmt_claim_cond(c, cell[COL_COND], CELL);
    snprintf(cell[COL_CSTATE], CELL, "%s", verify_claim_state_label(c));
    claimed_cell(r, cell[COL_CLAIMED], CELL);
    if (p && r->match.why != VERIFY_WHY_NONE) {   /* per TB, no capacity (verify.h) */
        snprintf(cell[COL_MEASURED], CELL, "n/a (no capacity)");
        snprintf(cell[COL_RATIO], CELL, "-");
    } else if (p) {
        fmt_num(r->measured, num, sizeof(num));
        snprintf(cell[COL_MEASURED], CELL, "%s %s", num, c->unit.name);
        units_format_figure(r->ratio, UNITS_FIG_RATIO, cell[COL_RATIO], CELL);
    } else if (ref) {
        fmt_num(r->reference, num, sizeof(num));
        snprintf(cell[COL_MEASURED], CELL, "(%s %s)", num, c->unit.name);
        snprintf(cell[COL_RATIO], CELL, "-");
    } else {
        snprintf(cell[COL_MEASURED], CELL, "-");
        snprintf(cell[COL_RATIO], CELL, "-");
    }
    if (shown) {
        snprintf(cell[COL_POINT], CELL, "%s%s", shown->label, ref ? " (reference)" : "");
        fmt_at(shown, cell[COL_AT], CELL);
        snprintf(cell[COL_PSTATE], CELL, "%s", meas_point_state_label(shown));
    } else {
        snprintf(cell[COL_POINT], CELL, "-");
        snprintf(cell[COL_AT], CELL, "-");
        snprintf(cell[COL_PSTATE], CELL, "-");
    }
    snprintf(cell[COL_VERDICT], CELL, "%s%s%s", verify_verdict_name(r->verdict),
             p && !r->match.exact ? "*" : "", other ? " (other drive)" : "");
}

/* Display width: UTF-8 continuation bytes (µs) take no column. */
static int text_width(const char *s)
{
    int w = 0;
    for (; *s; s++)
        w += ((unsigned char)*s & 0xC0) != 0x80;
    return w;
}

static void print_cells(char (*cell)[CELL], const int *w)
{
    for (int k = 0; k < N_COLS; k++) {
        int extra = (int)strlen(cell[k]) - text_width(cell[k]);
        bool right = k == COL_CLAIMED || k == COL_MEASURED || k == COL_RATIO;
        if (k == N_COLS - 1)
            printf("%s\n", cell[k]);
        else
            printf(right ? "%*s  " : "%-*s  ", w[k] + extra, cell[k]);
    }
}

/* Why a claim failed, in one line: what was measured against what was claimed, what the ratio
 * means and what a pass needed, and the state and conditions both were in. */
static void print_fail_reason(const struct verify_result *r, double tol)
{
    const struct verify_claim *c = r->claim;
    const struct meas_point *p = r->match.point;
    char m[64], cl[64], ratio[32], need[32], at[CELL];
    fmt_num(r->measured, m, sizeof(m));
    fmt_num(r->required, cl, sizeof(cl));
    units_format_figure(r->ratio, UNITS_FIG_RATIO, ratio, sizeof(ratio));
    fmt_at(p, at, sizeof(at));
    if (c->limit) {   /* a requirement: a floor or a ceiling, no tolerance */
        bool lat = c->unit.kind == VERIFY_KIND_LATENCY;
        char per[160] = "";
        if (c->per_tb) {
            char fig[96];
            verify_claim_figure(c, fig, sizeof(fig));
            snprintf(per, sizeof(per), " (%s x %.2f TB)", fig, r->capacity_tb);
        }
        printf("  %s: FAIL: measured %s %s is %s the required %s of %s %s%s (ratio %s = %s; a "
               "requirement is a limit, no tolerance)", c->name, m, c->unit.name,
               lat ? "above" : "below", lat ? "ceiling" : "floor", cl, c->unit.name, per, ratio,
               lat ? "required / measured" : "measured / required");
    } else if (c->unit.kind == VERIFY_KIND_LATENCY) {
        units_format_figure(1 + tol, UNITS_FIG_RATIO, need, sizeof(need));
        printf("  %s: FAIL: measured %s %s against a claimed ceiling of %s %s (ratio %s = "
               "claimed / measured; a pass needs the measured at most %s x the claim, the "
               "tolerance %g%%)", c->name, m, c->unit.name, cl, c->unit.name, ratio, need,
               tol * 100);
    } else {
        units_format_figure(1 - tol, UNITS_FIG_RATIO, need, sizeof(need));
        printf("  %s: FAIL: measured %s %s is %s of the claimed %s %s (ratio = measured / "
               "claimed; a pass needs at least %s, the tolerance %g%%)", c->name, m, c->unit.name,
               ratio, cl, c->unit.name, need, tol * 100);
    }
    printf("; %s %s, measured %s, at %s\n", c->limit ? "required" : "claimed",
           verify_claim_state_label(c), meas_point_state_label(p), at);
}

/* The notes under the table: why each failed claim failed, assumed conditions a match differs
 * on (*), and why a claim has no comparable measurement. */
static void print_notes(const struct verify_result *res, size_t n, double tol)
{
    bool any = false, assumed = false;
    for (size_t i = 0; i < n; i++) {
        const struct verify_result *r = &res[i];
        char text[512];
        assumed |= r->claim->assumed != 0;
        if (r->verdict == VERIFY_FAIL && r->match.point) {
            if (!any)
                printf("\n");
            print_fail_reason(r, tol);
            any = true;
        }
        if (r->match.point && !r->match.exact && r->match.why == VERIFY_WHY_NONE) {
            verify_match_differences(r->claim, &r->match, text, sizeof(text));
            printf("%s* %s: matched at assumed conditions it differs on: %s\n", any ? "" : "\n",
                   r->claim->name, text);
            any = true;
        } else if (!r->match.point || r->match.why != VERIFY_WHY_NONE) {
            verify_match_reason(r->claim, &r->match, text, sizeof(text));
            printf("%s  %s: no comparable measurement: %s%s\n", any ? "" : "\n",
                   r->claim->name, text,
                   isfinite(r->reference) ? " (its figure in parentheses, not judged)" : "");
            any = true;
        }
    }
    if (assumed)
        printf("%s  (~ a condition the sheet assumes: %s did not state it; it only orders the "
               "candidates)\n", any ? "" : "\n", n && res[0].claim->limit ? "the source"
                                                                       : "the vendor");
}

/* "drive:" under "results:": the target measured, and whether it is the sheet's drive */
static void print_drive(const struct verify_session *s)
{
    char target[1400];
    if (s->other >= 0) {
        verify_target_describe(&s->set.targets[s->other], target, sizeof(target));
        printf("drive:   NOT THE SHEET'S: %s: %s; every verdict marked \"(other drive)\"\n",
               target, s->drive_why);
        return;
    }
    verify_target_describe(&s->set.targets[0], target, sizeof(target));
    if (s->sheet.requirements) {
        printf("drive:   %s%s (a requirement sheet applies to any target)\n", target,
               s->set.n_targets > 1 ? ", and every other results file's target" : "");
        return;
    }
    printf("drive:   the sheet's: %s%s\n", target,
           s->set.n_targets > 1 ? ", and every other results file's target" : "");
}

static void print_table(const struct verify_session *s, const struct verify_result *res)
{
    const struct verify_sheet *sheet = &s->sheet;
    const struct meas_set *set = &s->set;
    const int n_results = (int)s->cfg.n_results;
    const char *const *results = s->cfg.results;
    const double tol = s->cfg.tolerance;
    const bool allow_missing = s->cfg.allow_missing, other = s->other >= 0;
    static const char *const head[N_COLS] = {"claim", "conditions", "claim state", "claimed",
                                             "measured", "matched point", "at", "point state",
                                             "ratio", "verdict"};
    size_t n = sheet->n;
    char(*cell)[N_COLS][CELL] = xcalloc(n + 1, sizeof(*cell));
    int w[N_COLS];
    for (int k = 0; k < N_COLS; k++) {
        snprintf(cell[n][k], CELL, "%s%s", head[k],
                 k == COL_MEASURED && set->simulated ? " (simulated)" : "");
        w[k] = text_width(cell[n][k]);
    }
    for (size_t i = 0; i < n; i++) {
        table_row(&res[i], other, cell[i]);
        for (int k = 0; k < N_COLS; k++)
            if (text_width(cell[i][k]) > w[k])
                w[k] = text_width(cell[i][k]);
    }
    struct verify_counts k;
    count_results(res, n, &k);

    printf("spec:    %s (%s), %zu claim%s\n", sheet->device, sheet->path, n, n == 1 ? "" : "s");
    printf("results:");
    for (int i = 0; i < n_results; i++)
        printf(" %s", results[i]);
    printf(" (%u file%s, %zu points, device %s%s)\n", set->n_files, set->n_files == 1 ? "" : "s",
           set->n, set->device[0] ? set->device : "?",
           set->simulated ? "; simulated drive: measured figures are the model's" : "");
    print_drive(s);
    if (sheet->requirements)
        printf("tolerance none: a requirement sheet's figures are limits (floors for IOPS and "
               "throughput, ceilings for latencies); per TB: decimal TB (10^12 bytes) of the "
               "capacity the results record\n\n");
    else
        printf("tolerance %g%%\n\n", tol * 100);
    print_cells(cell[n], w);
    for (size_t i = 0; i < n; i++)
        print_cells(cell[i], w);
    print_notes(res, n, tol);
    const char *word = k.fail ? "FAIL"
                       : k.none && !allow_missing
                           ? "INCOMPLETE (--allow-missing accepts claims without a comparable "
                             "measurement)"
                       : k.pass ? "PASS" : "nothing verified";
    if (other)
        printf("\n  (other drive) every verdict: %s\n", s->drive_note);
    char tol_words[64];
    if (sheet->requirements)
        snprintf(tol_words, sizeof(tol_words), "limits, no tolerance");
    else
        snprintf(tol_words, sizeof(tol_words), "tolerance %g%%", tol * 100);
    printf("\n%zu claim%s: %u pass, %u fail, %u no comparable measurement (%u matched at "
           "differing assumed conditions, *); %s: %s%s\n",
           n, n == 1 ? "" : "s", k.pass, k.fail, k.none, k.approx, tol_words, word,
           other ? " (measured on another drive)" : "");
    free(cell);
}

static struct json_object *jd(double v)
{
    return isfinite(v) ? json_object_new_double(v) : NULL;
}

static struct json_object *jstr_or_null(const char *s)
{
    return s && *s ? json_object_new_string(s) : NULL;
}

/* A measured point: its identity, conditions, state and the claimed metric's figure. */
static struct json_object *point_json(const struct meas_point *p, enum meas_metric metric)
{
    struct json_object *po = json_object_new_object();
    json_object_object_add(po, "key", json_object_new_string(p->key));
    json_object_object_add(po, "label", json_object_new_string(p->label));
    json_object_object_add(po, "source", json_object_new_string(p->source));
    json_object_object_add(po, "bs", json_object_new_int64(p->bs));
    json_object_object_add(po, "read_pct", json_object_new_int(p->read_pct));
    json_object_object_add(po, "random_pct", json_object_new_int(p->random_pct));
    json_object_object_add(po, "workers", json_object_new_int((int)p->workers));
    json_object_object_add(po, "qd", json_object_new_int((int)p->qd));
    json_object_object_add(po, "outstanding", json_object_new_int((int)(p->workers * p->qd)));
    json_object_object_add(po, "compress_pct",
                           p->compress_pct >= 0 ? json_object_new_int(p->compress_pct) : NULL);
    json_object_object_add(po, "state", json_object_new_string(meas_point_state_name(p)));
    json_object_object_add(po, "state_label", json_object_new_string(meas_point_state_label(p)));
    json_object_object_add(po, "rounds", json_object_new_int((int)p->rounds));
    json_object_object_add(po, "value", jd(p->v[metric]));
    json_object_object_add(po, "spread", jd(p->spread[metric]));
    return po;
}

static struct json_object *conditions_json(const struct verify_claim *c)
{
    struct json_object *cond = json_object_new_object();
    json_object_object_add(cond, "bs", json_object_new_int64(c->bs));
    json_object_object_add(cond, "pattern",
                           json_object_new_string(c->sequential ? "sequential" : "random"));
    json_object_object_add(cond, "read_pct", json_object_new_int(c->read_pct));
    json_object_object_add(cond, "threads", c->threads ? json_object_new_int((int)c->threads)
                                                       : NULL);
    json_object_object_add(cond, "qd", c->qd ? json_object_new_int((int)c->qd) : NULL);
    json_object_object_add(cond, "outstanding", c->qd && c->threads
                                                    ? json_object_new_int((int)(c->qd * c->threads))
                                                    : NULL);
    json_object_object_add(cond, "compress_pct",
                           c->compress_pct >= 0 ? json_object_new_int(c->compress_pct) : NULL);
    json_object_object_add(cond, "state",
                           json_object_new_string(c->state == MEAS_STATE_UNKNOWN
                                                      ? "any" : meas_state_name(c->state)));
    struct json_object *as = json_object_new_array();
    static const struct {
        unsigned cond;
        const char *name;
    } names[] = {{VERIFY_COND_QD, "qd"}, {VERIFY_COND_THREADS, "threads"},
                 {VERIFY_COND_COMPRESS, "compress"}};
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
        if (c->assumed & names[i].cond)
            json_object_array_add(as, json_object_new_string(names[i].name));
    json_object_object_add(cond, "assumed", as);
    return cond;
}

static struct json_object *claim_json(const struct verify_result *r, const char *drive_note)
{
    const struct verify_claim *c = r->claim;
    const struct meas_point *p = r->match.point;
    struct json_object *o = json_object_new_object();
    char buf[512];
    json_object_object_add(o, "name", json_object_new_string(c->name));
    json_object_object_add(o, "metric", json_object_new_string(meas_metric_name(c->metric)));
    json_object_object_add(o, "metric_as_written", json_object_new_string(c->metric_text));
    json_object_object_add(o, "claimed", jd(c->value));
    json_object_object_add(o, "unit", json_object_new_string(c->unit.name));
    json_object_object_add(o, "claimed_base", jd(c->claimed));
    json_object_object_add(o, "per", c->per_tb ? json_object_new_string("TB") : NULL);
    json_object_object_add(o, "capacity_tb", jd(r->capacity_tb));
    json_object_object_add(o, "required", jd(r->required));
    json_object_object_add(o, "limit", json_object_new_boolean(c->limit));
    json_object_object_add(o, "base_unit", json_object_new_string(verify_base_unit(c->unit.kind)));
    json_object_object_add(o, "lower_is_better",
                           json_object_new_boolean(c->unit.kind == VERIFY_KIND_LATENCY));
    json_object_object_add(o, "conditions", conditions_json(c));
    verify_claim_conditions(c, buf, sizeof(buf));
    json_object_object_add(o, "conditions_text", json_object_new_string(buf));
    json_object_object_add(o, "source", json_object_new_string(c->source));
    if (c->note[0])
        json_object_object_add(o, "note", json_object_new_string(c->note));
    json_object_object_add(o, "claim_state", json_object_new_string(
        c->state == MEAS_STATE_UNKNOWN ? "any" : meas_state_name(c->state)));
    json_object_object_add(o, "claim_state_label",
                           json_object_new_string(verify_claim_state_label(c)));
    json_object_object_add(o, "point_state",
                           p ? json_object_new_string(meas_point_state_name(p)) : NULL);
    json_object_object_add(o, "point_state_label",
                           p ? json_object_new_string(meas_point_state_label(p)) : NULL);
    json_object_object_add(o, "verdict", json_object_new_string(verify_verdict_name(r->verdict)));
    json_object_object_add(o, "other_drive", json_object_new_boolean(*drive_note != '\0'));
    json_object_object_add(o, "verdict_note", jstr_or_null(drive_note));
    verify_match_reason(c, &r->match, buf, sizeof(buf));
    json_object_object_add(o, "reason", jstr_or_null(buf));
    json_object_object_add(o, "measured", jd(r->measured));
    json_object_object_add(o, "measured_base", jd(r->measured_base));
    json_object_object_add(o, "ratio", jd(r->ratio));
    json_object_object_add(o, "exact_match", json_object_new_boolean(p && r->match.exact));
    verify_match_differences(c, &r->match, buf, sizeof(buf));
    json_object_object_add(o, "assumed_differences", p ? json_object_new_string(buf) : NULL);
    json_object_object_add(o, "point", p ? point_json(p, c->metric) : NULL);
    /* without a comparable point: the nearest (never judged), and for a burst claim with only
     * steady-state data its figure, for reference */
    const struct meas_point *q = p ? NULL : r->match.nearest;
    json_object_object_add(o, "nearest", q ? point_json(q, c->metric) : NULL);
    struct json_object *ref = NULL;
    if (q && isfinite(r->reference)) {
        ref = json_object_new_object();
        json_object_object_add(ref, "measured", jd(r->reference));
        json_object_object_add(ref, "measured_base", jd(r->reference_base));
        json_object_object_add(ref, "state", json_object_new_string(meas_point_state_name(q)));
        json_object_object_add(ref, "judged", json_object_new_boolean(false));
    }
    json_object_object_add(o, "reference", ref);
    return o;
}

/* The sheet's drive, every results file's target and whether it is that drive. */
static struct json_object *drive_json(const struct verify_session *s)
{
    const struct verify_sheet *sh = &s->sheet;
    struct json_object *d = json_object_new_object(), *so = json_object_new_object();
    json_object_object_add(so, "device", json_object_new_string(sh->device));
    struct json_object *models = json_object_new_array();
    for (unsigned i = 0; i < sh->n_models; i++)
        json_object_array_add(models, json_object_new_string(sh->models[i]));
    json_object_object_add(so, "reported_models", models);
    json_object_object_add(so, "capacity", jstr_or_null(sh->capacity_text));
    json_object_object_add(so, "capacity_bytes",
                           sh->capacity ? json_object_new_int64((int64_t)sh->capacity) : NULL);
    json_object_object_add(so, "sim_preset", jstr_or_null(sh->sim_preset));
    json_object_object_add(d, "sheet", so);
    struct json_object *ta = json_object_new_array();
    for (unsigned i = 0; i < s->set.n_targets; i++) {
        const struct meas_target *t = &s->set.targets[i];
        char why[ERR_LEN];
        bool ok = verify_drive_match(sh, t, why, sizeof(why));
        struct json_object *to = json_object_new_object();
        json_object_object_add(to, "results", json_object_new_string(t->source));
        json_object_object_add(to, "kind", jstr_or_null(t->kind));
        json_object_object_add(to, "path", jstr_or_null(t->path));
        json_object_object_add(to, "model", jstr_or_null(t->model));
        json_object_object_add(to, "preset", jstr_or_null(t->preset));
        json_object_object_add(to, "capacity_bytes",
                               t->capacity ? json_object_new_int64((int64_t)t->capacity) : NULL);
        json_object_object_add(to, "matches", json_object_new_boolean(ok));
        json_object_object_add(to, "reason", ok ? NULL : json_object_new_string(why));
        json_object_array_add(ta, to);
    }
    json_object_object_add(d, "targets", ta);
    json_object_object_add(d, "matches", json_object_new_boolean(s->other < 0));
    json_object_object_add(d, "any_drive", json_object_new_boolean(s->cfg.any_drive));
    json_object_object_add(d, "capacity_tolerance_pct",
                           json_object_new_double(VERIFY_CAPACITY_TOLERANCE * 100));
    json_object_object_add(d, "note", jstr_or_null(s->drive_note));
    return d;
}

static int print_json(const struct verify_session *s, const struct verify_result *res,
                      int status, char *err, size_t errlen)
{
    const struct verify_sheet *sheet = &s->sheet;
    const struct meas_set *set = &s->set;
    const int n_results = (int)s->cfg.n_results;
    const char *const *results = s->cfg.results;
    const double tol = s->cfg.tolerance;
    const bool allow_missing = s->cfg.allow_missing;
    const char *path = s->cfg.json_path;
    struct json_object *root = json_object_new_object();
    json_object_object_add(root, "schema", json_object_new_string("ptsbench.verify"));
    json_object_object_add(root, "schema_version", json_object_new_int(2));
    json_object_object_add(root, "ptsbench_version", json_object_new_string(PTSBENCH_VERSION));
    struct json_object *sp = json_object_new_object();
    json_object_object_add(sp, "path", json_object_new_string(sheet->path));
    json_object_object_add(sp, "device", json_object_new_string(sheet->device));
    json_object_object_add(sp, "source", json_object_new_string(sheet->source));
    json_object_object_add(sp, "kind", json_object_new_string(sheet->requirements
                                                                  ? "requirements" : "drive"));
    json_object_object_add(root, "spec", sp);
    struct json_object *ra = json_object_new_array();
    for (int i = 0; i < n_results; i++)
        json_object_array_add(ra, json_object_new_string(results[i]));
    json_object_object_add(root, "results", ra);
    struct json_object *me = json_object_new_object();
    json_object_object_add(me, "device", json_object_new_string(set->device));
    json_object_object_add(me, "simulated", json_object_new_boolean(set->simulated));
    json_object_object_add(me, "files", json_object_new_int((int)set->n_files));
    json_object_object_add(me, "points", json_object_new_int64((int64_t)set->n));
    json_object_object_add(root, "measured", me);
    json_object_object_add(root, "drive", drive_json(s));
    json_object_object_add(root, "tolerance_pct", json_object_new_double(tol * 100));
    json_object_object_add(root, "allow_missing", json_object_new_boolean(allow_missing));
    json_object_object_add(root, "match_rule", json_object_new_string(VERIFY_MATCH_RULE));
    json_object_object_add(root, "verdict_rule", json_object_new_string(
        "pass when measured >= (1 - tolerance) x claimed for IOPS and throughput, measured <= "
        "(1 + tolerance) x claimed for latency; ratio = measured / claimed (latency: claimed / "
        "measured); no comparable measurement when no point meets the claim's conditions "
        "(never a pass; exit status 1 unless allow_missing)"));
    struct json_object *arr = json_object_new_array();
    for (size_t i = 0; i < sheet->n; i++)
        json_object_array_add(arr, claim_json(&res[i], s->drive_note));
    json_object_object_add(root, "claims", arr);
    struct verify_counts k;
    count_results(res, sheet->n, &k);
    struct json_object *sum = json_object_new_object();
    json_object_object_add(sum, "claims", json_object_new_int64((int64_t)sheet->n));
    json_object_object_add(sum, "pass", json_object_new_int((int)k.pass));
    json_object_object_add(sum, "fail", json_object_new_int((int)k.fail));
    json_object_object_add(sum, "no_comparable", json_object_new_int((int)k.none));
    json_object_object_add(sum, "approximate", json_object_new_int((int)k.approx));
    json_object_object_add(root, "summary", sum);
    json_object_object_add(root, "exit_status", json_object_new_int(status));
    const char *text = json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY |
                                                              JSON_C_TO_STRING_NOSLASHESCAPE);
    int rc = 0;
    if (!strcmp(path, "-")) {
        puts(text);
    } else {
        const char *parts[] = {text, "\n"};
        const size_t lens[] = {strlen(text), 1};
        rc = file_write_atomic(path, parts, lens, 2, true, err, errlen);
    }
    json_object_put(root);
    return rc;
}

void verify_session_free(struct verify_session *s)
{
    if (!s)
        return;
    meas_free(&s->set);
    verify_sheet_free(&s->sheet);
    free(s);
}

/* Whether every results file was measured on the sheet's drive: refused (one line in err,
 * -1) when not, unless any_drive, which keeps the note that marks every verdict. */
static int drive_decide(struct verify_session *s, char *err, size_t errlen)
{
    s->other = verify_drive_check(&s->sheet, &s->set, s->drive_why, sizeof(s->drive_why));
    if (s->other < 0)
        return 0;
    const struct meas_target *t = &s->set.targets[s->other];
    if (!s->cfg.any_drive) {
        verify_drive_refusal(&s->sheet, t, s->drive_why, err, errlen);
        return -1;
    }
    char target[1400];
    verify_target_describe(t, target, sizeof(target));
    snprintf(s->drive_note, sizeof(s->drive_note), "measured on another drive: %s (%s)", target,
             s->drive_why);
    return 0;
}

struct verify_session *verify_prepare(const struct verify_config *cfg, int *code, char *err,
                                      size_t errlen)
{
    struct verify_session *s = xcalloc(1, sizeof(*s));
    s->cfg = *cfg;
    *code = EXIT_USAGE;
    char why[ERR_LEN];
    if (verify_sheet_load(cfg->spec_path, &s->sheet, why, sizeof(why)) != 0) {
        errf(err, errlen, "--spec %s: %s", cfg->spec, why);
        free(s);
        return NULL;
    }
    for (unsigned i = 0; i < cfg->n_results; i++) {
        struct meas_set one;
        if (meas_load(cfg->results[i], &one, err, errlen) != 0) {
            verify_session_free(s);
            return NULL;
        }
        meas_merge(&s->set, &one);
    }
    if (s->set.n_incomplete && !cfg->allow_incomplete) {   /* a killed run proves nothing */
        errf(err, errlen, "%s%s (add --allow-incomplete to verify it)", s->set.incomplete,
             s->set.n_incomplete > 1 ? ", and more files" : "");
        verify_session_free(s);
        *code = 1;
        return NULL;
    }
    if (drive_decide(s, err, errlen) != 0) {
        verify_session_free(s);
        return NULL;   /* *code: 2, bad input */
    }
    return s;
}

int verify_execute(struct verify_session *s, char *err, size_t errlen)
{
    const struct verify_config *c = &s->cfg;
    struct verify_result *res = xcalloc(s->sheet.n, sizeof(*res));
    bool failed = false;
    for (size_t i = 0; i < s->sheet.n; i++) {
        verify_check_set(&s->sheet.c[i], &s->set, c->tolerance, &res[i]);
        failed |= res[i].verdict == VERIFY_FAIL ||
                  (res[i].verdict == VERIFY_NO_COMPARABLE && !c->allow_missing);
    }
    int status = failed ? 1 : EXIT_OK;
    const bool json_out = c->json_path && !strcmp(c->json_path, "-");
    if (!json_out)
        print_table(s, res);
    char why[ERR_LEN];
    if (c->json_path && print_json(s, res, status, why, sizeof(why)) != 0) {
        errf(err, errlen, "--json %s: %s", c->json_path, why);
        status = EXIT_USAGE;
    }
    free(res);
    return status;
}
