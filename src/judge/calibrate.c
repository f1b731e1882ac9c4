/* calibrate.c — a preset's calibration sheet: load, run its commands, judge, print (see
 * calibrate.h). */
#include "judge/calibrate.h"

#include <errno.h>
#include <fnmatch.h>
#include <json-c/json.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "lib/ini.h"
#include "lib/json_path.h"
#include "lib/spawn.h"
#include "lib/units.h"
#include "lib/util.h"

/* ---- loading ---- */

static const char *const more_global[] = {"preset", NULL};
static const char *const calib_keys[] = {"figure", "command", "span",   "point", "pick",
                                         "tolerance", "represented", "why", "gap", NULL};

static const char *val(const struct ini_section *s, const char *key)
{
    const struct ini_entry *e = ini_find(s, key);
    return e ? e->value : NULL;
}

static bool is_calib_key(const char *k)
{
    for (const char *const *p = calib_keys; *p; p++)
        if (!strcmp(*p, k))
            return true;
    return false;
}

/* The words of a command: what the runner adds must not be there already. */
static int check_command(const char *path, const struct ini_section *s, const char *cmd,
                         char *err, size_t errlen)
{
    static const char *const owned[] = {"--target", "-t", "--out", "-o", "--quiet", "-q",
                                        "--resume", "--force"};
    if (strpbrk(cmd, "\"'\\"))
        return errf(err, errlen, "%s:%d: [%s] command=%s: quotes and backslashes are not "
                    "understood (words are split at spaces)", path, s->line, s->name, cmd);
    char buf[512];
    str_copy(buf, sizeof(buf), cmd);
    char *save = NULL;
    for (char *w = strtok_r(buf, " \t", &save); w; w = strtok_r(NULL, " \t", &save))
        for (size_t i = 0; i < sizeof(owned) / sizeof(owned[0]); i++) {
            const size_t n = strlen(owned[i]);
            if (!strncmp(w, owned[i], n) && (w[n] == '\0' || w[n] == '='))
                return errf(err, errlen, "%s:%d: [%s] command=%s: %s is the runner's (it adds "
                            "--target sim:PRESET, --out and --quiet)", path, s->line, s->name,
                            cmd, owned[i]);
        }
    return 0;
}

/* key's value (or "") into dst; a value longer than dst holds is an error, not cut short. */
static int copy_val(const char *path, const struct ini_section *s, const char *key, char *dst,
                    size_t len, char *err, size_t errlen)
{
    const char *v = val(s, key);
    if (v && strlen(v) >= len)
        return errf(err, errlen, "%s:%d: [%s] %s is %zu characters long, at most %zu", path,
                    s->line, s->name, key, strlen(v), len - 1);
    str_copy(dst, len, v ? v : "");
    return 0;
}

