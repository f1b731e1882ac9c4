/* test_drive_state.c — the drive's state as ptsbench keeps it, and what a window may be called
 * (drive_state.h): every branch of ds_judge, with the labels that reports and verify rely on. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "core/drive_state.h"

/* 1 TB active range: purge, WIPC 2 TB, a stimulus writing 0.5 TB as WDPC, a new stimulus. */
static void test_accounting(void **state)
{
    (void)state;
    struct drive_state s;
    ds_init(&s, 1e12, true);
    assert_true(s.present);
    assert_int_equal(s.condition, DS_FOB);
    assert_string_equal(ds_condition_name(s.condition), "fob");
    ds_write(&s, 1e11, false);            /* writes that do not precondition (a burst run) */
    assert_int_equal(s.condition, DS_FOB);
    assert_true(s.wdpc_bytes == 0);
    assert_true(s.written_bytes == 1e11);
    ds_write(&s, 1e11, true);             /* a stimulus as the whole preconditioning (HIR) */
    assert_int_equal(s.condition, DS_WDPC);
    assert_true(s.wdpc_bytes == 1e11);
    ds_purge(&s);
    assert_int_equal(s.condition, DS_PURGED);
    assert_true(s.purged);
    assert_true(s.written_bytes == 0);
    ds_wipc(&s, 2e12);
    assert_int_equal(s.condition, DS_WIPC);
    assert_true(fabs(ds_fills(&s, s.wipc_bytes) - 2.0) < 1e-12);
    ds_stimulus(&s);
    ds_write(&s, 5e11, true);
    assert_int_equal(s.condition, DS_WDPC);
    assert_string_equal(ds_condition_name(s.condition), "wdpc");
    assert_true(fabs(ds_fills(&s, s.wdpc_bytes) - 0.5) < 1e-12);
    assert_true(fabs(ds_fills(&s, s.written_bytes) - 2.5) < 1e-12);
    ds_stimulus(&s);                      /* the next workload counts its own WDPC */
    assert_true(s.wdpc_bytes == 0);
    assert_int_equal(s.condition, DS_WDPC);
    ds_wipc(&s, 2e12);                    /* a new WIPC: WDPC starts over */
    assert_int_equal(s.condition, DS_WIPC);
    assert_true(s.wdpc_bytes == 0);
    struct drive_state u;
    ds_init(&u, 0, false);
    assert_true(ds_fills(&u, 5) == 0);   /* unknown range: no fills, not a division by 0 */
}

static const struct steady_guard G = {1.0, 0.05, NULL};

/* No preconditioning: a flat window is the burst plateau, never steady; after a fill of the
 * stimulus it is write saturation, still not steady; not flat: not stable. */
static void test_judge_without_preconditioning(void **state)
{
    (void)state;
    struct ds_verdict v;
    struct steady_guard_result gr = {.fills_before = 0.3};
    ds_judge(DS_PREP_NONE, true, true, &gr, &G, 5, &v);
    assert_false(v.steady);
    assert_true(v.stable);
    assert_int_equal(v.measured, DS_M_BURST);
    assert_string_equal(ds_measured_name(v.measured), "burst");
    assert_string_equal(v.label, "stable (fresh-out-of-box / burst)");
    assert_non_null(strstr(v.reason, "no preconditioning"));
    gr.fills_before = 1.4;
    ds_judge(DS_PREP_NONE, true, true, &gr, &G, 9, &v);
    assert_false(v.steady);
    assert_int_equal(v.measured, DS_M_SATURATED);
    assert_string_equal(ds_measured_name(v.measured), "saturated");
    assert_non_null(strstr(v.label, "1.4 fills"));
    ds_judge(DS_PREP_NONE, false, true, NULL, &G, 5, &v);   /* reads: burst too */
    assert_false(v.steady);
    assert_int_equal(v.measured, DS_M_BURST);
    ds_judge(DS_PREP_NONE, true, false, &gr, &G, 25, &v);
    assert_false(v.steady);
    assert_false(v.stable);
    assert_int_equal(v.measured, DS_M_NOT_STABLE);
    assert_non_null(strstr(v.reason, "25 rounds"));
}

