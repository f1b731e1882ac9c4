/* test_safety.c — safety_decide on synthetic facts (block devices: mounts, swap, holders, root,
 * loop aliases, every kind of signature with and without --overwrite-signatures; files: new,
 * sparse, preallocated, holding data, backing a loop device, active swap, locked),
 * safety_collect / safety_collect_file on a fake /proc + /sys tree and on the real system
 * (read-only: it never opens the root disk), libblkid's signatures on image files we make,
 * proc/locks parsing, and target_probe / target_create_file / target_open on regular files
 * (the run lock included; and on a loop device of our own when running as root). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <linux/loop.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/sysmacros.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "helpers.h"
#include "device/safety.h"
#include "safety_images.h"
#include "device/target.h"

/* ---- small helpers (static: the Makefile links every test with all of src/) ------------- */

static char ut_tmp[PATH_MAX];      /* per-run scratch directory under /var/tmp */

static int ut_rm_one(const char *p, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb; (void)flag; (void)ftw;
    return remove(p);
}

static void ut_rmtree(const char *path)
{
    if (path && *path)
        nftw(path, ut_rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

static void ut_path(char *buf, size_t len, const char *rel)
{
    int n = snprintf(buf, len, "%s/%s", ut_tmp, rel);
    assert_true(n > 0 && (size_t)n < len);
}

/* mkdir -p for a path relative to ut_tmp. */
static void ut_mkdirs(const char *rel)
{
    char p[PATH_MAX];
    ut_path(p, sizeof(p), rel);
    for (char *s = p + strlen(ut_tmp) + 1; *s; s++) {
        if (*s == '/') {
            *s = '\0';
            if (mkdir(p, 0755) != 0)
                assert_int_equal(errno, EEXIST);
            *s = '/';
        }
    }
    if (mkdir(p, 0755) != 0)
        assert_int_equal(errno, EEXIST);
}

static void ut_write(const char *rel, const char *content)
{
    char p[PATH_MAX];
    ut_path(p, sizeof(p), rel);
    char dir[PATH_MAX];
    snprintf(dir, sizeof(dir), "%s", rel);
    char *slash = strrchr(dir, '/');
    if (slash) {
        *slash = '\0';
        ut_mkdirs(dir);
    }
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    fputs(content, f);
    assert_int_equal(fclose(f), 0);
}

static void ut_symlink(const char *target, const char *rel)
{
    char p[PATH_MAX];
    ut_path(p, sizeof(p), rel);
    char dir[PATH_MAX];
    snprintf(dir, sizeof(dir), "%s", rel);
    char *slash = strrchr(dir, '/');
    if (slash) {
        *slash = '\0';
        ut_mkdirs(dir);
    }
    assert_int_equal(symlink(target, p), 0);
}

static bool ut_has(const char items[][SAFETY_ITEM_LEN], unsigned n, const char *want)
{
    for (unsigned i = 0; i < n; i++)
        if (strcmp(items[i], want) == 0)
            return true;
    return false;
}

static void ut_dump(const struct safety_facts *f)
{
    printf("  facts for %s: %u partitions, backs_root=%d (%s)\n", f->devname, f->n_partitions,
           f->backs_root, f->root_detail);
    for (unsigned i = 0; i < f->n_mounts; i++)
        printf("    mount: %s\n", f->mounts[i]);
    for (unsigned i = 0; i < f->n_swaps; i++)
        printf("    swap: %s\n", f->swaps[i]);
    for (unsigned i = 0; i < f->n_holders; i++)
        printf("    holder: %s\n", f->holders[i]);
}

static int group_setup(void **state)
{
    (void)state;
    snprintf(ut_tmp, sizeof(ut_tmp), "/var/tmp/ptsbench-unit-safety-XXXXXX");
    return mkdtemp(ut_tmp) ? 0 : -1;
}

static int group_teardown(void **state)
{
    (void)state;
    ut_rmtree(ut_tmp);
    return 0;
}

/* ---- safety_decide ------------------------------------------------------------------------ */

/* The request: RQ(writes, destructive); RQS(...) adds --overwrite-signatures. */
#define RQ(w, d) (&(const struct safety_request){(w), (d), false})
#define RQS(w, d) (&(const struct safety_request){(w), (d), true})

/* A block device with nothing on it: libblkid ran and found no signature. */
static struct safety_facts clean_facts(const char *dev)
{
    struct safety_facts f;
    memset(&f, 0, sizeof(f));
    snprintf(f.devname, sizeof(f.devname), "%s", dev);
    f.sigs_probed = true;
    return f;
}

static void test_decide_reads_always_allowed(void **state)
{
    (void)state;
    char msg[1024];
    struct safety_facts f = clean_facts("sdq");
    assert_int_equal(safety_decide(&f, RQ(false, false), msg, sizeof(msg)), 0);
    assert_int_equal(safety_decide(&f, RQ(false, true), msg, sizeof(msg)), 0);
    /* Even a mounted, swapping, held root disk may be read. */
    f.n_mounts = 1;
    snprintf(f.mounts[0], SAFETY_ITEM_LEN, "sdq1 on /");
    f.n_swaps = 1;
    snprintf(f.swaps[0], SAFETY_ITEM_LEN, "/dev/sdq2");
    f.n_holders = 1;
    snprintf(f.holders[0], SAFETY_ITEM_LEN, "sdq3 held by dm-0");
    f.backs_root = true;
    assert_int_equal(safety_decide(&f, RQ(false, false), msg, sizeof(msg)), 0);
    assert_int_equal(safety_decide(&f, RQ(false, true), msg, sizeof(msg)), 0);
}

static void test_decide_write_needs_destructive(void **state)
{
    (void)state;
    char msg[1024];
    struct safety_facts f = clean_facts("loop7");
    assert_int_equal(safety_decide(&f, RQ(true, false), msg, sizeof(msg)), -1);
    assert_string_equal(msg, "refusing to write to /dev/loop7 without --destructive "
                             "(it destroys the data on it)");
}

static void test_decide_write_destructive_clean_allowed(void **state)
{
    (void)state;
    char msg[1024] = "junk";
    struct safety_facts f = clean_facts("loop7");
    f.n_partitions = 2;     /* partitions alone are no reason to refuse */
    assert_int_equal(safety_decide(&f, RQ(true, true), msg, sizeof(msg)), 0);
}

static void test_decide_mounted(void **state)
{
    (void)state;
    char msg[1024];
    struct safety_facts f = clean_facts("loop3");
    f.n_mounts = 1;
    snprintf(f.mounts[0], SAFETY_ITEM_LEN, "loop3p1 on /mnt/x");
    assert_int_equal(safety_decide(&f, RQ(true, true), msg, sizeof(msg)), -1);
    assert_non_null(strstr(msg, "/dev/loop3"));
    assert_non_null(strstr(msg, "mounted"));
    assert_non_null(strstr(msg, "loop3p1 on /mnt/x"));
    assert_null(strstr(msg, "swap"));
    assert_null(strstr(msg, "root"));
}

static void test_decide_swap(void **state)
{
    (void)state;
    char msg[1024];
    struct safety_facts f = clean_facts("loop3");
    f.n_swaps = 1;
    snprintf(f.swaps[0], SAFETY_ITEM_LEN, "/dev/loop3p2");
    assert_int_equal(safety_decide(&f, RQ(true, true), msg, sizeof(msg)), -1);
    assert_non_null(strstr(msg, "swap"));
    assert_non_null(strstr(msg, "/dev/loop3p2"));
    assert_null(strstr(msg, "mounted"));
}

static void test_decide_holders(void **state)
{
    (void)state;
    char msg[1024];
    struct safety_facts f = clean_facts("loop3");
    f.n_holders = 1;
    snprintf(f.holders[0], SAFETY_ITEM_LEN, "loop3 held by dm-0");
    assert_int_equal(safety_decide(&f, RQ(true, true), msg, sizeof(msg)), -1);
    assert_non_null(strstr(msg, "loop3 held by dm-0"));
    assert_null(strstr(msg, "mounted"));
}

static void test_decide_backs_root(void **state)
{
    (void)state;
    char msg[1024];
    struct safety_facts f = clean_facts("vdz");
    f.backs_root = true;
    snprintf(f.root_detail, sizeof(f.root_detail), "/ is on vdz (254:0)");
    assert_int_equal(safety_decide(&f, RQ(true, true), msg, sizeof(msg)), -1);
    assert_non_null(strstr(msg, "root filesystem"));
    assert_non_null(strstr(msg, "/ is on vdz (254:0)"));
}

static void test_decide_all_reasons_one_line(void **state)
{
    (void)state;
    char msg[2048];
    struct safety_facts f = clean_facts("sdb");
    f.n_mounts = 2;
    snprintf(f.mounts[0], SAFETY_ITEM_LEN, "sdb1 on /data");
    snprintf(f.mounts[1], SAFETY_ITEM_LEN, "dm-1 on /");
    f.n_swaps = 1;
    snprintf(f.swaps[0], SAFETY_ITEM_LEN, "/dev/sdb2");
    f.n_holders = 1;
    snprintf(f.holders[0], SAFETY_ITEM_LEN, "sdb3 held by dm-1");
    f.backs_root = true;
    snprintf(f.root_detail, sizeof(f.root_detail), "/ is on dm-1 (253:1), which is stacked on sdb3");
    assert_int_equal(safety_decide(&f, RQ(true, true), msg, sizeof(msg)), -1);
    printf("  message: %s\n", msg);
    assert_null(strchr(msg, '\n'));
    assert_non_null(strstr(msg, "/dev/sdb"));
    assert_non_null(strstr(msg, "mounted"));
    assert_non_null(strstr(msg, "sdb1 on /data"));
    assert_non_null(strstr(msg, "dm-1 on /"));
    assert_non_null(strstr(msg, "swap (/dev/sdb2)"));
    assert_non_null(strstr(msg, "sdb3 held by dm-1"));
    assert_non_null(strstr(msg, "root filesystem"));
    /* Without --destructive the first reason given is the missing flag. */
    assert_int_equal(safety_decide(&f, RQ(true, false), msg, sizeof(msg)), -1);
    assert_non_null(strstr(msg, "--destructive"));
}

static void test_decide_small_buffer(void **state)
{
    (void)state;
    char msg[16];
    struct safety_facts f = clean_facts("sdb");
    f.n_mounts = 1;
    snprintf(f.mounts[0], SAFETY_ITEM_LEN, "sdb1 on /a/very/long/mount/point");
    f.backs_root = true;
    assert_int_equal(safety_decide(&f, RQ(true, true), msg, sizeof(msg)), -1);
    assert_int_equal(strlen(msg), sizeof(msg) - 1);
    assert_int_equal(safety_decide(&f, RQ(true, true), NULL, 0), -1);
}

/* ---- safety_collect on a fake tree --------------------------------------------------------- */

/* A block device in the fake sysfs: sys/devices/virtual/block/<dir>, linked from
 * sys/class/block/<name> and sys/dev/block/<majmin>. */
static void fake_blockdev(const char *root, const char *dir, const char *majmin, bool partition)
{
    char rel[PATH_MAX], target[PATH_MAX];
    const char *name = strrchr(dir, '/') ? strrchr(dir, '/') + 1 : dir;
    snprintf(rel, sizeof(rel), "%s/sys/devices/virtual/block/%s/dev", root, dir);
    char content[64];
    snprintf(content, sizeof(content), "%s\n", majmin);
    ut_write(rel, content);
    snprintf(rel, sizeof(rel), "%s/sys/devices/virtual/block/%s/holders", root, dir);
    ut_mkdirs(rel);
    if (partition) {
        snprintf(rel, sizeof(rel), "%s/sys/devices/virtual/block/%s/partition", root, dir);
        ut_write(rel, "1\n");
    } else {
        snprintf(rel, sizeof(rel), "%s/sys/devices/virtual/block/%s/slaves", root, dir);
        ut_mkdirs(rel);
    }
    snprintf(target, sizeof(target), "../../devices/virtual/block/%s", dir);
    snprintf(rel, sizeof(rel), "%s/sys/class/block/%s", root, name);
    ut_symlink(target, rel);
    snprintf(rel, sizeof(rel), "%s/sys/dev/block/%s", root, majmin);
    ut_symlink(target, rel);
}

/* `upper` (a dm/md device) is stacked on `lower`: lower/holders/upper, upper/slaves/lower
 * (relative links, as in the real sysfs; only their names are read). */
static void fake_stack(const char *root, const char *lower_dir, const char *upper)
{
    char rel[PATH_MAX], target[PATH_MAX];
    const char *lower = strrchr(lower_dir, '/') ? strrchr(lower_dir, '/') + 1 : lower_dir;
    char up[64] = "../../";
    for (const char *c = lower_dir; *c; c++)
        if (*c == '/')
            strcat(up, "../");
    snprintf(rel, sizeof(rel), "%s/sys/devices/virtual/block/%s/holders/%s", root, lower_dir,
             upper);
    snprintf(target, sizeof(target), "%s%s", up, upper);
    ut_symlink(target, rel);
    snprintf(rel, sizeof(rel), "%s/sys/devices/virtual/block/%s/slaves/%s", root, upper, lower);
    snprintf(target, sizeof(target), "../../%s", lower_dir);
    ut_symlink(target, rel);
}

static void fake_dmname(const char *root, const char *dm, const char *name)
{
    char rel[PATH_MAX], content[128];
    snprintf(rel, sizeof(rel), "%s/sys/devices/virtual/block/%s/dm/name", root, dm);
    snprintf(content, sizeof(content), "%s\n", name);
    ut_write(rel, content);
}

/* The main fake system:
 *   fake0 (250:0)   p1 mounted on /mnt/data
 *                   p2 <- dm-3 (vg-srv) mounted on /srv
 *                   p3 swap
 *                   p4 <- dm-4 (crypt) <- dm-5 (vg-root) mounted on /
 *                   p5 btrfs (anonymous 0:45) on "/mnt/my disk"
 *                   p6 <- dm-6 (swapvol) swap as /dev/mapper/swapvol
 *   other0 (250:16) mounted on /other, swap on it too
 *   clean0 (250:32) one partition, nothing in use */
static const char *fake_root(void)
{
    static char root[PATH_MAX];
    static bool built;
    if (built)
        return root;
    const char *r = "fake";
    fake_blockdev(r, "fake0", "250:0", false);
    for (int i = 1; i <= 6; i++) {
        char dir[64], mm[32];
        snprintf(dir, sizeof(dir), "fake0/fake0p%d", i);
        snprintf(mm, sizeof(mm), "250:%d", i);
        fake_blockdev(r, dir, mm, true);
    }
    fake_blockdev(r, "dm-3", "251:3", false);
    fake_blockdev(r, "dm-4", "251:4", false);
    fake_blockdev(r, "dm-5", "251:5", false);
    fake_blockdev(r, "dm-6", "251:6", false);
    fake_dmname(r, "dm-3", "vg-srv");
    fake_dmname(r, "dm-4", "crypt");
    fake_dmname(r, "dm-5", "vg-root");
    fake_dmname(r, "dm-6", "swapvol");
    fake_stack(r, "fake0/fake0p2", "dm-3");
    fake_stack(r, "fake0/fake0p4", "dm-4");
    fake_stack(r, "dm-4", "dm-5");
    fake_stack(r, "fake0/fake0p6", "dm-6");
    fake_blockdev(r, "other0", "250:16", false);
    fake_blockdev(r, "clean0", "250:32", false);
    fake_blockdev(r, "clean0/clean0p1", "250:33", true);
    fake_blockdev(r, "nvme3n1", "259:0", false);
    fake_blockdev(r, "nvme3n1/nvme3n1p1", "259:1", true);
    fake_blockdev(r, "nvme3c3n1", "259:2", false);
    fake_blockdev(r, "nvme3c4n2", "259:3", false);   /* a path whose head is not there */

    ut_write("fake/proc/self/mountinfo",
             "20 1 251:5 / / rw,relatime shared:1 - ext4 /dev/mapper/vg-root rw\n"
             "21 20 0:22 / /proc rw,nosuid shared:2 - proc proc rw\n"
             "22 20 250:1 / /mnt/data rw,relatime shared:3 - ext4 /dev/fake0p1 rw\n"
             "23 20 251:3 / /srv rw,relatime - xfs /dev/mapper/vg-srv rw\n"
             "24 20 250:16 / /other rw,relatime - ext4 /dev/other0 rw\n"
             "25 20 0:45 / /mnt/my\\040disk rw,relatime shared:9 - btrfs /dev/fake0p5 rw\n"
             "26 20 0:46 / /mnt/tmp rw - tmpfs tmpfs rw\n"
             "27 20 259:1 / /mnt/mp rw,relatime - ext4 /dev/nvme3n1p1 rw\n");
    ut_write("fake/proc/swaps",
             "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n"
             "/dev/fake0p3                            partition\t1048572\t\t0\t\t-2\n"
             "/dev/other0                             partition\t1048572\t\t0\t\t-3\n"
             "/dev/mapper/swapvol                     partition\t1048572\t\t0\t\t-4\n"
             "/var/swapfile                           file\t\t1048572\t\t0\t\t-5\n");
    ut_path(root, sizeof(root), r);
    built = true;
    return root;
}

static void check_fake0(const struct safety_facts *f)
{
    assert_string_equal(f->devname, "fake0");
    assert_int_equal(f->n_partitions, 6);
    assert_int_equal(f->n_mounts, 4);
    assert_true(ut_has(f->mounts, f->n_mounts, "dm-5 on /"));
    assert_true(ut_has(f->mounts, f->n_mounts, "fake0p1 on /mnt/data"));
    assert_true(ut_has(f->mounts, f->n_mounts, "dm-3 on /srv"));
    assert_true(ut_has(f->mounts, f->n_mounts,
                       "fake0p5 on /mnt/my disk"));
    assert_int_equal(f->n_swaps, 2);
    assert_true(ut_has(f->swaps, f->n_swaps, "/dev/fake0p3"));
    assert_true(ut_has(f->swaps, f->n_swaps, "/dev/mapper/swapvol"));
    assert_int_equal(f->n_holders, 4);
    assert_true(ut_has(f->holders, f->n_holders,
                       "fake0p2 held by dm-3 (vg-srv)"));
    assert_true(ut_has(f->holders, f->n_holders,
                       "fake0p4 held by dm-4 (crypt)"));
    assert_true(ut_has(f->holders, f->n_holders,
                       "dm-4 held by dm-5 (vg-root)"));
    assert_true(ut_has(f->holders, f->n_holders,
                       "fake0p6 held by dm-6 (swapvol)"));
    assert_true(f->backs_root);
    assert_non_null(strstr(f->root_detail, "/ is on dm-5 (251:5)"));
    assert_non_null(strstr(f->root_detail, "fake0p4"));
}

static void test_collect_fake_disk(void **state)
{
    (void)state;
    const char *root = fake_root();
    struct safety_facts f;
    char err[512] = "", msg[4096];
    assert_int_equal(safety_collect(root, "fake0", &f, err, sizeof(err)), 0);
    ut_dump(&f);
    check_fake0(&f);
    for (unsigned i = 1; i <= 6; i++) {
        char want[16];
        snprintf(want, sizeof(want), "fake0p%u", i);
        bool found = false;
        for (unsigned j = 0; j < f.n_partitions; j++)
            found |= strcmp(f.partitions[j], want) == 0;
        assert_true(found);
    }
    assert_int_equal(safety_decide(&f, RQ(true, true), msg, sizeof(msg)), -1);
    printf("  message: %s\n", msg);
    assert_non_null(strstr(msg, "mounted"));
    assert_non_null(strstr(msg, "swap"));
    assert_non_null(strstr(msg, "root filesystem"));
    assert_non_null(strstr(msg, "held by"));
    assert_int_equal(safety_decide(&f, RQ(false, false), msg, sizeof(msg)), 0);
}

static void test_collect_fake_partition_examines_disk(void **state)
{
    (void)state;
    const char *root = fake_root();
    struct safety_facts f;
    char err[512] = "";
    /* A partition name, and a /dev/ path, both lead to the whole disk. */
    assert_int_equal(safety_collect(root, "fake0p1", &f, err, sizeof(err)), 0);
    check_fake0(&f);
    assert_int_equal(safety_collect(root, "/dev/fake0p3", &f, err, sizeof(err)), 0);
    check_fake0(&f);
}

/* The refusal names the partition the user gave, and its disk; before, it named the disk
 * only ("refusing to write to /dev/fake0 even with --destructive: ..."). */
static void test_decide_partition_named_as_given(void **state)
{
    (void)state;
    const char *root = fake_root();
    struct safety_facts f;
    char err[512] = "", msg[2048];
    assert_int_equal(safety_collect(root, "fake0p1", &f, err, sizeof(err)), 0);
    assert_string_equal(f.target, "fake0p1");
    f.sigs_probed = true;
    assert_int_equal(safety_decide(&f, RQ(true, true), msg, sizeof(msg)), -1);
    printf("  message: %s\n", msg);
    assert_non_null(strstr(msg, "refusing to write to /dev/fake0p1 (a partition of fake0) even "
                                "with --destructive: "));
    assert_non_null(strstr(msg, "fake0p1 on /mnt/data"));
    /* as typed (a path), then the kernel's names where they differ */
    snprintf(f.path, sizeof(f.path), "/dev/fake0p1");
    assert_int_equal(safety_decide(&f, RQ(true, false), msg, sizeof(msg)), -1);
    assert_string_equal(msg, "refusing to write to /dev/fake0p1 (a partition of fake0) without "
                             "--destructive (it destroys the data on it)");
    snprintf(f.path, sizeof(f.path), "/dev/disk/by-label/data");
    assert_int_equal(safety_decide(&f, RQ(true, true), msg, sizeof(msg)), -1);
    assert_non_null(strstr(msg, "refusing to write to /dev/disk/by-label/data (fake0p1, a "
                                "partition of fake0) even with --destructive: "));
    /* a whole disk given by its node: no aside */
    assert_int_equal(safety_collect(root, "other0", &f, err, sizeof(err)), 0);
    snprintf(f.path, sizeof(f.path), "/dev/other0");
    assert_int_equal(safety_decide(&f, RQ(true, true), msg, sizeof(msg)), -1);
    assert_non_null(strstr(msg, "refusing to write to /dev/other0 even with --destructive: "));
}

/* A holder is named by its device-mapper name too (LVM's vg-lv): before, "held by dm-3". */
static void test_decide_holder_named_by_dm_name(void **state)
{
    (void)state;
    const char *root = fake_root();
    struct safety_facts f;
    char err[512] = "", msg[2048];
    assert_int_equal(safety_collect(root, "fake0p2", &f, err, sizeof(err)), 0);
    f.sigs_probed = true;
    assert_int_equal(safety_decide(&f, RQ(true, true), msg, sizeof(msg)), -1);
    assert_non_null(strstr(msg, "fake0p2 held by dm-3 (vg-srv)"));
}

/* A hidden NVMe multipath path (nvme3c3n1) given as the target: what is mounted on its head
 * (nvme3n1) is on the same namespace.  Before, the path looked unused. */
static void test_collect_fake_mpath_path_counts_its_head(void **state)
{
    (void)state;
    const char *root = fake_root();
    struct safety_facts f;
    char err[512] = "", msg[2048];
    assert_int_equal(safety_collect(root, "nvme3c3n1", &f, err, sizeof(err)), 0);
    ut_dump(&f);
    assert_string_equal(f.mpath_head, "nvme3n1");
    assert_int_equal(f.n_mounts, 1);
    assert_string_equal(f.mounts[0], "nvme3n1p1 on /mnt/mp");
    f.sigs_probed = true;
    assert_int_equal(safety_decide(&f, RQ(true, true), msg, sizeof(msg)), -1);
    printf("  message: %s\n", msg);
    assert_non_null(strstr(msg, "refusing to write to /dev/nvme3c3n1 (a path to the NVMe "
                                "multipath head nvme3n1) even with --destructive: mounted "
                                "(nvme3n1p1 on /mnt/mp)"));
    /* the head itself, as before; a path whose head is absent is only itself */
    assert_int_equal(safety_collect(root, "nvme3n1", &f, err, sizeof(err)), 0);
    assert_string_equal(f.mpath_head, "");
    assert_int_equal(f.n_mounts, 1);
    assert_int_equal(safety_collect(root, "nvme3c4n2", &f, err, sizeof(err)), 0);
    assert_string_equal(f.mpath_head, "");
    assert_int_equal(f.n_mounts, 0);
}

static void test_collect_fake_other_disks(void **state)
{
    (void)state;
    const char *root = fake_root();
    struct safety_facts f;
    char err[512] = "", msg[1024];

    assert_int_equal(safety_collect(root, "other0", &f, err, sizeof(err)), 0);
    ut_dump(&f);
    assert_int_equal(f.n_partitions, 0);
    assert_int_equal(f.n_mounts, 1);
    assert_string_equal(f.mounts[0], "other0 on /other");
    assert_int_equal(f.n_swaps, 1);
    assert_string_equal(f.swaps[0], "/dev/other0");
    assert_int_equal(f.n_holders, 0);
    assert_false(f.backs_root);

    assert_int_equal(safety_collect(root, "clean0", &f, err, sizeof(err)), 0);
    f.sigs_probed = true;          /* as if libblkid found nothing on it */
    assert_int_equal(f.n_partitions, 1);
    assert_string_equal(f.partitions[0], "clean0p1");
    assert_int_equal(f.n_mounts + f.n_swaps + f.n_holders, 0);
    assert_false(f.backs_root);
    assert_int_equal(safety_decide(&f, RQ(true, true), msg, sizeof(msg)), 0);
    assert_int_equal(safety_decide(&f, RQ(true, false), msg, sizeof(msg)), -1);
    assert_non_null(strstr(msg, "--destructive"));
}

static void test_collect_fake_errors(void **state)
{
    (void)state;
    const char *root = fake_root();
    struct safety_facts f;
    char err[512] = "";
    assert_int_equal(safety_collect(root, "nosuchdev", &f, err, sizeof(err)), -1);
    printf("  error: %s\n", err);
    assert_non_null(strstr(err, "nosuchdev"));
    assert_int_equal(safety_collect(root, "", &f, err, sizeof(err)), -1);

    /* A tree without /proc: the state cannot be read, so collect must fail. */
    fake_blockdev("noproc", "sdx", "8:0", false);
    char noproc[PATH_MAX];
    ut_path(noproc, sizeof(noproc), "noproc");
    err[0] = '\0';
    assert_int_equal(safety_collect(noproc, "sdx", &f, err, sizeof(err)), -1);
    printf("  error: %s\n", err);
    assert_non_null(strstr(err, "mountinfo"));
}

/* "/" on a dm device that sysfs shows only through its slaves (holders link missing). */
static void test_collect_fake_root_via_slaves(void **state)
{
    (void)state;
    fake_blockdev("slv", "sdz", "8:16", false);
    fake_blockdev("slv", "sdz/sdz1", "8:17", true);
    fake_blockdev("slv", "md0", "9:0", false);
    fake_blockdev("slv", "dm-9", "253:9", false);
    char rel[PATH_MAX];
    snprintf(rel, sizeof(rel), "slv/sys/devices/virtual/block/md0/slaves/sdz1");
    ut_symlink("../../sdz/sdz1", rel);
    snprintf(rel, sizeof(rel), "slv/sys/devices/virtual/block/dm-9/slaves/md0");
    ut_symlink("../../md0", rel);
    ut_write("slv/proc/self/mountinfo", "1 0 253:9 / / rw - ext4 /dev/dm-9 rw\n");
    ut_write("slv/proc/swaps", "Filename\tType\tSize\tUsed\tPriority\n");
    char root[PATH_MAX];
    ut_path(root, sizeof(root), "slv");

    struct safety_facts f;
    char err[512] = "", msg[1024];
    assert_int_equal(safety_collect(root, "sdz", &f, err, sizeof(err)), 0);
    ut_dump(&f);
    assert_true(f.backs_root);
    assert_non_null(strstr(f.root_detail, "dm-9"));
    assert_non_null(strstr(f.root_detail, "sdz1"));
    assert_int_equal(safety_decide(&f, RQ(true, true), msg, sizeof(msg)), -1);
    assert_non_null(strstr(msg, "root filesystem"));
}

/* ---- safety_collect on the real system ------------------------------------------------------ */

/* Whole disk under "/" (following dm/md slaves to the first disk found). */
static bool real_root_disk(char *disk, size_t len, char *why, size_t whylen)
{
    FILE *fp = fopen("/proc/self/mountinfo", "r");
    if (!fp) {
        snprintf(why, whylen, "cannot read /proc/self/mountinfo");
        return false;
    }
    char line[4096];
    unsigned maj = 0, min = 0;
    bool found = false;
    while (fgets(line, sizeof(line), fp)) {
        unsigned a, b;
        char mnt[2048];
        if (sscanf(line, "%*s %*s %u:%u %*s %2047s", &a, &b, mnt) == 3 && strcmp(mnt, "/") == 0) {
            maj = a;
            min = b;
            found = true;     /* the last one wins: it is the visible "/" */
        }
    }
    fclose(fp);
    if (!found) {
        snprintf(why, whylen, "no \"/\" in /proc/self/mountinfo");
        return false;
    }
    char link[64], real[PATH_MAX];
    snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", maj, min);
    if (!realpath(link, real)) {
        snprintf(why, whylen, "\"/\" is on %u:%u, which is not a block device (container "
                 "or network root)", maj, min);
        return false;
    }
    for (int depth = 0; depth < 8; depth++) {
        /* A dm/md device: descend to its first slave. */
        char sl[PATH_MAX + 16];
        snprintf(sl, sizeof(sl), "%s/slaves", real);
        DIR *d = opendir(sl);
        struct dirent *e = NULL;
        char next[256] = "";
        if (d) {
            while ((e = readdir(d)))
                if (e->d_name[0] != '.') {
                    snprintf(next, sizeof(next), "%s", e->d_name);
                    break;
                }
            closedir(d);
        }
        if (!next[0])
            break;
        char p[300];
        snprintf(p, sizeof(p), "/sys/class/block/%s", next);
        if (!realpath(p, real)) {
            snprintf(why, whylen, "cannot resolve %s", p);
            return false;
        }
    }
    char part[PATH_MAX + 16];
    snprintf(part, sizeof(part), "%s/partition", real);
    if (access(part, F_OK) == 0)
        *strrchr(real, '/') = '\0';
    snprintf(disk, len, "%s", strrchr(real, '/') + 1);
    return true;
}

static void test_collect_real_root_refused(void **state)
{
    (void)state;
    char disk[256], why[512];
    if (!real_root_disk(disk, sizeof(disk), why, sizeof(why))) {
        printf("SKIP: %s\n", why);
        skip();
    }
    struct safety_facts f;
    char err[512] = "", msg[4096];
    assert_int_equal(safety_collect("", disk, &f, err, sizeof(err)), 0);
    printf("  \"/\" lives on disk %s\n", disk);
    ut_dump(&f);
    assert_string_equal(f.devname, disk);
    assert_true(f.backs_root);
    assert_true(f.n_mounts > 0);
    assert_int_equal(safety_decide(&f, RQ(true, true), msg, sizeof(msg)), -1);
    printf("  message: %s\n", msg);
    assert_non_null(strstr(msg, "root filesystem"));
    assert_non_null(strstr(msg, "/ is on"));
    assert_non_null(strstr(msg, " on /"));
    assert_int_equal(safety_decide(&f, RQ(true, false), msg, sizeof(msg)), -1);
    assert_non_null(strstr(msg, "--destructive"));
    assert_int_equal(safety_decide(&f, RQ(false, false), msg, sizeof(msg)), 0);
}

/* ---- target_probe / target_create_file / target_open on files ------------------------------- */

static bool is_pow2(uint32_t x) { return x && !(x & (x - 1)); }

static void test_probe_existing_file(void **state)
{
    (void)state;
    char p[PATH_MAX], err[512] = "";
    ut_path(p, sizeof(p), "existing.img");
    int fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    assert_true(fd >= 0);
    assert_int_equal(ftruncate(fd, 1 << 20), 0);
    close(fd);

    struct target_info t;
    assert_int_equal(target_probe(p, 0, &t, err, sizeof(err)), 0);
    printf("  %s: kind=%s dev=%s logical=%u physical=%u mem_align=%u model='%s' serial='%s'\n",
           t.path, target_kind_name(t.kind), t.devname, t.logical_sector, t.physical_sector,
           t.mem_align, t.model, t.serial);
    assert_string_equal(t.path, p);
    assert_int_equal(t.kind, TARGET_FILE);
    assert_string_equal(target_kind_name(t.kind), "file");
    assert_true(t.exists);
    assert_int_equal(t.capacity, 1 << 20);
    assert_int_equal(t.current_size, 1 << 20);
    assert_true(t.logical_sector >= 512 && is_pow2(t.logical_sector));
    assert_true(t.physical_sector >= t.logical_sector && is_pow2(t.physical_sector));
    assert_true(t.mem_align >= 512);

    /* Asking for more: capacity is the size wanted, current_size what is there. */
    assert_int_equal(target_probe(p, 4 << 20, &t, err, sizeof(err)), 0);
    assert_true(t.exists);
    assert_int_equal(t.capacity, 4 << 20);
    assert_int_equal(t.current_size, 1 << 20);
    assert_int_equal(target_create_file(&t, err, sizeof(err)), 0);
    struct stat st;
    assert_int_equal(stat(p, &st), 0);
    assert_int_equal(st.st_size, 4 << 20);
    assert_int_equal(t.current_size, 4 << 20);
}

static void test_probe_missing_file(void **state)
{
    (void)state;
    char p[PATH_MAX], err[512] = "";
    ut_path(p, sizeof(p), "missing.img");
    struct target_info t;
    assert_int_equal(target_probe(p, 0, &t, err, sizeof(err)), -1);
    printf("  error: %s\n", err);
    assert_non_null(strstr(err, p));

    assert_int_equal(target_probe(p, 8 << 20, &t, err, sizeof(err)), 0);
    assert_false(t.exists);
    assert_int_equal(t.kind, TARGET_FILE);
    assert_int_equal(t.capacity, 8 << 20);
    assert_int_equal(t.current_size, 0);
    assert_true(t.logical_sector >= 512 && is_pow2(t.logical_sector));
    assert_int_equal(access(p, F_OK), -1);      /* probing created nothing */

    ut_path(p, sizeof(p), "no/such/dir/file.img");
    err[0] = '\0';
    assert_int_equal(target_probe(p, 8 << 20, &t, err, sizeof(err)), -1);
    printf("  error: %s\n", err);
    assert_non_null(strstr(err, p));
}

static void test_probe_rejects_others(void **state)
{
    (void)state;
    char err[512] = "", p[PATH_MAX];
    struct target_info t;
    assert_int_equal(target_probe("/dev/null", 0, &t, err, sizeof(err)), -1);
    printf("  error: %s\n", err);
    assert_non_null(strstr(err, "/dev/null"));
    assert_non_null(strstr(err, "not a block device"));

    assert_int_equal(target_probe(ut_tmp, 0, &t, err, sizeof(err)), -1);
    assert_non_null(strstr(err, ut_tmp));

    ut_path(p, sizeof(p), "empty.img");
    int fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(target_probe(p, 0, &t, err, sizeof(err)), -1);
    printf("  error: %s\n", err);
    assert_non_null(strstr(err, p));
    assert_int_equal(target_probe("", 0, &t, err, sizeof(err)), -1);
}

static void test_create_and_open_file(void **state)
{
    (void)state;
    char p[PATH_MAX], err[512] = "";
    ut_path(p, sizeof(p), "created.img");
    struct target_info t;
    assert_int_equal(target_probe(p, 16 << 20, &t, err, sizeof(err)), 0);
    assert_false(t.exists);
    assert_int_equal(target_create_file(&t, err, sizeof(err)), 0);
    assert_true(t.exists);
    assert_int_equal(t.current_size, 16 << 20);

    struct stat st;
    assert_int_equal(stat(p, &st), 0);
    assert_true(S_ISREG(st.st_mode));
    assert_int_equal(st.st_mode & 0600, 0600);   /* 0644 less the umask */
    assert_int_equal(st.st_mode & 0133, 0);
    assert_int_equal(st.st_size, 16 << 20);
    printf("  allocated %lld of %d bytes\n", (long long)st.st_blocks * 512, 16 << 20);

    /* A fresh probe sees the created file. */
    struct target_info t2;
    assert_int_equal(target_probe(p, 0, &t2, err, sizeof(err)), 0);
    assert_true(t2.exists);
    assert_int_equal(t2.capacity, 16 << 20);

    int fd = target_open(&t, true, err, sizeof(err));
    if (fd < 0)
        fail_msg("target_open: %s", err);
    int fl = fcntl(fd, F_GETFL);
    assert_true(fl & O_DIRECT);
    assert_true(fl & O_NOATIME);   /* ours: the kernel takes it from the owner */
    assert_int_equal(fl & O_ACCMODE, O_RDWR);
    void *buf = NULL;
    assert_int_equal(posix_memalign(&buf, 4096, 4096), 0);
    memset(buf, 0xa5, 4096);
    assert_int_equal(pwrite(fd, buf, 4096, 8192), 4096);
    memset(buf, 0, 4096);
    assert_int_equal(pread(fd, buf, 4096, 8192), 4096);
    assert_int_equal(((unsigned char *)buf)[4095], 0xa5);
    free(buf);
    close(fd);

    fd = target_open(&t, false, err, sizeof(err));
    assert_true(fd >= 0);
    assert_int_equal(fcntl(fd, F_GETFL) & O_ACCMODE, O_RDONLY);
    close(fd);

    /* Opening something that vanished names the path. */
    assert_int_equal(unlink(p), 0);
    err[0] = '\0';
    assert_int_equal(target_open(&t, false, err, sizeof(err)), -1);
    printf("  error: %s\n", err);
    assert_non_null(strstr(err, p));
}

/* ---- a loop device of our own (root only) --------------------------------------------------- */

struct loopdev {
    int ctl_fd;        /* our open handle: with LO_FLAGS_AUTOCLEAR the loop detaches when the
                          last handle closes, even if this process dies */
    char path[64];
    char img[PATH_MAX];
};

static int loop_setup(void **state)
{
    static struct loopdev ld;
    memset(&ld, 0, sizeof(ld));
    ld.ctl_fd = -1;
    *state = &ld;
    if (geteuid() != 0)
        return 0;
    int ctl = open("/dev/loop-control", O_RDWR | O_CLOEXEC);
    if (ctl < 0)
        return 0;
    int n = ioctl(ctl, LOOP_CTL_GET_FREE);
    close(ctl);
    if (n < 0)
        return 0;
    ut_path(ld.img, sizeof(ld.img), "loop.img");
    int bfd = open(ld.img, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (bfd < 0)
        return 0;
    if (ftruncate(bfd, 32 << 20) != 0) {
        close(bfd);
        return 0;
    }
    snprintf(ld.path, sizeof(ld.path), "/dev/loop%d", n);
    int lfd = open(ld.path, O_RDWR | O_CLOEXEC);
    if (lfd < 0) {
        close(bfd);
        ld.path[0] = '\0';
        return 0;
    }
    struct loop_config cfg;
    memset(&cfg, 0, sizeof(cfg));
    cfg.fd = (unsigned)bfd;
    cfg.info.lo_flags = LO_FLAGS_AUTOCLEAR;
    if (ioctl(lfd, LOOP_CONFIGURE, &cfg) != 0) {
        close(lfd);
        close(bfd);
        ld.path[0] = '\0';
        return 0;
    }
    close(bfd);
    ld.ctl_fd = lfd;
    return 0;
}

static int loop_teardown(void **state)
{
    struct loopdev *ld = *state;
    if (ld && ld->ctl_fd >= 0) {
        ioctl(ld->ctl_fd, LOOP_CLR_FD, 0);
        close(ld->ctl_fd);
        ld->ctl_fd = -1;
    }
    if (ld && ld->img[0])
        unlink(ld->img);
    return 0;
}

static void test_probe_own_loop_device(void **state)
{
    struct loopdev *ld = *state;
    if (geteuid() != 0) {
        printf("SKIP: probing a loop device needs root\n");
        skip();
    }
    if (ld->ctl_fd < 0) {
        printf("SKIP: could not set up a loop device\n");
        skip();
    }
    char err[512] = "", msg[1024];
    struct target_info t;
    assert_int_equal(target_probe(ld->path, 0, &t, err, sizeof(err)), 0);
    printf("  %s: kind=%s dev=%s cap=%llu logical=%u physical=%u align=%u rot=%d wc=%d\n",
           t.path, target_kind_name(t.kind), t.devname, (unsigned long long)t.capacity,
           t.logical_sector, t.physical_sector, t.alignment_offset, t.rotational,
           t.write_cache);
    assert_int_equal(t.kind, TARGET_BLOCK);
    assert_string_equal(target_kind_name(t.kind), "block");
    assert_true(t.exists);
    assert_int_equal(t.capacity, 32 << 20);
    assert_true(t.logical_sector >= 512);
    assert_string_equal(t.devname, ld->path + 5);

    assert_int_equal(target_probe(ld->path, 1 << 20, &t, err, sizeof(err)), -1);
    assert_non_null(strstr(err, ld->path));

    /* Exclusive opens: the second one is refused with a clear "in use". */
    assert_int_equal(target_probe(ld->path, 0, &t, err, sizeof(err)), 0);
    int fd = target_open(&t, false, err, sizeof(err));
    if (fd < 0)
        fail_msg("target_open: %s", err);
    assert_true(fcntl(fd, F_GETFL) & O_DIRECT);
    assert_true(fcntl(fd, F_GETFL) & O_NOATIME);
    int fd2 = target_open(&t, false, err, sizeof(err));
    if (fd2 >= 0)
        close(fd2);
    close(fd);
    assert_int_equal(fd2, -1);
    printf("  error: %s\n", err);
    assert_non_null(strstr(err, ld->path));
    assert_non_null(strstr(err, "in use"));

    /* A node of our own for the same device (an alias: mknod, and a symlink to it) is the
     * same block device to the checks: its kernel name comes from the device number. */
    char node[PATH_MAX], link_path[PATH_MAX];
    ut_path(node, sizeof(node), "loop-alias-node");
    ut_path(link_path, sizeof(link_path), "loop-alias-link");
    struct stat lst;
    assert_int_equal(stat(ld->path, &lst), 0);
    assert_int_equal(mknod(node, S_IFBLK | 0600, lst.st_rdev), 0);
    assert_int_equal(symlink(node, link_path), 0);
    const char *aliases[] = {node, link_path};
    for (int i = 0; i < 2; i++) {
        struct target_info ta;
        assert_int_equal(target_probe(aliases[i], 0, &ta, err, sizeof(err)), 0);
        assert_int_equal(ta.kind, TARGET_BLOCK);
        assert_string_equal(ta.devname, ld->path + 5);
    }
    unlink(link_path);
    unlink(node);

    /* The safety check of an idle loop device: only --destructive is needed. */
    struct safety_facts f;
    assert_int_equal(safety_collect("", t.devname, &f, err, sizeof(err)), 0);
    safety_signatures(&f, &t);
    assert_true(f.sigs_probed);    /* a blank image: libblkid ran and found nothing */
    assert_int_equal(f.n_sigs, 0);
    assert_int_equal(f.n_mounts + f.n_swaps + f.n_holders + f.n_aliases, 0);
    assert_false(f.backs_root);
    assert_int_equal(safety_decide(&f, RQ(true, true), msg, sizeof(msg)), 0);
    assert_int_equal(safety_decide(&f, RQ(true, false), msg, sizeof(msg)), -1);
    assert_non_null(strstr(msg, ld->path));
}

/* ---- safety_decide: signatures on block devices --------------------------------------------- */

static struct target_signature sig(const char *type, const char *usage, const char *label,
                                   const char *uuid)
{
    struct target_signature g;
    memset(&g, 0, sizeof(g));
    snprintf(g.type, sizeof(g.type), "%s", type);
    snprintf(g.usage, sizeof(g.usage), "%s", usage);
    snprintf(g.label, sizeof(g.label), "%s", label);
    snprintf(g.uuid, sizeof(g.uuid), "%s", uuid);
    return g;
}

/* Each kind libblkid reports: refused with --destructive alone (one line naming what was
 * found and the flag that confirms), allowed with --overwrite-signatures, and without
 * --destructive the missing flag comes first. */
static void test_decide_each_signature_needs_confirmation(void **state)
{
    (void)state;
    static const struct {
        const char *type, *usage, *label, *uuid, *words;
    } cases[] = {
        {"ext4", "filesystem", "data", "0b6e1a9e-1111-2222-3333-444455556666",
         "an ext4 filesystem (label data, UUID 0b6e1a9e-1111-2222-3333-444455556666)"},
        {"xfs", "filesystem", "", "", "a xfs filesystem"},
        {"dos", "partition_table", "", "5054c0de", "a dos partition table (UUID 5054c0de)"},
        {"gpt", "partition_table", "", "9f1c", "a gpt partition table (UUID 9f1c)"},
        {"LVM2_member", "raid", "", "pv-uuid", "an LVM physical volume (LVM2_member, UUID "
         "pv-uuid)"},
        {"linux_raid_member", "raid", "host:0", "md-uuid", "an md RAID member "
         "(linux_raid_member, label host:0, UUID md-uuid)"},
        {"swap", "other", "", "sw-uuid", "a swap area (swap, UUID sw-uuid)"},
        {"crypto_LUKS", "crypto", "", "luks-uuid", "a LUKS encrypted volume (crypto_LUKS, UUID "
         "luks-uuid)"},
        {"zonefs", "filesystem", "", "", "a zonefs filesystem"},
        {"weird", "", "", "", "a weird signature"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        char msg[1024];
        struct safety_facts f = clean_facts("loop3");
        snprintf(f.path, sizeof(f.path), "/dev/loop3");
        f.sigs[0] = sig(cases[i].type, cases[i].usage, cases[i].label, cases[i].uuid);
        f.n_sigs = 1;
        assert_int_equal(safety_decide(&f, RQ(true, true), msg, sizeof(msg)), -1);
        printf("  %s: %s\n", cases[i].type, msg);
        assert_null(strchr(msg, '\n'));
        assert_non_null(strstr(msg, "/dev/loop3"));
        assert_non_null(strstr(msg, cases[i].words));
        assert_non_null(strstr(msg, "--overwrite-signatures"));
        assert_int_equal(safety_decide(&f, RQS(true, true), msg, sizeof(msg)), 0);
        /* --overwrite-signatures alone is no leave to write */
        assert_int_equal(safety_decide(&f, RQS(true, false), msg, sizeof(msg)), -1);
        assert_non_null(strstr(msg, "without --destructive"));
        assert_non_null(strstr(msg, cases[i].words));
        assert_int_equal(safety_decide(&f, RQ(true, false), msg, sizeof(msg)), -1);
        assert_non_null(strstr(msg, "--overwrite-signatures"));
        /* reads are always allowed */
        assert_int_equal(safety_decide(&f, RQ(false, false), msg, sizeof(msg)), 0);
    }
}

static void test_decide_several_signatures_one_line(void **state)
{
    (void)state;
    char msg[1024];
    struct safety_facts f = clean_facts("loop4");
    snprintf(f.path, sizeof(f.path), "/dev/loop4");
    f.sigs[0] = sig("ext4", "filesystem", "", "u1");
    f.sigs[1] = sig("dos", "partition_table", "", "u2");
    f.sigs[2] = sig("swap", "other", "", "");
    f.n_sigs = 3;
    assert_int_equal(safety_decide(&f, RQ(true, true), msg, sizeof(msg)), -1);
    printf("  message: %s\n", msg);
    assert_null(strchr(msg, '\n'));
    assert_non_null(strstr(msg, "it holds an ext4 filesystem (UUID u1), a dos partition table "
                                "(UUID u2) and a swap area (swap)"));
    assert_non_null(strstr(msg, "destroys them"));
}

/* A mounted device stays refused whatever is confirmed; so does one whose file backs another
 * loop device (an alias). */
static void test_decide_confirmation_does_not_override_in_use(void **state)
{
    (void)state;
    char msg[1024];
    struct safety_facts f = clean_facts("loop3");
    f.sigs[0] = sig("ext4", "filesystem", "", "");
    f.n_sigs = 1;
    f.n_mounts = 1;
    snprintf(f.mounts[0], SAFETY_ITEM_LEN, "loop3 on /mnt/x");
    assert_int_equal(safety_decide(&f, RQS(true, true), msg, sizeof(msg)), -1);
    assert_non_null(strstr(msg, "mounted (loop3 on /mnt/x)"));

    f = clean_facts("loop1");
    f.n_aliases = 1;
    snprintf(f.aliases[0], SAFETY_ITEM_LEN, "loop0 over /var/tmp/f.img");
    assert_int_equal(safety_decide(&f, RQS(true, true), msg, sizeof(msg)), -1);
    printf("  message: %s\n", msg);
    assert_non_null(strstr(msg, "even with --destructive"));
    assert_non_null(strstr(msg, "same backing file (loop0 over /var/tmp/f.img)"));
    assert_int_equal(safety_decide(&f, RQ(false, false), msg, sizeof(msg)), 0);
}

/* When libblkid could not look, nothing is known to be absent: confirmation is needed. */
static void test_decide_signatures_not_probed(void **state)
{
    (void)state;
    char msg[1024];
    struct safety_facts f = clean_facts("sdq");
    f.sigs_probed = false;
    snprintf(f.sig_error, sizeof(f.sig_error), "libblkid cannot open /dev/sdq: Permission "
             "denied");
    assert_int_equal(safety_decide(&f, RQ(true, true), msg, sizeof(msg)), -1);
    printf("  message: %s\n", msg);
    assert_non_null(strstr(msg, "Permission denied"));
    assert_non_null(strstr(msg, "--overwrite-signatures"));
    assert_int_equal(safety_decide(&f, RQS(true, true), msg, sizeof(msg)), 0);
}

/* ---- safety_decide: file targets ------------------------------------------------------------ */

static struct safety_facts file_facts(const char *path, bool exists, bool data)
{
    struct safety_facts f;
    memset(&f, 0, sizeof(f));
    f.kind = SAFETY_FILE;
    snprintf(f.path, sizeof(f.path), "%s", path);
    f.exists = exists;
    f.holds_data = data;
    f.size = exists ? 32u << 20 : 0;
    f.allocated = data ? 16u << 20 : 0;
    f.dev = makedev(254, 0);
    f.ino = 4242;
    return f;
}

static void test_decide_file_new_sparse_preallocated_need_nothing(void **state)
{
    (void)state;
    char msg[1024] = "junk";
    struct safety_facts f = file_facts("/var/tmp/new.img", false, false);
    assert_int_equal(safety_decide(&f, RQ(true, false), msg, sizeof(msg)), 0);
    assert_string_equal(msg, "");
    f = file_facts("/var/tmp/sparse.img", true, false);      /* truncate -s, or fallocate */
    assert_int_equal(safety_decide(&f, RQ(true, false), msg, sizeof(msg)), 0);
    f.allocated = 32u << 20;                                   /* preallocated, unwritten */
    assert_int_equal(safety_decide(&f, RQ(true, false), msg, sizeof(msg)), 0);
}

static void test_decide_file_with_data_needs_destructive(void **state)
{
    (void)state;
    char msg[1024];
    struct safety_facts f = file_facts("/var/tmp/data.img", true, true);
    assert_int_equal(safety_decide(&f, RQ(true, false), msg, sizeof(msg)), -1);
    printf("  message: %s\n", msg);
    assert_string_equal(msg, "refusing to write to /var/tmp/data.img without --destructive: "
                             "the file exists and holds data (16.0 MiB allocated, size 32.0 "
                             "MiB), which the run overwrites");
    assert_int_equal(safety_decide(&f, RQ(true, true), msg, sizeof(msg)), 0);
    assert_int_equal(safety_decide(&f, RQ(false, false), msg, sizeof(msg)), 0);
    /* leave given earlier in the process (crosscheck's second run on its own file) */
    f.granted = true;
    assert_int_equal(safety_decide(&f, RQ(true, false), msg, sizeof(msg)), 0);
}

static void test_decide_file_backing_a_loop_device(void **state)
{
    (void)state;
    char msg[1024];
    struct safety_facts f = file_facts("/var/tmp/f.img", true, true);
    f.n_loops = 1;
    snprintf(f.loops[0], SAFETY_ITEM_LEN, "/dev/loop3, mounted (loop3 on /mnt)");
    for (int d = 0; d < 2; d++) {
        assert_int_equal(safety_decide(&f, RQ(true, d), msg, sizeof(msg)), -1);
        assert_int_equal(safety_decide(&f, RQS(true, d), msg, sizeof(msg)), -1);
        assert_non_null(strstr(msg, "refusing to write to /var/tmp/f.img even with "
                                    "--destructive: it is the backing file of a loop device "
                                    "(/dev/loop3, mounted (loop3 on /mnt))"));
    }
    f.granted = true;            /* no leave of any kind overrides it */
    assert_int_equal(safety_decide(&f, RQS(true, true), msg, sizeof(msg)), -1);
    /* a sparse file behind an unmounted loop device: refused all the same */
    f = file_facts("/var/tmp/f.img", true, false);
    f.n_loops = 1;
    snprintf(f.loops[0], SAFETY_ITEM_LEN, "/dev/loop3");
    assert_int_equal(safety_decide(&f, RQ(true, true), msg, sizeof(msg)), -1);
    assert_non_null(strstr(msg, "(/dev/loop3)"));
    assert_int_equal(safety_decide(&f, RQ(false, false), msg, sizeof(msg)), 0);

    f = file_facts("/var/tmp/f.img", true, false);
    f.n_loops_unknown = 1;
    snprintf(f.loops_unknown[0], SAFETY_ITEM_LEN, "/dev/loop5: its backing file /x (deleted) "
             "is an unlinked name");
    assert_int_equal(safety_decide(&f, RQ(true, true), msg, sizeof(msg)), -1);
    printf("  message: %s\n", msg);
    assert_non_null(strstr(msg, "cannot tell whether it backs a loop device (/dev/loop5"));
}

static void test_decide_file_active_swap(void **state)
{
    (void)state;
    char msg[1024];
    struct safety_facts f = file_facts("/swapfile", true, true);
    f.n_swaps = 1;
    snprintf(f.swaps[0], SAFETY_ITEM_LEN, "/swapfile");
    assert_int_equal(safety_decide(&f, RQS(true, true), msg, sizeof(msg)), -1);
    printf("  message: %s\n", msg);
    assert_non_null(strstr(msg, "it is an active swap file (/swapfile; swapoff it first)"));
    assert_int_equal(safety_decide(&f, RQ(false, false), msg, sizeof(msg)), 0);
}

static void test_decide_file_locked(void **state)
{
    (void)state;
    char msg[1024];
    /* another ptsbench run: refused whatever this one does, reads included */
    struct safety_facts f = file_facts("/var/tmp/t.img", true, false);
    f.run_locked = true;
    f.run_lock_pid = 4321;
    snprintf(f.run_lock_comm, sizeof(f.run_lock_comm), "ptsbench");
    assert_int_equal(safety_decide(&f, RQ(false, false), msg, sizeof(msg)), -1);
    assert_string_equal(msg, "/var/tmp/t.img: in use by another ptsbench run (pid 4321)");
    assert_int_equal(safety_decide(&f, RQS(true, true), msg, sizeof(msg)), -1);
    assert_string_equal(msg, "/var/tmp/t.img: in use by another ptsbench run (pid 4321)");
    snprintf(f.run_lock_comm, sizeof(f.run_lock_comm), "rsync");
    assert_int_equal(safety_decide(&f, RQ(false, false), msg, sizeof(msg)), -1);
    assert_string_equal(msg, "/var/tmp/t.img: in use: pid 4321 (rsync) holds a lock on it");
    f.run_lock_pid = 0;
    f.run_lock_comm[0] = '\0';
    assert_int_equal(safety_decide(&f, RQ(false, false), msg, sizeof(msg)), -1);
    assert_non_null(strstr(msg, "in use by another ptsbench run"));

    /* a POSIX/OFD lock (QEMU's on an image it runs): no writes, reads allowed */
    f = file_facts("/var/tmp/vm.img", true, true);
    f.n_locks = 1;
    snprintf(f.locks[0], SAFETY_ITEM_LEN, "pid 99 (qemu-system-x86): POSIX WRITE lock");
    assert_int_equal(safety_decide(&f, RQ(true, true), msg, sizeof(msg)), -1);
    printf("  message: %s\n", msg);
    assert_non_null(strstr(msg, "another process holds a lock on it (pid 99"));
    assert_int_equal(safety_decide(&f, RQ(false, false), msg, sizeof(msg)), 0);
}

static void test_parse_locks(void **state)
{
    (void)state;
    const char *text =
        "1: OFDLCK ADVISORY  READ -1 fe:00:10954771 0 EOF\n"
        "2: FLOCK  ADVISORY  WRITE 4739 fe:00:10954771 0 EOF\n"
        "2: -> FLOCK  ADVISORY  WRITE 4740 fe:00:10954771 0 EOF\n"
        "3: POSIX  ADVISORY  WRITE 812 fe:00:77 0 EOF\n"
        "4: FLOCK  ADVISORY  WRITE 900 103:02:10954771 0 EOF\n"
        "5: LEASE  ACTIVE    READ 17 fe:00:10954771 0 EOF\n"
        "garbage\n";
    struct safety_lock lk[8];
    unsigned n = safety_parse_locks(text, makedev(0xfe, 0), 10954771, lk, 8);
    assert_int_equal(n, 3);
    assert_string_equal(lk[0].kind, "OFDLCK");
    assert_int_equal(lk[0].pid, -1);
    assert_string_equal(lk[1].kind, "FLOCK");
    assert_string_equal(lk[1].mode, "WRITE");
    assert_int_equal(lk[1].pid, 4739);
    assert_string_equal(lk[2].kind, "LEASE");
    assert_int_equal(safety_parse_locks(text, makedev(0x103, 2), 10954771, lk, 8), 1);
    assert_int_equal(lk[0].pid, 900);
    assert_int_equal(safety_parse_locks(text, makedev(0xfe, 0), 1, lk, 8), 0);
    assert_int_equal(safety_parse_locks("", makedev(0xfe, 0), 1, lk, 8), 0);
}

/* ---- safety_collect_file and loop aliases on a fake tree --------------------------------------- */

static void ut_real_file(const char *rel, size_t size, bool data, char *path, size_t len)
{
    ut_path(path, len, rel);
    if (data) {
        assert_true(img_fill(path, size));
        return;
    }
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    assert_true(fd >= 0);
    assert_int_equal(ftruncate(fd, (off_t)size), 0);
    close(fd);
}

/* A loop device in the fake sysfs backed by `backing` (a real path, as sysfs shows it). */
static void fake_loop(const char *root, const char *name, const char *majmin, const char *backing)
{
    fake_blockdev(root, name, majmin, false);
    char rel[PATH_MAX], content[PATH_MAX + 2];
    snprintf(rel, sizeof(rel), "%s/sys/devices/virtual/block/%s/loop/backing_file", root, name);
    snprintf(content, sizeof(content), "%s\n", backing);
    ut_write(rel, content);
}

static void test_collect_file_fake_tree(void **state)
{
    (void)state;
    char data[PATH_MAX], other[PATH_MAX], sparse[PATH_MAX], gone[PATH_MAX + 16];
    ut_real_file("ff-data.img", 1 << 20, true, data, sizeof(data));
    ut_real_file("ff-other.img", 1 << 20, false, other, sizeof(other));
    ut_real_file("ff-sparse.img", 4 << 20, false, sparse, sizeof(sparse));
    snprintf(gone, sizeof(gone), "%s/ff-gone.img (deleted)", ut_tmp);
    struct stat st;
    assert_int_equal(stat(data, &st), 0);

    const char *r = "ff";
    fake_loop(r, "loop9", "7:9", data);
    fake_loop(r, "loop8", "7:8", other);
    fake_blockdev(r, "loop7", "7:7", false);       /* unbound: no loop/backing_file */
    ut_write("ff/proc/self/mountinfo",
             "20 1 254:0 / / rw - ext4 /dev/vda rw\n"
             "30 20 7:9 / /mnt/img rw,relatime - ext4 /dev/loop9 rw\n");
    char swaps[2 * PATH_MAX];
    snprintf(swaps, sizeof(swaps), "Filename\tType\tSize\tUsed\tPriority\n"
             "%s file 1020 0 -2\n/dev/zram5 partition 1020 0 100\n", data);
    ut_write("ff/proc/swaps", swaps);
    char locks[512];
    snprintf(locks, sizeof(locks), "1: FLOCK  ADVISORY  WRITE 4242 %02x:%02x:%llu 0 EOF\n"
             "2: POSIX  ADVISORY  WRITE 4343 %02x:%02x:%llu 0 EOF\n", major(st.st_dev),
             minor(st.st_dev), (unsigned long long)st.st_ino, major(st.st_dev),
             minor(st.st_dev), (unsigned long long)st.st_ino);
    ut_write("ff/proc/locks", locks);
    ut_write("ff/proc/4242/comm", "ptsbench\n");
    ut_write("ff/proc/4343/comm", "qemu-system-x86\n");
    char root[PATH_MAX];
    ut_path(root, sizeof(root), r);

    struct safety_facts f;
    char err[512] = "", msg[2048];
    assert_int_equal(safety_collect_file(root, data, &f, err, sizeof(err)), 0);
    assert_int_equal(f.kind, SAFETY_FILE);
    assert_true(f.exists);
    assert_true(f.holds_data);
    assert_int_equal(f.size, 1 << 20);
    assert_int_equal(f.n_loops, 1);
    printf("  loop: %s\n", f.loops[0]);
    assert_string_equal(f.loops[0], "/dev/loop9, mounted (loop9 on /mnt/img)");
    assert_int_equal(f.n_loops_unknown, 0);
    assert_int_equal(f.n_swaps, 1);
    assert_string_equal(f.swaps[0], data);
    assert_true(f.run_locked);
    assert_int_equal(f.run_lock_pid, 4242);
    assert_string_equal(f.run_lock_comm, "ptsbench");
    assert_int_equal(f.n_locks, 1);
    assert_string_equal(f.locks[0], "pid 4343 (qemu-system-x86): POSIX WRITE lock");
    assert_int_equal(safety_decide(&f, RQ(false, false), msg, sizeof(msg)), -1);
    assert_non_null(strstr(msg, "in use by another ptsbench run (pid 4242)"));
    f.run_locked = false;
    assert_int_equal(safety_decide(&f, RQS(true, true), msg, sizeof(msg)), -1);
    printf("  message: %s\n", msg);
    assert_null(strchr(msg, '\n'));
    assert_non_null(strstr(msg, "backing file of a loop device"));
    assert_non_null(strstr(msg, "active swap file"));
    assert_non_null(strstr(msg, "holds a lock"));

    /* The sparse file is none of those: it may be written without a flag. */
    assert_int_equal(safety_collect_file(root, sparse, &f, err, sizeof(err)), 0);
    assert_true(f.exists);
    assert_false(f.holds_data);
    assert_int_equal(f.n_loops + f.n_swaps + f.n_locks, 0);
    assert_false(f.run_locked);
    assert_int_equal(safety_decide(&f, RQ(true, false), msg, sizeof(msg)), 0);

    /* A loop device whose backing path no longer resolves, and whose node cannot be asked
     * (none in the fake tree): cannot tell, so no file may be written. */
    fake_loop(r, "loop6", "7:6", gone);
    assert_int_equal(safety_collect_file(root, sparse, &f, err, sizeof(err)), 0);
    assert_int_equal(f.n_loops_unknown, 1);
    printf("  unknown: %s\n", f.loops_unknown[0]);
    assert_non_null(strstr(f.loops_unknown[0], "/dev/loop6"));
    assert_non_null(strstr(f.loops_unknown[0], "ff-gone.img (deleted)"));
    assert_int_equal(safety_decide(&f, RQ(true, true), msg, sizeof(msg)), -1);
    assert_int_equal(safety_decide(&f, RQ(false, false), msg, sizeof(msg)), 0);

    /* A file that does not exist yet: nothing to check, nothing to destroy. */
    char missing[PATH_MAX];
    ut_path(missing, sizeof(missing), "ff-missing.img");
    assert_int_equal(safety_collect_file(root, missing, &f, err, sizeof(err)), 0);
    assert_false(f.exists);
    assert_int_equal(f.n_loops + f.n_loops_unknown + f.n_swaps, 0);
    assert_int_equal(safety_decide(&f, RQ(true, false), msg, sizeof(msg)), 0);

    /* The loop device target itself: the other loop over the same file is an alias, and its
     * mount is this device's too. */
    fake_loop(r, "loop5", "7:5", data);
    assert_int_equal(safety_collect(root, "loop5", &f, err, sizeof(err)), 0);
    ut_dump(&f);
    assert_int_equal(f.n_aliases, 1);
    char want[PATH_MAX + 32];
    snprintf(want, sizeof(want), "loop9 over %s", data);
    assert_string_equal(f.aliases[0], want);
    assert_true(ut_has(f.mounts, f.n_mounts, "loop9 on /mnt/img"));
    f.sigs_probed = true;
    assert_int_equal(safety_decide(&f, RQS(true, true), msg, sizeof(msg)), -1);
    printf("  message: %s\n", msg);
    assert_non_null(strstr(msg, "same backing file"));
    assert_int_equal(safety_collect(root, "loop8", &f, err, sizeof(err)), 0);
    assert_int_equal(f.n_aliases, 0);
}

/* Holding data, on the real filesystem: written blocks are data; holes and preallocated
 * (unwritten) extents are not. */
static void test_collect_file_data_kinds(void **state)
{
    (void)state;
    char p[PATH_MAX], err[512] = "";
    struct safety_facts f;
    ut_real_file("dk-sparse.img", 8 << 20, false, p, sizeof(p));
    assert_int_equal(safety_collect_file("", p, &f, err, sizeof(err)), 0);
    assert_true(f.exists);
    assert_false(f.holds_data);

    ut_real_file("dk-data.img", 1 << 20, true, p, sizeof(p));
    assert_int_equal(safety_collect_file("", p, &f, err, sizeof(err)), 0);
    assert_true(f.holds_data);
    assert_true(f.allocated >= 1 << 20);

    /* one 4 KiB block written in the middle of a sparse file */
    ut_real_file("dk-one.img", 8 << 20, false, p, sizeof(p));
    char block[4096];
    memset(block, 0x5a, sizeof(block));
    assert_true(img_pwrite(p, block, sizeof(block), 4 << 20));
    assert_int_equal(safety_collect_file("", p, &f, err, sizeof(err)), 0);
    assert_true(f.holds_data);

    ut_path(p, sizeof(p), "dk-prealloc.img");
    int fd = open(p, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    assert_true(fd >= 0);
    int rc = fallocate(fd, 0, 0, 8 << 20);
    close(fd);
    if (rc == 0) {
        assert_int_equal(safety_collect_file("", p, &f, err, sizeof(err)), 0);
        printf("  preallocated: %llu bytes allocated, holds_data=%d\n",
               (unsigned long long)f.allocated, f.holds_data);
        assert_true(f.allocated > 0);
        assert_false(f.holds_data);
    } else {
        printf("  (no fallocate on this filesystem: preallocation not checked)\n");
    }

    ut_path(p, sizeof(p), "dk-empty.img");
    fd = open(p, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(safety_collect_file("", p, &f, err, sizeof(err)), 0);
    assert_true(f.exists);
    assert_false(f.holds_data);

    /* leave given in this process shows as a fact */
    ut_real_file("dk-granted.img", 1 << 20, true, p, sizeof(p));
    struct stat st;
    assert_int_equal(stat(p, &st), 0);
    assert_int_equal(safety_collect_file("", p, &f, err, sizeof(err)), 0);
    assert_false(f.granted);
    safety_file_grant(st.st_dev, st.st_ino);
    assert_int_equal(safety_collect_file("", p, &f, err, sizeof(err)), 0);
    assert_true(f.granted);

    assert_int_equal(safety_collect_file("", "/dev/null", &f, err, sizeof(err)), -1);
    printf("  error: %s\n", err);
    assert_non_null(strstr(err, "not a regular file"));
}

/* ---- libblkid on image files we make ------------------------------------------------------- */

static bool have_tool(const char *name)
{
    static const char *const dirs[] = {"/usr/local/sbin", "/usr/sbin", "/sbin", "/usr/bin",
                                       "/bin"};
    for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
        char p[PATH_MAX];
        snprintf(p, sizeof(p), "%s/%s", dirs[i], name);
        if (access(p, X_OK) == 0)
            return true;
    }
    return false;
}

static bool ut_run(char *const argv[])
{
    struct cmd_result r;
    if (run_cmd(argv, &r) != 0)
        return false;
    bool ok = r.status == 0;
    if (!ok)
        printf("  %s failed (%d): %s%s\n", argv[0], r.status, r.out, r.errout);
    cmd_result_free(&r);
    return ok;
}

static const struct target_signature *find_sig(const struct target_signature *s, unsigned n,
                                               const char *type)
{
    for (unsigned i = 0; i < n; i++)
        if (strcmp(s[i].type, type) == 0)
            return &s[i];
    return NULL;
}

static void test_probe_signatures_on_images(void **state)
{
    (void)state;
    char p[PATH_MAX], err[512] = "";
    struct target_signature s[TARGET_MAX_SIGNATURES];
    unsigned n = 99;

    /* blank: nothing */
    ut_real_file("sig-blank.img", 16 << 20, false, p, sizeof(p));
    assert_int_equal(target_probe_signatures(p, s, TARGET_MAX_SIGNATURES, &n, err,
                                             sizeof(err)), 0);
    assert_int_equal(n, 0);

    /* random data: nothing either */
    ut_real_file("sig-random.img", 4 << 20, true, p, sizeof(p));
    assert_int_equal(target_probe_signatures(p, s, TARGET_MAX_SIGNATURES, &n, err,
                                             sizeof(err)), 0);
    assert_int_equal(n, 0);

    /* a dos partition table, written by hand */
    ut_real_file("sig-dos.img", 16 << 20, false, p, sizeof(p));
    assert_true(img_write_dos(p));
    assert_int_equal(target_probe_signatures(p, s, TARGET_MAX_SIGNATURES, &n, err,
                                             sizeof(err)), 0);
    assert_int_equal(n, 1);
    assert_string_equal(s[0].type, "dos");
    assert_string_equal(s[0].usage, "partition_table");
    assert_string_equal(s[0].uuid, "5054c0de");
    assert_int_equal(s[0].offset, 510);

    /* an LVM2 physical volume label, written by hand */
    ut_real_file("sig-lvm.img", 16 << 20, false, p, sizeof(p));
    assert_true(img_write_lvm_label(p, 16 << 20));
    assert_int_equal(target_probe_signatures(p, s, TARGET_MAX_SIGNATURES, &n, err,
                                             sizeof(err)), 0);
    assert_int_equal(n, 1);
    assert_string_equal(s[0].type, "LVM2_member");
    assert_string_equal(s[0].usage, "raid");
    assert_string_equal(s[0].version, "LVM2 001");
    printf("  LVM2 UUID %s\n", s[0].uuid);
    assert_true(s[0].uuid[0] != '\0');

    if (have_tool("mkfs.ext4")) {
        ut_real_file("sig-ext4.img", 16 << 20, false, p, sizeof(p));
        char *mkfs[] = {"mkfs.ext4", "-q", "-F", "-L", "utdata", p, NULL};
        assert_true(ut_run(mkfs));
        assert_int_equal(target_probe_signatures(p, s, TARGET_MAX_SIGNATURES, &n, err,
                                                 sizeof(err)), 0);
        assert_int_equal(n, 1);
        assert_string_equal(s[0].type, "ext4");
        assert_string_equal(s[0].usage, "filesystem");
        assert_string_equal(s[0].label, "utdata");
        assert_int_equal(strlen(s[0].uuid), 36);
        assert_int_equal(s[0].offset, 1080);
        /* a partition table over it as well: both are listed */
        assert_true(img_write_dos(p));
        assert_int_equal(target_probe_signatures(p, s, TARGET_MAX_SIGNATURES, &n, err,
                                                 sizeof(err)), 0);
        assert_int_equal(n, 2);
        assert_non_null(find_sig(s, n, "ext4"));
        assert_non_null(find_sig(s, n, "dos"));
    } else {
        printf("  (mkfs.ext4 not installed: ext4 signature not checked)\n");
    }
    if (have_tool("mkswap")) {
        ut_real_file("sig-swap.img", 16 << 20, false, p, sizeof(p));
        char *mkswap[] = {"mkswap", p, NULL};
        assert_true(ut_run(mkswap));
        assert_int_equal(target_probe_signatures(p, s, TARGET_MAX_SIGNATURES, &n, err,
                                                 sizeof(err)), 0);
        assert_int_equal(n, 1);
        assert_string_equal(s[0].type, "swap");
    } else {
        printf("  (mkswap not installed: swap signature not checked)\n");
    }

    ut_path(p, sizeof(p), "sig-missing.img");
    assert_int_equal(target_probe_signatures(p, s, TARGET_MAX_SIGNATURES, &n, err,
                                             sizeof(err)), -1);
    printf("  error: %s\n", err);
    assert_non_null(strstr(err, p));
}

/* ---- the run lock on file targets ----------------------------------------------------------- */

/* A target the caller does not own: open(2) refuses O_NOATIME (EPERM), and target_open opens
 * it without.  A child drops to nobody (65534) and opens a root-owned, world-readable file of
 * ours; it reports by exit code: 0 opened without O_NOATIME, 1 refused, 2 opened with it,
 * 3 could not become nobody. */
static void test_open_not_owner_without_noatime(void **state)
{
    (void)state;
    if (geteuid() != 0) {
        printf("  skipped: needs root (a file of another owner)\n");
        return;
    }
    char dir[PATH_MAX], p[PATH_MAX], err[512] = "";
    ut_path(dir, sizeof(dir), "not-owner");
    assert_int_equal(mkdir(dir, 0755), 0);
    struct stat top;
    assert_int_equal(stat(ut_tmp, &top), 0);
    assert_int_equal(chmod(ut_tmp, 0711), 0);   /* nobody may pass through, not list */
    int n = snprintf(p, sizeof(p), "%s/root-owned.img", dir);
    assert_true(n > 0 && (size_t)n < sizeof(p));
    struct target_info t;
    assert_int_equal(target_probe(p, 1 << 20, &t, err, sizeof(err)), 0);
    assert_int_equal(target_create_file(&t, err, sizeof(err)), 0);
    assert_int_equal(chmod(p, 0644), 0);

    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        if (setgid(65534) != 0 || setuid(65534) != 0)
            _exit(3);
        char e2[512] = "";
        int fd = target_open(&t, false, e2, sizeof(e2));
        if (fd < 0) {
            fprintf(stderr, "  child: %s\n", e2);
            _exit(1);
        }
        _exit(fcntl(fd, F_GETFL) & O_NOATIME ? 2 : 0);
    }
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_int_equal(chmod(ut_tmp, top.st_mode & 07777), 0);
    assert_true(WIFEXITED(status));
    printf("  child as nobody: exit %d (0: opened, without O_NOATIME)\n", WEXITSTATUS(status));
    assert_int_equal(WEXITSTATUS(status), 0);
    assert_int_equal(unlink(p), 0);
    assert_int_equal(rmdir(dir), 0);
}

static void test_open_locks_file(void **state)
{
    (void)state;
    char p[PATH_MAX], err[512] = "";
    ut_path(p, sizeof(p), "locked.img");
    struct target_info t;
    assert_int_equal(target_probe(p, 8 << 20, &t, err, sizeof(err)), 0);
    assert_int_equal(target_create_file(&t, err, sizeof(err)), 0);
    int fd = target_open(&t, true, err, sizeof(err));
    if (fd < 0)
        fail_msg("target_open: %s", err);

    /* the lock shows in proc/locks as a flock of this process */
    struct stat st;
    assert_int_equal(fstat(fd, &st), 0);
    char comm[32];
    long pid = safety_flock_holder("", st.st_dev, st.st_ino, comm, sizeof(comm));
    printf("  held by pid %ld (%s)\n", pid, comm);
    assert_int_equal(pid, (long)getpid());

    /* a second open, for reading or writing, and creating/extending, are refused */
    for (int w = 0; w < 2; w++) {
        err[0] = '\0';
        int fd2 = target_open(&t, w, err, sizeof(err));
        if (fd2 >= 0)
            close(fd2);
        assert_int_equal(fd2, -1);
        printf("  error: %s\n", err);
        assert_non_null(strstr(err, p));
        assert_non_null(strstr(err, "in use"));
        char want[32];
        snprintf(want, sizeof(want), "pid %ld", (long)getpid());
        assert_non_null(strstr(err, want));
    }
    t.capacity = 16 << 20;
    err[0] = '\0';
    assert_int_equal(target_create_file(&t, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "in use"));
    assert_int_equal(stat(p, &st), 0);
    assert_int_equal(st.st_size, 8 << 20);        /* not extended */

    /* the facts see it too */
    struct safety_facts f;
    assert_int_equal(safety_collect_file("", p, &f, err, sizeof(err)), 0);
    assert_true(f.run_locked);
    assert_int_equal(f.run_lock_pid, (long)getpid());

    /* closed: free again */
    close(fd);
    fd = target_open(&t, false, err, sizeof(err));
    if (fd < 0)
        fail_msg("target_open after close: %s", err);
    close(fd);
    assert_int_equal(safety_collect_file("", p, &f, err, sizeof(err)), 0);
    assert_false(f.run_locked);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_decide_reads_always_allowed),
        cmocka_unit_test(test_decide_write_needs_destructive),
        cmocka_unit_test(test_decide_write_destructive_clean_allowed),
        cmocka_unit_test(test_decide_mounted),
        cmocka_unit_test(test_decide_swap),
        cmocka_unit_test(test_decide_holders),
        cmocka_unit_test(test_decide_backs_root),
        cmocka_unit_test(test_decide_all_reasons_one_line),
        cmocka_unit_test(test_decide_small_buffer),
        cmocka_unit_test(test_decide_each_signature_needs_confirmation),
        cmocka_unit_test(test_decide_several_signatures_one_line),
        cmocka_unit_test(test_decide_confirmation_does_not_override_in_use),
        cmocka_unit_test(test_decide_signatures_not_probed),
        cmocka_unit_test(test_decide_file_new_sparse_preallocated_need_nothing),
        cmocka_unit_test(test_decide_file_with_data_needs_destructive),
        cmocka_unit_test(test_decide_file_backing_a_loop_device),
        cmocka_unit_test(test_decide_file_active_swap),
        cmocka_unit_test(test_decide_file_locked),
        cmocka_unit_test(test_parse_locks),
        cmocka_unit_test(test_collect_fake_disk),
        cmocka_unit_test(test_collect_fake_partition_examines_disk),
        cmocka_unit_test(test_decide_partition_named_as_given),
        cmocka_unit_test(test_decide_holder_named_by_dm_name),
        cmocka_unit_test(test_collect_fake_mpath_path_counts_its_head),
        cmocka_unit_test(test_collect_fake_other_disks),
        cmocka_unit_test(test_collect_fake_errors),
        cmocka_unit_test(test_collect_fake_root_via_slaves),
        cmocka_unit_test(test_collect_real_root_refused),
        cmocka_unit_test(test_collect_file_fake_tree),
        cmocka_unit_test(test_collect_file_data_kinds),
        cmocka_unit_test(test_probe_signatures_on_images),
        cmocka_unit_test(test_probe_existing_file),
        cmocka_unit_test(test_probe_missing_file),
        cmocka_unit_test(test_probe_rejects_others),
        cmocka_unit_test(test_create_and_open_file),
        cmocka_unit_test(test_open_not_owner_without_noatime),
        cmocka_unit_test(test_open_locks_file),
        cmocka_unit_test_setup_teardown(test_probe_own_loop_device, loop_setup, loop_teardown),
    };
    return cmocka_run_group_tests_name("safety", tests, group_setup, group_teardown);
}
