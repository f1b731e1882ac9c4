/* test_fio_parse.c — fio's job-file language as fio 3.33 reads it (io/fio_parse.h, jobset.h):
 * [global]s in order, same-name jobs, ${ENV}, $ncpus, arithmetic, include, comments, groups. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "helpers.h"
#include "io/fio_parse.h"
#include "io/jobset.h"
#include "io/workload.h"

static char dir[512];

static const char *put(const char *name, const char *text)
{
    static char path[1024];
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    return path;
}

static void load(const char *text, struct wl_jobset *js)
{
    char err[1024] = "";
    const char *p = put("t.fio", text);
    int rc = wl_load_fio_jobs(p, NULL, js, err, sizeof(err));
    if (rc != 0)
        fprintf(stderr, "%s\n", err);
    assert_int_equal(rc, 0);
}

#define HEAD "[global]\nioengine=libaio\ndirect=1\n"

static void test_globals_in_order(void **st)
{
    (void)st;
    struct wl_jobset js;
    load(HEAD "bs=8k\n[a]\nrw=randread\n[global]\nbs=64k\n[b]\nrw=randread\n", &js);
    assert_int_equal(js.n, 2);
    assert_int_equal(js.jobs[0].wl.bs[0].size, 8192);    /* the second [global] is after a */
    assert_int_equal(js.jobs[1].wl.bs[0].size, 65536);
    assert_int_equal(js.jobs[1].wl.qd, 1);
    wl_jobset_free(&js);
    /* FILE:SECTION: the globals before that job */
    struct workload wl;
    char err[512];
    const char *p = put("g.fio", HEAD "bs=8k\n[a]\n[global]\nbs=64k\n[b]\n");
    assert_int_equal(wl_load_fio(p, "a", &wl, err, sizeof(err)), 0);
    assert_int_equal(wl.bs[0].size, 8192);
    assert_int_equal(wl_load_fio(p, "b", &wl, err, sizeof(err)), 0);
    assert_int_equal(wl.bs[0].size, 65536);
}

static void test_same_name_jobs(void **st)
{
    (void)st;
    struct wl_jobset js;
    load(HEAD "[j]\nrw=randread\n[j]\nrw=randwrite\n", &js);
    assert_int_equal(js.n, 2);
    assert_string_equal(js.jobs[0].label, "j");
    assert_string_equal(js.jobs[1].label, "j#2");
    assert_string_equal(js.jobs[0].wl.rw, "randread");
    assert_string_equal(js.jobs[1].wl.rw, "randwrite");
    wl_jobset_free(&js);
}

static void test_env(void **st)
{
    (void)st;
    struct wl_jobset js;
    setenv("PTSB_TEST_BS", "16k", 1);
    unsetenv("PTSB_TEST_UNSET");
    load(HEAD "[j]\nbs=${PTSB_TEST_BS}\nrw=randread\nsize=${PTSB_TEST_UNSET}1m\n", &js);
    assert_int_equal(js.jobs[0].wl.bs[0].size, 16384);
    assert_int_equal(js.jobs[0].wl.size.bytes, 1048576);   /* unset: empty, as fio */
    assert_non_null(strstr(js.jobs[0].wl.note, "${PTSB_TEST_UNSET} is unset"));
    wl_jobset_free(&js);
}

static void test_keywords(void **st)
{
    (void)st;
    struct wl_jobset js;
    long ncpus = sysconf(_SC_NPROCESSORS_CONF), page = sysconf(_SC_PAGESIZE);
    load(HEAD "[j]\nrw=randread\niodepth=$ncpus\nbs=$pagesize\nnumjobs=$ncpus*2\n", &js);
    assert_int_equal(js.jobs[0].wl.qd, (unsigned)ncpus);
    assert_int_equal(js.jobs[0].wl.bs[0].size, (unsigned)page);
    assert_int_equal(js.jobs[0].wl.workers, (unsigned)(2 * ncpus));   /* fio's bc step */
    char want[64];
    snprintf(want, sizeof(want), "$ncpus = %ld here", ncpus);
    assert_non_null(strstr(js.jobs[0].wl.note, want));
    wl_jobset_free(&js);
}

