/* test_health.c — device/health.c on captured outputs of nvme-cli and smartctl
 * (tests/fixtures/health, where each came from in its SOURCES.md). The expected values are read
 * from the fixture files: they are facts about those captures, field by field.
 *
 * Units, from docs/health.md: an NVMe data unit is 1000 x 512 = 512000 bytes; nvme-cli prints
 * the Composite Temperature in Kelvin (°C = K - 273), smartctl in °C; SandForce's 233/234/241/242
 * count GiB; smartctl's SCSI gigabytes_processed is 10^9 bytes with three decimals.
 *
 * Write amplification, by hand, on the SandForce pair (the "after" derived from the real
 * capture by changing only its counters, SOURCES.md):
 *   host  241: 21028 - 20878 = 150 GiB     NAND 233: 51753 - 51384 = 369 GiB
 *   WA = 369 / 150 = 2.46 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "device/health.h"
#include "helpers.h"
#include "lib/json_path.h"

#define GIB (1ll << 30)
#define DU 512000ll

static char *load(const char *name)
{
    char path[512];
    snprintf(path, sizeof(path), "health/%s", name);
    char *buf = slurp_file(test_fixture_path(path), NULL);
    if (!buf)
        fail_msg("cannot open fixture %s (set PTSBENCH_DATADIR to the source tree)", name);
    return buf;
}

typedef int (*parse_fn)(const char *, struct health_snapshot *, char *, size_t);

static void parse(parse_fn fn, const char *name, struct health_snapshot *s)
{
    char err[512] = "";
    char *text = load(name);
    memset(s, 0, sizeof(*s));
    if (fn(text, s, err, sizeof(err)) != 0)
        fail_msg("%s: %s", name, err);
    free(text);
}

#define VAL(s, f, v)                                  \
    do {                                              \
        assert_true((s).f.reported);                  \
        assert_int_equal((s).f.value, (int64_t)(v));  \
    } while (0)
#define NOT(s, f) assert_false((s).f.reported)

static void test_nvme_cli_2_11_smart_log(void **state)
{
    (void)state;
    struct health_snapshot s;
    parse(health_parse_nvme_smart_log, "nvme-cli-2.11-smart-log.json", &s);
    assert_int_equal(s.source, HEALTH_NVME_CLI);
    assert_string_equal(s.protocol, "nvme");
    VAL(s, temperature_c, 324 - 273);          /* "temperature": 324 (Kelvin) */
    VAL(s, percentage_used, 30);               /* "percent_used": 30 */
    VAL(s, host_bytes_written, 1928683480ll * DU);
    assert_int_equal(s.host_bytes_written.unit, DU);
    VAL(s, host_bytes_read, 178037231ll * DU);
    VAL(s, power_on_hours, 24424);
    VAL(s, unsafe_shutdowns, 49);
    VAL(s, media_errors, 0);
    NOT(s, nand_bytes_written);                /* the standard log page has none */
    NOT(s, crc_errors);
    NOT(s, grown_defects);
}

/* nvme-cli 2.x quoting its 128-bit counters as strings */
static void test_nvme_cli_quoted_numbers(void **state)
{
    (void)state;
    struct health_snapshot s;
    parse(health_parse_nvme_smart_log, "nvme-cli-smart-log-quoted.json", &s);
    VAL(s, temperature_c, 310 - 273);
    VAL(s, percentage_used, 2);
    VAL(s, host_bytes_written, 136157684ll * DU);
    VAL(s, host_bytes_read, 9898518ll * DU);
    VAL(s, power_on_hours, 4974);
    VAL(s, unsafe_shutdowns, 39);
    VAL(s, media_errors, 0);
}

/* id-ctrl fills the identity of the same snapshot; its strings are space-padded */
static void test_nvme_cli_id_ctrl(void **state)
{
    (void)state;
    struct health_snapshot s;
    parse(health_parse_nvme_smart_log, "nvme-cli-2.11-smart-log.json", &s);
    char err[256];
    char *text = load("nvme-cli-1.x-id-ctrl-wdc-sn730.json");
    assert_int_equal(health_parse_nvme_id_ctrl(text, &s, err, sizeof(err)), 0);
    free(text);
    assert_string_equal(s.model, "WDC PC SN730 SDBQNTY-256G-1001");
    assert_string_equal(s.serial, "1951B3444502");
    assert_string_equal(s.firmware, "11170101");
    VAL(s, power_on_hours, 24424);             /* the smart-log's figures stay */
}

