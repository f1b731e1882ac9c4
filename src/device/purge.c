/* purge.c — see purge.h.
 *
 * Three steps: purge_facts_collect() reads sysfs and PATH (no I/O to the device),
 * purge_plan_make() decides (pure), purge_execute() runs it.  The commands live in one place,
 * pg_commands() and the ATA builders it shares with purge_ata_choose(), which build the
 * argument vectors from the facts; the plan records them as text and execution rebuilds them
 * from freshly collected facts, so what runs is what was recorded (for ATA, with the variant
 * `hdparm -I` allows, and the record rewritten to say so).
 *
 * Departures and choices:
 *   - A partition is classified OTHER_BLOCK whatever disk holds it: format, sanitize and secure
 *     erase act on the whole disk (or namespace), so the only purge that stays inside a
 *     partition is a discard of its range.
 *   - ATA secure erase and sanitize first read `hdparm -I`; the variant is chosen from it at
 *     execute time (purge_ata_choose), so the plan's argv_text names the preferred variant and
 *     its fallback, and purge_execute rewrites it with what it chose. Secure erase refuses a
 *     frozen or locked drive (or one without the security feature set); when the erase fails
 *     after the password was set, the password is removed again (--security-disable) so the
 *     drive is not left locked at the next power cycle.
 *   - hdparm asks for --yes-i-know-what-i-am-doing before a sanitize that destroys data; we pass
 *     it (the caller has --destructive). hdparm's overwrite PATTERN is "hex:" and 8 digits.
 *   - hdparm gained --sanitize-* around 9.50 (its changelog first mentions them there) and
 *     --sanitize-overwrite-passes in 9.63; which of them this hdparm has is read from `hdparm
 *     -h` at facts time (it touches no device), not from its version number.
 *   - Sanitize and a SCSI format are polled every PG_POLL_S, up to PG_POLL_MAX_S: NVMe through
 *     `nvme sanitize-log` (SSTAT bits 2:0; 2 = in progress), ATA through `hdparm
 *     --sanitize-status` (SD2 = in progress; SD0 with "Completed Without Error" = done), SCSI
 *     through `sg_turs` (exit 0 ready; 2 not ready, i.e. formatting; 6 unit attention: again).
 *     sg_format's own wait sleeps 60 s before its first TEST UNIT READY, and without --quick
 *     it counts down 15 s first; --early makes it return once the FORMAT UNIT (IMMED) is
 *     accepted.
 *   - Discard on a simulated drive TRIMs its whole range (not compliant, like discard on a real
 *     drive); every other method on a simulated drive is the model's own secure erase. */
#include "device/purge.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <json-c/json.h>
#include <limits.h>
#include <linux/falloc.h>
#include <linux/fs.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "lib/spawn.h"
#include "lib/util.h"
#include "sim/sim.h"

#define PG_POLL_MAX_S (24 * 3600)
#define PG_POLL_S 2
#define PG_SANICAP_CES 0x1             /* id-ctrl SANICAP: crypto erase supported */
#define PG_SANICAP_BES 0x2             /* ... block erase supported */
#define PG_SAMPLE_BYTES 4096u           /* one verification sample (O_DIRECT: 4 KiB aligned) */
#define PG_ATA_PASSWORD "ptsbench"
#define PG_SIM_TRIM_CHUNK (64u << 20)   /* bytes per simulated TRIM command */

/* ---- names ---------------------------------------------------------------------------- */

static const char *const pg_names[] = {
    [PURGE_AUTO] = "auto",
    [PURGE_SECURE_ERASE] = "secure-erase",
    [PURGE_FORMAT] = "format",
    [PURGE_SANITIZE] = "sanitize",
    [PURGE_DISCARD] = "discard",
    [PURGE_NONE] = "none",
};

const char *purge_method_name(enum purge_method m)
{
    if ((unsigned)m < sizeof(pg_names) / sizeof(pg_names[0]) && pg_names[m])
        return pg_names[m];
    return "unknown";
}

int purge_method_parse(const char *text, enum purge_method *out)
{
    if (!text)
        return -1;
    for (unsigned i = 0; i < sizeof(pg_names) / sizeof(pg_names[0]); i++) {
        if (pg_names[i] && strcmp(text, pg_names[i]) == 0) {
            *out = (enum purge_method)i;
            return 0;
        }
    }
    return -1;
}

/* ---- facts ---------------------------------------------------------------------------- */

static bool pg_read_attr(const char *dir, const char *name, char *buf, size_t len)
{
    char p[PATH_MAX + 64];
    snprintf(p, sizeof(p), "%s/%s", dir, name);
    return read_text_file(p, buf, len) >= 0;
}

static bool pg_exists(const char *dir, const char *name)
{
    char p[PATH_MAX + 64];
    snprintf(p, sizeof(p), "%s/%s", dir, name);
    return access(p, F_OK) == 0;
}

/* An executable regular file `name` in one of $PATH's directories. */
static bool pg_in_path(const char *name)
{
    const char *path = getenv("PATH");
    if (!path || !*path)
        path = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";
    const char *s = path;
    for (;;) {
        const char *e = strchr(s, ':');
        size_t n = e ? (size_t)(e - s) : strlen(s);
        char p[PATH_MAX];
        if (n == 0)
            snprintf(p, sizeof(p), "./%s", name);        /* empty entry: the current dir */
        else
            snprintf(p, sizeof(p), "%.*s/%s", (int)n, s, name);
        struct stat st;
        if (stat(p, &st) == 0 && S_ISREG(st.st_mode) && access(p, X_OK) == 0)
            return true;
        if (!e)
            return false;
        s = e + 1;
    }
}

/* "/ata" followed by a digit somewhere in a sysfs device path (libata host). */
static bool pg_path_has_ata(const char *p)
{
    for (const char *s = strstr(p, "/ata"); s; s = strstr(s + 1, "/ata"))
        if (s[4] >= '0' && s[4] <= '9')
            return true;
    return false;
}

/* Transport of the whole disk whose sysfs directory is `disk` (realpath). */
static enum purge_transport pg_disk_transport(const char *disk)
{
    const char *name = strrchr(disk, '/');
    name = name ? name + 1 : disk;
    if (strncmp(name, "nvme", 4) == 0)
        return PURGE_T_NVME;
    static const char *const virt[] = {"zram", "loop", "ram", "dm-", "md", "nbd", "vd", "xvd",
                                       "rbd", "pmem", "mmcblk", NULL};
    for (int i = 0; virt[i]; i++)
        if (strncmp(name, virt[i], strlen(virt[i])) == 0)
            return PURGE_T_OTHER_BLOCK;

    char dev[PATH_MAX + 16], real[PATH_MAX], vendor[64] = "";
    snprintf(dev, sizeof(dev), "%s/device", disk);
    if (!realpath(dev, real))
        return PURGE_T_OTHER_BLOCK;
    pg_read_attr(dev, "vendor", vendor, sizeof(vendor));
    if (strcmp(str_trim(vendor), "ATA") == 0 || pg_path_has_ata(real))
        return PURGE_T_ATA;
    if (pg_exists(dev, "scsi_disk") || pg_exists(dev, "scsi_device") ||
        pg_exists(dev, "scsi_level"))
        return PURGE_T_SCSI;
    return PURGE_T_OTHER_BLOCK;
}

/* Text holds `word` delimited by blanks (or the text's ends): "--sanitize-overwrite" is not
 * found in "--sanitize-overwrite-passes". */
static bool pg_has_word(const char *text, const char *word)
{
    size_t n = strlen(word);
    for (const char *s = text ? strstr(text, word) : NULL; s; s = strstr(s + 1, word)) {
        bool start = s == text || s[-1] == ' ' || s[-1] == '\t' || s[-1] == '\n';
        char after = s[n];
        if (start && (after == '\0' || after == ' ' || after == '\t' || after == '\n'))
            return true;
    }
    return false;
}

