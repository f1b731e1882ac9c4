/* test_pattern.c — write-buffer patterns: layout, compressibility measured with zlib,
 * uniqueness of buffers and chunks (dedup cannot cheat), seeding. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zlib.h>

#include "io/pattern.h"
#include "lib/rng.h"

static void test_random_bytes(void **state)
{
    (void)state;
    /* round((100 - pct) / 100 * len), at least 16, at most len */
    assert_int_equal(pattern_random_bytes(0, 4096), 4096);
    assert_int_equal(pattern_random_bytes(50, 4096), 2048);
    assert_int_equal(pattern_random_bytes(75, 4096), 1024);
    assert_int_equal(pattern_random_bytes(90, 4096), 410);     /* 409.6 */
    assert_int_equal(pattern_random_bytes(99, 4096), 41);      /* 40.96 */
    assert_int_equal(pattern_random_bytes(100, 4096), 16);     /* minimum */
    assert_int_equal(pattern_random_bytes(90, 4095), 410);     /* 409.5 rounds up */
    assert_int_equal(pattern_random_bytes(50, 4095), 2048);    /* 2047.5 rounds up */
    assert_int_equal(pattern_random_bytes(33, 4096), 2744);    /* 2744.32 */
    assert_int_equal(pattern_random_bytes(95, 512), 26);       /* 25.6 */
    assert_int_equal(pattern_random_bytes(90, 512), 51);       /* 51.2 */
    assert_int_equal(pattern_random_bytes(100, 512), 16);
    assert_int_equal(pattern_random_bytes(90, 100), 16);       /* 10 -> minimum 16 */
    assert_int_equal(pattern_random_bytes(0, 10), 10);
    assert_int_equal(pattern_random_bytes(100, 10), 10);       /* capped at the length */
    assert_int_equal(pattern_random_bytes(50, 1), 1);
    assert_int_equal(pattern_random_bytes(50, 0), 0);
    assert_int_equal(pattern_random_bytes(250, 4096), 16);     /* > 100 treated as 100 */
    /* huge lengths do not overflow: 10% of 2^60 */
    size_t big = (size_t)1 << 60;
    assert_int_equal(pattern_random_bytes(90, big), big / 10 + ((big % 10) >= 5 ? 1 : 0));

    struct pattern p;
    pattern_init(&p, 250, 1);
    assert_int_equal(p.compress_pct, 100);
    pattern_init(&p, 37, 1);
    assert_int_equal(p.compress_pct, 37);
}

/* Reference: chunk by chunk, the head from rng_next 8 bytes at a time (a partial word for
 * the tail of the head), then zeros. */
static void ref_fill(struct rng *r, unsigned pct, unsigned char *b, size_t len)
{
    while (len) {
        size_t chunk = len < PATTERN_CHUNK ? len : PATTERN_CHUNK;
        size_t head = pattern_random_bytes(pct, chunk);
        for (size_t i = 0; i < head; i += 8) {
            uint64_t v = rng_next(r);
            size_t n = head - i < 8 ? head - i : 8;
            memcpy(b + i, &v, n);
        }
        memset(b + head, 0, chunk - head);
        b += chunk;
        len -= chunk;
    }
}

static void test_layout_matches_reference(void **state)
{
    (void)state;
    static const size_t lens[] = {1, 7, 8, 15, 16, 17, 100, 512, 4095, 4096, 4097, 6144,
                                  10000, 65536, 131072 + 3};
    static const unsigned pcts[] = {0, 1, 33, 50, 89, 90, 99, 100};
    for (size_t pi = 0; pi < sizeof(pcts) / sizeof(pcts[0]); pi++) {
        struct pattern p;
        struct rng ref;
        pattern_init(&p, pcts[pi], 1234 + pi);
        rng_seed(&ref, 1234 + pi);
        for (size_t li = 0; li < sizeof(lens) / sizeof(lens[0]); li++) {
            size_t len = lens[li];
            /* exact-size heap buffers: ASan catches any write past the end */
            unsigned char *got = malloc(len), *want = malloc(len);
            assert_non_null(got);
            assert_non_null(want);
            memset(got, 0xAA, len);     /* stale data that must be overwritten */
            pattern_fill(&p, got, len);
            ref_fill(&ref, pcts[pi], want, len);
            assert_memory_equal(got, want, len);
            free(got);
            free(want);
        }
        /* same PRNG position afterwards: the sequence continues identically */
        struct pattern copy = p;
        assert_int_equal(rng_next(&copy.rng), rng_next(&ref));
    }

    /* explicit layout of a 10000-byte buffer at 90%: chunks 4096, 4096, 1808;
     * heads 410, 410, round(180.8) = 181; the rest zeros */
    struct pattern p;
    pattern_init(&p, 90, 5);
    unsigned char *b = malloc(10000);
    assert_non_null(b);
    memset(b, 0xAA, 10000);
    pattern_fill(&p, b, 10000);
    static const size_t start[3] = {0, 4096, 8192}, head[3] = {410, 410, 181},
                        end[3] = {4096, 8192, 10000};
    for (int c = 0; c < 3; c++) {
        size_t nz = 0;
        for (size_t i = start[c]; i < start[c] + head[c]; i++)
            nz += b[i] != 0;
        assert_true(nz > head[c] * 9 / 10);     /* random: ~255/256 of bytes nonzero */
        for (size_t i = start[c] + head[c]; i < end[c]; i++)
            assert_int_equal(b[i], 0);
    }
    free(b);
}

