/* cmd_suite.c — `ptsbench suite` (several SNIA PTS tests) and `ptsbench run-test NAME`. */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "lib/units.h"
#include "lib/util.h"
#include "pts/pts_def.h"
#include "pts/pts_run.h"

static void suite_usage(FILE *f, bool single)
{
    char names[512];
    pts_def_list(cli_data_dirs("pts"), names, sizeof(names));
    if (single)
        fputs("usage: ptsbench run-test NAME --target T [options]\n\n"
              "Run one SNIA PTS test (a definition in pts/NAME.ini).\n", f);
    else
        fputs("usage: ptsbench suite --target T [--spec S] [--tests a,b,...] [options]\n\n"
              "Run SNIA PTS tests one after the other on one target: purge, preconditioning\n"
              "(WIPC, then the test loop itself as WDPC), rounds to steady state (or, for WSAT,\n"
              "to 4x capacity written), every round recorded in OUT/results.json.\n", f);
    fprintf(f,
        "\n"
        "  -t, --target T          block device, file or sim:PRESET (writes: all tests write)\n"
        "      --spec S            pts-e-1.1 | pts-c-1.2 | pts-2.0-e (default) | pts-2.0-c:\n"
        "                          active range, write cache, outstanding I/O, tracking variables\n"
        "%s"
        "      --purge M           auto (default) | secure-erase | format | sanitize | discard |\n"
        "                          none (discard and none are recorded as not SNIA-compliant)\n"
        "      --round-time D      each element's length instead of the PTS's 60 s (quick\n"
        "                          checks; the results are then marked non-compliant)\n"
        "      --time-scale F      multiply every duration of the definitions (elements, HIR\n"
        "                          accesses and waits, XSR groups) by F (quick checks: marked\n"
        "                          non-compliant)\n"
        "      --threads N, --qd N outstanding I/O instead of the spec's recommendation\n"
        "      --max-rounds N      instead of 25 (continue past the PTS's limit, or stop sooner)\n"
        "      --wsat-capacity X   WSAT stops after X times the user capacity instead of the\n"
        "                          PTS's 4 (marked non-compliant)\n"
        "      --wsat-time D       WSAT stops after D instead of the PTS's 24h (marked\n"
        "                          non-compliant)\n"
        "  -e, --engine NAME       io_uring (default) or libaio; sim:PRESET uses sim\n"
        "  -o, --out DIR           results directory (default results/suite-YYYYmmdd-HHMMSS)\n"
        "      --force             replace results.json already in DIR\n"
        "      --destructive       allow writing to a block device, or over an existing file\n"
        "                          that holds data (its data is destroyed)\n"
        "      --overwrite-signatures  with --destructive: write even over a filesystem,\n"
        "                          partition table, LVM/RAID member or swap signature\n"
        "  -q, --quiet             no progress\n"
        "      --resume DIR        go on with the suite whose results are in DIR (stopped by a\n"
        "                          signal, a crash or a lost machine) with the options it\n"
        "                          recorded (--quiet, --resume-as-is, --destructive and\n"
        "                          --overwrite-signatures may be added): its complete tests are\n"
        "                          kept; the interrupted one runs again from its start (WSAT goes\n"
        "                          on with its byte count); a simulated drive is replayed from\n"
        "                          the start (its state does not outlive the process)\n"
        "      --resume-as-is      with --resume: an interrupted IOPS, TP or LAT test goes on\n"
        "                          after its last complete round (the gap is a compliance note)\n"
        "  -h, --help              this text\n"
        "\n"
        "Tests: %s\n",
        single ? "" : "      --tests LIST        comma-separated (default iops,tp,lat,wsat)\n",
        names[0] ? names : "(none found)");
}

/* --resume: set while the stopped suite's recorded command line is parsed again. */
static struct cli_resume_pending pending;

static int suite_main(int argc, char **argv, int full_argc, char **full_argv, const char *single);

/* A recorded command line: run-test or suite. */
static int suite_again(int argc, char **argv, int full_argc, char **full_argv)
{
    return !strcmp(argv[0], "run-test") ? cmd_run_test(argc, argv, full_argc, full_argv)
                                        : suite_main(argc, argv, full_argc, full_argv, NULL);
}

