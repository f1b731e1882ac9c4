/* cmd_quick.c — `ptsbench quick TARGET`: CrystalDiskMark's corners in about two minutes.
 *
 * Quick is a profile with a fixed definition (profiles/quick.ini: SEQ1M Q8T1, SEQ128K Q32T1,
 * RND4K Q32T1 and RND4K Q1T1, read and write, over the first 1 GiB) run by the profile runner
 * (profile/profile_run.h) with no preconditioning unless --precondition asks: the usual plan,
 * safety rules, layout of a file target and results document (schema ptsbench.profile, so
 * show, plot and report read it as a profile). What quick adds is its own table (a row per
 * test, read and write side by side, every figure's drive state), --json, and its chart (the
 * profile bar chart, drawn into OUT/plots when gnuplot is there). */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <json-c/json.h>

#include "cli/cli.h"
#include "cli/options.h"
#include "lib/json_path.h"
#include "lib/units.h"
#include "lib/util.h"
#include "plot/plot.h"
#include "profile/profile_run.h"
#include "read/load.h"
#include "read/words.h"

#define QUICK_FILE_SIZE (1ull << 30)   /* a new file target: CrystalDiskMark's 1 GiB */

static struct profile_config cfg;
static const char *target_opt;
static uint64_t figure_ns;
static bool dry_run, as_json;

/* --precondition (cli.h cli_parse_precondition_fast): the mode and the fast pass. */
static struct cli_precondition precond = {&cfg.precondition, &cfg.fast.on, &cfg.fast.rho};

static const struct cli_opt opts[] = {
    {"target", 't', CLI_STR, &target_opt, .arg = "T",
     .help = "block device, file or sim:PRESET (or the operand TARGET)"},
    {"time", 0, CLI_DURATION, &figure_ns, 1, 0, .arg = "D",
     .help = "measuring time per figure, after 1 s of ramp (default 5 s;\non a simulated drive "
             "virtual time)"},
    CLI_PRECONDITION_OPTS(&precond, &cfg.fast.op_rho,
                          "none (default): burst figures, as CrystalDiskMark's;\nwipc: before "
                          "each test, its 1 GiB written twice sequentially\n(16 GiB in all);\n"
                          "steady: WIPC, then each test to SNIA steady state (long);\nevery "
                          "figure says which state it was measured in;"),
    {"size", 0, CLI_SIZE, &cfg.create_size, .arg = "SIZE",
     .help = "create (or extend) a file target to SIZE (default for a new\nfile: 1 GiB)"},
    {"engine", 'e', CLI_STR, &cfg.engine_name, .arg = "NAME",
     .help = "io_uring (default) or another engine; sim:PRESET uses sim"},
    CLI_TARGET_CHECK_OPTS(&cfg.allow_memory, &dry_run),
    {"out", 'o', CLI_STR, &cfg.out_dir, .arg = "DIR",
     .help = "results directory (default results/quick-YYYYmmdd-HHMMSS)"},
    {"force", 0, CLI_FLAG, &cfg.force, .help = "replace results.json already in DIR"},
    {"destructive", 0, CLI_FLAG, &cfg.destructive,
     .help = "allow writing to a block device, or over an existing file\nthat holds data (its "
             "data is destroyed)"},
    {"overwrite-signatures", 0, CLI_FLAG, &cfg.overwrite_signatures,
     .help = "with --destructive: write even over a filesystem,\npartition table, LVM/RAID "
             "member or swap signature"},
    {"json", 0, CLI_FLAG, &as_json,
     .help = "print one JSON object on stdout (the table's figures, raw)\ninstead of the plan, "
             "progress and table"},
    {"quiet", 'q', CLI_FLAG, &cfg.quiet, .help = "no plan or progress lines, only the table"},
    {0},
};

