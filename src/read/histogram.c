/* histogram.c — recorded latency histograms read back (histogram.h). */
#include "read/histogram.h"

#include <json-c/json.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/json_path.h"

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

size_t read_hist_exceedance(const struct read_hist *rh, struct read_exceed *pts, size_t cap)
{
    const struct hist *h = &rh->h;
    if (!h->count || !(rh->weight > 0) || !cap)
        return 0;
    const double to_us = 1.0 / (1000.0 * rh->weight), n = (double)h->count;
    uint64_t left = h->count;   /* I/Os in this bucket and above */
    size_t k = 0;
    for (unsigned i = 0; i < HIST_NBUCKETS && left && k + 1 < cap; i++) {
        if (!h->buckets[i])
            continue;
        uint64_t lo = hist_bucket_low(i);
        if (lo < h->min)
            lo = h->min;   /* the fastest I/O: the curve starts at 1 there */
        pts[k++] = (struct read_exceed){(double)lo * to_us, (double)left / n};
        left -= h->buckets[i];
    }
    pts[k++] = (struct read_exceed){(double)h->max * to_us, 1.0 / n};
    return k;
}
