/* test_verify.c — spec sheets against measured points (src/judge/verify.h): unit
 * normalisation, claim parsing (with `assumed`), the matching rule (like with like: block
 * size, pattern, read share, compressibility, threads x QD and drive state; assumed conditions
 * only order), "no comparable measurement" and its reasons, verdicts and tolerance edges, and
 * the shipped spec sheets in specs/, and which drive a sheet is of (verify_drive_match: preset,
 * preset with overrides, model, capacity, file target). Expected values are worked out by hand
 * in the comments. */
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

#include "lib/ini.h"
#include "read/measure.h"
#include "lib/util.h"
#include "judge/verify.h"

static void close_to(double got, double want)
{
    if (!(fabs(got - want) <= 1e-9 * fmax(1, fabs(want))))
        print_error("got %.12g, want %.12g\n", got, want);
    assert_true(fabs(got - want) <= 1e-9 * fmax(1, fabs(want)));
}

static struct verify_unit unit(const char *name)
{
    struct verify_unit u;
    if (verify_unit_parse(name, &u) != 0)
        fail_msg("unit '%s' not parsed", name);
    return u;
}

/* ---- units ---- */

static void test_units_throughput(void **state)
{
    (void)state;
    struct verify_unit mib = unit("MiB/s"), mb = unit("MB/s");
    /* 1000 MiB/s = 1000 x 2^20 B/s = 1048.576 MB/s */
    close_to(verify_to_base(1000, &mib), 1048.576);
    close_to(verify_from_base(1048.576, &mib), 1000);
    close_to(verify_to_base(1000, &mb), 1000);
    assert_string_equal(mb.name, "MB/s");
    assert_int_equal(mb.kind, VERIFY_KIND_THROUGHPUT);
    /* KiB/s = 1024 B/s, KB/s (and kB/s) = 1000 B/s */
    struct verify_unit kib = unit("KiB/s"), kb = unit("KB/s"), kb2 = unit("kB/s");
    close_to(verify_to_base(1, &kib), 0.001024);
    close_to(verify_to_base(1, &kb), 0.001);
    close_to(verify_to_base(1, &kb2), 0.001);
    assert_string_equal(kb2.name, "KB/s");
    /* GB/s decimal, GiB/s binary: 2.8 GB/s = 2800 MB/s; 1 GiB/s = 1073.741824 MB/s */
    struct verify_unit gb = unit("GB/s"), gib = unit("GiB/s");
    close_to(verify_to_base(2.8, &gb), 2800);
    close_to(verify_to_base(1, &gib), 1073.741824);
    /* bits are not bytes */
    struct verify_unit u;
    assert_int_equal(verify_unit_parse("Mb/s", &u), -1);
    assert_int_equal(verify_unit_parse("furlongs", &u), -1);
    assert_string_equal(verify_base_unit(VERIFY_KIND_THROUGHPUT), "MB/s");
}

static void test_units_latency_iops(void **state)
{
    (void)state;
    struct verify_unit us = unit("us"), ms = unit("ms"), s = unit("s"), ns = unit("ns");
    /* µs is the base; 1 ms = 1000 µs; 1 s = 10^6 µs; 1 ns = 0.001 µs */
    close_to(verify_to_base(1, &us), 1);
    close_to(verify_to_base(1.5, &ms), 1500);
    close_to(verify_to_base(2, &s), 2e6);
    close_to(verify_to_base(500, &ns), 0.5);
    close_to(verify_from_base(120, &ms), 0.12);
    /* every spelling of micro: ASCII u, MICRO SIGN, GREEK SMALL LETTER MU, usec */
    assert_string_equal(unit("\xc2\xb5s").name, "\xc2\xb5s");
    assert_string_equal(unit("\xce\xbcs").name, "\xc2\xb5s");
    assert_string_equal(unit("usec").name, "\xc2\xb5s");
    assert_int_equal(us.kind, VERIFY_KIND_LATENCY);
    /* IOPS and thousands of IOPS */
    struct verify_unit io = unit("IOPS"), kio = unit("K IOPS");
    close_to(verify_to_base(100, &kio), 100000);
    close_to(verify_to_base(100, &io), 100);
    assert_string_equal(unit("KIOPS").name, "K IOPS");
    assert_string_equal(unit("iops").name, "IOPS");
    assert_int_equal(kio.kind, VERIFY_KIND_IOPS);
}

static void test_quantities(void **state)
{
    (void)state;
    char err[ERR_LEN];
    double v;
    struct verify_unit u = unit("MB/s");
    bool has;
    /* "100K IOPS": K multiplies the number */
    assert_int_equal(verify_parse_quantity("100K IOPS", &v, &u, &has, err, sizeof(err)), 0);
    assert_true(has);
    close_to(v, 100000);
    assert_string_equal(u.name, "IOPS");
    /* "100 KIOPS": the unit carries the thousand, same base value */
    assert_int_equal(verify_parse_quantity("100 KIOPS", &v, &u, &has, err, sizeof(err)), 0);
    close_to(v, 100);
    close_to(verify_to_base(v, &u), 100000);
    /* "1.5ms": m is the unit's, not a multiplier */
    assert_int_equal(verify_parse_quantity("1.5ms", &v, &u, &has, err, sizeof(err)), 0);
    close_to(v, 1.5);
    assert_string_equal(u.name, "ms");
    assert_int_equal(verify_parse_quantity("2.8 GB/s", &v, &u, &has, err, sizeof(err)), 0);
    close_to(verify_to_base(v, &u), 2800);
    /* numbers alone */
    assert_int_equal(verify_parse_number("700K", &v, err, sizeof(err)), 0);
    close_to(v, 700000);
    assert_int_equal(verify_parse_number("1.5M", &v, err, sizeof(err)), 0);
    close_to(v, 1.5e6);
    assert_int_equal(verify_parse_number(" 0.12 ", &v, err, sizeof(err)), 0);
    close_to(v, 0.12);
    /* refused: commas (2,800 or 2.8?), words, units where a number is wanted */
    assert_int_equal(verify_parse_number("2,800", &v, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "comma"));
    assert_int_equal(verify_parse_number("lots", &v, err, sizeof(err)), -1);
    assert_int_equal(verify_parse_number("nan", &v, err, sizeof(err)), -1);
    assert_int_equal(verify_parse_number("5 IOPS", &v, err, sizeof(err)), -1);
    assert_int_equal(verify_parse_quantity("5 parsecs", &v, &u, &has, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "parsecs"));
}

static void test_block_sizes(void **state)
{
    (void)state;
    char err[ERR_LEN];
    uint32_t bs;
    /* a spec sheet's KB is a binary transfer size: 4KB = 4kB = 4KiB = 4k = 4096 */
    static const char *const four[] = {"4KB", "4kB", "4KiB", "4k", "4K", "4096"};
    for (size_t i = 0; i < sizeof(four) / sizeof(four[0]); i++) {
        assert_int_equal(verify_parse_bs(four[i], &bs, err, sizeof(err)), 0);
        assert_int_equal(bs, 4096);
    }
    assert_int_equal(verify_parse_bs("128KB", &bs, err, sizeof(err)), 0);
    assert_int_equal(bs, 131072);
    assert_int_equal(verify_parse_bs("1MB", &bs, err, sizeof(err)), 0);
    assert_int_equal(bs, 1048576);
    assert_int_equal(verify_parse_bs("512", &bs, err, sizeof(err)), 0);
    assert_int_equal(bs, 512);
    assert_int_equal(verify_parse_bs("4q", &bs, err, sizeof(err)), -1);
    assert_int_equal(verify_parse_bs("0", &bs, err, sizeof(err)), -1);
}

static void test_tolerance(void **state)
{
    (void)state;
    char err[ERR_LEN];
    double t;
    assert_int_equal(verify_parse_tolerance("5%", &t, err, sizeof(err)), 0);
    close_to(t, 0.05);
    assert_int_equal(verify_parse_tolerance("5", &t, err, sizeof(err)), 0);
    close_to(t, 0.05);
    assert_int_equal(verify_parse_tolerance("0.5", &t, err, sizeof(err)), 0);   /* 0.5%, not 50% */
    close_to(t, 0.005);
    assert_int_equal(verify_parse_tolerance("0", &t, err, sizeof(err)), 0);
    close_to(t, 0);
    assert_int_equal(verify_parse_tolerance("abc", &t, err, sizeof(err)), -1);
    assert_int_equal(verify_parse_tolerance("150%", &t, err, sizeof(err)), -1);
    assert_int_equal(verify_parse_tolerance("-1", &t, err, sizeof(err)), -1);
    assert_null(strchr(err, '\n'));
}

/* ---- spec sheets ---- */

static int sheet_from(const char *text, struct verify_sheet *s, char *err, size_t errlen)
{
    struct ini_file ini;
    if (ini_parse_string(text, "t.ini", &ini, err, errlen) != 0)
        return -1;
    int rc = verify_sheet_parse(&ini, s, err, errlen);
    ini_free(&ini);
    return rc;
}

