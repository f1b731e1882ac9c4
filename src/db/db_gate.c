/* db_gate.c — the baseline of a gate from the results history (db_gate.h). */
#include "db/db_gate.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"

int db_against_parse(const char *s, struct db_against *a, char *err, size_t errlen)
{
    memset(a, 0, sizeof(*a));
    const char *colon = s ? strchr(s, ':') : NULL;
    if (!colon || !colon[1])
        return errf(err, errlen, "--against %s: last:N, median:N or tag:NAME", s ? s : "");
    size_t l = (size_t)(colon - s);
    const char *v = colon + 1;
    str_copy(a->text, sizeof(a->text), s);
    if (l == 3 && !strncmp(s, "tag", 3)) {
        if (strlen(v) > 128 || strpbrk(v, ", \t\n"))
            return errf(err, errlen, "--against %s: a tag is 1 to 128 characters, without "
                        "commas or spaces", s);
        a->kind = DB_AGAINST_TAG;
        str_copy(a->tag, sizeof(a->tag), v);
        return 0;
    }
    if ((l == 4 && !strncmp(s, "last", 4)) || (l == 6 && !strncmp(s, "median", 6))) {
        char *end;
        long n = strtol(v, &end, 10);
        if (end == v || *end || n < 1 || n > 10000)
            return errf(err, errlen, "--against %s: N must be a whole number from 1 to 10000",
                        s);
        a->kind = l == 4 ? DB_AGAINST_LAST : DB_AGAINST_MEDIAN;
        a->n = (unsigned)n;
        return 0;
    }
    return errf(err, errlen, "--against %s: last:N, median:N or tag:NAME", s);
}

static bool in_set(const struct meas_set *s, const char *key, size_t *at)
{
    for (size_t i = 0; i < s->n; i++)
        if (!strcmp(s->p[i].key, key)) {
            *at = i;
            return true;
        }
    return false;
}

/* The point of base for cur's point i, added on first use. */
static struct meas_point *base_point(struct meas_set *base, size_t *cap, int *slot,
                                     const struct meas_point *cp, size_t i)
{
    if (slot[i] >= 0)
        return &base->p[slot[i]];
    if (base->n == *cap)
        base->p = xrealloc(base->p, (*cap = *cap ? 2 * *cap : 32) * sizeof(*base->p));
    struct meas_point *p = &base->p[base->n];
    *p = *cp;
    for (unsigned m = 0; m < MEAS_N; m++)
        p->v[m] = p->spread[m] = p->min[m] = p->max[m] = p->slope[m] = NAN;
    p->rounds = 0;
    slot[i] = (int)base->n++;
    return p;
}

/* The values of one key (v[first..end)), the last a->n of them for last/median. */
static void add_history(struct meas_point *p, enum meas_metric m, const struct db_value *v,
                        size_t first, size_t end, const struct db_against *a)
{
    if (a->kind != DB_AGAINST_TAG && end - first > a->n)
        first = end - a->n;
    size_t n = end - first;
    double *x = xcalloc(n, sizeof(*x)), *s = xcalloc(n, sizeof(*s));
    for (size_t k = 0; k < n; k++) {
        x[k] = v[first + k].mean;
        s[k] = v[first + k].spread;
    }
    db_history_stats(x, s, n, &p->v[m], &p->spread[m]);
    p->rounds = (unsigned)n;   /* here: the runs the baseline is the median of */
    free(x);
    free(s);
}

int db_history_baseline(struct db *d, const struct db_against *a, const struct meas_set *cur,
                        const char *cur_identity, const char *model, struct meas_set *base,
                        char *desc, size_t desclen, char *err, size_t errlen)
{
    memset(base, 0, sizeof(*base));
    struct db_filter f;
    db_filter_init(&f);
    f.model = model && *model ? model : NULL;
    f.exclude_identity = cur_identity && *cur_identity ? cur_identity : NULL;
    f.tag = a->kind == DB_AGAINST_TAG ? a->tag : NULL;
    int *slot = xcalloc(cur->n ? cur->n : 1, sizeof(*slot));
    for (size_t i = 0; i < cur->n; i++)
        slot[i] = -1;
    size_t cap = 0;
    for (unsigned m = 0; m < MEAS_N; m++) {
        struct db_value *v;
        size_t n;
        if (db_values(d, (enum meas_metric)m, &f, &v, &n, err, errlen) != 0) {
            free(slot);
            meas_free(base);
            return -1;
        }
        for (size_t first = 0, end; first < n; first = end) {
            for (end = first + 1; end < n && !strcmp(v[end].key, v[first].key); end++)
                ;
            size_t i;
            if (!in_set(cur, v[first].key, &i))
                continue;
            add_history(base_point(base, &cap, slot, &cur->p[i], i), (enum meas_metric)m, v,
                        first, end, a);
        }
        free(v);
    }
    free(slot);
    str_copy(base->device, sizeof(base->device), cur->device);
    base->n_files = 1;
    if (a->kind == DB_AGAINST_TAG)
        snprintf(desc, desclen, "history %s: median of the runs tagged %s", db_path(d), a->tag);
    else
        snprintf(desc, desclen, "history %s: median of the last %u comparable run%s", db_path(d),
                 a->n, a->n == 1 ? "" : "s");
    return 0;
}

struct gate_session *db_gate_prepare(const struct gate_config *cfg, const char *db_file,
                                     const struct db_against *a, int *code, char *err,
                                     size_t errlen)
{
    *code = EXIT_USAGE;
    char why[ERR_LEN], identity[65], model[256];
    struct meas_set cur = {0}, base = {0};
    if (meas_load(cfg->current, &cur, why, sizeof(why)) != 0) {
        errf(err, errlen, "--current: %s", why);
        return NULL;
    }
    if (db_identity_of(cfg->current, identity, model, sizeof(model), why, sizeof(why)) != 0) {
        identity[0] = model[0] = '\0';   /* a directory of several: compare by model of none */
    }
    struct db *d = db_open(db_file, false, why, sizeof(why));
    if (!d) {
        errf(err, errlen, "--db: %s", why);
        meas_free(&cur);
        return NULL;
    }
    static char desc[4400];   /* named by the session's reports after this returns */
    struct gate_session *s = NULL;
    if (db_history_baseline(d, a, &cur, identity, model, &base, desc, sizeof(desc), why,
                            sizeof(why)) != 0) {
        errf(err, errlen, "--db: %s", why);
    } else if (base.n == 0) {
        errf(err, errlen, "--against %s: the history %s holds no comparable run (model %s)",
             a->text, db_file, *model ? model : "any");
    } else {
        struct gate_config c = *cfg;
        c.baseline = desc;
        s = gate_prepare_sets(&c, &base, &cur, code, err, errlen);
    }
    meas_free(&base);
    meas_free(&cur);
    db_close(d);
    return s;
}
