/* test_fio_jobs.c — --engine fio with several jobs at once (io/jobset.h: the jobs of a group):
 * one job file with a section per job (fio_job_write_group), fio's figures back per job
 * (fio_json.h: a job's numjobs clones summed by jobname), one statistics record per job from
 * the engine's round() and from the worker pool.
 *   - the job file: [global] once, each job its own section (its name made fio-safe), the
 *     second with new_group and neither with stonewall, each its own IOPS log; one job is the
 *     file fio_job_write writes; fio --parse-only accepts it;
 *   - fio 3.33's JSON of two jobs x numjobs 2 (tests/fixtures/fio/twojobs*.json), without and
 *     with group_reporting, and on two servers (clientserver-twojobs.json): each job's figures,
 *     clones or hosts summed, bins merged;
 *   - on a zram device of the test's own: a 70/30 random mix and a sequential reader run by
 *     fio at once, through the engine's ops and through `ptsbench run --engine fio` of a fio
 *     file of the two (once the run side of several jobs is in the tree); each job's read
 *     share comes back on its own (70% within 5 points, 100%).
 * Without fio (or root for zram) the runs are skipped with a printed SKIP. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/engine.h"
#include "engine/fio_job.h"
#include "engine/fio_json.h"
#include "helpers.h"
#include "io/workload.h"
#include "lib/ini.h"
#include "lib/util.h"

static void parse_spec(const char *spec, struct workload *wl)
{
    char err[ERR_LEN] = "";
    if (wl_parse_inline(spec, wl, err, sizeof err) != 0)
        fail_msg("wl_parse_inline(%s): %s", spec, err);
}

static const struct ini_section *section(const struct ini_file *f, const char *name)
{
    for (size_t i = 0; i < f->n_sections; i++)
        if (!strcmp(f->sections[i].name, name))
            return &f->sections[i];
    fail_msg("no section [%s]", name);
    return NULL;
}

static const char *value(const struct ini_section *s, const char *key)
{
    for (size_t i = 0; i < s->n_entries; i++)
        if (!strcmp(s->entries[i].key, key))
            return s->entries[i].value;
    return NULL;
}

/* ---- the job file ------------------------------------------------------------------- */

static void test_section_names(void **state)
{
    (void)state;
    const char *labels[] = {"mix#2", "global", "", " a;b ", "mix_2", "seq [1]", "seq"};
    char names[7][FIO_JOB_NAME_MAX];
    fio_job_section_names(labels, 7, names);
    const char *want[] = {"mix_2", "global_", "job", "a_b", "mix_2_2", "seq _1_", "seq"};
    for (int i = 0; i < 7; i++)
        assert_string_equal(names[i], want[i]);
}

