/* test_malformed_inputs.c — the real binary on inputs that once crashed a parser, and on a handful
 * of malformed files: every command that reads a file refuses each one with exit status 2 (bad
 * input; gate's 1, a regression or missing point, would also be documented), exactly one line on
 * stderr, and no sanitizer report (`make sanitize` runs this against the ASan+UBSan binary).
 *
 * The inputs: every file under tests/fuzz/regressions/ (any harness: a results file is also fed
 * to the INI readers and the other way round), except "ok-" files (valid inputs that once crashed
 * a reader), plus the files malformed() writes. The commands:
 *   show F; report F --no-plots; plot F; gate --current F; verify --spec SHEET F; verify --spec F
 *   RESULTS; profile F --dry-run; run --workload F; run --workload "$(cat F)" (the run's target
 *   is a path that cannot exist, so that a workload that parses is still refused, before
 *   anything is written).
 * Also: run-test '' and suite --tests '' are refused (they ran the default suite), and a PTS
 * definition that cannot work is refused when it is loaded, naming file, line, key and value. */
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
#include <sys/stat.h>
#include <unistd.h>

#include "helpers.h"

#define MAX_INPUTS 512

struct inputs {
    char *path[MAX_INPUTS];
    size_t n;
};

static const char *root_dir(void)
{
    const char *r = getenv("PTSBENCH_DATADIR");
    return r && *r ? r : ".";
}

static void add(struct inputs *in, const char *path)
{
    if (in->n < MAX_INPUTS)
        in->path[in->n++] = strdup(path);
}

static void write_file(const char *dir, const char *name, const char *data, size_t len,
                       struct inputs *in)
{
    char path[4096];
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, len, f), len);
    assert_int_equal(fclose(f), 0);
    add(in, path);
}

/* A handful of malformed files, each broken in another way. */
static void malformed(const char *dir, struct inputs *in)
{
    static const char nul[] = "rw=randread\0bs=4k\n";
    write_file(dir, "empty", "", 0, in);
    write_file(dir, "nul-bytes.ini", nul, sizeof(nul) - 1, in);
    write_file(dir, "binary", "\x7f" "ELF\x02\x01\x01\xff\xfe\x00\x00\x01", 12, in);
    static const char *const text[][2] = {
        {"array.json", "[1, 2, 3]\n"},
        {"truncated.json", "{\"schema\":\"ptsbench.run\",\"rounds\":[{\"round\":1,"},
        {"nan.json", "{\"schema\":\"ptsbench.run\",\"rounds\":[{\"round\":NaN}]}\n"},
        {"huge.json", "{\"schema\":\"ptsbench.run\",\"target\":{\"capacity_bytes\":1e300}}\n"},
        {"schema-number.json", "{\"schema\":5}\n"},
        {"schema-newline.json", "{\"schema\":\"ptsbench.\\nrun\"}\n"},
        {"deep.json", "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["
                      "]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]\n"},
        {"suite-tests-object.json", "{\"schema\":\"ptsbench.suite\",\"tests\":{\"a\":{}}}\n"},
        {"crlf.ini", "[w]\r\nrw=randread\r\nbs=4q\r\n"},
        {"section.ini", "[unterminated\nbs=4k\n"},
    };
    for (size_t i = 0; i < sizeof(text) / sizeof(text[0]); i++)
        write_file(dir, text[i][0], text[i][1], strlen(text[i][1]), in);
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
    return strcmp((*a)->d_name, (*b)->d_name);
}

static int visible(const struct dirent *d) { return d->d_name[0] != '.'; }

static void saved(struct inputs *in)
{
    char dir[4096];
    snprintf(dir, sizeof(dir), "%s/tests/fuzz/regressions", root_dir());
    struct dirent **h;
    int nh = scandir(dir, &h, visible, by_name);
    assert_true(nh > 0);
    for (int i = 0; i < nh; i++) {
        char sub[4200];
        snprintf(sub, sizeof(sub), "%s/%s", dir, h[i]->d_name);
        struct dirent **f;
        int nf = scandir(sub, &f, visible, by_name);
        for (int k = 0; k < nf; k++) {
            char path[4500];
            snprintf(path, sizeof(path), "%s/%s", sub, f[k]->d_name);
            if (strncmp(f[k]->d_name, "ok-", 3) != 0)
                add(in, path);
            free(f[k]);
        }
        if (nf >= 0)
            free(f);
        free(h[i]);
    }
    free(h);
}