/* compressed size / original size, in percent, with zlib level 6 */
static double zlib_pct(const unsigned char *b, size_t len)
{
    uLongf out_len = compressBound(len);
    unsigned char *out = malloc(out_len);
    assert_non_null(out);
    assert_int_equal(compress2(out, &out_len, b, len, 6), Z_OK);
    free(out);
    return 100.0 * (double)out_len / (double)len;
}

static void check_ratio(size_t len, unsigned pct, double lo, double hi)
{
    unsigned char *b = malloc(len);
    assert_non_null(b);
    struct pattern p;
    pattern_init(&p, pct, 99 + len + pct);
    for (int rep = 0; rep < 4; rep++) {
        pattern_fill(&p, b, len);
        double r = zlib_pct(b, len);
        if (rep == 0)
            print_message("  %6zu bytes at %3u%% compressible: zlib keeps %6.2f%%\n", len, pct, r);
        if (r < lo || r > hi) {
            print_error("%zu bytes at %u%%: zlib keeps %.2f%%, expected [%.1f, %.1f]\n", len,
                        pct, r, lo, hi);
            fail();
        }
    }
    free(b);
}

static void test_compressibility(void **state)
{
    (void)state;
    /* within 5 percentage points of 100 - pct */
    static const size_t lens[] = {65536, 4096};
    static const unsigned pcts[] = {0, 50, 90};
    for (size_t li = 0; li < 2; li++)
        for (size_t pi = 0; pi < 3; pi++) {
            double target = 100.0 - pcts[pi];
            check_ratio(lens[li], pcts[pi], target - 5, target + 5);
        }
    /* 512-byte buffers: 0% does not compress, 50% and 90% within 10 points (zlib's fixed
     * header and Huffman overhead weigh more on small inputs), 100% well below 10% */
    check_ratio(512, 0, 95, 105);
    check_ratio(512, 50, 40, 60);
    check_ratio(512, 90, 5, 20);
    check_ratio(512, 100, 0, 10);
    /* 100%: a 64 KiB buffer is 16 random bytes per 4 KiB chunk: it almost vanishes */
    check_ratio(65536, 100, 0, 2);
    check_ratio(65536, 75, 20, 30);
}

/* 64-bit FNV-1a-style hash over 8-byte words (lengths here are multiples of 8) */
static uint64_t hash64(const unsigned char *b, size_t len)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i + 8 <= len; i += 8) {
        uint64_t w;
        memcpy(&w, b + i, 8);
        h = (h ^ w) * 0x100000001b3ull;
        h ^= h >> 29;
    }
    return h;
}

struct hidx { uint64_t h; size_t i; };

static int cmp_hidx(const void *a, const void *b)
{
    const struct hidx *x = a, *y = b;
    return (x->h > y->h) - (x->h < y->h);
}

/* All n blocks of len bytes in buf are distinct: sort by hash, memcmp equal hashes. */
static void assert_all_distinct(const unsigned char *buf, size_t n, size_t len)
{
    struct hidx *hs = malloc(n * sizeof(*hs));
    assert_non_null(hs);
    for (size_t i = 0; i < n; i++) {
        hs[i].h = hash64(buf + i * len, len);
        hs[i].i = i;
    }
    qsort(hs, n, sizeof(*hs), cmp_hidx);
    for (size_t i = 1; i < n; i++) {
        if (hs[i].h != hs[i - 1].h)
            continue;
        if (memcmp(buf + hs[i].i * len, buf + hs[i - 1].i * len, len) == 0) {
            print_error("blocks %zu and %zu are equal\n", hs[i - 1].i, hs[i].i);
            fail();
        }
    }
    free(hs);
}