void purge_hdparm_caps(const char *help, struct purge_facts *f)
{
    static const char *const sanitize[] = {"--sanitize-block-erase", "--sanitize-crypto-scramble",
                                           "--sanitize-overwrite", "--sanitize-status", NULL};
    f->hdparm_sanitize = help != NULL;
    for (int i = 0; sanitize[i] && f->hdparm_sanitize; i++)
        f->hdparm_sanitize = pg_has_word(help, sanitize[i]);
    f->hdparm_ow_passes = f->hdparm_sanitize && pg_has_word(help, "--sanitize-overwrite-passes");
}

/* `hdparm -h` prints its options (stdout, exit 0; some builds use stderr). No device named. */
static void pg_hdparm_caps(struct purge_facts *f)
{
    char *const argv[] = {"hdparm", "-h", NULL};
    struct spawn_result r;
    if (spawn_run(argv, &r) != 0)
        return;
    purge_hdparm_caps(r.out, f);
    if (!f->hdparm_sanitize)
        purge_hdparm_caps(r.err, f);
    spawn_result_free(&r);
}

/* `hdparm -I DEV` (IDENTIFY DEVICE) into f->ata_id; have_ata_id stays false without its text.
 * Its exit status is not the test: on libata it complains "SG_IO: bad/missing sense data" and
 * prints the identify data all the same. */
static void pg_ata_identify(struct purge_facts *f)
{
    char *const argv[] = {"hdparm", "-I", f->devpath, NULL};
    struct spawn_result r;
    if (spawn_run(argv, &r) != 0)
        return;
    if (r.out && strstr(r.out, "ATA device")) {
        purge_ata_id_parse(r.out, &f->ata_id);
        f->have_ata_id = true;
    }
    spawn_result_free(&r);
}

int purge_nvme_id_parse(const char *json, int *sanicap, int *fna)
{
    struct json_object *o = json ? json_tokener_parse(json) : NULL, *v;
    int rc = -1;
    if (o && json_object_is_type(o, json_type_object) &&
        json_object_object_get_ex(o, "sanicap", &v) && json_object_is_type(v, json_type_int)) {
        *sanicap = json_object_get_int(v);
        if (json_object_object_get_ex(o, "fna", &v) && json_object_is_type(v, json_type_int)) {
            *fna = json_object_get_int(v);
            rc = 0;
        }
    }
    json_object_put(o);
    return rc;
}

int purge_nvme_namespaces(const char *disk)
{
    char parent[PATH_MAX];
    str_copy(parent, sizeof(parent), disk);
    char *slash = strrchr(parent, '/');
    if (!slash || slash == parent)
        return 0;
    *slash = '\0';
    DIR *d = opendir(parent);
    if (!d)
        return 0;
    int n = 0;
    for (struct dirent *e; (e = readdir(d));) {
        char p[PATH_MAX + 300];
        snprintf(p, sizeof(p), "%s/%s", parent, e->d_name);
        if (e->d_name[0] != '.' && pg_exists(p, "nsid") && pg_exists(p, "queue"))
            n++;
    }
    closedir(d);
    return n;
}

/* NVMe: the namespace id and its neighbours (sysfs), SANICAP and FNA (`nvme id-ctrl`). */
static void pg_nvme_facts(const char *disk, struct purge_facts *f)
{
    char buf[32];
    if (pg_read_attr(disk, "nsid", buf, sizeof(buf)))
        f->nsid = (unsigned)strtoul(buf, NULL, 10);
    f->nvme_namespaces = purge_nvme_namespaces(disk);
    if (!f->have_nvme_cli)
        return;
    char *const argv[] = {"nvme", "id-ctrl", f->devpath, "-o", "json", NULL};
    struct spawn_result r;
    if (spawn_run(argv, &r) != 0)
        return;
    if (r.status == 0 && purge_nvme_id_parse(r.out, &f->nvme_sanicap, &f->nvme_fna) == 0)
        f->have_nvme_id = true;
    spawn_result_free(&r);
}

void purge_facts_collect(const struct target_info *t, struct purge_facts *out)
{
    memset(out, 0, sizeof(*out));
    str_copy(out->devpath, sizeof(out->devpath), t->path);
    out->have_nvme_cli = pg_in_path("nvme");
    out->have_hdparm = pg_in_path("hdparm");
    out->have_sg_format = pg_in_path("sg_format");
    out->have_sg_turs = pg_in_path("sg_turs");

    switch (t->kind) {
    case TARGET_SIM:
        out->transport = PURGE_T_SIM;
        out->supports_discard = true;      /* the model's TRIM */
        return;
    case TARGET_FILE:
        out->transport = PURGE_T_FILE;
        out->supports_discard = true;      /* fallocate PUNCH_HOLE; EOPNOTSUPP reported at run */
        return;
    case TARGET_BLOCK:
        break;
    default:
        out->transport = PURGE_T_UNKNOWN;
        return;
    }

    /* The canonical node /dev/NAME when it is this device (tools get a stable name). */
    if (t->devname[0]) {
        char node[sizeof(out->devpath)];
        struct stat st;
        snprintf(node, sizeof(node), "/dev/%s", t->devname);
        if (stat(node, &st) == 0 && S_ISBLK(st.st_mode) && st.st_rdev == t->rdev)
            str_copy(out->devpath, sizeof(out->devpath), node);
    }

    char link[64], self[PATH_MAX], disk[PATH_MAX];
    snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", major(t->rdev), minor(t->rdev));
    if (!realpath(link, self)) {
        /* No sysfs entry by number: try the name. */
        char byname[PATH_MAX];
        snprintf(byname, sizeof(byname), "/sys/class/block/%s", t->devname);
        if (!t->devname[0] || !realpath(byname, self)) {
            out->transport = PURGE_T_UNKNOWN;
            return;
        }
    }
    str_copy(disk, sizeof(disk), self);
    bool partition = pg_exists(self, "partition");
    if (partition) {
        char *slash = strrchr(disk, '/');
        if (slash && slash != disk)
            *slash = '\0';
    }
    out->transport = partition ? PURGE_T_OTHER_BLOCK : pg_disk_transport(disk);
    if (out->transport == PURGE_T_ATA && out->have_hdparm) {
        pg_hdparm_caps(out);
        pg_ata_identify(out);
    }
    if (out->transport == PURGE_T_NVME)
        pg_nvme_facts(disk, out);

    char q[PATH_MAX + 16], buf[64];
    snprintf(q, sizeof(q), "%s/queue", disk);
    out->supports_discard = pg_read_attr(q, "discard_max_bytes", buf, sizeof(buf)) &&
                            strtoull(buf, NULL, 10) > 0;
}

/* ---- commands ------------------------------------------------------------------------- */

/* What purge_plan.ran says for the variants that are not chosen from `hdparm -I`. */
#define PG_V_NVME_FORMAT "NVMe format (SES=1)"
#define PG_V_NVME_SANITIZE "NVMe sanitize block erase"
#define PG_V_NVME_CRYPTO "NVMe sanitize crypto erase (block erase not supported)"
#define PG_V_SCSI_FORMAT "SCSI format unit"
#define PG_V_SIM_ERASE "simulated drive secure erase"

static void pg_add(struct purge_cmds *c, const char *const *words)
{
    int i = 0;
    for (; words[i] && i < PURGE_MAX_ARGS; i++)
        c->argv[c->n][i] = words[i];
    c->argv[c->n][i] = NULL;
    c->n++;
}

