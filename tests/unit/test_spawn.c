/* test_spawn.c — spawn's children: set up to die with ptsbench, kept in the registry until
 * reaped, ended on the stop flag (only the stoppable ones) and by spawn_kill_all.
 *
 * Description: spawn.h promises that every child leads its own process group with
 * PR_SET_PDEATHSIG(SIGKILL), that spawn_kill_all leaves no child running or unreaped
 * (SIGTERM, then SIGKILL after SPAWN_GRACE_MS), that the stop flag ends SPAWN_STOPPABLE
 * children only, that nothing a child leaves in its group outlives it, and that a child dies
 * when the process that started it is SIGKILLed. The helper programs are this binary itself,
 * run again with a mode argument (see helper_main): no shell.
 *
 *   test_child_setup                 pgid == pid, PR_GET_PDEATHSIG == SIGKILL, nothing blocked
 *   test_kill_all_reaps_sleep        `sleep 30` in another thread: spawn_kill_all returns 0,
 *                                    the child is gone (not even a zombie), exit 128+SIGTERM
 *   test_kill_all_escalates          a child ignoring SIGTERM: SIGKILL after the grace
 *   test_stop_flag_stops_stoppable   the flag up: a SPAWN_STOPPABLE `sleep 30` ends in < 1 s
 *   test_stop_flag_spares_plain      the flag up: a plain `sleep 0.3` runs to its end (exit 0)
 *   test_stoppable_not_started       the flag already up: a SPAWN_STOPPABLE spawn starts nothing
 *   test_group_leftover_killed       a child that exits leaving a grandchild in its group: the
 *                                    grandchild is killed and spawn_run returns at once
 *   test_child_dies_with_parent      a process running spawn_run is SIGKILLed: its child dies
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "helpers.h"
#include "lib/spawn.h"

static char self_exe[4096];
static char *dir;
static volatile sig_atomic_t test_stop;

/* ---- helper programs (this binary with a mode) ------------------------------------------ */

static void write_pid_file(const char *path, pid_t pid)
{
    char tmp[4200], text[32];
    snprintf(tmp, sizeof(tmp), "%s.tmp", path);
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0)
        _exit(3);
    int n = snprintf(text, sizeof(text), "%d\n", (int)pid);
    if (write(fd, text, (size_t)n) != n)
        _exit(3);
    close(fd);
    if (rename(tmp, path) != 0)
        _exit(3);
}

/* --report: what the child was given. --ignore-term FILE: ignore SIGTERM, say so in FILE,
 * sleep. --leave-grandchild FILE: fork a grandchild (same group, holding stdout) that writes
 * its pid to FILE and sleeps; exit once FILE is there. --spawn-sleep FILE: spawn_run `SELF --sleep-pid
 * FILE` and wait. --sleep-pid FILE: write own pid to FILE, sleep. */
static int helper_main(int argc, char **argv)
{
    const char *mode = argv[1];
    const char *file = argc > 2 ? argv[2] : NULL;
    if (!strcmp(mode, "--report")) {
        sigset_t cur;
        sigprocmask(SIG_BLOCK, NULL, &cur);
        int blocked = 0;
        for (int s = 1; s < 32; s++)
            blocked += sigismember(&cur, s) == 1;
        int sig = 0;
        prctl(PR_GET_PDEATHSIG, &sig, 0, 0, 0);
        printf("pid=%d pgid=%d pdeathsig=%d blocked=%d\n", (int)getpid(), (int)getpgid(0), sig,
               blocked);
        return 0;
    }
    if (!strcmp(mode, "--ignore-term") && file) {
        signal(SIGTERM, SIG_IGN);
        write_pid_file(file, getpid());
        sleep(30);
        return 0;
    }
    if (!strcmp(mode, "--leave-grandchild") && file) {
        pid_t g = fork();
        if (g == 0) {
            write_pid_file(file, getpid());
            sleep(30);
            _exit(0);
        }
        struct stat st;   /* exit once the grandchild is known */
        for (int i = 0; i < 4000 && stat(file, &st) != 0; i++)
            test_sleep_ms(5);
        return 0;
    }
    if (!strcmp(mode, "--spawn-sleep") && file) {
        char *args[] = {self_exe, "--sleep-pid", (char *)file, NULL};
        struct spawn_result r;
        if (spawn_run(args, &r) != 0)
            return 2;
        spawn_result_free(&r);
        return 0;
    }
    if (!strcmp(mode, "--sleep-pid") && file) {
        write_pid_file(file, getpid());
        sleep(30);
        return 0;
    }
    fprintf(stderr, "unknown helper mode %s\n", mode);
    return 2;
}

