/* test_workload.c — workload keys, inline specs, profile files, target checks, canonical form. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/util.h"
#include "io/workload.h"
#include "helpers.h"

/* ---- helpers ------------------------------------------------------------------------ */

static void parse_ok(const char *spec, struct workload *wl)
{
    char err[ERR_LEN] = "";
    int rc = wl_parse_inline(spec, wl, err, sizeof err);
    if (rc != 0)
        print_error("wl_parse_inline(%s): %s\n", spec, err);
    assert_int_equal(rc, 0);
}

/* Parsing must fail with one line containing every non-NULL `want`. */
static void parse_bad(const char *spec, const char *want, const char *want2)
{
    char err[ERR_LEN] = "";
    struct workload wl;
    assert_int_equal(wl_parse_inline(spec, &wl, err, sizeof err), -1);
    if (!strstr(err, want) || (want2 && !strstr(err, want2)))
        print_error("spec '%s': got '%s', want '%s' and '%s'\n", spec, err, want,
                    want2 ? want2 : "");
    assert_non_null(strstr(err, want));
    if (want2)
        assert_non_null(strstr(err, want2));
    assert_null(strchr(err, '\n'));
}

static void write_file(const char *path, const char *text)
{
    FILE *fp = fopen(path, "w");
    assert_non_null(fp);
    fputs(text, fp);
    fclose(fp);
}

/* The I/O-defining fields (not name/description/source or the internal *_set flags). */
static void assert_same_io(const struct workload *a, const struct workload *b)
{
    assert_string_equal(a->rw, b->rw);
    assert_int_equal(a->read_pct, b->read_pct);
    assert_int_equal(a->random_pct, b->random_pct);
    assert_int_equal(a->n_bs, b->n_bs);
    for (unsigned i = 0; i < a->n_bs; i++) {
        assert_int_equal(a->bs[i].size, b->bs[i].size);
        assert_int_equal(a->bs[i].weight, b->bs[i].weight);
    }
    assert_int_equal(a->qd, b->qd);
    assert_int_equal(a->workers, b->workers);
    assert_int_equal(a->region, b->region);
    const struct wl_extent *ea[2] = {&a->offset, &a->size}, *eb[2] = {&b->offset, &b->size};
    for (int i = 0; i < 2; i++) {
        assert_int_equal(ea[i]->set, eb[i]->set);
        assert_int_equal(ea[i]->is_percent, eb[i]->is_percent);
        if (ea[i]->set && ea[i]->is_percent)
            assert_true(ea[i]->percent == eb[i]->percent);
        assert_int_equal(ea[i]->bytes, eb[i]->bytes);
    }
    assert_int_equal(a->compress_pct, b->compress_pct);
    assert_int_equal(a->round_time_ns, b->round_time_ns);
    assert_int_equal(a->round_bytes, b->round_bytes);
    assert_int_equal(a->seed, b->seed);
}

/* ---- defaults and the acceptance spec ------------------------------------------------ */

static void test_defaults(void **state)
{
    (void)state;
    struct workload wl;
    wl_init(&wl);
    assert_string_equal(wl.rw, "randread");
    assert_int_equal(wl.read_pct, 100);
    assert_int_equal(wl.random_pct, 100);
    assert_int_equal(wl.n_bs, 1);
    assert_int_equal(wl.bs[0].size, 4096);
    assert_int_equal(wl.bs[0].weight, 100);
    assert_int_equal(wl.qd, 1);
    assert_int_equal(wl.workers, 1);
    assert_int_equal(wl.region, WL_REGION_DEFAULT);
    assert_false(wl.offset.set);
    assert_false(wl.size.set);
    assert_int_equal(wl.compress_pct, 0);
    assert_int_equal(wl.round_time_ns, 0);
    assert_int_equal(wl.round_bytes, 0);
    assert_int_equal(wl.seed, 0x5054534245ull);
    assert_false(wl.rw_set || wl.mix_set || wl.random_set);

    char err[ERR_LEN];
    assert_int_equal(wl_validate(&wl, err, sizeof err), 0);
    assert_int_equal(wl.region, WL_REGION_SHARED);   /* random -> shared */
}

static void test_acceptance_inline(void **state)
{
    (void)state;
    struct workload wl;
    parse_ok("rw=randrw,rwmix=65,bs=4k,qd=32,workers=4,compress=90", &wl);
    assert_string_equal(wl.rw, "randrw");
    assert_int_equal(wl.read_pct, 65);
    assert_int_equal(wl.random_pct, 100);
    assert_int_equal(wl.n_bs, 1);
    assert_int_equal(wl.bs[0].size, 4096);
    assert_int_equal(wl.bs[0].weight, 100);
    assert_int_equal(wl.qd, 32);
    assert_int_equal(wl.workers, 4);
    assert_int_equal(wl.compress_pct, 90);
    assert_string_equal(wl.name, "inline");
    assert_string_equal(wl.source, "inline");
    assert_int_equal(wl.region, WL_REGION_SHARED);
    assert_int_equal(wl_min_bs(&wl), 4096);
    assert_int_equal(wl_max_bs(&wl), 4096);
    assert_true(wl_writes(&wl));

    /* validating again (run.c does) changes nothing */
    struct workload again = wl;
    char err[ERR_LEN];
    assert_int_equal(wl_validate(&again, err, sizeof err), 0);
    assert_same_io(&wl, &again);
}

static void test_aliases(void **state)
{
    (void)state;
    struct workload a, b;
    parse_ok("rw=randrw,rwmixread=70,bs=64k,iodepth=8,numjobs=2,buffer_compress_percentage=50,"
             "runtime=1m,round_bytes=1g,randseed=42,size=50%",
             &a);
    parse_ok(" readwrite = RandRW , rwmixwrite=30, blocksize=64KiB, qd=8, threads=2, "
             "compress=50%, round_time=60s, io_size=1GiB, seed=0x2a, range=50% ",
             &b);
    assert_same_io(&a, &b);
    assert_int_equal(a.read_pct, 70);
    assert_int_equal(a.bs[0].size, 65536);
    assert_int_equal(a.round_time_ns, 60000000000ull);
    assert_int_equal(a.round_bytes, 1ull << 30);
    assert_int_equal(a.seed, 42);
    assert_true(a.size.set && a.size.is_percent && a.size.percent == 50.0);

    parse_ok("workers=3", &a);
    assert_int_equal(a.workers, 3);
    parse_ok("name=web,description=a web server mix", &a);
    assert_string_equal(a.name, "web");
    assert_string_equal(a.description, "a web server mix");
}

