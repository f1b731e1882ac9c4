/* run.c — prepare (validate, no writes) and execute a measured run. */
#include "core/run.h"
#include "core/job_numa.h"
#include "core/thermal_rounds.h"

#include <errno.h>
#include <json-c/json.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/fastpass.h"
#include "core/fastprep.h"
#include "core/fio_ss.h"
#include "core/live.h"
#include "core/results.h"
#include "core/worker.h"
#include "engine/engine_keys.h"
#include "io/iogen.h"
#include "lib/file.h"
#include "lib/json_path.h"
#include "lib/units.h"
#include "lib/util.h"
#include "sim/sim_preset.h"

void run_config_init(struct run_config *cfg)
{
    memset(cfg, 0, sizeof(*cfg));
    cfg->engine_name = NULL;   /* io_uring, or sim for simulated targets */
    cfg->max_rounds = 25;
    cfg->sample_ns = 1000000000ull;
    cfg->track = "iops";
    cfg->stop_at_steady = true;
    cfg->precondition = WL_PRECOND_NONE;
    cfg->purge = PURGE_NONE;
    cfg->wdpc_min_fills = RUN_WDPC_FILLS_DEFAULT;   /* PRECOND_WDPC_MIN_FILLS, not given */
    cfg->wdpc_max_fills = PRECOND_WDPC_MAX_FILLS;
    cfg->criteria = STEADY_CRITERIA_SNIA;
    cfg->guard = STEADY_GUARD_DEFAULT;
}

static bool tracking_name_ok(const char *name)
{
    for (size_t i = 0; metrics_tracking_names[i]; i++)
        if (strcmp(metrics_tracking_names[i], name) == 0)
            return true;
    return false;
}

bool run_writes(const struct run_record *rec)
{
    for (unsigned j = 0; j < rec->jobs.n; j++)
        if (wl_writes(&rec->jobs.jobs[j].wl))
            return true;
    return rec->jobs.n == 0 && wl_writes(&rec->wl);
}

/* Does any job read? */
static bool run_reads(const struct run_record *rec)
{
    for (unsigned j = 0; j < rec->jobs.n; j++)
        if (rec->jobs.jobs[j].wl.read_pct > 0)
            return true;
    return rec->jobs.n == 0 && rec->wl.read_pct > 0;
}

/* The running group's: does a job of it write; its largest I/O; its longest ramp. */
static bool group_writes(const struct run_record *rec)
{
    const struct run_group *g = &rec->groups[rec->group];
    for (unsigned j = g->first_job; j < g->first_job + g->n_jobs; j++)
        if (wl_writes(&rec->jobs.jobs[j].wl))
            return true;
    return false;
}

static uint32_t group_max_bs(const struct run_record *rec)
{
    const struct run_group *g = &rec->groups[rec->group];
    uint32_t bs = 0;
    for (unsigned j = g->first_job; j < g->first_job + g->n_jobs; j++)
        if (wl_max_bs(&rec->jobs.jobs[j].wl) > bs)
            bs = wl_max_bs(&rec->jobs.jobs[j].wl);
    return bs;
}

static uint64_t group_ramp_ns(const struct run_record *rec)
{
    const struct run_group *g = &rec->groups[rec->group];
    uint64_t ns = 0;
    for (unsigned j = g->first_job; j < g->first_job + g->n_jobs; j++)
        if (rec->jobs.jobs[j].wl.ramp_ns > ns)
            ns = rec->jobs.jobs[j].wl.ramp_ns;
    return ns;
}

/* Is a layout due (layout.h)? A workload that reads a file target with nothing else writing
 * the range first (no WIPC); step_layout_due decides and refuses. 0, or -1 with err. */
static int layout_due(struct run_record *rec, char *err, size_t errlen)
{
    const struct run_config *c = &rec->cfg;
    rec->layout = false;
    if (c->no_layout || !run_reads(rec) || rec->prep != DS_PREP_NONE || c->n_remotes ||
        c->resume)
        return 0;
    return step_layout_due(&rec->target, &rec->range, c->purge != PURGE_NONE, &rec->layout, err,
                           errlen);
}

/* --track, --rounds, --wdpc-fills, --precondition and the round length checked and resolved
 * (round length: command line, then workload, then the PTS's 1 minute). 0, or -1 with err. */
static int prepare_rounds(struct run_record *rec, char *err, size_t errlen)
{
    struct run_config *c = &rec->cfg;
    if (!tracking_name_ok(c->track)) {
        char names[512] = "";
        for (size_t i = 0; metrics_tracking_names[i]; i++) {
            if (names[0])
                strncat(names, ", ", sizeof(names) - strlen(names) - 1);
            strncat(names, metrics_tracking_names[i], sizeof(names) - strlen(names) - 1);
        }
        return errf(err, errlen, "--track %s: unknown metric (one of %s)", c->track, names);
    }
    if (c->max_rounds == 0)
        return errf(err, errlen, "--rounds 0: need at least one round");
    c->criteria.max_rounds = c->max_rounds;
    if (c->precondition == WL_PRECOND_DEFAULT)
        c->precondition = WL_PRECOND_NONE;
    rec->wdpc_fills_given = c->wdpc_min_fills != RUN_WDPC_FILLS_DEFAULT;
    if (!rec->wdpc_fills_given)
        c->wdpc_min_fills = PRECOND_WDPC_MIN_FILLS;
    if (!(c->wdpc_min_fills >= 0) || !(c->wdpc_max_fills > 0))
        return errf(err, errlen, "--wdpc-fills %g, --wdpc-max-fills %g: need >= 0 and > 0",
                    c->wdpc_min_fills, c->wdpc_max_fills);
    if (c->wdpc_max_fills < c->wdpc_min_fills)
        return errf(err, errlen, "--wdpc-max-fills %g: less than --wdpc-fills %g",
                    c->wdpc_max_fills, c->wdpc_min_fills);
    rec->prep = c->fast_pass ? DS_PREP_FAST
                : c->precondition == WL_PRECOND_STEADY ? DS_PREP_STEADY
                : c->precondition == WL_PRECOND_WIPC ? DS_PREP_WIPC : DS_PREP_NONE;
    const struct fast_request fr = {c->fast_pass, c->fast_rho, c->op_rho};
    if (fastprep_check(&fr, err, errlen) != 0)
        return -1;

    if (wl_validate(&rec->wl, err, errlen) != 0 ||
        engine_keys_check(rec->engine, &rec->wl, err, errlen) != 0)
        return -1;
    for (unsigned j = 1; j < rec->jobs.n; j++) {   /* several jobs: each checked, named */
        char e[ERR_LEN];
        if (wl_validate(&rec->jobs.jobs[j].wl, e, sizeof(e)) != 0 ||
            engine_keys_check(rec->engine, &rec->jobs.jobs[j].wl, e, sizeof(e)) != 0)
            return errf(err, errlen, "job %s: %s", rec->jobs.jobs[j].label, e);
    }

    if (!c->round_bytes && !c->round_time_ns) {
        c->round_bytes = rec->wl.round_bytes;
        c->round_time_ns = rec->wl.round_time_ns;
    }
    if (!c->round_bytes && !c->round_time_ns)
        c->round_time_ns = 60ull * 1000000000ull;
    if (c->round_bytes)
        c->round_time_ns = 0;
    /* --time-limit: as many timed rounds as fit after the ramp (at least one) */
    const double limit = (double)c->time_limit_ns / 1e9 - (double)rec->wl.ramp_ns / 1e9;
    const double fit = c->round_time_ns ? floor(limit / ((double)c->round_time_ns / 1e9)) : 0;
    if (c->time_limit_ns && c->round_time_ns && fit < c->max_rounds) {
        rec->rounds_uncut = c->max_rounds;
        c->max_rounds = c->criteria.max_rounds = fit > 1 ? (unsigned)fit : 1;
    }
    return 0;
}

/* Every job's range checked against the target (ranges[j]); rec->range the span of them all
 * (one job: its own). 0, or -1 with err (naming the job when there are several). */
static int prepare_ranges(struct run_record *rec, char *err, size_t errlen)
{
    const struct target_info *t = &rec->target;
    rec->ranges = xcalloc(rec->jobs.n, sizeof(*rec->ranges));
    uint64_t lo = UINT64_MAX, hi = 0;
    for (unsigned j = 0; j < rec->jobs.n; j++) {
        const struct wl_job *job = &rec->jobs.jobs[j];
        char e[ERR_LEN];
        if (wl_check_target_scaled(&job->wl, t->capacity, t->logical_sector,
                                   (uint64_t)run_target_weight(t), t->path, &rec->ranges[j], e,
                                   sizeof(e)) != 0)
            return rec->jobs.n > 1 ? errf(err, errlen, "job %s: %s", job->label, e)
                                   : errf(err, errlen, "%s", e);
        const uint64_t k = (uint64_t)run_target_weight(t);
        if (wl_note_raised(&rec->jobs.jobs[j].wl, &rec->ranges[j], k, t->logical_sector,
                           t->path) && j == 0)
            wl_note_raised(&rec->wl, &rec->ranges[j], k, t->logical_sector, t->path);
        if (rec->ranges[j].start < lo)
            lo = rec->ranges[j].start;
        if (rec->ranges[j].start + rec->ranges[j].len > hi)
            hi = rec->ranges[j].start + rec->ranges[j].len;
    }
    rec->range = rec->jobs.n == 1 ? rec->ranges[0] : (struct wl_range){lo, hi - lo};
    return 0;
}

/* The target probed (local, or --remote through fio's client/server mode), the workers placed
 * and the workload's range checked against the target. 0, or -1 with err. */
