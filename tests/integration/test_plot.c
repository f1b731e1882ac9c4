/* test_plot.c — `ptsbench plot`: every chart type drawn from the fixture results (the PTS-E
 * suites of two simulated drives overlaid, the PTS 2.0 HIR/XSR/DIRTH suite, the profile matrix,
 * two QD ramps overlaid, a run), each a valid PNG and SVG of real size with its .gp script
 * referencing its .dat; overlaid charts carry one series (block or column) per device, the
 * same series as a single device's chart; bad input exits 2 with one line and writes nothing.
 * Every chart of a simulated drive says "simulated" in its title (one device) or in each legend
 * entry naming the device (several), and says the drive's state where the chart shows one: on
 * results made here on the simulator (a burst run, a run with --precondition steady whose WDPC
 * rounds are drawn apart, a profile, a PTS IOPS test).
 * Skips, saying why, when gnuplot is not installed. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdbool.h>
#include <math.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "helpers.h"
#include "stats/hist.h"

static char *dir;
static bool have_gnuplot;
static int rendered;   /* 0 not yet, 1 done, -1 failed */

/* every chart the fixtures give, by name */
static const char *const expected[] = {
    "iops-convergence", "iops-window", "iops-bs-mix", "iops-3d",
    "tp-convergence", "tp-window-128KiB", "tp-window-1MiB", "tp-bs",
    "lat-convergence", "lat-convergence-max", "lat-window", "lat-bs", "lat-3d",
    "wsat-iops-time", "wsat-iops-time-linear", "wsat-iops-tgbw", "wsat-lat-time",
    "hir-precondition", "hir-iops-time", "hir-lat-time",
    "xsr-tp-time", "xsr-lat-time",
    "dirth-precondition", "dirth-convergence", "dirth-intensity", "dirth-variation",
    "dirth-histogram-max", "dirth-histogram-mid", "dirth-histogram-min",
    "profile-bars", "profile-lat-bars", "qd-ramp", "lat-vs-iops",
    "run-rounds", "run-window", "run-samples",
};
#define N_EXPECTED (sizeof(expected) / sizeof(expected[0]))

/* the single-device set: suite-6300 alone */
static const char *const expected_one[] = {
    "iops-convergence", "iops-window", "iops-bs-mix", "iops-3d", "tp-convergence", "tp-bs",
    "lat-convergence", "lat-window", "lat-bs", "lat-3d", "wsat-iops-time", "wsat-iops-tgbw",
    "wsat-lat-time",
};

static const char *fixture(const char *name)
{
    static char buf[8][4096];
    static unsigned k;
    char *b = buf[k++ % 8];
    const char *root = getenv("PTSBENCH_DATADIR");
    snprintf(b, 4096, "%s/tests/fixtures/results/%s", root && *root ? root : ".", name);
    return b;
}

static const char *sub(const char *name)
{
    static char buf[8][4096];
    static unsigned k;
    char *b = buf[k++ % 8];
    snprintf(b, 4096, "%s/%s", dir, name);
    return b;
}

static int group_setup(void **state)
{
    (void)state;
    char *argv[] = {"gnuplot", "--version", NULL};
    struct cmd_result r;
    have_gnuplot = run_cmd(argv, &r) == 0 && r.status == 0;
    if (have_gnuplot)
        printf("  using %s", r.out);
    else
        printf("SKIP: gnuplot is not installed (e.g. apt-get install gnuplot-nox): the chart "
               "tests cannot run\n");
    cmd_result_free(&r);
    dir = make_temp_dir("plot");
    return dir ? 0 : -1;
}

static int group_teardown(void **state)
{
    (void)state;
    if (dir && !getenv("PTSBENCH_TEST_KEEP"))
        remove_tree(dir);
    free(dir);
    return 0;
}

static bool exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

static int run_plot(char **argv, struct cmd_result *r)
{
    return run_cmd(argv, r);
}

/* Draw everything once: all fixtures together (suites and ramps overlaid), and suite-6300 on
 * its own. */
static void render(void)
{
    if (rendered)
        return;
    rendered = -1;
    double t0 = (test_now_ns() / 1e9);
    char *all[] = {(char *)ptsbench_bin(), "plot",
                   (char *)fixture("suite-6300"), (char *)fixture("suite-r4"),
                   (char *)fixture("suite2-6300"), (char *)fixture("profile-r4"),
                   (char *)fixture("ramp-6300"), (char *)fixture("ramp-r4/results.json"),
                   (char *)fixture("run-generic"), "--out", (char *)sub("all"), NULL};
    struct cmd_result r;
    assert_int_equal(run_plot(all, &r), 0);
    if (r.status != 0)
        fprintf(stderr, "ptsbench plot (all) exited %d:\n%s%s", r.status, r.out, r.errout);
    assert_int_equal(r.status, 0);
    for (size_t i = 0; i < N_EXPECTED; i++)
        if (!strstr(r.out, expected[i]))
            fail_msg("ptsbench plot did not list %s:\n%s", expected[i], r.out);
    cmd_result_free(&r);
    double t1 = (test_now_ns() / 1e9);

    char *one[] = {(char *)ptsbench_bin(), "plot", (char *)fixture("suite-6300"), "--label",
                   "Z-Drive 6300", "-o", (char *)sub("one"), "--quiet", NULL};
    assert_int_equal(run_plot(one, &r), 0);
    if (r.status != 0)
        fprintf(stderr, "ptsbench plot (one) exited %d:\n%s%s", r.status, r.out, r.errout);
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, "");
    cmd_result_free(&r);
    printf("  rendered %zu charts in %.2f s, the single-suite set in %.2f s\n", N_EXPECTED,
           t1 - t0, (test_now_ns() / 1e9) - t1);
    rendered = 1;
}