static int load_row(const char *path, const struct ini_section *s, struct calib_row *r,
                    char *err, size_t errlen)
{
    memset(r, 0, sizeof(*r));
    str_copy(r->name, sizeof(r->name), s->name);
    r->line = s->line;
    r->cmd = -1;
    r->ratio = r->measured = r->published = NAN;
    r->represented = true;
    const char *v;
    if ((v = val(s, "represented"))) {
        if (!strcmp(v, "no"))
            r->represented = false;
        else if (strcmp(v, "yes"))
            return errf(err, errlen, "%s:%d: [%s] represented=%s: want yes or no", path,
                        s->line, s->name, v);
    }
    if (!(v = val(s, "figure")) || !*v)
        return errf(err, errlen, "%s:%d: [%s] no figure (what the review published, in words)",
                    path, s->line, s->name);
    if (copy_val(path, s, "figure", r->figure, sizeof(r->figure), err, errlen) ||
        copy_val(path, s, "value", r->value_text, sizeof(r->value_text), err, errlen) ||
        copy_val(path, s, "unit", r->unit_text, sizeof(r->unit_text), err, errlen) ||
        copy_val(path, s, "span", r->span, sizeof(r->span), err, errlen) ||
        copy_val(path, s, "gap", r->gap, sizeof(r->gap), err, errlen) ||
        copy_val(path, s, "point", r->point, sizeof(r->point), err, errlen))
        return -1;
    if (!r->represented) {
        if (!(v = val(s, "why")) || !*v)
            return errf(err, errlen, "%s:%d: [%s] represented=no without why", path, s->line,
                        s->name);
        return copy_val(path, s, "why", r->why, sizeof(r->why), err, errlen);
    }
    if (val(s, "why"))
        return errf(err, errlen, "%s:%d: [%s] why is for represented=no rows", path, s->line,
                    s->name);
    if (!(v = val(s, "command")) || !*v)
        return errf(err, errlen, "%s:%d: [%s] no command (the ptsbench command that measures "
                    "the figure)", path, s->line, s->name);
    if (check_command(path, s, v, err, errlen) != 0 ||
        copy_val(path, s, "command", r->command, sizeof(r->command), err, errlen) != 0)
        return -1;
    if ((v = val(s, "pick"))) {
        if (strcmp(v, "max"))
            return errf(err, errlen, "%s:%d: [%s] pick=%s: want max", path, s->line, s->name, v);
        r->pick_max = true;
    }
    r->tolerance = -1;
    if ((v = val(s, "tolerance"))) {
        char why[ERR_LEN];
        if (verify_parse_tolerance(v, &r->tolerance, why, sizeof(why)) != 0)
            return errf(err, errlen, "%s:%d: [%s] tolerance=%s: %s", path, s->line, s->name, v,
                        why);
    }
    return 0;
}

static size_t command_index(struct calib_sheet *s, const char *text)
{
    for (size_t i = 0; i < s->ncmd; i++)
        if (!strcmp(s->cmd[i].text, text))
            return i;
    s->cmd = xrealloc(s->cmd, (s->ncmd + 1) * sizeof(*s->cmd));
    struct calib_cmd *c = &s->cmd[s->ncmd];
    memset(c, 0, sizeof(*c));
    str_copy(c->text, sizeof(c->text), text);
    c->status = -1;
    return s->ncmd++;
}

int calib_load(const char *path, struct calib_sheet *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof(*out));
    str_copy(out->path, sizeof(out->path), path);
    struct ini_file ini;
    if (ini_parse_file(path, &ini, err, errlen) != 0)
        return -1;
    /* the represented rows (and the keys before them) go to verify as a spec sheet */
    struct ini_file claims = {.path = ini.path};
    claims.sections = xcalloc(ini.n_sections ? ini.n_sections : 1, sizeof(*claims.sections));
    out->r = xcalloc(ini.n_sections ? ini.n_sections : 1, sizeof(*out->r));
    int rc = -1;
    for (size_t i = 0; i < ini.n_sections; i++) {
        const struct ini_section *s = &ini.sections[i];
        if (!strcmp(s->name, "global")) {
            const char *v;
            if ((v = val(s, "preset")))
                str_copy(out->preset, sizeof(out->preset), v);
            if ((v = val(s, "device")))
                str_copy(out->device, sizeof(out->device), v);
            if ((v = val(s, "source")))
                str_copy(out->source, sizeof(out->source), v);
            claims.sections[claims.n_sections++] = *s;
            continue;
        }
        struct calib_row *r = &out->r[out->n];
        if (load_row(path, s, r, err, errlen) != 0)
            goto done;
        out->n++;
        if (r->represented) {
            claims.sections[claims.n_sections++] = *s;
        } else {
            for (size_t j = 0; j < s->n_entries; j++)   /* a listed row: words only */
                if (!is_calib_key(s->entries[j].key) &&
                    strcmp(s->entries[j].key, "value") && strcmp(s->entries[j].key, "unit") &&
                    strcmp(s->entries[j].key, "source") && strcmp(s->entries[j].key, "note")) {
                    errf(err, errlen, "%s:%d: [%s] %s: a row that is not represented has "
                         "figure, value, unit, span, why, source and note only", path,
                         s->entries[j].line, s->name, s->entries[j].key);
                    goto done;
                }
        }
    }
    if (!out->preset[0]) {
        errf(err, errlen, "%s: no preset = NAME before the first row", path);
        goto done;
    }
    if (verify_sheet_parse_keys(&claims, more_global, calib_keys, &out->vs, err, errlen) != 0)
        goto done;
    for (size_t i = 0, k = 0; i < out->n; i++) {
        struct calib_row *r = &out->r[i];
        if (!r->represented)
            continue;
        r->claim = &out->vs.c[k++];
        if (r->tolerance < 0) {
            /* the tail: the maximum and the percentiles from 99.9 up, in any direction */
            const struct metric_def *d = &metrics_defs[r->claim->metric];
            const bool tail = d->kind == METRIC_KIND_LAT &&
                              (d->pct == METRIC_STAT_MAX || d->pct >= METRICS_P99_9);
            r->tolerance = tail ? CALIB_TOLERANCE_TAIL : CALIB_TOLERANCE;
        }
        r->published = r->claim->value;
        r->cmd = (int)command_index(out, r->command);
    }
    rc = 0;
