/* results.c — the results document (json-c) and its atomic write. */
#include "core/results.h"

#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <libgen.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/fio_ss.h"
#include "core/lat_hist.h"
#include "core/thermal_rounds.h"
#include "device/numa.h"
#include "lib/cpuset.h"
#include "lib/file.h"
#include "lib/json_path.h"
#include "lib/units.h"
#include "lib/util.h"


struct json_object *results_lat_json(const struct lat_summary *l)
{
    if (!l->count)
        return NULL;   /* no I/O in this direction: no latency figures (JSON null, not zeros) */
    struct json_object *o = json_object_new_object();
    jw_add(o, "count", jw_int((int64_t)l->count));
    jw_add(o, "min", jw_num(l->min_us));
    jw_add(o, "mean", jw_num(l->mean_us));
    jw_add(o, "max", jw_num(l->max_us));
    struct json_object *p = json_object_new_object();
    for (int i = 0; i < METRICS_NPCT; i++)
        jw_add(p, metrics_percentile_names[i] + 1, jw_num(l->pct_us[i]));   /* "50", "99.9", ... */
    jw_add(o, "percentiles", p);
    if (l->from != LAT_FROM_ROUND)   /* a window's: how its figures were taken */
        jw_add(o, "from", jw_str(lat_from_names[l->from]));
    return o;
}

static struct json_object *dir_json(const struct dir_metrics *d)
{
    struct json_object *o = json_object_new_object();
    jw_add(o, "ios", jw_int((int64_t)d->ios));
    jw_add(o, "bytes", jw_int((int64_t)d->bytes));
    jw_add(o, "iops", jw_num(d->iops));
    jw_add(o, "mb_s", jw_num(d->mb_s));
    jw_add(o, "mib_s", jw_num(d->mib_s));
    jw_add(o, "lat_us", results_lat_json(&d->lat));
    return o;
}

static struct json_object *array_json(const double *v, unsigned n)
{
    struct json_object *a = json_object_new_array_ext((int)n);
    for (unsigned i = 0; i < n; i++)
        json_object_array_add(a, jw_num(v[i]));
    return a;
}

void results_figures_add(struct json_object *o, const struct dir_metrics *read,
                         const struct dir_metrics *write, const struct dir_metrics *total)
{
    results_figures_trim_add(o, read, write, NULL, total);
}

void results_figures_trim_add(struct json_object *o, const struct dir_metrics *read,
                              const struct dir_metrics *write, const struct dir_metrics *trim,
                              const struct dir_metrics *total)
{
    jw_add(o, "read", dir_json(read));
    jw_add(o, "write", dir_json(write));
    if (trim && trim->ios)   /* only where trims were issued: other results keep their shape */
        jw_add(o, "trim", dir_json(trim));
    jw_add(o, "total", dir_json(total));
}

void results_depth_add(struct json_object *o, const struct depth_figure *d)
{
    if (d->how == DEPTH_NONE)
        return;
    struct json_object *dj = json_object_new_object();
    jw_add(dj, "declared", jw_int(d->declared));
    jw_add(dj, "mean", jw_num(d->mean));
    jw_add(dj, "kept", d->declared ? jw_num(d->mean / d->declared) : NULL);
    jw_add(dj, "how", jw_str(metrics_depth_how_names[d->how]));
    if (d->how != DEPTH_LITTLE)
        jw_add(dj, "at_end", jw_int(d->at_end));
    if (d->at_submit_known)
        jw_add(dj, "done_at_submit", jw_num(d->at_submit_share));
    char label[256];
    if (*metrics_depth_text(d, label, sizeof(label)))
        jw_add(dj, "label", jw_str(label));
    jw_add(o, "depth", dj);
}

/* The engine's choices over the round (engine.h: struct engine_choices); absent where the
 * engine records none (the simulated drive). */
static void choices_add(struct json_object *o, const struct engine_choices *c)
{
    if (!c->known)
        return;
    struct json_object *cj = json_object_new_object();
    if (c->decided_by) {
        jw_add(cj, "decided_by", jw_str(c->decided_by));
        jw_add(cj, "force_async", jw_int(c->force_async));
    } else {
        const struct { const char *name; uint64_t n; } rows[] = {
            {"marked", c->marked}, {"waits", c->waits},     {"held", c->held},
            {"spun", c->spun},     {"napped", c->napped},   {"yielded", c->yielded},
            {"batched", c->batched}, {"slept", c->slept},
        };
        jw_add(cj, "nowait", json_object_new_boolean(c->nowait));
        for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
            jw_add(cj, rows[i].name, jw_int((int64_t)rows[i].n));
    }
    jw_add(o, "engine_choices", cj);
}

void results_depth_gap_add(struct json_object *o, const struct round_metrics *m)
{
    results_depth_add(o, &m->depth);
    if (m->prio_ios)   /* fio's cmdprio keys: the share of the round's I/Os issued raised */
        jw_add(o, "prio_raised", jw_num((double)m->prio_raised / (double)m->prio_ios));
    if (m->gap[0])
        jw_add(o, "gap", jw_str(m->gap));
    choices_add(o, &m->choices);
}

const char *results_depth_text(struct json_object *o, char *buf, size_t len)
{
    buf[0] = '\0';
    struct json_object *dj = jp_at(o, "depth");
    const char *how = jp_str(dj, "how");
    const double declared = jp_path(dj, "declared"), mean = jp_path(dj, "mean");
    if (!how || !isfinite(declared) || !isfinite(mean) || declared < 1 || declared > UINT32_MAX)
        return buf;
    const double at_submit = jp_path(dj, "done_at_submit");
    struct depth_figure d = {.declared = (unsigned)declared, .mean = mean, .how = DEPTH_NONE,
                             .at_submit_share = isfinite(at_submit) ? at_submit : 0};
    for (int h = DEPTH_LOOP; h <= DEPTH_LITTLE; h++)
        if (!strcmp(how, metrics_depth_how_names[h]))
            d.how = (enum depth_how)h;
    return metrics_depth_text(&d, buf, len);
}

double results_figures_lat(struct json_object *o, const char *dir, const char *key)
{
    char path[96];
    const bool pct = key[0] >= '0' && key[0] <= '9';
    snprintf(path, sizeof(path), "%s.lat_us.%s%s", dir, pct ? "percentiles." : "", key);
    return jp_path(o, path);
}

void results_lat_hist_add(struct json_object *o, const struct round_metrics *m)
{
    if (!m->lat_dir[IO_READ] && !m->lat_dir[IO_WRITE])
        return;
    jw_add(o, "lat_hist", lat_hist_json((const struct hist *const *)m->lat_dir,
                                        m->weight > 0 ? m->weight : 1));
}

/* A round's (or a job's) per-interval samples. */
/* A round's samples; the mean latencies (null where an interval completed none) of a direction
 * only when the round has I/O of it (m), the total always. */
static struct json_object *samples_json(const struct round_metrics *m)
{
    const struct sample_series *s = &m->samples;
    struct json_object *so = json_object_new_object();
    jw_add(so, "interval_s", jw_num(s->interval_s));
    jw_add(so, "iops", array_json(s->iops, s->n));
    jw_add(so, "read_iops", array_json(s->read_iops, s->n));
    jw_add(so, "write_iops", array_json(s->write_iops, s->n));
    jw_add(so, "mb_s", array_json(s->mb_s, s->n));
    jw_add(so, "read_mb_s", array_json(s->read_mb_s, s->n));
    jw_add(so, "write_mb_s", array_json(s->write_mb_s, s->n));
    if (s->trim_iops) {   /* a round that issued trims */
        jw_add(so, "trim_iops", array_json(s->trim_iops, s->n));
        jw_add(so, "trim_mb_s", array_json(s->trim_mb_s, s->n));
    }
    if (s->lat_mean_us)
        jw_add(so, "lat_mean_us", array_json(s->lat_mean_us, s->n));
    if (s->read_lat_mean_us && m->read.ios)
        jw_add(so, "read_lat_mean_us", array_json(s->read_lat_mean_us, s->n));
    if (s->write_lat_mean_us && m->write.ios)
        jw_add(so, "write_lat_mean_us", array_json(s->write_lat_mean_us, s->n));
    return so;
}

