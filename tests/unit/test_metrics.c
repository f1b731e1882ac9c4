/* test_metrics.c — round metrics from worker counters: IOPS, MB/s vs MiB/s, merged latency,
 * per-second samples, time-dilation weight, tracking lookup, the
 * metric vocabulary. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <json-c/json.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/metrics.h"
#include "core/results.h"
#include "lib/json_path.h"

static void fill_worker(struct worker_stats *s, uint64_t reads, uint64_t writes, uint32_t bs,
                        uint64_t read_lat, uint64_t write_lat, uint64_t elapsed_ns, unsigned n_samples)
{
    memset(s, 0, sizeof(*s));
    hist_init(&s->lat[IO_READ]);
    hist_init(&s->lat[IO_WRITE]);
    s->ios[IO_READ] = reads;
    s->ios[IO_WRITE] = writes;
    s->bytes[IO_READ] = reads * bs;
    s->bytes[IO_WRITE] = writes * bs;
    for (uint64_t i = 0; i < reads; i++)
        hist_add(&s->lat[IO_READ], read_lat);
    for (uint64_t i = 0; i < writes; i++)
        hist_add(&s->lat[IO_WRITE], write_lat);
    s->start_ns = 1000;
    s->end_ns = 1000 + elapsed_ns;
    s->samples = calloc(n_samples, sizeof(*s->samples));
    s->n_samples = s->cap_samples = n_samples;
    for (unsigned k = 0; k < n_samples; k++) {
        s->samples[k].ios[IO_READ] = reads / n_samples;
        s->samples[k].ios[IO_WRITE] = writes / n_samples;
        s->samples[k].bytes[IO_READ] = reads / n_samples * bs;
        s->samples[k].bytes[IO_WRITE] = writes / n_samples * bs;
    }
}

/* The recorded percentiles include the 95th: 100 latencies of 1..100 us put it at 95 us (within
 * the histogram's 1/128), between the 90th and the 99th. */
static void test_p95_recorded(void **state)
{
    (void)state;
    static struct hist h;
    hist_init(&h);
    for (uint64_t us = 1; us <= 100; us++)   /* 10 each: 1,000 I/Os, enough for 99% (hist.h) */
        for (int k = 0; k < 10; k++)
            hist_add(&h, us * 1000);
    struct lat_summary l;
    lat_summary_from_hist(&h, 1.0, &l);
    assert_string_equal(metrics_percentile_names[METRICS_P95], "p95");
    assert_true(metrics_percentiles[METRICS_P95] == 95.0);
    assert_true(fabs(l.pct_us[METRICS_P95] - 95.0) <= 95.0 / 128);
    assert_true(fabs(l.pct_us[METRICS_P90] - 90.0) <= 90.0 / 128);
    assert_true(fabs(l.pct_us[METRICS_P99] - 99.0) <= 99.0 / 128);
    for (int i = 1; i < METRICS_NPCT; i++)   /* in increasing order */
        assert_true(metrics_percentiles[i] > metrics_percentiles[i - 1]);
}

static void test_two_workers(void **state)
{
    (void)state;
    static struct worker_stats a, b;
    /* 2 s rounds; worker a: 7000 reads at 100 us, 3000 writes at 300 us; worker b the same. */
    fill_worker(&a, 7000, 3000, 4096, 100000, 300000, 2000000000ull, 2);
    fill_worker(&b, 7000, 3000, 4096, 100000, 300000, 2000000000ull, 2);
    const struct worker_stats *ws[] = {&a, &b};
    struct round_metrics m;
    metrics_compute(ws, 2, 1.0, 1.0, &m);
    assert_true(fabs(m.elapsed_s - 2.0) < 1e-9);
    assert_true(fabs(m.read.iops - 7000.0) < 1e-6);     /* 14000 reads / 2 s */
    assert_true(fabs(m.write.iops - 3000.0) < 1e-6);
    assert_true(fabs(m.total.iops - 10000.0) < 1e-6);
    /* 10000 IOPS x 4096 B = 40.96 MB/s = 39.0625 MiB/s */
    assert_true(fabs(m.total.mb_s - 40.96) < 1e-9);
    assert_true(fabs(m.total.mib_s - 39.0625) < 1e-9);
    /* mixed latency weighted by I/O count: 0.7 x 100 + 0.3 x 300 = 160 us */
    assert_true(fabs(m.total.lat.mean_us - 160.0) < 1e-9);
    assert_true(fabs(m.read.lat.mean_us - 100.0) < 1e-9);
    assert_true(fabs(m.write.lat.pct_us[METRICS_P50] - 300.0) < 300.0 / 128);
    assert_true(fabs(m.total.lat.min_us - 100.0) < 1e-9);
    assert_true(fabs(m.total.lat.max_us - 300.0) < 1e-9);
    /* p50 of the mix is a read (100 us), p90 a write (300 us) */
    assert_true(fabs(m.total.lat.pct_us[METRICS_P50] - 100.0) <= 100.0 / 128);
    assert_true(fabs(m.total.lat.pct_us[METRICS_P90] - 300.0) <= 300.0 / 128);
    assert_int_equal(m.total.ios, 20000);
    assert_int_equal(m.samples.n, 2);
    assert_true(fabs(m.samples.iops[0] - 10000.0) < 1e-6);
    assert_true(fabs(m.samples.read_iops[1] - 7000.0) < 1e-6);
    assert_true(fabs(m.samples.mb_s[0] - 40.96) < 1e-9);
    double v;
    assert_int_equal(metrics_value(&m, "write_iops", &v), 0);
    assert_true(fabs(v - 3000.0) < 1e-6);
    assert_int_equal(metrics_value(&m, "lat_mean_us", &v), 0);
    assert_true(fabs(v - 160.0) < 1e-9);
    assert_int_equal(metrics_value(&m, "bogus", &v), -1);
    metrics_free(&m);
    free(a.samples);
    free(b.samples);
}

