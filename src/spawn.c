/* spawn.c — fork/exec with captured output. */
#include "spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util.h"

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

int spawn_run(char *const argv[], struct spawn_result *r)
{
    int po[2], pe[2];
    memset(r, 0, sizeof(*r));
    if (pipe2(po, O_CLOEXEC) < 0)
        return -1;
    if (pipe2(pe, O_CLOEXEC) < 0) {
        close(po[0]);
        close(po[1]);
        return -1;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        int saved = errno;
        close(po[0]); close(po[1]); close(pe[0]); close(pe[1]);
        errno = saved;
        return -1;
    }
    if (pid == 0) {
        int devnull = open("/dev/null", O_RDONLY);
        if (devnull >= 0)
            dup2(devnull, STDIN_FILENO);
        dup2(po[1], STDOUT_FILENO);
        dup2(pe[1], STDERR_FILENO);
        execvp(argv[0], argv);
        _exit(127);
    }
    close(po[1]);
    close(pe[1]);
    struct growbuf bufs[2] = {{xcalloc(1, 1), 0, 1}, {xcalloc(1, 1), 0, 1}};
    struct pollfd fds[2] = {{po[0], POLLIN, 0}, {pe[0], POLLIN, 0}};
    int open_fds = 2;
    char chunk[8192];
    while (open_fds > 0) {
        if (poll(fds, 2, -1) < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        for (int i = 0; i < 2; i++) {
            if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            ssize_t n = read(fds[i].fd, chunk, sizeof(chunk));
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0) {
                close(fds[i].fd);
                fds[i].fd = -1;
                open_fds--;
                continue;
            }
            grow_append(&bufs[i], chunk, (size_t)n);
        }
    }
    for (int i = 0; i < 2; i++)
        if (fds[i].fd >= 0)
            close(fds[i].fd);
    r->out = bufs[0].data;
    r->out_len = bufs[0].len;
    r->err = bufs[1].data;
    r->err_len = bufs[1].len;
    int st;
    while (waitpid(pid, &st, 0) < 0) {
        if (errno != EINTR) {
            spawn_result_free(r);
            return -1;
        }
    }
    r->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
    return 0;
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
