/* target.c — probe and open the thing being measured (see target.h).
 *
 * Probing never writes: block devices are opened read-only (without O_EXCL) for the size and
 * sector ioctls and by libblkid for their signatures, everything else comes from stat/statx
 * and sysfs. */
#include "device/safety.h"
#include "device/target.h"
#include "lib/util.h"

#include <blkid/blkid.h>
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/vfs.h>
#include <unistd.h>

/* statx(STATX_DIOALIGN) arrived with Linux 6.1; the struct fields come with the constant. */
#ifdef STATX_DIOALIGN
#define TGT_HAVE_DIOALIGN_FIELDS 1
#else
#define STATX_DIOALIGN 0x00002000U
#define TGT_HAVE_DIOALIGN_FIELDS 0
#endif

const char *target_kind_name(enum target_kind k)
{
    switch (k) {
    case TARGET_FILE: return "file";
    case TARGET_BLOCK: return "block";
    case TARGET_SIM: return "simulated";
    case TARGET_REMOTE: return "remote";
    }
    return "unknown";
}

/* ---- small sysfs helpers ---------------------------------------------------------------- */

/* Read dir/name into buf (trimmed). Returns true when it exists and is not empty. */
static bool tgt_read_attr(const char *dir, const char *name, char *buf, size_t len)
{
    char path[PATH_MAX];
    if (snprintf(path, sizeof(path), "%s/%s", dir, name) >= (int)sizeof(path))
        return false;
    char tmp[512];
    if (read_text_file(path, tmp, sizeof(tmp)) < 0)
        return false;
    const char *v = str_trim(tmp);
    if (!v[0])
        return false;
    str_copy(buf, len, v);
    return true;
}

static bool tgt_read_u64(const char *dir, const char *name, uint64_t *v)
{
    char buf[64];
    if (!tgt_read_attr(dir, name, buf, sizeof(buf)))
        return false;
    char *end;
    errno = 0;
    unsigned long long x = strtoull(buf, &end, 10);
    if (errno || end == buf)
        return false;
    *v = x;
    return true;
}

static bool tgt_exists(const char *dir, const char *name)
{
    char path[PATH_MAX];
    if (snprintf(path, sizeof(path), "%s/%s", dir, name) >= (int)sizeof(path))
        return false;
    return access(path, F_OK) == 0;
}

