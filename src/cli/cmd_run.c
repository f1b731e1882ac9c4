/* cmd_run.c — `ptsbench run`: one workload on one target, round by round (core/run.h). */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_fleet.h"
#include "cli/options.h"
#include "core/fleet.h"
#include "core/run.h"
#include "io/workload.h"
#include "lib/util.h"

/* The parse's result (run_parse sets it afresh each time: a --resume parses again). cfg owns
 * the --remote list (cli_free_remotes). */
static struct run_config cfg;
static const char *workload, *resume;
static bool all_rounds, dry_run;
static const char *db_file;
static struct cli_fleet fleet;

static int parse_remote(const char *value, void *target, char *err, size_t errlen)
{
    struct run_config *c = target;
    return cli_add_remotes(value, c->remotes, &c->n_remotes,
                           sizeof(c->remotes) / sizeof(c->remotes[0]), err, errlen);
}

/* --precondition (cli.h cli_parse_precondition_fast): the mode, the fast pass and fast:RHO. */
static struct cli_precondition precond = {&cfg.precondition, &cfg.fast_pass, &cfg.fast_rho};

static const struct cli_opt opts[] = {
    CLI_FLEET_OPTIONS(&fleet, "block device (/dev/nvme0n1, /dev/sdb, /dev/zram0), file, or\n"
                              "simulated drive sim:PRESET[,key=value...] (presets below)"),
    {"size", 0, CLI_SIZE, &cfg.create_size, .arg = "SIZE",
     .help = "create (or extend) a file target to SIZE, e.g. 4g"},
    {"workload", 'w', CLI_STR, &workload, .arg = "SPEC",
     .help = "inline: rw=randrw,rwmixread=65,bs=4k,qd=32,workers=4,compress=90\nor a profile: "
             "NAME (profiles/NAME.ini), FILE.ini, FILE.ini:SECTION"},
    {"rounds", 'n', CLI_UINT, &cfg.max_rounds, 1, 1000000, .arg = "N",
     .help = "at most N rounds (default 25, the PTS limit)"},
    {"round-time", 0, CLI_DURATION, &cfg.round_time_ns, 1, 0, .arg = "DUR",
     .help = "round length in time: 60, 60s, 5m (default: workload's runtime,\nelse 60 s as in "
             "the PTS)"},
    {"time-limit", 0, CLI_DURATION, &cfg.time_limit_ns, 1, 0, .arg = "DUR",
     .help = "a total limit: timed rounds are cut to fit (the plan says\nfrom how many to how "
             "many), and no round starts once the ramp\nand rounds have taken it; on a simulated "
             "drive virtual time\ncounts"},
    {"round-bytes", 0, CLI_SIZE, &cfg.round_bytes, 1, 0, .arg = "SIZE",
     .help = "round length in bytes written instead of time"},
    {"track", 0, CLI_STR, &cfg.track, .arg = "METRIC",
     .help = "steady-state variable: iops (default) or another metric below"},
    {"all-rounds", 0, CLI_FLAG, &all_rounds, .help = "keep going after steady state is reached"},
    {"purge", 0, CLI_CUSTOM, &cfg.purge, .parse = cli_parse_purge, .arg = "METHOD",
     .help = "purge the drive first (docs/pts.md §1.1): auto, secure-erase,\nformat, sanitize, "
             "discard or none (default); the results\nsay whether it is SNIA-compliant"},
    CLI_PRECONDITION_OPTS(&precond, &cfg.op_rho,
                          "how the drive is prepared before the rounds:\nnone (default): nothing; "
                          "a flat window is reported as\n  \"stable (fresh-out-of-box / burst)\", "
                          "never steady state;\nwipc: the active range written twice with "
                          "sequential\n  128 KiB writes (WIPC) at the workload's compressibility;"
                          "\nsteady: WIPC, then the workload itself (WDPC) until the fill\n  guard "
                          "passes, then rounds to SNIA steady state;"),
    {"no-layout", 0, CLI_FLAG, &cfg.no_layout,
     .help = "a workload that reads a file target reads its never-written\nparts as they are "
             "(default: they are written first with the\nrun's data, as fio lays out its "
             "files); such rounds are labelled"},
    {"wdpc-fills", 0, CLI_DOUBLE, &cfg.wdpc_min_fills, 0, 1000, .arg = "X",
     .help = "steady: the WDPC writes at least X times the active range\n(default 1)"},
    {"wdpc-max-fills", 0, CLI_DOUBLE, &cfg.wdpc_max_fills, 0.01, 1000, .arg = "X",
     .help = "steady: ... and at most X (default 5); a drive still\nchanging then is reported "
             "as not steady"},
    {"engine", 'e', CLI_STR, &cfg.engine_name, .arg = "NAME",
     .help = "io_uring (default) or another engine below; fio and fio-libaio\n(the installed "
             "fio runs each round: job files and fio's JSON are\nkept in OUT/fio/); sim:PRESET "
             "targets use the sim engine"},
    {"remote", 0, CLI_CUSTOM, &cfg, .parse = parse_remote, .arg = "HOST[:PORT]",
     .help = "run fio on HOST through its client/server mode (start\n`fio --server` there; port "
             "8765 by default); repeat for\nseveral hosts, or --remote @FILE with one host per "
             "line.\nThe target path and --size are those on every host; results\nkeep each "
             "host's figures and the aggregate"},
    CLI_PLACEMENT_OPTS(&cfg.numa),
    CLI_TARGET_CHECK_OPTS(&cfg.allow_memory, &dry_run),
    {"out", 'o', CLI_STR, &cfg.out_dir, .arg = "DIR",
     .help = "results directory (default results/run-YYYYmmdd-HHMMSS)"},
    {"force", 0, CLI_FLAG, &cfg.force, .help = "replace results.json already in DIR"},
    {"destructive", 0, CLI_FLAG, &cfg.destructive,
     .help = "allow writes to a block device, or over an existing file\nthat holds data (its "
             "data is destroyed); still refused when\nit is mounted, swap, held or backs /, or "
             "backs a loop device"},
    {"overwrite-signatures", 0, CLI_FLAG, &cfg.overwrite_signatures,
     .help = "with --destructive: write even over a filesystem,\npartition table, LVM/RAID "
             "member or swap signature found on\nthe device (refused otherwise, naming what was "
             "found)"},
    {"db", 0, CLI_STR, &db_file, .arg = "FILE",
     .help = "when the run completes, import its results into the\nhistory FILE (ptsbench db)"},
    {"quiet", 'q', CLI_FLAG, &cfg.quiet, .help = "no progress lines"},
    {"resume", 0, CLI_STR, &resume, .arg = "DIR",
     .help = "go on with the run whose results are in DIR, stopped by a\nsignal, a crash or a "
             "lost machine, with the options it\nrecorded (--quiet, --resume-as-is, "
             "--destructive and\n--overwrite-signatures may be added): its rounds are kept; a\n"
             "simulated drive is replayed from the start (its state does not\noutlive the "
             "process); a real one, not held in the gap, is\npreconditioned again as the run "
             "was before the next round"},
    {"resume-as-is", 0, CLI_FLAG, &cfg.resume_as_is,
     .help = "with --resume: go on without preconditioning again (the gap\nis recorded)"},
    {0},
};
#define N_OPTS (sizeof(opts) / sizeof(opts[0]) - 1)

