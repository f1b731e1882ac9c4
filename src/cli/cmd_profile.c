/* cmd_profile.c — `ptsbench profile NAME...`: workload profiles as a matrix (profile_run.h). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "lib/units.h"
#include "lib/util.h"
#include "profile/profile.h"
#include "profile/profile_run.h"

static void profile_usage(FILE *f)
{
    fputs(
        "usage: ptsbench profile NAME... --target T [options]\n"
        "       ptsbench profile --list\n"
        "\n"
        "Run workload profiles (profiles/NAME.ini: database, fileserver, webserver, workstation,\n"
        "streaming, large-block, qd-ramp-4k-read, atto, four-corners, ...) at every combination\n"
        "of data compressibility, workers and queue depth, each point recorded round by round in\n"
        "OUT/results.json with its effective queue depth (workers x QD); a queue-depth series\n"
        "reports its saturation point (lowest effective QD reaching 95% of its maximum IOPS).\n"
        "NAME may be NAME:SECTION (one workload of a profile) or a FILE.ini.\n"
        "\n"
        "  -t, --target T          block device, file or sim:PRESET\n"
        "      --size SIZE         create (or extend) a file target to SIZE\n"
        "      --compress LIST     data compressibility in percent, e.g. 0,90 (default: the\n"
        "                          profile's sweep_compress, else its own value)\n"
        "      --workers LIST      worker counts, e.g. 1,4 (default: the profile's)\n"
        "      --qd LIST           queue depths per worker, e.g. 1,2,4,8,16,32,64,128\n"
        "      --precondition P    steady: write the active range twice sequentially (WIPC) at\n"
        "                          the point's compressibility, let the stimulus precondition\n"
        "                          it (WDPC, see --wdpc-fills), then run each point to SNIA\n"
        "                          steady state and report its window (default);\n"
        "                          wipc: the same WIPC, then a fixed --rounds per point (burst\n"
        "                          after WIPC, not steady state);\n"
        "                          none: no writes first (burst / fresh-out-of-box figures)\n"
        "      --purge M           purge once before everything: auto | secure-erase | format |\n"
        "                          sanitize | discard | none (default none)\n"
        "      --round-time D      round length (default: the profile's runtime, else 60 s)\n"
        "      --rounds N          steady: at most N rounds per point (default 25); wipc/none:\n"
        "                          N rounds per point (default 1)\n"
        "      --track METRIC      steady-state metric (default iops; see ptsbench run --help)\n"
        "      --wdpc-fills X      steady: the first point's stimulus (WDPC) writes at least X\n"
        "                          times the active range, and until the fill guard passes\n"
        "                          (every 5-round average over a fill within 5% of the\n"
        "                          latest window's), before its rounds are judged (default 1)\n"
        "      --wdpc-max-fills X  steady: ... and at most X (default 5); a drive still\n"
        "                          changing then is reported as not steady\n"
        "  -e, --engine NAME       io_uring (default) or libaio; sim:PRESET uses sim\n"
        "  -o, --out DIR           results directory (default results/profile-YYYYmmdd-HHMMSS)\n"
        "      --force             replace results.json already in DIR\n"
        "      --destructive       allow writing to a block device, or over an existing file\n"
        "                          that holds data (its data is destroyed); --purge counts as\n"
        "                          writing\n"
        "      --overwrite-signatures  with --destructive: write even over a filesystem,\n"
        "                          partition table, LVM/RAID member or swap signature\n"
        "      --dry-run           print the plan and stop (nothing is written)\n"
        "      --list              list the profiles and their workloads\n"
        "  -q, --quiet             no progress lines\n"
        "      --resume DIR        go on with the profile whose results are in DIR (stopped by\n"
        "                          a signal, a crash or a lost machine) with the options it\n"
        "                          recorded (--quiet, --resume-as-is, --destructive and\n"
        "                          --overwrite-signatures may be added): its complete points are\n"
        "                          kept; the interrupted group is prepared again (WIPC, WDPC)\n"
        "                          and its interrupted point runs again; a simulated drive is\n"
        "                          replayed from the start (its state does not outlive the\n"
        "                          process)\n"
        "      --resume-as-is      with --resume: the interrupted group goes on without WIPC and\n"
        "                          WDPC again (the gap is noted)\n"
        "  -h, --help              this text\n"
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
        fprintf(stderr, "ptsbench profile: no profiles found (set PTSBENCH_DATADIR?)\n");
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

/* --resume: set while the stopped profile's recorded command line is parsed again. */
static struct cli_resume_pending pending;

