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
#include "lib/keys.h"
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

/* ---- spec versions ---- */

static int set_active_range(void *obj, const char *v, char *why, size_t wl)
{
    struct pts_spec *sp = obj;
    double pct;
    if (units_parse_percent(v, &pct, why, wl) != 0 || pct <= 0)
        return errf(why, wl, "want a percent above 0");
    sp->active_range_pct = pct;
    return 0;
}

static const struct key_choice on_off[] = {
    {"on", 1, false}, {"off", 0, false}, {"yes", 1, true}, {"no", 0, true},
    {"1", 1, true},   {"0", 0, true},    {"true", 1, true}, {"false", 0, true},
    {NULL, 0, false}};

/* The keys of a spec version (pts/specs.ini). */
static const struct key_row spec_rows[] = {
    {"title", KEY_STR, KEY_FIELD(struct pts_spec, title), .help = "the version's name"},
    {"active_range", KEY_FN, .set = set_active_range, .arg = "PCT",
     .help = "the active range, percent of the user capacity"},
    {"write_cache", KEY_CHOICE, KEY_FIELD(struct pts_spec, write_cache), .choices = on_off,
     .help = "the drive's volatile write cache during the tests"},
    {"threads", KEY_UINT, KEY_FIELD(struct pts_spec, threads), 1, 4096,
     .help = "recommended workers (a test's threads = spec)"},
    {"qd", KEY_UINT, KEY_FIELD(struct pts_spec, qd), 1, 4096,
     .help = "recommended queue depth per worker (qd = spec)"},
};
static const struct key_table spec_table = KEY_TABLE(spec_rows);

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
        char where[4200];
        snprintf(where, sizeof(where), "%s:%d", path, e->line);
        ret = keys_set(&spec_table, out, e->key, e->value, where, err, errlen);
        if (ret == KEYS_UNKNOWN)
            ret = errf(err, errlen, "%s: unknown key '%s'", where, e->key);
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
static int set_wipc_bs(void *obj, const char *v, char *why, size_t wl)
{
    struct pts_def *d = obj;
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

/* fast_precondition = allowed | refused: WHY (the WHY is what run-test says when refusing). */
static int set_fast_precondition(void *obj, const char *v, char *why, size_t wl)
{
    struct pts_def *d = obj;
    if (!strcmp(v, "allowed")) {
        d->fast_allowed = true;
        d->fast_why[0] = '\0';
        return 0;
    }
    if (!strncmp(v, "refused:", 8)) {
        const char *r = v + 8;
        while (*r == ' ')
            r++;
        if (*r && strlen(r) < sizeof(d->fast_why)) {
            d->fast_allowed = false;
            str_copy(d->fast_why, sizeof(d->fast_why), r);
            return 0;
        }
    }
    return errf(why, wl, "want allowed, or refused: WHY (under %zu characters)",
                sizeof(d->fast_why));
}

static int set_mixes(void *obj, const char *v, char *why, size_t wl)
{
    struct pts_def *d = obj;
    if (parse_list_u(v, d->mixes, &d->n_mixes, PTS_MAX_LIST) != 0)
        return errf(why, wl, "want read percentages 0..100, comma-separated");
    return 0;
}

static int set_block_sizes(void *obj, const char *v, char *why, size_t wl)
{
    struct pts_def *d = obj;
    return parse_list_bs(v, d->bss, &d->n_bss, PTS_MAX_LIST, why, wl);
}

static int set_tracking(void *obj, const char *v, char *why, size_t wl)
{
    struct pts_def *d = obj;
    return parse_tracking(v, d, why, wl);
}

static int set_stop_capacity(void *obj, const char *v, char *why, size_t wl)
{
    struct pts_def *d = obj;
    char *end;
    double x = strtod(v, &end);
    if (*end || x <= 0)
        return errf(why, wl, "want a positive number (times the user capacity)");
    d->stop_capacity = x;
    return 0;
}

static int set_wait_states(void *obj, const char *v, char *why, size_t wl)
{
    struct pts_def *d = obj;
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
static int set_groups(void *obj, const char *v, char *why, size_t wl)
{
    struct pts_def *d = obj;
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

#define F(field) KEY_FIELD(struct pts_def, field)
#define T(k, f, lo, h) {k, KEY_TIME, F(f), lo, .help = h}
#define U(k, f, lo, hi, h) {k, KEY_UINT, F(f), lo, hi, .help = h}
#define FN(k, fn, a, h) {k, KEY_FN, .set = fn, .arg = a, .help = h}
#define C(k, f, ch, h) {k, KEY_CHOICE, F(f), .choices = ch, .help = h}

/* yes/no, and the other spellings of a flag (taken, not listed) */
static const struct key_choice yes_no[] = {
    {"yes", 1, false}, {"no", 0, false},    {"on", 1, true},    {"off", 0, true},
    {"1", 1, true},    {"0", 0, true},      {"true", 1, true},  {"false", 0, true},
    {NULL, 0, false}};
static const struct key_choice precondition_choices[] = {
    {"wipc", 1, false}, {"none", 0, false}, {NULL, 0, false}};
static const struct key_choice subtests_choices[] = {
    {"none", PTS_SUB_NONE, false}, {"bs", PTS_SUB_BS, false}, {NULL, 0, false}};
static const struct key_choice access_choices[] = {
    {"random", 1, false}, {"sequential", 0, false}, {NULL, 0, false}};
static const struct key_choice stop_choices[] = {
    {"steady", PTS_STOP_STEADY, false}, {"capacity", PTS_STOP_CAPACITY, false}, {NULL, 0, false}};
static const struct key_choice kind_choices[] = {
    {"standard", PTS_KIND_STANDARD, false}, {"hir", PTS_KIND_HIR, false},
    {"xsr", PTS_KIND_XSR, false},           {"dirth", PTS_KIND_DIRTH, false},
    {NULL, 0, false}};
static const struct key_choice report_choices[] = {
    {"iops", PTS_REPORT_IOPS, false},   {"tp", PTS_REPORT_TP, false},
    {"lat", PTS_REPORT_LAT, false},     {"wsat", PTS_REPORT_WSAT, false},
    {"hir", PTS_REPORT_HIR, false},     {"xsr", PTS_REPORT_XSR, false},
    {"dirth", PTS_REPORT_DIRTH, false}, {"generic", PTS_REPORT_GENERIC, false},
    {NULL, 0, false}};

/* Every key of a definition, by group: the standard loops, then hir, dirth and xsr. */
static const struct key_row def_rows[] = {
    {"name", KEY_STR, F(name), .help = "the test's identifier (iops)"},
    {"title", KEY_STR, F(title), .help = "its name for people (IOPS)"},
    C("purge", purge, yes_no, "purge before the test (and before each subtest)"),
    C("precondition", wipc, precondition_choices,
      "workload-independent preconditioning (SEQ writes), or none"),
    FN("wipc_bs", set_wipc_bs, "SIZE | element", "block size of the WIPC writes (element: the "
       "subtest's)"),
    U("wipc_fills", wipc_fills, 1, 100, "times the active range is written by WIPC"),
    FN("fast_precondition", set_fast_precondition, "allowed | refused: WHY",
       "--precondition fast: allowed (the test preconditions with uniform random "
       "writes: the pass in WIPC's place), or refused: why not"),
    C("subtests", subtests, subtests_choices,
      "bs: purge, WIPC and the loops again for each block size (TP)"),
    C("access", random, access_choices, "the test's accesses"),
    FN("mixes", set_mixes, "PCT,...", "outer loop: read percentages, e.g. 100,65,0"),
    FN("block_sizes", set_block_sizes, "SIZE,...", "inner loop: whole 512 B sectors, e.g. "
       "1024k,128k,4k"),
    {"threads", KEY_UINT, F(threads), 1, 4096, .zero = "spec",
     .help = "workers (spec: the spec version's recommendation)"},
    {"qd", KEY_UINT, F(qd), 1, 4096, .zero = "spec",
     .help = "queue depth per worker (spec: the spec version's)"},
    T("element_time", element_ns, PTS_MIN_TIME_NS, "one element's length (--round-time "
      "overrides)"),
    FN("tracking", set_tracking, "METRIC@BS/MIX,...", "steady-state variables, e.g. iops@4k/0 "
       "(BS element: the subtest's)"),
    C("stop", stop, stop_choices, "SNIA steady state on the tracking variables, or "
      "stop_capacity x capacity written"),
    U("max_rounds", max_rounds, 0, 1000000, "rounds at most (steady; 0: no limit)"),
    FN("stop_capacity", set_stop_capacity, "X", "capacity: times the user capacity written"),
    T("max_time", max_time_ns, PTS_MIN_TIME_NS, "capacity: the test's length at most"),
    U("compress", compress_pct, 0, 100, "data compressibility (0: random, as the PTS requires)"),
    C("kind", kind, kind_choices, "the control flow: the loops above, or hir, xsr, dirth"),
    C("report", report, report_choices, "the report's presentation (default: the kind's, "
      "generic for standard)"),
    U("repetitions", repetitions, 1, 100000, "hir: access + idle repetitions per wait state"),
    T("precondition_round", precondition_round_ns, PTS_MIN_TIME_NS,
      "hir: a preconditioning round (default element_time)"),
    T("access_time", access_ns, PTS_MIN_TIME_NS, "hir: one access period"),
    FN("wait_states", set_wait_states, "DURATION,...", "hir: host idle times, e.g. 5s,10s,15s"),
    U("baseline_accesses", baseline_accesses, 1, 100000, "hir: accesses of the return to "
      "baseline"),
    {"threads_list", KEY_ULIST, F(threads_list), 1, 1024,
     .count_off = offsetof(struct pts_def, n_threads_list), .help = "dirth: workers, high to low"},
    {"qd_list", KEY_ULIST, F(qd_list), 1, 1024, .count_off = offsetof(struct pts_def, n_qd_list),
     .help = "dirth: queue depths, high to low"},
    U("precondition_threads", pc_threads, 1, 1024, "dirth: workers of the RND-write "
      "preconditioning"),
    U("precondition_qd", pc_qd, 1, 1024, "dirth: its queue depth"),
    T("latency_ceiling", latency_ceiling_ns, 1, "dirth: mean latency of the max point at most"),
    T("histogram_time", histogram_ns, PTS_MIN_TIME_NS, "dirth: each chosen point's length"),
    {"extra", KEY_STR, F(extra), .help = "dirth: more workload keys, e.g. bssplit=..."},
    FN("groups", set_groups, "ACCESS/BS/MIX/DURATION,...", "xsr: the stimuli in order, e.g. "
       "seq/1024k/0/8h,rnd/8k/0/6h"),
};

static const struct key_table def_table = KEY_TABLE(def_rows);

#undef F
#undef T
#undef U
#undef FN
#undef C

const char *pts_kind_name(enum pts_kind k)
{
    for (const struct key_choice *c = kind_choices; c->name; c++)
        if (c->value == (int)k)
            return c->name;
    return "standard";
}

const char *pts_report_name(enum pts_report r)
{
    for (const struct key_choice *c = report_choices; c->name; c++)
        if (c->value == (int)r)
            return c->name;
    return "generic";
}

void pts_def_keys_print(FILE *out)
{
    keys_print_help(out, &def_table, NULL);
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

static int apply_section(struct pts_def *d, const struct ini_section *s, const char *path,
                         char *err, size_t errlen)
{
    for (size_t i = 0; i < s->n_entries; i++) {
        const struct ini_entry *e = &s->entries[i];
        char where[4200];
        snprintf(where, sizeof(where), "%s:%d", path, e->line);
        int rc = keys_set(&def_table, d, e->key, e->value, where, err, errlen);
        if (rc == KEYS_UNKNOWN)
            return errf(err, errlen, "%s: %s=%s: unknown key", where, e->key, e->value);
        if (rc != 0)
            return -1;
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
    str_copy(out->fast_why, sizeof(out->fast_why),
             "its definition does not say fast_precondition = allowed");
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
