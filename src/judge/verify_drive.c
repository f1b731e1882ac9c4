/* verify_drive.c — which drive a spec sheet is of, and whether results were measured on it
 * (verify.h, "The drive"). Pure functions. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "lib/units.h"
#include "lib/util.h"
#include "read/measure.h"
#include "judge/verify.h"

/* a model string compared without case, leading and trailing blanks, and with every run of
 * blanks as one space */
static void model_norm(const char *in, char *out, size_t len)
{
    size_t o = 0;
    bool blank = false;
    for (; *in && o + 1 < len; in++) {
        if (isspace((unsigned char)*in)) {
            blank = o > 0;
            continue;
        }
        if (blank && o + 2 < len)
            out[o++] = ' ';
        blank = false;
        out[o++] = (char)toupper((unsigned char)*in);
    }
    out[o] = '\0';
}

static bool model_is(const char *pattern, const char *model)
{
    char p[256], m[256];
    model_norm(pattern, p, sizeof(p));
    model_norm(model, m, sizeof(m));
    size_t n = strlen(p);
    if (n && p[n - 1] == '*')   /* a prefix: "ZD6300*" */
        return strncmp(m, p, n - 1) == 0;
    return strcmp(m, p) == 0;
}

/* the target's capacity within the tolerance of the sheet's; false with why */
static bool capacity_ok(const struct verify_sheet *s, const struct meas_target *t, char *why,
                        size_t len)
{
    char have[64];
    if (!s->capacity) {
        snprintf(why, len, "the sheet states no capacity");
        return false;
    }
    if (!t->capacity) {
        snprintf(why, len, "the results record no capacity");
        return false;
    }
    double d = ((double)t->capacity - (double)s->capacity) / (double)s->capacity;
    if (d <= VERIFY_CAPACITY_TOLERANCE && d >= -VERIFY_CAPACITY_TOLERANCE)
        return true;
    units_format_capacity(t->capacity, have, sizeof(have));
    snprintf(why, len, "capacity %s is %+.1f%% from the sheet's %s (within %g%% matches)", have,
             d * 100, s->capacity_text, VERIFY_CAPACITY_TOLERANCE * 100);
    return false;
}

static bool sim_match(const struct verify_sheet *s, const struct meas_target *t, char *why,
                      size_t len)
{
    if (!s->sim_preset[0]) {
        snprintf(why, len, "the sheet names no simulated preset (sim_preset)");
        return false;
    }
    if (strcmp(t->preset, s->sim_preset)) {
        snprintf(why, len, "simulated preset %s, not the sheet's %s",
                 t->preset[0] ? t->preset : "(not recorded)", s->sim_preset);
        return false;
    }
    return capacity_ok(s, t, why, len);
}

static bool block_match(const struct verify_sheet *s, const struct meas_target *t, char *why,
                        size_t len)
{
    if (!s->n_models) {
        snprintf(why, len, "the sheet names no model a device reports (reported_models)");
        return false;
    }
    if (!t->model[0]) {
        snprintf(why, len, "the device reports no model");
        return false;
    }
    bool named = false;
    for (unsigned i = 0; i < s->n_models && !named; i++)
        named = model_is(s->models[i], t->model);
    if (!named) {
        snprintf(why, len, "model \"%s\" is not one the sheet names", t->model);
        return false;
    }
    return capacity_ok(s, t, why, len);
}

bool verify_drive_match(const struct verify_sheet *s, const struct meas_target *t, char *why,
                        size_t len)
{
    snprintf(why, len, "%s", "");
    if (s->requirements)   /* a purchaser's requirements: any target */
        return true;
    if (!s->n_models && !s->sim_preset[0]) {
        snprintf(why, len, "the sheet names no drive (reported_models, sim_preset)");
        return false;
    }
    if (!strcmp(t->kind, "simulated"))
        return sim_match(s, t, why, len);
    if (!strcmp(t->kind, "block"))
        return block_match(s, t, why, len);
    if (!strcmp(t->kind, "file"))
        snprintf(why, len, "a file target never matches a drive's sheet");
    else if (!strcmp(t->kind, "remote"))
        snprintf(why, len, "a remote target records no model");
    else
        snprintf(why, len, "the results do not record their target");
    return false;
}

int verify_drive_check(const struct verify_sheet *s, const struct meas_set *set, char *why,
                       size_t len)
{
    for (unsigned i = 0; i < set->n_targets; i++)
        if (!verify_drive_match(s, &set->targets[i], why, len))
            return (int)i;
    return -1;
}

void verify_target_describe(const struct meas_target *t, char *buf, size_t len)
{
    char cap[64] = "capacity not recorded", where[128] = "";
    if (t->capacity)
        units_format_capacity(t->capacity, cap, sizeof(cap));
    if (!strcmp(t->kind, "simulated")) {
        snprintf(buf, len, "simulated drive %s, %s", t->path, cap);
    } else if (!strcmp(t->kind, "file")) {
        if (t->device[0])
            snprintf(where, sizeof(where), " on %s", t->device);
        snprintf(buf, len, "file %s%s, %s", t->path, where, cap);
    } else if (!strcmp(t->kind, "block")) {
        if (t->model[0])
            snprintf(where, sizeof(where), ", model \"%s\"", t->model);
        else
            snprintf(where, sizeof(where), ", no model reported");
        snprintf(buf, len, "block device %s%s, %s", t->path, where, cap);
    } else {
        snprintf(buf, len, "%s target %s, %s", t->kind[0] ? t->kind : "unrecorded",
                 t->path[0] ? t->path : "(no path)", cap);
    }
}

void verify_sheet_drive_describe(const struct verify_sheet *s, char *buf, size_t len)
{
    char models[1024] = "", sim[160] = "";
    size_t o = 0;
    if (s->requirements) {
        snprintf(buf, len, "%s (requirements for any drive)", s->device);
        return;
    }
    for (unsigned i = 0; i < s->n_models && o < sizeof(models); i++) {
        int w = snprintf(models + o, sizeof(models) - o, "%s\"%s\"", i ? " | " : "model ",
                         s->models[i]);
        o += w > 0 ? (size_t)w : 0;
    }
    if (s->sim_preset[0])
        snprintf(sim, sizeof(sim), "simulated: sim:%s", s->sim_preset);
    snprintf(buf, len, "%s (%s%s%s%s%s)", s->device, models, models[0] ? ", " : "",
             s->capacity_text[0] ? s->capacity_text : "no capacity stated", sim[0] ? "; " : "",
             sim);
}

void verify_drive_refusal(const struct verify_sheet *s, const struct meas_target *t,
                          const char *why, char *buf, size_t len)
{
    char target[1400], drive[1400];
    verify_target_describe(t, target, sizeof(target));
    verify_sheet_drive_describe(s, drive, sizeof(drive));
    snprintf(buf, len, "%s: measured on %s, not on the sheet's drive %s: %s (--any-drive judges "
             "the claims anyway, every verdict marked)", t->source, target, drive, why);
}
