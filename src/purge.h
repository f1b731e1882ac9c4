/* purge.h — return a drive to fresh-out-of-box before a PTS test, with the field's own tools.
 *
 * SNIA: "the process of returning a SSD to a state in which subsequent writes execute, as closely
 * as possible, as if the device had never been used". Methods (research/snia-pts.md §1.1):
 *   secure-erase  ATA SECURITY ERASE UNIT (hdparm --security-set-pass, --security-erase)
 *   format        NVMe Format NVM with SES=1 (nvme format -s 1); SCSI FORMAT UNIT (sg_format)
 *   sanitize      NVMe Sanitize block erase (nvme sanitize -a 2, then poll the sanitize log)
 *   discard       BLKDISCARD over the whole device (TRIM/UNMAP): NOT compliant, recorded so
 *   none          nothing (recorded; the report must say the test ran without a purge)
 *   auto          the first that applies: simulated drive -> its own secure erase; NVMe ->
 *                 format; ATA -> secure-erase; SCSI -> format; else discard; else none.
 * Tools run by fork/exec (never a shell). The decision (purge_plan) is a pure function of the
 * device facts and the request, so it is tested without touching a device. */
#ifndef PTSBENCH_PURGE_H
#define PTSBENCH_PURGE_H

#include <stdbool.h>
#include <stddef.h>

#include "target.h"

enum purge_method {
    PURGE_AUTO = 0,
    PURGE_SECURE_ERASE,
    PURGE_FORMAT,
    PURGE_SANITIZE,
    PURGE_DISCARD,
    PURGE_NONE,
};

enum purge_transport { PURGE_T_UNKNOWN = 0, PURGE_T_NVME, PURGE_T_ATA, PURGE_T_SCSI,
                       PURGE_T_SIM, PURGE_T_FILE, PURGE_T_OTHER_BLOCK };

/* What purge_plan needs to know about the device (collected by purge_facts, or by a test). */
struct purge_facts {
    enum purge_transport transport;
    bool supports_discard;          /* block: queue/discard_max_bytes > 0; file: punch hole */
    bool have_nvme_cli, have_hdparm, have_sg_format;   /* tools found in PATH */
    char devpath[256];              /* /dev/nvme0n1, /dev/sdb, ... */
};

struct purge_plan {
    enum purge_method method;       /* what will run (never AUTO) */
    bool compliant;                 /* SNIA accepts it (secure-erase, format, sanitize) */
    char argv_text[512];            /* the command(s), for the results and dry runs */
    char reason[256];               /* why this method (or why not the one asked for) */
};

const char *purge_method_name(enum purge_method m);      /* "secure-erase", ... */
int purge_method_parse(const char *text, enum purge_method *out);   /* 0 or -1 */

/* Read the facts for a target (sysfs, PATH); no I/O to the device. */
void purge_facts_collect(const struct target_info *t, struct purge_facts *out);

/* Decide. Returns 0, or -1 with a message when the requested method cannot apply to this
 * device (e.g. --purge format on a file, --purge secure-erase without hdparm on an ATA disk). */
int purge_plan_make(const struct purge_facts *f, enum purge_method requested,
                    struct purge_plan *out, char *err, size_t errlen);

/* Execute the plan on the target (needs --destructive for block devices; callers check).
 * fd: the target opened for writing (discard uses it; the tools get the path). For simulated
 * targets the model's secure erase runs (sim_purge). Returns 0 or -1 with a message. */
int purge_execute(const struct purge_plan *p, struct target_info *t, int fd,
                  char *err, size_t errlen);

#endif
