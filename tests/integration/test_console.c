/* test_console.c — what a person reads on the console, in order and in words (issue 46):
 *   - a suite's lines on a pipe (stdout and stderr in one pipe, as `2>&1 | cat`) come in the
 *     order of events: each test's "Drive write amplification over the test" line after all of
 *     that test's own lines and before the next test's first line;
 *   - WSAT's round lines give the round's IOPS beside the bytes written;
 *   - the suite's plan gives the outstanding I/O each test runs at (LAT: 1 x 1, its own);
 *   - `run --precondition steady` counts rounds one way: its measured rounds and its window in
 *     the results' counting (after the WDPC rounds), never "round 5/25 ... rounds 175-179";
 *   - `suite` takes --size as run does (a file target created), and refuses it on a simulated
 *     drive in one line;
 *   - `db import DIR...` imports what it can: a directory that holds no results.json (a
 *     report's) or a run that did not complete is skipped and named with why, exit 1; all
 *     skipped: exit 2, nothing written;
 *   - a mistyped option says the nearest known one, one line, exit 2, in every command.
 * Simulated drives and short virtual rounds: a few seconds in all. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <json-c/json.h>
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
    dir = make_temp_dir("console");
    return dir ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    remove_tree(dir);
    free(dir);
    return 0;
}

static const char *tmp_path(const char *name)
{
    static char buf[8][4096];
    static unsigned k;
    char *p = buf[k++ % 8];
    snprintf(p, 4096, "%s/%s", dir, name);
    return p;
}

/* The offset of the first line of text that starts with prefix (after leading blanks), from
 * 'from'; -1 when none. */
static long line_at(const char *text, const char *prefix, long from)
{
    for (const char *p = text + from; *p;) {
        const char *q = p + strspn(p, " ");
        if (!strncmp(q, prefix, strlen(prefix)))
            return p - text;
        const char *nl = strchr(p, '\n');
        if (!nl)
            break;
        p = nl + 1;
    }
    return -1;
}

/* The offset of the line after the one at o (the end of text when none). */
static long next_line(const char *text, long o)
{
    const char *nl = strchr(text + o, '\n');
    return nl ? nl + 1 - text : (long)strlen(text);
}

/* The offset of the last line starting with prefix, -1 when none. */
static long last_line_at(const char *text, const char *prefix)
{
    long at = -1;
    for (long o = line_at(text, prefix, 0); o >= 0; o = line_at(text, prefix, next_line(text, o)))
        at = o;
    return at;
}

/* A suite of two tests (LAT, then WSAT) on the simulated drive, both streams through one pipe
 * into cat: each test's write amplification line after the test's last line of its own and
 * before the next test's title; WSAT's round lines carry the round's IOPS. */
static void test_suite_lines_in_order(void **state)
{
    (void)state;
    char cmd[8192];
    snprintf(cmd, sizeof(cmd),
             "\"$0\" suite --target sim:generic-mlc25,blocks_per_plane=32 --tests lat,wsat "
             "--round-time 1s --max-rounds 2 --wsat-capacity 0.2 --out '%s' 2>&1 | cat",
             tmp_path("suite-pipe"));
    char *argv[] = {"/bin/sh", "-c", cmd, (char *)ptsbench_bin(), NULL};
    struct cmd_result r;
    assert_int_equal(run_cmd(argv, &r), 0);
    if (r.status != 0)
        fail_msg("status %d: %s%s", r.status, r.out, r.errout);
    const char *out = r.out;
    const long lat_title = line_at(out, "Latency (lat)", 0);
    const long wsat_title = line_at(out, "Write Saturation", 0);
    const long waf1 = line_at(out, "Drive write amplification over the test", 0);
    const long waf2 = waf1 >= 0 ? line_at(out, "Drive write amplification over the test",
                                          next_line(out, waf1)) : -1;
    if (lat_title < 0 || wsat_title < 0 || waf1 < 0 || waf2 < 0)
        fail_msg("lines missing:\n%s", out);
    const long lat_last = last_line_at(out, "[lat]"), wsat_last = last_line_at(out, "[wsat]");
    if (!(lat_title < lat_last && lat_last < waf1 && waf1 < wsat_title))
        fail_msg("LAT's write amplification line is not between its last line and WSAT's "
                 "title:\n%s", out);
    if (!(wsat_title < wsat_last && wsat_last < waf2))
        fail_msg("WSAT's write amplification line is not after its last line:\n%s", out);
    /* "[wsat] round 1: 1 element, 114,776 IOPS, 470 MB written in all" */
    unsigned rounds = 0;
    for (long o = line_at(out, "[wsat] round ", 0); o >= 0;
         o = line_at(out, "[wsat] round ", next_line(out, o)), rounds++) {
        const char *nl = strchr(out + o, '\n');
        char line[512];
        snprintf(line, sizeof(line), "%.*s", (int)(nl ? nl - (out + o) : 511), out + o);
        if (!strstr(line, " IOPS, ") || !strstr(line, " written in all"))
            fail_msg("a WSAT round line without its IOPS: '%s'", line);
    }
    assert_true(rounds >= 2);
    cmd_result_free(&r);
}

