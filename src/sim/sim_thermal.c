/* sim_thermal.c — the simulated drive's first-order thermal model and throttling
 * (sim_thermal.h has the model; docs/health.md the reasons). */
#include "sim/sim_thermal.h"

#include <math.h>

#include "lib/util.h"

void sim_thermal_defaults(struct sim_params *p)
{
    /* UNCERTAIN, each: an M.2 NVMe drive without a heatsink idles near 40 °C in a case; NVMe
     * drives commonly start their first thermal management step in the 70s °C; a drive board
     * heats and cools over a minute or two; 0.25 °C per GB written with tau = 120 s settles
     * 60 °C above ambient at 2 GB/s (throttling after about a minute of sequential writes,
     * what reviews show for drives without heatsinks), 7.5 °C at 250 MB/s (4 KiB random
     * writes at 60K IOPS: no throttling); reads heat half as much; throttled, 300 MB/s (an
     * order of what reviews show M.2 drives fall to). */
    p->thermal = false;
    p->thermal_ambient_c = 40;
    p->thermal_tau_s = 120;
    p->thermal_write_c_per_gb = 0.25;
    p->thermal_read_c_per_gb = 0.125;
    p->thermal_throttle_c = 75;
    p->thermal_resume_c = 72;
    p->thermal_throttle_mb_s = 300;
}

int sim_thermal_validate(const struct sim_params *p, char *err, size_t errlen)
{
    if (!p->thermal)
        return 0;
    if (!(p->thermal_tau_s > 0) || !(p->thermal_throttle_mb_s > 0) ||
        !(p->thermal_write_c_per_gb >= 0) || !(p->thermal_read_c_per_gb >= 0))
        return errf(err, errlen, "sim parameters thermal_tau_s = %g, thermal_throttle_mb_s = %g, "
                    "thermal_*_c_per_gb = %g, %g: tau and the rate above 0, heat >= 0",
                    p->thermal_tau_s, p->thermal_throttle_mb_s, p->thermal_write_c_per_gb,
                    p->thermal_read_c_per_gb);
    if (!(p->thermal_ambient_c < p->thermal_resume_c &&
          p->thermal_resume_c < p->thermal_throttle_c))
        return errf(err, errlen, "sim parameters thermal_ambient_c = %g, thermal_resume_c = %g, "
                    "thermal_throttle_c = %g: need ambient < resume < throttle",
                    p->thermal_ambient_c, p->thermal_resume_c, p->thermal_throttle_c);
    return 0;
}

void sim_thermal_init(struct sim_thermal *th, const struct sim_params *p)
{
    *th = (struct sim_thermal){.on = p->thermal};
    if (!th->on)
        return;
    th->ambient_c = th->temp_c = p->thermal_ambient_c;
    th->resume_c = p->thermal_resume_c;
    th->throttle_c = p->thermal_throttle_c;
    th->tau_ns = p->thermal_tau_s * 1e9;
    th->k = p->k ? p->k : 1;
    th->c_per_byte[SIM_READ] = p->thermal_read_c_per_gb / 1e9;
    th->c_per_byte[SIM_WRITE] = p->thermal_write_c_per_gb / 1e9;
    th->ns_per_byte = (double)th->k * 1e3 / p->thermal_throttle_mb_s;
}

/* Cool from th->at to now; a throttled drive that falls to resume_c on the way stops being
 * throttled at that moment (the time up to it counted). */
static void cool_to(struct sim_thermal *th, simt now)
{
    if (now <= th->at)
        return;
    double dt = (double)(now - th->at);
    double over = th->temp_c - th->ambient_c;
    if (th->throttled) {
        double to_resume = th->resume_c - th->ambient_c;
        double t_cross = over > to_resume ? th->tau_ns * log(over / to_resume) : 0;
        if (t_cross < dt) {
            th->throttled_ns += (uint64_t)t_cross;
            th->throttled = false;
        } else {
            th->throttled_ns += (uint64_t)dt;
        }
    }
    th->temp_c = th->ambient_c + over * exp(-dt / th->tau_ns);
    th->at = now;
}

simt sim_thermal_io(struct sim_thermal *th, simt now, simt done, unsigned op, uint32_t len)
{
    if (!th->on || op > SIM_WRITE)
        return done;
    cool_to(th, now);
    th->temp_c += th->c_per_byte[op] * (double)len * (double)th->k;
    if (!th->throttled && th->temp_c >= th->throttle_c) {
        th->throttled = true;
        th->transitions++;
    }
    if (!th->throttled)
        return done;
    th->gate = (th->gate > now ? th->gate : now) + (simt)llround((double)len * th->ns_per_byte);
    return done > th->gate ? done : th->gate;
}

void sim_thermal_stats(const struct sim_thermal *th, struct sim_stats *out)
{
    out->thermal = th->on;
    if (!th->on)
        return;
    out->temperature_c = th->temp_c;
    out->throttled_now = th->throttled;
    out->throttle_transitions = th->transitions;
    out->throttled_ns = th->throttled_ns;
}
