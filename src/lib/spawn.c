/* spawn.c — fork/exec with captured output, and the registry of live children (spawn.h).
 *
 * The registry is a fixed table of slots, lock-free so that spawn_signal_all may run in a
 * signal handler. A slot holds a child's pid from just after fork until just before it is
 * reaped; `busy` counts signallers reading it. The owner clears the pid, then waits for busy
 * to drop to 0, then reaps: a signaller that saw the pid signals it while it is still
 * unreaped, so a pid recycled by the kernel is never signalled. (Sequentially consistent
 * atomics: either the signaller sees pid 0 or the owner sees busy > 0.) */
#include "lib/spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lib/util.h"

#define SPAWN_DRAIN_MS  500    /* after the child exits, how long a pipe another process
                                  (out of the group) holds open is still read */
#define SPAWN_REAP_MS   1000   /* after SIGKILL, how long spawn_kill_all waits */

struct slot {
    atomic_int pid;    /* 0 free, -1 reserved (fork under way), > 0 a child not yet reaped */
    atomic_int busy;   /* signallers reading pid */
};

static struct slot slots[SPAWN_MAX_LIVE];
static atomic_int registry_pid;          /* the process whose children the slots list */
static atomic_uint kill_gen;             /* bumped by spawn_kill_all */
static atomic_bool closed;               /* exiting: no new child */
static _Atomic(volatile sig_atomic_t *) stop_flag;
static pthread_once_t exit_once = PTHREAD_ONCE_INIT;

/* ---- the registry ----------------------------------------------------------------------- */

/* The slots belong to this process (not to the parent of a fork()ed copy). */
static bool registry_mine(void)
{
    return atomic_load(&registry_pid) == (int)getpid();
}

static void spawn_at_exit(void)
{
    if (!registry_mine())
        return;
    atomic_store(&closed, true);
    spawn_kill_all();
}

static void install_at_exit(void)
{
    atexit(spawn_at_exit);
}

/* A free slot, reserved (-1), with kill_gen as it was before the reservation was checked
 * against `closed` in *gen; NULL when all are taken or the process is exiting. */
static struct slot *slot_reserve(unsigned *gen)
{
    int self = (int)getpid();
    int owner = atomic_load(&registry_pid);
    if (owner != self && atomic_compare_exchange_strong(&registry_pid, &owner, self) &&
        owner != 0) {
        /* a fork()ed copy: the slots list its parent's children, which are not its own */
        for (unsigned i = 0; i < SPAWN_MAX_LIVE; i++) {
            atomic_store(&slots[i].pid, 0);
            atomic_store(&slots[i].busy, 0);
        }
        atomic_store(&closed, false);
    }
    pthread_once(&exit_once, install_at_exit);
    for (unsigned i = 0; i < SPAWN_MAX_LIVE; i++) {
        int expect = 0;
        if (!atomic_compare_exchange_strong(&slots[i].pid, &expect, -1))
            continue;
        /* kill_gen before closed: a spawn_kill_all at exit either refuses this child here or
         * is seen later by its owner (kill_gen != *gen), which then stops it itself */
        *gen = atomic_load(&kill_gen);
        if (atomic_load(&closed)) {
            atomic_store(&slots[i].pid, 0);
            errno = ECANCELED;
            return NULL;
        }
        return &slots[i];
    }
    errno = EAGAIN;
    return NULL;
}

/* The child is about to be reaped: no signaller may use its pid after this. */
static void slot_release(struct slot *s)
{
    atomic_store(&s->pid, 0);
    while (atomic_load(&s->busy) != 0)
        sched_yield();
}

/* sig to the child's process group (to the child alone if the group is not there yet). */
static void group_signal(pid_t pid, int sig)
{
    if (kill(-pid, sig) != 0 && errno == ESRCH)
        kill(pid, sig);
}

/* Signal every live child's group; returns how many were signalled. Async-signal-safe. */
static unsigned signal_all(int sig)
{
    if (!registry_mine())
        return 0;
    int saved = errno;
    unsigned n = 0;
    for (unsigned i = 0; i < SPAWN_MAX_LIVE; i++) {
        struct slot *s = &slots[i];
        atomic_fetch_add(&s->busy, 1);
        int pid = atomic_load(&s->pid);
        if (pid > 0) {
            group_signal(pid, sig);
            n++;
        }
        atomic_fetch_sub(&s->busy, 1);
    }
    errno = saved;
    return n;
}

void spawn_signal_all(int sig)
{
    signal_all(sig);
}

