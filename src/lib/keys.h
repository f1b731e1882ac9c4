/* keys.h — the keys of a data file as rows: one typed row per key, one setter, one printer.
 *
 * PTS definitions (pts/pts_def.c), simulated-drive presets (sim/sim_preset.c) and workloads
 * with their profile keys (io/workload.c) describe their keys as a table of struct key_row:
 * the key, its type and range, where the value goes (offset and size of a field of the
 * caller's struct) or the function that takes it, and one line of help. keys_set() parses a
 * value by its row and stores it, or refuses it with one line naming key, value and range;
 * keys_print_values() and keys_print_help() print the rows for --describe and --help. A new
 * key is one row (a setter function only when its value is more than a type and a range).
 *
 * The contract:
 *   - A REFUSED row is a key the format knows and does not take: "WHERE: key: why".
 *   - A NOTED row takes any value (or none) and stores nothing; the caller records its help.
 *   - A refused value leaves the field as it was (FN: as its setter says). Messages:
 *     "WHERE: key=value: why", or, for a setter returning KEYS_BAD_KEY, "WHERE: key why
 *     (key=value)" (a reason about the key as a whole: "bssplit weights sum to 98, want 100").
 *     WHERE is the caller's ("file.ini:12").
 *   - Why, by type: STR "longer than N characters"; BOOL "want 0/1, yes/no, on/off or
 *     true/false" (case-insensitive; an empty value is yes: a bare flag); UINT "must be an
 *     integer LO..HI"; POW2 "must be a power of two LO..HI"; SIZE (units.h suffixes) the
 *     parser's reason, or "must be a multiple of M, LO..HI" / "must be LO..HI"; DOUBLE "must be
 *     a number LO..HI" (plain decimal, exponent allowed, no inf/nan); PCT "must be a percentage
 *     LO..HI"; TIME (units.h durations, ns) "want a duration of at least LO"; CHOICE "want a, b
 *     or c" (the listed names; synonyms are taken and not listed); ULIST "want up to N numbers
 *     LO..HI"; FN the setter's own reason.
 *   - UINT, POW2 and SIZE store by the field's size (4 or 8 bytes); CHOICE stores a bool or an
 *     int (an enum) by the field's size; ULIST stores unsigned values and their count.
 *   - A row's `zero` word (UINT only), when given, stores 0 ("threads = spec").
 *   - Pure: no I/O but the FILE a printer is given. */
#ifndef PTSBENCH_KEYS_H
#define PTSBENCH_KEYS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum key_type {
    KEY_STR, KEY_BOOL, KEY_UINT, KEY_POW2, KEY_SIZE, KEY_DOUBLE, KEY_PCT, KEY_TIME,
    KEY_CHOICE, KEY_ULIST, KEY_FN,
    KEY_ALIAS,               /* another name of the row `alias` names */
    KEY_REFUSED,             /* a known key that is refused: help says why */
    KEY_NOTED,               /* a known key taken without effect on what is measured (any
                              * value): help says what the format's own tool would have done
                              * differently, a note the caller records (keys_set returns 0) */
};

struct key_choice {
    const char *name;
    int value;
    bool synonym;            /* taken, not listed in messages and help */
};

/* A setter's result: 0, KEYS_BAD_VALUE ("key=value: why") or KEYS_BAD_KEY ("key why"). */
enum { KEYS_OK = 0, KEYS_BAD_VALUE = -1, KEYS_BAD_KEY = -2, KEYS_UNKNOWN = -3 };
typedef int (*key_setter)(void *obj, const char *value, char *why, size_t whylen);

struct key_row {
    const char *key;
    enum key_type type;
    size_t off, size;        /* the field (not FN, ALIAS) */
    double lo, hi;           /* UINT, POW2, SIZE, DOUBLE, PCT, ULIST range; TIME: lo in ns */
    uint64_t mult;           /* SIZE: a multiple of this (0: any) */
    const struct key_choice *choices;   /* CHOICE, ending with {NULL} */
    size_t count_off;        /* ULIST: the unsigned count; size / sizeof(unsigned) at most */
    key_setter set;          /* FN */
    const char *zero;        /* UINT: a word that stores 0 */
    const char *alias;       /* ALIAS: the key it stands for */
    const char *arg;         /* FN: the value's form for help ("METRIC@BS/MIX,...") */
    const char *help;        /* one line */
    const char *group;       /* for printing a part of a table (NULL: none) */
    bool bare;               /* the key alone, without a value, is taken (a flag) */
};

struct key_table {
    const struct key_row *rows;
    size_t n;
};

#define KEY_FIELD(type, f) offsetof(type, f), sizeof(((type *)0)->f)
#define KEY_TABLE(rows) {(rows), sizeof(rows) / sizeof((rows)[0])}

/* The row of key (an alias gives the row it stands for), or NULL. */
const struct key_row *keys_find(const struct key_table *t, const char *key);

/* Set key from its text in obj. Returns 0; KEYS_UNKNOWN (err untouched) when no row has the
 * key; else -1 with the message (see above) in err. */
int keys_set(const struct key_table *t, void *obj, const char *key, const char *value,
             const char *where, char *err, size_t errlen);

/* The row's type and range in words: "integer 1..64", "stripe | vca", "size 4KiB..1MiB,
 * multiple of 4 KiB", or its arg for FN. */
void keys_row_range(const struct key_row *r, char *buf, size_t len);

/* The row's current value in obj as keys_set takes it back ("" for FN). */
void keys_row_value(const struct key_row *r, const void *obj, char *buf, size_t len);

/* "key = value<pad>; comment" (an INI line; the comment column is 38). */
void keys_print_line(FILE *out, const char *key, const char *value, const char *comment);

/* Every row but FN, ALIAS, REFUSED and NOTED as an INI line with its current value in obj;
 * the comment is what note(row, obj) writes (when given), then the row's help and "(range)". */
typedef void (*key_note)(const struct key_row *r, const void *obj, char *buf, size_t len);
void keys_print_values(FILE *out, const struct key_table *t, const void *obj, key_note note);

/* Every row of group (NULL: all) for --help: "  key [aliases]  range\n      help". */
void keys_print_help(FILE *out, const struct key_table *t, const char *group);

/* Optimal string alignment distance between a and b (a swap of two neighbours counts 1),
 * capped at 9: for "did you mean" suggestions. */
unsigned keys_edit_distance(const char *a, const char *b);

#endif
