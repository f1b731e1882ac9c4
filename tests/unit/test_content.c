/* test_content.c — the never-written runs of a file (device/content.h) on the filesystem under
 * $TMPDIR (else /var/tmp): a preallocated file is all unwritten, a written block is not, a hole
 * is, and the runs are clipped to the range asked for. Skips where the filesystem has neither
 * FIEMAP nor SEEK_DATA. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "device/content.h"

#define MiB (1024u * 1024u)

static char path[4096];
static int fd = -1;

static int setup(void **state)
{
    (void)state;
    const char *base = getenv("TMPDIR");
    snprintf(path, sizeof(path), "%s/ptsbench-content-XXXXXX", base && *base ? base : "/var/tmp");
    fd = mkstemp(path);
    return fd < 0 ? -1 : 0;
}

static int teardown(void **state)
{
    (void)state;
    if (fd >= 0)
        close(fd);
    unlink(path);
    fd = -1;
    return 0;
}

static void write_at(uint64_t off, size_t len)
{
    char *buf = malloc(len);
    memset(buf, 0x5a, len);
    assert_int_equal(pwrite(fd, buf, len, (off_t)off), (ssize_t)len);
    free(buf);
    assert_int_equal(fsync(fd), 0);
}

static void probe(uint64_t start, uint64_t len, struct content_map *m)
{
    char err[256] = "";
    assert_int_equal(content_probe_file(fd, start, len, m, err, sizeof(err)), 0);
    if (!strcmp(m->method, "none"))
        skip();   /* the filesystem tells nothing */
}

/* fallocate: every byte is an unwritten extent, never written. */
static void test_preallocated_is_unwritten(void **state)
{
    (void)state;
    if (fallocate(fd, 0, 0, 8 * MiB) != 0)
        skip();
    struct content_map m;
    probe(0, 8 * MiB, &m);
    assert_int_equal(m.unwritten_bytes, 8 * MiB);
    assert_int_equal(m.n_runs, 1);
    assert_int_equal(m.runs[0].start, 0);
    assert_int_equal(m.runs[0].len, 8 * MiB);
    assert_true(content_unwritten_share(&m) == 1.0);
    content_map_free(&m);
}

/* Two written MiB in the middle of a preallocated file: two runs around them. */
static void test_written_block_splits(void **state)
{
    (void)state;
    if (fallocate(fd, 0, 0, 8 * MiB) != 0)
        skip();
    write_at(3 * MiB, 2 * MiB);
    struct content_map m;
    probe(0, 8 * MiB, &m);
    assert_int_equal(m.unwritten_bytes, 6 * MiB);
    assert_int_equal(m.n_runs, 2);
    assert_int_equal(m.runs[0].start, 0);
    assert_int_equal(m.runs[0].len, 3 * MiB);
    assert_int_equal(m.runs[1].start, 5 * MiB);
    assert_int_equal(m.runs[1].len, 3 * MiB);
    content_map_free(&m);
    /* the range [4, 6) MiB: half written, clipped */
    probe(4 * MiB, 2 * MiB, &m);
    assert_int_equal(m.unwritten_bytes, 1 * MiB);
    assert_int_equal(m.n_runs, 1);
    assert_int_equal(m.runs[0].start, 5 * MiB);
    assert_int_equal(m.runs[0].len, 1 * MiB);
    content_map_free(&m);
}

/* A sparse file (ftruncate) with data at its end: the hole before it is never written. */
static void test_hole_is_unwritten(void **state)
{
    (void)state;
    assert_int_equal(ftruncate(fd, 4 * MiB), 0);
    write_at(3 * MiB, 1 * MiB);
    struct content_map m;
    probe(0, 4 * MiB, &m);
    assert_int_equal(m.unwritten_bytes, 3 * MiB);
    assert_int_equal(m.n_runs, 1);
    assert_int_equal(m.runs[0].start, 0);
    content_map_free(&m);
}

/* A file written through: nothing unwritten. */
static void test_written_file(void **state)
{
    (void)state;
    write_at(0, 4 * MiB);
    struct content_map m;
    probe(0, 4 * MiB, &m);
    assert_int_equal(m.unwritten_bytes, 0);
    assert_int_equal(m.n_runs, 0);
    content_map_free(&m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_preallocated_is_unwritten, setup, teardown),
        cmocka_unit_test_setup_teardown(test_written_block_splits, setup, teardown),
        cmocka_unit_test_setup_teardown(test_hole_is_unwritten, setup, teardown),
        cmocka_unit_test_setup_teardown(test_written_file, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
