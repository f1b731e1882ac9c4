/* gate.c — the CI performance gate's verdicts and its text and JSON reports (rules in gate.h). */
#include "judge/gate.h"

#include "core/results.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <libgen.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/file.h"
#include "lib/units.h"
#include "lib/util.h"

const enum meas_metric GATE_DEFAULT_METRICS[4] = {MEAS_IOPS, MEAS_MB_S, MEAS_LAT_MEAN_US,
                                                  MEAS_LAT_P99_US};

static const char *const verdict_names[GATE_N_VERDICTS] = {
    [GATE_PASS] = "pass",           [GATE_WARN] = "warn",       [GATE_IMPROVED] = "improved",
    [GATE_REGRESSION] = "regression", [GATE_MISSING] = "missing", [GATE_NEW] = "new",
    [GATE_SHORT] = "not_enough_ios",
};

const char *gate_verdict_name(enum gate_verdict v)
{
    return (unsigned)v < GATE_N_VERDICTS ? verdict_names[v] : "?";
}

bool gate_verdict_fails(enum gate_verdict v)
{
    return v == GATE_REGRESSION || v == GATE_MISSING;
}

static double spread_or_zero(double s)
{
    return s > 0 ? s : 0;   /* NAN and negatives: no known noise */
}

double gate_noise_band(double spread_base, double spread_cur)
{
    return fmax(spread_or_zero(spread_base), spread_or_zero(spread_cur));
}

static bool exceeds(double x, double limit)
{
    return x > limit + GATE_EPSILON;
}

enum gate_verdict gate_compare(double base, double cur, double spread_base, double spread_cur,
                               double tolerance, bool lower_is_better, double *change,
                               double *noise)
{
    double ch = NAN, nb = NAN;
    enum gate_verdict v;
    bool have_b = isfinite(base), have_c = isfinite(cur);
    if (have_b && !have_c)
        v = GATE_MISSING;
    else if (!have_b && have_c)
        v = GATE_NEW;
    else if (!have_b)
        v = GATE_PASS;
    else {
        if (base != 0)
            ch = (cur - base) / fabs(base);
        else
            ch = cur == base ? 0.0 : copysign(INFINITY, cur - base);
        nb = gate_noise_band(spread_base, spread_cur);
        double mag = fabs(ch);
        bool bad = lower_is_better ? ch > 0 : ch < 0;
        if (!exceeds(mag, tolerance))
            v = GATE_PASS;
        else if (!exceeds(mag, nb))
            v = bad ? GATE_WARN : GATE_PASS;
        else
            v = bad ? GATE_REGRESSION : GATE_IMPROVED;
    }
    if (change)
        *change = ch;
    if (noise)
        *noise = nb;
    return v;
}

int gate_parse_tolerance(const char *s, double *out, char *err, size_t errlen)
{
    const char *p = s;
    while (isspace((unsigned char)*p))
        p++;
    if (!isdigit((unsigned char)*p) && *p != '.')
        return errf(err, errlen, "want a percentage such as 5%% or 2.5");
    char *end;
    errno = 0;
    double v = strtod(p, &end);
    if (end == p || errno != 0 || !isfinite(v))
        return errf(err, errlen, "want a percentage such as 5%% or 2.5");
    if (*end == '%')
        end++;
    while (isspace((unsigned char)*end))
        end++;
    if (*end != '\0')
        return errf(err, errlen, "want a percentage such as 5%% or 2.5");
    if (v > 1000)
        return errf(err, errlen, "at most 1000%%");
    *out = v / 100.0;
    return 0;
}

int gate_parse_metrics(const char *s, enum meas_metric out[MEAS_N], char *err, size_t errlen)
{
    char buf[1024];
    if (strlen(s) >= sizeof(buf))
        return errf(err, errlen, "list too long");
    str_copy(buf, sizeof(buf), s);
    int n = 0;
    char *save = NULL;
    for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        char *name = str_trim(tok);
        if (!*name)
            continue;
        if (!strcmp(name, "all")) {
            for (int m = 0; m < MEAS_N; m++)
                out[m] = (enum meas_metric)m;
            return MEAS_N;
        }
        enum meas_metric m;
        if (meas_metric_parse(name, &m) != 0) {
            char known[512] = "";
            for (int k = 0; k < MEAS_N; k++) {
                size_t l = strlen(known);
                snprintf(known + l, sizeof(known) - l, "%s%s", k ? ", " : "",
                         meas_metric_name((enum meas_metric)k));
            }
            return errf(err, errlen, "unknown metric '%s' (known: %s, or all)", name,
                        known);
        }
        bool dup = false;
        for (int k = 0; k < n; k++)
            dup |= out[k] == m;
        if (!dup)
            out[n++] = m;
    }
    if (n == 0)
        return errf(err, errlen, "no metric named");
    return n;
}

