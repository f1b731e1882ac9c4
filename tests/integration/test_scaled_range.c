/* test_scaled_range.c — a job's size in bytes on the scaled simulated drive (io/workload.c
 * wl_check_target_scaled): the size is the full-size drive's, divided by the preset's scale,
 * but never below the room of one largest block (one per worker when the range is split), and
 * the results' note says when it was raised:
 *   - fio's fsx.fio (size=256k, bs=4k) runs on sim:zdrive-6300-1.6t (scale 128: 2 KiB, raised to
 *     one 4 KiB block), its note saying so; on the code before it was refused ("the active range
 *     of 2048 bytes ... is smaller than one 4096-byte block");
 *   - split among 4 workers, the range is raised to a block each;
 *   - a size the scale leaves above one block is scaled as before, with no note.
 * On the simulated drive's virtual clock: a fraction of a second each. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"

static char *dir;

static int setup(void **state)
{
    (void)state;
    dir = make_temp_dir("scaled");
    return dir ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    remove_tree(dir);
    free(dir);
    return 0;
}

static const char *note_of(struct json_object *doc)
{
    struct json_object *n = json_at(doc, "workload.note");
    return n ? json_object_get_string(n) : "";
}

static void test_fsx_example_runs(void **state)
{
    (void)state;
    struct json_object *doc =
        run_workload(dir, "fsx", test_fixture_path("fio-examples/fsx.fio"), NULL);
    assert_non_null(doc);
    print_message("  fsx.fio: note '%s'\n", note_of(doc));
    assert_true(json_num(doc, "workload.active_range.length") == 4096);
    assert_non_null(strstr(note_of(doc), "size=256KiB is 2KiB on sim:zdrive-6300-1.6t, scaled "
                                         "down 128 times"));
    assert_non_null(strstr(note_of(doc), "raised to 4KiB, which stands for 512KiB of the "
                                         "full-size drive"));
    assert_true(json_num(doc, "rounds.0.read.ios") > 0 && json_num(doc, "rounds.0.write.ios") > 0);
    json_object_put(doc);
}

static void test_split_and_unraised(void **state)
{
    (void)state;
    struct json_object *doc =
        run_workload(dir, "split", "rw=randread,bs=4k,numjobs=4,region=split,size=256k", NULL);
    assert_non_null(doc);
    assert_true(json_num(doc, "workload.active_range.length") == 4 * 4096);
    assert_non_null(strstr(note_of(doc), "one block per worker: raised to 16KiB"));
    json_object_put(doc);
    doc = run_workload(dir, "scaled", "rw=randread,bs=4k,size=64m", NULL);
    assert_non_null(doc);
    assert_true(json_num(doc, "workload.active_range.length") == (64 << 20) / 128);
    assert_null(strstr(note_of(doc), "raised"));
    json_object_put(doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fsx_example_runs),
        cmocka_unit_test(test_split_and_unraised),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
