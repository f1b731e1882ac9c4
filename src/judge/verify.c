/* verify.c — vendor spec sheets against measured points (see verify.h for the matching rule and
 * the verdict, docs/spec-sheets.md for the syntax). */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/ini.h"
#include "lib/units.h"
#include "lib/util.h"
#include "judge/verify.h"

/* ---- units ---- */

static const struct verify_unit verify_units[] = {
    {"IOPS", VERIFY_KIND_IOPS, 1},
    {"K IOPS", VERIFY_KIND_IOPS, 1e3},
    {"M IOPS", VERIFY_KIND_IOPS, 1e6},
    {"B/s", VERIFY_KIND_THROUGHPUT, 1e-6},
    {"KB/s", VERIFY_KIND_THROUGHPUT, 1e-3},
    {"KiB/s", VERIFY_KIND_THROUGHPUT, 1024.0 / 1e6},
    {"MB/s", VERIFY_KIND_THROUGHPUT, 1},
    {"MiB/s", VERIFY_KIND_THROUGHPUT, 1048576.0 / 1e6},
    {"GB/s", VERIFY_KIND_THROUGHPUT, 1e3},
    {"GiB/s", VERIFY_KIND_THROUGHPUT, 1073741824.0 / 1e6},
    {"ns", VERIFY_KIND_LATENCY, 1e-3},
    {"\xc2\xb5s", VERIFY_KIND_LATENCY, 1},      /* µs, MICRO SIGN */
    {"ms", VERIFY_KIND_LATENCY, 1e3},
    {"s", VERIFY_KIND_LATENCY, 1e6},
};
#define N_UNITS (sizeof(verify_units) / sizeof(verify_units[0]))

static const struct {
    const char *alias, *name;
} verify_unit_aliases[] = {
    {"iops", "IOPS"}, {"IO/s", "IOPS"}, {"IOps", "IOPS"},
    {"KIOPS", "K IOPS"}, {"kIOPS", "K IOPS"}, {"k IOPS", "K IOPS"}, {"KIOPs", "K IOPS"},
    {"MIOPS", "M IOPS"},
    {"kB/s", "KB/s"}, {"MBps", "MB/s"}, {"MB/sec", "MB/s"}, {"GBps", "GB/s"},
    {"us", "\xc2\xb5s"}, {"usec", "\xc2\xb5s"}, {"\xce\xbcs", "\xc2\xb5s"},   /* μs, GREEK MU */
    {"msec", "ms"}, {"sec", "s"}, {"nsec", "ns"},
};

const char *verify_base_unit(enum verify_kind k)
{
    switch (k) {
    case VERIFY_KIND_IOPS: return "IOPS";
    case VERIFY_KIND_THROUGHPUT: return "MB/s";
    default: return "\xc2\xb5s";
    }
}

int verify_unit_parse(const char *text, struct verify_unit *out)
{
    char buf[32];
    if (!text)
        return -1;
    while (isspace((unsigned char)*text))
        text++;
    str_copy(buf, sizeof(buf), text);
    char *t = str_trim(buf);
    const char *name = t;
    for (size_t i = 0; i < sizeof(verify_unit_aliases) / sizeof(verify_unit_aliases[0]); i++)
        if (!strcmp(t, verify_unit_aliases[i].alias))
            name = verify_unit_aliases[i].name;
    for (size_t i = 0; i < N_UNITS; i++) {
        if (!strcmp(name, verify_units[i].name)) {
            *out = verify_units[i];
            return 0;
        }
    }
    return -1;
}

/* Digits with an optional fraction; *end after it. */
static int verify_scan_number(const char *s, double *v, const char **end)
{
    const char *p = s;
    if (!isdigit((unsigned char)*p) && !(*p == '.' && isdigit((unsigned char)p[1])))
        return -1;
    while (isdigit((unsigned char)*p))
        p++;
    if (*p == '.') {
        p++;
        while (isdigit((unsigned char)*p))
            p++;
    }
    char num[64];
    if ((size_t)(p - s) >= sizeof(num))
        return -1;
    memcpy(num, s, (size_t)(p - s));
    num[p - s] = '\0';
    *v = strtod(num, NULL);
    *end = p;
    return 0;
}

/* A multiplier K/k, M, G right after the digits, when followed by the end or a space. */
static double verify_scan_multiplier(const char **p)
{
    char c = **p;
    double m = c == 'K' || c == 'k' ? 1e3 : c == 'M' ? 1e6 : c == 'G' ? 1e9 : 0;
    if (m != 0 && ((*p)[1] == '\0' || isspace((unsigned char)(*p)[1]))) {
        (*p)++;
        return m;
    }
    return 1;
}

int verify_parse_quantity(const char *text, double *value, struct verify_unit *unit,
                          bool *has_unit, char *err, size_t errlen)
{
    if (!text)
        return errf(err, errlen, "empty value");
    const char *p = text;
    while (isspace((unsigned char)*p))
        p++;
    if (strchr(p, ','))
        return errf(err, errlen, "'%s': a comma is ambiguous (thousands separator or decimal "
                                 "comma): write 2800 or 2.8", text);
    double v;
    if (verify_scan_number(p, &v, &p) != 0)
        return errf(err, errlen, "'%s': not a number", text);
    v *= verify_scan_multiplier(&p);
    while (isspace((unsigned char)*p))
        p++;
    *has_unit = *p != '\0';
    if (*p) {
        struct verify_unit u;
        if (verify_unit_parse(p, &u) != 0)
            return errf(err, errlen, "'%s': unknown unit '%s' (want IOPS, K IOPS, MB/s, MiB/s, "
                                     "GB/s, KB/s, KiB/s, us, ms, ...)", text, p);
        *unit = u;
    }
    *value = v;
    return 0;
}

