/* plot_state.c — the drive's state and the simulated tag in words, for chart titles and legends
 * (plot*.c) and for the report's sentences and tables (report.c); see plot.h, "State words".
 *
 * It reads what src/core/drive_state.h records: a window's "measured_state", "label" and "reason"
 * (a run's steady_state and last_window, a profile point's result), the run's
 * "preconditioning".mode, the rounds' "phase" and "state", and target.simulated. Results from
 * before those fields give "" for the state, and their charts and sentences read as before. */
#include <json-c/json.h>
#include <stdio.h>
#include <string.h>

#include "lib/util.h"
#include "plot/chart.h"
#include "read/load.h"

bool plot_doc_simulated(struct json_object *doc) { return read_simulated(doc); }

const char *plot_doc_prep(struct json_object *doc)
{
    const char *m = jp_str(doc, "preconditioning.mode");
    return m ? m : jp_str(doc, "run.precondition");
}

const char *plot_doc_prep_tag(struct json_object *doc)
{
    const char *prep = plot_doc_prep(doc), *ftl = jp_str(doc, "preconditioning.fast.ftl");
    if (prep && !strcmp(prep, "fast") && ftl && !strcmp(ftl, "none"))
        return "fast-no-ftl";
    return prep;
}

/* One row per measured state (drive_state.h: ds_measured_name); prep "steady" is WIPC + WDPC,
 * "fast" the fast pass + WDPC, "fast-no-ftl" the same on a target without an FTL (issue 48:
 * there the pass is the range written over sequentially, never "fast pass" bare). "fast" is
 * measured after the fast pass where results before it said "wipc". */
#define NO_FTL_PASS "the range written over sequentially + WDPC"
static const struct {
    const char *measured;
    const char *none, *wipc, *steady, *fast, *fast_no_ftl;   /* by the preparation; NULL: none */
} state_words[] = {
    {"steady", "steady state", NULL, NULL, "steady state after the fast pass + WDPC",
     "steady state after " NO_FTL_PASS " (no FTL state to shape)"},
    {"burst", "burst, not preconditioned", NULL, NULL, NULL, NULL},
    {"saturated", "write saturation, not preconditioned", NULL, NULL, NULL, NULL},
    {"wipc", "after WIPC, not steady state", NULL,
     "transient after WIPC + WDPC, not steady state",
     "transient after the fast pass + WDPC, not steady state",
     "transient after " NO_FTL_PASS ", not steady state (no FTL state to shape)"},
    {"fast", "transient after the fast pass + WDPC, not steady state", NULL, NULL, NULL,
     "transient after " NO_FTL_PASS ", not steady state (no FTL state to shape)"},
    {"not stable", "not preconditioned, not stable", "after WIPC, not stable",
     "after WIPC + WDPC, not stable", "after the fast pass + WDPC, not stable",
     "after " NO_FTL_PASS ", not stable (no FTL state to shape)"},
};

void plot_state_tag(struct json_object *verdict, const char *prep, char *buf, size_t len)
{
    const char *ms = jp_str(verdict, "measured_state");
    buf[0] = '\0';
    if (!ms)
        return;
    for (size_t i = 0; i < sizeof(state_words) / sizeof(state_words[0]); i++) {
        if (strcmp(state_words[i].measured, ms))
            continue;
        const char *w = state_words[i].none;
        if (prep && !strcmp(prep, "wipc") && state_words[i].wipc)
            w = state_words[i].wipc;
        else if (prep && !strcmp(prep, "steady") && state_words[i].steady)
            w = state_words[i].steady;
        else if (prep && !strcmp(prep, "fast") && state_words[i].fast)
            w = state_words[i].fast;
        else if (prep && !strcmp(prep, "fast-no-ftl") && state_words[i].fast_no_ftl)
            w = state_words[i].fast_no_ftl;
        str_copy(buf, len, w);
        return;
    }
    str_copy(buf, len, ms);   /* a state this reader does not know yet: its own name */
}

static void point_tag(struct json_object *p, char *buf, size_t len)
{
    plot_state_tag(jp_get(p, "result"), jp_str(p, "precondition"), buf, len);
}

void plot_doc_state_tag(struct json_object *doc, char *buf, size_t len)
{
    buf[0] = '\0';
    const char *schema = read_schema(doc);
    if (!strcmp(schema, "ptsbench.run")) {
        plot_state_tag(jp_get(doc, "steady_state"), plot_doc_prep_tag(doc), buf, len);
        return;
    }
    if (strcmp(schema, "ptsbench.profile"))
        return;
    struct json_object *pts = jp_arr(doc, "points");
    char first[96] = "", t[96];
    for (size_t i = 0; i < jp_len(pts); i++) {
        struct json_object *p = jp_idx(pts, i);
        if (!jp_get(p, "result"))
            continue;
        point_tag(p, t, sizeof(t));
        if (!t[0])
            return;   /* an old point: no state words */
        if (!first[0])
            str_copy(first, sizeof(first), t);
        else if (strcmp(first, t))
            return;   /* points in several states: each says its own */
    }
    str_copy(buf, len, first);
}

