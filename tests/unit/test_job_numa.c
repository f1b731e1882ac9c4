/* test_job_numa.c — a fio job file's numa_cpu_nodes and numa_mem_policy taken as the run's
 * placement (core/job_numa.h): fio's numa.fio on this host (node 0), agreement between jobs,
 * the command's own --numa, policies first touch cannot give (a fake two-node sysfs). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/job_numa.h"
#include "io/workload.h"

static char root2[64];   /* a two-node host: node 0 has CPU 0, node 1 CPU 1 */

static void put(const char *rel, const char *text)
{
    char p[256];
    snprintf(p, sizeof(p), "%s/%s", root2, rel);
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static int setup(void **state)
{
    (void)state;
    snprintf(root2, sizeof(root2), "/tmp/test_job_numa.XXXXXX");
    if (!mkdtemp(root2))
        return -1;
    static const char *const dirs[] = {"sys", "sys/devices", "sys/devices/system",
                                       "sys/devices/system/node",
                                       "sys/devices/system/node/node0",
                                       "sys/devices/system/node/node1"};
    char p[256];
    for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
        snprintf(p, sizeof(p), "%s/%s", root2, dirs[i]);
        if (mkdir(p, 0700) != 0)
            return -1;
    }
    put("sys/devices/system/node/online", "0-1\n");
    put("sys/devices/system/node/node0/cpulist", "0\n");
    put("sys/devices/system/node/node1/cpulist", "1\n");
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char p[256];
    static const char *const files[] = {"node/online", "node/node0/cpulist", "node/node1/cpulist",
                                        "node/node0", "node/node1", "node", ""};
    for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
        snprintf(p, sizeof(p), "%s/sys/devices/system/%s", root2, files[i]);
        remove(p);
    }
    snprintf(p, sizeof(p), "%s/sys/devices", root2);
    rmdir(p);
    snprintf(p, sizeof(p), "%s/sys", root2);
    rmdir(p);
    rmdir(root2);
    return 0;
}

/* Two jobs a and b with these keys ("" none); returns job_numa_request's result. */
static int two_jobs(const char *root, const char *na, const char *ma, const char *nb,
                    const char *mb, struct numa_request *req, char *how, char *err)
{
    struct wl_job jobs[2];
    memset(jobs, 0, sizeof(jobs));
    snprintf(jobs[0].label, sizeof(jobs[0].label), "a");
    snprintf(jobs[1].label, sizeof(jobs[1].label), "b");
    snprintf(jobs[0].wl.numa_cpu_nodes, sizeof(jobs[0].wl.numa_cpu_nodes), "%s", na);
    snprintf(jobs[0].wl.numa_mem_policy, sizeof(jobs[0].wl.numa_mem_policy), "%s", ma);
    snprintf(jobs[1].wl.numa_cpu_nodes, sizeof(jobs[1].wl.numa_cpu_nodes), "%s", nb);
    snprintf(jobs[1].wl.numa_mem_policy, sizeof(jobs[1].wl.numa_mem_policy), "%s", mb);
    struct wl_jobset js = {.jobs = jobs, .n = 2, .n_groups = 1};
    *err = 0;
    return job_numa_request(root, &js, req, how, 200, err, 300);
}

/* fio's examples/numa.fio as it stands, on this host: the keys parse, and the run is placed
 * on node 0 (the host's nodes; on a one-node host job2's 0-1 is node 0 too) */
static void test_numa_example(void **state)
{
    (void)state;
    const char *dir = getenv("PTSBENCH_DATADIR");
    char path[4096], err[300] = "", how[200];
    snprintf(path, sizeof(path), "%s/tests/fixtures/fio-examples/numa.fio",
             dir && *dir ? dir : ".");
    struct wl_jobset js;
    if (wl_load_fio_jobs(path, NULL, &js, err, sizeof(err)) != 0)
        fail_msg("%s", err);
    assert_int_equal(js.n, 2);
    assert_string_equal(js.jobs[0].wl.numa_cpu_nodes, "0");
    assert_string_equal(js.jobs[1].wl.numa_mem_policy, "interleave:0-1");
    struct numa_request req = {0};
    cpu_set_t host;
    if (numa_host_nodes("", &host) == 1) {
        if (job_numa_request("", &js, &req, how, sizeof(how), err, sizeof(err)) != 0)
            fail_msg("%s", err);
        assert_int_equal(req.numa, NUMA_NODE);
        assert_int_equal(req.node, 0);
        assert_non_null(strstr(how, "numa_cpu_nodes"));
    }
    wl_jobset_free(&js);
}

static void test_agree(void **state)
{
    (void)state;
    struct numa_request req = {0};
    char how[200], err[300];
    /* the same node: --numa 1, memory bound there taken */
    assert_int_equal(two_jobs(root2, "1", "bind:1", "1", "local", &req, how, err), 0);
    assert_int_equal(req.numa, NUMA_NODE);
    assert_int_equal(req.node, 1);
    /* all nodes: their CPUs */
    memset(&req, 0, sizeof(req));
    assert_int_equal(two_jobs(root2, "all", "", "0-1", "", &req, how, err), 0);
    assert_true(req.cpus_given);
    assert_int_equal(CPU_COUNT(&req.cpus), 2);
    /* none: the command's auto, unchanged */
    memset(&req, 0, sizeof(req));
    assert_int_equal(two_jobs(root2, "", "", "", "", &req, how, err), 0);
    assert_int_equal(req.numa, NUMA_AUTO);
    assert_string_equal(how, "");
}

static void test_refused(void **state)
{
    (void)state;
    struct numa_request req = {0};
    char how[200], err[300];
    assert_int_equal(two_jobs(root2, "0", "", "1", "", &req, how, err), -1);
    assert_non_null(strstr(err, "one set of CPUs"));
    assert_int_equal(two_jobs(root2, "0", "", "", "", &req, how, err), -1);
    assert_non_null(strstr(err, "none"));
    assert_int_equal(two_jobs(root2, "5", "", "5", "", &req, how, err), -1);
    assert_non_null(strstr(err, "no such node"));
    assert_int_equal(two_jobs(root2, "0", "bind:1", "0", "", &req, how, err), -1);
    assert_non_null(strstr(err, "numa_mem_policy=bind:1"));
    assert_int_equal(two_jobs(root2, "0-1", "interleave:0-1", "0-1", "", &req, how, err), -1);
    assert_int_equal(two_jobs(root2, "", "bind:0", "", "", &req, how, err), -1);
    req.numa = NUMA_NODE;   /* the command's --numa 0 */
    assert_int_equal(two_jobs(root2, "0", "", "0", "", &req, how, err), -1);
    assert_non_null(strstr(err, "--numa"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_numa_example),
        cmocka_unit_test(test_agree),
        cmocka_unit_test(test_refused),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