static uint32_t be32(const unsigned char *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* NAME.png (PNG signature, IHDR > 100 x 100, > 5 KB), NAME.svg (XML, </svg>, > 5 KB), NAME.gp
 * referencing NAME.dat, NAME.dat with a header naming its columns and source. */
/* Is chart NAME in out (its .dat written)? */
static bool chart_exists(const char *out, const char *name)
{
    char path[4200];
    snprintf(path, sizeof(path), "%s/%s.dat", out, name);
    return access(path, F_OK) == 0;
}

static void check_chart(const char *out, const char *name)
{
    char path[4200];
    size_t len;

    snprintf(path, sizeof(path), "%s/%s.png", out, name);
    char *png = slurp_file(path, &len);
    if (!png)
        fail_msg("%s is missing", path);
    static const unsigned char sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    if (len < 33 || memcmp(png, sig, 8) || memcmp(png + 12, "IHDR", 4))
        fail_msg("%s is not a PNG (%zu bytes)", path, len);
    uint32_t w = be32((unsigned char *)png + 16), h = be32((unsigned char *)png + 20);
    if (w <= 100 || h <= 100)
        fail_msg("%s is %u x %u", path, w, h);
    if (len <= 5000)
        fail_msg("%s is only %zu bytes", path, len);
    free(png);

    snprintf(path, sizeof(path), "%s/%s.svg", out, name);
    char *svg = slurp_file(path, &len);
    if (!svg)
        fail_msg("%s is missing", path);
    const char *s = svg;
    while (*s == ' ' || *s == '\n' || *s == '\r' || *s == '\t')
        s++;
    if (strncmp(s, "<?xml", 5) && strncmp(s, "<svg", 4))
        fail_msg("%s does not start as XML/SVG", path);
    if (!strstr(svg, "</svg>"))
        fail_msg("%s has no </svg>", path);
    if (len <= 5000)
        fail_msg("%s is only %zu bytes", path, len);
    free(svg);

    snprintf(path, sizeof(path), "%s/%s.gp", out, name);
    char *gp = slurp_file(path, NULL);
    if (!gp)
        fail_msg("%s is missing", path);
    char want[300];
    snprintf(want, sizeof(want), "'%s.dat'", name);
    if (!strstr(gp, want))
        fail_msg("%s does not reference %s", path, want);
    snprintf(want, sizeof(want), "'%s.png'", name);
    assert_non_null(strstr(gp, want));
    snprintf(want, sizeof(want), "'%s.svg'", name);
    assert_non_null(strstr(gp, want));
    assert_non_null(strstr(gp, "set terminal svg"));
    assert_non_null(strstr(gp, "pngcairo"));
    free(gp);

    snprintf(path, sizeof(path), "%s/%s.dat", out, name);
    char *dat = slurp_file(path, NULL);
    if (!dat)
        fail_msg("%s is missing", path);
    assert_non_null(strstr(dat, "# columns: "));
    assert_non_null(strstr(dat, "results.json"));   /* the source file is named */
    free(dat);
}

static void test_every_chart_renders(void **state)
{
    (void)state;
    if (!have_gnuplot)
        skip();
    render();
    for (size_t i = 0; i < N_EXPECTED; i++)
        check_chart(sub("all"), expected[i]);
    for (size_t i = 0; i < sizeof(expected_one) / sizeof(expected_one[0]); i++)
        check_chart(sub("one"), expected_one[i]);
    /* a suite alone draws only its own tests */
    char p[4200];
    snprintf(p, sizeof(p), "%s/hir-iops-time.png", sub("one"));
    assert_false(exists(p));
    snprintf(p, sizeof(p), "%s/qd-ramp.png", sub("one"));
    assert_false(exists(p));
}

/* data blocks ("# index N: LABEL: ...") of one device in a .dat */
static int blocks_of(const char *dat, const char *label)
{
    int n = 0;
    char want[512];
    for (const char *p = strstr(dat, "# index "); p; p = strstr(p + 1, "# index ")) {
        const char *colon = strchr(p, ':');
        if (!colon)
            break;
        snprintf(want, sizeof(want), " %s: ", label);
        if (!strncmp(colon + 1, want, strlen(want)))
            n++;
    }
    return n;
}

static int count(const char *hay, const char *needle)
{
    int n = 0;
    for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
        n++;
    return n;
}

static char *read_chart(const char *out, const char *name, const char *ext)
{
    char path[4200];
    snprintf(path, sizeof(path), "%s/%s.%s", out, name, ext);
    char *b = slurp_file(path, NULL);
    if (!b)
        fail_msg("%s is missing", path);
    return b;
}

/* Overlaid charts: as many series per device as the device has on its own, each device's
 * series named by its label (default labels: the target model; a repeated model of the same
 * kind of results gets its directory's name). */
static void test_overlay_one_series_per_device(void **state)
{
    (void)state;
    if (!have_gnuplot)
        skip();
    render();
    /* the fixtures are simulated drives: their labels say so (plot.c) */
    const char *a = "OCZ Z-Drive 6300 1.6 TB (simulated)",
               *b = "OCZ Z-Drive R4 CM88 1.6 TB (simulated)";
    static const char *const block_charts[] = {
        "iops-convergence", "iops-bs-mix", "iops-3d", "lat-convergence", "wsat-iops-time",
        "wsat-iops-tgbw", "wsat-lat-time", "iops-window",
    };
    for (size_t i = 0; i < sizeof(block_charts) / sizeof(block_charts[0]); i++) {
        /* 3D columns and measurement windows are one chart per device (overlaid, columns and
         * bands hide each other): the second device's is NAME-2, in its own colour */
        bool per_dev = !strcmp(block_charts[i], "iops-3d") ||
                       !strcmp(block_charts[i], "iops-window");
        char *all = read_chart(sub("all"), block_charts[i], "dat");
        char *one = read_chart(sub("one"), block_charts[i], "dat");
        char name2[160];
        snprintf(name2, sizeof(name2), "%s-2", block_charts[i]);
        char *all2 = per_dev ? read_chart(sub("all"), name2, "dat") : NULL;
        int na = blocks_of(all, a), nb = blocks_of(per_dev ? all2 : all, b);
        if (per_dev) {
            int n1 = blocks_of(one, "Z-Drive 6300 (simulated)");
            if (!(na > 0 && na == nb && na == n1))
                fail_msg("%s.dat: %d series of %s, %d of %s in %s, %d on its own",
                         block_charts[i], na, a, nb, b, name2, n1);
            assert_int_equal(blocks_of(all, b), 0);
            assert_int_equal(blocks_of(all2, a), 0);
            assert_non_null(strstr(all2, "suite-r4/results.json"));
            assert_null(strstr(all2, "suite-6300/results.json"));
            char *gp2 = read_chart(sub("all"), name2, "gp");
            char t2[300];
            snprintf(t2, sizeof(t2), "— %s'", b);   /* one device: named in the title */
            assert_non_null(strstr(gp2, t2));
            free(gp2);
            free(all2);
            free(all);
            free(one);
            continue;
        }
        int n1 = blocks_of(one, "Z-Drive 6300 (simulated)");
        if (!(na > 0 && na == nb && na == n1))
            fail_msg("%s.dat: %d series of %s, %d of %s, %d on its own", block_charts[i], na, a,
                     nb, b, n1);
        /* the sources named in the header */
        assert_non_null(strstr(all, "suite-6300/results.json"));
        assert_non_null(strstr(all, "suite-r4/results.json"));
        free(all);
        free(one);
        char *gp = read_chart(sub("all"), block_charts[i], "gp");
        char t[300];
        snprintf(t, sizeof(t), "title '%s", a);
        int ta = count(gp, t);
        snprintf(t, sizeof(t), "title '%s", b);
        int tb = count(gp, t);
        if (!(ta > 0 && ta == tb))
            fail_msg("%s.gp: %d titles of %s, %d of %s", block_charts[i], ta, a, tb, b);
        free(gp);
    }
    /* wide tables: one column per device and direction / statistic */
    char *tp = read_chart(sub("all"), "tp-bs", "dat");
    char *cols = strstr(tp, "# columns: ");
    assert_non_null(cols);
    char line[2048];
    sscanf(cols, "%2047[^\n]", line);
    char t[300];
    snprintf(t, sizeof(t), "| %s read", a);
    assert_non_null(strstr(line, t));
    snprintf(t, sizeof(t), "| %s write", b);
    assert_non_null(strstr(line, t));
    assert_int_equal(count(line, "|"), 4);
    free(tp);
    char *lat = read_chart(sub("all"), "lat-bs", "dat");
    cols = strstr(lat, "# columns: ");
    sscanf(cols, "%2047[^\n]", line);
    assert_int_equal(count(line, a), 5);   /* mean, 99%, 99.99%, 99.999%, 99.9999% */
    assert_int_equal(count(line, b), 5);
    free(lat);
    /* the QD ramps of the two drives: one curve each, the second R4 profile file renamed */
    char *ramp = read_chart(sub("all"), "qd-ramp", "dat");
    assert_int_equal(blocks_of(ramp, a) > 0, 1);
    assert_int_equal(blocks_of(ramp, "OCZ Z-Drive R4 CM88 1.6 TB (ramp-r4) (simulated)") > 0, 1);
    assert_int_equal(blocks_of(ramp, a),
                     blocks_of(ramp, "OCZ Z-Drive R4 CM88 1.6 TB (ramp-r4) (simulated)"));
    free(ramp);
    /* PTS 2.0 tests exist only in suite2-6300: one device in their charts */
    char *hir = read_chart(sub("all"), "hir-iops-time", "dat");
    assert_true(blocks_of(hir, "OCZ Z-Drive 6300 1.6 TB (suite2-6300) (simulated)") >= 10);
    assert_null(strstr(hir, "R4"));
    free(hir);
}

/* The image's title: the script's `set title '...'` line. */
static void gp_title(const char *gp, char *buf, size_t len)
{
    const char *t = strstr(gp, "\nset title ");
    if (!t)
        fail_msg("no title in the script");
    snprintf(buf, len, "%.*s", (int)strcspn(t + 1, "\n"), t + 1);
}

/* Every fixture is a simulated drive: every chart's title says so (one device: "— LABEL
 * (simulated)", several: "(simulated drives)"). */
static void test_simulated_in_every_title(void **state)
{
    (void)state;
    if (!have_gnuplot)
        skip();
    render();
    for (size_t i = 0; i < N_EXPECTED + sizeof(expected_one) / sizeof(expected_one[0]); i++) {
        bool all = i < N_EXPECTED;
        const char *name = all ? expected[i] : expected_one[i - N_EXPECTED];
        char *gp = read_chart(sub(all ? "all" : "one"), name, "gp"), title[1024];
        gp_title(gp, title, sizeof(title));
        if (!strstr(title, "simulated"))
            fail_msg("%s/%s.gp: %s", all ? "all" : "one", name, title);
        free(gp);
    }
}

/* ---- the drive's state, on results made here ---- */

/* The simulator results (the brief's commands: virtual time, a few seconds each): name, then
 * the arguments after the binary (-o DIR/sim-NAME is added). */
static const char *const sims[][12] = {
    {"burst", "run", "--target", "sim:zdrive-r4-cm88-1.6t", "--workload",
     "rw=randwrite,bs=4k,qd=32,workers=4", "--quiet", NULL},
    {"steady", "run", "--target", "sim:zdrive-6300-1.6t", "--workload", "rw=randwrite,bs=4k,qd=32",
     "--precondition", "steady", "--quiet", NULL},
    {"profile", "profile", "qd-ramp-4k-write", "--qd", "32", "--workers", "1,4", "--target",
     "sim:zdrive-6300-1.6t", "--quiet", NULL},
    {"suite", "run-test", "iops", "--target", "sim:zdrive-6300-1.6t", "--round-time", "5s",
     "--quiet", NULL},
};
#define N_SIMS (sizeof(sims) / sizeof(sims[0]))
static int made;   /* 0 not yet, 1 done, -1 failed */

/* Run every simulation at once (fork/exec, output to DIR/sim-NAME.log), then plot each alone
 * into DIR/plot-NAME and the two runs together into DIR/plot-runs. */
static void make_sims(void)
{
    if (made) {
        assert_int_equal(made, 1);   /* a failed first attempt fails every later test */
        return;
    }
    made = -1;
    const char *const *cmds[N_SIMS];
    char names[N_SIMS][64];
    const char *renamed[N_SIMS][12];
    for (size_t k = 0; k < N_SIMS; k++) {   /* results in DIR/sim-NAME */
        snprintf(names[k], sizeof(names[k]), "sim-%s", sims[k][0]);
        memcpy(renamed[k], sims[k], sizeof(renamed[k]));
        renamed[k][0] = names[k];
        cmds[k] = renamed[k];
    }
    if (ptsbench_parallel(cmds, N_SIMS, dir) >= 0)
        fail_msg("a simulated run failed (its log is above)");
    for (size_t k = 0; k <= N_SIMS; k++) {
        char in[4200], in2[4200], out[4200];
        snprintf(in, sizeof(in), "%s/sim-%s", dir, k < N_SIMS ? sims[k][0] : "burst");
        snprintf(in2, sizeof(in2), "%s/sim-steady", dir);
        snprintf(out, sizeof(out), "%s/plot-%s", dir, k < N_SIMS ? sims[k][0] : "runs");
        char *one[] = {(char *)ptsbench_bin(), "plot", in, "-o", out, "-q", NULL};
        char *two[] = {(char *)ptsbench_bin(), "plot", in, in2, "-o", out, "-q", NULL};
        struct cmd_result r;
        assert_int_equal(run_cmd(k < N_SIMS ? one : two, &r), 0);
        if (r.status != 0)
            fail_msg("ptsbench plot %s exited %d: %s", in, r.status, r.errout);
        cmd_result_free(&r);
    }
    made = 1;
}

/* DIR/plot-WHICH/NAME.gp's title must hold every one of want (NULL-terminated). */
static char *title_has(const char *which, const char *name, const char *const *want)
{
    char out[4200], title[1024];
    snprintf(out, sizeof(out), "%s/plot-%s", dir, which);
    char *gp = read_chart(out, name, "gp");
    gp_title(gp, title, sizeof(title));
    for (size_t k = 0; want[k]; k++)
        if (!strstr(title, want[k]))
            fail_msg("plot-%s/%s.gp: want '%s' in %s", which, name, want[k], title);
    return gp;
}

static void test_run_charts_say_the_state(void **state)
{
    (void)state;
    if (!have_gnuplot)
        skip();
    make_sims();
    /* the burst run: its state in every title, its window is not called steady */
    static const char *const burst[] = {"burst, not preconditioned", "(simulated)", NULL};
    free(title_has("burst", "run-rounds", burst));
    free(title_has("burst", "run-samples", burst));
    char *gp = title_has("burst", "run-window", burst);
    assert_non_null(strstr(gp, "stable (fresh-out-of-box / burst), not steady state"));
    assert_null(strstr(gp, "(steady)"));
    assert_null(strstr(gp, "WDPC"));   /* nothing preconditioned it */
    free(gp);
    /* the steady run: steady state, the WDPC rounds drawn apart, where the measurement begins */
    static const char *const steady[] = {"steady state", "(simulated)", NULL};
    gp = title_has("steady", "run-rounds", steady);
    assert_non_null(strstr(gp, "title 'WDPC (preconditioning, not judged)'"));
    assert_non_null(strstr(gp, "title 'IOPS, measured rounds'"));
    assert_non_null(strstr(gp, "measurement begins (round"));
    assert_null(strstr(gp, "not steady"));
    free(gp);
    static const char *const samples[] = {"WDPC, then steady state", "(simulated)", NULL};
    gp = title_has("steady", "run-samples", samples);
    assert_non_null(strstr(gp, "measurement begins (round"));
    free(gp);
    char out[4200];
    snprintf(out, sizeof(out), "%s/plot-steady", dir);
    char *dat = read_chart(out, "run-rounds", "dat");
    assert_non_null(strstr(dat, "WDPC rounds (preconditioning, not judged)"));
    free(dat);
    free(title_has("steady", "run-window", steady));
}

/* Two runs in one chart: the title says both are simulated, and every legend entry naming a
 * device carries "(simulated)". */
static void test_overlaid_runs_say_simulated_in_the_legend(void **state)
{
    (void)state;
    if (!have_gnuplot)
        skip();
    make_sims();
    static const char *const both[] = {"(simulated drives)", NULL};
    /* (run-window is one chart per device: see test_overlay_one_series_per_device) */
    static const char *const names[] = {"run-rounds", "run-samples"};
    for (size_t k = 0; k < 2; k++) {
        char *gp = title_has("runs", names[k], both);
        assert_true(count(gp, "title 'OCZ Z-Drive R4 CM88 1.6 TB (simulated)") > 0);
        assert_true(count(gp, "title 'OCZ Z-Drive 6300 1.6 TB (simulated)") > 0);
        assert_int_equal(count(gp, "title 'OCZ Z-Drive R4 CM88 1.6 TB:"), 0);
        assert_int_equal(count(gp, "title 'OCZ Z-Drive 6300 1.6 TB:"), 0);
        free(gp);
    }
}

static void test_profile_and_suite_charts_say_the_state(void **state)
{
    (void)state;
    if (!have_gnuplot)
        skip();
    make_sims();
    static const char *const prof[] = {"(steady state)", "(simulated)", NULL};
    free(title_has("profile", "profile-bars", prof));
    free(title_has("profile", "profile-lat-bars", prof));
    static const char *const conv[] = {"(purge, WIPC, then the test loop as WDPC)", "(simulated)",
                                       NULL};
    free(title_has("suite", "iops-convergence", conv));
    static const char *const result[] = {"steady state", "(simulated)", NULL};
    free(title_has("suite", "iops-bs-mix", result));
    free(title_has("suite", "iops-3d", result));
    free(title_has("suite", "iops-window", result));
}

/* The script re-renders from its own directory, as a user would run it. */
static void test_script_rerenders_by_hand(void **state)
{
    (void)state;
    if (!have_gnuplot)
        skip();
    render();
    char png[4200];
    snprintf(png, sizeof(png), "%s/tp-bs.png", sub("one"));
    unlink(png);
    char cd[4300];
    snprintf(cd, sizeof(cd), "cd '%s'", sub("one"));
    char *argv[] = {"gnuplot", "-e", cd, "tp-bs.gp", NULL};
    assert_int_equal(run_quiet(argv), 0);
    check_chart(sub("one"), "tp-bs");
}

static void expect_usage(char **argv, const char *needle, const char *out)
{
    struct cmd_result r;
    assert_int_equal(run_cmd(argv, &r), 0);
    if (r.status != 2 || !strstr(r.errout, needle))
        fail_msg("want exit 2 naming '%s', got %d: %s", needle, r.status, r.errout);
    /* one line */
    const char *nl = strchr(r.errout, '\n');
    assert_true(nl && nl[1] == '\0');
    cmd_result_free(&r);
    assert_false(exists(out));
}

static void test_bad_input(void **state)
{
    (void)state;
    const char *out = sub("bad");
    char *missing[] = {(char *)ptsbench_bin(), "plot", "/nonexistent/results", "--out",
                       (char *)out, NULL};
    expect_usage(missing, "/nonexistent/results", out);

    char notjson[4200], schema[4200], emptydir[4200];
    snprintf(notjson, sizeof(notjson), "%s/notjson.json", dir);
    FILE *f = fopen(notjson, "w");
    fputs("this is not json {", f);
    fclose(f);
    char *bad_json[] = {(char *)ptsbench_bin(), "plot", notjson, "--out", (char *)out, NULL};
    expect_usage(bad_json, "notjson.json", out);

    snprintf(schema, sizeof(schema), "%s/other.json", dir);
    f = fopen(schema, "w");
    fputs("{\"schema\": \"ptsbench.crosscheck\"}", f);
    fclose(f);
    char *bad_schema[] = {(char *)ptsbench_bin(), "plot", schema, "--out", (char *)out, NULL};
    expect_usage(bad_schema, "ptsbench.crosscheck", out);

    snprintf(emptydir, sizeof(emptydir), "%s/emptydir", dir);
    mkdir(emptydir, 0755);
    char *no_results[] = {(char *)ptsbench_bin(), "plot", emptydir, "--out", (char *)out, NULL};
    expect_usage(no_results, "emptydir", out);

    char *no_out[] = {(char *)ptsbench_bin(), "plot", (char *)fixture("run-generic"), NULL};
    expect_usage(no_out, "--out", out);

    char *labels[] = {(char *)ptsbench_bin(), "plot", (char *)fixture("run-generic"), "--label",
                      "A", "--label", "B", "--out", (char *)out, NULL};
    expect_usage(labels, "--label B", out);

    char *nothing[] = {(char *)ptsbench_bin(), "plot", "--out", (char *)out, NULL};
    expect_usage(nothing, "no results", out);

    char *unknown[] = {(char *)ptsbench_bin(), "plot", (char *)fixture("run-generic"), "--out",
                       (char *)out, "--bogus", NULL};
    expect_usage(unknown, "--bogus", out);

    /* --out naming a file */
    char *file_out[] = {(char *)ptsbench_bin(), "plot", (char *)fixture("run-generic"), "--out",
                        notjson, NULL};
    struct cmd_result r;
    assert_int_equal(run_cmd(file_out, &r), 0);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.errout, "not a directory"));
    cmd_result_free(&r);

    char *help[] = {(char *)ptsbench_bin(), "plot", "--help", NULL};
    assert_int_equal(run_cmd(help, &r), 0);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "usage: ptsbench plot"));
    assert_non_null(strstr(r.out, "--label"));
    cmd_result_free(&r);
}

