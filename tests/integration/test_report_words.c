/* test_report_words.c — the report speaks to a reader: rendered from the fixtures (suites, the
 * PTS 2.0 suite, a profile, runs; one and two devices), neither the Markdown nor the HTML holds
 * an internal name (a tracking variable "iops@4KiB/0", a metric key "write_lat_mean_us") or a
 * path of the machine (absolute paths, the fixtures' own paths); and the report opens with the
 * summary table, the devices in its columns and the fixtures' figures in its cells (computed
 * here from the results JSON), after a table of contents of every section. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <json-c/json.h>
#include <math.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/results.h"
#include "lib/units.h"
#include "helpers.h"

static char *dir;

static int setup(void **state)
{
    (void)state;
    dir = make_temp_dir("report-words");
    return dir ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    remove_tree(dir);
    free(dir);
    return 0;
}

static const char *root(void)
{
    return getenv("PTSBENCH_DATADIR") ? getenv("PTSBENCH_DATADIR") : ".";
}

/* Render the fixtures named (NULL-terminated, at most 4) into DIR/tag; *html gets the HTML. */
static char *render(const char *tag, const char *const *names, char **html)
{
    char f[4][600], out[600];
    char *argv[12];
    int a = 0;
    argv[a++] = (char *)ptsbench_bin();
    argv[a++] = "report";
    for (int i = 0; names[i] && i < 4; i++) {
        snprintf(f[i], sizeof(f[i]), "%s/tests/fixtures/results/%s", root(), names[i]);
        argv[a++] = f[i];
    }
    snprintf(out, sizeof(out), "%s/%s", dir, tag);
    argv[a++] = "--no-plots";
    argv[a++] = "--out";
    argv[a++] = out;
    argv[a] = NULL;
    struct cmd_result r;
    assert_int_equal(run_cmd(argv, &r), 0);
    if (r.status != 0)
        print_message("%s", r.errout);
    assert_int_equal(r.status, 0);
    cmd_result_free(&r);
    char p[700];
    snprintf(p, sizeof(p), "%s/report.html", out);
    *html = slurp_file(p, NULL);
    snprintf(p, sizeof(p), "%s/report.md", out);
    char *md = slurp_file(p, NULL);
    assert_non_null(*html);
    assert_non_null(md);
    return md;
}

/* Markdown escapes '_' as "\_": compare without the backslashes. */
static char *unescape(const char *s)
{
    char *o = malloc(strlen(s) + 1), *q = o;
    assert_non_null(o);
    for (; *s; s++)
        if (!(*s == '\\' && (s[1] == '_' || s[1] == '*')))
            *q++ = *s;
    *q = '\0';
    return o;
}

static void no_match(const char *what, const char *text, const char *pattern)
{
    regex_t re;
    assert_int_equal(regcomp(&re, pattern, REG_EXTENDED | REG_NEWLINE), 0);
    regmatch_t m;
    int rc = regexec(&re, text, 1, &m, 0);
    if (rc == 0)
        print_error("%s: '%s' found: ...%.60s...\n", what, pattern,
                    text + (m.rm_so > 20 ? m.rm_so - 20 : 0));
    regfree(&re);
    assert_int_not_equal(rc, 0);
}

static void no_string(const char *what, const char *text, const char *s)
{
    const char *p = strstr(text, s);
    if (p)
        print_error("%s: '%s' found: ...%.60s...\n", what, s, p > text + 20 ? p - 20 : text);
    assert_null(p);
}

static void clean(const char *what, const char *raw)
{
    char *text = unescape(raw);
    no_match(what, text, "[a-z_]+@[0-9]");
    const char *names[] = {"_us@", "lat_mean_us", "read_iops", "write_iops", "mb_s@",
                           "tests/fixtures", dir};
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
        no_string(what, text, names[i]);
    /* absolute paths of a machine (the home, work, tmp, root and usr trees; built here:
     * test_layers keeps such paths out of the sources) */
    const char *roots[] = {"home", "work", "tmp", "root", "usr"};
    for (size_t i = 0; i < sizeof(roots) / sizeof(roots[0]); i++) {
        char p[16];
        snprintf(p, sizeof(p), "/%s/", roots[i]);
        no_string(what, text, p);
    }
    free(text);
}

static void check_all(const char *tag, const char *const *names)
{
    char *html, *md = render(tag, names, &html);
    clean("report.md", md);
    clean("report.html", html);
    free(md);
    free(html);
}

