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
 *   format        NVMe Format NVM with SES=1 (user data erase) of the target's namespace, named by
 *                 its node and its namespace id (nvme format DEV --namespace-id=N --ses=1);
 *                 refused where the controller's FNA says a format or a secure erase reaches
 *                 every namespace and the controller has others. SCSI FORMAT UNIT with IMMED
 *                 (sg_format --format --quick --early: no 15 s countdown), then TEST UNIT READY
 *                 (sg_turs) every 2 s until the drive is ready, not sg_format's own
 *                 fixed 60 s poll.
 *   sanitize      NVMe Sanitize (nvme sanitize --sanact=2 block erase, else 4 crypto erase,
 *                 as id-ctrl's SANICAP allows; refused up front where it lists neither; then
 *                 poll the sanitize log);
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
 * chosen from `hdparm -I`, by pure functions (purge_ata_id_parse, purge_ata_choose) that the
 * tests run on captured output; purge_plan.ran says which ran. The facts read the controller
 * (`nvme id-ctrl -o json`, `hdparm -I`: identify commands, nothing written), so a drive without
 * the method asked for is refused by purge_plan_make, before anything is written. hdparm exits
 * 0 when the drive aborts a security command, so its exit status is not trusted: the security
 * state is read back from `hdparm -I` after each step.
 *
 * Verification: around every purge of a block device, PURGE_VERIFY_SAMPLES blocks of 4 KiB
 * spread over the device (the first, the last and evenly between) are read with O_DIRECT before
 * and after. A method that must erase (NVMe format SES=1 and sanitize, ATA secure erase and
 * sanitize) fails when a sampled block that held data still holds it; the record (purge_verify)
 * says how many read zero. SCSI FORMAT UNIT need not erase (SBC: without FMTDATA the contents
 * are the drive's choice) and a discard need not either: their record says "not verified
 * erased" with what the samples showed. A sample is evidence, not proof: 64 blocks. */
#ifndef PTSBENCH_PURGE_H
#define PTSBENCH_PURGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

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

/* What purge_plan needs to know about the device (collected by purge_facts, or by a test). */
struct purge_facts {
    enum purge_transport transport;
    bool supports_discard;          /* block: queue/discard_max_bytes > 0; file: punch hole */
    bool have_nvme_cli, have_hdparm, have_sg_format;   /* tools found in PATH */
    bool hdparm_sanitize;           /* ATA: `hdparm -h` lists --sanitize-block-erase,
                                     * -crypto-scramble, -overwrite and -status */
    bool hdparm_ow_passes;          /* ... and --sanitize-overwrite-passes (hdparm 9.63 on) */
    bool have_sg_turs;              /* sg_turs (sg3_utils), to poll a SCSI format */
    bool have_ata_id;               /* ATA: `hdparm -I` was read into ata_id */
    struct purge_ata_id ata_id;
    unsigned nsid;                  /* NVMe: the namespace id (sysfs nsid; 0 unknown) */
    int nvme_namespaces;            /* NVMe: namespaces beside it on its controller or head,
                                     * itself included (0 unknown) */
    bool have_nvme_id;              /* NVMe: `nvme id-ctrl -o json` was read: */
    int nvme_sanicap, nvme_fna;     /*   its SANICAP and FNA */
    char devpath[256];              /* /dev/nvme0n1, /dev/sdb, ... */
};

/* What the samples read around a purge showed (purge.h's header: Verification). */
#define PURGE_VERIFY_SAMPLES 64
struct purge_verify {
    int samples;                    /* blocks read before and after (0: not sampled) */
    int zero;                       /* after the purge, all zero bytes */
    int unchanged;                  /* after the purge, the same non-zero bytes as before */
    bool erased;                    /* verified erased: every sample that held data changed */
    char note[200];                 /* in words: "verified zeroed: 64 of 64 ...", "not ..." */
};

/* One sample: a 4 KiB block's FNV-1a hash and whether it was all zero bytes. */
struct purge_sample {
    uint64_t hash;
    bool zero;
};

/* Judge n samples read before and after a purge into v. must_erase: the method must erase the
 * user data (NVMe format SES=1, sanitize, ATA secure erase); what: it in words, for the note.
 * -1 with a message naming dev when must_erase and a sample that held data still holds it.
 * Pure. */
int purge_verify_judge(const struct purge_sample *before, const struct purge_sample *after,
                       int n, bool must_erase, const char *what, const char *dev,
                       struct purge_verify *v, char *err, size_t errlen);

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
    struct purge_verify verify;     /* set by purge_execute on block devices */
};

