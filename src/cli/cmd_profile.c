/* cmd_profile.c — `ptsbench profile NAME...`: workload profiles as a matrix (profile_run.h). */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_fleet.h"
#include "cli/options.h"
#include "core/fleet.h"
#include "lib/util.h"
#include "profile/profile.h"
#include "profile/profile_run.h"

/* The parse's result (profile_parse sets it afresh each time: a --resume parses again). */
static struct profile_config cfg;
static const char *resume, *db_file;
static bool dry_run, list;
static struct cli_fleet fleet;

static int parse_compress(const char *value, void *target, char *err, size_t errlen)
{
    return wl_sweep_parse(value, 0, 100, target, err, errlen);
}

static int parse_workers(const char *value, void *target, char *err, size_t errlen)
{
    return wl_sweep_parse(value, 1, 1024, target, err, errlen);
}

static int parse_qd(const char *value, void *target, char *err, size_t errlen)
{
    return wl_sweep_parse(value, 1, 65536, target, err, errlen);
}

/* --precondition (cli.h cli_parse_precondition_fast): the mode and the fast pass. */
static struct cli_precondition precond = {&cfg.precondition, &cfg.fast.on, &cfg.fast.rho};

static const struct cli_opt opts[] = {
    CLI_FLEET_OPTIONS(&fleet, "block device, file or sim:PRESET (presets below)"),
    {"size", 0, CLI_SIZE, &cfg.create_size, .arg = "SIZE",
     .help = "create (or extend) a file target to SIZE"},
    {"compress", 0, CLI_CUSTOM, &cfg.compress, .parse = parse_compress, .arg = "LIST",
     .help = "data compressibility in percent, e.g. 0,90 (default: the\nprofile's "
             "sweep_compress, else its own value)"},
    {"workers", 0, CLI_CUSTOM, &cfg.workers, .parse = parse_workers, .arg = "LIST",
     .help = "worker counts, e.g. 1,4 (default: the profile's)"},
    {"qd", 0, CLI_CUSTOM, &cfg.qd, .parse = parse_qd, .arg = "LIST",
     .help = "queue depths per worker, e.g. 1,2,4,8,16,32,64,128"},
    CLI_PRECONDITION_OPTS(&precond, &cfg.fast.op_rho,
                          "steady: write the active range twice sequentially (WIPC) at\nthe "
                          "point's compressibility, let the stimulus precondition\nit (WDPC, see "
                          "--wdpc-fills), then run each point to SNIA\nsteady state and report its "
                          "window (default);\nwipc: the same WIPC, then a fixed --rounds per point "
                          "(burst\nafter WIPC, not steady state);\nnone: no writes first (burst / "
                          "fresh-out-of-box figures);"),
    {"purge", 0, CLI_CUSTOM, &cfg.purge, .parse = cli_parse_purge, .arg = "M",
     .help = "purge once before everything: auto | secure-erase | format |\nsanitize | discard "
             "| none (default none)"},
    {"round-time", 0, CLI_DURATION, &cfg.round_time_ns, 1, 0, .arg = "D",
     .help = "round length (default: the profile's runtime, else 60 s)"},
    {"rounds", 0, CLI_UINT, &cfg.max_rounds, 1, 1000000, .arg = "N",
     .help = "steady: at most N rounds per point (default 25); wipc/none:\nN rounds per point "
             "(default 1)"},
    {"time-limit", 0, CLI_DURATION, &cfg.time_limit_ns, 1, 0, .arg = "D",
     .help = "a total limit: the plan cuts every point's rounds to fit\n(and says so), no "
             "round starts past it, points left are\nrecorded as cut; on a simulated drive "
             "virtual time counts"},
    {"track", 0, CLI_STR, &cfg.track, .arg = "METRIC",
     .help = "steady-state metric (default iops; metrics below)"},
    {"wdpc-fills", 0, CLI_DOUBLE, &cfg.wdpc_fills, 0, 100, .arg = "X",
     .help = "steady: the first point's stimulus (WDPC) writes at least X\ntimes the active "
             "range, and until the fill guard passes\n(every 5-round average over a fill within "
             "5% of the\nlatest window's), before its rounds are judged (default 1)"},
    {"wdpc-max-fills", 0, CLI_DOUBLE, &cfg.wdpc_max_fills, 0.01, 100, .arg = "X",
     .help = "steady: ... and at most X (default 5); a drive still\nchanging then is reported "
             "as not steady"},
    {"engine", 'e', CLI_STR, &cfg.engine_name, .arg = "NAME",
     .help = "io_uring (default) or another engine below; sim:PRESET\nuses sim"},
    CLI_PLACEMENT_OPTS(&cfg.numa),
    CLI_TARGET_CHECK_OPTS(&cfg.allow_memory, &dry_run),
    {"out", 'o', CLI_STR, &cfg.out_dir, .arg = "DIR",
     .help = "results directory (default results/profile-YYYYmmdd-HHMMSS)"},
    {"force", 0, CLI_FLAG, &cfg.force, .help = "replace results.json already in DIR"},
    {"destructive", 0, CLI_FLAG, &cfg.destructive,
     .help = "allow writing to a block device, or over an existing file\nthat holds data (its "
             "data is destroyed); --purge counts as\nwriting"},
    {"overwrite-signatures", 0, CLI_FLAG, &cfg.overwrite_signatures,
     .help = "with --destructive: write even over a filesystem,\npartition table, LVM/RAID "
             "member or swap signature"},
    {"list", 0, CLI_FLAG, &list, .help = "list the profiles and their workloads"},
    {"db", 0, CLI_STR, &db_file, .arg = "FILE",
     .help = "when the run completes, import its results into the\nhistory FILE (ptsbench db)"},
    {"quiet", 'q', CLI_FLAG, &cfg.quiet, .help = "no progress lines"},
    {"resume", 0, CLI_STR, &resume, .arg = "DIR",
     .help = "go on with the profile whose results are in DIR (stopped by\na signal, a crash or "
             "a lost machine) with the options it\nrecorded (--quiet, --resume-as-is, "
             "--destructive and\n--overwrite-signatures may be added): its complete points are\n"
             "kept; the interrupted group is prepared again (WIPC, WDPC)\nand its interrupted "
             "point runs again; a simulated drive is\nreplayed from the start (its state does "
             "not outlive the\nprocess)"},
    {"no-layout", 0, CLI_FLAG, &cfg.no_layout,
     .help = "points that read a file target without preconditioning read\nits never-written "
             "parts as they are (default: written first\nwith the data of the first point, as "
             "fio lays out its files);\nsuch points are labelled"},
    {"resume-as-is", 0, CLI_FLAG, &cfg.resume_as_is,
     .help = "with --resume: the interrupted group goes on without WIPC and\nWDPC again (the "
             "gap is noted)"},
    {0},
};
#define N_OPTS (sizeof(opts) / sizeof(opts[0]) - 1)

