/* test_suite.c — the SNIA PTS tests end to end: IOPS, TP, LAT and WSAT on the simulated drive
 * (full structure, quickly, in virtual time) and on zram or a file (real I/O, short rounds):
 * loop order and element counts, tracking variables, purge and WIPC byte counts, steady-state
 * bookkeeping (with the round limit in force), the tables' window statistics (every percentile,
 * the true maximum, I/O-weighted means), WSAT's byte limit, compliance notes. */
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
#include "stats/hist.h"

static char *dir;

static int setup(void **state)
{
    (void)state;
    dir = make_temp_dir("suite");
    return dir ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    zram_remove_all();   /* the real-device test's zram, if an assertion stopped it */
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
 * spec's order (block sizes the device cannot do are left out, in place). Each element's IOPS
 * is a number >= 0; on the simulated drive every one is above 0. On a real device an element
 * of 200 ms can complete nothing when the machine is loaded (two test suites, one under ASan,
 * on two cores: the workers were not scheduled in time), which says nothing about ptsbench and
 * is reported as it happened; there, most elements of each round must have completed I/O. */
static void check_iops_order(struct json_object *rounds, uint32_t sector, bool every_element)
{
    size_t n_bs = 0;
    for (size_t b = 0; b < 8; b++)
        n_bs += iops_bs[b] % sector == 0;
    for (size_t r = 0; r < json_object_array_length(rounds); r++) {
        struct json_object *els = json_at(json_object_array_get_idx(rounds, r), "elements");
        assert_int_equal(json_object_array_length(els), 7 * n_bs);
        size_t e = 0, with_io = 0;
        for (size_t m = 0; m < 7; m++)
            for (size_t b = 0; b < 8; b++) {
                if (iops_bs[b] % sector)
                    continue;
                struct json_object *el = json_object_array_get_idx(els, e++);
                assert_int_equal((unsigned)json_num(el, "rwmix_read"), iops_mixes[m]);
                assert_int_equal((uint32_t)json_num(el, "bs"), iops_bs[b]);
                const double iops = json_num(el, "total.iops");
                assert_true(isfinite(iops) && iops >= 0);
                if (every_element)
                    assert_true(iops > 0);
                with_io += iops > 0;
            }
        assert_true(2 * with_io > e);
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
    assert_string_equal(json_object_get_string(json_at(doc, "tests.0.kind")), "standard");
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
    check_iops_order(rounds, 512, true);
    assert_int_equal(json_object_array_length(json_at(sub, "tracking")), 1);
    assert_string_equal(json_object_get_string(json_at(sub, "tracking.0")), "iops@4KiB/0");
    /* beside the name, its parts: no reader parses the name back */
    assert_string_equal(json_object_get_string(json_at(sub, "track.0.metric")), "iops");
    assert_true(json_num(sub, "track.0.bs") == 4096);
    assert_true(json_num(sub, "track.0.read_pct") == 0);
    assert_string_equal(json_object_get_string(json_at(sub, "steady_state.variables.0.track.metric")),
                        "iops");
    assert_true(json_num(sub, "steady_state.variables.0.track.bs") == 4096);
    assert_true(json_num(sub, "steady_state.variables.0.track.read_pct") == 0);
    /* the tracked value of each round is the 0/100 4 KiB element's IOPS */
    size_t n = json_object_array_length(rounds);
    for (size_t r = 0; r < n; r++) {
        struct json_object *rr = json_object_array_get_idx(rounds, r);
        double tracked = json_num(rr, "tracked.0");
        double el = json_num(rr, "elements.54.total.iops");   /* mix 0 (7th), 4 KiB (7th of 8) */
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
                  json_num(sub, "table.rows.54.total.iops"),
                  json_num(sub, "table.rows.6.total.iops"));
    assert_true(fabs(json_num(sub, "table.rows.54.total.iops") - json_num(w, "average")) <
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
    assert_true(json_num(sub, "track.1.bs") == 65536 && json_num(sub, "track.1.read_pct") == 65);
    assert_true(json_num(sub, "steady_state.variables.2.track.bs") == 1048576);
    assert_true(json_num(sub, "steady_state.variables.2.track.read_pct") == 100);
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
        assert_true(json_num(r0, "tracked.0") == json_num(r0, "elements.1.write.mb_s") ||
                    json_num(r0, "tracked.0") == json_num(r0, "elements.1.total.mb_s"));
        print_message("TP %s: read %.0f MB/s, write %.0f MB/s (steady at round %.0f)\n", name,
                      json_num(sub, "table.rows.0.total.mb_s"),
                      json_num(sub, "table.rows.1.total.mb_s"),
                      json_num(sub, "steady_state.round"));
    }
    assert_true(json_num(doc, "tests.0.threads") == 1 && json_num(doc, "tests.0.qd") == 32);
    json_object_put(doc);
}

/* The table of a subtest against its rounds, read back from the JSON: every row has every
 * percentile the elements record (keys "50" ... "99.9999", "99.9" included), a number where the
 * window's merged count supports it (the tail rule) and null where not, "max" is the largest
 * of the window's per-round maxima (and "max_round_mean" their mean), and the mean is weighted
 * by the rounds' I/O counts. */
/* One key, taken whole ("99.9" is a key, not a path). NAN if absent. */
static double key_num(struct json_object *o, const char *key)
{
    struct json_object *v;
    if (!o || !json_object_object_get_ex(o, key, &v) || json_object_is_type(v, json_type_null))
        return NAN;
    return json_object_get_double(v);
}

static void check_table_window(struct json_object *sub)
{
    const char *pcts[] = {"50", "90", "99", "99.9", "99.99", "99.999", "99.9999"};
    const char *dirs[] = {"read", "write", "total"};
    unsigned first = (unsigned)json_num(sub, "table.first_round");
    unsigned last = (unsigned)json_num(sub, "table.last_round");
    struct json_object *rows = json_at(sub, "table.rows");
    assert_true(first >= 1 && last >= first);
    unsigned checked = 0;
    for (size_t e = 0; e < json_object_array_length(rows); e++) {
        struct json_object *row = json_object_array_get_idx(rows, e);
        for (int d = 0; d < 3; d++) {
            char k[96];
            double max = -1, sum_max = 0, sum = 0, ios = 0, el_ios = 0;
            unsigned n = 0;
            for (unsigned r = first; r <= last; r++) {
                snprintf(k, sizeof(k), "rounds.%u.elements.%zu.%s.ios", r - 1, e, dirs[d]);
                el_ios += json_num(sub, k);
                snprintf(k, sizeof(k), "rounds.%u.elements.%zu.%s.lat_us", r - 1, e, dirs[d]);
                struct json_object *l = json_at(sub, k);
                double c = json_num(l, "count");
                if (!(c > 0))
                    continue;
                max = fmax(max, json_num(l, "max"));
                sum_max += json_num(l, "max");
                sum += c * json_num(l, "mean");
                ios += c;
                n++;
            }
            /* the figures object: the window's I/Os, and the latency of those rounds */
            snprintf(k, sizeof(k), "%s.ios", dirs[d]);
            assert_true(json_num(row, k) == el_ios);
            snprintf(k, sizeof(k), "%s.lat_us", dirs[d]);
            struct json_object *t = json_at(row, k);
            if (!n) {   /* no I/O in this direction (a pure read or write element) */
                assert_null(t);   /* lat_us null: no zeros posing as latencies */
                continue;
            }
            /* every percentile, 99.9 too: a number where the window's count supports it (the
             * tail rule, stats/hist.h), else present as null */
            for (int p = 0; p < 7; p++) {
                struct json_object *pv;
                assert_true(json_object_object_get_ex(json_at(t, "percentiles"), pcts[p], &pv));
                assert_true(isfinite(key_num(json_at(t, "percentiles"), pcts[p])) ==
                            hist_pct_supported((uint64_t)ios, atof(pcts[p])));
            }
            assert_true(json_num(t, "max") == max);
            assert_true(fabs(json_num(t, "max_round_mean") - sum_max / n) <= 1e-9 * max);
            assert_true(fabs(json_num(t, "mean") - sum / ios) <= 1e-9 * sum / ios);
            assert_true(json_num(t, "count") == ios);
            checked++;
        }
    }
    print_message("table: rounds %u-%u, %u latency cells checked\n", first, last, checked);
    assert_true(checked > 0);
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
    struct json_object *rd = json_at(mixed, "read.lat_us"), *wr = json_at(mixed, "write.lat_us");
    const char *stats[] = {"mean", "max", "99", "99.9", "99.99", "99.999", "99.9999"};
    const double pct[] = {0, 0, 99, 99.9, 99.99, 99.999, 99.9999};
    for (int i = 0; i < 7; i++) {
        /* a percentile is a number where the direction's I/Os support it, else null (the tail
         * rule, stats/hist.h: a 5 s round at QD 1 has thousands, not millions) */
        struct json_object *lat[] = {rd, wr};
        for (int d = 0; d < 2; d++) {
            struct json_object *o = i < 2 ? lat[d] : json_at(lat[d], "percentiles");
            assert_true(json_object_object_get_ex(o, stats[i], &v));
            const bool want = i < 2 || hist_pct_supported((uint64_t)json_num(lat[d], "count"),
                                                          pct[i]);
            assert_true(want ? v && json_object_get_double(v) > 0 : v == NULL);
        }
    }
    assert_string_equal(json_object_get_string(json_at(sub, "tracking.0")),
                        "write_lat_mean_us@4KiB/0");
    assert_true(json_num(doc, "tests.0.threads") == 1 && json_num(doc, "tests.0.qd") == 1);
    check_table_window(sub);
    print_message("LAT 4 KiB: read mean %.1f us, write mean %.1f us\n",
                  json_num(sub, "table.rows.1.read.lat_us.mean"),
                  json_num(sub, "table.rows.7.write.lat_us.mean"));
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
    assert_true(json_num(json_object_array_get_idx(rounds, 0), "elements.0.total.iops") >
                json_num(json_object_array_get_idx(rounds, n - 1), "elements.0.total.iops"));
    /* a stop rule other than the PTS's 4x / 24 h is a departure, named with both values */
    const char *notes = json_object_to_json_string(json_at(doc, "compliance.notes"));
    print_message("notes: %s\n", notes);
    assert_non_null(strstr(notes, "--wsat-capacity"));
    assert_non_null(strstr(notes, "2x"));
    assert_non_null(strstr(notes, "4x"));
    assert_false(json_object_get_boolean(json_at(doc, "compliance.compliant")));
    json_object_put(doc);
}

/* --wsat-time too, on the other drive: 0.5 h instead of 24 h, and time is what stops it. */
static void test_wsat_time_is_a_departure(void **state)
{
    (void)state;
    char *args[] = {"--target", "sim:zdrive-r4-cm88-1.6t", "--spec", "pts-e-1.1", "--tests",
                    "wsat", "--wsat-time", "30m", NULL};
    struct json_object *doc = suite("wsat-time", args);
    assert_string_equal(json_object_get_string(json_at(doc, "tests.0.subtests.0.stop.reason")),
                        "time");
    const char *notes = json_object_to_json_string(json_at(doc, "compliance.notes"));
    print_message("notes: %s\n", notes);
    assert_non_null(strstr(notes, "--wsat-time"));
    assert_non_null(strstr(notes, "30m00s"));
    assert_non_null(strstr(notes, "24h00m"));
    assert_false(json_object_get_boolean(json_at(doc, "compliance.compliant")));
    json_object_put(doc);
}

/* Every steady-state object (each variable's too) in a results document; returns how many. */
static unsigned check_max_rounds(struct json_object *o, unsigned want)
{
    unsigned n = 0;
    if (json_object_is_type(o, json_type_array)) {
        for (size_t i = 0; i < json_object_array_length(o); i++)
            n += check_max_rounds(json_object_array_get_idx(o, i), want);
        return n;
    }
    if (!json_object_is_type(o, json_type_object))
        return 0;
    json_object_object_foreach(o, key, val) {
        if (!strcmp(key, "steady_state")) {
            assert_int_equal((unsigned)json_num(val, "max_rounds"), want);
            struct json_object *vars = json_at(val, "variables");
            assert_true(json_object_array_length(vars) >= 1);
            for (size_t v = 0; v < json_object_array_length(vars); v++)
                assert_int_equal((unsigned)json_num(json_object_array_get_idx(vars, v),
                                                    "max_rounds"), want);
            n++;
        } else {
            n += check_max_rounds(val, want);
        }
    }
    return n;
}

/* --max-rounds 3 is the limit recorded in every steady-state object the suite writes: the
 * standard tests' rounds (LAT), HIR's and DIRTH's preconditioning, DIRTH's sweep rounds. */
static void test_max_rounds_recorded(void **state)
{
    (void)state;
    char *args[] = {"--target", "sim:zdrive-r4-cm88-1.6t", "--tests", "lat,hir,dirth",
                    "--time-scale", "0.001", "--round-time", "1s", "--max-rounds", "3", NULL};
    struct json_object *doc = suite("max-rounds", args);
    unsigned n = check_max_rounds(json_at(doc, "tests"), 3);
    print_message("%u steady-state objects, all with max_rounds 3\n", n);
    assert_int_equal(n, 4);
    json_object_put(doc);
}

/* Real I/O: all four tests on a zram device of our own (4Kn: 0.5 KiB skipped and said so) or,
 * without zram, on a file; short elements and a round limit keep it to a few minutes. */
static void test_real_device_all_tests(void **state)
{
    (void)state;
    char dev[64], file[600];
    bool zram = zram_create("256M", dev, sizeof(dev));
    if (!zram) {
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
    check_iops_order(json_at(doc, "tests.0.subtests.0.rounds"), sector, false);
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
                  sector, json_num(doc, "tests.0.subtests.0.table.rows.0.total.iops"));
    json_object_put(doc);
    if (zram)
        zram_remove(dev);
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
        cmocka_unit_test(test_wsat_time_is_a_departure),
        cmocka_unit_test(test_max_rounds_recorded),
        cmocka_unit_test(test_real_device_all_tests),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
