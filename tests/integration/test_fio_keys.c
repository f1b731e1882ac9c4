/* test_fio_keys.c — the fio engine honours a job file's keys or refuses them, fio's defaults
 * are fio's, and crosscheck runs fio as the native engine submits (zram, root and fio; each
 * case a second or two, bounds an order of magnitude wide so a busy machine passes):
 *   - rate_iops=500 x 2 jobs runs at about 1000 IOPS (the old writer dropped it: 270K);
 *   - random_distribution=zipf:1.2 reaches fio: the job file ptsbench kept, run by fio alone
 *     with write_iolog, puts most accesses in the hottest 1% of blocks (79% measured; the old
 *     job file ran uniform: 2.3%);
 *   - thinktime=2000 (us) at QD 1 stays below 500 IOPS (the old writer dropped it: 85K);
 *   - a job file without ioengine runs as fio's default psync would, one I/O in flight per
 *     job, and says so (the old code ran it at its iodepth=32);
 *   - a job file without direct=1 runs buffered, as fio's default (direct=0), and says so in
 *     the results' note and on the round line (the old code refused it);
 *   - crosscheck on zram with 128 KiB reads (the io_uring engine marks every one async there):
 *     the fio job has force_async=1 and the results list the choices, matched or not. */
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
#include <sys/stat.h>
#include <unistd.h>

#include "helpers.h"

static char *dir;
static char dev[128];
static bool ready;

static int setup(void **state)
{
    (void)state;
    dir = make_temp_dir("fio-keys");
    if (!dir)
        return -1;
    ready = is_root() && test_have_fio() && zram_create("256M", dev, sizeof(dev));
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    if (ready)
        zram_remove(dev);
    remove_tree(dir);
    free(dir);
    return 0;
}

static bool exists(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0;
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
}

/* `ptsbench run` of job file NAME.fio (text) on the zram device for one round of `secs`. */
static struct json_object *run_job(const char *name, const char *text, const char *engine,
                                   const char *secs)
{
    char job[700], out[700];
    snprintf(job, sizeof(job), "%s/%s.fio", dir, name);
    snprintf(out, sizeof(out), "%s/%s", dir, name);
    write_text(job, text);
    char *argv[] = {NULL, "run", "--target", dev, "--workload", job, "--engine",
                    (char *)engine, "--rounds", "1", "--round-time", (char *)secs,
                    "--destructive", "--quiet", "-o", out, NULL};
    return ptsbench_results(argv, out, 0, NULL);
}

/* The last job file the fio engine kept for run NAME (its round's). */
static char *kept_job(const char *name, char *path, size_t len)
{
    snprintf(path, len, "%s/%s/fio/0001-round-01.fio", dir, name);
    return slurp_file(path, NULL);
}

static void test_rate_iops(void **state)
{
    (void)state;
    if (!ready)
        skip();
    struct json_object *doc = run_job("rate", "[global]\nioengine=io_uring\ndirect=1\n[j]\n"
                                      "rw=randread\nbs=4k\niodepth=4\nnumjobs=2\n"
                                      "rate_iops=500\n", "fio", "2");
    assert_non_null(doc);
    const double iops = json_num(doc, "rounds.0.total.iops");
    print_message("  rate_iops=500 x 2 jobs on fio: %.0f IOPS (want 1000)\n", iops);
    assert_true(iops > 700 && iops < 1150);
    json_object_put(doc);
    char path[800];
    char *job = kept_job("rate", path, sizeof(path));
    assert_non_null(job);
    assert_non_null(strstr(job, "\nrate_iops=500\n"));
    free(job);
}

/* Share of the accesses in fio's iolog (version 3: "TIME FILE ACTION OFFSET LENGTH") that fall
 * on the hottest 1% of the 4 KiB blocks of a range of `blocks`. */
