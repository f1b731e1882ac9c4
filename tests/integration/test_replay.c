/* test_replay.c — `ptsbench replay` and `ptsbench trace` end to end:
 *   - the synthetic mail-server trace (traces/mail-server.ini) replayed on the simulated
 *     Z-Drive R4 (as fast as possible at QD 32, and timed) and on a zram device this test
 *     creates: every I/O of the trace issued once, the counts and bytes equal to the trace's;
 *   - a trace with known gaps (bursts 10 ms apart) replayed at its own times on zram: the
 *     median lateness under 1 ms where a fifth of the CPU time was idle meanwhile (under
 *     10 ms where other work kept the CPUs busy), busy time a small part of the timeline,
 *     counts equal;
 *   - --loop 3: three passes, each the whole trace;
 *   - Storage Bench heavy (synthetic) at the trace's own queue depths: the queue depth each
 *     I/O is issued at is never above the trace's, and its mean is the trace's;
 *   - the refusals: a writing trace on a block device without --destructive, a trace without
 *     times in timed mode, a missing file: exit 2, one line, nothing written;
 *   - a capture of a ptsbench run on a loop device (the kernel's block tracepoints, where this
 *     machine allows them) replays with the same count and bytes.
 * zram and loop devices are this test's own, removed on every way out (helpers.h). */
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
#include <unistd.h>

#include "helpers.h"

static char *dir;
static char loopdev[64];

static int setup(void **state)
{
    (void)state;
    dir = make_temp_dir("replay");
    return dir ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    zram_remove_all();
    if (loopdev[0]) {
        char *argv[] = {"losetup", "-d", loopdev, NULL};
        run_quiet(argv);
        loopdev[0] = '\0';
    }
    remove_tree(dir);
    free(dir);
    return 0;
}

/* Run ptsbench with args (NULL-terminated, without the program), want its exit status. */
static struct cmd_result run(int want, const char *const *args)
{
    char *argv[48];
    int n = 0;
    argv[n++] = (char *)ptsbench_bin();
    for (int i = 0; args[i] && n < 47; i++)
        argv[n++] = (char *)args[i];
    argv[n] = NULL;
    struct cmd_result r;
    assert_int_equal(run_cmd(argv, &r), 0);
    if (r.status != want)
        print_error("ptsbench %s ...: exit %d, want %d\n%s\n%s\n", args[0], r.status, want,
                    r.out, r.errout);
    assert_int_equal(r.status, want);
    return r;
}

static struct json_object *results(const char *out)
{
    char path[700];
    snprintf(path, sizeof(path), "%s/results.json", out);
    struct json_object *doc = load_json(path);
    assert_non_null(doc);
    assert_string_equal(json_object_get_string(json_at(doc, "schema")), "ptsbench.replay");
    assert_string_equal(json_object_get_string(json_at(doc, "status")), "complete");
    return doc;
}

/* Every I/O of the trace replayed once per pass: counts and bytes per direction. */
static void same_counts(struct json_object *doc, unsigned passes)
{
    const double tr = json_num(doc, "trace.read.ios"), tw = json_num(doc, "trace.write.ios");
    const double br = json_num(doc, "trace.read.bytes"), bw = json_num(doc, "trace.write.bytes");
    assert_true(tr + tw > 0);
    assert_true(json_num(doc, "total.read.ios") == passes * tr);
    assert_true(json_num(doc, "total.write.ios") == passes * tw);
    assert_true(json_num(doc, "total.read.bytes") == passes * br);
    assert_true(json_num(doc, "total.write.bytes") == passes * bw);
    assert_int_equal(json_object_array_length(json_at(doc, "passes")), passes);
    const double busy = json_num(doc, "total.busy_s"), el = json_num(doc, "total.elapsed_s");
    if (!isnan(busy) || !json_at(doc, "total.measured_by"))   /* fio: when it reports one */
        assert_true(busy > 0 && busy <= el * 1.0001 + 1e-9);
}

static void out_dir(char *buf, size_t len, const char *name)
{
    snprintf(buf, len, "%s/%s", dir, name);
}