/* The latency-sweep profile (threads x QD at 4 KiB random read, write and 70/30) on the
 * simulated drive, cut to 2 threads x 3 QDs and short rounds, not preconditioned: its nine
 * latency-against-IOPS charts are drawn, each a PNG of real size, and a chart's data are the
 * points' IOPS and latency, one block per thread count in QD order. */
static void test_latency_sweep_charts(void **state)
{
    (void)state;
    if (!have_gnuplot)
        skip();
    const char *res = sub("sweep"), *out = sub("sweep-plot");
    char *argv[] = {NULL, "profile", "latency-sweep", "--target", "sim:zdrive-6300-1.6t",
                    "--precondition", "none", "--qd", "1,4,32", "--workers", "1,2",
                    "--round-time", "4s", "--quiet", "-o", (char *)res, NULL};
    /* 4 s (virtual; half a second of wall time): a write point at 1 x QD 1 completes about
     * 1,200 I/Os, enough for its 99th percentile (the tail rule, stats/hist.h: 1,000) */
    struct json_object *doc = ptsbench_results(argv, res, 0, NULL);
    assert_non_null(doc);
    char *plot[] = {(char *)ptsbench_bin(), "plot", (char *)res, "-o", (char *)out, "-q", NULL};
    struct cmd_result r;
    assert_int_equal(run_cmd(plot, &r), 0);
    if (r.status != 0)
        fail_msg("ptsbench plot exited %d: %s", r.status, r.errout);
    cmd_result_free(&r);
    static const char *const wls[] = {"latency-sweep-read", "latency-sweep-write",
                                      "latency-sweep-70-30"};
    static const char *const stems[] = {"mean", "p99", "p99.99"};
    static const char *const keys[] = {"mean", "percentiles.99", "percentiles.99.99"};
    for (size_t w = 0; w < 3; w++)
        for (size_t k = 0; k < 3; k++) {
            /* drawn where a point has the figure: a percentile its I/Os do not support is
             * null (the tail rule: 4 s rounds hold thousands, not the 100,000 99.99 needs) */
            bool any = false;
            for (unsigned i = 0; i < 18; i++) {
                char key[160];
                snprintf(key, sizeof(key), "points.%u.workload", i);
                struct json_object *wl = json_at(doc, key);
                snprintf(key, sizeof(key), "points.%u.result.total.lat_us.%s", i, keys[k]);
                any |= wl && !strcmp(json_object_get_string(wl), wls[w]) &&
                       isfinite(json_num(doc, key));
            }
            char name[128];
            snprintf(name, sizeof(name), "%s-%s", wls[w], stems[k]);
            if (any)
                check_chart(out, name);
            else
                assert_false(chart_exists(out, name));
        }
    /* the write p99 chart's data against the results: blocks "1 thread", "2 threads" */
    char *dat = chart_exists(out, "latency-sweep-write-p99")
                    ? read_chart(out, "latency-sweep-write-p99", "dat")
                    : NULL;
    unsigned rows = 0, want = 0;
    for (unsigned i = 0; i < 18; i++) {
        char k[128];
        snprintf(k, sizeof(k), "points.%u.workload", i);
        struct json_object *wl = json_at(doc, k);
        if (!wl || strcmp(json_object_get_string(wl), "latency-sweep-write"))
            continue;
        snprintf(k, sizeof(k), "points.%u.workers", i);
        int workers = (int)json_num(doc, k);
        snprintf(k, sizeof(k), "points.%u.qd", i);
        int qd = (int)json_num(doc, k);
        snprintf(k, sizeof(k), "points.%u.result.total.iops", i);
        double iops = json_num(doc, k);
        snprintf(k, sizeof(k), "points.%u.result.total.lat_us.percentiles.99", i);
        double p99 = json_num(doc, k);
        assert_true(iops > 0);
        snprintf(k, sizeof(k), "points.%u.result.total.lat_us.count", i);
        if (!hist_pct_supported((uint64_t)json_num(doc, k), 99)) {
            assert_true(isnan(p99));   /* null: not drawn */
            continue;
        }
        assert_true(p99 > 0);
        want++;
        assert_non_null(dat);
        char head[128];
        snprintf(head, sizeof(head), ": %d thread%s, 99%% latency\n", workers,
                 workers == 1 ? "" : "s");
        const char *b = strstr(dat, head);
        if (!b)
            fail_msg("latency-sweep-write-p99.dat has no block '%s'", head);
        const char *end = strstr(b, "\n\n");
        bool found = false;
        for (const char *l = strstr(b, "\n# columns") + 1; l && (!end || l < end);
             l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
            double x, y, q;
            if (sscanf(l, "%lf %lf %lf", &x, &y, &q) == 3 && (int)q == qd) {
                assert_true(fabs(x - iops) <= 1e-6 * iops);
                assert_true(fabs(y - p99) <= 1e-6 * p99);
                found = true;
            }
        }
        if (!found)
            fail_msg("latency-sweep-write-p99.dat: no row for %d threads at QD %d", workers, qd);
        rows++;
    }
    assert_int_equal(rows, want);
    free(dat);
    json_object_put(doc);
}

