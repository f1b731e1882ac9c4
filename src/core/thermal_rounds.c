/* thermal_rounds.c — the drive's temperature and throttling at each round's end
 * (thermal_rounds.h has the rules). */
#include "core/thermal_rounds.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "core/metrics.h"
#include "device/target.h"
#include "lib/units.h"
#include "lib/util.h"
#include "sim/sim.h"

/* The previous reading of the drive this process measures, what its tool last cost, its
 * temperature thresholds (read once) and, under the test seam, the rounds read so far. */
static struct {
    char dev[64];
    bool have;
    struct thermal_reading prev;
    double tool_s;
    bool thresholds_tried;
    struct health_value warning_temp_c, critical_temp_c;
    unsigned fixture_round;
} last;

/* The test seam: with PTSBENCH_THERMAL_FIXTURES naming a directory, a block or file target's
 * round-end readings are nvme-cli's JSON from it, not the drive's: DIR/id-ctrl.json for the
 * thresholds and DIR/smart-log-N.json for round N of the process (the last file again past its
 * end). No tool runs and hwmon is not read. Read ONLY when the variable is set (tests). */
static bool fixture_reading(const char *dir, struct thermal_reading *out)
{
    char p[4096], err[ERR_LEN];
    static char text[16384];   /* nvme-cli's smart-log and id-ctrl JSON: a few KiB */
    if (!last.thresholds_tried) {
        last.thresholds_tried = true;
        snprintf(p, sizeof(p), "%s/id-ctrl.json", dir);
        struct thermal_reading t = {0};
        if (read_text_file(p, text, sizeof(text)) >= 0 &&
            thermal_parse_thresholds(text, &t, err, sizeof(err)) == 0) {
            last.warning_temp_c = t.warning_temp_c;
            last.critical_temp_c = t.critical_temp_c;
        }
    }
    unsigned n = ++last.fixture_round;
    for (; n > 0; n--) {
        snprintf(p, sizeof(p), "%s/smart-log-%u.json", dir, n);
        if (read_text_file(p, text, sizeof(text)) >= 0)
            break;
    }
    if (!n)
        return false;
    if (thermal_parse_nvme_smart_log(text, out, err, sizeof(err)) != 0)
        snprintf(out->note, sizeof(out->note), "%s", err);
    return true;
}

/* out's thresholds (the drive's, read once), its throttled against the previous reading; out
 * becomes the previous reading (compared with only when it holds counters). */
static void judge(struct thermal_reading *out)
{
    out->warning_temp_c = last.warning_temp_c;
    out->critical_temp_c = last.critical_temp_c;
    if (out->warning_temp_c.reported || out->critical_temp_c.reported)
        out->present = true;
    thermal_judge(last.have ? &last.prev : NULL, out);
    last.prev = *out;   /* the next round compares with these, when they hold counters */
    last.have = out->counts_source != THERMAL_NONE;
}

void thermal_round_device(const struct target_info *t, double elapsed_s,
                          struct thermal_reading *out)
{
    memset(out, 0, sizeof(*out));
    out->throttled = THERMAL_UNKNOWN;
    const char *fixtures = getenv("PTSBENCH_THERMAL_FIXTURES");
    const bool seam = fixtures && *fixtures;
    if ((t->kind != TARGET_BLOCK && t->kind != TARGET_FILE) || (!t->devname[0] && !seam))
        return;
    if (strcmp(last.dev, t->devname)) {
        memset(&last, 0, sizeof(last));
        str_copy(last.dev, sizeof(last.dev), t->devname);
    }
    if (seam) {
        if (fixture_reading(fixtures, out))
            judge(out);
        return;
    }
    char disk[64];
    health_whole_disk("", t->devname, disk, sizeof(disk));
    const bool tool_kind = !strncmp(disk, "nvme", 4) || !strncmp(disk, "sd", 2);
    const bool due = tool_kind && elapsed_s >= THERMAL_TOOL_FACTOR * last.tool_s;
    double tool_s = 0;
    thermal_read_block("", t->devname, due, out, &tool_s);
    if (due && !strncmp(disk, "nvme", 4) && !last.thresholds_tried &&
        health_tool_installed("nvme")) {   /* WCTEMP and CCTEMP: once per drive */
        last.thresholds_tried = true;
        struct thermal_reading th = {0};
        thermal_read_thresholds(disk, &th, &tool_s);
        last.warning_temp_c = th.warning_temp_c;
        last.critical_temp_c = th.critical_temp_c;
    }
    if (tool_s > 0)
        last.tool_s = tool_s;
    if (tool_kind && !due) {
        char r[32], c[32];
        units_format_figure(elapsed_s, UNITS_FIG_VALUE, r, sizeof(r));
        units_format_figure(last.tool_s, UNITS_FIG_VALUE, c, sizeof(c));
        snprintf(out->note, sizeof(out->note), "counters not read: the round (%s s) was shorter "
                 "than %.0f x the tool's last call (%s s)", r, THERMAL_TOOL_FACTOR, c);
    }
    judge(out);
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
    out->throttled_by = out->throttled == THERMAL_YES ? THERMAL_BY_COUNTERS : THERMAL_BY_NONE;
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