static bool one_line(const char *s)
{
    size_t n = strlen(s);
    return n > 1 && s[n - 1] == '\n' && !memchr(s, '\n', n - 1);
}

static bool sanitizer_said(const char *s)
{
    return strstr(s, "Sanitizer") || strstr(s, "runtime error") || strstr(s, "Assertion");
}

/* Run one command; returns false (after printing what went wrong) unless it exited 2 (or 1 when
 * allowed) with one line on stderr. */
static bool refused(char **argv, bool one_allowed)
{
    struct cmd_result r;
    if (run_cmd(argv, &r) != 0)
        fail_msg("cannot run %s", argv[0]);
    bool ok = (r.status == 2 || (one_allowed && r.status == 1)) && one_line(r.errout) &&
              !sanitizer_said(r.errout);
    if (!ok) {
        fprintf(stderr, "FAILED:");
        for (char **a = argv; *a; a++)
            fprintf(stderr, " '%.120s'", *a);
        fprintf(stderr, "\n  exit %d, stderr:\n%s\n", r.status, r.errout);
    }
    cmd_result_free(&r);
    return ok;
}

static void test_every_reader_refuses_each_input(void **state)
{
    (void)state;
    char *tmp = make_temp_dir("malformed");
    struct inputs in = {0};
    saved(&in);
    size_t n_saved = in.n;
    malformed(tmp, &in);
    char out[4200], sheet[4096], results[4096], target[4200];
    snprintf(out, sizeof(out), "%s/out", tmp);
    snprintf(target, sizeof(target), "%s/no-such-dir/target", tmp);
    snprintf(sheet, sizeof(sheet), "%s/specs/zdrive-6300-1.6t.ini", root_dir());
    snprintf(results, sizeof(results), "%s/tests/fixtures/results/run-steady-6300/results.json",
             root_dir());
    char *bin = (char *)ptsbench_bin();
    unsigned bad = 0, runs = 0;
    for (size_t i = 0; i < in.n; i++) {
        char *f = in.path[i];
        size_t len = 0;
        char *text = slurp_file(f, &len);
        assert_non_null(text);
        if (strlen(text) > 4000)   /* a command line, not a file: the first 4000 bytes */
            text[4000] = '\0';
        char *cmds[][10] = {
            {bin, "show", f, NULL},
            {bin, "report", f, "--out", out, "--no-plots", NULL},
            {bin, "plot", f, "--out", out, NULL},
            {bin, "gate", "--baseline", results, "--current", f, NULL},
            {bin, "verify", "--spec", sheet, f, NULL},
            {bin, "verify", "--spec", f, results, NULL},
            {bin, "profile", f, "--target", "sim:generic-mlc25", "--dry-run", NULL},
            {bin, "run", "--workload", f, "--target", target, NULL},
            {bin, "run", "--workload", text, "--target", target, NULL},
        };
        for (size_t c = 0; c < sizeof(cmds) / sizeof(cmds[0]); c++) {
            if (c == 8 && !*text)
                continue;   /* an empty --workload is a usage error of its own */
            bad += !refused(cmds[c], c == 3);
            runs++;
        }
        free(text);
    }
    printf("  %zu saved inputs and %zu malformed files, %u commands: %u not refused cleanly\n",
           n_saved, in.n - n_saved, runs, bad);
    for (size_t i = 0; i < in.n; i++)
        free(in.path[i]);
    remove_tree(tmp);
    free(tmp);
    assert_int_equal(bad, 0);
}

