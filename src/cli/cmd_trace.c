/* cmd_trace.c — `ptsbench trace`: block I/O traces for `replay` (io/trace.h, io/tracegen.h,
 * device/capture.h).
 *
 *   trace list                          the synthetic trace definitions (traces/NAME.ini)
 *   trace generate NAME -o FILE         a synthetic trace as csv (--scale X, --seed N)
 *   trace stats TRACE...                what a trace holds: counts, bytes, sizes, sequential
 *                                       share, queue depths and busy time
 *   trace capture --target DEV -o FILE [--duration D] [-- COMMAND ARGS...]
 *                                       the requests a block device is sent, from the
 *                                       kernel's block tracepoints, in blkparse's text form */
#include <dirent.h>
#include <math.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "lib/units.h"
#include "cli/options.h"
#include "core/steps.h"
#include "device/capture.h"
#include "io/trace.h"
#include "io/tracegen.h"
#include "lib/util.h"

#define REPLAY_TRACE_ARGS 8   /* the subcommand and its operands */

static void trace_usage(FILE *f)
{
    fputs(
        "usage: ptsbench trace list\n"
        "       ptsbench trace generate NAME -o FILE [--scale X] [--seed N]\n"
        "       ptsbench trace stats TRACE...\n"
        "       ptsbench trace capture --target DEV -o FILE [--duration D] [-- COMMAND ARGS...]\n"
        "\n"
        "Block I/O traces for `ptsbench replay`.\n"
        "  list      the synthetic trace definitions (traces/NAME.ini): approximations of\n"
        "            traces that were published only as figures (StorageReview's mail server,\n"
        "            AnandTech's Storage Bench 2011), each file saying what is published and\n"
        "            what is chosen\n"
        "  generate  a synthetic trace as csv; --scale multiplies its I/O count (0.01: a\n"
        "            hundredth), --seed picks another draw of the same definition\n"
        "  stats     what a trace holds (any format replay reads, or gen:NAME)\n"
        "  capture   record the requests a block device is sent while COMMAND runs (or for\n"
        "            --duration, or until interrupted), from the kernel's block tracepoints in\n"
        "            a tracing instance of its own (tracefs; root): blkparse's text form, which\n"
        "            replay reads. Where blktrace works, `blktrace -d DEV` does the same\n"
        "\n"
        "Options:\n"
        "  -o, --out FILE          generate, capture: the trace file to write (atomically)\n"
        "      --scale X           generate: X times the definition's I/Os (default 1)\n"
        "      --seed N            generate: the draw (default 1)\n"
        "  -t, --target DEV        capture: the block device\n"
        "      --duration D        capture: stop after D (60s, 5m) when no COMMAND is given\n"
        "  -q, --quiet             capture, generate: no progress lines\n"
        "  -h, --help              this text\n"
        "\n"
        "Exit status: 0 done, 1 failed, 2 bad input (nothing written).\n",
        f);
}

static void print_stats(const struct trace *t)
{
    struct trace_stats s;
    trace_stats(t, &s);
    const uint64_t n = s.ios[0] + s.ios[1];
    printf("%s (%s)\n", t->source, t->format);
    char f[6][32];
    units_format_figure((double)n, UNITS_FIG_COUNT, f[0], sizeof(f[0]));
    units_format_figure((double)s.ios[0], UNITS_FIG_COUNT, f[1], sizeof(f[1]));
    units_format_figure((double)s.ios[1], UNITS_FIG_COUNT, f[2], sizeof(f[2]));
    printf("  I/Os       %s: %s reads (%.1f%%), %s writes\n", f[0], f[1],
           n ? 100.0 * s.ios[0] / n : 0.0, f[2]);
    units_format_figure((double)s.bytes[0], UNITS_FIG_BYTES, f[0], sizeof(f[0]));
    units_format_figure((double)s.bytes[1], UNITS_FIG_BYTES, f[1], sizeof(f[1]));
    units_format_bs(s.len_min, f[2], sizeof(f[2]));
    units_format_bs(s.len_max, f[3], sizeof(f[3]));
    printf("  bytes      %s read, %s written; sizes %s to %s, %.1f KiB on average\n", f[0], f[1],
           f[2], f[3], n ? (s.bytes[0] + s.bytes[1]) / 1024.0 / n : 0.0);
    printf("  sequential %.1f%% (I/Os starting where the previous one ended)\n",
           n ? 100.0 * s.seq_ios / n : 0.0);
    units_format_figure((double)trace_extent(t), UNITS_FIG_BYTES, f[4], sizeof(f[4]));
    printf("  extent     %s (the highest offset + length)\n", f[4]);
    units_format_figure(s.span_ns ? n / (s.span_ns / 1e9) : 0.0, UNITS_FIG_IOPS, f[5],
                        sizeof(f[5]));
    if (t->timed)
        printf("  timeline   %.3f s, %s I/Os per second\n", s.span_ns / 1e9, f[5]);
    else
        printf("  timeline   none (replay as fast as possible)\n");
    if (t->has_done) {
        printf("  busy       %.3f s (%.1f%% of the timeline)\n", s.busy_ns / 1e9,
               s.span_ns ? 100.0 * s.busy_ns / s.span_ns : 0.0);
        printf("  queue      mean %.3f at issue, %.1f%% at QD 1\n", s.qd_mean,
               n ? 100.0 * s.qd[1] / n : 0.0);
        units_format_figure(s.lat_mean_us[0], UNITS_FIG_LAT, f[0], sizeof(f[0]));
        units_format_figure(s.lat_mean_us[1], UNITS_FIG_LAT, f[1], sizeof(f[1]));
        printf("  latency    mean %s read, %s write (the captured device's)\n", f[0], f[1]);
    } else {
        printf("  queue      not recorded (no completions in the trace)\n");
    }
    if (t->skipped)
        printf("  left out   %llu trims, flushes and syncs\n", (unsigned long long)t->skipped);
    if (t->unfinished)
        printf("  unfinished %llu issues the trace does not complete\n",
               (unsigned long long)t->unfinished);
}