static void test_buffers_distinct_at_0(void **state)
{
    (void)state;
    /* 20000 writes of 4 KiB at 0%: no two equal */
    enum { NBUF = 20000, LEN = 4096 };
    unsigned char *all = malloc((size_t)NBUF * LEN);
    assert_non_null(all);
    struct pattern p;
    pattern_init(&p, 0, 77);
    for (size_t i = 0; i < NBUF; i++)
        pattern_fill(&p, all + i * LEN, LEN);
    assert_all_distinct(all, NBUF, LEN);
    free(all);
}

static void test_chunks_distinct_at_100(void **state)
{
    (void)state;
    /* 100%: each 4 KiB chunk is a 16-byte random head and 4080 zeros.  5000 writes of
     * 16 KiB = 20000 chunks, all distinct; also 20000 writes of 512 bytes. */
    enum { NW = 5000, WLEN = 16384, NCHUNK = NW * (WLEN / 4096) };
    unsigned char *all = malloc((size_t)NW * WLEN);
    assert_non_null(all);
    struct pattern p;
    pattern_init(&p, 100, 78);
    for (size_t i = 0; i < NW; i++)
        pattern_fill(&p, all + i * WLEN, WLEN);
    for (size_t c = 0; c < NCHUNK; c++) {
        const unsigned char *ch = all + c * 4096;
        for (size_t j = 16; j < 4096; j++)
            if (ch[j] != 0)
                fail_msg("chunk %zu byte %zu is not zero", c, j);
    }
    assert_all_distinct(all, NCHUNK, 4096);

    pattern_init(&p, 100, 79);
    for (size_t i = 0; i < 20000; i++)
        pattern_fill(&p, all + i * 512, 512);
    assert_all_distinct(all, 20000, 512);
    free(all);
}

static void test_seeds(void **state)
{
    (void)state;
    enum { LEN = 65536 };
    unsigned char *a = malloc(LEN), *b = malloc(LEN), *c = malloc(LEN);
    assert_non_null(a);
    assert_non_null(b);
    assert_non_null(c);
    static const unsigned pcts[] = {0, 50, 100};
    for (size_t pi = 0; pi < 3; pi++) {
        struct pattern pa, pb, pc;
        pattern_init(&pa, pcts[pi], 1000);
        pattern_init(&pb, pcts[pi], 1000);
        pattern_init(&pc, pcts[pi], 1001);
        for (int rep = 0; rep < 8; rep++) {
            size_t len = rep % 2 ? 4096 : LEN;
            pattern_fill(&pa, a, len);
            pattern_fill(&pb, b, len);
            pattern_fill(&pc, c, len);
            assert_memory_equal(a, b, len);         /* same seed: same sequence */
            assert_memory_not_equal(a, c, len);     /* different seed: different data */
            /* not even one random head is shared between the two seeds */
            for (size_t off = 0; off < len; off += 4096)
                assert_memory_not_equal(a + off, c + off, 16);
        }
    }
    free(a);
    free(b);
    free(c);
}

static void test_speed(void **state)
{
    (void)state;
    /* informative only (sanitizer builds are slow): fill throughput at 0% */
    enum { LEN = 1 << 20, REPS = 64 };
    unsigned char *b = malloc(LEN);
    assert_non_null(b);
    struct pattern p;
    pattern_init(&p, 0, 3);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (int i = 0; i < REPS; i++)
        pattern_fill(&p, b, LEN);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
    print_message("  pattern_fill 0%%: %.2f GB/s\n", (double)LEN * REPS / s / 1e9);
    assert_true(b[0] != 0 || b[1] != 0 || b[2] != 0 || b[3] != 0);
    free(b);
}

/* ---- dedupe (fio's dedupe_percentage, dedupe_mode, dedupe_global) ---------------------- */

#define DD_CHUNKS 4096u   /* 16 MiB of chunks, written 64 KiB at a time */

