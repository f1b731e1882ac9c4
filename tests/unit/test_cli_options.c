/* test_cli_options.c — the typed option table (cli/options.h): each type lands in its target,
 * operands keep their order between options, a bad value is one line "ptsbench CMD: --opt
 * VALUE: why" (an empty value shown as ''), an unknown option and a missing value are named,
 * --help prints the generated option lines, and a short letter is bound to its own option only. */
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
    int rc = cli_parse("cmd", opts, argc, argv, pos, n_pos, 4, usage);
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_values_land),
        cmocka_unit_test(test_refusals_are_one_line),
        cmocka_unit_test(test_help_lines),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
