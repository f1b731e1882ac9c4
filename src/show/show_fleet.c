/* show_fleet.c — a command's results on several targets (ptsbench.fleet, cli/cli_fleet.h): each
 * target's state and where its results are, then, run at once, the aggregate per round. */
#include <json-c/json.h>
#include <stdio.h>
#include <string.h>

#include "lib/json_path.h"
#include "lib/units.h"
#include "show/show.h"

#define sval(o, path) jp_str_or((o), (path), "?")   /* lib/json_path.h */

void show_fleet(FILE *out, struct json_object *doc)
{
    struct json_object *targets = jp_arr(doc, "targets");
    const size_t nt = jp_len(targets);
    fprintf(out, "%s on %zu targets, %s; status %s\n", sval(doc, "command"), nt,
            !strcmp(sval(doc, "mode"), "parallel") ? "at once (rounds started together)"
                                                   : "one after another",
            sval(doc, "status"));
    int w = 11;
    for (size_t i = 0; i < nt; i++) {
        const int l = (int)strlen(sval(jp_idx(targets, i), "label"));
        if (l > w)
            w = l;
    }
    fprintf(out, "  %-*s  %-11s  %-9s  %s\n", w, "label", "state", "drive", "target (results)");
    for (size_t i = 0; i < nt; i++) {
        struct json_object *t = jp_idx(targets, i);
        fprintf(out, "  %-*s  %-11s  %-9s  %s (%s)\n", w, sval(t, "label"), sval(t, "state"),
                jp_true(jp_get(t, "simulated")) ? "simulated" : "real", sval(t, "target"),
                sval(t, "results"));
    }
    struct json_object *al = jp_obj_at(doc, "alignment");
    if (al)
        fprintf(out, "aligned   %.0f rounds started together; the first ready waited %.3f s on "
                     "average for the last, at most %.3f s\n",
                jp_num(al, "rounds_started_together"), jp_num(al, "mean_wait_s"),
                jp_num(al, "max_wait_s"));
    struct json_object *agg = jp_obj_at(doc, "aggregate");
    const bool pass = agg && !strcmp(sval(agg, "unit"), "pass");
    struct json_object *rows = agg ? jp_arr(agg, pass ? "passes" : "rounds") : NULL;
    if (!jp_len(rows))
        return;
    fprintf(out, "\n%-6s %8s", pass ? "pass" : "round", "window");
    for (size_t i = 0; i < nt; i++)
        fprintf(out, " %12.12s", sval(jp_idx(targets, i), "label"));
    fprintf(out, " %12s %10s %12s  %s\n", "all IOPS", "all MB/s", "sum of IOPS", "drive state");
    for (size_t r = 0; r < jp_len(rows); r++) {
        struct json_object *x = jp_idx(rows, r);
        fprintf(out, "%-6.0f %7.2fs", jp_num(x, pass ? "pass" : "round"), jp_num(x, "window_s"));
        struct json_object *per = jp_arr(x, "targets");
        char f[3][32];
        for (size_t i = 0; i < nt; i++) {
            units_format_figure(jp_num(jp_idx(per, i), "iops"), UNITS_FIG_IOPS, f[0], sizeof(f[0]));
            fprintf(out, " %12s", f[0]);
        }
        units_format_figure(jp_path(x, "total.iops"), UNITS_FIG_IOPS, f[0], sizeof(f[0]));
        units_format_figure(jp_path(x, "total.mb_s"), UNITS_FIG_MBS, f[1], sizeof(f[1]));
        units_format_figure(jp_path(x, "total.sum_of_iops"), UNITS_FIG_IOPS, f[2], sizeof(f[2]));
        fprintf(out, " %12s %10s %12s ", f[0], f[1], f[2]);
        char states[256] = "";   /* each distinct state once: "fob (simulated), wipc" */
        for (size_t i = 0; i < nt; i++) {
            struct json_object *p = jp_idx(per, i);
            char s[64];
            snprintf(s, sizeof(s), "%s%s", sval(p, "condition"),
                     jp_true(jp_get(p, "simulated")) ? " (simulated)" : "");
            if (!strstr(states, s)) {
                const size_t used = strlen(states);
                snprintf(states + used, sizeof(states) - used, "%s%s", used ? ", " : " ", s);
            }
        }
        fprintf(out, "%s\n", states);
    }
    fprintf(out, "all: every target's I/Os over the longest of their elapsed times (the window "
                 "they shared); each target's own figures and drive state: ptsbench show "
                 "DIR/LABEL\n");
}
