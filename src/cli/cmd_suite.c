/* cmd_suite.c — `ptsbench suite` (several SNIA PTS tests) and `ptsbench run-test NAME`
 * (pts/pts_run.h). */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_fleet.h"
#include "cli/options.h"
#include "core/fleet.h"
#include "lib/util.h"
#include "pts/pts_def.h"
#include "pts/pts_run.h"
#include "pts/pts_session.h"

/* The parse's result (suite_parse sets it afresh each time: a --resume parses again). */
static struct pts_config cfg;
static const char *resume, *db_file;
static bool dry_run;
static struct cli_fleet fleet;

static int parse_tests(const char *value, void *target, char *err, size_t errlen)
{
    if (value[strspn(value, ", \t")] == '\0')   /* '' would be the default suite */
        return errf(err, errlen, "no test named (e.g. --tests iops,tp)");
    *(const char **)target = value;
    return 0;
}

/* A positive number (strtod: 4, 0.5, 1e-2), at most hi when hi > 0. */
static int positive(const char *value, double *out, double hi, const char *why, char *err,
                    size_t errlen)
{
    char *end;
    double v = strtod(value, &end);
    if (end == value || *end || !(v > 0) || (hi > 0 && v > hi))
        return errf(err, errlen, "%s", why);
    *out = v;
    return 0;
}

static int parse_wsat_capacity(const char *value, void *target, char *err, size_t errlen)
{
    return positive(value, target, 0, "want a positive number (times the user capacity)", err,
                    errlen);
}

static int parse_time_scale(const char *value, void *target, char *err, size_t errlen)
{
    return positive(value, target, 1000, "want a factor above 0, e.g. 0.01", err, errlen);
}

/* --precondition: fast[:RHO] only (cli.h cli_parse_precondition_fast); the definitions say how
 * each test is preconditioned otherwise. */
static enum wl_precondition pc_mode;
static struct cli_precondition precond = {&pc_mode, &cfg.fast.on, &cfg.fast.rho};

static int parse_precondition(const char *value, void *target, char *err, size_t errlen)
{
    if (cli_parse_precondition_fast(value, target, err, errlen) != 0)
        return -1;
    if (!cfg.fast.on)
        return errf(err, errlen, "want fast[:RHO] (the test definitions say how each test is "
                    "preconditioned otherwise)");
    return 0;
}

