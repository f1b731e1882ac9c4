/* cli_resume.c — `--resume DIR`: run a stopped run, suite or profile again from where it stopped,
 * with the command line its results file recorded (see cli.h). */
#include "cli/cli.h"
#include "cli/cli_fleet.h"
#include "cli/options.h"

#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/results.h"
#include "lib/util.h"

void cli_resume_free(struct cli_resume *r)
{
    for (int i = 0; i < r->argc; i++)
        free(r->argv[i]);
    free(r->argv);
    if (r->doc)
        json_object_put(r->doc);
    memset(r, 0, sizeof(*r));
}

/* The recorded command line ("command_line" for run and suite, "command" for profile). */
static struct json_object *recorded_argv(struct json_object *doc)
{
    struct json_object *a;
    if ((json_object_object_get_ex(doc, "command_line", &a) ||
         json_object_object_get_ex(doc, "command", &a)) &&
        json_object_is_type(a, json_type_array))
        return a;
    return NULL;
}

int cli_resume_load(const char *dir, const char *schema, const char *const *commands,
                    struct cli_resume *r, char *err, size_t errlen)
{
    memset(r, 0, sizeof(*r));
    char path[4200];
    snprintf(path, sizeof(path), "%s/results.json", dir);
    r->doc = json_object_from_file(path);
    if (!r->doc || !json_object_is_type(r->doc, json_type_object)) {
        cli_resume_free(r);
        return errf(err, errlen, "--resume %s: cannot read %s as a results file", dir, path);
    }
    results_upgrade(r->doc);   /* a version-1 file goes on as version 2 */
    struct json_object *v;
    const char *have = json_object_object_get_ex(r->doc, "schema", &v) &&
                               json_object_is_type(v, json_type_string)
                           ? json_object_get_string(v) : "";
    if (strcmp(have, schema) != 0) {
        errf(err, errlen, "--resume %s: %s is a '%s' results file, not %s", dir, path, have,
             schema);
        cli_resume_free(r);
        return -1;
    }
    char why[512];
    r->life = results_life_of(r->doc, why, sizeof(why));
    if (r->life == RESULTS_COMPLETE) {
        cli_resume_free(r);
        return 1;
    }
    if (r->life == RESULTS_RUNNING || r->life == RESULTS_UNKNOWN) {
        errf(err, errlen, "--resume %s: %s (resume a run only once its writer is gone)", dir,
             why);
        cli_resume_free(r);
        return -1;
    }
    struct json_object *a = recorded_argv(r->doc);
    size_t n = a ? json_object_array_length(a) : 0, start = n;
    for (size_t i = 0; i < n && start == n; i++) {
        const char *s = json_object_get_string(json_object_array_get_idx(a, i));
        for (const char *const *c = commands; s && *c && start == n; c++)
            if (!strcmp(s, *c))
                start = i;
    }
    if (start == n) {
        errf(err, errlen, "--resume %s: %s records no command line to run again", dir, path);
        cli_resume_free(r);
        return -1;
    }
    /* the recorded arguments, then the results directory given now (the recorded one may be
     * relative to another working directory), and --force: its results.json is replaced */
    r->argc = (int)(n - start) + 3;
    r->argv = xcalloc((size_t)r->argc + 1, sizeof(*r->argv));
    for (size_t i = start; i < n; i++) {
        const char *s = json_object_get_string(json_object_array_get_idx(a, i));
        r->argv[i - start] = xstrdup(s ? s : "");
    }
    r->argv[r->argc - 3] = xstrdup("--out");
    r->argv[r->argc - 2] = xstrdup(dir);
    r->argv[r->argc - 1] = xstrdup("--force");
    return 0;
}

/* While a resume's recorded command line runs again: its document and the resume's flags. */
static struct {
    struct json_object *doc;
    struct cli_resume_flags flags;
} pending;

int cli_resume_again(const char *cmd, const char *what, const char *dir, unsigned others,
                     const char *schema, const char *const *commands,
                     const struct cli_resume_flags *flags, cli_again_fn again)
{
    if (others) {
        fprintf(stderr, "ptsbench %s: --resume %s: the %s's options come from its results file; "
                        "only --quiet, --resume-as-is, --destructive and --overwrite-signatures "
                        "may be added\n", cmd, dir, what);
        return EXIT_USAGE;
    }
    if (cli_fleet_is_fleet(dir))   /* one command on several targets: each goes on */
        return cli_fleet_resume(cmd, dir, flags);
    char err[ERR_LEN];
    struct cli_resume r;
    int rc = cli_resume_load(dir, schema, commands, &r, err, sizeof(err));
    if (rc == 1) {
        printf("ptsbench %s: --resume %s: the %s is complete; nothing to resume\n", cmd, dir,
               what);
        return EXIT_OK;
    }
    if (rc < 0) {
        fprintf(stderr, "ptsbench %s: %s\n", cmd, err);
        return EXIT_USAGE;
    }
    pending.doc = r.doc;
    pending.flags = *flags;
    char **full = xcalloc((size_t)r.argc + 2, sizeof(*full));
    full[0] = "ptsbench";
    memcpy(full + 1, r.argv, (size_t)r.argc * sizeof(*full));
    rc = again(r.argc, r.argv, r.argc + 1, full);
    free(full);
    memset(&pending, 0, sizeof(pending));
    cli_resume_free(&r);
    return rc;
}

int cli_resume_merge(const char *cmd, struct json_object **doc, bool *resume_as_is, bool *quiet,
                     bool *destructive, bool *overwrite_signatures)
{
    if (pending.doc) {   /* parsing a resumed run's recorded command line */
        *doc = pending.doc;
        *resume_as_is = pending.flags.resume_as_is;
        *quiet |= pending.flags.quiet;
        *destructive |= pending.flags.destructive;
        *overwrite_signatures |= pending.flags.overwrite_signatures;
        return 0;
    }
    if (*resume_as_is) {
        fprintf(stderr, "ptsbench %s: --resume-as-is: only with --resume DIR\n", cmd);
        return -1;
    }
    return 0;
}

unsigned cli_resume_others(const struct cli_opt *opts, const unsigned *uses)
{
    static const char *const own[] = {"quiet", "resume", "resume-as-is", "destructive",
                                      "overwrite-signatures", NULL};
    unsigned n = 0;
    for (size_t i = 0; opts[i].name; i++) {
        bool mine = false;
        for (const char *const *o = own; *o && !mine; o++)
            mine = !strcmp(opts[i].name, *o);
        if (!mine)
            n += uses[i];
    }
    return n;
}