static void test_mail_server_sim(void **state)
{
    (void)state;
    char o1[600], o2[600];
    out_dir(o1, sizeof(o1), "mail-afap");
    out_dir(o2, sizeof(o2), "mail-timed");
    const char *afap[] = {"replay", "gen:mail-server,scale=0.002", "--target",
                          "sim:zdrive-r4-cm88-1.6t", "--mode", "afap", "--qd", "32", "-o", o1,
                          NULL};
    struct cmd_result r = run(0, afap);
    print_message("%s", r.out);
    cmd_result_free(&r);
    struct json_object *doc = results(o1);
    same_counts(doc, 1);
    assert_int_equal((int)json_num(doc, "trace.ios"), 2000);
    assert_true(fabs(json_num(doc, "trace.read.ios") / 2000 - 0.95) < 0.02);
    /* QD 32 kept: almost every I/O issued with 31 others outstanding */
    assert_true(json_num(doc, "total.qd_mean") > 30);
    const double afap_iops = json_num(doc, "total.total.iops");
    json_object_put(doc);

    const char *timed[] = {"replay", "gen:mail-server,scale=0.002", "--target",
                           "sim:zdrive-r4-cm88-1.6t", "-o", o2, NULL};
    r = run(0, timed);
    cmd_result_free(&r);
    doc = results(o2);
    same_counts(doc, 1);
    assert_string_equal(json_object_get_string(json_at(doc, "replay.mode")), "timed");
    /* virtual time: every I/O at its time exactly; the rate is the trace's, far below afap */
    assert_true(json_num(doc, "total.lateness_us.max") == 0);
    const double trace_iops = json_num(doc, "trace.iops");
    assert_true(fabs(json_num(doc, "total.total.iops") / trace_iops - 1) < 0.05);
    assert_true(afap_iops > 20 * trace_iops);
    json_object_put(doc);
}

static void test_loops_and_trace_qd(void **state)
{
    (void)state;
    char o[600];
    out_dir(o, sizeof(o), "loops");
    const char *loops[] = {"replay", "gen:mail-server,scale=0.001", "--target",
                           "sim:zdrive-6300-1.6t", "--mode", "afap", "--qd", "8", "--loop", "3",
                           "-o", o, "-q", NULL};
    struct cmd_result r = run(0, loops);
    cmd_result_free(&r);
    struct json_object *doc = results(o);
    same_counts(doc, 3);
    for (int p = 0; p < 3; p++) {
        char k[64];
        snprintf(k, sizeof(k), "passes.%d.total.ios", p);
        assert_true(json_num(doc, k) == json_num(doc, "trace.ios"));
    }
    json_object_put(doc);

    out_dir(o, sizeof(o), "heavy");
    const char *heavy[] = {"replay", "gen:storage-bench-2011-heavy,scale=0.001", "--target",
                           "sim:zdrive-6300-1.6t", "--mode", "afap", "-o", o, "-q", NULL};
    r = run(0, heavy);
    cmd_result_free(&r);
    doc = results(o);
    same_counts(doc, 1);
    assert_string_equal(json_object_get_string(json_at(doc, "replay.queue_depth")), "trace");
    /* the trace's own depths: the published mean 4.625 (the generator's within 5%), 59% at
     * QD 1; replayed at those depths, the mean cannot exceed the trace's */
    const double tq = json_num(doc, "trace.qd_mean"), rq = json_num(doc, "total.qd_mean");
    print_message("Storage Bench heavy (synthetic): trace QD %.3f (%.1f%% at 1), replayed %.3f\n",
                  tq, json_num(doc, "trace.qd1_pct"), rq);
    assert_true(fabs(tq / 4.625 - 1) < 0.05);
    assert_true(fabs(json_num(doc, "trace.qd1_pct") - 59) < 3);
    assert_true(rq <= tq + 1e-9);
    assert_true(rq > 0.8 * tq);
    json_object_put(doc);
}

