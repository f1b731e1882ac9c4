/* baseline.c — replacing a gate baseline (see baseline.h). */
#include "judge/baseline.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/results.h"
#include "lib/file.h"
#include "lib/util.h"

#define GATE_MAX_DEPTH 32


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


/* Checked before anything runs, so that a bad --update-baseline is a usage error. */
int gate_baseline_plan(const char *cur, const char *path, struct gate_baseline_plan *u, char *err,
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
    int rc = file_write_atomic(dst, (const char *const[]){buf}, &len, 1, true, err, errlen);
    free(buf);
    return rc;
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
static int update_dir(const char *cur, const struct gate_baseline_plan *u, size_t *n_files, char *err,
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
        file_remove_tree(stage);
        return -1;
    }
    chmod(stage, 0755);
    if (!u->dest_exists) {
        if (rename(stage, u->dest) != 0) {
            rc = errf(err, errlen, "cannot rename %s to %s: %s", stage, u->dest, strerror(errno));
            file_remove_tree(stage);
            return rc;
        }
    } else if (renameat2(AT_FDCWD, stage, AT_FDCWD, u->dest, RENAME_EXCHANGE) == 0) {
        file_remove_tree(stage);   /* now the old baseline */
    } else {
        if (errno != EINVAL && errno != ENOSYS && errno != EOPNOTSUPP) {
            rc = errf(err, errlen, "cannot replace %s: %s", u->dest, strerror(errno));
            file_remove_tree(stage);
            return rc;
        }
        char old[PATH_MAX];
        snprintf(old, sizeof(old), "%s.old-XXXXXX", u->dest);
        if (!mkdtemp(old) || rename(u->dest, old) != 0) {
            rc = errf(err, errlen, "cannot move %s aside: %s", u->dest, strerror(errno));
            file_remove_tree(stage);
            return rc;
        }
        if (rename(stage, u->dest) != 0) {
            rc = errf(err, errlen, "cannot rename %s to %s: %s", stage, u->dest, strerror(errno));
            rename(old, u->dest);
            file_remove_tree(stage);
            return rc;
        }
        file_remove_tree(old);
    }
    fsync_dir_of(u->dest);
    return 0;
}

int gate_baseline_update(const char *cur, const struct gate_baseline_plan *u, size_t *n_files,
                           char *err, size_t errlen)
{
    if (u->dir)
        return update_dir(cur, u, n_files, err, errlen);
    *n_files = 1;
    return copy_file_atomic(cur, u->dest, err, errlen);
}

/* ---- outputs ---- */

