/* test_quick.c — `ptsbench quick` (CrystalDiskMark's corners as a profile with its own table,
 * --json and chart) and `--time-limit` of run, profile and suite, on the simulated drive with
 * short rounds: the quick mark's eight figures and their state labels, the results file that
 * show reads as a profile, bad input (exit 2, nothing written), an existing file refused
 * without --destructive; a limit shorter than the rounds cuts them in the plan (said, and
 * recorded), and no round starts past it (points left recorded as cut). */
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
#include <unistd.h>

#include "helpers.h"
#include "stats/hist.h"

static char *dir;

static int setup(void **state)
{
    (void)state;
    dir = make_temp_dir("quick");
    return dir ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    remove_tree(dir);
    free(dir);
    return 0;
}

static const char *path_in(const char *name)
{
    static char buf[4][512];
    static unsigned k;
    char *b = buf[k++ % 4];
    snprintf(b, 512, "%s/%s", dir, name);
    return b;
}

static bool exists(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0;
}

static const char *str_at(struct json_object *o, const char *dotted)
{
    struct json_object *v = json_at(o, dotted);
    return v ? json_object_get_string(v) : "";
}

/* The latency count of the quick mark's point for test ("SEQ1M Q8T1") and direction in
 * OUT/results.json (its workload "seq1m-q8t1-write"); -1 when not found. */
static double point_count(const char *out, const char *test, const char *dir_name)
{
    char res[600], wl[64];
    snprintf(res, sizeof(res), "%s/results.json", out);
    size_t n = 0;
    for (const char *c = test; *c && n + 1 < sizeof(wl); c++)
        wl[n++] = *c == ' ' ? '-' : (char)(*c >= 'A' && *c <= 'Z' ? *c - 'A' + 'a' : *c);
    snprintf(wl + n, sizeof(wl) - n, "-%s", dir_name);
    struct json_object *doc = load_json(res), *pts = json_at(doc, "points");
    double count = -1;
    for (size_t i = 0; pts && i < json_object_array_length(pts); i++) {
        struct json_object *p = json_object_array_get_idx(pts, i);
        if (!strcmp(json_object_get_string(json_at(p, "workload")), wl))
            count = json_num(p, "result.total.lat_us.count");
    }
    json_object_put(doc);
    return count;
}

/* The quick mark on the simulated drive (2 s per figure): one JSON object on stdout with the
 * four tests, read and write, every figure measured and labelled burst; OUT/results.json a
 * profile document marked "quick" with eight complete points; show reads it. */
static void test_quick_json_on_sim(void **state)
{
    (void)state;
    const char *out = path_in("json");
    struct cmd_result r;
    /* 2 s + 1 s of ramp: the sequential writes cover the 1 GiB the reads read */
    const char *args[] = {"quick", "sim:generic-mlc25", "--time", "2s", "--json", "-o", out,
                          NULL};
    uint64_t t0 = test_now_ns();
    assert_int_equal(ptsbench_run(&r, args), 0);
    print_message("  quick --json on the simulated drive: %.1f s\n",
                  (double)(test_now_ns() - t0) / 1e9);
    struct json_object *o = json_tokener_parse(r.out);
    assert_non_null(o);   /* stdout is one JSON object, nothing else */
    assert_string_equal(str_at(o, "schema"), "ptsbench.quick");
    assert_true(json_object_get_boolean(json_at(o, "simulated")));
    static const char *const tests[] = {"SEQ1M Q8T1", "SEQ128K Q32T1", "RND4K Q32T1",
                                        "RND4K Q1T1"};
    struct json_object *ts = json_at(o, "tests");
    assert_int_equal(json_object_array_length(ts), 4);
    for (unsigned i = 0; i < 4; i++) {
        struct json_object *t = json_object_array_get_idx(ts, i);
        assert_string_equal(str_at(t, "test"), tests[i]);
        for (int d = 0; d < 2; d++) {
            const char *dir_name = d ? "write" : "read";
            char k[64];
            snprintf(k, sizeof(k), "%s.mb_s", dir_name);
            assert_true(json_num(t, k) > 0);
            snprintf(k, sizeof(k), "%s.iops", dir_name);
            assert_true(json_num(t, k) > 0);
            snprintf(k, sizeof(k), "%s.lat_p99_us", dir_name);
            const double p99 = json_num(t, k);
            if (!(p99 > 0)) {   /* null only where the point's I/Os do not support a 99th */
                assert_true(isnan(p99));
                assert_false(hist_pct_supported((uint64_t)point_count(out, tests[i], dir_name),
                                                99));
            }
            snprintf(k, sizeof(k), "%s.state", dir_name);
            assert_string_equal(str_at(t, k), "burst, not preconditioned");
        }
    }
    /* 1 MiB at QD 8 moves more bytes a second than 4 KiB at QD 1 (read) */
    assert_true(json_num(json_object_array_get_idx(ts, 0), "read.mb_s") >
                json_num(json_object_array_get_idx(ts, 3), "read.mb_s"));
    json_object_put(o);
    cmd_result_free(&r);

    char res[600];
    snprintf(res, sizeof(res), "%s/results.json", out);
    struct json_object *doc = load_json(res);
    assert_non_null(doc);
    assert_string_equal(str_at(doc, "schema"), "ptsbench.profile");
    assert_string_equal(str_at(doc, "mark"), "quick");
    assert_string_equal(str_at(doc, "status"), "complete");
    struct json_object *pts = json_at(doc, "points");
    assert_int_equal(json_object_array_length(pts), 8);
    for (unsigned i = 0; i < 8; i++) {
        struct json_object *p = json_object_array_get_idx(pts, i);
        assert_string_equal(str_at(p, "status"), "complete");
        assert_true(json_num(p, "ramp_s") > 0);   /* a ramp before the measured round */
        assert_true(fabs(json_num(p, "round_time_s") - 2) < 1e-9);
    }
    json_object_put(doc);

    const char *show[] = {"show", out, NULL};
    assert_int_equal(ptsbench_run(&r, show), 0);
    assert_non_null(strstr(r.out, "rnd4k-q1t1-read"));
    cmd_result_free(&r);
}

