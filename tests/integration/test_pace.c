/* test_pace.c — fio's pacing and flow keys as `ptsbench run` applies them (core/worker.c pace_*),
 * on the simulated drive's virtual clock (fast, deterministic) unless said:
 *   - rate=8m,2m on a 70/30 mix: each direction at its own rate (within 3%), as fio 3.33;
 *   - rate_process=poisson: the per-second counts of a Poisson process (variance over mean
 *     near 1) against the even schedule's (near 0);
 *   - startdelay=1 on a file target: the run lasts the delay and the round in wall time, the
 *     round's figures are over its own time;
 *   - number_ios, and loops multiplying it: the round ends after that many I/Os;
 *   - thinktime_blocks=8 at iodepth 8: bursts of 8, then the think once nothing is in flight;
 *   - fill_device: a write round ends once the active range is written;
 *   - rw=trim is refused naming what it would change; the fio job file carries the keys.
 * Each of these failed on the code before (the keys refused, or rate_iops one schedule). */
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

#include "engine/fio_job.h"
#include "helpers.h"
#include "io/workload.h"

static char *dir;

static int setup(void **state)
{
    (void)state;
    dir = make_temp_dir("pace");
    return dir ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    remove_tree(dir);
    free(dir);
    return 0;
}

static double k_of(struct json_object *doc)
{
    double k = json_num(doc, "target.simulated.time_scale_k");
    return isnan(k) || k < 1 ? 1 : k;
}

static void test_rate_per_direction(void **state)
{
    (void)state;
    struct json_object *doc = run_workload(dir, "rate",
                                           "rw=randrw,rwmixread=70,bs=4k,qd=8,rate=8m:2m",
                                           &(struct run_opts){.round_time = "10"});
    assert_non_null(doc);
    const double r = json_num(doc, "rounds.0.read.mib_s");
    const double w = json_num(doc, "rounds.0.write.mib_s");
    print_message("  rate=8m,2m: reads %.3f MiB/s, writes %.3f MiB/s (want 8, 2)\n", r, w);
    assert_true(fabs(r - 8) < 8 * 0.03);
    assert_true(fabs(w - 2) < 2 * 0.03);
    json_object_put(doc);
    /* one value of rate_iops: each direction at it, as fio (3.33 on null: 300 + 300) */
    doc = run_workload(dir, "rate-iops", "rw=randrw,rwmixread=70,bs=4k,qd=8,rate_iops=3200",
                       &(struct run_opts){.round_time = "10"});
    assert_non_null(doc);
    const double ri = json_num(doc, "rounds.0.read.iops");
    const double wi = json_num(doc, "rounds.0.write.iops");
    print_message("  rate_iops=3200 on a 70/30 mix: %.0f + %.0f IOPS (want 3200 each)\n", ri, wi);
    assert_true(fabs(ri - 3200) < 3200 * 0.03 && fabs(wi - 3200) < 3200 * 0.03);
    assert_non_null(strstr(json_object_get_string(json_at(doc, "workload.note")), "per direction"));
    json_object_put(doc);
}

/* Variance over mean of the per-second counts of the drive's I/Os (each completion stands for
 * k of them on a scaled drive): 1 for a Poisson process, 0 for an even schedule. */
static double dispersion(const char *process)
{
    char spec[200], name[64];
    snprintf(spec, sizeof spec, "rw=randread,bs=4k,qd=8,rate_iops=6400,rate_process=%s", process);
    snprintf(name, sizeof name, "gaps-%s", process);
    struct json_object *doc = run_workload(dir, name, spec, &(struct run_opts){.round_time = "60"});
    assert_non_null(doc);
    const double k = k_of(doc);
    struct json_object *a = json_at(doc, "rounds.0.samples.iops");
    assert_non_null(a);
    const size_t n = json_object_array_length(a);
    assert_true(n >= 50);
    double sum = 0, sq = 0;
    for (size_t i = 0; i < n; i++) {
        const double c = json_object_get_double(json_object_array_get_idx(a, i)) / k;
        sum += c;
        sq += c * c;
    }
    const double mean = sum / (double)n, var = sq / (double)n - mean * mean;
    print_message("  rate_process=%s: %zu seconds, %.1f a second, variance/mean %.3f\n", process,
                  n, mean, var / mean);
    assert_true(fabs(mean - 6400 / k) < 6400 / k * 0.1);
    json_object_put(doc);
    return var / mean;
}

static void test_poisson(void **state)
{
    (void)state;
    assert_true(dispersion("linear") < 0.05);
    const double d = dispersion("poisson");
    assert_true(d > 0.6 && d < 1.6);
}

/* On a file target, in wall time: the run lasts at least the delay and the round (the
 * simulated drive's virtual clock would show nothing: a job's figures are over its own time). */
static void test_startdelay(void **state)
{
    (void)state;
    char target[600];
    snprintf(target, sizeof target, "%s/delayed.dat", dir);
    struct run_opts o = {.target = target, .round_time = "0.5",
                         .extra = (const char *[]){"--size", "16m", NULL}};
    struct json_object *doc = run_workload(dir, "delayed", "rw=randread,bs=4k,qd=4,startdelay=1",
                                           &o);
    assert_non_null(doc);
    const double wall = o.wall_s;
    const double el = json_num(doc, "rounds.0.elapsed_s");
    const double iops = json_num(doc, "rounds.0.total.iops");
    print_message("  startdelay=1, a round of 0.5 s: %.2f s in all; the round %.3f s, %.0f IOPS\n",
                  wall, el, iops);
    assert_true(wall > 1.5);
    assert_true(fabs(el - 0.5) < 0.05 && iops > 100);
    assert_non_null(strstr(json_object_get_string(json_at(doc, "workload.note")), "startdelay"));
    json_object_put(doc);
}