int verify_parse_number(const char *text, double *out, char *err, size_t errlen)
{
    struct verify_unit u;
    bool has_unit;
    if (verify_parse_quantity(text, out, &u, &has_unit, err, errlen) != 0)
        return -1;
    if (has_unit)
        return errf(err, errlen, "'%s': want a plain number", text);
    return 0;
}

int verify_parse_bs(const char *text, uint32_t *out, char *err, size_t errlen)
{
    char buf[64];
    if (!text)
        return errf(err, errlen, "empty block size");
    str_copy(buf, sizeof(buf), text);
    char *t = str_trim(buf);
    size_t n = strlen(t);
    /* "4KB", "4kB", "1MB": a transfer size in a spec sheet is binary: drop the B */
    if (n >= 2 && (t[n - 1] == 'B' || t[n - 1] == 'b') && strchr("kKmMgG", t[n - 2]))
        t[n - 1] = '\0';
    uint64_t v;
    char why[ERR_LEN];
    if (units_parse_size(t, &v, why, sizeof(why)) != 0)
        return errf(err, errlen, "%s", why);
    if (v == 0 || v > UINT32_MAX)
        return errf(err, errlen, "block size '%s' out of range", text);
    *out = (uint32_t)v;
    return 0;
}

int verify_parse_tolerance(const char *text, double *out, char *err, size_t errlen)
{
    double pct;
    char why[ERR_LEN];
    if (units_parse_percent(text, &pct, why, sizeof(why)) != 0)
        return errf(err, errlen, "want a percentage from 0 to 100, e.g. 5%%");
    *out = pct / 100.0;
    return 0;
}

/* ---- metrics ---- */

int verify_metric_parse(const char *text, enum meas_metric *m, const char **default_unit)
{
    const char *unit = NULL;
    if (!text)
        return -1;
    if (!strcmp(text, "mib_s")) {
        *m = MEAS_MB_S;
        unit = "MiB/s";
    } else if (!strcmp(text, "lat_us")) {
        *m = MEAS_LAT_MEAN_US;
    } else if (meas_metric_parse(text, m) != 0) {
        return -1;
    }
    if (!unit)
        unit = verify_base_unit(verify_metric_kind(*m));
    if (default_unit)
        *default_unit = unit;
    return 0;
}

enum verify_kind verify_metric_kind(enum meas_metric m)
{
    switch (m) {
    case MEAS_IOPS: case MEAS_READ_IOPS: case MEAS_WRITE_IOPS:
        return VERIFY_KIND_IOPS;
    case MEAS_MB_S: case MEAS_READ_MB_S: case MEAS_WRITE_MB_S:
        return VERIFY_KIND_THROUGHPUT;
    default:
        return VERIFY_KIND_LATENCY;
    }
}

/* ---- spec sheets ---- */

/* The conditions `assumed` may name, and the word for each in messages and JSON. */
static const struct {
    const char *name;
    unsigned cond;
} verify_conds[] = {
    {"threads", VERIFY_COND_THREADS},
    {"qd", VERIFY_COND_QD},
    {"compress", VERIFY_COND_COMPRESS},
};
#define N_CONDS (sizeof(verify_conds) / sizeof(verify_conds[0]))
static const char *const global_keys[] = {"kind", "device", "vendor", "model",
                                          "reported_models", "capacity", "sim_preset", "source",
                                          "form_factor", "nand", "note", NULL};

static bool key_known(const char *const *keys, const char *k)
{
    for (; *keys; keys++)
        if (!strcmp(*keys, k))
            return true;
    return false;
}

static bool is_any(const char *v)
{
    return !strcmp(v, "any") || !strcmp(v, "unknown") || !strcmp(v, "unstated");
}

/* "path:line: [section] key=value: why" */
static int bad_value(char *err, size_t errlen, const char *path, const struct ini_section *s,
                     const struct ini_entry *e, const char *why)
{
    return errf(err, errlen, "%s:%d: [%s] %s=%s: %s", path, e->line, s->name, e->key, e->value,
                why);
}

/* `assumed = qd, threads`: names separated by commas or spaces, each with a value stated. */
static int parse_assumed(struct verify_claim *c, const char *value, char *err, size_t errlen)
{
    char buf[256];
    str_copy(buf, sizeof(buf), value);
    char *save = NULL;
    for (char *t = strtok_r(buf, ", \t", &save); t; t = strtok_r(NULL, ", \t", &save)) {
        if (!strcmp(t, "state"))
            return errf(err, errlen, "state is never assumed: a burst and a steady-state figure "
                                     "differ several-fold (write state = fob, steady or any)");
        unsigned cond = 0;
        for (size_t i = 0; i < N_CONDS; i++)
            if (!strcmp(t, verify_conds[i].name))
                cond = verify_conds[i].cond;
        if (!cond)
            return errf(err, errlen, "'%s' is not a condition that can be assumed (want qd, "
                                     "threads, compress)", t);
        bool stated = cond == VERIFY_COND_QD ? c->qd > 0
                      : cond == VERIFY_COND_THREADS ? c->threads > 0 : c->compress_pct >= 0;
        if (!stated)
            return errf(err, errlen, "%s is assumed but has no value (give %s = the assumed "
                                     "value)", t, t);
        c->assumed |= cond;
    }
    return 0;
}

/* `kind = requirements` (a purchaser's requirement sheet: names no drive, applies to any
 * target) or `kind = drive` (the default: a vendor's sheet of one drive). */
