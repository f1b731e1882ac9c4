/* test_report.c — `ptsbench report`: from the fixture results (two PTS suites, the PTS 2.0
 * HIR/XSR/DIRTH suite, profiles, QD ramps, a run) an HTML report and its Markdown twin whose
 * every reference (images, SVG links) is a file that exists, with nothing external (no scripts,
 * no web fonts, no http), the SNIA header (platform, device, set-up, purge, spec, compliance
 * notes), and each test's summary in words, with the figures of the results.
 *
 * Then the drive's state (src/core/drive_state.h) on results made here on the simulator: a burst
 * run (nothing preconditioned it) is "stable (fresh-out-of-box / burst)", "not SNIA steady
 * state", never "steady state reached"; a run with --precondition steady says its steady-state
 * label and marks its WDPC rounds; a profile's points carry their labels and the groups'
 * preparation; a suite says how each test prepared the drive; every figure of a simulated drive
 * says "simulated", and "compliant" never stands without "(simulated drive)".
 *
 * And a PTS test that is only data: two definitions written here under names the report has
 * never seen (a WSAT and an IOPS of fewer loops, with their `report` key), run on the simulator,
 * get their presentation's section and charts, named after them, beside the fixture's WSAT and
 * IOPS of the same presentations. */
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
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/results.h"
#include "helpers.h"

static char *dir;

static int setup(void **state)
{
    (void)state;
    dir = make_temp_dir("report");
    return dir ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    remove_tree(dir);
    free(dir);
    return 0;
}

static bool have_gnuplot(void)
{
    char *argv[] = {"gnuplot", "--version", NULL};
    struct cmd_result r;
    if (run_cmd(argv, &r) != 0)
        return false;
    bool ok = r.status == 0;
    cmd_result_free(&r);
    return ok;
}

/* Every `attr="..."` (HTML) or `](...)` (Markdown) reference must name a file under out. */
static unsigned check_refs(const char *out, const char *text, const char *open, char close)
{
    unsigned n = 0;
    for (const char *p = strstr(text, open); p; p = strstr(p + 1, open)) {
        const char *v = p + strlen(open);
        const char *e = strchr(v, close);
        assert_non_null(e);
        char ref[512], path[1200];
        snprintf(ref, sizeof(ref), "%.*s", (int)(e - v), v);
        if (ref[0] == '#')
            continue;   /* in-page anchor */
        assert_null(strstr(ref, "://"));   /* nothing from the network */
        assert_true(ref[0] != '/');        /* relative: the report moves as a directory */
        snprintf(path, sizeof(path), "%s/%s", out, ref);
        struct stat st;
        if (stat(path, &st) != 0)
            fail_msg("%s references %s, which does not exist", out, ref);
        assert_true(st.st_size > 1000);
        n++;
    }
    return n;
}

/* "compliant" only as "NOT compliant ..." or with "(simulated drive)" before the sentence ends
 * (every input of these reports is simulated). */
static void check_compliance_words(const char *text)
{
    for (const char *p = strstr(text, "ompliant"); p; p = strstr(p + 1, "ompliant")) {
        const char *end = p;
        while (*end && *end != '\n' && strncmp(end, ". ", 2) && strncmp(end, "</", 2) &&
               *end != '|')
            end++;
        bool negated = p >= text + 5 && !strncmp(p - 5, "NOT c", 5);
        char sentence[400];
        snprintf(sentence, sizeof(sentence), "%.*s", (int)(end - p), p);
        if (!negated && !strstr(sentence, "(simulated drive)"))
            fail_msg("bare 'compliant' for a simulated drive: ...c%s", sentence);
    }
    assert_null(strstr(text, ": compliant with"));
}

