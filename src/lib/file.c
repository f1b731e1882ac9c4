/* file.c — files and directories (see file.h). */
#include "lib/file.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <libgen.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/util.h"

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    remove(path);
    return 0;   /* go on: best effort */
}

void file_remove_tree(const char *path)
{
    nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

bool file_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

int file_mkdir_p(const char *dir, char *err, size_t errlen)
{
    char path[4096];
    if (strlen(dir) >= sizeof(path))
        return errf(err, errlen, "directory name too long: %.64s...", dir);
    str_copy(path, sizeof(path), dir);
    for (char *p = path + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(path, 0777) != 0 && errno != EEXIST)
            return errf(err, errlen, "cannot create directory %s: %s", path, strerror(errno));
        *p = '/';
    }
    if (mkdir(path, 0777) != 0 && errno != EEXIST)
        return errf(err, errlen, "cannot create directory %s: %s", path, strerror(errno));
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode))
        return errf(err, errlen, "%s is not a directory", path);
    if (access(path, W_OK | X_OK) != 0)
        return errf(err, errlen, "cannot write to %s: %s", path, strerror(errno));
    return 0;
}

static int open_tmp(const char *path, const char *tmp, bool *unnamed)
{
    char dir[4352];
    snprintf(dir, sizeof(dir), "%s", path);
    int fd = open(dirname(dir), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0644);
    *unnamed = fd >= 0;
    if (fd < 0)
        fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    else
        fchmod(fd, 0644);
    return fd;
}

static int name_tmp(int fd, const char *tmp)
{
    char proc[64];
    snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
    unlink(tmp);   /* a complete path.tmp left by a writer killed after its link */
    return linkat(AT_FDCWD, proc, AT_FDCWD, tmp, AT_SYMLINK_FOLLOW);
}

int file_write_atomic(const char *path, const char *const *parts, const size_t *lens,
                      unsigned n_parts, bool sync, char *err, size_t errlen)
{
    char tmp[4352];
    snprintf(tmp, sizeof(tmp), "%s.tmp", path);
    bool unnamed;
    int fd = open_tmp(path, tmp, &unnamed);
    if (fd < 0)
        return errf(err, errlen, "cannot write %s: %s", path, strerror(errno));
    for (unsigned p = 0; p < n_parts; p++) {
        size_t done = 0;
        while (done < lens[p]) {
            ssize_t w = write(fd, parts[p] + done, lens[p] - done);
            if (w < 0) {
                if (errno == EINTR)
                    continue;
                int saved = errno;
                close(fd);
                if (!unnamed)
                    unlink(tmp);
                return errf(err, errlen, "cannot write %s: %s", path, strerror(saved));
            }
            done += (size_t)w;
        }
    }
    if (sync && fsync(fd) != 0) {
        int saved = errno;
        close(fd);
        if (!unnamed)
            unlink(tmp);
        return errf(err, errlen, "cannot write %s: %s", path, strerror(saved));
    }
    if (unnamed && name_tmp(fd, tmp) != 0) {
        int saved = errno;
        close(fd);
        return errf(err, errlen, "cannot write %s: %s", path, strerror(saved));
    }
    close(fd);
    if (rename(tmp, path) != 0) {
        int saved = errno;
        unlink(tmp);
        return errf(err, errlen, "cannot rename %s to %s: %s", tmp, path, strerror(saved));
    }
    if (sync) {
        char dir[4352];
        snprintf(dir, sizeof(dir), "%s", path);
        int dfd = open(dirname(dir), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (dfd >= 0) {
            fsync(dfd);
            close(dfd);
        }
    }
    return 0;
}

