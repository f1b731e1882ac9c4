/* fio_parse.c — see fio_parse.h. */
#include "io/fio_parse.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/util.h"

#define FIO_INCLUDE_DEPTH 16
#define FIO_VALUE_MAX 8192   /* fio's OPT_LEN_MAX */

/* ---- arithmetic (fio's exp/expression-parser.y and .l, and bc for $keywords) ---------- */

struct fx_val {
    long long i;
    double d;
    bool has_d;   /* a fraction was involved: d is the value */
};

struct fx {
    const char *p;
    bool is_time;
    bool bc;      /* bc's rules: integers, no units, * / % above + -, ^ above them */
    bool err;
    bool units;   /* a unit was written */
};

/* fio's precedence (yacc: + - < SUFFIX < * / < ^ < %; bc: + - < * / % < ^). */
enum { FX_ADD = 1, FX_SUFFIX = 2, FX_MUL = 3, FX_POW = 4, FX_MOD = 5 };

static void fx_skip(struct fx *x)
{
    while (*x->p == ' ' || *x->p == '\t')
        x->p++;
    if (!x->bc && (*x->p == '#' || *x->p == ':' || *x->p == ','))   /* fio: ignored to the end */
        x->p += strlen(x->p);
}

static bool fx_word(const char *p, const char *w)
{
    size_t n = strlen(w);
    for (size_t i = 0; i < n; i++)
        if (tolower((unsigned char)p[i]) != w[i])
            return false;
    return true;
}

/* A unit at x->p (longest match, as flex): its multiplier in bytes or microseconds. */
static bool fx_suffix(struct fx *x, struct fx_val *m)
{
    static const struct {
        const char *w;
        long long v;
        bool time;   /* 'm' is minutes only in a duration */
    } units[] = {
        {"kib", 1000LL, false}, {"mib", 1000000LL, false}, {"gib", 1000000000LL, false},
        {"pib", 1000000000000LL, false}, {"kb", 1024LL, false}, {"mb", 1048576LL, false},
        {"gb", 1073741824LL, false}, {"tb", 1099511627776LL, false},
        {"pb", 1125899906842624LL, false}, {"ms", 1000LL, false}, {"us", 1LL, false},
        {"k", 1024LL, false}, {"g", 1073741824LL, false}, {"t", 1099511627776LL, false},
        {"p", 1125899906842624LL, false}, {"s", 1000000LL, false}, {"d", 86400000000LL, false},
        {"h", 3600000000LL, false}, {"m", 1048576LL, true},
    };
    if (x->bc)
        return false;
    for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
        if (fx_word(x->p, units[i].w)) {
            x->p += strlen(units[i].w);
            m->i = units[i].time && x->is_time ? 60000000LL : units[i].v;
            m->d = (double)m->i;
            m->has_d = false;
            return true;
        }
    return false;
}

static int fx_prec(const struct fx *x, char op)
{
    switch (op) {
    case '+': case '-': return FX_ADD;
    case '*': case '/': return FX_MUL;
    case '%': return x->bc ? FX_MUL : FX_MOD;
    case '^': return x->bc ? FX_MOD : FX_POW;
    default: return 0;
    }
}

static struct fx_val fx_expr(struct fx *x, int min);

static struct fx_val fx_number(struct fx *x)
{
    struct fx_val v = {0, 0, false};
    char *end;
    if (!x->bc && x->p[0] == '0' && (x->p[1] == 'x' || x->p[1] == 'X')) {
        v.i = strtoll(x->p + 2, &end, 16);
        v.d = (double)v.i;
    } else {
        const char *q = x->p;
        while (isdigit((unsigned char)*q))
            q++;
        bool frac = *q == '.' || ((*q == 'e' || *q == 'E') && !x->bc);
        if (frac && !x->bc) {
            v.d = strtod(x->p, &end);
            v.i = (long long)v.d;
            v.has_d = true;
        } else {
            v.i = strtoll(x->p, &end, 10);
            v.d = (double)v.i;
        }
    }
    if (end == x->p)
        x->err = true;
    x->p = end;
    return v;
}

static struct fx_val fx_primary(struct fx *x)
{
    struct fx_val v = {0, 0, false};
    fx_skip(x);
    if (*x->p == '(') {
        x->p++;
        v = fx_expr(x, 1);
        fx_skip(x);
        if (*x->p != ')')
            x->err = true;
        else
            x->p++;
    } else if (*x->p == '-') {
        x->p++;
        v = fx_expr(x, 6);   /* UMINUS binds tightest */
        v.i = -v.i;
        v.d = -v.d;
    } else if (isdigit((unsigned char)*x->p) || *x->p == '.') {
        v = fx_number(x);
    } else {
        x->err = true;
    }
    return v;
}

