/* test_first_run.c — the first command a user types on a file or a device: targets that are not
 * drives are refused or labelled, everything is checked before anything is created, and
 * --dry-run of every command that does I/O prints its plan and time bound and creates nothing.
 *
 * Issue 43, driving the binary ($PTSBENCH):
 *   - a typo'd device path (/dev/NAME that does not exist) with --size: exit 2, "no such
 *     device", no file made in /dev (devtmpfs keeps it in memory: a file there measured RAM);
 *   - a file target on tmpfs (/dev/shm, when it is one): exit 2 without
 *     --allow-memory-target, naming tmpfs; with it the run completes and its results say
 *     target.memory = true (filesystem tmpfs), show labels it;
 *   - --out in /proc or on a read-only filesystem, --db in /proc: exit 2, one line, the target
 *     file not created;
 *   - --dry-run of run, suite, run-test, profile, replay and crosscheck on a zram device of the
 *     test's own holding a pattern, with --purge discard and --precondition steady where the
 *     command takes them: exit 0, the plan with its time bound, nothing created (no OUT, no
 *     target file), the device's bytes unchanged (a checksum of every byte before and after).
 * Skipped with a reason: what needs root (zram, mount), /dev/shm not tmpfs, fio absent (the
 * crosscheck case). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <fcntl.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "helpers.h"

#define TMPFS_MAGIC_ 0x01021994

struct ctx {
    char *dir;
};

static int setup(void **state)
{
    struct ctx *c = calloc(1, sizeof(*c));
    c->dir = make_temp_dir("first-run");
    if (!c->dir)
        return -1;
    *state = c;
    return 0;
}

static int teardown(void **state)
{
    struct ctx *c = *state;
    zram_remove_all();
    remove_tree(c->dir);
    free(c->dir);
    free(c);
    return 0;
}

static bool exists(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0;
}

/* How many lines text holds. */
static unsigned lines(const char *text)
{
    unsigned n = 0;
    for (const char *p = text; p && *p; p++)
        n += *p == '\n';
    return n;
}

/* Run ptsbench with args; the status, its output in *r. */
static int pb(struct cmd_result *r, const char *const *args)
{
    int st = ptsbench_run(r, args);
    if (st < 0)
        fail_msg("cannot start %s", ptsbench_bin());
    return st;
}

/* Exit 2 with one line on stderr holding want, nothing on the way to creating path. */
static void refused(const char *const *args, const char *want, const char *not_created)
{
    struct cmd_result r;
    int st = pb(&r, args);
    print_message("exit %d: %s", st, r.errout);
    const bool made = not_created && exists(not_created);
    if (made)
        unlink(not_created);   /* the old binary makes it: never leave it behind */
    assert_int_equal(st, 2);
    assert_int_equal(lines(r.errout), 1);
    assert_non_null(strstr(r.errout, want));
    assert_false(made);
    cmd_result_free(&r);
}

/* /dev/NAME that does not exist, with --size: refused as a missing device (never a file in
 * /dev); without --size the same words, and no hint to give a size. */
static void test_missing_device_path_refused(void **state)
{
    struct ctx *c = *state;
    char dev[64], out[4200];
    snprintf(dev, sizeof(dev), "/dev/ptsbench-nvme9n1-%ld", (long)getpid());
    snprintf(out, sizeof(out), "%s/out", c->dir);   /* the old binary ran and wrote here */
    const char *const with_size[] = {"run", "--target", dev, "--size", "16m", "--workload",
                                     "rw=randread,bs=4k", "--rounds", "1", "--round-time", "1",
                                     "-q", "--out", out, NULL};
    refused(with_size, "no such device", dev);
    assert_false(exists(out));
    const char *const no_size[] = {"run", "--target", dev, "--workload", "rw=randread,bs=4k",
                                   NULL};
    struct cmd_result r;
    assert_int_equal(pb(&r, no_size), 2);
    assert_non_null(strstr(r.errout, "no such device"));
    assert_null(strstr(r.errout, "give a size"));
    cmd_result_free(&r);
}

static bool on_tmpfs(const char *dir)
{
    struct statfs sf;
    return statfs(dir, &sf) == 0 && (unsigned long)sf.f_type == TMPFS_MAGIC_;
}

/* A file on tmpfs measures memory: refused without the flag (nothing created), run and
 * labelled with it. */