/* The ATTO profile (sequential read and write, 0.5 KiB .. 8 MiB at QD 4) on the simulated
 * drive with 1 s rounds, not preconditioned: one chart of MB/s against transfer size
 * (atto-transfer-size), its rows (bs, read MB/s, write MB/s) the points' window figures, one row
 * per size in size order; its points are not also drawn as IOPS bars. */
static void test_atto_chart(void **state)
{
    (void)state;
    if (!have_gnuplot)
        skip();
    const char *res = sub("atto"), *out = sub("atto-plot");
    char *argv[] = {NULL, "profile", "atto", "--target", "sim:zdrive-6300-1.6t",
                    "--round-time", "1s", "--quiet", "-o", (char *)res, NULL};
    struct json_object *doc = ptsbench_results(argv, res, 0, NULL);
    assert_non_null(doc);
    char *plot[] = {(char *)ptsbench_bin(), "plot", (char *)res, "-o", (char *)out, "-q", NULL};
    struct cmd_result r;
    assert_int_equal(run_cmd(plot, &r), 0);
    if (r.status != 0)
        fail_msg("ptsbench plot exited %d: %s", r.status, r.errout);
    cmd_result_free(&r);
    check_chart(out, "atto-transfer-size");
    char path[4200];
    snprintf(path, sizeof(path), "%s/profile-bars.dat", out);
    assert_false(exists(path));
    char *dat = read_chart(out, "atto-transfer-size", "dat");
    char *gp = read_chart(out, "atto-transfer-size", "gp");
    assert_non_null(strstr(gp, "set logscale x 2"));
    assert_non_null(strstr(gp, "'0.5 KiB' 512"));
    assert_non_null(strstr(gp, "'8 MiB' 8388608"));
    /* the rows, in order */
    double bs[32], rd[32], wr[32];
    int n = 0;
    for (const char *l = dat; l && *l && n < 32; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
        char a[32], b[32], cc[32];
        if (*l < '0' || *l > '9' || sscanf(l, "%31s %31s %31s", a, b, cc) != 3)
            continue;
        bs[n] = strtod(a, NULL);
        rd[n] = strcmp(b, "NaN") ? strtod(b, NULL) : NAN;
        wr[n] = strcmp(cc, "NaN") ? strtod(cc, NULL) : NAN;
        n++;
    }
    assert_int_equal(n, 15);
    for (int i = 0; i < n; i++)
        assert_true(bs[i] == 512.0 * (double)(1u << i));
    unsigned checked = 0;
    for (unsigned i = 0; i < 30; i++) {
        char k[128];
        snprintf(k, sizeof(k), "points.%u.spec", i);
        struct json_object *sp = json_at(doc, k);
        assert_non_null(sp);
        const char *spec = json_object_get_string(sp);
        const char *b = strstr(spec, "bs=");
        assert_non_null(b);
        char *end;
        double size = strtod(b + 3, &end);
        size *= *end == 'k' ? 1024.0 : *end == 'm' ? 1048576.0 : 1.0;
        bool write = strstr(spec, "rw=write") != NULL;
        assert_true(write || strstr(spec, "rw=read") != NULL);
        snprintf(k, sizeof(k), "points.%u.result.%s.mb_s", i, write ? "write" : "read");
        double mb = json_num(doc, k);
        snprintf(k, sizeof(k), "points.%u.result.%s.ios", i, write ? "write" : "read");
        double ios = json_num(doc, k);
        int row = -1;
        for (int j = 0; j < n; j++)
            if (bs[j] == size)
                row = j;
        if (row < 0)
            fail_msg("atto-transfer-size.dat: no row for %s", spec);
        double got = write ? wr[row] : rd[row];
        if (ios > 0) {
            assert_true(mb > 0);
            if (!(fabs(got - mb) <= 1e-6 * mb))
                fail_msg("%s: chart %g MB/s, results %g", spec, got, mb);
            checked++;
        } else {
            assert_true(isnan(got));   /* no I/O completed: no figure, not 0 */
        }
    }
    assert_true(checked >= 28);
    free(dat);
    free(gp);
    json_object_put(doc);
}

