/* job_numa.h — a fio job file's numa_cpu_nodes and numa_mem_policy taken as the run's placement.
 *
 * ptsbench places the whole run on one set of CPUs (device/numa.h: --numa, --cpus); fio places
 * each job. So the jobs' keys are taken only when the command gives no placement of its own
 * (--numa auto, the default, and no --cpus) and every job of the run asks the same nodes (once
 * the nodes this host lacks are dropped: on a one-node host numa_cpu_nodes=0-1 is node 0, as
 * said in the placement's reason). One node becomes --numa N, several the CPUs of those nodes.
 * numa_mem_policy is taken where first touch gives it: ptsbench's buffers are touched first by
 * workers pinned to those nodes, so default and local always, prefer/bind to the nodes the
 * CPUs are on, interleave over one node; on a one-node host any. Else refused with the reason. */
#ifndef PTSBENCH_JOB_NUMA_H
#define PTSBENCH_JOB_NUMA_H

#include <stddef.h>

#include "device/numa.h"
#include "io/jobset.h"

/* Change *req (the command's) to the jobs' placement when they give one; how gets the text
 * for the placement's reason ("" when req is unchanged). ROOT as numa_place_at ("" the live
 * /sys). 0, or -1 with one line in err naming the job and key. */
int job_numa_request(const char *root, const struct wl_jobset *js, struct numa_request *req,
                     char *how, size_t howlen, char *err, size_t errlen);

#endif
