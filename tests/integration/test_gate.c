/* test_gate.c — `ptsbench gate` end to end on the fixture results: the same results pass, IOPS
 * lowered by 20% fail with JUnit failures, a missing file and bad options are usage errors,
 * and --update-baseline writes the new baseline (a file, or a directory swapped in whole) only
 * when the gate passes or is forced. */
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
#include <sys/wait.h>
#include <unistd.h>

#include "helpers.h"

static char *dir;

static int setup(void **state)
{
    (void)state;
    dir = make_temp_dir("gate");
    return dir ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    remove_tree(dir);
    free(dir);
    return 0;
}

/* A path in the test directory (one of 8 rotating buffers: copy what must last). */
static const char *tmp_path(const char *name)
{
    static char buf[8][4096];
    static unsigned k;
    char *b = buf[k++ % 8];
    snprintf(b, 4096, "%s/%s", dir, name);
    return b;
}

static const char *fixture(const char *name)
{
    static char buf[4][4096];
    static unsigned k;
    char *b = buf[k++ % 4];
    const char *root = getenv("PTSBENCH_DATADIR");
    snprintf(b, 4096, "%s/tests/fixtures/results/%s", root && *root ? root : ".", name);
    return b;
}

/* Run ptsbench gate ARGS...; returns the exit status, output in *r (caller frees). */
static int gate(struct cmd_result *r, const char *const *args)
{
    char *argv[32];
    int n = 0;
    argv[n++] = (char *)ptsbench_bin();
    argv[n++] = "gate";
    for (; *args && n < 31; args++)
        argv[n++] = (char *)*args;
    argv[n] = NULL;
    if (run_cmd(argv, r) != 0)
        return -1;
    return r->status;
}

static char *read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = calloc(1, (size_t)n + 1);
    if (fread(b, 1, (size_t)n, f) != (size_t)n) {
        free(b);
        b = NULL;
    }
    fclose(f);
    return b;
}

static bool same_file(const char *a, const char *b)
{
    char *x = read_text(a), *y = read_text(b);
    bool same = x && y && !strcmp(x, y);
    free(x);
    free(y);
    return same;
}

static unsigned count(const char *hay, const char *needle)
{
    unsigned n = 0;
    for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
        n++;
    return n;
}

/* Multiply every IOPS figure (iops, read_iops, write_iops: numbers and per-second arrays) in
 * the document by f, wherever it is: rounds, tables, results. */
static void scale_iops(struct json_object *o, double f)
{
    if (json_object_is_type(o, json_type_array)) {
        for (size_t i = 0; i < json_object_array_length(o); i++)
            scale_iops(json_object_array_get_idx(o, i), f);
        return;
    }
    if (!json_object_is_type(o, json_type_object))
        return;
    const char *keys[256];
    size_t n = 0;
    json_object_object_foreach(o, key, val) {
        (void)val;
        if (n < 256)
            keys[n++] = key;
    }
    for (size_t i = 0; i < n; i++) {
        struct json_object *v = json_object_object_get(o, keys[i]);
        bool iops = !strcmp(keys[i], "iops") || !strcmp(keys[i], "read_iops") ||
                    !strcmp(keys[i], "write_iops");
        if (iops && (json_object_is_type(v, json_type_double) ||
                     json_object_is_type(v, json_type_int))) {
            json_object_object_add(o, keys[i], json_object_new_double(json_object_get_double(v) * f));
        } else if (iops && json_object_is_type(v, json_type_array)) {
            for (size_t k = 0; k < json_object_array_length(v); k++) {
                struct json_object *x = json_object_array_get_idx(v, k);
                if (json_object_is_type(x, json_type_double) || json_object_is_type(x, json_type_int))
                    json_object_array_put_idx(v, k, json_object_new_double(json_object_get_double(x) * f));
            }
        } else {
            scale_iops(v, f);
        }
    }
}

