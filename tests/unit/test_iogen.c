/* test_iogen.c — the issued I/O matches the workload: block-size histogram, read share, random
 * share, zoned LBA distribution (the JEDEC enterprise mix of the PTS composite workload),
 * the random map's coverage, sequential regions per worker. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "io/iogen.h"
#include "lib/util.h"

static void parse(const char *spec, struct workload *wl)
{
    char err[ERR_LEN];
    if (wl_parse_inline(spec, wl, err, sizeof err) != 0)
        fail_msg("%s: %s", spec, err);
}

#define N_IOS 200000

/* JEDEC enterprise workload (PTS CBW): block sizes within 1 point, zones within 2 points. */
static void test_jedec_composite(void **state)
{
    (void)state;
    struct workload wl;
    parse("rw=randrw,rwmixread=40,bssplit=512/4:1k/1:1536/1:2k/1:2560/1:3k/1:3584/1:4k/67:8k/10:"
          "16k/7:32k/3:64k/3,random_distribution=zoned:50/5:30/15:20/80", &wl);
    const uint32_t sizes[] = {512, 1024, 1536, 2048, 2560, 3072, 3584, 4096, 8192, 16384, 32768, 65536};
    const double want[] = {4, 1, 1, 1, 1, 1, 1, 67, 10, 7, 3, 3};
    struct wl_range range = {0, 1ull << 30};
    struct iogen g;
    iogen_init(&g, &wl, &range, 0, 1, 42);
    unsigned count[12] = {0}, zone[3] = {0}, reads = 0;
    for (int i = 0; i < N_IOS; i++) {
        uint8_t dir;
        uint32_t len;
        uint64_t off;
        iogen_next(&g, &dir, &len, &off);
        assert_true(off + len <= range.len);
        assert_int_equal(off % iogen_natural_align(len), 0);
        size_t k = 0;
        while (k < 12 && sizes[k] != len)
            k++;
        assert_true(k < 12);
        count[k]++;
        reads += dir == IOGEN_READ;
        double at = (double)off / (double)range.len;
        zone[at < 0.05 ? 0 : at < 0.20 ? 1 : 2]++;
    }
    for (int k = 0; k < 12; k++) {
        double pct = 100.0 * count[k] / N_IOS;
        print_message("  %5u B: %5.2f%% (want %g%%)\n", sizes[k], pct, want[k]);
        assert_true(fabs(pct - want[k]) <= 1.0);
    }
    const double zwant[] = {50, 30, 20};
    for (int z = 0; z < 3; z++) {
        double pct = 100.0 * zone[z] / N_IOS;
        print_message("  zone %d: %5.2f%% of accesses (want %g%%)\n", z, pct, zwant[z]);
        assert_true(fabs(pct - zwant[z]) <= 2.0);
    }
    assert_true(fabs(100.0 * reads / N_IOS - 40) <= 1.0);
}

/* percentage_random: the workstation profile (80% random); the rest continues sequentially. */
static void test_percentage_random(void **state)
{
    (void)state;
    struct workload wl;
    parse("rw=randrw,rwmixread=80,percentage_random=80,bs=8k", &wl);
    struct wl_range range = {0, 1ull << 30};
    struct iogen g;
    iogen_init(&g, &wl, &range, 0, 1, 7);
    unsigned seq = 0, reads = 0;
    uint64_t prev_end = UINT64_MAX;
    for (int i = 0; i < N_IOS; i++) {
        uint8_t dir;
        uint32_t len;
        uint64_t off;
        iogen_next(&g, &dir, &len, &off);
        seq += off == prev_end;
        prev_end = off + len;
        reads += dir == IOGEN_READ;
    }
    /* sequential = the 20% non-random draws (a random draw lands next by chance ~never) */
    assert_true(fabs(100.0 * seq / N_IOS - 20) <= 2.0);
    assert_true(fabs(100.0 * reads / N_IOS - 80) <= 1.0);
}

/* random_map=once: the first pass writes every block exactly once. */
static void test_random_map_covers_once(void **state)
{
    (void)state;
    struct workload wl;
    parse("rw=randwrite,bs=4k", &wl);
    struct wl_range range = {1 << 20, 4096 * 10000};
    struct iogen g;
    iogen_init(&g, &wl, &range, 0, 1, 3);
    uint8_t *seen = calloc(10000, 1);
    for (int i = 0; i < 10000; i++) {
        uint8_t dir;
        uint32_t len;
        uint64_t off;
        iogen_next(&g, &dir, &len, &off);
        assert_true(off >= range.start && off + len <= range.start + range.len);
        uint64_t slot = (off - range.start) / 4096;
        assert_int_equal(seen[slot], 0);
        seen[slot] = 1;
    }
    free(seen);
    assert_false(g.use_map);   /* then independent draws */
}

