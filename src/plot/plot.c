/* plot.c — the chart driver (plot.h): every chart writer over the inputs (plot_pts.c,
 * plot_profile.c, plot_run.c), then the charts written and rendered through chart.c. */
#include "plot/plot.h"

#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/file.h"
#include "lib/util.h"
#include "plot/chart.h"

void plot_default_label(struct json_object *doc, char *buf, size_t len)
{
    struct json_object *t = jp_get(doc, "target");
    const char *model = jp_str(t, "model");
    const char *path = jp_str(t, "path");
    if (model && *model) {
        /* simulated drives describe themselves after the model: "NAME: ..." or "NAME, ..." */
        str_copy(buf, len, model);
        char *cut = strstr(buf, ": ");
        if (cut)
            *cut = '\0';
        cut = strstr(buf, ", ");
        if (cut)
            *cut = '\0';
        str_trim(buf);
        if (*buf)
            return;
    }
    str_copy(buf, len, path && *path ? path : "results");
}

/* The chart writers over the inputs, a simulated drive's label saying so in every legend and
 * one-device title (labels: n_in buffers for the tagged labels). */
static void build_charts(struct plot_ctx *c, const struct plot_input *in, size_t n_in,
                         struct plot_input *tagged, char (*labels)[320])
{
    for (size_t i = 0; i < n_in; i++) {
        tagged[i] = in[i];
        const char *l = in[i].label ? in[i].label : "";
        if (plot_doc_simulated(in[i].doc) && !strstr(l, "simulated") && !strstr(l, "Simulated")) {
            snprintf(labels[i], sizeof(labels[i]), "%s%s(simulated)", l, *l ? " " : "");
            tagged[i].label = labels[i];
        }
    }
    c->in = tagged;
    c->n_in = n_in;
    plot_pts_charts(c);
    plot_quick_charts(c);
    plot_profile_charts(c);
    plot_run_charts(c);
    plot_latdist_charts(c);
    plot_thermal_charts(c);
}

size_t plot_build(const struct plot_input *in, size_t n_in)
{
    struct plot_input *tagged = xcalloc(n_in ? n_in : 1, sizeof(*tagged));
    char (*labels)[320] = xcalloc(n_in ? n_in : 1, sizeof(*labels));
    struct plot_ctx c = {.out_dir = "."};
    build_charts(&c, in, n_in, tagged, labels);
    plot_charts_text(&c);
    size_t n = c.n_charts;
    plot_ctx_free(&c);
    free(tagged);
    free(labels);
    return n;
}

int plot_all(const struct plot_input *in, size_t n_in, const char *out_dir,
             struct plot_list *out, char *err, size_t errlen)
{
    out->f = NULL;
    out->n = 0;
    if (!out_dir || !*out_dir)
        return errf(err, errlen, "no output directory");
    for (size_t i = 0; i < n_in; i++)
        if (!in[i].doc)
            return errf(err, errlen, "input %zu has no results document", i + 1);
    if (plot_gnuplot_check(err, errlen) != 0)
        return -1;
    if (file_mkdir_p(out_dir, err, errlen) != 0)
        return -1;

    struct plot_input *tagged = xcalloc(n_in ? n_in : 1, sizeof(*tagged));
    char (*labels)[320] = xcalloc(n_in ? n_in : 1, sizeof(*labels));
    struct plot_ctx c = {.out_dir = out_dir};
    build_charts(&c, in, n_in, tagged, labels);

    int rc = plot_charts_render(&c, out, err, errlen);
    plot_ctx_free(&c);
    free(tagged);
    free(labels);
    return rc;
}

void plot_list_free(struct plot_list *l)
{
    if (!l)
        return;
    free(l->f);
    l->f = NULL;
    l->n = 0;
}
