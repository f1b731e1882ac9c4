/* pts_suite.c — run SNIA PTS tests as a suite (pts_run.h: pts_execute): the results document,
 * the write cache, --resume, and each test's subtests through the kind table. It sits above the
 * kinds (kind_*.c), which call the shared steps of pts_run.c below them. */
#include "pts/pts_run.h"
#include "pts/pts_session.h"

#include <json-c/json.h>
#include <stdio.h>
#include <string.h>

#include "core/results.h"
#include "core/run.h"
#include "device/health.h"
#include "device/target.h"
#include "device/write_cache.h"
#include "lib/json_path.h"
#include "lib/units.h"
#include "lib/util.h"
#include "pts/pts_def.h"
#include "pts/pts_rules.h"


/* ------------------------------------------------------------------ the suite */

static struct json_object *spec_json(const struct pts_session *s)
{
    struct json_object *o = json_object_new_object();
    json_object_object_add(o, "name", json_object_new_string(s->spec.name));
    json_object_object_add(o, "title", json_object_new_string(s->spec.title));
    json_object_object_add(o, "active_range_pct", jw_num(s->spec.active_range_pct));
    json_object_object_add(o, "active_range_bytes",
                           json_object_new_int64((int64_t)(s->ar.len * s->weight)));
    struct json_object *wc = json_object_new_object();
    json_object_object_add(wc, "requested", json_object_new_string(s->spec.write_cache ? "enabled" : "disabled"));
    const char *actual = s->target.kind == TARGET_SIM ? "simulated (power-loss-protected buffer)"
                         : s->target.kind == TARGET_FILE ? "n/a (file: the page cache is bypassed, O_DIRECT)"
                         : s->target.write_cache ? "enabled (write back)" : "disabled (write through)";
    json_object_object_add(wc, "device", json_object_new_string(actual));
    json_object_object_add(o, "write_cache", wc);
    json_object_object_add(o, "threads", json_object_new_int(s->threads));
    json_object_object_add(o, "qd", json_object_new_int(s->qd));
    json_object_object_add(o, "spec_threads", json_object_new_int(s->spec.threads));
    json_object_object_add(o, "spec_qd", json_object_new_int(s->spec.qd));
    return o;
}

static const char *on_off(bool on)
{
    return on ? "enabled" : "disabled";
}

/* The cache's state as the device says it (get-feature, hdparm -W), else the kernel's
 * queue/write_cache as probed (for NVMe that says only that a volatile cache exists). */
static bool wc_state(struct pts_session *s, bool sysfs, const char **how)
{
    bool on = sysfs;
    char err[ERR_LEN];
    struct wcache_plan q;
    wcache_query_plan(&s->purge_facts, &q);
    *how = "queue/write_cache";
    if (q.supported && wcache_query(&s->purge_facts, &on, err, sizeof(err)) == 0)
        *how = s->purge_facts.transport == PURGE_T_NVME ? "nvme get-feature" : "hdparm -W";
    return on;
}

/* Not changed: why, and whether the device is as the spec asks all the same. */
static void wc_unchanged(struct pts_session *s, struct json_object *wc, bool as_requested,
                         const char *reason)
{
    const bool want = s->spec.write_cache;
    json_object_object_add(wc, "changed", json_object_new_boolean(false));
    json_object_object_add(wc, "as_requested", json_object_new_boolean(as_requested));
    if (reason)
        json_object_object_add(wc, "reason", json_object_new_string(reason));
    if (!as_requested)
        ps_note(s, "write cache: the spec asks for it %s, the device has it %s and it was not "
                "changed (%s)", on_off(want), on_off(!want), reason ? reason : "?");
}

/* Put the device's volatile write cache where the spec wants it, where the device has a tool
 * for it (write_cache.h); report it either way: "before" (as found), "after" (read back),
 * "device" (the state the tests ran with and where it was read). Returns true when it was
 * changed (and must be restored at the end, to s->wc_before). */
