/* test_fleet.c — one command on several targets (cli/cli_fleet.h): two simulated drives and two
 * zram devices of the test's own run at once, each with its results and the aggregate, which
 * must equal what the targets' own results add up to; a suite on two simulated drives one after
 * another gives one report comparing them; a bad target among several refuses the whole
 * command with nothing written; --targets @FILE; a stopped fleet resumes. */
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
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "helpers.h"

static bool exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

/* The fleet's aggregate against the targets' own documents, read independently: per round the
 * I/Os add up exactly, the aggregate IOPS (all I/Os over the shared window) is within 1% of the
 * sum of the targets' own IOPS, and each target's entry is its document's figure. */
static void check_aggregate(const char *out, const char *const *labels, unsigned n,
                            unsigned want_rounds)
{
    char path[4200];
    snprintf(path, sizeof(path), "%s/results.json", out);
    struct json_object *fleet = load_json(path);
    assert_non_null(fleet);
    assert_string_equal(json_object_get_string(json_at(fleet, "schema")), "ptsbench.fleet");
    assert_string_equal(json_object_get_string(json_at(fleet, "status")), "complete");
    assert_string_equal(json_object_get_string(json_at(fleet, "mode")), "parallel");
    assert_int_equal(json_object_array_length(json_at(fleet, "targets")), n);
    /* every measured round (and the preconditioning passes) started on all targets together */
    assert_true(json_num(fleet, "alignment.rounds_started_together") >= want_rounds);
    struct json_object *docs[4];
    for (unsigned t = 0; t < n; t++) {
        char key[64];
        snprintf(key, sizeof(key), "targets.%u.label", t);
        assert_string_equal(json_object_get_string(json_at(fleet, key)), labels[t]);
        snprintf(key, sizeof(key), "targets.%u.state", t);
        assert_string_equal(json_object_get_string(json_at(fleet, key)), "complete");
        snprintf(path, sizeof(path), "%s/%s/results.json", out, labels[t]);
        docs[t] = load_json(path);
        assert_non_null(docs[t]);
        assert_string_equal(json_object_get_string(json_at(docs[t], "schema")), "ptsbench.run");
        assert_int_equal(json_object_array_length(json_at(docs[t], "rounds")), want_rounds);
    }
    struct json_object *rows = json_at(fleet, "aggregate.rounds");
    assert_non_null(rows);
    assert_int_equal(json_object_array_length(rows), want_rounds);
    for (unsigned r = 0; r < want_rounds; r++) {
        double ios = 0, iops = 0;
        for (unsigned t = 0; t < n; t++) {
            char key[96];
            snprintf(key, sizeof(key), "rounds.%u.total.ios", r);
            ios += json_num(docs[t], key);
            snprintf(key, sizeof(key), "rounds.%u.total.iops", r);
            const double own = json_num(docs[t], key);
            iops += own;
            char akey[96];
            snprintf(akey, sizeof(akey), "aggregate.rounds.%u.targets.%u.iops", r, t);
            assert_true(fabs(json_num(fleet, akey) - own) <= 1e-6 * own + 1e-9);
        }
        char key[96];
        snprintf(key, sizeof(key), "aggregate.rounds.%u.total.ios", r);
        assert_true(fabs(json_num(fleet, key) - ios) <= 0.5);
        snprintf(key, sizeof(key), "aggregate.rounds.%u.total.iops", r);
        const double all = json_num(fleet, key);
        print_message("round %u: all targets %.0f IOPS, sum of their own %.0f (%+.3f%%)\n", r + 1,
                      all, iops, 100 * (all - iops) / iops);
        assert_true(iops > 0);
        assert_true(fabs(all - iops) <= 0.01 * iops);
    }
    for (unsigned t = 0; t < n; t++)
        json_object_put(docs[t]);
    json_object_put(fleet);
}

static void test_parallel_sim(void **state)
{
    (void)state;
    char *dir = make_temp_dir("fleet-sim");
    assert_non_null(dir);
    char out[4096];
    snprintf(out, sizeof(out), "%s/out", dir);
    char *argv[] = {"ptsbench", "run", "--target", "sim:generic-mlc25", "--target",
                    "sim:zdrive-6300-1.6t", "--parallel", "--workload",
                    "rw=randrw,rwmixread=70,bs=4k,qd=8", "--rounds", "3", "--round-time",
                    "0.5", "--all-rounds", "--out", out, NULL};
    char *text = NULL;
    struct json_object *doc = ptsbench_results(argv, out, 0, &text);
    assert_non_null(doc);
    json_object_put(doc);
    /* each copy's lines come labelled, and the closing table names both and the whole */
    assert_non_null(strstr(text, "[sim-generic-mlc25] round  1/3"));
    assert_non_null(strstr(text, "[sim-zdrive-6300-1.6t] round  1/3"));
    assert_non_null(strstr(text, "all targets"));
    free(text);
    const char *labels[] = {"sim-generic-mlc25", "sim-zdrive-6300-1.6t"};
    check_aggregate(out, labels, 2, 3);

    /* show and report read the fleet */
    char *show[] = {(char *)ptsbench_bin(), "show", out, NULL};
    struct cmd_result r;
    assert_int_equal(run_cmd(show, &r), 0);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "run on 2 targets, at once"));
    assert_non_null(strstr(r.out, "sim-zdrive-6300-1.6t"));
    assert_non_null(strstr(r.out, "(simulated)"));
    cmd_result_free(&r);
    /* verify and gate read one device's points: the whole fleet is refused, not merged */
    char *verify[] = {(char *)ptsbench_bin(), "verify", out, "--spec", "revodrive3-x2-480g", NULL};
    assert_int_equal(run_cmd(verify, &r), 0);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.errout, "several targets"));
    cmd_result_free(&r);
    remove_tree(dir);
    free(dir);
}

