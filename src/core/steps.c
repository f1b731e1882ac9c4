/* steps.c — the shared run layer (steps.h): opening a target, one round on a fresh pool, the
 * simulated drive's counters, purge and WIPC. */
#include "core/steps.h"

#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "core/layout.h"
#include "core/live.h"
#include "core/precondition.h"
#include "core/results.h"
#include "core/thermal_rounds.h"
#include "core/worker.h"
#include "device/content.h"
#include "device/numa.h"
#include "device/safety.h"
#include "device/zoned.h"
#include "lib/cpuset.h"
#include "lib/file.h"
#include "lib/json_path.h"
#include "lib/units.h"
#include "lib/util.h"
#include "sim/sim_preset.h"

/* ------------------------------------------------------------------ opening a target */

int run_select_engine(const char *engine_name, const char *target_path,
                      const struct engine_ops **out, char *err, size_t errlen)
{
    const bool sim_target = target_path && sim_target_is(target_path);
    const char *name = engine_name ? engine_name : sim_target ? "sim" : "io_uring";
    *out = engine_find(name);
    if (!*out) {
        char names[256] = "";
        for (const struct engine_ops *const *e = engine_list(); *e; e++) {
            if (names[0])
                strncat(names, ", ", sizeof(names) - strlen(names) - 1);
            strncat(names, (*e)->name, sizeof(names) - strlen(names) - 1);
        }
        return errf(err, errlen, "--engine %s: unknown engine (available: %s)", name, names);
    }
    if (sim_target && !((*out)->flags & ENGINE_F_SIM_TARGET))
        return errf(err, errlen, "--engine %s: simulated targets (%s) run on the sim engine",
                    name, target_path);
    if (!sim_target && ((*out)->flags & ENGINE_F_SIM_TARGET))
        return errf(err, errlen, "--engine %s: only for simulated targets (sim:PRESET), not %s",
                    name, target_path);
    char why[256];
    if ((*out)->available && (*out)->available(why, sizeof(why)) != 0)
        return errf(err, errlen, "--engine %s: %s", name, why);
    return 0;
}

int run_probe_target(const char *path, uint64_t create_size, bool allow_memory,
                     const char *const *profile_dirs, struct target_info *t, char *err,
                     size_t errlen)
{
    if (!path || !*path)
        return errf(err, errlen, "missing --target (a block device, a file or sim:PRESET, see "
                                 "--help)");
    if (!sim_target_is(path)) {
        if (target_probe(path, create_size, t, err, errlen) != 0)
            return -1;
        if (t->memory_fs[0] && !allow_memory)
            return errf(err, errlen, "%s is on %s: it measures memory, not a drive; add "
                        "--allow-memory-target to run it anyway", path, t->memory_fs);
        return 0;
    }
    const char *dev_dirs[8];
    char dev_store[7][4096];
    unsigned nd = 0;
    for (unsigned i = 0; profile_dirs && profile_dirs[i] && nd < 7; i++) {
        snprintf(dev_store[nd], sizeof(dev_store[nd]), "%s/devices", profile_dirs[i]);
        dev_dirs[nd] = dev_store[nd];
        nd++;
    }
    dev_dirs[nd] = NULL;
    struct sim_params sp;
    if (sim_target_parse(path, dev_dirs, &sp, err, errlen) != 0)
        return -1;
    return target_probe_sim(path, &sp, t, err, errlen);
}

int run_check_safety(const struct target_info *t, bool writes, bool destructive,
                     bool overwrite_signatures, char *err, size_t errlen)
{
    if (t->kind != TARGET_BLOCK && t->kind != TARGET_FILE)
        return 0;
    if (zoned_check(t->path, &t->zoned, writes, err, errlen) != 0)
        return -1;
    const struct safety_request rq = {writes, destructive, overwrite_signatures};
    struct safety_facts *facts = xcalloc(1, sizeof(*facts));
    char serr[ERR_LEN];
    int rc = t->kind == TARGET_FILE
                 ? safety_collect_file("", t->path, facts, serr, sizeof(serr))
                 : safety_collect("", t->devname, facts, serr, sizeof(serr));
    if (rc != 0) {
        free(facts);
        if (writes)
            return errf(err, errlen, "refusing to write to %s: cannot check whether it is in "
                                     "use: %s", t->path, serr);
        return 0;
    }
    if (t->kind == TARGET_BLOCK)
        safety_signatures(facts, t);
    rc = safety_decide(facts, &rq, err, errlen);
    if (rc == 0 && writes && facts->kind == SAFETY_FILE && facts->exists)
        safety_file_grant(facts->dev, facts->ino);   /* the invocation's later runs */
    free(facts);
    return rc;
}