static bool set_write_cache(struct pts_session *s)
{
    struct json_object *wc = json_object_object_get(json_object_object_get(s->doc, "spec"),
                                                    "write_cache");
    const bool want = s->spec.write_cache;
    if (s->target.kind != TARGET_BLOCK) {
        json_object_object_add(wc, "changed", json_object_new_boolean(false));
        return false;
    }
    if (s->purge_facts.transport == PURGE_T_NVME && !s->target.write_cache) {
        /* the kernel's write through: the controller has no volatile cache to switch */
        json_object_object_add(wc, "device", json_object_new_string(WCACHE_NO_VWC));
        wc_unchanged(s, wc, !want, WCACHE_NO_VWC);
        return false;
    }
    const char *how;
    const bool before = wc_state(s, s->target.write_cache, &how);
    s->wc_before = before;
    json_object_object_add(wc, "before", json_object_new_string(on_off(before)));
    char dev[128];
    snprintf(dev, sizeof(dev), "%s (%s)", on_off(before), how);
    json_object_object_add(wc, "device", json_object_new_string(dev));
    if (before == want) {
        wc_unchanged(s, wc, true, NULL);
        return false;
    }
    struct wcache_plan plan;
    wcache_plan_make(&s->purge_facts, want, &plan);
    char err[ERR_LEN];
    if (!plan.supported || wcache_apply(&plan, err, sizeof(err)) != 0) {
        wc_unchanged(s, wc, false, plan.supported ? err : plan.reason);
        return false;
    }
    struct target_info now;
    bool sysfs = want;
    if (target_probe(s->target.path, 0, &now, err, sizeof(err)) == 0)
        sysfs = now.write_cache;
    const bool after = wc_state(s, sysfs, &how);
    snprintf(dev, sizeof(dev), "%s (%s)", on_off(after), how);
    json_object_object_add(wc, "device", json_object_new_string(dev));
    json_object_object_add(wc, "command", json_object_new_string(plan.text));
    json_object_object_add(wc, "changed", json_object_new_boolean(true));
    json_object_object_add(wc, "after", json_object_new_string(on_off(after)));
    json_object_object_add(wc, "as_requested", json_object_new_boolean(after == want));
    if (after != want)
        ps_note(s, "write cache: '%s' ran but the device still reports it %s", plan.text,
                on_off(after));
    return true;
}

/* The write cache as the suite found it; "restored" says what the device reads back. */
static void restore_write_cache(struct pts_session *s)
{
    char err[ERR_LEN];
    struct json_object *wc = json_object_object_get(json_object_object_get(s->doc, "spec"),
                                                    "write_cache");
    struct wcache_plan back;
    wcache_plan_make(&s->purge_facts, s->wc_before, &back);
    if (wcache_apply(&back, err, sizeof(err)) != 0) {
        fprintf(stderr, "ptsbench suite: restoring the write cache: %s\n", err);
        json_object_object_add(wc, "restored", json_object_new_string(err));
        return;
    }
    struct target_info now;
    bool sysfs = s->wc_before;
    if (target_probe(s->target.path, 0, &now, err, sizeof(err)) == 0)
        sysfs = now.write_cache;
    const char *how;
    const bool on = wc_state(s, sysfs, &how);
    json_object_object_add(wc, "restored", json_object_new_string(on_off(on)));
    if (on != s->wc_before)
        fprintf(stderr, "ptsbench suite: restoring the write cache: '%s' ran but the device "
                "reports it %s, not %s as before\n", back.text, on_off(on), on_off(s->wc_before));
}

/* What the test runs, as its results header says it: access, outstanding I/O and how the
 * device is prepared, per kind (XSR's groups each have their own access; DIRTH sweeps its
 * lists after preconditioning at its own threads x QD). */
