/* spawn.h — run an external program with an argument vector (fork/exec, never a shell). */
#ifndef PTSBENCH_SPAWN_H
#define PTSBENCH_SPAWN_H

#include <stddef.h>

/* Run argv (argv[0] looked up in PATH), stdin from /dev/null, capture up to outlen-1 bytes of
 * stdout (NUL-terminated; the rest is read and dropped); stderr is captured into errbuf the same
 * way when errbuf is not NULL, else discarded.  Returns the exit status (0..255), 128+signal,
 * or -1 when the program could not be started (errno set; 127 from the child means "not found"). */
int spawn_capture(char *const argv[], char *out, size_t outlen, char *errbuf, size_t errlen);

#endif
