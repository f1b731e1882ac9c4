/* pts_def.c — load PTS test definitions and spec versions (see pts_def.h). */
#include "pts/pts_def.h"

#include <dirent.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/metrics.h"
#include "lib/file.h"
#include "lib/ini.h"
#include "lib/units.h"
#include "lib/util.h"
#include "stats/steady.h"

#define PTS_SECTOR 512u                 /* every block size is a whole number of sectors */
#define PTS_MIN_TIME_NS 1000000000ull  /* durations in a definition: 1 s at least (the PTS's are
                                          seconds to hours; --round-time and --time-scale
                                          shorten them for quick checks) */

static int find_file(const char *base, const char *const *dirs, char *path, size_t len)
{
    for (unsigned i = 0; dirs && dirs[i]; i++) {
        snprintf(path, len, "%s/%s", dirs[i], base);
        if (file_exists(path))
            return 0;
    }
    return -1;
}

static int parse_bool(const char *v, bool *out)
{
    if (!strcmp(v, "yes") || !strcmp(v, "on") || !strcmp(v, "1") || !strcmp(v, "true"))
        *out = true;
    else if (!strcmp(v, "no") || !strcmp(v, "off") || !strcmp(v, "0") || !strcmp(v, "false"))
        *out = false;
    else
        return -1;
    return 0;
}

/* ---- spec versions ---- */

int pts_spec_load(const char *name, const char *const *dirs, struct pts_spec *out,
                  char *err, size_t errlen)
{
    char path[4096];
    if (find_file("specs.ini", dirs, path, sizeof(path)) != 0)
        return errf(err, errlen, "no pts/specs.ini found (is ptsbench installed?)");
    struct ini_file f;
    if (ini_parse_file(path, &f, err, errlen) != 0)
        return -1;
    const struct ini_section *s = ini_find_section(&f, name);
    if (!s) {
        char names[256] = "";
        for (size_t i = 0; i < f.n_sections; i++) {
            if (!strcmp(f.sections[i].name, "global"))
                continue;
            if (names[0])
                strncat(names, ", ", sizeof(names) - strlen(names) - 1);
            strncat(names, f.sections[i].name, sizeof(names) - strlen(names) - 1);
        }
        ini_free(&f);
        return errf(err, errlen, "--spec %s: unknown spec version (one of %s)", name, names);
    }
    memset(out, 0, sizeof(*out));
    str_copy(out->name, sizeof(out->name), name);
    int ret = 0;
    for (size_t i = 0; i < s->n_entries && ret == 0; i++) {
        const struct ini_entry *e = &s->entries[i];
        char why[256];
        uint64_t v;
        if (!strcmp(e->key, "title")) {
            str_copy(out->title, sizeof(out->title), e->value);
        } else if (!strcmp(e->key, "active_range")) {
            if (units_parse_percent(e->value, &out->active_range_pct, why, sizeof(why)) != 0 ||
                out->active_range_pct <= 0)
                ret = errf(err, errlen, "%s:%d: active_range=%s: want a percent above 0", path,
                           e->line, e->value);
        } else if (!strcmp(e->key, "write_cache")) {
            if (parse_bool(e->value, &out->write_cache) != 0)
                ret = errf(err, errlen, "%s:%d: write_cache=%s: want on or off", path, e->line,
                           e->value);
        } else if (!strcmp(e->key, "threads") || !strcmp(e->key, "qd")) {
            if (units_parse_uint(e->value, 1, 4096, &v, why, sizeof(why)) != 0)
                ret = errf(err, errlen, "%s:%d: %s=%s: %s", path, e->line, e->key, e->value, why);
            else if (!strcmp(e->key, "threads"))
                out->threads = (unsigned)v;
            else
                out->qd = (unsigned)v;
        } else {
            ret = errf(err, errlen, "%s:%d: unknown key '%s'", path, e->line, e->key);
        }
    }
    ini_free(&f);
    if (ret == 0 && (!out->threads || !out->qd || !out->active_range_pct))
        ret = errf(err, errlen, "%s: [%s] needs active_range, threads and qd", path, name);
    return ret;
}

