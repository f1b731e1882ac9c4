/* test_layout.c — reads of space nobody wrote are never passed off as the drive's figures.
 *
 * A file only preallocated (fallocate: unwritten extents) answers reads from the filesystem's
 * metadata without touching the disk; ptsbench used to report 1.6-1.9 million 4 KiB IOPS for it
 * where the written file gives about 71K (issue 43, case 1). Checked here, on the binary:
 *   - run on a new file: the file is laid out first (preconditioning.layout: every byte of the
 *     active range written, time recorded), the file's extents then hold no unwritten space
 *     (the rounds' state.unwritten_share 0), and no round is labelled;
 *   - run --no-layout on a new file: every round is labelled (unwritten_reads.labelled, share
 *     1), and the verdict is measured_state "unwritten", never reached, even though the window
 *     is flat;
 *   - an existing file that holds data in half its range and nothing in the other half: the
 *     layout would change it, so without --destructive the run is refused with exit 2, naming
 *     --no-layout, and the file is unchanged; with --destructive only the never-written half is
 *     written and the data is kept;
 *   - a profile and a replay on a new file are laid out likewise;
 *   - the simulated drive counts its reads of never-written space: a fresh drive's reads are
 *     labelled "measured" at share 1, after --precondition wipc not at all;
 *   - a zram device of the test's own: purged by discard and read with writes mixed in, the
 *     rounds are labelled from the purge's estimate, with a share that falls as the writes cover
 *     the range; not purged, its content is "unknown" and nothing is labelled.
 * Files under $TMPDIR or /var/tmp (a disk filesystem with FIEMAP); skips with the reason where
 * the filesystem tells nothing, or zram or root is missing. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <fcntl.h>
#include <json-c/json.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "helpers.h"

#define MiB (1024ll * 1024ll)

static char *dir;

static int setup(void **state)
{
    (void)state;
    dir = make_temp_dir("layout");
    return dir ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    zram_remove_all();   /* this program's own devices, also after a failed assertion */
    remove_tree(dir);
    free(dir);
    dir = NULL;
    return 0;
}

static void path_in(char *buf, size_t len, const char *name)
{
    snprintf(buf, len, "%s/%s", dir, name);
}

/* Every round of a run: labelled or not, and the largest share. */
static void rounds_unwritten(struct json_object *doc, unsigned *labelled, double *max_share,
                             unsigned *n)
{
    struct json_object *rounds = json_at(doc, "rounds");
    *n = rounds ? (unsigned)json_object_array_length(rounds) : 0;
    *labelled = 0;
    *max_share = 0;
    for (unsigned i = 0; i < *n; i++) {
        struct json_object *r = json_object_array_get_idx(rounds, i);
        struct json_object *l = json_at(r, "unwritten_reads.labelled");
        if (l && json_object_get_boolean(l))
            (*labelled)++;
        double s = json_num(r, "unwritten_reads.share");
        if (!isnan(s) && s > *max_share)
            *max_share = s;
    }
}

static const char *str_at(struct json_object *doc, const char *path)
{
    struct json_object *o = json_at(doc, path);
    return o ? json_object_get_string(o) : "";
}

/* 4 KiB random reads at QD 8 on a new 32 MiB file t.dat: `rounds` rounds of `round_time` s with
 * `flag` (--all-rounds, --no-layout); its results, or a skip where the filesystem tells nothing
 * of its extents. */
static struct json_object *new_file_run(const char *rounds, const char *round_time,
                                        const char *flag)
{
    char target[PATH_MAX], out[PATH_MAX];
    path_in(target, sizeof(target), "t.dat");
    path_in(out, sizeof(out), "out");
    char *argv[] = {"ptsbench", "run", "--target", target, "--size", "32m", "--workload",
                    "rw=randread,bs=4k,qd=8", "--rounds", (char *)rounds, "--round-time",
                    (char *)round_time, (char *)flag, "-q", "-o", out, NULL};
    struct json_object *doc = ptsbench_results(argv, out, 0, NULL);
    assert_non_null(doc);
    if (!strcmp(str_at(doc, "state.content"), "unknown")) {
        json_object_put(doc);
        skip();   /* the filesystem tells nothing of its extents */
    }
    return doc;
}

/* A new file, read: laid out first, nothing labelled. */
static void test_new_file_is_laid_out(void **state)
{
    (void)state;
    struct json_object *doc = new_file_run("2", "0.3", "--all-rounds");
    assert_true(json_object_get_boolean(json_at(doc, "preconditioning.layout.ran")));
    assert_true(json_num(doc, "preconditioning.layout.bytes") == 32.0 * MiB);
    assert_true(json_num(doc, "preconditioning.layout.unwritten_before_bytes") == 32.0 * MiB);
    assert_true(json_num(doc, "preconditioning.layout.unwritten_after_bytes") == 0);
    assert_true(json_num(doc, "preconditioning.layout.seconds") > 0);
    assert_string_equal(str_at(doc, "state.content"), "extents");
    assert_true(json_num(doc, "state.unwritten_share") == 0);
    unsigned labelled, n;
    double max;
    rounds_unwritten(doc, &labelled, &max, &n);
    assert_int_equal(n, 2);
    assert_int_equal(labelled, 0);
    assert_true(max == 0);
    assert_string_not_equal(str_at(doc, "steady_state.measured_state"), "unwritten");
    json_object_put(doc);
}