/* WIPC only: writes are "stable after WIPC", reads are steady. */
static void test_judge_wipc(void **state)
{
    (void)state;
    struct ds_verdict v;
    ds_judge(DS_PREP_WIPC, true, true, NULL, &G, 5, &v);
    assert_false(v.steady);
    assert_int_equal(v.measured, DS_M_WIPC);
    assert_non_null(strstr(v.reason, "no WDPC"));
    ds_judge(DS_PREP_WIPC, false, true, NULL, &G, 5, &v);
    assert_true(v.steady);
    assert_int_equal(v.measured, DS_M_STEADY);
    assert_string_equal(v.reason, "");
}

/* WIPC + WDPC: steady only with the guard passed; a failed or unevaluated guard is a transient
 * whose reason gives the measured deviation or the missing fills. */
static void test_judge_steady(void **state)
{
    (void)state;
    struct ds_verdict v;
    struct steady_guard_result gr = {.evaluated = true, .passed = true, .fills_before = 2.8,
                                     .max_deviation = 0.03};
    ds_judge(DS_PREP_STEADY, true, true, &gr, &G, 5, &v);
    assert_true(v.steady);
    assert_int_equal(v.measured, DS_M_STEADY);
    assert_string_equal(ds_measured_name(v.measured), "steady");
    assert_non_null(strstr(v.label, "fill guard"));
    gr.passed = false;
    gr.max_deviation = 0.123;
    ds_judge(DS_PREP_STEADY, true, true, &gr, &G, 25, &v);
    assert_false(v.steady);
    assert_true(v.stable);
    assert_int_equal(v.measured, DS_M_WIPC);
    assert_non_null(strstr(v.reason, "12.3%"));
    assert_non_null(strstr(v.reason, "5%"));
    gr.evaluated = false;
    gr.fills_before = 0.4;
    ds_judge(DS_PREP_STEADY, true, true, &gr, &G, 25, &v);
    assert_false(v.steady);
    assert_non_null(strstr(v.reason, "0.40 fills"));
    ds_judge(DS_PREP_STEADY, true, false, &gr, &G, 25, &v);
    assert_false(v.steady);
    assert_false(v.stable);
    assert_int_equal(v.measured, DS_M_NOT_STABLE);
    ds_judge(DS_PREP_STEADY, false, true, NULL, &G, 5, &v);   /* a read-only stimulus */
    assert_true(v.steady);
}

/* What the range holds: a real device's history is unknown until ptsbench purges it; its writes
 * are counted against the purge by how they cover the range; WIPC covers it all. */
static void test_content(void **state)
{
    (void)state;
    struct drive_state s;
    ds_init(&s, 1e12, false);
    assert_int_equal(s.content, DS_CONTENT_UNKNOWN);
    assert_string_equal(ds_content_name(s.content), "unknown");
    assert_true(ds_unwritten_share(&s) == 0);
    struct ds_reads r;
    ds_reads_estimate(&s, 1e9, &r);
    assert_false(r.present);                       /* unknown: nothing said */
    ds_purge(&s);
    assert_int_equal(s.content, DS_CONTENT_PURGE);
    assert_true(ds_unwritten_share(&s) == 1);
    ds_reads_estimate(&s, 1e9, &r);
    assert_true(r.present && !r.measured && r.share == 1);
    assert_true(ds_reads_labelled(&r));
    ds_reads_estimate(&s, 0, &r);
    assert_false(r.present);                       /* a round that did not read */
    ds_cover(&s, 2.5e11, DS_COVER_NEW);            /* a sequential quarter */
    assert_true(fabs(ds_unwritten_share(&s) - 0.75) < 1e-12);
    ds_cover(&s, 1e12, DS_COVER_UNIFORM);          /* one fill of uniform draws: e^-1 of it */
    assert_true(fabs(ds_unwritten_share(&s) - 0.75 * exp(-1.0)) < 1e-12);
    ds_cover(&s, 5e12, DS_COVER_SKEWED);           /* zipf and the like: nothing assumed */
    assert_true(fabs(ds_unwritten_share(&s) - 0.75 * exp(-1.0)) < 1e-12);
    ds_wipc(&s, 2e12);
    assert_true(ds_unwritten_share(&s) == 0);
    ds_reads_estimate(&s, 1e9, &r);
    assert_true(r.present && r.share == 0 && !ds_reads_labelled(&r));
    /* a simulated drive opens with nothing mapped; its reads are counted elsewhere */
    ds_init(&s, 1e12, true);
    assert_int_equal(s.content, DS_CONTENT_SIMULATED);
    assert_true(ds_unwritten_share(&s) == 1);
    /* a file's extents are set as probed, and a purge (discard punches holes) empties them */
    ds_init(&s, 1e9, false);
    ds_content_set(&s, DS_CONTENT_EXTENTS, 2.5e8);
    assert_true(ds_unwritten_share(&s) == 0.25);
    ds_cover(&s, 1e9, DS_COVER_NEW);               /* probed, not modelled: unchanged */
    assert_true(ds_unwritten_share(&s) == 0.25);
    ds_purge(&s);
    assert_int_equal(s.content, DS_CONTENT_EXTENTS);
    assert_true(ds_unwritten_share(&s) == 1);
}