/* The upper edge of the bucket in which the cumulative count (buckets in latency order) first
 * reaches pct% of the I/Os: the test's own reading of the histogram. */
static double edge_percentile(struct json_object *buckets, double pct)
{
    size_t n = json_object_array_length(buckets);
    double lo[4096], hi[4096], c[4096], total = 0;
    assert_true(n > 0 && n <= 4096);
    for (size_t j = 0; j < n; j++) {
        struct json_object *b = json_object_array_get_idx(buckets, j);
        lo[j] = json_object_get_double(json_object_array_get_idx(b, 0));
        hi[j] = json_object_get_double(json_object_array_get_idx(b, 1));
        c[j] = json_object_get_double(json_object_array_get_idx(b, 2));
        total += c[j];
    }
    for (size_t j = 1; j < n; j++)   /* insertion sort by low edge */
        for (size_t m = j; m > 0 && lo[m - 1] > lo[m]; m--) {
            double t;
            t = lo[m]; lo[m] = lo[m - 1]; lo[m - 1] = t;
            t = hi[m]; hi[m] = hi[m - 1]; hi[m - 1] = t;
            t = c[m]; c[m] = c[m - 1]; c[m - 1] = t;
        }
    double cum = 0;
    for (size_t j = 0; j < n; j++) {
        cum += c[j];
        if (cum >= pct / 100.0 * total * (1 - 1e-12))
            return hi[j];
    }
    return NAN;
}

