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

#include "lib/units.h"
#include "lib/util.h"

static struct json_object *jnum(double v)
{
    if (!isfinite(v))
        return NULL;   /* serialised as null */
    return json_object_new_double(v);
}

static struct json_object *jstr(const char *s) { return json_object_new_string(s ? s : ""); }
static struct json_object *jint(int64_t v) { return json_object_new_int64(v); }

static void add(struct json_object *o, const char *k, struct json_object *v)
{
    json_object_object_add(o, k, v);
}

static struct json_object *lat_json(const struct lat_summary *l)
{
    struct json_object *o = json_object_new_object();
    add(o, "count", jint((int64_t)l->count));
    add(o, "min", jnum(l->min_us));
    add(o, "mean", jnum(l->mean_us));
    add(o, "max", jnum(l->max_us));
    struct json_object *p = json_object_new_object();
    for (int i = 0; i < METRICS_NPCT; i++)
        add(p, metrics_percentile_names[i] + 1, jnum(l->pct_us[i]));   /* "50", "99.9", ... */
    add(o, "percentiles", p);
    return o;
}

static struct json_object *dir_json(const struct dir_metrics *d)
{
    struct json_object *o = json_object_new_object();
    add(o, "ios", jint((int64_t)d->ios));
    add(o, "bytes", jint((int64_t)d->bytes));
    add(o, "iops", jnum(d->iops));
    add(o, "mb_s", jnum(d->mb_s));
    add(o, "mib_s", jnum(d->mib_s));
    add(o, "lat_us", lat_json(&d->lat));
    return o;
}

static struct json_object *array_json(const double *v, unsigned n)
{
    struct json_object *a = json_object_new_array_ext((int)n);
    for (unsigned i = 0; i < n; i++)
        json_object_array_add(a, jnum(v[i]));
    return a;
}

struct json_object *results_round_json(const struct round_metrics *m)
{
    struct json_object *o = json_object_new_object();
    add(o, "round", jint(m->round));
    add(o, "elapsed_s", jnum(m->elapsed_s));
    add(o, "read", dir_json(&m->read));
    add(o, "write", dir_json(&m->write));
    add(o, "total", dir_json(&m->total));
    const struct sample_series *s = &m->samples;
    struct json_object *so = json_object_new_object();
    add(so, "interval_s", jnum(s->interval_s));
    add(so, "iops", array_json(s->iops, s->n));
    add(so, "read_iops", array_json(s->read_iops, s->n));
    add(so, "write_iops", array_json(s->write_iops, s->n));
    add(so, "mb_s", array_json(s->mb_s, s->n));
    add(so, "read_mb_s", array_json(s->read_mb_s, s->n));
    add(so, "write_mb_s", array_json(s->write_mb_s, s->n));
    add(o, "samples", so);
    if (m->n_hosts) {   /* remote load generators (fio client/server): each host's figures */
        struct json_object *hosts = json_object_new_array();
        for (unsigned i = 0; i < m->n_hosts; i++) {
            const struct host_figures *h = &m->hosts[i];
            struct json_object *ho = json_object_new_object();
            add(ho, "host", jstr(h->host));
            add(ho, "runtime_s", jnum(h->runtime_s));
            add(ho, "read_iops", jnum(h->iops[IO_READ]));
            add(ho, "write_iops", jnum(h->iops[IO_WRITE]));
            add(ho, "iops", jnum(h->iops[IO_READ] + h->iops[IO_WRITE]));
            add(ho, "read_bytes", jint((int64_t)h->bytes[IO_READ]));
            add(ho, "write_bytes", jint((int64_t)h->bytes[IO_WRITE]));
            add(ho, "read_lat_mean_us", jnum(h->lat_mean_us[IO_READ]));
            add(ho, "write_lat_mean_us", jnum(h->lat_mean_us[IO_WRITE]));
            json_object_array_add(hosts, ho);
        }
        add(o, "hosts", hosts);
    }
    if (m->device.present) {
        const struct device_round *d = &m->device;
        struct json_object *dj = json_object_new_object();
        add(dj, "host_write_bytes", jnum(d->host_write_bytes));
        add(dj, "nand_write_bytes", jnum(d->nand_write_bytes));
        add(dj, "total_host_write_bytes", jnum(d->total_host_write_bytes));
        add(dj, "write_amplification", jnum(d->wa_round));
        add(dj, "write_amplification_cumulative", jnum(d->wa_cumulative));
        add(dj, "gc_relocated_bytes", jnum(d->gc_relocated_bytes));
        add(dj, "bg_gc_relocated_bytes", jnum(d->bg_relocated_bytes));
        add(dj, "erases", jnum(d->erases));
        add(dj, "fg_gc_steps", jint((int64_t)d->fg_gc_steps));
        add(dj, "bg_gc_steps", jint((int64_t)d->bg_gc_steps));
        add(dj, "free_lines", jint((int64_t)d->free_lines));
        add(dj, "total_lines", jint((int64_t)d->total_lines));
        add(o, "device", dj);
    }
    if (m->data.present)
        add(o, "data", data_measure_json(&m->data));
    if (m->phase)
        add(o, "phase", jstr(m->phase));
    if (m->state.present)
        add(o, "state", results_state_json(&m->state));
    return o;
}

