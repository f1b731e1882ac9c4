/* test_charts_bars.c — the bar charts' labels as a reader sees them (plot/bars.h): the layout
 * (bars_layout) gives every value label, group name and bar as a pixel rectangle, and for the
 * demo's profile figures and for awkward ones (two equal neighbours, one bar 100 times the
 * others, 24 bars in one group and 24 groups of one with long names) no two labels overlap, no
 * value label covers a bar, every value label lies inside the plot area and every group name
 * inside the canvas, left of the plot area.
 *
 * The vertical clustered histogram drawn before (labels "%.0f" centred above each bar, workload
 * names centred under each cluster) fails these checks on the demo's figures: "53769" and
 * "54141" of the webserver overlap, the 395315 label lies above the plot area, and
 * "datasheet/rand-4k-read" runs into "datasheet/rand-4k-write". */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/units.h"
#include "plot/bars.h"

#define MAXB 64

struct set {
    size_t n, n_groups;
    double v[MAXB];
    size_t group[MAXB];
    char text[MAXB][32];
    const char *tp[MAXB];
    char gname[MAXB][128];
    const char *gp[MAXB];
};

static void set_add(struct set *s, size_t group, double v)
{
    s->v[s->n] = v;
    s->group[s->n] = group;
    units_format_figure(v, UNITS_FIG_IOPS, s->text[s->n], sizeof(s->text[0]));
    s->tp[s->n] = s->text[s->n];
    s->n++;
    if (group + 1 > s->n_groups)
        s->n_groups = group + 1;
}

static void set_group(struct set *s, size_t g, const char *name)
{
    snprintf(s->gname[g], sizeof(s->gname[g]), "%s", name);
    s->gp[g] = s->gname[g];
}

static void box_text(const struct bars_rect *r, char *buf, size_t len)
{
    snprintf(buf, len, "[%.1f,%.1f]-[%.1f,%.1f]", r->x0, r->y0, r->x1, r->y1);
}

static bool inside(const struct bars_rect *r, const struct bars_rect *area)
{
    return r->x0 >= area->x0 - 1e-9 && r->x1 <= area->x1 + 1e-9 && r->y0 >= area->y0 - 1e-9 &&
           r->y1 <= area->y1 + 1e-9;
}

/* Lay s out at the report's canvas (1100 px wide, 650 wanted; 9-point labels, 10-point names,
 * a legend of 8 entries) and check what a reader would see. */
static void check(const struct set *s, const char *what)
{
    struct bars_in in = {
        .n = s->n, .value = s->v, .text = s->tp, .group = s->group, .group_name = s->gp,
        .n_groups = s->n_groups, .canvas_w = 1100, .canvas_h = 650, .label_pt = 9,
        .tic_pt = 10, .legend_keys = 8, .legend_chars = 51,
    };
    struct bars_geom g;
    if (bars_layout(&in, &g) != 0)
        fail_msg("%s: no layout", what);
    char a[96], b[96];
    const struct bars_rect canvas = {0, 0, 1100, g.canvas_h};
    for (size_t i = 0; i < s->n; i++) {
        const struct bars_rect *l = &g.label[i];
        box_text(l, a, sizeof(a));
        box_text(&g.plot, b, sizeof(b));
        if (!inside(l, &g.plot))
            fail_msg("%s: label %s at %s lies outside the plot area %s", what, s->text[i], a, b);
        if (l->x1 - l->x0 < bars_text_width(s->text[i], 9) - 1e-9)
            fail_msg("%s: label %s narrower than its text", what, s->text[i]);
        if (!inside(&g.bar[i], &g.plot))
            fail_msg("%s: bar %zu outside the plot area", what, i);
        for (size_t j = 0; j < s->n; j++) {
            if (j != i && bars_overlap(l, &g.label[j]))
                fail_msg("%s: labels %s and %s overlap", what, s->text[i], s->text[j]);
            if (bars_overlap(l, &g.bar[j]))
                fail_msg("%s: label %s covers bar %zu", what, s->text[i], j);
        }
    }
    for (size_t k = 0; k < s->n_groups; k++) {
        const struct bars_rect *l = &g.group_label[k];
        box_text(l, a, sizeof(a));
        if (!inside(l, &canvas) || l->x1 > g.plot.x0)
            fail_msg("%s: group name %s at %s outside the canvas or in the plot area", what,
                     g.group_text[k], a);
        for (size_t j = k + 1; j < s->n_groups; j++)
            if (bars_overlap(l, &g.group_label[j]))
                fail_msg("%s: group names %s and %s overlap", what, g.group_text[k],
                         g.group_text[j]);
    }
    assert_true(g.xmax >= s->v[0] && g.xstep > 0);
    bars_geom_free(&g);
}

/* The demo's profile charts (demo-results/.../report/plots/profile-bars.dat): the database and
 * web server profiles at 0% and 90% compressible data with 1 and 4 workers, then the data sheet's
 * points (IOPS below 64 KiB; the 128 KiB points' MB/s in their own chart). */
