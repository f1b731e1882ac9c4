/* test_figure_format.c — one figure format wherever a person reads a number (issue 46): every
 * command that prints figures (run, run-test, suite, profile, replay, crosscheck, show, verify,
 * gate, db list/show/compare/trend, report, trace stats) runs once on small simulated results
 * made here, and its console output is scanned for figures in another format than
 * units_format_figure's (src/lib/units.h):
 *   - a number of 5 digits or more without thousands separators ("682332", "64638.3"), or of
 *     4 digits with decimals ("4554.8"; a latency in ms from 1 s up is the one exception);
 *   - a latency in us that is not "N.N us" below 1,000 ("2586.1 us", "46 us"), or in ms that
 *     is not "N.NN ms" below 10 ms / "N.N ms" from 10 ms ("0.85 ms", "2.6 ms"): the unit is
 *     chosen by magnitude, so the same figure never reads in two units;
 *   - bytes in GB/TB/MB/kB not in 3 significant digits in the unit that leaves 1 to 999
 *     ("6433 GB", "0.081 GB", "145.957 GB", "1.3 GB"). A capacity ("1.60 TB (1.46 TiB)",
 *     units_format_capacity) is its own format and is left alone.
 * What is not a figure is not scanned: a number glued to a letter, '=', '/', ':', '-', '@' or
 * '_' (paths, timestamps, option echoes such as 200ms or bs=4k, seeds 0x..., tracking names)
 * and durations in seconds. Machine outputs (JSON, CSV, INI) are not console output here.
 * Offenders in files other helpers own are listed in `known` (command, text, file: reason):
 * reported, not failed, until the lead empties the list. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <ctype.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "helpers.h"

static char *dir;

#define TGT "sim:generic-mlc25,blocks_per_plane=16"
#define CM88 "sim:zdrive-r4-cm88-1.6t,host_worker_us=0,host_worker_us_per_kib=0"

/* The results every check reads, made once and at once: name, then the arguments after the
 * binary (-o DIR/name is added); their console output is DIR/name.log. A 1.36 GB drive and
 * 200 ms rounds of virtual time: about a second of CPU in all. */
static const char *const sims[][20] = {
    {"run", "run", "--target", TGT, "--workload", "rw=randrw,bs=4k,qd=32", "--round-time",
     "200ms", "-n", "3", NULL},
    {"run2", "run", "--target", TGT ",c_w_us=13", "--workload", "rw=randrw,bs=4k,qd=32",
     "--round-time", "200ms", "-n", "3", NULL},
    {"runtest", "run-test", "lat", "--target", TGT, "--round-time", "200ms", "--max-rounds", "2",
     NULL},
    {"suite", "suite", "--target", TGT, "--tests", "iops,tp,wsat", "--round-time", "200ms",
     "--max-rounds", "2", "--wsat-capacity", "0.5", NULL},
    {"ramp", "profile", "qd-ramp-4k-read", "--target", TGT, "--qd", "1,8,32", "--precondition",
     "none", "--round-time", "200ms", "--rounds", "1", NULL},
    {"profile", "profile", "database", "--target", TGT, "--precondition", "wipc",
     "--round-time", "200ms", "--rounds", "2", "--compress", "0", "--workers", "1", NULL},
    {"datasheet", "profile", "datasheet", "--target", CM88, "--compress", "100", "--round-time",
     "1s", "--precondition", "none", "--rounds", "1", NULL},
    {"replay", "replay", "gen:mail-server,scale=0.01", "--target", TGT, "--mode", "afap", NULL},
};
#define N_SIMS (sizeof(sims) / sizeof(sims[0]))

/* Offenders in files this change does not own, for the lead to fix after merging: the
 * command, a text of the offending line, and where it is printed. */
static const struct {
    const char *cmd, *text, *where;
} known[] = {
    {NULL, NULL, NULL},
};

static int setup(void **state)
{
    (void)state;
    dir = make_temp_dir("figfmt");
    if (!dir)
        return -1;
    const char *const *cmds[N_SIMS];
    for (size_t k = 0; k < N_SIMS; k++)
        cmds[k] = sims[k];
    return ptsbench_parallel(cmds, N_SIMS, dir) >= 0 ? -1 : 0;
}

static int teardown(void **state)
{
    (void)state;
    if (dir)
        remove_tree(dir);
    free(dir);
    return 0;
}

static const char *at(const char *name)
{
    static char buf[8][4200];
    static unsigned k;
    char *b = buf[k++ % 8];
    snprintf(b, 4200, "%s/%s", dir, name);
    return b;
}

/* ---- the scan ---- */

