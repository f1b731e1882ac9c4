/* test_profile.c — `ptsbench profile`: the matrix of points (compressibility x workers x QD)
 * with effective queue depth and saturation point on the simulated drive, WIPC + WDPC and
 * steady state per point, sub-sector sizes on a 4Kn device, bad input, and the server profiles
 * on zram at 0% and 90% compressible data, where zram's own compressed size shows that the
 * data really was compressible. */
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

static int setup(void **state)
{
    (void)state;
    dir = make_temp_dir("profile");
    return dir ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    remove_tree(dir);
    free(dir);
    return 0;
}

static const char *out_dir(const char *name)
{
    static char buf[4][512];
    static unsigned k;
    char *b = buf[k++ % 4];
    snprintf(b, 512, "%s/%s", dir, name);
    return b;
}

static double pnum(struct json_object *doc, unsigned i, const char *key)
{
    char k[128];
    snprintf(k, sizeof(k), "points.%u.%s", i, key);
    return json_num(doc, k);
}

static const char *pstr(struct json_object *doc, unsigned i, const char *key)
{
    char k[128];
    snprintf(k, sizeof(k), "points.%u.%s", i, key);
    struct json_object *o = json_at(doc, k);
    return o ? json_object_get_string(o) : "";
}

static size_t alen(struct json_object *doc, const char *key)
{
    struct json_object *a = json_at(doc, key);
    return a && json_object_is_type(a, json_type_array) ? json_object_array_length(a) : 0;
}

/* A 4 KiB random-read QD ramp on the Z-Drive 6300 model (WIPC, then one round per point, so
 * the reads find data): IOPS rises with effective QD, each point records workers x QD, and the
 * saturation point is the lowest effective QD reaching 95% of the maximum, with its latency. */
static void test_qd_ramp_saturation_on_sim(void **state)
{
    (void)state;
    const char *out = out_dir("ramp");
    char *argv[] = {NULL, "profile", "qd-ramp-4k-read", "--target", "sim:zdrive-6300-1.6t",
                    "--precondition", "wipc", "--qd", "1,2,4,8,16,32,64", "--workers", "2",
                    "--round-time", "2s", "-o", (char *)out, NULL};
    char *text = NULL;
    struct json_object *doc = ptsbench_results(argv, out, 0, &text);
    assert_non_null(doc);
    assert_string_equal(json_object_get_string(json_at(doc, "schema")), "ptsbench.profile");
    assert_string_equal(json_object_get_string(json_at(doc, "status")), "complete");
    assert_int_equal(alen(doc, "points"), 7);
    double max = 0;
    unsigned imax = 0;
    const unsigned qds[] = {1, 2, 4, 8, 16, 32, 64};
    for (unsigned i = 0; i < 7; i++) {
        assert_int_equal((int)pnum(doc, i, "workers"), 2);
        assert_int_equal((int)pnum(doc, i, "qd"), (int)qds[i]);
        assert_int_equal((int)pnum(doc, i, "effective_qd"), 2 * (int)qds[i]);
        assert_string_equal(pstr(doc, i, "precondition"), "wipc");
        assert_string_equal(pstr(doc, i, "measure"), "fixed");
        /* the point's workload as the object a run records, beside its inline spec */
        assert_int_equal((int)pnum(doc, i, "stimulus.workers"), 2);
        assert_int_equal((int)pnum(doc, i, "stimulus.qd"), (int)qds[i]);
        assert_int_equal((int)pnum(doc, i, "stimulus.read_pct"), 100);
        assert_int_equal((int)pnum(doc, i, "stimulus.random_pct"), 100);
        assert_int_equal((int)pnum(doc, i, "stimulus.block_sizes.0.bytes"), 4096);
        assert_string_equal(pstr(doc, i, "stimulus.spec"), pstr(doc, i, "spec"));
        double iops = pnum(doc, i, "result.total.iops");
        print_message("  eff QD %3u: %9.0f IOPS, mean %.1f us\n", 2 * qds[i], iops,
                      pnum(doc, i, "result.total.lat_us.mean"));
        assert_true(iops > 0);
        if (i)   /* a closed loop: more outstanding I/O never lowers IOPS much */
            assert_true(iops > 0.9 * pnum(doc, i - 1, "result.total.iops"));
        if (iops > max) {
            max = iops;
            imax = i;
        }
        /* Little's law: IOPS x mean latency = outstanding I/Os */
        double outstanding = iops * pnum(doc, i, "result.total.lat_us.mean") / 1e6;
        assert_true(fabs(outstanding - 2.0 * qds[i]) <= 0.05 * 2.0 * qds[i]);
    }
    assert_true(pnum(doc, 6, "result.total.iops") > 4 * pnum(doc, 0, "result.total.iops"));
    /* saturation: recomputed here from the points */
    assert_int_equal(alen(doc, "saturation"), 1);
    unsigned want = 0;
    while (pnum(doc, want, "result.total.iops") < 0.95 * max)
        want++;
    double eqd = json_num(doc, "saturation.0.effective_qd");
    print_message("  saturation at effective QD %.0f (max %.0f IOPS at eff QD %u)\n", eqd, max,
                  2 * qds[imax]);
    assert_true(eqd == 2.0 * qds[want]);
    assert_true(json_num(doc, "saturation.0.max_iops") == max);
    assert_true(json_num(doc, "saturation.0.iops") == pnum(doc, want, "result.total.iops"));
    assert_true(json_num(doc, "saturation.0.lat_mean_us") ==
                pnum(doc, want, "result.total.lat_us.mean"));
    assert_true(eqd > 2 && eqd < 128);
    /* the table printed at the end says the same saturation point as the document */
    char line[256];
    snprintf(line, sizeof(line), "  qd-ramp-4k-read/qd-ramp-4k-read %d%% 2 workers: effective QD "
             "%.0f, ", (int)json_num(doc, "saturation.0.compress_pct"), eqd);
    if (!text || !strstr(text, line))
        print_error("no line '%s' in:\n%s\n", line, text ? text : "");
    assert_true(text && strstr(text, line));
    free(text);
    json_object_put(doc);
}

