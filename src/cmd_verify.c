/* cmd_verify.c — `ptsbench verify --spec FILE RESULTS...`: a vendor spec sheet's claims against
 * measured results, claim by claim (the rules are in src/report/verify.h). */
#include <getopt.h>
#include <json-c/json.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "measure.h"
#include "util.h"
#include "verify.h"

static void verify_usage(FILE *f)
{
    fputs(
        "usage: ptsbench verify --spec FILE|NAME RESULTS... [--tolerance 5%] [--json]\n"
        "\n"
        "Check a vendor's spec sheet against measured results: every claim (IOPS, MB/s,\n"
        "latency at a block size, pattern and read share) is matched with the closest measured\n"
        "point and judged within a tolerance. RESULTS are results.json files of run, suite or\n"
        "profile, or directories searched for them.\n"
        "\n"
        "  -s, --spec FILE|NAME    the spec sheet: a file, or a name in the specs directory\n"
        "                          (e.g. zdrive-6300-1.6t for specs/zdrive-6300-1.6t.ini)\n"
        "  -t, --tolerance PCT     how far below a claimed IOPS or MB/s (above a claimed\n"
        "                          latency) a measurement may be and pass: 5% (default), 5 or 0.5\n"
        "  -j, --json              print a JSON document (every claim with all its fields)\n"
        "  -h, --help              this text\n"
        "\n"
        "Matching: the same block size, pattern and read share, else \"no data\"; then points\n"
        "whose compressibility and drive state (fob, steady) are as claimed, else the fewest\n"
        "differing conditions (marked *); then the closest outstanding I/O (workers x QD).\n"
        "Ratio: measured / claimed, for latencies claimed / measured: above 1 is better than\n"
        "claimed. Pass: measured >= (1 - tol) x claimed (latency: <= (1 + tol) x claimed).\n"
        "\n"
        "Exit status: 0 every claim with data passes (claims without data are listed but do not\n"
        "fail), 1 a claim fails, 2 bad input (a missing spec file, bad tolerance, unreadable\n"
        "results).\n",
        f);
}

/* --spec: an existing file, else NAME or NAME.ini in the specs data directories. */
static int verify_find_spec(const char *spec, char *out, size_t len, char *err, size_t errlen)
{
    struct stat st;
    if (stat(spec, &st) == 0 && S_ISREG(st.st_mode)) {
        str_copy(out, len, spec);
        return 0;
    }
    const char *const *dirs = cli_data_dirs("specs");
    if (!strchr(spec, '/')) {
        for (const char *const *d = dirs; *d; d++) {
            snprintf(out, len, "%s/%s", *d, spec);
            if (stat(out, &st) == 0 && S_ISREG(st.st_mode))
                return 0;
            snprintf(out, len, "%s/%s.ini", *d, spec);
            if (stat(out, &st) == 0 && S_ISREG(st.st_mode))
                return 0;
        }
    }
    if (!dirs[0])
        return errf(err, errlen, "no such file (and no specs directory to look in)");
    return errf(err, errlen, "no such file, nor %s.ini in %s", spec, dirs[0]);
}

/* 700000 -> "700000", 2637 -> "2637.0", 86.95 -> "86.95" */
static void fmt_num(double v, char *buf, size_t len)
{
    if (!isfinite(v))
        snprintf(buf, len, "-");
    else if (fabs(v) >= 10000)
        snprintf(buf, len, "%.0f", v);
    else if (fabs(v) >= 100)
        snprintf(buf, len, "%.1f", v);
    else
        snprintf(buf, len, "%.2f", v);
}

static void fmt_bs(uint32_t bs, char *buf, size_t len)
{
    if (bs % 1048576 == 0)
        snprintf(buf, len, "%u MiB", bs / 1048576);
    else if (bs % 1024 == 0)
        snprintf(buf, len, "%u KiB", bs / 1024);
    else if (bs == 512)
        snprintf(buf, len, "0.5 KiB");
    else
        snprintf(buf, len, "%u B", bs);
}

/* "4x32 steady c=0%" for a point */
static void fmt_at(const struct meas_point *p, char *buf, size_t len)
{
    char c[16];
    if (p->compress_pct < 0)
        snprintf(c, sizeof(c), "?");
    else
        snprintf(c, sizeof(c), "%d%%", p->compress_pct);
    snprintf(buf, len, "%ux%u %s c=%s", p->workers, p->qd, meas_state_name(p->state), c);
}