/* A scaled (time-dilated) target: each completion weighs k, latencies divide by k. */
static void test_weight(void **state)
{
    (void)state;
    static struct worker_stats a;
    fill_worker(&a, 0, 1000, 4096, 0, 8000000, 1000000000ull, 1);
    const struct worker_stats *ws[] = {&a};
    struct round_metrics m;
    metrics_compute(ws, 1, 1.0, 8.0, &m);
    assert_true(fabs(m.write.iops - 8000.0) < 1e-6);
    assert_true(fabs(m.write.lat.mean_us - 1000.0) < 1e-9);   /* 8 ms / 8 */
    assert_int_equal(m.write.ios, 8000);
    assert_true(fabs(m.samples.write_iops[0] - 8000.0) < 1e-6);
    metrics_free(&m);
    free(a.samples);
}

/* The tail rule through the writer (stats/hist.h hist_pct_supported: at least 10 observations
 * beyond a percentile): a round of one worker with n reads, all at 100 us but the 1,000 slowest at
 * 10 ms. With n = 999,999 the tail beyond 99.999 holds 9.99999 I/Os: "99.999" and "99.9999" are
 * null (present), "99.99" (99.99 beyond it) a number, the slow ones' 10 ms; with n = 1,000,000
 * "99.999" is a number (10 beyond it) and "99.9999" still null. The count beside them is n. */
static void round_of(uint64_t n, uint64_t slow, uint64_t k, struct worker_stats *a,
                     struct round_metrics *m, struct json_object **o)
{
    memset(a, 0, sizeof(*a));
    hist_init(&a->lat[IO_READ]);
    hist_init(&a->lat[IO_WRITE]);
    a->ios[IO_READ] = n;   /* completions; each stands for k I/Os (a simulated drive's k) */
    a->bytes[IO_READ] = n * 4096;
    hist_add_n(&a->lat[IO_READ], 100000 * k, (n - slow) * k);   /* as core/worker.c lat_add */
    hist_add_n(&a->lat[IO_READ], 10000000 * k, slow * k);
    a->start_ns = 1000;
    a->end_ns = 1000 + 1000000000ull;
    const struct worker_stats *ws[] = {a};
    metrics_compute(ws, 1, 1.0, (double)k, m);
    *o = json_object_new_object();
    results_figures_add(*o, &m->read, &m->write, &m->total);
}

static bool pct_null(struct json_object *o, const char *key)
{
    struct json_object *pc = jp_obj_at(o, "read.lat_us.percentiles"), *v = (void *)1;
    return json_object_object_get_ex(pc, key, &v) && v == NULL;   /* json-c: JSON null */
}

