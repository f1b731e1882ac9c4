/* options.c — a command's options from one typed table (see options.h). */
#include "cli/options.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "lib/keys.h"
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

/* Does word start with p, or p with word? */
static bool prefix_either(const char *word, const char *p)
{
    size_t lw = strlen(word), lp = strlen(p);
    return lw && lp && !strncmp(word, p, lw < lp ? lw : lp);
}

size_t cli_suggest(const char *word, const char *const *names, size_t n, char *buf, size_t len)
{
    size_t found = 0, used = 0;
    unsigned best = 3;
    const size_t lw = strlen(word);
    /* the nearest within 2 edits (a short word: fewer, so that "-x" suggests nothing) */
    const unsigned most = lw <= 2 ? 0 : lw <= 4 ? 1 : 2;
    for (size_t i = 0; i < n; i++) {
        unsigned d = keys_edit_distance(word, names[i]);
        if (d <= most && d < best) {
            best = d;
            found = 1;
            used = (size_t)snprintf(buf, len, "%s", names[i]);
        }
    }
    if (found)
        return found;
    /* else the names word begins (an ambiguous abbreviation) or that begin it, at most 3 */
    if (len)
        buf[0] = '\0';
    for (size_t i = 0; i < n && lw >= 2; i++) {
        if (!prefix_either(word, names[i]))
            continue;
        if (++found <= 3 && used < len)
            used += (size_t)snprintf(buf + used, len - used, "%s%s", found > 1 ? "|" : "",
                                     names[i]);
    }
    return found;
}

/* "unknown option '--tagret'; did you mean --target? (see ptsbench CMD --help)": the word
 * getopt stopped at (a short option by its letter), and the nearest long names. */
static void unknown_option(const char *cmd, const struct cli_opt *opts, int argc, char **argv,
                           int at)
{
    char word[64], near[256] = "";
    const char *arg = at > 0 && at < argc ? argv[at] : "";
    if (optopt > 0 && optopt < 256 && !(arg[0] == '-' && arg[1] == '-'))
        snprintf(word, sizeof(word), "-%c", optopt);   /* a short one, maybe in a group */
    else
        snprintf(word, sizeof(word), "%.*s", (int)strcspn(arg, "="), arg);
    const char *names[CLI_MAX_OPTS + 1];
    size_t n = 0;
    for (; opts[n].name && n < CLI_MAX_OPTS; n++)
        names[n] = opts[n].name;
    names[n++] = "help";
    /* "--tagret", and "-target" (one dash: getopt read it as letters) */
    const char *bare = arg[0] == '-' && arg[1] == '-' ? word + 2 : arg[0] == '-' ? arg + 1 : "";
    char bare_word[64];
    snprintf(bare_word, sizeof(bare_word), "%.*s", (int)strcspn(bare, "="), bare);
    size_t k = strlen(bare_word) > 1 ? cli_suggest(bare_word, names, n, near, sizeof(near)) : 0;
    if (arg[0] == '-' && arg[1] != '-' && k)   /* one dash before a long name: say it whole */
        snprintf(word, sizeof(word), "%.*s", (int)strcspn(arg, "="), arg);
    char mean[320] = "";
    if (k) {
        size_t used = (size_t)snprintf(mean, sizeof(mean), "; did you mean ");
        for (char *p = near, *bar; p && used < sizeof(mean); p = bar ? bar + 1 : NULL) {
            bar = strchr(p, '|');
            used += (size_t)snprintf(mean + used, sizeof(mean) - used, "%s--%.*s",
                                     p == near ? "" : bar ? ", " : " or ",
                                     (int)(bar ? bar - p : (long)strlen(p)), p);
        }
        if (used < sizeof(mean))
            snprintf(mean + used, sizeof(mean) - used, "%s?", k > 3 ? ", ..." : "");
    }
    fprintf(stderr, "ptsbench %s: unknown option '%s'%s (see ptsbench %s --help)\n", cmd, word,
            mean, cmd);
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
    int c, at = 1;   /* the word getopt reads (operands in order: no permutation) */
    while ((at = optind ? optind : 1), (c = getopt_long(argc, argv, shorts, lo, NULL)) != -1) {
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
            unknown_option(cmd, opts, argc, argv, at);
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
