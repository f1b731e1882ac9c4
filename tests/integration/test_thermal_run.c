/* test_thermal_run.c — temperature and throttling per round on the simulated drive with its
 * thermal model on (sim/sim_thermal.h), through the built binary: the rounds record it, the
 * round lines say "throttled" for exactly the rounds that were, a throttled round's IOPS is
 * cut, the steady-state window names its throttled rounds, and a drive without the model
 * records nothing.
 *
 * By hand: 128 KiB sequential writes at QD 32 run at 403 MB/s on generic-mlc25 (its write
 * bandwidth). At 3 °C per GB, tau = 60 s, from 40 °C: T(t) = 40 + 3 x 0.403 x 60 x (1 -
 * e^(-t/60)) = 40 + 72.5 (1 - e^(-t/60)); T = 75 °C (the throttle point) at t = 39.6 s: in round
 * 4 of 10 s rounds (its last 0.4 s). Throttled to 200 MB/s the drive settles at 40 + 3 x 0.2 x
 * 60 = 76 °C, above the resume point (72 °C): every round after stays throttled, at about half
 * the IOPS. */
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
    dir = make_temp_dir("thermal");
    return dir ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    remove_tree(dir);
    free(dir);
    return 0;
}

#define HOT \
    "sim:generic-mlc25,thermal=true,thermal_write_c_per_gb=3,thermal_tau_s=60," \
    "thermal_throttle_mb_s=200"

static void test_sim_throttles_from_round_4(void **state)
{
    (void)state;
    char out[1024];
    snprintf(out, sizeof(out), "%s/hot", dir);
    char *argv[] = {"ptsbench", "run", "--target", HOT, "--workload", "rw=write,bs=128k,qd=32",
                    "--rounds", "7", "--round-time", "10s", "--all-rounds", "--out", out, NULL};
    char *text = NULL;
    struct json_object *doc = ptsbench_results(argv, out, 0, &text);
    assert_non_null(doc);
    struct json_object *rounds = json_at(doc, "rounds");
    assert_int_equal(json_object_array_length(rounds), 7);
    double iops1 = json_num(doc, "rounds.0.total.iops"), prev_t = 0;
    for (int i = 0; i < 7; i++) {
        char p[64];
        snprintf(p, sizeof(p), "rounds.%d.thermal", i);
        struct json_object *th = json_at(doc, p);
        assert_non_null(th);
        double t = json_object_get_double(json_object_object_get(th, "temperature_c"));
        bool throttled = json_object_get_boolean(json_object_object_get(th, "throttled"));
        snprintf(p, sizeof(p), "rounds.%d.total.iops", i);
        double iops = json_num(doc, p);
        print_message("round %d: %.2f °C%s, IOPS %.0f\n", i + 1, t, throttled ? " throttled" : "",
                      iops);
        assert_string_equal(json_object_get_string(json_object_object_get(th, "source")),
                            "simulator");
        assert_int_equal(throttled, i >= 3);   /* from round 4 (the header's arithmetic) */
        if (i < 3)
            assert_true(t > prev_t && t < 75);
        else if (i > 3)   /* round 4 throttled only from 39.6 s; the next ones throughout */
            assert_true(iops < 0.6 * iops1);   /* about half the rate */
        prev_t = t;
    }
    /* the round lines: "throttled" on rounds 4 to 7 only */
    assert_int_equal(count_prefixed_lines(text, "round "), 7);
    unsigned seen = 0;
    for (char *l = text; (l = strstr(l, "\nround ")); l++, seen++) {
        unsigned n = (unsigned)atoi(l + 7);
        char *eol = strchr(l + 1, '\n');
        size_t len = eol ? (size_t)(eol - l) : strlen(l);
        char line[1024];
        snprintf(line, sizeof(line), "%.*s", (int)len, l + 1);
        assert_int_equal(strstr(line, "throttled") != NULL, n >= 4);
    }
    assert_int_equal(seen, 7);
    assert_int_equal(json_object_get_int64(json_at(doc, "rounds.6.thermal.tmt1_transitions")), 1);
    /* the last window (rounds 3-7) names its throttled rounds: recorded, not hidden in it */
    struct json_object *tr = json_at(doc, "steady_state.window.throttled_rounds");
    assert_int_equal(json_object_array_length(tr), 4);
    for (int k = 0; k < 4; k++)
        assert_int_equal(json_object_get_int(json_object_array_get_idx(tr, k)), 4 + k);
    /* and the closing lines say so under the window's verdict */
    assert_non_null(strstr(text, "the drive throttled during rounds 4, 5, 6, 7 of this window"));
    free(text);
    json_object_put(doc);
    /* the report says it in one sentence, and draws the chart beside IOPS (with gnuplot) */
    char rep[1100], md[1200];
    snprintf(rep, sizeof(rep), "%s/report", out);
    char *report[] = {(char *)ptsbench_bin(), "report", out, "-o", rep, NULL};
    struct cmd_result r;
    assert_int_equal(run_cmd(report, &r), 0);
    assert_int_equal(r.status, 0);
    cmd_result_free(&r);
    snprintf(md, sizeof(md), "%s/report.md", rep);
    char *m = slurp_file(md, NULL);
    assert_non_null(m);
    assert_non_null(strstr(m, "Temperature: at most 75."));
    assert_non_null(strstr(m, "The drive throttled during rounds 4, 5, 6, 7: their figures are "
                              "the throttled drive's"));
    char gp[1200];
    snprintf(gp, sizeof(gp), "%s/plots/run-thermal.gp", rep);
    char *g = slurp_file(gp, NULL);
    if (g) {   /* charts are drawn when gnuplot is installed */
        assert_non_null(strstr(m, "plots/run-thermal.png"));
        assert_non_null(strstr(g, "axes x1y2"));
        assert_non_null(strstr(g, "set object 4 rect from 6.5"));   /* rounds 4-7 shaded */
        assert_null(strstr(g, "set object 5 rect"));
        free(g);
    }
    free(m);
}