/* The plan says at what outstanding I/O each test runs: LAT at its own 1 x 1, not the suite's
 * 4 x 32 alone. */
static void test_plan_says_lat_outstanding_io(void **state)
{
    (void)state;
    struct cmd_result r;
    const char *a[] = {"suite", "--target", "sim:generic-mlc25", "--tests", "iops,lat",
                       "--dry-run", "--out", tmp_path("plan"), NULL};
    assert_int_equal(ptsbench_run(&r, a), 0);
    const long lat = line_at(r.out, "lat ", 0);
    assert_true(lat >= 0);
    const char *nl = strchr(r.out + lat, '\n');
    char line[1024];
    snprintf(line, sizeof(line), "%.*s", (int)(nl - (r.out + lat)), r.out + lat);
    if (!strstr(line, "outstanding I/O 1 x 1"))
        fail_msg("the LAT line does not say 1 x 1: '%s'", line);
    const long iops = line_at(r.out, "iops ", 0);
    nl = strchr(r.out + iops, '\n');
    snprintf(line, sizeof(line), "%.*s", (int)(nl - (r.out + iops)), r.out + iops);
    assert_null(strstr(line, "outstanding I/O"));   /* the suite's 4 x 32, said above */
    cmd_result_free(&r);
}

/* run --precondition steady: every round number the console prints is in one counting (the
 * results'): the measured rounds follow the WDPC rounds and the window is among them. */
static void test_precondition_rounds_one_counting(void **state)
{
    (void)state;
    struct cmd_result r;
    const char *out = tmp_path("pre-steady");
    const char *a[] = {"run", "--target", "sim:generic-mlc25,blocks_per_plane=16", "--workload",
                       "rw=randwrite,bs=4k,qd=32,workers=4", "--precondition", "steady",
                       "--round-time", "1s", "--rounds", "25", "--out", out, NULL};
    assert_int_equal(ptsbench_run(&r, a), 0);
    char path[4200];
    snprintf(path, sizeof(path), "%s/results.json", out);
    struct json_object *doc = load_json(path);
    assert_non_null(doc);
    const unsigned first = (unsigned)json_num(doc, "steady_state.window.first_round");
    const unsigned last = (unsigned)json_num(doc, "steady_state.window.last_round");
    json_object_put(doc);
    unsigned wdpc = count_prefixed_lines(r.out, "wdpc ");
    assert_true(wdpc > 0 && first > wdpc);
    /* the round that completes the window is printed with the window's own last round */
    char want[128];
    snprintf(want, sizeof(want), "round %2u (measured %u/25)", last, last - wdpc);
    if (!strstr(r.out, want))
        fail_msg("no '%s' in:\n%s", want, r.out);
    snprintf(want, sizeof(want), "steady (rounds %u-%u)", first, last);
    assert_non_null(strstr(r.out, want));
    snprintf(want, sizeof(want), "measured rounds (%u-%u) after %u WDPC rounds", wdpc + 1, last,
             wdpc);
    if (!strstr(r.out, want))
        fail_msg("no '%s' in:\n%s", want, r.out);
    cmd_result_free(&r);
}

/* suite --size: the file target is created as run creates it; on a simulated drive, refused. */
static void test_suite_takes_size(void **state)
{
    (void)state;
    struct cmd_result r;
    const char *file = tmp_path("suite-target.dat");
    const char *a[] = {"suite", "--target", file, "--size", "16m", "--tests", "wsat",
                       "--round-time", "100ms", "--wsat-capacity", "0.5", "--quiet", "--out",
                       tmp_path("suite-size"), NULL};
    if (ptsbench_run(&r, a) != 0)
        fail_msg("status %d: %s", r.status, r.errout);
    cmd_result_free(&r);
    struct stat st;
    assert_int_equal(stat(file, &st), 0);
    assert_true(st.st_size == 16 << 20);
    const char *b[] = {"suite", "--target", "sim:generic-mlc25", "--size", "16m", "--out",
                       tmp_path("suite-size-sim"), NULL};
    assert_int_equal(ptsbench_run(&r, b), 2);
    assert_true(is_one_line(r.errout));
    assert_non_null(strstr(r.errout, "--size: a simulated drive has the capacity of its preset"));
    assert_int_not_equal(stat(tmp_path("suite-size-sim"), &st), 0);
    cmd_result_free(&r);
}

/* db import over directories: what can be imported is; a report's folder and an interrupted
 * run's are skipped and named with why; exit 1. Only such directories: exit 2, no database. */
