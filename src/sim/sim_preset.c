/* sim_preset.c — simulated-drive presets (profiles/devices/NAME.ini), the "sim:PRESET[,k=v...]"
 * target syntax, and the describe view with the design note's expected figures.
 *
 * Every field of struct sim_params is one row of sim_preset_rows (lib/keys.h: key, type, range,
 * field, help), which sets it and prints it for --describe.
 * The derived figures of sim_params_describe() are the closed forms of the design note
 * (docs/simulated-drive.md §3, §5.9, §6); they are expectations, not model output:
 *   - capacity: usable = raw - reserve - free-line pool (the pool is the foreground-GC trigger,
 *     max(fg_lines_min, ceil(fg_lines_pct % of the lines at k))); user = user_bytes, or
 *     usable / (1 + op) when user_bytes = 0; rho_eff = usable / user - 1; A = sim_wa_oracle().
 *   - FOB 4 KiB random write: min(fw n / c_w(4K), NAND D u / tPROG, datapath B_w / 4 KiB), times
 *     the controllers, capped by the host link.
 *   - steady state: min(fw n / (c_w + (A-1) c_gc + A c_gc_sp / units per superpage),
 *                       NAND D / (A tPROG/u + (A-1) tR/u + A tBERS/U_blk),
 *                       datapath B_w / (4 KiB A)),
 *     times the controllers, capped by the host link. With DuraWrite, data of compressibility
 *     pct stores a fraction c of each unit; then A = A(usable / (c user) - 1) and the relocation
 *     and NAND terms scale by c (note §3 "Compression raises effective OP").
 *   - card of N controllers at queue depth QD: stripe (random assignment) N X1 QD / (QD + N - 1);
 *     vca (join-shortest-queue) X1 min(QD, N) (note §4).
 *   - 4 KiB random read cap: min(fw n / c_r(4K), D / tR, channels x channel rate / 4 KiB) x N,
 *     capped by the link; QD1 latencies are the sums of the fixed path costs (note §6.3).
 *   - scaled geometry at k: raw / k; halve pages per block (down to 8) until >= 256 lines;
 *     tBERS scales with pages per block (note §5.9). */
#include "sim/sim_preset.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "lib/ini.h"
#include "lib/keys.h"
#include "lib/units.h"
#include "lib/util.h"

#define SP_UNIT 4096.0              /* mapping unit: 4 KiB */
#define SP_MIN_LINES 256u           /* geometry rule, note §5.9 */
#define SP_MIN_PPB 8u

/* ------------------------------------------------------------------------------------------ */
/* The key rows (lib/keys.h): every field of struct sim_params                                */

#define SP_F(f) KEY_FIELD(struct sim_params, f)
#define SP_U(k, f, lo, hi, h) {k, KEY_UINT, SP_F(f), lo, hi, .help = h}
#define SP_D(k, f, lo, hi, h) {k, KEY_DOUBLE, SP_F(f), lo, hi, .help = h}
#define SP_P(k, f, lo, hi, h) {k, KEY_PCT, SP_F(f), lo, hi, .help = h}
#define SP_B(k, f, h) {k, KEY_BOOL, SP_F(f), .help = h}

static const struct key_choice sim_dispatch_choices[] = {
    {"stripe", SIM_DISPATCH_STRIPE, false}, {"vca", SIM_DISPATCH_VCA, false}, {NULL, 0, false}};
static const struct key_choice sim_gc_choices[] = {{"greedy", SIM_GC_GREEDY, false},
                                                   {"fifo", SIM_GC_FIFO, false},
                                                   {"dchoice", SIM_GC_DCHOICE, false},
                                                   {NULL, 0, false}};

