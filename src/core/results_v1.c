/* results_v1.c — the version-1 reader: a schema_version 1 document rewritten in memory into the
 * version-2 shape (reports/results-schema.md, "Version 1"), so that every reader reads one shape.
 *
 * Version 1 wrote the same figures three ways: run rounds as read/write/total objects (the
 * version-2 figures object, but with zeros for the latencies of a direction without I/O), suite
 * elements and table rows flat (iops, read_iops, ..., write_bytes, lat_us {read, write, total}
 * with the percentiles as keys beside mean and max), and profile results flat (iops, ...,
 * lat_us {mean, read_mean, write_mean, max, percentiles}). Values are moved, never computed:
 * what version 1 did not record (a suite element's read bytes, a profile result's I/O counts)
 * stays absent, and a reader sees no figure rather than an invented one. Anything of an
 * unexpected type is moved as it is (the shape check then names it) or left alone. */
#include "core/results.h"

#include <json-c/json.h>
#include <math.h>
#include <string.h>

#include "core/metrics.h"
#include "lib/json_path.h"

static const char *const dirs[] = {"read", "write", "total"};

static bool is_obj(struct json_object *o)
{
    return o && json_object_is_type(o, json_type_object);
}

static bool is_pct_key(const char *k)
{
    for (int i = 0; i < METRICS_NPCT; i++)
        if (!strcmp(k, metrics_percentile_names[i] + 1))
            return true;
    return false;
}

/* dir.key = from[v1] (moved), when from has it. */
static void move_to(struct json_object *from, const char *v1, struct json_object *to,
                    const char *dir, const char *key)
{
    struct json_object *v, *d;
    if (!json_object_object_get_ex(from, v1, &v))
        return;
    if (!json_object_object_get_ex(to, dir, &d) || !is_obj(d))
        return;
    json_object_object_add(d, key, json_object_get(v));
    json_object_object_del(from, v1);
}

/* A suite direction's latency {count, mean, max, [max_round_mean], "50", ... "99.999"} as
 * {count, mean, max, [max_round_mean], percentiles {...}}; null when it counted no I/O. */
static struct json_object *suite_lat(struct json_object *l)
{
    if (!is_obj(l))
        return json_object_get(l);
    if (jp_num(l, "count") == 0)
        return NULL;
    struct json_object *o = json_object_new_object(), *p = json_object_new_object();
    json_object_object_foreach(l, k, v) {
        if (is_pct_key(k))
            json_object_object_add(p, k, json_object_get(v));
        else
            json_object_object_add(o, k, json_object_get(v));
    }
    json_object_object_add(o, "percentiles", p);
    return o;
}

/* A record that is to hold the figures object: read, write, total made (unless there). */
static bool figures_begin(struct json_object *o)
{
    if (!is_obj(o) || is_obj(jp_get(o, "total")))
        return false;   /* not an object, or already version 2 */
    for (int d = 0; d < 3; d++)
        json_object_object_add(o, dirs[d], json_object_new_object());
    return true;
}

/* iops, read_iops, ..., write_mb_s (suite elements, table rows, profile results). */
static void flat_figures(struct json_object *o)
{
    static const struct {
        const char *v1, *dir, *key;
    } map[] = {
        {"iops", "total", "iops"},           {"read_iops", "read", "iops"},
        {"write_iops", "write", "iops"},     {"mb_s", "total", "mb_s"},
        {"mib_s", "total", "mib_s"},         {"read_mb_s", "read", "mb_s"},
        {"write_mb_s", "write", "mb_s"},     {"write_bytes", "write", "bytes"},
    };
    for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
        move_to(o, map[i].v1, o, map[i].dir, map[i].key);
}

/* A suite element or table row. */
static void suite_element(struct json_object *e)
{
    if (!figures_begin(e))
        return;
    flat_figures(e);
    struct json_object *lat = jp_get(e, "lat_us");
    if (!is_obj(lat))
        return;   /* absent (nothing to move) or malformed (left for the shape check) */
    for (int d = 0; d < 3; d++) {
        struct json_object *l;
        if (json_object_object_get_ex(lat, dirs[d], &l))
            json_object_object_add(jp_get(e, dirs[d]), "lat_us", suite_lat(l));
    }
    json_object_object_del(e, "lat_us");
}

