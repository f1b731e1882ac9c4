/* test_attach.c — how a block device is attached and the host's DMI strings, from a sysfs tree
 * built here in a temporary directory (target_attach_at, hostinfo_dmi_at take the root):
 *  - a PCIe NVMe namespace (nvme0n1 -> controller nvme0 -> PCI function 0000:01:00.0, link
 *    "8.0 GT/s PCIe" x4 of "8.0 GT/s PCIe" x4, driver nvme, NUMA node 0, firmware 2.0.18): every
 *    field, and in the results (results_target_json, results_host_json);
 *  - a SATA disk whose sysfs has none of the attributes: interface sata, its PCI function, and
 *    every other field absent (no driver, no link, NUMA -1), none of them in the results;
 *  - a device sysfs does not know and a host without DMI: nothing;
 *  - an NVMe multipath head as Linux 6.1 lays it out (nvme1n1 -> devices/virtual/nvme-subsystem/
 *    nvme-subsys1/nvme1n1, its device the subsystem, whose links nvme1, nvme2, nvme3 are its
 *    controllers; the hidden path disks nvme1c1n1 under controller nvme1 on 0000:02:00.0, node 0,
 *    ANA non-optimized, and nvme1c2n1 under nvme2 on 0000:41:00.0, node 1, optimized; nvme3 has
 *    no path to the namespace): both paths listed in controller order, the optimized one used,
 *    and driver, PCIe, NUMA node and firmware its controller's, in the results too; with no
 *    controller live, the first path; a head whose subsystem has no path: no driver, no PCIe. */
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
#include <unistd.h>

#include "core/results.h"
#include "device/hostinfo.h"
#include "device/target.h"
#include "helpers.h"

static char *root;

/* mkdir -p ROOT/rel */
static void mkdirs(const char *rel)
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

