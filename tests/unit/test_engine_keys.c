/* test_engine_keys.c — every workload key is honoured or refused by every engine.
 *
 * Walks every key wl_set takes (wl_key_at) through engine_keys.h's table:
 *   - each key has a row, and each row is a key of the grammar (no stale row);
 *   - each row says how, in words, for the native engines, the sim engine and the fio writer;
 *   - native and sim "applied": the row's sample reaches the workload model their loop draws
 *     from (the workload differs from the default one);
 *   - fio: with the sample, the generated job file carries the row's line (rate_iops=2000,
 *     random_distribution=zipf:1.2, thinktime=200us, iodepth_batch_submit=...), and a value
 *     the writer refuses is one line at prepare time (engine_keys_check) and no job file.
 * On the code before this table the fio lines for rate_iops, thinktime, zipf and the batches
 * were missing (the writer dropped them). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "engine/engine_keys.h"
#include "engine/fio_job.h"
#include "io/workload.h"

static int job_for(const char *spec, char *job, size_t len, char *err, size_t errlen)
{
    struct workload wl;
    if (wl_parse_inline(spec, &wl, err, errlen) != 0)
        return -1;
    struct wl_range range;
    if (wl_check_target(&wl, 256ull << 20, 512, "t", &range, err, errlen) != 0)
        return -1;
    struct fio_job_opts o = {.name = "k", .filename = "/dev/null", .ioengine = "io_uring",
                             .runtime_ns = 1000000000ull};
    return fio_job_write(&wl, &range, &o, job, len, err, errlen);
}

/* docs/workloads.md's table, with PTSBENCH_PRINT_KEY_TABLE=1 in the environment. */
static void print_table(void)
{
    printf("| key | io_uring, libaio | sim | fio job writer |\n|---|---|---|---|\n");
    for (size_t i = 0; i < engine_keys_n; i++) {
        const struct engine_key *k = &engine_keys[i];
        printf("| `%s` |", k->key);
        for (int c = 0; c < EK_NCOLS; c++)
            printf(" %s: %s |", engine_key_how_name(k->col[c].how), k->col[c].what);
        printf("\n");
    }
}

static void test_every_key_has_a_row(void **state)
{
    (void)state;
    if (getenv("PTSBENCH_PRINT_KEY_TABLE"))
        print_table();
    unsigned missing = 0, n = 0;
    for (size_t i = 0; wl_key_at(i); i++, n++)
        if (!engine_key_find(wl_key_at(i))) {
            print_message("no row for key '%s'\n", wl_key_at(i));
            missing++;
        }
    assert_int_equal(missing, 0);
    assert_true(n > 50);
    for (size_t r = 0; r < engine_keys_n; r++) {
        bool known = false;
        for (size_t i = 0; wl_key_at(i) && !known; i++)
            known = !strcmp(wl_key_at(i), engine_keys[r].key);
        if (!known)
            print_message("row '%s' is no key of the grammar\n", engine_keys[r].key);
        assert_true(known);
        for (int c = 0; c < EK_NCOLS; c++)
            assert_true(engine_keys[r].col[c].what && *engine_keys[r].col[c].what);
    }
}

static void test_native_and_sim_take_every_applied_key(void **state)
{
    (void)state;
    struct workload base, wl;
    char err[512];
    assert_int_equal(wl_parse_inline("name=inline", &base, err, sizeof err), 0);
    for (size_t r = 0; r < engine_keys_n; r++) {
        const struct engine_key *k = &engine_keys[r];
        if (wl_parse_inline(k->sample, &wl, err, sizeof err) != 0)
            fail_msg("%s: sample '%s' refused: %s", k->key, k->sample, err);
        for (int c = EK_NATIVE; c <= EK_SIM; c++)
            if (k->col[c].how == EK_APPLIED && !memcmp(&wl, &base, sizeof wl))
                fail_msg("%s: applied by the loop, but '%s' leaves the workload as the default",
                         k->key, k->sample);
    }
}

static void test_fio_job_carries_every_key(void **state)
{
    (void)state;
    static char job[16384];
    char err[512], want[256];
    unsigned checked = 0;
    for (size_t r = 0; r < engine_keys_n; r++) {
        const struct engine_key *k = &engine_keys[r];
        if (k->col[EK_FIO].how == EK_REFUSED)
            assert_non_null(k->fio_refuse);
        if (!k->fio_line)
            continue;
        if (job_for(k->sample, job, sizeof job, err, sizeof err) != 0)
            fail_msg("%s: '%s': no job file: %s", k->key, k->sample, err);
        snprintf(want, sizeof want, "\n%s", k->fio_line);
        if (!strstr(job, want))
            fail_msg("%s: '%s': the job file has no line '%s':\n%s", k->key, k->sample,
                     k->fio_line, job);
        checked++;
    }
    print_message("%u keys found in their job files\n", checked);
    assert_true(checked >= 35);
}

