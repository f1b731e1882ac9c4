/* thermal.c — a drive's temperature and thermal-management counters per round: the parsers,
 * the sysfs and tool readers, the throttled judgement and the results object (thermal.h is
 * the contract; docs/health.md the sources). */
#include "device/thermal.h"

#include <errno.h>
#include <glob.h>
#include <json-c/json.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lib/json_path.h"
#include "lib/spawn.h"
#include "lib/util.h"

#define ROW(k, n, m) {k, n, offsetof(struct thermal_counts, m)}
const struct thermal_count_row thermal_count_rows[] = {
    ROW("tmt1_transitions", "thm_temp1_trans_count", tmt1_transitions),
    ROW("tmt2_transitions", "thm_temp2_trans_count", tmt2_transitions),
    ROW("tmt1_time_s", "thm_temp1_total_time", tmt1_time_s),
    ROW("tmt2_time_s", "thm_temp2_total_time", tmt2_time_s),
    ROW("warning_temp_time_min", "warning_temp_time", warning_time_min),
    ROW("critical_temp_time_min", "critical_comp_time", critical_time_min),
};
#undef ROW
const size_t thermal_n_count_rows = sizeof(thermal_count_rows) / sizeof(thermal_count_rows[0]);

static struct health_value *count_at(struct thermal_counts *c, const struct thermal_count_row *r)
{
    return (struct health_value *)((char *)c + r->offset);
}
static const struct health_value *count_cat(const struct thermal_counts *c,
                                            const struct thermal_count_row *r)
{
    return (const struct health_value *)((const char *)c + r->offset);
}

static const char *const source_names[] = {"none", "hwmon", "nvme-cli", "smartctl", "simulator"};

const char *thermal_source_name(enum thermal_source s)
{
    return (unsigned)s < sizeof(source_names) / sizeof(source_names[0]) ? source_names[s] : "none";
}

/* ------------------------------------------------------------------ parsers */

int thermal_parse_nvme_smart_log(const char *json, struct thermal_reading *r, char *err,
                                 size_t errlen)
{
    if (!json)
        return errf(err, errlen, "nvme smart-log: no output");
    struct json_object *o = json_tokener_parse(json);
    if (!o || !json_object_is_type(o, json_type_object)) {
        json_object_put(o);
        return errf(err, errlen, "nvme smart-log: not a JSON object");
    }
    int n = 0;
    uint64_t v;
    if (health_json_u64(jp_get(o, "temperature"), &v) && v > 0) {   /* Kelvin; 0: no sensor */
        r->has_temperature = true;
        r->temperature_c = (double)v - 273;   /* as nvme-cli's text output (docs/health.md) */
        r->source = THERMAL_NVME_CLI;
        n++;
    }
    /* Critical Warning: a number, a string, or nvme-cli 2.11's {"value": ...}: health.c's
     * parser reads every form; taken here for the round only */
    struct health_snapshot h = {0};
    char herr[ERR_LEN];
    health_parse_nvme_smart_log(json, &h, herr, sizeof(herr));   /* -1 without data units */
    if (h.critical_warning.reported)
        r->critical_warning = h.critical_warning;
    for (size_t i = 0; i < thermal_n_count_rows; i++) {
        if (!health_json_u64(jp_get(o, thermal_count_rows[i].nvme_cli_key), &v) ||
            v > (uint64_t)INT64_MAX)
            continue;
        *count_at(&r->counts, &thermal_count_rows[i]) =
            (struct health_value){.reported = true, .value = (int64_t)v};
        r->counts_source = THERMAL_NVME_CLI;
        n++;
    }
    json_object_put(o);
    if (!n)
        return errf(err, errlen, "nvme smart-log: no temperature and no thermal counters");
    r->present = true;
    return 0;
}

