/* test_fast_wrong_op.c — issue 48's check of the fast pass told the wrong over-provisioning: with
 * half and double the drive's spare factor the pass leaves a transient that the SNIA rule alone
 * calls steady (its first window more than 5% off the plateau), the fill guard refuses it, and the
 * window the guard then calls lies within 5% of the plateau. With the right spare factor the
 * guarded window lies within 5% after fewer fills than WIPC's road. A pass told half the spare
 * factor on a drive that cannot be checked after it (a real drive: lag 0.5 whatever the pass left)
 * is refused all the same. A guard with lag 0 (STEADY_GUARD_LAG_FAST and STEADY_GUARD_DEFAULT's lag
 * set to 0) fails both wrong-rho tests: it calls the rule's transient window steady (2 rho: +18 %)
 * or one 12 % off (rho/2).
 *
 * The roads as the runner takes them (core/fastprep.c), on the model directly: the pass is
 * core/fastpass.h fastpass_sim (io/fastgen's offsets, QD 32 x 4, as step_fast), the check after it
 * the runner's own (core/fastpass.h fastpass_sim_settled: free lines within the GC pool), the
 * guard's lag the runner's choice (core/drive_state.h ds_guard_lag: STEADY_GUARD_LAG_FAST or 1
 * fill), the stimulus 4 workers x QD 32 of uniform 4 KiB random writes without a random map
 * (tests/sim_loop.h; the lead's choice after a fast pass), in one-minute virtual rounds, judged by
 * stats/steady.h steady_first_guarded. Not through `ptsbench run`: five runs of 120-360 rounds
 * through the harness take 15-30 s wall (it rewrites results.json every round); in-process they
 * take a few seconds. The drive: the simulated Z-Drive R4 at k = 1024 with 2 of its 8 controllers
 * (95K units of 4 KiB, 64 lines per controller): the harness on it gives the same verdicts as
 * docs/fast-precondition.md §4's full-size R4 (rho/2: rule alone -11 %, guard refuses, passes
 * within 2 %; 2 rho: rule alone +20 %, guarded +0.5 %). The plateau is computed here from a 12-hour
 * WSAT of the same drive (setup: its 6-hour value is 3 % high at this size). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/drive_state.h"
#include "core/fastpass.h"
#include "helpers.h"
#include "sim/sim.h"
#include "sim/sim_preset.h"
#include "sim_loop.h"
#include "stats/steady.h"

#define DRIVE "sim:zdrive-r4-cm88-1.6t,k=1024,n_ctl=2"
#define ROUND_NS 60000000000ull      /* one virtual minute */
#define MAX_ROUNDS 400u
#define WORKERS 4u
#define QD 32u

struct road {
    double y[MAX_ROUNDS], fills[MAX_ROUNDS];   /* IOPS (full size), stimulus fills */
    unsigned n;
    double pre_fills;                          /* the preconditioning's */
    struct steady_guard g;
    unsigned rule_at, at;                      /* rule alone; rule and guard (0: none) */
    struct steady_window rule_w, w;
    struct steady_guard_result rule_gr, gr;    /* the guard at the rule's window; at the guarded */
};

static double plateau;

static struct sim_dev *drive(struct sim_params *p, struct sim_info *in)
{
    struct sim_dev *d = NULL;
    char err[512];
    if (sim_target_parse(DRIVE, test_device_dirs(), p, err, sizeof(err)) != 0 ||
        sim_open(p, &d, err, sizeof(err)) != 0) {
        print_error("%s: %s\n", DRIVE, err);
        fail();
    }
    sim_info(d, in);
    return d;
}

static void loop_open(struct sim_loop *L, struct sim_dev *d, simt now)
{
    struct sim_loop_job jobs[WORKERS];
    memset(jobs, 0, sizeof(jobs));
    for (unsigned i = 0; i < WORKERS; i++) {
        jobs[i].qd = QD;
        jobs[i].random_pct = 100;
        jobs[i].seed = 4800 + i;
    }
    char err[256];
    if (sim_loop_open(L, d, jobs, WORKERS, now, err, sizeof(err)) != 0) {
        print_error("sim_loop_open: %s\n", err);
        fail();
    }
}

/* The stimulus from now in one-minute rounds until the rule and the guard pass (or MAX_ROUNDS),
 * noting the first window the rule alone passes. */
