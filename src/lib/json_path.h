/* json_path.h — reading results documents (json-c) without ceremony.
 *
 * Everything tolerates anything: an absent key, a JSON null, a value of another type, an index
 * out of range or a NULL object give NULL (objects, strings), NAN (numbers) or 0 (lengths).
 * The typed getters (jp_arr_at, jp_obj_at, jp_str, jp_true, jp_number) give NULL / false / NAN
 * for a value of the wrong type, so that a reader never hands json-c a value of a type it
 * asserts on (json_object_array_length of an object aborts). Numbers are finite: json-c also
 * reads NaN and Infinity, which come out as NAN (absent), never as a value to cast.
 * Paths are dotted, a number indexes an array ("tests.0.subtests.0.table.rows"), and a key that
 * itself contains dots (the percentiles "99.9", "99.99") is found because the whole rest of the
 * path is tried as a key before it is split. Used by show, report, plot and measure. */
#ifndef PTSBENCH_JSON_PATH_H
#define PTSBENCH_JSON_PATH_H

#include <stdbool.h>
#include <stddef.h>

struct json_object;

struct json_object *jp_get(struct json_object *o, const char *key);    /* one key */
struct json_object *jp_at(struct json_object *o, const char *dotted);  /* a path */
struct json_object *jp_arr(struct json_object *o, const char *key);    /* array or NULL */
struct json_object *jp_arr_at(struct json_object *o, const char *dotted);  /* array or NULL */
struct json_object *jp_obj_at(struct json_object *o, const char *dotted);  /* object or NULL */
size_t jp_len(struct json_object *arr);                                /* 0 unless an array */
struct json_object *jp_idx(struct json_object *arr, size_t i);         /* NULL for JSON null */
double jp_number(struct json_object *v);                               /* the value itself */
const char *jp_string(struct json_object *v);                          /* the value itself */
bool jp_true(struct json_object *v);                                   /* a boolean true */
double jp_num(struct json_object *o, const char *key);
double jp_path(struct json_object *o, const char *dotted);
const char *jp_str(struct json_object *o, const char *dotted);
/* jp_str, or dflt when there is no string there ("" for a table cell, "-" for no figure). */
const char *jp_str_or(struct json_object *o, const char *dotted, const char *dflt);

/* ---- writing ----
 * Values for json_object_object_add: a number that is not finite becomes NULL (written as JSON
 * null: "no figure", never NaN), a NULL string becomes "". */
struct json_object *jw_num(double v);
struct json_object *jw_int(long long v);
struct json_object *jw_str(const char *s);
void jw_add(struct json_object *o, const char *key, struct json_object *v);   /* object_add */

/* ---- checking a document's shape ----
 *
 * A rule names a path (dotted; "*" stands for every element of an array, or every member of an
 * object) and the type its value must have. A value that is absent passes (old files lack new
 * fields); a JSON null passes only where the rule allows it (writers write null for a figure
 * they do not have, never for an object or an array). Numbers must be finite (json-c also reads
 * NaN and Infinity) and within [min, max] unless both are 0. */
enum jp_type { JP_OBJECT, JP_ARRAY, JP_STRING, JP_NUMBER, JP_BOOLEAN };

struct jp_rule {
    const char *path;
    enum jp_type type;
    bool nullable;
    double min, max;
};

/* Check doc against every rule. Returns 0, or -1 with one line naming the first value that
 * breaks a rule and why: "rounds.2.total: an array where an object belongs",
 * "workload.read_pct: 250 is out of range (0 to 100)". */
int jp_check(struct json_object *doc, const struct jp_rule *rules, size_t n, char *err,
             size_t errlen);

#endif
