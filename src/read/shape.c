/* shape.c — the shape of results documents (see shape.h), as tables: a table of rules is one
 * kind of object (a round, a steady-state window, a suite element), applied at every path where
 * such an object lives. */
#include "read/shape.h"

#include <json-c/json.h>
#include <stdio.h>
#include <string.h>

#include "lib/json_path.h"
#include "lib/util.h"

#define U32 4294967295.0
#define U64 18446744073709551615.0
#define ROUNDS 1e9                 /* a round number: far more than any run has */

/* figures: finite or null; containers: absent or of their type (null for an object or array
 * that is not an element of an array: a record not made) */
#define NUM(p) {p, JP_NUMBER, true, 0, 0}
#define RANGE(p, lo, hi) {p, JP_NUMBER, true, lo, hi}
#define PCT(p) {p, JP_NUMBER, true, 0, 100}
#define COUNT(p) {p, JP_NUMBER, true, 0, U32}
#define OBJ(p) {p, JP_OBJECT, true, 0, 0}
#define ELEM(p) {p, JP_OBJECT, false, 0, 0}
#define ARR(p) {p, JP_ARRAY, true, 0, 0}
#define STR(p) {p, JP_STRING, true, 0, 0}
#define NAME(p) {p, JP_STRING, false, 0, 0}    /* an identity: ptsbench always writes one */

struct shape {
    const char *at;            /* where the objects are ("" the document itself) */
    const struct jp_rule *rules;
    size_t n;
};
#define SHAPE(at, rules) {at, rules, sizeof(rules) / sizeof(rules[0])}

/* ---- kinds of objects -------------------------------------------------------------------- */

static const struct jp_rule doc_common[] = {
    STR("schema"), STR("status"),
    OBJ("target"), RANGE("target.capacity_bytes", 0, U64), COUNT("target.logical_sector"),
    COUNT("target.physical_sector"), OBJ("target.simulated"),
    COUNT("target.simulated.time_scale_k"),
    OBJ("engine"), OBJ("host"), OBJ("run"), OBJ("state"), OBJ("spec"),
    OBJ("placement"), ARR("placement.workers"), STR("placement.mode"),
    OBJ("compliance"), ARR("compliance.notes"), ARR("notes"),
    OBJ("preconditioning"), OBJ("preconditioning.purge"), OBJ("preconditioning.wipc"),
    OBJ("preconditioning.wdpc"), NUM("preconditioning.wipc.fills"),
    NUM("preconditioning.wdpc.fills"), RANGE("preconditioning.wdpc.rounds", 0, ROUNDS),
    OBJ("preconditioning.fast"), NUM("preconditioning.fast.fills"),
    NUM("preconditioning.fast.rho"), STR("preconditioning.fast.rho_source"),
    OBJ("steady_state"), OBJ("steady_state.window"), RANGE("steady_state.round", 0, ROUNDS),
    OBJ("last_window"), OBJ("last_window.window"),
    OBJ("run.track"), OBJ("steady_state.track"), OBJ("last_window.track"),
};

/* A tracking variable's parts ("track" beside its name "tracking", read/tracking.h). */
static const struct jp_rule track[] = {
    STR("metric"), RANGE("bs", 0, U32), PCT("read_pct"), COUNT("threads"), COUNT("qd"),
};

/* A workload object (results.c:results_workload_json): a run's "workload", a profile point's
 * "stimulus". */
static const struct jp_rule workload_obj[] = {
    STR("spec"), ARR("block_sizes"), ELEM("block_sizes.*"), RANGE("block_sizes.*.bytes", 0, U32),
    PCT("block_sizes.*.weight_pct"), PCT("read_pct"), PCT("random_pct"), PCT("compress_pct"),
    COUNT("workers"), COUNT("qd"), NUM("outstanding_ios"), OBJ("active_range"),
};

/* A steady-state window (run, profile point, suite variable). */
static const struct jp_rule window[] = {
    RANGE("first_round", 0, ROUNDS), RANGE("last_round", 0, ROUNDS), NUM("average"),
    NUM("min"), NUM("max"), NUM("range"), NUM("slope"), NUM("intercept"),
    NUM("slope_excursion"), NUM("range_allowed"), NUM("slope_excursion_allowed"),
};