/* "4 KiB random 100/0 4x32 steady c=0%" for a claim, unstated conditions as "?" / "any" */
static void fmt_claim_cond(const struct verify_claim *c, char *buf, size_t len)
{
    char bs[32], oio[32], comp[16];
    fmt_bs(c->bs, bs, sizeof(bs));
    if (c->threads || c->qd) {
        char t[12] = "?", q[12] = "?";
        if (c->threads)
            snprintf(t, sizeof(t), "%u", c->threads);
        if (c->qd)
            snprintf(q, sizeof(q), "%u", c->qd);
        snprintf(oio, sizeof(oio), "%sx%s", t, q);
    } else {
        snprintf(oio, sizeof(oio), "?x?");
    }
    if (c->compress_pct < 0)
        snprintf(comp, sizeof(comp), "any");
    else
        snprintf(comp, sizeof(comp), "%d%%", c->compress_pct);
    snprintf(buf, len, "%s %s %d/%d %s %s c=%s", bs, c->sequential ? "sequential" : "random",
             c->read_pct, 100 - c->read_pct, oio,
             c->state == MEAS_STATE_UNKNOWN ? "any" : meas_state_name(c->state), comp);
}

enum { COL_CLAIM, COL_COND, COL_CLAIMED, COL_MEASURED, COL_POINT, COL_AT, COL_RATIO,
       COL_VERDICT, N_COLS };

static void print_table(const struct verify_sheet *sheet, const struct verify_result *res,
                        const struct meas_set *set, int n_results, char **results,
                        double tol)
{
    static const char *const head[N_COLS] = {"claim", "conditions", "claimed", "measured",
                                             "matched point", "at", "ratio", "verdict"};
    size_t n = sheet->n;
    char(*cell)[N_COLS][320] = xcalloc(n, sizeof(*cell));
    int w[N_COLS];
    for (int k = 0; k < N_COLS; k++)
        w[k] = (int)strlen(head[k]);
    unsigned pass = 0, fail = 0, nodata = 0, approx = 0;
    for (size_t i = 0; i < n; i++) {
        const struct verify_result *r = &res[i];
        const struct verify_claim *c = r->claim;
        char num[64];
        snprintf(cell[i][COL_CLAIM], 320, "%s", c->name);
        fmt_claim_cond(c, cell[i][COL_COND], 320);
        fmt_num(c->value, num, sizeof(num));
        snprintf(cell[i][COL_CLAIMED], 320, "%s %s", num, c->unit.name);
        if (r->match.point) {
            fmt_num(r->measured, num, sizeof(num));
            snprintf(cell[i][COL_MEASURED], 320, "%s %s", num, c->unit.name);
            snprintf(cell[i][COL_POINT], 320, "%s", r->match.point->label);
            fmt_at(r->match.point, cell[i][COL_AT], 320);
            snprintf(cell[i][COL_RATIO], 320, "%.3f", r->ratio);
        } else {
            snprintf(cell[i][COL_MEASURED], 320, "-");
            snprintf(cell[i][COL_POINT], 320, "no measured point matches");
            snprintf(cell[i][COL_AT], 320, "-");
            snprintf(cell[i][COL_RATIO], 320, "-");
        }
        bool star = r->match.point && !r->match.exact;
        snprintf(cell[i][COL_VERDICT], 320, "%s%s", verify_verdict_name(r->verdict),
                 star ? "*" : "");
        pass += r->verdict == VERIFY_PASS;
        fail += r->verdict == VERIFY_FAIL;
        nodata += r->verdict == VERIFY_NO_DATA;
        approx += star;
        for (int k = 0; k < N_COLS; k++) {
            int l = (int)strlen(cell[i][k]);
            if (k == COL_CLAIMED || k == COL_MEASURED || k == COL_AT) {
                /* count UTF-8 characters (µs) for alignment */
                for (const char *q = cell[i][k]; *q; q++)
                    l -= ((unsigned char)*q & 0xC0) == 0x80;
            }
            if (l > w[k])
                w[k] = l;
        }
    }

    printf("spec:    %s (%s), %zu claim%s\n", sheet->device, sheet->path, n, n == 1 ? "" : "s");
    printf("results:");
    for (int i = 0; i < n_results; i++)
        printf(" %s", results[i]);
    printf(" (%u file%s, %zu points, device %s)\n", set->n_files, set->n_files == 1 ? "" : "s",
           set->n, set->device[0] ? set->device : "?");
    printf("tolerance %g%%\n\n", tol * 100);
    for (int k = 0; k < N_COLS; k++) {
        bool right = k == COL_CLAIMED || k == COL_MEASURED || k == COL_RATIO;
        if (k == N_COLS - 1)
            printf("%s\n", head[k]);
        else
            printf(right ? "%*s  " : "%-*s  ", w[k], head[k]);
    }
    for (size_t i = 0; i < n; i++) {
        for (int k = 0; k < N_COLS; k++) {
            int extra = 0;
            for (const char *q = cell[i][k]; *q; q++)
                extra += ((unsigned char)*q & 0xC0) == 0x80;
            bool right = k == COL_CLAIMED || k == COL_MEASURED || k == COL_RATIO;
            if (k == N_COLS - 1)
                printf("%s", cell[i][k]);
            else if (right)
                printf("%*s  ", w[k] + extra, cell[i][k]);
            else
                printf("%-*s  ", w[k] + extra, cell[i][k]);
        }
        printf("\n");
    }
    if (approx || nodata)
        printf("\n");
    for (size_t i = 0; i < n; i++) {
        const struct verify_result *r = &res[i];
        char diff[256];
        if (r->match.point && !r->match.exact) {
            verify_match_differences(r->claim, &r->match, diff, sizeof(diff));
            printf("* %s: no point at the claimed conditions; the nearest differs: %s\n",
                   r->claim->name, diff);
        } else if (!r->match.point) {
            char cond[256];
            verify_claim_conditions(r->claim, cond, sizeof(cond));
            printf("  %s: no measured point matches (%s)\n", r->claim->name, cond);
        }
    }
    printf("\n%zu claim%s: %u pass, %u fail, %u without data (%u matched approximately, *); "
           "tolerance %g%%: %s\n",
           n, n == 1 ? "" : "s", pass, fail, nodata, approx, tol * 100,
           fail ? "FAIL" : pass ? "PASS" : "nothing verified");
    free(cell);
}