static void test_no_internal_names(void **state)
{
    (void)state;
    const char *const sets[][4] = {
        {"suite-6300", NULL},
        {"suite-6300", "suite-r4", NULL},
        {"suite2-6300", NULL},
        {"profile-r4", NULL},
        {"profile-r4", "ramp-r4", NULL},
        {"run-steady-6300", NULL},
        {"run-steady-6300", "run-burst-r4", NULL},
        {"run-generic", NULL},
    };
    for (size_t i = 0; i < sizeof(sets) / sizeof(sets[0]); i++) {
        char tag[16];
        snprintf(tag, sizeof(tag), "w%zu", i);
        check_all(tag, sets[i]);
    }
}

/* The fixture's figure, from its JSON (read as version 2): test NAME's row (mix, bs). */
static double fixture_row(const char *fixture, const char *test, int mix, int bs,
                          const char *what)
{
    char p[700];
    snprintf(p, sizeof(p), "%s/tests/fixtures/results/%s/results.json", root(), fixture);
    struct json_object *doc = json_object_from_file(p);
    assert_non_null(doc);
    results_upgrade(doc);
    double v = -1;
    struct json_object *tests = json_object_object_get(doc, "tests");
    for (size_t t = 0; t < json_object_array_length(tests); t++) {
        struct json_object *to = json_object_array_get_idx(tests, t);
        if (strcmp(json_object_get_string(json_object_object_get(to, "name")), test) != 0)
            continue;
        struct json_object *subs = json_object_object_get(to, "subtests");
        for (size_t s = 0; s < json_object_array_length(subs); s++) {
            struct json_object *rows = json_object_object_get(
                json_object_object_get(json_object_array_get_idx(subs, s), "table"), "rows");
            for (size_t r = 0; r < json_object_array_length(rows); r++) {
                struct json_object *row = json_object_array_get_idx(rows, r);
                if (json_object_get_int(json_object_object_get(row, "rwmix_read")) == mix &&
                    json_object_get_int(json_object_object_get(row, "bs")) == bs)
                    v = json_object_get_double(json_object_object_get(
                        json_object_object_get(row, "total"), what));
            }
        }
    }
    json_object_put(doc);
    assert_true(v > 0);
    return v;
}

/* 139909.4 → "139,909" */
static void commas(double v, char *buf, size_t len)
{
    char d[32];
    snprintf(d, sizeof(d), "%.0f", v);
    size_t n = strlen(d), o = 0;
    for (size_t i = 0; i < n && o + 2 < len; i++) {
        if (i && (n - i) % 3 == 0)
            buf[o++] = ',';
        buf[o++] = d[i];
    }
    buf[o] = '\0';
}

static void test_summary_table(void **state)
{
    (void)state;
    const char *const names[] = {"suite-6300", "suite-r4", NULL};
    char *html, *md = render("summary", names, &html);
    const char *sum = strstr(md, "\n## Summary\n");
    const char *setup = strstr(md, "\n## Test platform");
    assert_non_null(sum);
    assert_non_null(setup);
    assert_true(sum < setup);   /* the summary first */
    assert_non_null(strstr(sum, "| Figure | zdrive-6300-1.6t (simulated drive) | "
                                "zdrive-r4-cm88-1.6t (simulated drive) |"));
    char a[32], b[32], want[256];
    commas(fixture_row("suite-6300", "iops", 0, 4096, "iops"), a, sizeof(a));
    commas(fixture_row("suite-r4", "iops", 0, 4096, "iops"), b, sizeof(b));
    snprintf(want, sizeof(want), "| 4 KiB random write IOPS | %s (steady state; 4 × QD 32) | %s "
             "(steady state; 4 × QD 32) |", a, b);
    print_message("  looking for '%s'\n", want);
    const char *row = strstr(sum, want);
    assert_non_null(row);
    assert_true(row < setup);
    /* MB/s through the shared figure rule (units_format_figure: "3,198", "38.4") */
    units_format_figure(fixture_row("suite-6300", "tp", 100, 131072, "mb_s"), UNITS_FIG_MBS, a,
                        sizeof(a));
    units_format_figure(fixture_row("suite-r4", "tp", 100, 131072, "mb_s"), UNITS_FIG_MBS, b,
                        sizeof(b));
    snprintf(want, sizeof(want), "| 128 KiB sequential read MB/s | %s (steady state; 1 × QD 32) "
             "| %s (steady state; 1 × QD 32) |", a, b);
    print_message("  looking for '%s'\n", want);
    assert_non_null(strstr(sum, want));
    /* a row no result measures is left out, and the line after the table says so (issue 46:
     * it was a row of "—" in every column) */
    assert_null(strstr(sum, "| Host idle recovery gain (HIR) |"));
    assert_non_null(strstr(sum, "Host idle recovery gain (HIR) (needs the PTS HIR test)."));
    assert_non_null(strstr(html, "<h2 id=\"summary\">Summary</h2>"));
    /* the table of contents, before the summary, links every section */
    const char *toc = strstr(md, "- [Summary](#summary)\n");
    assert_non_null(toc);
    assert_true(toc < sum);
    assert_non_null(strstr(md, "- [Write Saturation (RND 4 KiB W)](#write-saturation-rnd-4-kib-w)"));
    const char *hn = strstr(html, "<nav class=\"toc\">"), *hs = strstr(html, "<h2 id=\"summary\">");
    assert_non_null(hn);
    assert_true(hn < hs);
    assert_non_null(strstr(hn, "<li><a href=\"#setup\">"));
    free(md);
    free(html);
}

