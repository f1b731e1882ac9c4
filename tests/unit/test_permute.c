/* test_permute.c — the random-map permutation: a bijection on [0, n) for awkward n, every index
 * once per pass, a new order each pass, uniform-looking, deterministic per seed. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "io/permute.h"

static void check_bijection(uint64_t n, uint64_t seed)
{
    struct rng r;
    rng_seed(&r, seed);
    struct permute p;
    permute_init(&p, n, &r);
    uint8_t *seen = calloc(n, 1);
    for (uint64_t i = 0; i < n; i++) {
        uint64_t v = permute_next(&p, &r);
        assert_true(v < n);
        assert_int_equal(seen[v], 0);
        seen[v] = 1;
    }
    free(seen);
}

static void test_bijection(void **state)
{
    (void)state;
    uint64_t sizes[] = {1, 2, 3, 5, 7, 8, 100, 1000, 4097, 65535, 65536, 65537, 1000003};
    for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
        for (uint64_t seed = 1; seed <= 3; seed++)
            check_bijection(sizes[i], seed);
}

/* The second pass is again a permutation, in a different order. */
static void test_passes_differ(void **state)
{
    (void)state;
    const uint64_t n = 10000;
    struct rng r;
    rng_seed(&r, 42);
    struct permute p;
    permute_init(&p, n, &r);
    uint64_t *a = malloc(n * sizeof(*a)), *b = malloc(n * sizeof(*b));
    for (uint64_t i = 0; i < n; i++)
        a[i] = permute_next(&p, &r);
    for (uint64_t i = 0; i < n; i++)
        b[i] = permute_next(&p, &r);
    assert_int_equal(p.pass, 1);
    uint64_t same = 0;
    uint8_t *seen = calloc(n, 1);
    for (uint64_t i = 0; i < n; i++) {
        same += a[i] == b[i];
        assert_int_equal(seen[b[i]], 0);
        seen[b[i]] = 1;
    }
    assert_true(same < 10);   /* ~1 expected by chance */
    free(a);
    free(b);
    free(seen);
}

/* Order looks random: the first half of a pass covers each quarter of the range about equally,
 * and consecutive elements are not neighbours. */
static void test_spread(void **state)
{
    (void)state;
    const uint64_t n = 1 << 20;
    struct rng r;
    rng_seed(&r, 7);
    struct permute p;
    permute_init(&p, n, &r);
    uint64_t quarter[4] = {0, 0, 0, 0}, adjacent = 0, prev = UINT64_MAX;
    for (uint64_t i = 0; i < n / 2; i++) {
        uint64_t v = permute_next(&p, &r);
        quarter[v / (n / 4)]++;
        if (prev != UINT64_MAX && (v == prev + 1 || v + 1 == prev))
            adjacent++;
        prev = v;
    }
    for (int q = 0; q < 4; q++)
        assert_true(fabs((double)quarter[q] / (n / 8) - 1) < 0.01);
    assert_true(adjacent < 20);
}

static void test_deterministic(void **state)
{
    (void)state;
    struct rng r1, r2;
    rng_seed(&r1, 99);
    rng_seed(&r2, 99);
    struct permute p1, p2;
    permute_init(&p1, 12345, &r1);
    permute_init(&p2, 12345, &r2);
    for (int i = 0; i < 30000; i++)
        assert_int_equal(permute_next(&p1, &r1), permute_next(&p2, &r2));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bijection),
        cmocka_unit_test(test_passes_differ),
        cmocka_unit_test(test_spread),
        cmocka_unit_test(test_deterministic),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
