/* thermal_rounds.h — the drive's temperature and throttling at the end of each round, for
 * every runner (core/steps.c run_device_round calls it; device/thermal.h reads the drive).
 *
 * A real drive: its hwmon temperature every round (a sysfs read); nvme-cli's SMART log
 * counters (NVMe) or smartctl's temperature (sd* disks without hwmon) at most once per round,
 * and only when the round lasted at least THERMAL_TOOL_FACTOR times what the previous call of
 * the tool took (the first call is made): the reading then costs at most 1% of the round's
 * time; a round too short has no counters and its throttled is unknown. A round's throttled
 * compares its counters with those read at the end of the previous round of the same drive in
 * this process (none before the first round: unknown).
 * The simulated drive: its thermal model (sim/sim_thermal.h) when on; throttled when it spent
 * time throttled during the round or ended it throttled. Off: nothing recorded.
 * NVMe: the drive's WCTEMP and CCTEMP are read once (nvme id-ctrl, with the first due call) and
 * a round at or above WCTEMP is throttled (device/thermal.h, thermal_judge).
 * Test seam: with PTSBENCH_THERMAL_FIXTURES set to a directory, a block or file target's
 * readings are its nvme-cli JSON files instead (thermal_rounds.c; docs/health.md); unset, it is
 * never looked at beyond the getenv.
 * Not thread-safe: one runner per process (a fleet runs one process per target). */
#ifndef PTSBENCH_THERMAL_ROUNDS_H
#define PTSBENCH_THERMAL_ROUNDS_H

#include <stddef.h>

#include "device/thermal.h"

struct target_info;
struct sim_stats;

#define THERMAL_TOOL_FACTOR 100.0

/* A block device or file target: its reading at the end of a round of elapsed_s seconds. */
void thermal_round_device(const struct target_info *t, double elapsed_s,
                          struct thermal_reading *out);
/* The simulated drive: from its counters at the round's start (was) and end (now). */
void thermal_round_sim(const struct sim_stats *now, const struct sim_stats *was,
                       struct thermal_reading *out);

/* A steady-state object's window (results_steady_json): "throttled_rounds", the rounds of the
 * window during which the drive throttled, when there are any. The steady-state rule is not
 * changed: the window's figures are recorded as measured, and a reader says which rounds
 * were the throttled drive's. */
struct json_object;
struct round_metrics;
void thermal_window_note(struct json_object *ss, const struct round_metrics *rounds, unsigned n);

/* The rounds first..last during which the drive throttled, as "5, 6, 9" in buf; their count.
 * A window with such rounds keeps the PTS's verdict (the rule is about the tracking variable;
 * the PTS says nothing of throttling: our choice) and every reader says which of its rounds
 * were the throttled drive's: the figures are the drive at its thermal limit in that room,
 * not its unthrottled rate. */
unsigned thermal_window_rounds(const struct round_metrics *rounds, unsigned n, unsigned first,
                               unsigned last, char *buf, size_t len);

#endif
