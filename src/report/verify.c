/* verify.c — vendor spec sheets against measured points (see verify.h for the syntax, the
 * matching rule and the verdict). */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ini.h"
#include "units.h"
#include "util.h"
#include "verify.h"

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

static const char *const claim_keys[] = {"metric", "value", "unit", "bs", "pattern", "read_pct",
                                         "qd", "threads", "compress", "state", "source", "note",
                                         NULL};
static const char *const global_keys[] = {"device", "vendor", "model", "capacity", "source",
                                          "note", NULL};

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

/* One claim from its section. */
static int parse_claim(const struct ini_file *ini, const struct ini_section *s,
                       struct verify_claim *c, char *err, size_t errlen)
{
    memset(c, 0, sizeof(*c));
    str_copy(c->name, sizeof(c->name), s->name);
    c->line = s->line;
    c->compress_pct = -1;
    c->state = MEAS_STATE_UNKNOWN;
    char why[ERR_LEN];
    const char *path = ini->path;

    for (size_t i = 0; i < s->n_entries; i++)
        if (!key_known(claim_keys, s->entries[i].key))
            return errf(err, errlen, "%s:%d: [%s] unknown key '%s' (want metric, value, unit, "
                        "bs, pattern, read_pct, qd, threads, compress, state, source, note)",
                        path, s->entries[i].line, s->name, s->entries[i].key);
    static const char *const required[] = {"metric", "value", "bs", "pattern", "read_pct"};
    for (size_t i = 0; i < sizeof(required) / sizeof(required[0]); i++)
        if (!ini_find(s, required[i]))
            return errf(err, errlen, "%s:%d: [%s] no %s", path, s->line, s->name, required[i]);

#define BAD(e, why) bad_value(err, errlen, path, s, (e), (why))

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

    e = ini_find(s, "bs");
    if (verify_parse_bs(e->value, &c->bs, why, sizeof(why)) != 0)
        return BAD(e, why);

    e = ini_find(s, "pattern");
    if (!strcmp(e->value, "random") || !strcmp(e->value, "rand") || !strcmp(e->value, "rnd"))
        c->sequential = false;
    else if (!strcmp(e->value, "sequential") || !strcmp(e->value, "seq"))
        c->sequential = true;
    else
        return BAD(e, "want random or sequential");

    double pct;
    e = ini_find(s, "read_pct");
    if (units_parse_percent(e->value, &pct, why, sizeof(why)) != 0 || pct != floor(pct))
        return BAD(e, "want a whole percentage 0..100 (100 read, 0 write)");
    c->read_pct = (int)pct;

    uint64_t u;
    if ((e = ini_find(s, "qd")) && !is_any(e->value)) {
        if (units_parse_uint(e->value, 1, 65536, &u, why, sizeof(why)) != 0)
            return BAD(e, "want 1..65536 or unknown");
        c->qd = (unsigned)u;
    }
    if ((e = ini_find(s, "threads")) && !is_any(e->value)) {
        if (units_parse_uint(e->value, 1, 4096, &u, why, sizeof(why)) != 0)
            return BAD(e, "want 1..4096 or unknown");
        c->threads = (unsigned)u;
    }
    if ((e = ini_find(s, "compress")) && !is_any(e->value)) {
        if (units_parse_percent(e->value, &pct, why, sizeof(why)) != 0 || pct != floor(pct))
            return BAD(e, "want a whole percentage 0..100 or any");
        c->compress_pct = (int)pct;
    }
    if ((e = ini_find(s, "state")) && !is_any(e->value)) {
        if (!strcmp(e->value, "fob"))
            c->state = MEAS_STATE_FOB;
        else if (!strcmp(e->value, "steady"))
            c->state = MEAS_STATE_STEADY;
        else
            return BAD(e, "want fob, steady or any");
    }
#undef BAD
    if ((e = ini_find(s, "source")))
        str_copy(c->source, sizeof(c->source), e->value);
    if ((e = ini_find(s, "note")))
        str_copy(c->note, sizeof(c->note), e->value);
    return 0;
}

int verify_sheet_parse(const struct ini_file *ini, struct verify_sheet *out, char *err,
                       size_t errlen)
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
                if (!key_known(global_keys, s->entries[j].key)) {
                    errf(err, errlen, "%s:%d: unknown key '%s' before the first claim (want "
                         "device, vendor, model, capacity, source, note)", ini->path,
                         s->entries[j].line, s->entries[j].key);
                    goto fail;
                }
            const struct ini_entry *e;
            if ((e = ini_find(s, "device")))
                str_copy(out->device, sizeof(out->device), e->value);
            if ((e = ini_find(s, "source")))
                str_copy(out->source, sizeof(out->source), e->value);
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
        if (parse_claim(ini, s, &out->c[out->n], err, errlen) != 0)
            goto fail;
        out->n++;
    }
    if (out->n == 0) {
        errf(err, errlen, "%s: no claims (one [section] per claim)", ini->path);
        goto fail;
    }
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
    default: return "no data";
    }
}

