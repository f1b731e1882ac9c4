/* test_zram_helpers.c — the tests' zram helpers (tests/helpers.h) use only devices they create
 * and remove exactly those, on every way out of a program. Device A is made by hand first
 * (hot_add, 16 MiB, a 1 MiB pattern written through O_DIRECT), as someone's unmounted scratch
 * area would be; after each case A still exists as the same instance (its diskseq), with its
 * disksize and its bytes:
 *   - the helpers create B (a new number, the size asked) and remove it: B is gone;
 *   - B and C at once, both removed by zram_remove_all;
 *   - zram_remove refuses A, which it did not create;
 *   - a child process that created a device and then returns from main without removing it,
 *     fails a cmocka assertion, calls abort(), or gets SIGINT or SIGTERM leaves nothing behind
 *     (atexit and signal handlers), and dies the way it would have;
 *   - a child that is SIGKILLed leaves its device, recorded in $PTSBENCH_TEST_ZRAM_DIR as
 *     "N DISKSEQ PID", which is what tests/run-tests.sh removes after each program (this test
 *     removes it itself).
 * Root and /sys/class/zram-control only; every case is skipped with the reason otherwise. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "helpers.h"

#define A_SIZE (16u << 20)
#define PATTERN_BYTES (1u << 20)

/* A zram device identified as an instance: its number and its diskseq. */
struct zdev {
    unsigned id;
    unsigned long long seq;
};

static struct zdev a;               /* the bystander, made by hand */
static bool have_a;
static const char *skip_reason;
static unsigned char *pattern;      /* 4096-aligned, PATTERN_BYTES */
static char *dir;                   /* ledger and child logs */

static bool read_sys(const char *path, char *buf, size_t len)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    ssize_t n = read(fd, buf, len - 1);
    close(fd);
    buf[n > 0 ? n : 0] = '\0';
    return n > 0;
}

static int write_sys(const char *path, const char *val)
{
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0)
        return errno;
    int e = write(fd, val, strlen(val)) == (ssize_t)strlen(val) ? 0 : errno;
    close(fd);
    return e;
}

static unsigned long long attr_ull(unsigned id, const char *attr)
{
    char path[128], buf[64];
    snprintf(path, sizeof(path), "/sys/block/zram%u/%s", id, attr);
    return read_sys(path, buf, sizeof(buf)) ? strtoull(buf, NULL, 10) : 0;
}

/* Does zramN exist as this instance? A removed number may be reused by another process's
 * hot_add; diskseq tells the instances apart (the test is skipped on kernels without it). */
static bool alive(const struct zdev *z)
{
    return z->seq != 0 && attr_ull(z->id, "diskseq") == z->seq;
}

static void nap_100ms(void)
{
    struct timespec ts = {0, 100 * 1000 * 1000};
    nanosleep(&ts, NULL);
}

/* Remove a device this test made by hand (never the helpers' way, so that the helpers are
 * what is tested): reset and hot_remove, retrying while udev still holds it. */
static void remove_by_hand(const struct zdev *z)
{
    char reset[128], id[16];
    snprintf(reset, sizeof(reset), "/sys/block/zram%u/reset", z->id);
    snprintf(id, sizeof(id), "%u", z->id);
    for (int i = 0; i < 50 && alive(z) && write_sys(reset, "1") == EBUSY; i++)
        nap_100ms();
    for (int i = 0; i < 50 && alive(z) && write_sys("/sys/class/zram-control/hot_remove", id); i++)
        nap_100ms();
    if (alive(z))
        printf("WARNING: could not remove /dev/zram%u, made by this test\n", z->id);
}

static bool pattern_io(unsigned id, bool write_it)
{
    char dev[64];
    snprintf(dev, sizeof(dev), "/dev/zram%u", id);
    int fd = open(dev, (write_it ? O_WRONLY : O_RDONLY) | O_DIRECT | O_CLOEXEC);
    if (fd < 0)
        return false;
    bool ok;
    if (write_it) {
        ok = pwrite(fd, pattern, PATTERN_BYTES, 0) == PATTERN_BYTES && fsync(fd) == 0;
    } else {
        unsigned char *back = aligned_alloc(4096, PATTERN_BYTES);
        ok = back && pread(fd, back, PATTERN_BYTES, 0) == PATTERN_BYTES &&
             memcmp(back, pattern, PATTERN_BYTES) == 0;
        free(back);
    }
    close(fd);
    return ok;
}