static void profile_usage(FILE *f)
{
    fputs(
        "usage: ptsbench profile NAME... --target T [options]\n"
        "       ptsbench profile --list\n"
        "\n"
        "Run workload profiles (profiles/NAME.ini, below) at every combination of data\n"
        "compressibility, workers and queue depth, each point recorded round by round in\n"
        "OUT/results.json with its effective queue depth (workers x QD); a queue-depth series\n"
        "reports its saturation point (lowest effective QD reaching 95% of its maximum IOPS).\n"
        "NAME may be NAME:SECTION (one workload of a profile) or a FILE.ini.\n"
        "\n",
        f);
    cli_print_options(f, opts);
    fputc('\n', f);
    cli_fleet_usage(f);
    fputc('\n', f);
    cli_print_registry(f, "Profiles:", CLI_PROFILES, 2, "(ptsbench profile --list)");
    cli_print_registry(f, "Engines:", CLI_ENGINES, 2, "(ptsbench engines)");
    cli_print_registry(f, "Simulated drives (sim:PRESET):", CLI_SIM_PRESETS, 2,
                       "(ptsbench sim --list)");
    cli_print_registry(f, "Metrics (--track):", CLI_METRICS, 2, NULL);
    fputs("\nProfile keys (beside the workload keys of ptsbench run --help):\n", f);
    wl_keys_print(f, "profile");
    fputs(
        "\n"
        "Example (StorageReview's steady-state server profiles):\n"
        "  ptsbench profile database fileserver webserver workstation --target /dev/nvme0n1 \\\n"
        "      --destructive --compress 0,90 --workers 1,4\n"
        "Exit status: 0 done, 1 run failed, 2 bad input or refused (nothing written),\n"
        "130 interrupted (completed rounds are kept).\n",
        f);
}

