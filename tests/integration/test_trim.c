/* test_trim.c — fio's trims (rw=trim, randtrim, trimwrite) through `ptsbench run`:
 *   - the simulated drive (virtual time, a trim costs firmware time): randtrim's rounds have a
 *     "trim" object, its latency histogram and samples, total = trims; a read job's have none;
 *   - trimwrite on the simulated drive: as many writes as trims, within one per worker;
 *   (real targets: test_trim_devices.c).
 * Every run is one round of 0.5 s. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <fcntl.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "helpers.h"

static char *dir;
static char last_err[1024];   /* the last run's stderr */

static int setup(void **state)
{
    (void)state;
    dir = make_temp_dir("trim");
    return dir ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    remove_tree(dir);
    free(dir);
    return 0;
}

/* One 0.5 s round of workload on target (extra: one more argument or NULL), expecting status;
 * the results document (NULL when none was written). */
static struct json_object *run1(const char *name, const char *target, const char *workload,
                                const char *engine, int status)
{
    char out[600], results[700];
    snprintf(out, sizeof out, "%s/%s", dir, name);
    char *argv[20];
    int n = 0;
    argv[n++] = (char *)ptsbench_bin();
    argv[n++] = "run";
    argv[n++] = "--target";
    argv[n++] = (char *)target;
    argv[n++] = "--workload";
    argv[n++] = (char *)workload;
    argv[n++] = "--rounds";
    argv[n++] = "1";
    argv[n++] = "--round-time";
    argv[n++] = "500ms";
    argv[n++] = "--quiet";
    argv[n++] = "--out";
    argv[n++] = out;
    if (engine) {
        argv[n++] = "--engine";
        argv[n++] = (char *)engine;
    }
    argv[n] = NULL;
    struct cmd_result r;
    assert_int_equal(run_cmd(argv, &r), 0);
    if (r.status != status)
        print_message("%s: exit %d, want %d; stderr: %s\n", name, r.status, status, r.errout);
    assert_int_equal(r.status, status);
    snprintf(last_err, sizeof last_err, "%s", r.errout ? r.errout : "");
    if (status == 2)
        assert_true(is_one_line(r.errout));
    cmd_result_free(&r);
    snprintf(results, sizeof results, "%s/results.json", out);
    return access(results, F_OK) == 0 ? load_json(results) : NULL;
}

static bool has(struct json_object *doc, const char *dotted)
{
    return json_at(doc, dotted) != NULL;
}

/* A trims-only round: trims counted, total = trims, no reads or writes, histogram and samples. */
static void check_trim_round(struct json_object *doc)
{
    const double t = json_num(doc, "rounds.0.trim.ios");
    print_message("trims %.0f, IOPS %.0f, mean %.1f us\n", t, json_num(doc, "rounds.0.trim.iops"),
                  json_num(doc, "rounds.0.trim.lat_us.mean"));
    assert_true(t > 0);
    assert_true(json_num(doc, "rounds.0.total.ios") == t);
    assert_true(json_num(doc, "rounds.0.read.ios") == 0);
    assert_true(json_num(doc, "rounds.0.write.ios") == 0);
    assert_true(json_num(doc, "rounds.0.trim.lat_us.mean") > 0);
    assert_true(has(doc, "rounds.0.lat_hist.trim"));
    assert_true(has(doc, "rounds.0.samples.trim_iops"));
}

static void test_sim_randtrim_and_a_read_job(void **state)
{
    (void)state;
    struct json_object *doc = run1("simtrim", "sim:generic-mlc25", "rw=randtrim,bs=4k,qd=8",
                                   NULL, 0);
    assert_non_null(doc);
    check_trim_round(doc);
    json_object_put(doc);

    doc = run1("simread", "sim:generic-mlc25", "rw=randread,bs=4k,qd=8", NULL, 0);
    assert_non_null(doc);
    assert_true(json_num(doc, "rounds.0.read.ios") > 0);
    assert_false(has(doc, "rounds.0.trim"));
    assert_false(has(doc, "rounds.0.lat_hist.trim"));
    assert_false(has(doc, "rounds.0.samples.trim_iops"));
    json_object_put(doc);
}

/* trimwrite at depth qd, 2 workers: writes within max_gap x k of the trims. */
static void check_trimwrite(const char *name, const char *workload, double max_gap)
{
    struct json_object *doc = run1(name, "sim:generic-mlc25", workload, NULL, 0);
    assert_non_null(doc);
    const double t = json_num(doc, "rounds.0.trim.ios"), w = json_num(doc, "rounds.0.write.ios");
    double k = json_num(doc, "target.simulated.time_scale_k");   /* I/Os a completion is */
    if (isnan(k) || k < 1)
        k = 1;
    print_message("%s: %.0f trims, %.0f writes (k %.0f)\n", workload, t, w, k);
    assert_true(t > 0);
    assert_true(t >= w);   /* each write follows its trim */
    assert_true(t - w <= max_gap * k);
    assert_true(json_num(doc, "rounds.0.total.ios") == t + w);
    assert_true(json_num(doc, "rounds.0.read.ios") == 0);
    json_object_put(doc);
}

/* Issued, trims and writes alternate; completed, a round ends with the writes of the last
 * trims still in flight: one per worker at depth 1, up to the depth per worker above (fio's
 * trimwrite, whose trims are synchronous, counts the same way). */
static void test_sim_trimwrite_as_many_writes_as_trims(void **state)
{
    (void)state;
    check_trimwrite("simtw1", "rw=trimwrite,bs=16k,qd=1,numjobs=2", 2);
    check_trimwrite("simtw4", "rw=randtrimwrite,bs=4k,qd=4,numjobs=2", 8);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_sim_randtrim_and_a_read_job, setup, teardown),
        cmocka_unit_test_setup_teardown(test_sim_trimwrite_as_many_writes_as_trims, setup,
                                        teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
