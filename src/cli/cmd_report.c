/* cmd_report.c — `ptsbench report RESULTS... --out DIR`: HTML + Markdown from results. */
#include <stdbool.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "cli/cli_fleet.h"
#include "cli/options.h"
#include "db/db.h"
#include "db/db_trend.h"
#include "lib/file.h"
#include "lib/json_path.h"
#include "lib/util.h"
#include "read/measure.h"
#include "plot/plot.h"
#include "report/report.h"
#include "report/report_pdf.h"
#include "judge/verify.h"

#define REPORT_MAX_INPUTS 16

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

/* --spec: a sheet's claims are judged only on results of its drive (verify.h, "The drive"):
 * another target is refused with one line naming both, unless --any-drive (the report marks
 * the verdicts then). EXIT_OK or EXIT_USAGE. */
static int check_drives(const struct report_input *in, unsigned n)
{
    for (unsigned i = 0; i < n && cfg.sheets && !any_drive; i++) {
        const struct verify_sheet *sh = cfg.sheets[i];
        struct meas_target t;
        char why[ERR_LEN], line[4 * ERR_LEN];
        if (!sh)
            continue;
        meas_target_read(in[i].doc, in[i].path, &t);
        if (verify_drive_match(sh, &t, why, sizeof(why)))
            continue;
        verify_drive_refusal(sh, &t, why, line, sizeof(line));
        fprintf(stderr, "ptsbench report: --spec: %s\n", line);
        return EXIT_USAGE;
    }
    return EXIT_OK;
}

/* A fleet's results (schema ptsbench.fleet: one command on several targets, cli/cli_fleet.h) stand
 * for its targets' own, each labelled as the fleet labelled it; the first fleet's document goes
 * to the report for its aggregate. Other inputs keep their place and their --label. */
static cli_fleet_path fleet_files[REPORT_MAX_INPUTS];
static cli_fleet_name fleet_labels[REPORT_MAX_INPUTS];
static const char *in_labels[REPORT_MAX_INPUTS];

static int expand_fleets(void)
{
    const char *given[REPORT_MAX_INPUTS];
    const unsigned n_given = nf;
    memcpy(given, files, sizeof(given));
    nf = 0;
    for (unsigned i = 0; i < n_given; i++) {
        char err[ERR_LEN];
        struct json_object *doc = NULL;
        const int m = cli_fleet_members(given[i], fleet_files + nf, fleet_labels + nf,
                                        REPORT_MAX_INPUTS - nf, &doc, err, sizeof(err));
        if (m < 0) {
            fprintf(stderr, "ptsbench report: %s\n", err);
            return -1;
        }
        if (m == 0) {   /* an input of its own */
            if (nf >= REPORT_MAX_INPUTS) {
                fprintf(stderr, "ptsbench report: more than %d result sets\n", REPORT_MAX_INPUTS);
                return -1;
            }
            in_labels[nf] = i < nl ? labels[i] : NULL;
            files[nf++] = given[i];
            continue;
        }
        for (int k = 0; k < m; k++, nf++) {
            files[nf] = fleet_files[nf];
            in_labels[nf] = fleet_labels[nf][0] ? fleet_labels[nf] : NULL;
        }
        if (!cfg.fleet)
            cfg.fleet = doc;
        else
            json_object_put(doc);
    }
    return 0;
}

/* report --db: for each input, up to HISTORY_POINTS of its points charted across the history
 * (db/db_trend.h), rendered into OUT/plots/ as history-I-K. Points without an earlier run are
 * left out. 0, or -1 with one line. */
