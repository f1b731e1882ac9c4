/* test_fio_json.c — fio_output_parse() and fio_lat_to_hist() on real fio-3.33 output
 * (tests/fixtures/fio, see its README for the commands). The expected numbers are copied from
 * the fixture files: they are facts about those files. The json+ bins, turned into a ptsbench
 * histogram, must give fio's own percentiles within 1%. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "core/lat_hist.h"
#include "core/metrics.h"
#include "core/results.h"
#include "engine/engine.h"
#include "engine/fio_json.h"
#include "lib/json_path.h"
#include "read/shape.h"
#include "show/export.h"
#include "stats/hist.h"

static const double pct_p[FIO_NPCT] = {50.0, 90.0, 99.0, 99.9, 99.99, 99.999, 99.9999};
static double worst_pct_err;     /* bins -> hist vs fio's percentiles, over all fixtures */

static char *load_fixture(const char *name, size_t *len)
{
    const char *dir = getenv("PTSBENCH_DATADIR");
    char path[4096];
    snprintf(path, sizeof(path), "%s/tests/fixtures/fio/%s", dir && *dir ? dir : ".", name);
    FILE *f = fopen(path, "rb");
    if (!f)
        fail_msg("cannot open fixture %s (set PTSBENCH_DATADIR to the source tree)", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    assert_true(n > 0);
    char *buf = malloc((size_t)n + 1);
    assert_non_null(buf);
    assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
    buf[n] = '\0';
    fclose(f);
    *len = (size_t)n;
    return buf;
}

static void parse_fixture(const char *name, struct fio_output *o)
{
    size_t len;
    char *text = load_fixture(name, &len);
    char err[512] = "";
    int rc = fio_output_parse(text, len, "fio-3.33", o, err, sizeof(err));
    if (rc != 0)
        fail_msg("%s: %s", name, err);
    free(text);
    assert_string_equal(o->version, "fio-3.33");
    assert_non_null(o->log);
}

static uint64_t bins_total(const struct fio_lat *l)
{
    uint64_t t = 0;
    for (size_t i = 0; i < l->n_bins; i++) {
        t += l->bins[i].count;
        if (i)
            assert_true(l->bins[i].ns > l->bins[i - 1].ns);   /* sorted, distinct */
    }
    return t;
}

/* The bins hold every I/O; the histogram built from them has fio's count, min, max and mean
 * and its percentiles are within 1% of fio's. */
static void check_hist(const char *what, const struct fio_dir *d)
{
    const struct fio_lat *l = &d->lat;
    assert_true(l->n_bins > 0);
    assert_int_equal(bins_total(l), d->ios);
    assert_int_equal(l->n, d->ios);

    struct hist h;
    hist_init(&h);
    assert_true(fio_lat_to_hist(l, &h));
    assert_int_equal(h.count, d->ios);
    assert_int_equal(h.min, (uint64_t)l->min_ns);
    assert_int_equal(h.max, (uint64_t)l->max_ns);
    assert_true(fabs(hist_mean(&h) - l->mean_ns) < 0.01);   /* sum = llround(mean * N) */

    double worst = 0.0;
    for (int i = 0; i < FIO_NPCT; i++) {
        if (pct_p[i] > 99.999 && isnan(l->pct_ns[i]))
            continue;   /* the fixtures' jobs asked fio up to 99.999 (before 99.9999 was added) */
        assert_false(isnan(l->pct_ns[i]));
        double got = (double)hist_percentile(&h, pct_p[i]);
        double e = fabs(got - l->pct_ns[i]) / l->pct_ns[i];
        if (e > worst)
            worst = e;
        if (e > 0.01)
            fail_msg("%s p%g: hist %.0f, fio %.0f (%.3f%%)", what, pct_p[i], got, l->pct_ns[i],
                     100.0 * e);
    }
    if (worst > worst_pct_err)
        worst_pct_err = worst;
    printf("  %-22s %zu bins, %" PRIu64 " I/Os, percentiles within %.3f%% of fio's\n", what,
           l->n_bins, d->ios, 100.0 * worst);
}

static void check_empty_dir(const struct fio_dir *d)
{
    assert_int_equal(d->ios, 0);
    assert_int_equal(d->bytes, 0);
    assert_int_equal(d->lat.n, 0);
    assert_null(d->lat.bins);
    assert_int_equal(d->lat.n_bins, 0);
}

static void test_plain(void **state)
{
    (void)state;
    struct fio_output o;
    parse_fixture("plain.json", &o);
    assert_string_equal(o.log, "\n");   /* the newline after the object */
    assert_int_equal(o.n_hosts, 0);
    assert_null(o.hosts);
    const struct fio_stats *t = &o.total;
    assert_string_equal(t->host, "");
    assert_string_equal(t->jobname, "plain");
    assert_int_equal(t->error, 0);
    assert_true(t->elapsed_s == 2.0);
    const struct fio_dir *r = &t->dir[0];
    assert_int_equal(r->ios, 38287);
    assert_int_equal(r->bytes, 156823552);
    assert_true(r->runtime_ms == 1001.0);
    assert_true(r->iops == 38248.751249);
    assert_true(r->bw_bytes == 156666885.0);
    assert_int_equal(r->lat.n, 38287);
    assert_true(r->lat.min_ns == 52498.0);
    assert_true(r->lat.max_ns == 2072797.0);
    assert_true(r->lat.mean_ns == 417330.146551);
    const double want[FIO_NPCT] = {432128, 659456, 823296, 1433600, 2056192, 2072576, NAN};
    for (int i = 0; i < FIO_NPCT; i++)   /* 99.9999: the fixture's job did not ask for it */
        assert_true(isnan(want[i]) ? isnan(r->lat.pct_ns[i]) : r->lat.pct_ns[i] == want[i]);
    /* plain json: no bins */
    assert_null(r->lat.bins);
    assert_int_equal(r->lat.n_bins, 0);
    struct hist h;
    hist_init(&h);
    assert_false(fio_lat_to_hist(&r->lat, &h));
    assert_int_equal(h.count, 0);
    /* the write direction is there, empty; its percentiles are absent */
    check_empty_dir(&t->dir[1]);
    for (int i = 0; i < FIO_NPCT; i++)
        assert_true(isnan(t->dir[1].lat.pct_ns[i]));
    fio_output_free(&o);
    assert_null(o.log);
}

static void test_jsonplus(void **state)
{
    (void)state;
    struct fio_output o;
    parse_fixture("jsonplus.json", &o);
    assert_string_equal(o.log, "\n");   /* the newline after the object */
    assert_int_equal(o.n_hosts, 0);
    const struct fio_stats *t = &o.total;
    assert_string_equal(t->jobname, "jsonplus");
    assert_true(t->elapsed_s == 2.0);
    const struct fio_dir *r = &t->dir[0];
    assert_int_equal(r->ios, 34917);
    assert_int_equal(r->bytes, 143020032);
    assert_true(r->runtime_ms == 1001.0);
    assert_true(r->iops == 34882.117882);
    assert_true(r->bw_bytes == 142877154.0);
    assert_int_equal(r->lat.n, 34917);
    assert_true(r->lat.min_ns == 40751.0);
    assert_true(r->lat.max_ns == 2666722.0);
    assert_true(r->lat.mean_ns == 457716.015408);
    const double want[FIO_NPCT] = {468992, 651264, 823296, 2441216, 2670592, 2670592, NAN};
    for (int i = 0; i < FIO_NPCT; i++)   /* 99.9999: the fixture's job did not ask for it */
        assert_true(isnan(want[i]) ? isnan(r->lat.pct_ns[i]) : r->lat.pct_ns[i] == want[i]);
    assert_int_equal(r->lat.n_bins, 255);
    check_hist("jsonplus read", r);
    check_empty_dir(&t->dir[1]);

    /* fio_lat_to_hist adds to what is there */
    struct hist h;
    hist_init(&h);
    assert_true(fio_lat_to_hist(&r->lat, &h));
    assert_true(fio_lat_to_hist(&r->lat, &h));
    assert_int_equal(h.count, 2 * 34917);
    assert_int_equal(h.min, 40751);
    assert_int_equal(h.max, 2666722);
    assert_int_equal(h.sum, 2 * (uint64_t)llround(457716.015408 * 34917));
    fio_output_free(&o);
}

static void test_mixed(void **state)
{
    (void)state;
    struct fio_output o;
    parse_fixture("mixed.json", &o);
    assert_string_equal(o.log, "\n");   /* the newline after the object */
    const struct fio_stats *t = &o.total;
    assert_string_equal(t->jobname, "mixed");
    const struct fio_dir *r = &t->dir[0], *w = &t->dir[1];
    assert_int_equal(r->ios, 38608);
    assert_int_equal(r->bytes, 158138368);
    assert_true(r->iops == 38569.430569);
    assert_true(r->lat.mean_ns == 565954.725756);
    assert_true(r->lat.pct_ns[3] == 2244608.0);
    assert_int_equal(r->lat.n_bins, 254);
    assert_int_equal(w->ios, 16560);
    assert_int_equal(w->bytes, 67829760);
    assert_true(w->iops == 16543.456543);
    assert_true(w->runtime_ms == 1001.0);
    assert_true(w->bw_bytes == 67761998.0);
    assert_true(w->lat.min_ns == 23395.0);
    assert_true(w->lat.max_ns == 3421260.0);
    assert_true(w->lat.mean_ns == 611845.687017);
    assert_true(w->lat.pct_ns[3] == 2375680.0);
    assert_true(w->lat.pct_ns[5] == 3424256.0);
    assert_int_equal(w->lat.n_bins, 245);
    check_hist("mixed read", r);
    check_hist("mixed write", w);

    double share = (double)r->ios / (double)(r->ios + w->ios);
    assert_true(fabs(share - 0.70) < 0.01);   /* 0.6998 */

    /* both directions in one histogram: the caller's merge */
    struct hist h;
    hist_init(&h);
    assert_true(fio_lat_to_hist(&r->lat, &h));
    assert_true(fio_lat_to_hist(&w->lat, &h));
    assert_int_equal(h.count, 38608 + 16560);
    assert_int_equal(h.min, 23395);      /* write's */
    assert_int_equal(h.max, 3421260);    /* write's */
    assert_int_equal(h.sum, (uint64_t)llround(565954.725756 * 38608) +
                                (uint64_t)llround(611845.687017 * 16560));
    fio_output_free(&o);
}

static void test_warnings(void **state)
{
    (void)state;
    size_t len;
    char *text = load_fixture("warnings.txt", &len);
    assert_int_equal(len, 24841);
    struct fio_output o;
    char err[512] = "";
    assert_int_equal(fio_output_parse(text, len, "fio-3.33", &o, err, sizeof(err)), 0);
    /* the log is the file without the object (offsets 195 to 23157, see the README) */
    assert_int_equal(strlen(o.log), len - (23157 - 195));
    assert_memory_equal(o.log, text, 195);
    assert_string_equal(o.log + 195, text + 23157);
    assert_non_null(strstr(o.log, "fio: Any use of blockalign= turns off randommap\n"));
    assert_ptr_equal(strstr(o.log, "fio: Any use"), o.log);   /* the warning comes first */
    assert_non_null(strstr(o.log, "Starting 2 processes\n"));
    assert_non_null(strstr(o.log, "Run status group 0 (all jobs):"));
    assert_non_null(strstr(o.log, "Disk stats (read/write):"));
    assert_null(strchr(o.log, '{'));
    free(text);

    const struct fio_dir *r = &o.total.dir[0];
    assert_string_equal(o.total.jobname, "warnings");
    assert_int_equal(r->ios, 40352);
    assert_int_equal(r->bytes, 165281792);
    assert_true(r->iops == 40311.688312);
    assert_true(r->lat.mean_ns == 396190.33867);
    assert_true(r->lat.pct_ns[3] == 2113536.0);
    assert_int_equal(r->lat.n_bins, 268);
    check_hist("warnings read", r);
    check_empty_dir(&o.total.dir[1]);
    fio_output_free(&o);
}

static void test_clientserver(void **state)
{
    (void)state;
    struct fio_output o;
    parse_fixture("clientserver.json", &o);
    assert_string_equal(o.log, "\n\n");   /* the empty first line, the final newline */
    assert_int_equal(o.n_hosts, 2);
    const struct fio_stats *a = &o.hosts[0], *b = &o.hosts[1];
    assert_string_equal(a->host, "127.0.0.2");   /* in the order fio printed them */
    assert_string_equal(b->host, "127.0.0.1");
    assert_string_equal(a->jobname, "clientserver");
    assert_int_equal(a->dir[0].ios, 27901);
    assert_int_equal(a->dir[0].bytes, 114282496);
    assert_true(a->dir[0].iops == 27873.126873);
    assert_true(a->dir[0].lat.mean_ns == 572997.714096);
    assert_true(a->dir[0].lat.pct_ns[3] == 3031040.0);
    assert_int_equal(a->dir[0].lat.n_bins, 237);
    assert_true(a->elapsed_s == 0.0);            /* client mode has no "elapsed" */
    assert_int_equal(b->dir[0].ios, 27968);
    assert_int_equal(b->dir[0].bytes, 114556928);
    assert_true(b->dir[0].lat.pct_ns[3] == 2965504.0);
    assert_int_equal(b->dir[0].lat.n_bins, 209);
    check_hist("clientserver 127.0.0.2", &a->dir[0]);
    check_hist("clientserver 127.0.0.1", &b->dir[0]);

    /* the "All clients" aggregate */
    const struct fio_stats *t = &o.total;
    assert_string_equal(t->host, "");
    assert_string_equal(t->jobname, "All clients");
    const struct fio_dir *r = &t->dir[0];
    assert_int_equal(r->ios, 55869);
    assert_int_equal(r->ios, a->dir[0].ios + b->dir[0].ios);
    assert_int_equal(r->bytes, 228839424);
    assert_int_equal(r->bytes, a->dir[0].bytes + b->dir[0].bytes);
    assert_true(r->iops == 55813.186813);
    assert_true(r->lat.min_ns == 33910.0);
    assert_true(r->lat.max_ns == 4288196.0);
    assert_true(r->lat.mean_ns == 572363.782885);
    assert_int_equal(r->lat.n, 55869);
    for (int i = 0; i < FIO_NPCT; i++)     /* fio prints none for the aggregate */
        assert_true(isnan(r->lat.pct_ns[i]));
    /* the hosts' bins, added together */
    assert_int_equal(r->lat.n_bins, 265);
    assert_int_equal(bins_total(&r->lat), 55869);
    struct hist h, hm;
    hist_init(&h);
    assert_true(fio_lat_to_hist(&r->lat, &h));
    hist_init(&hm);
    assert_true(fio_lat_to_hist(&a->dir[0].lat, &hm));
    assert_true(fio_lat_to_hist(&b->dir[0].lat, &hm));
    assert_int_equal(h.count, 55869);
    assert_int_equal(h.min, 33910);
    assert_int_equal(h.max, 4288196);
    assert_memory_equal(h.buckets, hm.buckets, sizeof(h.buckets));
    assert_true(fabs(hist_mean(&h) - 572363.782885) < 0.5);
    check_empty_dir(&t->dir[1]);
    fio_output_free(&o);
    assert_null(o.hosts);
}

static void test_clientserver_one(void **state)
{
    (void)state;
    struct fio_output o;
    parse_fixture("clientserver1.json", &o);
    assert_int_equal(o.n_hosts, 1);
    assert_string_equal(o.hosts[0].host, "127.0.0.1");
    const struct fio_dir *h = &o.hosts[0].dir[0], *r = &o.total.dir[0];
    assert_int_equal(h->ios, 40048);
    assert_int_equal(h->bytes, 164036608);
    assert_true(h->runtime_ms == 1002.0);
    assert_true(h->lat.mean_ns == 399323.088219);
    assert_true(h->lat.pct_ns[3] == 2506752.0);
    assert_int_equal(h->lat.n_bins, 270);
    check_hist("clientserver1 host", h);
    /* no "All clients" with one client: the total is that host */
    assert_string_equal(o.total.host, "");
    assert_string_equal(o.total.jobname, "clientserver");
    assert_int_equal(r->ios, 40048);
    assert_true(r->lat.pct_ns[3] == 2506752.0);
    assert_int_equal(r->lat.n_bins, 270);
    assert_ptr_not_equal(r->lat.bins, h->lat.bins);
    check_hist("clientserver1 total", r);
    fio_output_free(&o);
}

static void test_nojson(void **state)
{
    (void)state;
    size_t len;
    char *text = load_fixture("nojson.txt", &len);
    struct fio_output o;
    char err[512] = "";
    assert_int_equal(fio_output_parse(text, len, "fio-3.33", &o, err, sizeof(err)), -1);
    printf("  nojson: %s\n", err);
    assert_non_null(strstr(err, "fio-3.33"));
    assert_non_null(strstr(err, "first bad byte at offset 0: 'f'"));
    assert_non_null(strstr(err, "engine io_uring_nosuch not loadable"));
    assert_null(strchr(err, '\n'));
    assert_null(o.log);
    fio_output_free(&o);

    /* leading white space is skipped when naming the first bad byte */
    const char *t2 = "\n  \tno json here\n";
    assert_int_equal(fio_output_parse(t2, strlen(t2), "fio-3.33", &o, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "first bad byte at offset 4: 'n'"));
    free(text);
}

static void test_truncated(void **state)
{
    (void)state;
    size_t len;
    char *text = load_fixture("jsonplus.json", &len);
    size_t cut = len / 2;
    struct fio_output o;
    char err[512] = "";
    assert_int_equal(fio_output_parse(text, cut, "fio-3.33", &o, err, sizeof(err)), -1);
    printf("  truncated: %s\n", err);
    assert_non_null(strstr(err, "fio-3.33"));
    assert_non_null(strstr(err, "truncated"));
    char where[64];
    snprintf(where, sizeof(where), "at offset %zu", cut);
    assert_non_null(strstr(err, where));
    assert_null(strchr(err, '\n'));
    assert_null(o.log);
    assert_null(o.total.dir[0].lat.bins);

    /* any cut inside the object is reported as truncated, where it stopped */
    for (size_t c = 1; c + 2 < len; c += len / 97) {
        assert_int_equal(fio_output_parse(text, c, "fio-3.33", &o, err, sizeof(err)), -1);
        if (!strstr(err, "truncated"))
            fail_msg("cut at %zu: %s", c, err);
        snprintf(where, sizeof(where), "at offset %zu", c);
        assert_non_null(strstr(err, where));
    }

    /* bad JSON: a byte that cannot be there */
    char *bad = malloc(len + 1);
    assert_non_null(bad);
    memcpy(bad, text, len + 1);
    char *p = strstr(bad, "\"jobs\" :");
    assert_non_null(p);
    p[7] = '=';
    assert_int_equal(fio_output_parse(bad, len, "fio-3.33", &o, err, sizeof(err)), -1);
    printf("  bad: %s\n", err);
    assert_non_null(strstr(err, "bad JSON"));
    assert_non_null(strstr(err, "'='"));
    free(bad);
    free(text);
}

/* A '{' at the start of a line that is not the object: the next candidate is tried. */
static void test_candidates(void **state)
{
    (void)state;
    size_t len;
    char *text = load_fixture("plain.json", &len);
    const char *pre = "{ not json\n{\"x\": 1}\nnote: something\n";
    size_t plen = strlen(pre);
    char *buf = malloc(plen + len + 1);
    assert_non_null(buf);
    memcpy(buf, pre, plen);
    memcpy(buf + plen, text, len + 1);
    struct fio_output o;
    char err[512] = "";
    assert_int_equal(fio_output_parse(buf, plen + len, "fio-3.33", &o, err, sizeof(err)), 0);
    assert_int_equal(strlen(o.log), plen + 1);
    assert_memory_equal(o.log, pre, plen);
    assert_string_equal(o.log + plen, "\n");
    assert_int_equal(o.total.dir[0].ios, 38287);
    fio_output_free(&o);

    /* an object that is not fio's */
    const char *other = "{\"x\": 1}\n";
    assert_int_equal(fio_output_parse(other, strlen(other), "fio-3.33", &o, err, sizeof(err)),
                     -1);
    assert_non_null(strstr(err, "no jobs"));
    free(buf);
    free(text);
}

static void test_empty(void **state)
{
    (void)state;
    struct fio_output o;
    char err[512] = "";
    assert_int_equal(fio_output_parse("", 0, "fio-3.33", &o, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "fio-3.33"));
    assert_non_null(strstr(err, "empty"));
    assert_int_equal(fio_output_parse(NULL, 0, "fio-3.33", &o, err, sizeof(err)), -1);
    assert_int_equal(fio_output_parse(" \n\n", 3, NULL, &o, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "white space"));
    fio_output_free(&o);
}

static int report(void **state)
{
    (void)state;
    printf("  worst bins->hist percentile error vs fio: %.3f%%\n", 100.0 * worst_pct_err);
    return 0;
}

/* ---- each host's figures in the results (fio.c take_job's path: fio_host_figures) ---- */

/* Job fj's round as fio.c records it: each host's figures (fio_host_figures), the round's
 * histograms from the job's merged bins (fio_dir_hist), written by results_round_json. */
static struct json_object *hosts_round(const struct fio_job_figures *fj, struct round_metrics *m)
{
    memset(m, 0, sizeof(*m));
    m->round = 1;
    m->weight = 1;
    for (int d = 0; d < IO_NDIR; d++) {
        if (d == IO_TRIM && !fj->total.dir[d].ios)
            continue;
        m->lat_dir[d] = calloc(1, sizeof(struct hist));
        hist_init(m->lat_dir[d]);
        if (fj->total.dir[d].ios)
            fio_dir_hist(&fj->total.dir[d], m->lat_dir[d]);
    }
    m->n_hosts = fj->n_hosts;
    m->hosts = calloc(fj->n_hosts, sizeof(*m->hosts));
    for (unsigned i = 0; i < fj->n_hosts; i++)
        fio_host_figures(&fj->hosts[i], &m->hosts[i]);
    return results_round_json(m);
}

/* Every host of fj in the round's JSON: its name, I/Os, the percentiles fio printed for it
 * within the histogram's bound (1/128) of the recorded ones, the flat keys, health as not
 * reported; the hosts' lat_hist merged equal to the round's bucket for bucket. */
static void check_hosts(const char *what, const struct fio_job_figures *fj,
                        struct json_object *round)
{
    static const char *const dirs[] = {"read", "write"};
    static const char *const keys[] = {"50", "90", "99", "99.9"};   /* fio's first four */
    struct json_object *hosts = jp_arr_at(round, "hosts");
    assert_int_equal(jp_len(hosts), fj->n_hosts);
    struct read_hist merged, whole;
    read_hist_init(&merged);
    read_hist_init(&whole);
    double worst = 0;
    for (unsigned i = 0; i < fj->n_hosts; i++) {
        const struct fio_stats *f = &fj->hosts[i];
        struct json_object *h = jp_idx(hosts, i);
        assert_string_equal(json_object_get_string(jp_get(h, "host")), f->host);
        assert_true(jp_path(h, "iops") == f->dir[0].iops + f->dir[1].iops);   /* flat, kept */
        for (int d = 0; d < 2; d++) {
            const struct fio_dir *x = &f->dir[d];
            char path[64];
            snprintf(path, sizeof(path), "%s.ios", dirs[d]);
            assert_true(jp_path(h, path) == (double)x->ios);
            if (!x->ios)
                continue;
            snprintf(path, sizeof(path), "%s.lat_us.count", dirs[d]);
            assert_true(jp_path(h, path) == (double)x->ios);
            for (int k = 0; k < 4; k++) {
                double got = results_figures_lat(h, dirs[d], keys[k]) * 1000.0;
                if (!hist_pct_supported(x->ios, pct_p[k])) {   /* the tail rule: null */
                    assert_true(isnan(got));
                    continue;
                }
                assert_false(isnan(got));
                double e = fabs(got - x->lat.pct_ns[k]) / x->lat.pct_ns[k];
                if (e > HIST_REL_ERROR)
                    fail_msg("%s %s %s p%s: recorded %.0f ns, fio %.0f ns", what, f->host,
                             dirs[d], keys[k], got, x->lat.pct_ns[k]);
                worst = fmax(worst, e);
            }
        }
        assert_int_equal(read_hist_add(&merged, h, READ_HIST_TOTAL), 1);
        assert_non_null(strstr(json_object_get_string(jp_at(h, "health.note")),
                               "carries no drive health"));
        assert_string_equal(json_object_get_string(jp_at(h, "health.source")), "none");
    }
    assert_int_equal(read_hist_add(&whole, round, READ_HIST_TOTAL), 1);
    assert_int_equal(read_hist_count(&merged),
                     fj->total.dir[0].ios + fj->total.dir[1].ios + fj->total.dir[2].ios);
    assert_int_equal(read_hist_count(&merged), read_hist_count(&whole));
    assert_memory_equal(merged.h.buckets, whole.h.buckets, sizeof(merged.h.buckets));
    printf("  %-22s %u hosts: percentiles within %.3f%% of fio's; lat_hist merged == round's\n",
           what, fj->n_hosts, 100 * worst);
    /* the document's shape, with the hosts' new keys */
    struct json_object *doc = json_object_new_object();
    json_object_object_add(doc, "schema", json_object_new_string("ptsbench.run"));
    struct json_object *rounds = json_object_new_array();
    json_object_array_add(rounds, json_object_get(round));
    json_object_object_add(doc, "rounds", rounds);
    char err[512] = "";
    assert_int_equal(shape_check(doc, "hosts", err, sizeof(err)), 0);
    /* export: a run_host row per host after the round's, its IOPS the host's figures' */
    struct export_opts eo = {.format = EXPORT_JSONL};
    char *text = NULL;
    size_t len = 0;
    assert_int_equal(export_table(doc, "hosts", &eo, &text, &len, err, sizeof(err)), 0);
    unsigned rows = 0;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        struct json_object *row = json_tokener_parse(line);
        assert_non_null(row);
        if (!strcmp(json_object_get_string(jp_get(row, "record")), "run_host")) {
            struct json_object *h = jp_idx(hosts, rows++);
            assert_string_equal(json_object_get_string(jp_get(row, "point")),
                                json_object_get_string(jp_get(h, "host")));
            assert_true(jp_path(row, "total_iops") == jp_path(h, "total.iops"));
        }
        json_object_put(row);
    }
    assert_int_equal(rows, fj->n_hosts);
    free(text);
    json_object_put(doc);
}