static const char *tgt_basename(const char *p)
{
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

/* sysfs directory of a block device number: `self` is the device's own directory (a partition
 * for partitions), `disk` the whole disk's.  False when the device is not a block device known
 * to sysfs (e.g. the anonymous device of tmpfs, overlayfs or btrfs). */
static bool tgt_sysfs_dirs(dev_t dev, char *self, char *disk)
{
    char link[64], real[PATH_MAX];
    snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", major(dev), minor(dev));
    if (!realpath(link, real))
        return false;
    str_copy(self, PATH_MAX, real);
    if (tgt_exists(real, "partition")) {
        char *slash = strrchr(real, '/');
        if (slash && slash != real)
            *slash = '\0';
    }
    str_copy(disk, PATH_MAX, real);
    return true;
}

bool target_vpd80_serial(const unsigned char *page, size_t n, char *out, size_t len)
{
    if (len)
        out[0] = '\0';
    if (n < 4 || page[1] != 0x80 || !len)
        return false;
    size_t plen = ((size_t)page[2] << 8) | page[3];
    if (4 + plen > n)
        return false;
    const unsigned char *s = page + 4, *e = page + 4 + plen;
    while (s < e && (*s == ' ' || *s == '\0'))
        s++;
    while (e > s && (e[-1] == ' ' || e[-1] == '\0'))
        e--;
    size_t k = 0;
    for (; s < e && k + 1 < len; s++)
        out[k++] = (*s >= 0x20 && *s < 0x7f) ? (char)*s : '?';
    out[k] = '\0';
    return k > 0;
}

/* A SCSI or SATA disk's serial from its VPD page 0x80 (sysfs device/vpd_pg80). */
static void tgt_read_vpd80(const char *dev, char *serial, size_t len)
{
    char path[PATH_MAX];
    if (snprintf(path, sizeof(path), "%s/vpd_pg80", dev) >= (int)sizeof(path))
        return;
    FILE *f = fopen(path, "rb");
    if (!f)
        return;
    unsigned char page[260];
    size_t n = fread(page, 1, sizeof(page), f);
    fclose(f);
    target_vpd80_serial(page, n, serial, len);
}

/* Model, serial, firmware, vendor, rotational and write cache of the disk in `disk`. */
static void tgt_read_identity(const char *disk, struct target_info *t)
{
    char dev[PATH_MAX + 8];
    snprintf(dev, sizeof(dev), "%s/device", disk);

    tgt_read_attr(dev, "model", t->model, sizeof(t->model));
    if (!tgt_read_attr(dev, "serial", t->serial, sizeof(t->serial)) &&
        !tgt_read_attr(disk, "serial", t->serial, sizeof(t->serial)))   /* virtio-blk */
        tgt_read_vpd80(dev, t->serial, sizeof(t->serial));              /* SCSI, SATA */
    if (!tgt_read_attr(dev, "firmware_rev", t->firmware, sizeof(t->firmware)))
        tgt_read_attr(dev, "rev", t->firmware, sizeof(t->firmware));    /* SCSI/SATA */
    tgt_read_attr(dev, "vendor", t->vendor, sizeof(t->vendor));

    /* NVMe namespace: the identity lives on the controller (nvmeX), which device/ usually
     * points to; with native multipath it may point to the subsystem instead, so also try
     * /sys/class/nvme/nvmeX by name. */
    const char *name = tgt_basename(disk);
    unsigned ctrl, ns;
    char tail;
    if (sscanf(name, "nvme%un%u%c", &ctrl, &ns, &tail) == 2) {
        char cdir[64];
        snprintf(cdir, sizeof(cdir), "/sys/class/nvme/nvme%u", ctrl);
        if (!t->model[0])
            tgt_read_attr(cdir, "model", t->model, sizeof(t->model));
        if (!t->serial[0])
            tgt_read_attr(cdir, "serial", t->serial, sizeof(t->serial));
        if (!t->firmware[0])
            tgt_read_attr(cdir, "firmware_rev", t->firmware, sizeof(t->firmware));
    }

    char q[PATH_MAX + 8], buf[64];
    snprintf(q, sizeof(q), "%s/queue", disk);
    t->rotational = tgt_read_attr(q, "rotational", buf, sizeof(buf)) && strcmp(buf, "1") == 0;
    t->write_cache = tgt_read_attr(q, "write_cache", buf, sizeof(buf)) &&
                     strcmp(buf, "write back") == 0;
}

/* Logical/physical block size of the disk in sysfs (0 when unknown). */
static void tgt_queue_sizes(const char *disk, uint32_t *logical, uint32_t *physical)
{
    char q[PATH_MAX + 8];
    uint64_t v;
    snprintf(q, sizeof(q), "%s/queue", disk);
    *logical = tgt_read_u64(q, "logical_block_size", &v) ? (uint32_t)v : 0;
    *physical = tgt_read_u64(q, "physical_block_size", &v) ? (uint32_t)v : 0;
}

/* Sector sizes for a file or directory on a filesystem with device number `fsdev`:
 * statx STATX_DIOALIGN (regular files on filesystems that report it), else the backing
 * device's queue/logical_block_size, else 512.  Also fills devname and identity. */
static void tgt_fs_geometry(const char *path, dev_t fsdev, struct target_info *t)
{
    uint32_t logical = 0, physical = 0, mem = 0;
    char self[PATH_MAX], disk[PATH_MAX];

    struct statx stx;
    memset(&stx, 0, sizeof(stx));
    if (statx(AT_FDCWD, path, AT_STATX_SYNC_AS_STAT, STATX_BASIC_STATS | STATX_DIOALIGN,
              &stx) == 0 && (stx.stx_mask & STATX_DIOALIGN)) {
#if TGT_HAVE_DIOALIGN_FIELDS
        logical = stx.stx_dio_offset_align;
        mem = stx.stx_dio_mem_align;
#endif
    }

    t->rdev = fsdev;
    if (tgt_sysfs_dirs(fsdev, self, disk)) {
        str_copy(t->devname, sizeof(t->devname), tgt_basename(self));
        uint32_t ql, qp;
        tgt_queue_sizes(disk, &ql, &qp);
        if (!logical)
            logical = ql;
        physical = qp;
        tgt_read_identity(disk, t);
    }
    if (logical < 512)
        logical = 512;
    if (physical < logical)
        physical = logical;
    if (mem < 512)
        mem = 512;
    t->logical_sector = logical;
    t->physical_sector = physical;
    t->mem_align = mem;
}

/* ---- signatures (libblkid) --------------------------------------------------------------- */

static void tgt_blkid_value(blkid_probe pr, const char *name, char *buf, size_t len)
{
    const char *v = NULL;
    size_t n = 0;
    if (blkid_probe_lookup_value(pr, name, &v, &n) == 0 && v)
        str_copy(buf, len, v);
}

static uint64_t tgt_blkid_u64(blkid_probe pr, const char *name)
{
    char buf[32] = "";
    tgt_blkid_value(pr, name, buf, sizeof(buf));
    return strtoull(buf, NULL, 10);
}

/* Low-level probing as wipefs does it: every superblock and partition-table signature in
 * turn (blkid_do_probe), not only the one a high-level probe would settle on. */
int target_probe_signatures(const char *path, struct target_signature *out, unsigned max,
                            unsigned *n, char *err, size_t errlen)
{
    *n = 0;
    errno = 0;
    blkid_probe pr = blkid_new_probe_from_filename(path);
    if (!pr)
        return errf(err, errlen, "libblkid cannot open %s: %s", path,
                    errno ? strerror(errno) : "unknown error");
    blkid_probe_enable_superblocks(pr, 1);
    blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE | BLKID_SUBLKS_USAGE |
                                      BLKID_SUBLKS_LABEL | BLKID_SUBLKS_UUID |
                                      BLKID_SUBLKS_VERSION | BLKID_SUBLKS_MAGIC |
                                      BLKID_SUBLKS_BADCSUM);
    blkid_probe_enable_partitions(pr, 1);
    blkid_probe_set_partitions_flags(pr, BLKID_PARTS_MAGIC);
    int rc;
    while ((rc = blkid_do_probe(pr)) == 0) {
        if (*n >= max)
            continue;                     /* keep probing to the end; count what fits */
        struct target_signature *g = &out[*n];
        memset(g, 0, sizeof(*g));
        tgt_blkid_value(pr, "TYPE", g->type, sizeof(g->type));
        if (g->type[0]) {
            tgt_blkid_value(pr, "USAGE", g->usage, sizeof(g->usage));
            tgt_blkid_value(pr, "LABEL", g->label, sizeof(g->label));
            tgt_blkid_value(pr, "UUID", g->uuid, sizeof(g->uuid));
            tgt_blkid_value(pr, "VERSION", g->version, sizeof(g->version));
            g->offset = tgt_blkid_u64(pr, "SBMAGIC_OFFSET");
        } else {
            tgt_blkid_value(pr, "PTTYPE", g->type, sizeof(g->type));
            if (!g->type[0])
                continue;                 /* neither (a chain without a result) */
            str_copy(g->usage, sizeof(g->usage), "partition_table");
            tgt_blkid_value(pr, "PTUUID", g->uuid, sizeof(g->uuid));
            g->offset = tgt_blkid_u64(pr, "PTMAGIC_OFFSET");
        }
        (*n)++;
    }
    blkid_free_probe(pr);
    if (rc < 0)
        return errf(err, errlen, "libblkid could not probe %s to the end", path);
    return 0;
}

