/* cmd_gate.c — `ptsbench gate`: the CI performance gate.
 *
 * Loads the baseline and current results (files or directories, src/report/measure.h), pairs
 * their points by key, compares each selected metric in its direction against the tolerance and
 * the steady-state windows' own noise (src/report/gate.h has the rule), and reports as a text
 * table (stdout), JSON (--json) and JUnit XML (--junit).  --update-baseline copies the current
 * results over the baseline atomically when the gate passes.
 *
 * Exit status: 0 pass (warnings and improvements included), 1 regression or missing point,
 * 2 usage error or an output that could not be written. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <getopt.h>
#include <json-c/json.h>
#include <libgen.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "core/results.h"
#include "lib/util.h"
#include "report/gate.h"
#include "report/junit.h"
#include "report/measure.h"

#define GATE_MAX_DEPTH 32

static void usage(FILE *f)
{
    fputs(
        "usage: ptsbench gate --baseline BASE --current CUR [options]\n"
        "\n"
        "CI performance gate: compare current results with a baseline, point by point (each\n"
        "workload condition, paired by its key) and metric by metric, in each metric's own\n"
        "direction (IOPS and MB/s higher is better, latency lower is better).\n"
        "\n"
        "A change is a regression only when it goes the bad way by more than the tolerance AND\n"
        "by more than the noise band: the larger of the two steady-state windows' round-to-round\n"
        "spreads, (max - min) / mean. Beyond the tolerance but inside the band: a warning (the\n"
        "gate passes). A point or metric in the baseline but not in current fails; one only in\n"
        "current is reported as new and passes.\n"
        "\n"
        "  -b, --baseline PATH      baseline results file, or a directory of results (every\n"
        "                           results.json under it)\n"
        "  -c, --current PATH       current results file or directory\n"
        "  -t, --tolerance PCT      allowed change in percent: 5%, 5 and 5.0 all mean 5%; a bare\n"
        "                           number is always percent (0.5 is 0.5%) (default 5%)\n"
        "  -m, --metrics LIST       comma-separated: iops, read_iops, write_iops, mb_s,\n"
        "                           read_mb_s, write_mb_s, lat_mean_us, read_lat_mean_us,\n"
        "                           write_lat_mean_us, lat_p99_us, lat_p99_9_us, lat_p99_99_us,\n"
        "                           lat_max_us, or all (default iops,mb_s,lat_mean_us,lat_p99_us)\n"
        "      --junit FILE         JUnit XML: one test case per point and metric\n"
        "      --json FILE          JSON report (schema ptsbench.gate); - for stdout (the table\n"
        "                           then goes to stderr)\n"
        "      --update-baseline PATH\n"
        "                           when the gate passes, copy the current results to PATH\n"
        "                           atomically: a file to PATH (PATH/results.json when PATH is a\n"
        "                           directory); a directory's results.json files, at their\n"
        "                           relative paths, to the directory PATH, which is replaced as a\n"
        "                           whole (refused when PATH holds anything but results.json\n"
        "                           files and directories)\n"
        "      --force-update       update the baseline even when the gate fails\n"
        "      --allow-incomplete   compare results whose run did not complete (running, killed,\n"
        "                           interrupted, failed); refused by default\n"
        "  -q, --quiet              table rows only for cases that are not a plain pass\n"
        "  -h, --help               this text\n"
        "\n"
        "Exit status: 0 pass (warnings, improvements and new points included), 1 a regression,\n"
        "a missing point, or results of a run that did not complete, 2 usage error or an\n"
        "output that could not be written.\n",
        f);
}

/* ---- --update-baseline ---- */

static void strip_slashes(char *p)
{
    size_t n = strlen(p);
    while (n > 1 && p[n - 1] == '/')
        p[--n] = '\0';
}

