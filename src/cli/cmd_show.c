/* cmd_show.c — `ptsbench show RESULTS.json`: a results file as a table, for people (the table
 * itself is src/report/show.c). */
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli/cli.h"
#include "cli/options.h"
#include "lib/util.h"
#include "report/show.h"

static unsigned every;

static const struct cli_opt opts[] = {
    {"every", 0, CLI_UINT, &every, 1, 1000000, .arg = "N",   /* -e is --engine elsewhere */
     .help = "print every Nth round (and the last); default: all, or about 30\nlines for long runs"},
    {0},
};

static void show_usage(FILE *f)
{
    fputs("usage: ptsbench show [--every N] RESULTS.json|DIR   (a run or a profile matrix)\n"
          "\n"
          "Print a results file written by `ptsbench run` as a table: the target, the workload,\n"
          "one line per round (IOPS, MB/s, mean and 99.9% latency; write amplification for\n"
          "simulated drives) and the steady-state verdict; a run still marked running says\n"
          "whether its writer is alive or dead.\n"
          "\n",
          f);
    cli_print_options(f, opts);
    fputs("\n"
          "Exit status: 0 shown, 2 bad input (no such file, not JSON, not a run or profile\n"
          "results file; one line on stderr).\n",
          f);
}

int cmd_show(int argc, char **argv)
{
    const char *files[2];
    unsigned nf = 0;
    int rc = cli_parse("show", opts, argc, argv, files, &nf, 2, show_usage);
    if (rc != CLI_GO)
        return rc == CLI_DONE ? EXIT_OK : EXIT_USAGE;
    if (nf != 1) {
        fprintf(stderr, "ptsbench show: want one results file (see ptsbench show --help)\n");
        return EXIT_USAGE;
    }
    char err[ERR_LEN];
    char path[4200];
    struct json_object *doc;
    if (show_load(files[0], &doc, path, sizeof(path), err, sizeof(err)) != 0) {
        fprintf(stderr, "ptsbench show: %s\n", err);
        return EXIT_USAGE;
    }
    show_write(stdout, doc, every);
    json_object_put(doc);
    return EXIT_OK;
}
