/* test_terminal.c — what a person sees on a terminal: `ptsbench run-test` on a pseudo-terminal
 * (forkpty), its captured output checked for the purge's lines before and after, WIPC's live
 * progress (bytes written of the target, MB/s, ETA) and its closing line, one line left per
 * finished round, the live line with the likely and the bounded ETA, and MB/s for a test that
 * tracks throughput, and WSAT's ETA from the rate it writes at. Simulated drive, virtual time: nothing here depends on the wall clock
 * (a live line is printed at the first progress tick of every element and step). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <json-c/json.h>
#include <pty.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "helpers.h"

static char *dir;

static int setup(void **state)
{
    (void)state;
    dir = make_temp_dir("term");
    return dir ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    remove_tree(dir);
    free(dir);
    return 0;
}

/* Run ptsbench with argv (argv[0] replaced) on a new pseudo-terminal of 160 x 50; everything
 * it wrote in *out (caller frees); its exit status returned. */
static int run_on_pty(char *argv[], char **out)
{
    struct winsize ws = {.ws_row = 50, .ws_col = 160};
    int master;
    argv[0] = (char *)ptsbench_bin();
    pid_t pid = forkpty(&master, NULL, NULL, &ws);
    if (pid < 0)
        return -1;
    if (pid == 0) {
        execv(argv[0], argv);
        _exit(127);
    }
    size_t len = 0, cap = 1 << 16;
    char *buf = malloc(cap);
    for (;;) {
        if (len + 4096 + 1 > cap)
            buf = realloc(buf, cap *= 2);
        ssize_t n = read(master, buf + len, 4096);
        if (n > 0) {
            len += (size_t)n;
            continue;
        }
        if (n < 0 && errno == EINTR)
            continue;
        break;   /* EIO: the child closed the terminal */
    }
    buf[len] = '\0';
    close(master);
    int st;
    waitpid(pid, &st, 0);
    *out = buf;
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static unsigned count(const char *hay, const char *needle)
{
    unsigned n = 0;
    for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
        n++;
    return n;
}

/* The text of the line holding needle (from the last "\r" or "\n" before it to the end). */
static void line_of(const char *hay, const char *needle, char *buf, size_t len)
{
    const char *p = strstr(hay, needle);
    buf[0] = '\0';
    if (!p)
        return;
    const char *a = p;
    while (a > hay && a[-1] != '\r' && a[-1] != '\n')
        a--;
    size_t n = strcspn(a, "\r\n");
    snprintf(buf, len, "%.*s", (int)(n < len ? n : len - 1), a);
}

static void test_iops_on_a_terminal(void **state)
{
    (void)state;
    char out_dir[600], results[700];
    snprintf(out_dir, sizeof(out_dir), "%s/iops", dir);
    snprintf(results, sizeof(results), "%s/results.json", out_dir);
    char *argv[] = {"ptsbench", "run-test", "iops", "--target", "sim:zdrive-6300-1.6t",
                    "--round-time", "5s", "--out", out_dir, NULL};
    char *out = NULL;
    assert_int_equal(run_on_pty(argv, &out), 0);
    char line[1024];

    /* the purge: before and after, no invented percentage */
    assert_non_null(strstr(out, "purge: running secure-erase"));
    assert_non_null(strstr(out, "(no progress reported by the drive)"));
    /* instant (or nearly, on a busy machine): no "after 0 s" */
    assert_true(strstr(out, "\npurge: done (under 0.1 s)") || strstr(out, "\npurge: done in 0."));
    assert_null(strstr(out, "purge: done after 0 s"));

    /* WIPC's live line: bytes written of the target, rate, ETA; then its closing line */
    line_of(out, "  WIPC: ", line, sizeof(line));
    print_message("WIPC live line: %s\n", line);
    assert_non_null(strstr(line, " / 3.20 TB written ("));
    assert_non_null(strstr(line, " MB/s, ETA "));
    assert_non_null(strstr(line, "(simulated, virtual time)"));
    assert_non_null(strstr(out, "\r\033[K  WIPC: "));
    line_of(out, " written in ", line, sizeof(line));
    assert_non_null(strstr(line, "WIPC: 3.20 TB"));
    assert_non_null(strstr(line, " MB/s (simulated"));

    /* one line left per finished round: as many as the results hold, each ended by a newline */
    struct json_object *doc = load_json(results);
    assert_non_null(doc);
    struct json_object *rounds = json_at(doc, "tests.0.subtests.0.rounds");
    assert_non_null(rounds);
    const unsigned n = (unsigned)json_object_array_length(rounds);
    assert_true(n >= 5);
    for (unsigned r = 1; r <= n; r++) {
        char want[64];
        snprintf(want, sizeof(want), "  [iops] round %u: 56 elements", r);
        assert_int_equal(count(out, want), 1);
        line_of(out, want, line, sizeof(line));
        const char *end = strstr(out, want) + strlen(line) - (strstr(line, want) - line);
        assert_true(end[0] == '\r' || end[0] == '\n');   /* the line was finished */
    }
    char beyond[64];
    snprintf(beyond, sizeof(beyond), "  [iops] round %u:", n + 1);
    assert_null(strstr(out, beyond));

    /* the live line: rounds, elements, the likely ETA beside the bound, inside an element */
    line_of(out, "[iops] round 1/25  element 1/56", line, sizeof(line));
    print_message("live line: %s\n", line);
    assert_non_null(strstr(line, " IOPS (simulated)"));
    assert_non_null(strstr(line, "(steady at round 5), at most "));
    assert_non_null(strstr(out, "\r\033[K[iops] r100-rnd-4KiB"));
    line_of(out, "[iops] r100-rnd-4KiB", line, sizeof(line));
    assert_non_null(strstr(line, "% of 5 s: "));
    {   /* "virtual" once: the meter's "(simulated, virtual time)", not again after the ETAs */
        const char *v = strstr(line, "virtual");
        assert_non_null(v);
        assert_null(strstr(v + 1, "virtual"));
    }

    /* the plan: the likely case beside the bound */
    assert_non_null(strstr(out, "estimated duration: about "));
    json_object_put(doc);
    free(out);
}

/* TP tracks MB/s: its live line says MB/s, not IOPS. */
static void test_tp_shows_mb_s(void **state)
{
    (void)state;
    char out_dir[600];
    snprintf(out_dir, sizeof(out_dir), "%s/tp", dir);
    char *argv[] = {"ptsbench", "run-test", "tp", "--target", "sim:zdrive-6300-1.6t",
                    "--round-time", "2s", "--max-rounds", "5", "--out", out_dir, NULL};
    char *out = NULL;
    assert_int_equal(run_on_pty(argv, &out), 0);
    char line[1024];
    line_of(out, "[tp] round 1/5  element 1/", line, sizeof(line));
    print_message("live line: %s\n", line);
    assert_non_null(strstr(line, " MB/s (simulated)"));
    assert_null(strstr(line, " IOPS"));
    free(out);
}

/* Seconds of an ETA as live_format_eta writes it ("1 h 05 min", "5 min", "40 s"); -1 if none. */
static double eta_seconds(const char *line)
{
    const char *p = strstr(line, "ETA ");
    if (!p)
        return -1;
    p += 4;
    double h = 0, m = 0, sec = 0;
    if (sscanf(p, "%lf h %lf min", &h, &m) == 2)
        return h * 3600 + m * 60;
    if (strstr(p, " min") && sscanf(p, "%lf min", &m) == 1)
        return m * 60;
    if (sscanf(p, "%lf s", &sec) == 1)
        return sec;
    return -1;
}

/* WSAT stops at a capacity: the plan says its length is the drive's; the ETA after the first
 * round is the capacity left at the rate written, which on the fresh drive (no write cliff
 * before 0.3x the capacity) is within 20% of the rounds it then ran. */
static void test_wsat_eta_follows_the_rate(void **state)
{
    (void)state;
    char out_dir[600];
    snprintf(out_dir, sizeof(out_dir), "%s/wsat", dir);
    char *argv[] = {"ptsbench", "run-test", "wsat", "--target", "sim:zdrive-r4-cm88-1.6t",
                    "--time-scale", "0.05", "--wsat-capacity", "0.3", "--out", out_dir, NULL};
    char *out = NULL;
    assert_int_equal(run_on_pty(argv, &out), 0);
    assert_non_null(strstr(out, "the ETA follows its measured rate"));
    char line[1024];
    line_of(out, "[wsat] round 1  element 1/1", line, sizeof(line));
    print_message("round 1: %s\n", line);
    assert_non_null(strstr(line, "(the capacity left at "));
    const double eta = eta_seconds(line);
    char path[700];
    snprintf(path, sizeof(path), "%s/results.json", out_dir);
    struct json_object *doc = json_object_from_file(path);
    assert_non_null(doc);
    struct json_object *t = json_object_array_get_idx(json_at(doc, "tests"), 0);
    struct json_object *sub = json_object_array_get_idx(json_at(t, "subtests"), 0);
    const size_t rounds = json_object_array_length(json_at(sub, "rounds"));
    const double left = (double)(rounds - 1) * json_num(t, "element_time_s");
    print_message("ETA after round 1: %.0f s; then %zu rounds: %.0f s\n", eta, rounds - 1, left);
    assert_true(rounds > 20);
    assert_true(eta > 0.8 * left && eta < 1.2 * left);
    json_object_put(doc);
    free(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_iops_on_a_terminal),
        cmocka_unit_test(test_tp_shows_mb_s),
        cmocka_unit_test(test_wsat_eta_follows_the_rate),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