static void test_job_file_two_sections(void **state)
{
    (void)state;
    struct workload mix, seq;
    parse_spec("rw=randrw,rwmixread=70,bs=4k,qd=4,workers=2", &mix);
    parse_spec("rw=read,bs=128k,qd=2,workers=1", &seq);
    struct wl_range r0 = {0, 64u << 20}, r1 = {64u << 20, 64u << 20};
    struct fio_job_section s[2] = {{.wl = &mix, .range = &r0, .name = "mix"},
                                   {.wl = &seq, .range = &r1, .name = "seq"}};
    struct fio_job_opts o = {.filename = "/dev/zram9", .ioengine = "io_uring",
                             .runtime_ns = 2000000000ull, .iops_log = "/tmp/x/0001-g",
                             .threads = true};
    char text[32768], err[ERR_LEN] = "";
    if (fio_job_write_group(s, 2, &o, text, sizeof text, err, sizeof err) != 0)
        fail_msg("fio_job_write_group: %s", err);
    assert_true(strncmp(text, "; ptsbench", 10) == 0);
    assert_null(strstr(text, "\nstonewall"));   /* they run at once */
    struct ini_file f;
    if (ini_parse_string(text, "job", &f, err, sizeof err) != 0)
        fail_msg("does not parse: %s\n%s", err, text);
    assert_int_equal(f.n_sections, 3);
    assert_string_equal(f.sections[0].name, "global");
    const struct ini_section *g = section(&f, "global"), *a = section(&f, "mix"),
                             *b = section(&f, "seq");
    assert_string_equal(value(g, "group_reporting"), "1");
    assert_string_equal(value(g, "filename"), "/dev/zram9");
    assert_null(value(g, "write_iops_log"));
    assert_null(value(a, "new_group"));
    assert_string_equal(value(b, "new_group"), "1");   /* reported apart */
    assert_string_equal(value(a, "rw"), "randrw");
    assert_string_equal(value(a, "rwmixread"), "70");
    assert_string_equal(value(a, "numjobs"), "2");
    assert_string_equal(value(a, "iodepth"), "4");
    assert_string_equal(value(a, "offset"), "0");
    assert_string_equal(value(a, "write_iops_log"), "/tmp/x/0001-g.1");
    assert_string_equal(value(a, "write_lat_log"), "/tmp/x/0001-g.1");
    assert_string_equal(value(b, "rw"), "read");
    assert_string_equal(value(b, "bs"), "131072");
    assert_string_equal(value(b, "numjobs"), "1");
    assert_string_equal(value(b, "offset"), "67108864");
    assert_string_equal(value(b, "write_iops_log"), "/tmp/x/0001-g.2");
    assert_string_equal(value(b, "write_lat_log"), "/tmp/x/0001-g.2");
    assert_null(value(g, "write_lat_log"));
    assert_non_null(value(a, "randseed"));
    assert_non_null(value(b, "runtime"));
    char path[64];
    fio_job_iops_log("/tmp/x/0001-g", 2, 1, path, sizeof path);
    assert_string_equal(path, "/tmp/x/0001-g.2_iops.log");
    fio_job_lat_log("/tmp/x/0001-g", 2, 1, path, sizeof path);
    assert_string_equal(path, "/tmp/x/0001-g.2_lat.log");
    fio_job_lat_log("/tmp/x/0001-g", 1, 0, path, sizeof path);
    assert_string_equal(path, "/tmp/x/0001-g_lat.log");
    ini_free(&f);

    /* one job: exactly fio_job_write's file */
    char one[16384], ref[16384];
    o.name = "ptsbench";
    struct fio_job_section s1 = {.wl = &mix, .range = &r0, .name = "ptsbench"};
    assert_int_equal(fio_job_write_group(&s1, 1, &o, one, sizeof one, err, sizeof err), 0);
    assert_int_equal(fio_job_write(&mix, &r0, &o, ref, sizeof ref, err, sizeof err), 0);
    assert_string_equal(one, ref);

    /* two jobs of one name, a name fio would cut: refused */
    s[1].name = "mix";
    assert_int_equal(fio_job_write_group(s, 2, &o, text, sizeof text, err, sizeof err), -1);
    assert_non_null(strstr(err, "both named 'mix'"));
    s[1].name = "seq#1";
    assert_int_equal(fio_job_write_group(s, 2, &o, text, sizeof text, err, sizeof err), -1);
    assert_non_null(strstr(err, "'#'"));

    if (!test_have_fio())
        return;
    s[1].name = "seq";
    char *dir = make_temp_dir("fio-jobs");
    char job[4200];
    snprintf(job, sizeof job, "%s/two.fio", dir);
    assert_int_equal(fio_job_write_group(s, 2, &o, text, sizeof text, err, sizeof err), 0);
    FILE *fp = fopen(job, "w");
    assert_non_null(fp);
    fputs(text, fp);
    assert_int_equal(fclose(fp), 0);
    char *argv[] = {"fio", "--parse-only", job, NULL};
    struct cmd_result res = {0};
    assert_int_equal(run_cmd(argv, &res), 0);
    if (res.status != 0 || strstr(res.errout, "fio: "))
        fail_msg("fio --parse-only: %s%s", res.out, res.errout);
    cmd_result_free(&res);
    remove_tree(dir);
    free(dir);
}

/* ---- fio's JSON of two jobs x numjobs 2 (fixtures) ----------------------------------- */

static char *fixture(const char *name, size_t *len)
{
    char path[64];
    snprintf(path, sizeof path, "fio/%s", name);
    char *buf = slurp_file(test_fixture_path(path), len);
    if (!buf)
        fail_msg("cannot read %s", test_fixture_path(path));
    return buf;
}

static uint64_t bin_count(const struct fio_lat *l)
{
    uint64_t n = 0;
    for (size_t i = 0; i < l->n_bins; i++)
        n += l->bins[i].count;
    return n;
}

static double read_share(const struct fio_stats *t)
{
    return (double)t->dir[0].ios / (double)(t->dir[0].ios + t->dir[1].ios);
}

/* Without group_reporting fio 3.33 gives four entries (mix, mix, seq, seq); per job, the two
 * clones summed. The numbers are facts about the fixture. */
