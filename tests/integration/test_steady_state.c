/* test_steady_state.c — "steady state" means steady: on the simulated Z-Drive R4 and Z-Drive
 * 6300, 4 KiB random writes at QD 32 with 1 and 4 workers.
 *
 * References: the presets' own steady-state 4 KiB random-write plateaus, where a 6-hour virtual
 * WSAT ends (`ptsbench run ... --workload rw=randwrite,bs=4k,qd=32,workers=W --rounds 360
 * --round-time 60 --all-rounds`, the last 10 rounds): the Z-Drive R4 42.8K at 1 x QD 32 and
 * 59.5K at 4 x QD 32, the Z-Drive 6300 138.8K at both. The test is about where the steady-state
 * determination stops, so it compares with the model's plateau, not with the reviews (those
 * are test_sim_calibration's: StorageReview's 48,129 and 59,904 IOPS for the R4, within 15%;
 * the Z-Drive 6300's 140K WSAT plateau).
 *
 *  - `run --precondition steady` (WIPC, WDPC until the fill guard passes, then rounds) and the
 *    default `profile` (steady) claim steady state within 5% of those levels;
 *  - `run` without preconditioning measures the same workload's burst plateau (several times
 *    higher) and says so: "stable (fresh-out-of-box / burst)", reached false with the reason. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"

static char *dir;

static int setup(void **state)
{
    (void)state;
    dir = make_temp_dir("steady");
    return dir ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    remove_tree(dir);
    free(dir);
    return 0;
}

struct drive {
    const char *target;
    const char *name;
    double level[2];   /* steady 4 KiB random-write IOPS at 1 and 4 workers x QD 32 */
};

static const struct drive R4 = {"sim:zdrive-r4-cm88-1.6t", "r4", {42800, 59500}};
static const struct drive Z6300 = {"sim:zdrive-6300-1.6t", "6300", {138800, 138800}};

static const char *jstr_at(struct json_object *doc, const char *path)
{
    const char *s = json_object_get_string(json_at(doc, path));
    return s ? s : "";
}

static struct json_object *run_rw4k(const struct drive *d, unsigned workers, const char *pre,
                                    char **out_text)
{
    char out[600], wl[96];
    snprintf(out, sizeof(out), "%s/run-%s-%u-%s", dir, d->name, workers, pre ? pre : "none");
    snprintf(wl, sizeof(wl), "rw=randwrite,bs=4k,qd=32,workers=%u", workers);
    char *argv[] = {NULL, "run", "--target", (char *)d->target, "--workload", wl, "-o", out,
                    pre ? "--precondition" : NULL, (char *)pre, NULL};
    return ptsbench_results(argv, out, 0, out_text);
}

/* Every round records the drive's state; WDPC rounds come first and are never judged. */
static void check_rounds_state(struct json_object *doc, bool wdpc)
{
    struct json_object *rounds = json_at(doc, "rounds");
    size_t n = json_object_array_length(rounds);
    bool seen_measure = false;
    size_t n_wdpc = 0;
    for (size_t i = 0; i < n; i++) {
        struct json_object *r = json_object_array_get_idx(rounds, i);
        const char *phase = jstr_at(r, "phase");
        if (!strcmp(phase, "wdpc")) {
            assert_false(seen_measure);
            n_wdpc++;
        } else {
            assert_string_equal(phase, "measure");
            seen_measure = true;
        }
        assert_non_null(json_at(r, "state"));
        assert_true(json_object_get_boolean(json_at(r, "state.simulated")));
        assert_string_equal(jstr_at(r, "state.condition"), wdpc ? "wdpc" : "fob");
        if (wdpc)
            assert_true(json_num(r, "state.wipc_fills") > 1.99);
    }
    assert_true(seen_measure);
    if (wdpc)
        assert_int_equal(n_wdpc, (size_t)json_num(doc, "preconditioning.wdpc.rounds"));
    else
        assert_int_equal(n_wdpc, 0);
}