static void quick_usage(FILE *f)
{
    fputs("usage: ptsbench quick TARGET [options]\n"
          "\n"
          "A quick mark in CrystalDiskMark's manner: eight figures in about two minutes on a\n"
          "real drive. 1 MiB sequential at QD 8 (SEQ1M Q8T1), 128 KiB sequential at QD 32\n"
          "(SEQ128K Q32T1), 4 KiB random at QD 32 and QD 1 (RND4K Q32T1, RND4K Q1T1), read\n"
          "and write, one thread each, over the first 1 GiB of the target (profiles/quick.ini).\n"
          "A file target is laid out first (written where it was never written) so that the\n"
          "reads read data. The figures are burst figures on the drive as it is unless\n"
          "--precondition prepares it; each says the state it was measured in. One table (and\n"
          "with --json one JSON object); OUT/results.json is a profile results file (show,\n"
          "plot, report, export read it); the chart goes into OUT/plots when gnuplot is\n"
          "installed.\n"
          "\n",
          f);
    cli_print_options(f, opts);
    fputs("\nExample:\n"
          "  ptsbench quick /dev/nvme0n1 --destructive\n"
          "  ptsbench quick sim:generic-tlc --json\n"
          "Exit status: 0 done, 1 run failed, 2 bad input or refused (nothing written),\n"
          "130 interrupted (completed figures are kept).\n",
          f);
}

/* One row of the table: a test, its read and write points (NULL: not measured). */
struct quick_row {
    char name[48];
    struct json_object *dir[2];   /* 0 read, 1 write */
};

/* The measured points as rows, in the order of their first appearance. */
static size_t collect_rows(struct json_object *doc, struct quick_row *rows, size_t max)
{
    struct json_object *pts = jp_arr(doc, "points");
    size_t n = 0;
    for (size_t i = 0; i < jp_len(pts); i++) {
        struct json_object *p = jp_idx(pts, i);
        if (!jp_get(p, "result"))
            continue;
        struct json_object *stim = jp_get(p, "stimulus");
        char name[48];
        plot_quick_test_name(stim, name, sizeof(name));
        size_t r = 0;
        while (r < n && strcmp(rows[r].name, name))
            r++;
        if (r == n) {
            if (n == max)
                continue;
            memset(&rows[n], 0, sizeof(rows[n]));
            str_copy(rows[n++].name, sizeof(rows[0].name), name);
        }
        rows[r].dir[jp_num(stim, "read_pct") > 0 ? 0 : 1] = p;
    }
    return n;
}

/* A figure of a point's result: total.PATH; NAN when the point was not measured. */
static double figure(struct json_object *p, const char *path)
{
    if (!p)
        return NAN;
    char key[96];
    snprintf(key, sizeof(key), "result.total.%s", path);
    return jp_path(p, key);
}

static void state_of(struct json_object *p, char *buf, size_t len)
{
    buf[0] = '\0';
    if (p)
        plot_state_tag(jp_get(p, "result"), jp_str(p, "precondition"), buf, len);
}

/* The figures' state in one cell: "burst, not preconditioned", or read's / write's. */
static void row_state(const struct quick_row *r, char *buf, size_t len)
{
    char a[96], b[96];
    state_of(r->dir[0], a, sizeof(a));
    state_of(r->dir[1], b, sizeof(b));
    if (!strcmp(a, b) || !b[0])
        str_copy(buf, len, a);
    else if (!a[0])
        str_copy(buf, len, b);
    else
        snprintf(buf, len, "read %s; write %s", a, b);
}

