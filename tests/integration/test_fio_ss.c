/* test_fio_ss.c — fio's steady-state options and latency target (issue 47), on the simulated
 * drive in short virtual rounds (each case well under a second):
 *   - a job file with ss=iops:2%, ss_dur=4s, ss_ramp=2s runs (the old code: "unknown key 'ss'"):
 *     the run tracks iops, its window's range limit is fio's 2% (tighter than the PTS's 20%),
 *     no window starts before ss_ramp, and steady_state.fio says ptsbench's rule decided and
 *     when fio's own criterion would have stopped; the verdict stays ptsbench's (no
 *     preconditioning: never "steady");
 *   - latency_target=200 (us) on 4 KiB random writes at iodepth 128 settles at a depth
 *     above 1 whose 99th percentile meets the target, and the target held in the last round;
 *     a tighter target (50 us) settles at a lower depth; the declared depth is the search's;
 *   - fio's latency-profile.fio runs as it is (its latency_* keys searched);
 *   - fio's example_latency_steadystate.fio (fio 3.33 refuses steadystate=lat:5% and
 *     steadystate_check_interval): ptsbench takes both keys (fio's current syntax); whatever
 *     else stops the file is not them, and when it runs, fio's lat criterion is recorded as not
 *     evaluated (its 300 s window is longer than the run);
 *   - the samples carry each interval's mean latency (total, read, write: issue 48, point 4):
 *     weighted by the interval's I/Os they average to the round's mean within 1% (2 workers,
 *     a 70/30 mix: the merge of the workers' intervals and the scaled drive's weight);
 *   - ss=lat:5% and ss=lat_slope:... on the simulated drive: fio's criterion is evaluated on
 *     those samples (the old code: "not evaluated, the samples hold no latency") and says
 *     whether fio would have stopped; a deviation limit no window meets: it would not. */
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
#include "read/histogram.h"
#include "stats/hist.h"

static char *dir;

static int setup(void **state)
{
    (void)state;
    dir = make_temp_dir("fio-ss");
    return dir ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    remove_tree(dir);
    free(dir);
    return 0;
}

static const char *str_at(struct json_object *doc, const char *path)
{
    struct json_object *o = json_at(doc, path);
    return o ? json_object_get_string(o) : "";
}

static void test_ss_iops(void **state)
{
    (void)state;
    char job[700];
    assert_true(write_job_file(dir, "ss", "[global]\ndirect=1\nioengine=libaio\ntime_based\n"
                               "[ssjob]\nrw=randread\nbs=4k\niodepth=8\nss=iops:2%\n"
                               "ss_dur=4s\nss_ramp=2s\n", job, sizeof(job)));
    struct run_opts o = {.rounds = "8", .round_time = "2", .keep_out = true};
    struct json_object *doc = run_workload(dir, "ss", job, &o);
    assert_non_null(doc);
    char *text = o.out;
    assert_string_equal(str_at(doc, "run.tracking"), "iops");
    assert_true(fabs(json_num(doc, "steady_state.range_limit_pct") - 2.0) < 1e-9);
    assert_non_null(strstr(str_at(doc, "steady_state.rule"), "range <= 2% of average"));
    assert_string_equal(str_at(doc, "steady_state.fio.decided_by"), "ptsbench");
    assert_string_equal(str_at(doc, "steady_state.fio.criterion"), "iops");
    assert_true(json_num(doc, "steady_state.fio.first_window_round") == 2);
    assert_true(json_object_get_boolean(json_at(doc, "steady_state.fio.evaluated")));
    assert_true(json_object_get_boolean(json_at(doc, "steady_state.fio.fio_would_stop")));
    assert_true(json_num(doc, "steady_state.fio.at_s") >= 6);   /* ss_ramp + ss_dur */
    assert_true(json_num(doc, "steady_state.window.first_round") >= 2);
    /* never steady state without preconditioning, whatever fio's criterion says */
    assert_false(json_object_get_boolean(json_at(doc, "steady_state.reached")));
    assert_non_null(strstr(str_at(doc, "workload.note"), "ss=iops:2%"));
    assert_non_null(strstr(text, "fio's ss=iops:2%"));
    free(text);
    json_object_put(doc);
}

static const char lt_job[] = "[global]\ndirect=1\nioengine=libaio\ntime_based\n[lt]\n"
                             "rw=randwrite\nbs=4k\niodepth=128\nlatency_target=%u\n"
                             "latency_window=100ms\nlatency_percentile=99\n";