void plot_window_word(struct json_object *var, char *buf, size_t len)
{
    const char *label = jp_str(var, "label");
    struct json_object *w = jp_get(var, "window");
    if (!label || !jp_str(var, "measured_state")) {   /* old results, suite variables */
        str_copy(buf, len, jp_true(jp_get(w, "steady")) ? "steady" : "not steady");
        return;
    }
    if (jp_true(jp_get(var, "reached")))
        str_copy(buf, len, "steady state");
    else if (jp_true(jp_get(w, "steady")))   /* the rule passed: say what it is */
        snprintf(buf, len, "%s%s", label, strstr(label, "not steady") ? "" : ", not steady state");
    else
        str_copy(buf, len, "not stable");
}

const char *plot_condition_words(const char *condition, bool simulated)
{
    static const struct {
        const char *cond, *words;
    } rows[] = {
        {"purged", "purged"},
        {"wipc", "after WIPC"},
        {"wdpc", "WIPC + WDPC"},
        {"fast", "after the fast pass"},
    };
    if (!condition)
        return "";
    for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
        if (!strcmp(rows[i].cond, condition))
            return rows[i].words;
    if (!strcmp(condition, "fob"))   /* a real device's earlier history is unknown */
        return simulated ? "fresh-out-of-box" : "not preconditioned (history unknown)";
    return condition;
}

bool plot_round_is_wdpc(struct json_object *round)
{
    const char *ph = jp_str(round, "phase");
    return ph && !strcmp(ph, "wdpc");
}

void plot_title_tag(char *title, size_t len, const char *tag)
{
    size_t l = strlen(title);
    if (tag && *tag && l + 4 < len)
        snprintf(title + l, len - l, " (%s)", tag);
}

/* ---- suites: the PTS tests ran after a purge; IOPS, TP and LAT after WIPC, their test loop
 * being the WDPC (PTS 2.0.2 step 3); HIR and DIRTH precondition with their stimulus to steady
 * state; WSAT and XSR start from the purged drive. ---- */

/* Over every input holding the test: 1 when the flag at path is true in all of its subtests,
 * 0 when false in all, 2 when mixed, -1 when no subtest has it. */
static int all_flag(struct plot_ctx *c, const char *test, const char *path)
{
    int seen = -1;
    for (size_t i = 0; i < c->n_in; i++) {
        struct json_object *subs = jp_arr(plot_suite_test(c->in[i].doc, test), "subtests");
        for (size_t j = 0; j < jp_len(subs); j++) {
            struct json_object *v = jp_at(jp_idx(subs, j), path);
            if (!json_object_is_type(v, json_type_boolean))
                continue;
            int b = json_object_get_boolean(v) ? 1 : 0;
            seen = seen < 0 ? b : seen == b ? b : 2;
        }
    }
    return seen;
}

/* The preconditioning kind of the test's first subtest ("wipc", "steady"), or NULL. */
static const char *precondition_kind(struct plot_ctx *c, const char *test)
{
    for (size_t i = 0; i < c->n_in; i++) {
        const char *k = jp_str(jp_idx(jp_arr(plot_suite_test(c->in[i].doc, test), "subtests"), 0),
                               "precondition.kind");
        if (k)
            return k;
    }
    return NULL;
}

void plot_suite_state_tag(struct plot_ctx *c, const char *test, enum plot_suite_view view,
                          char *buf, size_t len)
{
    buf[0] = '\0';
    const char *kind = precondition_kind(c, test);
    int pre = all_flag(c, test, "precondition.steady_state.reached");
    int ss = all_flag(c, test, "steady_state.reached");
    const char *pre_words = pre == 1 ? "after preconditioning to steady state"
                          : pre == 0 ? "after preconditioning, steady state NOT reached" : "";
    if (view == PS_PRECONDITION) {
        str_copy(buf, len, pre == 1 ? "purged, then the stimulus to steady state"
                          : pre == 0 ? "purged, then the stimulus; steady state NOT reached" : "");
        return;
    }
    if (kind && !strcmp(kind, "wipc")) {
        if (view == PS_ROUNDS)
            str_copy(buf, len, "purge, WIPC, then the test loop as WDPC");
        else
            str_copy(buf, len, ss == 1   ? "steady state"
                               : ss == 0 ? "steady state NOT reached"
                                         : "");
        return;
    }
    if (kind && !strcmp(kind, "steady")) {
        if (view == PS_RESULT && ss >= 0 && ss <= 1)
            str_copy(buf, len, ss == 1 ? "steady state" : "steady state NOT reached");
        else
            str_copy(buf, len, pre_words);
        return;
    }
    if (plot_suite_presentation(c, test) == PTS_REPORT_WSAT)
        str_copy(buf, len, "from the purged drive, not preconditioned");
    else if (!kind && all_flag(c, test, "purge.ran") == 1)
        str_copy(buf, len, "after a purge, not preconditioned");
}
