/* junit.c — the gate's cases as JUnit XML (layout in junit.h). */
#include "judge/junit.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/file.h"
#include "lib/util.h"
#include "judge/gate.h"

/* Length of the valid UTF-8 sequence at s that XML 1.0 allows, or 0. */
static size_t utf8_len(const unsigned char *s)
{
    unsigned c = s[0];
    if (c < 0x80)
        return (c >= 0x20 || c == '\t' || c == '\n' || c == '\r') ? 1 : 0;
    size_t n;
    unsigned cp;
    if ((c & 0xE0) == 0xC0) { n = 2; cp = c & 0x1F; }
    else if ((c & 0xF0) == 0xE0) { n = 3; cp = c & 0x0F; }
    else if ((c & 0xF8) == 0xF0) { n = 4; cp = c & 0x07; }
    else return 0;
    for (size_t i = 1; i < n; i++) {
        if ((s[i] & 0xC0) != 0x80)
            return 0;
        cp = (cp << 6) | (s[i] & 0x3F);
    }
    static const unsigned min_cp[5] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < min_cp[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF) || cp == 0xFFFE ||
        cp == 0xFFFF)
        return 0;
    return n;
}

void junit_escape(FILE *f, const char *s, bool attr)
{
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        switch (*p) {
        case '&': fputs("&amp;", f); p++; continue;
        case '<': fputs("&lt;", f); p++; continue;
        case '>': fputs("&gt;", f); p++; continue;
        case '"': fputs(attr ? "&quot;" : "\"", f); p++; continue;
        case '\'': fputs(attr ? "&apos;" : "'", f); p++; continue;
        case '\t': fputs(attr ? "&#9;" : "\t", f); p++; continue;
        case '\n': fputs(attr ? "&#10;" : "\n", f); p++; continue;
        case '\r': fputs("&#13;", f); p++; continue;
        default: break;
        }
        size_t n = utf8_len(p);
        if (n == 0) {
            fputc('?', f);
            p++;
        } else {
            fwrite(p, 1, n, f);
            p += n;
        }
    }
}

static void attr(FILE *f, const char *name, const char *value)
{
    fprintf(f, " %s=\"", name);
    junit_escape(f, value, true);
    fputc('"', f);
}

static void attr_num(FILE *f, const char *name, size_t value)
{
    fprintf(f, " %s=\"%zu\"", name, value);
}

static void property(FILE *f, const char *name, const char *value)
{
    fputs("      <property", f);
    attr(f, "name", name);
    attr(f, "value", value);
    fputs("/>\n", f);
}

/* A figure, or "-" when absent. */
static const char *num(double v, double scale, char *buf, size_t len)
{
    if (isfinite(v))
        snprintf(buf, len, "%.10g", v * scale);
    else if (isinf(v))
        snprintf(buf, len, "%sinf", v > 0 ? "+" : "-");
    else
        snprintf(buf, len, "-");
    return buf;
}

static void numbers(FILE *f, const struct gate_result *r, const struct gate_case *c)
{
    char line[1024], a[64], b[64];
    gate_case_message(c, r->tolerance, line, sizeof(line));
    fputs("point: ", f);
    junit_escape(f, c->label, false);
    fputs("\nkey: ", f);
    junit_escape(f, c->key, false);
    fprintf(f, "\nmetric: %s (%s)\n", meas_metric_name(c->metric),
            c->lower_is_better ? "lower is better" : "higher is better");
    fprintf(f, "baseline: %s (spread %s%%, %u rounds)\n", num(c->base, 1, a, sizeof(a)),
            num(c->base_spread, 100, b, sizeof(b)), c->base_rounds);
    fprintf(f, "current: %s (spread %s%%, %u rounds)\n", num(c->cur, 1, a, sizeof(a)),
            num(c->cur_spread, 100, b, sizeof(b)), c->cur_rounds);
    fprintf(f, "change: %s%%, ", num(c->change, 100, a, sizeof(a)));
    fprintf(f, "noise band: %s%%, tolerance: %.10g%%\n", num(c->noise, 100, b, sizeof(b)),
            r->tolerance * 100.0);
    fprintf(f, "verdict: %s\n", gate_verdict_name(c->verdict));
    if (c->verdict == GATE_WARN)
        fputs("WARNING: ", f);
    junit_escape(f, line, false);
    fputc('\n', f);
}

int junit_write(FILE *f, const struct gate_result *r, const char *timestamp)
{
    char now[64], ms[512] = "", tol[64];
    if (!timestamp) {
        iso8601_now(now, sizeof(now));
        timestamp = now;
    }
    for (size_t k = 0; k < r->n_metrics; k++) {
        size_t l = strlen(ms);
        snprintf(ms + l, sizeof(ms) - l, "%s%s", k ? "," : "", meas_metric_name(r->metrics[k]));
    }
    snprintf(tol, sizeof(tol), "%.10g", r->tolerance * 100.0);
    size_t failures = r->count[GATE_REGRESSION] + r->count[GATE_MISSING];
    size_t skipped = r->count[GATE_NEW] + r->count[GATE_SHORT];

    fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites", f);
    attr(f, "name", "ptsbench gate");
    attr_num(f, "tests", r->n);
    attr_num(f, "failures", failures);
    attr_num(f, "errors", 0);
    fputs(" time=\"0\">\n  <testsuite", f);
    attr(f, "name", "ptsbench gate");
    attr_num(f, "tests", r->n);
    attr_num(f, "failures", failures);
    attr_num(f, "errors", 0);
    attr_num(f, "skipped", skipped);
    fputs(" time=\"0\"", f);
    attr(f, "timestamp", timestamp);
    fputs(">\n    <properties>\n", f);
    property(f, "baseline", r->baseline_path);
    property(f, "current", r->current_path);
    property(f, "tolerance_pct", tol);
    property(f, "metrics", ms);
    property(f, "noise_rule", GATE_NOISE_RULE);
    fputs("    </properties>\n", f);
    for (size_t i = 0; i < r->n; i++) {
        const struct gate_case *c = &r->c[i];
        char msg[1024];
        gate_case_message(c, r->tolerance, msg, sizeof(msg));
        fputs("    <testcase", f);
        attr(f, "classname", c->key);
        attr(f, "name", meas_metric_name(c->metric));
        fputs(" time=\"0\">\n", f);
        if (gate_verdict_fails(c->verdict)) {
            fputs("      <failure", f);
            attr(f, "message", msg);
            attr(f, "type", gate_verdict_name(c->verdict));
            fputc('>', f);
            junit_escape(f, msg, false);
            fputs("</failure>\n", f);
        } else if (c->verdict == GATE_NEW || c->verdict == GATE_SHORT) {
            fputs("      <skipped", f);
            attr(f, "message", msg);
            fputs("/>\n", f);
        }
        fputs("      <system-out>", f);
        numbers(f, r, c);
        fputs("</system-out>\n    </testcase>\n", f);
    }
    fputs("  </testsuite>\n</testsuites>\n", f);
    return ferror(f) ? -1 : 0;
}

int junit_write_file(const struct gate_result *r, const char *path, char *err, size_t errlen)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return errf(err, errlen, "out of memory");
    int bad = junit_write(f, r, NULL);
    if (fclose(f) != 0 || bad) {
        free(buf);
        return errf(err, errlen, "cannot format the JUnit report");
    }
    int rc = file_write_atomic(path, (const char *const[]){buf}, &len, 1, true, err, errlen);
    free(buf);
    return rc;
}
