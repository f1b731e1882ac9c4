/* cli_fleet.c — one command on several targets: the copies, their checks, their output and the
 * fleet's results document (cli_fleet.h). */
#include "cli/cli_fleet.h"

#include <errno.h>
#include <json-c/json.h>
#include <limits.h>
#include <stdint.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/options.h"
#include "core/fleet.h"
#include "core/results.h"
#include "core/steps.h"
#include "lib/file.h"
#include "lib/json_path.h"
#include "lib/spawn.h"
#include "lib/util.h"
#include "read/doc.h"
#include "read/shape.h"

#define FLEET_SCHEMA         "ptsbench.fleet"
#define FLEET_SCHEMA_VERSION 1

int cli_parse_targets_file(const char *value, void *target, char *err, size_t errlen)
{
    struct cli_fleet *f = target;
    if (value[0] != '@' || !value[1])
        return errf(err, errlen, "want @FILE (a file with one target per line)");
    FILE *in = fopen(value + 1, "r");
    if (!in)
        return errf(err, errlen, "cannot read %s: %s", value + 1, strerror(errno));
    char line[4096];
    int ret = 0;
    const unsigned before = f->n;
    while (ret == 0 && fgets(line, sizeof(line), in)) {
        char *hash = strchr(line, '#');
        if (hash)
            *hash = '\0';
        char *t = str_trim(line);
        if (!*t)
            continue;
        if (f->n >= CLI_FLEET_MAX || f->n_owned >= CLI_FLEET_MAX)
            ret = errf(err, errlen, "more than %d targets", CLI_FLEET_MAX);
        else
            f->targets[f->n++] = f->owned[f->n_owned++] = xstrdup(t);
    }
    fclose(in);
    if (ret == 0 && f->n == before)
        return errf(err, errlen, "%s lists no target", value + 1);
    return ret;
}

void cli_fleet_clear(struct cli_fleet *f)
{
    for (unsigned i = 0; i < f->n_owned; i++)
        free(f->owned[i]);
    memset(f, 0, sizeof(*f));
}

void cli_fleet_usage(FILE *f)
{
    fputs("Several targets (--target A --target B, or --targets @FILE) run one copy of the\n"
          "command each, with the same options: one after another, or with --parallel all at\n"
          "once with every round started together. Each target passes the safety rules on its\n"
          "own and gets OUT/LABEL/results.json (LABEL: zram1, sim-PRESET, ...); OUT/results.json\n"
          "lists them with the aggregate (the sum over the targets per round: the host's view).\n"
          "A bad target among them refuses the whole command, nothing written. `ptsbench report\n"
          "OUT` compares the targets.\n",
          f);
}

void cli_fleet_label(const char *target, char *buf, size_t len)
{
    char tmp[256];
    if (!strncmp(target, "sim:", 4)) {
        snprintf(tmp, sizeof(tmp), "sim-%.*s", (int)strcspn(target + 4, ","), target + 4);
    } else {
        const char *end = target + strlen(target);
        while (end > target + 1 && end[-1] == '/')
            end--;
        const char *base = end;
        while (base > target && base[-1] != '/')
            base--;
        snprintf(tmp, sizeof(tmp), "%.*s", (int)(end - base), base);
    }
    size_t k = 0;
    for (const char *p = tmp; *p && k + 1 < len; p++) {
        const char c = *p;
        const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                        c == '.' || c == '-' || c == '_';
        buf[k++] = ok ? c : '_';
    }
    buf[k] = '\0';
    if (k == 0 || !strcmp(buf, ".") || !strcmp(buf, ".."))
        snprintf(buf, len, "target");
}

/* ---- the copies --------------------------------------------------------------------------- */

struct member {
    const char *target;
    char label[96];
    char dir[4200];
    char **argv;
    int status;            /* exit status; -1 not run */
    bool ready;            /* waiting at the barrier */
    bool done;
};

