/* test_numa.c — CPU lists and the placement decision, on a sysfs tree built here (numa.h's
 * readers take the root, as target_attach_at does):
 *  - cpuset_parse / cpuset_format: the kernel's list syntax both ways ("0-3,8,10-11" holds 7
 *    CPUs and formats back to itself; "0,1,2,5" formats as "0-2,5"), blank is empty, and each
 *    bad value ("3-1", "x", "99999", "1,,2", the strided "0-15:2/4") is refused with a phrase
 *    naming it;
 *  - a two-node host (node 0: CPUs 0-3, node 1: CPUs 4-7) with an NVMe namespace whose PCI
 *    function says numa_node 1: auto pins to 4-7 (node 1), its partition too, and only the
 *    CPUs of 4-7 the process may use (4-5 of 0-5); --numa off does not pin; --numa 0 pins to
 *    0-3; --numa 5 is refused naming the nodes; --cpus 2 pins to 2 whatever the node, and a
 *    --cpus outside the allowed set is refused naming the CPU;
 *  - a SATA disk whose sysfs has no numa_node on that host, a zram device (virtual) and a
 *    simulated drive: not pinned, each with its reason;
 *  - an NVMe multipath head (nvme1n1, 259:5, its device the subsystem nvme-subsys1 under
 *    devices/virtual; its one path nvme1c0n1 under controller nvme0 of that node-1 function):
 *    node 1 and pinned to 4-7, not "a virtual device"; a head with no path (nvme2n1, 259:6):
 *    unknown, saying so;
 *  - a one-node host: not pinned, "host has one NUMA node";
 *  - the record: results_placement_json's keys and show_placement_line's one line. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "core/results.h"
#include "device/numa.h"
#include "device/target.h"
#include "helpers.h"
#include "lib/cpuset.h"
#include "show/show.h"

static char *root2, *root1;   /* a two-node host, a one-node host */

/* ---- the CPU-list parser ----------------------------------------------------------------- */

static void round_trip(const char *in, const char *want, unsigned count)
{
    cpu_set_t s;
    char err[256] = "", out[256];
    assert_int_equal(cpuset_parse(in, &s, err, sizeof(err)), 0);
    assert_int_equal(cpuset_count(&s), count);
    cpuset_format(&s, out, sizeof(out));
    assert_string_equal(out, want);
}

static void test_list_round_trip(void **state)
{
    (void)state;
    round_trip("0-3,8,10-11", "0-3,8,10-11", 7);
    round_trip("0,1,2,5", "0-2,5", 4);
    round_trip(" 0-1\n", "0-1", 2);
    round_trip("7", "7", 1);
    round_trip("1023", "1023", 1);
    round_trip("", "", 0);
    round_trip("\n", "", 0);   /* a memory-only node's cpulist */
}

static void refused(const char *in, const char *named)
{
    cpu_set_t s;
    char err[256] = "";
    assert_int_equal(cpuset_parse(in, &s, err, sizeof(err)), -1);
    if (!strstr(err, named))
        fail_msg("'%s': the message '%s' does not name '%s'", in, err, named);
    assert_null(strchr(err, '\n'));
}

static void test_list_refused(void **state)
{
    (void)state;
    refused("3-1", "3-1");
    refused("x", "'x'");
    refused("99999", "99999");
    refused("1024", "1024");
    refused("1,,2", "empty");
    refused("0-15:2/4", "0-15:2/4");
    refused("-1", "-1");
    refused("2-", "2-");
}

static void test_list_format_truncates(void **state)
{
    (void)state;
    cpu_set_t s;
    CPU_ZERO(&s);
    for (int c = 0; c < 64; c += 2)
        CPU_SET(c, &s);
    char out[16];
    cpuset_format(&s, out, sizeof(out));
    assert_true(strlen(out) < sizeof(out));
    assert_non_null(strstr(out, "..."));
}