/* ATA SECURITY ERASE UNIT: set the user password, then erase with it (enhanced or normal). */
static void pg_ata_erase_cmds(struct purge_cmds *c, const char *dev, bool enhanced)
{
    pg_add(c, (const char *const[]){"hdparm", "--user-master", "u", "--security-set-pass",
                                    PG_ATA_PASSWORD, dev, NULL});
    pg_add(c, (const char *const[]){"hdparm", "--user-master", "u",
                                    enhanced ? "--security-erase-enhanced" : "--security-erase",
                                    PG_ATA_PASSWORD, dev, NULL});
    c->variant = enhanced ? "ATA enhanced security erase"
                          : "ATA security erase (normal; enhanced not supported)";
}

/* The ATA SANITIZE actions, in order of preference (see purge.h for why). */
static const struct pg_ata_sanact {
    size_t have;                    /* offsetof the bool in struct purge_ata_id */
    const char *flag;               /* hdparm's option */
    const char *variant;
    const char *variant_16;         /* overwrite without --sanitize-overwrite-passes */
} pg_sanacts[] = {
    {offsetof(struct purge_ata_id, block_erase), "--sanitize-block-erase",
     "ATA sanitize block erase", NULL},
    {offsetof(struct purge_ata_id, crypto_scramble), "--sanitize-crypto-scramble",
     "ATA sanitize crypto scramble (block erase not supported)", NULL},
    {offsetof(struct purge_ata_id, overwrite), "--sanitize-overwrite",
     "ATA sanitize overwrite, 1 pass (neither block erase nor crypto scramble supported)",
     "ATA sanitize overwrite, 16 passes (neither block erase nor crypto scramble supported; "
     "this hdparm has no --sanitize-overwrite-passes)"},
};
#define PG_N_SANACTS (sizeof(pg_sanacts) / sizeof(pg_sanacts[0]))

/* ATA SANITIZE: start action a (it runs in the background), then the status command to poll. */
static void pg_ata_sanitize_cmds(struct purge_cmds *c, const struct purge_facts *f,
                                 const struct pg_ata_sanact *a)
{
    const char *dev = f->devpath;
    if (!a->variant_16) {
        pg_add(c, (const char *const[]){"hdparm", "--yes-i-know-what-i-am-doing", a->flag, dev,
                                        NULL});
        c->variant = a->variant;
    } else if (f->hdparm_ow_passes) {
        pg_add(c, (const char *const[]){"hdparm", "--yes-i-know-what-i-am-doing",
                                        "--sanitize-overwrite-passes", "1", a->flag,
                                        "hex:00000000", dev, NULL});
        c->variant = a->variant;
    } else {
        pg_add(c, (const char *const[]){"hdparm", "--yes-i-know-what-i-am-doing", a->flag,
                                        "hex:00000000", dev, NULL});
        c->variant = a->variant_16;
    }
    pg_add(c, (const char *const[]){"hdparm", "--sanitize-status", dev, NULL});
}

/* The planned tool commands of a method on a transport (none for sim, discard and none). For
 * ATA: `hdparm -I`, then the preferred variant; purge_ata_choose may pick another. */
static void pg_commands(const struct purge_facts *f, enum purge_method m, struct purge_cmds *c)
{
    memset(c, 0, sizeof(*c));
    const char *dev = f->devpath;
    if (f->transport == PURGE_T_ATA && (m == PURGE_SECURE_ERASE || m == PURGE_SANITIZE)) {
        pg_add(c, (const char *const[]){"hdparm", "-I", dev, NULL});
        if (m == PURGE_SECURE_ERASE)
            pg_ata_erase_cmds(c, dev, true);
        else
            pg_ata_sanitize_cmds(c, f, &pg_sanacts[0]);
    } else if (m == PURGE_FORMAT && f->transport == PURGE_T_NVME) {
        snprintf(c->word, sizeof(c->word), "--namespace-id=%u", f->nsid);
        if (f->nsid)
            pg_add(c, (const char *const[]){"nvme", "format", dev, c->word, "--ses=1",
                                            "--force", NULL});
        else
            pg_add(c, (const char *const[]){"nvme", "format", dev, "--ses=1", "--force", NULL});
        c->variant = PG_V_NVME_FORMAT;
    } else if (m == PURGE_FORMAT && f->transport == PURGE_T_SCSI) {
        /* --quick: no 15 s countdown; --early: back once the FORMAT UNIT (IMMED) is accepted;
         * then TEST UNIT READY, polled (sg_format's own poll sleeps 60 s first) */
        pg_add(c, (const char *const[]){"sg_format", "--format", "--quick", "--early", dev,
                                        NULL});
        pg_add(c, (const char *const[]){"sg_turs", dev, NULL});
        c->variant = PG_V_SCSI_FORMAT;
    } else if (m == PURGE_SANITIZE && f->transport == PURGE_T_NVME) {
        bool crypto = f->have_nvme_id && !(f->nvme_sanicap & PG_SANICAP_BES) &&
                      (f->nvme_sanicap & PG_SANICAP_CES);
        pg_add(c, (const char *const[]){"nvme", "sanitize", dev,
                                        crypto ? "--sanact=4" : "--sanact=2", NULL});
        pg_add(c, (const char *const[]){"nvme", "sanitize-log", dev, NULL});
        c->variant = crypto ? PG_V_NVME_CRYPTO : PG_V_NVME_SANITIZE;
    }
}

/* What the plan's text adds after the commands. */
static const char *pg_note(const struct purge_facts *f, enum purge_method m)
{
    if (m == PURGE_SANITIZE && f->transport == PURGE_T_ATA)
        return " (polled until done; --sanitize-crypto-scramble, else --sanitize-overwrite, "
               "where hdparm -I does not list BLOCK_ERASE_EXT)";
    if (m == PURGE_SECURE_ERASE && f->transport == PURGE_T_ATA)
        return " (--security-erase where hdparm -I does not list enhanced erase)";
    if (m == PURGE_SANITIZE)
        return " (polled until done)";
    if (m == PURGE_FORMAT && f->transport == PURGE_T_SCSI)
        return " (polled until ready)";
    return NULL;
}

static void pg_join(const struct purge_cmds *c, char *buf, size_t len, const char *note)
{
    size_t at = 0;
    buf[0] = '\0';
    for (int i = 0; i < c->n; i++) {
        for (int j = 0; c->argv[i][j]; j++) {
            const char *sep = j ? " " : i ? "; " : "";
            int w = snprintf(buf + at, len - at, "%s%s", sep, c->argv[i][j]);
            if (w < 0 || (size_t)w >= len - at)
                return;
            at += (size_t)w;
        }
        if (note && i == c->n - 1)
            snprintf(buf + at, len - at, "%s", note);
    }
}

/* ---- plan ----------------------------------------------------------------------------- */

static int pg_ata_pick(const struct purge_facts *f, enum purge_method m,
                       const struct purge_ata_id *id, struct purge_cmds *out, char *err,
                       size_t errlen);

/* What the drive's identify data (when the facts have it) says against method m: -1 with the
 * message, else 0. */
static int pg_drive_refuses(const struct purge_facts *f, enum purge_method m, char *err,
                            size_t errlen)
{
    const char *dev = f->devpath;
    if (f->transport == PURGE_T_NVME && f->have_nvme_id) {
        if (m == PURGE_SANITIZE && !(f->nvme_sanicap & (PG_SANICAP_BES | PG_SANICAP_CES)))
            return errf(err, errlen, "--purge sanitize: %s: the controller supports neither "
                        "sanitize block erase nor crypto erase (id-ctrl SANICAP 0x%x%s; try "
                        "format)", dev, (unsigned)f->nvme_sanicap,
                        f->nvme_sanicap ? "" : ": no Sanitize command at all");
        /* FNA bit 0: a format reaches every namespace; bit 1: so does a secure erase */
        if (m == PURGE_FORMAT && (f->nvme_fna & 0x3) && f->nvme_namespaces > 1)
            return errf(err, errlen, "--purge format: %s: on this controller a format with "
                        "secure erase reaches all %d namespaces, not only this one (id-ctrl FNA "
                        "0x%x); refused (try discard)", dev, f->nvme_namespaces,
                        (unsigned)f->nvme_fna);
    }
    if (f->transport == PURGE_T_ATA && f->have_ata_id &&
        (m == PURGE_SECURE_ERASE || m == PURGE_SANITIZE)) {
        struct purge_cmds c;
        return pg_ata_pick(f, m, &f->ata_id, &c, err, errlen);
    }
    return 0;
}

