/* cmd_db.c — `ptsbench db import|list|show|compare|tag|trend`: the results history (one SQLite
 * file: src/db/db.h; docs/history.md). A table of subcommands, each its options, its help and
 * a function that parses, calls the layer below and returns the exit code.
 *
 * Exit status: 0 done, 1 an import or a query failed on a valid database, or an import skipped
 * a directory of no results or of a run not complete (named; the others imported), 2 bad
 * input (a bad option, a results file that cannot be imported, a file that is not a ptsbench
 * history, an unknown run id): nothing written. */
#include <errno.h>
#include <json-c/json.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/cli_fleet.h"
#include "cli/options.h"
#include "core/steps.h"
#include "db/db.h"
#include "db/db_out.h"
#include "db/db_trend.h"
#include "lib/file.h"
#include "lib/units.h"
#include "lib/util.h"
#include "judge/gate.h"
#include "read/load.h"
#include "read/measure.h"

#define MAX_FILES 4096

static const char *db_file;
static bool quiet;

#define DB_OPT                                                                               \
    {"db", 0, CLI_STR, &db_file, .arg = "FILE",                                             \
     .help = "the history (default $PTSBENCH_DB, else\n~/.local/share/ptsbench/results.db)"}

static const char DB_EXIT[] =
    "\nExit status: 0 done, 1 failed, 2 bad input (nothing written).\n";

/* The database file: --db, else the default. NULL with the message printed. */
static struct db *open_db(const char *sub, bool create)
{
    char path[4096], err[ERR_LEN];
    if (!db_file && db_default_path(path, sizeof(path), err, sizeof(err)) != 0) {
        fprintf(stderr, "ptsbench db %s: %s\n", sub, err);
        return NULL;
    }
    struct db *d = db_open(db_file ? db_file : path, create, err, sizeof(err));
    if (!d)
        fprintf(stderr, "ptsbench db %s: %s\n", sub, err);
    return d;
}

static int parse_id(const char *sub, const char *s, long long *id)
{
    char *end;
    long long v = strtoll(s, &end, 10);
    if (end == s || *end || v < 1) {
        fprintf(stderr, "ptsbench db %s: run id '%s': not a run number (see ptsbench db list)\n",
                sub, s);
        return -1;
    }
    *id = v;
    return 0;
}

static int get_run(struct db *d, const char *sub, long long id, struct db_run *r)
{
    char err[ERR_LEN];
    int rc = db_run_get(d, id, r, err, sizeof(err));
    if (rc == 1)
        fprintf(stderr, "ptsbench db %s: run %lld: no such run in %s\n", sub, id, db_path(d));
    else if (rc != 0)
        fprintf(stderr, "ptsbench db %s: %s\n", sub, err);
    return rc;
}

/* ---- import ---- */

static const struct cli_opt import_opts[] = {
    DB_OPT,
    {"quiet", 'q', CLI_FLAG, &quiet, .help = "no line per file"},
    {0},
};

static void import_usage(FILE *f)
{
    fputs("usage: ptsbench db import RESULTS... [--db FILE]\n"
          "\n"
          "Add results documents (ptsbench.run, .suite, .profile files, or directories holding\n"
          "results.json) of complete runs to the history: the run with its host, kernel,\n"
          "target (model, serial, firmware, capacity), engine, versions, spec, preparation,\n"
          "command line and times; every measured point with its steady-state window\n"
          "statistics per metric. A document already there is not added again. Every file is\n"
          "checked before the first is imported: one that cannot be imported stops the\n"
          "import (nothing written), except a directory that holds no results.json (a\n"
          "report's) or a run that did not complete, as demo-results/*/ takes them: it is\n"
          "skipped and named with why, the others imported, and the exit status is then 1.\n"
          "Two imports at once (two CI jobs) wait for each other.\n\n", f);
    cli_print_options(f, import_opts);
    fputs(DB_EXIT, f);
}

static bool is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* What a glob over results folders also takes: a directory that holds no results.json (a
 * report's folder) or the results of a run that did not complete (interrupted, failed, still
 * running). NULL when operand is not such a directory, else the reason in words. */