static int parse_kind(const struct ini_file *ini, const struct ini_section *s,
                      struct verify_sheet *out, char *err, size_t errlen)
{
    const struct ini_entry *e = ini_find(s, "kind");
    if (!e)
        return 0;
    if (!strcmp(e->value, "requirements"))
        out->requirements = true;
    else if (strcmp(e->value, "drive"))
        return errf(err, errlen, "%s:%d: kind=%s: want requirements (a purchaser's sheet for "
                    "any drive) or drive (a vendor's sheet of one drive, the default)", ini->path,
                    e->line, e->value);
    static const char *const drive_keys[] = {"reported_models", "capacity", "sim_preset"};
    for (size_t i = 0; out->requirements && i < sizeof(drive_keys) / sizeof(drive_keys[0]); i++)
        if ((e = ini_find(s, drive_keys[i])))
            return errf(err, errlen, "%s:%d: %s=%s: a requirement sheet (kind = requirements) "
                        "names no drive: it applies to any target", ini->path, e->line,
                        e->key, e->value);
    return 0;
}

/* The drive the sheet is of (verify.h, "The drive"): reported_models, capacity, sim_preset. */
static int parse_drive(const struct ini_file *ini, const struct ini_section *s,
                       struct verify_sheet *out, char *err, size_t errlen)
{
    const struct ini_entry *e;
    char why[ERR_LEN];
    if ((e = ini_find(s, "reported_models"))) {
        char buf[1024];
        str_copy(buf, sizeof(buf), e->value);
        char *save = NULL;
        for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
            t = str_trim(t);
            if (!*t || strlen(t) >= sizeof(out->models[0]) || out->n_models == VERIFY_MAX_MODELS)
                return errf(err, errlen, "%s:%d: reported_models=%s: want up to %d model "
                            "strings separated by commas, each 1..%zu characters", ini->path,
                            e->line, e->value, VERIFY_MAX_MODELS, sizeof(out->models[0]) - 1);
            str_copy(out->models[out->n_models++], sizeof(out->models[0]), t);
        }
    }
    if ((e = ini_find(s, "capacity"))) {
        if (units_parse_size(e->value, &out->capacity, why, sizeof(why)) != 0 || !out->capacity)
            return errf(err, errlen, "%s:%d: capacity=%s: want the drive's capacity as the "
                        "vendor states it, decimal: 1.6TB, 300GB", ini->path, e->line, e->value);
        str_copy(out->capacity_text, sizeof(out->capacity_text), e->value);
    }
    if ((e = ini_find(s, "sim_preset"))) {
        const char *v = e->value;
        if (!strncmp(v, "sim:", 4))
            v += 4;
        if (!*v || strlen(v) >= sizeof(out->sim_preset) || strpbrk(v, ", =/"))
            return errf(err, errlen, "%s:%d: sim_preset=%s: want a preset name "
                        "(profiles/devices/NAME.ini), no key=value", ini->path, e->line,
                        e->value);
        str_copy(out->sim_preset, sizeof(out->sim_preset), v);
    }
    return 0;
}

/* ---- a claim's keys: one row each (docs/spec-sheets.md §2) ---- */

/* A key's value into the claim: 0, or -1 with why (the message is then "path:line: [section]
 * key=value: why"). */
typedef int claim_key_fn(struct verify_claim *c, const char *v, char *why, size_t whylen);

static int claim_bs(struct verify_claim *c, const char *v, char *why, size_t whylen)
{
    if (!strcmp(v, "mixed")) {
        c->bs = 0;   /* a mix of sizes (a profile's bssplit): matches mixed-size points only */
        return 0;
    }
    return verify_parse_bs(v, &c->bs, why, whylen);
}

static int claim_pattern(struct verify_claim *c, const char *v, char *why, size_t whylen)
{
    if (!strcmp(v, "random") || !strcmp(v, "rand") || !strcmp(v, "rnd"))
        c->sequential = false;
    else if (!strcmp(v, "sequential") || !strcmp(v, "seq"))
        c->sequential = true;
    else
        return errf(why, whylen, "want random or sequential");
    return 0;
}

/* a partly random stimulus (Iometer's 80%); after pattern */
static int claim_random_pct(struct verify_claim *c, const char *v, char *why, size_t whylen)
{
    char *end;
    long n = strtol(v, &end, 10);
    if (end == v || *end || n < 1 || n > 99 || c->sequential)
        return errf(why, whylen, "want 1..99, the random share of a random pattern (100 is "
                                 "pattern = random, 0 sequential)");
    c->random_pct = (int)n;   /* 0 (unset): 100 for random, 0 for sequential */
    return 0;
}

static int claim_read_pct(struct verify_claim *c, const char *v, char *why, size_t whylen)
{
    double pct;
    if (units_parse_percent(v, &pct, why, whylen) != 0 || pct != floor(pct))
        return errf(why, whylen, "want a whole percentage 0..100 (100 read, 0 write)");
    c->read_pct = (int)pct;
    return 0;
}

static int claim_qd(struct verify_claim *c, const char *v, char *why, size_t whylen)
{
    uint64_t u;
    if (is_any(v))
        return 0;
    if (units_parse_uint(v, 1, 65536, &u, why, whylen) != 0)
        return errf(why, whylen, "want 1..65536 or unknown");
    c->qd = (unsigned)u;
    return 0;
}

static int claim_threads(struct verify_claim *c, const char *v, char *why, size_t whylen)
{
    uint64_t u;
    if (is_any(v))
        return 0;
    if (units_parse_uint(v, 1, 4096, &u, why, whylen) != 0)
        return errf(why, whylen, "want 1..4096 or unknown");
    c->threads = (unsigned)u;
    return 0;
}

static int claim_compress(struct verify_claim *c, const char *v, char *why, size_t whylen)
{
    double pct;
    if (is_any(v))
        return 0;
    if (units_parse_percent(v, &pct, why, whylen) != 0 || pct != floor(pct))
        return errf(why, whylen, "want a whole percentage 0..100 or any");
    c->compress_pct = (int)pct;
    return 0;
}