static int prepare_target(struct run_record *rec, bool sim_target,
                          const char *const *profile_dirs, char *err, size_t errlen)
{
    struct run_config *c = &rec->cfg;
    if (sim_target && c->create_size)
        return errf(err, errlen, "--size: a simulated drive has the capacity of its preset "
                                 "(override with sim:PRESET,user_bytes=...)");
    if (c->n_remotes) {
        if (!(rec->engine->flags & ENGINE_F_WHOLE_ROUND))
            return errf(err, errlen, "--remote: remote hosts are driven through fio's client/"
                                     "server mode: add --engine fio (or fio-libaio)");
        if (sim_target)
            return errf(err, errlen, "--remote: %s is a simulated drive (local only)",
                        c->target_path);
        if (!strncmp(c->target_path, "/dev/", 5) && run_writes(rec) && !c->destructive)
            return errf(err, errlen, "refusing to write to %s on the remote hosts without "
                                     "--destructive (its data would be destroyed; the remote fio "
                                     "refuses mounted devices itself)", c->target_path);
        if (target_probe_remote(c->target_path, c->create_size, &rec->target, err, errlen) != 0)
            return -1;
    } else if (run_probe_target(c->target_path, c->create_size, c->allow_memory, profile_dirs,
                                &rec->target, err, errlen) != 0) {
        return -1;
    }
    struct numa_request req = c->numa;   /* a job file's numa_cpu_nodes (core/job_numa.h) */
    char how[200];
    if (job_numa_request("", &rec->jobs, &req, how, sizeof(how), err, errlen) != 0 ||
        run_place(&req, &rec->target, &rec->place, err, errlen) != 0)
        return -1;
    if (*how)
        str_copy(rec->place.reason, sizeof(rec->place.reason), how);
    return prepare_ranges(rec, err, errlen);
}

/* Trims (rw=trim, randtrim, trimwrite): a target that cannot discard refused before anything
 * is written (engine_trim_check); the native engines' trims noted as synchronous (engine.h:
 * engine_trims), on the results' workload. */
static int prepare_trims(struct run_record *rec, char *err, size_t errlen)
{
    bool trims = rec->wl.trim;
    for (unsigned j = 0; j < rec->jobs.n; j++)
        trims |= rec->jobs.jobs[j].wl.trim;
    const enum target_kind k = rec->target.kind;
    if (!trims || (k != TARGET_BLOCK && k != TARGET_FILE))
        return 0;
    if (engine_trim_check(rec->target.path, k == TARGET_BLOCK, err, errlen) != 0)
        return -1;
    if (rec->engine->flags & ENGINE_F_WHOLE_ROUND) {
        if (k == TARGET_FILE)   /* fio's os_trim: ioctl BLKDISCARD, ENOTTY on a file */
            return errf(err, errlen, "%s: fio trims only block devices (ioctl BLKDISCARD, "
                        "which a file refuses): rw=trim, randtrim and trimwrite on a file "
                        "run on ptsbench's own engines (a punched hole)", rec->target.path);
        return 0;
    }
    const char *const note = k == TARGET_BLOCK
        ? "trims issued synchronously, as fio's io_uring and libaio (ioctl BLKDISCARD), timed "
          "to the syscall's return: one trim in flight per worker at a time, whatever the "
          "depth (the depth figure counts a trim from its batch's submission to its reaping)"
        : "trims issued synchronously, as fio's io_uring and libaio, as a punched hole "
          "(fallocate PUNCH_HOLE, KEEP_SIZE; fio's BLKDISCARD fails on a file), timed to the "
          "syscall's return: one trim in flight per worker at a time, whatever the depth (the "
          "depth figure counts a trim from its batch's submission to its reaping)";
    if (rec->wl.trim)
        wl_note_add(&rec->wl, note);
    for (unsigned j = 0; j < rec->jobs.n; j++)
        if (rec->jobs.jobs[j].wl.trim)
            wl_note_add(&rec->jobs.jobs[j].wl, note);
    return 0;
}

/* --precondition fast (core/fastprep.h): the spare factor chosen for the target, the
 * stimulus's random map off (every job's, and the run's own) unless a workload names it. 0, or
 * -1 with err. */
static int run_fast_choose(struct run_record *rec, char *err, size_t errlen)
{
    const struct run_config *c = &rec->cfg;
    const struct fast_request r = {c->fast_pass, c->fast_rho, c->op_rho};
    struct fast_prep fp;
    if (fastprep_choose(&rec->target, &r, &fp, err, errlen) != 0)
        return -1;
    rec->ftl = fp.ftl;
    rec->op = fp.op;
    for (unsigned j = 0; j <= rec->jobs.n; j++)
        if (fastprep_stimulus_map(j < rec->jobs.n ? &rec->jobs.jobs[j].wl : &rec->wl))
            rec->fast_map_off = true;
    return 0;
}

/* What the run will write checked before anything is written: --precondition and --purge not
 * with --remote, --resume on the same target, the layout, the target's safety, the purge's
 * plan. 0, or -1 with err. */
static int prepare_writes(struct run_record *rec, char *err, size_t errlen)
{
    struct run_config *c = &rec->cfg;
    if (rec->prep != DS_PREP_NONE && c->n_remotes)
        return errf(err, errlen, "--precondition %s: not with --remote (precondition each host's "
                    "drive first)", wl_precondition_name(c->precondition));
    if (c->purge != PURGE_NONE && c->n_remotes)
        return errf(err, errlen, "--purge %s: not with --remote (purge each host's drive first)",
                    purge_method_name(c->purge));
    const struct fast_request fr = {c->fast_pass, c->fast_rho, c->op_rho};
    if (fastprep_usable(&fr, c->resume != NULL, rec->engine, err, errlen) != 0)
        return -1;
    if (c->fast_pass && run_fast_choose(rec, err, errlen) != 0)
        return -1;
    rec->wdpc = ds_prep_wdpc(rec->prep) && run_writes(rec);
    if (c->resume && run_resume_same_target(c->resume, &rec->target, err, errlen) != 0)
        return -1;
    if (layout_due(rec, err, errlen) != 0)
        return -1;
    const bool writes = run_writes(rec) || rec->prep != DS_PREP_NONE || c->purge != PURGE_NONE;
    if (run_check_safety(&rec->target, writes || rec->layout, c->destructive,
                         c->overwrite_signatures, err, errlen) != 0) {
        if (!writes)
            step_layout_refused(err, errlen);
        return -1;
    }
    if (prepare_trims(rec, err, errlen) != 0)
        return -1;
    if (c->purge != PURGE_NONE) {   /* the plan, checked before anything is written */
        struct run_ctx ctx = {.target = &rec->target};
        struct purge_plan plan;
        if (step_purge_plan(&ctx, c->purge, &plan, err, errlen) != 0)
            return -1;
    }
    return 0;
}

int run_prepare(struct run_record *rec, const struct run_config *cfg, const char *workload_spec,
                const char *const *profile_dirs, char *err, size_t errlen)
{
    memset(rec, 0, sizeof(*rec));
    rec->cfg = *cfg;
    struct run_config *c = &rec->cfg;

    if (!workload_spec || !*workload_spec)
        return errf(err, errlen, "missing --workload (inline spec like rw=randread,bs=4k,qd=32 "
                                 "or a profile name)");
    if (wl_resolve_jobs(workload_spec, profile_dirs, &rec->jobs, err, errlen) != 0)
        return -1;
    rec->wl = rec->jobs.jobs[0].wl;
    rec->groups = xcalloc(rec->jobs.n_groups, sizeof(*rec->groups));
    for (unsigned g = 0; g < rec->jobs.n_groups; g++)
        wl_jobset_group(&rec->jobs, g, &rec->groups[g].first_job, &rec->groups[g].n_jobs);
    /* a fio job file's filename and ioengine, unless the command names its own; one target
     * (jobs on different files, or files of their own in a directory, need --target: every
     * job then runs on it, its own extent where fio would give it a file of its own) */
    if (!c->target_path || !*c->target_path) {
        for (unsigned j = 0; j < rec->jobs.n; j++) {
            const struct workload *jw = &rec->jobs.jobs[j].wl;
            if (jw->own_file)
                return errf(err, errlen, "%s: fio would make job %s a file of its own in %s; "
                            "ptsbench runs one target: give --target (each job then gets its "
                            "own extent of it)", rec->jobs.source, rec->jobs.jobs[j].label,
                            jw->directory);
            if (strcmp(jw->filename, rec->wl.filename))
                return errf(err, errlen, "%s: jobs %s and %s name different files (%s, %s); "
                            "ptsbench runs one target: give --target", rec->jobs.source,
                            rec->jobs.jobs[0].label, rec->jobs.jobs[j].label,
                            rec->wl.filename[0] ? rec->wl.filename : "none",
                            jw->filename[0] ? jw->filename : "none");
        }
    }
    if ((!c->target_path || !*c->target_path) && rec->wl.filename[0])
        c->target_path = rec->wl.filename;
    if (!c->target_path || !*c->target_path)
        return errf(err, errlen, "missing --target (a block device, a file or sim:PRESET, see "
                                 "--help)");
    const bool sim_target = sim_target_is(c->target_path);
    if (!c->engine_name && rec->wl.engine[0] && !sim_target)
        c->engine_name = rec->wl.engine;
    if (run_select_engine(c->engine_name, c->target_path, &rec->engine, err, errlen) != 0)
        return -1;
    if (prepare_rounds(rec, err, errlen) != 0 || fio_ss_map(rec, err, errlen) != 0 ||
        prepare_target(rec, sim_target, profile_dirs, err, errlen) != 0 ||
        prepare_writes(rec, err, errlen) != 0)
        return -1;

    if (run_out_dir(c->out_dir, "run", c->force, rec->out_dir, sizeof(rec->out_dir),
                    rec->results_path, sizeof(rec->results_path), err, errlen) != 0)
        return -1;

    rec->weight = run_target_weight(&rec->target);
    hostinfo_collect(&rec->host, rec->engine->flags & ENGINE_F_WHOLE_ROUND);
    rec->status = "prepared";
    return 0;
}

/* The plan's time bound: the rounds' (a time bound when rounds are timed), then the parts only
 * the drive's write rate bounds (purge, WIPC, WDPC), named. */
