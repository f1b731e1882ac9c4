/* test_purge.c — purge_plan_make on synthetic facts (every transport x method), method names,
 * the ATA choice on captured hdparm text (`hdparm -h`, `hdparm -I`, `hdparm --sanitize-status`:
 * enhanced or normal security erase, frozen and locked drives, which SANITIZE action; only the
 * argument vectors are built and checked, nothing is run), purge_facts_collect on files,
 * simulated drives and block devices, and purge_execute (with what it records in plan.ran) on
 * a simulated drive, a regular file under /var/tmp, a loop device over a file of our own and
 * a zram device of our own (root only, skipped with a reason when zram is unavailable). The
 * synthetic facts name /dev/zram5, a path nothing opens. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/loop.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "helpers.h"
#include "device/purge.h"
#include "sim/sim.h"
#include "device/target.h"
#include "lib/util.h"

/* ---- synthetic facts ------------------------------------------------------------------ */

/* SCSI format: no 15 s countdown (--quick), back once started (--early), then TEST UNIT READY
 * polled (not sg_format's fixed 60 s sleep before its first poll) */
#define SG_FORMAT_SDB                                                                      \
    "sg_format --format --quick --early /dev/sdb; sg_turs /dev/sdb (polled until ready)"

/* T_ALL: every tool, with an hdparm too old for --sanitize-* (T_HDSAN adds them; T_OWP adds
 * --sanitize-overwrite-passes). */
enum { T_NVME = 1, T_HDPARM = 2, T_SG = 4, T_ALL = 7, T_HDSAN = 8, T_OWP = 16 };

static struct purge_facts pf(enum purge_transport tr, bool discard, int tools, const char *dev)
{
    struct purge_facts f;
    memset(&f, 0, sizeof(f));
    f.transport = tr;
    f.supports_discard = discard;
    f.have_nvme_cli = tools & T_NVME;
    f.have_hdparm = tools & T_HDPARM;
    f.have_sg_format = tools & T_SG;
    f.have_sg_turs = tools & T_SG;
    f.hdparm_sanitize = tools & T_HDSAN;
    f.hdparm_ow_passes = tools & T_OWP;
    snprintf(f.devpath, sizeof(f.devpath), "%s", dev);
    return f;
}

static void plan_ok(const struct purge_facts *f, enum purge_method req, struct purge_plan *p)
{
    char err[512] = "";
    if (purge_plan_make(f, req, p, err, sizeof(err)) != 0)
        fail_msg("purge_plan_make(%s on %s) failed: %s", purge_method_name(req), f->devpath,
                 err);
    assert_int_not_equal(p->method, PURGE_AUTO);
    assert_true(p->reason[0] != '\0');
    assert_true(p->argv_text[0] != '\0');
    assert_string_equal(p->ran, "");          /* only purge_execute says what ran */
}

static void plan_fails(const struct purge_facts *f, enum purge_method req, char *err,
                       size_t len)
{
    struct purge_plan p;
    err[0] = '\0';
    assert_int_equal(purge_plan_make(f, req, &p, err, len), -1);
    printf("  %-12s %-14s -> %s\n", purge_method_name(req), f->devpath, err);
    assert_non_null(strstr(err, purge_method_name(req)));
    assert_non_null(strstr(err, f->devpath));
}

static void has(const char *text, const char *needle)
{
    if (!strstr(text, needle))
        fail_msg("\"%s\" does not contain \"%s\"", text, needle);
}

/* ---- the lab's findings (tests/vmlab/purge-*.sh), on captured identify data ------------- */

static char *fixture(const char *name)
{
    char path[512];
    snprintf(path, sizeof(path), "purge/%s", name);
    char *buf = slurp_file(test_fixture_path(path), NULL);
    if (!buf)
        fail_msg("cannot open fixture %s (set PTSBENCH_DATADIR to the source tree)", name);
    return buf;
}

/* NVMe format names the namespace by its node and its id (the controller formats that one). */
static void test_nvme_format_names_namespace(void **state)
{
    (void)state;
    struct purge_facts f = pf(PURGE_T_NVME, true, T_ALL, "/dev/nvme0n2");
    f.nsid = 2;
    struct purge_plan p;
    plan_ok(&f, PURGE_FORMAT, &p);
    assert_string_equal(p.argv_text, "nvme format /dev/nvme0n2 --namespace-id=2 --ses=1 --force");
}

/* QEMU 7.2's id-ctrl through nvme-cli 2.3: SANICAP 0 (no Sanitize), FNA 0. */
static void test_nvme_id_parse(void **state)
{
    (void)state;
    char *json = fixture("nvme-cli-2.3-id-ctrl-qemu-7.2.json");
    int sanicap = -1, fna = -1;
    assert_int_equal(purge_nvme_id_parse(json, &sanicap, &fna), 0);
    assert_int_equal(sanicap, 0);
    assert_int_equal(fna, 0);
    free(json);
    assert_int_equal(purge_nvme_id_parse("{\"sanicap\":3,\"fna\":5}", &sanicap, &fna), 0);
    assert_int_equal(sanicap, 3);
    assert_int_equal(fna, 5);
    assert_int_equal(purge_nvme_id_parse("{\"fna\":5}", &sanicap, &fna), -1);
    assert_int_equal(purge_nvme_id_parse("not json", &sanicap, &fna), -1);
    assert_int_equal(purge_nvme_id_parse(NULL, &sanicap, &fna), -1);
}

/* Sanitize is planned only with an action SANICAP lists: block erase, else crypto erase; with
 * neither it is refused before anything is written (the old plan issued `nvme sanitize` and
 * failed with "Invalid Command Opcode" after the run had started). */
static void test_nvme_sanitize_from_sanicap(void **state)
{
    (void)state;
    struct purge_facts f = pf(PURGE_T_NVME, true, T_ALL, "/dev/nvme0n2");
    f.have_nvme_id = true;
    char err[512];
    plan_fails(&f, PURGE_SANITIZE, err, sizeof(err));
    has(err, "SANICAP 0x0");
    has(err, "no Sanitize command at all");
    struct purge_plan p;
    f.nvme_sanicap = 0x1;   /* crypto erase only */
    plan_ok(&f, PURGE_SANITIZE, &p);
    has(p.argv_text, "nvme sanitize /dev/nvme0n2 --sanact=4;");
    f.nvme_sanicap = 0x7;
    plan_ok(&f, PURGE_SANITIZE, &p);
    has(p.argv_text, "nvme sanitize /dev/nvme0n2 --sanact=2;");
    f.nvme_sanicap = 0x4;   /* overwrite only */
    plan_fails(&f, PURGE_SANITIZE, err, sizeof(err));
    has(err, "SANICAP 0x4");
}

/* A format whose secure erase reaches every namespace (FNA) is refused on a controller with
 * others; auto then falls back to discard and says why. */
static void test_nvme_format_fna(void **state)
{
    (void)state;
    struct purge_facts f = pf(PURGE_T_NVME, true, T_ALL, "/dev/nvme0n2");
    f.have_nvme_id = true;
    f.nvme_fna = 0x2;
    f.nvme_namespaces = 2;
    char err[512];
    plan_fails(&f, PURGE_FORMAT, err, sizeof(err));
    has(err, "all 2 namespaces");
    struct purge_plan p;
    plan_ok(&f, PURGE_AUTO, &p);
    assert_int_equal(p.method, PURGE_DISCARD);
    has(p.reason, "FNA 0x2");
    f.nvme_namespaces = 1;
    plan_ok(&f, PURGE_FORMAT, &p);
    f.nvme_fna = 0x4;   /* crypto erase supported: says nothing about scope */
    f.nvme_namespaces = 2;
    plan_ok(&f, PURGE_FORMAT, &p);
}

