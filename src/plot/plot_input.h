/* plot_input.h — the RESULTS of `ptsbench plot`: each a results.json (ptsbench.run, .suite or
 * .profile) or a directory holding one, loaded through the one loader (read/load.h: a
 * malformed document is one error, not a crash), and named: the given labels in order, else the default label
 * (plot_default_label); the same name twice on results of one kind (which would share charts)
 * gets the later one's directory appended, "NAME (DIR)", "NAME (DIR #2)", .... */
#ifndef PTSBENCH_PLOT_INPUT_H
#define PTSBENCH_PLOT_INPUT_H

#include <stddef.h>

#include "plot/plot.h"

#define PLOT_MAX_INPUTS 32

struct plot_inputs {
    struct plot_input in[PLOT_MAX_INPUTS];   /* for plot_all */
    size_t n;
    char files[PLOT_MAX_INPUTS][4096];       /* the results file of each */
    char tags[PLOT_MAX_INPUTS][256];         /* its directory (or file) name */
    char names[PLOT_MAX_INPUTS][512];        /* its label */
};

/* Load paths[0..n-1] (n <= PLOT_MAX_INPUTS, n_labels <= n) into pi. 0, or -1 with one line in
 * err (nothing left to free). */
int plot_inputs_load(struct plot_inputs *pi, const char *const *paths, size_t n,
                     const char *const *labels, size_t n_labels, char *err, size_t errlen);
void plot_inputs_free(struct plot_inputs *pi);

#endif
