/* test_safety_mounted.c — the CLI refuses to write to a block device that holds a mounted
 * filesystem (even with --destructive), to any block device without --destructive, to a
 * device that holds a signature (ext4, a dos partition table, an LVM physical volume, a swap
 * area) without --overwrite-signatures as well, and to a second loop device over the file
 * of a mounted one; every writing command (run, run with preconditioning, run-test, profile
 * with --purge discard, see safety_cli.h) is refused with one line and exit status 2, and the
 * device is untouched afterwards (e2fsck -fn clean and a known file intact, or the image's
 * CRC-32 unchanged).  --destructive --overwrite-signatures then does write (the control).
 *
 * Each test builds its own 64 MiB image in a temp dir under /var/tmp, attaches it with
 * `losetup -f --show`, and puts on it what the test needs (ext4, mounted, with a canary
 * file; or a signature written before attaching); the teardown unmounts, detaches and removes
 * everything whatever happened in the test.  Needs root, losetup, mkfs.ext4, e2fsck, mount
 * and umount; skips with the reason printed otherwise (the swap case also needs mkswap; the
 * LVM case uses pvcreate when installed, else writes the label by hand, safety_images.h).
 * It never writes to a device it did not create. */
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
#include "safety_cli.h"
#include "safety_images.h"

#define IMG_SIZE (64ll << 20)
#define CANARY_NAME "canary.txt"

/* What the image holds when the test starts (the prestate of each test). */
enum fx_kind { FX_EXT4_MOUNTED, FX_DOS, FX_LVM, FX_SWAP };

struct fixture {
    enum fx_kind kind;
    char skip_reason[256];       /* set: every test skips with this reason */
    char setup_error[3 * PATH_MAX]; /* set: every test fails with this message */
    char *dir;                   /* temp dir (image, mount point, out dir) */
    char img[PATH_MAX];
    char mnt[PATH_MAX];
    char loop[64];               /* "/dev/loopN" once attached */
    bool attached;
    char loop2[64];              /* a second loop device over the same image */
    bool attached2;
    bool mounted;
    char canary[4096];           /* what we wrote into the filesystem */
    char losetup[PATH_MAX], mkfs[PATH_MAX], e2fsck[PATH_MAX], mount[PATH_MAX],
         umount[PATH_MAX];
};

static struct fixture fx;

