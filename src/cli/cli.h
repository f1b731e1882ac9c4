/* cli.h — subcommands and what they share (data directories, signal handling). */
#ifndef PTSBENCH_CLI_H
#define PTSBENCH_CLI_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "io/workload.h"
#include "read/measure.h"

int cmd_run(int argc, char **argv, int full_argc, char **full_argv);
int cmd_sim(int argc, char **argv);   /* argv[0] = "sim" */
int cmd_show(int argc, char **argv);  /* argv[0] = "show" */
int cmd_export(int argc, char **argv, int full_argc, char **full_argv);
int cmd_suite(int argc, char **argv, int full_argc, char **full_argv);
int cmd_run_test(int argc, char **argv, int full_argc, char **full_argv);
int cmd_profile(int argc, char **argv, int full_argc, char **full_argv);
int cmd_quick(int argc, char **argv, int full_argc, char **full_argv);
int cmd_replay(int argc, char **argv, int full_argc, char **full_argv);
int cmd_trace(int argc, char **argv);
int cmd_crosscheck(int argc, char **argv, int full_argc, char **full_argv);
int cmd_report(int argc, char **argv, int full_argc, char **full_argv);
int cmd_plot(int argc, char **argv, int full_argc, char **full_argv);
int cmd_verify(int argc, char **argv, int full_argc, char **full_argv);
int cmd_gate(int argc, char **argv, int full_argc, char **full_argv);
int cmd_db(int argc, char **argv, int full_argc, char **full_argv);
int cmd_workload(int argc, char **argv, int full_argc, char **full_argv);

/* --db FILE of run, suite and profile (cmd_db.c). cli_db_check before the run: an existing
 * FILE must be a ptsbench history (0, or -1 with "ptsbench CMD: --db FILE: why" printed).
 * cli_db_import_after a run that returned code: results (a file or directory) imported into
 * FILE when code is 0; returns code, or 1 when the import failed (the results are kept). */
int cli_db_check(const char *cmd, const char *file);
int cli_db_import_after(const char *file, const char *results, int code, bool quiet);

/* NULL-terminated list of directories holding `sub` (e.g. "profiles"): $PTSBENCH_DATADIR/sub,
 * the install prefix (BIN/../share/ptsbench/sub, then the compiled-in PREFIX/share/ptsbench),
 * the source tree next to the binary (build/../sub), ./sub. Only directories that exist are
 * listed, each once. */
const char *const *cli_data_dirs(const char *sub);
/* Every place cli_data_dirs looks for `sub`, existing or not, comma-separated: for the message
 * when nothing is found. */
void cli_data_searched(const char *sub, char *buf, size_t len);
/* --spec FILE|NAME (verify, report): an existing file, else NAME or NAME.ini in the specs data
 * directories, into out. Returns 0, or -1 with the reason ("no such file, nor NAME.ini in
 * DIR"). */
int cli_find_spec(const char *spec, char *out, size_t len, char *err, size_t errlen);

/* --remote VALUE: HOST[:PORT] or @FILE (one host per line, '#' comments). Appends copies to
 * list (at most max); returns 0, or -1 with the reason (bad host, unreadable file). */
int cli_add_remotes(const char *value, const char **list, unsigned *n, unsigned max, char *err,
                    size_t errlen);
void cli_free_remotes(const char **list, unsigned n);

/* --resume DIR: the results file of a stopped run and the command line it recorded. */
struct json_object;
struct cli_resume {
    struct json_object *doc;   /* DIR/results.json */
    int life;                  /* enum results_life: dead, interrupted or failed */
    int argc;                  /* the recorded command from its subcommand on, plus */
    char **argv;               /* "--out DIR --force" */
};
/* Load DIR/results.json of `schema` (ptsbench.run, .suite, .profile) for a resume: 0 (go), 1
 * (the run is complete: nothing to resume), -1 with err (no such file, another schema, the
 * writer still running or on another host, no command line recorded). commands: the
 * subcommand names to find in the recorded command line (NULL-terminated). */
int cli_resume_load(const char *dir, const char *schema, const char *const *commands,
                    struct cli_resume *r, char *err, size_t errlen);
void cli_resume_free(struct cli_resume *r);

/* The flags a resume itself may be given (the only options it may add to the recorded ones). */
struct cli_resume_flags {
    bool resume_as_is, quiet, destructive, overwrite_signatures;
};
/* The whole of `CMD --resume DIR` for run, suite and profile: refuse other options (others >
 * 0), load DIR's results (cli_resume_load: schema, commands), say "nothing to resume" when the
 * run is complete, then call again() on the recorded command line, during which
 * cli_resume_merge() hands out the document and these flags. what names the thing in messages
 * ("run", "suite", "profile"). Returns the exit code. */
typedef int (*cli_again_fn)(int argc, char **argv, int full_argc, char **full_argv);
int cli_resume_again(const char *cmd, const char *what, const char *dir, unsigned others,
                     const char *schema, const char *const *commands,
                     const struct cli_resume_flags *flags, cli_again_fn again);
/* After a command's parse: while a resume's recorded command line is run again, its document
 * into *doc and the resume's flags on top (resume_as_is replaced, the others added); else
 * --resume-as-is alone is refused. 0, or -1 with the message printed. */
int cli_resume_merge(const char *cmd, struct json_object **doc, bool *resume_as_is, bool *quiet,
                     bool *destructive, bool *overwrite_signatures);
/* How many options of a parse (uses from cli_parse_uses) a resume would take from the results
 * file: all but --quiet, --resume, --resume-as-is, --destructive and --overwrite-signatures. */
struct cli_opt;
unsigned cli_resume_others(const struct cli_opt *opts, const unsigned *uses);

