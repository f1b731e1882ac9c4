/* util.c — small shared helpers. */
#include "lib/util.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int errf(char *err, size_t errlen, const char *fmt, ...)
{
    if (err && errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
        /* one line comes out: a value quoted from a file or an argument may hold a newline or
         * another control character (a CR of a CRLF file); it is shown as '?' */
        for (char *c = err; *c; c++)
            if ((unsigned char)*c < 0x20 || *c == 0x7f)
                *c = '?';
    }
    return -1;
}

uint64_t now_mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

void iso8601_now(char *buf, size_t len)
{
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static void oom(void)
{
    fputs("ptsbench: out of memory\n", stderr);
    abort();
}

void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p)
        oom();
    return p;
}

void *xrealloc(void *p, size_t size)
{
    void *q = realloc(p, size ? size : 1);
    if (!q)
        oom();
    return q;
}

char *xstrdup(const char *s)
{
    char *p = strdup(s ? s : "");
    if (!p)
        oom();
    return p;
}

int read_text_file(const char *path, char *buf, size_t len)
{
    if (!len)
        return -1;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    ssize_t n = read(fd, buf, len - 1);
    int saved = errno;
    close(fd);
    if (n < 0) {
        errno = saved;
        return -1;
    }
    while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' ' || buf[n - 1] == '\t'))
        n--;
    buf[n] = '\0';
    return (int)n;
}

char *str_trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    size_t n = strlen(s);
    while (n > 0 && isspace((unsigned char)s[n - 1]))
        s[--n] = '\0';
    return s;
}

bool str_last_line(const char *text, char *buf, size_t len)
{
    const char *best = NULL, *best_end = NULL;
    for (const char *p = text ? text : ""; *p;) {
        const char *e = strchr(p, '\n');
        if (!e)
            e = p + strlen(p);
        for (const char *q = p; q < e; q++)
            if (!isspace((unsigned char)*q)) {
                best = p;
                best_end = e;
                break;
            }
        p = *e ? e + 1 : e;
    }
    if (len)
        buf[0] = '\0';
    if (!best || !len)
        return false;
    while (best_end > best && isspace((unsigned char)best_end[-1]))
        best_end--;
    size_t n = (size_t)(best_end - best);
    if (n >= len)
        n = len - 1;
    memcpy(buf, best, n);
    buf[n] = '\0';
    return true;
}

void str_copy(char *dst, size_t len, const char *src)
{
    if (!len)
        return;
    size_t n = strnlen(src, len - 1);
    memcpy(dst, src, n);
    dst[n] = '\0';
}