static void test_parallel_zram(void **state)
{
    (void)state;
    char a[64], b[64];
    if (!zram_create("256M", a, sizeof(a)))
        skip();
    if (!zram_create("256M", b, sizeof(b))) {
        zram_remove(a);
        skip();
    }
    char *dir = make_temp_dir("fleet-zram");
    assert_non_null(dir);
    char out[4096];
    snprintf(out, sizeof(out), "%s/out", dir);
    char *argv[] = {"ptsbench", "run", "--target", a, "--target", b, "--parallel",
                    "--destructive", "--workload", "rw=randread,bs=4k,qd=16", "--rounds", "3",
                    "--round-time", "0.5", "--all-rounds", "--quiet", "--out", out, NULL};
    struct json_object *doc = ptsbench_results(argv, out, 0, NULL);
    assert_non_null(doc);
    json_object_put(doc);
    const char *labels[] = {strrchr(a, '/') + 1, strrchr(b, '/') + 1};
    check_aggregate(out, labels, 2, 3);
    zram_remove(a);
    zram_remove(b);
    remove_tree(dir);
    free(dir);
}

/* A suite on two simulated drives, one after another, then one report comparing them. */
static void test_suite_two_drives_one_report(void **state)
{
    (void)state;
    char *dir = make_temp_dir("fleet-suite");
    assert_non_null(dir);
    char out[4096], rep[4096], list[4096];
    snprintf(out, sizeof(out), "%s/out", dir);
    snprintf(rep, sizeof(rep), "%s/report", dir);
    snprintf(list, sizeof(list), "%s/targets", dir);
    FILE *f = fopen(list, "w");
    assert_non_null(f);
    fputs("# the drives to compare\nsim:generic-mlc25\n\n  sim:zdrive-r4-cm88-1.6t  # the R4\n", f);
    fclose(f);
    char targets[4200];
    snprintf(targets, sizeof(targets), "@%s", list);
    char *argv[] = {"ptsbench", "suite", "--targets", targets, "--tests", "tp",
                    "--round-time", "0.2", "--max-rounds", "6", "--quiet", "--out", out, NULL};
    struct json_object *doc = ptsbench_results(argv, out, 0, NULL);
    assert_non_null(doc);
    assert_string_equal(json_object_get_string(json_at(doc, "mode")), "sequential");
    assert_null(json_at(doc, "aggregate"));   /* one after another: compared, not added */
    json_object_put(doc);
    char p[4300];
    snprintf(p, sizeof(p), "%s/sim-generic-mlc25/results.json", out);
    assert_true(exists(p));
    snprintf(p, sizeof(p), "%s/sim-zdrive-r4-cm88-1.6t/results.json", out);
    assert_true(exists(p));

    char *report[] = {(char *)ptsbench_bin(), "report", out, "--out", rep, "--no-plots", NULL};
    struct cmd_result r;
    assert_int_equal(run_cmd(report, &r), 0);
    if (r.status != 0)
        print_message("report: %s\n", r.errout);
    assert_int_equal(r.status, 0);
    cmd_result_free(&r);
    snprintf(p, sizeof(p), "%s/report.md", rep);
    char *md = slurp_file(p, NULL);
    assert_non_null(md);
    /* one report, both drives in its title and its throughput table, the fleet's section */
    assert_non_null(strstr(md, "# ptsbench report: sim-generic-mlc25 (simulated"));
    assert_non_null(strstr(md, " vs sim-zdrive-r4-cm88-1.6t (simulated"));
    assert_non_null(strstr(md, "## Several targets"));
    assert_non_null(strstr(md, "one after another"));
    const char *tp = strstr(md, "## Throughput");
    assert_non_null(tp);
    assert_non_null(strstr(tp, "sim-generic-mlc25"));
    assert_non_null(strstr(tp, "sim-zdrive-r4-cm88-1.6t"));
    free(md);

    /* the results history takes each target's results from the fleet's directory */
    char db[4300];
    snprintf(db, sizeof(db), "%s/history.db", dir);
    char *import[] = {(char *)ptsbench_bin(), "db", "import", out, "--db", db, NULL};
    assert_int_equal(run_cmd(import, &r), 0);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "sim-generic-mlc25/results.json"));
    assert_non_null(strstr(r.out, "sim-zdrive-r4-cm88-1.6t/results.json"));
    cmd_result_free(&r);
    remove_tree(dir);
    free(dir);
}

