/* test_thermal.c — the drive's temperature and throttling per round: device/thermal.c's parsers
 * on captured nvme-cli output (tests/fixtures/health, SOURCES.md) and on a fake sysfs tree, the
 * throttled judgement, and the simulated drive's thermal model (sim/sim_thermal.c).
 *
 * By hand, the model (sim_thermal.h): dT/dt = heat - (T - T_amb)/tau. A single write of
 * 1 GB at 2 °C/GB from 40 °C gives 42 °C; after one tau with no I/O the excess falls to 1/e:
 * 40 + 2/e = 40.736 °C. Throttled at 100 MB/s, 1 MiB scaled at k = 64 (67.1 MB full-size)
 * passes the gate in 0.671 s: back-to-back, each completes 0.671 s after the one before. */
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

#include "device/health.h"
#include "device/thermal.h"
#include "helpers.h"
#include "lib/json_path.h"
#include "sim/sim.h"

static char *load(const char *name)
{
    char path[512];
    snprintf(path, sizeof(path), "health/%s", name);
    char *buf = slurp_file(test_fixture_path(path), NULL);
    if (!buf)
        fail_msg("cannot open fixture %s (set PTSBENCH_DATADIR to the source tree)", name);
    return buf;
}

#define CNT(r, f, v)                                         \
    do {                                                     \
        assert_true((r).counts.f.reported);                  \
        assert_int_equal((r).counts.f.value, (int64_t)(v));  \
    } while (0)

/* netdata's nvme-cli 2.11 capture: "thm_temp1_trans_count": 3, "thm_temp1_total_time": 1474,
 * the rest 0, "temperature": 324 K. */
static void test_nvme_cli_thermal_counters(void **state)
{
    (void)state;
    char *text = load("nvme-cli-2.11-smart-log.json");
    struct thermal_reading r = {.throttled = THERMAL_UNKNOWN};
    char err[256] = "";
    assert_int_equal(thermal_parse_nvme_smart_log(text, &r, err, sizeof(err)), 0);
    free(text);
    assert_true(r.present && r.has_temperature);
    assert_true(fabs(r.temperature_c - (324 - 273)) < 1e-9);
    assert_int_equal(r.source, THERMAL_NVME_CLI);
    assert_int_equal(r.counts_source, THERMAL_NVME_CLI);
    CNT(r, tmt1_transitions, 3);
    CNT(r, tmt2_transitions, 0);
    CNT(r, tmt1_time_s, 1474);
    CNT(r, tmt2_time_s, 0);
    CNT(r, warning_time_min, 0);
    CNT(r, critical_time_min, 0);
    struct json_object *o = thermal_reading_json(&r);
    assert_int_equal(json_object_get_int64(jp_get(o, "tmt1_time_s")), 1474);
    assert_string_equal(jp_str(o, "counts_source"), "nvme-cli");
    assert_null(jp_get(o, "throttled"));   /* one reading: unknown, absent */
    json_object_put(o);
}

/* The quoted form (nvme-cli 2.x strings): "temperature": "310", the counters "0". */
static void test_nvme_cli_quoted_counters(void **state)
{
    (void)state;
    char *text = load("nvme-cli-smart-log-quoted.json");
    struct thermal_reading r = {0};
    char err[256] = "";
    assert_int_equal(thermal_parse_nvme_smart_log(text, &r, err, sizeof(err)), 0);
    free(text);
    assert_true(fabs(r.temperature_c - 37) < 1e-9);
    CNT(r, tmt1_transitions, 0);
    CNT(r, tmt2_time_s, 0);
}

static void test_malformed_and_empty(void **state)
{
    (void)state;
    struct thermal_reading r = {0};
    char err[256] = "";
    assert_int_equal(thermal_parse_nvme_smart_log("[1]", &r, err, sizeof(err)), -1);
    assert_int_equal(thermal_parse_nvme_smart_log("{\"temperature\": 0}", &r, err, sizeof(err)),
                     -1);   /* 0 K: no sensor (spec), and no counters */
    assert_non_null(strstr(err, "no temperature"));
    assert_false(r.present);
    double c;
    assert_int_equal(thermal_parse_hwmon("44850\n", &c, err, sizeof(err)), 0);
    assert_true(fabs(c - 44.85) < 1e-9);
    assert_int_equal(thermal_parse_hwmon("-5000", &c, err, sizeof(err)), 0);
    assert_true(fabs(c + 5) < 1e-9);
    assert_int_equal(thermal_parse_hwmon("hot", &c, err, sizeof(err)), -1);
    assert_int_equal(thermal_parse_hwmon("", &c, err, sizeof(err)), -1);
}