static void test_smartctl_nvme(void **state)
{
    (void)state;
    struct health_snapshot s;
    parse(health_parse_smartctl, "smartctl-7.1-nvme-intel-660p.json", &s);
    assert_int_equal(s.source, HEALTH_SMARTCTL);
    assert_string_equal(s.protocol, "nvme");
    assert_string_equal(s.model, "INTEL SSDPEKNW010T8");
    assert_string_equal(s.serial, "BTNH93710FS91P0B");
    assert_string_equal(s.firmware, "002C");
    VAL(s, temperature_c, 36);                 /* smartctl: °C already */
    VAL(s, percentage_used, 0);
    VAL(s, host_bytes_written, 7773431ll * DU);
    VAL(s, host_bytes_read, 9511859ll * DU);
    VAL(s, power_on_hours, 2401);
    VAL(s, unsafe_shutdowns, 43);
    VAL(s, media_errors, 0);
    NOT(s, nand_bytes_written);
    NOT(s, crc_errors);
}

static void test_smartctl_sata_sandforce(void **state)
{
    (void)state;
    struct health_snapshot s;
    parse(health_parse_smartctl, "smartctl-7.5-sata-sandforce-kingston-v300.json", &s);
    assert_string_equal(s.protocol, "ata");
    assert_string_equal(s.model, "KINGSTON SV300S37A240G");
    assert_string_equal(s.serial, "50026B77560145CF");
    assert_string_equal(s.firmware, "603ABBF0");
    VAL(s, host_bytes_written, 20878 * GIB);   /* 241 Lifetime_Writes_GiB */
    assert_int_equal(s.host_bytes_written.unit, GIB);
    VAL(s, nand_bytes_written, 51384 * GIB);   /* 233 SandForce_Internal: NAND writes, GiB */
    assert_int_equal(s.nand_bytes_written.unit, GIB);
    VAL(s, host_bytes_read, 40443 * GIB);      /* 242 Lifetime_Reads_GiB */
    VAL(s, temperature_c, 29);
    VAL(s, media_errors, 0);                   /* 187 Reported_Uncorrect */
    VAL(s, unsafe_shutdowns, 31);              /* 174 Unexpect_Power_Loss_Ct */
    VAL(s, percentage_used, 5);                /* endurance_used.current_percent */
    VAL(s, power_on_hours, 35825);
    NOT(s, crc_errors);                        /* this drive lists no 199 */
}

static void test_smartctl_sas_ssd(void **state)
{
    (void)state;
    struct health_snapshot s;
    parse(health_parse_smartctl, "smartctl-7.3-sas-samsung-mzilt960.json", &s);
    assert_string_equal(s.protocol, "scsi");
    assert_string_equal(s.model, "SAMSUNG MZILT960HBHQ/007");
    assert_string_equal(s.serial, "S5G1NC0W102239");
    assert_string_equal(s.firmware, "GXA0");
    VAL(s, host_bytes_written, 6082745000000ll);   /* "6082.745" GB */
    assert_int_equal(s.host_bytes_written.unit, 1000000);
    VAL(s, host_bytes_read, 12699000000ll);        /* "12.699" GB */
    VAL(s, percentage_used, 0);
    VAL(s, temperature_c, 35);
    VAL(s, power_on_hours, 3862);
    VAL(s, grown_defects, 0);
    VAL(s, media_errors, 0);
    NOT(s, nand_bytes_written);
    NOT(s, crc_errors);
}

/* smartctl 6.7's older SCSI key names (model_name, revision); a disk without an endurance
 * indicator */
static void test_smartctl_sas_hdd_old_keys(void **state)
{
    (void)state;
    struct health_snapshot s;
    parse(health_parse_smartctl, "smartctl-6.7-sas-hdd-seagate-st1200mm0088.json", &s);
    assert_string_equal(s.model, "SEAGATE ST1200MM0088");
    assert_string_equal(s.firmware, "N004");
    VAL(s, host_bytes_written, 806827000000ll);
    VAL(s, host_bytes_read, 386568000000ll);
    VAL(s, temperature_c, 31);
    VAL(s, power_on_hours, 5675);
    NOT(s, percentage_used);
}

static void test_wa_on_before_after_pair(void **state)
{
    (void)state;
    struct health_snapshot b, a;
    parse(health_parse_smartctl, "smartctl-7.5-sata-sandforce-kingston-v300.json", &b);
    parse(health_parse_smartctl, "smartctl-7.5-sata-sandforce-kingston-v300-after-DERIVED.json",
          &a);
    struct health_delta d;
    health_delta(&b, &a, &d);
    assert_int_equal(d.wa_state, HEALTH_WA_OK);
    VAL(d, host_bytes_written, 150 * GIB);
    VAL(d, nand_bytes_written, 369 * GIB);
    VAL(d, host_bytes_read, 50 * GIB);
    VAL(d, media_errors, 0);
    assert_true(fabs(d.write_amplification - 369.0 / 150.0) < 1e-12);
    assert_true(fabs(d.write_amplification - 2.46) < 1e-12);

    struct json_object *h = health_json(&b, &a);
    assert_true(fabs(jp_path(h, "write_amplification") - 2.46) < 1e-12);
    assert_int_equal((int64_t)jp_path(h, "delta.nand_bytes_written.value"), 369 * GIB);
    char line[512];
    health_summary(h, line, sizeof(line));
    assert_non_null(strstr(line, "Drive write amplification over the test: 2.46 (NAND 396 GB "
                                 "/ host 161 GB, smartctl)"));   /* UNITS_FIG_BYTES */
    json_object_put(h);
}

