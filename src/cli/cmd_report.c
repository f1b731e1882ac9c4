/* cmd_report.c — `ptsbench report RESULTS... --out DIR`: HTML + Markdown from results. */
#include <stdbool.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "cli/options.h"
#include "db/db.h"
#include "db/db_trend.h"
#include "lib/file.h"
#include "lib/json_path.h"
#include "lib/util.h"
#include "read/doc.h"
#include "read/measure.h"
#include "plot/plot.h"
#include "report/report.h"
#include "report/report_session.h"
#include "judge/verify.h"

static const char *files[REPORT_MAX_INPUTS], *labels[REPORT_MAX_INPUTS];
static const char *specs[REPORT_MAX_INPUTS];
static unsigned nf, nl, ns;
static struct report_config cfg;
static bool no_plots, pdf, any_drive;
static const char *history_path;

static int parse_tol(const char *v, void *target, char *err, size_t errlen)
{
    return verify_parse_tolerance(v, target, err, errlen);
}

static const struct cli_opt opts[] = {
    {"out", 'o', CLI_STR, &cfg.out_dir, .arg = "DIR", .help = "where to write (created if needed)"},
    {"label", 'l', CLI_STR_LIST, labels, .count = &nl, .max = REPORT_MAX_INPUTS, .arg = "NAME",
     .help = "the name of the next RESULTS' device in tables and legends\n(default: the "
             "simulated preset or the device model); give\none per RESULTS, in order"},
    {"title", 0, CLI_STR, &cfg.title, .arg = "TEXT", .help = "the report's title"},
    {"no-plots", 0, CLI_FLAG, &no_plots, .help = "tables and text only"},
    {"spec", 's', CLI_STR_LIST, specs, .count = &ns, .max = REPORT_MAX_INPUTS,
     .arg = "FILE|NAME",
     .help = "the vendor's spec sheet (a file, or a name in the specs\ndirectory, as verify "
             "takes): its claims against the measured\nfigures in \"Measured vs claimed\", "
             "its form factor and NAND\nin the header. One applies to every RESULTS; several: "
             "one\nper RESULTS, in order, - for none"},
    {"any-drive", 0, CLI_FLAG, &any_drive,
     .help = "judge a sheet's claims on results of another drive than\nthe sheet's (refused by "
             "default, as verify does), every\nverdict marked \"(other drive)\""},
    {"tolerance", 0, CLI_CUSTOM, &cfg.tolerance, .parse = parse_tol, .arg = "PCT",
     .help = "the claims' tolerance, as verify's: 5% (default)"},
    {"single-file", 0, CLI_FLAG, &cfg.single_file,
     .help = "one HTML file: the charts inlined as data: URIs"},
    {"db", 0, CLI_STR, &history_path, .arg = "FILE",
     .help = "the results history (ptsbench db): a chart of each point's\nfigure across its "
             "earlier runs there, with the noise band\n(at most 6 points per RESULTS)"},
    {"pdf", 0, CLI_FLAG, &pdf,
     .help = "also DIR/report.pdf, report.html printed by a headless\nChromium (Debian package "
             "chromium, or google-chrome):\na page per section, a header and footer naming the\n"
             "devices, tests, date and ptsbench version"},
    {0},
};

/* report --db: for each input, up to HISTORY_POINTS of its points charted across the history
 * (db/db_trend.h), rendered into OUT/plots/ as history-I-K. Points without an earlier run are
 * left out. 0, or -1 with one line. */
#define HISTORY_POINTS 6
static int history_charts(const char *db, const char *out_dir, const struct report_input *in,
                          unsigned n, struct plot_file **out, size_t *n_out, char *err,
                          size_t errlen)
{
    *out = NULL;
    *n_out = 0;
    struct db *d = db_open(db, false, err, errlen);
    if (!d)
        return -1;
    char dir[4200];
    snprintf(dir, sizeof(dir), "%s/plots", out_dir);
    if (file_mkdir_p(dir, err, errlen) != 0) {
        db_close(d);
        return -1;
    }
    int rc = 0;
    for (unsigned i = 0; i < n && rc == 0; i++) {
        char identity[65], model[256] = "";
        if (db_identity_of(in[i].path, identity, model, sizeof(model), err, errlen) != 0)
            continue;   /* not a document the history takes: nothing to chart */
        char why[ERR_LEN];
        const struct meas_set *set = results_doc_meas(in[i].src, why, sizeof(why));
        if (!set)
            continue;
        for (size_t k = 0; k < set->n && k < HISTORY_POINTS && rc == 0; k++) {
            const struct meas_point *p = &set->p[k];
            const enum meas_metric m = isfinite(p->v[MEAS_IOPS]) && p->v[MEAS_IOPS] > 0
                                           ? MEAS_IOPS : MEAS_MB_S;
            struct db_filter f;
            db_filter_init(&f);
            f.key = p->key;
            f.model = model[0] ? model : NULL;
            struct db_trend t;
            if (db_trend_build(d, m, &f, DB_TREND_WINDOW, false, &t, err, errlen) != 0) {
                rc = -1;
                break;
            }
            if (t.n == 1 && t.s[0].n >= 2) {   /* earlier runs of this point: a chart */
                struct plot_file pf;
                memset(&pf, 0, sizeof(pf));
                snprintf(pf.name, sizeof(pf.name), "history-%u-%zu", i + 1, k + 1);
                snprintf(pf.title, sizeof(pf.title), "%s: %s across %zu runs",
                         in[i].label ? in[i].label : set->device, meas_metric_name(m), t.s[0].n);
                snprintf(pf.caption, sizeof(pf.caption), "%s; the shaded band is the history's "
                         "spread before each run", p->label);
                snprintf(pf.section, sizeof(pf.section), "history");
                if (db_trend_plot(&t, dir, pf.name, pf.title, pf.png, sizeof(pf.png), err,
                                  errlen) != 0) {
                    rc = -1;
                } else {
                    snprintf(pf.svg, sizeof(pf.svg), "%s/%s.svg", dir, pf.name);
                    snprintf(pf.gp, sizeof(pf.gp), "%s/%s.gp", dir, pf.name);
                    snprintf(pf.dat, sizeof(pf.dat), "%s/%s.dat", dir, pf.name);
                    *out = xrealloc(*out, (*n_out + 1) * sizeof(**out));
                    (*out)[(*n_out)++] = pf;
                }
            }
            db_trend_free(&t);
        }
    }
    db_close(d);
    if (rc != 0) {
        free(*out);
        *out = NULL;
        *n_out = 0;
    }
    return rc;
}

