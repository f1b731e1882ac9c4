/* test_fastgen.c — the fast pass's offsets (io/fastgen.h): v_gc is the Lambert-W oracle's;
 * with 1 and 4 workers every unit of the range is written fresh exactly once, by one worker; a
 * rewrite comes after its unit's first write; the pass writes (1 + rho) fills (within the
 * rounding of one unit per region and worker); region r's invalid share (its writes that a later
 * write of the pass supersedes) is 1 - v_gc^(1 - x_r) within 0.002 (the rounding of its count of
 * choices, half a write of ~650); the same seed gives the same sequence; rho 0 writes the range
 * once; iogen hands a worker its generator's units as 4 KiB writes. 200,000 units, well under
 * a second. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/fastgen.h"
#include "io/iogen.h"
#include "sim/sim.h"

#define UNITS 200000u

static void test_v_gc_is_the_oracles(void **state)
{
    (void)state;
    const double rhos[] = {0.02, 0.1, 0.246, 0.311, 0.5, 1.0, 3.0};
    for (unsigned i = 0; i < sizeof(rhos) / sizeof(rhos[0]); i++) {
        const double want = 1.0 - 1.0 / sim_wa_oracle(rhos[i]);
        assert_true(fabs(fastgen_v_gc(rhos[i]) - want) < 1e-9);
    }
    assert_true(fastgen_v_gc(0) == 1.0);
    assert_true(fastgen_invalid_share(0, 3, FASTGEN_REGIONS) == 0);
    double last = 2;
    for (unsigned r = 0; r < FASTGEN_REGIONS; r++) {   /* the oldest region most invalidated */
        const double s = fastgen_invalid_share(0.311, r, FASTGEN_REGIONS);
        assert_true(s > 0 && s < last);
        last = s;
    }
}

struct write_rec {
    uint32_t unit;
    uint8_t worker, region;
};

/* The pass of n workers, in turn (one write each, as workers that progress alike). */
static struct write_rec *pass(double rho, unsigned n, uint64_t seed, uint64_t *count)
{
    struct fastgen g[4];
    uint64_t total = 0;
    for (unsigned w = 0; w < n; w++) {
        assert_int_equal(fastgen_init(&g[w], UNITS, rho, seed, w, n), 0);
        assert_true(g[w].length == fastgen_length_of(UNITS, rho, w, n));
        total += g[w].length;
    }
    struct write_rec *out = calloc(total, sizeof(*out));
    uint64_t k = 0;
    for (bool more = true; more;) {
        more = false;
        for (unsigned w = 0; w < n; w++) {
            if (g[w].issued >= g[w].length)
                continue;
            more = true;
            uint64_t u = fastgen_next(&g[w]);   /* then the region it was written in */
            assert_true(u < UNITS);
            out[k++] = (struct write_rec){(uint32_t)u, (uint8_t)w,
                                          (uint8_t)fastgen_region(&g[w])};
        }
    }
    assert_true(k == total);
    for (unsigned w = 0; w < n; w++) {
        for (int i = 0; i < 1000; i++)   /* past the pass: its own share still */
            (void)fastgen_next(&g[w]);
        fastgen_free(&g[w]);
    }
    *count = total;
    return out;
}

