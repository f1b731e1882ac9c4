/* test_numa.c — the workers' placement as the kernel holds it is what the results say.
 *
 * `ptsbench run` on a file target (io_uring, else libaio; 2 workers, 2 rounds of 2 s) with
 * --cpus 1, with --cpus 0 where this process may run on CPUs 0 and 1, and with no option at all
 * (auto). While the run goes, the test reads /proc/PID/task/TID/comm and .../status of the
 * ptsbench process every 20 ms; each thread named "ptsb-wN" is worker N (named once pinned,
 * core/worker.c), and its Cpus_allowed_list is kept. Then, from the results' placement:
 *  - every worker thread was seen, and what /proc showed for it each time is its "affinity";
 *  - its "ran_on" is not empty and within that affinity;
 *  - with --cpus L: mode "cpus", pinned, cpus L, and every worker's affinity L;
 *  - auto on this host: pinned only when the host has more than one node and the file's
 *    device has a known node; otherwise not pinned, with the reason, and the affinity is the
 *    process's own.
 * A simulated drive with --cpus 1: every worker in the calling thread ("threads": "calling"),
 * affinity 1, ran on 1. Bad values ("99999", "3-1", "x", "", a CPU this process may not use,
 * --numa 9 and --numa near): exit 2, one line on stderr naming the value, no output directory.
 * Skipped where there is no temporary directory with O_DIRECT or neither engine runs. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "helpers.h"
#include "lib/cpuset.h"

#define MAX_SEEN 64

static char *dir;
static const char *engine = "io_uring";

/* What /proc showed for each ptsb-wN thread: the mask (the first seen) and whether a later
 * look disagreed. */
struct seen {
    bool any;
    char allowed[256];
    bool changed;
};

static int setup(void **state)
{
    (void)state;
    dir = make_temp_dir("numa");
    return dir ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    remove_tree(dir);
    free(dir);
    return 0;
}

/* /proc/PID/task/TID/FILE into buf (trailing newline dropped); false when gone. */
static bool task_file(pid_t pid, const char *tid, const char *file, char *buf, size_t len)
{
    char p[256];
    snprintf(p, sizeof(p), "/proc/%d/task/%s/%s", (int)pid, tid, file);
    FILE *f = fopen(p, "r");
    if (!f)
        return false;
    size_t n = fread(buf, 1, len - 1, f);
    fclose(f);
    buf[n] = '\0';
    while (n && buf[n - 1] == '\n')
        buf[--n] = '\0';
    return true;
}

/* One look at every thread of pid: the ptsb-wN ones' Cpus_allowed_list into seen[N]. */
static void look(pid_t pid, struct seen *seen)
{
    char p[64];
    snprintf(p, sizeof(p), "/proc/%d/task", (int)pid);
    DIR *d = opendir(p);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char comm[64], status[8192];
        unsigned n;
        if (!task_file(pid, e->d_name, "comm", comm, sizeof(comm)) ||
            sscanf(comm, "ptsb-w%u", &n) != 1 || n >= MAX_SEEN)
            continue;
        if (!task_file(pid, e->d_name, "status", status, sizeof(status)))
            continue;
        const char *l = strstr(status, "Cpus_allowed_list:");
        if (!l)
            continue;
        char list[256];
        if (sscanf(l, "Cpus_allowed_list: %255s", list) != 1)
            continue;
        if (!seen[n].any) {
            seen[n].any = true;
            snprintf(seen[n].allowed, sizeof(seen[n].allowed), "%s", list);
        } else if (strcmp(seen[n].allowed, list)) {
            seen[n].changed = true;
        }
    }
    closedir(d);
}

/* Run ptsbench ARGS... -o OUT (stdout and stderr to OUT.log) and watch its worker threads
 * until it exits. Returns its exit status. */
static int run_watched(char *const *args, const char *out, struct seen *seen)
{
    char log[4200];
    snprintf(log, sizeof(log), "%s.log", out);
    char *argv[48];
    size_t k = 0;
    argv[k++] = (char *)ptsbench_bin();
    for (size_t i = 0; args[i] && k < 44; i++)
        argv[k++] = args[i];
    argv[k++] = "-o";
    argv[k++] = (char *)out;
    argv[k] = NULL;
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd >= 0) {
            dup2(fd, 1);
            dup2(fd, 2);
        }
        execv(argv[0], argv);
        _exit(127);
    }
    memset(seen, 0, MAX_SEEN * sizeof(*seen));
    int st;
    for (;;) {
        pid_t r = waitpid(pid, &st, WNOHANG);
        if (r == pid)
            break;
        look(pid, seen);
        test_sleep_ms(20);
    }
    int code = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
    if (code != 0) {
        char *text = slurp_file(log, NULL);
        fprintf(stderr, "ptsbench exited %d:\n%s\n", code, text ? text : "");
        free(text);
    }
    return code;
}

