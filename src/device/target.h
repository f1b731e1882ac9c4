/* target.h — what ptsbench measures: a block device or a regular file.
 *
 * target_probe() reads everything there is to know without writing anything: kind,
 * capacity (BLKGETSIZE64 / st_size), logical and physical sector size (BLKSSZGET,
 * BLKPBSZGET; for files the filesystem's O_DIRECT alignment from statx STATX_DIOALIGN,
 * else the backing device's queue/logical_block_size in sysfs, else 512), alignment offset,
 * and identity from sysfs (model, serial, firmware, vendor) where the device exposes it, how it
 * is attached (target_attach_at; an NVMe multipath head through its paths) and its zoned model
 * (zoned.h).
 * For block devices it also lists the signatures libblkid finds on the device (filesystems,
 * partition tables, LVM/RAID members, swap, ...): what a write would destroy, recorded
 * before anything is written (safety.h decides on them).
 * A file that does not exist yet is probed as "to be created" with the requested size;
 * target_create_file() creates or extends it only after every check has passed.
 *
 * File targets are locked for the length of a run: target_open() (and target_create_file())
 * take flock(LOCK_EX | LOCK_NB) on the descriptor they open, so a second ptsbench run on the
 * same file (any path to the same inode) is refused with "FILE: in use by another ptsbench
 * run (pid N)" instead of both measuring each other's I/O.  The lock lives as long as the
 * descriptor: close it and the file is free.  Filesystems without flock (ENOLCK, EOPNOTSUPP)
 * are opened without the lock.  Block devices rely on O_EXCL instead. */
#ifndef PTSBENCH_TARGET_H
#define PTSBENCH_TARGET_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "device/zoned.h"
#include "sim/sim.h"

enum target_kind { TARGET_FILE = 1, TARGET_BLOCK = 2, TARGET_SIM = 3, TARGET_REMOTE = 4 };

/* One signature libblkid found (a superblock or a partition table).  Strings are "" when
 * libblkid gives none. */
#define TARGET_MAX_SIGNATURES 8
struct target_signature {
    char type[32];             /* TYPE or PTTYPE: "ext4", "xfs", "dos", "gpt", "LVM2_member",
                                  "linux_raid_member", "swap", "crypto_LUKS", ... */
    char usage[24];            /* USAGE: "filesystem", "raid", "crypto", "other"; a partition
                                  table: "partition_table" */
    char label[128];           /* LABEL */
    char uuid[64];             /* UUID (partition table: PTUUID) */
    char version[32];          /* VERSION ("1.0", "LVM2 001", ...) */
    uint64_t offset;           /* byte offset of the magic (SBMAGIC_OFFSET / PTMAGIC_OFFSET) */
};

/* A simulated drive as a target: the device and the virtual clock its engine instances share. */
struct sim_world {
    struct sim_dev *dev;
    struct sim_params params;
    simt now;                  /* virtual time, advanced by the sim engine */
    simt driver;               /* the shared host driver path, booked up to here
                                  (params.host_driver_us; engine/simulated.c) */
};

/* One path of an NVMe multipath head: the hidden path disk of one of the subsystem's
 * controllers, how that controller is and where it is attached. */
#define TARGET_MAX_PATHS 8
struct target_path {
    char name[32];             /* the path disk, "nvme0c0n1" (no /dev node: the kernel hides it) */
    char controller[16];       /* "nvme0" */
    char state[16];            /* the controller's state ("live", "resetting", ...), "" unknown */
    char ana_state[24];        /* the path's ANA state ("optimized", ...), "" when not reported */
    char pci_address[32];      /* the controller's PCI function, "" none (fabrics) */
    int numa_node;             /* its numa_node, -1 unknown */
};

/* How a block device is attached, read from sysfs (target_attach_at): each string "" and each
 * number -1 when sysfs does not say. */
struct target_attach {
    char interface[16];        /* "nvme", "sata", "sas", "scsi", "usb", "virtio", "zram", "loop",
                                  "mmc", "nbd", "md", "dm"; probing sets "file", "simulated" */
    char driver[64];           /* the device's driver (device/driver), for NVMe the controller's
                                  PCI function's ("nvme"); SCSI disks: "sd" */
    char pci_address[32];      /* the PCI function above the device, "0000:01:00.0" */
    char link_speed[48];       /* its current_link_speed, "8.0 GT/s PCIe" */
    char max_link_speed[48];
    int link_width, max_link_width;   /* lanes */
    int numa_node;             /* the function's (else the device's) numa_node; -1 none */
    char firmware[64];         /* device/firmware_rev, else device/rev */
    /* An NVMe multipath head (/dev/nvmeSnH, native multipath: its device is the subsystem
     * nvme-subsysS, no PCI function): its paths nvmeScMnH, one per controller of the subsystem
     * that has the namespace, in controller order. driver, PCIe, NUMA node and firmware above
     * are those of paths[path_used]: the first whose controller is live and whose ANA state is
     * optimized or not reported, else the first live one, else the first. -1: none. */
    bool nvme_head;
    char iopolicy[16];         /* the subsystem's iopolicy ("numa", "round-robin"), "" unknown */
    unsigned n_paths;
    struct target_path paths[TARGET_MAX_PATHS];
    int path_used;
};

/* The attachment of block device NAME ("nvme0n1", "sda") from ROOT/sys/block/NAME (ROOT "" for
 * the live /sys; a test's fake tree otherwise): the interface from the name and the device's
 * path, the driver link's name, and walking ROOT/sys/block/NAME/device up to the first PCI
 * function, its link and NUMA node. An NVMe multipath head's device is its subsystem: its
 * paths are found through the subsystem's controllers (ROOT/sys/block/NAME/device/nvmeM, the
 * path disk ROOT/sys/block/nvmeScMnH) and the chosen path's attachment is taken (above).
 * Reads only. */
