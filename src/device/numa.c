/* numa.c — the device's NUMA node, the host's nodes and the placement of the I/O threads
 * (numa.h). Reads sysfs under a root; pins nothing itself (core/worker.c does). */
#include "device/numa.h"

#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "device/target.h"
#include "lib/cpuset.h"
#include "lib/util.h"

/* ---- parsing the options ----------------------------------------------------------------- */

int numa_parse_mode(const char *value, struct numa_request *req, char *err, size_t errlen)
{
    if (!strcmp(value, "auto")) {
        req->numa = NUMA_AUTO;
        return 0;
    }
    if (!strcmp(value, "off")) {
        req->numa = NUMA_OFF;
        return 0;
    }
    char *end;
    long v = strtol(value, &end, 10);
    if (end == value || *end || v < 0 || v >= CPU_SETSIZE)
        return errf(err, errlen, "want auto, off or a node number");
    req->numa = NUMA_NODE;
    req->node = (int)v;
    return 0;
}

int numa_parse_cpus(const char *value, struct numa_request *req, char *err, size_t errlen)
{
    if (cpuset_parse(value, &req->cpus, err, errlen) != 0)
        return -1;
    if (cpuset_count(&req->cpus) == 0)
        return errf(err, errlen, "no CPU in the list");
    req->cpus_given = true;
    str_copy(req->cpus_text, sizeof(req->cpus_text), value);
    return 0;
}

/* ---- sysfs ------------------------------------------------------------------------------- */

/* ROOT/rel as a CPU list into *set. 0, or -1 when unreadable or not a list. */
static int read_list(const char *root, const char *rel, cpu_set_t *set)
{
    char path[PATH_MAX], text[4096], why[128];
    if (snprintf(path, sizeof(path), "%s%s", root, rel) >= (int)sizeof(path))
        return -1;
    if (read_text_file(path, text, sizeof(text)) < 0)
        return -1;
    return cpuset_parse(text, set, why, sizeof(why));
}

unsigned numa_host_nodes(const char *root, cpu_set_t *nodes)
{
    if (read_list(root, "/sys/devices/system/node/online", nodes) != 0 ||
        cpuset_count(nodes) == 0) {
        CPU_ZERO(nodes);
        CPU_SET(0, nodes);   /* a kernel without CONFIG_NUMA: one node */
    }
    return cpuset_count(nodes);
}

int numa_node_cpus(const char *root, int node, cpu_set_t *cpus)
{
    char rel[96];
    snprintf(rel, sizeof(rel), "/sys/devices/system/node/node%d/cpulist", node);
    return read_list(root, rel, cpus);
}

int numa_target_node(const char *root, const struct target_info *t, char *why, size_t whylen)
{
    why[0] = '\0';
    if (t->kind == TARGET_SIM) {
        errf(why, whylen, "a simulated drive has no NUMA node");
        return -1;
    }
    if (t->kind == TARGET_REMOTE) {
        errf(why, whylen, "the target is on remote hosts");
        return -1;
    }
    const char *what = t->kind == TARGET_FILE ? "the file's filesystem" : "the device";
    if (major(t->rdev) == 0) {
        errf(why, whylen, "%s has no block device (major 0: tmpfs, overlay, NFS ...)", what);
        return -1;
    }
    char link[PATH_MAX], real[PATH_MAX], part[PATH_MAX + 16];
    snprintf(link, sizeof(link), "%s/sys/dev/block/%u:%u", root, major(t->rdev),
             minor(t->rdev));
    if (!realpath(link, real)) {
        errf(why, whylen, "sysfs does not know block device %u:%u", major(t->rdev),
             minor(t->rdev));
        return -1;
    }
    snprintf(part, sizeof(part), "%s/partition", real);
    if (access(part, F_OK) == 0) {   /* a partition: its disk is the directory above */
        char *slash = strrchr(real, '/');
        if (slash && slash != real)
            *slash = '\0';
    }
    const char *slash = strrchr(real, '/');
    const char *name = slash ? slash + 1 : real;
    struct target_attach a;
    target_attach_at(root, name, &a);
    if (a.numa_node >= 0)
        return a.numa_node;
    if (a.nvme_head && a.path_used < 0)
        errf(why, whylen, "%s is an NVMe multipath head with no path in sysfs", name);
    else if (a.nvme_head)
        errf(why, whylen, "sysfs gives %s's path %s no NUMA node", name,
             a.paths[a.path_used].name);
    else if (strstr(real, "/devices/virtual/"))
        errf(why, whylen, "%s is a virtual device (no NUMA node)", name);
    else
        errf(why, whylen, "sysfs gives %s no NUMA node (numa_node -1 or absent)", name);
    return -1;
}

/* ---- the decision ------------------------------------------------------------------------ */

const char *numa_mode_name(enum numa_mode m)
{
    static const char *const names[] = {"auto", "off", "node", "cpus"};
    return (unsigned)m < sizeof(names) / sizeof(names[0]) ? names[m] : "?";
}

const char *placement_threads_name(enum placement_threads t)
{
    static const char *const names[] = {"none", "worker", "calling", "child"};
    return (unsigned)t < sizeof(names) / sizeof(names[0]) ? names[t] : "?";
}