/* ---- tools ------------------------------------------------------------------------------ */

struct bg_spawn {
    char *argv[8];
    unsigned flags;
    struct spawn_result r;
    int ret;
    pthread_t th;
};

static void *bg_main(void *arg)
{
    struct bg_spawn *b = arg;
    b->ret = spawn_run_flags(b->argv, b->flags, &b->r);
    return NULL;
}

/* spawn_run_flags(argv) in a thread; waits until the registry lists one child with its pid
 * (a slot reads -1 between its reservation and the fork). Up to 20 s: on a loaded machine (two
 * test suites on two cores, one under ASan) a fork can take a while; only its order matters. */
static pid_t bg_start(struct bg_spawn *b)
{
    assert_int_equal(spawn_children(NULL, 0), 0);
    assert_int_equal(pthread_create(&b->th, NULL, bg_main, b), 0);
    pid_t pid = 0;
    for (int i = 0; i < 4000 && !(spawn_children(&pid, 1) == 1 && pid > 0); i++)
        test_sleep_ms(5);
    assert_int_equal(spawn_children(&pid, 1), 1);
    assert_true(pid > 0);
    return pid;
}

/* Gone: no /proc entry (reaped: not even a zombie). */
static bool gone(pid_t pid)
{
    char path[64];
    snprintf(path, sizeof(path), "/proc/%d", (int)pid);
    struct stat st;
    return stat(path, &st) != 0 && errno == ENOENT;
}

/* Dead: gone, or a zombie (a process reparented to an init that does not reap). */
static bool dead(pid_t pid)
{
    char path[64], buf[512];
    snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return true;
    ssize_t n = read(fd, buf, sizeof(buf) - 1);
    close(fd);
    if (n <= 0)
        return true;
    buf[n] = '\0';
    const char *p = strrchr(buf, ')');
    return p && (p[2] == 'Z' || p[2] == 'X');
}

static pid_t wait_pid_file(const char *path)
{
    for (int i = 0; i < 4000; i++) {   /* 20 s: a busy machine starts processes late */
        char *text = slurp_file(path, NULL);
        if (text) {
            pid_t pid = (pid_t)atoi(text);
            free(text);
            if (pid > 0)
                return pid;
        }
        test_sleep_ms(5);
    }
    fail_msg("no pid in %s after 20 s", path);
    return 0;
}

static int setup(void **state)
{
    (void)state;
    dir = make_temp_dir("spawn");
    return dir ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    remove_tree(dir);
    free(dir);
    return 0;
}

static int reset_flag(void **state)
{
    (void)state;
    test_stop = 0;
    spawn_watch_stop(NULL);
    return 0;
}

/* ---- tests ------------------------------------------------------------------------------ */