/* OCP's SMART extended log (C0h) as nvme-cli's OCP plugin prints it with
 * --output-format-version 1: opencomputeproject/ocp-diag-autoval-ssd's unit-test mock
 * (SOURCES.md: a mock in a test suite, not said to be a capture): "Physical media units
 * written": {"hi": 0, "lo": 39074645999616}, "... read": {"hi": 0, "lo": 36265469677568}, bytes.
 * Layout 2 (snake case, nvme-cli plugins/ocp/ocp-print-json.c json_smart_extended_log_v2) has no
 * public capture we found: JSON built here, with that layout's keys. */
static void test_ocp_c0h_both_layouts(void **state)
{
    (void)state;
    struct health_snapshot s;
    parse(health_parse_ocp_smart_add_log, "nvme-cli-ocp-smart-add-log-v1-autoval-mock.json", &s);
    VAL(s, nand_bytes_written, 39074645999616ll);
    assert_int_equal(s.nand_bytes_written.unit, 1);
    VAL(s, media_bytes_read, 36265469677568ll);
    assert_string_equal(s.nand_source, HEALTH_NAND_OCP);
    NOT(s, host_bytes_written);   /* the SMART log's, not this log's */
    char err[256] = "";
    memset(&s, 0, sizeof(s));
    assert_int_equal(health_parse_ocp_smart_add_log(
                         "{\"physical_media_units_written\": {\"hi\": 0, \"lo\": 123456789}, "
                         "\"physical_media_units_read\": {\"hi\": 0, \"lo\": 4567}, "
                         "\"log_page_version\": 4}", &s, err, sizeof(err)), 0);
    VAL(s, nand_bytes_written, 123456789);
    VAL(s, media_bytes_read, 4567);
    memset(&s, 0, sizeof(s));   /* beyond 64 bits, or absent: refused, nothing set */
    assert_int_equal(health_parse_ocp_smart_add_log(
                         "{\"physical_media_units_written\": {\"hi\": 1, \"lo\": 5}}", &s, err,
                         sizeof(err)), -1);
    assert_non_null(strstr(err, "no physical media units written"));
    NOT(s, nand_bytes_written);
    assert_string_equal(s.nand_source, "");
    assert_int_equal(health_parse_ocp_smart_add_log("{\"Log page version\": 2}", &s, err,
                                                    sizeof(err)), -1);
}

/* WA from C0h: host writes from the SMART log (netdata's nvme-cli 2.11 capture), NAND writes from
 * the C0h mock. The "after" is built here from them: +200,000 data units (102.4 GB) of host
 * writes and +256 GB of physical media units written. By hand: WA = 256 / 102.4 = 2.5. */
static void test_wa_from_ocp_c0h(void **state)
{
    (void)state;
    struct health_snapshot b, a;
    char err[256] = "";
    parse(health_parse_nvme_smart_log, "nvme-cli-2.11-smart-log.json", &b);
    char *c0 = load("nvme-cli-ocp-smart-add-log-v1-autoval-mock.json");
    assert_int_equal(health_parse_ocp_smart_add_log(c0, &b, err, sizeof(err)), 0);
    free(c0);
    a = b;
    a.host_bytes_written.value += 200000 * DU;
    a.nand_bytes_written.value += 256000000000ll;
    struct health_delta d;
    health_delta(&b, &a, &d);
    assert_int_equal(d.wa_state, HEALTH_WA_OK);
    assert_string_equal(d.wa_host_key, "host_bytes_written");
    VAL(d, nand_bytes_written, 256000000000ll);
    VAL(d, host_bytes_written, 200000 * DU);
    assert_true(fabs(d.write_amplification - 2.5) < 1e-12);
    struct json_object *h = health_json(&b, &a);
    assert_true(fabs(jp_path(h, "write_amplification") - 2.5) < 1e-12);
    assert_non_null(strstr(jp_str(h, "write_amplification_source"), "(C0h)"));
    assert_string_equal(jp_str(h, "after.nand_source"), HEALTH_NAND_OCP);
    char line[512];
    health_summary(h, line, sizeof(line));
    assert_non_null(strstr(line, "over the test: 2.5"));
    assert_non_null(strstr(line, "nvme-cli: OCP C0h)"));
    json_object_put(h);
    /* NAND writes from different logs before and after: not derived */
    a.nand_source[0] = '\0';
    health_delta(&b, &a, &d);
    assert_int_equal(d.wa_state, HEALTH_WA_INCONSISTENT);
    assert_non_null(strstr(d.why, "NAND writes before from ocp-c0h, after from nvme-cli"));
}

