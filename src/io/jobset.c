/* jobset.c — see jobset.h. */
#include "io/jobset.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "io/fio_parse.h"
#include "lib/util.h"

static bool js_is_fio_file(const char *path)
{
    size_t n = strlen(path);
    struct stat st;
    return n > 4 && !strcmp(path + n - 4, ".fio") && stat(path, &st) == 0 &&
           S_ISREG(st.st_mode);
}

static struct wl_job *js_add(struct wl_jobset *js)
{
    js->jobs = xrealloc(js->jobs, (js->n + 1) * sizeof(*js->jobs));
    struct wl_job *j = &js->jobs[js->n++];
    memset(j, 0, sizeof(*j));
    return j;
}

static void js_label(struct wl_jobset *js, struct wl_job *j, const char *name)
{
    unsigned same = 0;
    for (unsigned i = 0; i + 1 < js->n; i++)
        if (!strcmp(js->jobs[i].wl.name, name))
            same++;
    if (same)
        snprintf(j->label, sizeof(j->label), "%s#%u", name, same + 1);
    else
        snprintf(j->label, sizeof(j->label), "%s", name);
}

static void js_note(struct wl_jobset *js, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void js_note(struct wl_jobset *js, const char *fmt, ...)
{
    char text[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof(text), fmt, ap);
    va_end(ap);
    size_t n = strlen(js->note);
    if (strstr(js->note, text) || n + 3 >= sizeof(js->note))
        return;
    snprintf(js->note + n, sizeof(js->note) - n, "%s%s", n ? "; " : "", text);
}

/* ---- the jobs of a fio file and their groups ------------------------------------------- */

/* The group of job j (index idx of d): a new one after stonewall or wait_for (fio's HOWTO
 * "stonewall, wait_for_previous", "wait_for"; backend.c run_threads). 0, or -1 with err. */
static int js_group(struct wl_jobset *js, const struct fio_doc *d, size_t idx,
                    struct wl_job *j, char *err, size_t errlen)
{
    const struct fio_section *s = &d->sections[idx];
    const struct fio_line *wf = fio_job_find(d, idx, "wait_for");
    bool stone = fio_job_flag(d, idx, "stonewall") || fio_job_flag(d, idx, "wait_for_previous");
    if (wf && wf->value) {
        bool found = false;
        for (unsigned i = 0; i + 1 < js->n && !found; i++)
            found = !strcmp(js->jobs[i].wl.name, wf->value) ||
                    !strcmp(js->jobs[i].label, wf->value);
        if (!found)
            return errf(err, errlen, "%s:%d: wait_for=%s: no job of that name before [%s]",
                        wf->file, wf->line, wf->value, s->name);
        js_note(js, "[%s] wait_for=%s: ptsbench runs it after the whole group holding %s "
                "(fio waits for %s alone)", s->name, wf->value, wf->value, wf->value);
    }
    if (fio_job_flag(d, idx, "new_group") && !stone && !wf)
        js_note(js, "new_group: fio's reporting group only; the jobs still run at once, as in "
                "fio");
    if (js->n == 1)
        js->n_groups = 1;
    else if (stone || wf)
        js->n_groups++;
    j->group = js->n_groups - 1;
    return 0;
}

/* Jobs of a file in its own directory (workload.h own_file): each its own extent of the one
 * target, one after another in file order, as fio's files of size bytes would be (each of the
 * job's numjobs its own: the job covers size x numjobs, split); a job whose size is not in bytes
 * shares the range (said). */
static void js_lay_out_files(struct wl_jobset *js)
{
    uint64_t at = 0;
    for (unsigned i = 0; i < js->n; i++) {
        struct workload *wl = &js->jobs[i].wl;
        if (!wl->own_file)
            continue;
        if (!wl->size.set || wl->size.is_percent || wl->offset.is_percent) {
            wl_note_add(wl, "its file's size is not given in bytes: it shares the target's "
                            "range with the other jobs");
            continue;
        }
        const uint64_t len = wl->size.bytes * wl->workers;
        wl->offset = (struct wl_extent){.set = true, .bytes = at + wl->offset.bytes};
        wl->size.bytes = len;
        wl->region = WL_REGION_SPLIT;
        at = wl->offset.bytes + len;
    }
}

static int js_load(const struct fio_doc *d, const char *section, struct wl_jobset *js,
                   struct wl_verdicts *out, char *err, size_t errlen)
{
    long only = section ? fio_doc_job(d, section, err, errlen) : -1;
    if (section && only < 0)
        return -1;
    int rc = 0;
    for (size_t i = 0; i < d->n && (rc == 0 || out); i++) {
        if (d->sections[i].global || (only >= 0 && (size_t)only != i))
            continue;
        struct wl_job *j = js_add(js);
        if (wl_fio_job(d, i, &j->wl, out, err, errlen) != 0) {
            rc = -1;
            snprintf(j->wl.name, sizeof(j->wl.name), "%s", d->sections[i].name);
        }
        js_label(js, j, j->wl.name);
        if (only >= 0) {
            js->n_groups = 1;
        } else if (js_group(js, d, i, j, err, errlen) != 0) {
            rc = -1;
            if (out) {
                char where[320];
                snprintf(where, sizeof(where), "%s:%d", d->sections[i].file,
                         d->sections[i].line);
                wl_verdict_add(out, "(job)", "", where, d->sections[i].name, WL_TAKE_REFUSED,
                               err);
            }
        }
    }
    if (rc == 0 && js->n == 0)
        return errf(err, errlen, "%s: no job section (fio needs one besides [global])",
                    d->path);
    if (rc == 0 && only < 0)
        js_lay_out_files(js);
    if (rc != 0 && out && out->refused == 0)   /* cannot happen: every failure is a verdict */
        return -1;
    return rc;
}

int wl_load_fio_jobs(const char *path, const char *section, struct wl_jobset *js, char *err,
                     size_t errlen)
{
    memset(js, 0, sizeof(*js));
    struct fio_doc d;
    if (fio_doc_load(path, &d, err, errlen) != 0)
        return -1;
    snprintf(js->source, sizeof(js->source), "%s", path);
    int rc = js_load(&d, section, js, NULL, err, errlen);
    fio_doc_free(&d);
    if (rc != 0)
        wl_jobset_free(js);
    return rc;
}

int wl_fio_verdicts(const char *path, const char *section, struct wl_jobset *js,
                    struct wl_verdicts *out, char *err, size_t errlen)
{
    memset(js, 0, sizeof(*js));
    memset(out, 0, sizeof(*out));
    struct fio_doc d;
    if (fio_doc_load(path, &d, err, errlen) != 0)
        return -1;
    snprintf(js->source, sizeof(js->source), "%s", path);
    int rc = js_load(&d, section, js, out, err, errlen);
    fio_doc_free(&d);
    if (rc != 0 && out->refused == 0) {
        wl_jobset_free(js);
        return -1;
    }
    return rc ? 1 : 0;
}

void wl_verdicts_free(struct wl_verdicts *v)
{
    free(v->v);
    memset(v, 0, sizeof(*v));
}

int wl_resolve_jobs(const char *spec, const char *const *profile_dirs, struct wl_jobset *js,
                    char *err, size_t errlen)
{
    memset(js, 0, sizeof(*js));
    if (spec && !strchr(spec, '=') && js_is_fio_file(spec))
        return wl_load_fio_jobs(spec, NULL, js, err, errlen);
    struct wl_job *j = js_add(js);
    if (wl_resolve(spec, profile_dirs, &j->wl, err, errlen) != 0) {
        wl_jobset_free(js);
        return -1;
    }
    snprintf(js->source, sizeof(js->source), "%s", j->wl.source);
    snprintf(j->label, sizeof(j->label), "%s", j->wl.name);
    js->n_groups = 1;
    return 0;
}

void wl_jobset_group(const struct wl_jobset *js, unsigned g, unsigned *first, unsigned *count)
{
    *first = 0;
    *count = 0;
    for (unsigned i = 0; i < js->n; i++)
        if (js->jobs[i].group == g) {
            if (!*count)
                *first = i;
            (*count)++;
        }
}

void wl_jobset_free(struct wl_jobset *js)
{
    free(js->jobs);
    memset(js, 0, sizeof(*js));
}
