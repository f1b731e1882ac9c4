/* test_report_pages.c — what a reader of `ptsbench report` sees on its pages (issue 46):
 *
 *   - figures never split: no `overflow-wrap:anywhere`, `td.n` does not wrap, every cell that
 *     holds a figure ("1,296", "577.5 µs", "4 × 32", "—") has class n, every table sits in a
 *     wrapper that scrolls sideways (class tw);
 *   - the summary is one column per drive (a simulated preset with the drive's own options, a
 *     model and serial, a path; not per label), filled from runs and profiles: a
 *     4 KiB random-write run from fresh-out-of-box to saturation gives the burst row its first
 *     window and the write-saturation row its last window, labelled with their states; a run to
 *     steady state gives the 4 KiB random write row its window; a QD 1 profile point gives the
 *     random read row and the QD 1 latency rows; each cell equals the results' own figure;
 *     rows nothing measures are left out and named in one line;
 *   - a run of many rounds shows an excerpt of its rounds in the body and every round in a
 *     collapsed <details>;
 *   - `report FOLDER` where FOLDER holds result folders (demo-results/TIMESTAMP) reports each
 *     of them, in name order; `report R R` is refused with one line naming R, exit 2, nothing
 *     written.
 * The simulated runs use an active range of 1 GiB and 10 s rounds (virtual time): a few
 * seconds in all. */
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
#include <unistd.h>

#include "helpers.h"

static char *dir;

static int setup(void **state)
{
    (void)state;
    dir = make_temp_dir("report-pages");
    return dir ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    remove_tree(dir);
    free(dir);
    return 0;
}

static const char *fixture(const char *name, char *buf, size_t len)
{
    const char *root = getenv("PTSBENCH_DATADIR") ? getenv("PTSBENCH_DATADIR") : ".";
    snprintf(buf, len, "%s/tests/fixtures/results/%s", root, name);
    return buf;
}

/* ptsbench ARGS... (NULL-terminated); the exit status, stdout and stderr in *r. */
static int report_cmd(struct cmd_result *r, char **args)
{
    char *argv[32] = {(char *)ptsbench_bin()};
    size_t n = 1;
    for (; args[n - 1] && n < 31; n++)
        argv[n] = args[n - 1];
    argv[n] = NULL;
    assert_int_equal(run_cmd(argv, r), 0);
    return r->status;
}

static char *read_out(const char *out, const char *name)
{
    char p[1200];
    snprintf(p, sizeof(p), "%s/%s", out, name);
    char *s = slurp_file(p, NULL);
    if (!s)
        fail_msg("%s was not written", p);
    return s;
}

/* "1,234,567" */
static void commas(double v, char *buf, size_t len)
{
    long x = lround(v);
    if (x >= 1000000)
        snprintf(buf, len, "%ld,%03ld,%03ld", x / 1000000, x / 1000 % 1000, x % 1000);
    else if (x >= 1000)
        snprintf(buf, len, "%ld,%03ld", x / 1000, x % 1000);
    else
        snprintf(buf, len, "%ld", x);
}

/* A figure as a person reads it: a number (digits, commas, a point), then at most a unit. */
static bool looks_like_figure(const char *s, size_t n)
{
    if (n == 0 || s[0] < '0' || s[0] > '9')
        return false;
    size_t k = 0;
    while (k < n && (strchr("0123456789,.", s[k])))
        k++;
    if (k == n)
        return true;
    static const char *const units[] = {" µs", " ms", " s", "%", " IOPS", " MB/s"};
    for (size_t u = 0; u < sizeof(units) / sizeof(units[0]); u++)
        if (n - k == strlen(units[u]) && !memcmp(s + k, units[u], n - k))
            return true;
    return false;
}

/* ---- figures never split ---- */

static void test_figure_cells_never_wrap(void **state)
{
    (void)state;
    char f1[600], f2[600], out[700];
    snprintf(out, sizeof(out), "%s/cells", dir);
    char *args[] = {"report", (char *)fixture("suite-6300", f1, sizeof(f1)),
                    (char *)fixture("run-generic", f2, sizeof(f2)), "--no-plots", "--out", out,
                    NULL};
    struct cmd_result r;
    if (report_cmd(&r, args) != 0)
        fail_msg("report exited %d: %s", r.status, r.errout);
    cmd_result_free(&r);
    char *html = read_out(out, "report.html");
    assert_null(strstr(html, "overflow-wrap:anywhere"));
    const char *tdn = strstr(html, "td.n{");
    assert_non_null(tdn);
    const char *end = strchr(tdn, '}');
    assert_non_null(end);
    char rule[200];
    snprintf(rule, sizeof(rule), "%.*s", (int)(end - tdn), tdn);
    assert_non_null(strstr(rule, "white-space:nowrap"));
    unsigned figures = 0, tables = 0;
    for (const char *p = strstr(html, "<td"); p; p = strstr(p + 1, "<td")) {
        const char *gt = strchr(p, '>'), *close = strstr(p, "</td>");
        assert_non_null(gt);
        assert_non_null(close);
        if (!looks_like_figure(gt + 1, (size_t)(close - gt - 1)))
            continue;
        figures++;
        if (strncmp(p, "<td class=\"n\">", 14) != 0)
            fail_msg("a figure cell that may wrap: %.*s", (int)(close - p + 5), p);
    }
    for (const char *p = strstr(html, "<table"); p; p = strstr(p + 1, "<table")) {
        tables++;
        if (p - html < 16 || strncmp(p - 16, "<div class=\"tw\">", 16) != 0)
            fail_msg("a table outside its scrolling wrapper: %.60s", p);
    }
    print_message("  %u figure cells, %u tables\n", figures, tables);
    assert_true(figures > 100);
    assert_true(tables > 5);
    free(html);
}