/* statfs f_type of the kernel's own trees (linux/magic.h): root's access() says writable, but
 * no directory can be made there. */
#define STEPS_PROC_SUPER_MAGIC 0x9fa0
#define STEPS_SYSFS_MAGIC 0x62656572

/* path, the nearest existing directory on the way to an output (is_self: the output itself):
 * 0, or -1 with the message starting with what. */
static int out_ancestor_ok(const char *path, bool is_self, const char *what, char *err,
                           size_t errlen)
{
    struct statfs sf;
    if (statfs(path, &sf) == 0 && ((unsigned long)sf.f_type == STEPS_PROC_SUPER_MAGIC ||
                                   (unsigned long)sf.f_type == STEPS_SYSFS_MAGIC))
        return errf(err, errlen, "%s: %s is on the kernel's %s filesystem: nothing can be "
                    "written there", what, path,
                    (unsigned long)sf.f_type == STEPS_SYSFS_MAGIC ? "sysfs" : "proc");
    if (access(path, W_OK | X_OK) != 0)
        return is_self ? errf(err, errlen, "%s: not writable (%s)", what, strerror(errno))
                       : errf(err, errlen, "%s: cannot be created in %s (%s)", what, path,
                              strerror(errno));
    return 0;
}

/* Can dir be made (or written, when it exists)? Checked when the plan is made, so that a bad --out
 * is refused before a file target is created or a drive purged: the nearest existing ancestor
 * must be a directory this process may write (access() also answers EROFS for root), not in
 * /proc or /sys. */
int run_out_writable(const char *dir, const char *what, char *err, size_t errlen)
{
    char path[4096];
    snprintf(path, sizeof(path), "%s", dir);
    size_t n = strlen(path);
    while (n > 1 && path[n - 1] == '/')
        path[--n] = '\0';
    struct stat st;
    bool is_self = true;
    for (;;) {
        if (stat(path, &st) == 0) {
            if (!S_ISDIR(st.st_mode))
                return errf(err, errlen, "%s: %s is not a directory", what, path);
            return out_ancestor_ok(path, is_self, what, err, errlen);
        }
        if (errno != ENOENT && errno != ENOTDIR)   /* ENOTDIR: an ancestor is a file, said above */
            return errf(err, errlen, "%s: %s: %s", what, path, strerror(errno));
        char *slash = strrchr(path, '/');
        if (!slash) {
            snprintf(path, sizeof(path), ".");
        } else if (slash == path) {
            path[1] = '\0';
        } else {
            *slash = '\0';
        }
        is_self = false;
    }
}

int run_out_dir(const char *given, const char *kind, bool force, char *dir, size_t dirlen,
                char *results, size_t resultslen, char *err, size_t errlen)
{
    if (given) {
        snprintf(dir, dirlen, "%s", given);
    } else {
        char stamp[32];
        time_t t = time(NULL);
        struct tm tm;
        localtime_r(&t, &tm);
        strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
        snprintf(dir, dirlen, "results/%s-%s", kind, stamp);
    }
    snprintf(results, resultslen, "%s/results.json", dir);
    if (file_exists(results) && !force)
        return errf(err, errlen, "--out %s already holds results.json (choose another directory "
                                 "or add --force to replace it)", dir);
    char what[4200];
    snprintf(what, sizeof(what), "--out %s", dir);
    return run_out_writable(dir, what, err, errlen);
}

void run_format_duration(double s, char *buf, size_t len)
{
    if (!(s >= 0) || s > 1e12)
        snprintf(buf, len, "unbounded");
    else if (s < 60)
        snprintf(buf, len, "%.0f s", s);
    else if (s < 3600 && fmod(round(s), 60) == 0)
        snprintf(buf, len, "%.0f min", round(s) / 60);
    else if (s < 3600)
        snprintf(buf, len, "%.0f min %.0f s", floor(round(s) / 60), fmod(round(s), 60));
    else
        snprintf(buf, len, "%.0f h %.0f min", floor(s / 3600), fmod(floor(s / 60), 60));
}

