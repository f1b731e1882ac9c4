/* test_jobs.c — `ptsbench run` with a fio job file of several jobs (io/jobset.h): the jobs of a
 * group at once, each on its own workers and measured on its own; groups one after another,
 * each judged over its own rounds only; one results file; the console and `show`. On the
 * simulated drive with short virtual rounds, and on a zram device of the test's own. */
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

#define SIM "sim:zdrive-6300-1.6t"

static char *dir;

static int setup(void **state)
{
    (void)state;
    dir = make_temp_dir("jobs");
    return dir ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    zram_remove_all();
    remove_tree(dir);
    free(dir);
    return 0;
}

static const char *const GLOBAL = "[global]\nioengine=libaio\ndirect=1\nbs=4k\niodepth=8\n"
                                  "size=64m\n";
/* a run's extra arguments: the drive preconditioned first */
static const char *const WIPC[] = {"--precondition=wipc", NULL};

/* Round i's job labelled label (NULL when absent). */
static struct json_object *round_job(struct json_object *round, const char *label)
{
    struct json_object *jobs = json_at(round, "jobs");
    for (size_t i = 0; jobs && i < json_object_array_length(jobs); i++) {
        struct json_object *j = json_object_array_get_idx(jobs, i);
        if (!strcmp(json_object_get_string(json_at(j, "label")), label))
            return j;
    }
    return NULL;
}

/* Every round: group g, jobs a and b, a only reads and b only writes, the round's figures the
 * sum of the jobs'. */
static void check_reader_writer(struct json_object *doc, double group)
{
    struct json_object *rounds = json_at(doc, "rounds");
    assert_non_null(rounds);
    assert_true(json_object_array_length(rounds) >= 1);
    for (size_t i = 0; i < json_object_array_length(rounds); i++) {
        struct json_object *r = json_object_array_get_idx(rounds, i);
        assert_true(json_num(r, "group") == group);
        struct json_object *a = round_job(r, "reader"), *b = round_job(r, "writer");
        assert_non_null(a);
        assert_non_null(b);
        assert_true(json_num(a, "read.ios") > 0);
        assert_true(json_num(a, "write.ios") == 0);
        assert_true(json_num(b, "write.ios") > 0);
        assert_true(json_num(b, "read.ios") == 0);
        assert_true(json_num(r, "total.ios") == json_num(a, "total.ios") + json_num(b, "total.ios"));
        assert_true(json_num(r, "read.ios") == json_num(a, "read.ios"));
        assert_true(json_num(r, "write.ios") == json_num(b, "write.ios"));
        assert_non_null(json_at(a, "total.lat_us.percentiles"));
        assert_non_null(json_at(b, "depth"));
        assert_non_null(json_at(a, "samples.iops"));
        assert_non_null(json_at(a, "lat_hist"));
    }
}

/* Two concurrent jobs, a reader and a writer: each job's read share is its own, the group's
 * total is their sum; the document lists both jobs (label, group, workload) and one group. */
