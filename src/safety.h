/* safety.h — never destroy data by accident.
 *
 * Two halves:
 *   safety_collect() reads the system's state for one block device (from /proc and /sys
 *   under `sysroot`, "" for the real system; tests point it at a fake tree): which of the
 *   device and its partitions are mounted and where, which are active swap, which have
 *   holders (device-mapper, md, LVM), and whether any of them backs "/" (directly, through a
 *   partition, or through a dm/md stack).  It reads only; it never opens the device.
 *   safety_decide() is a pure function of those facts and the request: it refuses every
 *   write to a block device unless --destructive was given, and refuses even then when the
 *   device is mounted, swap, held or backs "/".  Read-only workloads are always allowed.
 * Files are not checked here: a file target is the user's own scratch space. */
#ifndef PTSBENCH_SAFETY_H
#define PTSBENCH_SAFETY_H

#include <stdbool.h>
#include <stddef.h>

#define SAFETY_MAX_ITEMS 32
#define SAFETY_ITEM_LEN 256

struct safety_facts {
    char devname[64];                 /* whole-disk kernel name, e.g. "loop3" */
    char partitions[SAFETY_MAX_ITEMS][64];
    unsigned n_partitions;
    char mounts[SAFETY_MAX_ITEMS][SAFETY_ITEM_LEN];   /* "loop3p1 on /mnt/x" */
    unsigned n_mounts;
    char swaps[SAFETY_MAX_ITEMS][SAFETY_ITEM_LEN];    /* "/dev/loop3p2" */
    unsigned n_swaps;
    char holders[SAFETY_MAX_ITEMS][SAFETY_ITEM_LEN];  /* "loop3 held by dm-0" */
    unsigned n_holders;
    bool backs_root;
    char root_detail[SAFETY_ITEM_LEN];                /* "/ is on vda (254:0)" */
};

/* devname: kernel name of a whole disk or of a partition (then its disk is examined).
 * Returns 0, or -1 when the state cannot be read (then callers must refuse writes). */
int safety_collect(const char *sysroot, const char *devname, struct safety_facts *out,
                   char *err, size_t errlen);

/* Returns 0 when the request is allowed, -1 with one line in msg naming the device and every
 * reason when it is refused.  Pure: no I/O. */
int safety_decide(const struct safety_facts *f, bool writes, bool destructive,
                  char *msg, size_t msglen);

#endif
