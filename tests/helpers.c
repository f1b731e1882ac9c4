/* helpers.c — see helpers.h. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "helpers.h"

#include "spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <json-c/json.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

int run_cmd(char *const argv[], struct cmd_result *r)
{
    struct spawn_result sr;
    memset(r, 0, sizeof(*r));
    if (spawn_run(argv, &sr) != 0)
        return -1;
    r->status = sr.status;
    r->out = sr.out;
    r->errout = sr.err;
    if (getenv("PTSBENCH_TEST_VERBOSE")) {
        fprintf(stderr, "+");
        for (int i = 0; argv[i]; i++)
            fprintf(stderr, " %s", argv[i]);
        fprintf(stderr, "\n  -> %d\n%s%s", r->status, r->out, r->errout);
    }
    return 0;
}

void cmd_result_free(struct cmd_result *r)
{
    free(r->out);
    free(r->errout);
    r->out = r->errout = NULL;
}

int run_quiet(char *const argv[])
{
    struct cmd_result r;
    if (run_cmd(argv, &r))
        return -1;
    int st = r.status;
    cmd_result_free(&r);
    return st;
}

const char *ptsbench_bin(void)
{
    const char *p = getenv("PTSBENCH");
    return p && *p ? p : "build/ptsbench";
}

char *make_temp_dir(const char *tag)
{
    const char *base = getenv("TMPDIR");
    if (!base || !*base)
        base = "/var/tmp";
    char *path = NULL;
    if (asprintf(&path, "%s/ptsbench-%s-XXXXXX", base, tag) < 0)
        return NULL;
    if (!mkdtemp(path)) {
        free(path);
        return NULL;
    }
    return path;
}

static int rm_one(const char *p, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb; (void)flag; (void)ftw;
    return remove(p);
}

void remove_tree(const char *path)
{
    if (path)
        nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

struct json_object *load_json(const char *path)
{
    return json_object_from_file(path);
}

struct json_object *json_at(struct json_object *root, const char *dotted)
{
    char *copy = strdup(dotted), *save = NULL;
    struct json_object *cur = root;
    for (char *tok = strtok_r(copy, ".", &save); tok && cur; tok = strtok_r(NULL, ".", &save)) {
        if (json_object_is_type(cur, json_type_array)) {
            char *end;
            long i = strtol(tok, &end, 10);
            if (*end || i < 0 || (size_t)i >= json_object_array_length(cur)) {
                cur = NULL;
                break;
            }
            cur = json_object_array_get_idx(cur, (size_t)i);
        } else if (!json_object_object_get_ex(cur, tok, &cur)) {
            cur = NULL;
        }
    }
    free(copy);
    return cur;
}

double json_num(struct json_object *root, const char *dotted)
{
    struct json_object *o = json_at(root, dotted);
    if (!o || !(json_object_is_type(o, json_type_double) || json_object_is_type(o, json_type_int)))
        return NAN;
    return json_object_get_double(o);
}

bool is_root(void) { return geteuid() == 0; }

static bool write_sys(const char *path, const char *val)
{
    int fd = open(path, O_WRONLY);
    if (fd < 0)
        return false;
    bool ok = write(fd, val, strlen(val)) == (ssize_t)strlen(val);
    close(fd);
    return ok;
}

/* Reset zram0. Right after a process closes the device (O_EXCL) udev may still hold it for
 * a moment and the reset fails with EBUSY: retry for up to 5 s, then say so. */
static bool zram_reset(void)
{
    for (int i = 0; i < 50; i++) {
        if (write_sys("/sys/block/zram0/reset", "1"))
            return true;
        if (errno != EBUSY)
            break;
        usleep(100000);
    }
    printf("WARNING: cannot reset /dev/zram0: %s\n", strerror(errno));
    return false;
}

struct json_object *ptsbench_results(char *argv[], const char *out_dir, int want_status,
                                     char **out_text)
{
    argv[0] = (char *)ptsbench_bin();
    struct cmd_result r;
    if (run_cmd(argv, &r) != 0) {
        printf("cannot run %s\n", argv[0]);
        return NULL;
    }
    if (r.status != want_status)
        printf("exit status %d, want %d; stderr:\n%s\n", r.status, want_status, r.errout);
    int status = r.status;
    if (out_text) {
        *out_text = r.out;
        r.out = NULL;
    }
    cmd_result_free(&r);
    if (status != want_status)
        return NULL;
    char path[4200];
    snprintf(path, sizeof(path), "%s/results.json", out_dir);
    return load_json(path);
}