static const struct cli_opt suite_opts[] = {
    CLI_FLEET_OPTIONS(&fleet, "block device, file or sim:PRESET (writes: all tests write)"),
    {"size", 0, CLI_SIZE, &cfg.create_size, .arg = "SIZE",
     .help = "create (or extend) a file target to SIZE, e.g. 4g"},
    {"spec", 0, CLI_STR, &cfg.spec_name, .arg = "S",
     .help = "pts-e-1.1 | pts-c-1.2 | pts-2.0-e (default) | pts-2.0-c:\nactive range, write "
             "cache, outstanding I/O, tracking variables"},
    {"tests", 0, CLI_CUSTOM, &cfg.tests, .parse = parse_tests, .arg = "LIST",
     .help = "comma-separated (default iops,tp,lat,wsat; tests below)"},
    {"purge", 0, CLI_CUSTOM, &cfg.purge, .parse = cli_parse_purge, .arg = "M",
     .help = "auto (default) | secure-erase | format | sanitize | discard |\nnone (discard and "
             "none are recorded as not SNIA-compliant)"},
    {"precondition", 0, CLI_CUSTOM, &precond, .parse = parse_precondition, .arg = "P",
     .help = "as each test's definition says (default), or\n" CLI_PRECONDITION_FAST_HELP
             "\n  in the tests whose definitions allow it (fast_precondition);\n  the others "
             "are refused"},
    {"op", 0, CLI_CUSTOM, &cfg.fast.op_rho, .parse = cli_parse_op, .arg = "PCT|RHO",
     .help = CLI_OP_HELP},
    {"round-time", 0, CLI_DURATION, &cfg.round_time_ns, 1, 0, .arg = "D",
     .help = "each element's length instead of the PTS's 60 s (quick\nchecks; the results are "
             "then marked non-compliant)"},
    {"time-scale", 0, CLI_CUSTOM, &cfg.time_scale, .parse = parse_time_scale, .arg = "F",
     .help = "multiply every duration of the definitions (elements, HIR\naccesses and waits, "
             "XSR groups) by F (quick checks: marked\nnon-compliant)"},
    {"threads", 0, CLI_UINT, &cfg.threads, 1, 1024, .arg = "N",
     .help = "outstanding I/O: threads instead of the spec's recommendation"},
    {"qd", 0, CLI_UINT, &cfg.qd, 1, 1024, .arg = "N",
     .help = "outstanding I/O: queue depth instead of the spec's\nrecommendation"},
    {"max-rounds", 0, CLI_UINT, &cfg.max_rounds, 1, 1000000, .arg = "N",
     .help = "instead of 25 (continue past the PTS's limit, or stop sooner)"},
    {"time-limit", 0, CLI_DURATION, &cfg.time_limit_ns, 1, 0, .arg = "D",
     .help = "a total limit: the plan cuts the steady-state tests' rounds\nso that their bound "
             "fits, and says so (purge, WIPC, WSAT,\nHIR and XSR times are not cut); on a "
             "simulated drive virtual\ntime counts"},
    {"wsat-capacity", 0, CLI_CUSTOM, &cfg.wsat_capacity, .parse = parse_wsat_capacity,
     .arg = "X",
     .help = "WSAT stops after X times the user capacity instead of the\nPTS's 4 (marked "
             "non-compliant)"},
    {"wsat-time", 0, CLI_DURATION, &cfg.wsat_time_ns, .arg = "D",
     .help = "WSAT stops after D instead of the PTS's 24h (marked\nnon-compliant)"},
    {"engine", 'e', CLI_STR, &cfg.engine_name, .arg = "NAME",
     .help = "io_uring (default) or another engine below; sim:PRESET\nuses sim"},
    CLI_PLACEMENT_OPTS(&cfg.numa),
    CLI_TARGET_CHECK_OPTS(&cfg.allow_memory, &dry_run),
    {"out", 'o', CLI_STR, &cfg.out_dir, .arg = "DIR",
     .help = "results directory (default results/suite-YYYYmmdd-HHMMSS)"},
    {"force", 0, CLI_FLAG, &cfg.force, .help = "replace results.json already in DIR"},
    {"destructive", 0, CLI_FLAG, &cfg.destructive,
     .help = "allow writing to a block device, or over an existing file\nthat holds data (its "
             "data is destroyed)"},
    {"overwrite-signatures", 0, CLI_FLAG, &cfg.overwrite_signatures,
     .help = "with --destructive: write even over a filesystem,\npartition table, LVM/RAID "
             "member or swap signature"},
    {"db", 0, CLI_STR, &db_file, .arg = "FILE",
     .help = "when the run completes, import its results into the\nhistory FILE (ptsbench db)"},
    {"quiet", 'q', CLI_FLAG, &cfg.quiet, .help = "no progress"},
    {"resume", 0, CLI_STR, &resume, .arg = "DIR",
     .help = "go on with the suite whose results are in DIR (stopped by a\nsignal, a crash or a "
             "lost machine) with the options it\nrecorded (--quiet, --resume-as-is, "
             "--destructive and\n--overwrite-signatures may be added): its complete tests are\n"
             "kept; the interrupted one runs again from its start (WSAT goes\non with its byte "
             "count); a simulated drive is replayed from\nthe start (its state does not outlive "
             "the process)"},
    {"resume-as-is", 0, CLI_FLAG, &cfg.resume_as_is,
     .help = "with --resume: an interrupted IOPS, TP or LAT test goes on\nafter its last "
             "complete round (the gap is a compliance note)"},
    {0},
};
#define N_OPTS (sizeof(suite_opts) / sizeof(suite_opts[0]) - 1)

/* run-test's table: suite's without --tests (the test is its NAME). */
static struct cli_opt run_test_opts[N_OPTS + 1];

static const struct cli_opt *table(bool single)
{
    if (single && !run_test_opts[0].name)
        for (size_t i = 0, k = 0; i < N_OPTS; i++)
            if (strcmp(suite_opts[i].name, "tests"))
                run_test_opts[k++] = suite_opts[i];
    return single ? run_test_opts : suite_opts;
}

static void usage(FILE *f, bool single)
{
    if (single)
        fputs("usage: ptsbench run-test NAME --target T [options]\n\n"
              "Run one SNIA PTS test (a definition in pts/NAME.ini).\n\n", f);
    else
        fputs("usage: ptsbench suite --target T [--spec S] [--tests a,b,...] [options]\n\n"
              "Run SNIA PTS tests one after the other on one target: purge, preconditioning\n"
              "(WIPC, then the test loop itself as WDPC), rounds to steady state (or, for WSAT,\n"
              "to 4x capacity written), every round recorded in OUT/results.json.\n\n", f);
    cli_print_options(f, table(single));
    fputc('\n', f);
    cli_fleet_usage(f);
    fputc('\n', f);
    cli_print_registry(f, "Tests:", CLI_PTS_TESTS, 2, NULL);
    cli_print_registry(f, "Engines:", CLI_ENGINES, 2, "(ptsbench engines)");
    cli_print_registry(f, "Simulated drives (sim:PRESET):", CLI_SIM_PRESETS, 2,
                       "(ptsbench sim --list)");
    if (single) {   /* the keys of a definition, from its rows (docs/pts.md §5) */
        fputs("\nKeys of a definition (pts/NAME.ini, [test] and [spec NAME]):\n", f);
        pts_def_keys_print(f);
    }
}