static void test_header_json(const struct pts_session *s, const struct pts_def *d,
                             struct json_object *tj)
{
    struct pts_timing t;
    ps_def_timing(s, d, &t);
    char prep[256];
    pts_preparation_text(d, &t, prep, sizeof(prep));
    json_object_object_add(tj, "preparation", json_object_new_string(prep));
    if (d->kind == PTS_KIND_XSR) {
        json_object_object_add(tj, "access", json_object_new_string("per group"));
        struct json_object *gs = json_object_new_array();
        for (unsigned g = 0; g < d->n_groups; g++) {
            const struct pts_group *gr = &d->groups[g];
            struct json_object *gj = json_object_new_object();
            json_object_object_add(gj, "group", json_object_new_int(g + 1));
            json_object_object_add(gj, "access",
                                   json_object_new_string(gr->random ? "random" : "sequential"));
            json_object_object_add(gj, "bs", json_object_new_int64(gr->bs));
            json_object_object_add(gj, "rwmix_read", json_object_new_int(gr->mix));
            json_object_object_add(gj, "duration_s", jw_num(
                (double)pts_xsr_group_rounds(gr, s->cfg.time_scale, t.element_ns) *
                (double)t.element_ns / 1e9));
            json_object_array_add(gs, gj);
        }
        json_object_object_add(tj, "groups", gs);
    } else {
        json_object_object_add(tj, "access",
                               json_object_new_string(d->random ? "random" : "sequential"));
    }
    if (d->kind == PTS_KIND_DIRTH) {
        /* "threads"/"qd": the preconditioning's; the sweep's are the lists */
        json_object_object_add(tj, "threads", json_object_new_int(d->pc_threads));
        json_object_object_add(tj, "qd", json_object_new_int(d->pc_qd));
        json_object_object_add(tj, "precondition_threads", json_object_new_int(d->pc_threads));
        json_object_object_add(tj, "precondition_qd", json_object_new_int(d->pc_qd));
        struct json_object *tl = json_object_new_array(), *ql = json_object_new_array();
        for (unsigned i = 0; i < d->n_threads_list; i++)
            json_object_array_add(tl, json_object_new_int(d->threads_list[i]));
        for (unsigned i = 0; i < d->n_qd_list; i++)
            json_object_array_add(ql, json_object_new_int(d->qd_list[i]));
        json_object_object_add(tj, "threads_list", tl);
        json_object_object_add(tj, "qd_list", ql);
    } else {
        json_object_object_add(tj, "threads", json_object_new_int(ps_def_threads(s, d)));
        json_object_object_add(tj, "qd", json_object_new_int(ps_def_qd(s, d)));
    }
    json_object_object_add(tj, "estimate_s", jw_num(pts_estimate_s(d, &t)));
    json_object_object_add(tj, "estimate_likely_s", jw_num(pts_estimate_likely_s(d, &t)));
}

/* ------------------------------------------------------------------ --resume */

/* The stopped suite's test i when it is the same test (name), else NULL. */
static struct json_object *stored_test(const struct pts_session *s, unsigned i,
                                       const struct pts_def *d)
{
    struct json_object *ts = json_object_object_get(s->cfg.resume, "tests");
    struct json_object *t = json_object_is_type(ts, json_type_array) &&
                                    i < json_object_array_length(ts)
                                ? json_object_array_get_idx(ts, i) : NULL;
    const char *name = t ? json_object_get_string(json_object_object_get(t, "name")) : NULL;
    return name && !strcmp(name, d->name) ? t : NULL;
}

/* An interrupted test that goes on after its last complete round instead of from its start:
 * WSAT always (its purge would undo what it counts), the standard kind with --resume-as-is. */
static bool goes_on(const struct pts_session *s, const struct pts_def *d)
{
    return d->stop == PTS_STOP_CAPACITY || (s->cfg.resume_as_is && d->kind == PTS_KIND_STANDARD);
}

/* A replayed test must give the stored figures (the simulated drive is deterministic): the same
 * number of rounds in each subtest. */
