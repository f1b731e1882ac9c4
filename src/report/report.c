/* report.c — HTML and Markdown reports from results files (see report.h).
 *
 * One writer feeds both files (struct out): every heading, paragraph, table and chart is
 * emitted to the HTML and to the Markdown at once, so the twins cannot drift apart.
 *
 * Every figure says what state the drive was in (src/core/drive_state.h): a run's verdict uses its
 * label and reason ("stable (fresh-out-of-box / burst) at rounds 1–5, not SNIA steady state:
 * ..."), never "steady state" unless steady_state.reached; rounds and profile points show the
 * drive's state; suites say how each test prepared the drive. A simulated drive is named
 * "LABEL (simulated drive)" wherever its figures are, its tables' figure headers say
 * "(simulated)", and "compliant" never appears for it without "(simulated drive)". Results from
 * before the state fields keep today's wording. A run that issued trims (read/load.h,
 * read_has_trim) gets a Trim IOPS column and a table of its trims; one without shows none. */
#include "report/report.h"
#include "show/show.h"

#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/results.h"
#include "device/health.h"
#include "lib/file.h"
#include "lib/json_path.h"
#include "lib/units.h"
#include "lib/util.h"
#include "report/data_uri.h"
#include "read/measure.h"
#include "plot/plot.h"
#include "read/doc.h"
#include "read/jobs.h"
#include "read/load.h"
#include "judge/verify.h"
#include "read/tracking.h"
#include "read/words.h"
#include "stats/hist.h"

/* The string at a path, "" when there is none (for printf and strcmp). */
#define sv(o, path) jp_str_or((o), (path), "")   /* lib/json_path.h */

/* Length of the array at a path (0 when there is none). */
static size_t jlen_at(struct json_object *o, const char *path) { return jp_len(jp_at(o, path)); }

/* ------------------------------------------------------------------ formatting */

/* Every figure of the report through the one rule of units_format_figure (units.h), as
 * show, run, suite and profile print them. */
void report_fmt_count(double v, char *buf, size_t len)
{
    units_format_figure(v, UNITS_FIG_IOPS, buf, len);
}

static void fmt_fig(double v, enum units_figure kind, char *buf, size_t len)
{
    units_format_figure(v, kind, buf, len);
}

static void fmt_bytes_dec(double b, char *buf, size_t len)
{
    if (!isfinite(b))
        snprintf(buf, len, "–");
    else if (b >= 1e12)
        snprintf(buf, len, "%.2f TB (%.2f TiB)", b / 1e12, b / 1099511627776.0);
    else
        snprintf(buf, len, "%.2f GB (%.2f GiB)", b / 1e9, b / 1073741824.0);
}

/* ------------------------------------------------------------------ the two writers */

struct out {
    FILE *h, *m;
    const char *out_dir;
    char (*toc)[2][160];   /* the sections (level-2 headings): id, text */
    size_t ntoc;
    bool inline_charts;          /* --single-file: charts as data: URIs in the HTML */
    char inline_err[ERR_LEN];    /* the first chart that could not be inlined */
    /* Printed, every page is headed by the devices, the test, the date and the version: the
     * report's pages before the first section with every test; each level-2 section is a
     * <section> on its own named page (CSS named pages, `page: sN`) whose @page rule has the
     * section's title in its top-left margin box. Hidden on screen. */
    char head_devs[1024], head_when[160];
    unsigned nsec;               /* sections opened so far (the last one open) */
};

static void h_esc(FILE *f, const char *s)
{
    for (; s && *s; s++) {
        switch (*s) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        default: fputc(*s, f);
        }
    }
}

/* Markdown: table cells cannot hold '|' or newlines; text keeps '*' and '_' literal. */
static void m_esc(FILE *f, const char *s, bool cell)
{
    for (; s && *s; s++) {
        if (cell && *s == '|')
            fputs("\\|", f);
        else if (cell && *s == '\n')
            fputc(' ', f);
        else if (*s == '*' || *s == '_' || *s == '`')
            fprintf(f, "\\%c", *s);
        else
            fputc(*s, f);
    }
}

/* A CSS string's characters: '"', '\\' and '<' (no "</style>" inside the sheet) and control
 * characters as hexadecimal escapes. */
static void css_str(FILE *f, const char *s)
{
    for (; s && *s; s++) {
        const unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\' || ch == '<' || ch < 0x20)
            fprintf(f, "\\%X ", ch);
        else
            fputc(ch, f);
    }
}

/* The @page rule of the printed header of the pages named `name` (NULL: every page without a
 * name): "devices · what" in the top-left margin box, "date · ptsbench VERSION" top right. */
static void o_page_head(struct out *o, const char *name, const char *what)
{
    if (!o->head_devs[0])
        return;
    fprintf(o->h, "<style>@page%s%s{@top-left{content:\"", name ? " " : "", name ? name : "");
    css_str(o->h, o->head_devs);
    fputs(" \u00b7 ", o->h);
    css_str(o->h, what);
    fputs("\"}@top-right{content:\"", o->h);
    css_str(o->h, o->head_when);
    fputs("\"}}</style>\n", o->h);
}

/* The end of the open section, if any (at the next level-2 heading and the document's end). */
static void o_section_end(struct out *o)
{
    if (o->nsec)
        fputs("</section>\n", o->h);
}

static void o_heading(struct out *o, int level, const char *id, const char *text)
{
    if (level == 2) {   /* a section of its own, on its own printed pages */
        char name[16];
        o_section_end(o);
        snprintf(name, sizeof(name), "s%u", ++o->nsec);
        o_page_head(o, name, text);
        fprintf(o->h, "<section style=\"page:%s\">\n", name);
    }
    fprintf(o->h, "<h%d id=\"", level);
    h_esc(o->h, id);   /* ids hold test names from the results file */
    fputs("\">", o->h);
    h_esc(o->h, text);
    fprintf(o->h, "</h%d>\n", level);
    if (level == 2) {   /* the table of contents (toc_write) */
        o->toc = xrealloc(o->toc, (o->ntoc + 1) * sizeof(*o->toc));
        str_copy(o->toc[o->ntoc][0], sizeof(o->toc[0][0]), id);
        str_copy(o->toc[o->ntoc][1], sizeof(o->toc[0][1]), text);
        o->ntoc++;
    }
    fprintf(o->m, "\n%.*s ", level, "######");
    m_esc(o->m, text, false);
    fputs("\n\n", o->m);
}

/* A Markdown heading's anchor as renderers make it: lower case, spaces as '-', other
 * punctuation dropped. */