/* The best HIR gain of a fixture (its hir test's first subtest): write / baseline IOPS. */
static double fixture_hir_gain(const char *fixture, double *wait)
{
    char p[700];
    snprintf(p, sizeof(p), "%s/tests/fixtures/results/%s/results.json", root(), fixture);
    struct json_object *doc = json_object_from_file(p);
    assert_non_null(doc);
    double best = -1;
    struct json_object *tests = json_object_object_get(doc, "tests");
    for (size_t t = 0; t < json_object_array_length(tests); t++) {
        struct json_object *to = json_object_array_get_idx(tests, t);
        if (strcmp(json_object_get_string(json_object_object_get(to, "name")), "hir") != 0)
            continue;
        struct json_object *ws = json_object_object_get(
            json_object_array_get_idx(json_object_object_get(to, "subtests"), 0), "wait_states");
        for (size_t k = 0; k < json_object_array_length(ws); k++) {
            struct json_object *w = json_object_array_get_idx(ws, k);
            double g = json_object_get_double(json_object_object_get(w, "write_iops_mean")) /
                       json_object_get_double(json_object_object_get(w, "baseline_iops_mean"));
            if (g > best) {
                best = g;
                *wait = json_object_get_double(json_object_object_get(w, "wait_s"));
            }
        }
    }
    json_object_put(doc);
    return best;
}

/* Two result sets of the same drive (suite-6300: IOPS, TP, LAT, WSAT; suite2-6300: HIR, XSR,
 * DIRTH) and another drive: one column per device, each row from the set that has it. */
static void test_summary_by_device(void **state)
{
    (void)state;
    const char *const names[] = {"suite-6300", "suite2-6300", "suite-r4", NULL};
    char *html, *md = render("summary-dev", names, &html);
    const char *sum = strstr(md, "\n## Summary\n");
    assert_non_null(sum);
    const char *end = strstr(sum + 1, "\n## ");
    assert_non_null(end);
    assert_non_null(strstr(sum, "| Figure | zdrive-6300-1.6t (simulated drive) | "
                                "zdrive-r4-cm88-1.6t (simulated drive) |\n|---|---:|---:|\n"));
    char a[32], b[32], want[512];
    commas(fixture_row("suite-6300", "iops", 0, 4096, "iops"), a, sizeof(a));
    commas(fixture_row("suite-r4", "iops", 0, 4096, "iops"), b, sizeof(b));
    snprintf(want, sizeof(want), "| 4 KiB random write IOPS | %s (steady state; 4 × QD 32) | %s "
             "(steady state; 4 × QD 32) |\n", a, b);
    print_message("  looking for '%s'\n", want);
    const char *row = strstr(sum, want);
    assert_non_null(row);
    assert_true(row < end);
    /* HIR only in the second set of the 6300: its cell from there, the R4's "—" */
    double wait = 0, gain = fixture_hir_gain("suite2-6300", &wait);
    assert_true(gain > 0);
    snprintf(want, sizeof(want), "| Host idle recovery gain (HIR) | %.2f× (best wait state, %g s "
             "idle; against the baseline after HIR's preconditioning) | — |\n", gain, wait);
    print_message("  looking for '%s'\n", want);
    row = strstr(sum, want);
    assert_non_null(row);
    assert_true(row < end);
    /* and every row has three cells: no result-set column left over */
    for (const char *l = strstr(sum, "\n| 4 KiB"); l && l < end; l = strstr(l + 1, "\n| ")) {
        int bars = 0;
        for (const char *q = l + 1; *q && *q != '\n'; q++)
            bars += *q == '|';
        assert_int_equal(bars, 4);
    }
    free(md);
    free(html);
}