static int replay_check_test(struct json_object *was, struct json_object *now, char *err,
                             size_t errlen)
{
    struct json_object *a = json_object_object_get(was, "subtests");
    struct json_object *b = json_object_object_get(now, "subtests");
    size_t n = json_object_is_type(a, json_type_array) ? json_object_array_length(a) : 0;
    for (size_t k = 0; k < n; k++) {
        size_t ra = json_object_array_length(json_object_object_get(
            json_object_array_get_idx(a, k), "rounds"));
        size_t rb = json_object_array_length(json_object_object_get(
            json_object_array_get_idx(b, k), "rounds"));
        if (ra != rb)
            return errf(err, errlen, "--resume: replaying %s on the simulated drive took %zu "
                        "rounds where the results file holds %zu: not the same suite",
                        json_object_get_string(json_object_object_get(now, "name")), rb, ra);
    }
    return 0;
}

static bool test_complete(struct json_object *t)
{
    const char *st = json_object_get_string(json_object_object_get(t, "status"));
    return st && !strcmp(st, "complete");
}

/* Before the tests: what a resume keeps, replays or redoes. */
static void suite_resume_begin(struct pts_session *s)
{
    struct json_object *ts = json_object_object_get(s->cfg.resume, "tests");
    size_t n = json_object_is_type(ts, json_type_array) ? json_object_array_length(ts) : 0;
    unsigned done = 0;
    while (done < n && done < s->n_defs && stored_test(s, done, &s->defs[done]) &&
           test_complete(json_object_array_get_idx(ts, done)))
        done++;
    struct json_object *old = json_object_object_get(s->cfg.resume, "resumed");
    struct json_object *resumed = json_object_is_type(old, json_type_array)
                                      ? json_object_get(old) : json_object_new_array();
    struct json_object *r = json_object_new_object();
    char now[32];
    iso8601_now(now, sizeof(now));
    json_object_object_add(r, "at", json_object_new_string(now));
    json_object_object_add(r, "complete_tests", json_object_new_int((int)done));
    if (s->target.sim) {
        s->replay_tests = done;
        json_object_object_add(r, "how", json_object_new_string(
            "replayed: a simulated drive's state does not outlive its process, so the suite ran "
            "again from its start; the tests completed before the stop were reproduced (checked) "
            "and not printed again"));
    } else {
        s->keep_stored = true;
        json_object_object_add(r, "how", json_object_new_string(
            s->cfg.resume_as_is
                ? "the completed tests are kept; the interrupted test goes on after its last "
                  "complete round without its preparation again (--resume-as-is)"
                : "the completed tests are kept; the interrupted test runs again from its start "
                  "(purge, WIPC), except WSAT, which goes on with its byte count"));
        /* the kept tests' departures stay departures */
        struct json_object *notes = json_object_object_get(
            json_object_object_get(s->cfg.resume, "compliance"), "notes");
        for (size_t i = 0; json_object_is_type(notes, json_type_array) &&
                           i < json_object_array_length(notes); i++)
            results_note_add(s->notes, json_object_get_string(json_object_array_get_idx(notes, i)));
        ps_note(s, "resumed after %u complete test%s: the drive was not held between the stop and "
                "the resume", done, done == 1 ? "" : "s");
    }
    json_object_array_add(resumed, r);
    json_object_object_add(s->doc, "resumed", resumed);
}

/* ---- the test kinds ----
 * What runs one subtest of a definition, by its kind (pts_def.h: enum pts_kind): a new test of
 * an existing kind runs from its definition file alone. */
static const pts_kind_run_fn pts_kind_run[] = {
    [PTS_KIND_STANDARD] = pts_kind_standard,   /* rounds of a loop to steady state (IOPS, TP, LAT, WSAT) */
    [PTS_KIND_HIR] = pts_kind_hir,       /* wait states after a saturated preconditioning */
    [PTS_KIND_XSR] = pts_kind_xsr,       /* groups of stimuli one after another */
    [PTS_KIND_DIRTH] = pts_kind_dirth,   /* a threads x QD sweep and its operating points */
};

