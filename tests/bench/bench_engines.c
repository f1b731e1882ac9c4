/* bench_engines.c — `make bench`: ptsbench's native engines against fio's at fio's best, on the
 * same target, the same job, alternating A B, B A, ... (issue 20, points 1 and 2).
 * docs/engines.md section 7 says what it runs and how to read it; the figures it gave, dated,
 * are docs/engines-measurements.md M7.
 *
 * For each target (a 1 GiB zram device of its own; a 1 GiB file under /var/tmp, O_DIRECT), each
 * case of cases[] and each engine pair of pairs[], it runs `ptsbench run` (A) and `fio` (B) in
 * turn, BENCH_PAIRS times (A B, then B A: the order changes every pair, so that a drift of the
 * machine or of the device state over the series weighs on both; a 1 s warm-up run of each comes
 * first and is not counted), and prints per pair and as the median with min–max:
 *   - IOPS (ptsbench's rounds.0.total.iops, fio's jobs.0.{read,write}.iops);
 *   - CPU per I/O: user + system time of the whole child process (wait4's rusage: every thread,
 *     set-up and result writing included) over the I/Os it counted. The same method for both,
 *     and the figure that holds on a noisy machine, where IOPS moves with the neighbours' load.
 * Ratios are ptsbench/fio: IOPS >= 1.0 and CPU/IO <= 1.0 are the goal.  The table at the end
 * has, per case, the medians, their min-max and how many pairs met the goal, then a count of
 * the medians that met it and, for each miss, whether some pairs met it (within what the
 * machine can tell apart) or none did (a measured shortfall): verdict() says why; then the
 * geometric mean of every pair's ratio, over all cases and per target, and the bar's verdict
 * on it (print_pooled).
 *
 * fio at its best for the job: fio_uring[] and fio_aio[] name the options. io_uring: fixedbufs
 * and registerfiles (ptsbench registers both), hipri=0 and sqthread_poll=0 (ptsbench polls
 * neither), force_async=0, except on a target that refuses nowait I/O (zram): there ptsbench
 * marks some of its I/Os async (engine/io_uring.c), and each case's warm-up runs fio with
 * force_async=0 and =1 and the pairs get the faster. libaio: fio's defaults (userspace_reap
 * only applies with iodepth_batch_complete_min=0). Both: iodepth_batch_submit=QD and
 * iodepth_batch_complete_max=QD (ptsbench submits every free slot in one call and reaps every
 * completion there is), --thread (one process, one rusage), norandommap=1 and randrepeat=0
 * against ptsbench's random_map=off (no map on either side), and in write cases
 * refill_buffers=1 (new data for every write, as ptsbench writes; fio's default scrambles a
 * few bytes of a buffer filled once: a different, cheaper job).  In the 128 KiB cases fio's
 * buffers are in huge pages as ptsbench's are (engine.c): iomem=shmhuge and hugepage-size; the
 * bench raises /proc/sys/vm/nr_hugepages by what fio needs and puts the old value back on the
 * way out; where it cannot, the header says that fio ran in 4 KiB pages.
 *
 * Pinned (randread-4k-qd1-pinned): at QD 1 fio is at its best pinned to one CPU (on zram the
 * io-wq worker then runs on the submitter's CPU), and a latency test is usually run pinned, so
 * both tools run it pinned to the same CPU: ptsbench --cpus N, fio --cpus_allowed=N (N: the
 * last CPU this process may use). The unpinned QD 1 case stays: it is the default of both.
 *
 * Environment: BENCH_PAIRS (default 5; 3 with BENCH_QUICK=1), BENCH_SECS (seconds per run,
 * default 3; 2 quick), BENCH_QUICK=1 (only the cases marked quick), BENCH_CASES (comma list of
 * case names), BENCH_TARGETS (zram,file), BENCH_ENGINES (io_uring,libaio), BENCH_FIO_EXTRA
 * (comma list of extra fio options, e.g. "--gtod_reduce=1", to try other settings),
 * BENCH_AA=fio or BENCH_AA=ptsbench (an A/A series: both sides of every pair run that one tool
 * the same way, so the ratios show what this machine's noise alone does to a median).
 * BENCH_TICK=MS (a diagnostic, off by default: for the whole bench, one process per CPU this
 * bench may use, pinned there, wakes every MS milliseconds and does nothing else, around both
 * tools' runs alike, for a VM where QD 1 reads move with where a process's other threads sleep:
 * docs/engines-measurements.md M7.4.  The default compares the two tools as a user runs them.)
 *
 * A benchmark, not a test: it prints, it does not pass or fail on speed. A target it cannot
 * make (no root, no zram) is skipped with a reason. The zram device and the temporary
 * directory are removed, and nr_hugepages put back, on every way out that runs code (SIGINT,
 * SIGTERM, and SIGPIPE when its output goes to a reader that stops, such as `| head`: the
 * running child is stopped first, then the loop ends and cleans up). */