struct json_object *results_state_json(const struct drive_state *s)
{
    struct json_object *o = json_object_new_object();
    add(o, "condition", jstr(ds_condition_name(s->condition)));
    add(o, "purged", json_object_new_boolean(s->purged));
    add(o, "written_bytes", jnum(s->written_bytes));
    add(o, "written_fills", jnum(ds_fills(s, s->written_bytes)));
    add(o, "wipc_bytes", jnum(s->wipc_bytes));
    add(o, "wipc_fills", jnum(ds_fills(s, s->wipc_bytes)));
    add(o, "wdpc_bytes", jnum(s->wdpc_bytes));
    add(o, "wdpc_fills", jnum(ds_fills(s, s->wdpc_bytes)));
    add(o, "simulated", json_object_new_boolean(s->simulated));
    return o;
}

void results_state_from_json(struct json_object *o, struct drive_state *s)
{
    static const enum ds_condition conds[] = {DS_FOB, DS_PURGED, DS_WIPC, DS_WDPC};
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
    if (json_object_object_get_ex(o, "wdpc_bytes", &v))
        s->wdpc_bytes = json_object_get_double(v);
}

void results_verdict_json(struct json_object *steady, const struct ds_verdict *v,
                          const struct steady_guard_result *gr, const struct steady_guard *g)
{
    add(steady, "reached", json_object_new_boolean(v->steady));
    add(steady, "stable", json_object_new_boolean(v->stable));
    add(steady, "measured_state", jstr(ds_measured_name(v->measured)));
    add(steady, "label", jstr(v->label));
    add(steady, "reason", v->reason[0] ? jstr(v->reason) : NULL);
    if (!gr || !g)
        return;
    add(steady, "guard", results_guard_json(gr, g));
}

struct json_object *results_guard_json(const struct steady_guard_result *gr,
                                       const struct steady_guard *g)
{
    struct json_object *o = json_object_new_object();
    add(o, "rule", jstr("the stimulus wrote >= lag_fills of the active range before the window, "
                        "and every 5-round average since lag_fills before the window is within "
                        "band_pct of the window's average (steady.h)"));
    add(o, "lag_fills", jnum(g->lag_fills));
    add(o, "band_pct", jnum(100 * g->band_frac));
    add(o, "evaluated", json_object_new_boolean(gr->evaluated));
    add(o, "passed", json_object_new_boolean(gr->passed));
    add(o, "fills_before_window", jnum(gr->fills_before));
    add(o, "span_first_round", gr->span_first_round ? jint(gr->span_first_round) : NULL);
    add(o, "span_last_round", gr->span_last_round ? jint(gr->span_last_round) : NULL);
    add(o, "max_deviation_pct", gr->evaluated ? jnum(100 * gr->max_deviation) : NULL);
    add(o, "worst_round", gr->worst_round ? jint(gr->worst_round) : NULL);
    return o;
}