#define HISTORY_POINTS 6
static int history_charts(const struct report_input *in, unsigned n, struct plot_file **out,
                          size_t *n_out, char *err, size_t errlen)
{
    *out = NULL;
    *n_out = 0;
    struct db *d = db_open(history_path, false, err, errlen);
    if (!d)
        return -1;
    char dir[4200];
    snprintf(dir, sizeof(dir), "%s/plots", cfg.out_dir);
    if (file_mkdir_p(dir, err, errlen) != 0) {
        db_close(d);
        return -1;
    }
    int rc = 0;
    for (unsigned i = 0; i < n && rc == 0; i++) {
        char identity[65], model[256] = "";
        if (db_identity_of(in[i].path, identity, model, sizeof(model), err, errlen) != 0)
            continue;   /* not a document the history takes: nothing to chart */
        struct meas_set set;
        if (meas_load(in[i].path, &set, err, errlen) != 0)
            continue;
        for (size_t k = 0; k < set.n && k < HISTORY_POINTS && rc == 0; k++) {
            const struct meas_point *p = &set.p[k];
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
                         in[i].label ? in[i].label : set.device, meas_metric_name(m), t.s[0].n);
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
        meas_free(&set);
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
        "                          for each of its targets, compared, with their aggregate)\n",
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
    cfg.fleet = NULL;
    cfg.history = NULL;
    cfg.n_history = 0;
    cfg.history_db = NULL;
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
    if (expand_fleets() != 0)
        return EXIT_USAGE;
    if (ns > 1 && ns != nf) {
        fprintf(stderr, "ptsbench report: --spec: %u sheets for %u result sets (give one for "
                "every RESULTS, or one per RESULTS, - for none)\n", ns, nf);
        return EXIT_USAGE;
    }
    /* the sheets first: an unknown or bad one stops here, nothing written */
    struct verify_sheet sheet[REPORT_MAX_INPUTS];
    const struct verify_sheet *per_input[REPORT_MAX_INPUTS] = {0};
    unsigned n_sheets = 0;
    char err[ERR_LEN];
    for (unsigned k = 0; k < ns; k++) {
        if (!strcmp(specs[k], "-"))
            continue;
        char path[4096], why[ERR_LEN];
        if (cli_find_spec(specs[k], path, sizeof(path), why, sizeof(why)) != 0 ||
            verify_sheet_load(path, &sheet[n_sheets], why, sizeof(why)) != 0) {
            fprintf(stderr, "ptsbench report: --spec %s: %s\n", specs[k], why);
            for (unsigned j = 0; j < n_sheets; j++)
                verify_sheet_free(&sheet[j]);
            return EXIT_USAGE;
        }
        if (ns == 1)
            for (unsigned i = 0; i < nf; i++)
                per_input[i] = &sheet[n_sheets];
        else
            per_input[k] = &sheet[n_sheets];
        n_sheets++;
    }
    cfg.sheets = ns ? per_input : NULL;
    struct report_input in[REPORT_MAX_INPUTS];
    char paths[REPORT_MAX_INPUTS][4200];
    int code = EXIT_OK;
    unsigned loaded = 0;
    for (unsigned i = 0; i < nf; i++) {
        if (report_load(files[i], &in[i].doc, paths[i], sizeof(paths[i]), err, sizeof(err)) != 0) {
            fprintf(stderr, "ptsbench report: %s\n", err);
            code = EXIT_USAGE;
            break;
        }
        in[i].label = in_labels[i];
        in[i].path = paths[i];
        loaded++;
    }
    if (code == EXIT_OK)
        code = check_drives(in, nf);
    char css[4200] = "";
    for (const char *const *d = cli_data_dirs("reports"); *d && !css[0]; d++) {
        snprintf(css, sizeof(css), "%s/report.css", *d);
        struct stat cs;
        if (stat(css, &cs) != 0)
            css[0] = '\0';
    }
    cfg.css_path = css[0] ? css : NULL;
    struct plot_file *history = NULL;
    if (code == EXIT_OK && history_path) {
        if (history_charts(in, nf, &history, &cfg.n_history, err, sizeof(err)) != 0) {
            fprintf(stderr, "ptsbench report: --db %s: %s\n", history_path, err);
            code = EXIT_FAILURE_RUN;
        }
        cfg.history = history;
        cfg.history_db = history_path;
    }
    if (code == EXIT_OK) {
        char html[4200], md[4200];
        if (report_write(in, nf, &cfg, html, sizeof(html), md, sizeof(md), err, sizeof(err)) != 0) {
            fprintf(stderr, "ptsbench report: %s\n", err);
            code = EXIT_FAILURE_RUN;
        } else {
            printf("report: %s\n        %s\n", html, md);
            if (pdf) {
                char pdf_path[4300], why[ERR_LEN];
                snprintf(pdf_path, sizeof(pdf_path), "%s/report.pdf", cfg.out_dir);
                int st = report_pdf(html, pdf_path, REPORT_PDF_TIMEOUT_S, NULL, 0, why,
                                    sizeof(why));
                if (st == REPORT_PDF_NO_RENDERER) {
                    fprintf(stderr, "ptsbench report --pdf: needs chromium (Debian package "
                            "chromium) or google-chrome in PATH; the HTML report is written, "
                            "no PDF\n");
                    code = EXIT_FAILURE_RUN;
                } else if (st != REPORT_PDF_OK) {
                    fprintf(stderr, "ptsbench report --pdf: %s; the HTML report is written, "
                            "no PDF\n", why);
                    code = EXIT_FAILURE_RUN;
                } else {
                    printf("        %s\n", pdf_path);
                }
            }
        }
    }
    for (unsigned i = 0; i < loaded; i++)
        json_object_put(in[i].doc);
    for (unsigned j = 0; j < n_sheets; j++)
        verify_sheet_free(&sheet[j]);
    json_object_put(cfg.fleet);
    cfg.fleet = NULL;
    free(history);
    cfg.history = NULL;
    return code;
}
