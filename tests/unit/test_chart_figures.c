/* test_chart_figures.c — the figures gnuplot writes above bars (plot_figure_functions, used by
 * plot_bar_values) are the figures units_format_figure writes: the same values, fed to gnuplot
 * (fork/exec, `gnuplot -e`), print the same text. Skips, saying why, without gnuplot. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "lib/units.h"
#include "plot/chart.h"

static const double values[] = {0,     0.5,    4.25,   9.994,  9.996,   41.54,    99.94,
                                99.96, 358.2,  999.4,  999.6,  1075.4,  3198.49,  12016,
                                98470, 349798, 682332, 1604.4, 1234567.6};
#define N_VALUES (sizeof(values) / sizeof(values[0]))

/* gnuplot's output for fn over every value, one per line, or NULL (skipped) without gnuplot. */
static char *gnuplot_prints(const char *fn)
{
    char script[4096];   /* gnuplot -e takes one line: the definitions' lines joined by ';' */
    size_t n = (size_t)snprintf(script, sizeof(script), "%s", plot_figure_functions);
    for (char *p = script; (p = strchr(p, '\n')); p++)
        *p = ';';
    for (size_t i = 0; i < N_VALUES; i++)
        n += (size_t)snprintf(script + n, sizeof(script) - n, "print %s(%.17g);", fn, values[i]);
    char *argv[] = {"gnuplot", "-e", script, NULL};
    struct cmd_result r;
    if (run_cmd(argv, &r) != 0 || r.status == 127) {
        cmd_result_free(&r);
        return NULL;
    }
    assert_int_equal(r.status, 0);
    char *text = strdup(r.errout);   /* gnuplot's print writes to stderr */
    cmd_result_free(&r);
    return text;
}

static void check(const char *fn, enum units_figure kind)
{
    char *text = gnuplot_prints(fn);
    if (!text) {
        print_message("skipped: gnuplot is not installed\n");
        skip();
    }
    char *line = text, *next;
    for (size_t i = 0; i < N_VALUES; i++, line = next) {
        assert_non_null(line);
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        char want[64];
        units_format_figure(values[i], kind, want, sizeof(want));
        print_message("%s(%g): gnuplot '%s', units_format_figure '%s'\n", fn, values[i], line,
                      want);
        assert_string_equal(line, want);
    }
    free(text);
}

static void test_counts(void **state)
{
    (void)state;
    check("fig_count", UNITS_FIG_IOPS);
}

static void test_three_significant(void **state)
{
    (void)state;
    check("fig_sig3", UNITS_FIG_MBS);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_counts),
        cmocka_unit_test(test_three_significant),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