/* ---- test definitions ---- */

static int parse_list_u(const char *v, unsigned *out, unsigned *n, unsigned max)
{
    char buf[512];
    str_copy(buf, sizeof(buf), v);
    *n = 0;
    char *save = NULL;
    for (char *t = strtok_r(buf, ", ", &save); t; t = strtok_r(NULL, ", ", &save)) {
        char *end;
        unsigned long x = strtoul(t, &end, 10);
        if (t == end || *end || x > 100 || *n >= max)
            return -1;
        for (unsigned k = 0; k < *n; k++)
            if (out[k] == x)
                return -1;
        out[(*n)++] = (unsigned)x;
    }
    return *n ? 0 : -1;
}

static int parse_list_bs(const char *v, uint32_t *out, unsigned *n, unsigned max, char *why,
                         size_t whylen)
{
    char buf[512];
    str_copy(buf, sizeof(buf), v);
    *n = 0;
    char *save = NULL;
    for (char *t = strtok_r(buf, ", ", &save); t; t = strtok_r(NULL, ", ", &save)) {
        uint64_t b;
        if (units_parse_size(t, &b, why, whylen) != 0)
            return -1;
        if (b == 0 || b > (1u << 30) || *n >= max)
            return errf(why, whylen, "block size %s out of range", t);
        if (b % PTS_SECTOR)
            return errf(why, whylen, "block size %s is not a multiple of %u bytes", t,
                        PTS_SECTOR);
        for (unsigned k = 0; k < *n; k++)
            if (out[k] == b)
                return errf(why, whylen, "block size %s is listed twice", t);
        out[(*n)++] = (uint32_t)b;
    }
    return *n ? 0 : errf(why, whylen, "empty list");
}

static bool metric_known(const char *m)
{
    for (size_t i = 0; metrics_tracking_names[i]; i++)
        if (!strcmp(metrics_tracking_names[i], m))
            return true;
    return false;
}

/* METRIC@BS/MIX[, METRIC@BS/MIX ...] */
static int parse_tracking(const char *v, struct pts_def *d, char *why, size_t whylen)
{
    char buf[512];
    str_copy(buf, sizeof(buf), v);
    d->n_track = 0;
    char *save = NULL;
    for (char *t = strtok_r(buf, ", ", &save); t; t = strtok_r(NULL, ", ", &save)) {
        if (d->n_track >= PTS_MAX_TRACK)
            return errf(why, whylen, "at most %d tracking variables", PTS_MAX_TRACK);
        struct pts_track *tr = &d->track[d->n_track];
        char *at = strchr(t, '@'), *slash = at ? strchr(at, '/') : NULL;
        if (!at || !slash)
            return errf(why, whylen, "'%s': want METRIC@BS/MIX, e.g. iops@4k/0", t);
        *at = *slash = '\0';
        if (!metric_known(t))
            return errf(why, whylen, "unknown metric '%s'", t);
        str_copy(tr->metric, sizeof(tr->metric), t);
        if (!strcmp(at + 1, "element")) {
            tr->bs = 0;
        } else {
            uint64_t b;
            if (units_parse_size(at + 1, &b, why, whylen) != 0)
                return -1;
            if (b == 0 || b > (1u << 30) || b % PTS_SECTOR)
                return errf(why, whylen, "'%s': block size %s, want a multiple of %u bytes or "
                            "element", at + 1, at + 1, PTS_SECTOR);
            tr->bs = (uint32_t)b;
        }
        char *end;
        unsigned long mix = strtoul(slash + 1, &end, 10);
        if (end == slash + 1 || *end || mix > 100)
            return errf(why, whylen, "bad read percentage '%s'", slash + 1);
        tr->mix = (unsigned)mix;
        d->n_track++;
    }
    return d->n_track ? 0 : errf(why, whylen, "no tracking variable");
}