void target_attach_at(const char *root, const char *name, struct target_attach *out);

struct target_info {
    char path[PATH_MAX];
    enum target_kind kind;
    bool exists;               /* false: a file that target_create_file() will create */
    /* file: the filesystem keeps it in memory (tmpfs, ramfs): its figures measure RAM, not a
     * drive. The filesystem's name ("tmpfs", "ramfs"), "" otherwise. The runners refuse such a
     * target unless asked (--allow-memory-target: steps.h run_probe_target); the results
     * record it (target.memory). */
    char memory_fs[16];
    uint64_t capacity;         /* bytes (for a file to be created or extended: the size asked for) */
    uint64_t current_size;     /* file: its size now (0 if missing) */
    uint32_t logical_sector;   /* smallest valid I/O size and alignment for O_DIRECT */
    uint32_t physical_sector;
    uint32_t alignment_offset;
    uint32_t mem_align;        /* buffer alignment O_DIRECT needs (>= 512, we use 4096 anyway) */
    dev_t rdev;                /* block: the device; file: the device holding the filesystem */
    char devname[64];          /* kernel name ("zram0", "sda", "nvme0n1"); file: backing device */
    char model[128];
    char serial[128];
    char firmware[64];
    char vendor[64];
    bool rotational;
    bool write_cache;          /* block: queue/write_cache says "write back" */
    struct target_attach attach;   /* block: how it is attached; file, simulated: interface */
    struct target_zoned zoned;     /* block: its zoned model (device/zoned.h); "" not zoned */
    /* block: the signatures on the device when it was probed (before any write) */
    bool signatures_probed;    /* libblkid ran to the end (false: see signatures_error) */
    unsigned n_signatures;
    struct target_signature signatures[TARGET_MAX_SIGNATURES];
    char signatures_error[256];   /* why probing failed ("" when it ran) */
    struct sim_world *sim;     /* TARGET_SIM: the open simulated drive (capacity = scaled) */
    bool buffered;             /* set by the caller: target_open without O_DIRECT (a workload's
                                * direct=0: the page cache's figures, not the device's) */
    /* Where the I/O threads on this target run (device/numa.h): the runner's placement, set by
     * it after the probe; the worker pools pin to it and record into it. NULL: not pinned,
     * nothing recorded. Not owned. */
    struct placement *place;
};

/* create_size: for files, the size wanted (0 = use the existing file as it is).
 * A missing file without create_size is an error; so is a block device with create_size
 * different from 0.  Nothing on /dev's own filesystem (devtmpfs) is ever a file target: a
 * path there must be an existing block device ("PATH: no such device" when missing, whatever
 * the size).  A file on tmpfs or ramfs (the file's, or for one to be created its directory's
 * filesystem, statfs) is probed with memory_fs set.  Returns 0 or -1 with a message naming
 * the path and the problem. */
int target_probe(const char *path, uint64_t create_size, struct target_info *out,
                 char *err, size_t errlen);

/* Create or extend the file to t->capacity (fallocate, falling back to ftruncate).  Refused
 * (nothing changed) while another run holds the file's lock. */
int target_create_file(struct target_info *t, char *err, size_t errlen);

/* Open for I/O with O_DIRECT (not when t->buffered) and O_NOATIME (without it where the kernel
 * refuses it: a target the caller does not own) and O_EXCL for block devices, which the kernel
 * refuses while the device is mounted or held. writes selects O_RDWR vs O_RDONLY.  A file is locked (see
 * above) until the descriptor is closed.  Returns fd or -1. */
int target_open(const struct target_info *t, bool writes, char *err, size_t errlen);

/* The signatures libblkid finds on path (a block device or an image file), at most max, into
 * out; *n how many.  Returns 0 when the probe ran to the end, or -1 with the reason (then
 * *n counts what was found before it failed).  Reads only. */
int target_probe_signatures(const char *path, struct target_signature *out, unsigned max,
                            unsigned *n, char *err, size_t errlen);

/* The serial number in a SCSI Unit Serial Number VPD page (0x80: SPC-4 §7.8.15; a SATA disk's is
 * the one libata's SCSI translation makes from IDENTIFY DEVICE), as sysfs gives it in
 * device/vpd_pg80: a 4-byte header (byte 1 the page code, bytes 2-3 the page length, big-endian)
 * and the serial, padded with spaces, trimmed here. False (out "") when the page is not 0x80, is
 * shorter than its header says, or holds no serial. Pure. */
bool target_vpd80_serial(const unsigned char *page, size_t n, char *out, size_t len);

const char *target_kind_name(enum target_kind k);   /* "file", "block", "simulated", "remote" */

/* A path on remote load-generator hosts (fio client/server): nothing is probed or opened here;
 * the capacity is the size given (the region the remote fio uses), 512-byte sectors assumed.
 * Returns 0, or -1 when size is 0. */
int target_probe_remote(const char *path, uint64_t size, struct target_info *out, char *err,
                        size_t errlen);

/* A simulated drive ("sim:PRESET,..." already parsed into p): opens it fresh-out-of-box and fills
 * out (capacity = the scaled, addressable capacity; sim_info tells the nominal one). */
int target_probe_sim(const char *spec, const struct sim_params *p, struct target_info *out,
                     char *err, size_t errlen);
/* Free what probing opened (the simulated drive); safe on every target. */
void target_release(struct target_info *t);   /* "file", "block" */

#endif
