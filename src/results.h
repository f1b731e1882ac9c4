/* results.h — the results file (JSON, json-c), written atomically.
 *
 * Schema: reports/results-schema.md (schema "ptsbench.run", version RESULTS_SCHEMA_VERSION).
 * results_write() builds the whole document from the run record and replaces DIR/results.json
 * through a temporary file, fsync and rename, so the file is always complete valid JSON and an
 * interrupted run keeps every round that finished. Each round is one line in "rounds". */
#ifndef PTSBENCH_RESULTS_H
#define PTSBENCH_RESULTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "run.h"

#define RESULTS_SCHEMA "ptsbench.run"
#define RESULTS_SCHEMA_VERSION 1

struct json_object;

struct json_object *results_build(const struct run_record *rec);
/* Write JSON to path atomically (path.tmp, fsync, rename, fsync dir). */
int results_write_json_atomic(struct json_object *doc, const char *path, char *err, size_t errlen);
/* Write the concatenation of parts to path atomically (path.tmp, then rename); with sync, fsync
 * the file before and the directory after the rename. For any text output (reports, JUnit). */
int results_write_parts_atomic(const char *path, const char *const *parts, const size_t *lens,
                               unsigned n_parts, bool sync, char *err, size_t errlen);
int results_write(struct run_record *rec, char *err, size_t errlen);
void results_cache_free(struct results_cache *c);

/* Documents kept in memory and rewritten as a run goes (suite, profile): set "updated" and
 * write doc to path atomically, at most twice a second unless force (a simulated drive ends
 * rounds in milliseconds); *last_write_ns keeps the time of the last write. Errors are printed
 * with `who` ("ptsbench suite") and do not stop the run. */
void results_doc_flush(struct json_object *doc, const char *path, uint64_t *last_write_ns,
                       bool force, const char *who);
/* Append text to a JSON array of notes unless it is there already. */
void results_note_add(struct json_object *notes, const char *text);

/* Pieces reused by other result producers. */
struct json_object *results_host_json(const struct hostinfo *h);
struct json_object *results_target_json(const struct target_info *t);
struct json_object *results_round_json(const struct round_metrics *m);
struct json_object *results_workload_json(const struct workload *wl, const struct wl_range *range);
/* The drive's state (drive_state.h): condition, bytes and fills written since purge / start. */
struct json_object *results_state_json(const struct drive_state *s);
/* Add a window's verdict to a steady-state object (from results_steady_json): "reached" (SNIA
 * steady state claimed), "stable", "measured_state", "label", "reason", and the fill guard (when
 * gr and g are given). */
void results_verdict_json(struct json_object *steady, const struct ds_verdict *v,
                          const struct steady_guard_result *gr, const struct steady_guard *g);
/* The fill guard's result (steady.h) as an object: rule, limits, evaluated, passed, ... */
struct json_object *results_guard_json(const struct steady_guard_result *gr,
                                       const struct steady_guard *g);
struct json_object *results_steady_json(const struct steady_window *w, unsigned steady_round,
                                        const struct steady_criteria *c, const char *tracking,
                                        unsigned rounds_run);

#endif
