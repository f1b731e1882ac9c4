/* test_report_single.c — `ptsbench report --single-file`: the HTML references nothing outside
 * itself. Python's html.parser reads every attribute that can load or link a resource (src,
 * href, srcset, poster, data, action) and every url(...) of the inline style: each must be a
 * data: URI or a fragment of the page itself; the inlined PNG decodes to the chart file's own
 * bytes. Without --single-file the same report links plots/ (the test can fail). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"

static char *dir;

static int setup(void **state)
{
    (void)state;
    dir = make_temp_dir("report-single");
    return dir ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    remove_tree(dir);
    free(dir);
    return 0;
}

static bool have(const char *prog)
{
    char *argv[] = {(char *)prog, "--version", NULL};
    struct cmd_result r;
    if (run_cmd(argv, &r) != 0)
        return false;
    bool ok = r.status == 0;
    cmd_result_free(&r);
    return ok;
}

/* Prints "refs N data D" and then each reference that is neither data: nor #fragment; checks
 * that the first inlined PNG is the bytes of the first PNG in plots/ ("png-match"). */
static const char *const py =
    "import base64, html.parser, os, re, sys\n"
    "page = open(sys.argv[1], encoding='utf-8').read()\n"
    "refs = []\n"
    "class P(html.parser.HTMLParser):\n"
    "    def handle_starttag(self, tag, attrs):\n"
    "        for k, v in attrs:\n"
    "            if k in ('src', 'href', 'srcset', 'poster', 'data', 'action') and v is not None:\n"
    "                refs.append(v)\n"
    "P().feed(page)\n"
    "refs += re.findall(r'url\\(\\s*[\\'\"]?([^\\'\")]+)', page)\n"
    "data = [r for r in refs if r.startswith('data:')]\n"
    "print('refs %d data %d' % (len(refs), len(data)))\n"
    "for r in refs:\n"
    "    if not r.startswith('data:') and not r.startswith('#'):\n"
    "        print('outside ' + r[:200])\n"
    "pngs = [r for r in data if r.startswith('data:image/png;base64,')]\n"
    "if pngs:\n"
    "    blob = base64.b64decode(pngs[0].split(',', 1)[1], validate=True)\n"
    "    d = os.path.join(os.path.dirname(sys.argv[1]), 'plots')\n"
    "    files = [open(os.path.join(d, f), 'rb').read() for f in sorted(os.listdir(d)) if f.endswith('.png')]\n"
    "    print('png-match' if blob in files else 'png-mismatch')\n";

static char *check_html(const char *html)
{
    char *argv[] = {"python3", "-c", (char *)py, (char *)html, NULL};
    struct cmd_result r;
    assert_int_equal(run_cmd(argv, &r), 0);
    if (r.status != 0)
        print_message("python3: %s", r.errout);
    assert_int_equal(r.status, 0);
    char *out = r.out;
    r.out = NULL;
    cmd_result_free(&r);
    return out;
}

static void report(const char *name, bool single)
{
    char fix[600], out[700];
    snprintf(fix, sizeof(fix), "%s/tests/fixtures/results/suite-r4",
             getenv("PTSBENCH_DATADIR") ? getenv("PTSBENCH_DATADIR") : ".");
    snprintf(out, sizeof(out), "%s/%s", dir, name);
    char *argv[] = {(char *)ptsbench_bin(), "report", fix, "--out", out,
                    single ? "--single-file" : NULL, NULL};
    struct cmd_result r;
    assert_int_equal(run_cmd(argv, &r), 0);
    if (r.status != 0)
        print_message("report: %s", r.errout);
    assert_int_equal(r.status, 0);
    cmd_result_free(&r);
}

static void test_single_file(void **state)
{
    (void)state;
    if (!have("gnuplot") || !have("python3")) {
        print_message("SKIP: gnuplot or python3 is not installed\n");
        skip();
    }
    report("single", true);
    char html[800];
    snprintf(html, sizeof(html), "%s/single/report.html", dir);
    char *out = check_html(html);
    print_message("%s", out);
    unsigned refs = 0, data = 0;
    assert_int_equal(sscanf(out, "refs %u data %u", &refs, &data), 2);
    assert_true(data >= 2);   /* at least one chart: its PNG and its SVG */
    assert_null(strstr(out, "outside "));
    assert_non_null(strstr(out, "png-match"));
    free(out);

    /* the ordinary report links its charts in plots/: what the check above would catch */
    report("linked", false);
    snprintf(html, sizeof(html), "%s/linked/report.html", dir);
    out = check_html(html);
    assert_non_null(strstr(out, "outside plots/"));
    free(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_single_file),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
