/* capture.c — `ptsbench trace capture` (capture.h): a tracefs instance of our own with the
 * block request tracepoints filtered to one device, a command run while it records, the
 * buffer read and turned into blkparse's text form. */
#include "device/capture.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "lib/file.h"
#include "lib/spawn.h"
#include "lib/util.h"

#define TRACEFS "/sys/kernel/tracing"   /* where tracefs usually is */
#define INSTANCE_PREFIX "ptsbench-capture-"

static const char *const events[] = {"block_rq_issue", "block_rq_complete"};

/* ---------------------------------------------------------------- one line */

int capture_line_to_blkparse(const char *line, uint64_t seq, char *out, size_t outlen)
{
    const char *ev = strstr(line, ": block_rq_issue: ");
    char act = 'D';
    size_t evlen = strlen(": block_rq_issue: ");
    if (!ev) {
        ev = strstr(line, ": block_rq_complete: ");
        act = 'C';
        evlen = strlen(": block_rq_complete: ");
    }
    if (!ev)
        return 0;
    /* before: "TASK-PID [CPU] FLAGS TIMESTAMP" */
    const char *br = NULL;
    for (const char *p = line; p < ev; p++)
        if (*p == '[' && isdigit((unsigned char)p[1]))
            br = p;   /* the last "[digits" before the event: the CPU */
    if (!br)
        return 0;
    unsigned cpu = (unsigned)strtoul(br + 1, NULL, 10);
    const char *dash = NULL;
    for (const char *p = line; p < br; p++)
        if (*p == '-')
            dash = p;
    long pid = dash ? strtol(dash + 1, NULL, 10) : 0;
    const char *ts = ev;
    while (ts > br && !isspace((unsigned char)ts[-1]))
        ts--;
    char tsbuf[40];
    size_t tl = (size_t)(ev - ts);
    if (!tl || tl >= sizeof(tsbuf))
        return 0;
    memcpy(tsbuf, ts, tl);
    tsbuf[tl] = '\0';
    char *dot = strchr(tsbuf, '.');
    unsigned long long sec = strtoull(tsbuf, NULL, 10), frac = 0;
    unsigned fd = 0;
    if (dot) {
        frac = strtoull(dot + 1, NULL, 10);
        fd = (unsigned)strlen(dot + 1);
    }
    while (fd < 9) {
        frac *= 10;
        fd++;
    }
    /* after: "MAJ,MIN RWBS [BYTES] (CMD) SECTOR + NSECT [...] [COMM]" */
    char rest[512];
    snprintf(rest, sizeof(rest), "%s", ev + evlen);
    char *tok[24];
    int n = 0;
    for (char *save = NULL, *t = strtok_r(rest, " \t\n", &save); t && n < 24;
         t = strtok_r(NULL, " \t\n", &save))
        tok[n++] = t;
    if (n < 5)
        return 0;
    unsigned maj, min;
    if (sscanf(tok[0], "%u,%u", &maj, &min) != 2)
        return 0;
    int plus = -1;
    for (int i = 2; i + 1 < n; i++)
        if (!strcmp(tok[i], "+")) {
            plus = i;
            break;
        }
    if (plus < 0)
        return 0;
    char *e1, *e2;
    unsigned long long sector = strtoull(tok[plus - 1], &e1, 10);
    unsigned long long nsect = strtoull(tok[plus + 1], &e2, 10);
    if (*e1 || *e2 || !nsect)
        return 0;
    const char *comm = n > plus + 2 ? tok[n - 1] : "[?]";
    int w = snprintf(out, outlen, "%3u,%-3u %3u %8llu %5llu.%09llu %5ld  %c %3s %llu + %llu %s\n",
                     maj, min, cpu, (unsigned long long)seq, sec, frac, pid, act, tok[1],
                     sector, nsect, comm);
    return w > 0 && (size_t)w < outlen;
}

/* ---------------------------------------------------------------- tracefs */

static int write_str(const char *path, const char *s, char *err, size_t errlen)
{
    int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
    if (fd < 0)
        return errf(err, errlen, "%s: %s", path, strerror(errno));
    ssize_t n = write(fd, s, strlen(s));
    int e = errno;
    close(fd);
    if (n != (ssize_t)strlen(s))
        return errf(err, errlen, "%s: writing '%s': %s", path, s, strerror(n < 0 ? e : EIO));
    return 0;
}

/* Instances of captures whose process is gone (killed): removed. */
static void remove_stale(const char *root)
{
    char ip[600];
    snprintf(ip, sizeof(ip), "%s/instances", root);
    DIR *d = opendir(ip);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (strncmp(e->d_name, INSTANCE_PREFIX, strlen(INSTANCE_PREFIX)))
            continue;
        long pid = strtol(e->d_name + strlen(INSTANCE_PREFIX), NULL, 10);
        if (pid > 0 && kill((pid_t)pid, 0) != 0 && errno == ESRCH) {
            char p[900];
            snprintf(p, sizeof(p), "%s/%s", ip, e->d_name);
            rmdir(p);
        }
    }
    closedir(d);
}

