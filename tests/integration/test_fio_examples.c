/* test_fio_examples.c — fio's 107 example job files (tests/fixtures/fio-examples/) against the
 * outcomes expected of them (expected.tsv there; issue 47). Each file is run as
 *   ptsbench run --target sim:zdrive-6300-1.6t --workload FILE --rounds 1 --round-time 1
 * (virtual time: a second of the simulated drive), eight at a time (each mostly waits), and its outcome judged by
 * the rule of the table's `want` and `names` columns:
 *   - runs: it must run (exit 0);
 *   - refused: exit 2, one line, naming one of `names` (the engine or option) as a word; never
 *     "unknown key" for a key fio knows (a name written new:KEY is one fio 3.33 does not know,
 *     so "unknown key 'KEY'" is a right refusal of it), never "several jobs";
 *   - runs-or-refused: either (out of the scope, fine to refuse with the reason);
 *   - anything else (a crash, a timeout, another exit status, a run of a file it must refuse)
 *     is broken.
 * Outcomes rank broken < wrong (a refusal that breaks the rule) < right. The `today` column
 * records what main did when the table was written; a file may not rank below its today (the
 * test fails when an outcome gets worse) and one that ranks above is printed as "tighten"
 * (scripts/fio-examples.py --expected TSV --update rewrites the column). About 2 s. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "helpers.h"

#define MAX_ROWS 200
#define PARALLEL 8
#define TIMEOUT_MS 60000

enum rank { BROKEN, WRONG, RIGHT };
static const char *const rank_word[] = {"broken", "wrong", "right"};

struct row {
    char file[128];
    char want[32];      /* runs, refused, runs-or-refused */
    char names[256];    /* comma-separated; new:KEY for a key fio 3.33 does not know */
    char today[512];    /* runs | refused: LINE | broken: WHY */
    char now[512];      /* the same, from this run */
};

static struct row rows[MAX_ROWS];
static size_t n_rows;
static char *dir;

/* ---- the rule -------------------------------------------------------------------------- */

/* Whether word occurs in text with no letter, digit or '_' on either side. */
static bool has_word(const char *text, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = strstr(text, word); p && n; p = strstr(p + 1, word)) {
        bool left = p == text || !(isalnum((unsigned char)p[-1]) || p[-1] == '_' || p[-1] == '-');
        char c = p[n];
        bool right = !(isalnum((unsigned char)c) || c == '_' || c == '-');
        if (left && right)
            return true;
    }
    return false;
}

/* Whether names (comma-separated) holds NAME, or new:NAME when fio_new. */
static bool names_hold(const char *names, const char *name, bool fio_new)
{
    char buf[256];
    snprintf(buf, sizeof(buf), "%s", names);
    for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        bool is_new = strncmp(t, "new:", 4) == 0;
        if (is_new == fio_new && strcmp(is_new ? t + 4 : t, name) == 0)
            return true;
    }
    return false;
}

/* Whether the refusal names one of names (new:KEY counts as KEY). */
static bool names_one(const char *names, const char *line)
{
    char buf[256];
    snprintf(buf, sizeof(buf), "%s", names);
    for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save))
        if (has_word(line, strncmp(t, "new:", 4) == 0 ? t + 4 : t))
            return true;
    return false;
}

/* The rank of an outcome ("runs", "refused: LINE", "broken: WHY") under row r's rule. */
static enum rank judge(const struct row *r, const char *outcome)
{
    bool may_run = strcmp(r->want, "runs") == 0 || strcmp(r->want, "runs-or-refused") == 0;
    if (strcmp(outcome, "runs") == 0)
        return may_run ? RIGHT : BROKEN;
    if (strncmp(outcome, "refused: ", 9) != 0)
        return BROKEN;
    const char *line = outcome + 9;
    if (strcmp(r->want, "runs") == 0 || strstr(line, "fio runs them at once") ||
        strstr(line, "several jobs"))
        return WRONG;
    const char *uk = strstr(line, "unknown key '");
    if (uk) {
        char key[128];
        if (sscanf(uk + 13, "%127[^']", key) != 1)
            return WRONG;
        return names_hold(r->names, key, true) ? RIGHT : WRONG;
    }
    return names_one(r->names, line) ? RIGHT : WRONG;
}

