/* test_write_cache.c — the write-cache plans per transport, the controller an NVMe namespace
 * belongs to (fake sysfs trees), and the parsers of the tools' answers as captured in the
 * device lab (tests/vmlab/nvme-health.sh: QEMU 7.2's NVMe controller with nvme-cli 2.3, its ATA
 * disk with hdparm 9.65). No device is touched.
 *
 * The NVMe Volatile Write Cache feature (06h) is the controller's: set for a namespace (what
 * `nvme set-feature /dev/nvme0n1` sends: nvme-cli fills in the namespace's ID) the controller
 * refuses it, "NVMe status: Feature Not Namespace Specific ... (0x410f)" (captured in the lab).
 * So the plan names the controller's character device and the broadcast namespace ID. */
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

#include "device/write_cache.h"

static void test_plans(void **state)
{
    (void)state;
    struct purge_facts f;
    struct wcache_plan p;
    memset(&f, 0, sizeof(f));
    strcpy(f.devpath, "/dev/nvme1n1");
    f.transport = PURGE_T_NVME;
    f.have_nvme_cli = true;
    wcache_plan_make(&f, false, &p);
    assert_true(p.supported);
    assert_string_equal(p.text,
                        "nvme set-feature /dev/nvme1 --namespace-id=0xffffffff --feature-id=6 "
                        "--value=0");
    assert_string_equal(p.argv[0], "nvme");
    assert_string_equal(p.argv[2], "/dev/nvme1");   /* the controller, not the namespace */
    assert_string_equal(p.argv[3], "--namespace-id=0xffffffff");
    assert_string_equal(p.argv[5], "--value=0");
    assert_null(p.argv[6]);
    wcache_plan_make(&f, true, &p);
    assert_string_equal(p.argv[5], "--value=1");
    wcache_query_plan(&f, &p);
    assert_string_equal(p.text,
                        "nvme get-feature /dev/nvme1 --namespace-id=0xffffffff --feature-id=6");
    assert_null(p.argv[5]);
    strcpy(f.devpath, "/dev/nvme1n1p2");           /* a partition: its controller too */
    wcache_plan_make(&f, false, &p);
    assert_string_equal(p.argv[2], "/dev/nvme1");
    f.have_nvme_cli = false;
    wcache_plan_make(&f, true, &p);
    assert_false(p.supported);
    assert_non_null(strstr(p.reason, "nvme-cli"));

    strcpy(f.devpath, "/dev/sdb");
    f.transport = PURGE_T_ATA;
    f.have_hdparm = true;
    wcache_plan_make(&f, false, &p);
    assert_true(p.supported);
    assert_string_equal(p.text, "hdparm -W0 /dev/sdb");
    assert_string_equal(p.argv[2], "/dev/sdb");
    wcache_query_plan(&f, &p);
    assert_string_equal(p.text, "hdparm -W /dev/sdb");

    const enum purge_transport none[] = {PURGE_T_SCSI, PURGE_T_SIM, PURGE_T_FILE,
                                         PURGE_T_OTHER_BLOCK};
    for (size_t i = 0; i < 4; i++) {
        f.transport = none[i];
        wcache_plan_make(&f, true, &p);
        assert_false(p.supported);
        assert_true(strlen(p.reason) > 10);
        char err[256];
        assert_int_equal(wcache_apply(&p, err, sizeof(err)), -1);
        assert_non_null(strstr(err, "write cache"));
        bool on;
        assert_int_equal(wcache_query(&f, &on, err, sizeof(err)), -1);
    }
    assert_non_null(strstr(WCACHE_NO_VWC, "no volatile write cache"));
}

/* A fake /sys/class/block: NAME/device -> a directory named TARGET, NAME/multipath/PATHS */
static void mkdirs(const char *root, const char *rel)
{
    char p[512];
    snprintf(p, sizeof(p), "%s/%s", root, rel);
    for (char *c = p + strlen(root) + 1; (c = strchr(c, '/')); c++) {
        *c = '\0';
        mkdir(p, 0755);
        *c = '/';
    }
    mkdir(p, 0755);
}

