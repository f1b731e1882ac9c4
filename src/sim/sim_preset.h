/* sim_preset.h — simulated-drive presets as data (profiles/devices/NAME.ini) and the target
 * syntax "sim:PRESET[,key=value...]".
 *
 * A preset file is one [device] section (plus optional [global]) whose keys are the field names
 * of struct sim_params (sim.h), one row each (lib/keys.h), with aliases: op = op_pct. Enums by name (dispatch=stripe|vca,
 * gc=greedy|fifo|dchoice), booleans 0/1/yes/no/on/off/true/false, sizes with units.h suffixes
 * (user_bytes=200GB, page_bytes=8k), times as plain numbers in the unit the key names (_us, _ms).
 * Any key can be overridden in the target string: sim:zdrive-r4-cm88-1.6t,k=64,dispatch=vca. */
#ifndef PTSBENCH_SIM_PRESET_H
#define PTSBENCH_SIM_PRESET_H

#include <stdio.h>

#include "sim/sim.h"

/* Set one field by key. where: message prefix ("profiles/devices/x.ini:12", "sim target").
 * Errors name the key and value: "sim target: k=3: must be a power of two". */
int sim_params_set(struct sim_params *p, const char *key, const char *value, const char *where,
                   char *err, size_t errlen);

/* Defaults, then the preset NAME from the first of dirs holding NAME.ini (dirs: NULL-terminated
 * list of "profiles/devices" directories). Unknown preset: error listing the available ones. */
int sim_preset_load(const char *name, const char *const *dirs, struct sim_params *p,
                    char *err, size_t errlen);

/* Is this a simulated-drive target ("sim:...")? */
int sim_target_is(const char *target);
/* "sim:PRESET[,key=value...]": preset, then overrides in order. */
int sim_target_parse(const char *target, const char *const *dirs, struct sim_params *p,
                     char *err, size_t errlen);

/* Print the presets found in dirs: name and description, one per line. Returns the count. */
int sim_preset_list(const char *const *dirs, FILE *out);
/* The presets' names, "a, b, c" into buf (truncated, never overrun); returns how many. */
unsigned sim_preset_names_join(const char *const *dirs, char *buf, size_t len);
/* Print every parameter (with its help and range, from the rows) and the derived figures (raw and user capacity, rho_eff, oracle WA,
 * expected FOB / steady-state 4 KiB random-write IOPS and 4 KiB random-read IOPS from the §6
 * formulas, scaled geometry at k). */
void sim_params_describe(const struct sim_params *p, FILE *out);

#endif
