/* helpers.c — see helpers.h. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "helpers.h"

#include "lib/spawn.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <json-c/json.h>
#include <math.h>
#include <netinet/in.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
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

struct json_object *run_workload(const char *dir, const char *name, const char *workload,
                                 struct run_opts *o)
{
    struct run_opts none = {0};
    if (!o)
        o = &none;
    char out[4200];
    snprintf(out, sizeof(out), "%s/%s", dir, name);
    char *argv[32];
    int n = 0;
    argv[n++] = (char *)ptsbench_bin();
    argv[n++] = "run";
    argv[n++] = "--target";
    argv[n++] = (char *)(o->target ? o->target : TEST_SIM_TARGET);
    argv[n++] = "--workload";
    argv[n++] = (char *)workload;
    argv[n++] = "--rounds";
    argv[n++] = (char *)(o->rounds ? o->rounds : "1");
    argv[n++] = o->round_bytes ? "--round-bytes" : "--round-time";
    argv[n++] = (char *)(o->round_bytes ? o->round_bytes : o->round_time ? o->round_time : "1");
    if (!o->keep_out)
        argv[n++] = "--quiet";
    argv[n++] = "--out";
    argv[n++] = out;
    for (const char *const *e = o->extra; e && *e && n < 31; e++)
        argv[n++] = (char *)*e;
    argv[n] = NULL;
    o->out = o->err = NULL;
    const uint64_t t0 = test_now_ns();
    struct cmd_result r;
    if (run_cmd(argv, &r) != 0) {
        printf("%s: cannot run %s\n", name, argv[0]);
        o->status = -1;
        return NULL;
    }
    o->wall_s = (double)(test_now_ns() - t0) / 1e9;
    o->status = r.status;
    if (r.status != 0 && !o->keep_err)
        printf("%s: exit status %d; stderr:\n%s\n", name, r.status, r.errout);
    if (o->keep_out) {
        o->out = r.out;
        r.out = NULL;
    }
    if (o->keep_err) {
        o->err = r.errout;
        r.errout = NULL;
    }
    cmd_result_free(&r);
    if (o->status != 0)
        return NULL;
    char path[4300];
    snprintf(path, sizeof(path), "%s/results.json", out);
    struct json_object *doc = load_json(path);
    if (!doc)
        printf("%s: exit 0 but no %s\n", name, path);
    return doc;
}

bool write_job_file(const char *dir, const char *name, const char *text, char *path, size_t len)
{
    snprintf(path, len, "%s/%s.fio", dir, name);
    FILE *f = fopen(path, "w");
    if (!f)
        return false;
    const bool ok = fputs(text, f) >= 0;
    return fclose(f) == 0 && ok;
}

/* ---- zram: devices of our own --------------------------------------------------------------
 * The table below is all the state. The signal handler reads it, so everything it needs is
 * formatted when the device is created, and the code that removes a device uses only
 * async-signal-safe calls (open, read, write, close, unlink, nanosleep). Signals are blocked
 * while the table changes, so the handler never sees half an entry. */

#define ZRAM_CTL "/sys/class/zram-control"

struct zram_dev {
    volatile sig_atomic_t used;
    pid_t owner;                 /* the process that created it */
    unsigned long long seq;      /* its diskseq: this instance of zramN, not a later one */
    char id[16];                 /* "N", written to hot_remove */
    char dev[32];                /* /dev/zramN */
    char reset[64];              /* /sys/block/zramN/reset */
    char diskseq[64];            /* /sys/block/zramN/diskseq */
    char ledger[4200];           /* $PTSBENCH_TEST_ZRAM_DIR/zramN, or "" */
};

static struct zram_dev zram_devs[ZRAM_HELPERS_MAX];

int sys_write(const char *path, const char *val)
{
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0)
        return errno;
    size_t n = strlen(val);
    int e = write(fd, val, n) == (ssize_t)n ? 0 : errno;
    close(fd);
    return e;
}

/* One read() of a sysfs file (a second read of hot_add would add a second device). */
static ssize_t sys_read(const char *path, char *buf, size_t len)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    ssize_t n = read(fd, buf, len - 1);
    close(fd);
    buf[n > 0 ? n : 0] = '\0';
    return n;
}

static unsigned long long parse_ull(const char *s, bool *ok)
{
    unsigned long long v = 0;
    const char *p = s;
    while (*p >= '0' && *p <= '9')
        v = v * 10 + (unsigned long long)(*p++ - '0');
    *ok = p != s;
    return v;
}