static struct fx_val fx_apply(struct fx *x, char op, struct fx_val a, struct fx_val b)
{
    struct fx_val r = {0, 0, a.has_d || b.has_d};
    switch (op) {
    case '+': r.i = a.i + b.i; r.d = a.d + b.d; break;
    case '-': r.i = a.i - b.i; r.d = a.d - b.d; break;
    case '*': r.i = a.i * b.i; r.d = a.d * b.d; break;
    case '/':
        if (b.i == 0 && (!r.has_d || fabs(b.d) < 1e-20)) {
            x->err = true;
            return r;
        }
        r.i = b.i ? a.i / b.i : 0;
        r.d = a.d / b.d;
        break;
    case '%':
        if (r.has_d || b.i == 0) {
            x->err = true;
            return r;
        }
        r.i = a.i % b.i;
        r.d = (double)r.i;
        break;
    case '^':
        r.d = pow(a.d, b.d);
        r.i = 1;
        for (long long k = 0; k < b.i && !r.has_d; k++)
            r.i *= a.i;
        if (r.has_d || b.i < 0)
            r.i = (long long)r.d;
        break;
    }
    if (r.has_d && op != '%')
        r.i = (long long)r.d;
    return r;
}

static struct fx_val fx_expr(struct fx *x, int min)
{
    struct fx_val v = fx_primary(x);
    for (;;) {
        fx_skip(x);
        struct fx_val m;
        const char *save = x->p;
        if (FX_SUFFIX >= min && !x->bc && fx_suffix(x, &m)) {
            v.i = v.has_d ? (long long)(v.d * m.d) : v.i * m.i;
            v.d = v.d * m.d;
            x->units = true;
            continue;
        }
        x->p = save;
        char op = *x->p;
        int p = fx_prec(x, op);
        if (!p || p < min || x->err)
            return v;
        x->p++;
        struct fx_val rhs = fx_expr(x, op == '^' ? p : p + 1);
        v = fx_apply(x, op, v, rhs);
    }
}

int fio_eval(const char *text, bool is_time, bool seconds, long long *out)
{
    struct fx x = {.p = text, .is_time = is_time};
    struct fx_val v = fx_expr(&x, 1);
    fx_skip(&x);
    if (x.err || *x.p)
        return -1;
    long long r = v.has_d ? (long long)v.d : v.i;
    if (!x.units && is_time && seconds)   /* fio's implied units: a bare number is seconds */
        r = (long long)((double)r * 1000000.0);
    *out = r;
    return 0;
}

/* bc's integer arithmetic on text (fio hands a value with $keywords and + - * / to bc). */
static int fio_bc(const char *text, long long *out)
{
    struct fx x = {.p = text, .bc = true};
    struct fx_val v = fx_expr(&x, 1);
    fx_skip(&x);
    if (x.err || *x.p)
        return -1;
    *out = v.i;
    return 0;
}

int fio_time_key(const char *key)
{
    static const char *const seconds[] = {"runtime", "timeout", "ramp_time", "startdelay",
                                          "thinktime_iotime", "ss_dur", "ss_ramp",
                                          "steadystate_duration", "steadystate_ramp_time",
                                          "flow_sleep", NULL};
    static const char *const micro[] = {"thinktime", "thinktime_spin", "latency_target",
                                        "latency_window", "max_latency", NULL};
    for (unsigned i = 0; seconds[i]; i++)
        if (!strcmp(key, seconds[i]))
            return 2;
    for (unsigned i = 0; micro[i]; i++)
        if (!strcmp(key, micro[i]))
            return 1;
    return 0;
}

unsigned long long fio_keyword_value(unsigned kw)
{
    long page = sysconf(_SC_PAGESIZE);
    if (kw == FIO_KW_PAGESIZE)
        return (unsigned long long)page;
    if (kw == FIO_KW_MB_MEMORY)   /* fio's os_phys_mem(): pages times page size */
        return (unsigned long long)sysconf(_SC_PHYS_PAGES) * (unsigned long long)page /
               (1024 * 1024);
    return (unsigned long long)sysconf(_SC_NPROCESSORS_CONF);   /* fio's cpus_configured() */
}

/* ---- substitution ---------------------------------------------------------------------- */