/* A profile of the newer results format (preconditioning, each point's state label and reason):
 * profile-r4 with them added, every point a burst but the third (its own reason). The points of
 * the same state in words say it once per device; the exception is still named. */
static void test_profile_state_once(void **state)
{
    (void)state;
    char src[700], sub[700], out[700];
    snprintf(src, sizeof(src), "%s/tests/fixtures/results/profile-r4/results.json", root());
    struct json_object *doc = json_object_from_file(src);
    assert_non_null(doc);
    json_object_object_add(doc, "preconditioning", json_object_new_object());
    struct json_object *pts = json_object_object_get(doc, "points");
    size_t np = json_object_array_length(pts);
    assert_true(np >= 4);
    for (size_t k = 0; k < np; k++) {
        struct json_object *r = json_object_object_get(json_object_array_get_idx(pts, k), "result");
        json_object_object_add(r, "steady", json_object_new_boolean(0));
        json_object_object_add(r, "label", json_object_new_string(
                                               "burst (not preconditioned, fixed rounds)"));
        json_object_object_add(r, "reason", json_object_new_string(
            k == 2 ? "the drive was idle before it" : "fixed rounds on a drive that was not "
                                                      "preconditioned"));
    }
    snprintf(sub, sizeof(sub), "%s/profile-new", dir);
    assert_int_equal(mkdir(sub, 0755), 0);
    snprintf(src, sizeof(src), "%s/results.json", sub);
    assert_int_equal(json_object_to_file(src, doc), 0);
    const char *w2 = json_object_get_string(
        json_object_object_get(json_object_array_get_idx(pts, 2), "workload"));
    const char *prof = json_object_get_string(
        json_object_object_get(json_object_array_get_idx(pts, 0), "profile"));
    char want[600], exc[600];
    int same = 0;
    for (size_t k = 0; k < np; k++)
        same += !strcmp(prof, json_object_get_string(json_object_object_get(
                                  json_object_array_get_idx(pts, k), "profile"))) && k != 2;
    snprintf(want, sizeof(want), "%d of the", same);
    snprintf(exc, sizeof(exc), "zdrive-r4-cm88-1.6t (simulated drive), %s with", w2);
    snprintf(out, sizeof(out), "%s/profile-new-out", dir);
    char *argv[] = {(char *)ptsbench_bin(), "report", sub, "--no-plots", "--out", out, NULL};
    struct cmd_result r;
    assert_int_equal(run_cmd(argv, &r), 0);
    assert_int_equal(r.status, 0);
    cmd_result_free(&r);
    json_object_put(doc);
    snprintf(src, sizeof(src), "%s/report.md", out);
    char *raw = slurp_file(src, NULL), *md = unescape(raw);
    assert_non_null(md);
    /* the shared wording: one sentence per profile of the device, not one per point */
    int n = 0, shared = 0;
    for (const char *q = strstr(md, "not SNIA steady state: fixed rounds"); q;
         q = strstr(q + 1, "not SNIA steady state: fixed rounds"))
        n++;
    for (const char *q = strstr(md, "points: burst (not preconditioned, fixed rounds), not SNIA"); q;
         q = strstr(q + 1, "points: burst (not preconditioned, fixed rounds), not SNIA"))
        shared++;
    print_message("  %d sentences of the shared wording, %d grouped; want '%s', '%s'\n", n, shared,
                  want, exc);
    assert_true(n >= 1);
    assert_int_equal(n, shared);   /* each of them grouped */
    assert_true(n <= 4);           /* at most one per profile (profile-r4's: up to 4) */
    assert_true((size_t)n < np - 1);
    assert_non_null(strstr(md, want));
    /* the exception named, with its own reason */
    const char *e = strstr(md, exc);
    assert_non_null(e);
    assert_non_null(strstr(e, "not SNIA steady state: the drive was idle before it."));
    free(raw);
    free(md);
}

/* A profile whose workloads are its profiles' names: one column for both; the 0% / 90%
 * comparison one table, not a sentence per pair. */
