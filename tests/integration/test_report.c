/* test_report.c — `ptsbench report`: from the fixture results (two PTS suites, the PTS 2.0
 * HIR/XSR/DIRTH suite, profiles, QD ramps, a run) an HTML report and its Markdown twin whose
 * every reference (images, SVG links) is a file that exists, with nothing external (no scripts,
 * no web fonts, no http), the SNIA header (platform, device, set-up, purge, spec, compliance
 * notes), and each test's summary in words, with the figures of the results. */
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

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = calloc(1, (size_t)n + 1);
    if (fread(b, 1, (size_t)n, f) != (size_t)n) {
        free(b);
        b = NULL;
    }
    fclose(f);
    return b;
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
    char *html = slurp(hp), *md = slurp(mp);
    assert_non_null(html);
    assert_non_null(md);

    /* self-contained and offline */
    assert_null(strstr(html, "<script"));
    assert_null(strstr(html, "http://"));
    assert_null(strstr(html, "https://"));
    assert_null(strstr(html, "@import"));
    assert_null(strstr(html, "<link"));
    assert_non_null(strstr(html, "table.wide{table-layout:fixed"));   /* reports/report.css, inlined */
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
                          "Purge", "secure-erase (SNIA-compliant)", "SNIA SSS PTS Enterprise 1.1",
                          "round elements of 5 s instead of the PTS", "Z-Drive 6300",
                          "Z-Drive R4", "steady state reached at round", "Workload profiles",
                          "IOPS reach 95% of their maximum", "90% compressible data",
                          "Write Saturation", "Host Idle Recovery", "Cross Stimulus Recovery",
                          "Demand Intensity"};
    for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
        if (!strstr(html, want[i]) || !strstr(md, want[i]))
            fail_msg("report lacks '%s'", want[i]);
    }
    /* the 6300's 4 KiB random write figure, formatted as in the summary */
    struct json_object *doc = load_json(f[0]);
    if (!doc) {
        char p[700];
        snprintf(p, sizeof(p), "%s/results.json", f[0]);
        doc = load_json(p);
    }
    assert_non_null(doc);
    struct json_object *rows = json_at(doc, "tests.0.subtests.0.table.rows");
    double w4k = NAN;
    for (size_t i = 0; i < json_object_array_length(rows); i++) {
        struct json_object *row = json_object_array_get_idx(rows, i);
        if (json_num(row, "bs") == 4096 && json_num(row, "rwmix_read") == 0)
            w4k = json_num(row, "iops");
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
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