/* A character that glues a number into something else (a path, a timestamp, an option). */
static bool glue(char c)
{
    return isalnum((unsigned char)c) || c == '_' || c == '.' || c == ',' || c == '/' ||
           c == ':' || c == '=' || c == '@' || c == '-' || c == '+' || c == '#' || c == '~' ||
           c == '\'' || c == '"' || c == '*' || c == '^';
}

/* Whether the number starting at s[i] stands alone: after a space, '(', '[' or the line's
 * start, optionally signed. */
static bool stands_alone(const char *s, size_t i)
{
    if (i > 0 && (s[i - 1] == '-' || s[i - 1] == '+'))
        i--;
    return i == 0 || !glue(s[i - 1]);
}

/* The word after the number (after one space), e.g. "us" or "GB"; "" when none. */
static void unit_after(const char *p, char *u, size_t len)
{
    u[0] = '\0';
    if (*p != ' ')
        return;
    p++;
    size_t n = 0;
    if (!strncmp(p, "µs", strlen("µs"))) {
        snprintf(u, len, "us");
        return;
    }
    while (isalpha((unsigned char)p[n]) && n + 1 < len)
        n++;
    memcpy(u, p, n);
    u[n] = '\0';
}

/* Sizes in product names, as the maker wrote them: not figures. */
static const char *const names[] = {"CM88 1.6 TB", "CM84 300 GB", "X2 480 GB", "6300 1.6 TB"};

static bool is_name(const char *s, size_t at)
{
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
        const char *sp = strchr(names[k], ' ');
        size_t pre = (size_t)(sp - names[k]) + 1;
        if (at >= pre && !strncmp(s + at - pre, names[k], strlen(names[k])))
            return true;
    }
    return false;
}

static int sig3_decimals(double a)
{
    if (!(a > 0))
        return 0;
    char t[64];
    snprintf(t, sizeof t, "%.2e", a);
    int e = (int)floor(log10(strtod(t, NULL)));
    return e >= 2 ? 0 : 2 - e;
}

/* Where a latency metric's key (lat_mean_us, read_lat_p99_us: a word with "lat" ending in
 * "_us") ends in s, or 0 when the line has none: the figures after it are latencies. */
static size_t after_latency_key(const char *s)
{
    for (const char *p = s; (p = strstr(p, "_us")); p += 3) {
        if (isalnum((unsigned char)p[3]) || p[3] == '_' || p[3] == '@')
            continue;
        const char *w = p;
        while (w > s && (isalnum((unsigned char)w[-1]) || w[-1] == '_'))
            w--;
        if (w > s && !isspace((unsigned char)w[-1]))
            continue;
        char word[64];
        snprintf(word, sizeof word, "%.*s", (int)(p + 3 - w), w);
        if (strstr(word, "lat"))
            return (size_t)(p + 3 - s);
    }
    return 0;
}

/* The first figure of LINE (n bytes) in another format: its text and why in *why; false when
 * none. */