/* ${NAME} from the environment, nothing when unset (options.c fio_option_dup_subs). */
static void fio_sub_env(const char *in, char *out, size_t len, struct fio_line *l)
{
    size_t o = 0;
    while (*in && o + 1 < len) {
        const char *close = in[0] == '$' && in[1] == '{' ? strchr(in, '}') : NULL;
        if (close && close > in + 2) {
            char name[256];
            snprintf(name, sizeof(name), "%.*s", (int)(close - in - 2), in + 2);
            const char *env = getenv(name);
            if (!env && !l->unset_env[0])
                snprintf(l->unset_env, sizeof(l->unset_env), "%s", name);
            for (; env && *env && o + 1 < len; env++)
                out[o++] = *env;
            in = close + 1;
            continue;
        }
        out[o++] = *in++;
    }
    out[o] = '\0';
}

/* $pagesize, $mb_memory, $ncpus (options.c fio_keyword_replace). */
static void fio_sub_keywords(char *buf, size_t len, struct fio_line *l)
{
    static const char *const words[] = {"$pagesize", "$mb_memory", "$ncpus"};
    for (unsigned k = 0; k < 3; k++) {
        char *s;
        while ((s = strstr(buf, words[k])) != NULL) {
            char tail[FIO_VALUE_MAX];
            snprintf(tail, sizeof(tail), "%s", s + strlen(words[k]));
            snprintf(s, len - (size_t)(s - buf), "%llu%s", fio_keyword_value(1u << k), tail);
            l->keywords |= 1u << k;
        }
    }
}

static int fio_errf(char *err, size_t errlen, const char *file, int line, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    return errf(err, errlen, "%s:%d: %s", file, line, msg);
}

/* Each comma-separated part of buf that starts with '(' (a value per direction, as bs=
 * (4k),(8k): fio splits before it reads a number) replaced by the number fio's arithmetic
 * gives. 0, or -1 when a part is not an expression fio takes. */
static int fio_arith(struct fio_line *l, char *buf, size_t len)
{
    if (!strchr(buf, '('))
        return 0;
    char in[FIO_VALUE_MAX], *save = NULL;
    snprintf(in, sizeof(in), "%s", buf);
    size_t o = 0;
    int t = fio_time_key(l->key);
    buf[0] = '\0';
    for (char *part = strtok_r(in, ",", &save); part; part = strtok_r(NULL, ",", &save)) {
        const char *sep = o ? "," : "";
        long long v;
        int n;
        if (part[0] != '(')
            n = snprintf(buf + o, len - o, "%s%s", sep, part);
        else if (fio_eval(part, t > 0, t == 2, &v) != 0 || v < 0)
            return -1;
        else if (t == 2)   /* fio keeps whole seconds (parse.c str_to_decimal) */
            n = snprintf(buf + o, len - o, "%s%llds", sep, v / 1000000);
        else if (t == 1)
            n = snprintf(buf + o, len - o, "%s%lldus", sep, v);
        else
            n = snprintf(buf + o, len - o, "%s%lld", sep, v);
        if (n < 0 || (size_t)n >= len - o)
            return -1;
        o += (size_t)n;
        l->computed |= part[0] == '(';
    }
    return 0;
}

/* The value as an option sees it: environment, keywords, bc, arithmetic. */
static int fio_substitute(struct fio_line *l, char *err, size_t errlen)
{
    char buf[FIO_VALUE_MAX];
    fio_sub_env(l->raw, buf, sizeof(buf), l);
    fio_sub_keywords(buf, sizeof(buf), l);
    long long v;
    if (l->keywords && strpbrk(buf, "+-*/") && !strchr(buf, '\'')) {
        if (fio_bc(buf, &v) != 0)
            return fio_errf(err, errlen, l->file, l->line, "%s=%s: fio computes a value holding "
                            "$pagesize, $mb_memory or $ncpus and + - * / with bc, which would "
                            "not take '%s'", l->key, l->raw, buf);
        snprintf(buf, sizeof(buf), "%lld", v);
        l->computed = true;
    }
    if (fio_arith(l, buf, sizeof(buf)) != 0)
        return fio_errf(err, errlen, l->file, l->line, "%s=%s: bad arithmetic (fio's "
                        "operators + - * / %% ^, parentheses, units such as 4k or 10s)",
                        l->key, l->raw);
    l->value = xstrdup(buf);
    return 0;
}

/* ---- lines and sections ---------------------------------------------------------------- */