static void stimulus(struct sim_dev *d, const struct sim_info *in, simt now, struct road *r)
{
    const struct steady_criteria c = STEADY_CRITERIA_SNIA;
    struct sim_loop L;
    loop_open(&L, d, now);
    uint64_t written = 0;
    for (r->n = 0; r->n < MAX_ROUNDS && !r->at;) {
        struct sim_loop_stats s;
        memset(&s, 0, sizeof(s));
        r->y[r->n] = sim_loop_run_until(&L, now + (simt)(r->n + 1) * ROUND_NS, &s);
        written += s.write_bytes;
        r->fills[r->n] = (double)written / (double)in->user_bytes;
        r->n++;
        if (!r->rule_at &&
            (r->rule_at = steady_first_guarded(r->y, r->fills, r->n, r->n, &c, NULL, &r->rule_w,
                                               &r->rule_gr)))
            steady_guard_eval(r->y, r->fills, r->n, &r->rule_w, &c, &r->g, &r->rule_gr);
        r->at = steady_first_guarded(r->y, r->fills, r->n, r->n, &c, &r->g, &r->w, &r->gr);
    }
    sim_loop_close(&L);
}

/* The runner's check after the pass (core/fastpass.h fastpass_sim_settled, as core/fastprep.c). */
static bool pass_checked(struct sim_dev *d, const struct sim_params *p, const struct sim_info *in)
{
    struct sim_stats st;
    sim_stats(d, &st);
    return fastpass_sim_settled(p, in, &st, NULL);
}

/* --precondition fast:RHO (rho_mult x the drive's rho_eff), then the stimulus. checkable: the
 * simulated drive, checked after the pass; false: a real drive, where nothing can be checked and
 * the runner takes the lag after a pass whatever the pass left (ds_guard_lag's checked = true). */
static void fast_road_on(double rho_mult, bool checkable, struct road *r)
{
    struct sim_params p;
    struct sim_info in;
    struct sim_world w;
    memset(&w, 0, sizeof(w));
    w.dev = drive(&p, &in);
    struct fastpass_result fr;
    assert_int_equal(fastpass_sim(&w, 0, in.user_bytes, rho_mult * in.rho_eff, QD * WORKERS, 0,
                                  48, NULL, &fr), 0);
    r->pre_fills = (double)fr.units_written / (double)fr.units;
    r->g = STEADY_GUARD_DEFAULT;
    ds_guard_lag(DS_PREP_FAST, DS_FTL_MODEL, checkable ? pass_checked(w.dev, &p, &in) : true,
                 &r->g);
    stimulus(w.dev, &in, w.now, r);
    sim_close(w.dev);
}

/* --precondition steady: WIPC (2 fills of sequential 128 KiB at QD 32), then the stimulus. */
static void wipc_road(struct road *r)
{
    struct sim_params p;
    struct sim_info in;
    struct sim_dev *d = drive(&p, &in);
    struct sim_loop_job seq = {.qd = QD, .bs = 128u << 10};
    struct sim_loop L;
    char err[256];
    assert_int_equal(sim_loop_open(&L, d, &seq, 1, 0, err, sizeof(err)), 0);
    struct sim_loop_stats s, tail;
    sim_loop_run(&L, 2 * in.user_bytes / seq.bs - QD, &s);
    sim_loop_drain(&L, &tail);
    sim_loop_stats_add(&s, &tail);
    r->pre_fills = (double)s.write_bytes / (double)in.user_bytes;
    const simt now = L.now;
    sim_loop_close(&L);
    r->g = STEADY_GUARD_DEFAULT;
    stimulus(d, &in, now, r);
    sim_close(d);
}

static void fast_road(double rho_mult, struct road *r)
{
    fast_road_on(rho_mult, true, r);
}

/* The fills written before the guarded window (preconditioning included). */
static double fills_before(const struct road *r)
{
    return r->pre_fills + (r->w.first_round >= 2 ? r->fills[r->w.first_round - 2] : 0);
}

static double off(const struct steady_window *w)
{
    return w->average / plateau - 1;
}