static void put(const char *root, const char *rel, const char *text)
{
    char p[1024];
    snprintf(p, sizeof(p), "%s/%s", root, rel);
    for (char *s = p + strlen(root) + 1; (s = strchr(s, '/')); s++) {
        *s = '\0';
        mkdir(p, 0755);
        *s = '/';
    }
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* A fake sysfs: an NVMe controller's hwmon (the Composite Temperature, as the nvme driver
 * registers it) read for its namespace and for a partition of it; drivetemp's for a SATA disk;
 * nothing for a disk without a sensor. No tools run under a fake root. */
static void test_hwmon_fake_sysfs(void **state)
{
    (void)state;
    char *root = make_temp_dir("thermal");
    assert_non_null(root);
    put(root, "sys/class/nvme/nvme0/hwmon3/temp1_input", "44850\n");
    put(root, "sys/class/nvme/nvme0/hwmon3/temp2_input", "60000\n");   /* a sensor, not composite */
    put(root, "sys/class/block/nvme0n1/stat", "0\n");
    put(root, "sys/class/block/sdz/device/hwmon/hwmon5/temp1_input", "31000\n");
    put(root, "sys/class/block/sdy/stat", "0\n");
    put(root, "sys/class/nvme/nvme1/device/hwmon/hwmon0/temp1_input", "52000\n");   /* PCI form */
    put(root, "sys/class/block/nvme1n1/stat", "0\n");
    double c = 0;
    assert_true(thermal_hwmon(root, "nvme0n1", &c));
    assert_true(fabs(c - 44.85) < 1e-9);
    assert_true(thermal_hwmon(root, "sdz", &c));
    assert_true(fabs(c - 31) < 1e-9);
    assert_false(thermal_hwmon(root, "sdy", &c));
    assert_true(thermal_hwmon(root, "nvme1n1", &c));
    assert_true(fabs(c - 52) < 1e-9);
    struct thermal_reading r;
    double tool_s = 1;
    thermal_read_block(root, "nvme0n1", true, &r, &tool_s);
    assert_true(r.present && r.has_temperature);
    assert_int_equal(r.source, THERMAL_HWMON);
    assert_int_equal(r.counts_source, THERMAL_NONE);
    assert_int_equal(r.throttled, THERMAL_UNKNOWN);
    assert_true(tool_s == 0);
    struct json_object *o = thermal_reading_json(&r);
    assert_true(fabs(json_object_get_double(jp_get(o, "temperature_c")) - 44.85) < 1e-9);
    assert_string_equal(jp_str(o, "source"), "hwmon");
    assert_null(jp_get(o, "throttled"));
    assert_null(jp_get(o, "tmt1_transitions"));   /* unreported: absent, never 0 */
    json_object_put(o);
    thermal_read_block(root, "sdy", true, &r, &tool_s);
    assert_false(r.present);
    remove_tree(root);
    free(root);
}

/* Throttled: a count or time that rose since the previous reading; none rose: false; no
 * previous reading or no counters: unknown. */
static void test_judge(void **state)
{
    (void)state;
    struct thermal_reading a = {0}, b = {0};
    char err[256];
    assert_int_equal(thermal_parse_nvme_smart_log(
                         "{\"temperature\": 330, \"thm_temp1_trans_count\": 3, "
                         "\"thm_temp1_total_time\": 1474, \"warning_temp_time\": 0}",
                         &a, err, sizeof(err)), 0);
    b = a;
    thermal_judge(NULL, &a);
    assert_int_equal(a.throttled, THERMAL_UNKNOWN);
    thermal_judge(&a, &b);
    assert_int_equal(b.throttled, THERMAL_NO);
    b.counts.tmt1_time_s.value = 1480;
    thermal_judge(&a, &b);
    assert_int_equal(b.throttled, THERMAL_YES);
    b = a;
    b.counts.warning_time_min.value = 1;
    thermal_judge(&a, &b);
    assert_int_equal(b.throttled, THERMAL_YES);
    struct thermal_reading hw = {.present = true, .has_temperature = true,
                                 .source = THERMAL_HWMON, .temperature_c = 70};
    thermal_judge(&a, &hw);
    assert_int_equal(hw.throttled, THERMAL_UNKNOWN);
}

/* The warning threshold: the WDC SN730's captured id-ctrl (nvme-cli-1.x-id-ctrl-wdc-sn730.json:
 * "wctemp" : 357, "cctemp" : 361, Kelvin: 84 and 88 °C); a reading at or above 84 °C is
 * throttled by the temperature whatever its counters say (none rose here), below it the
 * counters decide; a reading with no temperature (counters only) is not judged by it. The QEMU
 * capture's critical warning (5) is kept per round. */
