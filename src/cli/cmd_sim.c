/* cmd_sim.c — `ptsbench sim`: the built-in simulated drives (presets in profiles/devices). */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/options.h"
#include "lib/util.h"
#include "sim/sim_preset.h"

static bool list;
static const char *describe;

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
    {0},
};

static void cmd_sim_usage(FILE *f)
{
    fputs(
        "usage: ptsbench sim --list\n"
        "       ptsbench sim --describe PRESET[,key=value...]\n"
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
        "Exit status: 0 done, 1 no presets found, 2 bad input.\n",
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

int cmd_sim(int argc, char **argv)
{
    int prc = cli_parse("sim", opts, argc, argv, NULL, NULL, 0, cmd_sim_usage);
    if (prc != CLI_GO)
        return prc == CLI_DONE ? EXIT_OK : EXIT_USAGE;
    if (list && describe) {
        fputs("ptsbench sim: --list and --describe cannot be combined\n", stderr);
        return EXIT_USAGE;
    }
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
