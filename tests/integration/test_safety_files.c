/* test_safety_files.c — file targets are refused when writing them would destroy something:
 *   - the backing file of a mounted loop device (the reported bug: `ptsbench run --target
 *     f.img` exited 0 and corrupted the filesystem mounted from f.img), of an unmounted one,
 *     and of one whose backing path no longer names it (a hard link, the first name unlinked);
 *     with or without --destructive and --overwrite-signatures;
 *   - an active swap file;
 *   - an existing file that holds data, without --destructive;
 *   - a file another ptsbench run is using (its flock), for reads too: "in use by another
 *     ptsbench run (pid N)".
 * Every writing command (safety_cli.h: run, run with WIPC, run-test, profile with --purge
 * discard, a read-only profile with --purge discard, run --size) is refused with one line,
 * exit status 2 and nothing created, and the file's CRC-32 is unchanged (and, for the
 * mounted filesystem, e2fsck -fn is clean).  The controls: files without data (sparse,
 * preallocated, new, empty) need no flag, --destructive writes a file with data, and
 * crosscheck's repeated runs on the file it created need no flag either.
 *
 * Each test works in its own temp dir under /var/tmp with files, loop devices, a mount and a
 * swap file it creates itself; the teardown stops the background run, swapoffs, unmounts,
 * detaches and removes everything whatever happened.  The loop, mount and swap cases need
 * root and losetup, mkfs.ext4, e2fsck, mount, umount, mkswap, swapon, swapoff; they skip with
 * the reason printed otherwise.  No device or mount but the test's own is touched. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "helpers.h"
#include "safety_cli.h"
#include "safety_images.h"

#define IMG_SIZE (32ll << 20)
#define CANARY_NAME "canary.txt"

struct fixture {
    char *dir;                    /* temp dir */
    char img[PATH_MAX];           /* the file target of most tests */
    char mnt[PATH_MAX];
    char loops[2][64];            /* loop devices we attached */
    unsigned n_loops;
    bool mounted;
    char swapfile[PATH_MAX];      /* set while swapon'd */
    pid_t child;                  /* a background ptsbench run */
    char losetup[PATH_MAX], mkfs[PATH_MAX], e2fsck[PATH_MAX], mount[PATH_MAX],
         umount[PATH_MAX], mkswap[PATH_MAX], swapon[PATH_MAX], swapoff[PATH_MAX];
};

static struct fixture fx;

static const char *const no_flags[] = {NULL};
static const char *const destructive[] = {"--destructive", NULL};
static const char *const confirmed[] = {"--destructive", "--overwrite-signatures", NULL};

static int setup(void **state)
{
    (void)state;
    memset(&fx, 0, sizeof(fx));
    fx.dir = make_temp_dir("safety-files");
    if (!fx.dir)
        return -1;
    snprintf(fx.img, sizeof(fx.img), "%s/f.img", fx.dir);
    snprintf(fx.mnt, sizeof(fx.mnt), "%s/mnt", fx.dir);
    return 0;
}

static void stop_child(void)
{
    if (fx.child <= 0)
        return;
    kill(fx.child, SIGINT);
    int st;
    for (int i = 0; i < 100; i++) {
        if (waitpid(fx.child, &st, WNOHANG) == fx.child) {
            fx.child = 0;
            return;
        }
        usleep(100 * 1000);
    }
    kill(fx.child, SIGKILL);
    waitpid(fx.child, &st, 0);
    fx.child = 0;
}