#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "engine/engine.h"
#include "helpers.h"

#define TARGET_SIZE "1g"
#define MAX_PAIRS 50
#define MAX_ARGS 48

/* One job, run the same way by both tools. quick: part of BENCH_QUICK=1. pin: both tools
 * pinned to the same one CPU (ptsbench --cpus N, fio --cpus_allowed=N; the header says why). */
struct bench_case {
    const char *name;
    const char *rw;       /* fio's and ptsbench's rw= */
    const char *bs;
    unsigned qd, workers;
    bool quick;
    bool pin;
};

static const struct bench_case cases[] = {
    {"randread-4k-qd1", "randread", "4k", 1, 1, false, false},
    {"randread-4k-qd1-pinned", "randread", "4k", 1, 1, false, true},
    {"randread-4k-qd32", "randread", "4k", 32, 1, true, false},
    {"randread-4k-qd128", "randread", "4k", 128, 1, false, false},
    {"randread-4k-qd32-2w", "randread", "4k", 32, 2, false, false},
    {"randwrite-4k-qd32", "randwrite", "4k", 32, 1, false, false},
    {"read-128k-qd8", "read", "128k", 8, 1, true, false},
    {"write-128k-qd8", "write", "128k", 8, 1, false, false},
};

/* The CPU the pinned cases run on: the last this process may use (CPU 0 usually takes more of
 * the interrupts); "" when it cannot be read (the pinned cases are then skipped). */
static char pin_cpu[16];

/* fio's huge-page buffers for the cases where ptsbench's are in huge pages (the header):
 * "--hugepage-size=<kB>k" once the hugetlb pool has the pages, else "". */
static char fio_hugepage_size[48];
static long hugepages_saved = -1;   /* nr_hugepages before the bench raised it */
#define NR_HUGEPAGES "/proc/sys/vm/nr_hugepages"

static bool huge_case(const struct bench_case *c) { return strcmp(c->bs, "4k") != 0; }

static long meminfo_value(const char *key)
{
    FILE *f = fopen("/proc/meminfo", "r");
    char line[256];
    long v = -1;
    size_t klen = strlen(key);
    while (f && fgets(line, sizeof(line), f))
        if (!strncmp(line, key, klen) && line[klen] == ':')
            v = strtol(line + klen + 1, NULL, 10);
    if (f)
        fclose(f);
    return v;
}

/* Set the hugetlb pool's size: 0, or the errno of the failure. */
static int set_nr_hugepages(long pages)
{
    char v[32];
    snprintf(v, sizeof(v), "%ld", pages);
    return sys_write(NR_HUGEPAGES, v);
}

/* Make sure the hugetlb pool has `want` free pages for fio; says what it did. */
static void hugepages_reserve(long want)
{
    long size_kb = meminfo_value("Hugepagesize"), free_pages = meminfo_value("HugePages_Free");
    if (size_kb <= 0 || free_pages < 0) {
        printf("bench: fio's buffers in 4 KiB pages (this kernel has no hugetlb pages)\n");
        return;
    }
    int err = 0;
    if (free_pages < want) {
        long total = meminfo_value("HugePages_Total");
        err = set_nr_hugepages(total + want - free_pages);
        if (!err)
            hugepages_saved = total;
        free_pages = meminfo_value("HugePages_Free");
    }
    if (free_pages < want) {
        printf("bench: fio's buffers in 4 KiB pages (%ld of %ld huge pages free; raising %s: %s):"
               " the 128 KiB cases do not compare like with like\n", free_pages, want,
               NR_HUGEPAGES, err ? strerror(err) : "the kernel found no free memory for them");
        return;
    }
    snprintf(fio_hugepage_size, sizeof(fio_hugepage_size), "--hugepage-size=%ldk", size_kb);
    printf("bench: fio's buffers in %ld KiB huge pages where ptsbench's are (iomem=shmhuge)%s\n",
           size_kb, hugepages_saved >= 0 ? "; nr_hugepages raised for the run" : "");
}

static void hugepages_restore(void)
{
    if (hugepages_saved < 0)
        return;
    int err = set_nr_hugepages(hugepages_saved);
    if (err)
        fprintf(stderr, "bench: could not put %s back to %ld: %s\n", NR_HUGEPAGES,
                hugepages_saved, strerror(err));
}

/* fio's options for its best run of the same job on each engine (see the header). */
static const char *const fio_uring[] = {"--fixedbufs=1", "--registerfiles=1", "--hipri=0",
                                        "--sqthread_poll=0", NULL};

/* fio's force_async for io_uring cases: 0, except on a target that refuses nowait I/O, where
 * each case's warm-up tries both and the pairs get the faster (measure_case). */
