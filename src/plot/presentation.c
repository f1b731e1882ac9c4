/* presentation.c — a suite test's presentation (chart.h): which report section and charts
 * show it; the suite document's tests by name. */
#include <json-c/json.h>
#include <string.h>

#include "plot/chart.h"

/* ---- JSON access ---- */

const char *pj_schema(struct json_object *doc)
{
    const char *s = jp_str(doc, "schema");
    return s ? s : "";
}

struct json_object *plot_suite_test(struct json_object *doc, const char *name)
{
    if (strcmp(pj_schema(doc), "ptsbench.suite"))
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

const char *plot_test_report(struct json_object *test)
{
    static const char *const known[] = {"iops", "tp", "lat", "wsat", "hir", "xsr", "dirth",
                                        "generic"};
    const char *r = jp_str(test, "report");
    for (size_t i = 0; r && i < sizeof(known) / sizeof(known[0]); i++)
        if (!strcmp(r, known[i]))
            return known[i];
    if (r)
        return "generic";   /* a presentation this report does not know: parameters only */
    /* version 1: no "report" field */
    const char *n = jp_str(test, "name");
    static const char *const by_name[][2] = {{"iops", "iops"}, {"tp", "tp"},   {"lat", "lat"},
                                             {"hir", "hir"},   {"xsr", "xsr"}, {"dirth", "dirth"},
                                             {"cbw", "dirth"}};
    for (size_t i = 0; n && i < sizeof(by_name) / sizeof(by_name[0]); i++)
        if (!strcmp(n, by_name[i][0]))
            return by_name[i][1];
    if (n && !strncmp(n, "wsat", 4))
        return "wsat";
    const char *k = jp_str(test, "kind");   /* a kind's own presentation */
    static const char *const kinds[] = {"hir", "xsr", "dirth"};
    for (size_t i = 0; k && i < sizeof(kinds) / sizeof(kinds[0]); i++)
        if (!strcmp(k, kinds[i]))
            return kinds[i];
    return "generic";
}

const char *plot_suite_report(struct plot_ctx *c, const char *name)
{
    for (size_t i = 0; i < c->n_in; i++) {
        struct json_object *t = plot_suite_test(c->in[i].doc, name);
        if (t)
            return plot_test_report(t);
    }
    return "generic";
}

