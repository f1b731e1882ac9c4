/* purge.c — see purge.h.
 *
 * Three steps: purge_facts_collect() reads sysfs and PATH (no I/O to the device),
 * purge_plan_make() decides (pure), purge_execute() runs it.  The commands live in one place,
 * pg_commands(), which builds the argument vectors from the facts; the plan records them as
 * text and execution rebuilds them from freshly collected facts, so what runs is what was
 * recorded.
 *
 * Departures and choices:
 *   - A partition is classified OTHER_BLOCK whatever disk holds it: format, sanitize and secure
 *     erase act on the whole disk (or namespace), so the only purge that stays inside a
 *     partition is a discard of its range.
 *   - ATA secure erase first reads `hdparm -I` and refuses a frozen drive (or one without the
 *     security feature set); when the erase fails after the password was set, the password is
 *     removed again (--security-disable) so the drive is not left locked at the next power cycle.
 *   - NVMe sanitize polls `nvme sanitize-log` (SSTAT bits 2:0; 2 = in progress) every 2 s, up to
 *     PG_SANITIZE_MAX_S.
 *   - Discard on a simulated drive TRIMs its whole range (not compliant, like discard on a real
 *     drive); every other method on a simulated drive is the model's own secure erase. */
#include "purge.h"

#include <errno.h>
#include <fcntl.h>
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

#include "sim.h"
#include "spawn.h"
#include "util.h"

#define PG_SANITIZE_MAX_S (24 * 3600)
#define PG_SANITIZE_POLL_S 2
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

void purge_facts_collect(const struct target_info *t, struct purge_facts *out)
{
    memset(out, 0, sizeof(*out));
    str_copy(out->devpath, sizeof(out->devpath), t->path);
    out->have_nvme_cli = pg_in_path("nvme");
    out->have_hdparm = pg_in_path("hdparm");
    out->have_sg_format = pg_in_path("sg_format");

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

    char q[PATH_MAX + 16], buf[64];
    snprintf(q, sizeof(q), "%s/queue", disk);
    out->supports_discard = pg_read_attr(q, "discard_max_bytes", buf, sizeof(buf)) &&
                            strtoull(buf, NULL, 10) > 0;
}

/* ---- commands ------------------------------------------------------------------------- */

/* Up to three commands of up to 8 words; the strings point into the facts or are literals. */
#define PG_MAX_CMDS 3
#define PG_MAX_ARGS 8
struct pg_cmds {
    int n;
    const char *argv[PG_MAX_CMDS][PG_MAX_ARGS + 1];
};

static void pg_add(struct pg_cmds *c, const char *const *words)
{
    int i = 0;
    for (; words[i] && i < PG_MAX_ARGS; i++)
        c->argv[c->n][i] = words[i];
    c->argv[c->n][i] = NULL;
    c->n++;
}

/* The tool commands of a method on a transport (none for sim, discard and none). */
static void pg_commands(const struct purge_facts *f, enum purge_method m, struct pg_cmds *c)
{
    memset(c, 0, sizeof(*c));
    const char *dev = f->devpath;
    if (m == PURGE_SECURE_ERASE && f->transport == PURGE_T_ATA) {
        pg_add(c, (const char *const[]){"hdparm", "-I", dev, NULL});
        pg_add(c, (const char *const[]){"hdparm", "--user-master", "u", "--security-set-pass",
                                        PG_ATA_PASSWORD, dev, NULL});
        pg_add(c, (const char *const[]){"hdparm", "--user-master", "u", "--security-erase",
                                        PG_ATA_PASSWORD, dev, NULL});
    } else if (m == PURGE_FORMAT && f->transport == PURGE_T_NVME) {
        pg_add(c, (const char *const[]){"nvme", "format", dev, "--ses=1", "--force", NULL});
    } else if (m == PURGE_FORMAT && f->transport == PURGE_T_SCSI) {
        pg_add(c, (const char *const[]){"sg_format", "--format", dev, NULL});
    } else if (m == PURGE_SANITIZE && f->transport == PURGE_T_NVME) {
        pg_add(c, (const char *const[]){"nvme", "sanitize", dev, "--sanact=2", NULL});
        pg_add(c, (const char *const[]){"nvme", "sanitize-log", dev, NULL});
    }
}

static void pg_join(const struct pg_cmds *c, char *buf, size_t len, const char *poll_note)
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
        if (poll_note && i == c->n - 1)
            snprintf(buf + at, len - at, "%s", poll_note);
    }
}

/* ---- plan ----------------------------------------------------------------------------- */

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
    struct pg_cmds c;
    pg_commands(f, m, &c);
    out->method = m;
    out->compliant = true;
    pg_join(&c, out->argv_text, sizeof(out->argv_text),
            m == PURGE_SANITIZE ? " (polled until done)" : NULL);
}

