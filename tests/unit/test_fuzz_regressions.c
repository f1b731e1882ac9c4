/* test_fuzz_regressions.c — every input a fuzzer (or a report) found crashing a parser, replayed.
 *
 * tests/fuzz/regressions/NAME/ holds the inputs of harness NAME (tests/fuzz/fuzz_entry.c:
 * workload, profile, pts, preset, sheet, fio, show, measure, report, plot, gate). Each goes through
 * the same entry function the libFuzzer harness calls, here built by gcc (and by `make sanitize`
 * with ASan+UBSan): the test proves that the input no longer crashes, and that it is refused
 * cleanly — the entry returns 1 (an error with one line; the entry itself aborts on an empty or
 * multi-line message). An input whose file name starts with "ok-" is a valid input that once
 * crashed a reader, and must be accepted (0).
 *
 * A directory named after no harness is an error (a typo would otherwise skip its inputs). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz/fuzz_entry.h"
#include "helpers.h"

static const char *regressions_dir(char *buf, size_t len)
{
    const char *root = getenv("PTSBENCH_DATADIR");
    snprintf(buf, len, "%s/tests/fuzz/regressions", root && *root ? root : ".");
    return buf;
}

static int name_cmp(const struct dirent **a, const struct dirent **b)
{
    return strcmp((*a)->d_name, (*b)->d_name);
}

static int visible(const struct dirent *d) { return d->d_name[0] != '.'; }

/* Replay every input of one harness; returns how many there were. */
static unsigned replay(const struct fuzz_target *t, const char *dir)
{
    struct dirent **ents;
    int n = scandir(dir, &ents, visible, name_cmp);
    if (n < 0)
        return 0;
    unsigned count = 0;
    for (int i = 0; i < n; i++) {
        char path[4096];
        snprintf(path, sizeof(path), "%s/%s", dir, ents[i]->d_name);
        size_t len = 0;
        char *data = slurp_file(path, &len);
        if (!data)
            fail_msg("%s: cannot read", path);
        int want = strncmp(ents[i]->d_name, "ok-", 3) == 0 ? 0 : 1;
        int got = t->run((const uint8_t *)data, len);
        if (got != want)
            fail_msg("%s: the %s entry returned %d, want %d (%s)", path, t->name, got, want,
                     want ? "refused with an error" : "accepted");
        free(data);
        free(ents[i]);
        count++;
    }
    free(ents);
    return count;
}

static void test_every_saved_input(void **state)
{
    (void)state;
    char root[4096];
    regressions_dir(root, sizeof(root));
    struct dirent **ents;
    int n = scandir(root, &ents, visible, name_cmp);
    if (n < 0)
        fail_msg("%s: no regressions directory (set PTSBENCH_DATADIR to the source tree)", root);
    unsigned total = 0, harnesses = 0;
    for (int i = 0; i < n; i++) {
        const struct fuzz_target *t = fuzz_target_find(ents[i]->d_name);
        if (!t)
            fail_msg("%s/%s: no harness of that name in tests/fuzz/fuzz_entry.c", root,
                     ents[i]->d_name);
        char dir[4200];
        snprintf(dir, sizeof(dir), "%s/%s", root, ents[i]->d_name);
        unsigned k = replay(t, dir);
        printf("  %-9s %u input%s\n", t->name, k, k == 1 ? "" : "s");
        total += k;
        harnesses++;
        free(ents[i]);
    }
    free(ents);
    printf("  %u saved inputs of %u harnesses replayed\n", total, harnesses);
    assert_true(total > 0);
}

/* The entries also take what is valid: a fixture of each kind is accepted (an entry that
 * refused everything would pass the test above for nothing). */
static void test_valid_inputs_are_accepted(void **state)
{
    (void)state;
    static const struct {
        const char *target, *file;
    } ok[] = {
        {"workload", NULL},
        {"profile", "profiles/database.ini"},
        {"pts", "pts/iops.ini"},
        {"preset", "profiles/devices/zdrive-6300-1.6t.ini"},
        {"sheet", "specs/zdrive-6300-1.6t.ini"},
        {"fio", "tests/fixtures/fio/jsonplus.json"},
        {"show", "tests/fixtures/results/run-steady-6300/results.json"},
        {"measure", "tests/fixtures/results/run-burst-r4/results.json"},
        {"report", "tests/fixtures/results/run-steady-6300/results.json"},
        {"plot", "tests/fixtures/results/ramp-r4/results.json"},
        {"gate", "tests/fixtures/results/run-steady-6300/results.json"},
    };
    const char *root = getenv("PTSBENCH_DATADIR");
    for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
        const struct fuzz_target *t = fuzz_target_find(ok[i].target);
        assert_non_null(t);
        char *data;
        size_t len;
        if (ok[i].file) {
            char path[4096];
            snprintf(path, sizeof(path), "%s/%s", root && *root ? root : ".", ok[i].file);
            data = slurp_file(path, &len);
            if (!data)
                fail_msg("%s: cannot read", path);
        } else {
            data = strdup("rw=randrw,rwmixread=70,bs=4k,qd=32,workers=4,compress=50");
            len = strlen(data);
        }
        int got = t->run((const uint8_t *)data, len);
        if (got != 0)
            fail_msg("%s: the %s entry refused a valid input", ok[i].file ? ok[i].file : data,
                     t->name);
        free(data);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_saved_input),
        cmocka_unit_test(test_valid_inputs_are_accepted),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