static void nap_100ms(void)
{
    struct timespec ts = {0, 100 * 1000 * 1000};
    nanosleep(&ts, NULL);
}

/* Is /dev/zramN still the instance we created? (Without diskseq, kernels before 5.15: it
 * exists.) */
static bool zram_alive(const struct zram_dev *z)
{
    char buf[32];
    if (sys_read(z->diskseq, buf, sizeof(buf)) <= 0)
        return false;
    bool ok;
    unsigned long long seq = parse_ull(buf, &ok);
    return ok && (z->seq == 0 || seq == z->seq);
}

/* Reset and hot_remove z, retrying for up to 5 s at each step while it is busy. 0 when it is
 * gone, else the errno of the step that failed. Async-signal-safe. */
static int zram_destroy(const struct zram_dev *z)
{
    int e = 0;
    for (int i = 0; i < 50 && zram_alive(z); i++) {
        if ((e = sys_write(z->reset, "1")) != EBUSY)
            break;
        nap_100ms();
    }
    if (e)
        return e;
    for (int i = 0; i < 50 && zram_alive(z); i++) {
        if ((e = sys_write(ZRAM_CTL "/hot_remove", z->id)) != EBUSY)
            break;
        nap_100ms();
    }
    return e;
}

static void say(const char *s)
{
    ssize_t r = write(STDERR_FILENO, s, strlen(s));
    (void)r;
}

static void zram_block(sigset_t *old)
{
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, old);
}

static void zram_unblock(const sigset_t *old)
{
    pthread_sigmask(SIG_SETMASK, old, NULL);
}

/* Destroy z and drop it from the table; the record stays when the device could not be
 * removed, for the runner. Returns as zram_destroy. Async-signal-safe. */
static int zram_drop(struct zram_dev *z)
{
    int e = zram_destroy(z);
    if (!e && z->ledger[0])
        unlink(z->ledger);
    z->used = 0;
    return e;
}

static const int zram_signals[] = {SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGABRT};

static void zram_on_signal(int sig)
{
    int saved = errno;
    pid_t self = getpid();
    for (int i = 0; i < ZRAM_HELPERS_MAX; i++) {
        struct zram_dev *z = &zram_devs[i];
        if (z->used && z->owner == self && zram_drop(z) != 0) {
            say("WARNING: cannot remove ");
            say(z->dev);
            say(" on a signal; it is still recorded for tests/run-tests.sh\n");
        }
    }
    struct sigaction dfl;
    memset(&dfl, 0, sizeof(dfl));
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    sigaction(sig, &dfl, NULL);
    errno = saved;
    raise(sig);   /* blocked until this handler returns; then it ends the process */
}

static void zram_at_exit(void)
{
    zram_remove_all();
}

/* Once per process, at the first device: the atexit handler, and the signal handlers where
 * the disposition is still the default (a test's own handler, or an ignored signal, stays). */
static void zram_install_cleanup(void)
{
    static pid_t installed;
    if (installed)
        return;   /* a fork()ed child inherits both */
    installed = getpid();
    atexit(zram_at_exit);
    for (size_t i = 0; i < sizeof(zram_signals) / sizeof(zram_signals[0]); i++) {
        struct sigaction cur;
        if (sigaction(zram_signals[i], NULL, &cur) != 0 || cur.sa_handler != SIG_DFL ||
            (cur.sa_flags & SA_SIGINFO))
            continue;
        struct sigaction sa;
        memset(&sa, 0, sizeof(sa));
        sa.sa_handler = zram_on_signal;
        sigfillset(&sa.sa_mask);   /* one handler at a time */
        sigaction(zram_signals[i], &sa, NULL);
    }
}

static void zram_record(struct zram_dev *z)
{
    const char *dir = getenv("PTSBENCH_TEST_ZRAM_DIR");
    z->ledger[0] = '\0';
    if (!dir || !*dir)
        return;
    snprintf(z->ledger, sizeof(z->ledger), "%s/zram%s", dir, z->id);
    char line[96];
    snprintf(line, sizeof(line), "%s %llu %ld\n", z->id, z->seq, (long)z->owner);
    int fd = open(z->ledger, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0 || write(fd, line, strlen(line)) != (ssize_t)strlen(line)) {
        printf("WARNING: cannot record %s in %s (%s): the runner cannot remove it if this "
               "process is killed\n", z->dev, dir, strerror(errno));
        if (fd >= 0)
            unlink(z->ledger);
        z->ledger[0] = '\0';
    }
    if (fd >= 0)
        close(fd);
}

