/* test_units.c — sizes, durations, percents, counts and size formatting. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "lib/units.h"
#include "lib/util.h"

static uint64_t size_ok(const char *text)
{
    char err[ERR_LEN] = "";
    uint64_t v = 12345;
    int rc = units_parse_size(text, &v, err, sizeof err);
    if (rc != 0)
        print_error("units_parse_size(%s): %s\n", text, err);
    assert_int_equal(rc, 0);
    return v;
}

/* Parse must fail; the message must contain `want`. */
static void size_bad(const char *text, const char *want)
{
    char err[ERR_LEN] = "";
    uint64_t v = 777;
    assert_int_equal(units_parse_size(text, &v, err, sizeof err), -1);
    assert_int_equal(v, 777);
    assert_non_null(strstr(err, want));
}

static void test_size_bytes(void **state)
{
    (void)state;
    assert_int_equal(size_ok("0"), 0);
    assert_int_equal(size_ok("512"), 512);
    assert_int_equal(size_ok("512B"), 512);
    assert_int_equal(size_ok(" 4096 "), 4096);
    assert_int_equal(size_ok("18446744073709551615"), UINT64_MAX);
}

static void test_size_binary(void **state)
{
    (void)state;
    assert_int_equal(size_ok("4k"), 4096);
    assert_int_equal(size_ok("4K"), 4096);
    assert_int_equal(size_ok("4KiB"), 4096);
    assert_int_equal(size_ok("4kib"), 4096);
    assert_int_equal(size_ok("1m"), 1048576);
    assert_int_equal(size_ok("1M"), 1048576);
    assert_int_equal(size_ok("1MiB"), 1048576);
    assert_int_equal(size_ok("2g"), 2147483648ull);
    assert_int_equal(size_ok("2GiB"), 2147483648ull);
    assert_int_equal(size_ok("1t"), 1099511627776ull);
    assert_int_equal(size_ok("1TiB"), 1099511627776ull);
    assert_int_equal(size_ok("1p"), 1125899906842624ull);
    assert_int_equal(size_ok("1e"), 1152921504606846976ull);
}

static void test_size_si(void **state)
{
    (void)state;
    assert_int_equal(size_ok("4kB"), 4000);
    assert_int_equal(size_ok("4KB"), 4000);
    assert_int_equal(size_ok("1MB"), 1000000);
    assert_int_equal(size_ok("1GB"), 1000000000ull);
    assert_int_equal(size_ok("1TB"), 1000000000000ull);
    assert_int_equal(size_ok("480GB"), 480000000000ull);
}

static void test_size_fractions(void **state)
{
    (void)state;
    assert_int_equal(size_ok("1.5k"), 1536);
    assert_int_equal(size_ok("0.5m"), 524288);
    assert_int_equal(size_ok("1.25MB"), 1250000);
    assert_int_equal(size_ok("2.0k"), 2048);
    size_bad("0.3k", "not a whole number");
    size_bad("1.5", "not a whole number");
}

static void test_size_errors(void **state)
{
    (void)state;
    size_bad("4q", "bad size '4q'");
    size_bad("", "empty");
    size_bad("k", "bad size 'k'");
    size_bad("-4k", "bad size '-4k'");
    size_bad("+4k", "bad size");
    size_bad("4 k", "bad size");
    size_bad("0x10", "bad size");
    size_bad("1e3", "bad size");
    size_bad("4kb", "bad size '4kb': ambiguous unit 'kb' (use k or KiB for 1024, kB for 1000)");
    size_bad("4q", "bad size '4q': unknown unit 'q'");
    size_bad("4KiBB", "bad size");
    size_bad("1.k", "bad size");
    size_bad("16e", "too large");
    size_bad("18.5EB", "too large");   /* the fraction is what overflows */
    assert_int_equal(size_ok("18.4EB"), 18400000000000000000ull);
    size_bad("18446744073709551616", "bad size");
}

static uint64_t dur_ok(const char *text)
{
    char err[ERR_LEN] = "";
    uint64_t v = 1;
    int rc = units_parse_duration(text, &v, err, sizeof err);
    if (rc != 0)
        print_error("units_parse_duration(%s): %s\n", text, err);
    assert_int_equal(rc, 0);
    return v;
}

static void dur_bad(const char *text, const char *want)
{
    char err[ERR_LEN] = "";
    uint64_t v = 1;
    assert_int_equal(units_parse_duration(text, &v, err, sizeof err), -1);
    assert_non_null(strstr(err, want));
}

