/* lat_target.c — fio's latency_target depth search (lat_target.h). */
#include "core/lat_target.h"

#include <json-c/json.h>
#include <stdio.h>
#include <string.h>

#include "lib/json_path.h"
#include "lib/units.h"

static void new_window(struct lat_search *s, uint64_t now)
{
    s->win_start = now;
    s->ios = 0;
    s->failed = 0;
}

void lat_search_init(struct lat_search *s, const struct wl_lat_target *lt, unsigned max_qd,
                     unsigned scale, uint64_t now)
{
    memset(s, 0, sizeof(*s));
    const uint64_t k = scale > 1 ? scale : 1;
    s->target = lt->target_ns * k;
    s->window = lt->window_ns;   /* the round's clock is not dilated, its latencies are */
    s->percentile = lt->percentile > 0 ? lt->percentile : 100.0;
    s->run = lt->run;
    s->max_qd = max_qd ? max_qd : 1;
    s->qd = 1;
    s->low = 1;
    s->high = s->max_qd;
    s->round_max_qd = 1;
    new_window(s, now);
}

void lat_search_round_begin(struct lat_search *s)
{
    s->round_max_qd = s->qd;
    s->windows = s->held = 0;
    s->any_window = false;
}

static void set_qd(struct lat_search *s, unsigned qd)
{
    s->qd = qd < 1 ? 1 : qd > s->max_qd ? s->max_qd : qd;
    if (s->qd > s->round_max_qd)
        s->round_max_qd = s->qd;
}

static void judged(struct lat_search *s, bool ok)
{
    s->windows++;
    s->held += ok;
    s->last_held = ok;
    s->any_window = true;
}

/* fio's __lat_target_failed: down towards the last good depth (depth 1: stays, not held). */
static void failed(struct lat_search *s, uint64_t now)
{
    judged(s, false);
    if (s->qd > 1) {
        s->high = s->qd;
        if (s->qd == s->low)
            s->low--;
        set_qd(s, (s->qd + s->low) / 2);
        s->stable = 0;
    }
    new_window(s, now);
}

/* fio's lat_target_success: up (doubling until a depth failed, then bisecting). */
static void succeeded(struct lat_search *s, uint64_t now)
{
    judged(s, true);
    const unsigned qd = s->qd;
    s->low = s->qd;
    if (s->qd + 1 == s->high && ++s->stable >= 3) {
        s->high++;
        s->stable = 0;
    }
    set_qd(s, s->high != s->max_qd ? (s->qd + s->high) / 2 : s->qd * 2);
    if (!s->run && s->qd == qd) {
        if (s->end_run)
            s->settled = true;   /* fio ends the job here; ptsbench keeps the depth */
        else
            s->end_run = true;
    }
    new_window(s, now);
}

void lat_search_complete(struct lat_search *s, uint64_t issue, uint64_t t)
{
    if (issue < s->win_start)
        return;   /* issued before the window (fio quiesces them away) */
    s->ios++;
    if (t - issue <= s->target)
        return;
    s->failed++;
    if (s->percentile >= 100.0 && !s->settled)
        failed(s, t);   /* one over the target fails the window at once */
}

void lat_search_check(struct lat_search *s, uint64_t now)
{
    if (now - s->win_start < s->window || !s->ios)
        return;
    const double ok = 100.0 * (double)(s->ios - s->failed) / (double)s->ios;
    if (s->settled) {   /* the depth stays; the windows are still judged, for the record */
        judged(s, ok >= s->percentile);
        new_window(s, now);
    } else if (ok >= s->percentile)
        succeeded(s, now);
    else
        failed(s, now);
}

void lat_round_add(struct lat_round *r, const struct lat_search *s, bool first)
{
    if (first) {
        memset(r, 0, sizeof(*r));
        r->present = true;
        r->depth_min = s->qd;
        r->last_held = r->settled = true;
    }
    r->depth += s->qd;
    r->depth_min = s->qd < r->depth_min ? s->qd : r->depth_min;
    r->depth_max = s->qd > r->depth_max ? s->qd : r->depth_max;
    r->max_depth += s->round_max_qd;
    r->windows += s->windows;
    r->held += s->held;
    r->last_held = r->last_held && s->any_window && s->last_held;
    r->settled = r->settled && s->settled;
}

void lat_round_text(const struct lat_round *r, char *buf, size_t len)
{
    const size_t l = strlen(buf);
    if (!r->present || l + 1 >= len)
        return;
    char qd[32];
    units_format_figure(r->depth, UNITS_FIG_COUNT, qd, sizeof(qd));
    snprintf(buf + l, len - l, "%slatency target: QD %s%s, %s", l ? "; " : "", qd,
             r->settled ? " (settled)" : "", !r->windows && !r->last_held ? "no window judged"
                                             : r->last_held ? "held" : "NOT held");
}

struct json_object *lat_round_json(const struct lat_round *r)
{
    struct json_object *o = json_object_new_object();
    jw_add(o, "depth", jw_int(r->depth));
    jw_add(o, "depth_min_worker", jw_int(r->depth_min));
    jw_add(o, "depth_max_worker", jw_int(r->depth_max));
    jw_add(o, "max_depth_allowed", jw_int(r->max_depth));
    jw_add(o, "windows", jw_int(r->windows));
    jw_add(o, "windows_held", jw_int(r->held));
    jw_add(o, "held", json_object_new_boolean(r->last_held));
    jw_add(o, "settled", json_object_new_boolean(r->settled));
    return o;
}