static void test_warning_threshold_and_critical_warning(void **state)
{
    (void)state;
    char *id = load("nvme-cli-1.x-id-ctrl-wdc-sn730.json");
    char *log = load("nvme-cli-2.3-smart-log-qemu-critical-warning.json");
    struct thermal_reading a = {.throttled = THERMAL_UNKNOWN}, b;
    char err[256] = "";
    assert_int_equal(thermal_parse_thresholds(id, &a, err, sizeof(err)), 0);
    assert_true(a.warning_temp_c.reported && a.critical_temp_c.reported);
    assert_int_equal(a.warning_temp_c.value, 357 - 273);
    assert_int_equal(a.critical_temp_c.value, 361 - 273);
    assert_int_equal(thermal_parse_nvme_smart_log(log, &a, err, sizeof(err)), 0);
    assert_true(a.critical_warning.reported);
    assert_int_equal(a.critical_warning.value, 5);            /* "critical_warning":5 */
    assert_true(fabs(a.temperature_c - (323 - 273)) < 1e-9);   /* 50 °C: below 84 */
    thermal_judge(NULL, &a);
    assert_int_equal(a.throttled, THERMAL_UNKNOWN);
    b = a;
    b.temperature_c = 83.5;
    thermal_judge(&a, &b);
    assert_int_equal(b.throttled, THERMAL_NO);
    b.temperature_c = 84;
    thermal_judge(&a, &b);
    assert_int_equal(b.throttled, THERMAL_YES);
    assert_int_equal(b.throttled_by, THERMAL_BY_WARNING_TEMP);
    char label[128];
    thermal_label(&b, label, sizeof(label));
    assert_string_equal(label, "throttled (84 °C, at or above the warning threshold 84 °C)");
    struct json_object *j = thermal_reading_json(&b);
    assert_string_equal(jp_str(j, "throttled_by"), "warning temperature");
    assert_int_equal((int)jp_path(j, "warning_temp_threshold_c"), 84);
    assert_int_equal((int)jp_path(j, "critical_temp_threshold_c"), 88);
    assert_int_equal((int)jp_path(j, "critical_warning"), 5);
    assert_int_equal(jp_len(jp_arr_at(j, "critical_warning_bits")), 2);
    thermal_label_json(j, label, sizeof(label));
    assert_string_equal(label, "throttled (84 °C, at or above the warning threshold 84 °C)");
    json_object_put(j);
    b.counts.tmt1_transitions.value = 1;   /* the counters rose too: they say it */
    thermal_judge(&a, &b);
    assert_int_equal(b.throttled_by, THERMAL_BY_COUNTERS);
    thermal_label(&b, label, sizeof(label));
    assert_string_equal(label, "throttled");
    b = a;   /* no temperature: the threshold says nothing */
    b.has_temperature = false;
    b.temperature_c = 90;
    thermal_judge(&a, &b);
    assert_int_equal(b.throttled, THERMAL_NO);
    assert_int_equal(thermal_parse_thresholds("{\"mn\": \"x\", \"wctemp\": 0, \"cctemp\": 0}", &b,
                                              err, sizeof(err)), -1);
    assert_non_null(strstr(err, "no warning or critical temperature threshold"));
    free(id);
    free(log);
}

static struct sim_dev *open_thermal(double mb_s)
{
    struct sim_params p;
    sim_params_default(&p);
    p.k = 64;
    p.thermal = true;
    p.thermal_write_c_per_gb = 2;
    p.thermal_tau_s = 10;
    p.thermal_throttle_c = 60;
    p.thermal_resume_c = 50;
    p.thermal_throttle_mb_s = mb_s;
    struct sim_dev *d;
    char err[256];
    if (sim_open(&p, &d, err, sizeof(err)) != 0)
        fail_msg("%s", err);
    return d;
}

/* The model by hand (the header): heat per GB, exponential cooling, throttling with
 * hysteresis, the stretch, the counters. */
