/* cmd_crosscheck.c — `ptsbench crosscheck`: the same workload on a native engine and on fio,
 * alternating, side by side with the ratio per metric.
 *
 * Each run is an ordinary `ptsbench run` of one round (its own results in OUT/ENGINE-N/, fio's
 * job file and JSON in OUT/fio-N/fio/), so anything that differs between the engines is in
 * the files. Runs alternate (native, fio, native, fio, ...) so that a drive's drift (its state,
 * temperature, background work) falls on both engines alike; the table shows each engine's
 * mean over its runs and fio / native. */
#include <getopt.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "core/results.h"
#include "core/run.h"
#include "lib/units.h"
#include "lib/util.h"

#define XC_MAX_REPEAT 20

enum xc_metric { XC_IOPS, XC_READ_IOPS, XC_WRITE_IOPS, XC_MB_S, XC_LAT_MEAN, XC_LAT_P99,
                 XC_LAT_P999, XC_READ_LAT_MEAN, XC_WRITE_LAT_MEAN, XC_N };

static const struct {
    const char *name;     /* JSON key */
    const char *label;    /* table */
    bool lower_better;
} xc_metrics[XC_N] = {
    {"iops", "IOPS", false},
    {"read_iops", "read IOPS", false},
    {"write_iops", "write IOPS", false},
    {"mb_s", "MB/s", false},
    {"lat_mean_us", "lat mean (us)", true},
    {"lat_p99_us", "lat p99 (us)", true},
    {"lat_p99_9_us", "lat p99.9 (us)", true},
    {"read_lat_mean_us", "read lat mean (us)", true},
    {"write_lat_mean_us", "write lat mean (us)", true},
};

static void xc_values(const struct round_metrics *m, double v[XC_N])
{
    v[XC_IOPS] = m->total.iops;
    v[XC_READ_IOPS] = m->read.iops;
    v[XC_WRITE_IOPS] = m->write.iops;
    v[XC_MB_S] = m->total.mb_s;
    v[XC_LAT_MEAN] = m->total.lat.mean_us;
    v[XC_LAT_P99] = m->total.lat.pct_us[2];
    v[XC_LAT_P999] = m->total.lat.pct_us[3];
    v[XC_READ_LAT_MEAN] = m->read.ios ? m->read.lat.mean_us : NAN;
    v[XC_WRITE_LAT_MEAN] = m->write.ios ? m->write.lat.mean_us : NAN;
}

static void usage(FILE *f)
{
    fputs(
        "usage: ptsbench crosscheck --target T --workload SPEC [options]\n"
        "\n"
        "Run the same workload on a native engine and on fio, alternating, and print both\n"
        "results side by side with fio / native per metric (IOPS, MB/s, mean and percentile\n"
        "latency). Every run is kept: OUT/ENGINE-N/results.json, fio's job files and JSON in\n"
        "OUT/fio-N/fio/; the summary in OUT/results.json.\n"
        "\n"
        "  -t, --target PATH       block device, or file (created with --size)\n"
        "      --size SIZE         create (or extend) a file target\n"
        "  -w, --workload SPEC     inline spec or profile, as for ptsbench run\n"
        "      --native NAME       the native engine: io_uring (default) or libaio\n"
        "      --fio NAME          fio (default, ioengine=io_uring) or fio-libaio\n"
        "      --round-time DUR    length of each run (default 10 s)\n"
        "      --repeat N          runs per engine, alternating (default 2)\n"
        "  -o, --out DIR           results directory (default results/crosscheck-YYYYmmdd-HHMMSS)\n"
        "      --force             replace results already in DIR\n"
        "      --destructive       allow writes to a block device, or over an existing file\n"
        "                          that holds data (its data is destroyed)\n"
        "      --overwrite-signatures  with --destructive: write even over a filesystem,\n"
        "                          partition table, LVM/RAID member or swap signature\n"
        "  -q, --quiet             only the table\n"
        "  -h, --help              this text\n"
        "\n"
        "Exit status: 0 done, 1 a run failed, 2 bad input (nothing written), 130 interrupted.\n",
        f);
}

