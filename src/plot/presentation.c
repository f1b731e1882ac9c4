/* presentation.c — a suite test's presentation (plot.h, chart.h): which report section and
 * charts show it, by the presentations pts/ defines (enum pts_report, pts_report_name: their
 * names are there and nowhere else); the suite document's tests by name. */
#include <json-c/json.h>
#include <string.h>

#include "plot/chart.h"
#include "read/load.h"
#include "pts/pts_def.h"

struct json_object *plot_suite_test(struct json_object *doc, const char *name)
{
    if (strcmp(read_schema(doc), "ptsbench.suite"))
        return NULL;
    struct json_object *tests = jp_arr(doc, "tests");
    for (size_t i = 0; i < jp_len(tests); i++) {
        struct json_object *t = jp_idx(tests, i);
        const char *n = jp_str(t, "name");
        if (n && !strcmp(n, name))
            return t;
    }
    return NULL;
}

/* The presentation named r (a definition's `report` key, pts_report_name), or -1. */
static int presentation_named(const char *r)
{
    for (int p = PTS_REPORT_GENERIC; r && p < PTS_REPORT_COUNT; p++)
        if (!strcmp(r, pts_report_name((enum pts_report)p)))
            return p;
    return -1;
}

/* Version 1 (results without tests[i].report, and the fixtures): as the report chose before,
 * from the test's name (a presentation's own name; cbw: dirth; wsat*: wsat), then from its
 * kind (hir, xsr, dirth); else generic. */
static enum pts_report presentation_v1(struct json_object *test)
{
    const char *n = jp_str(test, "name");
    int p = presentation_named(n);
    if (p > PTS_REPORT_GENERIC)
        return (enum pts_report)p;
    if (n && !strcmp(n, "cbw"))
        return PTS_REPORT_DIRTH;
    if (n && !strncmp(n, "wsat", 4))
        return PTS_REPORT_WSAT;
    const char *k = jp_str(test, "kind");   /* a kind's own presentation */
    static const enum pts_report kinds[] = {PTS_REPORT_HIR, PTS_REPORT_XSR, PTS_REPORT_DIRTH};
    for (size_t i = 0; k && i < sizeof(kinds) / sizeof(kinds[0]); i++)
        if (!strcmp(k, pts_report_name(kinds[i])))
            return kinds[i];
    return PTS_REPORT_GENERIC;
}

enum pts_report plot_test_presentation(struct json_object *test)
{
    const char *r = jp_str(test, "report");
    if (!r)
        return presentation_v1(test);
    int p = presentation_named(r);
    /* a presentation this version does not know (newer results): parameters only */
    return p >= PTS_REPORT_GENERIC ? (enum pts_report)p : PTS_REPORT_GENERIC;
}

const char *plot_test_report(struct json_object *test)
{
    return pts_report_name(plot_test_presentation(test));
}

enum pts_report plot_suite_presentation(struct plot_ctx *c, const char *name)
{
    for (size_t i = 0; i < c->n_in; i++) {
        struct json_object *t = plot_suite_test(c->in[i].doc, name);
        if (t)
            return plot_test_presentation(t);
    }
    return PTS_REPORT_GENERIC;
}

const char *plot_suite_report(struct plot_ctx *c, const char *name)
{
    return pts_report_name(plot_suite_presentation(c, name));
}
