/* test_cli_options.c — the typed option table (cli/options.h): each type lands in its target,
 * operands keep their order between options, a bad value is one line "ptsbench CMD: --opt
 * VALUE: why" (an empty value shown as ''), an unknown option and a missing value are named,
 * --help prints the generated option lines, a short letter is bound to its own option only, a
 * parse may be repeated (nothing left from the one before) and counts each option's uses, and
 * the minimum of a size or a duration is checked. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/options.h"

static bool flag;
static const char *str, *list[4];
static unsigned n_list, count;
static uint64_t size, dur;
static double pct;

static const struct cli_opt opts[] = {
    {"flag", 'f', CLI_FLAG, &flag, .help = "a flag"},
    {"out", 'o', CLI_STR, &str, .arg = "DIR", .help = "where\nand more"},
    {"label", 'l', CLI_STR_LIST, list, .count = &n_list, .max = 2, .arg = "NAME", .help = "n"},
    {"count", 0, CLI_UINT, &count, 1, 10, .arg = "N", .help = "1..10"},
    {"size", 0, CLI_SIZE, &size, .arg = "SIZE", .help = "bytes"},
    {"round-time", 0, CLI_DURATION, &dur, 1e9, 0, .arg = "D", .help = "at least 1 s"},
    {"tolerance", 0, CLI_PERCENT, &pct, .arg = "PCT", .help = "percent"},
    {0},
};

/* Minimums of sizes and durations: lo 1 is "more than 0". */
static const struct cli_opt positive[] = {
    {"bytes", 0, CLI_SIZE, &size, 1, 0, .arg = "SIZE", .help = "more than 0"},
    {"chunk", 0, CLI_SIZE, &size, 4096, 0, .arg = "SIZE", .help = "at least 4 KiB"},
    {"time", 0, CLI_DURATION, &dur, 1, 0, .arg = "D", .help = "more than 0"},
    {0},
};

static const struct cli_opt *table = opts;   /* the table parse() uses */
static unsigned uses[8];

static int helps;
static void usage(FILE *f)
{
    helps++;
    cli_print_options(f, opts);
}

static void reset(void)
{
    flag = false;
    str = NULL;
    n_list = count = 0;
    size = dur = 0;
    pct = 0;
}

/* Run cli_parse on a NULL-terminated argument list with stderr captured into err. */
static int parse(const char *const *args, const char **pos, unsigned *n_pos, char *err, size_t len)
{
    char *argv[32];
    int argc = 0;
    argv[argc++] = "cmd";
    for (; args[argc - 1]; argc++)
        argv[argc] = (char *)args[argc - 1];
    argv[argc] = NULL;
    reset();
    fflush(stderr);
    FILE *cap = tmpfile();
    int saved = dup(2);
    dup2(fileno(cap), 2);
    int rc = cli_parse_uses("cmd", table, argc, argv, pos, n_pos, 4, usage, uses);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    rewind(cap);
    size_t n = fread(err, 1, len - 1, cap);
    err[n] = '\0';
    fclose(cap);
    return rc;
}

static void test_values_land(void **state)
{
    (void)state;
    const char *pos[4];
    unsigned n_pos = 0;
    char err[512];
    const char *a[] = {"A", "-f", "--out", "d", "B", "-l", "x", "--label=y", "--count", "7",
                       "--size", "4k", "--round-time", "90s", "--tolerance", "2.5%", "C", NULL};
    assert_int_equal(parse(a, pos, &n_pos, err, sizeof(err)), CLI_GO);
    assert_string_equal(err, "");
    assert_true(flag);
    assert_string_equal(str, "d");
    assert_int_equal(n_list, 2);
    assert_string_equal(list[1], "y");
    assert_int_equal(count, 7);
    assert_true(size == 4096);
    assert_true(dur == 90000000000ull);
    assert_true(pct == 2.5);
    assert_int_equal(n_pos, 3);
    assert_string_equal(pos[0], "A");
    assert_string_equal(pos[2], "C");
}

static void test_refusals_are_one_line(void **state)
{
    (void)state;
    static const struct {
        const char *args[4];
        const char *want;
    } bad[] = {
        {{"--count", "11", NULL}, "ptsbench cmd: --count 11: "},
        {{"--round-time", "500ms", NULL}, "ptsbench cmd: --round-time 500ms: want at least 1 s"},
        {{"--size", "lots", NULL}, "ptsbench cmd: --size lots: "},
        {{"--out", "", NULL}, "ptsbench cmd: --out '': want a value"},
        {{"-l", "a", "-l", NULL}, "needs a value"},
        {{"--bogus", NULL}, "ptsbench cmd: unknown option '--bogus'"},
        {{"-t", "5", NULL}, "ptsbench cmd: unknown option '-t'"},
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        char err[512];
        const char *pos[4];
        unsigned n_pos;
        assert_int_equal(parse(bad[i].args, pos, &n_pos, err, sizeof(err)), CLI_BAD);
        if (!strstr(err, bad[i].want) || strchr(err, '\n') != err + strlen(err) - 1)
            fail_msg("case %zu: '%s' (want '%s')", i, err, bad[i].want);
    }
    /* a list given more often than it holds */
    char err[512];
    const char *a[] = {"-l", "a", "-l", "b", "-l", "c", NULL};
    assert_int_equal(parse(a, NULL, NULL, err, sizeof(err)), CLI_BAD);
    assert_non_null(strstr(err, "--label c: given more than 2 times"));
    /* an operand where the command takes none */
    const char *b[] = {"stray", NULL};
    assert_int_equal(parse(b, NULL, NULL, err, sizeof(err)), CLI_BAD);
    assert_non_null(strstr(err, "unexpected argument 'stray'"));
}