static void md_slug(const char *text, char *buf, size_t len)
{
    size_t n = 0;
    for (const unsigned char *p = (const unsigned char *)text; *p && n + 1 < len; p++) {
        if (*p >= 'A' && *p <= 'Z')
            buf[n++] = (char)(*p - 'A' + 'a');
        else if ((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '-' || *p == '_' ||
                 *p >= 0x80)
            buf[n++] = (char)*p;
        else if (*p == ' ')
            buf[n++] = '-';
    }
    buf[n] = '\0';
}

/* The table of contents of the sections recorded by o_heading, into h and m. */
static void toc_write(const struct out *o, FILE *h, FILE *m)
{
    if (!o->ntoc)
        return;
    fputs("<nav class=\"toc\"><p>Contents</p>\n<ul>\n", h);
    fputs("Contents:\n\n", m);
    for (size_t i = 0; i < o->ntoc; i++) {
        char slug[200];
        fputs("<li><a href=\"#", h);
        h_esc(h, o->toc[i][0]);
        fputs("\">", h);
        h_esc(h, o->toc[i][1]);
        fputs("</a></li>\n", h);
        md_slug(o->toc[i][1], slug, sizeof(slug));
        fputs("- [", m);
        m_esc(m, o->toc[i][1], true);
        fprintf(m, "](#%s)\n", slug);
    }
    fputs("</ul></nav>\n", h);
    fputs("\n", m);
}

static void o_para(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void o_para(struct out *o, const char *fmt, ...)
{
    char buf[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    fputs("<p>", o->h);
    h_esc(o->h, buf);
    fputs("</p>\n", o->h);
    m_esc(o->m, buf, false);
    fputs("\n\n", o->m);
}

static void o_list(struct out *o, const char *const *items, size_t n)
{
    if (!n)
        return;
    fputs("<ul>\n", o->h);
    for (size_t i = 0; i < n; i++) {
        fputs("<li>", o->h);
        h_esc(o->h, items[i]);
        fputs("</li>\n", o->h);
        fputs("- ", o->m);
        m_esc(o->m, items[i], false);
        fputc('\n', o->m);
    }
    fputs("</ul>\n", o->h);
    fputc('\n', o->m);
}

struct table {
    const char *cls;     /* HTML class, or NULL */
    unsigned ncol;
    char ***rows;    /* rows[r][c] */
    unsigned nrows;
    char **head;
    bool first_col_head;
};

static void t_init(struct table *t, unsigned ncol, const char *const *head)
{
    memset(t, 0, sizeof(*t));
    t->ncol = ncol;
    t->head = xcalloc(ncol, sizeof(char *));
    for (unsigned c = 0; c < ncol; c++)
        t->head[c] = xstrdup(head[c] ? head[c] : "");
}

static void t_row(struct table *t, const char *const *cells)
{
    t->rows = xrealloc(t->rows, (t->nrows + 1) * sizeof(*t->rows));
    char **r = xcalloc(t->ncol, sizeof(char *));
    for (unsigned c = 0; c < t->ncol; c++)
        r[c] = xstrdup(cells[c] ? cells[c] : "");
    t->rows[t->nrows++] = r;
}

static void t_free(struct table *t);

/* Whether a cell is a figure: a number (digits, thousands commas, a point, a sign; a range
 * "236–240") with at most a unit and a bracketed share after it, "1,296", "577.5 µs",
 * "4 × 32", "230 (0.1%)", or a dash alone. Such a cell never wraps (class n). */
static bool cell_is_figure(const char *s)
{
    if (!strcmp(s, "—") || !strcmp(s, "–") || !strcmp(s, "-"))
        return true;
    const char *d = s + (*s == '-' || *s == '+');
    if (*d < '0' || *d > '9' || strlen(s) > 28)
        return false;
    for (; *d && *d != ' '; d++) {   /* the number: digits, separators, a range's dash, % */
        if (!strncmp(d, "–", strlen("–")))
            d += strlen("–") - 1;
        else if (!strchr("0123456789,.%", *d))
            return false;
    }
    unsigned spaces = 0;
    for (const char *p = s; *p; p++)
        spaces += *p == ' ';
    return spaces <= 2;
}

/* Text of a cell, escaped, with a break opportunity after each comma that separates a list's
 * items ("rw=randwrite,bs=4k,..."; not a thousands separator "1,296"): such a list wraps there
 * rather than widening its table. */
static void cell_text(FILE *f, const char *s)
{
    for (; *s; s++) {
        char one[2] = {*s, '\0'};
        h_esc(f, one);
        if (*s == ',' && s[1] && s[1] != ' ' && (s[1] < '0' || s[1] > '9'))
            fputs("<wbr>", f);
    }
}

/* A table cell's text into the HTML: a figure leading words ("60,366 (steady state; ...)",
 * "2.59 ms (...)") kept on one line with its unit (class nw), the words after it wrapping at
 * spaces. */
static void cell_html(FILE *f, const char *s)
{
    static const char *const units[] = {"µs", "ms", "s", "us", "IOPS", "MB/s", "MiB/s", "GB",
                                        "TB", "%", "fills", "rounds"};
    const char *sp = strchr(s, ' ');
    if (*s < '0' || *s > '9' || !sp) {
        cell_text(f, s);
        return;
    }
    const char *end = sp;
    for (size_t k = 0; k < sizeof(units) / sizeof(units[0]); k++) {
        size_t n = strlen(units[k]);
        if (!strncmp(sp + 1, units[k], n) && (!sp[1 + n] || strchr(" ,;)", sp[1 + n])))
            end = sp + 1 + n;
    }
    char head[64];
    snprintf(head, sizeof(head), "%.*s", (int)(end - s), s);
    fputs("<span class=\"nw\">", f);
    h_esc(f, head);
    fputs("</span>", f);
    cell_text(f, s + strlen(head));
}

static void t_emit(struct out *o, struct table *t)
{
    /* in a wrapper that scrolls sideways where the page is too narrow: figures never split */
    if (t->cls)
        fprintf(o->h, "<div class=\"tw\"><table class=\"%s\">\n<tr>", t->cls);
    else
        fputs("<div class=\"tw\"><table>\n<tr>", o->h);
    for (unsigned c = 0; c < t->ncol; c++) {
        fputs("<th>", o->h);
        h_esc(o->h, t->head[c]);
        fputs("</th>", o->h);
    }
    fputs("</tr>\n", o->h);
    fputc('|', o->m);
    for (unsigned c = 0; c < t->ncol; c++) {
        fputc(' ', o->m);
        m_esc(o->m, t->head[c][0] ? t->head[c] : " ", true);
        fputs(" |", o->m);
    }
    fputs("\n|", o->m);
    for (unsigned c = 0; c < t->ncol; c++)
        fputs(c ? "---:|" : "---|", o->m);
    fputc('\n', o->m);
    for (unsigned r = 0; r < t->nrows; r++) {
        fputs("<tr>", o->h);
        fputc('|', o->m);
        for (unsigned c = 0; c < t->ncol; c++) {
            const bool th = c == 0 && t->first_col_head;
            const bool fig = cell_is_figure(t->rows[r][c]);
            fputs(th ? "<th>" : fig ? "<td class=\"n\">" : c ? "<td class=\"t\">" : "<td>",
                  o->h);
            cell_html(o->h, t->rows[r][c]);
            fputs(th ? "</th>" : "</td>", o->h);
            fputc(' ', o->m);
            m_esc(o->m, t->rows[r][c], true);
            fputs(" |", o->m);
        }
        fputs("</tr>\n", o->h);
        fputc('\n', o->m);
    }
    fputs("</table></div>\n", o->h);
    fputc('\n', o->m);
    t_free(t);
}

/* A table's memory, freed (t_emit does it; an unwritten table calls it itself). */
static void t_free(struct table *t)
{
    for (unsigned r = 0; r < t->nrows; r++) {
        for (unsigned c = 0; c < t->ncol; c++)
            free(t->rows[r][c]);
        free(t->rows[r]);
    }
    for (unsigned c = 0; c < t->ncol; c++)
        free(t->head[c]);
    free(t->rows);
    free(t->head);
    memset(t, 0, sizeof(*t));
}

/* --single-file: the chart file itself as a data: URI (base64 holds no character that needs
 * escaping in an attribute); the first failure is kept and fails the report. */
static void chart_uri(struct out *o, const char *path, const char *mime)
{
    char why[ERR_LEN];
    if (data_uri_write(o->h, path, mime, why, sizeof(why)) != 0 && !o->inline_err[0])
        snprintf(o->inline_err, sizeof(o->inline_err), "cannot inline a chart: %s", why);
}

/* A chart: the PNG shown, the SVG linked (both beside the report, in plots/; with
 * --single-file both inside the HTML). */
static void o_chart(struct out *o, const struct plot_file *f)
{
    const char *png = strrchr(f->png, '/') ? strrchr(f->png, '/') + 1 : f->png;
    const char *svg = strrchr(f->svg, '/') ? strrchr(f->svg, '/') + 1 : f->svg;
    fputs("<figure>\n<img src=\"", o->h);
    if (o->inline_charts)
        chart_uri(o, f->png, "image/png");
    else {
        fputs("plots/", o->h);
        h_esc(o->h, png);
    }
    fputs("\" alt=\"", o->h);
    h_esc(o->h, f->title);
    fputs("\">\n<figcaption>", o->h);
    h_esc(o->h, f->title);
    if (f->caption[0]) {
        fputs(": ", o->h);
        h_esc(o->h, f->caption);
    }
    fputs(" (<a href=\"", o->h);
    if (o->inline_charts)
        chart_uri(o, f->svg, "image/svg+xml");
    else {
        fputs("plots/", o->h);
        h_esc(o->h, svg);
    }
    fputs("\">SVG</a>)</figcaption>\n</figure>\n", o->h);
    fputs("![", o->m);
    m_esc(o->m, f->title, true);
    fprintf(o->m, "](plots/%s)\n\n*", png);
    m_esc(o->m, f->title, false);
    if (f->caption[0]) {
        fputs(": ", o->m);
        m_esc(o->m, f->caption, false);
    }
    fprintf(o->m, "* ([SVG](plots/%s))\n\n", svg);
}

/* ------------------------------------------------------------------ the report */

struct ctx {
    struct out o;
    const struct report_input *in;
    size_t n;
    struct plot_list plots;
    bool *plot_used;
    char (*names)[320];   /* per input: the device in sentences and headers (dev()) */
    /* per input, with a spec sheet: its claims judged against the input's points (the sheet
     * NULL: none) */
    const struct verify_sheet **sheet;
    const struct meas_set **meas;   /* per input: its measured points (NULL: none) */
    struct meas_set *own_meas;      /* those measured here (an input without a handle) */
    struct verify_result **claims;
    char (*other_drive)[1600];   /* per input: "" its sheet's drive, else "TARGET: why" (only
                                    with report --any-drive: verify.h, "The drive") */
    double tolerance;
};

static const char *device_label(const struct report_input *in)
{
    return results_doc_device_label(in->doc, in->label);
}

static bool simulated(const struct report_input *in) { return read_simulated(in->doc); }

/* The device where its figures are shown: "LABEL (simulated drive)" for a simulated one. */
static const char *dev(const struct ctx *c, size_t i) { return c->names[i]; }

/* A table header over figures of input in: "IOPS (simulated)" for a simulated drive. */
static const char *fig_head(const struct report_input *in, const char *head, char *buf,
                            size_t len)
{
    if (!simulated(in))
        return head;
    snprintf(buf, len, "%s (simulated)", head);
    return buf;
}

/* "; simulated drive: virtual time" in a table's caption line, or "". */
static const char *sim_caption(const struct report_input *in)
{
    return simulated(in) ? " (simulated drive: virtual time)" : "";
}

static const char *schema_of(const struct report_input *in) { return read_schema(in->doc); }

static void charts_for(struct ctx *c, const char *section)
{
    for (size_t i = 0; i < c->plots.n; i++) {
        if (c->plot_used[i] || strcmp(c->plots.f[i].section, section) != 0)
            continue;
        o_chart(&c->o, &c->plots.f[i]);
        c->plot_used[i] = true;
    }
}

/* ---- the drive's state in words (drive_state.h; the short tags are plot_state.c's) ---- */

static bool is_obj(struct json_object *o) { return json_object_is_type(o, json_type_object); }

/* "WIPC (2× the active range, 128 KiB sequential writes)" */
static void wipc_words(struct json_object *w, char *buf, size_t len)
{
    char bs[32] = "128 KiB";
    if (isfinite(jp_num(w, "bs")))
        units_format_bs(jp_num(w, "bs"), bs, sizeof(bs));
    double fills = jp_num(w, "fills");
    snprintf(buf, len, "WIPC (%g× the active range, %s sequential writes)",
             isfinite(fills) ? fills : 2, bs);
}

/* "fast pass (1.28 fills of 8 KiB writes left at greedy GC's equilibrium for the spare factor
 * 0.280 from the simulated drive; Desnoyers 1/v, greedy GC)": preconditioning.fast (issue 48);
 * the unit is the record's unit_bytes (4 KiB in records written before it was recorded). */
static void fast_words(struct json_object *f, char *buf, size_t len)
{
    char fills[32], rho[32], unit[32];
    units_format_figure(jp_num(f, "fills"), UNITS_FIG_VALUE, fills, sizeof(fills));
    units_format_figure(jp_num(f, "rho"), UNITS_FIG_VALUE, rho, sizeof(rho));
    const double unit_bytes = jp_num(f, "unit_bytes");
    units_format_bs(isfinite(unit_bytes) && unit_bytes > 0 ? unit_bytes : 4096, unit, sizeof(unit));
    const char *src = jp_str(f, "rho_source"), *model = jp_str(f, "model");
    const char *ftl = jp_str(f, "ftl");
    if (ftl && !strcmp(ftl, "none")) {   /* nothing to shape: say what it was (drive_state.h) */
        snprintf(buf, len, "the range written %s× sequentially (the fast pass on a target "
                           "without an FTL: no FTL state to shape)", fills);
        return;
    }
    snprintf(buf, len, "fast pass (%s fills of %s writes left at greedy GC's equilibrium for "
                       "the spare factor %s%s%s%s%s)", fills, unit, rho, src ? " from " : "",
             !src                      ? ""
             : !strcmp(src, "option")  ? "--op"
             : !strcmp(src, "simulated drive") ? "the simulated drive"
                                               : src,
             model ? "; " : "",
             model ? model : "");
}

/* The fast pass ran on a target without an FTL (preconditioning.fast.ftl "none"). */
static bool doc_no_ftl(struct json_object *doc)
{
    const char *ftl = jp_str(doc, "preconditioning.fast.ftl");
    return ftl && !strcmp(ftl, "none");
}

/* How a WDPC ended: "ended when the fill guard passed", "ended at its maximum of 5 fills ...". */
static void wdpc_end_words(struct json_object *w, char *buf, size_t len)
{
    const char *e = jp_str(w, "ended");
    if (e && !strcmp(e, "guard"))
        snprintf(buf, len, "ended when the fill guard passed");
    else if (e && !strcmp(e, "max_fills"))
        snprintf(buf, len, "ended at its maximum of %g fills, the drive still changing",
                 jp_num(w, "max_fills"));
    else if (e)
        snprintf(buf, len, "ended: %s", e);
    else if (isfinite(jp_num(w, "min_fills")) && isfinite(jp_num(w, "max_fills")))
        snprintf(buf, len, "bounds %g–%g fills", jp_num(w, "min_fills"), jp_num(w, "max_fills"));
    else
        buf[0] = '\0';
}

/* " for 2.79 fills of the active range in 108 rounds", each part only when recorded */
static void wdpc_amount(struct json_object *w, double rounds, char *buf, size_t len)
{
    double fills = jp_num(w, "fills");
    size_t o = 0;
    buf[0] = '\0';
    if (isfinite(fills))
        o += (size_t)snprintf(buf, len, " for %.2f fills of the active range", fills);
    if (isfinite(rounds) && o < len)
        snprintf(buf + o, len - o, " in %.0f round%s", rounds, rounds == 1 ? "" : "s");
}

/* A run's preparation (its "preconditioning"), "" for results without it. */
static void run_prep_words(struct json_object *doc, char *buf, size_t len)
{
    struct json_object *pc = jp_get(doc, "preconditioning");
    const char *mode = jp_str(pc, "mode");
    buf[0] = '\0';
    if (!mode)
        return;
    char wipc[256] = "", end[160];
    if (is_obj(jp_get(pc, "wipc")))
        wipc_words(jp_get(pc, "wipc"), wipc, sizeof(wipc));
    else if (is_obj(jp_get(pc, "fast")))   /* the fast pass in WIPC's place */
        fast_words(jp_get(pc, "fast"), wipc, sizeof(wipc));
    struct json_object *wd = jp_get(pc, "wdpc");
    if (!strcmp(mode, "none"))
        snprintf(buf, len, "none: the drive was not preconditioned (%s)",
                 read_simulated(doc) ? "a fresh-out-of-box simulated drive"
                                         : "its earlier history is unknown");
    else if (!is_obj(wd))
        snprintf(buf, len, "%s", wipc[0] ? wipc : mode);
    else {
        char amount[128];
        wdpc_end_words(wd, end, sizeof(end));
        wdpc_amount(wd, jp_num(wd, "rounds"), amount, sizeof(amount));
        snprintf(buf, len, "%s%sthen WDPC: the workload itself%s (preconditioning, not judged%s%s)",
                 wipc, wipc[0] ? ", " : "", amount, end[0] ? "; " : "", end);
    }
}

/* A profile group's preparation: groups[].wipc and .wdpc. */
static void group_prep_words(struct json_object *g, char *buf, size_t len)
{
    char wipc[160] = "", end[160];
    if (is_obj(jp_get(g, "wipc")))
        wipc_words(jp_get(g, "wipc"), wipc, sizeof(wipc));
    struct json_object *wd = jp_get(g, "wdpc");
    if (!is_obj(wd)) {
        snprintf(buf, len, "%s", wipc[0] ? wipc : "not preconditioned");
        return;
    }
    char amount[128];
    wdpc_end_words(wd, end, sizeof(end));
    wdpc_amount(wd, jp_arr(wd, "rounds") ? (double)jlen_at(wd, "rounds") : NAN, amount,
                sizeof(amount));
    snprintf(buf, len, "%s%sthen WDPC with the point at %g worker%s × QD %g%s%s%s%s; the group's "
                       "later points ran on the drive as the one before left it",
             wipc, wipc[0] ? ", " : "", jp_num(wd, "workers"),
             jp_num(wd, "workers") == 1 ? "" : "s", jp_num(wd, "qd"), amount,
             end[0] ? " (" : "", end, end[0] ? ")" : "");
}

/* A PTS test's preparation, from its first subtest's purge and precondition (the PTS's own:
 * IOPS, TP and LAT run after WIPC, their test loop being the WDPC); report: the test's
 * presentation (plot_test_presentation; WSAT: write saturation from the purged drive). */
static void suite_prep_words(enum pts_report report, struct json_object *sub, char *buf,
                             size_t len)
{
    const char *method = jp_str(sub, "purge.method");
    char purge[96], wipc[160];
    if (!method || !strcmp(method, "none"))
        snprintf(purge, sizeof(purge), "not purged");
    else
        snprintf(purge, sizeof(purge), "purge (%s)", method);
    struct json_object *pc = jp_get(sub, "precondition");
    const char *kind = jp_str(pc, "kind");
    if (kind && !strcmp(kind, "wipc")) {
        wipc_words(pc, wipc, sizeof(wipc));
        snprintf(buf, len, "%s, %s, then the test loop itself as the WDPC", purge, wipc);
    } else if (kind && !strcmp(kind, "steady")) {
        struct json_object *ss = jp_get(pc, "steady_state");
        snprintf(buf, len, "%s, then the stimulus as the WDPC until steady state (%s in %.0f "
                           "rounds)", purge,
                 jp_true(jp_get(ss, "reached")) ? "reached" : "NOT reached",
                 jp_num(ss, "rounds_run"));
    } else if (report == PTS_REPORT_WSAT) {
        snprintf(buf, len, "%s, then no preconditioning: write saturation from the purged drive "
                           "(no steady-state claim)", purge);
    } else {
        snprintf(buf, len, "%s, no further preconditioning", purge);
    }
}

/* A round's or a point's drive state (a "state" object): "fresh-out-of-box, 0.06 fills
 * written", "WIPC 2.0× + WDPC 2.84 fills"; "" without one. */
static void state_words(struct json_object *st, bool sim, bool no_ftl, char *buf, size_t len)
{
    const char *cond = jp_str(st, "condition");
    buf[0] = '\0';
    if (!cond)
        return;
    const double fast = jp_num(st, "fast_fills");   /* only after a fast pass */
    char ff[32];
    units_format_figure(fast, UNITS_FIG_VALUE, ff, sizeof(ff));
    char wf[32];   /* the fast pass on a target without an FTL: what it was (drive_state.h) */
    units_format_figure(jp_num(st, "wdpc_fills"), UNITS_FIG_VALUE, wf, sizeof(wf));
    if (no_ftl && isfinite(fast) && fast > 0 && !strcmp(cond, "wdpc"))
        snprintf(buf, len, "the range written %s× sequentially + WDPC %s fills (no FTL state "
                 "to shape)", ff, wf);
    else if (no_ftl && isfinite(fast) && fast > 0 && !strcmp(cond, "fast"))
        snprintf(buf, len, "after the range written %s× sequentially (no FTL state to shape)",
                 ff);
    else if (!strcmp(cond, "wdpc") && isfinite(fast) && fast > 0)
        snprintf(buf, len, "fast pass %s fills + WDPC %.2f fills", ff, jp_num(st, "wdpc_fills"));
    else if (!strcmp(cond, "fast"))
        snprintf(buf, len, "after the fast pass, %s fills (%.2f fills written in all)", ff,
                 jp_num(st, "written_fills"));
    else if (!strcmp(cond, "wdpc"))
        snprintf(buf, len, "WIPC %.1f× + WDPC %.2f fills", jp_num(st, "wipc_fills"),
                 jp_num(st, "wdpc_fills"));
    else if (!strcmp(cond, "wipc"))
        snprintf(buf, len, "after WIPC %.1f× (%.2f fills written in all)",
                 jp_num(st, "wipc_fills"), jp_num(st, "written_fills"));
    else
        snprintf(buf, len, "%s, %.2f fills written", plot_condition_words(cond, sim),
                 jp_num(st, "written_fills"));
    const double unwritten = jp_num(st, "unwritten_share");   /* drive_state.h: content */
    size_t o = strlen(buf);
    if (unwritten >= 0.01 && o < len)
        snprintf(buf + o, len - o, "; %.0f%% never written (reads of it do not touch the media)",
                 100 * unwritten);
}

/* ---- header rows computed from several fields */

static void row_prep(struct json_object *doc, char *buf, size_t len)
{
    const char *schema = jp_str(doc, "schema");
    size_t o = 0;
    buf[0] = '\0';
    if (schema && !strcmp(schema, "ptsbench.run")) {
        run_prep_words(doc, buf, len);
    } else if (schema && !strcmp(schema, "ptsbench.profile") && jp_get(doc, "preconditioning")) {
        for (size_t k = 0; k < jlen_at(doc, "groups") && o < len; k++) {
            struct json_object *g = jp_idx(jp_arr(doc, "groups"), k);
            const char *pre = jp_str(g, "precondition");
            const char *how = !pre || !strcmp(pre, "none") ? "not preconditioned"
                              : !strcmp(pre, "wipc")       ? "WIPC"
                              : !jp_get(g, "wdpc")         ? "WIPC (read-only: no WDPC)"
                                                           : "WIPC, then WDPC to the fill guard";
            o += (size_t)snprintf(buf + o, len - o, "%s%s %.0f%%: %s", k ? "; " : "",
                                  jp_str(g, "workload") ? jp_str(g, "workload") : "?",
                                  jp_num(g, "compress_pct"), how);
        }
    } else if (schema && !strcmp(schema, "ptsbench.suite")) {
        for (size_t k = 0; k < jlen_at(doc, "tests") && o < len; k++) {
            struct json_object *t = jp_idx(jp_arr(doc, "tests"), k);
            const char *kind = jp_str(t, "subtests.0.precondition.kind");
            const char *name = jp_str(t, "name"), *purge = jp_str(t, "subtests.0.purge.method");
            o += (size_t)snprintf(buf + o, len - o, "%s%s: %s%s", k ? "; " : "",
                                  name ? name : "?",
                                  purge && strcmp(purge, "none") ? "purge" : "not purged",
                                  kind && !strcmp(kind, "wipc") ? ", WIPC, test loop as WDPC"
                                  : kind && !strcmp(kind, "steady") ? ", stimulus to steady state"
                                                                    : "");
        }
    }
}

static void row_state(struct json_object *doc, char *buf, size_t len)
{
    const char *schema = jp_str(doc, "schema");
    buf[0] = '\0';
    if (schema && !strcmp(schema, "ptsbench.run")) {
        struct json_object *ss = jp_get(doc, "steady_state");
        const char *label = jp_str(ss, "label");
        if (label)
            snprintf(buf, len, "%s%s", label,
                     jp_true(jp_get(ss, "reached")) || strstr(label, "not steady")
                         ? "" : ", not SNIA steady state");
        return;
    }
    if (!schema || strcmp(schema, "ptsbench.profile"))
        return;
    /* the labels of the points, each once, with how many points have it */
    const char *seen[16];
    unsigned count[16], n = 0;
    for (size_t k = 0; k < jlen_at(doc, "points"); k++) {
        const char *l = jp_str(jp_idx(jp_arr(doc, "points"), k), "result.label");
        if (!l)
            continue;
        unsigned q = 0;
        while (q < n && strcmp(seen[q], l))
            q++;
        if (q == n && n < 16) {
            seen[n] = l;
            count[n++] = 0;
        }
        if (q < n)
            count[q]++;
    }
    size_t o = 0;
    for (unsigned q = 0; q < n && o < len; q++)
        o += (size_t)snprintf(buf + o, len - o, "%s%u point%s: %s", q ? "; " : "", count[q],
                              count[q] == 1 ? "" : "s", seen[q]);
}

static void row_figures(struct json_object *doc, char *buf, size_t len)
{
    str_copy(buf, len, read_simulated(doc) ? "simulated drive: virtual time" : "");
}

/* The SNIA header: one column per device. */
/* The device model: the device's own or, for a simulated target, "simulated TITLE (preset
 * NAME)", the title being the preset description's part before its ':' (the design summary
 * after it is the simulator's, not the device's). */
static void row_model(struct json_object *doc, char *buf, size_t len)
{
    const char *preset = jp_str(doc, "target.simulated.preset");
    const char *m = jp_str(doc, "target.model"), *path = jp_str(doc, "target.path");
    if (!preset && path && !strncmp(path, "sim:", 4) && path[4])
        preset = path + 4;
    if (!preset) {
        snprintf(buf, len, "%s", m && *m ? m : "not reported");
        return;
    }
    const char *d = jp_str(doc, "target.simulated.description");
    if (!d)
        d = m ? m : preset;
    const char *colon = strchr(d, ':');
    int n = colon ? (int)(colon - d) : (int)strlen(d);
    snprintf(buf, len, "simulated %.*s (preset %s)", n, d, preset);
}

/* "results.json in suite-6300": the file and its folder's name, never the path of this
 * machine. */
static void source_name(const char *path, char *buf, size_t len)
{
    const char *base = path ? strrchr(path, '/') : NULL;
    if (!base) {
        snprintf(buf, len, "%s", path && *path ? path : "–");
        return;
    }
    const char *dir = base;
    while (dir > path && dir[-1] != '/')
        dir--;
    if (dir == base)
        snprintf(buf, len, "%s", base + 1);
    else
        snprintf(buf, len, "%s in %.*s", base + 1, (int)(base - dir), dir);
}

/* Rows of the header that are always shown, "not reported" where the results do not say (old
 * results, a device without the attribute). */
static void join_or_not(struct json_object *doc, const char *a, const char *b, char *buf,
                        size_t len)
{
    const char *x = jp_str(doc, a), *y = jp_str(doc, b);
    if ((!x || !*x) && (!y || !*y))
        snprintf(buf, len, "not reported");
    else
        snprintf(buf, len, "%s%s%s", x ? x : "", x && *x && y && *y ? " " : "", y ? y : "");
}

static void row_host_system(struct json_object *doc, char *buf, size_t len)
{
    join_or_not(doc, "host.dmi.sys_vendor", "host.dmi.product_name", buf, len);
}

static void row_board(struct json_object *doc, char *buf, size_t len)
{
    join_or_not(doc, "host.dmi.board_vendor", "host.dmi.board_name", buf, len);
}

static void row_bios(struct json_object *doc, char *buf, size_t len)
{
    join_or_not(doc, "host.dmi.bios_vendor", "host.dmi.bios_version", buf, len);
}

/* "8.0 GT/s PCIe x4 (maximum 8.0 GT/s PCIe x4), 0000:01:00.0" */
static void row_pcie(struct json_object *doc, char *buf, size_t len)
{
    const char *sp = jp_str(doc, "target.pcie.link_speed");
    const char *msp = jp_str(doc, "target.pcie.max_link_speed");
    double w = jp_path(doc, "target.pcie.link_width"), mw = jp_path(doc, "target.pcie.max_link_width");
    const char *addr = jp_str(doc, "target.pcie.address");
    if (!sp && !isfinite(w)) {
        snprintf(buf, len, "not reported");
        return;
    }
    char cur[96], max[96] = "";
    snprintf(cur, sizeof(cur), "%s x%s", sp ? sp : "speed not reported",
             isfinite(w) ? "" : "?");
    if (isfinite(w))
        snprintf(cur + strlen(cur), sizeof(cur) - strlen(cur), "%.0f", w);
    if (msp || isfinite(mw))
        snprintf(max, sizeof(max), " (maximum %s x%.0f)", msp ? msp : "not reported",
                 isfinite(mw) ? mw : 0);
    snprintf(buf, len, "%s%s%s%s", cur, max, addr ? ", " : "", addr ? addr : "");
}

/* One command on several targets (cli/cli_fleet.h): how they ran and, run at once, what the host
 * did in all: per round each target's IOPS, the sum of their I/Os over the window they shared,
 * and the plain sum of their rates beside it. */
static void fleet_section(struct ctx *c, struct json_object *fleet)
{
    if (!fleet)
        return;
    struct json_object *targets = jp_arr(fleet, "targets");
    const size_t nt = jp_len(targets);
    const char *mode = sv(fleet, "mode");
    const bool parallel = mode && !strcmp(mode, "parallel");
    o_heading(&c->o, 2, "fleet", "Several targets");
    char cmd[1024] = "";
    struct json_object *argv = jp_arr(fleet, "command_line");
    for (size_t i = 0; i < jp_len(argv); i++) {
        const size_t used = strlen(cmd);
        snprintf(cmd + used, sizeof(cmd) - used, "%s%s", i ? " " : "", jp_string(jp_idx(argv, i)));
    }
    if (parallel) {
        struct json_object *al = jp_obj_at(fleet, "alignment");
        o_para(&c->o, "One command on %zu targets at once, each with its own workers: %s. Every "
                      "round started on all of them together (%.0f rounds; the first target "
                      "ready waited %.3f s on average for the last, at most %.3f s).",
               nt, cmd, jp_num(al, "rounds_started_together"), jp_num(al, "mean_wait_s"),
               jp_num(al, "max_wait_s"));
    } else {
        o_para(&c->o, "One command on %zu targets, one after another: %s.", nt, cmd);
    }
    static const char *const head[] = {"Label", "Target", "Drive", "State"};
    struct table t;
    t_init(&t, 4, head);
    for (size_t i = 0; i < nt; i++) {
        struct json_object *o = jp_idx(targets, i);
        const char *row[] = {sv(o, "label"), sv(o, "target"),
                             jp_true(jp_get(o, "simulated")) ? "simulated" : "real",
                             sv(o, "state")};
        t_row(&t, row);
    }
    t_emit(&c->o, &t);
    struct json_object *agg = jp_obj_at(fleet, "aggregate");
    const char *unit = agg ? sv(agg, "unit") : NULL;
    struct json_object *rows = agg ? jp_arr(agg, unit && !strcmp(unit, "pass") ? "passes"
                                                                                : "rounds")
                                   : NULL;
    if (!jp_len(rows))
        return;
    const unsigned ncol = (unsigned)nt + 6;
    const char **h = xcalloc(ncol, sizeof(*h));
    char (*lab)[96] = xcalloc(nt, sizeof(*lab));
    h[0] = unit && !strcmp(unit, "pass") ? "Pass" : "Round";
    h[1] = "Window (s)";
    for (size_t i = 0; i < nt; i++) {
        snprintf(lab[i], sizeof(lab[i]), "%s IOPS", sv(jp_idx(targets, i), "label"));
        h[i + 2] = lab[i];
    }
    h[nt + 2] = "All targets IOPS";
    h[nt + 3] = "All targets MB/s";
    h[nt + 4] = "Sum of their IOPS";
    h[nt + 5] = "Drive state";
    t_init(&t, ncol, h);
    char (*cell)[240] = xcalloc(ncol, sizeof(*cell));
    const char **row = xcalloc(ncol, sizeof(*row));
    for (size_t r = 0; r < jp_len(rows); r++) {
        struct json_object *x = jp_idx(rows, r);
        snprintf(cell[0], sizeof(cell[0]), "%.0f", jp_num(x, unit && !strcmp(unit, "pass")
                                                              ? "pass" : "round"));
        snprintf(cell[1], sizeof(cell[1]), "%.2f", jp_num(x, "window_s"));
        struct json_object *per = jp_arr(x, "targets");
        for (size_t i = 0; i < nt; i++)
            report_fmt_count(jp_num(jp_idx(per, i), "iops"), cell[i + 2], sizeof(cell[i + 2]));
        report_fmt_count(jp_path(x, "total.iops"), cell[nt + 2], sizeof(cell[nt + 2]));
        snprintf(cell[nt + 3], sizeof(cell[nt + 3]), "%.1f", jp_path(x, "total.mb_s"));
        report_fmt_count(jp_path(x, "total.sum_of_iops"), cell[nt + 4], sizeof(cell[nt + 4]));
        /* each target's state, once per distinct one: "not preconditioned (history unknown);
         * fresh-out-of-box (simulated)" */
        cell[nt + 5][0] = '\0';
        for (size_t i = 0; i < nt; i++) {
            struct json_object *p = jp_idx(per, i);
            const bool sim = jp_true(jp_get(p, "simulated"));
            char w[160];
            snprintf(w, sizeof(w), "%s%s", plot_condition_words(sv(p, "condition"), sim),
                     sim ? " (simulated)" : "");
            if (!strstr(cell[nt + 5], w)) {
                const size_t used = strlen(cell[nt + 5]);
                snprintf(cell[nt + 5] + used, sizeof(cell[nt + 5]) - used, "%s%s",
                         used ? "; " : "", w);
            }
        }
        for (unsigned k = 0; k < ncol; k++)
            row[k] = cell[k];
        t_row(&t, row);
    }
    t_emit(&c->o, &t);
    o_para(&c->o, "All targets: every target's I/Os over the longest of their elapsed times, "
                  "the host's throughput in the window they shared; the last column adds the "
                  "targets' own rates and agrees with it when their rounds lasted equally long. "
                  "Each target's own figures, with its drive state, are in the sections below.");
    free(cell);
    free(row);
    free(lab);
    free(h);
}

/* Where the workers ran (the placement record; show.h): "" when not recorded. */
static void row_placement(struct json_object *doc, char *buf, size_t len)
{
    show_placement_line(doc, buf, len);
}

/* The rows of the set-up table: a label, and where the value comes from. */
struct setup_row {
    const char *label, *path;
    int kind;   /* 0 string, 1 bytes, 2 number, 3 memory, 4 computed by fn; 5 always shown,
                   "not reported" when absent; 6 the spec sheet's key (form_factor, nand) */
    void (*fn)(struct json_object *doc, char *buf, size_t len);
};
static const struct setup_row setup_rows[] = {
    {"Results", "schema", 0, NULL},
    {"Status", "status", 0, NULL},
    {"Started (UTC)", "started", 0, NULL},
    {"ptsbench", "ptsbench_version", 0, NULL},
    {"Host", "host.hostname", 0, NULL},
    {"CPU", "host.cpu_model", 0, NULL},
    {"CPUs online", "host.cpus_online", 2, NULL},
    {"Memory", "host.memory_bytes", 3, NULL},
    {"Kernel", "host.kernel", 0, NULL},
    {"Host system", "", 4, row_host_system},
    {"Board", "", 4, row_board},
    {"BIOS", "", 4, row_bios},
    {"Device model", "", 4, row_model},
    {"Vendor", "target.vendor", 0, NULL},
    {"Serial", "target.serial", 0, NULL},
    {"Firmware", "target.firmware", 5, NULL},
    {"Interface", "target.interface", 5, NULL},
    {"Driver", "target.driver", 5, NULL},
    {"PCIe link", "", 4, row_pcie},
    {"NUMA node", "target.numa_node", 5, NULL},
    {"Placement", "", 4, row_placement},
    {"Form factor", "form_factor", 6, NULL},
    {"NAND", "nand", 6, NULL},
    {"Path", "target.path", 0, NULL},
    {"Kind", "target.kind", 0, NULL},
    {"Memory target", "target.memory_note", 0, NULL},   /* --allow-memory-target */
    {"User capacity", "target.capacity_bytes", 1, NULL},
    {"Logical / physical sector", "target.logical_sector", 2, NULL},
    {"Simulated: time scale k", "target.simulated.time_scale_k", 2, NULL},
    {"Figures", "", 4, row_figures},
    {"Engine", "engine.name", 0, NULL},
    {"Engine library", "engine.library", 0, NULL},
    {"Specification", "spec.title", 0, NULL},
    {"Active range (%)", "spec.active_range_pct", 2, NULL},
    {"Write cache requested", "spec.write_cache.requested", 0, NULL},
    {"Write cache on the device", "spec.write_cache.device", 0, NULL},
    {"Outstanding I/O (threads × QD)", "spec.threads", 2, NULL},
    {"Time scale", "time_scale", 2, NULL},
    {"Purge", "tests.0.subtests.0.purge.method", 0, NULL},
    {"Purge command", "tests.0.subtests.0.purge.command", 0, NULL},
    {"Workload", "workload.spec", 0, NULL},
    {"Profile precondition", "config.precondition", 0, NULL},
    {"Drive preparation", "", 4, row_prep},
    {"Measured state", "", 4, row_state},
};

/* The text of a value v found at row's path in input i's document (kinds 0 to 3). */
static void setup_value(struct ctx *c, size_t i, const struct setup_row *row,
                        struct json_object *v, char *buf, size_t len)
{
    struct json_object *doc = c->in[i].doc;
    if (row->kind == 1) {
        fmt_bytes_dec(jp_number(v), buf, len);
    } else if (row->kind == 3) {
        snprintf(buf, len, "%.1f GiB", jp_number(v) / 1073741824.0);
    } else if (row->kind == 2 && !strcmp(row->path, "target.logical_sector")) {
        snprintf(buf, len, "%.0f / %.0f B", jp_number(v), jp_path(doc, "target.physical_sector"));
    } else if (row->kind == 2 && !strcmp(row->path, "spec.threads")) {
        snprintf(buf, len, "%.0f × %.0f", jp_number(v), jp_path(doc, "spec.qd"));
    } else if (row->kind == 2) {
        snprintf(buf, len, "%g", jp_number(v));
    } else if (!strcmp(row->path, "tests.0.subtests.0.purge.method")) {
        bool ok = jp_true(jp_at(doc, "tests.0.subtests.0.purge.compliant"));
        if (simulated(&c->in[i]))   /* never "compliant" alone for a simulation */
            snprintf(buf, len, "%s: %s (simulated drive)", json_object_get_string(v),
                     ok ? "SNIA-compliant" : "not SNIA-compliant");
        else
            snprintf(buf, len, "%s (%s)", json_object_get_string(v),
                     ok ? "SNIA-compliant" : "not SNIA-compliant");
    } else {
        str_copy(buf, len, json_object_get_string(v));
    }
}

/* Input i's cell of a set-up row into buf; returns whether it shows the row. */
static bool setup_cell(struct ctx *c, size_t i, const struct setup_row *row, char *buf,
                       size_t len)
{
    struct json_object *doc = c->in[i].doc;
    struct json_object *v = row->fn ? NULL : jp_at(doc, row->path);
    buf[0] = '\0';
    if (row->kind == 6) {   /* from the spec sheet, given with --spec */
        const struct verify_sheet *sh = c->sheet ? c->sheet[i] : NULL;
        const char *x = !sh ? "" : !strcmp(row->path, "nand") ? sh->nand : sh->form_factor;
        str_copy(buf, len, *x ? x : "not reported");
        return true;
    }
    if (row->kind == 5 &&
        (!v || json_object_is_type(v, json_type_null) || !*json_object_get_string(v))) {
        str_copy(buf, len, "not reported");
        return true;
    }
    if (row->fn) {
        row->fn(doc, buf, len);
        return buf[0];
    }
    if (!v || json_object_is_type(v, json_type_null))
        return false;
    setup_value(c, i, row, v, buf, len);
    return buf[0];
}

/* Compliance notes and profile notes, per device. */
static void setup_notes(struct ctx *c)
{
    for (size_t i = 0; i < c->n; i++) {
        struct json_object *doc = c->in[i].doc;
        struct json_object *notes = jp_at(doc, "compliance.notes");
        if (!notes)
            notes = jp_at(doc, "notes");
        size_t nn = jp_len(notes);
        struct json_object *comp = jp_at(doc, "compliance.compliant");
        if (comp)
            o_para(&c->o, "%s: %s with %s%s.", device_label(&c->in[i]),
                   jp_true(comp) ? "compliant" : "NOT compliant",
                   jp_str(doc, "spec.title") ? jp_str(doc, "spec.title") : "the specification",
                   simulated(&c->in[i]) ? " (simulated drive)" : "");
        if (!nn)
            continue;
        if (!comp)
            o_para(&c->o, "%s — notes:", dev(c, i));
        const char **items = xcalloc(nn, sizeof(char *));
        for (size_t k = 0; k < nn; k++)
            items[k] = json_object_get_string(jp_idx(notes, k));
        o_list(&c->o, items, nn);
        free(items);
    }
}

static void header_section(struct ctx *c)
{
    o_heading(&c->o, 2, "setup", "Test platform, device under test and set-up");
    const char **head = xcalloc(c->n + 1, sizeof(char *));
    head[0] = "";
    for (size_t i = 0; i < c->n; i++)
        head[i + 1] = dev(c, i);
    struct table t;
    t_init(&t, (unsigned)c->n + 1, head);
    t.first_col_head = true;
    t.cls = "wide";
    for (size_t r = 0; r < sizeof(setup_rows) / sizeof(setup_rows[0]); r++) {
        const char **cells = xcalloc(c->n + 1, sizeof(char *));
        char (*vals)[1024] = xcalloc(c->n, sizeof(*vals));
        bool any = false;
        cells[0] = setup_rows[r].label;
        for (size_t i = 0; i < c->n; i++) {
            any = setup_cell(c, i, &setup_rows[r], vals[i], sizeof(vals[i])) || any;
            cells[i + 1] = vals[i];
        }
        if (any)
            t_row(&t, cells);
        free(cells);
        free(vals);
    }
    t_emit(&c->o, &t);
    free(head);
    setup_notes(c);
}

/* The WSAT plateau (the mean IOPS of its last five rounds) and HIR's best gain, from the
 * tests of the document's presentation WSAT / HIR. */
static struct json_object *test_by_report(struct json_object *doc, enum pts_report report)
{
    for (size_t k = 0; k < jlen_at(doc, "tests"); k++) {
        struct json_object *t = jp_idx(jp_at(doc, "tests"), k);
        if (plot_test_presentation(t) == report)
            return t;
    }
    return NULL;
}

static void wsat_cell(struct json_object *doc, char *buf, size_t len)
{
    struct json_object *sub = jp_at(test_by_report(doc, PTS_REPORT_WSAT), "subtests.0");
    size_t nr = sub ? jlen_at(sub, "rounds") : 0;
    if (!nr) {
        snprintf(buf, len, "—");
        return;
    }
    double fin = 0;
    size_t from = nr > 5 ? nr - 5 : 0;
    for (size_t k = from; k < nr; k++)
        fin += jp_path(jp_idx(jp_at(sub, "rounds"), k), "elements.0.total.iops") /
               (double)(nr - from);
    char v[32], w[32];
    report_fmt_count(fin, v, sizeof(v));
    fmt_fig(1e9 * jp_path(jp_idx(jp_at(sub, "rounds"), nr - 1), "total_written_gb"),
            UNITS_FIG_BYTES, w, sizeof(w));
    snprintf(buf, len, "%s IOPS (last %zu rounds after %s written from purge; write "
             "saturation, no steady-state claim)", v, nr - from, w);
}

static void hir_cell(struct json_object *doc, char *buf, size_t len)
{
    struct json_object *sub = jp_at(test_by_report(doc, PTS_REPORT_HIR), "subtests.0");
    size_t nw = sub ? jlen_at(sub, "wait_states") : 0;
    double best = NAN, wait = NAN;
    for (size_t k = 0; k < nw; k++) {
        struct json_object *w = jp_idx(jp_at(sub, "wait_states"), k);
        double g = jp_path(w, "write_iops_mean") / jp_path(w, "baseline_iops_mean");
        if (isfinite(g) && (!isfinite(best) || g > best))
            best = g, wait = jp_path(w, "wait_s");
    }
    if (!isfinite(best))
        snprintf(buf, len, "—");
    else
        snprintf(buf, len, "%.2f× (best wait state, %g s idle; against the baseline after HIR's "
                 "preconditioning)", best, wait);
}

/* ---- measured vs claimed: the spec sheet's claims (verify.h) against each input's points */

/* Each input's measured points: its handle's (read/doc.h: measured once from the document
 * loaded once), else measured from its file. */
static void meas_prepare(struct ctx *c)
{
    c->meas = xcalloc(c->n, sizeof(*c->meas));
    c->own_meas = xcalloc(c->n, sizeof(*c->own_meas));
    for (size_t i = 0; i < c->n; i++) {
        char err[ERR_LEN];
        if (c->in[i].src)
            c->meas[i] = results_doc_meas(c->in[i].src, err, sizeof(err));
        else if (c->in[i].path && meas_load(c->in[i].path, &c->own_meas[i], err,
                                            sizeof(err)) == 0)
            c->meas[i] = &c->own_meas[i];
    }
}

static void claims_prepare(struct ctx *c, const struct report_config *cfg)
{
    meas_prepare(c);
    c->tolerance = cfg->tolerance > 0 ? cfg->tolerance : VERIFY_DEFAULT_TOLERANCE;
    c->sheet = xcalloc(c->n, sizeof(*c->sheet));
    c->claims = xcalloc(c->n, sizeof(*c->claims));
    c->other_drive = xcalloc(c->n, sizeof(*c->other_drive));
    for (size_t i = 0; cfg->sheets && i < c->n; i++) {
        const struct verify_sheet *sh = cfg->sheets[i];
        if (!sh)
            continue;
        c->sheet[i] = sh;
        c->claims[i] = xcalloc(sh->n ? sh->n : 1, sizeof(struct verify_result));
        const struct meas_set *set = c->meas[i];
        char why[ERR_LEN], target[1400];
        int other = set ? verify_drive_check(sh, set, why, sizeof(why)) : -1;
        if (other >= 0) {
            verify_target_describe(&set->targets[other], target, sizeof(target));
            snprintf(c->other_drive[i], sizeof(c->other_drive[i]), "%s: %s", target, why);
        }
        for (size_t k = 0; k < sh->n; k++)
            verify_check_set(&sh->c[k], set, c->tolerance, &c->claims[i][k]);
    }
}

static void claims_free(struct ctx *c)
{
    for (size_t i = 0; c->claims && i < c->n; i++) {
        free(c->claims[i]);
        meas_free(&c->own_meas[i]);
    }
    free(c->claims);
    free(c->meas);
    free(c->own_meas);
    free(c->sheet);
    free(c->other_drive);
}

/* "7 of 9 claims met (tolerance 5%; 1 without a comparable measurement)" */
static void claims_count_words(const struct ctx *c, size_t i, char *buf, size_t len)
{
    const struct verify_sheet *sh = c->sheet[i];
    if (!sh) {
        snprintf(buf, len, "— (no spec sheet)");
        return;
    }
    unsigned pass = 0, none = 0;
    for (size_t k = 0; k < sh->n; k++) {
        pass += c->claims[i][k].verdict == VERIFY_PASS;
        none += c->claims[i][k].verdict == VERIFY_NO_COMPARABLE;
    }
    int n = sh->requirements
                ? snprintf(buf, len, "%u of %zu met (limits, no tolerance", pass, sh->n)
                : snprintf(buf, len, "%u of %zu met (tolerance %g%%", pass, sh->n,
                           c->tolerance * 100);
    if (none && n > 0 && (size_t)n < len)
        n += snprintf(buf + n, len - (size_t)n, "; %u without a comparable measurement", none);
    if (n > 0 && (size_t)n < len)
        snprintf(buf + n, len - (size_t)n, "%s%s)", simulated(&c->in[i]) ? "; simulated drive" : "",
                 c->other_drive[i][0] ? "; measured on another drive" : "");
}

/* A claimed or measured value in the claim's unit: "700,000 IOPS", "3076.4 MiB/s", "98.50 µs" */
static void claim_value(double v, const struct verify_claim *cl, char *buf, size_t len)
{
    char num[48];
    if (!isfinite(v))
        snprintf(num, sizeof(num), "—");
    else
        fmt_fig(v, cl->unit.kind == VERIFY_KIND_IOPS ? UNITS_FIG_IOPS : UNITS_FIG_VALUE, num,
                sizeof(num));
    snprintf(buf, len, "%s %s", num, cl->unit.name);
}

static void claims_section(struct ctx *c)
{
    bool any = false;
    for (size_t i = 0; i < c->n; i++)
        any = any || c->sheet[i];
    if (!any)
        return;
    o_heading(&c->o, 2, "claims", "Measured vs claimed");
    o_para(&c->o, "Every claim of the vendor's spec sheet against the point measured under the "
                  "claim's own conditions, as ptsbench verify judges it: %s. Values in the "
                  "claim's unit; ratio = measured / claimed (latency: claimed / measured), "
                  "above 1 better than claimed; pass within %g%% (a requirement sheet's "
                  "figures are limits, no tolerance; a figure per TB is scaled by the capacity "
                  "the results record, decimal TB).", VERIFY_MATCH_RULE,
           c->tolerance * 100);
    for (size_t i = 0; i < c->n; i++) {
        const struct verify_sheet *sh = c->sheet[i];
        if (!sh)
            continue;
        char count[256], src[512];
        claims_count_words(c, i, count, sizeof(count));
        source_name(sh->path, src, sizeof(src));
        o_para(&c->o, "%s against the spec sheet of %s (%s): %s.", dev(c, i), sh->device, src,
               count);
        if (c->other_drive[i][0])   /* report --any-drive */
            o_para(&c->o, "Measured on another drive: %s. Every verdict below is marked "
                   "\"(other drive)\": the claims are the sheet's drive's, not this one's.",
                   c->other_drive[i]);
        char mhead[64];
        const char *head[] = {"Claim", "Conditions claimed", "Claimed",
                              fig_head(&c->in[i], "Measured", mhead, sizeof(mhead)),
                              "Measured in (drive state; workers × QD)", "Ratio", "Verdict"};
        struct table t;
        t_init(&t, 7, head);
        size_t nn = 0;
        /* a requirement sheet's rows each say where the requirement comes from */
        size_t max_notes = sh->requirements ? 2 * sh->n : sh->n;
        char (*notes)[700] = xcalloc(max_notes ? max_notes : 1, sizeof(*notes));
        for (size_t k = 0; k < sh->n; k++) {
            const struct verify_result *r = &c->claims[i][k];
            const struct verify_claim *cl = r->claim;
            const struct meas_point *p = r->match.point;
            char cond[512], claimed[192], meas[80], at[160], ratio[32], verdict[64];
            verify_claim_conditions(cl, cond, sizeof(cond));
            claim_value(cl->value, cl, claimed, sizeof(claimed));
            if (cl->per_tb && isfinite(r->required)) {   /* the figure for this capacity */
                char req[64];
                claim_value(r->required, cl, req, sizeof(req));
                snprintf(claimed + strlen(claimed), sizeof(claimed) - strlen(claimed),
                         " per TB × %.2f TB = %s", r->capacity_tb, req);
            } else if (cl->per_tb) {
                snprintf(claimed + strlen(claimed), sizeof(claimed) - strlen(claimed), " per TB");
            }
            if (p && r->match.why != VERIFY_WHY_NONE) {   /* per TB, no capacity (verify.h) */
                snprintf(meas, sizeof(meas), "n/a (no capacity recorded)");
                snprintf(at, sizeof(at), "%s; %u × QD %u", meas_point_state_label(p),
                         p->workers, p->qd);
                snprintf(ratio, sizeof(ratio), "–");
            } else if (p) {
                claim_value(r->measured, cl, meas, sizeof(meas));
                snprintf(at, sizeof(at), "%s; %u × QD %u", meas_point_state_label(p),
                         p->workers, p->qd);
                snprintf(ratio, sizeof(ratio), "%.3f", r->ratio);
            } else if (isfinite(r->reference) && r->match.nearest) {
                char v[64];
                claim_value(r->reference, cl, v, sizeof(v));
                snprintf(meas, sizeof(meas), "(%s, not judged)", v);
                snprintf(at, sizeof(at), "%s; %u × QD %u", meas_point_state_label(r->match.nearest),
                         r->match.nearest->workers, r->match.nearest->qd);
                snprintf(ratio, sizeof(ratio), "–");
            } else {
                snprintf(meas, sizeof(meas), "–");
                snprintf(at, sizeof(at), "–");
                snprintf(ratio, sizeof(ratio), "–");
            }
            snprintf(verdict, sizeof(verdict), "%s%s%s", verify_verdict_name(r->verdict),
                     p && !r->match.exact ? " *" : "",
                     c->other_drive[i][0] ? " (other drive)" : "");
            const char *cells[] = {cl->name, cond, claimed, meas, at, ratio, verdict};
            t_row(&t, cells);
            if (sh->requirements)
                snprintf(notes[nn++], sizeof(notes[0]), "%s: source: %.600s", cl->name,
                         cl->source[0] ? cl->source : "not stated");
            char why[512];
            if (p && !r->match.exact && r->match.why == VERIFY_WHY_NONE) {
                verify_match_differences(cl, &r->match, why, sizeof(why));
                snprintf(notes[nn++], sizeof(notes[0]), "%s (*): measured at assumed "
                         "conditions it differs on: %s", cl->name, why);
            } else if (!p || r->match.why != VERIFY_WHY_NONE) {
                verify_match_reason(cl, &r->match, why, sizeof(why));
                snprintf(notes[nn++], sizeof(notes[0]), "%s: no comparable measurement: %s",
                         cl->name, why);
            }
        }
        t_emit(&c->o, &t);
        if (nn) {
            const char **items = xcalloc(nn, sizeof(char *));
            for (size_t k = 0; k < nn; k++)
                items[k] = notes[k];
            o_list(&c->o, items, nn);
            free(items);
        }
        free(notes);
    }
}

/* ---- the summary: the headline figures, one column per drive */

/* Where a row's figures come from: any measured point of its workload (the best state first),
 * a burst only, a write-saturation plateau (the PTS WSAT test, or a 4 KiB random-write run's
 * saturated or steady window), HIR's gain. */
enum row_from { ROW_ANY, ROW_BURST, ROW_PLATEAU, ROW_HIR };

/* One headline figure: the points it may come from (measure.h) and how it is shown. */
struct headline {
    const char *label;
    enum meas_metric metric;
    uint32_t bs;
    int read_pct;
    int sequential;    /* 1 sequential, 0 random */
    bool qd1;          /* 1 worker × QD 1 only */
    int kind;          /* 0 count, 1 MB/s, 2 latency */
    enum row_from from;
    const char *needs; /* what would measure it (said when the row is left out) */
};

static const struct headline summary_rows[] = {
    {"4 KiB random read IOPS", MEAS_IOPS, 4096, 100, 0, false, 0, ROW_ANY, NULL},
    {"4 KiB random write IOPS", MEAS_IOPS, 4096, 0, 0, false, 0, ROW_ANY, NULL},
    {"4 KiB random write IOPS, burst", MEAS_IOPS, 4096, 0, 0, false, 0, ROW_BURST,
     "a 4 KiB random-write run from fresh-out-of-box or after WIPC"},
    {"Write saturation plateau (WSAT)", MEAS_IOPS, 4096, 0, 0, false, 0, ROW_PLATEAU,
     "the PTS WSAT test, or a 4 KiB random-write run to saturation or steady state"},
    {"128 KiB sequential read MB/s", MEAS_MB_S, 131072, 100, 1, false, 1, ROW_ANY, NULL},
    {"128 KiB sequential write MB/s", MEAS_MB_S, 131072, 0, 1, false, 1, ROW_ANY, NULL},
    {"4 KiB random read mean latency, QD 1", MEAS_LAT_MEAN_US, 4096, 100, 0, true, 2, ROW_ANY,
     NULL},
    {"4 KiB random read 99.99% latency, QD 1", MEAS_LAT_P99_99_US, 4096, 100, 0, true, 2,
     ROW_ANY, NULL},
    {"4 KiB random write mean latency, QD 1", MEAS_LAT_MEAN_US, 4096, 0, 0, true, 2, ROW_ANY,
     NULL},
    {"4 KiB random write 99.99% latency, QD 1", MEAS_LAT_P99_99_US, 4096, 0, 0, true, 2,
     ROW_ANY, NULL},
    {"Host idle recovery gain (HIR)", MEAS_IOPS, 0, 0, 0, false, 0, ROW_HIR, "the PTS HIR test"},
};
#define N_SUMMARY_ROWS (sizeof(summary_rows) / sizeof(summary_rows[0]))

/* A point's drive state for the summary, worst first: a run's window whose state measure.h
 * leaves unknown is its write-saturation plateau (measured_state "saturated"). */
enum cand_state { CS_NONE, CS_FOB, CS_WIPC, CS_SATURATED, CS_STEADY };
static const char *const cand_words[] = {"state not recorded", "burst, not preconditioned",
                                         "burst after WIPC", "write saturation, not steady state",
                                         "steady state"};

static enum cand_state cand_state(const struct meas_point *p)
{
    switch (p->state) {
    case MEAS_STATE_STEADY: return CS_STEADY;
    case MEAS_STATE_WIPC: return CS_WIPC;
    case MEAS_STATE_FOB: return CS_FOB;
    default: return !strncmp(p->key, "run/", 4) ? CS_SATURATED : CS_NONE;
    }
}

/* Whether point p may fill row h: its workload, and a state the row names (a burst never fills
 * a row of a steady quantity; the plateau only from runs: the suite's WSAT has its own cell).
 * WSAT, DIRTH, HIR and XSR points are their own rows (or none). */
static bool row_takes(const struct headline *h, const struct meas_point *p)
{
    if (!strncmp(p->key, "suite/", 6) && strncmp(p->key, "suite/iops/", 11) &&
        strncmp(p->key, "suite/tp/", 9) && strncmp(p->key, "suite/lat/", 10))
        return false;
    if (p->bs != h->bs || p->read_pct != h->read_pct || (int)p->sequential != h->sequential ||
        !isfinite(p->v[h->metric]) || p->unwritten)
        return false;
    if (h->qd1 && p->workers * p->qd != 1)
        return false;
    const enum cand_state s = cand_state(p);
    if (h->from == ROW_BURST)   /* after the fast pass a drive is not at its burst */
        return s == CS_FOB || (s == CS_WIPC && !p->after_fast);
    if (h->from == ROW_PLATEAU)
        return !strncmp(p->key, "run/", 4) && (s == CS_SATURATED || s == CS_STEADY);
    return h->from == ROW_ANY;
}

/* Whether q is a better source than p for row h: the state (the burst row: fresh-out-of-box
 * before after WIPC; else steady state, the plateau, a burst after WIPC, a fresh one), then
 * incompressible data, then the most outstanding I/O. */
static bool cand_better(const struct headline *h, const struct meas_point *q,
                        const struct meas_point *p)
{
    if (!p)
        return true;
    int rq = (int)cand_state(q), rp = (int)cand_state(p);
    if (h->from == ROW_BURST)
        rq = -rq, rp = -rp;
    if (rq != rp)
        return rq > rp;
    const bool iq = q->compress_pct <= 0, ip = p->compress_pct <= 0;
    if (iq != ip)
        return iq;
    return q->workers * q->qd > p->workers * p->qd;
}

/* The columns (one per drive) and each input's run plateau. */
struct summary {
    size_t *col;      /* per input: its column */
    size_t *first;    /* per column: its first input */
    size_t ncol;
    struct meas_set *plateau;   /* per input: a run's last window, when it is a write-saturation
                                   plateau or steady state, as a point of its own (n 0: none) */
};

/* The drive an input measured, for the summary's columns: the simulated preset, else the model
 * with its serial number, else the path (not the label: one drive's runs, suites and profiles
 * share its column). */
static void summary_key(const struct report_input *in, char *buf, size_t len)
{
    const char *preset = jp_str(in->doc, "target.simulated.preset");
    const char *model = jp_str(in->doc, "target.model"), *serial = jp_str(in->doc, "target.serial");
    if (simulated(in)) {   /* the preset with the drive's own options, not the host's (host_*) */
        const char *path = jp_str_or(in->doc, "target.path", ""), *opt = strchr(path, ',');
        size_t used = (size_t)snprintf(buf, len, "sim:%s",
                                       preset ? preset : results_doc_device_label(in->doc, NULL));
        for (; opt && used < len; opt = strchr(opt + 1, ',')) {
            size_t n = strcspn(opt + 1, ",");
            if (strncmp(opt + 1, "host_", 5) != 0)
                used += (size_t)snprintf(buf + used, len - used, ",%.*s", (int)n, opt + 1);
        }
    } else if (model && *model)
        snprintf(buf, len, "dev:%s|%s", model, serial ? serial : "");
    else
        snprintf(buf, len, "path:%s", jp_str_or(in->doc, "target.path", device_label(in)));
}

static void summary_columns(const struct ctx *c, struct summary *s)
{
    s->col = xcalloc(c->n, sizeof(size_t));
    s->first = xcalloc(c->n, sizeof(size_t));
    s->ncol = 0;
    for (size_t i = 0; i < c->n; i++) {
        char ki[640], kj[640];
        summary_key(&c->in[i], ki, sizeof(ki));
        s->col[i] = s->ncol;
        for (size_t j = 0; j < i; j++) {
            summary_key(&c->in[j], kj, sizeof(kj));
            if (!strcmp(ki, kj)) {
                s->col[i] = s->col[j];
                break;
            }
        }
        if (s->col[i] == s->ncol)
            s->first[s->ncol++] = i;
    }
}

/* A run's last window as a point (the document with it as the steady-state object, measured as
 * measure.h measures a run), when it is saturated or steady; else out stays empty. */
static void plateau_measure(const struct report_input *in, struct meas_set *out)
{
    memset(out, 0, sizeof(*out));
    struct json_object *lw = jp_get(in->doc, "last_window");
    const char *ms = jp_str(lw, "measured_state");
    if (strcmp(schema_of(in), "ptsbench.run") != 0 || !jp_at(lw, "window.first_round") || !ms ||
        (strcmp(ms, "saturated") != 0 && strcmp(ms, "steady") != 0))
        return;
    struct json_object *copy = NULL, *lwc = NULL;
    if (json_object_deep_copy(in->doc, &copy, NULL) != 0)
        return;
    if (json_object_deep_copy(lw, &lwc, NULL) == 0) {
        json_object_object_add(copy, "steady_state", lwc);
        char err[ERR_LEN];
        if (meas_doc(copy, in->path ? in->path : "", 0, out, err, sizeof(err)) != 0)
            memset(out, 0, sizeof(*out));
    }
    json_object_put(copy);
}

/* A column's heading: the label its inputs share, else the words their labels begin with
 * ("Z-Drive R4" of "Z-Drive R4 (PTS IOPS)" and "Z-Drive R4 (WSAT 0%)"), else the drive's
 * name; "(simulated drive)" after a simulated one. */
static void summary_head(const struct ctx *c, const struct summary *s, size_t g, char *buf,
                         size_t len)
{
    const size_t f = s->first[g];
    const char *a = device_label(&c->in[f]);
    size_t k = strlen(a);
    bool same = true;
    for (size_t i = f + 1; i < c->n; i++) {
        if (s->col[i] != g)
            continue;
        const char *b = device_label(&c->in[i]);
        size_t m = 0;
        while (m < k && a[m] == b[m])
            m++;
        same = same && m == k && !b[k];
        k = m;
    }
    if (!same) {   /* back to the end of the last whole word, without trailing punctuation */
        while (k > 0 && a[k] && a[k] != ' ')
            k--;
        while (k > 0 && strchr(" (-,:;/", a[k - 1]))
            k--;
    }
    if (k)
        snprintf(buf, len, "%.*s", (int)k, a);
    else
        snprintf(buf, len, "%s", results_doc_device_label(c->in[f].doc, NULL));
    if (simulated(&c->in[f])) {
        size_t used = strlen(buf);
        snprintf(buf + used, len - used, " (simulated drive)");
    }
}

/* The cell of a point: "60,366 (write saturation, not steady state; 4 × QD 32)", with the
 * data's compressibility when it was compressible. */
static void point_cell(const struct headline *h, const struct meas_point *p, char *val,
                       size_t len)
{
    char v[48], cmp[48] = "";
    const double x = p->v[h->metric];
    if (h->kind == 0)
        report_fmt_count(x, v, sizeof(v));
    else if (h->kind == 1)
        fmt_fig(x, UNITS_FIG_MBS, v, sizeof(v));
    else
        units_format_lat(x, UNITS_TYPESET, v, sizeof(v));
    if (p->compress_pct > 0)
        snprintf(cmp, sizeof(cmp), "; %d%% compressible data", p->compress_pct);
    snprintf(val, len, "%s (%s; %u × QD %u%s)", v,
             p->after_fast && (cand_state(p) == CS_WIPC || cand_state(p) == CS_STEADY)
                 ? meas_point_state_label(p)   /* after the fast pass: says so (issue 48) */
                 : cand_words[cand_state(p)],
             p->workers, p->qd,
             cmp);
}

/* The best point for row h among input i's (its measured points and its plateau). */
static const struct meas_point *input_best(const struct ctx *c, const struct summary *s,
                                           size_t i, const struct headline *h)
{
    const struct meas_set *sets[] = {c->meas[i], &s->plateau[i]};
    const struct meas_point *best = NULL;
    for (size_t k = 0; k < 2; k++)
        for (size_t j = 0; sets[k] && j < sets[k]->n; j++)
            if (row_takes(h, &sets[k]->p[j]) && cand_better(h, &sets[k]->p[j], best))
                best = &sets[k]->p[j];
    return best;
}

/* The summary's cell of row r in column g: the best source among the drive's inputs (the
 * suite's WSAT or HIR test first for their rows); named when several have the figure. Returns
 * whether there is one. */
static bool summary_cell(const struct ctx *c, const struct summary *s, size_t r, size_t g,
                         char *val, size_t len)
{
    const struct headline *h = &summary_rows[r];
    snprintf(val, len, "—");
    size_t from = c->n, nhave = 0;
    bool text = false;   /* val holds a suite test's cell */
    const struct meas_point *p = NULL;
    for (size_t i = 0; i < c->n; i++) {
        if (s->col[i] != g)
            continue;
        char cell[512] = "—";
        if (h->from == ROW_HIR)
            hir_cell(c->in[i].doc, cell, sizeof(cell));
        else if (h->from == ROW_PLATEAU)
            wsat_cell(c->in[i].doc, cell, sizeof(cell));
        const struct meas_point *q = h->from == ROW_HIR ? NULL : input_best(c, s, i, h);
        if (strcmp(cell, "—") != 0) {
            if (!text)
                snprintf(val, len, "%s", cell), from = i;
            text = true;
        } else if (q && !text && cand_better(h, q, p)) {
            p = q, from = i;
        }
        nhave += strcmp(cell, "—") != 0 || q;
    }
    if (p && !text)
        point_cell(h, p, val, len);
    if (nhave > 1 && from < c->n) {
        char src[512];
        size_t used = strlen(val);
        source_name(c->in[from].path, src, sizeof(src));
        const char *in = strncmp(src, "results.json in ", 16) ? src : src + 16;
        snprintf(val + used, len - used, " (from %s)", in);
    }
    return nhave > 0;
}

/* The claims of the spec sheet, as "Measured vs claimed" judges them: a row when a sheet was
 * given. */
static void summary_claims_row(const struct ctx *c, const struct summary *s, struct table *t,
                               const char **cells, char (*vals)[1024])
{
    bool sheets = false;
    for (size_t i = 0; i < c->n; i++)
        sheets = sheets || c->sheet[i];
    if (!sheets)
        return;
    cells[0] = "Spec sheet claims met";
    for (size_t g = 0; g < s->ncol; g++) {
        cells[g + 1] = vals[g];
        size_t i = s->first[g];
        for (size_t j = s->first[g]; j < c->n; j++)
            if (s->col[j] == g && c->sheet[j]) {
                i = j;
                break;
            }
        claims_count_words(c, i, vals[g], sizeof(vals[g]));
    }
    t_row(t, cells);
}

/* Which inputs each column holds, when a column holds several; which rows no input measures. */
static void summary_notes(struct ctx *c, const struct summary *s, const char *left_out)
{
    char line[4096] = "";
    size_t used = 0;
    for (size_t g = 0; g < s->ncol; g++) {
        size_t n = 0;
        for (size_t i = 0; i < c->n; i++)
            n += s->col[i] == g;
        if (n < 2)
            continue;
        char head[400];
        summary_head(c, s, g, head, sizeof(head));
        used += (size_t)snprintf(line + used, used < sizeof(line) ? sizeof(line) - used : 0,
                                 "%s%s: ", used ? "; " : "", head);
        for (size_t i = 0, k = 0; i < c->n && used < sizeof(line); i++) {
            char src[512];   /* its label, else where it came from */
            source_name(c->in[i].path, src, sizeof(src));
            const char *name = c->in[i].label && *c->in[i].label ? c->in[i].label
                               : strncmp(src, "results.json in ", 16) ? src : src + 16;
            if (s->col[i] == g)
                used += (size_t)snprintf(line + used, sizeof(line) - used, "%s%s", k++ ? ", " : "",
                                         name);
        }
    }
    if (used && used < sizeof(line))
        o_para(&c->o, "One column per drive, its results together (a cell names the results it "
                      "comes from when several have the figure): %s.", line);
    if (left_out[0])
        o_para(&c->o, "Left out, as none of these results measures them: %s.", left_out);
}

/* What would measure row h ("" for a plain workload's figure). */
static const char *summary_row_needs(const struct headline *h)
{
    return h->needs ? h->needs : h->qd1 ? "a 4 KiB random point at 1 worker × QD 1" : "";
}

/* A left-out row into the line: rows of the same need after each other say it once:
 * "A; B (needs X); C (needs Y)". */
static void left_out_add(char *line, size_t len, const struct headline *h,
                         const struct headline *next_left_out)
{
    const char *need = summary_row_needs(h);
    size_t used = strlen(line);
    bool last_of_need = !next_left_out || strcmp(summary_row_needs(next_left_out), need) != 0;
    snprintf(line + used, len - used, "%s%s%s%s%s", used ? "; " : "", h->label,
             last_of_need && need[0] ? " (needs " : "", last_of_need ? need : "",
             last_of_need && need[0] ? ")" : "");
}

static void summary_section(struct ctx *c)
{
    o_heading(&c->o, 2, "summary", "Summary");
    bool any_sim = false;
    for (size_t i = 0; i < c->n; i++)
        any_sim = any_sim || simulated(&c->in[i]);
    struct summary s;
    summary_columns(c, &s);
    s.plateau = xcalloc(c->n, sizeof(*s.plateau));
    for (size_t i = 0; i < c->n; i++)
        plateau_measure(&c->in[i], &s.plateau[i]);
    const char **head = xcalloc(s.ncol + 1, sizeof(char *));
    char (*heads)[400] = xcalloc(s.ncol, sizeof(*heads));
    head[0] = "Figure";
    for (size_t g = 0; g < s.ncol; g++) {
        summary_head(c, &s, g, heads[g], sizeof(heads[g]));
        for (size_t e = 0; e < g; e++)   /* two drives of one name: which drive each is */
            if (!strcmp(heads[e], heads[g])) {
                char key[640];
                size_t used = strlen(heads[g]);
                summary_key(&c->in[s.first[g]], key, sizeof(key));
                snprintf(heads[g] + used, sizeof(heads[g]) - used, " [%s]", key);
                break;
            }
        head[g + 1] = heads[g];
    }
    struct table t;
    t_init(&t, (unsigned)s.ncol + 1, head);
    t.first_col_head = true;
    t.cls = "wide";
    const char **cells = xcalloc(c->n + 1, sizeof(char *));
    char (*vals)[1024] = xcalloc(c->n, sizeof(*vals));
    char left_out[2048] = "";
    const struct headline *pending = NULL;   /* a left-out row not yet in the line */
    for (size_t r = 0; r < N_SUMMARY_ROWS; r++) {
        bool any = false;
        cells[0] = summary_rows[r].label;
        for (size_t g = 0; g < s.ncol; g++) {
            cells[g + 1] = vals[g];
            any = summary_cell(c, &s, r, g, vals[g], sizeof(vals[g])) || any;
        }
        if (any) {
            t_row(&t, cells);
            continue;
        }
        if (pending)
            left_out_add(left_out, sizeof(left_out), pending, &summary_rows[r]);
        pending = &summary_rows[r];
    }
    if (pending)
        left_out_add(left_out, sizeof(left_out), pending, NULL);
    summary_claims_row(c, &s, &t, cells, vals);
    o_para(&c->o, "The headline figures, each with the drive's state it was measured in "
                  "(steady state only where the results claim it; a write-saturation plateau is "
                  "the flat end of writing without preconditioning, as the PTS's WSAT, not "
                  "steady state; \"—\": not in this drive's results)%s:",
           any_sim ? "; figures of a simulated drive are in virtual time, not a real device's"
                   : "");
    if (t.nrows)
        t_emit(&c->o, &t);
    else
        t_free(&t);
    summary_notes(c, &s, left_out);
    for (size_t i = 0; i < c->n; i++)
        meas_free(&s.plateau[i]);
    free(s.plateau);
    free(cells);
    free(vals);
    free(head);
    free(heads);
    free(s.col);
    free(s.first);
}

/* ---- PTS tests */

static struct json_object *find_test(struct json_object *doc, const char *name)
{
    size_t n = jlen_at(doc, "tests");
    for (size_t i = 0; i < n; i++) {
        struct json_object *t = jp_idx(jp_at(doc, "tests"), i);
        const char *tn = jp_str(t, "name");
        if (tn && !strcmp(tn, name))
            return t;
    }
    return NULL;
}

static struct json_object *table_row(struct json_object *sub, int mix, double bs)
{
    size_t n = jlen_at(sub, "table.rows");
    for (size_t i = 0; i < n; i++) {
        struct json_object *r = jp_idx(jp_at(sub, "table.rows"), i);
        if (jp_path(r, "rwmix_read") == mix && jp_path(r, "bs") == bs)
            return r;
    }
    return NULL;
}

static double row_lat(struct json_object *row, const char *dir, const char *key)
{
    return results_figures_lat(row, dir, key);
}

/* "steady state reached at round 7 (window 3–7, iops@4KiB/0 average 139,910)" */
static void steady_words(struct json_object *sub, char *buf, size_t len)
{
    struct json_object *ss = jp_at(sub, "steady_state");
    if (!ss) {
        snprintf(buf, len, "no steady-state tracking");
        return;
    }
    if (jp_true(jp_at(ss, "reached"))) {
        char avg[32], tw[128];
        fmt_fig(jp_path(ss, "variables.0.window.average"),
                tracking_figure_kind(jp_at(ss, "variables.0")), avg, sizeof(avg));
        report_words_tracking_of(jp_obj_at(ss, "variables.0"), tw, sizeof(tw));
        snprintf(buf, len, "steady state reached at round %.0f (window rounds %.0f–%.0f, %s "
                 "average %s, range %.1f%%, slope excursion %.1f%%)", jp_path(ss, "round"),
                 jp_path(ss, "variables.0.window.first_round"),
                 jp_path(ss, "variables.0.window.last_round"),
                 tw,
                 avg, 100 * jp_path(ss, "variables.0.window.range") /
                          jp_path(ss, "variables.0.window.average"),
                 100 * jp_path(ss, "variables.0.window.slope_excursion") /
                     jp_path(ss, "variables.0.window.average"));
    } else {
        /* the rounds the tables hold: the last 5, or all of a shorter run */
        const double first = jp_path(sub, "table.first_round"), last = jp_path(sub, "table.last_round");
        if (isfinite(first) && isfinite(last) && first < last)
            snprintf(buf, len, "steady state NOT reached in %.0f rounds (rounds %.0f–%.0f are "
                     "reported)", jp_path(ss, "rounds_run"), first, last);
        else if (isfinite(last))
            snprintf(buf, len, "steady state NOT reached in %.0f rounds (round %.0f is reported)",
                     jp_path(ss, "rounds_run"), last);
        else
            snprintf(buf, len, "steady state NOT reached in %.0f rounds", jp_path(ss, "rounds_run"));
    }
}

static void pts_iops(struct ctx *c, const char *name)
{
    static const int mixes[] = {100, 95, 65, 50, 35, 5, 0};
    for (size_t i = 0; i < c->n; i++) {
        struct json_object *t = find_test(c->in[i].doc, name);
        struct json_object *sub = t ? jp_at(t, "subtests.0") : NULL;
        if (!sub)
            continue;
        char words[512], w4k[32], r4k[32];
        steady_words(sub, words, sizeof(words));
        struct json_object *rw = table_row(sub, 0, 4096), *rr = table_row(sub, 100, 4096);
        report_fmt_count(rw ? jp_path(rw, "total.iops") : NAN, w4k, sizeof(w4k));
        report_fmt_count(rr ? jp_path(rr, "total.iops") : NAN, r4k, sizeof(r4k));
        o_para(&c->o, "%s: %s; 4 KiB random write %s IOPS, 4 KiB random read %s IOPS.",
               dev(c, i), words, w4k, r4k);
        const char *head[8] = {"Block size"};
        char mh[7][16];
        for (int m = 0; m < 7; m++) {
            snprintf(mh[m], sizeof(mh[m]), "%d/%d", mixes[m], 100 - mixes[m]);
            head[m + 1] = mh[m];
        }
        struct table tb;
        t_init(&tb, 8, head);
        tb.first_col_head = true;
        double bss[16];
        size_t nb = 0;
        for (size_t k = 0; k < jlen_at(sub, "table.rows") && nb < 16; k++) {
            double bs = jp_path(jp_idx(jp_at(sub, "table.rows"), k), "bs");
            bool seen = false;
            for (size_t q = 0; q < nb; q++)
                seen = seen || bss[q] == bs;
            if (!seen)
                bss[nb++] = bs;
        }
        for (size_t b = 0; b < nb; b++) {
            char cells[8][32];
            const char *cp[8];
            units_format_bs(bss[b], cells[0], sizeof(cells[0]));
            cp[0] = cells[0];
            for (int m = 0; m < 7; m++) {
                struct json_object *r = table_row(sub, mixes[m], bss[b]);
                report_fmt_count(r ? jp_path(r, "total.iops") : NAN, cells[m + 1], sizeof(cells[m + 1]));
                cp[m + 1] = cells[m + 1];
            }
            t_row(&tb, cp);
        }
        o_para(&c->o, "%s — IOPS by block size (rows) and read/write mix (columns), the "
                      "steady-state window's average%s:", dev(c, i), sim_caption(&c->in[i]));
        t_emit(&c->o, &tb);
    }
}

static void pts_tp(struct ctx *c, const char *name)
{
    for (size_t i = 0; i < c->n; i++) {
        struct json_object *t = find_test(c->in[i].doc, name);
        if (!t)
            continue;
        char rh[48], wh[48];
        const char *head[] = {"Block size", fig_head(&c->in[i], "Read MB/s", rh, sizeof(rh)),
                              fig_head(&c->in[i], "Write MB/s", wh, sizeof(wh)), "Steady state"};
        struct table tb;
        t_init(&tb, 4, head);
        tb.first_col_head = true;
        for (size_t s = 0; s < jlen_at(t, "subtests"); s++) {
            struct json_object *sub = jp_idx(jp_at(t, "subtests"), s);
            double bs = jp_path(sub, "bs");
            if (!isfinite(bs))
                bs = jp_path(sub, "table.rows.0.bs");
            char c0[32], c1[32], c2[32], words[512];
            units_format_bs(bs, c0, sizeof(c0));
            struct json_object *r = table_row(sub, 100, bs), *w = table_row(sub, 0, bs);
            fmt_fig(r ? jp_path(r, "total.mb_s") : NAN, UNITS_FIG_MBS, c1, sizeof(c1));
            fmt_fig(w ? jp_path(w, "total.mb_s") : NAN, UNITS_FIG_MBS, c2, sizeof(c2));
            steady_words(sub, words, sizeof(words));
            const char *cp[] = {c0, c1, c2, words};
            t_row(&tb, cp);
        }
        o_para(&c->o, "%s — sequential throughput (MB/s = 10^6 bytes/s)%s:", dev(c, i),
               sim_caption(&c->in[i]));
        t_emit(&c->o, &tb);
    }
}

static void pts_lat(struct ctx *c, const char *name)
{
    for (size_t i = 0; i < c->n; i++) {
        struct json_object *t = find_test(c->in[i].doc, name);
        struct json_object *sub = t ? jp_at(t, "subtests.0") : NULL;
        if (!sub)
            continue;
        char words[512];
        steady_words(sub, words, sizeof(words));
        o_para(&c->o, "%s: %s.", dev(c, i), words);
        const char *head[] = {"Block size", "R/W", "mean", "99%", "99.99%", "99.999%",
                              "99.9999%", "max"};
        struct table tb;
        t_init(&tb, 8, head);
        tb.first_col_head = true;
        bool short_of = false;   /* a percentile the window's count does not support */
        for (size_t k = 0; k < jlen_at(sub, "table.rows"); k++) {
            struct json_object *r = jp_idx(jp_at(sub, "table.rows"), k);
            char c0[32], c1[16], v[6][40];
            units_format_bs(jp_path(r, "bs"), c0, sizeof(c0));
            double mix = jp_path(r, "rwmix_read");
            if (mix >= 0 && mix <= 100)
                snprintf(c1, sizeof(c1), "%g/%g", mix, 100 - mix);
            else
                snprintf(c1, sizeof(c1), "–");
            const char *keys[] = {"mean", "99", "99.99", "99.999", "99.9999", "max"};
            struct json_object *lat = jp_obj_at(r, "total.lat_us");
            for (int q = 0; q < 6; q++) {
                if (q == 0 || q == 5)
                    units_format_lat(row_lat(r, "total", keys[q]), UNITS_TYPESET, v[q],
                                     sizeof(v[q]));
                else
                    words_pct_lat(lat, keys[q], UNITS_TYPESET, v[q], sizeof(v[q]));
                short_of |= (q != 0 && q != 5) && words_pct_lat_short_of(lat, keys[q]);
            }
            const char *cp[] = {c0, c1, v[0], v[1], v[2], v[3], v[4], v[5]};
            t_row(&tb, cp);
        }
        o_para(&c->o, "%s — response time (all I/Os of the window)%s:", dev(c, i),
               sim_caption(&c->in[i]));
        t_emit(&c->o, &tb);
        const double k = jp_path(c->in[i].doc, "target.simulated.time_scale_k");
        char sim[128] = "";
        if (k > 1)
            snprintf(sim, sizeof(sim), " N counts the simulated drive's completions, each "
                     "standing for %.0f I/Os.", k);
        if (short_of)
            o_para(&c->o, "n/a (N I/Os): not enough I/Os for this percentile (N, the window's "
                   "I/Os): fewer than %d of them lie beyond it, so the figure would be one of the "
                   "few slowest I/Os, not a percentile a rerun repeats.%s", HIST_TAIL_MIN, sim);
    }
}

static void pts_wsat(struct ctx *c, const char *name)
{
    const char *head[] = {"Device", "Rounds", "Written", "First round IOPS", "Final IOPS (last 5)",
                          "Final mean latency", "Stop"};
    struct table tb;
    t_init(&tb, 7, head);
    for (size_t i = 0; i < c->n; i++) {
        struct json_object *t = find_test(c->in[i].doc, name);
        struct json_object *sub = t ? jp_at(t, "subtests.0") : NULL;
        size_t nr = sub ? jlen_at(sub, "rounds") : 0;
        if (!nr)
            continue;
        struct json_object *rounds = jp_at(sub, "rounds");
        double fin = 0, lat = 0;
        size_t from = nr > 5 ? nr - 5 : 0;
        for (size_t k = from; k < nr; k++) {
            struct json_object *e = jp_at(jp_idx(rounds, k), "elements.0");
            fin += jp_path(e, "total.iops") / (double)(nr - from);
            lat += jp_path(e, "total.lat_us.mean") / (double)(nr - from);
        }
        char c1[16], c2[48], c3[32], c4[32], c5[32];
        snprintf(c1, sizeof(c1), "%zu", nr);
        double gb = jp_path(jp_idx(rounds, nr - 1), "total_written_gb");
        fmt_fig(gb * 1e9, UNITS_FIG_BYTES, c2, sizeof(c2));
        report_fmt_count(jp_path(jp_idx(rounds, 0), "elements.0.total.iops"), c3,
                         sizeof(c3));
        report_fmt_count(fin, c4, sizeof(c4));
        units_format_lat(lat, UNITS_TYPESET, c5, sizeof(c5));
        const char *cp[] = {dev(c, i), c1, c2, c3, c4, c5,
                            jp_str(sub, "stop.reason") ? jp_str(sub, "stop.reason") : ""};
        t_row(&tb, cp);
        o_para(&c->o, "%s: from %s IOPS in the first round to %s IOPS over the last five, after "
                      "%s written.", dev(c, i), c3, c4, c2);
    }
    t_emit(&c->o, &tb);   /* an empty table still frees its head */
}

static void pts_hir(struct ctx *c, const char *name)
{
    for (size_t i = 0; i < c->n; i++) {
        struct json_object *t = find_test(c->in[i].doc, name);
        struct json_object *sub = t ? jp_at(t, "subtests.0") : NULL;
        size_t nw = sub ? jlen_at(sub, "wait_states") : 0;
        if (!nw)
            continue;
        char wh[48];
        const char *head[] = {"Wait state", "Idle (s)",
                              fig_head(&c->in[i], "Write IOPS", wh, sizeof(wh)), "Baseline IOPS",
                              "Gain"};
        struct table tb;
        t_init(&tb, 5, head);
        for (size_t k = 0; k < nw; k++) {
            struct json_object *w = jp_idx(jp_at(sub, "wait_states"), k);
            char c0[16], c1[16], c2[32], c3[32], c4[16];
            snprintf(c0, sizeof(c0), "%.0f", jp_path(w, "state"));
            snprintf(c1, sizeof(c1), "%g", jp_path(w, "wait_s"));
            report_fmt_count(jp_path(w, "write_iops_mean"), c2, sizeof(c2));
            report_fmt_count(jp_path(w, "baseline_iops_mean"), c3, sizeof(c3));
            snprintf(c4, sizeof(c4), "%.2f×", jp_path(w, "write_iops_mean") /
                                                  jp_path(w, "baseline_iops_mean"));
            const char *cp[] = {c0, c1, c2, c3, c4};
            t_row(&tb, cp);
        }
        o_para(&c->o, "%s — IOPS of the write accesses after each idle period against the "
                      "baseline without idle:", dev(c, i));
        t_emit(&c->o, &tb);
    }
}

static void pts_xsr(struct ctx *c, const char *name)
{
    for (size_t i = 0; i < c->n; i++) {
        struct json_object *t = find_test(c->in[i].doc, name);
        struct json_object *sub = t ? jp_at(t, "subtests.0") : NULL;
        size_t ng = sub ? jlen_at(sub, "groups") : 0;
        if (!ng)
            continue;
        char mh[48];
        const char *head[] = {"Group", "Stimulus", "Minutes",
                              fig_head(&c->in[i], "Mean MB/s", mh, sizeof(mh)), "End MB/s",
                              "Peak mean latency"};
        struct table tb;
        t_init(&tb, 6, head);
        for (size_t k = 0; k < ng; k++) {
            struct json_object *g = jp_idx(jp_at(sub, "groups"), k);
            char c0[16], c2[16], c3[32], c4[32], c5[32];
            snprintf(c0, sizeof(c0), "%.0f", jp_path(g, "group"));
            snprintf(c2, sizeof(c2), "%g", jp_path(g, "minutes"));
            fmt_fig(jp_path(g, "mb_s_mean"), UNITS_FIG_MBS, c3, sizeof(c3));
            fmt_fig(jp_path(g, "mb_s_end"), UNITS_FIG_MBS, c4, sizeof(c4));
            units_format_lat(jp_path(g, "peak_lat_mean_us"), UNITS_TYPESET, c5, sizeof(c5));
            const char *cp[] = {c0, jp_str(g, "stimulus") ? jp_str(g, "stimulus") : "", c2, c3, c4, c5};
            t_row(&tb, cp);
        }
        double rec = jp_path(sub, "recovery_minutes");
        if (isfinite(rec))
            o_para(&c->o, "%s: throughput recovered to the first group's average %.1f minutes "
                          "into the last group.", dev(c, i), rec);
        else
            o_para(&c->o, "%s: throughput did not recover to the first group's average within "
                          "the last group.", dev(c, i));
        t_emit(&c->o, &tb);
    }
}

static void pts_dirth(struct ctx *c, const char *name)
{
    for (size_t i = 0; i < c->n; i++) {
        struct json_object *t = find_test(c->in[i].doc, name);
        struct json_object *sub = t ? jp_at(t, "subtests.0") : NULL;
        struct json_object *op = sub ? jp_at(sub, "operating_points") : NULL;
        if (!op)
            continue;
        char ih[48];
        const char *head[] = {"Operating point", "Threads × QD",
                              fig_head(&c->in[i], "IOPS", ih, sizeof(ih)), "Mean latency"};
        struct table tb;
        t_init(&tb, 4, head);
        const char *names[] = {"max", "mid", "min"};
        for (int k = 0; k < 3; k++) {
            struct json_object *p = jp_get(op, names[k]);
            if (!p)
                continue;
            char c1[32], c2[32], c3[32];
            snprintf(c1, sizeof(c1), "%.0f × %.0f", jp_path(p, "threads"), jp_path(p, "qd"));
            report_fmt_count(jp_path(p, "total.iops"), c2, sizeof(c2));
            units_format_lat(jp_path(p, "sweep_lat_mean_us"), UNITS_TYPESET, c3, sizeof(c3));
            const char *cp[] = {names[k], c1, c2, c3};
            t_row(&tb, cp);
        }
        char ceil[32];
        units_format_lat(jp_path(op, "latency_ceiling_us"), UNITS_TYPESET, ceil, sizeof(ceil));
        o_para(&c->o, "%s — demand intensity operating points (latency ceiling %s):",
               dev(c, i), ceil);
        t_emit(&c->o, &tb);
    }
}

/* A test's section by its presentation (tests[i].report, plot_test_presentation); its charts
 * are plot_pts.c's table's. Every presentation has an entry (tests/unit/test_presentation.c);
 * "generic" (a standard test without one of the PTS's presentations): the parameters and
 * preparation only. */
static void pts_generic(struct ctx *c, const char *name)
{
    (void)c;
    (void)name;
}

static void (*const pts_sections[PTS_REPORT_COUNT])(struct ctx *c, const char *name) = {
    [PTS_REPORT_IOPS] = pts_iops, [PTS_REPORT_TP] = pts_tp,   [PTS_REPORT_LAT] = pts_lat,
    [PTS_REPORT_WSAT] = pts_wsat, [PTS_REPORT_HIR] = pts_hir, [PTS_REPORT_XSR] = pts_xsr,
    [PTS_REPORT_DIRTH] = pts_dirth, [PTS_REPORT_GENERIC] = pts_generic,
};

bool report_presentation_has_section(int p)
{
    return p >= PTS_REPORT_GENERIC && p < PTS_REPORT_COUNT && pts_sections[p];
}

static const char *const steady_head[10] = {
    "Device", "Tracking", "Window (rounds)", "Average", "Allowed range (20%)",
    "Measured range", "Allowed slope excursion (10%)", "Measured slope excursion",
    "Fitted line (x = round)", "Verdict"};

/* One row of the steady-state determination: input i's tracking variable var (a suite
 * subtest's steady_state.variables[k], or a run's steady_state), sub_label before the
 * tracking's words when a test has several subtests. The verdict: steady state at its round;
 * else the results' own label where they have one (a run's "stable (fresh-out-of-box /
 * burst)": never called steady state); else what failed. No window (or only its bounds and
 * average, as early results kept): no row. */
static void steady_row(struct ctx *c, size_t i, struct json_object *var, const char *sub_label,
                       struct table *t)
{
    struct json_object *w = jp_at(var, "window");
    if (!w || !is_obj(w) || !isfinite(jp_path(w, "average")) || !isfinite(jp_path(w, "range")))
        return;   /* results that kept only the window's bounds: the verdict's sentence says it */
    enum units_figure kind = tracking_figure_kind(var);
    char cell[10][160], tw[128], sl[48], ic[48], a[48], b[48];
    snprintf(cell[0], sizeof(cell[0]), "%s%s", dev(c, i),
             simulated(&c->in[i]) && !strstr(dev(c, i), "simulated") ? " (simulated drive)" : "");
    report_words_tracking_of(var, tw, sizeof(tw));
    if (sub_label)
        snprintf(cell[1], sizeof(cell[1]), "%s: %s", sub_label, tw);
    else
        snprintf(cell[1], sizeof(cell[1]), "%s", tw);
    snprintf(cell[2], sizeof(cell[2]), "%.0f–%.0f", jp_path(w, "first_round"),
             jp_path(w, "last_round"));
    fmt_fig(jp_path(w, "average"), kind, cell[3], sizeof(cell[3]));
    fmt_fig(jp_path(w, "range_allowed"), kind, cell[4], sizeof(cell[4]));
    fmt_fig(jp_path(w, "range"), kind, a, sizeof(a));
    fmt_fig(100 * jp_path(w, "range") / jp_path(w, "average"), UNITS_FIG_PCT, b, sizeof(b));
    snprintf(cell[5], sizeof(cell[5]), "%s (%s)", a, b);
    fmt_fig(jp_path(w, "slope_excursion_allowed"), kind, cell[6], sizeof(cell[6]));
    fmt_fig(jp_path(w, "slope_excursion"), kind, a, sizeof(a));
    fmt_fig(100 * jp_path(w, "slope_excursion") / jp_path(w, "average"), UNITS_FIG_PCT, b,
            sizeof(b));
    snprintf(cell[7], sizeof(cell[7]), "%s (%s)", a, b);
    if (isfinite(jp_path(w, "slope")) && isfinite(jp_path(w, "intercept"))) {
        fmt_fig(jp_path(w, "slope"), UNITS_FIG_VALUE, sl, sizeof(sl));
        fmt_fig(fabs(jp_path(w, "intercept")), UNITS_FIG_VALUE, ic, sizeof(ic));
        snprintf(cell[8], sizeof(cell[8]), "y = %s·x %s %s", sl,
                 jp_path(w, "intercept") < 0 ? "−" : "+", ic);
    } else {
        snprintf(cell[8], sizeof(cell[8]), "—");
    }
    const bool has_checks = jp_at(w, "range_ok") && jp_at(w, "slope_ok");
    bool rok = jp_true(jp_at(w, "range_ok")), sok = jp_true(jp_at(w, "slope_ok"));
    const char *label = jp_str(var, "label");
    if (jp_true(jp_at(var, "reached")) && isfinite(jp_path(var, "round")))
        snprintf(cell[9], sizeof(cell[9]), "steady state at round %.0f", jp_path(var, "round"));
    else if (label)
        snprintf(cell[9], sizeof(cell[9]), "%s", label);
    else if (!has_checks)
        snprintf(cell[9], sizeof(cell[9]), "—");
    else if (jp_true(jp_at(w, "steady")))
        snprintf(cell[9], sizeof(cell[9]), "window passes, steady state not claimed");
    else
        snprintf(cell[9], sizeof(cell[9]), "NOT steady: %s%s%s", rok ? "" : "range too wide",
                 !rok && !sok ? ", " : "", sok ? "" : "slope too steep");
    const char *cells[10];
    for (int q = 0; q < 10; q++)
        cells[q] = cell[q];
    t_row(t, cells);
}

static void steady_emit(struct ctx *c, struct table *t)
{
    if (t->nrows) {
        o_para(&c->o, "Steady-state determination (SNIA PTS: over the 5-round window the "
               "tracked variable's range within 20%% and its least-squares line's excursion "
               "within 10%% of the window's average):");
        t_emit(&c->o, t);
    }
    t_free(t);
}

/* The PTS steady-state determination of a test, per device, subtest and tracking variable,
 * from the results' steady_state records: the window, its average, the allowed (20%) and the
 * measured range, the allowed (10%) and the measured slope excursion, the fitted line and the
 * verdict. Figures through units_format_figure, in the tracked variable's unit. */
static void steady_table(struct ctx *c, const char *name)
{
    struct table t;
    t_init(&t, 10, steady_head);
    for (size_t i = 0; i < c->n; i++) {
        struct json_object *subs = jp_at(find_test(c->in[i].doc, name), "subtests");
        for (size_t k = 0; k < jp_len(subs); k++) {
            struct json_object *sub = jp_idx(subs, k);
            struct json_object *vars = jp_at(sub, "steady_state.variables");
            const char *sl = jp_len(subs) > 1 ? jp_str(sub, "label") : NULL;
            for (size_t v = 0; v < jp_len(vars); v++)
                steady_row(c, i, jp_idx(vars, v), sl, &t);
        }
    }
    steady_emit(c, &t);
}

/* The same for a run: its steady_state record, one row. */
static void run_steady_table(struct ctx *c, size_t i)
{
    struct table t;
    t_init(&t, 10, steady_head);
    struct json_object *doc = c->in[i].doc;
    if (read_run_multi(doc)) {   /* several jobs: a row per group, its own window */
        for (unsigned g = 0; g < read_run_n_groups(doc); g++) {
            struct read_group gr;
            char label[32];
            snprintf(label, sizeof(label), "group %u", g + 1);
            if (read_run_group(doc, g, &gr) && gr.steady)
                steady_row(c, i, gr.steady, label, &t);
        }
    } else {
        steady_row(c, i, jp_at(doc, "steady_state"), NULL, &t);
    }
    steady_emit(c, &t);
}

/* A test's parameters in words, by its kind: "5 s elements, 4 threads × QD 32, random access,
 * definition iops.ini"; HIR: its preconditioning elements and its wait states' accesses (5 s,
 * not the elements); XSR: each group's stimulus and length. The definition by file name only:
 * where it lay on the test machine is no one's business. */
static void test_params_words(struct json_object *t, char *buf, size_t len)
{
    const char *def = jp_str(t, "definition"), *slash = def ? strrchr(def, '/') : NULL;
    enum pts_report report = plot_test_presentation(t);
    struct json_object *sub = jp_at(t, "subtests.0");
    char who[64];
    snprintf(who, sizeof(who), "%.0f thread%s × QD %.0f", jp_path(t, "threads"),
             jp_path(t, "threads") == 1 ? "" : "s", jp_path(t, "qd"));
    size_t used = 0;
    if (report == PTS_REPORT_XSR && jlen_at(sub, "groups")) {
        used += (size_t)snprintf(buf, len, "%s; stimuli in turn:", who);
        for (size_t k = 0; k < jlen_at(sub, "groups") && used < len; k++) {
            struct json_object *g = jp_idx(jp_at(sub, "groups"), k);
            used += (size_t)snprintf(buf + used, len - used, "%s %s for %g min", k ? "," : "",
                                     sv(g, "stimulus"), jp_path(g, "minutes"));
        }
    } else if (report == PTS_REPORT_HIR && jlen_at(sub, "wait_states")) {
        struct json_object *w = jp_idx(jp_at(sub, "wait_states"), 0);
        used += (size_t)snprintf(buf, len, "%s, %s writes; preconditioning in %g s "
                                 "elements until steady, then wait states of %g s write "
                                 "accesses each followed by an idle period (", who,
                                 jp_str(t, "access") ? jp_str(t, "access") : "random",
                                 jp_path(t, "element_time_s"), jp_path(w, "access_s"));
        for (size_t k = 0; k < jlen_at(sub, "wait_states") && used < len; k++)
            used += (size_t)snprintf(buf + used, len - used, "%s%g s", k ? ", " : "",
                                     jp_path(jp_idx(jp_at(sub, "wait_states"), k), "wait_s"));
        if (used < len)
            used += (size_t)snprintf(buf + used, len - used, ")");
    } else {
        used += (size_t)snprintf(buf, len, "%g s elements, %s, %s access",
                                 jp_path(t, "element_time_s"), who,
                                 jp_str(t, "access") ? jp_str(t, "access") : "–");
    }
    if (used < len)
        snprintf(buf + used, len - used, ", definition %s", slash ? slash + 1 : def ? def : "–");
}

static void suite_sections(struct ctx *c)
{
    /* every test name, in the order first seen */
    char names[32][32];
    size_t nn = 0;
    for (size_t i = 0; i < c->n; i++) {
        size_t nt = jlen_at(c->in[i].doc, "tests");
        for (size_t k = 0; k < nt && nn < 32; k++) {
            const char *tn = jp_str(jp_idx(jp_at(c->in[i].doc, "tests"), k), "name");
            bool seen = false;
            for (size_t q = 0; tn && q < nn; q++)
                seen = seen || !strcmp(names[q], tn);
            if (tn && !seen)
                str_copy(names[nn++], sizeof(names[0]), tn);
        }
    }
    for (size_t k = 0; k < nn; k++) {
        const char *title = NULL;
        struct json_object *any = NULL;
        for (size_t i = 0; i < c->n && !any; i++)
            any = find_test(c->in[i].doc, names[k]);
        title = any ? jp_str(any, "title") : NULL;
        char h[160], id[48];
        snprintf(h, sizeof(h), "%s", title ? title : names[k]);
        snprintf(id, sizeof(id), "test-%s", names[k]);
        o_heading(&c->o, 2, id, h);
        if (any) {
            char params[1024];
            test_params_words(any, params, sizeof(params));
            o_para(&c->o, "Test parameters: %s.", params);
        }
        const char *n = names[k];
        steady_table(c, n);
        for (size_t i = 0; i < c->n; i++) {   /* how the drive was prepared, per device */
            struct json_object *sub = jp_at(find_test(c->in[i].doc, n), "subtests.0");
            char prep[512];
            if (!sub)
                continue;
            suite_prep_words(plot_test_presentation(find_test(c->in[i].doc, n)), sub, prep,
                             sizeof(prep));
            /* the drive's state as the test ended (results that record it per element) */
            struct json_object *st = jp_get(sub, "state");
            size_t nr = jlen_at(sub, "rounds");
            if (!st && nr)
                st = jp_at(jp_idx(jp_arr(sub, "rounds"), nr - 1), "elements.0.state");
            char sw[160];
            state_words(st, simulated(&c->in[i]), doc_no_ftl(c->in[i].doc), sw, sizeof(sw));
            o_para(&c->o, "%s: drive preparation: %s%s%s.", dev(c, i), prep,
                   sw[0] ? "; drive state at the last round: " : "", sw);
            char health[512];   /* the drive's own counters over the test (device/health.h) */
            health_summary(jp_obj_at(find_test(c->in[i].doc, n), "health"), health,
                           sizeof(health));
            if (health[0])
                o_para(&c->o, "%s: %s.", dev(c, i), health);
        }
        enum pts_report p = plot_test_presentation(any);
        if (report_presentation_has_section(p))
            pts_sections[p](c, n);
        charts_for(c, n);
    }
}

/* ---- profiles */

/* How each group prepared the drive, and why a point is not steady state. */
static void profile_prep(struct ctx *c, size_t i)
{
    struct json_object *doc = c->in[i].doc;
    if (!jp_get(doc, "preconditioning"))
        return;   /* older results: the "Measured" column says it */
    for (size_t k = 0; k < jlen_at(doc, "groups"); k++) {
        struct json_object *g = jp_idx(jp_arr(doc, "groups"), k);
        char words[1024];
        group_prep_words(g, words, sizeof(words));
        char health[512];   /* the drive's own counters over the group (device/health.h) */
        health_summary(jp_obj_at(g, "health"), health, sizeof(health));
        o_para(&c->o, "%s, %s at %.0f%% compressible data: drive preparation: %s.%s%s", dev(c, i),
               jp_str(g, "workload") ? jp_str(g, "workload") : "?", jp_num(g, "compress_pct"),
               words, health[0] ? " " : "", health);
    }
    /* the points of a profile that share the same state in words say it once ("all 30 atto
     * points: ..."); a point of its own wording is named */
    size_t np = jlen_at(doc, "points");
    for (size_t k = 0; k < np; k++) {
        struct json_object *p = jp_idx(jp_arr(doc, "points"), k);
        const char *reason = jp_str(p, "result.reason");
        if (!reason || !*reason || jp_true(jp_at(p, "result.steady")))
            continue;
        const char *label = jp_str(p, "result.label") ? jp_str(p, "result.label") : "not stable";
        size_t same = 0, of = 0;
        bool earlier = false;
        for (size_t q = 0; q < np; q++) {
            struct json_object *o = jp_idx(jp_arr(doc, "points"), q);
            if (strcmp(sv(o, "profile"), sv(p, "profile")) != 0)
                continue;
            of++;
            const char *r2 = jp_str(o, "result.reason");
            const char *l2 = jp_str(o, "result.label") ? jp_str(o, "result.label") : "not stable";
            if (r2 && !strcmp(r2, reason) && !strcmp(l2, label) &&
                !jp_true(jp_at(o, "result.steady"))) {
                same++;
                earlier = earlier || q < k;
            }
        }
        if (earlier)
            continue;   /* said with the first of them */
        if (same > 1) {
            char cnt[64];
            if (same == of)
                snprintf(cnt, sizeof(cnt), "all %zu", same);
            else
                snprintf(cnt, sizeof(cnt), "%zu of the %zu", same, of);
            o_para(&c->o, "%s, %s %s points: %s, not SNIA steady state: %s.", dev(c, i), cnt,
                   sv(p, "profile"), label, reason);
        } else
            o_para(&c->o, "%s, %s with %.0f worker%s × QD %.0f: %s, not SNIA steady state: %s.",
                   dev(c, i), jp_str(p, "workload") ? jp_str(p, "workload") : "?",
                   jp_num(p, "workers"), jp_num(p, "workers") == 1 ? "" : "s", jp_num(p, "qd"),
                   label, reason);
    }
}

/* Input i's profile points: one row each. */
static void profile_points_table(struct ctx *c, size_t i)
{
    struct json_object *doc = c->in[i].doc;
    /* results with the drive's state (drive_state.h) get its column */
    bool states = false;
    for (size_t k = 0; k < jlen_at(doc, "points"); k++)
        states = states || jp_get(jp_idx(jp_arr(doc, "points"), k), "state");
    char ih[48];
    const char *head[] = {"Profile", "Workload", "Data", "Workers", "QD", "Eff. QD",
                          fig_head(&c->in[i], "IOPS", ih, sizeof(ih)), "MB/s",
                          "Mean latency", "p99", "Measured", "Drive state"};
    /* a profile of one workload by its name: one column, not the same word twice */
    bool same = true;
    for (size_t k = 0; k < jlen_at(doc, "points"); k++) {
        struct json_object *p = jp_idx(jp_arr(doc, "points"), k);
        same = same && !strcmp(sv(p, "profile"), sv(p, "workload"));
    }
    const size_t skip = same ? 1 : 0;   /* the Profile column left out */
    struct table tb;
    t_init(&tb, (unsigned)((states ? 12 : 11) - skip), head + skip);
    size_t np = jlen_at(doc, "points");
    for (size_t k = 0; k < np; k++) {
        struct json_object *p = jp_idx(jp_at(doc, "points"), k);
        if (!jp_at(p, "result"))
            continue;
        char d[16], w[16], q[16], e[16], iops[32], mb[32], mean[32], p99[32], how[160];
        char state[160];
        snprintf(d, sizeof(d), "%.0f%%", jp_path(p, "compress_pct"));
        snprintf(w, sizeof(w), "%.0f", jp_path(p, "workers"));
        snprintf(q, sizeof(q), "%.0f", jp_path(p, "qd"));
        snprintf(e, sizeof(e), "%.0f", jp_path(p, "effective_qd"));
        report_fmt_count(jp_path(p, "result.total.iops"), iops, sizeof(iops));
        fmt_fig(jp_path(p, "result.total.mb_s"), UNITS_FIG_MBS, mb, sizeof(mb));
        units_format_lat(jp_path(p, "result.total.lat_us.mean"), UNITS_TYPESET, mean, sizeof(mean));
        words_pct_lat(jp_obj_at(p, "result.total.lat_us"), "99", UNITS_TYPESET, p99, sizeof(p99));
        const char *measure = jp_str(p, "measure");
        const char *label = jp_str(p, "result.label");
        state_words(jp_get(p, "state"), simulated(&c->in[i]), doc_no_ftl(c->in[i].doc), state,
                    sizeof(state));
        if (label)   /* what the window may be called (drive_state.h) */
            snprintf(how, sizeof(how), "%s, rounds %.0f–%.0f", label,
                     jp_path(p, "result.rounds.0"), jp_path(p, "result.rounds.1"));
        else if (measure && !strcmp(measure, "steady"))
            snprintf(how, sizeof(how), "%s, rounds %.0f–%.0f",
                     jp_true(jp_at(p, "result.steady")) ? "steady state"
                                                                      : "NOT steady",
                     jp_path(p, "result.rounds.0"), jp_path(p, "result.rounds.1"));
        else
            snprintf(how, sizeof(how), "%s, %.0f round(s)",
                     jp_str(p, "precondition") ? jp_str(p, "precondition") : "",
                     jp_path(p, "result.rounds.1"));
        const char *cp[] = {jp_str(p, "profile"), jp_str(p, "workload"), d, w, q, e, iops, mb,
                            mean, p99, how, state};
        t_row(&tb, cp + skip);
    }
    o_para(&c->o, "%s — every point (effective QD = workers × QD; data = compressibility of "
                  "the data written%s):", dev(c, i),
           simulated(&c->in[i]) ? "; simulated drive: virtual time" : "");
    t_emit(&c->o, &tb);
}

/* Input i's points with incompressible and with 90% compressible data side by side. */
static void profile_compress_table(struct ctx *c, size_t i)
{
    struct json_object *doc = c->in[i].doc;
    size_t np = jlen_at(doc, "points");
    /* 0% vs 90%, as the review compares them: one table */
    char zh[48], nh[48];
    const char *rh[] = {"Workload", "Workers × QD",
                        fig_head(&c->in[i], "IOPS, incompressible", zh, sizeof(zh)),
                        fig_head(&c->in[i], "IOPS, 90% compressible", nh, sizeof(nh)),
                        "90% / incompressible"};
    struct table rt;
    t_init(&rt, 5, rh);
    for (size_t k = 0; k < np; k++) {
        struct json_object *a = jp_idx(jp_at(doc, "points"), k);
        if (jp_path(a, "compress_pct") != 0 || !jp_at(a, "result"))
            continue;
        for (size_t m = 0; m < np; m++) {
            struct json_object *b = jp_idx(jp_at(doc, "points"), m);
            if (jp_path(b, "compress_pct") != 90 || !jp_at(b, "result") ||
                jp_path(b, "workers") != jp_path(a, "workers") || jp_path(b, "qd") != jp_path(a, "qd") ||
                strcmp(sv(b, "workload"), sv(a, "workload")) != 0)
                continue;
            char x[32], y[32], wq[32], ratio[32];
            report_fmt_count(jp_path(a, "result.total.iops"), x, sizeof(x));
            report_fmt_count(jp_path(b, "result.total.iops"), y, sizeof(y));
            snprintf(wq, sizeof(wq), "%.0f × %.0f", jp_path(a, "workers"), jp_path(a, "qd"));
            snprintf(ratio, sizeof(ratio), "%.2f×",
                     jp_path(b, "result.total.iops") / jp_path(a, "result.total.iops"));
            const char *rc[] = {sv(a, "workload"), wq, x, y, ratio};
            t_row(&rt, rc);
        }
    }
    if (rt.nrows) {
        o_para(&c->o, "%s — IOPS with incompressible and with 90%% compressible data, same "
                      "workload and outstanding I/O:", dev(c, i));
        t_emit(&c->o, &rt);
    } else {
        t_free(&rt);
    }
}

/* Input i's saturation points (QD ramps): a table, and a sentence each. */
static void profile_saturation(struct ctx *c, size_t i)
{
    struct json_object *doc = c->in[i].doc;
    size_t ns = jlen_at(doc, "saturation");
    if (ns) {
        char mh[48];
        const char *sh[] = {"Workload", "Data", "Workers",
                            fig_head(&c->in[i], "Max IOPS", mh, sizeof(mh)), "at eff. QD",
                            "Saturation eff. QD", "IOPS there", "Mean latency there"};
        struct table st;
        t_init(&st, 8, sh);
        for (size_t k = 0; k < ns; k++) {
            struct json_object *s = jp_idx(jp_at(doc, "saturation"), k);
            char d[16], w[16], mx[32], mq[16], sq[16], si[32], sl[32];
            snprintf(d, sizeof(d), "%.0f%%", jp_path(s, "compress_pct"));
            snprintf(w, sizeof(w), "%.0f", jp_path(s, "workers"));
            report_fmt_count(jp_path(s, "max_iops"), mx, sizeof(mx));
            snprintf(mq, sizeof(mq), "%.0f", jp_path(s, "max_iops_effective_qd"));
            snprintf(sq, sizeof(sq), "%.0f", jp_path(s, "effective_qd"));
            report_fmt_count(jp_path(s, "iops"), si, sizeof(si));
            units_format_lat(jp_path(s, "lat_mean_us"), UNITS_TYPESET, sl, sizeof(sl));
            const char *cp[] = {jp_str(s, "workload"), d, w, mx, mq, sq, si, sl};
            t_row(&st, cp);
            o_para(&c->o, "%s, %s: IOPS reach 95%% of their maximum (%s) at an effective "
                          "queue depth of %s, with %s mean latency there.",
                   dev(c, i), sv(s, "workload"), mx, sq, sl);
        }
        t_emit(&c->o, &st);
    }
}

static void profile_sections(struct ctx *c)
{
    o_heading(&c->o, 2, "profiles", "Workload profiles");
    for (size_t i = 0; i < c->n; i++) {
        if (strcmp(schema_of(&c->in[i]), "ptsbench.profile") != 0)
            continue;
        profile_points_table(c, i);
        profile_prep(c, i);
        profile_compress_table(c, i);
        profile_saturation(c, i);
    }
    charts_for(c, "profile");
    charts_for(c, "qd-ramp");
}

/* ---- runs */

/* The verdict in words, from the label and the reason (drive_state.h): "stable
 * (fresh-out-of-box / burst) at rounds 1–5, not SNIA steady state: no preconditioning ...",
 * and the fill guard's; results without a label: the old sentence alone (returns true: nothing
 * follows it). spec names what was measured (the workload, or a group of jobs). */
static bool run_verdict_sentence(struct ctx *c, size_t i, const char *spec,
                                 struct json_object *ss, size_t nr)
{
    const char *label = jp_str(ss, "label"), *reason = jp_str(ss, "reason");
    char tracking[128];
    report_words_tracking_of(ss, tracking, sizeof(tracking));
    bool reached = jp_true(jp_at(ss, "reached"));
    char avg[32];
    fmt_fig(jp_path(ss, "window.average"), tracking_figure_kind(ss), avg,
            sizeof(avg));
    if (!label) {
        if (ss && reached)
            o_para(&c->o, "%s, %s: steady state at round %.0f (rounds %.0f–%.0f), %s average %s.",
                   dev(c, i), spec ? spec : "", jp_path(ss, "round"),
                   jp_path(ss, "window.first_round"), jp_path(ss, "window.last_round"), tracking,
                   avg);
        else
            o_para(&c->o, "%s, %s: steady state not reached in %zu rounds.", dev(c, i),
                   spec ? spec : "", nr);
        return true;
    }
    char why[512] = "";
    if (!reached)
        snprintf(why, sizeof(why), ", not SNIA steady state%s%s", reason && *reason ? ": " : "",
                 reason && *reason ? reason : "");
    if (jp_true(jp_at(ss, "stable")) && jp_at(ss, "window.first_round"))
        o_para(&c->o, "%s, %s: %s at rounds %.0f–%.0f%s. Window average: %s %s.", dev(c, i),
               spec ? spec : "", label, jp_path(ss, "window.first_round"),
               jp_path(ss, "window.last_round"), why, tracking, avg);
    else
        o_para(&c->o, "%s, %s: %s in %.0f measured rounds%s.", dev(c, i), spec ? spec : "",
               label, jp_path(ss, "rounds_run"), why);
    struct json_object *g = jp_get(ss, "guard");
    if (jp_true(jp_get(g, "evaluated")))
        o_para(&c->o, "Fill guard: the workload wrote %.2f fills of the active range before the "
                      "window (at least %g needed); from round %.0f to %.0f every 5-round average "
                      "stayed within %.1f%% of the window's average (%g%% allowed): %s.",
               jp_num(g, "fills_before_window"), jp_num(g, "lag_fills"),
               jp_num(g, "span_first_round"), jp_num(g, "span_last_round"),
               jp_num(g, "max_deviation_pct"), jp_num(g, "band_pct"),
               jp_true(jp_get(g, "passed")) ? "passed" : "failed");
    else if (g)
        o_para(&c->o, "Fill guard: not evaluated (the workload wrote %.2f fills of the active "
                      "range before the window, %g needed).", jp_num(g, "fills_before_window"),
               jp_num(g, "lag_fills"));
    if (jp_str(g, "lag_basis"))   /* after a fast pass (steady.h) */
        o_para(&c->o, "The guard's lag: %s.", jp_str(g, "lag_basis"));
    return false;
}

/* A run of several jobs (read/jobs.h): each group's verdict over its own rounds, named by its
 * jobs; never the run's as one steady state over every job. */
static void run_group_verdicts(struct ctx *c, size_t i)
{
    struct json_object *doc = c->in[i].doc;
    for (unsigned g = 0; g < read_run_n_groups(doc); g++) {
        struct read_group gr;
        if (!read_run_group(doc, g, &gr))
            continue;
        char words[512];
        int n = snprintf(words, sizeof(words), "group %u of %u (", gr.group,
                         read_run_n_groups(doc));
        for (size_t j = 0; j < jp_len(gr.labels) && n > 0 && (size_t)n < sizeof(words); j++)
            n += snprintf(words + n, sizeof(words) - (size_t)n, "%s%s", j ? ", " : "",
                          json_object_get_string(jp_idx(gr.labels, j)));
        if (n > 0 && (size_t)n < sizeof(words))
            snprintf(words + n, sizeof(words) - (size_t)n, "%s",
                     jp_len(gr.labels) > 1 ? ", at once)" : ")");
        if (!gr.first_round)
            o_para(&c->o, "%s, %s: not run.", dev(c, i), words);
        else
            run_verdict_sentence(c, i, words, gr.steady, gr.last_round - gr.first_round + 1);
    }
}

static void run_verdict(struct ctx *c, size_t i)
{
    struct json_object *doc = c->in[i].doc;
    if (read_run_multi(doc))
        run_group_verdicts(c, i);
    else if (run_verdict_sentence(c, i, jp_str(doc, "workload.spec"),
                                  jp_at(doc, "steady_state"), jlen_at(doc, "rounds")))
        return;
    char prep[1024], st[160];
    run_prep_words(doc, prep, sizeof(prep));
    state_words(jp_get(doc, "state"), simulated(&c->in[i]), doc_no_ftl(c->in[i].doc), st,
                sizeof(st));
    if (prep[0])
        o_para(&c->o, "Drive preparation: %s%s%s.", prep, st[0] ? "; drive state at the end: " : "",
               st);
    struct json_object *lw = jp_get(doc, "last_window"), *ss = jp_at(doc, "steady_state");
    if (jp_at(lw, "window.first_round") && !read_run_multi(doc)) {   /* one group's: above */
        char la[32], tracking[128];
        report_words_tracking_of(ss, tracking, sizeof(tracking));
        fmt_fig(jp_path(lw, "window.average"), tracking_figure_kind(ss), la,
                sizeof(la));
        o_para(&c->o, "Last rounds %.0f–%.0f (the run went on past its first window): %s, %s "
                      "average %s%s.", jp_path(lw, "window.first_round"),
               jp_path(lw, "window.last_round"),
               jp_str(lw, "label") ? jp_str(lw, "label") : "–", tracking, la,
               simulated(&c->in[i]) ? " (simulated drive)" : "");
    }
}

/* Whether round n is in the window at path ("steady_state.window", "last_window.window"). */
static bool in_window_at(struct json_object *doc, const char *path, double n)
{
    struct json_object *w = jp_at(doc, path);
    return w && n >= jp_num(w, "first_round") && n <= jp_num(w, "last_round");
}

/* A round's state cell: "WDPC (preconditioning, not judged): WIPC 2.0× + WDPC 0.06 fills",
 * "measured, window: ...". */
static void round_state(struct ctx *c, size_t i, struct json_object *r, char *buf, size_t len)
{
    char st[160];
    state_words(jp_get(r, "state"), simulated(&c->in[i]), doc_no_ftl(c->in[i].doc), st,
                sizeof(st));
    const double n = jp_num(r, "round");
    const bool in_window = in_window_at(c->in[i].doc, "steady_state.window", n);
    const bool in_last = in_window_at(c->in[i].doc, "last_window.window", n);
    if (plot_round_is_wdpc(r))
        snprintf(buf, len, "WDPC (preconditioning, not judged): %s", st);
    else
        snprintf(buf, len, "%s%s%s", in_window ? "window" : in_last ? "last window" : "measured",
                 st[0] ? ": " : "", st);
}

/* The drive's own write amplification over the run (device/health.h), beside the simulator's
 * per-round figure in the table's WA column when there is one. */
static void run_health(struct ctx *c, size_t i)
{
    char line[512], wa[16];
    if (health_warning_summary(jp_obj_at(c->in[i].doc, "health"), jp_arr(c->in[i].doc, "rounds"),
                               line, sizeof(line)))
        o_para(&c->o, "%s.", line);
    health_summary(jp_obj_at(c->in[i].doc, "health"), line, sizeof(line));
    if (!line[0])
        return;
    struct json_object *rounds = jp_arr(c->in[i].doc, "rounds");
    struct json_object *last = jp_idx(rounds, jp_len(rounds) ? jp_len(rounds) - 1 : 0);
    double sim_wa = jp_path(last, "device.write_amplification");
    if (isfinite(sim_wa)) {
        fmt_fig(sim_wa, UNITS_FIG_WAF, wa, sizeof(wa));
        o_para(&c->o, "%s. The simulator's own figure per round is the WA column (last round: "
               "%s).", line, wa);
    } else {
        o_para(&c->o, "%s.", line);
    }
}

/* A run that issued trims: each point's trim figures, averaged over the rounds its other
 * figures are (measure.h: the window, else every round), in a table of its own beside the
 * rounds' Trim IOPS column. Nothing for a run without trims. */
static void run_trims(struct ctx *c, size_t i)
{
    const struct meas_set *ms = c->meas[i];
    if (!ms || !read_has_trim(c->in[i].doc))
        return;
    const char *head[] = {"Point", "Rounds", "Trim IOPS", "Trim MB/s", "Trim mean latency"};
    struct table tb;
    t_init(&tb, 5, head);
    for (size_t k = 0; k < ms->n; k++) {
        const struct meas_point *p = &ms->p[k];
        if (!meas_point_has_trim(p))
            continue;
        char n[16], io[32], mb[32], lat[32];
        snprintf(n, sizeof(n), "%u", p->rounds);
        report_fmt_count(p->v[MEAS_TRIM_IOPS], io, sizeof(io));
        fmt_fig(p->v[MEAS_TRIM_MB_S], UNITS_FIG_MBS, mb, sizeof(mb));
        units_format_lat(p->v[MEAS_TRIM_LAT_MEAN_US], UNITS_TYPESET, lat, sizeof(lat));
        const char *row[] = {p->label, n, io, mb, lat};
        t_row(&tb, row);
    }
    if (!tb.nrows) {
        t_free(&tb);
        return;
    }
    o_para(&c->o, "%s — trims (averaged over the same rounds as the run's other figures%s):",
           dev(c, i), simulated(&c->in[i]) ? "; simulated drive: virtual time" : "");
    t_emit(&c->o, &tb);
}

/* Temperature and throttling per round (rounds[].thermal, core/thermal_rounds.h): the highest
 * temperature and the rounds during which the drive throttled, in one sentence. */
static void run_thermal(struct ctx *c, size_t i)
{
    struct json_object *rounds = jp_arr(c->in[i].doc, "rounds");
    double hot = NAN;
    char list[256] = "", t[32];
    const char *src = NULL;
    bool known = false;   /* a round says whether it throttled (counters read) */
    for (size_t k = 0; k < jp_len(rounds); k++) {
        struct json_object *r = jp_idx(rounds, k), *th = jp_at(r, "thermal.throttled");
        double v = jp_path(r, "thermal.temperature_c");
        if (isfinite(v) && !(v <= hot)) {
            hot = v;
            src = jp_str(jp_get(r, "thermal"), "source");
        }
        known = known || th;
        if (th && json_object_get_boolean(th) && strlen(list) + 8 < sizeof(list))
            snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%.0f", *list ? ", " : "",
                     jp_path(r, "round"));
    }
    if (!isfinite(hot))
        return;
    fmt_fig(hot, UNITS_FIG_VALUE, t, sizeof(t));
    o_para(&c->o, "Temperature: at most %s °C at a round's end (%s). %s%s%s", t, src ? src : "?",
           *list  ? "The drive throttled during rounds "
           : known ? "No round throttled."
                   : "Throttling: not reported (no thermal-management counters read).",
           list, *list ? ": their figures are the throttled drive's, not its unthrottled rate." : "");
}

/* A run's rounds table's cells (9: round ... drive state) into out, a trim column after the
 * write IOPS when the run issued trims (read_has_trim); returns how many (the drive state last). */
static unsigned run_cells(const char *const cells[9], bool trim, const char *trim_cell,
                          const char *out[10])
{
    unsigned n = 0;
    for (unsigned k = 0; k < 9; k++) {
        out[n++] = cells[k];
        if (k == 3 && trim)
            out[n++] = trim_cell;
    }
    return n;
}

/* A run's round as a row of its tables (trim: with the trim column). */
static void run_round_row(struct ctx *c, size_t i, struct json_object *r, bool trim,
                          struct table *tb)
{
    char c0[48], c1[32], c2[32], c3[32], c4[32], c5[32], c6[32], c7[16], c8[256], ct[32];
    if (jp_at(r, "group"))   /* a run of several jobs: the group's figures (read/jobs.h) */
        snprintf(c0, sizeof(c0), "%.0f (group %.0f)", jp_path(r, "round"), jp_path(r, "group"));
    else
        snprintf(c0, sizeof(c0), "%.0f", jp_path(r, "round"));
    report_fmt_count(jp_path(r, "total.iops"), c1, sizeof(c1));
    report_fmt_count(jp_path(r, "read.iops"), c2, sizeof(c2));
    report_fmt_count(jp_path(r, "write.iops"), c3, sizeof(c3));
    report_fmt_count(jp_path(r, "trim.iops"), ct, sizeof(ct));
    fmt_fig(jp_path(r, "total.mb_s"), UNITS_FIG_MBS, c4, sizeof(c4));
    units_format_lat(jp_path(r, "total.lat_us.mean"), UNITS_TYPESET, c5, sizeof(c5));
    words_pct_lat(jp_obj_at(r, "total.lat_us"), "99.9", UNITS_TYPESET, c6, sizeof(c6));
    fmt_fig(jp_path(r, "device.write_amplification"), UNITS_FIG_WAF, c7, sizeof(c7));
    round_state(c, i, r, c8, sizeof(c8));
    const char *cp[] = {c0, c1, c2, c3, c4, c5, c6, c7, c8}, *row[10];
    run_cells(cp, trim, ct, row);
    t_row(tb, row);
}

/* Past this many rounds the body shows an excerpt (run_excerpt_step) and every round follows,
 * collapsed. */
#define RUN_ROUNDS_WHOLE 30

/* The excerpt's step: the first of 2, 5, 10, 20, 25, 50, 100, ... that shows at most 20
 * rounds of n. */
static unsigned run_excerpt_step(size_t n)
{
    static const unsigned steps[] = {2, 5, 10, 20, 25, 50};
    for (unsigned scale = 1;; scale *= 10)
        for (size_t k = 0; k < sizeof(steps) / sizeof(steps[0]); k++)
            if (n <= 20u * steps[k] * scale)
                return steps[k] * scale;
}

/* A run's rounds: every one when they are few; else the excerpt (every step-th round, the
 * first and the last, and the rounds of its windows) and every round in a collapsed block
 * (HTML <details>; the Markdown twin the same, as GitHub renders it). */
static void run_rounds_tables(struct ctx *c, size_t i)
{
    struct json_object *doc = c->in[i].doc, *rounds = jp_at(doc, "rounds");
    const size_t nr = jlen_at(doc, "rounds");
    const bool states = jp_get(jp_idx(rounds, 0), "state") != NULL;
    const bool trim = read_has_trim(doc);   /* a trim column only when trims were issued */
    char ih[48];
    const char *h9[] = {"Round", fig_head(&c->in[i], "IOPS", ih, sizeof(ih)), "Read IOPS",
                        "Write IOPS", "MB/s", "Mean latency", "p99.9", "WA", "Drive state"};
    const char *head[10];
    const unsigned ncol = run_cells(h9, trim, "Trim IOPS", head) - (states ? 0 : 1);
    const char *virt = simulated(&c->in[i]) ? " (simulated drive: virtual time)" : "";
    struct table tb;
    t_init(&tb, ncol, head);
    if (nr <= RUN_ROUNDS_WHOLE) {
        for (size_t k = 0; k < nr; k++)
            run_round_row(c, i, jp_idx(rounds, k), trim, &tb);
        if (virt[0])
            o_para(&c->o, "%s — every round%s:", dev(c, i), virt);
        t_emit(&c->o, &tb);
        return;
    }
    const unsigned step = run_excerpt_step(nr);
    for (size_t k = 0; k < nr; k++) {
        struct json_object *r = jp_idx(rounds, k);
        const double n = jp_path(r, "round");
        if (k == 0 || k + 1 == nr || (long)n % (long)step == 0 ||
            in_window_at(doc, "steady_state.window", n) || in_window_at(doc, "last_window.window", n))
            run_round_row(c, i, r, trim, &tb);
    }
    o_para(&c->o, "%s — %u of its %zu rounds%s: every %u%s round, the first and the last, and "
                  "the rounds of its windows; every round below (collapsed) and in ptsbench "
                  "export:", dev(c, i), tb.nrows, nr, virt, step,
           step % 10 == 1 && step % 100 != 11 ? "st" : step % 10 == 2 && step % 100 != 12 ? "nd"
                                                                                          : "th");
    t_emit(&c->o, &tb);
    t_init(&tb, ncol, head);
    for (size_t k = 0; k < nr; k++)
        run_round_row(c, i, jp_idx(rounds, k), trim, &tb);
    fputs("<details><summary>Every round of ", c->o.h);
    h_esc(c->o.h, dev(c, i));
    fprintf(c->o.h, " (%zu)</summary>\n", nr);
    fputs("<details><summary>Every round of ", c->o.m);
    m_esc(c->o.m, dev(c, i), false);
    fprintf(c->o.m, " (%zu)</summary>\n\n", nr);
    t_emit(&c->o, &tb);
    fputs("</details>\n", c->o.h);
    fputs("</details>\n\n", c->o.m);
}

static void run_sections(struct ctx *c)
{
    o_heading(&c->o, 2, "runs", "Runs");
    for (size_t i = 0; i < c->n; i++) {
        if (strcmp(schema_of(&c->in[i]), "ptsbench.run") != 0)
            continue;
        run_verdict(c, i);
        run_steady_table(c, i);
        run_rounds_tables(c, i);
        run_trims(c, i);
        run_health(c, i);
        run_thermal(c, i);
    }
    charts_for(c, "run");
}

/* Used only when reports/report.css cannot be found (the report is still readable). */
static const char *const css_fallback =
    "body{font-family:sans-serif;max-width:1100px;margin:auto}\n"
    ".tw{overflow-x:auto}td.n,.nw{white-space:nowrap}td.n{text-align:right}\n"
    "@media print{@page{size:A4;margin:14mm 12mm;@top-left{font:7.5pt sans-serif;color:#555}"
    "@top-right{font:7.5pt sans-serif;color:#555}@bottom-right{content:\"page \" counter(page) \" of \" counter(pages);font:7.5pt sans-serif}}"
    "figure{break-inside:avoid}}\n";

/* The tests a document holds, for the printed page header: a suite's test names, a profile's
 * profile names, "run" for a run; appended to buf, each once, ", "-separated. */
static void header_tests(struct json_object *doc, char *buf, size_t len)
{
    const char *schema = jp_str(doc, "schema");
    struct json_object *list = NULL;
    if (schema && !strcmp(schema, "ptsbench.suite"))
        list = jp_at(doc, "tests");
    else if (schema && !strcmp(schema, "ptsbench.profile"))
        list = jp_at(doc, "config.profiles");
    size_t nt = list ? jp_len(list) : 1;
    for (size_t k = 0; k < nt; k++) {
        const char *name = list ? jp_str(jp_idx(list, k), "name") : "run";
        if (!name)
            continue;
        /* already there as a whole item? */
        bool seen = false;
        size_t nl = strlen(name);
        for (const char *h = strstr(buf, name); h && !seen; h = strstr(h + 1, name))
            seen = (h == buf || (h >= buf + 2 && h[-2] == ',')) && (h[nl] == ',' || !h[nl]);
        size_t used = strlen(buf);
        if (!seen)
            snprintf(buf + used, len - used, "%s%s", used ? ", " : "", name);
    }
}

/* The style sheet's text, inlined into the HTML: cfg->css_path, else the fallback. */
static char *load_css(const char *path)
{
    FILE *f = path ? fopen(path, "r") : NULL;
    if (!f)
        return xstrdup(css_fallback);
    size_t cap = 4096, n = 0;
    char *buf = xcalloc(1, cap);
    size_t got;
    while ((got = fread(buf + n, 1, cap - n - 1, f)) > 0) {
        n += got;
        if (n + 1 == cap) {
            cap *= 2;
            buf = xrealloc(buf, cap);
        }
    }
    buf[n] = '\0';
    fclose(f);
    if (strstr(buf, "</style") || strstr(buf, "url(") || strstr(buf, "@import")) {
        free(buf);   /* nothing that leaves the file or ends the style element */
        return xstrdup(css_fallback);
    }
    return buf;
}

int report_load(const char *arg, struct json_object **doc, char *path, size_t len, char *err,
                size_t errlen)
{
    return read_load(arg, READ_RESULTS, READ_VOICE_REPORT, doc, path, len, err, errlen);
}

/* The charts of the inputs, into OUT/plots (none with --no-plots); c->plots lists them. */
static int report_plots(struct ctx *c, const struct report_config *cfg, char *err, size_t errlen)
{
    if (cfg->no_plots)
        return 0;
    char pdir[4200];
    snprintf(pdir, sizeof(pdir), "%s/plots", cfg->out_dir);
    struct plot_input *pin = xcalloc(c->n, sizeof(*pin));
    for (size_t i = 0; i < c->n; i++) {
        pin[i].doc = c->in[i].doc;
        pin[i].label = device_label(&c->in[i]);
    }
    int rc = plot_all(pin, c->n, pdir, &c->plots, err, errlen);
    free(pin);
    return rc;
}

static void report_ctx_free(struct ctx *c)
{
    plot_list_free(&c->plots);
    free(c->plot_used);
    free(c->names);
}

/* The report's title: the configured one, else "ptsbench report: " and each device with its
 * state ("zdrive-r4-cm88-1.6t (simulated, burst, not preconditioned) vs ..."). */
static void report_title(const struct report_input *in, size_t n,
                         const struct report_config *cfg, char *title, size_t len)
{
    if (cfg->title) {
        str_copy(title, len, cfg->title);
        return;
    }
    size_t used = 0;
    used += (size_t)snprintf(title, len, "ptsbench report: ");
    for (size_t i = 0; i < n && used < len; i++) {
        char tag[160], what[200] = "";
        plot_doc_state_tag(in[i].doc, tag, sizeof(tag));
        if (simulated(&in[i]) || tag[0])
            snprintf(what, sizeof(what), " (%s%s%s)", simulated(&in[i]) ? "simulated" : "",
                     simulated(&in[i]) && tag[0] ? ", " : "", tag);
        used += (size_t)snprintf(title + used, len - used, "%s%s%s", i ? " vs " : "",
                                 device_label(&in[i]), what);
    }
}

/* The HTML head (title, style sheet) and the page's header line: the devices (each once) and
 * the tests. */
static void report_page_head(struct ctx *c, const struct report_config *cfg, const char *title,
                             const char *now)
{
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>", c->o.h);
    h_esc(c->o.h, title);
    char *css = load_css(cfg->css_path);
    fprintf(c->o.h, "</title>\n<style>\n%s</style>\n</head>\n<body>\n", css);
    free(css);
    char devs[1024] = "", tests[1024] = "";
    for (size_t i = 0; i < c->n; i++) {
        bool seen = false;   /* a device with several result sets is named once */
        for (size_t j = 0; j < i && !seen; j++)
            seen = !strcmp(c->names[j], c->names[i]);
        size_t used = strlen(devs);
        if (!seen)
            snprintf(devs + used, sizeof(devs) - used, "%s%s", used ? " vs " : "", c->names[i]);
        header_tests(c->in[i].doc, tests, sizeof(tests));
    }
    snprintf(c->o.head_devs, sizeof(c->o.head_devs), "%s", devs);
    snprintf(c->o.head_when, sizeof(c->o.head_when), "%s \u00b7 ptsbench %s", now,
             PTSBENCH_VERSION);
    o_page_head(&c->o, NULL, tests);
}

/* The title, when and from what the report was generated, and the list of result sets. */
static void report_opening(struct ctx *c, const char *title, const char *now)
{
    /* printed, the opening shares the first section's pages (the summary's, s1): a page name
     * that changes forces a page break, which left the first page almost empty */
    fputs("<div style=\"page:s1\">\n<h1>", c->o.h);
    h_esc(c->o.h, title);
    fputs("</h1>\n", c->o.h);
    fputs("# ", c->o.m);
    m_esc(c->o.m, title, false);
    fputs("\n\n", c->o.m);
    o_para(&c->o, "Generated %s by ptsbench %s from %zu result set%s (nothing was re-run).", now,
           PTSBENCH_VERSION, c->n, c->n == 1 ? "" : "s");
    const char **items = xcalloc(c->n, sizeof(char *));
    char (*lines)[4400] = xcalloc(c->n, sizeof(*lines));
    for (size_t i = 0; i < c->n; i++) {
        char src[512];
        source_name(c->in[i].path, src, sizeof(src));
        snprintf(lines[i], sizeof(lines[i]), "%s: %s (%s, %s%s)", device_label(&c->in[i]), src,
                 schema_of(&c->in[i]),
                 jp_str(c->in[i].doc, "status") ? jp_str(c->in[i].doc, "status") : "?",
                 simulated(&c->in[i]) ? ", simulated drive" : "");
        items[i] = lines[i];
    }
    o_list(&c->o, items, c->n);
    free(items);
    free(lines);
}

/* report --db: each point's figure across the results history. */
static void history_section(struct ctx *c, const struct report_config *cfg)
{
    o_heading(&c->o, 2, "history", "History");
    o_para(&c->o, "Each chart: a point of these results across the runs of the same point "
                  "in the results history %s, oldest first; the band is the history's own "
                  "spread before each run (the median of the runs before it, with the larger "
                  "of their window spread and three robust standard deviations), so a run "
                  "outside it is a change the history had not seen.%s", cfg->history_db,
           cfg->n_history ? "" : " No point of these results has earlier runs there.");
    for (size_t i = 0; i < cfg->n_history; i++)
        o_chart(&c->o, &cfg->history[i]);
}

/* The charts no section showed, the units, and the end of the page. */
static void report_closing(struct ctx *c)
{
    bool more = false;
    for (size_t i = 0; i < c->plots.n; i++)
        more = more || !c->plot_used[i];
    if (more) {
        o_heading(&c->o, 2, "charts", "More charts");
        for (size_t i = 0; i < c->plots.n; i++)
            if (!c->plot_used[i])
                o_chart(&c->o, &c->plots.f[i]);
    }
    fprintf(c->o.h, "<p class=\"meta\">Units: IOPS; MB/s = 10<sup>6</sup> bytes/s; latency in µs "
                    "or ms; KiB = 1024 bytes. Charts: PNG shown, SVG linked; their gnuplot "
                    "scripts and data are in plots/.</p>\n");
    o_section_end(&c->o);
    fputs("</body>\n</html>\n", c->o.h);
    fputs("Units: IOPS; MB/s = 10^6 bytes/s; latency in µs or ms; KiB = 1024 bytes. Charts: "
          "PNG shown, SVG linked; their gnuplot scripts and data are in plots/.\n", c->o.m);
}

/* The report's body: every section that applies to the inputs. */
static void report_body(struct ctx *c, const struct report_config *cfg)
{
    claims_prepare(c, cfg);
    summary_section(c);
    claims_section(c);
    header_section(c);
    fleet_section(c, cfg->fleet);
    bool suites = false, profiles = false, runs = false;
    for (size_t i = 0; i < c->n; i++) {
        suites = suites || !strcmp(schema_of(&c->in[i]), "ptsbench.suite");
        profiles = profiles || !strcmp(schema_of(&c->in[i]), "ptsbench.profile");
        runs = runs || !strcmp(schema_of(&c->in[i]), "ptsbench.run");
    }
    if (suites)
        suite_sections(c);
    if (profiles)
        profile_sections(c);
    if (runs)
        run_sections(c);
    if (cfg->history_db)
        history_section(c, cfg);
    report_closing(c);
}

/* An HTML and a Markdown document built in memory (open_memstream). */
struct mem_doc {
    FILE *h, *m;
    char *hbuf, *mbuf;
    size_t hlen, mlen;
};

/* Open both streams: 0, or the errno (nothing left open). */
static int mem_doc_open(struct mem_doc *d)
{
    d->h = open_memstream(&d->hbuf, &d->hlen);
    d->m = open_memstream(&d->mbuf, &d->mlen);
    if (d->h && d->m)
        return 0;
    int e = errno;
    if (d->h)
        fclose(d->h);
    if (d->m)
        fclose(d->m);
    d->h = d->m = NULL;
    return e;
}

/* Close both streams; false when a write or the close failed. */
static bool mem_doc_close(struct mem_doc *d)
{
    bool ok = !ferror(d->h) && !ferror(d->m);
    ok = fclose(d->h) == 0 && ok;
    ok = fclose(d->m) == 0 && ok;
    return ok;
}

static void mem_doc_free(struct mem_doc *d)
{
    free(d->hbuf);
    free(d->mbuf);
}

/* OUT/report.html and OUT/report.md, each the opening (pre) then the body, written
 * atomically (lib/file.h). */
static int report_files(const char *out_dir, const struct mem_doc *pre,
                        const struct mem_doc *body, char *html_path, size_t html_len,
                        char *md_path, size_t md_len, char *err, size_t errlen)
{
    char hp[4200], mp[4200];
    snprintf(hp, sizeof(hp), "%s/report.html", out_dir);
    snprintf(mp, sizeof(mp), "%s/report.md", out_dir);
    const char *hpart[] = {pre->hbuf, body->hbuf}, *mpart[] = {pre->mbuf, body->mbuf};
    const size_t hlens[] = {pre->hlen, body->hlen}, mlens[] = {pre->mlen, body->mlen};
    if (file_write_atomic(hp, hpart, hlens, 2, true, err, errlen) != 0 ||
        file_write_atomic(mp, mpart, mlens, 2, true, err, errlen) != 0)
        return -1;
    if (html_path)
        str_copy(html_path, html_len, hp);
    if (md_path)
        str_copy(md_path, md_len, mp);
    return 0;
}

int report_write(const struct report_input *in, size_t n, const struct report_config *cfg,
                 char *html_path, size_t html_len, char *md_path, size_t md_len, char *err,
                 size_t errlen)
{
    if (!n)
        return errf(err, errlen, "no results to report");
    if (file_mkdir_p(cfg->out_dir, err, errlen) != 0)
        return -1;
    struct ctx c;
    memset(&c, 0, sizeof(c));
    c.in = in;
    c.n = n;
    if (report_plots(&c, cfg, err, errlen) != 0)
        return -1;
    c.plot_used = xcalloc(c.plots.n + 1, sizeof(bool));
    c.names = xcalloc(n, sizeof(*c.names));
    for (size_t i = 0; i < n; i++)
        snprintf(c.names[i], sizeof(c.names[i]), "%s%s", device_label(&in[i]),
                 simulated(&in[i]) ? " (simulated drive)" : "");

    /* both documents are built in memory, the opening and the body apart: the table of
     * contents goes between the two */
    struct mem_doc pre = {0}, body = {0};
    int e = mem_doc_open(&pre);
    if (!e && (e = mem_doc_open(&body)) != 0)
        mem_doc_close(&pre);
    if (e) {
        mem_doc_free(&pre);
        mem_doc_free(&body);
        report_ctx_free(&c);
        return errf(err, errlen, "cannot build the report: %s", strerror(e));
    }
    c.o.out_dir = cfg->out_dir;
    c.o.inline_charts = cfg->single_file;
    char title[512] = "", now[64];
    report_title(in, n, cfg, title, sizeof(title));
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(now, sizeof(now), "%Y-%m-%d %H:%M UTC", &tm);
    c.o.h = pre.h;
    c.o.m = pre.m;
    report_page_head(&c, cfg, title, now);
    report_opening(&c, title, now);
    c.o.h = body.h;
    c.o.m = body.m;
    report_body(&c, cfg);

    bool ok = mem_doc_close(&body);
    toc_write(&c.o, pre.h, pre.m);
    fputs("</div>\n", pre.h);   /* the opening's (report_opening) */
    ok = mem_doc_close(&pre) && ok;
    free(c.o.toc);
    claims_free(&c);
    report_ctx_free(&c);
    int rc = ok ? 0 : errf(err, errlen, "cannot build the report for %s", cfg->out_dir);
    if (rc == 0 && c.o.inline_err[0])
        rc = errf(err, errlen, "%s", c.o.inline_err);
    if (rc == 0)
        rc = report_files(cfg->out_dir, &pre, &body, html_path, html_len, md_path, md_len, err,
                          errlen);
    mem_doc_free(&pre);
    mem_doc_free(&body);
    return rc;
}