static void test_sheet_parse(void **state)
{
    (void)state;
    char err[ERR_LEN] = "";
    struct verify_sheet s;
    int rc = sheet_from("device = Drive X\n"
                        "[rr]\nmetric = iops\nvalue = 100K IOPS\nbs = 4KB\npattern = random\n"
                        "read_pct = 100\nqd = 32\nthreads = 4\ncompress = any\nstate = fob\n"
                        "source = x.txt: \"100K IOPS\"\n"
                        "[sr]\nmetric = mib_s\nvalue = 1000\nbs = 128k\npattern = sequential\n"
                        "read_pct = 0\n"
                        "[lat]\nmetric = lat_us\nvalue = 0.1\nunit = ms\nbs = 4k\n"
                        "pattern = random\nread_pct = 70\nqd = unknown\nstate = steady\n"
                        "compress = 90%\n"
                        "[as]\nmetric = iops\nvalue = 1\nbs = 4k\npattern = random\n"
                        "read_pct = 0\nqd = 32\nthreads = 4\ncompress = 0\nstate = fob\n"
                        "assumed = qd,threads compress\n",
                        &s, err, sizeof(err));
    if (rc)
        print_error("%s\n", err);
    assert_int_equal(rc, 0);
    assert_string_equal(s.device, "Drive X");
    assert_int_equal(s.n, 4);
    const struct verify_claim *c = &s.c[0];
    assert_string_equal(c->name, "rr");
    assert_int_equal(c->metric, MEAS_IOPS);
    close_to(c->value, 100000);
    close_to(c->claimed, 100000);
    assert_string_equal(c->unit.name, "IOPS");
    assert_int_equal(c->bs, 4096);
    assert_false(c->sequential);
    assert_int_equal(c->read_pct, 100);
    assert_int_equal(c->qd, 32);
    assert_int_equal(c->threads, 4);
    assert_int_equal(c->compress_pct, -1);
    assert_int_equal(c->state, MEAS_STATE_FOB);
    assert_int_equal(c->assumed, 0);                   /* nothing assumed unless said */
    assert_string_equal(c->source, "x.txt: \"100K IOPS\"");
    /* mib_s: throughput with MiB/s as the default unit; unstated qd/threads/state */
    c = &s.c[1];
    assert_int_equal(c->metric, MEAS_MB_S);
    assert_string_equal(c->unit.name, "MiB/s");
    close_to(c->claimed, 1048.576);
    assert_true(c->sequential);
    assert_int_equal(c->qd, 0);
    assert_int_equal(c->threads, 0);
    assert_int_equal(c->state, MEAS_STATE_UNKNOWN);
    /* lat_us in ms */
    c = &s.c[2];
    assert_int_equal(c->metric, MEAS_LAT_MEAN_US);
    close_to(c->claimed, 100);
    assert_int_equal(c->read_pct, 70);
    assert_int_equal(c->compress_pct, 90);
    assert_int_equal(c->state, MEAS_STATE_STEADY);
    char cond[256];
    verify_claim_conditions(c, cond, sizeof(cond));
    assert_string_equal(cond, "4 KiB random, R/W 70/30, steady state, compress 90%");
    /* assumed: commas or spaces between the names */
    c = &s.c[3];
    assert_int_equal(c->assumed, VERIFY_COND_QD | VERIFY_COND_THREADS | VERIFY_COND_COMPRESS);
    verify_claim_conditions(c, cond, sizeof(cond));
    assert_string_equal(cond, "4 KiB random, R/W 0/100, 4x32 (assumed), burst, compress 0% "
                              "(assumed)");
    char names[64];
    verify_assumed_names(c->assumed, names, sizeof(names));
    assert_string_equal(names, "qd, threads, compress");
    verify_sheet_free(&s);
}

static void sheet_bad(const char *text, const char *want)
{
    char err[ERR_LEN] = "";
    struct verify_sheet s;
    int rc = sheet_from(text, &s, err, sizeof(err));
    if (rc != -1)
        print_error("accepted: %s\n", text);
    assert_int_equal(rc, -1);
    if (!strstr(err, want))
        print_error("got '%s', want '%s'\n", err, want);
    assert_non_null(strstr(err, want));
    assert_null(strchr(err, '\n'));
    assert_null(s.c);
}

#define CLAIM "[c]\nmetric = iops\nvalue = 1\nbs = 4k\npattern = random\nread_pct = 100\n"

static void test_sheet_errors(void **state)
{
    (void)state;
    sheet_bad("device = x\n", "no claims");
    sheet_bad(CLAIM "unit = MB/s\n", "metric iops is an I/O rate (IOPS), unit MB/s is not");
    sheet_bad(CLAIM "colour = red\n", "t.ini:7: [c] unknown key 'colour'");
    /* requirement sheets (kind = requirements) and per-TB figures */
    sheet_bad("kind = vendor\n" CLAIM, "t.ini:1: kind=vendor: want requirements");
    sheet_bad("kind = requirements\nsim_preset = zdrive-6300-1.6t\n" CLAIM,
              "t.ini:2: sim_preset=zdrive-6300-1.6t: a requirement sheet (kind = requirements) "
              "names no drive");
    sheet_bad(CLAIM "per = GB\n", "[c] per=GB: want TB");
    sheet_bad("[c]\nmetric = lat_p99_us\nvalue = 100 us\nper = TB\nbs = 4k\npattern = random\n"
              "read_pct = 100\n", "[c] per=TB: a latency is not per TB of capacity");
    sheet_bad("[c]\nmetric = iops\nvalue = 1\npattern = random\nread_pct = 100\n", "[c] no bs");
    sheet_bad(CLAIM "state = warm\n", "t.ini:7: [c] state=warm: want fob, steady or any");
    sheet_bad(CLAIM "qd = 0\n", "qd=0");
    sheet_bad(CLAIM "compress = 33.3\n", "compress=33.3");
    sheet_bad("[c]\nmetric = speed\nvalue = 1\nbs = 4k\npattern = random\nread_pct = 100\n",
              "metric=speed: unknown metric");
    sheet_bad("[c]\nmetric = iops\nvalue = 0\nbs = 4k\npattern = random\nread_pct = 100\n",
              "want a positive number");
    sheet_bad("[c]\nmetric = iops\nvalue = 2,800\nbs = 4k\npattern = random\nread_pct = 100\n",
              "comma");
    sheet_bad("[c]\nmetric = iops\nvalue = 1\nbs = 4k\npattern = zigzag\nread_pct = 100\n",
              "pattern=zigzag");
    sheet_bad("[c]\nmetric = iops\nvalue = 5 IOPS\nunit = K IOPS\nbs = 4k\npattern = random\n"
              "read_pct = 100\n", "unit=K IOPS but value=5 IOPS says IOPS");
    sheet_bad(CLAIM CLAIM, "t.ini:8: [c] metric given again (first on line 2)");
    sheet_bad("colour = red\n" CLAIM, "unknown key 'colour' before the first claim");
    /* assumed: known conditions with a value only, and never the state */
    sheet_bad(CLAIM "state = steady\nassumed = state\n", "state is never assumed");
    sheet_bad(CLAIM "qd = 32\nassumed = qd, colour\n", "'colour' is not a condition");
    sheet_bad(CLAIM "assumed = qd\n", "qd is assumed but has no value");
    sheet_bad(CLAIM "compress = any\nassumed = compress\n", "compress is assumed but has no");
}

/* ---- matching ---- */

static struct meas_point pt(uint32_t bs, int rnd, int rd, unsigned w, unsigned qd, int comp,
                            enum meas_state st, double iops)
{
    struct meas_point p;
    memset(&p, 0, sizeof(p));
    snprintf(p.key, sizeof(p.key), "p/%u/%d/%d/%ux%u/%d/%d", bs, rnd, rd, w, qd, comp, (int)st);
    snprintf(p.label, sizeof(p.label), "%s", p.key);
    p.bs = bs;
    p.random_pct = rnd;
    p.sequential = rnd == 0;
    p.read_pct = rd;
    p.workers = w;
    p.qd = qd;
    p.compress_pct = comp;
    p.state = st;
    for (unsigned i = 0; i < MEAS_N; i++)
        p.v[i] = p.spread[i] = NAN;
    p.v[MEAS_IOPS] = iops;
    p.v[MEAS_MB_S] = iops * bs / 1e6;
    p.v[MEAS_LAT_MEAN_US] = 1e6 * w * qd / iops;
    p.rounds = 5;
    return p;
}

static struct verify_claim claim(uint32_t bs, bool seq, int rd, unsigned w, unsigned qd,
                                 int comp, enum meas_state st, double iops)
{
    struct verify_claim c;
    memset(&c, 0, sizeof(c));
    snprintf(c.name, sizeof(c.name), "c");
    c.metric = MEAS_IOPS;
    c.unit = unit("IOPS");
    c.value = c.claimed = iops;
    c.bs = bs;
    c.sequential = seq;
    c.read_pct = rd;
    c.threads = w;
    c.qd = qd;
    c.compress_pct = comp;
    c.state = st;
    return c;
}