static int trace_list(void)
{
    const char *const *dirs = cli_data_dirs("traces");
    unsigned n = 0;
    for (const char *const *d = dirs; *d; d++) {
        DIR *dir = opendir(*d);
        if (!dir)
            continue;
        struct dirent *e;
        while ((e = readdir(dir))) {
            size_t l = strlen(e->d_name);
            if (l < 5 || strcmp(e->d_name + l - 4, ".ini"))
                continue;
            char path[4200], err[ERR_LEN];
            snprintf(path, sizeof(path), "%s/%s", *d, e->d_name);
            struct tracegen_def def;
            if (tracegen_load(path, NULL, &def, err, sizeof(err)) != 0)
                printf("%-28s (does not load: %s)\n", e->d_name, err);
            else
                printf("%-28s %s\n", def.name, def.description);
            n++;
        }
        closedir(dir);
        break;   /* the first directory that exists */
    }
    if (!n) {
        fprintf(stderr, "ptsbench trace: no trace definitions (traces/*.ini) found\n");
        return EXIT_FAILURE_RUN;
    }
    return EXIT_OK;
}

static int trace_generate(const char *name, const char *out, double scale, unsigned seed,
                          bool quiet)
{
    char err[ERR_LEN];
    if (!out) {
        fprintf(stderr, "ptsbench trace generate: missing -o FILE\n");
        return EXIT_USAGE;
    }
    struct tracegen_def def;
    if (tracegen_load(name, cli_data_dirs("traces"), &def, err, sizeof(err)) != 0) {
        fprintf(stderr, "ptsbench trace generate: %s\n", err);
        return EXIT_USAGE;
    }
    struct trace t;
    if (tracegen_run(&def, scale, seed, &t, err, sizeof(err)) != 0) {
        fprintf(stderr, "ptsbench trace generate: %s\n", err);
        trace_free(&t);
        return EXIT_USAGE;
    }
    int code = EXIT_OK;
    if (trace_write_csv(&t, out, err, sizeof(err)) != 0) {
        fprintf(stderr, "ptsbench trace generate: %s\n", err);
        code = EXIT_FAILURE_RUN;
    } else if (!quiet) {
        print_stats(&t);
        printf("written: %s\n", out);
    }
    trace_free(&t);
    return code;
}

static int trace_stats_cmd(const char *const *files, unsigned n)
{
    if (!n) {
        fprintf(stderr, "ptsbench trace stats: no trace given\n");
        return EXIT_USAGE;
    }
    struct trace t = {0};
    char err[ERR_LEN];
    for (unsigned i = 0; i < n; i++)
        if (tracegen_load_any(files[i], cli_data_dirs("traces"), &t, err, sizeof(err)) != 0) {
            fprintf(stderr, "ptsbench trace stats: %s\n", err);
            trace_free(&t);
            return EXIT_USAGE;
        }
    if (trace_finish(&t, err, sizeof(err)) != 0) {
        fprintf(stderr, "ptsbench trace stats: %s\n", err);
        trace_free(&t);
        return EXIT_USAGE;
    }
    print_stats(&t);
    trace_free(&t);
    return EXIT_OK;
}