void run_print_dry_run(const struct target_info *t, bool writes, bool layout,
                       enum purge_method purge, const char *results)
{
    struct purge_plan plan;
    char perr[ERR_LEN];
    const struct run_ctx ctx = {.target = (struct target_info *)t};
    if (purge == PURGE_NONE || step_purge_plan(&ctx, purge, &plan, perr, sizeof(perr)) != 0)
        plan.method = PURGE_NONE;   /* prepare refused a plan that cannot be made */
    char cap[64];
    units_format_capacity(t->capacity, cap, sizeof(cap));
    printf("dry run: nothing was created or written. The run would:\n");
    if (t->kind == TARGET_FILE && !t->exists)
        printf("  create  %s, a file of %s%s\n", t->path, cap,
               t->memory_fs[0] ? " (in memory)" : "");
    else if (t->kind == TARGET_FILE && t->current_size < t->capacity)
        printf("  extend  %s to %s\n", t->path, cap);
    if (plan.method != PURGE_NONE)
        printf("  purge   %s by %s (%s%s): its data is destroyed\n", t->path,
               purge_method_name(plan.method), plan.argv_text,
               plan.compliant ? "" : "; not SNIA-compliant");
    if (t->kind == TARGET_SIM)
        printf("  write   nothing on a drive: %s is simulated, in this process's memory\n",
               t->path);
    else if (t->kind == TARGET_REMOTE)
        printf("  %s   %s on every remote host (fio there)\n", writes ? "write" : "read ",
               t->path);
    else if (writes)
        printf("  write   %s (%s%s)\n", t->path, t->kind == TARGET_BLOCK ? "the device" :
               "the file", t->exists ? ": what it holds is overwritten" : "");
    else if (layout)
        printf("  lay out %s: its never-written parts are written with the run's data before the "
               "reads (what it holds is kept; --no-layout: read as it is)\n", t->path);
    else
        printf("  read    %s (no writes)\n", t->path);
    printf("  results %s\n", results);
    fflush(stdout);
}

double run_target_weight(const struct target_info *t)
{
    if (!t->sim)
        return 1.0;
    struct sim_info si;
    sim_info(t->sim->dev, &si);
    return si.k;   /* each simulated completion stands for k at full size */
}

int run_make_dir(const char *path, char *err, size_t errlen)
{
    return file_mkdir_p(path, err, errlen);
}

int run_resume_same_target(struct json_object *doc, const struct target_info *t, char *err,
                           size_t errlen)
{
    static const char *const keys[] = {"path", "kind", "capacity_bytes", "logical_sector",
                                       "model", "serial", "simulated.preset", "simulated.seed",
                                       "simulated.time_scale_k"};
    struct json_object *now = results_target_json(t);
    struct json_object *was = json_object_object_get(doc, "target");
    int rc = 0;
    for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]) && rc == 0; i++) {
        char k1[64];
        str_copy(k1, sizeof(k1), keys[i]);
        char *dot = strchr(k1, '.');
        if (dot)
            *dot = '\0';
        struct json_object *a = json_object_object_get(was, k1);
        struct json_object *b = json_object_object_get(now, k1);
        if (dot) {
            a = json_object_is_type(a, json_type_object) ? json_object_object_get(a, dot + 1) : NULL;
            b = json_object_is_type(b, json_type_object) ? json_object_object_get(b, dot + 1) : NULL;
        }
        const char *sa = a ? json_object_get_string(a) : "", *sb = b ? json_object_get_string(b) : "";
        if ((a || b) && strcmp(sa, sb) != 0)
            rc = errf(err, errlen, "--resume: the target is not the one the run measured: its %s "
                      "was %s, now %s", keys[i], a ? sa : "not recorded", b ? sb : "not known");
    }
    /* a file the stopped run wrote is the same file when it is the same inode: what it holds
     * is that run's own data, and writing it again needs no new --destructive */
    struct json_object *ino = json_object_object_get(was, "inode");
    struct json_object *dev = json_object_object_get(was, "st_dev");
    struct stat st;
    if (rc == 0 && t->kind == TARGET_FILE && ino && dev && stat(t->path, &st) == 0 &&
        (uint64_t)json_object_get_int64(ino) == (uint64_t)st.st_ino &&
        (uint64_t)json_object_get_int64(dev) == (uint64_t)st.st_dev)
        safety_file_grant(st.st_dev, st.st_ino);
    json_object_put(now);
    return rc;
}

void run_print_target_engine(const struct target_info *t, const struct engine_ops *e)
{
    char cap[64];
    if (t->sim) {
        struct sim_info si;
        sim_info(t->sim->dev, &si);
        units_format_capacity(si.nominal_user_bytes, cap, sizeof(cap));
        printf("  target  %s (simulated %s, %s; virtual time, scale k=%u)\n", t->path,
               t->sim->params.name, cap, si.k);
    } else {
        units_format_capacity(t->capacity, cap, sizeof(cap));
        printf("  target  %s (%s, %s, %u-byte logical sectors)\n", t->path,
               target_kind_name(t->kind), cap, t->logical_sector);
    }
    printf("  engine  %s (%s)\n", e->name, e->version());
    if (t->place && t->place->pinned) {   /* the default on a one-node host says nothing */
        char list[256];
        cpuset_format(&t->place->cpus, list, sizeof(list));
        if (t->place->node >= 0)
            printf("  cpus    %s (node %d, %s)\n", list, t->place->node, t->place->reason);
        else
            printf("  cpus    %s (%s)\n", list, t->place->reason);
    }
}