static int setup(void **state)
{
    (void)state;
    pattern = aligned_alloc(4096, PATTERN_BYTES);
    dir = make_temp_dir("zram-helpers");
    if (!pattern || !dir)
        return -1;
    uint64_t x = 0x9e3779b97f4a7c15ull;
    for (size_t i = 0; i < PATTERN_BYTES; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        pattern[i] = (unsigned char)(x >> 24);
    }
    if (!is_root()) {
        skip_reason = "zram needs root";
        return 0;
    }
    char buf[32];
    if (!read_sys("/sys/class/zram-control/hot_add", buf, sizeof(buf))) {
        skip_reason = "no /sys/class/zram-control/hot_add (zram module not loaded?)";
        return 0;
    }
    a.id = (unsigned)strtoul(buf, NULL, 10);
    a.seq = attr_ull(a.id, "diskseq");
    if (a.seq == 0) {   /* cannot tell instances apart: remove the new, empty device at once */
        snprintf(buf, sizeof(buf), "%u", a.id);
        write_sys("/sys/class/zram-control/hot_remove", buf);
        skip_reason = "no /sys/block/zramN/diskseq (kernel before 5.15)";
        return 0;
    }
    have_a = true;
    char disksize[128], size[32];
    snprintf(disksize, sizeof(disksize), "/sys/block/zram%u/disksize", a.id);
    snprintf(size, sizeof(size), "%u", A_SIZE);
    if (write_sys(disksize, size) != 0 || !pattern_io(a.id, true)) {
        skip_reason = "cannot set up a bystander zram device by hand";
        return 0;
    }
    print_message("bystander /dev/zram%u (diskseq %llu): 16 MiB, 1 MiB pattern\n", a.id, a.seq);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    zram_remove_all();
    if (have_a)
        remove_by_hand(&a);
    remove_tree(dir);
    free(dir);
    free(pattern);
    return 0;
}

static void need_zram(void)
{
    if (skip_reason) {
        print_message("SKIP: %s\n", skip_reason);
        skip();
    }
}

static void check_a_intact(void)
{
    assert_true(alive(&a));
    assert_int_equal(attr_ull(a.id, "disksize"), A_SIZE);
    assert_true(pattern_io(a.id, false));
}

static struct zdev zdev_of(const char *devpath)
{
    struct zdev z = {0, 0};
    assert_int_equal(strncmp(devpath, "/dev/zram", 9), 0);
    z.id = (unsigned)strtoul(devpath + 9, NULL, 10);
    z.seq = attr_ull(z.id, "diskseq");
    return z;
}

static void test_create_and_remove_one(void **state)
{
    (void)state;
    need_zram();
    char b_path[64];
    assert_true(zram_create("32M", b_path, sizeof(b_path)));
    struct zdev b = zdev_of(b_path);
    print_message("created %s (diskseq %llu)\n", b_path, b.seq);
    assert_int_not_equal(b.id, a.id);
    assert_true(alive(&b));
    char buf[64];
    assert_true(zram_attr(b_path, "disksize", buf, sizeof(buf)));
    assert_int_equal(strtoull(buf, NULL, 10), 32u << 20);
    int fd = open(b_path, O_WRONLY | O_CLOEXEC);   /* use it as a test would */
    assert_true(fd >= 0);
    assert_int_equal(pwrite(fd, pattern, 65536, 0), 65536);
    assert_int_equal(fsync(fd), 0);
    close(fd);
    zram_remove(b_path);
    assert_false(alive(&b));
    check_a_intact();
}

static void test_two_at_once(void **state)
{
    (void)state;
    need_zram();
    char b_path[64], c_path[64];
    assert_true(zram_create("8M", b_path, sizeof(b_path)));
    assert_true(zram_create("8M", c_path, sizeof(c_path)));
    struct zdev b = zdev_of(b_path), c = zdev_of(c_path);
    assert_string_not_equal(b_path, c_path);
    assert_true(alive(&b) && alive(&c));
    zram_remove_all();
    assert_false(alive(&b));
    assert_false(alive(&c));
    check_a_intact();
}