/* Open the target and the output directory; the drive's state begins. 0 or -1 with err. */
static int suite_open(struct pts_session *s, char *err, size_t errlen)
{
    if (s->target.kind == TARGET_FILE &&   /* --size: made (or extended) as run makes it */
        (!s->target.exists || s->target.current_size < s->target.capacity) &&
        target_create_file(&s->target, err, errlen) != 0)
        return -1;
    if (s->target.kind != TARGET_SIM) {
        s->fd = target_open(&s->target, true, err, errlen);
        if (s->fd < 0)
            return -1;
    }
    if (run_make_dir(s->out_dir, err, errlen) != 0)
        return -1;
    if (s->target.sim)
        sim_stats(s->target.sim->dev, &s->sim_last);
    ds_init(&s->state, (double)s->ar.len * s->weight, s->target.sim != NULL);
    return 0;
}

/* The results document's head: what ran where, with what, and the notes so far. */
static void suite_doc_start(struct pts_session *s)
{
    s->doc = json_object_new_object();
    results_out_init(&s->out, s->doc, s->results_path, "ptsbench suite");
    s->out.live = s->tty;
    json_object_object_add(s->doc, "schema", json_object_new_string("ptsbench.suite"));
    json_object_object_add(s->doc, "schema_version", json_object_new_int(RESULTS_SCHEMA_VERSION));
    json_object_object_add(s->doc, "ptsbench_version", json_object_new_string(PTSBENCH_VERSION));
    struct json_object *argv = json_object_new_array();
    for (int i = 0; i < s->cfg.argc; i++)
        json_object_array_add(argv, json_object_new_string(s->cfg.argv[i]));
    json_object_object_add(s->doc, "command_line", argv);
    iso8601_now(s->started, sizeof(s->started));
    json_object_object_add(s->doc, "started", json_object_new_string(s->started));
    json_object_object_add(s->doc, "status", json_object_new_string("running"));
    json_object_object_add(s->doc, "host", results_host_json(&s->host));
    json_object_object_add(s->doc, "target", results_target_json(&s->target));
    json_object_object_add(s->doc, "placement", results_placement_json(&s->place));
    s->out.place = &s->place;
    struct json_object *eng = json_object_new_object();
    json_object_object_add(eng, "name", json_object_new_string(s->engine->name));
    json_object_object_add(eng, "library", json_object_new_string(s->engine->version()));
    json_object_object_add(eng, "clock", json_object_new_string(
        s->engine->flags & ENGINE_F_VIRTUAL_CLOCK ? "virtual" : "CLOCK_MONOTONIC"));
    json_object_object_add(eng, "completion_weight", jw_num(s->weight));
    json_object_object_add(s->doc, "engine", eng);
    json_object_object_add(s->doc, "spec", spec_json(s));
    s->notes = json_object_new_array();
    struct json_object *comp = json_object_new_object();
    json_object_object_add(comp, "notes", json_object_get(s->notes));
    json_object_object_add(comp, "simulated", json_object_new_boolean(s->target.sim != NULL));
    json_object_object_add(s->doc, "compliance", comp);
    s->tests_json = json_object_new_array();
    json_object_object_add(s->doc, "tests", s->tests_json);

    if (s->cfg.time_scale > 0 && s->cfg.time_scale != 1)
        ps_note(s, "every duration scaled by %g (--time-scale)", s->cfg.time_scale);
    if (s->target.memory_fs[0])   /* --allow-memory-target */
        ps_note(s, "%s is on %s: the figures measure memory, not a drive", s->target.path,
                s->target.memory_fs);
    if (s->cfg.fast.on)   /* the tests' "precondition" (kind fast) or "fast" records say more */
        ps_note(s, "--precondition fast: the fast pass (docs/fast-precondition.md) prepared the "
                "drive, not the PTS's preconditioning");
    json_object_object_add(s->doc, "time_scale", jw_num(s->cfg.time_scale > 0 ? s->cfg.time_scale : 1));
    if (s->cfg.time_limit_ns) {   /* --time-limit: the limit and the plan's cut */
        struct json_object *tl = json_object_new_object();
        jw_add(tl, "limit_s", jw_num((double)s->cfg.time_limit_ns / 1e9));
        jw_add(tl, "clock", jw_str(s->target.sim ? "virtual" : "wall"));
        jw_add(tl, "max_rounds_planned", jw_int(s->rounds_uncut));
        jw_add(tl, "max_rounds", jw_int(s->round_cap ? s->round_cap : s->rounds_uncut));
        jw_add(tl, "cut", json_object_new_boolean(s->round_cap != 0));
        jw_add(s->doc, "time_limit", tl);
        if (s->round_cap)
            ps_note(s, "rounds cut from %u to %u per test by --time-limit: steady state may not "
                    "be reached", s->rounds_uncut, s->round_cap);
    }
    if (s->element_ns && s->element_ns != 60 * NS_PER_S)
        ps_note(s, "round elements of %g s instead of the PTS's 60 s (--round-time)",
             (double)s->element_ns / 1e9);
    if (s->threads != s->spec.threads || s->qd != s->spec.qd)
        ps_note(s, "outstanding I/O %u x %u instead of the spec's recommended %u x %u", s->threads,
             s->qd, s->spec.threads, s->spec.qd);
    for (unsigned i = 0; i < s->n_defs; i++) {
        char wn[2][PTS_NOTE_LEN];
        unsigned n = pts_wsat_option_notes(&s->defs[i], s->cfg.wsat_capacity, s->cfg.wsat_time_ns,
                                           wn);
        for (unsigned k = 0; k < n; k++)
            results_note_add(s->notes, wn[k]);
    }
}

