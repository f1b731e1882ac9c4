/* health.h — a drive's health and lifetime counters, read before and after a test, and the
 * drive's own write amplification over it (docs/health.md has the sources and the units).
 *
 * Where a snapshot comes from (enum health_source):
 *   - nvme-cli: `nvme smart-log /dev/nvmeN -o json` (the SMART / Health Information log page,
 *     NVMe Base Specification, Log Page Identifier 02h) and `nvme id-ctrl /dev/nvmeN -o json`
 *     (model, serial, firmware, temperature thresholds); then, for NAND writes, `nvme fdp stats
 *     /dev/nvmeN -e 1 -o json` (FDP Statistics, 22h: host and media bytes), else `nvme ocp
 *     smart-add-log /dev/nvmeN -o json` (OCP's C0h: physical media units written), the first
 *     that answers (nand_source says which; a refusal is noted);
 *   - smartctl: `smartctl -j -a /dev/X` for ATA (the attribute table, read by the names
 *     smartctl's drive database gives), SCSI/SAS (error counter log, grown defects, endurance
 *     indicator) and NVMe (smartctl's own copy of the same log page);
 *   - sysfs: /sys/block/DEV/stat, sectors the kernel sent to the device (host writes and reads
 *     only, since the device appeared; nothing about NAND or errors);
 *   - simulator: the simulated drive's counters (sim_lifetime_stats), so that the whole path is
 *     exercised without hardware.
 *
 * Every figure has a `reported` flag: a field the source does not give stays unreported, and a
 * reader prints "not reported by this device", never a zero. Byte counters carry their
 * granularity (`unit`, bytes per counter step): NVMe data units are 1000 x 512 bytes, SandForce's
 * attributes 233/241 count GiB, smartctl's SCSI "gigabytes_processed" has three decimals
 * (1 MB steps), sysfs counts 512-byte sectors. A write amplification is derived only when both
 * deltas span at least HEALTH_MIN_STEPS steps (health_delta); below that the ratio is mostly
 * rounding, and it is said to be too small to derive.
 *
 * The parsers are pure functions of the tool's JSON text: no I/O, no globals. Malformed input
 * gives -1 and one line in err; a field of an unexpected type is left unreported. UNCERTAIN:
 * vendor attribute meanings on ATA (docs/health.md lists the sources and the choices). */
#ifndef PTSBENCH_HEALTH_H
#define PTSBENCH_HEALTH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct json_object;
struct target_info;

/* NVMe logs beside the SMART log that give NAND writes (docs/health.md, "Where the figures
 * come from", the order): the FDP Statistics log (Log Page Identifier 22h, NVMe TP4146, Base
 * Specification 2.1) and OCP's SMART / Health Information Extended log (C0h, OCP Datacenter
 * NVMe SSD Specification). */
#define HEALTH_NAND_FDP "fdp-stats"
#define HEALTH_NAND_OCP "ocp-c0h"

enum health_source {
    HEALTH_NONE = 0,
    HEALTH_NVME_CLI,
    HEALTH_SMARTCTL,
    HEALTH_SYSFS,
    HEALTH_SIMULATOR,
};

/* A deltas is trusted from this many counter steps up (docs/health.md, "Granularity"): one step
 * of rounding at each end is then at most 2% of the delta. */
#define HEALTH_MIN_STEPS 100

/* One figure. value: bytes for the byte counters, else the count, °C or percent. unit: bytes per
 * counter step for byte counters (0 otherwise). */
struct health_value {
    bool reported;
    int64_t value;
    uint64_t unit;
};

