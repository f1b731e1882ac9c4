/* cmd_plot.c — `ptsbench plot RESULTS... [--label NAME]... --out DIR`: gnuplot charts (PNG and
 * SVG, with their .gp scripts and .dat data) from results files, devices overlaid (plot.h). */
#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "cli/options.h"
#include "core/results.h"
#include "lib/util.h"
#include "report/plot.h"
#include "report/shape.h"

#define PLOT_MAX_INPUTS 32

static const char *labels[PLOT_MAX_INPUTS], *out_dir;
static unsigned n_labels;
static bool quiet;

static const struct cli_opt opts[] = {
    {"label", 'l', CLI_STR_LIST, labels, .count = &n_labels, .max = PLOT_MAX_INPUTS, .arg = "NAME",
     .help = "series name of the next RESULTS without a label, in order\n(default: the "
             "target's model, else its path)"},
    {"out", 'o', CLI_STR, &out_dir, .arg = "DIR",
     .help = "output directory (created if needed; charts are replaced)"},
    {"quiet", 'q', CLI_FLAG, &quiet, .help = "print nothing on success"},
    {0},
};

static void plot_usage(FILE *f)
{
    fputs(
        "usage: ptsbench plot RESULTS... [--label NAME]... --out DIR\n"
        "\n"
        "Draw the charts of results files as the reviews do: for every SNIA PTS test the\n"
        "steady-state convergence and measurement-window plots and the test's own charts (IOPS\n"
        "by block size and R/W mix in 2D and 3D, throughput, latency percentiles, WSAT against\n"
        "time and total GB written, HIR across wait states, XSR against time, DIRTH demand\n"
        "variation and intensity); workload profiles as grouped bars, QD ramps and latency\n"
        "against IOPS; a run's IOPS per round with its measurement window (WDPC rounds drawn\n"
        "apart, a line where the measurement begins) and its per-second samples. Several\n"
        "RESULTS are overlaid in every chart, one series per device. Titles say the drive's\n"
        "state (\"steady state\", \"burst, not preconditioned\", ...); a simulated drive is\n"
        "\"(simulated)\" in the title (one device) or in every legend entry naming it.\n"
        "\n"
        "Each chart is DIR/NAME.png and DIR/NAME.svg, rendered by gnuplot from DIR/NAME.gp and\n"
        "DIR/NAME.dat, which stay beside them: edit the script and run `gnuplot NAME.gp` in DIR\n"
        "to restyle. Chart names are stable (iops-convergence, iops-window, iops-bs-mix,\n"
        "iops-3d, tp-bs, lat-bs, wsat-iops-time, wsat-iops-tgbw, hir-iops-time, xsr-tp-time,\n"
        "dirth-intensity, profile-bars, qd-ramp, lat-vs-iops, run-rounds, ...).\n"
        "\n"
        "  RESULTS                 a results.json (ptsbench.run, .suite or .profile), or a\n"
        "                          directory holding one\n",
        f);
    cli_print_options(f, opts);
    fputs(
        "\n"
        "Needs gnuplot 5 (gnuplot-nox will do; pngcairo is used when present, else png).\n"
        "Example:\n"
        "  ptsbench plot results/suite-a results/suite-b --label 'Drive A' --label 'Drive B' \\\n"
        "      --out charts/\n"
        "Exit status: 0 done, 1 drawing failed (gnuplot missing or failing, unwritable DIR),\n"
        "2 bad input (nothing written).\n",
        f);
}

static const char *base_name_of(const char *path, char *buf, size_t len)
{
    str_copy(buf, len, path);
    size_t n = strlen(buf);
    while (n > 1 && buf[n - 1] == '/')
        buf[--n] = '\0';
    char *slash = strrchr(buf, '/');
    return slash ? slash + 1 : buf;
}

/* Load RESULTS (a file, or a directory holding results.json) into *doc and note the file. */
static int load_input(const char *arg, struct json_object **doc, char *file, size_t flen,
                      char *tag, size_t tlen, char *err, size_t errlen)
{
    struct stat st;
    if (stat(arg, &st) != 0)
        return errf(err, errlen, "%s: %s", arg, strerror(errno));
    char dirbuf[4096], tmp[4096];
    if (S_ISDIR(st.st_mode)) {
        snprintf(file, flen, "%s%sresults.json", arg, arg[strlen(arg) - 1] == '/' ? "" : "/");
        if (stat(file, &st) != 0)
            return errf(err, errlen, "%s: no results.json in this directory", arg);
        str_copy(tag, tlen, base_name_of(arg, tmp, sizeof(tmp)));
    } else {
        str_copy(file, flen, arg);
        /* the tag: the directory holding results.json, else the file's name */
        str_copy(dirbuf, sizeof(dirbuf), arg);
        char *slash = strrchr(dirbuf, '/');
        if (slash && !strcmp(slash + 1, "results.json")) {
            *slash = '\0';
            str_copy(tag, tlen, base_name_of(dirbuf, tmp, sizeof(tmp)));
        } else {
            str_copy(tag, tlen, base_name_of(arg, tmp, sizeof(tmp)));
        }
    }
    if (!S_ISREG(st.st_mode))
        return errf(err, errlen, "%s: not a regular file", file);
    FILE *f = fopen(file, "r");
    if (!f)
        return errf(err, errlen, "%s: %s", file, strerror(errno));
    fclose(f);
    *doc = json_object_from_file(file);
    if (!*doc) {
        char why[256];
        const char *e = json_util_get_last_err();
        str_copy(why, sizeof(why), e ? e : "unreadable");
        return errf(err, errlen, "%s: not a JSON document (%s)", file, str_trim(why));
    }
    results_upgrade(*doc);   /* a version-1 file read as version 2 */
    const char *schema = pj_schema(*doc);
    if (strcmp(schema, "ptsbench.run") && strcmp(schema, "ptsbench.suite") &&
        strcmp(schema, "ptsbench.profile")) {
        errf(err, errlen, "%s: schema '%s' is not ptsbench.run, ptsbench.suite or "
                          "ptsbench.profile", file, *schema ? schema : "(none)");
        json_object_put(*doc);
        *doc = NULL;
        return -1;
    }
    if (shape_check(*doc, file, err, errlen) != 0) {   /* malformed: one error, not a crash */
        json_object_put(*doc);
        *doc = NULL;
        return -1;
    }
    return 0;
}

