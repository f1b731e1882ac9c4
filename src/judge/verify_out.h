/* verify_out.h — `ptsbench verify` below the command line: load a spec sheet and results,
 * judge every claim (verify.h), and write the outcome: the claim table on stdout and the JSON
 * document (schema ptsbench.verify, version 2) to a file or, "-", stdout instead of the table.
 * Which drive (verify.h, "The drive"): the table's "drive:" line, the document's "drive"
 * object (the sheet's drive, each results file's target with matches and reason, any_drive,
 * note) and per claim other_drive and verdict_note ("measured on another drive: ..."). */
#ifndef PTSBENCH_VERIFY_OUT_H
#define PTSBENCH_VERIFY_OUT_H

#include <stdbool.h>
#include <stddef.h>

struct verify_config {
    const char *spec;                 /* --spec as given (messages) */
    const char *spec_path;            /* the sheet's file */
    const char *const *results;       /* results.json files or directories searched for them */
    unsigned n_results;
    double tolerance;                 /* a fraction */
    bool allow_missing;               /* claims without a comparable measurement do not fail */
    bool allow_incomplete;            /* results of runs that did not complete are verified */
    bool any_drive;                   /* results of another drive than the sheet's are judged,
                                         every verdict marked (verify.h, "The drive") */
    const char *json_path;            /* NULL; "-": stdout, instead of the table */
};

struct verify_session;

/* Load the sheet and the results (no output). NULL with one line in err and *code the exit
 * status: 2 bad input (sheet, results, results of another drive than the sheet's without
 * any_drive: the line names both), 1 results of a run that did not complete. */
struct verify_session *verify_prepare(const struct verify_config *cfg, int *code, char *err,
                                      size_t errlen);
/* Judge every claim, print the table (unless json_path is "-"), write the JSON document.
 * Returns the exit status: 0 every claim passes, 1 not, 2 the JSON not written (err). */
int verify_execute(struct verify_session *s, char *err, size_t errlen);
void verify_session_free(struct verify_session *s);

#endif
