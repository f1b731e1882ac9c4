/* workload.c — the workload model: keys, inline specs, profile files, checks, canonical form.
 *
 * Every way of giving a workload ends in wl_set(), one key at a time; wl_validate() then
 * checks the combination and fills in what follows from rw (read_pct, random_pct, region).
 * wl_parse_inline(), wl_load_file() and wl_resolve() each start from wl_init() and end with
 * wl_validate(), so what they return is complete and consistent. */
#include "io/workload.h"
#include "io/fio_parse.h"
#include "io/jobset.h"

#include "io/fio_opts.h"
#include "lib/ini.h"
#include "lib/cpuset.h"
#include "lib/keys.h"
#include "lib/units.h"
#include "lib/util.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define WL_DEFAULT_SEED 0x5054534245ull          /* "PTSBE" */
#define WL_MAX_QD 65536u
#define WL_MAX_WORKERS 1024u
#define WL_MAX_BS_BYTES (1u << 30)               /* 1 GiB per I/O is plenty */

/* Setter results (lib/keys.h): WL_BAD_VALUE formats as "where: key=value: why",
 * WL_BAD_KEY as "where: key why (key=value)" (for "bssplit weights sum to 98, want 100"). */
enum { WL_OK = KEYS_OK, WL_BAD_VALUE = KEYS_BAD_VALUE, WL_BAD_KEY = KEYS_BAD_KEY };


/* ---- rw modes ---------------------------------------------------------------------- */

static const char *const wl_rw_modes[] = {"read", "write", "randread", "randwrite",
                                          "rw", "randrw", "trim", "randtrim",
                                          "trimwrite", "randtrimwrite"};

static bool wl_rw_known(const char *rw)
{
    for (size_t i = 0; i < sizeof wl_rw_modes / sizeof wl_rw_modes[0]; i++)
        if (strcmp(rw, wl_rw_modes[i]) == 0)
            return true;
    return false;
}

static bool wl_rw_mixed(const char *rw)
{
    return strcmp(rw, "rw") == 0 || strcmp(rw, "randrw") == 0;
}

static bool wl_rw_random(const char *rw)
{
    return strncmp(rw, "rand", 4) == 0;
}

/* Read share implied by rw alone. */
static unsigned wl_rw_read_pct(const char *rw)
{
    if (wl_rw_mixed(rw))
        return 50;
    return strstr(rw, "read") ? 100 : 0;
}

static enum wl_region wl_effective_region(const struct workload *wl)
{
    if (wl->region != WL_REGION_DEFAULT)
        return wl->region;
    return wl->random_pct == 0 ? WL_REGION_SPLIT : WL_REGION_SHARED;   /* as worker.c */
}

/* ---- small parsing helpers ---------------------------------------------------------- */

/* A whole number lo..hi into *dst. */
static int wl_uint(const char *value, uint64_t lo, uint64_t hi, unsigned *dst, char *why,
                   size_t whylen)
{
    uint64_t v = 0;
    if (units_parse_uint(value, lo, hi, &v, why, whylen) < 0)
        return WL_BAD_VALUE;
    *dst = (unsigned)v;
    return WL_OK;
}

/* A percentage that must be a whole number 0..100. */
static int wl_whole_percent(const char *value, unsigned *out, char *why, size_t whylen)
{
    double p = 0;
    if (units_parse_percent(value, &p, why, whylen) < 0)
        return WL_BAD_VALUE;
    if (p != floor(p))
        return errf(why, whylen, "want a whole percent 0..100");
    *out = (unsigned)p;
    return WL_OK;
}

/* A size by the workload's rules: ptsbench's (units.h) or, with kb_base set, fio's. */
static int wl_size(const struct workload *wl, const char *text, uint64_t *v, char *why,
                   size_t whylen)
{
    return wl->kb_base ? units_parse_size_fio(text, wl->kb_base, v, why, whylen)
                       : units_parse_size(text, v, why, whylen);
}

static int wl_block_size(const struct workload *wl, const char *text, uint32_t *out, char *why,
                         size_t whylen)
{
    uint64_t v = 0;
    if (wl_size(wl, text, &v, why, whylen) < 0)
        return WL_BAD_VALUE;
    if (v == 0)
        return errf(why, whylen, "block size must be at least 1 byte");
    if (v > WL_MAX_BS_BYTES)
        return errf(why, whylen, "block size '%s' is larger than 1GiB", text);
    *out = (uint32_t)v;
    return WL_OK;
}

/* Bytes ("1g") or percent of capacity ("10%"). */
static int wl_extent(const struct workload *wl, const char *value, struct wl_extent *ext,
                     char *why, size_t whylen)
{
    struct wl_extent e = {.set = true};
    size_t n = strlen(value);
    if (n > 0 && value[n - 1] == '%') {
        e.is_percent = true;
        if (units_parse_percent(value, &e.percent, why, whylen) < 0)
            return WL_BAD_VALUE;
    } else if (wl_size(wl, value, &e.bytes, why, whylen) < 0) {
        return WL_BAD_VALUE;
    }
    *ext = e;
    return WL_OK;
}

static int wl_hex_digit(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    c = tolower(c);
    return (c >= 'a' && c <= 'f') ? c - 'a' + 10 : -1;
}

/* Decimal, or hexadecimal with 0x. */
static int wl_parse_seed(const char *text, uint64_t *out, char *why, size_t whylen)
{
    unsigned base = 10;
    const char *p = text;
    if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
        base = 16;
        p += 2;
    }
    if (*p == '\0')
        return errf(why, whylen, "bad seed '%s' (want decimal or 0x hex)", text);
    uint64_t v = 0;
    for (; *p; p++) {
        int d = wl_hex_digit((unsigned char)*p);
        if (d < 0 || (unsigned)d >= base)
            return errf(why, whylen, "bad seed '%s' (want decimal or 0x hex)", text);
        if (__builtin_mul_overflow(v, base, &v) || __builtin_add_overflow(v, (unsigned)d, &v))
            return errf(why, whylen, "seed '%s' does not fit in 64 bits", text);
    }
    *out = v;
    return WL_OK;
}

/* ---- bssplit ------------------------------------------------------------------------ */

struct wl_split_entry {
    uint32_t size;
    unsigned weight;
    bool has_weight;
};

/* One "size/weight", "size/" or "size" entry (modified in place). */
static int wl_split_entry(const struct workload *wl, char *tok, struct wl_split_entry *e,
                          char *why, size_t whylen)
{
    char *slash = strchr(tok, '/');
    char *wtext = NULL;
    if (slash) {
        *slash = '\0';
        wtext = str_trim(slash + 1);
    }
    char *stext = str_trim(tok);
    if (*stext == '\0')
        return errf(why, whylen, "entry without a size");
    if (wl_block_size(wl, stext, &e->size, why, whylen) < 0)
        return WL_BAD_VALUE;
    e->has_weight = wtext && *wtext;
    e->weight = 0;
    if (e->has_weight && wl_whole_percent(wtext, &e->weight, why, whylen) < 0)
        return WL_BAD_VALUE;
    return WL_OK;
}

/* Split the text into entries; duplicate sizes are rejected. */
static int wl_split_entries(const struct workload *wl, const char *value,
                            struct wl_split_entry *ents, unsigned *n_out, char *why,
                            size_t whylen)
{
    char *copy = xstrdup(value);
    char *p = copy;
    unsigned n = 0;
    int rc = WL_OK;
    while (p && rc == WL_OK) {
        char *colon = strchr(p, ':');
        if (colon)
            *colon = '\0';
        char *tok = str_trim(p);
        p = colon ? colon + 1 : NULL;
        if (*tok == '\0') {
            rc = errf(why, whylen, "empty entry (want size/percent:size/percent...)");
        } else if (n == WL_MAX_BS) {
            rc = errf(why, whylen, "more than %d entries", WL_MAX_BS);
        } else if ((rc = wl_split_entry(wl, tok, &ents[n], why, whylen)) == WL_OK) {
            for (unsigned i = 0; i < n && rc == WL_OK; i++)
                if (ents[i].size == ents[n].size)
                    rc = errf(why, whylen, "block size %u appears twice", ents[n].size);
            n++;
        }
    }
    free(copy);
    *n_out = n;
    return rc;
}

/* Give the entries without a weight the remainder (shared equally, the first ones get the
 * odd percents), check the sum, and drop zero-weight entries. */
static int wl_split_weights(struct wl_split_entry *ents, unsigned n, struct wl_bs *out,
                            unsigned *n_out, char *why, size_t whylen)
{
    unsigned sum = 0, n_free = 0;
    for (unsigned i = 0; i < n; i++) {
        sum += ents[i].weight;
        n_free += !ents[i].has_weight;
    }
    if (sum > 100 || (n_free == 0 && sum != 100)) {
        errf(why, whylen, "weights sum to %u, want 100", sum);
        return WL_BAD_KEY;
    }
    if (n_free > 0 && sum == 100)
        return errf(why, whylen, "no share left for the entries without a weight "
                                 "(the others already sum to 100)");
    unsigned rem = 100 - sum, k = 0;
    for (unsigned i = 0; i < n; i++) {
        if (ents[i].has_weight)
            continue;
        ents[i].weight = rem / n_free + (k++ < rem % n_free ? 1 : 0);
    }
    *n_out = 0;
    for (unsigned i = 0; i < n; i++)
        if (ents[i].weight > 0)
            out[(*n_out)++] = (struct wl_bs){.size = ents[i].size, .weight = ents[i].weight};
    return WL_OK;
}

/* ---- setters, one per key ----------------------------------------------------------- */

/* rw's offset modifier (fio's str_rw_cb): a random mode's ":N" is a count of I/Os (a random
 * offset every Nth, the others sequential after it), a sequential mode's a size, negative
 * allowed (N bytes skipped after each I/O: holes, or backwards). */
static int wl_set_rw_modifier(struct workload *wl, const char *mode, const char *nr, char *why,
                              size_t whylen)
{
    if (wl_rw_random(mode))
        return wl_uint(nr, 1, 1u << 30, &wl->seq_nr, why, whylen);
    const bool back = *nr == '-';
    uint64_t v = 0;
    if (wl_size(wl, back ? nr + 1 : nr, &v, why, whylen) < 0)
        return WL_BAD_VALUE;
    if (v > (uint64_t)INT64_MAX / 2)
        return errf(why, whylen, "offset modifier '%s' too large", nr);
    wl->seq_add = back ? -(int64_t)v : (int64_t)v;
    return WL_OK;
}

static int wl_set_rw(void *obj, const char *value, char *why, size_t whylen)
{
    struct workload *wl = obj;
    char mode[sizeof wl->rw];
    const char *colon = strchr(value, ':');
    size_t n = colon ? (size_t)(colon - value) : strlen(value);
    for (size_t i = 0; i < n && i < sizeof mode; i++)
        mode[i] = (char)tolower((unsigned char)value[i]);
    if (n >= sizeof mode)
        n = 0;                                     /* too long: no mode matches "" */
    mode[n] = '\0';
    if (strcmp(mode, "readwrite") == 0)
        snprintf(mode, sizeof mode, "rw");
    if (!wl_rw_known(mode))
        return errf(why, whylen, "unknown rw mode '%s' (want read, write, randread, "
                                 "randwrite, rw, randrw, trim, randtrim, trimwrite or "
                                 "randtrimwrite)", value);
    wl->seq_add = 0;   /* as fio: each rw= starts without a modifier */
    wl->seq_nr = 0;
    if (colon && wl_set_rw_modifier(wl, mode, colon + 1, why, whylen) != WL_OK)
        return WL_BAD_VALUE;
    snprintf(wl->rw, sizeof wl->rw, "%s", mode);
    wl->rw_set = true;
    wl->trim = strstr(mode, "trim") != NULL;   /* fio: BLKDISCARD / punch hole, a third
                                                   direction in every figure */
    wl->trimwrite = strstr(mode, "trimwrite") != NULL;   /* fio: trim a block, then write it */
    if (!wl->mix_set)
        wl->read_pct = wl_rw_read_pct(mode);
    if (!wl->random_set)
        wl->random_pct = wl_rw_random(mode) ? 100 : 0;
    return WL_OK;
}

/* rw_sequencer=sequential|identical: what the I/Os between rw=randread:N's draws do. */
static int wl_set_rw_sequencer(void *obj, const char *value, char *why, size_t whylen)
{
    struct workload *wl = obj;
    if (strcasecmp(value, "sequential") && strcasecmp(value, "identical"))
        return errf(why, whylen, "unknown rw_sequencer '%s' (want sequential or identical)",
                    value);
    wl->seq_identical = strcasecmp(value, "identical") == 0;
    return WL_OK;
}

/* zonemode=none|strided (zbd refused: writes would follow a zoned drive's write pointers). */
static int wl_set_zonemode(void *obj, const char *value, char *why, size_t whylen)
{
    struct workload *wl = obj;
    if (!strcasecmp(value, "none"))
        wl->zonemode = WL_ZONEMODE_NONE;
    else if (!strcasecmp(value, "strided"))
        wl->zonemode = WL_ZONEMODE_STRIDED;
    else if (!strcasecmp(value, "zbd"))
        return errf(why, whylen, "writes would follow the zones' write pointers of a zoned "
                                 "drive; ptsbench issues over one active range of a "
                                 "conventional one");
    else
        return errf(why, whylen, "unknown zonemode '%s' (want none or strided)", value);
    return WL_OK;
}

static int wl_set_zonesize(void *obj, const char *value, char *why, size_t whylen)
{
    struct workload *wl = obj;
    return wl_size(wl, value, &wl->zone_size, why, whylen);
}

static int wl_set_zonerange(void *obj, const char *value, char *why, size_t whylen)
{
    struct workload *wl = obj;
    return wl_size(wl, value, &wl->zone_range, why, whylen);
}

static int wl_set_zoneskip(void *obj, const char *value, char *why, size_t whylen)
{
    struct workload *wl = obj;
    return wl_size(wl, value, &wl->zone_skip, why, whylen);
}

static int wl_set_rwmixread(void *obj, const char *value, char *why, size_t whylen)
{
    struct workload *wl = obj;
    unsigned p = 0;
    if (wl_whole_percent(value, &p, why, whylen) < 0)
        return WL_BAD_VALUE;
    wl->read_pct = p;
    wl->mix_set = true;
    return WL_OK;
}

static int wl_set_rwmixwrite(void *obj, const char *value, char *why, size_t whylen)
{
    struct workload *wl = obj;
    unsigned p = 0;
    if (wl_whole_percent(value, &p, why, whylen) < 0)
        return WL_BAD_VALUE;
    wl->read_pct = 100 - p;
    wl->mix_set = true;
    return WL_OK;
}

/* fio's READ,WRITE[,TRIM] form is taken when the reads' and writes' shares are the same. */
static int wl_set_random(void *obj, const char *value, char *why, size_t whylen)
{
    struct workload *wl = obj;
    const char *comma = strchr(value, ',');
    char first[64];
    snprintf(first, sizeof first, "%.*s", (int)(comma ? (size_t)(comma - value) : strlen(value)),
             value);
    unsigned pct = 0, other = 0;
    if (wl_whole_percent(str_trim(first), &pct, why, whylen) < 0)
        return WL_BAD_VALUE;
    if (comma) {
        char second[64];
        snprintf(second, sizeof second, "%.*s", (int)strcspn(comma + 1, ","), comma + 1);
        if (wl_whole_percent(str_trim(second), &other, why, whylen) < 0)
            return WL_BAD_VALUE;
        if (other != pct)
            return errf(why, whylen, "different random shares for reads and writes are not "
                                     "supported: give one");
    }
    wl->random_pct = pct;
    wl->random_set = true;
    return WL_OK;
}

/* ---- sizes per direction: bs, bssplit, bsrange (fio: READ,WRITE[,TRIM]) ------------- */

/* "R,W[,T]" into parts (an empty part: that direction as it was). 1 part: every I/O. */
static int wl_dir_parts(const char *value, char parts[3][512], unsigned *n, char *why,
                        size_t whylen)
{
    *n = 0;
    for (const char *p = value;; p++) {
        size_t len = strcspn(p, ",");
        if (*n == 3)
            return errf(why, whylen, "want one value, or READ,WRITE[,TRIM]");
        if (len >= sizeof parts[0])
            return errf(why, whylen, "value too long");
        memcpy(parts[*n], p, len);
        parts[(*n)++][len] = '\0';
        p += len;
        if (!*p)
            return WL_OK;
    }
}

/* Direction d's sizes (0: reads, or all while writes share them; 1: writes). */
static void wl_dir_store(struct workload *wl, unsigned d, const struct wl_bs *bs, unsigned n,
                         uint32_t range_hi)
{
    memmove(d ? wl->bs_write : wl->bs, bs, n * sizeof *bs);
    *(d ? &wl->n_bs_write : &wl->n_bs) = n;
    wl->bsrange_hi[d] = range_hi;
}

/* Writes get sizes of their own (a copy of the shared ones) before one direction changes. */
static void wl_dir_split(struct workload *wl)
{
    if (wl->n_bs_write)
        return;
    wl_dir_store(wl, 1, wl->bs, wl->n_bs, wl->bsrange_hi[0]);
}

/* ... and share them again when both directions end up the same. */
static void wl_dir_join(struct workload *wl)
{
    if (wl->n_bs_write == wl->n_bs && wl->bsrange_hi[0] == wl->bsrange_hi[1] &&
        !memcmp(wl->bs, wl->bs_write, wl->n_bs * sizeof wl->bs[0])) {
        wl->n_bs_write = 0;
        wl->bsrange_hi[1] = 0;
    }
}

/* One direction's value of bs (kind 0), bssplit (1) or bsrange (2) into bs/n/hi. */
static int wl_sizes_parse(const struct workload *wl, int kind, char *text, struct wl_bs *bs,
                          unsigned *n, uint32_t *hi, char *why, size_t whylen)
{
    *hi = 0;
    if (kind == 1) {
        struct wl_split_entry ents[WL_MAX_BS];
        unsigned ne = 0;
        if (wl_split_entries(wl, text, ents, &ne, why, whylen) < 0)
            return WL_BAD_VALUE;
        return wl_split_weights(ents, ne, bs, n, why, whylen);
    }
    char *dash = kind == 2 ? text + strcspn(text, "-:") : NULL;   /* MIN-MAX, or one size */
    if (dash && !*dash)
        dash = NULL;
    if (dash)
        *dash = '\0';
    uint32_t lo = 0;
    if (wl_block_size(wl, str_trim(text), &lo, why, whylen) < 0 ||
        (dash && wl_block_size(wl, str_trim(dash + 1), hi, why, whylen) < 0))
        return WL_BAD_VALUE;
    if (dash && *hi < lo)
        return errf(why, whylen, "the maximum is below the minimum");
    if (*hi == lo)
        *hi = 0;   /* one size */
    bs[0] = (struct wl_bs){.size = lo, .weight = 100};
    *n = 1;
    return WL_OK;
}

static int wl_set_sizes(struct workload *wl, int kind, const char *value, char *why,
                        size_t whylen)
{
    char parts[3][512];
    unsigned n = 0;
    if (wl_dir_parts(value, parts, &n, why, whylen) < 0)
        return WL_BAD_VALUE;
    struct wl_bs bs[3][WL_MAX_BS];
    unsigned nb[3] = {0, 0, 0};
    uint32_t hi[3] = {0, 0, 0};
    for (unsigned d = 0; d < 3 && d < n; d++) {   /* the third: the trims' (wl_validate_dirs) */
        if (!*str_trim(parts[d]) && n > 1)
            continue;
        int rc = wl_sizes_parse(wl, kind, str_trim(parts[d]), bs[d], &nb[d], &hi[d], why,
                                whylen);
        if (rc != WL_OK)
            return rc;
    }
    wl->n_bs_trim = 0;   /* fio: trims take the value before, unless a third is given */
    wl->bsrange_hi_trim = 0;
    if (n == 3) {        /* "R,W,T"; "R,W," leaves trims at fio's default, 4 KiB */
        if (!nb[2])
            bs[2][nb[2]++] = (struct wl_bs){.size = 4096, .weight = 100};
        memcpy(wl->bs_trim, bs[2], nb[2] * sizeof bs[2][0]);
        wl->n_bs_trim = nb[2];
        wl->bsrange_hi_trim = hi[2];
    }
    if (n == 1) {   /* every I/O */
        wl->n_bs_write = 0;
        wl->bsrange_hi[1] = 0;
        wl_dir_store(wl, 0, bs[0], nb[0], hi[0]);
        return WL_OK;
    }
    wl_dir_split(wl);
    for (unsigned d = 0; d < 2; d++)
        if (nb[d])
            wl_dir_store(wl, d, bs[d], nb[d], hi[d]);
    wl_dir_join(wl);
    return WL_OK;
}

