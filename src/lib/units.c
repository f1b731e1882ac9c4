/* units.c — parsing and formatting of sizes, durations, percentages and counts.
 *
 * Numbers are parsed by hand (no strtoull/strtod on untrusted text) so that signs,
 * exponents, "inf", hex and locale quirks are refused.  Fractional sizes and durations
 * are computed exactly with integers: "1.5k" is 1536, "0.3k" (307.2 bytes) is an error. */
#include "lib/units.h"

#include <math.h>

#include "lib/util.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define UNITS_MAX_FRAC_DIGITS 9   /* fraction scale stays <= 1e9 */

/* A decimal number "123" or "1.25": value = ip + frac / scale. */
struct units_dec {
    uint64_t ip;
    uint64_t frac;
    uint64_t scale;    /* 10^(fraction digits), 1 when there is no fraction */
};

/* Copy text without surrounding whitespace into buf; false when it does not fit. */
static bool units_trim_copy(const char *text, char *buf, size_t len)
{
    while (isspace((unsigned char)*text))
        text++;
    size_t n = strlen(text);
    while (n > 0 && isspace((unsigned char)text[n - 1]))
        n--;
    if (n >= len)
        return false;
    memcpy(buf, text, n);
    buf[n] = '\0';
    return true;
}

/* Parse digits[.digits] at *p, advancing *p.  Returns 0, or -1 when there is no number
 * or it overflows (too many digits). */
static int units_parse_dec(const char **p, struct units_dec *d)
{
    const char *s = *p;
    d->ip = 0;
    d->frac = 0;
    d->scale = 1;
    if (!isdigit((unsigned char)*s))
        return -1;
    for (; isdigit((unsigned char)*s); s++) {
        unsigned digit = (unsigned)(*s - '0');
        if (__builtin_mul_overflow(d->ip, 10u, &d->ip) ||
            __builtin_add_overflow(d->ip, digit, &d->ip))
            return -1;
    }
    if (*s == '.') {
        s++;
        if (!isdigit((unsigned char)*s))
            return -1;
        int nd = 0;
        for (; isdigit((unsigned char)*s); s++) {
            if (++nd > UNITS_MAX_FRAC_DIGITS)
                return -1;
            d->frac = d->frac * 10 + (uint64_t)(*s - '0');
            d->scale *= 10;
        }
    }
    *p = s;
    return 0;
}