/* ---- rw semantics ------------------------------------------------------------------- */

static void rw_is(const char *spec, const char *rw, unsigned read_pct, unsigned random_pct)
{
    struct workload wl;
    parse_ok(spec, &wl);
    assert_string_equal(wl.rw, rw);
    assert_int_equal(wl.read_pct, read_pct);
    assert_int_equal(wl.random_pct, random_pct);
}

static void test_rw_semantics(void **state)
{
    (void)state;
    rw_is("rw=read", "read", 100, 0);
    rw_is("rw=randread", "randread", 100, 100);
    rw_is("rw=write", "write", 0, 0);
    rw_is("rw=randwrite", "randwrite", 0, 100);
    rw_is("rw=rw", "rw", 50, 0);
    rw_is("rw=readwrite", "rw", 50, 0);
    rw_is("rw=randrw", "randrw", 50, 100);
    rw_is("rw=randrw,rwmixread=80", "randrw", 80, 100);
    rw_is("rwmixread=80,rw=randrw", "randrw", 80, 100);      /* order does not matter */
    rw_is("rw=rw,rwmixwrite=25", "rw", 75, 0);
    rw_is("rw=randrw,rwmixread=0", "randrw", 0, 100);
    rw_is("rw=randrw,percentage_random=25", "randrw", 50, 25);
    rw_is("percentage_random=25,rw=write", "write", 0, 25);
    rw_is("rw=read,percentage_random=10", "read", 100, 10);
    rw_is("bs=8k", "randread", 100, 100);                     /* default rw */

    struct workload wl;
    parse_ok("rw=read", &wl);
    assert_false(wl_writes(&wl));
    assert_int_equal(wl.region, WL_REGION_SPLIT);            /* sequential -> split */
    parse_ok("rw=write,percentage_random=10", &wl);
    assert_int_equal(wl.region, WL_REGION_SHARED);           /* any randomness -> shared */
    parse_ok("rw=randrw,percentage_random=0", &wl);
    assert_int_equal(wl.region, WL_REGION_SPLIT);
    parse_ok("rw=read,region=shared", &wl);
    assert_int_equal(wl.region, WL_REGION_SHARED);
    parse_ok("rw=randwrite,region=split", &wl);
    assert_int_equal(wl.region, WL_REGION_SPLIT);
}

static void test_rw_contradictions(void **state)
{
    (void)state;
    parse_bad("rw=randread,rwmixread=50", "rwmixread=50", "rw=randread");
    parse_bad("rw=write,rwmix=50", "rw=write", "use rw=rw");
    parse_bad("rwmixread=50,rw=randwrite", "rw=randwrite", "use rw=randrw");
    parse_bad("rwmixread=65", "rw=randread (the default)", NULL);

    /* wl_validate itself refuses the contradiction, whatever built the struct. */
    struct workload wl;
    char err[ERR_LEN];
    wl_init(&wl);
    assert_int_equal(wl_set(&wl, "rw", "randread", "test", err, sizeof err), 0);
    assert_int_equal(wl_set(&wl, "rwmixread", "50", "test", err, sizeof err), 0);
    assert_int_equal(wl_validate(&wl, err, sizeof err), -1);
    assert_non_null(strstr(err, "contradicts rw=randread"));
}

/* ---- bssplit ------------------------------------------------------------------------ */

static void test_bssplit(void **state)
{
    (void)state;
    struct workload wl;
    parse_ok("bssplit=512/10:4k/60:64k/30", &wl);
    assert_int_equal(wl.n_bs, 3);
    assert_int_equal(wl.bs[0].size, 512);
    assert_int_equal(wl.bs[0].weight, 10);
    assert_int_equal(wl.bs[1].size, 4096);
    assert_int_equal(wl.bs[1].weight, 60);
    assert_int_equal(wl.bs[2].size, 65536);
    assert_int_equal(wl.bs[2].weight, 30);
    assert_int_equal(wl_min_bs(&wl), 512);
    assert_int_equal(wl_max_bs(&wl), 65536);

    parse_ok("bssplit=4k/60:64k/", &wl);                      /* remainder */
    assert_int_equal(wl.n_bs, 2);
    assert_int_equal(wl.bs[1].size, 65536);
    assert_int_equal(wl.bs[1].weight, 40);

    parse_ok("bssplit=4k/50:8k:16k", &wl);                    /* remainder shared */
    assert_int_equal(wl.bs[1].weight, 25);
    assert_int_equal(wl.bs[2].weight, 25);

    parse_ok("bssplit=4k:8k:16k", &wl);                       /* 100 shared, odd one first */
    assert_int_equal(wl.bs[0].weight, 34);
    assert_int_equal(wl.bs[1].weight, 33);
    assert_int_equal(wl.bs[2].weight, 33);

    parse_ok("bssplit=1m", &wl);
    assert_int_equal(wl.n_bs, 1);
    assert_int_equal(wl.bs[0].weight, 100);

    parse_ok("bssplit=4k/100:8k/0", &wl);                     /* zero weight dropped */
    assert_int_equal(wl.n_bs, 1);
    assert_int_equal(wl.bs[0].size, 4096);

    parse_ok("bssplit=4k/50:8k/50,bs=16k", &wl);              /* later key wins */
    assert_int_equal(wl.n_bs, 1);
    assert_int_equal(wl.bs[0].size, 16384);
    parse_ok("bs=16k,bssplit= 4k/50 : 8k/50%", &wl);
    assert_int_equal(wl.n_bs, 2);
    assert_int_equal(wl.bs[1].weight, 50);

    char spec[1024] = "bssplit=";
    for (int i = 1; i <= 64; i++)
        snprintf(spec + strlen(spec), sizeof spec - strlen(spec), "%s%dk", i > 1 ? ":" : "", i);
    parse_ok(spec, &wl);
    assert_int_equal(wl.n_bs, 64);
    unsigned sum = 0;
    for (unsigned i = 0; i < wl.n_bs; i++)
        sum += wl.bs[i].weight;
    assert_int_equal(sum, 100);
    strcat(spec, ":65k");
    parse_bad(spec, "more than 64 entries", NULL);
}