/* The last round's settled depth for latency_target=us; its p99 in *p99. */
static double lat_depth(unsigned us, double *p99)
{
    char text[512], name[32], job[700];
    snprintf(text, sizeof(text), lt_job, us);
    snprintf(name, sizeof(name), "lt%u", us);
    assert_true(write_job_file(dir, name, text, job, sizeof(job)));
    struct json_object *doc =
        run_workload(dir, name, job, &(struct run_opts){.rounds = "3", .round_time = "2"});
    assert_non_null(doc);
    struct json_object *rounds = json_at(doc, "rounds");
    assert_non_null(rounds);
    char path[64];
    snprintf(path, sizeof(path), "rounds.%zu", json_object_array_length(rounds) - 1);
    struct json_object *last = json_at(doc, path);
    const double depth = json_num(last, "latency_target.depth");
    *p99 = json_num(last, "total.lat_us.percentiles.99");
    if (isnan(*p99)) {   /* null: the round's completions do not support it (the tail rule);
                            the search is checked on the round's histogram instead */
        assert_false(hist_pct_supported((uint64_t)json_num(last, "total.lat_us.count"), 99));
        struct read_hist *rh = calloc(1, sizeof(*rh));
        assert_non_null(rh);
        read_hist_init(rh);
        assert_int_equal(read_hist_add(rh, last, READ_HIST_TOTAL), 1);
        *p99 = read_hist_percentile_us(rh, 99);
        free(rh);
    }
    assert_true(json_object_get_boolean(json_at(last, "latency_target.held")));
    assert_true(json_object_get_boolean(json_at(last, "latency_target.settled")));
    assert_true(json_num(last, "depth.declared") == depth);   /* the search's, not 128 */
    print_message("  latency_target=%u us: QD %.0f, p99 %.1f us\n", us, depth, *p99);
    json_object_put(doc);
    return depth;
}

static void test_latency_target(void **state)
{
    (void)state;
    double p99 = 0, p99_tight = 0;
    const double depth = lat_depth(200, &p99);
    assert_true(depth > 1 && depth < 128);
    assert_true(p99 <= 200);
    const double tight = lat_depth(50, &p99_tight);
    assert_true(tight < depth);
    assert_true(p99_tight <= 50);
}

static void test_latency_profile_example(void **state)
{
    (void)state;
    struct json_object *doc = run_workload(dir, "latprof",
                                           test_fixture_path("fio-examples/latency-profile.fio"),
                                           &(struct run_opts){.rounds = "3", .round_time = "2"});
    assert_non_null(doc);
    assert_non_null(json_at(doc, "rounds.2.latency_target"));
    assert_true(json_num(doc, "rounds.2.latency_target.depth") >= 1);
    json_object_put(doc);
}

static void test_latency_steadystate_example(void **state)
{
    (void)state;
    const char *job = test_fixture_path("fio-examples/example_latency_steadystate.fio");
    struct run_opts o = {.rounds = "2", .round_time = "2", .keep_err = true};
    struct json_object *doc = run_workload(dir, "latss", job, &o);
    const char *err = o.err ? o.err : "";
    print_message("  example_latency_steadystate.fio: exit %d %s", o.status, err);
    assert_null(strstr(err, "'steadystate"));   /* neither key is what stops it */
    assert_null(strstr(err, "steadystate="));
    assert_null(strstr(err, "steadystate_check_interval"));
    if (o.status == 0) {
        assert_non_null(doc);
        assert_string_equal(str_at(doc, "steady_state.fio.criterion"), "lat");
        assert_false(json_object_get_boolean(json_at(doc, "steady_state.fio.evaluated")));
        assert_string_equal(str_at(doc, "steady_state.fio.why_not"),
                            "fewer samples than fio's window");
        assert_string_equal(str_at(doc, "run.tracking"), "lat_mean_us");
        json_object_put(doc);
    }
    free(o.err);
}

/* Σ lat[j] x iops[j] / Σ iops[j] over a round's samples (the I/O-weighted mean). */
static double weighted_lat(struct json_object *round, const char *lat, const char *iops)
{
    struct json_object *sm = json_at(round, "samples");
    struct json_object *l = json_at(sm, lat), *n = json_at(sm, iops);
    assert_non_null(l);
    assert_non_null(n);
    const size_t k = json_object_array_length(l);
    assert_true(k >= 2);
    assert_int_equal(k, json_object_array_length(n));
    double sum = 0, w = 0;
    for (size_t j = 0; j < k; j++) {
        const double x = json_object_get_double(json_object_array_get_idx(l, j));
        const double c = json_object_get_double(json_object_array_get_idx(n, j));
        assert_true(x > 0);   /* every interval completed I/O of each direction */
        sum += x * c;
        w += c;
    }
    return sum / w;
}

