/* file.h — files and directories: one mkdir -p, one atomic writer, one existence test. */
#ifndef PTSBENCH_FILE_H
#define PTSBENCH_FILE_H

#include <stdbool.h>
#include <stddef.h>

/* Does path exist (anything: file, directory, device)? */
bool file_exists(const char *path);

/* Create dir and its missing parents (mode 0777 less the umask), then check that it is a
 * directory this process may write. 0, or -1 with one line naming the path. */
int file_mkdir_p(const char *dir, char *err, size_t errlen);

/* Remove path and everything below it, best effort (what cannot be removed is left; a
 * symbolic link is removed, never followed). For scratch directories ptsbench made. */
void file_remove_tree(const char *path);

/* Replace path with the concatenation of parts atomically: the data go to an unnamed file in
 * path's directory (O_TMPFILE; a named path.tmp where the filesystem has none), which is linked
 * as path.tmp once complete and renamed over path. Readers see the old file or the new one,
 * never a part; a process killed while writing leaves nothing (in the instant between link and
 * rename: a complete path.tmp, replaced by the next write). With sync, the file is fsynced
 * before the rename and the directory after it: durable across a power loss. 0, or -1 with one
 * line naming path. */
int file_write_atomic(const char *path, const char *const *parts, const size_t *lens,
                      unsigned n_parts, bool sync, char *err, size_t errlen);

#endif