static void test_two_concurrent_jobs(void **state)
{
    (void)state;
    char fio[600], text[1024];
    snprintf(text, sizeof(text), "%s\n[reader]\nrw=randread\n\n[writer]\nrw=randwrite\n", GLOBAL);
    assert_true(write_job_file(dir, "rw", text, fio, sizeof(fio)));
    struct run_opts o = {.rounds = "3", .extra = WIPC, .keep_out = true};
    struct json_object *doc = run_workload(dir, "rw", fio, &o);
    char *out = o.out;
    assert_non_null(doc);
    check_reader_writer(doc, 1);
    assert_int_equal(json_object_array_length(json_at(doc, "jobs")), 2);
    assert_string_equal(json_object_get_string(json_at(doc, "jobs.0.label")), "reader");
    assert_true(json_num(doc, "jobs.0.group") == 1);
    assert_true(json_num(doc, "jobs.0.workload.read_pct") == 100);
    assert_true(json_num(doc, "jobs.1.workload.read_pct") == 0);
    assert_int_equal(json_object_array_length(json_at(doc, "groups")), 1);
    assert_non_null(json_at(doc, "groups.0.steady_state"));
    /* the console: the plan lists the jobs, each round names its group, a line per job */
    assert_non_null(strstr(out, "2 jobs in 1 group"));
    assert_non_null(strstr(out, "    job reader: rw=randread"));
    assert_non_null(strstr(out, "group 1 round  1/3"));
    assert_int_equal(count_prefixed_lines(out, "    job reader  IOPS"), 3);
    assert_int_equal(count_prefixed_lines(out, "    job writer  IOPS"), 3);
    free(out);
    json_object_put(doc);
    /* run --dry-run: the same plan, nothing run */
    char dry[600];
    snprintf(dry, sizeof(dry), "%s/rw-dry", dir);
    const char *dargs[] = {"run", "-t", SIM, "-w", fio, "-n", "3", "--dry-run", "-o", dry, NULL};
    struct cmd_result d;
    assert_int_equal(ptsbench_run(&d, dargs), 0);
    assert_non_null(strstr(d.out, "2 jobs in 1 group"));
    assert_non_null(strstr(d.out, "    job writer: rw=randwrite"));
    assert_null(strstr(d.out, "round  1/3"));
    cmd_result_free(&d);
    /* FILE:SECTION still runs that one job, recorded as a run of one job */
    char one[700];
    snprintf(one, sizeof(one), "%s:writer", fio);
    struct json_object *single = run_workload(dir, "rw-one", one, NULL);
    assert_non_null(single);
    assert_null(json_at(single, "jobs"));
    assert_null(json_at(single, "rounds.0.group"));
    assert_string_equal(json_object_get_string(json_at(single, "workload.name")), "writer");
    json_object_put(single);
    /* show DIR: the same from the file */
    char show_dir[600];
    snprintf(show_dir, sizeof(show_dir), "%s/rw", dir);
    const char *args[] = {"show", show_dir, NULL};
    struct cmd_result r;
    assert_int_equal(ptsbench_run(&r, args), 0);
    assert_non_null(strstr(r.out, "2 jobs in 1 group"));
    assert_non_null(strstr(r.out, "job reader (group 1)"));
    assert_non_null(strstr(r.out, "group 1 of 1 (reader, writer)"));
    assert_non_null(strstr(r.out, "job writer"));
    cmd_result_free(&r);
    /* export: the group's row and a row per job, each with its own workload */
    const char *eargs[] = {"export", show_dir, NULL};
    assert_int_equal(ptsbench_run(&r, eargs), 0);
    assert_int_equal(count_prefixed_lines(r.out, "ptsbench.run,run_job,,group 1,sim,\"rw=randread"),
                     3);
    assert_int_equal(count_prefixed_lines(r.out, "ptsbench.run,run_round,,group 1,"), 3);
    cmd_result_free(&r);
}

/* A stonewalled sequence: the rounds of group 1, then those of group 2, each group for the
 * run's rounds and judged on its own rounds (no window spans the two). */
