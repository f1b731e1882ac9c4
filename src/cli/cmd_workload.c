/* cmd_workload.c — `ptsbench workload SPEC`: how a workload, above all a fio job file, will be
 * run: per group and job its workers, depth, pattern, block sizes, range, pacing and round;
 * then every line of a fio file with FILE:LINE and how it is taken (honoured, noted, refused),
 * all refusals at once. Nothing is run. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "cli/options.h"
#include "io/jobset.h"
#include "show/workload_view.h"
#include "lib/util.h"

static bool json;

static const struct cli_opt opts[] = {
    {"json", 0, CLI_FLAG, &json, .help = "the same as JSON (ptsbench.workload) on stdout"},
    {0},
};

static void cmd_workload_usage(FILE *f)
{
    fputs("usage: ptsbench workload [--json] FILE.fio[:SECTION] | SPEC | PROFILE\n"
          "\n"
          "Print how a workload will be run, without running it: per group and job the label,\n"
          "workers (numjobs), iodepth, pattern (rw, read share, random share, distribution),\n"
          "block sizes, range, pacing and round length. For a fio job file, then every key it\n"
          "gives, in order, with FILE:LINE and how it is taken: honoured, noted (what fio would\n"
          "have done differently) or refused (why). Takes what run --workload takes.\n"
          "\n",
          f);
    cli_print_options(f, opts);
    fputs("\nExit status: 0 the workload would run, 2 a key or job is refused (each printed)\n"
          "or the spec cannot be read.\n",
          f);
}

static bool wk_is_fio(const char *path)
{
    size_t n = strlen(path);
    struct stat st;
    return n > 4 && !strcmp(path + n - 4, ".fio") && stat(path, &st) == 0 &&
           S_ISREG(st.st_mode);
}

/* A fio file (FILE or FILE:SECTION): its jobs and every line's verdict. 0, 1 refused, -1. */
static int wk_fio(const char *spec, struct wl_jobset *js, struct wl_verdicts *v, bool *is_fio,
                  char *err, size_t errlen)
{
    char *base = xstrdup(spec), *colon = strrchr(base, ':');
    const char *section = NULL;
    *is_fio = wk_is_fio(base);
    if (!*is_fio && colon && colon[1]) {
        *colon = '\0';
        section = colon + 1;
        *is_fio = wk_is_fio(base);
    }
    int rc = *is_fio ? wl_fio_verdicts(base, section, js, v, err, errlen) : 0;
    if (*is_fio && rc >= 0)
        snprintf(js->source, sizeof(js->source), "%s", spec);
    if (rc > 0)
        snprintf(js->note + strlen(js->note), sizeof(js->note) - strlen(js->note),
                 "%sas read, refused keys left out: it would not run", js->note[0] ? "; " : "");
    free(base);
    return rc;
}

int cmd_workload(int argc, char **argv, int full_argc, char **full_argv)
{
    (void)full_argc;
    (void)full_argv;
    const char *pos[2];
    unsigned n_pos = 0;
    int prc = cli_parse("workload", opts, argc, argv, pos, &n_pos, 2, cmd_workload_usage);
    if (prc != CLI_GO)
        return prc == CLI_DONE ? EXIT_OK : EXIT_USAGE;
    if (n_pos != 1) {
        cmd_workload_usage(stderr);
        return EXIT_USAGE;
    }
    struct wl_jobset js;
    struct wl_verdicts v = {0};
    char err[1024];
    bool is_fio;
    int rc = wk_fio(pos[0], &js, &v, &is_fio, err, sizeof(err));
    if (!is_fio)
        rc = wl_resolve_jobs(pos[0], cli_data_dirs("profiles"), &js, err, sizeof(err));
    if (rc < 0) {
        fprintf(stderr, "ptsbench workload: %s\n", err);
        return EXIT_USAGE;
    }
    if (json)
        show_workload_json(stdout, &js, is_fio ? &v : NULL, pos[0]);
    else
        show_workload(stdout, &js, is_fio ? &v : NULL);
    wl_jobset_free(&js);
    wl_verdicts_free(&v);
    return rc ? EXIT_USAGE : EXIT_OK;
}
