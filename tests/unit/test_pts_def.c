/* test_pts_def.c — the keys of a PTS definition (pts/pts_def.c's key table): every key lands in
 * its field with its value, each kind of value is refused with its own message ("FILE:LINE:
 * key=value: why"), and an unknown key is named. Two definitions are read: one using every key
 * of the standard, HIR and DIRTH kinds, and one of the XSR kind. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "lib/util.h"
#include "pts/pts_def.h"

static char *put(const char *dir, const char *name, const char *text)
{
    char *path = malloc(4200);
    snprintf(path, 4200, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    return path;
}

static int load(const char *text, struct pts_def *d, char *err, size_t errlen)
{
    char *dir = make_temp_dir("ptsdef");
    free(put(dir, "t.ini", text));
    const char *dirs[] = {dir, NULL};
    int rc = pts_def_load("t", NULL, dirs, d, err, errlen);
    remove_tree(dir);
    free(dir);
    return rc;
}

/* Every key but the XSR groups, each with a value that is not its default. */
static const char *const all_keys =
    "[test]\n"
    "name = every-key\n"
    "title = Every key\n"
    "kind = dirth\n"
    "report = generic\n"
    "purge = no\n"
    "precondition = wipc\n"
    "wipc_bs = 64k\n"
    "wipc_fills = 3\n"
    "subtests = none\n"
    "access = sequential\n"
    "mixes = 65, 0\n"
    "block_sizes = 8k, 4k\n"
    "threads = 7\n"
    "qd = spec\n"
    "element_time = 90s\n"
    "tracking = iops@4k/0\n"
    "stop = steady\n"
    "max_rounds = 12\n"
    "stop_capacity = 2.5\n"
    "max_time = 2h\n"
    "compress = 40\n"
    "threads_list = 8, 4, 1\n"
    "qd_list = 16, 2\n"
    "precondition_threads = 12\n"
    "precondition_qd = 24\n"
    "latency_ceiling = 2ms\n"
    "histogram_time = 10m\n"
    "extra = random_distribution=zoned:50/5:30/15:20/80\n"
    "precondition_round = 5m\n"
    "access_time = 3s\n"
    "wait_states = 2s, 4s\n"
    "repetitions = 11\n"
    "baseline_accesses = 13\n";

static void test_every_key_lands_in_its_field(void **state)
{
    (void)state;
    struct pts_def d;
    char err[ERR_LEN];
    if (load(all_keys, &d, err, sizeof(err)) != 0)
        fail_msg("refused: %s", err);
    assert_string_equal(d.name, "every-key");
    assert_string_equal(d.title, "Every key");
    assert_int_equal(d.kind, PTS_KIND_DIRTH);
    assert_int_equal(d.report, PTS_REPORT_GENERIC);
    assert_false(d.purge);
    assert_true(d.wipc);
    assert_int_equal(d.wipc_bs, 65536);
    assert_int_equal(d.wipc_fills, 3);
    assert_int_equal(d.subtests, PTS_SUB_NONE);
    assert_false(d.random);
    assert_int_equal(d.n_mixes, 2);
    assert_int_equal(d.mixes[0], 65);
    assert_int_equal(d.mixes[1], 0);
    assert_int_equal(d.n_bss, 2);
    assert_int_equal(d.bss[0], 8192);
    assert_int_equal(d.bss[1], 4096);
    assert_int_equal(d.threads, 7);
    assert_int_equal(d.qd, 0);   /* spec */
    assert_true(d.element_ns == 90000000000ull);
    assert_int_equal(d.n_track, 1);
    assert_int_equal(d.stop, PTS_STOP_STEADY);
    assert_int_equal(d.max_rounds, 12);
    assert_true(d.stop_capacity == 2.5);
    assert_true(d.max_time_ns == 7200000000000ull);
    assert_int_equal(d.compress_pct, 40);
    assert_int_equal(d.n_threads_list, 3);
    assert_int_equal(d.threads_list[0], 8);
    assert_int_equal(d.threads_list[2], 1);
    assert_int_equal(d.n_qd_list, 2);
    assert_int_equal(d.qd_list[1], 2);
    assert_int_equal(d.pc_threads, 12);
    assert_int_equal(d.pc_qd, 24);
    assert_true(d.latency_ceiling_ns == 2000000ull);
    assert_true(d.histogram_ns == 600000000000ull);
    assert_string_equal(d.extra, "random_distribution=zoned:50/5:30/15:20/80");
    assert_true(d.precondition_round_ns == 300000000000ull);
    assert_true(d.access_ns == 3000000000ull);
    assert_int_equal(d.n_waits, 2);
    assert_true(d.waits_ns[1] == 4000000000ull);
    assert_int_equal(d.repetitions, 11);
    assert_int_equal(d.baseline_accesses, 13);
}

static void test_xsr_groups(void **state)
{
    (void)state;
    struct pts_def d;
    char err[ERR_LEN];
    const char *text = "[test]\nkind = xsr\ntitle = X\nprecondition = none\nmixes = 0\n"
                       "block_sizes = 1024k\nthreads = 1\nqd = 32\nelement_time = 60s\n"
                       "tracking = mb_s@1024k/0\nstop = steady\n"
                       "groups = seq/1024k/0/8h, rnd/8k/0/6h, seq/1024k/0/8h\n";
    if (load(text, &d, err, sizeof(err)) != 0)
        fail_msg("refused: %s", err);
    assert_int_equal(d.kind, PTS_KIND_XSR);
    assert_int_equal(d.report, PTS_REPORT_XSR);   /* the kind's own, without the key */
    assert_false(d.wipc);
    assert_int_equal(d.n_groups, 3);
    assert_false(d.groups[0].random);
    assert_true(d.groups[1].random);
    assert_int_equal(d.groups[1].bs, 8192);
    assert_true(d.groups[1].duration_ns == 6 * 3600000000000ull);
}