static void run_usage(FILE *f)
{
    fputs(
        "usage: ptsbench run --target PATH --workload SPEC [options]\n"
        "\n"
        "Run a workload on a block device or a file for up to N rounds, recording every round\n"
        "(IOPS, MB/s and MiB/s, latency percentiles, per-second samples, the drive's state) and\n"
        "the SNIA steady-state verdict in DIR/results.json, rewritten atomically after each\n"
        "round. Steady state is claimed only after --precondition steady (WIPC, then the\n"
        "workload until a whole active-range fill shows no trend, then a 5-round window within\n"
        "the PTS's limits); without it a flat window is the drive's burst plateau.\n"
        "\n",
        f);
    cli_print_options(f, opts);
    fputc('\n', f);
    cli_fleet_usage(f);
    fputc('\n', f);
    cli_print_registry(f, "Engines:", CLI_ENGINES, 2, "(ptsbench engines)");
    cli_print_registry(f, "Simulated drives (sim:PRESET):", CLI_SIM_PRESETS, 2,
                       "(ptsbench sim --list)");
    cli_print_registry(f, "Metrics (--track):", CLI_METRICS, 2, NULL);
    fputs("\nWorkload keys (fio job files take fio's too: docs/workloads.md):\n", f);
    wl_keys_print(f, "workload");
    fputs(
        "\n"
        "Sizes: 512, 4k = 4KiB = 4096 (binary, as fio); 4kB = 4KB = 4000 (decimal, SI).\n"
        "Exit status: 0 done, 1 run failed, 2 bad input or refused (nothing written),\n"
        "130 interrupted (completed rounds are kept).\n",
        f);
}

