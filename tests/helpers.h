/* helpers.h — shared by the integration tests: run programs (fork/exec, no shell),
 * temporary directories, reading results, and skipping with a visible reason. */
#ifndef PTSBENCH_TEST_HELPERS_H
#define PTSBENCH_TEST_HELPERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

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

/* One `ptsbench run` of a workload into DIR/NAME, what most tests of a key or a job file do:
 *   ptsbench run --target T --workload W --rounds R (--round-time S | --round-bytes B)
 *                [-q] -o DIR/NAME [EXTRA...]
 * W is inline ("rw=randread,bs=4k") or a job file's path. Everything in run_opts may be left
 * zero: the simulated drive sim:zdrive-6300-1.6t, 1 round of 1 s, --quiet unless stdout is
 * kept. Returns DIR/NAME/results.json when the run exits 0 (the caller json_object_put()s);
 * NULL when it exits otherwise, cannot start, or writes no results. A run that fails when
 * no one asked for its stderr has its stderr printed. */
#define TEST_SIM_TARGET "sim:zdrive-6300-1.6t"
struct run_opts {
    const char *target;            /* NULL: TEST_SIM_TARGET */
    const char *rounds;            /* NULL: "1" */
    const char *round_time;        /* NULL: "1" (unless round_bytes) */
    const char *round_bytes;       /* --round-bytes instead of --round-time */
    const char *const *extra;      /* more arguments, NULL-terminated (NULL: none) */
    bool keep_out, keep_err;       /* keep stdout in out, stderr in err (caller frees) */
    /* filled in: */
    int status;                    /* the exit status; -1 when it could not be started */
    char *out, *err;
    double wall_s;                 /* the command's wall-clock time */
};
struct json_object *run_workload(const char *dir, const char *name, const char *workload,
                                 struct run_opts *o);

/* DIR/NAME.fio holding text, its path in path (len bytes); false when it cannot be written. */
bool write_job_file(const char *dir, const char *name, const char *text, char *path, size_t len);

/* Run several ptsbench commands at once (fork/exec, no shell): cmds[k] = {NAME, ARG..., NULL}
 * runs `ptsbench ARG... -o DIR/NAME` with its stdout and stderr in DIR/NAME.log. Waits for all;
 * returns -1 when every one exited 0, else the index of the first that did not (with its log
 * printed). For tests that need several simulated results: a 2-core machine runs two at once. */
int ptsbench_parallel(const char *const *const *cmds, size_t n, const char *dir);

/* CLOCK_MONOTONIC in ns; a sleep that resumes after signals; whether `fio --version` runs and
 * names fio (printed once as "SKIP: fio is not installed" when it does not). */
uint64_t test_now_ns(void);
void test_sleep_ms(unsigned ms);
bool test_have_fio(void);
/* Whether `gnuplot --version` runs (printed once as "SKIP: gnuplot is not installed" when not). */
bool test_have_gnuplot(void);

/* $PTSBENCH_DATADIR/tests/fixtures/PATH (./tests/fixtures/PATH without it), in one of 16
 * rotating buffers: copy what must outlive 15 more calls. */
const char *test_fixture_path(const char *path);

/* Run ptsbench with args (NULL-terminated, without the program), output in *r (the caller
 * frees); the exit status, or -1 when it could not be started. */
int ptsbench_run(struct cmd_result *r, const char *const *args);

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

/* Output checks: the lines of text that start with prefix; whether s is exactly one line
 * (non-empty, ending in its only newline: "one clear line"). */
unsigned count_prefixed_lines(const char *text, const char *prefix);
bool is_one_line(const char *s);

/* zram: devices of our own, never an existing one. zram_create() makes a new device
 * (/sys/class/zram-control/hot_add), sets its disksize to `size` (e.g. "1G"; zram's logical
 * sectors are 4096 bytes) and puts "/dev/zramN" in devpath. false, with a printed
 * "SKIP: reason", when the machine cannot (not root, no zram module, hot_add or disksize
 * refused). Several may exist at once (up to ZRAM_HELPERS_MAX per process).
 * zram_remove() resets and hot_removes a device this process created; any other path is
 * left alone (a WARNING says so). Both retry for a few seconds while the device is busy
 * (udev probes it for a moment after every close).
 *
 * Every device is also removed when the process ends without removing it:
 *   - exit, including a test program's return after a failed cmocka assertion (cmocka longjmps
 *     out of the test, and catches SIGSEGV/SIGBUS/SIGFPE/SIGILL inside a test): an atexit handler;
 *   - SIGINT, SIGTERM, SIGHUP, SIGQUIT and SIGABRT (abort(), glibc's heap checks): a handler
 *     removes the devices, then the signal kills the process as it would have (the handler is
 *     installed only where the signal's disposition was the default);
 *   - not SIGKILL, a crash outside a cmocka test, _exit() or a sanitizer's exit: nothing runs in
 *     the process. For these, when $PTSBENCH_TEST_ZRAM_DIR is set (tests/run-tests.sh sets it),
 *     each device is recorded there as a file "zramN" holding "N DISKSEQ PID" from hot_add until
 *     it is removed; the runner removes what is still recorded after each program, and only
 *     while /sys/block/zramN/diskseq still names that instance. A device is unrecorded for the
 *     few instructions between hot_add returning and the record being written.
 * Only the process that created a device removes it: a fork()ed child that exits leaves its
 * parent's devices alone. A device still open by another process (a ptsbench child that did not
 * get the signal) cannot be removed; it is reported and left to the runner. */