static void usage(FILE *f)
{
    fputs(
        "usage: ptsbench report RESULTS... --out DIR [--label NAME]... [--spec NAME]...\n"
        "                       [options]\n"
        "\n"
        "Write a review-style report from results alone (nothing is re-run): DIR/report.html\n"
        "(self-contained, readable offline: inline style, no scripts or web fonts) and its\n"
        "Markdown twin DIR/report.md, with the charts in DIR/plots/ (PNG and SVG, with the\n"
        "gnuplot scripts and data to re-render them). The header follows the SNIA PTS report\n"
        "(test platform, device under test, set-up and test parameters, purge, specification,\n"
        "compliance notes); then every test with a summary in words, its tables and charts.\n"
        "Several RESULTS are compared side by side in every table and chart. Every figure\n"
        "says the drive's state (how it was prepared; steady state only when the results\n"
        "claim it) and, for a simulated drive, \"simulated\".\n"
        "\n"
        "  RESULTS                 a results.json, or a directory holding one (run, suite,\n"
        "                          profile results; a command's on several targets stands\n"
        "                          for each of its targets, compared, with their aggregate);\n"
        "                          a folder of result folders (demo-results/TIMESTAMP): each\n"
        "                          of them, in name order, labelled LABEL (FOLDER). The same\n"
        "                          results given twice are refused\n",
        f);
    cli_print_options(f, opts);
    fputs("\nThe style is reports/report.css, inlined into the HTML (edit it to restyle).\n"
          "\n"
          "--pdf needs chromium, chromium-browser, google-chrome or google-chrome-stable in\n"
          "PATH (it is given 120 s). Without one, or when it fails, the HTML and Markdown are\n"
          "still written, one line says why there is no PDF, and the exit status is 1.\n"
          "\n"
          "Exit status: 0 written, 1 failed (e.g. gnuplot failed, or --pdf made no PDF: the\n"
          "HTML is written), 2 bad input.\n",
          f);
}

int cmd_report(int argc, char **argv, int full_argc, char **full_argv)
{
    (void)full_argc;
    (void)full_argv;
    int rc = cli_parse("report", opts, argc, argv, files, &nf, REPORT_MAX_INPUTS, usage);
    if (rc != CLI_GO)
        return rc == CLI_DONE ? EXIT_OK : EXIT_USAGE;
    cfg.no_plots = no_plots;
    if (!nf) {
        fprintf(stderr, "ptsbench report: no RESULTS given (see ptsbench report --help)\n");
        return EXIT_USAGE;
    }
    if (!cfg.out_dir) {
        fprintf(stderr, "ptsbench report: missing --out DIR\n");
        return EXIT_USAGE;
    }
    if (nl > nf) {
        fprintf(stderr, "ptsbench report: %u labels for %u result sets\n", nl, nf);
        return EXIT_USAGE;
    }
    if (history_path) {   /* checked before anything is written */
        if (no_plots) {
            fprintf(stderr, "ptsbench report: --db %s: the history is charts: not with "
                            "--no-plots\n", history_path);
            return EXIT_USAGE;
        }
        char why[ERR_LEN];
        struct db *d = db_open(history_path, false, why, sizeof(why));
        if (!d) {
            fprintf(stderr, "ptsbench report: --db %s: %s\n", history_path, why);
            return EXIT_USAGE;
        }
        db_close(d);
    }
    char css[4200] = "";
    for (const char *const *d = cli_data_dirs("reports"); *d && !css[0]; d++) {
        snprintf(css, sizeof(css), "%s/report.css", *d);
        struct stat cs;
        if (stat(css, &cs) != 0)
            css[0] = '\0';
    }
    cfg.css_path = css[0] ? css : NULL;
    const struct report_args a = {
        .files = files, .n_files = nf, .labels = labels, .n_labels = nl, .specs = specs,
        .n_specs = ns, .find_spec = cli_find_spec, .any_drive = any_drive, .pdf = pdf,
        .history_db = history_path, .history = history_charts, .cfg = cfg,
    };
    int code;
    struct report_session *s = report_session_open(&a, &code);
    if (!s)
        return code;
    code = report_session_write(s);
    report_session_close(s);
    return code;
}
