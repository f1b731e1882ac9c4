/* json_path.h — reading results documents (json-c) without ceremony.
 *
 * Everything tolerates anything: an absent key, a JSON null, a value of another type, an index
 * out of range or a NULL object give NULL (objects, strings), NAN (numbers) or 0 (lengths).
 * Paths are dotted, a number indexes an array ("tests.0.subtests.0.table.rows"), and a key that
 * itself contains dots (the percentiles "99.9", "99.99") is found because the whole rest of the
 * path is tried as a key before it is split. Used by show, report, plot and measure. */
#ifndef PTSBENCH_JSON_PATH_H
#define PTSBENCH_JSON_PATH_H

#include <stddef.h>

struct json_object;

struct json_object *jp_get(struct json_object *o, const char *key);    /* one key */
struct json_object *jp_at(struct json_object *o, const char *dotted);  /* a path */
struct json_object *jp_arr(struct json_object *o, const char *key);    /* array or NULL */
size_t jp_len(struct json_object *arr);
struct json_object *jp_idx(struct json_object *arr, size_t i);
double jp_number(struct json_object *v);                               /* the value itself */
double jp_num(struct json_object *o, const char *key);
double jp_path(struct json_object *o, const char *dotted);
const char *jp_str(struct json_object *o, const char *dotted);

#endif