/* ---- how a block device is attached ------------------------------------------------------ */

/* "0000:01:00.0": a PCI function's directory name */
static bool tgt_is_pci_name(const char *n)
{
    unsigned dom, bus, slot, fn;
    char tail;
    return sscanf(n, "%x:%x:%x.%x%c", &dom, &bus, &slot, &fn, &tail) == 4 && strlen(n) == 12;
}

/* The name of the link dir/name points to ("nvme" for .../drivers/nvme); false when none. */
static bool tgt_link_name(const char *dir, const char *name, char *buf, size_t len)
{
    char path[PATH_MAX], target[PATH_MAX];
    if (snprintf(path, sizeof(path), "%s/%s", dir, name) >= (int)sizeof(path))
        return false;
    ssize_t n = readlink(path, target, sizeof(target) - 1);
    if (n <= 0)
        return false;
    target[n] = '\0';
    str_copy(buf, len, tgt_basename(target));
    return buf[0] != '\0';
}

/* A sysfs value that means nothing: "Unknown", "Unknown speed", "255" lanes. */
static bool tgt_unknown(const char *v)
{
    return !strncasecmp(v, "unknown", 7);
}

static int tgt_read_int(const char *dir, const char *name, int lo, int hi)
{
    char buf[32];
    if (!tgt_read_attr(dir, name, buf, sizeof(buf)))
        return -1;
    char *end;
    long v = strtol(buf, &end, 10);
    return end == buf || *end || v < lo || v > hi ? -1 : (int)v;
}

static const char *tgt_interface(const char *name, const char *devpath, const char *driver)
{
    static const struct {
        const char *prefix, *iface;
    } by_name[] = {{"nvme", "nvme"}, {"zram", "zram"}, {"loop", "loop"}, {"vd", "virtio"},
                   {"mmcblk", "mmc"}, {"nbd", "nbd"},  {"md", "md"},     {"dm-", "dm"}};
    for (size_t i = 0; i < sizeof(by_name) / sizeof(by_name[0]); i++)
        if (!strncmp(name, by_name[i].prefix, strlen(by_name[i].prefix)))
            return by_name[i].iface;
    if (!strcmp(driver, "virtio_blk"))
        return "virtio";
    if (strstr(devpath, "/usb"))
        return "usb";
    if (strstr(devpath, "/ata"))
        return "sata";
    if (strstr(devpath, "/end_device-") || strstr(devpath, "/sas_"))
        return "sas";
    if (!strncmp(name, "sd", 2))
        return "scsi";
    return "";
}

/* Nothing known but the interface ("" none). */
static void tgt_attach_none(struct target_attach *a, const char *iface)
{
    memset(a, 0, sizeof(*a));
    a->link_width = a->max_link_width = a->numa_node = a->path_used = -1;
    str_copy(a->interface, sizeof(a->interface), iface);
}

/* ---- NVMe multipath heads ---------------------------------------------------------------- */