int cmd_crosscheck(int argc, char **argv, int full_argc, char **full_argv)
{
    enum { O_SIZE = 256, O_NATIVE, O_FIO, O_ROUND_TIME, O_REPEAT, O_FORCE, O_DESTRUCTIVE,
           O_OVERWRITE_SIGS };
    static const struct option opts[] = {
        {"target", required_argument, NULL, 't'},
        {"size", required_argument, NULL, O_SIZE},
        {"workload", required_argument, NULL, 'w'},
        {"native", required_argument, NULL, O_NATIVE},
        {"fio", required_argument, NULL, O_FIO},
        {"round-time", required_argument, NULL, O_ROUND_TIME},
        {"repeat", required_argument, NULL, O_REPEAT},
        {"out", required_argument, NULL, 'o'},
        {"force", no_argument, NULL, O_FORCE},
        {"destructive", no_argument, NULL, O_DESTRUCTIVE},
        {"overwrite-signatures", no_argument, NULL, O_OVERWRITE_SIGS},
        {"quiet", no_argument, NULL, 'q'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    struct run_config base;
    run_config_init(&base);
    base.argc = full_argc;
    base.argv = full_argv;
    base.max_rounds = 1;
    base.round_time_ns = 10ull * 1000000000ull;
    base.quiet = true;
    const char *workload = NULL, *native = "io_uring", *fio = "fio", *out = NULL;
    bool quiet = false;
    unsigned repeat = 2;
    char err[ERR_LEN];
    uint64_t v;
    opterr = 0;
    optind = 1;
    int c;
    while ((c = getopt_long(argc, argv, ":t:w:o:qh", opts, NULL)) != -1) {
        err[0] = '\0';
        switch (c) {
        case 't': base.target_path = optarg; break;
        case 'w': workload = optarg; break;
        case O_SIZE:
            if (units_parse_size(optarg, &base.create_size, err, sizeof(err)) != 0)
                goto bad;
            break;
        case O_NATIVE:
            if (strcmp(optarg, "io_uring") && strcmp(optarg, "libaio")) {
                snprintf(err, sizeof(err), "want io_uring or libaio");
                goto bad;
            }
            native = optarg;
            break;
        case O_FIO:
            if (strcmp(optarg, "fio") && strcmp(optarg, "fio-libaio")) {
                snprintf(err, sizeof(err), "want fio or fio-libaio");
                goto bad;
            }
            fio = optarg;
            break;
        case O_ROUND_TIME:
            if (units_parse_duration(optarg, &base.round_time_ns, err, sizeof(err)) != 0)
                goto bad;
            if (base.round_time_ns < 1000000000ull) {
                snprintf(err, sizeof(err), "want at least 1 s");
                goto bad;
            }
            break;
        case O_REPEAT:
            if (units_parse_uint(optarg, 1, XC_MAX_REPEAT, &v, err, sizeof(err)) != 0)
                goto bad;
            repeat = (unsigned)v;
            break;
        case 'o': out = optarg; break;
        case O_FORCE: base.force = true; break;
        case O_DESTRUCTIVE: base.destructive = true; break;
        case O_OVERWRITE_SIGS: base.overwrite_signatures = true; break;
        case 'q': quiet = true; break;
        case 'h': usage(stdout); return EXIT_OK;
        case ':':
            fprintf(stderr, "ptsbench crosscheck: option '%s' needs a value\n", argv[optind - 1]);
            return EXIT_USAGE;
        default:
            fprintf(stderr, "ptsbench crosscheck: unknown option '%s' (see ptsbench crosscheck "
                            "--help)\n", argv[optind - 1]);
            return EXIT_USAGE;
        }
        continue;
    bad:
        fprintf(stderr, "ptsbench crosscheck: %s %s: %s\n", cli_option_name(opts, c), optarg, err);
        return EXIT_USAGE;
    }
    if (optind < argc) {
        fprintf(stderr, "ptsbench crosscheck: unexpected argument '%s'\n", argv[optind]);
        return EXIT_USAGE;
    }

    char dir[4096], results[4200];
    if (run_out_dir(out, "crosscheck", base.force, dir, sizeof(dir), results, sizeof(results),
                    err, sizeof(err)) != 0) {
        fprintf(stderr, "ptsbench crosscheck: %s\n", err);
        return EXIT_USAGE;
    }
    const char *engines[2] = {native, fio};
    /* Check both runs before anything is written (prepare writes nothing). */
    for (int e = 0; e < 2; e++) {
        struct run_config cfg = base;
        char sub[4300];
        snprintf(sub, sizeof(sub), "%s/%s-1", dir, engines[e]);
        cfg.engine_name = engines[e];
        cfg.out_dir = sub;
        struct run_record *rec = xcalloc(1, sizeof(*rec));
        int rc = run_prepare(rec, &cfg, workload, cli_data_dirs("profiles"), err, sizeof(err));
        run_record_free(rec);
        free(rec);
        if (rc != 0) {
            fprintf(stderr, "ptsbench crosscheck: %s\n", err);
            return EXIT_USAGE;
        }
    }

    double vals[2][XC_MAX_REPEAT][XC_N];
    char spec[512] = "";
    cli_install_signals();
    int code = EXIT_OK;
    struct json_object *runs = json_object_new_array();
    unsigned done = 0;
    for (unsigned r = 0; r < repeat && code == EXIT_OK; r++) {
        for (int e = 0; e < 2 && code == EXIT_OK; e++) {
            struct run_config cfg = base;
            char sub[4300];
            snprintf(sub, sizeof(sub), "%s/%s-%u", dir, engines[e], r + 1);
            cfg.engine_name = engines[e];
            cfg.out_dir = sub;
            cfg.create_size = r || e ? 0 : base.create_size;   /* created once */
            struct run_record *rec = xcalloc(1, sizeof(*rec));
            if (run_prepare(rec, &cfg, workload, cli_data_dirs("profiles"), err,
                            sizeof(err)) != 0) {
                fprintf(stderr, "ptsbench crosscheck: %s\n", err);
                code = EXIT_FAILURE_RUN;
            } else {
                if (!quiet) {
                    printf("run %u/%u on %s ...\n", r * 2 + e + 1, repeat * 2, engines[e]);
                    fflush(stdout);
                }
                code = run_execute(rec, cli_stop_flag());
                if (code == EXIT_OK && rec->n_rounds == 1) {
                    xc_values(&rec->rounds[0], vals[e][r]);
                    wl_format(&rec->wl, spec, sizeof(spec));
                    struct json_object *o = json_object_new_object();
                    json_object_object_add(o, "engine", json_object_new_string(engines[e]));
                    json_object_object_add(o, "engine_version",
                                           json_object_new_string(rec->engine->version()));
                    json_object_object_add(o, "repeat", json_object_new_int((int)r + 1));
                    json_object_object_add(o, "results", json_object_new_string(sub));
                    json_object_object_add(o, "round", results_round_json(&rec->rounds[0]));
                    json_object_array_add(runs, o);
                } else if (code == EXIT_OK) {
                    code = EXIT_FAILURE_RUN;
                }
            }
            run_record_free(rec);
            free(rec);
        }
        if (code == EXIT_OK)
            done = r + 1;
    }
    if (!done) {
        json_object_put(runs);
        return code;
    }

    struct json_object *doc = json_object_new_object();
    json_object_object_add(doc, "schema", json_object_new_string("ptsbench.crosscheck"));
    json_object_object_add(doc, "schema_version", json_object_new_int(1));
    json_object_object_add(doc, "ptsbench_version", json_object_new_string(PTSBENCH_VERSION));
    json_object_object_add(doc, "target", json_object_new_string(base.target_path));
    json_object_object_add(doc, "workload", json_object_new_string(spec));
    json_object_object_add(doc, "native", json_object_new_string(native));
    json_object_object_add(doc, "fio", json_object_new_string(fio));
    json_object_object_add(doc, "repeats", json_object_new_int((int)done));
    json_object_object_add(doc, "round_time_s",
                           json_object_new_double((double)base.round_time_ns / 1e9));
    struct json_object *summary = json_object_new_object();
    printf("\n%s on %s, %u run%s of %g s per engine, alternating\n", spec, base.target_path, done,
           done == 1 ? "" : "s", (double)base.round_time_ns / 1e9);
    printf("%-20s %14s %14s %9s\n", "metric", native, fio, "fio/native");
    for (int m = 0; m < XC_N; m++) {
        double mean[2] = {0, 0};
        for (int e = 0; e < 2; e++) {
            for (unsigned r = 0; r < done; r++)
                mean[e] += vals[e][r][m] / done;
        }
        if (!isfinite(mean[0]) && !isfinite(mean[1]))
            continue;
        if (mean[0] == 0 && mean[1] == 0)
            continue;   /* a direction the workload does not use */
        double ratio = mean[0] > 0 ? mean[1] / mean[0] : NAN;
        printf("%-20s %14.1f %14.1f %9.3f\n", xc_metrics[m].label, mean[0], mean[1], ratio);
        struct json_object *o = json_object_new_object();
        json_object_object_add(o, native, json_object_new_double(mean[0]));
        json_object_object_add(o, fio, json_object_new_double(mean[1]));
        if (isfinite(ratio))
            json_object_object_add(o, "ratio", json_object_new_double(ratio));
        json_object_object_add(o, "lower_is_better",
                               json_object_new_boolean(xc_metrics[m].lower_better));
        json_object_object_add(summary, xc_metrics[m].name, o);
    }
    json_object_object_add(doc, "summary", summary);
    json_object_object_add(doc, "runs", runs);
    if (results_write_json_atomic(doc, results, err, sizeof(err)) != 0) {
        fprintf(stderr, "ptsbench crosscheck: %s\n", err);
        code = EXIT_FAILURE_RUN;
    } else {
        printf("results: %s\n", results);
    }
    json_object_put(doc);
    return code;
}