struct fleet_run {
    struct member *m;
    unsigned n;
    bool parallel;
    /* the barriers (parallel): how many released all at once, and how long the first copy to
     * arrive waited for the last (the copies' set-up and rounds differ in length) */
    unsigned released;
    uint64_t first_ready_ns;
    double wait_sum_s, wait_max_s;
    const char *cmd;                    /* "run", "run-test", ... */
    struct json_object *command_line;   /* the fleet's, as recorded (owned) */
    struct json_object *words;          /* the command's words: ["run-test", "iops"] (owned) */
    char dir[4096], results[4200];
    char started[40];
};

/* "/proc/self/exe", else argv[0] as found in PATH by exec. */
static void self_path(char *buf, size_t len)
{
    ssize_t k = readlink("/proc/self/exe", buf, len - 1);
    if (k > 0) {
        buf[k] = '\0';
        return;
    }
    snprintf(buf, len, "ptsbench");
}

/* argv of the copy for target t into dir: self, the command's words, every option the parse
 * was given but the target options and --out, then --target t --out dir. */
static char **copy_argv(const char *const *words, unsigned n_words, const char *t,
                        const char *dir)
{
    const struct cli_given *g;
    const unsigned n_given = cli_last_given(&g);
    char **argv = xcalloc(n_words + n_given + 6, sizeof(*argv));
    unsigned k = 0;
    char self[PATH_MAX];
    self_path(self, sizeof(self));
    argv[k++] = xstrdup(self);
    for (unsigned i = 0; i < n_words; i++)
        argv[k++] = xstrdup(words[i]);
    for (unsigned i = 0; i < n_given; i++) {
        const char *name = g[i].name;
        if (name && (!strcmp(name, "target") || !strcmp(name, "targets") ||
                     !strcmp(name, "parallel") || !strcmp(name, "out")))
            continue;
        if (!name) {
            argv[k++] = xstrdup(g[i].value);
            continue;
        }
        char opt[8192];
        if (g[i].value)   /* one word: a value that starts with '-' stays the value */
            snprintf(opt, sizeof(opt), "--%s=%s", name, g[i].value);
        else
            snprintf(opt, sizeof(opt), "--%s", name);
        argv[k++] = xstrdup(opt);
    }
    argv[k++] = xstrdup("--target");
    argv[k++] = xstrdup(t);
    argv[k++] = xstrdup("--out");
    argv[k++] = xstrdup(dir);
    argv[k] = NULL;
    return argv;
}

static void argv_free(char **argv)
{
    for (char **p = argv; p && *p; p++)
        free(*p);
    free(argv);
}