static const char *not_for_history(const char *operand)
{
    if (!is_dir(operand))
        return NULL;
    char path[4200], err[ERR_LEN];
    snprintf(path, sizeof(path), "%s/results.json", operand);
    if (access(path, F_OK) != 0 && errno == ENOENT)
        return "it holds no results.json (not a results directory)";
    struct json_object *doc;
    if (read_load(operand, READ_RESULTS, READ_VOICE_PLAIN, &doc, NULL, 0, err, sizeof(err)))
        return NULL;
    const char *st = json_object_get_string(json_object_object_get(doc, "status"));
    const bool done = st && !strcmp(st, "complete");
    json_object_put(doc);
    return done ? NULL : "its run did not complete (only complete runs go into the history)";
}

/* One operand that cannot be imported: a directory not_for_history names is skipped (named,
 * with why: *skipped counts it); anything else stops the import. 0 skipped, -1 stop (the line
 * printed either way). */
static int import_refused(const char *operand, const char *why, unsigned *skipped)
{
    const char *skip = not_for_history(operand);
    if (!skip) {
        fprintf(stderr, "ptsbench db import: %s\n", why);
        return -1;
    }
    fprintf(stderr, "ptsbench db import: skipped %s: %s\n", operand, skip);
    ++*skipped;
    return 0;
}

/* The operands into the files to import (a fleet's results: each target's), each checked.
 * Returns how many files, or -1 when one stops the import. */
static int import_files(const char **pos, unsigned n, const char **files, unsigned *skipped)
{
    char err[ERR_LEN];
    static cli_fleet_path members[MAX_FILES];
    static cli_fleet_name names[MAX_FILES];
    unsigned nf = 0;
    for (unsigned i = 0; i < n; i++) {
        /* a command's results on several targets stand for each target's own (cli_fleet.h) */
        const int m = cli_fleet_members(pos[i], members + nf, names + nf, MAX_FILES - nf, NULL,
                                        err, sizeof(err));
        if (m < 0 && import_refused(pos[i], err, skipped) != 0)
            return -1;
        if (m == 0 && nf >= MAX_FILES) {
            fprintf(stderr, "ptsbench db import: more than %d results files\n", MAX_FILES);
            return -1;
        }
        const unsigned from = nf;
        if (m == 0)
            files[nf++] = pos[i];
        for (int k = 0; k < m; k++, nf++)
            files[nf] = members[nf];
        for (unsigned k = from; k < nf; k++) {
            if (db_check_file(files[k], err, sizeof(err)) == 0)
                continue;
            if (import_refused(pos[i], err, skipped) != 0)
                return -1;
            nf = from;   /* the directory's files are left out together */
            break;
        }
    }
    return (int)nf;
}

static int db_import_cmd(int argc, char **argv)
{
    static const char *pos[MAX_FILES], *files[MAX_FILES];
    unsigned n = 0, skipped = 0;
    int prc = cli_parse("db import", import_opts, argc, argv, pos, &n, MAX_FILES, import_usage);
    if (prc != CLI_GO)
        return prc == CLI_DONE ? EXIT_OK : EXIT_USAGE;
    if (n == 0) {
        fprintf(stderr, "ptsbench db import: no results given (see ptsbench db import --help)\n");
        return EXIT_USAGE;
    }
    const int nf = import_files(pos, n, files, &skipped);
    if (nf < 0)
        return EXIT_USAGE;
    if (nf == 0) {   /* every operand skipped: nothing to write */
        fprintf(stderr, "ptsbench db import: nothing imported (%u skipped)\n", skipped);
        return EXIT_USAGE;
    }
    struct db *d = open_db("import", true);
    if (!d)
        return EXIT_USAGE;
    char err[ERR_LEN];
    int code = EXIT_OK;
    for (int i = 0; i < nf && code == EXIT_OK; i++) {
        struct db_import_result r;
        if (db_import_file(d, files[i], &r, err, sizeof(err)) != 0) {
            fflush(stdout);
            fprintf(stderr, "ptsbench db import: %s\n", err);
            code = EXIT_FAILURE_RUN;
        } else if (!quiet && r.added) {
            char np[32], nm[32];
            units_format_figure((double)r.points, UNITS_FIG_COUNT, np, sizeof(np));
            units_format_figure((double)r.measurements, UNITS_FIG_COUNT, nm, sizeof(nm));
            printf("run %lld: %s, %s points, %s measurements: %s\n", r.run_id, r.schema, np, nm,
                   files[i]);
        } else if (!quiet) {
            printf("run %lld: already in the history: %s\n", r.run_id, files[i]);
        }
    }
    db_close(d);
    fflush(stdout);
    if (skipped && code == EXIT_OK) {
        fprintf(stderr, "ptsbench db import: %u director%s skipped (named above), the others "
                "imported\n", skipped, skipped == 1 ? "y" : "ies");
        code = EXIT_FAILURE_RUN;
    }
    return code;
}

