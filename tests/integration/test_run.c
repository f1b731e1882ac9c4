/* test_run.c — `ptsbench run` end to end on a file target and on zram, its results file,
 * interruption, bad input (exit 2, one line naming the value, nothing written), and fio job
 * files as workloads (a shipped profile's fio form, rate_iops, thinktime). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <json-c/json.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "helpers.h"
#include "stats/hist.h"

struct ctx {
    char *dir;
};

static int setup(void **state)
{
    struct ctx *c = calloc(1, sizeof(*c));
    c->dir = make_temp_dir("run");
    if (!c->dir)
        return -1;
    *state = c;
    return 0;
}

static int teardown(void **state)
{
    struct ctx *c = *state;
    zram_remove_all();   /* a device a failed test did not get to remove */
    remove_tree(c->dir);
    free(c->dir);
    free(c);
    return 0;
}

static bool exists(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0;
}

/* Checks shared by the file and zram runs of a 3-round 4 KiB random 70/30 workload. */
static void check_results(const char *results, unsigned qd, unsigned workers, unsigned rounds,
                          double round_s)
{
    struct json_object *doc = load_json(results);
    assert_non_null(doc);
    assert_string_equal(json_object_get_string(json_at(doc, "schema")), "ptsbench.run");
    assert_string_equal(json_object_get_string(json_at(doc, "status")), "complete");
    assert_int_equal(json_object_array_length(json_at(doc, "rounds")), rounds);
    assert_non_null(json_at(doc, "host.kernel"));
    assert_non_null(json_at(doc, "target.capacity_bytes"));
    assert_non_null(json_at(doc, "steady_state.reached"));
    for (unsigned r = 0; r < rounds; r++) {
        char k[128];
#define NUM(path) (snprintf(k, sizeof(k), "rounds.%u.%s", r, path), json_num(doc, k))
        double iops = NUM("total.iops"), riops = NUM("read.iops"), wiops = NUM("write.iops");
        double mean_us = NUM("total.lat_us.mean");
        snprintf(k, sizeof(k), "rounds.%u.total.lat_us.percentiles", r);
        struct json_object *pct = json_at(doc, k), *o;
        assert_non_null(pct);
        assert_true(json_object_object_get_ex(pct, "50", &o));
        double p50 = json_object_get_double(o);
        assert_true(json_object_object_get_ex(pct, "99", &o));
        double p99 = json_object_get_double(o);
        assert_true(json_object_object_get_ex(pct, "99.999", &o));
        /* null where the round's I/Os do not support it (the tail rule: 1 million for 99.999) */
        assert_true((o != NULL) == hist_pct_supported((uint64_t)NUM("total.lat_us.count"), 99.999));
        double max = NUM("total.lat_us.max");
        double p99999 = o ? json_object_get_double(o) : max;
        double min = NUM("total.lat_us.min");
        double mb = NUM("total.mb_s"), mib = NUM("total.mib_s");
        double elapsed = NUM("elapsed_s");
        print_message("round %u: %.0f IOPS (r %.0f w %.0f), mean %.1f us, p99 %.1f us, max %.1f us\n",
                      r + 1, iops, riops, wiops, mean_us, p99, max);
        assert_true(iops > 100);
        assert_true(mean_us > 0);
        assert_true(fabs(riops + wiops - iops) <= 1e-6 * iops + 1);
        /* 70/30 mix within 3 points */
        assert_true(fabs(riops / iops - 0.70) < 0.03);
        /* Little's law: outstanding I/Os = IOPS x mean latency, within a reasonable factor */
        double outstanding = iops * mean_us / 1e6;
        print_message("  IOPS x mean latency = %.2f (qd x workers = %u)\n", outstanding, qd * workers);
        assert_true(outstanding > 0.5 * qd * workers);
        assert_true(outstanding < 1.2 * qd * workers);
        /* percentiles ordered and inside [min, max] */
        assert_true(min <= p50 && p50 <= p99 && p99 <= p99999 && p99999 <= max);
        /* MB/s vs MiB/s */
        assert_true(fabs(mb / mib - 1.048576) < 1e-6);
        assert_true(fabs(elapsed - round_s) < 0.01);
        /* per-second samples add up to the round */
        snprintf(k, sizeof(k), "rounds.%u.samples.iops", r);
        struct json_object *s = json_at(doc, k);
        assert_non_null(s);
        size_t n = json_object_array_length(s);
        assert_int_equal(n, (size_t)round_s);
        double sum = 0;
        for (size_t i = 0; i < n; i++)
            sum += json_object_get_double(json_object_array_get_idx(s, i));
        assert_true(fabs(sum / n - iops) < 0.01 * iops);
#undef NUM
    }
    json_object_put(doc);
}