struct health_snapshot {
    enum health_source source;
    char protocol[8];           /* "nvme", "ata", "scsi"; "" when unknown (sysfs, simulator) */
    char device[64];            /* what was read: "/dev/nvme0", "/dev/sda", "sim:..." */
    char taken[32];             /* UTC, ISO 8601 */
    char model[128], serial[64], firmware[32];   /* "" where not given */
    char note[256];             /* why a source was not used ("smartctl: not installed") */
    struct health_value host_bytes_written;
    struct health_value nand_bytes_written;  /* the source's own, or from the log nand_source
                                                names (NVMe: FDP statistics' media bytes with
                                                metadata written, or OCP C0h's physical media
                                                units written) */
    struct health_value host_bytes_read;
    char nand_source[16];       /* "" (the source's own), HEALTH_NAND_FDP, HEALTH_NAND_OCP */
    struct health_value media_bytes_read;        /* OCP C0h Physical Media Units Read */
    struct health_value fdp_host_bytes_written;  /* FDP statistics HBMW: the host side of its
                                                    WA (nand_source HEALTH_NAND_FDP) */
    struct health_value media_bytes_erased;      /* FDP statistics MBE */
    struct health_value temperature_c;
    struct health_value critical_warning;    /* NVMe SMART / Health log byte 0, its bits
                                                (health_warning_line); others: none */
    struct health_value warning_temp_c;      /* NVMe Identify Controller WCTEMP, CCTEMP (Kelvin, */
    struct health_value critical_temp_c;     /* here K - 273 as temperature_c): nvme id-ctrl */
    struct health_value media_errors;        /* NVMe media errors; ATA 187 Reported_Uncorrect;
                                                SCSI uncorrected read+write+verify errors */
    struct health_value crc_errors;          /* ATA 199 (interface CRC); NVMe, SCSI: none */
    struct health_value percentage_used;     /* NVMe Percentage Used; SCSI endurance indicator;
                                                ATA smartctl's endurance_used */
    struct health_value power_on_hours;
    struct health_value unsafe_shutdowns;
    struct health_value grown_defects;       /* SCSI grown defect list */
};

/* The fields, as rows: a key in the results, a label for people, where it is in the struct,
 * and whether it counts bytes. Serialisation, the reader and `show` all walk it. */
struct health_field {
    const char *key;            /* "host_bytes_written" */
    const char *label;          /* "host writes" */
    size_t offset;              /* offsetof(struct health_snapshot, ...) */
    bool bytes;
};
extern const struct health_field health_fields[];
extern const size_t health_n_fields;
static inline struct health_value *health_at(struct health_snapshot *s, const struct health_field *f)
{
    return (struct health_value *)((char *)s + f->offset);
}
static inline const struct health_value *health_cat(const struct health_snapshot *s,
                                                    const struct health_field *f)
{
    return (const struct health_value *)((const char *)s + f->offset);
}

const char *health_source_name(enum health_source s);   /* "nvme-cli", ..., "none" */

/* ---- parsers (pure) ---- Each fills what its input gives, leaving the rest as it was, so that
 * id-ctrl and smart-log can fill one snapshot. 0, or -1 with a message (not JSON, not an
 * object, or none of the fields this parser knows). */
int health_parse_nvme_smart_log(const char *json, struct health_snapshot *s, char *err,
                                size_t errlen);
int health_parse_nvme_id_ctrl(const char *json, struct health_snapshot *s, char *err,
                              size_t errlen);
int health_parse_smartctl(const char *json, struct health_snapshot *s, char *err, size_t errlen);
/* `nvme ocp smart-add-log /dev/nvmeN -o json` (nvme-cli's OCP plugin; both layouts of its
 * --output-format-version: 1 "Physical media units written": {"hi", "lo"}, 2
 * "physical_media_units_written": {"hi", "lo"}): physical media units written and read, bytes
 * (a 128-bit counter; hi must be 0). nand_source becomes HEALTH_NAND_OCP. */
int health_parse_ocp_smart_add_log(const char *json, struct health_snapshot *s, char *err,
                                   size_t errlen);
/* `nvme fdp stats /dev/nvmeN -e ENDGRP -o json`: {"hbmw", "mbmw", "mbe"}, bytes (numbers or
 * strings of digits). nand_source becomes HEALTH_NAND_FDP: the WA is mbmw / hbmw. */
int health_parse_nvme_fdp_stats(const char *json, struct health_snapshot *s, char *err,
                                size_t errlen);
/* /sys/block/DEV/stat's text (Documentation/ABI/stable/sysfs-block: fields 3 and 7 are sectors
 * read and written, in 512-byte units whatever the device's sector size). */
int health_parse_sysfs_stat(const char *text, struct health_snapshot *s, char *err,
                            size_t errlen);