static void test_sim_model(void **state)
{
    (void)state;
    struct sim_dev *d = open_thermal(100);
    struct sim_stats st;
    sim_stats(d, &st);
    assert_true(st.thermal);
    assert_true(fabs(st.temperature_c - 40) < 1e-9);
    /* at k = 64 an I/O of 1 MiB stands for 64 MiB of the full-size drive: 15 of them, 1.007 GB */
    struct sim_io io = {.op = SIM_WRITE, .offset = 0, .len = 1u << 20};
    simt t = 0;
    for (int i = 0; i < 15; i++)
        sim_submit(d, t, &io);
    sim_stats(d, &st);
    double heat = 2.0 * 15 * (1u << 20) * 64 / 1e9;
    assert_true(fabs(st.temperature_c - (40 + heat)) < 1e-6);
    assert_false(st.throttled_now);
    /* one tau later (a read of nothing: len 0 does not count; a 512-byte read adds ~0) */
    struct sim_io rd = {.op = SIM_READ, .offset = 0, .len = 512};
    sim_submit(d, 10000000000ull, &rd);
    sim_stats(d, &st);
    assert_true(fabs(st.temperature_c - (40 + heat / M_E)) < 1e-3);
    /* heat it past 60 °C: throttled once, and the I/Os pass the gate at 100 MB/s */
    simt now = 10000000000ull;
    for (int i = 0; i < 200 && !st.throttled_now; i++) {
        sim_submit(d, now, &io);
        sim_stats(d, &st);
    }
    assert_true(st.throttled_now);
    assert_int_equal(st.throttle_transitions, 1);
    /* reads of never-written space (no NAND: the drive's own time is short), back to back */
    struct sim_io big = {.op = SIM_READ, .offset = 64u << 20, .len = 1u << 20};
    simt c0 = sim_submit(d, now, &big);   /* after the heating writes, which the drive queued */
    now = c0;   /* a few seconds on: still above 50 °C */
    simt c1 = sim_submit(d, now, &big), c2 = sim_submit(d, now, &big);
    sim_stats(d, &st);
    assert_true(st.throttled_now);
    assert_true(c2 - c1 == 671088640ull);   /* (1 MiB x 64) / 100 MB/s, in ns */
    simt t0 = now;
    /* cools: after 20 s from > 60 °C it is below 50 (excess x e^-2), no longer throttled;
     * the time throttled counted up to the crossing */
    sim_submit(d, t0 + 20000000000ull, &rd);
    sim_stats(d, &st);
    assert_false(st.throttled_now);
    assert_true(st.temperature_c < 50);
    assert_true(st.throttled_ns > 0 && st.throttled_ns < 20000000000ull);
    assert_int_equal(st.throttle_transitions, 1);
    sim_close(d);
}

/* Off (every shipped preset): no temperature, and the completions are the model's own. */
static void test_sim_off_changes_nothing(void **state)
{
    (void)state;
    struct sim_params p;
    sim_params_default(&p);
    p.k = 64;
    struct sim_dev *a, *b;
    char err[256];
    assert_int_equal(sim_open(&p, &a, err, sizeof(err)), 0);
    p.thermal_write_c_per_gb = 1000;   /* ignored while thermal is off */
    assert_int_equal(sim_open(&p, &b, err, sizeof(err)), 0);
    struct sim_io io = {.op = SIM_WRITE, .offset = 0, .len = 1u << 20};
    for (int i = 0; i < 100; i++) {
        io.offset = (uint64_t)(i % 8) << 20;
        simt t = (simt)i * 1000000;
        assert_int_equal(sim_submit(a, t, &io), sim_submit(b, t, &io));
    }
    struct sim_stats st;
    sim_stats(b, &st);
    assert_false(st.thermal);
    sim_close(a);
    sim_close(b);
    p.thermal = true;
    p.thermal_resume_c = 80;   /* above the throttle point: refused */
    assert_int_equal(sim_open(&p, &a, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "thermal_resume_c"));
}

/* The controller of a disk name: nvme0n1 -> nvme0, nvme0c1n1 -> nvme0; any other name (a
 * file's disk "vda", "sda", or none) unchanged, and never read past its end (ASan saw
 * strchr(out + 4) on "vda" once, from thermal_hwmon of a file target). */
static void test_nvme_controller_names(void **state)
{
    (void)state;
    static const char *const cases[][2] = {
        {"nvme0n1", "nvme0"}, {"nvme12n3", "nvme12"}, {"nvme0c1n1", "nvme0"},
        {"vda", "vda"},       {"sda", "sda"},         {"", ""},
        {"nvme", "nvme"},     {"loop0", "loop0"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        char out[64];
        memset(out, 'x', sizeof(out));   /* no NUL or 'n' past the name: an overread runs off */
        health_nvme_controller(cases[i][0], out, sizeof(out));
        assert_string_equal(out, cases[i][1]);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nvme_cli_thermal_counters),
        cmocka_unit_test(test_nvme_cli_quoted_counters),
        cmocka_unit_test(test_malformed_and_empty),
        cmocka_unit_test(test_hwmon_fake_sysfs),
        cmocka_unit_test(test_judge),
        cmocka_unit_test(test_warning_threshold_and_critical_warning),
        cmocka_unit_test(test_nvme_controller_names),
        cmocka_unit_test(test_sim_model),
        cmocka_unit_test(test_sim_off_changes_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