static void test_bssplit_errors(void **state)
{
    (void)state;
    parse_bad("bssplit=512/10:4k/60:64k/28", "inline: bssplit weights sum to 98, want 100",
              "bssplit=512/10:4k/60:64k/28");
    parse_bad("bssplit=4k/60:64k/50", "weights sum to 110, want 100", NULL);
    parse_bad("bssplit=4k/60:64k/50:8k", "weights sum to 110, want 100", NULL);
    parse_bad("bssplit=4k/100:64k/", "no share left", NULL);
    parse_bad("bssplit=4k/50:4096/50", "block size 4096 appears twice", NULL);
    parse_bad("bssplit=4q/50:4k/50", "bssplit=4q/50:4k/50", "bad size '4q'");
    parse_bad("bssplit=4k/50::8k/50", "empty entry", NULL);
    parse_bad("bssplit=4k/50:8k/50:", "empty entry", NULL);
    parse_bad("bssplit=4k/x:8k/50", "bad percent 'x'", NULL);
    parse_bad("bssplit=4k/10.5:8k", "whole percent", NULL);
    parse_bad("bssplit=/50:8k/50", "entry without a size", NULL);
    parse_bad("bssplit=0/50:8k/50", "at least 1 byte", NULL);
}

/* ---- one-line errors naming the bad value -------------------------------------------- */

static void test_errors(void **state)
{
    (void)state;
    parse_bad("bs=4q", "inline: bs=4q: bad size '4q'", NULL);
    parse_bad("rwmix=150", "rwmix=150", NULL);
    parse_bad("rw=randrw,rwmixread=150", "rwmixread=150", NULL);
    parse_bad("rw=randrw,rwmixread=50.5", "rwmixread=50.5", "whole percent");
    parse_bad("foo=1", "unknown key 'foo'", NULL);
    parse_bad("qd=0", "qd=0", "out of range 1..65536");
    parse_bad("iodepth=65537", "iodepth=65537", NULL);
    parse_bad("workers=0", "workers=0", "out of range 1..1024");
    parse_bad("numjobs=2000", "numjobs=2000", NULL);
    parse_bad("compress=101", "compress=101", NULL);
    parse_bad("rw=bogus", "rw=bogus", "unknown rw mode");
    parse_bad("rw=trimread", "unknown rw mode", "randtrimwrite");   /* trims: test_trim.c */
    parse_bad("rw=randreadrandwrite", "unknown rw mode", NULL);
    parse_bad("bs=", "bs=: missing value", NULL);
    parse_bad("rw=randrw,qd32", "'qd32'", "missing '='");
    parse_bad("rw=randrw,,qd=2", "empty item", NULL);
    parse_bad("", "empty workload spec", NULL);
    parse_bad("=4k", "missing key", NULL);
    parse_bad("bs=0", "bs=0", NULL);
    parse_bad("bs=2g", "bs=2g", "larger than 1GiB");
    parse_bad("region=middle", "region=middle", "shared or split");
    parse_bad("offset=100%", "offset=100%", NULL);
    parse_bad("offset=10q", "offset=10q", NULL);
    parse_bad("size=0", "size=0", NULL);
    parse_bad("size=0%", "size=0%", NULL);
    parse_bad("size=101%", "size=101%", NULL);
    parse_bad("offset=60%,size=50%", "offset=60% + size=50%", NULL);
    parse_bad("runtime=0", "runtime=0", NULL);
    parse_bad("runtime=5x", "runtime=5x", NULL);
    parse_bad("round_bytes=0", "round_bytes=0", NULL);
    parse_bad("seed=0xZZ", "seed=0xZZ", NULL);
    parse_bad("seed=0x", "seed=0x", NULL);
    parse_bad("seed=-1", "seed=-1", NULL);
    parse_bad("seed=0x10000000000000000", "does not fit", NULL);
    parse_bad("name=0123456789012345678901234567890123456789012345678901234567890123",
              "longer than 63", NULL);

    /* wl_set's own prefix and messages */
    struct workload wl;
    char err[ERR_LEN];
    wl_init(&wl);
    assert_int_equal(wl_set(&wl, "bs", "4q", "profiles/web.ini:12", err, sizeof err), -1);
    assert_string_equal(err, "profiles/web.ini:12: bs=4q: bad size '4q': unknown unit 'q'");
    assert_int_equal(wl_set(&wl, "frobnicate", "", "x.ini:3", err, sizeof err), -1);
    assert_string_equal(err, "x.ini:3: unknown key 'frobnicate' (fio has no such option "
                             "either)");
    assert_int_equal(wl.bs[0].size, 4096);                    /* untouched on error */
    /* fio's keys: a known one ptsbench does not do is one line naming it and why */
    assert_int_equal(wl_set(&wl, "verify", "md5", "j.fio:7", err, sizeof err), -1);
    assert_string_equal(err, "j.fio:7: verify: data verification is not supported (ptsbench "
                             "measures performance)");
    assert_int_equal(wl_set(&wl, "verify_backlog", "16", "j.fio:8", err, sizeof err), -1);
    assert_non_null(strstr(err, "verify_backlog: data verification"));
    assert_int_equal(wl_set(&wl, "direct", "0", "j.fio:9", err, sizeof err), 0);
    assert_true(wl.buffered);                /* direct=0: through the page cache, labelled */
    assert_int_equal(wl_set(&wl, "direct", "", "j.fio:9", err, sizeof err), 0);   /* a flag */
    assert_false(wl.buffered);
    assert_int_equal(wl_set(&wl, "buffered", "1", "j.fio:9", err, sizeof err), 0);
    assert_true(wl.buffered);
    assert_int_equal(wl_set(&wl, "direct", "2", "j.fio:9", err, sizeof err), -1);
    assert_non_null(strstr(err, "direct=2: want 1 or 0"));
    wl.buffered = false;
    assert_int_equal(wl_set(&wl, "iodepth", "", "j.fio:10", err, sizeof err), -1);
    assert_non_null(strstr(err, "iodepth=: missing value"));
}

/* ---- extents, durations, seeds ------------------------------------------------------- */

