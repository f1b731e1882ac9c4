/* test_zoned.c — zoned block devices (device/zoned.h), from a sysfs tree built here:
 *  - nvme0n2, host-managed, 8 zones of 8 MiB (queue/chunk_sectors 16384 x 512 B), no open or
 *    active limit, as QEMU's zoned namespace shows in Linux 6.1: read into every field, recorded
 *    in the results (target.zoned), and any write refused (zoned_check, and run_check_safety
 *    before --destructive counts: whatever the flags) with one line naming the device, the
 *    model and its zones; a read passes;
 *  - sdb, host-aware (14 open zones): recorded, writes allowed;
 *  - nvme0n1, "none", and a device without queue/zoned: not zoned, nothing recorded. */
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

#include "core/results.h"
#include "core/steps.h"
#include "device/target.h"
#include "device/zoned.h"
#include "helpers.h"

static char *root;

/* ROOT/sys/block/NAME/queue/ATTR = text (directories made as needed) */
static void queue_attr(const char *name, const char *attr, const char *text)
{
    char p[4096];
    snprintf(p, sizeof(p), "%s/sys", root);
    assert_true(mkdir(p, 0755) == 0 || errno == EEXIST);
    snprintf(p, sizeof(p), "%s/sys/block", root);
    assert_true(mkdir(p, 0755) == 0 || errno == EEXIST);
    snprintf(p, sizeof(p), "%s/sys/block/%s", root, name);
    assert_true(mkdir(p, 0755) == 0 || errno == EEXIST);
    snprintf(p, sizeof(p), "%s/sys/block/%s/queue", root, name);
    assert_true(mkdir(p, 0755) == 0 || errno == EEXIST);
    snprintf(p, sizeof(p), "%s/sys/block/%s/queue/%s", root, name, attr);
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static int setup(void **state)
{
    (void)state;
    root = make_temp_dir("zoned");
    if (!root)
        return -1;
    queue_attr("nvme0n2", "zoned", "host-managed\n");
    queue_attr("nvme0n2", "chunk_sectors", "16384\n");
    queue_attr("nvme0n2", "nr_zones", "8\n");
    queue_attr("nvme0n2", "max_open_zones", "0\n");
    queue_attr("nvme0n2", "max_active_zones", "0\n");
    queue_attr("sdb", "zoned", "host-aware\n");
    queue_attr("sdb", "chunk_sectors", "524288\n");
    queue_attr("sdb", "nr_zones", "55880\n");
    queue_attr("sdb", "max_open_zones", "14\n");
    queue_attr("nvme0n1", "zoned", "none\n");
    queue_attr("nvme0n1", "chunk_sectors", "0\n");
    queue_attr("sda", "rotational", "0\n");
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    remove_tree(root);
    free(root);
    return 0;
}

static struct target_info block_target(const char *path, const char *name)
{
    struct target_info t;
    memset(&t, 0, sizeof(t));
    t.kind = TARGET_BLOCK;
    snprintf(t.path, sizeof(t.path), "%s", path);
    snprintf(t.devname, sizeof(t.devname), "%s", name);
    zoned_read_at(root, name, &t.zoned);
    return t;
}

static void test_host_managed_read_and_recorded(void **state)
{
    (void)state;
    struct target_zoned z;
    zoned_read_at(root, "nvme0n2", &z);
    assert_string_equal(z.model, "host-managed");
    assert_int_equal(z.zone_bytes, 8u << 20);
    assert_int_equal(z.zones, 8);
    assert_int_equal(z.max_open, 0);
    assert_int_equal(z.max_active, 0);
    struct target_info t = block_target("/dev/nvme0n2", "nvme0n2");
    struct json_object *o = results_target_json(&t);
    assert_string_equal(json_object_get_string(json_at(o, "zoned.model")), "host-managed");
    assert_int_equal(json_num(o, "zoned.zone_bytes"), 8 << 20);
    assert_int_equal(json_num(o, "zoned.zones"), 8);
    assert_int_equal(json_num(o, "zoned.max_open_zones"), 0);
    json_object_put(o);
}

static void test_host_managed_writes_refused(void **state)
{
    (void)state;
    struct target_info t = block_target("/dev/nvme0n2", "nvme0n2");
    char err[512] = "";
    assert_int_equal(zoned_check(t.path, &t.zoned, true, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "/dev/nvme0n2"));
    assert_non_null(strstr(err, "host-managed"));
    assert_non_null(strstr(err, "8 zones of 8MiB"));
    assert_null(strchr(err, '\n'));
    assert_int_equal(zoned_check(t.path, &t.zoned, false, err, sizeof(err)), 0);
    /* the runners' one check: refused before the --destructive decision, whatever the flags */
    err[0] = '\0';
    assert_int_equal(run_check_safety(&t, true, true, true, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "host-managed"));
    assert_int_equal(run_check_safety(&t, false, false, false, err, sizeof(err)), 0);
}

static void test_host_aware_and_none(void **state)
{
    (void)state;
    char err[512] = "";
    struct target_info t = block_target("/dev/sdb", "sdb");
    assert_string_equal(t.zoned.model, "host-aware");
    assert_int_equal(t.zoned.zone_bytes, 256u << 20);
    assert_int_equal(t.zoned.max_open, 14);
    assert_int_equal(zoned_check(t.path, &t.zoned, true, err, sizeof(err)), 0);
    struct json_object *o = results_target_json(&t);
    assert_string_equal(json_object_get_string(json_at(o, "zoned.model")), "host-aware");
    json_object_put(o);
    const char *plain[] = {"nvme0n1", "sda", "nosuch0"};
    for (size_t i = 0; i < sizeof(plain) / sizeof(plain[0]); i++) {
        t = block_target("/dev/x", plain[i]);
        assert_string_equal(t.zoned.model, "");
        assert_int_equal(t.zoned.zone_bytes, 0);
        assert_int_equal(zoned_check(t.path, &t.zoned, true, err, sizeof(err)), 0);
        o = results_target_json(&t);
        assert_null(json_at(o, "zoned"));
        json_object_put(o);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_host_managed_read_and_recorded),
        cmocka_unit_test(test_host_managed_writes_refused),
        cmocka_unit_test(test_host_aware_and_none),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