static void check_pass(double rho, unsigned n)
{
    uint64_t count;
    struct write_rec *wr = pass(rho, n, 48, &count);
    int8_t *owner = malloc(UNITS);
    memset(owner, -1, UNITS);
    int64_t *last = malloc(UNITS * sizeof(*last));   /* the index of each unit's last write */
    for (uint64_t i = 0; i < count; i++) {
        if (owner[wr[i].unit] < 0)
            owner[wr[i].unit] = (int8_t)wr[i].worker;
        assert_int_equal(owner[wr[i].unit], wr[i].worker);   /* disjoint shares */
        last[wr[i].unit] = (int64_t)i;
    }
    for (uint64_t u = 0; u < UNITS; u++)
        assert_true(owner[u] >= 0);   /* every unit written */
    const double fills = (double)count / UNITS;
    assert_true(fabs(fills - (1 + rho)) < (double)(FASTGEN_REGIONS * n) / UNITS);
    /* each region's writes superseded later in the pass */
    uint64_t wrote[4][FASTGEN_REGIONS] = {{0}}, dead[4][FASTGEN_REGIONS] = {{0}};
    for (uint64_t i = 0; i < count; i++) {
        wrote[wr[i].worker][wr[i].region]++;
        dead[wr[i].worker][wr[i].region] += last[wr[i].unit] != (int64_t)i;
    }
    double worst = 0;
    for (unsigned w = 0; w < n; w++)
        for (unsigned r = 0; r + 1 < FASTGEN_REGIONS; r++) {
            const double got = (double)dead[w][r] / (double)wrote[w][r];
            const double d = fabs(got - fastgen_invalid_share(rho, r, FASTGEN_REGIONS));
            worst = d > worst ? d : worst;
        }
    print_message("rho %.3f, %u workers: %.4f fills, worst region off by %.5f\n", rho, n, fills,
                  worst);
    assert_true(worst < 0.002);
    free(owner);
    free(last);
    free(wr);
}

static void test_every_unit_fresh_once_and_the_shares(void **state)
{
    (void)state;
    check_pass(0.311, 1);
    check_pass(0.311, 4);
    check_pass(0.155, 4);
    check_pass(0.622, 3);
}

static void test_deterministic_and_rho_zero(void **state)
{
    (void)state;
    uint64_t a_n, b_n, c_n;
    struct write_rec *a = pass(0.25, 2, 7, &a_n), *b = pass(0.25, 2, 7, &b_n),
                     *c = pass(0.25, 2, 8, &c_n);
    assert_true(a_n == b_n && !memcmp(a, b, a_n * sizeof(*a)));
    assert_true(a_n != c_n || memcmp(a, c, a_n * sizeof(*a)));
    free(a);
    free(b);
    free(c);
    struct write_rec *z = pass(0, 4, 1, &a_n);
    assert_true(a_n == UNITS);   /* the range once, in a random order */
    free(z);
    struct fastgen g;
    assert_int_equal(fastgen_init(&g, 3, 0.3, 1, 0, 4), -1);   /* an empty share */
}

/* iogen's offset source (wl->fastpass): each worker's writes are its generator's units, 4 KiB
 * each, from the range's start. */
static void test_iogen_takes_the_offsets(void **state)
{
    (void)state;
    struct workload wl;
    char err[256];
    wl_init(&wl);
    assert_int_equal(wl_set(&wl, "rw", "randwrite", "test", err, sizeof(err)), 0);
    wl.bs[0] = (struct wl_bs){.size = 4096, .weight = 100};
    wl.n_bs = 1;
    wl.fastpass = (struct wl_fastpass){.on = true, .rho = 0.3, .seed = 5};
    const struct wl_range range = {.start = 1 << 20, .len = 4096u * 5000};
    for (unsigned w = 0; w < 2; w++) {
        struct iogen g;
        struct fastgen f;
        iogen_init(&g, &wl, &range, w, 2, 99 + w);
        assert_true(g.fast);
        assert_int_equal(fastgen_init(&f, 5000, 0.3, 5, w, 2), 0);
        for (uint64_t i = 0; i < f.length + 10; i++) {
            uint8_t dir;
            uint32_t len;
            uint64_t off;
            iogen_next(&g, &dir, &len, &off);
            assert_int_equal(dir, IOGEN_WRITE);
            assert_int_equal(len, 4096);
            assert_true(off == range.start + fastgen_next(&f) * 4096);
        }
        fastgen_free(&f);
        iogen_free(&g);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_v_gc_is_the_oracles),
        cmocka_unit_test(test_every_unit_fresh_once_and_the_shares),
        cmocka_unit_test(test_deterministic_and_rho_zero),
        cmocka_unit_test(test_iogen_takes_the_offsets),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