static int wl_set_bs(void *obj, const char *value, char *why, size_t whylen)
{
    return wl_set_sizes(obj, 0, value, why, whylen);
}

static int wl_set_bssplit(void *obj, const char *value, char *why, size_t whylen)
{
    return wl_set_sizes(obj, 1, value, why, whylen);
}

static int wl_set_bsrange(void *obj, const char *value, char *why, size_t whylen)
{
    return wl_set_sizes(obj, 2, value, why, whylen);
}

/* blockalign=N (fio: READ,WRITE[,TRIM]; one alignment for all here). */
static int wl_set_blockalign(void *obj, const char *value, char *why, size_t whylen)
{
    struct workload *wl = obj;
    char parts[3][512];
    unsigned n = 0;
    uint32_t ba[3] = {0, 0, 0};
    if (wl_dir_parts(value, parts, &n, why, whylen) < 0)
        return WL_BAD_VALUE;
    for (unsigned d = 0; d < 3 && d < n; d++)
        if (wl_block_size(wl, str_trim(parts[d]), &ba[d], why, whylen) < 0)
            return WL_BAD_VALUE;
    if (n > 1 && ba[1] != ba[0])
        return errf(why, whylen, "different read and write alignments are not supported: "
                                 "give one");
    if (n > 2 && ba[2] != ba[0])
        return errf(why, whylen, "a trim alignment apart from the reads' and writes' is not "
                                 "supported: give one");
    wl->blockalign = ba[0];
    return WL_OK;
}

/* iodepth_low: fio refills the queue when it drops to this; ptsbench refills at once, as fio
 * with iodepth_low=iodepth (its default). Checked against iodepth in wl_validate. */
static int wl_set_iodepth_low(void *obj, const char *value, char *why, size_t whylen)
{
    struct workload *wl = obj;
    return wl_uint(value, 1, WL_MAX_QD, &wl->iodepth_low, why, whylen);
}

static int wl_set_qd(void *obj, const char *value, char *why, size_t whylen)
{
    struct workload *wl = obj;
    return wl_uint(value, 1, WL_MAX_QD, &wl->qd, why, whylen);
}

static int wl_set_workers(void *obj, const char *value, char *why, size_t whylen)
{
    struct workload *wl = obj;
    return wl_uint(value, 1, WL_MAX_WORKERS, &wl->workers, why, whylen);
}

static int wl_set_region(void *obj, const char *value, char *why, size_t whylen)
{
    struct workload *wl = obj;
    if (strcasecmp(value, "shared") == 0)
        wl->region = WL_REGION_SHARED;
    else if (strcasecmp(value, "split") == 0)
        wl->region = WL_REGION_SPLIT;
    else
        return errf(why, whylen, "unknown region '%s' (want shared or split)", value);
    return WL_OK;
}

static int wl_set_offset(void *obj, const char *value, char *why, size_t whylen)
{
    struct workload *wl = obj;
    struct wl_extent e = {0};
    if (wl_extent(wl, value, &e, why, whylen) < 0)
        return WL_BAD_VALUE;
    if (e.is_percent && e.percent >= 100.0)
        return errf(why, whylen, "offset must be below 100%%");
    wl->offset = e;
    return WL_OK;
}

static int wl_set_size(void *obj, const char *value, char *why, size_t whylen)
{
    struct workload *wl = obj;
    struct wl_extent e = {0};
    if (wl_extent(wl, value, &e, why, whylen) < 0)
        return WL_BAD_VALUE;
    if (e.is_percent ? e.percent <= 0.0 : e.bytes == 0)
        return errf(why, whylen, "size must be greater than 0");
    wl->size = e;
    return WL_OK;
}

static int wl_set_compress(void *obj, const char *value, char *why, size_t whylen)
{
    struct workload *wl = obj;
    return wl_whole_percent(value, &wl->compress_pct, why, whylen);
}

static int wl_set_runtime(void *obj, const char *value, char *why, size_t whylen)
{
    struct workload *wl = obj;
    uint64_t ns = 0;
    if (units_parse_duration(value, &ns, why, whylen) < 0)
        return WL_BAD_VALUE;
    if (ns == 0)
        return errf(why, whylen, "runtime must be greater than 0");
    wl->round_time_ns = ns;
    return WL_OK;
}

static int wl_set_round_bytes(void *obj, const char *value, char *why, size_t whylen)
{
    struct workload *wl = obj;
    uint64_t v = 0;
    if (wl_size(wl, value, &v, why, whylen) < 0)
        return WL_BAD_VALUE;
    if (v == 0)
        return errf(why, whylen, "round_bytes must be greater than 0");
    wl->round_bytes = v;
    return WL_OK;
}

static int wl_set_seed(void *obj, const char *value, char *why, size_t whylen)
{
    struct workload *wl = obj;
    return wl_parse_seed(value, &wl->seed, why, whylen);
}

static int wl_set_text(char *dst, size_t size, const char *value, char *why, size_t whylen)
{
    if (strlen(value) >= size)
        return errf(why, whylen, "longer than %zu characters", size - 1);
    snprintf(dst, size, "%s", value);
    return WL_OK;
}

/* fio's norandommap: a bare flag (an ini line "norandommap" gives ""), 1 or 0. */
static int wl_set_norandommap(void *obj, const char *value, char *why, size_t whylen)
{
    struct workload *wl = obj;
    if (!*value || !strcmp(value, "1"))
        wl->random_map = WL_RANDOM_MAP_OFF;
    else if (!strcmp(value, "0"))
        wl->random_map = WL_RANDOM_MAP_ALWAYS;   /* fio's meaning of norandommap=0 */
    else
        return errf(why, whylen, "want 1 or 0");
    return WL_OK;
}

/* zipf:THETA[:CENTER], pareto:H[:CENTER], normal:SIGMA[:CENTER] (fio's syntax). */
static int wl_set_skewed(void *obj, const char *value, char *why, size_t whylen)
{
    struct workload *wl = obj;
    const char *colon = strchr(value, ':');
    if (!colon)
        return errf(why, whylen, "want %.*s:VALUE", (int)strlen(value), value);
    char kind[16];
    snprintf(kind, sizeof(kind), "%.*s", (int)(colon - value), value);
    char *end;
    double v = strtod(colon + 1, &end), center = -1;
    if (end == colon + 1 || (*end && *end != ':'))
        return errf(why, whylen, "bad %s value '%s'", kind, colon + 1);
    if (*end == ':') {
        char *e2;
        center = strtod(end + 1, &e2);
        if (e2 == end + 1 || *e2 || !(center >= 0 && center <= 1))
            return errf(why, whylen, "bad center '%s' (want 0 to 1)", end + 1);
    }
    if (!strcmp(kind, "zipf")) {
        if (!(v > 0 && v != 1.0 && v <= 100))
            return errf(why, whylen, "zipf theta %g: want above 0, not 1", v);
        wl->dist = WL_DIST_ZIPF;
    } else if (!strcmp(kind, "pareto")) {
        if (!(v > 0 && v < 1))
            return errf(why, whylen, "pareto h %g: want between 0 and 1", v);
        wl->dist = WL_DIST_PARETO;
    } else if (!strcmp(kind, "normal")) {
        if (!(v > 0 && v <= 100))
            return errf(why, whylen, "normal deviation %g: want a percent of the range, 0 to "
                        "100", v);
        wl->dist = WL_DIST_NORMAL;
    } else {
        return errf(why, whylen, "unknown distribution '%s'", kind);
    }
    wl->dist_param = v;
    wl->dist_center = center;
    wl->n_zones = 0;
    return WL_OK;
}

/* random_distribution=random | zoned:A/R:A/R... (fio's syntax; A = access %, R = range %) |
 * zipf, pareto, normal (wl_set_skewed). */
static int wl_set_distribution(void *obj, const char *value, char *why, size_t whylen)
{
    struct workload *wl = obj;
    if (!strcmp(value, "random")) {
        wl->n_zones = 0;
        wl->dist = WL_DIST_UNIFORM;
        return WL_OK;
    }
    if (!strncmp(value, "zipf:", 5) || !strncmp(value, "pareto:", 7) ||
        !strncmp(value, "normal:", 7))
        return wl_set_skewed(wl, value, why, whylen);
    if (!strncmp(value, "zoned_abs:", 10))
        return errf(why, whylen, "zoned_abs is not supported (zoned:ACCESS/RANGE in percent is)");
    if (strncmp(value, "zoned:", 6) != 0)
        return errf(why, whylen, "want random, zoned:ACCESS/RANGE:..., zipf:THETA, pareto:H or "
                                 "normal:SIGMA");
    wl->dist = WL_DIST_UNIFORM;
    char buf[256];
    str_copy(buf, sizeof buf, value + 6);
    unsigned n = 0, sa = 0, sr = 0;
    char *save = NULL;
    unsigned missing = 0;   /* fio: a zone without a range ("20/") shares what is left */
    for (char *t = strtok_r(buf, ":", &save); t; t = strtok_r(NULL, ":", &save)) {
        unsigned a, r = 0;
        char extra;
        int k = sscanf(t, "%u/%u%c", &a, &r, &extra);
        bool open_range = k == 1 && t[strlen(t) - 1] == '/' && strchr(t, '/') + 1 == t + strlen(t);
        if ((k != 2 && !open_range) || a > 100 || (!open_range && (r == 0 || r > 100)))
            return errf(why, whylen, "bad zone '%s' (want ACCESS/RANGE in percent)", t);
        if (n >= WL_MAX_ZONES)
            return errf(why, whylen, "at most %d zones", WL_MAX_ZONES);
        missing += open_range;
        wl->zones[n++] = (struct wl_zone){a, open_range ? 0 : r};
        sa += a;
        sr += r;
    }
    const unsigned left = sr < 100 ? 100 - sr : 0;
    for (unsigned z = 0, k = 0, given = 0; missing && z < n; z++)
        if (!wl->zones[z].range_pct) {   /* the last one takes the odd percents */
            unsigned share = ++k == missing ? left - given : left / missing;
            if (!share)
                return errf(why, whylen, "no range left for zone '%u/' (the others take %u%%)",
                            wl->zones[z].access_pct, sr);
            wl->zones[z].range_pct = share;
            given += share;
        }
    sr += missing ? left : 0;
    if (!n || sa != 100 || sr != 100)
        return errf(why, whylen, "zone accesses sum to %u and ranges to %u, want 100 and 100", sa, sr);
    wl->n_zones = n;
    return WL_OK;
}

/* ---- profile matrix keys ------------------------------------------------------------ */

int wl_sweep_parse(const char *value, unsigned lo, unsigned hi, struct wl_sweep *sw, char *why,
                   size_t whylen)
{
    char buf[512];
    if (strlen(value) >= sizeof buf)
        return errf(why, whylen, "list too long");
    str_copy(buf, sizeof buf, value);
    struct wl_sweep out = {.n = 0};
    char *save = NULL;
    for (char *t = strtok_r(buf, ":,", &save); t; t = strtok_r(NULL, ":,", &save)) {
        t = str_trim(t);
        char *end = NULL;
        errno = 0;
        unsigned long v = strtoul(t, &end, 10);
        if (!*t || *end || errno || *t == '-' || v < lo || v > hi)
            return errf(why, whylen, "bad value '%s' (want whole numbers %u..%u separated by ':')",
                        t, lo, hi);
        for (unsigned i = 0; i < out.n; i++)
            if (out.v[i] == v)
                return errf(why, whylen, "%lu is listed twice", v);
        if (out.n >= WL_MAX_SWEEP)
            return errf(why, whylen, "at most %d values", WL_MAX_SWEEP);
        out.v[out.n++] = (unsigned)v;
    }
    if (!out.n)
        return errf(why, whylen, "empty list");
    *sw = out;
    return 0;
}

static int wl_set_sweep_qd(void *obj, const char *value, char *why, size_t whylen)
{
    struct workload *wl = obj;
    return wl_sweep_parse(value, 1, WL_MAX_QD, &wl->sweep_qd, why, whylen) ? WL_BAD_VALUE : WL_OK;
}

static int wl_set_sweep_workers(void *obj, const char *value, char *why, size_t whylen)
{
    struct workload *wl = obj;
    return wl_sweep_parse(value, 1, WL_MAX_WORKERS, &wl->sweep_workers, why, whylen)
               ? WL_BAD_VALUE : WL_OK;
}

static int wl_set_sweep_compress(void *obj, const char *value, char *why, size_t whylen)
{
    struct workload *wl = obj;
    return wl_sweep_parse(value, 0, 100, &wl->sweep_compress, why, whylen) ? WL_BAD_VALUE : WL_OK;
}

const char *wl_precondition_name(enum wl_precondition p)
{
    switch (p) {
    case WL_PRECOND_STEADY: return "steady";
    case WL_PRECOND_WIPC: return "wipc";
    case WL_PRECOND_NONE: return "none";
    default: return NULL;
    }
}

int wl_precondition_parse(const char *s, enum wl_precondition *out)
{
    for (int p = WL_PRECOND_STEADY; p <= WL_PRECOND_NONE; p++)
        if (!strcmp(s, wl_precondition_name((enum wl_precondition)p))) {
            *out = (enum wl_precondition)p;
            return 0;
        }
    return -1;
}

/* ---- fio's keys ---------------------------------------------------------------------- */

/* A flag: "" (a bare key in a job file), 1, 0 (and fio's true/false). */
static int wl_flag(const char *value, bool *out, char *why, size_t whylen)
{
    if (!*value || !strcmp(value, "1") || !strcasecmp(value, "true") || !strcasecmp(value, "yes"))
        *out = true;
    else if (!strcmp(value, "0") || !strcasecmp(value, "false") || !strcasecmp(value, "no"))
        *out = false;
    else
        return errf(why, whylen, "want 1 or 0");
    return WL_OK;
}