static void test_json_clones_summed(void **state)
{
    (void)state;
    size_t len;
    char *text = fixture("twojobs.json", &len);
    struct fio_output fo;
    char err[ERR_LEN] = "";
    if (fio_output_parse(text, len, "fio-3.33", &fo, err, sizeof err) != 0)
        fail_msg("%s", err);
    assert_int_equal(fo.n_jobs, 2);
    const struct fio_stats *mix = &fo.jobs[0].total, *seq = &fo.jobs[1].total;
    assert_string_equal(mix->jobname, "mix");
    assert_string_equal(seq->jobname, "seq");
    assert_int_equal(mix->dir[0].ios, 8586 + 9277);
    assert_int_equal(mix->dir[1].ios, 3707 + 4058);
    assert_int_equal(seq->dir[0].ios, 12410 + 13920);
    assert_int_equal(seq->dir[1].ios, 0);
    assert_int_equal(mix->dir[0].lat.n, 8586 + 9277);
    assert_int_equal(bin_count(&mix->dir[0].lat), mix->dir[0].lat.n);   /* bins merged */
    assert_int_equal(bin_count(&seq->dir[0].lat), seq->dir[0].lat.n);
    double mean = (8586 * 589237.846145 + 9277 * 531157.564514) / (8586 + 9277);
    assert_true(fabs(mix->dir[0].lat.mean_ns - mean) < 1e-3);
    assert_true(isnan(mix->dir[0].lat.pct_ns[0]));   /* clones' percentiles do not add up */
    assert_true(seq->dir[0].runtime_ms == 1002);
    assert_true(read_share(mix) > 0.65 && read_share(mix) < 0.75);
    assert_true(read_share(seq) == 1.0);
    assert_int_equal(fo.total.dir[0].ios, mix->dir[0].ios);   /* total: the first job */
    assert_ptr_equal(fio_output_job(&fo, "seq"), &fo.jobs[1]);
    assert_null(fio_output_job(&fo, "nosuch"));
    struct hist h;
    hist_init(&h);
    assert_true(fio_lat_to_hist(&mix->dir[0].lat, &h));
    assert_int_equal(h.count, 8586 + 9277);
    fio_output_free(&fo);
    free(text);
}

/* With group_reporting and new_group (as fio_job_write_group writes): one entry per job. */
static void test_json_grouped(void **state)
{
    (void)state;
    size_t len;
    char *text = fixture("twojobs-grouped.json", &len);
    struct fio_output fo;
    char err[ERR_LEN] = "";
    if (fio_output_parse(text, len, "fio-3.33", &fo, err, sizeof err) != 0)
        fail_msg("%s", err);
    assert_int_equal(fo.n_jobs, 2);
    const struct fio_stats *mix = &fo.jobs[0].total, *seq = &fo.jobs[1].total;
    assert_string_equal(mix->jobname, "mix");
    assert_int_equal(mix->dir[0].ios, 17678);
    assert_int_equal(mix->dir[1].ios, 7740);
    assert_int_equal(seq->dir[0].ios, 29713);
    assert_false(isnan(mix->dir[0].lat.pct_ns[0]));   /* fio's own, taken as they are */
    assert_int_equal(bin_count(&seq->dir[0].lat), seq->dir[0].lat.n);
    assert_true(read_share(mix) > 0.65 && read_share(mix) < 0.75);
    fio_output_free(&fo);
    free(text);

    /* one job: jobs[0] is what total always was; client/server keeps its hosts */
    text = fixture("clientserver.json", &len);
    assert_int_equal(fio_output_parse(text, len, "fio-3.33", &fo, err, sizeof err), 0);
    assert_int_equal(fo.n_jobs, 1);
    assert_int_equal(fo.jobs[0].total.dir[0].ios, fo.total.dir[0].ios);
    assert_int_equal(fo.jobs[0].n_hosts, fo.n_hosts);
    assert_int_equal(fo.n_hosts, 2);
    assert_string_equal(fo.jobs[0].hosts[1].host, fo.hosts[1].host);
    fio_output_free(&fo);
    free(text);

    /* two jobs on two servers: each job its hosts, its total their sum (fio's "All clients"
     * sums every job of every host here: left out) */
    text = fixture("clientserver-twojobs.json", &len);
    assert_int_equal(fio_output_parse(text, len, "fio-3.33", &fo, err, sizeof err), 0);
    assert_int_equal(fo.n_jobs, 2);
    const struct fio_job_figures *m = fio_output_job(&fo, "mix"), *q = fio_output_job(&fo, "seq");
    assert_non_null(m);
    assert_non_null(q);
    assert_int_equal(m->n_hosts, 2);
    assert_string_equal(m->hosts[0].host, "127.0.0.1");
    assert_string_equal(m->hosts[1].host, "127.0.0.2");
    assert_int_equal(m->hosts[0].dir[0].ios, 8717);
    assert_int_equal(m->total.dir[0].ios, 8717 + 6446);
    assert_int_equal(q->total.dir[0].ios, 15080 + 18458);
    assert_int_equal(q->total.dir[1].ios, 0);
    assert_int_equal(bin_count(&m->total.dir[0].lat), 8717 + 6446);   /* the hosts' bins */
    assert_true(read_share(&m->total) > 0.65 && read_share(&m->total) < 0.75);
    fio_output_free(&fo);
    free(text);
}