/* CLI_CUSTOM parsers (options.h) shared by the commands (--precondition:
 * cli_parse_precondition_fast below). --tolerance PCT into a double fraction, --metrics LIST
 * into a struct cli_metric_list (gate and db compare: judge/gate.h's parsers as CLI_CUSTOM
 * rows). */
struct cli_metric_list {
    enum meas_metric v[MEAS_N];
    int n;                     /* 0: none given (every metric) */
};
int cli_parse_tolerance(const char *value, void *target, char *err, size_t errlen);
int cli_parse_metric_list(const char *value, void *target, char *err, size_t errlen);
/* --purge METHOD into an enum purge_method. */
int cli_parse_purge(const char *value, void *target, char *err, size_t errlen);
/* --op PCT|RHO: a drive's over-provisioning, "28%" or the spare factor 0.28 ((raw - user) /
 * user), into a double spare factor in (0, 4]. */
int cli_parse_op(const char *value, void *target, char *err, size_t errlen);
/* --precondition none|wipc|steady|fast[:RHO] for the commands that take the fast pass (run,
 * profile, quick, run-test, suite): the mode into *mode (fast is steady with the pass in WIPC's
 * place), the pass asked into *fast and fast:RHO's spare factor into *fast_rho (0: not given).
 * Put CLI_PRECONDITION_OPTS in the table: the two rows (--precondition, --op) with one text. */
struct cli_precondition {
    enum wl_precondition *mode;
    bool *fast;
    double *fast_rho;
};
int cli_parse_precondition_fast(const char *value, void *target, char *err, size_t errlen);
#define CLI_PRECONDITION_FAST_HELP                                                               \
    "fast[:RHO]: steady with a fast pass in WIPC's place\n  (RHO: the spare factor it assumes, "  \
    "as --op; default the\n  simulator's; 0 on a file or zram, where no FTL is modelled)"
#define CLI_PRECONDITION_OPTS(pc, op_rho, modes_help)                                            \
    {"precondition", 0, CLI_CUSTOM, (pc), .parse = cli_parse_precondition_fast, .arg = "P",      \
     .help = modes_help "\n" CLI_PRECONDITION_FAST_HELP},                                         \
    {"op", 0, CLI_CUSTOM, (op_rho), .parse = cli_parse_op, .arg = "PCT|RHO", .help = CLI_OP_HELP}
#define CLI_OP_HELP                                                                              \
    "the drive's over-provisioning for --precondition fast:\n28% or the spare factor 0.28 "        \
    "((raw - user) / user);\nrecorded with its source; a real drive needs it"
/* --numa auto|off|N and --cpus LIST into a struct numa_request (device/numa.h). The two rows
 * are the same in every command that runs I/O (run, suite, run-test, profile, replay): put
 * CLI_PLACEMENT_OPTS(&cfg.numa) in its table. */
int cli_parse_numa(const char *value, void *target, char *err, size_t errlen);
int cli_parse_cpus(const char *value, void *target, char *err, size_t errlen);
#define CLI_PLACEMENT_OPTS(req)                                                                  \
    {"numa", 0, CLI_CUSTOM, (req), .parse = cli_parse_numa, .arg = "MODE",                       \
     .help = "where the workers run: auto (default: on the CPUs of the\ndevice's NUMA node when "  \
             "the host has more than one\nnode), off, or a node number N"},                      \
    {"cpus", 0, CLI_CUSTOM, (req), .parse = cli_parse_cpus, .arg = "LIST",                        \
     .help = "pin the workers to these CPUs (0-3,8,10-11); overrides\n--numa. The results "        \
             "record each worker's CPUs"}

/* The rows every command that takes --target and does I/O shares (run, suite, run-test,
 * profile, replay, crosscheck): --allow-memory-target (a file on tmpfs or ramfs, refused
 * otherwise: steps.h run_probe_target) and --dry-run (the plan, its time bound and what would
 * be created and written; nothing is). */
#define CLI_TARGET_CHECK_OPTS(allow_memory, dry_run)                                            \
    {"allow-memory-target", 0, CLI_FLAG, (allow_memory),                                        \
     .help = "measure a file on tmpfs or ramfs anyway: it measures memory,\nnot a drive (the " \
             "results say so)"},                                                                \
    {"dry-run", 0, CLI_FLAG, (dry_run),                                                         \
     .help = "print the plan, its time bound and what would be created and\nwritten, then "     \
             "stop: nothing is created or written"}

/* What a registry knows, for --help, comma-separated into buf: the I/O engines (engine.h), the
 * SNIA PTS tests (pts/NAME.ini), the simulated-drive presets (profiles/devices/NAME.ini), the
 * workload profiles (profiles/NAME.ini), the steady-state tracking metrics (metrics.h), the
 * metrics of results that gate compares (measure.h). "(none found)" when the registry is
 * empty. */
enum cli_registry { CLI_ENGINES, CLI_PTS_TESTS, CLI_SIM_PRESETS, CLI_PROFILES, CLI_METRICS,
                    CLI_MEAS_METRICS };
void cli_registry_list(enum cli_registry which, char *buf, size_t len);
/* "Title: a, b, c" wrapped at 92 columns, continuation lines indented by indent spaces; the
 * list of cli_registry_list(which), then tail (may be NULL or ""). */
void cli_print_registry(FILE *f, const char *title, enum cli_registry which, unsigned indent,
                        const char *tail);

/* SIGINT/SIGTERM set *cli_stop_flag(); a second signal ends the process the default way. */
void cli_install_signals(void);
volatile sig_atomic_t *cli_stop_flag(void);

#endif
