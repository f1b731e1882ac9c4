/* main.c — ptsbench: git-style subcommands. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/options.h"
#include "core/fleet.h"
#include "engine/engine.h"
#include "lib/util.h"

static int cmd_engines(int argc, char **argv)
{
    if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        puts("usage: ptsbench engines\n\nList the I/O engines and the library behind each.");
        return EXIT_OK;
    }
    if (argc > 1) {   /* it takes no option but --help: "--hlep" says so */
        static const char *const help[] = {"help"};
        char near[16];
        const bool opt = argv[1][0] == '-' && argv[1][1] == '-';
        if (opt && cli_suggest(argv[1] + 2, help, 1, near, sizeof(near)))
            fprintf(stderr, "ptsbench engines: unknown option '%s'; did you mean --help? (see "
                    "ptsbench engines --help)\n", argv[1]);
        else
            fprintf(stderr, "ptsbench engines: unexpected argument '%s'\n", argv[1]);
        return EXIT_USAGE;
    }
    for (const struct engine_ops *const *e = engine_list(); *e; e++)
        printf("%-10s %-16s %s\n", (*e)->name, (*e)->version(), (*e)->description);
    return EXIT_OK;
}

/* Every command takes its own argv (argv[0] = its name) and the whole command line (for the
 * results' record of how they were made). */
static int do_engines(int argc, char **argv, int fc, char **fv) { (void)fc; (void)fv; return cmd_engines(argc, argv); }
static int do_sim(int argc, char **argv, int fc, char **fv) { (void)fc; (void)fv; return cmd_sim(argc, argv); }
static int do_show(int argc, char **argv, int fc, char **fv) { (void)fc; (void)fv; return cmd_show(argc, argv); }
static int do_trace(int argc, char **argv, int fc, char **fv) { (void)fc; (void)fv; return cmd_trace(argc, argv); }

static const struct {
    const char *name;
    int (*fn)(int argc, char **argv, int full_argc, char **full_argv);
    const char *summary;
} commands[] = {
    {"run", cmd_run, "run a workload on a target round by round, to steady state"},
    {"profile", cmd_profile, "run workload profiles (database, webserver, QD ramps, ...) as a\n"
                             "             matrix of compressibility x workers x queue depth"},
    {"quick", cmd_quick, "a quick mark: CrystalDiskMark's corners (sequential and 4 KiB\n"
                         "             random, read and write) in about two minutes"},
    {"suite", cmd_suite, "run SNIA PTS tests (IOPS, throughput, latency, write saturation)"},
    {"run-test", cmd_run_test, "run one SNIA PTS test by name"},
    {"replay", cmd_replay, "replay a block I/O trace (blktrace, blkparse, fio iolog, csv)"},
    {"trace", do_trace, "block I/O traces: capture one, generate a synthetic one, its stats"},
    {"crosscheck", cmd_crosscheck, "the same workload on a native engine and on fio, side by side"},
    {"workload", cmd_workload, "how a workload (a fio job file, a spec, a profile) will be run,\n"
                               "             job by job and key by key, without running it"},
    {"show", do_show, "print a results file as a table"},
    {"export", cmd_export, "a results file's figures as CSV, TSV or JSON lines"},
    {"report", cmd_report, "HTML and Markdown report with plots from results files"},
    {"plot", cmd_plot, "gnuplot charts (PNG, SVG, with their .gp and .dat) from results"},
    {"verify", cmd_verify, "check results against a vendor spec sheet (specs/*.ini)"},
    {"gate", cmd_gate, "CI performance gate: compare results with a baseline"},
    {"db", cmd_db, "the results history (SQLite): import, list, show, compare, tag, trend"},
    {"sim", do_sim, "the built-in simulated SSD: --list presets, --describe PRESET"},
    {"engines", do_engines, "list the I/O engines"},
};
#define N_COMMANDS (sizeof(commands) / sizeof(commands[0]))

static void usage(FILE *f)
{
    fputs("usage: ptsbench [--version] [--help] COMMAND [ARGS]\n"
          "\n"
          "SSD benchmark and characterization in the style of the SNIA Solid State Storage\n"
          "Performance Test Specification.\n"
          "\n"
          "commands:\n", f);
    for (size_t i = 0; i < N_COMMANDS; i++)
        fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
    fputs("  version    print the version\n"
          "  help CMD   help for a command (same as ptsbench CMD --help)\n", f);
}

static int find_command(const char *name)
{
    for (size_t i = 0; i < N_COMMANDS; i++)
        if (!strcmp(commands[i].name, name))
            return (int)i;
    return -1;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return EXIT_USAGE;
    }
    if (getenv(FLEET_ENV_LABEL))   /* a copy of several: whole lines, as they come */
        setvbuf(stdout, NULL, _IOLBF, 0);
    const char *cmd = argv[1];
    if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h")) {
        usage(stdout);
        return EXIT_OK;
    }
    if (!strcmp(cmd, "--version") || !strcmp(cmd, "version")) {
        printf("ptsbench %s\n", PTSBENCH_VERSION);
        return EXIT_OK;
    }
    if (!strcmp(cmd, "help")) {
        if (argc < 3) {
            usage(stdout);
            return EXIT_OK;
        }
        int i = find_command(argv[2]);
        if (i < 0) {
            fprintf(stderr, "ptsbench help: unknown command '%s'\n", argv[2]);
            return EXIT_USAGE;
        }
        char *sub[] = {argv[2], "--help", NULL};
        return commands[i].fn(2, sub, argc, argv);
    }
    int i = find_command(cmd);
    if (i < 0) {
        const char *names[N_COMMANDS + 1];
        for (size_t k = 0; k < N_COMMANDS; k++)
            names[k] = commands[k].name;
        names[N_COMMANDS] = "version";
        char near[128];
        size_t k = cli_suggest(cmd, names, N_COMMANDS + 1, near, sizeof(near));
        for (char *p = near; k && (p = strchr(p, '|'));)
            *p = '/';   /* "did you mean run/run-test?" */
        fprintf(stderr, "ptsbench: unknown command '%s'%s%s%s (see ptsbench --help)\n", cmd,
                k ? "; did you mean " : "", k ? near : "", k ? "?" : "");
        return EXIT_USAGE;
    }
    return commands[i].fn(argc - 1, argv + 1, argc, argv);
}