unsigned spawn_children(pid_t *pids, unsigned max)
{
    if (!registry_mine())
        return 0;
    unsigned n = 0;
    for (unsigned i = 0; i < SPAWN_MAX_LIVE; i++) {
        int pid = atomic_load(&slots[i].pid);
        if (pid == 0)
            continue;
        if (pids && n < max)
            pids[n] = pid;
        n++;
    }
    return n;
}

static void sleep_ms(unsigned ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
    }
}

/* Wait up to ms for every slot to be free (the owners reap); returns how many are not. */
static unsigned wait_empty(unsigned ms)
{
    uint64_t end = now_mono_ns() + (uint64_t)ms * 1000000ull;
    unsigned n;
    while ((n = spawn_children(NULL, 0)) != 0 && now_mono_ns() < end)
        sleep_ms(10);
    return n;
}

unsigned spawn_kill_all(void)
{
    if (!registry_mine())
        return 0;
    atomic_fetch_add(&kill_gen, 1);   /* owners whose child was still forking stop it too */
    if (signal_all(SIGTERM) == 0 && spawn_children(NULL, 0) == 0)
        return 0;
    if (wait_empty(SPAWN_GRACE_MS) == 0)
        return 0;
    signal_all(SIGKILL);
    return wait_empty(SPAWN_REAP_MS);
}

void spawn_watch_stop(volatile sig_atomic_t *flag)
{
    atomic_store(&stop_flag, flag);
}

static bool stop_requested(void)
{
    volatile sig_atomic_t *f = atomic_load(&stop_flag);
    return f && *f;
}

/* ---- one child -------------------------------------------------------------------------- */

struct child {
    pid_t pid;
    struct slot *slot;
    bool stoppable;
    unsigned gen0;       /* kill_gen when it was started */
    uint64_t term_ns;    /* when SIGTERM was sent, 0: not yet */
    bool killed;         /* SIGKILL sent */
    bool stopped;
    bool exited;         /* exited, not yet reaped */
    uint64_t exit_ns;
    uint64_t deadline_ns;   /* spawn_run_timeout: when it is ended, 0: never */
    bool timed_out;
};

/* In the child, between fork and exec: async-signal-safe calls only (the parent may have
 * threads). */
static void child_exec(char *const argv[], pid_t parent, int out_fd, int err_fd, int sync_fd)
{
    /* Die with ptsbench; if it is already gone, the death signal will never come. */
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent)
        _exit(127);
    setpgid(0, 0);
    struct sigaction dfl;
    memset(&dfl, 0, sizeof(dfl));
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    sigaction(SIGINT, &dfl, NULL);
    sigaction(SIGTERM, &dfl, NULL);
    sigaction(SIGPIPE, &dfl, NULL);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    int devnull = open("/dev/null", O_RDONLY | O_CLOEXEC);   /* dup2 clears it on fd 0 */
    if (devnull >= 0)
        dup2(devnull, STDIN_FILENO);
    dup2(out_fd, STDOUT_FILENO);
    dup2(err_fd, STDERR_FILENO);
    if (sync_fd >= 0) {   /* spawn_run_many's channel, as fd SPAWN_SYNC_FD (kept over exec) */
        if (sync_fd == SPAWN_SYNC_FD)
            fcntl(SPAWN_SYNC_FD, F_SETFD, 0);
        else
            dup2(sync_fd, SPAWN_SYNC_FD);
    }
    execvp(argv[0], argv);
    _exit(127);
}

/* The stop flag (stoppable children) or spawn_kill_all: SIGTERM, SIGKILL after the grace. */
static void child_check_stop(struct child *c)
{
    bool late = c->deadline_ns && now_mono_ns() >= c->deadline_ns;
    bool want = (c->stoppable && stop_requested()) || atomic_load(&kill_gen) != c->gen0 || late;
    if (!want || c->exited)
        return;
    if (late && !c->term_ns)
        c->timed_out = true;
    c->stopped = true;
    uint64_t now = now_mono_ns();
    if (!c->term_ns) {
        group_signal(c->pid, SIGTERM);
        c->term_ns = now;
    } else if (!c->killed && now - c->term_ns >= SPAWN_GRACE_MS * 1000000ull) {
        group_signal(c->pid, SIGKILL);
        c->killed = true;
    }
}

/* Has the child exited (it is not reaped: its pid and group stay ours)? When it has, what is
 * left of its group is killed: nothing it started outlives it. */
