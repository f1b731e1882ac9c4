/* safety.h — never destroy data by accident.
 *
 * Facts first, then a pure decision:
 *   safety_collect() reads the system's state for one block device (from /proc and /sys
 *   under `sysroot`, "" for the real system; tests point it at a fake tree): which of the
 *   device and its partitions are mounted and where, which are active swap, which have
 *   holders (device-mapper, md, LVM), whether any of them backs "/" (directly, through a
 *   partition, or through a dm/md stack), and, for a loop device, which other loop devices
 *   sit on the same backing file (aliases: writing one writes the other's data; their mounts,
 *   swap and holders count as the target's).  It reads only; it never opens the device
 *   (only a loop device's node, read-only, for LOOP_GET_STATUS64).
 *   safety_signatures() adds what libblkid found on the device (target_probe() probed it).
 *   safety_collect_file() reads the state of a file target (below).
 *   safety_decide() is a pure function of those facts and the request.
 *
 * The rules.  "Writes" means the workload, the preconditioning or a purge writes.
 *   Block device:
 *     - reads are always allowed;
 *     - writes need --destructive;
 *     - refused even with --destructive while the device, a partition of it, a dm/md/LVM
 *       device stacked on it, another loop device over the same backing file, or (for a
 *       hidden NVMe multipath path, nvmeXcYnZ) its multipath head nvmeXnZ is mounted, active
 *       swap, held or backs "/", and while another loop device shares its backing file;
 *     - when libblkid finds a signature (a filesystem, a dos/gpt partition table, an LVM
 *       physical volume, an md RAID member, a swap area, a LUKS header, ...) writing needs
 *       --overwrite-signatures as well (it only counts together with --destructive); so does a
 *       device whose signatures could not be probed.  What was found is recorded in the
 *       target (target_info.signatures) whether or not the run writes.
 *   File:
 *     - any run (reads too) is refused while another ptsbench run holds the file's lock
 *       (target.h: flock LOCK_EX, seen here in proc/locks): "FILE: in use by another ptsbench
 *       run (pid N)";
 *     - writes are refused, with or without --destructive, when the file backs a loop device
 *       (mounted or not; each sys/class/block/loopN/loop/backing_file, compared by st_dev and
 *       st_ino through LOOP_GET_STATUS64 on the device node, else through the path), when that
 *       cannot be checked (a loop device whose backing path no longer resolves, or says
 *       "(deleted)", and whose node cannot be asked), when the file is an active swap file
 *       (proc/swaps), and when another process holds a POSIX/OFD lock or lease on it (QEMU
 *       locks the disk images it runs);
 *     - writing a file that exists and holds data needs --destructive.  "Holds data": lseek
 *       SEEK_DATA finds data below its size (on a filesystem without SEEK_DATA: st_blocks > 0).
 *       A missing file, an empty one, a sparse one (truncate -s) and one only preallocated
 *       (fallocate, unwritten extents) hold none and need no flag.  --overwrite-signatures
 *       means nothing for files.
 *     - leave given once holds for the rest of the process (safety_file_grant): an invocation
 *       that runs several times on one file (crosscheck) does not ask again for the data its
 *       own first run wrote.
 * Simulated and remote targets are not checked here. */
#ifndef PTSBENCH_SAFETY_H
#define PTSBENCH_SAFETY_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "device/target.h"

#define SAFETY_MAX_ITEMS 32
#define SAFETY_ITEM_LEN 256

enum safety_kind { SAFETY_BLOCK = 0, SAFETY_FILE = 1 };

