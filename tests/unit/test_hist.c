/* test_hist.c — log-linear histogram: bucket bounds, exactness of count/sum/min/max/mean,
 * percentile accuracy against exact nearest-rank percentiles of the raw values, merge. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/hist.h"
#include "lib/rng.h"

/* Worst relative error seen by check_one(): per distribution (printed by
 * check_distribution) and overall (printed by the group teardown). */
static double worst_rel_err, dist_rel_err;
static uint64_t worst_rel_exact, worst_rel_got;

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Exact nearest rank for p = num/den (as a fraction of 1): ceil(num*n/den), in integers. */
static uint64_t exact_rank(uint64_t num, uint64_t den, uint64_t n)
{
    unsigned __int128 r = ((unsigned __int128)num * n + den - 1) / den;
    if (r < 1)
        r = 1;
    return (uint64_t)r;
}

static double rel_err(uint64_t got, uint64_t exact)
{
    uint64_t diff = got > exact ? got - exact : exact - got;
    if (exact == 0)
        return diff ? INFINITY : 0.0;
    return (double)diff / (double)exact;
}

static void check_one(const struct hist *h, const uint64_t *sorted, size_t n, double p,
                      uint64_t num, uint64_t den)
{
    uint64_t exact = sorted[exact_rank(num, den, n) - 1];
    uint64_t got = hist_percentile(h, p);
    double e = rel_err(got, exact);
    if (e > dist_rel_err)
        dist_rel_err = e;
    if (e > worst_rel_err) {
        worst_rel_err = e;
        worst_rel_exact = exact;
        worst_rel_got = got;
    }
    if (e > HIST_REL_ERROR) {
        print_error("p%.4f: hist %llu exact %llu rel.err %.6f > %.6f\n", p,
                    (unsigned long long)got, (unsigned long long)exact, e, HIST_REL_ERROR);
        fail();
    }
}

/* Build a histogram of vals[0..n), then check count/sum/min/max/mean exactly and the
 * percentiles against the sorted values: the six acceptance percentiles, and every
 * 0.1 step from 0.1 to 100.  mean_exact=false where the uint64 sum cannot hold the total. */
static void check_distribution(const char *name, const uint64_t *vals, size_t n,
                               bool mean_exact)
{
    dist_rel_err = 0.0;
    static struct hist h;
    hist_init(&h);
    uint64_t *sorted = malloc(n * sizeof(*sorted));
    assert_non_null(sorted);
    unsigned __int128 sum = 0;
    for (size_t i = 0; i < n; i++) {
        hist_add(&h, vals[i]);
        sorted[i] = vals[i];
        sum += vals[i];
    }
    qsort(sorted, n, sizeof(*sorted), cmp_u64);

    assert_int_equal(h.count, n);
    assert_int_equal(h.min, sorted[0]);
    assert_int_equal(h.max, sorted[n - 1]);
    uint64_t bsum = 0;
    for (unsigned i = 0; i < HIST_NBUCKETS; i++)
        bsum += h.buckets[i];
    assert_int_equal(bsum, n);
    if (mean_exact) {
        assert_true(sum <= UINT64_MAX);
        assert_int_equal(h.sum, (uint64_t)sum);
        long double exact_mean = (long double)sum / (long double)n;
        double m = hist_mean(&h);
        assert_true(fabsl((long double)m - exact_mean) <= exact_mean * 1e-15L);
    }

    static const struct { double p; uint64_t num, den; } ps[] = {
        {50, 50, 100}, {90, 90, 100}, {99, 99, 100}, {99.9, 999, 1000},
        {99.99, 9999, 10000}, {99.999, 99999, 100000}, {100, 1, 1},
    };
    for (size_t i = 0; i < sizeof(ps) / sizeof(ps[0]); i++)
        check_one(&h, sorted, n, ps[i].p, ps[i].num, ps[i].den);
    for (uint64_t k = 1; k <= 1000; k++)
        check_one(&h, sorted, n, (double)k / 10.0, k, 1000);

    /* p = 100 is the max exactly; the lowest rank is the min exactly. */
    assert_int_equal(hist_percentile(&h, 100.0), sorted[n - 1]);
    assert_int_equal(hist_percentile(&h, 1e-9), sorted[0]);
    free(sorted);
    print_message("  %-12s max relative percentile error %.4f%%\n", name, dist_rel_err * 100);
}

#define NVALS 200000

