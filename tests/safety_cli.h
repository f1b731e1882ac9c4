/* safety_cli.h — shared by the safety integration tests (test_safety_mounted.c for block
 * devices, test_safety_files.c for file targets): system tools by full path, running them by
 * fork/exec, and the check that every writing command of ptsbench is refused.
 *
 * "Every writing command": `run` with a writing workload, `run` with a read-only workload
 * and --precondition wipc (the preconditioning writes), `run-test iops` (a PTS test, which
 * purges and writes), `profile oltp --purge discard`, `profile qd-ramp-4k-read --purge discard`
 * (a read-only profile whose purge writes) and, for files, `run --size` (extending).  Each must
 * exit 2 with one line on stderr naming the reason, and create nothing (no output directory).
 * The caller checksums the target around the calls.
 *
 * Header-only (static), included after <cmocka.h> and "helpers.h". */
#ifndef PTSBENCH_TEST_SAFETY_CLI_H
#define PTSBENCH_TEST_SAFETY_CLI_H

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Full path of a program from $PATH or the usual sbin directories (root's PATH may lack them
 * under sudo or in CI). */
static bool sc_find_tool(const char *name, char *out, size_t len)
{
    const char *env = getenv("PATH");
    char path[4096];
    snprintf(path, sizeof(path), "%s:/usr/local/sbin:/usr/sbin:/sbin:/usr/bin:/bin",
             env ? env : "");
    char *save = NULL;
    for (char *d = strtok_r(path, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
        if (!*d)
            continue;
        if (snprintf(out, len, "%s/%s", d, name) >= (int)len)
            continue;
        if (access(out, X_OK) == 0)
            return true;
    }
    out[0] = '\0';
    return false;
}

/* Run argv; false with what went wrong in why. */
static bool sc_run_ok(char *const argv[], char *why, size_t whylen)
{
    struct cmd_result r;
    if (run_cmd(argv, &r) != 0) {
        snprintf(why, whylen, "cannot run %s", argv[0]);
        return false;
    }
    bool ok = r.status == 0;
    if (!ok)
        snprintf(why, whylen, "%s %s failed with status %d: %s%s", argv[0],
                 argv[1] ? argv[1] : "", r.status, r.out, r.errout);
    cmd_result_free(&r);
    return ok;
}

/* `losetup -f --show IMG`: the loop device in loop ("/dev/loopN"). */
static bool sc_attach(const char *losetup, const char *img, char *loop, size_t len, char *why,
                      size_t whylen)
{
    char *argv[] = {(char *)losetup, "-f", "--show", (char *)img, NULL};
    struct cmd_result r;
    if (run_cmd(argv, &r) != 0) {
        snprintf(why, whylen, "cannot run %s", losetup);
        return false;
    }
    char *nl = strchr(r.out, '\n');
    if (nl)
        *nl = '\0';
    bool ok = r.status == 0 && strncmp(r.out, "/dev/loop", 9) == 0;
    if (ok)
        snprintf(loop, len, "%s", r.out);
    else
        snprintf(why, whylen, "losetup -f --show %s failed (status %d): %s", img, r.status,
                 r.errout);
    cmd_result_free(&r);
    return ok;
}

enum sc_cmd {
    SC_RUN_WRITE,           /* run, a random-write workload */
    SC_RUN_WIPC,            /* run, random reads after --precondition wipc */
    SC_RUN_TEST,            /* run-test iops */
    SC_PROFILE_PURGE,       /* profile oltp --purge discard */
    SC_PROFILE_READ_PURGE,  /* profile qd-ramp-4k-read (reads only) --purge discard */
    SC_RUN_EXTEND,          /* run --size 64m (files only) */
    SC_N
};

static const char *const sc_cmd_names[SC_N] = {
    "run (randwrite)", "run (randread after WIPC)", "run-test iops",
    "profile oltp --purge discard", "profile qd-ramp-4k-read --purge discard",
    "run --size 64m"};

/* argv (at most 40 entries) for command c on target with the extra flags (NULL-terminated). */
static void sc_argv(enum sc_cmd c, const char *target, const char *const *flags, const char *out,
                    char **argv)
{
    int n = 0;
    argv[n++] = (char *)ptsbench_bin();
    switch (c) {
    case SC_RUN_WRITE:
    case SC_RUN_WIPC:
    case SC_RUN_EXTEND:
        argv[n++] = "run";
        argv[n++] = "--workload";
        argv[n++] = c == SC_RUN_WIPC ? "rw=randread,bs=4k" : "rw=randwrite,bs=4k";
        if (c == SC_RUN_WIPC) {
            argv[n++] = "--precondition";
            argv[n++] = "wipc";
        }
        if (c == SC_RUN_EXTEND) {
            argv[n++] = "--size";
            argv[n++] = "64m";
        }
        argv[n++] = "--rounds";
        argv[n++] = "1";
        break;
    case SC_RUN_TEST:
        argv[n++] = "run-test";
        argv[n++] = "iops";
        break;
    case SC_PROFILE_PURGE:
    case SC_PROFILE_READ_PURGE:
        argv[n++] = "profile";
        argv[n++] = c == SC_PROFILE_PURGE ? "oltp" : "qd-ramp-4k-read";
        argv[n++] = "--purge";
        argv[n++] = "discard";
        argv[n++] = "--precondition";
        argv[n++] = "none";
        argv[n++] = "--qd";
        argv[n++] = "1";
        argv[n++] = "--rounds";
        argv[n++] = "1";
        break;
    default:
        break;
    }
    argv[n++] = "--target";
    argv[n++] = (char *)target;
    argv[n++] = "--round-time";
    argv[n++] = "1";
    for (int i = 0; flags && flags[i] && n < 36; i++)
        argv[n++] = (char *)flags[i];
    argv[n++] = "--out";
    argv[n++] = (char *)out;
    argv[n] = NULL;
}

static void sc_print_argv(char *const *argv)
{
    printf("  $");
    for (int i = 0; argv[i]; i++)
        printf(" %s", i == 0 ? "ptsbench" : argv[i]);
    printf("\n");
}

/* Command c is refused: exit 2, exactly one line on stderr containing every string of want,
 * and no output directory. */
static void sc_expect_refused(enum sc_cmd c, const char *target, const char *const *flags,
                              const char *const *want, const char *dir)
{
    static unsigned seq;
    char out[PATH_MAX];
    snprintf(out, sizeof(out), "%s/out-refused-%u", dir, ++seq);
    char *argv[40];
    sc_argv(c, target, flags, out, argv);
    sc_print_argv(argv);
    struct cmd_result r;
    assert_int_equal(run_cmd(argv, &r), 0);
    printf("    exit %d: %s", r.status, r.errout);
    int st = r.status;
    size_t len = strlen(r.errout);
    const char *nl = strchr(r.errout, '\n');
    bool one_line = len > 0 && nl == r.errout + len - 1;
    const char *missing = NULL;
    for (int i = 0; want && want[i] && !missing; i++)
        if (!strstr(r.errout, want[i]))
            missing = want[i];
    cmd_result_free(&r);
    if (st != 2)
        fail_msg("%s: expected exit status 2 (refused), got %d", sc_cmd_names[c], st);
    if (!one_line)
        fail_msg("%s: the refusal is not exactly one line on stderr", sc_cmd_names[c]);
    if (missing)
        fail_msg("%s: stderr does not say \"%s\"", sc_cmd_names[c], missing);
    struct stat sb;
    if (stat(out, &sb) == 0)
        fail_msg("%s: the refused command created its output directory %s", sc_cmd_names[c],
                 out);
}

/* Every writing command (SC_RUN_EXTEND only when with_extend) with each set of flags. */
static void sc_expect_all_refused(const char *target, const char *const *const *flag_sets,
                                  const char *const *want, const char *dir, bool with_extend)
{
    for (int k = 0; flag_sets[k]; k++)
        for (int c = 0; c < SC_N; c++)
            if (c != SC_RUN_EXTEND || with_extend)
                sc_expect_refused((enum sc_cmd)c, target, flag_sets[k], want, dir);
}

/* ptsbench ARGS... --out DIR/out-ok-N exits 0 (printing its stderr when not). */
static void sc_expect_ok(const char *const *args, const char *dir)
{
    static unsigned seq;
    char out[PATH_MAX];
    snprintf(out, sizeof(out), "%s/out-ok-%u", dir, ++seq);
    char *argv[40];
    int n = 0;
    argv[n++] = (char *)ptsbench_bin();
    for (int i = 0; args[i] && n < 36; i++)
        argv[n++] = (char *)args[i];
    argv[n++] = "--out";
    argv[n++] = out;
    argv[n] = NULL;
    sc_print_argv(argv);
    struct cmd_result r;
    assert_int_equal(run_cmd(argv, &r), 0);
    int st = r.status;
    if (st != 0)
        printf("    exit %d: %s", st, r.errout);
    cmd_result_free(&r);
    if (st != 0)
        fail_msg("expected exit status 0, got %d", st);
}

#endif
