/* thermal_rounds.c — the drive's temperature and throttling at each round's end
 * (thermal_rounds.h has the rules). */
#include "core/thermal_rounds.h"

#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "core/metrics.h"
#include "device/target.h"
#include "lib/units.h"
#include "lib/util.h"
#include "sim/sim.h"

/* The previous reading of the drive this process measures, and what its tool last cost. */
static struct {
    char dev[64];
    bool have;
    struct thermal_reading prev;
    double tool_s;
} last;

void thermal_round_device(const struct target_info *t, double elapsed_s,
                          struct thermal_reading *out)
{
    memset(out, 0, sizeof(*out));
    out->throttled = THERMAL_UNKNOWN;
    if ((t->kind != TARGET_BLOCK && t->kind != TARGET_FILE) || !t->devname[0])
        return;
    if (strcmp(last.dev, t->devname)) {
        memset(&last, 0, sizeof(last));
        str_copy(last.dev, sizeof(last.dev), t->devname);
    }
    char disk[64];
    health_whole_disk("", t->devname, disk, sizeof(disk));
    const bool tool_kind = !strncmp(disk, "nvme", 4) || !strncmp(disk, "sd", 2);
    const bool due = tool_kind && elapsed_s >= THERMAL_TOOL_FACTOR * last.tool_s;
    double tool_s = 0;
    thermal_read_block("", t->devname, due, out, &tool_s);
    if (tool_s > 0)
        last.tool_s = tool_s;
    if (tool_kind && !due) {
        char r[32], c[32];
        units_format_figure(elapsed_s, UNITS_FIG_VALUE, r, sizeof(r));
        units_format_figure(last.tool_s, UNITS_FIG_VALUE, c, sizeof(c));
        snprintf(out->note, sizeof(out->note), "counters not read: the round (%s s) was shorter "
                 "than %.0f x the tool's last call (%s s)", r, THERMAL_TOOL_FACTOR, c);
    }
    thermal_judge(last.have ? &last.prev : NULL, out);
    last.prev = *out;   /* the next round compares with these, when they hold counters */
    last.have = out->counts_source != THERMAL_NONE;
}

void thermal_round_sim(const struct sim_stats *now, const struct sim_stats *was,
                       struct thermal_reading *out)
{
    memset(out, 0, sizeof(*out));
    out->throttled = THERMAL_UNKNOWN;
    if (!now->thermal)
        return;
    out->present = out->has_temperature = true;
    out->source = out->counts_source = THERMAL_SIMULATOR;
    out->temperature_c = now->temperature_c;
    out->counts.tmt1_transitions =
        (struct health_value){.reported = true, .value = (int64_t)now->throttle_transitions};
    out->counts.tmt1_time_s = (struct health_value){
        .reported = true, .value = (int64_t)(now->throttled_ns / 1000000000ull)};   /* as NVMe: s */
    const bool rose = now->throttled_ns > was->throttled_ns ||
                      now->throttle_transitions > was->throttle_transitions;
    out->throttled = rose || now->throttled_now ? THERMAL_YES : THERMAL_NO;
}

void thermal_window_note(struct json_object *ss, const struct round_metrics *rounds, unsigned n)
{
    struct json_object *win = json_object_object_get(ss, "window");
    if (!win || !json_object_is_type(win, json_type_object))
        return;
    int64_t first = json_object_get_int64(json_object_object_get(win, "first_round"));
    int64_t end = json_object_get_int64(json_object_object_get(win, "last_round"));
    struct json_object *list = NULL;
    for (unsigned i = 0; i < n; i++) {
        const struct round_metrics *m = &rounds[i];
        if (m->round < first || m->round > end || m->thermal.throttled != THERMAL_YES)
            continue;
        if (!list)
            list = json_object_new_array();
        json_object_array_add(list, json_object_new_int((int)m->round));
    }
    if (list)
        json_object_object_add(win, "throttled_rounds", list);
}

unsigned thermal_window_rounds(const struct round_metrics *rounds, unsigned n, unsigned first,
                               unsigned end, char *buf, size_t len)
{
    unsigned k = 0;
    if (len)
        buf[0] = '\0';
    for (unsigned i = 0; i < n; i++) {
        const struct round_metrics *m = &rounds[i];
        if (m->round < first || m->round > end || m->thermal.throttled != THERMAL_YES)
            continue;
        size_t at = strlen(buf);
        if (at + 16 < len)
            snprintf(buf + at, len - at, "%s%u", k ? ", " : "", m->round);
        k++;
    }
    return k;
}