#define find_tool sc_find_tool
#define run_ok sc_run_ok

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
    if (fx.attached2) {
        char *argv[] = {fx.losetup, "-d", fx.loop2, NULL};
        if (run_ok(argv, why, sizeof(why)))
            fx.attached2 = false;
        else
            fprintf(stderr, "WARNING: could not detach %s: %s\n", fx.loop2, why);
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

/* An LVM2 physical volume on fx.loop: pvcreate when installed, else the label by hand
 * (safety_images.h); skip when libblkid does not see LVM2_member either way. */
static bool setup_lvm(char *why, size_t whylen)
{
    char pvcreate[PATH_MAX], blkid[PATH_MAX];
    if (sc_find_tool("pvcreate", pvcreate, sizeof(pvcreate))) {
        char *argv[] = {pvcreate, "-ff", "-y", fx.loop, NULL};
        if (!run_ok(argv, why, whylen))
            return false;
    } else {
        printf("  (pvcreate is not installed: the LVM2 label is written by hand)\n");
        if (!img_write_lvm_label(fx.loop, IMG_SIZE)) {
            snprintf(why, whylen, "cannot write an LVM2 label to %s", fx.loop);
            return false;
        }
    }
    if (!sc_find_tool("blkid", blkid, sizeof(blkid))) {
        snprintf(fx.skip_reason, sizeof(fx.skip_reason), "blkid is not installed (needed to "
                 "confirm the LVM2 label)");
        return false;
    }
    char *argv[] = {blkid, "-p", "-o", "value", "-s", "TYPE", fx.loop, NULL};
    struct cmd_result r;
    if (run_cmd(argv, &r) != 0 || !strstr(r.out, "LVM2_member")) {
        snprintf(fx.skip_reason, sizeof(fx.skip_reason), "blkid does not see an LVM2_member "
                 "on %s after writing the label (%s)", fx.loop, r.out ? r.out : "");
        cmd_result_free(&r);
        return false;
    }
    cmd_result_free(&r);
    return true;
}

static int setup(void **state)
{
    memset(&fx, 0, sizeof(fx));
    fx.kind = *state ? *(const enum fx_kind *)*state : FX_EXT4_MOUNTED;
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

    /* Signatures are written into the image before it is attached. */
    if (fx.kind == FX_DOS && !img_write_dos(fx.img)) {
        snprintf(why, whylen, "cannot write a partition table into %s", fx.img);
        goto fail;
    }
    if (fx.kind == FX_SWAP) {
        char mkswap[PATH_MAX];
        if (!find_tool("mkswap", mkswap, sizeof(mkswap))) {
            snprintf(fx.skip_reason, sizeof(fx.skip_reason), "mkswap is not installed");
            cleanup();
            return 0;
        }
        char *argv[] = {mkswap, fx.img, NULL};
        if (!run_ok(argv, why, whylen))
            goto fail;
    }

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
    if (fx.kind == FX_LVM) {
        if (!setup_lvm(why, whylen))
            cleanup();
        return 0;
    }
    if (fx.kind != FX_EXT4_MOUNTED)
        return 0;

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

static const char *const no_flags[] = {NULL};
static const char *const destructive[] = {"--destructive", NULL};
static const char *const confirmed[] = {"--destructive", "--overwrite-signatures", NULL};

static uint32_t image_crc(void)
{
    uint32_t crc = 0;
    if (!img_checksum(fx.img, &crc, NULL))
        fail_msg("cannot read %s", fx.img);
    return crc;
}

static void test_mounted_refused_even_with_destructive(void **state)
{
    (void)state;
    check_preconditions();
    assert_true(fx.mounted);
    const char *const *flags[] = {destructive, confirmed, NULL};
    const char *const want[] = {fx.loop, "even with --destructive", "mounted", NULL};
    sc_expect_all_refused(fx.loop, flags, want, fx.dir, false);
    check_filesystem_intact();
}

static void test_unmounted_needs_destructive(void **state)
{
    (void)state;
    check_preconditions();
    char why[1024];
    if (!do_umount(why, sizeof(why)))
        fail_msg("umount: %s", why);
    uint32_t before = image_crc();
    const char *const *flags[] = {no_flags, NULL};
    const char *const want[] = {fx.loop, "without --destructive", NULL};
    sc_expect_all_refused(fx.loop, flags, want, fx.dir, false);
    assert_int_equal(image_crc(), before);
    check_filesystem_intact();
}

/* The device holds a signature: --destructive alone is refused (naming what was found), the
 * bytes stay as they were; --destructive --overwrite-signatures writes. */
static void check_signature_refused_then_confirmed(const char *words)
{
    uint32_t before = image_crc();
    const char *const *flags[] = {no_flags, NULL};
    const char *const want_flag[] = {"without --destructive", words, NULL};
    sc_expect_all_refused(fx.loop, flags, want_flag, fx.dir, false);
    const char *const *flags2[] = {destructive, NULL};
    const char *const want[] = {fx.loop, words, "add --overwrite-signatures to confirm", NULL};
    sc_expect_all_refused(fx.loop, flags2, want, fx.dir, false);
    if (image_crc() != before)
        fail_msg("a refused command changed %s", fx.img);

    const char *const ok[] = {"run", "--target", fx.loop, "--workload", "rw=randwrite,bs=64k",
                              "--rounds", "1", "--round-time", "1", "--destructive",
                              "--overwrite-signatures", "-q", NULL};
    sc_expect_ok(ok, fx.dir);
    if (image_crc() == before)
        fail_msg("the confirmed run did not write to %s", fx.loop);
}

static void test_ext4_needs_overwrite_signatures(void **state)
{
    (void)state;
    check_preconditions();
    char why[1024];
    if (!do_umount(why, sizeof(why)))
        fail_msg("umount: %s", why);
    check_signature_refused_then_confirmed("an ext4 filesystem (UUID ");
}

static void test_dos_table_needs_overwrite_signatures(void **state)
{
    (void)state;
    check_preconditions();
    check_signature_refused_then_confirmed("a dos partition table (UUID 5054c0de)");
}

static void test_lvm_pv_needs_overwrite_signatures(void **state)
{
    (void)state;
    check_preconditions();
    check_signature_refused_then_confirmed("an LVM physical volume (LVM2_member");
}

static void test_swap_area_needs_overwrite_signatures(void **state)
{
    (void)state;
    check_preconditions();
    check_signature_refused_then_confirmed("a swap area (swap");
}

/* A second loop device over the image of the mounted one: writing it writes the mounted
 * filesystem, so it is refused whatever the flags. */
static void test_second_loop_over_mounted_file(void **state)
{
    (void)state;
    check_preconditions();
    assert_true(fx.mounted);
    char why[1024];
    if (!sc_attach(fx.losetup, fx.img, fx.loop2, sizeof(fx.loop2), why, sizeof(why)))
        fail_msg("%s", why);
    fx.attached2 = true;
    printf("  %s and %s over %s, %s mounted\n", fx.loop, fx.loop2, fx.img, fx.loop);
    const char *const *flags[] = {no_flags, destructive, NULL};
    const char *const want[] = {fx.loop2 + 5, NULL};
    sc_expect_all_refused(fx.loop2, flags, want, fx.dir, false);
    const char *const *flags2[] = {confirmed, NULL};
    const char *const want2[] = {"same backing file", fx.loop + 5, "mounted", NULL};
    sc_expect_all_refused(fx.loop2, flags2, want2, fx.dir, false);
    check_filesystem_intact();

    /* unmounted, the alias is still refused: the two devices share their data */
    sc_expect_all_refused(fx.loop2, flags2, (const char *const[]){"same backing file", NULL},
                          fx.dir, false);
}

static const enum fx_kind k_ext4 = FX_EXT4_MOUNTED, k_dos = FX_DOS, k_lvm = FX_LVM,
                          k_swap = FX_SWAP;

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_prestate_setup_teardown(test_mounted_refused_even_with_destructive,
                                                 setup, teardown, (void *)&k_ext4),
        cmocka_unit_test_prestate_setup_teardown(test_unmounted_needs_destructive, setup,
                                                 teardown, (void *)&k_ext4),
        cmocka_unit_test_prestate_setup_teardown(test_ext4_needs_overwrite_signatures, setup,
                                                 teardown, (void *)&k_ext4),
        cmocka_unit_test_prestate_setup_teardown(test_dos_table_needs_overwrite_signatures,
                                                 setup, teardown, (void *)&k_dos),
        cmocka_unit_test_prestate_setup_teardown(test_lvm_pv_needs_overwrite_signatures, setup,
                                                 teardown, (void *)&k_lvm),
        cmocka_unit_test_prestate_setup_teardown(test_swap_area_needs_overwrite_signatures,
                                                 setup, teardown, (void *)&k_swap),
        cmocka_unit_test_prestate_setup_teardown(test_second_loop_over_mounted_file, setup,
                                                 teardown, (void *)&k_ext4),
    };
    return cmocka_run_group_tests_name("safety_mounted", tests, NULL, NULL);
}