/* A file holding text at dir/rel, its directories made. */
static void put_file(const char *dir, const char *rel, const char *text)
{
    char p[PATH_MAX];
    snprintf(p, sizeof(p), "%s/%s", dir, rel);
    for (char *s = strchr(p + strlen(dir) + 1, '/'); s; s = strchr(s + 1, '/')) {
        *s = '\0';
        mkdir(p, 0755);
        *s = '/';
    }
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* Namespaces counted in a fake controller directory: block nodes with nsid, not ng nodes. */
static void test_nvme_namespaces_counted(void **state)
{
    (void)state;
    char *dir = make_temp_dir("purge-ns");
    static const char *const files[] = {"nvme0n1/nsid", "nvme0n1/queue/x", "nvme0n2/nsid",
                                        "nvme0n2/queue/x", "ng0n1/nsid", "ng0n2/nsid",
                                        "hwmon0/name", NULL};
    for (int i = 0; files[i]; i++)
        put_file(dir, files[i], "1\n");
    char disk[PATH_MAX];
    snprintf(disk, sizeof(disk), "%s/nvme0n2", dir);
    assert_int_equal(purge_nvme_namespaces(disk), 2);
    snprintf(disk, sizeof(disk), "%s/missing/nvme0n1", dir);
    assert_int_equal(purge_nvme_namespaces(disk), 0);
    remove_tree(dir);
    free(dir);
}

/* QEMU 7.2's ATA disk: no security feature set, no SANITIZE (hdparm 9.65 -I, captured in the
 * lab). Secure erase and sanitize are refused by the plan, before anything is written (the old
 * plan accepted both and failed after the run had started); auto falls back to discard. */
static void test_ata_qemu_refused_up_front(void **state)
{
    (void)state;
    char *text = fixture("hdparm-9.65-I-qemu-7.2-harddisk.txt");
    struct purge_facts f = pf(PURGE_T_ATA, true, T_ALL | T_HDSAN, "/dev/sdc");
    purge_ata_id_parse(text, &f.ata_id);
    free(text);
    assert_false(f.ata_id.security);
    assert_false(f.ata_id.sanitize);
    f.have_ata_id = true;
    char err[512];
    plan_fails(&f, PURGE_SECURE_ERASE, err, sizeof(err));
    has(err, "no ATA security feature set");
    plan_fails(&f, PURGE_SANITIZE, err, sizeof(err));
    has(err, "does not list the SANITIZE feature set");
    struct purge_plan p;
    plan_ok(&f, PURGE_AUTO, &p);
    assert_int_equal(p.method, PURGE_DISCARD);
    has(p.reason, "security");
}

/* hdparm exits 0 when the drive aborts a security command: the state read back decides. */
static void test_ata_check_step(void **state)
{
    (void)state;
    static const char *const enabled = "ATA device\nSecurity:\n\tMaster password revision "
                                       "code = 65534\n\t\tsupported\n\t\tenabled\n\tnot\tlocked"
                                       "\n\tnot\tfrozen\n";
    static const char *const disabled = "ATA device\nSecurity:\n\t\tsupported\n\tnot\tenabled"
                                        "\n\tnot\tlocked\n\tnot\tfrozen\n";
    struct purge_ata_id on, off, none;
    purge_ata_id_parse(enabled, &on);
    purge_ata_id_parse(disabled, &off);
    purge_ata_id_parse("ATA device\n", &none);
    char err[512];
    assert_int_equal(purge_ata_check_step(&on, false, "/dev/sda", err, sizeof(err)), 0);
    assert_int_equal(purge_ata_check_step(&off, false, "/dev/sda", err, sizeof(err)), -1);
    has(err, "did not take the password");
    assert_int_equal(purge_ata_check_step(&off, true, "/dev/sda", err, sizeof(err)), 0);
    assert_int_equal(purge_ata_check_step(&on, true, "/dev/sda", err, sizeof(err)), -1);
    has(err, "aborted or did not finish");
    has(err, "/dev/sda");
    assert_int_equal(purge_ata_check_step(&none, true, "/dev/sda", err, sizeof(err)), -1);
}

/* The samples around a purge: an erasing method fails when a block still holds its data; SCSI
 * format and discard are labelled "not verified erased" whatever the samples show. */
static void test_verify_judge(void **state)
{
    (void)state;
    enum { N = 8 };
    struct purge_sample data[N], zero[N], other[N];
    for (int i = 0; i < N; i++) {
        data[i] = (struct purge_sample){.hash = 100u + (unsigned)i, .zero = false};
        zero[i] = (struct purge_sample){.hash = 7, .zero = true};
        other[i] = (struct purge_sample){.hash = 900u + (unsigned)i, .zero = false};
    }
    struct purge_verify v;
    char err[512] = "";
    assert_int_equal(purge_verify_judge(data, zero, N, true, "format", "/dev/nvme0n2", &v, err,
                                        sizeof(err)), 0);
    assert_true(v.erased);
    assert_int_equal(v.samples, N);
    assert_int_equal(v.zero, N);
    has(v.note, "verified zeroed: 8 of 8");

    assert_int_equal(purge_verify_judge(data, other, N, true, "format", "/dev/nvme0n2", &v, err,
                                        sizeof(err)), 0);
    assert_true(v.erased);
    has(v.note, "verified erased");

    struct purge_sample half[N];
    memcpy(half, zero, sizeof(half));
    half[3] = data[3];
    assert_int_equal(purge_verify_judge(data, half, N, true, "format", "/dev/nvme0n2", &v, err,
                                        sizeof(err)), -1);
    assert_false(v.erased);
    assert_int_equal(v.unchanged, 1);
    has(err, "/dev/nvme0n2");
    has(err, "1 of 8");

    assert_int_equal(purge_verify_judge(data, data, N, false, "SCSI format unit", "/dev/sdb",
                                        &v, err, sizeof(err)), 0);
    assert_false(v.erased);
    assert_int_equal(v.unchanged, N);
    has(v.note, "not verified erased: SCSI format unit need not erase");
    has(v.note, "8 still hold their data");
    assert_int_equal(purge_verify_judge(data, zero, N, false, "discard", "/dev/sdb", &v, err,
                                        sizeof(err)), 0);
    assert_false(v.erased);
    has(v.note, "8 of 8 sampled 4 KiB blocks read zero");
}

/* ---- names ---------------------------------------------------------------------------- */

static void test_method_names(void **state)
{
    (void)state;
    static const char *const names[] = {"auto", "secure-erase", "format", "sanitize",
                                        "discard", "none"};
    for (int i = 0; i < 6; i++) {
        enum purge_method m;
        assert_int_equal(purge_method_parse(names[i], &m), 0);
        assert_int_equal((int)m, i);
        assert_string_equal(purge_method_name(m), names[i]);
    }
    enum purge_method m = PURGE_NONE;
    assert_int_equal(purge_method_parse("erase", &m), -1);
    assert_int_equal(purge_method_parse("", &m), -1);
    assert_int_equal(purge_method_parse("FORMAT", &m), -1);
    assert_int_equal(purge_method_parse(NULL, &m), -1);
    assert_int_equal(m, PURGE_NONE);
    assert_string_equal(purge_method_name((enum purge_method)42), "unknown");
}

/* ---- auto ----------------------------------------------------------------------------- */

static void test_auto(void **state)
{
    (void)state;
    struct purge_plan p;
    struct purge_facts f;

    f = pf(PURGE_T_SIM, true, 0, "sim:default");
    plan_ok(&f, PURGE_AUTO, &p);
    assert_int_equal(p.method, PURGE_SECURE_ERASE);
    assert_true(p.compliant);
    assert_string_equal(p.argv_text, "simulated secure erase");

    f = pf(PURGE_T_NVME, true, T_ALL, "/dev/nvme0n1");
    plan_ok(&f, PURGE_AUTO, &p);
    assert_int_equal(p.method, PURGE_FORMAT);
    assert_true(p.compliant);
    assert_string_equal(p.argv_text, "nvme format /dev/nvme0n1 --ses=1 --force");

    f = pf(PURGE_T_ATA, true, T_ALL, "/dev/sda");
    plan_ok(&f, PURGE_AUTO, &p);
    assert_int_equal(p.method, PURGE_SECURE_ERASE);
    assert_true(p.compliant);
    has(p.argv_text, "hdparm -I /dev/sda");
    has(p.argv_text, "hdparm --user-master u --security-set-pass ptsbench /dev/sda");
    has(p.argv_text, "hdparm --user-master u --security-erase-enhanced ptsbench /dev/sda");
    has(p.argv_text, "(--security-erase where hdparm -I does not list enhanced erase)");
    /* set the password before erasing */
    assert_true(strstr(p.argv_text, "--security-set-pass") <
                strstr(p.argv_text, "--security-erase"));

    f = pf(PURGE_T_SCSI, true, T_ALL, "/dev/sdb");
    plan_ok(&f, PURGE_AUTO, &p);
    assert_int_equal(p.method, PURGE_FORMAT);
    assert_true(p.compliant);
    assert_string_equal(p.argv_text, SG_FORMAT_SDB);

    f = pf(PURGE_T_FILE, true, 0, "/var/tmp/x.img");
    plan_ok(&f, PURGE_AUTO, &p);
    assert_int_equal(p.method, PURGE_DISCARD);
    assert_false(p.compliant);
    assert_string_equal(p.argv_text, "fallocate PUNCH_HOLE|KEEP_SIZE");

    f = pf(PURGE_T_OTHER_BLOCK, true, T_ALL, "/dev/zram5");
    plan_ok(&f, PURGE_AUTO, &p);
    assert_int_equal(p.method, PURGE_DISCARD);
    assert_false(p.compliant);
    assert_string_equal(p.argv_text, "BLKDISCARD 0..capacity");
    has(p.reason, "/dev/zram5");

    f = pf(PURGE_T_OTHER_BLOCK, false, T_ALL, "/dev/vdb");
    plan_ok(&f, PURGE_AUTO, &p);
    assert_int_equal(p.method, PURGE_NONE);
    assert_false(p.compliant);
    has(p.reason, "/dev/vdb");

    f = pf(PURGE_T_UNKNOWN, false, T_ALL, "/dev/weird");
    plan_ok(&f, PURGE_AUTO, &p);
    assert_int_equal(p.method, PURGE_NONE);
    assert_false(p.compliant);
}

/* auto without the tool: discard when the device can, else none, and the reason says why. */
static void test_auto_fallback_without_tools(void **state)
{
    (void)state;
    static const struct {
        enum purge_transport tr;
        const char *dev, *tool;
        int others;               /* every tool but the one this transport needs */
    } cases[] = {
        {PURGE_T_NVME, "/dev/nvme1n1", "nvme", T_HDPARM | T_SG},
        {PURGE_T_ATA, "/dev/sdc", "hdparm", T_NVME | T_SG},
        {PURGE_T_SCSI, "/dev/sdd", "sg_format", T_NVME | T_HDPARM},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        struct purge_plan p;
        struct purge_facts f = pf(cases[i].tr, true, cases[i].others, cases[i].dev);
        plan_ok(&f, PURGE_AUTO, &p);
        printf("  auto %-14s no %-9s -> %s: %s\n", cases[i].dev, cases[i].tool,
               purge_method_name(p.method), p.reason);
        assert_int_equal(p.method, PURGE_DISCARD);
        assert_false(p.compliant);
        assert_string_equal(p.argv_text, "BLKDISCARD 0..capacity");
        has(p.reason, cases[i].tool);
        has(p.reason, "not in PATH");

        f.supports_discard = false;
        plan_ok(&f, PURGE_AUTO, &p);
        assert_int_equal(p.method, PURGE_NONE);
        assert_false(p.compliant);
        has(p.reason, cases[i].tool);
    }
}

/* ---- every transport x explicit method ------------------------------------------------ */

struct plan_case {
    enum purge_transport tr;
    const char *dev;
    enum purge_method req;
    bool ok;
    enum purge_method method;     /* when ok */
    bool compliant;
    const char *text;             /* exact argv_text when ok; a substring of the error else */
};

static const struct plan_case plan_cases[] = {
    /* simulated: every purge is the model's secure erase; discard is its TRIM */
    {PURGE_T_SIM, "sim:r4", PURGE_SECURE_ERASE, true, PURGE_SECURE_ERASE, true,
     "simulated secure erase"},
    {PURGE_T_SIM, "sim:r4", PURGE_FORMAT, true, PURGE_FORMAT, true, "simulated secure erase"},
    {PURGE_T_SIM, "sim:r4", PURGE_SANITIZE, true, PURGE_SANITIZE, true,
     "simulated secure erase"},
    {PURGE_T_SIM, "sim:r4", PURGE_DISCARD, true, PURGE_DISCARD, false,
     "simulated TRIM 0..capacity"},
    {PURGE_T_SIM, "sim:r4", PURGE_NONE, true, PURGE_NONE, false, "none"},

    /* NVMe */
    {PURGE_T_NVME, "/dev/nvme0n1", PURGE_SECURE_ERASE, false, 0, false,
     "is not ATA (try format or sanitize)"},
    {PURGE_T_NVME, "/dev/nvme0n1", PURGE_FORMAT, true, PURGE_FORMAT, true,
     "nvme format /dev/nvme0n1 --ses=1 --force"},
    {PURGE_T_NVME, "/dev/nvme0n1", PURGE_SANITIZE, true, PURGE_SANITIZE, true,
     "nvme sanitize /dev/nvme0n1 --sanact=2; nvme sanitize-log /dev/nvme0n1 (polled until "
     "done)"},
    {PURGE_T_NVME, "/dev/nvme0n1", PURGE_DISCARD, true, PURGE_DISCARD, false,
     "BLKDISCARD 0..capacity"},
    {PURGE_T_NVME, "/dev/nvme0n1", PURGE_NONE, true, PURGE_NONE, false, "none"},

    /* ATA */
    {PURGE_T_ATA, "/dev/sda", PURGE_SECURE_ERASE, true, PURGE_SECURE_ERASE, true,
     "hdparm -I /dev/sda; hdparm --user-master u --security-set-pass ptsbench /dev/sda; "
     "hdparm --user-master u --security-erase-enhanced ptsbench /dev/sda (--security-erase "
     "where hdparm -I does not list enhanced erase)"},
    {PURGE_T_ATA, "/dev/sda", PURGE_FORMAT, false, 0, false,
     "is neither NVMe nor SCSI (try secure-erase)"},
    {PURGE_T_ATA, "/dev/sda", PURGE_SANITIZE, false, 0, false,
     "is ATA but this hdparm has no --sanitize-* options"},
    {PURGE_T_ATA, "/dev/sda", PURGE_DISCARD, true, PURGE_DISCARD, false,
     "BLKDISCARD 0..capacity"},
    {PURGE_T_ATA, "/dev/sda", PURGE_NONE, true, PURGE_NONE, false, "none"},

    /* SCSI */
    {PURGE_T_SCSI, "/dev/sdb", PURGE_SECURE_ERASE, false, 0, false,
     "is not ATA (try format)"},
    {PURGE_T_SCSI, "/dev/sdb", PURGE_FORMAT, true, PURGE_FORMAT, true,
     SG_FORMAT_SDB},
    {PURGE_T_SCSI, "/dev/sdb", PURGE_SANITIZE, false, 0, false,
     "is neither NVMe nor ATA (try format)"},
    {PURGE_T_SCSI, "/dev/sdb", PURGE_DISCARD, true, PURGE_DISCARD, false,
     "BLKDISCARD 0..capacity"},
    {PURGE_T_SCSI, "/dev/sdb", PURGE_NONE, true, PURGE_NONE, false, "none"},

    /* other block devices (zram, loop, virtio, partitions) */
    {PURGE_T_OTHER_BLOCK, "/dev/zram5", PURGE_SECURE_ERASE, false, 0, false,
     "is not ATA (try discard)"},
    {PURGE_T_OTHER_BLOCK, "/dev/zram5", PURGE_FORMAT, false, 0, false,
     "--purge format: /dev/zram5 is neither NVMe nor SCSI (try discard)"},
    {PURGE_T_OTHER_BLOCK, "/dev/zram5", PURGE_SANITIZE, false, 0, false,
     "is neither NVMe nor ATA (try discard)"},
    {PURGE_T_OTHER_BLOCK, "/dev/zram5", PURGE_DISCARD, true, PURGE_DISCARD, false,
     "BLKDISCARD 0..capacity"},
    {PURGE_T_OTHER_BLOCK, "/dev/zram5", PURGE_NONE, true, PURGE_NONE, false, "none"},

    /* regular files */
    {PURGE_T_FILE, "/var/tmp/t.img", PURGE_SECURE_ERASE, false, 0, false,
     "is a regular file, not a drive (try discard)"},
    {PURGE_T_FILE, "/var/tmp/t.img", PURGE_FORMAT, false, 0, false,
     "is a regular file, not a drive (try discard)"},
    {PURGE_T_FILE, "/var/tmp/t.img", PURGE_SANITIZE, false, 0, false,
     "is a regular file, not a drive (try discard)"},
    {PURGE_T_FILE, "/var/tmp/t.img", PURGE_DISCARD, true, PURGE_DISCARD, false,
     "fallocate PUNCH_HOLE|KEEP_SIZE"},
    {PURGE_T_FILE, "/var/tmp/t.img", PURGE_NONE, true, PURGE_NONE, false, "none"},

    /* unknown */
    {PURGE_T_UNKNOWN, "/dev/what", PURGE_FORMAT, false, 0, false,
     "is neither NVMe nor SCSI (try discard)"},
    {PURGE_T_UNKNOWN, "/dev/what", PURGE_DISCARD, true, PURGE_DISCARD, false,
     "BLKDISCARD 0..capacity"},
};

static void test_every_transport_and_method(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof(plan_cases) / sizeof(plan_cases[0]); i++) {
        const struct plan_case *c = &plan_cases[i];
        struct purge_facts f = pf(c->tr, true, T_ALL, c->dev);
        if (c->ok) {
            struct purge_plan p;
            plan_ok(&f, c->req, &p);
            if (p.method != c->method || p.compliant != c->compliant ||
                strcmp(p.argv_text, c->text) != 0)
                fail_msg("case %zu (%s on %s): got %s compliant=%d \"%s\"", i,
                         purge_method_name(c->req), c->dev, purge_method_name(p.method),
                         p.compliant, p.argv_text);
            if (c->tr != PURGE_T_SIM && c->tr != PURGE_T_FILE && c->req != PURGE_NONE &&
                c->req != PURGE_DISCARD)
                has(p.argv_text, c->dev);
        } else {
            char err[512];
            plan_fails(&f, c->req, err, sizeof(err));
            has(err, c->text);
        }
    }
}