/* Two names of the same device or file (sim: targets are drives of their own each time). */
static bool same_target(const char *a, const char *b)
{
    if (!strncmp(a, "sim:", 4) || !strncmp(b, "sim:", 4))
        return false;
    if (!strcmp(a, b))
        return true;
    struct stat sa, sb;
    if (stat(a, &sa) != 0 || stat(b, &sb) != 0)
        return false;
    if (S_ISBLK(sa.st_mode) && S_ISBLK(sb.st_mode))
        return sa.st_rdev == sb.st_rdev;
    return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* Every copy checks its own command (FLEET_ENV_CHECK: prepare, then exit having written
 * nothing). 0 when all pass; else the worst status, each refusal printed once. */
static int check_all(struct fleet_run *fr)
{
    int worst = 0;
    setenv(FLEET_ENV_CHECK, "1", 1);
    for (unsigned i = 0; i < fr->n; i++) {
        struct spawn_result r;
        if (spawn_run(fr->m[i].argv, &r) != 0) {
            fprintf(stderr, "ptsbench: cannot start a copy for %s: %s\n", fr->m[i].target,
                    strerror(errno));
            worst = EXIT_FAILURE;
            break;
        }
        if (r.status != 0) {
            /* the copy's own line names the value; with several refused, the label says which */
            fputs(r.err, stderr);
            if (r.err_len && r.err[r.err_len - 1] != '\n')
                fputc('\n', stderr);
            if (r.status > worst)
                worst = r.status;
        }
        spawn_result_free(&r);
    }
    unsetenv(FLEET_ENV_CHECK);
    return worst;
}

static void on_line(void *ctx, unsigned i, int stream, const char *line)
{
    struct fleet_run *fr = ctx;
    FILE *to = stream == 2 ? stderr : stdout;
    fprintf(to, "[%s]%s%s\n", fr->m[i].label, *line ? " " : "", line);
    fflush(to);
}

/* When every copy still running waits at the barrier, release them all. */
static void release_if_all(struct spawn_many *sm, struct fleet_run *fr, unsigned base)
{
    unsigned waiting = 0, live = 0;
    for (unsigned i = 0; i < fr->n; i++) {
        const struct member *m = &fr->m[base + i];
        if (m->done)
            continue;
        live++;
        waiting += m->ready;
    }
    if (!live || waiting < live)
        return;
    for (unsigned i = 0; i < fr->n; i++) {
        struct member *m = &fr->m[base + i];
        if (m->done)
            continue;
        m->ready = false;
        spawn_many_send(sm, i, "go\n");
    }
    const double wait = fr->first_ready_ns ? (double)(now_mono_ns() - fr->first_ready_ns) / 1e9
                                           : 0;
    fr->released++;
    fr->wait_sum_s += wait;
    if (wait > fr->wait_max_s)
        fr->wait_max_s = wait;
    fr->first_ready_ns = 0;
}

static void on_msg(struct spawn_many *sm, void *ctx, unsigned i, const char *line)
{
    struct fleet_run *fr = ctx;
    if (strcmp(line, "ready") != 0)
        return;
    fr->m[i].ready = true;
    if (!fr->first_ready_ns)
        fr->first_ready_ns = now_mono_ns();
    release_if_all(sm, fr, 0);
}

static void on_exited(struct spawn_many *sm, void *ctx, unsigned i, int status)
{
    struct fleet_run *fr = ctx;
    fr->m[i].done = true;
    fr->m[i].ready = false;
    fr->m[i].status = status;
    if (fr->parallel)
        release_if_all(sm, fr, 0);
}

/* One copy alone (sequential). */
static void on_line_one(void *ctx, unsigned i, int stream, const char *line)
{
    (void)i;
    struct member *m = ctx;
    FILE *to = stream == 2 ? stderr : stdout;
    fprintf(to, "[%s]%s%s\n", m->label, *line ? " " : "", line);
    fflush(to);
}

/* ---- the fleet's document ------------------------------------------------------------------ */

static struct json_object *load_doc(const struct member *m)
{
    char path[4300];
    snprintf(path, sizeof(path), "%s/results.json", m->dir);
    return file_exists(path) ? json_object_from_file(path) : NULL;
}

static const char *member_state(const struct member *m)
{
    if (m->status < 0)
        return "not run";
    if (m->status == 0)
        return "complete";
    if (m->status == 130 || m->status == 128 + SIGTERM)
        return "interrupted";
    return "failed";
}

/* The fleet's command line as given, unambiguous to read back: the words, then each option
 * as --NAME or --NAME=VALUE and each operand as is. */
static struct json_object *given_command_line(const char *const *words, unsigned n_words)
{
    const struct cli_given *g;
    const unsigned n_given = cli_last_given(&g);
    struct json_object *argv = json_object_new_array();
    json_object_array_add(argv, jw_str("ptsbench"));
    for (unsigned i = 0; i < n_words; i++)
        json_object_array_add(argv, jw_str(words[i]));
    for (unsigned i = 0; i < n_given; i++) {
        char opt[8192];
        if (!g[i].name)
            snprintf(opt, sizeof(opt), "%s", g[i].value);
        else if (g[i].value)
            snprintf(opt, sizeof(opt), "--%s=%s", g[i].name, g[i].value);
        else
            snprintf(opt, sizeof(opt), "--%s", g[i].name);
        json_object_array_add(argv, jw_str(opt));
    }
    return argv;
}

static struct json_object *fleet_doc(const struct fleet_run *fr, const char *status, bool final)
{
    struct json_object *doc = json_object_new_object();
    json_object_object_add(doc, "schema", jw_str(FLEET_SCHEMA));
    json_object_object_add(doc, "schema_version", jw_int(FLEET_SCHEMA_VERSION));
    json_object_object_add(doc, "ptsbench_version", jw_str(PTSBENCH_VERSION));
    json_object_object_add(doc, "command_line", json_object_get(fr->command_line));
    json_object_object_add(doc, "command", jw_str(fr->cmd));
    json_object_object_add(doc, "command_words", json_object_get(fr->words));
    json_object_object_add(doc, "mode", jw_str(fr->parallel ? "parallel" : "sequential"));
    json_object_object_add(doc, "started", jw_str(fr->started));
    char now[40];
    iso8601_now(now, sizeof(now));
    json_object_object_add(doc, "updated", jw_str(now));
    json_object_object_add(doc, "status", jw_str(status));
    json_object_object_add(doc, "writer", results_writer_json());
    struct json_object *targets = json_object_new_array();
    struct json_object **docs = xcalloc(fr->n, sizeof(*docs));
    const char **labels = xcalloc(fr->n, sizeof(*labels));
    const char *schema = NULL;
    bool same_schema = true;
    for (unsigned i = 0; i < fr->n; i++) {
        const struct member *m = &fr->m[i];
        struct json_object *t = json_object_new_object();
        json_object_object_add(t, "label", jw_str(m->label));
        json_object_object_add(t, "target", jw_str(m->target));
        char rel[200];
        snprintf(rel, sizeof(rel), "%s/results.json", m->label);
        json_object_object_add(t, "results", jw_str(rel));
        json_object_object_add(t, "state", jw_str(final || m->done ? member_state(m) : "running"));
        if (m->status >= 0)
            json_object_object_add(t, "exit_status", jw_int(m->status));
        docs[i] = final ? load_doc(m) : NULL;
        labels[i] = m->label;
        if (docs[i]) {
            const char *s = jp_str(docs[i], "schema");
            json_object_object_add(t, "simulated",
                                   json_object_new_boolean(jp_at(docs[i], "target.simulated") != NULL));
            if (!schema)
                schema = s;
            else if (!s || strcmp(schema, s) != 0)
                same_schema = false;
        }
        json_object_array_add(targets, t);
    }
    json_object_object_add(doc, "targets", targets);
    if (fr->parallel) {
        struct json_object *al = json_object_new_object();
        json_object_object_add(al, "rounds_started_together", jw_int(fr->released));
        json_object_object_add(al, "mean_wait_s",
                               jw_num(fr->released ? fr->wait_sum_s / fr->released : 0));
        json_object_object_add(al, "max_wait_s", jw_num(fr->wait_max_s));
        json_object_object_add(al, "basis",
                               jw_str("before every round (preconditioning passes and "
                                      "measured rounds) each target waits until every target "
                                      "still running is ready; wait: from the first ready to "
                                      "the release"));
        json_object_object_add(doc, "alignment", al);
    }
    if (final && fr->parallel && schema && same_schema) {
        struct json_object *agg = fleet_aggregate(docs, labels, fr->n, schema);
        if (agg)
            json_object_object_add(doc, "aggregate", agg);
    }
    for (unsigned i = 0; i < fr->n; i++)
        json_object_put(docs[i]);
    free(docs);
    free(labels);
    return doc;
}

static int write_doc(const char *path, struct json_object *doc)
{
    char err[ERR_LEN];
    const int rc = results_write_json_atomic(doc, path, err, sizeof(err));
    if (rc != 0)
        fprintf(stderr, "ptsbench: %s\n", err);
    json_object_put(doc);
    return rc;
}

/* The closing table: each target's state and, for runs and replays, its last round's figures
 * beside the aggregate's. */
static void print_summary(const struct fleet_run *fr, const char *results)
{
    struct json_object *doc = json_object_from_file(results);
    struct json_object *agg = doc ? jp_obj_at(doc, "aggregate") : NULL;
    const char *key = agg && jp_arr(agg, "rounds") ? "rounds" : "passes";
    struct json_object *rows = agg ? jp_arr(agg, key) : NULL;
    struct json_object *last = rows && jp_len(rows) ? jp_idx(rows, jp_len(rows) - 1) : NULL;
    int w = 11;   /* "all targets" */
    for (unsigned i = 0; i < fr->n; i++)
        if ((int)strlen(fr->m[i].label) > w)
            w = (int)strlen(fr->m[i].label);
    printf("\n%-*s %-11s %s\n", w, "target", "state",
           last ? "    IOPS     MB/s  (last round all ran)" : "");
    for (unsigned i = 0; i < fr->n; i++) {
        const struct member *m = &fr->m[i];
        printf("%-*s %-11s", w, m->label, member_state(m));
        struct json_object *p = last ? jp_idx(jp_arr(last, "targets"), i) : NULL;
        if (p)
            printf(" %8.0f %8.1f", jp_num(p, "iops"), jp_num(p, "mb_s"));
        putchar('\n');
    }
    if (last)
        printf("%-*s %-11s %8.0f %8.1f  over %.2f s (sum of their rates %.0f IOPS)\n", w,
               "all targets", "", jp_path(last, "total.iops"), jp_path(last, "total.mb_s"),
               jp_num(last, "window_s"), jp_path(last, "total.sum_of_iops"));
    printf("results: %s\n", results);
    json_object_put(doc);
}

/* Run the copies that have an argv (all of them, or a resume's unfinished ones), writing the
 * fleet's document before, between (one after another) and after. Returns the exit code. */
static int fleet_execute(struct fleet_run *fr)
{
    const char *cmd = fr->cmd;
    char err[ERR_LEN];
    cli_install_signals();
    if (file_mkdir_p(fr->dir, err, sizeof(err)) != 0) {
        fprintf(stderr, "ptsbench %s: %s\n", cmd, err);
        return EXIT_FAILURE;
    }
    if (!fr->started[0])
        iso8601_now(fr->started, sizeof(fr->started));
    if (write_doc(fr->results, fleet_doc(fr, "running", false)) != 0)
        return EXIT_FAILURE;
    unsigned todo = 0;
    for (unsigned i = 0; i < fr->n; i++)
        todo += fr->m[i].argv != NULL;
    printf("%s: %u targets%s, %s; results in %s\n", cmd, todo,
           todo < fr->n ? " not yet complete" : "",
           fr->parallel ? "in parallel (rounds started together)" : "one after another",
           fr->dir);
    fflush(stdout);
    setenv(FLEET_ENV_LABEL, "1", 1);
    volatile sig_atomic_t *stop = cli_stop_flag();
    if (fr->parallel) {
        char fdnum[16];
        snprintf(fdnum, sizeof(fdnum), "%d", SPAWN_SYNC_FD);
        setenv(FLEET_ENV_FD, fdnum, 1);
        /* the copies to run, in a list of their own (a resume skips the complete ones) */
        struct fleet_run sub = *fr;
        sub.m = xcalloc(fr->n, sizeof(*sub.m));
        unsigned *idx = xcalloc(fr->n, sizeof(*idx));
        sub.n = 0;
        for (unsigned i = 0; i < fr->n; i++)
            if (fr->m[i].argv) {
                idx[sub.n] = i;
                sub.m[sub.n++] = fr->m[i];
            }
        char *const **argvs = xcalloc(sub.n + 1, sizeof(*argvs));
        int *status = xcalloc(sub.n + 1, sizeof(*status));
        for (unsigned i = 0; i < sub.n; i++)
            argvs[i] = sub.m[i].argv;
        const struct spawn_many_ops ops = {on_line, on_msg, on_exited};
        if (spawn_run_many(sub.n, argvs, SPAWN_STOPPABLE | SPAWN_SYNC, &ops, &sub, status) != 0)
            fprintf(stderr, "ptsbench %s: cannot start every copy: %s\n", cmd, strerror(errno));
        for (unsigned i = 0; i < sub.n; i++) {
            fr->m[idx[i]].status = status[i];
            fr->m[idx[i]].done = true;
        }
        fr->released += sub.released;
        fr->wait_sum_s += sub.wait_sum_s;
        if (sub.wait_max_s > fr->wait_max_s)
            fr->wait_max_s = sub.wait_max_s;
        free(argvs);
        free(status);
        free(idx);
        free(sub.m);
        unsetenv(FLEET_ENV_FD);
    } else {
        for (unsigned i = 0; i < fr->n && !*stop; i++) {
            struct member *m = &fr->m[i];
            if (!m->argv)
                continue;   /* complete before a resume */
            char *const *argv1[1] = {m->argv};
            int st = 128 + SIGTERM;
            const struct spawn_many_ops ops = {on_line_one, NULL, NULL};
            if (spawn_run_many(1, argv1, SPAWN_STOPPABLE, &ops, m, &st) != 0)
                fprintf(stderr, "ptsbench %s: cannot start the copy for %s: %s\n", cmd,
                        m->target, strerror(errno));
            m->status = st;
            m->done = true;
            write_doc(fr->results, fleet_doc(fr, "running", false));
        }
    }
    unsetenv(FLEET_ENV_LABEL);
    int code = 0;
    bool interrupted = *stop != 0;
    for (unsigned i = 0; i < fr->n; i++) {
        const int st = fr->m[i].status;
        if (st == 130 || st == 128 + SIGTERM)
            interrupted = true;
        else if (st != 0 && code == 0)
            code = st < 0 ? EXIT_FAILURE : st;
    }
    const char *status = interrupted ? "interrupted" : code ? "failed" : "complete";
    if (write_doc(fr->results, fleet_doc(fr, status, true)) != 0 && !code)
        code = EXIT_FAILURE;
    print_summary(fr, fr->results);
    if (interrupted) {
        code = 130;
        printf("resume with: ptsbench %s --resume %s (complete targets are kept)\n", cmd,
               fr->dir);
    }
    return code;
}

int cli_fleet_dispatch(struct cli_fleet *f, const char *const *words, unsigned n_words,
                       const char *kind, const char *out, bool force, const char **one)
{
    *one = f->n ? f->targets[0] : NULL;
    if (f->n <= 1)
        return CLI_FLEET_ONE;
    const char *cmd = words[0];
    for (unsigned i = 0; i < f->n; i++)
        for (unsigned j = 0; j < i; j++)
            if (same_target(f->targets[i], f->targets[j])) {
                fprintf(stderr, "ptsbench %s: --target %s: the same target as %s (each target "
                                "once)\n", cmd, f->targets[i], f->targets[j]);
                return EXIT_USAGE;
            }
    struct fleet_run fr = {.n = f->n, .parallel = f->parallel, .cmd = cmd};
    char err[ERR_LEN];
    char fleet_kind[64];
    snprintf(fleet_kind, sizeof(fleet_kind), "%s-fleet", kind);
    if (run_out_dir(out, fleet_kind, force, fr.dir, sizeof(fr.dir), fr.results,
                    sizeof(fr.results), err, sizeof(err)) != 0) {
        fprintf(stderr, "ptsbench %s: %s\n", cmd, err);
        return EXIT_USAGE;
    }
    const char *dir = fr.dir;
    fr.command_line = given_command_line(words, n_words);
    fr.words = json_object_new_array();
    for (unsigned i = 0; i < n_words; i++)
        json_object_array_add(fr.words, jw_str(words[i]));
    fr.m = xcalloc(f->n, sizeof(*fr.m));
    for (unsigned i = 0; i < f->n; i++) {
        struct member *m = &fr.m[i];
        m->target = f->targets[i];
        m->status = -1;
        char base[80];
        cli_fleet_label(m->target, base, sizeof(base));
        snprintf(m->label, sizeof(m->label), "%s", base);
        for (unsigned k = 2;; k++) {   /* unique: sim-generic-mlc25, sim-generic-mlc25-2 */
            bool taken = false;
            for (unsigned j = 0; j < i; j++)
                taken |= !strcmp(fr.m[j].label, m->label);
            if (!taken)
                break;
            snprintf(m->label, sizeof(m->label), "%s-%u", base, k);
        }
        snprintf(m->dir, sizeof(m->dir), "%s/%s", dir, m->label);
        m->argv = copy_argv(words, n_words, m->target, m->dir);
    }
    int code = check_all(&fr);
    if (code != 0) {
        code = code == EXIT_USAGE ? EXIT_USAGE : code;
        goto done;
    }
    code = fleet_execute(&fr);
done:
    for (unsigned i = 0; i < f->n; i++)
        argv_free(fr.m[i].argv);
    free(fr.m);
    json_object_put(fr.command_line);
    json_object_put(fr.words);
    return code;
}

/* ---- resume ------------------------------------------------------------------------------- */

/* The flags a resume was given, for a copy (resume_as_is only to one that resumes); the
 * argv is NULL-terminated after them. */
static void add_flags(char **argv, unsigned *k, const struct cli_resume_flags *flags,
                      bool resuming)
{
    const struct {
        bool on;
        const char *opt;
    } f[] = {{flags->quiet, "--quiet"},
             {flags->destructive, "--destructive"},
             {flags->overwrite_signatures, "--overwrite-signatures"},
             {resuming && flags->resume_as_is, "--resume-as-is"}};
    for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++)
        if (f[i].on)
            argv[(*k)++] = xstrdup(f[i].opt);
    argv[*k] = NULL;
}

