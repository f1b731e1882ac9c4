/* plot_input.c — the RESULTS of `ptsbench plot`, loaded and named (plot_input.h). */
#include "plot/plot_input.h"

#include <json-c/json.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "lib/util.h"
#include "read/load.h"

static const char *base_name_of(const char *path, char *buf, size_t len)
{
    str_copy(buf, len, path);
    size_t n = strlen(buf);
    while (n > 1 && buf[n - 1] == '/')
        buf[--n] = '\0';
    char *slash = strrchr(buf, '/');
    return slash ? slash + 1 : buf;
}

/* The tag of RESULTS: its directory's name (the directory holding results.json), else the
 * file's name. */
static void tag_of(const char *arg, const char *file, char *tag, size_t tlen)
{
    char dirbuf[4096], tmp[4096];
    str_copy(dirbuf, sizeof(dirbuf), file);
    char *slash = strrchr(dirbuf, '/');
    if (slash && !strcmp(slash + 1, "results.json") && strcmp(arg, file)) {
        str_copy(tag, tlen, base_name_of(arg, tmp, sizeof(tmp)));   /* a directory given */
        return;
    }
    if (slash && !strcmp(slash + 1, "results.json")) {
        *slash = '\0';
        str_copy(tag, tlen, base_name_of(dirbuf, tmp, sizeof(tmp)));
    } else {
        str_copy(tag, tlen, base_name_of(file, tmp, sizeof(tmp)));
    }
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
                strcmp(read_schema(in[i].doc), read_schema(in[j].doc)))
                continue;
            size_t l = strlen(names[i]);
            snprintf(names[i] + l, sizeof(names[i]) - l, " (%s)", tags[i]);
            for (size_t k = 2; k < 100; k++) {
                bool clash = false;
                for (size_t q = 0; q < n_paths; q++)
                    if (q != i && !strcmp(names[q], names[i]) &&
                        !strcmp(read_schema(in[q].doc), read_schema(in[i].doc)))
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
        if (read_load(paths[i], READ_RESULTS, READ_VOICE_PLAIN, &pi->in[i].doc, pi->files[i],
                      sizeof(pi->files[i]), err, errlen) != 0) {
            plot_inputs_free(pi);
            return -1;
        }
        tag_of(paths[i], pi->files[i], pi->tags[i], sizeof(pi->tags[i]));
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