/* The profile fixture (8 points on the simulated Z-Drive R4) with IOPS lowered by 20%. */
static const char *lowered_profile(void)
{
    const char *out = tmp_path("profile-r4-low.json");
    struct stat st;
    if (stat(out, &st) == 0)
        return out;
    char src[4200];
    snprintf(src, sizeof(src), "%s/results.json", fixture("profile-r4"));
    struct json_object *doc = load_json(src);
    assert_non_null(doc);
    scale_iops(doc, 0.8);
    assert_int_equal(json_object_to_file_ext(out, doc, JSON_C_TO_STRING_PLAIN), 0);
    json_object_put(doc);
    return out;
}

static bool have_xmllint(void)
{
    return access("/usr/bin/xmllint", X_OK) == 0 || access("/usr/local/bin/xmllint", X_OK) == 0;
}

static void xmllint_schema(const char *xml)
{
    if (!have_xmllint()) {
        printf("xmllint not installed: JUnit schema validation skipped\n");
        return;
    }
    char xsd[4200];
    const char *root = getenv("PTSBENCH_DATADIR");
    snprintf(xsd, sizeof(xsd), "%s/tests/fixtures/junit/junit.xsd", root && *root ? root : ".");
    char *argv[] = {"xmllint", "--noout", "--schema", xsd, (char *)xml, NULL};
    struct cmd_result r;
    assert_int_equal(run_cmd(argv, &r), 0);
    if (r.status != 0)
        printf("xmllint: %s\n", r.errout);
    assert_int_equal(r.status, 0);
    cmd_result_free(&r);
}

static void test_same_results_pass(void **state)
{
    (void)state;
    struct cmd_result r;
    const char *junit = tmp_path("same.xml"), *json = tmp_path("same.json");
    const char *args[] = {"--baseline", fixture("suite-6300"), "--current", fixture("suite-6300"),
                          "--junit", junit, "--json", json, NULL};
    assert_int_equal(gate(&r, args), 0);
    assert_non_null(strstr(r.out, "gate: PASS"));
    cmd_result_free(&r);
    char *x = read_text(junit);
    assert_non_null(x);
    assert_non_null(strstr(x, "failures=\"0\""));
    assert_int_equal(count(x, "<failure"), 0);
    assert_true(count(x, "<testcase ") > 100);
    free(x);
    xmllint_schema(junit);
    struct json_object *doc = load_json(json);
    assert_non_null(doc);
    assert_string_equal(json_object_get_string(json_at(doc, "schema")), "ptsbench.gate");
    assert_string_equal(json_object_get_string(json_at(doc, "verdict")), "pass");
    assert_true(json_num(doc, "summary.pass") > 100);
    assert_true(json_num(doc, "summary.regression") == 0);
    json_object_put(doc);
    /* a results file against itself, as a file rather than a directory */
    char f[4200];
    snprintf(f, sizeof(f), "%s/results.json", fixture("run-generic"));
    const char *args2[] = {"-b", f, "-c", f, "--tolerance", "0", NULL};
    assert_int_equal(gate(&r, args2), 0);
    cmd_result_free(&r);
}

static void test_iops_20pct_lower_fails(void **state)
{
    (void)state;
    const char *cur = lowered_profile();
    char base[4200];
    snprintf(base, sizeof(base), "%s/results.json", fixture("profile-r4"));
    const char *junit = tmp_path("low.xml"), *json = tmp_path("low.json");
    struct cmd_result r;
    const char *args[] = {"--baseline", base, "--current", cur, "--tolerance", "5%", "--junit",
                          junit, "--json", json, NULL};
    assert_int_equal(gate(&r, args), 1);
    printf("%s", r.out);
    assert_non_null(strstr(r.out, "REGRESSION"));
    assert_non_null(strstr(r.out, "-20.0%"));   /* UNITS_FIG_PCT */
    assert_non_null(strstr(r.out, "gate: FAIL: 8 regressions"));
    cmd_result_free(&r);
    char *x = read_text(junit);
    assert_non_null(x);
    assert_non_null(strstr(x, "failures=\"8\""));
    assert_int_equal(count(x, "<failure "), 8);
    assert_int_equal(count(x, "type=\"regression\""), 8);
    assert_int_equal(count(x, "<testcase "), 32);
    free(x);
    xmllint_schema(junit);
    struct json_object *doc = load_json(json);
    assert_non_null(doc);
    assert_string_equal(json_object_get_string(json_at(doc, "verdict")), "fail");
    assert_true(json_num(doc, "summary.regression") == 8);
    json_object_put(doc);

    /* a 25% tolerance lets it through; only IOPS selected, all 8 cases pass */
    const char *args2[] = {"-b", base, "-c", cur, "--tolerance", "25", "--metrics", "iops", NULL};
    assert_int_equal(gate(&r, args2), 0);
    assert_non_null(strstr(r.out, "8 pass"));
    cmd_result_free(&r);
    /* latency only: unchanged, passes */
    const char *args3[] = {"-b", base, "-c", cur, "--metrics", "lat_mean_us,lat_p99_us", NULL};
    assert_int_equal(gate(&r, args3), 0);
    cmd_result_free(&r);
    /* JSON on stdout, the table on stderr */
    const char *args4[] = {"-b", base, "-c", cur, "--json", "-", NULL};
    assert_int_equal(gate(&r, args4), 1);
    struct json_object *j = json_tokener_parse(r.out);
    assert_non_null(j);
    assert_string_equal(json_object_get_string(json_at(j, "verdict")), "fail");
    json_object_put(j);
    assert_non_null(strstr(r.errout, "REGRESSION"));
    cmd_result_free(&r);
}