static int claim_state(struct verify_claim *c, const char *v, char *why, size_t whylen)
{
    if (is_any(v))
        return 0;
    if (!strcmp(v, "fob"))
        c->state = MEAS_STATE_FOB;
    else if (!strcmp(v, "steady"))
        c->state = MEAS_STATE_STEADY;
    else
        return errf(why, whylen, "want fob, steady or any");
    return 0;
}

static int claim_unwritten_reads(struct verify_claim *c, const char *v, char *why,
                                 size_t whylen)
{
    if (!strcmp(v, "yes"))
        c->unwritten_reads = true;
    else if (strcmp(v, "no"))
        return errf(why, whylen, "want yes or no");
    return 0;
}

/* per = TB: the figure is per TB of the target's capacity (after the figure: IOPS and
 * throughput only) */
static int claim_per(struct verify_claim *c, const char *v, char *why, size_t whylen)
{
    if (strcmp(v, "TB"))
        return errf(why, whylen, "want TB (the figure per TB of the target's capacity, decimal: "
                                 "10^12 bytes)");
    if (c->unit.kind == VERIFY_KIND_LATENCY)
        return errf(why, whylen, "a latency is not per TB of capacity (per = TB takes IOPS and "
                                 "throughput figures)");
    c->per_tb = true;
    return 0;
}

static int claim_source(struct verify_claim *c, const char *v, char *why, size_t whylen)
{
    (void)why, (void)whylen;
    str_copy(c->source, sizeof(c->source), v);
    return 0;
}

static int claim_note(struct verify_claim *c, const char *v, char *why, size_t whylen)
{
    (void)why, (void)whylen;
    str_copy(c->note, sizeof(c->note), v);
    return 0;
}

/* Every key a claim may hold, read in this order (random_pct after pattern; assumed after qd,
 * threads and compress, whose values it needs). */
static const struct claim_key {
    const char *key;
    bool required;
    claim_key_fn *parse;   /* NULL: read with the figure (parse_figure) */
} claim_keys[] = {
    {"metric", true, NULL},
    {"value", true, NULL},
    {"unit", false, NULL},
    {"per", false, claim_per},
    {"bs", true, claim_bs},
    {"pattern", true, claim_pattern},
    {"random_pct", false, claim_random_pct},
    {"read_pct", true, claim_read_pct},
    {"qd", false, claim_qd},
    {"threads", false, claim_threads},
    {"compress", false, claim_compress},
    {"state", false, claim_state},
    {"assumed", false, parse_assumed},
    {"unwritten_reads", false, claim_unwritten_reads},
    {"source", false, claim_source},
    {"note", false, claim_note},
};
#define N_CLAIM_KEYS (sizeof(claim_keys) / sizeof(claim_keys[0]))

static bool claim_key_known(const char *k)
{
    for (size_t i = 0; i < N_CLAIM_KEYS; i++)
        if (!strcmp(claim_keys[i].key, k))
            return true;
    return false;
}

/* The figure claimed: metric, value and unit (the value's own, the unit key's, else the
 * metric's), of one kind; the claimed figure in the kind's base unit. 0, or -1 with err. */
static int parse_figure(const char *path, const struct ini_section *s, struct verify_claim *c,
                        char *err, size_t errlen)
{
    char why[ERR_LEN];
    const struct ini_entry *e = ini_find(s, "metric");
    const char *dunit;
    if (verify_metric_parse(e->value, &c->metric, &dunit) != 0)
        return errf(err, errlen, "%s:%d: [%s] metric=%s: unknown metric (want iops, mb_s, "
                    "mib_s, lat_us, or a name such as read_iops, lat_p99_us)", path, e->line,
                    s->name, e->value);
    str_copy(c->metric_text, sizeof(c->metric_text), e->value);
    enum verify_kind kind = verify_metric_kind(c->metric);

    struct verify_unit vu;
    verify_unit_parse(dunit, &vu);
    bool has_unit = false;
    e = ini_find(s, "value");
    if (verify_parse_quantity(e->value, &c->value, &vu, &has_unit, why, sizeof(why)) != 0)
        return errf(err, errlen, "%s:%d: [%s] value: %s", path, e->line, s->name, why);
    if (!(c->value > 0))
        return errf(err, errlen, "%s:%d: [%s] value=%s: want a positive number", path, e->line,
                    s->name, e->value);
    const struct ini_entry *ue = ini_find(s, "unit");
    if (ue) {
        struct verify_unit u2;
        if (verify_unit_parse(ue->value, &u2) != 0)
            return errf(err, errlen, "%s:%d: [%s] unit=%s: unknown unit (want IOPS, K IOPS, "
                        "MB/s, MiB/s, GB/s, KB/s, KiB/s, us, ms, ...)", path, ue->line, s->name,
                        ue->value);
        if (has_unit && strcmp(u2.name, vu.name))
            return errf(err, errlen, "%s:%d: [%s] unit=%s but value=%s says %s", path, ue->line,
                        s->name, ue->value, e->value, vu.name);
        vu = u2;
    }
    if (vu.kind != kind)
        return errf(err, errlen, "%s:%d: [%s] metric %s is %s, unit %s is not", path, s->line,
                    s->name, c->metric_text,
                    kind == VERIFY_KIND_IOPS ? "an I/O rate (IOPS)"
                    : kind == VERIFY_KIND_THROUGHPUT ? "a throughput (MB/s)" : "a latency",
                    vu.name);
    c->unit = vu;
    c->claimed = verify_to_base(c->value, &vu);
    return 0;
}

/* One claim from its section: every key known (claim_keys, or more), the required ones there,
 * the figure, then each key's row in order. */
