/* test_data_measure.c — measured compressibility of write data: the pattern generator's output
 * at 0/50/90/100% measured per 4 KiB chunk with zlib and lz4, zeros, merging, a short last
 * chunk, the JSON object, and the per-round merge over worker samples (metrics). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/data_measure.h"
#include "core/metrics.h"
#include "io/pattern.h"

#define CHUNKS 64u
#define LEN (CHUNKS * PATTERN_CHUNK)

/* Tolerances, in points of percent of the chunk size, around the share of random bytes the
 * pattern puts in each chunk (pattern_random_bytes(pct, 4096) / 4096).  Measured ratios, in %,
 * on 64 chunks (seed 42; zlib 1.2.13, lz4 1.9):
 *      pct   expected   zlib      lz4
 *        0   100.00    100.00    100.00   (both capped: random data does not compress)
 *       50    50.00     51.67     50.83
 *       90    10.01     11.37     10.74
 *      100     0.39      1.27      1.05   (16-byte heads: framing dominates)
 * zlib's overhead (2-byte header, Adler-32, block headers, Huffman codes over random literals)
 * is 0.9-1.7 points; lz4's (token and literal-length bytes, the final literals) 0.7-0.8 points:
 * on these chunks lz4 is not the worse of the two.  Both are checked at 3 points. */
#define TOL_ZLIB_PTS 3.0
#define TOL_LZ4_PTS 3.0

static unsigned char *filled(unsigned pct, size_t len, uint64_t seed)
{
    unsigned char *b = malloc(len);
    assert_non_null(b);
    struct pattern p;
    pattern_init(&p, pct, seed);
    pattern_fill(&p, b, len);
    return b;
}

static void test_pattern_levels(void **state)
{
    (void)state;
    const unsigned pcts[] = {0, 50, 90, 100};
    for (size_t i = 0; i < sizeof(pcts) / sizeof(pcts[0]); i++) {
        unsigned pct = pcts[i];
        unsigned char *b = filled(pct, LEN, 42);
        struct data_measure m = {.present = true, .declared_pct = pct};
        data_measure_add(&m, b, LEN);
        free(b);
        assert_int_equal(m.sample_bytes, LEN);
        assert_int_equal(m.chunks, CHUNKS);
        double expect = (double)pattern_random_bytes(pct, PATTERN_CHUNK) / PATTERN_CHUNK;
        double zr = data_measure_zlib_ratio(&m), lr = data_measure_lz4_ratio(&m);
        print_message("compress=%3u: expected ratio %.4f  zlib %.4f (%.2f%%)  lz4 %.4f (%.2f%%)\n",
                      pct, expect, zr, data_measure_zlib_pct(&m), lr, data_measure_lz4_pct(&m));
        assert_true(zr <= 1.0 && lr <= 1.0);
        assert_true(fabs(zr - expect) * 100 <= TOL_ZLIB_PTS);
        assert_true(fabs(lr - expect) * 100 <= TOL_LZ4_PTS);
        /* the compressors cannot beat the random bytes */
        assert_true(zr >= expect - 1e-9 || pct == 0);
        assert_true(lr >= expect - 1e-9 || pct == 0);
        assert_true(fabs(data_measure_zlib_pct(&m) - 100.0 * (1.0 - zr)) < 1e-9);
        assert_true(fabs(data_measure_lz4_pct(&m) - 100.0 * (1.0 - lr)) < 1e-9);
        if (pct == 0) {
            assert_true(zr >= 0.99 && lr >= 0.99);
            assert_true(zr == 1.0 && lr == 1.0);   /* capped: stored raw */
            assert_true(data_measure_zlib_pct(&m) == 0.0);
        }
    }
}

static void test_zeros(void **state)
{
    (void)state;
    unsigned char *b = calloc(1, LEN);
    assert_non_null(b);
    struct data_measure m = {0};
    data_measure_add(&m, b, LEN);
    free(b);
    print_message("zeros: zlib %.4f lz4 %.4f\n", data_measure_zlib_ratio(&m),
                  data_measure_lz4_ratio(&m));
    assert_true(data_measure_zlib_ratio(&m) < 0.02);
    assert_true(data_measure_lz4_ratio(&m) < 0.02);
    assert_true(data_measure_zlib_pct(&m) > 98.0);
}