/* hot_add a device into a free slot of the table, recorded; NULL with a printed reason. */
static struct zram_dev *zram_add(void)
{
    struct zram_dev *z = NULL;
    for (int i = 0; i < ZRAM_HELPERS_MAX && !z; i++)
        if (!zram_devs[i].used)
            z = &zram_devs[i];
    if (!z) {
        printf("SKIP: this process already has %d zram devices\n", ZRAM_HELPERS_MAX);
        return NULL;
    }
    char buf[32];
    if (sys_read(ZRAM_CTL "/hot_add", buf, sizeof(buf)) <= 0) {
        printf("SKIP: cannot create a zram device: %s/hot_add: %s\n", ZRAM_CTL, strerror(errno));
        return NULL;
    }
    bool ok;
    unsigned long long id = parse_ull(buf, &ok);
    if (!ok) {
        printf("SKIP: %s/hot_add said \"%s\"\n", ZRAM_CTL, buf);
        return NULL;
    }
    memset(z, 0, sizeof(*z));
    snprintf(z->id, sizeof(z->id), "%llu", id);
    snprintf(z->dev, sizeof(z->dev), "/dev/zram%llu", id);
    snprintf(z->reset, sizeof(z->reset), "/sys/block/zram%llu/reset", id);
    snprintf(z->diskseq, sizeof(z->diskseq), "/sys/block/zram%llu/diskseq", id);
    if (sys_read(z->diskseq, buf, sizeof(buf)) > 0)
        z->seq = parse_ull(buf, &ok);
    z->owner = getpid();
    zram_record(z);
    z->used = 1;
    return z;
}

bool zram_create(const char *size, char *devpath, size_t len)
{
    if (!is_root()) {
        printf("SKIP: zram tests need root\n");
        return false;
    }
    if (access(ZRAM_CTL "/hot_add", R_OK) != 0) {
        printf("SKIP: no %s/hot_add (zram module not loaded?): cannot create a zram device "
               "of our own\n", ZRAM_CTL);
        return false;
    }
    zram_install_cleanup();
    sigset_t old;
    zram_block(&old);
    struct zram_dev *z = zram_add();
    zram_unblock(&old);
    if (!z)
        return false;
    char disksize[64];
    snprintf(disksize, sizeof(disksize), "/sys/block/zram%s/disksize", z->id);
    int e = sys_write(disksize, size);
    if (e) {
        printf("SKIP: cannot set %s's disksize to %s: %s\n", z->dev, size, strerror(e));
        zram_remove(z->dev);
        return false;
    }
    struct stat st;
    for (int i = 0; i < 50 && (stat(z->dev, &st) != 0 || !S_ISBLK(st.st_mode)); i++)
        nap_100ms();   /* devtmpfs makes the node at hot_add; wait for it, briefly, if not */
    if (stat(z->dev, &st) != 0 || !S_ISBLK(st.st_mode)) {
        printf("SKIP: %s did not appear after hot_add\n", z->dev);
        zram_remove(z->dev);
        return false;
    }
    if (snprintf(devpath, len, "%s", z->dev) >= (int)len) {
        printf("SKIP: no room for \"%s\" in %zu bytes\n", z->dev, len);
        zram_remove(z->dev);
        return false;
    }
    if (getenv("PTSBENCH_TEST_VERBOSE"))
        fprintf(stderr, "zram: created %s (%s)\n", z->dev, size);
    return true;
}

void zram_remove(const char *devpath)
{
    pid_t self = getpid();
    sigset_t old;
    zram_block(&old);
    struct zram_dev *z = NULL;
    for (int i = 0; i < ZRAM_HELPERS_MAX && !z; i++)
        if (zram_devs[i].used && zram_devs[i].owner == self &&
            strcmp(zram_devs[i].dev, devpath) == 0)
            z = &zram_devs[i];
    if (!z) {
        zram_unblock(&old);
        printf("WARNING: zram_remove: %s was not created by this process: not touching it\n",
               devpath);
        return;
    }
    char dev[sizeof(z->dev)];
    memcpy(dev, z->dev, sizeof(dev));
    bool recorded = z->ledger[0] != '\0';
    int e = zram_drop(z);
    zram_unblock(&old);
    if (e)
        printf("WARNING: cannot remove %s: %s%s\n", dev, strerror(e),
               recorded ? " (still recorded for tests/run-tests.sh)" : "");
    else if (getenv("PTSBENCH_TEST_VERBOSE"))
        fprintf(stderr, "zram: removed %s\n", dev);
}