static void print_time_bound(const struct run_record *rec)
{
    const struct run_config *c = &rec->cfg;
    const char *clock = rec->target.sim ? " of virtual time" : "";
    char range[32], total[32], round[32];
    units_format_size((uint64_t)((double)rec->range.len * rec->weight), range, sizeof(range));
    if (c->round_bytes) {
        units_format_size(c->round_bytes, round, sizeof(round));
        printf("  time    up to %u round%s of %s written each: unbounded here (as long as the "
               "drive takes to write them)", c->max_rounds, c->max_rounds == 1 ? "" : "s",
               round);
    } else {
        snprintf(round, sizeof(round), "%g s", (double)c->round_time_ns / 1e9);
        const unsigned groups = rec->jobs.n_groups > 1 ? rec->jobs.n_groups : 1;
        run_format_duration((double)groups * c->max_rounds * (double)c->round_time_ns / 1e9,
                            total, sizeof(total));
        if (groups > 1)   /* each group for the rounds */
            printf("  time    up to %u round%s of %s in each of %u groups: at most %s%s",
                   c->max_rounds, c->max_rounds == 1 ? "" : "s", round, groups, total, clock);
        else
            printf("  time    up to %u round%s of %s: at most %s%s", c->max_rounds,
                   c->max_rounds == 1 ? "" : "s", round, total, clock);
    }
    if (c->purge != PURGE_NONE)
        printf(", plus the purge (%s: as long as the drive takes)", purge_method_name(c->purge));
    if (rec->prep != DS_PREP_NONE && c->fast_pass)
        printf(", plus the fast pass (1 + rho x %s written: as long as the drive takes)", range);
    else if (rec->prep != DS_PREP_NONE)
        printf(", plus WIPC (%u x %s written: as long as the drive takes)", PRECOND_WIPC_FILLS,
               range);
    if (rec->wdpc)
        printf(", plus WDPC (rounds%s until the fill guard passes, at most %g x %s written: as "
               "long as the drive takes)", c->round_bytes ? "" : " of the same length",
               c->wdpc_max_fills, range);
    printf("\n");
}

/* Several jobs: the groups, in the order they run, and each job's workload and notes. */
static void print_plan_jobs(const struct run_record *rec)
{
    const struct wl_jobset *js = &rec->jobs;
    printf("ptsbench %s: %s: %u jobs in %u group%s (the jobs of a group run at once, each on its "
           "own workers; groups one after another, each for the rounds below)\n",
           PTSBENCH_VERSION, js->source, js->n, js->n_groups, js->n_groups == 1 ? "" : "s");
    if (js->note[0])
        printf("  note    %s\n", js->note);
    for (unsigned g = 0; g < js->n_groups; g++) {
        const struct run_group *gr = &rec->groups[g];
        printf("  group %u: %u job%s%s\n", g + 1, gr->n_jobs, gr->n_jobs == 1 ? "" : "s",
               gr->n_jobs == 1 ? "" : " at once");
        for (unsigned j = gr->first_job; j < gr->first_job + gr->n_jobs; j++) {
            char spec[512];
            wl_format(&js->jobs[j].wl, spec, sizeof(spec));
            printf("    job %s: %s\n", js->jobs[j].label, spec);
            if (js->jobs[j].wl.note[0])
                printf("      note %s\n", js->jobs[j].wl.note);
        }
    }
}

void run_print_plan(const struct run_record *rec)
{
    const struct run_config *c = &rec->cfg;
    char spec[512], len[64];
    wl_format(&rec->wl, spec, sizeof(spec));
    if (c->round_bytes) {
        char b[32];
        units_format_size(c->round_bytes, b, sizeof(b));
        snprintf(len, sizeof(len), "%s written", b);
    } else {
        snprintf(len, sizeof(len), "%g s", (double)c->round_time_ns / 1e9);
    }
    if (rec->jobs.n > 1)
        print_plan_jobs(rec);
    else
        printf("ptsbench %s: %s\n", PTSBENCH_VERSION, spec);
    if (rec->jobs.n <= 1 && rec->wl.note[0])
        printf("  note    %s\n", rec->wl.note);
    run_print_target_engine(&rec->target, rec->engine);
    if (c->purge != PURGE_NONE)
        printf("  purge   %s, before the preconditioning\n", purge_method_name(c->purge));
    if (rec->prep == DS_PREP_NONE)
        printf("  drive   not preconditioned: figures are the drive's burst (fresh-out-of-box, or "
               "as earlier writes left it); --precondition steady for steady state\n");
    else if (c->fast_pass && step_fast_no_ftl(&rec->target))   /* core/steps.h step_fast */
        printf("  drive   fast pass (no FTL here: the same as writing the range), then WDPC: the "
               "stimulus until the fill guard passes\n");
    else if (c->fast_pass)
        printf("  drive   fast pass (1 + rho times the active range in the stimulus's write size, "
               "invalidated to greedy GC's equilibrium), then WDPC: the stimulus until the fill "
               "guard passes\n");
    if (c->fast_pass && rec->fast_map_off)
        printf("          the stimulus draws without a random map after the fast pass "
               "(random_map=off: docs/fast-precondition.md §4)\n");
    else
        printf("  drive   WIPC (%ux the active range, sequential 128 KiB)%s\n", PRECOND_WIPC_FILLS,
               rec->wdpc ? ", then WDPC: the stimulus until the fill guard passes" : "");
    if (rec->wdpc)
        printf("          (at least %g, at most %g fills; rounds recorded, not judged)\n",
               c->wdpc_min_fills, c->wdpc_max_fills);
    if (rec->layout)
        printf("  layout  the active range's never-written parts are written first with the run's "
               "data, as fio lays out its files (--no-layout: read them as they are)\n");
    else if (rec->target.kind == TARGET_FILE && c->no_layout && rec->wl.read_pct > 0)
        printf("  layout  none (--no-layout): rounds that read never-written space are labelled "
               "so\n");
    else if (rec->target.kind == TARGET_BLOCK && rec->prep == DS_PREP_NONE &&
             c->purge == PURGE_NONE)
        printf("  content history unknown: ptsbench neither purged nor wrote this device before "
               "the rounds\n");
    printf("  rounds  up to %u of %s%s%s; tracked on %s\n", c->max_rounds, len,
           rec->jobs.n_groups > 1 ? " per group, each group judged on its own rounds" : "",
           c->stop_at_steady ? rec->prep == DS_PREP_NONE || (rec->prep == DS_PREP_WIPC &&
                                                             run_writes(rec))
                                   ? ", stopping at the first stable window"
                                   : ", stopping at steady state"
                             : "", c->track);
    print_time_bound(rec);
    if (c->time_limit_ns) {
        char lim[32];
        run_format_duration((double)c->time_limit_ns / 1e9, lim, sizeof(lim));
        printf("  limit   %s%s: ", lim, rec->target.sim ? " of virtual time" : "");
        if (rec->rounds_uncut)
            printf("rounds cut from %u to %u%s", rec->rounds_uncut, c->max_rounds,
                   ds_prep_wdpc(rec->prep) ? "; steady state may not be reached" : "");
        else
            printf("%s", c->round_bytes ? "rounds of bytes: no round starts past it"
                                        : "the rounds fit");
        printf("; the ramp and WDPC rounds count too\n");
    }
    if (rec->target.memory_fs[0])
        printf("  memory  %s is on %s: the figures measure memory, not a drive\n",
               rec->target.path, rec->target.memory_fs);
    printf("  results %s\n", rec->results_path);
    fflush(stdout);
}

/* The state column of a round line. */
static void round_state_text(const struct run_record *rec, const struct round_metrics *m,
                             char *ss, size_t len)
{
    const struct steady_criteria *c = &rec->cfg.criteria;
    const struct steady_window *w = &rec->steady;
    double fills = ds_fills(&rec->state, rec->state.wdpc_bytes);
    if (m->phase && !strcmp(m->phase, "wdpc")) {
        if (rec->guard.evaluated)
            snprintf(ss, len, "WDPC %.2f fills; fill guard: %.1f%% from the window (<= %.0f%%)",
                     fills, 100 * rec->guard.max_deviation, 100 * rec->cfg.guard.band_frac);
        else
            snprintf(ss, len, "WDPC %.2f fills (the guard needs %g)", fills,
                     rec->cfg.guard.lag_fills);
        return;
    }
    unsigned floor = rec->window_floor > rec->first_measure ? rec->window_floor
                                                            : rec->first_measure;
    floor = floor > rec->ss_floor ? floor : rec->ss_floor;   /* fio's ss_ramp */
    unsigned in_window = m->round - floor + 1;
    if (rec->steady_round && rec->verdict.steady)
        snprintf(ss, len, "steady (rounds %u-%u)", w->first_round, w->last_round);
    else if (rec->steady_round && rec->verdict.measured == DS_M_UNWRITTEN)
        snprintf(ss, len, "flat (rounds %u-%u), not the drive's figure", w->first_round,
                 w->last_round);   /* the label follows on the line */
    else if (rec->steady_round)
        snprintf(ss, len, "%s (rounds %u-%u)", rec->verdict.label, w->first_round, w->last_round);
    else if (in_window < c->window)
        snprintf(ss, len, "window %u/%u", in_window, c->window);
    else if (w->steady && rec->wdpc)
        snprintf(ss, len, "flat, but the fill guard fails (%.1f%% > %.0f%%)",
                 100 * rec->guard.max_deviation, 100 * rec->cfg.guard.band_frac);
    else
        snprintf(ss, len, "not stable (range %.1f%%, slope %.1f%%)",
                 w->average > 0 ? 100 * w->range / w->average : 0,
                 w->average > 0 ? 100 * w->slope_excursion / w->average : 0);
}

