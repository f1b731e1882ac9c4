/* cmd_run.c — `ptsbench run`: one workload on one target, round by round. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "core/metrics.h"
#include "core/run.h"
#include "lib/units.h"
#include "lib/util.h"

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
        "\n"
        "  -t, --target PATH       block device (/dev/nvme0n1, /dev/sdb, /dev/zram0), file, or\n"
        "                          simulated drive sim:PRESET[,key=value...] (ptsbench sim --list)\n"
        "      --size SIZE         create (or extend) a file target to SIZE, e.g. 4g\n"
        "  -w, --workload SPEC     inline: rw=randrw,rwmixread=65,bs=4k,qd=32,workers=4,compress=90\n"
        "                          or a profile: NAME (profiles/NAME.ini), FILE.ini, FILE.ini:SECTION\n"
        "  -n, --rounds N          at most N rounds (default 25, the PTS limit)\n"
        "      --round-time DUR    round length in time: 60, 60s, 5m (default: workload's runtime,\n"
        "                          else 60 s as in the PTS)\n"
        "      --round-bytes SIZE  round length in bytes written instead of time\n"
        "      --track METRIC      steady-state variable: iops (default), read_iops, write_iops,\n"
        "                          mb_s, read_mb_s, write_mb_s, lat_mean_us, read_lat_mean_us,\n"
        "                          write_lat_mean_us\n"
        "      --all-rounds        keep going after steady state is reached\n"
        "      --precondition P    how the drive is prepared before the rounds:\n"
        "                          none (default): nothing; a flat window is reported as\n"
        "                            \"stable (fresh-out-of-box / burst)\", never steady state;\n"
        "                          wipc: the active range written twice with sequential\n"
        "                            128 KiB writes (WIPC) at the workload's compressibility;\n"
        "                          steady: WIPC, then the workload itself (WDPC) until the fill\n"
        "                            guard passes, then rounds to SNIA steady state\n"
        "      --wdpc-fills X      steady: the WDPC writes at least X times the active range\n"
        "                          (default 1)\n"
        "      --wdpc-max-fills X  steady: ... and at most X (default 5); a drive still\n"
        "                          changing then is reported as not steady\n"
        "  -e, --engine NAME       io_uring (default), libaio, fio or fio-libaio (the installed fio\n"
        "                          runs each round: job files and fio's JSON are kept in\n"
        "                          OUT/fio/); sim:PRESET targets use the sim engine\n"
        "      --remote HOST[:PORT]  run fio on HOST through its client/server mode (start\n"
        "                          `fio --server` there; port 8765 by default); repeat for\n"
        "                          several hosts, or --remote @FILE with one host per line.\n"
        "                          The target path and --size are those on every host; results\n"
        "                          keep each host's figures and the aggregate\n"
        "  -o, --out DIR           results directory (default results/run-YYYYmmdd-HHMMSS)\n"
        "      --force             replace results.json already in DIR\n"
        "      --destructive       allow writes to a block device, or over an existing file\n"
        "                          that holds data (its data is destroyed); still refused when\n"
        "                          it is mounted, swap, held or backs /, or backs a loop device\n"
        "      --overwrite-signatures  with --destructive: write even over a filesystem,\n"
        "                          partition table, LVM/RAID member or swap signature found on\n"
        "                          the device (refused otherwise, naming what was found)\n"
        "  -q, --quiet             no progress lines\n"
        "      --resume DIR        go on with the run whose results are in DIR, stopped by a\n"
        "                          signal, a crash or a lost machine, with the options it\n"
        "                          recorded (--quiet, --resume-as-is, --destructive and\n"
        "                          --overwrite-signatures may be added): its rounds are kept; a\n"
        "                          simulated drive is replayed from the start (its state does not\n"
        "                          outlive the process); a real one, not held in the gap, is\n"
        "                          preconditioned again as the run was before the next round\n"
        "      --resume-as-is      with --resume: go on without preconditioning again (the gap\n"
        "                          is recorded)\n"
        "  -h, --help              this text\n"
        "\n"
        "Sizes: 512, 4k = 4KiB = 4096 (binary, as fio); 4kB = 4KB = 4000 (decimal, SI).\n"
        "Exit status: 0 done, 1 run failed, 2 bad input or refused (nothing written),\n"
        "130 interrupted (completed rounds are kept).\n",
        f);
}

static int run_command(int argc, char **argv, int full_argc, char **full_argv,
                       struct run_config *cfgp);

/* --resume DIR: the recorded command line, parsed again (into the caller's run_config, which
 * owns the --remote list), with the resume's own flags on top. */
