/* trace.c — block I/O traces: the four readers, statistics, busy time, offset remapping.
 * See trace.h for the formats. Every reader appends records on the file's own clock; the
 * merge (trace_finish) sorts by issue time and re-bases to 0. Nothing here does I/O on a
 * device: a trace is data. */
#include "io/trace.h"

#include <ctype.h>
#include <errno.h>
#include <linux/blktrace_api.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lib/util.h"

/* ---------------------------------------------------------------- records */

void trace_add(struct trace *t, const struct trace_rec *r)
{
    if (t->n == t->cap) {
        t->cap = t->cap ? 2 * t->cap : 1024;
        t->r = xrealloc(t->r, t->cap * sizeof(*t->r));
    }
    t->r[t->n++] = *r;
}

/* qsort is not stable: sort (time, position) pairs and permute. */
struct rec_key {
    uint64_t t;
    size_t i;
};
static int key_cmp(const void *a, const void *b)
{
    const struct rec_key *x = a, *y = b;
    if (x->t != y->t)
        return x->t < y->t ? -1 : 1;
    return x->i < y->i ? -1 : x->i > y->i;
}

static void sort_records(struct trace *t)
{
    bool sorted = true;
    for (size_t i = 1; i < t->n && sorted; i++)
        sorted = t->r[i - 1].t_ns <= t->r[i].t_ns;
    if (sorted)
        return;
    struct rec_key *k = xcalloc(t->n, sizeof(*k));
    for (size_t i = 0; i < t->n; i++)
        k[i] = (struct rec_key){t->r[i].t_ns, i};
    qsort(k, t->n, sizeof(*k), key_cmp);
    struct trace_rec *r = xcalloc(t->cap, sizeof(*r));
    for (size_t i = 0; i < t->n; i++)
        r[i] = t->r[k[i].i];
    free(t->r);
    t->r = r;
    free(k);
}

static int match_events(struct trace *t, char *err, size_t errlen);

int trace_finish(struct trace *t, char *err, size_t errlen)
{
    if (t->nev && match_events(t, err, errlen))
        return -1;
    if (!t->n)
        return errf(err, errlen, "%s: no reads or writes in the trace",
                    t->source[0] ? t->source : "trace");
    sort_records(t);
    uint64_t t0 = t->r[0].t_ns;
    bool done = true;
    for (size_t i = 0; i < t->n; i++) {
        t->r[i].t_ns -= t0;
        if (t->r[i].done_ns == TRACE_NO_DONE)
            done = false;
        else
            t->r[i].done_ns = t->r[i].done_ns >= t0 ? t->r[i].done_ns - t0 : 0;
    }
    t->has_done = done;
    return 0;
}

void trace_free(struct trace *t)
{
    free(t->r);
    free(t->ev);
    memset(t, 0, sizeof(*t));
}

uint64_t trace_extent(const struct trace *t)
{
    uint64_t e = 0;
    for (size_t i = 0; i < t->n; i++)
        if (t->r[i].offset + t->r[i].len > e)
            e = t->r[i].offset + t->r[i].len;
    return e;
}

/* ---------------------------------------------------------------- text helpers */

/* The whole file, NUL-terminated (*len without the NUL). NULL with err. */
static char *slurp(const char *path, size_t *len, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        errf(err, errlen, "%s: %s", path, strerror(errno));
        return NULL;
    }
    size_t cap = 1 << 16, n = 0;
    char *buf = xcalloc(1, cap + 1);
    for (;;) {
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (n < cap) {
            if (ferror(f)) {
                errf(err, errlen, "%s: %s", path, strerror(errno));
                fclose(f);
                free(buf);
                return NULL;
            }
            break;
        }
        cap *= 2;
        buf = xrealloc(buf, cap + 1);
    }
    fclose(f);
    buf[n] = '\0';
    *len = n;
    return buf;
}

/* A decimal number of seconds ("0.000123", "12", "1.5e-3") in ns. */
static bool parse_seconds(const char *s, uint64_t *ns)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end || errno || !(v >= 0) || v > 1e9)
        return false;
    *ns = (uint64_t)llround(v * 1e9);
    return true;
}

static bool parse_u64(const char *s, uint64_t *v)
{
    if (!*s || !isdigit((unsigned char)*s))
        return false;
    char *end;
    errno = 0;
    unsigned long long x = strtoull(s, &end, 10);
    if (*end || errno)
        return false;
    *v = x;
    return true;
}

