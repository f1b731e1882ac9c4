/* cmd_gate.c — `ptsbench gate`: the CI performance gate. Options and help here; below them
 * (src/judge/gate_session.h) the baseline and current results (files or directories,
 * src/read/measure.h) are loaded, their points paired by key, each selected metric compared
 * in its direction against the tolerance and the steady-state windows' own noise
 * (src/judge/gate.h has the rule), and reported as a text table (stdout), JSON (--json) and
 * JUnit XML (--junit).  --update-baseline copies the current results over the baseline
 * atomically when the gate passes.
 *
 * Exit status: 0 pass (warnings and improvements included), 1 regression or missing point,
 * 2 usage error or an output that could not be written. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli/cli.h"
#include "cli/options.h"
#include "db/db_gate.h"
#include "lib/util.h"
#include "judge/gate.h"
#include "judge/gate_session.h"
#include "read/measure.h"

static const char *baseline, *current, *junit, *json, *update, *db_file, *against;
static bool force_update, quiet, allow_incomplete;
static double tolerance = GATE_DEFAULT_TOLERANCE;
static struct cli_metric_list metrics;

static const struct cli_opt opts[] = {
    {"baseline", 'b', CLI_STR, &baseline, .arg = "PATH",
     .help = "baseline results file, or a directory of results (every\nresults.json under it)"},
    {"current", 'c', CLI_STR, &current, .arg = "PATH", .help = "current results file or directory"},
    {"db", 0, CLI_STR, &db_file, .arg = "FILE",
     .help = "gate against the results history FILE (ptsbench db) instead\nof --baseline"},
    {"against", 0, CLI_STR, &against, .arg = "RULE",
     .help = "with --db: last:N or median:N (the median of the last N\ncomparable runs: same "
             "model, same point), or tag:NAME (the\nruns tagged NAME); the band from their "
             "spread"},
    {"tolerance", 0, CLI_CUSTOM, &tolerance, .parse = cli_parse_tolerance, .arg = "PCT",
     .help = "allowed change in percent: 5%, 5 and 5.0 all mean 5%; a bare\nnumber is always "
             "percent (0.5 is 0.5%) (default 5%)"},
    {"metrics", 'm', CLI_CUSTOM, &metrics, .parse = cli_parse_metric_list, .arg = "LIST",
     .help = "comma-separated metrics (below), or all (default\niops,mb_s,lat_mean_us,lat_p99_us)"},
    {"junit", 0, CLI_STR, &junit, .arg = "FILE",
     .help = "JUnit XML: one test case per point and metric"},
    {"json", 0, CLI_STR, &json, .arg = "FILE",
     .help = "JSON report (schema ptsbench.gate); - for stdout (the table\nthen goes to stderr)"},
    {"update-baseline", 0, CLI_STR, &update, .arg = "PATH",
     .help = "when the gate passes, copy the current results to PATH\natomically: a file to "
             "PATH (PATH/results.json when PATH is a\ndirectory); a directory's results.json "
             "files, at their\nrelative paths, to the directory PATH, which is replaced as a\n"
             "whole (refused when PATH holds anything but results.json\nfiles and directories)"},
    {"force-update", 0, CLI_FLAG, &force_update,
     .help = "update the baseline even when the gate fails"},
    {"allow-incomplete", 0, CLI_FLAG, &allow_incomplete,
     .help = "compare results whose run did not complete (running, killed,\ninterrupted, "
             "failed); refused by default"},
    {"quiet", 'q', CLI_FLAG, &quiet, .help = "table rows only for cases that are not a plain pass"},
    {0},
};

static void usage(FILE *f)
{
    fputs(
        "usage: ptsbench gate --baseline BASE --current CUR [options]\n"
        "       ptsbench gate --db FILE --against last:N|median:N|tag:NAME --current CUR\n"
        "\n"
        "CI performance gate: compare current results with a baseline, point by point (each\n"
        "workload condition, paired by its key) and metric by metric, in each metric's own\n"
        "direction (IOPS and MB/s higher is better, latency lower is better).\n"
        "\n"
        "A change is a regression only when it goes the bad way by more than the tolerance AND\n"
        "by more than the noise band: the larger of the two steady-state windows' round-to-round\n"
        "spreads, (max - min) / mean. Beyond the tolerance but inside the band: a warning (the\n"
        "gate passes). A point or metric in the baseline but not in current fails; one only in\n"
        "current is reported as new and passes.\n"
        "\n"
        "With --db FILE --against RULE the baseline is the results history's own distribution\n"
        "(docs/history.md): per point and metric the median of the last N comparable runs (or\n"
        "of the runs tagged NAME), and its noise band the larger of their median window spread\n"
        "and 3 robust standard deviations (1.4826 x the median absolute deviation) of their\n"
        "values, so that one outlying baseline run neither moves the baseline nor widens the\n"
        "band. The current run, if already imported, is left out of its own history.\n"
        "\n",
        f);
    cli_print_options(f, opts);
    fputc('\n', f);
    cli_print_registry(f, "Metrics (--metrics):", CLI_MEAS_METRICS, 2, NULL);
    fputs(
        "\n"
        "Exit status: 0 pass (warnings, improvements and new points included), 1 a regression,\n"
        "a missing point, or results of a run that did not complete, 2 usage error or an\n"
        "output that could not be written.\n",
        f);
}

/* --db FILE --against RULE: the baseline is the history's distribution (db/db_gate.h). */
static int gate_history(void)
{
    const char *bad = !db_file ? "--against needs --db FILE"
                      : !against ? "--db needs --against last:N, median:N or tag:NAME"
                      : baseline ? "--baseline and --db exclude each other"
                      : update ? "--update-baseline does not apply to --db (import the run: "
                                 "ptsbench db import)"
                      : !current ? "--current is required (see ptsbench gate --help)"
                      : NULL;
    if (bad) {
        fprintf(stderr, "ptsbench gate: %s\n", bad);
        return EXIT_USAGE;
    }
    if ((junit && !*junit) || (json && !*json)) {
        fprintf(stderr, "ptsbench gate: --%s: empty file name\n", junit && !*junit ? "junit"
                                                                                  : "json");
        return EXIT_USAGE;
    }
    char err[ERR_LEN];
    struct db_against a;
    if (db_against_parse(against, &a, err, sizeof(err)) != 0) {
        fprintf(stderr, "ptsbench gate: %s\n", err);
        return EXIT_USAGE;
    }
    const struct gate_config cfg = {NULL, current, junit, json, NULL, false, quiet,
                                    allow_incomplete, tolerance, metrics.v,
                                    metrics.n > 0 ? (size_t)metrics.n : 0};
    int code;
    struct gate_session *s = db_gate_prepare(&cfg, db_file, &a, &code, err, sizeof(err));
    if (!s) {
        fprintf(stderr, "ptsbench gate: %s\n", err);
        return code;
    }
    code = gate_execute(s);
    gate_session_free(s);
    return code;
}

