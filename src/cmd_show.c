/* cmd_show.c — `ptsbench show RESULTS.json`: a results file as a table, for people. */
#include <getopt.h>
#include <json-c/json.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "json_path.h"
#include "units.h"
#include "util.h"

static void show_usage(FILE *f)
{
    fputs("usage: ptsbench show [--every N] RESULTS.json|DIR   (a run or a profile matrix)\n"
          "\n"
          "Print a results file written by `ptsbench run` as a table: the target, the workload,\n"
          "one line per round (IOPS, MB/s, mean and 99.9% latency; write amplification for\n"
          "simulated drives) and the steady-state verdict.\n"
          "\n"
          "  -e, --every N   print every Nth round (and the last); default: all, or about 30\n"
          "                  lines for long runs\n"
          "  -h, --help      this text\n",
          f);
}

static const char *str(struct json_object *o, const char *path)
{
    const char *v = jp_str(o, path);
    return v ? v : "";
}

static void lat(double us, char *buf, size_t len)
{
    if (isnan(us))
        snprintf(buf, len, "-");
    else if (us >= 1000)
        snprintf(buf, len, "%.2f ms", us / 1000);
    else
        snprintf(buf, len, "%.1f us", us);
}

/* A profile matrix: one line per point, then the saturation points. */
static int show_profile(struct json_object *doc)
{
    char cap[64];
    units_format_capacity((uint64_t)jp_path(doc, "target.capacity_bytes"), cap, sizeof(cap));
    printf("%s  (%s, %s); status %s\n\n", str(doc, "target.path"), str(doc, "target.kind"), cap,
           str(doc, "status"));
    const bool sim = jp_at(doc, "target.simulated") != NULL;
    printf("%-16s %-16s %5s %7s %4s %6s %10s %9s %10s %10s  %s\n", "profile", "workload", "data",
           "workers", "QD", "effQD", sim ? "IOPS (sim)" : "IOPS", "MB/s", "lat mean", "lat p99",
           "measured");
    struct json_object *pts = jp_at(doc, "points");
    size_t n = pts ? json_object_array_length(pts) : 0;
    for (size_t i = 0; i < n; i++) {
        struct json_object *p = json_object_array_get_idx(pts, i);
        if (!jp_at(p, "result"))
            continue;
        char m[32], p99[32], how[160];
        double r0 = jp_path(p, "result.rounds.0"), r1 = jp_path(p, "result.rounds.1");
        lat(jp_path(p, "result.lat_us.mean"), m, sizeof(m));
        lat(jp_path(p, "result.lat_us.percentiles.99"), p99, sizeof(p99));
        const char *label = str(p, "result.label");
        if (*label)   /* what the window may be called (drive_state.h) */
            snprintf(how, sizeof(how), "%s r%.0f-%.0f", label, r0, r1);
        else if (!strcmp(str(p, "measure"), "steady"))
            snprintf(how, sizeof(how), "%s r%.0f-%.0f",
                     json_object_get_boolean(jp_at(p, "result.steady")) ? "steady" : "NOT steady",
                     r0, r1);
        else
            snprintf(how, sizeof(how), "%s, %.0f round(s)", str(p, "precondition"), r1);
        printf("%-16s %-16s %4.0f%% %7.0f %4.0f %6.0f %10.0f %9.1f %10s %10s  %s\n",
               str(p, "profile"), str(p, "workload"), jp_path(p, "compress_pct"), jp_path(p, "workers"),
               jp_path(p, "qd"), jp_path(p, "effective_qd"), jp_path(p, "result.iops"), jp_path(p, "result.mb_s"),
               m, p99, how);
    }
    struct json_object *sat = jp_at(doc, "saturation");
    size_t ns = sat ? json_object_array_length(sat) : 0;
    for (size_t i = 0; i < ns; i++) {
        struct json_object *s = json_object_array_get_idx(sat, i);
        char m[32];
        lat(jp_path(s, "lat_mean_us"), m, sizeof(m));
        printf("%ssaturation %s %.0f%% %.0f worker(s): effective QD %.0f, %.0f IOPS (max %.0f), "
               "lat mean %s\n", i ? "" : "\n", str(s, "workload"), jp_path(s, "compress_pct"),
               jp_path(s, "workers"), jp_path(s, "effective_qd"), jp_path(s, "iops"), jp_path(s, "max_iops"), m);
    }
    return EXIT_OK;
}