/* One direction of a round (results.c:results_round_json). */
#define DIRECTION(d)                                                                         \
    OBJ(d), NUM(d ".iops"), NUM(d ".mb_s"), NUM(d ".mib_s"), NUM(d ".ios"), NUM(d ".bytes"), \
    OBJ(d ".lat_us"), NUM(d ".lat_us.count"), NUM(d ".lat_us.min"), NUM(d ".lat_us.mean"),   \
    NUM(d ".lat_us.max"), OBJ(d ".lat_us.percentiles"), NUM(d ".lat_us.percentiles.*")
#define SERIES(s) ARR("samples." s), NUM("samples." s ".*")

/* The figures object (results.c:results_figures_add): run rounds and their jobs, suite elements
 * and table rows, DIRTH's operating points, profile results. "trim" is there only when the
 * record issued trims (fio's rw=trim, randtrim, trimwrite): optional, but of the same shape. */
static const struct jp_rule figures[] = {
    DIRECTION("read"), DIRECTION("write"), DIRECTION("trim"), DIRECTION("total"),
};

/* A round of a run, of a profile point or of a profile group's preconditioning. */
static const struct jp_rule round_obj[] = {
    RANGE("round", 0, ROUNDS), NUM("elapsed_s"), STR("phase"),
    OBJ("device"), NUM("device.*"),
    OBJ("state"), NUM("state.written_fills"), NUM("state.wdpc_fills"), NUM("state.wipc_fills"),
    NUM("state.fast_fills"), NUM("state.written_bytes"),
    OBJ("samples"), NUM("samples.interval_s"), SERIES("iops"), SERIES("read_iops"),
    SERIES("write_iops"), SERIES("mb_s"), SERIES("read_mb_s"), SERIES("write_mb_s"),
    SERIES("trim_iops"), SERIES("trim_mb_s"), SERIES("lat_mean_us"), SERIES("read_lat_mean_us"),
    SERIES("write_lat_mean_us"), ARR("lat_hist.trim"),
    OBJ("data"), ARR("hosts"), ELEM("hosts.*"), NUM("hosts.*.trim_iops"),
    RANGE("hosts.*.trim_bytes", 0, U64), NUM("hosts.*.trim_lat_mean_us"),
    NAME("hosts.*.host"), NUM("hosts.*.iops"), NUM("hosts.*.runtime_s"),
    OBJ("hosts.*.lat_hist"), ARR("hosts.*.lat_hist.read"), ARR("hosts.*.lat_hist.write"),
    ARR("hosts.*.lat_hist.trim"), OBJ("hosts.*.disk"), STR("hosts.*.disk.name"),
    PCT("hosts.*.disk.util_pct"), RANGE("hosts.*.disk.read_ios", 0, U64),
    RANGE("hosts.*.disk.write_ios", 0, U64), OBJ("hosts.*.health"), STR("hosts.*.health.source"),
    STR("hosts.*.health.note"),
    ARR("jobs"), ELEM("jobs.*"),
};

/* ---- ptsbench.run ------------------------------------------------------------------------ */

static const struct jp_rule run_doc[] = {
    OBJ("workload"), ARR("rounds"), ELEM("rounds.*"),
};

static const struct shape run_shapes[] = {
    SHAPE("", doc_common), SHAPE("", run_doc), SHAPE("workload", workload_obj),
    SHAPE("rounds.*", round_obj), SHAPE("rounds.*", figures), SHAPE("rounds.*.jobs.*", figures),
    SHAPE("rounds.*.hosts.*", figures),
    SHAPE("steady_state.window", window), SHAPE("last_window.window", window),
    SHAPE("run.track", track), SHAPE("steady_state.track", track),
    SHAPE("last_window.track", track),
};

/* ---- ptsbench.suite ---------------------------------------------------------------------- */

static const struct jp_rule suite_doc[] = {
    ARR("tests"), ELEM("tests.*"), COUNT("tests.*.threads"), COUNT("tests.*.qd"),
    NUM("tests.*.element_time_s"), NAME("tests.*.name"), ARR("tests.*.subtests"),
    ELEM("tests.*.subtests.*"), OBJ("spec.write_cache"), NUM("spec.threads"), NUM("spec.qd"),
    NUM("spec.active_range_pct"), NUM("time_scale"),
};

/* A table row or a round's element: its identity beside the figures object. */
static const struct jp_rule element[] = {
    RANGE("bs", 0, U32), PCT("rwmix_read"), NUM("elapsed_s"), OBJ("device"), NUM("device.*"),
    NUM("read.lat_us.max_round_mean"), NUM("write.lat_us.max_round_mean"),
    NUM("total.lat_us.max_round_mean"),
};

