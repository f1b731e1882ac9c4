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
#include "judge/calibrate.h"
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

/* --calibration PRESET: run the sheet's commands, judge, print; the exit code. */
static int cmd_sim_calibration(const char *spec)
{
    char path[4200] = "", err[ERR_LEN], preset[64];
    /* PRESET[,key=value...]: the sheet is PRESET's; the overrides are checked here (one line
     * naming the bad key or value, exit 2) before any command runs */
    if (strncmp(spec, "sim:", 4) == 0)
        spec += 4;
    const char *comma = strchr(spec, ',');
    const size_t plen = comma ? (size_t)(comma - spec) : strlen(spec);
    if (plen == 0 || plen >= sizeof(preset) || (comma && !comma[1])) {
        fprintf(stderr, "ptsbench sim: --calibration %s: expected PRESET[,key=value...]\n", spec);
        return EXIT_USAGE;
    }
    memcpy(preset, spec, plen);
    preset[plen] = '\0';
    if (comma) {
        char target[2048];
        struct sim_params p;
        snprintf(target, sizeof target, "sim:%s", spec);
        if (sim_target_parse(target, cli_data_dirs("profiles/devices"), &p, err, sizeof err) < 0) {
            fprintf(stderr, "ptsbench sim: --calibration %s: %s\n", spec, err);
            return EXIT_USAGE;
        }
    }
    const char *const *dirs = cli_data_dirs("profiles/devices/calibration");
    for (size_t i = 0; dirs[i] && !path[0]; i++) {
        snprintf(path, sizeof(path), "%s/%s.ini", dirs[i], preset);
        if (!file_exists(path))
            path[0] = '\0';
    }
    if (!path[0]) {
        fprintf(stderr, "ptsbench sim: --calibration %s: no calibration sheet %s.ini in "
                "profiles/devices/calibration\n", preset, preset);
        return EXIT_USAGE;
    }
    struct calib_sheet sh;
    if (calib_load(path, &sh, err, sizeof(err)) != 0) {
        fprintf(stderr, "ptsbench sim: %s\n", err);
        return EXIT_USAGE;
    }
    if (comma && strlen(comma + 1) >= sizeof(sh.overrides)) {
        fprintf(stderr, "ptsbench sim: --calibration %s: overrides longer than %zu bytes\n", spec,
                sizeof(sh.overrides) - 1);
        calib_free(&sh);
        return EXIT_USAGE;
    }
    if (comma)
        str_copy(sh.overrides, sizeof(sh.overrides), comma + 1);
    char dir[4096];
    if (keep) {
        if (file_mkdir_p(keep, err, sizeof(err)) != 0) {
            fprintf(stderr, "ptsbench sim: --keep %s: %s\n", keep, err);
            calib_free(&sh);
            return EXIT_USAGE;
        }
        str_copy(dir, sizeof(dir), keep);
    } else {
        const char *tmp = getenv("TMPDIR");
        snprintf(dir, sizeof(dir), "%s/ptsbench-calibration-XXXXXX", tmp && *tmp ? tmp : "/tmp");
        if (!mkdtemp(dir)) {
            fprintf(stderr, "ptsbench sim: cannot make a directory %s: %s\n", dir,
                    strerror(errno));
            calib_free(&sh);
            return EXIT_FAILURE_RUN;
        }
    }
    char exe[4096];
    const ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
    if (n <= 0) {
        fprintf(stderr, "ptsbench sim: cannot find this program (/proc/self/exe): %s\n",
                strerror(errno));
        calib_free(&sh);
        return EXIT_FAILURE_RUN;
    }
    exe[n] = '\0';
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    const unsigned j = jobs ? jobs : cpus < 1 ? 1 : cpus > 8 ? 8 : (unsigned)cpus;
    cli_install_signals();
    fprintf(stderr, "calibration %s: %zu rows, %zu commands, %u at a time, results in %s\n",
            sh.preset, sh.n, sh.ncmd, j, dir);
    int code = EXIT_OK;
    if (calib_run(&sh, exe, dir, j, cli_stop_flag(), stderr, err, sizeof(err)) != 0) {
        fprintf(stderr, "ptsbench sim: --calibration %s: %s\n", preset, err);
        code = *cli_stop_flag() ? 130 : EXIT_FAILURE_RUN;
    }
    struct meas_set *sets = xcalloc(sh.ncmd ? sh.ncmd : 1, sizeof(*sets));
    const struct meas_set **use = xcalloc(sh.ncmd ? sh.ncmd : 1, sizeof(*use));
    for (size_t i = 0; code == EXIT_OK && i < sh.ncmd; i++) {
        if (sh.cmd[i].status != 0)
            continue;
        char e2[ERR_LEN];
        if (meas_load_flags(sh.cmd[i].dir, MEAS_LOAD_RECOVERY, &sets[i], e2, sizeof(e2)) == 0)
            use[i] = &sets[i];
        else
            snprintf(sh.cmd[i].err, sizeof(sh.cmd[i].err), "its results: %s", e2);
    }
    if (code == EXIT_OK) {
        calib_judge(&sh, use);
        calib_print(&sh, stdout);
        const struct calib_count c = calib_counts(&sh);
        bool failed = false;
        for (size_t i = 0; i < sh.ncmd; i++)
            failed = failed || sh.cmd[i].status != 0;
        if (failed || c.failing)
            code = EXIT_FAILURE_RUN;
        if (json_out) {
            struct json_object *doc = calib_json(&sh);
            if (results_write_json_atomic(doc, json_out, err, sizeof(err)) != 0) {
                fprintf(stderr, "ptsbench sim: --json %s: %s\n", json_out, err);
                code = EXIT_FAILURE_RUN;
            }
            json_object_put(doc);
        }
    }
    for (size_t i = 0; i < sh.ncmd; i++)
        if (use[i])
            meas_free(&sets[i]);
    free(sets);
    free(use);
    calib_free(&sh);
    if (!keep)
        file_remove_tree(dir);
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
