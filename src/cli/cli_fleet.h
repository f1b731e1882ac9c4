/* cli_fleet.h — one command on several targets (`--target A --target B`, `--targets @FILE`), one
 * copy of ptsbench per target, one after another or (--parallel) all at once with their rounds
 * aligned (core/fleet.h); every copy's results in OUT/LABEL/ and the whole in OUT/results.json
 * (schema ptsbench.fleet: the targets, how each ended, the aggregate).
 *
 * Why copies and not threads: each target keeps everything a single-target run has (its own
 * safety decision, signal-safe results writer, resume, engine, simulated drive) unchanged, and
 * one copy's failure cannot take the others' measurements with it. A copy is started with the
 * parent's own options as the user typed them, less the target options and --out, plus its
 * target and OUT/LABEL; so a copy's results record a command line that resumes that copy.
 *
 * A command's table takes the three rows of CLI_FLEET_OPTIONS; after the parse it calls
 * cli_fleet_dispatch, which runs the fleet (several targets) or hands back the one target. */
#ifndef PTSBENCH_CLI_CLI_FLEET_H
#define PTSBENCH_CLI_CLI_FLEET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define CLI_FLEET_MAX 32   /* targets in one command (each copy is a process with its pool) */

struct cli_fleet {
    const char *targets[CLI_FLEET_MAX];
    unsigned n;
    bool parallel;
    char *owned[CLI_FLEET_MAX];   /* the lines of --targets @FILE */
    unsigned n_owned;
};

/* --targets @FILE: one target per line, '#' comments and blank lines skipped; appended. */
int cli_parse_targets_file(const char *value, void *target, char *err, size_t errlen);

/* The rows of a command's option table (options.h); `text` is the --target row's text. */
#define CLI_FLEET_OPTIONS(f, text)                                                              \
    {"target", 't', CLI_STR_LIST, (f)->targets, .count = &(f)->n, .max = CLI_FLEET_MAX,       \
     .arg = "T", .help = text ";\nrepeat for several targets"},                                  \
    {"targets", 0, CLI_CUSTOM, (f), .parse = cli_parse_targets_file, .arg = "@FILE",            \
     .help = "targets from FILE, one per line ('#' comments)"},                                 \
    {"parallel", 0, CLI_FLAG, &(f)->parallel,                                                   \
     .help = "with several targets: run them at once, their rounds\nstarted together (default: "\
             "one after another); OUT/LABEL/\nholds each target's results, OUT/results.json the "  \
             "aggregate"}

/* Forget the last parse's targets (a --resume parses again). */
void cli_fleet_clear(struct cli_fleet *f);

/* The help text's paragraph on several targets, for a command's usage(). */
void cli_fleet_usage(FILE *f);

/* After a command's parse. With at most one target: *one = it (NULL: none given) and
 * CLI_FLEET_ONE is returned; the command goes on alone. With several: the fleet is run and its
 * exit code returned (2 when a target's own check refused it: nothing is written then, not
 * even OUT). words: the command as typed before its options ({"run"} or {"run-test",
 * "iops"}), n_words of them; kind: the default OUT's prefix (results/KIND-fleet-STAMP); out,
 * force: the command's --out and --force. */
#define CLI_FLEET_ONE (-1)
int cli_fleet_dispatch(struct cli_fleet *f, const char *const *words, unsigned n_words,
                       const char *kind, const char *out, bool force, const char **one);

/* A target's label: its file name (/dev/zram1 -> zram1), sim:PRESET,... -> sim-PRESET; only
 * [A-Za-z0-9._-]. For OUT/LABEL and the report's legends. */
void cli_fleet_label(const char *target, char *buf, size_t len);

/* The targets' results of a command on several targets: ARG (a ptsbench.fleet results.json,
 * or the directory holding one) into the paths of its targets' results files that exist, with
 * their labels, at most max (a target that wrote nothing is left out; a path outside the
 * fleet's directory is never taken). Returns how many (0: ARG is not such a document, *doc
 * NULL), or -1 with one line (more than max, or none of its targets has results). doc (may be
 * NULL) receives the fleet's document (the caller json_object_put()s it). */
struct json_object;
typedef char cli_fleet_path[4300];
typedef char cli_fleet_name[96];
int cli_fleet_members(const char *arg, cli_fleet_path *paths, cli_fleet_name *labels,
                      unsigned max, struct json_object **doc, char *err, size_t errlen);

/* DIR holds the results of a command on several targets (ptsbench.fleet). */
bool cli_fleet_is_fleet(const char *dir);

/* `CMD --resume DIR` on such results: every target not complete goes on (`CMD --resume
 * DIR/LABEL` for one that started, its recorded command for one that never did), as they ran
 * (one after another, or at once with their rounds aligned); the complete ones are kept. The
 * flags are those a resume may add. Returns the exit code. */
struct cli_resume_flags;
int cli_fleet_resume(const char *cmd, const char *dir, const struct cli_resume_flags *flags);

#endif
