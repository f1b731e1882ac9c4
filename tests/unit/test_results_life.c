/* test_results_life.c — telling a live run from a dead one (results.h: results_life_of): the
 * status a results file holds, and for "running" its writer's pid and boot id checked against
 * this machine. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <json-c/json.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "device/hostinfo.h"
#include "show/show.h"
#include "core/results.h"

static struct json_object *doc_with(const char *status, long pid, const char *boot,
                                    const char *host)
{
    struct json_object *d = json_object_new_object();
    if (status)
        json_object_object_add(d, "status", json_object_new_string(status));
    if (pid >= 0) {
        struct json_object *w = json_object_new_object();
        json_object_object_add(w, "pid", json_object_new_int64(pid));
        json_object_object_add(w, "boot_id", json_object_new_string(boot));
        json_object_object_add(w, "hostname", json_object_new_string(host));
        json_object_object_add(d, "writer", w);
    }
    return d;
}

static char my_boot[64], my_host[256];

static enum results_life life(struct json_object *d, char *why)
{
    enum results_life l = results_life_of(d, why, 512);
    json_object_put(d);
    return l;
}

/* Ended runs say so whatever their writer. */
static void test_ended(void **state)
{
    (void)state;
    char why[512];
    assert_int_equal(life(doc_with("complete", 1, "x", "y"), why), RESULTS_COMPLETE);
    assert_int_equal(life(doc_with("interrupted", -1, "", ""), why), RESULTS_INTERRUPTED);
    assert_int_equal(life(doc_with("failed", -1, "", ""), why), RESULTS_FAILED);
    assert_string_equal(results_life_name(RESULTS_DEAD), "dead");
    assert_string_equal(results_life_name(RESULTS_COMPLETE), "complete");
}

/* A running document whose writer is a live process of this boot is running only when that
 * process is ptsbench (a reused pid is not): this test program is not called ptsbench, so its
 * own pid reads as dead, as does a pid that has exited. */
static void test_pid_checks(void **state)
{
    (void)state;
    char why[512];
    assert_int_equal(life(doc_with("running", getpid(), my_boot, my_host), why), RESULTS_DEAD);
    pid_t child = fork();
    assert_true(child >= 0);
    if (child == 0)
        _exit(0);
    waitpid(child, NULL, 0);   /* now gone */
    assert_int_equal(life(doc_with("running", child, my_boot, my_host), why), RESULTS_DEAD);
    assert_non_null(strstr(why, "is not running"));
}

/* A live process whose command is ptsbench (a child exec'ing sleep with argv[0] "ptsbench", as
 * a writer's /proc/PID/cmdline reads): running; once it is killed: dead. */
static void test_live_ptsbench(void **state)
{
    (void)state;
    pid_t child = fork();
    assert_true(child >= 0);
    if (child == 0) {
        execlp("sleep", "ptsbench", "30", (char *)NULL);
        _exit(127);
    }
    char path[64], cmd[64] = "";
    snprintf(path, sizeof(path), "/proc/%d/cmdline", (int)child);
    for (int i = 0; i < 500 && strcmp(cmd, "ptsbench") != 0; i++) {   /* until it has exec'd */
        FILE *f = fopen(path, "r");
        size_t n = f ? fread(cmd, 1, sizeof(cmd) - 1, f) : 0;
        if (f)
            fclose(f);
        cmd[n] = '\0';
        if (strcmp(cmd, "ptsbench") != 0)
            usleep(10000);
    }
    char why[512];
    assert_int_equal(life(doc_with("running", child, my_boot, my_host), why), RESULTS_RUNNING);
    assert_non_null(strstr(why, "running (pid"));
    kill(child, SIGKILL);
    waitpid(child, NULL, 0);
    assert_int_equal(life(doc_with("running", child, my_boot, my_host), why), RESULTS_DEAD);
}

/* Another boot of this host: dead (rebooted since); another host: unknown; no writer (an older
 * ptsbench): unknown. */
static void test_boots_and_hosts(void **state)
{
    (void)state;
    char why[512];
    assert_int_equal(life(doc_with("running", 1, "00000000-0000-0000-0000-000000000000", my_host),
                          why), RESULTS_DEAD);
    assert_non_null(strstr(why, "last boot"));
    assert_int_equal(life(doc_with("running", 1, "00000000-0000-0000-0000-000000000000",
                                   "elsewhere.example"), why), RESULTS_UNKNOWN);
    assert_non_null(strstr(why, "elsewhere.example"));
    assert_int_equal(life(doc_with("running", -1, "", ""), why), RESULTS_UNKNOWN);
    assert_int_equal(life(doc_with(NULL, -1, "", ""), why), RESULTS_UNKNOWN);
    /* a writer of the wrong types is no writer */
    struct json_object *d = doc_with("running", -1, "", "");
    json_object_object_add(d, "writer", json_object_new_string("pid 4"));
    assert_int_equal(life(d, why), RESULTS_UNKNOWN);
}

/* The writer object names this process and this boot. */
static void test_writer_json(void **state)
{
    (void)state;
    struct json_object *w = results_writer_json(), *v;
    assert_true(json_object_object_get_ex(w, "pid", &v));
    assert_int_equal(json_object_get_int64(v), getpid());
    assert_true(json_object_object_get_ex(w, "boot_id", &v));
    assert_string_equal(json_object_get_string(v), my_boot);
    json_object_put(w);
}

/* show prints what the status means now: a running file whose writer is gone reads "dead",
 * with the pid and when it last wrote. */
static void test_show_says_dead(void **state)
{
    (void)state;
    struct json_object *d = doc_with("running", (long)getpid(), my_boot, my_host);
    json_object_object_add(d, "schema", json_object_new_string("ptsbench.run"));
    json_object_object_add(d, "updated", json_object_new_string("2026-12-01T10:00:00Z"));
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    show_write(f, d, 1);
    fclose(f);
    assert_non_null(strstr(buf, "status dead (status running, but its writer (pid "));
    assert_non_null(strstr(buf, "last written 2026-12-01T10:00:00Z"));
    free(buf);
    json_object_put(d);

    d = doc_with("complete", 1, "x", "y");
    json_object_object_add(d, "schema", json_object_new_string("ptsbench.profile"));
    buf = NULL;
    f = open_memstream(&buf, &len);
    show_write(f, d, 1);
    fclose(f);
    assert_non_null(strstr(buf, "; status complete\n"));
    free(buf);
    json_object_put(d);
}

int main(void)
{
    hostinfo_boot_id(my_boot, sizeof(my_boot));
    gethostname(my_host, sizeof(my_host) - 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ended),
        cmocka_unit_test(test_pid_checks),
        cmocka_unit_test(test_live_ptsbench),
        cmocka_unit_test(test_boots_and_hosts),
        cmocka_unit_test(test_writer_json),
        cmocka_unit_test(test_show_says_dead),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
