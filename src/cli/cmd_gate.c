/* cmd_gate.c — `ptsbench gate`: the CI performance gate.
 *
 * Loads the baseline and current results (files or directories, src/report/measure.h), pairs
 * their points by key, compares each selected metric in its direction against the tolerance and
 * the steady-state windows' own noise (src/report/gate.h has the rule), and reports as a text
 * table (stdout), JSON (--json) and JUnit XML (--junit).  --update-baseline copies the current
 * results over the baseline atomically when the gate passes.
 *
 * Exit status: 0 pass (warnings and improvements included), 1 regression or missing point,
 * 2 usage error or an output that could not be written. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <getopt.h>
#include <json-c/json.h>
#include <libgen.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/options.h"
#include "core/results.h"
#include "lib/file.h"
#include "lib/util.h"
#include "report/baseline.h"
#include "report/gate.h"
#include "report/junit.h"
#include "report/measure.h"

static const char *baseline, *current, *junit, *json, *update;
static bool force_update, quiet, allow_incomplete;
static double tolerance = GATE_DEFAULT_TOLERANCE;
static struct {
    enum meas_metric v[MEAS_N];
    int n;
} metrics;

static int parse_tolerance(const char *v, void *target, char *err, size_t errlen)
{
    return gate_parse_tolerance(v, target, err, errlen);
}

static int parse_metrics(const char *v, void *target, char *err, size_t errlen)
{
    (void)target;
    metrics.n = gate_parse_metrics(v, metrics.v, err, errlen);
    return metrics.n < 0 ? -1 : 0;
}

static const struct cli_opt opts[] = {
    {"baseline", 'b', CLI_STR, &baseline, .arg = "PATH",
     .help = "baseline results file, or a directory of results (every\nresults.json under it)"},
    {"current", 'c', CLI_STR, &current, .arg = "PATH", .help = "current results file or directory"},
    {"tolerance", 0, CLI_CUSTOM, &tolerance, .parse = parse_tolerance, .arg = "PCT",
     .help = "allowed change in percent: 5%, 5 and 5.0 all mean 5%; a bare\nnumber is always "
             "percent (0.5 is 0.5%) (default 5%)"},
    {"metrics", 'm', CLI_CUSTOM, NULL, .parse = parse_metrics, .arg = "LIST",
     .help = "comma-separated: iops, read_iops, write_iops, mb_s,\nread_mb_s, write_mb_s, "
             "lat_mean_us, read_lat_mean_us,\nwrite_lat_mean_us, lat_p99_us, lat_p99_9_us, "
             "lat_p99_99_us,\nlat_max_us, or all (default iops,mb_s,lat_mean_us,lat_p99_us)"},
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
        "\n",
        f);
    cli_print_options(f, opts);
    fputs(
        "\n"
        "Exit status: 0 pass (warnings, improvements and new points included), 1 a regression,\n"
        "a missing point, or results of a run that did not complete, 2 usage error or an\n"
        "output that could not be written.\n",
        f);
}

static int write_json(const struct gate_result *r, const char *path, char *err, size_t errlen)
{
    struct json_object *doc = gate_json(r);
    int rc = 0;
    if (!strcmp(path, "-")) {
        json_c_set_serialization_double_format("%.10g", JSON_C_OPTION_GLOBAL);
        fputs(json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PRETTY |
                                                      JSON_C_TO_STRING_SPACED |
                                                      JSON_C_TO_STRING_NOSLASHESCAPE),
              stdout);
        fputc('\n', stdout);
        if (fflush(stdout) != 0 || ferror(stdout))
            rc = errf(err, errlen, "cannot write the JSON report to stdout");
    } else {
        rc = results_write_json_atomic(doc, path, err, errlen);
    }
    json_object_put(doc);
    return rc;
}

static int write_junit(const struct gate_result *r, const char *path, char *err, size_t errlen)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return errf(err, errlen, "out of memory");
    int bad = junit_write(f, r, NULL);
    if (fclose(f) != 0 || bad) {
        free(buf);
        return errf(err, errlen, "cannot format the JUnit report");
    }
    int rc = file_write_atomic(path, (const char *const[]){buf}, &len, 1, true, err, errlen);
    free(buf);
    return rc;
}

int cmd_gate(int argc, char **argv, int full_argc, char **full_argv)
{
    (void)full_argc;
    (void)full_argv;
    int prc = cli_parse("gate", opts, argc, argv, NULL, NULL, 0, usage);
    if (prc != CLI_GO)
        return prc == CLI_DONE ? EXIT_OK : EXIT_USAGE;
    char err[ERR_LEN];
    const int n_metrics = metrics.n;
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

    struct meas_set base = {0}, cur = {0};
    if (meas_load(baseline, &base, err, sizeof(err)) != 0) {
        fprintf(stderr, "ptsbench gate: --baseline: %s\n", err);
        return EXIT_USAGE;
    }
    if (meas_load(current, &cur, err, sizeof(err)) != 0) {
        fprintf(stderr, "ptsbench gate: --current: %s\n", err);
        meas_free(&base);
        return EXIT_USAGE;
    }
    /* a killed, failed or still-running run is not a measurement to gate on */
    for (int k = 0; k < 2 && !allow_incomplete; k++) {
        const struct meas_set *m = k ? &cur : &base;
        if (!m->n_incomplete)
            continue;
        fprintf(stderr, "ptsbench gate: --%s: %s%s (add --allow-incomplete to gate on it)\n",
                k ? "current" : "baseline", m->incomplete,
                m->n_incomplete > 1 ? ", and more files" : "");
        meas_free(&base);
        meas_free(&cur);
        return 1;
    }
    struct gate_baseline_plan plan;
    if (update && gate_baseline_plan(current, update, &plan, err, sizeof(err)) != 0) {
        fprintf(stderr, "ptsbench gate: %s\n", err);
        meas_free(&base);
        meas_free(&cur);
        return EXIT_USAGE;
    }

    struct gate_options o = {
        .tolerance = tolerance,
        .metrics = n_metrics > 0 ? metrics.v : NULL,
        .n_metrics = n_metrics > 0 ? (size_t)n_metrics : 0,
        .baseline_path = baseline,
        .current_path = current,
    };
    struct gate_result r;
    gate_run(&base, &cur, &o, &r);
    meas_free(&base);
    meas_free(&cur);
    if (r.compared == 0) {
        char ms[512] = "";
        for (size_t k = 0; k < r.n_metrics; k++) {
            size_t l = strlen(ms);
            snprintf(ms + l, sizeof(ms) - l, "%s%s", k ? "," : "",
                     meas_metric_name(r.metrics[k]));
        }
        fprintf(stderr, "ptsbench gate: nothing to compare: no point of %s has any of the "
                "metrics %s\n", baseline, ms);
        gate_result_free(&r);
        return EXIT_USAGE;
    }

    bool json_stdout = json && !strcmp(json, "-");
    FILE *tf = json_stdout ? stderr : stdout;
    gate_write_text(tf, &r, quiet);
    fflush(tf);

    int status = r.failed ? 1 : EXIT_OK;
    if (json && write_json(&r, json, err, sizeof(err)) != 0) {
        fprintf(stderr, "ptsbench gate: --json: %s\n", err);
        status = EXIT_USAGE;
    }
    if (junit && write_junit(&r, junit, err, sizeof(err)) != 0) {
        fprintf(stderr, "ptsbench gate: --junit: %s\n", err);
        status = EXIT_USAGE;
    }
    if (update) {
        if (r.failed && !force_update) {
            fprintf(tf, "baseline not updated: the gate failed (--force-update writes it "
                    "anyway)\n");
        } else {
            size_t n_files = 0;
            if (gate_baseline_update(current, &plan, &n_files, err, sizeof(err)) != 0) {
                fprintf(stderr, "ptsbench gate: --update-baseline: %s\n", err);
                status = EXIT_USAGE;
            } else {
                fprintf(tf, "baseline updated: %s (%zu results file%s)%s\n", plan.dest, n_files,
                        n_files == 1 ? "" : "s", r.failed ? ", forced although the gate failed"
                                                         : "");
            }
        }
    }
    gate_result_free(&r);
    return status;
}