static void test_child_setup(void **state)
{
    (void)state;
    /* block a signal here: the child must not inherit the mask */
    sigset_t usr, old;
    sigemptyset(&usr);
    sigaddset(&usr, SIGUSR1);
    pthread_sigmask(SIG_BLOCK, &usr, &old);
    char *argv[] = {self_exe, "--report", NULL};
    struct spawn_result r;
    assert_int_equal(spawn_run(argv, &r), 0);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    assert_int_equal(r.status, 0);
    assert_false(r.stopped);
    int pid = 0, pgid = 0, sig = 0, blocked = -1;
    assert_int_equal(sscanf(r.out, "pid=%d pgid=%d pdeathsig=%d blocked=%d", &pid, &pgid, &sig,
                            &blocked), 4);
    assert_int_equal(pgid, pid);
    assert_int_not_equal(pgid, (int)getpgid(0));
    assert_int_equal(sig, SIGKILL);
    assert_int_equal(blocked, 0);
    assert_int_equal(spawn_children(NULL, 0), 0);
    spawn_result_free(&r);
}

static void test_kill_all_reaps_sleep(void **state)
{
    (void)state;
    struct bg_spawn b = {.argv = {"sleep", "30", NULL}};
    pid_t pid = bg_start(&b);
    uint64_t t0 = test_now_ns();
    assert_int_equal(spawn_kill_all(), 0);
    double ms = (double)(test_now_ns() - t0) / 1e6;
    pthread_join(b.th, NULL);
    assert_int_equal(b.ret, 0);
    assert_int_equal(b.r.status, 128 + SIGTERM);
    assert_true(b.r.stopped);
    assert_true(gone(pid));
    assert_int_equal(spawn_children(NULL, 0), 0);
    assert_true(ms < 1000);
    spawn_result_free(&b.r);
}

static void test_kill_all_escalates(void **state)
{
    (void)state;
    char file[4200];
    snprintf(file, sizeof(file), "%s/ignore-term.pid", dir);
    struct bg_spawn b = {.argv = {self_exe, "--ignore-term", file, NULL}};
    pid_t pid = bg_start(&b);
    assert_int_equal(wait_pid_file(file), pid);   /* SIGTERM is ignored from here */
    uint64_t t0 = test_now_ns();
    assert_int_equal(spawn_kill_all(), 0);
    double ms = (double)(test_now_ns() - t0) / 1e6;
    pthread_join(b.th, NULL);
    assert_int_equal(b.r.status, 128 + SIGKILL);
    assert_true(b.r.stopped);
    assert_true(gone(pid));
    print_message("  SIGKILL after %.0f ms (grace %d ms)\n", ms, SPAWN_GRACE_MS);
    assert_true(ms >= SPAWN_GRACE_MS - 50 && ms < SPAWN_GRACE_MS + 1000);
    spawn_result_free(&b.r);
}

static void test_stop_flag_stops_stoppable(void **state)
{
    (void)state;
    spawn_watch_stop(&test_stop);
    struct bg_spawn b = {.argv = {"sleep", "30", NULL}, .flags = SPAWN_STOPPABLE};
    pid_t pid = bg_start(&b);
    uint64_t t0 = test_now_ns();
    test_stop = 1;
    pthread_join(b.th, NULL);
    double ms = (double)(test_now_ns() - t0) / 1e6;
    assert_int_equal(b.ret, 0);
    assert_int_equal(b.r.status, 128 + SIGTERM);
    assert_true(b.r.stopped);
    assert_true(gone(pid));
    assert_true(ms < 1000);
    spawn_result_free(&b.r);
}

static void test_stop_flag_spares_plain(void **state)
{
    (void)state;
    spawn_watch_stop(&test_stop);
    struct bg_spawn b = {.argv = {"sleep", "0.3", NULL}};
    bg_start(&b);
    test_stop = 1;
    pthread_join(b.th, NULL);
    assert_int_equal(b.ret, 0);
    assert_int_equal(b.r.status, 0);
    assert_false(b.r.stopped);
    spawn_result_free(&b.r);
}

static void test_stoppable_not_started(void **state)
{
    (void)state;
    spawn_watch_stop(&test_stop);
    test_stop = 1;
    char *argv[] = {"sleep", "30", NULL};
    struct spawn_result r;
    uint64_t t0 = test_now_ns();
    assert_int_equal(spawn_run_flags(argv, SPAWN_STOPPABLE, &r), 0);
    assert_true(test_now_ns() - t0 < 100000000ull);
    assert_true(r.stopped);
    assert_int_equal(r.status, 128 + SIGTERM);
    assert_string_equal(r.out, "");
    spawn_result_free(&r);
}

