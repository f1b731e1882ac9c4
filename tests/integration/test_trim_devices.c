/* test_trim_devices.c — fio's trims (rw=randtrim) through `ptsbench run` on real targets
 * (the simulated drive's: test_trim.c):
 *   - a zram device of the test's own (it discards): randtrim under io_uring and libaio, the
 *     results' note says the trims were synchronous (and under fio when it is installed);
 *   - a file in a temporary directory on disk: randtrim under io_uring (punched holes);
 *   - a file on a ramfs of the test's own (no punched holes) and a loop device over it (its
 *     queue's discard_max_bytes is 0): refused with exit 2 before anything is written (no
 *     results, the bytes unchanged).
 * Every run is one round of 0.5 s. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <fcntl.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "helpers.h"

static char *dir;
static char last_err[1024];   /* the last run's stderr */

static int setup(void **state)
{
    (void)state;
    dir = make_temp_dir("trim");
    return dir ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    zram_remove_all();
    remove_tree(dir);
    free(dir);
    return 0;
}

/* One 0.5 s round of workload on target (extra: one more argument or NULL), expecting status;
 * the results document (NULL when none was written). */
static struct json_object *run1(const char *name, const char *target, const char *workload,
                                const char *engine, int status)
{
    char out[600], results[700];
    snprintf(out, sizeof out, "%s/%s", dir, name);
    char *argv[20];
    int n = 0;
    argv[n++] = (char *)ptsbench_bin();
    argv[n++] = "run";
    argv[n++] = "--target";
    argv[n++] = (char *)target;
    argv[n++] = "--workload";
    argv[n++] = (char *)workload;
    argv[n++] = "--rounds";
    argv[n++] = "1";
    argv[n++] = "--round-time";
    argv[n++] = "500ms";
    argv[n++] = "--quiet";
    argv[n++] = "--out";
    argv[n++] = out;
    if (engine) {
        argv[n++] = "--engine";
        argv[n++] = (char *)engine;
    }
    if (strncmp(target, "sim:", 4) != 0)
        argv[n++] = "--destructive";
    argv[n] = NULL;
    struct cmd_result r;
    assert_int_equal(run_cmd(argv, &r), 0);
    if (r.status != status)
        print_message("%s: exit %d, want %d; stderr: %s\n", name, r.status, status, r.errout);
    assert_int_equal(r.status, status);
    snprintf(last_err, sizeof last_err, "%s", r.errout ? r.errout : "");
    if (status == 2)
        assert_true(is_one_line(r.errout));
    cmd_result_free(&r);
    snprintf(results, sizeof results, "%s/results.json", out);
    return access(results, F_OK) == 0 ? load_json(results) : NULL;
}

static bool has(struct json_object *doc, const char *dotted)
{
    return json_at(doc, dotted) != NULL;
}

/* A trims-only round: trims counted, total = trims, no reads or writes, histogram and samples. */
static void check_trim_round(struct json_object *doc)
{
    const double t = json_num(doc, "rounds.0.trim.ios");
    print_message("trims %.0f, IOPS %.0f, mean %.1f us\n", t, json_num(doc, "rounds.0.trim.iops"),
                  json_num(doc, "rounds.0.trim.lat_us.mean"));
    assert_true(t > 0);
    assert_true(json_num(doc, "rounds.0.total.ios") == t);
    assert_true(json_num(doc, "rounds.0.read.ios") == 0);
    assert_true(json_num(doc, "rounds.0.write.ios") == 0);
    assert_true(json_num(doc, "rounds.0.trim.lat_us.mean") > 0);
    assert_true(has(doc, "rounds.0.lat_hist.trim"));
    assert_true(has(doc, "rounds.0.samples.trim_iops"));
}

static void check_sync_note(struct json_object *doc)
{
    struct json_object *note = json_at(doc, "workload.note");
    assert_non_null(note);
    assert_non_null(strstr(json_object_get_string(note), "trims issued synchronously"));
}

static void test_zram_randtrim_native_engines(void **state)
{
    (void)state;
    char dev[64];
    if (!is_root() || !zram_create("64M", dev, sizeof dev)) {
        skip();
        return;
    }
    const char *const engines[] = {"io_uring", "libaio"};
    for (unsigned i = 0; i < 2; i++) {
        char name[32];
        snprintf(name, sizeof name, "zram-%s", engines[i]);
        struct json_object *doc = run1(name, dev, "rw=randtrim,bs=4k,qd=4", engines[i], 0);
        assert_non_null(doc);
        check_trim_round(doc);
        check_sync_note(doc);
        json_object_put(doc);
    }
    if (test_have_fio()) {   /* fio's own trims, its JSON's "trim" */
        struct json_object *doc = run1("zram-fio", dev, "rw=randtrim,bs=4k,qd=4", "fio", 0);
        assert_non_null(doc);
        check_trim_round(doc);
        json_object_put(doc);
    }
    zram_remove(dev);
}