static void wl_note(struct workload *wl, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void wl_note(struct workload *wl, const char *fmt, ...)
{
    size_t n = strlen(wl->note);
    if (n + 3 >= sizeof(wl->note))
        return;
    if (n)
        n += (size_t)snprintf(wl->note + n, sizeof(wl->note) - n, "; ");
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(wl->note + n, sizeof(wl->note) - n, fmt, ap);
    va_end(ap);
}

void wl_note_add(struct workload *wl, const char *text)
{
    if (!strstr(wl->note, text))
        wl_note(wl, "%s", text);
}

/* ---- fio's dedupe and NUMA keys (io/pattern.h; core/job_numa.h) ------------------ */

static int wl_set_dedupe(void *obj, const char *value, char *why, size_t whylen)
{
    struct workload *wl = obj;
    if (wl_whole_percent(value, &wl->dedupe_pct, why, whylen) < 0)
        return WL_BAD_VALUE;
    if (wl->dedupe_pct)
        wl_note_add(wl, "dedupe_percentage: the share of 4 KiB chunks that repeat an earlier "
                        "one (fio decides per write buffer); a simulated drive stores every "
                        "chunk (it does not deduplicate)");
    return WL_OK;
}

static int wl_set_dedupe_mode(void *obj, const char *value, char *why, size_t whylen)
{
    struct workload *wl = obj;
    if (strcmp(value, "repeat") && strcmp(value, "working_set"))
        return errf(why, whylen, "want repeat or working_set");
    wl->dedupe_working_set = !strcmp(value, "working_set");
    return WL_OK;
}

static int wl_set_dedupe_ws(void *obj, const char *value, char *why, size_t whylen)
{
    struct workload *wl = obj;
    return wl_whole_percent(value, &wl->dedupe_ws_pct, why, whylen);
}

static int wl_set_dedupe_global(void *obj, const char *value, char *why, size_t whylen)
{
    struct workload *wl = obj;
    if (strcmp(value, "1") && strcmp(value, "0") && *value)
        return errf(why, whylen, "want 1 or 0");
    wl->dedupe_global = strcmp(value, "0") != 0;
    return WL_OK;
}

/* "all" or a node list (lib/cpuset.h syntax: 0, 0-1, 0,2). */
static int wl_set_numa_nodes(void *obj, const char *value, char *why, size_t whylen)
{
    struct workload *wl = obj;
    cpu_set_t nodes;
    if (strcmp(value, "all") && cpuset_parse(value, &nodes, why, whylen) != 0)
        return WL_BAD_VALUE;
    if (strlen(value) >= sizeof(wl->numa_cpu_nodes))
        return errf(why, whylen, "too long");
    str_copy(wl->numa_cpu_nodes, sizeof(wl->numa_cpu_nodes), value);
    return WL_OK;
}

/* fio's MODE[:NODES]: default and local alone, prefer one node, bind and interleave a list. */
static int wl_set_numa_mem(void *obj, const char *value, char *why, size_t whylen)
{
    struct workload *wl = obj;
    const char *colon = strchr(value, ':');
    size_t n = colon ? (size_t)(colon - value) : strlen(value);
    cpu_set_t nodes;
    if ((n == 7 && !strncmp(value, "default", n)) || (n == 5 && !strncmp(value, "local", n))) {
        if (colon)
            return errf(why, whylen, "%.*s takes no node list", (int)n, value);
    } else if ((n == 6 && !strncmp(value, "prefer", n)) || (n == 4 && !strncmp(value, "bind", n))
               || (n == 10 && !strncmp(value, "interleave", n))) {
        if (!colon || (strcmp(colon + 1, "all")
                       && cpuset_parse(colon + 1, &nodes, why, whylen) != 0))
            return colon ? WL_BAD_VALUE : errf(why, whylen, "%.*s:NODES", (int)n, value);
        if (n == 6 && strcmp(colon + 1, "all") && cpuset_count(&nodes) != 1)
            return errf(why, whylen, "prefer takes one node");
    } else {
        return errf(why, whylen, "want default, local, prefer:N, bind:NODES or interleave:NODES");
    }
    if (strlen(value) >= sizeof(wl->numa_mem_policy))
        return errf(why, whylen, "too long");
    str_copy(wl->numa_mem_policy, sizeof(wl->numa_mem_policy), value);
    return WL_OK;
}

static int wl_set_ioengine(void *obj, const char *value, char *why, size_t whylen)
{
    struct workload *wl = obj;
    if (!strcmp(value, "io_uring") || !strcmp(value, "libaio")) {
        snprintf(wl->engine, sizeof(wl->engine), "%s", value);
        return WL_OK;
    }
    static const char *const sync_engines[] = {"sync", "psync", "vsync", "pvsync", "pvsync2",
                                               NULL};
    for (const char *const *e = sync_engines; *e; e++)
        if (!strcmp(value, *e)) {
            /* a synchronous engine has one I/O in flight per job: the same load as QD 1 */
            wl->engine[0] = '\0';
            wl->sync_engine = true;
            wl_note(wl, "ioengine=%s: one I/O at a time per job, run as iodepth=1 on the "
                        "command's engine", value);
            return WL_OK;
        }
    return errf(why, whylen, "ioengine '%s' is not one ptsbench runs (io_uring, libaio; "
                             "sync, psync, pvsync and pvsync2 as iodepth=1)", value);
}

static int wl_set_direct(void *obj, const char *value, char *why, size_t whylen)
{
    struct workload *wl = obj;
    bool on;
    if (wl_flag(value, &on, why, whylen) < 0)
        return WL_BAD_VALUE;
    wl->buffered = !on;   /* direct=0: through the page cache, said on every figure */
    wl->direct_set = true;
    return WL_OK;
}

static int wl_set_buffered(void *obj, const char *value, char *why, size_t whylen)
{
    struct workload *wl = obj;
    bool on;
    if (wl_flag(value, &on, why, whylen) < 0)
        return WL_BAD_VALUE;
    return wl_set_direct(wl, on ? "0" : "1", why, whylen);
}

static int wl_set_time_based(void *obj, const char *value, char *why, size_t whylen)
{
    struct workload *wl = obj;
    return wl_flag(value, &wl->time_based, why, whylen);
}

static int wl_set_ramp(void *obj, const char *value, char *why, size_t whylen)
{
    struct workload *wl = obj;
    return units_parse_duration(value, &wl->ramp_ns, why, whylen) < 0 ? WL_BAD_VALUE : WL_OK;
}

static int wl_set_percentiles(void *obj, const char *value, char *why, size_t whylen)
{
    struct workload *wl = obj;
    (void)wl;
    static const double have[] = {50, 90, 95, 99, 99.9, 99.99, 99.999, 99.9999};
    char buf[256];
    str_copy(buf, sizeof(buf), value);
    char *save = NULL;
    for (char *t = strtok_r(buf, ":", &save); t; t = strtok_r(NULL, ":", &save)) {
        char *end;
        double v = strtod(t, &end);
        if (end == t || *end)
            return errf(why, whylen, "bad percentile '%s'", t);
        bool ok = false;
        for (size_t i = 0; i < sizeof(have) / sizeof(have[0]); i++)
            ok = ok || fabs(v - have[i]) < 1e-9;
        if (!ok)
            return errf(why, whylen, "%s is not one ptsbench records (50, 90, 95, 99, 99.9, "
                                     "99.99, 99.999, 99.9999: every result holds them all)", t);
    }
    return WL_OK;
}

/* ---- fio's pacing and flow keys (helper "pace"): rate, rate_iops, rate_process, thinktime*,
 * startdelay, number_ios, loops, fill_device; core/worker.c applies them per worker, as fio
 * per job (fio 3.33 backend.c usec_for_io, handle_thinktime; io_u.c rate_ddir) */

/* fio's "a bare number is microseconds" durations (thinktime, thinktime_spin). */
static int wl_us_duration(const char *value, uint64_t *ns, char *why, size_t whylen)
{
    const size_t n = strlen(value);
    if (n && isdigit((unsigned char)value[n - 1])) {
        uint64_t us = 0;
        if (units_parse_uint(value, 0, 3600000000ull, &us, why, whylen) < 0)
            return WL_BAD_VALUE;
        *ns = us * 1000;
        return WL_OK;
    }
    return units_parse_duration(value, ns, why, whylen) < 0 ? WL_BAD_VALUE : WL_OK;
}

/* fio's per-direction list "R[,W[,T]]": an empty item leaves that direction uncapped; a
 * value applies to the directions after it unless more are given (fio: "as described in
 * blocksize"): R is every direction's, R,W gives trims W. size: a size or a count. */
static int wl_per_dir(struct workload *wl, const char *value, bool size, uint64_t out[3],
                      char *why, size_t whylen)
{
    char buf[128];
    str_copy(buf, sizeof buf, value);
    char *item[3] = {buf, NULL, NULL};
    unsigned n = 1;
    for (char *c = buf; *c && n < 3; c++)
        if (*c == ',' || *c == ':') {   /* ':' in an inline spec, whose items ',' separates */
            *c = '\0';
            item[n++] = c + 1;
        }
    if (strpbrk(item[n - 1], ",:"))
        return errf(why, whylen, "at most three values (reads, writes, trims)");
    for (unsigned d = 0; d < 3; d++) {
        const char *t = item[d < n ? d : n - 1];
        out[d] = 0;
        if (!t || !*t)
            continue;
        if (size ? wl_size(wl, t, &out[d], why, whylen) < 0
                 : units_parse_uint(t, 0, 100000000, &out[d], why, whylen) < 0)
            return WL_BAD_VALUE;
    }
    if (!out[0] && !out[1] && !out[2])
        return errf(why, whylen, "no rate given (want R, R,W, ,W or R,W,T above 0)");
    return WL_OK;
}

static int wl_set_rate(void *obj, const char *value, char *why, size_t whylen)
{
    struct workload *wl = obj;
    return wl_per_dir(wl, value, true, wl->rate_bps, why, whylen);
}

static int wl_set_rate_iops(void *obj, const char *value, char *why, size_t whylen)
{
    struct workload *wl = obj;
    uint64_t v[3];
    if (wl_per_dir(wl, value, false, v, why, whylen) != WL_OK)
        return WL_BAD_VALUE;
    for (unsigned d = 0; d < 3; d++)
        wl->rate_iops_dir[d] = (unsigned)v[d];
    wl->rate_iops = !strpbrk(value, ",:") ? (unsigned)v[0] : 0;   /* one value: the old form */
    return WL_OK;
}

static const struct key_choice wl_rate_process_choices[] = {
    {"linear", 0, false}, {"poisson", 1, false}, {NULL, 0, false}};

static int wl_set_rate_process(void *obj, const char *value, char *why, size_t whylen)
{
    struct workload *wl = obj;
    for (const struct key_choice *c = wl_rate_process_choices; c->name; c++)
        if (!strcmp(value, c->name)) {
            wl->rate_poisson = c->value == 1;
            return WL_OK;
        }
    return errf(why, whylen, "want linear or poisson");
}

/* fio's inline mode waits for every I/O in flight when ahead of the rate; offload submits
 * from other threads and does not (both keep at most iodepth in flight). */
static int wl_set_submit_mode(void *obj, const char *value, char *why, size_t whylen)
{
    struct workload *wl = obj;
    if (strcmp(value, "inline") && strcmp(value, "offload"))
        return errf(why, whylen, "want inline or offload");
    wl->rate_offload = !strcmp(value, "offload");
    return WL_OK;
}

static int wl_set_rate_cycle(void *obj, const char *value, char *why, size_t whylen)
{
    struct workload *wl = obj;
    uint64_t ms = 0;
    if (units_parse_uint(value, 1, 3600000, &ms, why, whylen) < 0)
        return WL_BAD_VALUE;
    wl_note(wl, "rate_cycle=%s: only fio's rate_min window (nothing here)", value);
    return WL_OK;
}

static int wl_set_thinktime(void *obj, const char *value, char *why, size_t whylen)
{
    struct workload *wl = obj;
    return wl_us_duration(value, &wl->thinktime_ns, why, whylen);
}

static int wl_set_thinktime_spin(void *obj, const char *value, char *why, size_t whylen)
{
    struct workload *wl = obj;
    return wl_us_duration(value, &wl->thinktime_spin_ns, why, whylen);
}

static int wl_set_thinktime_blocks(void *obj, const char *value, char *why, size_t whylen)
{
    struct workload *wl = obj;
    wl->thinktime_blocks_set = true;
    return wl_uint(value, 1, 1u << 30, &wl->thinktime_blocks, why, whylen);
}

/* fio: a bare number is seconds */
static int wl_set_thinktime_iotime(void *obj, const char *value, char *why, size_t whylen)
{
    struct workload *wl = obj;
    return units_parse_duration(value, &wl->thinktime_iotime_ns, why, whylen) < 0 ? WL_BAD_VALUE
                                                                                   : WL_OK;
}

static int wl_set_startdelay(void *obj, const char *value, char *why, size_t whylen)
{
    struct workload *wl = obj;
    if (strchr(value, '-') || strchr(value, ':'))
        return errf(why, whylen, "a range (fio: each job a random delay in it) is not done: "
                                 "give one delay");
    return units_parse_duration(value, &wl->startdelay_ns, why, whylen) < 0 ? WL_BAD_VALUE
                                                                             : WL_OK;
}

/* fio 3.33's flow: a weight 0..1000 (older fio's signed flow is gone) */
static int wl_set_flow(void *obj, const char *value, char *why, size_t whylen)
{
    struct workload *wl = obj;
    if (*value == '-')
        return errf(why, whylen, "a weight 0..1000 (fio 3.33 takes no negative flow: older "
                                 "fio's signed counter is gone)");
    return wl_uint(value, 0, 1000, &wl->flow, why, whylen);
}

static int wl_set_flow_id(void *obj, const char *value, char *why, size_t whylen)
{
    struct workload *wl = obj;
    return wl_uint(value, 0, 0x7fffffff, &wl->flow_id, why, whylen);
}

static int wl_set_flow_sleep(void *obj, const char *value, char *why, size_t whylen)
{
    struct workload *wl = obj;
    return wl_us_duration(value, &wl->flow_sleep_ns, why, whylen);
}

/* fio's filesize with one file (nrfiles is refused): the file is the job's range */
static int wl_set_filesize(void *obj, const char *value, char *why, size_t whylen)
{
    struct workload *wl = obj;
    if (strchr(value, '-') || strchr(value, ':'))
        return errf(why, whylen, "a range (fio: each file a random size in it) is not done: "
                                 "give one size");
    struct wl_extent e = {0};
    if (wl_extent(wl, value, &e, why, whylen) < 0)
        return WL_BAD_VALUE;
    if (e.is_percent || e.bytes == 0)
        return errf(why, whylen, "want a size in bytes above 0");
    wl->filesize = e;
    return WL_OK;
}

static int wl_set_number_ios(void *obj, const char *value, char *why, size_t whylen)
{
    struct workload *wl = obj;
    return units_parse_uint(value, 0, UINT64_MAX / 1024, &wl->number_ios, why, whylen) < 0
               ? WL_BAD_VALUE
               : WL_OK;
}

static int wl_set_loops(void *obj, const char *value, char *why, size_t whylen)
{
    struct workload *wl = obj;
    return wl_uint(value, 1, 1000000, &wl->loops, why, whylen);
}

static int wl_set_fill_device(void *obj, const char *value, char *why, size_t whylen)
{
    struct workload *wl = obj;
    return wl_flag(value, &wl->fill_device, why, whylen);
}

static int wl_set_batch_submit(void *obj, const char *value, char *why, size_t whylen)
{
    struct workload *wl = obj;
    return wl_uint(value, 0, WL_MAX_QD, &wl->batch_submit, why, whylen);
}

/* 0 is fio's "poll: never wait"; ptsbench's loop always waits for at least one completion. */
static int wl_set_batch_complete(void *obj, const char *value, char *why, size_t whylen)
{
    struct workload *wl = obj;
    if (!strcmp(value, "0"))
        return errf(why, whylen, "0 (fio: poll for completions without waiting) is not done: "
                                 "every wait here waits for at least one (want 1 or more)");
    return wl_uint(value, 1, WL_MAX_QD, &wl->batch_complete_min, why, whylen);
}

/* Checked against iodepth in wl_validate: the loop takes every completion there. */
static int wl_set_batch_complete_max(void *obj, const char *value, char *why, size_t whylen)
{
    struct workload *wl = obj;
    return wl_uint(value, 1, WL_MAX_QD, &wl->batch_complete_max, why, whylen);
}

static int wl_set_filename(void *obj, const char *value, char *why, size_t whylen)
{
    struct workload *wl = obj;
    for (const char *p = value; *p; p++)
        if (*p == ':' && (p == value || p[-1] != '\\'))
            return errf(why, whylen, "several files (a:b) are not supported: one target");
    return wl_set_text(wl->filename, sizeof(wl->filename), value, why, whylen);
}

/* fio's directory: where the job's file (filename, or fio's own name for it) is. */
static int wl_set_directory(void *obj, const char *value, char *why, size_t whylen)
{
    struct workload *wl = obj;
    for (const char *p = value; *p; p++)
        if (*p == ':' && (p == value || p[-1] != '\\'))
            return errf(why, whylen, "several directories (a:b) are not supported: one target");
    return wl_set_text(wl->directory, sizeof(wl->directory), value, why, whylen);
}

/* Keys of fio's that set what ptsbench does anyway, or only fio's reporting. */
static int wl_set_ignored(void *obj, const char *value, char *why, size_t whylen)
{
    struct workload *wl = obj;
    (void)wl;
    (void)value;
    (void)why;
    (void)whylen;
    return WL_OK;
}

static int wl_set_chunk(void *obj, const char *value, char *why, size_t whylen)
{
    struct workload *wl = obj;
    uint64_t v = 0;
    if (wl_size(wl, value, &v, why, whylen) < 0)
        return WL_BAD_VALUE;
    if (v != 4096)
        return errf(why, whylen, "ptsbench makes its data compressible per 4 KiB chunk (4k)");
    return WL_OK;
}

/* ---- fio's steady state and latency target (helper "ss"; core/fio_ss.h, core/lat_target.h)
 * fio reads these times with a default unit: seconds for ss_dur, ss_ramp and ss_interval,
 * microseconds for latency_target and latency_window. */

static int wl_fio_time(const char *value, uint64_t unit_ns, uint64_t *out, char *why,
                       size_t whylen)
{
    const size_t n = strlen(value);
    if (n && isdigit((unsigned char)value[n - 1])) {
        uint64_t v = 0;
        if (units_parse_uint(value, 0, 100000000000ull, &v, why, whylen) < 0)
            return WL_BAD_VALUE;
        *out = v * unit_ns;
        return WL_OK;
    }
    return units_parse_duration(value, out, why, whylen) < 0 ? WL_BAD_VALUE : WL_OK;
}

/* ss=iops:2% | iops_slope:0.1% | bw:N | bw_slope:N% | lat:N% | lat_slope:N% (fio's lat forms
 * are newer than fio 3.33, which refuses them: ptsbench takes fio's current syntax) */
static int wl_set_ss(void *obj, const char *value, char *why, size_t whylen)
{
    struct workload *wl = obj;
    static const struct { const char *name; enum wl_ss_metric m; bool slope; } forms[] = {
        {"iops", WL_SS_IOPS, false}, {"iops_slope", WL_SS_IOPS, true},
        {"bw", WL_SS_BW, false},     {"bw_slope", WL_SS_BW, true},
        {"lat", WL_SS_LAT, false},   {"lat_slope", WL_SS_LAT, true}};
    const char *colon = strchr(value, ':');
    size_t len = colon ? (size_t)(colon - value) : strlen(value);
    struct wl_ss ss = wl->ss;
    ss.metric = WL_SS_NONE;
    for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++)
        if (strlen(forms[i].name) == len && !strncmp(value, forms[i].name, len)) {
            ss.metric = forms[i].m;
            ss.slope = forms[i].slope;
        }
    if (ss.metric == WL_SS_NONE)
        return errf(why, whylen, "want iops, iops_slope, bw, bw_slope, lat or lat_slope, then "
                                 ":LIMIT (e.g. iops:2%%)");
    if (!colon || !colon[1])
        return errf(why, whylen, "missing the limit after '%.*s:' (e.g. 2%%)", (int)len, value);
    char lim[64];
    str_copy(lim, sizeof lim, colon + 1);
    size_t ln = strlen(lim);
    ss.pct = ln && lim[ln - 1] == '%';
    if (ss.pct)
        lim[ln - 1] = '\0';
    uint64_t bytes = 0;
    char tmp[128];
    if (ss.metric == WL_SS_BW && !ss.pct && wl_size(wl, lim, &bytes, tmp, sizeof tmp) == 0)
        ss.limit = (double)bytes;   /* fio: bytes per second, with its size suffixes */
    else if (units_parse_double(lim, 0, 1e15, &ss.limit, why, whylen) < 0)
        return WL_BAD_VALUE;
    if (!(ss.limit > 0))
        return errf(why, whylen, "a limit of 0 is never met (fio compares: criterion < limit)");
    wl->ss = ss;
    return WL_OK;
}

static int wl_set_ss_dur(void *obj, const char *value, char *why, size_t whylen)
{
    struct workload *wl = obj;
    return wl_fio_time(value, 1000000000ull, &wl->ss.dur_ns, why, whylen);
}

static int wl_set_ss_ramp(void *obj, const char *value, char *why, size_t whylen)
{
    struct workload *wl = obj;
    return wl_fio_time(value, 1000000000ull, &wl->ss.ramp_ns, why, whylen);
}

/* ptsbench samples once a second: fio's interval is evaluated over whole seconds of them. */
static int wl_set_ss_interval(void *obj, const char *value, char *why, size_t whylen)
{
    struct workload *wl = obj;
    uint64_t ns = 0;
    if (wl_fio_time(value, 1000000000ull, &ns, why, whylen) < 0)
        return WL_BAD_VALUE;
    if (ns == 0 || ns % 1000000000ull)
        return errf(why, whylen, "ptsbench samples once a second: want whole seconds (1, 10s)");
    wl->ss.interval_ns = ns;
    return WL_OK;
}

static int wl_set_lat_target(void *obj, const char *value, char *why, size_t whylen)
{
    struct workload *wl = obj;
    if (wl_fio_time(value, 1000ull, &wl->lat.target_ns, why, whylen) < 0)
        return WL_BAD_VALUE;
    return wl->lat.target_ns ? WL_OK : errf(why, whylen, "want a latency above 0");
}

static int wl_set_lat_window(void *obj, const char *value, char *why, size_t whylen)
{
    struct workload *wl = obj;
    return wl_fio_time(value, 1000ull, &wl->lat.window_ns, why, whylen);
}

static int wl_set_lat_percentile(void *obj, const char *value, char *why, size_t whylen)
{
    struct workload *wl = obj;
    double p = 0;
    if (units_parse_percent(value, &p, why, whylen) < 0)
        return WL_BAD_VALUE;
    if (!(p > 0))
        return errf(why, whylen, "want a share above 0 (fio's default: 100)");
    wl->lat.percentile = p;
    return WL_OK;
}

static int wl_set_lat_run(void *obj, const char *value, char *why, size_t whylen)
{
    struct workload *wl = obj;
    if (strcmp(value, "1") && strcmp(value, "0") && *value)
        return errf(why, whylen, "want 1 or 0");
    wl->lat.run = strcmp(value, "0") != 0;
    return WL_OK;
}

/* ---- fio's I/O priorities (helper "prio"): prio, prioclass, cmdprio_percentage,
 * cmdprio_class, cmdprio, cmdprio_bssplit, as fio 3.33 (options.c, engines/cmdprio.c):
 * io/iogen.h draws which I/Os are raised, the io_uring and libaio engines issue them */

/* An integer per direction "R[,W[,T]]" in [lo, hi]: one value is both directions' (fio's
 * per-direction options), an empty item leaves that direction as it was; a third value
 * (fio's cmdprio keys have two) is refused by wl_dir_parts' callers' ranges, trims take the
 * reads' (iogen_prio). */
static int wl_prio_dirs(const char *value, unsigned lo, unsigned hi, unsigned out[2],
                        char *why, size_t whylen)
{
    char parts[3][512];
    unsigned n = 0;
    if (wl_dir_parts(value, parts, &n, why, whylen) < 0)
        return WL_BAD_VALUE;
    for (unsigned d = 0; d < 2; d++) {
        const char *t = str_trim(parts[n == 1 ? 0 : d < n ? d : n - 1]);
        if (d >= n && n > 1)
            continue;
        if (*t && wl_uint(t, lo, hi, &out[d], why, whylen) < 0)
            return WL_BAD_VALUE;
    }
    return WL_OK;
}

static int wl_set_prio(void *obj, const char *value, char *why, size_t whylen)
{
    struct workload *wl = obj;
    unsigned v = 0;
    if (wl_uint(value, 0, 7, &v, why, whylen) < 0)
        return WL_BAD_VALUE;
    wl->prio.level = (int)v;
    return WL_OK;
}

static int wl_set_prioclass(void *obj, const char *value, char *why, size_t whylen)
{
    struct workload *wl = obj;
    unsigned v = 0;
    if (wl_uint(value, 0, 3, &v, why, whylen) < 0)
        return WL_BAD_VALUE;
    wl->prio.cls = (int)v;
    return WL_OK;
}

static int wl_set_cmdprio_percentage(void *obj, const char *value, char *why, size_t whylen)
{
    struct workload *wl = obj;
    return wl_prio_dirs(value, 0, 100, wl->prio.pct, why, whylen);
}

static int wl_set_cmdprio_class(void *obj, const char *value, char *why, size_t whylen)
{
    struct workload *wl = obj;   /* fio: 1 (RT) to 3 (idle); class 0 is no class */
    return wl_prio_dirs(value, 1, 3, wl->prio.cmd_cls, why, whylen);
}

static int wl_set_cmdprio(void *obj, const char *value, char *why, size_t whylen)
{
    struct workload *wl = obj;
    return wl_prio_dirs(value, 0, 7, wl->prio.cmd_level, why, whylen);
}

/* One direction of cmdprio_bssplit: "bs/pct[/class/level[/hint]]:..." (fio 3.33 reads four
 * fields and ignores a fifth, the hint newer fio sends; entries of 0 % are dropped). */
