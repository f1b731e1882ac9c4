/* shape.h — the shape of a results document, checked before anything reads it.
 *
 * show, report, plot, measure (and through it gate and verify) read results files that anyone
 * may have edited, truncated or produced with another version. Every reader goes through the
 * typed getters of json_path.h, so a value of the wrong type is absent rather than a crash; this
 * check is what turns a malformed document into one clear error (exit 2) instead of a table of
 * dashes: every container a reader walks must be the container it expects (rounds an array of
 * objects, a round's total an object ...), every figure a finite number, and the numbers readers
 * turn into counts, indices, percentages or sizes within their range (a read share of 0..100, a
 * round number, a block size below 4 GiB, a capacity below 2^64).
 *
 * What is checked is what ptsbench writes (reports/results-schema.md): a value may be absent (old
 * files lack new fields) and a figure may be null (a figure not measured), but an element of an
 * array of objects is never null. Fields outside the rules are not looked at. */
#ifndef PTSBENCH_SHAPE_H
#define PTSBENCH_SHAPE_H

#include <stddef.h>

struct json_object;

/* Check doc by its schema (ptsbench.run, .suite, .profile; another schema passes: the callers
 * decide which they read). Returns 0, or -1 with one line "FILE: PATH: what is wrong" (file
 * names the document in the message). */
int shape_check(struct json_object *doc, const char *file, char *err, size_t errlen);

#endif
