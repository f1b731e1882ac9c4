/* hostinfo.h — what the results say about the machine that measured. */
#ifndef PTSBENCH_HOSTINFO_H
#define PTSBENCH_HOSTINFO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct hostinfo {
    char hostname[128];
    char kernel[256];          /* "Linux 6.1.0-13-amd64 #1 SMP ... x86_64" */
    char kernel_release[128];
    char cpu_model[160];
    unsigned cpus_online;
    uint64_t memory_bytes;
    char liburing[64];         /* package version at run time, "" if absent */
    char liburing_built[32];   /* version we were compiled against */
    char libaio[64];
    char fio[64];              /* "fio-3.33"; "" if fio is not installed or was not asked */
    char json_c[32];
    /* DMI (ROOT/sys/class/dmi/id, readable without root), "" where absent */
    char sys_vendor[128], product_name[128];
    char board_vendor[128], board_name[128];
    char bios_vendor[128], bios_version[128];
};

/* with_fio: also ask fio its version, for runs whose engine is fio.  That spawns `fio
 * --version`, which costs about 30 ms of CPU (fio loads many libraries), time a native engine's
 * run would otherwise be charged for something it does not use. */
void hostinfo_collect(struct hostinfo *h, bool with_fio);
/* The DMI strings of h from ROOT/sys/class/dmi/id ("" the live /sys; a test's fake tree
 * otherwise); each "" when its file is missing or empty. */
void hostinfo_dmi_at(const char *root, struct hostinfo *h);
/* This boot's id (/proc/sys/kernel/random/boot_id), "" when unreadable: with a pid it names one
 * process of one boot, so a reader can tell a live writer from a dead one. */
void hostinfo_boot_id(char *buf, size_t len);
/* Version of an installed Debian package from /var/lib/dpkg/status ("" if not installed). */
void hostinfo_dpkg_version(const char *package, char *buf, size_t len);

#endif
