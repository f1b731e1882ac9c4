/* thermal.h — a drive's temperature and thermal-management counters, read at the end of every
 * round, and whether the drive throttled during it (docs/health.md, "Temperature and
 * throttling per round", has the sources and the rules).
 *
 * Sources, cheapest first:
 *   - hwmon in sysfs: the NVMe driver's sensor (/sys/class/nvme/nvmeN/hwmon*\/temp1_input, the
 *     Composite Temperature) or drivetemp's for SATA (/sys/class/block/sdX/device/hwmon/
 *     hwmon*\/temp1_input); millidegrees Celsius; no counters;
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
 * a round whose counters were not read.
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

/* throttled of `now` against the previous reading of the same drive (NULL: none). */
void thermal_judge(const struct thermal_reading *prev, struct thermal_reading *now);

/* ---- results ---- {"temperature_c", "source", "throttled", "counts_source", COUNT...,
 * "note"}: absent members for what was not read. */
struct json_object *thermal_reading_json(const struct thermal_reading *r);

#endif