/* Sequential workers each get their own slice and wrap inside it. */
static void test_sequential_split(void **state)
{
    (void)state;
    struct workload wl;
    parse("rw=write,bs=128k,numjobs=4", &wl);
    struct wl_range range = {0, 64ull << 20};
    for (unsigned id = 0; id < 4; id++) {
        struct iogen g;
        iogen_init(&g, &wl, &range, id, 4, id);
        uint64_t lo = (uint64_t)id * (16ull << 20), expect = lo;
        for (int i = 0; i < 300; i++) {   /* > 128 I/Os per slice: wraps */
            uint8_t dir;
            uint32_t len;
            uint64_t off;
            iogen_next(&g, &dir, &len, &off);
            assert_int_equal(off, expect);
            expect = off + len >= lo + (16ull << 20) ? lo : off + len;
        }
    }
}

/* Skewed distributions (fio's random_distribution): block access counts over a 1 GiB range
 * of 4 KiB blocks (262,144), against what each distribution gives by its formula. */
static int cmp_desc(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x > y ? -1 : x < y;
}

/* Draw n offsets; counts per block into c (262,144 entries); returns the share of accesses the
 * hottest `top` fraction of the blocks got, and the most accessed block in *hot. */
static double skew(const char *spec, unsigned n, uint32_t *c, double top, uint64_t *hot)
{
    struct workload wl;
    parse(spec, &wl);
    const uint64_t blocks = 262144;
    struct wl_range range = {0, blocks * 4096};
    struct iogen g;
    iogen_init(&g, &wl, &range, 0, 1, 7);
    memset(c, 0, blocks * sizeof(*c));
    for (unsigned i = 0; i < n; i++) {
        uint8_t dir;
        uint32_t len;
        uint64_t off;
        iogen_next(&g, &dir, &len, &off);
        assert_true(off + len <= range.len);
        assert_int_equal(off % 4096, 0);
        c[off / 4096]++;
    }
    *hot = 0;
    for (uint64_t b = 1; b < blocks; b++)
        if (c[b] > c[*hot])
            *hot = b;
    qsort(c, blocks, sizeof(*c), cmp_desc);
    uint64_t sum = 0;
    const uint64_t k = (uint64_t)(top * blocks);
    for (uint64_t b = 0; b < k; b++)
        sum += c[b];
    return (double)sum / n;
}

static void test_skewed(void **state)
{
    (void)state;
    uint32_t *c = xcalloc(262144, sizeof(*c));
    uint64_t hot;
    /* zipf 1.2: the hottest 1% of the blocks, sum of i^-1.2 to 2,621 over the sum to 262,144:
     * 0.878 (zeta partial sums) */
    double z = skew("rw=randread,random_distribution=zipf:1.2", 1000000, c, 0.01, &hot);
    print_message("  zipf:1.2    hottest 1%% of blocks: %.3f of accesses (formula 0.878)\n", z);
    assert_true(fabs(z - 0.878) < 0.03);
    /* pareto 0.8: 80% of the accesses to 20% of the blocks */
    double p = skew("rw=randread,random_distribution=pareto:0.8", 1000000, c, 0.2, &hot);
    print_message("  pareto:0.8  hottest 20%% of blocks: %.3f of accesses (0.8)\n", p);
    assert_true(fabs(p - 0.8) < 0.03);
    /* normal, sigma 10% of the range around the middle: 68.3% within one sigma; the hottest
     * blocks in the middle */
    struct workload wl;
    parse("rw=randread,random_distribution=normal:10", &wl);
    struct wl_range range = {0, 262144ull * 4096};
    struct iogen g;
    iogen_init(&g, &wl, &range, 0, 1, 7);
    unsigned in = 0;
    for (int i = 0; i < 200000; i++) {
        uint8_t dir;
        uint32_t len;
        uint64_t off;
        iogen_next(&g, &dir, &len, &off);
        const double x = (double)off / (double)range.len;
        in += fabs(x - 0.5) < 0.1;
    }
    print_message("  normal:10   within one sigma of the middle: %.3f (0.683)\n", in / 200000.0);
    assert_true(fabs(in / 200000.0 - 0.683) < 0.01);
    /* a centre: zipf's hottest block a quarter into the range, not spread */
    skew("rw=randread,random_distribution=zipf:1.2:0.25", 200000, c, 0.01, &hot);
    print_message("  zipf:1.2:0.25 hottest block at %.4f of the range\n", hot / 262144.0);
    assert_true(fabs(hot / 262144.0 - 0.25) < 0.001);
    /* spread (no centre): the hottest block is anywhere, and the draw is the same for a seed */
    free(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_skewed),
        cmocka_unit_test(test_jedec_composite),
        cmocka_unit_test(test_percentage_random),
        cmocka_unit_test(test_random_map_covers_once),
        cmocka_unit_test(test_sequential_split),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