/* A trace with known gaps: 200 bursts of 10 I/Os 100 us apart, a burst every 10 ms. */
static void write_gaps(const char *path)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "timestamp,offset,length,direction\n");
    uint64_t x = 12345;
    for (int b = 0; b < 200; b++)
        for (int i = 0; i < 10; i++) {
            x = x * 6364136223846793005ull + 1442695040888963407ull;
            fprintf(f, "%.6f,%llu,4096,%c\n", b * 0.010 + i * 0.0001,
                    (unsigned long long)((x >> 20) % 16384) * 4096, (x >> 10) % 10 < 7 ? 'R' : 'W');
        }
    fclose(f);
}

/* Idle and total time of all CPUs so far, in ticks (/proc/stat's first line). */
static void cpu_times(uint64_t *idle, uint64_t *total)
{
    unsigned long long v[8];
    FILE *f = fopen("/proc/stat", "r");
    assert_non_null(f);
    assert_int_equal(fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1],
                            &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]), 8);
    fclose(f);
    *idle = v[3] + v[4];   /* idle, iowait */
    *total = 0;
    for (int i = 0; i < 8; i++)
        *total += v[i];
}

static void test_zram(void **state)
{
    (void)state;
    char dev[64];
    if (!zram_create("256M", dev, sizeof(dev)))
        skip();
    char trace[600], o[600];
    snprintf(trace, sizeof(trace), "%s/gaps.csv", dir);
    write_gaps(trace);

    /* a writing trace on a block device: refused without --destructive, nothing written */
    out_dir(o, sizeof(o), "refused");
    const char *refused[] = {"replay", trace, "--target", dev, "-o", o, NULL};
    struct cmd_result r = run(2, refused);
    assert_non_null(strstr(r.errout, "--destructive"));
    assert_int_equal(access(o, F_OK), -1);
    cmd_result_free(&r);

    out_dir(o, sizeof(o), "gaps");
    const char *gaps[] = {"replay", trace, "--target", dev, "--destructive", "-o", o, NULL};
    uint64_t idle0, total0, idle1, total1;
    cpu_times(&idle0, &total0);
    r = run(0, gaps);
    cpu_times(&idle1, &total1);
    const double idle = total1 > total0 ? (double)(idle1 - idle0) / (double)(total1 - total0) : 1;
    print_message("%s", r.out);
    cmd_result_free(&r);
    struct json_object *doc = results(o);
    same_counts(doc, 1);
    assert_int_equal((int)json_num(doc, "trace.ios"), 2000);
    const double med = json_num(doc, "total.lateness_us.median");
    print_message("zram, timed: lateness median %.1f us, 99%% %.1f us, max %.1f us; busy %.3f s "
                  "of %.3f s; CPUs idle %.0f%% of the run\n", med,
                  json_num(doc, "total.lateness_us.p99"), json_num(doc, "total.lateness_us.max"),
                  json_num(doc, "total.busy_s"), json_num(doc, "total.elapsed_s"), 100 * idle);
    /* The replayer naps 20 us at a time until 200 us before an I/O is due, then polls: to the
     * scheduler it is a busy thread, so when other work keeps the CPUs busy it waits its turn
     * like one. Measured on 2 vCPUs: alone, CPUs 85-97% idle, medians 0.1-0.2 us; beside one
     * CPU hog (as `make test` runs two programs at once), 26-31% idle, 0.1-0.2 us; beside a
     * `make sanitize` or three hogs, 0-31% idle, medians 0.2-741 us and once 1483 us, those
     * above 30 us only where under 2% was idle. The 1 ms bound (a replayer sleeping on a 4 ms
     * tick is above it) is asserted where a fifth of the CPU time was idle; on a busier
     * machine the lateness is the machine's, and 10 ms still fails a replayer that sleeps
     * through whole bursts (they are 10 ms apart). */
    if (idle >= 0.2)
        assert_true(med < 1000);
    else {
        print_message("CPUs %.0f%% idle: the 1 ms bound is not asserted, 10 ms is\n", 100 * idle);
        assert_true(med < 10000);
    }
    /* 2 s of timeline, 2000 I/Os of tens of microseconds: busy a small part of it */
    assert_true(json_num(doc, "total.elapsed_s") > 1.9);
    assert_true(json_num(doc, "total.busy_s") < 0.5 * json_num(doc, "total.elapsed_s"));
    json_object_put(doc);

    out_dir(o, sizeof(o), "mail-zram");
    const char *mail[] = {"replay", "gen:mail-server,scale=0.002", "--target", dev,
                          "--destructive", "--mode", "afap", "--qd", "16", "-o", o, "-q", NULL};
    r = run(0, mail);
    cmd_result_free(&r);
    doc = results(o);
    same_counts(doc, 1);
    assert_string_equal(json_object_get_string(json_at(doc, "replay.remap")), "scale");
    print_message("mail server (synthetic) on zram, afap QD 16: %.0f IOPS, %.1f MB/s\n",
                  json_num(doc, "total.total.iops"), json_num(doc, "total.total.mb_s"));
    json_object_put(doc);
}