static uint64_t units_gcd(uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* value * mult exactly.  Returns 0, 1 when not a whole number, 2 on overflow. */
static int units_scale_exact(const struct units_dec *d, uint64_t mult, uint64_t *out)
{
    uint64_t whole;
    if (__builtin_mul_overflow(d->ip, mult, &whole))
        return 2;
    if (d->frac == 0) {
        *out = whole;
        return 0;
    }
    uint64_t g = units_gcd(d->frac, d->scale);
    uint64_t f = d->frac / g, s = d->scale / g;   /* f/s in lowest terms */
    if (mult % s != 0)
        return 1;
    uint64_t part, sum;
    if (__builtin_mul_overflow(f, mult / s, &part) ||
        __builtin_add_overflow(whole, part, &sum))
        return 2;
    *out = sum;
    return 0;
}

/* d x mult as a whole number of bytes, or one error naming the text. */
static int units_size_bytes(const struct units_dec *d, uint64_t mult, const char *text,
                            uint64_t *out, char *err, size_t errlen)
{
    switch (units_scale_exact(d, mult, out)) {
    case 1:
        return errf(err, errlen, "bad size '%s': not a whole number of bytes", text);
    case 2:
        return errf(err, errlen, "bad size '%s': too large", text);
    }
    return 0;
}

static uint64_t units_pow(uint64_t base, unsigned exp)
{
    uint64_t r = 1;
    while (exp--)
        r *= base;
    return r;
}

/* Exponent for a unit prefix letter: k=1, m=2, g=3, t=4, p=5, e=6; 0 when not a prefix. */
static unsigned units_prefix_exp(char c)
{
    static const char prefixes[] = "kmgtpe";
    const char *hit = strchr(prefixes, tolower((unsigned char)c));
    return (c && hit) ? (unsigned)(hit - prefixes) + 1 : 0;
}

/* Multiplier for a size suffix; 0 when the suffix is not understood. */
static uint64_t units_size_mult(const char *suf, const char **hint)
{
    *hint = NULL;
    if (suf[0] == '\0' || strcmp(suf, "B") == 0)
        return 1;
    unsigned e = units_prefix_exp(suf[0]);
    if (e == 0)
        return 0;
    if (suf[1] == '\0')
        return units_pow(1024, e);                   /* fio: 4k, 4K */
    if (strcasecmp(suf + 1, "ib") == 0)
        return units_pow(1024, e);                   /* 4KiB */
    if (strcmp(suf + 1, "B") == 0)
        return units_pow(1000, e);                   /* SI: 4kB, 4KB, 1MB */
    if (strcmp(suf + 1, "b") == 0)
        *hint = " (use k or KiB for 1024, kB for 1000)";
    return 0;
}

int units_parse_size_fio(const char *text, unsigned kb_base, uint64_t *out, char *err,
                         size_t errlen)
{
    char buf[64];
    if (!text || !units_trim_copy(text, buf, sizeof buf))
        return errf(err, errlen, "bad size '%s'", text ? text : "");
    if (buf[0] == '\0')
        return errf(err, errlen, "empty size");
    if (buf[0] == '0' && (buf[1] == 'x' || buf[1] == 'X')) {
        char *end;
        errno = 0;
        unsigned long long v = strtoull(buf + 2, &end, 16);
        if (end == buf + 2 || *end || errno)
            return errf(err, errlen, "bad size '%s'", text);
        *out = v;
        return 0;
    }
    const char *p = buf;
    struct units_dec d;
    if (units_parse_dec(&p, &d) < 0)
        return errf(err, errlen, "bad size '%s'", text);
    uint64_t mult = 1;
    if (*p) {
        const unsigned e = units_prefix_exp(*p);
        const char *q = p;
        if (e) {
            q++;
            const bool iec = *q == 'i' || *q == 'I';
            q += iec;
            /* kb_base 1024: the SI spelling is binary, the IEC one decimal (fio's
             * compatibility mode); kb_base 1000: as the standards say */
            const bool binary = kb_base == 1000 ? iec : !iec;
            mult = units_pow(binary ? 1024 : 1000, e);
        }
        if (*q == 'b' || *q == 'B')
            q++;
        if (*q || q == p)
            return errf(err, errlen, "bad size '%s': unknown unit '%s' (fio's: k, m, g, t, p "
                        "with an optional i and b; kb_base=%u)", text, p, kb_base);
    }
    return units_size_bytes(&d, mult, text, out, err, errlen);
}

int units_parse_size(const char *text, uint64_t *out, char *err, size_t errlen)
{
    char buf[64];
    if (!text || !units_trim_copy(text, buf, sizeof buf))
        return errf(err, errlen, "bad size '%s'", text ? text : "");
    if (buf[0] == '\0')
        return errf(err, errlen, "empty size");
    const char *p = buf;
    struct units_dec d;
    if (units_parse_dec(&p, &d) < 0)
        return errf(err, errlen, "bad size '%s'", text);
    const char *hint;
    uint64_t mult = units_size_mult(p, &hint);
    if (mult == 0)
        return errf(err, errlen, "bad size '%s': %s unit '%s'%s", text,
                    hint ? "ambiguous" : "unknown", p, hint ? hint : "");
    return units_size_bytes(&d, mult, text, out, err, errlen);
}

/* Nanoseconds per duration unit; 0 when unknown. */
static uint64_t units_duration_mult(const char *unit, size_t n)
{
    static const struct {
        const char *name;
        uint64_t ns;
    } table[] = {
        {"ns", 1ull},
        {"us", 1000ull},
        {"ms", 1000000ull},
        {"s", 1000000000ull},
        {"m", 60ull * 1000000000ull},
        {"min", 60ull * 1000000000ull},
        {"h", 3600ull * 1000000000ull},
        {"d", 86400ull * 1000000000ull},
    };
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (strlen(table[i].name) == n && strncmp(unit, table[i].name, n) == 0)
            return table[i].ns;
    return 0;
}

/* Add d * mult ns to *total.  Returns 0 or -1 with a message. */
static int units_add_duration(const char *text, const struct units_dec *d, uint64_t mult,
                              uint64_t *total, char *err, size_t errlen)
{
    uint64_t part;
    switch (units_scale_exact(d, mult, &part)) {
    case 1:
        return errf(err, errlen, "bad duration '%s': finer than a nanosecond", text);
    case 2:
        return errf(err, errlen, "bad duration '%s': too long", text);
    }
    if (__builtin_add_overflow(*total, part, total))
        return errf(err, errlen, "bad duration '%s': too long", text);
    return 0;
}

int units_parse_duration(const char *text, uint64_t *out_ns, char *err, size_t errlen)
{
    char buf[64];
    if (!text || !units_trim_copy(text, buf, sizeof buf))
        return errf(err, errlen, "bad duration '%s'", text ? text : "");
    if (buf[0] == '\0')
        return errf(err, errlen, "empty duration");
    const char *p = buf;
    struct units_dec d;
    uint64_t total = 0;
    if (units_parse_dec(&p, &d) == 0 && *p == '\0') {        /* bare number: seconds */
        if (units_add_duration(text, &d, 1000000000ull, &total, err, errlen) < 0)
            return -1;
        *out_ns = total;
        return 0;
    }
    for (p = buf; *p;) {                                      /* "1h30m", "500ms" */
        if (units_parse_dec(&p, &d) < 0)
            return errf(err, errlen, "bad duration '%s'", text);
        const char *unit = p;
        while (isalpha((unsigned char)*p))
            p++;
        size_t n = (size_t)(p - unit);
        if (n == 0)
            return errf(err, errlen, "bad duration '%s': missing unit (s, ms, m, h, d)", text);
        uint64_t mult = units_duration_mult(unit, n);
        if (mult == 0)
            return errf(err, errlen, "bad duration '%s': unknown unit '%.*s'", text, (int)n,
                        unit);
        if (units_add_duration(text, &d, mult, &total, err, errlen) < 0)
            return -1;
    }
    *out_ns = total;
    return 0;
}

int units_parse_percent(const char *text, double *out, char *err, size_t errlen)
{
    char buf[64];
    if (!text || !units_trim_copy(text, buf, sizeof buf))
        return errf(err, errlen, "bad percent '%s'", text ? text : "");
    if (buf[0] == '\0')
        return errf(err, errlen, "empty percent");
    size_t n = strlen(buf);
    if (buf[n - 1] == '%')
        buf[--n] = '\0';
    const char *p = buf;
    struct units_dec d;
    if (units_parse_dec(&p, &d) < 0 || *p != '\0')
        return errf(err, errlen, "bad percent '%s'", text);
    /* The syntax is checked above; strtod gives the correctly rounded value. */
    double v = strtod(buf, NULL);
    if (v < 0.0 || v > 100.0)
        return errf(err, errlen, "bad percent '%s' (want 0..100)", text);
    *out = v;
    return 0;
}

int units_parse_uint(const char *text, uint64_t min, uint64_t max, uint64_t *out,
                     char *err, size_t errlen)
{
    char buf[64];
    if (!text || !units_trim_copy(text, buf, sizeof buf))
        return errf(err, errlen, "bad number '%s'", text ? text : "");
    if (buf[0] == '\0')
        return errf(err, errlen, "empty number");
    uint64_t v = 0;
    bool overflow = false;
    for (const char *p = buf; *p; p++) {
        if (!isdigit((unsigned char)*p))
            return errf(err, errlen, "bad number '%s' (want digits only)", text);
        if (__builtin_mul_overflow(v, 10u, &v) ||
            __builtin_add_overflow(v, (unsigned)(*p - '0'), &v))
            overflow = true;
    }
    if (overflow || v < min || v > max)
        return errf(err, errlen, "%s is out of range %llu..%llu", buf,
                    (unsigned long long)min, (unsigned long long)max);
    *out = v;
    return 0;
}

int units_parse_double(const char *text, double min, double max, double *out, char *err,
                       size_t errlen)
{
    char buf[64];
    if (!text || !units_trim_copy(text, buf, sizeof buf) || !buf[0])
        return errf(err, errlen, "bad number '%s'", text ? text : "");
    bool digits = false, dot = false;
    for (const char *p = buf; *p; p++) {
        if (isdigit((unsigned char)*p))
            digits = true;
        else if (*p == '.' && !dot)
            dot = true;
        else
            return errf(err, errlen, "bad number '%s' (want digits, e.g. 1 or 0.5)", text);
    }
    if (!digits)
        return errf(err, errlen, "bad number '%s' (want digits, e.g. 1 or 0.5)", text);
    double v = strtod(buf, NULL);
    if (!(v >= min && v <= max))
        return errf(err, errlen, "%s is out of range %g..%g", buf, min, max);
    *out = v;
    return 0;
}

void units_format_size(uint64_t bytes, char *buf, size_t len)
{
    static const char *const names[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    unsigned i = 0;
    while (bytes != 0 && i + 1 < sizeof names / sizeof names[0] && bytes % 1024 == 0) {
        bytes /= 1024;
        i++;
    }
    snprintf(buf, len, "%llu%s", (unsigned long long)bytes, names[i]);
}

void units_format_lat(double us, enum units_style style, char *buf, size_t len)
{
    const bool ts = style == UNITS_TYPESET;
    if (!isfinite(us))
        snprintf(buf, len, "%s", ts ? "–" : "-");
    else if (us >= 10000)
        snprintf(buf, len, "%.1f ms", us / 1000);
    else if (us >= 1000)
        snprintf(buf, len, "%.2f ms", us / 1000);
    else
        snprintf(buf, len, "%.1f %s", us, ts ? "µs" : "us");
}

void units_format_bs(double bytes, char *buf, size_t len)
{
    if (!(bytes > 0) || !isfinite(bytes))
        snprintf(buf, len, "mixed sizes");
    else if (bytes > 1048576 && fmod(bytes, 1048576) == 0)
        snprintf(buf, len, "%g MiB", bytes / 1048576);
    else if (bytes >= 512)
        snprintf(buf, len, "%g KiB", bytes / 1024);
    else
        snprintf(buf, len, "%.0f B", bytes);
}

static void units_scaled(double v, const char *const *names, double base, char *buf, size_t len)
{
    unsigned i = 0;
    while (v >= base && names[i + 1]) {
        v /= base;
        i++;
    }
    int decimals = v >= 100 ? 1 : v >= 10 ? 2 : 2;
    if (v == (double)(uint64_t)v)
        decimals = 0;
    snprintf(buf, len, "%.*f %s", decimals, v, names[i]);
}

void units_format_capacity(uint64_t bytes, char *buf, size_t len)
{
    static const char *const dec[] = {"B", "kB", "MB", "GB", "TB", "PB", NULL};
    static const char *const bin[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", NULL};
    char d[32], b[32];
    units_scaled((double)bytes, dec, 1000.0, d, sizeof(d));
    units_scaled((double)bytes, bin, 1024.0, b, sizeof(b));
    snprintf(buf, len, "%s (%s)", d, b);
}

const char *units_format_pct(double us, uint64_t observations, enum units_style style,
                             char *buf, size_t len)
{
    if (isfinite(us) || !observations) {
        units_format_lat(us, style, buf, len);
        return buf;
    }
    char n[32];
    units_format_count((double)observations, n, sizeof(n));
    snprintf(buf, len, "n/a (%s I/Os)", n);
    return buf;
}

const char *units_format_pct_long(uint64_t observations, char *buf, size_t len)
{
    char n[32];
    units_format_count((double)observations, n, sizeof(n));
    snprintf(buf, len, "not enough I/Os for this percentile (%s)", n);
    return buf;
}

void units_format_count(double v, char *buf, size_t len)
{
    if (!len)
        return;
    if (!isfinite(v)) {
        snprintf(buf, len, "-");
        return;
    }
    char tmp[64];
    snprintf(tmp, sizeof(tmp), "%.0f", v);
    size_t n = strlen(tmp), o = 0;
    for (size_t i = 0; i < n && o + 2 < len; i++) {
        buf[o++] = tmp[i];
        size_t left = n - i - 1;
        if (left && left % 3 == 0 && tmp[i] != '-')
            buf[o++] = ',';
    }
    buf[o] = '\0';
}

/* Digits of `tmp` ("-1234.5") into buf with a comma every 3 integer digits; "-0" and "-0.0"
 * lose their sign. */
static void units_group(const char *tmp, char *buf, size_t len)
{
    if (tmp[0] == '-' && strspn(tmp + 1, "0.") == strlen(tmp + 1))
        tmp++;
    const char *dot = strchr(tmp, '.');
    size_t ni = dot ? (size_t)(dot - tmp) : strlen(tmp), o = 0;
    for (size_t i = 0; tmp[i] && o + 2 < len; i++) {
        buf[o++] = tmp[i];
        if (i < ni && tmp[i] != '-') {
            size_t left = ni - i - 1;
            if (left && left % 3 == 0)
                buf[o++] = ',';
        }
    }
    buf[o] = '\0';
}

/* v to 3 significant digits at least (UNITS_FIG_MBS's rule) into tmp, ungrouped. */
static void units_sig3(double v, char *tmp, size_t len)
{
    double a = fabs(v);
    int decimals = 0;
    if (a > 0) {   /* the band from the value rounded to 3 digits: 99.96 is 100 */
        char t[64];
        snprintf(t, sizeof(t), "%.2e", a);
        double r = strtod(t, NULL);
        int e = (int)floor(log10(r));
        decimals = e >= 2 ? 0 : 2 - e;
        if (decimals > 6)
            decimals = 6;
    }
    snprintf(tmp, len, "%.*f", decimals, v);
}

/* Bytes in the decimal unit that leaves at least 1 once rounded to 3 digits. */
static void units_fig_bytes(double v, char *buf, size_t len)
{
    static const char *const unit[] = {"B", "kB", "MB", "GB", "TB", "PB"};
    unsigned u = 0;
    double a = fabs(v);
    char t[64];
    for (;;) {
        snprintf(t, sizeof(t), "%.2e", a);
        if (u + 1 >= sizeof unit / sizeof unit[0] || strtod(t, NULL) < 1000)
            break;
        a /= 1000;
        v /= 1000;
        u++;
    }
    char tmp[400], num[400];
    if (u == 0)
        snprintf(tmp, sizeof(tmp), "%.0f", v);
    else
        units_sig3(v, tmp, sizeof(tmp));
    units_group(tmp, num, sizeof(num));
    snprintf(buf, len, "%s %s", num, unit[u]);
}

void units_format_figure(double v, enum units_figure kind, char *buf, size_t len)
{
    if (!len)
        return;
    if (!isfinite(v)) {
        snprintf(buf, len, "—");
        return;
    }
    char tmp[400];
    switch (kind) {
    case UNITS_FIG_LAT:
        units_format_lat(v, UNITS_TEXT, buf, len);
        return;
    case UNITS_FIG_BYTES:
        units_fig_bytes(v, buf, len);
        return;
    case UNITS_FIG_RATIO:
        snprintf(tmp, sizeof(tmp), "%.3f", v);
        break;
    case UNITS_FIG_PCT:
        snprintf(tmp, sizeof(tmp), "%.1f", v);
        units_group(tmp, buf, len > 1 ? len - 1 : len);
        if (strlen(buf) + 1 < len)
            strcat(buf, "%");
        return;
    case UNITS_FIG_WAF:
        snprintf(tmp, sizeof(tmp), "%.2f", v);
        break;
    case UNITS_FIG_IOPS:
    case UNITS_FIG_COUNT:
        snprintf(tmp, sizeof(tmp), "%.0f", v);
        break;
    case UNITS_FIG_MBS:
    case UNITS_FIG_VALUE:
    default:
        units_sig3(v, tmp, sizeof(tmp));
        break;
    }
    units_group(tmp, buf, len);
}

void units_format_short_sig(double v, int sig, char *buf, size_t len)
{
    if (!len)
        return;
    if (!isfinite(v)) {
        snprintf(buf, len, "-");
        return;
    }
    if (sig < 1)
        sig = 1;
    if (sig > 15)
        sig = 15;
    double a = fabs(v);
    if (a > 0) {   /* round to sig digits first, so that 999.6k becomes 1M, not 1000k */
        char t[64];
        snprintf(t, sizeof(t), "%.*e", sig - 1, a);
        a = strtod(t, NULL);
    }
    if (a == 0) {
        snprintf(buf, len, "0");
        return;
    }
    static const char *const suffix[] = {"", "k", "M", "G", "T", "P"};
    int e = 0;
    while (a >= 1000.0 && e < 5) {
        a /= 1000.0;
        e++;
    }
    /* fixed notation: %g would write 600 at 2 digits as "6e+02" */
    int decimals = sig - 1 - (int)floor(log10(a) + 1e-9);
    if (decimals < 0)
        decimals = 0;
    char t[64];
    snprintf(t, sizeof(t), "%.*f", decimals, a);
    if (strchr(t, '.')) {   /* trailing zeros dropped */
        char *z = t + strlen(t) - 1;
        while (*z == '0')
            *z-- = '\0';
        if (*z == '.')
            *z = '\0';
    }
    snprintf(buf, len, "%s%s%s", v < 0 ? "-" : "", t, suffix[e]);
}

void units_format_short(double v, char *buf, size_t len) { units_format_short_sig(v, 3, buf, len); }
