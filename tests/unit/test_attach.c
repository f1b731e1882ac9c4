/* test_attach.c — how a block device is attached and the host's DMI strings, from a sysfs tree
 * built here in a temporary directory (target_attach_at, hostinfo_dmi_at take the root):
 *  - a PCIe NVMe namespace (nvme0n1 -> controller nvme0 -> PCI function 0000:01:00.0, link
 *    "8.0 GT/s PCIe" x4 of "8.0 GT/s PCIe" x4, driver nvme, NUMA node 0, firmware 2.0.18): every
 *    field, and in the results (results_target_json, results_host_json);
 *  - a SATA disk whose sysfs has none of the attributes: interface sata, its PCI function, and
 *    every other field absent (no driver, no link, NUMA -1), none of them in the results;
 *  - a device sysfs does not know and a host without DMI: nothing. */
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
        cmocka_unit_test(test_dmi),
        cmocka_unit_test(test_vpd80_serial),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