/* Explicit methods without their tool fail (no silent fallback: the user asked for it). */
static void test_explicit_without_tool(void **state)
{
    (void)state;
    char err[512];
    struct purge_facts f = pf(PURGE_T_NVME, true, T_HDPARM | T_SG, "/dev/nvme0n1");
    plan_fails(&f, PURGE_FORMAT, err, sizeof(err));
    has(err, "nvme");
    has(err, "not in PATH");
    plan_fails(&f, PURGE_SANITIZE, err, sizeof(err));
    has(err, "not in PATH");

    f = pf(PURGE_T_ATA, true, T_NVME | T_SG, "/dev/sda");
    plan_fails(&f, PURGE_SECURE_ERASE, err, sizeof(err));
    has(err, "hdparm");
    has(err, "not in PATH");

    f = pf(PURGE_T_SCSI, true, T_NVME | T_HDPARM, "/dev/sdb");
    plan_fails(&f, PURGE_FORMAT, err, sizeof(err));
    has(err, "sg_format");

    /* discard asked for on a device without it */
    f = pf(PURGE_T_OTHER_BLOCK, false, T_ALL, "/dev/vdb");
    plan_fails(&f, PURGE_DISCARD, err, sizeof(err));
    has(err, "does not support discard");
    f = pf(PURGE_T_NVME, false, T_ALL, "/dev/nvme0n1");
    plan_fails(&f, PURGE_DISCARD, err, sizeof(err));

    /* none needs nothing */
    struct purge_plan p;
    f = pf(PURGE_T_OTHER_BLOCK, false, 0, "/dev/vdb");
    plan_ok(&f, PURGE_NONE, &p);
    assert_int_equal(p.method, PURGE_NONE);
    assert_false(p.compliant);
}

