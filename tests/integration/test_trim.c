/* test_trim.c — fio's trims (rw=trim, randtrim, trimwrite) through `ptsbench run`:
 *   - the simulated drive (virtual time, a trim costs firmware time): randtrim's rounds have a
 *     "trim" object, its latency histogram and samples, total = trims; a read job's have none;
 *   - trimwrite on the simulated drive: as many writes as trims, within one per worker;
 *   - a zram device of the test's own (it discards): randtrim under io_uring and libaio, the
 *     results' note says the trims were synchronous (and under fio when it is installed);
 *   - a file in a temporary directory on disk: randtrim under io_uring (punched holes);
 *   - a file on a ramfs of the test's own (no punched holes) and a loop device over it (its
 *     queue's discard_max_bytes is 0): refused with exit 2 before anything is written (no
 *     results, the bytes unchanged). The ramfs and the loop device go also when a check fails.
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
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "helpers.h"

static char *dir;
static char last_err[1024];    /* the last run's stderr */
static char ramfs_mnt[600];    /* the ramfs this test mounted ("" when none) */
static char loop_dev[64];      /* the loop device this test attached ("" when none) */

static void loop_detach(void);

static int setup(void **state)
{
    (void)state;
    dir = make_temp_dir("trim");
    return dir ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    loop_detach();
    if (ramfs_mnt[0]) {
        (void)umount2(ramfs_mnt, MNT_DETACH);
        ramfs_mnt[0] = '\0';
    }
    zram_remove_all();
    remove_tree(dir);
    free(dir);
    return 0;
}

/* One 0.5 s round of workload on target under engine (NULL: the target's default), expecting
 * status; a real target gets --destructive (and memory: --allow-memory-target); a refusal is
 * one line and leaves no results. The results document (NULL when none was written). */
