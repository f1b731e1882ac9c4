/* cmd_replay.c — `ptsbench replay TRACE... --target T`: a block I/O trace issued on a target
 * (core/replay.h). */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_fleet.h"
#include "cli/options.h"
#include "core/fleet.h"
#include "core/replay.h"
#include "lib/util.h"

static struct replay_config cfg;
static const char *mode;
static bool dry_run;
static struct cli_fleet fleet;

static int parse_mode(const char *value, void *target, char *err, size_t errlen)
{
    enum replay_mode *m = target;
    if (!strcmp(value, "timed"))
        *m = REPLAY_TIMED;
    else if (!strcmp(value, "afap"))
        *m = REPLAY_AFAP;
    else
        return errf(err, errlen, "want timed or afap");
    return 0;
}

static int parse_remap(const char *value, void *target, char *err, size_t errlen)
{
    if (strcmp(value, "none") && strcmp(value, "wrap") && strcmp(value, "scale"))
        return errf(err, errlen, "want none, wrap or scale");
    *(const char **)target = value;
    return 0;
}

static const struct cli_opt opts[] = {
    CLI_FLEET_OPTIONS(&fleet, "block device, file, or simulated drive\n"
                              "sim:PRESET[,key=value...]"),
    {"size", 0, CLI_SIZE, &cfg.create_size, .arg = "SIZE",
     .help = "create (or extend) a file target to SIZE, e.g. 4g"},
    {"mode", 0, CLI_CUSTOM, &cfg.mode, .parse = parse_mode, .arg = "M",
     .help = "timed: each I/O at its trace time (default when the trace\n  has times), "
             "lateness measured;\nafap: as fast as possible at the queue depth"},
    {"qd", 0, CLI_UINT, &cfg.qd, 1, 65536, .arg = "N",
     .help = "afap: N outstanding I/Os (default: the trace's own depth\n  per I/O when it "
             "holds completions, else 1);\ntimed: at most N outstanding (default 1024)"},
    {"speed", 0, CLI_DOUBLE, &cfg.speed, 0.001, 1000000, .arg = "X",
     .help = "timed: X times the trace's rate (2: twice as fast)"},
    {"loop", 0, CLI_UINT, &cfg.loops, 1, 1000000, .arg = "N",
     .help = "replay the trace N times (each pass recorded)"},
    {"remap", 0, CLI_CUSTOM, &cfg.remap, .parse = parse_remap, .arg = "HOW",
     .help = "fit offsets to the target: none (an I/O beyond it is an\nerror), wrap (modulo "
             "its size) or scale (by its size over the\ntrace's extent); default: none when "
             "the trace fits, else scale"},
    {"compress", 0, CLI_UINT, &cfg.compress_pct, 0, 100, .arg = "PCT",
     .help = "write data compressibility in percent (default 0)"},
    {"engine", 'e', CLI_STR, &cfg.engine_name, .arg = "NAME",
     .help = "io_uring (default), libaio, or fio / fio-libaio (fio's\nread_iolog: --qd N, "
             "and --qd 1 when timed); sim:PRESET\ntargets use sim"},
    CLI_PLACEMENT_OPTS(&cfg.numa),
    CLI_TARGET_CHECK_OPTS(&cfg.allow_memory, &dry_run),
    {"out", 'o', CLI_STR, &cfg.out_dir, .arg = "DIR",
     .help = "results directory (default results/replay-YYYYmmdd-HHMMSS)"},
    {"force", 0, CLI_FLAG, &cfg.force, .help = "replace results.json already in DIR"},
    {"destructive", 0, CLI_FLAG, &cfg.destructive,
     .help = "allow the trace's writes on a block device, or over an\nexisting file that "
             "holds data (its data is destroyed); still\nrefused when it is mounted, swap, "
             "held, backs /, or backs a\nloop device"},
    {"no-layout", 0, CLI_FLAG, &cfg.no_layout,
     .help = "a trace that reads a file target reads its never-written\nparts as they are "
             "(default: the file is written first, as fio\nlays out its files); the results "
             "label such a replay"},
    {"overwrite-signatures", 0, CLI_FLAG, &cfg.overwrite_signatures,
     .help = "with --destructive: write even over a filesystem,\npartition table, LVM/RAID "
             "member or swap signature"},
    {"quiet", 'q', CLI_FLAG, &cfg.quiet, .help = "no progress lines"},
    {0},
};

