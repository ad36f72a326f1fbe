// SPDX-License-Identifier: GPL-2.0-or-later
/* fileio.c - atomic write, mkdir -p and array growth (see fileio.h) */
#include "nicnuma/core/fileio.h"
#include "nicnuma/core/fsroot.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* A temp name nobody can predict, created with O_EXCL in @dirfd. */
static int open_temp(int dirfd, const char *name, mode_t mode, char *tmp, size_t size)
{
	static const char set[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	struct timespec ts;
	unsigned long long x;
	int tries, fd, i;

	for (tries = 0; tries < 100; tries++) {
		char sfx[7];

		clock_gettime(CLOCK_MONOTONIC, &ts);
		x = (unsigned long long)ts.tv_nsec * 2654435761ULL ^
		    (unsigned long long)getpid() << 20 ^ (unsigned long long)tries << 40 ^
		    (unsigned long long)(uintptr_t)tmp;
		for (i = 0; i < 6; i++) {
			sfx[i] = set[x % (sizeof(set) - 1)];
			x /= sizeof(set) - 1;
		}
		sfx[6] = '\0';
		if ((size_t)snprintf(tmp, size, ".%s.%s", name, sfx) >= size)
			return -ENAMETOOLONG;
		fd = openat(dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, mode);
		if (fd >= 0 || errno != EEXIST)
			return fd >= 0 ? fd : -errno;
	}
	return -EEXIST;
}

int nn_write_atomic_at(int dirfd, const char *name, const void *data, size_t len, mode_t mode)
{
	return nn_write_atomic_flags_at(dirfd, name, data, len, mode, 0);
}

int nn_write_atomic_flags_at(int dirfd, const char *name, const void *data, size_t len, mode_t mode,
			     unsigned int flags)
{
	bool sync = !(flags & NN_WRITE_VOLATILE);
	char tmp[NAME_MAX + 1];
	const char *p = data;
	size_t off = 0;
	int fd, err = 0;

	if (!*name || strchr(name, '/'))
		return -EINVAL;
	fd = open_temp(dirfd, name, mode & 07777, tmp, sizeof(tmp));
	if (fd < 0)
		return fd;
	if (fchmod(fd, mode & 07777) < 0)
		err = -errno;
	while (!err && off < len) {
		ssize_t n = write(fd, p + off, len - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			err = -errno;
		else
			off += (size_t)n;
	}
	if (!err && sync && fsync(fd) < 0)
		err = -errno;
	if (close(fd) < 0 && !err)
		err = -errno;
	if (!err && renameat(dirfd, tmp, dirfd, name) < 0)
		err = -errno;
	if (err) {
		unlinkat(dirfd, tmp, 0);
		return err;
	}
	return sync && fsync(dirfd) < 0 ? -errno : 0;
}

int nn_mkdirat_walk(int dirfd, const char *path, mode_t mode, unsigned int flags)
{
	char comp[NAME_MAX + 1];
	const char *p = path, *e;
	int fd, next;

	fd = openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	for (;;) {
		bool dotdot, made = false;
		size_t n;

		while (*p == '/')
			p++;
		if (!*p)
			return fd;
		e = strchrnul(p, '/');
		n = (size_t)(e - p);
		if (n >= sizeof(comp)) {
			close(fd);
			return -ENAMETOOLONG;
		}
		memcpy(comp, p, n);
		comp[n] = '\0';
		p = e;
		if (!strcmp(comp, "."))
			continue;
		dotdot = !strcmp(comp, "..");
		if (dotdot && !(flags & NN_MKDIR_DOTDOT)) {
			close(fd);
			return -EINVAL;
		}
		/* Every component with NN_MKDIR_PARENTS, else only the last; ".."
		 * always exists. */
		if (!dotdot && ((flags & NN_MKDIR_PARENTS) || !p[strspn(p, "/")])) {
			if (mkdirat(fd, comp, mode & 07777) == 0) {
				made = true;
			} else if (errno != EEXIST) {
				int err = -errno;

				close(fd);
				return err;
			}
		}
		next = openat(fd, comp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (next < 0) {
			struct stat st;
			int err = -errno;

			/* O_DIRECTORY may answer ENOTDIR for a link: say ELOOP. */
			if (err == -ENOTDIR && fstatat(fd, comp, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
			    S_ISLNK(st.st_mode))
				err = -ELOOP;
			close(fd);
			return err;
		}
		/* mkdirat honours the umask: set the mode we promised. */
		if (made && !(flags & NN_MKDIR_UMASK) && fchmod(next, mode & 07777) < 0) {
			int err = -errno;

			close(next);
			close(fd);
			return err;
		}
		close(fd);
		fd = next;
	}
}

int nn_mkdirat_p(int dirfd, const char *rel, mode_t mode)
{
	return nn_mkdirat_walk(dirfd, rel, mode, NN_MKDIR_PARENTS);
}

int nn_grow(void **arr, size_t *cap, size_t n, size_t elem)
{
	size_t ncap;
	void *p;

	if (n < *cap)
		return 0;
	ncap = *cap ? *cap * 2 : 8;
	if (ncap <= n)
		ncap = n + 1;
	if (ncap > SIZE_MAX / elem)
		return -ENOMEM;
	p = realloc(*arr, ncap * elem);
	if (!p)
		return -ENOMEM;
	*arr = p;
	*cap = ncap;
	return 0;
}

int nn_write_atomic_path(const char *path, const void *data, size_t len, mode_t mode)
{
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	char *dir = NULL;
	int dfd, err;

	if (!*base || !strcmp(base, ".") || !strcmp(base, ".."))
		return -EISDIR;
	if (slash)
		dir = slash == path ? strdup("/") : strndup(path, (size_t)(slash - path));
	else
		dir = strdup(".");
	if (!dir)
		return -ENOMEM;
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	err = dfd < 0 ? -errno : 0;
	/* A directory at the path (planted in a textfile directory another
	 * user can write) is said before any temp file is made. So is anything
	 * else that is not a regular file: rename(2) would replace the node
	 * itself, so "-o /dev/null" would leave a regular file where the
	 * device was, and "-o /dev/stdout" would replace the link. */
	if (!err) {
		struct stat st;

		if (fstatat(dfd, base, &st, AT_SYMLINK_NOFOLLOW) == 0) {
			if (S_ISDIR(st.st_mode))
				err = -EISDIR;
			else if (!S_ISREG(st.st_mode))
				err = -NN_ENOTREG;
		}
	}
	if (!err)
		err = nn_write_atomic_at(dfd, base, data, len, mode);
	if (dfd >= 0)
		close(dfd);
	free(dir);
	return err;
}

const char *nn_output_strerror(int err)
{
	if (err == -NN_ENOTREG)
		return "not a regular file (a device, FIFO, socket or symbolic link): "
		       "nicnuma replaces only regular files";
	if (err == -EISDIR)
		return "is a directory, not a file nicnuma replaces";
	return strerror(-err);
}

int nn_read_fd_bounded(int fd, size_t max, char **out, size_t *len)
{
	size_t cap = 64 << 10, used = 0;
	char *buf = malloc(cap), *nb;
	int err = 0;

	if (!buf)
		return -ENOMEM;
	for (;;) {
		ssize_t n;

		if (used == cap) {
			if (cap > max) {
				err = -EFBIG;
				break;
			}
			cap = cap * 2 > max + 1 ? max + 1 : cap * 2;
			nb = realloc(buf, cap);
			if (!nb) {
				err = -ENOMEM;
				break;
			}
			buf = nb;
		}
		n = read(fd, buf + used, cap - used);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			err = -errno;
			break;
		}
		if (n == 0)
			break;
		used += (size_t)n;
	}
	if (!err && used > max)
		err = -EFBIG;
	if (err) {
		free(buf);
		return err;
	}
	*out = buf;
	*len = used;
	return 0;
}
