/* test_engine_choices.c — each round records the engine's choices on its target
 * ("engine_choices", engine.h: struct engine_choices; docs/engines.md, section 1).
 *
 * Proved here, with rounds of 0.5 s of random reads:
 *   - zram (bio-based: it refuses nowait I/O) under io_uring at QD 1, 4 KiB: nowait false, no
 *     I/O marked async (4 KiB, a total depth of 1), no nap (fewer than 16 in flight), no yield
 *     (one I/O in flight), no batched wait; one wait per completion (QD 1: every reap asks for
 *     one), each of which found its completion there, or spun, or slept, or spun then slept;
 *   - the same at 128 KiB, QD 8: every I/O marked async (64 KiB and up), so between the I/Os
 *     completed and those plus the depth (the ones still in flight at the end were issued too);
 *   - zram under libaio at QD 1: nowait false, and no wait ever slept or spun: zram runs the
 *     read inside io_submit, so the completion is in the ring when the reap looks;
 *   - an O_DIRECT file under /var/tmp under io_uring at QD 8: nowait true (a filesystem takes
 *     nowait I/O), nothing marked, no nap, yield or batched wait: the plain choices;
 *   - the simulated drive records none (no "engine_choices"); fio (where installed) records
 *     that fio decides, with the job's force_async.
 * Against the binary before this change ("engine_choices" absent) all but the simulated one
 * fail. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "helpers.h"

static int setup(void **state)
{
    char *dir = make_temp_dir("choices");
    if (!dir)
        return -1;
    *state = dir;
    return 0;
}

static int teardown(void **state)
{
    zram_remove_all();
    remove_tree(*state);
    free(*state);
    return 0;
}

/* One round of random reads of bs at qd; its results (the caller puts them). */
static struct json_object *one_round(const char *dir, const char *target, const char *engine,
                                     const char *bs, unsigned qd, bool file)
{
    char out[4200], wl[128];
    snprintf(out, sizeof(out), "%s/%s-%s-qd%u-%d", dir, engine, bs, qd, file);
    snprintf(wl, sizeof(wl), "rw=randread,bs=%s,qd=%u", bs, qd);
    char *argv[] = {"ptsbench", "run", "-q", "-t", (char *)target, "-e", (char *)engine, "-w",
                    wl, "-n", "1", "--round-time", "0.5", "--destructive", "-o", out,
                    file ? "--size" : NULL, "64m", NULL};
    struct json_object *doc = ptsbench_results(argv, out, 0, NULL);
    assert_non_null(doc);
    printf("  %s %s %s QD %u: %s, %.0f I/Os\n", target, engine, bs, qd,
           json_object_to_json_string(json_at(doc, "rounds.0.engine_choices")),
           json_num(doc, "rounds.0.total.ios"));
    return doc;
}

static double choice(struct json_object *doc, const char *name)
{
    char p[128];
    snprintf(p, sizeof(p), "rounds.0.engine_choices.%s", name);
    return json_num(doc, p);
}

static bool nowait(struct json_object *doc)
{
    struct json_object *v = json_at(doc, "rounds.0.engine_choices.nowait");
    assert_non_null(v);
    assert_true(json_object_is_type(v, json_type_boolean));
    return json_object_get_boolean(v);
}

/* What depends on the target and is not taken on a plain one (docs/engines.md). */
static void assert_no_punt_choices(struct json_object *doc)
{
    assert_true(choice(doc, "napped") == 0);
    assert_true(choice(doc, "yielded") == 0);
    assert_true(choice(doc, "batched") == 0);
}