/* A number of the fixture's first subtest of `test`: `path` under its steady_state. */
static double fixture_steady(const char *fixture, const char *test, const char *path)
{
    char p[700];
    snprintf(p, sizeof(p), "%s/tests/fixtures/results/%s/results.json", root(), fixture);
    struct json_object *doc = json_object_from_file(p);
    assert_non_null(doc);
    results_upgrade(doc);
    double v = NAN;
    struct json_object *tests = json_object_object_get(doc, "tests");
    for (size_t t = 0; t < json_object_array_length(tests); t++) {
        struct json_object *to = json_object_array_get_idx(tests, t);
        if (strcmp(json_object_get_string(json_object_object_get(to, "name")), test) != 0)
            continue;
        struct json_object *o = json_object_array_get_idx(json_object_object_get(to, "subtests"), 0);
        o = json_object_object_get(o, "steady_state");
        char key[128];
        snprintf(key, sizeof(key), "%s", path);
        for (char *k = strtok(key, "."); k && o; k = strtok(NULL, "."))
            o = json_object_is_type(o, json_type_array)
                    ? json_object_array_get_idx(o, (size_t)atoi(k))
                    : json_object_object_get(o, k);
        if (o)
            v = json_object_get_double(o);
    }
    json_object_put(doc);
    assert_true(isfinite(v));
    return v;
}

/* The PTS steady-state determination table in each test's section: average, allowed and
 * measured range, allowed and measured slope excursion, the fitted line, the verdict; the
 * figures are the fixture's, by the shared figure rule. */
static void test_steady_table(void **state)
{
    (void)state;
    const char *const names[] = {"suite-6300", NULL};
    char *html, *md = render("steady", names, &html);
    const char *sec = strstr(md, "\n## IOPS");
    assert_non_null(sec);
    const char *params = strstr(sec, "Test parameters:");
    const char *tab = strstr(sec, "Steady-state determination (SNIA PTS");
    assert_non_null(params);
    assert_non_null(tab);
    assert_true(params < tab);
    const char *next = strstr(sec + 4, "\n## ");
    assert_true(!next || tab < next);   /* inside the IOPS test's section */
    assert_non_null(strstr(tab, "| Device | Tracking | Window (rounds) | Average | Allowed range "
                                "(20%) | Measured range | Allowed slope excursion (10%) | "
                                "Measured slope excursion | Fitted line (x = round) | Verdict |"));
    const char *w = "variables.0.window.";
    char k[64], avg[32], ra[32], rm[32], rp[32], sa[32], sm[32], sp[32], want[512];
    double a;
#define FX(name) (snprintf(k, sizeof(k), "%s%s", w, name), fixture_steady("suite-6300", "iops", k))
    a = FX("average");
    units_format_figure(a, UNITS_FIG_IOPS, avg, sizeof(avg));
    units_format_figure(FX("range_allowed"), UNITS_FIG_IOPS, ra, sizeof(ra));
    units_format_figure(FX("range"), UNITS_FIG_IOPS, rm, sizeof(rm));
    units_format_figure(100 * FX("range") / a, UNITS_FIG_PCT, rp, sizeof(rp));
    units_format_figure(FX("slope_excursion_allowed"), UNITS_FIG_IOPS, sa, sizeof(sa));
    units_format_figure(FX("slope_excursion"), UNITS_FIG_IOPS, sm, sizeof(sm));
    units_format_figure(100 * FX("slope_excursion") / a, UNITS_FIG_PCT, sp, sizeof(sp));
    snprintf(want, sizeof(want), "| zdrive-6300-1.6t (simulated drive) | 4 KiB "
             "random write IOPS | %.0f–%.0f | %s | %s | %s (%s) | %s | %s (%s) | ",
             FX("first_round"), FX("last_round"), avg, ra, rm, rp, sa, sm, sp);
#undef FX
    print_message("  looking for '%s'\n", want);
    const char *row = strstr(tab, want);
    assert_non_null(row);
    /* the fixture's 6300: 139,909 IOPS average, range 16,486 (11.8%) of 27,982 allowed */
    assert_non_null(strstr(want, "| 139,909 | 27,982 | 16,486 (11.8%) |"));
    const char *eol = strchr(row, '\n');
    assert_non_null(eol);
    const char *verdict = strstr(row, "| steady state at round 7 |");
    assert_true(verdict && verdict < eol);
    const char *fit = strstr(row, "| y = 151·x + 139,154 |");
    assert_true(fit && fit < eol);
    assert_non_null(strstr(html, "<th>Measured slope excursion</th>"));
    free(md);
    free(html);
}

