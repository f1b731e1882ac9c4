/* options.h — a command's options as one typed table: the getopt_long array, the value checks
 * and their one-line messages ("ptsbench CMD: --opt VALUE: why"), and the option lines of
 * --help all come from it, so that an option means the same and reads the same in every
 * command. A row names the option, its short letter (0: none), its type and where its value
 * goes; the types parse with lib/units.h (sizes binary as fio: 4k = 4096; durations; percents).
 *
 *   static bool quiet;
 *   static const char *out;
 *   static const struct cli_opt opts[] = {
 *       {"out", 'o', CLI_STR, &out, .arg = "DIR", .help = "where to write"},
 *       {"quiet", 'q', CLI_FLAG, &quiet, .help = "no progress lines"},
 *       {0},
 *   };
 * A string value (CLI_STR, CLI_STR_LIST) that is empty or blank is refused.
 *   int rc = cli_parse("report", opts, argc, argv, pos, &n_pos, 16, usage);
 *   if (rc != CLI_GO) return rc == CLI_DONE ? EXIT_OK : EXIT_USAGE;
 */
#ifndef PTSBENCH_CLI_OPTIONS_H
#define PTSBENCH_CLI_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum cli_opt_type {
    CLI_FLAG,       /* bool = true */
    CLI_STR,        /* const char * (the argument itself) */
    CLI_STR_LIST,   /* const char *[max] and its count: each use appends */
    CLI_SIZE,       /* uint64_t bytes, at least lo bytes when lo > 0 (lo 1: "must be more than 0") */
    CLI_DURATION,   /* uint64_t ns, at least lo ns when lo > 0 (lo 1: "must be more than 0") */
    CLI_UINT,       /* unsigned, lo..hi */
    CLI_DOUBLE,     /* double, lo..hi */
    CLI_PERCENT,    /* double percent: 5%, 5 and 5.0 all mean 5 */
    CLI_CUSTOM,     /* parse(value, target, err, errlen) */
};

struct cli_opt {
    const char *name;          /* long name, without "--"; NULL ends the table */
    char letter;               /* short option, 0 for none */
    enum cli_opt_type type;
    void *target;
    double lo, hi;             /* CLI_UINT, CLI_DOUBLE range; CLI_SIZE, CLI_DURATION minimum */
    unsigned *count;           /* CLI_STR_LIST */
    unsigned max;              /* CLI_STR_LIST capacity */
    int (*parse)(const char *value, void *target, char *err, size_t errlen);   /* CLI_CUSTOM */
    const char *arg;           /* the value's name in --help ("DIR", "SIZE") */
    const char *help;          /* --help text; "\n" starts a continuation line */
};

enum { CLI_GO = 0, CLI_DONE = 1, CLI_BAD = 2 };

/* Parse argv[1..] of command cmd against opts (and -h/--help, which calls usage(stdout)):
 * operands go to pos (at most max_pos, *n_pos of them; pos may be NULL when the command takes
 * none). CLI_GO: parsed; CLI_DONE: help printed; CLI_BAD: one line on stderr. */
int cli_parse(const char *cmd, const struct cli_opt *opts, int argc, char **argv,
              const char **pos, unsigned *n_pos, unsigned max_pos, void (*usage)(FILE *f));

/* cli_parse, also counting the uses of each row: uses[i] for opts[i] (set to 0 first; room for
 * every row). The parse may be repeated, also while an earlier one's caller is still running
 * (a --resume parses a recorded command line): each starts a new scan of its argv. */
int cli_parse_uses(const char *cmd, const struct cli_opt *opts, int argc, char **argv,
                   const char **pos, unsigned *n_pos, unsigned max_pos, void (*usage)(FILE *f),
                   unsigned *uses);

/* The names of names[0..n) a mistyped word most likely meant: the nearest within 2 edits (a
 * swap of neighbours is one; 1 for words of 3-4 letters, none for shorter), else those the
 * word begins or that begin it (at most 3 kept). Into buf, '|'-separated; returns how many
 * (0: none). An unknown option says "did you mean --NAME?" from it, in every command. */
size_t cli_suggest(const char *word, const char *const *names, size_t n, char *buf, size_t len);

/* The option lines of --help from the table: "  -o, --out DIR           where to write",
 * descriptions from column 27, continuation lines indented to it; then "  -h, --help". */
void cli_print_options(FILE *f, const struct cli_opt *opts);

/* What the last cli_parse / cli_parse_uses was given, in order: each option by its long name
 * with its value as typed (NULL for a flag), each operand with name NULL. The strings are the
 * command line's own. For running the same command again with some options changed (one
 * target of several: cli/cli_fleet.c). At most 512 entries. */
struct cli_given {
    const char *name;
    const char *value;
};
unsigned cli_last_given(const struct cli_given **list);

#endif
