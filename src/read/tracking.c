/* tracking.c — tracking variables from results (tracking.h). */
#include "read/tracking.h"

#include "core/metrics.h"

#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/json_path.h"
#include "lib/units.h"
#include "lib/util.h"

static void tracking_clear(struct tracking *t)
{
    memset(t, 0, sizeof(*t));
    t->read_pct = -1;
}

/* "T32/Q32": DIRTH's sweep point. */
static int parse_sweep(const char *s, struct tracking *t)
{
    unsigned th, qd;
    int n = 0;
    if (sscanf(s, "T%u/Q%u%n", &th, &qd, &n) != 2 || s[n] || !th || !qd)
        return -1;
    t->threads = th;
    t->qd = qd;
    return 0;
}

/* "4KiB/0", "element/65", "1MiB" */
static int parse_bs_mix(const char *s, struct tracking *t)
{
    const char *slash = strchr(s, '/');
    char bs[32];
    size_t n = slash ? (size_t)(slash - s) : strlen(s);
    if (!n || n >= sizeof(bs))
        return -1;
    memcpy(bs, s, n);
    bs[n] = '\0';
    if (!strcmp(bs, "element")) {
        t->element = true;
    } else {
        uint64_t v;
        char why[128];
        if (units_parse_size(bs, &v, why, sizeof(why)) != 0 || !v || v > UINT32_MAX)
            return -1;
        t->bs = (uint32_t)v;
    }
    if (!slash)
        return 0;
    char *end;
    long mix = strtol(slash + 1, &end, 10);
    if (end == slash + 1 || *end || mix < 0 || mix > 100)
        return -1;
    t->read_pct = (int)mix;
    return 0;
}

int tracking_parse(const char *name, struct tracking *out)
{
    tracking_clear(out);
    if (!name || !*name)
        return -1;
    const char *at = strchr(name, '@');
    size_t n = at ? (size_t)(at - name) : strlen(name);
    if (n >= sizeof(out->metric))
        n = sizeof(out->metric) - 1;
    memcpy(out->metric, name, n);
    out->metric[n] = '\0';
    if (!at)
        return 0;
    if (parse_sweep(at + 1, out) == 0 || parse_bs_mix(at + 1, out) == 0)
        return 0;
    tracking_clear(out);
    str_copy(out->metric, sizeof(out->metric), name);
    return -1;
}

int tracking_read(struct json_object *track, const char *name, struct tracking *out)
{
    const char *metric = jp_str(track, "metric");
    if (!metric || !*metric)
        return tracking_parse(name, out);
    tracking_clear(out);
    str_copy(out->metric, sizeof(out->metric), metric);
    const double bs = jp_path(track, "bs"), mix = jp_path(track, "read_pct");
    const double th = jp_path(track, "threads"), qd = jp_path(track, "qd");
    if (bs > 0 && bs <= UINT32_MAX)
        out->bs = (uint32_t)bs;
    if (mix >= 0 && mix <= 100)
        out->read_pct = (int)mix;
    if (th >= 1 && qd >= 1 && th <= UINT32_MAX && qd <= UINT32_MAX) {
        out->threads = (unsigned)th;
        out->qd = (unsigned)qd;
    }
    return 0;
}

int tracking_of(struct json_object *rec, struct tracking *out)
{
    return tracking_read(jp_obj_at(rec, "track"), jp_str(rec, "tracking"), out);
}

int tracking_at(struct json_object *sub, size_t k, struct tracking *out)
{
    struct json_object *tracks = jp_arr(sub, "track"), *names = jp_arr(sub, "tracking");
    struct json_object *t = jp_idx(tracks, k);
    return tracking_read(t && json_object_is_type(t, json_type_object) ? t : NULL,
                         jp_string(jp_idx(names, k)), out);
}

enum units_figure tracking_figure_kind(struct json_object *rec)
{
    struct tracking t;
    return tracking_of(rec, &t) == 0 ? metrics_figure_kind(t.metric) : UNITS_FIG_VALUE;
}
