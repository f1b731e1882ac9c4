/* test_verify.c — spec sheets against measured points (src/report/verify.h): unit
 * normalisation, claim parsing, the matching rule, verdicts and tolerance edges, and the
 * shipped spec sheets in specs/. Expected values are worked out by hand in the comments. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ini.h"
#include "measure.h"
#include "util.h"
#include "verify.h"

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
                        "compress = 90%\n",
                        &s, err, sizeof(err));
    if (rc)
        print_error("%s\n", err);
    assert_int_equal(rc, 0);
    assert_string_equal(s.device, "Drive X");
    assert_int_equal(s.n, 3);
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
    assert_string_equal(cond, "4 KiB random, R/W 70/30, steady, compress 90%");
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

static void test_match_exact_over_closer_qd(void **state)
{
    (void)state;
    const enum meas_state S = MEAS_STATE_STEADY, F = MEAS_STATE_FOB;
    struct meas_point p[] = {
        pt(4096, 100, 100, 4, 32, 0, F, 400000),   /* the claimed QD, but fob */
        pt(4096, 100, 100, 1, 1, 0, S, 10000),     /* steady as claimed, QD far off */
        pt(8192, 100, 100, 4, 32, 0, S, 300000),   /* another block size */
        pt(4096, 0, 100, 4, 32, 0, S, 500000),     /* sequential */
        pt(4096, 100, 70, 4, 32, 0, S, 200000),    /* another read share */
        pt(0, 100, 100, 4, 32, 0, S, 200000),      /* mixed sizes */
    };
    struct verify_claim c = claim(4096, false, 100, 4, 32, 0, S, 100000);
    struct verify_match m;
    verify_match_claim(&c, p, 6, &m);
    assert_ptr_equal(m.point, &p[1]);
    assert_true(m.exact);

    /* "any" state: both match; then the closest outstanding I/O */
    c.state = MEAS_STATE_UNKNOWN;
    verify_match_claim(&c, p, 6, &m);
    assert_ptr_equal(m.point, &p[0]);
    assert_true(m.exact);

    /* claimed compressible, nothing is: the fewest differing conditions (p[1]: only compress) */
    c = claim(4096, false, 100, 4, 32, 100, S, 100000);
    verify_match_claim(&c, p, 6, &m);
    assert_ptr_equal(m.point, &p[1]);
    assert_false(m.exact);
    assert_true(m.compress_differs);
    assert_false(m.state_differs);
    char diff[256];
    verify_match_differences(&c, &m, diff, sizeof(diff));
    assert_string_equal(diff, "compress 0% (claimed 100%)");

    /* two conditions differ everywhere: the closest compressibility, then QD */
    struct meas_point q[] = {
        pt(4096, 100, 0, 4, 32, 0, S, 50000),
        pt(4096, 100, 0, 1, 32, 90, S, 60000),
        pt(4096, 100, 0, 4, 32, 90, S, 70000),
    };
    c = claim(4096, false, 0, 4, 32, 100, F, 400000);
    verify_match_claim(&c, q, 3, &m);
    assert_ptr_equal(m.point, &q[2]);
    verify_match_differences(&c, &m, diff, sizeof(diff));
    assert_string_equal(diff, "compress 90% (claimed 100%), state steady (claimed fob)");
}

static void test_match_closest_qd(void **state)
{
    (void)state;
    const enum meas_state S = MEAS_STATE_STEADY;
    struct meas_point p[] = {
        pt(4096, 100, 100, 4, 8, 0, S, 1),    /* 32: log2 ratio 2 */
        pt(4096, 100, 100, 4, 64, 0, S, 2),   /* 256: 1 */
        pt(4096, 100, 100, 2, 16, 0, S, 3),   /* 32: 2 */
    };
    struct verify_claim c = claim(4096, false, 100, 4, 32, 0, S, 1);
    struct verify_match m;
    verify_match_claim(&c, p, 3, &m);
    assert_ptr_equal(m.point, &p[1]);
    /* unstated QD: not a criterion, the first point wins */
    c.qd = c.threads = 0;
    verify_match_claim(&c, p, 3, &m);
    assert_ptr_equal(m.point, &p[0]);
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
    assert_int_equal(r.verdict, VERIFY_NO_DATA);
    assert_true(isnan(r.measured));
    assert_true(isnan(r.ratio));
    assert_string_equal(verify_verdict_name(r.verdict), "no data");
    c = claim(65536, true, 100, 1, 32, 0, MEAS_STATE_STEADY, 1);
    verify_check(&c, p, 1, 0.05, &r);
    assert_int_equal(r.verdict, VERIFY_NO_DATA);
    c = claim(131072, true, 0, 1, 32, 0, MEAS_STATE_STEADY, 1);
    verify_check(&c, p, 1, 0.05, &r);
    assert_int_equal(r.verdict, VERIFY_NO_DATA);
    /* a metric the point does not have (NAN) does not match either */
    c = claim(131072, true, 100, 1, 32, 0, MEAS_STATE_STEADY, 1);
    c.metric = MEAS_LAT_P99_US;
    c.unit = unit("us");
    verify_check(&c, p, 1, 0.05, &r);
    assert_int_equal(r.verdict, VERIFY_NO_DATA);
    /* and the matching one passes */
    c = claim(131072, true, 100, 1, 32, 0, MEAS_STATE_STEADY, 20000);
    verify_check(&c, p, 1, 0.05, &r);
    assert_int_equal(r.verdict, VERIFY_PASS);
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
    /* better than claimed always passes; no measurement is no data */
    assert_int_equal(verify_judge(VERIFY_KIND_IOPS, 100, 1e9, 0, NULL), VERIFY_PASS);
    assert_int_equal(verify_judge(VERIFY_KIND_LATENCY, 100, 0.001, 0, NULL), VERIFY_PASS);
    assert_int_equal(verify_judge(VERIFY_KIND_IOPS, 100, NAN, 0.05, NULL), VERIFY_NO_DATA);
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
        for (size_t j = 0; j < s.n; j++) {
            assert_true(s.c[j].source[0] != '\0');              /* every claim says where from */
            assert_true(s.c[j].state != MEAS_STATE_UNKNOWN);    /* and in which state */
            assert_true(s.c[j].compress_pct >= 0);
            assert_true(s.c[j].qd > 0 && s.c[j].threads > 0);
        }
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
    verify_sheet_free(&s);
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
        cmocka_unit_test(test_match_exact_over_closer_qd),
        cmocka_unit_test(test_match_closest_qd),
        cmocka_unit_test(test_no_match),
        cmocka_unit_test(test_verdict_throughput_units),
        cmocka_unit_test(test_verdict_latency),
        cmocka_unit_test(test_tolerance_edges),
        cmocka_unit_test(test_shipped_specs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