static bool child_check_exit(struct child *c)
{
    if (c->exited)
        return true;
    siginfo_t si;
    memset(&si, 0, sizeof(si));
    if (waitid(P_PID, (id_t)c->pid, &si, WEXITED | WNOHANG | WNOWAIT) != 0 || si.si_pid != c->pid)
        return false;
    c->exited = true;
    c->exit_ns = now_mono_ns();
    kill(-c->pid, SIGKILL);   /* the leader is a zombie: this reaches only what it left */
    return true;
}

struct growbuf {
    char *data;
    size_t len, cap;
};

static void grow_append(struct growbuf *b, const char *data, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        b->cap = (b->len + n + 1) * 2;
        b->data = xrealloc(b->data, b->cap);
    }
    memcpy(b->data + b->len, data, n);
    b->len += n;
    b->data[b->len] = '\0';
}

/* Read both pipes to their end (or until SPAWN_DRAIN_MS after the child exited, when
 * something outside its group holds them), looking at the stop every SPAWN_TICK_MS. */
static void child_read(struct child *c, int fd_out, int fd_err, struct growbuf *bufs)
{
    struct pollfd fds[2] = {{fd_out, POLLIN, 0}, {fd_err, POLLIN, 0}};
    int open_fds = 2;
    char chunk[8192];
    while (open_fds > 0) {
        int n = poll(fds, 2, SPAWN_TICK_MS);
        if (n < 0 && errno != EINTR)
            break;
        for (int i = 0; n > 0 && i < 2; i++) {
            if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            ssize_t got = read(fds[i].fd, chunk, sizeof(chunk));
            if (got < 0 && errno == EINTR)
                continue;
            if (got <= 0) {
                close(fds[i].fd);
                fds[i].fd = -1;
                open_fds--;
                continue;
            }
            grow_append(&bufs[i], chunk, (size_t)got);
        }
        child_check_stop(c);
        if (child_check_exit(c) && now_mono_ns() - c->exit_ns >= SPAWN_DRAIN_MS * 1000000ull)
            break;
    }
    for (int i = 0; i < 2; i++)
        if (fds[i].fd >= 0)
            close(fds[i].fd);
}

/* Wait for the child to exit (its pipes are closed), still looking at the stop; then reap it.
 * Returns its wait status. */
static int child_reap(struct child *c)
{
    for (unsigned ms = 1; !child_check_exit(c); ms = ms < SPAWN_TICK_MS ? ms * 2 : SPAWN_TICK_MS) {
        child_check_stop(c);
        sleep_ms(ms);
    }
    slot_release(c->slot);
    int st = 0;
    while (waitpid(c->pid, &st, 0) < 0 && errno == EINTR) {
    }
    return st;
}

int spawn_run_timeout(char *const argv[], unsigned flags, unsigned timeout_ms,
                      struct spawn_result *r)
{
    memset(r, 0, sizeof(*r));
    struct child c = {.stoppable = (flags & SPAWN_STOPPABLE) != 0};
    if (c.stoppable && stop_requested()) {
        r->out = xcalloc(1, 1);
        r->err = xcalloc(1, 1);
        r->status = 128 + SIGTERM;
        r->stopped = true;
        return 0;
    }
    c.slot = slot_reserve(&c.gen0);
    if (!c.slot)
        return -1;
    int po[2], pe[2];
    if (pipe2(po, O_CLOEXEC) < 0) {
        int saved = errno;
        atomic_store(&c.slot->pid, 0);
        errno = saved;
        return -1;
    }
    if (pipe2(pe, O_CLOEXEC) < 0) {
        int saved = errno;
        close(po[0]);
        close(po[1]);
        atomic_store(&c.slot->pid, 0);
        errno = saved;
        return -1;
    }
    fflush(NULL);
    pid_t parent = getpid();
    c.pid = fork();
    if (c.pid < 0) {
        int saved = errno;
        close(po[0]); close(po[1]); close(pe[0]); close(pe[1]);
        atomic_store(&c.slot->pid, 0);
        errno = saved;
        return -1;
    }
    if (c.pid == 0)
        child_exec(argv, parent, po[1], pe[1], -1);
    setpgid(c.pid, c.pid);   /* as the child does: the group exists before anyone signals it */
    if (timeout_ms)
        c.deadline_ns = now_mono_ns() + (uint64_t)timeout_ms * 1000000ull;
    atomic_store(&c.slot->pid, (int)c.pid);
    close(po[1]);
    close(pe[1]);

    struct growbuf bufs[2] = {{xcalloc(1, 1), 0, 1}, {xcalloc(1, 1), 0, 1}};
    child_read(&c, po[0], pe[0], bufs);
    int st = child_reap(&c);
    r->out = bufs[0].data;
    r->out_len = bufs[0].len;
    r->err = bufs[1].data;
    r->err_len = bufs[1].len;
    r->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
    r->stopped = c.stopped || (atomic_load(&kill_gen) != c.gen0 && WIFSIGNALED(st));
    r->timed_out = c.timed_out;
    return 0;
}