/* run-test '' and suite --tests '' named no test and ran the whole default suite. */
static void test_empty_test_names_refused(void **state)
{
    (void)state;
    char *bin = (char *)ptsbench_bin();
    char *tmp = make_temp_dir("malformed");
    char out[4200];
    snprintf(out, sizeof(out), "%s/out", tmp);
    char *cmds[][10] = {
        {bin, "run-test", "", "--target", "sim:generic-mlc25", "-o", out, NULL},
        {bin, "run-test", " ", "--target", "sim:generic-mlc25", "-o", out, NULL},
        {bin, "suite", "--tests", "", "--target", "sim:generic-mlc25", "-o", out, NULL},
        {bin, "suite", "--tests", ", ,", "--target", "sim:generic-mlc25", "-o", out, NULL},
    };
    for (size_t c = 0; c < sizeof(cmds) / sizeof(cmds[0]); c++) {
        struct cmd_result r;
        assert_int_equal(run_cmd(cmds[c], &r), 0);
        if (r.status != 2 || !one_line(r.errout) || (!strstr(r.errout, "''") &&
                                                     !strstr(r.errout, "' '") &&
                                                     !strstr(r.errout, "no test named")))
            fail_msg("%s %s '%s': exit %d, stderr: %s", cmds[c][1], cmds[c][2], cmds[c][3],
                     r.status, r.errout);
        cmd_result_free(&r);
        struct stat st;
        assert_int_not_equal(stat(out, &st), 0);   /* nothing written */
    }
    remove_tree(tmp);
    free(tmp);
}

/* A definition that cannot work is refused when it is loaded (exit 2, one line naming file,
 * key and value), before the target is touched: not after purge and preconditioning. */
static void test_bad_definition_refused_before_anything_runs(void **state)
{
    (void)state;
    char *bin = (char *)ptsbench_bin();
    char *tmp = make_temp_dir("malformed");
    char pts[4200], out[4200], link[4200], profiles[4200];
    snprintf(pts, sizeof(pts), "%s/pts", tmp);
    snprintf(out, sizeof(out), "%s/out", tmp);
    assert_int_equal(mkdir(pts, 0755), 0);
    snprintf(link, sizeof(link), "%s/pts/specs.ini", root_dir());
    char *specs = slurp_file(link, NULL);
    assert_non_null(specs);
    struct inputs scratch = {0};
    write_file(pts, "specs.ini", specs, strlen(specs), &scratch);
    free(specs);
    static const char *const defs[][2] = {
        {"zero.ini", "[test]\nmixes = 0\nblock_sizes = 4k\nelement_time = 0\n"
                     "tracking = iops@4k/0\n"},
        {"sizes.ini", "[test]\nmixes = 0\nblock_sizes = 3\ntracking = iops@4k/0\n"},
        {"loops.ini", "[test]\nmixes = 100\nblock_sizes = 4k\ntracking = iops@4k/0\n"},
    };
    static const char *const want[] = {"zero.ini:4: element_time=0:", "sizes.ini:3: block_sizes=3:",
                                       "loops.ini:4: tracking=iops@4k/0:"};
    for (size_t i = 0; i < 3; i++)
        write_file(pts, defs[i][0], defs[i][1], strlen(defs[i][1]), &scratch);
    snprintf(profiles, sizeof(profiles), "%s/profiles", root_dir());
    snprintf(link, sizeof(link), "%s/profiles", tmp);
    assert_int_equal(symlink(profiles, link), 0);
    const char *old = getenv("PTSBENCH_DATADIR");
    char *saved_root = strdup(old ? old : ".");
    setenv("PTSBENCH_DATADIR", tmp, 1);
    for (size_t i = 0; i < 3; i++) {
        char name[32];
        snprintf(name, sizeof(name), "%.*s", (int)(strlen(defs[i][0]) - 4), defs[i][0]);
        char *argv[] = {bin, "run-test", name, "--target", "sim:generic-mlc25", "-o", out, NULL};
        struct cmd_result r;
        assert_int_equal(run_cmd(argv, &r), 0);
        if (r.status != 2 || !one_line(r.errout) || !strstr(r.errout, want[i]))
            fail_msg("run-test %s: exit %d, stderr: %s (want '%s')", name, r.status, r.errout,
                     want[i]);
        cmd_result_free(&r);
        struct stat st;
        assert_int_not_equal(stat(out, &st), 0);
    }
    setenv("PTSBENCH_DATADIR", saved_root, 1);
    free(saved_root);
    for (size_t i = 0; i < scratch.n; i++)
        free(scratch.path[i]);
    remove_tree(tmp);
    free(tmp);
}