/* ---- two jobs on zram, by fio ------------------------------------------------------- */

static char *g_dir;
static bool g_zram;
static int g_fd = -1;

static int zram_after(void **state)
{
    (void)state;
    if (g_fd >= 0)
        close(g_fd);
    g_fd = -1;
    if (g_zram)
        zram_teardown();
    g_zram = false;
    if (g_dir) {
        remove_tree(g_dir);
        free(g_dir);
        g_dir = NULL;
    }
    return 0;
}

struct two {
    struct workload mix, seq;
    struct wl_range r0, r1;
    struct engine_job jobs[2];
    char dev[64], art[4200];
    int fd;
};

/* The two jobs on a zram device of the test's own; false (SKIP printed) without fio or zram. */
static bool two_setup(struct two *t)
{
    if (!test_have_fio()) {
        print_message("SKIP: fio not installed\n");
        return false;
    }
    if (!zram_setup("256M", t->dev, sizeof t->dev)) {
        print_message("SKIP: zram not available\n");
        return false;
    }
    g_zram = true;
    g_dir = make_temp_dir("fio-jobs");
    assert_non_null(g_dir);
    snprintf(t->art, sizeof t->art, "%s/fio", g_dir);
    parse_spec("rw=randrw,rwmixread=70,bs=4k,qd=4,workers=2", &t->mix);
    parse_spec("rw=read,bs=64k,qd=2,workers=1", &t->seq);
    t->r0 = (struct wl_range){0, 128u << 20};
    t->r1 = (struct wl_range){128u << 20, 128u << 20};
    t->jobs[0] = (struct engine_job){.wl = &t->mix, .range = &t->r0, .label = "mix"};
    t->jobs[1] = (struct engine_job){.wl = &t->seq, .range = &t->r1, .label = "seq"};
    t->fd = g_fd = open(t->dev, O_RDWR | O_DIRECT);
    assert_true(t->fd >= 0);
    return true;
}

static struct engine_config two_config(struct two *t)
{
    return (struct engine_config){.fd = t->fd, .mem_align = 4096, .path = t->dev,
                                  .wl = &t->mix, .range = &t->r0, .jobs = t->jobs,
                                  .n_jobs = 2, .artifact_dir = t->art};
}

/* Each job's figures: its read share, its depth (Little's law, its own iodepth x numjobs),
 * its samples. */
static void check_two(const struct worker_stats *s)
{
    double share0 = (double)s[0].ios[IO_READ] / (double)(s[0].ios[IO_READ] + s[0].ios[IO_WRITE]);
    print_message("  mix: %llu reads, %llu writes (%.1f%% reads); seq: %llu reads, %llu writes\n",
                  (unsigned long long)s[0].ios[IO_READ], (unsigned long long)s[0].ios[IO_WRITE],
                  100 * share0, (unsigned long long)s[1].ios[IO_READ],
                  (unsigned long long)s[1].ios[IO_WRITE]);
    assert_true(s[0].ios[IO_WRITE] > 100 && share0 > 0.65 && share0 < 0.75);
    assert_true(s[1].ios[IO_READ] > 100);
    assert_int_equal(s[1].ios[IO_WRITE], 0);
    assert_int_equal(s[1].bytes[IO_READ], s[1].ios[IO_READ] * 65536);
    assert_int_equal(s[0].lat[IO_READ].count, s[0].ios[IO_READ]);
    assert_int_equal(s[1].lat[IO_READ].count, s[1].ios[IO_READ]);
    assert_int_equal(s[0].depth_how, DEPTH_LITTLE);
    assert_int_equal(s[0].depth_declared, 8);
    assert_int_equal(s[1].depth_declared, 2);
    assert_true(s[0].n_samples >= 2 && s[1].n_samples >= 2);
    assert_true(s[0].end_ns > 300000000ull && s[1].end_ns > 300000000ull);
}

