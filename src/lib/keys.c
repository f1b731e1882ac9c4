/* keys.c — data-file keys as rows: set one from its text, print them (see keys.h). */
#include "lib/keys.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lib/units.h"
#include "lib/util.h"

#define KEYS_WHY_LEN 384

const struct key_row *keys_find(const struct key_table *t, const char *key)
{
    for (unsigned hop = 0; key && hop < 2; hop++) {
        const struct key_row *r = NULL;
        for (size_t i = 0; i < t->n && !r; i++)
            if (!strcmp(t->rows[i].key, key))
                r = &t->rows[i];
        if (!r || r->type != KEY_ALIAS)
            return r;
        key = r->alias;
    }
    return NULL;
}

/* Optimal string alignment distance (a swap of two neighbours counts 1), capped at 9. */
unsigned keys_edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 48 || lb > 48)
        return 9;
    unsigned d[50][50];
    for (size_t i = 0; i <= la; i++)
        d[i][0] = (unsigned)i;
    for (size_t j = 0; j <= lb; j++)
        d[0][j] = (unsigned)j;
    for (size_t i = 1; i <= la; i++)
        for (size_t j = 1; j <= lb; j++) {
            unsigned v = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
            if (d[i - 1][j] + 1 < v)
                v = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < v)
                v = d[i][j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
                d[i - 2][j - 2] + 1 < v)
                v = d[i - 2][j - 2] + 1;
            d[i][j] = v;
        }
    return d[la][lb] < 9 ? d[la][lb] : 9;
}

/* ---- storing by the field's size ---- */

static void store_u(void *field, size_t size, uint64_t v)
{
    if (size == sizeof(uint64_t)) {
        memcpy(field, &v, sizeof v);
    } else {
        uint32_t v32 = (uint32_t)v;
        memcpy(field, &v32, sizeof v32);
    }
}

static uint64_t load_u(const void *field, size_t size)
{
    if (size == sizeof(uint64_t)) {
        uint64_t v;
        memcpy(&v, field, sizeof v);
        return v;
    }
    uint32_t v32;
    memcpy(&v32, field, sizeof v32);
    return v32;
}

static void store_int(void *field, size_t size, int v)
{
    if (size == sizeof(bool)) {
        bool b = v != 0;
        memcpy(field, &b, sizeof b);
    } else {
        memcpy(field, &v, sizeof v);
    }
}

static int load_int(const void *field, size_t size)
{
    if (size == sizeof(bool)) {
        bool b;
        memcpy(&b, field, sizeof b);
        return b;
    }
    int v;
    memcpy(&v, field, sizeof v);
    return v;
}

/* ---- parsing by type ---- */

/* A plain decimal number: digits, one '.', an optional exponent; no inf/nan/hex. */
static int parse_number(const char *s, double *out)
{
    const char *q = s;
    if (*q == '+' || *q == '-')
        q++;
    bool digits = false;
    for (; isdigit((unsigned char)*q); q++)
        digits = true;
    if (*q == '.')
        for (q++; isdigit((unsigned char)*q); q++)
            digits = true;
    if (!digits)
        return -1;
    if (*q == 'e' || *q == 'E') {
        q++;
        if (*q == '+' || *q == '-')
            q++;
        if (!isdigit((unsigned char)*q))
            return -1;
        while (isdigit((unsigned char)*q))
            q++;
    }
    if (*q != '\0')
        return -1;
    errno = 0;
    double v = strtod(s, NULL);
    if (errno == ERANGE || !isfinite(v))
        return -1;
    *out = v;
    return 0;
}

static int parse_bool(const char *s, bool *out)
{
    static const char *const yes[] = {"1", "yes", "on", "true", ""};
    static const char *const no[] = {"0", "no", "off", "false"};
    for (size_t i = 0; i < sizeof yes / sizeof yes[0]; i++)
        if (strcasecmp(s, yes[i]) == 0) {
            *out = true;
            return 0;
        }
    for (size_t i = 0; i < sizeof no / sizeof no[0]; i++)
        if (strcasecmp(s, no[i]) == 0) {
            *out = false;
            return 0;
        }
    return -1;
}

static uint64_t row_umax(const struct key_row *r)
{
    return r->hi >= 18446744073709551615.0 ? UINT64_MAX : (uint64_t)r->hi;
}