/* A file run of 2 workers, 2 rounds of 2 s, with extra options; its results (caller puts). */
static struct json_object *file_run(const char *name, const char *opt, const char *val,
                                    struct seen *seen)
{
    char target[4200], out[4200];
    snprintf(target, sizeof(target), "%s/target", dir);
    snprintf(out, sizeof(out), "%s/%s", dir, name);
    char *args[24] = {"run", "--target", target, "--size", "64m", "--workload",
                      "rw=randread,bs=4k,qd=4,workers=2", "--rounds", "2", "--round-time",
                      "2", "--engine", (char *)engine, "-q"};
    size_t k = 14;
    if (opt) {
        args[k++] = (char *)opt;
        args[k++] = (char *)val;
    }
    args[k] = NULL;
    if (run_watched(args, out, seen) != 0)
        return NULL;
    char results[4300];
    snprintf(results, sizeof(results), "%s/results.json", out);
    return load_json(results);
}

/* The placement against what /proc showed: every worker seen with one mask, that mask its
 * affinity, ran_on within it. */
static void check_workers(struct json_object *doc, const struct seen *seen, unsigned workers)
{
    struct json_object *ws = json_at(doc, "placement.workers");
    assert_non_null(ws);
    assert_int_equal(json_object_array_length(ws), workers);
    assert_string_equal(json_object_get_string(json_at(doc, "placement.threads")), "worker");
    for (unsigned i = 0; i < workers; i++) {
        struct json_object *w = json_object_array_get_idx(ws, i);
        const char *aff = json_object_get_string(json_at(w, "affinity"));
        const char *ran = json_object_get_string(json_at(w, "ran_on"));
        assert_non_null(aff);
        assert_non_null(ran);
        if (!seen[i].any)
            fail_msg("worker %u: no thread ptsb-w%u seen while the run went", i, i);
        assert_false(seen[i].changed);
        /* /proc's list and ours are both the kernel's canonical form */
        if (strcmp(seen[i].allowed, aff))
            fail_msg("worker %u: /proc says Cpus_allowed_list %s, the results %s", i,
                     seen[i].allowed, aff);
        cpu_set_t a, r;
        char err[256];
        assert_int_equal(cpuset_parse(aff, &a, err, sizeof(err)), 0);
        assert_int_equal(cpuset_parse(ran, &r, err, sizeof(err)), 0);
        assert_true(cpuset_count(&r) > 0);
        if (!cpuset_subset(&r, &a))
            fail_msg("worker %u: ran on %s, outside its affinity %s", i, ran, aff);
    }
}

static bool may_run_on(int cpu)
{
    cpu_set_t s;
    return sched_getaffinity(0, sizeof(s), &s) == 0 && CPU_ISSET(cpu, &s);
}

static void check_pinned(const char *list)
{
    struct seen seen[MAX_SEEN];
    char name[32];
    snprintf(name, sizeof(name), "cpus-%s", list);
    struct json_object *doc = file_run(name, "--cpus", list, seen);
    assert_non_null(doc);
    assert_string_equal(json_object_get_string(json_at(doc, "placement.mode")), "cpus");
    assert_true(json_object_get_boolean(json_at(doc, "placement.pinned")));
    assert_string_equal(json_object_get_string(json_at(doc, "placement.requested")), list);
    assert_string_equal(json_object_get_string(json_at(doc, "placement.cpus")), list);
    check_workers(doc, seen, 2);
    for (unsigned i = 0; i < 2; i++)
        assert_string_equal(seen[i].allowed, list);
    json_object_put(doc);
}

static void test_cpus_1(void **state)
{
    (void)state;
    if (!may_run_on(1)) {
        printf("SKIP: this process may not run on CPU 1\n");
        skip();
    }
    check_pinned("1");
}

static void test_cpus_0(void **state)
{
    (void)state;
    if (!may_run_on(0) || !may_run_on(1)) {
        printf("SKIP: --cpus 0 needs CPUs 0 and 1 (pinning to the only CPU proves little)\n");
        skip();
    }
    check_pinned("0");
}

