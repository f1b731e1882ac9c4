/* test_fast_words.c — every reader says what the fast pass was (issue 48): a point measured after
 * the fast pass is recorded "fast" (a transient), and verify, db, plot (the report's chart tags)
 * and the report say "after the fast pass + WDPC", never "burst after WIPC" or "WIPC + WDPC";
 * a burst claim does not take it. On targets without an FTL (an O_DIRECT file, a zram device of
 * the test's own) the record says ftl "none" and every label says the range was written over
 * sequentially (WIPC's large writes) with no FTL state to shape, never "fast pass" bare.
 * Fixture: a short run on a small simulated drive whose window is stable but inside a transient
 * (`run --target sim:generic-mlc25,blocks_per_plane=16 --workload rw=randwrite,bs=4k,qd=32
 * --purge auto --precondition fast --wdpc-fills 0.05 --wdpc-max-fills 0.05 --rounds 12
 * --round-time 100ms`). On the code before, its measured_state was "wipc", verify's and db's
 * tables said "burst after WIPC" / "wipc", and a burst claim took it. */
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

#define SIM_TARGET "sim:generic-mlc25,blocks_per_plane=16"

static char *dir;

static int setup(void **state)
{
    (void)state;
    dir = make_temp_dir("fastwords");
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

/* A spec sheet of one 4 KiB random-write claim at 1 x 32 in state (fob, steady); its path. */
static void write_spec(const char *state, char *path, size_t len)
{
    snprintf(path, len, "%s/spec-%s.ini", dir, state);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "device = Test drive\nvendor = Test\nmodel = T1\ncapacity = 1TB\nsource = test\n\n"
               "[rnd-write-4k]\nmetric = iops\nvalue = 1000\nbs = 4k\npattern = random\n"
               "read_pct = 0\nqd = 32\nthreads = 1\ncompress = 0\nstate = %s\nsource = test\n",
            state);
    fclose(f);
}

/* `ptsbench ARGS...`: its stdout (the caller frees), exit status want. */
static char *pb(int want, const char *const *args)
{
    struct cmd_result r;
    assert_int_equal(ptsbench_run(&r, args), 0);
    if (r.status != want)
        fprintf(stderr, "%s%s", r.out, r.errout);
    assert_int_equal(r.status, want);
    char *out = strdup(r.out);
    cmd_result_free(&r);
    return out;
}

/* verify of out against a claim in state: its stdout */
static char *verify(const char *out, const char *state)
{
    char spec[600];
    write_spec(state, spec, sizeof(spec));
    const char *a[] = {"verify", "--spec", spec, out, "--any-drive", "--allow-missing",
                       "--allow-incomplete", NULL};
    return pb(0, a);
}

/* the report of out (tables and text: its title carries the chart tag, plot_doc_state_tag): its
 * report.md */
static char *report_md(const char *out, const char *name)
{
    char rep[600], md[640];
    snprintf(rep, sizeof(rep), "%s/rep-%s", dir, name);
    snprintf(md, sizeof(md), "%s/report.md", rep);
    const char *a[] = {"report", out, "--out", rep, "--no-plots", NULL};
    free(pb(0, a));
    char *text = slurp_file(md, NULL);
    assert_non_null(text);
    return text;
}

static void test_transient_after_fast_pass(void **state)
{
    (void)state;
    char out[512];
    snprintf(out, sizeof(out), "%s/sim", dir);
    char *argv[] = {"ptsbench", "run", "--target", SIM_TARGET, "--workload",
                    "rw=randwrite,bs=4k,qd=32,compress=0", "--purge", "auto", "--precondition",
                    "fast", "--wdpc-fills", "0.05", "--wdpc-max-fills", "0.05", "--rounds", "12",
                    "--round-time", "100ms", "--quiet", "--out", out, NULL};
    struct json_object *doc = ptsbench_results(argv, out, 0, NULL);
    assert_non_null(doc);
    assert_string_equal(json_object_get_string(json_at(doc, "steady_state.measured_state")),
                        "fast");
    assert_string_equal(json_object_get_string(json_at(doc, "steady_state.label")),
                        "stable after the fast pass + WDPC, but inside a transient (not steady "
                        "state)");
    json_object_put(doc);

    /* verify: the point's state in words, and a burst claim does not take it */
    char *v = verify(out, "steady");
    assert_non_null(strstr(v, "only data of a transient after the fast pass for a steady-state "
                              "claim (nearest: after the fast pass + WDPC, not steady state)"));
    assert_null(strstr(v, "WIPC"));
    free(v);
    v = verify(out, "fob");
    assert_non_null(strstr(v, "no comparable measurement"));
    assert_null(strstr(v, "WIPC"));
    free(v);

    /* db: the point's state is "fast" */
    char db[600];
    snprintf(db, sizeof(db), "%s/h.db", dir);
    const char *imp[] = {"db", "import", "--db", db, out, NULL};
    free(pb(0, imp));
    const char *show[] = {"db", "show", "--db", db, "1", NULL};
    char *s = pb(0, show);
    assert_non_null(strstr(s, "compress 0%      fast "));
    assert_null(strstr(s, "wipc"));
    free(s);

    /* the report and its chart tags (plot_state_tag) */
    char *md = report_md(out, "sim");
    assert_non_null(strstr(md, "(simulated, transient after the fast pass + WDPC, not steady "
                               "state)"));
    assert_non_null(strstr(md, "after the fast pass + WDPC, not steady state; 1 × QD 32"));
    assert_null(strstr(md, "burst after WIPC"));
    assert_null(strstr(md, "WIPC + WDPC"));
    free(md);
}