#define OPERATING_POINT(m)                                                                   \
    OBJ("operating_points." m),                                                              \
    COUNT("operating_points." m ".qd"), COUNT("operating_points." m ".threads"),             \
    NUM("operating_points." m ".sweep_iops"), NUM("operating_points." m ".sweep_lat_mean_us"), \
    OBJ("operating_points." m ".histogram"), ARR("operating_points." m ".histogram.buckets"), \
    {"operating_points." m ".histogram.buckets.*", JP_ARRAY, false, 0, 0},                   \
    NUM("operating_points." m ".histogram.buckets.*.*")

/* A subtest: its table, rounds, steady state, and the records of HIR, XSR and DIRTH. */
static const struct jp_rule subtest[] = {
    RANGE("bs", 0, U32), OBJ("purge"), OBJ("stop"), NUM("stop.elapsed_s"), ARR("tracking"),
    ARR("track"), ELEM("track.*"), OBJ("steady_state.variables.*.track"),
    OBJ("precondition.steady_state.variables.*.track"),
    OBJ("table"), RANGE("table.first_round", 0, ROUNDS), RANGE("table.last_round", 0, ROUNDS),
    ARR("table.rows"), ELEM("table.rows.*"),
    ARR("rounds"), ELEM("rounds.*"), RANGE("rounds.*.round", 0, ROUNDS),
    NUM("rounds.*.total_written_gb"), NUM("rounds.*.elapsed_total_s"),
    ARR("rounds.*.elements"), ELEM("rounds.*.elements.*"), ARR("rounds.*.points"),
    ELEM("rounds.*.points.*"), NUM("rounds.*.points.*.iops"), NUM("rounds.*.points.*.mb_s"),
    NUM("rounds.*.points.*.write_iops"), NUM("rounds.*.points.*.lat_mean_us"),
    NUM("rounds.*.points.*.lat_max_us"), NUM("rounds.*.points.*.lat_p99_9_us"),
    COUNT("rounds.*.points.*.threads"), COUNT("rounds.*.points.*.qd"),
    NUM("rounds.*.points.*.outstanding"), OBJ("rounds.*.points.*.state"), ARR("rounds.*.tracked"),
    NUM("rounds.*.tracked.*"),
    OBJ("steady_state"), RANGE("steady_state.round", 0, ROUNDS),
    RANGE("steady_state.rounds_run", 0, ROUNDS), ARR("steady_state.variables"),
    ELEM("steady_state.variables.*"), OBJ("steady_state.variables.*.window"),
    STR("steady_state.variables.*.tracking"),
    OBJ("precondition"), NUM("precondition.bs"), NUM("precondition.fills"),
    NUM("precondition.mb_s"), COUNT("precondition.qd"), COUNT("precondition.threads"),
    NUM("precondition.elapsed_s"), ARR("precondition.rounds"), ELEM("precondition.rounds.*"),
    RANGE("precondition.rounds.*.round", 0, ROUNDS), NUM("precondition.rounds.*.iops"),
    NUM("precondition.rounds.*.mb_s"), NUM("precondition.rounds.*.write_iops"),
    NUM("precondition.rounds.*.lat_mean_us"), NUM("precondition.rounds.*.lat_max_us"),
    NUM("precondition.rounds.*.lat_p99_9_us"), NUM("precondition.rounds.*.write_amplification"),
    ARR("precondition.rounds.*.tracked"), NUM("precondition.rounds.*.tracked.*"),
    OBJ("precondition.steady_state"), ARR("precondition.steady_state.variables"),
    ELEM("precondition.steady_state.variables.*"),
    OBJ("precondition.steady_state.variables.*.window"),
    ARR("wait_states"), ELEM("wait_states.*"), NUM("wait_states.*.wait_s"),
    NUM("wait_states.*.access_s"), NUM("wait_states.*.baseline_iops_mean"),
    NUM("wait_states.*.write_iops_mean"), ARR("accesses"), ELEM("accesses.*"),
    NUM("accesses.*.start_s"), NUM("accesses.*.iops"), NUM("accesses.*.write_iops"),
    NUM("accesses.*.mb_s"), NUM("accesses.*.lat_mean_us"), NUM("accesses.*.lat_max_us"),
    NUM("accesses.*.lat_p99_9_us"), NUM("accesses.*.write_amplification"),
    ARR("groups"), ELEM("groups.*"), NUM("groups.*.group"), NUM("groups.*.minutes"),
    NUM("groups.*.mb_s_end"), NUM("groups.*.mb_s_mean"), NUM("groups.*.peak_lat_mean_us"),
    ARR("log"), ELEM("log.*"), NUM("log.*.t_min"), NUM("log.*.group"), NUM("log.*.iops"),
    NUM("log.*.write_iops"), NUM("log.*.mb_s"), NUM("log.*.lat_mean_us"),
    NUM("log.*.lat_max_us"), NUM("log.*.lat_p99_9_us"), NUM("log.*.write_amplification"),
    NUM("recovery_minutes"),
    OBJ("operating_points"), NUM("operating_points.latency_ceiling_us"),
    OPERATING_POINT("max"), OPERATING_POINT("mid"), OPERATING_POINT("min"),
};