/* The FDP statistics log (22h) in nvme-cli's JSON layout (nvme-print-json.c json_nvme_fdp_stats:
 * "hbmw", "mbmw", "mbe", 128-bit counters, printed as numbers or strings of digits). No public
 * capture found and none from the lab (SOURCES.md): JSON built here. Before: host 1,000 GB,
 * media 1,100 GB; after: host +100 GB, media +130 GB. By hand: WA = 130 / 100 = 1.3, from the FDP
 * pair, not from the SMART log's host writes (+10 GB here, which would give 13). */
static void test_fdp_stats_and_wa(void **state)
{
    (void)state;
    struct health_snapshot b = {0}, a = {0};
    char err[256] = "";
    parse(health_parse_nvme_smart_log, "nvme-cli-2.11-smart-log.json", &b);
    assert_int_equal(health_parse_nvme_fdp_stats(
                         "{\"hbmw\": \"1000000000000\", \"mbmw\": \"1100000000000\", "
                         "\"mbe\": \"2147483648000\"}", &b, err, sizeof(err)), 0);
    VAL(b, fdp_host_bytes_written, 1000000000000ll);
    VAL(b, nand_bytes_written, 1100000000000ll);
    VAL(b, media_bytes_erased, 2147483648000ll);
    assert_string_equal(b.nand_source, HEALTH_NAND_FDP);
    a = b;
    a.host_bytes_written.value += 10000000000ll / DU * DU;
    assert_int_equal(health_parse_nvme_fdp_stats("{\"hbmw\": 1100000000000, "
                                                 "\"mbmw\": 1230000000000, \"mbe\": 0}",
                                                 &a, err, sizeof(err)), 0);
    struct health_delta d;
    health_delta(&b, &a, &d);
    assert_int_equal(d.wa_state, HEALTH_WA_OK);
    assert_string_equal(d.wa_host_key, "fdp_host_bytes_written");
    VAL(d, fdp_host_bytes_written, 100000000000ll);
    VAL(d, nand_bytes_written, 130000000000ll);
    assert_true(fabs(d.write_amplification - 1.3) < 1e-12);
    struct json_object *h = health_json(&b, &a);
    assert_int_equal((int64_t)jp_path(h, "delta.fdp_host_bytes_written.value"), 100000000000ll);
    assert_non_null(strstr(jp_str(h, "write_amplification_source"), "FDP statistics"));
    char line[512];
    health_summary(h, line, sizeof(line));
    assert_non_null(strstr(line, "over the test: 1.3"));
    assert_non_null(strstr(line, "/ host 100 GB, nvme-cli: FDP statistics)"));
    /* the snapshot's JSON keeps the source and the counters */
    struct health_snapshot back;
    health_snapshot_from_json(jp_obj_at(h, "after"), &back);
    assert_string_equal(back.nand_source, HEALTH_NAND_FDP);
    VAL(back, fdp_host_bytes_written, 1100000000000ll);
    json_object_put(h);
    assert_int_equal(health_parse_nvme_fdp_stats("{\"mbe\": 5}", &a, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "no hbmw and mbmw"));
}

/* 3 GiB of host writes on a 1 GiB counter: the ratio would be mostly rounding */
static void test_wa_too_small_to_derive(void **state)
{
    (void)state;
    struct health_snapshot b, a;
    parse(health_parse_smartctl, "smartctl-7.5-sata-sandforce-kingston-v300.json", &b);
    a = b;
    a.host_bytes_written.value += 3 * GIB;
    a.nand_bytes_written.value += 7 * GIB;
    struct health_delta d;
    health_delta(&b, &a, &d);
    assert_int_equal(d.wa_state, HEALTH_WA_TOO_SMALL);
    assert_non_null(strstr(d.why, "counter steps of 1 GiB, 100 needed"));
    struct json_object *h = health_json(&b, &a);
    assert_string_equal(jp_str(h, "write_amplification"), "too small to derive");
    json_object_put(h);
    /* exactly HEALTH_MIN_STEPS steps is enough */
    a.host_bytes_written.value = b.host_bytes_written.value + HEALTH_MIN_STEPS * GIB;
    a.nand_bytes_written.value = b.nand_bytes_written.value + 2 * HEALTH_MIN_STEPS * GIB;
    health_delta(&b, &a, &d);
    assert_int_equal(d.wa_state, HEALTH_WA_OK);
    assert_true(fabs(d.write_amplification - 2.0) < 1e-12);
}

