/* cmd_sim.c — `ptsbench sim`: the built-in simulated drives (presets in profiles/devices) and
 * their calibration against the reviews (profiles/devices/calibration, judge/calibrate.h). */
#include <errno.h>
#include <json-c/json.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/options.h"
#include "core/results.h"
#include "lib/file.h"
#include "lib/util.h"
#include "judge/calibrate_session.h"
#include "read/measure.h"
#include "sim/sim_preset.h"

static bool list;
static const char *describe;
static const char *calibration, *keep, *json_out;
static unsigned jobs;

/* No short letters: -l is --label and -d nothing elsewhere. */
static const struct cli_opt opts[] = {
    {"list", 0, CLI_FLAG, &list, .help = "list the presets: name and description"},
    {"describe", 0, CLI_STR, &describe, .arg = "SPEC",
     .help = "print every parameter of PRESET after the overrides, then the\nderived figures: "
             "raw and user capacity, effective spare factor,\noracle write amplification, "
             "expected FOB and steady-state\n4 KiB random-write IOPS, 4 KiB random-read cap, "
             "QD1 latencies\nand the scaled geometry at k. They are expected (formula)\n"
             "figures of docs/simulated-drive.md, not measurements. SPEC\nmay carry the 'sim:' "
             "prefix."},
    {"calibration", 0, CLI_STR, &calibration, .arg = "PRESET",
     .help = "measure every figure the reviews published of PRESET's drive\n"
             "with the ptsbench command its calibration sheet names\n"
             "(profiles/devices/calibration/PRESET.ini), and print them\n"
             "side by side: published, simulated, ratio, tolerance, verdict;\n"
             "PRESET,key=value... measures the preset with overrides (a\n"
             "what-if: how far a changed parameter moves every figure)"},
    {"keep", 0, CLI_STR, &keep, .arg = "DIR",
     .help = "with --calibration: keep the commands' results in DIR (a new\n"
             "or empty directory; default: a temporary one, removed)"},
    {"json", 0, CLI_STR, &json_out, .arg = "FILE",
     .help = "with --calibration: the table as JSON (ptsbench.calibration)\n"
             "in FILE, written atomically"},
    {"jobs", 'j', CLI_UINT, &jobs, .arg = "N", .lo = 1, .hi = 8,
     .help = "with --calibration: run N commands at a time (default: the\n"
             "online CPUs, at most 8)"},
    {0},
};

static void cmd_sim_usage(FILE *f)
{
    fputs(
        "usage: ptsbench sim --list\n"
        "       ptsbench sim --describe PRESET[,key=value...]\n"
        "       ptsbench sim --calibration PRESET[,key=value...] [--json FILE] [--keep DIR] [-j N]\n"
        "\n"
        "The built-in simulated SSD: a deterministic drive model run in virtual time, used as a\n"
        "target with --target sim:PRESET[,key=value...] (ptsbench run). Presets are data files,\n"
        "profiles/devices/PRESET.ini, whose keys are the model's parameters.\n"
        "\n"
        ,
        f);
    cli_print_options(f, opts);
    fputs(
        "\n"
        "Overrides apply in order, after the preset: sim:generic-mlc25,op=7,k=2. Any parameter\n"
        "--describe prints is a key (op is short for op_pct). Values are for the full-size\n"
        "drive; k (a power of two) divides capacity and multiplies device times.\n"
        "\n"
        "--calibration tells how far to trust a preset: each row of its sheet is a figure a\n"
        "review published (docs/simulated-drive.md §7), measured on the preset in virtual time.\n"
        "\n"
        "Exit status: 0 done (--calibration: every represented row without a gap is within\n"
        "its tolerance), 1 no presets found, a command failed, or a row is outside its\n"
        "tolerance, 2 bad input.\n",
        f);
}

static int cmd_sim_describe(const char *spec, const char *const *dirs)
{
    char target[2048];
    if (strncmp(spec, "sim:", 4) == 0)
        str_copy(target, sizeof target, spec);
    else
        snprintf(target, sizeof target, "sim:%s", spec);
    struct sim_params p;
    char err[ERR_LEN];
    if (sim_target_parse(target, dirs, &p, err, sizeof err) < 0) {
        fprintf(stderr, "ptsbench sim: %s\n", err);
        return EXIT_USAGE;
    }
    sim_params_describe(&p, stdout);
    return EXIT_OK;
}

/* --calibration PRESET: the session (judge/calibrate_session.h) prepared, then run; the exit
 * code. */
static int cmd_sim_calibration(const char *spec)
{
    const struct calib_config cfg = {
        .spec = spec, .keep = keep, .json = json_out, .jobs = jobs,
        .preset_dirs = cli_data_dirs("profiles/devices"),
        .sheet_dirs = cli_data_dirs("profiles/devices/calibration"),
        .stop = cli_stop_flag(),
    };
    struct calib_session s;
    char err[8192];   /* the spec as given, and why */
    if (calib_session_prepare(&s, &cfg, err, sizeof(err)) != 0) {
        fprintf(stderr, "ptsbench sim: %s\n", err);
        return EXIT_USAGE;
    }
    cli_install_signals();
    const int code = calib_session_execute(&s);
    calib_session_free(&s);
    return code;
}

int cmd_sim(int argc, char **argv)
{
    int prc = cli_parse("sim", opts, argc, argv, NULL, NULL, 0, cmd_sim_usage);
    if (prc != CLI_GO)
        return prc == CLI_DONE ? EXIT_OK : EXIT_USAGE;
    if ((list != 0) + (describe != NULL) + (calibration != NULL) > 1) {
        fputs("ptsbench sim: --list, --describe and --calibration cannot be combined\n", stderr);
        return EXIT_USAGE;
    }
    if (!calibration && (keep || json_out || jobs)) {
        fprintf(stderr, "ptsbench sim: %s: only with --calibration\n",
                keep ? "--keep" : json_out ? "--json" : "--jobs");
        return EXIT_USAGE;
    }
    if (calibration)
        return cmd_sim_calibration(calibration);
    if (!list && !describe) {
        cmd_sim_usage(stderr);
        return EXIT_USAGE;
    }
    const char *const *dirs = cli_data_dirs("profiles/devices");
    if (describe)
        return cmd_sim_describe(describe, dirs);
    if (sim_preset_list(dirs, stdout) == 0) {
        fputs("ptsbench sim: no presets found (looked for profiles/devices/*.ini under "
              "$PTSBENCH_DATADIR, next to the binary, the installed share directory and ./)\n",
              stderr);
        return EXIT_FAILURE_RUN;
    }
    return EXIT_OK;
}