/* A run of several jobs: a round's group (1-based, as printed) and each job's figures. */
static void round_jobs_add(struct json_object *o, const struct round_metrics *m)
{
    if (!m->jobs)
        return;
    jw_add(o, "group", jw_int(m->group + 1));
    struct json_object *jobs = json_object_new_array();
    for (unsigned j = 0; j < m->n_jobs; j++) {
        const struct round_metrics *jm = &m->jobs[j];
        struct json_object *jo = json_object_new_object();
        jw_add(jo, "label", jw_str(jm->label ? jm->label : ""));
        jw_add(jo, "elapsed_s", jw_num(jm->elapsed_s));
        results_figures_trim_add(jo, &jm->read, &jm->write, &jm->trim, &jm->total);
        results_depth_gap_add(jo, jm);
        results_lat_hist_add(jo, jm);
        jw_add(jo, "samples", samples_json(jm));
        json_object_array_add(jobs, jo);
    }
    jw_add(o, "jobs", jobs);
}

/* A remote host's round (fio client/server; reports/results-schema.md rounds[].hosts[]): the
 * flat keys older readers know, then the figures object and lat_hist of a round (the same
 * writers, metrics_host computing them as metrics_compute does), its disk_util entry, and
 * health as not reported. */
static struct json_object *host_json(const struct host_figures *h)
{
    struct json_object *ho = json_object_new_object();
    jw_add(ho, "host", jw_str(h->host));
    jw_add(ho, "runtime_s", jw_num(h->runtime_s));
    jw_add(ho, "read_iops", jw_num(h->iops[IO_READ]));
    jw_add(ho, "write_iops", jw_num(h->iops[IO_WRITE]));
    const bool t = h->ios[IO_TRIM] > 0;   /* trim_*: only a host that trimmed */
    if (t)
        jw_add(ho, "trim_iops", jw_num(h->iops[IO_TRIM]));
    jw_add(ho, "iops", jw_num(h->iops[IO_READ] + h->iops[IO_WRITE] +
                              (t ? h->iops[IO_TRIM] : 0)));
    jw_add(ho, "read_bytes", jw_int((int64_t)h->bytes[IO_READ]));
    jw_add(ho, "write_bytes", jw_int((int64_t)h->bytes[IO_WRITE]));
    if (t)
        jw_add(ho, "trim_bytes", jw_int((int64_t)h->bytes[IO_TRIM]));
    jw_add(ho, "read_lat_mean_us", jw_num(h->lat_mean_us[IO_READ]));
    jw_add(ho, "write_lat_mean_us", jw_num(h->lat_mean_us[IO_WRITE]));
    if (t)
        jw_add(ho, "trim_lat_mean_us", jw_num(h->lat_mean_us[IO_TRIM]));
    struct dir_metrics r, w, tr, all;
    metrics_host(h, &r, &w, &tr, &all);
    results_figures_trim_add(ho, &r, &w, &tr, &all);
    if (h->lat[IO_READ] || h->lat[IO_WRITE] || h->lat[IO_TRIM])
        jw_add(ho, "lat_hist", lat_hist_json((const struct hist *const *)h->lat, 1));
    if (h->disk.present) {
        struct json_object *dj = json_object_new_object();
        jw_add(dj, "name", jw_str(h->disk.name));
        jw_add(dj, "util_pct", jw_num(h->disk.util_pct));
        jw_add(dj, "read_ios", jw_int((int64_t)h->disk.read_ios));
        jw_add(dj, "write_ios", jw_int((int64_t)h->disk.write_ios));
        jw_add(ho, "disk", dj);
    }
    struct json_object *hj = json_object_new_object();
    jw_add(hj, "source", jw_str("none"));
    jw_add(hj, "note", jw_str("remote host: fio client/server carries no drive health"));
    jw_add(ho, "health", hj);
    return ho;
}

static struct json_object *hosts_json(const struct round_metrics *m)
{
    struct json_object *hosts = json_object_new_array();
    for (unsigned i = 0; i < m->n_hosts; i++)
        json_object_array_add(hosts, host_json(&m->hosts[i]));
    return hosts;
}

struct json_object *results_round_json(const struct round_metrics *m)
{
    struct json_object *o = json_object_new_object();
    jw_add(o, "round", jw_int(m->round));
    round_jobs_add(o, m);
    jw_add(o, "elapsed_s", jw_num(m->elapsed_s));
    results_figures_trim_add(o, &m->read, &m->write, &m->trim, &m->total);
    results_depth_gap_add(o, m);
    results_lat_hist_add(o, m);
    jw_add(o, "samples", samples_json(m));
    if (m->lat_target.present)   /* latency_target: the depth the search kept, and the verdict */
        jw_add(o, "latency_target", lat_round_json(&m->lat_target));
    if (m->n_hosts)   /* remote load generators (fio client/server): each host's figures */
        jw_add(o, "hosts", hosts_json(m));
    if (m->device.present) {
        const struct device_round *d = &m->device;
        struct json_object *dj = json_object_new_object();
        jw_add(dj, "host_write_bytes", jw_num(d->host_write_bytes));
        jw_add(dj, "nand_write_bytes", jw_num(d->nand_write_bytes));
        jw_add(dj, "total_host_write_bytes", jw_num(d->total_host_write_bytes));
        jw_add(dj, "write_amplification", jw_num(d->wa_round));
        jw_add(dj, "write_amplification_cumulative", jw_num(d->wa_cumulative));
        jw_add(dj, "gc_relocated_bytes", jw_num(d->gc_relocated_bytes));
        jw_add(dj, "bg_gc_relocated_bytes", jw_num(d->bg_relocated_bytes));
        jw_add(dj, "erases", jw_num(d->erases));
        jw_add(dj, "fg_gc_steps", jw_int((int64_t)d->fg_gc_steps));
        jw_add(dj, "bg_gc_steps", jw_int((int64_t)d->bg_gc_steps));
        jw_add(dj, "free_lines", jw_int((int64_t)d->free_lines));
        jw_add(dj, "total_lines", jw_int((int64_t)d->total_lines));
        jw_add(o, "device", dj);
    }
    if (m->thermal.present)   /* temperature and throttling (core/thermal_rounds.h) */
        jw_add(o, "thermal", thermal_reading_json(&m->thermal));
    if (m->data.present)
        jw_add(o, "data", data_measure_json(&m->data));
    if (m->phase)
        jw_add(o, "phase", jw_str(m->phase));
    if (m->state.present)
        jw_add(o, "state", results_state_json(&m->state));
    if (m->unwritten.present) {   /* its reads of never-written space (drive_state.h) */
        struct json_object *u = json_object_new_object();
        jw_add(u, "share", jw_num(m->unwritten.share));
        jw_add(u, "how", jw_str(m->unwritten.measured ? "measured" : "estimated"));
        jw_add(u, "labelled", json_object_new_boolean(ds_reads_labelled(&m->unwritten)));
        if (ds_reads_labelled(&m->unwritten)) {
            char label[160];
            ds_unwritten_label(m->unwritten.share, label, sizeof(label));
            jw_add(u, "label", jw_str(label));
        }
        jw_add(o, "unwritten_reads", u);
    }
    return o;
}

struct json_object *results_purge_json(const struct purge_plan *plan, bool ran, double seconds)
{
    struct json_object *p = json_object_new_object();
    jw_add(p, "method", jw_str(purge_method_name(plan->method)));
    jw_add(p, "compliant", json_object_new_boolean(plan->compliant));
    jw_add(p, "command", jw_str(plan->argv_text));
    jw_add(p, "reason", jw_str(plan->reason));
    jw_add(p, "ran", json_object_new_boolean(ran));
    jw_add(p, "variant", plan->ran[0] ? jw_str(plan->ran) : NULL);   /* what was issued */
    jw_add(p, "seconds", jw_num(seconds));
    const struct purge_verify *v = &plan->verify;
    if (v->samples || v->note[0]) {   /* what the samples read around the purge showed */
        struct json_object *o = json_object_new_object();
        jw_add(o, "samples", jw_int(v->samples));
        jw_add(o, "zero", jw_int(v->zero));
        jw_add(o, "unchanged", jw_int(v->unchanged));
        jw_add(o, "erased", json_object_new_boolean(v->erased));
        jw_add(o, "note", jw_str(v->note));
        jw_add(p, "verify", o);
    }
    return p;
}