static int wl_prio_split_dir(struct workload *wl, unsigned d, char *text, char *why,
                             size_t whylen)
{
    unsigned n = 0;
    for (char *save = NULL, *e = strtok_r(text, ":", &save); e; e = strtok_r(NULL, ":", &save)) {
        char *f[5] = {0};
        unsigned nf = 0;
        for (char *s2 = NULL, *t = strtok_r(e, "/", &s2); t && nf < 5; t = strtok_r(NULL, "/", &s2))
            f[nf++] = str_trim(t);
        if (nf == 3 || nf < 1)
            return errf(why, whylen, "entry '%s': want bs/percent or bs/percent/class/level", e);
        struct wl_prio_split x = {.cls = -1, .level = -1};
        unsigned v[4] = {0, 0, 0, 0};
        if (wl_block_size(wl, f[0], &x.bs, why, whylen) < 0)
            return WL_BAD_VALUE;
        for (unsigned i = 1; i < nf && i < 4; i++)
            if (wl_uint(f[i], 0, i == 1 ? 100 : i == 2 ? 3 : 7, &v[i], why, whylen) < 0)
                return WL_BAD_VALUE;
        x.pct = v[1];
        if (nf >= 4) {
            x.cls = (int)v[2];
            x.level = (int)v[3];
        }
        if (nf == 5)
            wl_note_add(wl, "cmdprio_bssplit: the fifth field (a priority hint) is not sent, "
                            "as fio 3.33 which reads four");
        if (!x.pct)
            continue;
        if (n == WL_MAX_BS)
            return errf(why, whylen, "more than %d entries", WL_MAX_BS);
        unsigned tot = x.pct;
        for (unsigned i = 0; i < n; i++)
            tot += wl->prio.split[d][i].bs == x.bs ? wl->prio.split[d][i].pct : 0;
        if (tot > 100)
            return errf(why, whylen, "the percentages of size %u sum above 100", x.bs);
        wl->prio.split[d][n++] = x;
    }
    wl->prio.n_split[d] = n;
    return WL_OK;
}

static int wl_set_cmdprio_bssplit(void *obj, const char *value, char *why, size_t whylen)
{
    struct workload *wl = obj;
    char parts[3][512];
    unsigned n = 0;
    if (wl_dir_parts(value, parts, &n, why, whylen) < 0)
        return WL_BAD_VALUE;
    for (unsigned d = 0; d < 2; d++) {
        char buf[512];
        str_copy(buf, sizeof buf, parts[n == 1 ? 0 : d < n ? d : n - 1]);
        if (d >= n && n > 1)
            wl->prio.n_split[d] = 0;
        else if (wl_prio_split_dir(wl, d, buf, why, whylen) < 0)
            return WL_BAD_VALUE;
    }
    return WL_OK;
}

/* ---- the keys: one row each (lib/keys.h) -------------------------------------------- */

#define WL_F(f) KEY_FIELD(struct workload, f)
#define W(k, fn, a, h) {k, KEY_FN, .set = fn, .arg = a, .help = h, .group = "workload"}
#define P(k, fn, a, h) {k, KEY_FN, .set = fn, .arg = a, .help = h, .group = "profile"}
#define FIO(k, fn, a, h) {k, KEY_FN, .set = fn, .arg = a, .help = h, .group = "fio"}
#define FLAG(k, fn, h) {k, KEY_FN, .set = fn, .arg = "1 | 0", .help = h, .group = "fio", .bare = true}
#define ALIAS(k, of) {k, KEY_ALIAS, .alias = of}
#define NO(k, why) {k, KEY_REFUSED, .help = why, .group = "refused"}
#define NOTE(k, why) {k, KEY_NOTED, .help = why, .group = "noted", .bare = true}

static const struct key_choice wl_random_map_choices[] = {
    {"once", WL_RANDOM_MAP_ONCE, false}, {"always", WL_RANDOM_MAP_ALWAYS, false},
    {"off", WL_RANDOM_MAP_OFF, false},   {NULL, 0, false}};
static const struct key_choice wl_precondition_choices[] = {
    {"steady", WL_PRECOND_STEADY, false}, {"wipc", WL_PRECOND_WIPC, false},
    {"none", WL_PRECOND_NONE, false},     {NULL, 0, false}};
static const struct key_choice wl_kb_base_choices[] = {
    {"1024", 1024, false}, {"1000", 1000, false}, {NULL, 0, false}};

static const struct key_row wl_rows[] = {
    W("rw", wl_set_rw, "read | write | randread | randwrite | rw | randrw | trim | randtrim "
      "| trimwrite | randtrimwrite [:N]",
      "the I/O pattern (trims: a discard, fio's, a third direction in the figures; trimwrite "
      "writes each block it trimmed); fio's :N, sequential: N bytes skipped after each I/O "
      "(negative: backwards), random: a random offset every Nth I/O"),
    ALIAS("readwrite", "rw"),
    W("rwmixread", wl_set_rwmixread, "PCT", "read share of I/Os, whole percent (rw, randrw)"),
    ALIAS("rwmix", "rwmixread"),
    W("rwmixwrite", wl_set_rwmixwrite, "PCT", "write share: 100 - rwmixread"),
    W("percentage_random", wl_set_random, "PCT", "share of random accesses (default from rw)"),
    {"random_map", KEY_CHOICE, WL_F(random_map), .choices = wl_random_map_choices,
     .help = "random offsets: each block once, then independent draws | a new permutation "
             "each pass | independent draws", .group = "workload"},
    FLAG("norandommap", wl_set_norandommap, "fio's: random_map=off (norandommap=0: always)"),
    W("random_distribution", wl_set_distribution,
      "random | zoned:A/R:... | zipf:THETA[:C] | pareto:H[:C] | normal:SIGMA[:C]",
      "where random accesses go (fio's syntax; zoned: A% of them to the next R% of the range)"),
    W("bs", wl_set_bs, "SIZE | READ,WRITE", "one block size, e.g. 4k, 512, 1m (fio's "
      "READ,WRITE: each direction its own)"),
    ALIAS("blocksize", "bs"),
    W("bssplit", wl_set_bssplit, "SIZE/PCT:... [,SIZE/PCT:...]", "weighted block sizes, e.g. "
      "512/10:4k/60:64k/30 (weights sum to 100; one without a weight takes the rest; fio's "
      "READ,WRITE: each direction its own)"),
    W("bsrange", wl_set_bsrange, "MIN-MAX [,MIN-MAX]", "sizes uniform over the multiples of MIN "
      "up to MAX, as fio draws them (fio's READ,WRITE: each direction its own)"),
    ALIAS("blocksize_range", "bsrange"),
    W("blockalign", wl_set_blockalign, "SIZE", "random offsets' alignment (default: each size's "
      "natural alignment; with sizes per direction, the direction's smallest, as fio)"),
    ALIAS("ba", "blockalign"),
    W("iodepth", wl_set_qd, "1..65536", "outstanding I/Os per worker"),
    ALIAS("qd", "iodepth"),
    W("numjobs", wl_set_workers, "1..1024", "workers, each with its own ring or context"),
    ALIAS("workers", "numjobs"),
    ALIAS("threads", "numjobs"),
    W("region", wl_set_region, "shared | split", "every worker over the whole range, or each "
      "its own slice (default: shared random, split sequential)"),
    W("offset", wl_set_offset, "SIZE | PCT%", "start of the active range"),
    FIO("zonemode", wl_set_zonemode, "none | strided", "strided: zonesize bytes of I/O in "
        "each zone of zonerange bytes, then on past zoneskip bytes (from the range's start again "
        "past its end); zbd refused"),
    FIO("zonesize", wl_set_zonesize, "SIZE", "strided: bytes of I/O in each zone (alone: "
        "zonemode=strided, as fio)"),
    FIO("zonerange", wl_set_zonerange, "SIZE", "strided: each zone's length (default zonesize)"),
    FIO("zoneskip", wl_set_zoneskip, "SIZE", "strided: bytes skipped after each zone"),
    FIO("rw_sequencer", wl_set_rw_sequencer, "sequential | identical", "rw=randread:N: the I/Os "
        "between two random draws go on sequentially, or repeat the drawn offset"),
    ALIAS("fileoffset", "offset"),
    W("size", wl_set_size, "SIZE | PCT%", "length of the active range (default 100%)"),
    ALIAS("range", "size"),
    W("buffer_compress_percentage", wl_set_compress, "PCT", "data compressibility (0: none)"),
    ALIAS("compress", "buffer_compress_percentage"),
    W("runtime", wl_set_runtime, "DURATION", "round length in time (60, 60s, 1m)"),
    ALIAS("round_time", "runtime"),
    ALIAS("timeout", "runtime"),
    W("round_bytes", wl_set_round_bytes, "SIZE", "round length in bytes written (or "
      "transferred, read-only)"),
    ALIAS("io_size", "round_bytes"),
    ALIAS("io_limit", "round_bytes"),
    W("randseed", wl_set_seed, "N | 0xHEX", "PRNG seed (offsets, sizes, directions, data)"),
    ALIAS("seed", "randseed"),
    {"name", KEY_STR, WL_F(name), .help = "the workload's name", .group = "workload"},
    {"description", KEY_STR, WL_F(description), .help = "one line about it", .group = "workload"},

    P("sweep_qd", wl_set_sweep_qd, "N:N:...", "profile: queue depths per worker, e.g. 1:4:32"),
    P("sweep_workers", wl_set_sweep_workers, "N:N:...", "profile: worker counts, e.g. 1:4"),
    P("sweep_compress", wl_set_sweep_compress, "PCT:PCT:...", "profile: compressibilities, "
      "e.g. 0:90"),
    {"precondition", KEY_CHOICE, WL_F(precondition), .choices = wl_precondition_choices,
     .help = "profile: how the drive is prepared before the workload (profile_run.h)",
     .group = "profile"},

    FIO("ioengine", wl_set_ioengine, "io_uring | libaio | sync | psync | pvsync | pvsync2",
        "the engine unless the command names one; sync kinds run as iodepth=1"),
    FLAG("direct", wl_set_direct, "1: the device (O_DIRECT); 0: through the page cache, and "
         "every figure says so (a simulated drive has none: run direct, noted)"),
    FLAG("buffered", wl_set_buffered, "fio's: the opposite of direct"),
    FLAG("time_based", wl_set_time_based, "runtime is the round's length"),
    FIO("ramp_time", wl_set_ramp, "DURATION", "run and profile: a warm-up before the first round"),
    {"kb_base", KEY_CHOICE, WL_F(kb_base), .choices = wl_kb_base_choices,
     .help = "size units by fio's rules (a job file: 1024 unless it says)", .group = "fio"},
    FIO("percentile_list", wl_set_percentiles, "P:P:...", "checked against the percentiles "
        "ptsbench records"),
    /* fio's pacing and flow (helper "pace"): per worker, as fio's per job (worker.c) */
    FIO("rate", wl_set_rate, "BW[,BW[,BW]]", "bytes a second per worker, reads[,writes"
        "[,trims]] (fio's per-direction schedules; an empty one uncapped)"),
    FIO("rate_iops", wl_set_rate_iops, "N[,N[,N]]", "per worker: I/Os a second, reads[,writes"
        "[,trims]] (one value: each direction)"),
    FIO("rate_process", wl_set_rate_process, "linear | poisson", "even gaps, or exponential "
        "ones of the same mean (seeded by randseed)"),
    FIO("io_submit_mode", wl_set_submit_mode, "inline | offload", "ahead of a rate: wait "
        "for every I/O in flight first (inline, fio's default) or not"),
    FIO("rate_cycle", wl_set_rate_cycle, "MS", "noted: only rate_min's window"),
    FIO("thinktime", wl_set_thinktime, "DURATION | US", "per worker: after thinktime_blocks "
        "issues, every I/O in flight completes, then this wait"),
    FIO("thinktime_blocks", wl_set_thinktime_blocks, "N", "issues between thinks (default 1)"),
    FIO("thinktime_spin", wl_set_thinktime_spin, "DURATION | US", "of the think time, this "
        "much polled (CPU busy), the rest slept"),
    FIO("thinktime_iotime", wl_set_thinktime_iotime, "DURATION", "think after this long "
        "issuing (or thinktime_blocks, the first)"),
    FIO("startdelay", wl_set_startdelay, "DURATION", "each round: the job starts this long "
        "into it (fio: once, at the job's start)"),
    FIO("number_ios", wl_set_number_ios, "N", "a round ends after N I/Os per worker (or "
        "earlier by its time or bytes)"),
    FIO("loops", wl_set_loops, "N", "multiplies round_bytes and number_ios (a timed round: "
        "no effect, as fio's time_based)"),
    FLAG("fill_device", wl_set_fill_device, "a writing round ends once the active range is "
         "written (each worker its share)"),
    ALIAS("fill_fs", "fill_device"),
    NO("rate_min", "fio would fail the job below this rate; ptsbench records the rate the "
                   "device gives and judges it after (ptsbench gate, verify)"),
    NO("rate_iops_min", "fio would fail the job below this rate; ptsbench records the rate "
                        "the device gives and judges it after (ptsbench gate, verify)"),
    FIO("iodepth_batch", wl_set_batch_submit, "0..65536", "I/Os submitted per call"),
    ALIAS("iodepth_batch_submit", "iodepth_batch"),
    FIO("iodepth_batch_complete", wl_set_batch_complete, "1..65536", "completions waited for "
        "per call (fio's 0, poll, is refused)"),
    ALIAS("iodepth_batch_complete_min", "iodepth_batch_complete"),
    FIO("iodepth_batch_complete_max", wl_set_batch_complete_max, "1..65536", "at least iodepth "
        "(every completion there is taken)"),
    FIO("iodepth_low", wl_set_iodepth_low, "N", "at least iodepth: the queue is refilled at "
        "once, as fio's default"),
    FIO("filename", wl_set_filename, "PATH", "the target, when the command names none"),
    FIO("buffer_compress_chunk", wl_set_chunk, "4k", "only 4k (data is made per 4 KiB)"),
    FLAG("group_reporting", wl_set_ignored, "taken: fio's reporting"),
    FLAG("thread", wl_set_ignored, "taken: workers are threads"),
    FLAG("stonewall", wl_set_ignored, "taken: one job"),
    ALIAS("wait_for_previous", "stonewall"),
    FLAG("new_group", wl_set_ignored, "taken: fio's reporting"),
    FLAG("refill_buffers", wl_set_ignored, "taken: every write's data is fresh"),
    FLAG("randrepeat", wl_set_ignored, "taken: randseed decides"),
    FLAG("allrandrepeat", wl_set_ignored, "taken: randseed decides"),
    FIO("random_generator", wl_set_ignored, "NAME", "taken: ptsbench has one generator"),
    FLAG("invalidate", wl_set_ignored, "taken: direct I/O"),
    FLAG("lat_percentiles", wl_set_ignored, "taken: every result holds them"),
    FLAG("clat_percentiles", wl_set_ignored, "taken: every result holds them"),
    FLAG("slat_percentiles", wl_set_ignored, "taken: fio's reporting"),
    FLAG("fixedbufs", wl_set_ignored, "taken: the engine's choice"),
    FLAG("registerfiles", wl_set_ignored, "taken: the engine's choice"),

    /* fio's steady state and latency target (helper "ss": core/fio_ss.h, core/lat_target.h) */
    FIO("steadystate", wl_set_ss, "iops|iops_slope|bw|bw_slope|lat|lat_slope:LIMIT[%]",
        "fio's stop rule: the run tracks that variable and stops at ptsbench's window (fio's "
        "own criterion is recorded beside it)"),
    ALIAS("ss", "steadystate"),
    FIO("steadystate_duration", wl_set_ss_dur, "DURATION | S", "fio's window (0: no detection)"),
    ALIAS("ss_dur", "steadystate_duration"),
    FIO("steadystate_ramp_time", wl_set_ss_ramp, "DURATION | S", "no window starts before it"),
    ALIAS("ss_ramp", "steadystate_ramp_time"),
    FIO("steadystate_check_interval", wl_set_ss_interval, "S", "fio's sample interval, whole "
        "seconds (fio newer than 3.33)"),
    ALIAS("ss_interval", "steadystate_check_interval"),
    FIO("latency_target", wl_set_lat_target, "DURATION | US", "per worker: the deepest queue "
        "(up to iodepth) whose latency stays within it (fio's search)"),
    FIO("latency_window", wl_set_lat_window, "DURATION | US", "each depth judged over this long"),
    FIO("latency_percentile", wl_set_lat_percentile, "PCT", "share of a window's I/Os within "
        "the target (100)"),
    FLAG("latency_run", wl_set_lat_run, "keep adjusting the depth after the search settles"),

    /* fio's keys that change only fio's own logs, reports or bookkeeping: taken, and what fio
     * would have done differently is noted (wl->note, once per key) */
#define FIO_LOG "fio would write its own log file; ptsbench records its own per-round figures"
    NOTE("write_bw_log", FIO_LOG),
    NOTE("write_lat_log", FIO_LOG),
    NOTE("write_hist_log", FIO_LOG),
    NOTE("write_iops_log", FIO_LOG),
    NOTE("log_avg_msec", FIO_LOG),
    NOTE("log_hist_msec", FIO_LOG),
    NOTE("log_hist_coarseness", FIO_LOG),
    NOTE("log_max_value", FIO_LOG),
    NOTE("log_offset", FIO_LOG),
    NOTE("log_prio", FIO_LOG),
    NOTE("log_entries", FIO_LOG),
    NOTE("log_compression", FIO_LOG),
    NOTE("log_compression_cpus", FIO_LOG),
    NOTE("log_store_compressed", FIO_LOG),
    NOTE("log_unix_epoch", FIO_LOG),
    NOTE("log_alternate_epoch", FIO_LOG),
    NOTE("log_alternate_epoch_clock_id", FIO_LOG),
    NOTE("per_job_logs", FIO_LOG),
#undef FIO_LOG
    NOTE("gtod_reduce", "fio would time fewer I/Os (no latency figures); ptsbench times every "
                        "I/O"),
    NOTE("gtod_cpu", "fio would keep time on a CPU of its own; ptsbench reads the clock in "
                     "each worker"),
    NOTE("clocksource", "fio's clock source; ptsbench times with CLOCK_MONOTONIC"),
    NOTE("disable_lat", "fio would not record total latency; ptsbench records it always"),
    NOTE("disable_clat", "fio would not record completion latency; ptsbench records total "
                         "latency always"),
    NOTE("disable_slat", "fio would not record submission latency; ptsbench does not split it"),
    NOTE("disable_bw_measurement", "fio would not log bandwidth; ptsbench records it always"),
    ALIAS("disable_bw", "disable_bw_measurement"),
    NOTE("stats", "fio's stats=0 would keep no figures for the job; ptsbench keeps them"),
    NOTE("bwavgtime", "fio's bandwidth averaging window; ptsbench's figures are per round"),
    NOTE("iopsavgtime", "fio's IOPS averaging window; ptsbench's figures are per round"),
    NOTE("significant_figures", "fio's output format; ptsbench formats its own figures"),
    NOTE("unit_base", "fio's output in bits or bytes; ptsbench reports bytes"),
    NOTE("block_error_percentiles", "fio's report of trim errors; ptsbench fails the round on "
                                    "an error"),
    NOTE("disk_util", "fio would report the disk's utilisation from /proc/diskstats; ptsbench "
                      "records its own device statistics"),
    NOTE("error_dump", "fio's error messages; ptsbench reports the first error"),
    NOTE("exitall", "fio would stop every job when the first ends; ptsbench's jobs of a group "
                    "run for the round's length and stop together"),
    NOTE("exit_what", "fio would stop other jobs when the first ends; ptsbench's jobs of a "
                      "group stop together"),
    NOTE("exitall_on_error", "fio would stop every job on an error; ptsbench fails the round"),
    NOTE("cpus_allowed_policy", "CPU pinning is the command's: --cpus LIST"),
    NOTE("nice", "fio would change the job's CPU priority; ptsbench's workers run at the "
                 "command's"),
    NOTE("cgroup_nodelete", "fio's cgroups; ptsbench puts its workers in none"),
    NOTE("mem", "fio's kind of buffer memory; ptsbench's buffers are its own aligned memory"),
    ALIAS("iomem", "mem"),
    NOTE("iomem_align", "fio's buffer alignment; ptsbench aligns buffers to 4 KiB or the "
                        "target's own alignment"),
    ALIAS("mem_align", "iomem_align"),
    NOTE("hugepage-size", "fio's huge pages for mem=shmhuge; ptsbench's buffers are its own"),
    NOTE("lockmem", "fio would lock memory away from itself; ptsbench does not"),
    NOTE("allow_file_create", "ptsbench creates a file target with --size"),
    NOTE("allow_mounted_write", "ptsbench's own safety checks decide (a mounted device is "
                                "refused)"),
    NOTE("create_serialize", "fio's file layout; ptsbench creates one target with --size"),
    NOTE("create_fsync", "fio's file layout; ptsbench creates one target with --size"),
    NOTE("create_on_open", "fio's file layout; ptsbench creates one target with --size"),
    NOTE("overwrite", "fio would write the file out before the job; ptsbench creates it with "
                      "--size (preconditioning writes it)"),
    NOTE("unlink", "fio would delete the files it made; ptsbench keeps its target"),
    NOTE("unlink_each_loop", "fio would delete the files it made; ptsbench keeps its target"),
    NOTE("fsync_on_close", "fio would fsync the file when closing it, after the measured I/O"),
    NOTE("file_service_type", "one target: nothing to choose between"),
    NOTE("openfiles", "one target, open once"),
    NOTE("filename_format", "one target (--target or filename)"),
    NOTE("unique_filename", "fio's client/server file names; one target here"),
    NOTE("softrandommap", "fio's fallback when its map cannot be allocated; ptsbench's map "
                          "always is"),
    NOTE("fadvise_hint", "fio would advise the kernel of the pattern (read-ahead); ptsbench "
                         "gives no hints"),
    NOTE("pre_read", "fio would read the files into the page cache first (not with direct=1); "
                     "ptsbench does not"),
    NOTE("cgroup_weight", "fio's cgroup I/O weight; ptsbench runs in the command's cgroup"),
    /* deprecated in fio 3.33: fio warns and ignores them */
    NOTE("rwmixcycle", "deprecated in fio, which ignores it"),
    NOTE("verifysort", "deprecated in fio, which ignores it"),
    NOTE("verifysort_nr", "deprecated in fio, which ignores it"),
    NOTE("flow_watermark", "deprecated in fio, which ignores it"),
    NOTE("percentage_sequential", "deprecated in fio, which ignores it"),
    /* io_uring's and libaio's own keys (fio --enghelp) */
    NOTE("nonvectored", "io_uring's vectored or plain commands: ptsbench's io_uring engine "
                        "issues fixed-buffer reads and writes"),
    NOTE("userspace_reap", "libaio's reaping in user space: ptsbench's libaio engine reaps "
                           "with io_getevents"),
    NOTE("force_async", "ptsbench's io_uring engine marks I/O async itself where the target "
                        "needs it (the results say)"),

    /* fio's keys that would change the measurement and that ptsbench does not do */
    NO("verify", "data verification is not supported (ptsbench measures performance)"),
    NO("do_verify", "data verification is not supported"),
    NO("fsync", "fsync between writes is not supported (direct I/O to the device only)"),
    NO("fdatasync", "fdatasync between writes is not supported"),
    NO("end_fsync", "fsync at the end is not supported"),
    NO("sync", "O_SYNC writes are not supported"),
    NO("nrfiles", "several files per job are not supported: one target"),
    ALIAS("nr_files", "nrfiles"),
    FIO("directory", wl_set_directory, "DIR", "with filename: the file's directory; without: "
        "a file of its own per job, which ptsbench lays out as an extent of the target per job "
        "(io/jobset.h)"),
    NO("opendir", "files in a directory are not supported: one target"),
    NO("cpus_allowed", "CPU pinning is the command's: --cpus LIST (every worker on the whole "
                       "list, as cpus_allowed_policy=shared)"),
    NO("cpumask", "CPU pinning is the command's: --cpus LIST"),
    FIO("numa_cpu_nodes", wl_set_numa_nodes, "all | NODES",
        "the run's placement (--numa) when the command gives none and every job agrees"),
    FIO("numa_mem_policy", wl_set_numa_mem, "default | local | prefer:N | bind:L | interleave:L",
        "taken where first touch on the pinned CPUs' nodes gives it (else refused at the run)"),
    NO("read_iolog", "replaying an iolog is ptsbench replay's (ptsbench replay FILE --target T)"),
    NO("write_iolog", "recording an iolog is not supported (ptsbench trace capture records a "
                      "device's requests)"),
    NO("offset_increment", "offset_increment is not supported (region=split gives each worker "
                           "its own slice)"),
    NO("fallocate", "file preallocation modes are not supported (--size creates the file)"),
    NO("continue_on_error", "continuing after errors is not supported: an error fails the round"),
    NO("zero_buffers", "all-zero buffers are not supported (buffer_compress_percentage=100 is "
                       "the most compressible data)"),
    NO("scramble_buffers", "scramble_buffers is not supported (every write's data is fresh)"),
    FIO("dedupe_percentage", wl_set_dedupe, "PCT", "share of 4 KiB write chunks that repeat "
        "an earlier one"),
    NO("unified_rw_reporting", "unified reporting is not supported (results are per direction "
                               "and total anyway)"),
    /* more of fio's keys that would change the measurement */
    NO("bs_unaligned", "block sizes that are not sector multiples: direct I/O refuses them"),
    ALIAS("blocksize_unaligned", "bs_unaligned"),
    NO("bs_is_seq_rand", "sizes by sequential and random I/O rather than by read and write "
                         "are not supported (bs=READ,WRITE is)"),
    NO("atomic", "atomic writes (RWF_ATOMIC) change what the device is asked to do"),
    NO("buffer_pattern", "a fixed data pattern changes what a compressing drive stores; "
                         "ptsbench's data is buffer_compress_percentage's"),
    FIO("dedupe_mode", wl_set_dedupe_mode, "repeat | working_set",
        "a repeat is the last unique chunk, or one of the working set"),
    FIO("dedupe_working_set_percentage", wl_set_dedupe_ws, "PCT",
        "working_set: the set's size, a share of the range (default 5)"),
    FLAG("dedupe_global", wl_set_dedupe_global, "working_set: one set shared by the run's jobs"),
    NO("experimental_verify", "data verification is not supported"),
    NO("verify_only", "data verification is not supported"),
    NO("verify_offset", "data verification is not supported"),
    NO("verify_interval", "data verification is not supported"),
    NO("verify_pattern", "data verification is not supported"),
    NO("verify_fatal", "data verification is not supported"),
    NO("verify_dump", "data verification is not supported"),
    NO("verify_async", "data verification is not supported"),
    NO("verify_async_cpus", "data verification is not supported"),
    NO("verify_backlog", "data verification is not supported"),
    NO("verify_backlog_batch", "data verification is not supported"),
    NO("verify_state_save", "data verification is not supported"),
    NO("verify_state_load", "data verification is not supported"),
    NO("trim_percentage", "verify's trims of written blocks: data verification is not "
                          "supported"),
    NO("trim_verify_zero", "verify's trims: data verification is not supported"),
    NO("trim_backlog", "verify's trims: data verification is not supported"),
    NO("trim_backlog_batch", "verify's trims: data verification is not supported"),
    NO("ignore_error", "continuing after errors is not supported: an error fails the round"),
    NO("max_latency", "fio would stop the job at the first I/O slower than this; ptsbench "
                      "records every latency"),
    NO("sync_file_range", "sync_file_range between writes is not supported (no syncs)"),
    NO("write_barrier", "barrier writes are not supported (no flushes)"),
    NO("write_hint", "write lifetime hints change where a drive with streams places data; "
                     "ptsbench gives none"),
    NO("ioscheduler", "switching the device's I/O scheduler changes what is measured: set it "
                      "in sysfs before the run"),
    FIO("prio", wl_set_prio, "0-7", "the I/O priority level of every I/O not raised by "
                                    "cmdprio* (0 highest; class best effort unless prioclass)"),
    FIO("prioclass", wl_set_prioclass, "0-3", "the I/O priority class of every I/O not raised "
                                              "(1 RT, 2 best effort, 3 idle; 0: best effort)"),
    FIO("cmdprio", wl_set_cmdprio, "0-7[,0-7]", "raised I/Os' priority level, reads[,writes] "
                                                "(default 0)"),
    FIO("cmdprio_class", wl_set_cmdprio_class, "1-3[,1-3]", "raised I/Os' priority class, "
                                                            "reads[,writes] (default 1: RT)"),
    FIO("cmdprio_percentage", wl_set_cmdprio_percentage, "PCT[,PCT]",
        "share of I/Os issued at cmdprio_class/cmdprio, reads[,writes] (io_uring, libaio)"),
    FIO("cmdprio_bssplit", wl_set_cmdprio_bssplit, "BS/PCT[/CLASS/LEVEL]:...[,...]",
        "share of each size's I/Os raised, and to what, reads[,writes] (io_uring, libaio)"),
    NO("hipri", "polled completions (IOPOLL) change the completion path and its latency; "
                "ptsbench's engines take interrupts"),
    NO("sqthread_poll", "a kernel thread polling the submission queue changes the submission "
                        "path and its CPU cost; ptsbench submits from the worker"),
    NO("sqthread_poll_cpu", "a kernel submission thread (sqthread_poll) is not supported"),
    NO("uncached", "RWF_UNCACHED buffered I/O is not supported"),
    NO("nowait", "RWF_NOWAIT I/O, failed and retried when it would block, is not supported"),
    NO("cmd_type", "io_uring_cmd's passthrough commands: fio's io_uring_cmd engine is not one "
                   "ptsbench runs"),
    NO("cgroup", "running in a cgroup of the job's own (I/O limits, weights) is not "
                 "supported"),
    NO("uid", "ptsbench runs as the user that starts it"),
    NO("gid", "ptsbench runs as the user that starts it"),
    NO("exec_prerun", "ptsbench runs no commands of a job file"),
    NO("exec_postrun", "ptsbench runs no commands of a job file"),
    NO("lockfile", "a lock around each I/O (jobs taking turns on a file) changes the pattern"),
    NO("create_only", "a job that only creates files measures nothing"),
    FIO("filesize", wl_set_filesize, "SIZE", "one file (nrfiles=1): the length of the active "
        "range, as size (a range LOW-HIGH refused)"),
    NO("file_append", "I/O past the end of the file (it grows) is not supported"),
    NO("offset_align", "a percent offset is aligned to the target's logical sector"),
    NO("serialize_overlap", "waiting for in-flight I/Os to the same blocks changes the depth: "
                            "not supported"),
    FIO("flow", wl_set_flow, "0..1000", "weight: the jobs of one flow_id keep their I/O "
        "counts in the ratio of their weights (per worker, as fio's per job)"),
    FIO("flow_id", wl_set_flow_id, "N", "the flow a job's weight counts in (default 0)"),
    FIO("flow_sleep", wl_set_flow_sleep, "US", "held back by its flow: every I/O in flight "
        "completes, then this wait (0: retry at once)"),
    NO("ignore_zone_limits", "zoned I/O modes are not supported"),
    NO("max_open_zones", "zoned I/O modes are not supported"),
    NO("job_max_open_zones", "zoned I/O modes are not supported"),
    NO("read_beyond_wp", "zoned I/O modes are not supported"),
    NO("zonecapacity", "zoned I/O modes are not supported"),
    NO("zone_reset_threshold", "zoned I/O modes are not supported"),
    NO("zone_reset_frequency", "zoned I/O modes are not supported"),
    NO("read_iolog_chunked", "replaying an iolog is ptsbench replay's"),
    NO("merge_blktrace_file", "replaying traces is ptsbench replay's"),
    NO("merge_blktrace_scalars", "replaying traces is ptsbench replay's"),
    NO("merge_blktrace_iters", "replaying traces is ptsbench replay's"),
    NO("replay_no_stall", "replaying an iolog is ptsbench replay's"),
    NO("replay_time_scale", "replaying an iolog is ptsbench replay's"),
    NO("replay_redirect", "replaying an iolog is ptsbench replay's"),
    NO("replay_align", "replaying an iolog is ptsbench replay's"),
    NO("replay_scale", "replaying an iolog is ptsbench replay's"),
    NO("replay_skip", "replaying an iolog is ptsbench replay's"),
    NO("profile", "fio's built-in profiles (tiobench, act) are not supported"),

    /* fio's rate and think-time keys not taken by the pacing rows above: refused */
    ALIAS("ratemin", "rate_min"),
    ALIAS("ratecycle", "rate_cycle"),
    NO("rate_ignore_thinktime", "rate limits with think times are not supported: it changes "
                                "when the I/Os are issued"),
    NO("thinktime_blocks_type", "think times per completed block are not supported: it "
                                "changes when the I/Os are issued"),
    /* helper "parse" reads wait_for for the job's group (io/jobset.c) */
    FLAG("wait_for", wl_set_ignored, "taken: the job's group (the jobs run in order)"),
};

