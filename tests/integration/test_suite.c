/* test_suite.c — the SNIA PTS tests end to end: IOPS, TP, LAT and WSAT on the simulated drive
 * (full structure, quickly, in virtual time) and on zram or a file (real I/O, short rounds):
 * loop order and element counts, tracking variables, purge and WIPC byte counts, steady-state
 * bookkeeping, WSAT's byte limit, compliance notes. */
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
#include <sys/stat.h>

#include "helpers.h"

static char *dir;
static bool zram_in_use;

static int setup(void **state)
{
    (void)state;
    dir = make_temp_dir("suite");
    return dir ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    if (zram_in_use)
        zram_teardown();
    remove_tree(dir);
    free(dir);
    return 0;
}

static struct json_object *suite(const char *name, char **extra)
{
    char out[512], results[600];
    snprintf(out, sizeof(out), "%s/%s", dir, name);
    char *argv[40];
    int i = 0;
    argv[i++] = (char *)ptsbench_bin();
    argv[i++] = "suite";
    argv[i++] = "--quiet";
    argv[i++] = "--out";
    argv[i++] = out;
    for (int k = 0; extra[k]; k++)
        argv[i++] = extra[k];
    argv[i] = NULL;
    struct cmd_result r;
    assert_int_equal(run_cmd(argv, &r), 0);
    if (r.status != 0)
        print_message("stdout: %s\nstderr: %s\n", r.out, r.errout);
    assert_int_equal(r.status, 0);
    cmd_result_free(&r);
    snprintf(results, sizeof(results), "%s/results.json", out);
    struct json_object *doc = load_json(results);
    assert_non_null(doc);
    assert_string_equal(json_object_get_string(json_at(doc, "schema")), "ptsbench.suite");
    assert_string_equal(json_object_get_string(json_at(doc, "status")), "complete");
    return doc;
}

static const unsigned iops_mixes[] = {100, 95, 65, 50, 35, 5, 0};
static const unsigned iops_bs[] = {1048576, 131072, 65536, 32768, 16384, 8192, 4096, 512};

/* The elements of every round follow the PTS nesting: R/W mix outer, block size inner, in the
 * spec's order (block sizes the device cannot do are left out, in place). */
static void check_iops_order(struct json_object *rounds, uint32_t sector)
{
    size_t n_bs = 0;
    for (size_t b = 0; b < 8; b++)
        n_bs += iops_bs[b] % sector == 0;
    for (size_t r = 0; r < json_object_array_length(rounds); r++) {
        struct json_object *els = json_at(json_object_array_get_idx(rounds, r), "elements");
        assert_int_equal(json_object_array_length(els), 7 * n_bs);
        size_t e = 0;
        for (size_t m = 0; m < 7; m++)
            for (size_t b = 0; b < 8; b++) {
                if (iops_bs[b] % sector)
                    continue;
                struct json_object *el = json_object_array_get_idx(els, e++);
                assert_int_equal((unsigned)json_num(el, "rwmix_read"), iops_mixes[m]);
                assert_int_equal((uint32_t)json_num(el, "bs"), iops_bs[b]);
                assert_true(json_num(el, "iops") > 0);
            }
    }
}

/* IOPS, PTS-E 1.1, on the simulated 6300: purge (the model's secure erase, compliant), WIPC of
 * exactly 2x the active range in 128 KiB writes, 56 elements per round in PTS order, tracking
 * RND 4 KiB 0/100 IOPS, steady state over a 5-round window with the window's figures. */