static void run_file_job(const char *target, const char *size, const char *engine,
                         bool destructive, const char *out)
{
    char *argv[32];
    int i = 0;
    argv[i++] = (char *)ptsbench_bin();
    argv[i++] = "run";
    argv[i++] = "--target";
    argv[i++] = (char *)target;
    if (size) {
        argv[i++] = "--size";
        argv[i++] = (char *)size;
    }
    argv[i++] = "--workload";
    argv[i++] = "rw=randrw,rwmixread=70,bs=4k,qd=16,workers=2";
    argv[i++] = "--rounds";
    argv[i++] = "3";
    argv[i++] = "--round-time";
    argv[i++] = "2";
    argv[i++] = "--all-rounds";
    argv[i++] = "--engine";
    argv[i++] = (char *)engine;
    if (destructive)
        argv[i++] = "--destructive";
    argv[i++] = "--out";
    argv[i++] = (char *)out;
    argv[i] = NULL;
    struct cmd_result r;
    assert_int_equal(run_cmd(argv, &r), 0);
    if (r.status != 0)
        print_message("stdout:\n%s\nstderr:\n%s\n", r.out, r.errout);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "round  3/3"));
    cmd_result_free(&r);
}

static void test_file_io_uring(void **state)
{
    struct ctx *c = *state;
    char target[512], out[512], results[600];
    snprintf(target, sizeof(target), "%s/target.dat", c->dir);
    snprintf(out, sizeof(out), "%s/out-uring", c->dir);
    run_file_job(target, "256m", "io_uring", false, out);
    struct stat st;
    assert_int_equal(stat(target, &st), 0);
    assert_int_equal(st.st_size, 256 << 20);
    snprintf(results, sizeof(results), "%s/results.json", out);
    check_results(results, 16, 2, 3, 2.0);
}

static void test_file_libaio(void **state)
{
    struct ctx *c = *state;
    char target[512], out[512], results[600];
    snprintf(target, sizeof(target), "%s/target-aio.dat", c->dir);
    snprintf(out, sizeof(out), "%s/out-aio", c->dir);
    run_file_job(target, "256m", "libaio", false, out);
    snprintf(results, sizeof(results), "%s/results.json", out);
    check_results(results, 16, 2, 3, 2.0);
}

static void test_zram(void **state)
{
    struct ctx *c = *state;
    char dev[64], out[512], results[600];
    if (!zram_create("512M", dev, sizeof(dev))) {
        skip();
        return;
    }
    snprintf(out, sizeof(out), "%s/out-zram", c->dir);
    run_file_job(dev, NULL, "io_uring", true, out);
    snprintf(results, sizeof(results), "%s/results.json", out);
    struct json_object *doc = load_json(results);
    double sector = json_num(doc, "target.logical_sector");
    json_object_put(doc);
    zram_remove(dev);
    assert_true(sector == 4096);
    check_results(results, 16, 2, 3, 2.0);
}

/* Data pattern honesty: one short write round, then the round's measured compressibility of the
 * data (rounds.0.data). Returns the results document (caller puts it). */
