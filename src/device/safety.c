/* safety.c — never destroy data by accident (see safety.h).
 *
 * safety_collect() builds the set of block devices whose data lives on the target disk: the
 * disk, its partitions, the other loop devices over the same backing file (and their
 * partitions), and everything stacked on them (holders, recursively: dm, md, LVM,
 * bcache...).  Each has a kernel name, a MAJ:MIN from its sysfs `dev` file and, for dm, a
 * mapper name.  Mounts (proc/self/mountinfo), swap (proc/swaps) and "/" are then matched
 * against that set.  safety_collect_file() asks the same sources about one inode: every loop
 * device's backing file, proc/swaps and proc/locks.  Everything is read below `sysroot`, so
 * tests can point at a fake tree (a file's own path, and the backing paths sysfs names, are
 * real paths). */
#include "device/safety.h"
#include "lib/util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/loop.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#define SAF_MAX_DEVS 512

enum saf_role { SAF_DISK, SAF_PART, SAF_HOLDER, SAF_ALIAS };

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
        bool seen = saf_find(s, names[k]) >= 0;
        int j = saf_add_dev(s, sysroot, names[k], SAF_HOLDER);
        const char *dm = j >= 0 ? s->d[j].dmname : "";   /* LVM: "vg-lv", as users know it */
        saf_add_item(f->holders, &f->n_holders, "%s held by %s%s%s%s", s->d[idx].name,
                     names[k], dm[0] ? " (" : "", dm, dm[0] ? ")" : "");
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

/* ---- loop devices ------------------------------------------------------------------------ */

/* A bound loop device and the file behind it. */
struct saf_loop {
    char backing[PATH_MAX];   /* loop/backing_file as sysfs shows it (" (deleted)" included) */
    bool known;               /* dev and ino are the backing file's */
    dev_t dev;
    ino_t ino;
    char why[PATH_MAX + 160]; /* !known: why not */
};

static bool saf_ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), m = strlen(tail);
    return n >= m && strcmp(s + n - m, tail) == 0;
}

/* Is sysroot/sys/class/block/<name> a loop device with a backing file?  Then which inode it is:
 * the device's own answer (LOOP_GET_STATUS64 on sysroot/dev/<name>, when that node is this
 * device), else the path sysfs gives, while it still names a file. */
