/* helpers.h — shared by the integration tests: run programs (fork/exec, no shell),
 * temporary directories, reading results, and skipping with a visible reason. */
#ifndef PTSBENCH_TEST_HELPERS_H
#define PTSBENCH_TEST_HELPERS_H

#include <stdbool.h>
#include <stddef.h>

struct json_object;

struct cmd_result {
    int status;        /* exit code, or 128+signal */
    char *out;         /* captured stdout (NUL-terminated, may be empty) */
    char *errout;      /* captured stderr */
};

/* Run argv[0] (PATH lookup) with argv; capture stdout/stderr. Returns 0 unless fork/exec failed. */
int run_cmd(char *const argv[], struct cmd_result *r);
void cmd_result_free(struct cmd_result *r);
/* Convenience: run and return the exit status only (output discarded unless verbose). */
int run_quiet(char *const argv[]);

/* Path to the ptsbench binary under test: $PTSBENCH or build/ptsbench. */
const char *ptsbench_bin(void);

/* Run ptsbench with argv (argv[0] is replaced by the binary under test), check that it exits
 * with want_status (printing its stderr when not), and load OUT_DIR/results.json (NULL when
 * absent). The caller json_object_put()s. Output is captured; stdout is kept in *out_text when
 * out_text is not NULL (caller frees). */
struct json_object *ptsbench_results(char *argv[], const char *out_dir, int want_status,
                                     char **out_text);

/* Run several ptsbench commands at once (fork/exec, no shell): cmds[k] = {NAME, ARG..., NULL}
 * runs `ptsbench ARG... -o DIR/NAME` with its stdout and stderr in DIR/NAME.log. Waits for all;
 * returns -1 when every one exited 0, else the index of the first that did not (with its log
 * printed). For tests that need several simulated results: a 2-core machine runs two at once. */
int ptsbench_parallel(const char *const *const *cmds, size_t n, const char *dir);

/* A whole file, NUL-terminated (NULL when it cannot be read); *len (may be NULL) its size. */
char *slurp_file(const char *path, size_t *len);

/* mkdtemp under $TMPDIR or /var/tmp (a real disk filesystem, so O_DIRECT works). */
char *make_temp_dir(const char *tag);
void remove_tree(const char *path);

/* Parse a JSON file (json-c). NULL on error. Caller json_object_put()s. */
struct json_object *load_json(const char *path);
/* Dotted path lookup: "rounds.0.total.iops" (numbers index arrays). NULL if absent. */
struct json_object *json_at(struct json_object *root, const char *dotted);
double json_num(struct json_object *root, const char *dotted);   /* NAN if absent */

/* zram: set up /dev/zram0 with `size` bytes (e.g. "1G"). Returns true when ready; false with a
 * printed reason (not root, no zram, in use).  zram_teardown() resets it. */
bool zram_setup(const char *size, char *devpath, size_t len);
void zram_teardown(void);

bool is_root(void);

/* The tree's simulated-drive presets: {"$PTSBENCH_DATADIR/profiles/devices", NULL} (the test
 * runner sets PTSBENCH_DATADIR to the repository root), else {"profiles/devices", NULL}. */
const char *const *test_device_dirs(void);

#endif
