/* test_children.c — fio dies with ptsbench: `ptsbench run --engine fio` on a 64 MiB file in a
 * temporary directory is killed while fio writes, and then no fio of it is left and the file
 * stops changing.
 *
 * Description: the issue was "SIGKILL of ptsbench with --engine fio leaves fio running and
 * writing the device after ptsbench's exclusive open is gone". fio (3.33) forks one process
 * per job and each job calls setsid(), so neither a signal to fio's process group nor fio's
 * own death reaches them; ptsbench runs fio with PR_SET_PDEATHSIG and fio's `thread` option
 * (spawn.h, engine/fio.c).
 *
 * The test makes itself a child subreaper (PR_SET_CHILD_SUBREAPER), so every process ptsbench
 * leaves behind is reparented to the test instead of init: "what is left" is then every live
 * process whose parent is ptsbench or the test, or whose group is ptsbench's or fio's, plus
 * the fio processes seen before the kill. Whatever is left at the end is SIGKILLed by pid and
 * reaped, so a failing run (the old code) leaves nothing writing.
 *
 *   test_sigkill_takes_fio_along   SIGKILL of ptsbench: within 2 s no fio of it is left, and
 *                                  the file's mtime and a checksum do not change over 1 s.
 *   test_sigterm_waits_for_fio     SIGTERM: ptsbench exits 130 within 6 s (the round is 30 s)
 *                                  with no fio left at that moment (it waited for them), and
 *                                  the file stops changing.
 *
 * Skipped, with the reason, when fio is not installed. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "helpers.h"

#define MAX_PROCS 4096
#define MAX_SEEN 64

struct proc {
    pid_t pid, ppid, pgrp;
    char state;
    char comm[32];
};

static char *dir;
static bool have_fio;

/* /proc/PID/stat: "pid (comm) state ppid pgrp ..."; comm may hold spaces and parentheses. */
static bool proc_read(pid_t pid, struct proc *p)
{
    char path[64], buf[1024];
    snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    ssize_t n = read(fd, buf, sizeof(buf) - 1);
    close(fd);
    if (n <= 0)
        return false;
    buf[n] = '\0';
    char *open_paren = strchr(buf, '('), *close_paren = strrchr(buf, ')');
    if (!open_paren || !close_paren || close_paren < open_paren)
        return false;
    size_t len = (size_t)(close_paren - open_paren - 1);
    if (len >= sizeof(p->comm))
        len = sizeof(p->comm) - 1;
    memcpy(p->comm, open_paren + 1, len);
    p->comm[len] = '\0';
    int ppid, pgrp;
    if (sscanf(close_paren + 1, " %c %d %d", &p->state, &ppid, &pgrp) != 3)
        return false;
    p->pid = pid;
    p->ppid = ppid;
    p->pgrp = pgrp;
    return true;
}

static size_t proc_scan(struct proc *out, size_t max)
{
    DIR *d = opendir("/proc");
    if (!d)
        return 0;
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d)) && n < max) {
        if (!isdigit((unsigned char)e->d_name[0]))
            continue;
        if (proc_read((pid_t)atoi(e->d_name), &out[n]))
            n++;
    }
    closedir(d);
    return n;
}

/* Does /proc/PID/cmdline have an argument ending in ".fio" (a round's job file, not
 * `fio --version`)? */