/* Without --json, with the defaults (5 s per figure) and -q: one table whose rows are the tests
 * and whose figures are in the one figure format (thousands separators), each row with its
 * drive state; README.md shows this very table (its lines are checked here, so the README's
 * figures are the program's). */
static void test_quick_table_on_sim(void **state)
{
    (void)state;
    const char *out = path_in("table");
    struct cmd_result r;
    const char *args[] = {"quick", "--target", "sim:generic-mlc25", "-q", "-o", out, NULL};
    assert_int_equal(ptsbench_run(&r, args), 0);
    const char *table = strstr(r.out, "\ntest ");
    assert_non_null(table);
    assert_non_null(strstr(table, "read MB/s"));
    assert_non_null(strstr(table, "write p99"));
    const char *data = getenv("PTSBENCH_DATADIR");
    char readme_path[600];
    snprintf(readme_path, sizeof(readme_path), "%s/README.md", data && *data ? data : ".");
    char *readme = slurp_file(readme_path, NULL);
    assert_non_null(readme);
    unsigned rows = 0;
    for (const char *l = table + 1; *l;) {
        const char *eol = strchr(l, '\n');
        size_t n = eol ? (size_t)(eol - l) : strlen(l);
        char line[512];
        snprintf(line, sizeof(line), "%.*s", (int)n, l);
        if (!strncmp(line, "SEQ", 3) || !strncmp(line, "RND", 3) || !strncmp(line, "test ", 5)) {
            if (!strstr(readme, line))
                fail_msg("README.md lacks the quick table's line:\n%s", line);
            if (line[0] != 't') {
                assert_non_null(strstr(line, "burst, not preconditioned"));
                rows++;
            }
        }
        l += n + (eol != NULL);
    }
    assert_int_equal(rows, 4);
    assert_non_null(strstr(table, "\nRND4K Q32T1"));
    assert_non_null(strstr(strstr(table, "\nRND4K Q32T1"), ","));   /* IOPS with a separator */
    assert_non_null(strstr(r.out, "simulated drive"));
    free(readme);
    cmd_result_free(&r);
}

/* Bad input exits 2 and writes nothing; an existing file that holds data is refused without
 * --destructive and left as it was. */
static void test_quick_bad_input(void **state)
{
    (void)state;
    const char *out = path_in("bad");
    const char *const cases[][8] = {
        {"quick", NULL},
        {"quick", "sim:generic-mlc25", "sim:generic-mlc25", "-o", out, NULL},
        {"quick", "sim:no-such-preset", "-o", out, NULL},
        {"quick", "sim:generic-mlc25", "--time", "0", "-o", out, NULL},
        {"quick", "sim:generic-mlc25", "--precondition", "sometimes", "-o", out, NULL},
        {"quick", "sim:generic-mlc25", "--no-such-option", "-o", out, NULL},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        struct cmd_result r;
        assert_int_equal(ptsbench_run(&r, cases[i]), 2);
        assert_true(is_one_line(r.errout));
        cmd_result_free(&r);
        assert_false(exists(out));
    }
    /* a file of the quick mark's 1 GiB with 4 MiB of data in it (the rest sparse) */
    const char *file = path_in("data.bin");
    FILE *f = fopen(file, "wb");
    assert_non_null(f);
    static unsigned char block[1 << 16];
    memset(block, 0x5a, sizeof(block));
    for (int i = 0; i < 64; i++)
        assert_int_equal(fwrite(block, 1, sizeof(block), f), sizeof(block));
    assert_int_equal(ftruncate(fileno(f), 1 << 30), 0);
    fclose(f);
    struct cmd_result r;
    const char *args[] = {"quick", file, "-o", out, NULL};
    assert_int_equal(ptsbench_run(&r, args), 2);
    assert_non_null(strstr(r.errout, "--destructive"));
    cmd_result_free(&r);
    assert_false(exists(out));
    struct stat st;
    assert_int_equal(stat(file, &st), 0);
    assert_int_equal(st.st_size, 1 << 30);
    f = fopen(file, "rb");
    assert_non_null(f);
    for (int i = 0; i < 64; i++) {
        static unsigned char back[1 << 16];
        assert_int_equal(fread(back, 1, sizeof(back), f), sizeof(back));
        assert_memory_equal(back, block, sizeof(back));
    }
    fclose(f);
}

