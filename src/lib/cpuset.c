/* cpuset.c — CPU lists "0-3,8,10-11" to and from cpu_set_t (cpuset.h). */
#include "lib/cpuset.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"

/* One CPU number at *p (decimal digits only), advancing *p. */
static int cpu_number(const char **p, const char *item, size_t item_len, long *out, char *err,
                      size_t errlen)
{
    if (!isdigit((unsigned char)**p))
        return errf(err, errlen, "'%.*s' is not a CPU number", (int)item_len, item);
    errno = 0;
    char *end;
    long v = strtol(*p, &end, 10);
    if (errno || v >= CPU_SETSIZE)
        return errf(err, errlen, "CPU %.*s is beyond %d, the last this build can pin",
                    (int)(end - *p), *p, CPU_SETSIZE - 1);
    *p = end;
    *out = v;
    return 0;
}

/* One item "N" or "N-M" (item_len bytes at item) into out. */
static int cpu_item(const char *item, size_t item_len, cpu_set_t *out, char *err, size_t errlen)
{
    const char *p = item, *end = item + item_len;
    while (p < end && isspace((unsigned char)*p))
        p++;
    while (end > p && isspace((unsigned char)end[-1]))
        end--;
    if (p == end)
        return errf(err, errlen, "an empty item in the list");
    char buf[64];
    size_t n = (size_t)(end - p);
    if (n >= sizeof(buf))
        return errf(err, errlen, "'%.*s...' is not a CPU number", 20, p);
    memcpy(buf, p, n);
    buf[n] = '\0';
    const char *q = buf;
    long lo, hi;
    if (cpu_number(&q, buf, n, &lo, err, errlen) != 0)
        return -1;
    hi = lo;
    if (*q == '-') {
        q++;
        if (cpu_number(&q, buf, n, &hi, err, errlen) != 0)
            return -1;
        if (hi < lo)
            return errf(err, errlen, "range %s runs backwards", buf);
    }
    if (*q)
        return errf(err, errlen, "'%s' is not a CPU number or range N-M", buf);
    for (long c = lo; c <= hi; c++)
        CPU_SET((int)c, out);
    return 0;
}

int cpuset_parse(const char *text, cpu_set_t *out, char *err, size_t errlen)
{
    CPU_ZERO(out);
    const char *p = text;
    while (*p && isspace((unsigned char)*p))
        p++;
    if (!*p)
        return 0;
    for (;;) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        if (cpu_item(p, len, out, err, errlen) != 0)
            return -1;
        if (!comma)
            return 0;
        p = comma + 1;
    }
}

void cpuset_format(const cpu_set_t *s, char *buf, size_t len)
{
    size_t k = 0;
    buf[0] = '\0';
    for (int c = 0; c < CPU_SETSIZE; c++) {
        if (!CPU_ISSET(c, s))
            continue;
        int e = c;
        while (e + 1 < CPU_SETSIZE && CPU_ISSET(e + 1, s))
            e++;
        char item[32];
        if (e == c)
            snprintf(item, sizeof(item), "%s%d", k ? "," : "", c);
        else
            snprintf(item, sizeof(item), "%s%d-%d", k ? "," : "", c, e);
        size_t il = strlen(item);
        if (k + il + 4 > len) {   /* room for "..." and the NUL */
            if (len >= 4)
                snprintf(buf + (k + 4 <= len ? k : len - 4), 4, "...");
            return;
        }
        memcpy(buf + k, item, il + 1);
        k += il;
        c = e;
    }
}

unsigned cpuset_count(const cpu_set_t *s) { return (unsigned)CPU_COUNT(s); }

bool cpuset_subset(const cpu_set_t *a, const cpu_set_t *b)
{
    cpu_set_t both;
    CPU_AND(&both, a, b);
    return CPU_EQUAL(&both, a);
}

int cpuset_first(const cpu_set_t *s)
{
    for (int c = 0; c < CPU_SETSIZE; c++)
        if (CPU_ISSET(c, s))
            return c;
    return -1;
}
