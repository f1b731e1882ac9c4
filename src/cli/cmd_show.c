/* cmd_show.c — `ptsbench show RESULTS.json`: a results file as a table, for people (the table
 * itself is src/show/show.c and show_suite.c). */
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli/cli.h"
#include "cli/options.h"
#include "lib/util.h"
#include "show/show.h"

static unsigned every;

static const struct cli_opt opts[] = {
    {"every", 0, CLI_UINT, &every, 1, 1000000, .arg = "N",   /* -e is --engine elsewhere */
     .help = "print every Nth round (and the last); default: all, or about 30\nlines for long runs"},
    {0},
};

static void show_usage(FILE *f)
{
    fputs("usage: ptsbench show [--every N] RESULTS.json|DIR   (run, suite, profile, crosscheck)\n"
          "\n"
          "Print a results file as a table. A run: the target, the workload, one line per round\n"
          "(IOPS, MB/s, mean and 99.9% latency; write amplification for simulated drives) and\n"
          "the steady-state verdict; a run still marked running says whether its writer is\n"
          "alive or dead. A suite: per test its title, the drive's state and steady-state\n"
          "verdict, and its table (R/W mix, block size, IOPS, MB/s, latency mean and 99.9%) or\n"
          "the test's own headline (HIR wait states, XSR recovery, DIRTH operating points). A\n"
          "profile: one line per point. A crosscheck: native against fio, per metric and run.\n"
          "\n",
          f);
    cli_print_options(f, opts);
    fputs("\n"
          "Exit status: 0 shown, 2 bad input (no such file, not JSON, not a ptsbench results\n"
          "file; one line on stderr).\n",
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