/* A test's record as it starts: its definition and parameters, status running. */
static struct json_object *test_start_json(const struct pts_session *s, const struct pts_def *d)
{
    struct json_object *tj = json_object_new_object();
    json_object_object_add(tj, "name", json_object_new_string(d->name));
    json_object_object_add(tj, "title", json_object_new_string(d->title));
    json_object_object_add(tj, "kind", json_object_new_string(pts_kind_name(d->kind)));
    json_object_object_add(tj, "report", json_object_new_string(pts_report_name(d->report)));
    json_object_object_add(tj, "definition", json_object_new_string(d->source));
    json_object_object_add(tj, "element_time_s", jw_num((double)ps_def_element_ns(s, d) / 1e9));
    test_header_json(s, d, tj);
    json_object_object_add(tj, "status", json_object_new_string("running"));
    json_object_object_add(tj, "subtests", json_object_new_array());
    return tj;
}

/* A test's subtests (TP: one per valid block size; others one), each run by its kind. On
 * --resume of an interrupted WSAT, or of a standard test as-is, the complete subtests are
 * kept and the last one goes on after its last complete round. 0, 1 interrupted, -1. */
static int test_subtests(struct pts_session *s, const struct pts_def *d, struct json_object *was,
                         struct json_object *subs, char *err, size_t errlen)
{
    unsigned n_sub = d->subtests == PTS_SUB_BS ? d->n_bss : 1;
    int st = 0;
    struct json_object *was_subs = was && s->keep_stored && goes_on(s, d)
                                       ? json_object_object_get(was, "subtests") : NULL;
    size_t n_was = json_object_is_type(was_subs, json_type_array)
                       ? json_object_array_length(was_subs) : 0;
    size_t k_sub = 0;   /* the subtests started, valid block sizes only */
    for (unsigned k = 0; k < n_sub && st == 0; k++) {
        uint32_t sub_bs = d->subtests == PTS_SUB_BS ? d->bss[k] : 0;
        if (sub_bs && !ps_bs_valid(s, sub_bs))
            continue;
        if (k_sub + 1 < n_was) {   /* complete before the stop */
            json_object_array_add(subs, json_object_get(json_object_array_get_idx(was_subs,
                                                                                  k_sub++)));
            continue;
        }
        if (k_sub + 1 == n_was)
            s->resume_sub = json_object_array_get_idx(was_subs, k_sub);
        k_sub++;
        struct json_object *sj = json_object_new_object();
        char label[32] = "all";
        if (sub_bs)
            units_format_size(sub_bs, label, sizeof(label));
        json_object_object_add(sj, "label", json_object_new_string(label));
        if (sub_bs)
            json_object_object_add(sj, "bs", json_object_new_int64(sub_bs));
        json_object_array_add(subs, sj);
        st = pts_kind_run[d->kind](s, d, sub_bs, sj, err, errlen);
        json_object_object_add(sj, "state", results_state_json(&s->state));
    }
    return st;
}

