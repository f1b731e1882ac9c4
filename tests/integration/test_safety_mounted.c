/* test_safety_mounted.c — the CLI refuses to write to a block device that holds a mounted
 * filesystem (even with --destructive), and to any block device without --destructive; the
 * filesystem on it is untouched afterwards (e2fsck -fn clean, a known file intact).
 *
 * Each test builds its own 64 MiB image in a temp dir under /var/tmp, attaches it with
 * `losetup -f --show`, makes ext4 on it and mounts it; the teardown unmounts, detaches and
 * removes everything whatever happened in the test.  Needs root, losetup, mkfs.ext4, e2fsck,
 * mount and umount; skips with the reason printed otherwise. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "helpers.h"

#define IMG_SIZE (64ll << 20)
#define CANARY_NAME "canary.txt"

struct fixture {
    char skip_reason[256];       /* set: every test skips with this reason */
    char setup_error[3 * PATH_MAX]; /* set: every test fails with this message */
    char *dir;                   /* temp dir (image, mount point, out dir) */
    char img[PATH_MAX];
    char mnt[PATH_MAX];
    char loop[64];               /* "/dev/loopN" once attached */
    bool attached;
    bool mounted;
    char canary[4096];           /* what we wrote into the filesystem */
    char losetup[PATH_MAX], mkfs[PATH_MAX], e2fsck[PATH_MAX], mount[PATH_MAX],
         umount[PATH_MAX];
};

static struct fixture fx;

/* Full path of a program from $PATH or the usual sbin directories (root's PATH may lack
 * them under sudo or in CI). */
static bool find_tool(const char *name, char *out, size_t len)
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

/* Run argv; on failure return false with a description in fx.setup_error-like buffer. */
static bool run_ok(char *const argv[], char *why, size_t whylen)
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

static bool do_mount(bool readonly, char *why, size_t whylen)
{
    char *argv_rw[] = {fx.mount, "-t", "ext4", fx.loop, fx.mnt, NULL};
    char *argv_ro[] = {fx.mount, "-t", "ext4", "-o", "ro", fx.loop, fx.mnt, NULL};
    if (!run_ok(readonly ? argv_ro : argv_rw, why, whylen))
        return false;
    fx.mounted = true;
    return true;
}

static bool do_umount(char *why, size_t whylen)
{
    if (!fx.mounted)
        return true;
    char *argv[] = {fx.umount, fx.mnt, NULL};
    for (int i = 0; i < 10; i++) {
        if (run_ok(argv, why, whylen)) {
            fx.mounted = false;
            return true;
        }
        usleep(200 * 1000);      /* transiently busy */
    }
    return false;
}

static void cleanup(void)
{
    char why[1024];
    if (fx.mounted && !do_umount(why, sizeof(why))) {
        /* Last resort for our own mount point only. */
        char *argv[] = {fx.umount, "-l", fx.mnt, NULL};
        if (run_ok(argv, why, sizeof(why)))
            fx.mounted = false;
        else
            fprintf(stderr, "WARNING: could not unmount %s: %s\n", fx.mnt, why);
    }
    if (fx.attached) {
        char *argv[] = {fx.losetup, "-d", fx.loop, NULL};
        if (run_ok(argv, why, sizeof(why)))
            fx.attached = false;
        else
            fprintf(stderr, "WARNING: could not detach %s: %s\n", fx.loop, why);
    }
    /* Never walk into a filesystem that is still mounted: that would delete its files. */
    if (fx.dir && !fx.mounted)
        remove_tree(fx.dir);
    else if (fx.dir)
        fprintf(stderr, "WARNING: left %s behind (still mounted)\n", fx.dir);
    free(fx.dir);
    fx.dir = NULL;
}