static void test_report_from_fixtures(void **state)
{
    (void)state;
    if (!have_gnuplot()) {
        print_message("SKIP: gnuplot is not installed: no charts, report test not run\n");
        skip();
    }
    const char *root = getenv("PTSBENCH_DATADIR") ? getenv("PTSBENCH_DATADIR") : ".";
    char f[7][600];
    const char *names[] = {"suite-6300", "suite-r4", "suite2-6300", "profile-r4", "ramp-6300",
                           "ramp-r4", "run-generic"};
    for (int i = 0; i < 7; i++)
        snprintf(f[i], sizeof(f[i]), "%s/tests/fixtures/results/%s", root, names[i]);
    char out[600];
    snprintf(out, sizeof(out), "%s/all", dir);
    char *argv[] = {(char *)ptsbench_bin(), "report", f[0], f[1], f[2], f[3], f[4], f[5], f[6],
                    "-l", "Z-Drive 6300", "-l", "Z-Drive R4", "--out", out, NULL};
    struct cmd_result r;
    assert_int_equal(run_cmd(argv, &r), 0);
    if (r.status != 0)
        print_message("%s", r.errout);
    assert_int_equal(r.status, 0);
    cmd_result_free(&r);

    char hp[700], mp[700];
    snprintf(hp, sizeof(hp), "%s/report.html", out);
    snprintf(mp, sizeof(mp), "%s/report.md", out);
    char *html = slurp_file(hp, NULL), *md = slurp_file(mp, NULL);
    assert_non_null(html);
    assert_non_null(md);

    /* self-contained and offline */
    assert_null(strstr(html, "<script"));
    assert_null(strstr(html, "http://"));
    assert_null(strstr(html, "https://"));
    assert_null(strstr(html, "@import"));
    assert_null(strstr(html, "<link"));
    /* reports/report.css, inlined */
    assert_non_null(strstr(html, "td.n{text-align:right;white-space:nowrap"));
    unsigned imgs = check_refs(out, html, "src=\"", '"');
    unsigned links = check_refs(out, html, "href=\"", '"');
    unsigned mdimgs = check_refs(out, md, "](", ')');
    print_message("  %u images, %u links in HTML; %u references in Markdown\n", imgs, links,
                  mdimgs);
    assert_true(imgs >= 30);
    assert_int_equal(links, imgs);           /* an SVG link per chart */
    assert_int_equal(mdimgs, 2 * imgs);      /* the twin: image and SVG link */

    /* the SNIA header and the summaries in words, with the results' own figures */
    const char *want[] = {"Test platform, device under test and set-up", "Device model",
                          "Purge", "secure-erase: SNIA-compliant (simulated drive)",
                          "SNIA SSS PTS Enterprise 1.1",
                          "round elements of 5 s instead of the PTS", "Z-Drive 6300",
                          "Z-Drive R4", "steady state reached at round", "Workload profiles",
                          "IOPS reach 95% of their maximum", "90% compressible data",
                          "Write Saturation", "Host Idle Recovery", "Cross Stimulus Recovery",
                          "Demand Intensity"};
    for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
        if (!strstr(html, want[i]) || !strstr(md, want[i]))
            fail_msg("report lacks '%s'", want[i]);
    }
    /* the fixtures predate the state fields: the old run keeps its old sentence; all their
     * drives are simulated, so figures and compliance say so */
    assert_non_null(strstr(md, "steady state at round 7 (rounds 3–7)"));
    assert_non_null(strstr(md, "IOPS (simulated)"));
    check_compliance_words(md);
    check_compliance_words(html);
    /* the 6300's 4 KiB random write figure, formatted as in the summary */
    struct json_object *doc = load_json(f[0]);
    if (!doc) {
        char p[700];
        snprintf(p, sizeof(p), "%s/results.json", f[0]);
        doc = load_json(p);
    }
    assert_non_null(doc);
    assert_int_equal(results_upgrade(doc), 1);   /* the fixtures are version 1 */
    struct json_object *rows = json_at(doc, "tests.0.subtests.0.table.rows");
    double w4k = NAN;
    for (size_t i = 0; i < json_object_array_length(rows); i++) {
        struct json_object *row = json_object_array_get_idx(rows, i);
        if (json_num(row, "bs") == 4096 && json_num(row, "rwmix_read") == 0)
            w4k = json_num(row, "total.iops");
    }
    json_object_put(doc);
    char expect[96], num[32];
    long v = lround(w4k);
    snprintf(num, sizeof(num), "%ld,%03ld", v / 1000, v % 1000);
    snprintf(expect, sizeof(expect), "4 KiB random write %s IOPS", num);
    print_message("  looking for '%s'\n", expect);
    assert_non_null(strstr(html, expect));
    assert_non_null(strstr(md, expect));
    free(html);
    free(md);
}

