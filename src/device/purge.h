/* purge.h — return a drive to fresh-out-of-box before a PTS test, with the field's own tools.
 *
 * SNIA: "the process of returning a SSD to a state in which subsequent writes execute, as closely
 * as possible, as if the device had never been used". Methods (docs/pts.md §1.1):
 *   secure-erase  ATA SECURITY ERASE UNIT, in ENHANCED mode when `hdparm -I` lists "supported:
 *                 enhanced erase" (hdparm --security-set-pass, --security-erase-enhanced), else
 *                 in normal mode (--security-erase). Enhanced is preferred: the normal mode
 *                 need only clear the user LBAs, while the enhanced mode also covers the sectors
 *                 retired by reallocation (ATA Command Set, SECURITY ERASE UNIT), and on many
 *                 SSDs the spare area too, so no old state is left behind and the purge is
 *                 complete. A security-frozen or -locked drive is refused (the error says how
 *                 to unfreeze it).
 *   format        NVMe Format NVM with SES=1 (nvme format -s 1); SCSI FORMAT UNIT (sg_format)
 *   sanitize      NVMe Sanitize block erase (nvme sanitize -a 2, then poll the sanitize log);
 *                 ATA SANITIZE where the drive has the feature set (`hdparm -I` lists "SANITIZE
 *                 feature set") and this hdparm has the --sanitize-* options (`hdparm -h`):
 *                 BLOCK ERASE EXT, else CRYPTO SCRAMBLE EXT, else OVERWRITE EXT (pattern 0; one
 *                 pass where hdparm has --sanitize-overwrite-passes, else the ATA default of 16),
 *                 then `hdparm --sanitize-status` polled until done. Block erase first: it
 *                 erases every block, user, spare and reallocated alike, which is fresh-out-of-
 *                 box; crypto scramble changes the media key (the old data is unreadable, but
 *                 whether the drive also forgets its mapping is up to the drive); overwrite
 *                 leaves every block written, the least fresh of the three.
 *   discard       BLKDISCARD over the whole device (TRIM/UNMAP): NOT compliant, recorded so
 *   none          nothing (recorded; the report must say the test ran without a purge)
 *   auto          the first that applies: simulated drive -> its own secure erase; NVMe ->
 *                 format; ATA -> secure-erase; SCSI -> format; else discard; else none.
 * Tools run by fork/exec (never a shell). The decision (purge_plan) is a pure function of the
 * device facts and the request, so it is tested without touching a device. For ATA the variant
 * (enhanced or normal erase; which sanitize action) needs the drive's IDENTIFY data, so it is
 * chosen at execute time from `hdparm -I`, by pure functions (purge_ata_id_parse,
 * purge_ata_choose) that the tests run on captured output; purge_plan.ran says which ran. */
#ifndef PTSBENCH_PURGE_H
#define PTSBENCH_PURGE_H

#include <stdbool.h>
#include <stddef.h>

#include "device/target.h"

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
    bool hdparm_sanitize;           /* ATA: `hdparm -h` lists --sanitize-block-erase,
                                     * -crypto-scramble, -overwrite and -status */
    bool hdparm_ow_passes;          /* ... and --sanitize-overwrite-passes (hdparm 9.63 on) */
    char devpath[256];              /* /dev/nvme0n1, /dev/sdb, ... */
};

struct purge_plan {
    enum purge_method method;       /* what will run (never AUTO) */
    bool compliant;                 /* SNIA accepts it (secure-erase, format, sanitize) */
    char argv_text[512];            /* the command(s), for the results and dry runs. ATA: the
                                     * plan shows the preferred variant and its fallback in
                                     * words; purge_execute rewrites it with the commands it
                                     * chose from `hdparm -I` (what actually ran) */
    char reason[256];               /* why this method (or why not the one asked for) */
    char ran[128];                  /* set by purge_execute, "" until then: the variant issued.
                                     * "ATA enhanced security erase", "ATA security erase
                                     * (normal; enhanced not supported)", "ATA sanitize block
                                     * erase", "ATA sanitize crypto scramble (...)", "ATA
                                     * sanitize overwrite, 1 pass (...)", "NVMe format (SES=1)",
                                     * "NVMe sanitize block erase", "SCSI format unit",
                                     * "BLKDISCARD", "fallocate PUNCH_HOLE", "simulated TRIM",
                                     * "simulated drive secure erase", "none". Set just before
                                     * the variant's first command is issued, so it stays set
                                     * when that command then fails (the return value says so);
                                     * "" when purge_execute failed before issuing anything (a
                                     * frozen drive, no sanitize feature set, ...). */
};

