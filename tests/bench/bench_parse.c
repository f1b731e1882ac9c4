/* bench_parse.c — how the profile loader and planner scale with the number of sections: a
 * profile of N workloads (N = 500, 2,000, 8,000) loaded in process (profile_load) and planned
 * end to end (`ptsbench profile FILE --target sim:generic-mlc25 --dry-run`). Linear: 4x the
 * sections, about 4x the time. Before the loader parsed the file once, 2,000 sections planned
 * in 8.7 s (each section re-parsed the whole file, each section lookup compared every name).
 * A benchmark, not a test: it prints figures and exits 0 (tests/unit/test_input_defects.c
 * asserts the operation counts). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lib/ini.h"
#include "profile/profile.h"
#include "lib/util.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int write_profile(const char *path, unsigned n)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    fprintf(f, "; %u workloads\n[global]\nrw=randread\nbs=4k\nruntime=1s\nprecondition=none\n",
            n);
    for (unsigned i = 0; i < n; i++)
        fprintf(f, "[w%u]\nqd=%u\n\n", i, 1 + i % 32);
    return fclose(f);
}

/* `ptsbench profile PATH --target sim:generic-mlc25 --dry-run`, output discarded; seconds. */
static double plan(const char *ptsbench, const char *path)
{
    fflush(stdout);
    double t0 = now_s();
    pid_t pid = fork();
    if (pid == 0) {
        if (!freopen("/dev/null", "w", stdout))
            _exit(127);
        char *argv[] = {(char *)ptsbench, "profile", (char *)path, "--target",
                        "sim:generic-mlc25", "--dry-run", NULL};
        execv(ptsbench, argv);
        _exit(127);
    }
    int st = 0;
    waitpid(pid, &st, 0);
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
        return -1;
    return now_s() - t0;
}

int main(void)
{
    const char *ptsbench = getenv("PTSBENCH");
    if (!ptsbench || !*ptsbench)
        ptsbench = "build/ptsbench";
    char tmpl[] = "/var/tmp/ptsbench-bench-parse-XXXXXX";
    char *dir = mkdtemp(tmpl);
    if (!dir) {
        perror("bench_parse: mkdtemp");
        return 1;
    }
    printf("bench: profiles of many sections (load in process; plan = ptsbench profile "
           "--dry-run)\n");
    static const unsigned sizes[] = {500, 2000, 8000};
    for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
        char path[4200];
        snprintf(path, sizeof(path), "%s/p%u.ini", dir, sizes[i]);
        if (write_profile(path, sizes[i]) != 0) {
            perror("bench_parse: write");
            return 1;
        }
        struct profile p;
        char err[ERR_LEN];
        unsigned long lines = ini_lines_parsed();
        double t0 = now_s();
        if (profile_load(path, NULL, &p, err, sizeof(err)) != 0) {
            fprintf(stderr, "bench_parse: %s\n", err);
            return 1;
        }
        double load = now_s() - t0;
        lines = ini_lines_parsed() - lines;
        profile_free(&p);
        double planned = plan(ptsbench, path);
        printf("  %5u sections: load %7.1f ms (%lu lines parsed), plan %7.1f ms%s\n", sizes[i],
               load * 1e3, lines, planned * 1e3, planned < 0 ? " (ptsbench failed)" : "");
        unlink(path);
    }
    rmdir(dir);
    return 0;
}