static void steady_run(const struct drive *d, unsigned workers)
{
    struct json_object *doc = run_rw4k(d, workers, "steady", NULL);
    assert_non_null(doc);
    double avg = json_num(doc, "steady_state.window.average");
    double fills = json_num(doc, "preconditioning.wdpc.fills");
    print_message("  %s %ux32 --precondition steady: %.0f IOPS (reference %.0f, %+.1f%%) after "
                  "WDPC of %.2f fills; fill guard %.1f%%\n", d->name, workers, avg,
                  d->level[workers > 1], 100 * (avg / d->level[workers > 1] - 1), fills,
                  json_num(doc, "steady_state.guard.max_deviation_pct"));
    assert_true(json_object_get_boolean(json_at(doc, "steady_state.reached")));
    assert_string_equal(jstr_at(doc, "steady_state.measured_state"), "steady");
    assert_true(json_object_get_boolean(json_at(doc, "steady_state.guard.passed")));
    assert_true(json_num(doc, "steady_state.guard.max_deviation_pct") <= 5.0);
    assert_true(fabs(avg / d->level[workers > 1] - 1) <= 0.05);
    assert_string_equal(jstr_at(doc, "preconditioning.mode"), "steady");
    assert_true(json_num(doc, "preconditioning.wipc.fills") == 2);
    assert_string_equal(jstr_at(doc, "preconditioning.wdpc.ended"), "guard");
    assert_true(fills >= 1.0);
    check_rounds_state(doc, true);
    /* the window lies in the measured rounds, after the WDPC */
    assert_true(json_num(doc, "steady_state.window.first_round") >
                json_num(doc, "preconditioning.wdpc.rounds"));
    json_object_put(doc);
}

static void burst_run(const struct drive *d, unsigned workers)
{
    char *text = NULL;
    struct json_object *doc = run_rw4k(d, workers, NULL, &text);
    assert_non_null(doc);
    double avg = json_num(doc, "steady_state.window.average");
    print_message("  %s %ux32 without preconditioning: %.0f IOPS, \"%s\"\n", d->name, workers,
                  avg, jstr_at(doc, "steady_state.label"));
    assert_false(json_object_get_boolean(json_at(doc, "steady_state.reached")));
    assert_true(json_object_get_boolean(json_at(doc, "steady_state.stable")));
    assert_string_equal(jstr_at(doc, "steady_state.measured_state"), "burst");
    assert_string_equal(jstr_at(doc, "steady_state.label"), "stable (fresh-out-of-box / burst)");
    assert_non_null(strstr(jstr_at(doc, "steady_state.reason"), "no preconditioning"));
    assert_null(json_at(doc, "steady_state.round"));
    assert_string_equal(jstr_at(doc, "preconditioning.mode"), "none");
    check_rounds_state(doc, false);
    /* what the burst rounds measure: far above the steady level (one worker of the R4's
     * review host tops out at 78K, host_worker_us: 1.6x its steady level there) */
    assert_true(avg > (workers > 1 ? 2.5 : 1.5) * d->level[workers > 1]);
    /* and the console says so, with "simulated" beside the figures, never "steady state at" */
    assert_non_null(strstr(text, "stable (fresh-out-of-box / burst) at round 5"));
    assert_non_null(strstr(text, "not SNIA steady state: no preconditioning"));
    assert_non_null(strstr(text, "(simulated)"));
    assert_null(strstr(text, "steady state at round"));
    free(text);
    json_object_put(doc);
}

static void test_r4_run(void **state)
{
    (void)state;
    for (unsigned w = 1; w <= 4; w += 3) {
        burst_run(&R4, w);
        steady_run(&R4, w);
    }
}

/* ptsbench verify --spec zdrive-6300-1.6t RESULTS [--allow-missing] --json: the status, and
 * the rnd-write-4k claim's verdict and reason. */
static int verify_6300(const char *results, bool allow_missing, char *verdict, size_t vlen,
                       char *reason, size_t rlen, char **text)
{
    char *argv[] = {(char *)ptsbench_bin(), "verify", "--spec", "zdrive-6300-1.6t",
                    (char *)results, "--json", "-", allow_missing ? "--allow-missing" : NULL, NULL};
    struct cmd_result r;
    assert_int_equal(run_cmd(argv, &r), 0);
    struct json_object *doc = json_tokener_parse(r.out);
    assert_non_null(doc);
    struct json_object *claims = json_at(doc, "claims");
    for (size_t i = 0; i < json_object_array_length(claims); i++) {
        struct json_object *c = json_object_array_get_idx(claims, i);
        if (strcmp(jstr_at(c, "name"), "rnd-write-4k"))
            continue;
        snprintf(verdict, vlen, "%s", jstr_at(c, "verdict"));
        snprintf(reason, rlen, "%s", jstr_at(c, "reason"));
    }
    json_object_put(doc);
    cmd_result_free(&r);
    if (text) {   /* the table, for people */
        char *argt[] = {(char *)ptsbench_bin(), "verify", "--spec", "zdrive-6300-1.6t",
                        (char *)results, NULL};
        struct cmd_result t;
        assert_int_equal(run_cmd(argt, &t), 0);
        *text = t.out;
        t.out = NULL;
        cmd_result_free(&t);
    }
    return r.status;
}