static const enum meas_state S = MEAS_STATE_STEADY, F = MEAS_STATE_FOB, W = MEAS_STATE_WIPC,
                             U = MEAS_STATE_UNKNOWN;

static void reason_has(const struct verify_claim *c, const struct verify_match *m,
                       const char *want)
{
    char why[512];
    verify_match_reason(c, m, why, sizeof(why));
    if (!strstr(why, want))
        print_error("reason '%s', want '%s'\n", why, want);
    assert_non_null(strstr(why, want));
}

/* Steps 1-2: another block size, pattern, read share or a missing figure is never comparable */
static void test_no_point_at_shape(void **state)
{
    (void)state;
    struct meas_point p[] = {
        pt(8192, 100, 100, 4, 32, 0, S, 300000),   /* another block size */
        pt(4096, 0, 100, 4, 32, 0, S, 500000),     /* sequential */
        pt(4096, 100, 70, 4, 32, 0, S, 200000),    /* another read share */
        pt(0, 100, 100, 4, 32, 0, S, 200000),      /* mixed sizes */
    };
    struct verify_claim c = claim(4096, false, 100, 4, 32, 0, S, 100000);
    struct verify_result r;
    verify_check(&c, p, 4, 0.05, &r);
    assert_null(r.match.point);
    assert_null(r.match.nearest);
    assert_int_equal(r.match.why, VERIFY_WHY_SHAPE);
    assert_int_equal(r.verdict, VERIFY_NO_COMPARABLE);
    assert_string_equal(verify_verdict_name(r.verdict), "no comparable measurement");
    assert_true(isnan(r.measured) && isnan(r.ratio) && isnan(r.reference));
    reason_has(&c, &r.match, "no point at the claim's block size, pattern and read share");
    /* nothing at all: the same */
    verify_check(&c, p, 0, 0.05, &r);
    assert_int_equal(r.match.why, VERIFY_WHY_SHAPE);
    /* the right shape without the claimed figure (NAN) */
    struct meas_point q[] = {pt(4096, 100, 100, 4, 32, 0, S, 1000)};
    c.metric = MEAS_LAT_P99_US;
    c.unit = unit("us");
    verify_check(&c, q, 1, 0.05, &r);
    assert_int_equal(r.match.why, VERIFY_WHY_FIGURE);
    reason_has(&c, &r.match, "no lat_p99_us figure");
}

/* A percentile the point's I/Os do not support (the tail rule, stats/hist.h: recorded null
 * beside the count): no comparable measurement, saying "not enough I/Os for this percentile
 * (N)", never a pass or a fail. 2.5 million I/Os support 99.999 (25 beyond it), not 99.9999
 * (2.5); with 20 million the same NAN is a figure the file does not have. */
static void test_percentile_not_enough_ios(void **state)
{
    (void)state;
    struct meas_point q[] = {pt(4096, 100, 100, 4, 32, 0, S, 500000)};
    q[0].v[MEAS_LAT_COUNT] = 2500000;
    q[0].v[MEAS_LAT_P99_999_US] = 900;
    struct verify_claim c = claim(4096, false, 100, 4, 32, 0, S, 1000);
    c.metric = MEAS_LAT_P99_9999_US;
    c.unit = unit("us");
    struct verify_result r;
    verify_check(&c, q, 1, 0.05, &r);
    assert_null(r.match.point);
    assert_int_equal(r.verdict, VERIFY_NO_COMPARABLE);
    assert_int_equal(r.match.why, VERIFY_WHY_TAIL);
    reason_has(&c, &r.match, "not enough I/Os for this percentile (2,500,000)");
    c.metric = MEAS_LAT_P99_999_US;   /* supported: judged (900 us against 1,000 us) */
    verify_check(&c, q, 1, 0.05, &r);
    assert_int_equal(r.verdict, VERIFY_PASS);
    c.metric = MEAS_LAT_P99_9999_US;
    q[0].v[MEAS_LAT_COUNT] = 20000000;
    verify_check(&c, q, 1, 0.05, &r);
    assert_int_equal(r.match.why, VERIFY_WHY_FIGURE);
}

/* Step 5: a steady claim against only burst data, fresh or after WIPC: never judged */
static void test_steady_claim_only_burst(void **state)
{
    (void)state;
    struct verify_claim c = claim(4096, false, 0, 4, 32, 0, S, 140000);
    c.assumed = VERIFY_COND_QD | VERIFY_COND_THREADS | VERIFY_COND_COMPRESS;   /* as the 6300 */
    struct verify_result r;
    /* the issue: a 378K burst plateau at the claim's conditions, 2.7 x the claim */
    struct meas_point fob[] = {pt(4096, 100, 0, 4, 32, 0, F, 378396)};
    verify_check(&c, fob, 1, 0.05, &r);
    assert_null(r.match.point);
    assert_int_equal(r.verdict, VERIFY_NO_COMPARABLE);
    assert_int_equal(r.match.why, VERIFY_WHY_STATE);
    assert_ptr_equal(r.match.nearest, &fob[0]);
    reason_has(&c, &r.match, "only burst data for a steady-state claim");
    reason_has(&c, &r.match, "burst (fresh-out-of-box)");
    assert_false(verify_match_has_reference(&c, &r.match));   /* no burst figure shown */
    assert_true(isnan(r.measured) && isnan(r.reference) && isnan(r.ratio));
    /* right after WIPC: still a burst */
    struct meas_point wipc[] = {pt(4096, 100, 0, 4, 32, 0, W, 300000)};
    verify_check(&c, wipc, 1, 0.05, &r);
    assert_int_equal(r.verdict, VERIFY_NO_COMPARABLE);
    assert_int_equal(r.match.why, VERIFY_WHY_STATE);
    reason_has(&c, &r.match, "only burst data for a steady-state claim (nearest: burst after WIPC)");
    /* WSAT's unknown state is not steady either */
    struct meas_point wsat[] = {pt(4096, 100, 0, 4, 32, 0, U, 150000)};
    verify_check(&c, wsat, 1, 0.05, &r);
    assert_int_equal(r.verdict, VERIFY_NO_COMPARABLE);
    reason_has(&c, &r.match, "unknown drive state");
    /* with a steady point beside them, the steady one is judged, whatever the load order */
    struct meas_point mix[] = {fob[0], wsat[0], pt(4096, 100, 0, 4, 32, 0, S, 139909),
                               wipc[0]};
    verify_check(&c, mix, 4, 0.05, &r);
    assert_ptr_equal(r.match.point, &mix[2]);
    assert_int_equal(r.verdict, VERIFY_PASS);
    assert_true(r.match.exact);
}

/* Step 5: a burst claim against only steady-state data: the steady figure for reference */
static void test_fob_claim_only_steady(void **state)
{
    (void)state;
    struct meas_point p[] = {
        pt(4096, 100, 0, 4, 32, 100, U, 90000),     /* WSAT: unknown, first in load order */
        pt(4096, 100, 0, 4, 32, 100, S, 120000),
    };
    struct verify_claim c = claim(4096, false, 0, 4, 32, 100, F, 410000);
    c.assumed = VERIFY_COND_QD | VERIFY_COND_THREADS;
    struct verify_result r;
    verify_check(&c, p, 2, 0.05, &r);
    assert_null(r.match.point);
    assert_int_equal(r.verdict, VERIFY_NO_COMPARABLE);
    assert_int_equal(r.match.why, VERIFY_WHY_STATE);
    assert_ptr_equal(r.match.nearest, &p[1]);     /* the steady point, not WSAT's */
    reason_has(&c, &r.match, "only steady-state data");
    assert_true(verify_match_has_reference(&c, &r.match));
    close_to(r.reference, 120000);                /* shown ... */
    close_to(r.reference_base, 120000);
    assert_true(isnan(r.measured));               /* ... not judged */
    assert_true(isnan(r.ratio));
}

/* Step 5: a burst claim takes fob and wipc points, preferring fob */
static void test_fob_claim_prefers_fob(void **state)
{
    (void)state;
    struct meas_point p[] = {
        pt(4096, 100, 0, 4, 32, 100, W, 300000),   /* after WIPC, first in load order */
        pt(4096, 100, 0, 4, 32, 100, S, 120000),
        pt(4096, 100, 0, 4, 32, 100, F, 400000),   /* fresh-out-of-box */
    };
    struct verify_claim c = claim(4096, false, 0, 4, 32, 100, F, 410000);
    struct verify_result r;
    verify_check(&c, p, 3, 0.05, &r);
    assert_ptr_equal(r.match.point, &p[2]);
    assert_int_equal(r.match.why, VERIFY_WHY_NONE);
    close_to(r.measured, 400000);
    assert_int_equal(r.verdict, VERIFY_PASS);     /* 400000 >= 0.95 x 410000 = 389500 */
    /* fob preferred even when the wipc point is closer on an assumed QD */
    c.assumed = VERIFY_COND_QD;
    p[2].qd = 16;
    verify_check(&c, p, 3, 0.05, &r);
    assert_ptr_equal(r.match.point, &p[2]);
    /* without the fob point, the wipc point is judged (a burst after WIPC is a burst) */
    verify_check(&c, p, 2, 0.05, &r);
    assert_ptr_equal(r.match.point, &p[0]);
    assert_int_equal(r.verdict, VERIFY_FAIL);     /* 300000 < 389500 */
    assert_true(r.match.exact);
    /* state any takes every state */
    c.state = U;
    verify_check(&c, p + 1, 1, 0.05, &r);
    assert_ptr_equal(r.match.point, &p[1]);
}

