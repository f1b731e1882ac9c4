/* test_report_pdf.c — `ptsbench report --pdf`: with a headless Chromium in PATH, report.pdf is a
 * PDF ("%PDF-") of several pages (its "/Type /Page" objects counted, not "/Pages"), whose text
 * (pdftotext, when installed) holds on every page the print header naming the devices and the
 * page's section (the tests on the pages before the first), the date and the ptsbench version,
 * and "page N of M"; without one (PATH an empty directory), one line says
 * what is needed, the exit status is 1, the HTML is written and no PDF. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "helpers.h"

static char *dir;

static int setup(void **state)
{
    (void)state;
    dir = make_temp_dir("report-pdf");
    return dir ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    remove_tree(dir);
    free(dir);
    return 0;
}

/* An executable NAME in PATH (as ptsbench looks for its renderer). */
static bool in_path(const char *name)
{
    const char *env = getenv("PATH");
    char buf[4096];
    while (env && *env) {
        const char *colon = strchr(env, ':');
        size_t n = colon ? (size_t)(colon - env) : strlen(env);
        snprintf(buf, sizeof(buf), "%.*s/%s", (int)n, env, name);
        if (n && access(buf, X_OK) == 0)
            return true;
        env += n + (colon ? 1 : 0);
    }
    return false;
}

static bool have_renderer(void)
{
    return in_path("chromium") || in_path("chromium-browser") || in_path("google-chrome") ||
           in_path("google-chrome-stable");
}

static char *fixture(const char *name)
{
    const char *root = getenv("PTSBENCH_DATADIR");
    char buf[4096];
    snprintf(buf, sizeof(buf), "%s/tests/fixtures/results/%s", root ? root : ".", name);
    return strdup(buf);
}

static size_t count(const char *hay, size_t len, const char *needle, char not_next)
{
    size_t n = 0, nl = strlen(needle);
    for (size_t i = 0; i + nl <= len; i++)
        if (!memcmp(hay + i, needle, nl) && (i + nl == len || hay[i + nl] != not_next))
            n++;
    return n;
}

static void test_pdf_written(void **state)
{
    (void)state;
    if (!have_renderer()) {
        print_message("SKIP: no chromium, chromium-browser or google-chrome in PATH "
                      "(scripts/install-deps.sh --pdf installs chromium)\n");
        skip();
    }
    char out[4200];
    snprintf(out, sizeof(out), "%s/a", dir);
    char *s1 = fixture("suite-6300"), *s2 = fixture("profile-r4");
    char *argv[] = {(char *)ptsbench_bin(), "report", s1, s2, "--single-file", "--pdf", "-o",
                    out, NULL};
    struct cmd_result r;
    uint64_t t0 = test_now_ns();
    assert_int_equal(run_cmd(argv, &r), 0);
    if (r.status != 0)
        print_message("stderr: %s\n", r.errout);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "/report.pdf"));
    cmd_result_free(&r);
    print_message("report --pdf took %.1f s\n", (double)(test_now_ns() - t0) / 1e9);

    char path[4300];
    snprintf(path, sizeof(path), "%s/report.pdf", out);
    size_t len = 0;
    char *pdf = slurp_file(path, &len);
    assert_non_null(pdf);
    assert_true(len > 5);
    assert_memory_equal(pdf, "%PDF-", 5);
    /* "/Type /Page" objects, not the "/Type /Pages" tree: a page per section at least */
    size_t pages = count(pdf, len, "/Type /Page", 's') + count(pdf, len, "/Type/Page", 's');
    print_message("%zu pages\n", pages);
    assert_true(pages >= 4);
    free(pdf);
    snprintf(path, sizeof(path), "%s/report.pdf.tmp", out);
    assert_int_not_equal(access(path, F_OK), 0);   /* renamed into place */

    /* the page header in the HTML: the pages before the first section with every test, each
     * section on pages of its own name whose header names it */
    snprintf(path, sizeof(path), "%s/report.html", out);
    char *html = slurp_file(path, NULL);
    assert_non_null(html);
    const char *devs = "zdrive-6300-1.6t (simulated drive) vs zdrive-r4-cm88-1.6t (simulated "
                       "drive) \xc2\xb7 ";
    char want[512];
    snprintf(want, sizeof(want), "@page{@top-left{content:\"%siops, tp, lat, wsat, database, "
             "webserver\"}@top-right{content:\"", devs);
    assert_non_null(strstr(html, want));
    snprintf(want, sizeof(want), "@page s1{@top-left{content:\"%sSummary\"}", devs);
    assert_non_null(strstr(html, want));
    assert_non_null(strstr(html, "<section style=\"page:s1\">"));
    assert_non_null(strstr(html, "@media print"));
    free(html);

    if (!in_path("pdftotext")) {
        print_message("SKIP (part): pdftotext (poppler-utils) is not installed: the PDF's text "
                      "(compressed) is not checked for the page header\n");
    } else {
        snprintf(path, sizeof(path), "%s/report.pdf", out);
        char *pt[] = {"pdftotext", path, "-", NULL};
        assert_int_equal(run_cmd(pt, &r), 0);
        assert_int_equal(r.status, 0);
        /* every page: the devices and what the page is about, the date and version, its number */
        size_t n_pages = 0, heads = 0, numbered = 0;
        bool iops = false;
        for (char *pg = r.out, *next; pg && *pg; pg = next) {
            next = strchr(pg, '\f');
            if (next)
                *next++ = '\0';
            if (!pg[strspn(pg, " \n")])
                continue;   /* after the last page */
            n_pages++;
            heads += strstr(pg, devs) && strstr(pg, "\xc2\xb7 ptsbench ");
            char num[48];
            snprintf(num, sizeof(num), "page %zu of ", n_pages);
            numbered += strstr(pg, num) != NULL;
            char sec[600];
            snprintf(sec, sizeof(sec), "%sIOPS\n", devs);
            iops = iops || strstr(pg, sec);
        }
        print_message("%zu pages of text, page header on %zu, numbered %zu\n", n_pages, heads,
                      numbered);
        assert_int_equal(n_pages, pages);
        assert_int_equal(heads, n_pages);
        assert_int_equal(numbered, n_pages);
        assert_true(iops);   /* the IOPS section's pages say so */
        cmd_result_free(&r);
    }
    free(s1);
    free(s2);
}