/* ---- ATA: the variant chosen from hdparm's own text ------------------------------------ */

/* Captured hdparm text. The layout is hdparm 9.65's (identify.c, hdparm.c): section titles at
 * the left margin; features "\t   *\tNAME" (word 59, the SANITIZE bits, prints only what is
 * set); security bits "\t\tBIT", "\tnot\tBIT" or "\t(?)\tsupported"; erase times "\tNmin for
 * SECURITY ERASE UNIT. Nmin for ENHANCED SECURITY ERASE UNIT.". Web pages that quote it often
 * turn the tabs into spaces, so id_frozen is written that way. Model names are made up. */

/* (a) a SATA SSD with enhanced erase, not frozen, no SANITIZE feature set */
static const char id_enhanced[] =
    "\n/dev/sda:\n\n"
    "ATA device, with non-removable media\n"
    "\tModel Number:       EXAMPLE SATA SSD 480GB\n"
    "\tFirmware Revision:  D2010370\n"
    "Standards:\n"
    "\tSupported: 9 8 7 6 5\n"
    "Commands/features:\n"
    "\tEnabled\tSupported:\n"
    "\t   *\tSMART feature set\n"
    "\t    \tSecurity Mode feature set\n"
    "\t   *\tWrite cache\n"
    "\t   *\t48-bit Address feature set\n"
    "\t   *\tData Set Management TRIM supported (limit 4 blocks)\n"
    "\t   *\tDeterministic read ZEROs after TRIM\n"
    "Security: \n"
    "\tMaster password revision code = 65534\n"
    "\t\tsupported\n"
    "\tnot\tenabled\n"
    "\tnot\tlocked\n"
    "\tnot\tfrozen\n"
    "\tnot\texpired: security count\n"
    "\t\tsupported: enhanced erase\n"
    "\t4min for SECURITY ERASE UNIT. 4min for ENHANCED SECURITY ERASE UNIT.\n"
    "Logical Unit WWN Device Identifier: 5000000000000001\n"
    "\tNAA\t\t: 5\n"
    "Checksum: correct\n";

/* (b) normal erase only: "not supported: enhanced erase", one erase time */
static const char id_normal[] =
    "\n/dev/sda:\n\n"
    "ATA device, with non-removable media\n"
    "\tModel Number:       EXAMPLE OLD SSD 120GB\n"
    "Commands/features:\n"
    "\tEnabled\tSupported:\n"
    "\t   *\tSMART feature set\n"
    "\t    \tSecurity Mode feature set\n"
    "Security: \n"
    "\tMaster password revision code = 65534\n"
    "\t\tsupported\n"
    "\tnot\tenabled\n"
    "\tnot\tlocked\n"
    "\tnot\tfrozen\n"
    "\tnot\texpired: security count\n"
    "\tnot\tsupported: enhanced erase\n"
    "\t2min for SECURITY ERASE UNIT.\n"
    "Checksum: correct\n";

/* (c) frozen by the BIOS (blanks for tabs), with SANITIZE block erase */
static const char id_frozen[] =
    "\n/dev/sdb:\n\n"
    "ATA device, with non-removable media\n"
    "        Model Number:       EXAMPLE SATA SSD 1TB\n"
    "Commands/features:\n"
    "        Enabled Supported:\n"
    "           *    SMART feature set\n"
    "                Security Mode feature set\n"
    "           *    SANITIZE_ANTIFREEZE_LOCK_EXT command\n"
    "           *    SANITIZE feature set\n"
    "           *    BLOCK_ERASE_EXT command\n"
    "           *    Data Set Management TRIM supported (limit 8 blocks)\n"
    "Security:\n"
    "        Master password revision code = 65534\n"
    "                supported\n"
    "        not     enabled\n"
    "        not     locked\n"
    "                frozen\n"
    "        not     expired: security count\n"
    "                supported: enhanced erase\n"
    "        2min for SECURITY ERASE UNIT. 2min for ENHANCED SECURITY ERASE UNIT.\n"
    "Checksum: correct\n";

/* (d) SANITIZE with all three actions, in hdparm's order (word 59 bits 10, 12, 13, 14, 15) */
static const char id_sanitize_all[] =
    "\n/dev/sdb:\n\n"
    "ATA device, with non-removable media\n"
    "Commands/features:\n"
    "\tEnabled\tSupported:\n"
    "\t   *\tSMART Command Transport (SCT) feature set\n"
    "\t   *\tSANITIZE_ANTIFREEZE_LOCK_EXT command\n"
    "\t   *\tSANITIZE feature set\n"
    "\t   *\tCRYPTO_SCRAMBLE_EXT command\n"
    "\t   *\tOVERWRITE_EXT command\n"
    "\t   *\tBLOCK_ERASE_EXT command\n"
    "\t   *\tDOWNLOAD MICROCODE DMA command\n"
    "Security: \n"
    "\t\tsupported\n"
    "\tnot\tenabled\n"
    "\tnot\tlocked\n"
    "\t\tfrozen\n"
    "\tnot\texpired: security count\n"
    "\t\tsupported: enhanced erase\n"
    "\t2min for SECURITY ERASE UNIT. 2min for ENHANCED SECURITY ERASE UNIT.\n"
    "Checksum: correct\n";

/* (d) SANITIZE with crypto scramble but no block erase (self-encrypting drive) */
static const char id_sanitize_crypto[] =
    "Commands/features:\n"
    "\tEnabled\tSupported:\n"
    "\t   *\tSANITIZE feature set\n"
    "\t   *\tCRYPTO_SCRAMBLE_EXT command\n"
    "Security: \n"
    "\t\tsupported\n"
    "\tnot\tfrozen\n";

/* SANITIZE with overwrite only (a disk) */
static const char id_sanitize_overwrite[] =
    "Commands/features:\n"
    "\tEnabled\tSupported:\n"
    "\t   *\tSANITIZE feature set\n"
    "\t   *\tOVERWRITE_EXT command\n";

/* SANITIZE feature set bit without any of its actions */
static const char id_sanitize_none[] =
    "Commands/features:\n"
    "\tEnabled\tSupported:\n"
    "\t   *\tSANITIZE feature set\n"
    "\t   *\tSANITIZE_ANTIFREEZE_LOCK_EXT command\n";

/* argv (NULL-terminated) equals want, word by word. */
static void argv_is(const char *const *argv, const char *const *want)
{
    for (int i = 0;; i++) {
        if (!argv[i] || !want[i]) {
            if (argv[i] != want[i])
                fail_msg("word %d: got \"%s\", want \"%s\"", i, argv[i] ? argv[i] : "(end)",
                         want[i] ? want[i] : "(end)");
            return;
        }
        if (strcmp(argv[i], want[i]) != 0)
            fail_msg("word %d: got \"%s\", want \"%s\"", i, argv[i], want[i]);
    }
}

/* Some command of c has the word. */
static bool cmds_have(const struct purge_cmds *c, const char *word)
{
    for (int i = 0; i < c->n; i++)
        for (int j = 0; c->argv[i][j]; j++)
            if (strcmp(c->argv[i][j], word) == 0)
                return true;
    return false;
}

/* Plan m on an ATA disk, then choose from the captured `hdparm -I` text. */
static int ata_choose(const char *id_text, enum purge_method m, int tools, struct purge_facts *f,
                      struct purge_plan *p, struct purge_cmds *c, char *err, size_t errlen)
{
    *f = pf(PURGE_T_ATA, true, tools, m == PURGE_SANITIZE ? "/dev/sdb" : "/dev/sda");
    plan_ok(f, m, p);
    struct purge_ata_id id;
    purge_ata_id_parse(id_text, &id);
    err[0] = '\0';
    return purge_ata_choose(p, f, &id, c, err, errlen);
}

/* Captured `hdparm -h` (9.65), cut to the lines around the sanitize options. */
#define HELP_HEAD                                                                          \
    "\nhdparm - get/set hard disk parameters - version v9.65, by Mark Lord.\n\n"           \
    "Usage:  hdparm  [options] [device ...]\n\nOptions:\n"                                  \
    " -a   Get/set fs readahead\n"                                                          \
    " -I   Detailed/current information directly from drive\n"                              \
    " --read-sector     Read and dump (in hex) a sector directly from the media\n"          \
    " --repair-sector   Alias for the --write-sector option (VERY DANGEROUS)\n"
#define HELP_SAN                                                                           \
    " --sanitize-antifreeze-lock  Block sanitize-freeze-lock command until next power cycle\n" \
    " --sanitize-block-erase      Start block erase operation\n"                            \
    " --sanitize-crypto-scramble  Change the internal encryption keys that used for used "  \
    "data\n"                                                                                \
    " --sanitize-freeze-lock      Lock drive's sanitize features until next power cycle\n"
#define HELP_OW                                                                            \
    " --sanitize-overwrite  PATTERN  Overwrite the internal media with constant PATTERN\n"
#define HELP_PASSES                                                                        \
    " --sanitize-overwrite-passes COUNT  Number of overwrite passes from 0 to 7, default 0 " \
    "means 16 passes\n"
