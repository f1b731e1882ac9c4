/* test_run_charts.c — the charts of a run of several jobs (plot/plot_run.c) say what ran, not
 * the first job's workload alone, on the simulated drive (two short virtual rounds a run):
 *   - two jobs at once: run-rounds' title names both jobs with their words ("2 jobs at once:
 *     reader (randread, 4 KiB, QD 8) + writer (randwrite, 64 KiB, QD 8)"), its caption says a
 *     round's figure is the group's; run-jobs draws each job's IOPS per round, a series each;
 *   - two groups (stonewall): "2 jobs in 2 groups: writer (...), then reader (...)" with each
 *     group's window; run-jobs marks where group 2 begins.
 * On the code before, the title was "(reader: randread, 4 KiB, QD 8 x 1 worker; ...)" and no
 * run-jobs chart was drawn. Skips, saying why, when gnuplot is not installed. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"

static char *dir;

static int setup(void **state)
{
    (void)state;
    dir = make_temp_dir("run-charts");
    return dir ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    remove_tree(dir);
    free(dir);
    return 0;
}

/* Run job file text as DIR/NAME (2 rounds of 1 s), then `ptsbench plot` it into DIR/NAME-plots;
 * the plots directory in plots. */
static void run_and_plot(const char *name, const char *text, char *plots, size_t len)
{
    char job[700], res[700];
    assert_true(write_job_file(dir, name, text, job, sizeof(job)));
    struct json_object *doc = run_workload(dir, name, job, &(struct run_opts){.rounds = "2"});
    assert_non_null(doc);
    json_object_put(doc);
    snprintf(res, sizeof(res), "%s/%s", dir, name);
    snprintf(plots, len, "%s/%s-plots", dir, name);
    const char *args[] = {"plot", res, "-o", plots, NULL};
    struct cmd_result r;
    assert_int_equal(ptsbench_run(&r, args), 0);
    cmd_result_free(&r);
}

/* PLOTS/NAME (the caller frees), or fail. */
static char *chart_file(const char *plots, const char *name)
{
    char p[800];
    snprintf(p, sizeof(p), "%s/%s", plots, name);
    char *text = slurp_file(p, NULL);
    if (!text)
        fail_msg("no %s", p);
    return text;
}

#define GLOBAL "[global]\nioengine=libaio\ndirect=1\nbs=4k\niodepth=8\nsize=64m\n"

static void test_two_jobs_at_once(void **state)
{
    (void)state;
    if (!test_have_gnuplot()) {
        skip();
        return;
    }
    char plots[800];
    run_and_plot("once", GLOBAL "[reader]\nrw=randread\n[writer]\nrw=randwrite\nbs=64k\n", plots,
                 sizeof(plots));
    char *rounds = chart_file(plots, "run-rounds.dat");
    print_message("  %.*s\n", (int)(strchr(rounds, '\n') - rounds), rounds);
    assert_non_null(strstr(rounds, "Run: IOPS per round with the measurement window (2 jobs at "
                                   "once: reader (randread, 4 KiB, QD 8) + writer (randwrite, "
                                   "64 KiB, QD 8);"));
    assert_non_null(strstr(rounds, "Several jobs: a round's figure is its group's"));
    free(rounds);
    char *jobs = chart_file(plots, "run-jobs.gp");
    assert_non_null(strstr(jobs, "set title 'Run: IOPS per round of each job (2 jobs at once)"));
    assert_non_null(strstr(jobs, "title 'job reader'"));
    assert_non_null(strstr(jobs, "title 'job writer'"));
    free(jobs);
    char *png = chart_file(plots, "run-jobs.png");
    free(png);
}

static void test_two_groups(void **state)
{
    (void)state;
    if (!test_have_gnuplot()) {
        skip();
        return;
    }
    char plots[800];
    run_and_plot("groups", GLOBAL "[writer]\nrw=randwrite\n[reader]\nstonewall\nrw=randread\n",
                 plots, sizeof(plots));
    char *rounds = chart_file(plots, "run-rounds.dat");
    print_message("  %.*s\n", (int)(strchr(rounds, '\n') - rounds), rounds);
    assert_non_null(strstr(rounds, "with each group's measurement window (2 jobs in 2 groups: "
                                   "writer (randwrite, 4 KiB, QD 8), then reader (randread, "
                                   "4 KiB, QD 8);"));
    free(rounds);
    char *jobs = chart_file(plots, "run-jobs.gp");
    assert_non_null(strstr(jobs, "'group 2' at 2.5"));   /* where group 2 begins */
    free(jobs);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_two_jobs_at_once),
        cmocka_unit_test(test_two_groups),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
