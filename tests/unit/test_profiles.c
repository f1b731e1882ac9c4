/* test_profiles.c — each shipped workload profile issues the I/O its definition says.
 *
 * The expected tables below are written from the definitions the profiles implement (the
 * Iometer access specifications as used by StorageReview and Tom's Hardware, StorageReview's
 * 2 MiB and QD-ramp tests, AnandTech's ATTO chart and four corners, the quick fio tests of
 * the OCZ Z-Drive R4 install post), not read back from the files: a wrong file fails here.
 * For each profile: load it with wl_load_file() from $PTSBENCH_DATADIR/profiles (default
 * "."), run the I/O generator for one worker over a 64 GiB target and compare the block-size
 * histogram (within 1 point), the read share (1 point), the random share (2 points; an I/O
 * is sequential when it starts where the previous one ended), the active span, queue depth,
 * workers, round time, data compressibility, sweep lists and precondition; then the same
 * section of the profile's fio job file (profiles/fio/NAME.fio) by the same tables. Then every
 * *.ini file in profiles/ loads every one of its sections, and its fio form has the same jobs,
 * each issuing the same workload. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/ini.h"
#include "io/iogen.h"
#include "lib/util.h"
#include "io/workload.h"

#define N_IOS 200000
#define GIB (1ull << 30)
#define TARGET_BYTES (64 * GIB)
#define SEC_NS 1000000000ull
#define MAX_ROWS 16

/* One profile section as defined. Block sizes in bytes with their share of I/Os in percent;
 * sweep lists end at the first 0 (sweep_compress lists start with 0, so they carry their own
 * count). */
struct expect {
    const char *file;            /* under profiles/ */
    const char *section;
    unsigned n_bs;
    uint32_t size[MAX_ROWS];
    double pct[MAX_ROWS];
    double read_pct, random_pct;
    unsigned qd, workers;
    uint64_t span;               /* active range on the 64 GiB target */
    uint64_t runtime_s;
    unsigned n_sweep_qd, sweep_qd[8];
    unsigned n_sweep_workers, sweep_workers[4];
    unsigned n_sweep_compress, sweep_compress[4];
    enum wl_precondition precondition;
};

static const char *datadir(void)
{
    const char *d = getenv("PTSBENCH_DATADIR");
    return d && *d ? d : ".";
}

static void profile_path(const char *file, char *buf, size_t len)
{
    snprintf(buf, len, "%s/profiles/%s", datadir(), file);
}

static void load(const char *file, const char *section, struct workload *wl)
{
    char path[1024], err[ERR_LEN] = "";
    profile_path(file, path, sizeof path);
    if (wl_load_file(path, section, wl, err, sizeof err) != 0)
        fail_msg("%s [%s]: %s (PTSBENCH_DATADIR=%s)", path, section ? section : "-", err,
                 datadir());
}

static void check_sweep(const char *what, const struct wl_sweep *got, unsigned n,
                        const unsigned *want)
{
    char buf[256] = "";
    size_t pos = 0;
    for (unsigned i = 0; i < got->n && pos < sizeof buf; i++)
        pos += (size_t)snprintf(buf + pos, sizeof buf - pos, "%s%u", i ? ":" : "", got->v[i]);
    print_message("  %-14s %s\n", what, got->n ? buf : "(none)");
    assert_int_equal(got->n, n);
    for (unsigned i = 0; i < n; i++)
        assert_int_equal(got->v[i], want[i]);
}

/* The fio form of a profile file: profiles/fio/NAME.fio for profiles/NAME.ini. */
static void fio_form(const char *file, char *buf, size_t len)
{
    char stem[256];
    snprintf(stem, sizeof stem, "%s", file);
    char *dot = strrchr(stem, '.');
    if (dot)
        *dot = '\0';
    snprintf(buf, len, "%s/profiles/fio/%s.fio", datadir(), stem);
}