#define HELP_STATUS " --sanitize-status           Show sanitize status information\n"
#define HELP_TAIL                                                                          \
    " --security-help             Display help for ATA security commands\n"                 \
    " --set-sector-size           Change logical sector size of drive\n"

/* `hdparm -h` decides whether --purge sanitize can be planned on ATA, and with how many
 * overwrite passes; option names must match whole (--sanitize-overwrite-passes is not
 * --sanitize-overwrite). */
static void test_hdparm_caps(void **state)
{
    (void)state;
    static const struct {
        const char *help;
        bool sanitize, passes;
    } cases[] = {
        {HELP_HEAD HELP_SAN HELP_OW HELP_PASSES HELP_STATUS HELP_TAIL, true, true},   /* 9.65 */
        {HELP_HEAD HELP_SAN HELP_OW HELP_STATUS HELP_TAIL, true, false},   /* before 9.63 */
        {HELP_HEAD HELP_TAIL, false, false},                          /* before --sanitize-* */
        {HELP_HEAD HELP_SAN HELP_PASSES HELP_STATUS HELP_TAIL, false, false},   /* no -overwrite */
        {HELP_HEAD HELP_SAN HELP_OW HELP_PASSES HELP_TAIL, false, false},       /* no -status */
        {"", false, false},
        {NULL, false, false},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        struct purge_facts f = pf(PURGE_T_ATA, true, T_ALL | T_HDSAN | T_OWP, "/dev/sda");
        purge_hdparm_caps(cases[i].help, &f);
        if (f.hdparm_sanitize != cases[i].sanitize || f.hdparm_ow_passes != cases[i].passes)
            fail_msg("case %zu: sanitize=%d passes=%d, want %d %d", i, f.hdparm_sanitize,
                     f.hdparm_ow_passes, cases[i].sanitize, cases[i].passes);
    }
}

/* (a) enhanced erase supported: the erase is --security-erase-enhanced, after the password. */
static void test_ata_enhanced_erase(void **state)
{
    (void)state;
    struct purge_ata_id id;
    purge_ata_id_parse(id_enhanced, &id);
    assert_true(id.security);
    assert_int_equal(id.sec_supported, 1);
    assert_int_equal(id.sec_enabled, 0);
    assert_int_equal(id.sec_locked, 0);
    assert_int_equal(id.sec_frozen, 0);
    assert_int_equal(id.enhanced_erase, 1);
    assert_false(id.sanitize);      /* "Security Mode feature set" is not the SANITIZE one */

    struct purge_facts f;
    struct purge_plan p;
    struct purge_cmds c;
    char err[512];
    if (ata_choose(id_enhanced, PURGE_SECURE_ERASE, T_ALL, &f, &p, &c, err, sizeof(err)) != 0)
        fail_msg("purge_ata_choose: %s", err);
    assert_int_equal(c.n, 2);
    argv_is(c.argv[0], (const char *const[]){"hdparm", "--user-master", "u",
                                             "--security-set-pass", "ptsbench", "/dev/sda",
                                             NULL});
    argv_is(c.argv[1], (const char *const[]){"hdparm", "--user-master", "u",
                                             "--security-erase-enhanced", "ptsbench",
                                             "/dev/sda", NULL});
    assert_false(cmds_have(&c, "--security-erase"));
    assert_string_equal(c.variant, "ATA enhanced security erase");
    assert_string_equal(p.ran, "ATA enhanced security erase");
    assert_string_equal(p.argv_text,
                        "hdparm -I /dev/sda; "
                        "hdparm --user-master u --security-set-pass ptsbench /dev/sda; "
                        "hdparm --user-master u --security-erase-enhanced ptsbench /dev/sda");

    /* auto on ATA is this same secure erase */
    struct purge_plan a;
    plan_ok(&f, PURGE_AUTO, &a);
    assert_int_equal(a.method, PURGE_SECURE_ERASE);
}

/* (b) normal erase only: --security-erase, never the enhanced option; ran says why. */
static void test_ata_normal_erase_only(void **state)
{
    (void)state;
    struct purge_ata_id id;
    purge_ata_id_parse(id_normal, &id);
    assert_int_equal(id.enhanced_erase, 0);
    assert_int_equal(id.sec_frozen, 0);

    struct purge_facts f;
    struct purge_plan p;
    struct purge_cmds c;
    char err[512];
    if (ata_choose(id_normal, PURGE_SECURE_ERASE, T_ALL, &f, &p, &c, err, sizeof(err)) != 0)
        fail_msg("purge_ata_choose: %s", err);
    assert_int_equal(c.n, 2);
    argv_is(c.argv[1], (const char *const[]){"hdparm", "--user-master", "u",
                                             "--security-erase", "ptsbench", "/dev/sda",
                                             NULL});
    assert_false(cmds_have(&c, "--security-erase-enhanced"));
    assert_string_equal(p.ran, "ATA security erase (normal; enhanced not supported)");
    assert_string_equal(p.argv_text,
                        "hdparm -I /dev/sda; "
                        "hdparm --user-master u --security-set-pass ptsbench /dev/sda; "
                        "hdparm --user-master u --security-erase ptsbench /dev/sda");
}

/* (c) frozen: secure erase is refused before anything is issued, with the way out; the
 * SANITIZE feature set does not depend on security's freeze, so sanitize still goes. */
static void test_ata_frozen(void **state)
{
    (void)state;
    struct purge_ata_id id;
    purge_ata_id_parse(id_frozen, &id);
    assert_int_equal(id.sec_frozen, 1);
    assert_int_equal(id.enhanced_erase, 1);
    assert_true(id.sanitize);
    assert_true(id.block_erase);

    struct purge_facts f;
    struct purge_plan p;
    struct purge_cmds c;
    char err[512];
    assert_int_equal(ata_choose(id_frozen, PURGE_SECURE_ERASE, T_ALL, &f, &p, &c, err,
                                sizeof(err)), -1);
    printf("  frozen -> %s\n", err);
    has(err, "--purge secure-erase: /dev/sda is security-frozen");
    has(err, "suspend/resume");
    assert_int_equal(c.n, 0);
    assert_string_equal(p.ran, "");                       /* nothing was issued */
    has(p.argv_text, "(--security-erase where hdparm -I does not list enhanced erase)");

    assert_int_equal(ata_choose(id_frozen, PURGE_SANITIZE, T_ALL | T_HDSAN, &f, &p, &c, err,
                                sizeof(err)), 0);
    assert_string_equal(p.ran, "ATA sanitize block erase");
}

/* Locked, no security section, and hdparm's "(?)" for an ambiguous supported bit. */
static void test_ata_locked_and_unreported(void **state)
{
    (void)state;
    struct purge_facts f;
    struct purge_plan p;
    struct purge_cmds c;
    char err[512];
    static const char locked[] = "Security: \n\t\tsupported\n\t\tenabled\n\t\tlocked\n"
                                 "\tnot\tfrozen\n\t\tsupported: enhanced erase\n";
    assert_int_equal(ata_choose(locked, PURGE_SECURE_ERASE, T_ALL, &f, &p, &c, err,
                                sizeof(err)), -1);
    has(err, "/dev/sda is security-locked");

    static const char nosec[] = "Commands/features:\n\tEnabled\tSupported:\n"
                                "\t   *\tSMART feature set\nChecksum: correct\n";
    assert_int_equal(ata_choose(nosec, PURGE_SECURE_ERASE, T_ALL, &f, &p, &c, err,
                                sizeof(err)), -1);
    has(err, "hdparm -I /dev/sda reports no ATA security feature set");

    static const char nofrozen[] = "Security: \n\t\tsupported\n\tnot\tenabled\n";
    assert_int_equal(ata_choose(nofrozen, PURGE_SECURE_ERASE, T_ALL, &f, &p, &c, err,
                                sizeof(err)), -1);
    has(err, "not reported as \"not frozen\"");

    static const char ambiguous[] = "Security: \n\t(?)\tsupported\n\tnot\tenabled\n"
                                    "\tnot\tlocked\n\tnot\tfrozen\n"
                                    "\tnot\tsupported: enhanced erase\n";
    struct purge_ata_id id;
    purge_ata_id_parse(ambiguous, &id);
    assert_int_equal(id.sec_supported, -1);
    assert_int_equal(ata_choose(ambiguous, PURGE_SECURE_ERASE, T_ALL, &f, &p, &c, err,
                                sizeof(err)), 0);
    assert_string_equal(c.argv[1][3], "--security-erase");
}

/* --purge sanitize on ATA is planned only with an hdparm that has --sanitize-*. */
static void test_ata_sanitize_plan(void **state)
{
    (void)state;
    struct purge_plan p;
    struct purge_facts f = pf(PURGE_T_ATA, true, T_ALL | T_HDSAN, "/dev/sdb");
    plan_ok(&f, PURGE_SANITIZE, &p);
    assert_int_equal(p.method, PURGE_SANITIZE);
    assert_true(p.compliant);
    assert_string_equal(p.argv_text,
                        "hdparm -I /dev/sdb; "
                        "hdparm --yes-i-know-what-i-am-doing --sanitize-block-erase /dev/sdb; "
                        "hdparm --sanitize-status /dev/sdb (polled until done; "
                        "--sanitize-crypto-scramble, else --sanitize-overwrite, where hdparm -I "
                        "does not list BLOCK_ERASE_EXT)");
    plan_ok(&f, PURGE_AUTO, &p);                     /* auto stays with secure erase on ATA */
    assert_int_equal(p.method, PURGE_SECURE_ERASE);

    char err[512];
    f = pf(PURGE_T_ATA, true, T_ALL, "/dev/sdb");    /* hdparm without --sanitize-* */
    plan_fails(&f, PURGE_SANITIZE, err, sizeof(err));
    has(err, "this hdparm has no --sanitize-* options");
    has(err, "hdparm -h");
    f = pf(PURGE_T_ATA, true, T_NVME | T_SG, "/dev/sdb");
    plan_fails(&f, PURGE_SANITIZE, err, sizeof(err));
    has(err, "hdparm is not in PATH");

    /* format on ATA suggests sanitize only where it can be planned */
    f = pf(PURGE_T_ATA, true, T_ALL | T_HDSAN, "/dev/sdb");
    plan_fails(&f, PURGE_FORMAT, err, sizeof(err));
    has(err, "(try secure-erase or sanitize)");
}