static bool runs_job_file(pid_t pid)
{
    char path[64], buf[8192];
    snprintf(path, sizeof(path), "/proc/%d/cmdline", (int)pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    ssize_t n = read(fd, buf, sizeof(buf) - 1);
    close(fd);
    if (n <= 0)
        return false;
    buf[n] = '\0';
    for (ssize_t i = 0; i < n; i += (ssize_t)strlen(buf + i) + 1) {
        size_t len = strlen(buf + i);
        if (len > 4 && !strcmp(buf + i + len - 4, ".fio"))
            return true;
    }
    return false;
}

/* Everything ptsbench started, as far as the test can know it. */
struct family {
    pid_t ptsbench;
    pid_t seen[MAX_SEEN];   /* fio processes seen while ptsbench lived */
    unsigned n_seen;
};

static bool family_seen(const struct family *f, pid_t pid)
{
    for (unsigned i = 0; i < f->n_seen; i++)
        if (f->seen[i] == pid)
            return true;
    return false;
}

static void family_add(struct family *f, pid_t pid)
{
    if (!family_seen(f, pid) && f->n_seen < MAX_SEEN)
        f->seen[f->n_seen++] = pid;
}

/* Is p one of ptsbench's (live: zombies are dead and only wait to be reaped)? */
static bool family_member(const struct family *f, const struct proc *p, pid_t self)
{
    if (p->state == 'Z' || p->state == 'X' || p->pid == f->ptsbench || p->pid == self)
        return false;
    if (p->ppid == f->ptsbench || p->ppid == self || p->pgrp == f->ptsbench)
        return true;
    if (family_seen(f, p->pid))
        return !strcmp(p->comm, "fio");
    for (unsigned i = 0; i < f->n_seen; i++)
        if (p->pgrp == f->seen[i] || p->ppid == f->seen[i])
            return true;
    return false;
}

/* The live members now; their pids in left[] (up to max). Prints them when verbose. */
static unsigned family_left(const struct family *f, pid_t *left, unsigned max, bool verbose)
{
    static struct proc procs[MAX_PROCS];
    size_t n = proc_scan(procs, MAX_PROCS);
    pid_t self = getpid();
    unsigned k = 0;
    for (size_t i = 0; i < n; i++) {
        if (!family_member(f, &procs[i], self))
            continue;
        if (verbose)
            print_message("  left: pid %d (%s) state %c parent %d group %d\n",
                          (int)procs[i].pid, procs[i].comm, procs[i].state,
                          (int)procs[i].ppid, (int)procs[i].pgrp);
        if (k < max)
            left[k] = procs[i].pid;
        k++;
    }
    return k;
}

static void reap_orphans(void)
{
    while (waitpid(-1, NULL, WNOHANG) > 0) {
    }
}

/* The end of every test: whatever is left is killed by pid and reaped. */
static void family_kill(const struct family *f)
{
    pid_t left[MAX_SEEN];
    for (int round = 0; round < 20; round++) {
        unsigned n = family_left(f, left, MAX_SEEN, false);
        if (n == 0)
            break;
        for (unsigned i = 0; i < n && i < MAX_SEEN; i++)
            kill(left[i], SIGKILL);
        test_sleep_ms(50);
        reap_orphans();
    }
    if (f->ptsbench > 0) {
        kill(f->ptsbench, SIGKILL);
        waitpid(f->ptsbench, NULL, 0);
    }
    reap_orphans();
}

static int setup(void **state)
{
    (void)state;
    /* orphans of ptsbench's children come to the test, not to init */
    if (prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0) {
        printf("cannot become a child subreaper: %s\n", strerror(errno));
        return -1;
    }
    dir = make_temp_dir("children");
    have_fio = test_have_fio();
    return dir ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    remove_tree(dir);
    free(dir);
    return 0;
}

/* Start `ptsbench run --engine fio` on DIR/NAME.img (64 MiB, 30 s round) with its output in
 * DIR/NAME.log. */
static pid_t start_ptsbench(const char *name, char *target, size_t tlen)
{
    char out[600], log[600];
    snprintf(target, tlen, "%s/%s.img", dir, name);
    snprintf(out, sizeof(out), "%s/%s-out", dir, name);
    snprintf(log, sizeof(log), "%s/%s.log", dir, name);
    char *argv[] = {(char *)ptsbench_bin(), "run", "--engine", "fio", "--target", target,
                    "--size", "64m", "--workload", "rw=randwrite,bs=4k,qd=8",
                    "--round-time", "30s", "--rounds", "1", "-o", out, NULL};
    pid_t pid = fork();
    if (pid == 0) {
        int in = open("/dev/null", O_RDONLY);
        int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (in < 0 || fd < 0)
            _exit(127);
        dup2(in, 0);
        dup2(fd, 1);
        dup2(fd, 2);
        execv(argv[0], argv);
        _exit(127);
    }
    return pid;
}

static void print_log(const char *name)
{
    char log[600];
    snprintf(log, sizeof(log), "%s/%s.log", dir, name);
    char *text = slurp_file(log, NULL);
    print_message("ptsbench output (%s):\n%s\n", log, text ? text : "(none)");
    free(text);
}

static bool mtime_of(const char *path, struct timespec *t, off_t *size)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return false;
    *t = st.st_mtim;
    *size = st.st_size;
    return true;
}

/* Wait (up to 10 s) until ptsbench's fio runs a round's job file and the target's mtime has
 * moved since then: fio is writing. Records the fio processes seen. */
static bool wait_fio_writing(struct family *f, const char *target, const char *name)
{
    static struct proc procs[MAX_PROCS];
    pid_t fio = 0;
    struct timespec t0 = {0, 0};
    off_t size;
    for (uint64_t end = test_now_ns() + 10000000000ull; test_now_ns() < end; test_sleep_ms(50)) {
        int st;
        if (waitpid(f->ptsbench, &st, WNOHANG) == f->ptsbench) {
            print_message("ptsbench ended before fio ran (status 0x%x)\n", st);
            print_log(name);
            f->ptsbench = 0;
            return false;
        }
        size_t n = proc_scan(procs, MAX_PROCS);
        for (size_t i = 0; i < n; i++) {
            if (strcmp(procs[i].comm, "fio") != 0)
                continue;
            if (!fio && procs[i].ppid == f->ptsbench && runs_job_file(procs[i].pid)) {
                fio = procs[i].pid;
                if (!mtime_of(target, &t0, &size))
                    t0.tv_sec = 0;
            }
            if (fio && (procs[i].pid == fio || procs[i].ppid == fio))
                family_add(f, procs[i].pid);
        }
        struct timespec t;
        if (fio && mtime_of(target, &t, &size) && (t.tv_sec != t0.tv_sec || t.tv_nsec != t0.tv_nsec))
            return true;
    }
    print_message("fio did not start writing %s within 10 s (fio pid %d)\n", target, (int)fio);
    print_log(name);
    return false;
}