/* ---- list ---- */

static unsigned list_limit;
static const struct cli_opt list_opts[] = {
    DB_OPT,
    {"last", 0, CLI_UINT, &list_limit, 1, 1000000, .arg = "N", .help = "only the newest N runs"},
    {0},
};

static void list_usage(FILE *f)
{
    fputs("usage: ptsbench db list [--db FILE] [--last N]\n\n"
          "The runs in the history, oldest first: id, start time, kind, model, firmware (a\n"
          "simulated drive's preset and overrides), host, measured points, tags.\n\n", f);
    cli_print_options(f, list_opts);
    fputs(DB_EXIT, f);
}

static int db_list_cmd(int argc, char **argv)
{
    int prc = cli_parse("db list", list_opts, argc, argv, NULL, NULL, 0, list_usage);
    if (prc != CLI_GO)
        return prc == CLI_DONE ? EXIT_OK : EXIT_USAGE;
    struct db *d = open_db("list", false);
    if (!d)
        return EXIT_USAGE;
    struct db_run *r;
    size_t n;
    char err[ERR_LEN];
    int code = EXIT_OK;
    if (db_runs(d, list_limit, &r, &n, err, sizeof(err)) != 0) {
        fprintf(stderr, "ptsbench db list: %s\n", err);
        code = EXIT_USAGE;
    } else {
        db_write_list(stdout, r, n);
        free(r);
    }
    db_close(d);
    return code;
}

/* ---- show ---- */

static const struct cli_opt show_opts[] = {DB_OPT, {0}};

static void show_usage(FILE *f)
{
    fputs("usage: ptsbench db show ID [--db FILE]\n\n"
          "One run of the history: everything recorded about it, then its points with their\n"
          "main figures.\n\n", f);
    cli_print_options(f, show_opts);
    fputs(DB_EXIT, f);
}

static int db_show_cmd(int argc, char **argv)
{
    const char *pos[2];
    unsigned n = 0;
    int prc = cli_parse("db show", show_opts, argc, argv, pos, &n, 1, show_usage);
    if (prc != CLI_GO)
        return prc == CLI_DONE ? EXIT_OK : EXIT_USAGE;
    long long id;
    if (n != 1) {
        fprintf(stderr, "ptsbench db show: one run id, please (see ptsbench db list)\n");
        return EXIT_USAGE;
    }
    if (parse_id("show", pos[0], &id) != 0)
        return EXIT_USAGE;
    struct db *d = open_db("show", false);
    if (!d)
        return EXIT_USAGE;
    struct db_run r;
    struct meas_set s = {0};
    char err[ERR_LEN];
    int code = get_run(d, "show", id, &r) != 0 ? EXIT_USAGE : EXIT_OK;
    if (code == EXIT_OK && db_run_points(d, id, &s, err, sizeof(err)) != 0) {
        fprintf(stderr, "ptsbench db show: %s\n", err);
        code = EXIT_USAGE;
    } else if (code == EXIT_OK) {
        db_write_show(stdout, &r, &s);
    }
    meas_free(&s);
    db_close(d);
    return code;
}

/* ---- compare ---- */

static double tolerance = GATE_DEFAULT_TOLERANCE;
static struct cli_metric_list metrics;

static const struct cli_opt compare_opts[] = {
    DB_OPT,
    {"tolerance", 0, CLI_CUSTOM, &tolerance, .parse = cli_parse_tolerance, .arg = "PCT",
     .help = "a change within it is a pass (default 5%)"},
    {"metrics", 'm', CLI_CUSTOM, &metrics, .parse = cli_parse_metric_list, .arg = "LIST",
     .help = "comma-separated metrics, or all (default\niops,mb_s,lat_mean_us,lat_p99_us)"},
    {0},
};