static void test_controller_from_sysfs(void **state)
{
    (void)state;
    char root[] = "/tmp/ptsbench-wcache-XXXXXX", p[512], t[512], out[128];
    assert_non_null(mkdtemp(root));
    /* a plain namespace: its device link names the controller (nvme3, not nvme0) */
    mkdirs(root, "sys/devices/pci0000:00/0000:00:04.0/nvme/nvme3");
    mkdirs(root, "sys/class/block/nvme0n1");
    snprintf(p, sizeof(p), "%s/sys/class/block/nvme0n1/device", root);
    snprintf(t, sizeof(t), "%s/sys/devices/pci0000:00/0000:00:04.0/nvme/nvme3", root);
    assert_int_equal(symlink(t, p), 0);
    wcache_nvme_controller(root, "/dev/nvme0n1", out, sizeof(out));
    assert_string_equal(out, "/dev/nvme3");
    /* a multipath head: its device is the subsystem; the paths name the controllers */
    mkdirs(root, "sys/devices/virtual/nvme-subsystem/nvme-subsys1");
    mkdirs(root, "sys/class/block/nvme1n1/multipath/nvme5c5n1");
    mkdirs(root, "sys/class/block/nvme1n1/multipath/nvme4c4n1");
    snprintf(p, sizeof(p), "%s/sys/class/block/nvme1n1/device", root);
    snprintf(t, sizeof(t), "%s/sys/devices/virtual/nvme-subsystem/nvme-subsys1", root);
    assert_int_equal(symlink(t, p), 0);
    wcache_nvme_controller(root, "/dev/nvme1n1", out, sizeof(out));
    assert_string_equal(out, "/dev/nvme4");
    /* nothing in sysfs: the name says it */
    wcache_nvme_controller(root, "/dev/nvme7n2", out, sizeof(out));
    assert_string_equal(out, "/dev/nvme7");
    wcache_nvme_controller(root, "/dev/nvme7c1n2", out, sizeof(out));
    assert_string_equal(out, "/dev/nvme7");
    /* remove the tree (links first) */
    const char *links[] = {"sys/class/block/nvme0n1/device", "sys/class/block/nvme1n1/device"};
    for (size_t i = 0; i < 2; i++) {
        snprintf(p, sizeof(p), "%s/%s", root, links[i]);
        unlink(p);
    }
    const char *dirs[] = {"sys/class/block/nvme1n1/multipath/nvme5c5n1",
                          "sys/class/block/nvme1n1/multipath/nvme4c4n1",
                          "sys/class/block/nvme1n1/multipath", "sys/class/block/nvme1n1",
                          "sys/class/block/nvme0n1", "sys/class/block", "sys/class",
                          "sys/devices/virtual/nvme-subsystem/nvme-subsys1",
                          "sys/devices/virtual/nvme-subsystem", "sys/devices/virtual",
                          "sys/devices/pci0000:00/0000:00:04.0/nvme/nvme3",
                          "sys/devices/pci0000:00/0000:00:04.0/nvme",
                          "sys/devices/pci0000:00/0000:00:04.0", "sys/devices/pci0000:00",
                          "sys/devices", "sys"};
    for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
        snprintf(p, sizeof(p), "%s/%s", root, dirs[i]);
        assert_int_equal(rmdir(p), 0);
    }
    assert_int_equal(rmdir(root), 0);
}

/* The tools' answers, as captured in the lab */
static void test_parse_answers(void **state)
{
    (void)state;
    bool on = false;
    assert_int_equal(wcache_parse_nvme_get_feature(
                         "get-feature:0x06 (Volatile Write Cache), Current value:0x00000001\n",
                         &on), 0);
    assert_true(on);
    /* nvme-cli 2.3 prints a zero without its 0x */
    assert_int_equal(wcache_parse_nvme_get_feature(
                         "get-feature:0x06 (Volatile Write Cache), Current value:00000000\n",
                         &on), 0);
    assert_false(on);
    assert_int_equal(wcache_parse_nvme_get_feature(
                         "NVMe status: Feature Not Namespace Specific: The Feature Identifier "
                         "specified is not namespace specific(0x410f)\n", &on), -1);
    assert_int_equal(wcache_parse_nvme_get_feature(NULL, &on), -1);
    assert_int_equal(wcache_parse_hdparm("\n/dev/sda:\n write-caching =  1 (on)\n", &on), 0);
    assert_true(on);
    assert_int_equal(wcache_parse_hdparm("\n/dev/sda:\n setting drive write-caching to 0 (off)\n"
                                         " write-caching =  0 (off)\n", &on), 0);
    assert_false(on);
    assert_int_equal(wcache_parse_hdparm("\n/dev/sda:\n write-caching = not supported\n", &on),
                     -1);
    assert_int_equal(wcache_parse_hdparm("", &on), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plans),
        cmocka_unit_test(test_controller_from_sysfs),
        cmocka_unit_test(test_parse_answers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