/* Read a whole tracefs file (its size is not known in advance). NULL with err. */
static char *read_all(const char *path, size_t *len, char *err, size_t errlen)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        errf(err, errlen, "%s: %s", path, strerror(errno));
        return NULL;
    }
    size_t cap = 1 << 20, n = 0;
    char *buf = xcalloc(1, cap + 1);
    for (;;) {
        if (n == cap) {
            cap *= 2;
            buf = xrealloc(buf, cap + 1);
        }
        ssize_t r = read(fd, buf + n, cap - n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) {
            errf(err, errlen, "%s: %s", path, strerror(errno));
            close(fd);
            free(buf);
            return NULL;
        }
        if (r == 0)
            break;
        n += (size_t)r;
    }
    close(fd);
    buf[n] = '\0';
    *len = n;
    return buf;
}

/* Events the instance's buffer dropped, over its CPUs (per_cpu/cpuN/stats "dropped events"
 * and "overrun"). */
static unsigned long long lost_events(const char *inst)
{
    unsigned long long lost = 0;
    char p[900];
    snprintf(p, sizeof(p), "%s/per_cpu", inst);
    DIR *d = opendir(p);
    if (!d)
        return 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (strncmp(e->d_name, "cpu", 3))
            continue;
        char sp[900], buf[2048];
        snprintf(sp, sizeof(sp), "%s/%s/stats", p, e->d_name);
        if (read_text_file(sp, buf, sizeof(buf)) < 0)
            continue;
        for (char *line = strtok(buf, "\n"); line; line = strtok(NULL, "\n")) {
            unsigned long long v;
            if (sscanf(line, "overrun: %llu", &v) == 1 ||
                sscanf(line, "dropped events: %llu", &v) == 1)
                lost += v;
        }
    }
    closedir(d);
    return lost;
}

/* ---------------------------------------------------------------- capture */