static void test_clientserver_hosts(void **state)
{
    (void)state;
    struct fio_output o;
    parse_fixture("clientserver.json", &o);
    struct round_metrics m;
    struct json_object *round = hosts_round(&o.jobs[0], &m);
    check_hosts("clientserver", &o.jobs[0], round);
    /* each host's disk_util entry (the fixture's: vda on both, util 99.08999 and 98.288016) */
    struct json_object *hosts = jp_arr_at(round, "hosts");
    assert_string_equal(json_object_get_string(jp_at(jp_idx(hosts, 0), "disk.name")), "vda");
    assert_true(jp_path(jp_idx(hosts, 0), "disk.util_pct") == 99.08999);
    assert_true(jp_path(jp_idx(hosts, 0), "disk.read_ios") == 48966);
    assert_true(jp_path(jp_idx(hosts, 1), "disk.util_pct") == 98.288016);
    assert_true(jp_path(jp_idx(hosts, 1), "disk.write_ios") == 55064);
    json_object_put(round);
    metrics_free(&m);
    fio_output_free(&o);
}

static void test_clientserver_twojobs_hosts(void **state)
{
    (void)state;
    struct fio_output o;
    parse_fixture("clientserver-twojobs.json", &o);
    assert_int_equal(o.n_jobs, 2);
    for (unsigned j = 0; j < o.n_jobs; j++) {
        struct round_metrics m;
        struct json_object *round = hosts_round(&o.jobs[j], &m);
        assert_int_equal(o.jobs[j].n_hosts, 2);
        check_hosts(o.jobs[j].total.jobname, &o.jobs[j], round);
        json_object_put(round);
        metrics_free(&m);
    }
    fio_output_free(&o);
}