static int teardown(void **state)
{
    (void)state;
    char why[1024];
    stop_child();
    if (fx.swapfile[0]) {
        char *argv[] = {fx.swapoff, fx.swapfile, NULL};
        if (sc_run_ok(argv, why, sizeof(why)))
            fx.swapfile[0] = '\0';
        else
            fprintf(stderr, "WARNING: could not swapoff %s: %s\n", fx.swapfile, why);
    }
    for (int i = 0; fx.mounted && i < 10; i++) {
        char *argv[] = {fx.umount, fx.mnt, NULL};
        if (sc_run_ok(argv, why, sizeof(why)))
            fx.mounted = false;
        else
            usleep(200 * 1000);
    }
    if (fx.mounted) {
        char *argv[] = {fx.umount, "-l", fx.mnt, NULL};
        if (sc_run_ok(argv, why, sizeof(why)))
            fx.mounted = false;
        else
            fprintf(stderr, "WARNING: could not unmount %s: %s\n", fx.mnt, why);
    }
    while (fx.n_loops) {
        char *argv[] = {fx.losetup, "-d", fx.loops[fx.n_loops - 1], NULL};
        if (!sc_run_ok(argv, why, sizeof(why)))
            fprintf(stderr, "WARNING: could not detach %s: %s\n", fx.loops[fx.n_loops - 1],
                    why);
        fx.n_loops--;
    }
    /* Never walk into a filesystem that is still mounted, nor remove an active swap file. */
    if (fx.dir && !fx.mounted && !fx.swapfile[0])
        remove_tree(fx.dir);
    else if (fx.dir)
        fprintf(stderr, "WARNING: left %s behind (still mounted or swapping)\n", fx.dir);
    free(fx.dir);
    fx.dir = NULL;
    return 0;
}

/* Skip unless root with the tools (names NULL-terminated) and loop devices. */
static void need_root_tools(const char *const *names, char *const *outs)
{
    if (!is_root()) {
        printf("SKIP: loop devices, mounts and swap need root\n");
        skip();
    }
    for (int i = 0; names[i]; i++) {
        if (!sc_find_tool(names[i], outs[i], PATH_MAX)) {
            printf("SKIP: %s is not installed\n", names[i]);
            skip();
        }
    }
    if (access("/dev/loop-control", F_OK) != 0) {
        printf("SKIP: no loop device support (/dev/loop-control missing)\n");
        skip();
    }
}

static void need_loop_tools(void)
{
    static const char *const names[] = {"losetup", "mkfs.ext4", "e2fsck", "mount", "umount",
                                        NULL};
    char *const outs[] = {fx.losetup, fx.mkfs, fx.e2fsck, fx.mount, fx.umount};
    need_root_tools(names, outs);
    if (access(ptsbench_bin(), X_OK) != 0)
        fail_msg("ptsbench binary %s not found (build it first, or set $PTSBENCH)",
                 ptsbench_bin());
}

static void attach(const char *img)
{
    char why[1024];
    assert_true(fx.n_loops < 2);
    if (!sc_attach(fx.losetup, img, fx.loops[fx.n_loops], sizeof(fx.loops[0]), why,
                   sizeof(why))) {
        /* no free loop device is the machine's limit, not ptsbench's failure */
        printf("SKIP: %s\n", why);
        skip();
    }
    printf("  %s is attached to %s\n", img, fx.loops[fx.n_loops]);
    fx.n_loops++;
}

static void sparse_file(const char *path, long long size)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    assert_true(fd >= 0);
    assert_int_equal(ftruncate(fd, size), 0);
    close(fd);
}

static uint32_t crc_of(const char *path, uint64_t *size)
{
    uint32_t crc = 0;
    if (!img_checksum(path, &crc, size))
        fail_msg("cannot read %s", path);
    return crc;
}

static void expect_unchanged(const char *path, uint32_t crc, uint64_t size)
{
    uint64_t now_size = 0;
    uint32_t now = crc_of(path, &now_size);
    if (now != crc || now_size != size)
        fail_msg("%s changed (CRC %08x -> %08x, %llu -> %llu bytes)", path, crc, now,
                 (unsigned long long)size, (unsigned long long)now_size);
}

/* ---- the backing file of a loop device -------------------------------------------------- */