static bool saf_loop_info(const char *sysroot, const char *name, struct saf_loop *out)
{
    memset(out, 0, sizeof(*out));
    char p[PATH_MAX], dir[PATH_MAX], node[PATH_MAX];
    if (!saf_path(p, sizeof(p), sysroot, "/sys/class/block/%s/loop/backing_file", name) ||
        read_text_file(p, out->backing, sizeof(out->backing)) <= 0)
        return false;

    int ioerr = ENOENT;
    unsigned maj, min;
    if (saf_path(node, sizeof(node), sysroot, "/dev/%s", name) &&
        saf_path(dir, sizeof(dir), sysroot, "/sys/class/block/%s", name) &&
        saf_read_majmin(dir, &maj, &min)) {
        int fd = open(node, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
        if (fd < 0) {
            ioerr = errno;
        } else {
            struct stat st;
            struct loop_info64 li;
            if (fstat(fd, &st) != 0 || !S_ISBLK(st.st_mode) || major(st.st_rdev) != maj ||
                minor(st.st_rdev) != min) {
                ioerr = ENODEV;
            } else if (ioctl(fd, LOOP_GET_STATUS64, &li) != 0) {
                ioerr = errno;
            } else {
                out->known = true;
                out->dev = (dev_t)li.lo_device;
                out->ino = (ino_t)li.lo_inode;
            }
            close(fd);
        }
    }
    if (out->known)
        return true;

    bool deleted = saf_ends_with(out->backing, " (deleted)");
    struct stat st;
    if (!deleted && stat(out->backing, &st) == 0) {
        out->known = true;
        out->dev = st.st_dev;
        out->ino = st.st_ino;
        return true;
    }
    snprintf(out->why, sizeof(out->why), "its backing file %s %s, and LOOP_GET_STATUS64 on "
             "%s/dev/%s failed: %s", out->backing, deleted ? "no longer has that name"
             : "does not resolve here", sysroot, name, strerror(ioerr));
    return true;
}

static void saf_add_partitions(struct saf_set *s, const char *dir, struct safety_facts *f);

/* The other loop devices over the file behind loop device `me` (the target): noted as
 * aliases and added to the set with their partitions, so that their mounts, swap and holders
 * are the target's. */
static void saf_add_aliases(struct saf_set *s, const char *sysroot, const struct saf_loop *me,
                            struct safety_facts *f)
{
    char cls[PATH_MAX];
    if (!saf_path(cls, sizeof(cls), sysroot, "/sys/class/block"))
        return;
    DIR *dh = opendir(cls);
    if (!dh)
        return;
    struct dirent *e;
    while ((e = readdir(dh))) {
        if (e->d_name[0] == '.' || strcmp(e->d_name, f->devname) == 0)
            continue;
        struct saf_loop o;
        if (!saf_loop_info(sysroot, e->d_name, &o))
            continue;
        bool same = me->known && o.known ? me->dev == o.dev && me->ino == o.ino
                                         : strcmp(me->backing, o.backing) == 0;
        if (!same)
            continue;
        saf_add_item(f->aliases, &f->n_aliases, "%s over %s", e->d_name, o.backing);
        int i = saf_add_dev(s, sysroot, e->d_name, SAF_ALIAS);
        char sub[PATH_MAX + 300], real[PATH_MAX];
        if (i >= 0 && snprintf(sub, sizeof(sub), "%s/%s", cls, e->d_name) < (int)sizeof(sub) &&
            realpath(sub, real))
            saf_add_partitions(s, real, NULL);
    }
    closedir(dh);
}

/* The partitions in sysfs directory `dir` (a disk's), added to the set (and, when f is not
 * NULL, listed in f->partitions). */
static void saf_add_partitions(struct saf_set *s, const char *dir, struct safety_facts *f)
{
    DIR *dh = opendir(dir);
    if (!dh)
        return;
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
        if (f && f->n_partitions < SAFETY_MAX_ITEMS)
            str_copy(f->partitions[f->n_partitions++], sizeof(f->partitions[0]), e->d_name);
    }
    closedir(dh);
}

/* ---- collect ----------------------------------------------------------------------------- */

/* The kernel's native NVMe multipath names a namespace's head nvme<S>n<N> and hides each path
 * to it as nvme<S>c<C>n<N> (S: subsystem, C: controller, N: head instance; nvme_set_disk_name).
 * A path given as the target: the head (its partitions, its holders) joins the set, since
 * what is mounted there is on the same namespace.  Kernels before 6.14 link the two nowhere
 * else in sysfs. */
static void saf_add_mpath_head(struct saf_set *s, const char *sysroot, struct safety_facts *f)
{
    unsigned sub, ctl, ns;
    int end = 0;
    if (sscanf(f->devname, "nvme%uc%un%u%n", &sub, &ctl, &ns, &end) != 3 ||
        f->devname[end] != '\0')
        return;
    char head[64], cls[PATH_MAX], dir[PATH_MAX];
    snprintf(head, sizeof(head), "nvme%un%u", sub, ns);
    if (!saf_path(cls, sizeof(cls), sysroot, "/sys/class/block/%s", head) || !realpath(cls, dir))
        return;
    if (saf_add_dev(s, sysroot, head, SAF_ALIAS) < 0)
        return;
    str_copy(f->mpath_head, sizeof(f->mpath_head), head);
    saf_add_partitions(s, dir, NULL);
}

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

/* The active swap areas of SYSROOT/proc/swaps (their names decoded) that match() accepts go
 * into f->swaps; a kernel without swap support has none. what: the check, for the error. */