static const char *pg_transport_name(enum purge_transport t)
{
    switch (t) {
    case PURGE_T_NVME: return "NVMe";
    case PURGE_T_ATA: return "ATA";
    case PURGE_T_SCSI: return "SCSI";
    case PURGE_T_SIM: return "simulated";
    case PURGE_T_FILE: return "a regular file";
    case PURGE_T_OTHER_BLOCK: return "a block device without a purge command";
    default: return "of unknown transport";
    }
}

static void pg_set_discard(const struct purge_facts *f, struct purge_plan *out)
{
    out->method = PURGE_DISCARD;
    out->compliant = false;
    if (f->transport == PURGE_T_FILE)
        str_copy(out->argv_text, sizeof(out->argv_text), "fallocate PUNCH_HOLE|KEEP_SIZE");
    else if (f->transport == PURGE_T_SIM)
        str_copy(out->argv_text, sizeof(out->argv_text), "simulated TRIM 0..capacity");
    else
        str_copy(out->argv_text, sizeof(out->argv_text), "BLKDISCARD 0..capacity");
}

static void pg_set_tools(const struct purge_facts *f, enum purge_method m,
                         struct purge_plan *out)
{
    struct purge_cmds c;
    pg_commands(f, m, &c);
    out->method = m;
    out->compliant = true;
    pg_join(&c, out->argv_text, sizeof(out->argv_text), pg_note(f, m));
}

/* The tool a (transport, method) pair needs and whether the facts have it. */
static bool pg_have_tool(const struct purge_facts *f, enum purge_method m, const char **tool)
{
    if (f->transport == PURGE_T_ATA) {
        *tool = "hdparm";
        return f->have_hdparm;
    }
    if (f->transport == PURGE_T_SCSI) {
        *tool = "sg_format or sg_turs (sg3_utils)";
        return f->have_sg_format && f->have_sg_turs;
    }
    (void)m;
    *tool = "nvme (nvme-cli)";
    return f->have_nvme_cli;
}

static int pg_auto(const struct purge_facts *f, struct purge_plan *out)
{
    enum purge_method m = PURGE_NONE;
    switch (f->transport) {
    case PURGE_T_SIM:
        out->method = PURGE_SECURE_ERASE;
        out->compliant = true;
        str_copy(out->argv_text, sizeof(out->argv_text), "simulated secure erase");
        str_copy(out->reason, sizeof(out->reason),
                 "auto: simulated drive, its own secure erase (back to fresh-out-of-box)");
        return 0;
    case PURGE_T_NVME: m = PURGE_FORMAT; break;
    case PURGE_T_ATA: m = PURGE_SECURE_ERASE; break;
    case PURGE_T_SCSI: m = PURGE_FORMAT; break;
    default: break;
    }
    const char *tool = "";
    char why[200], refused[200] = "";
    if (m != PURGE_NONE && pg_have_tool(f, m, &tool) &&
        pg_drive_refuses(f, m, refused, sizeof(refused)) == 0) {
        pg_set_tools(f, m, out);
        snprintf(out->reason, sizeof(out->reason), "auto: %s is %s, %s", f->devpath,
                 pg_transport_name(f->transport), purge_method_name(m));
        return 0;
    }
    const char *colon = strstr(refused, ": ");   /* after "--purge M: " */
    if (colon)
        snprintf(why, sizeof(why), "%s", colon + 2);
    else if (m != PURGE_NONE)
        snprintf(why, sizeof(why), "%s is %s but %s is not in PATH", f->devpath,
                 pg_transport_name(f->transport), tool);
    else
        snprintf(why, sizeof(why), "%s is %s", f->devpath, pg_transport_name(f->transport));
    if (f->supports_discard) {
        pg_set_discard(f, out);
        snprintf(out->reason, sizeof(out->reason),
                 "auto: %s; discard instead (not a SNIA purge)", why);
    } else {
        out->method = PURGE_NONE;
        out->compliant = false;
        str_copy(out->argv_text, sizeof(out->argv_text), "none");
        snprintf(out->reason, sizeof(out->reason),
                 "auto: %s and does not support discard; no purge (the report says so)", why);
    }
    return 0;
}

int purge_plan_make(const struct purge_facts *f, enum purge_method requested,
                    struct purge_plan *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof(*out));
    const char *name = purge_method_name(requested);
    const char *dev = f->devpath[0] ? f->devpath : "the target";

    switch (requested) {
    case PURGE_AUTO:
        return pg_auto(f, out);

    case PURGE_NONE:
        out->method = PURGE_NONE;
        out->compliant = false;
        str_copy(out->argv_text, sizeof(out->argv_text), "none");
        str_copy(out->reason, sizeof(out->reason),
                 "requested: no purge (the test runs from the drive's current state)");
        return 0;

    case PURGE_DISCARD:
        if (!f->supports_discard) {
            if (f->transport == PURGE_T_FILE || f->transport == PURGE_T_SIM)
                return errf(err, errlen, "--purge discard: %s does not support discard", dev);
            return errf(err, errlen,
                        "--purge discard: %s does not support discard "
                        "(queue/discard_max_bytes is 0; try --purge none)", dev);
        }
        pg_set_discard(f, out);
        snprintf(out->reason, sizeof(out->reason),
                 "requested: discard of the whole %s (not a SNIA purge)",
                 f->transport == PURGE_T_FILE ? "file" : "device");
        return 0;

    case PURGE_SECURE_ERASE:
    case PURGE_FORMAT:
    case PURGE_SANITIZE:
        break;

    default:
        return errf(err, errlen, "--purge: unknown method %d", (int)requested);
    }

    if (f->transport == PURGE_T_SIM) {
        out->method = requested;
        out->compliant = true;
        str_copy(out->argv_text, sizeof(out->argv_text), "simulated secure erase");
        snprintf(out->reason, sizeof(out->reason),
                 "requested: %s; a simulated drive runs its own secure erase", name);
        return 0;
    }

    /* Which transports each method applies to, and what to suggest otherwise. */
    bool applies;
    const char *what;
    switch (requested) {
    case PURGE_SECURE_ERASE:
        applies = f->transport == PURGE_T_ATA;
        what = "not ATA";
        break;
    case PURGE_FORMAT:
        applies = f->transport == PURGE_T_NVME || f->transport == PURGE_T_SCSI;
        what = "neither NVMe nor SCSI";
        break;
    default:   /* sanitize */
        applies = f->transport == PURGE_T_NVME || f->transport == PURGE_T_ATA;
        what = "neither NVMe nor ATA";
        break;
    }
    if (!applies) {
        const char *hint;
        if (f->transport == PURGE_T_NVME)
            hint = "try format or sanitize";
        else if (f->transport == PURGE_T_ATA)
            hint = f->hdparm_sanitize ? "try secure-erase or sanitize" : "try secure-erase";
        else if (f->transport == PURGE_T_SCSI)
            hint = "try format";
        else if (f->supports_discard)
            hint = "try discard";
        else
            hint = "try none";
        if (f->transport == PURGE_T_FILE)
            return errf(err, errlen, "--purge %s: %s is a regular file, not a drive (%s)", name,
                        dev, hint);
        return errf(err, errlen, "--purge %s: %s is %s (%s)", name, dev, what, hint);
    }
    const char *tool = "";
    if (!pg_have_tool(f, requested, &tool))
        return errf(err, errlen, "--purge %s: %s is %s but %s is not in PATH (install it, or "
                    "try discard)", name, dev, pg_transport_name(f->transport), tool);
    if (requested == PURGE_SANITIZE && f->transport == PURGE_T_ATA && !f->hdparm_sanitize)
        return errf(err, errlen, "--purge sanitize: %s is ATA but this hdparm has no "
                    "--sanitize-* options (`hdparm -h` does not list --sanitize-block-erase; "
                    "a newer hdparm has them, or try secure-erase)", dev);
    if (pg_drive_refuses(f, requested, err, errlen) != 0)
        return -1;
    pg_set_tools(f, requested, out);
    snprintf(out->reason, sizeof(out->reason), "requested: %s on %s (%s)", name, dev,
             pg_transport_name(f->transport));
    return 0;
}