static struct json_object *jd(double v)
{
    return isfinite(v) ? json_object_new_double(v) : NULL;
}

static struct json_object *claim_json(const struct verify_result *r)
{
    const struct verify_claim *c = r->claim;
    struct json_object *o = json_object_new_object();
    char buf[512];
    json_object_object_add(o, "name", json_object_new_string(c->name));
    json_object_object_add(o, "metric", json_object_new_string(meas_metric_name(c->metric)));
    json_object_object_add(o, "metric_as_written", json_object_new_string(c->metric_text));
    json_object_object_add(o, "claimed", jd(c->value));
    json_object_object_add(o, "unit", json_object_new_string(c->unit.name));
    json_object_object_add(o, "claimed_base", jd(c->claimed));
    json_object_object_add(o, "base_unit", json_object_new_string(verify_base_unit(c->unit.kind)));
    json_object_object_add(o, "lower_is_better",
                           json_object_new_boolean(c->unit.kind == VERIFY_KIND_LATENCY));
    struct json_object *cond = json_object_new_object();
    json_object_object_add(cond, "bs", json_object_new_int64(c->bs));
    json_object_object_add(cond, "pattern",
                           json_object_new_string(c->sequential ? "sequential" : "random"));
    json_object_object_add(cond, "read_pct", json_object_new_int(c->read_pct));
    json_object_object_add(cond, "threads", c->threads ? json_object_new_int((int)c->threads)
                                                       : NULL);
    json_object_object_add(cond, "qd", c->qd ? json_object_new_int((int)c->qd) : NULL);
    json_object_object_add(cond, "outstanding", c->qd && c->threads
                                                    ? json_object_new_int((int)(c->qd * c->threads))
                                                    : NULL);
    json_object_object_add(cond, "compress_pct",
                           c->compress_pct >= 0 ? json_object_new_int(c->compress_pct) : NULL);
    json_object_object_add(cond, "state",
                           json_object_new_string(c->state == MEAS_STATE_UNKNOWN
                                                      ? "any" : meas_state_name(c->state)));
    json_object_object_add(o, "conditions", cond);
    verify_claim_conditions(c, buf, sizeof(buf));
    json_object_object_add(o, "conditions_text", json_object_new_string(buf));
    json_object_object_add(o, "source", json_object_new_string(c->source));
    if (c->note[0])
        json_object_object_add(o, "note", json_object_new_string(c->note));
    json_object_object_add(o, "verdict", json_object_new_string(verify_verdict_name(r->verdict)));
    json_object_object_add(o, "measured", jd(r->measured));
    json_object_object_add(o, "measured_base", jd(r->measured_base));
    json_object_object_add(o, "ratio", jd(r->ratio));
    const struct meas_point *p = r->match.point;
    json_object_object_add(o, "exact_match", json_object_new_boolean(p && r->match.exact));
    verify_match_differences(c, &r->match, buf, sizeof(buf));
    json_object_object_add(o, "differences", p ? json_object_new_string(buf) : NULL);
    if (!p) {
        json_object_object_add(o, "point", NULL);
        return o;
    }
    struct json_object *po = json_object_new_object();
    json_object_object_add(po, "key", json_object_new_string(p->key));
    json_object_object_add(po, "label", json_object_new_string(p->label));
    json_object_object_add(po, "source", json_object_new_string(p->source));
    json_object_object_add(po, "bs", json_object_new_int64(p->bs));
    json_object_object_add(po, "read_pct", json_object_new_int(p->read_pct));
    json_object_object_add(po, "random_pct", json_object_new_int(p->random_pct));
    json_object_object_add(po, "workers", json_object_new_int((int)p->workers));
    json_object_object_add(po, "qd", json_object_new_int((int)p->qd));
    json_object_object_add(po, "outstanding", json_object_new_int((int)(p->workers * p->qd)));
    json_object_object_add(po, "compress_pct",
                           p->compress_pct >= 0 ? json_object_new_int(p->compress_pct) : NULL);
    json_object_object_add(po, "state", json_object_new_string(meas_state_name(p->state)));
    json_object_object_add(po, "rounds", json_object_new_int((int)p->rounds));
    json_object_object_add(po, "value", jd(p->v[c->metric]));
    json_object_object_add(po, "spread", jd(p->spread[c->metric]));
    json_object_object_add(o, "point", po);
    return o;
}