/* Index of the first point with this key, or -1. */
static long find_first(const struct meas_set *s, const char *key, size_t before)
{
    for (size_t i = 0; i < s->n && i < before; i++)
        if (!strcmp(s->p[i].key, key))
            return (long)i;
    return -1;
}

static void add_case(struct gate_result *r, const struct meas_point *b, const struct meas_point *c,
                     enum meas_metric m)
{
    double bv = b ? b->v[m] : NAN, cv = c ? c->v[m] : NAN;
    const uint64_t bs = b ? meas_pct_short_of(b, m) : 0, cs = c ? meas_pct_short_of(c, m) : 0;
    if (!isfinite(bv) && !isfinite(cv) && !bs && !cs)
        return;   /* the metric does not apply to this point */
    struct gate_case *gc = &r->c[r->n++];
    memset(gc, 0, sizeof(*gc));
    const struct meas_point *id = b ? b : c;
    str_copy(gc->key, sizeof(gc->key), id->key);
    str_copy(gc->label, sizeof(gc->label), id->label[0] ? id->label : id->key);
    gc->metric = m;
    gc->lower_is_better = meas_lower_is_better(m);
    gc->base = isfinite(bv) ? bv : NAN;
    gc->cur = isfinite(cv) ? cv : NAN;
    gc->base_spread = b ? b->spread[m] : NAN;
    gc->cur_spread = c ? c->spread[m] : NAN;
    gc->base_rounds = b ? b->rounds : 0;
    gc->cur_rounds = c ? c->rounds : 0;
    gc->verdict = gate_compare(gc->base, gc->cur, gc->base_spread, gc->cur_spread, r->tolerance,
                               gc->lower_is_better, &gc->change, &gc->noise);
    gc->base_short_of = bs;
    gc->cur_short_of = cs;
    if (bs || cs) {   /* not enough I/Os on a side: nothing to compare, no verdict either way */
        gc->verdict = GATE_SHORT;
        gc->change = gc->noise = NAN;
    }
    r->count[gc->verdict]++;
    if (isfinite(gc->base))
        r->compared++;
    if (gate_verdict_fails(gc->verdict))
        r->failed = true;
}

int gate_run(const struct meas_set *base, const struct meas_set *cur,
             const struct gate_options *o, struct gate_result *r)
{
    memset(r, 0, sizeof(*r));
    r->tolerance = o->tolerance;
    const enum meas_metric *ms = o->metrics ? o->metrics : GATE_DEFAULT_METRICS;
    size_t nm = o->metrics ? o->n_metrics : sizeof(GATE_DEFAULT_METRICS) / sizeof(ms[0]);
    if (nm > MEAS_N)
        nm = MEAS_N;
    memcpy(r->metrics, ms, nm * sizeof(*ms));
    r->n_metrics = nm;
    str_copy(r->baseline_path, sizeof(r->baseline_path), o->baseline_path ? o->baseline_path : "");
    str_copy(r->current_path, sizeof(r->current_path), o->current_path ? o->current_path : "");
    /* a simulated drive's figures are the model's: say so wherever they are shown */
    snprintf(r->baseline_device, sizeof(r->baseline_device), "%.200s%s", base->device,
             base->simulated ? ", simulated drive" : "");
    snprintf(r->current_device, sizeof(r->current_device), "%.200s%s", cur->device,
             cur->simulated ? ", simulated drive" : "");
    size_t cap = (base->n + cur->n) * nm;
    r->c = xcalloc(cap ? cap : 1, sizeof(*r->c));

    for (size_t i = 0; i < base->n; i++) {
        const struct meas_point *b = &base->p[i];
        if (find_first(base, b->key, i) >= 0) {
            r->dup_baseline++;
            continue;
        }
        long j = find_first(cur, b->key, cur->n);
        const struct meas_point *c = j >= 0 ? &cur->p[j] : NULL;
        for (size_t k = 0; k < nm; k++)
            add_case(r, b, c, r->metrics[k]);
    }
    for (size_t i = 0; i < cur->n; i++) {
        const struct meas_point *c = &cur->p[i];
        if (find_first(cur, c->key, i) >= 0) {
            r->dup_current++;
            continue;
        }
        if (find_first(base, c->key, base->n) >= 0)
            continue;
        for (size_t k = 0; k < nm; k++)
            add_case(r, NULL, c, r->metrics[k]);
    }
    return 0;
}