static void put(const char *rel, const char *text)
{
    char p[4096];
    snprintf(p, sizeof(p), "%s/%s", root, rel);
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void link_to(const char *rel, const char *target)
{
    char p[4096];
    snprintf(p, sizeof(p), "%s/%s", root, rel);
    assert_int_equal(symlink(target, p), 0);
}

#define PCI "sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0"
#define SATA "sys/devices/pci0000:00/0000:00:1f.2/ata1/host0/target0:0:0/0:0:0:0"

#define SUBSYS "sys/devices/virtual/nvme-subsystem/nvme-subsys1"
#define FN1 "sys/devices/pci0000:00/0000:00:02.0/0000:02:00.0"
#define FN2 "sys/devices/pci0000:40/0000:40:00.0/0000:41:00.0"

/* Controller nvmeM on PCI function fn (its numa_node, its state), linked from the subsystem,
 * with the path disk nvme1cMn1 when path (ana: its ANA state, "" none). */
static void nvme_controller(const char *fn, unsigned m, const char *numa, const char *state,
                            bool path, const char *ana)
{
    const char *below = fn + strlen("sys/devices");   /* "/pci0000:00/..." */
    char rel[512], to[512];
    snprintf(rel, sizeof(rel), "%s/nvme/nvme%u", fn, m);
    mkdirs(rel);
    snprintf(rel, sizeof(rel), "%s/numa_node", fn);
    put(rel, numa);
    snprintf(rel, sizeof(rel), "%s/current_link_speed", fn);
    put(rel, "2.5 GT/s PCIe\n");
    snprintf(rel, sizeof(rel), "%s/current_link_width", fn);
    put(rel, "1\n");
    snprintf(rel, sizeof(rel), "%s/driver", fn);
    snprintf(to, sizeof(to), "%s/%s", root, rel);
    struct stat st;
    if (lstat(to, &st) != 0)   /* one link per function (nvme2 and nvme3 share one) */
        link_to(rel, "../../../../bus/pci/drivers/nvme");
    snprintf(rel, sizeof(rel), "%s/nvme/nvme%u/state", fn, m);
    put(rel, state);
    snprintf(rel, sizeof(rel), "%s/nvme/nvme%u/firmware_rev", fn, m);
    put(rel, m == 2 ? "2.0\n" : "1.0\n");
    snprintf(rel, sizeof(rel), "%s/nvme/nvme%u/device", fn, m);
    link_to(rel, "../..");
    snprintf(rel, sizeof(rel), SUBSYS "/nvme%u", m);
    snprintf(to, sizeof(to), "../../..%s/nvme/nvme%u", below, m);
    link_to(rel, to);
    if (!path)
        return;
    snprintf(rel, sizeof(rel), "%s/nvme/nvme%u/nvme1c%un1", fn, m, m);
    mkdirs(rel);
    snprintf(rel, sizeof(rel), "%s/nvme/nvme%u/nvme1c%un1/device", fn, m, m);
    snprintf(to, sizeof(to), "../../nvme%u", m);
    link_to(rel, to);
    if (ana[0]) {
        snprintf(rel, sizeof(rel), "%s/nvme/nvme%u/nvme1c%un1/ana_state", fn, m, m);
        put(rel, ana);
    }
    snprintf(rel, sizeof(rel), "sys/block/nvme1c%un1", m);
    snprintf(to, sizeof(to), "../devices%s/nvme/nvme%u/nvme1c%un1", below, m, m);
    link_to(rel, to);
}

static void nvme_head_tree(void)
{
    mkdirs(SUBSYS "/nvme1n1");
    put(SUBSYS "/model", "QEMU NVMe Ctrl\n");
    put(SUBSYS "/firmware_rev", "9.9\n");
    put(SUBSYS "/iopolicy", "numa\n");
    link_to(SUBSYS "/nvme1n1/device", "../../nvme-subsys1");
    link_to("sys/block/nvme1n1", "../devices/virtual/nvme-subsystem/nvme-subsys1/nvme1n1");
    nvme_controller(FN1, 1, "0\n", "live\n", true, "non-optimized\n");
    nvme_controller(FN2, 2, "1\n", "live\n", true, "optimized\n");
    nvme_controller(FN2, 3, "1\n", "live\n", false, "");   /* the same function, no path */
    /* a head whose subsystem has no controller */
    mkdirs("sys/devices/virtual/nvme-subsystem/nvme-subsys5/nvme5n1");
    link_to("sys/devices/virtual/nvme-subsystem/nvme-subsys5/nvme5n1/device",
            "../../nvme-subsys5");
    link_to("sys/block/nvme5n1", "../devices/virtual/nvme-subsystem/nvme-subsys5/nvme5n1");
}

static int setup(void **state)
{
    (void)state;
    root = make_temp_dir("attach");
    if (!root)
        return -1;
    mkdirs(PCI "/nvme/nvme0/nvme0n1");
    mkdirs("sys/bus/pci/drivers/nvme");
    mkdirs("sys/block");
    put(PCI "/current_link_speed", "8.0 GT/s PCIe\n");
    put(PCI "/current_link_width", "4\n");
    put(PCI "/max_link_speed", "8.0 GT/s PCIe\n");
    put(PCI "/max_link_width", "4\n");
    put(PCI "/numa_node", "0\n");
    link_to(PCI "/driver", "../../../../bus/pci/drivers/nvme");
    put(PCI "/nvme/nvme0/firmware_rev", "2.0.18  \n");
    link_to(PCI "/nvme/nvme0/device", "../../../0000:01:00.0");
    link_to(PCI "/nvme/nvme0/nvme0n1/device", "../../nvme0");
    link_to("sys/block/nvme0n1", "../devices/pci0000:00/0000:00:01.0/0000:01:00.0/nvme/nvme0/"
                                 "nvme0n1");
    mkdirs(SATA "/block/sda");
    link_to(SATA "/block/sda/device", "../../../0:0:0:0");
    link_to("sys/block/sda", "../devices/pci0000:00/0000:00:1f.2/ata1/host0/target0:0:0/"
                             "0:0:0:0/block/sda");
    nvme_head_tree();
    mkdirs("sys/class/dmi/id");
    put("sys/class/dmi/id/sys_vendor", "Supermicro\n");
    put("sys/class/dmi/id/product_name", "SYS-2028U-TNRT+\n");
    put("sys/class/dmi/id/board_vendor", "Supermicro\n");
    put("sys/class/dmi/id/board_name", "X10DRU-i+\n");
    put("sys/class/dmi/id/bios_vendor", "American Megatrends Inc.\n");
    put("sys/class/dmi/id/bios_version", "2.0a\n");
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    remove_tree(root);
    free(root);
    return 0;
}

static void test_nvme_every_field(void **state)
{
    (void)state;
    struct target_attach a;
    target_attach_at(root, "nvme0n1", &a);
    assert_string_equal(a.interface, "nvme");
    assert_string_equal(a.driver, "nvme");
    assert_string_equal(a.pci_address, "0000:01:00.0");
    assert_string_equal(a.link_speed, "8.0 GT/s PCIe");
    assert_int_equal(a.link_width, 4);
    assert_string_equal(a.max_link_speed, "8.0 GT/s PCIe");
    assert_int_equal(a.max_link_width, 4);
    assert_int_equal(a.numa_node, 0);
    assert_string_equal(a.firmware, "2.0.18");

    struct target_info t;
    memset(&t, 0, sizeof(t));
    t.kind = TARGET_BLOCK;
    t.attach = a;
    struct json_object *o = results_target_json(&t);
    assert_string_equal(json_object_get_string(json_at(o, "interface")), "nvme");
    assert_string_equal(json_object_get_string(json_at(o, "driver")), "nvme");
    assert_int_equal(json_num(o, "numa_node"), 0);
    assert_string_equal(json_object_get_string(json_at(o, "pcie.address")), "0000:01:00.0");
    assert_string_equal(json_object_get_string(json_at(o, "pcie.link_speed")), "8.0 GT/s PCIe");
    assert_int_equal(json_num(o, "pcie.link_width"), 4);
    assert_string_equal(json_object_get_string(json_at(o, "pcie.max_link_speed")),
                        "8.0 GT/s PCIe");
    assert_int_equal(json_num(o, "pcie.max_link_width"), 4);
    json_object_put(o);
}

static void test_missing_files_absent(void **state)
{
    (void)state;
    struct target_attach a;
    target_attach_at(root, "sda", &a);
    assert_string_equal(a.interface, "sata");
    assert_string_equal(a.driver, "");
    assert_string_equal(a.pci_address, "0000:00:1f.2");
    assert_string_equal(a.link_speed, "");
    assert_string_equal(a.max_link_speed, "");
    assert_int_equal(a.link_width, -1);
    assert_int_equal(a.max_link_width, -1);
    assert_int_equal(a.numa_node, -1);
    assert_string_equal(a.firmware, "");
    struct target_info t;
    memset(&t, 0, sizeof(t));
    t.kind = TARGET_BLOCK;
    t.attach = a;
    struct json_object *o = results_target_json(&t);
    assert_null(json_at(o, "driver"));
    assert_null(json_at(o, "numa_node"));
    assert_null(json_at(o, "pcie.link_speed"));
    assert_null(json_at(o, "pcie.link_width"));
    json_object_put(o);

    /* a device sysfs does not know: nothing at all */
    target_attach_at(root, "nvme9n1", &a);
    assert_string_equal(a.interface, "nvme");   /* from the name alone */
    assert_string_equal(a.driver, "");
    assert_string_equal(a.pci_address, "");
    assert_int_equal(a.numa_node, -1);
    assert_int_equal(a.link_width, -1);
    target_attach_at(root, "xyz0", &a);
    assert_string_equal(a.interface, "");
}

/* The head's facts as target_attach_at gives them: its paths, the one used, and that path's
 * controller's attachment. */
static void test_nvme_multipath_head(void **state)
{
    (void)state;
    struct target_attach a;
    target_attach_at(root, "nvme1n1", &a);
    assert_true(a.nvme_head);
    assert_string_equal(a.interface, "nvme");
    assert_string_equal(a.iopolicy, "numa");
    assert_int_equal(a.n_paths, 2);   /* nvme3 has no path to the namespace */
    assert_string_equal(a.paths[0].name, "nvme1c1n1");
    assert_string_equal(a.paths[0].controller, "nvme1");
    assert_string_equal(a.paths[0].state, "live");
    assert_string_equal(a.paths[0].ana_state, "non-optimized");
    assert_string_equal(a.paths[0].pci_address, "0000:02:00.0");
    assert_int_equal(a.paths[0].numa_node, 0);
    assert_string_equal(a.paths[1].name, "nvme1c2n1");
    assert_string_equal(a.paths[1].ana_state, "optimized");
    assert_string_equal(a.paths[1].pci_address, "0000:41:00.0");
    assert_int_equal(a.paths[1].numa_node, 1);
    assert_int_equal(a.path_used, 1);   /* the optimized one */
    assert_string_equal(a.driver, "nvme");
    assert_string_equal(a.pci_address, "0000:41:00.0");
    assert_string_equal(a.link_speed, "2.5 GT/s PCIe");
    assert_int_equal(a.link_width, 1);
    assert_int_equal(a.numa_node, 1);
    assert_string_equal(a.firmware, "2.0");   /* the used controller's, not the subsystem's */

    struct target_info t;
    memset(&t, 0, sizeof(t));
    t.kind = TARGET_BLOCK;
    t.attach = a;
    struct json_object *o = results_target_json(&t);
    assert_string_equal(json_object_get_string(json_at(o, "driver")), "nvme");
    assert_int_equal(json_num(o, "numa_node"), 1);
    assert_string_equal(json_object_get_string(json_at(o, "pcie.address")), "0000:41:00.0");
    assert_string_equal(json_object_get_string(json_at(o, "multipath.used")), "nvme1c2n1");
    assert_string_equal(json_object_get_string(json_at(o, "multipath.iopolicy")), "numa");
    struct json_object *paths = json_at(o, "multipath.paths");
    assert_int_equal(json_object_array_length(paths), 2);
    struct json_object *p0 = json_object_array_get_idx(paths, 0);
    assert_string_equal(json_object_get_string(json_at(p0, "name")), "nvme1c1n1");
    assert_string_equal(json_object_get_string(json_at(p0, "controller")), "nvme1");
    assert_string_equal(json_object_get_string(json_at(p0, "pcie_address")), "0000:02:00.0");
    assert_int_equal(json_num(p0, "numa_node"), 0);
    json_object_put(o);

    /* no controller live: the first path, as it is */
    char st[600];
    snprintf(st, sizeof(st), "%s/" FN2 "/nvme/nvme2/state", root);
    FILE *f = fopen(st, "w");
    assert_non_null(f);
    fputs("resetting\n", f);
    fclose(f);
    snprintf(st, sizeof(st), "%s/" FN1 "/nvme/nvme1/state", root);
    f = fopen(st, "w");
    assert_non_null(f);
    fputs("connecting\n", f);
    fclose(f);
    target_attach_at(root, "nvme1n1", &a);
    assert_int_equal(a.path_used, 0);
    assert_int_equal(a.numa_node, 0);
    assert_string_equal(a.pci_address, "0000:02:00.0");
    put(FN1 "/nvme/nvme1/state", "live\n");
    put(FN2 "/nvme/nvme2/state", "live\n");

    /* a head with no path: nothing but the interface, and the results say no path */
    target_attach_at(root, "nvme5n1", &a);
    assert_true(a.nvme_head);
    assert_int_equal(a.n_paths, 0);
    assert_int_equal(a.path_used, -1);
    assert_string_equal(a.driver, "");
    assert_string_equal(a.pci_address, "");
    assert_int_equal(a.numa_node, -1);
    t.attach = a;
    o = results_target_json(&t);
    assert_null(json_at(o, "multipath.used"));
    assert_int_equal(json_object_array_length(json_at(o, "multipath.paths")), 0);
    json_object_put(o);
}

static void test_dmi(void **state)
{
    (void)state;
    struct hostinfo h;
    memset(&h, 0, sizeof(h));
    hostinfo_dmi_at(root, &h);
    assert_string_equal(h.sys_vendor, "Supermicro");
    assert_string_equal(h.product_name, "SYS-2028U-TNRT+");
    assert_string_equal(h.board_vendor, "Supermicro");
    assert_string_equal(h.board_name, "X10DRU-i+");
    assert_string_equal(h.bios_vendor, "American Megatrends Inc.");
    assert_string_equal(h.bios_version, "2.0a");
    struct json_object *o = results_host_json(&h);
    assert_string_equal(json_object_get_string(json_at(o, "dmi.board_name")), "X10DRU-i+");
    assert_string_equal(json_object_get_string(json_at(o, "dmi.bios_version")), "2.0a");
    json_object_put(o);

    /* no DMI (a tree without it): every string empty, none in the results */
    char none[4200];
    snprintf(none, sizeof(none), "%s/sys/block", root);
    memset(&h, 0, sizeof(h));
    strcpy(h.sys_vendor, "stale");
    hostinfo_dmi_at(none, &h);
    assert_string_equal(h.sys_vendor, "");
    assert_string_equal(h.bios_version, "");
    o = results_host_json(&h);
    assert_null(json_at(o, "dmi.sys_vendor"));
    json_object_put(o);
}

/* A SCSI or SATA disk's serial from its Unit Serial Number VPD page (0x80), as sysfs gives
 * device/vpd_pg80: header, then the serial padded with spaces; a wrong page code, a page
 * shorter than its header says and an all-blank serial give none. */
static void test_vpd80_serial(void **state)
{
    (void)state;
    const unsigned char sata[] = {0x00, 0x80, 0x00, 0x14, ' ', ' ', ' ', ' ', ' ', ' ', 'Q', 'M',
                                  '0', '0', '0', '0', '1', ' ', ' ', ' ', ' ', ' ', ' ', ' '};
    char out[64];
    assert_true(target_vpd80_serial(sata, sizeof(sata), out, sizeof(out)));
    assert_string_equal(out, "QM00001");
    const unsigned char scsi[] = {0x00, 0x80, 0x00, 0x08, 'P', 'T', 'S', 'B', 'S', 'C', 'S', 'I'};
    assert_true(target_vpd80_serial(scsi, sizeof(scsi), out, sizeof(out)));
    assert_string_equal(out, "PTSBSCSI");
    assert_true(target_vpd80_serial(scsi, sizeof(scsi), out, 5));
    assert_string_equal(out, "PTSB");                     /* cut to the buffer */
    const unsigned char page83[] = {0x00, 0x83, 0x00, 0x02, 'a', 'b'};
    assert_false(target_vpd80_serial(page83, sizeof(page83), out, sizeof(out)));
    assert_string_equal(out, "");
    const unsigned char short_page[] = {0x00, 0x80, 0x00, 0x10, 'a', 'b'};
    assert_false(target_vpd80_serial(short_page, sizeof(short_page), out, sizeof(out)));
    const unsigned char blank[] = {0x00, 0x80, 0x00, 0x03, ' ', ' ', ' '};
    assert_false(target_vpd80_serial(blank, sizeof(blank), out, sizeof(out)));
    assert_false(target_vpd80_serial(scsi, 3, out, sizeof(out)));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nvme_every_field),
        cmocka_unit_test(test_missing_files_absent),
        cmocka_unit_test(test_nvme_multipath_head),
        cmocka_unit_test(test_dmi),
        cmocka_unit_test(test_vpd80_serial),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