/* The reported case: f.img holds ext4, is attached and mounted; nothing may write f.img. */
static void test_mounted_loop_backing_file(void **state)
{
    (void)state;
    need_loop_tools();
    char why[1024];
    sparse_file(fx.img, IMG_SIZE);
    /* no lazy initialisation: the mounted, idle filesystem must not write by itself */
    char *mkfs[] = {fx.mkfs, "-q", "-F", "-E", "lazy_itable_init=0,lazy_journal_init=0",
                    fx.img, NULL};
    if (!sc_run_ok(mkfs, why, sizeof(why)))
        fail_msg("%s", why);
    attach(fx.img);
    assert_int_equal(mkdir(fx.mnt, 0755), 0);
    char *mnt[] = {fx.mount, "-t", "ext4", fx.loops[0], fx.mnt, NULL};
    if (!sc_run_ok(mnt, why, sizeof(why)))
        fail_msg("%s", why);
    fx.mounted = true;
    char canary[PATH_MAX + 32];
    snprintf(canary, sizeof(canary), "%s/%s", fx.mnt, CANARY_NAME);
    assert_true(img_fill(canary, 1 << 20));
    uint32_t canary_crc = crc_of(canary, NULL);
    sync();

    uint64_t size = 0;
    uint32_t before = crc_of(fx.img, &size);
    const char *const *flags[] = {no_flags, destructive, confirmed, NULL};
    const char *const want[] = {"refusing to write to", fx.img, "even with --destructive",
                                "backing file of a loop device", fx.loops[0], "mounted", NULL};
    sc_expect_all_refused(fx.img, flags, want, fx.dir, true);
    sync();
    expect_unchanged(fx.img, before, size);
    assert_int_equal(crc_of(canary, NULL), canary_crc);

    char *um[] = {fx.umount, fx.mnt, NULL};
    if (!sc_run_ok(um, why, sizeof(why)))
        fail_msg("%s", why);
    fx.mounted = false;
    char *fsck[] = {fx.e2fsck, "-fn", fx.loops[0], NULL};
    if (!sc_run_ok(fsck, why, sizeof(why)))
        fail_msg("the filesystem was damaged: %s", why);
}

/* Unmounted, and a sparse file with no data at all: still refused (the loop device may be
 * used directly, by a VM or a later mount). */
static void test_unmounted_loop_backing_file(void **state)
{
    (void)state;
    need_loop_tools();
    sparse_file(fx.img, IMG_SIZE);
    attach(fx.img);
    uint64_t size = 0;
    uint32_t before = crc_of(fx.img, &size);
    const char *const *flags[] = {no_flags, confirmed, NULL};
    const char *const want[] = {fx.img, "backing file of a loop device", fx.loops[0], NULL};
    sc_expect_all_refused(fx.img, flags, want, fx.dir, true);
    expect_unchanged(fx.img, before, size);
}

/* sysfs names the backing file by the path it was attached with; here that name is gone
 * ("... (deleted)") and the file lives on under a second name.  The device's own answer
 * (LOOP_GET_STATUS64: st_dev, st_ino) still finds it. */
static void test_loop_backing_file_under_another_name(void **state)
{
    (void)state;
    need_loop_tools();
    char other[PATH_MAX + 8];
    snprintf(other, sizeof(other), "%s/g.img", fx.dir);
    sparse_file(fx.img, IMG_SIZE);
    assert_int_equal(link(fx.img, other), 0);
    attach(fx.img);
    assert_int_equal(unlink(fx.img), 0);
    uint64_t size = 0;
    uint32_t before = crc_of(other, &size);
    const char *const *flags[] = {confirmed, NULL};
    const char *const want[] = {other, "backing file of a loop device", fx.loops[0], NULL};
    sc_expect_all_refused(other, flags, want, fx.dir, true);
    expect_unchanged(other, before, size);
}

/* ---- swap -------------------------------------------------------------------------------- */

static void test_active_swap_file(void **state)
{
    (void)state;
    static const char *const names[] = {"mkswap", "swapon", "swapoff", NULL};
    char *const outs[] = {fx.mkswap, fx.swapon, fx.swapoff};
    need_root_tools(names, outs);
    char why[1024], path[PATH_MAX + 8];
    snprintf(path, sizeof(path), "%s/swap.img", fx.dir);
    assert_true(img_fill(path, 32 << 20));            /* no holes: swapon refuses them */
    assert_int_equal(chmod(path, 0600), 0);
    char *mk[] = {fx.mkswap, path, NULL};
    if (!sc_run_ok(mk, why, sizeof(why)))
        fail_msg("%s", why);
    char *on[] = {fx.swapon, path, NULL};
    if (!sc_run_ok(on, why, sizeof(why))) {
        printf("SKIP: swapon %s failed (%s)\n", path, why);
        skip();
    }
    snprintf(fx.swapfile, sizeof(fx.swapfile), "%s", path);
    /* (no checksum: the kernel itself may page out to it meanwhile) */
    const char *const *flags[] = {no_flags, confirmed, NULL};
    const char *const want[] = {path, "even with --destructive", "active swap file", NULL};
    sc_expect_all_refused(path, flags, want, fx.dir, true);
}