static struct json_object *run_data_round(const char *dir, const char *name, const char *target,
                                          const char *size, const char *workload)
{
    char out[512], results[600];
    snprintf(out, sizeof(out), "%s/%s", dir, name);
    snprintf(results, sizeof(results), "%s/results.json", out);
    char *argv[16];
    int i = 0;
    argv[i++] = (char *)ptsbench_bin();
    argv[i++] = "run";
    argv[i++] = "--target";
    argv[i++] = (char *)target;
    if (size) {
        argv[i++] = "--size";
        argv[i++] = (char *)size;
    }
    argv[i++] = "--workload";
    argv[i++] = (char *)workload;
    argv[i++] = "--rounds";
    argv[i++] = "1";
    argv[i++] = "--round-time";
    argv[i++] = "1";
    argv[i++] = "--quiet";
    argv[i++] = "--out";
    argv[i++] = out;
    argv[i] = NULL;
    struct cmd_result r;
    assert_int_equal(run_cmd(argv, &r), 0);
    if (r.status != 0)
        print_message("stdout:\n%s\nstderr:\n%s\n", r.out, r.errout);
    assert_int_equal(r.status, 0);
    cmd_result_free(&r);
    struct json_object *doc = load_json(results);
    assert_non_null(doc);
    assert_int_equal(json_object_array_length(json_at(doc, "rounds")), 1);
    assert_non_null(json_at(doc, "rounds.0.data"));
    print_message("%s: declared %.0f%%, measured zlib %.2f%% lz4 %.2f%% over %.0f bytes (%s)\n",
                  workload, json_num(doc, "rounds.0.data.declared_compress_pct"),
                  json_num(doc, "rounds.0.data.zlib_compress_pct"),
                  json_num(doc, "rounds.0.data.lz4_compress_pct"),
                  json_num(doc, "rounds.0.data.sample_bytes"),
                  json_object_get_string(json_at(doc, "rounds.0.data.source")));
    return doc;
}

/* The results of a write workload record the measured compressibility of the data written:
 * compress=90 measures 90% (within 5 points), compress=0 at most 2%; the simulated drive's
 * engine carries no data, so there the sample is generated by the same pattern.  A read-only
 * workload has no "data" object. */
static void test_data_measured(void **state)
{
    struct ctx *c = *state;
    char target[512];
    snprintf(target, sizeof(target), "%s/target-data.dat", c->dir);

    struct json_object *doc = run_data_round(c->dir, "out-data90", target, "64m",
                                             "rw=randwrite,bs=4k,qd=8,compress=90");
    assert_true(json_num(doc, "rounds.0.data.declared_compress_pct") == 90);
    assert_true(json_num(doc, "rounds.0.data.sample_bytes") >= 4096);
    assert_true(fabs(json_num(doc, "rounds.0.data.zlib_compress_pct") - 90) <= 5);
    assert_true(fabs(json_num(doc, "rounds.0.data.lz4_compress_pct") - 90) <= 5);
    assert_string_equal(json_object_get_string(json_at(doc, "rounds.0.data.source")), "written");
    json_object_put(doc);

    /* a new file: writing over the one above (it holds data now) would need --destructive */
    snprintf(target, sizeof(target), "%s/target-data0.dat", c->dir);
    doc = run_data_round(c->dir, "out-data0", target, "64m", "rw=randwrite,bs=4k,qd=8,compress=0");
    assert_true(json_num(doc, "rounds.0.data.declared_compress_pct") == 0);
    assert_true(json_num(doc, "rounds.0.data.zlib_compress_pct") <= 2);
    assert_true(json_num(doc, "rounds.0.data.lz4_compress_pct") <= 2);
    assert_true(json_num(doc, "rounds.0.data.zlib_ratio") >= 0.98);
    assert_string_equal(json_object_get_string(json_at(doc, "rounds.0.data.source")), "written");
    json_object_put(doc);

    doc = run_data_round(c->dir, "out-data-sim", "sim:generic-mlc25", NULL,
                         "rw=randwrite,bs=4k,qd=8,workers=2,compress=90");
    assert_true(fabs(json_num(doc, "rounds.0.data.zlib_compress_pct") - 90) <= 5);
    assert_string_equal(json_object_get_string(json_at(doc, "rounds.0.data.source")), "generated");
    json_object_put(doc);

    /* reads only: no data object */
    char out[512], results[600];
    snprintf(out, sizeof(out), "%s/out-data-read", c->dir);
    snprintf(results, sizeof(results), "%s/results.json", out);
    /* --destructive: the writes above left part of the file never written, which is laid out
     * (written) before the reads, and the file holds data */
    char *argv[] = {(char *)ptsbench_bin(), "run", "--target", target, "--workload",
                    "rw=randread,bs=4k,qd=8", "--rounds", "1", "--round-time", "1", "--quiet",
                    "--destructive", "--out", out, NULL};
    assert_int_equal(run_quiet(argv), 0);
    doc = load_json(results);
    assert_non_null(doc);
    assert_non_null(json_at(doc, "rounds.0.total"));
    assert_null(json_at(doc, "rounds.0.data"));
    json_object_put(doc);
}