/* A flat window whose reads went to never-written space is never steady state; below 1% the
 * verdict stands. */
static void test_judge_unwritten(void **state)
{
    (void)state;
    const struct steady_guard g = STEADY_GUARD_DEFAULT;
    struct ds_verdict v;
    ds_judge(DS_PREP_WIPC, false, true, NULL, &g, 5, &v);
    assert_true(v.steady);
    ds_judge_unwritten(0.0099, false, &v);
    assert_true(v.steady);
    assert_int_equal(v.measured, DS_M_STEADY);
    ds_judge_unwritten(0.37, true, &v);
    assert_false(v.steady);
    assert_true(v.stable);
    assert_int_equal(v.measured, DS_M_UNWRITTEN);
    assert_string_equal(ds_measured_name(v.measured), "unwritten");
    assert_string_equal(v.label, "reads of never-written space (37% of reads): the device does "
                                 "not read its media there");
    assert_non_null(strstr(v.reason, "counted by the simulated drive"));
}

/* The fast pass (issue 48) is a road of its own: its bytes are its own (not WIPC's), the
 * condition says fast, a WIPC after it forgets it and the reverse; the words say fast pass. */
static void test_fast_pass_state(void **state)
{
    (void)state;
    struct drive_state s;
    ds_init(&s, 1e12, true);
    ds_purge(&s);
    ds_fast(&s, 1.31e12);
    assert_int_equal(s.condition, DS_FAST);
    assert_string_equal(ds_condition_name(s.condition), "fast");
    assert_true(s.fast_bytes == 1.31e12 && s.wipc_bytes == 0 && s.wdpc_bytes == 0);
    assert_true(fabs(ds_fills(&s, s.fast_bytes) - 1.31) < 1e-12);
    assert_true(ds_unwritten_share(&s) == 0);   /* every unit written fresh once */
    ds_stimulus(&s);
    ds_write(&s, 5e11, ds_prep_wdpc(DS_PREP_FAST));
    assert_int_equal(s.condition, DS_WDPC);
    assert_true(s.fast_bytes == 1.31e12 && s.wdpc_bytes == 5e11);
    ds_wipc(&s, 2e12);
    assert_true(s.fast_bytes == 0 && s.wipc_bytes == 2e12);
    ds_fast(&s, 1.25e12);
    assert_true(s.fast_bytes == 1.25e12 && s.wipc_bytes == 0);
    assert_true(ds_prep_wdpc(DS_PREP_STEADY) && !ds_prep_wdpc(DS_PREP_WIPC));
    assert_string_equal(ds_prep_words(DS_PREP_FAST), "fast pass + WDPC");

    const struct steady_guard g = STEADY_GUARD_DEFAULT;
    struct steady_guard_result gr = {.evaluated = true, .passed = true, .fills_before = 1.2};
    struct ds_verdict v;
    ds_judge(DS_PREP_FAST, true, true, &gr, &g, 30, &v);
    assert_true(v.steady);
    assert_string_equal(v.label, "steady state (SNIA PTS rule and fill guard, after fast pass + "
                                 "WDPC)");
    assert_null(strstr(v.label, "WIPC"));
    ds_judge(DS_PREP_FAST, false, true, NULL, &g, 5, &v);
    assert_string_equal(v.label, "steady state (SNIA PTS rule, after the fast pass)");
}