static struct json_object *run1(const char *name, const char *target, const char *workload,
                                const char *engine, int status)
{
    const char *extra[8];
    unsigned n = 0;
    if (engine) {
        extra[n++] = "--engine";
        extra[n++] = engine;
    }
    if (strncmp(target, "sim:", 4) != 0) {
        extra[n++] = "--destructive";
        if (strncmp(target, "/dev/", 5) != 0)
            extra[n++] = "--allow-memory-target";
    }
    extra[n] = NULL;
    struct run_opts o = {.target = target, .round_time = "500ms", .extra = extra,
                         .keep_err = true};
    struct json_object *doc = run_workload(dir, name, workload, &o);
    if (o.status != status)
        print_message("%s: exit %d, want %d; stderr: %s\n", name, o.status, status, o.err);
    assert_int_equal(o.status, status);
    snprintf(last_err, sizeof last_err, "%s", o.err ? o.err : "");
    free(o.err);
    if (status != 0) {
        assert_true(is_one_line(last_err));
        char results[4300];
        snprintf(results, sizeof results, "%s/%s/results.json", dir, name);
        assert_int_not_equal(access(results, F_OK), 0);
    }
    return doc;
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

static void test_sim_randtrim_and_a_read_job(void **state)
{
    (void)state;
    struct json_object *doc = run1("simtrim", "sim:generic-mlc25", "rw=randtrim,bs=4k,qd=8",
                                   NULL, 0);
    assert_non_null(doc);
    check_trim_round(doc);
    json_object_put(doc);

    doc = run1("simread", "sim:generic-mlc25", "rw=randread,bs=4k,qd=8", NULL, 0);
    assert_non_null(doc);
    assert_true(json_num(doc, "rounds.0.read.ios") > 0);
    assert_false(has(doc, "rounds.0.trim"));
    assert_false(has(doc, "rounds.0.lat_hist.trim"));
    assert_false(has(doc, "rounds.0.samples.trim_iops"));
    json_object_put(doc);
}

/* trimwrite at depth qd, 2 workers: writes within max_gap x k of the trims. */
static void check_trimwrite(const char *name, const char *workload, double max_gap)
{
    struct json_object *doc = run1(name, "sim:generic-mlc25", workload, NULL, 0);
    assert_non_null(doc);
    const double t = json_num(doc, "rounds.0.trim.ios"), w = json_num(doc, "rounds.0.write.ios");
    double k = json_num(doc, "target.simulated.time_scale_k");   /* I/Os a completion is */
    if (isnan(k) || k < 1)
        k = 1;
    print_message("%s: %.0f trims, %.0f writes (k %.0f)\n", workload, t, w, k);
    assert_true(t > 0);
    assert_true(t >= w);   /* each write follows its trim */
    assert_true(t - w <= max_gap * k);
    assert_true(json_num(doc, "rounds.0.total.ios") == t + w);
    assert_true(json_num(doc, "rounds.0.read.ios") == 0);
    json_object_put(doc);
}

/* Issued, trims and writes alternate; completed, a round ends with the writes of the last
 * trims still in flight: one per worker at depth 1, up to the depth per worker above (fio's
 * trimwrite, whose trims are synchronous, counts the same way). */
static void test_sim_trimwrite_as_many_writes_as_trims(void **state)
{
    (void)state;
    check_trimwrite("simtw1", "rw=trimwrite,bs=16k,qd=1,numjobs=2", 2);
    check_trimwrite("simtw4", "rw=randtrimwrite,bs=4k,qd=4,numjobs=2", 8);
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

/* Attach a loop device over file (remembered in loop_dev, detached by loop_detach or the
 * teardown); false (and a SKIP line) when there is none. */
static bool loop_attach(const char *file)
{
    char *argv[] = {"losetup", "--find", "--show", (char *)file, NULL};
    struct cmd_result r;
    if (run_cmd(argv, &r) != 0 || r.status != 0 || strncmp(r.out, "/dev/loop", 9) != 0) {
        printf("SKIP: no loop device (losetup: %s)\n", r.errout ? r.errout : "");
        cmd_result_free(&r);
        return false;
    }
    snprintf(loop_dev, sizeof loop_dev, "%s", r.out);
    loop_dev[strcspn(loop_dev, "\n")] = '\0';
    cmd_result_free(&r);
    return true;
}

static void loop_detach(void)
{
    if (!loop_dev[0])
        return;
    char *argv[] = {"losetup", "-d", loop_dev, NULL};
    (void)run_quiet(argv);
    loop_dev[0] = '\0';
}

/* ramfs punches no holes (fallocate: EOPNOTSUPP), so a loop device over a file on it has a
 * queue that cannot discard (discard_max_bytes 0), whatever the kernel: both targets are
 * refused before anything is written. */
static void test_no_discard_refused(void **state)
{
    (void)state;
    char mnt[600], img[700];
    snprintf(mnt, sizeof mnt, "%s/ramfs", dir);
    assert_int_equal(mkdir(mnt, 0700), 0);
    char *mount_argv[] = {"mount", "-t", "ramfs", "ramfs", mnt, NULL};
    if (!is_root() || run_quiet(mount_argv) != 0) {
        printf("SKIP: cannot mount a ramfs\n");
        skip();
        return;
    }
    snprintf(ramfs_mnt, sizeof ramfs_mnt, "%s", mnt);   /* unmounted by the teardown */
    snprintf(img, sizeof img, "%s/nodiscard.img", mnt);
    int fd = open(img, O_CREAT | O_WRONLY, 0600);
    assert_true(fd >= 0);
    static char buf[1 << 20];
    memset(buf, 0xa5, sizeof buf);
    for (int i = 0; i < 8; i++)
        assert_int_equal(write(fd, buf, sizeof buf), (ssize_t)sizeof buf);
    close(fd);
    const bool loop = loop_attach(img);
    if (loop) {
        struct json_object *doc = run1("nodiscard", loop_dev, "rw=randtrim,bs=4k,qd=4",
                                       "io_uring", 2);
        print_message("refused: %s", last_err);
        assert_non_null(strstr(last_err, loop_dev));   /* the line names the target */
        assert_non_null(strstr(last_err, "cannot discard"));
        assert_null(doc);   /* nothing written: no results */
        loop_detach();
    }
    /* the file itself (a memory file system: allowed for the test) */
    struct json_object *doc = run1("nodiscard-file", img, "rw=randtrim,bs=4k,qd=4", "io_uring",
                                   2);
    print_message("refused: %s", last_err);
    assert_null(doc);
    assert_non_null(strstr(last_err, img));
    assert_non_null(strstr(last_err, "cannot discard"));
    size_t len = 0;
    char *data = slurp_file(img, &len);   /* the bytes as they were */
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
        cmocka_unit_test_setup_teardown(test_sim_randtrim_and_a_read_job, setup, teardown),
        cmocka_unit_test_setup_teardown(test_sim_trimwrite_as_many_writes_as_trims, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_zram_randtrim_native_engines, setup, teardown),
        cmocka_unit_test_setup_teardown(test_file_punch_hole_io_uring, setup, teardown),
        cmocka_unit_test_setup_teardown(test_no_discard_refused, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