static void test_fio_refusals_are_one_line_at_prepare(void **state)
{
    (void)state;
    static char job[16384];
    const struct engine_ops *fio = engine_find("fio"), *uring = engine_find("io_uring");
    assert_non_null(fio);
    assert_non_null(uring);
    unsigned refusals = 0;
    for (size_t r = 0; r < engine_keys_n; r++) {
        const struct engine_key *k = &engine_keys[r];
        if (!k->fio_refuse)
            continue;
        struct workload wl;
        char err[512] = "";
        assert_int_equal(wl_parse_inline(k->fio_refuse, &wl, err, sizeof err), 0);
        assert_int_equal(engine_keys_check(uring, &wl, err, sizeof err), 0);
        assert_int_equal(engine_keys_check(fio, &wl, err, sizeof err), -1);
        print_message("%s: %s\n", k->fio_refuse, err);
        assert_non_null(strstr(err, k->key));
        assert_null(strchr(err, '\n'));
        assert_int_equal(job_for(k->fio_refuse, job, sizeof job, err, sizeof err), -1);
        assert_string_equal(job, "");
        refusals++;
    }
    assert_true(refusals >= 1);
}

/* The values: fio's syntax, exact. */
static void test_fio_values(void **state)
{
    (void)state;
    static char job[16384];
    char err[512];
    assert_int_equal(job_for("random_distribution=pareto:0.3:0.25", job, sizeof job, err,
                             sizeof err), 0);
    assert_non_null(strstr(job, "\nrandom_distribution=pareto:0.29999999999999999:0.25\n"));
    assert_non_null(strstr(job, "\nnorandommap=1\n"));
    assert_int_equal(job_for("random_distribution=normal:10", job, sizeof job, err,
                             sizeof err), 0);
    assert_non_null(strstr(job, "\nrandom_distribution=normal:10\n"));
    assert_int_equal(job_for("thinktime=2ms", job, sizeof job, err, sizeof err), 0);
    assert_non_null(strstr(job, "\nthinktime=2000us\nthinktime_blocks=1\n"));
    /* thinktime at depth is refused for every engine: fio's depth would be 1 */
    struct workload wl;
    assert_int_equal(wl_parse_inline("thinktime=200,iodepth=8", &wl, err, sizeof err), -1);
    assert_non_null(strstr(err, "thinktime with iodepth=8"));
    assert_int_equal(wl_parse_inline("iodepth=8,iodepth_batch_complete_max=4", &wl, err,
                                     sizeof err), -1);
    assert_non_null(strstr(err, "iodepth_batch_complete_max=4 below iodepth=8"));
    assert_int_equal(wl_parse_inline("iodepth_batch_complete_min=0", &wl, err, sizeof err), -1);
    assert_non_null(strstr(err, "poll"));
    /* the canonical form keeps it (results' workload.spec) */
    char spec[1024];
    assert_int_equal(wl_parse_inline("iodepth=8,iodepth_batch_complete_max=8", &wl, err,
                                     sizeof err), 0);
    wl_format(&wl, spec, sizeof spec);
    assert_non_null(strstr(spec, ",iodepth_batch_complete_max=8"));
}

/* force_async=N: the io_uring engine's marking on a target without nowait I/O. */
static void test_force_async_mapping(void **state)
{
    (void)state;
    struct workload wl;
    char err[256];
    unsigned pct = 99;
    assert_int_equal(wl_parse_inline("bs=4096,iodepth=32", &wl, err, sizeof err), 0);
    assert_int_equal(fio_job_force_async(&wl, false, 2, &pct), 0);   /* takes nowait I/O */
    assert_int_equal(pct, 0);
    assert_int_equal(fio_job_force_async(&wl, true, 2, &pct), 0);    /* 32 <= 16 x 2 */
    assert_int_equal(fio_job_force_async(&wl, true, 1, &pct), 1);    /* 32 > 16 x 1 */
    assert_int_equal(pct, 100);
    assert_int_equal(wl_parse_inline("bssplit=4096/70:131072/30,iodepth=4", &wl, err,
                                     sizeof err), 0);
    assert_int_equal(fio_job_force_async(&wl, true, 2, &pct), 3);    /* 30%: every 3rd */
    assert_int_equal(pct, 30);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_key_has_a_row),
        cmocka_unit_test(test_native_and_sim_take_every_applied_key),
        cmocka_unit_test(test_fio_job_carries_every_key),
        cmocka_unit_test(test_fio_refusals_are_one_line_at_prepare),
        cmocka_unit_test(test_fio_values),
        cmocka_unit_test(test_force_async_mapping),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
