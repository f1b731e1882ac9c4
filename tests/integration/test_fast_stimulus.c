/* test_fast_stimulus.c — the fast pass as the stimulus needs it (issue 48, core/run.c
 * run_fastpass, core/fastpass.h fastpass_unit_of and fastpass_threads):
 *   - the database mix (profiles/database.ini: 8 KiB, 67 % reads, 1 x QD 32) on the simulated
 *     drive: the pass writes 8 KiB units (unit_bytes 8192, its bytes a whole number of them) at
 *     QD 32 x max(1, 4) threads;
 *   - 4 KiB random writes with the default random map: after the pass the stimulus draws without
 *     one (the workload record's spec says random_map=off, the pass's record says why, the plan
 *     says so); a workload naming its map (norandommap=0: always) keeps it;
 *   - a file whose range holds too few units for max(workers, 4) shares: fewer threads, said in
 *     the record and on the console;
 *   - WDPC's floor after a checked pass: the guard's lag (0.5 fill), not the default 1 fill; a
 *     --wdpc-fills given is kept.
 * On the code before this change the pass wrote 4 KiB units at the stimulus's workers and the
 * stimulus kept its map: every case fails there. A few seconds. */
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

#include "helpers.h"

#define SIM_TARGET "sim:generic-mlc25,blocks_per_plane=16"

static char *dir;

static int setup(void **state)
{
    (void)state;
    dir = make_temp_dir("faststim");
    return dir ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    remove_tree(dir);
    free(dir);
    return 0;
}

/* A short run with the fast pass (precondition "fast" or "fast:RHO"); stdout in *text. */
static struct json_object *fast_run(const char *name, const char *target, const char *wl,
                                    const char *precondition, const char *size, char **text)
{
    char out[512];
    snprintf(out, sizeof(out), "%s/%s", dir, name);
    char *argv[] = {"ptsbench", "run", "--target", (char *)target, "--workload", (char *)wl,
                    "--precondition", (char *)precondition, "--wdpc-fills", "0.05",
                    "--wdpc-max-fills", "0.1", "--rounds", "2", "--round-time", "0.5",
                    "--destructive", "--out", out, size ? "--size" : NULL, (char *)size, NULL};
    struct json_object *doc = ptsbench_results(argv, out, 0, text);
    assert_non_null(doc);
    return doc;
}

static const char *json_str_at(struct json_object *doc, const char *path)
{
    struct json_object *v = json_at(doc, path);
    return v ? json_object_get_string(v) : "";
}

static void test_database_mix_writes_8k_units(void **state)
{
    (void)state;
    struct json_object *doc = fast_run("db", SIM_TARGET, "database", "fast", NULL, NULL);
    const double unit = json_num(doc, "preconditioning.fast.unit_bytes");
    const double bytes = json_num(doc, "preconditioning.fast.bytes_written");
    printf("  database: unit %.0f, %.0f bytes, %.0f threads\n", unit, bytes,
           json_num(doc, "preconditioning.fast.threads"));
    assert_true(unit == 8192);
    assert_true(fmod(bytes, 8192) == 0);
    assert_true(json_num(doc, "preconditioning.fast.threads") == 4);
    assert_true(json_num(doc, "preconditioning.fast.round.depth.declared") == 128);
    assert_true(json_num(doc, "preconditioning.fast.round.write.ios") * 8192 ==
                json_num(doc, "preconditioning.fast.round.write.bytes"));
    assert_non_null(strstr(json_str_at(doc, "preconditioning.fast.unit_basis"), "write size"));
    json_object_put(doc);
}