const char *purge_method_name(enum purge_method m);      /* "secure-erase", ... */
int purge_method_parse(const char *text, enum purge_method *out);   /* 0 or -1 */

/* Read the facts for a target: sysfs, PATH; for an ATA disk with hdparm, `hdparm -h` (its
 * sanitize options) and `hdparm -I DEV`; for an NVMe namespace with nvme-cli, `nvme id-ctrl DEV
 * -o json`. Identify commands only: nothing is written to the device. */
void purge_facts_collect(const struct target_info *t, struct purge_facts *out);

/* Decide. Returns 0, or -1 with a message when the requested method cannot apply to this
 * device (e.g. --purge format on a file, --purge secure-erase without hdparm on an ATA disk,
 * --purge sanitize on an ATA disk with an hdparm that has no --sanitize-* options). Pure. */
/* With the controller's identify data in the facts, also when the drive lacks the method:
 * NVMe sanitize without block or crypto erase in SANICAP, NVMe format of one namespace where
 * FNA makes it reach the others, ATA secure erase without the security feature set (or frozen,
 * locked), ATA sanitize without the feature set. */
int purge_plan_make(const struct purge_facts *f, enum purge_method requested,
                    struct purge_plan *out, char *err, size_t errlen);

/* Execute the plan on the target (needs --destructive for block devices; callers check).
 * fd: the target opened for writing (discard uses it; the tools get the path). For simulated
 * targets the model's secure erase runs (sim_purge). Fills p->ran (and, for ATA, rewrites
 * p->argv_text with the commands chosen); a plan runs once: make a new one for each purge.
 * Returns 0 or -1 with a message. */
int purge_execute(struct purge_plan *p, struct target_info *t, int fd, char *err, size_t errlen);

/* ---- ATA helpers: pure, so the tests run them on captured hdparm output ------------------ */

/* `hdparm -I` output into out (struct purge_ata_id above). */
void purge_ata_id_parse(const char *hdparm_I, struct purge_ata_id *out);

/* What `nvme id-ctrl DEV -o json` says: SANICAP and FNA. 0, or -1 when the text is not a JSON
 * object holding both. Pure. */
int purge_nvme_id_parse(const char *json, int *sanicap, int *fna);

/* The namespaces beside the one whose sysfs directory is `disk` (/sys/devices/.../nvme0/nvme0n2):
 * the entries of its parent (the controller, or the subsystem for a multipath head) that are
 * block devices (a queue) with an nsid attribute, itself included; the generic char nodes
 * (ng0n2) have an nsid but no queue. 0 when the parent cannot be read. */
int purge_nvme_namespaces(const char *disk);

/* From `hdparm -h` (its usage text): sets f->hdparm_sanitize and f->hdparm_ow_passes. */
void purge_hdparm_caps(const char *help, struct purge_facts *f);

/* Command lists: up to 3 commands of up to 8 words, NULL-terminated; the strings are literals,
 * point into the facts (devpath) or into the list's own `word` (a list lives no longer than
 * its facts, and is not copied). */
#define PURGE_MAX_CMDS 3
#define PURGE_MAX_ARGS 8
struct purge_cmds {
    int n;
    const char *argv[PURGE_MAX_CMDS][PURGE_MAX_ARGS + 1];
    const char *variant;            /* what they are (becomes purge_plan.ran) */
    char word[32];                  /* a built word ("--namespace-id=2") */
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

/* After an ATA security step (set the password: erased false; the erase: true), the state
 * `hdparm -I` reads back: security "enabled" after the password, "not enabled" after the
 * erase. -1 with a message naming dev otherwise (hdparm exits 0 when the drive aborts). Pure. */
int purge_ata_check_step(const struct purge_ata_id *id, bool erased, const char *dev,
                         char *err, size_t errlen);

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