/* ---- collecting ---- What the target's drive says now: the simulator's counters for a
 * simulated target; for a block device (or a file's backing device, its whole disk), nvme-cli
 * (NVMe), else smartctl, each only when installed, else sysfs. A tool that is missing or fails
 * is not an error: the next source is tried and the reason kept in s->note. Never writes to the
 * device. A remote target has no snapshot (source none). */
void health_collect(const struct target_info *t, struct health_snapshot *s);
/* The same for the block device NAME ("nvme0n1", "sda2"), under ROOT ("" the live /sys and
 * PATH; a test's fake tree with no tools otherwise). */
void health_collect_block(const char *root, const char *name, struct health_snapshot *s);

/* Shared with thermal.c (the per-round temperature): a count from a JSON number or a string of
 * digits; the whole disk of block device NAME under ROOT ("sda2" -> "sda"); the NVMe
 * controller of a disk ("nvme0n1" -> "nvme0"); a tool in PATH. */
bool health_json_u64(struct json_object *v, uint64_t *out);
void health_whole_disk(const char *root, const char *name, char *out, size_t len);
void health_nvme_controller(const char *disk, char *out, size_t len);
bool health_tool_installed(const char *name);

/* One line for people when the drive reports a critical warning (non-zero bits): "/dev/nvme0
 * reports a critical warning (0x05: available spare below threshold; reliability degraded)".
 * False, with buf "", when it reports none or does not say. The bits: NVMe Base Specification
 * 2.0, SMART / Health Information log, byte 0. */
bool health_warning_line(const struct health_snapshot *s, char *buf, size_t len);
/* The byte's bits in words, "0x05: available spare below threshold; reliability degraded"
 * (for the line above, a round's reading and `show`), and as a JSON array of the set bits'
 * names ("critical_warning_bits"). */
void health_warning_words(int64_t value, char *buf, size_t len);
/* One line from a results' "health" object and its "rounds" (rounds[].thermal.critical_warning,
 * either may be NULL): "The drive reported a critical warning (0x05: ...)", the bits of every
 * reading ORed; false and "" when none was set or none was read. */
bool health_warning_summary(struct json_object *health, struct json_object *rounds, char *buf,
                            size_t len);
struct json_object *health_warning_bits_json(int64_t value);

/* ---- the test's delta ---- */
enum health_wa {
    HEALTH_WA_OK = 0,
    HEALTH_WA_NOT_REPORTED,     /* host or NAND writes not reported (before or after) */
    HEALTH_WA_TOO_SMALL,        /* a delta under HEALTH_MIN_STEPS counter steps */
    HEALTH_WA_INCONSISTENT,     /* different sources, or a counter went backwards */
};
struct health_delta {
    struct health_value host_bytes_written, nand_bytes_written, host_bytes_read;
    struct health_value fdp_host_bytes_written;      /* HBMW's delta (FDP statistics) */
    struct health_value media_errors, crc_errors;   /* new errors during the test */
    const char *wa_host_key;     /* the host delta of the WA: "host_bytes_written", or
                                    "fdp_host_bytes_written" when NAND writes are FDP's */
    enum health_wa wa_state;
    double write_amplification;  /* nand / host when wa_state is HEALTH_WA_OK */
    char why[256];               /* the reason when not OK, for people */
};
void health_delta(const struct health_snapshot *before, const struct health_snapshot *after,
                  struct health_delta *d);

/* ---- results ---- {"source", "protocol", "device", "taken", "model", "serial", "firmware",
 * "note", FIELD: {"value", "unit"} or "not reported", and "critical_warning_bits": the set
 * bits in words when there are any} */
struct json_object *health_snapshot_json(const struct health_snapshot *s);
/* The reverse (unknown or malformed members are left unreported). */
void health_snapshot_from_json(struct json_object *o, struct health_snapshot *s);
/* The results' "health" object: {before, after, delta, write_amplification: number or
 * "not reported by this device" / "too small to derive" (with "write_amplification_why")}. */
struct json_object *health_json(const struct health_snapshot *before,
                                const struct health_snapshot *after);
/* One line for people from a results' "health" object: "Drive write amplification over the
 * test: 2.46 (NAND 396.2 GB / host 161.1 GB, smartctl)" or "...: not reported by this device
 * (sysfs: host writes only)". "" when o is not such an object. */
void health_summary(struct json_object *o, char *buf, size_t len);

#endif