/* ---- the summary, from runs and profiles ---- */

static const char *const sims[][16] = {
    {"wsat", "run", "--target", "sim:zdrive-r4-cm88-1.6t", "--workload",
     "rw=randwrite,bs=4k,qd=32,workers=4,size=1g", "--rounds", "40", "--round-time", "10s",
     "--all-rounds", "--quiet", NULL},
    {"steady", "run", "--target", "sim:zdrive-6300-1.6t", "--workload",
     "rw=randwrite,bs=4k,qd=32,size=1g", "--precondition", "steady", "--round-time", "10s",
     "--quiet", NULL},
    {"qd1", "profile", "qd-ramp-4k-read", "--qd", "1", "--workers", "1", "--target",
     "sim:zdrive-r4-cm88-1.6t", "--quiet", NULL},
    /* the same drive measured without the host's costs (host_*: the host, not the drive), and
     * another drive of the same preset (seed=7) */
    {"host", "run", "--target", "sim:zdrive-r4-cm88-1.6t,host_worker_us=0", "--workload",
     "rw=randwrite,bs=4k,qd=32,size=1g", "--rounds", "3", "--round-time", "10s", "--quiet",
     NULL},
    {"seed", "run", "--target", "sim:zdrive-r4-cm88-1.6t,seed=7", "--workload",
     "rw=randwrite,bs=4k,qd=32,size=1g", "--rounds", "3", "--round-time", "10s", "--quiet",
     NULL},
};
#define N_SIMS (sizeof(sims) / sizeof(sims[0]))
static int made;   /* 0 not yet, 1 done, -1 failed */