void verify_match_claim(const struct verify_claim *c, const struct meas_point *pts, size_t n,
                        struct verify_match *m)
{
    memset(m, 0, sizeof(*m));
    double claim_oio = (double)c->threads * c->qd;
    int best_mism = 0;
    double best_cdist = 0, best_odist = 0;
    for (size_t i = 0; i < n; i++) {
        const struct meas_point *p = &pts[i];
        if (p->bs == 0 || p->bs != c->bs || p->read_pct != c->read_pct)
            continue;
        if (c->sequential ? p->random_pct != 0 : p->random_pct != 100)
            continue;
        if (!isfinite(p->v[c->metric]))
            continue;
        bool cd = c->compress_pct >= 0 && p->compress_pct != c->compress_pct;
        bool sd = c->state != MEAS_STATE_UNKNOWN && p->state != c->state;
        int mism = (int)cd + (int)sd;
        double cdist = !cd ? 0
                       : p->compress_pct < 0 ? 101
                                             : fabs((double)p->compress_pct - c->compress_pct);
        double oio = (double)p->workers * p->qd;
        double odist = claim_oio > 0 && oio > 0 ? fabs(log2(oio / claim_oio)) : 0;
        bool better = !m->point || mism < best_mism ||
                      (mism == best_mism && (cdist < best_cdist ||
                                             (cdist == best_cdist && odist < best_odist - 1e-12)));
        if (better) {
            m->point = p;
            m->compress_differs = cd;
            m->state_differs = sd;
            m->exact = mism == 0;
            best_mism = mism;
            best_cdist = cdist;
            best_odist = odist;
        }
    }
}

enum verify_verdict verify_judge(enum verify_kind kind, double claimed, double measured,
                                 double tolerance, double *ratio)
{
    if (ratio)
        *ratio = NAN;
    if (!isfinite(measured) || !isfinite(claimed) || claimed <= 0)
        return VERIFY_NO_DATA;
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

void verify_check(const struct verify_claim *c, const struct meas_point *pts, size_t n,
                  double tolerance, struct verify_result *r)
{
    memset(r, 0, sizeof(*r));
    r->claim = c;
    verify_match_claim(c, pts, n, &r->match);
    r->measured = r->measured_base = r->ratio = NAN;
    if (!r->match.point) {
        r->verdict = VERIFY_NO_DATA;
        return;
    }
    r->measured_base = r->match.point->v[c->metric];
    r->measured = verify_from_base(r->measured_base, &c->unit);
    r->verdict = verify_judge(c->unit.kind, c->value, r->measured, tolerance, &r->ratio);
}

/* ---- descriptions ---- */

static void fmt_bs(uint32_t bs, char *buf, size_t len)
{
    if (bs % 1048576 == 0)
        snprintf(buf, len, "%u MiB", bs / 1048576);
    else if (bs % 1024 == 0)
        snprintf(buf, len, "%u KiB", bs / 1024);
    else if (bs == 512)
        snprintf(buf, len, "0.5 KiB");
    else
        snprintf(buf, len, "%u B", bs);
}

void verify_claim_conditions(const struct verify_claim *c, char *buf, size_t len)
{
    char bs[32], oio[48] = "", comp[32] = "", state[16] = "";
    fmt_bs(c->bs, bs, sizeof(bs));
    if (c->threads && c->qd)
        snprintf(oio, sizeof(oio), ", %ux%u", c->threads, c->qd);
    else if (c->qd)
        snprintf(oio, sizeof(oio), ", QD %u", c->qd);
    else if (c->threads)
        snprintf(oio, sizeof(oio), ", %u threads", c->threads);
    if (c->state != MEAS_STATE_UNKNOWN)
        snprintf(state, sizeof(state), ", %s", meas_state_name(c->state));
    if (c->compress_pct >= 0)
        snprintf(comp, sizeof(comp), ", compress %d%%", c->compress_pct);
    snprintf(buf, len, "%s %s, R/W %d/%d%s%s%s", bs, c->sequential ? "sequential" : "random",
             c->read_pct, 100 - c->read_pct, oio, state, comp);
}

void verify_match_differences(const struct verify_claim *c, const struct verify_match *m,
                              char *buf, size_t len)
{
    buf[0] = '\0';
    if (!m->point)
        return;
    size_t o = 0;
    if (m->compress_differs) {
        char pc[16];
        if (m->point->compress_pct < 0)
            snprintf(pc, sizeof(pc), "unknown");
        else
            snprintf(pc, sizeof(pc), "%d%%", m->point->compress_pct);
        int w = snprintf(buf, len, "compress %s (claimed %d%%)", pc, c->compress_pct);
        o = w > 0 ? (size_t)w : 0;
    }
    if (m->state_differs && o < len)
        snprintf(buf + o, len - o, "%sstate %s (claimed %s)", o ? ", " : "",
                 meas_state_name(m->point->state), meas_state_name(c->state));
}