/* Split s at whitespace into at most max fields; returns the count. */
static int split_ws(char *s, char **f, int max)
{
    int n = 0;
    char *p = s;
    while (n < max) {
        while (*p && isspace((unsigned char)*p))
            p++;
        if (!*p)
            break;
        f[n++] = p;
        while (*p && !isspace((unsigned char)*p))
            p++;
        if (*p)
            *p++ = '\0';
    }
    return n;
}

/* Split s at commas into at most max trimmed fields; returns the count (max + 1 when there
 * are more). */
static int split_csv(char *s, char **f, int max)
{
    int n = 0;
    for (char *tok; (tok = strsep(&s, ",")) != NULL;) {
        if (n == max)
            return max + 1;
        f[n++] = str_trim(tok);
    }
    return n;
}

static int add_io(struct trace *t, uint64_t ts, uint64_t done, uint64_t off, uint64_t len,
                  int dir, const char *path, size_t line, char *err, size_t errlen)
{
    if (len == 0 || len > UINT32_MAX)
        return errf(err, errlen, "%s:%zu: length %llu: want 1 byte to 4 GiB", path, line,
                    (unsigned long long)len);
    if (off > UINT64_MAX - len)
        return errf(err, errlen, "%s:%zu: offset %llu + length overflows", path, line,
                    (unsigned long long)off);
    if (done != TRACE_NO_DONE && done < ts)
        return errf(err, errlen, "%s:%zu: completion before issue", path, line);
    trace_add(t, &(struct trace_rec){ts, done, off, (uint32_t)len, (uint8_t)dir});
    return 0;
}

/* ---------------------------------------------------------------- csv */

static int dir_word(const char *s)
{
    if (!strcasecmp(s, "r") || !strcasecmp(s, "read") || !strcmp(s, "0"))
        return TRACE_READ;
    if (!strcasecmp(s, "w") || !strcasecmp(s, "write") || !strcmp(s, "1"))
        return TRACE_WRITE;
    return -1;
}

static int load_csv(char *text, const char *path, struct trace *t, char *err, size_t errlen)
{
    size_t line = 0;
    bool first = true;
    for (char *save = NULL, *l = strtok_r(text, "\n", &save); l;
         l = strtok_r(NULL, "\n", &save)) {
        line++;
        char *s = str_trim(l);
        if (!*s || *s == '#')
            continue;
        char *f[5];
        int nf = split_csv(s, f, 5);
        if (first && nf >= 1 && !isdigit((unsigned char)f[0][0]) && f[0][0] != '.') {
            first = false;   /* a header line */
            continue;
        }
        first = false;
        if (nf < 4 || nf > 5)
            return errf(err, errlen, "%s:%zu: %d fields: want timestamp,offset,length,"
                        "direction[,completion]", path, line, nf);
        uint64_t ts, off, len, done = TRACE_NO_DONE;
        if (!parse_seconds(f[0], &ts))
            return errf(err, errlen, "%s:%zu: timestamp '%s': want seconds (0.000123)", path,
                        line, f[0]);
        if (!parse_u64(f[1], &off))
            return errf(err, errlen, "%s:%zu: offset '%s': want bytes", path, line, f[1]);
        if (!parse_u64(f[2], &len))
            return errf(err, errlen, "%s:%zu: length '%s': want bytes", path, line, f[2]);
        int dir = dir_word(f[3]);
        if (dir < 0)
            return errf(err, errlen, "%s:%zu: direction '%s': want R or W", path, line, f[3]);
        if (nf == 5 && *f[4] && !parse_seconds(f[4], &done))
            return errf(err, errlen, "%s:%zu: completion '%s': want seconds", path, line,
                        f[4]);
        if (add_io(t, ts, done, off, len, dir, path, line, err, errlen))
            return -1;
    }
    t->timed = true;
    return 0;
}

/* ---------------------------------------------------------------- fio iolog v2 / v3 */

struct name_set {
    char **v;
    size_t n;
};

static void name_note(struct name_set *s, const char *name)
{
    for (size_t i = 0; i < s->n; i++)
        if (!strcmp(s->v[i], name))
            return;
    s->v = xrealloc(s->v, (s->n + 1) * sizeof(*s->v));
    s->v[s->n++] = xstrdup(name);
}