/* Measuring in pieces (at chunk boundaries) and merging gives the whole's figures exactly. */
static void test_merge(void **state)
{
    (void)state;
    unsigned char *b = filled(70, LEN, 7);
    struct data_measure whole = {0}, a = {.present = true, .declared_pct = 70},
                        c = {.present = true, .declared_pct = 70, .generated = true};
    data_measure_add(&whole, b, LEN);
    data_measure_add(&a, b, 20 * PATTERN_CHUNK);
    data_measure_add(&c, b + 20 * PATTERN_CHUNK, LEN - 20 * PATTERN_CHUNK);
    free(b);
    struct data_measure sum = {0};
    data_measure_merge(&sum, &a);
    data_measure_merge(&sum, &c);
    assert_true(sum.present);
    assert_true(sum.generated);
    assert_int_equal(sum.declared_pct, 70);
    assert_int_equal(sum.sample_bytes, whole.sample_bytes);
    assert_int_equal(sum.zlib_bytes, whole.zlib_bytes);
    assert_int_equal(sum.lz4_bytes, whole.lz4_bytes);
    assert_int_equal(sum.chunks, whole.chunks);
    assert_int_equal(sum.zlib_bytes, a.zlib_bytes + c.zlib_bytes);
    /* add accumulates too */
    struct data_measure twice = whole;
    data_measure_merge(&twice, &whole);
    assert_int_equal(twice.sample_bytes, 2 * whole.sample_bytes);
    assert_true(fabs(data_measure_zlib_ratio(&twice) - data_measure_zlib_ratio(&whole)) < 1e-12);
}

static void test_short_last_chunk(void **state)
{
    (void)state;
    /* 3 full chunks of random data, then 1000 random bytes: 4 chunks, all stored raw */
    size_t len = 3 * PATTERN_CHUNK + 1000;
    unsigned char *b = filled(0, len, 3);
    struct data_measure m = {0};
    data_measure_add(&m, b, len);
    assert_int_equal(m.chunks, 4);
    assert_int_equal(m.sample_bytes, len);
    assert_int_equal(m.zlib_bytes, len);   /* each capped at its own size */
    assert_int_equal(m.lz4_bytes, len);
    free(b);

    /* a short chunk alone, 90%: its head is pattern_random_bytes(90, 1000) = 100 bytes */
    b = filled(90, 1000, 4);
    struct data_measure s = {0};
    data_measure_add(&s, b, 1000);
    free(b);
    assert_int_equal(s.chunks, 1);
    assert_int_equal(s.sample_bytes, 1000);
    print_message("1000-byte chunk at 90%%: zlib %llu lz4 %llu bytes\n",
                  (unsigned long long)s.zlib_bytes, (unsigned long long)s.lz4_bytes);
    assert_true(s.zlib_bytes >= 100 && s.zlib_bytes < 160);
    assert_true(s.lz4_bytes >= 100 && s.lz4_bytes < 160);

    /* nothing measured: ratios are NaN (null in the results), counts zero */
    struct data_measure e = {0};
    data_measure_add(&e, NULL, 0);
    assert_int_equal(e.chunks, 0);
    assert_true(isnan(data_measure_zlib_ratio(&e)));
    assert_true(isnan(data_measure_lz4_pct(&e)));
}

static void test_json(void **state)
{
    (void)state;
    struct data_measure m = {.present = true, .declared_pct = 90, .sample_bytes = 8192,
                             .zlib_bytes = 1024, .lz4_bytes = 2048, .chunks = 2};
    struct json_object *o = data_measure_json(&m), *v;
    assert_true(json_object_object_get_ex(o, "declared_compress_pct", &v));
    assert_int_equal(json_object_get_int(v), 90);
    assert_true(json_object_object_get_ex(o, "sample_bytes", &v));
    assert_int_equal(json_object_get_int64(v), 8192);
    assert_true(json_object_object_get_ex(o, "zlib_ratio", &v));
    assert_true(fabs(json_object_get_double(v) - 0.125) < 1e-12);
    assert_true(json_object_object_get_ex(o, "lz4_ratio", &v));
    assert_true(fabs(json_object_get_double(v) - 0.25) < 1e-12);
    assert_true(json_object_object_get_ex(o, "zlib_compress_pct", &v));
    assert_true(fabs(json_object_get_double(v) - 87.5) < 1e-9);
    assert_true(json_object_object_get_ex(o, "lz4_compress_pct", &v));
    assert_true(fabs(json_object_get_double(v) - 75.0) < 1e-9);
    assert_true(json_object_object_get_ex(o, "source", &v));
    assert_string_equal(json_object_get_string(v), "written");
    json_object_put(o);
    m.generated = true;
    m.sample_bytes = m.zlib_bytes = m.lz4_bytes = 0;
    o = data_measure_json(&m);
    assert_true(json_object_object_get_ex(o, "source", &v));
    assert_string_equal(json_object_get_string(v), "generated");
    assert_true(json_object_object_get_ex(o, "zlib_ratio", &v));
    assert_null(v);   /* nothing measured: null */
    json_object_put(o);
}