done:
    free(claims.sections);
    ini_free(&ini);
    if (rc != 0)
        calib_free(out);
    return rc;
}

void calib_free(struct calib_sheet *s)
{
    if (!s)
        return;
    verify_sheet_free(&s->vs);
    free(s->r);
    free(s->cmd);
    s->r = NULL;
    s->cmd = NULL;
    s->n = s->ncmd = 0;
}

/* ---- running ---- */

struct run_ctx {
    struct calib_sheet *s;
    const char *exe;
    volatile sig_atomic_t *stop;
    FILE *progress;
    pthread_mutex_t mu;
    size_t next, done;
    int failed_to_start;
    char err[ERR_LEN];
};

static void run_one(struct run_ctx *c, size_t i)
{
    struct calib_cmd *cmd = &c->s->cmd[i];
    char words[512], target[640];
    str_copy(words, sizeof(words), cmd->text);
    snprintf(target, sizeof(target), "sim:%s%s%s", c->s->preset, c->s->overrides[0] ? "," : "",
             c->s->overrides);
    char *argv[64];
    size_t n = 0;
    argv[n++] = (char *)c->exe;
    char *save = NULL;
    for (char *w = strtok_r(words, " \t", &save); w && n < 56; w = strtok_r(NULL, " \t", &save))
        argv[n++] = w;
    argv[n++] = "--target";
    argv[n++] = target;
    argv[n++] = "--out";
    argv[n++] = cmd->dir;
    argv[n++] = "--quiet";
    argv[n] = NULL;
    const uint64_t t0 = now_mono_ns();
    struct spawn_result r;
    if (spawn_run_flags(argv, SPAWN_STOPPABLE, &r) != 0) {
        pthread_mutex_lock(&c->mu);
        if (!c->failed_to_start) {
            c->failed_to_start = 1;
            snprintf(c->err, sizeof(c->err), "cannot run %s %s: %s", c->exe, cmd->text,
                     strerror(errno));
        }
        pthread_mutex_unlock(&c->mu);
        return;
    }
    cmd->wall_s = (double)(now_mono_ns() - t0) / 1e9;
    cmd->status = r.status;
    if (r.status != 0)
        str_last_line(r.err, cmd->err, sizeof(cmd->err));   /* what went wrong */
    spawn_result_free(&r);
    pthread_mutex_lock(&c->mu);
    c->done++;
    if (c->progress) {
        fprintf(c->progress, "calibration %s: [%zu/%zu] %s: %s in %.1f s\n", c->s->preset,
                c->done, c->s->ncmd, cmd->text, cmd->status == 0 ? "done" : "FAILED",
                cmd->wall_s);
        fflush(c->progress);
    }
    pthread_mutex_unlock(&c->mu);
}