/* fio's strip_blank_front / strip_blank_end: trimmed, cut at the first ';' or '#'. */
static char *fio_trim(char *p)
{
    while (isspace((unsigned char)*p))
        p++;
    p[strcspn(p, ";#")] = '\0';
    size_t n = strlen(p);
    while (n && (isspace((unsigned char)p[n - 1]) || iscntrl((unsigned char)p[n - 1])))
        p[--n] = '\0';
    return p;
}

static const char *fio_keep_file(struct fio_doc *d, const char *path)
{
    d->files = xrealloc(d->files, (d->n_files + 1) * sizeof(*d->files));
    d->files[d->n_files] = xstrdup(path);
    return d->files[d->n_files++];
}

static int fio_add_line(struct fio_section *s, const char *text, const char *file, int line,
                        char *err, size_t errlen)
{
    s->lines = xrealloc(s->lines, (s->n + 1) * sizeof(*s->lines));
    struct fio_line *l = &s->lines[s->n];
    memset(l, 0, sizeof(*l));
    const char *eq = strchr(text, '=');
    size_t klen = eq ? (size_t)(eq - text) : strlen(text);
    while (klen && isspace((unsigned char)text[klen - 1]))
        klen--;
    if (!klen)
        return fio_errf(err, errlen, file, line, "'%s': no key before '='", text);
    l->key = xcalloc(1, klen + 1);
    memcpy(l->key, text, klen);
    l->file = file;
    l->line = line;
    s->n++;
    if (!eq)
        return 0;
    const char *v = eq + 1;
    while (isspace((unsigned char)*v))
        v++;
    l->raw = xstrdup(v);
    return fio_substitute(l, err, errlen);
}

/* The whole of path, NUL-terminated (NULL when it cannot be read). */
static char *fio_read_all(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0, got;
    char *buf = xcalloc(1, cap + 1);
    while ((got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            cap *= 2;
            buf = xrealloc(buf, cap + 1);
        }
    }
    bool bad = ferror(f) != 0;
    fclose(f);
    if (bad) {
        free(buf);
        return NULL;
    }
    buf[n] = '\0';
    return buf;
}

static int fio_read_lines(struct fio_doc *d, const char *text, const char *file, int depth,
                          struct fio_section **cur, char *err, size_t errlen);

/* "include FILE": FILE if it exists, else next to the including file (init.c). */
static int fio_include(struct fio_doc *d, const char *name, const char *from, int line,
                       int depth, struct fio_section **cur, char *err, size_t errlen)
{
    if (depth >= FIO_INCLUDE_DEPTH)
        return fio_errf(err, errlen, from, line, "include %s: more than %d levels deep", name,
                        FIO_INCLUDE_DEPTH);
    char path[1024];
    const char *slash = strrchr(from, '/');
    if (access(name, F_OK) != 0 && slash)
        snprintf(path, sizeof(path), "%.*s%s", (int)(slash - from + 1), from, name);
    else
        snprintf(path, sizeof(path), "%s", name);
    char *text = fio_read_all(path);
    if (!text)
        return fio_errf(err, errlen, from, line, "include %s: cannot read %s", name, path);
    const char *kept = fio_keep_file(d, path);
    int rc = fio_read_lines(d, text, kept, depth + 1, cur, err, errlen);
    free(text);
    return rc;
}

static int fio_open_section(struct fio_doc *d, const char *p, const char *file, int line,
                            struct fio_section **cur, char *err, size_t errlen)
{
    size_t n = strlen(p);
    if (n < 3 || p[n - 1] != ']')
        return fio_errf(err, errlen, file, line, "'%s': a section is [NAME]", p);
    d->sections = xrealloc(d->sections, (d->n + 1) * sizeof(*d->sections));
    struct fio_section *s = &d->sections[d->n++];
    memset(s, 0, sizeof(*s));
    s->name = xcalloc(1, n - 1);
    memcpy(s->name, p + 1, n - 2);
    s->global = !strncmp(s->name, "global", 6);
    s->file = file;
    s->line = line;
    *cur = s;
    return 0;
}