static int tgt_cmp_uint(const void *a, const void *b)
{
    unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
    return x < y ? -1 : x > y;
}

/* The controllers of the subsystem in directory subsys (its links nvmeM), ascending. */
static unsigned tgt_subsys_controllers(const char *subsys, unsigned *ctrl, unsigned max)
{
    DIR *d = opendir(subsys);
    if (!d)
        return 0;
    unsigned n = 0;
    struct dirent *e;
    while ((e = readdir(d)) && n < max) {
        unsigned m;
        char tail;
        if (sscanf(e->d_name, "nvme%u%c", &m, &tail) == 1)
            ctrl[n++] = m;
    }
    closedir(d);
    qsort(ctrl, n, sizeof(ctrl[0]), tgt_cmp_uint);
    return n;
}

/* Path nvmeScMnH's facts: its controller's state (subsys/nvmeM/state), the path disk's ANA state
 * and its attachment. */
static void tgt_head_path(const char *root, const char *subsys, unsigned s, unsigned m,
                          unsigned h, struct target_path *p)
{
    char dir[PATH_MAX + 32];
    snprintf(p->name, sizeof(p->name), "nvme%uc%un%u", s, m, h);
    snprintf(p->controller, sizeof(p->controller), "nvme%u", m);
    snprintf(dir, sizeof(dir), "%s/%s", subsys, p->controller);
    tgt_read_attr(dir, "state", p->state, sizeof(p->state));
    snprintf(dir, sizeof(dir), "%s/sys/block/%s", root, p->name);
    tgt_read_attr(dir, "ana_state", p->ana_state, sizeof(p->ana_state));
    struct target_attach a;
    target_attach_at(root, p->name, &a);
    str_copy(p->pci_address, sizeof(p->pci_address), a.pci_address);
    p->numa_node = a.numa_node;
}

/* The path whose attachment speaks for the head (target.h). */
static int tgt_head_choose(const struct target_attach *a)
{
    for (unsigned i = 0; i < a->n_paths; i++)
        if (!strcmp(a->paths[i].state, "live") &&
            (!a->paths[i].ana_state[0] || !strcmp(a->paths[i].ana_state, "optimized")))
            return (int)i;
    for (unsigned i = 0; i < a->n_paths; i++)
        if (!strcmp(a->paths[i].state, "live"))
            return (int)i;
    return a->n_paths ? 0 : -1;
}

/* Head NAME (nvmeSnH) whose device is the subsystem directory subsys: its paths, and the
 * chosen path's driver, PCIe, NUMA node and firmware into out. */
static void tgt_attach_head(const char *root, const char *name, const char *subsys,
                            struct target_attach *out)
{
    unsigned s, h, ctrl[TARGET_MAX_PATHS * 4];
    char tail;
    out->nvme_head = true;
    tgt_read_attr(subsys, "iopolicy", out->iopolicy, sizeof(out->iopolicy));
    if (sscanf(name, "nvme%un%u%c", &s, &h, &tail) != 2)
        return;
    unsigned nc = tgt_subsys_controllers(subsys, ctrl, sizeof(ctrl) / sizeof(ctrl[0]));
    for (unsigned i = 0; i < nc && out->n_paths < TARGET_MAX_PATHS; i++) {
        char disk[PATH_MAX];
        snprintf(disk, sizeof(disk), "%s/sys/block/nvme%uc%un%u", root, s, ctrl[i], h);
        if (access(disk, F_OK) == 0)   /* this controller reaches the namespace */
            tgt_head_path(root, subsys, s, ctrl[i], h, &out->paths[out->n_paths++]);
    }
    out->path_used = tgt_head_choose(out);
    if (out->path_used < 0)
        return;
    struct target_attach a;
    target_attach_at(root, out->paths[out->path_used].name, &a);
    str_copy(out->driver, sizeof(out->driver), a.driver);
    str_copy(out->pci_address, sizeof(out->pci_address), a.pci_address);
    str_copy(out->link_speed, sizeof(out->link_speed), a.link_speed);
    str_copy(out->max_link_speed, sizeof(out->max_link_speed), a.max_link_speed);
    out->link_width = a.link_width;
    out->max_link_width = a.max_link_width;
    out->numa_node = a.numa_node;
    if (a.firmware[0])
        str_copy(out->firmware, sizeof(out->firmware), a.firmware);
}

static bool tgt_is_nvme_subsys(const char *real)
{
    return !strncmp(tgt_basename(real), "nvme-subsys", 11);
}