struct json_object *results_workload_json(const struct workload *wl, const struct wl_range *range)
{
    struct json_object *o = json_object_new_object();
    char spec[1024];
    wl_format(wl, spec, sizeof(spec));
    add(o, "name", jstr(wl->name));
    if (wl->description[0])
        add(o, "description", jstr(wl->description));
    add(o, "source", jstr(wl->source));
    add(o, "spec", jstr(spec));
    add(o, "rw", jstr(wl->rw));
    add(o, "read_pct", jint(wl->read_pct));
    add(o, "random_pct", jint(wl->random_pct));
    struct json_object *bs = json_object_new_array();
    for (unsigned i = 0; i < wl->n_bs; i++) {
        struct json_object *b = json_object_new_object();
        add(b, "bytes", jint(wl->bs[i].size));
        add(b, "weight_pct", jint(wl->bs[i].weight));
        json_object_array_add(bs, b);
    }
    add(o, "block_sizes", bs);
    add(o, "qd", jint(wl->qd));
    add(o, "workers", jint(wl->workers));
    add(o, "outstanding_ios", jint((int64_t)wl->qd * wl->workers));
    bool split = wl->region == WL_REGION_SPLIT ||
                 (wl->region == WL_REGION_DEFAULT && wl->random_pct == 0);
    add(o, "region", jstr(split && wl->workers > 1 ? "split" : "shared"));
    add(o, "compress_pct", jint(wl->compress_pct));
    char seed[32];
    snprintf(seed, sizeof(seed), "0x%llx", (unsigned long long)wl->seed);
    add(o, "seed", jstr(seed));
    if (range) {
        struct json_object *r = json_object_new_object();
        add(r, "offset", jint((int64_t)range->start));
        add(r, "length", jint((int64_t)range->len));
        add(o, "active_range", r);
    }
    return o;
}

struct json_object *results_steady_json(const struct steady_window *w, unsigned steady_round,
                                        const struct steady_criteria *c, const char *tracking,
                                        unsigned rounds_run)
{
    struct json_object *o = json_object_new_object();
    add(o, "tracking", jstr(tracking));
    add(o, "rule", jstr("SNIA PTS: window range <= 20% of average and least-squares excursion "
                        "<= 10% of average (<=, see steady.h)"));
    add(o, "window_rounds", jint(c->window));
    add(o, "max_rounds", jint(c->max_rounds));
    add(o, "range_limit_pct", jnum(c->range_frac * 100));
    add(o, "slope_limit_pct", jnum(c->slope_frac * 100));
    add(o, "rounds_run", jint(rounds_run));
    add(o, "reached", json_object_new_boolean(steady_round > 0));
    add(o, "round", steady_round ? jint(steady_round) : NULL);
    if (w && w->last_round) {
        struct json_object *win = json_object_new_object();
        add(win, "first_round", jint(w->first_round));
        add(win, "last_round", jint(w->last_round));
        add(win, "average", jnum(w->average));
        add(win, "min", jnum(w->min));
        add(win, "max", jnum(w->max));
        add(win, "range", jnum(w->range));
        add(win, "range_allowed", jnum(w->range_allowed));
        add(win, "slope", jnum(w->slope));
        add(win, "intercept", jnum(w->intercept));
        add(win, "slope_excursion", jnum(w->slope_excursion));
        add(win, "slope_excursion_allowed", jnum(w->slope_excursion_allowed));
        add(win, "range_ok", json_object_new_boolean(w->range_ok));
        add(win, "slope_ok", json_object_new_boolean(w->slope_ok));
        add(win, "steady", json_object_new_boolean(w->steady));
        char fit[128];
        snprintf(fit, sizeof(fit), "y = %.6g*x + %.6g", w->slope, w->intercept);
        add(win, "fit", jstr(fit));
        add(o, "window", win);
    } else {
        add(o, "window", NULL);
    }
    return o;
}

struct json_object *results_host_json(const struct hostinfo *h)
{
    struct json_object *o = json_object_new_object();
    add(o, "hostname", jstr(h->hostname));
    add(o, "kernel", jstr(h->kernel));
    add(o, "cpu_model", jstr(h->cpu_model));
    add(o, "cpus_online", jint(h->cpus_online));
    add(o, "memory_bytes", jint((int64_t)h->memory_bytes));
    struct json_object *v = json_object_new_object();
    add(v, "liburing", h->liburing[0] ? jstr(h->liburing) : NULL);
    add(v, "liburing_built", h->liburing_built[0] ? jstr(h->liburing_built) : NULL);
    add(v, "libaio", h->libaio[0] ? jstr(h->libaio) : NULL);
    add(v, "fio", h->fio[0] ? jstr(h->fio) : NULL);
    add(v, "json-c", jstr(h->json_c));
    add(o, "versions", v);
    return o;
}

