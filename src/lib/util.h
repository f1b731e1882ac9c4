/* util.h — small shared helpers: error messages, time, checked allocation. */
#ifndef PTSBENCH_UTIL_H
#define PTSBENCH_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Error messages travel as (buffer, length) pairs filled by the function that
 * found the problem; only main decides the exit code.  errf() formats into the
 * buffer and returns -1 so that callers can write `return errf(err, n, ...)`; the
 * message is one line (a control character quoted from a file or an argument, such
 * as a newline, becomes '?'). */
#define ERR_LEN 512
int errf(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Exit codes used by every subcommand. */
enum {
    EXIT_OK = 0,
    EXIT_FAILURE_RUN = 1,   /* the run failed (I/O error, engine error) */
    EXIT_USAGE = 2,         /* bad input or refused (nothing written) */
    EXIT_INTERRUPTED = 130, /* SIGINT/SIGTERM: completed rounds are kept */
};

uint64_t now_mono_ns(void);        /* CLOCK_MONOTONIC in ns */
void iso8601_now(char *buf, size_t len);  /* UTC, e.g. 2026-11-30T00:13:45Z */

void *xcalloc(size_t n, size_t size);     /* aborts with a message on ENOMEM */
void *xrealloc(void *p, size_t size);
char *xstrdup(const char *s);

/* Trim leading and trailing whitespace in place; returns the start of the trimmed text
 * (inside s). */
char *str_trim(char *s);
/* The last line of text holding more than white space, its trailing white space dropped, into
 * buf (a child's stderr: its last line says what went wrong). false (buf "") when none. */
bool str_last_line(const char *text, char *buf, size_t len);
/* Bounded copy: always NUL-terminated, silently truncating. */
void str_copy(char *dst, size_t len, const char *src);

/* Read a small text file (sysfs/proc) into buf, strip trailing whitespace.
 * Returns length, or -1 when it cannot be read. */
int read_text_file(const char *path, char *buf, size_t len);

#endif
