/* spawn.h — run an external program with an argument vector (fork/exec, never a shell), and
 * see that it never outlives ptsbench.
 *
 * Every child (fio, the purge and write-cache tools, gnuplot, ...) is started here; nothing
 * else in src/ forks. Each child:
 *   - gets prctl(PR_SET_PDEATHSIG, SIGKILL) right after fork, so the kernel kills it when
 *     ptsbench dies in a way nothing can catch (SIGKILL, a crash). When ptsbench died before
 *     that took effect (getppid() is no longer the process that forked), it _exits at once;
 *   - leads its own process group (setpgid in the child and in the parent), which ptsbench
 *     signals as a whole. A terminal's ^C therefore reaches ptsbench only, and ptsbench
 *     decides what its children get (below);
 *   - is in a registry of live children from before fork until it is reaped;
 *   - starts with stdin from /dev/null, SIGINT, SIGTERM and SIGPIPE at their defaults and no
 *     signal blocked.
 *
 * What does not follow (UNCERTAIN ground the callers must cover):
 *   - PR_SET_PDEATHSIG is per process and not inherited: the child's own children get
 *     nothing. Those that stay in the child's group are reached by every group signal; one
 *     that leaves the group (setsid) is reached by nothing. fio's job processes do exactly
 *     that (fio 3.33: one process per job, each calls setsid()), so engine/fio.c runs the jobs
 *     as threads of the one fio process (fio's `thread` option), which the death signal covers.
 *   - The death signal fires when the *thread* that forked exits, not the process. The rule:
 *     a thread that starts a child outlives it. spawn_run keeps it by construction: it forks in
 *     the calling thread and returns only after the child is reaped. Callers today: the main
 *     thread (runners, fio rounds, purge, write cache, hostinfo) and plot.c's render threads,
 *     which end only after their spawn_run returned. Do not fork anywhere else, and do not add
 *     an asynchronous start whose child a shorter-lived thread would leave behind.
 *
 * How a child ends, on every path:
 *   - it exits: whatever is left in its process group is SIGKILLed, then it is reaped;
 *   - SIGINT/SIGTERM (the stop flag, spawn_watch_stop): a SPAWN_STOPPABLE child gets SIGTERM
 *     (to its group) within SPAWN_TICK_MS of the flag going up, SIGKILL SPAWN_GRACE_MS later,
 *     and is reaped; r->stopped says so. Other children run to their end: they are commands
 *     that change a device's state (purge, write cache) and must not be cut between steps.
 *     A second signal ends ptsbench the usual way (SA_RESETHAND); the death signal then ends
 *     them;
 *   - exit() from anywhere: an atexit handler (installed at the first spawn) refuses new
 *     children and runs spawn_kill_all;
 *   - SIGKILL or a crash of ptsbench: the death signal only. Nothing can wait there, so a
 *     child may outlive ptsbench by the few milliseconds its own death takes.
 * A forked copy of ptsbench (a test's fork()) never signals its parent's children. */
#ifndef PTSBENCH_SPAWN_H
#define PTSBENCH_SPAWN_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define SPAWN_MAX_LIVE  64     /* children alive at once (plot runs up to 8 gnuplots) */
#define SPAWN_TICK_MS   50     /* how often a waiting spawn looks at the stop flag */
#define SPAWN_GRACE_MS  2000   /* SIGTERM to SIGKILL */

struct spawn_result {
    int status;      /* exit status 0..255, or 128+signal */
    bool stopped;    /* ptsbench ended it (the stop flag, spawn_kill_all, the timeout), or
                        never started it */
    bool timed_out;  /* spawn_run_timeout's limit ended it (stopped is set too) */
    char *out;       /* all of stdout, NUL-terminated (never NULL after success) */
    size_t out_len;
    char *err;       /* all of stderr */
    size_t err_len;
};

