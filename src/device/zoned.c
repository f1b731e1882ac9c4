/* zoned.c — a block device's zoned model from sysfs, and the refusal of writes to a
 * host-managed one (zoned.h). */
#include "device/zoned.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/units.h"
#include "lib/util.h"

/* ROOT/sys/block/NAME/queue/ATTR into buf, trimmed; false when absent or empty. */
static bool zq_read(const char *root, const char *name, const char *attr, char *buf, size_t len)
{
    char path[PATH_MAX], tmp[64];
    if (snprintf(path, sizeof(path), "%s/sys/block/%s/queue/%s", root, name, attr) >=
        (int)sizeof(path) || read_text_file(path, tmp, sizeof(tmp)) < 0)
        return false;
    str_copy(buf, len, str_trim(tmp));
    return buf[0] != '\0';
}

static uint64_t zq_u64(const char *root, const char *name, const char *attr)
{
    char buf[32];
    if (!zq_read(root, name, attr, buf, sizeof(buf)))
        return 0;
    char *end;
    unsigned long long v = strtoull(buf, &end, 10);
    return *end ? 0 : (uint64_t)v;
}

void zoned_read_at(const char *root, const char *name, struct target_zoned *z)
{
    memset(z, 0, sizeof(*z));
    char model[32];
    if (!zq_read(root, name, "zoned", model, sizeof(model)) ||
        (strcmp(model, "host-managed") && strcmp(model, "host-aware")))
        return;
    str_copy(z->model, sizeof(z->model), model);
    z->zone_bytes = zq_u64(root, name, "chunk_sectors") * 512u;
    z->zones = (uint32_t)zq_u64(root, name, "nr_zones");
    z->max_open = (uint32_t)zq_u64(root, name, "max_open_zones");
    z->max_active = (uint32_t)zq_u64(root, name, "max_active_zones");
}

int zoned_check(const char *path, const struct target_zoned *z, bool writes, char *err,
                size_t errlen)
{
    if (!writes || strcmp(z->model, "host-managed") != 0)
        return 0;
    char size[32], zones[64] = "";
    if (z->zones && z->zone_bytes) {
        units_format_size(z->zone_bytes, size, sizeof(size));
        snprintf(zones, sizeof(zones), " (%u zones of %s)", z->zones, size);
    }
    return errf(err, errlen, "refusing to write to %s: a host-managed zoned device%s takes "
                "writes only in sequence at each zone's write pointer, which ptsbench's "
                "workloads, preconditioning and purges do not keep; reads run (README.md, "
                "\"Zoned devices\")", path, zones);
}