/* A group of two jobs on two hosts (fio.c: one worker record per job, each with its hosts):
 * the round lists each host once, with both jobs' I/Os and histograms, and the hosts' lat_hist
 * merged is the round's. */
static void test_clientserver_group_hosts(void **state)
{
    (void)state;
    struct fio_output o;
    parse_fixture("clientserver-twojobs.json", &o);
    struct worker_stats *ws = calloc(o.n_jobs, sizeof(*ws));
    const struct worker_stats *wp[2];
    for (unsigned j = 0; j < o.n_jobs; j++) {   /* take_job's counts, histograms and hosts */
        const struct fio_job_figures *fj = &o.jobs[j];
        for (int d = 0; d < IO_NDIR; d++) {
            hist_init(&ws[j].lat[d]);
            ws[j].ios[d] = fj->total.dir[d].ios;
            ws[j].bytes[d] = fj->total.dir[d].bytes;
            if (ws[j].ios[d])
                fio_dir_hist(&fj->total.dir[d], &ws[j].lat[d]);
        }
        ws[j].end_ns = 1000000000;
        ws[j].n_hosts = fj->n_hosts;
        ws[j].hosts = calloc(fj->n_hosts, sizeof(*ws[j].hosts));
        for (unsigned i = 0; i < fj->n_hosts; i++)
            fio_host_figures(&fj->hosts[i], &ws[j].hosts[i]);
        wp[j] = &ws[j];
    }
    struct round_metrics m;
    metrics_compute(wp, o.n_jobs, 1.0, 1, &m);
    m.round = 1;
    struct json_object *round = results_round_json(&m);
    struct json_object *hosts = jp_arr_at(round, "hosts");
    assert_int_equal(jp_len(hosts), 2);
    struct read_hist merged, whole;
    read_hist_init(&merged);
    read_hist_init(&whole);
    for (size_t i = 0; i < jp_len(hosts); i++) {
        struct json_object *h = jp_idx(hosts, i);
        const char *name = json_object_get_string(jp_get(h, "host"));
        uint64_t ios = 0;
        for (unsigned j = 0; j < o.n_jobs; j++)
            for (unsigned k = 0; k < o.jobs[j].n_hosts; k++)
                if (!strcmp(o.jobs[j].hosts[k].host, name))
                    for (int d = 0; d < IO_NDIR; d++)
                        ios += o.jobs[j].hosts[k].dir[d].ios;
        assert_true(jp_path(h, "total.ios") == (double)ios);
        assert_true(jp_path(h, "total.lat_us.count") == (double)ios);
        assert_int_equal(read_hist_add(&merged, h, READ_HIST_TOTAL), 1);
        printf("  group on %s: %" PRIu64 " I/Os of both jobs\n", name, ios);
    }
    assert_int_equal(read_hist_add(&whole, round, READ_HIST_TOTAL), 1);
    assert_int_equal(read_hist_count(&merged), read_hist_count(&whole));
    assert_memory_equal(merged.h.buckets, whole.h.buckets, sizeof(merged.h.buckets));
    json_object_put(round);
    metrics_free(&m);
    for (unsigned j = 0; j < o.n_jobs; j++)
        host_figures_free(ws[j].hosts, ws[j].n_hosts);
    free(ws);
    fio_output_free(&o);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plain),
        cmocka_unit_test(test_jsonplus),
        cmocka_unit_test(test_mixed),
        cmocka_unit_test(test_warnings),
        cmocka_unit_test(test_clientserver),
        cmocka_unit_test(test_clientserver_one),
        cmocka_unit_test(test_clientserver_hosts),
        cmocka_unit_test(test_clientserver_twojobs_hosts),
        cmocka_unit_test(test_clientserver_group_hosts),
        cmocka_unit_test(test_nojson),
        cmocka_unit_test(test_truncated),
        cmocka_unit_test(test_candidates),
        cmocka_unit_test(test_empty),
    };
    return cmocka_run_group_tests(tests, NULL, report);
}
