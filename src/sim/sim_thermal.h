/* sim_thermal.h — the simulated drive's temperature and thermal throttling: a first-order
 * model, off unless a preset sets `thermal = true` (every shipped preset leaves it off, so
 * their figures do not move). docs/health.md ("The simulated drive's thermal model") has the
 * equations and the choices.
 *
 *   dT/dt = heat(t) - (T - T_amb) / tau
 *
 * heat: each I/O adds thermal_write_c_per_gb (writes) or thermal_read_c_per_gb (reads) per GB
 * of full-size data (a completion's bytes x k) at its submission, as a step; between
 * submissions T decays exponentially toward thermal_ambient_c with time constant
 * thermal_tau_s (virtual seconds, which equal the full-size drive's: sim.h). At a sustained
 * rate of G GB/s the drive settles at T_amb + c x G x tau.
 * Throttling, with hysteresis: from the moment T reaches thermal_throttle_c until it falls
 * back to thermal_resume_c, the drive is throttled: its data passes a gate of
 * thermal_throttle_mb_s (full-size MB/s, reads and writes together), as a drive in a lower
 * power state caps its throughput; an I/O completes when the drive has done it and the gate
 * has passed it, so the drive runs at the smaller of its own rate and the gate's. (Stretching
 * each I/O's latency instead would not cut a drive whose I/Os queue inside it: the queues
 * shorten and the rate stays.) Counted as NVMe counts its Thermal
 * Management Temperature 1: the transitions into the throttled state, and the time spent in
 * it (sim_stats.thermal_*). Temperature is reported as it stood at the latest submission.
 * UNCERTAIN: every default (sim_thermal_defaults) is an order of magnitude chosen to give
 * M.2-like behaviour (throttling after a minute or two of GB/s writes), not a measurement. */
#ifndef PTSBENCH_SIM_THERMAL_H
#define PTSBENCH_SIM_THERMAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sim/sim.h"

struct sim_thermal {
    bool on;
    double ambient_c, resume_c, throttle_c;
    double tau_ns;                  /* virtual ns */
    double c_per_byte[2];           /* °C per full-size byte: [SIM_READ], [SIM_WRITE] */
    double ns_per_byte;             /* the gate: virtual ns per scaled byte (x k full-size) */
    simt gate;                      /* the gate busy until */
    unsigned k;
    double temp_c;                  /* at `at` */
    simt at;
    bool throttled;
    uint64_t throttled_ns, transitions;
};

/* The parameters' defaults (sim_params_default) and their check (sim_validate). */
void sim_thermal_defaults(struct sim_params *p);
int sim_thermal_validate(const struct sim_params *p, char *err, size_t errlen);
/* The state at open: off, or at ambient and not throttled at time 0. */
void sim_thermal_init(struct sim_thermal *th, const struct sim_params *p);
/* An I/O of len bytes (scaled) of kind op submitted at now whose completion the drive gave as
 * done: the temperature brought to now and raised by the I/O; returns the completion, after
 * the gate's while throttled. Off: returns done. */
simt sim_thermal_io(struct sim_thermal *th, simt now, simt done, unsigned op, uint32_t len);
/* Fill the thermal fields of out (sim_stats). */
void sim_thermal_stats(const struct sim_thermal *th, struct sim_stats *out);

#endif