static void print_json(const struct verify_sheet *sheet, const struct verify_result *res,
                       const struct meas_set *set, int n_results, char **results, double tol,
                       int status)
{
    struct json_object *root = json_object_new_object();
    json_object_object_add(root, "schema", json_object_new_string("ptsbench.verify"));
    json_object_object_add(root, "schema_version", json_object_new_int(1));
    json_object_object_add(root, "ptsbench_version", json_object_new_string(PTSBENCH_VERSION));
    struct json_object *sp = json_object_new_object();
    json_object_object_add(sp, "path", json_object_new_string(sheet->path));
    json_object_object_add(sp, "device", json_object_new_string(sheet->device));
    json_object_object_add(sp, "source", json_object_new_string(sheet->source));
    json_object_object_add(root, "spec", sp);
    struct json_object *ra = json_object_new_array();
    for (int i = 0; i < n_results; i++)
        json_object_array_add(ra, json_object_new_string(results[i]));
    json_object_object_add(root, "results", ra);
    struct json_object *me = json_object_new_object();
    json_object_object_add(me, "device", json_object_new_string(set->device));
    json_object_object_add(me, "files", json_object_new_int((int)set->n_files));
    json_object_object_add(me, "points", json_object_new_int64((int64_t)set->n));
    json_object_object_add(root, "measured", me);
    json_object_object_add(root, "tolerance_pct", json_object_new_double(tol * 100));
    json_object_object_add(root, "match_rule", json_object_new_string(VERIFY_MATCH_RULE));
    json_object_object_add(root, "verdict_rule", json_object_new_string(
        "pass when measured >= (1 - tolerance) x claimed for IOPS and throughput, measured <= "
        "(1 + tolerance) x claimed for latency; ratio = measured / claimed (latency: claimed / "
        "measured); no data when no measured point matches"));
    struct json_object *arr = json_object_new_array();
    unsigned cnt[3] = {0, 0, 0}, approx = 0;
    for (size_t i = 0; i < sheet->n; i++) {
        json_object_array_add(arr, claim_json(&res[i]));
        cnt[res[i].verdict]++;
        approx += res[i].match.point && !res[i].match.exact;
    }
    json_object_object_add(root, "claims", arr);
    struct json_object *sum = json_object_new_object();
    json_object_object_add(sum, "claims", json_object_new_int64((int64_t)sheet->n));
    json_object_object_add(sum, "pass", json_object_new_int((int)cnt[VERIFY_PASS]));
    json_object_object_add(sum, "fail", json_object_new_int((int)cnt[VERIFY_FAIL]));
    json_object_object_add(sum, "no_data", json_object_new_int((int)cnt[VERIFY_NO_DATA]));
    json_object_object_add(sum, "approximate", json_object_new_int((int)approx));
    json_object_object_add(root, "summary", sum);
    json_object_object_add(root, "exit_status", json_object_new_int(status));
    puts(json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY |
                                                  JSON_C_TO_STRING_NOSLASHESCAPE));
    json_object_put(root);
}