/* NVMe's standard log has host writes only: the delta is there, the WA is not */
static void test_wa_not_reported_without_nand(void **state)
{
    (void)state;
    struct health_snapshot b, a;
    parse(health_parse_nvme_smart_log, "nvme-cli-2.11-smart-log.json", &b);
    a = b;
    a.host_bytes_written.value += 1000 * DU;
    struct health_delta d;
    health_delta(&b, &a, &d);
    assert_int_equal(d.wa_state, HEALTH_WA_NOT_REPORTED);
    VAL(d, host_bytes_written, 1000 * DU);
    NOT(d, nand_bytes_written);
    struct json_object *h = health_json(&b, &a);
    assert_string_equal(jp_str(h, "write_amplification"), "not reported by this device");
    assert_string_equal(jp_str(h, "delta.nand_bytes_written"), "not reported");
    char line[512];
    health_summary(h, line, sizeof(line));
    assert_string_equal(line, "Drive write amplification over the test: not reported by this "
                              "device (nvme-cli: host writes only, no NAND writes)");
    json_object_put(h);
}

static void test_wa_counter_backwards_or_sources_differ(void **state)
{
    (void)state;
    struct health_snapshot b, a;
    parse(health_parse_smartctl, "smartctl-7.5-sata-sandforce-kingston-v300.json", &b);
    a = b;
    a.nand_bytes_written.value -= GIB;
    struct health_delta d;
    health_delta(&b, &a, &d);
    assert_int_equal(d.wa_state, HEALTH_WA_INCONSISTENT);
    a = b;
    a.source = HEALTH_SYSFS;
    health_delta(&b, &a, &d);
    assert_int_equal(d.wa_state, HEALTH_WA_INCONSISTENT);
    assert_false(d.host_bytes_written.reported);
}

/* QEMU 7.2's NVMe controller with smart_critical_warning=5, captured in the device lab
 * (tests/vmlab/nvme-health.sh) with nvme-cli 2.3: critical_warning 5 (bits 0 and 2), QEMU's
 * fixed 323 K; and smartctl 7.3 on the same controller, which says it in °C */
static void test_nvme_critical_warning_and_temperature(void **state)
{
    (void)state;
    struct health_snapshot s;
    parse(health_parse_nvme_smart_log, "nvme-cli-2.3-smart-log-qemu-critical-warning.json", &s);
    VAL(s, critical_warning, 5);               /* "critical_warning": 5 */
    VAL(s, temperature_c, 323 - 273);          /* "temperature": 323 (Kelvin) */
    VAL(s, host_bytes_read, 1 * DU);           /* "data_units_read": "1" */
    VAL(s, host_bytes_written, 0);
    parse(health_parse_smartctl, "smartctl-7.3-nvme-qemu-critical-warning.json", &s);
    VAL(s, critical_warning, 5);
    VAL(s, temperature_c, 50);
    assert_string_equal(s.serial, "PTSBH001");
    /* the other forms: nvme-cli 2.11's object, the quoted string, and none set */
    parse(health_parse_nvme_smart_log, "nvme-cli-2.11-smart-log.json", &s);
    VAL(s, critical_warning, 0);
    parse(health_parse_nvme_smart_log, "nvme-cli-smart-log-quoted.json", &s);
    VAL(s, critical_warning, 0);
}

/* The warning in the results (value and its bits in words) and in one line for people */
static void test_critical_warning_said(void **state)
{
    (void)state;
    struct health_snapshot s;
    parse(health_parse_nvme_smart_log, "nvme-cli-2.3-smart-log-qemu-critical-warning.json", &s);
    strcpy(s.device, "/dev/nvme0");
    char line[256];
    assert_true(health_warning_line(&s, line, sizeof(line)));
    assert_string_equal(line, "/dev/nvme0 reports a critical warning (0x05: available spare "
                              "below threshold; reliability degraded (media or internal "
                              "errors))");
    assert_null(strchr(line, '\n'));
    struct json_object *h = health_json(&s, &s);
    assert_int_equal((int)jp_path(h, "before.critical_warning.value"), 5);
    assert_int_equal((int)jp_path(h, "before.temperature_c.value"), 50);
    struct json_object *bits = jp_arr_at(h, "before.critical_warning_bits");
    assert_int_equal(jp_len(bits), 2);
    assert_string_equal(jp_string(jp_idx(bits, 0)), "available spare below threshold");
    json_object_put(h);
    /* none set, or not reported: nothing said */
    s.critical_warning.value = 0;
    assert_false(health_warning_line(&s, line, sizeof(line)));
    assert_string_equal(line, "");
    parse(health_parse_smartctl, "smartctl-7.3-sata-qemu-harddisk.json", &s);
    assert_false(health_warning_line(&s, line, sizeof(line)));
    h = health_json(&s, NULL);
    assert_string_equal(jp_str(h, "before.critical_warning"), "not reported");
    assert_null(jp_get(jp_obj_at(h, "before"), "critical_warning_bits"));
    json_object_put(h);
}