/* The declared values every form carries, then what one worker issues: the block-size
 * histogram, read and random shares, all within the active range. */
static void check_issued(const struct expect *e, const struct workload *wl, const char *form,
                         int n_ios)
{
    print_message("%s [%s]: %s\n", form, e->section, wl->description);
    assert_true(wl->description[0] != '\0');
    assert_int_equal(wl->qd, e->qd);
    assert_int_equal(wl->workers, e->workers);
    assert_int_equal(wl->compress_pct, 0);
    assert_int_equal(wl->round_time_ns, e->runtime_s * SEC_NS);
    print_message("  qd %u, workers %u, runtime %llu s, compress %u%%, precondition %s\n",
                  wl->qd, wl->workers, (unsigned long long)(wl->round_time_ns / SEC_NS),
                  wl->compress_pct,
                  wl_precondition_name(wl->precondition) ? wl_precondition_name(wl->precondition)
                                                          : "(default)");

    /* The active range on a 64 GiB target with 512-byte sectors. */
    char err[ERR_LEN] = "";
    struct wl_range range;
    if (wl_check_target(wl, TARGET_BYTES, 512, "a 64 GiB target", &range, err, sizeof err))
        fail_msg("%s [%s]: %s", form, e->section, err);
    print_message("  span %.2f GiB (want %.2f GiB)\n", (double)range.len / GIB,
                  (double)e->span / GIB);
    assert_int_equal(range.start, 0);
    assert_int_equal(range.len, e->span);

    /* What one worker issues. */
    struct iogen g;
    iogen_init(&g, wl, &range, 0, 1, wl->seed);
    unsigned count[MAX_ROWS] = {0};
    unsigned reads = 0, seq = 0;
    uint64_t prev_end = UINT64_MAX;
    for (int i = 0; i < n_ios; i++) {
        uint8_t dir;
        uint32_t len;
        uint64_t off;
        iogen_next(&g, &dir, &len, &off);
        if (off < range.start || off + len > range.start + range.len)
            fail_msg("I/O %d: %u bytes at %llu outside the active range", i, len,
                     (unsigned long long)off);
        assert_int_equal(off % 512, 0);
        unsigned k = 0;
        while (k < e->n_bs && e->size[k] != len)
            k++;
        if (k == e->n_bs)
            fail_msg("I/O %d: block size %u is not in the definition", i, len);
        count[k]++;
        reads += dir == IOGEN_READ;
        seq += off == prev_end;
        prev_end = off + len;
    }
    for (unsigned k = 0; k < e->n_bs; k++) {
        double pct = 100.0 * count[k] / n_ios;
        print_message("  %7u B: %6.2f%% (want %g%%)\n", e->size[k], pct, e->pct[k]);
        assert_true(fabs(pct - e->pct[k]) <= 1.0);
    }
    double read = 100.0 * reads / n_ios, rnd = 100.0 - 100.0 * seq / n_ios;
    print_message("  reads  %6.2f%% (want %g%%)\n", read, e->read_pct);
    print_message("  random %6.2f%% (want %g%%) over %d I/Os\n", rnd, e->random_pct, n_ios);
    assert_true(fabs(read - e->read_pct) <= 1.0);
    assert_true(fabs(rnd - e->random_pct) <= 2.0);
}

/* Load e->file [e->section], check the declared values and the matrix, run the generator;
 * then the same for the section of the profile's fio form (profiles/fio/), which carries the
 * workload but not the matrix: the same issued mix, by fio's rules (kb_base, random map). */
