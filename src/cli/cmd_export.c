/* cmd_export.c — `ptsbench export RESULTS --csv|--tsv|--json-lines`: a results document's figures
 * as one table for spreadsheets and scripts (the table itself is src/show/export.c; its
 * columns are docs/export.md). */
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/options.h"
#include "lib/file.h"
#include "lib/util.h"
#include "show/export.h"
#include "show/show.h"

static bool csv, tsv, jsonl, histogram;
static const char *out, *pct_list;

static const struct cli_opt opts[] = {
    {"csv", 0, CLI_FLAG, &csv, .help = "comma-separated values, quoted as RFC 4180 (the default)"},
    {"tsv", 0, CLI_FLAG, &tsv, .help = "tab-separated values"},
    {"json-lines", 0, CLI_FLAG, &jsonl, .help = "one JSON object per line"},
    {"out", 'o', CLI_STR, &out, .arg = "FILE",
     .help = "write to FILE (atomically; default or -: standard output)"},
    {"percentiles", 0, CLI_STR, &pct_list, .arg = "LIST",
     .help = "the latency percentiles to print, e.g. 50,95,99,99.9 (each one\nthe document "
             "records; default: all it records)"},
    {"histogram", 0, CLI_FLAG, &histogram,
     .help = "the latency histograms' buckets instead: every record's, per\ndirection"},
    {0},
};

static void export_usage(FILE *f)
{
    fputs("usage: ptsbench export [--csv|--tsv|--json-lines] [--out FILE|-] [--percentiles LIST]\n"
          "                       [--histogram] RESULTS.json|DIR\n"
          "\n"
          "Write a results file (run, suite, profile, crosscheck, replay or fleet) as one\n"
          "table: a row per run round, suite element, suite table row (record suite_table),\n"
          "DIRTH operating point, profile point result, crosscheck run, replay pass or fleet\n"
          "round, with the identifying columns (test, subtest, round, R/W mix, block size,\n"
          "workers, QD, compressibility), the drive's state (condition, fills), whether the\n"
          "target was simulated, and every figure: I/Os, bytes, IOPS, MB/s, MiB/s and latency\n"
          "count, min, mean, max and percentiles, for read, write and total. The columns are\n"
          "described in docs/export.md.\n"
          "\n",
          f);
    cli_print_options(f, opts);
    fputs("\n"
          "Exit status: 0 written, 1 the output could not be written, 2 bad input (no such\n"
          "file, not a results file, a percentile the file does not record; nothing written).\n",
          f);
}

int cmd_export(int argc, char **argv, int full_argc, char **full_argv)
{
    (void)full_argc;
    (void)full_argv;
    const char *files[2];
    unsigned nf = 0;
    int rc = cli_parse("export", opts, argc, argv, files, &nf, 2, export_usage);
    if (rc != CLI_GO)
        return rc == CLI_DONE ? EXIT_OK : EXIT_USAGE;
    if (nf != 1) {
        fprintf(stderr, "ptsbench export: want one results file (see ptsbench export --help)\n");
        return EXIT_USAGE;
    }
    if ((int)csv + (int)tsv + (int)jsonl > 1) {
        fprintf(stderr, "ptsbench export: %s: only one of --csv, --tsv and --json-lines\n",
                jsonl ? "--json-lines" : "--tsv");
        return EXIT_USAGE;
    }
    struct export_opts eo = {.format = tsv ? EXPORT_TSV : jsonl ? EXPORT_JSONL : EXPORT_CSV,
                             .histogram = histogram};
    char list[512];
    if (pct_list) {
        if (histogram) {
            fprintf(stderr, "ptsbench export: --percentiles %s: not with --histogram (buckets "
                    "have no percentiles)\n", pct_list);
            return EXIT_USAGE;
        }
        str_copy(list, sizeof(list), pct_list);
        for (char *save = NULL, *tok = strtok_r(list, ",", &save); tok;
             tok = strtok_r(NULL, ",", &save)) {
            tok = str_trim(tok);
            if (!*tok)
                continue;
            if (eo.n_pct == EXPORT_MAX_PCT) {
                fprintf(stderr, "ptsbench export: --percentiles %s: at most %d\n", pct_list,
                        EXPORT_MAX_PCT);
                return EXIT_USAGE;
            }
            eo.pct[eo.n_pct++] = tok;
        }
        if (!eo.n_pct) {
            fprintf(stderr, "ptsbench export: --percentiles %s: no percentile named\n", pct_list);
            return EXIT_USAGE;
        }
    }
    char err[ERR_LEN], path[4200];
    struct json_object *doc;
    if (show_load(files[0], &doc, path, sizeof(path), err, sizeof(err)) != 0) {
        fprintf(stderr, "ptsbench export: %s\n", err);
        return EXIT_USAGE;
    }
    char *text;
    size_t len;
    rc = export_table(doc, path, &eo, &text, &len, err, sizeof(err));
    json_object_put(doc);
    if (rc != 0) {
        fprintf(stderr, "ptsbench export: %s\n", err);
        return EXIT_USAGE;
    }
    rc = EXIT_OK;
    if (!out || !strcmp(out, "-")) {
        if (fwrite(text, 1, len, stdout) != len || fflush(stdout) != 0) {
            fprintf(stderr, "ptsbench export: standard output: write failed\n");
            rc = EXIT_FAILURE_RUN;
        }
    } else {
        const char *parts[] = {text};
        if (file_write_atomic(out, parts, &len, 1, false, err, sizeof(err)) != 0) {
            fprintf(stderr, "ptsbench export: %s\n", err);
            rc = EXIT_FAILURE_RUN;
        }
    }
    free(text);
    return rc;
}