static void compare_usage(FILE *f)
{
    fputs("usage: ptsbench db compare ID ID [--db FILE] [--tolerance PCT] [--metrics LIST]\n\n"
          "Two runs of the history point by point, the first as the baseline: gate's table\n"
          "(change, noise band, verdict; ptsbench gate --help has the rule). Exit 0 whatever\n"
          "the verdicts: a comparison, not a gate.\n\n", f);
    cli_print_options(f, compare_opts);
    fputs(DB_EXIT, f);
}

static int db_compare_cmd(int argc, char **argv)
{
    const char *pos[3];
    unsigned n = 0;
    int prc = cli_parse("db compare", compare_opts, argc, argv, pos, &n, 2, compare_usage);
    if (prc != CLI_GO)
        return prc == CLI_DONE ? EXIT_OK : EXIT_USAGE;
    long long id[2];
    if (n != 2) {
        fprintf(stderr, "ptsbench db compare: two run ids, please (see ptsbench db list)\n");
        return EXIT_USAGE;
    }
    if (parse_id("compare", pos[0], &id[0]) != 0 || parse_id("compare", pos[1], &id[1]) != 0)
        return EXIT_USAGE;
    struct db *d = open_db("compare", false);
    if (!d)
        return EXIT_USAGE;
    struct db_run r[2];
    struct meas_set s[2] = {{0}, {0}};
    char err[ERR_LEN];
    int code = EXIT_OK;
    for (int k = 0; k < 2 && code == EXIT_OK; k++) {
        if (get_run(d, "compare", id[k], &r[k]) != 0)
            code = EXIT_USAGE;
        else if (db_run_points(d, id[k], &s[k], err, sizeof(err)) != 0) {
            fprintf(stderr, "ptsbench db compare: %s\n", err);
            code = EXIT_USAGE;
        }
    }
    if (code == EXIT_OK) {
        char names[2][64];
        snprintf(names[0], sizeof(names[0]), "run %lld", id[0]);
        snprintf(names[1], sizeof(names[1]), "run %lld", id[1]);
        struct gate_options o = {.tolerance = tolerance,
                                 .metrics = metrics.n > 0 ? metrics.v : NULL,
                                 .n_metrics = metrics.n > 0 ? (size_t)metrics.n : 0,
                                 .baseline_path = names[0],
                                 .current_path = names[1]};
        struct gate_result g;
        gate_run(&s[0], &s[1], &o, &g);
        db_write_compare(stdout, &r[0], &r[1], &g);
        gate_result_free(&g);
    }
    meas_free(&s[0]);
    meas_free(&s[1]);
    db_close(d);
    return code;
}

/* ---- tag ---- */

static const struct cli_opt tag_opts[] = {DB_OPT, {0}};

static void tag_usage(FILE *f)
{
    fputs("usage: ptsbench db tag ID NAME [--db FILE]\n\n"
          "Name a run (release-1.2, fw-2.1.0, golden): gate --against tag:NAME takes the\n"
          "runs of that name as its baseline. A run may have several names, a name several\n"
          "runs (their median is the baseline).\n\n", f);
    cli_print_options(f, tag_opts);
    fputs(DB_EXIT, f);
}

static int db_tag_cmd(int argc, char **argv)
{
    const char *pos[3];
    unsigned n = 0;
    int prc = cli_parse("db tag", tag_opts, argc, argv, pos, &n, 2, tag_usage);
    if (prc != CLI_GO)
        return prc == CLI_DONE ? EXIT_OK : EXIT_USAGE;
    long long id;
    if (n != 2) {
        fprintf(stderr, "ptsbench db tag: a run id and a name, please\n");
        return EXIT_USAGE;
    }
    if (parse_id("tag", pos[0], &id) != 0)
        return EXIT_USAGE;
    struct db *d = open_db("tag", false);
    if (!d)
        return EXIT_USAGE;
    char err[ERR_LEN];
    int rc = db_tag(d, id, pos[1], err, sizeof(err));
    if (rc == 1)
        fprintf(stderr, "ptsbench db tag: run %lld: no such run in %s\n", id, db_path(d));
    else if (rc != 0)
        fprintf(stderr, "ptsbench db tag: %s\n", err);
    else
        printf("run %lld tagged %s\n", id, pos[1]);
    db_close(d);
    return rc ? EXIT_USAGE : EXIT_OK;
}