static void test_parse_options(void **state)
{
    (void)state;
    struct numa_request r;
    char err[256];
    memset(&r, 0, sizeof(r));
    assert_int_equal(numa_parse_mode("off", &r, err, sizeof(err)), 0);
    assert_int_equal(r.numa, NUMA_OFF);
    assert_int_equal(numa_parse_mode("1", &r, err, sizeof(err)), 0);
    assert_int_equal(r.numa, NUMA_NODE);
    assert_int_equal(r.node, 1);
    assert_int_equal(numa_parse_mode("auto", &r, err, sizeof(err)), 0);
    assert_int_equal(r.numa, NUMA_AUTO);
    assert_int_equal(numa_parse_mode("near", &r, err, sizeof(err)), -1);
    assert_int_equal(numa_parse_mode("-1", &r, err, sizeof(err)), -1);
    assert_int_equal(numa_parse_cpus("2,4-5", &r, err, sizeof(err)), 0);
    assert_true(r.cpus_given);
    assert_int_equal(cpuset_count(&r.cpus), 3);
    assert_string_equal(r.cpus_text, "2,4-5");
    memset(&r, 0, sizeof(r));
    assert_int_equal(numa_parse_cpus(" ", &r, err, sizeof(err)), -1);   /* no CPU at all */
    assert_false(r.cpus_given);
}

/* ---- the fake sysfs trees ---------------------------------------------------------------- */

static void mkdirs(const char *root, const char *rel)
{
    char p[4096];
    snprintf(p, sizeof(p), "%s/%s", root, rel);
    for (char *s = p + strlen(root) + 1; *s; s++)
        if (*s == '/') {
            *s = '\0';
            assert_true(mkdir(p, 0755) == 0 || errno == EEXIST);
            *s = '/';
        }
    assert_true(mkdir(p, 0755) == 0 || errno == EEXIST);
}

