/* flow.h — fio's flow control between jobs (fio 3.33 flow.c; the workload keys flow, flow_id,
 * flow_sleep), for the workers of one pool (core/worker.c).
 *
 * The workers whose jobs give the same flow_id form a group: the group keeps a count of the
 * issues its members made (starting at 1, fio's) and the sum of their weights; each member
 * its own count. Before an issue a member is held back when its count over the group's is above
 * its weight over the weights (count * weights > weight * group count, in integers); otherwise
 * both counts go up by one and the I/O goes. A member that is done with its round leaves: its
 * count and weight come off the group's, as fio's job at its exit, so the others are not held
 * by one that stopped. At least one member of a group may always issue (their counts add up to
 * the group's minus one). Every round starts afresh (fio runs each round as a job's life).
 * A weight is per worker, as fio's is per job (numjobs clones each weigh their own).
 * The counts are atomics: threaded pools share them across threads (relaxed, as fio's); the
 * virtual-time pool runs every member in one thread, deterministic. */
#ifndef PTSBENCH_FLOW_H
#define PTSBENCH_FLOW_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

struct flow_group {
    unsigned id;
    uint64_t weights0;             /* every member's weight: the round's start */
    _Atomic uint64_t count, weights;
};

struct flow_set {
    struct flow_group *g;
    unsigned n, max;
};

struct flow_member {
    struct flow_group *g;          /* NULL: no flow control (flow=0) */
    unsigned weight;
    uint64_t count;
    bool in;                       /* counted in the group this round */
};

/* Setup (one thread, before any round): room for max groups (the pool's workers), then each
 * member joins group id with its weight (weight 0: stays out, m->g NULL). */
void flow_set_init(struct flow_set *s, unsigned max);
void flow_set_join(struct flow_set *s, struct flow_member *m, unsigned id, unsigned weight);
void flow_set_free(struct flow_set *s);
/* A round's start, by the coordinator before the workers run: group counts 1, all weights. */
void flow_set_round(struct flow_set *s);
/* A member's round start (its own thread): its count 0, counted in. */
void flow_member_round(struct flow_member *m);
/* May the member issue now? true: yes, and both counts went up; false: held back. */
bool flow_take(struct flow_member *m);
/* Done with the round: its count and weight off the group's (once per round). */
void flow_leave(struct flow_member *m);

#endif