static struct cli_resume_pending pending;
static struct run_config *pending_cfg;

static int run_again(int argc, char **argv, int full_argc, char **full_argv)
{
    return run_command(argc, argv, full_argc, full_argv, pending_cfg);
}

static int run_command(int argc, char **argv, int full_argc, char **full_argv,
                       struct run_config *cfgp)
{
    enum { OPT_SIZE = 256, OPT_ROUND_TIME, OPT_ROUND_BYTES, OPT_TRACK, OPT_ALL_ROUNDS, OPT_FORCE,
           OPT_DESTRUCTIVE, OPT_REMOTE, OPT_PRECOND, OPT_WDPC_FILLS, OPT_WDPC_MAX,
           OPT_OVERWRITE_SIGS, OPT_RESUME, OPT_RESUME_AS_IS };
    static const struct option opts[] = {
        {"target", required_argument, NULL, 't'},
        {"workload", required_argument, NULL, 'w'},
        {"rounds", required_argument, NULL, 'n'},
        {"round-time", required_argument, NULL, OPT_ROUND_TIME},
        {"round-bytes", required_argument, NULL, OPT_ROUND_BYTES},
        {"track", required_argument, NULL, OPT_TRACK},
        {"all-rounds", no_argument, NULL, OPT_ALL_ROUNDS},
        {"precondition", required_argument, NULL, OPT_PRECOND},
        {"wdpc-fills", required_argument, NULL, OPT_WDPC_FILLS},
        {"wdpc-max-fills", required_argument, NULL, OPT_WDPC_MAX},
        {"engine", required_argument, NULL, 'e'},
        {"out", required_argument, NULL, 'o'},
        {"force", no_argument, NULL, OPT_FORCE},
        {"size", required_argument, NULL, OPT_SIZE},
        {"destructive", no_argument, NULL, OPT_DESTRUCTIVE},
        {"overwrite-signatures", no_argument, NULL, OPT_OVERWRITE_SIGS},
        {"remote", required_argument, NULL, OPT_REMOTE},
        {"quiet", no_argument, NULL, 'q'},
        {"resume", required_argument, NULL, OPT_RESUME},
        {"resume-as-is", no_argument, NULL, OPT_RESUME_AS_IS},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    struct run_config cfg = *cfgp;
    cfg.argc = full_argc;
    cfg.argv = full_argv;
    const char *workload = NULL, *resume = NULL;
    unsigned others = 0;   /* options a resume takes from the results file */
    char err[ERR_LEN];
    uint64_t v;

    opterr = 0;
    optind = 1;
    int c;
    while ((c = getopt_long(argc, argv, ":t:w:n:e:o:qh", opts, NULL)) != -1) {
        if (c != 'q' && c != OPT_RESUME && c != OPT_RESUME_AS_IS && c != OPT_DESTRUCTIVE &&
            c != OPT_OVERWRITE_SIGS && c != 'h')
            others++;
        switch (c) {
        case 't': cfg.target_path = optarg; break;
        case 'w': workload = optarg; break;
        case 'n':
            if (units_parse_uint(optarg, 1, 1000000, &v, err, sizeof(err)) != 0)
                goto bad_value;
            cfg.max_rounds = (unsigned)v;
            break;
        case OPT_ROUND_TIME:
            if (units_parse_duration(optarg, &cfg.round_time_ns, err, sizeof(err)) != 0)
                goto bad_value;
            if (cfg.round_time_ns == 0) {
                snprintf(err, sizeof(err), "must be more than 0");
                goto bad_value;
            }
            break;
        case OPT_ROUND_BYTES:
            if (units_parse_size(optarg, &cfg.round_bytes, err, sizeof(err)) != 0)
                goto bad_value;
            if (cfg.round_bytes == 0) {
                snprintf(err, sizeof(err), "must be more than 0");
                goto bad_value;
            }
            break;
        case OPT_TRACK: cfg.track = optarg; break;
        case OPT_ALL_ROUNDS: cfg.stop_at_steady = false; break;
        case OPT_PRECOND:
            if (wl_precondition_parse(optarg, &cfg.precondition) != 0) {
                snprintf(err, sizeof(err), "want none, wipc or steady");
                goto bad_value;
            }
            break;
        case OPT_WDPC_FILLS:
        case OPT_WDPC_MAX: {
            double *dst = c == OPT_WDPC_FILLS ? &cfg.wdpc_min_fills : &cfg.wdpc_max_fills;
            if (units_parse_double(optarg, c == OPT_WDPC_FILLS ? 0 : 0.01, 1000, dst, err,
                                   sizeof(err)) != 0)
                goto bad_value;
            break;
        }
        case 'e': cfg.engine_name = optarg; break;
        case 'o': cfg.out_dir = optarg; break;
        case OPT_FORCE: cfg.force = true; break;
        case OPT_SIZE:
            if (units_parse_size(optarg, &cfg.create_size, err, sizeof(err)) != 0)
                goto bad_value;
            break;
        case OPT_DESTRUCTIVE: cfg.destructive = true; break;
        case OPT_OVERWRITE_SIGS: cfg.overwrite_signatures = true; break;
        case OPT_REMOTE:
            if (cli_add_remotes(optarg, cfgp->remotes, &cfgp->n_remotes, 64, err,
                                sizeof(err)) != 0)
                goto bad_value;
            memcpy(cfg.remotes, cfgp->remotes, sizeof(cfg.remotes));
            cfg.n_remotes = cfgp->n_remotes;
            break;
        case 'q': cfg.quiet = true; break;
        case OPT_RESUME: resume = optarg; break;
        case OPT_RESUME_AS_IS: cfg.resume_as_is = true; break;
        case 'h': run_usage(stdout); return EXIT_OK;
        case ':':
            fprintf(stderr, "ptsbench run: option '%s' needs a value (see ptsbench run --help)\n",
                    argv[optind - 1]);
            return EXIT_USAGE;
        default:
            fprintf(stderr, "ptsbench run: unknown option '%s' (see ptsbench run --help)\n",
                    argv[optind - 1]);
            return EXIT_USAGE;
        }
        continue;
bad_value:
        fprintf(stderr, "ptsbench run: %s %s: %s\n", cli_option_name(opts, c), optarg, err);
        return EXIT_USAGE;
    }
    if (optind < argc) {
        fprintf(stderr, "ptsbench run: unexpected argument '%s' (see ptsbench run --help)\n",
                argv[optind]);
        return EXIT_USAGE;
    }
    if (cfg.round_bytes && cfg.round_time_ns) {
        fprintf(stderr, "ptsbench run: --round-time and --round-bytes exclude each other\n");
        return EXIT_USAGE;
    }
    if (resume) {
        static const char *const commands[] = {"run", NULL};
        pending = (struct cli_resume_pending){NULL, cfg.resume_as_is, cfg.quiet, cfg.destructive,
                                              cfg.overwrite_signatures};
        pending_cfg = cfgp;
        return cli_resume_again("run", "run", resume, others, "ptsbench.run", commands, &pending,
                                run_again);
    }
    if (pending.doc) {   /* parsing a resumed run's recorded command line */
        cfg.resume = pending.doc;
        cfg.resume_as_is = pending.resume_as_is;
        cfg.quiet |= pending.quiet;
        cfg.destructive |= pending.destructive;
        cfg.overwrite_signatures |= pending.overwrite_signatures;
    } else if (cfg.resume_as_is) {
        fprintf(stderr, "ptsbench run: --resume-as-is: only with --resume DIR\n");
        return EXIT_USAGE;
    }

    struct run_record *rec = xcalloc(1, sizeof(*rec));
    int code;
    if (run_prepare(rec, &cfg, workload, cli_data_dirs("profiles"), err, sizeof(err)) != 0) {
        fprintf(stderr, "ptsbench run: %s\n", err);
        run_record_free(rec);
        free(rec);
        return EXIT_USAGE;
    }
    cli_install_signals();
    code = run_execute(rec, cli_stop_flag());
    run_record_free(rec);
    free(rec);
    return code;
}

int cmd_run(int argc, char **argv, int full_argc, char **full_argv)
{
    struct run_config cfg;
    run_config_init(&cfg);
    int code = run_command(argc, argv, full_argc, full_argv, &cfg);
    cli_free_remotes(cfg.remotes, cfg.n_remotes);   /* on every path, errors included */
    return code;
}