/* A duration of at least min_ns (0 is never one: a 0 s element would measure nothing). */
static int parse_time(const char *v, uint64_t *out, uint64_t min_ns, char *why, size_t wl)
{
    uint64_t ns;
    if (units_parse_duration(v, &ns, why, wl) != 0)
        return -1;
    if (ns < min_ns || ns == 0)
        return errf(why, wl, "want a duration of at least %s",
                    min_ns >= PTS_MIN_TIME_NS ? "1s" : "1ns");
    *out = ns;
    return 0;
}

/* ---- the keys of a definition: one row each ---- */

/* Values whose parse is more than a type and a range. */
static int set_wipc_bs(struct pts_def *d, const char *v, char *why, size_t wl)
{
    uint64_t u;
    if (!strcmp(v, "element")) {
        d->wipc_bs = 0;
        return 0;
    }
    if (units_parse_size(v, &u, why, wl) != 0)
        return -1;
    if (u == 0 || u > (1u << 30) || u % PTS_SECTOR)
        return errf(why, wl, "want element or a block size that is a multiple of %u bytes",
                    PTS_SECTOR);
    d->wipc_bs = (uint32_t)u;
    return 0;
}

static int set_mixes(struct pts_def *d, const char *v, char *why, size_t wl)
{
    if (parse_list_u(v, d->mixes, &d->n_mixes, PTS_MAX_LIST) != 0)
        return errf(why, wl, "want read percentages 0..100, comma-separated");
    return 0;
}

static int set_block_sizes(struct pts_def *d, const char *v, char *why, size_t wl)
{
    return parse_list_bs(v, d->bss, &d->n_bss, PTS_MAX_LIST, why, wl);
}

static int set_tracking(struct pts_def *d, const char *v, char *why, size_t wl)
{
    return parse_tracking(v, d, why, wl);
}

static int set_stop_capacity(struct pts_def *d, const char *v, char *why, size_t wl)
{
    char *end;
    double x = strtod(v, &end);
    if (*end || x <= 0)
        return errf(why, wl, "want a positive number (times the user capacity)");
    d->stop_capacity = x;
    return 0;
}

static int set_wait_states(struct pts_def *d, const char *v, char *why, size_t wl)
{
    char buf[256];
    str_copy(buf, sizeof(buf), v);
    d->n_waits = 0;
    char *save = NULL;
    for (char *t = strtok_r(buf, ", ", &save); t; t = strtok_r(NULL, ", ", &save)) {
        if (d->n_waits >= PTS_MAX_LIST)
            return errf(why, wl, "at most %d wait states", PTS_MAX_LIST);
        if (parse_time(t, &d->waits_ns[d->n_waits++], PTS_MIN_TIME_NS, why, wl) != 0)
            return -1;
    }
    return 0;
}

/* XSR's access groups: ACCESS/BS/MIX/DURATION, comma-separated. */
static int set_groups(struct pts_def *d, const char *v, char *why, size_t wl)
{
    char buf[512];
    str_copy(buf, sizeof(buf), v);
    d->n_groups = 0;
    char *save = NULL;
    for (char *t = strtok_r(buf, ", ", &save); t; t = strtok_r(NULL, ", ", &save)) {
        if (d->n_groups >= PTS_MAX_LIST)
            return errf(why, wl, "at most %d groups", PTS_MAX_LIST);
        char acc[16], bs[32], dur[32];
        unsigned mix;
        uint64_t u;
        if (sscanf(t, "%15[^/]/%31[^/]/%u/%31s", acc, bs, &mix, dur) != 4 || mix > 100)
            return errf(why, wl, "group '%s': want ACCESS/BS/MIX/DURATION, e.g. seq/1024k/0/8h", t);
        struct pts_group *g = &d->groups[d->n_groups++];
        if (!strcmp(acc, "seq"))
            g->random = false;
        else if (!strcmp(acc, "rnd"))
            g->random = true;
        else
            return errf(why, wl, "group '%s': access %s, want seq or rnd", t, acc);
        if (units_parse_size(bs, &u, why, wl) != 0)
            return -1;
        if (u == 0 || u > (1u << 30) || u % PTS_SECTOR)
            return errf(why, wl, "group '%s': block size %s, want a multiple of %u bytes", t, bs,
                        PTS_SECTOR);
        g->bs = (uint32_t)u;
        g->mix = mix;
        if (parse_time(dur, &g->duration_ns, PTS_MIN_TIME_NS, why, wl) != 0)
            return -1;
    }
    return 0;
}