/* metrics_compute measures every worker's sample and merges them; present only when the
 * workload writes. */
static void test_metrics_merge(void **state)
{
    (void)state;
    static struct worker_stats a, b;
    memset(&a, 0, sizeof(a));
    memset(&b, 0, sizeof(b));
    hist_init(&a.lat[IO_READ]);
    hist_init(&a.lat[IO_WRITE]);
    hist_init(&b.lat[IO_READ]);
    hist_init(&b.lat[IO_WRITE]);
    const struct worker_stats *ws[] = {&a, &b};

    struct round_metrics m;
    metrics_compute(ws, 2, 1.0, 1.0, &m);   /* a read workload: no data */
    assert_false(m.data.present);
    metrics_free(&m);

    unsigned char *sa = filled(90, 16 * PATTERN_CHUNK, 1), *sb = filled(90, 8 * PATTERN_CHUNK, 2);
    a.data_writes = b.data_writes = true;
    a.data_declared_pct = b.data_declared_pct = 90;
    a.data_sample = sa;
    a.data_sample_len = 16 * PATTERN_CHUNK;
    b.data_sample = sb;
    b.data_sample_len = 8 * PATTERN_CHUNK;
    metrics_compute(ws, 2, 1.0, 1.0, &m);
    assert_true(m.data.present);
    assert_false(m.data.generated);
    assert_int_equal(m.data.declared_pct, 90);
    assert_int_equal(m.data.sample_bytes, 24 * PATTERN_CHUNK);
    assert_int_equal(m.data.chunks, 24);
    struct data_measure ref = {0};
    data_measure_add(&ref, sa, 16 * PATTERN_CHUNK);
    data_measure_add(&ref, sb, 8 * PATTERN_CHUNK);
    assert_int_equal(m.data.zlib_bytes, ref.zlib_bytes);
    assert_int_equal(m.data.lz4_bytes, ref.lz4_bytes);
    assert_true(fabs(data_measure_zlib_pct(&m.data) - 90) < 3);
    metrics_free(&m);

    /* a write round with no write completed yet: present, nothing measured */
    a.data_sample_len = b.data_sample_len = 0;
    a.data_generated = b.data_generated = true;
    metrics_compute(ws, 2, 1.0, 1.0, &m);
    assert_true(m.data.present);
    assert_true(m.data.generated);
    assert_int_equal(m.data.sample_bytes, 0);
    metrics_free(&m);
    free(sa);
    free(sb);
}

/* duplicates: chunks equal to an earlier chunk of the same call are counted (the pattern's
 * dedupe_percentage seen in a sample), and the results say so only when dedupe was declared */
static void test_duplicates(void **state)
{
    (void)state;
    enum { N = 256 };
    unsigned char *b = malloc((size_t)N * 4096);
    assert_non_null(b);
    struct pattern p;
    pattern_init(&p, 50, 3);
    pattern_fill(&p, b, 4096 * 3);                 /* A B C */
    memcpy(b + 3 * 4096, b, 4096);                 /* A */
    memcpy(b + 4 * 4096, b + 4096, 4096);          /* B */
    struct data_measure m = {.present = true};
    data_measure_add(&m, b, 5 * 4096);
    assert_int_equal(m.chunks, 5);
    assert_int_equal(m.dup_chunks, 2);
    struct json_object *o = data_measure_json(&m), *v;
    assert_false(json_object_object_get_ex(o, "sample_duplicate_pct", &v));
    json_object_put(o);

    pattern_init(&p, 50, 4);
    pattern_dedupe(&p, 50, false, 1, 0);
    pattern_fill(&p, b, (size_t)N * 4096);
    struct data_measure d = {.present = true, .declared_dedupe_pct = 50};
    data_measure_add(&d, b, (size_t)N * 4096);
    double pct = 100.0 * d.dup_chunks / d.chunks;
    assert_true(pct > 40 && pct < 60);
    o = data_measure_json(&d);
    assert_true(json_object_object_get_ex(o, "sample_duplicate_pct", &v));
    assert_true(fabs(json_object_get_double(v) - pct) < 1e-9);
    json_object_put(o);
    free(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pattern_levels),
        cmocka_unit_test(test_duplicates),
        cmocka_unit_test(test_zeros),
        cmocka_unit_test(test_merge),
        cmocka_unit_test(test_short_last_chunk),
        cmocka_unit_test(test_json),
        cmocka_unit_test(test_metrics_merge),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