static void test_file_punch_hole_io_uring(void **state)
{
    (void)state;
    char file[600];
    snprintf(file, sizeof file, "%s/trim.img", dir);
    int fd = open(file, O_CREAT | O_WRONLY, 0600);   /* 16 MiB of data, then punched */
    assert_true(fd >= 0);
    static char buf[1 << 20];
    memset(buf, 0x5a, sizeof buf);
    for (int i = 0; i < 16; i++)
        assert_int_equal(write(fd, buf, sizeof buf), (ssize_t)sizeof buf);
    close(fd);
    struct stat before, after;
    assert_int_equal(stat(file, &before), 0);
    struct json_object *doc = run1("file", file, "rw=randtrim,bs=64k,qd=4", "io_uring", 0);
    assert_non_null(doc);
    check_trim_round(doc);
    check_sync_note(doc);
    json_object_put(doc);
    assert_int_equal(stat(file, &after), 0);
    print_message("file: %lld -> %lld blocks allocated\n", (long long)before.st_blocks,
                  (long long)after.st_blocks);
    assert_true(after.st_blocks < before.st_blocks);   /* holes punched */
    assert_true(after.st_size == before.st_size);      /* KEEP_SIZE */
}

static bool loop_attach(const char *file, char *dev, size_t len)
{
    char *argv[] = {"losetup", "--find", "--show", (char *)file, NULL};
    struct cmd_result r;
    if (run_cmd(argv, &r) != 0 || r.status != 0 || strncmp(r.out, "/dev/loop", 9) != 0) {
        printf("SKIP: no loop device (losetup: %s)\n", r.errout ? r.errout : "");
        cmd_result_free(&r);
        return false;
    }
    snprintf(dev, len, "%s", r.out);
    dev[strcspn(dev, "\n")] = '\0';
    cmd_result_free(&r);
    return true;
}

static void loop_detach(const char *dev)
{
    char *argv[] = {"losetup", "-d", (char *)dev, NULL};
    (void)run_quiet(argv);
}

/* ramfs punches no holes (fallocate: EOPNOTSUPP), so a loop device over a file on it has a
 * queue that cannot discard (discard_max_bytes 0), whatever the kernel: both targets are
 * refused before anything is written. */
static void test_no_discard_refused(void **state)
{
    (void)state;
    char mnt[600], img[700], dev[64];
    snprintf(mnt, sizeof mnt, "%s/ramfs", dir);
    assert_int_equal(mkdir(mnt, 0700), 0);
    char *mount_argv[] = {"mount", "-t", "ramfs", "ramfs", mnt, NULL};
    if (!is_root() || run_quiet(mount_argv) != 0) {
        printf("SKIP: cannot mount a ramfs\n");
        skip();
        return;
    }
    snprintf(img, sizeof img, "%s/nodiscard.img", mnt);
    int fd = open(img, O_CREAT | O_WRONLY, 0600);
    assert_true(fd >= 0);
    static char buf[1 << 20];
    memset(buf, 0xa5, sizeof buf);
    for (int i = 0; i < 8; i++)
        assert_int_equal(write(fd, buf, sizeof buf), (ssize_t)sizeof buf);
    close(fd);
    char *umount_argv[] = {"umount", mnt, NULL};
    const bool loop = loop_attach(img, dev, sizeof dev);
    if (loop) {
        struct json_object *doc = run1("nodiscard", dev, "rw=randtrim,bs=4k,qd=4", "io_uring", 2);
        loop_detach(dev);
        print_message("refused: %s", last_err);
        assert_non_null(strstr(last_err, dev));   /* the line names the target */
        assert_non_null(strstr(last_err, "cannot discard"));
        assert_null(doc);   /* nothing written: no results */
    }
    /* the file itself (a memory file system: allowed for the test) */
    char out[700];
    snprintf(out, sizeof out, "%s/nodiscard-file", dir);
    char *argv[] = {(char *)ptsbench_bin(), "run", "--target", img, "--workload",
                    "rw=randtrim,bs=4k,qd=4", "--rounds", "1", "--round-time", "500ms",
                    "--allow-memory-target", "--destructive", "--quiet", "--out", out, NULL};
    struct cmd_result r;
    assert_int_equal(run_cmd(argv, &r), 0);
    print_message("refused: %s", r.errout);
    assert_int_equal(r.status, 2);
    assert_true(is_one_line(r.errout));
    assert_non_null(strstr(r.errout, img));
    assert_non_null(strstr(r.errout, "cannot discard"));
    cmd_result_free(&r);
    assert_int_not_equal(access(out, F_OK), 0);
    size_t len = 0;
    char *data = slurp_file(img, &len);   /* the bytes as they were */
    (void)run_quiet(umount_argv);
    assert_non_null(data);
    assert_int_equal(len, 8u << 20);
    for (size_t i = 0; i < len; i += 4096)
        assert_int_equal((unsigned char)data[i], 0xa5);
    free(data);
    if (!loop)
        skip();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_zram_randtrim_native_engines, setup, teardown),
        cmocka_unit_test_setup_teardown(test_file_punch_hole_io_uring, setup, teardown),
        cmocka_unit_test_setup_teardown(test_no_discard_refused, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