static void test_usage_errors(void **state)
{
    (void)state;
    struct cmd_result r;
    const char *missing = tmp_path("no-such-results.json");
    const char *a1[] = {"--baseline", missing, "--current", fixture("suite-6300"), NULL};
    assert_int_equal(gate(&r, a1), 2);
    assert_non_null(strstr(r.errout, "no-such-results.json"));
    cmd_result_free(&r);
    const char *a2[] = {"--baseline", fixture("suite-6300"), "--current", missing, NULL};
    assert_int_equal(gate(&r, a2), 2);
    cmd_result_free(&r);
    const char *a3[] = {"--baseline", fixture("suite-6300"), NULL};
    assert_int_equal(gate(&r, a3), 2);
    assert_non_null(strstr(r.errout, "--current"));
    cmd_result_free(&r);
    const char *a4[] = {"-b", fixture("suite-6300"), "-c", fixture("suite-6300"), "--tolerance",
                        "five", NULL};
    assert_int_equal(gate(&r, a4), 2);
    assert_non_null(strstr(r.errout, "--tolerance five: want a percentage"));
    assert_int_equal(count(r.errout, "\n"), 1);
    cmd_result_free(&r);
    const char *a5[] = {"-b", fixture("suite-6300"), "-c", fixture("suite-6300"), "--metrics",
                        "iops,speed", NULL};
    assert_int_equal(gate(&r, a5), 2);
    assert_non_null(strstr(r.errout, "'speed'"));
    cmd_result_free(&r);
    const char *a6[] = {"-b", fixture("suite-6300"), "-c", fixture("suite-6300"), "--bogus", NULL};
    assert_int_equal(gate(&r, a6), 2);
    cmd_result_free(&r);
    const char *a7[] = {"--help", NULL};
    assert_int_equal(gate(&r, a7), 0);
    assert_non_null(strstr(r.out, "--update-baseline"));
    cmd_result_free(&r);
    /* an output that cannot be written */
    const char *a8[] = {"-b", fixture("suite-6300"), "-c", fixture("suite-6300"), "--junit",
                        tmp_path("no-dir/x.xml"), NULL};
    assert_int_equal(gate(&r, a8), 2);
    cmd_result_free(&r);
}

