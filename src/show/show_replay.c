/* show_replay.c — a replay's results (ptsbench.replay) as a table: the trace's own figures,
 * then one line per pass and the total, with busy time, queue depth and lateness. */
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lib/json_path.h"
#include "lib/units.h"
#include "read/words.h"
#include "show/show.h"

#define sval(o, path) jp_str_or((o), (path), "-")   /* lib/json_path.h */

static const char *fig(double v, enum units_figure k, char *buf, size_t len)
{
    if (isnan(v))
        return "-";
    units_format_figure(v, k, buf, len);
    return buf;
}

static void row(FILE *out, const char *label, struct json_object *m, bool timed)
{
    char io[32], mb[32], lm[32], l99[32], busy[32], qd[32], late[72], lmed[32], lp99[32];
    snprintf(busy, sizeof(busy), "%s", "-");
    const double b = jp_path(m, "busy_s"), bp = jp_path(m, "busy_pct");
    if (!isnan(b))
        snprintf(busy, sizeof(busy), "%.3f s %3.0f%%", b, bp);
    snprintf(qd, sizeof(qd), "%s", "-");
    if (!isnan(jp_path(m, "qd_mean")))
        snprintf(qd, sizeof(qd), "%.2f", jp_path(m, "qd_mean"));
    snprintf(late, sizeof(late), "%s", timed ? "-" : "");
    if (timed && !isnan(jp_path(m, "lateness_us.median")))
        snprintf(late, sizeof(late), "%s/%s",
                 fig(jp_path(m, "lateness_us.median"), UNITS_FIG_LAT, lmed, sizeof(lmed)),
                 fig(jp_path(m, "lateness_us.p99"), UNITS_FIG_LAT, lp99, sizeof(lp99)));
    fprintf(out, "%-8s %12s %10s %11s %11s %14s %7s %13s\n", label,
            fig(jp_path(m, "total.iops"), UNITS_FIG_IOPS, io, sizeof(io)),
            fig(jp_path(m, "total.mb_s"), UNITS_FIG_MBS, mb, sizeof(mb)),
            fig(jp_path(m, "total.lat_us.mean"), UNITS_FIG_LAT, lm, sizeof(lm)),
            words_pct_lat(jp_obj_at(m, "total.lat_us"), "99", UNITS_TEXT, l99, sizeof(l99)),
            busy, qd, late);
}

void show_replay(FILE *out, struct json_object *doc)
{
    const bool sim = jp_at(doc, "target.simulated") != NULL;
    const bool timed = !strcmp(sval(doc, "replay.mode"), "timed");
    char mem[96];
    show_memory_label(doc, mem, sizeof(mem));
    fprintf(out, "%s%s%s\n", sval(doc, "target.path"), sim ? "  (simulated drive)" : "", mem);
    fprintf(out, "trace     %s (%s)\n", sval(doc, "trace.source"), sval(doc, "trace.format"));
    fprintf(out, "engine    %s, %s; status %s\n", sval(doc, "engine.name"),
            sval(doc, "engine.clock"), sval(doc, "status"));
    char place[512];
    if (show_placement_line(doc, place, sizeof(place)))
        fprintf(out, "placement %s\n", place);
    fprintf(out, "replay    %s", timed ? "timed" : "as fast as possible");
    struct json_object *qd = jp_at(doc, "replay.queue_depth");
    if (qd && json_object_is_type(qd, json_type_string))
        fprintf(out, " at the trace's own queue depths");
    else if (!timed)
        fprintf(out, " at QD %.0f", jp_path(doc, "replay.queue_depth"));
    fprintf(out, ", offsets %s\n", sval(doc, "replay.remap"));
    const double n = jp_path(doc, "trace.ios");
    char f[4][32];
    fprintf(out, "\nthe trace: %s I/Os (%s reads, %s writes), %s, %.1f%% sequential",
            fig(n, UNITS_FIG_COUNT, f[0], sizeof(f[0])),
            fig(jp_path(doc, "trace.read.ios"), UNITS_FIG_COUNT, f[1], sizeof(f[1])),
            fig(jp_path(doc, "trace.write.ios"), UNITS_FIG_COUNT, f[2], sizeof(f[2])),
            fig(jp_path(doc, "trace.bytes"), UNITS_FIG_BYTES, f[3], sizeof(f[3])),
            jp_path(doc, "trace.sequential_pct"));
    if (!isnan(jp_path(doc, "trace.busy_s")))
        fprintf(out, "; busy %.3f s of %.3f s, mean QD %.2f (%.0f%% at 1)",
                jp_path(doc, "trace.busy_s"), jp_path(doc, "trace.span_s"),
                jp_path(doc, "trace.qd_mean"), jp_path(doc, "trace.qd1_pct"));
    fprintf(out, "\n\n%-8s %12s %10s %11s %11s %14s %7s %13s\n", "pass", "IOPS", "MB/s",
            "lat mean", "lat 99%", "busy", "QD", timed ? "late med/99%" : "");
    struct json_object *passes = jp_arr_at(doc, "passes");
    for (size_t i = 0; i < jp_len(passes); i++) {
        char label[16];
        snprintf(label, sizeof(label), "%zu", i + 1);
        row(out, label, jp_idx(passes, i), timed);
    }
    struct json_object *total = jp_obj_at(doc, "total");
    if (total && jp_len(passes) > 1)
        row(out, "all", total, timed);
    if (jp_str(doc, "replay.note"))
        fprintf(out, "\nnote: %s\n", jp_str(doc, "replay.note"));
}