static const char *fio_force_async = "--force_async=0";
static bool target_refuses_nowait;

/* Whether target refuses nowait I/O (engine_refuses_nowait): there io_uring hands every I/O
 * to io-wq, and marking them async (ptsbench's engine does for large I/Os, fio's
 * force_async=1 for all) changes how many io-wq workers run them. */
static bool refuses_nowait(const char *target)
{
    int fd = open(target, O_RDONLY | O_DIRECT | O_CLOEXEC);
    if (fd < 0)
        return false;
    const bool refused = engine_refuses_nowait(fd);
    close(fd);
    return refused;
}

static const char *const fio_aio[] = {NULL};

struct engine_pair {
    const char *name;          /* ptsbench's --engine */
    const char *fio_engine;    /* fio's --ioengine */
    const char *const *fio_opts;
};

static const struct engine_pair pairs[] = {
    {"io_uring", "io_uring", fio_uring},
    {"libaio", "libaio", fio_aio},
};

#define N_CASES (sizeof(cases) / sizeof(cases[0]))
#define N_PAIRS (sizeof(pairs) / sizeof(pairs[0]))

/* BENCH_AA: NULL (A is ptsbench, B is fio), or the one tool both sides run (header). */
static const char *aa_tool;
static const char *a_name(void) { return aa_tool ? aa_tool : "ptsbench"; }
static const char *b_name(void) { return aa_tool ? aa_tool : "fio"; }
static bool runs(const char *tool) { return !aa_tool || !strcmp(aa_tool, tool); }

/* One run's figures. */
struct run_fig {
    double iops;
    double ios;
    double cpu_s;    /* user + system of the child, all its threads */
};

static volatile sig_atomic_t g_stop;
static volatile pid_t g_child;

static void on_signal(int sig)
{
    (void)sig;
    g_stop = 1;
    if (g_child > 0)
        kill(g_child, SIGTERM);
}

/* Run argv with stdout and stderr into errpath; the child's exit code (or 128+signal) and its
 * rusage. -1 when it could not be started. */
static int spawn_measured(char *const argv[], const char *errpath, struct rusage *ru)
{
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        int fd = open(errpath, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd >= 0) {
            dup2(fd, STDOUT_FILENO);
            dup2(fd, STDERR_FILENO);
            close(fd);
        }
        execvp(argv[0], argv);
        _exit(127);
    }
    g_child = pid;
    int status;
    while (wait4(pid, &status, 0, ru) < 0)
        if (errno != EINTR) {
            g_child = 0;
            return -1;
        }
    g_child = 0;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static double ru_cpu_s(const struct rusage *ru)
{
    return (double)ru->ru_utime.tv_sec + ru->ru_utime.tv_usec / 1e6 +
           (double)ru->ru_stime.tv_sec + ru->ru_stime.tv_usec / 1e6;
}

static void print_log(const char *what, const char *path)
{
    char *text = slurp_file(path, NULL);
    fprintf(stderr, "bench: %s failed:\n%s\n", what, text ? text : "(no output)");
    free(text);
}

static bool writes(const struct bench_case *c) { return strstr(c->rw, "write") != NULL; }
static bool random_case(const struct bench_case *c) { return !strncmp(c->rw, "rand", 4); }

static int run_ptsbench(const char *target, const char *dir, const struct bench_case *c,
                        const struct engine_pair *e, const char *secs, struct run_fig *f)
{
    char wl[160], out[600], log[640], results[640];
    snprintf(wl, sizeof(wl), "rw=%s,bs=%s,qd=%u,workers=%u%s", c->rw, c->bs, c->qd, c->workers,
             random_case(c) ? ",random_map=off" : "");
    snprintf(out, sizeof(out), "%s/ptsbench", dir);
    snprintf(log, sizeof(log), "%s/ptsbench.log", dir);
    char *argv[MAX_ARGS] = {(char *)ptsbench_bin(), "run", "--target", (char *)target,
                            "--engine", (char *)e->name, "--workload", wl, "--rounds", "1",
                            "--round-time", (char *)secs, "--quiet", "--force", "--out", out};
    int n = 16;
    if (writes(c))
        argv[n++] = "--destructive";
    if (c->pin) {
        argv[n++] = "--cpus";
        argv[n++] = pin_cpu;
    }
    argv[n] = NULL;
    struct rusage ru;
    if (spawn_measured(argv, log, &ru) != 0) {
        if (!g_stop)
            print_log("ptsbench", log);
        return -1;
    }
    snprintf(results, sizeof(results), "%s/results.json", out);
    struct json_object *doc = load_json(results);
    if (!doc)
        return -1;
    f->iops = json_num(doc, "rounds.0.total.iops");
    f->ios = json_num(doc, "rounds.0.total.ios");
    f->cpu_s = ru_cpu_s(&ru);
    json_object_put(doc);
    return isfinite(f->iops) && f->ios > 0 ? 0 : -1;
}