enum def_type {
    DEF_STR,        /* char[size] */
    DEF_BOOL,       /* bool: yes/no */
    DEF_CHOICE,     /* bool or an enum: one of choices[] */
    DEF_UINT,       /* unsigned in lo..hi */
    DEF_UINT_SPEC,  /* unsigned in lo..hi, or "spec" (0: from the spec version) */
    DEF_ULIST,      /* unsigned[PTS_MAX_LIST] in lo..hi, its count at count_off */
    DEF_TIME,       /* uint64_t ns, at least lo */
    DEF_FN,         /* parse() */
};

struct def_choice {
    const char *name;
    int value;
};

struct def_key {
    const char *key;
    enum def_type type;
    size_t off, size;
    uint64_t lo, hi;
    const struct def_choice *choices;   /* DEF_CHOICE, ending with {NULL} */
    size_t count_off;                   /* DEF_ULIST */
    int (*parse)(struct pts_def *d, const char *v, char *why, size_t wl);   /* DEF_FN */
};

#define F(field) offsetof(struct pts_def, field), sizeof(((struct pts_def *)0)->field)

static const struct def_choice precondition_choices[] = {{"wipc", 1}, {"none", 0}, {NULL, 0}};
static const struct def_choice subtests_choices[] = {
    {"none", PTS_SUB_NONE}, {"bs", PTS_SUB_BS}, {NULL, 0}};
static const struct def_choice access_choices[] = {{"random", 1}, {"sequential", 0}, {NULL, 0}};
static const struct def_choice stop_choices[] = {
    {"steady", PTS_STOP_STEADY}, {"capacity", PTS_STOP_CAPACITY}, {NULL, 0}};
static const struct def_choice kind_choices[] = {{"standard", PTS_KIND_STANDARD},
                                                 {"hir", PTS_KIND_HIR},
                                                 {"xsr", PTS_KIND_XSR},
                                                 {"dirth", PTS_KIND_DIRTH},
                                                 {NULL, 0}};
static const struct def_choice report_choices[] = {
    {"iops", PTS_REPORT_IOPS}, {"tp", PTS_REPORT_TP},       {"lat", PTS_REPORT_LAT},
    {"wsat", PTS_REPORT_WSAT}, {"hir", PTS_REPORT_HIR},     {"xsr", PTS_REPORT_XSR},
    {"dirth", PTS_REPORT_DIRTH}, {"generic", PTS_REPORT_GENERIC}, {NULL, 0}};

