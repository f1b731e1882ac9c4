/* show.h — `ptsbench show`'s text: a run, suite, profile or crosscheck results document as a
 * table, for people.
 *
 * show_load reads RESULTS (a file, or a directory holding results.json) through the one loader
 * (read/load.h) and accepts only the schemas show prints (ptsbench.run, .suite, .profile,
 * .crosscheck, .replay, .fleet). show_write prints whatever the document
 * holds: every field is read through json_path.h, so a value of the wrong type is absent ("-",
 * "" or "not recorded"), never a crash; a capacity that is absent says "capacity not recorded".
 * Nothing here exits or prints to stderr: errors come back as one line. */
#ifndef PTSBENCH_SHOW_H
#define PTSBENCH_SHOW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "show/header_lines.h"   /* show_placement_line, show_memory_label */

struct json_object;

/* Load arg into *doc (the caller json_object_put()s it); path receives the file read. Returns
 * 0, or -1 with one line naming the file: unreadable, not JSON (json-c's reason on the same
 * line), or not a ptsbench results file of one of those schemas. */
int show_load(const char *arg, struct json_object **doc, char *path, size_t len, char *err,
              size_t errlen);

/* The table: every round of a run (every Nth and the last with every > 0; 0: all, or about 30
 * lines for long runs), or every point of a profile matrix and its saturation points. */
void show_write(FILE *out, struct json_object *doc, unsigned every);

/* A suite: per test its title, per subtest the drive's state and the steady-state verdict, then
 * the table rows (mix, block size, IOPS, MB/s, latency mean and 99.9%) or the kind's own
 * headline (HIR's wait states, XSR's groups and recovery, DIRTH's operating points); the
 * simulated mark on the header and the IOPS column (show_suite.c). */
void show_suite(FILE *out, struct json_object *doc);
/* A crosscheck: the summary (native, fio, their ratio) and one line per run. */
void show_crosscheck(FILE *out, struct json_object *doc);
/* A replay (ptsbench.replay): the trace's own figures beside each pass's and the total. */
void show_replay(FILE *out, struct json_object *doc);
/* ptsbench.fleet (show_fleet.c): the targets, how each ended, the rounds' alignment and the
 * aggregate per round. */
void show_fleet(FILE *out, struct json_object *doc);

#endif
