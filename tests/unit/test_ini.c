/* test_ini.c — the fio-style INI parser. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/ini.h"
#include "lib/util.h"

static void parse_ok(const char *text, struct ini_file *f)
{
    char err[ERR_LEN] = "";
    int rc = ini_parse_string(text, "t.ini", f, err, sizeof err);
    if (rc != 0)
        print_error("ini_parse_string: %s\n", err);
    assert_int_equal(rc, 0);
}

static void parse_bad(const char *text, const char *want)
{
    char err[ERR_LEN] = "";
    struct ini_file f;
    assert_int_equal(ini_parse_string(text, "t.ini", &f, err, sizeof err), -1);
    if (!strstr(err, want))
        print_error("got '%s', want '%s'\n", err, want);
    assert_non_null(strstr(err, want));
    assert_int_equal(f.n_sections, 0);
    assert_null(f.sections);
}

static void test_basic(void **state)
{
    (void)state;
    struct ini_file f;
    parse_ok("[web]\nrw=randrw\nbs = 4k\n\n[db]\nqd=32\n", &f);
    assert_string_equal(f.path, "t.ini");
    assert_int_equal(f.n_sections, 2);
    assert_string_equal(f.sections[0].name, "web");
    assert_int_equal(f.sections[0].line, 1);
    assert_int_equal(f.sections[0].n_entries, 2);
    assert_string_equal(f.sections[0].entries[1].key, "bs");
    assert_string_equal(f.sections[0].entries[1].value, "4k");
    assert_int_equal(f.sections[0].entries[1].line, 3);
    assert_string_equal(f.sections[1].name, "db");
    assert_int_equal(f.sections[1].line, 5);

    const struct ini_section *db = ini_find_section(&f, "db");
    assert_ptr_equal(db, &f.sections[1]);
    const struct ini_entry *qd = ini_find(db, "qd");
    assert_non_null(qd);
    assert_string_equal(qd->value, "32");
    assert_int_equal(qd->line, 6);
    assert_null(ini_find(db, "rw"));
    assert_null(ini_find_section(&f, "DB"));   /* case-sensitive */
    assert_null(ini_find_section(&f, "global"));
    ini_free(&f);
    assert_null(f.sections);
    assert_null(f.path);
}

static void test_comments_and_whitespace(void **state)
{
    (void)state;
    struct ini_file f;
    parse_ok("; leading comment\n"
             "# another\n"
             "   ; indented comment\n"
             "[ job ]   ; section comment\n"
             "\tbs =  64k   ; note\n"
             "rw=read# not a comment without space\n"
             "description = a b  c   # trailing\n"
             "path=/tmp/a;b\n",
             &f);
    assert_int_equal(f.n_sections, 1);
    const struct ini_section *s = ini_find_section(&f, "job");
    assert_non_null(s);
    assert_int_equal(s->n_entries, 4);
    assert_string_equal(ini_find(s, "bs")->value, "64k");
    assert_int_equal(ini_find(s, "bs")->line, 5);
    assert_string_equal(ini_find(s, "rw")->value, "read# not a comment without space");
    assert_string_equal(ini_find(s, "description")->value, "a b  c");
    assert_string_equal(ini_find(s, "path")->value, "/tmp/a;b");
    ini_free(&f);
}

static void test_global_and_flags(void **state)
{
    (void)state;
    struct ini_file f;
    parse_ok("bs=4k\ndirect\n[a]\ntime_based\nsize=\n", &f);
    assert_int_equal(f.n_sections, 2);
    const struct ini_section *g = ini_find_section(&f, "global");
    assert_ptr_equal(g, &f.sections[0]);
    assert_int_equal(g->line, 1);
    assert_string_equal(ini_find(g, "bs")->value, "4k");
    assert_string_equal(ini_find(g, "direct")->value, "");
    assert_int_equal(ini_find(g, "direct")->line, 2);
    const struct ini_section *a = ini_find_section(&f, "a");
    assert_string_equal(ini_find(a, "time_based")->value, "");
    assert_string_equal(ini_find(a, "size")->value, "");
    ini_free(&f);
}