/* SIGINT mid-run: exit 130, completed rounds kept, file valid JSON, status interrupted. */
static void test_interrupt_keeps_rounds(void **state)
{
    struct ctx *c = *state;
    char target[512], out[512], results[600];
    snprintf(target, sizeof(target), "%s/target-int.dat", c->dir);
    snprintf(out, sizeof(out), "%s/out-int", c->dir);
    snprintf(results, sizeof(results), "%s/results.json", out);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        freopen("/dev/null", "w", stdout);
        execl(ptsbench_bin(), ptsbench_bin(), "run", "--target", target, "--size", "64m",
              "--workload", "rw=randwrite,bs=4k,qd=8", "--rounds", "20", "--round-time", "1",
              "--all-rounds", "--out", out, (char *)NULL);
        _exit(127);
    }
    /* Wait until at least one round is on disk (up to 20 s), then half a round more. */
    for (int i = 0; i < 200; i++) {
        struct json_object *d = load_json(results);
        size_t n = d ? json_object_array_length(json_at(d, "rounds")) : 0;
        if (d)
            json_object_put(d);
        if (n >= 1)
            break;
        usleep(100 * 1000);
    }
    usleep(500 * 1000);
    kill(pid, SIGINT);
    int st;
    waitpid(pid, &st, 0);
    assert_true(WIFEXITED(st));
    assert_int_equal(WEXITSTATUS(st), 130);
    struct json_object *doc = load_json(results);
    assert_non_null(doc);
    assert_string_equal(json_object_get_string(json_at(doc, "status")), "interrupted");
    size_t n = json_object_array_length(json_at(doc, "rounds"));
    print_message("interrupted after %zu complete rounds\n", n);
    assert_true(n >= 1 && n <= 19);
    for (size_t i = 0; i < n; i++) {
        char k[64];
        snprintf(k, sizeof(k), "rounds.%zu.total.iops", i);
        assert_true(json_num(doc, k) > 0);
    }
    json_object_put(doc);
    char tmp[640];
    snprintf(tmp, sizeof(tmp), "%s.tmp", results);
    assert_false(exists(tmp));
}

/* Bad input: exit 2, exactly one line on stderr that names the bad value, nothing created. */
static void expect_refusal(const char *dir, const char *needle, char **extra)
{
    char target[512], out[512];
    snprintf(target, sizeof(target), "%s/never-created.dat", dir);
    snprintf(out, sizeof(out), "%s/never-out", dir);
    char *argv[40];
    int i = 0;
    argv[i++] = (char *)ptsbench_bin();
    argv[i++] = "run";
    bool has_target = false;
    for (int k = 0; extra[k]; k++)
        if (!strcmp(extra[k], "--target"))
            has_target = true;
    if (!has_target) {
        argv[i++] = "--target";
        argv[i++] = target;
        argv[i++] = "--size";
        argv[i++] = "64m";
    }
    argv[i++] = "--out";
    argv[i++] = out;
    for (int k = 0; extra[k]; k++)
        argv[i++] = extra[k];
    argv[i] = NULL;
    struct cmd_result r;
    assert_int_equal(run_cmd(argv, &r), 0);
    print_message("refused (%d): %s", r.status, r.errout);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.errout, needle));
    /* one line */
    char *nl = strchr(r.errout, '\n');
    assert_non_null(nl);
    assert_int_equal(nl[1], '\0');
    assert_string_equal(r.out, "");
    cmd_result_free(&r);
    assert_false(exists(target));
    assert_false(exists(out));
}

