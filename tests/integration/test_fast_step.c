/* test_fast_step.c — `ptsbench run --precondition fast` through the run's engine (core/steps.h
 * step_fast, the offsets from io/fastgen.h through io/iogen.h):
 *   - the simulated drive, 2 workers: the pass ran on the engine's pool at QD 32 x max(2, 4)
 *     (its round recorded: the depth kept, 128 declared), wrote (1 + rho) fills, and the stimulus's first
 *     round runs at the oracle's write amplification (sim_wa_oracle) within 3 % (measured:
 *     2.50 against 2.48);
 *   - a file (io_uring): the pass runs (no FTL), told rho 0.25: bytes = 1.25 x the range within
 *     1 %, recorded as no_ftl, its engine choices recorded, the console says what it means;
 *     nothing to shape there, so it writes its fills sequentially in WIPC's 128 KiB writes
 *     (order "sequential, 128 KiB writes", its round's writes all 128 KiB: 4 KiB random writes
 *     before, 15 s on a 512 MiB file; docs/fast-precondition.md "Targets with no FTL");
 *   - a file of 1028 KiB (257 units: no write size tiles it for more than one thread): the pass
 *     sequential in 4 KiB writes on 1 thread, 257 of them: every block written once (equal
 *     slices of 2 threads would have left the range's last block to neither);
 *   - a zram device of the test's own (skipped where the machine cannot make one): the default
 *     rho there is 0, the range written once (within 1 %), sequentially;
 *   - the fio engine (whole rounds from a job file) refused before anything is written.
 * Before this change the pass ran inside the simulator (no round recorded) and a file or zram
 * target was refused: every case fails there. A few seconds. */
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
#include <unistd.h>

#include "helpers.h"
#include "sim/sim.h"

#define SIM_TARGET "sim:generic-mlc25,blocks_per_plane=16"

static char *dir;

static int setup(void **state)
{
    (void)state;
    dir = make_temp_dir("faststep");
    return dir ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    zram_remove_all();
    remove_tree(dir);
    free(dir);
    return 0;
}

/* The pass on a target with no FTL was sequential in 128 KiB writes: its record says so and
 * its round's writes average 128 KiB (the stimulus writes 4 KiB). */
static void assert_sequential(struct json_object *doc)
{
    const char *order = json_object_get_string(json_at(doc, "preconditioning.fast.order"));
    assert_non_null(order);
    assert_string_equal(order, "sequential, 128 KiB writes (no FTL: nothing to shape)");
    const double ios = json_num(doc, "preconditioning.fast.round.write.ios");
    const double bytes = json_num(doc, "preconditioning.fast.round.write.bytes");
    assert_true(ios > 0 && bytes / ios == 131072);
}

/* A run with the fast pass on target (extra: NULL-ended), its results; stdout in *text. */
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

static void test_sim_through_the_engine(void **state)
{
    (void)state;
    char *argv_wl = "rw=randwrite,bs=4k,qd=32,workers=2";
    char out[512];
    snprintf(out, sizeof(out), "%s/sim", dir);
    char *argv[] = {"ptsbench", "run", "--target", SIM_TARGET, "--workload", argv_wl,
                    "--purge", "auto", "--precondition", "fast", "--wdpc-fills", "0.1",
                    "--wdpc-max-fills", "0.2", "--rounds", "2", "--round-time", "2s", "--quiet",
                    "--out", out, NULL};
    struct json_object *doc = ptsbench_results(argv, out, 0, NULL);
    assert_non_null(doc);
    const double rho = json_num(doc, "preconditioning.fast.rho");
    assert_true(rho > 0.1 && rho < 0.5);
    assert_true(json_num(doc, "preconditioning.fast.threads") == 4);   /* max(2 workers, 4) */
    assert_true(json_num(doc, "preconditioning.fast.round.depth.declared") == 128);
    assert_true(json_num(doc, "preconditioning.fast.round.depth.mean") > 120);
    const double fills = json_num(doc, "preconditioning.fast.fills");
    assert_true(fabs(fills - (1 + rho)) < 0.01 * (1 + rho));
    const double wa = json_num(doc, "rounds.0.device.write_amplification");
    const double oracle = sim_wa_oracle(rho);
    printf("  sim: rho %.3f, %.4f fills, WA after the pass %.3f, oracle %.3f\n", rho, fills, wa,
           oracle);
    assert_true(fabs(wa / oracle - 1) < 0.03);
    json_object_put(doc);
}