/* ---- trend ---- */

static const char *trend_metric, *trend_where, *trend_over, *trend_plot;
static unsigned trend_window = DB_TREND_WINDOW;

static const struct cli_opt trend_opts[] = {
    DB_OPT,
    {"metric", 0, CLI_STR, &trend_metric, .arg = "NAME", .help = "the figure (below); required"},
    {"where", 0, CLI_STR, &trend_where, .arg = "K=V,...",
     .help = "which points: model, firmware, host, test (iops, tp,\nrun, a profile), key, state, "
             "preset, bs (4k), mix (read\n%), random, compress, workers, qd"},
    {"over", 0, CLI_STR, &trend_over, .arg = "time|firmware",
     .help = "a row per run (default), or per firmware"},
    {"window", 0, CLI_UINT, &trend_window, 1, 1000, .arg = "N",
     .help = "over time: a run's band is that of the N runs before it\n(default 5)"},
    {"plot", 0, CLI_STR, &trend_plot, .arg = "DIR",
     .help = "also a chart: DIR/trend-METRIC.png, .svg, with its .gp and\n.dat (gnuplot)"},
    {0},
};

static void trend_usage(FILE *f)
{
    fputs("usage: ptsbench db trend --metric NAME [--where K=V,...] [--over time|firmware]\n"
          "                         [--plot DIR] [--db FILE]\n\n"
          "A figure of the selected points across the history, a table per point: each run\n"
          "with the median of the runs before it and their noise band (the larger of their\n"
          "window spread and 3 robust standard deviations), a run outside it marked *; or a\n"
          "row per firmware. --plot draws it with the band.\n\n", f);
    cli_print_options(f, trend_opts);
    fputc('\n', f);
    cli_print_registry(f, "Metrics (--metric):", CLI_MEAS_METRICS, 2, NULL);
    fputs(DB_EXIT, f);
}

static int db_trend_cmd(int argc, char **argv)
{
    int prc = cli_parse("db trend", trend_opts, argc, argv, NULL, NULL, 0, trend_usage);
    if (prc != CLI_GO)
        return prc == CLI_DONE ? EXIT_OK : EXIT_USAGE;
    enum meas_metric m;
    if (!trend_metric) {
        fprintf(stderr, "ptsbench db trend: --metric is required (see ptsbench db trend --help)\n");
        return EXIT_USAGE;
    }
    if (meas_metric_parse(trend_metric, &m) != 0) {
        fprintf(stderr, "ptsbench db trend: --metric %s: unknown metric (see ptsbench db trend "
                "--help)\n", trend_metric);
        return EXIT_USAGE;
    }
    bool by_fw = false;
    if (trend_over && strcmp(trend_over, "time")) {
        if (strcmp(trend_over, "firmware")) {
            fprintf(stderr, "ptsbench db trend: --over %s: time or firmware\n", trend_over);
            return EXIT_USAGE;
        }
        by_fw = true;
    }
    struct db_filter f;
    db_filter_init(&f);
    char err[ERR_LEN];
    if (trend_where && db_filter_parse(trend_where, &f, err, sizeof(err)) != 0) {
        fprintf(stderr, "ptsbench db trend: %s\n", err);
        return EXIT_USAGE;
    }
    struct db *d = open_db("trend", false);
    if (!d)
        return EXIT_USAGE;
    struct db_trend t;
    int code = EXIT_OK;
    if (db_trend_build(d, m, &f, trend_window, by_fw, &t, err, sizeof(err)) != 0) {
        fprintf(stderr, "ptsbench db trend: %s\n", err);
        db_close(d);
        return EXIT_USAGE;
    }
    if (t.n == 0) {
        fprintf(stderr, "ptsbench db trend: no run in %s has %s at the points --where %s "
                "selects\n", db_path(d), trend_metric, trend_where ? trend_where : "(all)");
        code = EXIT_USAGE;
    } else {
        db_trend_write_text(stdout, &t);
        char stem[96], title[512], png[4400];
        snprintf(stem, sizeof(stem), "trend-%s", meas_metric_name(m));
        snprintf(title, sizeof(title), "%s over %s%s%s", meas_metric_name(m),
                 by_fw ? "firmware" : "time", trend_where ? " — " : "",
                 trend_where ? trend_where : "");
        if (trend_plot && db_trend_plot(&t, trend_plot, stem, title, png, sizeof(png), err,
                                        sizeof(err)) != 0) {
            fprintf(stderr, "ptsbench db trend: --plot: %s\n", err);
            code = EXIT_FAILURE_RUN;
        } else if (trend_plot) {
            printf("chart: %s\n", png);
        }
    }
    db_trend_free(&t);
    db_close(d);
    return code;
}