/* Step 6: a point whose reads went to never-written space measured no media: no claim takes it,
 * unless the claim says its own figure read such space (a calibration row, unwritten_reads) */
static void test_unwritten_reads_not_comparable(void **state)
{
    (void)state;
    struct meas_point p[] = {
        pt(4096, 100, 100, 4, 32, 100, F, 1900000),
    };
    p[0].unwritten = true;
    struct verify_claim c = claim(4096, false, 100, 4, 32, 100, F, 410000);
    struct verify_result r;
    verify_check(&c, p, 1, 0.05, &r);
    assert_null(r.match.point);
    assert_int_equal(r.verdict, VERIFY_NO_COMPARABLE);
    assert_int_equal(r.match.why, VERIFY_WHY_UNWRITTEN);
    reason_has(&c, &r.match, "never-written space");
    c.unwritten_reads = true;
    verify_check(&c, p, 1, 0.05, &r);
    assert_ptr_equal(r.match.point, &p[0]);
    assert_int_equal(r.verdict, VERIFY_PASS);
    /* the sheet key */
    struct ini_file ini;
    char err[512];
    const char *text = "device = d\n[r]\nmetric = iops\nvalue = 1\nunit = IOPS\nbs = 4k\n"
                       "pattern = random\nread_pct = 100\nunwritten_reads = maybe\n";
    assert_int_equal(ini_parse_string(text, "t.ini", &ini, err, sizeof(err)), 0);
    struct verify_sheet sh;
    assert_int_equal(verify_sheet_parse(&ini, &sh, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "unwritten_reads"));
    assert_non_null(strstr(err, "want yes or no"));
    ini_free(&ini);
}

/* Step 4, from the issue: the 6300's QD1 write-latency claim (30 us at 1 x 1) against a 4x32
 * point's 338 us is not a failure but no comparable measurement; a 1x1 point is judged. */
static void test_6300_lat_write_needs_qd1(void **state)
{
    (void)state;
    const char *root = getenv("PTSBENCH_DATADIR");
    char path[4096], err[ERR_LEN] = "";
    snprintf(path, sizeof(path), "%s/specs/zdrive-6300-1.6t.ini", root && *root ? root : ".");
    struct verify_sheet s;
    assert_int_equal(verify_sheet_load(path, &s, err, sizeof(err)), 0);
    const struct verify_claim *c = NULL;
    for (size_t i = 0; i < s.n; i++)
        if (!strcmp(s.c[i].name, "lat-write-4k"))
            c = &s.c[i];
    assert_non_null(c);
    assert_int_equal(c->qd, 1);
    assert_int_equal(c->threads, 1);
    assert_false(c->assumed & (VERIFY_COND_QD | VERIFY_COND_THREADS));   /* stated: 1 x 1 */

    struct meas_point p[3];
    p[0] = pt(4096, 100, 0, 4, 32, 0, S, 140000);
    p[0].v[MEAS_LAT_MEAN_US] = 338;
    p[1] = pt(4096, 100, 0, 4, 32, 0, F, 378000);
    p[1].v[MEAS_LAT_MEAN_US] = 337;
    struct verify_result r;
    verify_check(c, p, 2, 0.05, &r);
    assert_null(r.match.point);
    assert_int_equal(r.verdict, VERIFY_NO_COMPARABLE);
    assert_int_equal(r.match.why, VERIFY_WHY_OIO);
    reason_has(c, &r.match, "no point at the claim's own threads x QD, 1x1 (nearest: 4x32)");
    /* a 1x1 steady point: judged, 25.35 us against 30 us passes; 40 us fails */
    p[2] = pt(4096, 100, 0, 1, 1, 0, S, 39000);
    p[2].v[MEAS_LAT_MEAN_US] = 25.35;
    verify_check(c, p, 3, 0.05, &r);
    assert_ptr_equal(r.match.point, &p[2]);
    assert_int_equal(r.verdict, VERIFY_PASS);
    close_to(r.ratio, 30 / 25.35);
    p[2].v[MEAS_LAT_MEAN_US] = 40;
    verify_check(c, p, 3, 0.05, &r);
    assert_int_equal(r.verdict, VERIFY_FAIL);
    verify_sheet_free(&s);
}

/* Assumed threads / QD only order the candidates: closest outstanding I/O first */
static void test_assumed_qd_orders(void **state)
{
    (void)state;
    struct meas_point p[] = {
        pt(4096, 100, 100, 4, 8, 0, S, 1),    /* 32: |log2(32/128)| = 2 */
        pt(4096, 100, 100, 4, 64, 0, S, 2),   /* 256: 1 */
        pt(4096, 100, 100, 2, 16, 0, S, 3),   /* 32: 2 */
        pt(4096, 100, 100, 1, 128, 0, S, 4),  /* 128: 0, but both conditions off by 2 */
    };
    struct verify_claim c = claim(4096, false, 100, 4, 32, 0, S, 1);
    struct verify_match m;
    /* stated: nothing at 4x32 is comparable */
    verify_match_claim(&c, p, 4, &m);
    assert_null(m.point);
    assert_int_equal(m.why, VERIFY_WHY_OIO);
    /* assumed: 1x128 has the claim's outstanding I/O */
    c.assumed = VERIFY_COND_QD | VERIFY_COND_THREADS;
    verify_match_claim(&c, p, 4, &m);
    assert_ptr_equal(m.point, &p[3]);
    assert_false(m.exact);
    assert_int_equal(m.assumed_differs, VERIFY_COND_QD | VERIFY_COND_THREADS);
    char diff[256];
    verify_match_differences(&c, &m, diff, sizeof(diff));
    assert_string_equal(diff, "1x128 (assumed 4x32)");
    /* equal outstanding I/O: the point nearer on each condition (4x32 before 1x128) */
    struct meas_point q[] = {p[3], pt(4096, 100, 100, 4, 32, 0, S, 5)};
    verify_match_claim(&c, q, 2, &m);
    assert_ptr_equal(m.point, &q[1]);
    assert_true(m.exact);
    verify_match_differences(&c, &m, diff, sizeof(diff));
    assert_string_equal(diff, "");
    /* without 1x128: 4x64 (distance 1) */
    verify_match_claim(&c, p, 3, &m);
    assert_ptr_equal(m.point, &p[1]);
    /* QD assumed, threads stated: only 4-worker points; 4x64 nearest */
    c.assumed = VERIFY_COND_QD;
    verify_match_claim(&c, p, 4, &m);
    assert_ptr_equal(m.point, &p[1]);
    assert_int_equal(m.assumed_differs, VERIFY_COND_QD);
    /* threads assumed, QD stated: only QD 32 points, none here */
    c.assumed = VERIFY_COND_THREADS;
    verify_match_claim(&c, p, 4, &m);
    assert_null(m.point);
    reason_has(&c, &m, "QD 32");
    /* unstated QD and threads: not a criterion, the first point wins */
    c.qd = c.threads = 0;
    c.assumed = 0;
    verify_match_claim(&c, p, 4, &m);
    assert_ptr_equal(m.point, &p[0]);
    assert_true(m.exact);
}

/* A stated compressibility is never substituted; an assumed one orders (closest first) */
static void test_stated_compress_never_substituted(void **state)
{
    (void)state;
    struct meas_point p[] = {
        pt(4096, 100, 0, 4, 32, 0, F, 180000),
        pt(4096, 100, 0, 4, 32, -1, F, 200000),   /* compressibility unknown */
        pt(4096, 100, 0, 4, 32, 90, F, 380000),
    };
    /* SandForce: 100% compressible data decides the figure */
    struct verify_claim c = claim(4096, false, 0, 4, 32, 100, F, 410000);
    c.assumed = VERIFY_COND_QD | VERIFY_COND_THREADS;
    struct verify_result r;
    verify_check(&c, p, 3, 0.05, &r);
    assert_null(r.match.point);
    assert_int_equal(r.verdict, VERIFY_NO_COMPARABLE);
    assert_int_equal(r.match.why, VERIFY_WHY_COMPRESS);
    assert_ptr_equal(r.match.nearest, &p[2]);
    reason_has(&c, &r.match, "compressibility differs: no point at 100% (nearest: 90%)");
    /* the same claim with compress assumed: 90% is the closest, and marked */
    c.assumed |= VERIFY_COND_COMPRESS;
    verify_check(&c, p, 3, 0.05, &r);
    assert_ptr_equal(r.match.point, &p[2]);
    assert_false(r.match.exact);
    assert_int_equal(r.match.assumed_differs, VERIFY_COND_COMPRESS);
    char diff[256];
    verify_match_differences(&c, &r.match, diff, sizeof(diff));
    assert_string_equal(diff, "compress 90% (assumed 100%)");
    /* compress any: every point, the first */
    c.compress_pct = -1;
    c.assumed = 0;
    verify_check(&c, p, 3, 0.05, &r);
    assert_ptr_equal(r.match.point, &p[0]);
}

