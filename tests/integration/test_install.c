/* test_install.c — an installed ptsbench finds its data: `make install PREFIX=DIR` after a plain
 * build (the binary was compiled with another prefix) gives DIR/bin/ptsbench whose
 * `profile --list` lists the shipped profiles and whose `run --workload oltp` finds the profile,
 * with PTSBENCH_DATADIR unset and the working directory elsewhere; with the data gone it exits 1
 * and names every place it looked. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "helpers.h"

static void test_installed_finds_data(void **state)
{
    (void)state;
    char *dir = make_temp_dir("install");
    assert_non_null(dir);
    /* the build directory of the binary under test (build/ or build/sanitize/) */
    char bin[PATH_MAX], build[PATH_MAX];
    assert_non_null(realpath(ptsbench_bin(), bin));
    snprintf(build, sizeof(build), "%s", bin);
    *strrchr(build, '/') = '\0';
    const char *root = getenv("PTSBENCH_DATADIR");
    assert_non_null(root);
    char prefix[PATH_MAX], bopt[PATH_MAX + 8], popt[PATH_MAX + 8];
    snprintf(prefix, sizeof(prefix), "%s/x", dir);
    snprintf(bopt, sizeof(bopt), "BUILD=%s", build);
    snprintf(popt, sizeof(popt), "PREFIX=%s", prefix);
    char *make[] = {"make", "-C", (char *)root, "--no-print-directory", "-s", "install", bopt,
                    popt, NULL};
    struct cmd_result r;
    assert_int_equal(run_cmd(make, &r), 0);
    if (r.status != 0)
        print_message("make install: %s%s\n", r.out, r.errout);
    assert_int_equal(r.status, 0);
    cmd_result_free(&r);

    /* as a user would run it: no PTSBENCH_DATADIR, somewhere else */
    char installed[PATH_MAX + 16], cwd[PATH_MAX];
    snprintf(installed, sizeof(installed), "%s/bin/ptsbench", prefix);
    assert_non_null(getcwd(cwd, sizeof(cwd)));
    char *saved = strdup(root);
    unsetenv("PTSBENCH_DATADIR");
    assert_int_equal(chdir(dir), 0);

    char *list[] = {installed, "profile", "--list", NULL};
    assert_int_equal(run_cmd(list, &r), 0);
    print_message("%s profile --list: exit %d, %zu bytes\n", installed, r.status, strlen(r.out));
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "database"));
    assert_non_null(strstr(r.out, "atto-read-4k"));
    cmd_result_free(&r);

    char out[PATH_MAX + 8];
    snprintf(out, sizeof(out), "%s/run", dir);
    char *run[] = {installed, "run", "--target", "sim:generic-mlc25", "--workload", "oltp",
                   "--rounds", "1", "--round-time", "0.2", "--quiet", "--out", out, NULL};
    assert_int_equal(run_cmd(run, &r), 0);
    if (r.status != 0)
        print_message("run: %s\n", r.errout);
    assert_int_equal(r.status, 0);
    cmd_result_free(&r);

    /* the data gone: exit 1, and where it looked, the installed prefix first */
    char share[PATH_MAX + 32], moved[PATH_MAX + 32];
    snprintf(share, sizeof(share), "%s/share/ptsbench", prefix);
    snprintf(moved, sizeof(moved), "%s/share/elsewhere", prefix);
    assert_int_equal(rename(share, moved), 0);
    struct stat st;
    if (stat(PTSBENCH_DATADIR "/profiles", &st) == 0) {   /* the compiled-in data directory */
        print_message("SKIP the missing-data check: %s/profiles exists on this machine (an "
                      "installed ptsbench)\n", PTSBENCH_DATADIR);
    } else {
        assert_int_equal(run_cmd(list, &r), 0);
        print_message("without its data: exit %d: %s", r.status, r.errout);
        assert_int_equal(r.status, 1);
        assert_non_null(strstr(r.errout, "looked in"));
        assert_non_null(strstr(r.errout, "/share/ptsbench/profiles"));
        assert_non_null(strstr(r.errout, prefix));
        cmd_result_free(&r);
    }

    assert_int_equal(chdir(cwd), 0);
    setenv("PTSBENCH_DATADIR", saved, 1);
    free(saved);
    remove_tree(dir);
    free(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_installed_finds_data),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
