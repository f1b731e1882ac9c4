/* cpuset.h — CPU lists as the kernel writes them ("0-3,8,10-11"): parse, format, compare.
 *
 * The set is glibc's cpu_set_t, so that it goes straight to sched_setaffinity(2) and
 * pthread_setaffinity_np(3): CPU_SETSIZE (1024) CPUs, numbered 0..1023. The list syntax is the
 * one of /sys/devices/system/node/nodeN/cpulist and /proc/PID/status Cpus_allowed_list, and of
 * fio's cpus_allowed (docs/architecture.md): comma-separated items, each a CPU "N" or an
 * inclusive range "N-M" with N <= M. The kernel's strided form ("0-15:2/4") is not accepted.
 * Node masks (/sys/devices/system/node/online) use the same syntax and the same type.
 * Pure: no I/O, no globals. */
#ifndef PTSBENCH_CPUSET_H
#define PTSBENCH_CPUSET_H

#include <sched.h>
#include <stdbool.h>
#include <stddef.h>

/* Parse text into *out (cleared first). Blank text is the empty set (a memory-only node's
 * cpulist is "\n"); surrounding white space is ignored. Returns 0, or -1 with one phrase in err
 * naming the item: "'x' is not a CPU number", "range 3-1 runs backwards", "CPU 99999 is beyond
 * 1023, the last this build can pin". */
int cpuset_parse(const char *text, cpu_set_t *out, char *err, size_t errlen);

/* The canonical list ("0-3,8,10-11": ascending, ranges merged) into buf; "" for the empty
 * set. A list that does not fit ends in "..." (buf at least 4 bytes). */
void cpuset_format(const cpu_set_t *s, char *buf, size_t len);

unsigned cpuset_count(const cpu_set_t *s);
/* Every CPU of a is in b. */
bool cpuset_subset(const cpu_set_t *a, const cpu_set_t *b);
/* The lowest CPU in s, or -1 when empty. */
int cpuset_first(const cpu_set_t *s);

#endif