static void test_values(void **state)
{
    (void)state;
    struct workload wl;
    parse_ok("offset=1g,size=75%", &wl);
    assert_true(wl.offset.set && !wl.offset.is_percent);
    assert_int_equal(wl.offset.bytes, 1ull << 30);
    assert_true(wl.size.set && wl.size.is_percent && wl.size.percent == 75.0);

    parse_ok("offset=12.5%,size=4GB", &wl);
    assert_true(wl.offset.is_percent && wl.offset.percent == 12.5);
    assert_false(wl.size.is_percent);
    assert_int_equal(wl.size.bytes, 4000000000ull);

    parse_ok("offset=0", &wl);
    assert_true(wl.offset.set);
    assert_int_equal(wl.offset.bytes, 0);

    parse_ok("runtime=1h30m,round_bytes=32g,seed=0xDEADbeef", &wl);
    assert_int_equal(wl.round_time_ns, 5400ull * 1000000000ull);
    assert_int_equal(wl.round_bytes, 32ull << 30);
    assert_int_equal(wl.seed, 0xdeadbeefull);
    parse_ok("round_time=500ms,seed=18446744073709551615", &wl);
    assert_int_equal(wl.round_time_ns, 500000000ull);
    assert_int_equal(wl.seed, UINT64_MAX);
    parse_ok("seed=0", &wl);
    assert_int_equal(wl.seed, 0);
}

/* ---- profile files ------------------------------------------------------------------ */

struct tmpdirs {
    char a[64], b[64];
};

static int setup_dirs(void **state)
{
    struct tmpdirs *d = calloc(1, sizeof *d);
    if (!d)
        return -1;
    snprintf(d->a, sizeof d->a, "/tmp/test_wl_a_XXXXXX");
    snprintf(d->b, sizeof d->b, "/tmp/test_wl_b_XXXXXX");
    if (!mkdtemp(d->a) || !mkdtemp(d->b)) {
        free(d);
        return -1;
    }
    *state = d;
    return 0;
}

static int teardown_dirs(void **state)
{
    struct tmpdirs *d = *state;
    remove_tree(d->a);
    remove_tree(d->b);
    free(d);
    return 0;
}

static const char web_ini[] =
    "; web server profile\n"
    "[global]\n"
    "bs=4k\n"
    "iodepth=16\n"
    "\n"
    "[web]\n"
    "rw=randrw\n"
    "rwmixread=80\n"
    "bssplit=4k/70:64k/30\n"
    "\n"
    "[db]\n"
    "name=database\n"
    "rw=randwrite\n"
    "iodepth=64\n"
    "\n"
    "[broken]\n"
    "rw=randread\n"
    "bs=4q\n"
    "\n"
    "[contradiction]\n"
    "rw=randread\n"
    "rwmixread=50\n";

static void test_load_file(void **state)
{
    struct tmpdirs *d = *state;
    char path[128], err[ERR_LEN], want[256];
    snprintf(path, sizeof path, "%s/web.ini", d->a);
    write_file(path, web_ini);
    struct workload wl;

    assert_int_equal(wl_load_file(path, NULL, &wl, err, sizeof err), 0);  /* first section */
    assert_string_equal(wl.name, "web");
    snprintf(want, sizeof want, "%s:web", path);
    assert_string_equal(wl.source, want);
    assert_string_equal(wl.rw, "randrw");
    assert_int_equal(wl.read_pct, 80);
    assert_int_equal(wl.qd, 16);                                         /* from global */
    assert_int_equal(wl.n_bs, 2);
    assert_int_equal(wl.bs[1].size, 65536);

    assert_int_equal(wl_load_file(path, "db", &wl, err, sizeof err), 0);
    assert_string_equal(wl.name, "database");
    assert_int_equal(wl.qd, 64);                                         /* section wins */
    assert_int_equal(wl.read_pct, 0);
    assert_int_equal(wl.n_bs, 1);
    assert_int_equal(wl.bs[0].size, 4096);

    assert_int_equal(wl_load_file(path, "broken", &wl, err, sizeof err), -1);
    snprintf(want, sizeof want, "%s:18: bs=4q: bad size '4q': unknown unit 'q'", path);
    assert_string_equal(err, want);

    assert_int_equal(wl_load_file(path, "contradiction", &wl, err, sizeof err), -1);
    snprintf(want, sizeof want, "%s:contradiction: ", path);
    assert_non_null(strstr(err, want));
    assert_non_null(strstr(err, "rw=randread"));

    assert_int_equal(wl_load_file(path, "nosuch", &wl, err, sizeof err), -1);
    assert_non_null(strstr(err, "[nosuch]"));
    assert_non_null(strstr(err, path));
    assert_non_null(strstr(err, "web, db"));

    /* ini syntax errors keep their line */
    snprintf(path, sizeof path, "%s/bad.ini", d->a);
    write_file(path, "[x]\nbs=4k\n[y\n");
    assert_int_equal(wl_load_file(path, NULL, &wl, err, sizeof err), -1);
    snprintf(want, sizeof want, "%s:3: missing ']'", path);
    assert_string_equal(err, want);

    /* keys only (no section): the global keys are the workload, named after the file */
    snprintf(path, sizeof path, "%s/plain.ini", d->a);
    write_file(path, "rw=write\nbs=128k\n");
    assert_int_equal(wl_load_file(path, NULL, &wl, err, sizeof err), 0);
    assert_string_equal(wl.name, "plain");
    assert_string_equal(wl.source, path);
    assert_int_equal(wl.bs[0].size, 131072);
    assert_int_equal(wl.read_pct, 0);

    snprintf(path, sizeof path, "%s/empty.ini", d->a);
    write_file(path, "; nothing\n");
    assert_int_equal(wl_load_file(path, NULL, &wl, err, sizeof err), -1);
    assert_non_null(strstr(err, "no workload"));

    assert_int_equal(wl_load_file("/nonexistent/x.ini", NULL, &wl, err, sizeof err), -1);
    assert_non_null(strstr(err, "/nonexistent/x.ini"));
}