static void test_durations(void **state)
{
    (void)state;
    const uint64_t s = 1000000000ull;
    assert_int_equal(dur_ok("60"), 60 * s);
    assert_int_equal(dur_ok("60s"), 60 * s);
    assert_int_equal(dur_ok("500ms"), 500000000ull);
    assert_int_equal(dur_ok("250us"), 250000ull);
    assert_int_equal(dur_ok("7ns"), 7ull);
    assert_int_equal(dur_ok("5m"), 300 * s);
    assert_int_equal(dur_ok("5min"), 300 * s);
    assert_int_equal(dur_ok("1h"), 3600 * s);
    assert_int_equal(dur_ok("1h30m"), 5400 * s);
    assert_int_equal(dur_ok("1m30s"), 90 * s);
    assert_int_equal(dur_ok("2d"), 172800 * s);
    assert_int_equal(dur_ok("1.5s"), 1500000000ull);
    assert_int_equal(dur_ok("0"), 0);
    dur_bad("", "empty");
    dur_bad("5x", "unknown unit 'x'");
    dur_bad("1h30", "missing unit");
    dur_bad("-5s", "bad duration");
    dur_bad("s", "bad duration");
    dur_bad("0.5ns", "finer than a nanosecond");
    dur_bad("999999999d", "too long");
}

static double pct_ok(const char *text)
{
    char err[ERR_LEN] = "";
    double v = -1;
    int rc = units_parse_percent(text, &v, err, sizeof err);
    if (rc != 0)
        print_error("units_parse_percent(%s): %s\n", text, err);
    assert_int_equal(rc, 0);
    return v;
}

static void pct_bad(const char *text, const char *want)
{
    char err[ERR_LEN] = "";
    double v = -1;
    assert_int_equal(units_parse_percent(text, &v, err, sizeof err), -1);
    assert_true(v == -1);
    assert_non_null(strstr(err, want));
}

static void test_percents(void **state)
{
    (void)state;
    assert_true(pct_ok("75") == 75.0);
    assert_true(pct_ok("75%") == 75.0);
    assert_true(pct_ok("12.5%") == 12.5);
    assert_true(pct_ok("0") == 0.0);
    assert_true(pct_ok("100%") == 100.0);
    pct_bad("150", "bad percent '150'");
    pct_bad("100.5%", "want 0..100");
    pct_bad("-1", "bad percent");
    pct_bad("abc", "bad percent 'abc'");
    pct_bad("%", "bad percent");
    pct_bad("", "empty");
    pct_bad("1e2", "bad percent");
    pct_bad("nan", "bad percent");
}

static void test_uints(void **state)
{
    (void)state;
    char err[ERR_LEN] = "";
    uint64_t v = 0;
    assert_int_equal(units_parse_uint("32", 1, 65536, &v, err, sizeof err), 0);
    assert_int_equal(v, 32);
    assert_int_equal(units_parse_uint("65536", 1, 65536, &v, err, sizeof err), 0);
    assert_int_equal(v, 65536);
    v = 5;
    assert_int_equal(units_parse_uint("0", 1, 65536, &v, err, sizeof err), -1);
    assert_non_null(strstr(err, "0 is out of range 1..65536"));
    assert_int_equal(units_parse_uint("65537", 1, 65536, &v, err, sizeof err), -1);
    assert_int_equal(units_parse_uint("1k", 1, 65536, &v, err, sizeof err), -1);
    assert_non_null(strstr(err, "bad number '1k'"));
    assert_int_equal(units_parse_uint("-1", 0, 10, &v, err, sizeof err), -1);
    assert_int_equal(units_parse_uint("", 0, 10, &v, err, sizeof err), -1);
    assert_int_equal(units_parse_uint("99999999999999999999999", 0, UINT64_MAX, &v, err,
                                      sizeof err), -1);
    assert_int_equal(v, 5);
}

static void fmt_is(uint64_t bytes, const char *want)
{
    char buf[32];
    units_format_size(bytes, buf, sizeof buf);
    assert_string_equal(buf, want);
    /* The formatted form parses back to the same number. */
    assert_int_equal(size_ok(buf), bytes);
}

static void test_format_size(void **state)
{
    (void)state;
    fmt_is(4096, "4KiB");
    fmt_is(1536, "1536B");
    fmt_is(1048576, "1MiB");
    fmt_is(512, "512B");
    fmt_is(0, "0B");
    fmt_is(3ull << 30, "3GiB");
    fmt_is(1ull << 40, "1TiB");
    fmt_is(5ull << 50, "5PiB");
    fmt_is(1ull << 62, "4EiB");
    fmt_is(1048576 + 4096, "1028KiB");
}

/* One block-size label everywhere (tables, charts, verify, gate): the PTS's KiB up to 1 MiB. */
static void test_format_bs(void **state)
{
    (void)state;
    static const struct {
        double bytes;
        const char *want;
    } c[] = {{512, "0.5 KiB"},    {4096, "4 KiB"},       {1536, "1.5 KiB"}, {131072, "128 KiB"},
             {1048576, "1024 KiB"}, {2097152, "2 MiB"},  {8388608, "8 MiB"}, {100, "100 B"},
             {0, "mixed sizes"},  {-1, "mixed sizes"}, {NAN, "mixed sizes"}};
    char b[32];
    for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
        units_format_bs(c[i].bytes, b, sizeof b);
        assert_string_equal(b, c[i].want);
    }
}