static void test_stonewalled_groups(void **state)
{
    (void)state;
    char fio[600], text[1024];
    snprintf(text, sizeof(text), "%s\n[writer]\nrw=randwrite\n\n[reader]\nstonewall\n"
             "rw=randread\n", GLOBAL);
    assert_true(write_job_file(dir, "seq", text, fio, sizeof(fio)));
    struct run_opts o = {.rounds = "6", .extra = WIPC, .keep_out = true};
    struct json_object *doc = run_workload(dir, "seq", fio, &o);
    char *out = o.out;
    assert_non_null(doc);
    struct json_object *rounds = json_at(doc, "rounds");
    size_t n = json_object_array_length(rounds);
    double g1_last = json_num(doc, "groups.0.last_round");
    double g2_first = json_num(doc, "groups.1.first_round");
    assert_true(json_num(doc, "groups.0.first_round") == 1);
    assert_true(g2_first == g1_last + 1);
    assert_true(json_num(doc, "groups.1.last_round") == (double)n);
    for (size_t i = 0; i < n; i++) {
        struct json_object *r = json_object_array_get_idx(rounds, i);
        const bool first = json_num(r, "round") <= g1_last;
        assert_true(json_num(r, "group") == (first ? 1 : 2));
        assert_non_null(round_job(r, first ? "writer" : "reader"));
        assert_null(round_job(r, first ? "reader" : "writer"));
        assert_true(json_num(r, first ? "read.ios" : "write.ios") == 0);
    }
    for (unsigned g = 0; g < 2; g++) {   /* each group's verdict, its window its own */
        char k[64];
        snprintf(k, sizeof(k), "groups.%u.steady_state.label", g);
        assert_non_null(json_at(doc, k));
        snprintf(k, sizeof(k), "groups.%u.steady_state.window.first_round", g);
        double wf = json_num(doc, k);
        assert_false(isnan(wf));
        assert_true(g == 0 ? wf + 4 <= g1_last : wf >= g2_first);
    }
    assert_true(json_num(doc, "steady_state.group") == 2);
    assert_non_null(strstr(out, "group 1 of 2: 1 job"));
    assert_non_null(strstr(out, "in each of 2 groups"));
    assert_non_null(strstr(out, "\ngroup 1 (writer): rounds 1-"));
    assert_non_null(strstr(out, "\ngroup 2 (reader): rounds "));
    free(out);
    json_object_put(doc);
}

/* Same-name jobs are distinct jobs (fio runs both): two labels, both measured at once. */
static void test_same_name_jobs(void **state)
{
    (void)state;
    char fio[600], text[1024];
    snprintf(text, sizeof(text), "%s\n[job]\nrw=randread\n\n[job]\nrw=randwrite\n", GLOBAL);
    assert_true(write_job_file(dir, "same", text, fio, sizeof(fio)));
    struct json_object *doc =
        run_workload(dir, "same", fio, &(struct run_opts){.rounds = "2", .extra = WIPC});
    assert_non_null(doc);
    assert_non_null(json_at(doc, "jobs"));   /* two jobs, not one merged */
    assert_int_equal(json_object_array_length(json_at(doc, "jobs")), 2);
    assert_string_equal(json_object_get_string(json_at(doc, "jobs.0.label")), "job");
    assert_string_equal(json_object_get_string(json_at(doc, "jobs.1.label")), "job#2");
    struct json_object *r = json_at(doc, "rounds.1");
    assert_true(json_num(round_job(r, "job"), "read.ios") > 0);
    assert_true(json_num(round_job(r, "job#2"), "write.ios") > 0);
    json_object_put(doc);
}

/* A run stopped in its second group: --resume goes on there (the simulated drive replays the
 * rounds before the stop, checked against the file) and ends as the uninterrupted run. */