/* (d) SANITIZE: block erase first, then crypto scramble, then overwrite; then the status. */
static void test_ata_sanitize_choice(void **state)
{
    (void)state;
    struct purge_ata_id id;
    purge_ata_id_parse(id_sanitize_all, &id);
    assert_true(id.sanitize && id.block_erase && id.crypto_scramble && id.overwrite);

    struct purge_facts f;
    struct purge_plan p;
    struct purge_cmds c;
    char err[512];
    const char *const status[] = {"hdparm", "--sanitize-status", "/dev/sdb", NULL};

    if (ata_choose(id_sanitize_all, PURGE_SANITIZE, T_ALL | T_HDSAN, &f, &p, &c, err,
                   sizeof(err)) != 0)
        fail_msg("purge_ata_choose: %s", err);
    assert_int_equal(c.n, 2);
    argv_is(c.argv[0], (const char *const[]){"hdparm", "--yes-i-know-what-i-am-doing",
                                             "--sanitize-block-erase", "/dev/sdb", NULL});
    argv_is(c.argv[1], status);
    assert_string_equal(p.ran, "ATA sanitize block erase");
    assert_string_equal(p.argv_text,
                        "hdparm -I /dev/sdb; "
                        "hdparm --yes-i-know-what-i-am-doing --sanitize-block-erase /dev/sdb; "
                        "hdparm --sanitize-status /dev/sdb (polled until done)");

    assert_int_equal(ata_choose(id_sanitize_crypto, PURGE_SANITIZE, T_ALL | T_HDSAN, &f, &p, &c,
                                err, sizeof(err)), 0);
    argv_is(c.argv[0], (const char *const[]){"hdparm", "--yes-i-know-what-i-am-doing",
                                             "--sanitize-crypto-scramble", "/dev/sdb", NULL});
    argv_is(c.argv[1], status);
    assert_string_equal(p.ran, "ATA sanitize crypto scramble (block erase not supported)");

    assert_int_equal(ata_choose(id_sanitize_overwrite, PURGE_SANITIZE, T_ALL | T_HDSAN | T_OWP,
                                &f, &p, &c, err, sizeof(err)), 0);
    argv_is(c.argv[0], (const char *const[]){"hdparm", "--yes-i-know-what-i-am-doing",
                                             "--sanitize-overwrite-passes", "1",
                                             "--sanitize-overwrite", "hex:00000000", "/dev/sdb",
                                             NULL});
    argv_is(c.argv[1], status);
    has(p.ran, "ATA sanitize overwrite, 1 pass");

    assert_int_equal(ata_choose(id_sanitize_overwrite, PURGE_SANITIZE, T_ALL | T_HDSAN, &f, &p,
                                &c, err, sizeof(err)), 0);
    argv_is(c.argv[0], (const char *const[]){"hdparm", "--yes-i-know-what-i-am-doing",
                                             "--sanitize-overwrite", "hex:00000000", "/dev/sdb",
                                             NULL});
    has(p.ran, "16 passes");
}

/* (e) no SANITIZE feature set, or none of its actions: refused with one line, nothing run. */
static void test_ata_sanitize_unsupported(void **state)
{
    (void)state;
    struct purge_facts f;
    struct purge_plan p;
    struct purge_cmds c;
    char err[512];
    assert_int_equal(ata_choose(id_enhanced, PURGE_SANITIZE, T_ALL | T_HDSAN, &f, &p, &c, err,
                                sizeof(err)), -1);
    printf("  no sanitize -> %s\n", err);
    has(err, "--purge sanitize: hdparm -I /dev/sdb does not list the SANITIZE feature set");
    assert_null(strchr(err, '\n'));
    assert_int_equal(c.n, 0);
    assert_string_equal(p.ran, "");

    assert_int_equal(ata_choose(id_sanitize_none, PURGE_SANITIZE, T_ALL | T_HDSAN, &f, &p, &c,
                                err, sizeof(err)), -1);
    has(err, "none of BLOCK_ERASE_EXT, CRYPTO_SCRAMBLE_EXT, OVERWRITE_EXT");
    assert_int_equal(c.n, 0);

    /* the choice itself also refuses an hdparm without --sanitize-* */
    struct purge_ata_id id;
    purge_ata_id_parse(id_sanitize_all, &id);
    f = pf(PURGE_T_ATA, true, T_ALL | T_HDSAN, "/dev/sdb");
    plan_ok(&f, PURGE_SANITIZE, &p);
    f.hdparm_sanitize = false;
    assert_int_equal(purge_ata_choose(&p, &f, &id, &c, err, sizeof(err)), -1);
    has(err, "no --sanitize-* options");
}

/* `hdparm --sanitize-status` (hdparm.c: sanitize_normal_output, sanitize_error_output). */
static void test_ata_sanitize_status(void **state)
{
    (void)state;
    static const char head[] = "\n/dev/sdb:\nIssuing SANITIZE_STATUS command\nSanitize status:\n";
    char out[512];
    snprintf(out, sizeof(out), "%s    State:    SD2 Sanitize operation In Process\n"
             "    Progress: 0x7fff (49%%)\n", head);
    assert_int_equal(purge_ata_sanitize_state(out, ""), PURGE_SAN_RUNNING);
    snprintf(out, sizeof(out), "%s    State:    SD0 Sanitize Idle\n"
             "    Last Sanitize Operation Completed Without Error\n", head);
    assert_int_equal(purge_ata_sanitize_state(out, ""), PURGE_SAN_DONE);
    snprintf(out, sizeof(out), "%s    State:    SD0 Sanitize Idle\n", head);
    assert_int_equal(purge_ata_sanitize_state(out, ""), PURGE_SAN_IDLE);
    snprintf(out, sizeof(out), "%s    State:    SD1 Sanitize Frozen\n", head);
    assert_int_equal(purge_ata_sanitize_state(out, NULL), PURGE_SAN_FROZEN);
    assert_int_equal(purge_ata_sanitize_state("\n/dev/sdb:\nIssuing SANITIZE_STATUS command\n",
                                              "SANITIZE failed: Input/output error\n"
                                              "SANITIZE device error reason: Last Sanitize "
                                              "Command completed unsuccessfully\n"
                                              "Drive in SD3 Sanitize Operation Failed state\n"),
                     PURGE_SAN_FAILED);
    assert_int_equal(purge_ata_sanitize_state("", "SANITIZE feature set is not supported\n"),
                     PURGE_SAN_UNKNOWN);
    assert_int_equal(purge_ata_sanitize_state(NULL, NULL), PURGE_SAN_UNKNOWN);
}

/* ---- facts ---------------------------------------------------------------------------- */

static void test_facts_tools_from_path(void **state)
{
    (void)state;
    char *dir = make_temp_dir("purge-path");
    assert_non_null(dir);
    char p[PATH_MAX], oldpath[8192] = "";
    const char *op = getenv("PATH");
    if (op)
        snprintf(oldpath, sizeof(oldpath), "%s", op);

    /* a fake executable nvme and a non-executable hdparm */
    snprintf(p, sizeof(p), "%s/nvme", dir);
    int fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0755);
    assert_true(fd >= 0);
    close(fd);
    snprintf(p, sizeof(p), "%s/hdparm", dir);
    fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    assert_true(fd >= 0);
    close(fd);

    struct target_info t;
    memset(&t, 0, sizeof(t));
    t.kind = TARGET_FILE;
    snprintf(t.path, sizeof(t.path), "%s/data.img", dir);
    setenv("PATH", dir, 1);
    struct purge_facts f;
    purge_facts_collect(&t, &f);
    setenv("PATH", oldpath, 1);
    bool nvme = f.have_nvme_cli, hd = f.have_hdparm, sg = f.have_sg_format;
    remove_tree(dir);
    free(dir);

    assert_int_equal(f.transport, PURGE_T_FILE);
    assert_true(f.supports_discard);
    assert_string_equal(f.devpath, t.path);
    assert_true(nvme);
    assert_false(hd);      /* root could exec it? access(X_OK) for root needs an x bit */
    assert_false(sg);
}

/* ---- simulated drive ------------------------------------------------------------------ */

static void sim_small(struct sim_params *p)
{
    sim_params_default(p);
    p->pages_per_block = 8;
    p->t_erase_us = 3800.0 * 8 / 256;
    p->wbuf_units = 1024;
    p->bg_gc = false;
}

static int sim_teardown(void **state)
{
    struct target_info *t = *state;
    if (t) {
        target_release(t);
        free(t);
    }
    *state = NULL;
    return 0;
}

