/* health.c — drive health snapshots: the parsers of nvme-cli's and smartctl's JSON and of sysfs,
 * the collector that runs those tools, the delta over a test and its write amplification
 * (health.h is the contract; docs/health.md the sources and the units). */
#include "device/health.h"

#include <errno.h>
#include <json-c/json.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "device/target.h"
#include "lib/json_path.h"
#include "lib/spawn.h"
#include "lib/units.h"
#include "lib/util.h"
#include "sim/sim.h"

#define NVME_DATA_UNIT 512000ull     /* NVMe Base Spec., SMART / Health log: 1000 x 512 bytes */
#define GIB (1ull << 30)
#define MIB32 (32ull << 20)
#define SECTOR 512ull

#define F(k, l, m, b) {k, l, offsetof(struct health_snapshot, m), b}
const struct health_field health_fields[] = {
    F("host_bytes_written", "host writes", host_bytes_written, true),
    F("nand_bytes_written", "NAND writes", nand_bytes_written, true),
    F("host_bytes_read", "host reads", host_bytes_read, true),
    F("media_bytes_read", "NAND reads", media_bytes_read, true),
    F("fdp_host_bytes_written", "FDP host writes", fdp_host_bytes_written, true),
    F("media_bytes_erased", "NAND erased", media_bytes_erased, true),
    F("temperature_c", "temperature (°C)", temperature_c, false),
    F("critical_warning", "critical warning", critical_warning, false),
    F("warning_temp_threshold_c", "warning temperature threshold (°C)", warning_temp_c, false),
    F("critical_temp_threshold_c", "critical temperature threshold (°C)", critical_temp_c, false),
    F("media_errors", "media errors", media_errors, false),
    F("crc_errors", "interface CRC errors", crc_errors, false),
    F("percentage_used", "percentage used", percentage_used, false),
    F("power_on_hours", "power-on hours", power_on_hours, false),
    F("unsafe_shutdowns", "unsafe shutdowns", unsafe_shutdowns, false),
    F("grown_defects", "grown defects", grown_defects, false),
};
#undef F
const size_t health_n_fields = sizeof(health_fields) / sizeof(health_fields[0]);

static const char *const source_names[] = {
    [HEALTH_NONE] = "none", [HEALTH_NVME_CLI] = "nvme-cli", [HEALTH_SMARTCTL] = "smartctl",
    [HEALTH_SYSFS] = "sysfs", [HEALTH_SIMULATOR] = "simulator",
};

const char *health_source_name(enum health_source s)
{
    return (unsigned)s < sizeof(source_names) / sizeof(source_names[0]) ? source_names[s]
                                                                         : "none";
}

static enum health_source source_from_name(const char *name)
{
    for (size_t i = 0; name && i < sizeof(source_names) / sizeof(source_names[0]); i++)
        if (!strcmp(name, source_names[i]))
            return (enum health_source)i;
    return HEALTH_NONE;
}

/* ------------------------------------------------------------------ JSON values */

/* A non-negative integer from a JSON number (integral), or a string of digits (nvme-cli 2.x
 * quotes its 128-bit counters: "data_units_written": "136157684"). False otherwise, and for
 * values beyond int64 (no drive has written 9 EB). */
static bool j_u64(struct json_object *v, uint64_t *out)
{
    return health_json_u64(v, out);
}

bool health_json_u64(struct json_object *v, uint64_t *out)
{
    if (!v)
        return false;
    switch (json_object_get_type(v)) {
    case json_type_int: {
        int64_t i = json_object_get_int64(v);
        if (i < 0)
            return false;
        *out = (uint64_t)i;
        return true;
    }
    case json_type_double: {
        double d = json_object_get_double(v);
        if (!isfinite(d) || d < 0 || d >= 9.2e18 || d != floor(d))
            return false;
        *out = (uint64_t)d;
        return true;
    }
    case json_type_string: {
        const char *s = json_object_get_string(v);
        if (!s || !*s || strspn(s, "0123456789") != strlen(s) || strlen(s) > 18)
            return false;
        *out = strtoull(s, NULL, 10);
        return true;
    }
    default:
        return false;
    }
}

static void set(struct health_value *f, int64_t v, uint64_t unit)
{
    f->reported = true;
    f->value = v;
    f->unit = unit;
}

/* key of o, a count: f reported with it (units: bytes per count for byte counters, else 0). */
static bool set_u64(struct health_value *f, struct json_object *o, const char *key, uint64_t unit)
{
    uint64_t v;
    if (!j_u64(jp_at(o, key), &v) || (unit && v > (uint64_t)INT64_MAX / unit))
        return false;
    set(f, (int64_t)(unit ? v * unit : v), unit);
    return true;
}

static void set_str(char *dst, size_t len, struct json_object *o, const char *key)
{
    const char *v = jp_str(o, key);
    if (!v || dst[0])
        return;
    char tmp[256];                  /* id-ctrl's fields are space-padded ASCII */
    str_copy(tmp, sizeof(tmp), v);
    str_copy(dst, len, str_trim(tmp));
}

static struct json_object *parse_object(const char *json, const char *what, char *err,
                                        size_t errlen)
{
    if (!json)
        return errf(err, errlen, "%s: no output", what), NULL;
    enum json_tokener_error je;
    struct json_object *o = json_tokener_parse_verbose(json, &je);
    if (!o) {
        errf(err, errlen, "%s: not JSON (%s)", what, json_tokener_error_desc(je));
        return NULL;
    }
    if (!json_object_is_type(o, json_type_object)) {
        json_object_put(o);
        errf(err, errlen, "%s: not a JSON object", what);
        return NULL;
    }
    return o;
}

/* ------------------------------------------------------------------ NVMe's log page */

/* The SMART / Health Information log page's fields as nvme-cli and smartctl name them. */
struct nvme_keys {
    const char *temperature, *percentage_used;
    bool kelvin;    /* nvme-cli prints the log page's Composite Temperature as it is: Kelvin */
};

