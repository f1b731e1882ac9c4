/* cmd_verify.c — `ptsbench verify --spec FILE RESULTS...`: a vendor spec sheet's claims against
 * measured results, claim by claim: options and help here; the rules are src/judge/verify.h's,
 * the loading, judging and output src/judge/verify_out.h's. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "cli/options.h"
#include "lib/util.h"
#include "judge/verify.h"
#include "judge/verify_out.h"

#define VERIFY_MAX_RESULTS 64

static const char *opt_spec, *json_path, *results_in[VERIFY_MAX_RESULTS];
static double opt_tol = VERIFY_DEFAULT_TOLERANCE;
static bool opt_allow_missing, opt_allow_incomplete, opt_any_drive;

static int parse_tol(const char *v, void *target, char *err, size_t errlen)
{
    return verify_parse_tolerance(v, target, err, errlen);
}

static const struct cli_opt opts[] = {
    {"spec", 's', CLI_STR, &opt_spec, .arg = "FILE|NAME",
     .help = "the spec sheet: a file, or a name in the specs directory\n(e.g. zdrive-6300-1.6t "
             "for specs/zdrive-6300-1.6t.ini)"},
    {"tolerance", 0, CLI_CUSTOM, &opt_tol, .parse = parse_tol, .arg = "PCT",
     .help = "how far below a claimed IOPS or MB/s (above a claimed\nlatency) a measurement "
             "may be and pass: 5% (default), 5 or 0.5"},
    {"allow-missing", 0, CLI_FLAG, &opt_allow_missing,
     .help = "claims without a comparable measurement are listed but do\nnot make the exit "
             "status 1"},
    {"allow-incomplete", 0, CLI_FLAG, &opt_allow_incomplete,
     .help = "verify results whose run did not complete (running, killed,\ninterrupted, "
             "failed); refused by default"},
    {"any-drive", 0, CLI_FLAG, &opt_any_drive,
     .help = "judge results measured on another drive than the sheet's\n(a file, another "
             "model, capacity or preset; refused by\ndefault), every verdict marked \"(other "
             "drive)\""},
    {"json", 0, CLI_STR, &json_path, .arg = "FILE",
     .help = "a JSON document (every claim with all its fields), - for\nstdout (then instead "
             "of the table), as gate's --json"},
    {0},
};

static void verify_usage(FILE *f)
{
    fputs(
        "usage: ptsbench verify --spec FILE|NAME RESULTS... [--tolerance 5%] [--allow-missing]\n"
        "                       [--any-drive] [--json FILE]\n"
        "\n"
        "Check a vendor's spec sheet against measured results: every claim (IOPS, MB/s,\n"
        "latency) is judged against a measured point taken under the claim's own conditions,\n"
        "within a tolerance. RESULTS are results.json files of run, suite or profile, or\n"
        "directories searched for them.\n"
        "\n"
        ,
        f);
    cli_print_options(f, opts);
    fputs(
        "\n"
        "The drive: the sheet names its drive (reported_models: the model strings it reports,\n"
        "capacity, sim_preset: the simulated drive that models it). Results are judged only\n"
        "when every file's target is that drive: a simulated drive of the sheet's preset (other\n"
        "preset keys such as k allowed, not a changed capacity), or a block device reporting one\n"
        "of its models; either within 2% of its capacity. A file is never a drive's. Otherwise\n"
        "verify refuses with one line naming both (exit 2), unless --any-drive.\n"
        "A requirement sheet (kind = requirements: a purchaser's, e.g. ocp-datacenter-nvme-2.5)\n"
        "names no drive and applies to any target. Its figures are limits, judged with no\n"
        "tolerance; a figure per TB (per = TB) is value x the capacity the results record, in\n"
        "decimal TB; a percentile the results have no figure for beside the direction's\n"
        "maximum is neither met nor failed (not enough I/Os for it).\n"
        "\n"
        "Matching: a claim is judged only against a point at its own block size, pattern, read\n"
        "share, compressibility, workers x QD and drive state; nothing stated is substituted.\n"
        "State: a steady claim needs a point that reached SNIA steady state; a fob (burst) claim\n"
        "takes a fresh-out-of-box point, else one measured right after WIPC (workload-\n"
        "independent preconditioning) before steady state. A `ptsbench run` file without a\n"
        "preconditioning record (older files) is fresh-out-of-box whatever its steady-state\n"
        "verdict says. Conditions the sheet marks assumed (assumed = qd, threads, compress: the\n"
        "vendor did not state them) only order the candidates, closest first; a match that\n"
        "differs on one is marked *. A claim without such a point has no comparable\n"
        "measurement, with the reason (e.g. \"only burst data for a steady-state claim\"); it\n"
        "never passes. A burst claim with only steady-state data shows the steady figure in\n"
        "parentheses, for reference, not judged.\n"
        "Ratio: measured / claimed, for latencies claimed / measured: above 1 is better than\n"
        "claimed. Pass: measured >= (1 - tol) x claimed (latency: <= (1 + tol) x claimed).\n"
        "\n"
        "Exit status: 0 every claim passes (with --allow-missing: every claim that has a\n"
        "comparable measurement passes), 1 a claim fails, or has no comparable measurement and\n"
        "--allow-missing is not given, or the results are of a run that did not complete,\n"
        "2 bad input (a missing spec file, bad tolerance, unreadable results, results of\n"
        "another drive than the sheet's without --any-drive).\n",
        f);
}

int cmd_verify(int argc, char **argv, int full_argc, char **full_argv)
{
    (void)full_argc;
    (void)full_argv;
    unsigned n_in = 0;
    int prc = cli_parse("verify", opts, argc, argv, results_in, &n_in, VERIFY_MAX_RESULTS,
                        verify_usage);
    if (prc != CLI_GO)
        return prc == CLI_DONE ? EXIT_OK : EXIT_USAGE;
    if (!opt_spec) {
        fprintf(stderr, "ptsbench verify: --spec FILE is required (see ptsbench verify --help)\n");
        return EXIT_USAGE;
    }
    if (!n_in) {
        fprintf(stderr, "ptsbench verify: no RESULTS given (a results.json or a directory)\n");
        return EXIT_USAGE;
    }
    if (json_path && !*json_path) {
        fprintf(stderr, "ptsbench verify: --json: empty file name\n");
        return EXIT_USAGE;
    }
    char err[4 * ERR_LEN], path[4096];   /* a refusal names the sheet's drive and the target */
    if (cli_find_spec(opt_spec, path, sizeof(path), err, sizeof(err)) != 0) {
        fprintf(stderr, "ptsbench verify: --spec %s: %s\n", opt_spec, err);
        return EXIT_USAGE;
    }
    const struct verify_config cfg = {.spec = opt_spec, .spec_path = path,
                                      .results = results_in, .n_results = n_in,
                                      .tolerance = opt_tol, .allow_missing = opt_allow_missing,
                                      .allow_incomplete = opt_allow_incomplete,
                                      .any_drive = opt_any_drive, .json_path = json_path};
    int code;
    struct verify_session *s = verify_prepare(&cfg, &code, err, sizeof(err));
    const bool said = s == NULL;   /* prepare refused: err says why */
    if (s) {
        code = verify_execute(s, err, sizeof(err));
        verify_session_free(s);
    }
    if (said || code == EXIT_USAGE)
        fprintf(stderr, "ptsbench verify: %s\n", err);
    return code;
}