/* --no-layout: the reads of a preallocated file are labelled, never steady. */
static void test_no_layout_is_labelled(void **state)
{
    (void)state;
    struct json_object *doc = new_file_run("5", "0.2", "--no-layout");
    assert_null(json_at(doc, "preconditioning.layout"));
    unsigned labelled, n;
    double max;
    rounds_unwritten(doc, &labelled, &max, &n);
    assert_int_equal(n, 5);
    assert_int_equal(labelled, 5);
    assert_true(max == 1.0);
    assert_string_equal(str_at(doc, "steady_state.measured_state"), "unwritten");
    assert_false(json_object_get_boolean(json_at(doc, "steady_state.reached")));
    assert_non_null(strstr(str_at(doc, "steady_state.label"), "never-written"));
    json_object_put(doc);
}

static uint32_t crc_of(const char *path, uint64_t off, uint64_t len)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, (long)off, SEEK_SET);
    uint32_t h = 2166136261u;   /* FNV-1a */
    for (uint64_t i = 0; i < len; i++) {
        int c = fgetc(f);
        if (c == EOF)
            break;
        h = (h ^ (uint32_t)c) * 16777619u;
    }
    fclose(f);
    return h;
}

/* Half data, half preallocated: refused without --destructive; with it the data is kept. */
static void test_file_with_data_needs_destructive(void **state)
{
    (void)state;
    char target[PATH_MAX], out[PATH_MAX];
    path_in(target, sizeof(target), "half.dat");
    path_in(out, sizeof(out), "out");
    int fd = open(target, O_CREAT | O_RDWR, 0644);
    assert_true(fd >= 0);
    if (fallocate(fd, 0, 0, 16 * MiB) != 0) {
        close(fd);
        skip();
    }
    char *buf = malloc(8 * MiB);
    for (long i = 0; i < 8 * MiB; i++)
        buf[i] = (char)(i * 7 + 3);
    assert_int_equal(pwrite(fd, buf, 8 * MiB, 0), 8 * MiB);
    free(buf);
    fsync(fd);
    close(fd);
    const uint32_t before = crc_of(target, 0, 8 * MiB);

    struct cmd_result r;
    const char *args[] = {"run", "--target", target, "--workload", "rw=randread,bs=4k,qd=8",
                          "--rounds", "1", "--round-time", "0.2", "-q", "-o", out, NULL};
    assert_int_equal(ptsbench_run(&r, args), 2);
    assert_non_null(strstr(r.errout, "never written"));
    assert_non_null(strstr(r.errout, "--no-layout"));
    assert_non_null(strstr(r.errout, "--destructive"));
    cmd_result_free(&r);
    assert_int_equal(access(out, F_OK), -1);   /* nothing created */
    assert_int_equal(crc_of(target, 0, 8 * MiB), before);

    const char *args2[] = {"run", "--target", target, "--workload", "rw=randread,bs=4k,qd=8",
                           "--rounds", "1", "--round-time", "0.2", "-q", "-o", out,
                           "--destructive", NULL};
    assert_int_equal(ptsbench_run(&r, args2), 0);
    cmd_result_free(&r);
    assert_int_equal(crc_of(target, 0, 8 * MiB), before);   /* the data kept */
    char res[PATH_MAX + 32];
    snprintf(res, sizeof(res), "%s/results.json", out);
    struct json_object *doc = load_json(res);
    assert_non_null(doc);
    if (strcmp(str_at(doc, "state.content"), "unknown")) {
        assert_true(json_num(doc, "preconditioning.layout.unwritten_before_bytes") ==
                    8.0 * MiB);
        assert_true(json_num(doc, "preconditioning.layout.bytes") == 8.0 * MiB);
    }
    json_object_put(doc);
}

/* A profile's and a replay's reads on a new file: laid out first. */
static void test_profile_and_replay_lay_out(void **state)
{
    (void)state;
    char target[PATH_MAX], out[PATH_MAX], res[PATH_MAX + 32];
    path_in(target, sizeof(target), "p.dat");
    path_in(out, sizeof(out), "prof");
    const char *args[] = {"profile", "qd-ramp-4k-read", "--qd", "4", "--workers", "1",
                          "--target", target, "--size", "16m", "--precondition", "none",
                          "--round-time", "0.2", "-q", "-o", out, NULL};
    struct cmd_result r;
    assert_int_equal(ptsbench_run(&r, args), 0);
    cmd_result_free(&r);
    snprintf(res, sizeof(res), "%s/results.json", out);
    struct json_object *doc = load_json(res);
    assert_non_null(doc);
    assert_true(json_num(doc, "preconditioning.layout.bytes") == 16.0 * MiB);
    json_object_put(doc);

    unlink(target);
    path_in(out, sizeof(out), "replay");
    const char *rargs[] = {"replay", "gen:storage-bench-2011-heavy,scale=0.0005", "--target",
                           target, "--size", "16m", "--mode", "afap", "-q", "-o", out, NULL};
    assert_int_equal(ptsbench_run(&r, rargs), 0);
    cmd_result_free(&r);
    snprintf(res, sizeof(res), "%s/results.json", out);
    doc = load_json(res);
    assert_non_null(doc);
    assert_true(json_num(doc, "layout.bytes") == 16.0 * MiB);
    assert_true(json_num(doc, "state.unwritten_share") == 0);
    json_object_put(doc);
}