struct json_object *results_wipc_json(const struct results_wipc *w, const struct round_metrics *m)
{
    struct json_object *o = json_object_new_object();
    jw_add(o, "kind", jw_str("wipc"));
    jw_add(o, "bs", jw_int(w->bs));
    jw_add(o, "threads", jw_int(w->threads));
    jw_add(o, "qd", jw_int(w->qd));
    jw_add(o, "fills", jw_int(w->fills));
    jw_add(o, "compress_pct", jw_int(w->compress_pct));
    jw_add(o, "bytes_target", jw_int((int64_t)w->bytes_target));
    jw_add(o, "bytes_written", jw_int((int64_t)m->write.bytes));
    jw_add(o, "elapsed_s", jw_num(m->elapsed_s));
    jw_add(o, "wall_s", jw_num(w->wall_s));
    jw_add(o, "mb_s", jw_num(m->write.mb_s));
    jw_add(o, "round", results_round_json(m));
    return o;
}

struct json_object *results_fast_json(const struct results_fast *f, const struct round_metrics *m)
{
    struct json_object *o = json_object_new_object();
    jw_add(o, "model", jw_str("Desnoyers 1/v, greedy GC"));
    jw_add(o, "rho", jw_num(f->rho));
    jw_add(o, "rho_source", jw_str(f->rho_source));
    jw_add(o, "rho_simulator", f->rho_simulator > 0 ? jw_num(f->rho_simulator) : NULL);
    jw_add(o, "ftl", jw_str(f->ftl));
    jw_add(o, "regions", jw_int(f->regions));
    if (f->threads)
        jw_add(o, "threads", jw_int(f->threads));
    if (f->threads_basis)
        jw_add(o, "threads_basis", jw_str(f->threads_basis));
    jw_add(o, "qd", jw_int(f->qd));
    if (f->unit_bytes)
        jw_add(o, "unit_bytes", jw_int(f->unit_bytes));
    if (f->unit_basis)
        jw_add(o, "unit_basis", jw_str(f->unit_basis));
    if (f->stimulus_random_map)
        jw_add(o, "stimulus_random_map", jw_str(f->stimulus_random_map));
    if (f->wdpc_min_fills > 0)   /* WDPC's floor followed the guard's lag (core/run.c) */
        jw_add(o, "wdpc_min_fills", jw_num(f->wdpc_min_fills));
    if (m && f->ftl && !strcmp(f->ftl, "none") && m->write.ios > 0) {
        /* core/steps.c step_fast: no FTL, the fills in order in equal writes */
        char sz[32], order[96];
        units_format_bs((double)m->write.bytes / (double)m->write.ios, sz, sizeof(sz));
        snprintf(order, sizeof(order), "sequential, %s writes (no FTL: nothing to shape)", sz);
        jw_add(o, "order", jw_str(order));
    } else if (m) {
        jw_add(o, "order", jw_str("io/fastgen.h regions, random order inside each"));
    }
    jw_add(o, "bytes_written", jw_num(f->bytes));
    jw_add(o, "fills", jw_num(f->fills));
    jw_add(o, "elapsed_s", jw_num(f->elapsed_s));
    if (f->wall_s > 0)
        jw_add(o, "wall_s", jw_num(f->wall_s));
    if (f->sim_checked) {
        struct json_object *c = json_object_new_object();
        jw_add(c, "passed", json_object_new_boolean(f->sim_ok));
        jw_add(c, "write_amplification", jw_num(f->sim_wa));
        jw_add(c, "free_lines", jw_int((int64_t)f->sim_free_lines));
        jw_add(c, "pool_lines", jw_int((int64_t)f->sim_pool_lines));
        jw_add(o, "check", c);
    }
    if (m)
        jw_add(o, "round", results_round_json(m));
    return o;
}

struct json_object *results_state_json(const struct drive_state *s)
{
    struct json_object *o = json_object_new_object();
    jw_add(o, "condition", jw_str(ds_condition_name(s->condition)));
    jw_add(o, "purged", json_object_new_boolean(s->purged));
    jw_add(o, "written_bytes", jw_num(s->written_bytes));
    jw_add(o, "written_fills", jw_num(ds_fills(s, s->written_bytes)));
    jw_add(o, "wipc_bytes", jw_num(s->wipc_bytes));
    jw_add(o, "wipc_fills", jw_num(ds_fills(s, s->wipc_bytes)));
    if (s->fast_bytes > 0) {   /* the fast pass (drive_state.h): written only after one */
        jw_add(o, "fast_bytes", jw_num(s->fast_bytes));
        jw_add(o, "fast_fills", jw_num(ds_fills(s, s->fast_bytes)));
    }
    jw_add(o, "wdpc_bytes", jw_num(s->wdpc_bytes));
    jw_add(o, "wdpc_fills", jw_num(ds_fills(s, s->wdpc_bytes)));
    jw_add(o, "simulated", json_object_new_boolean(s->simulated));
    /* what the active range holds, and how ptsbench knows (drive_state.h) */
    jw_add(o, "content", jw_str(ds_content_name(s->content)));
    if (s->content != DS_CONTENT_UNKNOWN) {
        jw_add(o, "unwritten_bytes", jw_num(s->unwritten_bytes));
        jw_add(o, "unwritten_share", jw_num(ds_unwritten_share(s)));
    }
    return o;
}

void results_state_from_json(struct json_object *o, struct drive_state *s)
{
    static const enum ds_condition conds[] = {DS_FOB, DS_PURGED, DS_WIPC, DS_WDPC, DS_FAST};
    struct json_object *v;
    if (!o || !json_object_is_type(o, json_type_object))
        return;
    const char *c = json_object_object_get_ex(o, "condition", &v) ? json_object_get_string(v)
                                                                  : NULL;
    for (size_t i = 0; c && i < sizeof(conds) / sizeof(conds[0]); i++)
        if (!strcmp(c, ds_condition_name(conds[i])))
            s->condition = conds[i];
    if (json_object_object_get_ex(o, "purged", &v))
        s->purged = json_object_get_boolean(v);
    if (json_object_object_get_ex(o, "written_bytes", &v))
        s->written_bytes = json_object_get_double(v);
    if (json_object_object_get_ex(o, "wipc_bytes", &v))
        s->wipc_bytes = json_object_get_double(v);
    if (json_object_object_get_ex(o, "fast_bytes", &v))
        s->fast_bytes = json_object_get_double(v);
    if (json_object_object_get_ex(o, "wdpc_bytes", &v))
        s->wdpc_bytes = json_object_get_double(v);
    static const enum ds_content contents[] = {DS_CONTENT_UNKNOWN, DS_CONTENT_EXTENTS,
                                               DS_CONTENT_PURGE, DS_CONTENT_SIMULATED};
    const char *ct = json_object_object_get_ex(o, "content", &v) ? json_object_get_string(v)
                                                                : NULL;
    for (size_t i = 0; ct && i < sizeof(contents) / sizeof(contents[0]); i++)
        if (!strcmp(ct, ds_content_name(contents[i])))
            s->content = contents[i];
    if (json_object_object_get_ex(o, "unwritten_bytes", &v))
        s->unwritten_bytes = json_object_get_double(v);
}

