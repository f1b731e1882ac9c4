/* test_verify.c — `ptsbench verify`: the Z-Drive 6300 spec sheet against the suite-6300
 * fixture (the table is printed; the exit status must agree with the verdicts of --json),
 * spec sheets written here with an impossible claim (exit 1) and with easy claims (exit 0), a
 * claim without data, and bad input (exit 2 with one line). */
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

static char *dir;
static char suite[4096], spec6300[4096];

static int setup(void **state)
{
    (void)state;
    const char *root = getenv("PTSBENCH_DATADIR");
    if (!root || !*root)
        root = ".";
    snprintf(suite, sizeof(suite), "%s/tests/fixtures/results/suite-6300", root);
    snprintf(spec6300, sizeof(spec6300), "%s/specs/zdrive-6300-1.6t.ini", root);
    dir = make_temp_dir("verify");
    return dir ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    remove_tree(dir);
    free(dir);
    return 0;
}

/* ptsbench verify ARGS... (NULL-terminated); the result is the caller's to free */
static struct cmd_result verify(const char *first, ...)
{
    char *argv[32];
    int n = 0;
    argv[n++] = (char *)ptsbench_bin();
    argv[n++] = "verify";
    va_list ap;
    va_start(ap, first);
    for (const char *a = first; a && n < 31; a = va_arg(ap, const char *))
        argv[n++] = (char *)a;
    va_end(ap);
    argv[n] = NULL;
    struct cmd_result r;
    assert_int_equal(run_cmd(argv, &r), 0);
    return r;
}

static const char *write_spec(const char *name, const char *text)
{
    static char path[4096];
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    return path;
}

static unsigned count_lines(const char *s)
{
    unsigned n = 0;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

/* Parse --json output; count the verdicts. */
static struct json_object *verdicts(const char *out, unsigned *pass, unsigned *fail,
                                    unsigned *nodata)
{
    struct json_object *doc = json_tokener_parse(out);
    if (!doc)
        print_error("not JSON:\n%s\n", out);
    assert_non_null(doc);
    struct json_object *claims = json_at(doc, "claims");
    assert_non_null(claims);
    *pass = *fail = *nodata = 0;
    for (size_t i = 0; i < json_object_array_length(claims); i++) {
        char k[64];
        snprintf(k, sizeof(k), "claims.%zu.verdict", i);
        const char *v = json_object_get_string(json_at(doc, k));
        if (!strcmp(v, "pass"))
            (*pass)++;
        else if (!strcmp(v, "fail"))
            (*fail)++;
        else if (!strcmp(v, "no data"))
            (*nodata)++;
        else
            fail_msg("verdict '%s'", v);
    }
    assert_int_equal(json_num(doc, "summary.pass"), *pass);
    assert_int_equal(json_num(doc, "summary.fail"), *fail);
    assert_int_equal(json_num(doc, "summary.no_data"), *nodata);
    return doc;
}

static void test_zdrive_6300(void **state)
{
    (void)state;
    /* the table, by spec name (found in specs/) */
    struct cmd_result t = verify("--spec", "zdrive-6300-1.6t", suite, NULL);
    printf("%s", t.out);
    if (t.status > 1)
        print_error("%s", t.errout);
    assert_true(t.status == 0 || t.status == 1);
    assert_non_null(strstr(t.out, "rnd-read-4k"));
    assert_non_null(strstr(t.out, "PTS IOPS, 4 KiB random, R/W 100/0"));
    assert_non_null(strstr(t.out, "MiB/s"));
    assert_non_null(strstr(t.out, "6 claims:"));

    /* the same as JSON, by path: the exit status agrees with the verdicts */
    struct cmd_result j = verify("--spec", spec6300, suite, "--json", NULL);
    unsigned pass, fail, nodata;
    struct json_object *doc = verdicts(j.out, &pass, &fail, &nodata);
    assert_int_equal(pass + fail + nodata, 6);
    assert_int_equal(j.status, fail ? 1 : 0);
    assert_int_equal(t.status, j.status);
    assert_int_equal(json_num(doc, "exit_status"), j.status);
    assert_int_equal(json_num(doc, "tolerance_pct"), 5);
    /* every claim of this sheet has a point in a PTS suite at its exact conditions */
    assert_int_equal(nodata, 0);
    for (unsigned i = 0; i < 6; i++) {
        char k[64];
        snprintf(k, sizeof(k), "claims.%u.exact_match", i);
        assert_true(json_object_get_boolean(json_at(doc, k)));
    }
    /* the 4 KiB random read claim: 700K IOPS against the IOPS test's table row */
    assert_string_equal(json_object_get_string(json_at(doc, "claims.0.name")), "rnd-read-4k");
    assert_string_equal(json_object_get_string(json_at(doc, "claims.0.point.key")),
                        "suite/iops/bs=4096/read=100");
    assert_int_equal(json_num(doc, "claims.0.claimed"), 700000);
    double m = json_num(doc, "claims.0.measured");
    assert_true(json_num(doc, "claims.0.ratio") > 0);
    assert_true(fabs(json_num(doc, "claims.0.ratio") - m / 700000) < 1e-9);
    /* a latency claim: ratio claimed / measured */
    assert_string_equal(json_object_get_string(json_at(doc, "claims.4.unit")), "\xc2\xb5s");
    assert_true(fabs(json_num(doc, "claims.4.ratio") -
                     120 / json_num(doc, "claims.4.measured")) < 1e-9);
    json_object_put(doc);

    /* a tolerance of 0 turns the 4K read claim (697.7K of 700K) into a failure: exit 1 */
    struct cmd_result z = verify("--spec", spec6300, suite, "--tolerance", "0", "--json", NULL);
    doc = verdicts(z.out, &pass, &fail, &nodata);
    assert_true(fail >= 1);
    assert_int_equal(z.status, 1);
    assert_string_equal(json_object_get_string(json_at(doc, "claims.0.verdict")), "fail");
    json_object_put(doc);
    cmd_result_free(&t);
    cmd_result_free(&j);
    cmd_result_free(&z);
}

static void test_impossible_and_easy(void **state)
{
    (void)state;
    const char *bad = write_spec("impossible.ini",
        "device = Wishful SSD\n"
        "[rnd-read-4k]\nmetric = iops\nvalue = 100M\nunit = IOPS\nbs = 4k\npattern = random\n"
        "read_pct = 100\nqd = 32\nthreads = 4\ncompress = 0\nstate = steady\n"
        "source = made up for the test\n"
        "[lat-read-4k]\nmetric = lat_us\nvalue = 1\nunit = ns\nbs = 4k\npattern = random\n"
        "read_pct = 100\nqd = 1\nthreads = 1\ncompress = 0\nstate = steady\n");
    struct cmd_result r = verify("--spec", bad, suite, "--json", NULL);
    unsigned pass, fail, nodata;
    struct json_object *doc = verdicts(r.out, &pass, &fail, &nodata);
    assert_int_equal(fail, 2);
    assert_int_equal(r.status, 1);
    json_object_put(doc);
    cmd_result_free(&r);
    r = verify("--spec", bad, suite, NULL);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.out, "fail"));
    cmd_result_free(&r);

    /* easy claims pass; a claim without a matching point (64 KiB sequential: the suite's
     * throughput test ran 128 KiB and 1 MiB) is listed as no data and does not fail */
    const char *easy = write_spec("easy.ini",
        "device = Modest SSD\n"
        "[rnd-read-4k]\nmetric = iops\nvalue = 1K\nbs = 4KB\npattern = random\n"
        "read_pct = 100\nqd = 32\nthreads = 4\ncompress = 0\nstate = steady\n"
        "[seq-write-1m]\nmetric = mb_s\nvalue = 0.1 GB/s\nbs = 1MB\npattern = sequential\n"
        "read_pct = 0\nqd = 32\nthreads = 1\ncompress = 0\nstate = steady\n"
        "[lat-write-4k]\nmetric = lat_us\nvalue = 1\nunit = s\nbs = 4k\npattern = random\n"
        "read_pct = 0\nqd = 1\nthreads = 1\ncompress = 0\nstate = steady\n"
        "[seq-read-64k]\nmetric = mib_s\nvalue = 1\nbs = 64k\npattern = sequential\n"
        "read_pct = 100\nqd = 32\nthreads = 1\ncompress = 0\nstate = steady\n");
    r = verify("--spec", easy, "--tolerance", "5%", "--json", suite, NULL);
    doc = verdicts(r.out, &pass, &fail, &nodata);
    assert_int_equal(pass, 3);
    assert_int_equal(fail, 0);
    assert_int_equal(nodata, 1);
    assert_int_equal(r.status, 0);
    assert_null(json_at(doc, "claims.3.point"));
    json_object_put(doc);
    cmd_result_free(&r);
    r = verify("--spec", easy, suite, NULL);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "no measured point matches"));
    assert_non_null(strstr(r.out, "no data"));
    cmd_result_free(&r);
}