static int setup(void **state)
{
    (void)state;
    memset(&fx, 0, sizeof(fx));
    if (!is_root()) {
        snprintf(fx.skip_reason, sizeof(fx.skip_reason),
                 "loop devices and mounting need root");
        return 0;
    }
    static const char *const names[] = {"losetup", "mkfs.ext4", "e2fsck", "mount", "umount"};
    char *outs[] = {fx.losetup, fx.mkfs, fx.e2fsck, fx.mount, fx.umount};
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        if (!find_tool(names[i], outs[i], PATH_MAX)) {
            snprintf(fx.skip_reason, sizeof(fx.skip_reason), "%s is not installed", names[i]);
            return 0;
        }
    }
    if (access("/dev/loop-control", F_OK) != 0) {
        snprintf(fx.skip_reason, sizeof(fx.skip_reason), "no loop device support "
                 "(/dev/loop-control missing)");
        return 0;
    }

    char *why = fx.setup_error;
    size_t whylen = sizeof(fx.setup_error);
    fx.dir = make_temp_dir("safety-mounted");
    if (!fx.dir) {
        snprintf(why, whylen, "cannot make a temp dir: %s", strerror(errno));
        return 0;
    }
    snprintf(fx.img, sizeof(fx.img), "%s/disk.img", fx.dir);
    snprintf(fx.mnt, sizeof(fx.mnt), "%s/mnt", fx.dir);
    if (mkdir(fx.mnt, 0755) != 0) {
        snprintf(why, whylen, "mkdir %s: %s", fx.mnt, strerror(errno));
        goto fail;
    }
    int fd = open(fx.img, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0 || ftruncate(fd, IMG_SIZE) != 0) {
        snprintf(why, whylen, "cannot create %s: %s", fx.img, strerror(errno));
        if (fd >= 0)
            close(fd);
        goto fail;
    }
    close(fd);

    char *attach[] = {fx.losetup, "-f", "--show", fx.img, NULL};
    struct cmd_result r;
    if (run_cmd(attach, &r) != 0) {
        snprintf(why, whylen, "cannot run %s", fx.losetup);
        goto fail;
    }
    char *nl = strchr(r.out, '\n');
    if (nl)
        *nl = '\0';
    if (r.status != 0 || strncmp(r.out, "/dev/loop", 9) != 0) {
        /* No free loop device is the machine's limit, not a failure of ptsbench. */
        snprintf(fx.skip_reason, sizeof(fx.skip_reason), "losetup -f --show failed "
                 "(status %d): %s", r.status, r.errout);
        cmd_result_free(&r);
        cleanup();
        return 0;
    }
    snprintf(fx.loop, sizeof(fx.loop), "%s", r.out);
    fx.attached = true;
    cmd_result_free(&r);

    char *mkfs[] = {fx.mkfs, "-q", "-F", fx.loop, NULL};
    if (!run_ok(mkfs, why, whylen))
        goto fail;
    if (!do_mount(false, why, whylen))
        goto fail;

    /* A file with known content, synced to the device. */
    size_t off = 0;
    for (int i = 0; off + 64 < sizeof(fx.canary); i++)
        off += (size_t)snprintf(fx.canary + off, sizeof(fx.canary) - off,
                                "ptsbench safety canary line %04d\n", i);
    char cpath[PATH_MAX + 32];
    snprintf(cpath, sizeof(cpath), "%s/%s", fx.mnt, CANARY_NAME);
    fd = open(cpath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0 || write(fd, fx.canary, strlen(fx.canary)) != (ssize_t)strlen(fx.canary) ||
        fsync(fd) != 0) {
        snprintf(why, whylen, "cannot write %s: %s", cpath, strerror(errno));
        if (fd >= 0)
            close(fd);
        goto fail;
    }
    close(fd);
    sync();
    return 0;

fail:
    cleanup();
    return 0;                 /* the test reports setup_error as its failure */
}

static int teardown(void **state)
{
    (void)state;
    cleanup();
    return 0;
}

static void check_preconditions(void)
{
    if (fx.skip_reason[0]) {
        printf("SKIP: %s\n", fx.skip_reason);
        skip();
    }
    if (fx.setup_error[0])
        fail_msg("setup failed: %s", fx.setup_error);
    if (access(ptsbench_bin(), X_OK) != 0)
        fail_msg("ptsbench binary %s not found (build it first, or set $PTSBENCH)",
                 ptsbench_bin());
}