static void test_tmpfs_target_refused_then_labelled(void **state)
{
    struct ctx *c = *state;
    if (!on_tmpfs("/dev/shm")) {
        print_message("SKIP: /dev/shm is not a tmpfs here\n");
        skip();
    }
    char file[128], out[4200];
    snprintf(file, sizeof(file), "/dev/shm/ptsbench-first-run-%ld.dat", (long)getpid());
    snprintf(out, sizeof(out), "%s/memory", c->dir);
    unlink(file);
    const char *const args[] = {"run", "--target", file, "--size", "16m", "--workload",
                                "rw=randread,bs=4k", "--rounds", "1", "--round-time", "1",
                                "-q", "--out", out, NULL};
    struct cmd_result r;
    int st = pb(&r, args);
    const bool made = exists(file);
    unlink(file);
    print_message("without the flag: exit %d: %s", st, r.errout);
    assert_int_equal(st, 2);
    assert_false(made);
    assert_false(exists(out));
    assert_non_null(strstr(r.errout, "is on tmpfs: it measures memory, not a drive"));
    assert_non_null(strstr(r.errout, "--allow-memory-target"));
    cmd_result_free(&r);

    const char *const allowed[] = {"run", "--target", file, "--size", "16m", "--workload",
                                   "rw=randread,bs=4k", "--rounds", "1", "--round-time", "1",
                                   "-q", "--out", out, "--allow-memory-target", NULL};
    st = pb(&r, allowed);
    unlink(file);
    assert_int_equal(st, 0);
    cmd_result_free(&r);
    char results[4300];
    snprintf(results, sizeof(results), "%s/results.json", out);
    struct json_object *doc = load_json(results);
    assert_non_null(doc);
    assert_true(json_object_get_boolean(json_at(doc, "target.memory")));
    assert_string_equal(json_object_get_string(json_at(doc, "target.filesystem")), "tmpfs");
    assert_non_null(strstr(json_object_get_string(json_at(doc, "target.memory_note")),
                           "measure memory, not a drive"));
    json_object_put(doc);
    const char *const show[] = {"show", out, NULL};
    assert_int_equal(pb(&r, show), 0);
    assert_non_null(strstr(r.out, "on tmpfs: memory, not a drive"));
    cmd_result_free(&r);
}

/* --out in /proc, on a read-only filesystem, --db in /proc: refused before the target file is
 * made. */
static void test_unwritable_out_refused_first(void **state)
{
    struct ctx *c = *state;
    char file[4200];
    snprintf(file, sizeof(file), "%s/t.dat", c->dir);
    const char *const proc_out[] = {"run", "--target", file, "--size", "64m", "--workload",
                                    "rw=randread,bs=4k", "--out", "/proc/nope/x", NULL};
    refused(proc_out, "/proc", file);
    const char *const sys_out[] = {"profile", "database", "--target", file, "--size", "64m",
                                   "--out", "/sys/kernel/nope", NULL};
    refused(sys_out, "sysfs", file);
    char db[4200], db_out[4200];
    snprintf(db, sizeof(db), "/proc/nope/h.db");
    snprintf(db_out, sizeof(db_out), "%s/db-out", c->dir);
    const char *const proc_db[] = {"run", "--target", file, "--size", "64m", "--workload",
                                   "rw=randread,bs=4k", "--rounds", "1", "--round-time", "1",
                                   "-q", "--db", db, "--out", db_out, NULL};
    refused(proc_db, "--db /proc/nope/h.db", file);
    assert_false(exists(db_out));

    char ro[4200], out[4300];
    snprintf(ro, sizeof(ro), "%s/ro", c->dir);
    assert_int_equal(mkdir(ro, 0755), 0);
    if (geteuid() != 0 || mount("tmpfs", ro, "tmpfs", MS_RDONLY, "size=64k") != 0) {
        print_message("SKIP (read-only part): cannot mount a read-only tmpfs (needs root)\n");
        return;
    }
    snprintf(out, sizeof(out), "%s/out", ro);
    const char *const ro_out[] = {"run", "--target", file, "--size", "64m", "--workload",
                                  "rw=randread,bs=4k", "--out", out, NULL};
    refused(ro_out, "Read-only file system", file);
    umount(ro);
}

/* A checksum of every byte of path (FNV-1a, 64 bits). */
static uint64_t device_sum(const char *path)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    assert_true(fd >= 0);
    static unsigned char buf[1 << 20];
    uint64_t h = 1469598103934665603ull;
    ssize_t n;
    while ((n = read(fd, buf, sizeof(buf))) > 0)
        for (ssize_t i = 0; i < n; i++)
            h = (h ^ buf[i]) * 1099511628211ull;
    close(fd);
    return h;
}

