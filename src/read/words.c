/* words.c — internal names in words (words.h). */
#include "read/words.h"

#include <json-c/json.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/metrics.h"
#include "lib/json_path.h"
#include "lib/units.h"
#include "read/tracking.h"

const char *report_words_metric(const char *metric)
{
    const struct metric_def *d = metrics_def(metric);
    return d ? d->words : "the tracked value";
}

/* The block size: "4 KiB", "0.5 KiB", "element-size"; DIRTH's sweep point as its name had it
 * ("T32"). */
static void bs_words(const struct tracking *t, char *buf, size_t len)
{
    if (t->element)
        snprintf(buf, len, "element-size");
    else if (t->threads)
        snprintf(buf, len, "T%u", t->threads);
    else
        units_format_bs(t->bs, buf, len);
}

void report_words_track(const struct tracking *t, const char *access, char *buf, size_t len)
{
    if (!t->metric[0]) {
        snprintf(buf, len, "the tracked value");
        return;
    }
    if (!t->bs && !t->element && !t->threads) {   /* a run's: the metric alone */
        snprintf(buf, len, "%s", report_words_metric(t->metric));
        return;
    }
    const char *what = report_words_metric(t->metric);
    const char *metric = t->metric;
    bool dir = !strncmp(metric, "read_", 5) || !strncmp(metric, "write_", 6);
    if (!access || !*access)
        access = strstr(metric, "mb_s") || strstr(metric, "mib_s") ? "sequential" : "random";
    char b[32], m[48] = "";
    bs_words(t, b, sizeof(b));
    const int mix = t->threads ? -1 : t->read_pct;
    if (mix == 0 && !dir)
        snprintf(m, sizeof(m), " write");
    else if (mix == 100 && !dir)
        snprintf(m, sizeof(m), " read");
    else if (mix > 0 && mix < 100)
        snprintf(m, sizeof(m), " %d/%d read/write%s", mix, 100 - mix, dir ? "," : "");
    snprintf(buf, len, "%s %s%s %s", b, access, m, what);
}

void report_words_tracking_access(const char *name, const char *access, char *buf, size_t len)
{
    struct tracking t;
    tracking_parse(name, &t);
    report_words_track(&t, access, buf, len);
}

void report_words_tracking(const char *name, char *buf, size_t len)
{
    report_words_tracking_access(name, NULL, buf, len);
}

void report_words_tracking_of(struct json_object *rec, char *buf, size_t len)
{
    struct tracking t;
    tracking_of(rec, &t);
    report_words_track(&t, NULL, buf, len);
}

/* ---- a percentile the count does not support ---- */

/* The key's value in lat_us.percentiles: the number, JSON null (*null_ set), or absent. */
static double pct_at(struct json_object *lat_us, const char *key, bool *null_)
{
    struct json_object *pc = jp_obj_at(lat_us, "percentiles"), *v = NULL;
    *null_ = pc && json_object_object_get_ex(pc, key, &v) &&
             json_object_is_type(v, json_type_null);
    return jp_number(v);
}

uint64_t words_pct_lat_short_of(struct json_object *lat_us, const char *key)
{
    bool null_;
    pct_at(lat_us, key, &null_);
    const double n = jp_num(lat_us, "count");
    return null_ && n >= 1 ? (uint64_t)n : 0;
}

const char *words_pct_lat(struct json_object *lat_us, const char *key, enum units_style style,
                          char *buf, size_t len)
{
    bool null_;
    const double v = pct_at(lat_us, key, &null_);
    return units_format_pct(v, words_pct_lat_short_of(lat_us, key), style, buf, len);
}
