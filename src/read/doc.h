/* doc.h — a loaded results document: the handle every reader of one results file shares.
 *
 * results_doc_open reads a file (or a directory's results.json) once through the one loader
 * (load.h: parsed, upgraded, schema accepted, shape-checked) and returns a handle that carries
 * the document, the file it came from, its schema and kind, and its measured points
 * (measure.h), computed at the first results_doc_meas from that same document: a command that
 * reports, verifies and charts one file opens it once. Also what a document says about itself
 * for tables and legends (its device's label). */
#ifndef PTSBENCH_READ_DOC_H
#define PTSBENCH_READ_DOC_H

#include <stdbool.h>
#include <stddef.h>

#include "read/load.h"

struct json_object;
struct meas_set;

struct results_doc {
    struct json_object *json;   /* the document, upgraded and shape-checked */
    char path[4200];            /* the file read */
    const char *schema;         /* its schema ("" none), inside json */
    unsigned kind;              /* READ_RUN, READ_SUITE, ... (0: another schema) */
    /* the measured points, at the first results_doc_meas */
    struct meas_set *meas;
    bool meas_done;
    char meas_err[512];
};

/* Open ARG (a file, or a directory holding results.json) accepting the READ_* kinds in accept
 * (READ_ANY: every schema), failures worded as voice (load.h). Returns the handle, or NULL with
 * one line in err. */
struct results_doc *results_doc_open(const char *arg, unsigned accept, enum read_voice voice,
                                     char *err, size_t errlen);
void results_doc_close(struct results_doc *d);

/* Its measured points (measure.h, meas_doc), computed once; NULL with one line in err when it
 * has none (not a run, suite or profile; no completed round). */
const struct meas_set *results_doc_meas(struct results_doc *d, char *err, size_t errlen);

/* The device's name in tables and legends: label if given, else the simulated preset, else
 * the model, else the target's path, else "device". */
const char *results_doc_device_label(struct json_object *doc, const char *label);

/* The targets' results of a ptsbench.fleet document (one command on several targets) read from
 * path: the paths of its targets' results files that exist, with their labels, at most max (a
 * target that wrote nothing is left out; a path outside the fleet's directory is never taken).
 * Returns how many (0: doc is not a fleet's), or -1 with one line (more than max, or none of
 * its targets has results). */
typedef char read_fleet_path[4300];
typedef char read_fleet_name[96];
int read_fleet_members(struct json_object *doc, const char *path, read_fleet_path *paths,
                       read_fleet_name *labels, unsigned max, char *err, size_t errlen);

#endif