static void test_update_baseline_file(void **state)
{
    (void)state;
    char base[4200];
    snprintf(base, sizeof(base), "%s/results.json", fixture("profile-r4"));
    const char *newbase = tmp_path("baseline.json");
    struct cmd_result r;
    /* passes: written */
    const char *a1[] = {"-b", base, "-c", base, "--update-baseline", newbase, NULL};
    assert_int_equal(gate(&r, a1), 0);
    assert_non_null(strstr(r.out, "baseline updated"));
    cmd_result_free(&r);
    assert_true(same_file(newbase, base));
    char tmp[4200];
    snprintf(tmp, sizeof(tmp), "%s.tmp", newbase);
    assert_int_not_equal(access(tmp, F_OK), 0);
    /* fails: not written */
    const char *low = lowered_profile();
    const char *a2[] = {"-b", newbase, "-c", low, "--update-baseline", newbase, NULL};
    assert_int_equal(gate(&r, a2), 1);
    assert_non_null(strstr(r.out, "baseline not updated"));
    cmd_result_free(&r);
    assert_true(same_file(newbase, base));
    /* forced: written, the exit status still says the gate failed */
    const char *a3[] = {"-b", newbase, "-c", low, "--update-baseline", newbase, "--force-update",
                        NULL};
    assert_int_equal(gate(&r, a3), 1);
    cmd_result_free(&r);
    assert_true(same_file(newbase, low));
    /* and the updated baseline is then the reference */
    const char *a4[] = {"-b", newbase, "-c", low, NULL};
    assert_int_equal(gate(&r, a4), 0);
    cmd_result_free(&r);
    /* a directory as the destination: PATH/results.json */
    const char *d = tmp_path("basedir");
    assert_int_equal(mkdir(d, 0755), 0);
    const char *a5[] = {"-b", base, "-c", base, "--update-baseline", d, NULL};
    assert_int_equal(gate(&r, a5), 0);
    cmd_result_free(&r);
    assert_true(same_file(tmp_path("basedir/results.json"), base));
}

static void copy_into(const char *src, const char *dst)
{
    char *t = read_text(src);
    assert_non_null(t);
    FILE *f = fopen(dst, "wb");
    assert_non_null(f);
    fputs(t, f);
    fclose(f);
    free(t);
}

static void test_update_baseline_directory(void **state)
{
    (void)state;
    /* current: a directory with two results at different depths, plus a fio artifact dir */
    char cur[4096], base[4096];
    snprintf(cur, sizeof(cur), "%s", tmp_path("cur"));
    snprintf(base, sizeof(base), "%s", tmp_path("base"));
    assert_int_equal(mkdir(cur, 0755), 0);
    assert_int_equal(mkdir(tmp_path("cur/profile"), 0755), 0);
    assert_int_equal(mkdir(tmp_path("cur/run"), 0755), 0);
    char src[4200];
    snprintf(src, sizeof(src), "%s/results.json", fixture("profile-r4"));
    copy_into(src, tmp_path("cur/profile/results.json"));
    snprintf(src, sizeof(src), "%s/results.json", fixture("run-generic"));
    copy_into(src, tmp_path("cur/run/results.json"));
    copy_into(src, tmp_path("cur/run/notes.txt"));

    struct cmd_result r;
    const char *a1[] = {"-b", cur, "-c", cur, "--update-baseline", base, NULL};
    assert_int_equal(gate(&r, a1), 0);
    assert_non_null(strstr(r.out, "2 results files"));
    cmd_result_free(&r);
    assert_true(same_file(tmp_path("base/profile/results.json"), tmp_path("cur/profile/results.json")));
    assert_true(same_file(tmp_path("base/run/results.json"), tmp_path("cur/run/results.json")));
    assert_int_not_equal(access(tmp_path("base/run/notes.txt"), F_OK), 0);

    /* replace it: the old contents go, the new ones come, nothing is left beside it */
    copy_into(lowered_profile(), tmp_path("cur/profile/results.json"));
    const char *a2[] = {"-b", base, "-c", cur, "--update-baseline", base, "--force-update", NULL};
    assert_int_equal(gate(&r, a2), 1);
    cmd_result_free(&r);
    assert_true(same_file(tmp_path("base/profile/results.json"), lowered_profile()));
    const char *a3[] = {"-b", base, "-c", cur, NULL};
    assert_int_equal(gate(&r, a3), 0);
    cmd_result_free(&r);
    unsigned leftovers = 0;
    char *ls[] = {"ls", "-a", dir, NULL};
    assert_int_equal(run_cmd(ls, &r), 0);
    leftovers = count(r.out, "base.");
    cmd_result_free(&r);
    assert_int_equal(leftovers, 0);

    /* refused: a destination holding something other than results, or a file */
    copy_into(src, tmp_path("base/README"));
    const char *a4[] = {"-b", base, "-c", cur, "--update-baseline", base, NULL};
    assert_int_equal(gate(&r, a4), 2);
    assert_non_null(strstr(r.errout, "README"));
    cmd_result_free(&r);
    const char *a5[] = {"-b", base, "-c", cur, "--update-baseline", tmp_path("cur/profile"),
                        NULL};
    assert_int_equal(gate(&r, a5), 2);
    assert_non_null(strstr(r.errout, "overlaps"));
    cmd_result_free(&r);
    assert_true(same_file(tmp_path("base/profile/results.json"), lowered_profile()));
}