void results_verdict_json(struct json_object *steady, const struct ds_verdict *v,
                          const struct steady_guard_result *gr, const struct steady_guard *g)
{
    jw_add(steady, "reached", json_object_new_boolean(v->steady));
    jw_add(steady, "stable", json_object_new_boolean(v->stable));
    jw_add(steady, "measured_state", jw_str(ds_measured_name(v->measured)));
    jw_add(steady, "label", jw_str(v->label));
    jw_add(steady, "reason", v->reason[0] ? jw_str(v->reason) : NULL);
    if (!gr || !g)
        return;
    jw_add(steady, "guard", results_guard_json(gr, g));
}

struct json_object *results_guard_json(const struct steady_guard_result *gr,
                                       const struct steady_guard *g)
{
    struct json_object *o = json_object_new_object();
    jw_add(o, "rule", jw_str("the stimulus wrote >= lag_fills of the active range before the window, "
                        "and every 5-round average since lag_fills before the window is within "
                        "band_pct of the window's average (steady.h)"));
    jw_add(o, "lag_fills", jw_num(g->lag_fills));
    if (g->lag_basis)   /* steady.h: why not the default 1 fill (after a fast pass) */
        jw_add(o, "lag_basis", jw_str(g->lag_basis));
    jw_add(o, "band_pct", jw_num(100 * g->band_frac));
    jw_add(o, "evaluated", json_object_new_boolean(gr->evaluated));
    jw_add(o, "passed", json_object_new_boolean(gr->passed));
    jw_add(o, "fills_before_window", jw_num(gr->fills_before));
    jw_add(o, "span_first_round", gr->span_first_round ? jw_int(gr->span_first_round) : NULL);
    jw_add(o, "span_last_round", gr->span_last_round ? jw_int(gr->span_last_round) : NULL);
    jw_add(o, "max_deviation_pct", gr->evaluated ? jw_num(100 * gr->max_deviation) : NULL);
    jw_add(o, "worst_round", gr->worst_round ? jw_int(gr->worst_round) : NULL);
    return o;
}

struct json_object *results_workload_json(const struct workload *wl, const struct wl_range *range)
{
    struct json_object *o = json_object_new_object();
    char spec[1024];
    wl_format(wl, spec, sizeof(spec));
    jw_add(o, "name", jw_str(wl->name));
    if (wl->description[0])
        jw_add(o, "description", jw_str(wl->description));
    jw_add(o, "source", jw_str(wl->source));
    jw_add(o, "spec", jw_str(spec));
    if (wl->note[0])   /* how a fio job file's keys were taken, where not one to one */
        jw_add(o, "note", jw_str(wl->note));
    if (wl->buffered)  /* direct=0: the page cache's figures, not the device's */
        jw_add(o, "buffered", json_object_new_boolean(1));
    jw_add(o, "rw", jw_str(wl->rw));
    jw_add(o, "read_pct", jw_int(wl->read_pct));
    jw_add(o, "random_pct", jw_int(wl->random_pct));
    struct json_object *bs = json_object_new_array();
    for (unsigned i = 0; i < wl->n_bs; i++) {
        struct json_object *b = json_object_new_object();
        jw_add(b, "bytes", jw_int(wl->bs[i].size));
        jw_add(b, "weight_pct", jw_int(wl->bs[i].weight));
        json_object_array_add(bs, b);
    }
    jw_add(o, "block_sizes", bs);
    jw_add(o, "qd", jw_int(wl->qd));
    jw_add(o, "workers", jw_int(wl->workers));
    jw_add(o, "outstanding_ios", jw_int((int64_t)wl->qd * wl->workers));
    bool split = wl->region == WL_REGION_SPLIT ||
                 (wl->region == WL_REGION_DEFAULT && wl->random_pct == 0);
    jw_add(o, "region", jw_str(split && wl->workers > 1 ? "split" : "shared"));
    jw_add(o, "compress_pct", jw_int(wl->compress_pct));
    char seed[32];
    snprintf(seed, sizeof(seed), "0x%llx", (unsigned long long)wl->seed);
    jw_add(o, "seed", jw_str(seed));
    if (range) {
        struct json_object *r = json_object_new_object();
        jw_add(r, "offset", jw_int((int64_t)range->start));
        jw_add(r, "length", jw_int((int64_t)range->len));
        jw_add(o, "active_range", r);
    }
    return o;
}

struct json_object *results_track_json(const char *metric, uint32_t bs, int read_pct)
{
    struct json_object *o = json_object_new_object();
    jw_add(o, "metric", jw_str(metric));
    if (bs)
        jw_add(o, "bs", jw_int(bs));
    if (read_pct >= 0)
        jw_add(o, "read_pct", jw_int(read_pct));
    return o;
}

struct json_object *results_steady_json(const struct steady_window *w, unsigned steady_round,
                                        const struct steady_criteria *c, const char *tracking,
                                        unsigned rounds_run)
{
    struct json_object *o = json_object_new_object();
    jw_add(o, "tracking", jw_str(tracking));
    char rule[192];   /* other limits: a fio job's ss (core/fio_ss.h) */
    snprintf(rule, sizeof(rule), "%s: window range <= %g%% of average and least-squares excursion "
             "<= %g%% of average (<=, see steady.h)", c->range_frac == 0.20 &&
             c->slope_frac == 0.10 ? "SNIA PTS" : "SNIA PTS's rule with other limits",
             100 * c->range_frac, 100 * c->slope_frac);
    jw_add(o, "rule", jw_str(rule));
    jw_add(o, "window_rounds", jw_int(c->window));
    jw_add(o, "max_rounds", jw_int(c->max_rounds));
    jw_add(o, "range_limit_pct", jw_num(c->range_frac * 100));
    jw_add(o, "slope_limit_pct", jw_num(c->slope_frac * 100));
    jw_add(o, "rounds_run", jw_int(rounds_run));
    jw_add(o, "reached", json_object_new_boolean(steady_round > 0));
    jw_add(o, "round", steady_round ? jw_int(steady_round) : NULL);
    if (w && w->last_round) {
        struct json_object *win = json_object_new_object();
        jw_add(win, "first_round", jw_int(w->first_round));
        jw_add(win, "last_round", jw_int(w->last_round));
        jw_add(win, "average", jw_num(w->average));
        jw_add(win, "min", jw_num(w->min));
        jw_add(win, "max", jw_num(w->max));
        jw_add(win, "range", jw_num(w->range));
        jw_add(win, "range_allowed", jw_num(w->range_allowed));
        jw_add(win, "slope", jw_num(w->slope));
        jw_add(win, "intercept", jw_num(w->intercept));
        jw_add(win, "slope_excursion", jw_num(w->slope_excursion));
        jw_add(win, "slope_excursion_allowed", jw_num(w->slope_excursion_allowed));
        jw_add(win, "range_ok", json_object_new_boolean(w->range_ok));
        jw_add(win, "slope_ok", json_object_new_boolean(w->slope_ok));
        jw_add(win, "steady", json_object_new_boolean(w->steady));
        char fit[128];
        snprintf(fit, sizeof(fit), "y = %.6g*x + %.6g", w->slope, w->intercept);
        jw_add(win, "fit", jw_str(fit));
        jw_add(o, "window", win);
    } else {
        jw_add(o, "window", NULL);
    }
    return o;
}

struct json_object *results_host_json(const struct hostinfo *h)
{
    struct json_object *o = json_object_new_object();
    jw_add(o, "hostname", jw_str(h->hostname));
    jw_add(o, "kernel", jw_str(h->kernel));
    jw_add(o, "cpu_model", jw_str(h->cpu_model));
    jw_add(o, "cpus_online", jw_int(h->cpus_online));
    jw_add(o, "memory_bytes", jw_int((int64_t)h->memory_bytes));
    struct json_object *v = json_object_new_object();
    jw_add(v, "liburing", h->liburing[0] ? jw_str(h->liburing) : NULL);
    jw_add(v, "liburing_built", h->liburing_built[0] ? jw_str(h->liburing_built) : NULL);
    jw_add(v, "libaio", h->libaio[0] ? jw_str(h->libaio) : NULL);
    jw_add(v, "fio", h->fio[0] ? jw_str(h->fio) : NULL);
    jw_add(v, "json-c", jw_str(h->json_c));
    jw_add(o, "versions", v);
    struct json_object *d = json_object_new_object();   /* DMI: the host's maker and firmware */
    const char *const dmi[][2] = {{"sys_vendor", h->sys_vendor},
                                  {"product_name", h->product_name},
                                  {"board_vendor", h->board_vendor},
                                  {"board_name", h->board_name},
                                  {"bios_vendor", h->bios_vendor},
                                  {"bios_version", h->bios_version}};
    for (size_t i = 0; i < sizeof(dmi) / sizeof(dmi[0]); i++)
        if (dmi[i][1][0])
            jw_add(d, dmi[i][0], jw_str(dmi[i][1]));
    jw_add(o, "dmi", d);
    return o;
}