/* The job file kept for the round has both sections. */
static void check_kept_file(const char *art, const char *label)
{
    DIR *d = opendir(art);
    assert_non_null(d);
    char path[4600] = "";
    for (struct dirent *e; (e = readdir(d));) {
        size_t n = strlen(e->d_name);
        if (n > 4 && !strcmp(e->d_name + n - 4, ".fio") && strstr(e->d_name, label))
            snprintf(path, sizeof path, "%s/%s", art, e->d_name);
    }
    closedir(d);
    assert_true(path[0]);
    char *text = slurp_file(path, NULL);
    assert_non_null(text);
    assert_non_null(strstr(text, "\n[mix]\n"));
    assert_non_null(strstr(text, "\n[seq]\n"));
    assert_non_null(strstr(text, "new_group=1"));
    assert_null(strstr(text, "\nstonewall"));
    free(text);
}

static void test_engine_two_jobs(void **state)
{
    (void)state;
    struct two t;
    if (!two_setup(&t))
        return;
    const struct engine_ops *ops = engine_find("fio");
    assert_non_null(ops);
    struct engine_config cfg = two_config(&t);
    struct engine *e = NULL;
    char err[ERR_LEN] = "";
    if (ops->init(&e, &cfg, err, sizeof err) != 0)
        fail_msg("init: %s", err);
    struct worker_stats out[2];
    memset(out, 0, sizeof out);
    for (int k = 0; k < 2; k++)
        for (int d = 0; d < IO_NDIR; d++)
            hist_init(&out[k].lat[d]);
    struct round_limits lim = {.time_ns = 500000000ull, .sample_ns = 125000000ull,
                               .label = "ops"};
    if (ops->round(e, &lim, lim.label, out, err, sizeof err) != 0)
        fail_msg("round: %s", err);
    check_two(out);
    check_kept_file(t.art, "ops");
    for (int k = 0; k < 2; k++) {
        free(out[k].samples);
        free(out[k].hosts);
    }
    ops->cleanup(e);
}

/* `ptsbench run --engine fio` of a fio file of the same two jobs: one round, each job's
 * figures recorded apart (rounds[0].jobs), the kept job file with both sections. */
static void test_run_two_jobs(void **state)
{
    (void)state;
    struct two t;
    if (!two_setup(&t))
        return;
    close(g_fd);
    g_fd = -1;
    char job[4300], out[4300];
    snprintf(job, sizeof job, "%s/two.fio", g_dir);
    snprintf(out, sizeof out, "%s/run", g_dir);
    FILE *fp = fopen(job, "w");
    assert_non_null(fp);
    fputs("[global]\nioengine=io_uring\ndirect=1\n"
          "[mix]\nrw=randrw\nrwmixread=70\nbs=4k\niodepth=4\nnumjobs=2\n"
          "[seq]\nrw=read\nbs=64k\niodepth=2\n", fp);
    assert_int_equal(fclose(fp), 0);
    const char *args[] = {"run", "--target", t.dev, "--engine", "fio", "--workload", job,
                          "--rounds", "1", "--round-time", "1", "--all-rounds", "--quiet",
                          "--destructive", "-o", out, NULL};
    struct cmd_result r = {0};
    int st = ptsbench_run(&r, args);
    if (st != 0)
        fail_msg("ptsbench run exited %d: %s%s", st, r.out, r.errout);
    cmd_result_free(&r);
    char path[4400];
    snprintf(path, sizeof path, "%s/results.json", out);
    struct json_object *doc = load_json(path);
    assert_non_null(doc);
    assert_string_equal(json_object_get_string(json_at(doc, "rounds.0.jobs.0.label")), "mix");
    assert_string_equal(json_object_get_string(json_at(doc, "rounds.0.jobs.1.label")), "seq");
    double r0 = json_num(doc, "rounds.0.jobs.0.read.ios"),
           w0 = json_num(doc, "rounds.0.jobs.0.write.ios"),
           r1 = json_num(doc, "rounds.0.jobs.1.read.ios"),
           w1 = json_num(doc, "rounds.0.jobs.1.write.ios");
    print_message("  run: mix %.0f reads, %.0f writes; seq %.0f reads, %.0f writes\n", r0, w0,
                  r1, w1);
    assert_true(r0 / (r0 + w0) > 0.65 && r0 / (r0 + w0) < 0.75);
    assert_true(r1 > 100 && w1 == 0);
    json_object_put(doc);
    snprintf(path, sizeof path, "%s/fio", out);
    check_kept_file(path, "");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_section_names),
        cmocka_unit_test(test_job_file_two_sections),
        cmocka_unit_test(test_json_clones_summed),
        cmocka_unit_test(test_json_grouped),
        cmocka_unit_test_teardown(test_engine_two_jobs, zram_after),
        cmocka_unit_test_teardown(test_run_two_jobs, zram_after),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