static void show(const char *name, const struct road *r)
{
    print_message("%-15s pre %.2f f, lag %.2f: rule alone r%u %+.1f%%, the guard there %s; "
                  "guarded r%u %.2f f %+.1f%%\n", name, r->pre_fills, r->g.lag_fills,
                  r->rule_at, 100 * off(&r->rule_w),
                  r->rule_gr.passed      ? "passed"
                  : r->rule_gr.evaluated ? "refused (a 5-round average off the band)"
                                         : "refused (under lag fills of history)",
                  r->at, fills_before(r), 100 * off(&r->w));
}

/* The plateau: the mean IOPS of hours 7-12 of a 12-hour WSAT from fresh-out-of-box. On this
 * small drive a 5-minute mean wanders by +-3 % around it, and the 6-hour WSAT's last hour is
 * still 3-4 % above it (the full-size R4's, in bench_fastpc, 1-3 %). */
static int setup(void **state)
{
    (void)state;
    struct sim_params p;
    struct sim_info in;
    struct sim_dev *d = drive(&p, &in);
    struct sim_loop L;
    loop_open(&L, d, 0);
    sim_loop_run_until(&L, 300 * ROUND_NS, NULL);
    const double wsat6 = sim_loop_run_until(&L, 360 * ROUND_NS, NULL);
    plateau = sim_loop_run_until(&L, 720 * ROUND_NS, NULL);
    sim_loop_close(&L);
    sim_close(d);
    print_message("plateau %.0f IOPS (hours 7-12 of a WSAT; its 6th hour %.0f); rho_eff %.3f, "
                  "%.0f units\n", plateau, wsat6, in.rho_eff, (double)in.user_bytes / 4096);
    return plateau > 0 ? 0 : -1;
}

/* rho_mult x rho: the rule's first window is a transient (> 5% off), the guard refuses it and
 * the window it calls is within 5% of the plateau. */
static void wrong_rho(double rho_mult, bool checkable, const char *name)
{
    static struct road r;
    memset(&r, 0, sizeof(r));
    fast_road_on(rho_mult, checkable, &r);
    show(name, &r);
    assert_true(r.rule_at > 0);
    assert_true(fabs(off(&r.rule_w)) > 0.05);    /* what the rule alone would call steady */
    assert_false(r.rule_gr.passed);               /* the guard refuses that window */
    assert_true(r.at > r.rule_at);
    assert_true(r.gr.passed);
    assert_true(fabs(off(&r.w)) <= 0.05);         /* the window it calls: the plateau */
}

/* Half: the pass invalidates too little (the drive left with free lines: the lag stays 1). */
static void test_half_rho_guard_refuses_transient(void **state)
{
    (void)state;
    wrong_rho(0.5, true, "rho/2");
}

/* Double: the pass writes beyond the physical capacity (the check passes: lag 0.5). */
static void test_double_rho_guard_refuses_transient(void **state)
{
    (void)state;
    wrong_rho(2.0, true, "2 rho");
}

/* Half on a drive the runner cannot check after the pass (a real drive told a wrong --op): the
 * lag is 0.5 fill although the pass left free lines, and the guard still refuses the transient
 * (the basis of STEADY_GUARD_LAG_FAST on real drives, stats/steady.h). */
static void test_half_rho_unchecked_lag_half_refuses(void **state)
{
    (void)state;
    wrong_rho(0.5, false, "rho/2 unchecked");
}

/* The right rho: within 5% of the plateau, after fewer fills than WIPC's road (and at most
 * the 2.0 fills issue 48 asks for). */
static void test_right_rho_fewer_fills_than_wipc(void **state)
{
    (void)state;
    static struct road fast, wipc;
    memset(&fast, 0, sizeof(fast));
    memset(&wipc, 0, sizeof(wipc));
    fast_road(1.0, &fast);
    wipc_road(&wipc);
    show("rho", &fast);
    show("wipc", &wipc);
    assert_true(fast.at > 0 && fast.gr.passed);
    assert_true(fabs(off(&fast.w)) <= 0.05);
    assert_true(wipc.at > 0 && wipc.gr.passed);
    assert_true(fills_before(&fast) < fills_before(&wipc));
    assert_true(fills_before(&fast) <= 2.0);          /* the bound (target 1.5) */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_half_rho_guard_refuses_transient),
        cmocka_unit_test(test_double_rho_guard_refuses_transient),
        cmocka_unit_test(test_half_rho_unchecked_lag_half_refuses),
        cmocka_unit_test(test_right_rho_fewer_fills_than_wipc),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