static int saf_read_swaps(const char *sysroot, struct safety_facts *f,
                          bool (*match)(const char *name, const void *ctx), const void *ctx,
                          const char *what, char *err, size_t errlen)
{
    char path[PATH_MAX];
    if (!saf_path(path, sizeof(path), sysroot, "/proc/swaps"))
        return errf(err, errlen, "%s/proc/swaps: path too long", sysroot);
    FILE *fp = fopen(path, "re");
    if (!fp) {
        if (errno == ENOENT)
            return 0;            /* kernel without swap support */
        return errf(err, errlen, "cannot read %s: %s (needed to check that %s)", path,
                    strerror(errno), what);
    }
    char *line = NULL;
    size_t cap = 0;
    bool header = true;
    while (getline(&line, &cap, fp) > 0) {
        if (header) {   /* "Filename Type Size Used Priority" */
            header = false;
            if (strncmp(line, "Filename", 8) == 0)
                continue;
        }
        char *save = NULL;   /* the name is octal-escaped, so it has no blank */
        char *name = strtok_r(line, " \t\n", &save);
        if (!name)
            continue;
        saf_unescape(name);
        if (match(name, ctx))
            saf_add_item(f->swaps, &f->n_swaps, "%s", name);
    }
    free(line);
    fclose(fp);
    return 0;
}

/* A block device's swap: the area names a node of the device or one of its relatives. */
struct saf_swap_dev {
    struct saf_set *s;
    const char *sysroot;
};

static bool saf_swap_is_dev(const char *name, const void *ctx)
{
    const struct saf_swap_dev *c = ctx;
    return saf_find_path(c->s, c->sysroot, name) >= 0;
}