static int parse_claim(const struct ini_file *ini, const struct ini_section *s,
                       const char *const *more, struct verify_claim *c, char *err,
                       size_t errlen)
{
    memset(c, 0, sizeof(*c));
    str_copy(c->name, sizeof(c->name), s->name);
    c->line = s->line;
    c->compress_pct = -1;
    c->state = MEAS_STATE_UNKNOWN;
    const char *path = ini->path;

    for (size_t i = 0; i < s->n_entries; i++)
        if (!claim_key_known(s->entries[i].key) && !(more && key_known(more, s->entries[i].key)))
            return errf(err, errlen, "%s:%d: [%s] unknown key '%s' (want metric, value, unit, "
                        "per, bs, pattern, random_pct, read_pct, qd, threads, compress, state, "
                        "assumed, source, note)",
                        path, s->entries[i].line, s->name, s->entries[i].key);
    for (size_t i = 0; i < N_CLAIM_KEYS; i++)
        if (claim_keys[i].required && !ini_find(s, claim_keys[i].key))
            return errf(err, errlen, "%s:%d: [%s] no %s", path, s->line, s->name,
                        claim_keys[i].key);
    if (parse_figure(path, s, c, err, errlen) != 0)
        return -1;
    for (size_t i = 0; i < N_CLAIM_KEYS; i++) {
        const struct ini_entry *e = claim_keys[i].parse ? ini_find(s, claim_keys[i].key) : NULL;
        char why[ERR_LEN];
        if (e && claim_keys[i].parse(c, e->value, why, sizeof(why)) != 0)
            return bad_value(err, errlen, path, s, e, why);
    }
    return 0;
}

int verify_sheet_parse(const struct ini_file *ini, struct verify_sheet *out, char *err,
                       size_t errlen)
{
    return verify_sheet_parse_keys(ini, NULL, NULL, out, err, errlen);
}

int verify_sheet_parse_keys(const struct ini_file *ini, const char *const *more_global,
                            const char *const *more_claim, struct verify_sheet *out,
                            char *err, size_t errlen)
{
    memset(out, 0, sizeof(*out));
    str_copy(out->path, sizeof(out->path), ini->path ? ini->path : "");
    const char *base = strrchr(out->path, '/');
    str_copy(out->device, sizeof(out->device), base ? base + 1 : out->path);
    out->c = xcalloc(ini->n_sections ? ini->n_sections : 1, sizeof(*out->c));
    for (size_t i = 0; i < ini->n_sections; i++) {
        const struct ini_section *s = &ini->sections[i];
        if (!strcmp(s->name, "global")) {
            for (size_t j = 0; j < s->n_entries; j++)
                if (!key_known(global_keys, s->entries[j].key) &&
                    !(more_global && key_known(more_global, s->entries[j].key))) {
                    errf(err, errlen, "%s:%d: unknown key '%s' before the first claim (want "
                         "kind, device, vendor, model, reported_models, capacity, sim_preset, "
                         "form_factor, nand, source, note)",
                         ini->path, s->entries[j].line, s->entries[j].key);
                    goto fail;
                }
            if (parse_kind(ini, s, out, err, errlen) != 0 ||
                parse_drive(ini, s, out, err, errlen) != 0)
                goto fail;
            const struct ini_entry *e;
            if ((e = ini_find(s, "device")))
                str_copy(out->device, sizeof(out->device), e->value);
            if ((e = ini_find(s, "source")))
                str_copy(out->source, sizeof(out->source), e->value);
            if ((e = ini_find(s, "form_factor")))
                str_copy(out->form_factor, sizeof(out->form_factor), e->value);
            if ((e = ini_find(s, "nand")))
                str_copy(out->nand, sizeof(out->nand), e->value);
            continue;
        }
        /* the parser merges sections of one name: a key given twice is a repeated claim */
        for (size_t j = 0; j < s->n_entries; j++)
            for (size_t k = 0; k < j; k++)
                if (!strcmp(s->entries[j].key, s->entries[k].key)) {
                    errf(err, errlen, "%s:%d: [%s] %s given again (first on line %d): one "
                         "claim per section name", ini->path, s->entries[j].line, s->name,
                         s->entries[j].key, s->entries[k].line);
                    goto fail;
                }
        if (parse_claim(ini, s, more_claim, &out->c[out->n], err, errlen) != 0)
            goto fail;
        out->n++;
    }
    if (out->n == 0) {
        errf(err, errlen, "%s: no claims (one [section] per claim)", ini->path);
        goto fail;
    }
    for (size_t i = 0; i < out->n; i++)
        out->c[i].limit = out->requirements;   /* a purchaser's limits: no tolerance */
    return 0;
fail:
    verify_sheet_free(out);
    return -1;
}

int verify_sheet_load(const char *path, struct verify_sheet *out, char *err, size_t errlen)
{
    struct ini_file ini;
    memset(out, 0, sizeof(*out));
    if (ini_parse_file(path, &ini, err, errlen) != 0)
        return -1;
    int rc = verify_sheet_parse(&ini, out, err, errlen);
    ini_free(&ini);
    return rc;
}

void verify_sheet_free(struct verify_sheet *s)
{
    if (!s)
        return;
    free(s->c);
    s->c = NULL;
    s->n = 0;
}

/* ---- matching and verdicts ---- */

const char *verify_verdict_name(enum verify_verdict v)
{
    switch (v) {
    case VERIFY_PASS: return "pass";
    case VERIFY_FAIL: return "fail";
    default: return "no comparable measurement";
    }
}

static bool stated(const struct verify_claim *c, unsigned cond)
{
    return !(c->assumed & cond);
}

/* The matching steps of verify.h, in order: each says whether a point passes. */
static bool step_shape(const struct verify_claim *c, const struct meas_point *p)
{
    return p->bs == c->bs && p->read_pct == c->read_pct &&
           p->random_pct == (c->sequential ? 0 : c->random_pct > 0 ? c->random_pct : 100);
}