/* The guard's lag: 0.5 fill after a fast pass where it means something (the simulated drive
 * whose check passed, a real drive at its --op), 1 without a pass, on a target without an FTL,
 * or when the check failed; the basis is said whenever a pass chose it. */
static void test_fast_guard_lag(void **state)
{
    (void)state;
    struct steady_guard g = STEADY_GUARD_DEFAULT;
    assert_null(g.lag_basis);
    ds_guard_lag(DS_PREP_STEADY, DS_FTL_MODEL, true, &g);
    assert_true(g.lag_fills == 1.0 && !g.lag_basis);
    ds_guard_lag(DS_PREP_FAST, DS_FTL_MODEL, true, &g);
    assert_true(g.lag_fills == 0.5 && g.lag_fills == STEADY_GUARD_LAG_FAST);
    assert_non_null(strstr(g.lag_basis, "after the fast pass"));
    g = STEADY_GUARD_DEFAULT;
    ds_guard_lag(DS_PREP_FAST, DS_FTL_UNKNOWN, true, &g);
    assert_true(g.lag_fills == 0.5);
    g = STEADY_GUARD_DEFAULT;
    ds_guard_lag(DS_PREP_FAST, DS_FTL_MODEL, false, &g);
    assert_true(g.lag_fills == 1.0);
    assert_non_null(strstr(g.lag_basis, "GC pool"));
    g = STEADY_GUARD_DEFAULT;
    ds_guard_lag(DS_PREP_FAST, DS_FTL_NONE, true, &g);
    assert_true(g.lag_fills == 1.0);
    assert_non_null(strstr(g.lag_basis, "without an FTL"));
}

/* Where the pass's spare factor comes from: --op first, the simulated drive's, a default on a
 * target without an FTL; a real drive without --op is refused. */
static void test_fast_op_source(void **state)
{
    (void)state;
    struct ds_op op;
    assert_int_equal(ds_ftl_of("simulated", "simulated"), DS_FTL_MODEL);
    assert_int_equal(ds_ftl_of("file", "file"), DS_FTL_NONE);
    assert_int_equal(ds_ftl_of("block", "zram"), DS_FTL_NONE);
    assert_int_equal(ds_ftl_of("block", "nvme"), DS_FTL_UNKNOWN);
    assert_int_equal(ds_op_choose(DS_FTL_MODEL, 0.311, 0, &op), 0);
    assert_true(op.rho == 0.311);
    assert_string_equal(op.source, "simulated drive");
    assert_int_equal(ds_op_choose(DS_FTL_MODEL, 0.311, 0.155, &op), 0);
    assert_true(op.rho == 0.155);
    assert_string_equal(op.source, "option");
    assert_int_equal(ds_op_choose(DS_FTL_UNKNOWN, 0, 0, &op), -1);
    assert_string_equal(op.source, "unknown");
    assert_int_equal(ds_op_choose(DS_FTL_UNKNOWN, 0, 0.07, &op), 0);
    assert_string_equal(op.source, "option");
    assert_int_equal(ds_op_choose(DS_FTL_NONE, 0, 0, &op), 0);
    assert_true(op.rho == DS_FAST_RHO_NO_FTL && op.rho == 0);
    assert_string_equal(op.source, "default (no FTL: 0)");
}

/* Issue 48's words: a stable window in a transient after the fast pass is measured "fast" (not
 * "wipc": readers said "burst after WIPC" for it) and says the fast pass; a window after WIPC
 * keeps "wipc". On a target without an FTL (a file, zram, loop) every label says what the pass
 * was there, the range written over sequentially with no FTL state to shape, never "fast
 * pass" bare; on a drive with an FTL ds_judge_ftl changes nothing. */