/* argv of a copy that never started (one after another, stopped before its turn): the fleet's
 * recorded command for this target alone, from its --NAME=VALUE form. */
static char **fresh_argv(struct json_object *command_line, size_t n_words, const char *t,
                         const char *dir, const struct cli_resume_flags *flags)
{
    const size_t n = jp_len(command_line);
    char **argv = xcalloc(n + 12, sizeof(*argv));
    unsigned k = 0;
    char self[PATH_MAX];
    self_path(self, sizeof(self));
    argv[k++] = xstrdup(self);
    for (size_t i = 1; i < n; i++) {
        const char *a = jp_string(jp_idx(command_line, i));
        if (!a)
            continue;
        if (i > n_words && (!strncmp(a, "--target=", 9) || !strncmp(a, "--targets=", 10) ||
                            !strcmp(a, "--parallel") || !strncmp(a, "--out=", 6)))
            continue;
        argv[k++] = xstrdup(a);
    }
    argv[k++] = xstrdup("--target");
    argv[k++] = xstrdup(t);
    argv[k++] = xstrdup("--out");
    argv[k++] = xstrdup(dir);
    add_flags(argv, &k, flags, false);
    return argv;
}

int cli_fleet_members(const char *arg, cli_fleet_path *paths, cli_fleet_name *labels,
                      unsigned max, struct json_object **doc_out, char *err, size_t errlen)
{
    if (doc_out)
        *doc_out = NULL;
    char path[4200];
    struct stat st;
    const bool dir = stat(arg, &st) == 0 && S_ISDIR(st.st_mode);
    snprintf(path, sizeof(path), dir ? "%s/results.json" : "%s", arg);
    struct json_object *doc = file_exists(path) ? json_object_from_file(path) : NULL;
    const int n = read_fleet_members(doc, path, paths, labels, max, err, errlen);
    if (n <= 0) {
        json_object_put(doc);
        return n;
    }
    if (doc_out)
        *doc_out = doc;
    else
        json_object_put(doc);
    return n;
}