static bool step_figure(const struct verify_claim *c, const struct meas_point *p)
{
    /* a percentile the tail rule left out goes on to step_tail, the last */
    return isfinite(p->v[c->metric]) || meas_pct_short_of(p, c->metric);
}

static bool step_compress(const struct verify_claim *c, const struct meas_point *p)
{
    return c->compress_pct < 0 || !stated(c, VERIFY_COND_COMPRESS) ||
           p->compress_pct == c->compress_pct;
}

static bool step_oio(const struct verify_claim *c, const struct meas_point *p)
{
    bool t_ok = !c->threads || !stated(c, VERIFY_COND_THREADS) || p->workers == c->threads;
    bool q_ok = !c->qd || !stated(c, VERIFY_COND_QD) || p->qd == c->qd;
    return t_ok && q_ok;
}

static bool step_state(const struct verify_claim *c, const struct meas_point *p)
{
    switch (c->state) {
    case MEAS_STATE_STEADY: return p->state == MEAS_STATE_STEADY;
    case MEAS_STATE_FOB:   /* a burst: fresh, or right after WIPC; after the fast pass + WDPC
                              the drive is past its burst (issue 48) */
        return p->state == MEAS_STATE_FOB || (p->state == MEAS_STATE_WIPC && !p->after_fast);
    default: return true;
    }
}

/* A point whose reads went to never-written space measured no media: comparable only with a claim
 * whose own figure did the same (unwritten_reads = yes). */
static bool step_unwritten(const struct verify_claim *c, const struct meas_point *p)
{
    return !p->unwritten || c->unwritten_reads;
}

/* Last: a point that meets every condition but whose I/Os do not support the percentile. */
static bool step_tail(const struct verify_claim *c, const struct meas_point *p)
{
    return !meas_pct_short_of(p, c->metric);
}

static const struct {
    enum verify_why why;
    bool (*pass)(const struct verify_claim *c, const struct meas_point *p);
} verify_steps[] = {
    {VERIFY_WHY_SHAPE, step_shape},
    {VERIFY_WHY_FIGURE, step_figure},
    {VERIFY_WHY_COMPRESS, step_compress},
    {VERIFY_WHY_OIO, step_oio},
    {VERIFY_WHY_STATE, step_state},
    {VERIFY_WHY_UNWRITTEN, step_unwritten},
    {VERIFY_WHY_TAIL, step_tail},
};
#define N_STEPS (sizeof(verify_steps) / sizeof(verify_steps[0]))

/* How many steps a point passes, in order. */
static unsigned steps_passed(const struct verify_claim *c, const struct meas_point *p)
{
    unsigned k = 0;
    while (k < N_STEPS && verify_steps[k].pass(c, p))
        k++;
    return k;
}

/* The order among points: smaller is better, compared key by key. */
struct verify_rank {
    double key[4];   /* state preference, compressibility, outstanding I/O, per-condition sum */
};

static double log2_ratio(unsigned measured, unsigned claimed)
{
    return claimed && measured ? log2((double)measured / claimed) : 0;
}

/* State preference per claim state (rows: claim; columns: point, in enum meas_state order
 * unknown, fob, steady, wipc). Among comparable points only fob before wipc matters; the rest
 * picks the nearest point of a claim without one (a steady figure before WSAT's unknown for a
 * burst claim, so that it can be shown for reference). */
static const unsigned char state_pref[3][4] = {
    [MEAS_STATE_UNKNOWN] = {0, 0, 0, 0},
    [MEAS_STATE_FOB] = {3, 0, 2, 1},
    [MEAS_STATE_STEADY] = {3, 2, 0, 1},
};

static void rank_of(const struct verify_claim *c, const struct meas_point *p,
                    struct verify_rank *r)
{
    unsigned cs = (unsigned)c->state < 3 ? (unsigned)c->state : 0;
    r->key[0] = (unsigned)p->state < 4 ? state_pref[cs][p->state] : 3;
    r->key[1] = c->compress_pct < 0 || p->compress_pct == c->compress_pct ? 0
                : p->compress_pct < 0 ? 101 : fabs((double)p->compress_pct - c->compress_pct);
    double lt = log2_ratio(p->workers, c->threads), lq = log2_ratio(p->qd, c->qd);
    r->key[2] = fabs(lt + lq);
    r->key[3] = fabs(lt) + fabs(lq);
}

static bool rank_better(const struct verify_rank *a, const struct verify_rank *b)
{
    for (unsigned i = 0; i < 4; i++) {
        if (a->key[i] < b->key[i] - 1e-12)
            return true;
        if (a->key[i] > b->key[i] + 1e-12)
            return false;
    }
    return false;   /* equal: the earlier point stays */
}

static unsigned differs_on(const struct verify_claim *c, const struct meas_point *p)
{
    unsigned d = 0;
    if (c->threads && p->workers != c->threads)
        d |= VERIFY_COND_THREADS;
    if (c->qd && p->qd != c->qd)
        d |= VERIFY_COND_QD;
    if (c->compress_pct >= 0 && p->compress_pct != c->compress_pct)
        d |= VERIFY_COND_COMPRESS;
    return d;
}

void verify_match_claim(const struct verify_claim *c, const struct meas_point *pts, size_t n,
                        struct verify_match *m)
{
    memset(m, 0, sizeof(*m));
    const struct meas_point *best = NULL;
    struct verify_rank best_rank = {{0}};
    unsigned depth = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned k = steps_passed(c, &pts[i]);
        struct verify_rank r;
        rank_of(c, &pts[i], &r);
        if (!best || k > depth || (k == depth && rank_better(&r, &best_rank))) {
            best = &pts[i];
            best_rank = r;
            depth = k;
        }
    }
    if (best && depth == N_STEPS) {
        m->point = best;
        m->why = VERIFY_WHY_NONE;
        m->assumed_differs = differs_on(c, best);   /* stated ones all match here */
        m->exact = m->assumed_differs == 0;
        return;
    }
    m->why = verify_steps[best ? depth : 0].why;
    if (m->why >= VERIFY_WHY_COMPRESS)
        m->nearest = best;
}

