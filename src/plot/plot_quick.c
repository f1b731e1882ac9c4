/* plot_quick.c — the quick mark's chart (`ptsbench quick`): MB/s of each test, read and write
 * side by side, as CrystalDiskMark shows them. A quick document is a profile document whose
 * "mark" is "quick" (reports/results-schema.md); each test is named from the stimulus its
 * points recorded (SEQ1M Q8T1, RND4K Q1T1), read and write paired by that name. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lib/json_path.h"
#include "lib/util.h"
#include "plot/chart.h"
#include "read/load.h"

#define QUICK_MAX_TESTS 16

static bool is_quick(struct json_object *doc)
{
    const char *m = jp_str(doc, "mark");
    return !strcmp(read_schema(doc), "ptsbench.profile") && m && !strcmp(m, "quick");
}

void plot_quick_test_name(struct json_object *stimulus, char *buf, size_t len)
{
    const double bs = jp_path(stimulus, "block_sizes.0.bytes");
    char size[32];
    if (bs >= 1048576 && (long long)bs % 1048576 == 0)
        snprintf(size, sizeof(size), "%lldM", (long long)bs / 1048576);
    else
        snprintf(size, sizeof(size), "%lldK", (long long)bs / 1024);
    snprintf(buf, len, "%s%s Q%lldT%lld", jp_num(stimulus, "random_pct") > 0 ? "RND" : "SEQ",
             size, (long long)jp_num(stimulus, "qd"), (long long)jp_num(stimulus, "workers"));
}

/* The tests of every quick input, in order of first appearance. */
static size_t quick_tests(struct plot_ctx *c, char (*names)[48])
{
    size_t n = 0;
    for (size_t i = 0; i < c->n_in; i++) {
        if (!is_quick(c->in[i].doc))
            continue;
        struct json_object *pts = jp_arr(c->in[i].doc, "points");
        for (size_t j = 0; j < jp_len(pts); j++) {
            char name[48];
            plot_quick_test_name(jp_get(jp_idx(pts, j), "stimulus"), name, sizeof(name));
            size_t k = 0;
            while (k < n && strcmp(names[k], name))
                k++;
            if (k == n && n < QUICK_MAX_TESTS)
                str_copy(names[n++], sizeof(names[0]), name);
        }
    }
    return n;
}

/* MB/s of input i's test `name`, reads (write false) or writes; NAN when not measured. */
static double quick_mbs(struct json_object *doc, const char *name, bool write)
{
    struct json_object *pts = jp_arr(doc, "points");
    for (size_t j = 0; j < jp_len(pts); j++) {
        struct json_object *p = jp_idx(pts, j), *stim = jp_get(p, "stimulus");
        char n[48];
        plot_quick_test_name(stim, n, sizeof(n));
        if (!strcmp(n, name) && (jp_num(stim, "read_pct") > 0) == !write && jp_get(p, "result"))
            return jp_path(p, "result.total.mb_s");
    }
    return NAN;
}

void plot_quick_charts(struct plot_ctx *c)
{
    char names[QUICK_MAX_TESTS][48];
    const size_t n = quick_tests(c, names);
    if (!n)
        return;
    char title[256] = "Quick mark: MB/s by test, read and write", tag[96] = "";
    size_t inputs[8] = {0}, n_dev = 0;
    for (size_t i = 0; i < c->n_in && n_dev < 8; i++)
        if (is_quick(c->in[i].doc))
            inputs[n_dev++] = i;
    plot_doc_state_tag(c->in[inputs[0]].doc, tag, sizeof(tag));
    if (tag[0] && n_dev == 1) {
        size_t len = strlen(title);
        snprintf(title + len, sizeof(title) - len, " (%s)", tag);
    }
    struct plot_chart *ch = plot_chart_new(
        c, "quick-bars", "profile", title,
        "MB/s of each quick-mark test (CrystalDiskMark's corners: sequential 1 MiB at QD 8 and "
        "128 KiB at QD 32, random 4 KiB at QD 32 and QD 1), read and write side by side, each "
        "measured once for its round after a short ramp.");
    char cols[1024] = "test";
    for (size_t d = 0; d < n_dev; d++) {
        size_t len = strlen(cols);
        snprintf(cols + len, sizeof(cols) - len, " read_mb_s[%zu] write_mb_s[%zu]", d, d);
    }
    plot_table(ch, cols);
    for (size_t t = 0; t < n; t++) {
        double v[16];
        for (size_t d = 0; d < n_dev; d++) {
            v[2 * d] = quick_mbs(c->in[inputs[d]].doc, names[t], false);
            v[2 * d + 1] = quick_mbs(c->in[inputs[d]].doc, names[t], true);
        }
        plot_table_row(ch, names[t], (int)(2 * n_dev), v);
    }
    plot_set(ch, "set style data histogram");
    plot_set(ch, "set style histogram clustered gap 1");
    plot_set(ch, "set style fill solid 0.85 border lc rgb '#303030'");
    plot_set(ch, "set boxwidth 0.9");
    plot_set(ch, "set yrange [0:*]");
    plot_set(ch, "set xlabel 'test'");
    plot_set(ch, "set ylabel 'MB/s'");
    plot_count_axis(ch);
    plot_set(ch, "set grid noxtics ytics");
    struct plot_key_once ko = {0};
    for (size_t d = 0; d < n_dev; d++) {
        const int dev = plot_dev(ch, inputs[d]);
        for (int w = 0; w < 2; w++)
            plot_elem(ch, plot_key_once(&ko, n_dev > 1, w ? "write" : "read"),
                      "dat using %zu%s %s%s", 2 * d + (size_t)w + 2,
                      d == 0 && w == 0 ? ":xtic(1)" : "", plot_color(w), plot_bar_fill(dev));
    }
    if (n_dev > 1)
        plot_bar_dev_keys(c, ch);
    plot_bar_values(ch, 2 * n_dev, UNITS_FIG_MBS);
    plot_chart_done(c, ch);
}