static void name_free(struct name_set *s)
{
    for (size_t i = 0; i < s->n; i++)
        free(s->v[i]);
    free(s->v);
}

static int load_iolog(char *text, int version, const char *path, struct trace *t, char *err,
                      size_t errlen)
{
    size_t line = 1;
    char *save = NULL;
    strtok_r(text, "\n", &save);   /* the "fio version N iolog" line */
    uint64_t now = 0;              /* v2: the sum of the waits so far, ns */
    bool waits = false;
    struct name_set names = {0};
    int ret = 0;
    for (char *l = strtok_r(NULL, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
        line++;
        char *s = str_trim(l);
        if (!*s)
            continue;
        char *f[6];
        int nf = split_ws(s, f, 6);
        uint64_t ts = now;
        int k = 0;
        if (version == 3) {
            if (nf < 3 || !parse_u64(f[0], &ts)) {
                ret = errf(err, errlen, "%s:%zu: want 'microseconds filename action "
                           "[offset length]'", path, line);
                break;
            }
            ts *= 1000;
            k = 1;
        } else if (nf < 2) {
            ret = errf(err, errlen, "%s:%zu: want 'filename action [offset length]'", path,
                       line);
            break;
        }
        const char *act = f[k + 1];
        if (!strcmp(act, "add") || !strcmp(act, "open") || !strcmp(act, "close")) {
            name_note(&names, f[k]);
            continue;
        }
        if (!strcmp(act, "sync") || !strcmp(act, "datasync")) {
            t->skipped++;   /* with or without an offset and a length */
            continue;
        }
        if (nf != k + 4) {
            ret = errf(err, errlen, "%s:%zu: action '%s' wants an offset and a length", path,
                       line, act);
            break;
        }
        uint64_t off, len;
        if (!parse_u64(f[k + 2], &off) || !parse_u64(f[k + 3], &len)) {
            ret = errf(err, errlen, "%s:%zu: offset '%s' length '%s': want bytes", path, line,
                       f[k + 2], f[k + 3]);
            break;
        }
        if (!strcmp(act, "wait")) {
            if (version == 3) {
                ret = errf(err, errlen, "%s:%zu: 'wait' is not allowed in a version 3 iolog "
                           "(timestamps replace it)", path, line);
                break;
            }
            now += off * 1000;   /* microseconds since the previous wait */
            waits = true;
            continue;
        }
        if (!strcmp(act, "trim")) {
            t->skipped++;
            continue;
        }
        int dir = !strcmp(act, "read") ? TRACE_READ : !strcmp(act, "write") ? TRACE_WRITE : -1;
        if (dir < 0) {
            ret = errf(err, errlen, "%s:%zu: unknown action '%s'", path, line, act);
            break;
        }
        name_note(&names, f[k]);
        if ((ret = add_io(t, ts, TRACE_NO_DONE, off, len, dir, path, line, err, errlen)))
            break;
    }
    if (names.n > t->files)
        t->files = names.n;
    name_free(&names);
    t->timed = version == 3 || waits;
    return ret;
}

/* ---------------------------------------------------------------- blkparse text and binary */

/* One block-layer event, from either form: kept until every file is read (trace_finish). */
struct trace_ev {
    uint64_t time_ns, sector;
    uint32_t bytes, dev;
    uint32_t seq;        /* order read, for a stable sort */
    char act;            /* 'D' issue, 'C' complete */
    int8_t dir;          /* TRACE_READ / TRACE_WRITE, -1 neither (a flush, a discard) */
};

static void ev_add(struct trace *t, const struct trace_ev *e)
{
    if (t->nev == t->capev) {
        t->capev = t->capev ? 2 * t->capev : 1024;
        t->ev = xrealloc(t->ev, t->capev * sizeof(*t->ev));
    }
    t->ev[t->nev] = *e;
    t->ev[t->nev].seq = (uint32_t)t->nev;
    t->nev++;
}

static int ev_cmp(const void *a, const void *b)
{
    const struct trace_ev *x = a, *y = b;
    if (x->time_ns != y->time_ns)
        return x->time_ns < y->time_ns ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Pending issues by (device, sector, direction), FIFO among equal keys: open addressing with
 * backward-shift deletion; each entry a record index. */
struct pend {
    uint64_t key;     /* hash input + 1 (0: empty) */
    size_t rec;
};
struct pend_tab {
    struct pend *p;
    size_t cap, n;
};

static uint64_t pend_key(uint32_t dev, uint64_t sector, int dir)
{
    return (((uint64_t)dev << 40) ^ (sector << 1) ^ (uint64_t)dir) + 1;
}

static size_t pend_slot(const struct pend_tab *tab, uint64_t key)
{
    return (size_t)((key * 0x9e3779b97f4a7c15ull) >> 20) & (tab->cap - 1);
}

static void pend_put(struct pend_tab *tab, uint64_t key, size_t rec)
{
    if (2 * (tab->n + 1) > tab->cap) {
        const size_t cap = tab->cap ? 2 * tab->cap : 1024;
        struct pend_tab big = {xcalloc(cap, sizeof(struct pend)), cap, 0};
        for (size_t i = 0; i < tab->cap; i++)
            if (tab->p[i].key)
                pend_put(&big, tab->p[i].key, tab->p[i].rec);
        free(tab->p);
        *tab = big;
    }
    size_t i = pend_slot(tab, key);
    while (tab->p[i].key)
        i = (i + 1) & (tab->cap - 1);
    tab->p[i] = (struct pend){key, rec};
    tab->n++;
}

/* Take the oldest pending issue with this key (the lowest record index). */
static bool pend_take(struct pend_tab *tab, uint64_t key, size_t *rec)
{
    if (!tab->cap)
        return false;
    size_t best = SIZE_MAX;
    for (size_t j = pend_slot(tab, key); tab->p[j].key; j = (j + 1) & (tab->cap - 1))
        if (tab->p[j].key == key && (best == SIZE_MAX || tab->p[j].rec < tab->p[best].rec))
            best = j;
    if (best == SIZE_MAX)
        return false;
    *rec = tab->p[best].rec;
    size_t hole = best;
    for (size_t j = (hole + 1) & (tab->cap - 1); tab->p[j].key; j = (j + 1) & (tab->cap - 1)) {
        const size_t home = pend_slot(tab, tab->p[j].key);
        const bool move = hole <= j ? (home <= hole || home > j) : (home <= hole && home > j);
        if (move) {
            tab->p[hole] = tab->p[j];
            hole = j;
        }
    }
    tab->p[hole].key = 0;
    tab->n--;
    return true;
}

/* Every file read: events in time order, issues (D) become records, completions (C) close the
 * oldest pending issue of the same device, sector and direction. An issue the trace never
 * completes stays outstanding to the trace's last event (counted in unfinished). */
static int match_events(struct trace *t, char *err, size_t errlen)
{
    qsort(t->ev, t->nev, sizeof(*t->ev), ev_cmp);
    struct pend_tab tab = {0};
    uint64_t last = 0;
    bool any = false;
    for (size_t i = 0; i < t->nev; i++) {
        const struct trace_ev *e = &t->ev[i];
        last = e->time_ns > last ? e->time_ns : last;
        if (e->dir < 0) {
            t->skipped += e->act == 'D';
            continue;
        }
        if (e->act == 'D') {
            any = true;
            trace_add(t, &(struct trace_rec){e->time_ns, TRACE_NO_DONE, e->sector * 512,
                                             e->bytes, (uint8_t)e->dir});
            pend_put(&tab, pend_key(e->dev, e->sector, e->dir), t->n - 1);
        } else {
            size_t rec;
            if (pend_take(&tab, pend_key(e->dev, e->sector, e->dir), &rec))
                t->r[rec].done_ns = e->time_ns;
        }
    }
    for (size_t i = 0; i < tab.cap; i++)
        if (tab.p[i].key) {
            t->r[tab.p[i].rec].done_ns = last;
            t->unfinished++;
        }
    free(tab.p);
    free(t->ev);
    t->ev = NULL;
    t->nev = t->capev = 0;
    if (!any)
        return errf(err, errlen, "%s: no issue (D) events: capture with blktrace, or give "
                    "blkparse's default output", t->source);
    return 0;
}

static int blk_dir_rwbs(const char *rwbs)
{
    if (strchr(rwbs, 'D'))   /* discard (trim) */
        return -1;
    if (strchr(rwbs, 'W'))
        return TRACE_WRITE;
    if (strchr(rwbs, 'R'))
        return TRACE_READ;
    return -1;               /* flush only, or no data */
}

/* "  8,0    3        1     0.000000000  697  D  WS 3414264 + 8 [proc]" */
static int load_blkparse(char *text, const char *path, struct trace *t, char *err,
                         size_t errlen)
{
    size_t line = 0;
    for (char *save = NULL, *l = strtok_r(text, "\n", &save); l;
         l = strtok_r(NULL, "\n", &save)) {
        line++;
        char *f[12];
        int nf = split_ws(l, f, 12);
        unsigned maj, min;
        if (nf < 7 || sscanf(f[0], "%u,%u", &maj, &min) != 2)
            continue;   /* summaries ("CPU0 (8,0):", "Total (8,0):") and blank lines */
        if (f[5][1] || (f[5][0] != 'D' && f[5][0] != 'C'))
            continue;
        struct trace_ev e = {.dev = maj << 20 | min, .act = f[5][0],
                             .dir = (int8_t)blk_dir_rwbs(f[6])};
        if (!parse_seconds(f[3], &e.time_ns))
            return errf(err, errlen, "%s:%zu: time '%s': want seconds", path, line, f[3]);
        uint64_t sect, nsect;
        if (nf < 10 || strcmp(f[8], "+") || !parse_u64(f[7], &sect) ||
            !parse_u64(f[9], &nsect) || !nsect) {
            t->skipped += e.act == 'D';   /* an issue without a sector range: a flush */
            continue;
        }
        if (nsect > UINT32_MAX / 512)
            return errf(err, errlen, "%s:%zu: %llu sectors in one request", path, line,
                        (unsigned long long)nsect);
        e.sector = sect;
        e.bytes = (uint32_t)(nsect * 512);
        ev_add(t, &e);
    }
    t->timed = true;
    return 0;
}

static uint32_t bswap32(uint32_t x) { return __builtin_bswap32(x); }
static uint64_t bswap64(uint64_t x) { return __builtin_bswap64(x); }

static int load_blktrace(const unsigned char *buf, size_t len, const char *path,
                         struct trace *t, char *err, size_t errlen)
{
    size_t pos = 0, n = 0;
    while (pos + sizeof(struct blk_io_trace) <= len) {
        struct blk_io_trace b;
        memcpy(&b, buf + pos, sizeof(b));
        n++;
        if ((b.magic & 0xffffff00) != BLK_IO_TRACE_MAGIC) {   /* the other byte order */
            b.magic = bswap32(b.magic);
            b.time = bswap64(b.time);
            b.sector = bswap64(b.sector);
            b.bytes = bswap32(b.bytes);
            b.action = bswap32(b.action);
            b.device = bswap32(b.device);
            b.pdu_len = __builtin_bswap16(b.pdu_len);
        }
        if ((b.magic & 0xffffff00) != BLK_IO_TRACE_MAGIC)
            return errf(err, errlen, "%s: record %zu at byte %zu: bad magic %#x (not a "
                        "blktrace file, or damaged)", path, n, pos, b.magic);
        if ((b.magic & 0xff) != BLK_IO_TRACE_VERSION)
            return errf(err, errlen, "%s: blktrace version %u, this reader knows %u", path,
                        b.magic & 0xff, BLK_IO_TRACE_VERSION);
        pos += sizeof(b) + b.pdu_len;
        const uint32_t cat = b.action >> BLK_TC_SHIFT;
        const uint32_t what = b.action & 0xffff & ~(uint32_t)__BLK_TA_CGROUP;
        if (cat & (BLK_TC_NOTIFY | BLK_TC_PC) || !b.bytes)
            continue;   /* messages, passthrough commands (no sector range) */
        char act = what == __BLK_TA_ISSUE ? 'D' : what == __BLK_TA_COMPLETE ? 'C' : 0;
        if (!act)
            continue;
        int8_t dir = cat & BLK_TC_DISCARD ? -1 : cat & BLK_TC_WRITE ? TRACE_WRITE : TRACE_READ;
        ev_add(t, &(struct trace_ev){.time_ns = b.time, .sector = b.sector, .bytes = b.bytes,
                                     .dev = b.device, .act = act, .dir = dir});
    }
    if (pos != len)
        return errf(err, errlen, "%s: %zu bytes after the last whole record (truncated?)", path,
                    len - pos);
    t->timed = true;
    return 0;
}

/* ---------------------------------------------------------------- load */

static void set_format(struct trace *t, bool was_empty, const char *fmt)
{
    if (was_empty || !t->format[0])
        str_copy(t->format, sizeof(t->format), fmt);
    else if (strcmp(t->format, fmt))
        str_copy(t->format, sizeof(t->format), "mixed");
}

int trace_load(const char *path, struct trace *t, char *err, size_t errlen)
{
    size_t len;
    char *buf = slurp(path, &len, err, errlen);
    if (!buf)
        return -1;
    const bool was_empty = t->n == 0 && !t->format[0];
    const bool was_timed = was_empty || t->timed;
    int ret;
    uint32_t magic = 0;
    if (len >= 4)
        memcpy(&magic, buf, 4);
    if ((magic & 0xffffff00) == BLK_IO_TRACE_MAGIC ||
        (bswap32(magic) & 0xffffff00) == BLK_IO_TRACE_MAGIC) {
        ret = load_blktrace((const unsigned char *)buf, len, path, t, err, errlen);
        set_format(t, was_empty, "blktrace");
    } else if (memchr(buf, '\0', len)) {
        ret = errf(err, errlen, "%s: binary data that is not a blktrace file", path);
    } else if (!strncmp(buf, "fio version 2 iolog", 19) ||
               !strncmp(buf, "fio version 3 iolog", 19)) {
        int v = buf[12] - '0';
        ret = load_iolog(buf, v, path, t, err, errlen);
        set_format(t, was_empty, v == 3 ? "fio-iolog-v3" : "fio-iolog-v2");
    } else if (!strncmp(buf, "fio version", 11)) {
        ret = errf(err, errlen, "%s: an iolog version this reader does not know (2 and 3)",
                   path);
    } else {
        /* blkparse lines start with "MAJ,MIN"; csv lines with a number and a comma */
        char first[256] = "";
        const char *p = buf;
        while (*p == '#' || *p == '\n') {   /* skip comments and blank lines */
            const char *nl = strchr(p, '\n');
            p = nl ? nl + 1 : p + strlen(p);
        }
        size_t fl = strcspn(p, "\n");
        snprintf(first, sizeof(first), "%.*s", (int)(fl < 255 ? fl : 255), p);
        unsigned a, b;
        char c;
        if (sscanf(first, " %u,%u %c", &a, &b, &c) == 3 && isdigit((unsigned char)c)) {
            ret = load_blkparse(buf, path, t, err, errlen);
            set_format(t, was_empty, "blkparse");
        } else {
            ret = load_csv(buf, path, t, err, errlen);
            set_format(t, was_empty, "csv");
        }
    }
    free(buf);
    if (ret)
        return -1;
    t->timed = was_timed && t->timed;
    size_t sl = strlen(t->source);
    snprintf(t->source + sl, sizeof(t->source) - sl, "%s%s", sl ? ", " : "", path);
    return 0;
}

/* ---------------------------------------------------------------- busy time, statistics */

static int u64_cmp(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Union of intervals: sort by start (ends kept with their starts), sweep. */
struct iv {
    uint64_t s, e;
};
static int iv_cmp(const void *a, const void *b)
{
    const struct iv *x = a, *y = b;
    return x->s < y->s ? -1 : x->s > y->s;
}

uint64_t trace_busy_ns(const uint64_t *start, const uint64_t *end, size_t n, uint64_t *scratch)
{
    if (!n)
        return 0;
    struct iv *v = scratch ? (struct iv *)(void *)scratch : xcalloc(n, sizeof(*v));
    for (size_t i = 0; i < n; i++)
        v[i] = (struct iv){start[i], end[i] > start[i] ? end[i] : start[i]};
    qsort(v, n, sizeof(*v), iv_cmp);
    uint64_t busy = 0, cs = v[0].s, ce = v[0].e;
    for (size_t i = 1; i < n; i++) {
        if (v[i].s > ce) {
            busy += ce - cs;
            cs = v[i].s;
            ce = v[i].e;
        } else if (v[i].e > ce) {
            ce = v[i].e;
        }
    }
    busy += ce - cs;
    if (!scratch)
        free(v);
    return busy;
}

void trace_stats(const struct trace *t, struct trace_stats *s)
{
    memset(s, 0, sizeof(*s));
    s->timed = t->timed;
    if (!t->n)
        return;
    s->len_min = UINT32_MAX;
    uint64_t prev_end = UINT64_MAX, last = 0;
    double lat_sum[TRACE_NDIR] = {0};
    for (size_t i = 0; i < t->n; i++) {
        const struct trace_rec *r = &t->r[i];
        s->ios[r->dir]++;
        s->bytes[r->dir] += r->len;
        if (r->offset == prev_end)
            s->seq_ios++;
        prev_end = r->offset + r->len;
        if (r->len < s->len_min)
            s->len_min = r->len;
        if (r->len > s->len_max)
            s->len_max = r->len;
        uint64_t e = t->has_done ? r->done_ns : r->t_ns;
        if (e > last)
            last = e;
        if (t->has_done)
            lat_sum[r->dir] += (double)(r->done_ns - r->t_ns);
    }
    s->span_ns = last - t->r[0].t_ns;
    for (int d = 0; d < TRACE_NDIR; d++)
        s->lat_mean_us[d] = s->ios[d] && t->has_done ? lat_sum[d] / s->ios[d] / 1e3 : NAN;
    if (!t->has_done)
        return;
    uint64_t *st = xcalloc(t->n, sizeof(*st)), *en = xcalloc(t->n, sizeof(*en));
    for (size_t i = 0; i < t->n; i++) {
        st[i] = t->r[i].t_ns;
        en[i] = t->r[i].done_ns;
    }
    s->busy_ns = trace_busy_ns(st, en, t->n, NULL);
    free(st);
    free(en);
    uint8_t *q = xcalloc(t->n, 1);
    trace_qd_at_issue(t, q);
    double qsum = 0;
    for (size_t i = 0; i < t->n; i++) {
        qsum += q[i];
        s->qd[q[i] < TRACE_QD_MAX ? q[i] : TRACE_QD_MAX]++;
    }
    s->qd_mean = qsum / (double)t->n;
    free(q);
}

void trace_qd_at_issue(const struct trace *t, uint8_t *out)
{
    /* issues so far minus completions at or before this issue */
    uint64_t *en = xcalloc(t->n ? t->n : 1, sizeof(*en));
    for (size_t i = 0; i < t->n; i++)
        en[i] = t->r[i].done_ns;
    qsort(en, t->n, sizeof(*en), u64_cmp);
    size_t done = 0;
    for (size_t i = 0; i < t->n; i++) {
        while (done < t->n && en[done] <= t->r[i].t_ns)
            done++;
        size_t q = i + 1 > done ? i + 1 - done : 1;
        out[i] = (uint8_t)(q < 255 ? q : 255);
    }
    free(en);
}

/* ---------------------------------------------------------------- remap */

int trace_remap(struct trace *t, uint64_t capacity, uint32_t sector, const char *mode,
                uint64_t *raised, char *err, size_t errlen)
{
    *raised = 0;
    if (!sector)
        sector = 512;
    if (capacity < sector)
        return errf(err, errlen, "the target holds less than one %u-byte block", sector);
    const uint64_t extent = trace_extent(t);
    const bool scale = !strcmp(mode, "scale"), wrap = !strcmp(mode, "wrap");
    if (!scale && !wrap && strcmp(mode, "none"))
        return errf(err, errlen, "--remap %s: want none, wrap or scale", mode);
    const double f = scale && extent > capacity ? (double)capacity / (double)extent : 1.0;
    for (size_t i = 0; i < t->n; i++) {
        struct trace_rec *r = &t->r[i];
        uint64_t len = (r->len + sector - 1) / sector * sector;
        if (len != r->len)
            ++*raised;
        if (len > capacity)
            return errf(err, errlen, "an I/O of %u bytes is larger than the target (%llu bytes)",
                        r->len, (unsigned long long)capacity);
        uint64_t off = r->offset;
        if (scale)
            off = (uint64_t)((double)off * f);
        else if (wrap)
            off %= capacity;
        off = off / sector * sector;
        if (off + len > capacity) {
            if (!scale && !wrap)
                return errf(err, errlen, "I/O %zu (offset %llu, %u bytes) ends beyond the "
                            "target's %llu bytes: use --remap wrap or scale", i + 1,
                            (unsigned long long)r->offset, r->len,
                            (unsigned long long)capacity);
            off = (capacity - len) / sector * sector;
        }
        r->offset = off;
        r->len = (uint32_t)len;
    }
    return 0;
}
