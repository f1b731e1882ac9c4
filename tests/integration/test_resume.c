/* test_resume.c — a run killed at any moment loses nothing it reported, and --resume finishes it.
 *
 * 30 SIGKILLs at random moments (a fixed seed, printed) across `run`, `suite` and `profile`, five
 * each on the simulated Z-Drive 6300 and on a zram device the test creates (a file when there is
 * no zram). For each kill:
 *   - every round the console had printed as complete before the kill is in results.json (run:
 *     "round N/M" lines; suite: "[TEST] round N:" lines; profile: a point's "round N/M" lines and
 *     its summary line);
 *   - the file is whole JSON with status "running" and a writer that is no longer alive: `gate`
 *     refuses it, naming it dead;
 *   - `--resume DIR` exits 0 and the results then have the structure of an uninterrupted run of
 *     the same command (run: the same rounds; suite: the same tests, subtests and rounds per
 *     subtest; profile: the same points, each complete with the same number of rounds).
 * The configurations are small and fixed in length (fixed rounds, --max-rounds) so that the
 * structure does not depend on the device's speed. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <fcntl.h>
#include <json-c/json.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "helpers.h"

static char *dir;
static char zdev[64];
static bool have_zram;

static int setup(void **state)
{
    (void)state;
    dir = make_temp_dir("resume");
    if (!dir)
        return -1;
    have_zram = zram_create("128M", zdev, sizeof(zdev));
    if (!have_zram) {
        printf("no zram: the real-target cases use a file\n");
        snprintf(zdev, sizeof(zdev), "%s/target.img", dir);
    }
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    if (have_zram)
        zram_remove(zdev);
    remove_tree(dir);
    free(dir);
    return 0;
}

enum kind { K_RUN, K_SUITE, K_PROFILE };

struct config {
    const char *name;
    enum kind kind;
    bool sim;
    const char *const *args;   /* after the binary, before "-o DIR" */
};

#define SIM "sim:zdrive-6300-1.6t"

static const char *const run_sim[] = {"run", "--target", SIM, "--workload",
    "rw=randwrite,bs=4k,qd=32", "--rounds", "12", "--round-time", "60", "--all-rounds", NULL};
static const char *const suite_sim[] = {"suite", "--tests", "lat,wsat", "--target", SIM,
    "--round-time", "5s", "--wsat-capacity", "0.15", NULL};
static const char *const profile_sim[] = {"profile", "qd-ramp-4k-write", "--target", SIM,
    "--qd", "4,32", "--workers", "1", "--precondition", "wipc", "--rounds", "3",
    "--round-time", "30s", NULL};
/* @TARGET: the zram device the test made (or its file) */
static const char *const run_real[] = {"run", "--target", "@TARGET", "--workload",
    "rw=randwrite,bs=4k,qd=8", "--rounds", "5", "--round-time", "0.1s", "--all-rounds",
    "--destructive", NULL};
static const char *const suite_real[] = {"run-test", "lat", "--target", "@TARGET",
    "--round-time", "0.03s", "--max-rounds", "5", "--purge", "none", "--destructive", NULL};
static const char *const profile_real[] = {"profile", "qd-ramp-4k-write", "--target", "@TARGET",
    "--qd", "4,16", "--workers", "1", "--precondition", "wipc", "--rounds", "2",
    "--round-time", "0.1s", "--destructive", NULL};

static struct config configs[6] = {
    {"run-sim", K_RUN, true, run_sim},
    {"suite-sim", K_SUITE, true, suite_sim},
    {"profile-sim", K_PROFILE, true, profile_sim},
    {"run-real", K_RUN, false, run_real},
    {"suite-real", K_SUITE, false, suite_real},
    {"profile-real", K_PROFILE, false, profile_real},
};

/* argv of config c into DIR/out (NULL-terminated, pointers into static storage) */
static void build_argv(const struct config *c, const char *out, char **argv)
{
    size_t n = 0;
    argv[n++] = (char *)ptsbench_bin();
    for (size_t i = 0; c->args[i]; i++)
        argv[n++] = (char *)(strcmp(c->args[i], "@TARGET") ? c->args[i] : zdev);
    if (!c->sim && !have_zram) {   /* a file target: created at the first run */
        argv[n++] = "--size";
        argv[n++] = "64m";
    }
    argv[n++] = "-o";
    argv[n++] = (char *)out;
    argv[n] = NULL;
}

/* Run argv, kill it with SIGKILL after kill_s (or let it end when kill_s < 0); its stdout up to
 * then in *out (caller frees). Returns the wait status. */