static void test_zram_io_uring_qd1(void **state)
{
    char dev[64];
    if (!zram_create("256M", dev, sizeof(dev))) {
        skip();
        return;
    }
    struct json_object *doc = one_round(*state, dev, "io_uring", "4k", 1, false);
    const double ios = json_num(doc, "rounds.0.total.ios");
    assert_true(ios > 0);
    assert_false(nowait(doc));
    assert_true(choice(doc, "marked") == 0);
    assert_no_punt_choices(doc);
    const double waits = choice(doc, "waits");
    assert_true(waits >= ios && waits <= ios + 2);
    /* a wait takes none of the ways (its completion was there), one, or several in turn (a
     * spin that runs out, then a sleep): each way at most once per wait */
    assert_true(choice(doc, "slept") <= waits && choice(doc, "spun") <= waits);
    assert_true(choice(doc, "slept") + choice(doc, "spun") > 0);
    assert_true(choice(doc, "held") == 0);   /* one in flight: nothing to hold back */
    json_object_put(doc);

    doc = one_round(*state, dev, "io_uring", "128k", 8, false);
    const double ios8 = json_num(doc, "rounds.0.total.ios"), marked = choice(doc, "marked");
    assert_false(nowait(doc));
    assert_true(ios8 > 0 && marked >= ios8 && marked <= ios8 + 8);
    json_object_put(doc);
    zram_remove(dev);
}

static void test_zram_libaio_qd1(void **state)
{
    char dev[64];
    if (!zram_create("256M", dev, sizeof(dev))) {
        skip();
        return;
    }
    struct json_object *doc = one_round(*state, dev, "libaio", "4k", 1, false);
    const double ios = json_num(doc, "rounds.0.total.ios");
    assert_false(nowait(doc));
    assert_true(ios > 0 && choice(doc, "waits") >= ios);
    assert_true(choice(doc, "slept") == 0 && choice(doc, "spun") == 0);
    assert_true(choice(doc, "marked") == 0);
    assert_no_punt_choices(doc);
    json_object_put(doc);
    zram_remove(dev);
}

static void test_odirect_file_plain(void **state)
{
    char file[4200];
    snprintf(file, sizeof(file), "/var/tmp/ptsbench-choices-%d", (int)getpid());
    struct json_object *doc = one_round(*state, file, "io_uring", "4k", 8, true);
    unlink(file);
    const double ios = json_num(doc, "rounds.0.total.ios");
    assert_true(nowait(doc));
    assert_true(choice(doc, "marked") == 0);
    assert_no_punt_choices(doc);
    assert_true(ios > 0 && choice(doc, "waits") > 0);
    json_object_put(doc);
}

static void test_sim_records_none(void **state)
{
    char out[4200];
    snprintf(out, sizeof(out), "%s/sim", (char *)*state);
    char *argv[] = {"ptsbench", "run", "-q", "-t", "sim:zdrive-6300-1.6t", "-w",
                    "rw=randread,bs=4k,qd=8", "-n", "1", "--round-time", "0.3", "-o", out, NULL};
    struct json_object *doc = ptsbench_results(argv, out, 0, NULL);
    assert_non_null(doc);
    assert_non_null(json_at(doc, "rounds.0.total"));
    assert_null(json_at(doc, "rounds.0.engine_choices"));
    json_object_put(doc);
}

static void test_fio_decides(void **state)
{
    if (!test_have_fio()) {
        printf("SKIP: fio not installed\n");
        skip();
        return;
    }
    char file[4200];
    snprintf(file, sizeof(file), "/var/tmp/ptsbench-choices-fio-%d", (int)getpid());
    struct json_object *doc = one_round(*state, file, "fio", "4k", 4, true);
    unlink(file);
    struct json_object *by = json_at(doc, "rounds.0.engine_choices.decided_by");
    assert_non_null(by);
    assert_string_equal(json_object_get_string(by), "fio");
    assert_true(choice(doc, "force_async") == 0);
    assert_null(json_at(doc, "rounds.0.engine_choices.waits"));
    json_object_put(doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_zram_io_uring_qd1, setup, teardown),
        cmocka_unit_test_setup_teardown(test_zram_libaio_qd1, setup, teardown),
        cmocka_unit_test_setup_teardown(test_odirect_file_plain, setup, teardown),
        cmocka_unit_test_setup_teardown(test_sim_records_none, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fio_decides, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