struct json_object *results_placement_json(const struct placement *pl)
{
    struct json_object *o = json_object_new_object();
    char list[1024];
    jw_add(o, "mode", jw_str(numa_mode_name(pl->mode)));
    jw_add(o, "host_nodes", jw_int(pl->host_nodes));
    jw_add(o, "device_node", pl->device_node >= 0 ? jw_int(pl->device_node) : NULL);
    if (pl->device_node < 0)
        jw_add(o, "device_node_reason", jw_str(pl->device_why));
    jw_add(o, "requested", pl->requested[0] ? jw_str(pl->requested) : NULL);
    jw_add(o, "pinned", json_object_new_boolean(pl->pinned));
    cpuset_format(&pl->cpus, list, sizeof(list));
    jw_add(o, "cpus", pl->pinned ? jw_str(list) : NULL);
    jw_add(o, "node", pl->pinned && pl->node >= 0 ? jw_int(pl->node) : NULL);
    jw_add(o, "reason", jw_str(pl->reason));
    jw_add(o, "threads", jw_str(placement_threads_name(pl->threads)));
    struct json_object *ws = json_object_new_array();
    for (unsigned i = 0; i < pl->n_workers; i++) {
        struct json_object *w = json_object_new_object();
        jw_add(w, "worker", jw_int(i));
        cpuset_format(&pl->workers[i].affinity, list, sizeof(list));
        jw_add(w, "affinity", jw_str(list));
        cpuset_format(&pl->workers[i].ran_on, list, sizeof(list));
        jw_add(w, "ran_on", jw_str(list));
        json_object_array_add(ws, w);
    }
    jw_add(o, "workers", ws);
    return o;
}

/* An NVMe multipath head's paths and the one whose attachment the target's keys give. */
static struct json_object *results_multipath_json(const struct target_attach *at)
{
    struct json_object *o = json_object_new_object();
    jw_add(o, "iopolicy", at->iopolicy[0] ? jw_str(at->iopolicy) : NULL);
    jw_add(o, "used", at->path_used >= 0 ? jw_str(at->paths[at->path_used].name) : NULL);
    struct json_object *a = json_object_new_array();
    for (unsigned i = 0; i < at->n_paths; i++) {
        const struct target_path *p = &at->paths[i];
        struct json_object *po = json_object_new_object();
        jw_add(po, "name", jw_str(p->name));
        jw_add(po, "controller", jw_str(p->controller));
        jw_add(po, "state", p->state[0] ? jw_str(p->state) : NULL);
        jw_add(po, "ana_state", p->ana_state[0] ? jw_str(p->ana_state) : NULL);
        jw_add(po, "pcie_address", p->pci_address[0] ? jw_str(p->pci_address) : NULL);
        jw_add(po, "numa_node", p->numa_node >= 0 ? jw_int(p->numa_node) : NULL);
        json_object_array_add(a, po);
    }
    jw_add(o, "paths", a);
    return o;
}

/* A zoned device's model and zones (device/zoned.h). */
static struct json_object *results_zoned_json(const struct target_zoned *z)
{
    struct json_object *o = json_object_new_object();
    jw_add(o, "model", jw_str(z->model));
    jw_add(o, "zone_bytes", z->zone_bytes ? jw_int((int64_t)z->zone_bytes) : NULL);
    jw_add(o, "zones", z->zones ? jw_int(z->zones) : NULL);
    jw_add(o, "max_open_zones", jw_int(z->max_open));
    jw_add(o, "max_active_zones", jw_int(z->max_active));
    return o;
}

struct json_object *results_target_json(const struct target_info *t)
{
    struct json_object *o = json_object_new_object();
    jw_add(o, "path", jw_str(t->path));
    jw_add(o, "kind", jw_str(target_kind_name(t->kind)));
    jw_add(o, "device", jw_str(t->devname));
    jw_add(o, "capacity_bytes", jw_int((int64_t)t->capacity));
    jw_add(o, "logical_sector", jw_int(t->logical_sector));
    jw_add(o, "physical_sector", jw_int(t->physical_sector));
    jw_add(o, "alignment_offset", jw_int(t->alignment_offset));
    jw_add(o, "model", t->model[0] ? jw_str(t->model) : NULL);
    jw_add(o, "serial", t->serial[0] ? jw_str(t->serial) : NULL);
    jw_add(o, "firmware", t->firmware[0] ? jw_str(t->firmware) : NULL);
    jw_add(o, "vendor", t->vendor[0] ? jw_str(t->vendor) : NULL);
    jw_add(o, "rotational", json_object_new_boolean(t->rotational));
    if (t->memory_fs[0]) {   /* --allow-memory-target: what the figures are of, said once here */
        char note[PATH_MAX + 128];
        snprintf(note, sizeof(note), "%s is on %s: the figures measure memory, not a drive "
                 "(--allow-memory-target)", t->path, t->memory_fs);
        jw_add(o, "memory", json_object_new_boolean(true));
        jw_add(o, "filesystem", jw_str(t->memory_fs));
        jw_add(o, "memory_note", jw_str(note));
    }
    const struct target_attach *at = &t->attach;   /* how it is attached; absent: not reported */
    if (at->interface[0])
        jw_add(o, "interface", jw_str(at->interface));
    if (at->driver[0])
        jw_add(o, "driver", jw_str(at->driver));
    if (at->numa_node >= 0)
        jw_add(o, "numa_node", jw_int(at->numa_node));
    if (at->pci_address[0]) {
        struct json_object *pc = json_object_new_object();
        jw_add(pc, "address", jw_str(at->pci_address));
        if (at->link_speed[0])
            jw_add(pc, "link_speed", jw_str(at->link_speed));
        if (at->link_width > 0)
            jw_add(pc, "link_width", jw_int(at->link_width));
        if (at->max_link_speed[0])
            jw_add(pc, "max_link_speed", jw_str(at->max_link_speed));
        if (at->max_link_width > 0)
            jw_add(pc, "max_link_width", jw_int(at->max_link_width));
        jw_add(o, "pcie", pc);
    }
    if (at->nvme_head)
        jw_add(o, "multipath", results_multipath_json(at));
    if (t->zoned.model[0])
        jw_add(o, "zoned", results_zoned_json(&t->zoned));
    if (t->kind == TARGET_BLOCK)
        jw_add(o, "write_cache", jw_str(t->write_cache ? "write back" : "write through"));
    struct stat st;
    if (t->kind == TARGET_FILE && stat(t->path, &st) == 0) {   /* the file's identity (--resume) */
        jw_add(o, "inode", jw_int((int64_t)st.st_ino));
        jw_add(o, "st_dev", jw_int((int64_t)st.st_dev));
    }
    if (t->kind == TARGET_BLOCK && (t->signatures_probed || t->signatures_error[0])) {
        struct json_object *a = json_object_new_array();
        for (unsigned i = 0; i < t->n_signatures; i++) {
            const struct target_signature *g = &t->signatures[i];
            struct json_object *so = json_object_new_object();
            jw_add(so, "type", g->type[0] ? jw_str(g->type) : NULL);
            jw_add(so, "usage", g->usage[0] ? jw_str(g->usage) : NULL);
            jw_add(so, "label", g->label[0] ? jw_str(g->label) : NULL);
            jw_add(so, "uuid", g->uuid[0] ? jw_str(g->uuid) : NULL);
            jw_add(so, "version", g->version[0] ? jw_str(g->version) : NULL);
            jw_add(so, "offset", jw_int((int64_t)g->offset));
            json_object_array_add(a, so);
        }
        jw_add(o, "signatures", a);   /* what libblkid found before anything was written */
        if (t->signatures_error[0])
            jw_add(o, "signatures_error", jw_str(t->signatures_error));
    }
    if (t->sim) {
        struct sim_info si;
        sim_info(t->sim->dev, &si);
        const struct sim_params *p = &t->sim->params;
        /* Reports show the full-size drive; the harness addressed the scaled one. */
        jw_add(o, "capacity_bytes", jw_int((int64_t)si.nominal_user_bytes));
        struct json_object *sj = json_object_new_object();
        jw_add(sj, "preset", jw_str(p->name));
        jw_add(sj, "description", jw_str(p->description));
        jw_add(sj, "time_scale_k", jw_int(si.k));
        jw_add(sj, "scaled_capacity_bytes", jw_int((int64_t)si.user_bytes));
        jw_add(sj, "scaled_raw_bytes", jw_int((int64_t)si.raw_bytes));
        jw_add(sj, "controllers", jw_int(si.n_ctl));
        jw_add(sj, "dispatch", jw_str(p->dispatch == SIM_DISPATCH_VCA ? "vca" : "stripe"));
        jw_add(sj, "lines_per_controller", jw_int(si.lines_per_ctl));
        jw_add(sj, "pages_per_block", jw_int(si.pages_per_block));
        jw_add(sj, "rho_eff", jw_num(si.rho_eff));
        jw_add(sj, "durawrite", json_object_new_boolean(p->durawrite));
        jw_add(sj, "background_gc", json_object_new_boolean(p->bg_gc));
        jw_add(sj, "seed", jw_int((int64_t)p->seed));
        jw_add(o, "simulated", sj);
    }
    return o;
}