/* run --time-limit: 7 s of 1 s rounds where 25 were asked: the plan says the cut, the run
 * stops at 7 rounds (--all-rounds: it would go on) and records the limit and the cut. */
static void test_run_time_limit(void **state)
{
    (void)state;
    const char *out = path_in("run-limit");
    char *argv[] = {NULL, "run", "--target", "sim:generic-mlc25", "-w",
                    "rw=randwrite,bs=4k,qd=32", "--round-time", "1s", "--rounds", "25",
                    "--all-rounds", "--time-limit", "7s", "-o", (char *)out, NULL};
    char *text = NULL;
    struct json_object *doc = ptsbench_results(argv, out, 0, &text);
    assert_non_null(doc);
    assert_non_null(strstr(text, "limit   7 s of virtual time: rounds cut from 25 to 7"));
    free(text);
    assert_int_equal(json_object_array_length(json_at(doc, "rounds")), 7);
    assert_true(json_num(doc, "run.time_limit.limit_s") == 7);
    assert_true(json_object_get_boolean(json_at(doc, "run.time_limit.cut")));
    assert_true(json_num(doc, "run.time_limit.max_rounds_planned") == 25);
    assert_true(json_num(doc, "run.time_limit.spent_s") <= 7.5);
    json_object_put(doc);
}

/* profile --time-limit: two points of up to 10 fixed 1 s rounds in 4 s: the plan cuts them to
 * 2 each; with WIPC first (counted, not planned: 2 x 1 GiB on the simulated drive takes longer
 * than the limit) no round starts and both points are recorded as cut. */
static void test_profile_time_limit(void **state)
{
    (void)state;
    const char *ini = path_in("limit.ini");
    FILE *f = fopen(ini, "w");
    assert_non_null(f);
    fputs("[global]\nrw=randwrite\nbs=4k\niodepth=4\nsize=1g\nprecondition=none\n", f);
    fclose(f);
    const char *out = path_in("profile-limit");
    char *argv[] = {NULL, "profile", (char *)ini, "--target", "sim:generic-mlc25", "--qd", "1,4",
                    "--rounds", "10", "--round-time", "1s", "--time-limit", "4s", "-o",
                    (char *)out, NULL};
    char *text = NULL;
    struct json_object *doc = ptsbench_results(argv, out, 0, &text);
    assert_non_null(doc);
    assert_non_null(strstr(text, "time limit 4 s of virtual time: rounds cut from 10 to 2"));
    free(text);
    assert_true(json_object_get_boolean(json_at(doc, "time_limit.cut")));
    assert_true(json_num(doc, "time_limit.max_rounds") == 2);
    for (unsigned i = 0; i < 2; i++) {
        char k[64];
        snprintf(k, sizeof(k), "points.%u.rounds", i);
        assert_int_equal(json_object_array_length(json_at(doc, k)), 2);
    }
    json_object_put(doc);

    const char *out2 = path_in("profile-limit-wipc");
    char *argv2[] = {NULL, "profile", (char *)ini, "--target", "sim:generic-mlc25", "--qd",
                     "1,4", "--rounds", "10", "--round-time", "1s", "--precondition", "wipc",
                     "--time-limit", "4s", "-o", (char *)out2, NULL};
    doc = ptsbench_results(argv2, out2, 0, NULL);
    assert_non_null(doc);
    assert_true(json_object_get_boolean(json_at(doc, "time_limit.stopped_rounds")));
    assert_true(json_num(doc, "time_limit.points_cut") == 2);
    assert_string_equal(str_at(doc, "points.0.status"), "cut");
    assert_string_equal(str_at(doc, "points.1.status"), "cut");
    json_object_put(doc);
}

/* suite --time-limit: the plan cuts the IOPS test's 25 rounds to what fits, and says so. */
static void test_suite_time_limit_plan(void **state)
{
    (void)state;
    struct cmd_result r;
    const char *args[] = {"suite", "--target", "sim:generic-mlc25", "--tests", "iops",
                          "--round-time", "1s", "--time-limit", "5m", "--dry-run", "-o",
                          path_in("suite"), NULL};
    assert_int_equal(ptsbench_run(&r, args), 0);
    assert_non_null(strstr(r.out, "time limit 5m00s: rounds cut from 25 to 5 per test"));
    cmd_result_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_quick_json_on_sim),
        cmocka_unit_test(test_quick_table_on_sim),
        cmocka_unit_test(test_quick_bad_input),
        cmocka_unit_test(test_run_time_limit),
        cmocka_unit_test(test_profile_time_limit),
        cmocka_unit_test(test_suite_time_limit_plan),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