#define ZRAM_HELPERS_MAX 16
bool zram_create(const char *size, char *devpath, size_t len);
void zram_remove(const char *devpath);
/* Remove every device this process created and still has. */
void zram_remove_all(void);
/* Read /sys/block/zramN/ATTR (e.g. "mm_stat", "stat", "disksize") of devpath into buf,
 * NUL-terminated. false when it cannot be read. */
bool zram_attr(const char *devpath, const char *attr, char *buf, size_t len);

/* Older names: zram_setup() is zram_create(); zram_teardown() is zram_remove_all(). */
bool zram_setup(const char *size, char *devpath, size_t len);
void zram_teardown(void);

bool is_root(void);
/* Write val to a sysfs or procfs file in one write(): 0, or the errno of the failure. */
int sys_write(const char *path, const char *val);

/* The tree's simulated-drive presets: {"$PTSBENCH_DATADIR/profiles/devices", NULL} (the test
 * runner sets PTSBENCH_DATADIR to the repository root), else {"profiles/devices", NULL}. */
const char *const *test_device_dirs(void);


/* A fleet of fio servers on one machine, for `ptsbench run --remote` (issue 50):
 *
 *   fio_fleet_start(f, n, dir, size): host k (0..n-1) is `fio --server=ip:127.0.0.(k+1),PORT`
 *   (PORT a free one found by bind(port 0) on that address; distinct addresses because fio names
 *   a server's logs by hostname without the port, so two servers on one address collide). Each
 *   server is a child of the test that, before exec: setpgid(0, 0) (its own process group, so
 *   the connection and job processes fio forks die with it), PR_SET_PDEATHSIG SIGKILL (the
 *   listener dies with the test), unshare(CLONE_NEWNS), mount("/", MS_REC|MS_PRIVATE) (nothing
 *   leaks back to the machine's namespace), then a bind mount of its own backing file
 *   DIR/hostK.img (size bytes, sparse) onto the ONE shared path DIR/shared.img. So the same
 *   --target DIR/shared.img is a different file on each "host"; outside, shared.img stays empty.
 *   Stdout and stderr go to DIR/hostK.log. Ready when connect() to its address succeeds (polled
 *   every 20 ms, 5 s deadline), everything by fork/exec, no shell.
 *   Returns 0 when all n are listening; 1 when this machine cannot (no fio, not root, unshare or
 *   mount refused): the reason is in f->why, for a cmocka skip; -1 on any other failure (a
 *   server that exits or does not listen): the reason in f->why, the started ones stopped.
 *   Root is needed for unshare(CLONE_NEWNS) and the bind mount.
 *
 *   fio_fleet_stop_host(f, k): kill(-pgid, SIGKILL) and waitpid: host k is gone at once, as a
 *   machine that loses power (its connections close: fio's client sees EOF).
 *   fio_fleet_stop_host_when(f, k, dir, suffix, count, delay_ms): a forked watcher that polls
 *   dir (every 10 ms, up to 60 s) until it holds count files whose names end in suffix, sleeps
 *   delay_ms, then kills host k's process group; returns the watcher's pid (-1 when fork fails).
 *   fio_fleet_stop reaps it. E.g. "the 2nd round's job file exists in OUT/fio" = round 2 started.
 *   fio_fleet_stop(f): every host and watcher killed and reaped; the backing files are left for
 *   the test to read (they live in dir).
 * Cleanup when the test fails: every started server is also killed by an atexit handler (a
 * failed cmocka assertion returns through it), and by PR_SET_PDEATHSIG when the test is killed
 * (then fio's connection children, in the server's group, end with their job: at most a round).
 * Limits: FIO_FLEET_MAX hosts; addresses 127.0.0.1 .. 127.0.0.FIO_FLEET_MAX only. */
#define FIO_FLEET_MAX 8
struct fio_fleet_host {
    char addr[16];            /* "127.0.0.K" */
    int port;
    char remote[32];          /* "127.0.0.K:PORT", what --remote takes */
    char backing[4096];       /* DIR/hostK.img: what this host sees at the shared path */
    pid_t pid;                /* the server = its process group; 0 once stopped */
};
struct fio_fleet {
    unsigned n;
    char shared[4096];        /* DIR/shared.img: the one target path, a different file per host */
    char why[512];            /* why it could not start */
    pid_t watcher;            /* fio_fleet_stop_host_when's, 0 when none */
    struct fio_fleet_host host[FIO_FLEET_MAX];
};
/* A TCP port nobody listens on at addr (an IPv4 address) right now, found by bind(port 0); -1
 * when there is none. Another process may take it before the caller uses it. */
int test_free_port(const char *addr);
int fio_fleet_start(struct fio_fleet *f, unsigned n, const char *dir, long long size);
void fio_fleet_stop_host(struct fio_fleet *f, unsigned k);
pid_t fio_fleet_stop_host_when(struct fio_fleet *f, unsigned k, const char *dir,
                               const char *suffix, unsigned count, unsigned delay_ms);
void fio_fleet_stop(struct fio_fleet *f);

#endif