static void test_resume_second_group(void **state)
{
    (void)state;
    char fio[600], text[1024];
    snprintf(text, sizeof(text), "%s\n[writer]\nrw=randwrite\n\n[reader]\nstonewall\n"
             "rw=randread\n", GLOBAL);
    assert_true(write_job_file(dir, "resume", text, fio, sizeof(fio)));
    struct json_object *ref =
        run_workload(dir, "resume-ref", fio, &(struct run_opts){.rounds = "6"});
    assert_non_null(ref);
    /* the stopped run: group 1's rounds and the first of group 2, status interrupted */
    struct json_object *stopped =
        run_workload(dir, "resume", fio, &(struct run_opts){.rounds = "6"});
    assert_non_null(stopped);
    struct json_object *rounds = json_at(stopped, "rounds");
    size_t keep = (size_t)json_num(stopped, "groups.0.last_round") + 1, n;
    n = json_object_array_length(rounds);
    assert_true(keep < n);
    json_object_array_del_idx(rounds, keep, n - keep);
    json_object_object_add(stopped, "status", json_object_new_string("interrupted"));
    json_object_object_add(json_at(stopped, "groups.1"), "done", json_object_new_boolean(0));
    char path[700], out[600];
    snprintf(out, sizeof(out), "%s/resume", dir);
    snprintf(path, sizeof(path), "%s/results.json", out);
    assert_int_equal(json_object_to_file(path, stopped), 0);
    json_object_put(stopped);
    char *argv[] = {"ptsbench", "run", "--resume", out, NULL};
    struct json_object *doc = ptsbench_results(argv, out, 0, NULL);
    assert_non_null(doc);
    assert_string_equal(json_object_get_string(json_at(doc, "status")), "complete");
    assert_true(json_num(doc, "resumed.0.after_round") == (double)keep);
    struct json_object *a = json_at(ref, "rounds"), *b = json_at(doc, "rounds");
    assert_int_equal(json_object_array_length(a), json_object_array_length(b));
    for (size_t i = 0; i < json_object_array_length(a); i++) {
        char k[64];
        snprintf(k, sizeof(k), "rounds.%zu.total.ios", i);
        assert_true(json_num(ref, k) == json_num(doc, k));
        snprintf(k, sizeof(k), "rounds.%zu.group", i);
        assert_true(json_num(ref, k) == json_num(doc, k));
    }
    assert_true(json_num(doc, "groups.1.first_round") == json_num(ref, "groups.1.first_round"));
    assert_string_equal(json_object_get_string(json_at(doc, "groups.1.steady_state.label")),
                        json_object_get_string(json_at(ref, "groups.1.steady_state.label")));
    json_object_put(ref);
    json_object_put(doc);
}

/* --parallel targets: each target's copy runs every group; the aggregate adds a round only
 * while every target is in the same group, and names it. */
static void test_parallel_targets(void **state)
{
    (void)state;
    char fio[600], text[1024];
    snprintf(text, sizeof(text), "%s\n[writer]\nrw=randwrite\n\n[reader]\nstonewall\n"
             "rw=randread\n", GLOBAL);
    assert_true(write_job_file(dir, "fleet", text, fio, sizeof(fio)));
    struct json_object *doc = run_workload(dir, "fleet", fio, &(struct run_opts){
        .rounds = "3", .extra = (const char *[]){"-t", SIM, "--parallel", NULL}});
    assert_non_null(doc);
    struct json_object *rows = json_at(doc, "aggregate.rounds");
    assert_non_null(rows);
    assert_int_equal(json_object_array_length(rows), 6);
    for (size_t i = 0; i < 6; i++) {
        char k[64];
        snprintf(k, sizeof(k), "aggregate.rounds.%zu.group", i);
        assert_true(json_num(doc, k) == (i < 3 ? 1 : 2));
    }
    json_object_put(doc);
    char one[700];
    snprintf(one, sizeof(one), "%s/fleet/sim-zdrive-6300-1.6t/results.json", dir);
    struct json_object *t = load_json(one);
    assert_non_null(t);
    assert_int_equal(json_object_array_length(json_at(t, "groups")), 2);
    assert_true(json_num(t, "groups.1.first_round") == 4);
    json_object_put(t);
}

/* Two concurrent jobs on a zram device of the test's own, under io_uring and libaio. */
static void test_zram_two_jobs(void **state)
{
    (void)state;
    char dev[64];
    if (!zram_create("256M", dev, sizeof(dev))) {
        skip();
        return;
    }
    char fio[600], text[1024];
    snprintf(text, sizeof(text), "%s\n[reader]\nrw=randread\nsize=32m\n\n[writer]\n"
             "rw=randwrite\noffset=64m\nsize=32m\n", GLOBAL);
    assert_true(write_job_file(dir, "zram", text, fio, sizeof(fio)));
    const char *engines[] = {"--engine=io_uring", "--engine=libaio"};
    for (unsigned e = 0; e < 2; e++) {
        char name[32];
        snprintf(name, sizeof(name), "zram%u", e);
        const char *extra[] = {"--destructive", "--overwrite-signatures", engines[e], NULL};
        struct json_object *doc = run_workload(dir, name, fio, &(struct run_opts){
            .target = dev, .rounds = "2", .round_time = "0.5", .extra = extra});
        assert_non_null(doc);
        check_reader_writer(doc, 1);
        assert_true(json_num(doc, "jobs.1.workload.active_range.offset") == 64 << 20);
        json_object_put(doc);
    }
    zram_remove(dev);
}

