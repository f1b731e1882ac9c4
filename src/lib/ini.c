/* ini.c — fio-style INI parser (see ini.h for the syntax).
 *
 * A section name that appears twice is one section: the later lines are appended to it,
 * so ini_find() (last value wins) lets them override the earlier ones. */
#include "lib/ini.h"

#include "lib/util.h"

#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define INI_MAX_FILE (16u << 20)   /* profiles and definitions are small */

/* Grow an array of n elements so that one more fits (capacity doubles at powers of two). */
static _Thread_local unsigned long ini_lines, ini_compares;

unsigned long ini_lines_parsed(void) { return ini_lines; }
unsigned long ini_section_compares(void) { return ini_compares; }

static void *ini_grow(void *arr, size_t n, size_t elem)
{
    if (n == 0)
        return xrealloc(arr, 4 * elem);
    if (n >= 4 && (n & (n - 1)) == 0)
        return xrealloc(arr, 2 * n * elem);
    return arr;
}

/* Cut a trailing comment: ';' or '#' preceded by whitespace. */
static void ini_strip_comment(char *s)
{
    for (char *p = s + 1; *p; p++) {
        if ((*p == ';' || *p == '#') && (p[-1] == ' ' || p[-1] == '\t')) {
            *p = '\0';
            return;
        }
    }
}

/* ---- the section index: FNV-1a over the name, linear probing, load at most 1/2 ---- */

static size_t ini_hash(const char *name)
{
    size_t h = (size_t)14695981039346656037ull;
    for (const unsigned char *p = (const unsigned char *)name; *p; p++)
        h = (h ^ *p) * (size_t)1099511628211ull;
    return h;
}

static void ini_index_put(size_t *index, size_t cap, const char *name, size_t i)
{
    size_t k = ini_hash(name) & (cap - 1);
    while (index[k])
        k = (k + 1) & (cap - 1);
    index[k] = i + 1;
}

/* Make room for one more section (the index doubles and is rebuilt when half full). */
static void ini_index_grow(struct ini_file *f)
{
    if (2 * (f->n_sections + 1) <= f->index_cap)
        return;
    size_t cap = f->index_cap ? 2 * f->index_cap : 16;
    free(f->index);
    f->index = xcalloc(cap, sizeof(*f->index));
    f->index_cap = cap;
    for (size_t i = 0; i < f->n_sections; i++)
        ini_index_put(f->index, cap, f->sections[i].name, i);
}

static struct ini_section *ini_lookup(const struct ini_file *f, const char *name)
{
    if (!f->index_cap)
        return NULL;
    for (size_t k = ini_hash(name) & (f->index_cap - 1); f->index[k];
         k = (k + 1) & (f->index_cap - 1)) {
        ini_compares++;
        if (strcmp(f->sections[f->index[k] - 1].name, name) == 0)
            return &f->sections[f->index[k] - 1];
    }
    return NULL;
}

static struct ini_section *ini_add_section(struct ini_file *f, const char *name, int line)
{
    struct ini_section *old = ini_lookup(f, name);
    if (old)
        return old;
    ini_index_grow(f);
    f->sections = ini_grow(f->sections, f->n_sections, sizeof *f->sections);
    struct ini_section *s = &f->sections[f->n_sections];
    memset(s, 0, sizeof *s);
    s->name = xstrdup(name);
    s->line = line;
    ini_index_put(f->index, f->index_cap, s->name, f->n_sections);
    f->n_sections++;
    return s;
}

static void ini_add_entry(struct ini_section *s, const char *key, const char *value, int line)
{
    s->entries = ini_grow(s->entries, s->n_entries, sizeof *s->entries);
    struct ini_entry *e = &s->entries[s->n_entries++];
    e->key = xstrdup(key);
    e->value = xstrdup(value);
    e->line = line;
}

/* "[name]" with comments already stripped and trimmed. Returns the name or NULL. */
static char *ini_section_name(char *line, const char **why)
{
    size_t n = strlen(line);
    if (line[n - 1] != ']') {
        *why = strchr(line, ']') ? "text after ']'" : "missing ']'";
        return NULL;
    }
    line[n - 1] = '\0';
    char *name = str_trim(line + 1);
    if (*name == '\0') {
        *why = "empty section name";
        return NULL;
    }
    if (strpbrk(name, "[]")) {
        *why = "'[' or ']' inside a section name";
        return NULL;
    }
    return name;
}