int spawn_run_flags(char *const argv[], unsigned flags, struct spawn_result *r)
{
    return spawn_run_timeout(argv, flags, 0, r);
}

int spawn_run(char *const argv[], struct spawn_result *r)
{
    return spawn_run_flags(argv, 0, r);
}

void spawn_result_free(struct spawn_result *r)
{
    free(r->out);
    free(r->err);
    r->out = r->err = NULL;
    r->out_len = r->err_len = 0;
}

int spawn_capture(char *const argv[], char *out, size_t outlen, char *errbuf, size_t errlen)
{
    struct spawn_result r;
    if (out && outlen)
        out[0] = '\0';
    if (errbuf && errlen)
        errbuf[0] = '\0';
    if (spawn_run(argv, &r) != 0)
        return -1;
    if (out && outlen)
        str_copy(out, outlen, r.out);
    if (errbuf && errlen)
        str_copy(errbuf, errlen, r.err);
    int status = r.status;
    spawn_result_free(&r);
    return status;
}

/* ---- several children at once ----------------------------------------------------------- */

struct linebuf {
    char data[4096];
    size_t len;
};

struct spawn_many {
    unsigned n;
    struct child *c;
    int (*fd)[3];             /* stdout, stderr, sync (the parent's ends; -1 once closed) */
    struct linebuf (*lb)[3];
    bool *reaped;
    const struct spawn_many_ops *ops;
    void *ctx;
};

/* Whole lines of buf (and, at the end of the stream, what is left) to the callbacks. */
static void many_lines(struct spawn_many *m, unsigned i, int k, const char *data, size_t n,
                       bool eof)
{
    struct linebuf *b = &m->lb[i][k];
    for (size_t j = 0; j <= n; j++) {
        const bool end = j == n;
        if (end && !(eof && b->len))
            break;
        if (!end && data[j] != '\n' && b->len < sizeof(b->data) - 1) {
            b->data[b->len++] = data[j];
            continue;
        }
        b->data[b->len] = '\0';
        if (k < 2 && m->ops->line)
            m->ops->line(m->ctx, i, k + 1, b->data);
        else if (k == 2 && m->ops->msg)
            m->ops->msg(m, m->ctx, i, b->data);
        b->len = 0;
        if (!end && data[j] != '\n')
            b->data[b->len++] = data[j];   /* a line longer than the buffer: cut, not lost */
    }
}

int spawn_many_send(struct spawn_many *m, unsigned i, const char *text)
{
    if (i >= m->n || m->fd[i][2] < 0)
        return -1;
    size_t len = strlen(text), off = 0;
    while (off < len) {
        ssize_t w = write(m->fd[i][2], text + off, len - off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        off += (size_t)w;
    }
    return 0;
}

static void many_close(struct spawn_many *m, unsigned i, int k)
{
    if (m->fd[i][k] >= 0) {
        close(m->fd[i][k]);
        m->fd[i][k] = -1;
    }
}

/* Start child i: pipes for stdout and stderr, and a socket pair when sync. 0 or -1. */
static int many_start(struct spawn_many *m, unsigned i, char *const argv[], bool sync,
                      bool stoppable)
{
    struct child *c = &m->c[i];
    memset(c, 0, sizeof(*c));
    c->stoppable = stoppable;
    c->slot = slot_reserve(&c->gen0);
    if (!c->slot)
        return -1;
    int po[2] = {-1, -1}, pe[2] = {-1, -1}, ps[2] = {-1, -1};
    if (pipe2(po, O_CLOEXEC) < 0 || pipe2(pe, O_CLOEXEC) < 0 ||
        (sync && socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ps) < 0)) {
        int saved = errno;
        for (int k = 0; k < 2; k++) {
            if (po[k] >= 0) close(po[k]);
            if (pe[k] >= 0) close(pe[k]);
            if (ps[k] >= 0) close(ps[k]);
        }
        atomic_store(&c->slot->pid, 0);
        errno = saved;
        return -1;
    }
    fflush(NULL);
    pid_t parent = getpid();
    c->pid = fork();
    if (c->pid < 0) {
        int saved = errno;
        close(po[0]); close(po[1]); close(pe[0]); close(pe[1]);
        if (sync) {
            close(ps[0]);
            close(ps[1]);
        }
        atomic_store(&c->slot->pid, 0);
        errno = saved;
        return -1;
    }
    if (c->pid == 0)
        child_exec(argv, parent, po[1], pe[1], sync ? ps[1] : -1);
    setpgid(c->pid, c->pid);
    atomic_store(&c->slot->pid, (int)c->pid);
    close(po[1]);
    close(pe[1]);
    if (sync)
        close(ps[1]);
    m->fd[i][0] = po[0];
    m->fd[i][1] = pe[0];
    m->fd[i][2] = sync ? ps[0] : -1;
    return 0;
}

