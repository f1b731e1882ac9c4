/* safety.c — never destroy data by accident (see safety.h).
 *
 * safety_collect() builds the set of block devices whose data lives on the target disk: the
 * disk, its partitions, and everything stacked on them (holders, recursively: dm, md, LVM,
 * bcache...).  Each has a kernel name, a MAJ:MIN from its sysfs `dev` file and, for dm, a
 * mapper name.  Mounts (proc/self/mountinfo), swap (proc/swaps) and "/" are then matched
 * against that set.  Everything is read below `sysroot`, so tests can point at a fake tree. */
#include "safety.h"
#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#define SAF_MAX_DEVS 512

enum saf_role { SAF_DISK, SAF_PART, SAF_HOLDER };

struct saf_dev {
    char name[64];
    char dmname[128];      /* dm/name, for /dev/mapper/<name> */
    unsigned maj, min;
    bool have_dev;
    enum saf_role role;
};

struct saf_set {
    struct saf_dev d[SAF_MAX_DEVS];
    unsigned n;
    bool overflow;
};

/* ---- helpers ------------------------------------------------------------------------------ */

static void saf_add_item(char items[][SAFETY_ITEM_LEN], unsigned *n, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void saf_add_item(char items[][SAFETY_ITEM_LEN], unsigned *n, const char *fmt, ...)
{
    if (*n >= SAFETY_MAX_ITEMS)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(items[*n], SAFETY_ITEM_LEN, fmt, ap);
    va_end(ap);
    for (unsigned i = 0; i < *n; i++)
        if (strcmp(items[i], items[*n]) == 0)
            return;                    /* already listed */
    (*n)++;
}

static bool saf_path(char *buf, size_t len, const char *sysroot, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static bool saf_path(char *buf, size_t len, const char *sysroot, const char *fmt, ...)
{
    int n = snprintf(buf, len, "%s", sysroot);
    if (n < 0 || (size_t)n >= len)
        return false;
    va_list ap;
    va_start(ap, fmt);
    int m = vsnprintf(buf + n, len - (size_t)n, fmt, ap);
    va_end(ap);
    return m >= 0 && (size_t)m < len - (size_t)n;
}

static bool saf_is_file(const char *dir, const char *name)
{
    char p[PATH_MAX];
    if (snprintf(p, sizeof(p), "%s/%s", dir, name) >= (int)sizeof(p))
        return false;
    return access(p, F_OK) == 0;
}

static bool saf_read_majmin(const char *dir, unsigned *maj, unsigned *min)
{
    char p[PATH_MAX], buf[64];
    if (snprintf(p, sizeof(p), "%s/dev", dir) >= (int)sizeof(p))
        return false;
    if (read_text_file(p, buf, sizeof(buf)) < 0)
        return false;
    return sscanf(buf, "%u:%u", maj, min) == 2;
}

static const char *saf_basename(const char *p)
{
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

/* Decode the octal escapes (\040 etc.) the kernel uses in mountinfo and swaps, in place. */
static void saf_unescape(char *s)
{
    char *w = s;
    for (char *r = s; *r; ) {
        if (r[0] == '\\' && r[1] >= '0' && r[1] <= '3' && r[2] >= '0' && r[2] <= '7' &&
            r[3] >= '0' && r[3] <= '7') {
            *w++ = (char)((r[1] - '0') * 64 + (r[2] - '0') * 8 + (r[3] - '0'));
            r += 4;
        } else {
            *w++ = *r++;
        }
    }
    *w = '\0';
}

static int saf_find(const struct saf_set *s, const char *name)
{
    for (unsigned i = 0; i < s->n; i++)
        if (strcmp(s->d[i].name, name) == 0)
            return (int)i;
    return -1;
}

static int saf_find_majmin(const struct saf_set *s, unsigned maj, unsigned min)
{
    for (unsigned i = 0; i < s->n; i++)
        if (s->d[i].have_dev && s->d[i].maj == maj && s->d[i].min == min)
            return (int)i;
    return -1;
}

/* A device path as found in mountinfo or swaps ("/dev/sda1", "/dev/mapper/vg-root"):
 * which member of the set is it? */
static int saf_find_path(const struct saf_set *s, const char *sysroot, const char *path)
{
    if (strncmp(path, "/dev/", 5) != 0)
        return -1;
    /* On the real system the node may be a symlink (/dev/mapper/x -> ../dm-0). */
    char full[PATH_MAX], real[PATH_MAX];
    if (snprintf(full, sizeof(full), "%s%s", sysroot, path) < (int)sizeof(full) &&
        realpath(full, real)) {
        int i = saf_find(s, saf_basename(real));
        if (i >= 0)
            return i;
        /* A device node: compare its number. */
        struct stat st;
        if (stat(real, &st) == 0 && S_ISBLK(st.st_mode)) {
            i = saf_find_majmin(s, major(st.st_rdev), minor(st.st_rdev));
            if (i >= 0)
                return i;
        }
    }
    const char *rest = path + 5;
    if (strncmp(rest, "mapper/", 7) == 0) {
        for (unsigned i = 0; i < s->n; i++)
            if (s->d[i].dmname[0] && strcmp(s->d[i].dmname, rest + 7) == 0)
                return (int)i;
    }
    return saf_find(s, saf_basename(path));
}

static int saf_add_dev(struct saf_set *s, const char *sysroot, const char *name,
                       enum saf_role role)
{
    int i = saf_find(s, name);
    if (i >= 0)
        return i;
    if (s->n >= SAF_MAX_DEVS) {
        s->overflow = true;
        return -1;
    }
    struct saf_dev *d = &s->d[s->n];
    memset(d, 0, sizeof(*d));
    str_copy(d->name, sizeof(d->name), name);
    d->role = role;
    char dir[PATH_MAX], p[PATH_MAX];
    if (saf_path(dir, sizeof(dir), sysroot, "/sys/class/block/%s", name)) {
        d->have_dev = saf_read_majmin(dir, &d->maj, &d->min);
        if (snprintf(p, sizeof(p), "%s/dm/name", dir) < (int)sizeof(p) &&
            read_text_file(p, d->dmname, sizeof(d->dmname)) < 0)
            d->dmname[0] = '\0';
    }
    return (int)s->n++;
}

/* Add the holders of set member `idx` (and theirs, recursively), noting "X held by Y". */
static void saf_add_holders(struct saf_set *s, const char *sysroot, unsigned idx,
                            struct safety_facts *f, unsigned depth)
{
    if (depth > 16)
        return;
    char dir[PATH_MAX];
    if (!saf_path(dir, sizeof(dir), sysroot, "/sys/class/block/%s/holders", s->d[idx].name))
        return;
    DIR *dh = opendir(dir);
    if (!dh)
        return;
    struct dirent *e;
    char names[64][64];
    unsigned nn = 0;
    while ((e = readdir(dh)) && nn < 64) {
        if (e->d_name[0] == '.')
            continue;
        str_copy(names[nn++], sizeof(names[0]), e->d_name);
    }
    closedir(dh);
    for (unsigned k = 0; k < nn; k++) {
        saf_add_item(f->holders, &f->n_holders, "%s held by %s", s->d[idx].name, names[k]);
        bool seen = saf_find(s, names[k]) >= 0;
        int j = saf_add_dev(s, sysroot, names[k], SAF_HOLDER);
        if (j >= 0 && !seen)
            saf_add_holders(s, sysroot, (unsigned)j, f, depth + 1);
    }
}

/* Does the device `name` (e.g. the one "/" is on) sit on a member of the set through its
 * slaves?  Fills `via` with the member found. */
static bool saf_slaves_reach(const struct saf_set *s, const char *sysroot, const char *name,
                             char *via, size_t vialen, unsigned depth)
{
    int i = saf_find(s, name);
    if (i >= 0 && s->d[i].role != SAF_HOLDER) {
        str_copy(via, vialen, name);
        return true;
    }
    if (depth > 16)
        return false;
    char dir[PATH_MAX];
    if (!saf_path(dir, sizeof(dir), sysroot, "/sys/class/block/%s/slaves", name))
        return false;
    DIR *dh = opendir(dir);
    if (!dh)
        return false;
    struct dirent *e;
    bool found = false;
    while (!found && (e = readdir(dh))) {
        if (e->d_name[0] == '.')
            continue;
        found = saf_slaves_reach(s, sysroot, e->d_name, via, vialen, depth + 1);
    }
    closedir(dh);
    return found;
}

/* Kernel name of the block device MAJ:MIN, from sys/dev/block (empty when unknown). */
static void saf_name_of(const char *sysroot, unsigned maj, unsigned min, char *buf,
                        size_t len)
{
    char link[PATH_MAX], real[PATH_MAX];
    buf[0] = '\0';
    if (saf_path(link, sizeof(link), sysroot, "/sys/dev/block/%u:%u", maj, min) &&
        realpath(link, real))
        str_copy(buf, len, saf_basename(real));
}

/* ---- collect ----------------------------------------------------------------------------- */

static int saf_scan_mounts(struct saf_set *s, const char *sysroot, struct safety_facts *f,
                           char *err, size_t errlen)
{
    char path[PATH_MAX];
    if (!saf_path(path, sizeof(path), sysroot, "/proc/self/mountinfo"))
        return errf(err, errlen, "%s/proc/self/mountinfo: path too long", sysroot);
    FILE *fp = fopen(path, "re");
    if (!fp)
        return errf(err, errlen, "cannot read %s: %s (needed to check that /dev/%s is not "
                    "mounted)", path, strerror(errno), f->devname);
    char *line = NULL;
    size_t cap = 0;
    while (getline(&line, &cap, fp) > 0) {
        /* id parent MAJ:MIN root mountpoint options [optional...] - fstype source superopts */
        char *save = NULL, *tok[5] = {0};
        int n = 0;
        for (char *t = strtok_r(line, " \n", &save); t && n < 5; t = strtok_r(NULL, " \n", &save))
            tok[n++] = t;
        if (n < 5)
            continue;
        char *source = NULL;
        for (char *t = strtok_r(NULL, " \n", &save); t; t = strtok_r(NULL, " \n", &save)) {
            if (strcmp(t, "-") == 0) {
                if (strtok_r(NULL, " \n", &save))             /* fstype */
                    source = strtok_r(NULL, " \n", &save);
                break;
            }
        }
        unsigned maj, min;
        if (sscanf(tok[2], "%u:%u", &maj, &min) != 2)
            continue;
        char *mnt = tok[4];
        saf_unescape(mnt);
        if (source)
            saf_unescape(source);

        int i = saf_find_majmin(s, maj, min);
        if (i < 0 && source)      /* btrfs and friends report an anonymous MAJ:MIN */
            i = saf_find_path(s, sysroot, source);
        bool is_root = strcmp(mnt, "/") == 0;
        if (i >= 0) {
            saf_add_item(f->mounts, &f->n_mounts, "%s on %s", s->d[i].name, mnt);
            if (is_root && !f->backs_root) {
                f->backs_root = true;
                if (s->d[i].role == SAF_HOLDER) {
                    char via[64] = "";
                    saf_slaves_reach(s, sysroot, s->d[i].name, via, sizeof(via), 0);
                    snprintf(f->root_detail, sizeof(f->root_detail),
                             "/ is on %s (%u:%u), which is stacked on %s", s->d[i].name,
                             maj, min, via[0] ? via : f->devname);
                } else {
                    snprintf(f->root_detail, sizeof(f->root_detail), "/ is on %s (%u:%u)",
                             s->d[i].name, maj, min);
                }
            }
        } else if (is_root && !f->backs_root) {
            /* Belt and braces: walk the slaves of the root device down to our disk. */
            char name[64], via[64] = "";
            saf_name_of(sysroot, maj, min, name, sizeof(name));
            if (name[0] && saf_slaves_reach(s, sysroot, name, via, sizeof(via), 0)) {
                f->backs_root = true;
                saf_add_item(f->mounts, &f->n_mounts, "%s on /", name);
                snprintf(f->root_detail, sizeof(f->root_detail),
                         "/ is on %s (%u:%u), which is stacked on %s", name, maj, min, via);
            }
        }
    }
    free(line);
    fclose(fp);
    return 0;
}

static int saf_scan_swaps(struct saf_set *s, const char *sysroot, struct safety_facts *f,
                          char *err, size_t errlen)
{
    char path[PATH_MAX];
    if (!saf_path(path, sizeof(path), sysroot, "/proc/swaps"))
        return errf(err, errlen, "%s/proc/swaps: path too long", sysroot);
    FILE *fp = fopen(path, "re");
    if (!fp) {
        if (errno == ENOENT)
            return 0;            /* kernel without swap support */
        return errf(err, errlen, "cannot read %s: %s (needed to check that /dev/%s is not "
                    "swap)", path, strerror(errno), f->devname);
    }
    char *line = NULL;
    size_t cap = 0;
    bool header = true;
    while (getline(&line, &cap, fp) > 0) {
        if (header) {
            header = false;
            if (strncmp(line, "Filename", 8) == 0)
                continue;
        }
        char *save = NULL;
        char *name = strtok_r(line, " \t\n", &save);
        if (!name)
            continue;
        saf_unescape(name);
        int i = saf_find_path(s, sysroot, name);
        if (i >= 0)
            saf_add_item(f->swaps, &f->n_swaps, "%s", name);
    }
    free(line);
    fclose(fp);
    return 0;
}

int safety_collect(const char *sysroot, const char *devname, struct safety_facts *out,
                   char *err, size_t errlen)
{
    memset(out, 0, sizeof(*out));
    if (!sysroot)
        sysroot = "";
    if (!devname || !*devname)
        return errf(err, errlen, "no device name to check");
    if (strncmp(devname, "/dev/", 5) == 0)
        devname += 5;
    if (strchr(devname, '/') || strlen(devname) >= sizeof(out->devname))
        return errf(err, errlen, "%s: not a kernel block device name", devname);

    char cls[PATH_MAX], dir[PATH_MAX];
    if (!saf_path(cls, sizeof(cls), sysroot, "/sys/class/block/%s", devname))
        return errf(err, errlen, "/dev/%s: sysfs path too long", devname);
    if (!realpath(cls, dir))
        return errf(err, errlen, "/dev/%s: cannot find it in sysfs (%s: %s)", devname, cls,
                    strerror(errno));
    if (saf_is_file(dir, "partition")) {
        /* A partition: its disk is the directory above it. */
        char *slash = strrchr(dir, '/');
        if (!slash || slash == dir)
            return errf(err, errlen, "/dev/%s: cannot find its disk in sysfs", devname);
        *slash = '\0';
    }
    str_copy(out->devname, sizeof(out->devname), saf_basename(dir));

    struct saf_set *s = calloc(1, sizeof(*s));
    if (!s)
        return errf(err, errlen, "/dev/%s: out of memory", devname);

    int rc = -1;
    /* The disk itself, read through the directory found (sys/class/block/<disk> normally
     * names the same place). */
    struct saf_dev *d = &s->d[s->n++];
    str_copy(d->name, sizeof(d->name), out->devname);
    d->role = SAF_DISK;
    d->have_dev = saf_read_majmin(dir, &d->maj, &d->min);
    char dmp[PATH_MAX];
    if (snprintf(dmp, sizeof(dmp), "%s/dm/name", dir) >= (int)sizeof(dmp) ||
        read_text_file(dmp, d->dmname, sizeof(d->dmname)) < 0)
        d->dmname[0] = '\0';
    if (!d->have_dev) {
        errf(err, errlen, "/dev/%s: cannot read %s/dev", out->devname, dir);
        goto out;
    }

    DIR *dh = opendir(dir);
    if (!dh) {
        errf(err, errlen, "/dev/%s: cannot list %s: %s", out->devname, dir, strerror(errno));
        goto out;
    }
    struct dirent *e;
    while ((e = readdir(dh))) {
        if (e->d_name[0] == '.')
            continue;
        char sub[PATH_MAX];
        if (snprintf(sub, sizeof(sub), "%s/%s", dir, e->d_name) >= (int)sizeof(sub))
            continue;
        if (!saf_is_file(sub, "partition"))
            continue;
        if (saf_find(s, e->d_name) >= 0)
            continue;
        if (s->n >= SAF_MAX_DEVS) {
            s->overflow = true;
            break;
        }
        struct saf_dev *p = &s->d[s->n++];
        memset(p, 0, sizeof(*p));
        str_copy(p->name, sizeof(p->name), e->d_name);
        p->role = SAF_PART;
        p->have_dev = saf_read_majmin(sub, &p->maj, &p->min);
        if (out->n_partitions < SAFETY_MAX_ITEMS)
            str_copy(out->partitions[out->n_partitions++], sizeof(out->partitions[0]),
                     e->d_name);
    }
    closedir(dh);

    /* Holders of the disk and of each partition, recursively.  The set grows while we walk;
     * only the disk and partitions (the first entries) are roots of the walk. */
    unsigned roots = s->n;
    for (unsigned i = 0; i < roots; i++)
        saf_add_holders(s, sysroot, i, out, 0);
    if (s->overflow) {
        errf(err, errlen, "/dev/%s: too many partitions and holders to check", out->devname);
        goto out;
    }

    if (saf_scan_mounts(s, sysroot, out, err, errlen) != 0)
        goto out;
    if (saf_scan_swaps(s, sysroot, out, err, errlen) != 0)
        goto out;
    rc = 0;
out:
    free(s);
    return rc;
}

/* ---- decide ------------------------------------------------------------------------------ */

struct saf_buf {
    char *p;
    size_t len, used;
};

static void saf_put(struct saf_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void saf_put(struct saf_buf *b, const char *fmt, ...)
{
    if (!b->p || !b->len || b->used >= b->len - 1)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(b->p + b->used, b->len - b->used, fmt, ap);
    va_end(ap);
    if (n > 0)
        b->used += (size_t)n < b->len - b->used ? (size_t)n : b->len - b->used - 1;
}

static void saf_put_list(struct saf_buf *b, const char items[][SAFETY_ITEM_LEN], unsigned n)
{
    for (unsigned i = 0; i < n && i < SAFETY_MAX_ITEMS; i++)
        saf_put(b, "%s%s", i ? ", " : "", items[i]);
}

int safety_decide(const struct safety_facts *f, bool writes, bool destructive,
                  char *msg, size_t msglen)
{
    if (msg && msglen)
        msg[0] = '\0';
    if (!writes)
        return 0;
    const char *dev = f->devname[0] ? f->devname : "?";
    struct saf_buf b = {msg, msglen, 0};
    if (!destructive) {
        saf_put(&b, "refusing to write to /dev/%s without --destructive (it destroys the data "
                "on it)", dev);
        return -1;
    }
    if (!f->n_mounts && !f->n_swaps && !f->n_holders && !f->backs_root)
        return 0;

    saf_put(&b, "refusing to write to /dev/%s even with --destructive:", dev);
    const char *sep = " ";
    if (f->backs_root) {
        saf_put(&b, "%sit holds the root filesystem (%s)", sep,
                f->root_detail[0] ? f->root_detail : "/ is on it");
        sep = "; ";
    }
    if (f->n_mounts) {
        saf_put(&b, "%smounted (", sep);
        saf_put_list(&b, f->mounts, f->n_mounts);
        saf_put(&b, ")");
        sep = "; ";
    }
    if (f->n_swaps) {
        saf_put(&b, "%sactive swap (", sep);
        saf_put_list(&b, f->swaps, f->n_swaps);
        saf_put(&b, ")");
        sep = "; ";
    }
    if (f->n_holders) {
        saf_put(&b, "%sin use by device-mapper/md/LVM (", sep);
        saf_put_list(&b, f->holders, f->n_holders);
        saf_put(&b, ")");
    }
    return -1;
}