/* A pattern over the whole device, so that a purge (discard: zeros) or a write shows. */
static void fill_pattern(const char *path)
{
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    assert_true(fd >= 0);
    static unsigned char buf[1 << 20];
    for (size_t i = 0; i < sizeof(buf); i++)
        buf[i] = (unsigned char)(0x5a ^ (i * 7));
    while (write(fd, buf, sizeof(buf)) == (ssize_t)sizeof(buf))
        ;
    fsync(fd);
    close(fd);
}

/* One command's dry run: exit 0, its plan with a time bound (bound: words the bound line
 * holds), the dry run's list, and nothing created. */
static void dry_run(const char *const *args, const char *out, const char *file,
                    const char *bound)
{
    struct cmd_result r;
    int st = pb(&r, args);
    print_message("%s %s: exit %d\n%s%s", args[0], args[1], st, r.out, r.errout);
    const bool made = file && exists(file);
    if (made)
        unlink(file);
    assert_int_equal(st, 0);
    assert_non_null(strstr(r.out, "dry run: nothing was created or written"));
    assert_non_null(strstr(r.out, bound));
    assert_false(exists(out));
    assert_false(made);
    cmd_result_free(&r);
}

static void test_dry_run_every_command(void **state)
{
    struct ctx *c = *state;
    char dev[64];
    if (!zram_create("64M", dev, sizeof(dev)))
        skip();
    fill_pattern(dev);
    const uint64_t before = device_sum(dev);
    char out[4200], file[4200];
    snprintf(out, sizeof(out), "%s/out", c->dir);
    snprintf(file, sizeof(file), "%s/new.dat", c->dir);
    const char *wl = "rw=randwrite,bs=4k";

    const char *const run[] = {"run", "--target", dev, "--workload", wl, "--purge", "discard",
                               "--precondition", "steady", "--destructive", "--dry-run",
                               "--out", out, NULL};
    dry_run(run, out, NULL, "up to 25 rounds of 60 s: at most 25 min, plus the purge");
    const char *const run_file[] = {"run", "--target", file, "--size", "64m", "--workload", wl,
                                    "--dry-run", "--out", out, NULL};
    dry_run(run_file, out, file, "create  ");
    const char *const suite[] = {"suite", "--target", dev, "--tests", "iops,lat", "--purge",
                                 "discard", "--destructive", "--dry-run", "--out", out, NULL};
    dry_run(suite, out, NULL, "at most ");
    const char *const run_test[] = {"run-test", "iops", "--target", dev, "--purge", "discard",
                                    "--destructive", "--dry-run", "--out", out, NULL};
    dry_run(run_test, out, NULL, "at most ");
    const char *const profile[] = {"profile", "database", "--target", dev, "--purge", "discard",
                                   "--precondition", "steady", "--destructive", "--dry-run",
                                   "--out", out, NULL};
    dry_run(profile, out, NULL, ", at most ");
    const char *const profile_file[] = {"profile", "database", "--target", file, "--size",
                                        "64m", "--dry-run", "--out", out, NULL};
    dry_run(profile_file, out, file, "create  ");
    const char *const replay[] = {"replay", "gen:mail-server", "--target", dev, "--destructive",
                                  "--dry-run", "--out", out, NULL};
    dry_run(replay, out, NULL, "time    1 pass");
    const char *const replay_file[] = {"replay", "gen:mail-server", "--target", file, "--size",
                                       "64m", "--dry-run", "--out", out, NULL};
    dry_run(replay_file, out, file, "create  ");
    if (test_have_fio()) {
        const char *const xc[] = {"crosscheck", "--target", dev, "--workload", wl,
                                  "--destructive", "--dry-run", "--out", out, NULL};
        dry_run(xc, out, NULL, "4 runs of one 10 s round: at most 40 s");
        const char *const xc_file[] = {"crosscheck", "--target", file, "--size", "64m",
                                       "--workload", wl, "--dry-run", "--out", out, NULL};
        dry_run(xc_file, out, file, "create  ");
    }
    assert_true(device_sum(dev) == before);   /* no purge, no WIPC, no byte written */
    zram_remove(dev);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_missing_device_path_refused, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tmpfs_target_refused_then_labelled, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_unwritable_out_refused_first, setup, teardown),
        cmocka_unit_test_setup_teardown(test_dry_run_every_command, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