/* One latency label: "us" on terminals, "µs" in reports; ms from 1 ms, one decimal from 10 ms. */
static void test_format_lat(void **state)
{
    (void)state;
    char b[32];
    units_format_lat(87.34, UNITS_TEXT, b, sizeof b);
    assert_string_equal(b, "87.3 us");
    units_format_lat(87.34, UNITS_TYPESET, b, sizeof b);
    assert_string_equal(b, "87.3 µs");
    units_format_lat(1250, UNITS_TEXT, b, sizeof b);
    assert_string_equal(b, "1.25 ms");
    units_format_lat(35200, UNITS_TEXT, b, sizeof b);
    assert_string_equal(b, "35.2 ms");
    units_format_lat(NAN, UNITS_TEXT, b, sizeof b);
    assert_string_equal(b, "-");
    units_format_lat(NAN, UNITS_TYPESET, b, sizeof b);
    assert_string_equal(b, "–");
}

static void test_format_count(void **state)
{
    (void)state;
    char b[32];
    units_format_count(1234567.8, b, sizeof b);
    assert_string_equal(b, "1,234,568");
    units_format_count(999, b, sizeof b);
    assert_string_equal(b, "999");
    units_format_count(1000, b, sizeof b);
    assert_string_equal(b, "1,000");
    units_format_count(-48129, b, sizeof b);
    assert_string_equal(b, "-48,129");
    units_format_count(0.4, b, sizeof b);
    assert_string_equal(b, "0");
    units_format_count(NAN, b, sizeof b);
    assert_string_equal(b, "-");
    units_format_count(123456789, b, 6);   /* truncated, still terminated */
    assert_true(strlen(b) < 6);
}