static const struct shape suite_shapes[] = {
    SHAPE("", doc_common), SHAPE("", suite_doc), SHAPE("tests.*.subtests.*", subtest),
    SHAPE("tests.*.subtests.*.table.rows.*", element),
    SHAPE("tests.*.subtests.*.rounds.*.elements.*", element),
    SHAPE("tests.*.subtests.*.table.rows.*", figures),
    SHAPE("tests.*.subtests.*.rounds.*.elements.*", figures),
    SHAPE("tests.*.subtests.*.operating_points.max", figures),
    SHAPE("tests.*.subtests.*.operating_points.mid", figures),
    SHAPE("tests.*.subtests.*.operating_points.min", figures),
    SHAPE("tests.*.subtests.*.steady_state.variables.*.window", window),
    SHAPE("tests.*.subtests.*.precondition.steady_state.variables.*.window", window),
    SHAPE("tests.*.subtests.*.track.*", track),
    SHAPE("tests.*.subtests.*.steady_state.variables.*.track", track),
    SHAPE("tests.*.subtests.*.precondition.steady_state.variables.*.track", track),
};

/* ---- ptsbench.profile -------------------------------------------------------------------- */

static const struct jp_rule profile_doc[] = {
    OBJ("config"), ARR("config.compress_pct"), PCT("config.compress_pct.*"), ARR("config.qd"),
    COUNT("config.qd.*"), ARR("config.workers"), COUNT("config.workers.*"),
    ARR("config.profiles"), ELEM("config.profiles.*"), NUM("config.wdpc_fills"),
    ARR("groups"), ELEM("groups.*"), OBJ("groups.*.wipc"), OBJ("groups.*.wipc.round"),
    OBJ("groups.*.wdpc"), ARR("groups.*.wdpc.rounds"), ELEM("groups.*.wdpc.rounds.*"),
    ARR("points"), ELEM("points.*"), STR("points.*.spec"), NAME("points.*.profile"),
    NAME("points.*.workload"), COUNT("points.*.workers"),
    COUNT("points.*.qd"), PCT("points.*.compress_pct"), NUM("points.*.effective_qd"),
    OBJ("points.*.state"), OBJ("points.*.result"), ARR("points.*.result.rounds"),
    RANGE("points.*.result.rounds.*", 0, ROUNDS),
    OBJ("points.*.result.data"), ARR("points.*.rounds"), ELEM("points.*.rounds.*"),
    OBJ("points.*.steady_state"), OBJ("points.*.steady_state.window"), OBJ("points.*.stimulus"),
    OBJ("points.*.steady_state.track"),
    RANGE("points.*.steady_state.round", 0, ROUNDS),
    ARR("saturation"), ELEM("saturation.*"), NAME("saturation.*.workload"),
    NAME("saturation.*.profile"), PCT("saturation.*.compress_pct"),
    COUNT("saturation.*.workers"), COUNT("saturation.*.qd"), NUM("saturation.*.effective_qd"),
    NUM("saturation.*.iops"), NUM("saturation.*.max_iops"),
    NUM("saturation.*.max_iops_effective_qd"), NUM("saturation.*.lat_mean_us"),
    NUM("saturation.*.lat_p99_us"), NUM("saturation.*.points"),
};