/* ---- the table ------------------------------------------------------------------------- */

static void load_table(void)
{
    const char *path = test_fixture_path("fio-examples/expected.tsv");
    FILE *f = fopen(path, "r");
    if (!f)
        fail_msg("cannot open %s", path);
    char line[2048];
    n_rows = 0;
    while (fgets(line, sizeof(line), f)) {
        line[strcspn(line, "\n")] = 0;
        if (!line[0] || line[0] == '#')
            continue;
        assert_true(n_rows < MAX_ROWS);
        struct row *r = &rows[n_rows];
        memset(r, 0, sizeof(*r));
        char *cols[4] = {NULL};
        char *p = line;
        for (int k = 0; k < 4; k++) {
            cols[k] = p;
            char *tab = p ? strchr(p, '\t') : NULL;
            if (tab)
                *tab = 0;
            p = tab ? tab + 1 : NULL;
        }
        if (!cols[3] || !cols[0][0])
            fail_msg("expected.tsv: want 4 tab-separated columns: %s", line);
        snprintf(r->file, sizeof(r->file), "%s", cols[0]);
        snprintf(r->want, sizeof(r->want), "%s", cols[1]);
        snprintf(r->names, sizeof(r->names), "%s", cols[2]);
        snprintf(r->today, sizeof(r->today), "%s", cols[3]);
        if (strcmp(r->want, "runs") && strcmp(r->want, "refused") &&
            strcmp(r->want, "runs-or-refused"))
            fail_msg("expected.tsv: %s: want '%s' (runs, refused or runs-or-refused)", r->file,
                     r->want);
        if (strcmp(r->want, "runs") != 0 && !r->names[0])
            fail_msg("expected.tsv: %s: a refusal must name something (names empty)", r->file);
        n_rows++;
    }
    fclose(f);
}

static int setup(void **state)
{
    (void)state;
    dir = make_temp_dir("fio-examples");
    if (!dir)
        return -1;
    load_table();
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    remove_tree(dir);
    free(dir);
    return 0;
}

/* ---- running the files, PARALLEL at a time --------------------------------------------- */

struct child {
    pid_t pid;
    size_t row;
    uint64_t start_ns;
};

static pid_t start(size_t k)
{
    char job[600], out[600], err[600];
    snprintf(job, sizeof(job), "%s", test_fixture_path("fio-examples/"));
    strncat(job, rows[k].file, sizeof(job) - strlen(job) - 1);
    snprintf(out, sizeof(out), "%s/out%zu", dir, k);
    snprintf(err, sizeof(err), "%s/err%zu", dir, k);
    char *argv[] = {(char *)ptsbench_bin(), "run", "--target", "sim:zdrive-6300-1.6t",
                    "--workload", job, "--rounds", "1", "--round-time", "1", "--quiet",
                    "-o", out, NULL};
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 2, err, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    pid_t pid = -1;
    extern char **environ;
    if (posix_spawn(&pid, argv[0], &fa, NULL, argv, environ) != 0)
        pid = -1;
    posix_spawn_file_actions_destroy(&fa);
    return pid;
}