int run_place(const struct numa_request *req, struct target_info *t, struct placement *pl,
              char *err, size_t errlen)
{
    if (numa_place(req, t, pl, err, errlen) != 0)
        return -1;
    t->place = pl;
    return 0;
}

void run_device_round(const struct target_info *t, double weight, struct sim_stats *last,
                      struct round_metrics *m)
{
    if (!t->sim) {   /* the drive's temperature and throttling (thermal_rounds.h) */
        thermal_round_device(t, m->elapsed_s, &m->thermal);
        return;
    }
    struct sim_stats now;
    sim_stats(t->sim->dev, &now);
    thermal_round_sim(&now, last, &m->thermal);
    const struct sim_stats *was = last;
    struct device_round *d = &m->device;
    double k = weight;
    uint64_t host = now.host_write_sectors - was->host_write_sectors;
    uint64_t nand = now.nand_write_sectors - was->nand_write_sectors;
    d->present = true;
    d->host_write_bytes = (double)host * 512.0 * k;
    d->nand_write_bytes = (double)nand * 512.0 * k;
    d->total_host_write_bytes = (double)now.host_write_sectors * 512.0 * k;
    d->wa_round = host ? (double)nand / (double)host : 0;
    d->wa_cumulative = now.write_amplification;
    d->gc_relocated_bytes = (double)(now.gc_relocated_sectors - was->gc_relocated_sectors) * 512.0 * k;
    d->bg_relocated_bytes = (double)(now.bg_relocated_sectors - was->bg_relocated_sectors) * 512.0 * k;
    d->erases = (double)(now.erases - was->erases) * k;
    d->fg_gc_steps = now.fg_gc_steps - was->fg_gc_steps;
    d->bg_gc_steps = now.bg_gc_steps - was->bg_gc_steps;
    d->free_lines = now.free_lines;
    d->total_lines = now.total_lines;
    d->unmapped_read_bytes = (double)(now.unmapped_reads - was->unmapped_reads) * 4096.0 * k;
    if (m->read.bytes) {   /* the drive counts its reads of never-written space */
        double share = d->unmapped_read_bytes / (double)m->read.bytes;
        m->unwritten = (struct ds_reads){.present = true, .measured = true,
                                         .share = share > 1 ? 1 : share};
    }
    *last = now;
}

enum ds_cover run_cover_kind(const struct workload *wl)
{
    if (wl->random_pct == 0)
        return DS_COVER_NEW;
    if (wl->n_zones || wl->dist != WL_DIST_UNIFORM)
        return DS_COVER_SKEWED;
    return DS_COVER_UNIFORM;
}

int run_probe_content(int fd, const struct wl_range *range, double weight,
                      struct drive_state *state, char *err, size_t errlen)
{
    struct content_map map;
    if (content_probe_file(fd, range->start, range->len, &map, err, errlen) != 0)
        return -1;
    if (!strcmp(map.method, "none"))
        ds_content_set(state, DS_CONTENT_UNKNOWN, 0);
    else
        ds_content_set(state, DS_CONTENT_EXTENTS, (double)map.unwritten_bytes * weight);
    content_map_free(&map);
    return 0;
}

/* The never-written bytes of [start, start + len) of an existing file, probed read-only; -1 when
 * the filesystem cannot say (then nothing is known), -2 with err on an error. */
static int64_t file_unwritten(const char *path, uint64_t start, uint64_t len, char *err,
                              size_t errlen)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        errf(err, errlen, "%s: %s", path, strerror(errno));
        return -2;
    }
    struct content_map map;
    int r = content_probe_file(fd, start, len, &map, err, errlen);
    close(fd);
    if (r != 0)
        return -2;
    int64_t n = strcmp(map.method, "none") ? (int64_t)map.unwritten_bytes : -1;
    content_map_free(&map);
    return n;
}

int step_layout_due(const struct target_info *t, const struct wl_range *range, bool purge,
                    bool *due, char *err, size_t errlen)
{
    *due = false;
    if (t->kind != TARGET_FILE)
        return 0;
    if (!t->exists || t->current_size < t->capacity || purge) {
        *due = true;
        return 0;
    }
    int64_t n = file_unwritten(t->path, range->start, range->len, err, errlen);
    if (n == -2)
        return -1;
    *due = n > 0;
    return 0;
}

void step_layout_refused(char *err, size_t errlen)
{
    size_t l = strlen(err);
    snprintf(err + l, errlen - l, " (the workload only reads, but part of the active range was "
             "never written and reads of it would not touch the disk, so ptsbench lays it out "
             "first; --no-layout reads it as it is, the figures labelled)");
}