/* How the run prepared the drive: the mode, the WIPC's figures, the WDPC's bounds and end. */
static struct json_object *preconditioning_json(const struct run_record *rec)
{
    const struct run_config *c = &rec->cfg;
    struct json_object *o = json_object_new_object();
    jw_add(o, "mode", jw_str(rec->prep == DS_PREP_FAST ? "fast"
                                                       : wl_precondition_name(c->precondition)));
    jw_add(o, "purge", rec->purge_json ? json_object_get(rec->purge_json) : NULL);   /* steps.h */
    if (rec->fast_json)   /* the fast pass in WIPC's place (results_fast_json) */
        jw_add(o, "fast", json_object_get(rec->fast_json));
    else
        jw_add(o, "wipc", rec->wipc_json ? json_object_get(rec->wipc_json) : NULL);   /* steps.h */
    if (rec->layout_json)   /* core/layout.h */
        jw_add(o, "layout", json_object_get(rec->layout_json));
    if (rec->wdpc) {
        struct json_object *w = json_object_new_object();
        unsigned n = rec->first_measure ? rec->first_measure - 1 : rec->n_rounds;
        double bytes = 0;
        for (unsigned i = 0; i < n && i < rec->n_rounds; i++)
            bytes += (double)rec->rounds[i].write.bytes;
        jw_add(w, "min_fills", jw_num(c->wdpc_min_fills));
        jw_add(w, "max_fills", jw_num(c->wdpc_max_fills));
        jw_add(w, "rounds", jw_int(n));
        jw_add(w, "bytes_written", jw_num(bytes));
        jw_add(w, "fills", jw_num(ds_fills(&rec->state, bytes)));
        jw_add(w, "ended", rec->wdpc_end ? jw_str(rec->wdpc_end) : NULL);
        jw_add(o, "wdpc", w);
    } else {
        jw_add(o, "wdpc", NULL);
    }
    return o;
}

/* A run of several jobs: "jobs" (label, group, workload as results_workload_json writes it)
 * and "groups" (each group's jobs, rounds and steady-state verdict over its own rounds). */
static void jobs_groups_add(struct json_object *doc, const struct run_record *rec)
{
    const struct run_config *c = &rec->cfg;
    struct json_object *jobs = json_object_new_array();
    for (unsigned j = 0; j < rec->jobs.n; j++) {
        struct json_object *jo = json_object_new_object();
        jw_add(jo, "label", jw_str(rec->jobs.jobs[j].label));
        jw_add(jo, "group", jw_int(rec->jobs.jobs[j].group + 1));
        jw_add(jo, "workload", results_workload_json(&rec->jobs.jobs[j].wl,
                                                     rec->ranges ? &rec->ranges[j] : &rec->range));
        json_object_array_add(jobs, jo);
    }
    jw_add(doc, "jobs", jobs);
    struct json_object *groups = json_object_new_array();
    for (unsigned g = 0; g < rec->jobs.n_groups; g++) {
        const struct run_group *gr = &rec->groups[g];
        struct json_object *go = json_object_new_object();
        jw_add(go, "group", jw_int(g + 1));
        struct json_object *labels = json_object_new_array();
        for (unsigned j = gr->first_job; j < gr->first_job + gr->n_jobs; j++)
            json_object_array_add(labels, jw_str(rec->jobs.jobs[j].label));
        jw_add(go, "jobs", labels);
        jw_add(go, "first_round", gr->first_round ? jw_int(gr->first_round) : NULL);
        jw_add(go, "last_round", gr->first_round ? jw_int(gr->last_round) : NULL);
        jw_add(go, "done", json_object_new_boolean(gr->done));
        if (gr->steady_json && !(rec->group == g && !gr->done)) {
            jw_add(go, "steady_state", json_object_get(gr->steady_json));
        } else if (gr->first_round) {
            struct json_object *ss = results_steady_json(
                &gr->steady, gr->verdict.steady ? gr->steady_round : 0, &c->criteria, c->track,
                gr->measured);
            results_verdict_json(ss, &gr->verdict, rec->wdpc ? &gr->guard : NULL,
                                 rec->wdpc ? &c->guard : NULL);
            jw_add(go, "steady_state", ss);
        }
        json_object_array_add(groups, go);
    }
    jw_add(doc, "groups", groups);
    if (rec->jobs.note[0])
        jw_add(doc, "jobs_note", jw_str(rec->jobs.note));
}

static struct json_object *build_doc(const struct run_record *rec, bool with_rounds)
{
    const struct run_config *c = &rec->cfg;
    struct json_object *doc = json_object_new_object();
    jw_add(doc, "schema", jw_str(RESULTS_SCHEMA));
    jw_add(doc, "schema_version", jw_int(RESULTS_SCHEMA_VERSION));
    jw_add(doc, "ptsbench_version", jw_str(PTSBENCH_VERSION));
    struct json_object *argv = json_object_new_array();
    for (int i = 0; i < c->argc; i++)
        json_object_array_add(argv, jw_str(c->argv[i]));
    jw_add(doc, "command_line", argv);
    jw_add(doc, "started", jw_str(rec->started));
    jw_add(doc, "updated", jw_str(rec->updated));
    jw_add(doc, "status", jw_str(rec->status));
    jw_add(doc, "writer", results_writer_json());
    if (rec->error[0])
        jw_add(doc, "error", jw_str(rec->error));
    jw_add(doc, "host", results_host_json(&rec->host));
    jw_add(doc, "target", results_target_json(&rec->target));
    jw_add(doc, "placement", results_placement_json(&rec->place));
    struct json_object *eng = json_object_new_object();
    jw_add(eng, "name", jw_str(rec->engine->name));
    jw_add(eng, "library", jw_str(rec->engine->version()));
    jw_add(eng, "clock", jw_str(rec->engine->flags & ENGINE_F_VIRTUAL_CLOCK ? "virtual" : "CLOCK_MONOTONIC"));
    jw_add(eng, "direct_io", json_object_new_boolean(rec->target.kind != TARGET_SIM));
    jw_add(eng, "completion_weight", jw_num(rec->weight));
    if (rec->engine->flags & ENGINE_F_WHOLE_ROUND)
        jw_add(eng, "artifacts", jw_str("fio/"));   /* job files and fio's output, per round */
    if (c->n_remotes) {
        struct json_object *r = json_object_new_array();
        for (unsigned i = 0; i < c->n_remotes; i++)
            json_object_array_add(r, jw_str(c->remotes[i]));
        jw_add(eng, "remotes", r);
    }
    jw_add(doc, "engine", eng);
    if (rec->jobs.n > 1 && rec->ranges) {   /* the first job's; every job's in "jobs" */
        jw_add(doc, "workload", results_workload_json(&rec->jobs.jobs[0].wl, &rec->ranges[0]));
        jobs_groups_add(doc, rec);
    } else {
        jw_add(doc, "workload", results_workload_json(&rec->wl, &rec->range));
    }