static void *run_thread(void *arg)
{
    struct run_ctx *c = arg;
    for (;;) {
        pthread_mutex_lock(&c->mu);
        const bool go = c->next < c->s->ncmd && !c->failed_to_start && !(c->stop && *c->stop);
        const size_t i = c->next++;
        pthread_mutex_unlock(&c->mu);
        if (!go)
            return NULL;
        run_one(c, i);
    }
}

int calib_run(struct calib_sheet *s, const char *exe, const char *dir, unsigned jobs,
              volatile sig_atomic_t *stop, FILE *progress, char *err, size_t errlen)
{
    for (size_t i = 0; i < s->ncmd; i++)
        snprintf(s->cmd[i].dir, sizeof(s->cmd[i].dir), "%s/c%02zu", dir, i + 1);
    struct run_ctx c = {.s = s, .exe = exe, .stop = stop, .progress = progress};
    pthread_mutex_init(&c.mu, NULL);
    if (jobs < 1)
        jobs = 1;
    if (jobs > 8)
        jobs = 8;
    pthread_t th[8];
    unsigned started = 0;
    for (unsigned j = 0; j < jobs && j < s->ncmd; j++)
        if (pthread_create(&th[started], NULL, run_thread, &c) == 0)
            started++;
    if (!started && s->ncmd)
        run_thread(&c);   /* no thread: run them here */
    for (unsigned j = 0; j < started; j++)
        pthread_join(th[j], NULL);
    pthread_mutex_destroy(&c.mu);
    if (c.failed_to_start)
        return errf(err, errlen, "%s", c.err);
    if (stop && *stop)
        return errf(err, errlen, "interrupted");
    return 0;
}

/* ---- judging ---- */

void calib_judge(struct calib_sheet *s, const struct meas_set *const *sets)
{
    for (size_t i = 0; i < s->n; i++) {
        struct calib_row *r = &s->r[i];
        r->judged = r->within = false;
        r->measured = r->ratio = NAN;
        r->point_label[0] = r->reason[0] = '\0';
        if (!r->represented)
            continue;
        const struct calib_cmd *cmd = &s->cmd[r->cmd];
        const struct meas_set *set = sets ? sets[r->cmd] : NULL;
        if (!set) {
            if (cmd->status > 0)
                snprintf(r->reason, sizeof(r->reason), "the command failed (exit %d): %s",
                         cmd->status, cmd->err);
            else
                snprintf(r->reason, sizeof(r->reason), "the command did not run");
            continue;
        }
        /* the candidates: the command's points, those of the row's pattern (copied: verify
         * matches over an array) */
        struct meas_point *cand = xcalloc(set->n ? set->n : 1, sizeof(*cand));
        size_t nc = 0;
        for (size_t k = 0; k < set->n; k++)
            if (!r->point[0] || fnmatch(r->point, set->p[k].key, 0) == 0)
                cand[nc++] = set->p[k];
        struct verify_result best = {0};
        bool have = false;
        if (r->pick_max) {   /* the largest comparable figure: one point at a time */
            for (size_t k = 0; k < nc; k++) {
                struct verify_result vr;
                verify_check(r->claim, &cand[k], 1, VERIFY_DEFAULT_TOLERANCE, &vr);
                if (vr.match.point && (!have || vr.measured_base > best.measured_base)) {
                    best = vr;
                    have = true;
                }
            }
            if (!have && nc)   /* for the reason */
                verify_check(r->claim, cand, 1, VERIFY_DEFAULT_TOLERANCE, &best);
        } else if (nc) {
            verify_check(r->claim, cand, nc, VERIFY_DEFAULT_TOLERANCE, &best);
            have = best.match.point != NULL;
        }
        if (have)
            str_copy(r->point_label, sizeof(r->point_label), best.match.point->label);
        else if (!nc)
            snprintf(r->reason, sizeof(r->reason), "no measured point%s%s",
                     r->point[0] ? " matching " : "", r->point);
        else
            verify_match_reason(r->claim, &best.match, r->reason, sizeof(r->reason));
        free(cand);   /* best's points point into it: not used below */
        if (!have)
            continue;
        r->judged = true;
        r->measured = best.measured;
        r->ratio = best.measured_base / r->claim->claimed;
        r->within = isfinite(r->ratio) && fabs(r->ratio - 1) <= r->tolerance + 1e-9;
    }
}

