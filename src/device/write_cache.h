/* write_cache.h — the device's volatile write cache, as the PTS asks (PTS-E: disabled, WCD;
 * PTS-C: enabled, WCE), set and read back with the field's tools where the device has one:
 *   NVMe   nvme set-feature CTRL --namespace-id=0xffffffff --feature-id=6 --value=0|1
 *          nvme get-feature CTRL --namespace-id=0xffffffff --feature-id=6
 *          The Volatile Write Cache feature (06h) is the controller's, not a namespace's: sent
 *          for a namespace (nvme-cli fills in the namespace's ID when given /dev/nvme0n1) it is
 *          refused "Feature Not Namespace Specific" (status 0x410f). So CTRL is the controller's
 *          character device (/dev/nvme0 for /dev/nvme0n1, a multipath head's first path's
 *          controller) and the namespace ID the broadcast value, as nvme-cli 2.x uses on a
 *          controller. The kernel's queue/write_cache says only whether the controller has a
 *          volatile cache (Identify Controller VWC bit 0), not whether it is enabled: the
 *          state comes from get-feature. A controller without one has nothing to disable.
 *   ATA    hdparm -W0|-W1 DEV, read back with hdparm -W DEV
 * Others (SCSI without sdparm, zram, loop, files, simulated drives) are reported as they are.
 * UNCERTAIN: a namespace shared by several controllers (multipath) has one cache per
 * controller; the first path's is set.
 * The plans and parsers are pure (tested without a device); wcache_apply and wcache_query run
 * the tool (fork/exec). */
#ifndef PTSBENCH_WRITE_CACHE_H
#define PTSBENCH_WRITE_CACHE_H

#include <stdbool.h>
#include <stddef.h>

#include "device/purge.h"

/* Said of an NVMe namespace whose controller has no volatile write cache. */
#define WCACHE_NO_VWC "no volatile write cache (the NVMe controller's VWC bit is clear)"

struct wcache_plan {
    bool supported;
    char *argv[8];            /* into store */
    char text[256];           /* the command line, for the results */
    char store[256];
    char reason[192];         /* why not supported */
};

/* Set the cache on (enable) or off. */
void wcache_plan_make(const struct purge_facts *f, bool enable, struct wcache_plan *out);
/* Read its state (the command wcache_query runs). */
void wcache_query_plan(const struct purge_facts *f, struct wcache_plan *out);
/* Returns 0, or -1 with the tool's first error line. */
int wcache_apply(const struct wcache_plan *p, char *err, size_t errlen);
/* The state now, as the device says it: 0 with *on set, or -1 with a message (no tool, the
 * command failed, its output not understood). */
int wcache_query(const struct purge_facts *f, bool *on, char *err, size_t errlen);

/* The controller's character device for an NVMe namespace or partition node DEVPATH
 * ("/dev/nvme1n1" -> "/dev/nvme1"), from ROOT/sys/class/block ("" the live /sys): a multipath
 * head's first path (multipath/nvmeXcYnZ -> nvmeX), else the namespace's device link, else the
 * name itself ("nvme1n1p2" -> "nvme1"). */
void wcache_nvme_controller(const char *root, const char *devpath, char *out, size_t len);

/* Pure parsers of the tools' answers: 0 with *on set, or -1 when the text says neither.
 *   nvme get-feature: "get-feature:0x06 (Volatile Write Cache), Current value:0x00000001"
 *                     (nvme-cli 2.3 prints a zero as "Current value:00000000")
 *   hdparm -W:        " write-caching =  1 (on)" */
int wcache_parse_nvme_get_feature(const char *text, bool *on);
int wcache_parse_hdparm(const char *text, bool *on);

#endif
