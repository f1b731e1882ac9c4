/* kind_xsr.c — the Cross Stimulus Recovery kind (docs/pts.md §2.6): groups of stimuli one after
 * another, logged at intervals, and the time the last group takes to recover the first's
 * throughput. */
#include "pts/pts_session.h"

#include <errno.h>
#include <stdarg.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/metrics.h"
#include "core/results.h"
#include "core/run.h"
#include "core/worker.h"
#include "device/hostinfo.h"
#include "device/target.h"
#include "device/write_cache.h"
#include "io/workload.h"
#include "lib/json_path.h"
#include "lib/units.h"
#include "lib/util.h"
#include "pts/pts_def.h"
#include "pts/pts_rules.h"
#include "stats/data_measure.h"
#include "stats/hist.h"
#include "stats/steady.h"

/* Cross Stimulus Recovery: the groups one after the other, each logged every element; then the
 * recovery, decided once the last group is complete (pts_xsr_recovery_minutes: the first of its
 * rounds whose throughput reaches the first group's average, within the tolerance). */
int pts_kind_xsr(struct pts_session *s, const struct pts_def *d, uint32_t sub_bs,
                   struct json_object *sub, char *err, size_t errlen)
{
    (void)sub_bs;   /* one subtest: the kind's own stimuli */
    if (d->purge && ps_do_purge(s, sub, err, errlen) != 0)
        return -1;
    ps_stimulus_begins(s, false);   /* no preconditioning: the groups' stimuli are the test */
    const uint64_t el_ns = ps_def_element_ns(s, d);
    struct json_object *groups = json_object_new_array(), *log = json_object_new_array();
    json_object_object_add(sub, "groups", groups);
    json_object_object_add(sub, "log", log);
    double first_avg = NAN;
    double *last_mb_s = NULL;   /* the last group's per-round throughput */
    size_t n_last = 0;
    int st = 0;
    double t = 0;
    for (unsigned g = 0; g < d->n_groups && st == 0; g++) {
        const struct pts_group *gr = &d->groups[g];
        const bool last_group = g == d->n_groups - 1;
        struct element_pool *ep = xcalloc(1, sizeof(*ep));
        st = ps_element_open(s, gr->mix, gr->bs, gr->random, ps_def_threads(s, d), ps_def_qd(s, d),
                          d->compress_pct, 0x585352ull + g, NULL, ep, err, errlen);
        const uint64_t n = pts_xsr_group_rounds(gr, s->cfg.time_scale, el_ns);
        if (last_group)
            last_mb_s = xcalloc(n, sizeof(double));
        double sum = 0, last = 0, peak_mean = 0, peak_max = 0;
        for (uint64_t r = 0; r < n && st == 0; r++) {
            struct round_metrics m;
            st = ps_measure_or_stop(s, ep, el_ns, NS_PER_S, &m, err, errlen);
            if (st != 0)
                break;
            t += m.elapsed_s;
            struct json_object *e = ps_period_json(&m);
            json_object_object_add(e, "group", json_object_new_int(g + 1));
            json_object_object_add(e, "t_min", jw_num(t / 60));
            json_object_array_add(log, e);
            sum += m.total.mb_s;
            last = m.total.mb_s;
            if (last_group)
                last_mb_s[n_last++] = m.total.mb_s;
            if (m.total.lat.mean_us > peak_mean)
                peak_mean = m.total.lat.mean_us;
            if (m.total.lat.max_us > peak_max)
                peak_max = m.total.lat.max_us;
            metrics_free(&m);
            st = ps_flush_or_fail(s, false, err, errlen);
        }
        ps_element_close(ep);
        free(ep);
        if (st != 0)
            break;
        if (g == 0)
            first_avg = sum / (double)n;
        char bs[32];
        units_format_size(gr->bs, bs, sizeof(bs));
        struct json_object *gj = json_object_new_object();
        json_object_object_add(gj, "group", json_object_new_int(g + 1));
        char label[64];
        snprintf(label, sizeof(label), "%s %s %u/%u", gr->random ? "RND" : "SEQ", bs, gr->mix,
                 100 - gr->mix);
        json_object_object_add(gj, "stimulus", json_object_new_string(label));
        json_object_object_add(gj, "minutes", jw_num((double)n * (double)el_ns / 60e9));
        json_object_object_add(gj, "mb_s_mean", jw_num(sum / (double)n));
        json_object_object_add(gj, "mb_s_end", jw_num(last));
        json_object_object_add(gj, "peak_lat_mean_us", jw_num(peak_mean));
        json_object_object_add(gj, "peak_lat_max_us", jw_num(peak_max));
        json_object_array_add(groups, gj);
        if (!s->cfg.quiet) {
            char mean[32], end[32];
            units_format_figure(sum / (double)n, UNITS_FIG_MBS, mean, sizeof(mean));
            units_format_figure(last, UNITS_FIG_MBS, end, sizeof(end));
            results_out_say(&s->out, "  [%s] group %u (%s): %s MB/s mean, %s MB/s at the "
                            "end%s", d->name, g + 1, label, mean, end, ps_sim_tag(s));
        }
    }
    if (st == 0) {
        /* one group only: nothing to recover from */
        const double rec = d->n_groups >= 2
                               ? pts_xsr_recovery_minutes(last_mb_s, n_last, first_avg,
                                                          PTS_XSR_RECOVERY_TOLERANCE,
                                                          (double)el_ns / 60e9)
                               : NAN;
        json_object_object_add(sub, "recovery_minutes", jw_num(rec));
        json_object_object_add(sub, "recovery_reference_mb_s", jw_num(first_avg));
        json_object_object_add(sub, "recovery_tolerance", jw_num(PTS_XSR_RECOVERY_TOLERANCE));
        json_object_object_add(sub, "recovery_rule", json_object_new_string(
            "the first round of the last group whose MB/s is at least the first group's "
            "average x (1 - recovery_tolerance); the tolerance is ptsbench's choice (the spec "
            "text is not available: UNCERTAIN)"));
        if (isnan(rec) && d->n_groups >= 2)
            ps_note(s, "%s: the last group never reached the first group's average throughput "
                 "(%.1f MB/s, within %g%%)", d->name, first_avg,
                 100 * PTS_XSR_RECOVERY_TOLERANCE);
        else if (!s->cfg.quiet) {
            char mins[32];
            units_format_figure(rec, UNITS_FIG_VALUE, mins, sizeof(mins));
            results_out_say(&s->out, "  [%s] recovery: %s minutes to the first group's "
                            "average (within %g%%)%s", d->name, mins,
                            100 * PTS_XSR_RECOVERY_TOLERANCE, ps_sim_tag(s));
        }
    }
    free(last_mb_s);
    return st;
}