bool verify_match_has_reference(const struct verify_claim *c, const struct verify_match *m)
{
    return !m->point && m->why == VERIFY_WHY_STATE && m->nearest && c->state == MEAS_STATE_FOB &&
           m->nearest->state == MEAS_STATE_STEADY;
}

/* "4x32", "QD 32", "4 threads", "1 thread" from the stated values (0: not stated) */
static void fmt_oio(unsigned threads, unsigned qd, char *buf, size_t len)
{
    if (threads && qd)
        snprintf(buf, len, "%ux%u", threads, qd);
    else if (qd)
        snprintf(buf, len, "QD %u", qd);
    else
        snprintf(buf, len, "%u thread%s", threads, threads == 1 ? "" : "s");
}

static void fmt_compress(int pct, char *buf, size_t len)
{
    if (pct < 0)
        snprintf(buf, len, "unknown");
    else
        snprintf(buf, len, "%d%%", pct);
}

void verify_match_reason(const struct verify_claim *c, const struct verify_match *m, char *buf,
                         size_t len)
{
    const struct meas_point *q = m->nearest;
    char a[64], b[64];
    buf[0] = '\0';
    switch (m->why) {
    case VERIFY_WHY_NONE:
        break;
    case VERIFY_WHY_SHAPE:
        if (c->bs)
            units_format_bs(c->bs, a, sizeof(a));
        else
            str_copy(a, sizeof(a), "mixed sizes");
        snprintf(buf, len, "no point at the claim's block size, pattern and read share (%s %s, "
                 "R/W %d/%d)", a, c->sequential ? "sequential" : "random", c->read_pct,
                 100 - c->read_pct);
        break;
    case VERIFY_WHY_FIGURE:
        snprintf(buf, len, "no %s figure at the claim's block size, pattern and read share",
                 meas_metric_name(c->metric));
        break;
    case VERIFY_WHY_COMPRESS:
        fmt_compress(q ? q->compress_pct : -1, a, sizeof(a));
        snprintf(buf, len, "compressibility differs: no point at %d%% (nearest: %s)",
                 c->compress_pct, a);
        break;
    case VERIFY_WHY_OIO:
        fmt_oio(stated(c, VERIFY_COND_THREADS) ? c->threads : 0,
                stated(c, VERIFY_COND_QD) ? c->qd : 0, a, sizeof(a));
        fmt_oio(q ? q->workers : 0, q ? q->qd : 0, b, sizeof(b));
        snprintf(buf, len, "no point at the claim's own threads x QD, %s (nearest: %s)", a, b);
        break;
    case VERIFY_WHY_STATE: {
        const char *ql = q ? meas_point_state_label(q) : meas_state_label(MEAS_STATE_UNKNOWN);
        bool qs = q && q->state == MEAS_STATE_STEADY;
        bool qf = q && q->state == MEAS_STATE_WIPC && q->after_fast;   /* neither: a transient */
        bool qb = q && (q->state == MEAS_STATE_FOB || q->state == MEAS_STATE_WIPC) && !qf;
        if (qf)
            snprintf(buf, len, "only data of a transient after the fast pass for a %s claim "
                     "(nearest: %s)", c->state == MEAS_STATE_STEADY ? "steady-state" : "burst", ql);
        else if (c->state == MEAS_STATE_STEADY && qb)
            snprintf(buf, len, "only burst data for a steady-state claim (nearest: %s)", ql);
        else if (c->state == MEAS_STATE_FOB && qs)
            snprintf(buf, len, "only steady-state data");
        else
            snprintf(buf, len, "only data of unknown drive state for a %s claim",
                     c->state == MEAS_STATE_STEADY ? "steady-state" : "burst");
        break;
    }
    case VERIFY_WHY_UNWRITTEN:
        snprintf(buf, len, "only measurements whose reads went to never-written space (the "
                 "device did not read its media)");
        break;
    case VERIFY_WHY_CAPACITY:
        snprintf(buf, len, "a figure per TB of capacity, and the results record no capacity");
        break;
    case VERIFY_WHY_TAIL: {
        char w[96];
        units_format_pct_long(q ? meas_pct_short_of(q, c->metric) : 0, w, sizeof(w));
        snprintf(buf, len, "%s: fewer than %d of the point's I/Os lie beyond it", w,
                 HIST_TAIL_MIN);
        break;
    }
    }
}

enum verify_verdict verify_judge(enum verify_kind kind, double claimed, double measured,
                                 double tolerance, double *ratio)
{
    if (ratio)
        *ratio = NAN;
    if (!isfinite(measured) || !isfinite(claimed) || claimed <= 0)
        return VERIFY_NO_COMPARABLE;
    bool ok;
    if (kind == VERIFY_KIND_LATENCY) {
        if (ratio)
            *ratio = measured > 0 ? claimed / measured : INFINITY;
        ok = measured <= (1 + tolerance) * claimed * (1 + VERIFY_EPSILON);
    } else {
        if (ratio)
            *ratio = measured / claimed;
        ok = measured >= (1 - tolerance) * claimed * (1 - VERIFY_EPSILON);
    }
    return ok ? VERIFY_PASS : VERIFY_FAIL;
}