/* ---- hdparm -I, and the ATA choice ----------------------------------------------------- */

/* Collapse runs of blanks in a line into single spaces (hdparm -I uses tabs). */
static void pg_squeeze(const char *s, size_t n, char *buf, size_t len)
{
    size_t o = 0;
    bool space = true;   /* drop leading blanks */
    for (size_t i = 0; i < n && o + 1 < len; i++) {
        char ch = s[i] == '\t' || s[i] == '\r' ? ' ' : s[i];
        if (ch == ' ' && space)
            continue;
        space = ch == ' ';
        buf[o++] = ch;
    }
    while (o && buf[o - 1] == ' ')
        o--;
    buf[o] = '\0';
}

/* The line after the one that starts with `title` ("Security:"); NULL when there is none. */
static const char *pg_section(const char *text, const char *title)
{
    size_t tl = strlen(title);
    for (const char *s = text; s && *s;) {
        const char *e = strchr(s, '\n');
        if (strncmp(s, title, tl) == 0)
            return e ? e + 1 : s + strlen(s);
        s = e ? e + 1 : NULL;
    }
    return NULL;
}

/* The next line of a section (its lines are indented) squeezed into buf; false at its end. */
static bool pg_section_line(const char **at, char *buf, size_t len)
{
    const char *s = *at;
    if (!s || (*s != '\t' && *s != ' '))
        return false;
    const char *e = strchr(s, '\n');
    size_t n = e ? (size_t)(e - s) : strlen(s);
    pg_squeeze(s, n, buf, len);
    *at = e ? e + 1 : s + n;
    return true;
}

/* "word" -> 1, "not word" -> 0 into *v; false when the line is neither. */
static bool pg_tri(const char *line, const char *word, int *v)
{
    if (strcmp(line, word) == 0)
        *v = 1;
    else if (strncmp(line, "not ", 4) == 0 && strcmp(line + 4, word) == 0)
        *v = 0;
    else
        return false;
    return true;
}

void purge_ata_id_parse(const char *text, struct purge_ata_id *out)
{
    memset(out, 0, sizeof(*out));
    out->sec_supported = out->sec_enabled = out->sec_locked = out->sec_frozen = -1;
    out->enhanced_erase = -1;
    if (!text)
        return;
    char line[160];
    const char *s = pg_section(text, "Security:");
    out->security = s != NULL;
    while (pg_section_line(&s, line, sizeof(line))) {
        /* hdparm prints "(?) supported" when the drive's bit is ambiguous: stays -1 */
        if (!pg_tri(line, "supported", &out->sec_supported) &&
            !pg_tri(line, "enabled", &out->sec_enabled) &&
            !pg_tri(line, "locked", &out->sec_locked) &&
            !pg_tri(line, "frozen", &out->sec_frozen))
            pg_tri(line, "supported: enhanced erase", &out->enhanced_erase);
    }
    /* Commands/features: "   *  SANITIZE feature set" (every listed bit is supported) */
    static const struct { const char *name; size_t off; } feats[] = {
        {"SANITIZE feature set", offsetof(struct purge_ata_id, sanitize)},
        {"BLOCK_ERASE_EXT command", offsetof(struct purge_ata_id, block_erase)},
        {"CRYPTO_SCRAMBLE_EXT command", offsetof(struct purge_ata_id, crypto_scramble)},
        {"OVERWRITE_EXT command", offsetof(struct purge_ata_id, overwrite)},
    };
    s = pg_section(text, "Commands/features:");
    while (pg_section_line(&s, line, sizeof(line))) {
        const char *name = line[0] == '*' ? line + 1 + (line[1] == ' ') : line;
        for (size_t i = 0; i < sizeof(feats) / sizeof(feats[0]); i++)
            if (strcmp(name, feats[i].name) == 0)
                *(bool *)((char *)out + feats[i].off) = true;
    }
}

static int pg_ata_security_ok(const char *dev, const struct purge_ata_id *id, char *err,
                              size_t errlen)
{
    if (!id->security)
        return errf(err, errlen, "--purge secure-erase: hdparm -I %s reports no ATA security "
                    "feature set (try discard)", dev);
    if (id->sec_supported == 0)
        return errf(err, errlen, "--purge secure-erase: %s does not support the ATA security "
                    "feature set (try discard)", dev);
    if (id->sec_frozen != 0)
        return errf(err, errlen, "--purge secure-erase: %s is %s (the BIOS freezes ATA security "
                    "at boot; a suspend/resume cycle, e.g. `rtcwake -m mem -s 5`, or hot-"
                    "plugging the drive usually unfreezes it)", dev,
                    id->sec_frozen == 1 ? "security-frozen" : "not reported as \"not frozen\"");
    if (id->sec_locked == 1)
        return errf(err, errlen, "--purge secure-erase: %s is security-locked (a password is "
                    "set by someone else); unlock it first", dev);
    return 0;
}

/* The commands for m without the plan's `hdparm -I` (it has run). */
static int pg_ata_pick(const struct purge_facts *f, enum purge_method m,
                       const struct purge_ata_id *id, struct purge_cmds *out, char *err,
                       size_t errlen)
{
    const char *dev = f->devpath;
    if (m == PURGE_SECURE_ERASE) {
        if (pg_ata_security_ok(dev, id, err, errlen) != 0)
            return -1;
        pg_ata_erase_cmds(out, dev, id->enhanced_erase == 1);
        return 0;
    }
    if (m != PURGE_SANITIZE)
        return errf(err, errlen, "--purge %s: %s: not an ATA method", purge_method_name(m), dev);
    if (!f->hdparm_sanitize)
        return errf(err, errlen, "--purge sanitize: %s: this hdparm has no --sanitize-* options "
                    "(try secure-erase)", dev);
    if (!id->sanitize)
        return errf(err, errlen, "--purge sanitize: hdparm -I %s does not list the SANITIZE "
                    "feature set: the drive has no ATA SANITIZE (try %s)", dev,
                    id->security && id->sec_supported != 0 ? "secure-erase" : "discard");
    for (size_t i = 0; i < PG_N_SANACTS; i++) {
        if (*(const bool *)((const char *)id + pg_sanacts[i].have)) {
            pg_ata_sanitize_cmds(out, f, &pg_sanacts[i]);
            return 0;
        }
    }
    return errf(err, errlen, "--purge sanitize: hdparm -I %s lists the SANITIZE feature set but "
                "none of BLOCK_ERASE_EXT, CRYPTO_SCRAMBLE_EXT, OVERWRITE_EXT (try secure-erase)",
                dev);
}