/* A steady window after the fast pass stays "steady" (the rule and the guard decide), and its
 * words say what came before it: verify's point state and the report's headline. */
static void test_steady_after_fast_pass(void **state)
{
    (void)state;
    char out[512];
    snprintf(out, sizeof(out), "%s/steady", dir);
    char *argv[] = {"ptsbench", "run", "--target", SIM_TARGET, "--workload",
                    "rw=randwrite,bs=4k,qd=32,compress=0", "--purge", "auto", "--precondition",
                    "fast", "--wdpc-fills", "0.1", "--wdpc-max-fills", "0.2", "--rounds", "20",
                    "--round-time", "1s", "--quiet", "--out", out, NULL};
    struct json_object *doc = ptsbench_results(argv, out, 0, NULL);
    assert_non_null(doc);
    assert_string_equal(json_object_get_string(json_at(doc, "steady_state.measured_state")),
                        "steady");
    json_object_put(doc);
    char *v = verify(out, "steady");
    assert_non_null(strstr(v, "steady state after the fast pass + WDPC"));
    free(v);
    char *md = report_md(out, "steady");
    assert_non_null(strstr(md, "(steady state after the fast pass + WDPC; 1 × QD 32)"));
    free(md);
}

/* A target without an FTL: record, labels, show, verify and report say what the pass was. */
static void check_no_ftl(const char *name, const char *target, const char *size)
{
    char out[512];
    snprintf(out, sizeof(out), "%s/%s", dir, name);
    char *argv[] = {"ptsbench", "run", "--target", (char *)target, "--workload",
                    "rw=randwrite,bs=4k,qd=32,compress=0", "--precondition", "fast",
                    "--wdpc-fills", "0.1", "--wdpc-max-fills", "0.2", "--rounds", "5",
                    "--round-time", "100ms", "--destructive", "--quiet", "--out", out,
                    size ? "--size" : NULL, (char *)size, NULL};
    struct json_object *doc = ptsbench_results(argv, out, 0, NULL);
    assert_non_null(doc);
    assert_string_equal(json_object_get_string(json_at(doc, "preconditioning.fast.ftl")), "none");
    const char *order = json_object_get_string(json_at(doc, "preconditioning.fast.order"));
    assert_non_null(order);   /* the words say "sequentially" because it was */
    assert_non_null(strstr(order, "sequential"));
    const char *label = json_object_get_string(json_at(doc, "steady_state.label"));
    printf("  %s: %s\n", name, label);
    assert_non_null(strstr(label, "the range written 1.00× sequentially"));
    assert_non_null(strstr(label, "no FTL state to shape"));
    assert_null(strstr(label, "fast pass"));
    json_object_put(doc);

    const char *sh[] = {"show", out, NULL};
    char *s = pb(0, sh);
    assert_non_null(strstr(s, "the range written 1.00× sequentially (the fast pass without an "
                              "FTL: no FTL state to shape)"));
    assert_null(strstr(s, "fast pass + WDPC"));
    free(s);
    s = verify(out, "steady");
    assert_non_null(strstr(s, "after the range written 1.00× sequentially + WDPC: no FTL "
                              "state to shape"));
    free(s);
    char *md = report_md(out, name);
    assert_non_null(strstr(md, "the range written 1.00× sequentially (the fast pass on a "
                               "target without an FTL: no FTL state to shape)"));
    assert_null(strstr(md, "greedy GC's equilibrium"));
    assert_null(strstr(md, "after the fast pass"));
    free(md);
}

static void test_file_no_ftl(void **state)
{
    (void)state;
    char target[600];
    snprintf(target, sizeof(target), "%s/file.img", dir);
    check_no_ftl("file", target, "4m");
}

static void test_zram_no_ftl(void **state)
{
    (void)state;
    char dev[64];
    if (!zram_create("8M", dev, sizeof(dev))) {
        skip();
        return;
    }
    check_no_ftl("zram", dev, NULL);
    zram_remove(dev);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_transient_after_fast_pass),
        cmocka_unit_test(test_steady_after_fast_pass),
        cmocka_unit_test(test_file_no_ftl),
        cmocka_unit_test(test_zram_no_ftl),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
