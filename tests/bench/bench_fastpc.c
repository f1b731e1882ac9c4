/* bench_fastpc.c — issue 48's fast preconditioning, modelled on the simulated drive's own FTL
 * (a prototype and a measurement, not a test: it prints figures and exits 0).
 *
 * The model (docs/fast-precondition.md): under uniform random writes and greedy (or FIFO) GC
 * with spare factor rho, a block written y host writes ago holds a share exp(-y/U) of valid
 * pages; blocks are written at a constant rate, so the physical space holds blocks with valid
 * share v with density proportional to 1/v on [v_gc, 1], where v_gc = 1 - 1/A and A is the
 * Lambert-W write amplification (Desnoyers SYSTOR 2012 / ACM TOS 2014; Xiang & Kurkoski;
 * sim_wa_oracle). The block at physical position x (0 oldest, 1 newest) then holds v_gc^(1-x).
 * The pass (fio's sprandom idea, fio 3.40: read, not copied) writes the physical space
 * T = U (1 + rho) once in N regions, in order: each region is a random permutation's next fresh
 * LBAs plus, first, the rewrites that invalidate the chosen share 1 - v of the previous region;
 * it writes (1 + rho) fills of the active range in all.
 *
 * Per preset and worker count (QD 32 each, one closed loop of 32 x workers: the harness's
 * workers are independent closed loops, the sum is what the drive sees), from purge:
 *   wsat   the stimulus from fresh-out-of-box for 360 one-minute rounds: the plateau is the mean
 *          IOPS of the last five (as report.c's WSAT cell)
 *   wipc   2 fills of sequential 128 KiB at QD 32, then the stimulus (ptsbench's way today)
 *   fast   the pass at the drive's rho_eff (what the simulator says), then the stimulus
 *   fast/2, fast*2   the pass told half and double rho
 * Each line: the first round whose window passes the SNIA rule alone, then the rule and the fill
 * guard (steady.h; fills counted from the stimulus's first round) with the lag of today (1 fill)
 * and, for issue 48's question of what evidence the pass gives, 0.5 and 0.25: the round, the
 * fills written before the window (preconditioning included), virtual hours to the window's
 * end, and the window average's distance from the plateau. The closed loop is this program's,
 * not the harness's (its plateaus differ from `ptsbench run`'s by a few percent).
 *
 *   bench_fastpc [PRESET WORKERS]...   default: zdrive-r4-cm88-1.6t 4, zdrive-r4-cm88-1.6t 1,
 *                                      zdrive-6300-1.6t 4 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "sim/sim.h"
#include "sim/sim_preset.h"
#include "stats/steady.h"

#define FP_UNIT 4096u
#define FP_QD_PER_WORKER 32u
#define FP_ROUND_NS 60000000000ull   /* one virtual minute */
#define FP_MAX_ROUNDS 360u
#define FP_REGIONS 100u

struct fp_loop {                     /* a closed loop: a min-heap of completion times */
    simt *t;
    unsigned n;
};