static bool scan_line(const char *line, size_t n, char *why, size_t len)
{
    char s[4096];
    if (n >= sizeof s)
        n = sizeof s - 1;
    memcpy(s, line, n);
    s[n] = '\0';
    const size_t lat_from = after_latency_key(s);
    for (size_t i = 0; i < n; i++) {
        if (!isdigit((unsigned char)s[i]) || (i > 0 && glue(s[i - 1]) && s[i - 1] != '-' &&
                                              s[i - 1] != '+'))
            continue;
        size_t j = i, digits = 0, decimals = 0;
        bool comma = false;
        while (isdigit((unsigned char)s[j]) || (s[j] == ',' && isdigit((unsigned char)s[j + 1]))) {
            comma |= s[j] == ',';
            digits += s[j] != ',';
            j++;
        }
        if (s[j] == '.' && isdigit((unsigned char)s[j + 1]))
            for (j++; isdigit((unsigned char)s[j]); j++)
                decimals++;
        bool alone = stands_alone(s, i) && !(isalnum((unsigned char)s[j]) || s[j] == '_' ||
                                             s[j] == '=' || s[j] == '@' || s[j] == '-' ||
                                             (s[j] == '.' && isalnum((unsigned char)s[j + 1])));
        size_t start = i;
        i = j;
        if (!alone)
            continue;
        char num[64], unit[16];
        snprintf(num, sizeof num, "%.*s", (int)(j - start), s + start);
        unit_after(s + j, unit, sizeof unit);
        char plain[64];
        size_t o = 0;
        for (const char *p = num; *p && o + 1 < sizeof plain; p++)
            if (*p != ',')
                plain[o++] = *p;
        plain[o] = '\0';
        const double v = strtod(plain, NULL);
        const char *bad = NULL;
        if (!strcmp(unit, "s"))
            continue;   /* a duration: not one of the figure kinds */
        if (!strcmp(unit, "us")) {
            if (v >= 1000 || decimals != 1)
                bad = "a latency in us not as N.N us below 1 ms";
        } else if (!strcmp(unit, "ms")) {
            if (v < 1 || (v < 10 ? decimals != 2 : decimals != 1))
                bad = "a latency in ms not as N.NN ms (1-10 ms) or N.N ms (from 10 ms)";
        } else if (!strcmp(unit, "kB") || !strcmp(unit, "MB") || !strcmp(unit, "GB") ||
                   !strcmp(unit, "TB")) {
            const char *after = s + j + 1 + strlen(unit);
            bool capacity = !strncmp(after, " (", 2) && strstr(after, "iB)");
            bool rate = *after == '/';   /* MB/s: UNITS_FIG_MBS, checked as a number */
            if (!capacity && !rate && !is_name(s, start) &&
                (v < 1 || v >= 999.5 || (int)decimals != sig3_decimals(v)))
                bad = "bytes not in 3 significant digits of the unit that leaves 1 to 999";
        }
        if (!bad && lat_from && start >= lat_from && (digits >= 3 || comma) &&
            strcmp(unit, "us") && strcmp(unit, "ms") && s[j] != '%')
            bad = "a latency without its unit";
        if (!bad && digits >= 5 && !comma)
            bad = "no thousands separators";
        if (!bad && digits == 4 && !comma && decimals && strcmp(unit, "ms"))
            bad = "4 digits with decimals and no separator";
        if (bad) {
            snprintf(why, len, "'%s%s%s': %s", num, unit[0] ? " " : "", unit, bad);
            return true;
        }
    }
    return false;
}

static unsigned failures, known_seen;

/* Scan the output of `ptsbench CMD ...`; each offending line printed, counted as a failure
 * unless `known` lists it. */
static void scan_output(const char *cmd, const char *text)
{
    for (const char *p = text; p && *p;) {
        const char *e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        char why[256];
        if (scan_line(p, n, why, sizeof why)) {
            const char *where = NULL;
            for (size_t k = 0; known[k].cmd && !where; k++) {
                if (strcmp(known[k].cmd, cmd))
                    continue;
                char ln[4096];
                snprintf(ln, sizeof ln, "%.*s", (int)(n < 4095 ? n : 4095), p);
                if (strstr(ln, known[k].text))
                    where = known[k].where;
            }
            if (where)
                known_seen++;
            else
                failures++;
            print_message("%s %s: %s\n  in: %.*s\n", where ? "known" : "FIGURE", cmd, why,
                          (int)(n < 300 ? n : 300), p);
            if (where)
                print_message("  (%s)\n", where);
        }
        p = e ? e + 1 : NULL;
    }
}

/* ptsbench ARGS... (NULL-terminated); its stdout scanned under the name CMD. */
static void scan_cmd(const char *cmd, const char *const *args, int want)
{
    struct cmd_result r;
    int st = ptsbench_run(&r, args);
    if (st != want)
        fail_msg("ptsbench %s exited %d (want %d): %s", args[0], st, want, r.errout);
    scan_output(cmd, r.out);
    cmd_result_free(&r);
}

/* ---- the scan checked on its own ---- */