/* ---- data, and no data ------------------------------------------------------------------- */

static void test_existing_file_with_data(void **state)
{
    (void)state;
    assert_true(img_fill(fx.img, IMG_SIZE));
    uint64_t size = 0;
    uint32_t before = crc_of(fx.img, &size);
    const char *const *flags[] = {no_flags, NULL};
    const char *const want[] = {"refusing to write to", fx.img, "without --destructive",
                                "holds data", NULL};
    sc_expect_all_refused(fx.img, flags, want, fx.dir, true);
    expect_unchanged(fx.img, before, size);
    /* reading it needs nothing */
    const char *const rd[] = {"run", "--target", fx.img, "--workload", "rw=randread,bs=4k",
                              "--rounds", "1", "--round-time", "1", "-q", NULL};
    sc_expect_ok(rd, fx.dir);
    expect_unchanged(fx.img, before, size);
    /* the control: --destructive writes it */
    const char *const wr[] = {"run", "--target", fx.img, "--workload", "rw=randwrite,bs=64k",
                              "--rounds", "1", "--round-time", "1", "--destructive", "-q", NULL};
    sc_expect_ok(wr, fx.dir);
    if (crc_of(fx.img, NULL) == before)
        fail_msg("the run with --destructive did not write %s", fx.img);
}

static void run_write_ok(const char *path, const char *size)
{
    const char *args[16];
    int n = 0;
    args[n++] = "run";
    args[n++] = "--target";
    args[n++] = path;
    if (size) {
        args[n++] = "--size";
        args[n++] = size;
    }
    const char *rest[] = {"--workload", "rw=randwrite,bs=64k", "--rounds", "1", "--round-time",
                          "1", "-q", NULL};
    for (int i = 0; rest[i]; i++)
        args[n++] = rest[i];
    args[n] = NULL;
    sc_expect_ok(args, fx.dir);
}

/* Creating a file, extending an empty one, writing a sparse or a preallocated one: nothing is
 * destroyed, no flag is needed.  Once written, the file holds data: the next invocation asks. */