/* DIRTH's histograms (suite2-6300): one chart per operating point, drawn as boxes, its legend
 * in words; the nines chart's rows (max, mid, min IOPS point) hold 99.9%, 99.99% and 99.999%
 * as the test computes them from the fixture's buckets. */
static void test_dirth_histograms_and_nines(void **state)
{
    (void)state;
    if (!have_gnuplot)
        skip();
    render();
    static const char *const ops[] = {"max", "mid", "min"};
    char path[4200];
    snprintf(path, sizeof(path), "%s/results.json", fixture("suite2-6300"));
    struct json_object *doc = json_object_from_file(path);
    assert_non_null(doc);
    struct json_object *tests = json_at(doc, "tests"), *dirth = NULL;
    for (size_t i = 0; i < json_object_array_length(tests); i++) {
        struct json_object *t = json_object_array_get_idx(tests, i);
        struct json_object *nm = json_at(t, "name");
        if (nm && !strcmp(json_object_get_string(nm), "dirth"))
            dirth = t;
    }
    assert_non_null(dirth);
    for (int k = 0; k < 3; k++) {
        char name[64];
        snprintf(name, sizeof(name), "dirth-histogram-%s", ops[k]);
        char *gp = read_chart(sub("all"), name, "gp");
        assert_non_null(strstr(gp, "with boxxyerror"));
        char want[64];
        snprintf(want, sizeof(want), "%s IOPS point, ", ops[k]);
        assert_non_null(strstr(gp, want));
        assert_non_null(strstr(gp, " × QD "));
        assert_non_null(strstr(gp, ": mean "));
        assert_null(strstr(gp, "e+0"));
        free(gp);
    }
    /* The nines are drawn where the point's I/Os support them (the tail rule, stats/hist.h:
     * 10,000 for 99.9); the fixture's points hold 628 to 4,509, so the chart is left out. */
    bool any = false;
    for (int k = 0; k < 3; k++) {
        char key[128];
        snprintf(key, sizeof(key), "subtests.0.operating_points.%s.histogram.buckets", ops[k]);
        struct json_object *b = json_at(dirth, key);
        double n = 0;
        for (size_t j = 0; j < json_object_array_length(b); j++)
            n += json_object_get_double(json_object_array_get_idx(json_object_array_get_idx(b, j), 2));
        any |= hist_pct_supported((uint64_t)n, 99.9);
    }
    if (!any) {
        assert_false(chart_exists(sub("all"), "dirth-nines"));
        json_object_put(doc);
        return;
    }
    char *dat = read_chart(sub("all"), "dirth-nines", "dat");
    static const double pcts[] = {99.9, 99.99, 99.999};
    for (int k = 0; k < 3; k++) {
        char key[128], row[64];
        snprintf(key, sizeof(key), "subtests.0.operating_points.%s.histogram.buckets", ops[k]);
        struct json_object *b = json_at(dirth, key);
        assert_non_null(b);
        snprintf(row, sizeof(row), "\"%s IOPS point\"", ops[k]);
        const char *l = strstr(dat, row);
        if (!l)
            fail_msg("dirth-nines.dat has no row %s", row);
        l += strlen(row);
        /* the suite2-6300 device's columns come first (the only input with DIRTH) */
        for (int q = 0; q < 3; q++) {
            char *end;
            double got = strtod(l, &end);
            assert_true(end != l);
            l = end;
            double want = edge_percentile(b, pcts[q]);
            if (!(fabs(got - want) <= 1e-6 * want))
                fail_msg("dirth-nines %s %g%%: chart %g, buckets %g", ops[k], pcts[q], got, want);
        }
    }
    free(dat);
    json_object_put(doc);
}