void gate_result_free(struct gate_result *r)
{
    free(r->c);
    r->c = NULL;
    r->n = 0;
}

/* A figure for people in its metric's kind (units_format_figure); "-" when not measured. */
static const char *fmt_value(double v, enum meas_metric m, char *buf, size_t len)
{
    if (!isfinite(v))
        snprintf(buf, len, "-");
    else
        units_format_figure(v, metrics_figure_kind(meas_metric_name(m)), buf, len);
    return buf;
}

/* A change or a band (a fraction) as a percentage, "+" on a change that is not negative. */
static const char *fmt_pct(double frac, bool sign, char *buf, size_t len)
{
    char p[64];
    if (isnan(frac))
        snprintf(buf, len, "-");
    else if (isinf(frac))
        snprintf(buf, len, "%sinf%%", frac > 0 ? "+" : "-");
    else {
        units_format_figure(frac * 100.0, UNITS_FIG_PCT, p, sizeof(p));
        snprintf(buf, len, "%s%s", sign && p[0] != '-' ? "+" : "", p);
    }
    return buf;
}

/* The tolerance as given (0.5%, 5.00%, 1,000%): a plain value, not rounded to one decimal. */
static const char *fmt_tol(double frac, char *buf, size_t len)
{
    char p[64];
    units_format_figure(frac * 100.0, UNITS_FIG_VALUE, p, sizeof(p));
    snprintf(buf, len, "%s%%", p);
    return buf;
}

void gate_case_message(const struct gate_case *c, double tolerance, char *buf, size_t len)
{
    const char *name = meas_metric_name(c->metric);
    char b[64], v[64], ch[64], t[64], nb[64];
    fmt_value(c->base, c->metric, b, sizeof(b));
    fmt_value(c->cur, c->metric, v, sizeof(v));
    fmt_pct(c->change, true, ch, sizeof(ch));
    fmt_tol(tolerance, t, sizeof(t));
    fmt_pct(c->noise, false, nb, sizeof(nb));
    const char *dir = c->lower_is_better ? "lower is better" : "higher is better";
    switch (c->verdict) {
    case GATE_MISSING:
        snprintf(buf, len, "%s %s in the baseline, not measured in current", name, b);
        break;
    case GATE_NEW:
        snprintf(buf, len, "%s %s in current, not in the baseline", name, v);
        break;
    case GATE_SHORT: {
        char w[96];
        units_format_pct_long(c->cur_short_of ? c->cur_short_of : c->base_short_of, w,
                              sizeof(w));
        snprintf(buf, len, "%s: %s in %s (baseline %s, current %s): not compared", name, w,
                 c->cur_short_of && c->base_short_of ? "both" : c->cur_short_of ? "current"
                                                                                : "the baseline",
                 b, v);
        break;
    }
    case GATE_REGRESSION:
        snprintf(buf, len, "%s %s -> %s (%s, %s): regression beyond the tolerance %s and the "
                 "noise band %s", name, b, v, ch, dir, t, nb);
        break;
    case GATE_WARN:
        snprintf(buf, len, "%s %s -> %s (%s, %s): beyond the tolerance %s but inside the noise "
                 "band %s, so not called a regression", name, b, v, ch, dir, t, nb);
        break;
    case GATE_IMPROVED:
        snprintf(buf, len, "%s %s -> %s (%s, %s): improvement beyond the tolerance %s and the "
                 "noise band %s", name, b, v, ch, dir, t, nb);
        break;
    default:
        snprintf(buf, len, "%s %s -> %s (%s, %s): within the tolerance %s or the noise band %s",
                 name, b, v, ch, dir, t, nb);
        break;
    }
}

/* Display width of UTF-8 text: code points, not bytes. */
static size_t text_width(const char *s)
{
    size_t w = 0;
    for (; *s; s++)
        if (((unsigned char)*s & 0xC0) != 0x80)
            w++;
    return w;
}

static void pad(FILE *f, const char *s, size_t width)
{
    fputs(s, f);
    for (size_t w = text_width(s); w < width; w++)
        fputc(' ', f);
}

static const char *verdict_shout(enum gate_verdict v)
{
    switch (v) {
    case GATE_WARN: return "WARN (noise)";
    case GATE_REGRESSION: return "REGRESSION";
    case GATE_MISSING: return "MISSING";
    case GATE_SHORT: return "not enough I/Os";
    default: return gate_verdict_name(v);
    }
}