/* Every key of a definition (pts/iops.ini documents them). */
static const struct def_key def_keys[] = {
    {"name", DEF_STR, F(name), 0, 0, NULL, 0, NULL},
    {"title", DEF_STR, F(title), 0, 0, NULL, 0, NULL},
    {"purge", DEF_BOOL, F(purge), 0, 0, NULL, 0, NULL},
    {"precondition", DEF_CHOICE, F(wipc), 0, 0, precondition_choices, 0, NULL},
    {"wipc_bs", DEF_FN, 0, 0, 0, 0, NULL, 0, set_wipc_bs},
    {"wipc_fills", DEF_UINT, F(wipc_fills), 1, 100, NULL, 0, NULL},
    {"subtests", DEF_CHOICE, F(subtests), 0, 0, subtests_choices, 0, NULL},
    {"access", DEF_CHOICE, F(random), 0, 0, access_choices, 0, NULL},
    {"mixes", DEF_FN, 0, 0, 0, 0, NULL, 0, set_mixes},
    {"block_sizes", DEF_FN, 0, 0, 0, 0, NULL, 0, set_block_sizes},
    {"threads", DEF_UINT_SPEC, F(threads), 1, 4096, NULL, 0, NULL},
    {"qd", DEF_UINT_SPEC, F(qd), 1, 4096, NULL, 0, NULL},
    {"element_time", DEF_TIME, F(element_ns), PTS_MIN_TIME_NS, 0, NULL, 0, NULL},
    {"tracking", DEF_FN, 0, 0, 0, 0, NULL, 0, set_tracking},
    {"stop", DEF_CHOICE, F(stop), 0, 0, stop_choices, 0, NULL},
    {"max_rounds", DEF_UINT, F(max_rounds), 0, 1000000, NULL, 0, NULL},
    {"stop_capacity", DEF_FN, 0, 0, 0, 0, NULL, 0, set_stop_capacity},
    {"max_time", DEF_TIME, F(max_time_ns), PTS_MIN_TIME_NS, 0, NULL, 0, NULL},
    {"compress", DEF_UINT, F(compress_pct), 0, 100, NULL, 0, NULL},
    {"kind", DEF_CHOICE, F(kind), 0, 0, kind_choices, 0, NULL},
    {"report", DEF_CHOICE, F(report), 0, 0, report_choices, 0, NULL},
    {"threads_list", DEF_ULIST, F(threads_list), 1, 1024, NULL,
     offsetof(struct pts_def, n_threads_list), NULL},
    {"qd_list", DEF_ULIST, F(qd_list), 1, 1024, NULL, offsetof(struct pts_def, n_qd_list), NULL},
    {"precondition_threads", DEF_UINT, F(pc_threads), 1, 1024, NULL, 0, NULL},
    {"precondition_qd", DEF_UINT, F(pc_qd), 1, 1024, NULL, 0, NULL},
    {"latency_ceiling", DEF_TIME, F(latency_ceiling_ns), 1, 0, NULL, 0, NULL},
    {"histogram_time", DEF_TIME, F(histogram_ns), PTS_MIN_TIME_NS, 0, NULL, 0, NULL},
    {"extra", DEF_STR, F(extra), 0, 0, NULL, 0, NULL},
    {"precondition_round", DEF_TIME, F(precondition_round_ns), PTS_MIN_TIME_NS, 0, NULL, 0, NULL},
    {"access_time", DEF_TIME, F(access_ns), PTS_MIN_TIME_NS, 0, NULL, 0, NULL},
    {"wait_states", DEF_FN, 0, 0, 0, 0, NULL, 0, set_wait_states},
    {"repetitions", DEF_UINT, F(repetitions), 1, 100000, NULL, 0, NULL},
    {"baseline_accesses", DEF_UINT, F(baseline_accesses), 1, 100000, NULL, 0, NULL},
    {"groups", DEF_FN, 0, 0, 0, 0, NULL, 0, set_groups},
};

#undef F

const char *pts_kind_name(enum pts_kind k)
{
    for (const struct def_choice *c = kind_choices; c->name; c++)
        if (c->value == (int)k)
            return c->name;
    return "standard";
}

const char *pts_report_name(enum pts_report r)
{
    for (const struct def_choice *c = report_choices; c->name; c++)
        if (c->value == (int)r)
            return c->name;
    return "generic";
}

/* The presentation a kind has without a `report` key. */
static enum pts_report kind_report(enum pts_kind k)
{
    return k == PTS_KIND_HIR     ? PTS_REPORT_HIR
           : k == PTS_KIND_XSR   ? PTS_REPORT_XSR
           : k == PTS_KIND_DIRTH ? PTS_REPORT_DIRTH
                                 : PTS_REPORT_GENERIC;
}

/* The kind whose results the presentation reads (iops, tp, lat, wsat: the standard loops'
 * rounds and tables; hir, xsr, dirth: their own kind's records), or -1: any (generic). */