static void test_resolve(void **state)
{
    struct tmpdirs *d = *state;
    char path[128], spec[160], err[ERR_LEN], want[256];
    snprintf(path, sizeof path, "%s/web.ini", d->b);
    write_file(path, web_ini);
    snprintf(path, sizeof path, "%s/seq.ini", d->a);
    write_file(path, "[seq]\nrw=read\nbs=1m\n");
    const char *const dirs[] = {d->a, d->b, NULL};
    struct workload wl;

    assert_int_equal(wl_resolve("rw=randwrite,bs=8k", dirs, &wl, err, sizeof err), 0);
    assert_string_equal(wl.source, "inline");
    assert_int_equal(wl.bs[0].size, 8192);

    assert_int_equal(wl_resolve(path, dirs, &wl, err, sizeof err), 0);  /* a file path */
    assert_string_equal(wl.name, "seq");
    assert_int_equal(wl.bs[0].size, 1048576);

    snprintf(path, sizeof path, "%s/web.ini", d->b);
    snprintf(spec, sizeof spec, "%s:db", path);                         /* file:section */
    assert_int_equal(wl_resolve(spec, dirs, &wl, err, sizeof err), 0);
    assert_string_equal(wl.name, "database");
    assert_string_equal(wl.source, spec);

    assert_int_equal(wl_resolve("web", dirs, &wl, err, sizeof err), 0); /* name, 2nd dir */
    assert_string_equal(wl.name, "web");
    snprintf(want, sizeof want, "%s/web.ini:web", d->b);
    assert_string_equal(wl.source, want);

    assert_int_equal(wl_resolve("web:db", dirs, &wl, err, sizeof err), 0);
    assert_string_equal(wl.name, "database");
    assert_int_equal(wl.qd, 64);

    assert_int_equal(wl_resolve("seq", dirs, &wl, err, sizeof err), 0);  /* first dir */
    assert_string_equal(wl.rw, "read");

    assert_int_equal(wl_resolve("web:nosuch", dirs, &wl, err, sizeof err), -1);
    assert_non_null(strstr(err, "[nosuch]"));

    assert_int_equal(wl_resolve("missing", dirs, &wl, err, sizeof err), -1);
    assert_non_null(strstr(err, "'missing'"));
    assert_non_null(strstr(err, d->a));
    assert_non_null(strstr(err, d->b));

    assert_int_equal(wl_resolve("missing", NULL, &wl, err, sizeof err), -1);
    assert_non_null(strstr(err, "'missing'"));
    assert_int_equal(wl_resolve("", dirs, &wl, err, sizeof err), -1);
    assert_int_equal(wl_resolve("bs=4q", dirs, &wl, err, sizeof err), -1);
    assert_non_null(strstr(err, "bs=4q"));
}

/* ---- target checks ------------------------------------------------------------------ */

static int check(const char *spec, uint64_t capacity, uint32_t sector, struct wl_range *r,
                 char *err, size_t errlen)
{
    struct workload wl;
    parse_ok(spec, &wl);
    return wl_check_target(&wl, capacity, sector, "/dev/zram5", r, err, errlen);
}

static void check_bad(const char *spec, uint64_t capacity, uint32_t sector, const char *want,
                      const char *want2)
{
    char err[ERR_LEN] = "";
    struct wl_range r = {7, 7};
    assert_int_equal(check(spec, capacity, sector, &r, err, sizeof err), -1);
    if (!strstr(err, want) || (want2 && !strstr(err, want2)))
        print_error("spec '%s': got '%s'\n", spec, err);
    assert_non_null(strstr(err, want));
    if (want2)
        assert_non_null(strstr(err, want2));
    assert_int_equal(r.start, 7);
}

static void test_check_target(void **state)
{
    (void)state;
    const uint64_t gib = 1ull << 30;
    char err[ERR_LEN] = "";
    struct wl_range r;

    assert_int_equal(check("bs=4k", gib, 512, &r, err, sizeof err), 0);
    assert_int_equal(r.start, 0);
    assert_int_equal(r.len, gib);

    assert_int_equal(check("offset=1g,size=2g", 4 * gib, 4096, &r, err, sizeof err), 0);
    assert_int_equal(r.start, gib);
    assert_int_equal(r.len, 2 * gib);

    assert_int_equal(check("offset=1g", 4 * gib, 4096, &r, err, sizeof err), 0);
    assert_int_equal(r.len, 3 * gib);                     /* default size: to the end */

    /* percents round down to the sector: 10% of 1000 sectors of 4k = 100 sectors;
     * 33% of 1000 sectors = 330 sectors; 1/3 of 1001 sectors rounds down */
    assert_int_equal(check("offset=10%,size=33%", 1000 * 4096, 4096, &r, err, sizeof err), 0);
    assert_int_equal(r.start, 100 * 4096);
    assert_int_equal(r.len, 330 * 4096);
    assert_int_equal(check("offset=12.5%,size=75%", 1001 * 4096, 4096, &r, err, sizeof err), 0);
    assert_int_equal(r.start, 125 * 4096);              /* 125.125 sectors */
    assert_int_equal(r.len, 750 * 4096);                /* 750.75 sectors */
    assert_int_equal(check("size=100%", 1001 * 4096 + 100, 4096, &r, err, sizeof err), 0);
    assert_int_equal(r.len, 1001 * 4096);
    assert_int_equal(check("offset=50%", 1001 * 4096, 4096, &r, err, sizeof err), 0);
    assert_int_equal(r.start, 500 * 4096);
    assert_int_equal(r.len, 501 * 4096);

    check_bad("bs=512", gib, 4096,
              "bs=512 is not a multiple of the 4096-byte logical sector size of /dev/zram5", NULL);
    check_bad("bssplit=4k/50:6k/50", gib, 4096, "6144", "4096-byte logical sector");
    check_bad("offset=1000", gib, 512, "offset=1000", "512-byte logical sector");
    check_bad("size=1000000", gib, 4096, "size=1000000", NULL);
    check_bad("offset=1g,size=2g", 2 * gib, 4096, "target smaller than the active range",
              "2147483648");
    check_bad("offset=1g,size=2g", 2 * gib, 4096, "offset=1GiB", "capacity");
    check_bad("offset=4g", 2 * gib, 4096, "target smaller than the active range", "4294967296");
    check_bad("size=4g", 2 * gib, 4096, "target smaller than the active range", NULL);

    /* one block of the largest size per worker when split, at least one overall */
    assert_int_equal(check("rw=write,bs=64k,workers=4,size=256k", gib, 4096, &r, err,
                           sizeof err), 0);
    check_bad("rw=write,bs=64k,workers=4,size=252k", gib, 4096, "4 workers", "65536-byte");
    check_bad("rw=write,bssplit=4k/90:128k/10,workers=2,size=128k", gib, 4096, "2 workers",
              "131072-byte");
    assert_int_equal(check("rw=randwrite,bs=64k,workers=4,size=64k", gib, 4096, &r, err,
                           sizeof err), 0);                         /* shared */
    check_bad("rw=randwrite,bs=64k,size=60k", gib, 4096, "smaller than one 65536-byte block",
              NULL);
    check_bad("rw=write,bs=64k,workers=4,size=64k,region=shared", gib, 4096 * 32,
              "is not a multiple", NULL);
    check_bad("bs=4k", 2048, 512, "smaller than one 4096-byte block", NULL);

    struct workload wl;
    parse_ok("bs=4k", &wl);
    assert_int_equal(wl_check_target(&wl, gib, 0, "t", &r, err, sizeof err), -1);
    assert_int_equal(wl_check_target(&wl, 0, 512, "t", &r, err, sizeof err), -1);
    assert_int_equal(wl_check_target(&wl, gib, 512, "t", NULL, err, sizeof err), 0);
}

