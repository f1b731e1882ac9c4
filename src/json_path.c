/* json_path.c — see json_path.h. */
#include "json_path.h"

#include <json-c/json.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

struct json_object *jp_get(struct json_object *o, const char *key)
{
    struct json_object *v = NULL;
    if (!o || !json_object_is_type(o, json_type_object) || !json_object_object_get_ex(o, key, &v) ||
        json_object_is_type(v, json_type_null))
        return NULL;
    return v;
}

struct json_object *jp_at(struct json_object *o, const char *dotted)
{
    char part[128];
    const char *p = dotted;
    while (o && *p) {
        if (json_object_is_type(o, json_type_object)) {
            struct json_object *whole = jp_get(o, p);   /* "99.9" and the like */
            if (whole)
                return whole;
        }
        const char *dot = strchr(p, '.');
        size_t n = dot ? (size_t)(dot - p) : strlen(p);
        if (n >= sizeof(part))
            return NULL;
        memcpy(part, p, n);
        part[n] = '\0';
        if (json_object_is_type(o, json_type_array)) {
            char *end;
            long i = strtol(part, &end, 10);
            o = *end || i < 0 ? NULL : jp_idx(o, (size_t)i);
            if (o && json_object_is_type(o, json_type_null))
                o = NULL;
        } else {
            o = jp_get(o, part);
        }
        if (!dot)
            return o;
        p = dot + 1;
    }
    return o;
}

struct json_object *jp_arr(struct json_object *o, const char *key)
{
    struct json_object *v = jp_get(o, key);
    return v && json_object_is_type(v, json_type_array) ? v : NULL;
}

size_t jp_len(struct json_object *arr)
{
    return arr && json_object_is_type(arr, json_type_array) ? json_object_array_length(arr) : 0;
}

struct json_object *jp_idx(struct json_object *arr, size_t i)
{
    return i < jp_len(arr) ? json_object_array_get_idx(arr, i) : NULL;
}

double jp_number(struct json_object *v)
{
    if (v && (json_object_is_type(v, json_type_double) || json_object_is_type(v, json_type_int)))
        return json_object_get_double(v);
    return NAN;
}

double jp_num(struct json_object *o, const char *key) { return jp_number(jp_get(o, key)); }

double jp_path(struct json_object *o, const char *dotted) { return jp_number(jp_at(o, dotted)); }

const char *jp_str(struct json_object *o, const char *dotted)
{
    struct json_object *v = jp_at(o, dotted);
    return v && json_object_is_type(v, json_type_string) ? json_object_get_string(v) : NULL;
}