/* "a, b or c": the listed names. */
static void choice_names(const struct key_choice *c, const char *sep, const char *last_sep,
                         char *buf, size_t len)
{
    size_t n = 0, k = 0;
    for (const struct key_choice *x = c; x->name; x++)
        n += !x->synonym;
    buf[0] = '\0';
    for (const struct key_choice *x = c; x->name; x++) {
        if (x->synonym)
            continue;
        size_t used = strlen(buf);
        snprintf(buf + used, len - used, "%s%s", k == 0 ? "" : k + 1 == n ? last_sep : sep,
                 x->name);
        k++;
    }
}

static void format_ns(uint64_t ns, char *buf, size_t len)
{
    if (ns >= 1000000000ull && ns % 1000000000ull == 0)
        snprintf(buf, len, "%llus", (unsigned long long)(ns / 1000000000ull));
    else
        snprintf(buf, len, "%lluns", (unsigned long long)ns);
}

static int set_uint(const struct key_row *r, void *field, const char *v, char *why, size_t wl)
{
    uint64_t u;
    char buf[KEYS_WHY_LEN];
    if (r->zero && !strcmp(v, r->zero)) {
        store_u(field, r->size, 0);
        return 0;
    }
    if (units_parse_uint(v, (uint64_t)r->lo, row_umax(r), &u, buf, sizeof buf) < 0 ||
        (r->type == KEY_POW2 && (u & (u - 1)) != 0)) {
        if (r->type == KEY_POW2)
            return errf(why, wl, "must be a power of two %.0f..%.0f", r->lo, r->hi);
        return errf(why, wl, "must be an integer %.0f..%llu", r->lo,
                    (unsigned long long)row_umax(r));
    }
    store_u(field, r->size, u);
    return 0;
}

static int set_size(const struct key_row *r, void *field, const char *v, char *why, size_t wl)
{
    uint64_t u;
    if (units_parse_size(v, &u, why, wl) < 0)
        return -1;
    if ((double)u < r->lo || (double)u > r->hi || (r->mult && u % r->mult)) {
        char lo[32], hi[32], m[32];
        units_format_size((uint64_t)r->lo, lo, sizeof lo);
        units_format_size((uint64_t)r->hi, hi, sizeof hi);
        if (r->mult) {
            units_format_bs((double)r->mult, m, sizeof m);
            return errf(why, wl, "must be a multiple of %s, %s..%s", m, lo, hi);
        }
        return errf(why, wl, "must be %s..%s", r->lo == 0 ? "0" : lo, hi);
    }
    store_u(field, r->size, u);
    return 0;
}

static int set_ulist(const struct key_row *r, void *obj, const char *v, char *why, size_t wl)
{
    unsigned vals[64], n = 0, max = (unsigned)(r->size / sizeof(unsigned));
    char buf[512], tmp[KEYS_WHY_LEN];
    str_copy(buf, sizeof buf, v);
    char *save = NULL;
    for (char *t = strtok_r(buf, ", ", &save); t; t = strtok_r(NULL, ", ", &save)) {
        uint64_t u;
        if (n >= max || n >= 64 ||
            units_parse_uint(t, (uint64_t)r->lo, row_umax(r), &u, tmp, sizeof tmp) != 0)
            return errf(why, wl, "want up to %u numbers %.0f..%.0f", max, r->lo, r->hi);
        vals[n++] = (unsigned)u;
    }
    memcpy((char *)obj + r->off, vals, n * sizeof(unsigned));
    memcpy((char *)obj + r->count_off, &n, sizeof n);
    return 0;
}