/* On a real target (zram of the test's own) --resume keeps the recorded rounds and goes on in
 * the group the run stopped in, for that group's remaining rounds, then ends. */
static void test_zram_resume_second_group(void **state)
{
    (void)state;
    char dev[64];
    if (!zram_create("128M", dev, sizeof(dev))) {
        skip();
        return;
    }
    char fio[600], text[1024];
    snprintf(text, sizeof(text), "%s\n[writer]\nrw=randwrite\nsize=32m\n\n[reader]\nstonewall\n"
             "rw=randread\nsize=32m\n", GLOBAL);
    assert_true(write_job_file(dir, "zresume", text, fio, sizeof(fio)));
    char out[600], path[700];
    snprintf(out, sizeof(out), "%s/zresume", dir);
    struct json_object *doc = run_workload(dir, "zresume", fio, &(struct run_opts){
        .target = dev, .rounds = "3", .round_time = "0.4",
        .extra = (const char *[]){"--destructive", "--overwrite-signatures", NULL}});
    assert_non_null(doc);
    assert_int_equal(json_object_array_length(json_at(doc, "rounds")), 6);
    /* stopped after the first round of group 2 */
    struct json_object *rounds = json_at(doc, "rounds");
    const double kept_ios = json_num(doc, "rounds.3.total.ios");
    json_object_array_del_idx(rounds, 4, 2);
    json_object_object_add(doc, "status", json_object_new_string("interrupted"));
    json_object_object_add(json_at(doc, "groups.1"), "done", json_object_new_boolean(0));
    snprintf(path, sizeof(path), "%s/results.json", out);
    assert_int_equal(json_object_to_file(path, doc), 0);
    json_object_put(doc);
    char *again[] = {"ptsbench", "run", "--resume", out, "--destructive",
                     "--overwrite-signatures", NULL};
    doc = ptsbench_results(again, out, 0, NULL);
    assert_non_null(doc);
    assert_string_equal(json_object_get_string(json_at(doc, "status")), "complete");
    assert_int_equal(json_object_array_length(json_at(doc, "rounds")), 6);
    assert_true(json_num(doc, "rounds.3.total.ios") == kept_ios);   /* kept as recorded */
    for (int i = 0; i < 6; i++) {
        char k[48];
        snprintf(k, sizeof(k), "rounds.%d.group", i);
        assert_true(json_num(doc, k) == (i < 3 ? 1 : 2));
        snprintf(k, sizeof(k), "rounds.%d.round", i);
        assert_true(json_num(doc, k) == i + 1);
    }
    assert_true(json_num(doc, "groups.1.first_round") == 4);
    assert_true(json_num(doc, "groups.1.last_round") == 6);
    assert_true(json_num(doc, "groups.1.steady_state.rounds_run") == 3);
    assert_non_null(strstr(json_object_get_string(json_at(doc, "resumed.0.how")), "continued"));
    json_object_put(doc);
    zram_remove(dev);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_two_concurrent_jobs),
        cmocka_unit_test(test_stonewalled_groups),
        cmocka_unit_test(test_same_name_jobs),
        cmocka_unit_test(test_resume_second_group),
        cmocka_unit_test(test_parallel_targets),
        cmocka_unit_test(test_zram_two_jobs),
        cmocka_unit_test(test_zram_resume_second_group),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