/* ---- the drive's state, on results made here ---- */

/* The simulator results every state test reads, made once: name, then the arguments after
 * the binary (-o DIR/name is added). The brief's commands: virtual time, a few seconds. */
static const char *const sims[][12] = {
    {"burst", "run", "--target", "sim:zdrive-r4-cm88-1.6t", "--workload",
     "rw=randwrite,bs=4k,qd=32,workers=4", "--quiet", NULL},
    {"steady", "run", "--target", "sim:zdrive-6300-1.6t", "--workload", "rw=randwrite,bs=4k,qd=32",
     "--precondition", "steady", "--quiet", NULL},
    {"profile", "profile", "qd-ramp-4k-write", "--qd", "32", "--workers", "1,4", "--target",
     "sim:zdrive-6300-1.6t", "--quiet", NULL},
    {"suite", "run-test", "iops", "--target", "sim:zdrive-6300-1.6t", "--round-time", "5s",
     "--quiet", NULL},
    {"short", "run-test", "lat", "--target", "sim:zdrive-6300-1.6t", "--round-time", "1s",
     "--max-rounds", "2", "--quiet", NULL},
};
#define N_SIMS (sizeof(sims) / sizeof(sims[0]))
static int made;   /* 0 not yet, 1 done, -1 failed */

/* Run every simulation at once (fork/exec, output to DIR/NAME.log). */
static void make_sims(void)
{
    if (made) {
        assert_int_equal(made, 1);   /* a failed first attempt fails every later test */
        return;
    }
    made = -1;
    const char *const *cmds[N_SIMS];
    for (size_t k = 0; k < N_SIMS; k++)
        cmds[k] = sims[k];
    if (ptsbench_parallel(cmds, N_SIMS, dir) >= 0)
        fail_msg("a simulated run failed (its log is above)");
    made = 1;
}

/* Report the named results (made by make_sims) into DIR/report-NAME; return report.md and,
 * in *html, report.html. */
static char *report_of(const char *name, char **html)
{
    make_sims();
    char in[600], out[600], p[700];
    snprintf(in, sizeof(in), "%s/%s", dir, name);
    snprintf(out, sizeof(out), "%s/report-%s", dir, name);
    char *argv[] = {(char *)ptsbench_bin(), "report", in, "--out", out, NULL};
    struct cmd_result r;
    assert_int_equal(run_cmd(argv, &r), 0);
    if (r.status != 0)
        fail_msg("report %s exited %d: %s", name, r.status, r.errout);
    cmd_result_free(&r);
    snprintf(p, sizeof(p), "%s/report.html", out);
    *html = slurp_file(p, NULL);
    snprintf(p, sizeof(p), "%s/report.md", out);
    char *md = slurp_file(p, NULL);
    assert_non_null(*html);
    assert_non_null(md);
    return md;
}

static void want_both(const char *md, const char *html, const char *text)
{
    if (!strstr(md, text) || !strstr(html, text))
        fail_msg("report lacks '%s'", text);
}

/* Every chart script of the report names the simulated drive in its title. */
static void charts_say_simulated(const char *name)
{
    char p[700];
    static const char *const charts[] = {"run-rounds", "run-window", "run-samples",
                                         "profile-bars", "iops-convergence", "iops-bs-mix"};
    unsigned n = 0;
    for (size_t k = 0; k < sizeof(charts) / sizeof(charts[0]); k++) {
        snprintf(p, sizeof(p), "%s/report-%s/plots/%s.gp", dir, name, charts[k]);
        char *gp = slurp_file(p, NULL);
        if (!gp)
            continue;
        const char *t = strstr(gp, "\nset title ");
        assert_non_null(t);
        char line[800];
        sscanf(t + 1, "%799[^\n]", line);
        if (!strstr(line, "simulated"))
            fail_msg("%s: %s", p, line);
        n++;
        free(gp);
    }
    assert_true(n > 0);
}