/* The model off (every shipped preset): no thermal object, no word. */
static void test_sim_without_model_records_nothing(void **state)
{
    (void)state;
    char out[1024];
    snprintf(out, sizeof(out), "%s/cool", dir);
    char *argv[] = {"ptsbench", "run", "--target", "sim:generic-mlc25", "--workload",
                    "rw=write,bs=128k,qd=32", "--rounds", "2", "--round-time", "2s", "--out", out,
                    NULL};
    char *text = NULL;
    struct json_object *doc = ptsbench_results(argv, out, 0, &text);
    assert_non_null(doc);
    assert_null(json_at(doc, "rounds.0.thermal"));
    assert_null(strstr(text, "throttled"));
    free(text);
    json_object_put(doc);
}

/* A suite's round lines and a profile's say it too (their elements and rounds record it). */
static void test_suite_and_profile_say_throttled(void **state)
{
    (void)state;
    char out[1024];
    snprintf(out, sizeof(out), "%s/hot-tp", dir);
    char *tp[] = {"ptsbench", "run-test", "tp", "--target", HOT, "--round-time", "10s",
                  "--max-rounds", "2", "--out", out, NULL};
    char *text = NULL;
    struct json_object *doc = ptsbench_results(tp, out, 0, &text);
    assert_non_null(doc);
    assert_non_null(strstr(text, "[tp] round 1: 2 elements, "));
    assert_non_null(strstr(text, "; the drive throttled during 2 of its elements"));
    assert_true(json_object_get_boolean(
        json_at(doc, "tests.0.subtests.0.rounds.0.elements.1.thermal.throttled")));
    free(text);
    json_object_put(doc);
    snprintf(out, sizeof(out), "%s/hot-profile", dir);
    char *pr[] = {"ptsbench", "profile", "streaming", "--target", HOT, "--round-time", "10s",
                  "--out", out, NULL};
    doc = ptsbench_results(pr, out, 0, &text);
    assert_non_null(doc);
    unsigned said = 0;
    for (char *l = text; (l = strstr(l, " round ")); l++)
        if (strchr(l, '\n') && strstr(l, "  throttled") && strstr(l, "  throttled") < strchr(l, '\n'))
            said++;
    print_message("profile round lines saying throttled: %u\n", said);
    assert_true(said > 0);
    free(text);
    json_object_put(doc);
}

