/* header_lines.h — the lines of a results document's header that every view of show (run,
 * profile, suite, replay) and the report's header share: where the workers ran, and whether
 * the target was memory. Below show.c, show_suite.c and show_replay.c, which call it. */
#ifndef PTSBENCH_HEADER_LINES_H
#define PTSBENCH_HEADER_LINES_H

#include <stdbool.h>
#include <stddef.h>

struct json_object;

/* The placement record (results "placement") as one line for people, into buf: "device node
 * 0; workers pinned to CPUs 0-7 (node 0); ran on 0,2-3,5" or "device node unknown; not pinned:
 * host has one NUMA node; ran on 0-1". false (buf "") when the document records none (results
 * from before placement was recorded). Shared by show and the report's header. */
bool show_placement_line(struct json_object *doc, char *buf, size_t len);

/* " -- on tmpfs: memory, not a drive" when the document's target was a file in memory
 * (target.memory, --allow-memory-target), else "": for the header line of every kind. */
void show_memory_label(struct json_object *doc, char *buf, size_t len);

#endif