static uint64_t *alloc_vals(void)
{
    uint64_t *v = malloc(NVALS * sizeof(*v));
    assert_non_null(v);
    return v;
}

static double uniform01(struct rng *r)
{
    return (double)(rng_next(r) >> 11) * 0x1.0p-53;
}

static double normal(struct rng *r)
{
    double u1 = uniform01(r), u2 = uniform01(r);
    if (u1 < 1e-300)
        u1 = 1e-300;
    return sqrt(-2.0 * log(u1)) * cos(2.0 * M_PI * u2);
}

static void test_bucket_bounds(void **state)
{
    (void)state;
    assert_int_equal(HIST_NBUCKETS, 3776);
    assert_int_equal(hist_bucket_low(0), 0);
    assert_int_equal(hist_bucket_high(HIST_NBUCKETS - 1), UINT64_MAX);
    for (unsigned i = 0; i < HIST_NBUCKETS; i++) {
        uint64_t lo = hist_bucket_low(i), hi = hist_bucket_high(i);
        assert_true(lo <= hi);
        /* contiguous: each bucket starts right after the previous one ends */
        if (i > 0)
            assert_int_equal(lo, hist_bucket_high(i - 1) + 1);
        /* consistent with hist_index at both ends (and just outside them) */
        assert_int_equal(hist_index(lo), i);
        assert_int_equal(hist_index(hi), i);
        if (lo > 0)
            assert_int_equal(hist_index(lo - 1), i - 1);
        if (hi < UINT64_MAX)
            assert_int_equal(hist_index(hi + 1), i + 1);
        if (i < 128) {
            assert_int_equal(lo, i);        /* one bucket per value below 128 ns */
            assert_int_equal(hi, i);
        } else {
            /* width/low <= 1/64 */
            unsigned __int128 width = (unsigned __int128)(hi - lo) + 1;
            assert_true(width * 64 <= lo);
            /* the reported midpoint (before clamping) is within 1/128 of every value of the
             * bucket: checking the two ends is enough */
            uint64_t mid = lo + (hi - lo) / 2;
            assert_true((unsigned __int128)(mid - lo) * 128 <= lo);
            assert_true((unsigned __int128)(hi - mid) * 128 <= hi);
        }
    }
}

static void test_random_values_in_bucket(void **state)
{
    (void)state;
    struct rng r;
    rng_seed(&r, 42);
    for (int i = 0; i < 1000000; i++) {
        unsigned bits = (unsigned)rng_below(&r, 65);        /* 0..64 significant bits */
        uint64_t v = bits == 0 ? 0 : rng_next(&r) >> (64 - bits);
        unsigned idx = hist_index(v);
        assert_true(idx < HIST_NBUCKETS);
        assert_true(hist_bucket_low(idx) <= v);
        assert_true(v <= hist_bucket_high(idx));
    }
    /* all powers of two and their neighbours */
    for (unsigned b = 0; b < 64; b++) {
        uint64_t p2 = UINT64_C(1) << b;
        uint64_t cand[3] = {p2 - 1, p2, p2 + 1};
        for (int j = 0; j < 3; j++) {
            unsigned idx = hist_index(cand[j]);
            assert_true(idx < HIST_NBUCKETS);
            assert_true(hist_bucket_low(idx) <= cand[j] && cand[j] <= hist_bucket_high(idx));
        }
    }
}

static void test_empty_and_single(void **state)
{
    (void)state;
    static struct hist h;
    hist_init(&h);
    assert_int_equal(h.count, 0);
    assert_int_equal(h.sum, 0);
    assert_int_equal(h.min, UINT64_MAX);
    assert_int_equal(h.max, 0);
    for (unsigned i = 0; i < HIST_NBUCKETS; i++)
        assert_int_equal(h.buckets[i], 0);
    assert_true(hist_mean(&h) == 0.0);
    assert_int_equal(hist_percentile(&h, 50), 0);
    assert_int_equal(hist_percentile(&h, 100), 0);

    /* one value: every percentile is that value exactly, though its bucket is 2^21 wide */
    hist_add(&h, 123456789);
    assert_int_equal(hist_percentile(&h, 0.001), 123456789);
    assert_int_equal(hist_percentile(&h, 50), 123456789);
    assert_int_equal(hist_percentile(&h, 99.999), 123456789);
    assert_int_equal(hist_percentile(&h, 100), 123456789);
    assert_true(hist_mean(&h) == 123456789.0);

    /* three values in one wide bucket: the median is the bucket midpoint clamped to
     * [min, max]; bucket of 1,000,000: shift 13, [999424, 1007615], midpoint 1003519 */
    hist_init(&h);
    hist_add(&h, 1000000);
    hist_add(&h, 1000001);
    hist_add(&h, 1000002);
    assert_int_equal(hist_bucket_low(hist_index(1000000)), 999424);
    assert_int_equal(hist_bucket_high(hist_index(1000000)), 1007615);
    assert_int_equal(hist_percentile(&h, 50), 1000002);     /* clamped to max */
    assert_int_equal(hist_percentile(&h, 1), 1000000);      /* rank 1 = min */
    assert_true(hist_mean(&h) == 1000001.0);
}

