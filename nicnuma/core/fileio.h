/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fileio.h - the one atomic file write and the one no-symlink directory walk (mkdir -p)
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

/* Run-time state (/run: claim records, the watcher's watch.json): replaced
 * atomically as above but not fsync'd. A power loss clears /run anyway, so
 * a flush buys nothing there, and where /run is not a tmpfs (some VMs) the
 * two flushes were most of a claim's latency (docs/oci-hook.md). */
#define NN_WRITE_VOLATILE 0x1u
int nn_write_atomic_flags_at(int dirfd, const char *name, const void *data, size_t len, mode_t mode,
			     unsigned int flags);

/* The same for a path as a user gives it ("out.html", "/srv/x.prom"):
 * @path's directory is opened (it must exist) and its last component
 * replaced. -EISDIR when @path ends in "/", "." or "..", or names a
 * directory (checked before any temp file is made). */
int nn_write_atomic_path(const char *path, const void *data, size_t len, mode_t mode);
/* -NN_ENOTREG when @path names something that is not a regular file (a
 * device such as /dev/null, a FIFO, a socket, a symbolic link): renaming
 * over it would replace that node, never write into it. */
/* What nn_write_atomic_path()'s error means, for "cannot write PATH: %s". */
const char *nn_output_strerror(int err);

/* The one directory walk: @path below @dirfd (an absolute @path too: its
 * leading "/" are skipped, so pass "/"'s fd for it), one component at a time,
 * each opened with O_NOFOLLOW|O_DIRECTORY from the one before, so a symlink
 * anywhere on the way is refused (-ELOOP; -ENOTDIR for a file) instead of
 * followed. The last component is created when missing; with
 * NN_MKDIR_PARENTS every missing one is (mkdir -p), else a missing one above
 * the last is -ENOENT. New directories get @mode set explicitly (umask
 * ignored), or @mode less the umask with NN_MKDIR_UMASK. ".." components are
 * refused (-EINVAL) unless NN_MKDIR_DOTDOT (".." is never a link). Returns an
 * O_DIRECTORY fd of the last component (caller closes) or a negative errno. */
#define NN_MKDIR_PARENTS	1u
#define NN_MKDIR_DOTDOT		2u
#define NN_MKDIR_UMASK		4u
int nn_mkdirat_walk(int dirfd, const char *path, mode_t mode, unsigned int flags);

/* mkdir -p of the relative path @rel below @dirfd: nn_mkdirat_walk with
 * NN_MKDIR_PARENTS (".." refused, @mode whatever the umask). */
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