static double fio_dir_sum(struct json_object *doc, const char *key)
{
    char path[64];
    double v = 0;
    for (int d = 0; d < 2; d++) {
        snprintf(path, sizeof(path), "jobs.0.%s.%s", d ? "write" : "read", key);
        double x = json_num(doc, path);
        if (isfinite(x))
            v += x;
    }
    return v;
}

/* BENCH_FIO_EXTRA, split at commas into argv[n...]; returns the new n. */
static int add_extra(char **argv, int n, char *extra)
{
    for (char *tok = strtok(extra, ","); tok && n < MAX_ARGS - 1; tok = strtok(NULL, ","))
        argv[n++] = tok;
    return n;
}

static int run_fio(const char *target, const char *dir, const struct bench_case *c,
                   const struct engine_pair *e, const char *secs, struct run_fig *f)
{
    char a[12][128], log[600], json[600];
    snprintf(a[10], sizeof(a[10]), "--cpus_allowed=%s", pin_cpu);
    snprintf(a[8], sizeof(a[8]), "--iodepth_batch_submit=%u", c->qd);
    snprintf(a[9], sizeof(a[9]), "--iodepth_batch_complete_max=%u", c->qd);
    snprintf(json, sizeof(json), "%s/fio.json", dir);
    snprintf(log, sizeof(log), "%s/fio.log", dir);
    snprintf(a[0], sizeof(a[0]), "--filename=%s", target);
    snprintf(a[1], sizeof(a[1]), "--ioengine=%s", e->fio_engine);
    snprintf(a[2], sizeof(a[2]), "--rw=%s", c->rw);
    snprintf(a[3], sizeof(a[3]), "--bs=%s", c->bs);
    snprintf(a[4], sizeof(a[4]), "--iodepth=%u", c->qd);
    snprintf(a[5], sizeof(a[5]), "--numjobs=%u", c->workers);
    snprintf(a[6], sizeof(a[6]), "--runtime=%s", secs);
    snprintf(a[7], sizeof(a[7]), "--output=%s", json);
    char *argv[MAX_ARGS] = {"fio", "--name=bench", a[0], a[1], a[2], a[3], a[4], a[5], a[6],
                            "--time_based", "--direct=1", "--size=" TARGET_SIZE, "--thread",
                            "--group_reporting", "--output-format=json", a[7]};
    int n = 16;
    argv[n++] = a[8];
    argv[n++] = a[9];
    if (writes(c))
        argv[n++] = "--refill_buffers=1";   /* the same job: fresh data for every write */
    if (random_case(c)) {
        argv[n++] = "--norandommap=1";
        argv[n++] = "--randrepeat=0";
    }
    if (c->pin)
        argv[n++] = a[10];
    if (huge_case(c) && fio_hugepage_size[0]) {
        argv[n++] = "--iomem=shmhuge";
        argv[n++] = fio_hugepage_size;
    }
    for (const char *const *o = e->fio_opts; *o; o++)
        argv[n++] = (char *)*o;
    if (!strcmp(e->fio_engine, "io_uring"))
        argv[n++] = (char *)fio_force_async;
    char *extra = getenv("BENCH_FIO_EXTRA") ? strdup(getenv("BENCH_FIO_EXTRA")) : NULL;
    if (extra)
        n = add_extra(argv, n, extra);
    argv[n] = NULL;
    struct rusage ru;
    int st = spawn_measured(argv, log, &ru);
    free(extra);
    if (st != 0) {
        if (!g_stop)
            print_log("fio", log);
        return -1;
    }
    char *text = slurp_file(json, NULL);
    const char *start = text ? strchr(text, '{') : NULL;   /* fio may print text first */
    struct json_object *doc = start ? json_tokener_parse(start) : NULL;
    free(text);
    if (!doc) {
        print_log("fio (no JSON)", log);
        return -1;
    }
    f->iops = fio_dir_sum(doc, "iops");
    f->ios = fio_dir_sum(doc, "total_ios");
    f->cpu_s = ru_cpu_s(&ru);
    json_object_put(doc);
    return f->ios > 0 ? 0 : -1;
}

/* One run of side A (b false) or B (b true) of a pair: ptsbench and fio, or in an A/A series
 * the same tool on both sides. */