static void check_profile(const struct expect *e, int n_ios)
{
    struct workload wl;
    load(e->file, e->section, &wl);
    check_issued(e, &wl, e->file, n_ios);
    check_sweep("sweep_qd", &wl.sweep_qd, e->n_sweep_qd, e->sweep_qd);
    check_sweep("sweep_workers", &wl.sweep_workers, e->n_sweep_workers, e->sweep_workers);
    check_sweep("sweep_compress", &wl.sweep_compress, e->n_sweep_compress, e->sweep_compress);
    assert_int_equal(wl.precondition, e->precondition);

    char path[1024], err[ERR_LEN] = "";
    fio_form(e->file, path, sizeof path);
    struct workload fio;
    if (wl_load_fio(path, e->section, &fio, err, sizeof err) != 0)
        fail_msg("%s [%s]: %s", path, e->section, err);
    assert_true(fio.fio);
    assert_int_equal(fio.sweep_qd.n + fio.sweep_workers.n + fio.sweep_compress.n, 0);
    check_issued(e, &fio, path, n_ios);
}

/* ---- the definitions --------------------------------------------------------------- */

#define SERVER_SWEEPS                                                                       \
    .qd = 32, .workers = 1, .span = TARGET_BYTES, .runtime_s = 60, .n_sweep_workers = 2,   \
    .sweep_workers = {1, 4}, .n_sweep_compress = 2, .sweep_compress = {0, 90},              \
    .precondition = WL_PRECOND_STEADY

/* Iometer Database (Intel): 8 KiB, 67% read, 100% random. */
static void test_database(void **state)
{
    (void)state;
    static const struct expect e = {
        .file = "database.ini", .section = "database",
        .n_bs = 1, .size = {8192}, .pct = {100},
        .read_pct = 67, .random_pct = 100, SERVER_SWEEPS,
    };
    check_profile(&e, N_IOS);
}

/* Iometer File Server (Intel): 80% read, 100% random. */
static void test_fileserver(void **state)
{
    (void)state;
    static const struct expect e = {
        .file = "fileserver.ini", .section = "fileserver",
        .n_bs = 8,
        .size = {512, 1024, 2048, 4096, 8192, 16384, 32768, 65536},
        .pct = {10, 5, 5, 60, 2, 4, 4, 10},
        .read_pct = 80, .random_pct = 100, SERVER_SWEEPS,
    };
    check_profile(&e, N_IOS);
}

/* Iometer Web Server (StorageReview / Tom's Hardware / X-bit labs): 100% read, 100% random. */
static void test_webserver(void **state)
{
    (void)state;
    static const struct expect e = {
        .file = "webserver.ini", .section = "webserver",
        .n_bs = 10,
        .size = {512, 1024, 2048, 4096, 8192, 16384, 32768, 65536, 131072, 524288},
        .pct = {22, 15, 8, 23, 15, 2, 6, 7, 1, 1},
        .read_pct = 100, .random_pct = 100, SERVER_SWEEPS,
    };
    check_profile(&e, N_IOS);
}

/* FioSynth's 4K_L2R6DWPD_wTRIM (facebookincubator/FioSynth wkldsuites/HE_Flash_Short_wTRIM_1H22,
 * commit d2c9d5784613aa08401cf4ec675562d00edf6d46): reads in the mix 4K 28, 8K 9, 16K 8, 32K 9,
 * 64K 11, 128K 35 %; writes of 512 KiB; here 89 % of I/Os reads (profiles/ocp-datacenter.ini
 * derives it from the OCP floors), all random, 1 x QD 16, 180 s rounds, steady state. Over all
 * I/Os: each read size x 0.89, 512 KiB 11 %. */
static void test_ocp_datacenter(void **state)
{
    (void)state;
    static const struct expect e = {
        .file = "ocp-datacenter.ini", .section = "ocp-4k-l2r6dwpd",
        .n_bs = 7,
        .size = {4096, 8192, 16384, 32768, 65536, 131072, 524288},
        .pct = {28 * 0.89, 9 * 0.89, 8 * 0.89, 9 * 0.89, 11 * 0.89, 35 * 0.89, 11},
        .read_pct = 89, .random_pct = 100, .qd = 16, .workers = 1, .span = TARGET_BYTES,
        .runtime_s = 180, .n_sweep_compress = 1, .sweep_compress = {0},
        .precondition = WL_PRECOND_STEADY,
    };
    check_profile(&e, N_IOS);
}