static void test_format_short(void **state)
{
    (void)state;
    char b[32];
    static const struct {
        double v;
        int sig;
        const char *want;
    } cases[] = {
        {400000, 3, "400k"},   {1234567, 3, "1.23M"}, {1200000, 3, "1.2M"},
        {38420, 3, "38.4k"},   {28099.1, 2, "28k"},   {1090.13, 2, "1.1k"},
        {604.16, 3, "604"},    {0.5, 3, "0.5"},       {999600, 3, "1M"},
        {-683.52, 3, "-684"},  {-2500, 2, "-2.5k"},   {0, 3, "0"},
        {3.2e9, 2, "3.2G"},    {999.4, 3, "999"},     {1000, 3, "1k"},
        {604.16, 2, "600"},    {16486, 2, "16k"},     {0.0123, 2, "0.012"},
        {95, 1, "100"},        {1.5, 1, "2"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        units_format_short_sig(cases[i].v, cases[i].sig, b, sizeof b);
        if (strcmp(b, cases[i].want))
            fail_msg("units_format_short_sig(%g, %d) = '%s', want '%s'", cases[i].v,
                     cases[i].sig, b, cases[i].want);
    }
    units_format_short(400000, b, sizeof b);
    assert_string_equal(b, "400k");
    units_format_short(NAN, b, sizeof b);
    assert_string_equal(b, "-");
}

static void fig_is(double v, enum units_figure kind, const char *want)
{
    char b[64];
    units_format_figure(v, kind, b, sizeof b);
    if (strcmp(b, want))
        fail_msg("units_format_figure(%.17g, %d) = '%s', want '%s'", v, (int)kind, b, want);
}

static void test_format_figure(void **state)
{
    (void)state;
    /* IOPS: whole numbers, thousands separators */
    fig_is(110639.4, UNITS_FIG_IOPS, "110,639");
    fig_is(697672, UNITS_FIG_IOPS, "697,672");
    fig_is(0, UNITS_FIG_IOPS, "0");
    fig_is(-0.4, UNITS_FIG_IOPS, "0");
    fig_is(-48129, UNITS_FIG_IOPS, "-48,129");
    fig_is(999.5, UNITS_FIG_IOPS, "1,000");
    fig_is(1e9, UNITS_FIG_IOPS, "1,000,000,000");
    fig_is(NAN, UNITS_FIG_IOPS, "—");
    fig_is(INFINITY, UNITS_FIG_IOPS, "—");
    /* MB/s: 3 significant digits at least, no decimals from 100 */
    fig_is(3197.7, UNITS_FIG_MBS, "3,198");
    fig_is(384.2, UNITS_FIG_MBS, "384");
    fig_is(38.42, UNITS_FIG_MBS, "38.4");
    fig_is(38412.8, UNITS_FIG_MBS, "38,413");
    fig_is(3.842, UNITS_FIG_MBS, "3.84");
    fig_is(0.3842, UNITS_FIG_MBS, "0.384");
    fig_is(0.0001234, UNITS_FIG_MBS, "0.000123");
    fig_is(1e-9, UNITS_FIG_MBS, "0.000000");
    fig_is(99.96, UNITS_FIG_MBS, "100");
    fig_is(99.94, UNITS_FIG_MBS, "99.9");
    fig_is(999.95, UNITS_FIG_MBS, "1,000");
    fig_is(9.996, UNITS_FIG_MBS, "10.0");
    fig_is(0, UNITS_FIG_MBS, "0");
    fig_is(-12.345, UNITS_FIG_MBS, "-12.3");
    fig_is(-2500.4, UNITS_FIG_VALUE, "-2,500");
    fig_is(1e9, UNITS_FIG_MBS, "1,000,000,000");
    fig_is(NAN, UNITS_FIG_MBS, "—");
    /* latency: units_format_lat's text style */
    fig_is(87.34, UNITS_FIG_LAT, "87.3 us");
    fig_is(1250, UNITS_FIG_LAT, "1.25 ms");
    fig_is(NAN, UNITS_FIG_LAT, "—");
    /* percentages: one decimal */
    fig_is(12.46, UNITS_FIG_PCT, "12.5%");
    fig_is(100, UNITS_FIG_PCT, "100.0%");
    fig_is(0, UNITS_FIG_PCT, "0.0%");
    fig_is(-0.01, UNITS_FIG_PCT, "0.0%");
    fig_is(-3.25, UNITS_FIG_PCT, "-3.2%");
    fig_is(99.95, UNITS_FIG_PCT, "100.0%");
    fig_is(NAN, UNITS_FIG_PCT, "—");
    /* write amplification: two decimals */
    fig_is(2.345, UNITS_FIG_WAF, "2.35");
    fig_is(1, UNITS_FIG_WAF, "1.00");
    fig_is(0, UNITS_FIG_WAF, "0.00");
    fig_is(1234.5, UNITS_FIG_WAF, "1,234.50");
    fig_is(NAN, UNITS_FIG_WAF, "—");
    /* counts: whole numbers, thousands separators */
    fig_is(39523, UNITS_FIG_COUNT, "39,523");
    fig_is(1000000, UNITS_FIG_COUNT, "1,000,000");
    fig_is(475, UNITS_FIG_COUNT, "475");
    fig_is(NAN, UNITS_FIG_COUNT, "—");
    /* ratios: three decimals */
    fig_is(0.95312, UNITS_FIG_RATIO, "0.953");
    fig_is(1.01, UNITS_FIG_RATIO, "1.010");
    fig_is(1234.5, UNITS_FIG_RATIO, "1,234.500");
    fig_is(NAN, UNITS_FIG_RATIO, "—");
    /* bytes: decimal units by magnitude, 3 significant digits at least */
    fig_is(6433e9, UNITS_FIG_BYTES, "6.43 TB");
    fig_is(1.3e9, UNITS_FIG_BYTES, "1.30 GB");
    fig_is(81e6, UNITS_FIG_BYTES, "81.0 MB");
    fig_is(145.957e9, UNITS_FIG_BYTES, "146 GB");
    fig_is(999.96e9, UNITS_FIG_BYTES, "1.00 TB");
    fig_is(999.4e9, UNITS_FIG_BYTES, "999 GB");
    fig_is(512, UNITS_FIG_BYTES, "512 B");
    fig_is(0, UNITS_FIG_BYTES, "0 B");
    fig_is(4096, UNITS_FIG_BYTES, "4.10 kB");
    fig_is(2.5e18, UNITS_FIG_BYTES, "2,500 PB");
    fig_is(-1.5e9, UNITS_FIG_BYTES, "-1.50 GB");
    fig_is(NAN, UNITS_FIG_BYTES, "—");
    /* which kind a tracked figure is: the metric vocabulary's (test_tracking, test_metrics) */
    char b[6];
    units_format_figure(123456789, UNITS_FIG_IOPS, b, sizeof b);   /* truncated, terminated */
    assert_true(strlen(b) < sizeof b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_size_bytes),
        cmocka_unit_test(test_size_binary),
        cmocka_unit_test(test_size_si),
        cmocka_unit_test(test_size_fractions),
        cmocka_unit_test(test_size_errors),
        cmocka_unit_test(test_durations),
        cmocka_unit_test(test_percents),
        cmocka_unit_test(test_uints),
        cmocka_unit_test(test_format_size),
        cmocka_unit_test(test_format_count),
        cmocka_unit_test(test_format_short),
        cmocka_unit_test(test_format_figure),
        cmocka_unit_test(test_format_bs),
        cmocka_unit_test(test_format_lat),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