static int fio_read_lines(struct fio_doc *d, const char *text, const char *file, int depth,
                          struct fio_section **cur, char *err, size_t errlen)
{
    int line = 0, rc = 0;
    char *copy = xstrdup(text), *next = copy;
    while (rc == 0 && next) {
        char *p = next;
        next = strchr(p, '\n');
        if (next)
            *next++ = '\0';
        line++;
        p = fio_trim(p);
        if (!*p)
            continue;
        if (p[0] == '[') {
            if (depth > 0)
                rc = fio_errf(err, errlen, file, line, "an included file may not open a "
                              "section (fio: \"No new sections in included files\")");
            else
                rc = fio_open_section(d, p, file, line, cur, err, errlen);
        } else if (!*cur) {
            rc = fio_errf(err, errlen, file, line, "'%s' outside of a [section] (fio refuses "
                          "the file)", p);
        } else if (!strncmp(p, "include", 7) && isspace((unsigned char)p[7])) {
            char *name = p + 8;
            while (isspace((unsigned char)*name))
                name++;
            rc = fio_include(d, name, file, line, depth, cur, err, errlen);
        } else {
            rc = fio_add_line(*cur, p, file, line, err, errlen);
        }
    }
    free(copy);
    return rc;
}

int fio_doc_parse(const char *text, const char *path, struct fio_doc *doc, char *err,
                  size_t errlen)
{
    memset(doc, 0, sizeof(*doc));
    doc->path = xstrdup(path);
    const char *file = fio_keep_file(doc, path);
    struct fio_section *cur = NULL;
    if (fio_read_lines(doc, text, file, 0, &cur, err, errlen) != 0) {
        fio_doc_free(doc);
        return -1;
    }
    return 0;
}

int fio_doc_load(const char *path, struct fio_doc *doc, char *err, size_t errlen)
{
    memset(doc, 0, sizeof(*doc));
    char *text = fio_read_all(path);
    if (!text)
        return errf(err, errlen, "%s: cannot read the job file", path);
    int rc = fio_doc_parse(text, path, doc, err, errlen);
    free(text);
    return rc;
}

void fio_doc_free(struct fio_doc *doc)
{
    for (size_t i = 0; i < doc->n; i++) {
        struct fio_section *s = &doc->sections[i];
        for (size_t k = 0; k < s->n; k++) {
            free(s->lines[k].key);
            free(s->lines[k].value);
            free(s->lines[k].raw);
        }
        free(s->lines);
        free(s->name);
    }
    free(doc->sections);
    for (size_t i = 0; i < doc->n_files; i++)
        free(doc->files[i]);
    free(doc->files);
    free(doc->path);
    memset(doc, 0, sizeof(*doc));
}

const struct fio_line *fio_section_find(const struct fio_section *s, const char *key)
{
    const struct fio_line *found = NULL;
    for (size_t i = 0; s && i < s->n; i++)
        if (!strcmp(s->lines[i].key, key))
            found = &s->lines[i];
    return found;
}

/* The last line of key that job idx sees (its own, else the globals before it), or NULL. */
const struct fio_line *fio_job_find(const struct fio_doc *d, size_t idx, const char *key)
{
    const struct fio_line *l = fio_section_find(&d->sections[idx], key);
    for (size_t i = idx; !l && i-- > 0;)
        if (d->sections[i].global)
            l = fio_section_find(&d->sections[i], key);
    return l;
}

/* A flag as fio reads it: given and not "0". */
bool fio_job_flag(const struct fio_doc *d, size_t idx, const char *key)
{
    const struct fio_line *l = fio_job_find(d, idx, key);
    return l && (!l->value || strcmp(l->value, "0") != 0);
}

bool fio_job_starts_group(const struct fio_doc *d, size_t idx)
{
    const struct fio_line *wf = fio_job_find(d, idx, "wait_for");
    return fio_job_flag(d, idx, "stonewall") || fio_job_flag(d, idx, "wait_for_previous") ||
           (wf && wf->value && wf->value[0]);
}

void fio_doc_sections(const struct fio_doc *d, char *buf, size_t len)
{
    size_t pos = 0;
    snprintf(buf, len, "none");
    for (size_t i = 0; i < d->n && pos < len; i++) {
        int n = snprintf(buf + pos, len - pos, "%s%s", i ? ", " : "", d->sections[i].name);
        if (n < 0)
            break;
        pos += (size_t)n;
    }
}

long fio_doc_job(const struct fio_doc *d, const char *name, char *err, size_t errlen)
{
    for (size_t i = 0; i < d->n; i++)
        if (!strcmp(d->sections[i].name, name)) {
            if (d->sections[i].global)
                return errf(err, errlen, "%s: [%s] is not a job: name a job section", d->path,
                            name);
            return (long)i;
        }
    char names[256];
    fio_doc_sections(d, names, sizeof(names));
    return errf(err, errlen, "%s: no section [%s] (sections: %s)", d->path, name, names);
}