/* The reason names the last step that removed points */
static void test_reason_is_the_last_step(void **state)
{
    (void)state;
    struct meas_point p[] = {
        pt(4096, 100, 0, 1, 1, 0, S, 1),      /* fails compress (claim 100) */
        pt(4096, 100, 0, 4, 32, 100, S, 2),   /* passes compress, fails threads x QD */
    };
    struct verify_claim c = claim(4096, false, 0, 1, 1, 100, S, 1);
    struct verify_match m;
    verify_match_claim(&c, p, 2, &m);
    assert_int_equal(m.why, VERIFY_WHY_OIO);
    assert_ptr_equal(m.nearest, &p[1]);
    /* a 1x1 point at 100% but fresh: the state is what is missing */
    struct meas_point q[] = {p[0], p[1], pt(4096, 100, 0, 1, 1, 100, F, 3)};
    verify_match_claim(&c, q, 3, &m);
    assert_int_equal(m.why, VERIFY_WHY_STATE);
    assert_ptr_equal(m.nearest, &q[2]);
}

static void test_no_match(void **state)
{
    (void)state;
    struct meas_point p[] = {pt(131072, 0, 100, 1, 32, 0, MEAS_STATE_STEADY, 20000)};
    struct verify_result r;
    /* a random claim does not match a sequential point; nor another bs or read share */
    struct verify_claim c = claim(131072, false, 100, 1, 32, 0, MEAS_STATE_STEADY, 1);
    verify_check(&c, p, 1, 0.05, &r);
    assert_null(r.match.point);
    assert_int_equal(r.verdict, VERIFY_NO_COMPARABLE);
    c = claim(65536, true, 100, 1, 32, 0, MEAS_STATE_STEADY, 1);
    verify_check(&c, p, 1, 0.05, &r);
    assert_int_equal(r.verdict, VERIFY_NO_COMPARABLE);
    c = claim(131072, true, 0, 1, 32, 0, MEAS_STATE_STEADY, 1);
    verify_check(&c, p, 1, 0.05, &r);
    assert_int_equal(r.verdict, VERIFY_NO_COMPARABLE);
    /* and the matching one passes */
    c = claim(131072, true, 100, 1, 32, 0, MEAS_STATE_STEADY, 20000);
    verify_check(&c, p, 1, 0.05, &r);
    assert_int_equal(r.verdict, VERIFY_PASS);
    assert_true(r.match.exact);
    close_to(r.ratio, 1);
}

/* ---- verdicts ---- */

static void test_verdict_throughput_units(void **state)
{
    (void)state;
    /* 1000 MiB/s claimed; the point did 1048.576 MB/s: exactly the claim, ratio 1 */
    struct meas_point p[] = {pt(131072, 0, 100, 1, 32, 0, MEAS_STATE_STEADY, 8000)};
    p[0].v[MEAS_MB_S] = 1048.576;
    struct verify_claim c = claim(131072, true, 100, 1, 32, 0, MEAS_STATE_STEADY, 0);
    c.metric = MEAS_MB_S;
    c.unit = unit("MiB/s");
    c.value = 1000;
    c.claimed = verify_to_base(1000, &c.unit);
    struct verify_result r;
    verify_check(&c, p, 1, 0.05, &r);
    close_to(r.measured, 1000);
    close_to(r.measured_base, 1048.576);
    close_to(r.ratio, 1);
    assert_int_equal(r.verdict, VERIFY_PASS);
    /* the same measurement against 1100 MB/s: 1048.576 >= 0.95 x 1100 = 1045: pass; 1110: fail */
    c.unit = unit("MB/s");
    c.value = 1100;
    verify_check(&c, p, 1, 0.05, &r);
    assert_int_equal(r.verdict, VERIFY_PASS);
    close_to(r.ratio, 1048.576 / 1100);
    c.value = 1110;
    verify_check(&c, p, 1, 0.05, &r);
    assert_int_equal(r.verdict, VERIFY_FAIL);
}

static void test_verdict_latency(void **state)
{
    (void)state;
    /* claimed 120 µs, measured 86.95 µs: better; ratio = claimed / measured = 1.380 */
    double ratio;
    assert_int_equal(verify_judge(VERIFY_KIND_LATENCY, 120, 86.95, 0.05, &ratio), VERIFY_PASS);
    close_to(ratio, 120 / 86.95);
    /* measured 130 > 1.05 x 120 = 126: fail, ratio below 1 */
    assert_int_equal(verify_judge(VERIFY_KIND_LATENCY, 120, 130, 0.05, &ratio), VERIFY_FAIL);
    assert_true(ratio < 1);
    /* a claim in ms against a point in µs: 0.1 ms claimed, 90 µs measured -> 0.09 ms */
    struct meas_point p[] = {pt(4096, 100, 0, 1, 1, 0, MEAS_STATE_STEADY, 1)};
    p[0].v[MEAS_LAT_MEAN_US] = 90;
    struct verify_claim c = claim(4096, false, 0, 1, 1, 0, MEAS_STATE_STEADY, 0);
    c.metric = MEAS_LAT_MEAN_US;
    c.unit = unit("ms");
    c.value = 0.1;
    c.claimed = 100;
    struct verify_result r;
    verify_check(&c, p, 1, 0.05, &r);
    close_to(r.measured, 0.09);
    close_to(r.ratio, 0.1 / 0.09);
    assert_int_equal(r.verdict, VERIFY_PASS);
}

static void test_tolerance_edges(void **state)
{
    (void)state;
    /* IOPS: pass at exactly (1 - t) x claimed, fail just below */
    assert_int_equal(verify_judge(VERIFY_KIND_IOPS, 100, 95, 0.05, NULL), VERIFY_PASS);
    assert_int_equal(verify_judge(VERIFY_KIND_IOPS, 100, 94.999, 0.05, NULL), VERIFY_FAIL);
    assert_int_equal(verify_judge(VERIFY_KIND_IOPS, 140000, 133000, 0.05, NULL), VERIFY_PASS);
    assert_int_equal(verify_judge(VERIFY_KIND_IOPS, 140000, 132999, 0.05, NULL), VERIFY_FAIL);
    /* throughput the same way, with a tolerance that is not a binary fraction */
    assert_int_equal(verify_judge(VERIFY_KIND_THROUGHPUT, 2637, 2637 * 0.9, 0.1, NULL),
                     VERIFY_PASS);
    assert_int_equal(verify_judge(VERIFY_KIND_THROUGHPUT, 2637, 2637 * 0.9 - 0.01, 0.1, NULL),
                     VERIFY_FAIL);
    /* latency: pass at exactly (1 + t) x claimed, fail just above */
    assert_int_equal(verify_judge(VERIFY_KIND_LATENCY, 100, 105, 0.05, NULL), VERIFY_PASS);
    assert_int_equal(verify_judge(VERIFY_KIND_LATENCY, 100, 105.001, 0.05, NULL), VERIFY_FAIL);
    assert_int_equal(verify_judge(VERIFY_KIND_LATENCY, 30, 31.5, 0.05, NULL), VERIFY_PASS);
    /* tolerance 0: the claim itself passes, anything worse fails */
    assert_int_equal(verify_judge(VERIFY_KIND_IOPS, 100, 100, 0, NULL), VERIFY_PASS);
    assert_int_equal(verify_judge(VERIFY_KIND_IOPS, 100, 99.999, 0, NULL), VERIFY_FAIL);
    assert_int_equal(verify_judge(VERIFY_KIND_LATENCY, 100, 100.001, 0, NULL), VERIFY_FAIL);
    /* better than claimed always passes; no measurement is no comparable measurement */
    assert_int_equal(verify_judge(VERIFY_KIND_IOPS, 100, 1e9, 0, NULL), VERIFY_PASS);
    assert_int_equal(verify_judge(VERIFY_KIND_LATENCY, 100, 0.001, 0, NULL), VERIFY_PASS);
    assert_int_equal(verify_judge(VERIFY_KIND_IOPS, 100, NAN, 0.05, NULL), VERIFY_NO_COMPARABLE);
}

/* ---- the shipped spec sheets ---- */