int purge_ata_choose(struct purge_plan *p, const struct purge_facts *f,
                     const struct purge_ata_id *id, struct purge_cmds *out, char *err,
                     size_t errlen)
{
    memset(out, 0, sizeof(*out));
    if (pg_ata_pick(f, p->method, id, out, err, errlen) != 0) {
        memset(out, 0, sizeof(*out));
        return -1;
    }
    struct purge_cmds all = {.n = 0};
    pg_add(&all, (const char *const[]){"hdparm", "-I", f->devpath, NULL});
    for (int i = 0; i < out->n; i++)
        pg_add(&all, out->argv[i]);
    pg_join(&all, p->argv_text, sizeof(p->argv_text),
            p->method == PURGE_SANITIZE ? " (polled until done)" : NULL);
    str_copy(p->ran, sizeof(p->ran), out->variant);
    return 0;
}

/* The first "SDn" after "State:" in hdparm's sanitize status (-1 when there is none). */
static int pg_sd_state(const char *out)
{
    const char *s = out ? strstr(out, "State:") : NULL;
    if (!s)
        return -1;
    s += strlen("State:");
    while (*s == ' ' || *s == '\t')
        s++;
    return s[0] == 'S' && s[1] == 'D' && s[2] >= '0' && s[2] <= '9' ? s[2] - '0' : -1;
}

enum purge_sanitize_state purge_ata_sanitize_state(const char *out, const char *errout)
{
    /* hdparm reports a failed sanitize by failing SANITIZE STATUS with this reason */
    if (errout && (strstr(errout, "completed unsuccessfully") ||
                   strstr(errout, "Sanitize Operation Failed")))
        return PURGE_SAN_FAILED;
    switch (pg_sd_state(out)) {
    case 0:
        return strstr(out, "Completed Without Error") ? PURGE_SAN_DONE : PURGE_SAN_IDLE;
    case 1: return PURGE_SAN_FROZEN;
    case 2: return PURGE_SAN_RUNNING;
    case 3: return PURGE_SAN_FAILED;
    case 4: return PURGE_SAN_DONE;
    default: return PURGE_SAN_UNKNOWN;
    }
}

/* ---- execution ------------------------------------------------------------------------ */

/* First non-empty line of a tool's stderr, else of its stdout, into buf. */
static void pg_first_line(const struct spawn_result *r, char *buf, size_t len)
{
    const char *srcs[2] = {r->err, r->out};
    buf[0] = '\0';
    for (int i = 0; i < 2; i++) {
        const char *s = srcs[i];
        if (!s)
            continue;
        while (*s) {
            const char *e = strchr(s, '\n');
            size_t n = e ? (size_t)(e - s) : strlen(s);
            while (n && (*s == ' ' || *s == '\t')) {
                s++;
                n--;
            }
            while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
                n--;
            if (n) {
                snprintf(buf, len, "%.*s", (int)n, s);
                return;
            }
            if (!e)
                break;
            s = e + 1;
        }
    }
}

/* The message for a command that exited non-zero (or could not be run). hdparm puts the
 * reason for a failed SANITIZE on a later line ("SANITIZE device error reason: ..."). */
static int pg_failed(const char *method, const char *const *argv, const struct spawn_result *r,
                     char *err, size_t errlen)
{
    char line[200];
    pg_first_line(r, line, sizeof(line));
    const char *reason = r->err ? strstr(r->err, "error reason: ") : NULL;
    char why[120] = "";
    if (reason) {
        reason += strlen("error reason: ");
        snprintf(why, sizeof(why), " (%.*s)", (int)strcspn(reason, "\r\n"), reason);
    }
    char cmd[256] = "";
    size_t at = 0;
    for (int j = 0; argv[j] && at < sizeof(cmd); j++) {
        int w = snprintf(cmd + at, sizeof(cmd) - at, "%s%s", j ? " " : "", argv[j]);
        if (w < 0)
            break;
        at += (size_t)w;
    }
    if (r->status == 127 && !line[0])
        return errf(err, errlen, "--purge %s: `%s` could not be run (%s not found?)", method,
                    cmd, argv[0]);
    return errf(err, errlen, "--purge %s: `%s` failed (exit %d)%s%s%s", method, cmd, r->status,
                line[0] ? ": " : "", line, why);
}

/* Start one command and wait for it; r is filled whatever its exit status (caller frees). */
static int pg_spawn(const char *method, const char *const *argv, struct spawn_result *r,
                    char *err, size_t errlen)
{
    if (spawn_run((char *const *)argv, r) != 0)
        return errf(err, errlen, "--purge %s: cannot start %s: %s", method, argv[0],
                    strerror(errno));
    return 0;
}

/* Run one command; 0 when it exited 0. Fills r (caller frees) when keep is set. */
static int pg_run(const char *method, const char *const *argv, struct spawn_result *keep,
                  char *err, size_t errlen)
{
    struct spawn_result r;
    if (pg_spawn(method, argv, &r, err, errlen) != 0)
        return -1;
    int rc = r.status == 0 ? 0 : pg_failed(method, argv, &r, err, errlen);
    if (keep && rc == 0)
        *keep = r;
    else
        spawn_result_free(&r);
    return rc;
}

/* One look at a sanitize in progress: 0 done, 1 still running, -1 failed (message in err). */
typedef int (*pg_judge_fn)(const char *const *argv, const struct spawn_result *r,
                           const char *dev, char *err, size_t errlen);

/* SSTAT from `nvme sanitize-log` output ("... (SSTAT) : 0x101"); -1 when absent. */
static long pg_parse_sstat(const char *out)
{
    const char *s = strstr(out, "SSTAT");
    if (!s)
        s = strstr(out, "sstat");
    if (!s)
        return -1;
    const char *colon = strchr(s, ':');
    if (!colon)
        return -1;
    char *end;
    long v = strtol(colon + 1, &end, 0);
    return end == colon + 1 ? -1 : v;
}

static int pg_judge_nvme(const char *const *argv, const struct spawn_result *r, const char *dev,
                         char *err, size_t errlen)
{
    if (r->status != 0)
        return pg_failed("sanitize", argv, r, err, errlen);
    long sstat = pg_parse_sstat(r->out);
    if (sstat < 0)
        return errf(err, errlen, "--purge sanitize: cannot read SSTAT from `nvme "
                    "sanitize-log %s`", dev);
    switch (sstat & 0x7) {
    case 1:
    case 4:
        return 0;                        /* completed (4: without deallocation) */
    case 2:
        return 1;                        /* in progress */
    case 3:
        return errf(err, errlen, "--purge sanitize: %s reports the sanitize failed "
                    "(SSTAT 0x%lx)", dev, (unsigned long)sstat);
    default:
        return errf(err, errlen, "--purge sanitize: %s reports no sanitize was done "
                    "(SSTAT 0x%lx)", dev, (unsigned long)sstat);
    }
}

static int pg_judge_ata(const char *const *argv, const struct spawn_result *r, const char *dev,
                        char *err, size_t errlen)
{
    switch (purge_ata_sanitize_state(r->out, r->err)) {
    case PURGE_SAN_DONE:
        return 0;
    case PURGE_SAN_RUNNING:
        return 1;
    case PURGE_SAN_FAILED:
        return errf(err, errlen, "--purge sanitize: %s reports the sanitize failed "
                    "(`hdparm --sanitize-status`: SD3, last sanitize completed unsuccessfully)",
                    dev);
    case PURGE_SAN_IDLE:
        return errf(err, errlen, "--purge sanitize: %s reports no sanitize was done (SD0 "
                    "without \"Last Sanitize Operation Completed Without Error\")", dev);
    case PURGE_SAN_FROZEN:
        return errf(err, errlen, "--purge sanitize: %s is sanitize-frozen (SD1: a SANITIZE "
                    "FREEZE LOCK until the next power cycle)", dev);
    default:
        if (r->status != 0)
            return pg_failed("sanitize", argv, r, err, errlen);
        return errf(err, errlen, "--purge sanitize: cannot read the state from `hdparm "
                    "--sanitize-status %s`", dev);
    }
}

