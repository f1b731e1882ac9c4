/* jobs.c — a run's jobs and groups from its results document (jobs.h). */
#include "read/jobs.h"

#include <json-c/json.h>
#include <string.h>

#include "lib/json_path.h"

bool read_run_multi(struct json_object *doc)
{
    return read_run_n_jobs(doc) > 1;
}

unsigned read_run_n_jobs(struct json_object *doc)
{
    return (unsigned)jp_len(jp_arr_at(doc, "jobs"));
}

unsigned read_run_n_groups(struct json_object *doc)
{
    return (unsigned)jp_len(jp_arr_at(doc, "groups"));
}

bool read_run_group(struct json_object *doc, unsigned g, struct read_group *out)
{
    memset(out, 0, sizeof(*out));
    struct json_object *go = jp_idx(jp_arr_at(doc, "groups"), g);
    if (!go)
        return false;
    out->group = (unsigned)jp_path(go, "group");
    double f = jp_path(go, "first_round"), l = jp_path(go, "last_round");
    out->first_round = f > 0 ? (unsigned)f : 0;
    out->last_round = l > 0 ? (unsigned)l : 0;
    out->done = jp_true(jp_at(go, "done"));
    out->labels = jp_arr_at(go, "jobs");
    out->steady = jp_obj_at(go, "steady_state");
    return true;
}

static struct json_object *by_label(struct json_object *arr, const char *label)
{
    size_t n = jp_len(arr);
    for (size_t i = 0; label && i < n; i++) {
        struct json_object *o = jp_idx(arr, i);
        const char *l = jp_str(o, "label");
        if (l && !strcmp(l, label))
            return o;
    }
    return NULL;
}

struct json_object *read_run_job(struct json_object *doc, const char *label)
{
    return by_label(jp_arr_at(doc, "jobs"), label);
}

struct json_object *read_run_job_at(struct json_object *doc, unsigned i)
{
    return jp_idx(jp_arr_at(doc, "jobs"), i);
}

struct json_object *read_round_job(struct json_object *round, const char *label)
{
    return by_label(jp_arr_at(round, "jobs"), label);
}
