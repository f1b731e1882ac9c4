/* gate_session.c — `ptsbench gate` below the command line (gate_session.h). */
#include "judge/gate_session.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "judge/baseline.h"
#include "judge/gate.h"
#include "judge/junit.h"

struct gate_session {
    struct gate_config cfg;
    struct gate_baseline_plan plan;
    struct gate_result r;
};

void gate_session_free(struct gate_session *s)
{
    if (!s)
        return;
    gate_result_free(&s->r);
    free(s);
}

/* Both sides; a killed, failed or still-running run is not a measurement to gate on. */
static int load_sides(const struct gate_config *c, struct meas_set *base, struct meas_set *cur,
                      int *code, char *err, size_t errlen)
{
    char why[ERR_LEN];
    *code = EXIT_USAGE;
    if (meas_load(c->baseline, base, why, sizeof(why)) != 0)
        return errf(err, errlen, "--baseline: %s", why);
    if (meas_load(c->current, cur, why, sizeof(why)) != 0)
        return errf(err, errlen, "--current: %s", why);
    for (int k = 0; k < 2 && !c->allow_incomplete; k++) {
        const struct meas_set *m = k ? cur : base;
        if (!m->n_incomplete)
            continue;
        *code = 1;
        return errf(err, errlen, "--%s: %s%s (add --allow-incomplete to gate on it)",
                    k ? "current" : "baseline", m->incomplete,
                    m->n_incomplete > 1 ? ", and more files" : "");
    }
    return 0;
}

/* Compare base with cur into a new session; NULL (with *code 2) when nothing compares. */
static struct gate_session *compare(const struct gate_config *cfg, const struct meas_set *base,
                                    const struct meas_set *cur, int *code, char *err,
                                    size_t errlen)
{
    struct gate_session *s = xcalloc(1, sizeof(*s));
    s->cfg = *cfg;
    struct gate_options o = {
        .tolerance = cfg->tolerance,
        .metrics = cfg->n_metrics > 0 ? cfg->metrics : NULL,
        .n_metrics = cfg->n_metrics,
        .baseline_path = cfg->baseline,
        .current_path = cfg->current,
    };
    gate_run(base, cur, &o, &s->r);
    if (s->r.compared == 0) {
        char ms[512] = "";
        for (size_t k = 0; k < s->r.n_metrics; k++) {
            size_t l = strlen(ms);
            snprintf(ms + l, sizeof(ms) - l, "%s%s", k ? "," : "",
                     meas_metric_name(s->r.metrics[k]));
        }
        errf(err, errlen, "nothing to compare: no point of %s has any of the metrics %s",
             cfg->baseline, ms);
        *code = EXIT_USAGE;
        gate_session_free(s);
        return NULL;
    }
    return s;
}

struct gate_session *gate_prepare(const struct gate_config *cfg, int *code, char *err,
                                  size_t errlen)
{
    struct meas_set base = {0}, cur = {0};
    struct gate_baseline_plan plan = {0};
    int rc = load_sides(cfg, &base, &cur, code, err, errlen);
    if (rc == 0 && cfg->update &&
        gate_baseline_plan(cfg->current, cfg->update, &plan, err, errlen) != 0) {
        *code = EXIT_USAGE;
        rc = -1;
    }
    struct gate_session *s = rc == 0 ? compare(cfg, &base, &cur, code, err, errlen) : NULL;
    if (s)
        s->plan = plan;
    meas_free(&base);
    meas_free(&cur);
    return s;
}

struct gate_session *gate_prepare_sets(const struct gate_config *cfg,
                                       const struct meas_set *base, const struct meas_set *cur,
                                       int *code, char *err, size_t errlen)
{
    if (cur->n_incomplete && !cfg->allow_incomplete) {
        *code = 1;
        errf(err, errlen, "--current: %s%s (add --allow-incomplete to gate on it)",
             cur->incomplete, cur->n_incomplete > 1 ? ", and more files" : "");
        return NULL;
    }
    return compare(cfg, base, cur, code, err, errlen);
}

/* --update-baseline: copy current over the baseline when the gate passes (or is forced). */
static int update_baseline(const struct gate_session *s, FILE *tf)
{
    const struct gate_config *c = &s->cfg;
    if (s->r.failed && !c->force_update) {
        fprintf(tf, "baseline not updated: the gate failed (--force-update writes it "
                "anyway)\n");
        return 0;
    }
    char err[ERR_LEN];
    size_t n_files = 0;
    if (gate_baseline_update(c->current, &s->plan, &n_files, err, sizeof(err)) != 0) {
        fprintf(stderr, "ptsbench gate: --update-baseline: %s\n", err);
        return -1;
    }
    fprintf(tf, "baseline updated: %s (%zu results file%s)%s\n", s->plan.dest, n_files,
            n_files == 1 ? "" : "s", s->r.failed ? ", forced although the gate failed" : "");
    return 0;
}

int gate_execute(struct gate_session *s)
{
    const struct gate_config *c = &s->cfg;
    char err[ERR_LEN];
    bool json_stdout = c->json && !strcmp(c->json, "-");
    FILE *tf = json_stdout ? stderr : stdout;
    gate_write_text(tf, &s->r, c->quiet);
    fflush(tf);

    int status = s->r.failed ? 1 : EXIT_OK;
    if (c->json && gate_write_json(&s->r, c->json, err, sizeof(err)) != 0) {
        fprintf(stderr, "ptsbench gate: --json: %s\n", err);
        status = EXIT_USAGE;
    }
    if (c->junit && junit_write_file(&s->r, c->junit, err, sizeof(err)) != 0) {
        fprintf(stderr, "ptsbench gate: --junit: %s\n", err);
        status = EXIT_USAGE;
    }
    if (c->update && update_baseline(s, tf) != 0)
        status = EXIT_USAGE;
    return status;
}