static int nvme_log(struct json_object *log, const struct nvme_keys *k, struct health_snapshot *s)
{
    int n = 0;
    uint64_t t;
    if (j_u64(jp_get(log, k->temperature), &t) && t > 0) {   /* 0: no sensor (spec) */
        set(&s->temperature_c, k->kelvin ? (int64_t)t - 273 : (int64_t)t, 0);
        n++;
    }
    n += set_u64(&s->percentage_used, log, k->percentage_used, 0);
    /* a number (smartctl, nvme-cli 2.3), a string (nvme-cli's quoted form) or nvme-cli 2.11's
     * verbose {"value": 5, "available_spare": 1, ...} */
    struct json_object *cw = jp_get(log, "critical_warning");
    n += set_u64(&s->critical_warning, json_object_is_type(cw, json_type_object) ? cw : log,
                 json_object_is_type(cw, json_type_object) ? "value" : "critical_warning", 0);
    n += set_u64(&s->host_bytes_written, log, "data_units_written", NVME_DATA_UNIT);
    n += set_u64(&s->host_bytes_read, log, "data_units_read", NVME_DATA_UNIT);
    n += set_u64(&s->power_on_hours, log, "power_on_hours", 0);
    n += set_u64(&s->unsafe_shutdowns, log, "unsafe_shutdowns", 0);
    n += set_u64(&s->media_errors, log, "media_errors", 0);
    return n;
}

int health_parse_nvme_smart_log(const char *json, struct health_snapshot *s, char *err,
                                size_t errlen)
{
    struct json_object *o = parse_object(json, "nvme smart-log", err, errlen);
    if (!o)
        return -1;
    /* nvme-cli 1.x and 2.x: "percent_used"; some builds wrote "percentage_used" */
    static const struct nvme_keys cli = {"temperature", "percent_used", true};
    static const struct nvme_keys cli_alt = {"temperature", "percentage_used", true};
    int n = jp_get(o, "percent_used") ? nvme_log(o, &cli, s) : nvme_log(o, &cli_alt, s);
    json_object_put(o);
    if (!s->host_bytes_written.reported)
        return errf(err, errlen, "nvme smart-log: no data_units_written (%d known fields)", n);
    s->source = HEALTH_NVME_CLI;
    str_copy(s->protocol, sizeof(s->protocol), "nvme");
    return 0;
}

int health_parse_nvme_id_ctrl(const char *json, struct health_snapshot *s, char *err,
                              size_t errlen)
{
    struct json_object *o = parse_object(json, "nvme id-ctrl", err, errlen);
    if (!o)
        return -1;
    const bool ok = jp_str(o, "mn") || jp_str(o, "sn");
    set_str(s->model, sizeof(s->model), o, "mn");
    set_str(s->serial, sizeof(s->serial), o, "sn");
    set_str(s->firmware, sizeof(s->firmware), o, "fr");
    /* WCTEMP, CCTEMP: Kelvin, 0 when the controller reports none (Identify Controller) */
    uint64_t k;
    if (j_u64(jp_get(o, "wctemp"), &k) && k > 0 && k < 1000)
        set(&s->warning_temp_c, (int64_t)k - 273, 0);
    if (j_u64(jp_get(o, "cctemp"), &k) && k > 0 && k < 1000)
        set(&s->critical_temp_c, (int64_t)k - 273, 0);
    json_object_put(o);
    return ok ? 0 : errf(err, errlen, "nvme id-ctrl: no model (mn) or serial (sn)");
}

/* ------------------------------------------------------------------ NAND writes: FDP, OCP */

/* A 128-bit counter as nvme-cli's OCP plugin prints it, {"hi": N, "lo": N}: its value when hi is
 * 0 and lo fits in int64 (no drive has written 9 EB). */
static bool hi_lo(struct json_object *o, uint64_t *out)
{
    uint64_t hi, lo;
    if (!json_object_is_type(o, json_type_object) || !j_u64(jp_get(o, "hi"), &hi) ||
        !j_u64(jp_get(o, "lo"), &lo) || hi || lo > (uint64_t)INT64_MAX)
        return false;
    *out = lo;
    return true;
}

int health_parse_ocp_smart_add_log(const char *json, struct health_snapshot *s, char *err,
                                   size_t errlen)
{
    struct json_object *o = parse_object(json, "nvme ocp smart-add-log", err, errlen);
    if (!o)
        return -1;
    /* --output-format-version 1 names fields as the OCP specification's text, 2 in snake case
     * (nvme-cli plugins/ocp/ocp-print-json.c, json_smart_extended_log_v1 and _v2) */
    static const char *const written[] = {"Physical media units written",
                                          "physical_media_units_written"};
    static const char *const read[] = {"Physical media units read", "physical_media_units_read"};
    uint64_t w = 0, r = 0;
    size_t k = 0;
    while (k < 2 && !jp_get(o, written[k]))
        k++;
    const bool ok = k < 2 && hi_lo(jp_get(o, written[k]), &w);
    const bool rok = k < 2 && hi_lo(jp_get(o, read[k]), &r);
    json_object_put(o);
    if (!ok)
        return errf(err, errlen, "nvme ocp smart-add-log: no physical media units written "
                    "(or beyond 64 bits)");
    set(&s->nand_bytes_written, (int64_t)w, 1);   /* bytes (docs/health.md) */
    if (rok)
        set(&s->media_bytes_read, (int64_t)r, 1);
    str_copy(s->nand_source, sizeof(s->nand_source), HEALTH_NAND_OCP);
    return 0;
}