static void test_burst_run_is_not_steady_state(void **state)
{
    (void)state;
    if (!have_gnuplot())
        skip();
    char *html, *md = report_of("burst", &html);
    want_both(md, html, "stable (fresh-out-of-box / burst) at rounds 1–5, not SNIA steady "
                        "state: no preconditioning");
    want_both(md, html, "none: the drive was not preconditioned");
    want_both(md, html, "IOPS (simulated)");
    want_both(md, html, "zdrive-r4-cm88-1.6t (simulated drive)");
    want_both(md, html, "(simulated, burst, not preconditioned)");   /* the title */
    assert_null(strstr(md, "steady state reached"));
    assert_null(strstr(html, "steady state reached"));
    assert_null(strstr(md, "steady state at round"));   /* the old sentence */
    charts_say_simulated("burst");
    free(md);
    free(html);
}

static void test_steady_run_says_steady_and_marks_wdpc(void **state)
{
    (void)state;
    if (!have_gnuplot())
        skip();
    char *html, *md = report_of("steady", &html);
    want_both(md, html, "steady state (SNIA PTS rule and fill guard, after WIPC + WDPC) at rounds");
    want_both(md, html, "Fill guard: the workload wrote");
    want_both(md, html, "WDPC (preconditioning, not judged): WIPC 2.0× + WDPC");
    want_both(md, html, "then WDPC: the workload itself for");
    assert_null(strstr(md, "not SNIA steady state"));
    charts_say_simulated("steady");
    free(md);
    free(html);
}

static void test_profile_points_say_their_state(void **state)
{
    (void)state;
    if (!have_gnuplot())
        skip();
    char *html, *md = report_of("profile", &html);
    want_both(md, html, "steady state (SNIA PTS rule and fill guard, after WIPC + WDPC), rounds");
    want_both(md, html, "drive preparation: WIPC (2× the active range, 128 KiB sequential "
                        "writes), then WDPC with the point at 1 worker × QD 32");
    want_both(md, html, "Drive state");
    want_both(md, html, "IOPS (simulated)");
    charts_say_simulated("profile");
    free(md);
    free(html);
}

static void test_suite_says_preparation_and_simulated(void **state)
{
    (void)state;
    if (!have_gnuplot())
        skip();
    char *html, *md = report_of("suite", &html);
    want_both(md, html, "drive preparation: purge (secure-erase), WIPC (2× the active range, "
                        "128 KiB sequential writes), then the test loop itself as the WDPC");
    want_both(md, html, "steady state reached at round");   /* the PTS's meaning, kept */
    want_both(md, html, "simulated drive: virtual time");
    want_both(md, html, "compliant with SNIA SSS PTS");
    check_compliance_words(md);
    check_compliance_words(html);
    charts_say_simulated("suite");
    free(md);
    free(html);
}

/* A PTS test stopped after 2 rounds (--max-rounds 2) says which rounds its tables hold: the
 * 2 it ran, not "the last 5" (found by the lab's e2e scenario, tests/vmlab/e2e.sh). */
static void test_short_test_names_the_rounds_it_reports(void **state)
{
    (void)state;
    if (!have_gnuplot())
        skip();
    char *html, *md = report_of("short", &html);
    want_both(md, html, "steady state NOT reached in 2 rounds (rounds 1–2 are reported)");
    assert_null(strstr(md, "the last 5 are reported"));
    assert_null(strstr(md, "steady state reached"));
    free(md);
    free(html);
}

/* ---- a PTS test that is only data ---- */

/* pts/wsat.ini under another name (no "wsat" in it), stopping at half the user capacity. */
static const char saturation_quick_ini[] =
    "; test-only: pts/wsat.ini to 0.5x the capacity (tests/integration/test_report.c)\n"
    "[test]\n"
    "title = Saturation (test copy: to half the capacity)\n"
    "report = wsat\n"
    "purge = yes\n"
    "precondition = none\n"
    "access = random\n"
    "mixes = 0\n"
    "block_sizes = 4k\n"
    "threads = spec\n"
    "qd = spec\n"
    "element_time = 60s\n"
    "stop = capacity\n"
    "stop_capacity = 0.5\n"
    "max_time = 24h\n"
    "max_rounds = 0\n";