static void print_table(struct json_object *doc, const struct quick_row *rows, size_t n,
                        const char *path)
{
    const bool sim = read_simulated(doc);
    printf("\n%-14s %10s %10s %10s %10s %10s %10s %10s %10s  %s\n", "test", "read MB/s",
           "write MB/s", "read IOPS", "write IOPS", "read mean", "read p99", "write mean",
           "write p99", "drive state");
    for (size_t i = 0; i < n; i++) {
        static const char *const paths[4] = {"mb_s", "iops", "lat_us.mean",
                                             "lat_us.percentiles.99"};
        static const enum units_figure kinds[4] = {UNITS_FIG_MBS, UNITS_FIG_IOPS, UNITS_FIG_LAT,
                                                   UNITS_FIG_LAT};
        char cell[8][32], state[200];
        for (int k = 0; k < 4; k++)
            for (int d = 0; d < 2; d++) {
                char *c = cell[k < 2 ? 2 * k + d : 4 + 2 * d + (k - 2)];
                if (k == 3)   /* the 99th: "n/a (N I/Os)" where the count does not support it */
                    words_pct_lat(jp_obj_at(rows[i].dir[d], "result.total.lat_us"), "99",
                                  UNITS_TEXT, c, 32);
                else
                    units_format_figure(figure(rows[i].dir[d], paths[k]), kinds[k], c, 32);
            }
        row_state(&rows[i], state, sizeof(state));
        printf("%-14s %10s %10s %10s %10s %10s %10s %10s %10s  %s\n", rows[i].name, cell[0],
               cell[1], cell[2], cell[3], cell[4], cell[5], cell[6], cell[7], state);
    }
    if (jp_obj_at(doc, "preconditioning.layout"))
        printf("the file was laid out first (written where it had never been written) so "
               "that the reads read data\n");
    if (sim)
        printf("simulated drive: the figures are the model's, in virtual time\n");
    printf("results: %s\n", path);
}

/* The quick figures as one JSON object: per test, read and write, raw numbers. */
static struct json_object *quick_json(struct json_object *doc, const struct quick_row *rows,
                                      size_t n, const char *path, const struct plot_list *charts)
{
    struct json_object *o = json_object_new_object();
    jw_add(o, "schema", jw_str("ptsbench.quick"));
    jw_add(o, "results", jw_str(path));
    jw_add(o, "status", jw_str(jp_str_or(doc, "status", "")));
    jw_add(o, "target", jw_str(jp_str_or(doc, "target.path", "")));
    jw_add(o, "simulated", json_object_new_boolean(read_simulated(doc)));
    jw_add(o, "laid_out", json_object_new_boolean(jp_obj_at(doc, "preconditioning.layout") != NULL));
    struct json_object *tests = json_object_new_array();
    for (size_t i = 0; i < n; i++) {
        struct json_object *t = json_object_new_object();
        jw_add(t, "test", jw_str(rows[i].name));
        for (int d = 0; d < 2; d++) {
            struct json_object *p = rows[i].dir[d], *f = NULL;
            if (p) {
                char state[96];
                state_of(p, state, sizeof(state));
                f = json_object_new_object();
                jw_add(f, "mb_s", jw_num(figure(p, "mb_s")));
                jw_add(f, "iops", jw_num(figure(p, "iops")));
                jw_add(f, "lat_mean_us", jw_num(figure(p, "lat_us.mean")));
                jw_add(f, "lat_p99_us", jw_num(figure(p, "lat_us.percentiles.99")));
                jw_add(f, "measured_state", jw_str(jp_str_or(p, "result.measured_state", "")));
                jw_add(f, "state", jw_str(state));
            }
            jw_add(t, d ? "write" : "read", f);
        }
        json_object_array_add(tests, t);
    }
    jw_add(o, "tests", tests);
    struct json_object *ch = json_object_new_array();
    for (size_t i = 0; charts && i < charts->n; i++)
        if (!strcmp(charts->f[i].name, "quick-bars"))
            json_object_array_add(ch, jw_str(charts->f[i].png));
    jw_add(o, "charts", ch);
    return o;
}

/* The chart: the profile charts of the results, into OUT/plots (a note when it cannot). */
static void draw_chart(struct json_object *doc, const char *results, struct plot_list *charts)
{
    char dir[4200], label[128];
    str_copy(dir, sizeof(dir), results);
    char *slash = strrchr(dir, '/');
    if (slash)
        *slash = '\0';
    else
        str_copy(dir, sizeof(dir), ".");
    size_t len = strlen(dir);
    snprintf(dir + len, sizeof(dir) - len, "/plots");
    plot_default_label(doc, label, sizeof(label));
    const struct plot_input in = {doc, label, results};
    char err[ERR_LEN];
    if (plot_all(&in, 1, dir, charts, err, sizeof(err)) != 0)
        fprintf(stderr, "ptsbench quick: no chart: %s\n", err);
    else
        for (size_t i = 0; i < charts->n && !as_json; i++)
            if (!strcmp(charts->f[i].name, "quick-bars"))
                printf("chart: %s\n", charts->f[i].png);
}