/* SCSI: `sg_turs` exits 0 when the unit is ready; 2 (not ready: formatting) and 6 (a unit
 * attention, e.g. after the format) mean look again. */
static int pg_judge_turs(const char *const *argv, const struct spawn_result *r, const char *dev,
                         char *err, size_t errlen)
{
    (void)dev;
    if (r->status == 0)
        return 0;
    if (r->status == 2 || r->status == 6)
        return 1;
    return pg_failed("format", argv, r, err, errlen);
}

/* Poll `status` until judge says done, every PG_POLL_S, up to PG_POLL_MAX_S. */
static int pg_poll(const char *method, const char *const *status, pg_judge_fn judge,
                   const char *dev, char *err, size_t errlen)
{
    for (int waited = 0;; waited += PG_POLL_S) {
        struct spawn_result r;
        if (pg_spawn(method, status, &r, err, errlen) != 0)
            return -1;
        int st = judge(status, &r, dev, err, errlen);
        spawn_result_free(&r);
        if (st <= 0)
            return st;
        if (waited >= PG_POLL_MAX_S)
            return errf(err, errlen, "--purge %s: %s still busy after %d s (`%s %s`)", method,
                        dev, waited, status[0], status[1]);
        struct timespec ts = {PG_POLL_S, 0};
        while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
        }
    }
}

int purge_ata_check_step(const struct purge_ata_id *id, bool erased, const char *dev,
                         char *err, size_t errlen)
{
    if (!erased && id->sec_enabled != 1)
        return errf(err, errlen, "--purge secure-erase: %s: after --security-set-pass hdparm -I "
                    "does not report security \"enabled\": the drive did not take the password "
                    "(hdparm exits 0 when the drive aborts)", dev);
    if (erased && id->sec_enabled != 0)
        return errf(err, errlen, "--purge secure-erase: %s: after the erase hdparm -I does not "
                    "report security \"not enabled\": the drive aborted or did not finish "
                    "SECURITY ERASE UNIT (hdparm exits 0 when the drive aborts)", dev);
    return 0;
}

/* Run one ATA security step, then read the state back with `hdparm -I` (hdparm's exit status
 * is 0 when the drive aborts the command). */
static int pg_ata_step(const char *const *argv, bool erase, const char *dev, char *err,
                       size_t errlen)
{
    const char *m = "secure-erase";
    if (pg_run(m, argv, NULL, err, errlen) != 0)
        return -1;
    const char *info[] = {"hdparm", "-I", dev, NULL};
    struct spawn_result r;
    if (pg_run(m, info, &r, err, errlen) != 0)
        return -1;
    struct purge_ata_id id;
    purge_ata_id_parse(r.out, &id);
    spawn_result_free(&r);
    return purge_ata_check_step(&id, erase, dev, err, errlen);
}

/* Set the password and erase; remove the password again when the erase fails. */
static int pg_ata_erase(const struct purge_cmds *c, const char *dev, char *err, size_t errlen)
{
    const char *m = "secure-erase";
    if (pg_ata_step(c->argv[0], false, dev, err, errlen) != 0)
        return -1;
    if (pg_ata_step(c->argv[1], true, dev, err, errlen) != 0) {
        /* Do not leave a password behind: the drive would come up locked. */
        const char *undo[] = {"hdparm", "--user-master", "u", "--security-disable",
                              PG_ATA_PASSWORD, dev, NULL};
        char e2[ERR_LEN];
        size_t at = strlen(err);
        if (pg_run(m, undo, NULL, e2, sizeof(e2)) != 0 && at < errlen)
            snprintf(err + at, errlen - at, "; removing the password \"%s\" failed too: "
                     "run `hdparm --user-master u --security-disable %s %s`",
                     PG_ATA_PASSWORD, PG_ATA_PASSWORD, dev);
        return -1;
    }
    return 0;
}

/* ATA: read `hdparm -I` (plan->argv[0]), choose the variant (recorded in p), run it. */
static int pg_exec_ata(struct purge_plan *p, const struct purge_facts *f,
                       const struct purge_cmds *plan, char *err, size_t errlen)
{
    const char *m = purge_method_name(p->method);
    struct spawn_result info;
    if (pg_run(m, plan->argv[0], &info, err, errlen) != 0)
        return -1;
    struct purge_ata_id id;
    purge_ata_id_parse(info.out, &id);
    spawn_result_free(&info);
    struct purge_cmds c;
    if (purge_ata_choose(p, f, &id, &c, err, errlen) != 0)
        return -1;
    if (p->method == PURGE_SECURE_ERASE)
        return pg_ata_erase(&c, f->devpath, err, errlen);
    if (pg_run(m, c.argv[0], NULL, err, errlen) != 0)
        return -1;
    return pg_poll(m, c.argv[1], pg_judge_ata, f->devpath, err, errlen);
}

static int pg_exec_discard(const struct target_info *t, int fd, const char *dev, char *err,
                           size_t errlen)
{
    if (t->kind == TARGET_SIM) {
        struct sim_world *w = t->sim;
        for (uint64_t off = 0; off < t->capacity; off += PG_SIM_TRIM_CHUNK) {
            uint64_t n = t->capacity - off < PG_SIM_TRIM_CHUNK ? t->capacity - off
                                                                : PG_SIM_TRIM_CHUNK;
            struct sim_io io = {.op = SIM_TRIM, .offset = off, .len = (uint32_t)n};
            simt done = sim_submit(w->dev, w->now, &io);
            if (done > w->now)
                w->now = done;
        }
        return 0;
    }
    if (fd < 0)
        return errf(err, errlen, "--purge discard: %s is not open", dev);
    if (t->capacity == 0)
        return 0;
    if (t->kind == TARGET_FILE) {
        if (fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 0,
                      (off_t)t->capacity) != 0) {
            int e = errno;
            if (e == EOPNOTSUPP)
                return errf(err, errlen, "--purge discard: the filesystem holding %s cannot "
                            "punch holes (fallocate: %s; try --purge none)", dev, strerror(e));
            return errf(err, errlen, "--purge discard: fallocate(PUNCH_HOLE) on %s: %s", dev,
                        strerror(e));
        }
        return 0;
    }
    uint64_t range[2] = {0, t->capacity};
    if (ioctl(fd, BLKDISCARD, range) != 0) {
        int e = errno;
        if (e == EOPNOTSUPP || e == ENOTTY)
            return errf(err, errlen, "--purge discard: %s does not support discard "
                        "(BLKDISCARD: %s; try --purge none)", dev, strerror(e));
        return errf(err, errlen, "--purge discard: BLKDISCARD on %s: %s", dev, strerror(e));
    }
    return 0;
}

static const char *pg_discard_variant(const struct target_info *t)
{
    return t->kind == TARGET_SIM    ? "simulated TRIM"
           : t->kind == TARGET_FILE ? "fallocate PUNCH_HOLE"
                                    : "BLKDISCARD";
}