static const struct key_row sim_preset_rows[] = {
    {"name", KEY_STR, SP_F(name), .help = "the preset's name"},
    {"description", KEY_STR, SP_F(description), .help = "one line for sim --list"},

    SP_U("n_ctl", n_ctl, 1, 64, "controllers behind the host interface"),
    {"dispatch", KEY_CHOICE, SP_F(dispatch), .choices = sim_dispatch_choices,
     .help = "how the card assigns I/Os to controllers"},
    {"stripe_unit_bytes", KEY_SIZE, SP_F(stripe_unit_bytes), 4096, 64.0 * 1048576, 4096,
     .help = "stripe: LBA striping unit over the controllers"},
    SP_P("vca_balance_pct", vca_balance_pct, 0, 100, "vca: written-byte imbalance allowed"),
    SP_D("link_mb_s", link_mb_s, 1, 1e6, "host link (PCIe) MB/s, shared by the controllers"),
    SP_D("link_write_mb_s", link_write_mb_s, 0, 1e6, "the link's write direction (0: link_mb_s)"),
    SP_D("d_card_us", d_card_us, 0, 1e6, "fixed card latency per I/O (reserves nothing)"),

    SP_U("channels", channels, 1, 256, "NAND channels per controller"),
    SP_U("dies_per_channel", dies_per_channel, 1, 256, "dies on each channel"),
    SP_U("planes", planes, 1, 16, "planes per die (a multi-plane program writes all)"),
    {"page_bytes", KEY_SIZE, SP_F(page_bytes), 4096, 1048576, 4096,
     .help = "NAND page per plane"},
    {"pages_per_block", KEY_POW2, SP_F(pages_per_block), SP_MIN_PPB, 65536,
     .help = "pages per erase block"},
    SP_U("blocks_per_plane", blocks_per_plane, 1, 1048576, "erase blocks per plane = lines"),
    SP_D("t_read_us", t_read_us, 0, 1e6, "NAND page read (tR)"),
    SP_D("t_prog_us", t_prog_us, 0, 1e6, "NAND page program (tPROG)"),
    SP_D("t_erase_us", t_erase_us, 0, 1e7, "NAND block erase (tBERS)"),
    SP_D("channel_mb_s", channel_mb_s, 1, 1e6, "transfer rate of one channel"),

    {"user_bytes", KEY_SIZE, SP_F(user_bytes), 0, 1152921504606846976.0 /* 2^60 */,
     .help = "logical capacity per controller (0: from op_pct)"},
    SP_P("reserve_pct", reserve_pct, 0, 90, "raw space never used for user data"),
    SP_P("op_pct", op_pct, 0, 100, "spare factor (T - U) / U when user_bytes = 0 (alias op)"),

    SP_U("fw_cores", fw_cores, 1, 64, "firmware cores per controller"),
    SP_D("hk_period_us", hk_period_us, 0, 1e9, "firmware housekeeping period (0: none)"),
    SP_D("hk_us", hk_us, 0, 1e6, "... each core busy this long every period"),
    SP_D("pause_period_ms", pause_period_ms, 0, 1e9, "controller pause about this often"),
    SP_D("pause_ms", pause_ms, 0, 1e6, "... this long (0: none; neither x k)"),
    SP_D("flush_every_mb", flush_every_mb, 0, 1e9, "controller pause per MB of host data stored"),
    SP_D("flush_ms", flush_ms, 0, 1e6, "... this long (0: none; not x k)"),
    SP_D("c_cmd_us", c_cmd_us, 0, 1e6, "firmware: front-end processing per host command"),
    SP_D("c_w_us", c_w_us, 0, 1e6, "firmware: a host write, fixed"),
    SP_D("c_w_us_per_kib", c_w_us_per_kib, 0, 1e6, "firmware: a host write, per KiB"),
    SP_D("c_r_us", c_r_us, 0, 1e6, "firmware: a mapped read, fixed"),
    SP_D("c_r_us_per_kib", c_r_us_per_kib, 0, 1e6, "firmware: a mapped read, per KiB"),
    SP_D("c_r_page_us", c_r_page_us, 0, 1e6, "firmware: a read, per superpage it touches"),
    SP_D("c_unmapped_us", c_unmapped_us, 0, 1e6, "firmware: a read of unwritten data (no NAND)"),
    SP_D("c_gc_us", c_gc_us, 0, 1e6, "firmware: per relocated 4 KiB"),
    SP_D("c_gc_sp_us", c_gc_sp_us, 0, 1e6, "firmware: per superpage read for relocation"),
    SP_D("wpipe_mb_s", wpipe_mb_s, 0, 1e6, "write datapath, stored bytes (0: none)"),
    SP_D("d_w_us", d_w_us, 0, 1e6, "fixed write pipeline delay (reserves nothing)"),
    SP_D("d_r_us", d_r_us, 0, 1e6, "fixed read pipeline delay (reserves nothing)"),
    SP_U("wbuf_units", wbuf_units, 1, 67108864, "early-ack write buffer, 4 KiB units stored"),

    {"gc", KEY_CHOICE, SP_F(gc), .choices = sim_gc_choices, .help = "GC victim policy"},
    SP_U("dchoice_d", dchoice_d, 1, 1024, "d-choice: lines sampled per victim"),
    SP_P("fg_lines_pct", fg_lines_pct, 0, 50, "foreground GC at max(fg_lines_min, pct) free"),
    SP_U("fg_lines_min", fg_lines_min, 2, 65536, "... lines at least"),
    SP_U("gc_quantum_units", gc_quantum_units, 0, 1048576, "relocations per GC step (0: a victim)"),
    SP_B("bg_gc", bg_gc, "background GC in host idle time"),
    SP_D("idle_delay_ms", idle_delay_ms, 0, 1e7, "host idle before background GC (not x k)"),
    SP_P("bg_target_pct", bg_target_pct, 0, 100, "background GC stops at this free % of raw"),
    SP_P("bg_busy_pct", bg_busy_pct, 0, 100, "background GC's share of busy time (0: idle only)"),

    SP_B("durawrite", durawrite, "compression: fewer stored sectors for compressible data"),
    SP_P("meta_pct", meta_pct, 0, 50, "metadata stored per 4 KiB unit, % of the unit"),
    SP_B("measure_compress", measure_compress, "measure each write's data with lz4 (slower)"),

    SP_D("host_worker_us", host_worker_us, 0, 1e6, "host: CPU per I/O of one worker"),
    SP_D("host_driver_us", host_driver_us, 0, 1e6, "host: a driver path all workers share"),
    SP_D("host_worker_us_per_kib", host_worker_us_per_kib, 0, 1e6, "... per KiB, per worker"),
    SP_D("host_driver_us_per_kib", host_driver_us_per_kib, 0, 1e6, "... per KiB, shared"),

    SP_B("thermal", thermal, "thermal model: temperature and throttling (off: none)"),
    SP_D("thermal_ambient_c", thermal_ambient_c, -40, 100, "thermal: ambient, °C"),
    SP_D("thermal_tau_s", thermal_tau_s, 0.001, 1e6, "thermal: cooling time constant, s"),
    SP_D("thermal_write_c_per_gb", thermal_write_c_per_gb, 0, 1e4, "thermal: heat per GB written"),
    SP_D("thermal_read_c_per_gb", thermal_read_c_per_gb, 0, 1e4, "thermal: heat per GB read"),
    SP_D("thermal_throttle_c", thermal_throttle_c, -40, 200, "thermal: throttled from, °C"),
    SP_D("thermal_resume_c", thermal_resume_c, -40, 200, "thermal: ... until it falls to, °C"),
    SP_D("thermal_throttle_mb_s", thermal_throttle_mb_s, 0.001, 1e6, "thermal: MB/s while throttled"),

    {"k", KEY_POW2, SP_F(k), 1, 4096, .help = "time dilation and capacity scale"},
    {"seed", KEY_UINT, SP_F(seed), 0, 18446744073709551615.0, .help = "the model's PRNG seed"},
    {"op", KEY_ALIAS, .alias = "op_pct"},
};