static int run_side(bool b, const char *target, const char *dir, const struct bench_case *c,
                    const struct engine_pair *e, const char *secs, struct run_fig *f)
{
    const char *tool = b ? b_name() : a_name();
    return !strcmp(tool, "fio") ? run_fio(target, dir, c, e, secs, f)
                                : run_ptsbench(target, dir, c, e, secs, f);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median, min and max of v[0..n) (n >= 1). */
struct spread {
    double med, min, max;
};

static struct spread spread_of(const double *v, int n)
{
    double s[MAX_PAIRS];
    memcpy(s, v, (size_t)n * sizeof(*s));
    qsort(s, (size_t)n, sizeof(*s), cmp_double);
    struct spread r = {n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2, s[0], s[n - 1]};
    return r;
}

/* One summary row, kept for the table at the end. */
struct summary {
    char label[96];
    const char *target;   /* "zram" or "file" */
    int n;
    struct spread iops_p, iops_f, iops_r, cpu_p, cpu_f, cpu_r;
    int iops_met, cpu_met;   /* pairs at the goal: IOPS ratio >= 1, CPU/IO ratio <= 1 */
    double log_iops, log_cpu;   /* sums over the pairs of ln(ratio), for the geometric means */
};

/* What a median says against its goal, given the pairs.  The min-max of n pairs holds the
 * median ratio with probability 1 - 2^(1-n) (each pair falls on either side of the true
 * median with probability 1/2; 94 % for 5 pairs), so a missed median whose pairs fall on both
 * sides of the goal is within what this machine can tell apart, and a miss in every pair is a
 * measured shortfall (by chance 1 in 32 per case and metric: in a run of 32 cases about one per
 * metric, as an A/A series shows, BENCH_AA).  Not a softer goal: the table still counts the
 * medians that miss. */
static const char *verdict(bool median_met, int met)
{
    return median_met ? "met" : met ? "missed, within noise" : "missed in every pair";
}

static struct summary summaries[N_CASES * N_PAIRS * 2];
static int n_summaries;

static void measure_case(const char *tlabel, const char *target, const char *dir,
                         const struct bench_case *c, const struct engine_pair *e, int npairs,
                         const char *secs)
{
    double ip[MAX_PAIRS], ifo[MAX_PAIRS], ir[MAX_PAIRS], cp[MAX_PAIRS], cf[MAX_PAIRS],
        cr[MAX_PAIRS];
    int n = 0;
    printf("%s %s, %s: %s %s vs %s %s, %d pairs of %s s%s%s\n", tlabel, c->name, c->rw,
           a_name(), e->name, b_name(), e->fio_engine, npairs, secs,
           c->pin ? ", both pinned to CPU " : "", c->pin ? pin_cpu : "");
    fflush(stdout);
    /* Warm-up: one run of each, not counted (the device and the machine settle: zram's
     * allocator after the fill, the page cache of the file's host). */
    struct run_fig p, f;
    fio_force_async = "--force_async=0";
    if (run_side(false, target, dir, c, e, "1", &p) != 0 || g_stop ||
        run_side(true, target, dir, c, e, "1", &f) != 0)
        return;
    if (target_refuses_nowait && !strcmp(e->fio_engine, "io_uring") && runs("fio") && !g_stop) {
        /* fio at its best here may be force_async=1 (every I/O to io-wq at once, each with a
         * worker of its own): the warm-up tries it too, and the pairs get the faster */
        struct run_fig fa;
        fio_force_async = "--force_async=1";
        if (run_fio(target, dir, c, e, "1", &fa) != 0)
            return;
        if (fa.iops < f.iops)
            fio_force_async = "--force_async=0";
        printf("  fio with %s (warm-up: force_async=0 %.0f IOPS, force_async=1 %.0f IOPS)\n",
               fio_force_async + 2, f.iops, fa.iops);
        fflush(stdout);
    }
    for (int i = 0; i < npairs && !g_stop; i++) {
        /* A B, then B A: the order changes every pair, so that a drift over the series (a
         * device whose state moves with the writes, a neighbour's load) weighs on both and
         * neither always runs right after the other. */
        const bool fio_first = i % 2;
        bool ok = true;
        for (int k = 0; k < 2 && ok && !g_stop; k++)
            ok = (k == 0) == fio_first ? run_side(true, target, dir, c, e, secs, &f) == 0
                                       : run_side(false, target, dir, c, e, secs, &p) == 0;
        if (!ok || g_stop)
            break;
        ip[n] = p.iops;
        ifo[n] = f.iops;
        ir[n] = p.iops / f.iops;
        cp[n] = p.cpu_s / p.ios * 1e6;
        cf[n] = f.cpu_s / f.ios * 1e6;
        cr[n] = cp[n] / cf[n];
        printf("  pair %d %s: %s %9.0f IOPS %6.2f us CPU/IO | %s %9.0f IOPS %6.2f us CPU/IO "
               "| ratio IOPS %.3f CPU/IO %.3f\n",
               i + 1, fio_first ? "(B A)" : "(A B)", a_name(), ip[n], cp[n], b_name(), ifo[n],
               cf[n], ir[n], cr[n]);
        fflush(stdout);
        n++;
    }
    if (!n)
        return;
    struct summary *s = &summaries[n_summaries++];
    snprintf(s->label, sizeof(s->label), "%s %s %s", tlabel, c->name, e->name);
    s->target = tlabel;
    s->n = n;
    s->iops_p = spread_of(ip, n);
    s->iops_f = spread_of(ifo, n);
    s->iops_r = spread_of(ir, n);
    s->cpu_p = spread_of(cp, n);
    s->cpu_f = spread_of(cf, n);
    s->cpu_r = spread_of(cr, n);
    for (int i = 0; i < n; i++) {
        s->iops_met += ir[i] >= 1.0;
        s->cpu_met += cr[i] <= 1.0;
        s->log_iops += log(ir[i]);
        s->log_cpu += log(cr[i]);
    }
    printf("  median: %s %.0f IOPS %.2f us CPU/IO | %s %.0f IOPS %.2f us CPU/IO | "
           "ratio IOPS %.3f (%.3f-%.3f) CPU/IO %.3f (%.3f-%.3f)\n",
           a_name(), s->iops_p.med, s->cpu_p.med, b_name(), s->iops_f.med, s->cpu_f.med,
           s->iops_r.med, s->iops_r.min, s->iops_r.max, s->cpu_r.med, s->cpu_r.min, s->cpu_r.max);
    fflush(stdout);
}

/* Whether name is in the comma list env (unset: everything). */
static bool selected(const char *env, const char *name)
{
    const char *list = getenv(env);
    if (!list || !*list)
        return true;
    size_t len = strlen(name);
    for (const char *p = list; *p;) {
        const char *end = strchr(p, ',');
        size_t l = end ? (size_t)(end - p) : strlen(p);
        if (l == len && !strncmp(p, name, len))
            return true;
        if (!end)
            break;
        p = end + 1;
    }
    return false;
}

/* Write the whole target once (1 MiB sequential writes) so that reads return stored data, not
 * unmapped zeros, and a file target exists at its full size. */
static int fill_target(const char *target, const char *dir, bool is_file)
{
    char out[600], log[640];
    snprintf(out, sizeof(out), "%s/fill", dir);
    snprintf(log, sizeof(log), "%s/fill.log", dir);
    char *argv[] = {(char *)ptsbench_bin(), "run", "--target", (char *)target, "--destructive",
                    "--workload", "rw=write,bs=1m,qd=8", "--round-bytes", TARGET_SIZE,
                    "--rounds", "1", "--quiet", "--force", "--out", out,
                    is_file ? "--size" : NULL, TARGET_SIZE, NULL};
    struct rusage ru;
    if (spawn_measured(argv, log, &ru) != 0) {
        if (!g_stop)
            print_log("fill", log);
        return -1;
    }
    return 0;
}

static void bench_target(const char *tlabel, const char *target, const char *dir, bool quick,
                         int npairs, const char *secs)
{
    if (fill_target(target, dir, !strcmp(tlabel, "file")) != 0)
        return;
    target_refuses_nowait = refuses_nowait(target);
    if (target_refuses_nowait) {
        printf("bench: %s target refuses nowait I/O (EOPNOTSUPP): io_uring hands every I/O to "
               "io-wq there", tlabel);
        if (runs("ptsbench"))
            printf("; ptsbench marks its I/Os of 64 KiB and up async, and all of them past 16 "
                   "per CPU in flight");
        if (runs("fio"))
            printf("%s fio gets force_async 0 or 1, whichever its warm-up ran faster",
                   runs("ptsbench") ? "," : ";");
        printf("\n");
    }
    /* What state the figures below were measured in: both targets are real, neither is an SSD */
    printf("bench: %s target %s: real, not simulated, %s written in full before its first case; "
           "%s, so no fresh, WIPC or steady state applies\n", tlabel, target, TARGET_SIZE,
           strcmp(tlabel, "file") ? "a compressed RAM disk" : "an O_DIRECT file on the host's disk");
    for (size_t ci = 0; ci < N_CASES && !g_stop; ci++) {
        const struct bench_case *c = &cases[ci];
        if ((quick && !c->quick) || !selected("BENCH_CASES", c->name))
            continue;
        if (c->pin && !pin_cpu[0]) {
            printf("%s %s: skipped: this process's CPU mask cannot be read\n", tlabel, c->name);
            continue;
        }
        for (size_t ei = 0; ei < N_PAIRS && !g_stop; ei++)
            if (selected("BENCH_ENGINES", pairs[ei].name))
                measure_case(tlabel, target, dir, c, &pairs[ei], npairs, secs);
    }
}

/* The geometric mean of the ratios of every pair, all cases together and per target: one
 * figure per metric, for how the two sides compare over the whole series (where a median of 5
 * pairs in one case falls either side of 1.0 with the machine's noise; an A/A series shows what
 * that noise is: docs/engines-measurements.md M7.3). */
static void print_pooled(void)
{
    static const char *const targets[] = {NULL, "zram", "file"};
    for (size_t t = 0; t < sizeof(targets) / sizeof(targets[0]); t++) {
        double li = 0, lc = 0;
        int n = 0, cases_n = 0;
        for (int i = 0; i < n_summaries; i++) {
            const struct summary *s = &summaries[i];
            if (targets[t] && strcmp(s->target, targets[t]))
                continue;
            li += s->log_iops;
            lc += s->log_cpu;
            n += s->n;
            cases_n++;
        }
        if (!n || (targets[t] && cases_n == n_summaries))
            continue;   /* nothing there, or the same as the line for all */
        printf("bench: geometric mean of the pair ratios, %s: IOPS %.3f, CPU/IO %.3f (%d pairs, "
               "%d cases)\n", targets[t] ? targets[t] : "all cases", exp(li / n), exp(lc / n), n,
               cases_n);
        if (!targets[t] && !aa_tool)   /* the bar, docs/engines.md section 7 */
            printf("bench: the bar: geometric mean IOPS %.3f >= 1.0 %s, CPU/IO %.3f <= 1.0 %s; "
                   "and no median outside fio against fio's spread on this machine "
                   "(BENCH_AA=fio shows it)\n", exp(li / n), exp(li / n) >= 1.0 ? "met" : "MISSED",
                   exp(lc / n), exp(lc / n) <= 1.0 ? "met" : "MISSED");
    }
}

static void print_table(void)
{
    if (!n_summaries)
        return;
    printf("\nbench: ratios %s/%s%s, median (min-max) over the pairs, and how many pairs met "
           "the goal; goal IOPS >= 1.0, CPU/IO <= 1.0\n",
           a_name(), b_name(), aa_tool ? " (A/A: the same tool on both sides)" : "");
    char head[96];
    snprintf(head, sizeof(head), "median IOPS A/B, us CPU/IO A/B (A %s, B %s)", a_name(), b_name());
    printf("  %-36s %5s  %-30s  %-30s  %s\n", "case", "pairs", "IOPS ratio (pairs >= 1)",
           "CPU/IO ratio (pairs <= 1)", head);
    int iops_ok = 0, cpu_ok = 0, iops_noise = 0, cpu_noise = 0;
    for (int i = 0; i < n_summaries; i++) {
        const struct summary *s = &summaries[i];
        const bool im = s->iops_r.med >= 1.0, cm = s->cpu_r.med <= 1.0;
        iops_ok += im;
        cpu_ok += cm;
        iops_noise += !im && s->iops_met;
        cpu_noise += !cm && s->cpu_met;
        char ir[48], cr[48];
        snprintf(ir, sizeof(ir), "%.3f (%.3f-%.3f) %d/%d%s", s->iops_r.med, s->iops_r.min,
                 s->iops_r.max, s->iops_met, s->n, im ? "" : " *");
        snprintf(cr, sizeof(cr), "%.3f (%.3f-%.3f) %d/%d%s", s->cpu_r.med, s->cpu_r.min,
                 s->cpu_r.max, s->cpu_met, s->n, cm ? "" : " *");
        printf("  %-36s %5d  %-30s  %-30s  %.0f/%.0f, %.2f/%.2f\n", s->label, s->n, ir, cr,
               s->iops_p.med, s->iops_f.med, s->cpu_p.med, s->cpu_f.med);
    }
    printf("bench: IOPS goal met by %d of %d medians (misses: %d within noise, %d in every "
           "pair); CPU/IO goal met by %d of %d (misses: %d within noise, %d in every pair); * "
           "marks a miss\n",
           iops_ok, n_summaries, iops_noise, n_summaries - iops_ok - iops_noise, cpu_ok,
           n_summaries, cpu_noise, n_summaries - cpu_ok - cpu_noise);
    print_pooled();
    for (int i = 0; i < n_summaries; i++) {
        const struct summary *s = &summaries[i];
        const bool im = s->iops_r.med >= 1.0, cm = s->cpu_r.med <= 1.0;
        if (!im || !cm)
            printf("  %-36s IOPS: %s; CPU/IO: %s\n", s->label, verdict(im, s->iops_met),
                   verdict(cm, s->cpu_met));
    }
}

/* BENCH_TICK (the header): the tickers' pids, stopped and reaped by tickers_stop. */
static pid_t tickers[CPU_SETSIZE];
static int n_tickers;

static void tickers_start(const cpu_set_t *cpus, int ms)
{
    const pid_t parent = getpid();
    fflush(stdout);   /* the children inherit no unwritten output */
    for (int c = 0; c < CPU_SETSIZE; c++) {
        if (!CPU_ISSET(c, cpus))
            continue;
        const pid_t pid = fork();
        if (pid < 0)
            break;
        if (pid == 0) {
            /* dies with the bench however it ends */
            if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent)
                _exit(0);
            signal(SIGINT, SIG_DFL);
            signal(SIGTERM, SIG_DFL);
            cpu_set_t one;
            CPU_ZERO(&one);
            CPU_SET(c, &one);
            (void)sched_setaffinity(0, sizeof(one), &one);
            const struct timespec t = {ms / 1000, (long)(ms % 1000) * 1000000L};
            for (;;)
                nanosleep(&t, NULL);
        }
        tickers[n_tickers++] = pid;
    }
    printf("bench: BENCH_TICK=%d: %d ticker process%s (one per CPU, each waking every %d ms) "
           "around both tools' runs alike: a diagnostic, not the default comparison\n", ms,
           n_tickers, n_tickers == 1 ? "" : "es", ms);
}