static double hottest_share(const char *iolog, unsigned blocks)
{
    unsigned *count = calloc(blocks, sizeof(*count));
    assert_non_null(count);
    FILE *f = fopen(iolog, "r");
    assert_non_null(f);
    char line[512], file[256], action[32];
    unsigned long long t, off, len;
    unsigned long total = 0;
    while (fgets(line, sizeof(line), f))
        if (sscanf(line, "%llu %255s %31s %llu %llu", &t, file, action, &off, &len) == 5 &&
            !strcmp(action, "read") && off / 4096 < blocks) {
            count[off / 4096]++;
            total++;
        }
    fclose(f);
    /* the top 1%: repeatedly the largest count (blocks / 100 picks over a small array) */
    unsigned long top = 0;
    for (unsigned k = 0; k < blocks / 100; k++) {
        unsigned best = 0;
        for (unsigned b = 1; b < blocks; b++)
            if (count[b] > count[best])
                best = b;
        top += count[best];
        count[best] = 0;
    }
    free(count);
    print_message("  %lu reads in the iolog\n", total);
    assert_true(total > 1000);
    return (double)top / (double)total;
}

static void test_zipf_reaches_fio(void **state)
{
    (void)state;
    if (!ready)
        skip();
    struct json_object *doc = run_job("zipf", "[global]\nioengine=io_uring\ndirect=1\n[z]\n"
                                      "rw=randread\nbs=4k\niodepth=4\nsize=16m\n"
                                      "random_distribution=zipf:1.2\n", "fio", "1");
    assert_non_null(doc);
    json_object_put(doc);
    char path[800], again[900], iolog[900];
    char *job = kept_job("zipf", path, sizeof(path));
    assert_non_null(job);
    assert_non_null(strstr(job, "\nrandom_distribution=zipf:1.2\n"));
    /* the kept job file, run by fio alone, with fio's own log of every I/O */
    snprintf(again, sizeof(again), "%s/zipf-again.fio", dir);
    snprintf(iolog, sizeof(iolog), "%s/zipf.iolog", dir);
    FILE *f = fopen(again, "w");
    assert_non_null(f);
    for (char *save = NULL, *l = strtok_r(job, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
        if (strncmp(l, "write_iops_log=", 15) && strncmp(l, "log_avg_msec=", 13) &&
            strncmp(l, "per_job_logs=", 13))
            fprintf(f, "%s\n", l);
    fprintf(f, "write_iolog=%s\n", iolog);
    assert_int_equal(fclose(f), 0);
    free(job);
    char *argv[] = {"fio", "--output-format=terse", again, NULL};
    struct cmd_result r;
    assert_int_equal(run_cmd(argv, &r), 0);
    if (r.status != 0)
        print_message("%s%s", r.out, r.errout);
    assert_int_equal(r.status, 0);
    cmd_result_free(&r);
    const double share = hottest_share(iolog, 4096);
    print_message("  zipf:1.2 on fio: %.1f%% of reads on the hottest 1%% of blocks (uniform: "
                  "about 1-2%%)\n", 100 * share);
    assert_true(share > 0.3);
}

static void test_thinktime(void **state)
{
    (void)state;
    if (!ready)
        skip();
    struct json_object *doc = run_job("think", "[global]\nioengine=io_uring\ndirect=1\n[t]\n"
                                      "rw=randread\nbs=4k\nthinktime=2000\n", "fio", "1");
    assert_non_null(doc);
    const double iops = json_num(doc, "rounds.0.total.iops");
    print_message("  thinktime=2000 at QD 1 on fio: %.0f IOPS (want below 500)\n", iops);
    assert_true(iops > 50 && iops < 520);
    json_object_put(doc);
}

/* fio's default engine, psync: one I/O in flight per job whatever iodepth says. */
static void test_no_ioengine_is_psync(void **state)
{
    (void)state;
    if (!ready)
        skip();
    const char *text = "[global]\ndirect=1\n[p]\nrw=randread\nbs=4k\niodepth=32\n";
    for (int e = 0; e < 2; e++) {
        const char *engine = e ? "fio" : "io_uring";
        char name[32];
        snprintf(name, sizeof(name), "psync-%s", engine);
        struct json_object *doc = run_job(name, text, engine, "1");
        assert_non_null(doc);
        const char *note = json_object_get_string(json_at(doc, "workload.note"));
        print_message("  %s: qd %.0f, %.0f IOPS at %.1f us; note: %s\n", engine,
                      json_num(doc, "workload.qd"), json_num(doc, "rounds.0.total.iops"),
                      json_num(doc, "rounds.0.total.lat_us.mean"), note ? note : "(none)");
        assert_int_equal(json_num(doc, "workload.qd"), 1);
        assert_non_null(note);
        assert_non_null(strstr(note, "no ioengine: fio's default psync"));
        json_object_put(doc);
    }
    char path[800];
    char *job = kept_job("psync-fio", path, sizeof(path));
    assert_non_null(job);
    assert_non_null(strstr(job, "\niodepth=1\n"));
    free(job);
}

static void test_no_direct_runs_buffered(void **state)
{
    (void)state;
    char job[700], out[700];
    snprintf(job, sizeof(job), "%s/buffered.fio", dir);
    snprintf(out, sizeof(out), "%s/buffered", dir);
    write_text(job, "[global]\nioengine=io_uring\n[b]\nrw=randread\n");
    char *argv[] = {(char *)ptsbench_bin(), "run", "--target", "/var/tmp/ptsbench-nodirect.img",
                    "--size", "16m", "--workload", job, "--rounds", "1", "--round-time",
                    "1", "-o", out, NULL};
    struct cmd_result r;
    assert_int_equal(run_cmd(argv, &r), 0);
    print_message("  %s", r.errout);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "buffered: the page cache's figures"));
    cmd_result_free(&r);
    char path[800];
    snprintf(path, sizeof(path), "%s/results.json", out);
    assert_true(exists(path));
    struct json_object *doc = json_object_from_file(path);
    assert_non_null(doc);
    const char *note = json_object_get_string(json_at(doc, "workload.note"));
    assert_non_null(note);
    assert_non_null(strstr(note, "buffered (direct=0): the page cache's figures"));
    assert_non_null(strstr(json_object_get_string(json_at(doc, "workload.spec")), ",direct=0,"));
    assert_true(json_object_get_boolean(json_at(doc, "workload.buffered")));
    json_object_put(doc);
    unlink("/var/tmp/ptsbench-nodirect.img");
}