static int report_kind(enum pts_report r)
{
    switch (r) {
    case PTS_REPORT_DEFAULT:
    case PTS_REPORT_GENERIC:
        return -1;
    case PTS_REPORT_HIR:
        return PTS_KIND_HIR;
    case PTS_REPORT_XSR:
        return PTS_KIND_XSR;
    case PTS_REPORT_DIRTH:
        return PTS_KIND_DIRTH;
    default:
        return PTS_KIND_STANDARD;
    }
}

/* A bool or an enum field, by its size. */
static void store_int(void *field, size_t size, int v)
{
    if (size == sizeof(bool))
        *(bool *)field = v != 0;
    else
        *(int *)field = v;
}

static int def_set(struct pts_def *d, const char *key, const char *v, char *why, size_t wl)
{
    const struct def_key *k = NULL;
    for (size_t i = 0; i < sizeof(def_keys) / sizeof(def_keys[0]) && !k; i++)
        if (!strcmp(def_keys[i].key, key))
            k = &def_keys[i];
    if (!k)
        return errf(why, wl, "unknown key");
    char *field = (char *)d + k->off;
    uint64_t u;
    switch (k->type) {
    case DEF_STR:
        str_copy(field, k->size, v);
        return 0;
    case DEF_BOOL:
        return parse_bool(v, (bool *)field) ? errf(why, wl, "want yes or no") : 0;
    case DEF_CHOICE: {
        char want[128] = "";
        size_t n = 0;
        for (const struct def_choice *c = k->choices; c->name; c++, n++)
            if (!strcmp(c->name, v)) {
                store_int(field, k->size, c->value);
                return 0;
            }
        for (size_t i = 0; i < n; i++)   /* "want a, b or c" */
            snprintf(want + strlen(want), sizeof(want) - strlen(want), "%s%s",
                     i == 0 ? "" : i + 1 == n ? " or " : ", ", k->choices[i].name);
        return errf(why, wl, "want %s", want);
    }
    case DEF_UINT_SPEC:
        if (!strcmp(v, "spec")) {
            *(unsigned *)field = 0;
            return 0;
        }
        /* fall through */
    case DEF_UINT:
        if (units_parse_uint(v, k->lo, k->hi, &u, why, wl) != 0)
            return -1;
        *(unsigned *)field = (unsigned)u;
        return 0;
    case DEF_ULIST: {
        unsigned *dst = (unsigned *)field, *n = (unsigned *)((char *)d + k->count_off);
        char buf[256];
        str_copy(buf, sizeof(buf), v);
        *n = 0;
        char *save = NULL;
        for (char *t = strtok_r(buf, ", ", &save); t; t = strtok_r(NULL, ", ", &save)) {
            if (*n >= PTS_MAX_LIST || units_parse_uint(t, k->lo, k->hi, &u, why, wl) != 0)
                return errf(why, wl, "want up to %d numbers %llu..%llu", PTS_MAX_LIST,
                            (unsigned long long)k->lo, (unsigned long long)k->hi);
            dst[(*n)++] = (unsigned)u;
        }
        return 0;
    }
    case DEF_TIME:
        return parse_time(v, (uint64_t *)field, k->lo, why, wl);
    case DEF_FN:
        return k->parse(d, v, why, wl);
    }
    return errf(why, wl, "unknown key");
}

static int apply_section(struct pts_def *d, const struct ini_section *s, const char *path,
                         char *err, size_t errlen)
{
    for (size_t i = 0; i < s->n_entries; i++) {
        const struct ini_entry *e = &s->entries[i];
        char why[256] = "";
        if (def_set(d, e->key, e->value, why, sizeof(why)) != 0)
            return errf(err, errlen, "%s:%d: %s=%s: %s", path, e->line, e->key, e->value, why);
    }
    return 0;
}

/* The entry that set key: the spec version's section overrides the test's. */
static const struct ini_entry *def_entry(const struct ini_section *t, const struct ini_section *s,
                                         const char *key)
{
    const struct ini_entry *e = s ? ini_find(s, key) : NULL;
    return e ? e : ini_find(t, key);
}