/* ---- canonical form ----------------------------------------------------------------- */

static void round_trip(const char *spec)
{
    struct workload a, b;
    char buf[1024], again[1024];
    parse_ok(spec, &a);
    wl_format(&a, buf, sizeof buf);
    parse_ok(buf, &b);
    assert_same_io(&a, &b);
    wl_format(&b, again, sizeof again);
    assert_string_equal(buf, again);                     /* canonical: a fixed point */
}

static void test_format(void **state)
{
    (void)state;
    struct workload wl;
    char buf[1024];
    parse_ok("rw=randrw,rwmix=65,bs=4k,qd=32,workers=4,compress=90", &wl);
    wl_format(&wl, buf, sizeof buf);
    assert_string_equal(buf, "rw=randrw,rwmixread=65,bs=4k,iodepth=32,numjobs=4,"
                             "region=shared,buffer_compress_percentage=90,"
                             "randseed=0x5054534245");

    parse_ok("rw=read,bssplit=512/10:4k/60:64k/30,offset=12.5%,size=1g,runtime=1h30m,"
             "round_bytes=1536,seed=7",
             &wl);
    wl_format(&wl, buf, sizeof buf);
    assert_string_equal(buf, "rw=read,bssplit=512/10:4k/60:64k/30,iodepth=1,numjobs=1,"
                             "region=split,offset=12.5%,size=1g,buffer_compress_percentage=0,"
                             "runtime=1h30m,round_bytes=1536,randseed=0x7");

    round_trip("rw=randrw,rwmix=65,bs=4k,qd=32,workers=4,compress=90");
    round_trip("bs=4k");
    round_trip("rw=write");
    round_trip("rw=rw,rwmixwrite=30,percentage_random=20,region=shared");
    round_trip("rw=randread,percentage_random=0");
    round_trip("bssplit=512/10:4k/60:64k/30,offset=0.1%,size=33.333%");
    round_trip("bssplit=4k:8k:16k,offset=1g,size=3TB,runtime=1.5s,round_bytes=4000000");
    round_trip("rw=randwrite,runtime=2d,round_time=90061001001001ns,seed=18446744073709551615");
    round_trip("offset=0,size=100%,bs=1536,iodepth=65536,numjobs=1024,compress=100");

    /* a short buffer truncates without overflowing */
    char tiny[8];
    wl_format(&wl, tiny, sizeof tiny);
    assert_string_equal(tiny, "rw=read");
}

/* random_map: once (default), always, off; fio's norandommap as a flag or =1 / =0. */
static void test_random_map(void **state)
{
    (void)state;
    struct workload wl;
    parse_ok("rw=randwrite", &wl);
    assert_int_equal(wl.random_map, WL_RANDOM_MAP_ONCE);
    parse_ok("rw=randwrite,random_map=always", &wl);
    assert_int_equal(wl.random_map, WL_RANDOM_MAP_ALWAYS);
    parse_ok("rw=randwrite,norandommap=1", &wl);
    assert_int_equal(wl.random_map, WL_RANDOM_MAP_OFF);
    parse_ok("rw=randwrite,norandommap=0", &wl);
    assert_int_equal(wl.random_map, WL_RANDOM_MAP_ALWAYS);
    char buf[512], err[ERR_LEN];
    parse_ok("rw=randwrite,random_map=off", &wl);
    wl_format(&wl, buf, sizeof buf);
    assert_non_null(strstr(buf, "random_map=off"));
    struct workload again;
    parse_ok(buf, &again);
    assert_int_equal(again.random_map, WL_RANDOM_MAP_OFF);
    assert_int_equal(wl_parse_inline("rw=randwrite,random_map=sometimes", &wl, err, sizeof err), -1);
    assert_non_null(strstr(err, "random_map=sometimes"));
}

/* Profile keys: sweep lists and precondition. */
static void test_sweep_keys(void **state)
{
    (void)state;
    struct workload wl;
    parse_ok("rw=randrw,bs=8k,sweep_qd=1:2:4:128,sweep_workers=1:4,sweep_compress=0:90,"
             "precondition=wipc", &wl);
    assert_int_equal(wl.sweep_qd.n, 4);
    assert_int_equal(wl.sweep_qd.v[3], 128);
    assert_int_equal(wl.sweep_workers.n, 2);
    assert_int_equal(wl.sweep_workers.v[1], 4);
    assert_int_equal(wl.sweep_compress.v[1], 90);
    assert_int_equal(wl.precondition, WL_PRECOND_WIPC);
    parse_bad("sweep_qd=1:0", "sweep_qd=1:0", "bad value '0'");
    parse_bad("sweep_compress=0:101", "sweep_compress=0:101", "'101'");
    parse_bad("sweep_workers=1:1", "sweep_workers=1:1", "listed twice");
    parse_bad("precondition=hot", "precondition=hot", "want steady, wipc or none");
    struct wl_sweep sw;
    char why[256];
    assert_int_equal(wl_sweep_parse("1,2, 4", 1, 8, &sw, why, sizeof why), 0);
    assert_int_equal(sw.n, 3);
    assert_int_equal(wl_sweep_parse("", 1, 8, &sw, why, sizeof why), -1);
}

/* Fitting sub-sector block sizes to a 4Kn device. */
static void test_fit_sector(void **state)
{
    (void)state;
    struct workload wl;
    char what[160];
    parse_ok("bssplit=512/22:1k/15:2k/8:4k/23:8k/15:16k/2:32k/6:64k/7:128k/1:512k/1", &wl);
    assert_int_equal(wl_fit_sector(&wl, 512, what, sizeof what), 0);
    assert_int_equal(wl.n_bs, 10);
    assert_int_equal(wl_fit_sector(&wl, 4096, what, sizeof what), 1);
    assert_string_equal(what, "512, 1k, 2k (45% of I/Os) raised to 4k");
    assert_int_equal(wl.n_bs, 7);
    assert_int_equal(wl.bs[0].size, 4096);
    assert_int_equal(wl.bs[0].weight, 68);
    unsigned sum = 0;
    for (unsigned i = 0; i < wl.n_bs; i++)
        sum += wl.bs[i].weight;
    assert_int_equal(sum, 100);
    char err[256];
    assert_int_equal(wl_validate(&wl, err, sizeof err), 0);
    /* no 4k entry: the raised share goes first */
    parse_ok("bssplit=512/50:8k/50", &wl);
    assert_int_equal(wl_fit_sector(&wl, 4096, what, sizeof what), 1);
    assert_int_equal(wl.n_bs, 2);
    assert_int_equal(wl.bs[0].size, 4096);
    assert_int_equal(wl.bs[0].weight, 50);
    assert_int_equal(wl.bs[1].size, 8192);
    /* one size below the sector cannot be fitted */
    parse_ok("rw=read,bs=512", &wl);
    assert_int_equal(wl_fit_sector(&wl, 4096, what, sizeof what), -1);
    assert_non_null(strstr(what, "below the 4k logical sector"));
    assert_int_equal(wl.bs[0].size, 512);
}

