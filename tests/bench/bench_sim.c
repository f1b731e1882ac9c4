/* bench_sim.c — speed of the simulated SSD model: simulated I/Os per wall-clock second for a
 * 4 KiB random-write steady-state run (closed loop, QD 32) on a medium drive, and peak RSS.
 * Goal: >= 5 million simulated I/Os per second on one core (-O2). A benchmark, not a test:
 * it prints figures and exits 0.
 *
 *   bench_sim [MILLION_IOS [K]]     default 20 million I/Os, k = 8 (generic drive, 4 GiB raw) */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

#include "sim/sim.h"

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

int main(int argc, char **argv)
{
    uint64_t n_ios = (uint64_t)(argc > 1 ? atof(argv[1]) * 1e6 : 20e6);
    unsigned k = argc > 2 ? (unsigned)atoi(argv[2]) : 8;
    struct sim_params p;
    sim_params_default(&p);
    p.k = k;
    p.wbuf_units = 16384;
    struct sim_dev *d;
    char err[256];
    if (sim_open(&p, &d, err, sizeof(err))) {
        fprintf(stderr, "bench_sim: %s\n", err);
        return 1;
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
    bench_run(d, units, units / 4, &seed, &clock, &iv);   /* warm the timing state */
    struct sim_stats s0, s1;
    sim_stats(d, &s0);
    double wall = bench_run(d, units, n_ios, &seed, &clock, &iv);
    sim_stats(d, &s1);
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    double wa = (double)(s1.nand_write_sectors - s0.nand_write_sectors) /
                (double)(s1.host_write_sectors - s0.host_write_sectors);
    printf("drive: %s k=%u, %.2f GiB user (scaled), %u lines x %u pages/block, rho_eff %.3f\n",
           p.name, k, in.user_bytes / 1073741824.0, in.lines_per_ctl, in.pages_per_block,
           in.rho_eff);
    printf("4 KiB random write, QD %d, steady state: %llu I/Os in %.3f s wall\n", QD,
           (unsigned long long)n_ios, wall);
    printf("speed: %.2f million simulated I/Os per second (goal >= 5)\n", n_ios / wall / 1e6);
    printf("model: %.0f IOPS (x k = %.0f full-size), WA %.3f (oracle %.3f)\n", iv, iv * k, wa,
           sim_wa_oracle(in.rho_eff));
    printf("peak RSS: %.1f MiB\n", ru.ru_maxrss / 1024.0);
    sim_close(d);
    return 0;
}