bool cli_fleet_is_fleet(const char *dir)
{
    char path[4200];
    snprintf(path, sizeof(path), "%s/results.json", dir);
    struct json_object *doc = file_exists(path) ? json_object_from_file(path) : NULL;
    const char *schema = doc ? jp_str(doc, "schema") : NULL;
    const bool yes = schema && !strcmp(schema, FLEET_SCHEMA);
    json_object_put(doc);
    return yes;
}

int cli_fleet_resume(const char *cmd, const char *dir, const struct cli_resume_flags *flags)
{
    struct fleet_run fr = {.cmd = cmd};
    snprintf(fr.dir, sizeof(fr.dir), "%s", dir);
    snprintf(fr.results, sizeof(fr.results), "%s/results.json", dir);
    struct json_object *doc = json_object_from_file(fr.results);
    char why[256] = "";
    int code = EXIT_USAGE;
    if (!doc || shape_check(doc, fr.results, why, sizeof(why)) != 0) {
        fprintf(stderr, "ptsbench %s: --resume %s: %s\n", cmd, dir,
                why[0] ? why : "not a readable results file");
        json_object_put(doc);
        return EXIT_USAGE;
    }
    const char *was = jp_str(doc, "command");
    const bool same_cmd = was && (!strcmp(was, cmd) || (!strcmp(was, "run-test") &&
                                                        !strcmp(cmd, "suite")));
    if (!same_cmd) {
        fprintf(stderr, "ptsbench %s: --resume %s: these are the results of ptsbench %s\n", cmd,
                dir, was ? was : "?");
        goto out;
    }
    if (results_life_of(doc, why, sizeof(why)) == RESULTS_RUNNING) {
        fprintf(stderr, "ptsbench %s: --resume %s: still running (%s)\n", cmd, dir, why);
        goto out;
    }
    struct json_object *targets = jp_arr(doc, "targets");
    fr.n = (unsigned)jp_len(targets);
    if (!fr.n || fr.n > CLI_FLEET_MAX) {
        fprintf(stderr, "ptsbench %s: --resume %s: no targets recorded\n", cmd, dir);
        goto out;
    }
    fr.parallel = !strcmp(jp_str(doc, "mode") ? jp_str(doc, "mode") : "", "parallel");
    fr.command_line = json_object_get(jp_arr(doc, "command_line"));
    fr.words = json_object_get(jp_arr(doc, "command_words"));
    snprintf(fr.started, sizeof(fr.started), "%s", jp_str(doc, "started") ? jp_str(doc, "started") : "");
    fr.m = xcalloc(fr.n, sizeof(*fr.m));
    unsigned todo = 0;
    for (unsigned i = 0; i < fr.n; i++) {
        struct member *m = &fr.m[i];
        struct json_object *t = jp_idx(targets, i);
        const char *label = jp_str(t, "label");
        m->target = jp_str(t, "target");
        m->status = -1;
        if (!label || !m->target || strchr(label, '/') || !strcmp(label, "..")) {
            fprintf(stderr, "ptsbench %s: --resume %s: target %u has no label or target\n",
                    cmd, dir, i + 1);
            goto out;
        }
        snprintf(m->label, sizeof(m->label), "%s", label);
        snprintf(m->dir, sizeof(m->dir), "%s/%s", dir, label);
        char own[4400];
        snprintf(own, sizeof(own), "%s/results.json", m->dir);
        struct json_object *d = file_exists(own) ? json_object_from_file(own) : NULL;
        const enum results_life life = d ? results_life_of(d, why, sizeof(why)) : RESULTS_FAILED;
        json_object_put(d);
        if (d && life == RESULTS_COMPLETE) {
            m->status = 0;   /* kept as it is */
            m->done = true;
            continue;
        }
        todo++;
        if (!d) {
            m->argv = fresh_argv(fr.command_line, jp_len(fr.words), m->target, m->dir, flags);
            continue;
        }
        char **argv = xcalloc(12, sizeof(*argv));
        unsigned k = 0;
        char self[PATH_MAX];
        self_path(self, sizeof(self));
        argv[k++] = xstrdup(self);
        /* a run-test's results resume through suite (run-test wants its NAME first) */
        argv[k++] = xstrdup(!strcmp(was, "run-test") ? "suite" : was);
        argv[k++] = xstrdup("--resume");
        argv[k++] = xstrdup(m->dir);
        add_flags(argv, &k, flags, true);
        m->argv = argv;
    }
    if (!todo) {
        printf("ptsbench %s: --resume %s: every target is complete; nothing to resume\n", cmd,
               dir);
        code = EXIT_OK;
        goto out;
    }
    code = fleet_execute(&fr);
out:
    for (unsigned i = 0; fr.m && i < fr.n; i++)
        argv_free(fr.m[i].argv);
    free(fr.m);
    json_object_put(fr.command_line);
    json_object_put(fr.words);
    json_object_put(doc);
    return code;
}