/* A refused target among several: exit 2 with its own line, and nothing written (not even
 * OUT). The same device twice is refused too. */
static void test_bad_target_refuses_all(void **state)
{
    (void)state;
    char *dir = make_temp_dir("fleet-bad");
    assert_non_null(dir);
    char out[4096], missing[4096];
    snprintf(out, sizeof(out), "%s/out", dir);
    snprintf(missing, sizeof(missing), "%s/no-such-file", dir);
    char *argv[] = {(char *)ptsbench_bin(), "run", "--target", "sim:generic-mlc25", "--target",
                    missing, "--parallel", "--workload", "rw=randread,bs=4k", "--out", out,
                    NULL};
    struct cmd_result r;
    assert_int_equal(run_cmd(argv, &r), 0);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.errout, missing));
    assert_null(strchr(strchr(r.errout, '\n') + 1, '\n'));   /* one line */
    assert_false(exists(out));
    assert_false(exists(missing));
    cmd_result_free(&r);

    char file[4096];
    snprintf(file, sizeof(file), "%s/f", dir);
    char *twice[] = {(char *)ptsbench_bin(), "run", "--target", file, "--size", "16m",
                     "--target", file, "--workload", "rw=randread,bs=4k", "--out", out, NULL};
    assert_int_equal(run_cmd(twice, &r), 0);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.errout, "the same target"));
    assert_false(exists(out));
    assert_false(exists(file));
    cmd_result_free(&r);
    remove_tree(dir);
    free(dir);
}

static unsigned rounds_in(const char *path)
{
    struct json_object *d = load_json(path);
    struct json_object *r = d ? json_at(d, "rounds") : NULL;
    const unsigned n = r ? (unsigned)json_object_array_length(r) : 0;
    json_object_put(d);
    return n;
}

/* A fleet stopped by a signal keeps every target's rounds; `run --resume OUT` takes each
 * target on from where it stopped, and says there is nothing left once all are complete. */
static void test_resume_fleet(void **state)
{
    (void)state;
    char *dir = make_temp_dir("fleet-resume");
    assert_non_null(dir);
    char out[4096], log[4200], a[4300], b[4300];
    snprintf(out, sizeof(out), "%s/out", dir);
    snprintf(log, sizeof(log), "%s/log", dir);
    snprintf(a, sizeof(a), "%s/sim-generic-mlc25/results.json", out);
    snprintf(b, sizeof(b), "%s/sim-generic-mlc25-2/results.json", out);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        FILE *f = freopen(log, "w", stdout);
        (void)f;
        dup2(1, 2);
        execl(ptsbench_bin(), "ptsbench", "run", "--target", "sim:generic-mlc25", "--target",
              "sim:generic-mlc25", "--parallel", "--workload", "rw=randwrite,bs=4k,qd=4",
              "--rounds", "150", "--round-time", "1", "--all-rounds", "--quiet", "--out", out,
              (char *)NULL);
        _exit(127);
    }
    /* stop it once both targets have kept some rounds */
    for (int i = 0; i < 600 && (rounds_in(a) < 3 || rounds_in(b) < 3); i++)
        test_sleep_ms(50);
    kill(pid, SIGINT);
    int st = 0;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    assert_true(WIFEXITED(st));
    assert_int_equal(WEXITSTATUS(st), 130);
    const unsigned kept_a = rounds_in(a), kept_b = rounds_in(b);
    print_message("stopped with %u and %u rounds kept\n", kept_a, kept_b);
    assert_true(kept_a >= 3 && kept_a < 150);
    assert_true(kept_b >= 3 && kept_b < 150);
    char fleet[4200];
    snprintf(fleet, sizeof(fleet), "%s/results.json", out);
    struct json_object *doc = load_json(fleet);
    assert_non_null(doc);
    assert_string_equal(json_object_get_string(json_at(doc, "status")), "interrupted");
    json_object_put(doc);

    char *resume[] = {"ptsbench", "run", "--resume", out, "--quiet", NULL};
    doc = ptsbench_results(resume, out, 0, NULL);
    assert_non_null(doc);
    assert_string_equal(json_object_get_string(json_at(doc, "status")), "complete");
    assert_string_equal(json_object_get_string(json_at(doc, "targets.1.label")),
                        "sim-generic-mlc25-2");
    assert_int_equal((int)json_num(doc, "aggregate.rounds.149.round"), 150);
    json_object_put(doc);
    assert_int_equal(rounds_in(a), 150);
    assert_int_equal(rounds_in(b), 150);

    char *again[] = {(char *)ptsbench_bin(), "run", "--resume", out, NULL};
    struct cmd_result r;
    assert_int_equal(run_cmd(again, &r), 0);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "nothing to resume"));
    cmd_result_free(&r);
    remove_tree(dir);
    free(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parallel_sim),
        cmocka_unit_test(test_parallel_zram),
        cmocka_unit_test(test_suite_two_drives_one_report),
        cmocka_unit_test(test_bad_target_refuses_all),
        cmocka_unit_test(test_resume_fleet),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
