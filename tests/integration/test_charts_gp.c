/* test_charts_gp.c — what the charts of a report promise, in their gnuplot scripts, on results
 * made here on the simulator (virtual time, short rounds: a few seconds in all):
 *   - no script holds a literal "%%" (a gnuplot format passed through a printf %s once gave
 *     the 3D charts' z axis the tic labels "%.0s%c"): every .gp of a report of a PTS IOPS test,
 *     a QD ramp, a profile and a run;
 *   - the latency-against-IOPS points are labelled workers × QD and its IOPS axis reads 100k;
 *   - the per-second chart draws the round boundaries its caption promises: one a round for a
 *     short run, one every 5 rounds for 70 rounds, and its caption says which;
 *   - the profile bars: IOPS below 64 KiB blocks, MB/s of the 128 KiB points in their own chart,
 *     each bar's label with thousands separators.
 * Skips, saying why, when gnuplot is not installed. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"

static char *dir;
static bool have_gnuplot;

/* The results: NAME then the arguments after the binary (-o DIR/NAME is added). */
static const char *const sims[][20] = {
    {"suite", "run-test", "iops", "--target", "sim:zdrive-6300-1.6t", "--round-time", "1s",
     "--quiet", NULL},
    {"ramp", "profile", "qd-ramp-4k-write", "--qd", "1,32", "--workers", "1", "--precondition",
     "none", "--target", "sim:zdrive-6300-1.6t", "--round-time", "0.2s", "--quiet", NULL},
    {"bars", "profile", "database", "datasheet", "--compress", "0", "--workers", "4",
     "--precondition", "none", "--target", "sim:zdrive-r4-cm88-1.6t", "--round-time", "0.2s",
     "--quiet", NULL},
    {"long", "run", "--target", "sim:zdrive-6300-1.6t", "--workload", "rw=randwrite,bs=4k,qd=4",
     "--round-time", "1s", "--rounds", "70", "--all-rounds", "--quiet", NULL},
    {"short", "run", "--target", "sim:zdrive-6300-1.6t", "--workload", "rw=randwrite,bs=4k,qd=4",
     "--round-time", "1s", "--rounds", "8", "--all-rounds", "--quiet", NULL},
};
#define N_SIMS (sizeof(sims) / sizeof(sims[0]))

static const char *sub(const char *name)
{
    static char buf[8][4096];
    static unsigned k;
    char *b = buf[k++ % 8];
    snprintf(b, 4096, "%s/%s", dir, name);
    return b;
}

static int run_ptsbench(char **argv)
{
    struct cmd_result r;
    if (run_cmd(argv, &r) != 0)
        return -1;
    int st = r.status;
    if (st != 0)
        printf("%s %s exited %d: %s\n", argv[0], argv[1], st, r.errout);
    cmd_result_free(&r);
    return st;
}

/* The results, then a report of the suite, the ramp, the profile and the long run (DIR/rep) and
 * the plots of the short run (DIR/short-plot). */
static int group_setup(void **state)
{
    (void)state;
    char *argv[] = {"gnuplot", "--version", NULL};
    struct cmd_result r;
    have_gnuplot = run_cmd(argv, &r) == 0 && r.status == 0;
    cmd_result_free(&r);
    dir = make_temp_dir("charts-gp");
    if (!dir)
        return -1;
    if (!have_gnuplot) {
        printf("SKIP: gnuplot is not installed (e.g. apt-get install gnuplot-nox): no charts\n");
        return 0;
    }
    const char *const *cmds[N_SIMS];
    for (size_t k = 0; k < N_SIMS; k++)
        cmds[k] = sims[k];
    if (ptsbench_parallel(cmds, N_SIMS, dir) >= 0)
        return -1;
    char *report[] = {(char *)ptsbench_bin(), "report", (char *)sub("suite"), (char *)sub("ramp"),
                      (char *)sub("bars"), (char *)sub("long"), "-o", (char *)sub("rep"), NULL};
    char *plot[] = {(char *)ptsbench_bin(), "plot", (char *)sub("short"), "-o",
                    (char *)sub("short-plot"), "-q", NULL};
    return run_ptsbench(report) == 0 && run_ptsbench(plot) == 0 ? 0 : -1;
}

static int group_teardown(void **state)
{
    (void)state;
    if (dir && !getenv("PTSBENCH_TEST_KEEP"))
        remove_tree(dir);
    free(dir);
    return 0;
}

static char *chart_file(const char *d, const char *name, const char *ext)
{
    char path[4300];
    snprintf(path, sizeof(path), "%s/%s.%s", d, name, ext);
    char *b = slurp_file(path, NULL);
    if (!b)
        fail_msg("%s is missing", path);
    return b;
}

