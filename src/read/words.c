/* words.c — internal names in words (words.h). */
#include "read/words.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/units.h"
#include "lib/util.h"

static const struct {
    const char *key, *words;
} metric_words[] = {
    {"iops", "IOPS"},
    {"read_iops", "read IOPS"},
    {"write_iops", "write IOPS"},
    {"mb_s", "MB/s"},
    {"read_mb_s", "read MB/s"},
    {"write_mb_s", "write MB/s"},
    {"mib_s", "MiB/s"},
    {"read_mib_s", "read MiB/s"},
    {"write_mib_s", "write MiB/s"},
    {"lat_mean_us", "mean latency"},
    {"read_lat_mean_us", "read mean latency"},
    {"write_lat_mean_us", "write mean latency"},
    {"lat_max_us", "maximum latency"},
    {"read_lat_max_us", "read maximum latency"},
    {"write_lat_max_us", "write maximum latency"},
    {"lat_p99_9_us", "99.9% latency"},
    {"lat_p99_99_us", "99.99% latency"},
};

const char *report_words_metric(const char *metric)
{
    for (size_t i = 0; metric && i < sizeof(metric_words) / sizeof(metric_words[0]); i++)
        if (!strcmp(metric_words[i].key, metric))
            return metric_words[i].words;
    return "the tracked value";
}

/* METRIC@BS/MIX: 0 with the parts, -1 when the name has no '@'. */
static int split(const char *name, char *metric, size_t mlen, char *bs, size_t blen, long *mix)
{
    const char *at = strchr(name, '@');
    if (!at)
        return -1;
    size_t n = (size_t)(at - name);
    if (n >= mlen)
        n = mlen - 1;
    memcpy(metric, name, n);
    metric[n] = '\0';
    const char *slash = strchr(at + 1, '/');
    size_t b = slash ? (size_t)(slash - at - 1) : strlen(at + 1);
    if (b >= blen)
        b = blen - 1;
    memcpy(bs, at + 1, b);
    bs[b] = '\0';
    char *end = NULL;
    *mix = slash ? strtol(slash + 1, &end, 10) : -1;
    if (!slash || end == slash + 1 || *mix < 0 || *mix > 100)
        *mix = -1;
    return 0;
}

/* "4KiB" → "4 KiB", "512B" → "0.5 KiB", "element" → "the element's block size". */
static void bs_words(const char *bs, char *buf, size_t len)
{
    if (!strcmp(bs, "element")) {
        snprintf(buf, len, "element-size");
        return;
    }
    char *end;
    double v = strtod(bs, &end);
    double mult = 0;
    if (end != bs && !strcmp(end, "KiB"))
        mult = 1024;
    else if (end != bs && !strcmp(end, "MiB"))
        mult = 1048576;
    else if (end != bs && (!strcmp(end, "B") || !*end))
        mult = 1;
    if (mult > 0)
        units_format_bs(v * mult, buf, len);
    else
        snprintf(buf, len, "%s", bs);
}

void report_words_tracking_access(const char *name, const char *access, char *buf, size_t len)
{
    if (!name || !*name) {
        snprintf(buf, len, "the tracked value");
        return;
    }
    char metric[64], bs[32];
    long mix;
    if (split(name, metric, sizeof(metric), bs, sizeof(bs), &mix) != 0) {
        snprintf(buf, len, "%s", report_words_metric(name));
        return;
    }
    const char *what = report_words_metric(metric);
    bool dir = !strncmp(metric, "read_", 5) || !strncmp(metric, "write_", 6);
    if (!access || !*access)
        access = strstr(metric, "mb_s") || strstr(metric, "mib_s") ? "sequential" : "random";
    char b[32], m[48] = "";
    bs_words(bs, b, sizeof(b));
    if (mix == 0 && !dir)
        snprintf(m, sizeof(m), " write");
    else if (mix == 100 && !dir)
        snprintf(m, sizeof(m), " read");
    else if (mix > 0 && mix < 100)
        snprintf(m, sizeof(m), " %ld/%ld read/write%s", mix, 100 - mix, dir ? "," : "");
    snprintf(buf, len, "%s %s%s %s", b, access, m, what);
}

void report_words_tracking(const char *name, char *buf, size_t len)
{
    report_words_tracking_access(name, NULL, buf, len);
}