/* Iometer Workstation (StorageReview): 8 KiB, 80% read, 80% random. */
static void test_workstation(void **state)
{
    (void)state;
    static const struct expect e = {
        .file = "workstation.ini", .section = "workstation",
        .n_bs = 1, .size = {8192}, .pct = {100},
        .read_pct = 80, .random_pct = 80, SERVER_SWEEPS,
    };
    check_profile(&e, N_IOS);
}

/* Tom's Hardware Streaming Read / Write: 64K/128K/256K at 34/33/33%, sequential, QD 4. */
static void test_streaming(void **state)
{
    (void)state;
    static const char *const sections[] = {"streaming-read", "streaming-write"};
    for (int i = 0; i < 2; i++) {
        const struct expect e = {
            .file = "streaming.ini", .section = sections[i],
            .n_bs = 3, .size = {65536, 131072, 262144}, .pct = {34, 33, 33},
            .read_pct = i == 0 ? 100 : 0, .random_pct = 0,
            .qd = 4, .workers = 1, .span = TARGET_BYTES, .runtime_s = 60,
        };
        check_profile(&e, N_IOS);
    }
}

/* StorageReview 2 MiB sequential and random, read and write, QD 4. */
static void test_large_block(void **state)
{
    (void)state;
    static const struct {
        const char *section;
        double read_pct, random_pct;
    } s[] = {
        {"seq-2m-read", 100, 0},
        {"seq-2m-write", 0, 0},
        {"rand-2m-read", 100, 100},
        {"rand-2m-write", 0, 100},
    };
    for (size_t i = 0; i < sizeof s / sizeof s[0]; i++) {
        const struct expect e = {
            .file = "large-block.ini", .section = s[i].section,
            .n_bs = 1, .size = {2u << 20}, .pct = {100},
            .read_pct = s[i].read_pct, .random_pct = s[i].random_pct,
            .qd = 4, .workers = 1, .span = TARGET_BYTES, .runtime_s = 60,
        };
        check_profile(&e, N_IOS);
    }
}

/* StorageReview 4 KiB random read / write ramps: 4 workers x QD 1..64, steady state first. */
static void test_qd_ramp(void **state)
{
    (void)state;
    static const struct {
        const char *file, *section;
        double read_pct;
    } s[] = {
        {"qd-ramp-4k-read.ini", "qd-ramp-4k-read", 100},
        {"qd-ramp-4k-write.ini", "qd-ramp-4k-write", 0},
    };
    for (size_t i = 0; i < 2; i++) {
        const struct expect e = {
            .file = s[i].file, .section = s[i].section,
            .n_bs = 1, .size = {4096}, .pct = {100},
            .read_pct = s[i].read_pct, .random_pct = 100,
            .qd = 1, .workers = 4, .span = TARGET_BYTES, .runtime_s = 60,
            .n_sweep_qd = 7, .sweep_qd = {1, 2, 4, 8, 16, 32, 64},
            .n_sweep_workers = 1, .sweep_workers = {4},
            .precondition = WL_PRECOND_STEADY,
        };
        check_profile(&e, N_IOS);
    }
}

/* ATTO-style sweep: sequential at QD 4, 10 s, 0.5 KiB .. 8 MiB, read and write, no
 * preconditioning. Every section's values; the generator over a few of them. */
static const struct {
    const char *name;
    uint32_t bytes;
} atto_sizes[] = {
    {"0.5k", 512}, {"1k", 1024}, {"2k", 2048}, {"4k", 4096}, {"8k", 8192},
    {"16k", 16384}, {"32k", 32768}, {"64k", 65536}, {"128k", 131072}, {"256k", 262144},
    {"512k", 524288}, {"1m", 1u << 20}, {"2m", 2u << 20}, {"4m", 4u << 20}, {"8m", 8u << 20},
};
#define N_ATTO (sizeof atto_sizes / sizeof atto_sizes[0])