    struct json_object *run = json_object_new_object();
    jw_add(run, "max_rounds", jw_int(c->max_rounds));
    if (c->round_bytes)
        jw_add(run, "round_bytes", jw_int((int64_t)c->round_bytes));
    else
        jw_add(run, "round_time_s", jw_num((double)c->round_time_ns / 1e9));
    jw_add(run, "sample_interval_s", jw_num((double)c->sample_ns / 1e9));
    jw_add(run, "stop_at_steady", json_object_new_boolean(c->stop_at_steady));
    jw_add(run, "tracking", jw_str(c->track));
    jw_add(run, "track", results_track_json(c->track, 0, -1));
    jw_add(run, "precondition", jw_str(wl_precondition_name(c->precondition)));
    if (c->time_limit_ns) {   /* --time-limit: the limit, the plan's cut, what it stopped */
        struct json_object *tl = json_object_new_object();
        jw_add(tl, "limit_s", jw_num((double)c->time_limit_ns / 1e9));
        jw_add(tl, "clock", jw_str(rec->target.sim ? "virtual" : "wall"));
        jw_add(tl, "max_rounds_planned", jw_int(rec->rounds_uncut ? rec->rounds_uncut
                                                                  : c->max_rounds));
        jw_add(tl, "rounds_cut", json_object_new_boolean(rec->rounds_uncut != 0));
        jw_add(tl, "stopped_rounds", json_object_new_boolean(rec->limit_hit));
        jw_add(tl, "spent_s", jw_num(rec->spent_s));
        jw_add(tl, "cut", json_object_new_boolean(rec->rounds_uncut != 0 || rec->limit_hit));
        jw_add(run, "time_limit", tl);
    }
    jw_add(doc, "run", run);

    jw_add(doc, "preconditioning", preconditioning_json(rec));
    if (rec->resumed)
        jw_add(doc, "resumed", json_object_get(rec->resumed));
    jw_add(doc, "state", results_state_json(&rec->state));
    if (rec->health_taken)
        jw_add(doc, "health", health_json(&rec->health_before,
                                          rec->health_done ? &rec->health_after : NULL));
    struct json_object *ss = results_steady_json(&rec->steady,
                                                 rec->verdict.steady ? rec->steady_round : 0,
                                                 &c->criteria, c->track, rec->measured);
    jw_add(ss, "track", results_track_json(c->track, 0, -1));
    results_verdict_json(ss, &rec->verdict, rec->wdpc ? &rec->guard : NULL,
                         rec->wdpc ? &c->guard : NULL);
    thermal_window_note(ss, rec->rounds, rec->n_rounds);   /* its throttled rounds */
    struct json_object *fio_ss = fio_ss_json(rec);   /* a fio job's ss: fio's criterion */
    if (fio_ss)
        jw_add(ss, "fio", fio_ss);
    if (rec->jobs.n > 1)   /* the group it judges, never every job's rounds together */
        jw_add(ss, "group", jw_int(rec->group < rec->jobs.n_groups ? rec->group + 1
                                                                  : rec->jobs.n_groups));
    jw_add(doc, "steady_state", ss);
    if (rec->last_window.last_round) {   /* --all-rounds: the last window too */
        struct json_object *lw = results_steady_json(&rec->last_window,
                                                     rec->last_verdict.steady
                                                         ? rec->last_window.last_round : 0,
                                                     &c->criteria, c->track, rec->measured);
        jw_add(lw, "track", results_track_json(c->track, 0, -1));
        results_verdict_json(lw, &rec->last_verdict, NULL, NULL);
        thermal_window_note(lw, rec->rounds, rec->n_rounds);
        jw_add(doc, "last_window", lw);
    }
    if (with_rounds) {
        struct json_object *rounds = json_object_new_array();
        for (unsigned i = 0; i < rec->n_rounds; i++)
            json_object_array_add(rounds, results_round_json(&rec->rounds[i]));
        jw_add(doc, "rounds", rounds);
    }
    return doc;
}

struct json_object *results_build(const struct run_record *rec)
{
    return build_doc(rec, true);
}

int results_write_json_atomic_ext(struct json_object *doc, const char *path, bool sync,
                                  char *err, size_t errlen)
{
    json_c_set_serialization_double_format("%.10g", JSON_C_OPTION_GLOBAL);
    size_t len;
    const char *text = json_object_to_json_string_length(
        doc, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED | JSON_C_TO_STRING_NOSLASHESCAPE,
        &len);
    const char *parts[] = {text, "\n"};
    size_t lens[] = {len, 1};
    return file_write_atomic(path, parts, lens, 2, sync, err, errlen);
}

int results_write_json_atomic(struct json_object *doc, const char *path, char *err, size_t errlen)
{
    return results_write_json_atomic_ext(doc, path, true, err, errlen);
}

/* Completed rounds never change: each is serialised once (one line per round) and the file is
 * assembled from the cached text, so writing after every round costs the file's size, not a
 * re-serialisation of every round (a 24 h WSAT has 1440 rounds). */
static void cache_rounds(struct run_record *rec)
{
    struct results_cache *c = &rec->cache;
    if (c->n >= rec->n_rounds)
        return;
    c->text = xrealloc(c->text, rec->n_rounds * sizeof(*c->text));
    c->len = xrealloc(c->len, rec->n_rounds * sizeof(*c->len));
    for (unsigned i = c->n; i < rec->n_rounds; i++) {
        struct json_object *o = results_round_json(&rec->rounds[i]);
        size_t len;
        const char *t = json_object_to_json_string_length(
            o, JSON_C_TO_STRING_SPACED | JSON_C_TO_STRING_NOSLASHESCAPE, &len);
        c->text[i] = xstrdup(t);
        c->len[i] = len;
        json_object_put(o);
        for (int d = 0; d < IO_NDIR; d++) {   /* written: not needed again (1,440 rounds of a */
            free(rec->rounds[i].lat_dir[d]);  /* 24 h WSAT would keep 86 MB of them) */
            rec->rounds[i].lat_dir[d] = NULL;
            for (unsigned j = 0; j < rec->rounds[i].n_jobs; j++) {   /* nor each job's */
                free(rec->rounds[i].jobs[j].lat_dir[d]);
                rec->rounds[i].jobs[j].lat_dir[d] = NULL;
            }
        }
    }
    c->n = rec->n_rounds;
}