/* ---- the subcommands ---- */

static const struct {
    const char *name;
    int (*fn)(int argc, char **argv);
    const char *summary;
} subs[] = {
    {"import", db_import_cmd, "add results documents (idempotent)"},
    {"list", db_list_cmd, "the runs, oldest first"},
    {"show", db_show_cmd, "one run and its points"},
    {"compare", db_compare_cmd, "two runs point by point"},
    {"tag", db_tag_cmd, "name a run (a baseline for gate --against tag:NAME)"},
    {"trend", db_trend_cmd, "a figure across the history, with its noise band"},
};

static void db_usage(FILE *f)
{
    fputs("usage: ptsbench db SUBCOMMAND [options]   (ptsbench db SUBCOMMAND --help)\n\n"
          "The results history: every run, suite and profile in one SQLite file (--db FILE,\n"
          "$PTSBENCH_DB, else ~/.local/share/ptsbench/results.db); docs/history.md.\n"
          "ptsbench gate --db FILE --against ... gates on it; run, suite and profile take\n"
          "--db FILE to import their results at the end.\n\nsubcommands:\n", f);
    for (size_t i = 0; i < sizeof(subs) / sizeof(subs[0]); i++)
        fprintf(f, "  %-10s %s\n", subs[i].name, subs[i].summary);
    fputs(DB_EXIT, f);
}

int cmd_db(int argc, char **argv, int full_argc, char **full_argv)
{
    (void)full_argc;
    (void)full_argv;
    if (argc < 2) {
        db_usage(stderr);
        return EXIT_USAGE;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        db_usage(stdout);
        return EXIT_OK;
    }
    for (size_t i = 0; i < sizeof(subs) / sizeof(subs[0]); i++)
        if (!strcmp(argv[1], subs[i].name))
            return subs[i].fn(argc - 1, argv + 1);
    fprintf(stderr, "ptsbench db: unknown subcommand '%s' (import, list, show, compare, tag, "
            "trend)\n", argv[1]);
    return EXIT_USAGE;
}

int cli_db_check(const char *cmd, const char *file)
{
    char err[ERR_LEN];
    if (file && !file_exists(file)) {   /* made with its directories when the run completes */
        char dir[PATH_MAX], what[PATH_MAX + 16];
        snprintf(what, sizeof(what), "--db %s", file);
        str_copy(dir, sizeof(dir), file);
        char *slash = strrchr(dir, '/');
        if (!slash)
            str_copy(dir, sizeof(dir), ".");
        else
            slash[slash == dir] = '\0';
        if (run_out_writable(dir, what, err, sizeof(err)) != 0) {
            fprintf(stderr, "ptsbench %s: %s\n", cmd, err);
            return -1;
        }
        return 0;
    }
    if (!file)
        return 0;
    struct db *d = db_open(file, false, err, sizeof(err));
    if (!d) {
        fprintf(stderr, "ptsbench %s: --db %s\n", cmd, err);
        return -1;
    }
    db_close(d);
    return 0;
}

int cli_db_import_after(const char *file, const char *dir, int code, bool quiet_run)
{
    if (!file || code != EXIT_OK)
        return code;
    char err[ERR_LEN];
    struct db *d = db_open(file, true, err, sizeof(err));
    struct db_import_result r;
    if (!d || db_import_file(d, dir, &r, err, sizeof(err)) != 0) {
        fprintf(stderr, "ptsbench: --db %s: %s (the results are kept in %s; ptsbench db import "
                "adds them later)\n", file, err, dir);
        db_close(d);
        return EXIT_FAILURE_RUN;
    }
    if (!quiet_run)
        printf("history: run %lld in %s%s\n", r.run_id, file, r.added ? "" : " (already there)");
    db_close(d);
    return code;
}