static void make_sims(void)
{
    if (made) {
        assert_int_equal(made, 1);
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

static struct json_object *results_of(const char *name)
{
    char p[700];
    snprintf(p, sizeof(p), "%s/%s/results.json", dir, name);
    struct json_object *d = load_json(p);
    assert_non_null(d);
    return d;
}

/* The mean of a run's rounds' total IOPS over the window at path. */
static double window_mean(struct json_object *doc, const char *path)
{
    char w[200];
    snprintf(w, sizeof(w), "%s.first_round", path);
    const double first = json_num(doc, w);
    snprintf(w, sizeof(w), "%s.last_round", path);
    const double last = json_num(doc, w);
    struct json_object *rounds = json_at(doc, "rounds");
    double sum = 0;
    unsigned n = 0;
    for (size_t k = 0; k < json_object_array_length(rounds); k++) {
        struct json_object *r = json_object_array_get_idx(rounds, k);
        double rn = json_num(r, "round");
        if (rn >= first && rn <= last)
            sum += json_num(r, "total.iops"), n++;
    }
    assert_true(n > 0);
    return sum / n;
}

/* The summary's Markdown row whose first cell is label ("" when there is none). */
static void summary_row(const char *md, const char *label, char *row, size_t len)
{
    const char *sum = strstr(md, "\n## Summary");
    assert_non_null(sum);
    const char *next = strstr(sum + 5, "\n## ");
    char key[200];
    snprintf(key, sizeof(key), "\n| %s |", label);
    const char *p = strstr(sum, key);
    row[0] = '\0';
    if (p && (!next || p < next))
        sscanf(p + 1, "%1023[^\n]", row);
    (void)len;
}

/* Whether the row's cell k (1: the first drive) begins with text. */
static void want_cell(const char *row, unsigned k, const char *text)
{
    const char *p = row;
    for (unsigned i = 0; i <= k && p; i++)
        p = strstr(i ? p + 1 : p, "| ");
    if (!p || strncmp(p + 2, text, strlen(text)) != 0)
        fail_msg("summary cell %u of '%s' does not begin with '%s'", k, row, text);
}

static void test_summary_from_runs_and_profiles(void **state)
{
    (void)state;
    make_sims();
    char in1[700], in2[700], in3[700], out[700];
    snprintf(in1, sizeof(in1), "%s/wsat", dir);
    snprintf(in2, sizeof(in2), "%s/steady", dir);
    snprintf(in3, sizeof(in3), "%s/qd1", dir);
    snprintf(out, sizeof(out), "%s/summary", dir);
    char *args[] = {"report", in1, in2, in3, "-l", "R4 (WSAT)", "-l", "6300 (steady)", "-l",
                    "R4 (QD 1)", "--no-plots", "--out", out, NULL};
    struct cmd_result r;
    uint64_t t0 = test_now_ns();
    if (report_cmd(&r, args) != 0)
        fail_msg("report exited %d: %s", r.status, r.errout);
    cmd_result_free(&r);
    print_message("  report took %.1f s\n", (double)(test_now_ns() - t0) / 1e9);
    char *md = read_out(out, "report.md");

    /* one column per drive: the R4's run and profile together, the 6300 beside them */
    char row[1024];
    summary_row(md, "Figure", row, sizeof(row));
    print_message("  %s\n", row);
    assert_string_equal(row, "| Figure | R4 (simulated drive) | 6300 (steady) (simulated drive) |");

    struct json_object *wsat = results_of("wsat"), *steady = results_of("steady"),
                       *qd1 = results_of("qd1");
    char want[200], num[48];
    /* the R4 run: its first window the burst, its last the write-saturation plateau */
    assert_string_equal(json_object_get_string(json_at(wsat, "last_window.measured_state")),
                        "saturated");
    commas(window_mean(wsat, "steady_state.window"), num, sizeof(num));
    snprintf(want, sizeof(want), "%s (burst, not preconditioned; 4 × QD 32)", num);
    summary_row(md, "4 KiB random write IOPS, burst", row, sizeof(row));
    want_cell(row, 1, want);
    commas(window_mean(wsat, "last_window.window"), num, sizeof(num));
    snprintf(want, sizeof(want), "%s (write saturation, not steady state; 4 × QD 32)", num);
    summary_row(md, "Write saturation plateau (WSAT)", row, sizeof(row));
    want_cell(row, 1, want);
    /* never a burst in the 4 KiB random write row when a plateau is there */
    summary_row(md, "4 KiB random write IOPS", row, sizeof(row));
    want_cell(row, 1, want);
    /* the 6300 run to steady state: its window, in both rows */
    assert_true(json_object_get_boolean(json_at(steady, "steady_state.reached")));
    commas(window_mean(steady, "steady_state.window"), num, sizeof(num));
    snprintf(want, sizeof(want), "%s (steady state; 1 × QD 32)", num);
    want_cell(row, 2, want);
    summary_row(md, "Write saturation plateau (WSAT)", row, sizeof(row));
    want_cell(row, 2, want);
    /* the profile's QD 1 point: 4 KiB random read IOPS and QD 1 latency */
    commas(json_num(qd1, "points.0.result.total.iops"), num, sizeof(num));
    summary_row(md, "4 KiB random read IOPS", row, sizeof(row));
    want_cell(row, 1, num);
    want_cell(row, 2, "—");
    const double lat = json_num(qd1, "points.0.result.total.lat_us.mean");
    assert_true(lat < 1000);
    snprintf(want, sizeof(want), "%.1f µs (", lat);
    summary_row(md, "4 KiB random read mean latency, QD 1", row, sizeof(row));
    want_cell(row, 1, want);
    /* what nothing measured is left out, and said */
    summary_row(md, "Host idle recovery gain (HIR)", row, sizeof(row));
    assert_string_equal(row, "");
    summary_row(md, "128 KiB sequential read MB/s", row, sizeof(row));
    assert_string_equal(row, "");
    assert_non_null(strstr(md, "Left out, as none of these results measures them: 128 KiB "
                               "sequential read MB/s; 128 KiB sequential write MB/s; "));
    assert_non_null(strstr(md, "Host idle recovery gain (HIR) (needs the PTS HIR test)."));
    json_object_put(wsat);
    json_object_put(steady);
    json_object_put(qd1);

    /* 40 rounds: an excerpt in the body, every round collapsed */
    char *html = read_out(out, "report.html");
    const char *ex = strstr(md, "R4 (WSAT) (simulated drive) — ");
    assert_non_null(ex);
    assert_non_null(strstr(ex, " of its 40 rounds (simulated drive: virtual time): every 2nd "
                               "round, the first and the last, and the rounds of its windows"));
    const char *det = strstr(html, "<details><summary>Every round of R4 (WSAT) (simulated drive) "
                                   "(40)</summary>");
    assert_non_null(det);
    const char *det_end = strstr(det, "</details>");
    assert_non_null(det_end);
    unsigned rows = 0;
    for (const char *p = strstr(det, "<tr>"); p && p < det_end; p = strstr(p + 1, "<tr>"))
        rows++;
    assert_int_equal(rows, 41);   /* the head and every round */
    free(html);
    free(md);
}

/* Columns are drives: a simulated preset with the drive's own options (host_* options are the
 * host's), not the labels; two drives of one name say which is which. */
static void test_summary_columns_by_drive(void **state)
{
    (void)state;
    make_sims();
    char in1[700], in2[700], in3[700], out[700];
    snprintf(in1, sizeof(in1), "%s/wsat", dir);
    snprintf(in2, sizeof(in2), "%s/host", dir);
    snprintf(in3, sizeof(in3), "%s/seed", dir);
    snprintf(out, sizeof(out), "%s/columns", dir);
    char *args[] = {"report", in1, in2, in3, "--no-plots", "--out", out, NULL};
    struct cmd_result r;
    if (report_cmd(&r, args) != 0)
        fail_msg("report exited %d: %s", r.status, r.errout);
    cmd_result_free(&r);
    char *md = read_out(out, "report.md"), row[1024];
    summary_row(md, "Figure", row, sizeof(row));
    print_message("  %s\n", row);
    assert_string_equal(row, "| Figure | zdrive-r4-cm88-1.6t (simulated drive) | "
                             "zdrive-r4-cm88-1.6t (simulated drive) "
                             "[sim:zdrive-r4-cm88-1.6t,seed=7] |");
    assert_non_null(strstr(md, "zdrive-r4-cm88-1.6t (simulated drive): wsat, host."));
    free(md);
}

/* ---- traps ---- */

static void copy_file(const char *from, const char *to)
{
    size_t len = 0;
    char *s = slurp_file(from, &len);
    assert_non_null(s);
    FILE *f = fopen(to, "w");
    assert_non_null(f);
    assert_int_equal(fwrite(s, 1, len, f), len);
    fclose(f);
    free(s);
}

static void test_folder_of_result_folders(void **state)
{
    (void)state;
    char top[700], sub[800], from[700], to[900], out[700];
    snprintf(top, sizeof(top), "%s/demo-like", dir);
    assert_int_equal(mkdir(top, 0755), 0);
    const char *names[] = {"b-run", "a-suite"}, *fix[] = {"run-generic", "suite-6300"};
    for (int k = 0; k < 2; k++) {
        snprintf(sub, sizeof(sub), "%s/%s", top, names[k]);
        assert_int_equal(mkdir(sub, 0755), 0);
        char fx[600];
        snprintf(from, sizeof(from), "%s/results.json", fixture(fix[k], fx, sizeof(fx)));
        snprintf(to, sizeof(to), "%s/results.json", sub);
        copy_file(from, to);
    }
    snprintf(sub, sizeof(sub), "%s/report", top);   /* a folder without results: not an input */
    assert_int_equal(mkdir(sub, 0755), 0);
    snprintf(out, sizeof(out), "%s/folder-report", dir);
    char *args[] = {"report", top, "--no-plots", "--out", out, NULL};
    struct cmd_result r;
    if (report_cmd(&r, args) != 0)
        fail_msg("report of a folder of result folders exited %d: %s", r.status, r.errout);
    assert_non_null(strstr(r.out, "the results of its 2 folders, in name order: a-suite, b-run"));
    cmd_result_free(&r);
    char *md = read_out(out, "report.md");
    const char *a = strstr(md, "- zdrive-6300-1.6t (a-suite): results.json in a-suite");
    const char *b = strstr(md, "(b-run): results.json in b-run");
    assert_non_null(a);
    assert_non_null(b);
    assert_true(a < b);
    free(md);
}

static void test_same_results_twice(void **state)
{
    (void)state;
    char f1[600], out[700], twice[700];
    fixture("run-generic", f1, sizeof(f1));
    snprintf(twice, sizeof(twice), "%s/", f1);   /* the same directory, written otherwise */
    snprintf(out, sizeof(out), "%s/twice", dir);
    char *args[] = {"report", f1, twice, "--no-plots", "--out", out, NULL};
    struct cmd_result r;
    assert_int_equal(report_cmd(&r, args), 2);
    print_message("  %s", r.errout);
    assert_true(is_one_line(r.errout));
    assert_non_null(strstr(r.errout, "run-generic/results.json is given twice"));
    cmd_result_free(&r);
    struct stat st;
    assert_int_not_equal(stat(out, &st), 0);   /* nothing written */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_figure_cells_never_wrap),
        cmocka_unit_test(test_summary_from_runs_and_profiles),
        cmocka_unit_test(test_summary_columns_by_drive),
        cmocka_unit_test(test_folder_of_result_folders),
        cmocka_unit_test(test_same_results_twice),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