int health_parse_nvme_fdp_stats(const char *json, struct health_snapshot *s, char *err,
                                size_t errlen)
{
    struct json_object *o = parse_object(json, "nvme fdp stats", err, errlen);
    if (!o)
        return -1;
    struct health_value h = {0}, m = {0}, e = {0};
    set_u64(&h, o, "hbmw", 1);   /* bytes, with metadata (FDP Statistics log) */
    set_u64(&m, o, "mbmw", 1);
    set_u64(&e, o, "mbe", 1);
    json_object_put(o);
    if (!h.reported || !m.reported)
        return errf(err, errlen, "nvme fdp stats: no hbmw and mbmw");
    s->fdp_host_bytes_written = h;
    s->nand_bytes_written = m;
    s->media_bytes_erased = e;
    str_copy(s->nand_source, sizeof(s->nand_source), HEALTH_NAND_FDP);
    return 0;
}

/* ------------------------------------------------------------------ smartctl */

/* ATA attributes by the name smartctl's drive database gives them (its meaning depends on the
 * model, which the database knows and we do not), earlier rows first: a row fills its field
 * only when an earlier one has not. unit 0: the device's logical block size. family: only
 * when smartctl's model_family contains it. Sources in docs/health.md, "ATA attributes". */
struct ata_row {
    unsigned id;                /* 0: any */
    const char *name;
    size_t field;               /* offsetof */
    uint64_t unit;              /* bytes per raw count; 1 for plain counts */
    const char *family;
};
#define OFF(m) offsetof(struct health_snapshot, m)
static const struct ata_row ata_rows[] = {
    {241, "Lifetime_Writes_GiB", OFF(host_bytes_written), GIB, NULL},   /* SandForce */
    {0, "Host_Writes_GiB", OFF(host_bytes_written), GIB, NULL},
    {0, "Total_Writes_GiB", OFF(host_bytes_written), GIB, NULL},
    {0, "Host_Writes_32MiB", OFF(host_bytes_written), MIB32, NULL},     /* Intel */
    {0, "Total_LBAs_Written", OFF(host_bytes_written), 0, NULL},
    {234, "SandForce_Internal", OFF(host_bytes_written), GIB, "SandForce"},
    {242, "Lifetime_Reads_GiB", OFF(host_bytes_read), GIB, NULL},
    {0, "Host_Reads_GiB", OFF(host_bytes_read), GIB, NULL},
    {0, "Total_Reads_GiB", OFF(host_bytes_read), GIB, NULL},
    {0, "Host_Reads_32MiB", OFF(host_bytes_read), MIB32, NULL},
    {0, "Total_LBAs_Read", OFF(host_bytes_read), 0, NULL},
    {233, "SandForce_Internal", OFF(nand_bytes_written), GIB, "SandForce"},
    {0, "NAND_Writes_1GiB", OFF(nand_bytes_written), GIB, NULL},       /* Samsung */
    {0, "NAND_Writes_GiB", OFF(nand_bytes_written), GIB, NULL},
    {0, "Flash_Writes_GiB", OFF(nand_bytes_written), GIB, NULL},
    {0, "NAND_Writes_32MiB", OFF(nand_bytes_written), MIB32, NULL},    /* Intel */
    {187, "Reported_Uncorrect", OFF(media_errors), 1, NULL},
    {199, "UDMA_CRC_Error_Count", OFF(crc_errors), 1, NULL},
    {199, "SATA_CRC_Error_Count", OFF(crc_errors), 1, NULL},
    {199, "CRC_Error_Count", OFF(crc_errors), 1, NULL},
    {0, "Unexpect_Power_Loss_Ct", OFF(unsafe_shutdowns), 1, NULL},
    {0, "Unsafe_Shutdown_Count", OFF(unsafe_shutdowns), 1, NULL},
};

static void ata_row_apply(const struct ata_row *r, struct json_object *table, const char *family,
                          uint64_t block, struct health_snapshot *s)
{
    struct health_value *f = (struct health_value *)((char *)s + r->field);
    if (f->reported || (r->family && (!family || !strstr(family, r->family))))
        return;
    for (size_t i = 0; i < jp_len(table); i++) {
        struct json_object *a = jp_idx(table, i);
        const char *name = jp_str(a, "name");
        uint64_t id = 0, raw;
        if (!name || strcmp(name, r->name) || (r->id && (!j_u64(jp_get(a, "id"), &id) ||
                                                         id != r->id)))
            continue;
        if (!j_u64(jp_at(a, "raw.value"), &raw))
            continue;
        uint64_t unit = r->unit ? r->unit : block;
        if (raw > (uint64_t)INT64_MAX / unit)
            continue;
        bool bytes = r->field == OFF(host_bytes_written) || r->field == OFF(host_bytes_read) ||
                     r->field == OFF(nand_bytes_written);
        set(f, (int64_t)(raw * unit), bytes ? unit : 0);
        return;
    }
}

static void sc_ata(struct json_object *o, struct health_snapshot *s)
{
    struct json_object *table = jp_arr_at(o, "ata_smart_attributes.table");
    uint64_t block = SECTOR;
    j_u64(jp_get(o, "logical_block_size"), &block);
    if (!block)
        block = SECTOR;
    for (size_t i = 0; i < sizeof(ata_rows) / sizeof(ata_rows[0]); i++)
        ata_row_apply(&ata_rows[i], table, jp_str(o, "model_family"), block, s);
    set_u64(&s->percentage_used, o, "endurance_used.current_percent", 0);
    str_copy(s->protocol, sizeof(s->protocol), "ata");
}

/* "6082.745" (smartctl prints SCSI byte counts as 10^9 bytes with three decimals) into bytes
 * and the step the text can resolve (10^6 for three decimals). */
static bool decimal_gb(const char *t, int64_t *bytes, uint64_t *unit)
{
    if (!t || !*t)
        return false;
    uint64_t ip = 0, fp = 0, scale = 1000000000ull;
    const char *c = t;
    for (; *c >= '0' && *c <= '9'; c++) {
        if (ip > 9000000000ull)
            return false;
        ip = ip * 10 + (uint64_t)(*c - '0');
    }
    if (c == t && *c != '.')
        return false;
    if (*c == '.') {
        for (c++; *c >= '0' && *c <= '9'; c++) {
            if (scale == 1)
                return false;
            scale /= 10;
            fp = fp * 10 + (uint64_t)(*c - '0');
        }
    }
    if (*c)
        return false;
    *bytes = (int64_t)(ip * 1000000000ull + fp * scale);
    *unit = scale;
    return true;
}