int cmd_gate(int argc, char **argv, int full_argc, char **full_argv)
{
    (void)full_argc;
    (void)full_argv;
    int prc = cli_parse("gate", opts, argc, argv, NULL, NULL, 0, usage);
    if (prc != CLI_GO)
        return prc == CLI_DONE ? EXIT_OK : EXIT_USAGE;
    if (db_file || against)
        return gate_history();
    if (!baseline || !current) {
        fprintf(stderr, "ptsbench gate: --%s is required (see ptsbench gate --help)\n",
                !baseline ? "baseline" : "current");
        return EXIT_USAGE;
    }
    if (force_update && !update) {
        fprintf(stderr, "ptsbench gate: --force-update needs --update-baseline PATH\n");
        return EXIT_USAGE;
    }
    if ((junit && !*junit) || (json && !*json)) {
        fprintf(stderr, "ptsbench gate: --%s: empty file name\n", junit && !*junit ? "junit"
                                                                                  : "json");
        return EXIT_USAGE;
    }
    const struct gate_config cfg = {baseline, current, junit, json, update, force_update, quiet,
                                    allow_incomplete, tolerance, metrics.v,
                                    metrics.n > 0 ? (size_t)metrics.n : 0};
    char err[ERR_LEN];
    int code;
    struct gate_session *s = gate_prepare(&cfg, &code, err, sizeof(err));
    if (!s) {
        fprintf(stderr, "ptsbench gate: %s\n", err);
        return code;
    }
    code = gate_execute(s);
    gate_session_free(s);
    return code;
}