static int saf_scan_swaps(struct saf_set *s, const char *sysroot, struct safety_facts *f,
                          char *err, size_t errlen)
{
    const struct saf_swap_dev c = {s, sysroot};
    char what[128];
    snprintf(what, sizeof(what), "/dev/%s is not swap", f->devname);
    return saf_read_swaps(sysroot, f, saf_swap_is_dev, &c, what, err, errlen);
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
    str_copy(out->target, sizeof(out->target), saf_basename(dir));
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
    closedir(dh);
    saf_add_partitions(s, dir, out);

    /* A hidden NVMe multipath path: the namespace is its head's. */
    saf_add_mpath_head(s, sysroot, out);

    /* A loop device: the other loop devices over the same file hold the same data. */
    struct saf_loop me;
    if (saf_loop_info(sysroot, out->devname, &me))
        saf_add_aliases(s, sysroot, &me, out);

    /* Holders of the disk, of each partition and of each alias, recursively.  The set grows
     * while we walk; only those (the first entries) are roots of the walk. */
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

/* ---- signatures -------------------------------------------------------------------------- */

void safety_signatures(struct safety_facts *f, const struct target_info *t)
{
    str_copy(f->path, sizeof(f->path), t->path);
    f->sigs_probed = t->signatures_probed;
    f->n_sigs = t->n_signatures < TARGET_MAX_SIGNATURES ? t->n_signatures
                                                         : TARGET_MAX_SIGNATURES;
    memcpy(f->sigs, t->signatures, sizeof(f->sigs));
    str_copy(f->sig_error, sizeof(f->sig_error), t->signatures_error);
}

/* ---- file targets ------------------------------------------------------------------------ */

#define SAF_MAX_GRANTS 64
static struct {
    dev_t dev;
    ino_t ino;
} saf_grants[SAF_MAX_GRANTS];
static unsigned saf_n_grants;

void safety_file_grant(dev_t dev, ino_t ino)
{
    if (safety_file_granted(dev, ino))
        return;
    if (saf_n_grants < SAF_MAX_GRANTS) {
        saf_grants[saf_n_grants].dev = dev;
        saf_grants[saf_n_grants].ino = ino;
        saf_n_grants++;
    }
}

bool safety_file_granted(dev_t dev, ino_t ino)
{
    for (unsigned i = 0; i < saf_n_grants; i++)
        if (saf_grants[i].dev == dev && saf_grants[i].ino == ino)
            return true;
    return false;
}

/* Data below the file's size: SEEK_DATA (holes and unwritten preallocation are not data);
 * where the filesystem cannot tell, any allocated block; where the file cannot be read,
 * assume it has data. */
static bool saf_holds_data(const char *path, const struct stat *st)
{
    if (st->st_size == 0)
        return false;
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        return true;
    errno = 0;
    off_t off = lseek(fd, 0, SEEK_DATA);
    int e = errno;
    close(fd);
    if (off >= 0)
        return off < st->st_size;
    if (e == ENXIO)
        return false;          /* holes (and unwritten extents) to the end */
    return st->st_blocks > 0;
}

/* Every loop device backed by the file: sys/class/block/NAME/loop/backing_file. */
static int saf_file_loops(const char *sysroot, struct safety_facts *f, char *err,
                          size_t errlen)
{
    char cls[PATH_MAX];
    if (!saf_path(cls, sizeof(cls), sysroot, "/sys/class/block"))
        return errf(err, errlen, "%s/sys/class/block: path too long", sysroot);
    DIR *dh = opendir(cls);
    if (!dh) {
        if (errno == ENOENT)
            return 0;          /* no sysfs (a minimal container): no loop device to see */
        return errf(err, errlen, "cannot list %s: %s (needed to check that %s backs no loop "
                    "device)", cls, strerror(errno), f->path);
    }
    struct dirent *e;
    while ((e = readdir(dh))) {
        if (e->d_name[0] == '.')
            continue;
        struct saf_loop lo;
        if (!saf_loop_info(sysroot, e->d_name, &lo))
            continue;
        if (!lo.known) {
            saf_add_item(f->loops_unknown, &f->n_loops_unknown, "/dev/%s: %s", e->d_name,
                         lo.why);
            continue;
        }
        if (lo.dev != f->dev || lo.ino != f->ino)
            continue;
        /* Say where the loop device is mounted: that is what the write would corrupt. */
        struct safety_facts *lf = calloc(1, sizeof(*lf));
        char lerr[ERR_LEN];
        if (lf && safety_collect(sysroot, e->d_name, lf, lerr, sizeof(lerr)) == 0 &&
            lf->n_mounts) {
            char where[SAFETY_ITEM_LEN] = "";
            size_t used = 0;
            for (unsigned k = 0; k < lf->n_mounts && used < sizeof(where) - 1; k++) {
                int n = snprintf(where + used, sizeof(where) - used, "%s%s", k ? ", " : "",
                                 lf->mounts[k]);
                if (n < 0)
                    break;
                used += (size_t)n;
            }
            saf_add_item(f->loops, &f->n_loops, "/dev/%s, mounted (%s)", e->d_name, where);
        } else {
            saf_add_item(f->loops, &f->n_loops, "/dev/%s", e->d_name);
        }
        free(lf);
    }
    closedir(dh);
    return 0;
}

/* Is the file active swap? proc/swaps names swap files by path: the same inode. */
static bool saf_swap_is_file(const char *name, const void *ctx)
{
    const struct safety_facts *f = ctx;
    struct stat st;
    return name[0] == '/' && stat(name, &st) == 0 && st.st_dev == f->dev && st.st_ino == f->ino;
}

static int saf_file_swaps(const char *sysroot, struct safety_facts *f, char *err,
                          size_t errlen)
{
    char what[PATH_MAX + 32];
    snprintf(what, sizeof(what), "%s is not a swap file", f->path);
    return saf_read_swaps(sysroot, f, saf_swap_is_file, f, what, err, errlen);
}

/* A whole small proc file (NULL when it cannot be read). */
static char *saf_slurp(const char *path)
{
    FILE *fp = fopen(path, "re");
    if (!fp)
        return NULL;
    size_t cap = 4096, len = 0;
    char *buf = malloc(cap);
    while (buf) {
        size_t got = fread(buf + len, 1, cap - len - 1, fp);
        len += got;
        if (len < cap - 1)
            break;
        char *nb = realloc(buf, cap * 2);
        if (!nb) {
            free(buf);
            buf = NULL;
            break;
        }
        buf = nb;
        cap *= 2;
    }
    fclose(fp);
    if (buf)
        buf[len] = '\0';
    return buf;
}

unsigned safety_parse_locks(const char *text, dev_t dev, ino_t ino, struct safety_lock *out,
                            unsigned max)
{
    unsigned n = 0;
    for (const char *l = text; l && *l && n < max; ) {
        const char *nl = strchr(l, '\n');
        size_t len = nl ? (size_t)(nl - l) : strlen(l);
        char line[512];
        str_copy(line, len + 1 < sizeof(line) ? len + 1 : sizeof(line), l);
        l = nl ? nl + 1 : NULL;
        /* "7: FLOCK  ADVISORY  WRITE 4739 fe:00:10954771 0 EOF"; "7: -> FLOCK ..." waits */
        char *save = NULL, *tok[6];
        int k = 0;
        for (char *t = strtok_r(line, " \t", &save); t && k < 6; t = strtok_r(NULL, " \t", &save))
            tok[k++] = t;
        if (k < 6 || strcmp(tok[1], "->") == 0)
            continue;
        unsigned maj, min;
        unsigned long long i;
        char *end;
        long pid = strtol(tok[4], &end, 10);
        if (*end || sscanf(tok[5], "%x:%x:%llu", &maj, &min, &i) != 3)
            continue;
        if (maj != major(dev) || min != minor(dev) || i != (unsigned long long)ino)
            continue;
        out[n].pid = pid;
        str_copy(out[n].kind, sizeof(out[n].kind), tok[1]);
        str_copy(out[n].mode, sizeof(out[n].mode), tok[3]);
        n++;
    }
    return n;
}

static void saf_comm(const char *sysroot, long pid, char *comm, size_t len)
{
    char p[PATH_MAX];
    comm[0] = '\0';
    if (pid <= 0 || !saf_path(p, sizeof(p), sysroot, "/proc/%ld/comm", pid) ||
        read_text_file(p, comm, len) < 0)
        comm[0] = '\0';
}

long safety_flock_holder(const char *sysroot, dev_t dev, ino_t ino, char *comm, size_t commlen)
{
    char p[PATH_MAX];
    if (comm && commlen)
        comm[0] = '\0';
    if (!saf_path(p, sizeof(p), sysroot ? sysroot : "", "/proc/locks"))
        return 0;
    char *text = saf_slurp(p);
    if (!text)
        return 0;
    struct safety_lock lk[SAFETY_MAX_ITEMS];
    unsigned n = safety_parse_locks(text, dev, ino, lk, SAFETY_MAX_ITEMS);
    free(text);
    for (unsigned i = 0; i < n; i++) {
        if (strcmp(lk[i].kind, "FLOCK") != 0)
            continue;
        if (comm && commlen)
            saf_comm(sysroot ? sysroot : "", lk[i].pid, comm, commlen);
        return lk[i].pid > 0 ? lk[i].pid : 0;
    }
    return 0;
}

void safety_lock_message(const char *path, long pid, const char *comm, char *msg,
                         size_t msglen)
{
    if (pid > 0 && comm && comm[0] && strcmp(comm, "ptsbench") != 0)
        snprintf(msg, msglen, "%s: in use: pid %ld (%s) holds a lock on it", path, pid, comm);
    else if (pid > 0)
        snprintf(msg, msglen, "%s: in use by another ptsbench run (pid %ld)", path, pid);
    else
        snprintf(msg, msglen, "%s: in use by another ptsbench run (the file is locked)", path);
}

/* Who holds locks on the file: a flock is a ptsbench run's (target.h); any other lock or
 * lease is another program that has the file open for its own use. */
static void saf_file_locks(const char *sysroot, struct safety_facts *f)
{
    char p[PATH_MAX];
    if (!saf_path(p, sizeof(p), sysroot, "/proc/locks"))
        return;
    char *text = saf_slurp(p);
    if (!text)
        return;                  /* the lock itself is taken at open and refuses there */
    struct safety_lock lk[SAFETY_MAX_ITEMS];
    unsigned n = safety_parse_locks(text, f->dev, f->ino, lk, SAFETY_MAX_ITEMS);
    free(text);
    for (unsigned i = 0; i < n; i++) {
        if (strcmp(lk[i].kind, "FLOCK") == 0) {
            if (!f->run_locked) {
                f->run_locked = true;
                f->run_lock_pid = lk[i].pid > 0 ? lk[i].pid : 0;
                saf_comm(sysroot, lk[i].pid, f->run_lock_comm, sizeof(f->run_lock_comm));
            }
            continue;
        }
        char comm[32];
        saf_comm(sysroot, lk[i].pid, comm, sizeof(comm));
        if (lk[i].pid > 0)
            saf_add_item(f->locks, &f->n_locks, "pid %ld%s%s%s: %s %s lock", lk[i].pid,
                         comm[0] ? " (" : "", comm, comm[0] ? ")" : "", lk[i].kind,
                         lk[i].mode);
        else
            saf_add_item(f->locks, &f->n_locks, "an %s %s lock (a process that keeps the "
                         "file open, as QEMU does its disk images)", lk[i].kind, lk[i].mode);
    }
}

int safety_collect_file(const char *sysroot, const char *path, struct safety_facts *out,
                        char *err, size_t errlen)
{
    memset(out, 0, sizeof(*out));
    out->kind = SAFETY_FILE;
    if (!sysroot)
        sysroot = "";
    if (!path || !*path)
        return errf(err, errlen, "no file to check");
    str_copy(out->path, sizeof(out->path), path);
    struct stat st;
    if (stat(path, &st) != 0) {
        if (errno == ENOENT)
            return 0;            /* to be created: nothing there to destroy */
        return errf(err, errlen, "%s: %s", path, strerror(errno));
    }
    if (!S_ISREG(st.st_mode))
        return errf(err, errlen, "%s: not a regular file", path);
    out->exists = true;
    out->dev = st.st_dev;
    out->ino = st.st_ino;
    out->size = (uint64_t)st.st_size;
    out->allocated = (uint64_t)st.st_blocks * 512u;
    out->granted = safety_file_granted(st.st_dev, st.st_ino);
    out->holds_data = saf_holds_data(path, &st);
    if (saf_file_loops(sysroot, out, err, errlen) != 0)
        return -1;
    if (saf_file_swaps(sysroot, out, err, errlen) != 0)
        return -1;
    saf_file_locks(sysroot, out);
    return 0;
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

/* One reason of a refusal: "SEP WHAT (item, item)TAIL" when there are items; *sep becomes
 * "; " for the next. */
static void saf_reason(struct saf_buf *b, const char **sep, const char *what,
                       const char items[][SAFETY_ITEM_LEN], unsigned n, const char *tail)
{
    if (!n)
        return;
    saf_put(b, "%s%s (", *sep, what);
    saf_put_list(b, items, n);
    saf_put(b, ")%s", tail);
    *sep = "; ";
}

/* What a signature is, in words: types with a name of their own, else by usage. */
static const struct {
    const char *type;
    const char *words;
} saf_sig_names[] = {
    {"LVM2_member", "an LVM physical volume"},
    {"linux_raid_member", "an md RAID member"},
    {"isw_raid_member", "an Intel RAID member"},
    {"ddf_raid_member", "a DDF RAID member"},
    {"swap", "a swap area"},
    {"swsuspend", "a hibernation image"},
    {"crypto_LUKS", "a LUKS encrypted volume"},
    {"zfs_member", "a ZFS pool member"},
    {"bcache", "a bcache device"},
    {"ceph_bluestore", "a Ceph BlueStore device"},
};

static const struct {
    const char *usage;
    const char *noun;
} saf_usage_nouns[] = {
    {"filesystem", "filesystem"},
    {"partition_table", "partition table"},
    {"raid", "RAID member"},
    {"crypto", "encrypted volume"},
};

static void saf_put_signature(struct saf_buf *b, const struct target_signature *g)
{
    const char *words = NULL;
    for (size_t i = 0; i < sizeof(saf_sig_names) / sizeof(saf_sig_names[0]); i++)
        if (strcmp(saf_sig_names[i].type, g->type) == 0)
            words = saf_sig_names[i].words;
    const char *sep = " (";
    if (words) {
        saf_put(b, "%s (%s", words, g->type);
        sep = ", ";
    } else {
        const char *noun = "signature";
        for (size_t i = 0; i < sizeof(saf_usage_nouns) / sizeof(saf_usage_nouns[0]); i++)
            if (strcmp(saf_usage_nouns[i].usage, g->usage) == 0)
                noun = saf_usage_nouns[i].noun;
        const char *type = g->type[0] ? g->type : "unknown";
        saf_put(b, "%s %s %s", strchr("aeiouAEIOU", type[0]) ? "an" : "a", type, noun);
    }
    if (g->label[0]) {
        saf_put(b, "%slabel %s", sep, g->label);
        sep = ", ";
    }
    if (g->uuid[0]) {
        saf_put(b, "%sUUID %s", sep, g->uuid);
        sep = ", ";
    }
    if (strcmp(sep, ", ") == 0)
        saf_put(b, ")");
}

static void saf_put_signatures(struct saf_buf *b, const struct safety_facts *f)
{
    for (unsigned i = 0; i < f->n_sigs && i < TARGET_MAX_SIGNATURES; i++) {
        saf_put(b, "%s", i == 0 ? "" : i + 1 == f->n_sigs ? " and " : ", ");
        saf_put_signature(b, &f->sigs[i]);
    }
}

/* The target as the user gave it, then what the kernel calls it where that differs:
 * "/dev/sdb1 (a partition of sdb)", "/dev/mapper/x (dm-2)", "/dev/sdb". */
static void saf_put_target(struct saf_buf *b, const struct safety_facts *f)
{
    const char *disk = f->devname[0] ? f->devname : "?";
    const char *own = f->target[0] ? f->target : disk;
    const bool renamed = f->path[0] && strcmp(saf_basename(f->path), own) != 0;
    const bool part = strcmp(own, disk) != 0;
    if (f->path[0])
        saf_put(b, "%s", f->path);
    else
        saf_put(b, "/dev/%s", own);
    if (!renamed && !part && !f->mpath_head[0])
        return;
    saf_put(b, " (%s%s", renamed ? own : "", renamed && (part || f->mpath_head[0]) ? ", " : "");
    if (part)
        saf_put(b, "a partition of %s", disk);
    else if (f->mpath_head[0])
        saf_put(b, "a path to the NVMe multipath head %s", f->mpath_head);
    saf_put(b, ")");
}

/* Why a block device is in use (mounted, swap, held, "/", loop aliases): one clause each. */
static void saf_put_in_use(const struct safety_facts *f, struct saf_buf *b)
{
    saf_put(b, "refusing to write to ");
    saf_put_target(b, f);
    saf_put(b, " even with --destructive:");
    const char *sep = " ";
    if (f->backs_root) {
        saf_put(b, "%sit holds the root filesystem (%s)", sep,
                f->root_detail[0] ? f->root_detail : "/ is on it");
        sep = "; ";
    }
    saf_reason(b, &sep, "mounted", f->mounts, f->n_mounts, "");
    saf_reason(b, &sep, "active swap", f->swaps, f->n_swaps, "");
    saf_reason(b, &sep, "in use by device-mapper/md/LVM", f->holders, f->n_holders, "");
    saf_reason(b, &sep, "another loop device has the same backing file", f->aliases,
               f->n_aliases, ": writing one writes the other's data");
}

static int saf_decide_block(const struct safety_facts *f, const struct safety_request *rq,
                            struct saf_buf *b)
{
    if (!rq->writes)
        return 0;
    if (!rq->destructive) {
        saf_put(b, "refusing to write to ");
        saf_put_target(b, f);
        saf_put(b, " without --destructive (it destroys the data on it");
        if (f->n_sigs) {
            saf_put(b, ": ");
            saf_put_signatures(b, f);
            saf_put(b, "; add --overwrite-signatures as well to confirm that");
        }
        saf_put(b, ")");
        return -1;
    }
    if (f->n_mounts || f->n_swaps || f->n_holders || f->backs_root || f->n_aliases) {
        saf_put_in_use(f, b);
        return -1;
    }
    if (rq->overwrite_signatures)
        return 0;
    if (f->n_sigs) {
        saf_put(b, "refusing to write to ");
        saf_put_target(b, f);
        saf_put(b, ": it holds ");
        saf_put_signatures(b, f);
        saf_put(b, "; writing destroys %s: add --overwrite-signatures to confirm",
                f->n_sigs > 1 ? "them" : "it");
        return -1;
    }
    if (!f->sigs_probed) {
        saf_put(b, "refusing to write to ");
        saf_put_target(b, f);
        saf_put(b, ": cannot check it for filesystems, partition tables or other signatures "
                "(%s): add --overwrite-signatures to write anyway",
                f->sig_error[0] ? f->sig_error : "not probed");
        return -1;
    }
    return 0;
}

static int saf_decide_file(const struct safety_facts *f, const struct safety_request *rq,
                           struct saf_buf *b)
{
    const char *p = f->path[0] ? f->path : "?";
    if (f->run_locked) {
        char line[PATH_MAX + 128];
        safety_lock_message(p, f->run_lock_pid, f->run_lock_comm, line, sizeof(line));
        saf_put(b, "%s", line);
        return -1;
    }
    if (!rq->writes)
        return 0;
    if (f->n_loops || f->n_loops_unknown || f->n_swaps || f->n_locks) {
        saf_put(b, "refusing to write to %s even with --destructive:", p);
        const char *sep = " ";
        saf_reason(b, &sep, "it is the backing file of a loop device", f->loops, f->n_loops,
                   "; writing the file corrupts what is on the device (detach it first: "
                   "losetup -d)");
        saf_reason(b, &sep, "cannot tell whether it backs a loop device", f->loops_unknown,
                   f->n_loops_unknown, "");
        if (f->n_swaps) {
            saf_put(b, "%sit is an active swap file (", sep);
            saf_put_list(b, f->swaps, f->n_swaps);
            saf_put(b, "; swapoff it first)");
            sep = "; ";
        }
        saf_reason(b, &sep, "another process holds a lock on it", f->locks, f->n_locks, "");
        return -1;
    }
    if (f->exists && f->holds_data && !rq->destructive && !f->granted) {
        saf_put(b, "refusing to write to %s without --destructive: the file exists and holds "
                "data (%.1f MiB allocated, size %.1f MiB), which the run overwrites", p,
                (double)f->allocated / 1048576.0, (double)f->size / 1048576.0);
        return -1;
    }
    return 0;
}

int safety_decide(const struct safety_facts *f, const struct safety_request *rq, char *msg,
                  size_t msglen)
{
    if (msg && msglen)
        msg[0] = '\0';
    struct saf_buf b = {msg, msglen, 0};
    if (f->kind == SAFETY_FILE)
        return saf_decide_file(f, rq, &b);
    return saf_decide_block(f, rq, &b);
}
