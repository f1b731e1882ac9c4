/* cli.h — subcommands and what they share (data directories, signal handling). */
#ifndef PTSBENCH_CLI_H
#define PTSBENCH_CLI_H

#include <signal.h>
#include <stddef.h>

int cmd_run(int argc, char **argv, int full_argc, char **full_argv);
int cmd_sim(int argc, char **argv);   /* argv[0] = "sim" */
int cmd_show(int argc, char **argv);  /* argv[0] = "show" */
int cmd_suite(int argc, char **argv, int full_argc, char **full_argv);
int cmd_run_test(int argc, char **argv, int full_argc, char **full_argv);
int cmd_profile(int argc, char **argv, int full_argc, char **full_argv);
int cmd_crosscheck(int argc, char **argv, int full_argc, char **full_argv);
int cmd_report(int argc, char **argv, int full_argc, char **full_argv);
int cmd_plot(int argc, char **argv, int full_argc, char **full_argv);
int cmd_verify(int argc, char **argv, int full_argc, char **full_argv);
int cmd_gate(int argc, char **argv, int full_argc, char **full_argv);

/* NULL-terminated list of directories holding `sub` (e.g. "profiles"): $PTSBENCH_DATADIR/sub,
 * the source tree next to the binary (build/../sub), the installed share directory, ./sub.
 * Only directories that exist are listed. */
const char *const *cli_data_dirs(const char *sub);

/* "--name" of the getopt_long option whose value is c (for one-line error messages). */
struct option;
const char *cli_option_name(const struct option *opts, int c);

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

/* SIGINT/SIGTERM set *cli_stop_flag(); a second signal ends the process the default way. */
void cli_install_signals(void);
volatile sig_atomic_t *cli_stop_flag(void);

#endif