int cmd_profile(int argc, char **argv, int full_argc, char **full_argv)
{
    enum { O_SIZE = 256, O_COMPRESS, O_WORKERS, O_QD, O_PRECOND, O_PURGE, O_ROUND_TIME,
           O_ROUNDS, O_TRACK, O_FORCE, O_DESTRUCTIVE, O_DRY_RUN, O_LIST, O_WDPC, O_WDPC_MAX,
           O_OVERWRITE_SIGS, O_RESUME, O_RESUME_AS_IS };
    static const struct option opts[] = {
        {"target", required_argument, NULL, 't'},
        {"size", required_argument, NULL, O_SIZE},
        {"compress", required_argument, NULL, O_COMPRESS},
        {"workers", required_argument, NULL, O_WORKERS},
        {"qd", required_argument, NULL, O_QD},
        {"precondition", required_argument, NULL, O_PRECOND},
        {"purge", required_argument, NULL, O_PURGE},
        {"round-time", required_argument, NULL, O_ROUND_TIME},
        {"rounds", required_argument, NULL, O_ROUNDS},
        {"track", required_argument, NULL, O_TRACK},
        {"wdpc-fills", required_argument, NULL, O_WDPC},
        {"wdpc-max-fills", required_argument, NULL, O_WDPC_MAX},
        {"engine", required_argument, NULL, 'e'},
        {"out", required_argument, NULL, 'o'},
        {"force", no_argument, NULL, O_FORCE},
        {"destructive", no_argument, NULL, O_DESTRUCTIVE},
        {"overwrite-signatures", no_argument, NULL, O_OVERWRITE_SIGS},
        {"dry-run", no_argument, NULL, O_DRY_RUN},
        {"list", no_argument, NULL, O_LIST},
        {"quiet", no_argument, NULL, 'q'},
        {"resume", required_argument, NULL, O_RESUME},
        {"resume-as-is", no_argument, NULL, O_RESUME_AS_IS},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    struct profile_config cfg;
    profile_config_init(&cfg);
    cfg.profile_dirs = cli_data_dirs("profiles");
    cfg.argc = full_argc;
    cfg.argv = full_argv;
    bool dry_run = false;
    char err[ERR_LEN];
    uint64_t v;
    const char *resume = NULL;
    unsigned others = 0;   /* names and options a resume takes from the results file */

    opterr = 0;
    optind = 1;
    int c;
    /* '-' first: profile names may come before, between or after the options */
    while ((c = getopt_long(argc, argv, "-:t:e:o:qh", opts, NULL)) != -1) {
        err[0] = '\0';
        if (c != 'q' && c != O_RESUME && c != O_RESUME_AS_IS && c != O_DESTRUCTIVE &&
            c != O_OVERWRITE_SIGS && c != 'h')
            others++;
        switch (c) {
        case 1:
            if (cfg.n_specs >= PROFILE_MAX_SPECS) {
                fprintf(stderr, "ptsbench profile: at most %d profiles at once\n",
                        PROFILE_MAX_SPECS);
                return EXIT_USAGE;
            }
            cfg.specs[cfg.n_specs++] = optarg;
            break;
        case 't': cfg.target_path = optarg; break;
        case O_SIZE:
            if (units_parse_size(optarg, &cfg.create_size, err, sizeof(err)) != 0)
                goto bad;
            break;
        case O_COMPRESS:
            if (wl_sweep_parse(optarg, 0, 100, &cfg.compress, err, sizeof(err)) != 0)
                goto bad;
            break;
        case O_WORKERS:
            if (wl_sweep_parse(optarg, 1, 1024, &cfg.workers, err, sizeof(err)) != 0)
                goto bad;
            break;
        case O_QD:
            if (wl_sweep_parse(optarg, 1, 65536, &cfg.qd, err, sizeof(err)) != 0)
                goto bad;
            break;
        case O_PRECOND:
            if (wl_precondition_parse(optarg, &cfg.precondition) != 0) {
                snprintf(err, sizeof(err), "want steady, wipc or none");
                goto bad;
            }
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
        case O_ROUNDS:
            if (units_parse_uint(optarg, 1, 1000000, &v, err, sizeof(err)) != 0)
                goto bad;
            cfg.max_rounds = (unsigned)v;
            break;
        case O_TRACK: cfg.track = optarg; break;
        case O_WDPC:
            if (units_parse_double(optarg, 0, 100, &cfg.wdpc_fills, err, sizeof(err)) != 0)
                goto bad;
            break;
        case O_WDPC_MAX:
            if (units_parse_double(optarg, 0.01, 100, &cfg.wdpc_max_fills, err, sizeof(err)) != 0)
                goto bad;
            break;
        case 'e': cfg.engine_name = optarg; break;
        case 'o': cfg.out_dir = optarg; break;
        case O_FORCE: cfg.force = true; break;
        case O_DESTRUCTIVE: cfg.destructive = true; break;
        case O_OVERWRITE_SIGS: cfg.overwrite_signatures = true; break;
        case O_DRY_RUN: dry_run = true; break;
        case O_LIST: return list_profiles();
        case 'q': cfg.quiet = true; break;
        case O_RESUME: resume = optarg; break;
        case O_RESUME_AS_IS: cfg.resume_as_is = true; break;
        case 'h': profile_usage(stdout); return EXIT_OK;
        case ':':
            fprintf(stderr, "ptsbench profile: option '%s' needs a value (see ptsbench profile "
                            "--help)\n", argv[optind - 1]);
            return EXIT_USAGE;
        default:
            fprintf(stderr, "ptsbench profile: unknown option '%s' (see ptsbench profile "
                            "--help)\n", argv[optind - 1]);
            return EXIT_USAGE;
        }
        continue;
    bad:
        fprintf(stderr, "ptsbench profile: %s %s: %s\n", cli_option_name(opts, c), optarg, err);
        return EXIT_USAGE;
    }

    if (resume) {
        static const char *const commands[] = {"profile", NULL};
        pending = (struct cli_resume_pending){NULL, cfg.resume_as_is, cfg.quiet, cfg.destructive,
                                              cfg.overwrite_signatures};
        return cli_resume_again("profile", "profile", resume, others, "ptsbench.profile",
                                commands, &pending, cmd_profile);
    }
    if (pending.doc) {   /* parsing a resumed profile's recorded command line */
        cfg.resume = pending.doc;
        cfg.resume_as_is = pending.resume_as_is;
        cfg.quiet |= pending.quiet;
        cfg.destructive |= pending.destructive;
        cfg.overwrite_signatures |= pending.overwrite_signatures;
    } else if (cfg.resume_as_is) {
        fprintf(stderr, "ptsbench profile: --resume-as-is: only with --resume DIR\n");
        return EXIT_USAGE;
    }
    struct profile_session *s = profile_prepare(&cfg, err, sizeof(err));
    if (!s) {
        fprintf(stderr, "ptsbench profile: %s\n", err);
        return EXIT_USAGE;
    }
    if (!cfg.quiet || dry_run)
        profile_print_plan(s);
    if (dry_run) {
        profile_session_free(s);
        return EXIT_OK;
    }
    cli_install_signals();
    int code = profile_execute(s, cli_stop_flag());
    profile_session_free(s);
    return code;
}