/* pts/iops.ini with two mixes and two block sizes instead of 7 x 8. */
static const char iops_quick_ini[] =
    "; test-only: pts/iops.ini with 2 x 2 elements (tests/integration/test_report.c)\n"
    "[test]\n"
    "title = IOPS (test copy: two mixes, two block sizes)\n"
    "report = iops\n"
    "purge = yes\n"
    "precondition = wipc\n"
    "access = random\n"
    "mixes = 100, 0\n"
    "block_sizes = 64k, 4k\n"
    "threads = spec\n"
    "qd = spec\n"
    "element_time = 60s\n"
    "tracking = iops@4k/0\n"
    "stop = steady\n"
    "max_rounds = 8\n";

static void put_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
}

/* The Markdown section under "## heading", up to the next "## " heading (caller frees). */
static char *md_section(const char *md, const char *heading)
{
    char h[256];
    snprintf(h, sizeof(h), "\n## %s\n", heading);
    const char *from = strstr(md, h);
    if (!from)
        fail_msg("report lacks the section '## %s'", heading);
    const char *to = strstr(from + strlen(h), "\n## ");
    size_t n = to ? (size_t)(to - from) : strlen(from);
    char *sec = malloc(n + 1);
    assert_non_null(sec);
    memcpy(sec, from, n);
    sec[n] = '\0';
    return sec;
}

static void section_has(const char *md, const char *heading, const char *const *want, size_t n)
{
    char *sec = md_section(md, heading);
    for (size_t k = 0; k < n; k++)
        if (!strstr(sec, want[k]))
            fail_msg("section '%s' lacks '%s'", heading, want[k]);
    free(sec);
}

