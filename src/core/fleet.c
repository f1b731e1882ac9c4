/* fleet.c — the copy's side of a command on several targets, and their aggregate (fleet.h). */
#include "core/fleet.h"

#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/lat_hist.h"
#include "core/results.h"
#include "lib/json_path.h"
#include "lib/util.h"

/* The channel: -2 not looked at yet, -1 none. */
static int channel = -2;

static int fleet_channel(void)
{
    if (channel == -2) {
        const char *v = getenv(FLEET_ENV_FD);
        char *end = NULL;
        long fd = v && *v ? strtol(v, &end, 10) : -1;
        channel = fd >= 0 && end && !*end ? (int)fd : -1;
    }
    return channel;
}

void fleet_barrier(volatile sig_atomic_t *stop)
{
    const int fd = fleet_channel();
    if (fd < 0 || (stop && *stop))
        return;
    static const char ready[] = "ready\n";
    ssize_t w;
    do
        w = write(fd, ready, sizeof(ready) - 1);
    while (w < 0 && errno == EINTR && !(stop && *stop));
    if (w != (ssize_t)sizeof(ready) - 1) {
        channel = -1;   /* the parent is gone: run on alone */
        return;
    }
    /* "go\n"; a signal (SIGINT/SIGTERM set *stop, no SA_RESTART) ends the wait */
    char c = 0;
    for (;;) {
        ssize_t r = read(fd, &c, 1);
        if (r == 1 && c == '\n')
            return;
        if (r == 1)
            continue;
        if (r < 0 && errno == EINTR && !(stop && *stop))
            continue;
        if (r <= 0 && !(r < 0 && errno == EINTR))
            channel = -1;
        return;
    }
}

bool fleet_check_only(void)
{
    const char *v = getenv(FLEET_ENV_CHECK);
    return v && !strcmp(v, "1");
}

/* ---- the aggregate --------------------------------------------------------------------- */

static struct json_object *dir_sum(struct json_object *const *items, unsigned n,
                                   const char *dir, double window_s, const struct lat_summary *lat)
{
    double ios = 0, bytes = 0, rate = 0, mb = 0;
    for (unsigned t = 0; t < n; t++) {
        struct json_object *d = jp_obj_at(items[t], dir);
        ios += jp_num(d, "ios");
        bytes += jp_num(d, "bytes");
        rate += jp_num(d, "iops");
        mb += jp_num(d, "mb_s");
    }
    struct json_object *o = json_object_new_object();
    json_object_object_add(o, "ios", jw_num(ios));
    json_object_object_add(o, "bytes", jw_num(bytes));
    json_object_object_add(o, "iops", jw_num(window_s > 0 ? ios / window_s : NAN));
    json_object_object_add(o, "mb_s", jw_num(window_s > 0 ? bytes / window_s / 1e6 : NAN));
    json_object_object_add(o, "sum_of_iops", jw_num(rate));
    json_object_object_add(o, "sum_of_mb_s", jw_num(mb));
    json_object_object_add(o, "lat_us", results_lat_json(lat));
    return o;
}

struct json_object *fleet_aggregate(struct json_object *const *docs, const char *const *labels,
                                    unsigned n, const char *schema)
{
    const char *key = !strcmp(schema, "ptsbench.run")      ? "rounds"
                      : !strcmp(schema, "ptsbench.replay") ? "passes"
                                                           : NULL;
    if (!key || n == 0)
        return NULL;
    size_t common = SIZE_MAX;
    for (unsigned t = 0; t < n; t++) {
        struct json_object *a = docs[t] ? jp_arr(docs[t], key) : NULL;
        const size_t len = a ? json_object_array_length(a) : 0;
        if (len < common)
            common = len;
    }
    /* a run of several groups (io/jobset.h): rounds are added only while every target is in
     * the same group (targets that stop a group at different rounds part there) */
    for (size_t i = 0; common != SIZE_MAX && i < common; i++) {
        const double g0 = jp_num(jp_idx(jp_arr(docs[0], key), i), "group");
        for (unsigned t = 1; t < n && i < common; t++) {
            const double g = jp_num(jp_idx(jp_arr(docs[t], key), i), "group");
            if (!(g == g0 || (isnan(g) && isnan(g0))))
                common = i;
        }
    }
    if (common == 0 || common == SIZE_MAX)
        return NULL;
    struct json_object *out = json_object_new_object(), *rows = json_object_new_array();
    json_object_object_add(out, "unit", jw_str(!strcmp(key, "rounds") ? "round" : "pass"));
    json_object_object_add(out, "basis",
                           jw_str("every target's I/Os and bytes over the longest of their "
                                  "elapsed times (the window they shared); sum_of_* adds their "
                                  "own rates; latencies are every target's I/Os merged"));
    struct json_object **items = xcalloc(n, sizeof(*items));
    struct lat_window *w = xcalloc(1, sizeof(*w));
    for (size_t i = 0; i < common; i++) {
        double window = 0;
        for (unsigned t = 0; t < n; t++) {
            items[t] = jp_idx(jp_arr(docs[t], key), i);
            const double e = jp_num(items[t], "elapsed_s");
            if (e > window)
                window = e;
        }
        struct json_object *row = json_object_new_object();
        const double num = jp_num(items[0], !strcmp(key, "rounds") ? "round" : "pass");
        json_object_object_add(row, !strcmp(key, "rounds") ? "round" : "pass",
                               jw_int(isnan(num) ? (long long)i + 1 : (long long)num));
        const double group = jp_num(items[0], "group");
        if (!isnan(group))   /* several jobs: the group every target was running */
            json_object_object_add(row, "group", jw_int((long long)group));
        json_object_object_add(row, "window_s", jw_num(window));
        /* every target's I/Os of the round: latencies from their merged histograms */
        lat_window_compute(items, n, w);
        json_object_object_add(row, "read", dir_sum(items, n, "read", window, &w->lat[LAT_READ]));
        json_object_object_add(row, "write",
                               dir_sum(items, n, "write", window, &w->lat[LAT_WRITE]));
        json_object_object_add(row, "total",
                               dir_sum(items, n, "total", window, &w->lat[LAT_TOTAL]));
        struct json_object *lh = lat_window_hist_json(w);
        if (lh)
            json_object_object_add(row, "lat_hist", lh);
        struct json_object *per = json_object_new_array();
        for (unsigned t = 0; t < n; t++) {
            struct json_object *p = json_object_new_object();
            json_object_object_add(p, "label", jw_str(labels[t]));
            json_object_object_add(p, "iops", jw_num(jp_path(items[t], "total.iops")));
            json_object_object_add(p, "mb_s", jw_num(jp_path(items[t], "total.mb_s")));
            json_object_object_add(p, "elapsed_s", jw_num(jp_num(items[t], "elapsed_s")));
            /* the drive's state in this round ("fob", "wipc", "wdpc"), with the document's
             * simulated flag: what each figure was measured on */
            const char *cond = jp_str(items[t], "state.condition");
            if (cond)
                json_object_object_add(p, "condition", jw_str(cond));
            json_object_object_add(p, "simulated",
                                   json_object_new_boolean(jp_at(docs[t], "target.simulated") != NULL));
            json_object_array_add(per, p);
        }
        json_object_object_add(row, "targets", per);
        json_object_array_add(rows, row);
    }
    free(items);
    free(w);
    json_object_object_add(out, key, rows);
    return out;
}