struct calib_count calib_counts(const struct calib_sheet *s)
{
    struct calib_count c = {0};
    for (size_t i = 0; i < s->n; i++) {
        const struct calib_row *r = &s->r[i];
        c.rows++;
        if (!r->represented)
            continue;
        c.represented++;
        c.measured += r->judged;
        c.within += r->within;
        if (r->gap[0]) {
            c.gaps++;
            c.gaps_within += r->within;
        } else if (!r->within) {
            c.failing++;
        }
    }
    return c;
}

/* ---- output ---- */

static const char *verdict(const struct calib_row *r)
{
    if (!r->represented)
        return "not represented";
    if (!r->judged)
        return r->gap[0] ? "gap, no figure" : "no figure";
    if (r->gap[0])
        return r->within ? "gap, within" : "gap";
    return r->within ? "within" : "OFF";
}

static void measured_text(const struct calib_row *r, char *buf, size_t len)
{
    if (!r->judged) {
        snprintf(buf, len, "-");
        return;
    }
    char v[32];
    units_format_short_sig(r->measured, 3, v, sizeof(v));
    snprintf(buf, len, "%s %s", v, r->claim->unit.name);
}

void calib_print(const struct calib_sheet *s, FILE *f)
{
    const char *comma = s->overrides[0] ? "," : "";
    fprintf(f, "Calibration of sim:%s%s%s (%s)\nagainst %s\n", s->preset, comma, s->overrides,
            s->device[0] ? s->device : s->preset, s->source[0] ? s->source : "the sheet's rows");
    if (s->overrides[0])
        fprintf(f, "The preset with overrides (%s): a what-if, not the preset as shipped.\n",
                s->overrides);
    fprintf(f, "Published figures of the real drive against the simulated drive's, measured by "
               "the command named with each (on sim:%s%s%s).\n\n", s->preset, comma,
            s->overrides);
    fprintf(f, "%-26s %-15s %-15s %6s %5s  %-15s %s\n", "row", "published", "simulated",
            "ratio", "tol", "verdict", "figure (conditions) [command]");
    for (size_t i = 0; i < s->n; i++) {
        const struct calib_row *r = &s->r[i];
        char pub[96], meas[64], ratio[16] = "-", tol[16] = "-";
        const char *unit = r->unit_text[0] ? r->unit_text : r->claim ? r->claim->unit.name : "";
        snprintf(pub, sizeof(pub), "%s%s%s", r->value_text, *unit ? " " : "", unit);
        if (!r->represented) {
            fprintf(f, "%-26s %-15s %-15s %6s %5s  %-15s %s: %s\n", r->name, pub, "-", "-", "-",
                    verdict(r), r->figure, r->why);
            continue;
        }
        measured_text(r, meas, sizeof(meas));
        if (isfinite(r->ratio))
            units_format_figure(r->ratio, UNITS_FIG_RATIO, ratio, sizeof(ratio));
        snprintf(tol, sizeof(tol), "%.0f%%", 100 * r->tolerance);
        char cond[512];
        verify_claim_conditions(r->claim, cond, sizeof(cond));
        fprintf(f, "%-26s %-15s %-15s %6s %5s  %-15s %s (%s%s%s) [%s]\n", r->name, pub, meas,
                ratio, tol, verdict(r), r->figure, cond, r->span[0] ? ", span " : "", r->span,
                r->command);
        if (!r->judged && r->reason[0])
            fprintf(f, "%-26s   %s\n", "", r->reason);
        if (r->gap[0])
            fprintf(f, "%-26s   gap: %s\n", "", r->gap);
    }
    const struct calib_count c = calib_counts(s);
    fprintf(f, "\n%u rows: %u represented, %u within tolerance; %u marked as gaps the model does "
               "not reach yet (%u of them within); %u outside tolerance without a gap; %u not "
               "represented.\n",
            c.rows, c.represented, c.within, c.gaps, c.gaps_within, c.failing,
            c.rows - c.represented);
}

