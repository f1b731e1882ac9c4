/* report_session.c — `ptsbench report` below the command line (report_session.h). */
#include "report/report_session.h"

#include <dirent.h>
#include <json-c/json.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "judge/verify.h"
#include "lib/util.h"
#include "read/doc.h"
#include "read/measure.h"
#include "report/report_pdf.h"

struct report_session {
    const struct report_args *a;
    struct report_config cfg;
    unsigned n;                                   /* inputs after the fleets' expansion */
    struct results_doc *doc[REPORT_MAX_INPUTS];   /* NULL: load_err says why */
    char load_err[REPORT_MAX_INPUTS][ERR_LEN];
    read_fleet_path member[REPORT_MAX_INPUTS];    /* a fleet's target's results */
    read_fleet_name member_label[REPORT_MAX_INPUTS];
    const char *label[REPORT_MAX_INPUTS];
    struct report_input in[REPORT_MAX_INPUTS];
    struct verify_sheet sheet[REPORT_MAX_INPUTS];
    const struct verify_sheet *per_input[REPORT_MAX_INPUTS];
    unsigned n_sheets;
    struct plot_file *history;
};

static void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("ptsbench report: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

/* One input slot: ARG opened (or why not, said when the inputs' turn comes). */
static int add_input(struct report_session *s, struct results_doc *d, const char *why,
                     const char *label)
{
    if (s->n >= REPORT_MAX_INPUTS) {
        results_doc_close(d);
        fail("more than %d result sets", REPORT_MAX_INPUTS);
        return -1;
    }
    s->doc[s->n] = d;
    str_copy(s->load_err[s->n], sizeof(s->load_err[s->n]), why ? why : "");
    s->label[s->n] = label;
    s->n++;
    return 0;
}

typedef char subdir_name[256];

static int subdir_cmp(const void *a, const void *b) { return strcmp(a, b); }

/* A directory without a results.json whose folders hold one each (`report
 * demo-results/TIMESTAMP`): those folders' names, sorted, at most max (0: not such a
 * directory). */
static unsigned results_subdirs(const char *arg, subdir_name *names, unsigned max)
{
    struct stat st;
    char p[4400];
    snprintf(p, sizeof(p), "%s/results.json", arg);
    if (stat(arg, &st) != 0 || !S_ISDIR(st.st_mode) || stat(p, &st) == 0)
        return 0;
    DIR *d = opendir(arg);
    if (!d)
        return 0;
    unsigned n = 0;
    for (struct dirent *e = readdir(d); e && n < max; e = readdir(d)) {
        snprintf(p, sizeof(p), "%s/%s/results.json", arg, e->d_name);
        if (e->d_name[0] != '.' && stat(p, &st) == 0 && S_ISREG(st.st_mode))
            str_copy(names[n++], sizeof(names[0]), e->d_name);
    }
    closedir(d);
    qsort(names, n, sizeof(names[0]), subdir_cmp);
    return n;
}

/* A folder of result folders: each folder's results an input of its own, in name order,
 * labelled "LABEL (FOLDER)" (LABEL given, else the device's name). */
static int expand_folder(struct report_session *s, const char *arg, const char *label,
                         subdir_name *sub, unsigned n)
{
    printf("report: %s holds no results.json: the results of its %u folders, in name order:",
           arg, n);
    for (unsigned k = 0; k < n; k++)
        printf("%s %s", k ? "," : "", sub[k]);
    printf("\n");
    for (unsigned k = 0; k < n; k++) {
        char path[4400], err[ERR_LEN];
        snprintf(path, sizeof(path), "%s%s%s", arg, arg[strlen(arg) - 1] == '/' ? "" : "/",
                 sub[k]);
        struct results_doc *d = results_doc_open(path, READ_RESULTS, READ_VOICE_REPORT, err,
                                                 sizeof(err));
        const char *l = NULL;
        if (d && s->n < REPORT_MAX_INPUTS) {
            snprintf(s->member_label[s->n], sizeof(s->member_label[0]), "%s (%s)",
                     label ? label : results_doc_device_label(d->json, NULL), sub[k]);
            l = s->member_label[s->n];
        }
        if (add_input(s, d, err, l) != 0)
            return -1;
    }
    return 0;
}

/* The same results file twice (`report r1 r1`, or a folder and one of its folders): refused,
 * naming it. */
static int check_duplicates(const struct report_session *s)
{
    for (unsigned i = 0; i < s->n; i++) {
        char ri[PATH_MAX], rj[PATH_MAX];
        if (!realpath(s->doc[i]->path, ri))
            continue;
        for (unsigned j = i + 1; j < s->n; j++) {
            if (realpath(s->doc[j]->path, rj) && !strcmp(ri, rj)) {
                fail("%s is given twice (result sets %u and %u): give each results once",
                     s->doc[j]->path, i + 1, j + 1);
                return -1;
            }
        }
    }
    return 0;
}

/* A fleet's results (one command on several targets) stand for its targets' own, each
 * labelled as the fleet labelled it; the first fleet's document goes to the report for its
 * aggregate. Every file is opened once, here; a failure to open is said in the inputs' turn. */
static int expand(struct report_session *s)
{
    const struct report_args *a = s->a;
    for (unsigned i = 0; i < a->n_files; i++) {
        char err[ERR_LEN];
        subdir_name sub[REPORT_MAX_INPUTS + 1];
        const unsigned nsub = results_subdirs(a->files[i], sub, REPORT_MAX_INPUTS + 1);
        if (nsub) {
            if (expand_folder(s, a->files[i], i < a->n_labels ? a->labels[i] : NULL, sub,
                              nsub) != 0)
                return -1;
            continue;
        }
        struct results_doc *d = results_doc_open(a->files[i], READ_RESULTS | READ_FLEET,
                                                 READ_VOICE_REPORT, err, sizeof(err));
        if (!d || d->kind != READ_FLEET) {   /* an input of its own */
            if (add_input(s, d, err, i < a->n_labels ? a->labels[i] : NULL) != 0)
                return -1;
            continue;
        }
        const int m = read_fleet_members(d->json, d->path, s->member + s->n,
                                         s->member_label + s->n, REPORT_MAX_INPUTS - s->n, err,
                                         sizeof(err));
        if (m < 0) {
            results_doc_close(d);
            fail("%s", err);
            return -1;
        }
        for (int k = 0, at = (int)s->n; k < m; k++) {
            struct results_doc *md = results_doc_open(s->member[at + k], READ_RESULTS,
                                                      READ_VOICE_REPORT, err, sizeof(err));
            const char *l = s->member_label[at + k][0] ? s->member_label[at + k] : NULL;
            add_input(s, md, err, l);
        }
        if (!s->cfg.fleet)
            s->cfg.fleet = json_object_get(d->json);
        results_doc_close(d);
    }
    return 0;
}

/* The sheets first: an unknown or bad one stops here, nothing written. */
static int load_sheets(struct report_session *s)
{
    const struct report_args *a = s->a;
    if (a->n_specs > 1 && a->n_specs != s->n) {
        fail("--spec: %u sheets for %u result sets (give one for every RESULTS, or one per "
             "RESULTS, - for none)", a->n_specs, s->n);
        return -1;
    }
    for (unsigned k = 0; k < a->n_specs; k++) {
        if (!strcmp(a->specs[k], "-"))
            continue;
        char path[4096], why[ERR_LEN];
        if (a->find_spec(a->specs[k], path, sizeof(path), why, sizeof(why)) != 0 ||
            verify_sheet_load(path, &s->sheet[s->n_sheets], why, sizeof(why)) != 0) {
            fail("--spec %s: %s", a->specs[k], why);
            return -1;
        }
        if (a->n_specs == 1)
            for (unsigned i = 0; i < s->n; i++)
                s->per_input[i] = &s->sheet[s->n_sheets];
        else
            s->per_input[k] = &s->sheet[s->n_sheets];
        s->n_sheets++;
    }
    s->cfg.sheets = a->n_specs ? s->per_input : NULL;
    return 0;
}

/* A sheet's claims are judged only on results of its drive (verify.h, "The drive"): another
 * target is refused with one line naming both, unless --any-drive. */
static int check_drives(const struct report_session *s)
{
    for (unsigned i = 0; i < s->n && s->cfg.sheets && !s->a->any_drive; i++) {
        const struct verify_sheet *sh = s->cfg.sheets[i];
        struct meas_target t;
        char why[ERR_LEN], line[4 * ERR_LEN];
        if (!sh)
            continue;
        meas_target_read(s->in[i].doc, s->in[i].path, &t);
        if (verify_drive_match(sh, &t, why, sizeof(why)))
            continue;
        verify_drive_refusal(sh, &t, why, line, sizeof(line));
        fail("--spec: %s", line);
        return -1;
    }
    return 0;
}

struct report_session *report_session_open(const struct report_args *a, int *code)
{
    struct report_session *s = xcalloc(1, sizeof(*s));
    s->a = a;
    s->cfg = a->cfg;
    s->cfg.fleet = NULL;
    s->cfg.history = NULL;
    s->cfg.n_history = 0;
    s->cfg.history_db = NULL;
    *code = EXIT_USAGE;
    if (expand(s) != 0 || load_sheets(s) != 0) {
        report_session_close(s);
        return NULL;
    }
    for (unsigned i = 0; i < s->n; i++) {
        if (!s->doc[i]) {
            fail("%s", s->load_err[i]);
            report_session_close(s);
            return NULL;
        }
        s->in[i] = (struct report_input){.doc = s->doc[i]->json, .label = s->label[i],
                                         .path = s->doc[i]->path, .src = s->doc[i]};
    }
    if (check_duplicates(s) != 0 || check_drives(s) != 0) {
        report_session_close(s);
        return NULL;
    }
    *code = EXIT_OK;
    return s;
}

/* --pdf: OUT/report.pdf from the HTML. The exit status. */
static int write_pdf(const struct report_session *s, const char *html)
{
    char pdf_path[4300], why[ERR_LEN];
    snprintf(pdf_path, sizeof(pdf_path), "%s/report.pdf", s->cfg.out_dir);
    int st = report_pdf(html, pdf_path, REPORT_PDF_TIMEOUT_S, NULL, 0, why, sizeof(why));
    if (st == REPORT_PDF_NO_RENDERER) {
        fprintf(stderr, "ptsbench report --pdf: needs chromium (Debian package chromium) or "
                        "google-chrome in PATH; the HTML report is written, no PDF\n");
        return EXIT_FAILURE_RUN;
    }
    if (st != REPORT_PDF_OK) {
        fprintf(stderr, "ptsbench report --pdf: %s; the HTML report is written, no PDF\n", why);
        return EXIT_FAILURE_RUN;
    }
    printf("        %s\n", pdf_path);
    return EXIT_OK;
}

int report_session_write(struct report_session *s)
{
    char err[ERR_LEN];
    const struct report_args *a = s->a;
    if (a->history_db) {
        if (a->history(a->history_db, s->cfg.out_dir, s->in, s->n, &s->history,
                       &s->cfg.n_history, err, sizeof(err)) != 0) {
            fail("--db %s: %s", a->history_db, err);
            return EXIT_FAILURE_RUN;
        }
        s->cfg.history = s->history;
        s->cfg.history_db = a->history_db;
    }
    char html[4200], md[4200];
    if (report_write(s->in, s->n, &s->cfg, html, sizeof(html), md, sizeof(md), err,
                     sizeof(err)) != 0) {
        fail("%s", err);
        return EXIT_FAILURE_RUN;
    }
    printf("report: %s\n        %s\n", html, md);
    return a->pdf ? write_pdf(s, html) : EXIT_OK;
}

void report_session_close(struct report_session *s)
{
    if (!s)
        return;
    for (unsigned i = 0; i < s->n; i++)
        results_doc_close(s->doc[i]);
    for (unsigned j = 0; j < s->n_sheets; j++)
        verify_sheet_free(&s->sheet[j]);
    json_object_put(s->cfg.fleet);
    free(s->history);
    free(s);
}