/* Every .gp in dir: its title and label lines (set title/xlabel/ylabel/zlabel, title '...')
 * carry no internal name (a tracking name "iops@4KiB/0", a metric key). Returns the files
 * checked. */
static int words_only(const char *gdir)
{
    static const char *const bad[] = {"lat_mean_us", "read_iops", "write_iops", "mb_s@",
                                      "_lat_", "iops@"};
    DIR *d = opendir(gdir);
    assert_non_null(d);
    struct dirent *e;
    int files = 0;
    while ((e = readdir(d))) {
        size_t l = strlen(e->d_name);
        if (l < 4 || strcmp(e->d_name + l - 3, ".gp"))
            continue;
        char stem[256];
        snprintf(stem, sizeof(stem), "%.*s", (int)(l - 3), e->d_name);
        char *gp = read_chart(gdir, stem, "gp");
        for (char *line = strtok(gp, "\n"); line; line = strtok(NULL, "\n")) {
            if (line[0] == '#')
                continue;
            const char *t = strstr(line, "title '");
            if (!t && strncmp(line, "set xlabel", 10) && strncmp(line, "set ylabel", 10) &&
                strncmp(line, "set zlabel", 10))
                continue;
            const char *from = t ? t : line;
            for (size_t b = 0; b < sizeof(bad) / sizeof(bad[0]); b++)
                if (strstr(from, bad[b]))
                    fail_msg("%s/%s: '%s' in: %s", gdir, e->d_name, bad[b], line);
            for (const char *a = strchr(from, '@'); a; a = strchr(a + 1, '@'))
                if (a[1] >= '0' && a[1] <= '9')
                    fail_msg("%s/%s: a tracking name in: %s", gdir, e->d_name, line);
        }
        free(gp);
        files++;
    }
    closedir(d);
    return files;
}

/* Chart titles and labels in words: the fixtures' charts, and a run tracking
 * write_lat_mean_us ("write mean latency", not the key). */
static void test_titles_in_words(void **state)
{
    (void)state;
    if (!have_gnuplot)
        skip();
    render();
    assert_true(words_only(sub("all")) >= (int)N_EXPECTED);
    const char *res = sub("track-lat"), *out = sub("track-lat-plot");
    char *argv[] = {NULL, "run", "--target", "sim:zdrive-6300-1.6t", "--workload",
                    "rw=randwrite,bs=4k,iodepth=32", "--track", "write_lat_mean_us",
                    "--round-time", "0.2s", "--rounds", "6", "--quiet", "-o", (char *)res, NULL};
    struct json_object *doc = ptsbench_results(argv, res, 0, NULL);
    assert_non_null(doc);
    json_object_put(doc);
    char *plot[] = {(char *)ptsbench_bin(), "plot", (char *)res, "-o", (char *)out, "-q", NULL};
    struct cmd_result r;
    assert_int_equal(run_cmd(plot, &r), 0);
    assert_int_equal(r.status, 0);
    cmd_result_free(&r);
    char *gp = read_chart(out, "run-window", "gp");
    assert_non_null(strstr(gp, "write mean latency"));
    free(gp);
    assert_true(words_only(out) >= 2);
}

/* ---- legends of overlaid charts ---- */