struct json_object *calib_json(const struct calib_sheet *s)
{
    struct json_object *doc = json_object_new_object();
    jw_add(doc, "schema", jw_str("ptsbench.calibration"));
    jw_add(doc, "version", jw_int(1));
    jw_add(doc, "preset", jw_str(s->preset));
    if (s->overrides[0])
        jw_add(doc, "overrides", jw_str(s->overrides));
    jw_add(doc, "device", jw_str(s->device));
    jw_add(doc, "source", jw_str(s->source));
    const char *base = strrchr(s->path, '/');
    jw_add(doc, "sheet", jw_str(base ? base + 1 : s->path));
    const struct calib_count c = calib_counts(s);
    struct json_object *cj = json_object_new_object();
    jw_add(cj, "rows", jw_int(c.rows));
    jw_add(cj, "represented", jw_int(c.represented));
    jw_add(cj, "measured", jw_int(c.measured));
    jw_add(cj, "within", jw_int(c.within));
    jw_add(cj, "gaps", jw_int(c.gaps));
    jw_add(cj, "gaps_within", jw_int(c.gaps_within));
    jw_add(cj, "failing", jw_int(c.failing));
    jw_add(doc, "counts", cj);
    struct json_object *rows = json_object_new_array();
    for (size_t i = 0; i < s->n; i++) {
        const struct calib_row *r = &s->r[i];
        struct json_object *o = json_object_new_object();
        jw_add(o, "name", jw_str(r->name));
        jw_add(o, "figure", jw_str(r->figure));
        jw_add(o, "represented", json_object_new_boolean(r->represented));
        jw_add(o, "published", jw_str(r->value_text));
        if (r->represented) {
            char cond[512];
            verify_claim_conditions(r->claim, cond, sizeof(cond));
            jw_add(o, "conditions", jw_str(cond));
            jw_add(o, "metric", jw_str(meas_metric_name(r->claim->metric)));
            jw_add(o, "unit", jw_str(r->claim->unit.name));
            jw_add(o, "value", jw_num(r->published));
            jw_add(o, "command", jw_str(r->command));
            jw_add(o, "span", jw_str(r->span));
            jw_add(o, "tolerance", jw_num(r->tolerance));
            jw_add(o, "measured", jw_num(r->measured));
            jw_add(o, "ratio", jw_num(r->ratio));
            jw_add(o, "within", json_object_new_boolean(r->within));
            jw_add(o, "point", jw_str(r->point_label));
            if (r->reason[0])
                jw_add(o, "reason", jw_str(r->reason));
            if (r->gap[0])
                jw_add(o, "gap", jw_str(r->gap));
            if (r->claim->source[0])
                jw_add(o, "source", jw_str(r->claim->source));
        } else {
            jw_add(o, "unit", jw_str(r->unit_text));
            jw_add(o, "why", jw_str(r->why));
        }
        jw_add(o, "verdict", jw_str(verdict(r)));
        json_object_array_add(rows, o);
    }
    jw_add(doc, "rows", rows);
    struct json_object *cmds = json_object_new_array();
    for (size_t i = 0; i < s->ncmd; i++) {
        struct json_object *o = json_object_new_object();
        jw_add(o, "command", jw_str(s->cmd[i].text));
        jw_add(o, "status", jw_int(s->cmd[i].status));
        jw_add(o, "wall_s", jw_num(s->cmd[i].wall_s));
        if (s->cmd[i].err[0])
            jw_add(o, "error", jw_str(s->cmd[i].err));
        json_object_array_add(cmds, o);
    }
    jw_add(doc, "commands", cmds);
    return doc;
}