/* Parse v by the row into obj: 0, KEYS_BAD_VALUE or KEYS_BAD_KEY with why. */
static int row_set(const struct key_row *r, void *obj, const char *v, char *why, size_t wl)
{
    char *field = (char *)obj + r->off;
    double d;
    bool b;
    uint64_t ns;
    switch (r->type) {
    case KEY_STR:
        if (strlen(v) >= r->size)
            return errf(why, wl, "longer than %zu characters", r->size - 1);
        str_copy(field, r->size, v);
        return 0;
    case KEY_BOOL:
        if (parse_bool(v, &b) < 0)
            return errf(why, wl, "want 0/1, yes/no, on/off or true/false");
        memcpy(field, &b, sizeof b);
        return 0;
    case KEY_UINT:
    case KEY_POW2:
        return set_uint(r, field, v, why, wl);
    case KEY_SIZE:
        return set_size(r, field, v, why, wl);
    case KEY_DOUBLE:
        if (parse_number(v, &d) < 0 || d < r->lo || d > r->hi)
            return errf(why, wl, "must be a number %.15g..%.15g", r->lo, r->hi);
        memcpy(field, &d, sizeof d);
        return 0;
    case KEY_PCT:
        if (units_parse_percent(v, &d, why, wl) < 0 || d < r->lo || d > r->hi)
            return errf(why, wl, "must be a percentage %.15g..%.15g", r->lo, r->hi);
        memcpy(field, &d, sizeof d);
        return 0;
    case KEY_TIME:
        if (units_parse_duration(v, &ns, why, wl) != 0)
            return -1;
        if ((double)ns < r->lo || ns == 0) {
            char lo[32];
            format_ns(r->lo > 1 ? (uint64_t)r->lo : 1, lo, sizeof lo);
            return errf(why, wl, "want a duration of at least %s", lo);
        }
        memcpy(field, &ns, sizeof ns);
        return 0;
    case KEY_CHOICE:
        for (const struct key_choice *c = r->choices; c->name; c++)
            if (!strcmp(c->name, v)) {
                store_int(field, r->size, c->value);
                return 0;
            }
        char names[256];
        choice_names(r->choices, ", ", " or ", names, sizeof names);
        return errf(why, wl, "want %s", names);
    case KEY_ULIST:
        return set_ulist(r, obj, v, why, wl);
    case KEY_FN:
        return r->set(obj, v, why, wl);
    case KEY_ALIAS:
    case KEY_REFUSED:
    case KEY_NOTED:
        break;
    }
    return errf(why, wl, "unknown key");
}

int keys_set(const struct key_table *t, void *obj, const char *key, const char *value,
             const char *where, char *err, size_t errlen)
{
    const struct key_row *r = keys_find(t, key);
    if (!r)
        return KEYS_UNKNOWN;
    if (!value)
        value = "";
    if (r->type == KEY_REFUSED)
        return errf(err, errlen, "%s: %s: %s", where, key, r->help);
    if (r->type == KEY_NOTED)
        return 0;
    char why[KEYS_WHY_LEN] = "";
    int rc = row_set(r, obj, value, why, sizeof why);
    if (rc == KEYS_OK)
        return 0;
    if (rc == KEYS_BAD_KEY)
        return errf(err, errlen, "%s: %s %s (%s=%s)", where, key, why, key, value);
    return errf(err, errlen, "%s: %s=%s: %s", where, key, value, why);
}

/* ---- printing ---- */

void keys_row_range(const struct key_row *r, char *buf, size_t len)
{
    char lo[32], hi[32], m[32];
    switch (r->type) {
    case KEY_STR:
        snprintf(buf, len, "text, up to %zu characters", r->size - 1);
        return;
    case KEY_BOOL:
        snprintf(buf, len, "0 | 1");
        return;
    case KEY_UINT:
    case KEY_POW2:
        snprintf(buf, len, "%s %.0f..%llu%s%s", r->type == KEY_POW2 ? "power of two" : "integer",
                 r->lo, (unsigned long long)row_umax(r), r->zero ? " | " : "",
                 r->zero ? r->zero : "");
        return;
    case KEY_SIZE:
        units_format_size((uint64_t)r->lo, lo, sizeof lo);
        units_format_size((uint64_t)r->hi, hi, sizeof hi);
        units_format_bs((double)r->mult, m, sizeof m);
        snprintf(buf, len, "size %s..%s%s%s", r->lo == 0 ? "0" : lo, hi,
                 r->mult ? ", multiple of " : "", r->mult ? m : "");
        return;
    case KEY_DOUBLE:
    case KEY_PCT:
        snprintf(buf, len, "%s %.15g..%.15g", r->type == KEY_PCT ? "percent" : "number", r->lo,
                 r->hi);
        return;
    case KEY_TIME:
        format_ns(r->lo > 1 ? (uint64_t)r->lo : 1, lo, sizeof lo);
        snprintf(buf, len, "duration, at least %s", lo);
        return;
    case KEY_CHOICE:
        choice_names(r->choices, " | ", " | ", buf, len);
        return;
    case KEY_ULIST:
        snprintf(buf, len, "up to %zu integers %.0f..%.0f, comma-separated",
                 r->size / sizeof(unsigned), r->lo, r->hi);
        return;
    case KEY_FN:
        snprintf(buf, len, "%s", r->arg ? r->arg : "");
        return;
    case KEY_ALIAS:
        snprintf(buf, len, "= %s", r->alias);
        return;
    case KEY_REFUSED:
        snprintf(buf, len, "refused");
        return;
    case KEY_NOTED:
        snprintf(buf, len, "noted");
        return;
    }
}