static void test_no_renderer(void **state)
{
    (void)state;
    char empty[4200], out[4200];
    snprintf(empty, sizeof(empty), "%s/empty-path", dir);
    snprintf(out, sizeof(out), "%s/b", dir);
    assert_int_equal(mkdir(empty, 0755), 0);
    char *s1 = fixture("suite-6300");
    /* an older report's PDF in DIR is removed: it must not pass for this one */
    char stale[4300];
    assert_int_equal(mkdir(out, 0755), 0);
    snprintf(stale, sizeof(stale), "%s/report.pdf", out);
    FILE *f = fopen(stale, "w");
    assert_non_null(f);
    fputs("%PDF-1.4 stale\n", f);
    fclose(f);
    /* --no-plots: gnuplot is not in the empty PATH either */
    char *argv[] = {(char *)ptsbench_bin(), "report", s1, "--no-plots", "--pdf", "-o", out, NULL};
    char *saved = getenv("PATH") ? strdup(getenv("PATH")) : NULL;
    setenv("PATH", empty, 1);   /* the binary is named by a path: execvp does not search */
    struct cmd_result r;
    int rc = run_cmd(argv, &r);
    if (saved)
        setenv("PATH", saved, 1);
    else
        unsetenv("PATH");
    free(saved);
    assert_int_equal(rc, 0);
    print_message("stderr: %s", r.errout);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.errout, "ptsbench report --pdf: needs chromium (Debian package "
                                     "chromium) or google-chrome in PATH; the HTML report is "
                                     "written, no PDF\n"));
    assert_null(strchr(strchr(r.errout, '\n') + 1, '\n'));   /* one line */
    cmd_result_free(&r);
    char path[4300];
    struct stat st;
    snprintf(path, sizeof(path), "%s/report.html", out);
    assert_int_equal(stat(path, &st), 0);
    assert_true(st.st_size > 1000);
    snprintf(path, sizeof(path), "%s/report.md", out);
    assert_int_equal(stat(path, &st), 0);
    snprintf(path, sizeof(path), "%s/report.pdf", out);
    assert_int_not_equal(stat(path, &st), 0);
    free(s1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pdf_written),
        cmocka_unit_test(test_no_renderer),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