static void test_iops_sim(void **state)
{
    (void)state;
    char *args[] = {"--target", "sim:zdrive-6300-1.6t", "--spec", "pts-e-1.1", "--tests", "iops",
                    "--round-time", "5s", NULL};
    struct json_object *doc = suite("iops-sim", args);
    struct json_object *sub = json_at(doc, "tests.0.subtests.0");
    assert_string_equal(json_object_get_string(json_at(sub, "purge.method")), "secure-erase");
    assert_true(json_object_get_boolean(json_at(sub, "purge.compliant")));
    assert_true(json_object_get_boolean(json_at(sub, "purge.ran")));
    double ar = json_num(doc, "spec.active_range_bytes");
    double cap = json_num(doc, "target.capacity_bytes");
    print_message("active range %.0f of %.0f bytes; WIPC wrote %.0f\n", ar, cap,
                  json_num(sub, "precondition.bytes_written"));
    assert_true(ar <= cap && ar > 0.99 * cap);
    assert_true(json_num(sub, "precondition.bs") == 131072);
    assert_true(json_num(sub, "precondition.bytes_written") == 2 * ar);
    assert_true(json_num(sub, "precondition.bytes_target") == 2 * ar);
    struct json_object *rounds = json_at(sub, "rounds");
    check_iops_order(rounds, 512);
    assert_int_equal(json_object_array_length(json_at(sub, "tracking")), 1);
    assert_string_equal(json_object_get_string(json_at(sub, "tracking.0")), "iops@4KiB/0");
    /* the tracked value of each round is the 0/100 4 KiB element's IOPS */
    size_t n = json_object_array_length(rounds);
    for (size_t r = 0; r < n; r++) {
        struct json_object *rr = json_object_array_get_idx(rounds, r);
        double tracked = json_num(rr, "tracked.0");
        double el = json_num(rr, "elements.54.iops");   /* mix 0 (7th), 4 KiB (7th of 8) */
        assert_int_equal((unsigned)json_num(rr, "elements.54.rwmix_read"), 0);
        assert_int_equal((unsigned)json_num(rr, "elements.54.bs"), 4096);
        assert_true(tracked == el);
    }
    assert_true(json_object_get_boolean(json_at(sub, "steady_state.reached")));
    unsigned round = (unsigned)json_num(sub, "steady_state.round");
    assert_int_equal(round, n);                      /* stops at steady state */
    assert_true(round >= 5 && round <= 25);
    struct json_object *w = json_at(sub, "steady_state.variables.0.window");
    assert_int_equal((unsigned)json_num(w, "last_round"), round);
    assert_int_equal((unsigned)json_num(w, "first_round"), round - 4);
    assert_true(json_num(w, "range") <= json_num(w, "range_allowed"));
    assert_true(json_num(w, "slope_excursion") <= json_num(w, "slope_excursion_allowed"));
    /* the table: 56 rows, averages over the window */
    assert_int_equal(json_object_array_length(json_at(sub, "table.rows")), 56);
    print_message("IOPS steady at round %u: 4 KiB 0/100 %.0f IOPS, 4 KiB 100/0 %.0f IOPS\n", round,
                  json_num(sub, "table.rows.54.iops"), json_num(sub, "table.rows.6.iops"));
    assert_true(fabs(json_num(sub, "table.rows.54.iops") - json_num(w, "average")) <
                1e-6 * json_num(w, "average"));
    /* non-spec round time is called out */
    const char *notes = json_object_to_json_string(json_at(doc, "compliance.notes"));
    assert_non_null(strstr(notes, "5 s instead of the PTS's 60 s"));
    assert_false(json_object_get_boolean(json_at(doc, "compliance.compliant")));
    json_object_put(doc);
}

/* PTS 2.0: three tracking variables, all steady at the reported round. */
static void test_iops_pts20_tracking(void **state)
{
    (void)state;
    char *args[] = {"--target", "sim:zdrive-6300-1.6t", "--spec", "pts-2.0-e", "--tests", "iops",
                    "--round-time", "5s", NULL};
    struct json_object *doc = suite("iops-20", args);
    struct json_object *sub = json_at(doc, "tests.0.subtests.0");
    assert_int_equal(json_object_array_length(json_at(sub, "tracking")), 3);
    assert_string_equal(json_object_get_string(json_at(sub, "tracking.1")), "iops@64KiB/65");
    assert_string_equal(json_object_get_string(json_at(sub, "tracking.2")), "iops@1MiB/100");
    unsigned round = (unsigned)json_num(sub, "steady_state.round");
    for (int v = 0; v < 3; v++) {
        char k[64];
        snprintf(k, sizeof(k), "steady_state.variables.%d.window.steady", v);
        assert_true(json_object_get_boolean(json_at(sub, k)));
        snprintf(k, sizeof(k), "steady_state.variables.%d.window.last_round", v);
        assert_int_equal((unsigned)json_num(sub, k), round);
    }
    json_object_put(doc);
}

/* TP: one subtest per block size, each with its own purge and WIPC in that block size,
 * 2 elements per round (SEQ 100/0 then 0/100) at 1 thread x QD 32, tracking write MB/s. */