static void put(const char *root, const char *rel, const char *text)
{
    char p[4096];
    snprintf(p, sizeof(p), "%s/%s", root, rel);
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void link_to(const char *root, const char *rel, const char *target)
{
    char p[4096];
    snprintf(p, sizeof(p), "%s/%s", root, rel);
    assert_int_equal(symlink(target, p), 0);
}

#define PCI "sys/devices/pci0000:80/0000:80:01.0/0000:81:00.0"
#define NS PCI "/nvme/nvme0/nvme0n1"
#define SATA "sys/devices/pci0000:00/0000:00:1f.2/ata1/host0/target0:0:0/0:0:0:0"

/* An NVMe namespace (259:0, partition 259:1) on node 1, a SATA disk (8:0) with no numa_node,
 * zram0 (252:0); nodes 0 (CPUs 0-3) and 1 (4-7) when two, node 0 (0-7) alone otherwise. */
static void build_tree(const char *root, bool two_nodes)
{
    mkdirs(root, NS "/nvme0n1p1");
    put(root, NS "/nvme0n1p1/partition", "1\n");
    put(root, PCI "/numa_node", "1\n");
    link_to(root, PCI "/nvme/nvme0/device", "../../../0000:81:00.0");
    link_to(root, NS "/device", "../../nvme0");
    mkdirs(root, "sys/block");
    link_to(root, "sys/block/nvme0n1",
            "../devices/pci0000:80/0000:80:01.0/0000:81:00.0/nvme/nvme0/nvme0n1");
    mkdirs(root, SATA "/block/sda");
    link_to(root, SATA "/block/sda/device", "../../../0:0:0:0");
    link_to(root, "sys/block/sda",
            "../devices/pci0000:00/0000:00:1f.2/ata1/host0/target0:0:0/0:0:0:0/block/sda");
    mkdirs(root, "sys/devices/virtual/block/zram0");
    link_to(root, "sys/block/zram0", "../devices/virtual/block/zram0");
    mkdirs(root, "sys/dev/block");
    link_to(root, "sys/dev/block/259:0",
            "../../devices/pci0000:80/0000:80:01.0/0000:81:00.0/nvme/nvme0/nvme0n1");
    link_to(root, "sys/dev/block/259:1",
            "../../devices/pci0000:80/0000:80:01.0/0000:81:00.0/nvme/nvme0/nvme0n1/nvme0n1p1");
    link_to(root, "sys/dev/block/8:0",
            "../../devices/pci0000:00/0000:00:1f.2/ata1/host0/target0:0:0/0:0:0:0/block/sda");
    link_to(root, "sys/dev/block/252:0", "../../devices/virtual/block/zram0");
    /* native NVMe multipath: heads under the subsystems, the path under the controller */
    const char *sub = "sys/devices/virtual/nvme-subsystem/nvme-subsys1";
    char rel[256];
    snprintf(rel, sizeof(rel), "%s/nvme1n1", sub);
    mkdirs(root, rel);
    snprintf(rel, sizeof(rel), "%s/nvme1n1/device", sub);
    link_to(root, rel, "../../nvme-subsys1");
    snprintf(rel, sizeof(rel), "%s/nvme0", sub);
    link_to(root, rel, "../../../pci0000:80/0000:80:01.0/0000:81:00.0/nvme/nvme0");
    put(root, PCI "/nvme/nvme0/state", "live\n");
    mkdirs(root, PCI "/nvme/nvme0/nvme1c0n1");
    link_to(root, PCI "/nvme/nvme0/nvme1c0n1/device", "../../nvme0");
    link_to(root, "sys/block/nvme1c0n1",
            "../devices/pci0000:80/0000:80:01.0/0000:81:00.0/nvme/nvme0/nvme1c0n1");
    link_to(root, "sys/block/nvme1n1", "../devices/virtual/nvme-subsystem/nvme-subsys1/nvme1n1");
    link_to(root, "sys/dev/block/259:5", "../../devices/virtual/nvme-subsystem/nvme-subsys1/"
                                         "nvme1n1");
    mkdirs(root, "sys/devices/virtual/nvme-subsystem/nvme-subsys2/nvme2n1");
    link_to(root, "sys/devices/virtual/nvme-subsystem/nvme-subsys2/nvme2n1/device",
            "../../nvme-subsys2");
    link_to(root, "sys/block/nvme2n1", "../devices/virtual/nvme-subsystem/nvme-subsys2/nvme2n1");
    link_to(root, "sys/dev/block/259:6", "../../devices/virtual/nvme-subsystem/nvme-subsys2/"
                                         "nvme2n1");
    mkdirs(root, "sys/devices/system/node/node0");
    if (two_nodes) {
        mkdirs(root, "sys/devices/system/node/node1");
        put(root, "sys/devices/system/node/online", "0-1\n");
        put(root, "sys/devices/system/node/node0/cpulist", "0-3\n");
        put(root, "sys/devices/system/node/node1/cpulist", "4-7\n");
    } else {
        put(root, "sys/devices/system/node/online", "0\n");
        put(root, "sys/devices/system/node/node0/cpulist", "0-7\n");
    }
}

static int setup(void **state)
{
    (void)state;
    root2 = make_temp_dir("numa2");
    root1 = make_temp_dir("numa1");
    if (!root2 || !root1)
        return -1;
    build_tree(root2, true);
    build_tree(root1, false);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    remove_tree(root2);
    remove_tree(root1);
    free(root2);
    free(root1);
    return 0;
}

static struct target_info block(unsigned maj, unsigned min)
{
    struct target_info t;
    memset(&t, 0, sizeof(t));
    t.kind = TARGET_BLOCK;
    t.rdev = makedev(maj, min);
    return t;
}

static void cpus_are(const cpu_set_t *s, const char *want)
{
    char got[256];
    cpuset_format(s, got, sizeof(got));
    assert_string_equal(got, want);
}

/* ---- the decision ------------------------------------------------------------------------ */

static void test_host_nodes(void **state)
{
    (void)state;
    cpu_set_t nodes, cpus;
    assert_int_equal(numa_host_nodes(root2, &nodes), 2);
    cpus_are(&nodes, "0-1");
    assert_int_equal(numa_node_cpus(root2, 1, &cpus), 0);
    cpus_are(&cpus, "4-7");
    assert_int_equal(numa_node_cpus(root2, 2, &cpus), -1);
    assert_int_equal(numa_host_nodes(root1, &nodes), 1);
    char none[4200];
    snprintf(none, sizeof(none), "%s/nowhere", root2);   /* a kernel without NUMA: node 0 */
    assert_int_equal(numa_host_nodes(none, &nodes), 1);
    cpus_are(&nodes, "0");
}

static void test_device_node(void **state)
{
    (void)state;
    char why[256];
    struct target_info t = block(259, 0);
    assert_int_equal(numa_target_node(root2, &t, why, sizeof(why)), 1);
    t = block(259, 1);   /* the partition: its disk's node */
    assert_int_equal(numa_target_node(root2, &t, why, sizeof(why)), 1);
    t.kind = TARGET_FILE;   /* a file on that partition */
    assert_int_equal(numa_target_node(root2, &t, why, sizeof(why)), 1);
    t = block(8, 0);
    assert_int_equal(numa_target_node(root2, &t, why, sizeof(why)), -1);
    assert_non_null(strstr(why, "sda"));
    t = block(252, 0);
    assert_int_equal(numa_target_node(root2, &t, why, sizeof(why)), -1);
    assert_non_null(strstr(why, "virtual"));
    t = block(7, 9);   /* sysfs does not know it */
    assert_int_equal(numa_target_node(root2, &t, why, sizeof(why)), -1);
    assert_non_null(strstr(why, "7:9"));
    t.kind = TARGET_FILE;
    t.rdev = makedev(0, 45);   /* tmpfs, overlay */
    assert_int_equal(numa_target_node(root2, &t, why, sizeof(why)), -1);
    assert_non_null(strstr(why, "no block device"));
    t.kind = TARGET_SIM;
    assert_int_equal(numa_target_node(root2, &t, why, sizeof(why)), -1);
    assert_non_null(strstr(why, "simulated"));
}

/* An NVMe multipath head lives under devices/virtual, but its path's controller is on node 1. */
static void test_multipath_head_node(void **state)
{
    (void)state;
    char why[256] = "";
    struct target_info t = block(259, 5);
    assert_int_equal(numa_target_node(root2, &t, why, sizeof(why)), 1);
    struct numa_request req = {.numa = NUMA_AUTO};
    struct placement pl;
    char err[512] = "";
    assert_int_equal(numa_place_at(root2, NULL, &req, &t, &pl, err, sizeof(err)), 0);
    assert_true(pl.pinned);
    assert_int_equal(pl.device_node, 1);
    cpus_are(&pl.cpus, "4-7");
    t = block(259, 6);   /* a head with no path */
    assert_int_equal(numa_target_node(root2, &t, why, sizeof(why)), -1);
    assert_non_null(strstr(why, "nvme2n1"));
    assert_non_null(strstr(why, "no path"));
    assert_null(strstr(why, "virtual"));
}

static void test_auto_pins_to_device_node(void **state)
{
    (void)state;
    struct numa_request req = {.numa = NUMA_AUTO};
    struct placement pl;
    char err[512] = "";
    struct target_info t = block(259, 0);
    assert_int_equal(numa_place_at(root2, NULL, &req, &t, &pl, err, sizeof(err)), 0);
    assert_true(pl.pinned);
    assert_int_equal(pl.mode, NUMA_AUTO);
    assert_int_equal(pl.device_node, 1);
    assert_int_equal(pl.node, 1);
    assert_int_equal(pl.host_nodes, 2);
    cpus_are(&pl.cpus, "4-7");
    /* only the node's CPUs this process may use */
    cpu_set_t allowed;
    assert_int_equal(cpuset_parse("0-5", &allowed, err, sizeof(err)), 0);
    assert_int_equal(numa_place_at(root2, &allowed, &req, &t, &pl, err, sizeof(err)), 0);
    assert_true(pl.pinned);
    cpus_are(&pl.cpus, "4-5");
    /* none of them: auto does not pin, and says why */
    assert_int_equal(cpuset_parse("0-3", &allowed, err, sizeof(err)), 0);
    assert_int_equal(numa_place_at(root2, &allowed, &req, &t, &pl, err, sizeof(err)), 0);
    assert_false(pl.pinned);
    assert_non_null(strstr(pl.reason, "node 1"));
    /* a file on the namespace's partition */
    t = block(259, 1);
    t.kind = TARGET_FILE;
    assert_int_equal(numa_place_at(root2, NULL, &req, &t, &pl, err, sizeof(err)), 0);
    assert_true(pl.pinned);
    cpus_are(&pl.cpus, "4-7");
}

static void test_off_and_node(void **state)
{
    (void)state;
    struct placement pl;
    char err[512] = "";
    struct target_info t = block(259, 0);
    struct numa_request off = {.numa = NUMA_OFF};
    assert_int_equal(numa_place_at(root2, NULL, &off, &t, &pl, err, sizeof(err)), 0);
    assert_false(pl.pinned);
    assert_int_equal(pl.mode, NUMA_OFF);
    assert_int_equal(pl.device_node, 1);   /* still recorded */
    assert_string_equal(pl.reason, "--numa off");
    struct numa_request n0 = {.numa = NUMA_NODE, .node = 0};
    assert_int_equal(numa_place_at(root2, NULL, &n0, &t, &pl, err, sizeof(err)), 0);
    assert_true(pl.pinned);
    assert_int_equal(pl.node, 0);
    cpus_are(&pl.cpus, "0-3");
    struct numa_request n5 = {.numa = NUMA_NODE, .node = 5};
    assert_int_equal(numa_place_at(root2, NULL, &n5, &t, &pl, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "--numa 5"));
    assert_non_null(strstr(err, "nodes: 0-1"));
}

static void test_cpus_override(void **state)
{
    (void)state;
    struct placement pl;
    char err[512] = "";
    struct target_info t = block(259, 0);
    struct numa_request req = {.numa = NUMA_OFF};   /* --cpus overrides --numa */
    assert_int_equal(numa_parse_cpus("2", &req, err, sizeof(err)), 0);
    assert_int_equal(numa_place_at(root2, NULL, &req, &t, &pl, err, sizeof(err)), 0);
    assert_true(pl.pinned);
    assert_int_equal(pl.mode, NUMA_CPUS);
    assert_int_equal(pl.node, -1);
    assert_string_equal(pl.requested, "2");
    cpus_are(&pl.cpus, "2");
    cpu_set_t allowed;
    assert_int_equal(cpuset_parse("0-1", &allowed, err, sizeof(err)), 0);
    assert_int_equal(numa_place_at(root2, &allowed, &req, &t, &pl, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "--cpus 2"));
    assert_non_null(strstr(err, "allowed: 0-1"));
}

static void test_not_pinned_reasons(void **state)
{
    (void)state;
    struct numa_request req = {.numa = NUMA_AUTO};
    struct placement pl;
    char err[512] = "";
    struct target_info t = block(259, 0);
    assert_int_equal(numa_place_at(root1, NULL, &req, &t, &pl, err, sizeof(err)), 0);
    assert_false(pl.pinned);
    assert_int_equal(pl.host_nodes, 1);
    assert_int_equal(pl.device_node, 1);   /* the fake function says 1; one node online */
    assert_string_equal(pl.reason, "host has one NUMA node");
    t = block(8, 0);
    assert_int_equal(numa_place_at(root2, NULL, &req, &t, &pl, err, sizeof(err)), 0);
    assert_false(pl.pinned);
    assert_non_null(strstr(pl.reason, "unknown"));
    assert_non_null(strstr(pl.reason, "sda"));
    t = block(252, 0);
    assert_int_equal(numa_place_at(root2, NULL, &req, &t, &pl, err, sizeof(err)), 0);
    assert_false(pl.pinned);
    assert_non_null(strstr(pl.reason, "virtual"));
    t.kind = TARGET_SIM;
    assert_int_equal(numa_place_at(root2, NULL, &req, &t, &pl, err, sizeof(err)), 0);
    assert_false(pl.pinned);
    assert_non_null(strstr(pl.reason, "simulated"));
}

/* ---- the record -------------------------------------------------------------------------- */

static void test_record_json_and_line(void **state)
{
    (void)state;
    struct numa_request req = {.numa = NUMA_AUTO};
    struct placement pl;
    char err[512] = "";
    struct target_info t = block(259, 0);
    assert_int_equal(numa_place_at(root2, NULL, &req, &t, &pl, err, sizeof(err)), 0);
    cpu_set_t aff, ran;
    assert_int_equal(cpuset_parse("4-7", &aff, err, sizeof(err)), 0);
    assert_int_equal(cpuset_parse("4,6", &ran, err, sizeof(err)), 0);
    pl.threads = PLACE_THREADS_WORKER;
    placement_worker_add(&pl, 1, &aff, &ran);   /* worker 0 grows in as empty */
    assert_int_equal(cpuset_parse("5", &ran, err, sizeof(err)), 0);
    placement_worker_add(&pl, 0, &aff, &ran);
    assert_int_equal(pl.n_workers, 2);

    struct json_object *doc = json_object_new_object();
    json_object_object_add(doc, "placement", results_placement_json(&pl));
    assert_string_equal(json_object_get_string(json_at(doc, "placement.mode")), "auto");
    assert_int_equal(json_num(doc, "placement.device_node"), 1);
    assert_int_equal(json_num(doc, "placement.node"), 1);
    assert_int_equal(json_num(doc, "placement.host_nodes"), 2);
    assert_true(json_object_get_boolean(json_at(doc, "placement.pinned")));
    assert_string_equal(json_object_get_string(json_at(doc, "placement.cpus")), "4-7");
    assert_string_equal(json_object_get_string(json_at(doc, "placement.threads")), "worker");
    assert_string_equal(json_object_get_string(json_at(doc, "placement.workers.1.affinity")),
                        "4-7");
    assert_string_equal(json_object_get_string(json_at(doc, "placement.workers.1.ran_on")),
                        "4,6");
    assert_string_equal(json_object_get_string(json_at(doc, "placement.workers.0.ran_on")), "5");
    char line[512];
    assert_true(show_placement_line(doc, line, sizeof(line)));
    assert_string_equal(line, "device node 1; workers pinned to CPUs 4-7 (node 1); ran on 4-6");
    json_object_put(doc);
    placement_free(&pl);

    /* not pinned, and a document from before placement was recorded */
    assert_int_equal(numa_place_at(root1, NULL, &req, &t, &pl, err, sizeof(err)), 0);
    doc = json_object_new_object();
    json_object_object_add(doc, "placement", results_placement_json(&pl));
    assert_null(json_object_get_string(json_at(doc, "placement.cpus")));
    assert_true(show_placement_line(doc, line, sizeof(line)));
    assert_string_equal(line, "device node 1; not pinned: host has one NUMA node");
    json_object_put(doc);
    doc = json_object_new_object();
    assert_false(show_placement_line(doc, line, sizeof(line)));
    assert_string_equal(line, "");
    json_object_put(doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_list_round_trip),
        cmocka_unit_test(test_list_refused),
        cmocka_unit_test(test_list_format_truncates),
        cmocka_unit_test(test_parse_options),
        cmocka_unit_test(test_host_nodes),
        cmocka_unit_test(test_device_node),
        cmocka_unit_test(test_multipath_head_node),
        cmocka_unit_test(test_auto_pins_to_device_node),
        cmocka_unit_test(test_off_and_node),
        cmocka_unit_test(test_cpus_override),
        cmocka_unit_test(test_not_pinned_reasons),
        cmocka_unit_test(test_record_json_and_line),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