/* Through fio (read_iolog, replay_redirect, replay_no_stall): the same trace, every I/O once;
 * at its times one at a time (fio counts a deeper queue's wait for the times as latency). */
static void test_fio(void **state)
{
    (void)state;
    if (!test_have_fio())
        skip();
    char dev[64];
    if (!zram_create("256M", dev, sizeof(dev)))
        skip();
    char o[600], trace[600];
    out_dir(o, sizeof(o), "fio-afap");
    const char *afap[] = {"replay", "gen:mail-server,scale=0.001", "--target", dev,
                          "--destructive", "--mode", "afap", "--qd", "1", "-e", "fio", "-o", o,
                          "-q", NULL};
    struct cmd_result r = run(0, afap);
    cmd_result_free(&r);
    struct json_object *doc = results(o);
    same_counts(doc, 1);   /* fio's byte count is exact at iodepth 1 */
    assert_string_equal(json_object_get_string(json_at(doc, "engine.name")), "fio");
    assert_non_null(strstr(json_object_get_string(json_at(doc, "total.measured_by")), "fio"));
    json_object_put(doc);

    snprintf(trace, sizeof(trace), "%s/gaps-fio.csv", dir);
    write_gaps(trace);
    out_dir(o, sizeof(o), "fio-timed");
    const char *timed[] = {"replay", trace, "--target", dev, "--destructive", "-e", "fio",
                           "-o", o, "-q", NULL};
    r = run(0, timed);
    cmd_result_free(&r);
    doc = results(o);
    same_counts(doc, 1);
    print_message("fio, timed: %.0f IOPS over %.2f s, mean latency %.1f us\n",
                  json_num(doc, "total.total.iops"), json_num(doc, "total.elapsed_s"),
                  json_num(doc, "total.total.lat_us.mean"));
    assert_true(json_num(doc, "total.total.lat_us.mean") < 1000);
    assert_true(json_num(doc, "total.elapsed_s") > 1.9);
    json_object_put(doc);

    out_dir(o, sizeof(o), "fio-deep");
    const char *deep[] = {"replay", trace, "--target", dev, "--destructive", "-e", "fio",
                          "--qd", "4", "-o", o, NULL};
    r = run(2, deep);
    assert_non_null(strstr(r.errout, "use --qd 1"));
    cmd_result_free(&r);
}

static void test_bad_input(void **state)
{
    (void)state;
    char o[600], v2[600];
    out_dir(o, sizeof(o), "bad");
    const char *missing[] = {"replay", "/nonexistent/x.csv", "--target", "sim:generic-mlc25",
                             "-o", o, NULL};
    struct cmd_result r = run(2, missing);
    assert_non_null(strstr(r.errout, "/nonexistent/x.csv"));
    cmd_result_free(&r);
    snprintf(v2, sizeof(v2), "%s/nowait.iolog", dir);
    FILE *f = fopen(v2, "w");
    assert_non_null(f);
    fprintf(f, "fio version 2 iolog\n/dev/x add\n/dev/x open\n/dev/x read 0 4096\n");
    fclose(f);
    const char *timed[] = {"replay", v2, "--target", "sim:generic-mlc25", "--mode", "timed",
                           "-o", o, NULL};
    r = run(2, timed);
    assert_non_null(strstr(r.errout, "holds no times"));
    cmd_result_free(&r);
    const char *gen[] = {"replay", "gen:no-such-trace", "--target", "sim:generic-mlc25", "-o",
                         o, NULL};
    r = run(2, gen);
    assert_non_null(strstr(r.errout, "no-such-trace"));
    cmd_result_free(&r);
    assert_int_equal(access(o, F_OK), -1);
}