/* Absolute, symlink-free form of a path that may not exist yet (its parent must). */
static int resolve_path(const char *path, char *out, char *err, size_t errlen)
{
    char buf[PATH_MAX];
    if (realpath(path, buf)) {
        str_copy(out, PATH_MAX, buf);
        return 0;
    }
    char d[PATH_MAX], b[PATH_MAX];
    str_copy(d, sizeof(d), path);
    str_copy(b, sizeof(b), path);
    const char *dir = dirname(d), *base = basename(b);
    if (!realpath(dir, buf))
        return errf(err, errlen, "--update-baseline '%s': directory %s: %s", path, dir,
                    strerror(errno));
    if ((size_t)snprintf(out, PATH_MAX, "%s/%s", strcmp(buf, "/") ? buf : "", base) >= PATH_MAX)
        return errf(err, errlen, "--update-baseline '%s': path too long", path);
    return 0;
}

static bool path_within(const char *inner, const char *outer)
{
    size_t n = strlen(outer);
    if (!strcmp(outer, "/"))
        return true;
    return !strncmp(inner, outer, n) && (inner[n] == '/' || inner[n] == '\0');
}

struct file_list {
    char **rel;
    size_t n, cap;
};

static void list_add(struct file_list *l, const char *rel)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 16;
        l->rel = xrealloc(l->rel, l->cap * sizeof(*l->rel));
    }
    l->rel[l->n++] = xstrdup(rel);
}

static void list_free(struct file_list *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->rel[i]);
    free(l->rel);
    memset(l, 0, sizeof(*l));
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Walk root/rel.  Collecting (l set): the results.json files, relative to root, found the way
 * meas_load() finds them (hidden entries and fio's artifact directories skipped, symlinks
 * followed).  Checking (foreign set): the first entry that is neither a directory nor a
 * results.json file (hidden ones included, symlinks not followed) is copied to foreign and the
 * walk stops with 1.  Returns 0, 1, or -1 with err. */
