/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fileio.h - the one atomic file write and the one mkdir -p
 *
 * Both work relative to a directory fd, so the caller decides where the walk
 * starts (a fake root's fd, a state directory) and nothing follows a symlink
 * out of it.
 */
#ifndef NICNUMA_BASIC_FILEIO_H
#define NICNUMA_BASIC_FILEIO_H

#include <stddef.h>
#include <sys/types.h>

/* Replaces @name in @dirfd with @len bytes of @data: a new temp file
 * ".NAME.XXXXXX" (O_EXCL, never a link), mode @mode whatever the umask,
 * written in full, fsync'd, renamed over @name, then the directory fsync'd.
 * A reader sees the old file or the new one, never a part. On error nothing
 * is left behind. Returns 0 or a negative errno. */
int nn_write_atomic_at(int dirfd, const char *name, const void *data, size_t len, mode_t mode);

/* The same for a path as a user gives it ("out.html", "/srv/x.prom"):
 * @path's directory is opened (it must exist) and its last component
 * replaced. -EISDIR when @path ends in "/", "." or "..", or names a
 * directory (checked before any temp file is made). */
int nn_write_atomic_path(const char *path, const void *data, size_t len, mode_t mode);

/* mkdir -p of the relative path @rel below @dirfd, one component at a time:
 * each component is opened with O_NOFOLLOW|O_DIRECTORY from the one before,
 * so a symlink anywhere on the way is refused (-ELOOP/-ENOTDIR) instead of
 * followed. New directories get @mode (set explicitly, umask ignored). ".."
 * components are refused (-EINVAL). Returns an O_DIRECTORY fd of the last
 * component (caller closes) or a negative errno. */
int nn_mkdirat_p(int dirfd, const char *rel, mode_t mode);

/* Reads all of @fd into a malloc'd buffer (*@out, *@len bytes, not
 * NUL-terminated), at most @max bytes: it reads one byte over to say -EFBIG
 * without reading /dev/zero until memory runs out. Returns 0 or a negative
 * errno (*@out untouched then). */
int nn_read_fd_bounded(int fd, size_t max, char **out, size_t *len);

/* Growable arrays with doubling capacity: makes room for one more element of
 * *@arr (count @n, capacity *@cap). Returns 0 or -ENOMEM (array unchanged). */
int nn_grow(void **arr, size_t *cap, size_t n, size_t elem);
#define NN_GROW(arr, n, cap) nn_grow((void **)&(arr), &(cap), (n), sizeof(*(arr)))

#endif
