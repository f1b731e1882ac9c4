/* write_cache.h — the device's volatile write cache, as the PTS asks (PTS-E: disabled, WCD;
 * PTS-C: enabled, WCE), set with the field's tools where the device has one:
 *   NVMe   nvme set-feature DEV --feature-id=6 --value=0|1   (Volatile Write Cache feature)
 *   ATA    hdparm -W0|-W1 DEV
 * Others (SCSI without sdparm, zram, loop, files, simulated drives) are reported as they are.
 * wcache_plan is pure (tested without a device); wcache_apply runs the tool (fork/exec). */
#ifndef PTSBENCH_WRITE_CACHE_H
#define PTSBENCH_WRITE_CACHE_H

#include <stdbool.h>
#include <stddef.h>

#include "device/purge.h"

struct wcache_plan {
    bool supported;
    char *argv[8];            /* into text */
    char text[256];           /* the command line, for the results */
    char store[256];
    char reason[192];         /* why not supported */
};

void wcache_plan_make(const struct purge_facts *f, bool enable, struct wcache_plan *out);
/* Returns 0, or -1 with the tool's first error line. */
int wcache_apply(const struct wcache_plan *p, char *err, size_t errlen);

#endif
