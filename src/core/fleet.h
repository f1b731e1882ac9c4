/* fleet.h — one command on several targets: the side of it that runs inside each target's
 * ptsbench, and the aggregate of their results.
 *
 * `ptsbench run|suite|profile|replay --target A --target B ...` (cli/cli_fleet.c) runs one copy of
 * ptsbench per target, each with one target and its own results directory, one after another
 * or, with --parallel, all at once. Run at once, the copies keep their rounds aligned: before
 * every round each copy says it is ready on its channel to the parent (file descriptor
 * SPAWN_SYNC_FD, named by $PTSBENCH_FLEET_FD) and waits until the parent has heard every copy
 * still running say the same; then they all start. A copy that has finished no longer holds
 * the others. Alone (no channel) the barrier does nothing. */
#ifndef PTSBENCH_FLEET_H
#define PTSBENCH_FLEET_H

#include <signal.h>
#include <stdbool.h>

struct json_object;

/* The environment variables between the parent and a copy. */
#define FLEET_ENV_FD    "PTSBENCH_FLEET_FD"     /* the channel's descriptor: rounds aligned */
#define FLEET_ENV_CHECK "PTSBENCH_FLEET_CHECK"  /* "1": check everything, write nothing, exit */
#define FLEET_ENV_LABEL "PTSBENCH_FLEET_LABEL"  /* set: a copy, whose lines the parent relays */

/* Before a round: wait for every copy (see above). Returns at once when this ptsbench is not a
 * copy run at once, when the parent is gone, or when *stop goes up while waiting. */
void fleet_barrier(volatile sig_atomic_t *stop);

/* This ptsbench is a copy asked only to check its command (FLEET_ENV_CHECK): a command calls
 * it after its prepare step and exits 0 when it is true, having written nothing. */
bool fleet_check_only(void);

/* The aggregate of the targets' results documents (docs[i] may be NULL: that target has no
 * results) for `schema` ptsbench.run (per round) or ptsbench.replay (per pass): the sum of
 * every target's I/Os over the longest of their elapsed times (the host's view: all the
 * targets' work in the window they shared), beside the plain sum of their rates and each
 * target's own; per direction the latency of every target's I/Os of the round from their merged
 * histograms (core/lat_hist.h: "lat_us" with "from", and the row's merged "lat_hist"). NULL for
 * the other schemas (their tests are compared, not added) or when no
 * round is common to all. */
struct json_object *fleet_aggregate(struct json_object *const *docs, const char *const *labels,
                                    unsigned n, const char *schema);

#endif