static void sc_scsi(struct json_object *o, struct health_snapshot *s)
{
    struct json_object *log = jp_obj_at(o, "scsi_error_counter_log");
    int64_t b;
    uint64_t unit, sum = 0, v;
    if (decimal_gb(jp_str(log, "write.gigabytes_processed"), &b, &unit))
        set(&s->host_bytes_written, b, unit);
    if (decimal_gb(jp_str(log, "read.gigabytes_processed"), &b, &unit))
        set(&s->host_bytes_read, b, unit);
    static const char *const dirs[] = {"read", "write", "verify"};
    bool any = false;
    for (size_t i = 0; i < 3; i++) {
        if (j_u64(jp_at(jp_get(log, dirs[i]), "total_uncorrected_errors"), &v)) {
            sum += v;
            any = true;
        }
    }
    if (any)
        set(&s->media_errors, (int64_t)sum, 0);
    set_u64(&s->grown_defects, o, "scsi_grown_defect_list", 0);
    if (!set_u64(&s->percentage_used, o, "scsi_percentage_used_endurance_indicator", 0))
        set_u64(&s->percentage_used, o, "endurance_used.current_percent", 0);
    set_str(s->model, sizeof(s->model), o, "scsi_model_name");
    set_str(s->firmware, sizeof(s->firmware), o, "scsi_revision");
    set_str(s->firmware, sizeof(s->firmware), o, "revision");
    str_copy(s->protocol, sizeof(s->protocol), "scsi");
}

static void sc_nvme(struct json_object *o, struct health_snapshot *s)
{
    static const struct nvme_keys smartctl = {"temperature", "percentage_used", false};
    nvme_log(jp_obj_at(o, "nvme_smart_health_information_log"), &smartctl, s);
    str_copy(s->protocol, sizeof(s->protocol), "nvme");
}

/* smartctl's device.protocol, and the section that says so when it is absent. */
static const struct {
    const char *protocol, *section;
    void (*parse)(struct json_object *o, struct health_snapshot *s);
} sc_kinds[] = {
    {"NVMe", "nvme_smart_health_information_log", sc_nvme},
    {"ATA", "ata_smart_attributes", sc_ata},
    {"SCSI", "scsi_error_counter_log", sc_scsi},
};

int health_parse_smartctl(const char *json, struct health_snapshot *s, char *err, size_t errlen)
{
    struct json_object *o = parse_object(json, "smartctl", err, errlen);
    if (!o)
        return -1;
    const char *proto = jp_str(o, "device.protocol");
    size_t k = 0, n = sizeof(sc_kinds) / sizeof(sc_kinds[0]);
    while (k < n && !(proto ? !strcmp(proto, sc_kinds[k].protocol)
                            : jp_get(o, sc_kinds[k].section) != NULL))
        k++;
    if (k == n || !jp_get(o, sc_kinds[k].section)) {
        /* the message first: proto is the document's, freed with it */
        errf(err, errlen, "smartctl: no SMART data for %s%s", proto ? "protocol " : "",
             proto ? proto : "this device");
        json_object_put(o);
        return -1;
    }
    sc_kinds[k].parse(o, s);
    set_u64(&s->temperature_c, o, "temperature.current", 0);
    set_u64(&s->power_on_hours, o, "power_on_time.hours", 0);
    set_str(s->model, sizeof(s->model), o, "model_name");
    set_str(s->serial, sizeof(s->serial), o, "serial_number");
    set_str(s->firmware, sizeof(s->firmware), o, "firmware_version");
    json_object_put(o);
    s->source = HEALTH_SMARTCTL;
    return 0;
}

/* ------------------------------------------------------------------ sysfs */

int health_parse_sysfs_stat(const char *text, struct health_snapshot *s, char *err,
                            size_t errlen)
{
    unsigned long long f[7];
    if (!text || sscanf(text, "%llu %llu %llu %llu %llu %llu %llu", &f[0], &f[1], &f[2], &f[3],
                        &f[4], &f[5], &f[6]) != 7)
        return errf(err, errlen, "sysfs stat: not the 11 to 17 counters of a block device");
    if (f[2] > (unsigned long long)INT64_MAX / SECTOR ||
        f[6] > (unsigned long long)INT64_MAX / SECTOR)
        return errf(err, errlen, "sysfs stat: sector counts out of range");
    set(&s->host_bytes_read, (int64_t)(f[2] * SECTOR), SECTOR);
    set(&s->host_bytes_written, (int64_t)(f[6] * SECTOR), SECTOR);
    s->source = HEALTH_SYSFS;
    return 0;
}

/* ------------------------------------------------------------------ collecting */

/* An executable `name` in one of $PATH's directories (root "" only: a test's fake root has no
 * tools). */
static bool in_path(const char *root, const char *name)
{
    if (root && *root)
        return false;
    const char *path = getenv("PATH");
    if (!path || !*path)
        path = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";
    for (const char *p = path;;) {
        const char *e = strchr(p, ':');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        char f[PATH_MAX];
        snprintf(f, sizeof(f), "%.*s/%s", (int)(n ? n : 1), n ? p : ".", name);
        struct stat st;
        if (stat(f, &st) == 0 && S_ISREG(st.st_mode) && access(f, X_OK) == 0)
            return true;
        if (!e)
            return false;
        p = e + 1;
    }
}

static void note(struct health_snapshot *s, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void note(struct health_snapshot *s, const char *fmt, ...)
{
    size_t used = strlen(s->note);
    if (used + 3 >= sizeof(s->note))
        return;
    if (used)
        used += (size_t)snprintf(s->note + used, sizeof(s->note) - used, "; ");
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->note + used, sizeof(s->note) - used, fmt, ap);
    va_end(ap);
}

