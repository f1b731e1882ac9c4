/* bench_harness.c — `make bench`: the harness's own time between two elements of a PTS test
 * (issue 20 point 4): the LAT test with 1-second elements for 2 rounds on a
 * 1 GiB zram device of its own. The suite records per test `loop_s` (its elements and what lies
 * between them: engine and pool set-up, the results written after each element; the in-flight
 * I/O drained after each element's end is `drain_s`, apart); the gap per element is
 * loop_s / elements - element_time_s. Printed beside the goals: under 5 % of a 1-second element
 * and under 1 % of a 1-minute one. A benchmark: it prints, it does not pass or fail. Needs root
 * and zram; says so and exits 0 otherwise. */
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"

int main(void)
{
    char dev[64];
    if (!zram_create("1G", dev, sizeof(dev))) {
        printf("bench_harness: skipped (no zram device could be made)\n");
        return 0;
    }
    char *dir = make_temp_dir("bench-harness");
    if (!dir) {
        zram_remove(dev);
        return 1;
    }
    char out[4096];
    snprintf(out, sizeof(out), "%s/lat", dir);
    char *argv[] = {(char *)ptsbench_bin(), "run-test", "lat", "--target", dev, "--destructive",
                    "--round-time", "1", "--max-rounds", "2", "--quiet", "--out", out, NULL};
    struct cmd_result r;
    const uint64_t t0 = test_now_ns();
    int rc = run_cmd(argv, &r);
    const double wall = (double)(test_now_ns() - t0) / 1e9;
    if (rc != 0 || r.status != 0) {
        fprintf(stderr, "bench_harness: ptsbench run-test lat failed: %s\n", rc ? "" : r.errout);
        if (rc == 0)
            cmd_result_free(&r);
        zram_remove(dev);
        remove_tree(dir);
        free(dir);
        return 1;
    }
    cmd_result_free(&r);
    char path[4200];
    snprintf(path, sizeof(path), "%s/results.json", out);
    struct json_object *doc = load_json(path);
    struct json_object *rounds = doc ? json_at(doc, "tests.0.subtests.0.rounds") : NULL;
    unsigned elements = 0;
    for (size_t i = 0; rounds && i < json_object_array_length(rounds); i++) {
        struct json_object *e = json_at(json_object_array_get_idx(rounds, i), "elements");
        elements += e ? (unsigned)json_object_array_length(e) : 0;
    }
    const double loop = doc ? json_num(doc, "tests.0.loop_s") : 0;
    const double drain = doc ? json_num(doc, "tests.0.drain_s") : 0;
    const double elem = doc ? json_num(doc, "tests.0.element_time_s") : 0;
    if (!elements || !(elem > 0)) {
        fprintf(stderr, "bench_harness: no elements in %s\n", path);
    } else {
        const double gap = loop / elements - elem;
        printf("bench_harness: LAT test on %s, %u elements of %.0f s: loop %.2f s, drains %.2f s, "
               "whole command %.1f s\n", dev, elements, elem, loop, drain, wall);
        printf("  between two elements: %.1f ms (engine and pool set-up, results written)\n",
               gap * 1e3);
        printf("  of a 1-second element: %.2f %% (goal < 5 %%); of a 1-minute element: %.3f %% "
               "(goal < 1 %%)\n", 100 * gap / 1.0, 100 * gap / 60.0);
        printf("  with the drain after each element: %.1f ms, %.2f %% of 1 s\n",
               (gap + drain / elements) * 1e3, 100 * (gap + drain / elements));
    }
    if (doc)
        json_object_put(doc);
    zram_remove(dev);
    remove_tree(dir);
    free(dir);
    return 0;
}