/* The 6300's write claim (140K IOPS, the worst case: write saturation, a steady-state claim) is
 * never "verified" with burst data: against the run without preconditioning it is "no
 * comparable measurement" (exit 1), against the steady run it is judged and passes. */
static void test_6300_run(void **state)
{
    (void)state;
    for (unsigned w = 1; w <= 4; w += 3) {
        burst_run(&Z6300, w);
        steady_run(&Z6300, w);
    }
    char burst[700], steady[700], verdict[64] = "", reason[512] = "";
    snprintf(burst, sizeof(burst), "%s/run-6300-4-none", dir);
    snprintf(steady, sizeof(steady), "%s/run-6300-4-steady", dir);
    char *text = NULL;
    int st = verify_6300(burst, false, verdict, sizeof(verdict), reason, sizeof(reason), &text);
    print_message("  verify 6300 vs burst run: exit %d, rnd-write-4k %s (%s)\n", st, verdict,
                  reason);
    assert_int_equal(st, 1);
    assert_string_equal(verdict, "no comparable measurement");
    assert_non_null(strstr(reason, "only burst data for a steady-state claim"));
    assert_non_null(strstr(text, "no comparable measurement"));
    assert_non_null(strstr(text, "simulated"));
    assert_null(strstr(text, " pass\n"));
    free(text);
    st = verify_6300(steady, true, verdict, sizeof(verdict), reason, sizeof(reason), NULL);
    print_message("  verify 6300 vs steady run (--allow-missing): exit %d, rnd-write-4k %s\n", st,
                  verdict);
    assert_int_equal(st, 0);
    assert_string_equal(verdict, "pass");
    st = verify_6300(steady, false, verdict, sizeof(verdict), reason, sizeof(reason), NULL);
    assert_int_equal(st, 1);   /* the other claims have no comparable measurement in it */
}

/* The default profile preparation (steady): profiles/qd-ramp-4k-write.ini (precondition =
 * steady) at QD 32 with 1 and 4 workers. The first point's WDPC runs until the fill guard passes;
 * both points claim steady state within 5% of the references. */
static void steady_profile(const struct drive *d)
{
    char out[600];
    snprintf(out, sizeof(out), "%s/profile-%s", dir, d->name);
    char *argv[] = {NULL, "profile", "qd-ramp-4k-write", "--target", (char *)d->target,
                    "--qd", "32", "--workers", "1,4", "--quiet", "-o", out, NULL};
    struct json_object *doc = ptsbench_results(argv, out, 0, NULL);
    assert_non_null(doc);
    assert_int_equal(json_object_array_length(json_at(doc, "points")), 2);
    assert_string_equal(jstr_at(doc, "groups.0.precondition"), "steady");
    assert_string_equal(jstr_at(doc, "groups.0.wdpc.ended"), "guard");
    assert_true(json_num(doc, "groups.0.wdpc.fills") >= 1.0);
    for (unsigned i = 0; i < 2; i++) {
        char k[96];
        snprintf(k, sizeof(k), "points.%u", i);
        struct json_object *p = json_at(doc, k);
        double iops = json_num(p, "result.total.iops");
        unsigned workers = (unsigned)json_num(p, "workers");
        print_message("  %s profile %ux32: %.0f IOPS (reference %.0f, %+.1f%%), %s\n", d->name,
                      workers, iops, d->level[workers > 1],
                      100 * (iops / d->level[workers > 1] - 1), jstr_at(p, "result.label"));
        assert_true(json_object_get_boolean(json_at(p, "result.steady")));
        assert_string_equal(jstr_at(p, "result.measured_state"), "steady");
        assert_true(json_object_get_boolean(json_at(p, "steady_state.reached")));
        assert_true(fabs(iops / d->level[workers > 1] - 1) <= 0.05);
        assert_string_equal(jstr_at(p, "state.condition"), "wdpc");
        assert_true(json_object_get_boolean(json_at(p, "state.simulated")));
    }
    /* the second point inherits the group's WDPC (same workload and data) */
    assert_true(json_num(doc, "points.1.steady_state.guard_inherited_from_point") == 0);
    json_object_put(doc);
}

static void test_r4_profile(void **state)
{
    (void)state;
    steady_profile(&R4);
}