/* After the run: the results read back, the chart, the table or the JSON. */
static int quick_output(const char *results, int code)
{
    struct json_object *doc;
    char err[ERR_LEN], path[4200];
    if (read_load(results, READ_PROFILE, READ_VOICE_PLAIN, &doc, path, sizeof(path), err,
                  sizeof(err)) != 0) {
        fprintf(stderr, "ptsbench quick: %s\n", err);
        return code ? code : EXIT_FAILURE_RUN;
    }
    struct quick_row rows[16];
    const size_t n = collect_rows(doc, rows, 16);
    struct plot_list charts = {0};
    if (n)
        draw_chart(doc, path, &charts);
    if (as_json) {
        struct json_object *o = quick_json(doc, rows, n, path, &charts);
        printf("%s\n", json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY |
                                                             JSON_C_TO_STRING_NOSLASHESCAPE));
        json_object_put(o);
    } else {
        print_table(doc, rows, n, path);
    }
    plot_list_free(&charts);
    json_object_put(doc);
    return code;
}

/* Parse into cfg; the target from --target or the one operand. CLI_GO, CLI_DONE, CLI_BAD. */
static int quick_parse(int argc, char **argv, int full_argc, char **full_argv)
{
    static const char *spec[] = {"quick"};
    profile_config_init(&cfg);
    cfg.profile_dirs = cli_data_dirs("profiles");
    cfg.argc = full_argc;
    cfg.argv = full_argv;
    target_opt = NULL;
    figure_ns = 0;
    dry_run = as_json = false;
    const char *pos[2];
    unsigned n_pos = 0;
    int prc = cli_parse("quick", opts, argc, argv, pos, &n_pos, 2, quick_usage);
    if (prc != CLI_GO)
        return prc;
    if (n_pos + (target_opt != NULL) != 1) {
        fprintf(stderr, "ptsbench quick: %s\n", n_pos + (target_opt != NULL)
                        ? "one target only (ptsbench quick TARGET)"
                        : "no target (ptsbench quick TARGET; ptsbench quick --help)");
        return CLI_BAD;
    }
    cfg.target_path = target_opt ? target_opt : pos[0];
    cfg.specs[0] = spec[0];
    cfg.n_specs = 1;
    cfg.round_time_ns = figure_ns;   /* 0: the profile's runtime, 5 s */
    cfg.own_table = true;
    cfg.mark = "quick";
    if (as_json)
        cfg.quiet = true;
    struct stat st;
    if (!cfg.create_size && strncmp(cfg.target_path, "sim:", 4) != 0 &&
        stat(cfg.target_path, &st) != 0)
        cfg.create_size = QUICK_FILE_SIZE;   /* a new file, as CrystalDiskMark's test file */
    return CLI_GO;
}

int cmd_quick(int argc, char **argv, int full_argc, char **full_argv)
{
    int prc = quick_parse(argc, argv, full_argc, full_argv);
    if (prc != CLI_GO)
        return prc == CLI_DONE ? EXIT_OK : EXIT_USAGE;
    char err[ERR_LEN];
    struct profile_session *s = profile_prepare(&cfg, err, sizeof(err));
    if (!s) {
        fprintf(stderr, "ptsbench quick: %s\n", err);
        return EXIT_USAGE;
    }
    if (!cfg.quiet || dry_run)
        profile_print_plan(s);
    int code = EXIT_OK;
    if (dry_run) {
        profile_print_dry_run(s);
    } else {
        cli_install_signals();
        code = profile_execute(s, cli_stop_flag());
        code = quick_output(profile_results_path(s), code);
    }
    profile_session_free(s);
    return code;
}
