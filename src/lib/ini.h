/* ini.h — the one parser for ptsbench's data files (profiles, PTS definitions,
 * device presets, spec sheets).  fio-style syntax:
 *
 *   ; comment            # comment        (whole-line comments; also after whitespace
 *                                           following a value: "bs=4k   ; note")
 *   [section]
 *   key=value            key = value      (spaces around '=' and the value are trimmed)
 *   flag                 (a key with no '=' has the value "" — fio's boolean style)
 *
 * Keys before the first section belong to the section "global".  Section and key
 * names are case-sensitive.  Each entry remembers its line number so that errors
 * can say "profiles/web.ini:12: ...". */
#ifndef PTSBENCH_INI_H
#define PTSBENCH_INI_H

#include <stddef.h>

struct ini_entry {
    char *key;
    char *value;
    int line;
};

struct ini_section {
    char *name;
    int line;
    struct ini_entry *entries;
    size_t n_entries;
};

struct ini_file {
    char *path;                 /* as given, for messages */
    struct ini_section *sections;
    size_t n_sections;
    /* Private: section names hashed (open addressing, index + 1, 0 = empty), so that a file of
     * thousands of sections parses and looks its sections up in linear time. */
    size_t *index;
    size_t index_cap;
};

/* Parse text (path only for messages). Returns 0, or -1 with "path:line: reason". */
int ini_parse_string(const char *text, const char *path, struct ini_file *out,
                     char *err, size_t errlen);
int ini_parse_file(const char *path, struct ini_file *out, char *err, size_t errlen);
void ini_free(struct ini_file *f);

const struct ini_section *ini_find_section(const struct ini_file *f, const char *name);
/* What this thread's parses and lookups have done so far, for tests of their complexity: lines
 * read (a loader parses a file once, not once per section) and section names compared (the
 * index makes a lookup a compare or two, not one per section). */
unsigned long ini_lines_parsed(void);
unsigned long ini_section_compares(void);
/* Last value of key in section (later lines override earlier ones), or NULL. */
const struct ini_entry *ini_find(const struct ini_section *s, const char *key);

#endif