/* QEMU 7.2's ATA disk (QEMU HARDDISK) as smartctl 7.3 reports it, captured in the device lab:
 * a temperature (Airflow_Temperature_Cel, 31 °C) and power-on hours (1); no write or read
 * counter: those are "not reported", never zero */
static void test_smartctl_sata_qemu(void **state)
{
    (void)state;
    struct health_snapshot s;
    parse(health_parse_smartctl, "smartctl-7.3-sata-qemu-harddisk.json", &s);
    assert_int_equal(s.source, HEALTH_SMARTCTL);
    assert_string_equal(s.protocol, "ata");
    assert_string_equal(s.model, "QEMU HARDDISK");
    assert_string_equal(s.serial, "PTSBSATA01");
    VAL(s, temperature_c, 31);                 /* "temperature": {"current": 31} */
    VAL(s, power_on_hours, 1);
    NOT(s, host_bytes_written);
    NOT(s, host_bytes_read);
    NOT(s, critical_warning);
}

/* A fake /sys with one disk and no tools (root != ""): sysfs, host writes only */
static void test_collect_without_tools_fake_root(void **state)
{
    (void)state;
    char root[] = "/tmp/ptsbench-health-XXXXXX";
    assert_non_null(mkdtemp(root));
    char p[512];
    snprintf(p, sizeof(p), "%s/sys", root);
    assert_int_equal(mkdir(p, 0755), 0);
    snprintf(p, sizeof(p), "%s/sys/class", root);
    assert_int_equal(mkdir(p, 0755), 0);
    snprintf(p, sizeof(p), "%s/sys/class/block", root);
    assert_int_equal(mkdir(p, 0755), 0);
    snprintf(p, sizeof(p), "%s/sys/class/block/sdz", root);
    assert_int_equal(mkdir(p, 0755), 0);
    snprintf(p, sizeof(p), "%s/sys/class/block/sdz/stat", root);
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    /* Documentation/ABI/stable/sysfs-block layout: sectors read are field 3, written field 7 */
    fputs("    1000        0     8000      100     2000        0    16000      200        0      "
          "300      300        0        0        0        0        0        0\n", f);
    fclose(f);
    struct health_snapshot s;
    health_collect_block(root, "sdz", &s);
    assert_int_equal(s.source, HEALTH_SYSFS);
    VAL(s, host_bytes_written, 16000 * 512ll);
    VAL(s, host_bytes_read, 8000 * 512ll);
    NOT(s, nand_bytes_written);
    NOT(s, temperature_c);
    assert_non_null(strstr(s.note, "smartctl: not installed"));
    struct health_snapshot a = s;
    a.host_bytes_written.value += 4096 * 512ll;
    struct json_object *h = health_json(&s, &a);
    assert_string_equal(jp_str(h, "write_amplification"), "not reported by this device");
    assert_string_equal(jp_str(h, "after.nand_bytes_written"), "not reported");
    json_object_put(h);
    remove(p);
    for (int i = 0; i < 4; i++) {
        char *slash = strrchr(p, '/');
        *slash = '\0';
        rmdir(p);
    }
    rmdir(root);
}

/* This machine as it is, with or without smartctl installed (the device lab installs it on every
 * CI machine): a real block device of the test's own (a zram device it creates and removes: never
 * one it did not make), which has no SMART data, gives host writes from its sysfs stat, "not
 * reported" for the rest, and a note that says why smartctl gave nothing: not installed, or what
 * it answered for zram. */
static bool in_path_for_test(const char *tool)
{
    const char *dirs[] = {"/usr/sbin", "/usr/bin", "/sbin", "/bin"};
    char p[PATH_MAX];
    for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
        snprintf(p, sizeof(p), "%s/%s", dirs[i], tool);
        if (access(p, X_OK) == 0)
            return true;
    }
    return false;
}

static void test_collect_this_machine(void **state)
{
    (void)state;
    char dev[64];
    if (!zram_create("16M", dev, sizeof(dev)))
        skip();
    const char *name = strrchr(dev, '/') + 1;
    struct health_snapshot s;
    health_collect_block("", name, &s);
    zram_remove(dev);
    if (s.source != HEALTH_SYSFS) {
        print_message("nvme-cli or smartctl answered for /dev/%s (%s): not the no-tools path\n",
                      name, health_source_name(s.source));
        skip();
    }
    assert_true(s.host_bytes_written.reported);
    NOT(s, nand_bytes_written);
    print_message("note: %s\n", s.note);
    assert_non_null(strstr(s.note, "smartctl"));
    if (!in_path_for_test("smartctl"))
        assert_non_null(strstr(s.note, "smartctl: not installed"));
    struct json_object *h = health_json(&s, &s);
    assert_string_equal(jp_str(h, "write_amplification"), "not reported by this device");
    json_object_put(h);
}

