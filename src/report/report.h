/* report.h — a review-style report from results files alone: HTML and a Markdown twin.
 *
 * The shape follows the SNIA PTS reporting requirements (docs/pts.md §3) and the
 * seed reviews: a header (test platform, device under test, set-up and test parameters,
 * purge method, specification version, compliance notes), then per test a short summary in
 * words, its tables and its charts (plot.h). Several result sets side by side (one per device)
 * share every table and chart, as reviews compare drives. The HTML is self-contained apart
 * from the chart images beside it (DIR/plots/): inline style, no scripts, no external fonts,
 * readable offline. Nothing is re-run.
 *
 * The summary has one column per drive (a simulated preset with the drive's own options, a
 * model and serial, a path), filled from suites, runs and profiles, every cell with its drive
 * state; a run's write-saturation window is the plateau, its burst the burst, never a burst in
 * a row of a steady quantity; rows no input measures are left out and named. Figure cells never
 * wrap (a table scrolls sideways instead); a run of more than 30 rounds shows an excerpt of its
 * rounds, every round collapsed below it. */
#ifndef PTSBENCH_REPORT_H
#define PTSBENCH_REPORT_H

#include <stdbool.h>
#include <stddef.h>

struct json_object;
struct plot_file;
struct results_doc;
struct verify_sheet;

struct report_input {
    struct json_object *doc;   /* a results document: ptsbench.run, .suite or .profile */
    const char *label;         /* the device's name in tables and legends */
    const char *path;          /* where it came from */
    struct results_doc *src;   /* NULL, or its handle (read/doc.h, doc its json): the points
                                  measured once from it; NULL: measured from path */
};

struct report_config {
    const char *out_dir;       /* report.html, report.md, plots/ */
    const char *title;         /* NULL: from the devices */
    int no_plots;              /* tables and text only (no gnuplot) */
    const char *css_path;      /* style sheet inlined into the HTML (reports/report.css); NULL
                                  or unreadable: a minimal built-in style */
    const struct verify_sheet *const *sheets;   /* NULL, or one per input (NULL: none): the
                                  vendor's spec sheet of that input's device (verify.h), judged
                                  in "Measured vs claimed", counted in the summary, its form
                                  factor and NAND type in the header */
    double tolerance;          /* for the claims, a fraction; 0: VERIFY_DEFAULT_TOLERANCE */
    bool single_file;          /* the charts inlined into the HTML as data: URIs (PNG shown,
                                  SVG linked): one file that references nothing outside itself */
    const struct plot_file *history;   /* trend charts from the results history (report --db,
                                  already rendered into OUT/plots/): a "History" section */
    size_t n_history;
    const char *history_db;    /* the history's file, named in that section */
    struct json_object *fleet; /* NULL, or the ptsbench.fleet document the inputs came from
                                  (one command on several targets): its section "Several
                                  targets" with the targets' states and, run at once, the
                                  aggregate per round */
};

/* Load RESULTS (a results.json, or a directory holding one) through the one loader
 * (read/load.h) into *doc (the caller json_object_put()s it); path receives the file read.
 * Returns 0, or -1 with one line naming the file: no such file, not JSON, or a schema other than
 * ptsbench.run, .suite and .profile. */
int report_load(const char *arg, struct json_object **doc, char *path, size_t len, char *err,
                size_t errlen);

/* Write DIR/report.html and DIR/report.md (and the charts). Returns 0, or -1 with one line.
 * html_path/md_path (may be NULL) receive the files written. */
int report_write(const struct report_input *in, size_t n, const struct report_config *cfg,
                 char *html_path, size_t html_len, char *md_path, size_t md_len, char *err,
                 size_t errlen);

/* Whether report.c's table has a section for presentation p (enum pts_report, pts/pts_def.h;
 * every one has an entry, "generic" the parameters only: tests/unit/test_presentation.c). */
bool report_presentation_has_section(int p);

/* "1,234,567" style count; "48.1K"-style is not used: reviewers quote whole IOPS. */
void report_fmt_count(double v, char *buf, size_t len);

#endif