/* At most this many legend entries in any chart: the largest set of series of one chart (the
 * IOPS test's 8 block sizes, coloured) plus one entry per device (line style) for two devices.
 * Below the 1100 x 650 image (key outside below, 6 rows) 10 entries take two columns and leave
 * the plot area its height; the S x D legends before (16 for the IOPS convergence) did not. */
#define LEGEND_MAX 10

/* The legend titles of a script's last plot command (the one drawn; a first pass for the axis
 * range repeats it), joined by '\n' into buf; returns their number. */
static int legend_titles(const char *gp, char *buf, size_t len)
{
    const char *last = NULL;
    for (const char *p = gp; (p = strstr(p, "plot ")); p++)
        if ((p == gp || p[-1] == '\n' || (p[-1] == 's' && (p - 1 == gp || p[-2] == '\n'))))
            last = p;
    if (!last)
        fail_msg("no plot command in the script");
    const char *end = last;
    while ((end = strchr(end, '\n')) && end[-1] == '\\')
        end++;
    if (!end)
        end = last + strlen(last);
    int n = 0;
    size_t o = 0;
    buf[0] = '\0';
    for (const char *t = strstr(last, " title '"); t && t < end; t = strstr(t + 1, " title '")) {
        const char *q = t + 8, *e = q;
        while (*e && !(e[0] == '\'' && e[1] != '\''))
            e += e[0] == '\'' ? 2 : 1;
        o += (size_t)snprintf(buf + o, o < len ? len - o : 0, "%.*s\n", (int)(e - q), q);
        n++;
    }
    return n;
}

/* Every chart of an overlay: no more than LEGEND_MAX legend entries, and each device whose
 * results the chart draws (named as a source in its .dat header) named in the legend or the
 * title. Returns the number of charts looked at. */
static int check_legends(const char *out, const char *const *labels, size_t n_labels)
{
    DIR *d = opendir(out);
    if (!d)
        fail_msg("%s: cannot open", out);
    int charts = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t l = strlen(e->d_name);
        if (l < 4 || strcmp(e->d_name + l - 3, ".gp"))
            continue;
        char stem[256];
        snprintf(stem, sizeof(stem), "%.*s", (int)(l - 3), e->d_name);
        char *gp = read_chart(out, stem, "gp"), *dat = read_chart(out, stem, "dat");
        static char titles[65536];
        char title[1024];
        int n = legend_titles(gp, titles, sizeof(titles));
        gp_title(gp, title, sizeof(title));
        if (n > LEGEND_MAX)
            fail_msg("%s/%s: %d legend entries (at most %d):\n%s", out, e->d_name, n,
                     LEGEND_MAX, titles);
        for (size_t k = 0; k < n_labels; k++) {
            char src[300];
            snprintf(src, sizeof(src), "#   %s: ", labels[k]);
            if (strstr(dat, src) && !strstr(titles, labels[k]) && !strstr(title, labels[k]))
                fail_msg("%s/%s: %s draws %s but neither legend nor title names it:\n%s\n%s",
                         out, e->d_name, stem, labels[k], title, titles);
        }
        free(gp);
        free(dat);
        charts++;
    }
    closedir(d);
    return charts;
}

/* Two devices overlaid (the PTS-E suites of two drives; the PTS 2.0 suite and the profile
 * each given twice under two labels, for HIR, XSR, DIRTH and the profile charts): every
 * chart's legend short, every device named. */
static void test_overlay_legends(void **state)
{
    (void)state;
    if (!have_gnuplot)
        skip();
    const char *a = "OCZ Z-Drive 6300 1.6 TB (simulated)",
               *b = "OCZ Z-Drive R4 CM88 1.6 TB (simulated)";
    const char *ab[] = {a, b}, *xy[] = {"Drive A (simulated)", "Drive B (simulated)"};
    struct {
        const char *out, *in1, *in2;
        bool labelled;
        int min_charts;
    } sets[] = {
        {"leg-suites", "suite-6300", "suite-r4", false, 17},
        {"leg-pts2", "suite2-6300", "suite2-6300", true, 10},
        {"leg-profile", "profile-r4", "profile-r4", true, 2},
    };
    for (size_t s = 0; s < sizeof(sets) / sizeof(sets[0]); s++) {
        char *argv[] = {(char *)ptsbench_bin(), "plot", (char *)fixture(sets[s].in1),
                        (char *)fixture(sets[s].in2), "-o", (char *)sub(sets[s].out), "-q",
                        "--label", (char *)xy[0], "--label", (char *)xy[1], NULL};
        if (!sets[s].labelled)
            argv[7] = NULL;
        else
            argv[8] = "Drive A", argv[10] = "Drive B";
        struct cmd_result r;
        assert_int_equal(run_cmd(argv, &r), 0);
        if (r.status != 0)
            fail_msg("ptsbench plot (%s) exited %d: %s", sets[s].out, r.status, r.errout);
        cmd_result_free(&r);
        int n = check_legends(sub(sets[s].out), sets[s].labelled ? xy : ab, 2);
        if (n < sets[s].min_charts)
            fail_msg("%s: %d charts, expected at least %d", sets[s].out, n, sets[s].min_charts);
    }
    /* the convergence chart: its 8 block sizes once and the two devices, in their dashes */
    char *gp = read_chart(sub("leg-suites"), "iops-convergence", "gp");
    static char titles[65536];
    assert_int_equal(legend_titles(gp, titles, sizeof(titles)), 10);
    char want[300];
    snprintf(want, sizeof(want), "%s (solid)\n", a);
    assert_non_null(strstr(titles, want));
    snprintf(want, sizeof(want), "%s (dashed)\n", b);
    assert_non_null(strstr(titles, want));
    assert_int_equal(count(titles, "\n4 KiB\n"), 1);
    free(gp);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_chart_renders),
        cmocka_unit_test(test_overlay_one_series_per_device),
        cmocka_unit_test(test_script_rerenders_by_hand),
        cmocka_unit_test(test_simulated_in_every_title),
        cmocka_unit_test(test_run_charts_say_the_state),
        cmocka_unit_test(test_overlaid_runs_say_simulated_in_the_legend),
        cmocka_unit_test(test_profile_and_suite_charts_say_the_state),
        cmocka_unit_test(test_latency_sweep_charts),
        cmocka_unit_test(test_atto_chart),
        cmocka_unit_test(test_dirth_histograms_and_nines),
        cmocka_unit_test(test_titles_in_words),
        cmocka_unit_test(test_overlay_legends),
        cmocka_unit_test(test_bad_input),
    };
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