/* Run argv; its stdout when it ran (any exit status: smartctl's is a bit mask, and bits 2 and
 * up say what the drive reports, not that it failed); NULL with a note otherwise. */
static char *run_tool(char *const argv[], struct health_snapshot *s)
{
    struct spawn_result r;
    if (spawn_run(argv, &r) != 0) {
        note(s, "%s: cannot start it (%s)", argv[0], strerror(errno));
        return NULL;
    }
    char *out = NULL;
    if (r.stopped)
        note(s, "%s: stopped", argv[0]);
    else if (r.status == 127 || (r.status & 3) || !r.out_len) {
        char last[160];
        if (!str_last_line(r.err, last, sizeof(last)))
            snprintf(last, sizeof(last), "exit status %d", r.status);
        note(s, "%s: %s", argv[0], last);
    } else {
        out = r.out;
        r.out = NULL;
    }
    spawn_result_free(&r);
    return out;
}

/* The whole disk of block device NAME under ROOT/sys/class/block ("sda2" -> "sda"). */
void health_whole_disk(const char *root, const char *name, char *out, size_t len)
{
    char p[PATH_MAX], real[PATH_MAX];
    snprintf(p, sizeof(p), "%s/sys/class/block/%s/partition", root, name);
    str_copy(out, len, name);
    if (access(p, F_OK) != 0)
        return;
    snprintf(p, sizeof(p), "%s/sys/class/block/%s/..", root, name);
    if (realpath(p, real)) {
        const char *b = strrchr(real, '/');
        str_copy(out, len, b ? b + 1 : real);
    }
}

/* nvme0n1 -> nvme0 (the controller's character device: the SMART log is the controller's;
 * a namespace's node is refused by drives without per-namespace logs). */
void health_nvme_controller(const char *disk, char *out, size_t len)
{
    str_copy(out, len, disk);
    if (strlen(out) <= 4)   /* not "nvmeN...": nothing after the prefix to cut */
        return;
    char *n = strchr(out + 4, 'n');
    char *c = strchr(out + 4, 'c');
    if (c && (!n || c < n))
        *c = '\0';
    else if (n)
        *n = '\0';
}

static bool try_nvme_cli(const char *disk, struct health_snapshot *s)
{
    char dev[80], ctrl[64], err[ERR_LEN];
    health_nvme_controller(disk, ctrl, sizeof(ctrl));
    snprintf(dev, sizeof(dev), "/dev/%s", ctrl);
    char *log_argv[] = {"nvme", "smart-log", dev, "-o", "json", NULL};
    char *text = run_tool(log_argv, s);
    if (!text)
        return false;
    struct health_snapshot t = *s;
    bool ok = health_parse_nvme_smart_log(text, &t, err, sizeof(err)) == 0;
    free(text);
    if (!ok) {
        note(s, "%s", err);
        return false;
    }
    *s = t;
    char *id_argv[] = {"nvme", "id-ctrl", dev, "-o", "json", NULL};
    if ((text = run_tool(id_argv, s))) {
        if (health_parse_nvme_id_ctrl(text, s, err, sizeof(err)) != 0)
            note(s, "%s", err);
        free(text);
    }
    /* NAND writes, which the SMART log has not: the FDP statistics of endurance group 1 (the
     * only one of most drives; UNCERTAIN on drives with several), else OCP's C0h log. A drive
     * without them refuses the log: the reason is noted and the next is tried. */
    char *fdp_argv[] = {"nvme", "fdp", "stats", dev, "-e", "1", "-o", "json", NULL};
    char *ocp_argv[] = {"nvme", "ocp", "smart-add-log", dev, "-o", "json", NULL};
    char *const *nand[] = {fdp_argv, ocp_argv};
    int (*const parse[])(const char *, struct health_snapshot *, char *, size_t) = {
        health_parse_nvme_fdp_stats, health_parse_ocp_smart_add_log};
    for (size_t i = 0; i < 2; i++) {
        if (!(text = run_tool(nand[i], s)))
            continue;
        const int rc = parse[i](text, s, err, sizeof(err));
        free(text);
        if (rc == 0)
            break;
        note(s, "%s", err);
    }
    str_copy(s->device, sizeof(s->device), dev);
    return true;
}

static bool try_smartctl(const char *disk, struct health_snapshot *s)
{
    char dev[80], err[ERR_LEN];
    snprintf(dev, sizeof(dev), "/dev/%s", disk);
    char *argv[] = {"smartctl", "-j", "-a", dev, NULL};
    char *text = run_tool(argv, s);
    if (!text)
        return false;
    struct health_snapshot t = *s;
    bool ok = health_parse_smartctl(text, &t, err, sizeof(err)) == 0;
    free(text);
    if (!ok) {
        note(s, "%s", err);
        return false;
    }
    *s = t;
    str_copy(s->device, sizeof(s->device), dev);
    return true;
}

static bool try_sysfs(const char *root, const char *name, struct health_snapshot *s)
{
    char p[PATH_MAX], text[512], err[ERR_LEN];
    snprintf(p, sizeof(p), "%s/sys/class/block/%s/stat", root, name);
    if (read_text_file(p, text, sizeof(text)) < 0) {
        note(s, "sysfs: no %s", p);
        return false;
    }
    if (health_parse_sysfs_stat(text, s, err, sizeof(err)) != 0) {
        note(s, "%s", err);
        return false;
    }
    snprintf(s->device, sizeof(s->device), "/dev/%s", name);
    return true;
}

bool health_tool_installed(const char *name)
{
    return in_path("", name);
}

void health_collect_block(const char *root, const char *name, struct health_snapshot *s)
{
    memset(s, 0, sizeof(*s));
    iso8601_now(s->taken, sizeof(s->taken));
    if (!root)
        root = "";
    char disk[64];
    health_whole_disk(root, name, disk, sizeof(disk));
    const bool nvme = !strncmp(disk, "nvme", 4);
    if (nvme) {
        if (!in_path(root, "nvme"))
            note(s, "nvme-cli: not installed");
        else if (try_nvme_cli(disk, s))
            return;
    }
    if (!in_path(root, "smartctl"))
        note(s, "smartctl: not installed");
    else if (try_smartctl(disk, s))
        return;
    try_sysfs(root, name, s);
}