void zram_remove_all(void)
{
    pid_t self = getpid();
    for (int i = 0; i < ZRAM_HELPERS_MAX; i++)
        if (zram_devs[i].used && zram_devs[i].owner == self)
            zram_remove(zram_devs[i].dev);
}

bool zram_attr(const char *devpath, const char *attr, char *buf, size_t len)
{
    const char *name = strrchr(devpath, '/');
    name = name ? name + 1 : devpath;
    if (strncmp(name, "zram", 4) != 0 || len == 0)
        return false;
    char path[256];
    snprintf(path, sizeof(path), "/sys/block/%s/%s", name, attr);
    FILE *f = fopen(path, "r");
    if (!f)
        return false;
    size_t n = fread(buf, 1, len - 1, f);
    bool ok = !ferror(f);
    fclose(f);
    buf[n] = '\0';
    return ok;
}

bool zram_setup(const char *size, char *devpath, size_t len)
{
    return zram_create(size, devpath, len);
}

void zram_teardown(void)
{
    zram_remove_all();
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

const char *test_fixture_path(const char *path)
{
    static char buf[16][4096];
    static unsigned k;
    char *b = buf[k++ % 16];
    const char *root = getenv("PTSBENCH_DATADIR");
    snprintf(b, sizeof(buf[0]), "%s/tests/fixtures/%s", root && *root ? root : ".", path);
    return b;
}

int ptsbench_run(struct cmd_result *r, const char *const *args)
{
    char *argv[64];
    int n = 0;
    argv[n++] = (char *)ptsbench_bin();
    for (; *args && n < 63; args++)
        argv[n++] = (char *)*args;
    argv[n] = NULL;
    if (run_cmd(argv, r) != 0)
        return -1;
    return r->status;
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

uint64_t test_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

void test_sleep_ms(unsigned ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
    }
}

bool test_have_fio(void)
{
    static int have = -1;
    if (have < 0) {
        char *argv[] = {"fio", "--version", NULL};
        struct cmd_result r;
        have = 0;
        if (run_cmd(argv, &r) == 0) {
            have = r.status == 0 && strncmp(r.out, "fio-", 4) == 0;
            cmd_result_free(&r);
        }
        if (!have)
            printf("SKIP: fio is not installed: the tests that need it cannot run\n");
    }
    return have;
}

bool test_have_gnuplot(void)
{
    static int have = -1;
    if (have < 0) {
        char *argv[] = {"gnuplot", "--version", NULL};
        struct cmd_result r;
        have = run_cmd(argv, &r) == 0 && r.status == 0;
        cmd_result_free(&r);   /* run_cmd clears r first: safe either way */
        if (!have)
            printf("SKIP: gnuplot is not installed (e.g. apt-get install gnuplot-nox): the "
                   "chart tests cannot run\n");
    }
    return have;
}

unsigned count_prefixed_lines(const char *text, const char *prefix)
{
    unsigned n = 0;
    for (const char *p = text; p && *p;) {
        if (!strncmp(p, prefix, strlen(prefix)))
            n++;
        p = strchr(p, '\n');
        if (p)
            p++;
    }
    return n;
}

bool is_one_line(const char *s)
{
    const char *nl = strchr(s, '\n');
    return *s && nl && nl[1] == '\0';
}

/* ---------------------------------------------------------------- fio fleet (helpers.h) */

/* Process groups of the servers still running, for the atexit handler. */
static pid_t fleet_live[FIO_FLEET_MAX * 4 + 4];

static void fleet_track(pid_t pid, bool add)
{
    for (size_t i = 0; i < sizeof(fleet_live) / sizeof(fleet_live[0]); i++) {
        if (add ? fleet_live[i] == 0 : fleet_live[i] == pid) {
            fleet_live[i] = add ? pid : 0;
            return;
        }
    }
}

static void fleet_at_exit(void)
{
    for (size_t i = 0; i < sizeof(fleet_live) / sizeof(fleet_live[0]); i++) {
        if (fleet_live[i] > 0) {
            kill(-fleet_live[i], SIGKILL);
            waitpid(fleet_live[i], NULL, 0);
            fleet_live[i] = 0;
        }
    }
}

static void fleet_kill(pid_t *pid)
{
    if (*pid <= 0)
        return;
    kill(-*pid, SIGKILL);
    kill(*pid, SIGKILL);   /* in case it died before its setpgid */
    while (waitpid(*pid, NULL, 0) < 0 && errno == EINTR) {
    }
    fleet_track(*pid, false);
    *pid = 0;
}

int test_free_port(const char *addr)
{
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = 0};
    if (inet_pton(AF_INET, addr, &a.sin_addr) != 1)
        return -1;
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    socklen_t len = sizeof(a);
    int port = -1;
    if (fd >= 0 && bind(fd, (struct sockaddr *)&a, sizeof(a)) == 0 &&
        getsockname(fd, (struct sockaddr *)&a, &len) == 0)
        port = ntohs(a.sin_port);
    if (fd >= 0)
        close(fd);
    return port;
}