void keys_row_value(const struct key_row *r, const void *obj, char *buf, size_t len)
{
    const char *field = (const char *)obj + r->off;
    double d;
    buf[0] = '\0';
    switch (r->type) {
    case KEY_STR:
        str_copy(buf, len, field);
        return;
    case KEY_BOOL:
        snprintf(buf, len, "%d", load_int(field, sizeof(bool)));
        return;
    case KEY_UINT:
    case KEY_POW2:
    case KEY_SIZE:
        snprintf(buf, len, "%llu", (unsigned long long)load_u(field, r->size));
        return;
    case KEY_DOUBLE:
    case KEY_PCT:
        memcpy(&d, field, sizeof d);
        snprintf(buf, len, "%.15g", d);
        return;
    case KEY_TIME:
        format_ns(load_u(field, sizeof(uint64_t)), buf, len);
        return;
    case KEY_CHOICE: {
        int v = load_int(field, r->size);
        for (const struct key_choice *c = r->choices; c->name; c++)
            if (c->value == v && !c->synonym) {
                str_copy(buf, len, c->name);
                return;
            }
        return;
    }
    case KEY_ULIST: {
        unsigned n, x;
        memcpy(&n, (const char *)obj + r->count_off, sizeof n);
        for (unsigned i = 0; i < n; i++) {
            memcpy(&x, field + i * sizeof(unsigned), sizeof x);
            size_t used = strlen(buf);
            snprintf(buf + used, len - used, "%s%u", i ? "," : "", x);
        }
        return;
    }
    case KEY_FN:
    case KEY_ALIAS:
    case KEY_REFUSED:
    case KEY_NOTED:
        return;
    }
}

void keys_print_line(FILE *out, const char *key, const char *value, const char *comment)
{
    int n = fprintf(out, "%s = %s", key, value);
    if (comment && *comment)
        fprintf(out, "%*s; %s", n < 38 ? 38 - n : 1, "", comment);
    fputc('\n', out);
}

void keys_print_values(FILE *out, const struct key_table *t, const void *obj, key_note note)
{
    for (size_t i = 0; i < t->n; i++) {
        const struct key_row *r = &t->rows[i];
        if (r->type == KEY_FN || r->type == KEY_ALIAS || r->type == KEY_REFUSED ||
            r->type == KEY_NOTED)
            continue;
        char val[320], c[768] = "", range[256];
        keys_row_value(r, obj, val, sizeof val);
        keys_row_range(r, range, sizeof range);
        if (note)
            note(r, obj, c, sizeof c);
        size_t used = strlen(c);
        snprintf(c + used, sizeof c - used, "%s%s%s(%s)", used ? "; " : "",
                 r->help ? r->help : "", r->help ? " " : "", range);
        keys_print_line(out, r->key, val, c);
    }
}

/* text from column col (the cursor at col already), wrapped at 80 columns to col. */
static void print_wrapped(FILE *out, const char *text, int col)
{
    int at = col;
    while (*text) {
        size_t w = strcspn(text, " ");
        if (at > col && at + 1 + (int)w > 80) {
            fprintf(out, "\n%*s", col, "");
            at = col;
        } else if (at > col) {
            fputc(' ', out);
            at++;
        }
        fprintf(out, "%.*s", (int)w, text);
        at += (int)w;
        text += w;
        text += strspn(text, " ");
    }
    fputc('\n', out);
}

void keys_print_help(FILE *out, const struct key_table *t, const char *group)
{
    for (size_t i = 0; i < t->n; i++) {
        const struct key_row *r = &t->rows[i];
        if (r->type == KEY_ALIAS || (group && (!r->group || strcmp(r->group, group))))
            continue;
        char names[256], range[256];
        str_copy(names, sizeof names, r->key);
        bool first = true;
        for (size_t j = 0; j < t->n; j++) {
            const struct key_row *a = &t->rows[j];
            if (a->type != KEY_ALIAS || strcmp(a->alias, r->key))
                continue;
            size_t used = strlen(names);
            snprintf(names + used, sizeof names - used, "%s%s", first ? " [" : ", ", a->key);
            first = false;
        }
        if (!first)
            strncat(names, "]", sizeof names - strlen(names) - 1);
        keys_row_range(r, range, sizeof range);
        if (strlen(names) > 26)
            fprintf(out, "  %s\n%29s", names, "");
        else
            fprintf(out, "  %-26s ", names);
        print_wrapped(out, range, 29);
        if (r->help && *r->help) {
            fprintf(out, "%29s", "");
            print_wrapped(out, r->help, 29);
        }
    }
}