static void test_auto(void **state)
{
    (void)state;
    struct seen seen[MAX_SEEN];
    struct json_object *doc = file_run("auto", NULL, NULL, seen);
    assert_non_null(doc);
    assert_string_equal(json_object_get_string(json_at(doc, "placement.mode")), "auto");
    const bool pinned = json_object_get_boolean(json_at(doc, "placement.pinned"));
    const double nodes = json_num(doc, "placement.host_nodes");
    struct json_object *node = json_at(doc, "placement.device_node");
    if (nodes < 2 || !node) {
        assert_false(pinned);
        const char *why = json_object_get_string(json_at(doc, "placement.reason"));
        assert_non_null(why);
        assert_true(strlen(why) > 0);
        cpu_set_t mine;   /* not pinned: the workers keep the process's mask */
        char list[256];
        assert_int_equal(sched_getaffinity(0, sizeof(mine), &mine), 0);
        cpuset_format(&mine, list, sizeof(list));
        assert_string_equal(seen[0].allowed, list);
    } else {
        assert_true(pinned);
        assert_int_equal(json_num(doc, "placement.node"), json_num(doc, "placement.device_node"));
    }
    check_workers(doc, seen, 2);
    json_object_put(doc);
}

static void test_sim_calling_thread(void **state)
{
    (void)state;
    if (!may_run_on(1)) {
        printf("SKIP: this process may not run on CPU 1\n");
        skip();
    }
    char out[4200];
    snprintf(out, sizeof(out), "%s/sim", dir);
    char *argv[] = {"ptsbench", "run", "--target", "sim:generic-mlc25", "--workload",
                    "rw=randread,bs=4k,qd=4,workers=3", "--rounds", "2", "--round-time", "1",
                    "--cpus", "1", "-q", "-o", out, NULL};
    struct json_object *doc = ptsbench_results(argv, out, 0, NULL);
    assert_non_null(doc);
    assert_string_equal(json_object_get_string(json_at(doc, "placement.threads")), "calling");
    assert_string_equal(json_object_get_string(json_at(doc, "placement.device_node_reason")),
                        "a simulated drive has no NUMA node");
    assert_int_equal(json_object_array_length(json_at(doc, "placement.workers")), 3);
    for (unsigned i = 0; i < 3; i++) {
        char p[64];
        snprintf(p, sizeof(p), "placement.workers.%u.affinity", i);
        assert_string_equal(json_object_get_string(json_at(doc, p)), "1");
        snprintf(p, sizeof(p), "placement.workers.%u.ran_on", i);
        assert_string_equal(json_object_get_string(json_at(doc, p)), "1");
    }
    json_object_put(doc);
}

/* Exit 2, one line naming the value, nothing written. */
static void refused(const char *opt, const char *value, const char *named)
{
    char out[4200];
    snprintf(out, sizeof(out), "%s/bad", dir);
    char *argv[] = {(char *)ptsbench_bin(), "run", "--target", "sim:generic-mlc25",
                    "--workload", "rw=randread", (char *)opt, (char *)value, "-o", out, NULL};
    struct cmd_result r;
    assert_int_equal(run_cmd(argv, &r), 0);
    if (r.status != 2)
        fail_msg("%s '%s': exit %d, not 2 (%s)", opt, value, r.status, r.errout);
    char *nl = strchr(r.errout, '\n');
    assert_non_null(nl);
    assert_string_equal(nl + 1, "");   /* one line */
    if (!strstr(r.errout, named))
        fail_msg("%s '%s': '%s' does not name it", opt, value, r.errout);
    struct stat st;
    assert_int_not_equal(stat(out, &st), 0);
    cmd_result_free(&r);
}

static void test_bad_values(void **state)
{
    (void)state;
    refused("--cpus", "99999", "--cpus 99999");
    refused("--cpus", "3-1", "--cpus 3-1");
    refused("--cpus", "x", "--cpus x");
    refused("--cpus", "", "--cpus ''");
    refused("--cpus", "1023", "--cpus 1023");   /* parses, but this process may not use it */
    refused("--numa", "9", "--numa 9");
    refused("--numa", "near", "--numa near");
}

int main(void)
{
    /* io_uring where it runs, else libaio: a short probe run on a file */
    char *d = make_temp_dir("numa-probe");
    if (d) {
        char target[4200], out[4200];
        snprintf(target, sizeof(target), "%s/t", d);
        snprintf(out, sizeof(out), "%s/o", d);
        char *argv[] = {(char *)ptsbench_bin(), "run", "--target", target, "--size", "16m",
                        "--workload", "rw=randread", "--rounds", "1", "--round-time", "1",
                        "--engine", "io_uring", "-q", "-o", out, NULL};
        if (run_quiet(argv) != 0)
            engine = "libaio";
        remove_tree(d);
        free(d);
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cpus_1),
        cmocka_unit_test(test_cpus_0),
        cmocka_unit_test(test_auto),
        cmocka_unit_test(test_sim_calling_thread),
        cmocka_unit_test(test_bad_values),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
