/* fio_parse.h — a fio job file read as fio 3.33 reads it (init.c __parse_jobs_ini, options.c
 * fio_options_parse, parse.c str_to_decimal; HOWTO "Job file format", "Environment variables",
 * "Reserved keywords").
 *
 * The file's sections in file order, each with its lines "key[=value]" in order, every value
 * already substituted as fio substitutes it before an option sees it:
 *   - a line is cut at its first ';' or '#' (fio's strip_blank_end), blanks trimmed; a line
 *     whose first character is ';' or '#' is a comment; a line outside a section is an error;
 *   - "[NAME]" opens a section; a name starting with "global" is a global section (fio's
 *     strncmp(name, "global", 6)); same-name sections stay distinct;
 *   - "include FILE" inside a section reads FILE's lines into that section (FILE as given if it
 *     exists, else next to the job file); an included file may not open a section;
 *   - ${NAME}: the environment variable, or nothing when unset (fio substitutes always);
 *   - $pagesize, $mb_memory, $ncpus: this machine's values; a value where one was replaced and
 *     that holds + - * / is computed as fio's bc call computes it (integers);
 *   - a value starting with '(' is fio's arithmetic (exp/expression-parser.y): + - * / % ^,
 *     unary minus, parentheses, units k kb m mb g gb t tb p pb (1024) and kib mib gib pib
 *     (1000), and for durations s ms us m(inute) h d; it is replaced by the number it gives
 *     (bytes or a count; a duration as "Nus").
 * Pure apart from reading the files, the environment and the machine's three figures. */
#ifndef PTSBENCH_FIO_PARSE_H
#define PTSBENCH_FIO_PARSE_H

#include <stdbool.h>
#include <stddef.h>

/* Which reserved keywords and environment variables a value used (for the job's note). */
enum { FIO_KW_PAGESIZE = 1, FIO_KW_MB_MEMORY = 2, FIO_KW_NCPUS = 4 };

struct fio_line {
    char *key;          /* trimmed, never empty */
    char *value;        /* after substitution; NULL for a bare key (a flag) */
    char *raw;          /* the value as written (NULL for a bare key) */
    const char *file;   /* the job file or an included file (owned by the doc) */
    int line;
    unsigned keywords;  /* FIO_KW_* used */
    char unset_env[64]; /* the first ${NAME} that was unset, "" if none */
    bool computed;      /* arithmetic was evaluated */
};

struct fio_section {
    char *name;
    bool global;
    const char *file;
    int line;
    struct fio_line *lines;
    size_t n;
};

struct fio_doc {
    char *path;
    struct fio_section *sections;   /* in file order */
    size_t n;
    char **files;                   /* path and every included file, for fio_line.file */
    size_t n_files;
};

/* Read path. 0, or -1 with one line "FILE:LINE: why" in err (doc empty after a failure). */
int fio_doc_load(const char *path, struct fio_doc *doc, char *err, size_t errlen);
/* The same from text (path for messages and includes). */
int fio_doc_parse(const char *text, const char *path, struct fio_doc *doc, char *err,
                  size_t errlen);
void fio_doc_free(struct fio_doc *doc);

/* The last line of key in s, or NULL. */
const struct fio_line *fio_section_find(const struct fio_section *s, const char *key);

/* The last line of key that job section idx sees (its own, else the [global]s before it, the
 * nearest first), or NULL; a flag as fio reads it (given, and not "0"). */
const struct fio_line *fio_job_find(const struct fio_doc *d, size_t idx, const char *key);
bool fio_job_flag(const struct fio_doc *d, size_t idx, const char *key);
/* Does job idx wait for the jobs before it (stonewall, wait_for_previous, wait_for)? */
bool fio_job_starts_group(const struct fio_doc *d, size_t idx);
/* The index of the first section named name, a job; or -1 with err ("no section [X]
 * (sections: ...)", "[global] is not a job"). */
long fio_doc_job(const struct fio_doc *d, const char *name, char *err, size_t errlen);
/* "a, b, c": every section's name, for messages. */
void fio_doc_sections(const struct fio_doc *d, char *buf, size_t len);

/* fio's arithmetic on text (starting with '('): 0 and *out (bytes, or microseconds when
 * is_time; a bare number in a duration counts seconds when seconds), or -1. */
int fio_eval(const char *text, bool is_time, bool seconds, long long *out);

/* A key whose value fio reads as a duration in seconds (runtime, ramp_time, ...) or in
 * microseconds (thinktime, ...): 2 seconds, 1 microseconds, 0 not a duration. */
int fio_time_key(const char *key);

/* This machine's value of a reserved keyword (FIO_KW_*), as fio computes it. */
unsigned long long fio_keyword_value(unsigned kw);

#endif
