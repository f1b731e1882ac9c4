/* libaio.c — Linux native AIO (io_submit / io_getevents) via libaio, one context per worker. */
#include "engine/engine.h"

#include <errno.h>
#include <libaio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"

struct engine {
    io_context_t ctx;
    bool ctx_ok;
    unsigned depth;
    int fd;
    struct io_unit *units;
    struct iocb *iocbs;        /* one per unit, same index */
    struct iocb **staged;      /* pointers waiting for io_submit */
    unsigned n_staged;
    struct io_event *events;
    void *bufs;
    size_t stride;
};

static void aio_cleanup(struct engine *e);

static int aio_init(struct engine **out, const struct engine_config *cfg, char *err, size_t errlen)
{
    struct engine *e = xcalloc(1, sizeof(*e));
    e->depth = cfg->depth;
    e->fd = cfg->fd;
    int ret = io_setup((int)cfg->depth, &e->ctx);
    if (ret < 0) {
        free(e);
        return errf(err, errlen, "libaio: io_setup(%u) failed: %s%s", cfg->depth, strerror(-ret),
                    ret == -EAGAIN ? " (raise /proc/sys/fs/aio-max-nr)" : "");
    }
    e->ctx_ok = true;
    e->units = xcalloc(cfg->depth, sizeof(*e->units));
    e->iocbs = xcalloc(cfg->depth, sizeof(*e->iocbs));
    e->staged = xcalloc(cfg->depth, sizeof(*e->staged));
    e->events = xcalloc(cfg->depth, sizeof(*e->events));
    e->bufs = engine_alloc_buffers(cfg->depth, cfg->max_len, cfg->mem_align, &e->stride);
    if (!e->bufs) {
        aio_cleanup(e);
        return errf(err, errlen, "libaio: cannot allocate %u buffers of %u bytes", cfg->depth,
                    cfg->max_len);
    }
    for (unsigned i = 0; i < cfg->depth; i++) {
        e->units[i].buf = (char *)e->bufs + (size_t)i * e->stride;
        e->units[i].index = i;
    }
    *out = e;
    return 0;
}

static struct io_unit *aio_units(struct engine *e) { return e->units; }

static int aio_queue(struct engine *e, struct io_unit *u)
{
    if (e->n_staged >= e->depth)
        return -EBUSY;
    struct iocb *cb = &e->iocbs[u->index];
    if (u->dir == IO_READ)
        io_prep_pread(cb, e->fd, u->buf, u->len, (long long)u->offset);
    else
        io_prep_pwrite(cb, e->fd, u->buf, u->len, (long long)u->offset);
    cb->data = u;
    e->staged[e->n_staged++] = cb;
    return 0;
}

static int aio_commit(struct engine *e)
{
    unsigned done = 0;
    while (done < e->n_staged) {
        int ret = io_submit(e->ctx, (long)(e->n_staged - done), e->staged + done);
        if (ret < 0) {
            if (ret == -EINTR || ret == -EAGAIN)
                continue;
            e->n_staged = 0;
            return ret;
        }
        done += (unsigned)ret;
    }
    e->n_staged = 0;
    return 0;
}

static int aio_reap(struct engine *e, unsigned min, unsigned max, struct io_unit **out)
{
    if (max > e->depth)
        max = e->depth;
    struct timespec zero = {0, 0};
    for (;;) {
        int ret = io_getevents(e->ctx, (long)min, (long)max, e->events, min ? NULL : &zero);
        if (ret == -EINTR)
            continue;
        if (ret < 0)
            return ret;
        for (int i = 0; i < ret; i++) {
            struct io_unit *u = e->events[i].data;
            u->result = (int64_t)(long)e->events[i].res;
            out[i] = u;
        }
        return ret;
    }
}

static const char *aio_version(void) { return "libaio"; }

static void aio_cleanup(struct engine *e)
{
    if (!e)
        return;
    if (e->ctx_ok)
        io_destroy(e->ctx);
    engine_free_buffers(e->bufs, e->depth, e->stride);
    free(e->units);
    free(e->iocbs);
    free(e->staged);
    free(e->events);
    free(e);
}

const struct engine_ops engine_libaio = {
    .name = "libaio",
    .description = "Linux native AIO via libaio (io_submit/io_getevents)",
    .flags = 0,
    .init = aio_init,
    .units = aio_units,
    .queue = aio_queue,
    .commit = aio_commit,
    .flush = aio_commit,
    .reap = aio_reap,
    .clock = engine_clock_monotonic,
    .idle = engine_idle_sleep,
    .version = aio_version,
    .cleanup = aio_cleanup,
};