/* Results of a run that did not complete (interrupted, failed, or left "running" by a writer that
 * is gone) are refused by gate and verify with one line naming the status, exit 1, unless
 * --allow-incomplete: a killed run must not pass a CI gate silently. A "running" file whose
 * writer is a live ptsbench is refused too (the run is still going). */
static void test_incomplete_results_refused(void **state)
{
    (void)state;
    char src[4200];
    snprintf(src, sizeof(src), "%s/results.json", fixture("suite-6300"));
    static const char *const statuses[] = {"interrupted", "failed", "running"};
    for (size_t i = 0; i < 3; i++) {
        struct json_object *doc = load_json(src);
        assert_non_null(doc);
        json_object_object_add(doc, "status", json_object_new_string(statuses[i]));
        if (!strcmp(statuses[i], "running")) {   /* its writer: a pid that has exited */
            pid_t p = fork();
            if (p == 0)
                _exit(0);
            assert_true(p > 0);
            waitpid(p, NULL, 0);
            char boot[64] = "";
            FILE *f = fopen("/proc/sys/kernel/random/boot_id", "r");
            assert_non_null(f);
            assert_non_null(fgets(boot, sizeof(boot), f));
            fclose(f);
            boot[strcspn(boot, "\n")] = '\0';
            struct json_object *w = json_object_new_object();
            json_object_object_add(w, "pid", json_object_new_int64(p));
            json_object_object_add(w, "boot_id", json_object_new_string(boot));
            json_object_object_add(doc, "writer", w);
        }
        char d[4200], path[4300];
        snprintf(d, sizeof(d), "%s/incomplete-%s", dir, statuses[i]);
        assert_int_equal(mkdir(d, 0755), 0);
        snprintf(path, sizeof(path), "%s/results.json", d);
        assert_int_equal(json_object_to_file(path, doc), 0);
        json_object_put(doc);
        struct cmd_result r;
        const char *args[] = {"--baseline", fixture("suite-6300"), "--current", d, NULL};
        int st = gate(&r, args);
        if (st != 1 || !strstr(r.errout, statuses[i]) || !strstr(r.errout, "--allow-incomplete") ||
            strchr(r.errout, '\n') != r.errout + strlen(r.errout) - 1)
            fail_msg("gate on a %s run: exit %d, stderr: %s", statuses[i], st, r.errout);
        if (!strcmp(statuses[i], "running") && !strstr(r.errout, "not running"))
            fail_msg("gate on a dead run does not say its writer is gone: %s", r.errout);
        cmd_result_free(&r);
        const char *args2[] = {"--baseline", fixture("suite-6300"), "--current", d,
                               "--allow-incomplete", NULL};
        assert_int_equal(gate(&r, args2), 0);
        cmd_result_free(&r);
        char *v[] = {(char *)ptsbench_bin(), "verify", "--spec", "zdrive-6300-1.6t", d, NULL};
        assert_int_equal(run_cmd(v, &r), 0);
        if (r.status != 1 || !strstr(r.errout, statuses[i]))
            fail_msg("verify on a %s run: exit %d, stderr: %s", statuses[i], r.status, r.errout);
        cmd_result_free(&r);
        char *v2[] = {(char *)ptsbench_bin(), "verify", "--spec", "zdrive-6300-1.6t", d,
                      "--allow-incomplete", NULL};
        assert_int_equal(run_cmd(v2, &r), 0);
        assert_int_equal(r.status, 0);
        cmd_result_free(&r);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_same_results_pass),
        cmocka_unit_test(test_iops_20pct_lower_fails),
        cmocka_unit_test(test_usage_errors),
        cmocka_unit_test(test_update_baseline_file),
        cmocka_unit_test(test_update_baseline_directory),
        cmocka_unit_test(test_incomplete_results_refused),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
