/* main.c — ptsbench: git-style subcommands. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "engine.h"
#include "util.h"

static void usage(FILE *f)
{
    fputs("usage: ptsbench [--version] [--help] COMMAND [ARGS]\n"
          "\n"
          "SSD benchmark and characterization in the style of the SNIA Solid State Storage\n"
          "Performance Test Specification.\n"
          "\n"
          "commands:\n"
          "  run        run a workload on a target round by round, to steady state\n"
          "  suite      run SNIA PTS tests (IOPS, throughput, latency, write saturation)\n"
          "  run-test   run one SNIA PTS test by name\n"
          "  show       print a results file as a table\n"
          "  sim        the built-in simulated SSD: --list presets, --describe PRESET\n"
          "  engines    list the I/O engines\n"
          "  version    print the version\n"
          "  help CMD   help for a command (same as ptsbench CMD --help)\n",
          f);
}

static int cmd_engines(int argc, char **argv)
{
    if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        puts("usage: ptsbench engines\n\nList the I/O engines and the library behind each.");
        return EXIT_OK;
    }
    if (argc > 1) {
        fprintf(stderr, "ptsbench engines: unexpected argument '%s'\n", argv[1]);
        return EXIT_USAGE;
    }
    for (const struct engine_ops *const *e = engine_list(); *e; e++)
        printf("%-10s %-16s %s\n", (*e)->name, (*e)->version(), (*e)->description);
    return EXIT_OK;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return EXIT_USAGE;
    }
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
        char *sub[] = {argv[2], "--help", NULL};
        if (!strcmp(argv[2], "run"))
            return cmd_run(2, sub, argc, argv);
        if (!strcmp(argv[2], "engines"))
            return cmd_engines(2, sub);
        if (!strcmp(argv[2], "sim"))
            return cmd_sim(2, sub);
        if (!strcmp(argv[2], "show"))
            return cmd_show(2, sub);
        if (!strcmp(argv[2], "suite"))
            return cmd_suite(2, sub, argc, argv);
        if (!strcmp(argv[2], "run-test"))
            return cmd_run_test(2, sub, argc, argv);
        fprintf(stderr, "ptsbench help: unknown command '%s'\n", argv[2]);
        return EXIT_USAGE;
    }
    if (!strcmp(cmd, "run"))
        return cmd_run(argc - 1, argv + 1, argc, argv);
    if (!strcmp(cmd, "engines"))
        return cmd_engines(argc - 1, argv + 1);
    if (!strcmp(cmd, "sim"))
        return cmd_sim(argc - 1, argv + 1);
    if (!strcmp(cmd, "show"))
        return cmd_show(argc - 1, argv + 1);
    if (!strcmp(cmd, "suite"))
        return cmd_suite(argc - 1, argv + 1, argc, argv);
    if (!strcmp(cmd, "run-test"))
        return cmd_run_test(argc - 1, argv + 1, argc, argv);
    fprintf(stderr, "ptsbench: unknown command '%s' (see ptsbench --help)\n", cmd);
    return EXIT_USAGE;
}
