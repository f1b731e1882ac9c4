/* cmd_show.c — `ptsbench show RESULTS.json`: a results file as a table, for people (the table
 * itself is src/report/show.c). */
#include <getopt.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli/cli.h"
#include "lib/units.h"
#include "lib/util.h"
#include "report/show.h"

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
          "  -h, --help      this text\n"
          "\n"
          "Exit status: 0 shown, 2 bad input (no such file, not JSON, not a run or profile\n"
          "results file; one line on stderr).\n",
          f);
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
    struct json_object *doc;
    if (show_load(argv[optind], &doc, path, sizeof(path), err, sizeof(err)) != 0) {
        fprintf(stderr, "ptsbench show: %s\n", err);
        return EXIT_USAGE;
    }
    show_write(stdout, doc, every);
    json_object_put(doc);
    return EXIT_OK;
}