const char *purge_method_name(enum purge_method m);      /* "secure-erase", ... */
int purge_method_parse(const char *text, enum purge_method *out);   /* 0 or -1 */

/* Read the facts for a target (sysfs, PATH; for an ATA disk with hdparm, `hdparm -h` for its
 * sanitize options); no I/O to the device. */
void purge_facts_collect(const struct target_info *t, struct purge_facts *out);

/* Decide. Returns 0, or -1 with a message when the requested method cannot apply to this
 * device (e.g. --purge format on a file, --purge secure-erase without hdparm on an ATA disk,
 * --purge sanitize on an ATA disk with an hdparm that has no --sanitize-* options). Pure. */
int purge_plan_make(const struct purge_facts *f, enum purge_method requested,
                    struct purge_plan *out, char *err, size_t errlen);

/* Execute the plan on the target (needs --destructive for block devices; callers check).
 * fd: the target opened for writing (discard uses it; the tools get the path). For simulated
 * targets the model's secure erase runs (sim_purge). Fills p->ran (and, for ATA, rewrites
 * p->argv_text with the commands chosen); a plan runs once: make a new one for each purge.
 * Returns 0 or -1 with a message. */
int purge_execute(struct purge_plan *p, struct target_info *t, int fd, char *err, size_t errlen);

/* ---- ATA helpers: pure, so the tests run them on captured hdparm output ------------------ */

/* What `hdparm -I DEV` prints about the security and sanitize feature sets. Tri-states are
 * 1 (listed), 0 (listed with "not"), -1 (not printed, or hdparm's "(?)"). */
struct purge_ata_id {
    bool security;                  /* a "Security:" section */
    int sec_supported, sec_enabled, sec_locked, sec_frozen;
    int enhanced_erase;             /* "supported: enhanced erase" */
    bool sanitize;                  /* "SANITIZE feature set" under "Commands/features:" */
    bool block_erase, crypto_scramble, overwrite;   /* BLOCK_ERASE_EXT, CRYPTO_SCRAMBLE_EXT,
                                                     * OVERWRITE_EXT command */
};
void purge_ata_id_parse(const char *hdparm_I, struct purge_ata_id *out);

/* From `hdparm -h` (its usage text): sets f->hdparm_sanitize and f->hdparm_ow_passes. */
void purge_hdparm_caps(const char *help, struct purge_facts *f);

/* Command lists: up to 3 commands of up to 8 words, NULL-terminated; the strings are literals
 * or point into the facts (devpath), so a list lives no longer than its facts. */
#define PURGE_MAX_CMDS 3
#define PURGE_MAX_ARGS 8
struct purge_cmds {
    int n;
    const char *argv[PURGE_MAX_CMDS][PURGE_MAX_ARGS + 1];
    const char *variant;            /* what they are (becomes purge_plan.ran) */
};

/* After `hdparm -I`: the ATA commands that follow it for p->method into out (secure-erase:
 * set the password, then erase, enhanced where supported; sanitize: the chosen action, then
 * the status command to poll), and the record of the choice into p: argv_text (`hdparm -I`
 * and these commands) and ran (out->variant). -1 with a message naming the device (p
 * unchanged, out empty) when the drive cannot do it: no security feature set, frozen, locked;
 * no SANITIZE feature set, or none of its three actions. Pure; purge_execute runs the result. */
int purge_ata_choose(struct purge_plan *p, const struct purge_facts *f,
                     const struct purge_ata_id *id, struct purge_cmds *out, char *err,
                     size_t errlen);

/* The state in `hdparm --sanitize-status` output (stdout, stderr; either may be NULL). */
enum purge_sanitize_state {
    PURGE_SAN_UNKNOWN = 0,          /* no state line */
    PURGE_SAN_RUNNING,              /* SD2: in progress */
    PURGE_SAN_DONE,                 /* SD0 + "Last Sanitize Operation Completed Without Error" */
    PURGE_SAN_IDLE,                 /* SD0 without it: no sanitize has completed */
    PURGE_SAN_FROZEN,               /* SD1 */
    PURGE_SAN_FAILED,               /* SD3, or "completed unsuccessfully" on stderr */
};
enum purge_sanitize_state purge_ata_sanitize_state(const char *out, const char *errout);

#endif