static void test_rank_edges(void **state)
{
    (void)state;
    static struct hist h;
    hist_init(&h);
    /* 1000 values 1..1000: nearest rank of p is value ceil(10 p) */
    for (uint64_t v = 1; v <= 1000; v++)
        hist_add(&h, v);
    assert_int_equal(hist_percentile(&h, 0.1), 1);      /* rank 1 */
    assert_int_equal(hist_percentile(&h, 0.05), 1);     /* rank ceil(0.5) = 1 */
    assert_int_equal(hist_percentile(&h, 10), 100);     /* 100 is in the exact range */
    /* rank 999 (99.9 is not exact in binary; must not round up to rank 1000) */
    uint64_t p999 = hist_percentile(&h, 99.9);
    assert_true(rel_err(p999, 999) <= HIST_REL_ERROR);
    assert_int_not_equal(p999, 1000);
    assert_int_equal(hist_percentile(&h, 100), 1000);
    assert_int_equal(hist_percentile(&h, 150), 1000);   /* out of range: clamped */
    assert_int_equal(hist_percentile(&h, 0), 1);
    assert_int_equal(hist_percentile(&h, -3), 1);
    assert_int_equal(hist_percentile(&h, NAN), 1);
    assert_true(hist_mean(&h) == 500.5);
}

static void test_small_values_exact(void **state)
{
    (void)state;
    struct rng r;
    rng_seed(&r, 7);
    uint64_t *v = alloc_vals();
    for (size_t i = 0; i < NVALS; i++)
        v[i] = rng_below(&r, 128);
    check_distribution("<128ns", v, NVALS, true);

    /* below 128 ns the histogram is exact: every percentile equals the exact one */
    static struct hist h;
    hist_init(&h);
    for (size_t i = 0; i < NVALS; i++)
        hist_add(&h, v[i]);
    qsort(v, NVALS, sizeof(*v), cmp_u64);
    for (uint64_t k = 1; k <= 1000; k++)
        assert_int_equal(hist_percentile(&h, (double)k / 10.0), v[exact_rank(k, 1000, NVALS) - 1]);
    assert_int_equal(hist_percentile(&h, 99.999), v[exact_rank(99999, 100000, NVALS) - 1]);
    free(v);
}

static void test_uniform(void **state)
{
    (void)state;
    struct rng r;
    rng_seed(&r, 1);
    uint64_t *v = alloc_vals();
    for (size_t i = 0; i < NVALS; i++)     /* 1 us .. 10 ms */
        v[i] = 1000 + rng_below(&r, 10000000 - 1000 + 1);
    check_distribution("uniform", v, NVALS, true);
    free(v);
}

static void test_lognormal(void **state)
{
    (void)state;
    struct rng r;
    rng_seed(&r, 2);
    uint64_t *v = alloc_vals();
    /* median 100 us, sigma 1.5 in log space: spans ~1 us .. ~100 ms */
    for (size_t i = 0; i < NVALS; i++) {
        double x = exp(log(100000.0) + 1.5 * normal(&r));
        v[i] = x < 1.0 ? 1 : (uint64_t)x;
    }
    check_distribution("lognormal", v, NVALS, true);
    free(v);
}

static void test_bimodal(void **state)
{
    (void)state;
    struct rng r;
    rng_seed(&r, 3);
    uint64_t *v = alloc_vals();
    /* 95%: 80 us +- 10 us (cache hits); 5%: 5 ms +- 1 ms (GC stalls) */
    for (size_t i = 0; i < NVALS; i++) {
        if (rng_below(&r, 100) < 95)
            v[i] = 70000 + rng_below(&r, 20001);
        else
            v[i] = 4000000 + rng_below(&r, 2000001);
    }
    check_distribution("bimodal", v, NVALS, true);
    free(v);
}