#undef W
#undef P
#undef FIO
#undef FLAG
#undef ALIAS
#undef NO
#undef NOTE

static const struct key_table wl_table = KEY_TABLE(wl_rows);

const char *wl_key_at(size_t i)
{
    for (size_t k = 0, n = 0; k < wl_table.n; k++) {
        const struct key_row *r = keys_find(&wl_table, wl_rows[k].key);
        if (!r || r->type == KEY_REFUSED || r->type == KEY_NOTED)
            continue;
        if (n++ == i)
            return wl_rows[k].key;
    }
    return NULL;
}

void wl_keys_print(FILE *out, const char *group)
{
    keys_print_help(out, &wl_table, group);
}

/* "KEY: why" once per key (whichever name gave it); keys of the same why share one sentence:
 * "write_bw_log, log_avg_msec: fio would write its own log file; ...". */
static void wl_note_key(struct workload *wl, const char *key, const char *why)
{
    char *at = strstr(wl->note, why);
    if (!at || at - wl->note < 2 || at[-2] != ':') {
        wl_note(wl, "%s: %s", key, why);
        return;
    }
    char *start = at - 2;   /* the segment's keys: back to "; " or the note's start */
    while (start > wl->note && !(start[-1] == ' ' && start - wl->note >= 2 && start[-2] == ';'))
        start--;
    size_t klen = strlen(key);
    for (const char *k = start; k < at - 2; k += strcspn(k, ",:") + 2)
        if (!strncmp(k, key, klen) && (k[klen] == ',' || k[klen] == ':'))
            return;
    size_t n = strlen(wl->note);
    char *colon = at - 2;
    if (n + klen + 3 >= sizeof wl->note)
        return;
    memmove(colon + klen + 2, colon, n - (size_t)(colon - wl->note) + 1);
    memcpy(colon, ", ", 2);
    memcpy(colon + 2, key, klen);
}

/* ---- keys fio knows and ptsbench has no row for; unknown keys ----------------------- */

/* Engines ptsbench runs (fio's io_uring and libaio options have rows of their own). */
static bool wl_engine_run(const char *engines)
{
    char buf[160];
    str_copy(buf, sizeof buf, engines);
    char *save = NULL;
    for (char *e = strtok_r(buf, " ", &save); e; e = strtok_r(NULL, " ", &save))
        if (!strcmp(e, "io_uring") || !strcmp(e, "libaio"))
            return true;
    return false;
}

/* The nearest key within 2 edits (3 for long ones) among the rows and fio's options, or "". */
static void wl_suggest(const char *key, char *buf, size_t len)
{
    const size_t lk = strlen(key);
    unsigned best = lk <= 3 ? 1 : lk <= 10 ? 3 : 4;   /* strictly below this */
    buf[0] = '\0';
    for (size_t i = 0; i < wl_table.n + fio_opts_n; i++) {
        const char *name = i < wl_table.n ? wl_rows[i].key : fio_opts[i - wl_table.n].name;
        unsigned d = keys_edit_distance(key, name);
        if (d < best) {
            best = d;
            str_copy(buf, len, name);
        }
    }
}

static int wl_unknown(const char *key, const char *where, char *err, size_t errlen)
{
    const struct fio_opt *o = fio_opt_find(key);
    if (o && o->kind == FIO_OPT_ENGINE && !wl_engine_run(o->engines)) {
        char names[160] = "";   /* "net, netsplice or rdma" */
        const char *e = o->engines;
        while (*e) {
            size_t n = strcspn(e, " "), used = strlen(names);
            snprintf(names + used, sizeof names - used, "%s%.*s",
                     used ? (e[n] ? ", " : " or ") : "", (int)n, e);
            e += n + (e[n] == ' ');
        }
        return errf(err, errlen, "%s: %s: an option of fio's %s engine, which ptsbench does "
                                 "not run (it runs io_uring and libaio; sync kinds as "
                                 "iodepth=1)", where, key, names);
    }
    if (o)   /* a key of fio's without a row: tests/unit/test_keys_fio.c keeps this out */
        return errf(err, errlen, "%s: %s: fio's option, not taken by ptsbench", where, key);
    char near[64];
    wl_suggest(key, near, sizeof near);
    if (*near)
        return errf(err, errlen, "%s: unknown key '%s' (fio has no such option either): did "
                                 "you mean '%s'?", where, key, near);
    return errf(err, errlen, "%s: unknown key '%s' (fio has no such option either)", where,
                key);
}

const char *wl_key_class(const char *key)
{
    const struct key_row *r = keys_find(&wl_table, key);
    if (r)
        return r->type == KEY_REFUSED ? "refused" : r->type == KEY_NOTED ? "noted" : "honoured";
    const struct fio_opt *o = fio_opt_find(key);
    if (o && o->kind == FIO_OPT_ENGINE && !wl_engine_run(o->engines))
        return "refused";
    return NULL;
}

const struct key_row *wl_row_at(size_t i)
{
    return i < wl_table.n ? &wl_rows[i] : NULL;
}

const char *wl_key_row(const char *key)
{
    const struct key_row *r = keys_find(&wl_table, key);
    return r ? r->key : NULL;
}

/* ---- public: init, set, validate ---------------------------------------------------- */

void wl_init(struct workload *wl)
{
    memset(wl, 0, sizeof *wl);
    snprintf(wl->rw, sizeof wl->rw, "randread");
    wl->read_pct = 100;
    wl->random_pct = 100;
    wl->bs[0] = (struct wl_bs){.size = 4096, .weight = 100};
    wl->n_bs = 1;
    wl->qd = 1;
    wl->workers = 1;
    wl->region = WL_REGION_DEFAULT;
    wl->size = (struct wl_extent){.set = false, .is_percent = true, .percent = 100.0};
    wl->seed = WL_DEFAULT_SEED;
    wl->dist_center = -1;
    wl->prio.cls = wl->prio.level = -1;
    wl->prio.cmd_cls[0] = wl->prio.cmd_cls[1] = 1;   /* fio's: the highest class, RT */
}

int wl_set(struct workload *wl, const char *key, const char *value, const char *where,
           char *err, size_t errlen)
{
    if (!where)
        where = "inline";
    if (!value)
        value = "";
    if (!key || !*key)
        return errf(err, errlen, "%s: missing key before '=%s'", where, value);
    const struct key_row *r = keys_find(&wl_table, key);
    if (!r)
        return wl_unknown(key, where, err, errlen);
    /* a bare key in a job file ("time_based", "norandommap") is one of fio's flags */
    if (*value == '\0' && !r->bare && r->type != KEY_REFUSED)
        return errf(err, errlen, "%s: %s=: missing value", where, key);
    if (keys_set(&wl_table, wl, key, value, where, err, errlen) != 0)
        return -1;
    if (r->type == KEY_NOTED)
        wl_note_key(wl, r->key, r->help);
    if (!strcmp(r->key, "random_map") || !strcmp(r->key, "norandommap"))
        wl->random_map_set = true;   /* named: kept after a fast pass (core/run.c) */
    return 0;
}

static int wl_validate_mix(struct workload *wl, const char *src, char *err, size_t errlen)
{
    if (!wl->mix_set) {
        wl->read_pct = wl_rw_read_pct(wl->rw);
        return 0;
    }
    if (wl_rw_mixed(wl->rw))
        return 0;
    const char *only = wl_rw_read_pct(wl->rw) == 100 ? "only reads"
                       : wl->trimwrite ? "only trims, each followed by a write of its block"
                       : wl->trim ? "only trims" : "only writes";
    const char *want = wl_rw_random(wl->rw) ? "randrw" : "rw";
    return errf(err, errlen,
                "%s: a read/write mix (rwmixread=%u) contradicts rw=%s%s, which %s; "
                "use rw=%s for a mix",
                src, wl->read_pct, wl->rw, wl->rw_set ? "" : " (the default)", only, want);
}

/* Sizes per direction only where both directions are issued: one direction's sizes become
 * every I/O's (bs=4k,64k with rw=write is bs=64k). */
