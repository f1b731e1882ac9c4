/* test_report_once.c — `ptsbench report --spec` opens each results file exactly once.
 *
 * The report, its claims (the spec sheet judged on the measured points), its summary and its
 * charts all read the same loaded document (read/doc.h), so the file is opened once: run under
 * `strace -f -e trace=openat`, each input's results.json appears in exactly one successful
 * openat. (Before the report session it was opened 4 times: the fleet check, the report's
 * loader and two measurements.) Without strace in PATH the test says so and is skipped. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "helpers.h"

static bool find_in_path(const char *name, char *out, size_t len)
{
    const char *path = getenv("PATH");
    char buf[4096];
    snprintf(buf, sizeof(buf), "%s", path ? path : "/usr/bin:/bin");
    for (char *save = NULL, *d = strtok_r(buf, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
        snprintf(out, len, "%s/%s", d, name);
        if (access(out, X_OK) == 0)
            return true;
    }
    return false;
}

/* Successful openat calls of a path ending in suffix in the strace output. */
static unsigned opens_of(const char *trace, const char *suffix)
{
    char key[512];
    snprintf(key, sizeof(key), "%s\",", suffix);
    unsigned n = 0;
    for (const char *line = trace; line && *line;) {
        const char *end = strchr(line, '\n');
        size_t l = end ? (size_t)(end - line) : strlen(line);
        char one[8192];
        snprintf(one, sizeof(one), "%.*s", (int)(l < sizeof(one) - 1 ? l : sizeof(one) - 1),
                 line);
        if (strstr(one, "openat(") && strstr(one, key) && !strstr(one, "= -1"))
            n++;
        line = end ? end + 1 : NULL;
    }
    return n;
}

static void test_report_spec_opens_each_results_file_once(void **state)
{
    (void)state;
    char strace[4096];
    if (!find_in_path("strace", strace, sizeof(strace))) {
        print_message("SKIP: no strace in PATH: cannot count the opens of results.json\n");
        skip();
        return;
    }
    /* LeakSanitizer cannot run under ptrace: in a sanitized build the traced report runs with
     * the rest of ASan and UBSan but without the leak check (the other tests do that one). */
    char saved[512], opts[1024];
    const char *env = getenv("ASAN_OPTIONS");
    snprintf(saved, sizeof(saved), "%s", env ? env : "");
    const char *asan = env ? saved : NULL;
    snprintf(opts, sizeof(opts), "%s%sdetect_leaks=0", saved, *saved ? ":" : "");
    setenv("ASAN_OPTIONS", opts, 1);
    static const char *const inputs[] = {"suite-6300", "suite2-6300", "run-steady-6300"};
    char *dir = make_temp_dir("report-once");
    assert_non_null(dir);
    char trace[4200], out[4200], in[3][4096];
    snprintf(trace, sizeof(trace), "%s/trace", dir);
    snprintf(out, sizeof(out), "%s/report", dir);
    for (size_t i = 0; i < 3; i++) {
        char rel[256];
        snprintf(rel, sizeof(rel), "results/%s", inputs[i]);
        snprintf(in[i], sizeof(in[i]), "%s", test_fixture_path(rel));
    }
    char *argv[] = {strace, "-f", "-e", "trace=openat", "-o", trace, (char *)ptsbench_bin(),
                    "report", "--spec", "zdrive-6300-1.6t", in[0], in[1], in[2], "--out", out,
                    NULL};
    struct cmd_result r;
    assert_int_equal(run_cmd(argv, &r), 0);
    const int status = r.status;
    char why[1024];
    snprintf(why, sizeof(why), "%s", r.errout ? r.errout : "");
    cmd_result_free(&r);
    if (asan)
        setenv("ASAN_OPTIONS", asan, 1);
    else
        unsetenv("ASAN_OPTIONS");
    if (status != 0) {
        remove_tree(dir);
        free(dir);
        fail_msg("ptsbench report under strace exited %d: %s", status, why);
    }
    char *text = slurp_file(trace, NULL);
    assert_non_null(text);
    for (size_t i = 0; i < 3; i++) {
        char suffix[256];
        snprintf(suffix, sizeof(suffix), "%s/results.json", inputs[i]);
        const unsigned n = opens_of(text, suffix);
        print_message("  %s: opened %u time(s)\n", suffix, n);
        assert_int_equal(n, 1);
    }
    free(text);
    remove_tree(dir);
    free(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_report_spec_opens_each_results_file_once),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
