/* io_uring.c — the default engine: liburing, one ring per worker.
 *
 * Per batch: queue() fills SQEs (no syscall), commit() marks them ready, and reap() submits
 * and waits in one io_uring_enter (io_uring_submit_and_wait) before peeking completions in a
 * batch.  Buffers are registered (READ_FIXED/WRITE_FIXED) and the target fd is a registered
 * file; the ring is created with SINGLE_ISSUER|COOP_TASKRUN when the kernel has them.  Each
 * falls back quietly to the plain form on kernels that refuse it. */
#include "engine/engine.h"

#include <errno.h>
#include <liburing.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

#include "lib/util.h"

struct engine {
    struct io_uring ring;
    bool ring_ok;
    unsigned depth;
    struct io_unit *units;
    void *bufs;
    size_t stride;
    bool fixed_bufs;
    bool fixed_file;
    int fd;
    unsigned staged;
    struct io_uring_cqe **cqes;
};

#ifndef IORING_SETUP_SINGLE_ISSUER
#define IORING_SETUP_SINGLE_ISSUER (1U << 12)
#endif
#ifndef IORING_SETUP_COOP_TASKRUN
#define IORING_SETUP_COOP_TASKRUN (1U << 8)
#endif

static void uring_cleanup(struct engine *e);

static int uring_init(struct engine **out, const struct engine_config *cfg, char *err, size_t errlen)
{
    struct engine *e = xcalloc(1, sizeof(*e));
    e->depth = cfg->depth;
    e->fd = cfg->fd;

    unsigned entries = 1;
    while (entries < cfg->depth)
        entries <<= 1;
    struct io_uring_params p;
    memset(&p, 0, sizeof(p));
    p.flags = IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_COOP_TASKRUN;
    int ret = io_uring_queue_init_params(entries, &e->ring, &p);
    if (ret == -EINVAL) {
        memset(&p, 0, sizeof(p));
        ret = io_uring_queue_init_params(entries, &e->ring, &p);
    }
    if (ret < 0) {
        free(e);
        return errf(err, errlen, "io_uring: cannot set up a ring of %u entries: %s%s", entries,
                    strerror(-ret),
                    ret == -EPERM || ret == -ENOSYS ? " (io_uring disabled? try --engine libaio)" : "");
    }
    e->ring_ok = true;

    e->units = xcalloc(cfg->depth, sizeof(*e->units));
    e->cqes = xcalloc(cfg->depth, sizeof(*e->cqes));
    e->bufs = engine_alloc_buffers(cfg->depth, cfg->max_len, cfg->mem_align, &e->stride);
    if (!e->bufs) {
        uring_cleanup(e);
        return errf(err, errlen, "io_uring: cannot allocate %u buffers of %u bytes", cfg->depth,
                    cfg->max_len);
    }
    struct iovec *iov = xcalloc(cfg->depth, sizeof(*iov));
    for (unsigned i = 0; i < cfg->depth; i++) {
        e->units[i].buf = (char *)e->bufs + (size_t)i * e->stride;
        e->units[i].index = i;
        iov[i].iov_base = e->units[i].buf;
        iov[i].iov_len = e->stride;
    }
    e->fixed_bufs = io_uring_register_buffers(&e->ring, iov, cfg->depth) == 0;
    free(iov);
    e->fixed_file = io_uring_register_files(&e->ring, &e->fd, 1) == 0;
    *out = e;
    return 0;
}

static struct io_unit *uring_units(struct engine *e) { return e->units; }

static int uring_queue(struct engine *e, struct io_unit *u)
{
    struct io_uring_sqe *sqe = io_uring_get_sqe(&e->ring);
    if (!sqe)
        return -EBUSY;
    int fd = e->fixed_file ? 0 : e->fd;
    if (e->fixed_bufs) {
        if (u->dir == IO_READ)
            io_uring_prep_read_fixed(sqe, fd, u->buf, u->len, u->offset, (int)u->index);
        else
            io_uring_prep_write_fixed(sqe, fd, u->buf, u->len, u->offset, (int)u->index);
    } else {
        if (u->dir == IO_READ)
            io_uring_prep_read(sqe, fd, u->buf, u->len, u->offset);
        else
            io_uring_prep_write(sqe, fd, u->buf, u->len, u->offset);
    }
    if (e->fixed_file)
        sqe->flags |= IOSQE_FIXED_FILE;
    io_uring_sqe_set_data(sqe, u);
    e->staged++;
    return 0;
}

static int uring_commit(struct engine *e)
{
    /* Submission happens in reap(), together with the wait: one syscall per batch. */
    (void)e;
    return 0;
}

static int uring_flush(struct engine *e)
{
    if (!e->staged)
        return 0;
    int ret = io_uring_submit(&e->ring);
    if (ret < 0 && ret != -EINTR && ret != -EAGAIN && ret != -EBUSY)
        return ret;
    if (ret >= 0)
        e->staged = 0;   /* else: left staged, submitted with the next wait */
    return 0;
}

static int uring_reap(struct engine *e, unsigned min, unsigned max, struct io_unit **out)
{
    if (max > e->depth)
        max = e->depth;
    for (;;) {
        if (e->staged || min) {
            int ret = io_uring_submit_and_wait(&e->ring, min);
            if (ret < 0 && ret != -EINTR && ret != -EAGAIN && ret != -EBUSY)
                return ret;
            if (ret >= 0)
                e->staged = 0;
        }
        unsigned n = io_uring_peek_batch_cqe(&e->ring, e->cqes, max);
        if (n == 0 && min)
            continue;           /* interrupted wait: wait again */
        for (unsigned i = 0; i < n; i++) {
            struct io_unit *u = io_uring_cqe_get_data(e->cqes[i]);
            u->result = e->cqes[i]->res;
            out[i] = u;
        }
        io_uring_cq_advance(&e->ring, n);
        return (int)n;
    }
}

static const char *uring_version(void)
{
#ifdef PTSBENCH_LIBURING_VERSION
    return "liburing " PTSBENCH_LIBURING_VERSION;
#else
    return "liburing";
#endif
}

static void uring_cleanup(struct engine *e)
{
    if (!e)
        return;
    /* Unregister the file first: that waits until the kernel has dropped its reference, while
     * a plain exit leaves the ring (and the file, for a block device its O_EXCL claim) to a
     * kernel worker, and a reopen right after would find the device "in use". */
    if (e->ring_ok && e->fixed_file)
        io_uring_unregister_files(&e->ring);
    if (e->ring_ok)
        io_uring_queue_exit(&e->ring);
    engine_free_buffers(e->bufs, e->depth, e->stride);
    free(e->units);
    free(e->cqes);
    free(e);
}

const struct engine_ops engine_io_uring = {
    .name = "io_uring",
    .description = "Linux io_uring via liburing (registered buffers and file), the default",
    .flags = 0,
    .init = uring_init,
    .units = uring_units,
    .queue = uring_queue,
    .commit = uring_commit,
    .flush = uring_flush,
    .reap = uring_reap,
    .clock = engine_clock_monotonic,
    .idle = engine_idle_sleep,
    .version = uring_version,
    .cleanup = uring_cleanup,
};