static bool fleet_listening(const struct fio_fleet_host *h)
{
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)h->port)};
    inet_pton(AF_INET, h->addr, &a.sin_addr);
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return false;
    bool ok = connect(fd, (struct sockaddr *)&a, sizeof(a)) == 0;
    close(fd);
    return ok;
}

/* Exit codes of a server child that could not become one: 125 = this machine cannot (unshare
 * or mount refused), 126 = anything else; the reason is the first line of its log. */
#define FLEET_CANNOT 125
#define FLEET_BROKEN 126

static void __attribute__((noreturn)) fleet_child(const struct fio_fleet *f,
                                                  const struct fio_fleet_host *h,
                                                  const char *log, pid_t parent)
{
    setpgid(0, 0);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent)   /* the test died before the prctl */
        _exit(FLEET_BROKEN);
    int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0)
        _exit(FLEET_BROKEN);
    dup2(fd, 1);
    dup2(fd, 2);
    int devnull = open("/dev/null", O_RDONLY);
    if (devnull >= 0)
        dup2(devnull, 0);
    if (unshare(CLONE_NEWNS) != 0) {
        dprintf(2, "unshare(CLONE_NEWNS): %s\n", strerror(errno));
        _exit(FLEET_CANNOT);
    }
    if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0) {
        dprintf(2, "mount / MS_REC|MS_PRIVATE: %s\n", strerror(errno));
        _exit(FLEET_CANNOT);
    }
    if (mount(h->backing, f->shared, NULL, MS_BIND, NULL) != 0) {
        dprintf(2, "bind mount %s on %s: %s\n", h->backing, f->shared, strerror(errno));
        _exit(FLEET_CANNOT);
    }
    char arg[64];
    snprintf(arg, sizeof(arg), "--server=ip:%s,%d", h->addr, h->port);
    char *argv[] = {"fio", arg, NULL};
    execvp(argv[0], argv);
    dprintf(2, "exec fio: %s\n", strerror(errno));
    _exit(FLEET_BROKEN);
}

/* An empty or sparse file of size bytes at path. */
static bool fleet_file(const char *path, long long size)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0)
        return false;
    bool ok = ftruncate(fd, (off_t)size) == 0;
    close(fd);
    return ok;
}

/* Host k's child ended before listening: why (its log's first line), and whether the machine
 * cannot rather than something broke. */
static int fleet_child_failed(struct fio_fleet *f, unsigned k, const char *log, int st)
{
    char *text = slurp_file(log, NULL);
    char line[300] = "";
    if (text)
        sscanf(text, "%299[^\n]", line);
    free(text);
    bool cannot = WIFEXITED(st) && WEXITSTATUS(st) == FLEET_CANNOT;
    snprintf(f->why, sizeof(f->why), "fio server %u (%s:%d) %s: %s", k + 1, f->host[k].addr,
             f->host[k].port, cannot ? "cannot run in a mount namespace of its own" : "ended",
             line[0] ? line : "no message");
    return cannot ? 1 : -1;
}