/* The writes' IOPS, and " t N" with the trims' when the round issued trims. */
static void write_trim_text(const struct round_metrics *m, char *buf, size_t len)
{
    units_format_figure(m->write.iops, UNITS_FIG_IOPS, buf, len);
    if (!m->trim.ios)
        return;
    char t[32];
    units_format_figure(m->trim.iops, UNITS_FIG_IOPS, t, sizeof(t));
    size_t l = strlen(buf);
    snprintf(buf + l, len - l, " t %s", t);
}

/* One job's figures in a round, indented under the group's line. */
static void print_job_line(const struct round_metrics *j)
{
    char iops[32], r[32], w[64], mb[32], mean[32], p999[32], qd[256];
    units_format_figure(j->total.iops, UNITS_FIG_IOPS, iops, sizeof(iops));
    units_format_figure(j->read.iops, UNITS_FIG_IOPS, r, sizeof(r));
    write_trim_text(j, w, sizeof(w));
    units_format_figure(j->total.mb_s, UNITS_FIG_MBS, mb, sizeof(mb));
    units_format_figure(j->total.lat.mean_us, UNITS_FIG_LAT, mean, sizeof(mean));
    units_format_pct(j->total.lat.pct_us[METRICS_P99_9], j->total.lat.count, UNITS_TEXT, p999,
                     sizeof(p999));
    metrics_depth_text(&j->depth, qd, sizeof(qd));
    printf("    job %s  IOPS %s (r %s w %s)  %s MB/s  lat mean %s p99.9 %s%s%s\n",
           j->label ? j->label : "?", iops, r, w, mb, mean, p999, *qd ? "  " : "", qd);
}

static void print_round(const struct run_record *rec, const struct round_metrics *m)
{
    char iops[32], r[32], w[64], mb[32], mean[32], p999[32], ss[256];
    units_format_figure(m->total.iops, UNITS_FIG_IOPS, iops, sizeof(iops));
    units_format_figure(m->read.iops, UNITS_FIG_IOPS, r, sizeof(r));
    write_trim_text(m, w, sizeof(w));
    units_format_figure(m->total.mb_s, UNITS_FIG_MBS, mb, sizeof(mb));
    units_format_figure(m->total.lat.mean_us, UNITS_FIG_LAT, mean, sizeof(mean));
    units_format_pct(m->total.lat.pct_us[METRICS_P99_9], m->total.lat.count, UNITS_TEXT, p999,
                     sizeof(p999));
    round_state_text(rec, m, ss, sizeof(ss));
    if (ds_reads_labelled(&m->unwritten)) {
        size_t l = strlen(ss);
        snprintf(ss + l, sizeof(ss) - l, "; reads of never-written space %.0f%%%s",
                 100 * m->unwritten.share, m->unwritten.measured ? "" : " (estimated)");
    }
    if (rec->wl.buffered) {
        size_t l = strlen(ss);
        snprintf(ss + l, sizeof(ss) - l, "; buffered: the page cache's figures");
    }
    char dev[64] = "";
    if (m->device.present && m->device.host_write_bytes <= 0)   /* reads or trims only */
        snprintf(dev, sizeof(dev), "  WA - (no host writes)");
    else if (m->device.present) {
        char wa[32];
        units_format_figure(m->device.wa_round, UNITS_FIG_WAF, wa, sizeof(wa));
        snprintf(dev, sizeof(dev), "  WA %s", wa);
    }
    char num[32];
    if (m->phase && !strcmp(m->phase, "wdpc"))
        snprintf(num, sizeof(num), "wdpc %3u", m->round);
    else if (rec->first_measure > 1)   /* one counting, the results': after the WDPC rounds */
        snprintf(num, sizeof(num), "round %2u (measured %u/%u)", m->round, rec->measured,
                 rec->cfg.max_rounds);
    else
        snprintf(num, sizeof(num), "round %2u/%u", rec->measured, rec->cfg.max_rounds);
    char qd[256];   /* the depth not kept (metrics.h), beside the state */
    metrics_depth_text(&m->depth, qd, sizeof(qd));
    lat_round_text(&m->lat_target, qd, sizeof(qd));
    char grp[32] = "";
    if (rec->jobs.n > 1)   /* several jobs: the group's figures, then each job's */
        snprintf(grp, sizeof(grp), "group %u ", m->group + 1);
    printf("%s%s  IOPS %s (r %s w %s)  %s MB/s  lat mean %s p99.9 %s%s%s  %s%s%s%s\n", grp, num,
           iops, r, w, mb, mean, p999, dev, rec->target.sim ? " (simulated)" : "", ss,
           *qd ? "  " : "", qd,
           m->thermal.throttled == THERMAL_YES ? "  throttled" : "");   /* thermal_rounds.h */
    for (unsigned j = 0; m->n_jobs > 1 && j < m->n_jobs; j++)   /* several in the group */
        print_job_line(&m->jobs[j]);
    fflush(stdout);
}

/* Under a window's verdict: the rounds of it during which the drive throttled (thermal_rounds.h). */
static void say_throttled(const struct run_record *rec, unsigned first, unsigned last)
{
    char list[256];
    unsigned k = thermal_window_rounds(rec->rounds, rec->n_rounds, first, last, list,
                                       sizeof(list));
    if (k)
        printf("\n  the drive throttled during round%s %s of this window: its figures are the "
               "drive at its thermal limit, not its unthrottled rate", k == 1 ? "" : "s", list);
}

/* The summary's end: the drive's health, the results file. */
static void print_summary_end(const struct run_record *rec)
{
    if (rec->health_done) {
        char line[512];
        struct json_object *h = health_json(&rec->health_before, &rec->health_after);
        health_summary(h, line, sizeof(line));
        json_object_put(h);
        printf("\n%s", line);
    }
    printf("\nresults: %s\n", rec->results_path);
    fflush(stdout);
}

/* Several groups: each group's rounds and verdict, over its own rounds only. */
static void print_summary_groups(const struct run_record *rec)
{
    enum units_figure kind = metrics_figure_kind(rec->cfg.track);
    printf("\n%s: %u groups", rec->status, rec->jobs.n_groups);
    if (rec->unwritten)
        printf(" (the last round is not in the results file: it could not be written)");
    for (unsigned g = 0; g < rec->jobs.n_groups; g++) {
        const struct run_group *gr = &rec->groups[g];
        printf("\ngroup %u (", g + 1);
        for (unsigned j = gr->first_job; j < gr->first_job + gr->n_jobs; j++)
            printf("%s%s", j > gr->first_job ? ", " : "", rec->jobs.jobs[j].label);
        if (!gr->first_round) {
            printf("): not run");
            continue;
        }
        printf("): rounds %u-%u, %u measured", gr->first_round, gr->last_round, gr->measured);
        if (gr->steady_round) {
            char avg[32];
            units_format_figure(gr->steady.average, kind, avg, sizeof(avg));
            printf("; %s at round %u (rounds %u-%u, %s average %s)%s", gr->verdict.label,
                   gr->steady_round, gr->steady.first_round, gr->steady.last_round,
                   rec->cfg.track, avg, rec->target.sim ? " on a simulated drive" : "");
        } else if (gr->measured >= rec->cfg.criteria.window) {
            printf("; %s", gr->verdict.label[0] ? gr->verdict.label : "steady state NOT reached");
        } else {
            printf("; fewer rounds than a window (%u): no verdict", rec->cfg.criteria.window);
        }
        if (!gr->done)
            printf(" (%s before its rounds ended)", rec->status);
    }
}

static void print_summary(const struct run_record *rec)
{
    if (rec->jobs.n_groups > 1) {
        print_summary_groups(rec);
        print_summary_end(rec);
        return;
    }
    unsigned wdpc_rounds = rec->first_measure > 1 ? rec->first_measure - 1 : 0;
    printf("\n%s: %u %sround%s", rec->status, rec->measured, wdpc_rounds ? "measured " : "",
           rec->measured == 1 ? "" : "s");
    if (wdpc_rounds && rec->measured)   /* in the results' counting, as the round lines */
        printf(" (%u-%u)", wdpc_rounds + 1, wdpc_rounds + rec->measured);
    if (rec->unwritten)
        printf(" (the last is not in the results file: it could not be written)");
    if (wdpc_rounds)
        printf(" after %u WDPC round%s (%.2f fills, ended: %s)", wdpc_rounds,
               wdpc_rounds == 1 ? "" : "s",
               ds_fills(&rec->state, rec->state.wdpc_bytes), rec->wdpc_end ? rec->wdpc_end : "-");
    const struct steady_window *w = &rec->steady;
    enum units_figure kind = metrics_figure_kind(rec->cfg.track);
    if (rec->steady_round) {
        char avg[32], range[32], slope[32];
        units_format_figure(w->average, kind, avg, sizeof(avg));
        units_format_figure(100 * w->range / w->average, UNITS_FIG_PCT, range, sizeof(range));
        units_format_figure(100 * w->slope_excursion / w->average, UNITS_FIG_PCT, slope,
                            sizeof(slope));
        printf("; %s at round %u (rounds %u-%u, %s average %s, range %s <= %.0f%%, "
               "slope excursion %s <= %.0f%%)%s", rec->verdict.label, rec->steady_round,
               w->first_round, w->last_round, rec->cfg.track, avg, range,
               100 * rec->cfg.criteria.range_frac, slope, 100 * rec->cfg.criteria.slope_frac,
               rec->target.sim ? " on a simulated drive" : "");
    } else if (rec->measured >= rec->cfg.criteria.window) {
        printf("; %s", rec->verdict.label[0] ? rec->verdict.label : "steady state NOT reached");
    }
    if (rec->verdict.reason[0] && rec->measured >= rec->cfg.criteria.window)
        printf("\nnot SNIA steady state: %s", rec->verdict.reason);
    if (w->last_round && rec->measured >= rec->cfg.criteria.window)
        say_throttled(rec, w->first_round, w->last_round);   /* the window judged */
    fio_ss_print(rec);   /* a fio job's ss: what fio's criterion would have done */
    if (rec->last_window.last_round) {
        char avg[32];
        units_format_figure(rec->last_window.average, kind, avg, sizeof(avg));
        printf("\nlast rounds %u-%u: %s average %s, %s", rec->last_window.first_round,
               rec->last_window.last_round, rec->cfg.track, avg, rec->last_verdict.label);
        say_throttled(rec, rec->last_window.first_round, rec->last_window.last_round);
    }
    print_summary_end(rec);
}