/* Parse one line (modified in place) into f; *cur is the current section index. */
static int ini_parse_line(struct ini_file *f, char *line, int lineno, size_t *cur,
                          char *err, size_t errlen)
{
    char *s = str_trim(line);
    if (*s == '\0' || *s == ';' || *s == '#')
        return 0;
    ini_strip_comment(s);
    s = str_trim(s);
    if (*s == '[') {
        const char *why = NULL;
        char *name = ini_section_name(s, &why);
        if (!name)
            return errf(err, errlen, "%s:%d: %s", f->path, lineno, why);
        struct ini_section *sec = ini_add_section(f, name, lineno);
        *cur = (size_t)(sec - f->sections);
        return 0;
    }
    if (*cur == (size_t)-1)
        *cur = (size_t)(ini_add_section(f, "global", lineno) - f->sections);
    char *eq = strchr(s, '=');
    const char *value = "";
    if (eq) {
        *eq = '\0';
        value = str_trim(eq + 1);
    }
    char *key = str_trim(s);
    if (*key == '\0')
        return errf(err, errlen, "%s:%d: missing key before '='", f->path, lineno);
    ini_add_entry(&f->sections[*cur], key, value, lineno);
    return 0;
}

int ini_parse_string(const char *text, const char *path, struct ini_file *out,
                     char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    out->path = xstrdup(path ? path : "<string>");
    char *copy = xstrdup(text);
    char *p = copy;
    if ((unsigned char)p[0] == 0xEF && (unsigned char)p[1] == 0xBB &&
        (unsigned char)p[2] == 0xBF)
        p += 3;                                    /* UTF-8 byte order mark */
    size_t cur = (size_t)-1;
    int rc = 0;
    for (int lineno = 1; p && rc == 0; lineno++) {
        char *nl = strchr(p, '\n');
        if (nl)
            *nl = '\0';
        rc = ini_parse_line(out, p, lineno, &cur, err, errlen);
        ini_lines++;
        p = nl ? nl + 1 : NULL;
    }
    free(copy);
    if (rc < 0)
        ini_free(out);
    return rc;
}

/* Read a whole file into a NUL-terminated buffer. */
static char *ini_read_all(const char *path, char *err, size_t errlen)
{
    FILE *fp = fopen(path, "re");
    if (!fp) {
        errf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    size_t cap = 4096, n = 0;
    char *buf = xcalloc(1, cap);
    for (;;) {
        if (n + 1 >= cap) {
            if (cap >= INI_MAX_FILE) {
                errf(err, errlen, "%s: larger than %u bytes", path, INI_MAX_FILE);
                goto fail;
            }
            cap *= 2;
            buf = xrealloc(buf, cap);
        }
        size_t got = fread(buf + n, 1, cap - n - 1, fp);
        n += got;
        if (got == 0)
            break;
    }
    if (ferror(fp)) {
        errf(err, errlen, "%s: read error", path);
        goto fail;
    }
    if (memchr(buf, '\0', n)) {
        errf(err, errlen, "%s: not a text file (contains NUL bytes)", path);
        goto fail;
    }
    buf[n] = '\0';
    fclose(fp);
    return buf;
fail:
    fclose(fp);
    free(buf);
    return NULL;
}

int ini_parse_file(const char *path, struct ini_file *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    char *text = ini_read_all(path, err, errlen);
    if (!text)
        return -1;
    int rc = ini_parse_string(text, path, out, err, errlen);
    free(text);
    return rc;
}

void ini_free(struct ini_file *f)
{
    if (!f)
        return;
    for (size_t i = 0; i < f->n_sections; i++) {
        struct ini_section *s = &f->sections[i];
        for (size_t j = 0; j < s->n_entries; j++) {
            free(s->entries[j].key);
            free(s->entries[j].value);
        }
        free(s->entries);
        free(s->name);
    }
    free(f->sections);
    free(f->index);
    free(f->path);
    memset(f, 0, sizeof *f);
}

const struct ini_section *ini_find_section(const struct ini_file *f, const char *name)
{
    return f && name ? ini_lookup(f, name) : NULL;
}

const struct ini_entry *ini_find(const struct ini_section *s, const char *key)
{
    if (!s || !key)
        return NULL;
    for (size_t i = s->n_entries; i-- > 0;)
        if (strcmp(s->entries[i].key, key) == 0)
            return &s->entries[i];
    return NULL;
}