static int run_and_kill(char **argv, double kill_s, char **out)
{
    int p[2];
    assert_int_equal(pipe(p), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        dup2(p[1], 1);
        int null = open("/dev/null", O_WRONLY);
        if (null >= 0)
            dup2(null, 2);
        close(p[0]);
        execv(argv[0], argv);
        _exit(127);
    }
    close(p[1]);
    size_t cap = 65536, len = 0;
    char *buf = malloc(cap);
    double t0 = (test_now_ns() / 1e9);
    bool killed = false;
    for (;;) {
        double left = kill_s >= 0 ? kill_s - ((test_now_ns() / 1e9) - t0) : 60;
        if (kill_s >= 0 && left <= 0 && !killed) {
            kill(pid, SIGKILL);
            killed = true;
        }
        struct pollfd pf = {.fd = p[0], .events = POLLIN};
        int r = poll(&pf, 1, killed ? 100 : (int)(left * 1000) + 1);
        if (r > 0) {
            if (len + 4096 > cap)
                buf = realloc(buf, cap *= 2);
            ssize_t got = read(p[0], buf + len, cap - len - 1);
            if (got <= 0)
                break;   /* EOF: the process is gone (or closed stdout) */
            if (!killed)
                len += (size_t)got;   /* what was printed before the kill */
        }
    }
    close(p[0]);
    int st;
    waitpid(pid, &st, 0);
    buf[len] = '\0';
    *out = buf;
    return st;
}

/* The structure of a results file: a string like "R40" (run: rounds), "lat:5|wsat:17"
 * (suite: tests and their subtests' rounds), "P3:2,2,2" (profile: points and rounds). */
static size_t alen(struct json_object *o, const char *path)
{
    struct json_object *a = path ? json_at(o, path) : o;
    return json_object_is_type(a, json_type_array) ? json_object_array_length(a) : 0;
}

static const char *sget(struct json_object *o, const char *path)
{
    const char *v = json_object_get_string(json_at(o, path));
    return v ? v : "?";
}

static void structure(struct json_object *doc, enum kind k, char *buf, size_t len)
{
    buf[0] = '\0';
    size_t o = 0;
    if (k == K_RUN) {
        snprintf(buf, len, "R%zu", alen(doc, "rounds"));
    } else if (k == K_SUITE) {
        struct json_object *ts = json_at(doc, "tests");
        for (size_t i = 0; i < alen(ts, NULL); i++) {
            struct json_object *t = json_object_array_get_idx(ts, i);
            o += (size_t)snprintf(buf + o, len - o, "%s%s(%s):", i ? "|" : "", sget(t, "name"),
                                  sget(t, "status"));
            struct json_object *subs = json_at(t, "subtests");
            for (size_t j = 0; j < alen(subs, NULL); j++)
                o += (size_t)snprintf(buf + o, len - o, "%s%zu", j ? "," : "",
                                      alen(json_object_array_get_idx(subs, j), "rounds"));
        }
    } else {
        struct json_object *ps = json_at(doc, "points");
        o += (size_t)snprintf(buf + o, len - o, "P%zu:", alen(ps, NULL));
        for (size_t i = 0; i < alen(ps, NULL); i++) {
            struct json_object *p = json_object_array_get_idx(ps, i);
            o += (size_t)snprintf(buf + o, len - o, "%s%s%zu", i ? "," : "",
                                  strcmp(sget(p, "status"), "complete") ? "!" : "",
                                  alen(p, "rounds"));
        }
    }
}

/* Whether the console reported any round or point complete: "round N/M" (run, profile),
 * "[TEST] round N:" (suite), a point's "(effective QD" line. Not the plan's header, which names
 * rounds too ("rounds  up to 12 of 60 s") and is printed before the first write. */
static bool reported_any(const char *out)
{
    unsigned n;
    char sep;
    for (const char *l = out; (l = strstr(l, "round ")); l++)
        if (sscanf(l, "round %u%c", &n, &sep) == 2 && (sep == '/' || sep == ':'))
            return true;
    return strstr(out, "(effective QD") != NULL;
}

/* Every round the console reported complete is in the file. */
static void check_printed(const struct config *c, const char *out, struct json_object *doc)
{
    if (c->kind == K_RUN) {
        unsigned last = 0, n;
        for (const char *l = out; (l = strstr(l, "round ")); l++)
            if (sscanf(l, "round %u/", &n) == 1 && n > last)
                last = n;
        size_t have = alen(doc, "rounds");
        if (have < last)
            fail_msg("%s: round %u was printed, the file holds %zu", c->name, last, have);
    } else if (c->kind == K_SUITE) {
        struct json_object *ts = json_at(doc, "tests");
        for (size_t i = 0; i < alen(ts, NULL); i++) {
            struct json_object *t = json_object_array_get_idx(ts, i);
            char pat[64];
            snprintf(pat, sizeof(pat), "[%s] round ", sget(t, "name"));
            unsigned last = 0, n;
            for (const char *l = out; (l = strstr(l, pat)); l++)
                if (sscanf(l + strlen(pat), "%u:", &n) == 1 && n > last)
                    last = n;
            struct json_object *subs = json_at(t, "subtests");
            size_t ns = alen(subs, NULL);
            size_t have = ns ? alen(json_object_array_get_idx(subs, ns - 1), "rounds") : 0;
            if (have < last)
                fail_msg("%s: %s round %u was printed, the file holds %zu", c->name, pat, last,
                         have);
        }
    } else {
        /* points reported complete ("(effective QD") are complete in the file, and the round
         * lines printed are no more than the rounds the file holds */
        unsigned done = 0, lines = 0;
        for (const char *l = out; (l = strstr(l, "(effective QD")); l++)
            done++;
        for (const char *l = out; (l = strstr(l, " round ")); l++)
            lines++;
        struct json_object *ps = json_at(doc, "points");
        unsigned complete = 0, rounds = 0;
        for (size_t i = 0; i < alen(ps, NULL); i++) {
            struct json_object *p = json_object_array_get_idx(ps, i);
            complete += !strcmp(sget(p, "status"), "complete");
            rounds += (unsigned)alen(p, "rounds");
        }
        if (complete < done || rounds < lines)
            fail_msg("%s: %u points and %u rounds printed, the file holds %u complete points and "
                     "%u rounds", c->name, done, lines, complete, rounds);
    }
}