/* After a round: the tracker, the WDPC's end, the measured window and its verdict. */
static void update_steady(struct run_record *rec, struct round_metrics *m)
{
    double v = NAN;
    metrics_value(m, rec->cfg.track, &v);
    rec->stimulus_bytes += (double)m->write.bytes;
    precond_track_push(&rec->track, v, ds_fills(&rec->state, rec->stimulus_bytes));
    const struct steady_criteria *c = &rec->cfg.criteria;
    const struct steady_guard *g = rec->wdpc ? &rec->cfg.guard : NULL;
    struct steady_window win;
    struct steady_guard_result gr;
    if (!strcmp(m->phase, "wdpc")) {
        bool ok = precond_track_eval(&rec->track, 1, c, g, &win, &gr);
        rec->guard = gr;
        const char *end = precond_wdpc_end(ds_fills(&rec->state, rec->state.wdpc_bytes),
                                           rec->cfg.wdpc_min_fills, rec->cfg.wdpc_max_fills, ok);
        if (*end) {
            rec->wdpc_end = end;
            rec->first_measure = m->round + 1;
        }
        return;
    }
    rec->measured++;
    if (rec->steady_round)
        return;
    /* Without preconditioning the guard is evaluated for the label only (burst, or write
     * saturation after a fill of the stimulus); the run stops at the first stable window. */
    const bool label_guard = rec->prep == DS_PREP_NONE && group_writes(rec);
    unsigned floor = rec->window_floor > rec->first_measure ? rec->window_floor
                                                            : rec->first_measure;
    floor = floor > rec->ss_floor ? floor : rec->ss_floor;   /* fio's ss_ramp */
    bool ok = precond_track_eval(&rec->track, floor, c,
                                 g ? g : label_guard ? &rec->cfg.guard : NULL, &win, &gr);
    if (!win.last_round)
        return;   /* fewer than a window of measured rounds */
    rec->steady = win;
    rec->guard = gr;
    /* Stop at the first window that may be called steady; without the preparation that steady
     * state needs, at the first stable one (the verdict says what it is). */
    bool judged = rec->wdpc ? ok : win.steady;
    ds_judge(rec->prep, group_writes(rec), win.steady,
             rec->wdpc || label_guard ? &gr : NULL, &rec->cfg.guard, rec->measured,
             &rec->verdict);
    ds_judge_ftl(rec->prep, rec->ftl, ds_fills(&rec->state, rec->state.fast_bytes),
                 group_writes(rec), &rec->verdict);
    metrics_judge_unwritten(rec->rounds, rec->n_rounds, win.first_round, win.last_round,
                            &rec->verdict);
    if (judged)
        rec->steady_round = m->round;
}

/* The first round a window of the running group may judge: the first measured one, and in a
 * later group its own first round (a window never mixes rounds of two groups). */
static unsigned group_floor(const struct run_record *rec)
{
    unsigned f = rec->first_measure;
    if (rec->group && rec->groups[rec->group].first_round > f)
        f = rec->groups[rec->group].first_round;
    return f;
}

/* The verdict when the rounds ended without a window to stop at: the last window evaluated. */
static void final_verdict(struct run_record *rec)
{
    const bool label_guard = rec->wdpc || (rec->prep == DS_PREP_NONE && group_writes(rec));
    if (rec->steady_round && rec->n_rounds > rec->steady_round) {
        /* the rounds went on (--all-rounds): what the last window is */
        struct steady_guard_result gr;
        precond_track_eval(&rec->track, group_floor(rec), &rec->cfg.criteria,
                           label_guard ? &rec->cfg.guard : NULL, &rec->last_window, &gr);
        if (rec->last_window.last_round) {
            ds_judge(rec->prep, group_writes(rec), rec->last_window.steady,
                     label_guard ? &gr : NULL, &rec->cfg.guard, rec->measured,
                     &rec->last_verdict);
            ds_judge_ftl(rec->prep, rec->ftl, ds_fills(&rec->state, rec->state.fast_bytes),
                         group_writes(rec), &rec->last_verdict);
            metrics_judge_unwritten(rec->rounds, rec->n_rounds, rec->last_window.first_round,
                                    rec->last_window.last_round, &rec->last_verdict);
        }
    }
    if (rec->steady_round)
        return;
    ds_judge(rec->prep, group_writes(rec), rec->steady.steady && rec->steady.last_round,
             rec->wdpc || (rec->prep == DS_PREP_NONE && group_writes(rec)) ? &rec->guard
                                                                             : NULL,
             &rec->cfg.guard, rec->measured, &rec->verdict);
    ds_judge_ftl(rec->prep, rec->ftl, ds_fills(&rec->state, rec->state.fast_bytes),
                 group_writes(rec), &rec->verdict);
    const bool win = rec->steady.last_round != 0;   /* else every measured round */
    metrics_judge_unwritten(rec->rounds, rec->n_rounds,
                            win ? rec->steady.first_round : group_floor(rec),
                            win ? rec->steady.last_round : rec->n_rounds, &rec->verdict);
}

/* --purge: the shared step, its record kept for the results. 0 or -1 with err. */
static int run_purge(struct run_record *rec, int fd, volatile sig_atomic_t *stop, char *err,
                     size_t errlen)
{
    struct run_ctx ctx = {&rec->target, fd, rec->out_dir, rec->engine, rec->weight,
                          &rec->sim_last, &rec->state, stop,
                          isatty(STDOUT_FILENO) && !rec->cfg.quiet};
    struct purge_plan plan;
    if (step_purge_plan(&ctx, rec->cfg.purge, &plan, err, errlen) != 0)
        return -1;
    if (!rec->cfg.quiet && !(ctx.live && plan.method != PURGE_NONE)) {   /* live: the step says it */
        printf("purge: %s (%s)%s\n", purge_method_name(plan.method), plan.argv_text,
               rec->target.sim ? " on the simulated drive" : "");
        fflush(stdout);
    }
    struct json_object *json;
    int ret = step_purge(&ctx, &plan, &json, err, errlen);
    if (rec->purge_json)
        json_object_put(rec->purge_json);
    rec->purge_json = json;
    return ret;
}

/* WIPC over the run's active range at the workload's compressibility (the shared step, its
 * record kept for the results). 0, 1 interrupted, -1. */
static int run_wipc(struct run_record *rec, int fd, volatile sig_atomic_t *stop, char *err,
                    size_t errlen)
{
    struct run_ctx ctx = {&rec->target, fd, rec->out_dir, rec->engine, rec->weight,
                          &rec->sim_last, &rec->state, stop,
                          isatty(STDOUT_FILENO) && !rec->cfg.quiet};
    struct wipc_spec w = WIPC_SPEC_DEFAULT(rec->range, rec->wl.compress_pct);
    if (!rec->cfg.quiet) {
        char b[32];
        units_format_size(step_wipc_bytes(&ctx, &w), b, sizeof(b));
        printf("WIPC: %s of sequential 128 KiB writes (%ux the active range)%s\n", b,
               PRECOND_WIPC_FILLS, rec->target.sim ? " on the simulated drive" : "");
        fflush(stdout);
    }
    struct round_metrics m;
    struct json_object *json;
    int ret = step_wipc(&ctx, &w, &m, &json, err, errlen);
    if (ret != 0)
        return ret;
    metrics_free(&m);
    if (rec->wipc_json)
        json_object_put(rec->wipc_json);
    rec->wipc_json = json;
    return 0;
}

/* --precondition fast: the pass through the run's engine at the spare factor chosen before it
 * (rec->op, run_fast_choose), in units of the stimulus's write size (fastpass_unit_of), at
 * QD 32 x max(workers, 4) threads, recorded as the fast pass, not as WIPC; the guard's lag and
 * WDPC's floor after it (core/fastprep.h fastprep_run). 0, 1 interrupted, -1 with err. */
static int run_fastpass(struct run_record *rec, int fd, volatile sig_atomic_t *stop, char *err,
                        size_t errlen)
{
    struct run_ctx ctx = {&rec->target, fd, rec->out_dir, rec->engine, rec->weight,
                          &rec->sim_last, &rec->state, stop,
                          isatty(STDOUT_FILENO) && !rec->cfg.quiet};
    const struct fast_prep fp = {rec->ftl, rec->op};
    struct fastprep_pass p = {.range = rec->range, .workers = rec->wl.workers,
                              .compress_pct = rec->wl.compress_pct, .seed = 48,
                              .who = rec->cfg.quiet ? NULL : "",
                              .guard_lag = fastprep_models(&rec->wl),
                              .stimulus_map = fastprep_map_said(&rec->wl, rec->fast_map_off),
                              .wdpc_min_fills = &rec->cfg.wdpc_min_fills,
                              .wdpc_given = rec->wdpc_fills_given};
    p.unit = fastpass_unit_of(&rec->wl, rec->range.start, &p.unit_basis);
    struct json_object *json = NULL;
    int rc = fastprep_run(&ctx, &fp, &p, &rec->cfg.guard, &json, NULL, err, errlen);
    if (rc != 0)
        return rc;
    if (rec->fast_json)
        json_object_put(rec->fast_json);
    rec->fast_json = json;
    return 0;
}

/* A file target's content before the rounds, and the layout when one is due (the shared
 * step), its record kept for the results. 0, 1 interrupted, -1 with err. */
