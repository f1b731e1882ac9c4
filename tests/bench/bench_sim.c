/* bench_sim.c — speed of the simulated SSD model: simulated I/Os per wall-clock second for a
 * 4 KiB random-write steady-state run (closed loop, QD 32) on a medium drive, and peak RSS.
 * Goal: >= 5 million simulated I/Os per second on one core (-O2). A benchmark, not a test:
 * it prints figures and exits 0.
 *
 * Then the harness end to end: a 6-hour virtual WSAT on each preset through `ptsbench run`
 * (goal: under 15 s wall, peak memory under 512 MiB).
 *
 *   bench_sim [MILLION_IOS]     default 10 million I/Os per preset */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

#include <sys/wait.h>
#include <unistd.h>

#include "sim/sim.h"
#include "sim/sim_preset.h"

#define QD 32

static double bench_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static uint64_t bench_rand(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* min-heap of (completion time, slot) for the closed loop */
struct bench_ev { simt t; };

static void bench_sift(struct bench_ev *h, int n, int i)
{
    for (;;) {
        int a = 2 * i + 1, b = a + 1, m = i;
        if (a < n && h[a].t < h[m].t)
            m = a;
        if (b < n && h[b].t < h[m].t)
            m = b;
        if (m == i)
            return;
        struct bench_ev x = h[i];
        h[i] = h[m];
        h[m] = x;
        i = m;
    }
}

static double bench_run(struct sim_dev *d, uint64_t units, uint64_t n_ios, uint64_t *seed,
                         simt *clock, double *iops_virtual)
{
    struct bench_ev h[QD];
    simt now = *clock;
    for (int i = 0; i < QD; i++) {
        struct sim_io io = {SIM_WRITE, 0, (bench_rand(seed) % units) * 4096, 4096};
        h[i].t = sim_submit(d, now, &io);
    }
    for (int i = QD / 2 - 1; i >= 0; i--)
        bench_sift(h, QD, i);
    double t0 = bench_now();
    simt v0 = h[0].t;
    for (uint64_t n = 0; n < n_ios; n++) {
        now = h[0].t;
        struct sim_io io = {SIM_WRITE, 0, (bench_rand(seed) % units) * 4096, 4096};
        h[0].t = sim_submit(d, now, &io);
        bench_sift(h, QD, 0);
    }
    double wall = bench_now() - t0;
    *iops_virtual = (double)n_ios / ((double)(now - v0) * 1e-9);
    *clock = now;
    return wall;
}

/* Model speed on one preset: steady-state 4 KiB random writes in a closed loop at QD 32. */
static void bench_model(const char *preset, const char *const *dirs, uint64_t n_ios)
{
    struct sim_params p;
    char err[512];
    if (sim_preset_load(preset, dirs, &p, err, sizeof(err)) != 0) {
        fprintf(stderr, "bench_sim: %s\n", err);
        return;
    }
    struct sim_dev *d;
    if (sim_open(&p, &d, err, sizeof(err))) {
        fprintf(stderr, "bench_sim: %s\n", err);
        return;
    }
    struct sim_info in;
    sim_info(d, &in);
    uint64_t units = in.user_bytes / 4096;
    uint64_t seed = 42;
    simt clock = 0;
    double iv;
    /* steady state first: sequential fill plus 3 drive fills of random writes (FTL only) */
    sim_fast_fill(d, false, in.user_bytes, 0);
    sim_fast_fill(d, true, 3 * in.user_bytes, 0);
    bench_run(d, units, units / 8, &seed, &clock, &iv);   /* warm the timing state */
    double wall = bench_run(d, units, n_ios, &seed, &clock, &iv);
    printf("  %-22s k=%-4u model only: %6.2f million simulated I/Os per second (goal >= 5); "
           "%.0f IOPS full-size\n", preset, in.k, n_ios / wall / 1e6, iv * in.k);
    sim_close(d);
}

/* The harness end to end: a 6-hour WSAT (360 one-minute rounds of 4 KiB random writes at
 * 4 workers x QD 32 from fresh-out-of-box) through `ptsbench run`, timed, with its peak RSS. */
static void bench_wsat(const char *ptsbench, const char *preset, const char *dir)
{
    char target[128], out[512];
    snprintf(target, sizeof(target), "sim:%s", preset);
    snprintf(out, sizeof(out), "%s/wsat-%s", dir, preset);
    char *argv[] = {(char *)ptsbench, "run", "--target", target, "--workload",
                    "rw=randwrite,bs=4k,qd=32,workers=4", "--rounds", "360", "--round-time",
                    "1m", "--all-rounds", "--quiet", "--force", "--out", out, NULL};
    double t0 = bench_now();
    pid_t pid = fork();
    if (pid == 0) {
        execv(ptsbench, argv);
        _exit(127);
    }
    int st;
    struct rusage ru;
    wait4(pid, &st, 0, &ru);
    double wall = bench_now() - t0;
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        fprintf(stderr, "bench_sim: %s failed\n", ptsbench);
        return;
    }
    printf("  %-22s 6 h virtual WSAT through ptsbench run: %5.1f s wall (goal < 15), peak RSS "
           "%.0f MiB (goal < 512)\n", preset, wall, ru.ru_maxrss / 1024.0);
}

int main(int argc, char **argv)
{
    uint64_t n_ios = (uint64_t)(argc > 1 ? atof(argv[1]) * 1e6 : 10e6);
    const char *root = getenv("PTSBENCH_DATADIR");
    char devdir[4096];
    snprintf(devdir, sizeof(devdir), "%s/profiles/devices", root && *root ? root : ".");
    const char *dirs[] = {devdir, NULL};
    const char *ptsbench = getenv("PTSBENCH");
    if (!ptsbench || !*ptsbench)
        ptsbench = "build/ptsbench";
    const char *presets[] = {"zdrive-r4-cm88-1.6t", "zdrive-6300-1.6t"};
    printf("bench: simulated SSD speed\n");
    for (int i = 0; i < 2; i++)
        bench_model(presets[i], dirs, n_ios);
    char tmpl[] = "/var/tmp/ptsbench-bench-sim-XXXXXX";
    char *dir = mkdtemp(tmpl);
    if (!dir) {
        perror("bench_sim: mkdtemp");
        return 1;
    }
    for (int i = 0; i < 2; i++)
        bench_wsat(ptsbench, presets[i], dir);
    char *rm[] = {"rm", "-rf", dir, NULL};
    pid_t pid = fork();
    if (pid == 0) {
        execvp("rm", rm);
        _exit(127);
    }
    waitpid(pid, NULL, 0);
    return 0;
}