static void test_file(void **state)
{
    (void)state;
    char img[600], *text = NULL;
    snprintf(img, sizeof(img), "%s/x.img", dir);
    struct json_object *doc = fast_run("file", img, "rw=randwrite,bs=4k,qd=8", "fast:0.25", "64m",
                                       &text);
    const double fills = json_num(doc, "preconditioning.fast.fills");
    printf("  file: %.4f fills\n", fills);
    assert_true(fabs(fills - 1.25) < 0.01 * 1.25);
    assert_true(fabs(json_num(doc, "preconditioning.fast.bytes_written") - 1.25 * 64 * 1048576) <
                0.01 * 1.25 * 64 * 1048576);
    assert_string_equal(json_object_get_string(json_at(doc, "preconditioning.fast.ftl")), "none");
    assert_non_null(json_at(doc, "preconditioning.fast.round.engine_choices"));
    assert_non_null(strstr(text, "fast pass (no FTL here: the same as writing the range)"));
    assert_non_null(strstr(text, "sequentially in WIPC's writes"));
    assert_sequential(doc);
    free(text);
    json_object_put(doc);
}

static void test_file_untiled(void **state)
{
    (void)state;
    char img[600], out[600];
    snprintf(img, sizeof(img), "%s/odd.img", dir);
    snprintf(out, sizeof(out), "%s/odd", dir);
    /* a read stimulus: the pass is the run's only writer */
    char *argv[] = {"ptsbench", "run", "--target", img, "--size", "1028k", "--workload",
                    "rw=randread,bs=4k,qd=8", "--purge", "auto", "--precondition", "fast",
                    "--rounds", "1", "--round-time", "0.2", "--destructive", "--quiet", "--out",
                    out, NULL};
    struct json_object *doc = ptsbench_results(argv, out, 0, NULL);
    assert_non_null(doc);
    const char *order = json_object_get_string(json_at(doc, "preconditioning.fast.order"));
    assert_non_null(order);
    assert_string_equal(order, "sequential, 4 KiB writes (no FTL: nothing to shape)");
    assert_true(json_num(doc, "preconditioning.fast.threads") == 1);
    assert_true(fabs(json_num(doc, "preconditioning.fast.fills") - 1.0) < 0.01);
    /* one thread from the range's start, in order: 257 writes of 4 KiB are every block once */
    assert_true(json_num(doc, "preconditioning.fast.round.write.ios") == 257);
    assert_true(json_num(doc, "preconditioning.fast.round.write.bytes") == 1028 * 1024);
    json_object_put(doc);
}

static void test_zram(void **state)
{
    (void)state;
    char dev[64];
    if (!zram_create("64M", dev, sizeof(dev))) {
        skip();
        return;
    }
    struct json_object *doc = fast_run("zram", dev, "rw=randwrite,bs=4k,qd=8,workers=2", "fast",
                                       NULL, NULL);
    const double fills = json_num(doc, "preconditioning.fast.fills");
    printf("  zram: %.4f fills\n", fills);
    assert_true(fabs(fills - 1.0) < 0.01);
    assert_true(json_num(doc, "preconditioning.fast.rho") == 0);
    assert_string_equal(json_object_get_string(json_at(doc, "preconditioning.fast.ftl")), "none");
    assert_sequential(doc);
    json_object_put(doc);
    zram_remove(dev);
}

/* fio runs whole rounds from a job file: it cannot take the pass's offsets, refused before
 * anything is written (exit 2, the file not created). */
static void test_fio_refused(void **state)
{
    (void)state;
    char img[600], out[600];
    snprintf(img, sizeof(img), "%s/fio.img", dir);
    snprintf(out, sizeof(out), "%s/fio", dir);
    const char *a[] = {"run", "--target", img, "--size", "16m", "--engine", "fio", "--workload",
                       "rw=randwrite,bs=4k", "--precondition", "fast:0.3", "--destructive",
                       "--quiet", "--out", out, NULL};
    struct cmd_result r;
    assert_int_equal(ptsbench_run(&r, a), 2);
    if (!strstr(r.errout, "not found") && !strstr(r.errout, "not installed"))
        assert_non_null(strstr(r.errout, "runs whole rounds"));
    assert_true(access(img, F_OK) != 0);
    cmd_result_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sim_through_the_engine),
        cmocka_unit_test(test_file),
        cmocka_unit_test(test_file_untiled),
        cmocka_unit_test(test_zram),
        cmocka_unit_test(test_fio_refused),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