/* rows[k].now from the child's wait status (or a timeout) and its stderr. */
static void record(size_t k, int status, bool timed_out)
{
    struct row *r = &rows[k];
    if (timed_out) {
        snprintf(r->now, sizeof(r->now), "broken: timed out after %d s", TIMEOUT_MS / 1000);
        return;
    }
    if (WIFSIGNALED(status)) {
        snprintf(r->now, sizeof(r->now), "broken: signal %d", WTERMSIG(status));
        return;
    }
    int code = WEXITSTATUS(status);
    if (code == 0) {
        snprintf(r->now, sizeof(r->now), "runs");
        return;
    }
    char path[600];
    snprintf(path, sizeof(path), "%s/err%zu", dir, k);
    char *text = slurp_file(path, NULL);
    if (code != 2 || !text || !is_one_line(text)) {
        snprintf(r->now, sizeof(r->now), "broken: exit %d, %s", code,
                 text && is_one_line(text) ? "one line" : "not one line");
        free(text);
        return;
    }
    text[strcspn(text, "\n")] = 0;
    /* The fixtures' directory cut wherever it occurs (no machine's path in the table), then
     * "ptsbench run: FILE[:LINE]: why" -> "why". */
    const char *fix = test_fixture_path("fio-examples/");
    size_t fl = strlen(fix), o = 0;
    for (const char *p = text; *p;)
        if (strncmp(p, fix, fl) == 0)
            p += fl;
        else
            text[o++] = *p++;
    text[o] = 0;
    const char *why = text;
    const char *at = strstr(text, r->file);
    if (at) {
        why = at + strlen(r->file);
        while (*why == ':' || isdigit((unsigned char)*why))
            why++;
        while (*why == ' ')
            why++;
    }
    snprintf(r->now, sizeof(r->now), "refused: %s", why);
    for (char *p = r->now; *p; p++)
        if (*p == '\t')
            *p = ' ';
    free(text);
}

static void run_all(void)
{
    struct child kids[PARALLEL];
    size_t running = 0, next = 0;
    while (next < n_rows || running) {
        while (running < PARALLEL && next < n_rows) {
            pid_t pid = start(next);
            assert_true(pid > 0);
            kids[running++] = (struct child){pid, next++, test_now_ns()};
        }
        test_sleep_ms(5);
        for (size_t i = 0; i < running;) {
            int status = 0;
            pid_t got = waitpid(kids[i].pid, &status, WNOHANG);
            bool late = got == 0 && test_now_ns() - kids[i].start_ns > TIMEOUT_MS * 1000000ull;
            if (late) {
                kill(kids[i].pid, SIGKILL);
                waitpid(kids[i].pid, &status, 0);
            }
            if (got == 0 && !late) {
                i++;
                continue;
            }
            record(kids[i].row, status, late);
            kids[i] = kids[--running];
        }
    }
}

/* ---- the tests ------------------------------------------------------------------------- */

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every .fio file of the directory has its row, and every row its file. */
static void test_table_covers_directory(void **state)
{
    (void)state;
    DIR *d = opendir(test_fixture_path("fio-examples"));
    assert_non_null(d);
    char *names[MAX_ROWS];
    size_t n = 0;
    for (struct dirent *e; (e = readdir(d));) {
        size_t len = strlen(e->d_name);
        if (len > 4 && strcmp(e->d_name + len - 4, ".fio") == 0) {
            assert_true(n < MAX_ROWS);
            names[n++] = strdup(e->d_name);
        }
    }
    closedir(d);
    qsort(names, n, sizeof(names[0]), by_name);
    assert_int_equal(n, 107);
    assert_int_equal(n_rows, n);
    for (size_t k = 0; k < n; k++) {
        if (strcmp(rows[k].file, names[k]) != 0)
            fail_msg("expected.tsv row %zu is %s, the directory's file %zu is %s (rows in name "
                     "order, one per file)", k + 1, rows[k].file, k + 1, names[k]);
        free(names[k]);
    }
}