static void replay_usage(FILE *f)
{
    fputs(
        "usage: ptsbench replay TRACE... --target T [options]\n"
        "\n"
        "Replay a block I/O trace on a target: blktrace's binary files (blktrace -d DEV, or\n"
        "blkparse -d FILE), blkparse's text output, fio iologs (versions 2 and 3), or a csv of\n"
        "timestamp,offset,length,direction[,completion] (seconds, bytes, bytes, R or W,\n"
        "seconds). Several files are merged by time (blktrace's per-CPU files). Reads and\n"
        "writes are replayed; trims, flushes and syncs are counted and left out. A TRACE of\n"
        "gen:NAME[,scale=X][,seed=N] is a synthetic trace (ptsbench trace list).\n"
        "Measured, per pass and over all: IOPS, MB/s and latency per direction, disk-busy\n"
        "time (at least one I/O outstanding), the queue depth each I/O was issued at, and in\n"
        "timed mode how late each was issued; beside them, the trace's own figures. Results\n"
        "in DIR/results.json (schema ptsbench.replay), written after every pass.\n"
        "\n",
        f);
    cli_print_options(f, opts);
    fputc('\n', f);
    cli_fleet_usage(f);
    fputc('\n', f);
    cli_print_registry(f, "Simulated drives (sim:PRESET):", CLI_SIM_PRESETS, 2,
                       "(ptsbench sim --list)");
    fputs(
        "\n"
        "On a simulated drive scaled k times, the trace's times are stretched k times and the\n"
        "measured times divided by k: the figures are the full-size drive's (docs/replay.md).\n"
        "Exit status: 0 done, 1 the replay failed, 2 bad input or refused (nothing written),\n"
        "130 interrupted (completed passes are kept).\n",
        f);
}

/* Check everything (nothing written on bad input), then replay, or (--dry-run) print the plan
 * and what would be written only. */
static int replay_go(void)
{
    char err[ERR_LEN];
    struct replay_session *s = xcalloc(1, sizeof(*s));
    int code = EXIT_OK;
    if (replay_prepare(&cfg, cli_data_dirs("profiles"), s, err, sizeof(err)) != 0) {
        fprintf(stderr, "ptsbench replay: %s\n", err);
        code = EXIT_USAGE;
    } else if (fleet_check_only()) {
        code = EXIT_OK;   /* one of several targets, asked only to check (cli/cli_fleet.h) */
    } else if (dry_run) {
        replay_print_plan(s);
        replay_print_dry_run(s);
    } else {
        cli_install_signals();
        code = replay_execute(s, cli_stop_flag());
    }
    replay_session_free(s);
    free(s);
    return code;
}

int cmd_replay(int argc, char **argv, int full_argc, char **full_argv)
{
    memset(&cfg, 0, sizeof(cfg));
    cfg.loops = 1;
    cfg.speed = 1;
    cfg.argc = full_argc;
    cfg.argv = full_argv;
    (void)mode;
    dry_run = false;
    cli_fleet_clear(&fleet);
    const char *traces[REPLAY_MAX_TRACES + 1];
    unsigned n = 0;
    int prc = cli_parse("replay", opts, argc, argv, traces, &n, REPLAY_MAX_TRACES + 1,
                        replay_usage);
    if (prc != CLI_GO)
        return prc == CLI_DONE ? EXIT_OK : EXIT_USAGE;
    if (n > REPLAY_MAX_TRACES) {
        fprintf(stderr, "ptsbench replay: at most %d trace files\n", REPLAY_MAX_TRACES);
        return EXIT_USAGE;
    }
    memcpy(cfg.traces, traces, n * sizeof(traces[0]));
    cfg.n_traces = n;
    cfg.trace_dirs = cli_data_dirs("traces");
    int code = EXIT_OK;
    if (dry_run && fleet.n > 1) {   /* every target's plan; nothing is written */
        for (unsigned i = 0; i < fleet.n && code == EXIT_OK; i++) {
            cfg.target_path = fleet.targets[i];
            code = replay_go();
        }
        cli_fleet_clear(&fleet);
        return code;
    }
    cfg.target_path = fleet.n ? fleet.targets[0] : NULL;
    static const char *const words[] = {"replay"};
    const int fc = cli_fleet_dispatch(&fleet, words, 1, "replay", cfg.out_dir, cfg.force,
                                      &cfg.target_path);
    code = fc != CLI_FLEET_ONE ? fc : replay_go();
    cli_fleet_clear(&fleet);
    return code;
}
