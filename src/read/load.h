/* load.h — the one loader of results documents: a file, or a directory holding results.json,
 * read, upgraded and shape-checked once.
 *
 * Every reader of results (report, plot, show, export, measure and through it verify, gate,
 * db, calibration) reads a document through read_load: the path resolved (a directory: its
 * results.json), the JSON parsed, an old schema version upgraded to the current one
 * (core/results.h, results_upgrade), its schema checked against the kinds the caller accepts,
 * and its shape checked (shape.h: a malformed document is one error, not a crash). On failure
 * one line in err names the file and what is wrong; nothing is left to free.
 *
 * The wording of a failure follows the reader (enum read_voice): the commands' messages are
 * part of their interface (tests check them). */
#ifndef PTSBENCH_READ_LOAD_H
#define PTSBENCH_READ_LOAD_H

#include <stdbool.h>
#include <stddef.h>

struct json_object;

/* The kinds of document, by schema. */
#define READ_RUN        0x01u   /* ptsbench.run */
#define READ_SUITE      0x02u   /* ptsbench.suite */
#define READ_PROFILE    0x04u   /* ptsbench.profile */
#define READ_REPLAY     0x08u   /* ptsbench.replay */
#define READ_CROSSCHECK 0x10u   /* ptsbench.crosscheck */
#define READ_FLEET      0x20u   /* ptsbench.fleet: one command on several targets */
#define READ_RESULTS    (READ_RUN | READ_SUITE | READ_PROFILE)   /* measured results */
#define READ_ANY        0u      /* every schema: the caller decides */

/* How a failure is worded:
 *   PLAIN   "F: No such file or directory", "F: not a JSON document (why)",
 *           "F: schema 'S' is not a ptsbench run, suite or profile result"
 *   REPORT  "ARG: no such file or directory", "F: not a readable JSON results file"
 *   SHOW    "F: cannot read it as JSON (why)", "F: not a ptsbench results file (run, ...)" */
enum read_voice { READ_VOICE_PLAIN, READ_VOICE_REPORT, READ_VOICE_SHOW };

/* Load ARG (a file, or a directory holding results.json) into *doc (the caller
 * json_object_put()s it); path (may be NULL) receives the file read. accept: READ_* kinds, or
 * READ_ANY. Returns 0, or -1 with one line in err and *doc NULL. */
int read_load(const char *arg, unsigned accept, enum read_voice voice, struct json_object **doc,
              char *path, size_t pathlen, char *err, size_t errlen);

/* The READ_* kind of a schema name (NULL or unknown: 0). */
unsigned read_kind_of(const char *schema);

/* What a document says about itself: its schema ("" none); whether its target is a simulated
 * drive (a target.simulated object, target.kind "simulated", state.simulated or
 * compliance.simulated; plot and report ask it). */
const char *read_schema(struct json_object *doc);
bool read_simulated(struct json_object *doc);
/* Trims (fio's rw=trim, randtrim, trimwrite): a figures record holds a "trim" object beside
 * "read" and "write" only when it issued trims (reports/results-schema.md). read_has_trim: does
 * any record of doc (a run's rounds and their jobs, a profile's points' rounds and results, a
 * replay's passes and total) hold one? Readers show a trim column, row or series only then, so
 * that results without trims read as they always did. read_rec_has_trim: that record. */
bool read_has_trim(struct json_object *doc);
bool read_rec_has_trim(struct json_object *rec);

#endif
