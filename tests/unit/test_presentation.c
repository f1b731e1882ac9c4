/* test_presentation.c — every presentation of a PTS test (enum pts_report, pts/pts_def.h) has
 * its charts (plot_pts.c's table) and its report section (report.c's table), and a test's
 * presentation is read back by its name, never silently "generic" for one this version defines.
 *
 * A presentation added to pts/ (the enum and its name) without a chart writer or a report
 * section fails test_every_presentation_is_drawn_and_reported; the definitions shipped in pts/
 * are checked too (test_shipped_definitions). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plot/chart.h"
#include "pts/pts_def.h"
#include "report/report.h"

static struct json_object *test_doc(const char *name, const char *kind, const char *report)
{
    struct json_object *t = json_object_new_object();
    if (name)
        json_object_object_add(t, "name", json_object_new_string(name));
    if (kind)
        json_object_object_add(t, "kind", json_object_new_string(kind));
    if (report)
        json_object_object_add(t, "report", json_object_new_string(report));
    return t;
}

static void test_every_presentation_is_drawn_and_reported(void **state)
{
    (void)state;
    for (int p = PTS_REPORT_GENERIC; p < PTS_REPORT_COUNT; p++) {
        const char *name = pts_report_name((enum pts_report)p);
        if (!plot_presentation_has_charts((enum pts_report)p))
            fail_msg("presentation %d (%s): no entry in plot_pts.c's chart table", p, name);
        if (!report_presentation_has_section(p))
            fail_msg("presentation %d (%s): no entry in report.c's section table", p, name);
    }
    assert_false(plot_presentation_has_charts(PTS_REPORT_COUNT));
    assert_false(report_presentation_has_section(PTS_REPORT_COUNT));
}

/* Each presentation's name (the definitions' `report` key) reads back as itself. */
static void test_names_read_back(void **state)
{
    (void)state;
    for (int p = PTS_REPORT_GENERIC; p < PTS_REPORT_COUNT; p++) {
        const char *name = pts_report_name((enum pts_report)p);
        for (int q = PTS_REPORT_GENERIC; q < p; q++)   /* one name each */
            assert_string_not_equal(name, pts_report_name((enum pts_report)q));
        struct json_object *t = test_doc("anything", "standard", name);
        if (plot_test_presentation(t) != (enum pts_report)p)
            fail_msg("report = %s reads back as %s", name, plot_test_report(t));
        assert_string_equal(plot_test_report(t), name);
        json_object_put(t);
    }
    /* a name this version does not know (results of a newer one): the parameters only */
    struct json_object *t = test_doc("iops", "standard", "no-such-presentation");
    assert_int_equal(plot_test_presentation(t), PTS_REPORT_GENERIC);
    assert_string_equal(plot_test_report(t), "generic");
    json_object_put(t);
}

/* Results from before tests[i].report: by the test's name, then by its kind. */
static void test_version1_fallback(void **state)
{
    (void)state;
    static const struct {
        const char *name, *kind;
        enum pts_report want;
    } cases[] = {
        {"iops", NULL, PTS_REPORT_IOPS},         {"tp", "standard", PTS_REPORT_TP},
        {"lat", NULL, PTS_REPORT_LAT},           {"wsat", NULL, PTS_REPORT_WSAT},
        {"wsat-vod", NULL, PTS_REPORT_WSAT},     {"hir", NULL, PTS_REPORT_HIR},
        {"xsr", NULL, PTS_REPORT_XSR},           {"dirth", NULL, PTS_REPORT_DIRTH},
        {"cbw", NULL, PTS_REPORT_DIRTH},         {"my-idle", "hir", PTS_REPORT_HIR},
        {"my-cross", "xsr", PTS_REPORT_XSR},     {"generic", "dirth", PTS_REPORT_DIRTH},
        {"my-test", "standard", PTS_REPORT_GENERIC}, {NULL, NULL, PTS_REPORT_GENERIC},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        struct json_object *t = test_doc(cases[i].name, cases[i].kind, NULL);
        if (plot_test_presentation(t) != cases[i].want)
            fail_msg("name %s, kind %s: %s, want %s", cases[i].name ? cases[i].name : "(none)",
                     cases[i].kind ? cases[i].kind : "(none)", plot_test_report(t),
                     pts_report_name(cases[i].want));
        json_object_put(t);
    }
}

/* Every definition shipped in pts/ names a presentation that is drawn and reported. */
static void test_shipped_definitions(void **state)
{
    (void)state;
    const char *root = getenv("PTSBENCH_DATADIR");
    if (!root)
        skip();
    char dir[4096], list[4096], err[512];
    snprintf(dir, sizeof(dir), "%s/pts", root);
    const char *dirs[] = {dir, NULL};
    pts_def_list(dirs, list, sizeof(list));
    size_t n = 0;
    for (char *save = NULL, *name = strtok_r(list, ", ", &save); name;
         name = strtok_r(NULL, ", ", &save)) {
        struct pts_def d;
        if (pts_def_load(name, NULL, dirs, &d, err, sizeof(err)) != 0)
            fail_msg("%s: %s", name, err);
        assert_true(d.report >= PTS_REPORT_GENERIC && d.report < PTS_REPORT_COUNT);
        assert_true(plot_presentation_has_charts(d.report));
        assert_true(report_presentation_has_section((int)d.report));
        n++;
    }
    assert_true(n >= 7);   /* iops, tp, lat, wsat, hir, xsr, dirth at least */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_presentation_is_drawn_and_reported),
        cmocka_unit_test(test_names_read_back),
        cmocka_unit_test(test_version1_fallback),
        cmocka_unit_test(test_shipped_definitions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