static void test_arithmetic(void **st)
{
    (void)st;
    long long v;
    assert_int_equal(fio_eval("(1+2)*4k", false, false, &v), 0);
    assert_int_equal(v, 12288);
    assert_int_equal(fio_eval("(8/2k)", false, false, &v), 0);   /* fio: (8/2)k */
    assert_int_equal(v, 4096);
    assert_int_equal(fio_eval("(1+2k)", false, false, &v), 0);   /* 1 + 2k */
    assert_int_equal(v, 2049);
    assert_int_equal(fio_eval("(4KiB)", false, false, &v), 0);   /* fio's lexer: 1000 */
    assert_int_equal(v, 4000);
    assert_int_equal(fio_eval("(2^3%2)", false, false, &v), 0);
    assert_int_equal(v, 2);
    assert_int_equal(fio_eval("(2m)", true, true, &v), 0);       /* minutes in a duration */
    assert_int_equal(v, 120000000);
    assert_int_equal(fio_eval("(3)", true, true, &v), 0);        /* a bare number: seconds */
    assert_int_equal(v, 3000000);
    assert_int_equal(fio_eval("(1+)", false, false, &v), -1);
    struct wl_jobset js;
    load(HEAD "[j]\nrw=randread\nbs=(1+2)*4k\nruntime=(1+1)m\ntime_based\n", &js);
    assert_int_equal(js.jobs[0].wl.bs[0].size, 12288);
    assert_int_equal(js.jobs[0].wl.round_time_ns, 120000000000ull);
    wl_jobset_free(&js);
    struct fio_doc d;   /* one expression per direction, as fio splits bs=READ,WRITE first */
    char err[256];
    assert_int_equal(fio_doc_parse("[j]\nbs=(2*2k),(8k)\n", "x.fio", &d, err, sizeof(err)), 0);
    assert_string_equal(d.sections[0].lines[0].value, "4096,8192");
    fio_doc_free(&d);
}

static void test_comments_cut(void **st)
{
    (void)st;
    struct wl_jobset js;
    load(HEAD "  ; a comment\n[j]\nrw=randread ; why\nbs=8k# note\n", &js);
    assert_string_equal(js.jobs[0].wl.rw, "randread");
    assert_int_equal(js.jobs[0].wl.bs[0].size, 8192);
    wl_jobset_free(&js);
    struct fio_doc d;
    char err[256];
    assert_int_equal(fio_doc_parse("bs=4k\n[j]\n", "x.fio", &d, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "x.fio:1:"));   /* fio: option outside of [] job section */
}

static void test_include(void **st)
{
    (void)st;
    char sub[600];
    snprintf(sub, sizeof(sub), "%s/inc", dir);
    assert_true(mkdir(sub, 0755) == 0 || access(sub, F_OK) == 0);
    put("inc/part.fio", "bs=32k\nrw=randwrite\n");
    const char *p = put("inc/main.fio", HEAD "include part.fio\n[j]\niodepth=4\n");
    char path[1024];
    snprintf(path, sizeof(path), "%s", p);
    struct wl_jobset js;
    char err[512] = "";
    assert_int_equal(wl_load_fio_jobs(path, NULL, &js, err, sizeof(err)), 0);  /* next to it */
    assert_int_equal(js.jobs[0].wl.bs[0].size, 32768);
    assert_string_equal(js.jobs[0].wl.rw, "randwrite");
    wl_jobset_free(&js);
    put("inc/bad.fio", "[x]\n");
    p = put("inc/main2.fio", HEAD "include bad.fio\n[j]\n");
    snprintf(path, sizeof(path), "%s", p);
    assert_int_equal(wl_load_fio_jobs(path, NULL, &js, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "may not open a section"));
}