int cmd_verify(int argc, char **argv, int full_argc, char **full_argv)
{
    (void)full_argc;
    (void)full_argv;
    static const struct option opts[] = {
        {"spec", required_argument, NULL, 's'},
        {"tolerance", required_argument, NULL, 't'},
        {"json", no_argument, NULL, 'j'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    const char *spec = NULL;
    double tol = VERIFY_DEFAULT_TOLERANCE;
    bool json = false;
    char err[ERR_LEN];
    opterr = 0;
    optind = 1;
    int c;
    /* '+' is not used: RESULTS and options may come in any order */
    while ((c = getopt_long(argc, argv, ":s:t:jh", opts, NULL)) != -1) {
        switch (c) {
        case 's': spec = optarg; break;
        case 't':
            if (verify_parse_tolerance(optarg, &tol, err, sizeof(err)) != 0) {
                fprintf(stderr, "ptsbench verify: --tolerance %s: %s\n", optarg, err);
                return EXIT_USAGE;
            }
            break;
        case 'j': json = true; break;
        case 'h': verify_usage(stdout); return EXIT_OK;
        case ':':
            fprintf(stderr, "ptsbench verify: option '%s' needs a value\n", argv[optind - 1]);
            return EXIT_USAGE;
        default:
            fprintf(stderr, "ptsbench verify: unknown option '%s' (see ptsbench verify --help)\n",
                    argv[optind - 1]);
            return EXIT_USAGE;
        }
    }
    if (!spec) {
        fprintf(stderr, "ptsbench verify: --spec FILE is required (see ptsbench verify --help)\n");
        return EXIT_USAGE;
    }
    if (optind >= argc) {
        fprintf(stderr, "ptsbench verify: no RESULTS given (a results.json or a directory)\n");
        return EXIT_USAGE;
    }
    int n_results = argc - optind;
    char **results = argv + optind;

    char path[4096];
    if (verify_find_spec(spec, path, sizeof(path), err, sizeof(err)) != 0) {
        fprintf(stderr, "ptsbench verify: --spec %s: %s\n", spec, err);
        return EXIT_USAGE;
    }
    struct verify_sheet sheet;
    if (verify_sheet_load(path, &sheet, err, sizeof(err)) != 0) {
        fprintf(stderr, "ptsbench verify: --spec %s: %s\n", spec, err);
        return EXIT_USAGE;
    }
    struct meas_set set;
    memset(&set, 0, sizeof(set));
    for (int i = 0; i < n_results; i++) {
        struct meas_set one;
        if (meas_load(results[i], &one, err, sizeof(err)) != 0) {
            fprintf(stderr, "ptsbench verify: %s\n", err);
            meas_free(&set);
            verify_sheet_free(&sheet);
            return EXIT_USAGE;
        }
        meas_merge(&set, &one);
    }

    struct verify_result *res = xcalloc(sheet.n, sizeof(*res));
    bool failed = false;
    for (size_t i = 0; i < sheet.n; i++) {
        verify_check(&sheet.c[i], set.p, set.n, tol, &res[i]);
        failed |= res[i].verdict == VERIFY_FAIL;
    }
    int status = failed ? 1 : EXIT_OK;
    if (json)
        print_json(&sheet, res, &set, n_results, results, tol, status);
    else
        print_table(&sheet, res, &set, n_results, results, tol);

    free(res);
    meas_free(&set);
    verify_sheet_free(&sheet);
    return status;
}
