/* test_keys.c — lib/keys.h: one row per key, each type accepted, out of range and refused
 * with one line "WHERE: key=value: why", an alias, a setter's two kinds of reason, a refused
 * key, and the printers (the INI line of a value and the --help lines). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/keys.h"
#include "lib/util.h"

enum colour { RED = 0, GREEN = 7, BLUE = 9 };

struct thing {
    char name[8];
    bool on;
    unsigned count;
    uint64_t big;
    uint32_t pages;
    uint32_t bytes;
    double rate;
    double pct;
    uint64_t ns;
    enum colour colour;
    bool fast;
    unsigned list[4];
    unsigned n_list;
    int odd;
};

static int set_odd(void *obj, const char *v, char *why, size_t wl)
{
    struct thing *t = obj;
    if (!strcmp(v, "all")) {
        errf(why, wl, "must not be 'all'");
        return KEYS_BAD_KEY;
    }
    int x = atoi(v);
    if (x % 2 == 0)
        return errf(why, wl, "want an odd number");
    t->odd = x;
    return 0;
}

static const struct key_choice colours[] = {
    {"red", RED, false}, {"green", GREEN, false}, {"blue", BLUE, false}, {"azure", BLUE, true},
    {NULL, 0, false}};
static const struct key_choice speeds[] = {{"fast", 1, false}, {"slow", 0, false},
                                           {NULL, 0, false}};

#define TF(f) KEY_FIELD(struct thing, f)
static const struct key_row rows[] = {
    {"name", KEY_STR, TF(name), .help = "a name"},
    {"on", KEY_BOOL, TF(on), .help = "a flag"},
    {"count", KEY_UINT, TF(count), 1, 64, .zero = "auto", .help = "how many"},
    {"big", KEY_UINT, TF(big), 0, 18446744073709551615.0, .group = "x"},
    {"pages", KEY_POW2, TF(pages), 8, 4096, .group = "x"},
    {"bytes", KEY_SIZE, TF(bytes), 4096, 1048576, 4096, .group = "x"},
    {"rate", KEY_DOUBLE, TF(rate), 0.5, 1e6, .group = "x"},
    {"pct", KEY_PCT, TF(pct), 0, 50, .group = "x"},
    {"time", KEY_TIME, TF(ns), 1000000000.0, .group = "x"},
    {"colour", KEY_CHOICE, TF(colour), .choices = colours, .group = "x"},
    {"speed", KEY_CHOICE, TF(fast), .choices = speeds, .group = "x"},
    {"list", KEY_ULIST, TF(list), 1, 100, .count_off = offsetof(struct thing, n_list), .group = "x"},
    {"odd", KEY_FN, .set = set_odd, .arg = "N", .help = "an odd number"},
    {"color", KEY_ALIAS, .alias = "colour"},
    {"paint", KEY_REFUSED, .help = "painting is not supported"},
    {"log", KEY_NOTED, .help = "the other tool would write a log"},
};
static const struct key_table table = KEY_TABLE(rows);

static void ok(struct thing *t, const char *key, const char *value)
{
    char err[ERR_LEN] = "";
    int rc = keys_set(&table, t, key, value, "t.ini:3", err, sizeof err);
    if (rc != 0)
        fail_msg("%s=%s refused: %s", key, value, err);
}

/* Refused with exactly want; the thing is left as it was. */
static void bad(const char *key, const char *value, const char *want)
{
    struct thing t, before;
    memset(&t, 0x5a, sizeof t);
    t.name[0] = '\0';
    before = t;
    char err[ERR_LEN] = "";
    int rc = keys_set(&table, &t, key, value, "t.ini:3", err, sizeof err);
    if (rc != -1 || strcmp(err, want) != 0)
        fail_msg("%s=%s: rc %d, '%s' (want '%s')", key, value, rc, err, want);
    assert_memory_equal(&t, &before, sizeof t);
}

static void test_each_type_accepted(void **state)
{
    (void)state;
    struct thing t;
    memset(&t, 0, sizeof t);
    ok(&t, "name", "abc");
    assert_string_equal(t.name, "abc");
    ok(&t, "on", "yes");
    assert_true(t.on);
    ok(&t, "on", "OFF");
    assert_false(t.on);
    ok(&t, "on", "");            /* a bare flag */
    assert_true(t.on);
    ok(&t, "count", "64");
    assert_int_equal(t.count, 64);
    ok(&t, "count", "auto");
    assert_int_equal(t.count, 0);
    ok(&t, "big", "18446744073709551615");
    assert_true(t.big == UINT64_MAX);
    ok(&t, "pages", "256");
    assert_int_equal(t.pages, 256);
    ok(&t, "bytes", "16k");
    assert_int_equal(t.bytes, 16384);
    ok(&t, "rate", "2.5e3");
    assert_true(t.rate == 2500);
    ok(&t, "pct", "12.5%");
    assert_true(t.pct == 12.5);
    ok(&t, "time", "2m");
    assert_true(t.ns == 120000000000ull);
    ok(&t, "colour", "green");
    assert_int_equal(t.colour, GREEN);
    ok(&t, "color", "azure");    /* an alias and a synonym */
    assert_int_equal(t.colour, BLUE);
    ok(&t, "speed", "fast");
    assert_true(t.fast);
    ok(&t, "list", "3, 1,2");
    assert_int_equal(t.n_list, 3);
    assert_int_equal(t.list[0], 3);
    assert_int_equal(t.list[2], 2);
    ok(&t, "odd", "7");
    assert_int_equal(t.odd, 7);
}