static void tickers_stop(void)
{
    for (int i = 0; i < n_tickers; i++) {
        kill(tickers[i], SIGKILL);
        while (waitpid(tickers[i], NULL, 0) < 0 && errno == EINTR) {
        }
    }
    n_tickers = 0;
}

static int env_int(const char *name, int dflt, int lo, int hi)
{
    const char *v = getenv(name);
    if (!v || !*v)
        return dflt;
    int x = atoi(v);
    return x < lo ? lo : x > hi ? hi : x;
}

int main(void)
{
    aa_tool = getenv("BENCH_AA");
    if (aa_tool && !*aa_tool)
        aa_tool = NULL;
    if (aa_tool && strcmp(aa_tool, "fio") && strcmp(aa_tool, "ptsbench")) {
        fprintf(stderr, "bench: BENCH_AA=%s: expected fio or ptsbench\n", aa_tool);
        return 2;
    }
    const bool quick = env_int("BENCH_QUICK", 0, 0, 1);
    const int npairs = env_int("BENCH_PAIRS", quick ? 3 : 5, 1, MAX_PAIRS);
    char secs[16];
    snprintf(secs, sizeof(secs), "%d", env_int("BENCH_SECS", quick ? 2 : 3, 1, 3600));
    if (aa_tool)
        printf("bench: A/A series: %s on both sides (A and B) of every pair, the same way; ",
               aa_tool);
    else
        printf("bench: ptsbench (A) engines vs fio's (B) at its best, ");
    printf("%d pairs of %s s alternating A B, B A, ... after a 1 s warm-up of each%s\n", npairs,
           secs, quick ? " (quick)" : "");
    if (runs("fio") && !test_have_fio()) {
        printf("bench: skipped (fio is not installed)\n");
        return 0;
    }
    cpu_set_t mine;
    if (sched_getaffinity(0, sizeof(mine), &mine) == 0)
        for (int c = CPU_SETSIZE - 1; c >= 0 && !pin_cpu[0]; c--)
            if (CPU_ISSET(c, &mine))
                snprintf(pin_cpu, sizeof(pin_cpu), "%d", c);
    /* Our handler before zram_create's: a signal stops the running child, then the loop ends
     * and the code below removes the device and the directory. */
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_signal;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGPIPE, &sa, NULL);

    char *dir = make_temp_dir("bench");
    if (!dir) {
        perror("bench: temporary directory");
        return 1;
    }
    const int tick_ms = env_int("BENCH_TICK", 0, 0, 1000);
    if (tick_ms > 0 && pin_cpu[0])
        tickers_start(&mine, tick_ms);
    else if (tick_ms > 0)
        printf("bench: BENCH_TICK ignored: this process's CPU mask cannot be read\n");
    if (runs("fio"))
        hugepages_reserve(8);   /* fio needs one per job (QD x 128 KiB fits in 2 MiB); spares */
    if (selected("BENCH_TARGETS", "zram")) {
        char dev[64];
        if (zram_create("1G", dev, sizeof(dev))) {
            bench_target("zram", dev, dir, quick, npairs, secs);
            zram_remove(dev);
        } else {
            printf("bench: zram cases skipped (zram unavailable)\n");
        }
    }
    if (selected("BENCH_TARGETS", "file") && !g_stop) {
        char file[600];
        snprintf(file, sizeof(file), "%s/target.dat", dir);
        bench_target("file", file, dir, quick, npairs, secs);
    }
    tickers_stop();
    print_table();
    hugepages_restore();
    remove_tree(dir);
    free(dir);
    if (g_stop)
        printf("bench: interrupted\n");
    return g_stop ? 130 : 0;
}