static void test_bad_input(void **state)
{
    struct ctx *c = *state;
    char *unknown[] = {"--workload", "rw=randread", "--bogus", NULL};
    expect_refusal(c->dir, "--bogus", unknown);
    char *bs[] = {"--workload", "rw=randread,bs=4q", NULL};
    expect_refusal(c->dir, "bs=4q", bs);
    char *mix[] = {"--workload", "rw=randrw,rwmix=150", NULL};
    expect_refusal(c->dir, "rwmix=150", mix);
    char *unaligned[] = {"--workload", "rw=randwrite,bs=1000", NULL};
    expect_refusal(c->dir, "1000", unaligned);
    char *small[] = {"--workload", "rw=randwrite,bs=4k,size=128m", NULL};
    expect_refusal(c->dir, "size=128MiB", small);
    char *rounds[] = {"--workload", "rw=randread", "--rounds", "zero", NULL};
    expect_refusal(c->dir, "zero", rounds);
    char *engine[] = {"--workload", "rw=randread", "--engine", "spdk", NULL};
    expect_refusal(c->dir, "spdk", engine);
    char *noprofile[] = {"--workload", "no-such-profile", NULL};
    expect_refusal(c->dir, "no-such-profile", noprofile);
    char *missing_target[] = {"--target", "", "--workload", "rw=randread", NULL};
    expect_refusal(c->dir, "--target", missing_target);
}

/* A missing --target altogether. */
static void test_missing_target(void **state)
{
    (void)state;
    char *argv[] = {(char *)ptsbench_bin(), "run", "--workload", "rw=randread", NULL};
    struct cmd_result r;
    assert_int_equal(run_cmd(argv, &r), 0);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.errout, "--target"));
    cmd_result_free(&r);
}

/* A zram device of our own (4096-byte logical sectors) refuses 512-byte I/O before writing
 * anything: its write count in /sys/block/zramN/stat stays 0. */
static void test_zram_unaligned(void **state)
{
    struct ctx *c = *state;
    char dev[64], out[512];
    if (!zram_create("64M", dev, sizeof(dev))) {
        skip();
        return;
    }
    snprintf(out, sizeof(out), "%s/out-zram-bad", c->dir);
    char *argv[] = {(char *)ptsbench_bin(), "run", "--target", dev, "--workload",
                    "rw=randwrite,bs=512", "--destructive", "--out", out, NULL};
    struct cmd_result r;
    assert_int_equal(run_cmd(argv, &r), 0);
    char buf[256] = "";
    if (!zram_attr(dev, "stat", buf, sizeof(buf)))
        buf[0] = '\0';
    zram_remove(dev);
    print_message("refused (%d): %s", r.status, r.errout);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.errout, "512"));
    assert_non_null(strstr(r.errout, "4096"));
    assert_false(exists(out));
    /* field 5 of /sys/block/X/stat is write I/Os: none */
    unsigned long long f1, f2, f3, f4, writes = 1;
    assert_int_equal(sscanf(buf, "%llu %llu %llu %llu %llu", &f1, &f2, &f3, &f4, &writes), 5);
    assert_int_equal(writes, 0);
    cmd_result_free(&r);
}

/* Run a fio job file (FILE or FILE:SECTION) on a fresh file target for `rounds` rounds of
 * round_s seconds; returns the results. */
static struct json_object *run_job(const struct ctx *c, const char *tag, const char *job,
                                   const char *rounds, const char *round_s)
{
    char target[512], out[512], results[600];
    snprintf(target, sizeof(target), "%s/%s.dat", c->dir, tag);
    snprintf(out, sizeof(out), "%s/%s", c->dir, tag);
    snprintf(results, sizeof(results), "%s/results.json", out);
    char *argv[] = {(char *)ptsbench_bin(), "run", "--target", target, "--size", "64m",
                    "--workload", (char *)job, "--rounds", (char *)rounds,
                    "--round-time", (char *)round_s, "--all-rounds", "--quiet", "--out", out,
                    NULL};
    struct cmd_result r;
    assert_int_equal(run_cmd(argv, &r), 0);
    if (r.status != 0)
        print_message("stdout:\n%s\nstderr:\n%s\n", r.out, r.errout);
    assert_int_equal(r.status, 0);
    cmd_result_free(&r);
    struct json_object *doc = load_json(results);
    assert_non_null(doc);
    return doc;
}

static void write_job(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
}

/* A shipped profile's fio form runs as its workload says (8 KiB, 67% read, 4 jobs x QD 32,
 * fio's shared range and random map, io_uring from the job file); a job with rate_iops issues
 * at that rate per job and direction, as fio (the workers' pacing keeps its schedule: never
 * faster, and on time within 10% even on a busy machine), and thinktime holds each job after
 * every completion. */