static void suite_usage(FILE *f) { usage(f, false); }
static void run_test_usage(FILE *f) { usage(f, true); }

/* Parse into cfg and resume (single: run-test NAME, argv from after the name); *others: the
 * options a resume takes from the results file. CLI_GO, CLI_DONE (help) or CLI_BAD. */
static int suite_parse(int argc, char **argv, int full_argc, char **full_argv,
                       const char *single, unsigned *others)
{
    memset(&cfg, 0, sizeof(cfg));
    cfg.argc = full_argc;
    cfg.argv = full_argv;
    cfg.pts_dirs = cli_data_dirs("pts");
    cfg.profile_dirs = cli_data_dirs("profiles");
    cfg.tests = single;
    resume = NULL;
    dry_run = false;
    cli_fleet_clear(&fleet);
    const struct cli_opt *opts = table(single != NULL);
    unsigned uses[N_OPTS];
    int prc = cli_parse_uses(single ? "run-test" : "suite", opts, argc, argv, NULL, NULL, 0,
                             single ? run_test_usage : suite_usage, uses);
    if (prc == CLI_GO)
        *others = cli_resume_others(opts, uses);
    cfg.target_path = fleet.n ? fleet.targets[0] : NULL;
    return prc;
}

/* Check and plan everything (nothing written on bad input), then run. */
static int suite_go(const char *cmd)
{
    char err[ERR_LEN];
    if (cli_db_check(cmd, db_file) != 0)
        return EXIT_USAGE;
    struct pts_session *s = pts_prepare(&cfg, err, sizeof(err));
    if (!s) {
        fprintf(stderr, "ptsbench %s: %s\n", cmd, err);
        return EXIT_USAGE;
    }
    if (fleet_check_only()) {   /* one of several targets, asked only to check (cli/cli_fleet.h) */
        pts_free(s);
        return EXIT_OK;
    }
    if (!cfg.quiet || dry_run)
        pts_print_plan(s);
    if (dry_run) {
        bool purges = false;
        for (unsigned i = 0; i < s->n_defs; i++)
            purges |= s->defs[i].purge;
        run_print_dry_run(&s->target, true, false, purges ? cfg.purge : PURGE_NONE,
                          s->results_path);
        pts_free(s);
        return EXIT_OK;
    }
    cli_install_signals();
    int code = pts_execute(s, cli_stop_flag());
    code = cli_db_import_after(db_file, s->results_path, code, cfg.quiet);
    pts_free(s);
    return code;
}

static int suite_again(int argc, char **argv, int full_argc, char **full_argv);

/* A command line of suite, or of run-test NAME (single: argv from after NAME). */
static int suite_main(int argc, char **argv, int full_argc, char **full_argv, const char *single)
{
    const char *cmd = single ? "run-test" : "suite";
    unsigned others = 0;
    int prc = suite_parse(argc, argv, full_argc, full_argv, single, &others);
    if (prc != CLI_GO)
        return prc == CLI_DONE ? EXIT_OK : EXIT_USAGE;
    if (resume) {
        static const char *const commands[] = {"suite", "run-test", NULL};
        const struct cli_resume_flags flags = {cfg.resume_as_is, cfg.quiet, cfg.destructive,
                                               cfg.overwrite_signatures};
        return cli_resume_again(cmd, "suite", resume, others, "ptsbench.suite", commands,
                                &flags, suite_again);
    }
    if (cli_resume_merge(cmd, &cfg.resume, &cfg.resume_as_is, &cfg.quiet, &cfg.destructive,
                         &cfg.overwrite_signatures) != 0)
        return EXIT_USAGE;
    if (dry_run && fleet.n > 1) {   /* every target's plan; nothing is written */
        int code = EXIT_OK;
        for (unsigned i = 0; i < fleet.n && code == EXIT_OK; i++) {
            cfg.target_path = fleet.targets[i];
            code = suite_go(cmd);
        }
        return code;
    }
    const char *const words[] = {cmd, single};
    const int fc = cli_fleet_dispatch(&fleet, words, single ? 2 : 1, "suite", cfg.out_dir,
                                      cfg.force, &cfg.target_path);
    if (fc != CLI_FLEET_ONE)
        return fc;
    return suite_go(cmd);
}

/* A recorded command line: run-test or suite. */
static int suite_again(int argc, char **argv, int full_argc, char **full_argv)
{
    return !strcmp(argv[0], "run-test") ? cmd_run_test(argc, argv, full_argc, full_argv)
                                        : suite_main(argc, argv, full_argc, full_argv, NULL);
}

int cmd_suite(int argc, char **argv, int full_argc, char **full_argv)
{
    return suite_main(argc, argv, full_argc, full_argv, NULL);
}

int cmd_run_test(int argc, char **argv, int full_argc, char **full_argv)
{
    if (argc < 2 || argv[1][0] == '-') {
        if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
            run_test_usage(stdout);
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