static void test_tp_sim(void **state)
{
    (void)state;
    char *args[] = {"--target", "sim:zdrive-6300-1.6t", "--spec", "pts-e-1.1", "--tests", "tp",
                    "--round-time", "10s", NULL};
    struct json_object *doc = suite("tp-sim", args);
    struct json_object *subs = json_at(doc, "tests.0.subtests");
    assert_int_equal(json_object_array_length(subs), 2);
    const uint32_t bss[] = {131072, 1048576};
    for (int k = 0; k < 2; k++) {
        struct json_object *sub = json_object_array_get_idx(subs, k);
        assert_true(json_num(sub, "bs") == bss[k]);
        assert_true(json_object_get_boolean(json_at(sub, "purge.ran")));
        assert_true(json_num(sub, "precondition.bs") == bss[k]);
        char name[32];
        snprintf(name, sizeof(name), "mb_s@%s/0", k ? "1MiB" : "128KiB");
        assert_string_equal(json_object_get_string(json_at(sub, "tracking.0")), name);
        struct json_object *r0 = json_at(sub, "rounds.0");
        assert_int_equal(json_object_array_length(json_at(r0, "elements")), 2);
        assert_int_equal((unsigned)json_num(r0, "elements.0.rwmix_read"), 100);
        assert_int_equal((unsigned)json_num(r0, "elements.1.rwmix_read"), 0);
        assert_true(json_num(r0, "tracked.0") == json_num(r0, "elements.1.write_mb_s") ||
                    json_num(r0, "tracked.0") == json_num(r0, "elements.1.mb_s"));
        print_message("TP %s: read %.0f MB/s, write %.0f MB/s (steady at round %.0f)\n", name,
                      json_num(sub, "table.rows.0.mb_s"), json_num(sub, "table.rows.1.mb_s"),
                      json_num(sub, "steady_state.round"));
    }
    assert_true(json_num(doc, "tests.0.threads") == 1 && json_num(doc, "tests.0.qd") == 32);
    json_object_put(doc);
}

/* LAT: 9 elements (mix 100, 65, 0 outer; 8, 4, 0.5 KiB inner) at 1 x 1, tracking the mean
 * 4 KiB write latency; reads and writes recorded separately with the tail percentiles. */
static void test_lat_sim(void **state)
{
    (void)state;
    char *args[] = {"--target", "sim:zdrive-6300-1.6t", "--spec", "pts-e-1.1", "--tests", "lat",
                    "--round-time", "5s", NULL};
    struct json_object *doc = suite("lat-sim", args);
    struct json_object *sub = json_at(doc, "tests.0.subtests.0");
    struct json_object *els = json_at(sub, "rounds.0.elements");
    assert_int_equal(json_object_array_length(els), 9);
    const unsigned mixes[] = {100, 65, 0};
    const uint32_t bss[] = {8192, 4096, 512};
    for (int i = 0; i < 9; i++) {
        struct json_object *el = json_object_array_get_idx(els, i);
        assert_int_equal((unsigned)json_num(el, "rwmix_read"), mixes[i / 3]);
        assert_int_equal((uint32_t)json_num(el, "bs"), bss[i % 3]);
    }
    /* 65/35 4 KiB: both directions with their own percentiles */
    struct json_object *mixed = json_object_array_get_idx(els, 4), *v;
    struct json_object *rd = json_at(mixed, "lat_us.read"), *wr = json_at(mixed, "lat_us.write");
    const char *stats[] = {"mean", "max", "99", "99.9", "99.99", "99.999"};
    for (int i = 0; i < 6; i++) {
        assert_true(json_object_object_get_ex(rd, stats[i], &v) && json_object_get_double(v) > 0);
        assert_true(json_object_object_get_ex(wr, stats[i], &v) && json_object_get_double(v) > 0);
    }
    assert_string_equal(json_object_get_string(json_at(sub, "tracking.0")),
                        "write_lat_mean_us@4KiB/0");
    assert_true(json_num(doc, "tests.0.threads") == 1 && json_num(doc, "tests.0.qd") == 1);
    print_message("LAT 4 KiB: read mean %.1f us, write mean %.1f us\n",
                  json_num(sub, "table.rows.1.lat_us.read.mean"),
                  json_num(sub, "table.rows.7.lat_us.write.mean"));
    json_object_put(doc);
}