static void test_fast_measured_words(void **state)
{
    (void)state;
    const struct steady_guard g = STEADY_GUARD_DEFAULT;
    struct steady_guard_result gr = {.evaluated = true, .passed = false, .fills_before = 0.6,
                                     .max_deviation = 0.09};
    struct ds_verdict v;
    ds_judge(DS_PREP_FAST, true, true, &gr, &g, 12, &v);
    assert_false(v.steady);
    assert_int_equal(v.measured, DS_M_FAST);
    assert_string_equal(ds_measured_name(v.measured), "fast");
    assert_string_equal(v.label, "stable after the fast pass + WDPC, but inside a transient (not "
                                 "steady state)");
    ds_judge_ftl(DS_PREP_FAST, DS_FTL_MODEL, 1.28, true, &v);   /* an FTL: as it was */
    assert_string_equal(v.label, "stable after the fast pass + WDPC, but inside a transient (not "
                                 "steady state)");
    ds_judge(DS_PREP_STEADY, true, true, &gr, &g, 12, &v);
    assert_string_equal(ds_measured_name(v.measured), "wipc");
    assert_null(strstr(v.label, "fast"));

    /* no FTL: the transient, the steady window (writes, reads), a window that is not stable */
    ds_judge(DS_PREP_FAST, true, true, &gr, &g, 12, &v);
    ds_judge_ftl(DS_PREP_FAST, DS_FTL_NONE, 1.0, true, &v);
    assert_string_equal(ds_measured_name(v.measured), "fast");
    assert_string_equal(v.label, "stable after the range written 1.00× sequentially + WDPC, "
                                 "but inside a transient (not steady state; no FTL state to "
                                 "shape)");
    assert_non_null(strstr(v.reason, "; the fast pass here: the range written 1.00× "
                                     "sequentially: no FTL state to shape"));
    gr.passed = true;
    ds_judge(DS_PREP_FAST, true, true, &gr, &g, 12, &v);
    ds_judge_ftl(DS_PREP_FAST, DS_FTL_NONE, 1.0, true, &v);
    assert_true(v.steady);
    assert_string_equal(v.label, "steady state (SNIA PTS rule and fill guard, after the range "
                                 "written 1.00× sequentially + WDPC: no FTL state to shape)");
    ds_judge(DS_PREP_FAST, false, true, NULL, &g, 5, &v);
    ds_judge_ftl(DS_PREP_FAST, DS_FTL_NONE, 1.5, false, &v);
    assert_string_equal(v.label, "steady state (SNIA PTS rule, after the range written 1.50× "
                                 "sequentially: no FTL state to shape)");
    ds_judge(DS_PREP_FAST, true, false, &gr, &g, 6, &v);
    ds_judge_ftl(DS_PREP_FAST, DS_FTL_NONE, 1.0, true, &v);
    assert_string_equal(ds_measured_name(v.measured), "not stable");
    assert_non_null(strstr(v.label, "not stable (after the range written 1.00×"));
    /* another preparation on a target without an FTL: nothing to say about a pass */
    ds_judge(DS_PREP_STEADY, true, true, &gr, &g, 12, &v);
    ds_judge_ftl(DS_PREP_STEADY, DS_FTL_NONE, 0, true, &v);
    assert_null(strstr(v.label, "sequentially"));
    char w[96];
    ds_fast_words(DS_FTL_UNKNOWN, 1.28, w, sizeof(w));
    assert_string_equal(w, "the fast pass");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_accounting),
        cmocka_unit_test(test_judge_without_preconditioning),
        cmocka_unit_test(test_judge_wipc),
        cmocka_unit_test(test_judge_steady),
        cmocka_unit_test(test_content),
        cmocka_unit_test(test_judge_unwritten),
        cmocka_unit_test(test_fast_pass_state),
        cmocka_unit_test(test_fast_guard_lag),
        cmocka_unit_test(test_fast_op_source),
        cmocka_unit_test(test_fast_measured_words),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
