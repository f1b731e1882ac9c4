/* test_dedupe.c — fio's dedupe_percentage end to end: a run writes a file once, sequentially,
 * and the file's 4 KiB chunks are hashed: about dedupe_percentage of them repeat an earlier
 * one (repeat mode, and working_set), none without it. On the code before (main at ef701b6)
 * the run refused dedupe_percentage ("deduplicable data is not supported"). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"

#define SIZE_MIB 8u
#define CHUNK 4096u

static char *dir;

static int setup(void **state)
{
    (void)state;
    dir = make_temp_dir("dedupe");
    return dir ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    remove_tree(dir);
    free(dir);
    return 0;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Write the file once with the workload, then the share (percent) of its written chunks that
 * repeat another; *written gets the chunks that are not all zeros. */
static double dup_share(const char *name, const char *workload, unsigned *written)
{
    char target[512];
    snprintf(target, sizeof target, "%s/%s.img", dir, name);
    struct json_object *doc = run_workload(dir, name, workload, &(struct run_opts){
        .target = target, .round_bytes = "8m", .extra = (const char *[]){"--size", "8m", NULL}});
    if (!doc)
        fail_msg("%s: the run failed", workload);
    json_object_put(doc);
    size_t len = 0;
    unsigned char *data = (unsigned char *)slurp_file(target, &len);
    assert_non_null(data);
    assert_int_equal(len, SIZE_MIB << 20);
    size_t n = len / CHUNK;
    uint64_t *h = calloc(n, sizeof(*h));
    assert_non_null(h);
    static const unsigned char zero[CHUNK];
    unsigned m = 0;
    for (size_t c = 0; c < n; c++) {
        const unsigned char *b = data + c * CHUNK;
        if (!memcmp(b, zero, CHUNK))
            continue;
        uint64_t x = 0xcbf29ce484222325ull;
        for (size_t i = 0; i < CHUNK; i++)
            x = (x ^ b[i]) * 0x100000001b3ull;
        h[m++] = x;
    }
    qsort(h, m, sizeof(*h), cmp_u64);
    unsigned distinct = 0;
    for (unsigned i = 0; i < m; i++)
        distinct += i == 0 || h[i] != h[i - 1];
    free(h);
    free(data);
    *written = m;
    return m ? 100.0 * (m - distinct) / m : 0;
}

static void test_dedupe_in_the_file(void **state)
{
    (void)state;
    unsigned written = 0;
    double none = dup_share("none", "rw=write,bs=64k,qd=4,buffer_compress_percentage=50",
                            &written);
    assert_true(written > 2000);   /* of 2048: every chunk written once */
    assert_true(none == 0);
    double rep = dup_share("repeat", "rw=write,bs=64k,qd=4,buffer_compress_percentage=50,"
                           "dedupe_percentage=50", &written);
    print_message("repeat: %.1f%% of %u chunks repeat one\n", rep, written);
    assert_true(written > 2000);
    assert_true(rep > 45 && rep < 55);
    double ws = dup_share("ws", "rw=write,bs=64k,qd=4,dedupe_percentage=30,"
                          "dedupe_mode=working_set,dedupe_working_set_percentage=10", &written);
    print_message("working_set: %.1f%% of %u chunks repeat one\n", ws, written);
    assert_true(ws > 25 && ws < 35);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dedupe_in_the_file),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
