/* bench_engines.c — `make bench`: ptsbench's io_uring engine vs fio's io_uring engine on the same
 * target (a 1 GiB zram device of its own, 4 KiB random read, QD 32, 1 worker, 10 s each),
 * alternating twice, printing each IOPS figure and the ratio ptsbench/fio.  Goal: ratio >= 1.0.
 * A benchmark, not a test: it prints, it does not pass or fail on speed.  Needs root and zram;
 * says so and exits 0 otherwise.  The device is removed on every way out (see zram_create in
 * tests/helpers.h: also on exit, SIGINT, SIGTERM; not on SIGKILL). */
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"

static double ptsbench_iops(const char *dev, const char *dir, int i, const char *secs)
{
    char out[512], results[600];
    snprintf(out, sizeof(out), "%s/ptsbench-%d", dir, i);
    char *argv[] = {(char *)ptsbench_bin(), "run", "--target", (char *)dev, "--workload",
                    "rw=randread,bs=4k,qd=32,workers=1", "--rounds", "1", "--round-time",
                    (char *)secs, "--quiet", "--out", out, NULL};
    struct cmd_result r;
    if (run_cmd(argv, &r) != 0 || r.status != 0) {
        fprintf(stderr, "ptsbench failed: %s\n", r.errout);
        cmd_result_free(&r);
        return -1;
    }
    cmd_result_free(&r);
    snprintf(results, sizeof(results), "%s/results.json", out);
    struct json_object *doc = load_json(results);
    double v = doc ? json_num(doc, "rounds.0.total.iops") : -1;
    if (doc)
        json_object_put(doc);
    return v;
}

static double fio_iops(const char *dev, const char *secs)
{
    char filename[128], runtime[64];
    snprintf(filename, sizeof(filename), "--filename=%s", dev);
    snprintf(runtime, sizeof(runtime), "--runtime=%s", secs);
    char *argv[] = {"fio", "--name=bench", filename, "--ioengine=io_uring", "--direct=1",
                    "--rw=randread", "--bs=4k", "--iodepth=32", "--numjobs=1", runtime,
                    "--time_based", "--output-format=json", NULL};
    struct cmd_result r;
    if (run_cmd(argv, &r) != 0 || r.status != 0) {
        fprintf(stderr, "fio failed: %s\n", r.errout);
        cmd_result_free(&r);
        return -1;
    }
    const char *start = strchr(r.out, '{');   /* fio may print text before its JSON */
    struct json_object *doc = start ? json_tokener_parse(start) : NULL;
    double v = doc ? json_num(doc, "jobs.0.read.iops") : -1;
    if (doc)
        json_object_put(doc);
    cmd_result_free(&r);
    return v;
}

int main(int argc, char **argv)
{
    const char *secs = argc > 1 ? argv[1] : "10";
    char dev[64];
    printf("bench: ptsbench io_uring vs fio io_uring, zram, 4 KiB random read, QD 32, 1 worker, %s s each\n",
           secs);
    if (!zram_create("1G", dev, sizeof(dev))) {
        printf("bench: skipped (zram unavailable)\n");
        return 0;
    }
    char *dir = make_temp_dir("bench");
    if (!dir) {
        perror("bench: temporary directory");
        zram_remove(dev);
        return 1;
    }
    /* Fill the device once so reads return stored (compressed) data, not unmapped zeros. */
    char out[512];
    snprintf(out, sizeof(out), "%s/fill", dir);
    char *fill[] = {(char *)ptsbench_bin(), "run", "--target", dev, "--destructive", "--workload",
                    "rw=write,bs=1m,qd=8", "--round-bytes", "1g", "--rounds", "1", "--quiet",
                    "--out", out, NULL};
    if (run_quiet(fill) != 0) {
        fprintf(stderr, "bench: fill failed\n");
        zram_remove(dev);
        remove_tree(dir);
        free(dir);
        return 1;
    }
    double sum_p = 0, sum_f = 0;
    int ok = 1;
    for (int i = 0; i < 2; i++) {
        double p = ptsbench_iops(dev, dir, i, secs);
        double f = fio_iops(dev, secs);
        if (p <= 0 || f <= 0) {
            ok = 0;
            break;
        }
        printf("  pass %d: ptsbench %10.0f IOPS   fio %10.0f IOPS   ratio %.3f\n", i + 1, p, f, p / f);
        sum_p += p;
        sum_f += f;
    }
    if (ok)
        printf("bench: mean ptsbench %.0f IOPS, fio %.0f IOPS, ratio ptsbench/fio %.3f (goal >= 1.0)\n",
               sum_p / 2, sum_f / 2, sum_p / sum_f);
    zram_remove(dev);
    remove_tree(dir);
    free(dir);
    return ok ? 0 : 1;
}