static void test_db_import_skips_directories(void **state)
{
    (void)state;
    struct cmd_result r;
    const char *run_dir = tmp_path("import-run");
    const char *a[] = {"run", "--target", "sim:generic-mlc25", "--workload",
                       "rw=randwrite,bs=4k,qd=32", "--round-time", "1s", "-n", "1", "-q", "-o",
                       run_dir, NULL};
    assert_int_equal(ptsbench_run(&r, a), 0);
    cmd_result_free(&r);
    const char *report = tmp_path("import-report");
    assert_int_equal(mkdir(report, 0755), 0);
    /* the same run, as if it had been interrupted */
    const char *cut = tmp_path("import-cut");
    assert_int_equal(mkdir(cut, 0755), 0);
    char src[4200], dst[4200];
    snprintf(src, sizeof(src), "%s/results.json", run_dir);
    snprintf(dst, sizeof(dst), "%s/results.json", cut);
    struct json_object *doc = load_json(src);
    assert_non_null(doc);
    json_object_object_add(doc, "status", json_object_new_string("interrupted"));
    assert_int_equal(json_object_to_file(dst, doc), 0);
    json_object_put(doc);
    const char *db = tmp_path("import.db");
    const char *b[] = {"db", "import", "--db", db, report, cut, run_dir, NULL};
    assert_int_equal(ptsbench_run(&r, b), 1);
    char want[4300];
    snprintf(want, sizeof(want), "skipped %s: it holds no results.json", report);
    if (!strstr(r.errout, want))
        fail_msg("stderr '%s' lacks '%s'", r.errout, want);
    snprintf(want, sizeof(want), "skipped %s: its run did not complete", cut);
    if (!strstr(r.errout, want))
        fail_msg("stderr '%s' lacks '%s'", r.errout, want);
    assert_non_null(strstr(r.out, "run 1: ptsbench.run"));
    cmd_result_free(&r);
    const char *db2 = tmp_path("never.db");
    const char *c[] = {"db", "import", "--db", db2, report, NULL};
    assert_int_equal(ptsbench_run(&r, c), 2);
    assert_non_null(strstr(r.errout, "nothing imported"));
    assert_int_not_equal(access(db2, F_OK), 0);
    cmd_result_free(&r);
}

/* Every command: '--hlep' is "did you mean --help?", one line, exit 2; and a few real
 * options mistyped, an unknown command. */
static void test_did_you_mean(void **state)
{
    (void)state;
    static const char *const cmds[][3] = {
        {"run"}, {"profile"}, {"suite"}, {"run-test", "iops"}, {"replay"}, {"trace"},
        {"crosscheck"}, {"show"}, {"export"}, {"report"}, {"plot"}, {"verify"}, {"gate"},
        {"db", "import"}, {"db", "list"}, {"db", "show"}, {"db", "compare"}, {"db", "tag"},
        {"db", "trend"}, {"sim"}, {"engines"},
    };
    for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
        const char *a[5] = {cmds[i][0]};
        size_t n = 1;
        if (cmds[i][1])
            a[n++] = cmds[i][1];
        a[n++] = "--hlep";
        a[n] = NULL;
        struct cmd_result r;
        const int st = ptsbench_run(&r, a);
        if (st != 2 || !is_one_line(r.errout) || !strstr(r.errout, "did you mean --help?"))
            fail_msg("%s %s: status %d, '%s'", a[0], n > 2 ? a[1] : "", st, r.errout);
        cmd_result_free(&r);
    }
    static const struct {
        const char *args[4];
        const char *want;
    } typos[] = {
        {{"run", "--tagret", "x", NULL}, "unknown option '--tagret'; did you mean --target?"},
        {{"suite", "--roundtime", "1s", NULL}, "did you mean --round-time?"},
        {{"report", "--titel", "x", NULL}, "did you mean --title?"},
        {{"run", "--ro", "3", NULL}, "did you mean --rounds, --round-time or --round-bytes?"},
        {{"sute", NULL}, "unknown command 'sute'; did you mean suite?"},
    };
    for (size_t i = 0; i < sizeof(typos) / sizeof(typos[0]); i++) {
        struct cmd_result r;
        const int st = ptsbench_run(&r, typos[i].args);
        if (st != 2 || !is_one_line(r.errout) || !strstr(r.errout, typos[i].want))
            fail_msg("%s %s: status %d, '%s' (want '%s')", typos[i].args[0],
                     typos[i].args[1] ? typos[i].args[1] : "", st, r.errout, typos[i].want);
        cmd_result_free(&r);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_suite_lines_in_order),
        cmocka_unit_test(test_plan_says_lat_outstanding_io),
        cmocka_unit_test(test_precondition_rounds_one_counting),
        cmocka_unit_test(test_suite_takes_size),
        cmocka_unit_test(test_db_import_skips_directories),
        cmocka_unit_test(test_did_you_mean),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