static int walk(const char *root, const char *rel, unsigned depth, struct file_list *l,
                char *foreign, char *err, size_t errlen)
{
    char dir[PATH_MAX];
    snprintf(dir, sizeof(dir), "%s%s%s", root, *rel ? "/" : "", rel);
    if (depth > GATE_MAX_DEPTH)
        return errf(err, errlen, "%s: directories nested too deep", dir);
    DIR *d = opendir(dir);
    if (!d)
        return errf(err, errlen, "cannot read %s: %s", dir, strerror(errno));
    int rc = 0;
    struct dirent *e;
    while (rc == 0 && (e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        if (l && (e->d_name[0] == '.' || !strcmp(e->d_name, "fio")))
            continue;
        char sub[PATH_MAX], full[PATH_MAX];
        snprintf(sub, sizeof(sub), "%s%s%s", rel, *rel ? "/" : "", e->d_name);
        snprintf(full, sizeof(full), "%s/%s", root, sub);
        struct stat st;
        if ((l ? stat(full, &st) : lstat(full, &st)) != 0) {
            rc = errf(err, errlen, "cannot stat %s: %s", full, strerror(errno));
            break;
        }
        if (S_ISDIR(st.st_mode)) {
            rc = walk(root, sub, depth + 1, l, foreign, err, errlen);
            continue;
        }
        bool is_results = !strcmp(e->d_name, "results.json") && stat(full, &st) == 0 &&
                          S_ISREG(st.st_mode);
        if (is_results && l)
            list_add(l, sub);
        else if (!is_results && foreign) {
            str_copy(foreign, PATH_MAX, full);
            rc = 1;
        }
    }
    closedir(d);
    return rc;
}

struct update_plan {
    bool dir;                  /* current is a directory */
    char dest[PATH_MAX];       /* the file or directory to replace */
    bool dest_exists;
};

/* Checked before anything runs, so that a bad --update-baseline is a usage error. */
static int update_plan(const char *cur, const char *path, struct update_plan *u, char *err,
                       size_t errlen)
{
    memset(u, 0, sizeof(*u));
    struct stat cs, ds;
    if (stat(cur, &cs) != 0)
        return errf(err, errlen, "--current '%s': %s", cur, strerror(errno));
    char dest[PATH_MAX];
    str_copy(dest, sizeof(dest), path);
    strip_slashes(dest);
    if (!*dest)
        return errf(err, errlen, "--update-baseline: empty path");
    bool exists = stat(dest, &ds) == 0;
    if (S_ISDIR(cs.st_mode)) {
        u->dir = true;
        if (exists && !S_ISDIR(ds.st_mode))
            return errf(err, errlen, "--update-baseline '%s': not a directory, and --current is "
                        "a directory of results", path);
        char rc_[PATH_MAX], rd[PATH_MAX];
        if (!realpath(cur, rc_))
            return errf(err, errlen, "--current '%s': %s", cur, strerror(errno));
        if (resolve_path(dest, rd, err, errlen) != 0)
            return -1;
        if (path_within(rc_, rd) || path_within(rd, rc_))
            return errf(err, errlen, "--update-baseline '%s': overlaps the current results "
                        "directory %s", path, cur);
        if (exists) {
            char foreign[PATH_MAX];
            int w = walk(rd, "", 0, NULL, foreign, err, errlen);
            if (w < 0)
                return -1;
            if (w == 1)
                return errf(err, errlen, "--update-baseline '%s': holds %s, not a results.json "
                            "file; refusing to replace the directory", path, foreign);
        }
        str_copy(u->dest, sizeof(u->dest), rd);
        u->dest_exists = exists;
        return 0;
    }
    if (!S_ISREG(cs.st_mode))
        return errf(err, errlen, "--current '%s': not a file or directory", cur);
    if (exists && S_ISDIR(ds.st_mode)) {
        if ((size_t)snprintf(u->dest, sizeof(u->dest), "%s/results.json", dest) >=
            sizeof(u->dest))
            return errf(err, errlen, "--update-baseline '%s': path too long", path);
    } else {
        str_copy(u->dest, sizeof(u->dest), dest);
    }
    if (stat(u->dest, &ds) == 0 && !S_ISREG(ds.st_mode))
        return errf(err, errlen, "--update-baseline '%s': not a regular file", u->dest);
    char d[PATH_MAX];
    str_copy(d, sizeof(d), u->dest);
    const char *parent = dirname(d);
    if (stat(parent, &ds) != 0 || !S_ISDIR(ds.st_mode))
        return errf(err, errlen, "--update-baseline '%s': no directory %s", path, parent);
    return 0;
}

static int read_all(const char *path, char **buf, size_t *len, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return errf(err, errlen, "cannot read %s: %s", path, strerror(errno));
    size_t cap = 1 << 16, n = 0;
    char *b = xcalloc(1, cap);
    size_t got;
    while ((got = fread(b + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            cap *= 2;
            b = xrealloc(b, cap);
        }
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        free(b);
        return errf(err, errlen, "cannot read %s", path);
    }
    *buf = b;
    *len = n;
    return 0;
}

static int copy_file_atomic(const char *src, const char *dst, char *err, size_t errlen)
{
    char *buf = NULL;
    size_t len = 0;
    if (read_all(src, &buf, &len, err, errlen) != 0)
        return -1;
    int rc = gate_write_file_atomic(dst, buf, len, err, errlen);
    free(buf);
    return rc;
}

static int rm_one(const char *p, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb;
    (void)flag;
    (void)ftw;
    return remove(p);
}

static void rm_tree(const char *path)
{
    nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

static void fsync_dir_of(const char *path)
{
    char d[PATH_MAX];
    str_copy(d, sizeof(d), path);
    int fd = open(dirname(d), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        fsync(fd);
        close(fd);
    }
}

/* mkdir -p of the directories of rel under root. */
static int make_parents(const char *root, const char *rel, char *err, size_t errlen)
{
    char p[PATH_MAX];
    snprintf(p, sizeof(p), "%s/%s", root, rel);
    for (char *s = p + strlen(root) + 1; (s = strchr(s, '/')); s++) {
        *s = '\0';
        if (mkdir(p, 0755) != 0 && errno != EEXIST)
            return errf(err, errlen, "cannot create %s: %s", p, strerror(errno));
        *s = '/';
    }
    return 0;
}

/* A directory: build the new baseline beside PATH (PATH.tmp-XXXXXX), then swap it in with one
 * rename (RENAME_EXCHANGE when PATH exists, so that PATH is never absent; where the filesystem
 * lacks it, PATH is moved aside first), and remove the old one. */
static int update_dir(const char *cur, const struct update_plan *u, size_t *n_files, char *err,
                      size_t errlen)
{
    struct file_list l = {0};
    char curdir[PATH_MAX];
    str_copy(curdir, sizeof(curdir), cur);
    strip_slashes(curdir);
    if (walk(curdir, "", 0, &l, NULL, err, errlen) != 0) {
        list_free(&l);
        return -1;
    }
    if (l.n == 0) {
        list_free(&l);
        return errf(err, errlen, "%s: no results.json to copy", cur);
    }
    qsort(l.rel, l.n, sizeof(*l.rel), cmp_str);
    char stage[PATH_MAX];
    snprintf(stage, sizeof(stage), "%s.tmp-XXXXXX", u->dest);
    if (!mkdtemp(stage)) {
        list_free(&l);
        return errf(err, errlen, "cannot create %s: %s", stage, strerror(errno));
    }
    int rc = 0;
    for (size_t i = 0; i < l.n && rc == 0; i++) {
        char src[PATH_MAX], dst[PATH_MAX];
        snprintf(src, sizeof(src), "%s/%s", curdir, l.rel[i]);
        snprintf(dst, sizeof(dst), "%s/%s", stage, l.rel[i]);
        rc = make_parents(stage, l.rel[i], err, errlen);
        if (rc == 0)
            rc = copy_file_atomic(src, dst, err, errlen);
    }
    *n_files = l.n;
    list_free(&l);
    if (rc != 0) {
        rm_tree(stage);
        return -1;
    }
    chmod(stage, 0755);
    if (!u->dest_exists) {
        if (rename(stage, u->dest) != 0) {
            rc = errf(err, errlen, "cannot rename %s to %s: %s", stage, u->dest, strerror(errno));
            rm_tree(stage);
            return rc;
        }
    } else if (renameat2(AT_FDCWD, stage, AT_FDCWD, u->dest, RENAME_EXCHANGE) == 0) {
        rm_tree(stage);   /* now the old baseline */
    } else {
        if (errno != EINVAL && errno != ENOSYS && errno != EOPNOTSUPP) {
            rc = errf(err, errlen, "cannot replace %s: %s", u->dest, strerror(errno));
            rm_tree(stage);
            return rc;
        }
        char old[PATH_MAX];
        snprintf(old, sizeof(old), "%s.old-XXXXXX", u->dest);
        if (!mkdtemp(old) || rename(u->dest, old) != 0) {
            rc = errf(err, errlen, "cannot move %s aside: %s", u->dest, strerror(errno));
            rm_tree(stage);
            return rc;
        }
        if (rename(stage, u->dest) != 0) {
            rc = errf(err, errlen, "cannot rename %s to %s: %s", stage, u->dest, strerror(errno));
            rename(old, u->dest);
            rm_tree(stage);
            return rc;
        }
        rm_tree(old);
    }
    fsync_dir_of(u->dest);
    return 0;
}

static int update_baseline(const char *cur, const struct update_plan *u, size_t *n_files,
                           char *err, size_t errlen)
{
    if (u->dir)
        return update_dir(cur, u, n_files, err, errlen);
    *n_files = 1;
    return copy_file_atomic(cur, u->dest, err, errlen);
}

/* ---- outputs ---- */

static int write_json(const struct gate_result *r, const char *path, char *err, size_t errlen)
{
    struct json_object *doc = gate_json(r);
    int rc = 0;
    if (!strcmp(path, "-")) {
        json_c_set_serialization_double_format("%.10g", JSON_C_OPTION_GLOBAL);
        fputs(json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PRETTY |
                                                      JSON_C_TO_STRING_SPACED |
                                                      JSON_C_TO_STRING_NOSLASHESCAPE),
              stdout);
        fputc('\n', stdout);
        if (fflush(stdout) != 0 || ferror(stdout))
            rc = errf(err, errlen, "cannot write the JSON report to stdout");
    } else {
        rc = results_write_json_atomic(doc, path, err, errlen);
    }
    json_object_put(doc);
    return rc;
}

static int write_junit(const struct gate_result *r, const char *path, char *err, size_t errlen)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return errf(err, errlen, "out of memory");
    int bad = junit_write(f, r, NULL);
    if (fclose(f) != 0 || bad) {
        free(buf);
        return errf(err, errlen, "cannot format the JUnit report");
    }
    int rc = gate_write_file_atomic(path, buf, len, err, errlen);
    free(buf);
    return rc;
}

int cmd_gate(int argc, char **argv, int full_argc, char **full_argv)
{
    (void)full_argc;
    (void)full_argv;
    enum { O_JUNIT = 256, O_JSON, O_UPDATE, O_FORCE_UPDATE, O_INCOMPLETE };
    static const struct option opts[] = {
        {"baseline", required_argument, NULL, 'b'},
        {"current", required_argument, NULL, 'c'},
        {"tolerance", required_argument, NULL, 't'},
        {"metrics", required_argument, NULL, 'm'},
        {"junit", required_argument, NULL, O_JUNIT},
        {"json", required_argument, NULL, O_JSON},
        {"update-baseline", required_argument, NULL, O_UPDATE},
        {"force-update", no_argument, NULL, O_FORCE_UPDATE},
        {"allow-incomplete", no_argument, NULL, O_INCOMPLETE},
        {"quiet", no_argument, NULL, 'q'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    const char *baseline = NULL, *current = NULL, *junit = NULL, *json = NULL, *update = NULL;
    bool force_update = false, quiet = false, allow_incomplete = false;
    double tolerance = GATE_DEFAULT_TOLERANCE;
    enum meas_metric metrics[MEAS_N];
    int n_metrics = 0;
    char err[ERR_LEN];
    opterr = 0;
    optind = 1;
    int c;
    while ((c = getopt_long(argc, argv, ":b:c:t:m:qh", opts, NULL)) != -1) {
        err[0] = '\0';
        switch (c) {
        case 'b': baseline = optarg; break;
        case 'c': current = optarg; break;
        case 't':
            if (gate_parse_tolerance(optarg, &tolerance, err, sizeof(err)) != 0)
                goto bad;
            break;
        case 'm':
            n_metrics = gate_parse_metrics(optarg, metrics, err, sizeof(err));
            if (n_metrics < 0)
                goto bad;
            break;
        case O_JUNIT: junit = optarg; break;
        case O_JSON: json = optarg; break;
        case O_UPDATE: update = optarg; break;
        case O_FORCE_UPDATE: force_update = true; break;
        case O_INCOMPLETE: allow_incomplete = true; break;
        case 'q': quiet = true; break;
        case 'h': usage(stdout); return EXIT_OK;
        case ':':
            fprintf(stderr, "ptsbench gate: option '%s' needs a value\n", argv[optind - 1]);
            return EXIT_USAGE;
        default:
            fprintf(stderr, "ptsbench gate: unknown option '%s' (see ptsbench gate --help)\n",
                    argv[optind - 1]);
            return EXIT_USAGE;
        }
        continue;
    bad:
        fprintf(stderr, "ptsbench gate: %s\n", err);
        return EXIT_USAGE;
    }
    if (optind < argc) {
        fprintf(stderr, "ptsbench gate: unexpected argument '%s' (see ptsbench gate --help)\n",
                argv[optind]);
        return EXIT_USAGE;
    }
    if (!baseline || !current) {
        fprintf(stderr, "ptsbench gate: --%s is required (see ptsbench gate --help)\n",
                !baseline ? "baseline" : "current");
        return EXIT_USAGE;
    }
    if (force_update && !update) {
        fprintf(stderr, "ptsbench gate: --force-update needs --update-baseline PATH\n");
        return EXIT_USAGE;
    }
    if ((junit && !*junit) || (json && !*json)) {
        fprintf(stderr, "ptsbench gate: --%s: empty file name\n", junit && !*junit ? "junit"
                                                                                  : "json");
        return EXIT_USAGE;
    }

    struct meas_set base = {0}, cur = {0};
    if (meas_load(baseline, &base, err, sizeof(err)) != 0) {
        fprintf(stderr, "ptsbench gate: --baseline: %s\n", err);
        return EXIT_USAGE;
    }
    if (meas_load(current, &cur, err, sizeof(err)) != 0) {
        fprintf(stderr, "ptsbench gate: --current: %s\n", err);
        meas_free(&base);
        return EXIT_USAGE;
    }
    /* a killed, failed or still-running run is not a measurement to gate on */
    for (int k = 0; k < 2 && !allow_incomplete; k++) {
        const struct meas_set *m = k ? &cur : &base;
        if (!m->n_incomplete)
            continue;
        fprintf(stderr, "ptsbench gate: --%s: %s%s (add --allow-incomplete to gate on it)\n",
                k ? "current" : "baseline", m->incomplete,
                m->n_incomplete > 1 ? ", and more files" : "");
        meas_free(&base);
        meas_free(&cur);
        return 1;
    }
    struct update_plan plan;
    if (update && update_plan(current, update, &plan, err, sizeof(err)) != 0) {
        fprintf(stderr, "ptsbench gate: %s\n", err);
        meas_free(&base);
        meas_free(&cur);
        return EXIT_USAGE;
    }

    struct gate_options o = {
        .tolerance = tolerance,
        .metrics = n_metrics > 0 ? metrics : NULL,
        .n_metrics = n_metrics > 0 ? (size_t)n_metrics : 0,
        .baseline_path = baseline,
        .current_path = current,
    };
    struct gate_result r;
    gate_run(&base, &cur, &o, &r);
    meas_free(&base);
    meas_free(&cur);
    if (r.compared == 0) {
        char ms[512] = "";
        for (size_t k = 0; k < r.n_metrics; k++) {
            size_t l = strlen(ms);
            snprintf(ms + l, sizeof(ms) - l, "%s%s", k ? "," : "",
                     meas_metric_name(r.metrics[k]));
        }
        fprintf(stderr, "ptsbench gate: nothing to compare: no point of %s has any of the "
                "metrics %s\n", baseline, ms);
        gate_result_free(&r);
        return EXIT_USAGE;
    }

    bool json_stdout = json && !strcmp(json, "-");
    FILE *tf = json_stdout ? stderr : stdout;
    gate_write_text(tf, &r, quiet);
    fflush(tf);

    int status = r.failed ? 1 : EXIT_OK;
    if (json && write_json(&r, json, err, sizeof(err)) != 0) {
        fprintf(stderr, "ptsbench gate: --json: %s\n", err);
        status = EXIT_USAGE;
    }
    if (junit && write_junit(&r, junit, err, sizeof(err)) != 0) {
        fprintf(stderr, "ptsbench gate: --junit: %s\n", err);
        status = EXIT_USAGE;
    }
    if (update) {
        if (r.failed && !force_update) {
            fprintf(tf, "baseline not updated: the gate failed (--force-update writes it "
                    "anyway)\n");
        } else {
            size_t n_files = 0;
            if (update_baseline(current, &plan, &n_files, err, sizeof(err)) != 0) {
                fprintf(stderr, "ptsbench gate: --update-baseline: %s\n", err);
                status = EXIT_USAGE;
            } else {
                fprintf(tf, "baseline updated: %s (%zu results file%s)%s\n", plan.dest, n_files,
                        n_files == 1 ? "" : "s", r.failed ? ", forced although the gate failed"
                                                         : "");
            }
        }
    }
    gate_result_free(&r);
    return status;
}
