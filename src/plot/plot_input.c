/* plot_input.c — the RESULTS of `ptsbench plot`, loaded and named (plot_input.h). */
#include "plot/plot_input.h"

#include <errno.h>
#include <json-c/json.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "core/results.h"
#include "lib/util.h"
#include "read/shape.h"

static const char *base_name_of(const char *path, char *buf, size_t len)
{
    str_copy(buf, len, path);
    size_t n = strlen(buf);
    while (n > 1 && buf[n - 1] == '/')
        buf[--n] = '\0';
    char *slash = strrchr(buf, '/');
    return slash ? slash + 1 : buf;
}

/* Load RESULTS (a file, or a directory holding results.json) into *doc and note the file. */
static int load_input(const char *arg, struct json_object **doc, char *file, size_t flen,
                      char *tag, size_t tlen, char *err, size_t errlen)
{
    struct stat st;
    if (stat(arg, &st) != 0)
        return errf(err, errlen, "%s: %s", arg, strerror(errno));
    char dirbuf[4096], tmp[4096];
    if (S_ISDIR(st.st_mode)) {
        snprintf(file, flen, "%s%sresults.json", arg, arg[strlen(arg) - 1] == '/' ? "" : "/");
        if (stat(file, &st) != 0)
            return errf(err, errlen, "%s: no results.json in this directory", arg);
        str_copy(tag, tlen, base_name_of(arg, tmp, sizeof(tmp)));
    } else {
        str_copy(file, flen, arg);
        /* the tag: the directory holding results.json, else the file's name */
        str_copy(dirbuf, sizeof(dirbuf), arg);
        char *slash = strrchr(dirbuf, '/');
        if (slash && !strcmp(slash + 1, "results.json")) {
            *slash = '\0';
            str_copy(tag, tlen, base_name_of(dirbuf, tmp, sizeof(tmp)));
        } else {
            str_copy(tag, tlen, base_name_of(arg, tmp, sizeof(tmp)));
        }
    }
    if (!S_ISREG(st.st_mode))
        return errf(err, errlen, "%s: not a regular file", file);
    FILE *f = fopen(file, "r");
    if (!f)
        return errf(err, errlen, "%s: %s", file, strerror(errno));
    fclose(f);
    *doc = json_object_from_file(file);
    if (!*doc) {
        char why[256];
        const char *e = json_util_get_last_err();
        str_copy(why, sizeof(why), e ? e : "unreadable");
        return errf(err, errlen, "%s: not a JSON document (%s)", file, str_trim(why));
    }
    results_upgrade(*doc);   /* a version-1 file read as version 2 */
    const char *schema = pj_schema(*doc);
    if (strcmp(schema, "ptsbench.run") && strcmp(schema, "ptsbench.suite") &&
        strcmp(schema, "ptsbench.profile")) {
        errf(err, errlen, "%s: schema '%s' is not ptsbench.run, ptsbench.suite or "
                          "ptsbench.profile", file, *schema ? schema : "(none)");
        json_object_put(*doc);
        *doc = NULL;
        return -1;
    }
    if (shape_check(*doc, file, err, errlen) != 0) {   /* malformed: one error, not a crash */
        json_object_put(*doc);
        *doc = NULL;
        return -1;
    }
    return 0;
}

/* The same label twice on results of one kind (two runs of one drive, which would share
 * charts): name the later ones by their directory. */
static void distinct_names(struct plot_inputs *pi)
{
    const size_t n_paths = pi->n;
    struct plot_input *in = pi->in;
    char (*names)[512] = pi->names, (*tags)[256] = pi->tags;
    for (size_t i = 1; i < n_paths; i++) {
        for (size_t j = 0; j < i; j++) {
            if (strcmp(names[i], names[j]) ||
                strcmp(pj_schema(in[i].doc), pj_schema(in[j].doc)))
                continue;
            size_t l = strlen(names[i]);
            snprintf(names[i] + l, sizeof(names[i]) - l, " (%s)", tags[i]);
            for (size_t k = 2; k < 100; k++) {
                bool clash = false;
                for (size_t q = 0; q < n_paths; q++)
                    if (q != i && !strcmp(names[q], names[i]) &&
                        !strcmp(pj_schema(in[q].doc), pj_schema(in[i].doc)))
                        clash = true;
                if (!clash)
                    break;
                snprintf(names[i] + l, sizeof(names[i]) - l, " (%s #%zu)", tags[i], k);
            }
            break;
        }
    }
}

int plot_inputs_load(struct plot_inputs *pi, const char *const *paths, size_t n,
                     const char *const *labels, size_t n_labels, char *err, size_t errlen)
{
    pi->n = 0;
    for (size_t i = 0; i < n; i++) {
        pi->in[i].doc = NULL;
        if (load_input(paths[i], &pi->in[i].doc, pi->files[i], sizeof(pi->files[i]),
                       pi->tags[i], sizeof(pi->tags[i]), err, errlen) != 0) {
            plot_inputs_free(pi);
            return -1;
        }
        pi->n++;
        pi->in[i].source = pi->files[i];
        if (i < n_labels)
            str_copy(pi->names[i], sizeof(pi->names[i]), labels[i]);
        else
            plot_default_label(pi->in[i].doc, pi->names[i], sizeof(pi->names[i]));
        pi->in[i].label = pi->names[i];
    }
    distinct_names(pi);
    return 0;
}

void plot_inputs_free(struct plot_inputs *pi)
{
    for (size_t i = 0; i < pi->n; i++)
        json_object_put(pi->in[i].doc);
    pi->n = 0;
}