/* Match and judge; capacity: of the matched point's target (set: looked up; NULL: unknown). */
static void check_in(const struct verify_claim *c, const struct meas_point *pts, size_t n,
                     const struct meas_set *set, double tolerance, struct verify_result *r)
{
    memset(r, 0, sizeof(*r));
    r->claim = c;
    verify_match_claim(c, pts, n, &r->match);
    r->measured = r->measured_base = r->ratio = r->reference = r->reference_base = NAN;
    r->capacity_tb = NAN;
    r->required = c->per_tb ? NAN : c->value;
    if (r->match.point && c->per_tb) {
        uint64_t cap = set ? verify_point_capacity(set, r->match.point) : 0;
        if (!cap) {
            r->match.why = VERIFY_WHY_CAPACITY;
            r->verdict = VERIFY_NO_COMPARABLE;
            return;
        }
        r->capacity_tb = (double)cap / 1e12;   /* decimal TB, as FioSynth's per-TB factor */
        r->required = c->value * r->capacity_tb;
    }
    if (!r->match.point) {
        r->verdict = VERIFY_NO_COMPARABLE;
        if (verify_match_has_reference(c, &r->match)) {
            r->reference_base = r->match.nearest->v[c->metric];
            r->reference = verify_from_base(r->reference_base, &c->unit);
        }
        return;
    }
    r->measured_base = r->match.point->v[c->metric];
    r->measured = verify_from_base(r->measured_base, &c->unit);
    r->verdict = verify_judge(c->unit.kind, r->required, r->measured, c->limit ? 0 : tolerance,
                              &r->ratio);
}

void verify_check(const struct verify_claim *c, const struct meas_point *pts, size_t n,
                  double tolerance, struct verify_result *r)
{
    check_in(c, pts, n, NULL, tolerance, r);
}

void verify_check_set(const struct verify_claim *c, const struct meas_set *set,
                      double tolerance, struct verify_result *r)
{
    check_in(c, set ? set->p : NULL, set ? set->n : 0, set, tolerance, r);
}

uint64_t verify_point_capacity(const struct meas_set *set, const struct meas_point *p)
{
    for (unsigned i = 0; set && i < set->n_targets; i++)
        if (!strcmp(set->targets[i].source, p->source))
            return set->targets[i].capacity;
    return 0;
}

void verify_claim_figure(const struct verify_claim *c, char *buf, size_t len)
{
    char num[64];
    units_format_figure(c->value, UNITS_FIG_VALUE, num, sizeof(num));
    snprintf(buf, len, "%s %s%s", num, c->unit.name, c->per_tb ? " per TB" : "");
}

/* ---- descriptions ---- */

const char *verify_claim_state_label(const struct verify_claim *c)
{
    switch (c->state) {
    case MEAS_STATE_STEADY: return "steady state";
    case MEAS_STATE_FOB: return "burst";
    default: return "any";
    }
}

void verify_assumed_names(unsigned conds, char *buf, size_t len)
{
    size_t o = 0;
    buf[0] = '\0';
    /* qd first, as the sheets write it */
    static const unsigned order[] = {VERIFY_COND_QD, VERIFY_COND_THREADS, VERIFY_COND_COMPRESS};
    for (size_t i = 0; i < sizeof(order) / sizeof(order[0]) && o < len; i++) {
        if (!(conds & order[i]))
            continue;
        for (size_t j = 0; j < N_CONDS; j++)
            if (verify_conds[j].cond == order[i]) {
                int w = snprintf(buf + o, len - o, "%s%s", o ? ", " : "", verify_conds[j].name);
                o += w > 0 ? (size_t)w : 0;
            }
    }
}

void verify_claim_conditions(const struct verify_claim *c, char *buf, size_t len)
{
    char bs[32], oio[64] = "", comp[48] = "", state[32] = "";
    if (c->bs)
        units_format_bs(c->bs, bs, sizeof(bs));
    else
        str_copy(bs, sizeof(bs), "mixed sizes");
    if (c->threads || c->qd) {
        char o[32];
        fmt_oio(c->threads, c->qd, o, sizeof(o));
        snprintf(oio, sizeof(oio), ", %s%s", o,
                 c->assumed & (VERIFY_COND_THREADS | VERIFY_COND_QD) ? " (assumed)" : "");
    }
    if (c->state != MEAS_STATE_UNKNOWN)
        snprintf(state, sizeof(state), ", %s", verify_claim_state_label(c));
    if (c->compress_pct >= 0)
        snprintf(comp, sizeof(comp), ", compress %d%%%s", c->compress_pct,
                 c->assumed & VERIFY_COND_COMPRESS ? " (assumed)" : "");
    char pat[32];
    if (c->random_pct > 0 && c->random_pct < 100)
        snprintf(pat, sizeof(pat), "%d%% random", c->random_pct);
    else
        str_copy(pat, sizeof(pat), c->sequential ? "sequential" : "random");
    snprintf(buf, len, "%s %s, R/W %d/%d%s%s%s", bs, pat,
             c->read_pct, 100 - c->read_pct, oio, state, comp);
}

void verify_match_differences(const struct verify_claim *c, const struct verify_match *m,
                              char *buf, size_t len)
{
    buf[0] = '\0';
    const struct meas_point *p = m->point;
    if (!p || !m->assumed_differs)
        return;
    size_t o = 0;
    if (m->assumed_differs & (VERIFY_COND_THREADS | VERIFY_COND_QD)) {
        char pm[32], cl[32];
        fmt_oio(c->threads ? p->workers : 0, c->qd ? p->qd : 0, pm, sizeof(pm));
        fmt_oio(c->threads, c->qd, cl, sizeof(cl));
        int w = snprintf(buf, len, "%s (assumed %s)", pm, cl);
        o = w > 0 ? (size_t)w : 0;
    }
    if ((m->assumed_differs & VERIFY_COND_COMPRESS) && o < len) {
        char pc[16];
        fmt_compress(p->compress_pct, pc, sizeof(pc));
        snprintf(buf + o, len - o, "%scompress %s (assumed %d%%)", o ? ", " : "", pc,
                 c->compress_pct);
    }
}