static void test_profile_tables(void **state)
{
    (void)state;
    const char *const names[] = {"profile-r4", NULL};
    char *html, *md = render("profile", names, &html);
    assert_null(strstr(md, "| Profile | Workload |"));
    assert_non_null(strstr(md, "| Workload | Data | Workers | QD |"));
    assert_null(strstr(md, "IOPS with incompressible data and"));
    assert_non_null(strstr(md, "| database | 1 × 32 | 48,870 | 142,591 | 2.92× |"));
    free(md);
    free(html);
}

/* A run's steady-state determination as the same table: a fresh simulated run (burst: no
 * preconditioning), its window's figures by the shared figure rule, and the verdict the run's
 * own label ("stable (fresh-out-of-box / burst)"), never "steady state". Results that kept only
 * the window's bounds (the run fixtures) get no table: their verdict sentence says it. */
static void test_run_steady_table(void **state)
{
    (void)state;
    char out[600], rep[700];
    snprintf(out, sizeof(out), "%s/run-ss", dir);
    char *argv[] = {(char *)ptsbench_bin(), "run", "--target", "sim:generic-mlc25", "--workload",
                    "rw=randread,bs=4k,qd=8", "--rounds", "6", "--round-time", "2s", "--quiet",
                    "--out", out, NULL};
    struct json_object *doc = ptsbench_results(argv, out, 0, NULL);
    assert_non_null(doc);
    snprintf(rep, sizeof(rep), "%s/rep", out);
    char *rargv[] = {(char *)ptsbench_bin(), "report", out, "--no-plots", "--out", rep, NULL};
    struct cmd_result r;
    assert_int_equal(run_cmd(rargv, &r), 0);
    assert_int_equal(r.status, 0);
    cmd_result_free(&r);
    char p[800];
    snprintf(p, sizeof(p), "%s/report.md", rep);
    char *md = slurp_file(p, NULL);
    assert_non_null(md);
    const char *runs = strstr(md, "\n## Runs");
    assert_non_null(runs);
    const char *tab = strstr(runs, "Steady-state determination (SNIA PTS");
    assert_non_null(tab);
    struct json_object *w = json_at(doc, "steady_state.window");
    double a = json_num(w, "average");
    char avg[32], ra[32], rm[32], rp[32], want[512];
    units_format_figure(a, UNITS_FIG_IOPS, avg, sizeof(avg));
    units_format_figure(json_num(w, "range_allowed"), UNITS_FIG_IOPS, ra, sizeof(ra));
    units_format_figure(json_num(w, "range"), UNITS_FIG_IOPS, rm, sizeof(rm));
    units_format_figure(100 * json_num(w, "range") / a, UNITS_FIG_PCT, rp, sizeof(rp));
    snprintf(want, sizeof(want), "| IOPS | %.0f–%.0f | %s | %s | %s (%s) |",
             json_num(w, "first_round"), json_num(w, "last_round"), avg, ra, rm, rp);
    print_message("  looking for '%s'\n", want);
    const char *row = strstr(tab, want);
    assert_non_null(row);
    const char *eol = strchr(row, '\n');
    const char *label = json_object_get_string(json_at(doc, "steady_state.label"));
    assert_non_null(label);
    assert_false(json_object_get_boolean(json_at(doc, "steady_state.reached")));
    char lab[200];
    snprintf(lab, sizeof(lab), "| %s |", label);
    const char *v = strstr(row, lab);
    assert_true(v && v < eol);
    assert_null(strstr(row, "steady state at round"));
    free(md);
    json_object_put(doc);

    /* the run fixtures kept only the window's bounds and average: no table, no row of dashes */
    const char *const names[] = {"run-steady-6300", NULL};
    char *html, *fmd = render("run-fixture", names, &html);
    assert_null(strstr(fmd, "Steady-state determination (SNIA PTS"));
    free(fmd);
    free(html);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_no_internal_names),
        cmocka_unit_test(test_summary_table),
        cmocka_unit_test(test_summary_by_device),
        cmocka_unit_test(test_profile_state_once),
        cmocka_unit_test(test_profile_tables),
        cmocka_unit_test(test_steady_table),
        cmocka_unit_test(test_run_steady_table),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