static void test_help_lines(void **state)
{
    (void)state;
    char err[512];
    const char *a[] = {"--help", NULL};
    helps = 0;
    assert_int_equal(parse(a, NULL, NULL, err, sizeof(err)), CLI_DONE);
    assert_int_equal(helps, 1);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    cli_print_options(f, opts);
    fclose(f);
    assert_non_null(strstr(buf, "  -o, --out DIR           where\n"
                                "                          and more\n"));
    assert_non_null(strstr(buf, "      --count N           1..10\n"));
    assert_non_null(strstr(buf, "  -h, --help              this text\n"));
    free(buf);
}

/* Each parse is a new scan: one that stopped inside a word of short options ("-xf": -x unknown)
 * leaves nothing behind for the next (a --resume parses a second command line). Uses count. */
static void test_parse_again(void **state)
{
    (void)state;
    char err[512];
    const char *a[] = {"-xf", NULL};
    assert_int_equal(parse(a, NULL, NULL, err, sizeof(err)), CLI_BAD);
    assert_non_null(strstr(err, "unknown option"));
    const char *b[] = {"--out", "d", NULL};
    assert_int_equal(parse(b, NULL, NULL, err, sizeof(err)), CLI_GO);
    assert_false(flag);   /* not the -f left over from "-xf" */
    assert_string_equal(str, "d");
    assert_int_equal(uses[1], 1);
    const char *c[] = {"-f", "-l", "a", "--label=b", "--count", "3", NULL};
    assert_int_equal(parse(c, NULL, NULL, err, sizeof(err)), CLI_GO);
    assert_true(flag);
    const unsigned want[] = {1, 0, 2, 1, 0, 0, 0};
    for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
        assert_int_equal(uses[i], want[i]);
}

static void test_minimums(void **state)
{
    (void)state;
    static const struct {
        const char *args[3];
        int rc;
        const char *want;
    } cases[] = {
        {{"--bytes", "0", NULL}, CLI_BAD, "ptsbench cmd: --bytes 0: must be more than 0\n"},
        {{"--bytes", "1", NULL}, CLI_GO, ""},
        {{"--chunk", "4000", NULL}, CLI_BAD, "ptsbench cmd: --chunk 4000: want at least 4096 bytes"},
        {{"--chunk", "4k", NULL}, CLI_GO, ""},
        {{"--time", "0", NULL}, CLI_BAD, "ptsbench cmd: --time 0: must be more than 0\n"},
        {{"--time", "1ms", NULL}, CLI_GO, ""},
    };
    table = positive;
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        char err[512];
        if (parse(cases[i].args, NULL, NULL, err, sizeof(err)) != cases[i].rc ||
            !strstr(err, cases[i].want) || (!cases[i].want[0] && err[0]))
            fail_msg("case %zu: '%s' (want '%s')", i, err, cases[i].want);
    }
    table = opts;
}

/* An unknown option names the nearest known one: within 2 edits (a swap counts 1), else the
 * options an ambiguous abbreviation begins; "-x" and far-off words get no guess. */
static void test_did_you_mean(void **state)
{
    (void)state;
    static const struct {
        const char *args[3];
        const char *want;
    } cases[] = {
        {{"--cuont", "3", NULL}, "unknown option '--cuont'; did you mean --count?"},
        {{"--labels", "a", NULL}, "did you mean --label?"},
        {{"--round-tme", "1s", NULL}, "did you mean --round-time?"},
        {{"--hlep", NULL}, "did you mean --help?"},
        {{"-count", "3", NULL}, "unknown option '-count'; did you mean --count?"},
        {{"--frobnicate", NULL}, "unknown option '--frobnicate' (see ptsbench cmd --help)"},
        {{"-x", NULL}, "unknown option '-x' (see ptsbench cmd --help)"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        char err[512];
        assert_int_equal(parse(cases[i].args, NULL, NULL, err, sizeof(err)), CLI_BAD);
        if (!strstr(err, cases[i].want) || strchr(err, '\n') != err + strlen(err) - 1)
            fail_msg("case %zu: '%s' (want '%s')", i, err, cases[i].want);
    }
    static const char *const names[] = {"rounds", "round-time", "round-bytes", "quiet"};
    char buf[128];
    assert_int_equal(cli_suggest("ro", names, 4, buf, sizeof(buf)), 3);
    assert_string_equal(buf, "rounds|round-time|round-bytes");
    assert_int_equal(cli_suggest("quite", names, 4, buf, sizeof(buf)), 1);
    assert_string_equal(buf, "quiet");
    assert_int_equal(cli_suggest("zz", names, 4, buf, sizeof(buf)), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_values_land),
        cmocka_unit_test(test_refusals_are_one_line),
        cmocka_unit_test(test_did_you_mean),
        cmocka_unit_test(test_help_lines),
        cmocka_unit_test(test_parse_again),
        cmocka_unit_test(test_minimums),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
