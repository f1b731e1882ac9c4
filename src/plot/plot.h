/* plot.h — gnuplot charts from results files (json-c documents), as the reviews draw them.
 *
 * For each chart a data file (.dat) and a gnuplot script (.gp) are written into the output
 * directory and gnuplot is run on the script (fork/exec, no shell) to render PNG and SVG; the
 * .gp and .dat files stay beside the images so a user can restyle and re-render by hand
 * (`gnuplot NAME.gp`). Several result sets given together are overlaid in every chart (one
 * series per device), as reviews compare drives. The charts are written with the builder of
 * plot/chart.h (the chart writer's contract); this header is what callers use. */
#ifndef PTSBENCH_PLOT_H
#define PTSBENCH_PLOT_H

#include <stddef.h>

#include "lib/json_path.h"
#include "pts/pts_def.h"

struct json_object;

struct plot_input {
    struct json_object *doc;   /* a results document (ptsbench.run, .suite or .profile) */
    const char *label;         /* series name for this result set (device), e.g. the model */
    const char *source;        /* optional: the results file it came from, named in the .dat
                                  headers (NULL: the document's target path is named) */
};

struct plot_file {
    char name[128];            /* file stem, e.g. "iops-steady-convergence" */
    char title[256];
    char caption[512];         /* one sentence: what the chart shows */
    char section[64];          /* what it belongs to: "iops", "wsat", "profile", "run", ... */
    char png[4200], svg[4200], gp[4200], dat[4200];   /* paths written */
};

struct plot_list {
    struct plot_file *f;
    size_t n;
};

/* Write and render every chart that applies to the inputs into out_dir (created if needed).
 * Returns 0 (list filled, possibly empty), or -1 with one line (gnuplot missing or failing,
 * unwritable directory). */
int plot_all(const struct plot_input *in, size_t n_in, const char *out_dir,
             struct plot_list *out, char *err, size_t errlen);
void plot_list_free(struct plot_list *l);

/* Every chart plot_all would draw, built with its data and script text in memory only: no file
 * written, no gnuplot run. Returns the number of charts. For the fuzzing harnesses (the readers
 * of every results schema at thousands of documents a second) and tests. */
size_t plot_build(const struct plot_input *in, size_t n_in);

/* The label plot uses for a results document when none is given: the target's model up to the
 * first ": " or ", " (simulated drives append a description), else its path, else "results". */
void plot_default_label(struct json_object *doc, char *buf, size_t len);

/* A quick-mark test's name from a point's recorded stimulus (plot_quick.c): "SEQ1M Q8T1",
 * "RND4K Q32T1" (pattern, first block size, QD, workers), as `ptsbench quick` prints it. */
void plot_quick_test_name(struct json_object *stimulus, char *buf, size_t len);

/* ---- State words (plot_state.c), shared with report.c ----
 *
 * Every figure says what state the drive was in (src/core/drive_state.h) and whether the drive was
 * simulated. Charts: a chart whose figures are all in one state says it in its title ("...
 * (steady state)", "... (burst, not preconditioned)"); a simulated input's label gets
 * " (simulated)" (plot_all does it), so a one-device chart's image title ("TITLE — LABEL")
 * and every legend entry naming the device carry it, and a chart of several simulated devices
 * says "(simulated drives)" in its title. Results from before the state fields (no
 * "measured_state") give "" and read as before. */
#include <stdbool.h>

/* The target is a simulated drive: target.simulated, target.kind "simulated", state.simulated
 * or compliance.simulated. */
bool plot_doc_simulated(struct json_object *doc);
/* How a run prepared the drive: preconditioning.mode, else run.precondition ("none", "wipc",
 * "steady"), or NULL. */
const char *plot_doc_prep(struct json_object *doc);
/* plot_doc_prep for plot_state_tag: "fast-no-ftl" where the fast pass ran on a target without an
 * FTL (preconditioning.fast.ftl "none"), whose words differ. */
const char *plot_doc_prep_tag(struct json_object *doc);
/* A short tag for a judged window (an object with "measured_state": a run's steady_state, a
 * profile point's result) prepared by prep ("none", "wipc", "steady", "fast", "fast-no-ftl";
 * NULL unknown):
 * "steady state", "burst, not preconditioned", "write saturation, not preconditioned", "after
 * WIPC, not steady state", "transient after WIPC + WDPC, not steady state", "... not stable";
 * "" without "measured_state". */
void plot_state_tag(struct json_object *verdict, const char *prep, char *buf, size_t len);
/* The tag of a whole document when it is one state (a run's window; a profile whose points
 * share one), else "". */
void plot_doc_state_tag(struct json_object *doc, char *buf, size_t len);
/* What a window is, for legends: "steady state"; the label when the window passed the SNIA
 * rule without being steady state ("stable (fresh-out-of-box / burst), not steady state");
 * "not stable"; old results and suite variables: "steady" / "not steady" (window.steady). */
void plot_window_word(struct json_object *var, char *buf, size_t len);
/* A round's state.condition in words: "fresh-out-of-box" (simulated; a real device: "not
 * preconditioned (history unknown)"), "purged", "after WIPC", "WIPC + WDPC". */
const char *plot_condition_words(const char *condition, bool simulated);
/* The round was a WDPC round (phase "wdpc": preconditioning under the stimulus, not judged). */
bool plot_round_is_wdpc(struct json_object *round);
/* Append " (tag)" to title when tag is not empty. */
void plot_title_tag(char *title, size_t len, const char *tag);

/* How the report presents a suite test (tests[i]): its section (report.c's table) and charts
 * (plot_pts.c's table) are the ones of this presentation, one of pts/'s (enum pts_report; the
 * definition's `report` key, recorded as tests[i].report; its name: pts_report_name). A name
 * this version does not know (results of a newer one): PTS_REPORT_GENERIC, the parameters only.
 * The version-1 fallback, for results from before the field (and the fixtures): from the
 * test's name as the report chose before, iops, tp, lat, wsat* (wsat), hir, xsr, dirth and
 * cbw (dirth); then from tests[i].kind (hir, xsr, dirth); else generic. Every presentation has
 * an entry in both tables (tests/unit/test_presentation.c). */
enum pts_report plot_test_presentation(struct json_object *test);
/* Its name, pts_report_name(plot_test_presentation(test)). */
const char *plot_test_report(struct json_object *test);

#endif