struct json_object *results_target_json(const struct target_info *t)
{
    struct json_object *o = json_object_new_object();
    add(o, "path", jstr(t->path));
    add(o, "kind", jstr(target_kind_name(t->kind)));
    add(o, "device", jstr(t->devname));
    add(o, "capacity_bytes", jint((int64_t)t->capacity));
    add(o, "logical_sector", jint(t->logical_sector));
    add(o, "physical_sector", jint(t->physical_sector));
    add(o, "alignment_offset", jint(t->alignment_offset));
    add(o, "model", t->model[0] ? jstr(t->model) : NULL);
    add(o, "serial", t->serial[0] ? jstr(t->serial) : NULL);
    add(o, "firmware", t->firmware[0] ? jstr(t->firmware) : NULL);
    add(o, "vendor", t->vendor[0] ? jstr(t->vendor) : NULL);
    add(o, "rotational", json_object_new_boolean(t->rotational));
    if (t->kind == TARGET_BLOCK)
        add(o, "write_cache", jstr(t->write_cache ? "write back" : "write through"));
    struct stat st;
    if (t->kind == TARGET_FILE && stat(t->path, &st) == 0) {   /* the file's identity (--resume) */
        add(o, "inode", jint((int64_t)st.st_ino));
        add(o, "st_dev", jint((int64_t)st.st_dev));
    }
    if (t->kind == TARGET_BLOCK && (t->signatures_probed || t->signatures_error[0])) {
        struct json_object *a = json_object_new_array();
        for (unsigned i = 0; i < t->n_signatures; i++) {
            const struct target_signature *g = &t->signatures[i];
            struct json_object *so = json_object_new_object();
            add(so, "type", g->type[0] ? jstr(g->type) : NULL);
            add(so, "usage", g->usage[0] ? jstr(g->usage) : NULL);
            add(so, "label", g->label[0] ? jstr(g->label) : NULL);
            add(so, "uuid", g->uuid[0] ? jstr(g->uuid) : NULL);
            add(so, "version", g->version[0] ? jstr(g->version) : NULL);
            add(so, "offset", jint((int64_t)g->offset));
            json_object_array_add(a, so);
        }
        add(o, "signatures", a);   /* what libblkid found before anything was written */
        if (t->signatures_error[0])
            add(o, "signatures_error", jstr(t->signatures_error));
    }
    if (t->sim) {
        struct sim_info si;
        sim_info(t->sim->dev, &si);
        const struct sim_params *p = &t->sim->params;
        /* Reports show the full-size drive; the harness addressed the scaled one. */
        add(o, "capacity_bytes", jint((int64_t)si.nominal_user_bytes));
        struct json_object *sj = json_object_new_object();
        add(sj, "preset", jstr(p->name));
        add(sj, "description", jstr(p->description));
        add(sj, "time_scale_k", jint(si.k));
        add(sj, "scaled_capacity_bytes", jint((int64_t)si.user_bytes));
        add(sj, "scaled_raw_bytes", jint((int64_t)si.raw_bytes));
        add(sj, "controllers", jint(si.n_ctl));
        add(sj, "dispatch", jstr(p->dispatch == SIM_DISPATCH_VCA ? "vca" : "stripe"));
        add(sj, "lines_per_controller", jint(si.lines_per_ctl));
        add(sj, "pages_per_block", jint(si.pages_per_block));
        add(sj, "rho_eff", jnum(si.rho_eff));
        add(sj, "durawrite", json_object_new_boolean(p->durawrite));
        add(sj, "background_gc", json_object_new_boolean(p->bg_gc));
        add(sj, "seed", jint((int64_t)p->seed));
        add(o, "simulated", sj);
    }
    return o;
}

/* How the run prepared the drive: the mode, the WIPC's figures, the WDPC's bounds and end. */
static struct json_object *preconditioning_json(const struct run_record *rec)
{
    const struct run_config *c = &rec->cfg;
    struct json_object *o = json_object_new_object();
    add(o, "mode", jstr(wl_precondition_name(c->precondition)));
    add(o, "purge", NULL);
    if (rec->wipc_done) {
        struct json_object *w = json_object_new_object();
        add(w, "bs", jint(PRECOND_WIPC_BS));
        add(w, "qd", jint(PRECOND_WIPC_QD));
        add(w, "workers", jint(1));
        add(w, "fills", jint(PRECOND_WIPC_FILLS));
        add(w, "compress_pct", jint(rec->wl.compress_pct));
        add(w, "bytes_written", jnum((double)rec->wipc.write.bytes));
        add(w, "elapsed_s", jnum(rec->wipc.elapsed_s));
        add(w, "wall_s", jnum(rec->wipc_wall_s));
        add(w, "mb_s", jnum(rec->wipc.write.mb_s));
        add(o, "wipc", w);
    } else {   /* a resumed run keeps the WIPC it did before the stop */
        add(o, "wipc", rec->wipc_json ? json_object_get(rec->wipc_json) : NULL);
    }
    if (rec->wdpc) {
        struct json_object *w = json_object_new_object();
        unsigned n = rec->first_measure ? rec->first_measure - 1 : rec->n_rounds;
        double bytes = 0;
        for (unsigned i = 0; i < n && i < rec->n_rounds; i++)
            bytes += (double)rec->rounds[i].write.bytes;
        add(w, "min_fills", jnum(c->wdpc_min_fills));
        add(w, "max_fills", jnum(c->wdpc_max_fills));
        add(w, "rounds", jint(n));
        add(w, "bytes_written", jnum(bytes));
        add(w, "fills", jnum(ds_fills(&rec->state, bytes)));
        add(w, "ended", rec->wdpc_end ? jstr(rec->wdpc_end) : NULL);
        add(o, "wdpc", w);
    } else {
        add(o, "wdpc", NULL);
    }
    return o;
}