int cmd_plot(int argc, char **argv, int full_argc, char **full_argv)
{
    (void)full_argc;
    (void)full_argv;
    const char *paths[PLOT_MAX_INPUTS];
    unsigned n_paths = 0;
    int prc = cli_parse("plot", opts, argc, argv, paths, &n_paths, PLOT_MAX_INPUTS, plot_usage);
    if (prc != CLI_GO)
        return prc == CLI_DONE ? EXIT_OK : EXIT_USAGE;
    if (!n_paths) {
        fprintf(stderr, "ptsbench plot: no results given (see ptsbench plot --help)\n");
        return EXIT_USAGE;
    }
    if (!out_dir) {
        fprintf(stderr, "ptsbench plot: --out DIR is required\n");
        return EXIT_USAGE;
    }
    if (n_labels > n_paths) {
        fprintf(stderr, "ptsbench plot: --label %s: %u labels for %u results\n",
                labels[n_labels - 1], n_labels, n_paths);
        return EXIT_USAGE;
    }
    struct stat st;
    if (stat(out_dir, &st) == 0 && !S_ISDIR(st.st_mode)) {
        fprintf(stderr, "ptsbench plot: --out %s: exists and is not a directory\n", out_dir);
        return EXIT_USAGE;
    }

    struct plot_input in[PLOT_MAX_INPUTS];
    static char files[PLOT_MAX_INPUTS][4096], tags[PLOT_MAX_INPUTS][256];
    static char names[PLOT_MAX_INPUTS][512];
    char err[ERR_LEN];
    int code = EXIT_OK;
    size_t loaded = 0;
    for (size_t i = 0; i < n_paths; i++) {
        in[i].doc = NULL;
        if (load_input(paths[i], &in[i].doc, files[i], sizeof(files[i]), tags[i],
                       sizeof(tags[i]), err, sizeof(err)) != 0) {
            fprintf(stderr, "ptsbench plot: %s\n", err);
            code = EXIT_USAGE;
            goto out;
        }
        loaded++;
        in[i].source = files[i];
        if (i < n_labels)
            str_copy(names[i], sizeof(names[i]), labels[i]);
        else
            plot_default_label(in[i].doc, names[i], sizeof(names[i]));
        in[i].label = names[i];
    }
    /* the same label twice on results of one kind (two runs of one drive, which would share
     * charts): name the later ones by their directory */
    for (size_t i = 1; i < n_paths; i++) {
        for (size_t j = 0; j < i; j++) {
            if (strcmp(names[i], names[j]) ||
                strcmp(pj_schema(in[i].doc), pj_schema(in[j].doc)))
                continue;
            size_t l = strlen(names[i]);
            snprintf(names[i] + l, sizeof(names[i]) - l, " (%s)", tags[i]);
            for (size_t k = 2; k < 100; k++) {
                bool clash = false;
                for (size_t q = 0; q < n_paths; q++)
                    if (q != i && !strcmp(names[q], names[i]) &&
                        !strcmp(pj_schema(in[q].doc), pj_schema(in[i].doc)))
                        clash = true;
                if (!clash)
                    break;
                snprintf(names[i] + l, sizeof(names[i]) - l, " (%s #%zu)", tags[i], k);
            }
            break;
        }
    }

    struct plot_list list;
    if (plot_all(in, n_paths, out_dir, &list, err, sizeof(err)) != 0) {
        fprintf(stderr, "ptsbench plot: %s\n", err);
        code = EXIT_FAILURE_RUN;
        goto out;
    }
    if (!list.n) {
        fprintf(stderr, "ptsbench plot: nothing to draw: the results hold no rounds, tests or "
                        "points with data\n");
        code = EXIT_FAILURE_RUN;
    } else if (!quiet) {
        printf("%zu charts in %s (NAME.png and NAME.svg, from NAME.gp and NAME.dat):\n", list.n,
               out_dir);
        for (size_t i = 0; i < list.n; i++)
            printf("  %-28s %-8s %s\n", list.f[i].name, list.f[i].section, list.f[i].title);
    }
    plot_list_free(&list);
out:
    for (size_t i = 0; i < loaded; i++)
        json_object_put(in[i].doc);
    return code;
}
