/* content.c — the never-written runs of a file's byte range (see content.h). */
#include "device/content.h"

#include <errno.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "lib/util.h"

/* Extents asked per FIEMAP call. */
#define CONTENT_FIEMAP_BATCH 256u

static void add_run(struct content_map *m, size_t *cap, uint64_t start, uint64_t end)
{
    if (start < m->start)
        start = m->start;
    if (end > m->start + m->len)
        end = m->start + m->len;
    if (end <= start)
        return;
    if (m->n_runs && m->runs[m->n_runs - 1].start + m->runs[m->n_runs - 1].len >= start) {
        struct content_run *last = &m->runs[m->n_runs - 1];
        if (end > last->start + last->len) {
            m->unwritten_bytes += end - (last->start + last->len);
            last->len = end - last->start;
        }
        return;
    }
    if (m->n_runs == *cap) {
        *cap = *cap ? *cap * 2 : 16;
        m->runs = xrealloc(m->runs, *cap * sizeof(*m->runs));
    }
    m->runs[m->n_runs++] = (struct content_run){start, end - start};
    m->unwritten_bytes += end - start;
}

/* FIEMAP: 0 done, 1 not supported here, -1 error. */
static int probe_fiemap(int fd, struct content_map *m, char *err, size_t errlen)
{
    const uint64_t end = m->start + m->len;
    size_t size = sizeof(struct fiemap) + CONTENT_FIEMAP_BATCH * sizeof(struct fiemap_extent);
    struct fiemap *fm = xcalloc(1, size);
    size_t cap = 0;
    uint64_t pos = m->start;   /* everything before pos is accounted for */
    bool first = true;
    for (;;) {
        memset(fm, 0, size);
        fm->fm_start = pos;
        fm->fm_length = end - pos;
        fm->fm_flags = first ? FIEMAP_FLAG_SYNC : 0;
        fm->fm_extent_count = CONTENT_FIEMAP_BATCH;
        if (ioctl(fd, FS_IOC_FIEMAP, fm) != 0) {
            int e = errno;
            free(fm);
            if (e == EOPNOTSUPP || e == ENOTTY || e == EINVAL)
                return 1;
            return errf(err, errlen, "FIEMAP: %s", strerror(e));
        }
        first = false;
        bool last = fm->fm_mapped_extents == 0;
        for (unsigned i = 0; i < fm->fm_mapped_extents; i++) {
            const struct fiemap_extent *x = &fm->fm_extents[i];
            uint64_t xs = x->fe_logical, xe = x->fe_logical + x->fe_length;
            if (xs > pos)
                add_run(m, &cap, pos, xs);            /* a hole before this extent */
            if ((x->fe_flags & FIEMAP_EXTENT_UNWRITTEN) && xe > pos)
                add_run(m, &cap, xs > pos ? xs : pos, xe);
            if (xe > pos)
                pos = xe;
            if (x->fe_flags & FIEMAP_EXTENT_LAST)
                last = true;
        }
        if (last || pos >= end)
            break;
    }
    if (pos < end)
        add_run(m, &cap, pos, end);                   /* a hole up to the end */
    free(fm);
    return 0;
}

/* SEEK_DATA / SEEK_HOLE: 0 done, 1 not supported, -1 error. */
static int probe_seek(int fd, struct content_map *m, char *err, size_t errlen)
{
    const uint64_t end = m->start + m->len;
    size_t cap = 0;
    uint64_t pos = m->start;
    while (pos < end) {
        off_t d = lseek(fd, (off_t)pos, SEEK_DATA);
        if (d < 0) {
            if (errno == ENXIO) {                     /* no data from pos to the end */
                add_run(m, &cap, pos, end);
                break;
            }
            if (errno == EINVAL || errno == EOPNOTSUPP)
                return 1;
            return errf(err, errlen, "SEEK_DATA: %s", strerror(errno));
        }
        if ((uint64_t)d > pos)
            add_run(m, &cap, pos, (uint64_t)d);
        if ((uint64_t)d >= end)
            break;
        off_t h = lseek(fd, d, SEEK_HOLE);
        if (h < 0)
            return errf(err, errlen, "SEEK_HOLE: %s", strerror(errno));
        pos = (uint64_t)h;
    }
    return 0;
}

int content_probe_file(int fd, uint64_t start, uint64_t len, struct content_map *out, char *err,
                       size_t errlen)
{
    memset(out, 0, sizeof(*out));
    out->start = start;
    out->len = len;
    if (!len) {
        out->method = "fiemap";
        return 0;
    }
    int r = probe_fiemap(fd, out, err, errlen);
    if (r == 0) {
        out->method = "fiemap";
        return 0;
    }
    if (r < 0)
        return -1;
    content_map_free(out);
    out->start = start;
    out->len = len;
    r = probe_seek(fd, out, err, errlen);
    if (r < 0) {
        content_map_free(out);
        return -1;
    }
    if (r == 0) {
        out->method = "seek_data";
        return 0;
    }
    content_map_free(out);
    out->start = start;
    out->len = len;
    out->method = "none";
    return 0;
}

void content_map_free(struct content_map *m)
{
    free(m->runs);
    m->runs = NULL;
    m->n_runs = 0;
    m->unwritten_bytes = 0;
}

double content_unwritten_share(const struct content_map *m)
{
    return m->len ? (double)m->unwritten_bytes / (double)m->len : 0;
}