static void metrics_list(const struct gate_result *r, char *buf, size_t len)
{
    buf[0] = '\0';
    for (size_t k = 0; k < r->n_metrics; k++) {
        size_t l = strlen(buf);
        snprintf(buf + l, len - l, "%s%s", k ? "," : "", meas_metric_name(r->metrics[k]));
    }
}

void gate_write_text(FILE *f, const struct gate_result *r, bool only_changes)
{
    char ms[512], t[64];
    metrics_list(r, ms, sizeof(ms));
    fprintf(f, "baseline:  %s%s%s%s\n", r->baseline_path, r->baseline_device[0] ? " (" : "",
            r->baseline_device, r->baseline_device[0] ? ")" : "");
    fprintf(f, "current:   %s%s%s%s\n", r->current_path, r->current_device[0] ? " (" : "",
            r->current_device, r->current_device[0] ? ")" : "");
    fprintf(f, "tolerance: %s; noise band: the larger round-to-round spread (max-min)/mean of the "
            "two steady-state windows; metrics: %s\n\n", fmt_tol(r->tolerance, t, sizeof(t)), ms);

    size_t wl = strlen("POINT"), wm = strlen("METRIC");
    for (size_t i = 0; i < r->n; i++) {
        const struct gate_case *c = &r->c[i];
        if (only_changes && c->verdict == GATE_PASS)
            continue;
        size_t w = text_width(c->label);
        if (w > wl)
            wl = w;
        w = strlen(meas_metric_name(c->metric));
        if (w > wm)
            wm = w;
    }
    if (wl > 72)
        wl = 72;
    pad(f, "POINT", wl);
    fputs("  ", f);
    pad(f, "METRIC", wm);
    fprintf(f, "  %12s  %12s  %9s  %8s  %s\n", "BASELINE", "CURRENT", "CHANGE", "NOISE",
            "VERDICT");
    size_t shown = 0;
    for (size_t i = 0; i < r->n; i++) {
        const struct gate_case *c = &r->c[i];
        if (only_changes && c->verdict == GATE_PASS)
            continue;
        char b[64], v[64], ch[64], nb[64];
        bool no_noise = isnan(c->base_spread) && isnan(c->cur_spread);
        pad(f, c->label, wl);
        fputs("  ", f);
        pad(f, meas_metric_name(c->metric), wm);
        fprintf(f, "  %12s  %12s  %9s  %8s  %s\n", fmt_value(c->base, c->metric, b, sizeof(b)),
                fmt_value(c->cur, c->metric, v, sizeof(v)),
                fmt_pct(c->change, true, ch, sizeof(ch)),
                no_noise ? "-" : fmt_pct(c->noise, false, nb, sizeof(nb)),
                verdict_shout(c->verdict));
        shown++;
    }
    if (only_changes && shown == 0)
        fputs("(every case passed within the tolerance)\n", f);
    fputc('\n', f);
    char sh[96] = "";   /* only when a percentile lacked the I/Os (the tail rule) */
    if (r->count[GATE_SHORT])
        snprintf(sh, sizeof(sh), ", %zu not compared (not enough I/Os for the percentile)",
                 r->count[GATE_SHORT]);
    fprintf(f, "gate: %s: %zu regression%s, %zu missing; %zu warning%s (inside the noise band), "
            "%zu improved, %zu pass, %zu new%s; %zu case%s, tolerance %s\n",
            r->failed ? "FAIL" : "PASS", r->count[GATE_REGRESSION],
            r->count[GATE_REGRESSION] == 1 ? "" : "s", r->count[GATE_MISSING],
            r->count[GATE_WARN], r->count[GATE_WARN] == 1 ? "" : "s", r->count[GATE_IMPROVED],
            r->count[GATE_PASS], r->count[GATE_NEW], sh, r->n, r->n == 1 ? "" : "s",
            fmt_tol(r->tolerance, t, sizeof(t)));
    if (r->dup_baseline || r->dup_current)
        fprintf(f, "note: repeated point keys compared once (first occurrence): %zu in the "
                "baseline, %zu in current\n", r->dup_baseline, r->dup_current);
}

static struct json_object *num_or_null(double v)
{
    return isfinite(v) ? json_object_new_double(v) : NULL;
}

static struct json_object *pct_or_null(double frac)
{
    return isfinite(frac) ? json_object_new_double(frac * 100.0) : NULL;
}