/* ---- fio job files ------------------------------------------------------------------ */

static void fio_ok(const char *path, const char *section, struct workload *wl)
{
    char err[ERR_LEN] = "";
    int rc = wl_load_fio(path, section, wl, err, sizeof err);
    if (rc)
        print_error("%s [%s]: %s\n", path, section ? section : "-", err);
    assert_int_equal(rc, 0);
}

static void fio_bad(const char *path, const char *section, const char *want)
{
    char err[ERR_LEN] = "";
    struct workload wl;
    assert_int_equal(wl_load_fio(path, section, &wl, err, sizeof err), -1);
    if (!strstr(err, want))
        print_error("%s: got '%s', want '%s'\n", path, err, want);
    assert_non_null(strstr(err, want));
    assert_null(strchr(err, '\n'));
}

static void test_fio_job_files(void **state)
{
    struct tmpdirs *d = *state;
    char p[256];
    struct workload wl;

    /* a user's file as fio reads it: bare flags, 4KB is 4096 (kb_base=1024, fio's default) */
    snprintf(p, sizeof p, "%s/one.fio", d->a);
    write_file(p, "[global]\nioengine=libaio\ndirect=1\ntime_based\nruntime=30\n"
                  "ramp_time=5s\ngroup_reporting\nthread\npercentile_list=99:99.99\n\n"
                  "[job]\nrw=randrw\nrwmixread=70\nbs=4KB\niodepth=16\nnumjobs=2\n"
                  "size=1g\noffset=1mi\nrandom_distribution=zipf:1.2\nrate_iops=500\n"
                  "iodepth_batch_submit=4\niodepth_batch_complete_min=2\n"
                  "filename=/dev/nvme9n9\n");
    fio_ok(p, NULL, &wl);
    assert_true(wl.fio);
    assert_int_equal(wl.bs[0].size, 4096);
    assert_int_equal(wl.size.bytes, 1ull << 30);
    assert_int_equal(wl.offset.bytes, 1000000);           /* 1mi: decimal in fio's default */
    assert_string_equal(wl.engine, "libaio");
    assert_string_equal(wl.filename, "/dev/nvme9n9");
    assert_true(wl.time_based);
    assert_int_equal(wl.round_time_ns, 30000000000ull);
    assert_int_equal(wl.ramp_ns, 5000000000ull);
    assert_int_equal(wl.qd, 16);
    assert_int_equal(wl.workers, 2);
    assert_int_equal(wl.read_pct, 70);
    assert_int_equal(wl.dist, WL_DIST_ZIPF);
    assert_true(wl.dist_param == 1.2);
    assert_int_equal(wl.random_map, WL_RANDOM_MAP_OFF);  /* as fio: no map with a skew */
    assert_int_equal(wl.rate_iops, 500);
    assert_int_equal(wl.batch_submit, 4);
    assert_int_equal(wl.batch_complete_min, 2);
    assert_string_equal(wl.name, "job");

    /* thinktime: at iodepth 1 (fio's depth with a think time, whatever iodepth says) */
    snprintf(p, sizeof p, "%s/think.fio", d->a);
    write_file(p, "[j]\nioengine=libaio\ndirect=1\nrw=randread\nthinktime=250\n");
    fio_ok(p, NULL, &wl);
    assert_int_equal(wl.thinktime_ns, 250000);           /* a bare number: microseconds */
    write_file(p, "[j]\nioengine=libaio\ndirect=1\nrw=randread\nthinktime=250\niodepth=4\n");
    fio_bad(p, NULL, "thinktime with iodepth=4: fio (thinktime_blocks=1) waits for every I/O");

    /* kb_base=1000: the SI spelling decimal, the IEC one binary, whatever the line order */
    snprintf(p, sizeof p, "%s/si.fio", d->a);
    write_file(p, "[j]\ndirect=1\nbs=4KB\nsize=1KiB\nbssplit=4k/50:8KiB/50\nkb_base=1000\n");
    fio_ok(p, NULL, &wl);
    assert_int_equal(wl.n_bs, 2);
    assert_int_equal(wl.bs[0].size, 4000);
    assert_int_equal(wl.bs[1].size, 8192);
    assert_int_equal(wl.size.bytes, 1024);

    /* a synchronous engine: one I/O at a time per job, said in the note */
    snprintf(p, sizeof p, "%s/sync.fio", d->a);
    write_file(p, "[j]\nioengine=psync\ndirect=1\niodepth=32\nrw=randread\n");
    fio_ok(p, NULL, &wl);
    assert_int_equal(wl.qd, 1);
    assert_string_equal(wl.engine, "");
    assert_non_null(strstr(wl.note, "ioengine=psync"));

    /* fio's defaults: its random map, every job over the whole range (sequential too), rw=read,
     * ioengine=psync (one I/O at a time per job, said in the note); no direct=1 is refused
     * (fio would have used the page cache) */
    snprintf(p, sizeof p, "%s/seq.fio", d->a);
    write_file(p, "[j]\nrw=read\nnumjobs=4\n");   /* fio's default: buffered, labelled */
    fio_ok(p, NULL, &wl);
    assert_true(wl.buffered);
    write_file(p, "[j]\ndirect=1\nnumjobs=4\niodepth=32\n");
    fio_ok(p, NULL, &wl);
    assert_string_equal(wl.rw, "read");
    assert_int_equal(wl.random_pct, 0);
    assert_int_equal(wl.region, WL_REGION_SHARED);
    assert_int_equal(wl.random_map, WL_RANDOM_MAP_ALWAYS);
    assert_true(wl.sync_engine);
    assert_int_equal(wl.qd, 1);
    assert_non_null(strstr(wl.note, "no ioengine: fio's default psync"));
    struct workload native;
    char err0[ERR_LEN];
    assert_int_equal(wl_parse_inline("rw=read,numjobs=4", &native, err0, sizeof err0), 0);
    assert_int_equal(native.region, WL_REGION_SPLIT);      /* ptsbench's own default */
    assert_int_equal(native.random_map, WL_RANDOM_MAP_ONCE);

    /* a random bssplit: the declared sizes (fio's map would cut I/Os short), said */
    snprintf(p, sizeof p, "%s/split.fio", d->a);
    write_file(p, "[j]\nioengine=io_uring\ndirect=1\nrw=randread\nbssplit=4k/50:64k/50\n");
    fio_ok(p, NULL, &wl);
    assert_int_equal(wl.random_map, WL_RANDOM_MAP_OFF);
    assert_non_null(strstr(wl.note, "as fio with norandommap"));
    assert_null(strstr(wl.note, "direct"));
    write_file(p, "[j]\nioengine=io_uring\ndirect=1\nrw=randread\nbssplit=4k/50:64k/50\n"
                  "norandommap\n");
    fio_ok(p, NULL, &wl);
    assert_int_equal(wl.random_map, WL_RANDOM_MAP_OFF);
    assert_string_equal(wl.note, "");

    /* several jobs: one named, or an error naming them */
    snprintf(p, sizeof p, "%s/two.fio", d->a);
    write_file(p, "[global]\nbs=8k\ndirect=1\n[reads]\nrw=randread\n[writes]\nrw=randwrite\n");
    fio_bad(p, NULL, "2 jobs (sections global, reads, writes)");
    fio_ok(p, "writes", &wl);
    assert_string_equal(wl.rw, "randwrite");
    assert_int_equal(wl.bs[0].size, 8192);
    char spec[300];
    snprintf(spec, sizeof spec, "%s:reads", p);   /* --workload FILE.fio:SECTION */
    char err[ERR_LEN];
    assert_int_equal(wl_resolve(spec, NULL, &wl, err, sizeof err), 0);
    assert_string_equal(wl.rw, "randread");
    assert_true(wl.fio);

    /* what is refused, by name, one line */
    snprintf(p, sizeof p, "%s/verify.fio", d->a);
    write_file(p, "[j]\nrw=write\nverify=crc32c\n");
    fio_bad(p, NULL, "verify: data verification is not supported");
    snprintf(p, sizeof p, "%s/mmap.fio", d->a);
    write_file(p, "[j]\nioengine=mmap\n");
    fio_bad(p, NULL, "ioengine=mmap: ioengine 'mmap' is not one ptsbench runs");
    snprintf(p, sizeof p, "%s/pct.fio", d->a);
    write_file(p, "[j]\npercentile_list=99.5\n");
    fio_bad(p, NULL, "99.5 is not one ptsbench records");
    snprintf(p, sizeof p, "%s/bsrw.fio", d->a);
    write_file(p, "[j]\nbs=4k,64k\nblockalign=8k,16k\n");   /* sizes per direction: taken */
    fio_bad(p, NULL, "different read and write alignments are not supported");
    snprintf(p, sizeof p, "%s/unknown.fio", d->a);
    write_file(p, "[j]\nfrobnicate=1\n");
    fio_bad(p, NULL, "unknown key 'frobnicate'");
    snprintf(p, sizeof p, "%s/dist.fio", d->a);
    write_file(p, "[j]\nrandom_distribution=pareto:1.5\n");
    fio_bad(p, NULL, "pareto h 1.5");
    snprintf(p, sizeof p, "%s/global.fio", d->a);
    write_file(p, "[global]\nbs=4k\n");
    fio_bad(p, NULL, "no job section");
}