static void test_6300_profile(void **state)
{
    (void)state;
    steady_profile(&Z6300);
}

/* The PTS suite records the drive's state on every element: purged, WIPC 2x, then the test
 * loop as its WDPC (reads leave it at wipc, the first write makes it wdpc); the subtest's state
 * at its end; the purge variant that ran; ptsbench's fill guard beside the PTS's verdict; and
 * that the target was simulated. */
static void test_suite_elements_state(void **state)
{
    (void)state;
    char out[600];
    snprintf(out, sizeof(out), "%s/suite-lat", dir);
    char *argv[] = {NULL, "run-test", "lat", "--target", "sim:zdrive-6300-1.6t", "--round-time",
                    "5s", "--quiet", "-o", out, NULL};
    struct json_object *doc = ptsbench_results(argv, out, 0, NULL);
    assert_non_null(doc);
    struct json_object *sub = json_at(doc, "tests.0.subtests.0");
    assert_string_equal(jstr_at(sub, "purge.variant"), "simulated drive secure erase");
    assert_true(json_object_get_boolean(json_at(doc, "compliance.simulated")));
    struct json_object *rounds = json_at(sub, "rounds");
    size_t nr = json_object_array_length(rounds);
    double last_written = 0;
    bool seen_wdpc = false;
    for (size_t r = 0; r < nr; r++) {
        struct json_object *els = json_at(json_object_array_get_idx(rounds, r), "elements");
        for (size_t e = 0; e < json_object_array_length(els); e++) {
            struct json_object *el = json_object_array_get_idx(els, e);
            const char *cond = jstr_at(el, "state.condition");
            assert_true(json_object_get_boolean(json_at(el, "state.purged")));
            assert_true(json_object_get_boolean(json_at(el, "state.simulated")));
            assert_true(fabs(json_num(el, "state.wipc_fills") - 2.0) < 0.01);
            double written = json_num(el, "state.written_bytes");
            assert_true(written >= last_written);   /* bytes only grow */
            last_written = written;
            if (!seen_wdpc)   /* the reads before the first write leave the drive after WIPC */
                assert_string_equal(cond, json_num(el, "write.bytes") > 0 ? "wdpc" : "wipc");
            else
                assert_string_equal(cond, "wdpc");
            seen_wdpc = seen_wdpc || !strcmp(cond, "wdpc");
        }
    }
    assert_true(seen_wdpc);
    assert_string_equal(jstr_at(sub, "state.condition"), "wdpc");
    assert_true(json_num(sub, "state.written_bytes") == last_written);
    assert_non_null(json_at(sub, "steady_state.fill_guard.advisory"));
    json_object_put(doc);
}

/* --precondition and the WDPC bounds are checked before anything runs. */
static void test_bad_precondition(void **state)
{
    (void)state;
    char out[600];
    snprintf(out, sizeof(out), "%s/bad", dir);
    char *bad[][13] = {
        {NULL, "run", "--target", "sim:zdrive-6300-1.6t", "--workload", "rw=randwrite",
         "--precondition", "sometimes", "-o", out, NULL},
        {NULL, "run", "--target", "sim:zdrive-6300-1.6t", "--workload", "rw=randwrite",
         "--precondition", "steady", "--wdpc-fills", "3", "--wdpc-max-fills", "2", NULL},
        {NULL, "run", "--target", "sim:zdrive-6300-1.6t", "--workload", "rw=randwrite",
         "--wdpc-fills", "1e3", "-o", out, NULL},
    };
    const char *want[] = {"--precondition sometimes", "--wdpc-max-fills 2", "--wdpc-fills 1e3"};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        bad[i][0] = (char *)ptsbench_bin();
        struct cmd_result r;
        assert_int_equal(run_cmd(bad[i], &r), 0);
        if (r.status != 2 || !strstr(r.errout, want[i]))
            print_message("case %zu: status %d, stderr %s\n", i, r.status, r.errout);
        assert_int_equal(r.status, 2);
        assert_non_null(strstr(r.errout, want[i]));
        size_t lines = 0;   /* one clear line */
        for (const char *c = r.errout; *c; c++)
            lines += *c == '\n';
        assert_int_equal(lines, 1);
        cmd_result_free(&r);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bad_precondition),
        cmocka_unit_test(test_suite_elements_state),
        cmocka_unit_test(test_r4_run),
        cmocka_unit_test(test_6300_run),
        cmocka_unit_test(test_r4_profile),
        cmocka_unit_test(test_6300_profile),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