/* Run the plan's method on a target that is not simulated (fresh facts f). */
static int pg_exec(struct purge_plan *p, struct target_info *t, int fd,
                   const struct purge_facts *fp, char *err, size_t errlen)
{
    const char *name = purge_method_name(p->method);
    struct purge_facts f = *fp;
    if (p->method == PURGE_DISCARD) {
        if (fd >= 0)
            str_copy(p->ran, sizeof(p->ran), pg_discard_variant(t));
        return pg_exec_discard(t, fd, f.devpath, err, errlen);
    }

    /* Rebuild the plan from fresh facts: what runs must be what was recorded. */
    struct purge_plan now;
    if (purge_plan_make(&f, p->method, &now, err, errlen) != 0)
        return -1;
    if (strcmp(now.argv_text, p->argv_text) != 0)
        return errf(err, errlen, "--purge %s: %s changed since the plan was made (planned "
                    "\"%s\", now \"%s\")", name, f.devpath, p->argv_text, now.argv_text);
    struct purge_cmds c;
    pg_commands(&f, p->method, &c);
    if (c.n == 0)
        return errf(err, errlen, "--purge %s: nothing to run on %s", name, f.devpath);
    if (f.transport == PURGE_T_ATA)
        return pg_exec_ata(p, &f, &c, err, errlen);
    str_copy(p->ran, sizeof(p->ran), c.variant);
    if (p->method == PURGE_SANITIZE || (p->method == PURGE_FORMAT &&
                                        f.transport == PURGE_T_SCSI)) {
        if (pg_run(name, c.argv[0], NULL, err, errlen) != 0)
            return -1;
        return pg_poll(name, c.argv[1], p->method == PURGE_SANITIZE ? pg_judge_nvme
                                                                     : pg_judge_turs,
                       f.devpath, err, errlen);
    }
    for (int i = 0; i < c.n; i++)
        if (pg_run(name, c.argv[i], NULL, err, errlen) != 0)
            return -1;
    return 0;
}

/* ---- verification ---------------------------------------------------------------------- */

/* FNV-1a over a sample. */
static uint64_t pg_hash(const unsigned char *b, size_t n)
{
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 1099511628211ull;
    return h;
}

/* Read the PURGE_VERIFY_SAMPLES blocks of dev (O_DIRECT, past any cache): the first, the last
 * and evenly between. 0, or -1 with the reason in why. */
static int pg_sample(const char *dev, uint64_t capacity, struct purge_sample *out, char *why,
                     size_t whylen)
{
    if (capacity < PG_SAMPLE_BYTES) {
        snprintf(why, whylen, "%s is smaller than one sample", dev);
        return -1;
    }
    int fd = open(dev, O_RDONLY | O_DIRECT | O_CLOEXEC);
    if (fd < 0) {
        snprintf(why, whylen, "cannot open %s for reading (O_DIRECT): %s", dev,
                 strerror(errno));
        return -1;
    }
    void *buf = NULL;
    if (posix_memalign(&buf, PG_SAMPLE_BYTES, PG_SAMPLE_BYTES) != 0) {
        close(fd);
        snprintf(why, whylen, "out of memory");
        return -1;
    }
    const uint64_t last = (capacity - PG_SAMPLE_BYTES) / PG_SAMPLE_BYTES;   /* in samples */
    int rc = 0;
    for (int i = 0; i < PURGE_VERIFY_SAMPLES && rc == 0; i++) {
        uint64_t off = last * (uint64_t)i / (PURGE_VERIFY_SAMPLES - 1) * PG_SAMPLE_BYTES;
        ssize_t n = pread(fd, buf, PG_SAMPLE_BYTES, (off_t)off);
        if (n != (ssize_t)PG_SAMPLE_BYTES) {
            snprintf(why, whylen, "reading %u bytes of %s at %" PRIu64 ": %s", PG_SAMPLE_BYTES,
                     dev, off, n < 0 ? strerror(errno) : "short read");
            rc = -1;
            break;
        }
        const unsigned char *b = buf;
        out[i].zero = b[0] == 0 && memcmp(b, b + 1, PG_SAMPLE_BYTES - 1) == 0;
        out[i].hash = pg_hash(b, PG_SAMPLE_BYTES);
    }
    free(buf);
    close(fd);
    return rc;
}

int purge_verify_judge(const struct purge_sample *before, const struct purge_sample *after,
                       int n, bool must_erase, const char *what, const char *dev,
                       struct purge_verify *v, char *err, size_t errlen)
{
    memset(v, 0, sizeof(*v));
    v->samples = n;
    int held = 0;   /* samples that held data before */
    for (int i = 0; i < n; i++) {
        held += !before[i].zero;
        v->zero += after[i].zero;
        v->unchanged += !before[i].zero && !after[i].zero && before[i].hash == after[i].hash;
    }
    if (!must_erase) {
        snprintf(v->note, sizeof(v->note), "not verified erased: %s need not erase the data; "
                 "after it %d of %d sampled 4 KiB blocks read zero, %d still hold their data",
                 what, v->zero, n, v->unchanged);
        return 0;
    }
    if (v->unchanged)
        return errf(err, errlen, "%s on %s did not erase it: %d of %d sampled 4 KiB blocks "
                    "still hold the data they held before", what, dev, v->unchanged, n);
    v->erased = true;
    if (v->zero == n)
        snprintf(v->note, sizeof(v->note), "verified zeroed: %d of %d sampled 4 KiB blocks "
                 "read zero after %s%s", n, n, what,
                 held ? "" : " (they read zero before it too)");
    else
        snprintf(v->note, sizeof(v->note), "verified erased: none of the %d sampled 4 KiB "
                 "blocks that held data still holds it; %d of %d read zero after %s", held,
                 v->zero, n, what);
    return 0;
}

/* Methods that must erase the user data (a SCSI format or a discard need not). */
static bool pg_must_erase(const struct purge_plan *p, const struct purge_facts *f)
{
    return p->method == PURGE_SECURE_ERASE || p->method == PURGE_SANITIZE ||
           (p->method == PURGE_FORMAT && f->transport == PURGE_T_NVME);
}

/* Read the samples again after the purge and judge them into p->verify. */
static int pg_verify(struct purge_plan *p, const struct target_info *t,
                     const struct purge_facts *f, const struct purge_sample *before,
                     const char *why, char *err, size_t errlen)
{
    struct purge_sample after[PURGE_VERIFY_SAMPLES];
    char why2[160] = "";
    if (!before || pg_sample(f->devpath, t->capacity, after, why2, sizeof(why2)) != 0) {
        snprintf(p->verify.note, sizeof(p->verify.note), "not verified: %s",
                 before ? why2 : why);
        return 0;
    }
    char what[160];
    snprintf(what, sizeof(what), "--purge %s (%s)", purge_method_name(p->method), p->ran);
    return purge_verify_judge(before, after, PURGE_VERIFY_SAMPLES, pg_must_erase(p, f), what,
                              f->devpath, &p->verify, err, errlen);
}

int purge_execute(struct purge_plan *p, struct target_info *t, int fd, char *err, size_t errlen)
{
    const char *name = purge_method_name(p->method);
    if (p->method == PURGE_AUTO)
        return errf(err, errlen, "--purge: internal error: the plan was not made");
    if (p->ran[0])
        return errf(err, errlen, "--purge %s: internal error: this plan already ran (%s); "
                    "make a new plan for each purge", name, p->ran);
    if (p->method == PURGE_NONE) {
        str_copy(p->ran, sizeof(p->ran), "none");
        return 0;
    }
    if (t->kind == TARGET_SIM) {
        if (!t->sim || !t->sim->dev)
            return errf(err, errlen, "--purge %s: %s: the simulated drive is not open", name,
                        t->path);
        if (p->method == PURGE_DISCARD) {
            str_copy(p->ran, sizeof(p->ran), pg_discard_variant(t));
            return pg_exec_discard(t, fd, t->path, err, errlen);
        }
        str_copy(p->ran, sizeof(p->ran), PG_V_SIM_ERASE);
        sim_purge(t->sim->dev, t->sim->now);
        return 0;
    }

    struct purge_facts f;
    purge_facts_collect(t, &f);
    if (t->kind != TARGET_BLOCK)
        return pg_exec(p, t, fd, &f, err, errlen);
    struct purge_sample before[PURGE_VERIFY_SAMPLES];
    char why[160] = "";
    bool sampled = pg_sample(f.devpath, t->capacity, before, why, sizeof(why)) == 0;
    if (pg_exec(p, t, fd, &f, err, errlen) != 0)
        return -1;
    return pg_verify(p, t, &f, sampled ? before : NULL, why, err, errlen);
}