static void test_shipped_specs(void **state)
{
    (void)state;
    static const struct {
        const char *file;
        size_t claims;
    } specs[] = {
        {"zdrive-6300-1.6t.ini", 6},
        {"zdrive-r4-cm88-1.6t.ini", 4},
        {"zdrive-r4-cm84-300g.ini", 4},
        {"revodrive3-x2-480g.ini", 1},
    };
    const char *root = getenv("PTSBENCH_DATADIR");
    for (size_t i = 0; i < sizeof(specs) / sizeof(specs[0]); i++) {
        char path[4096], err[ERR_LEN] = "";
        snprintf(path, sizeof(path), "%s/specs/%s", root && *root ? root : ".", specs[i].file);
        struct verify_sheet s;
        int rc = verify_sheet_load(path, &s, err, sizeof(err));
        if (rc)
            print_error("%s\n", err);
        assert_int_equal(rc, 0);
        assert_int_equal(s.n, specs[i].claims);
        assert_true(s.device[0] != '\0');
        /* repository-relative references only: no path of the machine the sheet was written on */
        assert_true(s.source[0] != '\0' && s.source[0] != '/');
        assert_null(strstr(s.source, "/wor" "k/"));
        for (size_t j = 0; j < s.n; j++) {
            assert_true(s.c[j].source[0] != '\0');              /* every claim says where from */
            assert_null(strstr(s.c[j].source, "/wor" "k/"));
            assert_null(strstr(s.c[j].source, ".txt"));          /* a publication, not a file */
            assert_true(s.c[j].state != MEAS_STATE_UNKNOWN);    /* and in which state */
            assert_true(s.c[j].compress_pct >= 0);
            assert_true(s.c[j].qd > 0 && s.c[j].threads > 0);
            /* SandForce sheets (compress 100) never assume the compressibility */
            if (s.c[j].compress_pct == 100)
                assert_false(s.c[j].assumed & VERIFY_COND_COMPRESS);
        }
        /* each names its drive: a model it reports, its capacity, the preset that models it
         * (a preset of profiles/devices/) */
        assert_true(s.n_models > 0 && s.capacity > 0 && s.sim_preset[0]);
        char preset[4096];
        snprintf(preset, sizeof(preset), "%s/profiles/devices/%s.ini", root && *root ? root : ".",
                 s.sim_preset);
        FILE *pf = fopen(preset, "r");
        if (!pf)
            print_error("%s: sim_preset %s: no %s\n", specs[i].file, s.sim_preset, preset);
        assert_non_null(pf);
        fclose(pf);
        FILE *f = fopen(path, "r");
        assert_non_null(f);
        char line[2048];
        while (fgets(line, sizeof(line), f))
            assert_null(strstr(line, "/wor" "k/"));
        fclose(f);
        verify_sheet_free(&s);
    }
    /* spot checks against the seeds */
    char path[4096], err[ERR_LEN];
    struct verify_sheet s;
    snprintf(path, sizeof(path), "%s/specs/zdrive-r4-cm88-1.6t.ini", root && *root ? root : ".");
    assert_int_equal(verify_sheet_load(path, &s, err, sizeof(err)), 0);
    close_to(s.c[2].claimed, 410000);         /* "Random Write Operations(4kB) 410,000 IOPS" */
    assert_int_equal(s.c[2].bs, 4096);
    assert_int_equal(s.c[2].read_pct, 0);
    close_to(s.c[0].claimed, 2800);           /* "Max Read up to 2,800 MB/s" */
    verify_sheet_free(&s);
    snprintf(path, sizeof(path), "%s/specs/zdrive-6300-1.6t.ini", root && *root ? root : ".");
    assert_int_equal(verify_sheet_load(path, &s, err, sizeof(err)), 0);
    close_to(s.c[2].claimed, 2637 * 1.048576);   /* 2637 MiB/s in MB/s */
    close_to(s.c[4].claimed, 120);
    assert_int_equal(s.c[4].metric, MEAS_LAT_MEAN_US);
    /* workers x QD never stated for IOPS and throughput (assumed), stated 1x1 for latency */
    for (size_t j = 0; j < s.n; j++) {
        unsigned oio = s.c[j].assumed & (VERIFY_COND_QD | VERIFY_COND_THREADS);
        assert_int_equal(oio, j >= 4 ? 0 : (VERIFY_COND_QD | VERIFY_COND_THREADS));
        assert_int_equal(s.c[j].state, MEAS_STATE_STEADY);
    }
    verify_sheet_free(&s);
    snprintf(path, sizeof(path), "%s/specs/zdrive-r4-cm88-1.6t.ini", root && *root ? root : ".");
    assert_int_equal(verify_sheet_load(path, &s, err, sizeof(err)), 0);
    for (size_t j = 0; j < s.n; j++) {
        assert_int_equal(s.c[j].assumed, VERIFY_COND_QD | VERIFY_COND_THREADS);
        assert_int_equal(s.c[j].state, MEAS_STATE_FOB);
    }
    verify_sheet_free(&s);
    /* the OCP requirement sheet: no drive, per-TB floors, ceilings; every row cites FioSynth */
    snprintf(path, sizeof(path), "%s/specs/ocp-datacenter-nvme-2.5.ini", root && *root ? root : ".");
    assert_int_equal(verify_sheet_load(path, &s, err, sizeof(err)), 0);
    assert_true(s.requirements && !s.n_models && !s.capacity && !s.sim_preset[0]);
    assert_int_equal(s.n, 9);
    for (size_t j = 0; j < s.n; j++) {
        assert_true(s.c[j].limit && s.c[j].state == MEAS_STATE_STEADY && s.c[j].bs == 0);
        assert_non_null(strstr(s.c[j].source, "FioSynth"));
        assert_int_equal(s.c[j].per_tb, verify_metric_kind(s.c[j].metric) != VERIFY_KIND_LATENCY);
    }
    verify_sheet_free(&s);
}

/* ---- the drive: which drive a sheet is of, and whether results are of it ---- */

/* A sheet naming its drive as the shipped ones do, and one claim. */
#define DRIVE_6300 "device = Z6300\nreported_models = OCZ Z-DRIVE 6300*, ZD6300*\n" \
                   "capacity = 1.6TB\nsim_preset = zdrive-6300-1.6t\n"
#define DRIVE_CM84 "device = R4 CM84\nreported_models = OCZ Z-DRIVE R4 CM84, OCZ Z-DRIVE R4 C\n" \
                   "capacity = 300GB\nsim_preset = zdrive-r4-cm84-300g\n"
#define DRIVE_CM88 "device = R4 CM88\nreported_models = OCZ Z-DRIVE R4 CM88, OCZ Z-DRIVE R4 C\n" \
                   "capacity = 1.6TB\nsim_preset = zdrive-r4-cm88-1.6t\n"

static struct verify_sheet drive_sheet(const char *drive)
{
    char text[1024], err[ERR_LEN] = "";
    snprintf(text, sizeof(text), "%s%s", drive, CLAIM);
    struct verify_sheet s;
    if (sheet_from(text, &s, err, sizeof(err)) != 0)
        fail_msg("%s", err);
    return s;
}

static struct meas_target target(const char *kind, const char *path, const char *model,
                                 const char *preset, uint64_t capacity)
{
    struct meas_target t;
    memset(&t, 0, sizeof(t));
    snprintf(t.source, sizeof(t.source), "r/results.json");
    snprintf(t.kind, sizeof(t.kind), "%s", kind);
    snprintf(t.path, sizeof(t.path), "%s", path);
    snprintf(t.model, sizeof(t.model), "%s", model);
    snprintf(t.preset, sizeof(t.preset), "%s", preset);
    t.capacity = capacity;
    return t;
}

/* verify_drive_match: matches, or does not with a reason holding want */
static void drive_is(const struct verify_sheet *s, const struct meas_target *t, bool match,
                     const char *want)
{
    char why[ERR_LEN] = "?";
    bool got = verify_drive_match(s, t, why, sizeof(why));
    if (got != match || (want && !strstr(why, want)))
        print_error("%s %s: got %d (%s), want %d (%s)\n", t->kind, t->path, got, why, match,
                    want ? want : "");
    assert_int_equal(got, match);
    if (want)
        assert_non_null(strstr(why, want));
    assert_null(strchr(why, '\n'));
}