static struct json_object *build_doc(const struct run_record *rec, bool with_rounds)
{
    const struct run_config *c = &rec->cfg;
    struct json_object *doc = json_object_new_object();
    add(doc, "schema", jstr(RESULTS_SCHEMA));
    add(doc, "schema_version", jint(RESULTS_SCHEMA_VERSION));
    add(doc, "ptsbench_version", jstr(PTSBENCH_VERSION));
    struct json_object *argv = json_object_new_array();
    for (int i = 0; i < c->argc; i++)
        json_object_array_add(argv, jstr(c->argv[i]));
    add(doc, "command_line", argv);
    add(doc, "started", jstr(rec->started));
    add(doc, "updated", jstr(rec->updated));
    add(doc, "status", jstr(rec->status));
    add(doc, "writer", results_writer_json());
    if (rec->error[0])
        add(doc, "error", jstr(rec->error));
    add(doc, "host", results_host_json(&rec->host));
    add(doc, "target", results_target_json(&rec->target));
    struct json_object *eng = json_object_new_object();
    add(eng, "name", jstr(rec->engine->name));
    add(eng, "library", jstr(rec->engine->version()));
    add(eng, "clock", jstr(rec->engine->flags & ENGINE_F_VIRTUAL_CLOCK ? "virtual" : "CLOCK_MONOTONIC"));
    add(eng, "direct_io", json_object_new_boolean(rec->target.kind != TARGET_SIM));
    add(eng, "completion_weight", jnum(rec->weight));
    if (rec->engine->flags & ENGINE_F_WHOLE_ROUND)
        add(eng, "artifacts", jstr("fio/"));   /* job files and fio's output, per round */
    if (c->n_remotes) {
        struct json_object *r = json_object_new_array();
        for (unsigned i = 0; i < c->n_remotes; i++)
            json_object_array_add(r, jstr(c->remotes[i]));
        add(eng, "remotes", r);
    }
    add(doc, "engine", eng);
    add(doc, "workload", results_workload_json(&rec->wl, &rec->range));

    struct json_object *run = json_object_new_object();
    add(run, "max_rounds", jint(c->max_rounds));
    if (c->round_bytes)
        add(run, "round_bytes", jint((int64_t)c->round_bytes));
    else
        add(run, "round_time_s", jnum((double)c->round_time_ns / 1e9));
    add(run, "sample_interval_s", jnum((double)c->sample_ns / 1e9));
    add(run, "stop_at_steady", json_object_new_boolean(c->stop_at_steady));
    add(run, "tracking", jstr(c->track));
    add(run, "precondition", jstr(wl_precondition_name(c->precondition)));
    add(doc, "run", run);

    add(doc, "preconditioning", preconditioning_json(rec));
    if (rec->resumed)
        add(doc, "resumed", json_object_get(rec->resumed));
    add(doc, "state", results_state_json(&rec->state));
    struct json_object *ss = results_steady_json(&rec->steady,
                                                 rec->verdict.steady ? rec->steady_round : 0,
                                                 &c->criteria, c->track, rec->measured);
    results_verdict_json(ss, &rec->verdict, rec->wdpc ? &rec->guard : NULL,
                         rec->wdpc ? &c->guard : NULL);
    add(doc, "steady_state", ss);
    if (rec->last_window.last_round) {   /* --all-rounds: the last window too */
        struct json_object *lw = results_steady_json(&rec->last_window,
                                                     rec->last_verdict.steady
                                                         ? rec->last_window.last_round : 0,
                                                     &c->criteria, c->track, rec->measured);
        results_verdict_json(lw, &rec->last_verdict, NULL, NULL);
        add(doc, "last_window", lw);
    }
    if (with_rounds) {
        struct json_object *rounds = json_object_new_array();
        for (unsigned i = 0; i < rec->n_rounds; i++)
            json_object_array_add(rounds, results_round_json(&rec->rounds[i]));
        add(doc, "rounds", rounds);
    }
    return doc;
}