static int run_layout(struct run_record *rec, int fd, volatile sig_atomic_t *stop, char *err,
                      size_t errlen)
{
    struct run_ctx ctx = {&rec->target, fd, rec->out_dir, rec->engine, rec->weight,
                          &rec->sim_last, &rec->state, stop,
                          isatty(STDOUT_FILENO) && !rec->cfg.quiet};
    struct json_object *json = NULL;
    int ret = step_layout(&ctx, &rec->range, rec->layout, &rec->wl, rec->cfg.quiet, &json, err,
                          errlen);
    if (json) {
        if (rec->layout_json)
            json_object_put(rec->layout_json);
        rec->layout_json = json;
    }
    return ret;
}

static const char *rounds_status(int code)
{
    return code == EXIT_INTERRUPTED ? "interrupted" : code == EXIT_OK ? "complete" : "failed";
}

/* --resume on a simulated drive: the replayed round must be the one the file holds (the model is
 * deterministic: the same seeds give the same I/O). 0, or -1 with the difference. */
static int resume_replay_check(struct json_object *was, const struct round_metrics *m, char *err,
                               size_t errlen)
{
    struct json_object *t = json_object_object_get(was, "total");
    int64_t ios = t ? json_object_get_int64(json_object_object_get(t, "ios")) : -1;
    if (ios != (int64_t)m->total.ios)
        return errf(err, errlen, "--resume: replaying round %u on the simulated drive gave %llu "
                    "I/Os where the results file holds %lld: not the same run", m->round,
                    (unsigned long long)m->total.ios, (long long)ios);
    return 0;
}

/* A round's tracked metric from its JSON: the figure at the vocabulary's path (metrics.h:
 * "iops" is total.iops, "write_lat_mean_us" write.lat_us.mean, ...). NAN when absent. */
static double resume_tracked(struct json_object *round, const char *name)
{
    const struct metric_def *d = metrics_def(name);
    return d ? jp_path(round, d->path) : NAN;
}

/* --resume, a run of several jobs: a recorded round's group (1-based in the file), and the
 * group's rounds so far. */
static void resume_round_group(struct run_record *rec, struct json_object *ro,
                               struct round_metrics *m)
{
    struct json_object *g = json_object_object_get(ro, "group");
    int v = g ? json_object_get_int(g) : 1;
    m->group = v >= 1 && (unsigned)v <= rec->jobs.n_groups ? (unsigned)v - 1 : 0;
    struct run_group *gr = &rec->groups[m->group];
    if (!gr->first_round)
        gr->first_round = m->round;
    gr->last_round = m->round;
}

/* --resume, a run of several groups: the groups before the one it stopped in keep their
 * recorded verdicts; a group whose rounds had ended is followed by the next, from its start. */
static void resume_groups(struct run_record *rec)
{
    struct json_object *groups = json_object_object_get(rec->cfg.resume, "groups");
    for (unsigned g = 0; g < rec->jobs.n_groups && groups; g++) {
        struct json_object *go = json_object_array_get_idx(groups, g);
        struct json_object *done = go ? json_object_object_get(go, "done") : NULL;
        struct json_object *ss = go ? json_object_object_get(go, "steady_state") : NULL;
        rec->groups[g].done = done && json_object_get_boolean(done);
        if (ss && (g < rec->group || rec->groups[g].done))
            rec->groups[g].steady_json = json_object_get(ss);
    }
    rec->resume_group = rec->group;
    if (rec->group + 1 < rec->jobs.n_groups && rec->groups[rec->group].done) {
        rec->group++;   /* the next group begins (group_begin), with its ramp */
        rec->measured = 0;
        rec->resume_group = UINT_MAX;
    }
}

/* --resume on a real target: the stopped run's rounds back into the record (their JSON text for
 * the file; round, phase, bytes written, state and tracked value for the bookkeeping) and the
 * drive's state as the last of them left it. A window may not start before the next round. */
static void resume_restore(struct run_record *rec)
{
    struct json_object *doc = rec->cfg.resume;
    struct json_object *rounds = json_object_object_get(doc, "rounds");
    size_t n = json_object_is_type(rounds, json_type_array) ? json_object_array_length(rounds) : 0;
    rec->rounds = xcalloc(n ? n : 1, sizeof(*rec->rounds));
    rec->cache.text = xcalloc(n ? n : 1, sizeof(*rec->cache.text));
    rec->cache.len = xcalloc(n ? n : 1, sizeof(*rec->cache.len));
    for (size_t i = 0; i < n; i++) {
        struct json_object *ro = json_object_array_get_idx(rounds, i);
        struct round_metrics *m = &rec->rounds[i];
        m->round = (unsigned)(i + 1);
        const char *ph = json_object_get_string(json_object_object_get(ro, "phase"));
        m->phase = ph && !strcmp(ph, "wdpc") ? "wdpc" : "measure";
        m->write.bytes = (uint64_t)json_object_get_int64(
            json_object_object_get(json_object_object_get(ro, "write"), "bytes"));
        resume_round_group(rec, ro, m);
        m->state = rec->state;
        results_state_from_json(json_object_object_get(ro, "state"), &m->state);
        rec->state = m->state;
        size_t len;
        const char *t = json_object_to_json_string_length(
            ro, JSON_C_TO_STRING_SPACED | JSON_C_TO_STRING_NOSLASHESCAPE, &len);
        rec->cache.text[i] = xstrdup(t);
        rec->cache.len[i] = len;
        rec->stimulus_bytes += (double)m->write.bytes;
        precond_track_push(&rec->track, resume_tracked(ro, rec->cfg.track),
                           ds_fills(&rec->state, rec->stimulus_bytes));
        if (!strcmp(m->phase, "measure")) {
            if (!rec->measured && !m->group)
                rec->first_measure = m->round;
            rec->measured = m->group == rec->group ? rec->measured + 1 : 1;
            rec->group = m->group;
        }
    }
    rec->n_rounds = rec->cache.n = (unsigned)n;
    resume_groups(rec);
    if (rec->wdpc && rec->measured)
        rec->wdpc_end = "guard";   /* it had ended: the measured rounds had begun */
    if (!rec->first_measure)
        rec->first_measure = rec->wdpc ? 0 : 1;
    rec->window_floor = (unsigned)n + 1;
    struct json_object *pc = json_object_object_get(doc, "preconditioning");
    struct json_object *w = pc ? json_object_object_get(pc, "wipc") : NULL;
    if (w && json_object_is_type(w, json_type_object))
        rec->wipc_json = json_object_get(w);
    struct json_object *p = pc ? json_object_object_get(pc, "purge") : NULL;
    if (p && json_object_is_type(p, json_type_object))
        rec->purge_json = json_object_get(p);
}

/* The "resumed" record: every resume of this run, the latest last. */
static void resume_record(struct run_record *rec, const char *how)
{
    struct json_object *old = json_object_object_get(rec->cfg.resume, "resumed");
    rec->resumed = json_object_is_type(old, json_type_array) ? json_object_get(old)
                                                             : json_object_new_array();
    struct json_object *r = json_object_new_object();
    char now[32];
    iso8601_now(now, sizeof(now));
    json_object_object_add(r, "at", json_object_new_string(now));
    json_object_object_add(r, "after_round", json_object_new_int((int)rec->resumed_rounds));
    json_object_object_add(r, "how", json_object_new_string(how));
    json_object_array_add(rec->resumed, r);
}

/* --resume: what the drive is after the gap, and how the run goes on. Returns 0, 1 interrupted,
 * -1 with rec->error. */
static int resume_begin(struct run_record *rec, int fd, volatile sig_atomic_t *stop)
{
    struct json_object *rounds = json_object_object_get(rec->cfg.resume, "rounds");
    rec->resumed_rounds = json_object_is_type(rounds, json_type_array)
                              ? (unsigned)json_object_array_length(rounds) : 0;
    rec->replay = rec->target.sim != NULL;
    if (rec->replay) {
        resume_record(rec, "replayed: a simulated drive's state does not outlive its process, so "
                           "the run was repeated from its start; the rounds before the stop were "
                           "reproduced exactly (checked) and not printed again");
        return 0;   /* then as a new run */
    }
    resume_restore(rec);
    if (rec->cfg.resume_as_is || rec->prep == DS_PREP_NONE) {
        resume_record(rec, rec->prep == DS_PREP_NONE
                               ? "continued after the last complete round (no preconditioning to "
                                 "repeat); the drive was not held between the stop and the "
                                 "resume: what happened to it then is unknown, so no window spans "
                                 "the gap"
                               : "continued as it was (--resume-as-is), without preconditioning "
                                 "again; the drive was not held between the stop and the resume: "
                                 "its state then is unknown, so no window spans the gap");
        return 0;
    }
    char err[ERR_LEN];
    int w = run_wipc(rec, fd, stop, err, sizeof(err));
    if (w != 0) {
        if (w < 0)
            snprintf(rec->error, sizeof(rec->error), "WIPC: %s", err);
        return w;
    }
    if (rec->wdpc) {   /* the stimulus preconditions again before the rounds go on */
        rec->wdpc_end = NULL;
        rec->first_measure = 0;
        ds_stimulus(&rec->state);
    }
    resume_record(rec, rec->wdpc ? "preconditioned again (WIPC, then WDPC until the fill guard "
                                   "passes) because the drive was not held between the stop and "
                                   "the resume; the new WDPC rounds follow the recorded ones"
                                 : "preconditioned again (WIPC) because the drive was not held "
                                   "between the stop and the resume");
    return 0;
}

/* The running group's job labels (NULL with one job in the run). */
static const char *const *group_labels(struct run_record *rec)
{
    static const char *labels[256];
    const struct run_group *g = &rec->groups[rec->group];
    if (rec->jobs.n < 2)
        return NULL;
    for (unsigned j = 0; j < g->n_jobs && j < 256; j++)
        labels[j] = rec->jobs.jobs[g->first_job + j].label;
    return labels;
}

/* A run of several jobs: a job of the round with too few I/Os to measure (metrics.h; an
 * engine that filled no figures for it too): true, with why naming the job. */
