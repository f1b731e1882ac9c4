/* lat_hist.c — the latency histograms records keep: written, read back, and a window's
 * figures from them (lat_hist.h). */
#include "core/lat_hist.h"

#include <json-c/json.h>
#include <json-c/printbuf.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/json_path.h"
#include "lib/util.h"

/* ---- writing ---- */

/* An array of integers on one line, "[1, 2, 3]", whatever the document's flags (a histogram
 * pretty-printed one number a line would triple a suite's file). */
static int flat_int_array(struct json_object *a, struct printbuf *pb, int level, int flags)
{
    (void)level;
    (void)flags;
    printbuf_strappend(pb, "[");
    const size_t n = json_object_array_length(a);
    for (size_t i = 0; i < n; i++)
        sprintbuf(pb, i ? ", %lld" : "%lld",
                  (long long)json_object_get_int64(json_object_array_get_idx(a, i)));
    printbuf_strappend(pb, "]");
    return 0;
}

static struct json_object *hist_pairs_json(const struct hist *h)
{
    struct json_object *a = json_object_new_array();
    for (unsigned i = 0; h && i < HIST_NBUCKETS; i++) {
        if (!h->buckets[i])
            continue;
        json_object_array_add(a, jw_int(i));
        json_object_array_add(a, jw_int((int64_t)h->buckets[i]));
    }
    json_object_set_serializer(a, flat_int_array, NULL, NULL);
    return a;
}

struct json_object *lat_hist_json(const struct hist *const h[IO_NDIR], double weight)
{
    struct json_object *o = json_object_new_object();
    jw_add(o, "format", jw_str("[bucket, count, ...]"));
    jw_add(o, "buckets", jw_str("log-linear"));
    jw_add(o, "sub_bits", jw_int(HIST_SUB_BITS));
    jw_add(o, "weight", jw_num(weight));
    jw_add(o, "read", hist_pairs_json(h[IO_READ]));
    jw_add(o, "write", hist_pairs_json(h[IO_WRITE]));
    if (h[IO_TRIM])
        jw_add(o, "trim", hist_pairs_json(h[IO_TRIM]));
    return o;
}

/* ---- reading ---- */

void read_hist_init(struct read_hist *rh)
{
    memset(rh, 0, sizeof(*rh));
    hist_init(&rh->h);
}

/* One direction's pairs into h; -1 when an index or count is not one. */
static int pairs_add(struct hist *h, struct json_object *a)
{
    const size_t n = jp_len(a);
    if (n % 2)
        return -1;
    for (size_t i = 0; i < n; i += 2) {
        const double b = jp_number(jp_idx(a, i)), k = jp_number(jp_idx(a, i + 1));
        if (!(b >= 0 && b < HIST_NBUCKETS && b == floor(b)) || !(k >= 0 && k == floor(k)))
            return -1;
        h->buckets[(unsigned)b] += (uint64_t)k;
        h->count += (uint64_t)k;
    }
    return 0;
}

/* min and max of h: the direction's recorded lat_us (µs, scaled back by weight) where it lies
 * in the outer buckets, else their bounds. */
static void bounds_set(struct hist *h, struct json_object *lat, double weight)
{
    if (!h->count)
        return;
    unsigned lo = 0, hi = HIST_NBUCKETS - 1;
    while (!h->buckets[lo])
        lo++;
    while (!h->buckets[hi])
        hi--;
    h->min = hist_bucket_low(lo);
    h->max = hist_bucket_high(hi);
    const double mn = jp_num(lat, "min") * 1000.0 * weight, mx = jp_num(lat, "max") * 1000.0 * weight;
    if (mn >= 0 && mn < 9e18 && hist_index((uint64_t)llround(mn)) == lo)
        h->min = (uint64_t)llround(mn);
    if (mx >= 0 && mx < 9e18 && hist_index((uint64_t)llround(mx)) == hi)
        h->max = (uint64_t)llround(mx);
}

int read_hist_add(struct read_hist *rh, struct json_object *rec, unsigned dirs)
{
    struct json_object *lh = jp_obj_at(rec, "lat_hist");
    if (!lh)
        return 0;
    const char *scheme = jp_str(lh, "buckets");
    const double weight = jp_num(lh, "weight");
    if (!scheme || strcmp(scheme, "log-linear") != 0 || jp_num(lh, "sub_bits") != HIST_SUB_BITS ||
        !(weight > 0) || (rh->weight > 0 && weight != rh->weight))
        return -1;
    static const char *const names[] = {"read", "write", "trim"};   /* READ_HIST_* bits */
    struct hist *one = calloc(1, sizeof(*one));
    if (!one)
        return -1;
    int rc = 1;
    for (unsigned d = 0; d < 3 && rc == 1; d++) {
        struct json_object *trim = d == 2 ? jp_get(lh, "trim") : NULL;
        if (!(dirs & (1u << d)) || (d == 2 && !trim))
            continue;   /* no "trim": no trims issued, nothing to merge */
        hist_init(one);
        if (pairs_add(one, jp_arr(lh, names[d])) != 0 ||
            (trim && !json_object_is_type(trim, json_type_array))) {
            rc = -1;
            break;
        }
        bounds_set(one, jp_obj_at(jp_get(rec, names[d]), "lat_us"), weight);
        hist_merge(&rh->h, one);
    }
    free(one);
    if (rc == 1) {
        rh->weight = weight;
        rh->records++;
    }
    return rc;
}