int results_write(struct run_record *rec, char *err, size_t errlen)
{
    json_c_set_serialization_double_format("%.10g", JSON_C_OPTION_GLOBAL);
    cache_rounds(rec);
    struct json_object *doc = build_doc(rec, false);
    size_t hlen;
    const char *head = json_object_to_json_string_length(
        doc, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED | JSON_C_TO_STRING_NOSLASHESCAPE,
        &hlen);
    /* head ends with "\n}": splice the rounds array in before the closing brace. */
    while (hlen > 0 && head[hlen - 1] != '}')
        hlen--;
    if (hlen > 0)
        hlen--;
    unsigned n = rec->n_rounds;
    unsigned n_parts = 0;
    const char **parts = xcalloc(2 * n + 4, sizeof(*parts));
    size_t *lens = xcalloc(2 * n + 4, sizeof(*lens));
    parts[n_parts] = head;
    lens[n_parts++] = hlen;
    parts[n_parts] = n ? ",\n  \"rounds\": [\n    " : ",\n  \"rounds\": [";
    lens[n_parts] = strlen(parts[n_parts]);
    n_parts++;
    for (unsigned i = 0; i < n; i++) {
        parts[n_parts] = rec->cache.text[i];
        lens[n_parts++] = rec->cache.len[i];
        parts[n_parts] = i + 1 < n ? ",\n    " : "\n  ";
        lens[n_parts] = strlen(parts[n_parts]);
        n_parts++;
    }
    parts[n_parts] = "]\n}\n";
    lens[n_parts] = strlen(parts[n_parts]);
    n_parts++;
    /* Durability at most once a second: fast (simulated) runs finish rounds in milliseconds. */
    uint64_t now = now_mono_ns();
    bool sync = strcmp(rec->status, "running") != 0 || now - rec->cache.last_sync_ns >= 1000000000ull;
    int ret = file_write_atomic(rec->results_path, parts, lens, n_parts, sync, err, errlen);
    if (sync)
        rec->cache.last_sync_ns = now;
    free(parts);
    free(lens);
    json_object_put(doc);
    return ret;
}

void results_cache_free(struct results_cache *c)
{
    for (unsigned i = 0; i < c->n; i++)
        free(c->text[i]);
    free(c->text);
    free(c->len);
    memset(c, 0, sizeof(*c));
}

void results_out_init(struct results_out *o, struct json_object *doc, const char *path,
                      const char *who)
{
    memset(o, 0, sizeof(*o));
    o->doc = doc;
    str_copy(o->path, sizeof(o->path), path);
    o->who = who;
}

void results_out_say(struct results_out *o, const char *fmt, ...)
{
    char line[2048];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof(line), fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    size_t len = strlen(line);
    if (o->pending_len + len + 2 > o->pending_cap) {
        o->pending_cap = (o->pending_len + len + 2) * 2;
        o->pending = xrealloc(o->pending, o->pending_cap);
    }
    memcpy(o->pending + o->pending_len, line, len);
    o->pending_len += len;
    o->pending[o->pending_len++] = '\n';
    o->pending[o->pending_len] = '\0';
}

int results_out_flush(struct results_out *o, bool force)
{
    if (o->failed)
        return -1;
    uint64_t now = now_mono_ns();
    if (!force && now - o->last_write_ns < 500000000ull)
        return 0;
    char upd[32];
    iso8601_now(upd, sizeof(upd));
    json_object_object_add(o->doc, "updated", json_object_new_string(upd));
    if (o->place)
        json_object_object_add(o->doc, "placement", results_placement_json(o->place));
    json_object_object_add(o->doc, "writer", results_writer_json());
    const bool sync = force || now - o->last_sync_ns >= 1000000000ull;
    if (results_write_json_atomic_ext(o->doc, o->path, sync, o->error, sizeof(o->error)) != 0) {
        o->failed = true;
        o->pending_len = 0;
        return -1;
    }
    o->last_write_ns = now;
    if (sync)
        o->last_sync_ns = now;
    if (o->pending_len) {
        if (o->live)   /* over the live line (live.h), which goes on below */
            fputs("\r\033[K", stdout);
        fwrite(o->pending, 1, o->pending_len, stdout);
        fflush(stdout);
        o->pending_len = 0;
    }
    return 0;
}

void results_out_free(struct results_out *o)
{
    free(o->pending);
    o->pending = NULL;
    o->pending_len = o->pending_cap = 0;
}

struct json_object *results_writer_json(void)
{
    static char boot[64], host[256];
    if (!boot[0])
        hostinfo_boot_id(boot, sizeof(boot));
    if (!host[0] && gethostname(host, sizeof(host) - 1) != 0)
        host[0] = '\0';
    struct json_object *w = json_object_new_object();
    jw_add(w, "pid", jw_int(getpid()));
    jw_add(w, "boot_id", jw_str(boot));
    jw_add(w, "hostname", jw_str(host));
    jw_add(w, "program", jw_str("ptsbench " PTSBENCH_VERSION));
    return w;
}

const char *results_life_name(enum results_life l)
{
    switch (l) {
    case RESULTS_COMPLETE: return "complete";
    case RESULTS_RUNNING: return "running";
    case RESULTS_DEAD: return "dead";
    case RESULTS_INTERRUPTED: return "interrupted";
    case RESULTS_FAILED: return "failed";
    default: return "unknown";
    }
}

/* Is pid a live ptsbench process? (its command line's first word ends in "ptsbench") */
static bool pid_is_ptsbench(long pid)
{
    char path[64], cmd[4096];
    snprintf(path, sizeof(path), "/proc/%ld/cmdline", pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return false;
    size_t n = fread(cmd, 1, sizeof(cmd) - 1, f);
    fclose(f);
    cmd[n] = '\0';   /* the first argument ends at its NUL */
    const char *base = strrchr(cmd, '/');
    base = base ? base + 1 : cmd;
    return !strcmp(base, "ptsbench");
}

enum results_life results_life_of(struct json_object *doc, char *why, size_t len)
{
    struct json_object *v;
    const char *status = json_object_object_get_ex(doc, "status", &v) &&
                                 json_object_is_type(v, json_type_string)
                             ? json_object_get_string(v) : "";
    snprintf(why, len, "status %s", *status ? status : "missing");
    if (!strcmp(status, "complete"))
        return RESULTS_COMPLETE;
    if (!strcmp(status, "interrupted"))
        return RESULTS_INTERRUPTED;
    if (!strcmp(status, "failed"))
        return RESULTS_FAILED;
    if (strcmp(status, "running") != 0 && strcmp(status, "prepared") != 0)
        return RESULTS_UNKNOWN;
    struct json_object *w = NULL, *pid = NULL, *boot = NULL, *host = NULL;
    if (!json_object_object_get_ex(doc, "writer", &w) || !json_object_is_type(w, json_type_object) ||
        !json_object_object_get_ex(w, "pid", &pid) || !json_object_is_type(pid, json_type_int) ||
        !json_object_object_get_ex(w, "boot_id", &boot) ||
        !json_object_is_type(boot, json_type_string)) {
        snprintf(why, len, "status running, but the file names no writer (an older ptsbench): "
                           "cannot tell whether it is still going");
        return RESULTS_UNKNOWN;
    }
    char my_boot[64];
    hostinfo_boot_id(my_boot, sizeof(my_boot));
    long p = (long)json_object_get_int64(pid);
    if (strcmp(json_object_get_string(boot), my_boot) != 0) {
        char me[256] = "";
        gethostname(me, sizeof(me) - 1);
        const char *h = json_object_object_get_ex(w, "hostname", &host) &&
                                json_object_is_type(host, json_type_string)
                            ? json_object_get_string(host) : "";
        if (*h && strcmp(h, me) != 0) {
            snprintf(why, len, "status running, written by pid %ld on host %s: cannot tell from "
                               "here whether it is still going", p, h);
            return RESULTS_UNKNOWN;
        }
        snprintf(why, len, "status running, but its writer (pid %ld) ran before this machine's "
                           "last boot", p);
        return RESULTS_DEAD;
    }
    if (p > 0 && (kill((pid_t)p, 0) == 0 || errno == EPERM) && pid_is_ptsbench(p)) {
        snprintf(why, len, "running (pid %ld)", p);
        return RESULTS_RUNNING;
    }
    snprintf(why, len, "status running, but its writer (pid %ld) is not running: it was killed "
                       "or crashed", p);
    return RESULTS_DEAD;
}

void results_note_vadd(struct json_object *notes, const char *fmt, va_list ap)
{
    char buf[512];
    vsnprintf(buf, sizeof(buf), fmt, ap);
    results_note_add(notes, buf);
}

void results_note_add(struct json_object *notes, const char *text)
{
    for (size_t i = 0; i < json_object_array_length(notes); i++)
        if (!strcmp(json_object_get_string(json_object_array_get_idx(notes, i)), text))
            return;
    json_object_array_add(notes, json_object_new_string(text));
}
