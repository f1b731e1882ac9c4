/* numa.h — where a target's I/O threads run: the device's NUMA node, the host's nodes and
 * their CPUs (all from sysfs), the placement chosen from --numa and --cpus, and what the
 * workers then recorded (the CPUs they were allowed and the CPUs they ran on).
 *
 * Why: on a host with several NUMA nodes, a worker that runs on a socket other than the one
 * the drive's PCIe root port hangs off pays the inter-socket link on every I/O and touches
 * buffers in the other node's memory. The Z-Drive 6300 review whose figures
 * profiles/devices/zdrive-6300-1.6t.ini carries ([ZD63]) measured on a two-socket host (two
 * Xeon E5-2660 v3) and lists Shelton's "High Performance I/O with NUMA Systems in Linux"
 * (Fusion-io) among its references: at those rates where the load generator runs is part of
 * the set-up, so ptsbench chooses it and records it. fio's cpus_allowed and numa_cpu_nodes are
 * the peer model: --cpus LIST is cpus_allowed (with fio's default cpus_allowed_policy=shared:
 * every worker may run on every listed CPU), --numa N is numa_cpu_nodes=N. See README.md,
 * "CPU and NUMA placement".
 *
 * No libnuma: the device's node and the nodes' CPU lists are plain sysfs files, and pinning is
 * pthread_setaffinity_np(3). What libnuma adds beyond that is memory policy; ptsbench gets
 * node-local I/O buffers without it because each worker pins itself before its engine
 * allocates and first touches its buffers (the kernel's default policy places a page on the
 * node of the CPU that first touches it).
 *
 * Every reader takes ROOT ("" the live /sys; a test's fake tree otherwise), as
 * target_attach_at does. The device's node is the one target_attach_at finds (the PCI
 * function's numa_node, else the device's own); -1 and a missing file both mean unknown. */
#ifndef PTSBENCH_NUMA_H
#define PTSBENCH_NUMA_H

#include <sched.h>
#include <stdbool.h>
#include <stddef.h>

struct target_info;

/* --numa and --cpus as given. --cpus, when given, decides (it overrides --numa). */
enum numa_mode { NUMA_AUTO = 0, NUMA_OFF, NUMA_NODE, NUMA_CPUS };
struct numa_request {
    enum numa_mode numa;       /* NUMA_AUTO (default), NUMA_OFF or NUMA_NODE */
    int node;                  /* NUMA_NODE: the node asked for */
    bool cpus_given;           /* --cpus LIST */
    cpu_set_t cpus;
    char cpus_text[128];       /* LIST as typed, for messages */
};
/* "auto", "off" or a node number into req (CLI_CUSTOM parsers, cli/options.h); "LIST" into
 * req->cpus (cpuset.h syntax; an empty set is refused). 0, or -1 with the reason. */
int numa_parse_mode(const char *value, struct numa_request *req, char *err, size_t errlen);
int numa_parse_cpus(const char *value, struct numa_request *req, char *err, size_t errlen);

/* The host's online nodes (ROOT/sys/devices/system/node/online) into *nodes; a kernel without
 * NUMA (no such file) has node 0 alone. Returns their number (>= 1). */
unsigned numa_host_nodes(const char *root, cpu_set_t *nodes);
/* Node's CPUs (ROOT/sys/devices/system/node/nodeN/cpulist). 0, or -1 when unreadable. */
int numa_node_cpus(const char *root, int node, cpu_set_t *cpus);
/* The NUMA node of the block device that holds t (a block device: itself, the whole disk of a
 * partition; a file: the device of its filesystem; an NVMe multipath head: the controller of the
 * path target_attach_at chose), or -1 with why ("a simulated drive has no NUMA node", "zram0 is
 * a virtual device", "sysfs gives vda no NUMA node"). */
int numa_target_node(const char *root, const struct target_info *t, char *why, size_t whylen);

/* What one worker recorded over the run (placement_worker_add merges every pool's worker i). */
struct placement_worker {
    cpu_set_t affinity;        /* as read back from the thread (pthread_getaffinity_np) */
    cpu_set_t ran_on;          /* sched_getcpu() at each round's start and end and at every
                                  sample (once a second) */
};

/* How the threads that do the I/O map onto the workers (set by the pool). */
enum placement_threads {
    PLACE_THREADS_NONE = 0,    /* no pool has run yet */
    PLACE_THREADS_WORKER,      /* one thread per worker (io_uring, libaio) */
    PLACE_THREADS_CALLING,     /* every worker in the calling thread (the simulated drive) */
    PLACE_THREADS_CHILD,       /* the engine's own processes (fio), which inherit the calling
                                  thread's affinity; the record is the calling thread's */
};

/* The decision and the record. */
struct placement {
    enum numa_mode mode;       /* what decided: NUMA_CPUS when --cpus was given */
    int device_node;           /* -1 unknown (device_why says why) */
    char device_why[160];
    unsigned host_nodes;
    char requested[256];       /* the CPU list asked for (--cpus), "" otherwise */
    bool pinned;
    cpu_set_t cpus;            /* pinned: the CPUs every worker may run on */
    int node;                  /* pinned to a node's CPUs: that node, else -1 */
    char reason[200];          /* not pinned: why; pinned: how the CPUs were chosen */
    enum placement_threads threads;
    struct placement_worker *workers;   /* workers[0..n_workers) */
    unsigned n_workers;
};

/* Decide (reads ROOT's sysfs; writes nothing): req against the host's nodes and t's device
 * node; allowed is the set this process may run on (NULL: any CPU). AUTO pins to the device's
 * node's CPUs (those of them in allowed) when the host has more than one node and the node is
 * known; OFF never pins; NODE N pins to N's CPUs; --cpus pins to the list. 0, or -1 with one
 * line naming the value (a node the host lacks, CPUs outside allowed). */
int numa_place_at(const char *root, const cpu_set_t *allowed, const struct numa_request *req,
                  const struct target_info *t, struct placement *pl, char *err, size_t errlen);
/* The same on the live /sys and this process's affinity (sched_getaffinity). */
int numa_place(const struct numa_request *req, const struct target_info *t,
               struct placement *pl, char *err, size_t errlen);
/* Pin the calling thread to pl's CPUs when pl pins (pl may be NULL), then read its mask back
 * into *affinity: what the results report is what the kernel holds, not what was asked.
 * 0, or -1 with err ("cannot pin to CPUs 4-7: Invalid argument"). */
int placement_pin_self(const struct placement *pl, cpu_set_t *affinity, char *err,
                       size_t errlen);
/* Add the CPU the calling thread is on now (sched_getcpu) to *ran_on. Cheap (a vDSO/rseq
 * read), but meant for a round's start and end and once per sample interval, not per I/O. */
void placement_note_cpu(cpu_set_t *ran_on);
/* Worker i's affinity and CPUs ran on, merged (union) into the record. */
void placement_worker_add(struct placement *pl, unsigned i, const cpu_set_t *affinity,
                          const cpu_set_t *ran_on);
void placement_free(struct placement *pl);
const char *numa_mode_name(enum numa_mode m);          /* "auto", "off", "node", "cpus" */
const char *placement_threads_name(enum placement_threads t);   /* "worker", "calling", ... */

#endif