static void test_files_without_data_need_no_flag(void **state)
{
    (void)state;
    char p[PATH_MAX + 16];
    snprintf(p, sizeof(p), "%s/sparse.img", fx.dir);
    sparse_file(p, IMG_SIZE);
    run_write_ok(p, NULL);

    snprintf(p, sizeof(p), "%s/prealloc.img", fx.dir);
    int fd = open(p, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    assert_true(fd >= 0);
    int rc = fallocate(fd, 0, 0, IMG_SIZE);
    close(fd);
    if (rc == 0)
        run_write_ok(p, NULL);
    else
        printf("  (no fallocate here: the preallocated case is not run)\n");

    snprintf(p, sizeof(p), "%s/empty.img", fx.dir);
    sparse_file(p, 0);
    run_write_ok(p, "32m");

    snprintf(p, sizeof(p), "%s/new.img", fx.dir);
    run_write_ok(p, "32m");
    const char *const *flags[] = {no_flags, NULL};
    const char *const want[] = {p, "holds data", NULL};
    sc_expect_refused(SC_RUN_WRITE, p, flags[0], want, fx.dir);
}

/* crosscheck runs four times on the file its first run created: leave given once holds for
 * the invocation (safety_file_grant). */
static void test_crosscheck_on_its_own_file(void **state)
{
    (void)state;
    char fio[PATH_MAX];
    if (!sc_find_tool("fio", fio, sizeof(fio))) {
        printf("SKIP: fio is not installed (crosscheck runs it)\n");
        skip();
    }
    char p[PATH_MAX + 16];
    snprintf(p, sizeof(p), "%s/cc.img", fx.dir);
    const char *const args[] = {"crosscheck", "--target", p, "--size", "32m", "--workload",
                                "rw=randwrite,bs=64k", "--round-time", "1", "--repeat", "2",
                                "-q", NULL};
    sc_expect_ok(args, fx.dir);
}

/* ---- the run lock ------------------------------------------------------------------------ */

/* Does proc/locks show a flock held by pid? */
static bool holds_flock(pid_t pid)
{
    char *text = slurp_file("/proc/locks", NULL);
    if (!text)
        return false;
    bool found = false;
    for (char *l = strtok(text, "\n"); l && !found; l = strtok(NULL, "\n")) {
        long id, p;
        char kind[16], adv[16], mode[16];
        if (sscanf(l, "%ld: %15s %15s %15s %ld", &id, kind, adv, mode, &p) == 5 &&
            strcmp(kind, "FLOCK") == 0 && p == (long)pid)
            found = true;
    }
    free(text);
    return found;
}

static void test_second_run_refused_while_first_runs(void **state)
{
    (void)state;
    if (access(ptsbench_bin(), X_OK) != 0)
        fail_msg("ptsbench binary %s not found", ptsbench_bin());
    char first_out[PATH_MAX + 16];
    snprintf(first_out, sizeof(first_out), "%s/first", fx.dir);
    /* --no-layout: the first run only reads (it would otherwise lay the new file out first, a
     * write the CRC below would see) */
    char *argv[] = {(char *)ptsbench_bin(), "run", "--target", fx.img, "--size", "32m",
                    "--workload", "rw=randread,bs=4k", "--rounds", "1", "--round-time", "20",
                    "--no-layout", "-q", "--out", first_out, NULL};
    fflush(stdout);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        int null = open("/dev/null", O_RDWR);
        if (null >= 0) {
            dup2(null, STDOUT_FILENO);
            dup2(null, STDERR_FILENO);
        }
        execv(argv[0], argv);
        _exit(127);
    }
    fx.child = pid;
    bool locked = false;
    for (int i = 0; i < 200 && !locked; i++) {
        locked = holds_flock(pid);
        if (!locked)
            usleep(50 * 1000);
        int st;
        if (!locked && waitpid(pid, &st, WNOHANG) == pid) {
            fx.child = 0;
            fail_msg("the first run ended (status %d) before it locked %s", st, fx.img);
        }
    }
    if (!locked)
        fail_msg("the first run (pid %d) never locked %s", (int)pid, fx.img);
    printf("  pid %d holds %s\n", (int)pid, fx.img);

    uint64_t size = 0;
    uint32_t before = crc_of(fx.img, &size);
    char want_pid[64];
    snprintf(want_pid, sizeof(want_pid), "in use by another ptsbench run (pid %d)", (int)pid);
    const char *const want[] = {fx.img, want_pid, NULL};
    /* reads are refused too: the two runs would measure each other */
    sc_expect_refused(SC_RUN_WRITE, fx.img, (const char *const[]){"--workload",
                      "rw=randread,bs=4k", NULL}, want, fx.dir);
    const char *const *flags[] = {destructive, NULL};
    sc_expect_all_refused(fx.img, flags, want, fx.dir, true);
    expect_unchanged(fx.img, before, size);

    stop_child();
    /* the lock died with the run (--no-layout: the first run's --size extended the file with
     * never-written space, and laying that out would write a file that holds data) */
    const char *const rd[] = {"run", "--target", fx.img, "--workload", "rw=randread,bs=4k",
                              "--rounds", "1", "--round-time", "1", "--no-layout", "-q", NULL};
    sc_expect_ok(rd, fx.dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_mounted_loop_backing_file, setup, teardown),
        cmocka_unit_test_setup_teardown(test_unmounted_loop_backing_file, setup, teardown),
        cmocka_unit_test_setup_teardown(test_loop_backing_file_under_another_name, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_active_swap_file, setup, teardown),
        cmocka_unit_test_setup_teardown(test_existing_file_with_data, setup, teardown),
        cmocka_unit_test_setup_teardown(test_files_without_data_need_no_flag, setup, teardown),
        cmocka_unit_test_setup_teardown(test_crosscheck_on_its_own_file, setup, teardown),
        cmocka_unit_test_setup_teardown(test_second_run_refused_while_first_runs, setup,
                                        teardown),
    };
    return cmocka_run_group_tests_name("safety_files", tests, NULL, NULL);
}