bool zram_setup(const char *size, char *devpath, size_t len)
{
    if (!is_root()) {
        printf("SKIP: zram tests need root\n");
        return false;
    }
    if (access("/sys/block/zram0/disksize", W_OK) != 0) {
        printf("SKIP: /dev/zram0 is not available on this machine\n");
        return false;
    }
    char cur[64] = "";
    FILE *f = fopen("/sys/block/zram0/disksize", "r");
    if (f) {
        if (!fgets(cur, sizeof(cur), f))
            cur[0] = '\0';
        fclose(f);
    }
    if (atoll(cur) != 0) {
        /* Someone else's zram (swap?) — never touch it. */
        char swaps[4096] = "";
        FILE *s = fopen("/proc/swaps", "r");
        if (s) {
            size_t n = fread(swaps, 1, sizeof(swaps) - 1, s);
            swaps[n] = '\0';
            fclose(s);
        }
        if (strstr(swaps, "zram0")) {
            printf("SKIP: /dev/zram0 is in use as swap\n");
            return false;
        }
        char mounts[65536] = "";
        FILE *m = fopen("/proc/mounts", "r");
        if (m) {
            size_t n = fread(mounts, 1, sizeof(mounts) - 1, m);
            mounts[n] = '\0';
            fclose(m);
        }
        if (strstr(mounts, "/dev/zram0 ")) {
            printf("SKIP: /dev/zram0 is mounted\n");
            return false;
        }
        if (!zram_reset()) {
            printf("SKIP: /dev/zram0 is busy\n");
            return false;
        }
    }
    if (!write_sys("/sys/block/zram0/disksize", size)) {
        printf("SKIP: cannot size /dev/zram0 (%s)\n", strerror(errno));
        return false;
    }
    snprintf(devpath, len, "/dev/zram0");
    return true;
}

void zram_teardown(void)
{
    zram_reset();
}

const char *const *test_device_dirs(void)
{
    static char dir[4096];
    static const char *dirs[2];
    const char *root = getenv("PTSBENCH_DATADIR");
    snprintf(dir, sizeof dir, "%s/profiles/devices", root && *root ? root : ".");
    dirs[0] = dir;
    dirs[1] = NULL;
    return dirs;
}

char *slurp_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 65536, n = 0;
    char *b = malloc(cap + 1);
    size_t got;
    while (b && (got = fread(b + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            char *nb = realloc(b, 2 * cap + 1);
            if (!nb) {
                free(b);
                b = NULL;
                break;
            }
            b = nb;
            cap *= 2;
        }
    }
    fclose(f);
    if (!b)
        return NULL;
    b[n] = '\0';
    if (len)
        *len = n;
    return b;
}

int ptsbench_parallel(const char *const *const *cmds, size_t n, const char *dir)
{
    pid_t *pid = calloc(n, sizeof(*pid));
    int failed = -1;
    for (size_t k = 0; k < n; k++) {
        char out[4200], log[4300];
        snprintf(out, sizeof(out), "%s/%s", dir, cmds[k][0]);
        snprintf(log, sizeof(log), "%s.log", out);
        char *argv[64];
        size_t a = 0;
        argv[a++] = (char *)ptsbench_bin();
        for (size_t q = 1; cmds[k][q] && a < 60; q++)
            argv[a++] = (char *)cmds[k][q];
        argv[a++] = "-o";
        argv[a++] = out;
        argv[a] = NULL;
        pid[k] = fork();
        if (pid[k] == 0) {
            int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
            if (fd >= 0) {
                dup2(fd, 1);
                dup2(fd, 2);
            }
            execv(argv[0], argv);
            _exit(127);
        }
    }
    for (size_t k = 0; k < n; k++) {
        int st = 0;
        bool ok = pid[k] > 0 && waitpid(pid[k], &st, 0) == pid[k] && WIFEXITED(st) &&
                  WEXITSTATUS(st) == 0;
        if (!ok && failed < 0) {
            failed = (int)k;
            char log[4300];
            snprintf(log, sizeof(log), "%s/%s.log", dir, cmds[k][0]);
            char *text = slurp_file(log, NULL);
            fprintf(stderr, "ptsbench %s (%s) failed: %s\n", cmds[k][1], cmds[k][0],
                    text ? text : "(no log)");
            free(text);
        }
    }
    free(pid);
    return failed;
}