/* The NVMe collector's calls and its order (docs/health.md, "Where the figures come from")
 * with a stand-in `nvme` first in PATH: a script this test writes, which logs its arguments and
 * prints the fixtures (smart-log: netdata's 2.11 capture; id-ctrl: the WDC SN730; ocp
 * smart-add-log: the autoval C0h mock), and refuses `fdp stats` (exit 1, "stand-in: no FDP")
 * until DIR/fdp.json exists (JSON built here in nvme-cli's layout). First pass: FDP refused and
 * noted, NAND writes from C0h; second: FDP answers, C0h is not asked. */
static void test_collect_nvme_order_with_a_stand_in(void **state)
{
    (void)state;
    char *dir = make_temp_dir("health-nvme");
    assert_non_null(dir);
    char tool[600], log[600], fdp[600], fix[4200];
    snprintf(tool, sizeof(tool), "%s/nvme", dir);
    snprintf(log, sizeof(log), "%s/calls", dir);
    snprintf(fdp, sizeof(fdp), "%s/fdp.json", dir);
    snprintf(fix, sizeof(fix), "%s", test_fixture_path("health"));
    char real[PATH_MAX];
    assert_non_null(realpath(fix, real));
    FILE *f = fopen(tool, "w");
    assert_non_null(f);
    fprintf(f, "#!/bin/sh\n"
               "echo \"$*\" >> '%s'\n"
               "case \"$1\" in\n"
               "smart-log) cat '%s/nvme-cli-2.11-smart-log.json' ;;\n"
               "id-ctrl) cat '%s/nvme-cli-1.x-id-ctrl-wdc-sn730.json' ;;\n"
               "fdp) [ -f '%s' ] && cat '%s' && exit 0; echo 'stand-in: no FDP' >&2; exit 1 ;;\n"
               "ocp) cat '%s/nvme-cli-ocp-smart-add-log-v1-autoval-mock.json' ;;\n"
               "*) exit 1 ;;\n"
               "esac\n", log, real, real, fdp, fdp, real);
    fclose(f);
    assert_int_equal(chmod(tool, 0755), 0);
    const char *old_path = getenv("PATH");
    char *saved = strdup(old_path ? old_path : "/usr/bin:/bin");
    char path[PATH_MAX + 600];
    snprintf(path, sizeof(path), "%s:%s", dir, saved);
    setenv("PATH", path, 1);

    struct health_snapshot s;
    health_collect_block("", "nvme0n1", &s);
    char *calls = slurp_file(log, NULL);
    assert_non_null(calls);
    assert_string_equal(calls, "smart-log /dev/nvme0 -o json\n"
                               "id-ctrl /dev/nvme0 -o json\n"
                               "fdp stats /dev/nvme0 -e 1 -o json\n"
                               "ocp smart-add-log /dev/nvme0 -o json\n");
    free(calls);
    assert_int_equal(s.source, HEALTH_NVME_CLI);
    assert_string_equal(s.device, "/dev/nvme0");
    assert_non_null(strstr(s.note, "nvme: stand-in: no FDP"));
    assert_string_equal(s.nand_source, HEALTH_NAND_OCP);
    VAL(s, nand_bytes_written, 39074645999616ll);
    VAL(s, warning_temp_c, 357 - 273);
    VAL(s, critical_temp_c, 361 - 273);

    unlink(log);
    f = fopen(fdp, "w");
    assert_non_null(f);
    fprintf(f, "{\"hbmw\": \"4096000\", \"mbmw\": \"5324800\", \"mbe\": \"0\"}\n");
    fclose(f);
    health_collect_block("", "nvme0n1", &s);
    calls = slurp_file(log, NULL);
    assert_non_null(calls);
    assert_null(strstr(calls, "ocp"));
    assert_non_null(strstr(calls, "fdp stats /dev/nvme0 -e 1 -o json\n"));
    free(calls);
    assert_string_equal(s.nand_source, HEALTH_NAND_FDP);
    VAL(s, fdp_host_bytes_written, 4096000);
    VAL(s, nand_bytes_written, 5324800);
    NOT(s, media_bytes_read);

    setenv("PATH", saved, 1);
    free(saved);
    remove_tree(dir);
    free(dir);
}