/* What the plan needs is checked when it is made: an --out that cannot be written and a missing
 * or too old fio are refused with exit 2 and one line, before a file target is created (run,
 * profile) or anything else is written. They were found after the target was created, purged and
 * preconditioned. */
static void test_plan_checked_before_anything_written(void **state)
{
    (void)state;
    char *bin = (char *)ptsbench_bin();
    char *tmp = make_temp_dir("malformed");
    char notdir[4200], bad_out[4200], target[4200], out[4200], nofio[4200], oldfio[4200];
    snprintf(notdir, sizeof(notdir), "%s/a-file", tmp);
    snprintf(bad_out, sizeof(bad_out), "%s/a-file/out", tmp);
    snprintf(target, sizeof(target), "%s/new.img", tmp);
    snprintf(out, sizeof(out), "%s/out", tmp);
    snprintf(nofio, sizeof(nofio), "%s/empty-bin", tmp);
    snprintf(oldfio, sizeof(oldfio), "%s/old-bin", tmp);
    struct inputs scratch = {0};
    write_file(tmp, "a-file", "x", 1, &scratch);
    assert_int_equal(mkdir(nofio, 0755), 0);
    assert_int_equal(mkdir(oldfio, 0755), 0);
    static const char old[] = "#!/bin/sh\necho fio-2.1\n";
    write_file(oldfio, "fio", old, strlen(old), &scratch);
    snprintf(notdir, sizeof(notdir), "%s/fio", oldfio);
    assert_int_equal(chmod(notdir, 0755), 0);
    const char *path_env = getenv("PATH");
    char *saved_path = strdup(path_env ? path_env : "/usr/bin:/bin");
    static const struct {
        const char *path;        /* PATH for the command, NULL: unchanged */
        bool bad_out;
        const char *want;
    } cases[] = {
        {NULL, true, "a-file is not a directory"},
        {"empty", false, "--engine fio: fio not found in PATH"},
        {"old", false, "--engine fio: fio 2.1 is too old"},
    };
    for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
        const char *o = cases[c].bad_out ? bad_out : out;
        const char *eng = cases[c].path ? "fio" : "io_uring";
        char *cmds[][18] = {
            {bin, "run", "--target", target, "--size", "64M", "--engine", (char *)eng,
             "--workload", "rw=randwrite", "--rounds", "1", "--round-time", "1", "-o", (char *)o,
             NULL},
            {bin, "profile", "database", "--target", target, "--size", "64M", "--engine",
             (char *)eng, "-o", (char *)o, NULL},
            {bin, "suite", "--tests", "iops", "--target", cases[c].path ? target
                                                                          : "sim:generic-mlc25",
             "--engine", cases[c].path ? "fio" : "sim", "-o", (char *)o, NULL},
        };
        if (cases[c].path)
            setenv("PATH", !strcmp(cases[c].path, "empty") ? nofio : oldfio, 1);
        for (size_t k = 0; k < sizeof(cmds) / sizeof(cmds[0]); k++) {
            struct cmd_result r;
            assert_int_equal(run_cmd(cmds[k], &r), 0);
            if (r.status != 2 || !one_line(r.errout) || !strstr(r.errout, cases[c].want))
                fail_msg("%s (case %zu): exit %d, stderr: %s (want '%s')", cmds[k][1], c,
                         r.status, r.errout, cases[c].want);
            cmd_result_free(&r);
            struct stat st;
            assert_int_not_equal(stat(target, &st), 0);   /* the file target was not created */
            assert_int_not_equal(stat(out, &st), 0);
        }
        setenv("PATH", saved_path, 1);
    }
    free(saved_path);
    for (size_t i = 0; i < scratch.n; i++)
        free(scratch.path[i]);
    remove_tree(tmp);
    free(tmp);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_reader_refuses_each_input),
        cmocka_unit_test(test_empty_test_names_refused),
        cmocka_unit_test(test_bad_definition_refused_before_anything_runs),
        cmocka_unit_test(test_plan_checked_before_anything_written),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
