/* test_faults.c — a device whose writes start failing in the middle of a run: a loop device
 * over a sparse 64 MiB file on a tmpfs of 1 MiB. Each 4 KiB random write allocates a page of
 * the file; once the tmpfs is full the loop driver fails the write (ENOSPC). With rounds of
 * 256 KiB written, the first rounds complete and a later one fails (the seed is fixed, so the
 * same round each time). ptsbench must exit 1 with exactly one line on stderr naming the device,
 * the operation and the error, and leave a results file with status "failed", the error
 * recorded, and every round the console printed as done. Before, the line named no device:
 * "round 5: worker 0: write of 4096 bytes at offset 51965952 failed: No space left on device".
 * With --engine fio a round large enough to fill the tmpfs fails the first round: fio's own
 * line ("io_u error on file DEV: ...: write offset=...") is passed on.
 *
 * The lab (tests/vmlab/faults.sh) does the same through dm-flakey, dm-error and scsi_debug,
 * for reads as well. Needs root, loop devices and losetup; skipped with a reason otherwise.
 * The tmpfs, the file and the loop device are removed on every path (teardown and atexit). */
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

static struct {
    char *tmp;
    char mnt[4200], img[4300], loop[64];
    bool mounted;
} fx;

static void detach_loop(void)
{
    if (!fx.loop[0])
        return;
    char *argv[] = {"losetup", "-d", fx.loop, NULL};
    if (run_quiet(argv) != 0)
        fprintf(stderr, "WARNING: could not detach %s\n", fx.loop);
    fx.loop[0] = '\0';
}

static void clean_all(void)
{
    detach_loop();
    if (fx.mounted && umount2(fx.mnt, MNT_DETACH) == 0)
        fx.mounted = false;
    if (fx.tmp && !fx.mounted) {
        remove_tree(fx.tmp);
        free(fx.tmp);
        fx.tmp = NULL;
    }
}

static int setup(void **state)
{
    (void)state;
    fx.tmp = make_temp_dir("faults");
    snprintf(fx.mnt, sizeof(fx.mnt), "%s/small", fx.tmp);
    snprintf(fx.img, sizeof(fx.img), "%s/disk.img", fx.mnt);
    if (mkdir(fx.mnt, 0755) != 0)
        return -1;
    atexit(clean_all);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    clean_all();
    return 0;
}

/* A fresh 1 MiB tmpfs holding a sparse 64 MiB file, on a loop device; or skip, saying why. */
static void release_loop_device(void);

static void failing_loop_device(void)
{
    release_loop_device();   /* what a failed test before left */
    if (geteuid() != 0 || access("/dev/loop-control", F_OK) != 0) {
        print_message("SKIP: needs root and loop devices\n");
        skip();
    }
    if (mount("tmpfs", fx.mnt, "tmpfs", 0, "size=1m") != 0) {
        print_message("SKIP: cannot mount a small tmpfs\n");
        skip();
    }
    fx.mounted = true;
    FILE *fp = fopen(fx.img, "w");
    assert_non_null(fp);
    assert_int_equal(ftruncate(fileno(fp), 64 << 20), 0);
    fclose(fp);
    char *argv[] = {"losetup", "-f", "--show", fx.img, NULL};
    struct cmd_result r;
    if (run_cmd(argv, &r) != 0 || r.status != 0 || strncmp(r.out, "/dev/loop", 9) != 0) {
        print_message("SKIP: losetup -f --show failed: %s\n", r.errout ? r.errout : "");
        cmd_result_free(&r);
        skip();
    }
    snprintf(fx.loop, sizeof(fx.loop), "%s", r.out);
    fx.loop[strcspn(fx.loop, "\n")] = '\0';
    cmd_result_free(&r);
}

static void release_loop_device(void)
{
    detach_loop();
    if (fx.mounted && umount2(fx.mnt, 0) == 0)
        fx.mounted = false;
}


/* Run ptsbench on the failing device with engine and round_bytes; check the line, the exit
 * status and the results file; return how many rounds completed. */
static unsigned run_to_failure(const char *engine, const char *round_bytes, const char *words)
{
    char out[4400];
    snprintf(out, sizeof(out), "%s/out-%s", fx.tmp, engine);
    char *argv[] = {(char *)ptsbench_bin(), "run", "--target", fx.loop, "--destructive",
                    "--engine", (char *)engine, "--workload", "rw=randwrite,bs=4k,qd=4",
                    "--rounds", "12", "--round-bytes", (char *)round_bytes, "--all-rounds",
                    "-o", out, NULL};
    struct cmd_result r;
    assert_int_equal(run_cmd(argv, &r), 0);
    print_message("  %s: exit %d, %s", engine, r.status, r.errout);
    if (r.status != 1 || !is_one_line(r.errout))
        fail_msg("%s: exit %d (want 1), stderr: %s", engine, r.status, r.errout);
    if (!strstr(r.errout, fx.loop) || !strstr(r.errout, words) ||
        !strstr(r.errout, "No space left on device"))
        fail_msg("%s: the line does not name the device %s, '%s' and the error: %s", engine,
                 fx.loop, words, r.errout);
    char path[4500];
    snprintf(path, sizeof(path), "%s/results.json", out);
    struct json_object *doc = load_json(path);
    assert_non_null(doc);
    assert_string_equal(json_object_get_string(json_at(doc, "status")), "failed");
    const char *error = json_object_get_string(json_at(doc, "error"));
    assert_non_null(error);
    assert_non_null(strstr(error, fx.loop));
    assert_non_null(strstr(error, "write"));
    unsigned printed = count_prefixed_lines(r.out, "round ");
    struct json_object *rounds = json_at(doc, "rounds");
    unsigned kept = rounds ? (unsigned)json_object_array_length(rounds) : 0;
    print_message("  %s: %u rounds printed, %u in the file\n", engine, printed, kept);
    assert_int_equal(printed, kept);
    json_object_put(doc);
    cmd_result_free(&r);
    return kept;
}

static void test_write_error_mid_run_names_the_device(void **state)
{
    (void)state;
    static const char *const engines[] = {"io_uring", "libaio"};
    for (size_t i = 0; i < sizeof(engines) / sizeof(engines[0]); i++) {
        failing_loop_device();
        /* 1 MiB of pages, 256 KiB a round: at least the first round completes */
        unsigned kept = run_to_failure(engines[i], "256k", "write of 4096 bytes");
        assert_true(kept >= 1);
        release_loop_device();
    }
}

static void test_write_error_with_fio(void **state)
{
    (void)state;
    if (!test_have_fio()) {
        print_message("SKIP: fio is not installed\n");
        skip();
    }
    failing_loop_device();
    /* fio runs each round with the same seed, so the same blocks: one round must fill it */
    run_to_failure("fio", "2m", "write");
    release_loop_device();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_write_error_mid_run_names_the_device),
        cmocka_unit_test(test_write_error_with_fio),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