static void test_stimulus_without_map(void **state)
{
    (void)state;
    char *text = NULL;
    struct json_object *doc = fast_run("map", SIM_TARGET, "rw=randwrite,bs=4k,qd=8,workers=2",
                                       "fast", NULL, &text);
    const char *spec = json_str_at(doc, "workload.spec");
    const char *said = json_str_at(doc, "preconditioning.fast.stimulus_random_map");
    printf("  spec %s; map: %s\n", spec, said);
    assert_non_null(strstr(spec, "random_map=off"));
    assert_non_null(strstr(said, "off after the fast pass"));
    assert_non_null(strstr(text, "the stimulus draws without a random map after the fast pass"));
    assert_true(json_num(doc, "preconditioning.fast.unit_bytes") == 4096);
    /* --wdpc-fills 0.05 given: kept (test_wdpc_floor_follows_the_lag) */
    assert_true(json_num(doc, "preconditioning.wdpc.min_fills") == 0.05);
    assert_null(json_at(doc, "preconditioning.fast.wdpc_min_fills"));
    free(text);
    json_object_put(doc);

    doc = fast_run("named", SIM_TARGET, "rw=randwrite,bs=4k,qd=8,norandommap=0", "fast", NULL,
                   NULL);
    assert_non_null(strstr(json_str_at(doc, "workload.spec"), "random_map=always"));
    assert_non_null(strstr(json_str_at(doc, "preconditioning.fast.stimulus_random_map"),
                           "always, as the workload names it"));
    json_object_put(doc);
}

static void test_small_range_fewer_threads(void **state)
{
    (void)state;
    char img[600], *text = NULL;
    snprintf(img, sizeof(img), "%s/x.img", dir);
    /* 1 MiB of 4 KiB: 256 units, room for 2 shares of FASTPASS_REGIONS (100) */
    struct json_object *doc = fast_run("small", img, "rw=randwrite,bs=4k,qd=4", "fast:0.25", "1m",
                                       &text);
    printf("  small file: %.0f threads (%s)\n", json_num(doc, "preconditioning.fast.threads"),
           json_str_at(doc, "preconditioning.fast.threads_basis"));
    assert_true(json_num(doc, "preconditioning.fast.threads") == 2);
    assert_non_null(strstr(json_str_at(doc, "preconditioning.fast.threads_basis"), "fewer"));
    assert_non_null(strstr(text, "fast pass: 2 threads, not max(workers, 4)"));
    free(text);
    json_object_put(doc);
}

/* WDPC's floor follows the guard's lag after a checked pass (0.5 fill, not the default 1);
 * a --wdpc-fills given keeps its value (test_stimulus_without_map gives 0.05). */
static void test_wdpc_floor_follows_the_lag(void **state)
{
    (void)state;
    char out[512];
    snprintf(out, sizeof(out), "%s/floor", dir);
    char *argv[] = {"ptsbench", "run", "--target", SIM_TARGET, "--workload",
                    "rw=randwrite,bs=4k,qd=32,workers=2", "--purge", "auto", "--precondition",
                    "fast", "--wdpc-max-fills", "1", "--rounds", "2", "--round-time", "2s",
                    "--quiet", "--out", out, NULL};
    struct json_object *doc = ptsbench_results(argv, out, 0, NULL);
    assert_non_null(doc);
    printf("  floor: lag %g, WDPC min %g, %g fills, ended %s\n",
           json_num(doc, "steady_state.guard.lag_fills"),
           json_num(doc, "preconditioning.wdpc.min_fills"),
           json_num(doc, "preconditioning.wdpc.fills"),
           json_str_at(doc, "preconditioning.wdpc.ended"));
    assert_true(json_num(doc, "steady_state.guard.lag_fills") == 0.5);
    assert_true(json_num(doc, "preconditioning.wdpc.min_fills") == 0.5);
    assert_true(json_num(doc, "preconditioning.fast.wdpc_min_fills") == 0.5);
    json_object_put(doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_database_mix_writes_8k_units),
        cmocka_unit_test(test_stimulus_without_map),
        cmocka_unit_test(test_small_range_fewer_threads),
        cmocka_unit_test(test_wdpc_floor_follows_the_lag),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