static void test_scan_finds_other_formats(void **state)
{
    (void)state;
    const char *bad[] = {
        "Run, 4 KiB random  iops               682332        133890    -47.01%",
        "run    1   64638.3   62179.0",
        "IOPS                        10022.0        10117.9     1.010",
        "replay x: 39523 I/Os (9525 reads, 475 writes)",
        "summary 6433 GB written",
        "lat p99 2586.1 us",
        "lat mean 0.85 ms",
        "lat mean 2.6 ms",
        "read 0.081 GB",
        "extent 145.957 GB",
        "issued late by 46 us median",
        "NAND 1.3 GB / host 1.3 GB",
        "capacity 1363148800 bytes",
        "lat p99 (us)                 4554.8",
        "lat_mean_us                     397            393      0.989",
        "Run, 4 KiB random, R/W 50/50  lat_mean_us         136.7         238.9    +74.76%",
    };
    char why[256];
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++)
        if (!scan_line(bad[k], strlen(bad[k]), why, sizeof why))
            fail_msg("scan missed: %s", bad[k]);
    const char *good[] = {
        "round  1/3  IOPS 230,255 (r 115,511 w 114,744)  943 MB/s  lat mean 139.0 us p99.9 "
        "946.2 us  WA 1.00 (simulated)",
        "target  sim:generic-mlc25 (simulated generic-mlc25, 26.42 GB (24.61 GiB); scale k=1)",
        "started 2026-12-05T16:29:57Z  /tmp/num46/r2/results.json --round-time 200ms",
        "randseed=0x5054534245 iodepth=32 iops@4KiB/0 30,999 r100-rnd-1MiB",
        "lat p99 1.11 ms, 35.2 ms, 87.3 us; 1.30 GB, 146 GB, 6.43 TB; 682,332 IOPS; -47.0%",
        "over 2492.593 s, busy 43.550 s; 1024 KiB; 2026; port 8080; ratio 0.953",
        "lat max 1234.5 ms",
        "2,792 MB/s; OCZ Z-Drive R4 CM88 1.6 TB: 8 x SF-2281",
        "Run, 4 KiB random  lat_mean_us      136.7 us      238.9 us     +74.8%     53.4%",
        "read_lat_mean_us     397.2 us     393.0 us     0.989",
        "metrics: iops,mb_s,lat_mean_us,lat_p99_us; tolerance 5.00%",
    };
    for (size_t k = 0; k < sizeof good / sizeof good[0]; k++)
        if (scan_line(good[k], strlen(good[k]), why, sizeof why))
            fail_msg("scan flagged a right figure: %s in %s", why, good[k]);
}

/* ---- every command's console output ---- */

static void test_every_command(void **state)
{
    (void)state;
    failures = known_seen = 0;
    /* the measuring commands' own progress and closing lines */
    for (size_t k = 0; k < N_SIMS; k++) {
        char log[4300];
        snprintf(log, sizeof log, "%s/%s.log", dir, sims[k][0]);
        char *text = slurp_file(log, NULL);
        assert_non_null(text);
        scan_output(sims[k][1], text);
        free(text);
    }
    /* show, of every kind of results */
    for (size_t k = 0; k < N_SIMS; k++) {
        const char *a[] = {"show", at(sims[k][0]), NULL};
        scan_cmd("show", a, 0);
    }
    const char *verify[] = {"verify", "--spec", "zdrive-r4-cm88-1.6t", at("datasheet"), NULL};
    scan_cmd("verify", verify, 1);   /* seq-read has no comparable measurement */
    const char *gate[] = {"gate", "-b", at("run"), "-c", at("run2"), "--tolerance", "1000",
                          NULL};
    scan_cmd("gate", gate, 0);
    const char *db = at("h.db");
    const char *imp[] = {"db", "import", "--db", db, at("run"), at("run2"), at("runtest"),
                         at("suite"), at("profile"), at("datasheet"), at("ramp"), NULL};
    scan_cmd("db", imp, 0);
    const char *list[] = {"db", "list", "--db", db, NULL};
    scan_cmd("db", list, 0);
    const char *show1[] = {"db", "show", "--db", db, "1", NULL};
    scan_cmd("db", show1, 0);
    const char *cmp[] = {"db", "compare", "--db", db, "1", "2", "--tolerance", "1000", NULL};
    scan_cmd("db", cmp, 0);
    const char *trend[] = {"db", "trend", "--db", db, "--metric", "iops", "--where", "test=run",
                           NULL};
    scan_cmd("db", trend, 0);
    const char *trend_fw[] = {"db", "trend", "--db", db, "--metric", "lat_p99_us", "--where",
                              "test=run", "--over", "firmware", NULL};
    scan_cmd("db", trend_fw, 0);
    const char *report[] = {"report", at("run"), at("suite"), at("datasheet"), "--no-plots",
                            "-o", at("report"), NULL};
    scan_cmd("report", report, 0);
    const char *stats[] = {"trace", "stats", "gen:mail-server,scale=0.01", NULL};
    scan_cmd("trace", stats, 0);
    if (test_have_fio()) {
        const char *xc[] = {"crosscheck", "--target", at("xc.img"), "--size", "16m",
                            "--workload", "rw=randread,bs=4k,qd=4", "--round-time", "1s",
                            "--repeat", "1", "-o", at("xc"), NULL};
        scan_cmd("crosscheck", xc, 0);
        const char *a[] = {"show", at("xc"), NULL};
        scan_cmd("show", a, 0);
    }
    print_message("figures in another format: %u (%u more known, listed for the lead)\n",
                  failures, known_seen);
    assert_int_equal(failures, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_scan_finds_other_formats),
        cmocka_unit_test(test_every_command),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
