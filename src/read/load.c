/* load.c — the one loader of results documents (load.h). */
#include "read/load.h"

#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "core/results.h"
#include "lib/json_path.h"
#include "lib/util.h"
#include "read/shape.h"

static const struct {
    const char *schema;
    unsigned kind;
} kinds[] = {
    {"ptsbench.run", READ_RUN},         {"ptsbench.suite", READ_SUITE},
    {"ptsbench.profile", READ_PROFILE}, {"ptsbench.replay", READ_REPLAY},
    {"ptsbench.crosscheck", READ_CROSSCHECK}, {"ptsbench.fleet", READ_FLEET},
};

unsigned read_kind_of(const char *schema)
{
    for (size_t i = 0; schema && i < sizeof(kinds) / sizeof(kinds[0]); i++)
        if (!strcmp(schema, kinds[i].schema))
            return kinds[i].kind;
    return 0;
}

const char *read_schema(struct json_object *doc)
{
    const char *s = jp_str(doc, "schema");
    return s ? s : "";
}

bool read_simulated(struct json_object *doc)
{
    struct json_object *t = jp_get(doc, "target");
    if (json_object_is_type(jp_get(t, "simulated"), json_type_object))
        return true;
    const char *kind = jp_str(t, "kind");
    if (kind && !strcmp(kind, "simulated"))
        return true;
    return jp_true(jp_at(doc, "state.simulated")) ||
           jp_true(jp_at(doc, "compliance.simulated"));
}

bool read_rec_has_trim(struct json_object *rec)
{
    return jp_obj_at(rec, "trim") != NULL;
}

/* Any record of arr, or of its records' sub-array sub (NULL: none), with a trim object. */
static bool any_trim(struct json_object *arr, const char *sub)
{
    for (size_t i = 0; i < jp_len(arr); i++) {
        struct json_object *r = jp_idx(arr, i);
        if (read_rec_has_trim(r) || (sub && any_trim(jp_arr(r, sub), NULL)))
            return true;
    }
    return false;
}

bool read_has_trim(struct json_object *doc)
{
    if (any_trim(jp_arr(doc, "rounds"), "jobs") || any_trim(jp_arr(doc, "passes"), NULL) ||
        read_rec_has_trim(jp_obj_at(doc, "total")))
        return true;
    struct json_object *pts = jp_arr(doc, "points");
    for (size_t i = 0; i < jp_len(pts); i++) {
        struct json_object *p = jp_idx(pts, i);
        if (read_rec_has_trim(jp_obj_at(p, "result")) || any_trim(jp_arr(p, "rounds"), NULL))
            return true;
    }
    return false;
}

/* ARG, or ARG/results.json when ARG is a directory, into path. -1 with one line. */
static int resolve(const char *arg, enum read_voice voice, char *path, size_t len, char *err,
                   size_t errlen)
{
    struct stat st;
    if (stat(arg, &st) != 0)
        return voice == READ_VOICE_REPORT
                   ? errf(err, errlen, "%s: no such file or directory", arg)
                   : errf(err, errlen, "%s: %s", arg, strerror(errno));
    if (S_ISDIR(st.st_mode)) {
        snprintf(path, len, "%s%sresults.json", arg, arg[strlen(arg) - 1] == '/' ? "" : "/");
        if (stat(path, &st) != 0)
            return errf(err, errlen, "%s: no results.json in this directory", arg);
    } else {
        snprintf(path, len, "%s", arg);
    }
    if (!S_ISREG(st.st_mode))
        return errf(err, errlen, "%s: not a regular file", path);
    return 0;
}

/* A file that json-c could not read: why, in one line. */
static int unreadable(const char *path, enum read_voice voice, char *err, size_t errlen)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return errf(err, errlen, "%s: %s", path, strerror(errno));
    fclose(f);
    if (voice == READ_VOICE_REPORT)
        return errf(err, errlen, "%s: not a readable JSON results file", path);
    char why[256];
    const char *e = json_util_get_last_err();
    str_copy(why, sizeof(why), e ? e : "unreadable");
    for (char *c = why; *c; c++)   /* json-c's message ends in a newline: one line */
        if (*c == '\n' || *c == '\r')
            *c = ' ';
    if (voice == READ_VOICE_SHOW)
        return errf(err, errlen, "%s: cannot read it as JSON (%s)", path, str_trim(why));
    return errf(err, errlen, "%s: not a JSON document (%s)", path, str_trim(why));
}

/* A schema the caller does not read: one line naming it. */
static int refused(const char *path, const char *schema, enum read_voice voice, char *err,
                   size_t errlen)
{
    if (voice == READ_VOICE_SHOW)
        return errf(err, errlen, "%s: not a ptsbench results file (run, suite, profile, "
                    "replay, crosscheck or a command's on several targets)", path);
    /* the schema's text belongs to the document: one line of it */
    char shown[65];
    str_copy(shown, sizeof(shown), schema ? schema : "");
    for (char *q = shown; *q; q++)
        if ((unsigned char)*q < 0x20 || *q == 0x7f)
            *q = '?';
    return errf(err, errlen, "%s: schema '%s' is not a ptsbench run, suite or profile result",
                path, shown);
}

int read_load(const char *arg, unsigned accept, enum read_voice voice, struct json_object **doc,
              char *path, size_t pathlen, char *err, size_t errlen)
{
    *doc = NULL;
    char own[4200];
    if (!path) {
        path = own;
        pathlen = sizeof(own);
    }
    if (resolve(arg, voice, path, pathlen, err, errlen) != 0)
        return -1;
    struct json_object *d = json_object_from_file(path);
    if (!d)
        return unreadable(path, voice, err, errlen);
    results_upgrade(d);   /* a version-1 file read as version 2 */
    const char *schema = jp_str(d, "schema");
    if (accept != READ_ANY && !(read_kind_of(schema) & accept)) {
        refused(path, schema, voice, err, errlen);
        json_object_put(d);
        return -1;
    }
    if (shape_check(d, path, err, errlen) != 0) {   /* malformed: one error, not a crash */
        json_object_put(d);
        return -1;
    }
    *doc = d;
    return 0;
}