static const struct key_table sim_preset_table = KEY_TABLE(sim_preset_rows);

int sim_params_set(struct sim_params *p, const char *key, const char *value, const char *where,
                   char *err, size_t errlen)
{
    if (!where || !*where)
        where = "sim";
    if (!key || !*key)
        return errf(err, errlen, "%s: empty key", where);
    if (!value)
        value = "";
    int rc = keys_set(&sim_preset_table, p, key, value, where, err, errlen);
    if (rc == KEYS_UNKNOWN)
        return errf(err, errlen, "%s: %s=%s: unknown key (ptsbench sim --describe PRESET lists "
                    "the keys)", where, key, value);
    return rc;
}

/* ------------------------------------------------------------------------------------------ */
/* Preset files                                                                               */

struct sim_preset_names {
    char **v;
    size_t n;
};

static void sim_preset_names_free(struct sim_preset_names *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->v[i]);
    free(l->v);
    l->v = NULL;
    l->n = 0;
}

static int sim_preset_cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Preset names in dirs (the first directory holding a name wins), sorted. */
static void sim_preset_collect(const char *const *dirs, struct sim_preset_names *out)
{
    out->v = NULL;
    out->n = 0;
    for (size_t d = 0; dirs && dirs[d]; d++) {
        DIR *dir = opendir(dirs[d]);
        if (!dir)
            continue;
        struct dirent *de;
        while ((de = readdir(dir)) != NULL) {
            size_t len = strlen(de->d_name);
            if (de->d_name[0] == '.' || len <= 4 || strcmp(de->d_name + len - 4, ".ini") != 0)
                continue;
            char *name = xstrdup(de->d_name);
            name[len - 4] = '\0';
            bool seen = false;
            for (size_t i = 0; i < out->n && !seen; i++)
                seen = strcmp(out->v[i], name) == 0;
            if (seen) {
                free(name);
                continue;
            }
            out->v = xrealloc(out->v, (out->n + 1) * sizeof *out->v);
            out->v[out->n++] = name;
        }
        closedir(dir);
    }
    if (out->n > 1)
        qsort(out->v, out->n, sizeof *out->v, sim_preset_cmp_str);
}

static bool sim_preset_is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* Path of NAME.ini in the first directory that has it; false when none does. */
static bool sim_preset_find_file(const char *name, const char *const *dirs, char *path, size_t len)
{
    for (size_t d = 0; dirs && dirs[d]; d++) {
        snprintf(path, len, "%s/%s.ini", dirs[d], name);
        if (sim_preset_is_file(path))
            return true;
    }
    return false;
}

/* Apply the [global] then the [device] section of a parsed preset file. */
static int sim_preset_apply_file(const struct ini_file *f, struct sim_params *p, char *err,
                                 size_t errlen)
{
    for (size_t i = 0; i < f->n_sections; i++) {
        const struct ini_section *s = &f->sections[i];
        if (strcmp(s->name, "global") != 0 && strcmp(s->name, "device") != 0)
            return errf(err, errlen, "%s:%d: unknown section [%s] (a preset has one [device] "
                        "section)", f->path, s->line, s->name);
    }
    const struct ini_section *dev = ini_find_section(f, "device");
    if (!dev)
        return errf(err, errlen, "%s: no [device] section", f->path);
    const struct ini_section *order[2] = {ini_find_section(f, "global"), dev};
    for (size_t j = 0; j < 2; j++) {
        const struct ini_section *s = order[j];
        for (size_t i = 0; s && i < s->n_entries; i++) {
            char where[512];
            snprintf(where, sizeof where, "%s:%d", f->path, s->entries[i].line);
            if (sim_params_set(p, s->entries[i].key, s->entries[i].value, where, err, errlen) < 0)
                return -1;
        }
    }
    return 0;
}

static bool sim_preset_valid_name(const char *name)
{
    if (!name || !*name || name[0] == '.' || strlen(name) > 200)
        return false;
    for (const char *c = name; *c; c++)
        if (!(isalnum((unsigned char)*c) || *c == '-' || *c == '_' || *c == '.'))
            return false;
    return true;
}

static int sim_preset_unknown(const char *name, const char *const *dirs, char *err,
                              size_t errlen)
{
    struct sim_preset_names l;
    sim_preset_collect(dirs, &l);
    if (l.n == 0) {
        errf(err, errlen, "unknown sim preset '%s' (no presets found: looked for "
             "profiles/devices/*.ini)", name);
        return -1;
    }
    char list[ERR_LEN] = "";
    size_t used = 0;
    for (size_t i = 0; i < l.n; i++) {
        int n = snprintf(list + used, sizeof list - used, "%s%s", i ? ", " : "", l.v[i]);
        if (n < 0 || (size_t)n >= sizeof list - used)
            break;
        used += (size_t)n;
    }
    sim_preset_names_free(&l);
    return errf(err, errlen, "unknown sim preset '%s' (available: %s)", name, list);
}

int sim_preset_load(const char *name, const char *const *dirs, struct sim_params *p,
                    char *err, size_t errlen)
{
    if (!sim_preset_valid_name(name))
        return errf(err, errlen, "bad sim preset name '%s' (want letters, digits, '-', '_', "
                    "'.'; ptsbench sim --list)", name ? name : "");
    char path[4096];
    if (!sim_preset_find_file(name, dirs, path, sizeof path))
        return sim_preset_unknown(name, dirs, err, errlen);
    struct ini_file f;
    if (ini_parse_file(path, &f, err, errlen) < 0)
        return -1;
    sim_params_default(p);
    str_copy(p->name, sizeof p->name, name);
    int rc = sim_preset_apply_file(&f, p, err, errlen);
    ini_free(&f);
    return rc;
}

int sim_target_is(const char *target)
{
    return target && strncmp(target, "sim:", 4) == 0;
}