static void test_drive_sheet_keys(void **state)
{
    (void)state;
    struct verify_sheet s = drive_sheet(DRIVE_CM88);
    assert_int_equal(s.n_models, 2);
    assert_string_equal(s.models[0], "OCZ Z-DRIVE R4 CM88");
    assert_string_equal(s.models[1], "OCZ Z-DRIVE R4 C");
    assert_true(s.capacity == 1600000000000ull);     /* TB decimal, as drives are sold */
    assert_string_equal(s.capacity_text, "1.6TB");
    assert_string_equal(s.sim_preset, "zdrive-r4-cm88-1.6t");
    verify_sheet_free(&s);
    s = drive_sheet("sim_preset = sim:generic-mlc25\n");   /* "sim:" tolerated */
    assert_string_equal(s.sim_preset, "generic-mlc25");
    assert_int_equal(s.n_models, 0);
    assert_true(s.capacity == 0);
    verify_sheet_free(&s);
    sheet_bad("capacity = lots\n" CLAIM, "t.ini:1: capacity=lots: want the drive's capacity");
    sheet_bad("capacity = 0\n" CLAIM, "capacity=0");
    sheet_bad("sim_preset = zdrive-6300-1.6t,k=64\n" CLAIM, "sim_preset=zdrive-6300-1.6t,k=64: "
              "want a preset name");
    sheet_bad("reported_models = A, , B\n" CLAIM, "reported_models=A, , B: want up to 8");
    sheet_bad("reported_models = 1,2,3,4,5,6,7,8,9\n" CLAIM, "want up to 8 model strings");
}

/* A simulated target is the sheet's drive when its preset is the sheet's and its (full-size)
 * capacity within 2%: the preset's own is 1,599,999,574,016 bytes, -0.00003% of 1.6 TB. */
static void test_drive_preset_match(void **state)
{
    (void)state;
    struct verify_sheet s = drive_sheet(DRIVE_6300);
    struct meas_target t = target("simulated", "sim:zdrive-6300-1.6t", "", "zdrive-6300-1.6t",
                                  1599999574016ull);
    drive_is(&s, &t, true, NULL);
    /* another preset, of the same capacity: not this drive */
    t = target("simulated", "sim:zdrive-r4-cm88-1.6t", "", "zdrive-r4-cm88-1.6t",
               1599992758272ull);
    drive_is(&s, &t, false, "simulated preset zdrive-r4-cm88-1.6t, not the sheet's "
                            "zdrive-6300-1.6t");
    /* a simulated drive is never matched by a model, whatever its description says */
    t = target("simulated", "sim:x", "OCZ Z-DRIVE 6300", "x", 1600000000000ull);
    drive_is(&s, &t, false, "simulated preset x");
    verify_sheet_free(&s);
}

/* Preset keys: k (and any key that leaves the capacity) still match; a user_bytes that halves
 * the capacity (800 GB: -50.0%) does not. */
static void test_drive_preset_overrides(void **state)
{
    (void)state;
    struct verify_sheet s = drive_sheet(DRIVE_6300);
    struct meas_target t = target("simulated", "sim:zdrive-6300-1.6t,k=64", "",
                                  "zdrive-6300-1.6t", 1599999574016ull);
    drive_is(&s, &t, true, NULL);
    t = target("simulated", "sim:zdrive-6300-1.6t,user_bytes=800GB", "", "zdrive-6300-1.6t",
               800000000000ull);
    drive_is(&s, &t, false, "capacity 800 GB (745.1 GiB) is -50.0% from the sheet's 1.6TB "
                            "(within 2% matches)");
    verify_sheet_free(&s);

    /* the preset from the results: target.simulated.preset, else the path's name (files
     * written before simulated.preset); the description in "model" is not a model */
    struct json_object *doc = json_tokener_parse(
        "{\"target\": {\"kind\": \"simulated\", \"path\": \"sim:zdrive-6300-1.6t,k=64\", "
        "\"model\": \"OCZ Z-Drive 6300 1.6 TB: NVMe\", \"capacity_bytes\": 1599999574016}}");
    assert_non_null(doc);
    meas_target_read(doc, "a/results.json", &t);
    assert_string_equal(t.kind, "simulated");
    assert_string_equal(t.preset, "zdrive-6300-1.6t");
    assert_string_equal(t.model, "");
    assert_string_equal(t.source, "a/results.json");
    assert_true(t.capacity == 1599999574016ull);
    json_object_put(doc);
    doc = json_tokener_parse(
        "{\"target\": {\"kind\": \"simulated\", \"path\": \"sim:zdrive-6300-1.6t\", "
        "\"simulated\": {\"preset\": \"generic-mlc25\"}, \"capacity_bytes\": 5}}");
    meas_target_read(doc, "b/results.json", &t);
    assert_string_equal(t.preset, "generic-mlc25");   /* the record wins over the path */
    json_object_put(doc);
}

/* A block device: its sysfs model is one the sheet names (without case, runs of blanks as one;
 * a trailing '*' a prefix) and its capacity within 2%: the R4 CM84 of the seed
 * ocz-zdrive-r4-install-fio.txt reports "OCZ Z-DRIVE R4 C" and 586,135,549 x 512 =
 * 300,101,401,088 bytes (+0.03% of 300 GB). */
static void test_drive_model_match(void **state)
{
    (void)state;
    struct verify_sheet cm84 = drive_sheet(DRIVE_CM84), cm88 = drive_sheet(DRIVE_CM88);
    struct meas_target t = target("block", "/dev/sdg", "OCZ Z-DRIVE R4 C", "", 300101401088ull);
    drive_is(&cm84, &t, true, NULL);
    t = target("block", "/dev/sdg", "  ocz z-drive   R4 c ", "", 300101401088ull);
    drive_is(&cm84, &t, true, NULL);
    /* the same model string on the CM88 sheet: the capacity tells them apart */
    t = target("block", "/dev/sdg", "OCZ Z-DRIVE R4 C", "", 300101401088ull);
    drive_is(&cm88, &t, false, "capacity 300.1 GB (279.5 GiB) is -81.2% from the sheet's 1.6TB");
    /* a model the sheet does not name */
    t = target("block", "/dev/sdb", "Samsung SSD 860 EVO 500GB", "", 300101401088ull);
    drive_is(&cm84, &t, false, "model \"Samsung SSD 860 EVO 500GB\" is not one the sheet names");
    /* a prefix of a named model is not the model ("OCZ Z-DRIVE R4" of another card) */
    t = target("block", "/dev/sdb", "OCZ Z-DRIVE R4", "", 300101401088ull);
    drive_is(&cm84, &t, false, "is not one the sheet names");
    t = target("block", "/dev/zram0", "", "", 300101401088ull);
    drive_is(&cm84, &t, false, "the device reports no model");
    /* '*': any ending */
    struct verify_sheet z = drive_sheet(DRIVE_6300);
    t = target("block", "/dev/nvme0n1", "ZD6300-TEST", "", 1600000000000ull);
    drive_is(&z, &t, true, NULL);
    verify_sheet_free(&z);
    verify_sheet_free(&cm84);
    verify_sheet_free(&cm88);
}

/* Capacity: within 2% of the sheet's, both ends: 1.6 TB x 1.02 = 1.632e12 matches, 1.633e12 and
 * 1.567e12 (-2.06%) do not; a target without a capacity or a sheet without one never matches. */
static void test_drive_capacity(void **state)
{
    (void)state;
    struct verify_sheet s = drive_sheet(DRIVE_6300);
    struct meas_target t = target("block", "/dev/nvme0n1", "OCZ Z-DRIVE 6300", "",
                                  1632000000000ull);
    drive_is(&s, &t, true, NULL);
    t.capacity = 1568000000000ull;   /* -2.0% */
    drive_is(&s, &t, true, NULL);
    t.capacity = 1633000000000ull;
    drive_is(&s, &t, false, "+2.1% from the sheet's 1.6TB");
    t.capacity = 1567000000000ull;
    drive_is(&s, &t, false, "-2.1% from the sheet's 1.6TB");
    t.capacity = 0;
    drive_is(&s, &t, false, "the results record no capacity");
    verify_sheet_free(&s);
    s = drive_sheet("sim_preset = zdrive-6300-1.6t\n");
    t = target("simulated", "sim:zdrive-6300-1.6t", "", "zdrive-6300-1.6t", 1599999574016ull);
    drive_is(&s, &t, false, "the sheet states no capacity");
    verify_sheet_free(&s);
}

/* A file (the filesystem and the device under it), a remote target, results without a target
 * record, and a sheet that names no drive: never the sheet's drive. */
static void test_drive_file_target(void **state)
{
    (void)state;
    struct verify_sheet s = drive_sheet(DRIVE_6300);
    struct meas_target t = target("file", "/var/tmp/f.img", "", "", 1600000000000ull);
    snprintf(t.device, sizeof(t.device), "vda");
    drive_is(&s, &t, false, "a file target never matches a drive's sheet");
    char line[2048];
    verify_target_describe(&t, line, sizeof(line));
    assert_string_equal(line, "file /var/tmp/f.img on vda, 1.60 TB (1.46 TiB)");
    /* the refusal: one line naming the results, the target and the sheet's drive */
    verify_drive_refusal(&s, &t, "a file target never matches a drive's sheet", line,
                         sizeof(line));
    assert_string_equal(line, "r/results.json: measured on file /var/tmp/f.img on vda, 1.60 TB "
                        "(1.46 TiB), not on the sheet's drive Z6300 (model \"OCZ Z-DRIVE "
                        "6300*\" | \"ZD6300*\", 1.6TB; simulated: sim:zdrive-6300-1.6t): a file "
                        "target never matches a drive's sheet (--any-drive judges the claims "
                        "anyway, every verdict marked)");
    t = target("remote", "/dev/nvme0n1", "", "", 1600000000000ull);
    drive_is(&s, &t, false, "a remote target records no model");
    t = target("", "", "", "", 0);
    drive_is(&s, &t, false, "the results do not record their target");
    verify_sheet_free(&s);
    s = drive_sheet("device = Anonymous\ncapacity = 1.6TB\n");
    t = target("simulated", "sim:zdrive-6300-1.6t", "", "zdrive-6300-1.6t", 1599999574016ull);
    drive_is(&s, &t, false, "the sheet names no drive (reported_models, sim_preset)");
    verify_sheet_free(&s);
}

