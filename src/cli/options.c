/* options.c — a command's options from one typed table (see options.h). */
#include "cli/options.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "lib/units.h"
#include "lib/util.h"

#define CLI_MAX_OPTS 64
#define HELP_COLUMN 26

static const struct cli_opt *find(const struct cli_opt *opts, int val)
{
    for (size_t i = 0; opts[i].name; i++)
        if (val == (opts[i].letter ? opts[i].letter : 256 + (int)i))
            return &opts[i];
    return NULL;
}

static bool blank(const char *v)
{
    while (*v == ' ' || *v == '\t')
        v++;
    return !*v;
}

/* The value of one option into its target; 0, or -1 with why. A string is never empty. */
static int set_value(const struct cli_opt *o, const char *v, char *why, size_t wl)
{
    uint64_t u;
    switch (o->type) {
    case CLI_FLAG:
        *(bool *)o->target = true;
        return 0;
    case CLI_STR:
        if (blank(v))
            return errf(why, wl, "want a value, not an empty one");
        *(const char **)o->target = v;
        return 0;
    case CLI_STR_LIST:
        if (blank(v))
            return errf(why, wl, "want a value, not an empty one");
        if (*o->count >= o->max)
            return errf(why, wl, "given more than %u times", o->max);
        ((const char **)o->target)[(*o->count)++] = v;
        return 0;
    case CLI_SIZE:
        if (units_parse_size(v, (uint64_t *)o->target, why, wl) != 0)
            return -1;
        if (o->lo > 0 && (double)*(uint64_t *)o->target < o->lo)
            return o->lo <= 1 ? errf(why, wl, "must be more than 0")
                              : errf(why, wl, "want at least %g bytes", o->lo);
        return 0;
    case CLI_DURATION:
        if (units_parse_duration(v, (uint64_t *)o->target, why, wl) != 0)
            return -1;
        if (o->lo > 0 && (double)*(uint64_t *)o->target < o->lo)
            return o->lo <= 1 ? errf(why, wl, "must be more than 0")
                              : errf(why, wl, "want at least %g s", o->lo / 1e9);
        return 0;
    case CLI_UINT:
        if (units_parse_uint(v, (uint64_t)o->lo, (uint64_t)o->hi, &u, why, wl) != 0)
            return -1;
        *(unsigned *)o->target = (unsigned)u;
        return 0;
    case CLI_DOUBLE:
        return units_parse_double(v, o->lo, o->hi, (double *)o->target, why, wl);
    case CLI_PERCENT:
        return units_parse_percent(v, (double *)o->target, why, wl);
    case CLI_CUSTOM:
        return o->parse(v, o->target, why, wl);
    }
    return errf(why, wl, "unknown option type");
}

int cli_parse(const char *cmd, const struct cli_opt *opts, int argc, char **argv,
              const char **pos, unsigned *n_pos, unsigned max_pos, void (*usage)(FILE *f))
{
    return cli_parse_uses(cmd, opts, argc, argv, pos, n_pos, max_pos, usage, NULL);
}

/* What the last parse was given, in order (cli_last_given). */
#define CLI_MAX_GIVEN 512
static struct cli_given given[CLI_MAX_GIVEN];
static unsigned n_given;

static void give(const char *name, const char *value)
{
    if (n_given < CLI_MAX_GIVEN)
        given[n_given++] = (struct cli_given){name, value};
}

unsigned cli_last_given(const struct cli_given **list)
{
    *list = given;
    return n_given;
}

int cli_parse_uses(const char *cmd, const struct cli_opt *opts, int argc, char **argv,
                   const char **pos, unsigned *n_pos, unsigned max_pos, void (*usage)(FILE *f),
                   unsigned *uses)
{
    n_given = 0;
    struct option lo[CLI_MAX_OPTS + 2];
    char shorts[3 * CLI_MAX_OPTS + 8] = "-:";
    size_t n = 0;
    for (; opts[n].name && n < CLI_MAX_OPTS; n++) {
        const struct cli_opt *o = &opts[n];
        const int has_arg = o->type == CLI_FLAG ? no_argument : required_argument;
        lo[n] = (struct option){o->name, has_arg, NULL, o->letter ? o->letter : 256 + (int)n};
        if (o->letter) {
            size_t k = strlen(shorts);
            shorts[k++] = o->letter;
            if (has_arg == required_argument)
                shorts[k++] = ':';
            shorts[k] = '\0';
        }
    }
    lo[n++] = (struct option){"help", no_argument, NULL, 'h'};
    lo[n] = (struct option){NULL, 0, NULL, 0};
    strcat(shorts, "h");
    if (n_pos)
        *n_pos = 0;
    if (uses)
        memset(uses, 0, (n - 1) * sizeof(*uses));
    opterr = 0;
    optind = 0;   /* glibc and musl: a whole new scan (not the rest of an earlier one's word) */
    int c;
    while ((c = getopt_long(argc, argv, shorts, lo, NULL)) != -1) {
        if (c == 'h') {
            usage(stdout);
            return CLI_DONE;
        }
        if (c == 1) {   /* an operand, in order */
            if (!pos || !n_pos || *n_pos >= max_pos) {
                fprintf(stderr, "ptsbench %s: unexpected argument '%s'%s\n", cmd, optarg,
                        pos && max_pos ? " (too many)" : "");
                return CLI_BAD;
            }
            pos[(*n_pos)++] = optarg;
            give(NULL, optarg);
            continue;
        }
        if (c == ':') {
            fprintf(stderr, "ptsbench %s: option '%s' needs a value\n", cmd, argv[optind - 1]);
            return CLI_BAD;
        }
        const struct cli_opt *o = c == '?' ? NULL : find(opts, c);
        if (!o) {
            fprintf(stderr, "ptsbench %s: unknown option '%s' (see ptsbench %s --help)\n", cmd,
                    argv[optind - 1], cmd);
            return CLI_BAD;
        }
        if (uses)
            uses[o - opts]++;
        give(o->name, optarg);
        char why[ERR_LEN] = "";
        if (set_value(o, optarg, why, sizeof(why)) != 0) {
            const bool quote = !optarg || blank(optarg);   /* show an empty value as '' */
            fprintf(stderr, "ptsbench %s: --%s %s%s%s: %s\n", cmd, o->name, quote ? "'" : "",
                    optarg ? optarg : "", quote ? "'" : "", why);
            return CLI_BAD;
        }
    }
    return CLI_GO;
}

void cli_print_options(FILE *f, const struct cli_opt *opts)
{
    for (size_t i = 0; opts[i].name; i++) {
        const struct cli_opt *o = &opts[i];
        char head[128];
        int w = snprintf(head, sizeof(head), "  %c%c%s--%s%s%s", o->letter ? '-' : ' ',
                         o->letter ? o->letter : ' ', o->letter ? ", " : "  ", o->name,
                         o->arg ? " " : "", o->arg ? o->arg : "");
        const char *help = o->help ? o->help : "";
        fputs(head, f);
        if (w >= HELP_COLUMN) {   /* a long head: the text starts on the next line */
            fputc('\n', f);
            w = 0;
        }
        for (const char *p = help;;) {
            const char *nl = strchr(p, '\n');
            fprintf(f, "%*s%.*s\n", HELP_COLUMN - w, "", (int)(nl ? nl - p : (long)strlen(p)), p);
            w = 0;
            if (!nl)
                break;
            p = nl + 1;
        }
    }
    fprintf(f, "  -h, --help%*sthis text\n", HELP_COLUMN - 12, "");
}
