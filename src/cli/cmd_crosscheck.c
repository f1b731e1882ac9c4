/* cmd_crosscheck.c — `ptsbench crosscheck`: options and help; the runs are core/crosscheck.h's. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "core/crosscheck.h"
#include "core/run.h"
#include "lib/units.h"
#include "lib/util.h"

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
        "  -t, --target PATH       block device, or file (created with --size)\n"
        "      --size SIZE         create (or extend) a file target\n"
        "  -w, --workload SPEC     inline spec or profile, as for ptsbench run\n"
        "      --native NAME       the native engine: io_uring (default) or libaio\n"
        "      --fio NAME          fio (default, ioengine=io_uring) or fio-libaio\n"
        "      --round-time DUR    length of each run (default 10 s)\n"
        "      --repeat N          runs per engine, alternating (default 2)\n"
        "  -o, --out DIR           results directory (default results/crosscheck-YYYYmmdd-HHMMSS)\n"
        "      --force             replace results already in DIR\n"
        "      --destructive       allow writes to a block device, or over an existing file\n"
        "                          that holds data (its data is destroyed)\n"
        "      --overwrite-signatures  with --destructive: write even over a filesystem,\n"
        "                          partition table, LVM/RAID member or swap signature\n"
        "  -q, --quiet             only the table\n"
        "  -h, --help              this text\n"
        "\n"
        "Exit status: 0 done, 1 a run failed, 2 bad input (nothing written), 130 interrupted.\n",
        f);
}

int cmd_crosscheck(int argc, char **argv, int full_argc, char **full_argv)
{
    enum { O_SIZE = 256, O_NATIVE, O_FIO, O_ROUND_TIME, O_REPEAT, O_FORCE, O_DESTRUCTIVE,
           O_OVERWRITE_SIGS };
    static const struct option opts[] = {
        {"target", required_argument, NULL, 't'},
        {"size", required_argument, NULL, O_SIZE},
        {"workload", required_argument, NULL, 'w'},
        {"native", required_argument, NULL, O_NATIVE},
        {"fio", required_argument, NULL, O_FIO},
        {"round-time", required_argument, NULL, O_ROUND_TIME},
        {"repeat", required_argument, NULL, O_REPEAT},
        {"out", required_argument, NULL, 'o'},
        {"force", no_argument, NULL, O_FORCE},
        {"destructive", no_argument, NULL, O_DESTRUCTIVE},
        {"overwrite-signatures", no_argument, NULL, O_OVERWRITE_SIGS},
        {"quiet", no_argument, NULL, 'q'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    struct run_config base;
    run_config_init(&base);
    base.argc = full_argc;
    base.argv = full_argv;
    base.max_rounds = 1;
    base.round_time_ns = 10ull * 1000000000ull;
    base.quiet = true;
    const char *workload = NULL, *native = "io_uring", *fio = "fio", *out = NULL;
    bool quiet = false;
    unsigned repeat = 2;
    char err[ERR_LEN];
    uint64_t v;
    opterr = 0;
    optind = 1;
    int c;
    while ((c = getopt_long(argc, argv, ":t:w:o:qh", opts, NULL)) != -1) {
        err[0] = '\0';
        switch (c) {
        case 't': base.target_path = optarg; break;
        case 'w': workload = optarg; break;
        case O_SIZE:
            if (units_parse_size(optarg, &base.create_size, err, sizeof(err)) != 0)
                goto bad;
            break;
        case O_NATIVE:
            if (strcmp(optarg, "io_uring") && strcmp(optarg, "libaio")) {
                snprintf(err, sizeof(err), "want io_uring or libaio");
                goto bad;
            }
            native = optarg;
            break;
        case O_FIO:
            if (strcmp(optarg, "fio") && strcmp(optarg, "fio-libaio")) {
                snprintf(err, sizeof(err), "want fio or fio-libaio");
                goto bad;
            }
            fio = optarg;
            break;
        case O_ROUND_TIME:
            if (units_parse_duration(optarg, &base.round_time_ns, err, sizeof(err)) != 0)
                goto bad;
            if (base.round_time_ns < 1000000000ull) {
                snprintf(err, sizeof(err), "want at least 1 s");
                goto bad;
            }
            break;
        case O_REPEAT:
            if (units_parse_uint(optarg, 1, CROSSCHECK_MAX_REPEAT, &v, err, sizeof(err)) != 0)
                goto bad;
            repeat = (unsigned)v;
            break;
        case 'o': out = optarg; break;
        case O_FORCE: base.force = true; break;
        case O_DESTRUCTIVE: base.destructive = true; break;
        case O_OVERWRITE_SIGS: base.overwrite_signatures = true; break;
        case 'q': quiet = true; break;
        case 'h': usage(stdout); return EXIT_OK;
        case ':':
            fprintf(stderr, "ptsbench crosscheck: option '%s' needs a value\n", argv[optind - 1]);
            return EXIT_USAGE;
        default:
            fprintf(stderr, "ptsbench crosscheck: unknown option '%s' (see ptsbench crosscheck "
                            "--help)\n", argv[optind - 1]);
            return EXIT_USAGE;
        }
        continue;
    bad:
        fprintf(stderr, "ptsbench crosscheck: %s %s: %s\n", cli_option_name(opts, c), optarg, err);
        return EXIT_USAGE;
    }
    if (optind < argc) {
        fprintf(stderr, "ptsbench crosscheck: unexpected argument '%s'\n", argv[optind]);
        return EXIT_USAGE;
    }

    struct crosscheck_config xc = {base, workload, native, fio, out, repeat, quiet,
                                   cli_data_dirs("profiles")};
    struct crosscheck *x = crosscheck_prepare(&xc, err, sizeof(err));
    if (!x) {
        fprintf(stderr, "ptsbench crosscheck: %s\n", err);
        return EXIT_USAGE;
    }
    cli_install_signals();
    int code = crosscheck_execute(x, cli_stop_flag());
    crosscheck_free(x);
    return code;
}
