/* export.h — `ptsbench export`: a results document's figures as one table for other tools
 * (CSV after RFC 4180, TSV, or JSON lines); the columns are documented in docs/export.md.
 *
 * One row per measurement record: run rounds, suite elements and suite table rows (marked by
 * the `record` column), DIRTH/CBW operating points, profile point results, crosscheck runs,
 * replay passes, a fleet's aggregate rounds.
 * Each row has the identifying columns (test, subtest, round, R/W mix, block size, workers,
 * QD, compressibility, ...), the drive's state (condition, fills), whether the target was
 * simulated, and every figure of the figures object for read, write (trim, when a record
 * issued trims) and total. With `histogram`, the table is instead one row per latency-histogram
 * bucket of every record that keeps one (its lat_hist per direction, core/lat_hist.h; a DIRTH/CBW
 * operating point's histogram; profile points' rounds too), "of" naming the record. Values are the document's own (numbers as written in the file);
 * an absent one is an empty field (JSON lines: null). Pure apart from the text it returns. */
#ifndef PTSBENCH_EXPORT_H
#define PTSBENCH_EXPORT_H

#include <stdbool.h>
#include <stddef.h>

struct json_object;

enum export_format { EXPORT_CSV, EXPORT_TSV, EXPORT_JSONL };

#define EXPORT_MAX_PCT 16

struct export_opts {
    enum export_format format;
    const char *pct[EXPORT_MAX_PCT];   /* percentiles asked for ("99.9"); none: all recorded */
    unsigned n_pct;
    bool histogram;
};

/* The table of doc (loaded and upgraded to version 2 by show_load) as text in *text (malloc'd,
 * *len bytes; the caller frees it). file names the document in messages. 0, or -1 with one
 * line: a percentile the document does not hold (named, with those it holds), a schema export
 * does not know, --histogram on a document without histograms. */
int export_table(struct json_object *doc, const char *file, const struct export_opts *o,
                 char **text, size_t *len, char *err, size_t errlen);

/* One CSV field after RFC 4180: quoted when it holds a comma, a double quote, CR or LF, an
 * inner double quote doubled. Writes at most len bytes (NUL included) and returns the length
 * the whole field needs (as snprintf). */
size_t export_csv_field(const char *in, char *out, size_t len);

#endif