/* Steady preconditioning on a small simulated drive: WIPC (2x sequential) and WDPC (one fill of
 * the stimulus' own writes) are recorded per compressibility; each point then reaches SNIA
 * steady state and reports its window; the drive's WA shows GC at 0% and none at 90%. */
static void test_steady_precondition_on_sim(void **state)
{
    (void)state;
    const char *out = out_dir("steady");
    char *argv[] = {NULL, "profile", "database", "--target", "sim:zdrive-r4-cm88-1.6t",
                    "--compress", "0,90", "--workers", "1,4", "--round-time", "30s", "--quiet",
                    "-o", (char *)out, NULL};
    struct json_object *doc = ptsbench_results(argv, out, 0, NULL);
    assert_non_null(doc);
    assert_int_equal(alen(doc, "groups"), 2);
    assert_int_equal(alen(doc, "points"), 4);
    for (unsigned g = 0; g < 2; g++) {
        char k[96];
        snprintf(k, sizeof(k), "groups.%u.wipc.fills", g);
        assert_true(json_num(doc, k) == 2);
        snprintf(k, sizeof(k), "groups.%u.wdpc.written_bytes", g);
        double written = json_num(doc, k);
        snprintf(k, sizeof(k), "groups.%u.wdpc.rounds", g);
        size_t n = alen(doc, k);
        snprintf(k, sizeof(k), "groups.%u.wdpc.rounds.%zu.written_fills", g, n - 1);
        print_message("  group %u: WDPC %zu rounds, %.2f fills (%.0f bytes)\n", g, n,
                      json_num(doc, k), written);
        assert_true(json_num(doc, k) >= 1.0);
    }
    double iops[4];
    for (unsigned i = 0; i < 4; i++) {
        assert_string_equal(pstr(doc, i, "measure"), "steady");
        char sk[64];
        snprintf(sk, sizeof(sk), "points.%u.result.steady", i);
        assert_true(json_object_get_boolean(json_at(doc, sk)));
        iops[i] = pnum(doc, i, "result.total.iops");
        double first = pnum(doc, i, "result.rounds.0"), last = pnum(doc, i, "result.rounds.1");
        assert_true(last - first == 4);
        char k[96];
        snprintf(k, sizeof(k), "points.%u.rounds.%u.device.write_amplification", i,
                 (unsigned)last - 1);
        double wa = json_num(doc, k);
        print_message("  %u%% %ux32: %.0f IOPS (rounds %.0f-%.0f), WA %.2f\n",
                      (unsigned)pnum(doc, i, "compress_pct"), (unsigned)pnum(doc, i, "workers"),
                      iops[i], first, last, wa);
        if (pnum(doc, i, "compress_pct") == 0)
            assert_true(wa > 1.5);    /* GC running: steady state, not the burst plateau */
        else
            assert_true(wa < 0.5);    /* 90% compressible data: the drive stores ~0.14 */
    }
    /* compressible data is much faster on a compressing drive, as in the R4 review */
    assert_true(iops[2] > 1.5 * iops[0]);
    assert_true(iops[3] > 1.5 * iops[1]);
    json_object_put(doc);
}