static void test_samples_latency(void **state)
{
    (void)state;
    char job[700];
    assert_true(write_job_file(dir, "slat", "[global]\ndirect=1\nioengine=libaio\n"
                               "time_based\n[mix]\nrw=randrw\nrwmixread=70\nbs=4k\n"
                               "iodepth=16\nnumjobs=2\n", job, sizeof(job)));
    struct json_object *doc =
        run_workload(dir, "slat", job, &(struct run_opts){.rounds = "2", .round_time = "4"});
    assert_non_null(doc);
    static const char *const dirs[][3] = {{"lat_mean_us", "iops", "total"},
                                          {"read_lat_mean_us", "read_iops", "read"},
                                          {"write_lat_mean_us", "write_iops", "write"}};
    for (int r = 0; r < 2; r++) {
        char path[32];
        snprintf(path, sizeof(path), "rounds.%d", r);
        struct json_object *round = json_at(doc, path);
        assert_non_null(round);
        for (int d = 0; d < 3; d++) {
            char mean_path[64];
            snprintf(mean_path, sizeof(mean_path), "%s.lat_us.mean", dirs[d][2]);
            const double mean = json_num(round, mean_path);
            const double w = weighted_lat(round, dirs[d][0], dirs[d][1]);
            print_message("  round %d %s: samples %.3f us, round %.3f us\n", r + 1, dirs[d][0],
                          w, mean);
            assert_true(mean > 0);
            assert_true(fabs(w - mean) <= 0.01 * mean);
        }
    }
    json_object_put(doc);
}

/* A run of job text whose steady_state.fio is evaluated; the document. */
static struct json_object *ss_lat_run(const char *name, const char *ss)
{
    char text[600], job[700];
    snprintf(text, sizeof(text), "[global]\ndirect=1\nioengine=libaio\ntime_based\n[%s]\n"
             "rw=randwrite\nbs=4k\niodepth=8\n%s\nss_dur=4s\n", name, ss);
    assert_true(write_job_file(dir, name, text, job, sizeof(job)));
    struct json_object *doc =
        run_workload(dir, name, job, &(struct run_opts){.rounds = "6", .round_time = "2"});
    assert_non_null(doc);
    assert_string_equal(str_at(doc, "run.tracking"), "lat_mean_us");
    assert_string_equal(str_at(doc, "steady_state.fio.decided_by"), "ptsbench");
    assert_true(json_object_get_boolean(json_at(doc, "steady_state.fio.evaluated")));
    assert_non_null(json_at(doc, "steady_state.fio.fio_would_stop"));
    assert_true(isfinite(json_num(doc, "steady_state.fio.criterion_value")));
    assert_true(json_num(doc, "steady_state.fio.windows") >= 1);
    return doc;
}

static void test_ss_lat(void **state)
{
    (void)state;
    struct json_object *doc = ss_lat_run("sslat", "ss=lat:5%");
    assert_string_equal(str_at(doc, "steady_state.fio.criterion"), "lat");
    /* 4 KiB random writes at QD 8 on the simulated drive: the mean latency per second is
     * flat within 5%, so fio stops at its first window (4 samples) */
    assert_true(json_object_get_boolean(json_at(doc, "steady_state.fio.fio_would_stop")));
    assert_true(json_num(doc, "steady_state.fio.at_s") >= 4);
    assert_true(json_num(doc, "steady_state.fio.criterion_value") < 5);
    assert_null(strstr(str_at(doc, "workload.note"), "not evaluated"));
    json_object_put(doc);
    doc = ss_lat_run("sslats", "ss=lat_slope:2%");
    assert_string_equal(str_at(doc, "steady_state.fio.criterion"), "lat_slope");
    assert_true(json_object_get_boolean(json_at(doc, "steady_state.fio.fio_would_stop")));
    json_object_put(doc);
    /* a limit of 0.001% of the mean no window of real samples meets: fio runs on */
    doc = ss_lat_run("sslat0", "ss=lat:0.001%");
    assert_false(json_object_get_boolean(json_at(doc, "steady_state.fio.fio_would_stop")));
    assert_true(json_num(doc, "steady_state.fio.criterion_value") >= 0.001);
    json_object_put(doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ss_iops),
        cmocka_unit_test(test_latency_target),
        cmocka_unit_test(test_latency_profile_example),
        cmocka_unit_test(test_latency_steadystate_example),
        cmocka_unit_test(test_samples_latency),
        cmocka_unit_test(test_ss_lat),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
