/* plot_thermal.c — temperature and throttling per round beside IOPS (the rounds' `thermal`,
 * core/thermal_rounds.h): one chart of the runs that recorded a temperature, IOPS on the left
 * axis, the drive's temperature at each round's end on the right, the rounds during which the
 * drive throttled shaded and their temperature points marked. */
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lib/util.h"
#include "plot/chart.h"
#include "read/load.h"

/* Input i is a run with a temperature in at least one round. */
static bool has_thermal(struct json_object *doc)
{
    if (strcmp(read_schema(doc), "ptsbench.run") != 0)
        return false;
    struct json_object *rounds = jp_arr(doc, "rounds");
    for (size_t r = 0; r < jp_len(rounds); r++)
        if (isfinite(jp_path(jp_idx(rounds, r), "thermal.temperature_c")))
            return true;
    return false;
}

static bool throttled(struct json_object *round)
{
    struct json_object *t = jp_at(round, "thermal.throttled");
    return t && json_object_is_type(t, json_type_boolean) && json_object_get_boolean(t);
}

/* Input i's three blocks (IOPS, temperature, throttled rounds' temperature) and elements. */
static void thermal_input(struct plot_ctx *c, struct plot_chart *ch, size_t i, bool many,
                          int *obj)
{
    struct json_object *rounds = jp_arr(c->in[i].doc, "rounds");
    const char *l = c->in[i].label;
    char series[512], t[512];
    int d = plot_dev(ch, i);
    snprintf(series, sizeof(series), "%s: IOPS per round", l);
    int bi = plot_block(ch, i, series, "round iops");
    for (size_t r = 0; r < jp_len(rounds); r++)
        plot_row(ch, 2, jp_num(jp_idx(rounds, r), "round"),
                 jp_path(jp_idx(rounds, r), "total.iops"));
    if (plot_block_end(ch) > 0) {
        snprintf(t, sizeof(t), "%s%sIOPS (left)", many ? l : "", many ? ": " : "");
        plot_elem(ch, t, "dat index %d using 1:2 with linespoints lw 2 pt %d dt %d %s axes x1y1",
                  bi, plot_pt(d), plot_dt(d), many ? plot_dev_color(d) : plot_color(0));
    }
    snprintf(series, sizeof(series), "%s: temperature at the round's end (°C)", l);
    int bt = plot_block(ch, i, series, "round temperature_c");
    for (size_t r = 0; r < jp_len(rounds); r++)
        plot_row(ch, 2, jp_num(jp_idx(rounds, r), "round"),
                 jp_path(jp_idx(rounds, r), "thermal.temperature_c"));
    if (plot_block_end(ch) > 0) {
        snprintf(t, sizeof(t), "%s%stemperature (right)", many ? l : "", many ? ": " : "");
        plot_elem(ch, t, "dat index %d using 1:2 with linespoints lw 1.5 pt %d dt 2 %s axes x1y2",
                  bt, plot_pt(d), many ? plot_dev_color(d) : plot_color(1));
    }
    snprintf(series, sizeof(series), "%s: rounds during which the drive throttled", l);
    int bx = plot_block(ch, i, series, "round temperature_c");
    for (size_t r = 0; r < jp_len(rounds); r++) {
        struct json_object *ro = jp_idx(rounds, r);
        if (!throttled(ro))
            continue;
        double n = jp_num(ro, "round");
        plot_row(ch, 2, n, jp_path(ro, "thermal.temperature_c"));
        plot_set(ch, "set object %d rect from %g, graph 0 to %g, graph 1 behind "
                     "fillcolor rgb '#ff7f0e' fillstyle transparent solid 0.15 noborder",
                 (*obj)++, n - 0.5, n + 0.5);
    }
    if (plot_block_end(ch) > 0) {
        snprintf(t, sizeof(t), "%s%sthrottled (shaded)", many ? l : "", many ? ": " : "");
        plot_elem(ch, t, "dat index %d using 1:2 with points pt 6 ps 2 lw 2 lc rgb '#ff7f0e' "
                         "axes x1y2", bx);
    }
}

void plot_thermal_charts(struct plot_ctx *c)
{
    size_t n = 0, most = 0;
    for (size_t i = 0; i < c->n_in; i++)
        if (has_thermal(c->in[i].doc)) {
            n++;
            size_t k = jp_len(jp_arr(c->in[i].doc, "rounds"));
            most = k > most ? k : most;
        }
    if (!n)
        return;
    struct plot_chart *ch = plot_chart_new(
        c, "run-thermal", "run", "Run: temperature and IOPS per round",
        "The drive's temperature at the end of each round (right axis; hwmon, the NVMe SMART "
        "log, smartctl or the simulated drive's thermal model) beside its IOPS (left axis). "
        "Shaded rounds: the drive throttled during them (a thermal-management transition count "
        "or time rose, or the simulated drive's model throttled); their figures are the "
        "throttled drive's.");
    plot_set(ch, "set xlabel 'round'");
    plot_set(ch, "set ylabel 'IOPS'");
    plot_set(ch, "set y2label 'temperature (°C)'");
    plot_set(ch, "set yrange [0:*]");
    plot_set(ch, "set ytics nomirror");
    plot_set(ch, "set y2tics");
    if (most <= 30)
        plot_round_xtics(ch);
    plot_count_axis(ch);
    plot_set(ch, "set offsets 0.3, 0.3, graph 0.05, 0");
    int obj = 1;
    for (size_t i = 0; i < c->n_in; i++)
        if (has_thermal(c->in[i].doc))
            thermal_input(c, ch, i, n > 1, &obj);
    plot_chart_done(c, ch);
}