/* Pin to node's CPUs (those in allowed). 0, or -1 with err when none is usable. */
static int place_node(const char *root, const cpu_set_t *allowed, int node, const char *how,
                      struct placement *pl, char *err, size_t errlen)
{
    cpu_set_t cpus;
    char list[256];
    if (numa_node_cpus(root, node, &cpus) != 0)
        return errf(err, errlen, "node %d: cannot read its CPU list from sysfs", node);
    if (allowed)
        CPU_AND(&cpus, &cpus, allowed);
    if (cpuset_count(&cpus) == 0) {
        cpuset_format(allowed, list, sizeof(list));
        return errf(err, errlen, "node %d has no CPU this process may run on (allowed: %s)",
                    node, list);
    }
    pl->pinned = true;
    pl->cpus = cpus;
    pl->node = node;
    str_copy(pl->reason, sizeof(pl->reason), how);
    return 0;
}

int numa_place_at(const char *root, const cpu_set_t *allowed, const struct numa_request *req,
                  const struct target_info *t, struct placement *pl, char *err, size_t errlen)
{
    memset(pl, 0, sizeof(*pl));
    pl->node = -1;
    pl->device_node = numa_target_node(root, t, pl->device_why, sizeof(pl->device_why));
    cpu_set_t nodes;
    pl->host_nodes = numa_host_nodes(root, &nodes);
    char list[256];

    if (req->cpus_given) {
        pl->mode = NUMA_CPUS;
        str_copy(pl->requested, sizeof(pl->requested), req->cpus_text);
        if (allowed && !cpuset_subset(&req->cpus, allowed)) {
            cpu_set_t outside;
            CPU_XOR(&outside, &req->cpus, allowed);
            CPU_AND(&outside, &outside, &req->cpus);
            char bad[64];
            cpuset_format(&outside, bad, sizeof(bad));
            cpuset_format(allowed, list, sizeof(list));
            const bool one = cpuset_count(&outside) == 1;
            return errf(err, errlen, "--cpus %s: CPU%s %s %s not among those this process may "
                        "run on (allowed: %s)", req->cpus_text, one ? "" : "s", bad,
                        one ? "is" : "are", list);
        }
        pl->pinned = true;
        pl->cpus = req->cpus;
        str_copy(pl->reason, sizeof(pl->reason), "--cpus");
        return 0;
    }
    pl->mode = req->numa;
    if (req->numa == NUMA_OFF) {
        str_copy(pl->reason, sizeof(pl->reason), "--numa off");
        return 0;
    }
    if (req->numa == NUMA_NODE) {
        if (!CPU_ISSET(req->node, &nodes)) {
            cpuset_format(&nodes, list, sizeof(list));
            return errf(err, errlen, "--numa %d: no such node on this host (nodes: %s)",
                        req->node, list);
        }
        char e[ERR_LEN];
        if (place_node(root, allowed, req->node, "--numa", pl, e, sizeof(e)) != 0)
            return errf(err, errlen, "--numa %d: %s", req->node, e);
        return 0;
    }
    /* auto */
    if (pl->host_nodes < 2) {
        str_copy(pl->reason, sizeof(pl->reason), "host has one NUMA node");
        return 0;
    }
    if (pl->device_node < 0) {
        snprintf(pl->reason, sizeof(pl->reason), "device's NUMA node unknown: %s",
                 pl->device_why);
        return 0;
    }
    char e[ERR_LEN];
    if (place_node(root, allowed, pl->device_node, "the device's node", pl, e, sizeof(e)) != 0) {
        snprintf(pl->reason, sizeof(pl->reason), "%s", e);   /* auto: not pinned, said why */
        return 0;
    }
    return 0;
}

int numa_place(const struct numa_request *req, const struct target_info *t,
               struct placement *pl, char *err, size_t errlen)
{
    cpu_set_t allowed;
    const cpu_set_t *a = NULL;
    if (sched_getaffinity(0, sizeof(allowed), &allowed) == 0)
        a = &allowed;
    return numa_place_at("", a, req, t, pl, err, errlen);
}

int placement_pin_self(const struct placement *pl, cpu_set_t *affinity, char *err,
                       size_t errlen)
{
    if (pl && pl->pinned) {
        int ret = pthread_setaffinity_np(pthread_self(), sizeof(pl->cpus), &pl->cpus);
        if (ret) {
            char list[256];
            cpuset_format(&pl->cpus, list, sizeof(list));
            return errf(err, errlen, "cannot pin to CPUs %s: %s", list, strerror(ret));
        }
    }
    if (pthread_getaffinity_np(pthread_self(), sizeof(*affinity), affinity) != 0)
        CPU_ZERO(affinity);
    return 0;
}

void placement_note_cpu(cpu_set_t *ran_on)
{
    int c = sched_getcpu();
    if (c >= 0 && c < CPU_SETSIZE)
        CPU_SET(c, ran_on);
}

void placement_worker_add(struct placement *pl, unsigned i, const cpu_set_t *affinity,
                          const cpu_set_t *ran_on)
{
    if (i >= pl->n_workers) {
        pl->workers = xrealloc(pl->workers, (i + 1) * sizeof(*pl->workers));
        memset(pl->workers + pl->n_workers, 0, (i + 1 - pl->n_workers) * sizeof(*pl->workers));
        pl->n_workers = i + 1;
    }
    struct placement_worker *w = &pl->workers[i];
    CPU_OR(&w->affinity, &w->affinity, affinity);
    CPU_OR(&w->ran_on, &w->ran_on, ran_on);
}

void placement_free(struct placement *pl)
{
    free(pl->workers);
    pl->workers = NULL;
    pl->n_workers = 0;
}
