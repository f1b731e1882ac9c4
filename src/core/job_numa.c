/* job_numa.c — fio's numa_cpu_nodes and numa_mem_policy as the run's placement (job_numa.h). */
#include "core/job_numa.h"

#include "lib/cpuset.h"
#include "lib/util.h"

#include <stdio.h>
#include <string.h>

/* A node list ("all" or cpuset syntax) into *out, the host's nodes only; the asked nodes the
 * host lacks into *gone. 0, or -1 when the text does not parse. */
static int node_list(const char *text, const cpu_set_t *host, cpu_set_t *out, cpu_set_t *gone)
{
    char e[128];
    CPU_ZERO(gone);
    if (!strcmp(text, "all")) {
        *out = *host;
        return 0;
    }
    cpu_set_t asked;
    if (cpuset_parse(text, &asked, e, sizeof(e)) != 0)
        return -1;
    CPU_AND(out, &asked, host);
    CPU_XOR(gone, &asked, out);
    return 0;
}

/* numa_mem_policy against the nodes the CPUs are on (cpu: NULL when not pinned). */
static int mem_policy_ok(const struct wl_job *j, const cpu_set_t *host, unsigned host_nodes,
                         const cpu_set_t *cpu, char *err, size_t errlen)
{
    const char *p = j->wl.numa_mem_policy, *colon = strchr(p, ':');
    if (!*p || !colon || host_nodes == 1)   /* default, local; or one node holds everything */
        return 0;
    cpu_set_t mem, gone;
    if (node_list(colon + 1, host, &mem, &gone) != 0)
        return errf(err, errlen, "job %s: numa_mem_policy=%s: bad node list", j->label, p);
    bool same = cpu && CPU_EQUAL(&mem, cpu);
    if (same && (strncmp(p, "interleave", 10) || cpuset_count(&mem) == 1))
        return 0;
    return errf(err, errlen, "job %s: numa_mem_policy=%s: ptsbench's buffers are placed by first "
                "touch on the node of the pinned CPUs (numa_cpu_nodes, --numa), so only a policy "
                "over exactly those nodes (interleave: one node) is what fio would do", j->label,
                p);
}

/* Every job's numa_cpu_nodes, the same set of the host's nodes, into *nodes (and the asked
 * nodes the host lacks into *gone). 1 when the jobs give them, 0 when none does, -1 with err. */
static int jobs_nodes(const struct wl_jobset *js, const cpu_set_t *host, cpu_set_t *nodes,
                      cpu_set_t *gone, char *err, size_t errlen)
{
    const struct wl_job *first = NULL;
    CPU_ZERO(gone);
    for (unsigned i = 0; i < js->n; i++) {
        const struct wl_job *j = &js->jobs[i];
        const char *t = j->wl.numa_cpu_nodes;
        if (!*t)
            continue;
        cpu_set_t s, g;
        if (node_list(t, host, &s, &g) != 0)
            return errf(err, errlen, "job %s: numa_cpu_nodes=%s: bad node list", j->label, t);
        if (cpuset_count(&s) == 0) {
            char list[64];
            cpuset_format(host, list, sizeof(list));
            return errf(err, errlen, "job %s: numa_cpu_nodes=%s: no such node on this host "
                        "(nodes: %s)", j->label, t, list);
        }
        CPU_OR(gone, gone, &g);
        if (first && !CPU_EQUAL(&s, nodes))
            return errf(err, errlen, "jobs %s and %s: numa_cpu_nodes=%s and %s: ptsbench "
                        "places the whole run on one set of CPUs (run them separately, or "
                        "--numa / --cpus)", first->label, j->label, first->wl.numa_cpu_nodes, t);
        if (!first)
            *nodes = s;
        first = j;
    }
    for (unsigned i = 0; first && i < js->n; i++)
        if (!*js->jobs[i].wl.numa_cpu_nodes)
            return errf(err, errlen, "job %s gives numa_cpu_nodes=%s, job %s none: ptsbench "
                        "places the whole run on one set of CPUs", first->label,
                        first->wl.numa_cpu_nodes, js->jobs[i].label);
    return first != NULL;
}

/* The CPUs of nodes into req (one node: --numa N; several: their CPUs as --cpus). */
static int request_nodes(const char *root, const cpu_set_t *nodes, struct numa_request *req,
                         char *err, size_t errlen)
{
    if (cpuset_count(nodes) == 1) {
        req->numa = NUMA_NODE;
        req->node = cpuset_first(nodes);
        return 0;
    }
    CPU_ZERO(&req->cpus);
    for (int n = 0; n < CPU_SETSIZE; n++) {
        cpu_set_t c;
        if (!CPU_ISSET(n, nodes))
            continue;
        if (numa_node_cpus(root, n, &c) != 0)
            return errf(err, errlen, "numa_cpu_nodes: node %d: cannot read its CPU list", n);
        CPU_OR(&req->cpus, &req->cpus, &c);
    }
    req->cpus_given = true;
    cpuset_format(nodes, req->cpus_text, sizeof(req->cpus_text));
    return 0;
}

int job_numa_request(const char *root, const struct wl_jobset *js, struct numa_request *req,
                     char *how, size_t howlen, char *err, size_t errlen)
{
    *how = 0;
    cpu_set_t host, nodes, gone;
    unsigned host_nodes = numa_host_nodes(root, &host);
    int given = jobs_nodes(js, &host, &nodes, &gone, err, errlen);
    if (given < 0)
        return -1;
    const bool command = req->cpus_given || req->numa != NUMA_AUTO;
    if (given && command)
        return errf(err, errlen, "job %s: numa_cpu_nodes=%s: the command's --numa/--cpus "
                    "places the run (give one of them)", js->jobs[0].label,
                    js->jobs[0].wl.numa_cpu_nodes);
    for (unsigned i = 0; i < js->n; i++)
        if (mem_policy_ok(&js->jobs[i], &host, host_nodes, given ? &nodes : NULL, err,
                          errlen) != 0)
            return -1;
    if (!given)
        return 0;
    if (request_nodes(root, &nodes, req, err, errlen) != 0)
        return -1;
    char list[64], lost[64];
    cpuset_format(&nodes, list, sizeof(list));
    cpuset_format(&gone, lost, sizeof(lost));
    snprintf(how, howlen, "numa_cpu_nodes of every job: node%s %s%s%s%s",
             cpuset_count(&nodes) == 1 ? "" : "s", list,
             cpuset_count(&gone) ? " (not on this host: " : "", cpuset_count(&gone) ? lost : "",
             cpuset_count(&gone) ? ")" : "");
    return 0;
}