static uint64_t fp_rand(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static void fp_sift(struct fp_loop *l, unsigned i)
{
    for (;;) {
        unsigned a = 2 * i + 1, b = a + 1, m = i;
        if (a < l->n && l->t[a] < l->t[m])
            m = a;
        if (b < l->n && l->t[b] < l->t[m])
            m = b;
        if (m == i)
            return;
        simt x = l->t[i];
        l->t[i] = l->t[m];
        l->t[m] = x;
        i = m;
    }
}

/* Issue one write when a slot frees (the earliest completion); returns the issue time. */
static simt fp_write(struct sim_dev *d, struct fp_loop *l, uint64_t off, uint32_t len)
{
    simt now = l->t[0];
    struct sim_io io = {SIM_WRITE, 0, off, len};
    l->t[0] = sim_submit(d, now, &io);
    fp_sift(l, 0);
    return now;
}

/* Region r's invalid share (write order, 0 oldest) for spare factor rho. */
static double fp_invalid_share(double rho, unsigned r, unsigned n)
{
    double v_gc = 1.0 - 1.0 / sim_wa_oracle(rho);
    double x = ((double)r + 0.5) / (double)n;
    return 1.0 - pow(v_gc, 1.0 - x);
}

/* The fast pass for spare factor rho over units 4 KiB units; returns the units written. */
static uint64_t fp_pass(struct sim_dev *d, struct fp_loop *l, uint64_t units, double rho,
                        uint64_t *seed)
{
    uint32_t *perm = xcalloc(units, sizeof(*perm));
    for (uint64_t i = 0; i < units; i++)
        perm[i] = (uint32_t)i;
    for (uint64_t i = units - 1; i > 0; i--) {
        uint64_t j = fp_rand(seed) % (i + 1);
        uint32_t x = perm[i];
        perm[i] = perm[j];
        perm[j] = x;
    }
    uint64_t region = (uint64_t)((double)units * (1.0 + rho) / FP_REGIONS);
    uint32_t *prev = xcalloc(units, sizeof(*prev)), *next = xcalloc(units, sizeof(*next));
    uint64_t n_prev = 0, fresh = 0, written = 0;
    for (unsigned r = 0; r < FP_REGIONS || fresh < units; r++) {
        double inv = r < FP_REGIONS ? fp_invalid_share(rho, r, FP_REGIONS) : 0.0;
        uint64_t n_next = 0, in_region = 0;
        for (uint64_t i = 0; i < n_prev || (in_region < region && fresh < units); i++) {
            uint32_t lpn = i < n_prev ? prev[i] : perm[fresh++];
            fp_write(d, l, (uint64_t)lpn * FP_UNIT, FP_UNIT);
            written++;
            in_region++;
            if ((double)(fp_rand(seed) >> 11) * 0x1.0p-53 < inv)
                next[n_next++] = lpn;
        }
        uint32_t *t = prev;
        prev = next;
        next = t;
        n_prev = n_next;
    }
    for (uint64_t i = 0; i < n_prev; i++, written++)   /* the last region's (none at inv 0) */
        fp_write(d, l, (uint64_t)prev[i] * FP_UNIT, FP_UNIT);
    free(perm);
    free(prev);
    free(next);
    return written;
}

static void fp_wipc(struct sim_dev *d, struct fp_loop *l, uint64_t user_bytes)
{
    const uint32_t bs = 128u * 1024u;
    for (unsigned f = 0; f < 2; f++)
        for (uint64_t off = 0; off + bs <= user_bytes; off += bs)
            fp_write(d, l, off, bs);
}

struct fp_result {
    double y[FP_MAX_ROUNDS], fills[FP_MAX_ROUNDS];   /* IOPS (full size), stimulus fills */
    unsigned n;
    double pre_fills, pre_hours;                       /* the preconditioning's */
};

/* The stimulus in one-minute rounds until max_rounds. */
static void fp_stimulus(struct sim_dev *d, struct fp_loop *l, uint64_t units, unsigned k,
                        unsigned max_rounds, uint64_t *seed, struct fp_result *res)
{
    simt start = l->t[0];
    uint64_t written = 0;
    for (unsigned r = 0; r < max_rounds; r++) {
        simt end = start + (simt)(r + 1) * FP_ROUND_NS;
        uint64_t ios = 0;
        while (l->t[0] < end) {
            fp_write(d, l, (fp_rand(seed) % units) * FP_UNIT, FP_UNIT);
            ios++;
        }
        written += ios;
        res->y[r] = (double)ios * k / 60.0;
        res->fills[r] = (double)written / (double)units;
        res->n = r + 1;
    }
}

enum fp_mode { FP_WSAT, FP_WIPC, FP_FAST, FP_FAST_HALF, FP_FAST_DOUBLE };

static int fp_run(const struct sim_params *p, unsigned workers, enum fp_mode mode,
                  struct fp_result *res)
{
    struct sim_dev *d;
    char err[512];
    if (sim_open(p, &d, err, sizeof(err))) {
        fprintf(stderr, "bench_fastpc: %s\n", err);
        return -1;
    }
    struct sim_info in;
    sim_info(d, &in);
    uint64_t units = in.user_bytes / FP_UNIT, seed = 48;
    struct fp_loop l = {xcalloc(workers * FP_QD_PER_WORKER, sizeof(simt)),
                        workers * FP_QD_PER_WORKER};
    memset(res, 0, sizeof(*res));
    double pre_units = 0;
    if (mode == FP_WIPC) {
        fp_wipc(d, &l, in.user_bytes);
        pre_units = 2.0 * (double)units;
    } else if (mode != FP_WSAT) {
        double rho = in.rho_eff * (mode == FP_FAST_HALF ? 0.5 : mode == FP_FAST_DOUBLE ? 2 : 1);
        pre_units = (double)fp_pass(d, &l, units, rho, &seed);
    }
    simt pre_end = 0;   /* the last preconditioning I/O's completion */
    for (unsigned i = 0; i < l.n; i++)
        pre_end = l.t[i] > pre_end ? l.t[i] : pre_end;
    for (unsigned i = 0; i < l.n; i++)
        l.t[i] = pre_end;
    res->pre_fills = pre_units / (double)units;
    res->pre_hours = (double)pre_end / 3.6e12;
    fp_stimulus(d, &l, units, in.k, mode == FP_WSAT ? FP_MAX_ROUNDS : 240, &seed, res);
    free(l.t);
    sim_close(d);
    return 0;
}

/* One verdict: the first round passing the rule (and the guard at lag fills, lag > 0). */
static void fp_verdict(const struct fp_result *r, double plateau, double lag)
{
    const struct steady_criteria c = STEADY_CRITERIA_SNIA;
    const struct steady_guard g = {lag, STEADY_GUARD_DEFAULT.band_frac, NULL};
    struct steady_window w;
    struct steady_guard_result gr;
    unsigned at = steady_first_guarded(r->y, r->fills, r->n, 1, &c, lag > 0 ? &g : NULL, &w, &gr);
    if (!at) {
        printf(" | %-30s", "none");
        return;
    }
    double before = r->pre_fills + (w.first_round >= 2 ? r->fills[w.first_round - 2] : 0);
    printf(" | r%-3u %4.2f f %5.2f h %+6.1f%%", at, before, r->pre_hours + at / 60.0,
           100 * (w.average / plateau - 1));
}

static void fp_print(const char *name, const struct fp_result *r, double plateau)
{
    printf("    %-6s %4.2f f %4.2f h", name, r->pre_fills, r->pre_hours);
    const double lags[] = {0, 1.0, 0.5, 0.25};
    for (int i = 0; i < 4; i++)
        fp_verdict(r, plateau, lags[i]);
    printf("\n");
}

static void fp_preset(const char *preset, unsigned workers, const char *const *dirs)
{
    struct sim_params p;
    char err[512];
    if (sim_preset_load(preset, dirs, &p, err, sizeof(err)) != 0) {
        fprintf(stderr, "bench_fastpc: %s\n", err);
        return;
    }
    static struct fp_result wsat, r;
    if (fp_run(&p, workers, FP_WSAT, &wsat) != 0)
        return;
    double plateau = 0;
    for (unsigned i = wsat.n - 5; i < wsat.n; i++)
        plateau += wsat.y[i] / 5;
    printf("  %s, %u x QD %u: 6 h WSAT plateau %.0f IOPS (mean of its last 5 rounds)\n", preset,
           workers, FP_QD_PER_WORKER, plateau);
    printf("    %-6s %-15s | %-30s | %-30s | %-30s | %-30s\n", "", "precondition",
           "SNIA rule alone", "rule + guard (lag 1, today)", "rule + guard, lag 0.5",
           "rule + guard, lag 0.25");
    const char *names[] = {"wsat", "wipc", "fast", "fast/2", "fast*2"};
    for (int m = FP_WSAT; m <= FP_FAST_DOUBLE; m++) {
        if (m != FP_WSAT && fp_run(&p, workers, (enum fp_mode)m, &r) != 0)
            return;
        fp_print(names[m], m == FP_WSAT ? &wsat : &r, plateau);
    }
}

int main(int argc, char **argv)
{
    const char *root = getenv("PTSBENCH_DATADIR");
    char devdir[4096];
    snprintf(devdir, sizeof(devdir), "%s/profiles/devices", root && *root ? root : ".");
    const char *dirs[] = {devdir, NULL};
    printf("bench: fast preconditioning (issue 48 model) against WIPC and the WSAT plateau\n");
    if (argc > 2) {
        for (int i = 1; i + 1 < argc; i += 2)
            fp_preset(argv[i], (unsigned)atoi(argv[i + 1]), dirs);
        return 0;
    }
    fp_preset("zdrive-r4-cm88-1.6t", 4, dirs);
    fp_preset("zdrive-r4-cm88-1.6t", 1, dirs);
    fp_preset("zdrive-6300-1.6t", 4, dirs);
    return 0;
}