static void test_tail_rule_in_the_writer(void **state)
{
    (void)state;
    static struct worker_stats a;
    struct round_metrics m;
    struct json_object *o;
    round_of(999999, 1000, 1, &a, &m, &o);
    assert_true(jp_path(o, "read.lat_us.count") == 999999);
    assert_true(pct_null(o, "99.999"));
    assert_true(pct_null(o, "99.9999"));
    assert_true(isnan(m.read.lat.pct_us[METRICS_P99_999]));
    assert_false(pct_null(o, "99.99"));
    assert_true(fabs(jp_path(o, "read.lat_us.percentiles.99.99") - 10000) <= 10000.0 / 128);
    assert_true(fabs(jp_path(o, "read.lat_us.percentiles.99") - 100) <= 100.0 / 128);
    json_object_put(o);
    metrics_free(&m);
    round_of(1000000, 1000, 1, &a, &m, &o);
    assert_false(pct_null(o, "99.999"));
    assert_true(fabs(jp_path(o, "read.lat_us.percentiles.99.999") - 10000) <= 10000.0 / 128);
    assert_true(pct_null(o, "99.9999"));
    json_object_put(o);
    metrics_free(&m);
}

/* Six nines on a simulated drive at k = 128 (one completion stands for 128 I/Os): the rule counts
 * completions, so 10 million of them (1.28 billion I/Os) record 99.9999, the 20 slowest at 10 ms
 * putting it at 10 ms; one completion fewer and it is null. The same for the total. */
static void test_six_nines_weighted(void **state)
{
    (void)state;
    static struct worker_stats a;
    struct round_metrics m;
    struct json_object *o;
    round_of(10000000, 20, 128, &a, &m, &o);
    assert_true(jp_path(o, "read.lat_us.count") == 10000000);
    assert_true(jp_path(o, "read.ios") == 1280000000.0);
    assert_false(pct_null(o, "99.9999"));
    assert_true(fabs(jp_path(o, "read.lat_us.percentiles.99.9999") - 10000) <= 10000.0 / 128);
    assert_true(fabs(jp_path(o, "total.lat_us.percentiles.99.9999") - 10000) <= 10000.0 / 128);
    assert_true(fabs(metrics_figure(&m, metrics_def("read_lat_p99_9999_us")) - 10000) <=
                10000.0 / 128);
    json_object_put(o);
    metrics_free(&m);
    round_of(9999999, 20, 128, &a, &m, &o);
    assert_true(pct_null(o, "99.9999"));
    assert_true(isnan(metrics_figure(&m, metrics_def("lat_p99_9999_us"))));
    json_object_put(o);
    metrics_free(&m);
}

/* Workers that ran for different times: the round lasts as long as the longest; samples are
 * the intervals every worker completed. */
static void test_uneven_workers(void **state)
{
    (void)state;
    static struct worker_stats a, b;
    fill_worker(&a, 1000, 0, 512, 50000, 0, 1000000000ull, 3);
    fill_worker(&b, 1000, 0, 512, 50000, 0, 2000000000ull, 2);
    const struct worker_stats *ws[] = {&a, &b};
    struct round_metrics m;
    metrics_compute(ws, 2, 1.0, 1.0, &m);
    assert_true(fabs(m.elapsed_s - 2.0) < 1e-9);
    assert_true(fabs(m.read.iops - 1000.0) < 1e-6);
    assert_int_equal(m.samples.n, 2);
    metrics_free(&m);
    free(a.samples);
    free(b.samples);
}

/* Two workers of QD 16 over 1 s: areas 16e9 and 8e9 I/O-ns are means of 16 and 8, together
 * 24 of a declared 32 (75%: labelled "QD 32 declared, 24 in flight on average"). */
static void test_depth_summed_and_labelled(void **state)
{
    (void)state;
    static struct worker_stats a, b;
    fill_worker(&a, 1000, 0, 4096, 50000, 0, 1000000000ull, 1);
    fill_worker(&b, 1000, 0, 4096, 50000, 0, 1000000000ull, 1);
    a.depth_declared = b.depth_declared = 16;
    a.depth_how = b.depth_how = DEPTH_LOOP;
    a.inflight_ns = 16e9;
    b.inflight_ns = 8e9;
    a.inflight_at_end = 16;
    b.inflight_at_end = 3;
    const struct worker_stats *ws[] = {&a, &b};
    struct round_metrics m;
    metrics_compute(ws, 2, 1.0, 1.0, &m);
    assert_int_equal(m.depth.declared, 32);
    assert_true(fabs(m.depth.mean - 24.0) < 1e-9);
    assert_int_equal(m.depth.at_end, 19);
    assert_int_equal(m.depth.how, DEPTH_LOOP);
    char buf[128];
    assert_string_equal(metrics_depth_text(&m.depth, buf, sizeof(buf)),
                        "QD 32 declared, 24 in flight on average");
    m.depth.mean = 30.5;   /* 95.3%: kept, no words */
    assert_string_equal(metrics_depth_text(&m.depth, buf, sizeof(buf)), "");
    m.depth.mean = 3.14;
    m.depth.how = DEPTH_LITTLE;
    assert_string_equal(metrics_depth_text(&m.depth, buf, sizeof(buf)),
                        "QD 32 declared, 3.1 in flight on average (Little's law)");
    metrics_free(&m);
    free(a.samples);
    free(b.samples);
}