int step_layout(const struct run_ctx *c, const struct wl_range *range, bool due,
                const struct workload *wl, bool quiet, struct json_object **json, char *err,
                size_t errlen)
{
    *json = NULL;
    if (c->target->kind != TARGET_FILE)
        return 0;
    struct content_map map;
    if (content_probe_file(c->fd, range->start, range->len, &map, err, errlen) != 0)
        return -1;
    if (!due || !map.unwritten_bytes) {
        ds_content_set(c->state, strcmp(map.method, "none") ? DS_CONTENT_EXTENTS
                                                             : DS_CONTENT_UNKNOWN,
                       (double)map.unwritten_bytes);
        content_map_free(&map);
        return 0;
    }
    if (!quiet) {
        char b[32];
        units_format_size(map.unwritten_bytes, b, sizeof(b));
        printf("layout: %s of the active range never written: writing it with the run's data "
               "before reading (as fio does)\n", b);
        fflush(stdout);
    }
    struct layout_result lr;
    int ret = layout_file(c->fd, &map, wl->compress_pct, wl->seed, c->target->mem_align,
                          c->live, c->stop, &lr, err, errlen);
    content_map_free(&map);
    *json = layout_json(&lr);
    ds_content_set(c->state, DS_CONTENT_EXTENTS, (double)lr.unwritten_after);
    ds_write(c->state, (double)lr.bytes, false);
    if (ret == 0 && !quiet) {
        char b[32];
        units_format_size(lr.bytes, b, sizeof(b));
        printf("layout: %s in %.1f s (%.0f MB/s)\n", b, lr.seconds,
               lr.seconds > 0 ? (double)lr.bytes / 1e6 / lr.seconds : 0.0);
        fflush(stdout);
    }
    return ret;
}

void run_engine_base(const struct target_info *t, int fd, const char *out_dir, char *dir,
                     size_t dirlen, struct engine_config *base)
{
    memset(base, 0, sizeof(*base));
    base->fd = fd;
    base->handle = t->sim;
    base->lat_scale = t->sim && t->sim->params.k > 1 ? t->sim->params.k : 1;
    base->mem_align = t->mem_align;
    base->path = t->path;
    snprintf(dir, dirlen, "%s/fio", out_dir);
    base->artifact_dir = dir;
    base->place = t->place;
}

void run_pool_metrics(struct worker_pool *pool, uint64_t sample_ns, double weight,
                      struct round_metrics *m)
{
    const struct worker_stats *ws[1024];
    unsigned nw = worker_pool_size(pool);
    if (nw > 1024)
        nw = 1024;
    for (unsigned i = 0; i < nw; i++)
        ws[i] = worker_pool_stats(pool, i);
    metrics_compute(ws, nw, (double)sample_ns / 1e9, weight, m);
    worker_pool_lat_round(pool, &m->lat_target);   /* latency_target's search, if any */
}

void run_pool_job_metrics(struct worker_pool *pool, uint64_t sample_ns, double weight,
                          const char *const *labels, struct round_metrics *m)
{
    run_pool_metrics(pool, sample_ns, weight, m);
    unsigned nj = worker_pool_jobs(pool);
    if (!labels)   /* one job in the run: its figures are the round's */
        return;
    m->jobs = xcalloc(nj, sizeof(*m->jobs));
    m->n_jobs = nj;
    for (unsigned j = 0; j < nj; j++) {
        const struct worker_stats *ws[1024];
        unsigned first, n;
        worker_pool_job_records(pool, j, &first, &n);
        if (n > 1024)
            n = 1024;
        for (unsigned i = 0; i < n; i++)
            ws[i] = worker_pool_stats(pool, first + i);
        metrics_compute(ws, n, (double)sample_ns / 1e9, weight, &m->jobs[j]);
        m->jobs[j].label = labels ? labels[j] : NULL;
    }
}

/* run_pool_once with an optional progress hook. */
static int pool_once(const struct target_info *t, int fd, const char *out_dir,
                     const struct engine_ops *engine, double weight, struct sim_stats *sim_last,
                     const struct workload *wl, const struct wl_range *range, uint64_t time_ns,
                     uint64_t bytes, volatile sig_atomic_t *stop, pool_progress_fn progress,
                     void *progress_arg, struct round_metrics *m, char *err, size_t errlen)
{
    struct engine_config base;
    char artifacts[4200];
    run_engine_base(t, fd, out_dir, artifacts, sizeof(artifacts), &base);
    struct worker_pool *pool = worker_pool_start(wl, engine, &base, range, stop, err, errlen);
    if (!pool)
        return -1;
    worker_pool_set_progress(pool, progress, progress_arg);
    struct round_limits lim = {.time_ns = time_ns, .bytes = bytes, .sample_ns = 1000000000ull,
                               .label = wl->name};
    int ret = worker_pool_round(pool, &lim, err, errlen);
    if (ret == 0) {
        run_pool_metrics(pool, 1000000000ull, weight, m);
        run_device_round(t, weight, sim_last, m);
    }
    worker_pool_stop(pool);
    return ret;
}