static bool job_too_few(const struct run_record *rec, const struct round_metrics *m, char *why,
                        size_t len)
{
    const struct run_group *g = &rec->groups[rec->group];
    for (unsigned j = 0; j < m->n_jobs && j < g->n_jobs; j++) {
        char w[256];
        const struct wl_job *job = &rec->jobs.jobs[g->first_job + j];
        if (metrics_too_few(&m->jobs[j], wl_max_bs(&job->wl), w, sizeof(w))) {
            snprintf(why, len, "job %s %s", job->label, w);
            return true;
        }
    }
    return false;
}

/* The rounds: WDPC rounds (when the preparation asks for them), then up to max_rounds measured
 * rounds, each recorded and written before it is printed. Returns an exit code. */
static int run_rounds(struct run_record *rec, struct worker_pool *pool, int fd,
                      volatile sig_atomic_t *stop)
{
    struct run_config *c = &rec->cfg;
    char err[ERR_LEN];
    struct round_limits lim = {
        .time_ns = c->round_time_ns,
        .bytes = c->round_bytes,
        .sample_ns = c->sample_ns,
    };
    const bool writes = group_writes(rec);
    if (!rec->window_floor)   /* a resume on a real target has set these from the file */
        rec->first_measure = rec->wdpc ? 0 : 1;   /* 0: not known until the WDPC ends */
    struct json_object *was = rec->replay ? json_object_object_get(c->resume, "rounds") : NULL;
    for (unsigned r = rec->n_rounds + 1; rec->measured < c->max_rounds; r++) {
        if (*stop)
            return EXIT_INTERRUPTED;
        if (c->time_limit_ns && rec->spent_s >= (double)c->time_limit_ns / 1e9) {
            rec->limit_hit = true;   /* --time-limit: no round starts past it */
            break;
        }
        const bool in_wdpc = rec->wdpc && !rec->wdpc_end;
        char label[32];
        snprintf(label, sizeof(label), in_wdpc ? "wdpc-%03u" : "round-%02u", r);
        lim.label = label;
        /* a terminal: the live line inside the round, at least once a second (live.h) */
        const bool live = isatty(STDOUT_FILENO) && !c->quiet && !(was && r <= rec->resumed_rounds);
        struct live_meter lm = {.length_s = (double)c->round_time_ns / 1e9,
                                .target_bytes = (double)c->round_bytes * rec->weight,
                                .weight = rec->weight, .sim = rec->target.sim != NULL,
                                .mb_s = c->track && strstr(c->track, "mb_s") != NULL};
        snprintf(lm.prefix, sizeof(lm.prefix), "%s %u", in_wdpc ? "wdpc" : "round", r);
        worker_pool_set_progress(pool, live ? live_meter_hook : NULL, &lm);
        int rr = worker_pool_round(pool, &lim, err, sizeof(err));
        if (live && lm.printed)
            live_clear();
        if (rr != 0) {
            snprintf(rec->error, sizeof(rec->error), "round %u: %s", r, err);
            return EXIT_FAILURE_RUN;
        }
        if (*stop)   /* the round was cut short: do not record it */
            return EXIT_INTERRUPTED;
        rec->rounds = xrealloc(rec->rounds, (rec->n_rounds + 1) * sizeof(*rec->rounds));
        struct round_metrics *m = &rec->rounds[rec->n_rounds];
        run_pool_job_metrics(pool, c->sample_ns, rec->weight, group_labels(rec), m);
        m->group = rec->group;
        if (!rec->groups[rec->group].first_round)
            rec->groups[rec->group].first_round = r;
        rec->groups[rec->group].last_round = r;
        rec->spent_s += m->elapsed_s;
        run_device_round(&rec->target, rec->weight, &rec->sim_last, m);
        m->round = r;
        m->phase = in_wdpc ? "wdpc" : "measure";
        if (!m->unwritten.present)   /* the simulated drive counts them; others: the range */
            ds_reads_estimate(&rec->state, (double)m->read.bytes, &m->unwritten);
        ds_write(&rec->state, (double)m->write.bytes, ds_prep_wdpc(rec->prep) && writes);
        ds_cover(&rec->state, (double)m->write.bytes, run_cover_kind(&rec->wl));
        if (writes && rec->state.content == DS_CONTENT_EXTENTS &&
            run_probe_content(fd, &rec->range, rec->weight, &rec->state, err, sizeof(err)) != 0) {
            snprintf(rec->error, sizeof(rec->error), "round %u: %s", r, err);
            return EXIT_FAILURE_RUN;
        }
        m->state = rec->state;
        rec->n_rounds++;
        char why[256];
        if (metrics_too_few(m, group_max_bs(rec), why, sizeof(why))) {
            /* recorded, and the run fails saying why (metrics.h: the minimum) */
            snprintf(rec->error, sizeof(rec->error), "round %u %s", r, why);
            return EXIT_FAILURE_RUN;
        }
        if (job_too_few(rec, m, why, sizeof(why))) {   /* each job measured, or said why not */
            snprintf(rec->error, sizeof(rec->error), "round %u, %s", r, why);
            return EXIT_FAILURE_RUN;
        }
        if (in_wdpc && m->write.bytes == 0) {
            snprintf(rec->error, sizeof(rec->error), "WDPC round %u wrote nothing", r);
            return EXIT_FAILURE_RUN;
        }
        update_steady(rec, m);
        const bool replayed = was && r <= rec->resumed_rounds;
        if (replayed && resume_replay_check(json_object_array_get_idx(was, r - 1), m, rec->error,
                                            sizeof(rec->error)) != 0)
            return EXIT_FAILURE_RUN;
        iso8601_now(rec->updated, sizeof(rec->updated));
        if (results_write(rec, err, sizeof(err)) != 0) {
            snprintf(rec->error, sizeof(rec->error), "%s", err);
            rec->unwritten = true;
            return EXIT_FAILURE_RUN;
        }
        if (!c->quiet && !replayed)   /* the replayed rounds were printed by the run before */
            print_round(rec, m);
        if (c->stop_at_steady && rec->steady_round)
            break;
    }
    return EXIT_OK;
}

/* The target made and opened, the results folder made, the state before anything is written
 * taken and the first results written ("running"). 0, or -1 with err (*fd set when opened). */
static int run_start(struct run_record *rec, int *fd, char *err, size_t errlen)
{
    const struct run_config *c = &rec->cfg;
    const bool writes = run_writes(rec) || rec->prep != DS_PREP_NONE ||
                        c->purge != PURGE_NONE || rec->layout;
    if (rec->target.kind == TARGET_FILE &&
        (!rec->target.exists || rec->target.current_size < rec->target.capacity)) {
        if (target_create_file(&rec->target, err, errlen) != 0)
            return -1;
    }
    if (rec->target.kind != TARGET_SIM && rec->target.kind != TARGET_REMOTE) {
        rec->target.buffered = rec->wl.buffered;   /* direct=0 (engine_keys_check noted it) */
        *fd = target_open(&rec->target, writes, err, errlen);
        if (*fd < 0)
            return -1;
    }
    if (file_mkdir_p(rec->out_dir, err, errlen) != 0)
        return -1;

    if (rec->target.sim)
        sim_stats(rec->target.sim->dev, &rec->sim_last);
    ds_init(&rec->state, (double)rec->range.len * rec->weight, rec->target.sim != NULL);
    health_collect(&rec->target, &rec->health_before);   /* before purge, WIPC and rounds */
    rec->health_taken = true;
    char warn[ERR_LEN];
    if (health_warning_line(&rec->health_before, warn, sizeof(warn)))
        fprintf(stderr, "ptsbench: warning: %s\n", warn);
    iso8601_now(rec->started, sizeof(rec->started));
    memcpy(rec->updated, rec->started, sizeof(rec->updated));
    rec->status = "running";
    return results_write(rec, err, errlen);
}

/* --resume: the stopped run's state taken up, and said. EXIT_OK or the run's exit code. */
static int run_resume_step(struct run_record *rec, int fd, volatile sig_atomic_t *stop)
{
    int rb = resume_begin(rec, fd, stop);
    if (rb != 0)
        return rb > 0 ? EXIT_INTERRUPTED : EXIT_FAILURE_RUN;
    if (!rec->cfg.quiet)
        printf("resuming after round %u: %s\n", rec->resumed_rounds,
               json_object_get_string(json_object_object_get(
                   json_object_array_get_idx(rec->resumed,
                                             json_object_array_length(rec->resumed) - 1),
                   "how")));
    return EXIT_OK;
}

/* The results written after a step; EXIT_OK, or EXIT_FAILURE_RUN with rec->error. */
static int run_write_step(struct run_record *rec)
{
    char err[ERR_LEN];
    if (results_write(rec, err, sizeof(err)) == 0)
        return EXIT_OK;
    snprintf(rec->error, sizeof(rec->error), "%s", err);
    return EXIT_FAILURE_RUN;
}

/* The steps before the rounds: purge and WIPC (unless a resume on a real target keeps the
 * recorded ones), the stimulus begun, the layout; each recorded in the results. EXIT_OK or the
 * run's exit code, with rec->error on a failure. */
static int run_before_rounds(struct run_record *rec, int fd, volatile sig_atomic_t *stop)
{
    const struct run_config *c = &rec->cfg;
    char err[ERR_LEN];
    const bool fresh = !c->resume || rec->replay;
    if (c->purge != PURGE_NONE && fresh) {
        if (run_purge(rec, fd, stop, err, sizeof(err)) != 0) {
            snprintf(rec->error, sizeof(rec->error), "purge: %s", err);
            results_write(rec, err, sizeof(err));   /* the failed purge is part of the results */
            return EXIT_FAILURE_RUN;
        }
        int wc = run_write_step(rec);
        if (wc != EXIT_OK)
            return wc;
    }
    if (rec->prep != DS_PREP_NONE && fresh) {
        int w = c->fast_pass ? run_fastpass(rec, fd, stop, err, sizeof(err))
                              : run_wipc(rec, fd, stop, err, sizeof(err));
        if (w != 0) {
            if (w < 0)
                snprintf(rec->error, sizeof(rec->error), "%s: %s",
                         c->fast_pass ? "fast pass" : "WIPC", err);
            return w > 0 ? EXIT_INTERRUPTED : EXIT_FAILURE_RUN;
        }
        int wc = run_write_step(rec);
        if (wc != EXIT_OK)
            return wc;
    }
    if (fresh)
        ds_stimulus(&rec->state);
    int l = run_layout(rec, fd, stop, err, sizeof(err));
    if (l != 0) {
        if (l < 0)
            snprintf(rec->error, sizeof(rec->error), "%s", err);
        results_write(rec, err, sizeof(err));   /* the layout's record is part of them */
        return l > 0 ? EXIT_INTERRUPTED : EXIT_FAILURE_RUN;
    }
    return EXIT_OK;
}