struct json_object *gate_json(const struct gate_result *r)
{
    struct json_object *doc = json_object_new_object();
    char now[64];
    iso8601_now(now, sizeof(now));
    json_object_object_add(doc, "schema", json_object_new_string(GATE_SCHEMA));
    json_object_object_add(doc, "schema_version", json_object_new_int(GATE_SCHEMA_VERSION));
    json_object_object_add(doc, "ptsbench_version", json_object_new_string(PTSBENCH_VERSION));
    json_object_object_add(doc, "generated", json_object_new_string(now));
    json_object_object_add(doc, "verdict", json_object_new_string(r->failed ? "fail" : "pass"));
    json_object_object_add(doc, "tolerance_pct", json_object_new_double(r->tolerance * 100.0));
    struct json_object *ms = json_object_new_array();
    for (size_t k = 0; k < r->n_metrics; k++)
        json_object_array_add(ms, json_object_new_string(meas_metric_name(r->metrics[k])));
    json_object_object_add(doc, "metrics", ms);
    json_object_object_add(doc, "rule", json_object_new_string(GATE_NOISE_RULE));
    const char *paths[2] = {r->baseline_path, r->current_path};
    const char *devs[2] = {r->baseline_device, r->current_device};
    const char *names[2] = {"baseline", "current"};
    for (int s = 0; s < 2; s++) {
        struct json_object *o = json_object_new_object();
        json_object_object_add(o, "path", json_object_new_string(paths[s]));
        json_object_object_add(o, "device", json_object_new_string(devs[s]));
        json_object_object_add(doc, names[s], o);
    }
    struct json_object *sum = json_object_new_object();
    json_object_object_add(sum, "cases", json_object_new_int64((int64_t)r->n));
    json_object_object_add(sum, "compared", json_object_new_int64((int64_t)r->compared));
    for (int v = 0; v < GATE_N_VERDICTS; v++)
        json_object_object_add(sum, gate_verdict_name((enum gate_verdict)v),
                               json_object_new_int64((int64_t)r->count[v]));
    json_object_object_add(sum, "duplicate_keys_baseline",
                           json_object_new_int64((int64_t)r->dup_baseline));
    json_object_object_add(sum, "duplicate_keys_current",
                           json_object_new_int64((int64_t)r->dup_current));
    json_object_object_add(doc, "summary", sum);
    struct json_object *cases = json_object_new_array();
    for (size_t i = 0; i < r->n; i++) {
        const struct gate_case *c = &r->c[i];
        struct json_object *o = json_object_new_object();
        char msg[1024];
        gate_case_message(c, r->tolerance, msg, sizeof(msg));
        json_object_object_add(o, "key", json_object_new_string(c->key));
        json_object_object_add(o, "label", json_object_new_string(c->label));
        json_object_object_add(o, "metric", json_object_new_string(meas_metric_name(c->metric)));
        json_object_object_add(o, "lower_is_better", json_object_new_boolean(c->lower_is_better));
        json_object_object_add(o, "baseline", num_or_null(c->base));
        json_object_object_add(o, "current", num_or_null(c->cur));
        json_object_object_add(o, "change_pct", pct_or_null(c->change));
        json_object_object_add(o, "noise_pct", pct_or_null(c->noise));
        json_object_object_add(o, "baseline_spread_pct", pct_or_null(c->base_spread));
        json_object_object_add(o, "current_spread_pct", pct_or_null(c->cur_spread));
        json_object_object_add(o, "baseline_rounds", json_object_new_int((int)c->base_rounds));
        json_object_object_add(o, "current_rounds", json_object_new_int((int)c->cur_rounds));
        json_object_object_add(o, "verdict", json_object_new_string(gate_verdict_name(c->verdict)));
        json_object_object_add(o, "fails", json_object_new_boolean(gate_verdict_fails(c->verdict)));
        json_object_object_add(o, "message", json_object_new_string(msg));
        json_object_array_add(cases, o);
    }
    json_object_object_add(doc, "cases", cases);
    return doc;
}

int gate_write_json(const struct gate_result *r, const char *path, char *err, size_t errlen)
{
    struct json_object *doc = gate_json(r);
    int rc = 0;
    if (!strcmp(path, "-")) {
        json_c_set_serialization_double_format("%.10g", JSON_C_OPTION_GLOBAL);
        fputs(json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PRETTY |
                                                      JSON_C_TO_STRING_SPACED |
                                                      JSON_C_TO_STRING_NOSLASHESCAPE),
              stdout);
        fputc('\n', stdout);
        if (fflush(stdout) != 0 || ferror(stdout))
            rc = errf(err, errlen, "cannot write the JSON report to stdout");
    } else {
        rc = results_write_json_atomic(doc, path, err, errlen);
    }
    json_object_put(doc);
    return rc;
}
