/* content.h — what a file target's active range holds: written data, or space nobody wrote.
 *
 * A file that was only preallocated (fallocate: unwritten extents) or is sparse (holes) answers
 * reads of that space from the filesystem's metadata: the kernel returns zeros without reading
 * the disk, at memory speed (on this machine's ext4, 1.6-1.9 million 4 KiB random reads per
 * second where the written file gives about 71K). fio lays a file out (writes it) before a job
 * reads it for that reason. content_probe_file() finds the never-written parts of a byte range:
 *
 *   FIEMAP (FS_IOC_FIEMAP, linux/fiemap.h): the file's extents; an extent flagged
 *   FIEMAP_EXTENT_UNWRITTEN (preallocated, never written) and the gaps between extents (holes)
 *   are never-written space; FIEMAP_EXTENT_DELALLOC (written to the page cache, no block yet)
 *   counts as written. The kernel is asked with FIEMAP_FLAG_SYNC so that delayed allocations
 *   are flushed and show as the extents they become.
 *   Without FIEMAP (EOPNOTSUPP: tmpfs, some network filesystems): lseek SEEK_DATA / SEEK_HOLE,
 *   which report unwritten extents as holes on ext4 and XFS (their page cache aside).
 *   Without either: nothing is known ("none").
 *
 * The unwritten runs are returned clipped to the range and merged where they touch, so a caller
 * can write exactly them (core/layout.h). Reads only; pure apart from the ioctl and lseek. */
#ifndef PTSBENCH_CONTENT_H
#define PTSBENCH_CONTENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct content_run {
    uint64_t start, len;          /* bytes, within the probed range */
};

struct content_map {
    uint64_t start, len;          /* the probed range */
    uint64_t unwritten_bytes;     /* never written (holes and unwritten extents) in the range */
    const char *method;           /* "fiemap", "seek_data", or "none" (nothing known) */
    struct content_run *runs;     /* the never-written runs, ascending, merged */
    size_t n_runs;
};

/* Probe [start, start + len) of the open regular file fd (any access mode). Returns 0 (method
 * says how, "none" when the filesystem tells nothing: then unwritten_bytes is 0 and nothing is
 * known), or -1 with the reason. The caller frees out with content_map_free. */
int content_probe_file(int fd, uint64_t start, uint64_t len, struct content_map *out, char *err,
                       size_t errlen);
void content_map_free(struct content_map *m);

/* Share of the range never written, 0..1 (0 for an empty range). */
double content_unwritten_share(const struct content_map *m);

#endif