/* exit 2 and exactly one line on stderr naming the bad value */
static void usage_error(const char *want, const char *a1, const char *a2, const char *a3,
                        const char *a4, const char *a5)
{
    struct cmd_result r = verify(a1, a2, a3, a4, a5, NULL);
    if (r.status != 2 || count_lines(r.errout) != 1 || !strstr(r.errout, want))
        print_error("exit %d, stderr: %s(want '%s')\n", r.status, r.errout, want);
    assert_int_equal(r.status, 2);
    assert_int_equal(count_lines(r.errout), 1);
    assert_non_null(strstr(r.errout, want));
    assert_string_equal(r.out, "");
    cmd_result_free(&r);
}

static void test_usage_errors(void **state)
{
    (void)state;
    usage_error("--tolerance abc", "--spec", spec6300, "--tolerance", "abc", suite);
    usage_error("--tolerance 200%", "--spec", spec6300, "--tolerance", "200%", suite);
    usage_error("--spec /nonexistent/spec.ini", "--spec", "/nonexistent/spec.ini", suite, NULL,
                NULL);
    usage_error("--spec no-such-drive", "--spec", "no-such-drive", suite, NULL, NULL);
    usage_error("/nonexistent/results", "--spec", spec6300, "/nonexistent/results", NULL, NULL);
    usage_error("--spec FILE is required", suite, NULL, NULL, NULL, NULL);
    usage_error("no RESULTS", "--spec", spec6300, NULL, NULL, NULL);
    usage_error("unknown option '--frobnicate'", "--frobnicate", "--spec", spec6300, suite,
                NULL);
    /* a spec sheet with a mistake: the file and line */
    const char *broken = write_spec("broken.ini",
        "[c]\nmetric = iops\nvalue = 1\nunit = MB/s\nbs = 4k\npattern = random\n"
        "read_pct = 100\n");
    usage_error("broken.ini:1: [c] metric iops", "--spec", broken, suite, NULL, NULL);

    struct cmd_result r = verify("--help", NULL);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "usage: ptsbench verify --spec"));
    assert_non_null(strstr(r.out, "--tolerance"));
    assert_non_null(strstr(r.out, "Exit status"));
    cmd_result_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_zdrive_6300),
        cmocka_unit_test(test_impossible_and_easy),
        cmocka_unit_test(test_usage_errors),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
