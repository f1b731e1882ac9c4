/* test_export.c — export's CSV fields after RFC 4180 (section 2: fields holding commas, double
 * quotes or line breaks are enclosed in double quotes, an inner double quote doubled). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "report/export.h"

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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_csv_quoting),
        cmocka_unit_test(test_csv_truncation),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