static void test_demo_profile_bars(void **state)
{
    (void)state;
    static const double db[] = {44730.02667, 64638.29333, 72425.81333, 158198.6133},
                        web[] = {53769.38667, 79691.94667, 54141.44, 82827.09333},
                        sheet[] = {162636.8, 395315.2, 267814.4};
    struct set s = {0};
    set_group(&s, 0, "database");
    set_group(&s, 1, "webserver");
    set_group(&s, 2, "datasheet/rand-4k-read");
    set_group(&s, 3, "datasheet/rand-4k-write");
    set_group(&s, 4, "datasheet/rand-8k-write");
    for (size_t k = 0; k < 4; k++)
        set_add(&s, 0, db[k]);
    for (size_t k = 0; k < 4; k++)
        set_add(&s, 1, web[k]);
    for (size_t k = 0; k < 3; k++)
        set_add(&s, 2 + k, sheet[k]);
    check(&s, "demo IOPS");
    struct set m = {0};
    set_group(&m, 0, "datasheet/seq-128k-read");
    set_group(&m, 1, "datasheet/seq-128k-write");
    set_add(&m, 0, 1603.9);
    set_add(&m, 1, 2704.5);
    check(&m, "demo MB/s");
}

static void test_equal_neighbours(void **state)
{
    (void)state;
    struct set s = {0};
    set_group(&s, 0, "webserver");
    set_add(&s, 0, 53769.0);
    set_add(&s, 0, 53769.0);
    check(&s, "two equal neighbours");
}

static void test_one_bar_100x_the_others(void **state)
{
    (void)state;
    struct set s = {0};
    set_group(&s, 0, "database");
    set_group(&s, 1, "webserver");
    set_add(&s, 0, 3950.0);
    set_add(&s, 0, 395315.0);
    set_add(&s, 1, 3953.0);
    set_add(&s, 1, 3951.0);
    check(&s, "one bar 100x the others");
}

static void test_24_bars(void **state)
{
    (void)state;
    struct set one = {0}, many = {0};
    set_group(&one, 0, "database");
    for (size_t k = 0; k < 24; k++) {
        double v = 1000.0 * pow(1.35, (double)k) + 7.0 * (double)k;   /* 1,000 .. 1,000,000+ */
        set_add(&one, 0, v);
        char name[128];
        snprintf(name, sizeof(name), "a-rather-long-profile-name/workload-number-%02zu", k);
        set_group(&many, k, name);
        set_add(&many, k, k % 2 ? v : 1e6 - v);
    }
    check(&one, "24 bars in one group");
    check(&many, "24 groups of one bar, long names");
    /* a name longer than 30% of the canvas is shortened, whole, with "..." */
    struct set longer = {0};
    set_group(&longer, 0, "a-profile-whose-name-goes-on/and-on-with-a-workload-name-that-also-"
                          "goes-on-and-on-µs-µs-µs-µs-µs");
    set_add(&longer, 0, 12345.0);
    check(&longer, "a very long group name");
    struct bars_in in = {.n = 1, .value = longer.v, .text = longer.tp, .group = longer.group,
                         .group_name = longer.gp, .n_groups = 1, .canvas_w = 1100,
                         .canvas_h = 650, .label_pt = 9, .tic_pt = 10};
    struct bars_geom g;
    assert_int_equal(bars_layout(&in, &g), 0);
    size_t l = strlen(g.group_text[0]);
    assert_true(l > 10 && !strcmp(g.group_text[0] + l - 3, "..."));
    assert_true(bars_text_width(g.group_text[0], 10) <= 1100 * 0.3);
    bars_geom_free(&g);
}

/* The layout refuses what it cannot draw. */
static void test_refuses_bad_input(void **state)
{
    (void)state;
    struct set s = {0};
    set_group(&s, 0, "g");
    set_add(&s, 0, NAN);
    struct bars_in in = {.n = 1, .value = s.v, .text = s.tp, .group = s.group, .group_name = s.gp,
                         .n_groups = 1, .canvas_w = 1100, .canvas_h = 650, .label_pt = 9,
                         .tic_pt = 10};
    struct bars_geom g;
    assert_int_equal(bars_layout(&in, &g), -1);
    in.n = 0;
    assert_int_equal(bars_layout(&in, &g), -1);
}

/* Text widths: DejaVu Sans at 96 dpi, each character's advance rounded up (pngcairo measured
 * 140 px for twenty digits and a comma at 8 points: 7 px a digit). */
static void test_text_width(void **state)
{
    (void)state;
    assert_true(bars_text_width("00000000000000000000,", 8) >= 140);
    assert_true(bars_text_width("00000000000000000000,", 8) <= 150);
    assert_true(bars_text_width("database", 10) >= 59);
    assert_true(bars_text_width("", 10) == 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_demo_profile_bars),
        cmocka_unit_test(test_equal_neighbours),
        cmocka_unit_test(test_one_bar_100x_the_others),
        cmocka_unit_test(test_24_bars),
        cmocka_unit_test(test_refuses_bad_input),
        cmocka_unit_test(test_text_width),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