static void test_crosscheck_matches_native(void **state)
{
    (void)state;
    if (!ready)
        skip();
    char out[700];
    snprintf(out, sizeof(out), "%s/xc", dir);
    char *argv[] = {NULL, "crosscheck", "--target", dev, "--workload",
                    "rw=randread,bs=128k,qd=4", "--round-time", "1s", "--repeat", "1",
                    "--destructive", "-q", "-o", out, NULL};
    char *text = NULL;
    struct json_object *doc = ptsbench_results(argv, out, 0, &text);
    assert_non_null(doc);
    print_message("%s", text);
    assert_non_null(strstr(text, "matched   async marking"));
    free(text);
    char path[800];
    snprintf(path, sizeof(path), "%s/fio-1/fio/0001-round-01.fio", out);
    char *job = slurp_file(path, NULL);
    assert_non_null(job);
    assert_non_null(strstr(job, "\nforce_async=1\n"));
    assert_non_null(strstr(job, "\niodepth_batch_complete_max=4\n"));
    free(job);
    struct json_object *ch = json_at(doc, "choices");
    assert_non_null(ch);
    bool mark = false;
    unsigned differ = 0;
    for (size_t i = 0; i < json_object_array_length(ch); i++) {
        struct json_object *c = json_object_array_get_idx(ch, i);
        const char *name = json_object_get_string(json_at(c, "choice"));
        const bool matched = json_object_get_boolean(json_at(c, "matched"));
        differ += !matched;
        if (strstr(name, "async marking")) {
            mark = true;
            assert_true(matched);
            assert_non_null(strstr(json_object_get_string(json_at(c, "native")), "100%"));
        }
    }
    assert_true(mark);
    assert_int_equal(json_num(doc, "choices_differing"), differ);
    json_object_put(doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rate_iops),
        cmocka_unit_test(test_zipf_reaches_fio),
        cmocka_unit_test(test_thinktime),
        cmocka_unit_test(test_no_ioengine_is_psync),
        cmocka_unit_test(test_no_direct_runs_buffered),
        cmocka_unit_test(test_crosscheck_matches_native),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
