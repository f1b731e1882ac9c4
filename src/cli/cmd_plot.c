/* cmd_plot.c — `ptsbench plot RESULTS... [--label NAME]... --out DIR`: gnuplot charts (PNG and
 * SVG, with their .gp scripts and .dat data) from results files, devices overlaid: options and
 * help here; the inputs are loaded and named by plot/plot_input.h, drawn by plot.h. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "cli/options.h"
#include "lib/util.h"
#include "plot/plot.h"
#include "plot/plot_input.h"

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
    static struct plot_inputs pi;
    char err[ERR_LEN];
    if (plot_inputs_load(&pi, paths, n_paths, labels, n_labels, err, sizeof(err)) != 0) {
        fprintf(stderr, "ptsbench plot: %s\n", err);
        return EXIT_USAGE;
    }
    int code = EXIT_OK;
    struct plot_list list;
    if (plot_all(pi.in, pi.n, out_dir, &list, err, sizeof(err)) != 0) {
        fprintf(stderr, "ptsbench plot: %s\n", err);
        plot_inputs_free(&pi);
        return EXIT_FAILURE_RUN;
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
    plot_inputs_free(&pi);
    return code;
}