static void test_refuses_a_device_it_did_not_create(void **state)
{
    (void)state;
    need_zram();
    char a_path[64];
    snprintf(a_path, sizeof(a_path), "/dev/zram%u", a.id);
    zram_remove(a_path);   /* prints a WARNING, touches nothing */
    check_a_intact();
}

/* ---- a child that creates a device, then ends one way or another --------------------- */

enum ending { END_RETURN, END_ASSERT, END_ABORT, END_SIGNAL };

static enum ending child_ending;
static int child_pipe = -1;

/* Tell the parent which device was made: "/dev/zramN DISKSEQ". */
static void child_report(const char *devpath)
{
    char line[128], seq[32] = "0";
    if (!zram_attr(devpath, "diskseq", seq, sizeof(seq)))
        _exit(3);
    seq[strcspn(seq, "\n")] = '\0';
    int n = snprintf(line, sizeof(line), "%s %s\n", devpath, seq);
    if (write(child_pipe, line, (size_t)n) != n)
        _exit(3);
}

static void child_failing_test(void **state)
{
    (void)state;
    char dev[64];
    if (!zram_create("8M", dev, sizeof(dev)))
        _exit(4);
    child_report(dev);
    assert_true(false);   /* cmocka longjmps out; nothing here removes dev */
}

static int child_main(void)
{
    struct rlimit no_core = {0, 0};
    setrlimit(RLIMIT_CORE, &no_core);   /* abort() without a core file */
    if (setenv("PTSBENCH_TEST_ZRAM_DIR", dir, 1) != 0)
        return 5;
    if (child_ending == END_ASSERT) {
        const struct CMUnitTest t[] = {cmocka_unit_test(child_failing_test)};
        return cmocka_run_group_tests(t, NULL, NULL) == 1 ? 0 : 6;
    }
    char dev[64];
    if (!zram_create("8M", dev, sizeof(dev)))
        return 4;
    child_report(dev);
    if (child_ending == END_ABORT)
        abort();
    if (child_ending == END_SIGNAL)
        for (;;)
            pause();
    return 0;   /* END_RETURN: leaves dev to the atexit handler */
}

/* Fork a child that ends as `how` (for END_SIGNAL: killed with sig once it has its device);
 * return its wait status, the device it made, and the ledger file's text in rec. */
static int run_child(enum ending how, int sig, struct zdev *z, char *rec, size_t reclen)
{
    int p[2];
    assert_int_equal(pipe(p), 0);
    char log[4200];
    snprintf(log, sizeof(log), "%s/child.log", dir);
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        close(p[0]);
        int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        if (fd >= 0) {   /* the child's cmocka lines must not reach the runner's count */
            dup2(fd, STDOUT_FILENO);
            dup2(fd, STDERR_FILENO);
        }
        child_ending = how;
        child_pipe = p[1];
        exit(child_main());
    }
    close(p[1]);
    char line[128] = "";
    struct pollfd pf = {p[0], POLLIN, 0};
    if (poll(&pf, 1, 20000) == 1) {
        ssize_t n = read(p[0], line, sizeof(line) - 1);
        line[n > 0 ? n : 0] = '\0';
    }
    close(p[0]);
    if (how == END_SIGNAL)   /* no line in 20 s: the child would pause for ever */
        kill(pid, line[0] ? sig : SIGKILL);
    int st = 0;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    if (!line[0]) {
        char *text = slurp_file(log, NULL);
        print_message("child made no device; its log:\n%s\n", text ? text : "");
        free(text);
        fail();
    }
    assert_int_equal(sscanf(line, "/dev/zram%u %llu", &z->id, &z->seq), 2);
    char ledger[4300];
    snprintf(ledger, sizeof(ledger), "%s/zram%u", dir, z->id);
    char *text = slurp_file(ledger, NULL);
    snprintf(rec, reclen, "%s", text ? text : "");
    free(text);
    return st;
}

/* The child's device is gone (that instance: the number may already be another's), and so is
 * its record. */