static void wl_validate_dirs(struct workload *wl)
{
    if (wl->trim) {   /* fio: a trim job issues no reads; bs[] are the trims' sizes */
        wl->read_pct = 0;
        if (wl->n_bs_trim) {
            wl_dir_store(wl, 0, wl->bs_trim, wl->n_bs_trim, wl->bsrange_hi_trim);
            wl->n_bs_write = 0;
            wl->bsrange_hi[1] = 0;
            wl->n_bs_trim = 0;
        }
    }
    if (!wl->n_bs_write || (wl->read_pct > 0 && wl->read_pct < 100))
        return;
    if (wl->read_pct == 0)
        wl_dir_store(wl, 0, wl->bs_write, wl->n_bs_write, wl->bsrange_hi[1]);
    wl->n_bs_write = 0;
    wl->bsrange_hi[1] = 0;
}

static int wl_validate_bs(const struct workload *wl, const char *src, char *err, size_t errlen)
{
    if (wl->n_bs == 0 || wl->n_bs > WL_MAX_BS)
        return errf(err, errlen, "%s: %u block sizes, want 1..%d", src, wl->n_bs, WL_MAX_BS);
    unsigned sum = 0;
    for (unsigned i = 0; i < wl->n_bs; i++) {
        if (wl->bs[i].size == 0 || wl->bs[i].size > WL_MAX_BS_BYTES)
            return errf(err, errlen, "%s: block size %u out of range 1..%u", src,
                        wl->bs[i].size, WL_MAX_BS_BYTES);
        sum += wl->bs[i].weight;
    }
    if (sum != 100)
        return errf(err, errlen, "%s: bssplit weights sum to %u, want 100", src, sum);
    unsigned wsum = 0;
    for (unsigned i = 0; i < wl->n_bs_write && i < WL_MAX_BS; i++)
        wsum += wl->bs_write[i].weight;
    if (wl->n_bs_write > WL_MAX_BS || (wl->n_bs_write && wsum != 100))
        return errf(err, errlen, "%s: the writes' bssplit weights sum to %u, want 100", src, wsum);
    return 0;
}

static int wl_validate_ranges(const struct workload *wl, const char *src, char *err,
                              size_t errlen)
{
    if (wl->qd < 1 || wl->qd > WL_MAX_QD)
        return errf(err, errlen, "%s: iodepth=%u out of range 1..%u", src, wl->qd, WL_MAX_QD);
    if (wl->workers < 1 || wl->workers > WL_MAX_WORKERS)
        return errf(err, errlen, "%s: numjobs=%u out of range 1..%u", src, wl->workers,
                    WL_MAX_WORKERS);
    if (wl->read_pct > 100 || wl->random_pct > 100 || wl->compress_pct > 100)
        return errf(err, errlen, "%s: a percentage is above 100", src);
    if (wl->offset.set && wl->offset.is_percent && wl->size.set && wl->size.is_percent &&
        wl->offset.percent + wl->size.percent > 100.0)
        return errf(err, errlen, "%s: offset=%g%% + size=%g%% is more than 100%% of the target",
                    src, wl->offset.percent, wl->size.percent);
    return 0;
}

/* The offset modifier and strided zones after all keys (fio's fixup_options): zonesize alone
 * means strided, zonerange defaults to zonesize; a random strided job draws without a map. */
static int wl_validate_offsets(struct workload *wl, const char *src, char *err, size_t errlen)
{
    if (wl->seq_add && wl->random_pct > 0)
        return errf(err, errlen, "%s: rw=%s's offset modifier with percentage_random: fio "
                                 "keeps a sequential job sequential (percentage_random acts on "
                                 "random jobs only), and reads a random rw's ':N' as a count of "
                                 "I/Os; give one or the other", src, wl->rw);
    if (wl->zonemode == WL_ZONEMODE_UNSET && wl->zone_size)
        wl->zonemode = WL_ZONEMODE_STRIDED;
    if (wl->zonemode != WL_ZONEMODE_STRIDED) {   /* fio: the zone keys are ignored */
        wl->zone_size = wl->zone_range = wl->zone_skip = 0;
        return 0;
    }
    if (!wl->zone_size)
        return errf(err, errlen, "%s: zonemode=strided needs zonesize", src);
    if (!wl->zone_range)
        wl->zone_range = wl->zone_size;
    if (wl->zone_range < wl_max_bs(wl))
        return errf(err, errlen, "%s: zonerange=%llu is below the largest block size %u", src,
                    (unsigned long long)wl->zone_range, wl_max_bs(wl));
    if (wl->random_pct && (wl->n_zones || wl->dist != WL_DIST_UNIFORM))
        return errf(err, errlen, "%s: zonemode=strided with a random_distribution other than "
                                 "random is not supported: fio spreads it over each zone", src);
    if (wl->random_pct && wl->random_map != WL_RANDOM_MAP_OFF) {
        wl->random_map = WL_RANDOM_MAP_OFF;
        wl_note_add(wl, "zonemode=strided: random offsets in each zone drawn independently "
                        "(fio keeps a random map per zone)");
    }
    return 0;
}

/* fio's filesize (one file): the job's range, as size, said in a note (once: unset after). */
static int wl_validate_filesize(struct workload *wl, const char *src, char *err, size_t errlen)
{
    if (!wl->filesize.set)
        return 0;
    if (wl->size.set)
        return errf(err, errlen, "%s: filesize with size: fio would take size as io_size then; "
                                 "give io_size (round_bytes) instead of size", src);
    char t[96];
    snprintf(t, sizeof t, "filesize=%llu: one file of %llu bytes: the job's range",
             (unsigned long long)wl->filesize.bytes, (unsigned long long)wl->filesize.bytes);
    wl->size = wl->filesize;
    wl->filesize = (struct wl_extent){0};
    wl_note_add(wl, t);
    return 0;
}

/* fio's pacing and flow keys after all keys: loops folded into the round's bounds (once:
 * loops is 1 after), thinktime at depth said, the notes the results keep. */
static int wl_validate_flow(struct workload *wl, const char *src, char *err, size_t errlen)
{
    if (wl->thinktime_ns && wl->qd > 1 && wl->thinktime_blocks <= 1)
        return errf(err, errlen, "%s: thinktime with iodepth=%u: fio (thinktime_blocks=1) "
                                 "waits for every I/O in flight before each think, so its depth "
                                 "is 1 whatever iodepth says; give iodepth=1, or "
                                 "thinktime_blocks=N for bursts of N", src, wl->qd);
    if (wl->thinktime_spin_ns > wl->thinktime_ns)
        return errf(err, errlen, "%s: thinktime_spin above thinktime", src);
    if (wl->fill_device && !wl_writes(wl))
        return errf(err, errlen, "%s: fill_device without writes: fio would fill a file system "
                                 "first, then read; a device is full already", src);
    if (wl->loops > 1) {
        char t[160];
        snprintf(t, sizeof t, "loops=%u: round_bytes and number_ios multiplied (a timed round "
                 "repeats by --rounds, as fio's time_based)", wl->loops);
        wl->round_bytes *= wl->loops;
        wl->number_ios *= wl->loops;
        wl->loops = 1;
        wl_note_add(wl, t);
    }
    if (wl->startdelay_ns)
        wl_note_add(wl, "startdelay: every round, each worker starts that long into it (fio: "
                        "once); its figures over its own time");
    if (wl->rate_poisson && !wl->rate_bps[0] && !wl->rate_bps[1] && !wl->rate_bps[2] &&
        !wl->rate_iops_dir[0] && !wl->rate_iops_dir[1] && !wl->rate_iops_dir[2])
        return errf(err, errlen, "%s: rate_process=poisson without rate or rate_iops", src);
    const bool one_rate = wl->rate_iops || (wl->rate_bps[0] && wl->rate_bps[0] == wl->rate_bps[1]);
    if (one_rate && wl->read_pct > 0 && wl->read_pct < 100)
        wl_note_add(wl, "rate, rate_iops: per direction, as fio: reads and writes each at it");
    return 0;
}

/* Keys whose meaning at depth is fio's and not what the loop would do: refused. */
static int wl_validate_pacing(const struct workload *wl, const char *src, char *err,
                              size_t errlen)
{
    if (wl->batch_complete_max && wl->batch_complete_max < wl->qd)
        return errf(err, errlen, "%s: iodepth_batch_complete_max=%u below iodepth=%u: the I/O "
                                 "loop takes every completion there (as fio with the maximum at "
                                 "iodepth); a lower maximum is not done", src,
                    wl->batch_complete_max, wl->qd);
    if (wl->iodepth_low && wl->iodepth_low < wl->qd && !wl->sync_engine)
        return errf(err, errlen, "%s: iodepth_low=%u below iodepth=%u: fio would let the queue "
                                 "drain to %u before refilling it; ptsbench refills at once (give "
                                 "iodepth_low=iodepth or none)", src, wl->iodepth_low, wl->qd,
                    wl->iodepth_low);
    if (wl->batch_complete_min > wl->qd)
        return errf(err, errlen, "%s: iodepth_batch_complete_min=%u above iodepth=%u", src,
                    wl->batch_complete_min, wl->qd);
    return 0;
}

/* fio's steady-state and latency-target keys that fio itself would leave without effect. */
static void wl_validate_ss(struct workload *wl)
{
    if (wl->ss.metric != WL_SS_NONE && !wl->ss.dur_ns)
        wl_note_add(wl, "ss without ss_dur: fio does no steady-state detection then (ss_dur=0), "
                        "nor does ptsbench take anything from it");
    if (wl->ss.dur_ns && wl->ss.metric == WL_SS_NONE) {
        wl->ss.metric = WL_SS_IOPS;   /* fio's default criterion: iops_slope:0.01% */
        wl->ss.slope = wl->ss.pct = true;
        wl->ss.limit = 0.01;
    }
    if (!wl->lat.target_ns && (wl->lat.window_ns || wl->lat.percentile || wl->lat.run))
        wl_note_add(wl, "latency_window, latency_percentile or latency_run without "
                        "latency_target: no depth search (fio does none either)");
}

/* fio's I/O priorities: cmdprio_percentage and cmdprio_bssplit exclude each other (fio);
 * a direction the workload does not issue is dropped (fio sets only those it does); entries
 * without a class and level take cmdprio_class and cmdprio. */
static int wl_validate_prio(struct workload *wl, const char *src, char *err, size_t errlen)
{
    struct wl_prio *p = &wl->prio;
    if ((p->pct[0] || p->pct[1]) && (p->n_split[0] || p->n_split[1]))
        return errf(err, errlen, "%s: cmdprio_percentage and cmdprio_bssplit exclude each "
                                 "other (as in fio)", src);
    for (unsigned d = 0; d < 2; d++) {
        if (d ? wl->read_pct >= 100 : wl->read_pct == 0) {
            p->pct[d] = 0;
            p->n_split[d] = 0;
        }
        for (unsigned i = 0; i < p->n_split[d]; i++)   /* fio's implicit cmdprio, resolved */
            if (p->split[d][i].cls < 0) {
                p->split[d][i].cls = (int)p->cmd_cls[d];
                p->split[d][i].level = (int)p->cmd_level[d];
            }
    }
    return 0;
}

/* Trims (rw=trim, randtrim, trimwrite, randtrimwrite): what fio does differently. verify
 * (trimwrite + verify) and zonemode=zbd (a zoned drive's trims reset zones) are refused by
 * their own rows, rwmixread as with rw=read (wl_validate_mix), a host-managed zoned target
 * as for writes (run_check_safety). */
static void wl_validate_trim(struct workload *wl)
{
    if (!wl->trim)
        return;
    if (wl->buffered)
        wl_note(wl, "direct=0: trims go to the device as fio's (a discard or a punched "
                        "hole), not through the page cache; %s",
                    wl->trimwrite ? "the writes are buffered" : "nothing is buffered");
}

int wl_validate(struct workload *wl, char *err, size_t errlen)
{
    const char *src = wl->source[0] ? wl->source : "workload";
    if (!wl_rw_known(wl->rw))
        return errf(err, errlen, "%s: unknown rw mode '%s'", src, wl->rw);
    if (wl_validate_mix(wl, src, err, errlen) < 0)
        return -1;
    wl_validate_trim(wl);
    wl_validate_dirs(wl);
    if (wl_validate_bs(wl, src, err, errlen) < 0 ||
        wl_validate_filesize(wl, src, err, errlen) < 0 ||
        wl_validate_ranges(wl, src, err, errlen) < 0)
        return -1;
    if (!wl->random_set)
        wl->random_pct = wl_rw_random(wl->rw) ? 100 : 0;
    wl->region = wl_effective_region(wl);
    if (wl->sync_engine)
        wl->qd = 1;   /* fio ignores iodepth for a synchronous engine */
    if (wl_validate_pacing(wl, src, err, errlen) < 0 ||
        wl_validate_flow(wl, src, err, errlen) < 0 ||
        wl_validate_offsets(wl, src, err, errlen) < 0)
        return -1;
    if (wl->dist != WL_DIST_UNIFORM && wl->random_map != WL_RANDOM_MAP_OFF)
        wl->random_map = WL_RANDOM_MAP_OFF;   /* as fio: a skewed distribution has no map */
    wl_validate_ss(wl);
    return wl_validate_prio(wl, src, err, errlen);
}

/* ---- inline specs and files --------------------------------------------------------- */

/* Keys whose value fio gives per direction (READ,WRITE[,TRIM]). */
static bool wl_dir_key(const char *key, size_t len)
{
    static const char *const keys[] = {"bs", "blocksize", "bssplit", "bsrange",
                                       "blocksize_range", "blockalign", "ba",
                                       "percentage_random", "cmdprio_percentage",
                                       "cmdprio_class", "cmdprio", "cmdprio_bssplit", NULL};
    while (len && key[len - 1] == ' ')
        len--;
    for (const char *const *k = keys; *k; k++)
        if (strlen(*k) == len && !strncmp(*k, key, len))
            return true;
    return false;
}

int wl_parse_inline(const char *spec, struct workload *wl, char *err, size_t errlen)
{
    wl_init(wl);
    snprintf(wl->source, sizeof wl->source, "inline");
    char *copy = xstrdup(spec);
    char *p = copy;
    int rc = 0;
    if (*str_trim(copy) == '\0')
        rc = errf(err, errlen, "inline: empty workload spec");
    while (p && rc == 0) {
        char *comma = strchr(p, ',');
        const char *eq0 = strchr(p, '=');
        /* fio's READ,WRITE values (bs=4k,64k): the next items without '=' are this key's */
        if (eq0 && (!comma || eq0 < comma) && wl_dir_key(p, (size_t)(eq0 - p)))
            while (comma) {
                char *next = comma + 1;
                size_t n = strcspn(next, ",");
                if (memchr(next, '=', n))
                    break;
                comma = next[n] ? next + n : NULL;
            }
        if (comma)
            *comma = '\0';
        char *item = str_trim(p);
        p = comma ? comma + 1 : NULL;
        char *eq = strchr(item, '=');
        if (*item == '\0')
            rc = errf(err, errlen, "inline: empty item in '%s'", spec);
        else if (!eq)
            rc = errf(err, errlen, "inline: '%s' is not key=value (missing '=')", item);
        else {
            *eq = '\0';
            rc = wl_set(wl, str_trim(item), str_trim(eq + 1), "inline", err, errlen);
        }
    }
    free(copy);
    if (rc < 0)
        return -1;
    if (!wl->name[0])
        snprintf(wl->name, sizeof wl->name, "inline");
    return wl_validate(wl, err, errlen);
}

static int wl_apply_section(struct workload *wl, const struct ini_file *f,
                            const struct ini_section *s, char *err, size_t errlen)
{
    size_t wlen = strlen(f->path) + 24;
    char *where = xcalloc(1, wlen);
    int rc = 0;
    for (size_t i = 0; i < s->n_entries && rc == 0; i++) {
        snprintf(where, wlen, "%s:%d", f->path, s->entries[i].line);
        rc = wl_set(wl, s->entries[i].key, s->entries[i].value, where, err, errlen);
    }
    free(where);
    return rc;
}

/* "a, b, c": the section names of f, for "no such section" messages. */
static void wl_list_sections(const struct ini_file *f, char *buf, size_t len)
{
    size_t pos = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < f->n_sections && pos < len; i++) {
        int n = snprintf(buf + pos, len - pos, "%s%s", i ? ", " : "", f->sections[i].name);
        if (n < 0)
            break;
        pos += (size_t)n;
    }
    if (f->n_sections == 0)
        snprintf(buf, len, "none");
}

static const struct ini_section *wl_pick_section(const struct ini_file *f, const char *section,
                                                 char *err, size_t errlen)
{
    if (section) {
        const struct ini_section *s = ini_find_section(f, section);
        if (!s) {
            char names[256];
            wl_list_sections(f, names, sizeof names);
            errf(err, errlen, "%s: no section [%s] (sections: %s)", f->path, section, names);
        }
        return s;
    }
    for (size_t i = 0; i < f->n_sections; i++)
        if (strcmp(f->sections[i].name, "global") != 0)
            return &f->sections[i];
    const struct ini_section *g = ini_find_section(f, "global");
    if (!g)
        errf(err, errlen, "%s: no workload in the file (no sections, no keys)", f->path);
    return g;
}

/* File name without directories and ".ini", for global-only profiles. */
static void wl_basename(const char *path, char *buf, size_t len)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t n = strlen(base);
    if (n > 4 && strcmp(base + n - 4, ".ini") == 0)
        n -= 4;
    snprintf(buf, len, "%.*s", (int)n, base);
}

static int wl_apply_file(struct workload *wl, const struct ini_file *f, const char *section,
                         char *err, size_t errlen)
{
    const struct ini_section *s = wl_pick_section(f, section, err, errlen);
    if (!s)
        return -1;
    const struct ini_section *g = ini_find_section(f, "global");
    bool global_only = strcmp(s->name, "global") == 0;
    if (!s->n_entries && (!g || !g->n_entries))   /* all defaults: a mistake, not a workload */
        return errf(err, errlen, "%s:%d: [%s] sets no key (and there are no [global] keys)",
                    f->path, s->line, s->name);
    if (g && !global_only && wl_apply_section(wl, f, g, err, errlen) < 0)
        return -1;
    if (wl_apply_section(wl, f, s, err, errlen) < 0)
        return -1;
    if (global_only && !section)
        snprintf(wl->source, sizeof wl->source, "%s", f->path);
    else
        snprintf(wl->source, sizeof wl->source, "%s:%s", f->path, s->name);
    if (!wl->name[0]) {
        if (global_only && !section)
            wl_basename(f->path, wl->name, sizeof wl->name);
        else
            snprintf(wl->name, sizeof wl->name, "%s", s->name);
    }
    return wl_validate(wl, err, errlen);
}

int wl_load_ini(const struct ini_file *f, const char *section, struct workload *wl, char *err,
                size_t errlen)
{
    wl_init(wl);
    return wl_apply_file(wl, f, section, err, errlen);
}

int wl_load_file(const char *path, const char *section, struct workload *wl,
                 char *err, size_t errlen)
{
    wl_init(wl);
    struct ini_file f;
    if (ini_parse_file(path, &f, err, errlen) < 0)
        return -1;
    int rc = wl_apply_file(wl, &f, section, err, errlen);
    ini_free(&f);
    return rc;
}

/* ---- a fio job file (wl_load_fio): fio's defaults, the [global]s before it, its own lines ------ */

void wl_verdict_add(struct wl_verdicts *out, const char *key, const char *value,
                       const char *where, const char *section, enum wl_take take,
                       const char *why)
{
    for (unsigned i = 0; i < out->n; i++)   /* a [global] line: said once */
        if (!strcmp(out->v[i].where, where) && !strcmp(out->v[i].key, key))
            return;
    out->v = xrealloc(out->v, (out->n + 1) * sizeof(*out->v));
    struct wl_verdict *v = &out->v[out->n++];
    memset(v, 0, sizeof(*v));
    snprintf(v->key, sizeof(v->key), "%s", key);
    snprintf(v->value, sizeof(v->value), "%s", value ? value : "");
    snprintf(v->where, sizeof(v->where), "%s", where);
    snprintf(v->section, sizeof(v->section), "%s", section);
    v->take = take;
    size_t wl = strlen(where);   /* "WHERE: key: why": the where is said apart */
    if (why && !strncmp(why, where, wl) && why[wl] == ':')
        why += wl + 2;
    snprintf(v->why, sizeof(v->why), "%s", why ? why : "");
    if (take == WL_TAKE_REFUSED)
        out->refused++;
}