/* run --help and profile --help print the keys from the rows: every key wl_set takes is there
 * (an alias beside its key, in brackets), each with a line of help. */
static void test_keys_printed_from_the_rows(void **state)
{
    (void)state;
    char *help = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&help, &len);
    assert_non_null(f);
    wl_keys_print(f, NULL);
    fclose(f);
    for (size_t i = 0; wl_key_at(i); i++) {
        char a[80], b[80], c[80], d[80], e[80], g[80];
        snprintf(a, sizeof a, "\n  %s ", wl_key_at(i));
        snprintf(g, sizeof g, "\n  %s\n", wl_key_at(i));   /* a name over 26: its own line */
        snprintf(b, sizeof b, "[%s]", wl_key_at(i));
        snprintf(c, sizeof c, "[%s,", wl_key_at(i));
        snprintf(d, sizeof d, ", %s]", wl_key_at(i));
        snprintf(e, sizeof e, ", %s,", wl_key_at(i));
        if (!strstr(help, a) && !strstr(help, b) && !strstr(help, c) && !strstr(help, d) &&
            !strstr(help, e) && !strstr(help, g) && strncmp(help, a + 1, strlen(a) - 1))
            fail_msg("%s is not in the keys' help", wl_key_at(i));
    }
    assert_non_null(strstr(help, "  iodepth [qd]               1..65536\n"
                                 "                             outstanding I/Os per worker\n"));
    assert_non_null(strstr(help, "  random_map                 once | always | off\n"));
    assert_non_null(strstr(help, "  verify                     refused\n"));
    free(help);
    /* the groups: profile --help prints the profile's four */
    f = open_memstream(&help, &len);
    wl_keys_print(f, "profile");
    fclose(f);
    assert_non_null(strstr(help, "  sweep_qd "));
    assert_non_null(strstr(help, "  precondition "));
    assert_null(strstr(help, "  bs "));
    free(help);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_keys_printed_from_the_rows),
        cmocka_unit_test(test_defaults),
        cmocka_unit_test(test_acceptance_inline),
        cmocka_unit_test(test_aliases),
        cmocka_unit_test(test_rw_semantics),
        cmocka_unit_test(test_rw_contradictions),
        cmocka_unit_test(test_bssplit),
        cmocka_unit_test(test_bssplit_errors),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_values),
        cmocka_unit_test_setup_teardown(test_load_file, setup_dirs, teardown_dirs),
        cmocka_unit_test_setup_teardown(test_resolve, setup_dirs, teardown_dirs),
        cmocka_unit_test(test_check_target),
        cmocka_unit_test(test_format),
        cmocka_unit_test(test_random_map),
        cmocka_unit_test(test_sweep_keys),
        cmocka_unit_test(test_fit_sector),
        cmocka_unit_test_setup_teardown(test_fio_job_files, setup_dirs, teardown_dirs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