/* Parse into cfg, workload and resume; *others: the options a resume takes from the results
 * file. CLI_GO, CLI_DONE (help) or CLI_BAD (one line printed). */
static int run_parse(int argc, char **argv, int full_argc, char **full_argv, unsigned *others)
{
    cli_free_remotes(cfg.remotes, cfg.n_remotes);
    run_config_init(&cfg);
    cfg.argc = full_argc;
    cfg.argv = full_argv;
    workload = resume = NULL;
    all_rounds = dry_run = false;
    cli_fleet_clear(&fleet);
    unsigned uses[N_OPTS];
    int prc = cli_parse_uses("run", opts, argc, argv, NULL, NULL, 0, run_usage, uses);
    if (prc != CLI_GO)
        return prc;
    *others = cli_resume_others(opts, uses);
    cfg.target_path = fleet.n ? fleet.targets[0] : NULL;
    if (all_rounds)
        cfg.stop_at_steady = false;
    if (cfg.round_bytes && cfg.round_time_ns) {
        fprintf(stderr, "ptsbench run: --round-time and --round-bytes exclude each other\n");
        return CLI_BAD;
    }
    return CLI_GO;
}

/* Check everything (nothing written on bad input), then run. */
static int run_go(void)
{
    char err[ERR_LEN];
    struct run_record *rec = xcalloc(1, sizeof(*rec));
    int code = EXIT_USAGE;
    if (cli_db_check("run", db_file) != 0) {
        code = EXIT_USAGE;   /* the line is printed */
    } else if (run_prepare(rec, &cfg, workload, cli_data_dirs("profiles"), err,
                           sizeof(err)) != 0) {
        fprintf(stderr, "ptsbench run: %s\n", err);
    } else if (fleet_check_only()) {
        code = EXIT_OK;   /* one of several targets, asked only to check (cli/cli_fleet.h) */
    } else if (dry_run) {
        run_print_plan(rec);
        run_print_dry_run(&rec->target, run_writes(rec) || rec->prep != DS_PREP_NONE ||
                                            cfg.purge != PURGE_NONE,
                          rec->layout, cfg.purge, rec->results_path);
        code = EXIT_OK;
    } else {
        cli_install_signals();
        code = run_execute(rec, cli_stop_flag());
        code = cli_db_import_after(db_file, rec->results_path, code, cfg.quiet);
    }
    run_record_free(rec);
    free(rec);
    return code;
}

/* A command line of run: the user's, or (--resume) the one a stopped run recorded. */
static int run_command(int argc, char **argv, int full_argc, char **full_argv)
{
    unsigned others = 0;
    int prc = run_parse(argc, argv, full_argc, full_argv, &others);
    if (prc != CLI_GO)
        return prc == CLI_DONE ? EXIT_OK : EXIT_USAGE;
    if (resume) {
        static const char *const commands[] = {"run", NULL};
        const struct cli_resume_flags flags = {cfg.resume_as_is, cfg.quiet, cfg.destructive,
                                               cfg.overwrite_signatures};
        return cli_resume_again("run", "run", resume, others, "ptsbench.run", commands, &flags,
                                run_command);
    }
    if (cli_resume_merge("run", &cfg.resume, &cfg.resume_as_is, &cfg.quiet, &cfg.destructive,
                         &cfg.overwrite_signatures) != 0)
        return EXIT_USAGE;
    if (dry_run && fleet.n > 1) {   /* every target's plan; nothing is written */
        int code = EXIT_OK;
        for (unsigned i = 0; i < fleet.n && code == EXIT_OK; i++) {
            cfg.target_path = fleet.targets[i];
            code = run_go();
        }
        return code;
    }
    static const char *const words[] = {"run"};
    const int fc = cli_fleet_dispatch(&fleet, words, 1, "run", cfg.out_dir, cfg.force,
                                      &cfg.target_path);
    if (fc != CLI_FLEET_ONE)
        return fc;
    return run_go();
}

int cmd_run(int argc, char **argv, int full_argc, char **full_argv)
{
    int code = run_command(argc, argv, full_argc, full_argv);
    cli_free_remotes(cfg.remotes, cfg.n_remotes);   /* on every path, errors included */
    cfg.n_remotes = 0;
    cli_fleet_clear(&fleet);
    return code;
}
