/* doc.c — a loaded results document and what was computed from it (doc.h). */
#include "read/doc.h"

#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/file.h"
#include "lib/json_path.h"
#include "lib/util.h"
#include "read/measure.h"

static struct results_doc *adopt(struct json_object *json, const char *path)
{
    struct results_doc *d = xcalloc(1, sizeof(*d));
    d->json = json;
    str_copy(d->path, sizeof(d->path), path ? path : "");
    d->schema = read_schema(json);
    d->kind = read_kind_of(d->schema);
    return d;
}

struct results_doc *results_doc_open(const char *arg, unsigned accept, enum read_voice voice,
                                     char *err, size_t errlen)
{
    struct json_object *json;
    char path[4200];
    if (read_load(arg, accept, voice, &json, path, sizeof(path), err, errlen) != 0)
        return NULL;
    return adopt(json, path);
}

void results_doc_close(struct results_doc *d)
{
    if (!d)
        return;
    if (d->meas) {
        meas_free(d->meas);
        free(d->meas);
    }
    json_object_put(d->json);
    free(d);
}

const struct meas_set *results_doc_meas(struct results_doc *d, char *err, size_t errlen)
{
    if (!d->meas_done) {
        d->meas_done = true;
        struct meas_set *s = xcalloc(1, sizeof(*s));
        if (meas_doc(d->json, d->path, 0, s, d->meas_err, sizeof(d->meas_err)) == 0)
            d->meas = s;
        else
            free(s);
    }
    if (!d->meas)
        errf(err, errlen, "%s", d->meas_err);
    return d->meas;
}

const char *results_doc_device_label(struct json_object *doc, const char *label)
{
    if (label && *label)
        return label;
    const char *m = jp_str(doc, "target.simulated.preset");
    if (m)
        return m;
    m = jp_str(doc, "target.path");
    if (m && !strncmp(m, "sim:", 4) && m[4])
        return m + 4;   /* the preset: a simulated model is the simulator's design summary */
    m = jp_str(doc, "target.model");
    return m ? m : jp_str(doc, "target.path") ? jp_str(doc, "target.path") : "device";
}

int read_fleet_members(struct json_object *doc, const char *path, read_fleet_path *paths,
                       read_fleet_name *labels, unsigned max, char *err, size_t errlen)
{
    if (read_kind_of(jp_str(doc, "schema")) != READ_FLEET)
        return 0;
    char base[4200];
    snprintf(base, sizeof(base), "%s", path);
    char *slash = strrchr(base, '/');
    if (slash)
        slash[1] = '\0';
    else
        base[0] = '\0';
    struct json_object *targets = jp_arr(doc, "targets");
    int n = 0;
    for (size_t k = 0; k < jp_len(targets); k++) {
        struct json_object *t = jp_idx(targets, k);
        const char *res = jp_str(t, "results"), *label = jp_str(t, "label");
        char p[4300];
        snprintf(p, sizeof(p), "%s%s", base, res ? res : "");
        if (!res || res[0] == '/' || strstr(res, "..") || !file_exists(p))
            continue;   /* a target that wrote nothing (not run, refused) */
        if ((unsigned)n >= max)
            return errf(err, errlen, "%s: more than %u targets' results", path, max);
        snprintf(paths[n], sizeof(paths[n]), "%s", p);
        snprintf(labels[n], sizeof(labels[n]), "%s", label ? label : "");
        n++;
    }
    if (!n)
        return errf(err, errlen, "%s: none of its targets has results", path);
    return n;
}