/* Test i of the suite: kept from the stopped run when complete there, else run. Returns the
 * suite's exit code so far (EXIT_OK to go on). */
static int suite_test(struct pts_session *s, unsigned i)
{
    char err[ERR_LEN];
    const struct pts_def *d = &s->defs[i];
    struct json_object *was = s->cfg.resume ? stored_test(s, i, d) : NULL;
    const char *was_status = was ? json_object_get_string(json_object_object_get(was, "status"))
                                 : NULL;
    if (was && s->keep_stored && was_status && !strcmp(was_status, "complete")) {
        json_object_array_add(s->tests_json, json_object_get(was));   /* kept as it was */
        return EXIT_OK;
    }
    const bool quiet = s->cfg.quiet;
    if (i < s->replay_tests)
        s->cfg.quiet = true;   /* replayed: printed by the run before */
    struct json_object *tj = test_start_json(s, d);
    json_object_array_add(s->tests_json, tj);
    int code = EXIT_OK;
    if (!s->cfg.quiet) {
        if (ps_flush_or_fail(s, true, err, sizeof(err)) != 0) {
            fprintf(stderr, "ptsbench suite: %s\n", err);
            s->cfg.quiet = quiet;
            return EXIT_FAILURE_RUN;
        }
        printf("%s (%s)\n", d->title, d->name);
    }
    s->live_test = d->name;
    s->live_mb_s = pts_tracks_mb_s(d);
    s->live_eta[0] = '\0';
    s->cap_eta = (struct pts_cap_eta){0};
    const double clock0 = ps_clock_s(s), prep0 = s->prep_s, drain0 = s->drain_s;
    /* the drive's own counters around the test, its purge and preconditioning included
     * (device/health.h): its write amplification over the test, beside the simulator's */
    struct health_snapshot before, after;
    health_collect(&s->target, &before);
    int st = test_subtests(s, d, was, json_object_object_get(tj, "subtests"), err, sizeof(err));
    health_collect(&s->target, &after);
    json_object_object_add(tj, "health", health_json(&before, &after));
    if (!s->cfg.quiet) {   /* after the test's own lines, which wait for the file (results.h) */
        char line[512];
        health_summary(json_object_object_get(tj, "health"), line, sizeof(line));
        results_out_say(&s->out, "  %s", line);
    }
    /* the test's time (virtual on the simulated drive), purges and WIPC excluded; of it, the
     * drains after the elements' ends and the loop itself (elements, HIR's waits): what the
     * plan's estimate stands for */
    const double measuring = ps_clock_s(s) - clock0 - (s->prep_s - prep0);
    const double drain = s->drain_s - drain0;
    json_object_object_add(tj, "measuring_s", jw_num(measuring));
    json_object_object_add(tj, "drain_s", jw_num(drain));
    json_object_object_add(tj, "loop_s", jw_num(measuring - drain));
    json_object_object_add(tj, "status", json_object_new_string(
        st == 0 ? "complete" : st > 0 ? "interrupted" : "failed"));
    if (st < 0) {
        json_object_object_add(tj, "error", json_object_new_string(err));
        code = EXIT_FAILURE_RUN;
        char flush_err[ERR_LEN];   /* the lines of what was done first, then why it stopped */
        if (!s->out.failed)
            ps_flush_or_fail(s, true, flush_err, sizeof(flush_err));
        fflush(stdout);
        fprintf(stderr, "ptsbench suite: %s: %s\n", d->name, err);
    } else if (st > 0) {
        code = EXIT_INTERRUPTED;
    }
    s->cfg.quiet = quiet;
    if (st == 0 && i < s->replay_tests && replay_check_test(was, tj, err, sizeof(err)) != 0) {
        fprintf(stderr, "ptsbench suite: %s\n", err);
        code = EXIT_FAILURE_RUN;
    }
    if (ps_flush_or_fail(s, true, err, sizeof(err)) != 0 && code != EXIT_FAILURE_RUN) {
        fprintf(stderr, "ptsbench suite: %s\n", err);
        code = EXIT_FAILURE_RUN;
    }
    return code;
}