struct json_object *results_build(const struct run_record *rec)
{
    return build_doc(rec, true);
}

/* Replace path with text atomically: path.tmp, optional fsync, rename, fsync of the directory.
 * The rename alone makes the file whole at every instant for readers and across a killed
 * process; fsync adds durability across a power loss. */
/* The data goes to an unnamed file in the target's directory (O_TMPFILE), which is given the
 * name path.tmp only once it is complete, and renamed over path at once: a process killed while
 * writing leaves nothing behind, and one killed in the instant between the link and the rename
 * leaves a complete path.tmp, which the next write replaces. Filesystems without O_TMPFILE get a
 * named path.tmp from the start. */
static int open_tmp(const char *path, const char *tmp, bool *unnamed)
{
    char dir[4352];
    snprintf(dir, sizeof(dir), "%s", path);
    int fd = open(dirname(dir), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0644);
    *unnamed = fd >= 0;
    if (fd < 0)
        fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    else
        fchmod(fd, 0644);
    return fd;
}

static int name_tmp(int fd, const char *tmp)
{
    char proc[64];
    snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
    unlink(tmp);   /* a complete path.tmp left by a writer killed after its link */
    return linkat(AT_FDCWD, proc, AT_FDCWD, tmp, AT_SYMLINK_FOLLOW);
}

int results_write_parts_atomic(const char *path, const char *const *parts, const size_t *lens,
                                unsigned n_parts, bool sync, char *err, size_t errlen)
{
    char tmp[4352];
    snprintf(tmp, sizeof(tmp), "%s.tmp", path);
    bool unnamed;
    int fd = open_tmp(path, tmp, &unnamed);
    if (fd < 0)
        return errf(err, errlen, "cannot write %s: %s", path, strerror(errno));
    for (unsigned p = 0; p < n_parts; p++) {
        size_t done = 0;
        while (done < lens[p]) {
            ssize_t w = write(fd, parts[p] + done, lens[p] - done);
            if (w < 0) {
                if (errno == EINTR)
                    continue;
                int saved = errno;
                close(fd);
                if (!unnamed)
                    unlink(tmp);
                return errf(err, errlen, "cannot write %s: %s", path, strerror(saved));
            }
            done += (size_t)w;
        }
    }
    if (sync && fsync(fd) != 0) {
        int saved = errno;
        close(fd);
        if (!unnamed)
            unlink(tmp);
        return errf(err, errlen, "cannot write %s: %s", path, strerror(saved));
    }
    if (unnamed && name_tmp(fd, tmp) != 0) {
        int saved = errno;
        close(fd);
        return errf(err, errlen, "cannot write %s: %s", path, strerror(saved));
    }
    close(fd);
    if (rename(tmp, path) != 0) {
        int saved = errno;
        unlink(tmp);
        return errf(err, errlen, "cannot rename %s to %s: %s", tmp, path, strerror(saved));
    }
    if (sync) {
        char dir[4352];
        snprintf(dir, sizeof(dir), "%s", path);
        int dfd = open(dirname(dir), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (dfd >= 0) {
            fsync(dfd);
            close(dfd);
        }
    }
    return 0;
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
    return results_write_parts_atomic(path, parts, lens, 2, sync, err, errlen);
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
    int ret = results_write_parts_atomic(rec->results_path, parts, lens, n_parts, sync, err, errlen);
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
    add(w, "pid", jint(getpid()));
    add(w, "boot_id", jstr(boot));
    add(w, "hostname", jstr(host));
    add(w, "program", jstr("ptsbench " PTSBENCH_VERSION));
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

void results_note_add(struct json_object *notes, const char *text)
{
    for (size_t i = 0; i < json_object_array_length(notes); i++)
        if (!strcmp(json_object_get_string(json_object_array_get_idx(notes, i)), text))
            return;
    json_object_array_add(notes, json_object_new_string(text));
}