static void collect_sim(const struct target_info *t, struct health_snapshot *s)
{
    struct sim_stats st;
    sim_lifetime_stats(t->sim->dev, &st);
    const uint64_t k = t->sim->params.k > 1 ? t->sim->params.k : 1;
    const uint64_t unit = SECTOR * k;   /* a simulated sector stands for k of the full drive */
    s->source = HEALTH_SIMULATOR;
    str_copy(s->device, sizeof(s->device), t->path);
    str_copy(s->model, sizeof(s->model), t->model);
    set(&s->host_bytes_written, (int64_t)(st.host_write_sectors * unit), unit);
    set(&s->nand_bytes_written, (int64_t)(st.nand_write_sectors * unit), unit);
    set(&s->host_bytes_read, (int64_t)(st.host_read_sectors * unit), unit);
}

void health_collect(const struct target_info *t, struct health_snapshot *s)
{
    if (t->kind == TARGET_SIM && t->sim) {
        memset(s, 0, sizeof(*s));
        iso8601_now(s->taken, sizeof(s->taken));
        collect_sim(t, s);
        return;
    }
    if ((t->kind != TARGET_BLOCK && t->kind != TARGET_FILE) || !t->devname[0]) {
        memset(s, 0, sizeof(*s));
        iso8601_now(s->taken, sizeof(s->taken));
        snprintf(s->note, sizeof(s->note), "no local block device under %s", t->path);
        return;
    }
    health_collect_block("", t->devname, s);
    if (t->kind == TARGET_FILE)
        note(s, "a file's backing device: other writers to it count too");
}

/* ------------------------------------------------------------------ critical warning */

/* NVMe Base Specification 2.0, SMART / Health Information log, byte 0, bit by bit (bits 6 and 7
 * are reserved: said as a number). */
static const char *const warning_bits[] = {
    "available spare below threshold",
    "temperature beyond a threshold",
    "reliability degraded (media or internal errors)",
    "media read-only",
    "volatile memory backup failed",
    "persistent memory region read-only or unreliable",
};
#define N_WARNING_BITS (sizeof(warning_bits) / sizeof(warning_bits[0]))

static bool warning_set(const struct health_snapshot *s)
{
    return s->critical_warning.reported && s->critical_warning.value > 0;
}

void health_warning_words(int64_t value, char *buf, size_t len)
{
    const unsigned v = (unsigned)value & 0xffu;
    size_t used = (size_t)snprintf(buf, len, "0x%02x:", v);
    const char *sep = " ";
    for (unsigned b = 0; b < 8 && used < len; b++) {
        if (!(v & (1u << b)))
            continue;
        if (b < N_WARNING_BITS)
            used += (size_t)snprintf(buf + used, len - used, "%s%s", sep, warning_bits[b]);
        else
            used += (size_t)snprintf(buf + used, len - used, "%sreserved bit %u", sep, b);
        sep = "; ";
    }
}

bool health_warning_line(const struct health_snapshot *s, char *buf, size_t len)
{
    buf[0] = '\0';
    if (!warning_set(s))
        return false;
    char words[256];
    health_warning_words(s->critical_warning.value, words, sizeof(words));
    snprintf(buf, len, "%s reports a critical warning (%s)", s->device[0] ? s->device : "the drive",
             words);
    return true;
}

bool health_warning_summary(struct json_object *health, struct json_object *rounds, char *buf,
                            size_t len)
{
    uint64_t v, all = 0;
    static const char *const snaps[] = {"before.critical_warning.value",
                                        "after.critical_warning.value"};
    for (size_t i = 0; health && i < 2; i++)
        if (j_u64(jp_at(health, snaps[i]), &v))
            all |= v;
    for (size_t i = 0; i < jp_len(rounds); i++)
        if (j_u64(jp_at(jp_idx(rounds, i), "thermal.critical_warning"), &v))
            all |= v;
    buf[0] = '\0';
    if (!(all & 0xff))
        return false;
    char words[256];
    health_warning_words((int64_t)(all & 0xff), words, sizeof(words));
    snprintf(buf, len, "The drive reported a critical warning (%s)", words);
    return true;
}

struct json_object *health_warning_bits_json(int64_t value)
{
    struct json_object *a = json_object_new_array();
    for (unsigned b = 0; b < N_WARNING_BITS; b++)
        if ((unsigned)value & (1u << b))
            json_object_array_add(a, jw_str(warning_bits[b]));
    return a;
}

/* ------------------------------------------------------------------ the delta */

static void value_delta(const struct health_value *b, const struct health_value *a,
                        struct health_value *d)
{
    memset(d, 0, sizeof(*d));
    if (!b->reported || !a->reported || a->value < b->value)
        return;
    set(d, a->value - b->value, a->unit > b->unit ? a->unit : b->unit);
}

static void say_bytes(int64_t bytes, char *buf, size_t len)
{
    units_format_figure((double)bytes, UNITS_FIG_BYTES, buf, len);
}

static void say_step(uint64_t unit, char *buf, size_t len)
{
    if (unit >= GIB && unit % GIB == 0)
        snprintf(buf, len, "%llu GiB", (unsigned long long)(unit / GIB));
    else if (unit >= (1ull << 20) && unit % (1ull << 20) == 0)
        snprintf(buf, len, "%llu MiB", (unsigned long long)(unit >> 20));
    else if (unit >= 1024 && unit % 1024 == 0)
        snprintf(buf, len, "%llu KiB", (unsigned long long)(unit >> 10));
    else if (unit >= 1000 && unit % 1000 == 0)
        snprintf(buf, len, "%llu kB", (unsigned long long)(unit / 1000));
    else
        snprintf(buf, len, "%llu bytes", (unsigned long long)unit);
}

