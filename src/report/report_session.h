/* report_session.h — `ptsbench report` below the command line: every input loaded once, the
 * spec sheets loaded and matched to their drives, the report written (and printed as PDF).
 *
 * Each RESULTS is opened once through read/ (read/doc.h): a run, suite or profile document, or
 * a fleet's (one command on several targets), which stands for its targets' results, each
 * labelled as the fleet labelled it. The same handles, with their measured points computed
 * once, go to the report writer (report.h), the claims (judge/verify.h) and the history hook:
 * `report --spec` opens each results file exactly once. Checks come before anything is
 * written, in the order the command always gave them: the fleets, the number of sheets, each
 * sheet, each input, each sheet's drive. Failures are one line on stderr, "ptsbench report: ...". */
#ifndef PTSBENCH_REPORT_SESSION_H
#define PTSBENCH_REPORT_SESSION_H

#include <stdbool.h>
#include <stddef.h>

#include "report/report.h"

#define REPORT_MAX_INPUTS 16

/* report --db: charts from the results history for the loaded inputs (the command's: db/ is a
 * layer above). 0, or -1 with one line. */
typedef int (*report_history_fn)(const char *db, const char *out_dir,
                                 const struct report_input *in, unsigned n,
                                 struct plot_file **out, size_t *n_out, char *err,
                                 size_t errlen);
/* --spec NAME: the sheet's file (a file, or a name in the specs directory). 0, or -1. */
typedef int (*report_find_spec_fn)(const char *name, char *path, size_t len, char *err,
                                   size_t errlen);

struct report_args {
    const char *const *files;     /* RESULTS as given, n_files of them */
    unsigned n_files;
    const char *const *labels;    /* --label, in order, n_labels <= n_files */
    unsigned n_labels;
    const char *const *specs;     /* --spec: none, one for all, or one per input ("-": none) */
    unsigned n_specs;
    report_find_spec_fn find_spec;
    bool any_drive;               /* judge claims on another drive's results too */
    bool pdf;                     /* also OUT/report.pdf */
    const char *history_db;       /* --db, NULL none */
    report_history_fn history;
    struct report_config cfg;     /* out_dir, title, no_plots, css_path, tolerance, single_file */
};

struct report_session;

/* Load and check everything (nothing written). NULL with *code the exit status (2). */
struct report_session *report_session_open(const struct report_args *a, int *code);
/* Write the report (and its history charts, its PDF). Returns the exit status: 0 written, 1
 * failed (a chart, the history, the PDF). */
int report_session_write(struct report_session *s);
void report_session_close(struct report_session *s);

#endif