int capture_run(const struct capture_config *c, volatile sig_atomic_t *stop)
{
    char err[ERR_LEN] = "";
    if (!c->device) {
        fprintf(stderr, "ptsbench trace capture: missing --target DEV (a block device)\n");
        return EXIT_USAGE;
    }
    if (!c->out) {
        fprintf(stderr, "ptsbench trace capture: missing -o FILE\n");
        return EXIT_USAGE;
    }
    struct stat st;
    if (stat(c->device, &st) != 0 || !S_ISBLK(st.st_mode)) {
        fprintf(stderr, "ptsbench trace capture: --target %s: %s\n", c->device,
                stat(c->device, &st) != 0 ? strerror(errno) : "not a block device");
        return EXIT_USAGE;
    }
    if (geteuid() != 0) {
        fprintf(stderr, "ptsbench trace capture: the kernel's tracepoints need root\n");
        return EXIT_USAGE;
    }
    /* tracefs where it is mounted; else a mount of our own on a directory of our own (one
     * superblock: its instances are the same ones), so that no other capture's mount is
     * touched when this one ends */
    char root[256] = TRACEFS;
    bool mounted = false;
    if (access(TRACEFS "/instances", F_OK) != 0) {
        const char *tmp = getenv("TMPDIR");
        snprintf(root, sizeof(root), "%s/ptsbench-tracefs-XXXXXX", tmp && *tmp ? tmp : "/tmp");
        if (!mkdtemp(root)) {
            fprintf(stderr, "ptsbench trace capture: cannot make %s: %s\n", root,
                    strerror(errno));
            return EXIT_FAILURE_RUN;
        }
        if (mount("nodev", root, "tracefs", 0, NULL) != 0) {
            fprintf(stderr, "ptsbench trace capture: tracefs is not mounted (%s) and mounting "
                    "it failed: %s\n", TRACEFS, strerror(errno));
            rmdir(root);
            return EXIT_FAILURE_RUN;
        }
        mounted = true;
    }
    remove_stale(root);
    char inst[512];
    snprintf(inst, sizeof(inst), "%s/instances/" INSTANCE_PREFIX "%ld", root, (long)getpid());
    int code = EXIT_FAILURE_RUN;
    char *text = NULL, *out = NULL;
    if (mkdir(inst, 0700) != 0) {
        errf(err, sizeof(err), "%s: %s (the kernel has no tracing instances?)", inst,
             strerror(errno));
        goto done;
    }
    char p[900], filt[64];
    /* the kernel's dev_t in its trace events: major << 20 | minor */
    snprintf(filt, sizeof(filt), "dev == %u",
             (unsigned)(major(st.st_rdev) << 20 | minor(st.st_rdev)));
    char kb[32];
    snprintf(kb, sizeof(kb), "%u", (c->buffer_mb ? c->buffer_mb : 64) * 1024);
    snprintf(p, sizeof(p), "%s/tracing_on", inst);
    if (write_str(p, "0", err, sizeof(err)))
        goto done;
    snprintf(p, sizeof(p), "%s/buffer_size_kb", inst);
    if (write_str(p, kb, err, sizeof(err)))
        goto done;
    snprintf(p, sizeof(p), "%s/options/overwrite", inst);
    write_str(p, "0", err, sizeof(err));   /* keep the oldest; counted as dropped when full */
    snprintf(p, sizeof(p), "%s/trace_clock", inst);
    write_str(p, "mono", err, sizeof(err));
    for (size_t i = 0; i < sizeof(events) / sizeof(events[0]); i++) {
        snprintf(p, sizeof(p), "%s/events/block/%s/filter", inst, events[i]);
        if (write_str(p, filt, err, sizeof(err)))
            goto done;
        snprintf(p, sizeof(p), "%s/events/block/%s/enable", inst, events[i]);
        if (write_str(p, "1", err, sizeof(err)))
            goto done;
    }
    snprintf(p, sizeof(p), "%s/tracing_on", inst);
    if (write_str(p, "1", err, sizeof(err)))
        goto done;
    if (!c->quiet)
        printf("capture: recording the requests %s is sent%s\n", c->device,
               c->argv ? " while the command runs" : "");
    int cmd_status = 0;
    if (c->argv) {
        struct spawn_result r;
        spawn_watch_stop(stop);
        if (spawn_run_flags(c->argv, SPAWN_STOPPABLE, &r) != 0) {
            errf(err, sizeof(err), "cannot run %s: %s", c->argv[0], strerror(errno));
            goto done;
        }
        fwrite(r.out, 1, r.out_len, stdout);
        fwrite(r.err, 1, r.err_len, stderr);
        cmd_status = r.status;
        spawn_result_free(&r);
    } else {
        const uint64_t end = c->duration_ns ? now_mono_ns() + c->duration_ns : UINT64_MAX;
        while (!*stop && now_mono_ns() < end) {
            struct timespec ts = {0, 50000000};
            nanosleep(&ts, NULL);
        }
    }
    snprintf(p, sizeof(p), "%s/tracing_on", inst);
    write_str(p, "0", err, sizeof(err));
    const unsigned long long lost = lost_events(inst);
    size_t len;
    snprintf(p, sizeof(p), "%s/trace", inst);
    if (!(text = read_all(p, &len, err, sizeof(err))))
        goto done;
    size_t cap = len + 4096, olen = 0;
    out = xcalloc(1, cap);
    uint64_t seq = 0, issues = 0, completions = 0;
    for (char *save = NULL, *line = strtok_r(text, "\n", &save); line;
         line = strtok_r(NULL, "\n", &save)) {
        if (line[0] == '#')
            continue;
        char conv[640];
        if (!capture_line_to_blkparse(line, seq + 1, conv, sizeof(conv)))
            continue;
        size_t cl = strlen(conv);
        if (cap - olen < cl + 1) {
            cap = 2 * cap + cl;
            out = xrealloc(out, cap);
        }
        memcpy(out + olen, conv, cl);
        olen += cl;
        seq++;
        if (strstr(conv, "  D "))
            issues++;
        else
            completions++;
    }
    if (lost) {
        errf(err, sizeof(err), "the trace buffer dropped %llu events (a %u MiB buffer per CPU "
             "was not enough): nothing written", lost, c->buffer_mb ? c->buffer_mb : 64);
        goto done;
    }
    const char *parts[1] = {out};
    if (file_write_atomic(c->out, parts, &olen, 1, true, err, sizeof(err)) != 0)
        goto done;
    if (!c->quiet)
        printf("capture: %llu requests issued, %llu completed, written to %s (blkparse text; "
               "ptsbench replay %s --target ...)\n", (unsigned long long)issues,
               (unsigned long long)completions, c->out, c->out);
    code = cmd_status == 0 ? EXIT_OK : EXIT_FAILURE_RUN;
    if (cmd_status)
        errf(err, sizeof(err), "the command exited with status %d (the trace is written)",
             cmd_status);
    else
        err[0] = '\0';
done:
    if (access(inst, F_OK) == 0) {
        snprintf(p, sizeof(p), "%s/tracing_on", inst);
        char e2[ERR_LEN];
        write_str(p, "0", e2, sizeof(e2));
        for (size_t i = 0; i < sizeof(events) / sizeof(events[0]); i++) {
            snprintf(p, sizeof(p), "%s/events/block/%s/enable", inst, events[i]);
            write_str(p, "0", e2, sizeof(e2));
        }
        if (rmdir(inst) != 0 && !c->quiet)
            fprintf(stderr, "ptsbench trace capture: could not remove %s: %s\n", inst,
                    strerror(errno));
    }
    if (mounted && umount2(root, MNT_DETACH) == 0)
        rmdir(root);
    free(text);
    free(out);
    if (code != EXIT_OK && err[0])
        fprintf(stderr, "ptsbench trace capture: %s\n", err);
    return code;
}