/* Write the first `bytes` of the drive in 128 KiB commands. */
static void sim_write(struct target_info *t, uint64_t bytes)
{
    for (uint64_t off = 0; off < bytes; off += 128 << 10) {
        struct sim_io io = {.op = SIM_WRITE, .compress_pct = 0, .offset = off, .len = 128 << 10};
        simt done = sim_submit(t->sim->dev, t->sim->now, &io);
        t->sim->now = done > t->sim->now ? done : t->sim->now;
    }
}

/* Read the first `bytes`; returns how many 4 KiB units were answered unmapped. */
static uint64_t sim_read_unmapped(struct target_info *t, uint64_t bytes)
{
    struct sim_stats a, b;
    sim_stats(t->sim->dev, &a);
    for (uint64_t off = 0; off < bytes; off += 128 << 10) {
        struct sim_io io = {.op = SIM_READ, .offset = off, .len = 128 << 10};
        simt done = sim_submit(t->sim->dev, t->sim->now, &io);
        t->sim->now = done > t->sim->now ? done : t->sim->now;
    }
    sim_stats(t->sim->dev, &b);
    return b.unmapped_reads - a.unmapped_reads;
}

static struct target_info *sim_target(void **state)
{
    struct sim_params sp;
    sim_small(&sp);
    struct target_info *t = xcalloc(1, sizeof(*t));
    *state = t;
    char err[512] = "";
    if (target_probe_sim("sim:small", &sp, t, err, sizeof(err)) != 0)
        fail_msg("target_probe_sim: %s", err);
    return t;
}

static void test_execute_sim_secure_erase(void **state)
{
    struct target_info *t = sim_target(state);
    const uint64_t bytes = t->capacity / 2 / (128 << 10) * (128 << 10);
    sim_write(t, bytes);

    struct sim_stats s;
    sim_stats(t->sim->dev, &s);
    assert_true(s.host_write_sectors >= bytes / 512);
    assert_true(s.free_lines < s.total_lines);
    assert_int_equal(sim_read_unmapped(t, bytes), 0);

    struct purge_facts f;
    purge_facts_collect(t, &f);
    assert_int_equal(f.transport, PURGE_T_SIM);
    struct purge_plan p;
    plan_ok(&f, PURGE_AUTO, &p);
    assert_true(p.compliant);
    char err[512] = "";
    if (purge_execute(&p, t, -1, err, sizeof(err)) != 0)
        fail_msg("purge_execute: %s", err);
    assert_string_equal(p.ran, "simulated drive secure erase");
    /* a plan runs once */
    assert_int_equal(purge_execute(&p, t, -1, err, sizeof(err)), -1);
    has(err, "already ran");

    sim_stats(t->sim->dev, &s);
    assert_int_equal(s.host_write_sectors, 0);
    assert_int_equal(s.nand_write_sectors, 0);
    assert_int_equal(s.free_lines, s.total_lines);
    assert_int_equal(sim_read_unmapped(t, bytes), bytes / 4096);
    assert_int_equal(sim_check(t->sim->dev, err, sizeof(err)), 0);

    /* an explicit format on a simulated drive is the same secure erase */
    sim_write(t, 1 << 20);
    plan_ok(&f, PURGE_FORMAT, &p);
    assert_int_equal(purge_execute(&p, t, -1, err, sizeof(err)), 0);
    assert_string_equal(p.ran, "simulated drive secure erase");
    sim_stats(t->sim->dev, &s);
    assert_int_equal(s.host_write_sectors, 0);
    assert_int_equal(s.free_lines, s.total_lines);
}

static void test_execute_sim_discard_and_none(void **state)
{
    struct target_info *t = sim_target(state);
    const uint64_t bytes = 8 << 20;
    sim_write(t, bytes);

    struct purge_facts f;
    purge_facts_collect(t, &f);
    struct purge_plan p;
    char err[512] = "";

    plan_ok(&f, PURGE_NONE, &p);
    assert_int_equal(purge_execute(&p, t, -1, err, sizeof(err)), 0);
    assert_string_equal(p.ran, "none");
    assert_int_equal(sim_read_unmapped(t, bytes), 0);

    plan_ok(&f, PURGE_DISCARD, &p);
    assert_false(p.compliant);
    if (purge_execute(&p, t, -1, err, sizeof(err)) != 0)
        fail_msg("purge_execute: %s", err);
    assert_string_equal(p.ran, "simulated TRIM");
    struct sim_stats s;
    sim_stats(t->sim->dev, &s);
    assert_true(s.trimmed_units >= bytes / 4096);
    assert_true(s.host_write_sectors > 0);      /* a TRIM is not a purge: history remains */
    assert_int_equal(sim_read_unmapped(t, bytes), bytes / 4096);
    assert_int_equal(sim_check(t->sim->dev, err, sizeof(err)), 0);
}

/* ---- a regular file ------------------------------------------------------------------- */

struct file_fx {
    char *dir;
    int fd;
};

static int file_setup(void **state)
{
    struct file_fx *fx = calloc(1, sizeof(*fx));
    if (!fx)
        return -1;
    fx->fd = -1;
    setenv("TMPDIR", "/var/tmp", 0);
    fx->dir = make_temp_dir("purge");
    *state = fx;
    return fx->dir ? 0 : -1;
}

static int file_teardown(void **state)
{
    struct file_fx *fx = *state;
    if (fx) {
        if (fx->fd >= 0)
            close(fx->fd);
        remove_tree(fx->dir);
        free(fx->dir);
        free(fx);
    }
    *state = NULL;
    return 0;
}

static void fill_pattern(unsigned char *buf, size_t n, uint64_t seed)
{
    uint64_t x = seed * 0x9e3779b97f4a7c15ull + 1;
    for (size_t i = 0; i < n; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        buf[i] = (unsigned char)(x | 1);        /* never zero */
    }
}

/* Write `bytes` of a non-zero pattern at offset 0 and sync. */
static void write_pattern(int fd, uint64_t bytes)
{
    const size_t chunk = 1 << 20;
    unsigned char *buf = malloc(chunk);
    assert_non_null(buf);
    for (uint64_t off = 0; off < bytes; off += chunk) {
        fill_pattern(buf, chunk, off / chunk + 1);
        ssize_t w = pwrite(fd, buf, chunk, (off_t)off);
        if (w != (ssize_t)chunk) {
            free(buf);
            fail_msg("pwrite at %llu: %s", (unsigned long long)off, strerror(errno));
        }
    }
    free(buf);
    assert_int_equal(fsync(fd), 0);
}

/* Bytes among the first `bytes` that are not zero. */
static uint64_t nonzero_bytes(int fd, uint64_t bytes)
{
    const size_t chunk = 1 << 20;
    unsigned char *buf = malloc(chunk);
    assert_non_null(buf);
    uint64_t nz = 0;
    for (uint64_t off = 0; off < bytes; off += chunk) {
        ssize_t r = pread(fd, buf, chunk, (off_t)off);
        if (r != (ssize_t)chunk) {
            free(buf);
            fail_msg("pread at %llu: %s", (unsigned long long)off, strerror(errno));
        }
        for (size_t i = 0; i < chunk; i++)
            nz += buf[i] != 0;
    }
    free(buf);
    return nz;
}

static void test_execute_file_discard(void **state)
{
    struct file_fx *fx = *state;
    const uint64_t size = 16 << 20;
    char path[PATH_MAX], err[512] = "";
    snprintf(path, sizeof(path), "%s/data.img", fx->dir);
    fx->fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    assert_true(fx->fd >= 0);
    write_pattern(fx->fd, size);

    struct target_info t;
    if (target_probe(path, 0, &t, err, sizeof(err)) != 0)
        fail_msg("target_probe: %s", err);
    assert_int_equal(t.kind, TARGET_FILE);
    assert_int_equal(t.capacity, size);

    struct purge_facts f;
    purge_facts_collect(&t, &f);
    assert_int_equal(f.transport, PURGE_T_FILE);
    assert_true(f.supports_discard);
    assert_string_equal(f.devpath, path);

    /* format on a file: refused, naming the file */
    char e2[512];
    plan_fails(&f, PURGE_FORMAT, e2, sizeof(e2));

    struct purge_plan p;
    plan_ok(&f, PURGE_AUTO, &p);
    assert_int_equal(p.method, PURGE_DISCARD);
    assert_false(p.compliant);

    struct stat before, after;
    assert_int_equal(fstat(fx->fd, &before), 0);
    assert_int_equal(nonzero_bytes(fx->fd, size), size);
    if (purge_execute(&p, &t, fx->fd, err, sizeof(err)) != 0)
        fail_msg("purge_execute: %s", err);
    assert_string_equal(p.ran, "fallocate PUNCH_HOLE");
    target_release(&t);
    assert_int_equal(fstat(fx->fd, &after), 0);
    printf("  %s: st_blocks %lld -> %lld, size %lld -> %lld\n", path,
           (long long)before.st_blocks, (long long)after.st_blocks, (long long)before.st_size,
           (long long)after.st_size);
    assert_int_equal(after.st_size, before.st_size);          /* KEEP_SIZE */
    assert_true(before.st_blocks >= (blkcnt_t)(size / 512));
    assert_true(after.st_blocks < before.st_blocks / 16);
    assert_int_equal(nonzero_bytes(fx->fd, size), 0);

    /* without an open fd, discard is refused with a message, and nothing is recorded */
    err[0] = '\0';
    plan_ok(&f, PURGE_AUTO, &p);
    assert_int_equal(purge_execute(&p, &t, -1, err, sizeof(err)), -1);
    has(err, "--purge discard");
    has(err, "is not open");
    assert_string_equal(p.ran, "");
}