static void atto_expect(struct expect *e, char *section, size_t len, int write, size_t i)
{
    snprintf(section, len, "atto-%s-%s", write ? "write" : "read", atto_sizes[i].name);
    *e = (struct expect){
        .file = "atto.ini", .section = section,
        .n_bs = 1, .size = {atto_sizes[i].bytes}, .pct = {100},
        .read_pct = write ? 0 : 100, .random_pct = 0,
        .qd = 4, .workers = 1, .span = TARGET_BYTES, .runtime_s = 10,
        .precondition = WL_PRECOND_NONE,
    };
}

static void test_atto(void **state)
{
    (void)state;
    char section[64];
    struct expect e;
    /* every section: exactly one size, the direction, sequential, QD 4 */
    for (int w = 0; w < 2; w++)
        for (size_t i = 0; i < N_ATTO; i++) {
            atto_expect(&e, section, sizeof section, w, i);
            struct workload wl;
            load(e.file, section, &wl);
            assert_int_equal(wl.n_bs, 1);
            assert_int_equal(wl.bs[0].size, atto_sizes[i].bytes);
            assert_int_equal(wl.read_pct, w ? 0 : 100);
            assert_int_equal(wl.random_pct, 0);
            assert_int_equal(wl.qd, 4);
            assert_int_equal(wl.workers, 1);
            assert_int_equal(wl.compress_pct, 0);
            assert_int_equal(wl.round_time_ns, 10 * SEC_NS);
            assert_int_equal(wl.precondition, WL_PRECOND_NONE);
            assert_int_equal(wl.sweep_qd.n + wl.sweep_workers.n + wl.sweep_compress.n, 0);
        }
    print_message("atto.ini: %zu sections per direction, all as defined\n", N_ATTO);
    /* and the generator over a few: 0.5k read, 4k write, 128k read, 8m write */
    static const struct {
        int write;
        size_t i;
    } few[] = {{0, 0}, {1, 3}, {0, 8}, {1, 14}};
    for (size_t k = 0; k < sizeof few / sizeof few[0]; k++) {
        atto_expect(&e, section, sizeof section, few[k].write, few[k].i);
        check_profile(&e, N_IOS);
    }
}

/* AnandTech four corners: 4K random over 8 GiB at QD 3 for 3 min, 128K sequential over the
 * whole drive at QD 1 for 1 min, plus the QD 32 random write; fresh drive. */
static void test_four_corners(void **state)
{
    (void)state;
    static const struct {
        const char *section;
        uint32_t bs;
        double read_pct, random_pct;
        unsigned qd;
        uint64_t span, runtime_s;
    } s[] = {
        {"rand-4k-write", 4096, 0, 100, 3, 8 * GIB, 180},
        {"rand-4k-read", 4096, 100, 100, 3, 8 * GIB, 180},
        {"seq-128k-read", 131072, 100, 0, 1, TARGET_BYTES, 60},
        {"seq-128k-write", 131072, 0, 0, 1, TARGET_BYTES, 60},
        {"rand-4k-write-qd32", 4096, 0, 100, 32, 8 * GIB, 180},
    };
    for (size_t i = 0; i < sizeof s / sizeof s[0]; i++) {
        const struct expect e = {
            .file = "four-corners.ini", .section = s[i].section,
            .n_bs = 1, .size = {s[i].bs}, .pct = {100},
            .read_pct = s[i].read_pct, .random_pct = s[i].random_pct,
            .qd = s[i].qd, .workers = 1, .span = s[i].span, .runtime_s = s[i].runtime_s,
            .precondition = WL_PRECOND_NONE,
        };
        check_profile(&e, N_IOS);
    }
}