/* -o FILE of a capture, checked before anything is traced: its directory exists (the file is
 * written there atomically, nothing is made) and may be written (steps.h run_out_writable),
 * and FILE is not a directory. 0, or -1 with one line. */
static int out_file_check(const char *file, char *err, size_t errlen)
{
    char what[PATH_MAX + 16], dir[PATH_MAX];
    snprintf(what, sizeof(what), "-o %s", file);
    struct stat st;
    if (stat(file, &st) == 0 && S_ISDIR(st.st_mode))
        return errf(err, errlen, "%s: a directory (want the trace file's name)", what);
    str_copy(dir, sizeof(dir), file);
    char *slash = strrchr(dir, '/');
    if (!slash)
        str_copy(dir, sizeof(dir), ".");
    else
        slash[slash == dir] = '\0';   /* "/x" -> "/" */
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
        return errf(err, errlen, "%s: no directory %s", what, dir);
    return run_out_writable(dir, what, err, errlen);
}

int cmd_trace(int argc, char **argv)
{
    const char *out = NULL, *target = NULL;
    double scale = 1;
    unsigned seed = 1;
    uint64_t duration = 0;
    bool quiet = false;
    const struct cli_opt opts[] = {
        {"out", 'o', CLI_STR, &out, .arg = "FILE", .help = "the trace file to write"},
        {"scale", 0, CLI_DOUBLE, &scale, 1e-9, 1e6, .arg = "X", .help = "generate: I/Os x X"},
        {"seed", 0, CLI_UINT, &seed, 0, 4294967295.0, .arg = "N", .help = "generate: the draw"},
        {"target", 't', CLI_STR, &target, .arg = "DEV", .help = "capture: the device"},
        {"duration", 0, CLI_DURATION, &duration, 1, 0, .arg = "D",
         .help = "capture: how long, without COMMAND"},
        {"quiet", 'q', CLI_FLAG, &quiet, .help = "no progress lines"},
        {0},
    };
    /* COMMAND after "--" is capture's, not ours */
    int own = argc;
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--")) {
            own = i;
            break;
        }
    const char *pos[REPLAY_TRACE_ARGS];
    unsigned npos = 0;
    int prc = cli_parse("trace", opts, own, argv, pos, &npos, REPLAY_TRACE_ARGS, trace_usage);
    if (prc != CLI_GO)
        return prc == CLI_DONE ? EXIT_OK : EXIT_USAGE;
    if (!npos) {
        fprintf(stderr, "ptsbench trace: which? list, generate, stats or capture (ptsbench "
                "trace --help)\n");
        return EXIT_USAGE;
    }
    const char *sub = pos[0];
    if (own < argc && strcmp(sub, "capture")) {
        fprintf(stderr, "ptsbench trace %s: '--' and a command are for capture\n", sub);
        return EXIT_USAGE;
    }
    if (!strcmp(sub, "list"))
        return npos == 1 ? trace_list() : EXIT_USAGE;
    if (!strcmp(sub, "generate")) {
        if (npos != 2) {
            fprintf(stderr, "ptsbench trace generate: one definition NAME (ptsbench trace "
                    "list)\n");
            return EXIT_USAGE;
        }
        return trace_generate(pos[1], out, scale, seed, quiet);
    }
    if (!strcmp(sub, "stats"))
        return trace_stats_cmd(pos + 1, npos - 1);
    if (!strcmp(sub, "capture")) {
        if (npos != 1) {
            fprintf(stderr, "ptsbench trace capture: unexpected '%s' (a command goes after "
                    "--)\n", pos[1]);
            return EXIT_USAGE;
        }
        struct capture_config cc = {.device = target, .out = out, .duration_ns = duration,
                                    .argv = own < argc ? argv + own + 1 : NULL,
                                    .quiet = quiet};
        if (own < argc && own + 1 >= argc) {
            fprintf(stderr, "ptsbench trace capture: no command after --\n");
            return EXIT_USAGE;
        }
        char err[ERR_LEN];
        if (out && out_file_check(out, err, sizeof(err)) != 0) {
            fprintf(stderr, "ptsbench trace capture: %s\n", err);
            return EXIT_USAGE;
        }
        cli_install_signals();
        return capture_run(&cc, cli_stop_flag());
    }
    fprintf(stderr, "ptsbench trace: unknown '%s': list, generate, stats or capture\n", sub);
    return EXIT_USAGE;
}