int thermal_parse_hwmon(const char *text, double *celsius, char *err, size_t errlen)
{
    char *end;
    errno = 0;
    long long m = text ? strtoll(text, &end, 10) : 0;
    if (!text || end == text || errno || (*end && *end != '\n') || m < -273150 || m > 1000000)
        return errf(err, errlen, "hwmon: \"%.20s\" is not millidegrees Celsius",
                    text ? text : "");
    *celsius = (double)m / 1000.0;
    return 0;
}

/* ------------------------------------------------------------------ readers */

static bool first_glob(const char *pattern, char *text, size_t len)
{
    glob_t g;
    bool ok = false;
    if (glob(pattern, 0, NULL, &g) == 0) {
        for (size_t i = 0; i < g.gl_pathc && !ok; i++)
            ok = read_text_file(g.gl_pathv[i], text, len) >= 0;
        globfree(&g);
    }
    return ok;
}

bool thermal_hwmon(const char *root, const char *name, double *celsius)
{
    char disk[64], ctrl[64], pat[PATH_MAX], text[64], err[ERR_LEN];
    if (!root)
        root = "";
    health_whole_disk(root, name, disk, sizeof(disk));
    const bool nvme = !strncmp(disk, "nvme", 4);
    health_nvme_controller(disk, ctrl, sizeof(ctrl));
    /* NVMe: the nvme driver's hwmon under the controller, or under its PCI function
     * (UNCERTAIN: which kernels put it where; both are looked at); SATA: drivetemp's */
    const char *const forms[] = {
        "%s/sys/class/nvme/%s/hwmon*/temp1_input",
        "%s/sys/class/nvme/%s/device/hwmon/hwmon*/temp1_input",
        "%s/sys/class/block/%s/device/hwmon/hwmon*/temp1_input",
        "%s/sys/class/block/%s/device/hwmon*/temp1_input",
    };
    for (size_t i = nvme ? 0 : 2; i < sizeof(forms) / sizeof(forms[0]); i++) {
        snprintf(pat, sizeof(pat), forms[i], root, i < 2 ? ctrl : disk);
        if (first_glob(pat, text, sizeof(text)) &&
            thermal_parse_hwmon(text, celsius, err, sizeof(err)) == 0)
            return true;
    }
    return false;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* argv's stdout when it ran and said something; NULL with a note otherwise. */
static char *tool_out(char *const argv[], struct thermal_reading *r, double *tool_s)
{
    struct spawn_result sr;
    double t0 = now_s();
    int rc = spawn_run(argv, &sr);
    *tool_s += now_s() - t0;
    if (rc != 0) {
        snprintf(r->note, sizeof(r->note), "%s: cannot start it (%s)", argv[0], strerror(errno));
        return NULL;
    }
    char *out = NULL;
    if (sr.stopped || sr.status == 127 || (sr.status & 3) || !sr.out_len)
        snprintf(r->note, sizeof(r->note), "%s: exit status %d", argv[0], sr.status);
    else {
        out = sr.out;
        sr.out = NULL;
    }
    spawn_result_free(&sr);
    return out;
}

/* `nvme CMD /dev/nvmeN -o json` for the controller of NVMe disk DISK: its stdout, or NULL with
 * a note. */
static char *nvme_json(const char *disk, char *cmd, struct thermal_reading *r, double *tool_s)
{
    char ctrl[64], dev[80];
    health_nvme_controller(disk, ctrl, sizeof(ctrl));
    snprintf(dev, sizeof(dev), "/dev/%s", ctrl);
    char *argv[] = {"nvme", cmd, dev, "-o", "json", NULL};
    return tool_out(argv, r, tool_s);
}

static void read_nvme_cli(const char *disk, struct thermal_reading *r, double *tool_s)
{
    char err[ERR_LEN];
    char *text = nvme_json(disk, "smart-log", r, tool_s);
    if (!text)
        return;
    struct thermal_reading t = *r;
    if (r->has_temperature)   /* hwmon's reading (millidegrees) is kept over the log's Kelvin */
        t.has_temperature = false;
    if (thermal_parse_nvme_smart_log(text, &t, err, sizeof(err)) != 0)
        snprintf(r->note, sizeof(r->note), "%s", err);
    else {
        if (r->has_temperature) {
            t.has_temperature = true;
            t.temperature_c = r->temperature_c;
            t.source = r->source;
        }
        *r = t;
    }
    free(text);
}

int thermal_parse_thresholds(const char *json, struct thermal_reading *r, char *err,
                             size_t errlen)
{
    struct health_snapshot h = {0};
    if (health_parse_nvme_id_ctrl(json, &h, err, errlen) != 0 && !h.warning_temp_c.reported)
        return -1;
    if (!h.warning_temp_c.reported && !h.critical_temp_c.reported)
        return errf(err, errlen, "nvme id-ctrl: no warning or critical temperature threshold "
                    "(wctemp, cctemp)");
    r->warning_temp_c = h.warning_temp_c;
    r->critical_temp_c = h.critical_temp_c;
    return 0;
}

void thermal_read_thresholds(const char *disk, struct thermal_reading *r, double *tool_s)
{
    char err[ERR_LEN];
    char *text = nvme_json(disk, "id-ctrl", r, tool_s);
    if (!text)
        return;
    if (thermal_parse_thresholds(text, r, err, sizeof(err)) != 0)
        snprintf(r->note, sizeof(r->note), "%s", err);
    free(text);
}

static void read_smartctl(const char *disk, struct thermal_reading *r, double *tool_s)
{
    char dev[80];
    snprintf(dev, sizeof(dev), "/dev/%s", disk);
    char *argv[] = {"smartctl", "-j", "-a", dev, NULL};
    char *text = tool_out(argv, r, tool_s);
    if (!text)
        return;
    struct json_object *o = json_tokener_parse(text);
    uint64_t v;
    if (o && health_json_u64(jp_at(o, "temperature.current"), &v) && v > 0) {
        r->has_temperature = r->present = true;
        r->temperature_c = (double)v;
        r->source = THERMAL_SMARTCTL;
    }
    json_object_put(o);
    free(text);
}

void thermal_read_block(const char *root, const char *name, bool want_counts,
                        struct thermal_reading *r, double *tool_s)
{
    memset(r, 0, sizeof(*r));
    r->throttled = THERMAL_UNKNOWN;
    *tool_s = 0;
    if (!root)
        root = "";
    if (thermal_hwmon(root, name, &r->temperature_c)) {
        r->present = r->has_temperature = true;
        r->source = THERMAL_HWMON;
    }
    char disk[64];
    health_whole_disk(root, name, disk, sizeof(disk));
    const bool nvme = !strncmp(disk, "nvme", 4);
    if (!want_counts || *root)   /* a fake tree: no tools */
        return;
    if (nvme && health_tool_installed("nvme"))
        read_nvme_cli(disk, r, tool_s);
    else if (!nvme && !r->has_temperature && health_tool_installed("smartctl"))
        read_smartctl(disk, r, tool_s);
}

/* ------------------------------------------------------------------ throttled */

/* The counters' rule: YES when one rose since prev, NO when compared and none rose. */
static enum thermal_throttled judge_counts(const struct thermal_reading *prev,
                                           const struct thermal_reading *now)
{
    if (!prev || prev->counts_source == THERMAL_NONE || now->counts_source == THERMAL_NONE)
        return THERMAL_UNKNOWN;
    bool compared = false;
    for (size_t i = 0; i < thermal_n_count_rows; i++) {
        const struct health_value *a = count_cat(&prev->counts, &thermal_count_rows[i]);
        const struct health_value *b = count_cat(&now->counts, &thermal_count_rows[i]);
        if (!a->reported || !b->reported)
            continue;
        compared = true;
        if (b->value > a->value)
            return THERMAL_YES;
    }
    return compared ? THERMAL_NO : THERMAL_UNKNOWN;
}

void thermal_judge(const struct thermal_reading *prev, struct thermal_reading *now)
{
    if (now->counts_source == THERMAL_SIMULATOR)
        return;   /* the simulated drive says it itself */
    now->throttled = judge_counts(prev, now);
    now->throttled_by = now->throttled == THERMAL_YES ? THERMAL_BY_COUNTERS : THERMAL_BY_NONE;
    if (now->throttled != THERMAL_YES && now->has_temperature && now->warning_temp_c.reported &&
        now->temperature_c >= (double)now->warning_temp_c.value) {
        now->throttled = THERMAL_YES;
        now->throttled_by = THERMAL_BY_WARNING_TEMP;
    }
}

/* ------------------------------------------------------------------ results */

struct json_object *thermal_reading_json(const struct thermal_reading *r)
{
    struct json_object *o = json_object_new_object();
    if (r->has_temperature) {
        json_object_object_add(o, "temperature_c",
                               json_object_new_double(round(r->temperature_c * 100) / 100));
        json_object_object_add(o, "source", json_object_new_string(thermal_source_name(r->source)));
    }
    if (r->throttled != THERMAL_UNKNOWN)
        json_object_object_add(o, "throttled",
                               json_object_new_boolean(r->throttled == THERMAL_YES));
    if (r->throttled_by != THERMAL_BY_NONE)
        json_object_object_add(o, "throttled_by",
                               json_object_new_string(r->throttled_by == THERMAL_BY_COUNTERS
                                                          ? "counters"
                                                          : "warning temperature"));
    if (r->warning_temp_c.reported)
        json_object_object_add(o, "warning_temp_threshold_c",
                               json_object_new_int64(r->warning_temp_c.value));
    if (r->critical_temp_c.reported)
        json_object_object_add(o, "critical_temp_threshold_c",
                               json_object_new_int64(r->critical_temp_c.value));
    if (r->critical_warning.reported) {
        json_object_object_add(o, "critical_warning",
                               json_object_new_int64(r->critical_warning.value));
        if (r->critical_warning.value > 0)
            json_object_object_add(o, "critical_warning_bits",
                                   health_warning_bits_json(r->critical_warning.value));
    }
    if (r->counts_source != THERMAL_NONE) {
        json_object_object_add(o, "counts_source",
                               json_object_new_string(thermal_source_name(r->counts_source)));
        for (size_t i = 0; i < thermal_n_count_rows; i++) {
            const struct health_value *v = count_cat(&r->counts, &thermal_count_rows[i]);
            if (v->reported)
                json_object_object_add(o, thermal_count_rows[i].key,
                                       json_object_new_int64(v->value));
        }
    }
    if (r->note[0])
        json_object_object_add(o, "note", json_object_new_string(r->note));
    return o;
}

/* ------------------------------------------------------------------ for people */

static void label_words(bool throttled, bool by_temp, double temp_c, double warn_c, char *buf,
                        size_t len)
{
    if (!throttled)
        snprintf(buf, len, "%s", "");
    else if (by_temp && isfinite(temp_c) && isfinite(warn_c))
        snprintf(buf, len, "throttled (%.0f °C, at or above the warning threshold %.0f °C)",
                 temp_c, warn_c);
    else
        snprintf(buf, len, "throttled");
}

void thermal_label(const struct thermal_reading *r, char *buf, size_t len)
{
    label_words(r->throttled == THERMAL_YES, r->throttled_by == THERMAL_BY_WARNING_TEMP,
                r->has_temperature ? r->temperature_c : NAN,
                r->warning_temp_c.reported ? (double)r->warning_temp_c.value : NAN, buf, len);
}

void thermal_label_json(struct json_object *th, char *buf, size_t len)
{
    struct json_object *t = jp_get(th, "throttled"), *by = jp_get(th, "throttled_by");
    struct json_object *temp = jp_get(th, "temperature_c");
    struct json_object *w = jp_get(th, "warning_temp_threshold_c");
    label_words(json_object_is_type(t, json_type_boolean) && json_object_get_boolean(t),
                by && !strcmp(json_object_get_string(by), "warning temperature"),
                temp ? json_object_get_double(temp) : NAN, w ? json_object_get_double(w) : NAN,
                buf, len);
}
