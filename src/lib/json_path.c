/* json_path.c — see json_path.h. */
#include "lib/json_path.h"

#include "lib/util.h"

#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
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

struct json_object *jp_arr_at(struct json_object *o, const char *dotted)
{
    struct json_object *v = jp_at(o, dotted);
    return v && json_object_is_type(v, json_type_array) ? v : NULL;
}

struct json_object *jp_obj_at(struct json_object *o, const char *dotted)
{
    struct json_object *v = jp_at(o, dotted);
    return v && json_object_is_type(v, json_type_object) ? v : NULL;
}

size_t jp_len(struct json_object *arr)
{
    return arr && json_object_is_type(arr, json_type_array) ? json_object_array_length(arr) : 0;
}

struct json_object *jp_idx(struct json_object *arr, size_t i)
{
    struct json_object *v = i < jp_len(arr) ? json_object_array_get_idx(arr, i) : NULL;
    return v && !json_object_is_type(v, json_type_null) ? v : NULL;
}

double jp_number(struct json_object *v)
{
    if (v && (json_object_is_type(v, json_type_double) || json_object_is_type(v, json_type_int))) {
        double d = json_object_get_double(v);
        return isfinite(d) ? d : NAN;
    }
    return NAN;
}

const char *jp_string(struct json_object *v)
{
    return v && json_object_is_type(v, json_type_string) ? json_object_get_string(v) : NULL;
}

bool jp_true(struct json_object *v)
{
    return v && json_object_is_type(v, json_type_boolean) && json_object_get_boolean(v);
}

double jp_num(struct json_object *o, const char *key) { return jp_number(jp_get(o, key)); }

double jp_path(struct json_object *o, const char *dotted) { return jp_number(jp_at(o, dotted)); }

const char *jp_str(struct json_object *o, const char *dotted) { return jp_string(jp_at(o, dotted)); }

const char *jp_str_or(struct json_object *o, const char *dotted, const char *dflt)
{
    const char *v = jp_str(o, dotted);
    return v ? v : dflt;
}

/* ---- checking a document's shape ---- */

static const char *jp_type_word(struct json_object *v)
{
    switch (json_object_get_type(v)) {
    case json_type_null: return "null";
    case json_type_boolean: return "a boolean";
    case json_type_double:
    case json_type_int: return "a number";
    case json_type_object: return "an object";
    case json_type_array: return "an array";
    case json_type_string: return "a string";
    }
    return "a value";
}

static const char *const jp_want_word[] = {
    [JP_OBJECT] = "an object", [JP_ARRAY] = "an array", [JP_STRING] = "a string",
    [JP_NUMBER] = "a number", [JP_BOOLEAN] = "a boolean",
};

static int jp_check_value(struct json_object *v, const struct jp_rule *r, const char *where,
                          char *err, size_t errlen)
{
    if (!v || json_object_is_type(v, json_type_null))
        return r->nullable ? 0 : errf(err, errlen, "%s: null where %s belongs", where,
                                      jp_want_word[r->type]);
    bool ok;
    switch (r->type) {
    case JP_OBJECT: ok = json_object_is_type(v, json_type_object); break;
    case JP_ARRAY: ok = json_object_is_type(v, json_type_array); break;
    case JP_STRING: ok = json_object_is_type(v, json_type_string); break;
    case JP_BOOLEAN: ok = json_object_is_type(v, json_type_boolean); break;
    default:
        ok = json_object_is_type(v, json_type_double) || json_object_is_type(v, json_type_int);
        break;
    }
    if (!ok)
        return errf(err, errlen, "%s: %s where %s belongs", where, jp_type_word(v),
                    jp_want_word[r->type]);
    if (r->type != JP_NUMBER)
        return 0;
    double d = json_object_get_double(v);
    if (!isfinite(d))
        return errf(err, errlen, "%s: %g is not a finite number", where, d);
    if ((r->min != 0 || r->max != 0) && (d < r->min || d > r->max))
        return errf(err, errlen, "%s: %.17g is out of range (%.17g to %.17g)", where, d, r->min,
                    r->max);
    return 0;
}

/* The values at path (from part p on) under o; trail is the path so far, for messages. */
static int jp_check_at(struct json_object *o, const char *p, const struct jp_rule *r, char *trail,
                       size_t tlen, char *err, size_t errlen)
{
    const char *dot = strchr(p, '.');
    size_t n = dot ? (size_t)(dot - p) : strlen(p);
    size_t used = strlen(trail);
    char part[128];
    if (n >= sizeof(part))
        return 0;
    memcpy(part, p, n);
    part[n] = '\0';
    if (!strcmp(part, "*")) {
        if (json_object_is_type(o, json_type_array)) {
            for (size_t i = 0; i < json_object_array_length(o); i++) {
                snprintf(trail + used, tlen - used, "%s%zu", used ? "." : "", i);
                struct json_object *v = json_object_array_get_idx(o, i);
                int rc = dot ? (v ? jp_check_at(v, dot + 1, r, trail, tlen, err, errlen) : 0)
                             : jp_check_value(v, r, trail, err, errlen);
                if (rc)
                    return rc;
            }
        } else if (json_object_is_type(o, json_type_object)) {
            json_object_object_foreach(o, key, v) {
                snprintf(trail + used, tlen - used, "%s%s", used ? "." : "", key);
                int rc = dot ? (v ? jp_check_at(v, dot + 1, r, trail, tlen, err, errlen) : 0)
                             : jp_check_value(v, r, trail, err, errlen);
                if (rc)
                    return rc;
            }
        }
        trail[used] = '\0';
        return 0;
    }
    struct json_object *v = NULL;
    if (!json_object_is_type(o, json_type_object) || !json_object_object_get_ex(o, part, &v))
        return 0;   /* absent */
    snprintf(trail + used, tlen - used, "%s%s", used ? "." : "", part);
    int rc = dot ? (v ? jp_check_at(v, dot + 1, r, trail, tlen, err, errlen) : 0)
                 : jp_check_value(v, r, trail, err, errlen);
    trail[used] = '\0';
    return rc;
}

int jp_check(struct json_object *doc, const struct jp_rule *rules, size_t n, char *err,
             size_t errlen)
{
    for (size_t i = 0; i < n; i++) {
        char trail[512] = "";
        if (jp_check_at(doc, rules[i].path, &rules[i], trail, sizeof(trail), err, errlen))
            return -1;
    }
    return 0;
}

struct json_object *jw_num(double v)
{
    return isfinite(v) ? json_object_new_double(v) : NULL;
}

struct json_object *jw_int(long long v)
{
    return json_object_new_int64((int64_t)v);
}

struct json_object *jw_str(const char *s)
{
    return json_object_new_string(s ? s : "");
}

void jw_add(struct json_object *o, const char *key, struct json_object *v)
{
    json_object_object_add(o, key, v);
}