static void test_out_of_range_and_bad_values(void **state)
{
    (void)state;
    bad("name", "12345678", "t.ini:3: name=12345678: longer than 7 characters");
    bad("on", "maybe", "t.ini:3: on=maybe: want 0/1, yes/no, on/off or true/false");
    bad("count", "65", "t.ini:3: count=65: must be an integer 1..64");
    bad("count", "0", "t.ini:3: count=0: must be an integer 1..64");
    bad("count", "two", "t.ini:3: count=two: must be an integer 1..64");
    bad("pages", "12", "t.ini:3: pages=12: must be a power of two 8..4096");
    bad("pages", "8192", "t.ini:3: pages=8192: must be a power of two 8..4096");
    bad("bytes", "6k", "t.ini:3: bytes=6k: must be a multiple of 4 KiB, 4KiB..1MiB");
    bad("bytes", "4q", "t.ini:3: bytes=4q: bad size '4q': unknown unit 'q'");
    bad("rate", "0.25", "t.ini:3: rate=0.25: must be a number 0.5..1000000");
    bad("rate", "nan", "t.ini:3: rate=nan: must be a number 0.5..1000000");
    bad("pct", "60", "t.ini:3: pct=60: must be a percentage 0..50");
    bad("time", "500ms", "t.ini:3: time=500ms: want a duration of at least 1s");
    bad("list", "1,200", "t.ini:3: list=1,200: want up to 4 numbers 1..100");
    bad("list", "1,2,3,4,5", "t.ini:3: list=1,2,3,4,5: want up to 4 numbers 1..100");
}

static void test_bad_choice_names_the_choices(void **state)
{
    (void)state;
    bad("colour", "pink", "t.ini:3: colour=pink: want red, green or blue");
    bad("color", "pink", "t.ini:3: color=pink: want red, green or blue");
    bad("speed", "yes", "t.ini:3: speed=yes: want fast or slow");
}

static void test_setter_refused_and_unknown(void **state)
{
    (void)state;
    bad("odd", "4", "t.ini:3: odd=4: want an odd number");
    struct thing t;
    memset(&t, 0, sizeof t);
    char err[ERR_LEN] = "";
    assert_int_equal(keys_set(&table, &t, "odd", "all", "w", err, sizeof err), -1);
    assert_string_equal(err, "w: odd must not be 'all' (odd=all)");
    assert_int_equal(keys_set(&table, &t, "paint", "red", "w", err, sizeof err), -1);
    assert_string_equal(err, "w: paint: painting is not supported");
    err[0] = '\0';
    assert_int_equal(keys_set(&table, &t, "colour_x", "1", "w", err, sizeof err), KEYS_UNKNOWN);
    assert_string_equal(err, "");
    assert_ptr_equal(keys_find(&table, "color"), &rows[9]);
    assert_null(keys_find(&table, "nope"));
    /* a noted key: any value or none, nothing stored (the caller records its help) */
    struct thing before = t;
    assert_int_equal(keys_set(&table, &t, "log", "anything", "w", err, sizeof err), 0);
    assert_int_equal(keys_set(&table, &t, "log", NULL, "w", err, sizeof err), 0);
    assert_memory_equal(&t, &before, sizeof t);
    char range[64];
    keys_row_range(keys_find(&table, "log"), range, sizeof range);
    assert_string_equal(range, "noted");
    /* did you mean: the distance */
    assert_int_equal(keys_edit_distance("blocksise", "blocksize"), 1);
    assert_int_equal(keys_edit_distance("iodpeth", "iodepth"), 1);   /* a swap counts 1 */
    assert_int_equal(keys_edit_distance("abc", "xyzuvw"), 6);
}

static char *capture(void (*fn)(FILE *f, const void *arg), const void *arg)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    fn(f, arg);
    fclose(f);
    return buf;
}

static void print_values(FILE *f, const void *arg) { keys_print_values(f, &table, arg, NULL); }
static void print_help(FILE *f, const void *arg) { (void)arg; keys_print_help(f, &table, NULL); }

static void test_printed_from_the_rows(void **state)
{
    (void)state;
    struct thing t;
    memset(&t, 0, sizeof t);
    ok(&t, "count", "5");
    ok(&t, "colour", "blue");
    ok(&t, "list", "4,5");
    ok(&t, "time", "90s");
    char *v = capture(print_values, &t);
    assert_non_null(strstr(v, "count = 5                             ; how many (integer 1..64 | auto)\n"));
    assert_non_null(strstr(v, "colour = blue                         ; (red | green | blue)\n"));
    assert_non_null(strstr(v, "list = 4,5 "));
    assert_non_null(strstr(v, "time = 90s "));
    assert_null(strstr(v, "odd ="));                 /* a setter has no value to print */
    assert_null(strstr(v, "color ="));
    assert_null(strstr(v, "log ="));                 /* noted: no value */
    free(v);
    char *h = capture(print_help, NULL);
    assert_non_null(strstr(h, "  colour [color]             red | green | blue\n"));
    assert_non_null(strstr(h, "  count                      integer 1..64 | auto\n"
                              "                             how many\n"));
    assert_non_null(strstr(h, "  bytes                      size 4KiB..1MiB, multiple of 4 KiB\n"));
    assert_non_null(strstr(h, "  odd                        N\n"));
    free(h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_each_type_accepted),
        cmocka_unit_test(test_out_of_range_and_bad_values),
        cmocka_unit_test(test_bad_choice_names_the_choices),
        cmocka_unit_test(test_setter_refused_and_unknown),
        cmocka_unit_test(test_printed_from_the_rows),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