static void test_data_only_definitions_get_their_sections(void **state)
{
    (void)state;
    if (!have_gnuplot())
        skip();
    /* DIR/data/pts: the tree's specs.ini and the two definitions; the rest from the tree */
    char data[600], pts[700], path[800], spec[4200];
    snprintf(data, sizeof(data), "%s/data", dir);
    snprintf(pts, sizeof(pts), "%s/pts", data);
    assert_int_equal(mkdir(data, 0755), 0);
    assert_int_equal(mkdir(pts, 0755), 0);
    const char *root = getenv("PTSBENCH_DATADIR");
    snprintf(spec, sizeof(spec), "%s/pts/specs.ini", root && *root ? root : ".");
    char *specs = slurp_file(spec, NULL);
    assert_non_null(specs);
    snprintf(path, sizeof(path), "%s/specs.ini", pts);
    put_file(path, specs);
    free(specs);
    snprintf(path, sizeof(path), "%s/saturation-quick.ini", pts);
    put_file(path, saturation_quick_ini);
    snprintf(path, sizeof(path), "%s/iops-quick.ini", pts);
    put_file(path, iops_quick_ini);

    char out[600], rep[600];
    snprintf(out, sizeof(out), "%s/data-only", dir);
    snprintf(rep, sizeof(rep), "%s/report-data-only", dir);
    char *old = root ? strdup(root) : NULL;
    setenv("PTSBENCH_DATADIR", data, 1);
    char *argv[] = {"ptsbench", "suite", "--tests", "saturation-quick,iops-quick", "--target",
                    "sim:zdrive-6300-1.6t", "--round-time", "5s", "--quiet", "--out", out, NULL};
    struct json_object *doc = ptsbench_results(argv, out, 0, NULL);
    if (old) {
        setenv("PTSBENCH_DATADIR", old, 1);
        free(old);
    } else {
        unsetenv("PTSBENCH_DATADIR");
    }
    assert_non_null(doc);
    assert_string_equal(json_object_get_string(json_at(doc, "tests.0.report")), "wsat");
    assert_string_equal(json_object_get_string(json_at(doc, "tests.0.kind")), "standard");
    assert_string_equal(json_object_get_string(json_at(doc, "tests.1.report")), "iops");
    json_object_put(doc);

    /* beside the fixture's WSAT and IOPS (results without "report": from their names) */
    char fix[4200];
    snprintf(fix, sizeof(fix), "%s/tests/fixtures/results/suite-6300",
             getenv("PTSBENCH_DATADIR") ? getenv("PTSBENCH_DATADIR") : ".");
    char *rargv[] = {(char *)ptsbench_bin(), "report", fix, out, "--out", rep, NULL};
    struct cmd_result r;
    assert_int_equal(run_cmd(rargv, &r), 0);
    if (r.status != 0)
        fail_msg("report exited %d: %s", r.status, r.errout);
    cmd_result_free(&r);
    snprintf(path, sizeof(path), "%s/report.md", rep);
    char *md = slurp_file(path, NULL);
    assert_non_null(md);
    assert_true(check_refs(rep, md, "](", ')') > 0);
    static const char *const sat[] = {
        "IOPS in the first round to",   /* the WSAT table's sentence */
        "| Device | Rounds | Written | First round IOPS |",
        "](plots/saturation-quick-iops-time.png)", "](plots/saturation-quick-iops-time-linear.png)",
        "](plots/saturation-quick-iops-tgbw.png)", "](plots/saturation-quick-lat-time.png)",
    };
    section_has(md, "Saturation (test copy: to half the capacity)", sat,
                sizeof(sat) / sizeof(sat[0]));
    static const char *const iops[] = {
        "IOPS by block size (rows) and read/write mix (columns)",
        "](plots/iops-quick-convergence.png)", "](plots/iops-quick-window.png)",
        "](plots/iops-quick-bs-mix.png)", "](plots/iops-quick-3d.png)",
    };
    section_has(md, "IOPS (test copy: two mixes, two block sizes)", iops,
                sizeof(iops) / sizeof(iops[0]));
    /* the fixture's own tests of the same presentations keep theirs */
    static const char *const wsat[] = {"IOPS in the first round to", "](plots/wsat-iops-time.png)"};
    section_has(md, "Write Saturation (RND 4 KiB W)", wsat, 2);
    static const char *const iops_fix[] = {"](plots/iops-bs-mix.png)", "](plots/iops-3d.png)"};
    section_has(md, "IOPS", iops_fix, 2);
    free(md);
}

/* Bad input: one line, exit 2, nothing written. */
static void test_report_bad_input(void **state)
{
    (void)state;
    char out[600];
    snprintf(out, sizeof(out), "%s/bad", dir);
    const char *root = getenv("PTSBENCH_DATADIR") ? getenv("PTSBENCH_DATADIR") : ".";
    char junit[600];
    snprintf(junit, sizeof(junit), "%s/tests/fixtures/junit/junit.xsd", root);
    struct {
        const char *arg;
        const char *want;
    } cases[] = {
        {"/nonexistent/results", "no such file"},
        {junit, "not a readable JSON"},
    };
    for (size_t i = 0; i < 2; i++) {
        char *argv[] = {(char *)ptsbench_bin(), "report", (char *)cases[i].arg, "--out", out,
                        NULL};
        struct cmd_result r;
        assert_int_equal(run_cmd(argv, &r), 0);
        print_message("  %s", r.errout);
        assert_int_equal(r.status, 2);
        assert_non_null(strstr(r.errout, cases[i].want));
        assert_true(strchr(r.errout, '\n') == r.errout + strlen(r.errout) - 1);
        cmd_result_free(&r);
        struct stat st;
        assert_int_not_equal(stat(out, &st), 0);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_report_from_fixtures),
        cmocka_unit_test(test_report_bad_input),
        cmocka_unit_test(test_burst_run_is_not_steady_state),
        cmocka_unit_test(test_steady_run_says_steady_and_marks_wdpc),
        cmocka_unit_test(test_profile_points_say_their_state),
        cmocka_unit_test(test_suite_says_preparation_and_simulated),
        cmocka_unit_test(test_short_test_names_the_rounds_it_reports),
        cmocka_unit_test(test_data_only_definitions_get_their_sections),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
