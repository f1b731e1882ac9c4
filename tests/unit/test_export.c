/* test_export.c — export's CSV fields after RFC 4180 (section 2: fields holding commas, double
 * quotes or line breaks are enclosed in double quotes, an inner double quote doubled). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "report/data_uri.h"
#include "show/export.h"

static void check(const char *in, const char *want)
{
    char out[128];
    size_t n = export_csv_field(in, out, sizeof(out));
    assert_string_equal(out, want);
    assert_int_equal(n, strlen(want));
}

static void test_csv_quoting(void **state)
{
    (void)state;
    check("", "");
    check("plain", "plain");
    check("4096", "4096");
    check("rw=randrw,bs=4k", "\"rw=randrw,bs=4k\"");
    check("say \"hi\"", "\"say \"\"hi\"\"\"");
    check("\"", "\"\"\"\"");
    check("two\nlines", "\"two\nlines\"");
    check("cr\rhere", "\"cr\rhere\"");
    check("tab\there", "tab\there");   /* a tab is not special in CSV */
    check("a;b", "a;b");
}

/* A short buffer gets a NUL-terminated prefix and the length the whole field needs. */
static void test_csv_truncation(void **state)
{
    (void)state;
    char out[5];
    assert_int_equal(export_csv_field("a,bcdef", out, sizeof(out)), 9);
    assert_string_equal(out, "\"a,b");
    assert_int_equal(export_csv_field("x\"y", NULL, 0), 6);
}

/* The report's data: URIs: base64 as RFC 4648 gives it (section 10, the test vectors). */
static void test_base64_vectors(void **state)
{
    (void)state;
    static const char *const v[][2] = {{"", ""}, {"f", "Zg=="}, {"fo", "Zm8="}, {"foo", "Zm9v"},
                                       {"foob", "Zm9vYg=="}, {"fooba", "Zm9vYmE="},
                                       {"foobar", "Zm9vYmFy"}};
    for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
        char out[16];
        size_t n = data_uri_base64((const unsigned char *)v[i][0], strlen(v[i][0]), out);
        assert_string_equal(out, v[i][1]);
        assert_int_equal(n, strlen(v[i][1]));
    }
    const unsigned char bin[] = {0xfb, 0xff, 0x00};
    char out[8];
    data_uri_base64(bin, 3, out);
    assert_string_equal(out, "+/8A");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_csv_quoting),
        cmocka_unit_test(test_csv_truncation),
        cmocka_unit_test(test_base64_vectors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
