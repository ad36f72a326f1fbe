// SPDX-License-Identifier: GPL-2.0-or-later
/* fsroot.c - all sysfs/procfs access, resolved against one root */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "nicnuma/core/fileio.h"
#include "nicnuma/core/cpuset.h"
#include "nicnuma/core/fsroot.h"

#ifdef SYS_openat2
#include <linux/openat2.h>
#endif

/* The host path the kernel gives an open fd (/proc/self/fd), or NULL. */
static char *fd_path(int fd)
{
	char link[64], buf[PATH_MAX];
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, buf, sizeof(buf) - 1);
	if (n <= 0 || (size_t)n >= sizeof(buf) - 1 || buf[0] != '/')
		return NULL;
	buf[n] = '\0';
	return strdup(buf);
}

int nn_root_open(struct nn_root *r, const char *path)
{
	struct stat st;
	int fd, err;

	r->fd = -1;
	r->live = true;
	r->path = NULL;
	r->real = NULL;
	r->dirfd = -1;
	r->dir = NULL;
	r->dirlen = 0;
	if (!path || !*path)
		path = getenv("NICNUMA_ROOT");
	if (!path || !*path)
		path = "/";
	r->path = strdup(path);
	if (!r->path)
		return -ENOMEM;
	fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		err = -errno;
		goto fail;
	}
	if (fstat(fd, &st) < 0) {
		err = -errno;
		close(fd);
		goto fail;
	}
	/* "/", "//" or a path that names the real root all mean live. */
	{
		struct stat rst;

		if (stat("/", &rst) == 0 && rst.st_dev == st.st_dev && rst.st_ino == st.st_ino) {
			close(fd);
			return 0;
		}
	}
	r->fd = fd;
	r->live = false;
	r->real = fd_path(fd);
	return 0;
fail:
	free(r->path);
	r->path = NULL;
	return err;
}

void nn_root_close(struct nn_root *r)
{
	if (r->fd >= 0)
		close(r->fd);
	r->fd = -1;
	free(r->path);
	r->path = NULL;
	free(r->real);
	r->real = NULL;
}

static const char *rel(const char *path)
{
	while (*path == '/')
		path++;
	return *path ? path : ".";
}

/* A write under a fake root never goes through a symlink as its last
 * component (O_NOFOLLOW): a value file is a file, never a link to one. */
static bool writes(int flags)
{
	return (flags & O_ACCMODE) != O_RDONLY || (flags & (O_CREAT | O_TRUNC));
}

/* The part of @path below a view's directory, or NULL when it is not below it. */
static const char *view_rest(const struct nn_root *r, const char *path)
{
	const char *p;

	if (r->dirfd < 0 || strncmp(path, r->dir, r->dirlen) || path[r->dirlen] != '/')
		return NULL;
	p = path + r->dirlen;
	while (*p == '/')
		p++;
	return *p ? p : NULL;
}

/* True when @rest has a ".." component. */
static bool has_dotdot(const char *rest)
{
	const char *p = rest;

	while ((p = strstr(p, ".."))) {
		if ((p == rest || p[-1] == '/') && (!p[2] || p[2] == '/'))
			return true;
		p += 2;
	}
	return false;
}

/* Open @rest below the view's directory. Returns the fd, or -EXDEV when the
 * caller must resolve the whole path from the root instead. */