/* spawn_run_timeout: a child past its limit gets SIGTERM (timed_out, stopped); one within its
 * limit runs to its end untouched. */
static void test_timeout(void **state)
{
    (void)state;
    char *argv[] = {"sleep", "30", NULL};
    struct spawn_result r;
    uint64_t t0 = test_now_ns();
    assert_int_equal(spawn_run_timeout(argv, 0, 300, &r), 0);
    double ms = (double)(test_now_ns() - t0) / 1e6;
    print_message("sleep 30 with a 300 ms limit ended after %.0f ms\n", ms);
    assert_true(ms >= 290 && ms < 2000);
    assert_true(r.timed_out);
    assert_true(r.stopped);
    assert_int_equal(r.status, 128 + SIGTERM);
    spawn_result_free(&r);
    char *quick[] = {"sleep", "0.1", NULL};
    assert_int_equal(spawn_run_timeout(quick, 0, 5000, &r), 0);
    assert_false(r.timed_out);
    assert_false(r.stopped);
    assert_int_equal(r.status, 0);
    spawn_result_free(&r);
}

static void test_group_leftover_killed(void **state)
{
    (void)state;
    char file[4200];
    snprintf(file, sizeof(file), "%s/grandchild.pid", dir);
    char *argv[] = {self_exe, "--leave-grandchild", file, NULL};
    struct spawn_result r;
    uint64_t t0 = test_now_ns();
    assert_int_equal(spawn_run(argv, &r), 0);
    double ms = (double)(test_now_ns() - t0) / 1e6;
    assert_int_equal(r.status, 0);
    pid_t g = wait_pid_file(file);
    bool ok = false;
    for (int i = 0; i < 1000 && !(ok = dead(g)); i++)   /* up to 10 s on a busy machine */
        test_sleep_ms(10);
    if (!ok)
        kill(g, SIGKILL);
    assert_true(ok);
    /* not held by the grandchild's copy of stdout (it would be for the grandchild's 30 s); a
     * busy machine may take seconds to start and end two processes */
    assert_true(ms < 15000);
    spawn_result_free(&r);
}

static void test_child_dies_with_parent(void **state)
{
    (void)state;
    char file[4200];
    snprintf(file, sizeof(file), "%s/orphan.pid", dir);
    pid_t h = fork();
    assert_true(h >= 0);
    if (h == 0) {
        char *argv[] = {self_exe, "--spawn-sleep", file, NULL};
        execv(self_exe, argv);
        _exit(127);
    }
    pid_t c = wait_pid_file(file);
    kill(h, SIGKILL);
    waitpid(h, NULL, 0);
    bool ok = false;
    for (int i = 0; i < 1000 && !(ok = dead(c)); i++)   /* up to 10 s on a busy machine */
        test_sleep_ms(10);
    if (!ok)
        kill(c, SIGKILL);
    assert_true(ok);
}

int main(int argc, char **argv)
{
    ssize_t n = readlink("/proc/self/exe", self_exe, sizeof(self_exe) - 1);
    if (n <= 0)
        return 1;
    self_exe[n] = '\0';
    if (argc > 1)
        return helper_main(argc, argv);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_child_setup),
        cmocka_unit_test(test_kill_all_reaps_sleep),
        cmocka_unit_test(test_kill_all_escalates),
        cmocka_unit_test_teardown(test_stop_flag_stops_stoppable, reset_flag),
        cmocka_unit_test_teardown(test_stop_flag_spares_plain, reset_flag),
        cmocka_unit_test_teardown(test_stoppable_not_started, reset_flag),
        cmocka_unit_test(test_timeout),
        cmocka_unit_test(test_group_leftover_killed),
        cmocka_unit_test(test_child_dies_with_parent),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