int sim_target_parse(const char *target, const char *const *dirs, struct sim_params *p,
                     char *err, size_t errlen)
{
    if (!sim_target_is(target))
        return errf(err, errlen, "sim target: '%s' does not start with 'sim:'",
                    target ? target : "");
    /* An empty item ("sim:x,,k=2", a trailing ',') is refused; strtok_r would skip it. */
    for (const char *c = target + 4; *c; c++)
        if (*c == ',' && (c[1] == ',' || c[1] == '\0'))
            return errf(err, errlen, "sim target: '%s': empty key=value item", target);
    char *copy = xstrdup(target + 4);
    char *save = NULL;
    int rc = 0;
    /* The preset is everything up to the first comma. */
    char *comma = strchr(copy, ',');
    if (comma)
        *comma = '\0';
    char *preset = str_trim(copy);
    if (*preset == '\0') {
        rc = errf(err, errlen, "sim target: '%s': missing preset name (ptsbench sim --list)",
                  target);
        goto out;
    }
    if (sim_preset_load(preset, dirs, p, err, errlen) < 0) {
        char inner[ERR_LEN];
        str_copy(inner, sizeof inner, err);
        rc = errf(err, errlen, "sim target: %s", inner);
        goto out;
    }
    if (!comma)
        goto out;
    for (char *item = strtok_r(comma + 1, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
        char *kv = str_trim(item);
        char *eq = strchr(kv, '=');
        if (!eq) {
            rc = errf(err, errlen, "sim target: '%s': want key=value", kv);
            goto out;
        }
        *eq = '\0';
        char *key = str_trim(kv);
        char *value = str_trim(eq + 1);
        if (sim_params_set(p, key, value, "sim target", err, errlen) < 0) {
            rc = -1;
            goto out;
        }
    }
out:
    free(copy);
    return rc;
}

/* The description of a preset file, or an explanation of why it cannot be read. */
static void sim_preset_file_description(const char *path, char *out, size_t len)
{
    struct ini_file f;
    char err[ERR_LEN];
    if (ini_parse_file(path, &f, err, sizeof err) < 0) {
        snprintf(out, len, "(unreadable: %s)", err);
        return;
    }
    const struct ini_entry *e = ini_find(ini_find_section(&f, "device"), "description");
    if (!e)
        e = ini_find(ini_find_section(&f, "global"), "description");
    str_copy(out, len, e ? e->value : "(no description)");
    ini_free(&f);
}

unsigned sim_preset_names_join(const char *const *dirs, char *buf, size_t len)
{
    struct sim_preset_names l;
    sim_preset_collect(dirs, &l);
    size_t k = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < l.n && k < len; i++)
        k += (size_t)snprintf(buf + k, len - k, "%s%s", i ? ", " : "", l.v[i]);
    unsigned n = (unsigned)l.n;
    sim_preset_names_free(&l);
    return n;
}

int sim_preset_list(const char *const *dirs, FILE *out)
{
    struct sim_preset_names l;
    sim_preset_collect(dirs, &l);
    size_t w = 0;
    for (size_t i = 0; i < l.n; i++)
        if (strlen(l.v[i]) > w)
            w = strlen(l.v[i]);
    for (size_t i = 0; i < l.n; i++) {
        char path[4096], desc[512];
        if (!sim_preset_find_file(l.v[i], dirs, path, sizeof path))
            continue;
        sim_preset_file_description(path, desc, sizeof desc);
        fprintf(out, "%-*s  %s\n", (int)w, l.v[i], desc);
    }
    int n = (int)l.n;
    sim_preset_names_free(&l);
    return n;
}

/* ------------------------------------------------------------------------------------------ */
/* Describe: parameters and the note's expected figures                                       */