static void test_malformed_json_is_an_error(void **state)
{
    (void)state;
    const char *bad[] = {"", "{", "not json", "[1,2]", "42", "{}", "{\"device\":{}}",
                         "{\"data_units_written\": -5}", "{\"data_units_written\": \"12x\"}",
                         "{\"device\":{\"protocol\":\"ATA\"}}", "null"};
    char err[256];
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        struct health_snapshot s;
        memset(&s, 0, sizeof(s));
        err[0] = '\0';
        assert_int_equal(health_parse_nvme_smart_log(bad[i], &s, err, sizeof(err)), -1);
        assert_true(err[0] != '\0');
        assert_int_equal(health_parse_smartctl(bad[i], &s, err, sizeof(err)), -1);
        assert_int_equal(health_parse_nvme_id_ctrl(bad[i], &s, err, sizeof(err)), -1);
    }
    struct health_snapshot s;
    assert_int_equal(health_parse_sysfs_stat("1 2 3", &s, err, sizeof(err)), -1);
    assert_int_equal(health_parse_smartctl(NULL, &s, err, sizeof(err)), -1);
    /* wrong types inside a valid document: left unreported, no crash */
    memset(&s, 0, sizeof(s));
    assert_int_equal(health_parse_smartctl("{\"device\":{\"protocol\":\"ATA\"},"
                                           "\"ata_smart_attributes\":{\"table\":{\"id\":241}},"
                                           "\"temperature\":[1]}", &s, err, sizeof(err)), 0);
    NOT(s, host_bytes_written);
    NOT(s, temperature_c);
}

/* Every prefix of every fixture: an error or a partial parse, never a crash */
static void test_truncated_fixtures_never_crash(void **state)
{
    (void)state;
    const char *files[] = {"nvme-cli-2.11-smart-log.json", "smartctl-7.1-nvme-intel-660p.json",
                           "nvme-cli-2.3-smart-log-qemu-critical-warning.json",
                           "smartctl-7.3-sata-qemu-harddisk.json",
                           "smartctl-7.3-sas-samsung-mzilt960.json",
                           "smartctl-7.5-sata-sandforce-kingston-v300.json"};
    char err[256];
    for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
        char *text = load(files[i]);
        size_t n = strlen(text);
        for (size_t cut = 0; cut + 1 < n; cut += 7) {
            char saved = text[cut];
            text[cut] = '\0';
            struct health_snapshot s;
            memset(&s, 0, sizeof(s));
            assert_int_equal(health_parse_smartctl(text, &s, err, sizeof(err)), -1);
            assert_int_equal(health_parse_nvme_smart_log(text, &s, err, sizeof(err)), -1);
            text[cut] = saved;
        }
        free(text);
    }
}

static void test_json_round_trip(void **state)
{
    (void)state;
    struct health_snapshot s, r;
    parse(health_parse_smartctl, "smartctl-7.3-sas-samsung-mzilt960.json", &s);
    struct json_object *o = health_snapshot_json(&s);
    assert_string_equal(jp_str(o, "source"), "smartctl");
    assert_string_equal(jp_str(o, "nand_bytes_written"), "not reported");
    health_snapshot_from_json(o, &r);
    json_object_put(o);
    assert_int_equal(r.source, s.source);
    assert_string_equal(r.model, s.model);
    assert_string_equal(r.protocol, "scsi");
    for (size_t i = 0; i < health_n_fields; i++) {
        const struct health_value *x = health_cat(&s, &health_fields[i]);
        const struct health_value *y = health_cat(&r, &health_fields[i]);
        assert_int_equal(x->reported, y->reported);
        assert_int_equal(x->value, y->value);
        if (health_fields[i].bytes)
            assert_int_equal(x->unit, y->unit);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nvme_cli_2_11_smart_log),
        cmocka_unit_test(test_nvme_cli_quoted_numbers),
        cmocka_unit_test(test_nvme_cli_id_ctrl),
        cmocka_unit_test(test_smartctl_nvme),
        cmocka_unit_test(test_smartctl_sata_sandforce),
        cmocka_unit_test(test_smartctl_sas_ssd),
        cmocka_unit_test(test_smartctl_sas_hdd_old_keys),
        cmocka_unit_test(test_nvme_critical_warning_and_temperature),
        cmocka_unit_test(test_critical_warning_said),
        cmocka_unit_test(test_smartctl_sata_qemu),
        cmocka_unit_test(test_wa_on_before_after_pair),
        cmocka_unit_test(test_ocp_c0h_both_layouts),
        cmocka_unit_test(test_wa_from_ocp_c0h),
        cmocka_unit_test(test_fdp_stats_and_wa),
        cmocka_unit_test(test_wa_too_small_to_derive),
        cmocka_unit_test(test_wa_not_reported_without_nand),
        cmocka_unit_test(test_wa_counter_backwards_or_sources_differ),
        cmocka_unit_test(test_collect_without_tools_fake_root),
        cmocka_unit_test(test_collect_this_machine),
        cmocka_unit_test(test_collect_nvme_order_with_a_stand_in),
        cmocka_unit_test(test_malformed_json_is_an_error),
        cmocka_unit_test(test_truncated_fixtures_never_crash),
        cmocka_unit_test(test_json_round_trip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