/* Several results files: every one must be the sheet's drive; the first that is not is named. */
static void test_drive_check_set(void **state)
{
    (void)state;
    struct verify_sheet s = drive_sheet(DRIVE_6300);
    struct meas_target ts[3] = {
        target("simulated", "sim:zdrive-6300-1.6t", "", "zdrive-6300-1.6t", 1599999574016ull),
        target("simulated", "sim:zdrive-6300-1.6t,k=64", "", "zdrive-6300-1.6t",
               1599999574016ull),
        target("file", "/var/tmp/f.img", "", "", 268435456ull),
    };
    struct meas_set set;
    memset(&set, 0, sizeof(set));
    set.targets = ts;
    set.n_targets = 2;
    char why[ERR_LEN];
    assert_int_equal(verify_drive_check(&s, &set, why, sizeof(why)), -1);
    set.n_targets = 3;
    assert_int_equal(verify_drive_check(&s, &set, why, sizeof(why)), 2);
    assert_string_equal(why, "a file target never matches a drive's sheet");
    verify_sheet_free(&s);
}

/* A requirement sheet (kind = requirements) names no drive and applies to any target, one
 * stated capacity or none; its per-TB floor is value x the capacity of the matched point's
 * results file in decimal TB: the same measured 150 IOPS passes 68/TB at 1.6 TB (108.8) and
 * fails it at 3.2 TB (217.6); without a recorded capacity it is not judged. */
static void test_requirement_sheet_any_target(void **state)
{
    (void)state;
    struct verify_sheet s = drive_sheet("kind = requirements\n");
    assert_true(s.requirements && s.c[0].limit);
    struct meas_target ts[] = {
        target("file", "/var/tmp/f.img", "", "", 1000000000),
        target("block", "/dev/sdg", "SOME OTHER SSD", "", 300000000000),
        target("simulated", "sim:generic-mlc25", "", "generic-mlc25", 31610142720),
        target("remote", "host:/dev/x", "", "", 0),
    };
    for (size_t i = 0; i < sizeof(ts) / sizeof(ts[0]); i++)
        drive_is(&s, &ts[i], true, NULL);
    verify_sheet_free(&s);

    struct verify_sheet r;
    char err[ERR_LEN] = "";
    assert_int_equal(sheet_from("kind = requirements\n[c]\nmetric = iops\nvalue = 68\nper = TB\n"
                                "bs = 4k\npattern = random\nread_pct = 100\n", &r, err,
                                sizeof(err)), 0);
    assert_true(r.c[0].per_tb);
    struct meas_point p[2] = {pt(4096, 100, 100, 4, 32, 0, S, 150),
                              pt(4096, 100, 100, 4, 32, 0, S, 150)};
    struct meas_target tt[2] = {target("simulated", "sim:a", "", "a", 1600000000000),
                                target("simulated", "sim:b", "", "b", 3200000000000)};
    snprintf(p[0].source, sizeof(p[0].source), "a.json");
    snprintf(tt[0].source, sizeof(tt[0].source), "a.json");
    snprintf(p[1].source, sizeof(p[1].source), "b.json");
    snprintf(tt[1].source, sizeof(tt[1].source), "b.json");
    struct meas_set set = {.p = p, .n = 1, .targets = tt, .n_targets = 2};
    struct verify_result res;
    verify_check_set(&r.c[0], &set, 0.05, &res);
    assert_int_equal(res.verdict, VERIFY_PASS);
    close_to(res.capacity_tb, 1.6);
    close_to(res.required, 68 * 1.6);
    set.p = p + 1;
    verify_check_set(&r.c[0], &set, 0.05, &res);
    assert_int_equal(res.verdict, VERIFY_FAIL);
    close_to(res.capacity_tb, 3.2);
    close_to(res.required, 68 * 3.2);
    close_to(res.ratio, 150 / (68 * 3.2));
    /* no capacity known (verify_check: no set): neither verdict */
    verify_check(&r.c[0], p, 1, 0.05, &res);
    assert_int_equal(res.verdict, VERIFY_NO_COMPARABLE);
    assert_int_equal(res.match.why, VERIFY_WHY_CAPACITY);
    verify_sheet_free(&r);
}

/* A ceiling of a requirement sheet: met at or below it, missed above it with no tolerance, and
 * a percentile the point's reads cannot support (written null: the tail rule) neither. */
static void test_requirement_ceiling(void **state)
{
    (void)state;
    struct verify_sheet r;
    char err[ERR_LEN] = "";
    assert_int_equal(sheet_from("kind = requirements\n[c]\nmetric = read_lat_p99_9999_us\n"
                                "value = 5000 us\nbs = 4k\npattern = random\nread_pct = 100\n",
                                &r, err, sizeof(err)), 0);
    struct meas_point p = pt(4096, 100, 100, 4, 32, 0, S, 1000);
    p.v[MEAS_READ_LAT_MAX_US] = 9000;
    p.v[MEAS_READ_LAT_COUNT] = 1000;   /* 1,000 reads: 99.9999 % unsupported (stats/hist.h) */
    struct verify_result res;
    p.v[MEAS_READ_LAT_P99_9999_US] = 5000;   /* at the ceiling */
    verify_check(&r.c[0], &p, 1, 0.05, &res);
    assert_int_equal(res.verdict, VERIFY_PASS);
    p.v[MEAS_READ_LAT_P99_9999_US] = 5100;   /* 2 % above: a vendor claim would pass */
    verify_check(&r.c[0], &p, 1, 0.05, &res);
    assert_int_equal(res.verdict, VERIFY_FAIL);
    r.c[0].limit = false;
    verify_check(&r.c[0], &p, 1, 0.05, &res);
    assert_int_equal(res.verdict, VERIFY_PASS);
    r.c[0].limit = true;
    p.v[MEAS_READ_LAT_P99_9999_US] = NAN;    /* null: not enough I/Os */
    verify_check(&r.c[0], &p, 1, 0.05, &res);
    assert_int_equal(res.verdict, VERIFY_NO_COMPARABLE);
    assert_int_equal(res.match.why, VERIFY_WHY_TAIL);
    assert_ptr_equal(res.match.nearest, &p);
    reason_has(&r.c[0], &res.match, "not enough I/Os for this percentile (1,000)");
    p.v[MEAS_READ_LAT_COUNT] = NAN;          /* no read latencies recorded: no figure */
    verify_check(&r.c[0], &p, 1, 0.05, &res);
    assert_int_equal(res.match.why, VERIFY_WHY_FIGURE);
    verify_sheet_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_units_throughput),
        cmocka_unit_test(test_units_latency_iops),
        cmocka_unit_test(test_quantities),
        cmocka_unit_test(test_block_sizes),
        cmocka_unit_test(test_tolerance),
        cmocka_unit_test(test_sheet_parse),
        cmocka_unit_test(test_sheet_errors),
        cmocka_unit_test(test_no_point_at_shape),
        cmocka_unit_test(test_steady_claim_only_burst),
        cmocka_unit_test(test_fob_claim_only_steady),
        cmocka_unit_test(test_fob_claim_prefers_fob),
        cmocka_unit_test(test_unwritten_reads_not_comparable),
        cmocka_unit_test(test_6300_lat_write_needs_qd1),
        cmocka_unit_test(test_assumed_qd_orders),
        cmocka_unit_test(test_stated_compress_never_substituted),
        cmocka_unit_test(test_reason_is_the_last_step),
        cmocka_unit_test(test_no_match),
        cmocka_unit_test(test_verdict_throughput_units),
        cmocka_unit_test(test_verdict_latency),
        cmocka_unit_test(test_tolerance_edges),
        cmocka_unit_test(test_shipped_specs),
        cmocka_unit_test(test_drive_sheet_keys),
        cmocka_unit_test(test_drive_preset_match),
        cmocka_unit_test(test_drive_preset_overrides),
        cmocka_unit_test(test_percentile_not_enough_ios),
        cmocka_unit_test(test_drive_model_match),
        cmocka_unit_test(test_drive_capacity),
        cmocka_unit_test(test_drive_file_target),
        cmocka_unit_test(test_drive_check_set),
        cmocka_unit_test(test_requirement_sheet_any_target),
        cmocka_unit_test(test_requirement_ceiling),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