static void test_huge_2_40(void **state)
{
    (void)state;
    struct rng r;
    rng_seed(&r, 4);
    uint64_t *v = alloc_vals();
    /* 2^40 +- 2^38 (about 18 minutes), straddling the 2^40 bucket boundary; the sum
     * (< 2^58) still fits, so the mean is checked exactly */
    for (size_t i = 0; i < NVALS; i++)
        v[i] = (UINT64_C(1) << 40) - (UINT64_C(1) << 38) + rng_below(&r, UINT64_C(1) << 39);
    check_distribution("~2^40", v, NVALS, true);
    free(v);
}

static void test_huge_2_63(void **state)
{
    (void)state;
    struct rng r;
    rng_seed(&r, 5);
    uint64_t *v = alloc_vals();
    /* 2^63 +- 2^61, plus the extremes; the uint64 sum wraps here, so the mean is not
     * checked (2^64 ns is 584 years of summed latency: not a real-world concern) */
    for (size_t i = 0; i < NVALS; i++)
        v[i] = (UINT64_C(1) << 63) - (UINT64_C(1) << 61) + rng_below(&r, UINT64_C(1) << 62);
    v[0] = UINT64_MAX;
    v[1] = UINT64_C(1) << 63;
    check_distribution("~2^63", v, NVALS, false);
    free(v);
}

static void test_merge(void **state)
{
    (void)state;
    static struct hist a, b, all, empty;
    struct rng r;
    rng_seed(&r, 6);
    hist_init(&a);
    hist_init(&b);
    hist_init(&all);
    hist_init(&empty);
    for (int i = 0; i < 100000; i++) {
        unsigned bits = 1 + (unsigned)rng_below(&r, 40);
        uint64_t v = rng_next(&r) >> (64 - bits);
        hist_add(&all, v);
        /* a gets small values only, b large ones: min and max come from different sides */
        hist_add(v < 100000 ? &a : &b, v);
    }
    assert_true(a.count > 0 && b.count > 0);
    hist_merge(&a, &b);
    assert_memory_equal(&a, &all, sizeof(all));
    assert_int_equal(hist_percentile(&a, 99.9), hist_percentile(&all, 99.9));

    /* merging an empty histogram changes nothing; merging into an empty one copies */
    hist_merge(&a, &empty);
    assert_memory_equal(&a, &all, sizeof(all));
    hist_merge(&empty, &all);
    assert_memory_equal(&empty, &all, sizeof(all));
    assert_int_equal(empty.min, all.min);
    assert_int_equal(empty.max, all.max);
}

static int report_worst(void **state)
{
    (void)state;
    print_message("max relative percentile error measured: %.6f (%.4f%%; hist %llu vs exact %llu); "
                  "bound %.6f\n",
                  worst_rel_err, worst_rel_err * 100, (unsigned long long)worst_rel_got,
                  (unsigned long long)worst_rel_exact, HIST_REL_ERROR);
    return 0;
}

/* The tail rule: at least HIST_TAIL_MIN observations beyond the percentile, at its edges. */
static void test_pct_supported(void **state)
{
    (void)state;
    assert_true(hist_pct_supported(10000000, 99.9999));
    assert_false(hist_pct_supported(9999999, 99.9999));
    assert_true(hist_pct_supported(1000000, 99.999));
    assert_false(hist_pct_supported(999999, 99.999));
    assert_true(hist_pct_supported(1000, 99));
    assert_false(hist_pct_supported(999, 99));
    assert_true(hist_pct_supported(20, 50));
    assert_false(hist_pct_supported(19, 50));
    assert_false(hist_pct_supported(UINT64_MAX, 0));
    assert_false(hist_pct_supported(UINT64_MAX, 100.5));
    assert_false(hist_pct_supported(0, 99));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bucket_bounds),
        cmocka_unit_test(test_random_values_in_bucket),
        cmocka_unit_test(test_empty_and_single),
        cmocka_unit_test(test_rank_edges),
        cmocka_unit_test(test_small_values_exact),
        cmocka_unit_test(test_uniform),
        cmocka_unit_test(test_lognormal),
        cmocka_unit_test(test_bimodal),
        cmocka_unit_test(test_huge_2_40),
        cmocka_unit_test(test_huge_2_63),
        cmocka_unit_test(test_merge),
        cmocka_unit_test(test_pct_supported),
    };
    return cmocka_run_group_tests(tests, NULL, report_worst);
}