int run_pool_once(const struct target_info *t, int fd, const char *out_dir,
                  const struct engine_ops *engine, double weight, struct sim_stats *sim_last,
                  const struct workload *wl, const struct wl_range *range, uint64_t time_ns,
                  uint64_t bytes, volatile sig_atomic_t *stop, struct round_metrics *m,
                  char *err, size_t errlen)
{
    return pool_once(t, fd, out_dir, engine, weight, sim_last, wl, range, time_ns, bytes, stop,
                     NULL, NULL, m, err, errlen);
}

/* ------------------------------------------------------------------ purge */

int step_purge_plan(const struct run_ctx *c, enum purge_method want, struct purge_plan *plan,
                    char *err, size_t errlen)
{
    struct purge_facts facts;
    purge_facts_collect(c->target, &facts);
    return purge_plan_make(&facts, want, plan, err, errlen);
}

int step_purge(const struct run_ctx *c, struct purge_plan *plan, struct json_object **json,
               char *err, size_t errlen)
{
    const bool say = c->live && plan->method != PURGE_NONE;
    if (say) {   /* a purge is one opaque command: a line before and after, no invented figure */
        printf("purge: running %s (%s)%s (no progress reported by the drive) ...\n",
               purge_method_name(plan->method), plan->argv_text,
               c->target->sim ? " on the simulated drive" : "");
        fflush(stdout);
    }
    uint64_t t0 = now_mono_ns();
    int ret = purge_execute(plan, c->target, c->fd, err, errlen);
    double secs = (double)(now_mono_ns() - t0) / 1e9;
    if (say) {
        const char *what = ret == 0 ? "done" : "FAILED";
        if (secs < 0.05) {   /* an instant purge (the simulated drive's): no "after 0 s" */
            printf("purge: %s (under 0.1 s)\n", what);
        } else if (secs < 1) {   /* nor "after 0 s (0.3 s)" */
            printf("purge: %s in %.1f s\n", what, secs);
        } else {
            char d[32];
            live_format_eta(secs, d, sizeof(d));
            printf("purge: %s after %s (%.1f s)\n", what, d, secs);
        }
        fflush(stdout);
    }
    if (c->target->sim)
        sim_stats(c->target->sim->dev, c->sim_last);
    const bool ran = ret == 0 && plan->method != PURGE_NONE;
    *json = results_purge_json(plan, ran, secs);
    if (ran)
        ds_purge(c->state);
    return ret;
}

const char *step_purge_note(const struct purge_plan *plan, char *buf, size_t len)
{
    if (plan->method == PURGE_NONE)
        snprintf(buf, len, "no purge: the tests ran without returning the device to "
                           "fresh-out-of-box (%s)", plan->reason);
    else if (!plan->compliant)
        snprintf(buf, len, "purge by %s is not SNIA-compliant (%s)",
                 purge_method_name(plan->method), plan->reason);
    else
        return NULL;
    return buf;
}

/* ------------------------------------------------------------------ WIPC */

/* The WIPC workload: sequential bs writes over the range, threads x qd, checked against the
 * target; *out_range is its range on the target. */
static int wipc_workload(const struct target_info *t, const struct wipc_spec *w,
                         struct workload *wl, struct wl_range *out_range, char *err,
                         size_t errlen)
{
    wl_init(wl);
    if (wl_set(wl, "rw", "write", "wipc", err, errlen) != 0)
        return -1;
    wl->bs[0] = (struct wl_bs){.size = w->bs, .weight = 100};
    wl->n_bs = 1;
    wl->qd = w->qd;
    wl->workers = w->threads;
    wl->compress_pct = w->compress_pct;
    wl->seed = 0x57495043ull;   /* "WIPC" */
    wl->offset = (struct wl_extent){.set = true, .bytes = w->range.start};
    wl->size = (struct wl_extent){.set = true, .bytes = w->range.len};
    str_copy(wl->name, sizeof(wl->name), "wipc");
    if (wl_validate(wl, err, errlen) != 0 ||
        wl_check_target(wl, t->capacity, t->logical_sector, t->path, out_range, err, errlen) != 0)
        return -1;
    return 0;
}

/* A preconditioning step's writes: `bytes` of wl over range on one pool, with the live meter
 * (prefix) while it runs; 0, or -1 with err. */