static void test_last_value_wins_and_merge(void **state)
{
    (void)state;
    struct ini_file f;
    parse_ok("[a]\nqd=1\nqd=2\n[b]\nx=1\n[a]\nqd=3\ny=4\nkey=a=b\n", &f);
    assert_int_equal(f.n_sections, 2);           /* [a] twice is one section */
    const struct ini_section *a = ini_find_section(&f, "a");
    assert_int_equal(a->n_entries, 5);
    assert_string_equal(ini_find(a, "qd")->value, "3");
    assert_int_equal(ini_find(a, "qd")->line, 7);
    assert_string_equal(ini_find(a, "y")->value, "4");
    assert_string_equal(ini_find(a, "key")->value, "a=b");   /* split at the first '=' */
    ini_free(&f);
}

static void test_crlf_bom_and_many(void **state)
{
    (void)state;
    struct ini_file f;
    parse_ok("\xEF\xBB\xBF[w]\r\nbs=4k\r\nqd = 8 \r\n", &f);
    const struct ini_section *w = ini_find_section(&f, "w");
    assert_non_null(w);
    assert_string_equal(ini_find(w, "bs")->value, "4k");
    assert_string_equal(ini_find(w, "qd")->value, "8");
    ini_free(&f);

    /* Many sections and entries exercise array growth. */
    char text[20000];
    size_t pos = 0;
    for (int i = 0; i < 100; i++)
        pos += (size_t)snprintf(text + pos, sizeof text - pos, "[s%d]\nk%d=%d\nz=1\n", i, i, i);
    parse_ok(text, &f);
    assert_int_equal(f.n_sections, 100);
    assert_string_equal(ini_find(ini_find_section(&f, "s77"), "k77")->value, "77");
    assert_int_equal(ini_find(ini_find_section(&f, "s77"), "k77")->line, 77 * 3 + 2);
    ini_free(&f);

    parse_ok("", &f);
    assert_int_equal(f.n_sections, 0);
    ini_free(&f);
}

static void test_errors(void **state)
{
    (void)state;
    parse_bad("[a]\nbs=4k\n[b\n", "t.ini:3: missing ']'");
    parse_bad("[]\n", "t.ini:1: empty section name");
    parse_bad("[  ]\n", "t.ini:1: empty section name");
    parse_bad("\n\n[a] x\n", "t.ini:3: text after ']'");
    parse_bad("[a]\n = 5\n", "t.ini:2: missing key before '='");
    parse_bad("[a[b]]\n", "t.ini:1:");
}

static void test_file(void **state)
{
    (void)state;
    char path[] = "/tmp/test_ini_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *fp = fdopen(fd, "w");
    assert_non_null(fp);
    fputs("[global]\nbs=4k\n\n[oops\n", fp);
    fclose(fp);

    struct ini_file f;
    char err[ERR_LEN] = "";
    assert_int_equal(ini_parse_file(path, &f, err, sizeof err), -1);
    char want[128];
    snprintf(want, sizeof want, "%s:4: missing ']'", path);
    assert_string_equal(err, want);

    fp = fopen(path, "w");
    assert_non_null(fp);
    fputs("[global]\nbs=4k\n[x]\nqd=2\n", fp);
    fclose(fp);
    assert_int_equal(ini_parse_file(path, &f, err, sizeof err), 0);
    assert_string_equal(f.path, path);
    assert_string_equal(ini_find(ini_find_section(&f, "x"), "qd")->value, "2");
    ini_free(&f);
    unlink(path);

    assert_int_equal(ini_parse_file("/nonexistent/p.ini", &f, err, sizeof err), -1);
    assert_non_null(strstr(err, "/nonexistent/p.ini"));
    assert_null(f.sections);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_basic),
        cmocka_unit_test(test_comments_and_whitespace),
        cmocka_unit_test(test_global_and_flags),
        cmocka_unit_test(test_last_value_wins_and_merge),
        cmocka_unit_test(test_crlf_bom_and_many),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
