/* profile.c — load workload profiles (see profile.h). */
#include "profile/profile.h"

#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/ini.h"
#include "lib/util.h"

static bool is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static bool has_ini_suffix(const char *s)
{
    size_t n = strlen(s);
    return n > 4 && strcmp(s + n - 4, ".ini") == 0;
}

/* Find the file for NAME (or a path). Returns 0 with the path, or -1 with a message. */
static int profile_find(const char *name, const char *const *dirs, char *path, size_t len,
                        char *err, size_t errlen)
{
    if (is_file(name)) {
        snprintf(path, len, "%s", name);
        return 0;
    }
    if (strchr(name, '/') || has_ini_suffix(name))
        return errf(err, errlen, "profile '%s': no such file", name);
    char searched[1024] = "";
    for (size_t i = 0; dirs && dirs[i]; i++) {
        snprintf(path, len, "%s/%s.ini", dirs[i], name);
        if (is_file(path))
            return 0;
        size_t used = strlen(searched);
        snprintf(searched + used, sizeof(searched) - used, "%s%s", used ? ", " : "", dirs[i]);
    }
    return errf(err, errlen, "profile '%s' not found in %s (ptsbench profile --list shows the "
                             "profiles)", name, searched[0] ? searched : "(no data directories)");
}

static void base_name(const char *path, char *buf, size_t len)
{
    const char *b = strrchr(path, '/');
    b = b ? b + 1 : path;
    size_t n = strlen(b);
    if (has_ini_suffix(b))
        n -= 4;
    snprintf(buf, len, "%.*s", (int)n, b);
}

/* A profile of several workloads is described by the first line of its file's opening
 * comment (profile files start with a one-line summary). */
static void file_summary(const char *path, char *buf, size_t len)
{
    buf[0] = '\0';
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    char line[512];
    if (fgets(line, sizeof(line), f) && (line[0] == ';' || line[0] == '#')) {
        char *t = str_trim(line + 1);
        size_t n = strlen(t);
        while (n && (t[n - 1] == ',' || t[n - 1] == ';' || t[n - 1] == ':'))
            t[--n] = '\0';
        str_copy(buf, len, t);
    }
    fclose(f);
}

int profile_load(const char *spec, const char *const *dirs, struct profile *out, char *err,
                 size_t errlen)
{
    memset(out, 0, sizeof(*out));
    if (!spec || !*spec)
        return errf(err, errlen, "empty profile name");
    char name[4096];
    str_copy(name, sizeof(name), spec);
    char *section = NULL;
    if (!is_file(name)) {
        char *colon = strrchr(name, ':');
        if (colon) {
            *colon = '\0';
            section = colon + 1;
            if (!*section)
                return errf(err, errlen, "profile '%s': empty section name after ':'", spec);
        }
    }
    if (profile_find(name, dirs, out->path, sizeof(out->path), err, errlen) != 0)
        return -1;
    base_name(out->path, out->name, sizeof(out->name));

    struct ini_file f;
    if (ini_parse_file(out->path, &f, err, errlen) != 0)
        return -1;
    unsigned n_work = 0;
    for (size_t i = 0; i < f.n_sections; i++)
        if (strcmp(f.sections[i].name, "global") != 0)
            n_work++;
    unsigned want = section ? 1 : n_work ? n_work : 1;
    out->wls = xcalloc(want, sizeof(*out->wls));
    int rc = 0;
    /* the file is parsed once: every workload comes from the same parse (a profile of
     * thousands of sections loads in linear time) */
    if (section) {
        rc = wl_load_ini(&f, section, &out->wls[0], err, errlen);
        out->n = rc == 0;
    } else if (!n_work) {
        rc = wl_load_ini(&f, NULL, &out->wls[0], err, errlen);
        out->n = rc == 0;
    } else {
        for (size_t i = 0; i < f.n_sections && rc == 0; i++) {
            if (!strcmp(f.sections[i].name, "global"))
                continue;
            rc = wl_load_ini(&f, f.sections[i].name, &out->wls[out->n], err, errlen);
            if (rc == 0)
                out->n++;
        }
    }
    ini_free(&f);
    if (rc != 0) {
        profile_free(out);
        return -1;
    }
    if (out->n > 1)
        file_summary(out->path, out->description, sizeof(out->description));
    if (!out->description[0])
        str_copy(out->description, sizeof(out->description), out->wls[0].description);
    return 0;
}

void profile_free(struct profile *p)
{
    free(p->wls);
    p->wls = NULL;
    p->n = 0;
}

static int cmp_names(const void *a, const void *b)
{
    return strcmp((const char *)a, (const char *)b);
}

unsigned profile_list(const char *const *dirs, char (*names)[64], unsigned max)
{
    unsigned n = 0;
    for (size_t i = 0; dirs && dirs[i]; i++) {
        DIR *d = opendir(dirs[i]);
        if (!d)
            continue;
        struct dirent *e;
        while ((e = readdir(d)) != NULL && n < max) {
            if (e->d_name[0] == '.' || !has_ini_suffix(e->d_name))
                continue;
            char nm[64];
            base_name(e->d_name, nm, sizeof(nm));
            bool dup = false;
            for (unsigned k = 0; k < n && !dup; k++)
                dup = !strcmp(names[k], nm);
            if (!dup)
                str_copy(names[n++], 64, nm);
        }
        closedir(d);
    }
    qsort(names, n, 64, cmp_names);
    return n;
}