/* The minimum: at least one I/O, and as many as were left in flight at the end (31 done with
 * 32 left: too few; 32: enough; 0 with none left: too few). */
static void test_too_few_when_fewer_done_than_left_in_flight(void **state)
{
    (void)state;
    static struct worker_stats a;
    fill_worker(&a, 31, 0, 65536, 50000, 0, 1000000000ull, 1);
    a.depth_declared = 64;
    a.depth_how = DEPTH_LOOP;
    a.inflight_at_end = 32;
    const struct worker_stats *ws[] = {&a};
    struct round_metrics m;
    metrics_compute(ws, 1, 1.0, 1.0, &m);
    char why[256];
    assert_true(metrics_too_few(&m, 65536, why, sizeof(why)));
    assert_string_equal(why, "completed 31 I/Os in 1 s, 32 left in flight at its end (declared "
                             "depth 64 x 64 KiB): too few to measure (a longer round, or a "
                             "smaller depth or size)");
    m.total.ios = 32;
    assert_false(metrics_too_few(&m, 65536, why, sizeof(why)));
    m.total.ios = 0;
    m.depth.at_end = 0;
    assert_true(metrics_too_few(&m, 0, why, sizeof(why)));
    m.depth.how = DEPTH_LITTLE;   /* fio: the end not seen, the declared depth counts */
    m.total.ios = 63;
    assert_true(metrics_too_few(&m, 0, why, sizeof(why)));
    assert_string_equal(why, "completed 63 I/Os in 1 s (declared depth 64): too few to measure "
                             "(a longer round, or a smaller depth or size)");
    metrics_free(&m);
    free(a.samples);
}

/* The vocabulary (metrics_defs): every key once and found by name; the tracking names are its
 * trackable rows in table order; each row's path names, in the figures object the writer records
 * (results_figures_add), the very figure metrics_figure gives for the row. */
static void test_vocabulary(void **state)
{
    (void)state;
    static struct worker_stats a;
    fill_worker(&a, 7000, 3000, 4096, 100000, 300000, 2000000000ull, 2);
    const struct worker_stats *ws[] = {&a};
    struct round_metrics m;
    metrics_compute(ws, 1, 1.0, 1.0, &m);
    struct json_object *o = json_object_new_object();
    results_figures_add(o, &m.read, &m.write, &m.total);
    size_t k = 0;
    for (unsigned i = 0; i < METRIC_N; i++) {
        const struct metric_def *d = &metrics_defs[i];
        assert_non_null(d->key);
        assert_ptr_equal(metrics_def(d->key), d);
        assert_non_null(d->words);
        assert_non_null(d->chart);
        assert_int_equal(d->lower_is_better, d->kind == METRIC_KIND_LAT);
        const double want = metrics_figure(&m, d), got = jp_path(o, d->path);
        /* a percentile the count does not support: NAN, recorded as null (reads NAN) */
        const bool same = (isnan(got) && isnan(want)) || fabs(got - want) <= 1e-9 * fmax(1, fabs(want));
        if (!same)
            print_error("%s: %s holds %g, the figure is %g\n", d->key, d->path, got, want);
        assert_true(same);
        if (d->trackable) {
            assert_non_null(metrics_tracking_names[k]);
            assert_string_equal(metrics_tracking_names[k++], d->key);
            double v;
            assert_int_equal(metrics_value(&m, d->key, &v), 0);
            assert_true(v == want);
        }
    }
    assert_null(metrics_tracking_names[k]);
    double v;
    assert_int_equal(metrics_value(&m, "lat_p99_us", &v), -1);   /* not a tracking variable */
    assert_null(metrics_def("bogus"));
    assert_string_equal(metrics_kind_unit(metrics_def("write_lat_max_us")->kind), "µs");
    json_object_put(o);
    metrics_free(&m);
    free(a.samples);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_p95_recorded),
        cmocka_unit_test(test_two_workers),
        cmocka_unit_test(test_vocabulary),
        cmocka_unit_test(test_weight),
        cmocka_unit_test(test_tail_rule_in_the_writer),
        cmocka_unit_test(test_six_nines_weighted),
        cmocka_unit_test(test_uneven_workers),
        cmocka_unit_test(test_depth_summed_and_labelled),
        cmocka_unit_test(test_too_few_when_fewer_done_than_left_in_flight),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