static int pool_metered(const struct run_ctx *c, const char *prefix, struct workload *wl,
                        struct wl_range *range, uint64_t bytes, struct round_metrics *m,
                        char *err, size_t errlen)
{
    struct live_meter lm = {.target_bytes = (double)bytes * c->weight, .weight = c->weight,
                            .sim = c->target->sim != NULL};
    snprintf(lm.prefix, sizeof(lm.prefix), "%s", prefix);
    int rc = pool_once(c->target, c->fd, c->out_dir, c->engine, c->weight, c->sim_last, wl,
                       range, 0, bytes, c->stop, c->live ? live_meter_hook : NULL, &lm, m,
                       err, errlen);
    if (c->live && lm.printed)
        live_clear();
    return rc != 0 ? -1 : 0;
}

uint64_t step_wipc_bytes(const struct run_ctx *c, const struct wipc_spec *w)
{
    return (uint64_t)((double)((uint64_t)w->fills * w->range.len) * c->weight);
}

int step_wipc(const struct run_ctx *c, const struct wipc_spec *w, struct round_metrics *m,
              struct json_object **json, char *err, size_t errlen)
{
    struct workload wl;
    struct wl_range range;
    *json = NULL;
    if (wipc_workload(c->target, w, &wl, &range, err, errlen) != 0)
        return -1;
    const uint64_t bytes = (uint64_t)w->fills * range.len;
    uint64_t t0 = now_mono_ns();
    if (pool_metered(c, "  WIPC", &wl, &range, bytes, m, err, errlen) != 0)
        return -1;
    if (c->live && !*c->stop) {   /* the finished step leaves one line */
        char b[32], d[32];
        units_format_capacity((uint64_t)m->write.bytes, b, sizeof(b));
        live_format_eta(m->elapsed_s, d, sizeof(d));
        printf("  WIPC: %s written in %s, %.0f MB/s%s\n", b, d, m->write.mb_s,
               c->target->sim ? " (simulated, virtual time)" : "");
        fflush(stdout);
    }
    if (*c->stop) {
        metrics_free(m);
        return 1;
    }
    ds_wipc(c->state, (double)m->write.bytes);
    m->state = *c->state;
    struct results_wipc r = {
        .bs = w->bs, .threads = w->threads, .qd = w->qd, .fills = w->fills,
        .compress_pct = w->compress_pct, .bytes_target = (double)bytes * c->weight,
        .wall_s = (double)(now_mono_ns() - t0) / 1e9,
    };
    *json = results_wipc_json(&r, m);
    return 0;
}

/* ------------------------------------------------------------------ the fast pass */

bool step_fast_no_ftl(const struct target_info *t)
{
    if (t->kind == TARGET_FILE)
        return true;
    return t->kind == TARGET_BLOCK && (!strcmp(t->attach.interface, "zram") ||
                                       !strcmp(t->attach.interface, "loop"));
}

/* The pass's workload: unit-sized writes over the range from io/fastgen.h, threads x qd. */
static int fast_workload(const struct target_info *t, const struct fast_spec *f, uint32_t unit,
                         struct workload *wl, struct wl_range *out_range, char *err,
                         size_t errlen)
{
    wl_init(wl);
    if (wl_set(wl, "rw", "randwrite", "fast pass", err, errlen) != 0)
        return -1;
    wl->bs[0] = (struct wl_bs){.size = unit, .weight = 100};
    wl->n_bs = 1;
    wl->qd = f->qd;
    wl->workers = f->threads;
    wl->compress_pct = f->compress_pct;
    wl->seed = f->seed;
    wl->random_map = WL_RANDOM_MAP_OFF;
    wl->offset = (struct wl_extent){.set = true, .bytes = f->range.start};
    wl->size = (struct wl_extent){.set = true, .bytes = f->range.len};
    wl->fastpass = (struct wl_fastpass){.on = true, .rho = f->rho, .seed = f->seed};
    str_copy(wl->name, sizeof(wl->name), "fast pass");
    if (wl_validate(wl, err, errlen) != 0 ||
        wl_check_target(wl, t->capacity, t->logical_sector, t->path, out_range, err, errlen) != 0)
        return -1;
    const uint64_t units = out_range->len / unit;
    if (out_range->start % unit || units / f->threads >= UINT32_MAX ||
        units < (uint64_t)FASTGEN_REGIONS * f->threads)
        return errf(err, errlen, "the fast pass needs a range aligned to its unit (%u bytes) of "
                    "%u to 2^32 units per worker (%llu units for %u workers: more workers split "
                    "a larger range)", unit, FASTGEN_REGIONS, (unsigned long long)units,
                    f->threads);
    return 0;
}

/* The write size of the pass on a target with no FTL (core/steps.h step_fast): WIPC's
 * (PRECOND_WIPC_BS) or the largest multiple of unit under it whose *threads shares tile the
 * range exactly (io/iogen.c splits a sequential range into equal slices, a tail no worker
 * would write); one thread when no such size exists. */