/* What fio's substitutions made of l ("$ncpus = 2 here", "${X} is unset: ...", "key=raw read
 * as value"): each sentence into wl's note once (when add), all of them "; "-joined into buf
 * ("" when nothing). */
static void wlf_read_as(struct workload *wl, bool add, const struct fio_line *l, char *buf,
                        size_t len)
{
    static const char *const words[] = {"$pagesize", "$mb_memory", "$ncpus"};
    char part[5][320];
    unsigned np = 0;
    for (unsigned k = 0; k < 3; k++)
        if (l->keywords & (1u << k))
            snprintf(part[np++], sizeof(part[0]), "%s = %llu here", words[k],
                     fio_keyword_value(1u << k));
    if (l->unset_env[0])
        snprintf(part[np++], sizeof(part[0]), "${%s} is unset: empty, as fio reads it",
                 l->unset_env);
    if (l->computed || np)
        snprintf(part[np++], sizeof(part[0]), "%s=%s read as %s", l->key, l->raw, l->value);
    size_t n = 0;
    buf[0] = '\0';
    for (unsigned i = 0; i < np && n < len; i++) {
        n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? "; " : "", part[i]);
        if (add)
            wl_note_add(wl, part[i]);
    }
}

/* One line into wl (and its verdict into out when given). */
static int wlf_apply_line(struct workload *wl, const struct fio_line *l, const char *section,
                          struct wl_verdicts *out, char *err, size_t errlen)
{
    char where[320], read_as[700], why[1400];
    snprintf(where, sizeof(where), "%s:%d", l->file, l->line);
    size_t before = strlen(wl->note);
    /* wait_for orders jobs: the job set takes it (io/jobset.c), not the workload */
    int rc = strcmp(l->key, "wait_for") ? wl_set(wl, l->key, l->value ? l->value : "", where,
                                                 err, errlen)
                                        : 0;
    /* the setter's own note (a noted key), before the substitutions' sentences */
    const char *note = wl->note + before;
    while (*note == ';' || *note == ' ')
        note++;
    snprintf(why, sizeof(why), "%s", rc ? err : note);
    enum wl_take take = rc ? WL_TAKE_REFUSED : *note ? WL_TAKE_NOTED : WL_TAKE_HONOURED;
    wlf_read_as(wl, rc == 0, l, read_as, sizeof(read_as));
    if (read_as[0] && why[0])
        snprintf(why + strlen(why), sizeof(why) - strlen(why), " (%s)", read_as);
    else if (read_as[0])
        snprintf(why, sizeof(why), "%s", read_as);
    if (out)
        wl_verdict_add(out, l->key, l->raw, where, section, take, why);
    return rc;
}

/* A refusal of the job as a whole (no direct=1, inconsistent keys): into out, or the error. */
static int wlf_job_refused(struct wl_verdicts *out, const struct fio_section *s, const char *why)
{
    if (out) {
        char where[320];
        snprintf(where, sizeof(where), "%s:%d", s->file, s->line);
        wl_verdict_add(out, "(job)", "", where, s->name, WL_TAKE_REFUSED, why);
    }
    return -1;
}

/* fio's directory (HOWTO "directory", "filename"): a relative filename lies in it; without a
 * filename fio makes the job a file of its own there (jobname.jobnum.filenum, one per clone of
 * numjobs), which io/jobset.c lays out as an extent of the one target per job. */
static void wlf_directory(struct workload *wl)
{
    if (!wl->directory[0])
        return;
    if (wl->filename[0] && wl->filename[0] != '/') {
        char path[sizeof(wl->filename)];
        int n = snprintf(path, sizeof(path), "%s/%s", wl->directory, wl->filename);
        if (n > 0 && (size_t)n < sizeof(path))
            memcpy(wl->filename, path, sizeof(path));
    } else if (!wl->filename[0]) {
        wl->own_file = true;
        wl_note_add(wl, "directory without filename: fio would give each job (and each of its "
                        "numjobs) a file of its own; ptsbench gives each its own extent of the "
                        "one target, laid out one after another");
    }
}

/* fio's defaults where ptsbench's differ (wl_load_fio's contract in workload.h). */
static void wlf_fio_defaults(struct workload *wl)
{
    wl_init(wl);
    wl->fio = true;
    wl->kb_base = 1024;   /* fio's default, compatibility mode: 4KB = 4096 */
    /* fio's random map starts a new permutation each pass over the range, and every job of
     * numjobs covers the whole range (fio splits only with offset_increment) */
    wl->random_map = WL_RANDOM_MAP_ALWAYS;
    wl->region = WL_REGION_SHARED;
    snprintf(wl->rw, sizeof wl->rw, "read");   /* fio's default rw: sequential reads */
    /* fio submits each I/O as soon as it is ready (iodepth_batch_submit=1, fio's HOWTO
     * "iodepth_batch_submit"): no batch the block layer could merge under one plug (measured on
     * fio-seq-read.fio, scripts/blockeq.py: ptsbench's batches of 256 KiB reads became 1280 KiB
     * requests at a quarter of fio's depth in requests) */
    wl->batch_submit = 1;
}

/* The lines job idx takes, in fio's order: the [global] sections before it, then its own
 * (kb_base first: it decides how every size reads, as fio's option priority does). */
static int wlf_apply_all(const struct fio_doc *d, size_t idx, struct workload *wl,
                        struct wl_verdicts *out, char *err, size_t errlen)
{
    const struct fio_line *kb = fio_job_find(d, idx, "kb_base");
    char where[320];
    int rc = 0;
    if (kb) {
        snprintf(where, sizeof(where), "%s:%d", kb->file, kb->line);
        if (wl_set(wl, "kb_base", kb->value ? kb->value : "", where, err, errlen) != 0 && !out)
            return -1;
    }
    /* the engine next: a job of an engine ptsbench does not run is refused for its engine,
     * not for the first of that engine's own keys (a verdict list shows every line anyway) */
    const struct fio_line *eng = out ? NULL : fio_job_find(d, idx, "ioengine");
    if (eng) {
        snprintf(where, sizeof(where), "%s:%d", eng->file, eng->line);
        if (wl_set(wl, "ioengine", eng->value ? eng->value : "", where, err, errlen) != 0)
            return -1;
    }
    for (size_t i = 0; i <= idx; i++) {
        const struct fio_section *s = &d->sections[i];
        if (i < idx && !s->global)
            continue;
        for (size_t k = 0; k < s->n; k++)
            if (wlf_apply_line(wl, &s->lines[k], s->name, out, err, errlen) != 0) {
                rc = -1;
                if (!out)
                    return -1;
            }
    }
    return rc;
}

/* Job idx of d into wl, as wl_load_fio promises (workload.h); see jobset.h. */
int wl_fio_job(const struct fio_doc *d, size_t idx, struct workload *wl,
                      struct wl_verdicts *out, char *err, size_t errlen)
{
    const struct fio_section *s = &d->sections[idx];
    wlf_fio_defaults(wl);
    int rc = wlf_apply_all(d, idx, wl, out, err, errlen);
    snprintf(wl->source, sizeof wl->source, "%s:%s", d->path, s->name);
    if (!wl->name[0])
        snprintf(wl->name, sizeof wl->name, "%s", s->name);
    if (rc != 0)
        return -1;
    if (!wl->direct_set)   /* fio's default: buffered, through the page cache */
        wl->buffered = true;
    wlf_directory(wl);
    if (!fio_job_find(d, idx, "ioengine")) {
        /* fio's default engine is psync: one I/O at a time per job, whatever iodepth says */
        wl->sync_engine = true;
        wl_note_add(wl, "no ioengine: fio's default psync issues one I/O at a time per job, "
                        "run as iodepth=1 on the command's engine");
    }
    if (!wl->time_based && wl->round_time_ns && !wl->round_bytes)
        wl_note_add(wl, "runtime without time_based: fio would also stop after size bytes; "
                        "ptsbench's round lasts the runtime");
    if (wl_validate(wl, err, errlen) != 0)
        return wlf_job_refused(out, s, err);
    /* fio's random map with several block sizes cuts an I/O short where the map is partly
     * used (fio 3.33, io_u.c mark_random_map: measured, a 64 MiB webserver job issued 4.3 KiB
     * I/Os, not its split's 15.7 KiB): ptsbench issues the sizes declared, as fio with
     * norandommap; said unless the file says norandommap itself */
    if (wl->n_bs > 1 && wl->random_pct > 0 && wl->random_map != WL_RANDOM_MAP_OFF) {
        wl->random_map = WL_RANDOM_MAP_OFF;
        wl_note_add(wl, "bssplit with fio's random map: fio would cut I/Os short as its map "
                        "fills; ptsbench issues the declared sizes, as fio with norandommap");
    }
    return 0;
}


int wl_load_fio(const char *path, const char *section, struct workload *wl, char *err,
                size_t errlen)
{
    /* read as fio reads it (io/fio_parse.h); the jobs of several: io/jobset.c */
    struct fio_doc d;
    wl_init(wl);
    if (fio_doc_load(path, &d, err, errlen) != 0)
        return -1;
    long idx = section ? fio_doc_job(&d, section, err, errlen) : -1;
    unsigned jobs = 0, groups = 0;
    for (size_t i = 0; !section && i < d.n; i++)
        if (!d.sections[i].global) {
            groups += !jobs || fio_job_starts_group(&d, i);
            if (!jobs++)
                idx = (long)i;
        }
    int rc = -1;
    char names[256];
    fio_doc_sections(&d, names, sizeof(names));
    if (!section && jobs > 1 && groups == 1)
        errf(err, errlen, "%s: %u jobs (sections %s): fio runs them at once, ptsbench runs "
             "one workload: name it as %s:SECTION", path, jobs, names, path);
    else if (!section && jobs > 1)
        errf(err, errlen, "%s: %u jobs (sections %s): fio runs them in %u groups one after "
             "another, ptsbench runs one workload: name it as %s:SECTION", path, jobs, names,
             groups, path);
    else if (!section && !jobs)
        errf(err, errlen, "%s: no job section (fio needs one besides [global])", path);
    else if (idx >= 0)
        rc = wl_fio_job(&d, (size_t)idx, wl, NULL, err, errlen);
    fio_doc_free(&d);
    return rc;
}

/* A fio job file: by its name. */
static bool wl_is_fio(const char *path)
{
    const size_t n = strlen(path);
    return n > 4 && !strcmp(path + n - 4, ".fio");
}

static bool wl_is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* Load NAME (".ini" added unless present) from dir, with an optional section.
 * Returns 1 when the file does not exist there, else the load result. */
static int wl_try_dir(const char *dir, const char *name, const char *section,
                      struct workload *wl, char *err, size_t errlen)
{
    size_t n = strlen(name);
    const char *ext = (n > 4 && strcmp(name + n - 4, ".ini") == 0) ? "" : ".ini";
    size_t len = strlen(dir) + n + 8;
    char *path = xcalloc(1, len);
    snprintf(path, len, "%s/%s%s", dir, name, ext);
    int rc = 1;
    if (wl_is_file(path))
        rc = wl_load_file(path, section, wl, err, errlen);
    free(path);
    return rc;
}

static int wl_not_found(const char *spec, const char *const *dirs, char *err, size_t errlen)
{
    char list[1024] = "";
    size_t pos = 0;
    for (size_t i = 0; dirs && dirs[i] && pos < sizeof list; i++) {
        int n = snprintf(list + pos, sizeof list - pos, "%s%s", i ? ", " : "", dirs[i]);
        if (n < 0)
            break;
        pos += (size_t)n;
    }
    if (pos == 0)
        return errf(err, errlen, "workload '%s' not found: no such file, and no profile "
                                 "directories to search", spec);
    return errf(err, errlen, "workload '%s' not found: no such file, and no profile of that "
                             "name in %s", spec, list);
}

int wl_resolve(const char *spec, const char *const *profile_dirs, struct workload *wl,
               char *err, size_t errlen)
{
    if (!spec || !*spec) {
        wl_init(wl);
        return errf(err, errlen, "empty workload spec");
    }
    if (strchr(spec, '='))
        return wl_parse_inline(spec, wl, err, errlen);
    if (wl_is_file(spec))
        return wl_is_fio(spec) ? wl_load_fio(spec, NULL, wl, err, errlen)
                               : wl_load_file(spec, NULL, wl, err, errlen);
    /* "file:section" or "name:section" */
    char *base = xstrdup(spec);
    char *colon = strrchr(base, ':');
    const char *section = NULL;
    if (colon && colon != base && colon[1]) {
        *colon = '\0';
        section = colon + 1;
    }
    int rc = 1;
    if (section && wl_is_file(base))
        rc = wl_is_fio(base) ? wl_load_fio(base, section, wl, err, errlen)
                             : wl_load_file(base, section, wl, err, errlen);
    for (size_t i = 0; rc == 1 && profile_dirs && profile_dirs[i]; i++) {
        rc = wl_try_dir(profile_dirs[i], spec, NULL, wl, err, errlen);
        if (rc == 1 && section)
            rc = wl_try_dir(profile_dirs[i], base, section, wl, err, errlen);
    }
    free(base);
    if (rc == 1) {
        wl_init(wl);
        return wl_not_found(spec, profile_dirs, err, errlen);
    }
    return rc;
}

/* ---- target check ------------------------------------------------------------------- */

static uint64_t wl_round_down(uint64_t v, uint32_t unit)
{
    return v - v % unit;
}

/* Resolve an extent to bytes: percents against capacity (rounded down to the sector),
 * byte counts must be sector multiples. */
/* An extent in the target's address space: a percentage of the capacity, or bytes given for
 * the full-size drive divided by scale (a simulated drive scaled down k times: scale k; else 1)
 * and kept a whole number of sectors. */
static int wl_extent_bytes(const struct wl_extent *e, const char *key, uint64_t capacity,
                           uint32_t sector, uint64_t scale, const char *target, uint64_t *out,
                           char *err, size_t errlen)
{
    if (e->is_percent) {
        long double b = (long double)capacity * (long double)e->percent / 100.0L;
        uint64_t bytes = b >= (long double)capacity ? capacity : (uint64_t)b;
        *out = wl_round_down(bytes, sector);
        return 0;
    }
    if (e->bytes % sector != 0)
        return errf(err, errlen, "%s=%llu is not a multiple of the %u-byte logical sector "
                                 "size of %s", key, (unsigned long long)e->bytes, sector,
                    target);
    *out = scale > 1 ? wl_round_down(e->bytes / scale, sector) : e->bytes;
    return 0;
}

/* A size the job names in bytes, scaled down (len), raised to the room the job needs: one
 * block of its largest size (one per worker when the range is split). Scaled, because the
 * simulated drive stands for the full-size one and the job's range is a share of that drive
 * (unscaled, every byte range would address `scale` times more of the drive than the job
 * names); but never below one block, since a range that holds no block cannot be run at all
 * and a block is the least a job file's range can mean. The raised range stands for more of
 * the full-size drive than the job named, by less than one block per worker of the scaled
 * drive; the caller notes it (wl_note_raised). Returns len unchanged otherwise. */
static uint64_t wl_scaled_room(const struct workload *wl, uint64_t len, uint64_t scale)
{
    if (scale <= 1 || !wl->size.set || wl->size.is_percent || !wl->size.bytes)
        return len;
    const bool split = wl_effective_region(wl) == WL_REGION_SPLIT && wl->workers > 1;
    const uint64_t room = (uint64_t)wl_max_bs(wl) * (split ? wl->workers : 1);
    return len < room ? room : len;
}

static int wl_check_sizes(const struct workload *wl, uint32_t sector, const char *target,
                          char *err, size_t errlen)
{
    const uint32_t more[] = {wl->bsrange_hi[0], wl->bsrange_hi[1], wl->blockalign};
    static const char *const what[] = {"bsrange's maximum", "bsrange's maximum", "blockalign"};
    for (unsigned i = 0; i < 3; i++)
        if (more[i] % sector)
            return errf(err, errlen, "%s %u is not a multiple of the %u-byte logical sector "
                                     "size of %s", what[i], more[i], sector, target);
    for (unsigned i = 0; i < wl->n_bs_write; i++)
        if (wl->bs_write[i].size % sector)
            return errf(err, errlen, "write size %u is not a multiple of the %u-byte logical "
                                     "sector size of %s", wl->bs_write[i].size, sector, target);
    for (unsigned i = 0; i < wl->n_bs; i++) {
        if (wl->bs[i].size % sector == 0)
            continue;
        if (wl->n_bs == 1)
            return errf(err, errlen, "bs=%u is not a multiple of the %u-byte logical sector "
                                     "size of %s", wl->bs[i].size, sector, target);
        return errf(err, errlen, "bssplit size %u is not a multiple of the %u-byte logical "
                                 "sector size of %s", wl->bs[i].size, sector, target);
    }
    return 0;
}

/* The range must hold one block of the largest size per worker slice (split) or at all. */
static int wl_check_room(const struct workload *wl, uint64_t len, uint32_t sector,
                         const char *target, char *err, size_t errlen)
{
    uint32_t maxbs = wl_max_bs(wl);
    if (wl_effective_region(wl) == WL_REGION_SPLIT && wl->workers > 1) {
        uint64_t slice = wl_round_down(len / wl->workers, sector);
        if (slice < maxbs)
            return errf(err, errlen, "the active range of %llu bytes on %s split among %u "
                                     "workers leaves %llu bytes each, less than one %u-byte "
                                     "block; use fewer workers, a larger size or "
                                     "region=shared", (unsigned long long)len, target,
                        wl->workers, (unsigned long long)slice, maxbs);
    } else if (len < maxbs) {
        return errf(err, errlen, "the active range of %llu bytes on %s is smaller than one "
                                 "%u-byte block", (unsigned long long)len, target, maxbs);
    }
    return 0;
}

int wl_check_target(const struct workload *wl, uint64_t capacity, uint32_t logical_sector,
                    const char *target_name, struct wl_range *out, char *err, size_t errlen)
{
    return wl_check_target_scaled(wl, capacity, logical_sector, 1, target_name, out, err,
                                  errlen);
}

int wl_check_target_scaled(const struct workload *wl, uint64_t capacity,
                           uint32_t logical_sector, uint64_t scale, const char *target_name,
                           struct wl_range *out, char *err, size_t errlen)
{
    const char *target = target_name ? target_name : "the target";
    if (scale < 1)
        scale = 1;
    if (logical_sector == 0)
        return errf(err, errlen, "%s reports a logical sector size of 0", target);
    if (capacity == 0)
        return errf(err, errlen, "%s has a capacity of 0 bytes", target);
    if (wl_check_sizes(wl, logical_sector, target, err, errlen) < 0)
        return -1;
    uint64_t start = 0, len = 0;
    if (wl->offset.set && wl_extent_bytes(&wl->offset, "offset", capacity, logical_sector,
                                          scale, target, &start, err, errlen) < 0)
        return -1;
    if (wl->size.set) {
        if (wl_extent_bytes(&wl->size, "size", capacity, logical_sector, scale, target, &len,
                            err, errlen) < 0)
            return -1;
    } else {
        len = start < capacity ? wl_round_down(capacity - start, logical_sector) : 0;
    }
    len = wl_scaled_room(wl, len, scale);
    /* messages in the full-size drive's bytes, as the workload gave them */
    const unsigned long long full = (unsigned long long)capacity * scale;
    if (start >= capacity)
        return errf(err, errlen, "offset %llu is not below the %llu-byte capacity of %s: "
                                 "target smaller than the active range",
                    (unsigned long long)start * scale, full, target);
    if (len > capacity - start) {
        char o[32], l[32], c[32];
        units_format_size(start * scale, o, sizeof(o));
        units_format_size(len * scale, l, sizeof(l));
        units_format_size(full, c, sizeof(c));
        return errf(err, errlen, "offset=%s + size=%s (%llu bytes) does not fit in the %s "
                                 "(%llu-byte) capacity of %s: target smaller than the active range",
                    o, l, (unsigned long long)(start + len) * scale, c, full, target);
    }
    if (len == 0)
        return errf(err, errlen, "the active range on %s is empty (offset %llu, capacity "
                                 "%llu bytes)", target, (unsigned long long)start,
                    (unsigned long long)capacity);
    if (wl_check_room(wl, len, logical_sector, target, err, errlen) < 0)
        return -1;
    if (out)
        *out = (struct wl_range){.start = start, .len = len};
    return 0;
}