/* The simulated drive counts its reads of never-written space. */
static void test_simulated_counts_them(void **state)
{
    (void)state;
    char out[PATH_MAX];
    path_in(out, sizeof(out), "sim");
    char *argv[] = {"ptsbench", "run", "--target", "sim:generic-mlc25", "--workload",
                    "rw=randread,bs=4k,qd=8", "--rounds", "5", "--round-time", "0.2", "-q", "-o",
                    out, NULL};
    struct json_object *doc = ptsbench_results(argv, out, 0, NULL);
    assert_non_null(doc);
    struct json_object *r0 = json_object_array_get_idx(json_at(doc, "rounds"), 0);
    assert_string_equal(str_at(r0, "unwritten_reads.how"), "measured");
    assert_true(json_num(r0, "unwritten_reads.share") == 1.0);
    assert_string_equal(str_at(doc, "steady_state.measured_state"), "unwritten");
    json_object_put(doc);

    char *argv2[] = {"ptsbench", "run", "--target", "sim:generic-mlc25", "--workload",
                     "rw=randread,bs=4k,qd=8", "--rounds", "5", "--round-time", "0.2",
                     "--precondition", "wipc", "-q", "-o", out, "--force", NULL};
    doc = ptsbench_results(argv2, out, 0, NULL);
    assert_non_null(doc);
    unsigned labelled, n;
    double max;
    rounds_unwritten(doc, &labelled, &max, &n);
    assert_int_equal(labelled, 0);
    assert_true(max == 0);
    assert_string_not_equal(str_at(doc, "steady_state.measured_state"), "unwritten");
    json_object_put(doc);
}

/* A zram device: after ptsbench's discard, its reads are labelled from the estimate, less as
 * the writes cover the range; without a purge its history is unknown. */
static void test_block_device_after_purge(void **state)
{
    (void)state;
    char dev[64], out[PATH_MAX];
    if (!zram_setup("64M", dev, sizeof(dev)))
        skip();
    path_in(out, sizeof(out), "zram");
    char *argv[] = {"ptsbench", "run", "--target", dev, "--destructive", "--purge", "discard",
                    "--workload", "rw=randrw,rwmixread=70,bs=4k,qd=8", "--rounds", "4",
                    "--round-bytes", "24m", "--all-rounds", "-q", "-o", out, NULL};
    struct json_object *doc = ptsbench_results(argv, out, 0, NULL);
    assert_non_null(doc);
    assert_string_equal(str_at(doc, "state.content"), "purge");
    struct json_object *rounds = json_at(doc, "rounds");
    assert_int_equal(json_object_array_length(rounds), 4);
    double prev = 2;
    for (unsigned i = 0; i < 4; i++) {
        struct json_object *r = json_object_array_get_idx(rounds, i);
        double s = json_num(r, "unwritten_reads.share");
        assert_string_equal(str_at(r, "unwritten_reads.how"), "estimated");
        assert_true(s < prev);   /* 1, then e^-x of the range as the writes cover it */
        prev = s;
    }
    assert_true(json_num(json_object_array_get_idx(rounds, 0), "unwritten_reads.share") == 1.0);
    assert_string_equal(str_at(doc, "steady_state.measured_state"), "unwritten");
    json_object_put(doc);

    char *argv2[] = {"ptsbench", "run", "--target", dev, "--workload",
                     "rw=randread,bs=4k,qd=8", "--rounds", "2", "--round-time", "0.2", "-q",
                     "-o", out, "--force", NULL};
    doc = ptsbench_results(argv2, out, 0, NULL);
    assert_non_null(doc);
    assert_string_equal(str_at(doc, "state.content"), "unknown");
    unsigned labelled, n;
    double max;
    rounds_unwritten(doc, &labelled, &max, &n);
    assert_int_equal(labelled, 0);
    json_object_put(doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_new_file_is_laid_out, setup, teardown),
        cmocka_unit_test_setup_teardown(test_no_layout_is_labelled, setup, teardown),
        cmocka_unit_test_setup_teardown(test_file_with_data_needs_destructive, setup, teardown),
        cmocka_unit_test_setup_teardown(test_profile_and_replay_lay_out, setup, teardown),
        cmocka_unit_test_setup_teardown(test_simulated_counts_them, setup, teardown),
        cmocka_unit_test_setup_teardown(test_block_device_after_purge, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