static int suite_main(int argc, char **argv, int full_argc, char **full_argv, const char *single)
{
    enum { O_SPEC = 256, O_TESTS, O_PURGE, O_ROUND_TIME, O_THREADS, O_QD, O_MAX_ROUNDS,
           O_WSAT_CAP, O_WSAT_TIME, O_FORCE, O_DESTRUCTIVE, O_TIME_SCALE, O_OVERWRITE_SIGS,
           O_RESUME, O_RESUME_AS_IS };
    static const struct option opts[] = {
        {"target", required_argument, NULL, 't'},
        {"spec", required_argument, NULL, O_SPEC},
        {"tests", required_argument, NULL, O_TESTS},
        {"purge", required_argument, NULL, O_PURGE},
        {"round-time", required_argument, NULL, O_ROUND_TIME},
        {"threads", required_argument, NULL, O_THREADS},
        {"qd", required_argument, NULL, O_QD},
        {"max-rounds", required_argument, NULL, O_MAX_ROUNDS},
        {"wsat-capacity", required_argument, NULL, O_WSAT_CAP},
        {"wsat-time", required_argument, NULL, O_WSAT_TIME},
        {"time-scale", required_argument, NULL, O_TIME_SCALE},
        {"engine", required_argument, NULL, 'e'},
        {"out", required_argument, NULL, 'o'},
        {"force", no_argument, NULL, O_FORCE},
        {"destructive", no_argument, NULL, O_DESTRUCTIVE},
        {"overwrite-signatures", no_argument, NULL, O_OVERWRITE_SIGS},
        {"quiet", no_argument, NULL, 'q'},
        {"resume", required_argument, NULL, O_RESUME},
        {"resume-as-is", no_argument, NULL, O_RESUME_AS_IS},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    const char *cmd = single ? "run-test" : "suite";
    struct pts_config cfg;
    memset(&cfg, 0, sizeof(cfg));
    cfg.argc = full_argc;
    cfg.argv = full_argv;
    cfg.pts_dirs = cli_data_dirs("pts");
    cfg.profile_dirs = cli_data_dirs("profiles");
    cfg.tests = single;
    char err[ERR_LEN];
    uint64_t v;
    const char *resume = NULL;
    unsigned others = 0;   /* options a resume takes from the results file */
    opterr = 0;
    optind = 1;
    int c;
    while ((c = getopt_long(argc, argv, ":t:e:o:qh", opts, NULL)) != -1) {
        err[0] = '\0';
        if (c != 'q' && c != O_RESUME && c != O_RESUME_AS_IS && c != O_DESTRUCTIVE &&
            c != O_OVERWRITE_SIGS && c != 'h')
            others++;
        switch (c) {
        case 't': cfg.target_path = optarg; break;
        case O_SPEC: cfg.spec_name = optarg; break;
        case O_TESTS:
            if (single)
                goto unknown;
            if (optarg[strspn(optarg, ", \t")] == '\0') {   /* '' would be the default suite */
                snprintf(err, sizeof(err), "no test named (e.g. --tests iops,tp)");
                goto bad;
            }
            cfg.tests = optarg;
            break;
        case O_PURGE:
            if (purge_method_parse(optarg, &cfg.purge) != 0) {
                snprintf(err, sizeof(err), "want auto, secure-erase, format, sanitize, discard "
                                           "or none");
                goto bad;
            }
            break;
        case O_ROUND_TIME:
            if (units_parse_duration(optarg, &cfg.round_time_ns, err, sizeof(err)) != 0)
                goto bad;
            if (!cfg.round_time_ns) {
                snprintf(err, sizeof(err), "must be more than 0");
                goto bad;
            }
            break;
        case O_THREADS:
        case O_QD:
            if (units_parse_uint(optarg, 1, 1024, &v, err, sizeof(err)) != 0)
                goto bad;
            *(c == O_THREADS ? &cfg.threads : &cfg.qd) = (unsigned)v;
            break;
        case O_MAX_ROUNDS:
            if (units_parse_uint(optarg, 1, 1000000, &v, err, sizeof(err)) != 0)
                goto bad;
            cfg.max_rounds = (unsigned)v;
            break;
        case O_WSAT_CAP: {
            char *end;
            cfg.wsat_capacity = strtod(optarg, &end);
            if (*end || cfg.wsat_capacity <= 0) {
                snprintf(err, sizeof(err), "want a positive number (times the user capacity)");
                goto bad;
            }
            break;
        }
        case O_TIME_SCALE: {
            char *end;
            cfg.time_scale = strtod(optarg, &end);
            if (*end || !(cfg.time_scale > 0) || cfg.time_scale > 1000) {
                snprintf(err, sizeof(err), "want a factor above 0, e.g. 0.01");
                goto bad;
            }
            break;
        }
        case O_WSAT_TIME:
            if (units_parse_duration(optarg, &cfg.wsat_time_ns, err, sizeof(err)) != 0)
                goto bad;
            break;
        case 'e': cfg.engine_name = optarg; break;
        case 'o': cfg.out_dir = optarg; break;
        case O_FORCE: cfg.force = true; break;
        case O_DESTRUCTIVE: cfg.destructive = true; break;
        case O_OVERWRITE_SIGS: cfg.overwrite_signatures = true; break;
        case 'q': cfg.quiet = true; break;
        case O_RESUME: resume = optarg; break;
        case O_RESUME_AS_IS: cfg.resume_as_is = true; break;
        case 'h': suite_usage(stdout, single != NULL); return EXIT_OK;
        case ':':
            fprintf(stderr, "ptsbench %s: option '%s' needs a value\n", cmd, argv[optind - 1]);
            return EXIT_USAGE;
        default:
        unknown:
            fprintf(stderr, "ptsbench %s: unknown option '%s' (see ptsbench %s --help)\n", cmd,
                    argv[optind - 1], cmd);
            return EXIT_USAGE;
        }
        continue;
    bad:
        fprintf(stderr, "ptsbench %s: %s %s: %s\n", cmd, cli_option_name(opts, c), optarg, err);
        return EXIT_USAGE;
    }
    if (optind < argc) {
        fprintf(stderr, "ptsbench %s: unexpected argument '%s'\n", cmd, argv[optind]);
        return EXIT_USAGE;
    }
    if (resume) {
        static const char *const commands[] = {"suite", "run-test", NULL};
        pending = (struct cli_resume_pending){NULL, cfg.resume_as_is, cfg.quiet, cfg.destructive,
                                              cfg.overwrite_signatures};
        return cli_resume_again(cmd, "suite", resume, others, "ptsbench.suite", commands,
                                &pending, suite_again);
    }
    if (pending.doc) {   /* parsing a resumed run's recorded command line */
        cfg.resume = pending.doc;
        cfg.resume_as_is = pending.resume_as_is;
        cfg.quiet |= pending.quiet;
        cfg.destructive |= pending.destructive;
        cfg.overwrite_signatures |= pending.overwrite_signatures;
    } else if (cfg.resume_as_is) {
        fprintf(stderr, "ptsbench %s: --resume-as-is: only with --resume DIR\n", cmd);
        return EXIT_USAGE;
    }
    struct pts_session *s = pts_prepare(&cfg, err, sizeof(err));
    if (!s) {
        fprintf(stderr, "ptsbench %s: %s\n", cmd, err);
        return EXIT_USAGE;
    }
    if (!cfg.quiet)
        pts_print_plan(s);
    cli_install_signals();
    int code = pts_execute(s, cli_stop_flag());
    pts_free(s);
    return code;
}

int cmd_suite(int argc, char **argv, int full_argc, char **full_argv)
{
    return suite_main(argc, argv, full_argc, full_argv, NULL);
}

int cmd_run_test(int argc, char **argv, int full_argc, char **full_argv)
{
    if (argc < 2 || argv[1][0] == '-') {
        if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
            suite_usage(stdout, true);
            return EXIT_OK;
        }
        fprintf(stderr, "ptsbench run-test: want a test name first (see ptsbench run-test --help)\n");
        return EXIT_USAGE;
    }
    if (argv[1][strspn(argv[1], " \t")] == '\0') {   /* '' would run the default suite */
        fprintf(stderr, "ptsbench run-test: '%s': want a test name (see ptsbench run-test "
                        "--help)\n", argv[1]);
        return EXIT_USAGE;
    }
    return suite_main(argc - 1, argv + 1, full_argc, full_argv, argv[1]);
}