uint64_t read_hist_count(const struct read_hist *rh) { return rh->h.count; }

double read_hist_percentile_us(const struct read_hist *rh, double p)
{
    if (!rh->h.count || !(rh->weight > 0))
        return NAN;
    return (double)hist_percentile(&rh->h, p) / 1000.0 / rh->weight;
}

/* ---- a window ---- */

const char *const lat_dir_names[LAT_NDIR] = {"read", "write", "trim", "total"};

/* The old figures of direction dir (no histograms): count, mean and percentiles weighted by
 * the records' counts, min and max their extremes. */
static void window_rounds(struct json_object *const *recs, size_t n, const char *dir,
                          struct lat_summary *out)
{
    double cnt = 0, mean = 0, pct[METRICS_NPCT] = {0}, pcnt[METRICS_NPCT] = {0};
    memset(out, 0, sizeof(*out));
    for (size_t i = 0; i < n; i++) {
        struct json_object *lat = jp_obj_at(jp_obj_at(recs[i], dir), "lat_us");
        const double c = jp_num(lat, "count");
        if (!lat || !(c > 0))
            continue;
        const double mn = jp_num(lat, "min"), mx = jp_num(lat, "max"), m = jp_num(lat, "mean");
        if (isfinite(mn) && (!cnt || mn < out->min_us))
            out->min_us = mn;
        if (isfinite(mx) && mx > out->max_us)
            out->max_us = mx;
        cnt += c;
        mean += isfinite(m) ? m * c : 0;
        for (int p = 0; p < METRICS_NPCT; p++) {
            char key[32];
            snprintf(key, sizeof(key), "percentiles.%s", metrics_percentile_names[p] + 1);
            const double v = jp_path(lat, key);
            if (isfinite(v)) {
                pct[p] += v * c;
                pcnt[p] += c;
            }
        }
    }
    out->count = (uint64_t)cnt;
    out->mean_us = cnt ? mean / cnt : NAN;
    for (int p = 0; p < METRICS_NPCT; p++)
        out->pct_us[p] = pcnt[p] ? pct[p] / pcnt[p] : NAN;
    out->from = LAT_FROM_ROUND_PERCENTILES;
}

/* The records' mean of direction dir weighted by their counts (exact: sum of count x mean). */
static double window_mean(struct json_object *const *recs, size_t n, const char *dir)
{
    double cnt = 0, sum = 0;
    for (size_t i = 0; i < n; i++) {
        struct json_object *lat = jp_obj_at(jp_obj_at(recs[i], dir), "lat_us");
        const double c = jp_num(lat, "count"), m = jp_num(lat, "mean");
        if (c > 0 && isfinite(m)) {
            cnt += c;
            sum += c * m;
        }
    }
    return cnt ? sum / cnt : NAN;
}

/* Merge every record's histograms into w->h and total; false when one that has latencies has
 * none or one that does not read (another scheme, another weight). */
static bool window_merge(struct json_object *const *recs, size_t n, struct lat_window *w,
                         struct read_hist *total)
{
    for (unsigned d = 0; d < LAT_TOTAL; d++)
        read_hist_init(&w->h[d]);
    read_hist_init(total);
    for (size_t i = 0; i < n; i++) {
        if (!recs[i])
            continue;
        if (jp_obj_at(recs[i], "trim"))
            w->trim = true;
        if (!jp_obj_at(recs[i], "lat_hist")) {
            if (jp_obj_at(jp_obj_at(recs[i], "total"), "lat_us"))
                return false;   /* latencies without their histogram: an older record */
            continue;
        }
        for (unsigned d = 0; d < LAT_TOTAL; d++)
            if (read_hist_add(&w->h[d], recs[i], 1u << d) < 0)
                return false;
        if (read_hist_add(total, recs[i], READ_HIST_TOTAL) < 0)
            return false;
    }
    return true;
}

void lat_window_compute(struct json_object *const *recs, size_t n, struct lat_window *w)
{
    memset(w, 0, sizeof(*w));
    struct read_hist *total = xcalloc(1, sizeof(*total));
    w->from = window_merge(recs, n, w, total) ? LAT_FROM_HISTOGRAMS : LAT_FROM_ROUND_PERCENTILES;
    for (unsigned d = 0; d < LAT_NDIR; d++) {
        struct lat_summary *l = &w->lat[d];
        if (w->from == LAT_FROM_ROUND_PERCENTILES) {
            window_rounds(recs, n, lat_dir_names[d], l);
            continue;
        }
        const struct read_hist *rh = d == LAT_TOTAL ? total : &w->h[d];
        /* the tail rule (stats/hist.h) is lat_summary_from_hist's, on the merged count */
        lat_summary_from_hist(&rh->h, rh->weight > 0 ? rh->weight : 1, l);
        l->from = LAT_FROM_HISTOGRAMS;
        if (l->count)   /* the records' sums are not kept: their means, count-weighted */
            l->mean_us = window_mean(recs, n, lat_dir_names[d]);
    }
    free(total);
}

struct json_object *lat_window_hist_json(const struct lat_window *w)
{
    if (w->from != LAT_FROM_HISTOGRAMS || !w->h[LAT_READ].records)
        return NULL;
    const struct hist *h[IO_NDIR] = {&w->h[LAT_READ].h, &w->h[LAT_WRITE].h,
                                     w->trim ? &w->h[LAT_TRIM].h : NULL};
    return lat_hist_json(h, w->h[LAT_READ].weight);
}
