/* spawn.h — run an external program with an argument vector (fork/exec, never a shell). */
#ifndef PTSBENCH_SPAWN_H
#define PTSBENCH_SPAWN_H

#include <stddef.h>

struct spawn_result {
    int status;      /* exit status 0..255, or 128+signal */
    char *out;       /* all of stdout, NUL-terminated (never NULL after success) */
    size_t out_len;
    char *err;       /* all of stderr */
    size_t err_len;
};

/* Run argv (argv[0] looked up in PATH) with stdin from /dev/null, capturing stdout and stderr
 * whole.  Returns 0 (then r->status tells how it ended; 127 = could not exec), or -1 when it
 * could not be started (errno set).  Free with spawn_result_free. */
int spawn_run(char *const argv[], struct spawn_result *r);
void spawn_result_free(struct spawn_result *r);

/* Convenience: as spawn_run, keeping at most outlen-1 / errlen-1 bytes (errbuf may be NULL).
 * Returns the exit status, or -1 when the program could not be started. */
int spawn_capture(char *const argv[], char *out, size_t outlen, char *errbuf, size_t errlen);

#endif
