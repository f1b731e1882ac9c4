/* jobset.c — see jobset.h. */
#include "io/jobset.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/ini.h"
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

/* A flag as fio reads it: present and not "0". */
static bool js_flag(const struct ini_section *s, const char *key)
{
    const struct ini_entry *e = s ? ini_find(s, key) : NULL;
    return e && strcmp(e->value, "0") != 0;
}

/* Does job section s start a new group (fio: stonewall, new_group, wait_for,
 * wait_for_previous, in the job or in [global])? */
static bool js_starts_group(const struct ini_section *g, const struct ini_section *s)
{
    static const char *const keys[] = {"stonewall", "wait_for_previous", "new_group", NULL};
    for (unsigned k = 0; keys[k]; k++)
        if (js_flag(s, keys[k]) || js_flag(g, keys[k]))
            return true;
    return ini_find(s, "wait_for") != NULL;
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

int wl_load_fio_jobs(const char *path, const char *section, struct wl_jobset *js, char *err,
                     size_t errlen)
{
    memset(js, 0, sizeof(*js));
    snprintf(js->source, sizeof(js->source), "%s", path);
    if (section) {
        struct wl_job *j = js_add(js);
        if (wl_load_fio(path, section, &j->wl, err, errlen) != 0) {
            wl_jobset_free(js);
            return -1;
        }
        snprintf(j->label, sizeof(j->label), "%s", j->wl.name);
        js->n_groups = 1;
        return 0;
    }
    struct ini_file f;
    if (ini_parse_file(path, &f, err, errlen) < 0)
        return -1;
    const struct ini_section *g = ini_find_section(&f, "global");
    int rc = 0;
    for (size_t i = 0; i < f.n_sections && rc == 0; i++) {
        const struct ini_section *s = &f.sections[i];
        if (!strcmp(s->name, "global"))
            continue;
        struct wl_job *j = js_add(js);
        rc = wl_load_fio(path, s->name, &j->wl, err, errlen);
        if (rc != 0)
            break;
        if (js->n > 1 && js_starts_group(g, s))
            js->n_groups++;
        if (js->n == 1)
            js->n_groups = 1;
        j->group = js->n_groups - 1;
        js_label(js, j, j->wl.name);
    }
    if (rc == 0 && js->n == 0)
        rc = errf(err, errlen, "%s: no job section (fio needs one besides [global])", path);
    ini_free(&f);
    if (rc != 0)
        wl_jobset_free(js);
    return rc;
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