/* "path:12: key=value: why" for the entry that set key, else "path: why". */
static int def_bad(const struct ini_section *t, const struct ini_section *s, const char *path,
                   const char *key, char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 7, 8)));
static int def_bad(const struct ini_section *t, const struct ini_section *s, const char *path,
                   const char *key, char *err, size_t errlen, const char *fmt, ...)
{
    char why[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof(why), fmt, ap);
    va_end(ap);
    const struct ini_entry *e = key ? def_entry(t, s, key) : NULL;
    if (e)
        return errf(err, errlen, "%s:%d: %s=%s: %s", path, e->line, key, e->value, why);
    return errf(err, errlen, "%s: %s", path, why);
}

static bool has_mix(const struct pts_def *d, unsigned mix)
{
    for (unsigned i = 0; i < d->n_mixes; i++)
        if (d->mixes[i] == mix)
            return true;
    return false;
}

static bool has_bs(const struct pts_def *d, uint32_t bs)
{
    for (unsigned i = 0; i < d->n_bss; i++)
        if (d->bss[i] == bs)
            return true;
    return false;
}

/* The definition as a whole, once every key is read: what each kind needs, and tracking
 * variables that name an element of the loops (a variable outside them never gets a value,
 * and the test would run to max_rounds for nothing). Caught here, when the definition is
 * loaded, rather than after purge and preconditioning. */
static int def_check(const struct pts_def *d, const struct ini_section *t,
                     const struct ini_section *s, const char *path, char *err, size_t errlen)
{
    int rk = report_kind(d->report);
    if (rk >= 0 && rk != (int)d->kind)
        return def_bad(t, s, path, "report", err, errlen, "the %s report reads the results of "
                       "kind=%s, and this test is kind=%s", pts_report_name(d->report),
                       pts_kind_name((enum pts_kind)rk), pts_kind_name(d->kind));
    if (d->kind != PTS_KIND_XSR && (!d->n_mixes || !d->n_bss))
        return errf(err, errlen, "%s: needs mixes and block_sizes", path);
    if (d->kind == PTS_KIND_XSR && !d->n_groups)
        return errf(err, errlen, "%s: kind=xsr needs groups", path);
    for (unsigned i = 0; d->kind == PTS_KIND_XSR && i < d->n_groups; i++)
        if (d->groups[i].duration_ns < d->element_ns)
            return def_bad(t, s, path, "groups", err, errlen, "group %u is shorter than one "
                           "element_time (every group is logged once per element)", i + 1);
    if (d->kind == PTS_KIND_DIRTH &&
        (!d->n_threads_list || !d->n_qd_list || !d->latency_ceiling_ns || !d->histogram_ns ||
         !d->pc_threads || !d->pc_qd))
        return errf(err, errlen, "%s: kind=dirth needs threads_list, qd_list, latency_ceiling, "
                    "histogram_time, precondition_threads and precondition_qd", path);
    if (d->kind == PTS_KIND_HIR && (!d->n_waits || !d->access_ns || !d->repetitions))
        return errf(err, errlen, "%s: kind=hir needs access_time, wait_states and repetitions",
                    path);
    if (d->kind != PTS_KIND_XSR && d->stop == PTS_STOP_STEADY && !d->n_track)
        return errf(err, errlen, "%s: stop=steady needs tracking variables", path);
    unsigned window = STEADY_CRITERIA_SNIA.window;
    if (d->kind != PTS_KIND_XSR && d->stop == PTS_STOP_STEADY && d->max_rounds &&
        d->max_rounds < window)
        return def_bad(t, s, path, "max_rounds", err, errlen, "steady state needs a window of "
                       "%u rounds: want 0 (no limit) or at least %u", window, window);
    for (unsigned i = 0; d->kind != PTS_KIND_XSR && i < d->n_track; i++) {
        const struct pts_track *tr = &d->track[i];
        char name[128];
        pts_track_format(tr, name, sizeof(name));
        if (!tr->bs && d->subtests != PTS_SUB_BS)
            return def_bad(t, s, path, "tracking", err, errlen, "%s: 'element' is the subtest's "
                           "block size, and there are no subtests (subtests=bs)", name);
        if (tr->bs && !has_bs(d, tr->bs))
            return def_bad(t, s, path, "tracking", err, errlen, "%s: its block size is not in "
                           "block_sizes", name);
        if (!has_mix(d, tr->mix))
            return def_bad(t, s, path, "tracking", err, errlen, "%s: its read percentage is not "
                           "in mixes", name);
    }
    return 0;
}