static void test_kills(void **state)
{
    (void)state;
    unsigned seed = (unsigned)time(NULL);
    if (getenv("PTSBENCH_TEST_SEED"))
        seed = (unsigned)strtoul(getenv("PTSBENCH_TEST_SEED"), NULL, 10);
    print_message("seed %u (PTSBENCH_TEST_SEED=%u repeats it)\n", seed, seed);
    srand(seed);
    char ref[6][512];
    double dur[6];
    for (int c = 0; c < 6; c++) {   /* an uninterrupted run of each: structure and duration */
        char out[700], *argv[40], *text;
        snprintf(out, sizeof(out), "%s/ref-%s", dir, configs[c].name);
        build_argv(&configs[c], out, argv);
        double t0 = (test_now_ns() / 1e9);
        int st = run_and_kill(argv, -1, &text);
        dur[c] = (test_now_ns() / 1e9) - t0;
        free(text);
        assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
        char path[800];
        snprintf(path, sizeof(path), "%s/results.json", out);
        struct json_object *doc = load_json(path);
        assert_non_null(doc);
        structure(doc, configs[c].kind, ref[c], sizeof(ref[c]));
        json_object_put(doc);
        print_message("  %-12s uninterrupted: %s in %.2f s\n", configs[c].name, ref[c], dur[c]);
    }
    unsigned killed_mid = 0;
    for (int k = 0; k < 30; k++) {
        const struct config *c = &configs[k % 6];
        char out[700], *argv[40], *text;
        snprintf(out, sizeof(out), "%s/kill-%02d-%s", dir, k, c->name);
        build_argv(c, out, argv);
        double at = 0.05 + (dur[k % 6] * 0.9) * ((double)rand() / RAND_MAX);
        int st = run_and_kill(argv, at, &text);
        char path[800];
        snprintf(path, sizeof(path), "%s/results.json", out);
        struct json_object *doc = load_json(path);
        bool died = WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL;
        if (!doc) {   /* killed before the first write: nothing was reported either */
            if (reported_any(text))
                fail_msg("%s: killed before results.json was written, but it had printed:\n%s",
                         c->name, text);
            free(text);
            continue;
        }
        check_printed(c, text, doc);
        free(text);
        const char *status = sget(doc, "status");
        /* killed after its last write (a sanitizer's leak check at exit takes a while): the run
         * had ended, and --resume says there is nothing to do */
        const bool ended = died && status && !strcmp(status, "complete");
        if (died && !ended) {
            killed_mid++;
            assert_string_equal(status, "running");
            /* gate will not take it */
            char *gate[] = {(char *)ptsbench_bin(), "gate", "--baseline", out, "--current", out,
                            NULL};
            struct cmd_result gr;
            assert_int_equal(run_cmd(gate, &gr), 0);
            /* 1: refused as not complete; 2: no figure in it yet (and why) */
            assert_true(gr.status == 1 || gr.status == 2);
            if (!strstr(gr.errout, "not running"))
                fail_msg("%s: gate on the killed run: %s", c->name, gr.errout);
            cmd_result_free(&gr);
        }
        json_object_put(doc);
        char *resume[] = {(char *)ptsbench_bin(), c->kind == K_RUN ? "run"
                          : c->kind == K_SUITE ? "suite" : "profile",
                          "--resume", out, "--quiet", NULL};
        struct cmd_result r;
        assert_int_equal(run_cmd(resume, &r), 0);
        if (r.status != 0)
            fail_msg("%s killed at %.2f s: --resume exited %d: %s", c->name, at, r.status,
                     r.errout);
        const bool nothing = strstr(r.out, "nothing to resume") != NULL;
        cmd_result_free(&r);
        doc = load_json(path);
        assert_non_null(doc);
        assert_string_equal(sget(doc, "status"), "complete");
        char got[512];
        structure(doc, c->kind, got, sizeof(got));
        if (strcmp(got, ref[k % 6]) != 0)
            fail_msg("%s killed at %.2f s, resumed: %s, uninterrupted %s", c->name, at, got,
                     ref[k % 6]);
        if (died && !ended)
            assert_non_null(json_at(doc, "resumed"));
        if (ended)
            assert_true(nothing);
        json_object_put(doc);
    }
    print_message("  30 runs, %u killed before they ended, each resumed to the uninterrupted "
                  "structure\n", killed_mid);
    assert_true(killed_mid >= 15);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kills),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
