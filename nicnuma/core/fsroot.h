/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fsroot.h - the one door to sysfs and procfs
 *
 * Every read and write of kernel files resolves its absolute path against a
 * root. The real root ("/") talks to the kernel; any other root is a captured
 * or hand-built tree and makes the tool inert: no netlink, no ioctl, no signals
 * (callers ask nn_root_is_live()). Like hwloc's HWLOC_FSROOT.
 */
#ifndef NICNUMA_FSROOT_H
#define NICNUMA_FSROOT_H

#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct nn_cpuset;

struct nn_root {
	int fd;		/* -1 for the real root: absolute paths go to the kernel as is */
	char *path;	/* as given, for messages */
	char *real;	/* a fake root's host path as the kernel names it (for
			 * nn_root_realpath's one-open answer), or NULL */
	bool live;	/* the real machine: live-only actions allowed */
	/* Only in a directory view (nn_root_view_open), else -1/NULL/0: */
	int dirfd;	/* the view's directory, resolved inside the root */
	const char *dir;	/* its absolute path, as the caller named it */
	size_t dirlen;
};

/* Opens @path (NULL: $NICNUMA_ROOT, else "/"). -ENOENT/-ENOTDIR when it is not a
 * directory. The fd is O_CLOEXEC so it never leaks into scripts we run. */
int nn_root_open(struct nn_root *r, const char *path);
void nn_root_close(struct nn_root *r);
static inline bool nn_root_is_live(const struct nn_root *r) { return r->live; }

/* A view of @r for many files below one directory @dir ("/proc/irq"): it
 * takes the same absolute paths and gives the same results as @r, but a path
 * under @dir is resolved from an fd of @dir, so the kernel walks 2 components
 * instead of 4-7 (a quarter of discovery's time on a 512-CPU host was path
 * walking). Nothing outside the root is reachable through it: below @dir a
 * path without ".." is first opened following no link and crossing no mount
 * (it cannot leave @dir), else the walk may not leave @dir
 * (RESOLVE_BENEATH); a path that would (an absolute symlink, "..") is
 * resolved from the root as before. The view borrows @r's
 * root and path; it is usable even when this fails (then it is just @r).
 * Close it before @r. */
int nn_root_view_open(const struct nn_root *r, const char *dir, struct nn_root *view);
void nn_root_view_close(struct nn_root *view);

/* openat() relative to the root. Under a fake root, absolute symlinks and ".."
 * stay inside it (openat2 RESOLVE_IN_ROOT where the kernel has it). */
int nn_root_openat(const struct nn_root *r, const char *path, int flags, mode_t mode);
int nn_root_opendir(const struct nn_root *r, const char *path, DIR **dir);
int nn_root_access(const struct nn_root *r, const char *path, int mode);
/* For probing names in one directory without listing it: the number of
 * subdirectories of directory fd @dirfd (st_nlink - 2, as sysfs, procfs and
 * tmpfs keep it; -1 where the filesystem does not: btrfs says 1), and
 * whether the single component @name exists in it (a link is not followed:
 * nothing outside the directory is looked at). @dirfd comes from
 * nn_root_openat(r, path, O_PATH | O_DIRECTORY, 0). */
long nn_dirfd_subdirs(int dirfd);
bool nn_dirfd_has(int dirfd, const char *name);
int nn_root_readlink(const struct nn_root *r, const char *path, char *buf, size_t size);
/* Canonical absolute path (symlinks resolved, inside the root) of @path, as the
 * kernel would name it: "/sys/devices/pci0000:00/0000:00:03.0/virtio2". */
int nn_root_realpath(const struct nn_root *r, const char *path, char *buf, size_t size);
/* mkdir -p of the absolute @path inside the root, one component at a time
 * from the root's fd (nn_mkdirat_p: no symlink followed, no ".."); new
 * directories get @mode. Returns an O_DIRECTORY fd of @path or -errno. */
int nn_root_mkdir_p(const struct nn_root *r, const char *path, mode_t mode);

/* Every reader below opens O_NONBLOCK and reads regular files only: a FIFO
 * or device (planted at a state or config path under --root) is
 * -NN_ENOTREG, a directory -EISDIR, and nothing blocks on it.
 * nn_read_strerror() words an error of theirs for a message. */
#define NN_ENOTREG ENOTSUP
const char *nn_read_strerror(int err);
/* Whole file, malloc'd and NUL-terminated, any size (sysfs files lie about it). */
int nn_read_file(const struct nn_root *r, const char *path, char **out, size_t *len);
/* Streams a text file through a reused buffer, calling @line for each line
 * (without its '\n'; the text ends at EOF or a NUL). A non-zero return from
 * @line stops the read and is returned. For files too big to hold at once
 * (/proc/interrupts on a 512-CPU host is 6 MB). */
int nn_read_lines(const struct nn_root *r, const char *path,
		  int (*line)(void *arg, const char *p, const char *end), void *arg);
/* The same through a caller's buffer (*@bufp of *@capp bytes, NULL/0 at
 * first), grown as needed and kept for the next read: a file read every
 * second allocates nothing after the first time. Free *@bufp when done. */
int nn_read_lines_buf(const struct nn_root *r, const char *path, char **bufp, size_t *capp,
		      int (*line)(void *arg, const char *p, const char *end), void *arg);
/* First line, trailing whitespace stripped; -ENAMETOOLONG if it does not fit. */
int nn_read_str(const struct nn_root *r, const char *path, char *buf, size_t size);
/* Strict integer: -EINVAL on garbage, -ERANGE on overflow. */
int nn_read_long(const struct nn_root *r, const char *path, long *val);
int nn_read_cpulist(const struct nn_root *r, const char *path, struct nn_cpuset *set);
int nn_read_cpumask(const struct nn_root *r, const char *path, struct nn_cpuset *set);

/* A kernel value is replaced by one write(2) at offset 0. Kernel files get
 * O_TRUNC (ignored there); a fake root's regular files are overwritten in
 * place and cut to length by nn_root_value_written() after the write, since
 * O_TRUNC frees and reallocates a page per value on tmpfs (16 against 12 us
 * a value over thousands). @accmode: O_WRONLY, or O_RDWR to read it back. */
int nn_root_open_value(const struct nn_root *r, const char *path, int accmode);
int nn_root_value_written(const struct nn_root *r, int fd, size_t len);

/* One write(2) of @val, checked in full; returns 0 or the kernel's -errno
 * (EIO for managed IRQs, ENOSPC for exhausted vectors). No O_CREAT: writing a
 * file that does not exist is an error, as in sysfs. */
int nn_write_str(const struct nn_root *r, const char *path, const char *val);
/* One write(2) of @val with a trailing newline, as echo(1) sends it: the
 * kernel parsers take it, and a fake tree keeps the kernel's file form byte
 * for byte, so a rollback leaves it exactly as it was. */
int nn_write_value(const struct nn_root *root, const char *path, const char *val);

/* Strict parse of a whole string as a decimal long (whitespace trimmed). */
int nn_parse_long(const char *str, long *val);

#endif