/* A delta too small to trust: under HEALTH_MIN_STEPS steps of its counter. */
static bool too_small(const struct health_value *d, const char *what, char *why, size_t len)
{
    uint64_t unit = d->unit ? d->unit : 1;
    if ((uint64_t)d->value / unit >= HEALTH_MIN_STEPS)
        return false;
    char b[32], st[32];
    say_bytes(d->value, b, sizeof(b));
    say_step(unit, st, sizeof(st));
    snprintf(why, len, "%s +%s: counter steps of %s, %d needed", what, b, st, HEALTH_MIN_STEPS);
    return true;
}

void health_delta(const struct health_snapshot *before, const struct health_snapshot *after,
                  struct health_delta *d)
{
    memset(d, 0, sizeof(*d));
    value_delta(&before->host_bytes_written, &after->host_bytes_written, &d->host_bytes_written);
    value_delta(&before->nand_bytes_written, &after->nand_bytes_written, &d->nand_bytes_written);
    value_delta(&before->host_bytes_read, &after->host_bytes_read, &d->host_bytes_read);
    value_delta(&before->fdp_host_bytes_written, &after->fdp_host_bytes_written,
                &d->fdp_host_bytes_written);
    d->wa_host_key = "host_bytes_written";
    value_delta(&before->media_errors, &after->media_errors, &d->media_errors);
    value_delta(&before->crc_errors, &after->crc_errors, &d->crc_errors);
    d->wa_state = HEALTH_WA_NOT_REPORTED;
    if (before->source != after->source || before->source == HEALTH_NONE) {
        if (before->source != HEALTH_NONE && after->source != HEALTH_NONE) {
            d->wa_state = HEALTH_WA_INCONSISTENT;
            snprintf(d->why, sizeof(d->why), "before from %s, after from %s",
                     health_source_name(before->source), health_source_name(after->source));
        } else {
            snprintf(d->why, sizeof(d->why), "no health source");
        }
        struct health_value *all[] = {&d->host_bytes_written, &d->nand_bytes_written,
                                      &d->host_bytes_read, &d->fdp_host_bytes_written,
                                      &d->media_errors, &d->crc_errors};
        for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
            memset(all[i], 0, sizeof(*all[i]));
        return;
    }
    if (strcmp(before->nand_source, after->nand_source)) {
        d->wa_state = HEALTH_WA_INCONSISTENT;
        snprintf(d->why, sizeof(d->why), "NAND writes before from %s, after from %s",
                 before->nand_source[0] ? before->nand_source : health_source_name(before->source),
                 after->nand_source[0] ? after->nand_source : health_source_name(after->source));
        return;
    }
    /* FDP statistics are a pair, host and media bytes of one endurance group: its WA is theirs */
    const bool fdp = !strcmp(after->nand_source, HEALTH_NAND_FDP);
    d->wa_host_key = fdp ? "fdp_host_bytes_written" : "host_bytes_written";
    const struct health_value *hb = fdp ? &before->fdp_host_bytes_written
                                        : &before->host_bytes_written;
    const struct health_value *ha = fdp ? &after->fdp_host_bytes_written
                                        : &after->host_bytes_written;
    const struct health_value *hd = fdp ? &d->fdp_host_bytes_written : &d->host_bytes_written;
    const struct health_value *nb = &before->nand_bytes_written, *na = &after->nand_bytes_written;
    if (!hb->reported || !ha->reported || !nb->reported || !na->reported) {
        snprintf(d->why, sizeof(d->why), "%s: %s", health_source_name(after->source),
                 hb->reported && ha->reported ? "host writes only, no NAND writes"
                                              : "no write counters");
        return;
    }
    if (!hd->reported || !d->nand_bytes_written.reported) {
        d->wa_state = HEALTH_WA_INCONSISTENT;
        snprintf(d->why, sizeof(d->why), "a write counter went backwards");
        return;
    }
    if (too_small(hd, "host", d->why, sizeof(d->why)) ||
        too_small(&d->nand_bytes_written, "NAND", d->why, sizeof(d->why))) {
        d->wa_state = HEALTH_WA_TOO_SMALL;
        return;
    }
    d->wa_state = HEALTH_WA_OK;
    d->write_amplification = (double)d->nand_bytes_written.value / (double)hd->value;
}

/* ------------------------------------------------------------------ results */

#define NOT_REPORTED "not reported"

static struct json_object *value_json(const struct health_value *v, bool bytes)
{
    if (!v->reported)
        return jw_str(NOT_REPORTED);
    struct json_object *o = json_object_new_object();
    jw_add(o, "value", jw_int(v->value));
    if (bytes)
        jw_add(o, "unit", jw_int((long long)v->unit));
    return o;
}

static void value_from_json(struct json_object *o, struct health_value *v)
{
    uint64_t x, u = 0;
    memset(v, 0, sizeof(*v));
    if (!json_object_is_type(o, json_type_object) || !j_u64(jp_get(o, "value"), &x))
        return;
    j_u64(jp_get(o, "unit"), &u);
    set(v, (int64_t)x, u);
}

struct json_object *health_snapshot_json(const struct health_snapshot *s)
{
    struct json_object *o = json_object_new_object();
    jw_add(o, "source", jw_str(health_source_name(s->source)));
    static const struct {
        const char *key;
        size_t off;
    } strs[] = {
        {"protocol", offsetof(struct health_snapshot, protocol)},
        {"device", offsetof(struct health_snapshot, device)},
        {"taken", offsetof(struct health_snapshot, taken)},
        {"model", offsetof(struct health_snapshot, model)},
        {"serial", offsetof(struct health_snapshot, serial)},
        {"firmware", offsetof(struct health_snapshot, firmware)},
        {"note", offsetof(struct health_snapshot, note)},
        {"nand_source", offsetof(struct health_snapshot, nand_source)},
    };
    for (size_t i = 0; i < sizeof(strs) / sizeof(strs[0]); i++) {
        const char *v = (const char *)s + strs[i].off;
        if (*v)
            jw_add(o, strs[i].key, jw_str(v));
    }
    for (size_t i = 0; i < health_n_fields; i++)
        jw_add(o, health_fields[i].key,
               value_json(health_cat(s, &health_fields[i]), health_fields[i].bytes));
    if (warning_set(s))
        jw_add(o, "critical_warning_bits", health_warning_bits_json(s->critical_warning.value));
    return o;
}