static void test_groups(void **st)
{
    (void)st;
    struct wl_jobset js;
    load(HEAD "rw=randread\n[a]\n[b]\n[c]\nstonewall\n[d]\n[e]\nnew_group\n", &js);
    assert_int_equal(js.n, 5);
    assert_int_equal(js.n_groups, 2);
    unsigned want[] = {0, 0, 1, 1, 1};   /* new_group: fio's reporting only */
    for (unsigned i = 0; i < 5; i++)
        assert_int_equal(js.jobs[i].group, want[i]);
    assert_non_null(strstr(js.note, "new_group"));
    wl_jobset_free(&js);
    load(HEAD "rw=randread\nstonewall\n[a]\n[b]\n[c]\n", &js);   /* [global] stonewall */
    assert_int_equal(js.n_groups, 3);
    wl_jobset_free(&js);
}

static void test_wait_for(void **st)
{
    (void)st;
    struct wl_jobset js;
    load(HEAD "rw=randread\n[a]\n[b]\n[c]\nwait_for=a\n", &js);
    assert_int_equal(js.n_groups, 2);
    assert_int_equal(js.jobs[2].group, 1);
    assert_non_null(strstr(js.note, "after the whole group holding a"));
    wl_jobset_free(&js);
    char err[512];
    const char *p = put("w.fio", HEAD "rw=randread\n[a]\n[c]\nwait_for=zz\n");
    assert_int_equal(wl_load_fio_jobs(p, NULL, &js, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "wait_for=zz: no job of that name"));
}

static void test_verdicts(void **st)
{
    (void)st;
    struct wl_jobset js;
    struct wl_verdicts v;
    char err[512];
    const char *p = put("v.fio", HEAD "rw=randread\nverify=crc32c\n[a]\nfrobnicate=1\n[b]\n");
    assert_int_equal(wl_fio_verdicts(p, NULL, &js, &v, err, sizeof(err)), 1);
    assert_int_equal(v.refused, 2);   /* both, at once; the [global] line said once */
    unsigned refused = 0;
    for (unsigned i = 0; i < v.n; i++)
        refused += v.v[i].take == WL_TAKE_REFUSED;
    assert_int_equal(refused, 2);
    assert_string_equal(v.v[0].key, "ioengine");
    assert_int_equal(v.v[0].take, WL_TAKE_HONOURED);
    wl_jobset_free(&js);
    wl_verdicts_free(&v);
}

static int setup(void **st)
{
    (void)st;
    char *d = make_temp_dir("fio-parse");
    snprintf(dir, sizeof(dir), "%s", d);
    free(d);
    return 0;
}

static int teardown(void **st)
{
    (void)st;
    remove_tree(dir);
    return 0;
}

/* fio's directory without filename gives each job (each of its numjobs) a file of its own:
 * ptsbench lays them out as extents of the one target, one after another (aio-read.fio's
 * form); with filename, the file lies in the directory. */
static void test_directory_files(void **st)
{
    (void)st;
    struct wl_jobset js;
    load("[global]\nrw=randread\nbs=128k\nsize=512m\ndirectory=/data1\ndirect=1\n"
         "[a]\niodepth=4\n[b]\niodepth=32\nnumjobs=2\n[c]\nfilename=f\n", &js);
    assert_int_equal(js.n, 3);
    const struct workload *a = &js.jobs[0].wl, *b = &js.jobs[1].wl, *c = &js.jobs[2].wl;
    assert_true(a->own_file && b->own_file && !c->own_file);
    assert_int_equal(a->offset.bytes, 0);
    assert_int_equal(a->size.bytes, 512ull << 20);
    assert_int_equal(b->offset.bytes, 512ull << 20);
    assert_int_equal(b->size.bytes, 1024ull << 20);   /* two clones, two files */
    assert_int_equal(b->region, WL_REGION_SPLIT);
    assert_string_equal(c->filename, "/data1/f");
    assert_non_null(strstr(a->note, "a file of its own"));
    wl_jobset_free(&js);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_directory_files),
        cmocka_unit_test(test_globals_in_order), cmocka_unit_test(test_same_name_jobs),
        cmocka_unit_test(test_env),              cmocka_unit_test(test_keywords),
        cmocka_unit_test(test_arithmetic),       cmocka_unit_test(test_comments_cut),
        cmocka_unit_test(test_include),          cmocka_unit_test(test_groups),
        cmocka_unit_test(test_wait_for),         cmocka_unit_test(test_verdicts),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