static const struct shape profile_shapes[] = {
    SHAPE("", doc_common), SHAPE("", profile_doc), SHAPE("points.*.rounds.*", round_obj),
    SHAPE("points.*.rounds.*.hosts.*", figures),
    SHAPE("points.*.rounds.*", figures), SHAPE("points.*.result", figures),
    SHAPE("groups.*.wipc.round", round_obj), SHAPE("groups.*.wipc.round", figures),
    SHAPE("groups.*.wdpc.rounds.*", round_obj), SHAPE("groups.*.wdpc.rounds.*", figures),
    SHAPE("points.*.steady_state.window", window), SHAPE("points.*.stimulus", workload_obj),
    SHAPE("points.*.steady_state.track", track),
};

/* ---- ptsbench.replay --------------------------------------------------------------------- */

static const struct jp_rule replay_doc[] = {
    OBJ("trace"), STR("trace.source"), STR("trace.format"), RANGE("trace.ios", 0, U64),
    RANGE("trace.bytes", 0, U64), OBJ("replay"), STR("replay.mode"), ARR("passes"),
    OBJ("total"),
};
static const struct jp_rule replay_measure[] = {
    NUM("elapsed_s"), NUM("busy_s"), NUM("busy_pct"), NUM("qd_mean"), OBJ("qd_at_issue"),
    OBJ("lateness_us"),
};
static const struct shape replay_shapes[] = {
    SHAPE("", doc_common), SHAPE("", replay_doc), SHAPE("passes.*", figures),
    SHAPE("passes.*", replay_measure), SHAPE("total", figures), SHAPE("total", replay_measure),
};

/* ---- ptsbench.fleet (one command on several targets, cli/cli_fleet.h) ------------------------- */

static const struct jp_rule fleet_doc[] = {
    STR("schema"), STR("status"), STR("command"), STR("mode"), ARR("targets"),
    NAME("targets.*.label"), NAME("targets.*.results"), STR("targets.*.target"),
    STR("targets.*.state"), OBJ("alignment"), COUNT("alignment.rounds_started_together"),
    NUM("alignment.mean_wait_s"), NUM("alignment.max_wait_s"), OBJ("aggregate"),
    ARR("aggregate.rounds"), ARR("aggregate.passes"),
};
static const struct jp_rule fleet_row[] = {
    NUM("window_s"), OBJ("total"), NUM("total.ios"), NUM("total.iops"), NUM("total.mb_s"),
    NUM("total.sum_of_iops"), ARR("targets"), NUM("targets.*.iops"), NUM("targets.*.mb_s"),
};
static const struct shape fleet_shapes[] = {
    SHAPE("", fleet_doc), SHAPE("aggregate.rounds.*", fleet_row),
    SHAPE("aggregate.passes.*", fleet_row),
};

/* ---- checking ---------------------------------------------------------------------------- */

static const struct {
    const char *schema;
    const struct shape *shapes;
    size_t n;
} schemas[] = {
    {"ptsbench.run", run_shapes, sizeof(run_shapes) / sizeof(run_shapes[0])},
    {"ptsbench.suite", suite_shapes, sizeof(suite_shapes) / sizeof(suite_shapes[0])},
    {"ptsbench.profile", profile_shapes, sizeof(profile_shapes) / sizeof(profile_shapes[0])},
    {"ptsbench.replay", replay_shapes, sizeof(replay_shapes) / sizeof(replay_shapes[0])},
    {"ptsbench.fleet", fleet_shapes, sizeof(fleet_shapes) / sizeof(fleet_shapes[0])},
};

int shape_check(struct json_object *doc, const char *file, char *err, size_t errlen)
{
    if (!json_object_is_type(doc, json_type_object))
        return errf(err, errlen, "%s: not a JSON object", file);
    const char *schema = jp_str(doc, "schema");
    for (size_t s = 0; schema && s < sizeof(schemas) / sizeof(schemas[0]); s++) {
        if (strcmp(schema, schemas[s].schema))
            continue;
        for (size_t k = 0; k < schemas[s].n; k++) {
            const struct shape *sh = &schemas[s].shapes[k];
            for (size_t r = 0; r < sh->n; r++) {
                struct jp_rule rule = sh->rules[r];
                char path[256], why[ERR_LEN];
                snprintf(path, sizeof(path), "%s%s%s", sh->at, *sh->at ? "." : "", rule.path);
                rule.path = path;
                if (jp_check(doc, &rule, 1, why, sizeof(why)) != 0)
                    return errf(err, errlen, "%s: %s", file, why);
            }
        }
    }
    return 0;
}