/* DIRTH's operating point: iops and histogram.lat_us (the total direction). */
static void dirth_point(struct json_object *op)
{
    if (!figures_begin(op))
        return;
    move_to(op, "iops", op, "total", "iops");
    struct json_object *h = jp_get(op, "histogram"), *l;
    if (is_obj(h) && json_object_object_get_ex(h, "lat_us", &l)) {
        json_object_object_add(jp_get(op, "total"), "lat_us", suite_lat(l));
        json_object_object_del(h, "lat_us");
    }
}

/* A profile point's result: lat_us {mean, read_mean, write_mean, max, percentiles}. */
static void profile_result(struct json_object *r)
{
    if (!figures_begin(r))
        return;
    flat_figures(r);
    struct json_object *lat = jp_get(r, "lat_us");
    if (!is_obj(lat))
        return;
    struct json_object *t = json_object_new_object(), *v;
    static const char *const total_keys[] = {"count", "min", "mean", "max", "percentiles"};
    for (size_t k = 0; k < sizeof(total_keys) / sizeof(total_keys[0]); k++)
        if (json_object_object_get_ex(lat, total_keys[k], &v))
            json_object_object_add(t, total_keys[k], json_object_get(v));
    json_object_object_add(jp_get(r, "total"), "lat_us", t);
    static const char *const dir_keys[] = {"read_mean", "write_mean"};
    for (int d = 0; d < 2; d++) {
        if (!json_object_object_get_ex(lat, dir_keys[d], &v))
            continue;
        struct json_object *l = NULL;
        if (v && !json_object_is_type(v, json_type_null)) {   /* null: no I/O that way */
            l = json_object_new_object();
            json_object_object_add(l, "mean", json_object_get(v));
        }
        json_object_object_add(jp_get(r, dirs[d]), "lat_us", l);
    }
    json_object_object_del(r, "lat_us");
}

/* A run-shaped round: a direction that counted no I/O wrote zeros as its latencies. */
static void run_round(struct json_object *r)
{
    for (int d = 0; is_obj(r) && d < 3; d++) {
        struct json_object *dj = jp_get(r, dirs[d]);
        struct json_object *l = is_obj(dj) ? jp_get(dj, "lat_us") : NULL;
        if (is_obj(l) && jp_num(l, "count") == 0)
            json_object_object_add(dj, "lat_us", NULL);
    }
}

static void each(struct json_object *arr, void (*fn)(struct json_object *))
{
    for (size_t i = 0; i < jp_len(arr); i++)
        fn(jp_idx(arr, i));
}

static void upgrade_suite(struct json_object *doc)
{
    struct json_object *tests = jp_arr(doc, "tests");
    for (size_t t = 0; t < jp_len(tests); t++) {
        struct json_object *subs = jp_arr(jp_idx(tests, t), "subtests");
        for (size_t s = 0; s < jp_len(subs); s++) {
            struct json_object *sub = jp_idx(subs, s);
            struct json_object *rounds = jp_arr(sub, "rounds");
            for (size_t r = 0; r < jp_len(rounds); r++)
                each(jp_arr(jp_idx(rounds, r), "elements"), suite_element);
            each(jp_arr_at(sub, "table.rows"), suite_element);
            static const char *const ops[] = {"max", "mid", "min"};
            for (int k = 0; k < 3; k++)
                dirth_point(jp_obj_at(jp_obj_at(sub, "operating_points"), ops[k]));
        }
    }
}

static void upgrade_profile(struct json_object *doc)
{
    struct json_object *points = jp_arr(doc, "points");
    for (size_t i = 0; i < jp_len(points); i++) {
        struct json_object *p = jp_idx(points, i);
        profile_result(jp_obj_at(p, "result"));
        each(jp_arr(p, "rounds"), run_round);
    }
    struct json_object *groups = jp_arr(doc, "groups");
    for (size_t g = 0; g < jp_len(groups); g++)
        run_round(jp_obj_at(jp_idx(groups, g), "wipc.round"));
}

int results_upgrade(struct json_object *doc)
{
    if (!is_obj(doc))
        return 0;
    double v = jp_num(doc, "schema_version");
    if (isfinite(v) && v >= 2)
        return 0;
    const char *schema = jp_str(doc, "schema");
    if (!schema)
        return 0;
    if (!strcmp(schema, RESULTS_SCHEMA))
        each(jp_arr(doc, "rounds"), run_round);
    else if (!strcmp(schema, "ptsbench.suite"))
        upgrade_suite(doc);
    else if (!strcmp(schema, "ptsbench.profile"))
        upgrade_profile(doc);
    else
        return 0;   /* crosscheck and others: their own shapes */
    json_object_object_add(doc, "schema_version", json_object_new_int(RESULTS_SCHEMA_VERSION));
    return 1;
}