/* A loop device over a file of this test's, attached by this test. */
static bool make_loop(char *img, size_t len)
{
    if (!is_root() || access("/dev/loop-control", F_OK) != 0) {
        printf("SKIP: loop devices need root and /dev/loop-control\n");
        return false;
    }
    snprintf(img, len, "%s/loop.img", dir);
    FILE *f = fopen(img, "w");
    if (!f || ftruncate(fileno(f), 64 << 20) != 0) {
        if (f)
            fclose(f);
        return false;
    }
    fclose(f);
    char *argv[] = {"losetup", "-f", "--show", img, NULL};
    struct cmd_result r;
    if (run_cmd(argv, &r) != 0 || r.status != 0) {
        printf("SKIP: could not set up a loop device: %s\n", r.errout ? r.errout : "");
        cmd_result_free(&r);
        return false;
    }
    snprintf(loopdev, sizeof(loopdev), "%.*s", (int)strcspn(r.out, "\n"), r.out);
    cmd_result_free(&r);
    return loopdev[0] == '/';
}

static void test_capture_and_replay(void **state)
{
    (void)state;
    char img[600];
    if (!make_loop(img, sizeof(img)))
        skip();
    char trace[600], o_run[600], o_rep[600];
    snprintf(trace, sizeof(trace), "%s/run.blkparse", dir);
    out_dir(o_run, sizeof(o_run), "captured-run");
    out_dir(o_rep, sizeof(o_rep), "captured-replay");
    const char *cap[] = {"trace", "capture", "--target", loopdev, "-o", trace, "--",
                         ptsbench_bin(), "run", "--target", loopdev, "--destructive",
                         "--workload", "rw=randrw,bs=4k,qd=4", "--rounds", "1",
                         "--round-time", "1s", "-q", "-o", o_run, NULL};
    char *argv[32];
    int n = 0;
    argv[n++] = (char *)ptsbench_bin();
    for (int i = 0; cap[i]; i++)
        argv[n++] = (char *)cap[i];
    argv[n] = NULL;
    struct cmd_result r;
    assert_int_equal(run_cmd(argv, &r), 0);
    if (r.status != 0) {
        printf("SKIP: the kernel's block tracepoints cannot be used here: %s\n", r.errout);
        cmd_result_free(&r);
        skip();
    }
    print_message("%s", r.out);
    cmd_result_free(&r);
    const char *rep[] = {"replay", trace, "--target", loopdev, "--destructive", "--mode",
                         "afap", "-o", o_rep, "-q", NULL};
    r = run(0, rep);
    cmd_result_free(&r);
    struct json_object *doc = results(o_rep);
    same_counts(doc, 1);
    assert_string_equal(json_object_get_string(json_at(doc, "trace.format")), "blkparse");
    assert_true(json_object_get_boolean(json_at(doc, "trace.completions")));
    /* the run's own counted I/Os are in the trace (it also holds those after the round's end) */
    char rp[700];
    snprintf(rp, sizeof(rp), "%s/results.json", o_run);
    struct json_object *run_doc = load_json(rp);
    assert_non_null(run_doc);
    const double run_ios = json_num(run_doc, "rounds.0.total.ios");
    print_message("captured %g I/Os (%g bytes) of a run that counted %g; replayed %g\n",
                  json_num(doc, "trace.ios"), json_num(doc, "trace.bytes"), run_ios,
                  json_num(doc, "total.total.ios"));
    assert_true(json_num(doc, "trace.ios") >= run_ios);
    assert_true(json_num(doc, "trace.ios") < run_ios + 64);
    json_object_put(run_doc);
    json_object_put(doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mail_server_sim),
        cmocka_unit_test(test_loops_and_trace_qd),
        cmocka_unit_test(test_zram),
        cmocka_unit_test(test_fio),
        cmocka_unit_test(test_bad_input),
        cmocka_unit_test(test_capture_and_replay),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