void target_attach_at(const char *root, const char *name, struct target_attach *out)
{
    tgt_attach_none(out, "");
    char blk[PATH_MAX], dev[PATH_MAX + 8], real[PATH_MAX], top[PATH_MAX];
    if (snprintf(blk, sizeof(blk), "%s/sys/block/%s", root, name) >= (int)sizeof(blk))
        return;
    snprintf(dev, sizeof(dev), "%s/device", blk);
    if (!realpath(dev, real))
        real[0] = '\0';
    if (real[0] && tgt_is_nvme_subsys(real)) {
        str_copy(out->interface, sizeof(out->interface), "nvme");
        tgt_read_attr(real, "firmware_rev", out->firmware, sizeof(out->firmware));
        tgt_attach_head(root, name, real, out);
        return;
    }
    /* the driver: the device's own, else (an NVMe controller) its parent's */
    if (!tgt_link_name(dev, "driver", out->driver, sizeof(out->driver))) {
        char parent[PATH_MAX + 16];
        snprintf(parent, sizeof(parent), "%s/device", dev);
        tgt_link_name(parent, "driver", out->driver, sizeof(out->driver));
    }
    str_copy(out->interface, sizeof(out->interface), tgt_interface(name, real, out->driver));
    if (!tgt_read_attr(dev, "firmware_rev", out->firmware, sizeof(out->firmware)))
        tgt_read_attr(dev, "rev", out->firmware, sizeof(out->firmware));
    out->numa_node = tgt_read_int(dev, "numa_node", 0, 1 << 20);
    if (!real[0])
        return;
    /* up to the first PCI function, not above ROOT/sys/devices */
    snprintf(top, sizeof(top), "%s/sys/devices", root);
    char topreal[PATH_MAX];
    if (!realpath(top, topreal))
        str_copy(topreal, sizeof(topreal), top);
    size_t toplen = strlen(topreal);
    char walk[PATH_MAX];
    str_copy(walk, sizeof(walk), real);
    while (strlen(walk) > toplen && !strncmp(walk, topreal, toplen)) {
        if (tgt_is_pci_name(tgt_basename(walk))) {
            str_copy(out->pci_address, sizeof(out->pci_address), tgt_basename(walk));
            char v[64];
            if (tgt_read_attr(walk, "current_link_speed", v, sizeof(v)) && !tgt_unknown(v))
                str_copy(out->link_speed, sizeof(out->link_speed), v);
            if (tgt_read_attr(walk, "max_link_speed", v, sizeof(v)) && !tgt_unknown(v))
                str_copy(out->max_link_speed, sizeof(out->max_link_speed), v);
            out->link_width = tgt_read_int(walk, "current_link_width", 1, 64);
            out->max_link_width = tgt_read_int(walk, "max_link_width", 1, 64);
            int numa = tgt_read_int(walk, "numa_node", 0, 1 << 20);
            if (numa >= 0)
                out->numa_node = numa;
            if (!out->driver[0])
                tgt_link_name(walk, "driver", out->driver, sizeof(out->driver));
            break;
        }
        char *slash = strrchr(walk, '/');
        if (!slash || slash == walk)
            break;
        *slash = '\0';
    }
}

/* ---- probing ----------------------------------------------------------------------------- */

static int tgt_probe_block(const char *path, const struct stat *st, uint64_t create_size,
                           struct target_info *t, char *err, size_t errlen)
{
    t->kind = TARGET_BLOCK;
    t->exists = true;
    t->rdev = st->st_rdev;
    tgt_attach_none(&t->attach, "");
    if (create_size)
        return errf(err, errlen, "%s: a size can only be given for a file target, "
                    "not for a block device", path);

    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return errf(err, errlen, "%s: cannot open for probing: %s%s", path, strerror(errno),
                    errno == EACCES || errno == EPERM ? " (are you root?)" : "");
    uint64_t size = 0;
    int lss = 0;
    unsigned int pss = 0;
    if (ioctl(fd, BLKGETSIZE64, &size) != 0) {
        int e = errno;
        close(fd);
        return errf(err, errlen, "%s: BLKGETSIZE64 failed: %s", path, strerror(e));
    }
    if (ioctl(fd, BLKSSZGET, &lss) != 0 || lss <= 0)
        lss = 512;
    if (ioctl(fd, BLKPBSZGET, &pss) != 0 || pss == 0)
        pss = (unsigned int)lss;
    int alignoff = 0;
    if (ioctl(fd, BLKALIGNOFF, &alignoff) != 0 || alignoff < 0)
        alignoff = 0;
    close(fd);

    t->capacity = size;
    t->current_size = size;
    t->logical_sector = (uint32_t)lss;
    t->physical_sector = pss < (unsigned int)lss ? (uint32_t)lss : pss;
    t->alignment_offset = (uint32_t)alignoff;
    t->mem_align = t->logical_sector < 512 ? 512 : t->logical_sector;

    char self[PATH_MAX], disk[PATH_MAX];
    if (tgt_sysfs_dirs(st->st_rdev, self, disk)) {
        str_copy(t->devname, sizeof(t->devname), tgt_basename(self));
        uint64_t v;
        if (tgt_read_u64(self, "alignment_offset", &v))
            t->alignment_offset = (uint32_t)v;
        tgt_read_identity(disk, t);
        target_attach_at("", tgt_basename(disk), &t->attach);
        zoned_read_at("", tgt_basename(disk), &t->zoned);
        if (!t->firmware[0])
            str_copy(t->firmware, sizeof(t->firmware), t->attach.firmware);
    } else {
        /* No sysfs (unusual container): fall back to the node's own name. */
        str_copy(t->devname, sizeof(t->devname), tgt_basename(path));
    }