/* Child i has exited and its output is read (or the drain time is over): reap it. */
static void many_reap(struct spawn_many *m, unsigned i, int *status)
{
    for (int k = 0; k < 3; k++) {
        if (m->fd[i][k] >= 0 && k < 2)
            many_lines(m, i, k, "", 0, true);
        many_close(m, i, k);
    }
    int st = child_reap(&m->c[i]);
    m->reaped[i] = true;
    status[i] = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
    if (m->ops->exited)
        m->ops->exited(m, m->ctx, i, status[i]);
}

int spawn_run_many(unsigned n, char *const *const argv[], unsigned flags,
                   const struct spawn_many_ops *ops, void *ctx, int *status)
{
    if (n == 0)
        return 0;
    if (n > SPAWN_MAX_LIVE) {
        errno = EAGAIN;
        return -1;
    }
    const bool sync = (flags & SPAWN_SYNC) != 0, stoppable = (flags & SPAWN_STOPPABLE) != 0;
    struct spawn_many m = {.n = n, .ops = ops, .ctx = ctx};
    m.c = xcalloc(n, sizeof(*m.c));
    m.fd = xcalloc(n, sizeof(*m.fd));
    m.lb = xcalloc(n, sizeof(*m.lb));
    m.reaped = xcalloc(n, sizeof(*m.reaped));
    for (unsigned i = 0; i < n; i++) {
        m.fd[i][0] = m.fd[i][1] = m.fd[i][2] = -1;
        status[i] = 128 + SIGTERM;
    }
    int rc = 0;
    unsigned started = 0;
    for (; started < n; started++) {
        if (stoppable && stop_requested()) {
            m.reaped[started] = true;   /* never started: stopped */
            continue;
        }
        if (many_start(&m, started, argv[started], sync, stoppable) != 0) {
            rc = -1;
            break;
        }
    }
    if (rc != 0) {   /* end those already started, as a stop would */
        for (unsigned i = started; i < n; i++)
            m.reaped[i] = true;
        for (unsigned i = 0; i < started; i++)
            if (!m.reaped[i])
                group_signal(m.c[i].pid, SIGTERM);
    }
    struct pollfd *pfd = xcalloc(3 * (size_t)n, sizeof(*pfd));
    char chunk[8192];
    for (;;) {
        unsigned live = 0;
        for (unsigned i = 0; i < n; i++)
            live += !m.reaped[i];
        if (!live)
            break;
        for (unsigned i = 0; i < n; i++)
            for (int k = 0; k < 3; k++)
                pfd[3 * i + k] = (struct pollfd){m.fd[i][k], POLLIN, 0};
        int pr = poll(pfd, 3 * (nfds_t)n, SPAWN_TICK_MS);
        if (pr < 0 && errno != EINTR)
            break;
        for (unsigned i = 0; pr > 0 && i < n; i++)
            for (int k = 0; k < 3; k++) {
                if (pfd[3 * i + k].fd < 0 ||
                    !(pfd[3 * i + k].revents & (POLLIN | POLLHUP | POLLERR)))
                    continue;
                ssize_t got = read(m.fd[i][k], chunk, sizeof(chunk));
                if (got < 0 && errno == EINTR)
                    continue;
                if (got <= 0) {
                    many_lines(&m, i, k, "", 0, true);
                    many_close(&m, i, k);
                    continue;
                }
                many_lines(&m, i, k, chunk, (size_t)got, false);
            }
        for (unsigned i = 0; i < n; i++) {
            if (m.reaped[i])
                continue;
            struct child *c = &m.c[i];
            child_check_stop(c);
            if (!child_check_exit(c))
                continue;
            const bool drained = m.fd[i][0] < 0 && m.fd[i][1] < 0;
            if (drained || now_mono_ns() - c->exit_ns >= SPAWN_DRAIN_MS * 1000000ull)
                many_reap(&m, i, status);
        }
    }
    free(pfd);
    free(m.c);
    free(m.fd);
    free(m.lb);
    free(m.reaped);
    return rc;
}