/* The workers started on the target; NULL with rec->error. */
static struct worker_pool *run_start_pool(struct run_record *rec, int fd,
                                          volatile sig_atomic_t *stop)
{
    const struct run_config *c = &rec->cfg;
    char err[ERR_LEN];
    struct engine_config base;
    char artifacts[4200];
    run_engine_base(&rec->target, fd, rec->out_dir, artifacts, sizeof(artifacts), &base);
    base.remotes = c->remotes;
    base.n_remotes = c->n_remotes;
    base.match_native = c->match_native;
    const struct run_group *g = &rec->groups[rec->group];
    struct engine_job jobs[256];
    unsigned n = g->n_jobs < 256 ? g->n_jobs : 256;
    for (unsigned j = 0; j < n; j++) {
        const struct wl_job *job = &rec->jobs.jobs[g->first_job + j];
        jobs[j] = (struct engine_job){.wl = &job->wl, .range = &rec->ranges[g->first_job + j],
                                      .label = rec->jobs.n > 1 ? job->label : job->wl.name};
    }
    if (rec->jobs.n == 1)   /* one job: the run's own workload and range, as they always were */
        jobs[0] = (struct engine_job){.wl = &rec->wl, .range = &rec->range, .label = rec->wl.name};
    struct worker_pool *pool = worker_pool_start_jobs(jobs, n, rec->engine, &base, stop, err,
                                                      sizeof(err));
    if (!pool)
        snprintf(rec->error, sizeof(rec->error), "%s", err);
    return pool;
}

/* ramp_time (fio's): the workload runs this long before anything is recorded; what it wrote
 * counts for the drive's state. EXIT_OK or the run's exit code, with rec->error. */
static int run_ramp(struct run_record *rec, struct worker_pool *pool,
                    volatile sig_atomic_t *stop)
{
    char err[ERR_LEN];
    const uint64_t ramp_ns = group_ramp_ns(rec);
    if (!rec->cfg.quiet)
        printf("ramp: %.3g s of the workload before the first round%s (not recorded)\n",
               (double)ramp_ns / 1e9, rec->jobs.n_groups > 1 ? " of the group" : "");
    struct round_limits ramp = {.time_ns = ramp_ns, .sample_ns = 1000000000ull,
                                .label = "ramp"};
    if (worker_pool_round(pool, &ramp, err, sizeof(err)) != 0) {
        snprintf(rec->error, sizeof(rec->error), "ramp: %s", err);
        return EXIT_FAILURE_RUN;
    }
    struct round_metrics rm;
    run_pool_metrics(pool, 1000000000ull, rec->weight, &rm);
    rec->spent_s += rm.elapsed_s;
    ds_write(&rec->state, (double)rm.write.bytes, false);
    ds_cover(&rec->state, (double)rm.write.bytes, run_cover_kind(&rec->wl));
    metrics_free(&rm);
    if (rec->target.sim)
        sim_stats(rec->target.sim->dev, &rec->sim_last);
    return *stop ? EXIT_INTERRUPTED : EXIT_OK;
}

/* The group's figures kept (results: "groups"). */
static void group_save(struct run_record *rec)
{
    struct run_group *g = &rec->groups[rec->group];
    g->measured = rec->measured;
    g->steady_round = rec->steady_round;
    g->steady = rec->steady;
    g->guard = rec->guard;
    g->verdict = rec->verdict;
    g->last_window = rec->last_window;
    g->last_verdict = rec->last_verdict;
}

/* The end of a run that started: the verdict, the workers stopped, the target closed, the
 * health after, the last results written, the error and the summary printed. The exit code. */
static int run_finish(struct run_record *rec, struct worker_pool *pool, int fd, int code)
{
    char err[ERR_LEN];
    rec->status = rounds_status(code);
    final_verdict(rec);
    if (rec->groups && rec->group < rec->jobs.n_groups)
        group_save(rec);
    worker_pool_stop(pool);
    if (fd >= 0)
        close(fd);
    health_collect(&rec->target, &rec->health_after);
    rec->health_done = true;
    iso8601_now(rec->updated, sizeof(rec->updated));
    const bool write_failed = results_write(rec, err, sizeof(err)) != 0;
    if (write_failed)
        code = EXIT_FAILURE_RUN;
    if (rec->error[0])
        fprintf(stderr, "ptsbench: %s\n", rec->error);
    if (write_failed && strcmp(err, rec->error) != 0)   /* not the same failure said twice */
        fprintf(stderr, "ptsbench: %s\n", err);
    if (!rec->cfg.quiet || code != EXIT_OK)
        print_summary(rec);
    return code;
}

/* A group begins: its first job's workload is the run's current one, and a later group's
 * steady state starts afresh (its windows begin at its own first round). */
static void group_begin(struct run_record *rec)
{
    const struct run_group *g = &rec->groups[rec->group];
    if (rec->jobs.n_groups > 1)
        rec->wl = rec->jobs.jobs[g->first_job].wl;
    if (rec->group == 0 || (g->first_round && rec->cfg.resume && rec->group == rec->resume_group))
        return;   /* the first group, or the one a resume goes on in */
    rec->measured = 0;
    rec->steady_round = 0;
    memset(&rec->steady, 0, sizeof(rec->steady));
    memset(&rec->guard, 0, sizeof(rec->guard));
    memset(&rec->verdict, 0, sizeof(rec->verdict));
    memset(&rec->last_window, 0, sizeof(rec->last_window));
    memset(&rec->last_verdict, 0, sizeof(rec->last_verdict));
    rec->window_floor = rec->n_rounds + 1;
}

/* One group: its jobs' workers started, its ramp, its rounds, its verdict; the pool is left in
 * *pool. EXIT_OK or the run's exit code. */
static int run_group(struct run_record *rec, int fd, volatile sig_atomic_t *stop,
                     struct worker_pool **pool)
{
    group_begin(rec);
    if (rec->jobs.n_groups > 1 && !rec->cfg.quiet) {
        const struct run_group *g = &rec->groups[rec->group];
        printf("group %u of %u: %u job%s at once\n", rec->group + 1, rec->jobs.n_groups,
               g->n_jobs, g->n_jobs == 1 ? "" : "s");
    }
    *pool = run_start_pool(rec, fd, stop);
    if (!*pool)
        return EXIT_FAILURE_RUN;
    int code = EXIT_OK;
    if (group_ramp_ns(rec) && !(rec->cfg.resume && rec->group == rec->resume_group))
        code = run_ramp(rec, *pool, stop);
    if (code == EXIT_OK)
        code = run_rounds(rec, *pool, fd, stop);
    if (code == EXIT_OK) {
        final_verdict(rec);
        rec->groups[rec->group].done = true;
    }
    group_save(rec);
    return code;
}

int run_execute(struct run_record *rec, volatile sig_atomic_t *stop)
{
    struct run_config *c = &rec->cfg;
    char err[ERR_LEN];
    int fd = -1, code = EXIT_OK;
    struct worker_pool *pool = NULL;

    if (run_start(rec, &fd, err, sizeof(err)) != 0) {
        if (fd >= 0)
            close(fd);
        fprintf(stderr, "ptsbench: %s\n", err);
        return EXIT_FAILURE_RUN;
    }
    if (!c->quiet)
        run_print_plan(rec);
    if (c->resume)
        code = run_resume_step(rec, fd, stop);
    if (code == EXIT_OK)
        code = run_before_rounds(rec, fd, stop);
    for (; code == EXIT_OK && rec->group < rec->jobs.n_groups; rec->group++) {
        code = run_group(rec, fd, stop, &pool);
        if (code != EXIT_OK || rec->group + 1 == rec->jobs.n_groups)
            break;   /* the last group's pool is stopped by run_finish */
        worker_pool_stop(pool);
        pool = NULL;
    }
    return run_finish(rec, pool, fd, code);
}

void run_record_free(struct run_record *rec)
{
    for (unsigned i = 0; i < rec->n_rounds; i++)
        metrics_free(&rec->rounds[i]);
    free(rec->rounds);
    precond_track_free(&rec->track);
    if (rec->wipc_json)
        json_object_put(rec->wipc_json);
    if (rec->fast_json)
        json_object_put(rec->fast_json);
    rec->fast_json = NULL;
    if (rec->purge_json)
        json_object_put(rec->purge_json);
    rec->purge_json = NULL;
    if (rec->layout_json)
        json_object_put(rec->layout_json);
    rec->layout_json = NULL;
    if (rec->resumed)
        json_object_put(rec->resumed);
    rec->wipc_json = rec->resumed = NULL;
    results_cache_free(&rec->cache);
    free(rec->ranges);
    for (unsigned g = 0; rec->groups && g < rec->jobs.n_groups; g++)
        if (rec->groups[g].steady_json)
            json_object_put(rec->groups[g].steady_json);
    free(rec->groups);
    rec->ranges = NULL;
    rec->groups = NULL;
    wl_jobset_free(&rec->jobs);
    placement_free(&rec->place);
    target_release(&rec->target);
    rec->rounds = NULL;
    rec->n_rounds = 0;
}