void health_snapshot_from_json(struct json_object *o, struct health_snapshot *s)
{
    memset(s, 0, sizeof(*s));
    s->source = source_from_name(jp_str(o, "source"));
    str_copy(s->protocol, sizeof(s->protocol), jp_str(o, "protocol") ? jp_str(o, "protocol") : "");
    str_copy(s->device, sizeof(s->device), jp_str(o, "device") ? jp_str(o, "device") : "");
    str_copy(s->taken, sizeof(s->taken), jp_str(o, "taken") ? jp_str(o, "taken") : "");
    str_copy(s->model, sizeof(s->model), jp_str(o, "model") ? jp_str(o, "model") : "");
    str_copy(s->serial, sizeof(s->serial), jp_str(o, "serial") ? jp_str(o, "serial") : "");
    str_copy(s->firmware, sizeof(s->firmware), jp_str(o, "firmware") ? jp_str(o, "firmware") : "");
    str_copy(s->note, sizeof(s->note), jp_str(o, "note") ? jp_str(o, "note") : "");
    str_copy(s->nand_source, sizeof(s->nand_source),
             jp_str(o, "nand_source") ? jp_str(o, "nand_source") : "");
    for (size_t i = 0; i < health_n_fields; i++)
        value_from_json(jp_get(o, health_fields[i].key), health_at(s, &health_fields[i]));
}

/* The log NAND writes came from, for people and the results. */
static const char *nand_words(const char *nand_source)
{
    if (!strcmp(nand_source, HEALTH_NAND_FDP))
        return "FDP statistics log (22h): media / host bytes with metadata written";
    if (!strcmp(nand_source, HEALTH_NAND_OCP))
        return "OCP SMART extended log (C0h): physical media units written / SMART log data "
               "units written";
    return nand_source;
}

static const char *const wa_words[] = {
    [HEALTH_WA_OK] = "", [HEALTH_WA_NOT_REPORTED] = "not reported by this device",
    [HEALTH_WA_TOO_SMALL] = "too small to derive",
    [HEALTH_WA_INCONSISTENT] = "not derived",
};

struct json_object *health_json(const struct health_snapshot *before,
                                const struct health_snapshot *after)
{
    struct json_object *o = json_object_new_object();
    jw_add(o, "before", health_snapshot_json(before));
    if (!after)
        return o;
    jw_add(o, "after", health_snapshot_json(after));
    struct health_delta d;
    health_delta(before, after, &d);
    struct json_object *dj = json_object_new_object();
    jw_add(dj, "host_bytes_written", value_json(&d.host_bytes_written, true));
    jw_add(dj, "nand_bytes_written", value_json(&d.nand_bytes_written, true));
    jw_add(dj, "host_bytes_read", value_json(&d.host_bytes_read, true));
    if (d.fdp_host_bytes_written.reported)
        jw_add(dj, "fdp_host_bytes_written", value_json(&d.fdp_host_bytes_written, true));
    jw_add(dj, "media_errors", value_json(&d.media_errors, false));
    jw_add(dj, "crc_errors", value_json(&d.crc_errors, false));
    jw_add(o, "delta", dj);
    if (d.wa_state == HEALTH_WA_OK) {
        jw_add(o, "write_amplification", jw_num(d.write_amplification));
        if (after->nand_source[0])   /* NAND writes from another log than the host writes' */
            jw_add(o, "write_amplification_source", jw_str(nand_words(after->nand_source)));
    } else {
        jw_add(o, "write_amplification", jw_str(wa_words[d.wa_state]));
        jw_add(o, "write_amplification_why", jw_str(d.why));
    }
    return o;
}

void health_summary(struct json_object *o, char *buf, size_t len)
{
    buf[0] = '\0';
    if (!json_object_is_type(o, json_type_object) || !jp_obj_at(o, "before"))
        return;
    const char *src = jp_str(o, "after.source") ? jp_str(o, "after.source")
                                                : jp_str(o, "before.source");
    struct json_object *wa = jp_get(o, "write_amplification");
    if (!wa) {
        snprintf(buf, len, "Drive write amplification over the test: not derived (the test "
                 "did not end; health read before it only, %s)", src ? src : "no source");
        return;
    }
    double v = jp_number(wa);
    if (isfinite(v)) {
        char n[32], h[32], w[32];   /* one figure format (units_format_figure) */
        units_format_figure(jp_path(o, "delta.nand_bytes_written.value"), UNITS_FIG_BYTES, n,
                            sizeof(n));
        const char *ns = jp_str(o, "after.nand_source");
        const bool fdp = ns && !strcmp(ns, HEALTH_NAND_FDP);
        units_format_figure(jp_path(o, fdp ? "delta.fdp_host_bytes_written.value"
                                           : "delta.host_bytes_written.value"),
                            UNITS_FIG_BYTES, h, sizeof(h));
        units_format_figure(v, UNITS_FIG_WAF, w, sizeof(w));
        snprintf(buf, len, "Drive write amplification over the test: %s (NAND %s / host %s, "
                 "%s%s%s)", w, n, h, src ? src : "?", ns ? ": " : "",
                 ns ? (fdp ? "FDP statistics" : "OCP C0h") : "");
        return;
    }
    const char *why = jp_str(o, "write_amplification_why");
    snprintf(buf, len, "Drive write amplification over the test: %s%s%s%s",
             jp_string(wa) ? jp_string(wa) : "not reported by this device", why ? " (" : "",
             why ? why : "", why ? ")" : "");
}