/* FNV-1a over the whole file. */
static uint64_t checksum(const char *path)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    static unsigned char buf[1 << 20];
    uint64_t h = 0xcbf29ce484222325ull;
    ssize_t n;
    while ((n = read(fd, buf, sizeof(buf))) > 0)
        for (ssize_t i = 0; i < n; i++)
            h = (h ^ buf[i]) * 0x100000001b3ull;
    close(fd);
    return h;
}

/* The target does not change over 1 s: same size, mtime and checksum. */
static void assert_file_still(const char *target)
{
    struct timespec t1, t2;
    off_t s1, s2;
    assert_true(mtime_of(target, &t1, &s1));
    uint64_t c1 = checksum(target);
    test_sleep_ms(1000);
    assert_true(mtime_of(target, &t2, &s2));
    uint64_t c2 = checksum(target);
    if (s1 != s2 || t1.tv_sec != t2.tv_sec || t1.tv_nsec != t2.tv_nsec || c1 != c2)
        fail_msg("%s still changes after ptsbench ended: size %lld -> %lld, mtime %lld.%09ld "
                 "-> %lld.%09ld, checksum %016llx -> %016llx", target, (long long)s1,
                 (long long)s2, (long long)t1.tv_sec, t1.tv_nsec, (long long)t2.tv_sec,
                 t2.tv_nsec, (unsigned long long)c1, (unsigned long long)c2);
}

/* ptsbench run --engine fio on DIR/NAME.img, once its fio round is writing. */
static struct family start_family(const char *name, char *target, size_t len)
{
    struct family f = {.ptsbench = start_ptsbench(name, target, len)};
    assert_true(f.ptsbench > 0);
    if (!wait_fio_writing(&f, target, name)) {
        family_kill(&f);
        fail_msg("%s: no fio round started", name);
    }
    return f;
}

static void test_sigkill_takes_fio_along(void **state)
{
    (void)state;
    if (!have_fio)
        skip();
    char target[600];
    struct family f = start_family("kill", target, sizeof(target));
    print_message("  ptsbench %d, fio %d (%u fio processes seen): SIGKILL\n", (int)f.ptsbench,
                  (int)f.seen[0], f.n_seen);
    kill(f.ptsbench, SIGKILL);
    int st;
    assert_int_equal(waitpid(f.ptsbench, &st, 0), f.ptsbench);
    assert_true(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);
    uint64_t t0 = test_now_ns();
    unsigned left = 1;
    pid_t pids[MAX_SEEN];
    while (test_now_ns() - t0 < 2000000000ull) {
        reap_orphans();
        left = family_left(&f, pids, MAX_SEEN, false);
        if (left == 0)
            break;
        test_sleep_ms(20);
    }
    if (left) {
        family_left(&f, pids, MAX_SEEN, true);
        family_kill(&f);
        fail_msg("%u of ptsbench's processes still run 2 s after its SIGKILL", left);
    }
    print_message("  none left after %.0f ms\n", (double)(test_now_ns() - t0) / 1e6);
    f.ptsbench = 0;
    assert_file_still(target);
    family_kill(&f);
}

static void test_sigterm_waits_for_fio(void **state)
{
    (void)state;
    if (!have_fio)
        skip();
    char target[600];
    struct family f = start_family("term", target, sizeof(target));
    print_message("  ptsbench %d, fio %d: SIGTERM\n", (int)f.ptsbench, (int)f.seen[0]);
    uint64_t t0 = test_now_ns();
    kill(f.ptsbench, SIGTERM);
    int st = 0;
    pid_t got = 0;
    while (test_now_ns() - t0 < 6000000000ull) {
        got = waitpid(f.ptsbench, &st, WNOHANG);
        if (got != 0)
            break;
        test_sleep_ms(20);
    }
    if (got != f.ptsbench) {
        family_left(&f, (pid_t[MAX_SEEN]){0}, MAX_SEEN, true);
        family_kill(&f);
        print_log("term");
        fail_msg("ptsbench still runs 6 s after SIGTERM (its fio round is 30 s)");
    }
    pid_t ptsbench = f.ptsbench;
    f.ptsbench = 0;   /* reaped */
    print_message("  ptsbench exited after %.0f ms\n", (double)(test_now_ns() - t0) / 1e6);
    /* ptsbench waited for its children: nothing of it is left the moment it has exited */
    pid_t pids[MAX_SEEN];
    struct family after = f;
    after.ptsbench = ptsbench;
    unsigned left = family_left(&after, pids, MAX_SEEN, true);
    family_kill(&f);
    if (left)
        fail_msg("%u of ptsbench's processes outlived its exit on SIGTERM", left);
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 130) {
        print_log("term");
        fail_msg("ptsbench ended with status 0x%x, want exit 130 (interrupted)", st);
    }
    assert_file_still(target);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sigkill_takes_fio_along),
        cmocka_unit_test(test_sigterm_waits_for_fio),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