static int count(const char *hay, const char *needle)
{
    int n = 0;
    for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
        n++;
    return n;
}

static void test_no_literal_percent_in_any_script(void **state)
{
    (void)state;
    if (!have_gnuplot)
        skip();
    const char *plots = sub("rep/plots");
    DIR *d = opendir(plots);
    assert_non_null(d);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t l = strlen(e->d_name);
        if (l < 4 || strcmp(e->d_name + l - 3, ".gp"))
            continue;
        char stem[256];
        snprintf(stem, sizeof(stem), "%.*s", (int)(l - 3), e->d_name);
        char *gp = chart_file(plots, stem, "gp");
        const char *p = strstr(gp, "%%");
        if (p)
            fail_msg("%s/%s holds a literal %%%%: %.*s", plots, e->d_name,
                     (int)strcspn(p, "\n"), p);
        free(gp);
        n++;
    }
    closedir(d);
    if (n < 12)
        fail_msg("%s: %d scripts, expected a dozen or more", plots, n);
    char *gp = chart_file(plots, "iops-3d", "gp");
    assert_non_null(strstr(gp, "set format z '%.0s%c'"));
    free(gp);
}

static void test_lat_vs_iops_points_labelled(void **state)
{
    (void)state;
    if (!have_gnuplot)
        skip();
    char *gp = chart_file(sub("rep/plots"), "lat-vs-iops", "gp");
    assert_non_null(strstr(gp, "set format x '%.0s%c'"));
    assert_non_null(strstr(gp, "sprintf('%d × QD %d', $4, $5)) with labels"));
    char *dat = chart_file(sub("rep/plots"), "lat-vs-iops", "dat");
    assert_non_null(strstr(dat, "# columns: iops latency_us effective_qd workers qd"));
    free(dat);
    free(gp);
}

/* The dotted lines (arrows dt 3) of run-samples: as many as its caption says. */
static void test_round_boundaries_drawn(void **state)
{
    (void)state;
    if (!have_gnuplot)
        skip();
    char *gp = chart_file(sub("rep/plots"), "run-samples", "gp");
    assert_non_null(strstr(gp, "Dotted lines mark a round boundary every 5 rounds"));
    assert_int_equal(count(gp, "nohead dt 3"), 13);   /* after rounds 5, 10, ..., 65 */
    free(gp);
    gp = chart_file(sub("short-plot"), "run-samples", "gp");
    assert_non_null(strstr(gp, "Dotted lines mark the round boundaries."));
    assert_int_equal(count(gp, "nohead dt 3"), 7);
    free(gp);
}

static void test_profile_bars_split_and_labelled(void **state)
{
    (void)state;
    if (!have_gnuplot)
        skip();
    char *iops = chart_file(sub("rep/plots"), "profile-bars", "dat");
    char *mbs = chart_file(sub("rep/plots"), "profile-mbs-bars", "dat");
    /* the workloads: the y tics */
    char *gp = chart_file(sub("rep/plots"), "profile-bars", "gp");
    char *gpm = chart_file(sub("rep/plots"), "profile-mbs-bars", "gp");
    assert_non_null(strstr(gp, "'database' "));
    assert_non_null(strstr(gp, "'datasheet/rand-4k-read' "));
    assert_null(strstr(gp, "seq-128k"));
    assert_non_null(strstr(gpm, "'datasheet/seq-128k-read' "));
    assert_null(strstr(gpm, "rand-4k"));
    assert_non_null(strstr(gpm, "set xlabel 'throughput (MB/s = 10^6 B/s)'"));
    free(gpm);
    /* rows: value, row, label start, "label"; a figure of 1,000 or more has its separator */
    int rows = 0;
    for (const char *l = iops; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
        double v;
        char label[64];
        if (*l == '#' || sscanf(l, "%lf %*f %*f \"%63[^\"]\"", &v, label) != 2)
            continue;
        rows++;
        if (v >= 1000 && !strchr(label, ','))
            fail_msg("profile-bars.dat: %g labelled %s", v, label);
    }
    assert_true(rows >= 4);
    assert_non_null(strstr(gp, "with boxxyerror"));
    assert_non_null(strstr(gp, "with labels left"));
    free(gp);
    free(iops);
    free(mbs);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_no_literal_percent_in_any_script),
        cmocka_unit_test(test_lat_vs_iops_points_labelled),
        cmocka_unit_test(test_round_boundaries_drawn),
        cmocka_unit_test(test_profile_bars_split_and_labelled),
    };
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
