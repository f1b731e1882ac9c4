/* zoned.h — zoned block devices: what the kernel says of one, and ptsbench's decision on it.
 *
 * A zoned device (an NVMe Zoned Namespace, NVM Express Zoned Namespace Command Set Specification
 * 1.1, §2.1.1; an SMR disk, ZBC/ZAC) is divided into zones. In a host-managed device a zone is
 * written only sequentially, at its write pointer, and written again only after a zone reset: a
 * write anywhere else fails (NVMe status Zone Invalid Write, EIO from the kernel). A host-aware
 * device takes writes anywhere and handles them itself. Linux says which in the disk's
 * queue/zoned ("none", "host-aware", "host-managed"), with the zone size in queue/chunk_sectors
 * (512-byte sectors), the number of zones in queue/nr_zones and the open and active limits in
 * queue/max_open_zones, queue/max_active_zones (0: no limit): the kernel's
 * Documentation/ABI/stable/sysfs-block and "Zoned Block Devices" (zonedstorage.io).
 *
 * The decision (docs/targets.md, "Zoned devices"): ptsbench refuses, before anything is written
 * or created, every run that would write a host-managed device — random and sequential workloads
 * (which wrap around their range), preconditioning and purge alike (discard and format reset no
 * write pointer; no zone reset, BLKRESETZONE, is offered instead). Reads run. A host-aware device
 * is measured like any other. Both are recorded (results target.zoned). */
#ifndef PTSBENCH_ZONED_H
#define PTSBENCH_ZONED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct target_zoned {
    char model[16];            /* "host-managed", "host-aware"; "" not zoned (or sysfs silent) */
    uint64_t zone_bytes;       /* queue/chunk_sectors x 512; 0 unknown */
    uint32_t zones;            /* queue/nr_zones; 0 unknown */
    uint32_t max_open, max_active;   /* queue/max_open_zones, max_active_zones; 0 no limit */
};

/* The zoned model of block device NAME from ROOT/sys/block/NAME/queue (ROOT "" the live /sys,
 * a test's fake tree otherwise) into *z; all empty when it is not zoned. Reads only. */
void zoned_read_at(const char *root, const char *name, struct target_zoned *z);

/* A run on PATH, described by z, that writes (writes: workload, preconditioning or purge):
 * 0 when it may, -1 with one line naming PATH, the model and its zones when z is host-managed.
 * Pure. */
int zoned_check(const char *path, const struct target_zoned *z, bool writes, char *err,
                size_t errlen);

#endif