static int view_openat(const struct nn_root *r, const char *rest, int flags, mode_t mode)
{
	int fd;

	if (r->fd < 0) {
		/* Live: no confinement to keep, just a shorter walk. */
		fd = openat(r->dirfd, rest, flags | O_CLOEXEC, mode);
		return fd < 0 ? -errno : fd;
	}
#ifdef SYS_openat2
	{
		struct open_how how = {
			.flags = (unsigned long long)(flags | O_CLOEXEC | (writes(flags) ? O_NOFOLLOW : 0)),
			.mode = (flags & O_CREAT) ? mode : 0,
		};

		if (!has_dotdot(rest)) {
			/* Without "..", a symlink or a mount crossed, a walk cannot
			 * leave the dirfd: the common case (an IRQ's or a CPU's file)
			 * is opened so, without the scoped walk's final check
			 * (path_is_under takes the system's mount_lock on every
			 * open). Anything else (ELOOP, EXDEV...) takes the scoped
			 * walk below, as before. */
			how.resolve = RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS | RESOLVE_NO_XDEV;
			fd = (int)syscall(SYS_openat2, r->dirfd, rest, &how, sizeof(how));
			if (fd >= 0)
				return fd;
			if (errno == ENOENT || errno == ENOTDIR || errno == EACCES || errno == EISDIR)
				return -errno;	/* the same answer the scoped walk would give */
		}
		/* The dirfd was resolved inside the root, so a walk that stays
		 * beneath it finds what RESOLVE_IN_ROOT from the root would; one
		 * that leaves it (EXDEV), a rename race (EAGAIN) or no openat2
		 * (ENOSYS, EPERM under seccomp) goes back to the root. */
		how.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS;
		fd = (int)syscall(SYS_openat2, r->dirfd, rest, &how, sizeof(how));
		if (fd >= 0)
			return fd;
		if (errno == EXDEV || errno == EAGAIN || errno == ENOSYS || errno == EPERM)
			return -EXDEV;
		return -errno;
	}
#else
	(void)rest;
	(void)flags;
	(void)mode;
	return -EXDEV;
#endif
}

int nn_root_view_open(const struct nn_root *r, const char *dir, struct nn_root *view)
{
	int fd;

	*view = *r;
	view->dirfd = -1;
	view->dir = NULL;
	view->dirlen = 0;
	fd = nn_root_openat(r, dir, O_PATH | O_DIRECTORY, 0);
	if (fd < 0)
		return fd;
	view->dirfd = fd;
	view->dir = dir;
	view->dirlen = strlen(dir);
	while (view->dirlen > 1 && dir[view->dirlen - 1] == '/')
		view->dirlen--;
	return 0;
}

void nn_root_view_close(struct nn_root *view)
{
	if (view->dirfd >= 0)
		close(view->dirfd);
	view->dirfd = -1;
	view->dir = NULL;
	view->dirlen = 0;
}

/* Depth of the directory stack of chase(): deeper than any sysfs path
 * (a PCIe device behind 8 bridges is 15 components). */
#define WALK_DEPTH 64
/* Symlinks one walk follows, as the kernel's MAXSYMLINKS. */
#define WALK_HOPS 40

/* Replaces @walk (the rest of the walk, after the link's own component) by
 * link target @lnk followed by it. */
static int splice_link(char *walk, size_t size, const char *lnk, const char *rest)
{
	size_t ln = strlen(lnk), rn = strlen(rest);

	if (ln + rn + 2 > size)
		return -ENAMETOOLONG;
	if (!rn) {	/* the link was the last name: its target is */
		memcpy(walk, lnk, ln + 1);
		return 0;
	}
	memmove(walk + ln + 1, rest, rn + 1);
	memcpy(walk, lnk, ln);
	walk[ln] = '/';
	return 0;
}

/* Appends component @c (length @n) to canonical path @out ("/" at first). */
static int out_push(char *out, size_t size, const char *c, size_t n)
{
	size_t len = strlen(out);

	if (len + n + 2 > size)
		return -ENAMETOOLONG;
	if (len > 1)
		out[len++] = '/';
	memcpy(out + len, c, n);
	out[len + n] = '\0';
	return 0;
}

/* Drops the last component of canonical path @out; "/" stays "/". */
static void out_pop(char *out)
{
	char *slash = strrchr(out, '/');

	if (slash && slash != out)
		*slash = '\0';
	else
		strcpy(out, "/");
}