static void test_number_ios_and_loops(void **state)
{
    (void)state;
    struct json_object *doc = run_workload(dir, "nios", "rw=randread,bs=4k,qd=8,number_ios=1000",
                                           &(struct run_opts){.round_time = "10"});
    assert_non_null(doc);
    double k = k_of(doc), ios = json_num(doc, "rounds.0.total.ios");
    const double el = json_num(doc, "rounds.0.elapsed_s");
    print_message("  number_ios=1000: %.0f I/Os (k %.0f) in %.3f s of a 10 s round\n", ios, k, el);
    assert_true(ios == 1000 * k && el < 5);
    json_object_put(doc);
    doc = run_workload(dir, "loops", "rw=randread,bs=4k,qd=8,number_ios=1000,loops=3",
                       &(struct run_opts){.round_time = "10"});
    assert_non_null(doc);
    ios = json_num(doc, "rounds.0.total.ios");
    print_message("  number_ios=1000,loops=3: %.0f I/Os\n", ios);
    assert_true(ios == 3000 * k_of(doc));
    json_object_put(doc);
}

static void test_thinktime_blocks(void **state)
{
    (void)state;
    const char *spec = "rw=randread,bs=4k,qd=8,thinktime=1ms,thinktime_blocks=8";
    struct json_object *doc = run_workload(dir, "think", spec,
                                           &(struct run_opts){.round_time = "4"});
    assert_non_null(doc);
    const double iops = json_num(doc, "rounds.0.total.iops");
    print_message("  thinktime=1ms after 8 at QD 8: %.0f IOPS (want below 8000, above 6000)\n",
                  iops);
    assert_true(iops < 8000 && iops > 6000);
    json_object_put(doc);
}

static void test_fill_device(void **state)
{
    (void)state;
    struct json_object *doc = run_workload(dir, "fill",
                                           "rw=write,bs=128k,qd=8,size=0.25%,fill_device=1",
                                           &(struct run_opts){.round_time = "600"});
    assert_non_null(doc);
    const double bytes = json_num(doc, "rounds.0.total.bytes");
    const double range = json_num(doc, "workload.active_range.length") * k_of(doc);
    const double el = json_num(doc, "rounds.0.elapsed_s");
    print_message("  fill_device over %.0f bytes: %.0f written in %.1f s of 600\n", range, bytes,
                  el);
    assert_true(fabs(bytes - range) < 128 * 1024 * k_of(doc) && el < 600);
    json_object_put(doc);
}

static void test_trim_refused_and_fio_job(void **state)
{
    (void)state;
    struct workload wl;
    char err[512], job[16384];
    /* trims were refused here; now taken, their rate the third value (test_workload_trim.c) */
    assert_int_equal(wl_parse_inline("rw=randtrim,rate=1m:2m:3m", &wl, err, sizeof err), 0);
    assert_true(wl.trim && wl.rate_bps[2] > wl.rate_bps[1]);
    assert_int_equal(wl_parse_inline("rw=randrw,rate=1m:200k,rate_process=poisson,"
                                     "number_ios=500,startdelay=2", &wl, err, sizeof err), 0);
    struct wl_range range;
    assert_int_equal(wl_check_target(&wl, 256ull << 20, 512, "t", &range, err, sizeof err), 0);
    struct fio_job_opts o = {.name = "k", .filename = "/dev/null", .ioengine = "io_uring",
                             .runtime_ns = 1000000000ull};
    assert_int_equal(fio_job_write(&wl, &range, &o, job, sizeof job, err, sizeof err), 0);
    assert_non_null(strstr(job, "\nrate=1048576,204800\n"));
    assert_non_null(strstr(job, "\nrate_process=poisson\n"));
    assert_non_null(strstr(job, "\nnumber_ios=500\n"));
    assert_non_null(strstr(job, "\nstartdelay=2000000us\n"));
    assert_null(strstr(job, "time_based"));   /* fio's time_based would run past number_ios */
    assert_non_null(strstr(job, "\nruntime=1000ms\n"));
    /* the canonical form (results' workload.spec) reads back the same */
    char a[1024], b[1024];
    assert_int_equal(wl_parse_inline("rw=randrw,rate=8m:,rate_iops=:300,rate_process=poisson,"
                                     "io_submit_mode=offload,iodepth=4,thinktime=100,"
                                     "thinktime_blocks=4,thinktime_spin=20,thinktime_iotime=2s,"
                                     "startdelay=1500ms,number_ios=7,loops=2,fill_device=1",
                                     &wl, err, sizeof err), 0);
    wl_format(&wl, a, sizeof a);
    print_message("  %s\n", a);
    assert_int_equal(wl_parse_inline(a, &wl, err, sizeof err), 0);
    wl_format(&wl, b, sizeof b);
    assert_string_equal(a, b);
    assert_non_null(strstr(a, ",number_ios=14,"));   /* loops folded in once */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rate_per_direction),
        cmocka_unit_test(test_poisson),
        cmocka_unit_test(test_startdelay),
        cmocka_unit_test(test_number_ios_and_loops),
        cmocka_unit_test(test_thinktime_blocks),
        cmocka_unit_test(test_fill_device),
        cmocka_unit_test(test_trim_refused_and_fio_job),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