/* "200 GB (186.3 GiB)", or binary first when that is exact: "16 KiB (16.38 kB)". */
static void sim_preset_fmt_bytes(double b, char *buf, size_t len)
{
    static const char *const si[] = {"B", "kB", "MB", "GB", "TB", "PB"};
    static const char *const bin[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
    double d = b, q = b;
    unsigned i = 0, j = 0;
    while (d >= 1000.0 && i + 1 < 6) {
        d /= 1000.0;
        i++;
    }
    while (q >= 1024.0 && j + 1 < 6) {
        q /= 1024.0;
        j++;
    }
    if (j == 0)
        snprintf(buf, len, "%.0f B", b);
    else if (q == floor(q) && d != floor(d))
        snprintf(buf, len, "%.4g %s (%.4g %s)", q, bin[j], d, si[i]);
    else
        snprintf(buf, len, "%.4g %s (%.4g %s)", d, si[i], q, bin[j]);
}

/* "11.9K", "1.2M" */
static void sim_preset_fmt_iops(double v, char *buf, size_t len)
{
    if (v >= 1e6)
        snprintf(buf, len, "%.3gM", v / 1e6);
    else if (v >= 1e3)
        snprintf(buf, len, "%.3gK", v / 1e3);
    else
        snprintf(buf, len, "%.3g", v);
}

struct sim_preset_bound {
    double v;
    const char *why;
};

static void sim_preset_min(struct sim_preset_bound *b, double v, const char *why)
{
    if (v > 0 && isfinite(v) && (b->v <= 0 || v < b->v)) {
        b->v = v;
        b->why = why;
    }
}

/* Stored fraction of a 4 KiB unit for data of compressibility pct (note §5.7). */
static double sim_preset_stored_fraction(const struct sim_params *p, unsigned pct)
{
    if (!p->durawrite)
        return 1.0;
    double ns = ceil(8.0 * (100.0 - pct) / 100.0);
    if (ns < 1)
        ns = 1;
    return ns / 8.0 + p->meta_pct / 100.0;     /* 90 %: 0.125 + 0.016 = 0.14 [TH-60] */
}

struct sim_preset_derived {
    unsigned dies;
    double units_per_prog;      /* u: 4 KiB units per multi-plane program */
    double units_per_eblk;      /* U_blk: 4 KiB units erased per die */
    double line_bytes, raw_ctl, raw;
    /* scaled geometry at k */
    uint32_t ppb_s;
    uint64_t lines_s;
    bool rule_met;
    double line_bytes_s, t_erase_s;
    uint64_t pool_lines;
    double pool_frac;
    double usable_ctl, user_ctl;
    bool user_from_op;
    double rho, wa;
    double cw4, cr4;
};

static void sim_preset_derive(const struct sim_params *p, struct sim_preset_derived *d)
{
    memset(d, 0, sizeof *d);
    d->dies = p->channels * p->dies_per_channel;
    d->units_per_prog = (double)p->planes * p->page_bytes / SP_UNIT;
    d->units_per_eblk = (double)p->planes * p->pages_per_block * p->page_bytes / SP_UNIT;
    d->line_bytes = (double)d->dies * p->planes * p->pages_per_block * p->page_bytes;
    d->raw_ctl = d->line_bytes * p->blocks_per_plane;
    d->raw = d->raw_ctl * (p->n_ctl ? p->n_ctl : 1);

    unsigned k = p->k ? p->k : 1;
    uint64_t pages_s = (uint64_t)p->blocks_per_plane * p->pages_per_block / k;
    d->ppb_s = p->pages_per_block;
    d->lines_s = d->ppb_s ? pages_s / d->ppb_s : 0;
    while (d->lines_s < SP_MIN_LINES && d->ppb_s > SP_MIN_PPB) {
        d->ppb_s /= 2;
        d->lines_s = pages_s / d->ppb_s;
    }
    d->rule_met = d->lines_s >= SP_MIN_LINES;
    d->line_bytes_s = (double)d->dies * p->planes * d->ppb_s * p->page_bytes;
    d->t_erase_s = p->pages_per_block ? p->t_erase_us * d->ppb_s / p->pages_per_block : 0;

    uint64_t pool = (uint64_t)ceil(p->fg_lines_pct / 100.0 * (double)d->lines_s - 1e-9);
    if (pool < p->fg_lines_min)
        pool = p->fg_lines_min;
    pool += SIM_POOL_EXTRA_LINES;   /* as the model counts T (sim.h) */
    d->pool_lines = pool;
    d->pool_frac = d->lines_s ? (double)pool / (double)d->lines_s : 0;

    d->usable_ctl = d->raw_ctl * (1.0 - p->reserve_pct / 100.0 - d->pool_frac);
    if (p->user_bytes) {
        d->user_ctl = (double)p->user_bytes;
    } else if (p->op_pct > 0) {
        d->user_ctl = d->usable_ctl / (1.0 + p->op_pct / 100.0);
        d->user_from_op = true;
    }
    if (d->user_ctl > 0 && d->usable_ctl > d->user_ctl) {
        d->rho = d->usable_ctl / d->user_ctl - 1.0;
        d->wa = sim_wa_oracle(d->rho);
    }
    d->cw4 = p->c_cmd_us + p->c_w_us + 4.0 * p->c_w_us_per_kib;
    d->cr4 = p->c_cmd_us + p->c_r_us + 4.0 * p->c_r_us_per_kib + p->c_r_page_us;   /* one superpage */
}

/* Steady-state (or, with fob, fresh) 4 KiB random-write IOPS of one controller for data whose
 * stored fraction is c. Returns 0 when the spare factor leaves no room. */
static struct sim_preset_bound sim_preset_write_iops_ctl(const struct sim_params *p,
                                                         const struct sim_preset_derived *d,
                                                         double c, bool fob, double *wa_out)
{
    struct sim_preset_bound b = {0, "none"};
    double a = 1.0;
    if (!fob) {
        if (d->user_ctl <= 0 || d->usable_ctl <= c * d->user_ctl)
            return b;
        a = sim_wa_oracle(d->usable_ctl / (c * d->user_ctl) - 1.0);
    }
    if (wa_out)
        *wa_out = a;
    double n = p->fw_cores ? p->fw_cores : 1;
    /* per host unit: a - 1 relocated units, a victim's superpage holding (a - 1) / a of its
     * units (units_per_prog / c of them) valid, so a / (units_per_prog / c) superpages read */
    const double gc_sp = a * c / d->units_per_prog * p->c_gc_sp_us;
    sim_preset_min(&b, n / ((d->cw4 + (a - 1.0) * c * p->c_gc_us + (fob ? 0 : gc_sp)) * 1e-6),
                   "firmware");
    double nand_us = c * a * p->t_prog_us / d->units_per_prog;
    if (!fob)
        nand_us += (a - 1.0) * c * p->t_read_us / d->units_per_prog
                   + c * a * p->t_erase_us / d->units_per_eblk;
    sim_preset_min(&b, d->dies / (nand_us * 1e-6),
                   fob ? "NAND program" : "NAND program+relocation+erase");
    if (p->wpipe_mb_s > 0)   /* host and relocated data alike, as stored (compressed) */
        sim_preset_min(&b, p->wpipe_mb_s * 1e6 / (SP_UNIT * c * a), "write datapath");
    return b;
}

/* Card total: n_ctl controllers, capped by the host link. */
static struct sim_preset_bound sim_preset_card(const struct sim_params *p,
                                                struct sim_preset_bound ctl)
{
    struct sim_preset_bound b = {0, "none"};
    if (ctl.v <= 0)
        return b;
    sim_preset_min(&b, ctl.v * (p->n_ctl ? p->n_ctl : 1), ctl.why);
    sim_preset_min(&b, p->link_mb_s * 1e6 / SP_UNIT, "host link");
    return b;
}

/* Card at queue depth qd: stripe = random assignment, vca = join-shortest-queue (note §4). */
static double sim_preset_at_qd(const struct sim_params *p, double card, unsigned qd)
{
    double n = p->n_ctl ? p->n_ctl : 1;
    if (p->dispatch == SIM_DISPATCH_VCA)
        return card * (qd < n ? qd / n : 1.0);
    return card * qd / (qd + n - 1.0);
}

static void sim_preset_linef(FILE *out, const char *key, double v, const char *comment)
{
    char val[64];
    snprintf(val, sizeof val, "%.15g", v);
    keys_print_line(out, key, val, comment);
}

/* A size parameter's value for people, before its help. */
static void sim_preset_note(const struct key_row *r, const void *obj, char *buf, size_t len)
{
    char v[32];
    keys_row_value(r, obj, v, sizeof v);
    if (r->type == KEY_SIZE && strcmp(v, "0"))
        sim_preset_fmt_bytes(strtod(v, NULL), buf, len);
}

/* Geometry and capacity at full size. */
static void sim_describe_capacity(FILE *out, const struct sim_params *p,
                                  const struct sim_preset_derived *d)
{
    char c[512], h1[64];
    unsigned n = p->n_ctl ? p->n_ctl : 1;
    snprintf(c, sizeof c, "expected (formula): %u channels x %u dies", p->channels,
             p->dies_per_channel);
    sim_preset_linef(out, "dies_per_ctl", d->dies, c);
    snprintf(c, sizeof c, "4 KiB units per multi-plane program (%u planes x %u B)", p->planes,
             p->page_bytes);
    sim_preset_linef(out, "units_per_program", d->units_per_prog, c);
    snprintf(c, sizeof c, "4 KiB units per erase block per die (%u planes x %u pages)",
             p->planes, p->pages_per_block);
    sim_preset_linef(out, "units_per_erase_block", d->units_per_eblk, c);
    sim_preset_fmt_bytes(d->line_bytes, h1, sizeof h1);
    snprintf(c, sizeof c, "%s: one block of every plane of every die", h1);
    sim_preset_linef(out, "line_bytes", d->line_bytes, c);
    sim_preset_linef(out, "lines_per_ctl", p->blocks_per_plane, "= blocks_per_plane");
    sim_preset_fmt_bytes(d->raw_ctl, h1, sizeof h1);
    snprintf(c, sizeof c, "expected (formula): %s", h1);
    sim_preset_linef(out, "raw_bytes_per_ctl", d->raw_ctl, c);
    sim_preset_fmt_bytes(d->raw, h1, sizeof h1);
    snprintf(c, sizeof c, "expected (formula): %s over %u controller(s)", h1, n);
    sim_preset_linef(out, "raw_bytes_total", d->raw, c);
    snprintf(c, sizeof c, "lines kept free at k (foreground-GC trigger max(%u, %.15g %% of %llu "
             "lines), + %d for open lines) = %.3g %% of raw", p->fg_lines_min, p->fg_lines_pct,
             (unsigned long long)d->lines_s, SIM_POOL_EXTRA_LINES, 100.0 * d->pool_frac);
    sim_preset_linef(out, "free_line_pool", (double)d->pool_lines, c);
    sim_preset_fmt_bytes(d->usable_ctl, h1, sizeof h1);
    snprintf(c, sizeof c, "expected (formula): %s = raw - reserve %.15g %% - free-line pool", h1,
             p->reserve_pct);
    sim_preset_linef(out, "usable_bytes_per_ctl", floor(d->usable_ctl), c);
    if (d->user_ctl > 0) {
        sim_preset_fmt_bytes(d->user_ctl, h1, sizeof h1);
        if (d->user_from_op)
            snprintf(c, sizeof c, "expected (formula): %s = usable / (1 + op %.15g %%)", h1,
                     p->op_pct);
        else
            snprintf(c, sizeof c, "%s from user_bytes%s", h1,
                     p->op_pct > 0 ? " (op_pct is ignored while user_bytes is set)" : "");
        sim_preset_linef(out, "user_bytes_per_ctl", floor(d->user_ctl), c);
        sim_preset_fmt_bytes(d->user_ctl * n, h1, sizeof h1);
        snprintf(c, sizeof c, "expected (formula): %s nominal, what reports show", h1);
        sim_preset_linef(out, "user_bytes_total", floor(d->user_ctl * n), c);
    } else {
        keys_print_line(out, "user_bytes_per_ctl", "0", "undefined: set user_bytes or op_pct > 0");
    }
    if (d->rho > 0) {
        snprintf(c, sizeof c, "expected (formula): rho_eff = usable / user - 1 (%.3g %% of "
                 "physical)", 100.0 * d->rho / (1.0 + d->rho));
        sim_preset_linef(out, "rho_eff", round(d->rho * 1e4) / 1e4, c);
        sim_preset_linef(out, "wa_oracle", round(d->wa * 1e3) / 1e3,
                 "expected (formula): sim_wa_oracle(rho_eff), greedy/FIFO, uniform random");
    } else {
        keys_print_line(out, "rho_eff", "0",
                        "no spare space (user >= usable): write amplification is unbounded");
    }
}

/* 4 KiB random writes: fresh (FOB) and steady state, at full size; *fob_out, *ss_out: the
 * card's figures. */
static void sim_describe_writes(FILE *out, const struct sim_params *p,
                                const struct sim_preset_derived *d, double *fob_out,
                                double *ss_out)
{
    char c[512], h1[64], h2[64];
    unsigned n = p->n_ctl ? p->n_ctl : 1;
    double wa0 = 1.0;
    double c0 = sim_preset_stored_fraction(p, 0);
    if (p->durawrite) {
        snprintf(c, sizeof c, "DuraWrite: stored / host for incompressible data (8 sectors + "
                 "metadata %.15g %% of a unit)", p->meta_pct);
        sim_preset_linef(out, "stored_fraction_0pct", c0, c);
    }
    struct sim_preset_bound fob_ctl = sim_preset_write_iops_ctl(p, d, c0, true, NULL);
    struct sim_preset_bound fob = sim_preset_card(p, fob_ctl);
    sim_preset_fmt_iops(fob.v, h1, sizeof h1);
    sim_preset_fmt_iops(fob_ctl.v, h2, sizeof h2);
    snprintf(c, sizeof c, "expected (formula): %s FOB (%s per controller), bound: %s", h1, h2,
             fob.why);
    sim_preset_linef(out, "fob_4k_randwrite_iops", round(fob.v), c);
    if (p->durawrite) {   /* the datapath carries stored data: compressible data passes it */
        const double c100 = sim_preset_stored_fraction(p, 100);
        struct sim_preset_bound fc = sim_preset_card(p, sim_preset_write_iops_ctl(p, d, c100,
                                                                                  true, NULL));
        sim_preset_fmt_iops(fc.v, h1, sizeof h1);
        snprintf(c, sizeof c, "expected (formula): %s FOB with fully compressible data (what "
                 "SandForce specifications quote), bound: %s", h1, fc.why);
        sim_preset_linef(out, "fob_4k_randwrite_iops_compressible", round(fc.v), c);
    }
    struct sim_preset_bound ss_ctl = sim_preset_write_iops_ctl(p, d, c0, false, &wa0);
    struct sim_preset_bound ss = sim_preset_card(p, ss_ctl);
    if (p->durawrite && ss.v > 0) {
        snprintf(c, sizeof c, "expected (formula): oracle WA for incompressible data, rho = "
                 "usable / (%.4g x user) - 1", c0);
        sim_preset_linef(out, "wa_oracle_0pct", round(wa0 * 1e3) / 1e3, c);
    }
    if (ss.v > 0) {
        sim_preset_fmt_iops(ss.v, h1, sizeof h1);
        sim_preset_fmt_iops(ss_ctl.v, h2, sizeof h2);
        snprintf(c, sizeof c, "expected (formula): %s steady state%s (%s per controller), "
                 "bound: %s", h1, n > 1 ? ", all controllers busy" : "", h2, ss.why);
        sim_preset_linef(out, "ss_4k_randwrite_iops", round(ss.v), c);
    } else {
        keys_print_line(out, "ss_4k_randwrite_iops", "0", "undefined: no spare space");
    }
    *fob_out = fob.v;
    *ss_out = ss.v;
}

/* A card of several controllers at QD32 and QD128 (note §4). */
static void sim_describe_at_qd(FILE *out, const struct sim_params *p, double fob, double ss)
{
    char c[512], h1[64];
    unsigned n = p->n_ctl ? p->n_ctl : 1;
    if (n > 1) {
        const char *how = p->dispatch == SIM_DISPATCH_VCA
                              ? "vca, join-shortest-queue: X1 x min(QD, N)"
                              : "stripe, random assignment: N X1 QD / (QD + N - 1)";
        static const unsigned qds[] = {32, 128};
        for (size_t i = 0; i < 2; i++) {
            char key[64];
            snprintf(key, sizeof key, "fob_4k_randwrite_iops_qd%u", qds[i]);
            double v = sim_preset_at_qd(p, fob, qds[i]);
            sim_preset_fmt_iops(v, h1, sizeof h1);
            snprintf(c, sizeof c, "expected (formula): %s at QD%u (%s)", h1, qds[i], how);
            sim_preset_linef(out, key, round(v), c);
        }
        for (size_t i = 0; i < 2 && ss > 0; i++) {
            char key[64];
            snprintf(key, sizeof key, "ss_4k_randwrite_iops_qd%u", qds[i]);
            double v = sim_preset_at_qd(p, ss, qds[i]);
            sim_preset_fmt_iops(v, h1, sizeof h1);
            snprintf(c, sizeof c, "expected (formula): %s at QD%u (%s)", h1, qds[i], how);
            sim_preset_linef(out, key, round(v), c);
        }
    }
}

/* DuraWrite: steady state with 90 % compressible data. */
static void sim_describe_compressible(FILE *out, const struct sim_params *p,
                                      const struct sim_preset_derived *d)
{
    char c[512], h1[64];
    if (p->durawrite) {
        double c90 = sim_preset_stored_fraction(p, 90), wa90 = 1.0;
        sim_preset_linef(out, "stored_fraction_90pct", c90,
                 "DuraWrite: stored / host for 90 % compressible data (1 sector + metadata)");
        struct sim_preset_bound s90 =
            sim_preset_card(p, sim_preset_write_iops_ctl(p, d, c90, false, &wa90));
        if (s90.v > 0) {
            sim_preset_linef(out, "wa_oracle_90pct", round(wa90 * 1e4) / 1e4,
                     "expected (formula): relocations per host unit + 1 at 90 % compressible");
            sim_preset_fmt_iops(s90.v, h1, sizeof h1);
            snprintf(c, sizeof c, "expected (formula): %s steady state, 90 %% compressible, "
                     "bound: %s", h1, s90.why);
            sim_preset_linef(out, "ss_4k_randwrite_iops_90pct", round(s90.v), c);
        }
    }
}

/* 4 KiB random reads and QD1 latencies. */
static void sim_describe_reads(FILE *out, const struct sim_params *p,
                               const struct sim_preset_derived *d)
{
    char c[512], h1[64], h2[64];
    struct sim_preset_bound rd_ctl = {0, "none"};
    double nf = p->fw_cores ? p->fw_cores : 1;
    sim_preset_min(&rd_ctl, nf / (d->cr4 * 1e-6), "firmware");
    if (p->t_read_us > 0)
        sim_preset_min(&rd_ctl, d->dies / (p->t_read_us * 1e-6), "NAND read (dies / tR)");
    sim_preset_min(&rd_ctl, p->channels * p->channel_mb_s * 1e6 / SP_UNIT,
                   "channel transfer");
    struct sim_preset_bound rd = sim_preset_card(p, rd_ctl);
    sim_preset_fmt_iops(rd.v, h1, sizeof h1);
    sim_preset_fmt_iops(rd_ctl.v, h2, sizeof h2);
    snprintf(c, sizeof c, "expected (formula): %s mapped-data cap (%s per controller), bound: %s",
             h1, h2, rd.why);
    sim_preset_linef(out, "randread_4k_iops_cap", round(rd.v), c);

    double link_us = SP_UNIT / p->link_mb_s;    /* bytes / (MB/s) = us */
    double xfer_us = SP_UNIT / p->channel_mb_s;
    double rlat = p->d_card_us + d->cr4 + p->d_r_us + p->t_read_us + xfer_us + link_us;
    snprintf(c, sizeof c, "expected (formula): d_card + c_cmd + c_r(4K) + d_r + tR + channel "
             "%.3g + link %.3g us = %.3gK IOPS at QD1", xfer_us, link_us, 1e3 / rlat);
    sim_preset_linef(out, "read_4k_qd1_latency_us", round(rlat * 100) / 100, c);
    double wpipe_us = p->wpipe_mb_s > 0 ? SP_UNIT / p->wpipe_mb_s : 0;
    double wlat = p->d_card_us + link_us + p->d_w_us + d->cw4 + wpipe_us;
    sim_preset_linef(out, "write_4k_qd1_latency_us", round(wlat * 100) / 100,
             "expected (formula): d_card + link + d_w + c_cmd + c_w(4K) + datapath (early ack)");
}

/* Controller pauses (sim.h: not dilated). */
static void sim_describe_pauses(FILE *out, const struct sim_params *p)
{
    char c[512];
    unsigned n = p->n_ctl ? p->n_ctl : 1;
    if (p->pause_ms > 0) {
        double card_s = p->pause_period_ms / 1e3 / n;
        snprintf(c, sizeof c, "expected (formula): a %.15g ms pause about every %.3g s per "
                 "controller: one every %.3g s on the card, %.2g %% of its time",
                 p->pause_ms, p->pause_period_ms / 1e3, card_s, 100.0 * p->pause_ms * n /
                 p->pause_period_ms);
        sim_preset_linef(out, "pause_every_s_card", round(card_s * 1000) / 1000, c);
    }
    if (p->flush_every_mb > 0 && p->flush_ms > 0) {
        snprintf(c, sizeof c, "expected (formula): a %.15g ms flush per %.15g MB stored per "
                 "controller: %.3g %% of the time of a card writing incompressible data at 1 "
                 "GB/s", p->flush_ms, p->flush_every_mb,
                 100.0 * p->flush_ms / 1e3 * (1e3 / p->flush_every_mb));
        sim_preset_linef(out, "flush_ms_per_gb", round(p->flush_ms * 1e3 / p->flush_every_mb * 100) / 100, c);
    }
}

/* The geometry scaled at k (note §5.9). */
static void sim_describe_scaled(FILE *out, const struct sim_params *p,
                                const struct sim_preset_derived *d)
{
    char c[512], h1[64], h3[64];
    unsigned n = p->n_ctl ? p->n_ctl : 1;
    fprintf(out, "; scaled at k = %u (note §5.9): capacity / k, every device duration x k, "
            "each completion weighs k\n", p->k);
    sim_preset_linef(out, "scaled_pages_per_block", d->ppb_s,
             "halved from pages_per_block (down to 8) until >= 256 lines");
    snprintf(c, sizeof c, "%s", d->rule_met ? "geometry rule met (>= 256 lines)"
                                           : "geometry rule NOT met: fewer than 256 lines even "
                                             "at 8 pages/block; lower k");
    sim_preset_linef(out, "scaled_lines_per_ctl", (double)d->lines_s, c);
    sim_preset_fmt_bytes(d->line_bytes_s, h1, sizeof h1);
    snprintf(c, sizeof c, "%s = %.15g units", h1, d->line_bytes_s / SP_UNIT);
    sim_preset_linef(out, "scaled_line_bytes", d->line_bytes_s, c);
    sim_preset_fmt_bytes(d->line_bytes_s * (double)d->lines_s, h1, sizeof h1);
    sim_preset_linef(out, "scaled_raw_bytes_per_ctl", d->line_bytes_s * (double)d->lines_s, h1);
    if (d->user_ctl > 0) {
        sim_preset_fmt_bytes(d->user_ctl * n / p->k, h3, sizeof h3);
        snprintf(c, sizeof c, "%s: the address space the harness uses", h3);
        sim_preset_linef(out, "scaled_user_bytes", floor(d->user_ctl * n / p->k), c);
    }
    snprintf(c, sizeof c, "t_erase x %u/%u (erase cost per byte unchanged), then x k in virtual "
             "time", d->ppb_s, p->pages_per_block);
    sim_preset_linef(out, "scaled_t_erase_us", d->t_erase_s, c);
}

void sim_params_describe(const struct sim_params *p, FILE *out)
{
    struct sim_preset_derived d;
    sim_preset_derive(p, &d);
    fprintf(out, "; sim preset %s: every parameter (a valid preset: keys as in "
            "profiles/devices/*.ini)\n", p->name[0] ? p->name : "(unnamed)");
    fputs("; values are for the full-size drive; sim_open applies k\n[device]\n", out);
    keys_print_values(out, &sim_preset_table, p, sim_preset_note);

    fputs("\n; derived figures: expected (formula), from the design note §3/§5.9/§6 closed forms;"
          "\n; not measured, and not the model's output (run the drive to see that)\n"
          "[expected]\n", out);
    sim_describe_capacity(out, p, &d);
    double fob, ss;
    sim_describe_writes(out, p, &d, &fob, &ss);
    sim_describe_at_qd(out, p, fob, ss);
    sim_describe_compressible(out, p, &d);
    sim_describe_reads(out, p, &d);
    sim_describe_pauses(out, p);
    sim_describe_scaled(out, p, &d);
}