/* The one walk of a path inside a root, in the spirit of systemd's chase():
 * one component at a time from @rootfd, the kernel following nothing. Each
 * directory is opened O_PATH|O_NOFOLLOW from the one before and kept on a
 * stack, and its name pushed on @out; a symlink is read (readlinkat) and its
 * target spliced in front of the rest of the path: a relative target
 * continues from the link's directory, an absolute one from @rootfd; ".."
 * pops both and stops at the root, so no step can leave the tree. The last
 * component is opened with @flags and O_NOFOLLOW; when it is a link it is
 * followed the same way for reads, and refused (-ELOOP) for writes. Returns
 * the final fd (or -errno) and, when @out is not NULL, the canonical path of
 * what it reached. It answers RESOLVE_IN_ROOT's opens without openat2
 * (kernel < 5.6, a seccomp filter that answers ENOSYS or EPERM) and every
 * realpath the kernel cannot name in one open. */
static int chase(int rootfd, const char *path, int flags, mode_t mode, char *out, size_t outsize)
{
	char walk[PATH_MAX * 2], lnk[PATH_MAX], name[NAME_MAX + 1], tmp[PATH_MAX];
	int stack[WALK_DEPTH], depth = 0, hops = 0, fd = -1, err;
	bool wr = writes(flags), follow = !(flags & O_NOFOLLOW);
	char *p;

	if (!out) {
		out = tmp;
		outsize = sizeof(tmp);
	}
	if (strlen(path) >= sizeof(walk) || outsize < 2)
		return -ENAMETOOLONG;
	strcpy(walk, path);
	strcpy(out, "/");
	stack[0] = rootfd;
	p = walk;
	for (;;) {
		struct stat st;
		size_t n;
		char *e;
		bool last;
		int cur = stack[depth];

		while (*p == '/')
			p++;
		if (!*p) {	/* the path names a directory we hold: open it */
			fd = openat(cur, ".", flags | O_CLOEXEC, mode);
			err = fd < 0 ? -errno : fd;
			goto out;
		}
		e = strchrnul(p, '/');
		n = (size_t)(e - p);
		if (n >= sizeof(name)) {
			err = -ENAMETOOLONG;
			goto out;
		}
		memcpy(name, p, n);
		name[n] = '\0';
		p = e;
		/* The last name, unless a '/' follows it ("dir/" must be one). */
		last = !*p;
		if (!strcmp(name, "."))
			continue;
		if (!strcmp(name, "..")) {
			if (depth > 0) {
				close(stack[depth--]);
				out_pop(out);
			}
			continue;
		}
		if (last) {
			fd = openat(cur, name, flags | O_NOFOLLOW | O_CLOEXEC, mode);
			if (fd >= 0 && (flags & O_PATH) && follow && fstat(fd, &st) == 0 &&
			    S_ISLNK(st.st_mode)) {
				close(fd);
				fd = -1;
				errno = ELOOP;
			}
			if (fd >= 0) {
				err = out_push(out, outsize, name, n);
				if (err)
					close(fd);
				else
					err = fd;
				goto out;
			}
			err = -errno;
			if ((err != -ELOOP && err != -ENOTDIR) || !follow)
				goto out;
			/* A link as the last component: followed for reads only. */
			{
				ssize_t l = readlinkat(cur, name, lnk, sizeof(lnk) - 1);

				if (l < 0)
					goto out;	/* not a link: the open's answer */
				if ((size_t)l >= sizeof(lnk) - 1) {
					err = -ENAMETOOLONG;
					goto out;
				}
				lnk[l] = '\0';
			}
			if (wr) {
				err = -ELOOP;
				goto out;
			}
		} else {
			ssize_t l;

			fd = openat(cur, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
			if (fd < 0 || fstat(fd, &st) < 0) {
				err = -errno;
				goto out;
			}
			if (S_ISDIR(st.st_mode)) {
				if (depth + 1 >= WALK_DEPTH) {
					err = -ENAMETOOLONG;
					goto out;
				}
				err = out_push(out, outsize, name, n);
				if (err)
					goto out;
				stack[++depth] = fd;
				fd = -1;
				continue;
			}
			if (!S_ISLNK(st.st_mode)) {
				err = -ENOTDIR;
				goto out;
			}
			l = readlinkat(fd, "", lnk, sizeof(lnk) - 1);
			close(fd);
			fd = -1;
			if (l < 0) {
				err = -errno;
				goto out;
			}
			if ((size_t)l >= sizeof(lnk) - 1) {
				err = -ENAMETOOLONG;
				goto out;
			}
			lnk[l] = '\0';
		}
		/* Follow the link in @lnk: the rest of the path goes after it. */
		if (++hops > WALK_HOPS) {
			err = -ELOOP;
			goto out;
		}
		if (!*lnk) {
			err = -ENOENT;
			goto out;
		}
		if (lnk[0] == '/') {
			while (depth > 0)
				close(stack[depth--]);
			strcpy(out, "/");
		}
		err = splice_link(walk, sizeof(walk), lnk, p);
		if (err)
			goto out;
		p = walk;
	}
out:
	if (err < 0 && fd >= 0)
		close(fd);
	while (depth > 0)
		close(stack[depth--]);
	return err;
}

int nn_root_openat(const struct nn_root *r, const char *path, int flags, mode_t mode)
{
	const char *rest = view_rest(r, path);
	int fd;

	if (rest) {
		fd = view_openat(r, rest, flags, mode);
		if (fd != -EXDEV)
			return fd;
	}
	if (r->fd < 0) {
		fd = open(path, flags | O_CLOEXEC, mode);
		return fd < 0 ? -errno : fd;
	}
#ifdef SYS_openat2
	{
		struct open_how how = {
			.flags = (unsigned long long)(flags | O_CLOEXEC | (writes(flags) ? O_NOFOLLOW : 0)),
			.mode = (flags & O_CREAT) ? mode : 0,
			.resolve = RESOLVE_IN_ROOT,
		};

		/* RESOLVE_IN_ROOT fails with EAGAIN when a rename anywhere on the
		 * system races a ".." step of the walk: that is not an answer about
		 * the file, so walk again (bounded). */
		for (int tries = 0; tries < 16; tries++) {
			fd = (int)syscall(SYS_openat2, r->fd, rel(path), &how, sizeof(how));
			if (fd >= 0 || errno != EAGAIN)
				break;
		}
		if (fd >= 0)
			return fd;
		if (errno != ENOSYS && errno != EPERM)
			return -errno;
	}
#endif
	return chase(r->fd, path, flags, mode, NULL, 0);
}

int nn_root_opendir(const struct nn_root *r, const char *path, DIR **dir)
{
	int fd = nn_root_openat(r, path, O_RDONLY | O_DIRECTORY, 0);

	if (fd < 0)
		return fd;
	*dir = fdopendir(fd);
	if (!*dir) {
		int err = -errno;

		close(fd);
		return err;
	}
	return 0;
}

int nn_root_access(const struct nn_root *r, const char *path, int mode)
{
	int fd;

	if (r->fd < 0)
		return access(path, mode) < 0 ? -errno : 0;
	/* faccessat has no RESOLVE_IN_ROOT; an O_PATH open resolves the same way. */
	fd = nn_root_openat(r, path, O_PATH, 0);
	if (fd < 0)
		return fd;
	close(fd);
	return 0;
}

long nn_dirfd_subdirs(int dirfd)
{
	struct stat st;

	if (fstat(dirfd, &st) < 0 || !S_ISDIR(st.st_mode) || st.st_nlink < 2)
		return -1;
	return (long)st.st_nlink - 2;
}

bool nn_dirfd_has(int dirfd, const char *name)
{
	struct stat st;

	if (!*name || strchr(name, '/') || !strcmp(name, ".."))
		return false;
	return fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0;
}

/* readlinkat() on a fake root walks every component but the last itself and
 * follows an absolute symlink on the way to the live system: the parent is
 * opened with the same in-root walk as every open, and only the last
 * component is read, relative to it. */
static ssize_t readlink_in_root(const struct nn_root *r, const char *path, char *buf, size_t size)
{
	char parent[PATH_MAX];
	const char *last;
	size_t n = strlen(path);
	ssize_t ret;
	int fd;

	while (n > 1 && path[n - 1] == '/')
		n--;
	if (n < strlen(path)) {
		/* "link/" names what the link points to: a directory, not a link. */
		fd = nn_root_openat(r, path, O_PATH | O_DIRECTORY, 0);
		if (fd < 0)
			return fd;
		close(fd);
		return -EINVAL;
	}
	last = strrchr(path, '/');
	last = last ? last + 1 : path;
	if (!*last || !strcmp(last, ".") || !strcmp(last, ".."))
		return -EINVAL;
	if ((size_t)(last - path) >= sizeof(parent))
		return -ENAMETOOLONG;
	memcpy(parent, path, (size_t)(last - path));
	parent[last - path] = '\0';
	fd = nn_root_openat(r, *parent ? parent : "/", O_PATH | O_DIRECTORY, 0);
	if (fd < 0)
		return fd;
	ret = readlinkat(fd, last, buf, size);
	if (ret < 0)
		ret = -errno;
	close(fd);
	return ret;
}

int nn_root_readlink(const struct nn_root *r, const char *path, char *buf, size_t size)
{
	ssize_t n;

	if (size == 0)
		return -EINVAL;
	if (r->fd < 0) {
		/* Live: a view's path is a shorter walk, no confinement to keep. */
		const char *rest = view_rest(r, path);

		n = rest ? readlinkat(r->dirfd, rest, buf, size - 1) : readlink(path, buf, size - 1);
		if (n < 0)
			n = -errno;
	} else {
		n = readlink_in_root(r, path, buf, size - 1);
	}
	if (n < 0)
		return (int)n;
	if ((size_t)n >= size - 1)
		return -ENAMETOOLONG;
	buf[n] = '\0';
	return 0;
}

/* A fake root's realpath in one open: the kernel resolves @path inside the
 * root (RESOLVE_IN_ROOT) and names the result; the root's own prefix is cut.
 * 1 when it cannot answer (no /proc, an unexpected name): walk instead. */
static int realpath_by_fd(const struct nn_root *r, const char *path, char *buf, size_t size)
{
	size_t rl = strlen(r->real);
	char *host;
	int fd, ret = 1;

	fd = nn_root_openat(r, path, O_PATH, 0);
	if (fd < 0)
		return fd;
	host = fd_path(fd);
	close(fd);
	if (!host)
		return 1;
	if (rl == 1)	/* a root of "/" is the live one; not here */
		goto out;
	if (strncmp(host, r->real, rl) == 0 && (host[rl] == '/' || !host[rl])) {
		const char *in = host[rl] ? host + rl : "/";

		ret = strlen(in) < size ? 0 : -ENAMETOOLONG;
		if (!ret)
			strcpy(buf, in);
	}
out:
	free(host);
	return ret;
}

/* The live root's realpath in one open: the kernel resolves @path and names
 * the result, three syscalls instead of a readlink per path component (a NIC's
 * sysfs path has ten). 1 when it cannot answer (no /proc/self/fd, a deleted
 * file's name): walk instead. */
static int realpath_live(const char *path, char *buf, size_t size)
{
	char *host;
	size_t l;
	int fd, ret = 1;

	fd = open(path, O_PATH | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	host = fd_path(fd);
	close(fd);
	if (!host)
		return 1;
	l = strlen(host);
	if (l < 10 || strcmp(host + l - 10, " (deleted)")) {
		ret = l < size ? 0 : -ENAMETOOLONG;
		if (!ret)
			memcpy(buf, host, l + 1);
	}
	free(host);
	return ret;
}

int nn_root_realpath(const struct nn_root *r, const char *path, char *buf, size_t size)
{
	int rootfd, fd, err;

	if (strlen(path) >= PATH_MAX * 2 || size < 2)
		return -ENAMETOOLONG;
	if (r->fd >= 0 && r->real) {
		err = realpath_by_fd(r, path, buf, size);
		if (err <= 0)
			return err;
	} else if (r->fd < 0 && path[0] == '/') {
		err = realpath_live(path, buf, size);
		if (err <= 0)
			return err;
	}
	rootfd = r->fd;
	if (rootfd < 0) {
		rootfd = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (rootfd < 0)
			return -errno;
	}
	fd = chase(rootfd, path, O_PATH, 0, buf, size);
	if (rootfd != r->fd)
		close(rootfd);
	if (fd < 0)
		return fd;
	close(fd);
	return 0;
}

/* Under /sys and /proc: the kernel's own files, read a thousand at a time
 * by discovery. */
static bool kernel_path(const char *path)
{
	return !strncmp(path, "/sys/", 5) || !strncmp(path, "/proc/", 6);
}

/* Every reader's open: O_NONBLOCK, and a regular file only (sysfs and
 * procfs files are; a FIFO or device planted where a state or config file
 * belongs would block or never end): -NN_ENOTREG otherwise. Kernel paths
 * skip the fstat (a tenth of discovery's CPU on a large host): live they are
 * the kernel's, and in a fake root O_NONBLOCK keeps a FIFO from blocking and
 * the 64 MiB read bound ends a device. */
static int open_read(const struct nn_root *r, const char *path)
{
	struct stat st;
	int fd = nn_root_openat(r, path, O_RDONLY | O_NONBLOCK, 0);

	if (fd < 0 || kernel_path(path))
		return fd;
	if (fstat(fd, &st) < 0) {
		int err = -errno;

		close(fd);
		return err;
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return S_ISDIR(st.st_mode) ? -EISDIR : -NN_ENOTREG;
	}
	return fd;
}

/* Doubles a read buffer, up to 64 MiB: a kernel file larger than that is
 * garbage, not data. */
static int grow(char **buf, size_t *cap)
{
	char *nb;

	if (*cap >= (64u << 20))
		return -EFBIG;
	nb = realloc(*buf, *cap * 2);
	if (!nb)
		return -ENOMEM;
	*buf = nb;
	*cap *= 2;
	return 0;
}

/* One read(2) of @fd into @buf after its first @used bytes, the buffer
 * grown first where it is full (up to grow's limit) and one byte kept for a
 * NUL; EINTR retried. Returns the bytes read, 0 at EOF, or -errno. */
static ssize_t read_more(int fd, char **buf, size_t *cap, size_t used)
{
	for (;;) {
		ssize_t n;
		int err;

		if (used + 1 >= *cap) {
			err = grow(buf, cap);
			if (err)
				return err;
		}
		n = read(fd, *buf + used, *cap - used - 1);
		if (n >= 0)
			return n;
		if (errno != EINTR)
			return -errno;
	}
}

int nn_read_file(const struct nn_root *r, const char *path, char **out, size_t *len)
{
	size_t cap = 4096, used = 0;
	char *buf = NULL;
	int fd, err = 0;

	fd = open_read(r, path);
	if (fd < 0)
		return fd;
	buf = malloc(cap);
	if (!buf) {
		err = -ENOMEM;
		goto out;
	}
	for (;;) {
		ssize_t n = read_more(fd, &buf, &cap, used);

		if (n < 0) {
			err = (int)n;
			goto out;
		}
		if (n == 0)
			break;
		used += (size_t)n;
	}
	buf[used] = '\0';
	*out = buf;
	buf = NULL;
	if (len)
		*len = used;
out:
	free(buf);
	close(fd);
	return err;
}

/* Streaming buffer of nn_read_lines(): big enough for a 4096-CPU line of
 * /proc/interrupts, small enough to stay in cache; grows for longer lines. */
#define LINES_BUF (64u << 10)

int nn_read_lines(const struct nn_root *r, const char *path,
		  int (*line)(void *arg, const char *p, const char *end), void *arg)
{
	char *buf = NULL;
	size_t cap = 0;
	int err;

	err = nn_read_lines_buf(r, path, &buf, &cap, line, arg);
	free(buf);
	return err;
}

int nn_read_lines_buf(const struct nn_root *r, const char *path, char **bufp, size_t *capp,
		      int (*line)(void *arg, const char *p, const char *end), void *arg)
{
	size_t cap = *capp, used = 0;
	bool eof = false;
	char *buf = *bufp;
	int fd, err = 0;

	fd = open_read(r, path);
	if (fd < 0)
		return fd;
	if (!buf || cap < LINES_BUF) {
		char *nb = realloc(buf, LINES_BUF);

		if (!nb) {
			err = -ENOMEM;
			goto out;
		}
		buf = nb;
		cap = LINES_BUF;
	}
	while (!eof) {
		char *p, *end;
		/* A line that fills the buffer grows it (nn_read_file's limit).
		 * The byte kept for the NUL after the data lets strchrnul() find
		 * the line's end and a NUL in the text in one pass (text ends at
		 * EOF or at a NUL, as it would for a string parser). */
		ssize_t n = read_more(fd, &buf, &cap, used);

		if (n < 0) {
			err = (int)n;
			goto out;
		}
		eof = n == 0;
		end = buf + used + n;
		*end = '\0';
		p = buf;
		for (;;) {
			char *nl = strchrnul(p, '\n');

			if (!*nl) {
				if (nl < end) {
					end = nl;	/* a NUL: the text ends here */
					eof = true;
				}
				break;
			}
			err = line(arg, p, nl);
			if (err)
				goto out;
			p = nl + 1;
		}
		if (eof && p < end) {
			err = line(arg, p, end);	/* no final newline */
			if (err)
				goto out;
			p = end;
		}
		used = (size_t)(end - p);
		memmove(buf, p, used);
	}
out:
	*bufp = buf;
	*capp = cap;
	close(fd);
	return err;
}

/* Size of the one-read buffer for attribute files: a sysfs attribute is at
 * most a page. */
#define ATTR_BUF 4096

/* One read(2) of an attribute file into @buf (NUL-terminated): sysfs and
 * single-record procfs files (/proc/irq/N/...) render the whole value on the
 * first read, and a regular file in a captured tree returns all of a short
 * file at once, so the second read that would only find EOF is skipped: a
 * quarter of the syscalls of discovery on a 512-CPU host. When the buffer
 * fills, the caller falls back to nn_read_file(): returns 1 then. */
static int read_attr(const struct nn_root *r, const char *path, char *buf, size_t size)
{
	ssize_t n;
	int fd;

	fd = open_read(r, path);
	if (fd < 0)
		return fd;
	do
		n = read(fd, buf, size - 1);
	while (n < 0 && errno == EINTR);
	if (n < 0) {
		int err = -errno;

		close(fd);
		return err;
	}
	close(fd);
	buf[n] = '\0';
	return (size_t)n == size - 1 ? 1 : 0;
}

static int first_line(char *data, char *buf, size_t size)
{
	char *nl = strchr(data, '\n');
	size_t len;

	if (nl)
		*nl = '\0';
	len = strlen(data);
	while (len && (data[len - 1] == ' ' || data[len - 1] == '\t' || data[len - 1] == '\r'))
		data[--len] = '\0';
	if (len >= size)
		return -ENAMETOOLONG;
	memcpy(buf, data, len + 1);
	return 0;
}

int nn_read_str(const struct nn_root *r, const char *path, char *buf, size_t size)
{
	char small[ATTR_BUF], *data;
	int err;

	err = read_attr(r, path, small, sizeof(small));
	if (err < 0)
		return err;
	/* A full buffer may still hold the whole first line. */
	if (err == 0 || strchr(small, '\n'))
		return first_line(small, buf, size);
	err = nn_read_file(r, path, &data, NULL);
	if (err)
		return err;
	err = first_line(data, buf, size);
	free(data);
	return err;
}

int nn_parse_long(const char *str, long *val)
{
	char *end;
	long v;

	while (*str == ' ' || *str == '\t')
		str++;
	if (!*str)
		return -EINVAL;
	errno = 0;
	v = strtol(str, &end, 10);
	if (errno == ERANGE)
		return -ERANGE;
	if (end == str)
		return -EINVAL;
	while (*end == ' ' || *end == '\t' || *end == '\n')
		end++;
	if (*end)
		return -EINVAL;
	*val = v;
	return 0;
}

int nn_read_long(const struct nn_root *r, const char *path, long *val)
{
	char buf[64];
	int err = nn_read_str(r, path, buf, sizeof(buf));

	if (err == -ENAMETOOLONG)
		return -EINVAL;
	if (err)
		return err;
	return nn_parse_long(buf, val);
}

/* Whole-file read for CPU sets: one read when the value fits a page. */
static int read_set(const struct nn_root *r, const char *path, struct nn_cpuset *set,
		    int (*parse)(const char *, struct nn_cpuset *))
{
	char small[ATTR_BUF], *data;
	int err;

	err = read_attr(r, path, small, sizeof(small));
	if (err < 0)
		return err;
	if (err == 0)
		return parse(small, set);
	/* Longer than a page (a cpulist of thousands of CPUs): read it all. */
	err = nn_read_file(r, path, &data, NULL);
	if (err)
		return err;
	err = parse(data, set);
	free(data);
	return err;
}

int nn_read_cpulist(const struct nn_root *r, const char *path, struct nn_cpuset *set)
{
	return read_set(r, path, set, nn_cpuset_parse_list);
}

int nn_read_cpumask(const struct nn_root *r, const char *path, struct nn_cpuset *set)
{
	return read_set(r, path, set, nn_cpuset_parse_mask);
}

int nn_root_open_value(const struct nn_root *r, const char *path, int accmode)
{
	return nn_root_openat(r, path, r->live ? accmode | O_TRUNC : accmode, 0);
}

int nn_root_value_written(const struct nn_root *r, int fd, size_t len)
{
	if (!r->live && ftruncate(fd, (off_t)len) < 0)
		return -errno;
	return 0;
}

int nn_write_str(const struct nn_root *r, const char *path, const char *val)
{
	size_t len = strlen(val);
	ssize_t n;
	int fd, err = 0;

	fd = nn_root_open_value(r, path, O_WRONLY);
	if (fd < 0)
		return fd;
	/* One write: procfs/sysfs parse each write() as a whole value. */
	do
		n = write(fd, val, len);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		err = -errno;
	else if ((size_t)n != len)
		err = -EIO;
	else
		err = nn_root_value_written(r, fd, len);
	if (close(fd) < 0 && !err)
		err = -errno;
	return err;
}

int nn_write_value(const struct nn_root *root, const char *path, const char *val)
{
	size_t len = strlen(val);
	char *line;
	int err;

	if (len && val[len - 1] == '\n')
		return nn_write_str(root, path, val);
	line = malloc(len + 2);
	if (!line)
		return -ENOMEM;
	memcpy(line, val, len);
	line[len] = '\n';
	line[len + 1] = '\0';
	err = nn_write_str(root, path, line);
	free(line);
	return err;
}

int nn_root_mkdir_p(const struct nn_root *r, const char *path, mode_t mode)
{
	int base, fd;

	if (path[0] != '/')
		return -EINVAL;
	/* The walk starts at the root's own fd, so no component (a symlink
	 * planted in a fake tree) can lead out of it. */
	base = r->fd >= 0 ? r->fd : open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (base < 0)
		return -errno;
	fd = nn_mkdirat_p(base, path + 1, mode);
	if (r->fd < 0)
		close(base);
	return fd;
}

const char *nn_read_strerror(int err)
{
	return err == -NN_ENOTREG ? "not a regular file (a FIFO, socket or device)" : strerror(-err);
}
