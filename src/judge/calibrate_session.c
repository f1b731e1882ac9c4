/* calibrate_session.c — `ptsbench sim --calibration` below the command line (see
 * calibrate_session.h). */
#include "judge/calibrate_session.h"

#include <errno.h>
#include <json-c/json.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/results.h"
#include "lib/file.h"
#include "lib/util.h"
#include "read/measure.h"
#include "sim/sim_preset.h"

/* The sheet PRESET.ini in the first directory that has it, into path ("" none). */
static void find_sheet(const char *const *dirs, const char *preset, char *path, size_t len)
{
    path[0] = '\0';
    for (size_t i = 0; dirs[i] && !path[0]; i++) {
        snprintf(path, len, "%s/%s.ini", dirs[i], preset);
        if (!file_exists(path))
            path[0] = '\0';
    }
}

int calib_session_prepare(struct calib_session *s, const struct calib_config *cfg, char *err,
                          size_t errlen)
{
    memset(s, 0, sizeof(*s));
    s->cfg = *cfg;
    const char *spec = cfg->spec;
    /* PRESET[,key=value...]: the sheet is PRESET's; the overrides are checked here (one line
     * naming the bad key or value, exit 2) before any command runs */
    if (strncmp(spec, "sim:", 4) == 0)
        spec += 4;
    const char *comma = strchr(spec, ',');
    const size_t plen = comma ? (size_t)(comma - spec) : strlen(spec);
    if (plen == 0 || plen >= sizeof(s->preset) || (comma && !comma[1]))
        return errf(err, errlen, "--calibration %s: expected PRESET[,key=value...]", spec);
    memcpy(s->preset, spec, plen);
    s->preset[plen] = '\0';
    if (comma) {
        char target[2048], why[ERR_LEN];
        struct sim_params p;
        snprintf(target, sizeof target, "sim:%s", spec);
        if (sim_target_parse(target, cfg->preset_dirs, &p, why, sizeof why) < 0)
            return errf(err, errlen, "--calibration %s: %s", spec, why);
    }
    char path[4200];
    find_sheet(cfg->sheet_dirs, s->preset, path, sizeof(path));
    if (!path[0])
        return errf(err, errlen, "--calibration %s: no calibration sheet %s.ini in "
                    "profiles/devices/calibration", s->preset, s->preset);
    if (calib_load(path, &s->sheet, err, errlen) != 0)
        return -1;
    if (comma && strlen(comma + 1) >= sizeof(s->sheet.overrides)) {
        errf(err, errlen, "--calibration %s: overrides longer than %zu bytes", spec,
             sizeof(s->sheet.overrides) - 1);
        calib_session_free(s);
        return -1;
    }
    if (comma)
        str_copy(s->sheet.overrides, sizeof(s->sheet.overrides), comma + 1);
    return 0;
}

/* The commands' results directory: --keep's (made), or a new temporary one. 0, or the exit
 * status with the line printed. */
static int results_dir(const struct calib_session *s, char *dir, size_t len)
{
    char err[ERR_LEN];
    if (s->cfg.keep) {
        if (file_mkdir_p(s->cfg.keep, err, sizeof(err)) != 0) {
            fprintf(stderr, "ptsbench sim: --keep %s: %s\n", s->cfg.keep, err);
            return EXIT_USAGE;
        }
        str_copy(dir, len, s->cfg.keep);
        return 0;
    }
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, len, "%s/ptsbench-calibration-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir)) {
        fprintf(stderr, "ptsbench sim: cannot make a directory %s: %s\n", dir, strerror(errno));
        return EXIT_FAILURE_RUN;
    }
    return 0;
}

/* Each command's points (measure.h, a stopped run's too) judged against the rows, the table
 * printed and --json written. The exit status. */
static int judge_and_print(struct calib_session *s)
{
    struct calib_sheet *sh = &s->sheet;
    int code = EXIT_OK;
    struct meas_set *sets = xcalloc(sh->ncmd ? sh->ncmd : 1, sizeof(*sets));
    const struct meas_set **use = xcalloc(sh->ncmd ? sh->ncmd : 1, sizeof(*use));
    for (size_t i = 0; i < sh->ncmd; i++) {
        if (sh->cmd[i].status != 0)
            continue;
        char e2[ERR_LEN];
        if (meas_load_flags(sh->cmd[i].dir, MEAS_LOAD_RECOVERY, &sets[i], e2, sizeof(e2)) == 0)
            use[i] = &sets[i];
        else
            snprintf(sh->cmd[i].err, sizeof(sh->cmd[i].err), "its results: %s", e2);
    }
    calib_judge(sh, use);
    calib_print(sh, stdout);
    const struct calib_count c = calib_counts(sh);
    bool failed = false;
    for (size_t i = 0; i < sh->ncmd; i++)
        failed = failed || sh->cmd[i].status != 0;
    if (failed || c.failing)
        code = EXIT_FAILURE_RUN;
    if (s->cfg.json) {
        char err[ERR_LEN];
        struct json_object *doc = calib_json(sh);
        if (results_write_json_atomic(doc, s->cfg.json, err, sizeof(err)) != 0) {
            fprintf(stderr, "ptsbench sim: --json %s: %s\n", s->cfg.json, err);
            code = EXIT_FAILURE_RUN;
        }
        json_object_put(doc);
    }
    for (size_t i = 0; i < sh->ncmd; i++)
        if (use[i])
            meas_free(&sets[i]);
    free(sets);
    free(use);
    return code;
}

int calib_session_execute(struct calib_session *s)
{
    struct calib_sheet *sh = &s->sheet;
    char dir[4096], err[ERR_LEN];
    int code = results_dir(s, dir, sizeof(dir));
    if (code != 0)
        return code;
    char exe[4096];
    const ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
    if (n <= 0) {
        fprintf(stderr, "ptsbench sim: cannot find this program (/proc/self/exe): %s\n",
                strerror(errno));
        return EXIT_FAILURE_RUN;
    }
    exe[n] = '\0';
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    const unsigned j = s->cfg.jobs ? s->cfg.jobs : cpus < 1 ? 1 : cpus > 8 ? 8 : (unsigned)cpus;
    fprintf(stderr, "calibration %s: %zu rows, %zu commands, %u at a time, results in %s\n",
            sh->preset, sh->n, sh->ncmd, j, dir);
    if (calib_run(sh, exe, dir, j, s->cfg.stop, stderr, err, sizeof(err)) != 0) {
        fprintf(stderr, "ptsbench sim: --calibration %s: %s\n", s->preset, err);
        code = *s->cfg.stop ? 130 : EXIT_FAILURE_RUN;
    } else {
        code = judge_and_print(s);
    }
    if (!s->cfg.keep)
        file_remove_tree(dir);
    return code;
}

void calib_session_free(struct calib_session *s)
{
    calib_free(&s->sheet);
}