/* The presentation: the kind's own without the key (generic for standard), as given with it;
 * pts_report_name is the word of the definitions and results. */
static void test_report_presentation(void **state)
{
    (void)state;
    static const char *const base = "[test]\ntitle = T\nmixes = 0\nblock_sizes = 4k\n"
                                    "threads = 1\nqd = 1\nelement_time = 60s\n"
                                    "tracking = iops@4k/0\n";
    static const struct {
        const char *line;
        enum pts_report want;
        const char *name;
    } cases[] = {
        {"", PTS_REPORT_GENERIC, "generic"},
        {"report = wsat", PTS_REPORT_WSAT, "wsat"},
        {"report = iops", PTS_REPORT_IOPS, "iops"},
        {"report = tp", PTS_REPORT_TP, "tp"},
        {"report = lat", PTS_REPORT_LAT, "lat"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        char text[1024];
        snprintf(text, sizeof(text), "%s%s\n", base, cases[i].line);
        struct pts_def d;
        char err[ERR_LEN];
        if (load(text, &d, err, sizeof(err)) != 0)
            fail_msg("%s: refused: %s", cases[i].line, err);
        assert_int_equal(d.report, cases[i].want);
        assert_string_equal(pts_report_name(d.report), cases[i].name);
    }
}

/* A key with a value it cannot take: the message names file, line, key, value and why. */
static void test_each_kind_of_value_refused(void **state)
{
    (void)state;
    static const struct {
        const char *line, *want;
    } bad[] = {
        {"kind = fast", "kind=fast: want standard, hir, xsr or dirth"},
        {"report = pie", "report=pie: want iops, tp, lat, wsat, hir, xsr, dirth or generic"},
        {"report = hir", "report=hir: the hir report reads the results of kind=hir, and this "
                         "test is kind=standard"},
        {"precondition = twice", "precondition=twice: want wipc or none"},
        {"subtests = mix", "subtests=mix: want none or bs"},
        {"access = zoned", "access=zoned: want random or sequential"},
        {"stop = never", "stop=never: want steady or capacity"},
        {"purge = maybe", "purge=maybe: want yes or no"},
        {"threads = 0", "threads=0:"},
        {"threads = 5000", "threads=5000:"},
        {"wipc_fills = 101", "wipc_fills=101:"},
        {"wipc_bs = 1000", "wipc_bs=1000: want element or a block size that is a multiple of 512"},
        {"threads_list = 1, 2000", "threads_list=1, 2000: want up to"},
        {"stop_capacity = -1", "stop_capacity=-1: want a positive number"},
        {"element_time = 0", "element_time=0:"},
        {"groups = seq/1024k/0", "want ACCESS/BS/MIX/DURATION"},
        {"colour = blue", "colour=blue: unknown key"},
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        char text[1024];
        snprintf(text, sizeof(text),
                 "[test]\ntitle = T\nmixes = 0\nblock_sizes = 4k\nthreads = 1\nqd = 1\n"
                 "element_time = 60s\ntracking = iops@4k/0\n%s\n", bad[i].line);
        struct pts_def d;
        char err[ERR_LEN] = "";
        if (load(text, &d, err, sizeof(err)) == 0)
            fail_msg("accepted: %s", bad[i].line);
        if (!strstr(err, bad[i].want) || !strstr(err, "t.ini:9: ") || strchr(err, '\n'))
            fail_msg("%s: '%s' (want '%s' at t.ini:9)", bad[i].line, err, bad[i].want);
    }
}

static char *keys_help(void)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    pts_def_keys_print(f);
    fclose(f);
    return buf;
}

/* run-test --help prints the keys from the rows: every key of the definitions above, each with
 * its range on its line and a line of help under it. */
static void test_keys_printed_from_the_rows(void **state)
{
    (void)state;
    char *help = keys_help();
    char text[2048];
    snprintf(text, sizeof(text), "%sgroups = x\n", all_keys);
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        if (line[0] == '[')
            continue;
        char key[64], want[80];
        sscanf(line, "%63s", key);
        snprintf(want, sizeof(want), "\n  %-26s ", key);
        const char *at = strstr(help, want);
        if (!at && strncmp(help, want + 1, strlen(want) - 1) != 0)
            fail_msg("%s is not in the keys' help:\n%s", key, help);
    }
    assert_non_null(strstr(help, "  threads                    integer 1..4096 | spec\n"
                                 "                             workers (spec: "));
    assert_non_null(strstr(help, "  kind                       standard | hir | xsr | dirth\n"));
    assert_non_null(strstr(help, "  latency_ceiling            duration, at least 1ns\n"));
    free(help);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_key_lands_in_its_field),
        cmocka_unit_test(test_keys_printed_from_the_rows),
        cmocka_unit_test(test_xsr_groups),
        cmocka_unit_test(test_report_presentation),
        cmocka_unit_test(test_each_kind_of_value_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