static void test_fio_job_file(void **state)
{
    struct ctx *c = *state;
    char job[700];
    const char *dd = getenv("PTSBENCH_DATADIR");
    snprintf(job, sizeof(job), "%s/profiles/fio/oltp.fio:oltp", dd && *dd ? dd : ".");
    struct json_object *doc = run_job(c, "fio-oltp", job, "1", "1");
    const char *spec = json_object_get_string(json_at(doc, "workload.spec"));
    print_message("oltp.fio: %s\n", spec);
    assert_int_equal(json_num(doc, "workload.qd"), 32);
    assert_int_equal(json_num(doc, "workload.workers"), 4);
    assert_int_equal(json_num(doc, "workload.block_sizes.0.bytes"), 8192);
    assert_string_equal(json_object_get_string(json_at(doc, "workload.region")), "shared");
    assert_non_null(strstr(spec, "random_map=always"));
    assert_string_equal(json_object_get_string(json_at(doc, "engine.name")), "io_uring");
    double iops = json_num(doc, "rounds.0.total.iops"), r = json_num(doc, "rounds.0.read.iops");
    print_message("  %.0f IOPS, %.1f%% reads\n", iops, 100 * r / iops);
    assert_true(iops > 100);
    assert_true(fabs(r / iops - 0.67) < 0.03);
    json_object_put(doc);

    /* rate_iops: per job and direction, as fio 3.33 (ioengine=null, rate_iops=300 on a 67/33
     * mix: 300 reads + 300 writes a second): 2 jobs x 2 directions x 300 = 1200 IOPS */
    char path[600];
    snprintf(path, sizeof(path), "%s/paced.fio", c->dir);
    write_job(path, "[global]\nioengine=libaio\ndirect=1\ntime_based\nruntime=2\n\n"
                    "[paced]\nrw=randrw\nrwmixread=67\nbs=8k\niodepth=4\nnumjobs=2\n"
                    "rate_iops=300\n");
    doc = run_job(c, "fio-paced", path, "2", "2");
    assert_string_equal(json_object_get_string(json_at(doc, "engine.name")), "libaio");
    for (int i = 0; i < 2; i++) {
        char k[64];
        snprintf(k, sizeof(k), "rounds.%d.total.iops", i);
        iops = json_num(doc, k);
        print_message("  rate_iops=300 x 2 jobs x 2 directions: round %d %.1f IOPS (want "
                      "1200)\n", i + 1, iops);
        assert_true(iops <= 1200 * 1.01 + 2);
        assert_true(iops >= 1200 * 0.9);
    }
    json_object_put(doc);

    /* thinktime: 2 ms after each completion, one job at QD 1: below 500 IOPS */
    snprintf(path, sizeof(path), "%s/think.fio", c->dir);
    write_job(path, "[think]\ndirect=1\nrw=randread\nbs=4k\nthinktime=2000\nruntime=1\n");
    doc = run_job(c, "fio-think", path, "1", "1");
    iops = json_num(doc, "rounds.0.total.iops");
    double lat = json_num(doc, "rounds.0.total.lat_us.mean");
    print_message("  thinktime=2000: %.1f IOPS, mean latency %.1f us (want 1e6 / (2000 + "
                  "latency) = %.1f at most)\n", iops, lat, 1e6 / (2000 + lat));
    assert_true(iops <= 1e6 / (2000 + lat) * 1.01 + 1);
    /* and not far below it: each I/O's cycle is its latency and the think time (the file is
     * laid out first, so the reads reach the disk and the latency is the disk's) plus the
     * pacing naps' wake-ups, which a busy machine delays (0.61 of the bound measured beside
     * four other builds) */
    assert_true(iops >= 0.4 * 1e6 / (2000 + lat));
    json_object_put(doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bad_input),
        cmocka_unit_test(test_missing_target),
        cmocka_unit_test(test_zram_unaligned),
        cmocka_unit_test(test_file_io_uring),
        cmocka_unit_test(test_file_libaio),
        cmocka_unit_test(test_zram),
        cmocka_unit_test(test_data_measured),
        cmocka_unit_test(test_interrupt_keeps_rounds),
        cmocka_unit_test(test_fio_job_file),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