/* Run argv (argv[0] looked up in PATH) with stdin from /dev/null, capturing stdout and stderr
 * whole.  Returns 0 (then r->status tells how it ended; 127 = could not exec), or -1 when it
 * could not be started (errno set: EAGAIN with SPAWN_MAX_LIVE children alive, ECANCELED once
 * the process is exiting).  Free with spawn_result_free. */
int spawn_run(char *const argv[], struct spawn_result *r);
void spawn_result_free(struct spawn_result *r);

/* SPAWN_STOPPABLE: the stop flag ends the child (SIGTERM, then SIGKILL). For programs whose
 * work can be cut anywhere (a fio round). When the flag is already up the program is not
 * started: 0 is returned with r->stopped set, r->status 128+SIGTERM and no output. */
#define SPAWN_STOPPABLE (1u << 0)
int spawn_run_flags(char *const argv[], unsigned flags, struct spawn_result *r);

/* As spawn_run_flags, and a child still running timeout_ms after its start is ended as a stop
 * ends it (SIGTERM to its group, SIGKILL SPAWN_GRACE_MS later), with r->timed_out set. For
 * programs that may hang (a headless browser). timeout_ms 0: no limit. */
int spawn_run_timeout(char *const argv[], unsigned flags, unsigned timeout_ms,
                      struct spawn_result *r);

/* Convenience: as spawn_run, keeping at most outlen-1 / errlen-1 bytes (errbuf may be NULL).
 * Returns the exit status, or -1 when the program could not be started. */
int spawn_capture(char *const argv[], char *out, size_t outlen, char *errbuf, size_t errlen);

/* The flag that means "stop" (the command layer's SIGINT/SIGTERM flag); NULL: none. Set it
 * before starting children. */
void spawn_watch_stop(volatile sig_atomic_t *flag);

/* End every live child: SIGTERM to each group, up to SPAWN_GRACE_MS for them to exit (the
 * threads that started them see it and reap them: a child leaves the registry once it has
 * exited, just before its reaping), then SIGKILL and up to 1 s more. Returns how many have
 * still not exited (0 normally). Not from a signal handler: it waits for other threads. */
unsigned spawn_kill_all(void);

/* Send sig to every live child's group and return at once. Async-signal-safe: for a signal
 * handler that is about to end the process. */
void spawn_signal_all(int sig);

/* Several children at once (spawn_run_many), each with its output delivered line by line as it
 * comes: for commands that run copies of ptsbench side by side. With SPAWN_SYNC each child
 * also gets one end of a socket pair as file descriptor SPAWN_SYNC_FD (3): what it writes
 * there arrives, line by line, at ops->msg, which may answer with spawn_many_send. Children
 * end as spawn_run's do (SPAWN_STOPPABLE: the stop flag sends SIGTERM, SIGKILL after the
 * grace); each is reaped as soon as it has exited and its output is read, and ops->exited is
 * told its status. Returns when every child is reaped: 0, or -1 when one could not be started
 * (errno; those started are ended and reaped); status[i] is each child's exit status
 * (128+SIGTERM for one never started). The calling thread must outlive the call (it does:
 * the call returns only after the reaping). */
#define SPAWN_SYNC    (1u << 1)
#define SPAWN_SYNC_FD 3
struct spawn_many;
struct spawn_many_ops {
    void (*line)(void *ctx, unsigned i, int stream, const char *line);   /* stream 1 or 2 */
    void (*msg)(struct spawn_many *m, void *ctx, unsigned i, const char *line);
    void (*exited)(struct spawn_many *m, void *ctx, unsigned i, int status);
};
int spawn_run_many(unsigned n, char *const *const argv[], unsigned flags,
                   const struct spawn_many_ops *ops, void *ctx, int *status);
/* Write text to child i's sync socket (from ops->msg or ops->exited). 0, or -1 when it is
 * closed. */
int spawn_many_send(struct spawn_many *m, unsigned i, const char *text);

/* The live children's pids (up to max of them in pids, which may be NULL); returns how many
 * there are. */
unsigned spawn_children(pid_t *pids, unsigned max);

#endif