    if (size == 0)
        return errf(err, errlen, "%s: the block device has size 0%s", path,
                    strncmp(t->devname, "zram", 4) == 0 ? " (zram not configured: set its "
                    "disksize first)" : " (no medium?)");

    /* What is on it (safety.h decides; the results record it). */
    t->signatures_probed =
        target_probe_signatures(path, t->signatures, TARGET_MAX_SIGNATURES, &t->n_signatures,
                                t->signatures_error, sizeof(t->signatures_error)) == 0;
    return 0;
}

/* statfs f_type of the filesystems that keep files in memory (linux/magic.h); devtmpfs
 * reports tmpfs's. */
#define TGT_TMPFS_MAGIC 0x01021994
#define TGT_RAMFS_MAGIC 0x858458f6
#define TGT_PROC_MAGIC 0x9fa0
#define TGT_SYSFS_MAGIC 0x62656572

/* The name of the memory filesystem holding path ("tmpfs", "ramfs") into out, "" for any other
 * (or when statfs fails: then the file's own open says why). */
static void tgt_memory_fs(const char *path, char *out, size_t len)
{
    struct statfs sf;
    out[0] = '\0';
    if (statfs(path, &sf) != 0)
        return;
    if ((unsigned long)sf.f_type == TGT_TMPFS_MAGIC)
        str_copy(out, len, "tmpfs");
    else if ((unsigned long)sf.f_type == TGT_RAMFS_MAGIC)
        str_copy(out, len, "ramfs");
}

/* path, or its nearest existing ancestor (for a path to be created), lies on the filesystem
 * mounted at /dev (devtmpfs: device nodes in memory); /dev/shm, a mount of its own, does not.
 * Where /dev is no mount of its own (a bare directory of the root filesystem in some
 * containers), only a path written under /dev/ is. */
static bool tgt_on_dev_fs(const char *path)
{
    struct stat dev, root, st;
    if (stat("/dev", &dev) != 0 || stat("/", &root) != 0)
        return false;
    if (dev.st_dev == root.st_dev && strncmp(path, "/dev/", 5) != 0)
        return false;
    char p[PATH_MAX];
    str_copy(p, sizeof(p), path);
    while (stat(p, &st) != 0) {
        char *slash = strrchr(p, '/');
        if (!slash && strcmp(p, ".") == 0)
            return false;                  /* not even the working directory */
        if (!slash) {
            str_copy(p, sizeof(p), ".");   /* relative: the working directory's */
            continue;
        }
        slash[slash == p] = '\0';           /* "/x" -> "/" */
    }
    return st.st_dev == dev.st_dev;
}

static int tgt_probe_missing(const char *path, uint64_t create_size, struct target_info *t,
                             char *err, size_t errlen)
{
    if (tgt_on_dev_fs(path))      /* a typo'd device: never a file in /dev (memory) */
        return errf(err, errlen, "%s: no such device", path);
    if (!create_size)
        return errf(err, errlen, "%s: no such file or device (give a size to create a "
                    "file target)", path);

    char dir[PATH_MAX];
    str_copy(dir, sizeof(dir), path);
    char *slash = strrchr(dir, '/');
    if (!slash)
        snprintf(dir, sizeof(dir), ".");
    else if (slash == dir)
        dir[1] = '\0';
    else
        *slash = '\0';

    struct stat dst;
    if (stat(dir, &dst) != 0)
        return errf(err, errlen, "%s: cannot create it: directory %s: %s", path, dir,
                    strerror(errno));
    if (!S_ISDIR(dst.st_mode))
        return errf(err, errlen, "%s: cannot create it: %s is not a directory", path, dir);
    struct statfs sf;
    if (statfs(dir, &sf) == 0 && ((unsigned long)sf.f_type == TGT_PROC_MAGIC ||
                                  (unsigned long)sf.f_type == TGT_SYSFS_MAGIC))
        return errf(err, errlen, "%s: cannot create it: %s is on the kernel's %s filesystem",
                    path, dir, (unsigned long)sf.f_type == TGT_PROC_MAGIC ? "proc" : "sysfs");
    if (access(dir, W_OK | X_OK) != 0)
        return errf(err, errlen, "%s: cannot create it in %s: %s", path, dir, strerror(errno));

    t->kind = TARGET_FILE;
    t->exists = false;
    tgt_attach_none(&t->attach, "file");
    t->capacity = create_size;
    t->current_size = 0;
    tgt_fs_geometry(dir, dst.st_dev, t);
    tgt_memory_fs(dir, t->memory_fs, sizeof(t->memory_fs));
    return 0;
}