int fio_fleet_start(struct fio_fleet *f, unsigned n, const char *dir, long long size)
{
    memset(f, 0, sizeof(*f));
    if (n == 0 || n > FIO_FLEET_MAX) {
        snprintf(f->why, sizeof(f->why), "a fleet of %u hosts: 1 to %d", n, FIO_FLEET_MAX);
        return -1;
    }
    if (!test_have_fio()) {
        snprintf(f->why, sizeof(f->why), "fio is not installed");
        return 1;
    }
    if (!is_root()) {
        snprintf(f->why, sizeof(f->why), "not root: a mount namespace and bind mounts need it");
        return 1;
    }
    static bool registered;
    if (!registered)
        registered = atexit(fleet_at_exit) == 0;
    snprintf(f->shared, sizeof(f->shared), "%s/shared.img", dir);
    if (!fleet_file(f->shared, 0)) {
        snprintf(f->why, sizeof(f->why), "cannot create %s: %s", f->shared, strerror(errno));
        return -1;
    }
    for (unsigned k = 0; k < n; k++) {
        struct fio_fleet_host *h = &f->host[k];
        snprintf(h->addr, sizeof(h->addr), "127.0.0.%u", k + 1);
        h->port = test_free_port(h->addr);
        snprintf(h->remote, sizeof(h->remote), "%s:%d", h->addr, h->port);
        snprintf(h->backing, sizeof(h->backing), "%s/host%u.img", dir, k + 1);
        if (h->port < 0 || !fleet_file(h->backing, size)) {
            snprintf(f->why, sizeof(f->why), "host %u: no free port on %s or cannot create %s",
                     k + 1, h->addr, h->backing);
            fio_fleet_stop(f);
            return -1;
        }
    }
    const pid_t self = getpid();
    for (unsigned k = 0; k < n; k++) {
        struct fio_fleet_host *h = &f->host[k];
        char log[4200];
        snprintf(log, sizeof(log), "%s/host%u.log", dir, k + 1);
        fflush(NULL);
        pid_t pid = fork();
        if (pid < 0) {
            snprintf(f->why, sizeof(f->why), "fork: %s", strerror(errno));
            fio_fleet_stop(f);
            return -1;
        }
        if (pid == 0)
            fleet_child(f, h, log, self);
        setpgid(pid, pid);   /* also here: no window where kill(-pid) misses it */
        h->pid = pid;
        f->n = k + 1;
        fleet_track(pid, true);
        const uint64_t deadline = test_now_ns() + 5000000000ull;
        for (;;) {
            int st;
            if (waitpid(pid, &st, WNOHANG) == pid) {
                fleet_track(pid, false);
                h->pid = 0;
                int ret = fleet_child_failed(f, k, log, st);
                fio_fleet_stop(f);
                return ret;
            }
            if (fleet_listening(h))
                break;
            if (test_now_ns() > deadline) {
                snprintf(f->why, sizeof(f->why), "fio server %u does not listen on %s after 5 s",
                         k + 1, h->remote);
                fio_fleet_stop(f);
                return -1;
            }
            test_sleep_ms(20);
        }
    }
    return 0;
}

void fio_fleet_stop_host(struct fio_fleet *f, unsigned k)
{
    if (k < f->n)
        fleet_kill(&f->host[k].pid);
}

static unsigned fleet_count(const char *dir, const char *suffix)
{
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    unsigned n = 0;
    size_t sl = strlen(suffix);
    for (struct dirent *e; (e = readdir(d));) {
        size_t l = strlen(e->d_name);
        n += l >= sl && strcmp(e->d_name + l - sl, suffix) == 0;
    }
    closedir(d);
    return n;
}

pid_t fio_fleet_stop_host_when(struct fio_fleet *f, unsigned k, const char *dir,
                               const char *suffix, unsigned count, unsigned delay_ms)
{
    if (k >= f->n || f->host[k].pid <= 0)
        return -1;
    fflush(NULL);
    pid_t w = fork();
    if (w < 0)
        return -1;
    if (w == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        const uint64_t deadline = test_now_ns() + 60000000000ull;
        while (fleet_count(dir, suffix) < count && test_now_ns() < deadline)
            test_sleep_ms(10);
        test_sleep_ms(delay_ms);
        kill(-f->host[k].pid, SIGKILL);   /* the parent reaps the server */
        _exit(0);
    }
    f->watcher = w;
    return w;
}

void fio_fleet_stop(struct fio_fleet *f)
{
    if (f->watcher > 0) {
        kill(f->watcher, SIGKILL);
        waitpid(f->watcher, NULL, 0);
        f->watcher = 0;
    }
    for (unsigned k = 0; k < f->n; k++)
        fleet_kill(&f->host[k].pid);
}
