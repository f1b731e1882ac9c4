/* test_purge.c — purge_plan_make on synthetic facts (every transport x method), method names,
 * purge_facts_collect on files, simulated drives and block devices, and purge_execute on a
 * simulated drive, a regular file under /var/tmp, a loop device over a file of our own and
 * /dev/zram0 (root only, skipped with a reason when unavailable or in use). */
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
#include "purge.h"
#include "sim.h"
#include "target.h"
#include "util.h"

/* ---- synthetic facts ------------------------------------------------------------------ */

enum { T_NVME = 1, T_HDPARM = 2, T_SG = 4, T_ALL = 7 };

static struct purge_facts pf(enum purge_transport tr, bool discard, int tools, const char *dev)
{
    struct purge_facts f;
    memset(&f, 0, sizeof(f));
    f.transport = tr;
    f.supports_discard = discard;
    f.have_nvme_cli = tools & T_NVME;
    f.have_hdparm = tools & T_HDPARM;
    f.have_sg_format = tools & T_SG;
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
    has(p.argv_text, "hdparm --user-master u --security-erase ptsbench /dev/sda");
    /* set the password before erasing */
    assert_true(strstr(p.argv_text, "--security-set-pass") <
                strstr(p.argv_text, "--security-erase"));

    f = pf(PURGE_T_SCSI, true, T_ALL, "/dev/sdb");
    plan_ok(&f, PURGE_AUTO, &p);
    assert_int_equal(p.method, PURGE_FORMAT);
    assert_true(p.compliant);
    assert_string_equal(p.argv_text, "sg_format --format /dev/sdb");

    f = pf(PURGE_T_FILE, true, 0, "/var/tmp/x.img");
    plan_ok(&f, PURGE_AUTO, &p);
    assert_int_equal(p.method, PURGE_DISCARD);
    assert_false(p.compliant);
    assert_string_equal(p.argv_text, "fallocate PUNCH_HOLE|KEEP_SIZE");

    f = pf(PURGE_T_OTHER_BLOCK, true, T_ALL, "/dev/zram0");
    plan_ok(&f, PURGE_AUTO, &p);
    assert_int_equal(p.method, PURGE_DISCARD);
    assert_false(p.compliant);
    assert_string_equal(p.argv_text, "BLKDISCARD 0..capacity");
    has(p.reason, "/dev/zram0");

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
     "hdparm --user-master u --security-erase ptsbench /dev/sda"},
    {PURGE_T_ATA, "/dev/sda", PURGE_FORMAT, false, 0, false,
     "is neither NVMe nor SCSI (try secure-erase)"},
    {PURGE_T_ATA, "/dev/sda", PURGE_SANITIZE, false, 0, false,
     "is not NVMe (try secure-erase)"},
    {PURGE_T_ATA, "/dev/sda", PURGE_DISCARD, true, PURGE_DISCARD, false,
     "BLKDISCARD 0..capacity"},
    {PURGE_T_ATA, "/dev/sda", PURGE_NONE, true, PURGE_NONE, false, "none"},

    /* SCSI */
    {PURGE_T_SCSI, "/dev/sdb", PURGE_SECURE_ERASE, false, 0, false,
     "is not ATA (try format)"},
    {PURGE_T_SCSI, "/dev/sdb", PURGE_FORMAT, true, PURGE_FORMAT, true,
     "sg_format --format /dev/sdb"},
    {PURGE_T_SCSI, "/dev/sdb", PURGE_SANITIZE, false, 0, false, "is not NVMe (try format)"},
    {PURGE_T_SCSI, "/dev/sdb", PURGE_DISCARD, true, PURGE_DISCARD, false,
     "BLKDISCARD 0..capacity"},
    {PURGE_T_SCSI, "/dev/sdb", PURGE_NONE, true, PURGE_NONE, false, "none"},

    /* other block devices (zram, loop, virtio, partitions) */
    {PURGE_T_OTHER_BLOCK, "/dev/zram0", PURGE_SECURE_ERASE, false, 0, false,
     "is not ATA (try discard)"},
    {PURGE_T_OTHER_BLOCK, "/dev/zram0", PURGE_FORMAT, false, 0, false,
     "--purge format: /dev/zram0 is neither NVMe nor SCSI (try discard)"},
    {PURGE_T_OTHER_BLOCK, "/dev/zram0", PURGE_SANITIZE, false, 0, false,
     "is not NVMe (try discard)"},
    {PURGE_T_OTHER_BLOCK, "/dev/zram0", PURGE_DISCARD, true, PURGE_DISCARD, false,
     "BLKDISCARD 0..capacity"},
    {PURGE_T_OTHER_BLOCK, "/dev/zram0", PURGE_NONE, true, PURGE_NONE, false, "none"},

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
    assert_int_equal(sim_read_unmapped(t, bytes), 0);

    plan_ok(&f, PURGE_DISCARD, &p);
    assert_false(p.compliant);
    if (purge_execute(&p, t, -1, err, sizeof(err)) != 0)
        fail_msg("purge_execute: %s", err);
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
    target_release(&t);
    assert_int_equal(fstat(fx->fd, &after), 0);
    printf("  %s: st_blocks %lld -> %lld, size %lld -> %lld\n", path,
           (long long)before.st_blocks, (long long)after.st_blocks, (long long)before.st_size,
           (long long)after.st_size);
    assert_int_equal(after.st_size, before.st_size);          /* KEEP_SIZE */
    assert_true(before.st_blocks >= (blkcnt_t)(size / 512));
    assert_true(after.st_blocks < before.st_blocks / 16);
    assert_int_equal(nonzero_bytes(fx->fd, size), 0);

    /* without an open fd, discard is refused with a message */
    err[0] = '\0';
    assert_int_equal(purge_execute(&p, &t, -1, err, sizeof(err)), -1);
    has(err, "discard");
}