bool wl_note_raised(struct workload *wl, const struct wl_range *range, uint64_t scale,
                    uint32_t logical_sector, const char *target_name)
{
    if (scale <= 1 || !logical_sector || !wl->size.set || wl->size.is_percent ||
        !wl->size.bytes || wl_round_down(wl->size.bytes / scale, logical_sector) >= range->len)
        return false;
    char want[32], scaled[32], got[32], full[32], note[400];
    units_format_size(wl->size.bytes, want, sizeof(want));
    units_format_size(wl->size.bytes / scale, scaled, sizeof(scaled));
    units_format_size(range->len, got, sizeof(got));
    units_format_size(range->len * scale, full, sizeof(full));
    snprintf(note, sizeof(note), "size=%s is %s on %s, scaled down %llu times, less than the "
             "job's room of one block%s: raised to %s, which stands for %s of the full-size "
             "drive", want, scaled, target_name ? target_name : "the target",
             (unsigned long long)scale,
             wl_effective_region(wl) == WL_REGION_SPLIT && wl->workers > 1 ? " per worker" : "",
             got, full);
    wl_note_add(wl, note);
    return true;
}

uint32_t wl_max_bs(const struct workload *wl)
{
    uint32_t m = wl->bsrange_hi[0] > wl->bsrange_hi[1] ? wl->bsrange_hi[0] : wl->bsrange_hi[1];
    for (unsigned i = 0; i < wl->n_bs && i < WL_MAX_BS; i++)
        if (wl->bs[i].size > m)
            m = wl->bs[i].size;
    for (unsigned i = 0; i < wl->n_bs_write && i < WL_MAX_BS; i++)
        if (wl->bs_write[i].size > m)
            m = wl->bs_write[i].size;
    return m;
}

uint32_t wl_min_bs(const struct workload *wl)
{
    uint32_t m = 0;
    for (unsigned i = 0; i < wl->n_bs && i < WL_MAX_BS; i++)
        if (m == 0 || wl->bs[i].size < m)
            m = wl->bs[i].size;
    for (unsigned i = 0; i < wl->n_bs_write && i < WL_MAX_BS; i++)
        if (m == 0 || wl->bs_write[i].size < m)
            m = wl->bs_write[i].size;
    return m;
}

uint32_t wl_dir_min_bs(const struct workload *wl, unsigned dir)
{
    const bool w = dir && wl->n_bs_write;
    const struct wl_bs *bs = w ? wl->bs_write : wl->bs;
    uint32_t m = 0;
    for (unsigned i = 0; i < (w ? wl->n_bs_write : wl->n_bs) && i < WL_MAX_BS; i++)
        if (m == 0 || bs[i].size < m)
            m = bs[i].size;
    return m;
}

/* ---- canonical form ----------------------------------------------------------------- */

struct wl_out {
    char *buf;
    size_t len, pos;
};

__attribute__((format(printf, 2, 3)))
static void wl_put(struct wl_out *o, const char *fmt, ...)
{
    if (o->pos >= o->len)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(o->buf + o->pos, o->len - o->pos, fmt, ap);
    va_end(ap);
    if (n > 0)
        o->pos += (size_t)n;
}

/* fio style: 4096 -> "4k", 1536 -> "1536", 1 GiB -> "1g". */
static void wl_fmt_size(uint64_t bytes, char *buf, size_t len)
{
    static const char units[] = "kmgtpe";
    int u = -1;
    while (bytes != 0 && bytes % 1024 == 0 && u < 5) {
        bytes /= 1024;
        u++;
    }
    if (u < 0)
        snprintf(buf, len, "%llu", (unsigned long long)bytes);
    else
        snprintf(buf, len, "%llu%c", (unsigned long long)bytes, units[u]);
}

/* Shortest fixed-point decimal (at most 9 places, what units_parse_percent reads) that
 * reads back as the same double; never an exponent. */
static void wl_fmt_percent(double v, char *buf, size_t len)
{
    for (int places = 0; places <= 9; places++) {
        snprintf(buf, len, "%.*f", places, v);
        if (strtod(buf, NULL) == v)
            return;
    }
}

/* "1h30m", "500ms", "2d" */
static void wl_fmt_duration(uint64_t ns, char *buf, size_t len)
{
    static const struct {
        const char *unit;
        uint64_t ns;
    } parts[] = {
        {"d", 86400000000000ull}, {"h", 3600000000000ull}, {"m", 60000000000ull},
        {"s", 1000000000ull},     {"ms", 1000000ull},      {"us", 1000ull},
        {"ns", 1ull},
    };
    struct wl_out o = {buf, len, 0};
    buf[0] = '\0';
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
        if (ns >= parts[i].ns) {
            wl_put(&o, "%llu%s", (unsigned long long)(ns / parts[i].ns), parts[i].unit);
            ns %= parts[i].ns;
        }
    }
    if (o.pos == 0)
        snprintf(buf, len, "0s");
}

static void wl_put_extent(struct wl_out *o, const char *key, const struct wl_extent *e)
{
    char v[48];
    if (!e->set)
        return;
    if (e->is_percent) {
        wl_fmt_percent(e->percent, v, sizeof v);
        wl_put(o, ",%s=%s%%", key, v);
    } else {
        wl_fmt_size(e->bytes, v, sizeof v);
        wl_put(o, ",%s=%s", key, v);
    }
}

/* One direction's sizes as bs/bssplit/bsrange's value. */
static void wl_put_sizes(struct wl_out *o, const struct wl_bs *bs, unsigned n, uint32_t hi)
{
    char v[32];
    for (unsigned i = 0; i < n && i < WL_MAX_BS; i++) {
        wl_fmt_size(bs[i].size, v, sizeof v);
        wl_put(o, "%s%s", i ? ":" : "", v);
        if (n > 1)
            wl_put(o, "/%u", bs[i].weight);
    }
    if (hi) {
        wl_fmt_size(hi, v, sizeof v);
        wl_put(o, "-%s", v);
    }
}

/* bs=4k | bssplit=... | bsrange=4k-64k, each READ,WRITE when writes have sizes of their own;
 * a key each direction can give (bs for a single size either side). */
static void wl_put_bs(struct wl_out *o, const struct workload *wl)
{
    const bool w = wl->n_bs_write > 0;
    const bool range = wl->bsrange_hi[0] || wl->bsrange_hi[1];
    const bool split = wl->n_bs > 1 || (w && wl->n_bs_write > 1);
    if (range && split) {   /* bssplit one way, bsrange the other: two keys */
        wl_put(o, ",bssplit=");
        wl_put_sizes(o, wl->bs, wl->n_bs, 0);
        wl_put(o, ",");
        if (wl->n_bs_write > 1)
            wl_put_sizes(o, wl->bs_write, wl->n_bs_write, 0);
        wl_put(o, ",bsrange=");
        if (wl->bsrange_hi[0])
            wl_put_sizes(o, wl->bs, 1, wl->bsrange_hi[0]);
        wl_put(o, ",");
        if (wl->bsrange_hi[1])
            wl_put_sizes(o, wl->bs_write, 1, wl->bsrange_hi[1]);
    } else {
        wl_put(o, range ? ",bsrange=" : split ? ",bssplit=" : ",bs=");
        wl_put_sizes(o, wl->bs, wl->n_bs, wl->bsrange_hi[0]);
        if (w) {
            wl_put(o, ",");
            wl_put_sizes(o, wl->bs_write, wl->n_bs_write, wl->bsrange_hi[1]);
        }
    }
    if (wl->blockalign) {
        char v[32];
        wl_fmt_size(wl->blockalign, v, sizeof v);
        wl_put(o, ",blockalign=%s", v);
    }
}

/* fio's steady state and latency target, in wl_format's form (helper "ss"). */
static void wl_format_ss(const struct workload *wl, struct wl_out *o)
{
    static const char *const names[] = {"", "iops", "bw", "lat"};
    char v[32];
    if (wl->ss.dur_ns && wl->ss.metric != WL_SS_NONE) {
        wl_put(o, ",ss=%s%s:%g%s", names[wl->ss.metric], wl->ss.slope ? "_slope" : "",
               wl->ss.limit, wl->ss.pct ? "%" : "");
        wl_fmt_duration(wl->ss.dur_ns, v, sizeof v);
        wl_put(o, ",ss_dur=%s", v);
        if (wl->ss.ramp_ns) {
            wl_fmt_duration(wl->ss.ramp_ns, v, sizeof v);
            wl_put(o, ",ss_ramp=%s", v);
        }
        if (wl->ss.interval_ns)
            wl_put(o, ",ss_interval=%llu", (unsigned long long)(wl->ss.interval_ns / 1000000000u));
    }
    if (!wl->lat.target_ns)
        return;
    wl_fmt_duration(wl->lat.target_ns, v, sizeof v);
    wl_put(o, ",latency_target=%s", v);
    if (wl->lat.window_ns) {
        wl_fmt_duration(wl->lat.window_ns, v, sizeof v);
        wl_put(o, ",latency_window=%s", v);
    }
    if (wl->lat.percentile > 0)
        wl_put(o, ",latency_percentile=%g", wl->lat.percentile);
    if (wl->lat.run)
        wl_put(o, ",latency_run=1");
}

/* The pacing and flow keys in the canonical form (per-direction values with ':'). */
static void wl_format_flow(struct wl_out *o, const struct workload *wl)
{
    char a[48], b[48], c[48];
    if (wl->rate_bps[0] || wl->rate_bps[1] || wl->rate_bps[2]) {
        a[0] = b[0] = c[0] = '\0';
        if (wl->rate_bps[0])
            wl_fmt_size(wl->rate_bps[0], a, sizeof a);
        if (wl->rate_bps[1])
            wl_fmt_size(wl->rate_bps[1], b, sizeof b);
        if (wl->rate_bps[2] != wl->rate_bps[1])   /* else the writes' value is the trims' */
            c[0] = ':', wl_fmt_size(wl->rate_bps[2], c + 1, sizeof c - 1);
        wl_put(o, ",rate=%s:%s%s", a, b, c);
    }
    if (!wl->rate_iops && (wl->rate_iops_dir[0] || wl->rate_iops_dir[1] || wl->rate_iops_dir[2])) {
        a[0] = b[0] = c[0] = '\0';
        if (wl->rate_iops_dir[0])
            snprintf(a, sizeof a, "%u", wl->rate_iops_dir[0]);
        if (wl->rate_iops_dir[1])
            snprintf(b, sizeof b, "%u", wl->rate_iops_dir[1]);
        if (wl->rate_iops_dir[2] != wl->rate_iops_dir[1])
            snprintf(c, sizeof c, ":%u", wl->rate_iops_dir[2]);
        wl_put(o, ",rate_iops=%s:%s%s", a, b, c);
    }
    if (wl->rate_poisson)
        wl_put(o, ",rate_process=poisson");
    if (wl->rate_offload)
        wl_put(o, ",io_submit_mode=offload");
    if (wl->thinktime_blocks > 1)
        wl_put(o, ",thinktime_blocks=%u", wl->thinktime_blocks);
    if (wl->thinktime_spin_ns)
        wl_put(o, ",thinktime_spin=%lluus", (unsigned long long)(wl->thinktime_spin_ns / 1000));
    if (wl->thinktime_iotime_ns) {
        wl_fmt_duration(wl->thinktime_iotime_ns, a, sizeof a);
        wl_put(o, ",thinktime_iotime=%s", a);
    }
    if (wl->startdelay_ns) {
        wl_fmt_duration(wl->startdelay_ns, a, sizeof a);
        wl_put(o, ",startdelay=%s", a);
    }
    if (wl->number_ios)
        wl_put(o, ",number_ios=%llu", (unsigned long long)wl->number_ios);
    if (wl->fill_device)
        wl_put(o, ",fill_device=1");
    if (wl->flow) {   /* fio's flow control (flow=0: none, flow_id and flow_sleep moot) */
        wl_put(o, ",flow=%u,flow_id=%u", wl->flow, wl->flow_id);
        if (wl->flow_sleep_ns) {
            wl_fmt_duration(wl->flow_sleep_ns, a, sizeof a);
            wl_put(o, ",flow_sleep=%s", a);
        }
    }
}

/* rw's offset modifier (right after rw=MODE) and strided zones in the canonical form. */
static void wl_put_offsets(struct wl_out *o, const struct workload *wl)
{
    char v[48];
    if (wl->seq_add) {
        wl_fmt_size(wl->seq_add < 0 ? (uint64_t)-wl->seq_add : (uint64_t)wl->seq_add, v,
                    sizeof v);
        wl_put(o, ":%s%s", wl->seq_add < 0 ? "-" : "", v);
    }
    if (wl->seq_nr > 1)
        wl_put(o, ":%u%s", wl->seq_nr, wl->seq_identical ? ",rw_sequencer=identical" : "");
    if (!wl->zone_size)
        return;
    wl_fmt_size(wl->zone_size, v, sizeof v);
    wl_put(o, ",zonemode=strided,zonesize=%s", v);
    wl_fmt_size(wl->zone_range, v, sizeof v);
    wl_put(o, ",zonerange=%s", v);
    wl_fmt_size(wl->zone_skip, v, sizeof v);
    wl_put(o, ",zoneskip=%s", v);
}

/* fio's I/O priorities in the canonical form (per direction R,W; classes and levels
 * resolved; a direction without cmdprio_bssplit entries one of 0 %). */
static void wl_format_prio(struct wl_out *o, const struct workload *wl)
{
    const struct wl_prio *p = &wl->prio;
    if (p->cls >= 0)
        wl_put(o, ",prioclass=%d", p->cls);
    if (p->level >= 0)
        wl_put(o, ",prio=%d", p->level);
    if (!wl_prio_raises(wl))
        return;
    wl_put(o, ",cmdprio_class=%u,%u,cmdprio=%u,%u", p->cmd_cls[0], p->cmd_cls[1],
           p->cmd_level[0], p->cmd_level[1]);
    if (p->pct[0] || p->pct[1]) {
        wl_put(o, ",cmdprio_percentage=%u,%u", p->pct[0], p->pct[1]);
        return;
    }
    wl_put(o, ",cmdprio_bssplit=");
    for (unsigned d = 0; d < 2; d++) {
        if (!p->n_split[d])
            wl_put(o, "%s%u/0", d ? "," : "", (unsigned)wl->bs[0].size);
        for (unsigned i = 0; i < p->n_split[d]; i++) {
            const struct wl_prio_split *e = &p->split[d][i];
            wl_put(o, "%s%u/%u/%d/%d", i ? ":" : d ? "," : "", (unsigned)e->bs, e->pct,
                   e->cls < 0 ? (int)p->cmd_cls[d] : e->cls,
                   e->cls < 0 ? (int)p->cmd_level[d] : e->level);
        }
    }
}

void wl_format(const struct workload *wl, char *buf, size_t len)
{
    if (!buf || len == 0)
        return;
    struct wl_out o = {buf, len, 0};
    char v[48];
    buf[0] = '\0';
    wl_put(&o, "rw=%s", wl->rw);
    wl_put_offsets(&o, wl);
    if (wl_rw_mixed(wl->rw))
        wl_put(&o, ",rwmixread=%u", wl->read_pct);
    if (wl->random_pct != (wl_rw_random(wl->rw) ? 100u : 0u))
        wl_put(&o, ",percentage_random=%u", wl->random_pct);
    if (wl->random_map != WL_RANDOM_MAP_ONCE)
        wl_put(&o, ",random_map=%s", wl->random_map == WL_RANDOM_MAP_OFF ? "off" : "always");
    for (unsigned i = 0; i < wl->n_zones; i++)
        wl_put(&o, "%s%u/%u", i ? ":" : ",random_distribution=zoned:", wl->zones[i].access_pct,
               wl->zones[i].range_pct);
    if (wl->dist != WL_DIST_UNIFORM) {
        static const char *const dn[] = {"random", "zipf", "pareto", "normal"};
        wl_put(&o, ",random_distribution=%s:%g", dn[wl->dist], wl->dist_param);
        if (wl->dist_center >= 0)
            wl_put(&o, ":%g", wl->dist_center);
    }
    wl_put_bs(&o, wl);
    wl_put(&o, ",iodepth=%u,numjobs=%u", wl->qd, wl->workers);
    if (wl->region != WL_REGION_DEFAULT)
        wl_put(&o, ",region=%s", wl->region == WL_REGION_SHARED ? "shared" : "split");
    wl_put_extent(&o, "offset", &wl->offset);
    wl_put_extent(&o, "size", &wl->size);
    wl_put(&o, ",buffer_compress_percentage=%u", wl->compress_pct);
    if (wl->dedupe_pct)
        wl_put(&o, ",dedupe_percentage=%u,dedupe_mode=%s,dedupe_working_set_percentage=%u,"
               "dedupe_global=%d", wl->dedupe_pct, wl->dedupe_working_set ? "working_set" : "repeat",
               wl->dedupe_ws_pct ? wl->dedupe_ws_pct : 5, wl->dedupe_global);
    if (wl->round_time_ns) {
        wl_fmt_duration(wl->round_time_ns, v, sizeof v);
        wl_put(&o, ",runtime=%s", v);
    }
    if (wl->round_bytes) {
        wl_fmt_size(wl->round_bytes, v, sizeof v);
        wl_put(&o, ",round_bytes=%s", v);
    }
    if (wl->ramp_ns) {
        wl_fmt_duration(wl->ramp_ns, v, sizeof v);
        wl_put(&o, ",ramp_time=%s", v);
    }
    if (wl->rate_iops)
        wl_put(&o, ",rate_iops=%u", wl->rate_iops);
    if (wl->thinktime_ns)
        wl_put(&o, ",thinktime=%lluus", (unsigned long long)(wl->thinktime_ns / 1000));
    wl_format_flow(&o, wl);
    if (wl->batch_submit)
        wl_put(&o, ",iodepth_batch_submit=%u", wl->batch_submit);
    if (wl->batch_complete_min)
        wl_put(&o, ",iodepth_batch_complete_min=%u", wl->batch_complete_min);
    if (wl->batch_complete_max)
        wl_put(&o, ",iodepth_batch_complete_max=%u", wl->batch_complete_max);
    wl_format_ss(wl, &o);
    wl_format_prio(&o, wl);
    if (wl->buffered)
        wl_put(&o, ",direct=0");
    wl_put(&o, ",randseed=0x%llx", (unsigned long long)wl->seed);
}

int wl_fit_sector(struct workload *wl, uint32_t sector, char *what, size_t whatlen)
{
    if (whatlen)
        what[0] = '\0';
    unsigned small = 0, share = 0;
    for (unsigned i = 0; i < wl->n_bs; i++)
        if (wl->bs[i].size < sector) {
            small++;
            share += wl->bs[i].weight;
        }
    if (!small)
        return 0;
    if (small == wl->n_bs && wl->n_bs == 1) {
        char b[32], sec[32];
        wl_fmt_size(wl->bs[0].size, b, sizeof b);
        wl_fmt_size(sector, sec, sizeof sec);
        errf(what, whatlen, "bs=%s is below the %s logical sector", b, sec);
        return -1;
    }
    struct wl_out o = {what, whatlen, 0};
    struct wl_bs out[WL_MAX_BS];
    unsigned n = 0, listed = 0;
    uint32_t raised_weight = 0;
    for (unsigned i = 0; i < wl->n_bs; i++) {
        if (wl->bs[i].size < sector) {
            char b[32];
            wl_fmt_size(wl->bs[i].size, b, sizeof b);
            wl_put(&o, "%s%s", listed++ ? ", " : "", b);
            raised_weight += wl->bs[i].weight;
            continue;
        }
        out[n++] = wl->bs[i];
    }
    bool merged = false;
    for (unsigned i = 0; i < n; i++)
        if (out[i].size == sector) {
            out[i].weight += raised_weight;
            merged = true;
        }
    if (!merged) {   /* keep the list in size order: the raised share goes first */
        memmove(&out[1], &out[0], n * sizeof(out[0]));
        out[0] = (struct wl_bs){.size = sector, .weight = raised_weight};
        n++;
    }
    char sec[32];
    wl_fmt_size(sector, sec, sizeof sec);
    wl_put(&o, " (%u%% of I/Os) raised to %s", share, sec);
    memcpy(wl->bs, out, n * sizeof(out[0]));
    wl->n_bs = n;
    return 1;
}