/* WSAT: no preconditioning, stops at the byte limit (here 2x the capacity: past the cliff). */
static void test_wsat_sim_stops_at_bytes(void **state)
{
    (void)state;
    char *args[] = {"--target", "sim:zdrive-6300-1.6t", "--spec", "pts-e-1.1", "--tests", "wsat",
                    "--wsat-capacity", "2", NULL};
    struct json_object *doc = suite("wsat-sim", args);
    struct json_object *sub = json_at(doc, "tests.0.subtests.0");
    assert_null(json_at(sub, "precondition"));
    assert_string_equal(json_object_get_string(json_at(sub, "stop.reason")), "capacity");
    double limit = json_num(sub, "stop.stop_written_bytes");
    double cap = json_num(doc, "target.capacity_bytes");
    assert_true(fabs(limit - 2 * cap) < 1e-6 * cap);
    struct json_object *rounds = json_at(sub, "rounds");
    size_t n = json_object_array_length(rounds);
    double last = json_num(json_object_array_get_idx(rounds, n - 1), "total_written_bytes");
    double before = n > 1 ? json_num(json_object_array_get_idx(rounds, n - 2), "total_written_bytes") : 0;
    print_message("WSAT: %zu rounds, %.1f GB written (limit %.1f GB)\n", n, last / 1e9, limit / 1e9);
    assert_true(last >= limit && before < limit);
    assert_true(json_num(json_object_array_get_idx(rounds, 0), "elements.0.iops") >
                json_num(json_object_array_get_idx(rounds, n - 1), "elements.0.iops"));
    json_object_put(doc);
}

/* Real I/O: all four tests on zram (4Kn: 0.5 KiB skipped and said so) or, without zram, on a
 * file; short elements and a round limit keep it to a few minutes. */
static void test_real_device_all_tests(void **state)
{
    (void)state;
    char dev[64], file[600];
    bool zram = zram_setup("256M", dev, sizeof(dev));
    if (zram) {
        zram_in_use = true;
    } else {
        print_message("zram unavailable: running on a file target instead\n");
        snprintf(file, sizeof(file), "%s/target.dat", dir);
        char *mk[] = {"truncate", "-s", "256M", file, NULL};
        assert_int_equal(run_quiet(mk), 0);
    }
    char *args[] = {"--target", zram ? dev : file, "--destructive", "--spec", "pts-e-1.1",
                    "--tests", "iops,tp,lat,wsat", "--round-time", "200ms", "--max-rounds", "3",
                    "--wsat-capacity", "1", NULL};
    struct json_object *doc = suite("real", args);
    uint32_t sector = (uint32_t)json_num(doc, "target.logical_sector");
    assert_int_equal(json_object_array_length(json_at(doc, "tests")), 4);
    check_iops_order(json_at(doc, "tests.0.subtests.0.rounds"), sector);
    const char *purge = json_object_get_string(json_at(doc, "tests.0.subtests.0.purge.method"));
    assert_string_equal(purge, "discard");
    assert_false(json_object_get_boolean(json_at(doc, "tests.0.subtests.0.purge.compliant")));
    double ar = json_num(doc, "spec.active_range_bytes");
    assert_true(json_num(doc, "tests.0.subtests.0.precondition.bytes_written") == 2 * ar);
    const char *notes = json_object_to_json_string(json_at(doc, "compliance.notes"));
    assert_non_null(strstr(notes, "not SNIA-compliant"));
    if (sector == 4096)
        assert_non_null(strstr(notes, "512B skipped"));
    assert_string_equal(json_object_get_string(json_at(doc, "tests.3.subtests.0.stop.reason")),
                        "capacity");
    print_message("real target %s (%u-byte sectors): IOPS 4 KiB 0/100 %.0f\n", zram ? dev : file,
                  sector, json_num(doc, "tests.0.subtests.0.table.rows.0.iops"));
    json_object_put(doc);
    if (zram) {
        zram_teardown();
        zram_in_use = false;
    }
}

/* Bad input: one line, exit 2, nothing written. */
static void test_bad_input(void **state)
{
    (void)state;
    const char *cases[][3] = {
        {"--spec", "pts-9", "pts-9"},
        {"--tests", "iops,bogus", "bogus"},
        {"--purge", "shred", "shred"},
        {"--round-time", "0", "--round-time"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        char out[512];
        snprintf(out, sizeof(out), "%s/bad%zu", dir, i);
        char *argv[] = {(char *)ptsbench_bin(), "suite", "--target", "sim:generic-mlc25",
                        (char *)cases[i][0], (char *)cases[i][1], "--out", out, NULL};
        struct cmd_result r;
        assert_int_equal(run_cmd(argv, &r), 0);
        print_message("refused (%d): %s", r.status, r.errout);
        assert_int_equal(r.status, 2);
        assert_non_null(strstr(r.errout, cases[i][2]));
        cmd_result_free(&r);
        struct stat st;
        assert_int_not_equal(stat(out, &st), 0);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bad_input),
        cmocka_unit_test(test_iops_sim),
        cmocka_unit_test(test_iops_pts20_tracking),
        cmocka_unit_test(test_tp_sim),
        cmocka_unit_test(test_lat_sim),
        cmocka_unit_test(test_wsat_sim_stops_at_bytes),
        cmocka_unit_test(test_real_device_all_tests),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