int pts_def_load(const char *name, const char *spec, const char *const *dirs,
                 struct pts_def *out, char *err, size_t errlen)
{
    char base[96], path[4096];
    snprintf(base, sizeof(base), "%s.ini", name);
    if (strchr(name, '/') || !strcmp(name, "specs") || find_file(base, dirs, path, sizeof(path)) != 0) {
        char names[512];
        pts_def_list(dirs, names, sizeof(names));
        return errf(err, errlen, "unknown PTS test '%s' (available: %s)", name,
                    names[0] ? names : "none found");
    }
    struct ini_file f;
    if (ini_parse_file(path, &f, err, errlen) != 0)
        return -1;
    memset(out, 0, sizeof(*out));
    str_copy(out->name, sizeof(out->name), name);
    str_copy(out->source, sizeof(out->source), path);
    out->wipc_fills = 2;
    out->wipc_bs = 128 * 1024;
    out->random = true;
    out->element_ns = 60ull * 1000000000ull;
    out->max_rounds = 25;
    out->stop_capacity = 4;
    out->max_time_ns = 24ull * 3600 * 1000000000ull;
    int ret = 0;
    const struct ini_section *t = ini_find_section(&f, "test");
    if (!t)
        ret = errf(err, errlen, "%s: no [test] section", path);
    if (ret == 0)
        ret = apply_section(out, t, path, err, errlen);
    const struct ini_section *spec_sec = NULL;
    if (ret == 0 && spec) {
        char sec[64];
        snprintf(sec, sizeof(sec), "spec %s", spec);
        spec_sec = ini_find_section(&f, sec);
        if (spec_sec)
            ret = apply_section(out, spec_sec, path, err, errlen);
    }
    if (ret == 0)
        ret = def_check(out, t, spec_sec, path, err, errlen);
    if (ret == 0 && !out->title[0])
        str_copy(out->title, sizeof(out->title), out->name);
    if (ret == 0 && out->report == PTS_REPORT_DEFAULT)
        out->report = kind_report(out->kind);
    ini_free(&f);
    return ret;
}

static int cmp_names(const void *a, const void *b) { return strcmp(a, b); }

void pts_def_list(const char *const *dirs, char *buf, size_t len)
{
    buf[0] = '\0';
    for (unsigned i = 0; dirs && dirs[i]; i++) {
        DIR *d = opendir(dirs[i]);
        if (!d)
            continue;
        struct dirent *e;
        char names[64][64];
        unsigned n = 0;
        while ((e = readdir(d)) && n < 64) {
            size_t l = strlen(e->d_name);
            if (l > 4 && !strcmp(e->d_name + l - 4, ".ini") && strcmp(e->d_name, "specs.ini")) {
                snprintf(names[n], sizeof(names[n]), "%.*s", (int)(l - 4), e->d_name);
                n++;
            }
        }
        closedir(d);
        qsort(names, n, sizeof(names[0]), cmp_names);
        for (unsigned k = 0; k < n; k++) {
            if (strstr(buf, names[k]))
                continue;
            if (buf[0])
                strncat(buf, ", ", len - strlen(buf) - 1);
            strncat(buf, names[k], len - strlen(buf) - 1);
        }
    }
}

void pts_track_format(const struct pts_track *t, char *buf, size_t len)
{
    char bs[32];
    if (t->bs)
        units_format_size(t->bs, bs, sizeof(bs));
    else
        snprintf(bs, sizeof(bs), "element");
    snprintf(buf, len, "%s@%s/%u", t->metric, bs, t->mix);
}