int cmd_show(int argc, char **argv)
{
    static const struct option opts[] = {
        {"every", required_argument, NULL, 'e'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    unsigned every = 0;
    char err[ERR_LEN];
    uint64_t v;
    opterr = 0;
    optind = 1;
    int c;
    while ((c = getopt_long(argc, argv, ":e:h", opts, NULL)) != -1) {
        switch (c) {
        case 'e':
            if (units_parse_uint(optarg, 1, 1000000, &v, err, sizeof(err)) != 0) {
                fprintf(stderr, "ptsbench show: --every %s: %s\n", optarg, err);
                return EXIT_USAGE;
            }
            every = (unsigned)v;
            break;
        case 'h': show_usage(stdout); return EXIT_OK;
        case ':':
            fprintf(stderr, "ptsbench show: option '%s' needs a value\n", argv[optind - 1]);
            return EXIT_USAGE;
        default:
            fprintf(stderr, "ptsbench show: unknown option '%s' (see ptsbench show --help)\n",
                    argv[optind - 1]);
            return EXIT_USAGE;
        }
    }
    if (optind != argc - 1) {
        fprintf(stderr, "ptsbench show: want one results file (see ptsbench show --help)\n");
        return EXIT_USAGE;
    }
    char path[4200];
    snprintf(path, sizeof(path), "%s", argv[optind]);
    size_t n = strlen(path);
    if (n > 5 && strcmp(path + n - 5, ".json") != 0)
        snprintf(path + n, sizeof(path) - n, "/results.json");
    struct json_object *doc = json_object_from_file(path);
    if (!doc) {
        fprintf(stderr, "ptsbench show: %s: cannot read it as JSON (%s)\n", path,
                json_util_get_last_err());
        return EXIT_USAGE;
    }
    if (!strcmp(str(doc, "schema"), "ptsbench.profile")) {
        int rc = show_profile(doc);
        json_object_put(doc);
        return rc;
    }
    if (strcmp(str(doc, "schema"), "ptsbench.run") != 0) {
        fprintf(stderr, "ptsbench show: %s: not a ptsbench run or profile results file\n", path);
        json_object_put(doc);
        return EXIT_USAGE;
    }
    char cap[64];
    units_format_capacity((uint64_t)jp_path(doc, "target.capacity_bytes"), cap, sizeof(cap));
    printf("%s  (%s, %s)\n", str(doc, "target.path"), str(doc, "target.kind"), cap);
    printf("workload  %s\n", str(doc, "workload.spec"));
    printf("engine    %s, %s; status %s\n", str(doc, "engine.name"), str(doc, "engine.clock"),
           str(doc, "status"));
    const bool sim = jp_at(doc, "target.simulated") != NULL;
    struct json_object *pc = jp_at(doc, "preconditioning");
    if (pc) {
        const char *mode = str(pc, "mode");
        printf("drive     %s%s", !strcmp(mode, "none") ? "not preconditioned" : mode,
               sim ? " (simulated drive)" : "");
        if (jp_at(pc, "wipc"))
            printf("; WIPC %.0fx the active range", jp_path(pc, "wipc.fills"));
        if (jp_at(pc, "wdpc"))
            printf("; WDPC %.2f fills in %.0f rounds (ended: %s)", jp_path(pc, "wdpc.fills"),
                   jp_path(pc, "wdpc.rounds"), str(pc, "wdpc.ended"));
        printf("\n");
    }
    struct json_object *rounds = jp_at(doc, "rounds");
    size_t nr = rounds ? json_object_array_length(rounds) : 0;
    if (!every)
        every = nr > 40 ? (unsigned)((nr + 29) / 30) : 1;
    bool dev = nr && jp_at(json_object_array_get_idx(rounds, 0), "device");
    bool state = nr && jp_at(json_object_array_get_idx(rounds, 0), "state");
    printf("\n%6s %10s %10s %10s %10s %11s %11s%s%s\n", "round", sim ? "IOPS (sim)" : "IOPS",
           "read", "write", "MB/s", "lat mean", "lat 99.9%", dev ? "     WA" : "",
           state ? "  state  fills: total   WDPC" : "");
    for (size_t i = 0; i < nr; i++) {
        if ((i + 1) % every && i + 1 != nr && i)
            continue;
        struct json_object *r = json_object_array_get_idx(rounds, i);
        char m[32], p[32];
        lat(jp_path(r, "total.lat_us.mean"), m, sizeof(m));
        lat(jp_path(r, "total.lat_us.percentiles.99.9"), p, sizeof(p));
        printf("%6.0f %10.0f %10.0f %10.0f %10.1f %11s %11s", jp_path(r, "round"),
               jp_path(r, "total.iops"), jp_path(r, "read.iops"), jp_path(r, "write.iops"),
               jp_path(r, "total.mb_s"), m, p);
        if (dev)
            printf(" %6.2f", jp_path(r, "device.write_amplification"));
        if (state)
            printf("  %-6s %6.2f %6.2f%s", str(r, "state.condition"),
                   jp_path(r, "state.written_fills"), jp_path(r, "state.wdpc_fills"),
                   !strcmp(str(r, "phase"), "wdpc") ? "  (WDPC round, not judged)" : "");
        printf("\n");
    }
    struct json_object *ss = jp_at(doc, "steady_state");
    const char *label = ss ? str(ss, "label") : "";
    if (ss && *label && json_object_get_boolean(jp_at(ss, "stable")))
        printf("\n%s (%s) at rounds %.0f-%.0f: average %.6g%s, range %.1f%%, slope excursion "
               "%.1f%%\n", label, str(ss, "tracking"), jp_path(ss, "window.first_round"),
               jp_path(ss, "window.last_round"), jp_path(ss, "window.average"),
               sim ? " (simulated drive)" : "",
               100 * jp_path(ss, "window.range") / jp_path(ss, "window.average"),
               100 * jp_path(ss, "window.slope_excursion") / jp_path(ss, "window.average"));
    else if (ss && *label)
        printf("\n%s (%s) in %zu rounds\n", label, str(ss, "tracking"), nr);
    else if (ss && json_object_get_boolean(jp_at(ss, "reached")))
        printf("\nsteady state (%s) at round %.0f: rounds %.0f-%.0f, average %.6g, range %.1f%%, "
               "slope excursion %.1f%%\n", str(ss, "tracking"), jp_path(ss, "round"),
               jp_path(ss, "window.first_round"), jp_path(ss, "window.last_round"),
               jp_path(ss, "window.average"),
               100 * jp_path(ss, "window.range") / jp_path(ss, "window.average"),
               100 * jp_path(ss, "window.slope_excursion") / jp_path(ss, "window.average"));
    else if (nr >= 5)
        printf("\nsteady state (%s) NOT reached in %zu rounds\n", str(ss, "tracking"), nr);
    if (ss && *label && !json_object_get_boolean(jp_at(ss, "reached")) && *str(ss, "reason"))
        printf("not SNIA steady state: %s\n", str(ss, "reason"));
    struct json_object *lw = jp_at(doc, "last_window");
    if (lw && jp_at(lw, "window"))
        printf("last rounds %.0f-%.0f: average %.6g%s; %s\n", jp_path(lw, "window.first_round"),
               jp_path(lw, "window.last_round"), jp_path(lw, "window.average"),
               sim ? " (simulated drive)" : "", str(lw, "label"));
    json_object_put(doc);
    return EXIT_OK;
}