/* The end: the write cache as it was, the status, the last flush and the closing lines. */
static int suite_finish(struct pts_session *s, int code, bool restore_wc)
{
    if (restore_wc)
        restore_write_cache(s);
    json_object_object_add(json_object_object_get(s->doc, "compliance"), "compliant",
                           json_object_new_boolean(json_object_array_length(s->notes) == 0 &&
                                                   code == EXIT_OK));
    json_object_object_add(s->doc, "status", json_object_new_string(
        code == EXIT_OK ? "complete" : code == EXIT_INTERRUPTED ? "interrupted" : "failed"));
    const bool said = s->out.failed;   /* the test that hit it has said so */
    if (results_out_flush(&s->out, true) != 0) {
        /* the results file does not hold the end of the run: never call it complete */
        if (!said)
            fprintf(stderr, "ptsbench suite: %s (it holds what was printed before)\n",
                    s->out.error);
        return EXIT_FAILURE_RUN;
    }
    if (!s->cfg.quiet) {
        size_t nn = json_object_array_length(s->notes);
        char line[160];
        pts_closing_line(code == EXIT_OK ? "complete" : code == EXIT_INTERRUPTED ? "interrupted"
                                                                                 : "failed",
                         code == EXIT_OK, nn, s->target.sim != NULL, line, sizeof(line));
        printf("\n%s\n", line);
        for (size_t i = 0; i < nn; i++)
            printf("  - %s\n", json_object_get_string(json_object_array_get_idx(s->notes, i)));
        printf("results: %s\n", s->results_path);
    }
    return code;
}

int pts_execute(struct pts_session *s, volatile sig_atomic_t *stop)
{
    char err[ERR_LEN];
    s->stop = stop;
    if (suite_open(s, err, sizeof(err)) != 0) {
        fprintf(stderr, "ptsbench suite: %s\n", err);
        return EXIT_FAILURE_RUN;
    }
    suite_doc_start(s);
    /* a drive that reports a critical warning is not benchmarked silently (each test's health
     * records the bits) */
    struct health_snapshot h;
    health_collect(&s->target, &h);
    if (health_warning_line(&h, err, sizeof(err)))
        fprintf(stderr, "ptsbench suite: warning: %s\n", err);
    bool restore_wc = set_write_cache(s);
    int code = EXIT_OK;
    if (ps_flush_or_fail(s, true, err, sizeof(err)) != 0) {
        fprintf(stderr, "ptsbench suite: %s\n", err);
        code = EXIT_FAILURE_RUN;
    }
    if (s->cfg.resume)
        suite_resume_begin(s);
    for (unsigned i = 0; i < s->n_defs && code == EXIT_OK; i++)
        code = suite_test(s, i);
    return suite_finish(s, code, restore_wc);
}
