/* db_out.c — the history for people: `db list`, `db show` and `db compare` as text (db_out.h). */
#include "db/db_out.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/units.h"
#include "lib/util.h"
#include "judge/gate.h"

/* Up to width characters of s (the rest cut with "~"). */
static void cell(FILE *f, const char *s, int width)
{
    if ((int)strlen(s) <= width)
        fprintf(f, "%-*s", width, s);
    else
        fprintf(f, "%.*s~", width - 1, s);
}

void db_write_list(FILE *f, const struct db_run *r, size_t n)
{
    fprintf(f, "%-6s %-20s %-8s %-30s %-24s %-10s %6s  %s\n", "id", "started", "kind", "model",
            "firmware", "host", "points", "tags");
    for (size_t i = 0; i < n; i++) {
        const char *kind = strncmp(r[i].doc_schema, "ptsbench.", 9) ? r[i].doc_schema
                                                                     : r[i].doc_schema + 9;
        fprintf(f, "%-6lld ", r[i].id);
        cell(f, *r[i].started ? r[i].started : "-", 20);
        fputc(' ', f);
        cell(f, kind, 8);
        fputc(' ', f);
        cell(f, *r[i].model ? r[i].model : r[i].target_path, 30);
        fputc(' ', f);
        cell(f, *r[i].firmware ? r[i].firmware : "-", 24);
        fputc(' ', f);
        cell(f, *r[i].host ? r[i].host : "-", 10);
        fprintf(f, " %6lld  %s\n", r[i].n_points, *r[i].tags ? r[i].tags : "-");
    }
    fprintf(f, "%zu run%s\n", n, n == 1 ? "" : "s");
}

static void field(FILE *f, const char *name, const char *v)
{
    fprintf(f, "%-17s %s\n", name, v && *v ? v : "-");
}

/* A point's figure in its metric's kind, ± half its window's spread as a percentage. */
static void fig(FILE *f, double v, double spread, enum meas_metric m)
{
    if (!isfinite(v)) {
        fprintf(f, " %20s", "-");
        return;
    }
    char b[96], n[64], p[64];
    units_format_figure(v, metrics_figure_kind(meas_metric_name(m)), n, sizeof(n));
    if (isfinite(spread)) {
        units_format_figure(50 * spread, UNITS_FIG_PCT, p, sizeof(p));
        snprintf(b, sizeof(b), "%s ±%s", n, p);
    } else {
        snprintf(b, sizeof(b), "%s", n);
    }
    fprintf(f, " %*s", isfinite(spread) ? 21 : 20, b);   /* "±" is two bytes, one column */
}

static const enum meas_metric shown[] = {MEAS_IOPS, MEAS_MB_S, MEAS_LAT_MEAN_US, MEAS_LAT_P99_US};

void db_write_show(FILE *f, const struct db_run *r, const struct meas_set *s)
{
    char b[64];
    snprintf(b, sizeof(b), "%lld", r->id);
    field(f, "run", b);
    field(f, "kind", r->doc_schema);
    field(f, "status", r->status);
    field(f, "started", r->started);
    field(f, "finished", r->finished);
    field(f, "host", r->host);
    field(f, "kernel", r->kernel);
    field(f, "cpu", r->cpu_model);
    field(f, "target", r->target_path);
    field(f, "model", r->model);
    field(f, "serial", r->serial);
    field(f, "firmware", r->firmware);
    if (r->capacity_bytes >= 0)
        units_format_capacity((uint64_t)r->capacity_bytes, b, sizeof(b));
    field(f, "capacity", r->capacity_bytes >= 0 ? b : NULL);
    field(f, "engine", r->engine);
    field(f, "versions", r->versions);
    field(f, "ptsbench", r->ptsbench_version);
    field(f, "spec", r->spec);
    field(f, "preconditioning", r->precondition);
    field(f, "command", r->command_line);
    field(f, "source", r->source);
    field(f, "imported", r->imported);
    field(f, "tags", r->tags);
    fprintf(f, "\n%-52s %-7s %6s", "point", "state", "rounds");
    for (size_t k = 0; k < sizeof(shown) / sizeof(shown[0]); k++)
        fprintf(f, " %20s", meas_metric_name(shown[k]));
    fputc('\n', f);
    for (size_t i = 0; i < s->n; i++) {
        const struct meas_point *p = &s->p[i];
        cell(f, p->label, 52);
        fprintf(f, " %-7s %6u", meas_point_state_name(p), p->rounds);
        for (size_t k = 0; k < sizeof(shown) / sizeof(shown[0]); k++)
            fig(f, p->v[shown[k]], p->spread[shown[k]], shown[k]);
        fputc('\n', f);
    }
    fprintf(f, "%zu point%s (± half the window's range over its mean)\n", s->n,
            s->n == 1 ? "" : "s");
}

void db_write_compare(FILE *f, const struct db_run *a, const struct db_run *b,
                      const struct gate_result *g)
{
    fprintf(f, "run %lld (%s, %s) -> run %lld (%s, %s)\n", a->id, *a->started ? a->started : "-",
            *a->firmware ? a->firmware : "-", b->id, *b->started ? b->started : "-",
            *b->firmware ? b->firmware : "-");
    gate_write_text(f, g, false);
}