/* The quick fio tests of the OCZ Z-Drive R4 install post: sync I/O (QD 1), 10 s, 5 GiB. */
static void test_fio_quick(void **state)
{
    (void)state;
    static const struct {
        const char *section;
        uint32_t bs;
        double read_pct;
        unsigned jobs;
    } s[] = {
        {"randwrite-1m-4jobs", 1u << 20, 0, 4},
        {"randread-4k-64jobs", 4096, 100, 64},
        {"randread-1m-4jobs", 1u << 20, 100, 4},
        {"randwrite-4k-64jobs", 4096, 0, 64},
    };
    for (size_t i = 0; i < sizeof s / sizeof s[0]; i++) {
        const struct expect e = {
            .file = "fio-quick.ini", .section = s[i].section,
            .n_bs = 1, .size = {s[i].bs}, .pct = {100},
            .read_pct = s[i].read_pct, .random_pct = 100,
            .qd = 1, .workers = s[i].jobs, .span = 5 * GIB, .runtime_s = 10,
            .precondition = WL_PRECOND_NONE,
        };
        check_profile(&e, N_IOS);
    }
}

/* ---- every profile file loads ------------------------------------------------------ */

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* The fio form of one section issues what the profile's section issues: the same rw, mix,
 * block sizes, depth, workers, data, active range and round; only the matrix, the
 * preconditioning and the random map (fio's: a new permutation each pass) stay behind. */
static void same_workload(const char *path, const char *name, const struct workload *ini,
                          const struct workload *fio)
{
#define SAME(field)                                                                          \
    do {                                                                                     \
        if (ini->field != fio->field)                                                        \
            fail_msg("%s [%s]: %s is %llu in the .ini, %llu in the fio form", path, name,   \
                     #field, (unsigned long long)ini->field, (unsigned long long)fio->field);\
    } while (0)
    if (strcmp(ini->rw, fio->rw) != 0)
        fail_msg("%s [%s]: rw=%s in the .ini, rw=%s in the fio form", path, name, ini->rw,
                 fio->rw);
    SAME(read_pct);
    SAME(random_pct);
    SAME(n_bs);
    for (unsigned i = 0; i < ini->n_bs && i < fio->n_bs; i++) {
        SAME(bs[i].size);
        SAME(bs[i].weight);
    }
    SAME(qd);
    SAME(workers);
    SAME(compress_pct);
    SAME(round_time_ns);
    SAME(round_bytes);
    SAME(seed);
    SAME(dist);
    SAME(n_zones);
    /* the region only matters with several workers; fio's jobs share the range */
    if (ini->workers > 1)
        SAME(region);
    char err[ERR_LEN] = "";
    struct wl_range a, b;
    if (wl_check_target(ini, TARGET_BYTES, 512, "a 64 GiB target", &a, err, sizeof err) ||
        wl_check_target(fio, TARGET_BYTES, 512, "a 64 GiB target", &b, err, sizeof err))
        fail_msg("%s [%s]: %s", path, name, err);
    if (a.start != b.start || a.len != b.len)
        fail_msg("%s [%s]: active range %llu+%llu in the .ini, %llu+%llu in the fio form", path,
                 name, (unsigned long long)a.start, (unsigned long long)a.len,
                 (unsigned long long)b.start, (unsigned long long)b.len);
#undef SAME
}

/* Every section of one file loads and fits a 64 GiB target with 512-byte sectors, and its
 * fio form (fio_path, NULL for none) has the same job sections, each the same workload.
 * Returns the number of workloads. */
static unsigned load_all_sections(const char *path, const char *fio_path)
{
    char err[ERR_LEN] = "";
    struct ini_file f;
    if (ini_parse_file(path, &f, err, sizeof err) != 0)
        fail_msg("%s", err);
    unsigned n = 0;
    bool global_only = true;
    for (size_t i = 0; i < f.n_sections; i++)
        if (strcmp(f.sections[i].name, "global") != 0)
            global_only = false;
    for (size_t i = 0; i < f.n_sections; i++) {
        const char *name = f.sections[i].name;
        if (!global_only && strcmp(name, "global") == 0)
            continue;
        struct workload wl;
        struct wl_range range;
        if (wl_load_file(path, global_only ? NULL : name, &wl, err, sizeof err) != 0 ||
            wl_check_target(&wl, TARGET_BYTES, 512, "a 64 GiB target", &range, err,
                            sizeof err) != 0) {
            ini_free(&f);
            fail_msg("%s [%s]: %s", path, name, err);
        }
        if (fio_path) {
            struct workload fio;
            if (global_only)
                fail_msg("%s: a fio form needs a job section", path);
            if (wl_load_fio(fio_path, name, &fio, err, sizeof err) != 0)
                fail_msg("%s", err);
            same_workload(path, name, &wl, &fio);
        }
        n++;
    }
    if (fio_path) {   /* and no job in the fio form that the profile lacks */
        struct ini_file g;
        if (ini_parse_file(fio_path, &g, err, sizeof err) != 0)
            fail_msg("%s", err);
        for (size_t i = 0; i < g.n_sections; i++)
            if (strcmp(g.sections[i].name, "global") != 0 &&
                !ini_find_section(&f, g.sections[i].name))
                fail_msg("%s [%s]: no such section in %s", fio_path, g.sections[i].name, path);
        ini_free(&g);
    }
    ini_free(&f);
    return n;
}

static void test_all_profiles_load(void **state)
{
    (void)state;
    char dir[1024];
    profile_path("", dir, sizeof dir);
    DIR *d = opendir(dir);
    if (!d)
        fail_msg("cannot list %s (set PTSBENCH_DATADIR to the repository root)", dir);
    static const char *const shipped[] = {
        "database.ini", "fileserver.ini", "webserver.ini", "workstation.ini", "streaming.ini",
        "large-block.ini", "qd-ramp-4k-read.ini", "qd-ramp-4k-write.ini", "atto.ini",
        "four-corners.ini", "fio-quick.ini", "oltp.ini", "quick.ini",
    };
    enum { N_SHIPPED = sizeof shipped / sizeof shipped[0] };
    bool seen[N_SHIPPED] = {false};
    unsigned files = 0, workloads = 0;
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        if (de->d_name[0] == '.' || !ends_with(de->d_name, ".ini"))
            continue;
        char path[1400], fio[1400];
        struct stat st;
        snprintf(path, sizeof path, "%s%s", dir, de->d_name);
        if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
            continue;   /* profiles/devices/ and the like are not profiles */
        fio_form(de->d_name, fio, sizeof fio);
        if (stat(fio, &st) != 0)
            fail_msg("profiles/%s has no fio form (%s)", de->d_name, fio);
        unsigned n = load_all_sections(path, fio);
        print_message("  %-24s %3u workload%s, the same in fio/\n", de->d_name, n,
                      n == 1 ? "" : "s");
        assert_true(n > 0);
        files++;
        workloads += n;
        for (int i = 0; i < N_SHIPPED; i++)
            if (strcmp(de->d_name, shipped[i]) == 0)
                seen[i] = true;
    }
    closedir(d);
    print_message("%u profile files, %u workloads\n", files, workloads);
    for (int i = 0; i < N_SHIPPED; i++)
        if (!seen[i])
            fail_msg("profiles/%s is missing", shipped[i]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_database),
        cmocka_unit_test(test_fileserver),
        cmocka_unit_test(test_webserver),
        cmocka_unit_test(test_workstation),
        cmocka_unit_test(test_streaming),
        cmocka_unit_test(test_large_block),
        cmocka_unit_test(test_qd_ramp),
        cmocka_unit_test(test_atto),
        cmocka_unit_test(test_four_corners),
        cmocka_unit_test(test_fio_quick),
        cmocka_unit_test(test_ocp_datacenter),
        cmocka_unit_test(test_all_profiles_load),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