/* ---- block devices: a loop device of our own, and zram -------------------------------- */

struct blk_fx {
    char dev[64];
    char img[PATH_MAX];
    char *dir;
    int loop_fd;        /* holds the loop (LO_FLAGS_AUTOCLEAR detaches it on the last close) */
    int fd;
    bool zram;          /* we sized /dev/zram0 and must reset it */
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
        zram_teardown();
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

static long long zram_orig_data_size(void)
{
    char buf[256];
    FILE *f = fopen("/sys/block/zram0/mm_stat", "r");
    if (!f)
        return -1;
    long long v = -1;
    if (fgets(buf, sizeof(buf), f))
        v = atoll(buf);
    fclose(f);
    return v;
}

static void test_execute_zram_discard(void **state)
{
    struct blk_fx *fx = *state;
    if (!is_root()) {
        printf("SKIP: zram needs root\n");
        skip();
    }
    if (access("/sys/block/zram0/disksize", W_OK) != 0) {
        printf("SKIP: /dev/zram0 is not available on this machine\n");
        skip();
    }
    /* Only a zram nobody uses: disksize 0 and not a swap (zram_setup would reset a sized one,
     * which may be someone else's). */
    char cur[64] = "", swaps[4096] = "";
    if (read_text_file("/sys/block/zram0/disksize", cur, sizeof(cur)) < 0 || atoll(cur) != 0) {
        printf("SKIP: /dev/zram0 is in use (disksize %s); not touching it\n", cur);
        skip();
    }
    if (read_text_file("/proc/swaps", swaps, sizeof(swaps)) >= 0 && strstr(swaps, "zram0")) {
        printf("SKIP: /dev/zram0 is in use as swap\n");
        skip();
    }
    if (!zram_setup("64M", fx->dev, sizeof(fx->dev)))
        skip();
    fx->zram = true;

    fx->fd = open(fx->dev, O_RDWR | O_CLOEXEC);
    assert_true(fx->fd >= 0);
    const uint64_t bytes = 16 << 20;
    write_pattern(fx->fd, bytes);
    long long before = zram_orig_data_size();
    assert_true(before >= (long long)bytes / 2);

    uint64_t cap;
    blk_purge(fx, &cap);
    assert_int_equal(cap, 64 << 20);
    long long after = zram_orig_data_size();
    printf("  zram0 orig_data_size %lld -> %lld\n", before, after);
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
        cmocka_unit_test(test_facts_tools_from_path),
        cmocka_unit_test_teardown(test_execute_sim_secure_erase, sim_teardown),
        cmocka_unit_test_teardown(test_execute_sim_discard_and_none, sim_teardown),
        cmocka_unit_test_setup_teardown(test_execute_file_discard, file_setup, file_teardown),
        cmocka_unit_test_setup_teardown(test_execute_loop_discard, blk_setup, blk_teardown),
        cmocka_unit_test_setup_teardown(test_execute_zram_discard, blk_setup, blk_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