/* ptsbench run --target LOOP --workload rw=randwrite,bs=4k [--destructive] ... */
static void run_write(bool destructive, const char *outdir, struct cmd_result *r)
{
    char *argv[20];
    int n = 0;
    argv[n++] = (char *)ptsbench_bin();
    argv[n++] = "run";
    argv[n++] = "--target";
    argv[n++] = fx.loop;
    argv[n++] = "--workload";
    argv[n++] = "rw=randwrite,bs=4k";
    if (destructive)
        argv[n++] = "--destructive";
    argv[n++] = "--rounds";
    argv[n++] = "1";
    argv[n++] = "--round-time";
    argv[n++] = "1";
    argv[n++] = "--out";
    argv[n++] = (char *)outdir;
    argv[n] = NULL;
    assert_int_equal(run_cmd(argv, r), 0);
    printf("  ptsbench exit %d\n  stdout: %s\n  stderr: %s\n", r->status, r->out, r->errout);
}

static void assert_out_absent(const char *outdir)
{
    struct stat sb;
    if (stat(outdir, &sb) == 0)
        fail_msg("the refused run created its output directory %s", outdir);
    assert_int_equal(errno, ENOENT);
}

/* The filesystem must be exactly as we left it: fsck clean, canary intact. Leaves it
 * unmounted. */
static void check_filesystem_intact(void)
{
    char why[1024];
    if (!do_umount(why, sizeof(why)))
        fail_msg("umount: %s", why);

    char *fsck[] = {fx.e2fsck, "-fn", fx.loop, NULL};
    struct cmd_result r;
    assert_int_equal(run_cmd(fsck, &r), 0);
    if (r.status != 0)
        printf("  e2fsck: %s%s\n", r.out, r.errout);
    int st = r.status;
    cmd_result_free(&r);
    if (st != 0)
        fail_msg("e2fsck -fn %s exited %d: the filesystem was damaged", fx.loop, st);

    if (!do_mount(true, why, sizeof(why)))
        fail_msg("mount -o ro: %s", why);
    char cpath[PATH_MAX + 32];
    snprintf(cpath, sizeof(cpath), "%s/%s", fx.mnt, CANARY_NAME);
    static char buf[sizeof(fx.canary) + 16];
    int fd = open(cpath, O_RDONLY | O_CLOEXEC);
    assert_true(fd >= 0);
    ssize_t got = read(fd, buf, sizeof(buf) - 1);
    close(fd);
    assert_true(got >= 0);
    buf[got] = '\0';
    assert_string_equal(buf, fx.canary);
    if (!do_umount(why, sizeof(why)))
        fail_msg("umount: %s", why);
}

static void test_mounted_refused_even_with_destructive(void **state)
{
    (void)state;
    check_preconditions();
    assert_true(fx.mounted);
    char outdir[PATH_MAX + 8];
    snprintf(outdir, sizeof(outdir), "%s/out", fx.dir);

    struct cmd_result r;
    run_write(true, outdir, &r);
    int st = r.status;
    bool says_mounted = strstr(r.errout, "mounted") != NULL;
    cmd_result_free(&r);
    if (st != 2)
        fail_msg("expected exit status 2 (refused), got %d", st);
    if (!says_mounted)
        fail_msg("stderr does not mention \"mounted\"");
    assert_out_absent(outdir);

    check_filesystem_intact();
}

static void test_unmounted_needs_destructive(void **state)
{
    (void)state;
    check_preconditions();
    char why[1024];
    if (!do_umount(why, sizeof(why)))
        fail_msg("umount: %s", why);
    char outdir[PATH_MAX + 8];
    snprintf(outdir, sizeof(outdir), "%s/out", fx.dir);

    struct cmd_result r;
    run_write(false, outdir, &r);
    int st = r.status;
    bool names_flag = strstr(r.errout, "--destructive") != NULL;
    cmd_result_free(&r);
    if (st != 2)
        fail_msg("expected exit status 2 (refused), got %d", st);
    if (!names_flag)
        fail_msg("stderr does not name --destructive");
    assert_out_absent(outdir);

    check_filesystem_intact();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_mounted_refused_even_with_destructive, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_unmounted_needs_destructive, setup, teardown),
    };
    return cmocka_run_group_tests_name("safety_mounted", tests, NULL, NULL);
}