/* Bad input: one line naming the value, exit 2, nothing written. */
static void test_bad_input(void **state)
{
    (void)state;
    const char *out = out_dir("bad");
    struct {
        const char *args[8];
        const char *want;
    } cases[] = {
        {{"nosuchprofile", "--target", "sim:generic-mlc25"}, "profile 'nosuchprofile' not found"},
        {{"database", "--target", "sim:generic-mlc25", "--compress", "0,101"}, "--compress 0,101"},
        {{"database", "--target", "sim:generic-mlc25", "--qd", "4,4"}, "4 is listed twice"},
        {{"database", "--target", "sim:generic-mlc25", "--precondition", "hot"}, "--precondition hot"},
        {{"database", "--target", "sim:generic-mlc25", "--track", "speed"}, "--track speed"},
        {{"database:nosection", "--target", "sim:generic-mlc25"}, "no section [nosection]"},
        {{"--target", "sim:generic-mlc25"}, "no profile named"},
    };
    for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
        char *argv[16] = {NULL, "profile"};
        int n = 2;
        for (int i = 0; i < 8 && cases[c].args[i]; i++)
            argv[n++] = (char *)cases[c].args[i];
        argv[n++] = "-o";
        argv[n++] = (char *)out;
        argv[0] = (char *)ptsbench_bin();
        struct cmd_result r;
        assert_int_equal(run_cmd(argv, &r), 0);
        print_message("  %s", r.errout);
        assert_int_equal(r.status, 2);
        assert_non_null(strstr(r.errout, cases[c].want));
        assert_true(strchr(r.errout, '\n') == r.errout + strlen(r.errout) - 1);   /* one line */
        cmd_result_free(&r);
        struct stat st;
        assert_int_not_equal(stat(out, &st), 0);
    }
}

/* --list shows the profiles with their descriptions and the workloads of multi-part ones. */
static void test_list(void **state)
{
    (void)state;
    char *argv[] = {(char *)ptsbench_bin(), "profile", "--list", NULL};
    struct cmd_result r;
    assert_int_equal(run_cmd(argv, &r), 0);
    assert_int_equal(r.status, 0);
    const char *want[] = {"database", "fileserver", "webserver", "workstation", "streaming-read",
                          "atto-write-8m", "rand-4k-write", "randread-4k-64jobs", "qd-ramp-4k-write"};
    for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
        assert_non_null(strstr(r.out, want[i]));
    cmd_result_free(&r);
}

static int zram_remove_after(void **state)
{
    (void)state;
    zram_remove_all();   /* also when an assertion failed half-way */
    return 0;
}

/* compr_data_size, the second field of the device's mm_stat. */
static unsigned long long zram_compr_bytes(const char *dev)
{
    char buf[256];
    unsigned long long orig = 0, compr = 0;
    if (!zram_attr(dev, "mm_stat", buf, sizeof(buf)) ||
        sscanf(buf, "%llu %llu", &orig, &compr) != 2)
        compr = 0;
    return compr;
}

/* zram is a 4Kn device: it cannot do the web server mix's 512 B - 2 KiB transfers. The runner
 * raises them to 4 KiB and says so; ATTO's 0.5-2 KiB points are skipped. A dry run writes
 * nothing. */
static void sub_sector_sizes(const char *dev)
{
    const char *out = out_dir("subsector");
    char *argv[] = {NULL, "profile", "webserver", "atto:atto-read-2k", "atto:atto-read-4k",
                    "--target", (char *)dev, "--destructive", "--dry-run", "-o", (char *)out,
                    NULL};
    char *text = NULL;
    struct json_object *doc = ptsbench_results(argv, out, 0, &text);
    assert_null(doc);   /* dry run: nothing written */
    struct stat st;
    assert_int_not_equal(stat(out, &st), 0);
    assert_non_null(text);
    print_message("%s", text);
    assert_non_null(strstr(text, "512, 1k, 2k (45% of I/Os) raised to 4k"));
    assert_non_null(strstr(text, "bs=2k is below the 4k logical sector; its points are skipped"));
    assert_non_null(strstr(text, "5 points"));   /* webserver 2 x 2 (its sweeps), atto 4k: 1 */
    free(text);
}