/* The rule itself, on outcomes written out. */
static void test_rule(void **state)
{
    (void)state;
    struct row eng = {.want = "refused", .names = "null"};
    assert_int_equal(judge(&eng, "refused: ioengine=null: ioengine 'null' is not one ptsbench "
                                 "runs"), RIGHT);
    assert_int_equal(judge(&eng, "refused: unknown key 'gtod_reduce'"), WRONG);
    assert_int_equal(judge(&eng, "refused: nullify=1: no"), WRONG);
    assert_int_equal(judge(&eng, "runs"), BROKEN);
    assert_int_equal(judge(&eng, "broken: signal 11"), BROKEN);
    struct row run = {.want = "runs"};
    assert_int_equal(judge(&run, "runs"), RIGHT);
    assert_int_equal(judge(&run, "refused: direct=0: buffered I/O is not supported"), WRONG);
    struct row opt = {.want = "runs-or-refused", .names = "verify,new:fdp"};
    assert_int_equal(judge(&opt, "runs"), RIGHT);
    assert_int_equal(judge(&opt, "refused: verify: data verification is not supported"), RIGHT);
    assert_int_equal(judge(&opt, "refused: unknown key 'verify'"), WRONG);
    assert_int_equal(judge(&opt, "refused: unknown key 'fdp'"), RIGHT);
    assert_int_equal(judge(&opt, "refused: 2 jobs (sections a, b): fio runs them at once, "
                                 "ptsbench runs one workload: name the verify job"), WRONG);
    assert_int_equal(judge(&opt, "refused: verify_backlog=8: no"), WRONG);
}

/* Each file's outcome ranks at least as high as its today; prints the tally. */
static void test_no_outcome_worse(void **state)
{
    (void)state;
    uint64_t t0 = test_now_ns();
    run_all();
    unsigned count[3] = {0}, worse = 0, better = 0, changed = 0, ran = 0;
    for (size_t k = 0; k < n_rows; k++) {
        const struct row *r = &rows[k];
        enum rank now = judge(r, r->now), was = judge(r, r->today);
        count[now]++;
        ran += strcmp(r->now, "runs") == 0;
        if (now < was) {
            worse++;
            print_message("WORSE   %s (want %s%s%s): was %s \"%s\", now %s \"%s\"\n", r->file,
                          r->want, r->names[0] ? " naming " : "", r->names, rank_word[was],
                          r->today, rank_word[now], r->now);
        } else if (now > was) {
            better++;
            print_message("tighten %s: was %s \"%s\", now %s \"%s\"\n", r->file,
                          rank_word[was], r->today, rank_word[now], r->now);
        } else if (strcmp(r->now, r->today) != 0) {
            changed++;
            print_message("changed %s (%s): was \"%s\", now \"%s\"\n", r->file, rank_word[now],
                          r->today, r->now);
        }
    }
    print_message("fio examples: %zu files, %u run; %u as the rule wants, %u wrong, %u broken; "
                  "%u worse than the table's today, %u better, %u otherwise changed (%.1f s)\n",
                  n_rows, ran, count[RIGHT], count[WRONG], count[BROKEN], worse, better,
                  changed, (double)(test_now_ns() - t0) / 1e9);
    assert_int_equal(worse, 0);
}

/* README.md quotes the table's today column ("Of fio's 107 examples, 29 run as they are"): the
 * figure is checked here, never typed alone. */
static void test_readme_quotes_the_table(void **state)
{
    (void)state;
    const char *datadir = getenv("PTSBENCH_DATADIR");
    char path[4200];
    snprintf(path, sizeof(path), "%s/README.md", datadir && *datadir ? datadir : ".");
    char *readme = slurp_file(path, NULL);
    if (!readme)
        fail_msg("cannot read %s", path);
    unsigned runs = 0;
    for (size_t k = 0; k < n_rows; k++)
        runs += strcmp(rows[k].today, "runs") == 0;
    char want[128];
    snprintf(want, sizeof(want), "Of fio's %zu examples, %u run as they are", n_rows, runs);
    const char *at = strstr(readme, "Of fio's ");
    print_message("README: \"%.*s\"; expected.tsv: \"%s\"\n", at ? (int)strlen(want) : 0,
                  at ? at : "", want);
    assert_non_null(strstr(readme, want));
    free(readme);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rule),
        cmocka_unit_test(test_readme_quotes_the_table),
        cmocka_unit_test(test_table_covers_directory),
        cmocka_unit_test(test_no_outcome_worse),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