int target_probe(const char *path, uint64_t create_size, struct target_info *out,
                 char *err, size_t errlen)
{
    memset(out, 0, sizeof(*out));
    if (!path || !*path)
        return errf(err, errlen, "no target path given");
    if (strlen(path) >= sizeof(out->path))
        return errf(err, errlen, "%.64s...: path too long", path);
    str_copy(out->path, sizeof(out->path), path);

    struct stat st;
    if (stat(path, &st) != 0) {
        if (errno == ENOENT)
            return tgt_probe_missing(path, create_size, out, err, errlen);
        return errf(err, errlen, "%s: %s", path, strerror(errno));
    }

    if (S_ISBLK(st.st_mode))
        return tgt_probe_block(path, &st, create_size, out, err, errlen);
    if (!S_ISREG(st.st_mode))
        return errf(err, errlen, "%s: not a block device or a regular file", path);
    if (tgt_on_dev_fs(path))
        return errf(err, errlen, "%s: a file in /dev (devtmpfs: memory, not a drive): only a "
                    "block device is measured there", path);

    out->kind = TARGET_FILE;
    out->exists = true;
    tgt_attach_none(&out->attach, "file");
    out->current_size = (uint64_t)st.st_size;
    out->capacity = create_size ? create_size : (uint64_t)st.st_size;
    tgt_fs_geometry(path, st.st_dev, out);
    tgt_memory_fs(path, out->memory_fs, sizeof(out->memory_fs));
    if (out->capacity == 0)
        return errf(err, errlen, "%s: the file is empty (give a size to extend it)", path);
    return 0;
}

/* ---- creating and opening ------------------------------------------------------------ */

/* The run lock of a file target (target.h) on fd.  0, or -1 with "PATH: in use by another
 * ptsbench run (pid N)" when another descriptor holds it.  A filesystem without flock
 * support is used unlocked. */
static int tgt_lock_file(int fd, const char *path, char *err, size_t errlen)
{
    if (flock(fd, LOCK_EX | LOCK_NB) == 0)
        return 0;
    int e = errno;
    if (e != EWOULDBLOCK)
        return 0;            /* ENOLCK, EOPNOTSUPP, EINVAL: no locks here */
    struct stat st;
    long pid = 0;
    char comm[32] = "";
    if (fstat(fd, &st) == 0)
        pid = safety_flock_holder("", st.st_dev, st.st_ino, comm, sizeof(comm));
    safety_lock_message(path, pid, comm, err, errlen);
    errno = EBUSY;
    return -1;
}

int target_create_file(struct target_info *t, char *err, size_t errlen)
{
    if (t->kind != TARGET_FILE)
        return errf(err, errlen, "%s: only file targets can be created", t->path);
    if (t->capacity == 0)
        return errf(err, errlen, "%s: no size to create the file with", t->path);
    if (t->capacity > (uint64_t)INT64_MAX)
        return errf(err, errlen, "%s: size too large", t->path);

    int fd = open(t->path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0)
        return errf(err, errlen, "%s: cannot create: %s", t->path, strerror(errno));
    if (tgt_lock_file(fd, t->path, err, errlen) != 0) {
        close(fd);
        return -1;
    }

    int rc = fallocate(fd, 0, 0, (off_t)t->capacity);
    if (rc != 0 && (errno == EOPNOTSUPP || errno == ENOSYS)) {
        struct stat st;
        rc = 0;
        if (fstat(fd, &st) == 0 && (uint64_t)st.st_size < t->capacity)
            rc = ftruncate(fd, (off_t)t->capacity);
    }
    if (rc != 0) {
        int e = errno;
        close(fd);
        if (e == ENOSPC || e == EFBIG)
            return errf(err, errlen, "%s: cannot make the file %llu bytes: %s", t->path,
                        (unsigned long long)t->capacity, strerror(e));
        return errf(err, errlen, "%s: cannot allocate %llu bytes: %s", t->path,
                    (unsigned long long)t->capacity, strerror(e));
    }
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int e = errno;
        close(fd);
        return errf(err, errlen, "%s: %s", t->path, strerror(e));
    }
    if (close(fd) != 0)
        return errf(err, errlen, "%s: %s", t->path, strerror(errno));

    /* What is in it now is ours: later runs of this process may write it (safety.h). */
    safety_file_grant(st.st_dev, st.st_ino);
    t->exists = true;
    t->current_size = (uint64_t)st.st_size;
    /* Now that the file exists the filesystem can tell its own O_DIRECT alignment. */
    char devname[sizeof(t->devname)];
    memcpy(devname, t->devname, sizeof(devname));
    tgt_fs_geometry(t->path, st.st_dev, t);
    if (!t->devname[0])
        memcpy(t->devname, devname, sizeof(devname));
    return 0;
}

/* A process killed while it had the target in an io_uring ring lets go of it only when the
 * kernel has torn the ring down, a moment after the process is gone: a device opened O_EXCL, or
 * a file's lock, can be busy for that moment (a --resume right after a SIGKILL meets it). The
 * safety check before found it free of mounts, swap and holders, so EBUSY is retried for up to
 * TGT_BUSY_RETRY_MS before it is reported. */