/* The server profiles on zram (a compressing block device; a new one of our own for each
 * compressibility): database and webserver at 0% and 90% compressible data, 1 and 4 workers,
 * short fixed rounds after WIPC. After the database run zram holds far less at 90% (real
 * compression happened); webserver reads what WIPC wrote at that compressibility; the results
 * carry all four points of each profile. */
static void test_server_profiles_on_zram(void **state)
{
    (void)state;
    unsigned long long compr[2] = {0, 0};
    const unsigned pct[2] = {0, 90};
    for (int c = 0; c < 2; c++) {
        char dev[64];
        if (!zram_create("256M", dev, sizeof(dev))) {
            print_message("SKIP: zram not available: server profiles on zram not run\n");
            skip();
        }
        if (c == 0)
            sub_sector_sizes(dev);
        char cs[8];
        snprintf(cs, sizeof(cs), "%u", pct[c]);
        const char *names[2] = {"database", "webserver"};
        for (int p = 0; p < 2; p++) {
            char name[64];
            snprintf(name, sizeof(name), "zram-%s-%u", names[p], pct[c]);
            const char *out = out_dir(name);
            char *argv[] = {NULL, "profile", (char *)names[p], "--target", dev, "--destructive",
                            "--compress", cs, "--workers", "1,4", "--precondition", "wipc",
                            "--rounds", "2", "--round-time", "1s", "--quiet", "-o", (char *)out,
                            NULL};
            struct json_object *doc = ptsbench_results(argv, out, 0, NULL);
            assert_non_null(doc);
            if (p == 0)
                compr[c] = zram_compr_bytes(dev);
            assert_int_equal(alen(doc, "points"), 2);
            for (unsigned i = 0; i < 2; i++) {
                assert_int_equal((int)pnum(doc, i, "compress_pct"), (int)pct[c]);
                assert_int_equal((int)pnum(doc, i, "workers"), i ? 4 : 1);
                assert_int_equal((int)pnum(doc, i, "effective_qd"), (i ? 4 : 1) * 32);
                assert_true(pnum(doc, i, "result.total.iops") > 1000);
                print_message("  %-9s %2u%% %u worker%s: %8.0f IOPS, mean %7.1f us\n", names[p],
                              pct[c], i ? 4 : 1, i ? "s" : " ", pnum(doc, i, "result.total.iops"),
                              pnum(doc, i, "result.total.lat_us.mean"));
            }
            if (p == 0) {   /* the data written was measured, and was what was asked for */
                for (unsigned i = 0; i < 2; i++) {
                    assert_string_equal(pstr(doc, i, "result.data.source"), "written");
                    double zl = pnum(doc, i, "result.data.zlib_compress_pct");
                    double l4 = pnum(doc, i, "result.data.lz4_compress_pct");
                    print_message("  database %u%%: measured %.1f%% (zlib), %.1f%% (lz4)\n",
                                  pct[c], zl, l4);
                    assert_true(fabs(zl - pct[c]) <= 5.0 && fabs(l4 - pct[c]) <= 5.0);
                }
            }
            if (p == 1) {   /* 512 B - 2 KiB raised to zram's 4 KiB sectors, and said so */
                assert_non_null(strstr(pstr(doc, 0, "adapted"), "raised to 4k"));
                assert_true(pnum(doc, 0, "result.write.iops") == 0);
            }
            json_object_put(doc);
        }
        zram_remove(dev);
    }
    print_message("  zram compressed size after database: %llu bytes at 0%%, %llu at 90%%\n",
                  compr[0], compr[1]);
    assert_true(compr[0] > 0);
    assert_true(compr[1] * 3 <= compr[0]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_qd_ramp_saturation_on_sim),
        cmocka_unit_test(test_steady_precondition_on_sim),
        cmocka_unit_test(test_bad_input),
        cmocka_unit_test(test_list),
        cmocka_unit_test_teardown(test_server_profiles_on_zram, zram_remove_after),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