static int list_profiles(void)
{
    const char *const *dirs = cli_data_dirs("profiles");
    char names[128][64];
    unsigned n = profile_list(dirs, names, 128);
    if (!n) {
        char where[2048];
        cli_data_searched("profiles", where, sizeof(where));
        fprintf(stderr, "ptsbench profile: no profiles found: looked in %s (set "
                        "PTSBENCH_DATADIR to the directory holding profiles/)\n", where);
        return EXIT_FAILURE_RUN;
    }
    for (unsigned i = 0; i < n; i++) {
        struct profile p;
        char err[ERR_LEN];
        if (profile_load(names[i], dirs, &p, err, sizeof(err)) != 0) {
            printf("%-18s (does not load: %s)\n", names[i], err);
            continue;
        }
        printf("%-18s %s\n", p.name, p.description);
        if (p.n > 1)
            for (unsigned w = 0; w < p.n; w++)
                printf("  %-16s %s\n", p.wls[w].name, p.wls[w].description);
        profile_free(&p);
    }
    return EXIT_OK;
}

/* Parse into cfg (profile names in order, before, between or after the options), resume,
 * dry_run and list; *others: the names and options a resume takes from the results file.
 * CLI_GO, CLI_DONE (help) or CLI_BAD (one line printed). */
static int profile_parse(int argc, char **argv, int full_argc, char **full_argv,
                         unsigned *others)
{
    profile_config_init(&cfg);
    cfg.profile_dirs = cli_data_dirs("profiles");
    cfg.argc = full_argc;
    cfg.argv = full_argv;
    resume = NULL;
    dry_run = list = false;
    cli_fleet_clear(&fleet);
    const char *names[PROFILE_MAX_SPECS + 1];   /* one more: "at most" is said below */
    unsigned uses[N_OPTS];
    int prc = cli_parse_uses("profile", opts, argc, argv, names, &cfg.n_specs,
                             PROFILE_MAX_SPECS + 1, profile_usage, uses);
    if (prc != CLI_GO)
        return prc;
    if (cfg.n_specs > PROFILE_MAX_SPECS) {
        fprintf(stderr, "ptsbench profile: at most %d profiles at once\n", PROFILE_MAX_SPECS);
        return CLI_BAD;
    }
    memcpy(cfg.specs, names, cfg.n_specs * sizeof(names[0]));
    *others = cli_resume_others(opts, uses) + cfg.n_specs;
    cfg.target_path = fleet.n ? fleet.targets[0] : NULL;
    return CLI_GO;
}

/* Check and plan everything (nothing written on bad input), then run, or (--dry-run) print
 * the plan only. */
static int profile_go(void)
{
    char err[ERR_LEN];
    if (cli_db_check("profile", db_file) != 0)
        return EXIT_USAGE;
    struct profile_session *s = profile_prepare(&cfg, err, sizeof(err));
    if (!s) {
        fprintf(stderr, "ptsbench profile: %s\n", err);
        return EXIT_USAGE;
    }
    if (fleet_check_only()) {   /* one of several targets, asked only to check (cli/cli_fleet.h) */
        profile_session_free(s);
        return EXIT_OK;
    }
    if (!cfg.quiet || dry_run)
        profile_print_plan(s);
    int code = EXIT_OK;
    if (dry_run)
        profile_print_dry_run(s);
    else {
        cli_install_signals();
        code = profile_execute(s, cli_stop_flag());
        code = cli_db_import_after(db_file, profile_results_path(s), code, cfg.quiet);
    }
    profile_session_free(s);
    return code;
}

int cmd_profile(int argc, char **argv, int full_argc, char **full_argv)
{
    unsigned others = 0;
    int prc = profile_parse(argc, argv, full_argc, full_argv, &others);
    if (prc != CLI_GO)
        return prc == CLI_DONE ? EXIT_OK : EXIT_USAGE;
    if (list)
        return list_profiles();
    if (resume) {
        static const char *const commands[] = {"profile", NULL};
        const struct cli_resume_flags flags = {cfg.resume_as_is, cfg.quiet, cfg.destructive,
                                               cfg.overwrite_signatures};
        return cli_resume_again("profile", "profile", resume, others, "ptsbench.profile",
                                commands, &flags, cmd_profile);
    }
    if (cli_resume_merge("profile", &cfg.resume, &cfg.resume_as_is, &cfg.quiet,
                         &cfg.destructive, &cfg.overwrite_signatures) != 0)
        return EXIT_USAGE;
    if (dry_run && fleet.n > 1) {   /* every target's plan; nothing is written */
        int code = EXIT_OK;
        for (unsigned i = 0; i < fleet.n && code == EXIT_OK; i++) {
            cfg.target_path = fleet.targets[i];
            code = profile_go();
        }
        return code;
    }
    static const char *const words[] = {"profile"};
    const int fc = cli_fleet_dispatch(&fleet, words, 1, "profile", cfg.out_dir, cfg.force,
                                      &cfg.target_path);
    if (fc != CLI_FLEET_ONE)
        return fc;
    return profile_go();
}