struct safety_facts {
    enum safety_kind kind;
    char path[PATH_MAX];              /* the target as given ("": block messages name
                                         /dev/devname) */
    /* ---- block devices */
    char devname[64];                 /* whole-disk kernel name, e.g. "loop3" */
    char target[64];                  /* the target's own kernel name: devname, or the
                                         partition given ("loop3p1") */
    char mpath_head[64];              /* devname is a hidden NVMe multipath path
                                         (nvme0c1n2): its head ("nvme0n2"), whose mounts,
                                         partitions and holders count as its own */
    char partitions[SAFETY_MAX_ITEMS][64];
    unsigned n_partitions;
    char mounts[SAFETY_MAX_ITEMS][SAFETY_ITEM_LEN];   /* "loop3p1 on /mnt/x" */
    unsigned n_mounts;
    char swaps[SAFETY_MAX_ITEMS][SAFETY_ITEM_LEN];    /* "/dev/loop3p2"; file: the swap file */
    unsigned n_swaps;
    char holders[SAFETY_MAX_ITEMS][SAFETY_ITEM_LEN];  /* "loop3 held by dm-0" */
    unsigned n_holders;
    bool backs_root;
    char root_detail[SAFETY_ITEM_LEN];                /* "/ is on vda (254:0)" */
    char aliases[SAFETY_MAX_ITEMS][SAFETY_ITEM_LEN];  /* "loop5 (also on /x/f.img)" */
    unsigned n_aliases;
    bool sigs_probed;                 /* libblkid ran (false: sig_error says why) */
    unsigned n_sigs;
    struct target_signature sigs[TARGET_MAX_SIGNATURES];
    char sig_error[256];
    /* ---- files */
    bool exists;
    bool holds_data;                  /* see the rules above */
    uint64_t size, allocated;         /* st_size, st_blocks * 512 */
    dev_t dev;                        /* st_dev, st_ino of the file */
    ino_t ino;
    bool granted;                     /* this process already had leave to write it */
    char loops[SAFETY_MAX_ITEMS][SAFETY_ITEM_LEN];          /* "/dev/loop3, mounted (loop3
                                                               on /mnt)" */
    unsigned n_loops;
    char loops_unknown[SAFETY_MAX_ITEMS][SAFETY_ITEM_LEN];  /* "/dev/loop5 (backing file
                                                               /x (deleted): ...)" */
    unsigned n_loops_unknown;
    char locks[SAFETY_MAX_ITEMS][SAFETY_ITEM_LEN];          /* "pid 812 (qemu-system-x86):
                                                               POSIX WRITE lock" */
    unsigned n_locks;
    bool run_locked;                  /* a flock on it: another ptsbench run */
    long run_lock_pid;                /* its pid (0: unknown) */
    char run_lock_comm[32];           /* its /proc/PID/comm ("" unknown) */
};

struct safety_request {
    bool writes;                      /* workload, preconditioning or purge writes */
    bool destructive;                 /* --destructive */
    bool overwrite_signatures;        /* --overwrite-signatures (only with --destructive) */
};

/* devname: kernel name of a whole disk or of a partition (then its disk is examined).
 * Returns 0, or -1 when the state cannot be read (then callers must refuse writes). */
int safety_collect(const char *sysroot, const char *devname, struct safety_facts *out,
                   char *err, size_t errlen);

/* Copy what target_probe() found with libblkid (t->signatures...) and t->path into f. */
void safety_signatures(struct safety_facts *f, const struct target_info *t);

/* The facts of a file target at path (which may not exist yet).  Returns 0, or -1 when the
 * state cannot be read (sys/class/block cannot be listed; callers must refuse writes). */
int safety_collect_file(const char *sysroot, const char *path, struct safety_facts *out,
                        char *err, size_t errlen);

/* Returns 0 when the request is allowed, -1 with one line in msg naming the target and
 * every reason when it is refused.  The target is named as given (path), with its kernel name
 * when that differs ("/dev/mapper/x (dm-2)") and its disk when it is a partition
 * ("/dev/sdb1 (a partition of sdb)"); a holder with a device-mapper name is named by both
 * ("sdb held by dm-0 (vg-lv)").  Pure: no I/O. */
int safety_decide(const struct safety_facts *f, const struct safety_request *rq, char *msg,
                  size_t msglen);

/* ---- the run lock of file targets ---------------------------------------------------------- */

/* One line of proc/locks about one inode. */
struct safety_lock {
    long pid;                         /* -1 for OFD locks (the kernel does not say) */
    char kind[16];                    /* "FLOCK", "POSIX", "OFDLCK", "LEASE", "DELEG" */
    char mode[16];                    /* "WRITE", "READ", ... */
};

/* The locks that proc/locks text (the whole file) lists on (dev, ino), at most max; returns
 * how many.  Pure. */
unsigned safety_parse_locks(const char *text, dev_t dev, ino_t ino, struct safety_lock *out,
                            unsigned max);

/* Who holds a flock on (dev, ino), from sysroot/proc/locks: its pid (0 when none or unknown),
 * its /proc/PID/comm in comm ("" when unknown). */
long safety_flock_holder(const char *sysroot, dev_t dev, ino_t ino, char *comm, size_t commlen);

/* "PATH: in use by another ptsbench run (pid N)" (or, when the holder is not ptsbench,
 * "PATH: in use: pid N (COMM) holds a lock on it"). */
void safety_lock_message(const char *path, long pid, const char *comm, char *msg,
                         size_t msglen);

/* Leave to write the file (dev, ino) was given in this process (a check passed, or the run
 * created it); later checks in the process see it as facts.granted.  Not thread-safe (the
 * checks run before any worker starts). */
void safety_file_grant(dev_t dev, ino_t ino);
bool safety_file_granted(dev_t dev, ino_t ino);

#endif
