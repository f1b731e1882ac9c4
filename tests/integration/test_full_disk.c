/* test_full_disk.c — a results file that cannot be written is an error, not a success: run,
 * suite and profile on the simulated drive write their results to a tmpfs of 192 KiB, which
 * fills after some rounds. Each must exit 1 with exactly one line on stderr naming the file
 * and the reason, must not print "complete", and the file left behind must be whole JSON (the
 * last good write: writes are atomic), not "complete", holding every round the console printed
 * as done. Before, suite and profile exited 0 and printed "complete; compliant" over a file left
 * at "running" with no rounds.
 *
 * The tmpfs is mounted on a directory of our own (mount(2), root only; skipped with a reason
 * otherwise) and unmounted on every path (the test's teardown, and an atexit handler). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <json-c/json.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "helpers.h"

static char *tmp;
static char mnt[4200];
static bool mounted;

static void unmount_all(void)
{
    if (mounted && umount2(mnt, MNT_DETACH) == 0)
        mounted = false;
    if (tmp && !mounted) {
        remove_tree(tmp);
        free(tmp);
        tmp = NULL;
    }
}

static int setup(void **state)
{
    (void)state;
    tmp = make_temp_dir("fulldisk");
    snprintf(mnt, sizeof(mnt), "%s/small", tmp);
    if (mkdir(mnt, 0755) != 0)
        return -1;
    atexit(unmount_all);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    unmount_all();
    return 0;
}


static void test_results_on_a_full_disk(void **state)
{
    (void)state;
    if (geteuid() != 0 || mount("tmpfs", mnt, "tmpfs", 0, "size=192k") != 0) {
        print_message("SKIP: cannot mount a small tmpfs (needs root)\n");
        skip();
    }
    mounted = true;
    assert_int_equal(umount2(mnt, 0), 0);
    mounted = false;
    char *bin = (char *)ptsbench_bin();
    char out_run[4300], out_suite[4300], out_profile[4300];
    snprintf(out_run, sizeof(out_run), "%s/run", mnt);
    snprintf(out_suite, sizeof(out_suite), "%s/suite", mnt);
    snprintf(out_profile, sizeof(out_profile), "%s/profile", mnt);
    struct {
        const char *name, *out, *size;
        const char *printed;   /* what the line of a completed round or point starts with */
        char *argv[24];
        const char *rounds;    /* where they are in the file */
    } cases[] = {
        {"run", out_run, "size=192k", "round ",
         {bin, "run", "--target", "sim:generic-mlc25", "--workload", "rw=randwrite",
          "--rounds", "2000", "--round-time", "1", "--all-rounds", "-o", out_run, NULL},
         "rounds"},
        {"suite", out_suite, "size=192k", "  [wsat] round ",
         {bin, "suite", "--tests", "wsat", "--target", "sim:generic-mlc25", "--time-scale",
          "0.01", "-o", out_suite, NULL},
         "tests.0.subtests.0.rounds"},
        /* a point is about 9 KB, and a write needs room for the old file and the new one */
        {"profile", out_profile, "size=48k", "qd-ramp-4k-read 0% ",
         {bin, "profile", "qd-ramp-4k-read", "--target", "sim:generic-mlc25", "--precondition",
          "none", "--qd", "1,2,3,4,5,6,7,8", "--workers", "1", "--round-time", "1", "--rounds",
          "2", "-o", out_profile, NULL},
         "points"},
    };
    for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
        assert_int_equal(mount("tmpfs", mnt, "tmpfs", 0, cases[c].size), 0);
        mounted = true;
        struct cmd_result r;
        assert_int_equal(run_cmd(cases[c].argv, &r), 0);
        print_message("  %s: exit %d, %s", cases[c].name, r.status, r.errout);
        if (r.status != 1 || !is_one_line(r.errout) || !strstr(r.errout, "No space left on device") ||
            !strstr(r.errout, "results.json"))
            fail_msg("%s on a full disk: exit %d, stderr: %s", cases[c].name, r.status,
                     r.errout);
        assert_null(strstr(r.out, "complete"));
        char path[4400];
        snprintf(path, sizeof(path), "%s/results.json", cases[c].out);
        struct json_object *doc = load_json(path);
        if (doc) {   /* the last good write, whole */
            const char *status = json_object_get_string(json_at(doc, "status"));
            assert_non_null(status);
            assert_string_not_equal(status, "complete");
            if (cases[c].printed) {
                unsigned printed = count_prefixed_lines(r.out, cases[c].printed);
                struct json_object *rounds = json_at(doc, cases[c].rounds);
                unsigned kept = rounds ? (unsigned)json_object_array_length(rounds) : 0;
                print_message("  %s: %u rounds printed, %u in the file\n", cases[c].name,
                              printed, kept);
                assert_true(printed > 0);   /* the disk filled part-way, not at once */
                assert_true(kept >= printed);
            }
            json_object_put(doc);
        }
        cmd_result_free(&r);
        assert_int_equal(umount2(mnt, 0), 0);
        mounted = false;
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_results_on_a_full_disk, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
