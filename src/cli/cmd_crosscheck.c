/* cmd_crosscheck.c — `ptsbench crosscheck`: options and help; the runs are core/crosscheck.h's. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/options.h"
#include "core/crosscheck.h"
#include "core/run.h"
#include "lib/util.h"

static struct run_config base;
static const char *workload, *native = "io_uring", *fio = "fio", *out;
static bool quiet, dry_run;
static unsigned repeat = 2;

static int one_of(const char *v, const char *a, const char *b, const char **target, char *err,
                  size_t errlen)
{
    if (strcmp(v, a) && strcmp(v, b))
        return errf(err, errlen, "want %s or %s", a, b);
    *target = v;
    return 0;
}

static int parse_native(const char *v, void *target, char *err, size_t errlen)
{
    return one_of(v, "io_uring", "libaio", target, err, errlen);
}

static int parse_fio(const char *v, void *target, char *err, size_t errlen)
{
    return one_of(v, "fio", "fio-libaio", target, err, errlen);
}

static const struct cli_opt opts[] = {
    {"target", 't', CLI_STR, &base.target_path, .arg = "PATH",
     .help = "block device, or file (created with --size)"},
    {"size", 0, CLI_SIZE, &base.create_size, .arg = "SIZE",
     .help = "create (or extend) a file target"},
    {"workload", 'w', CLI_STR, &workload, .arg = "SPEC",
     .help = "inline spec or profile, as for ptsbench run"},
    {"native", 0, CLI_CUSTOM, &native, .parse = parse_native, .arg = "NAME",
     .help = "the native engine: io_uring (default) or libaio"},
    {"fio", 0, CLI_CUSTOM, &fio, .parse = parse_fio, .arg = "NAME",
     .help = "fio (default, ioengine=io_uring) or fio-libaio"},
    {"round-time", 0, CLI_DURATION, &base.round_time_ns, 1e9, 0, .arg = "DUR",
     .help = "length of each run (default 10 s)"},
    {"repeat", 0, CLI_UINT, &repeat, 1, CROSSCHECK_MAX_REPEAT, .arg = "N",
     .help = "runs per engine, alternating (default 2)"},
    {"out", 'o', CLI_STR, &out, .arg = "DIR",
     .help = "results directory (default results/crosscheck-YYYYmmdd-HHMMSS)"},
    {"force", 0, CLI_FLAG, &base.force, .help = "replace results already in DIR"},
    {"destructive", 0, CLI_FLAG, &base.destructive,
     .help = "allow writes to a block device, or over an existing file\nthat holds data (its "
             "data is destroyed)"},
    {"overwrite-signatures", 0, CLI_FLAG, &base.overwrite_signatures,
     .help = "with --destructive: write even over a filesystem,\npartition table, LVM/RAID "
             "member or swap signature"},
    CLI_TARGET_CHECK_OPTS(&base.allow_memory, &dry_run),
    {"quiet", 'q', CLI_FLAG, &quiet, .help = "only the table"},
    {0},
};

static void usage(FILE *f)
{
    fputs(
        "usage: ptsbench crosscheck --target T --workload SPEC [options]\n"
        "\n"
        "Run the same workload on a native engine and on fio, alternating, and print both\n"
        "results side by side with fio / native per metric (IOPS, MB/s, mean and percentile\n"
        "latency). Every run is kept: OUT/ENGINE-N/results.json, fio's job files and JSON in\n"
        "OUT/fio-N/fio/; the summary in OUT/results.json.\n"
        "\n"
        ,
        f);
    cli_print_options(f, opts);
    fputs(
        "\n"
        "Exit status: 0 done, 1 a run failed, 2 bad input (nothing written), 130 interrupted.\n",
        f);
}

int cmd_crosscheck(int argc, char **argv, int full_argc, char **full_argv)
{
    run_config_init(&base);
    base.argc = full_argc;
    base.argv = full_argv;
    base.max_rounds = 1;
    base.round_time_ns = 10ull * 1000000000ull;
    base.quiet = true;
    dry_run = false;
    int prc = cli_parse("crosscheck", opts, argc, argv, NULL, NULL, 0, usage);
    if (prc != CLI_GO)
        return prc == CLI_DONE ? EXIT_OK : EXIT_USAGE;
    char err[ERR_LEN];
    struct crosscheck_config xc = {base, workload, native, fio, out, repeat, quiet,
                                   cli_data_dirs("profiles")};
    struct crosscheck *x = crosscheck_prepare(&xc, err, sizeof(err));
    if (!x) {
        fprintf(stderr, "ptsbench crosscheck: %s\n", err);
        return EXIT_USAGE;
    }
    if (dry_run) {
        crosscheck_print_plan(x, true);
        crosscheck_free(x);
        return EXIT_OK;
    }
    if (!quiet)
        crosscheck_print_plan(x, false);
    cli_install_signals();
    int code = crosscheck_execute(x, cli_stop_flag());
    crosscheck_free(x);
    return code;
}
