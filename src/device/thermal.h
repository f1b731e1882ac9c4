/* thermal.h — a drive's temperature and thermal-management counters, read at the end of every
 * round, and whether the drive throttled during it (docs/health.md, "Temperature and
 * throttling per round", has the sources and the rules).
 *
 * Sources, cheapest first:
 *   - hwmon in sysfs: the NVMe driver's sensor (/sys/class/nvme/nvmeN/hwmon*\/temp1_input, the
 *     Composite Temperature) or drivetemp's for SATA (/sys/class/block/sdX/device/hwmon/
 *     hwmon*\/temp1_input); millidegrees Celsius; no counters;
 *   - `nvme id-ctrl /dev/nvmeN -o json`, once per drive: its warning and critical composite
 *     temperature thresholds (WCTEMP, CCTEMP, Kelvin; Identify Controller);
 *   - `nvme smart-log /dev/nvmeN -o json`: the SMART / Health Information log's Composite
 *     Temperature (Kelvin) and its thermal counters: Thermal Management Temperature 1 and 2
 *     Transition Count and Total Time (seconds), Warning and Critical Composite Temperature
 *     Time (minutes) (NVMe Base Specification, Log Page Identifier 02h, bytes 216-231 and
 *     196-203);
 *   - `smartctl -j -a /dev/sdX`: temperature.current (°C) for SATA/SAS without hwmon;
 *   - the simulated drive's thermal model (sim/sim_thermal.h), when its preset has it on.
 * A field no source gives is unreported: absent from the results, never 0.
 *
 * throttled: true when a thermal-management transition count or total time, or the warning
 * or critical temperature time, rose since the previous reading (or the simulated drive spent
 * time throttled in the round); false when the counters were read both times and none rose;
 * unknown (THERMAL_UNKNOWN) otherwise: a drive that reports no counters, the first reading,
 * a round whose counters were not read. Whatever the counters say, a round whose temperature at
 * its end is at or above the drive's warning composite temperature threshold (WCTEMP) is
 * throttled (throttled_by THERMAL_BY_WARNING_TEMP): the counters' own rule already counts time
 * above WCTEMP (Warning Composite Temperature Time) as throttled, and this is that condition
 * read directly, without the counters (docs/health.md says what it does and does not prove).
 *
 * The parsers are pure functions of their text. */
#ifndef PTSBENCH_THERMAL_H
#define PTSBENCH_THERMAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "device/health.h"

struct json_object;

enum thermal_source {
    THERMAL_NONE = 0,
    THERMAL_HWMON,
    THERMAL_NVME_CLI,
    THERMAL_SMARTCTL,
    THERMAL_SIMULATOR,
};
const char *thermal_source_name(enum thermal_source s);   /* "hwmon", "nvme-cli", ... */

enum thermal_throttled { THERMAL_UNKNOWN = -1, THERMAL_NO = 0, THERMAL_YES = 1 };
/* What said THERMAL_YES: the counters (or the simulated drive's model), or the temperature at
 * the round's end at or above the drive's warning composite temperature threshold (WCTEMP). */
enum thermal_by { THERMAL_BY_NONE = 0, THERMAL_BY_COUNTERS, THERMAL_BY_WARNING_TEMP };

/* The counters, as rows (key in the results, where in the struct). */
struct thermal_counts {
    struct health_value tmt1_transitions, tmt2_transitions;   /* counts */
    struct health_value tmt1_time_s, tmt2_time_s;             /* seconds */
    struct health_value warning_time_min, critical_time_min;  /* minutes */
};
struct thermal_count_row {
    const char *key;            /* "tmt1_transitions" */
    const char *nvme_cli_key;   /* nvme-cli's JSON name: "thm_temp1_trans_count" */
    size_t offset;
};
extern const struct thermal_count_row thermal_count_rows[];
extern const size_t thermal_n_count_rows;

struct thermal_reading {
    bool present;                  /* anything was read */
    enum thermal_source source;    /* of the temperature */
    bool has_temperature;
    double temperature_c;
    enum thermal_source counts_source;   /* THERMAL_NONE: no counters read */
    struct thermal_counts counts;
    enum thermal_throttled throttled;
    enum thermal_by throttled_by;
    /* NVMe: the drive's warning and critical composite temperature thresholds (°C, from nvme
     * id-ctrl's WCTEMP and CCTEMP, read once per drive) and the SMART log's Critical Warning
     * byte at the round's end (health.h, health_warning_words) */
    struct health_value warning_temp_c, critical_temp_c, critical_warning;
    char note[128];                /* why counters are missing ("nvme smart-log: skipped ...") */
};

/* ---- parsers (pure): 0, or -1 with one line in err ---- */
/* nvme-cli's smart-log JSON: the Composite Temperature (Kelvin, 0 = no sensor) and the
 * counters present (numbers or strings of digits). -1 when it is not a JSON object or holds
 * neither. */
int thermal_parse_nvme_smart_log(const char *json, struct thermal_reading *r, char *err,
                                 size_t errlen);
/* A hwmon temp*_input file's text: millidegrees Celsius. */
int thermal_parse_hwmon(const char *text, double *celsius, char *err, size_t errlen);

/* ---- reading a block device ---- The hwmon temperature of block device NAME (its whole
 * disk) under ROOT ("" the live /sys; a test's fake tree). True when found. */
bool thermal_hwmon(const char *root, const char *name, double *celsius);
/* The reading of block device NAME at a round's end: hwmon, then (when want_counts) nvme-cli's
 * counters (NVMe) or smartctl's temperature (others, only without hwmon). *tool_s: the seconds
 * the tool took (0 when none ran). Never writes to the device. */
void thermal_read_block(const char *root, const char *name, bool want_counts,
                        struct thermal_reading *r, double *tool_s);

/* The drive's WCTEMP and CCTEMP into r (nvme id-ctrl; health_parse_nvme_id_ctrl reads them),
 * from `nvme id-ctrl /dev/nvmeN -o json` for NVMe disk DISK ("nvme0n1"); *tool_s grows by what
 * the tool took. Nothing when nvme-cli is missing or says nothing (r->note then says why). */
void thermal_read_thresholds(const char *disk, struct thermal_reading *r, double *tool_s);
/* The same from id-ctrl's JSON text (0, or -1 with one line in err). */
int thermal_parse_thresholds(const char *json, struct thermal_reading *r, char *err,
                             size_t errlen);

/* throttled of `now` against the previous reading of the same drive (NULL: none), then the
 * warning-temperature rule (above). */
void thermal_judge(const struct thermal_reading *prev, struct thermal_reading *now);

/* ---- results ---- {"temperature_c", "source", "throttled", "throttled_by" ("counters",
 * "warning temperature"), "warning_temp_threshold_c", "critical_temp_threshold_c",
 * "critical_warning", "critical_warning_bits" (when any is set), "counts_source", COUNT...,
 * "note"}: absent members for what was not read. */
struct json_object *thermal_reading_json(const struct thermal_reading *r);

/* ---- for people ---- A round's label: "throttled", "throttled (86 °C, at or above the
 * warning threshold 84 °C)" when the temperature said it; "" when the round did not throttle
 * or it is unknown. From the reading, or from its results object (`show`, the report). */
void thermal_label(const struct thermal_reading *r, char *buf, size_t len);
void thermal_label_json(struct json_object *thermal, char *buf, size_t len);

#endif