static uint32_t fast_seq_bs(uint64_t len, uint32_t unit, unsigned *threads)
{
    for (int pass = 0; pass < 2; pass++, *threads = 1)
        for (uint32_t k = unit < PRECOND_WIPC_BS ? PRECOND_WIPC_BS / unit : 1; k >= 1; k--)
            if (len % ((uint64_t)unit * k * *threads) == 0)
                return unit * k;
    return unit;
}

/* The pass where there is no FTL state to shape: its (1 + rho) fills sequentially in WIPC's
 * large writes, threads x qd, every block of the range written (the same state as the random
 * order leaves, in far less time on a file: docs/fast-precondition.md "Targets with no FTL").
 * *bs and *threads: what it issued; *bytes: the bytes, whole slices of every thread. */
static int fast_seq_run(const struct run_ctx *c, const struct fast_spec *f, uint32_t unit,
                        const struct wl_range *range, struct round_metrics *m, uint32_t *bs,
                        unsigned *threads, uint64_t *bytes, char *err, size_t errlen)
{
    *threads = f->threads;
    *bs = fast_seq_bs(range->len, unit, threads);
    struct wipc_spec w = {.range = *range, .bs = *bs, .threads = *threads, .qd = f->qd,
                          .fills = 1, .compress_pct = f->compress_pct};
    struct workload wl;
    struct wl_range r;
    if (wipc_workload(c->target, &w, &wl, &r, err, errlen) != 0)
        return -1;
    wl.seed = f->seed;
    str_copy(wl.name, sizeof(wl.name), "fast pass");
    const uint64_t step = (uint64_t)*bs * *threads;
    *bytes = (uint64_t)ceil((1 + f->rho) * (double)(r.len / step) - 1e-9) * step;
    return pool_metered(c, "  fast pass", &wl, &r, *bytes, m, err, errlen);
}

/* The step's closing line: what it wrote, and what it means on this target. */
static void fast_say_done(const struct run_ctx *c, const struct round_metrics *m)
{
    char b[32], d[32], r[32];
    units_format_capacity((uint64_t)m->write.bytes, b, sizeof(b));
    live_format_eta(m->elapsed_s, d, sizeof(d));
    units_format_figure(m->write.mb_s, UNITS_FIG_VALUE, r, sizeof(r));
    printf("  fast pass%s: %s written in %s, %s MB/s%s\n",
           step_fast_no_ftl(c->target) ? " (no FTL here: the range written sequentially)" : "",
           b, d, r, c->target->sim ? " (simulated, virtual time)" : "");
    fflush(stdout);
}

int step_fast(const struct run_ctx *c, const struct fast_spec *f, struct round_metrics *m,
              struct fastpass_result *out, char *err, size_t errlen)
{
    struct workload wl;
    struct wl_range range;
    memset(out, 0, sizeof(*out));
    if (c->engine->flags & ENGINE_F_WHOLE_ROUND)
        return errf(err, errlen, "the fast pass issues its own offsets: the %s engine runs "
                    "whole rounds and cannot take them (use io_uring or libaio)", c->engine->name);
    const uint32_t unit = f->unit ? f->unit : FASTPASS_UNIT;
    if (fast_workload(c->target, f, unit, &wl, &range, err, errlen) != 0)
        return -1;
    const uint64_t units = range.len / unit;
    const bool seq = step_fast_no_ftl(c->target);
    uint32_t bs = unit;
    unsigned threads = f->threads;
    uint64_t bytes = 0;
    uint64_t t0 = now_mono_ns();
    if (seq) {
        if (fast_seq_run(c, f, unit, &range, m, &bs, &threads, &bytes, err, errlen) != 0)
            return -1;
    } else {
        uint64_t most = 0;   /* every worker the same quota: the longest share's pass */
        for (unsigned i = 0; i < f->threads; i++) {
            const uint64_t n = fastgen_length_of(units, f->rho, i, f->threads);
            most = n > most ? n : most;
        }
        bytes = most * f->threads * unit;
        if (pool_metered(c, "  fast pass", &wl, &range, bytes, m, err, errlen) != 0)
            return -1;
    }
    if (c->live && !*c->stop)
        fast_say_done(c, m);
    if (*c->stop) {
        metrics_free(m);
        return 1;
    }
    *out = (struct fastpass_result){
        .rho = f->rho, .unit_bytes = unit, .units_written = bytes / unit, .units = units,
        .t_start = 0, .t_end = (simt)(m->elapsed_s * 1e9), .workers = threads, .qd = f->qd,
        .no_ftl = seq, .write_bytes = bs, .sequential = seq,
        .wall_s = (double)(now_mono_ns() - t0) / 1e9,
    };
    return 0;
}