/* The NVMe path with the drive's readings from fixtures (the test seam PTSBENCH_THERMAL_FIXTURES,
 * core/thermal_rounds.c): tests/fixtures/health/thermal-sequence-DERIVED holds four smart-log
 * readings DERIVED from the QEMU capture (SOURCES.md: its temperature set to 323, 340, 357 and
 * 359 K; its thermal counters, all 0, and critical warning 5 kept) and, for the thresholds, the
 * WDC SN730's captured id-ctrl (wctemp 357 K, cctemp 361 K: 84 and 88 °C). By hand: rounds at
 * 50, 67, 84 and 86 °C; the counters never rise, so only the temperature can say throttled:
 * round 1 unknown (no reading before it, 50 < 84), round 2 not throttled, rounds 3 (84 >= 84)
 * and 4 throttled by the warning temperature. A 8 MiB file, four rounds of 0.2 s. */
static void test_warning_threshold_sequence_labelled(void **state)
{
    (void)state;
    char out[1024], img[1024];
    snprintf(out, sizeof(out), "%s/seq", dir);
    snprintf(img, sizeof(img), "%s/seq.img", dir);
    setenv("PTSBENCH_THERMAL_FIXTURES", test_fixture_path("health/thermal-sequence-DERIVED"), 1);
    char *argv[] = {"ptsbench", "run", "-t", img, "--size", "8m", "-w", "rw=randwrite,bs=4k,qd=4",
                    "-n", "4", "--round-time", "0.2", "--all-rounds", "--destructive", "-o", out,
                    NULL};
    char *text = NULL;
    struct json_object *doc = ptsbench_results(argv, out, 0, &text);
    unsetenv("PTSBENCH_THERMAL_FIXTURES");
    assert_non_null(doc);
    static const double temp[4] = {50, 67, 84, 86};
    static const int throttled[4] = {-1, 0, 1, 1};   /* -1: absent (unknown) */
    for (int i = 0; i < 4; i++) {
        char p[64];
        snprintf(p, sizeof(p), "rounds.%d.thermal", i);
        struct json_object *th = json_at(doc, p), *t = json_object_object_get(th, "throttled");
        assert_non_null(th);
        assert_true(fabs(json_object_get_double(json_object_object_get(th, "temperature_c")) -
                         temp[i]) < 1e-9);
        struct json_object *wt = json_object_object_get(th, "warning_temp_threshold_c");
        struct json_object *ct = json_object_object_get(th, "critical_temp_threshold_c");
        assert_int_equal(json_object_get_int(wt), 84);
        assert_int_equal(json_object_get_int(ct), 88);
        assert_int_equal(json_object_get_int(json_object_object_get(th, "critical_warning")), 5);
        if (throttled[i] < 0)
            assert_null(t);
        else
            assert_int_equal(json_object_get_boolean(t), throttled[i]);
        struct json_object *by = json_object_object_get(th, "throttled_by");
        if (throttled[i] == 1)
            assert_string_equal(json_object_get_string(by), "warning temperature");
        else
            assert_null(by);
    }
    assert_int_equal(count_prefixed_lines(text, "round "), 4);
    assert_non_null(strstr(text, "round  3/4  "));
    assert_non_null(strstr(text, "  throttled (84 °C, at or above the warning threshold 84 °C)\n"
                                 "round  4/4  "));
    assert_non_null(strstr(text, "  throttled (86 °C, at or above the warning threshold 84 °C)\n"));
    free(text);
    json_object_put(doc);
    /* `ptsbench show`: the same labels on rounds 3 and 4 only, and the critical warning */
    char *show[] = {(char *)ptsbench_bin(), "show", out, NULL};
    struct cmd_result r;
    assert_int_equal(run_cmd(show, &r), 0);
    assert_int_equal(r.status, 0);
    unsigned labelled = 0;
    for (char *l = r.out; (l = strstr(l, "throttled (")); l++)
        labelled++;
    assert_int_equal(labelled, 2);
    assert_non_null(strstr(r.out, "  throttled (84 °C, at or above the warning threshold 84 °C)"));
    assert_non_null(strstr(r.out, "  throttled (86 °C, at or above the warning threshold 84 °C)"));
    assert_non_null(strstr(r.out, "The drive reported a critical warning (0x05: available spare "
                                  "below threshold; reliability degraded"));
    cmd_result_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sim_throttles_from_round_4),
        cmocka_unit_test(test_sim_without_model_records_nothing),
        cmocka_unit_test(test_suite_and_profile_say_throttled),
        cmocka_unit_test(test_warning_threshold_sequence_labelled),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