static uint64_t fnv64(const unsigned char *b, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 0x100000001b3ull;
    return h;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* The hashes of DD_CHUNKS generated chunks into h (sorted); the zero tail of every chunk
 * checked against the compressibility. */
static void dd_hashes(struct pattern *p, uint64_t *h)
{
    unsigned char *buf = malloc(65536);
    assert_non_null(buf);
    size_t head = pattern_random_bytes(p->compress_pct, PATTERN_CHUNK);
    for (unsigned w = 0; w < DD_CHUNKS / 16; w++) {
        pattern_fill(p, buf, 65536);
        for (unsigned c = 0; c < 16; c++) {
            const unsigned char *b = buf + c * PATTERN_CHUNK;
            for (size_t i = head; i < PATTERN_CHUNK; i++)
                assert_int_equal(b[i], 0);
            h[w * 16 + c] = fnv64(b, PATTERN_CHUNK);
        }
    }
    free(buf);
    qsort(h, DD_CHUNKS, sizeof(*h), cmp_u64);
}

static unsigned dd_distinct(const uint64_t *h)
{
    unsigned n = 0;
    for (unsigned i = 0; i < DD_CHUNKS; i++)
        n += i == 0 || h[i] != h[i - 1];
    return n;
}

/* the share of chunks that repeat an earlier one is dedupe_percentage, in both modes, at any
 * compressibility (each chunk keeps its zero tail) */
static void test_dedupe_share(void **state)
{
    (void)state;
    static const unsigned pcts[] = {0, 10, 50, 90, 100};
    uint64_t *h = malloc(DD_CHUNKS * sizeof(*h));
    assert_non_null(h);
    for (int ws = 0; ws < 2; ws++) {
        for (size_t i = 0; i < sizeof(pcts) / sizeof(pcts[0]); i++) {
            struct pattern p;
            pattern_init(&p, ws ? 50 : 0, 77 + i);
            pattern_dedupe(&p, pcts[i], ws, 64, 0);
            dd_hashes(&p, h);
            double dup = 100.0 * (DD_CHUNKS - dd_distinct(h)) / DD_CHUNKS;
            if (pcts[i] == 100 && !ws)
                assert_int_equal(dd_distinct(h), 1);   /* the first chunk, again and again */
            else if (pcts[i] == 100)
                assert_true(dd_distinct(h) <= 65);     /* the first and the set */
            else
                assert_true(dup > pcts[i] - 3.0 && dup < pcts[i] + 3.0);
        }
    }
    free(h);
}

/* dedupe 0 leaves the bytes as before, byte for byte */
static void test_dedupe_zero_same(void **state)
{
    (void)state;
    struct pattern a, b;
    pattern_init(&a, 50, 9);
    pattern_init(&b, 50, 9);
    pattern_dedupe(&b, 0, true, 10, 0);
    unsigned char x[10000], y[10000];
    pattern_fill(&a, x, sizeof x);
    pattern_fill(&b, y, sizeof y);
    assert_memory_equal(x, y, sizeof x);
}

/* dedupe_global: generators of different seeds given one shared set repeat the same chunks;
 * each with its own set, none */
static void test_dedupe_global(void **state)
{
    (void)state;
    uint64_t *ha = malloc(DD_CHUNKS * sizeof(*ha)), *hb = malloc(DD_CHUNKS * sizeof(*hb));
    assert_non_null(ha);
    assert_non_null(hb);
    for (int global = 0; global < 2; global++) {
        struct pattern a, b;
        pattern_init(&a, 50, 1);
        pattern_init(&b, 50, 2);
        pattern_dedupe(&a, 50, true, 64, global ? 0x1234 : 0);
        pattern_dedupe(&b, 50, true, 64, global ? 0x1234 : 0);
        dd_hashes(&a, ha);
        dd_hashes(&b, hb);
        unsigned shared = 0;
        for (unsigned i = 0, j = 0; i < DD_CHUNKS && j < DD_CHUNKS;) {
            if (ha[i] == hb[j]) {
                shared++;
                i++;
                j++;
            } else if (ha[i] < hb[j]) {
                i++;
            } else {
                j++;
            }
        }
        if (global)
            assert_true(shared > DD_CHUNKS / 4);   /* about half of each is the shared set */
        else
            assert_int_equal(shared, 0);
    }
    free(ha);
    free(hb);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_bytes),
        cmocka_unit_test(test_layout_matches_reference),
        cmocka_unit_test(test_compressibility),
        cmocka_unit_test(test_buffers_distinct_at_0),
        cmocka_unit_test(test_chunks_distinct_at_100),
        cmocka_unit_test(test_seeds),
        cmocka_unit_test(test_dedupe_share),
        cmocka_unit_test(test_dedupe_zero_same),
        cmocka_unit_test(test_dedupe_global),
        cmocka_unit_test(test_speed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