/* ---- block devices: a loop device of our own, and a zram device of our own ------------ */

struct blk_fx {
    char dev[64];
    char img[PATH_MAX];
    char *dir;
    int loop_fd;        /* holds the loop (LO_FLAGS_AUTOCLEAR detaches it on the last close) */
    int fd;
    bool zram;          /* fx->dev is a zram device the helpers created: remove it */
};

static int blk_setup(void **state)
{
    struct blk_fx *fx = calloc(1, sizeof(*fx));
    if (!fx)
        return -1;
    fx->loop_fd = fx->fd = -1;
    *state = fx;
    return 0;
}

static int blk_teardown(void **state)
{
    struct blk_fx *fx = *state;
    if (!fx)
        return 0;
    if (fx->fd >= 0)
        close(fx->fd);
    if (fx->loop_fd >= 0) {
        ioctl(fx->loop_fd, LOOP_CLR_FD, 0);
        close(fx->loop_fd);
    }
    if (fx->zram)
        zram_remove(fx->dev);
    remove_tree(fx->dir);
    free(fx->dir);
    free(fx);
    *state = NULL;
    return 0;
}

/* Attach a loop device over a 32 MiB file of our own; false with a printed reason. */
static bool loop_attach(struct blk_fx *fx)
{
    if (!is_root()) {
        printf("SKIP: a loop device needs root\n");
        return false;
    }
    setenv("TMPDIR", "/var/tmp", 0);
    fx->dir = make_temp_dir("purge-loop");
    if (!fx->dir) {
        printf("SKIP: no temporary directory\n");
        return false;
    }
    snprintf(fx->img, sizeof(fx->img), "%s/loop.img", fx->dir);
    int bfd = open(fx->img, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (bfd < 0 || ftruncate(bfd, 32 << 20) != 0) {
        printf("SKIP: cannot create %s: %s\n", fx->img, strerror(errno));
        if (bfd >= 0)
            close(bfd);
        return false;
    }
    for (int attempt = 0; attempt < 8; attempt++) {   /* others may take the free one first */
        int ctl = open("/dev/loop-control", O_RDWR | O_CLOEXEC);
        if (ctl < 0)
            break;
        int n = ioctl(ctl, LOOP_CTL_GET_FREE);
        close(ctl);
        if (n < 0)
            break;
        snprintf(fx->dev, sizeof(fx->dev), "/dev/loop%d", n);
        int lfd = open(fx->dev, O_RDWR | O_CLOEXEC);
        if (lfd < 0)
            continue;
        struct loop_config cfg;
        memset(&cfg, 0, sizeof(cfg));
        cfg.fd = (unsigned)bfd;
        cfg.info.lo_flags = LO_FLAGS_AUTOCLEAR;
        if (ioctl(lfd, LOOP_CONFIGURE, &cfg) == 0) {
            close(bfd);
            fx->loop_fd = lfd;
            return true;
        }
        close(lfd);
    }
    close(bfd);
    fx->dev[0] = '\0';
    printf("SKIP: could not set up a loop device\n");
    return false;
}

/* Probe, plan (auto: discard on an OTHER_BLOCK device) and execute on fx->dev. */
static void blk_purge(struct blk_fx *fx, uint64_t *capacity)
{
    char err[512] = "";
    struct target_info t;
    if (target_probe(fx->dev, 0, &t, err, sizeof(err)) != 0)
        fail_msg("target_probe: %s", err);
    assert_int_equal(t.kind, TARGET_BLOCK);
    *capacity = t.capacity;

    struct purge_facts f;
    purge_facts_collect(&t, &f);
    printf("  %s: transport=%d discard=%d nvme=%d hdparm=%d sg_format=%d\n", f.devpath,
           (int)f.transport, f.supports_discard, f.have_nvme_cli, f.have_hdparm,
           f.have_sg_format);
    assert_int_equal(f.transport, PURGE_T_OTHER_BLOCK);
    assert_true(f.supports_discard);
    assert_string_equal(f.devpath, fx->dev);

    char e2[512];
    plan_fails(&f, PURGE_FORMAT, e2, sizeof(e2));
    has(e2, "is neither NVMe nor SCSI (try discard)");
    plan_fails(&f, PURGE_SECURE_ERASE, e2, sizeof(e2));

    struct purge_plan p;
    plan_ok(&f, PURGE_AUTO, &p);
    assert_int_equal(p.method, PURGE_DISCARD);
    assert_false(p.compliant);
    assert_string_equal(p.argv_text, "BLKDISCARD 0..capacity");
    if (purge_execute(&p, &t, fx->fd, err, sizeof(err)) != 0)
        fail_msg("purge_execute: %s", err);
    assert_string_equal(p.ran, "BLKDISCARD");
    /* the samples around it: a discard is never claimed to erase */
    printf("  verify: %s\n", p.verify.note);
    assert_int_equal(p.verify.samples, PURGE_VERIFY_SAMPLES);
    assert_false(p.verify.erased);
    has(p.verify.note, "not verified erased");
    target_release(&t);
}

static void test_execute_loop_discard(void **state)
{
    struct blk_fx *fx = *state;
    if (!loop_attach(fx))
        skip();
    fx->fd = open(fx->dev, O_RDWR | O_CLOEXEC);
    assert_true(fx->fd >= 0);
    const uint64_t bytes = 16 << 20;
    write_pattern(fx->fd, bytes);
    struct stat before, after;
    assert_int_equal(stat(fx->img, &before), 0);
    assert_int_equal(nonzero_bytes(fx->fd, bytes), bytes);

    uint64_t cap;
    blk_purge(fx, &cap);
    assert_int_equal(cap, 32 << 20);

    assert_int_equal(stat(fx->img, &after), 0);
    printf("  backing file st_blocks %lld -> %lld\n", (long long)before.st_blocks,
           (long long)after.st_blocks);
    assert_true(before.st_blocks >= (blkcnt_t)(bytes / 512));
    assert_true(after.st_blocks < before.st_blocks / 16);
    assert_int_equal(nonzero_bytes(fx->fd, bytes), 0);
}

/* orig_data_size, the first field of the device's mm_stat. */
static long long zram_orig_data_size(const char *dev)
{
    char buf[256];
    return zram_attr(dev, "mm_stat", buf, sizeof(buf)) ? atoll(buf) : -1;
}

static void test_execute_zram_discard(void **state)
{
    struct blk_fx *fx = *state;
    if (!zram_create("64M", fx->dev, sizeof(fx->dev)))
        skip();
    fx->zram = true;

    fx->fd = open(fx->dev, O_RDWR | O_CLOEXEC);
    assert_true(fx->fd >= 0);
    const uint64_t bytes = 16 << 20;
    write_pattern(fx->fd, bytes);
    long long before = zram_orig_data_size(fx->dev);
    assert_true(before >= (long long)bytes / 2);

    uint64_t cap;
    blk_purge(fx, &cap);
    assert_int_equal(cap, 64 << 20);
    long long after = zram_orig_data_size(fx->dev);
    printf("  %s orig_data_size %lld -> %lld\n", fx->dev, before, after);
    assert_true(after >= 0 && after <= 64 * 1024);
    assert_int_equal(nonzero_bytes(fx->fd, bytes), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_method_names),
        cmocka_unit_test(test_auto),
        cmocka_unit_test(test_auto_fallback_without_tools),
        cmocka_unit_test(test_every_transport_and_method),
        cmocka_unit_test(test_explicit_without_tool),
        cmocka_unit_test(test_hdparm_caps),
        cmocka_unit_test(test_ata_enhanced_erase),
        cmocka_unit_test(test_ata_normal_erase_only),
        cmocka_unit_test(test_ata_frozen),
        cmocka_unit_test(test_ata_locked_and_unreported),
        cmocka_unit_test(test_ata_sanitize_plan),
        cmocka_unit_test(test_ata_sanitize_choice),
        cmocka_unit_test(test_ata_sanitize_unsupported),
        cmocka_unit_test(test_ata_sanitize_status),
        cmocka_unit_test(test_facts_tools_from_path),
        cmocka_unit_test_teardown(test_execute_sim_secure_erase, sim_teardown),
        cmocka_unit_test_teardown(test_execute_sim_discard_and_none, sim_teardown),
        cmocka_unit_test_setup_teardown(test_execute_file_discard, file_setup, file_teardown),
        cmocka_unit_test_setup_teardown(test_execute_loop_discard, blk_setup, blk_teardown),
        cmocka_unit_test_setup_teardown(test_execute_zram_discard, blk_setup, blk_teardown),
        cmocka_unit_test(test_nvme_format_names_namespace),
        cmocka_unit_test(test_nvme_id_parse),
        cmocka_unit_test(test_nvme_sanitize_from_sanicap),
        cmocka_unit_test(test_nvme_format_fna),
        cmocka_unit_test(test_nvme_namespaces_counted),
        cmocka_unit_test(test_ata_qemu_refused_up_front),
        cmocka_unit_test(test_ata_check_step),
        cmocka_unit_test(test_verify_judge),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