#define TGT_BUSY_RETRY_MS 3000

static int tgt_open_once(const struct target_info *t, int *flags, char *err, size_t errlen)
{
    int fd = open(t->path, *flags);
    /* O_NOATIME is refused (EPERM) to a caller who neither owns the target nor has CAP_FOWNER
     * (open(2)): then the target is opened without it, also on the retries. */
    if (fd < 0 && errno == EPERM && (*flags & O_NOATIME)) {
        *flags &= ~O_NOATIME;
        fd = open(t->path, *flags);
    }
    if (fd >= 0 && t->kind == TARGET_FILE && tgt_lock_file(fd, t->path, err, errlen) != 0) {
        close(fd);
        errno = EBUSY;
        return -1;
    }
    return fd;
}

int target_open(const struct target_info *t, bool writes, char *err, size_t errlen)
{
    /* O_NOATIME: a read does not update the target's access time, which every read checks
     * (touch_atime, in the thread or io-wq worker that issues it: 0.7-0.9 % of the CPU samples
     * of 4 KiB reads on zram) and which on a file under a strictatime mount would dirty its
     * inode, metadata writes to the disk under test.  fio opens its files the same way. */
    int flags = (t->buffered ? 0 : O_DIRECT) | O_CLOEXEC | O_NOATIME |
                (writes ? O_RDWR : O_RDONLY);
    if (t->kind == TARGET_BLOCK)
        flags |= O_EXCL;
    int fd = tgt_open_once(t, &flags, err, errlen);
    for (int waited = 0; fd < 0 && errno == EBUSY && waited < TGT_BUSY_RETRY_MS; waited += 100) {
        usleep(100000);
        fd = tgt_open_once(t, &flags, err, errlen);
    }
    if (fd >= 0)
        return fd;
    if (t->kind == TARGET_FILE && errno == EBUSY)
        return -1;   /* the lock's message is in err */

    int e = errno;
    switch (e) {
    case EINVAL:
        errf(err, errlen, "%s: the filesystem does not support O_DIRECT (direct I/O); put "
             "the file on a disk filesystem such as ext4 or xfs, not tmpfs", t->path);
        break;
    case EBUSY:
        errf(err, errlen, "%s: the device is in use (mounted or held by another user, "
             "e.g. device-mapper, md, LVM or swap)", t->path);
        break;
    case EACCES:
    case EPERM:
        errf(err, errlen, "%s: permission denied opening for %s (are you root?)", t->path,
             writes ? "writing" : "reading");
        break;
    case EROFS:
        errf(err, errlen, "%s: read-only (device or filesystem); writes are impossible",
             t->path);
        break;
    case ENOENT:
        errf(err, errlen, "%s: no such file or device", t->path);
        break;
    default:
        errf(err, errlen, "%s: cannot open with O_DIRECT: %s", t->path, strerror(e));
        break;
    }
    errno = e;
    return -1;
}

int target_probe_sim(const char *spec, const struct sim_params *p, struct target_info *out,
                     char *err, size_t errlen)
{
    memset(out, 0, sizeof(*out));
    str_copy(out->path, sizeof(out->path), spec);
    out->kind = TARGET_SIM;
    out->exists = true;
    struct sim_world *w = xcalloc(1, sizeof(*w));
    w->params = *p;
    if (sim_open(p, &w->dev, err, errlen) != 0) {
        free(w);
        return -1;
    }
    struct sim_info info;
    sim_info(w->dev, &info);
    out->capacity = info.user_bytes;
    out->current_size = info.user_bytes;
    out->logical_sector = info.logical_sector;
    out->physical_sector = info.physical_sector;
    out->mem_align = 4096;
    str_copy(out->devname, sizeof(out->devname), p->name);
    str_copy(out->model, sizeof(out->model), p->description);
    str_copy(out->vendor, sizeof(out->vendor), "ptsbench simulator");
    out->write_cache = p->wbuf_units > 0;
    tgt_attach_none(&out->attach, "simulated");
    out->sim = w;
    return 0;
}

void target_release(struct target_info *t)
{
    if (t->sim) {
        sim_close(t->sim->dev);
        free(t->sim);
        t->sim = NULL;
    }
}

int target_probe_remote(const char *path, uint64_t size, struct target_info *out, char *err,
                        size_t errlen)
{
    memset(out, 0, sizeof(*out));
    if (!size)
        return errf(err, errlen, "--remote: give --size, the size of %s to use on each host "
                                 "(it cannot be probed from here)", path);
    str_copy(out->path, sizeof(out->path), path);
    out->kind = TARGET_REMOTE;
    out->exists = true;
    tgt_attach_none(&out->attach, "");
    out->capacity = size;
    out->current_size = size;
    out->logical_sector = 512;
    out->physical_sector = 512;
    out->mem_align = 4096;
    return 0;
}