/* The tool a (transport, method) pair needs and whether the facts have it. */
static bool pg_have_tool(const struct purge_facts *f, enum purge_method m, const char **tool)
{
    if (f->transport == PURGE_T_ATA) {
        *tool = "hdparm";
        return f->have_hdparm;
    }
    if (f->transport == PURGE_T_SCSI) {
        *tool = "sg_format (sg3_utils)";
        return f->have_sg_format;
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
    if (m != PURGE_NONE && pg_have_tool(f, m, &tool)) {
        pg_set_tools(f, m, out);
        snprintf(out->reason, sizeof(out->reason), "auto: %s is %s, %s", f->devpath,
                 pg_transport_name(f->transport), purge_method_name(m));
        return 0;
    }
    char why[160];
    if (m != PURGE_NONE)
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
        applies = f->transport == PURGE_T_NVME;
        what = "not NVMe";
        break;
    }
    if (!applies) {
        const char *hint;
        if (f->transport == PURGE_T_NVME)
            hint = "try format or sanitize";
        else if (f->transport == PURGE_T_ATA)
            hint = "try secure-erase";
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
    pg_set_tools(f, requested, out);
    snprintf(out->reason, sizeof(out->reason), "requested: %s on %s (%s)", name, dev,
             pg_transport_name(f->transport));
    return 0;
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

/* Run one command; 0 when it exited 0. Fills r (caller frees) when keep is set. */
static int pg_run(const char *method, const char *const *argv, struct spawn_result *keep,
                  char *err, size_t errlen)
{
    struct spawn_result r;
    if (spawn_run((char *const *)argv, &r) != 0)
        return errf(err, errlen, "--purge %s: cannot start %s: %s", method, argv[0],
                    strerror(errno));
    int rc = 0;
    if (r.status != 0) {
        char line[200];
        pg_first_line(&r, line, sizeof(line));
        char cmd[256] = "";
        size_t at = 0;
        for (int j = 0; argv[j] && at < sizeof(cmd); j++) {
            int w = snprintf(cmd + at, sizeof(cmd) - at, "%s%s", j ? " " : "", argv[j]);
            if (w < 0)
                break;
            at += (size_t)w;
        }
        if (r.status == 127 && !line[0])
            rc = errf(err, errlen, "--purge %s: `%s` could not be run (%s not found?)", method,
                      cmd, argv[0]);
        else
            rc = errf(err, errlen, "--purge %s: `%s` failed (exit %d)%s%s", method, cmd,
                      r.status, line[0] ? ": " : "", line);
    }
    if (keep && rc == 0)
        *keep = r;
    else
        spawn_result_free(&r);
    return rc;
}

/* Collapse runs of blanks in a line into single spaces (hdparm -I uses tabs). */
static void pg_squeeze(const char *s, size_t n, char *buf, size_t len)
{
    size_t o = 0;
    bool space = true;   /* drop leading blanks */
    for (size_t i = 0; i < n && o + 1 < len; i++) {
        char ch = s[i] == '\t' ? ' ' : s[i];
        if (ch == ' ' && space)
            continue;
        space = ch == ' ';
        buf[o++] = ch;
    }
    while (o && buf[o - 1] == ' ')
        o--;
    buf[o] = '\0';
}

/* From `hdparm -I` output: the security section's "supported", "enabled" and "frozen" lines.
 * Returns 0 when secure erase may proceed, else -1 with a message. */
static int pg_ata_check_security(const char *out, const char *dev, char *err, size_t errlen)
{
    const char *sec = strstr(out, "\nSecurity:");
    if (!sec)
        return errf(err, errlen, "--purge secure-erase: hdparm -I %s reports no ATA security "
                    "feature set (try discard)", dev);
    int supported = -1, frozen = -1, locked = -1;
    const char *s = strchr(sec + 1, '\n');
    while (s && *s) {
        s++;
        const char *e = strchr(s, '\n');
        size_t n = e ? (size_t)(e - s) : strlen(s);
        if (n && s[0] != '\t' && s[0] != ' ')
            break;                           /* next section */
        char line[128];
        pg_squeeze(s, n, line, sizeof(line));
        if (supported < 0 && strcmp(line, "supported") == 0)
            supported = 1;
        else if (supported < 0 && strcmp(line, "not supported") == 0)
            supported = 0;
        else if (strcmp(line, "frozen") == 0)
            frozen = 1;
        else if (strcmp(line, "not frozen") == 0)
            frozen = 0;
        else if (strcmp(line, "locked") == 0)
            locked = 1;
        else if (strcmp(line, "not locked") == 0)
            locked = 0;
        s = e;
    }
    if (supported == 0)
        return errf(err, errlen, "--purge secure-erase: %s does not support the ATA security "
                    "feature set (try discard)", dev);
    if (frozen != 0)
        return errf(err, errlen, "--purge secure-erase: %s is %s (the BIOS freezes ATA security "
                    "at boot; a suspend/resume cycle, e.g. `rtcwake -m mem -s 5`, or hot-"
                    "plugging the drive usually unfreezes it)", dev,
                    frozen == 1 ? "security-frozen" : "not reported as \"not frozen\"");
    if (locked == 1)
        return errf(err, errlen, "--purge secure-erase: %s is security-locked (a password is "
                    "set by someone else); unlock it first", dev);
    return 0;
}

static int pg_exec_ata(const struct pg_cmds *c, const char *dev, char *err, size_t errlen)
{
    const char *m = "secure-erase";
    struct spawn_result info;
    if (pg_run(m, c->argv[0], &info, err, errlen) != 0)
        return -1;
    int rc = pg_ata_check_security(info.out, dev, err, errlen);
    spawn_result_free(&info);
    if (rc != 0)
        return -1;
    if (pg_run(m, c->argv[1], NULL, err, errlen) != 0)
        return -1;
    if (pg_run(m, c->argv[2], NULL, err, errlen) != 0) {
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

static int pg_exec_sanitize(const struct pg_cmds *c, const char *dev, char *err, size_t errlen)
{
    const char *m = "sanitize";
    if (pg_run(m, c->argv[0], NULL, err, errlen) != 0)
        return -1;
    for (int waited = 0;; waited += PG_SANITIZE_POLL_S) {
        struct spawn_result r;
        if (pg_run(m, c->argv[1], &r, err, errlen) != 0)
            return -1;
        long sstat = pg_parse_sstat(r.out);
        spawn_result_free(&r);
        if (sstat < 0)
            return errf(err, errlen, "--purge sanitize: cannot read SSTAT from `nvme "
                        "sanitize-log %s`", dev);
        switch (sstat & 0x7) {
        case 1:
        case 4:
            return 0;                        /* completed (4: without deallocation) */
        case 3:
            return errf(err, errlen, "--purge sanitize: %s reports the sanitize failed "
                        "(SSTAT 0x%lx)", dev, (unsigned long)sstat);
        case 2:
            break;                           /* in progress */
        default:
            return errf(err, errlen, "--purge sanitize: %s reports no sanitize was done "
                        "(SSTAT 0x%lx)", dev, (unsigned long)sstat);
        }
        if (waited >= PG_SANITIZE_MAX_S)
            return errf(err, errlen, "--purge sanitize: %s still sanitizing after %d s",
                        dev, waited);
        struct timespec ts = {PG_SANITIZE_POLL_S, 0};
        while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
        }
    }
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

int purge_execute(const struct purge_plan *p, struct target_info *t, int fd,
                  char *err, size_t errlen)
{
    const char *name = purge_method_name(p->method);
    if (p->method == PURGE_AUTO)
        return errf(err, errlen, "--purge: internal error: the plan was not made");
    if (p->method == PURGE_NONE)
        return 0;
    if (t->kind == TARGET_SIM) {
        if (!t->sim || !t->sim->dev)
            return errf(err, errlen, "--purge %s: %s: the simulated drive is not open", name,
                        t->path);
        if (p->method == PURGE_DISCARD)
            return pg_exec_discard(t, fd, t->path, err, errlen);
        sim_purge(t->sim->dev, t->sim->now);
        return 0;
    }

    struct purge_facts f;
    purge_facts_collect(t, &f);
    if (p->method == PURGE_DISCARD)
        return pg_exec_discard(t, fd, f.devpath, err, errlen);

    /* Rebuild the plan from fresh facts: what runs must be what was recorded. */
    struct purge_plan now;
    if (purge_plan_make(&f, p->method, &now, err, errlen) != 0)
        return -1;
    if (strcmp(now.argv_text, p->argv_text) != 0)
        return errf(err, errlen, "--purge %s: %s changed since the plan was made (planned "
                    "\"%s\", now \"%s\")", name, f.devpath, p->argv_text, now.argv_text);
    struct pg_cmds c;
    pg_commands(&f, p->method, &c);
    if (c.n == 0)
        return errf(err, errlen, "--purge %s: nothing to run on %s", name, f.devpath);
    if (p->method == PURGE_SECURE_ERASE)
        return pg_exec_ata(&c, f.devpath, err, errlen);
    if (p->method == PURGE_SANITIZE)
        return pg_exec_sanitize(&c, f.devpath, err, errlen);
    for (int i = 0; i < c.n; i++)
        if (pg_run(name, c.argv[i], NULL, err, errlen) != 0)
            return -1;
    return 0;
}