static void check_cleaned(const char *what, int st, bool exited, int sig, const struct zdev *z,
                          const char *rec)
{
    bool left = alive(z);
    print_message("%s: child %s %d; /dev/zram%u %s; record \"%.*s\"\n", what,
                  WIFEXITED(st) ? "exited" : "killed by signal",
                  WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st), z->id,
                  left ? "still there" : "removed", (int)strcspn(rec, "\n"), rec);
    if (left)
        remove_by_hand(z);   /* the helpers failed: do not leave it to anyone */
    if (exited) {
        assert_true(WIFEXITED(st));
        assert_int_equal(WEXITSTATUS(st), 0);
    } else {
        assert_true(WIFSIGNALED(st));
        assert_int_equal(WTERMSIG(st), sig);
    }
    assert_false(left);
    assert_string_equal(rec, "");
    check_a_intact();
}

static void test_child_returns(void **state)
{
    (void)state;
    need_zram();
    struct zdev z;
    char rec[128];
    int st = run_child(END_RETURN, 0, &z, rec, sizeof(rec));
    check_cleaned("return from main", st, true, 0, &z, rec);
}

static void test_child_fails_an_assertion(void **state)
{
    (void)state;
    need_zram();
    struct zdev z;
    char rec[128];
    int st = run_child(END_ASSERT, 0, &z, rec, sizeof(rec));
    check_cleaned("failed cmocka assertion", st, true, 0, &z, rec);
}

static void test_child_aborts(void **state)
{
    (void)state;
    need_zram();
    struct zdev z;
    char rec[128];
    int st = run_child(END_ABORT, 0, &z, rec, sizeof(rec));
    check_cleaned("abort()", st, false, SIGABRT, &z, rec);
}

static void test_child_sigint(void **state)
{
    (void)state;
    need_zram();
    struct zdev z;
    char rec[128];
    int st = run_child(END_SIGNAL, SIGINT, &z, rec, sizeof(rec));
    check_cleaned("SIGINT", st, false, SIGINT, &z, rec);
}

static void test_child_sigterm(void **state)
{
    (void)state;
    need_zram();
    struct zdev z;
    char rec[128];
    int st = run_child(END_SIGNAL, SIGTERM, &z, rec, sizeof(rec));
    check_cleaned("SIGTERM", st, false, SIGTERM, &z, rec);
}

/* SIGKILL: nothing runs in the child. Its device stays, recorded for the runner. */
static void test_child_sigkill_is_recorded(void **state)
{
    (void)state;
    need_zram();
    struct zdev z;
    char rec[128];
    int st = run_child(END_SIGNAL, SIGKILL, &z, rec, sizeof(rec));
    print_message("SIGKILL: /dev/zram%u left, record \"%.*s\"\n", z.id,
                  (int)strcspn(rec, "\n"), rec);
    bool left = alive(&z);
    unsigned rid = 0, rpid = 0;
    unsigned long long rseq = 0;
    int fields = sscanf(rec, "%u %llu %u", &rid, &rseq, &rpid);
    if (left)
        remove_by_hand(&z);   /* what tests/run-tests.sh does after a program */
    char ledger[4300];
    snprintf(ledger, sizeof(ledger), "%s/zram%u", dir, z.id);
    unlink(ledger);
    assert_true(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);
    assert_true(left);
    assert_int_equal(fields, 3);
    assert_int_equal(rid, z.id);
    assert_int_equal(rseq, z.seq);
    assert_true(rpid > 0);
    check_a_intact();
}

int main(void)
{
    /* The helpers handle a signal only where its disposition was the default when they first
     * ran; a test started from a shell's background job inherits SIGINT and SIGQUIT ignored,
     * and its SIGINT child would ignore the SIGINT it is sent.  What is tested is the default
     * case: set it before any helper runs. */
    signal(SIGINT, SIG_DFL);
    signal(SIGQUIT, SIG_DFL);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_create_and_remove_one),
        cmocka_unit_test(test_two_at_once),
        cmocka_unit_test(test_refuses_a_device_it_did_not_create),
        cmocka_unit_test(test_child_returns),
        cmocka_unit_test(test_child_fails_an_assertion),
        cmocka_unit_test(test_child_aborts),
        cmocka_unit_test(test_child_sigint),
        cmocka_unit_test(test_child_sigterm),
        cmocka_unit_test(test_child_sigkill_is_recorded),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
