// SPDX-License-Identifier: GPL-2.0-or-later
/* state_dir.c - the state directory, its lock, and the temp files a killed run left */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>

#include "nicnuma/core/fileio.h"
#include "nicnuma/core/limits.h"
#include "nicnuma/core/ctx.h"
#include "nicnuma/state/undo.h"
#include "nicnuma/state/undo_internal.h"

/* Owned by root, or by the euid when that is not root (a user replaying a
 * file of their own gains nothing), and writable by nobody else. */
int nn_state_trusted(const struct stat *st, char *why, size_t whylen)
{
	uid_t me = geteuid();

	if (st->st_uid != 0 && st->st_uid != me) {
		snprintf(why, whylen, "owned by uid %u, not by root", (unsigned int)st->st_uid);
		return -EPERM;
	}
	if (st->st_mode & (S_IWGRP | S_IWOTH)) {
		snprintf(why, whylen, "group- or world-writable (mode %04o)",
			 (unsigned int)(st->st_mode & 07777));
		return -EPERM;
	}
	return 0;
}

int nn_state_read_trusted(int dfd, const char *name, size_t max, char **text, size_t *len, char *why,
			  size_t whylen)
{
	struct stat st;
	size_t off = 0;
	int fd, err = 0;

	*text = NULL;
	fd = openat(dfd, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY);
	if (fd < 0) {
		err = -errno;
		snprintf(why, whylen, "%s", err == -ELOOP ? "a symbolic link" : strerror(-err));
		return err;
	}
	if (fstat(fd, &st) < 0) {
		err = -errno;
		snprintf(why, whylen, "%s", strerror(-err));
		goto out;
	}
	if (!S_ISREG(st.st_mode) || st.st_nlink != 1) {
		snprintf(why, whylen, "not a regular file with one link");
		err = -EPERM;
		goto out;
	}
	err = nn_state_trusted(&st, why, whylen);
	if (err)
		goto out;
	if ((unsigned long long)st.st_size > max) {
		/* In the unit the limit is set in: the undo log's 16 MiB, a record's KiB. */
		bool mib = max % (1u << 20) == 0;

		snprintf(why, whylen, "%lld bytes, more than the %zu %s nicnuma reads there",
			 (long long)st.st_size, mib ? max >> 20 : max >> 10, mib ? "MiB" : "KiB");
		err = -EFBIG;
		goto out;
	}
	*text = malloc((size_t)st.st_size + 1);
	if (!*text) {
		err = -ENOMEM;
		snprintf(why, whylen, "%s", strerror(ENOMEM));
		goto out;
	}
	while (off < (size_t)st.st_size) {
		ssize_t n = read(fd, *text + off, (size_t)st.st_size - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			err = n < 0 ? -errno : -EIO;
			snprintf(why, whylen, "%s", n < 0 ? strerror(errno) : "shorter than its size");
			break;
		}
		off += (size_t)n;
	}
	(*text)[off] = '\0';
	*len = off;
out:
	close(fd);
	if (err) {
		free(*text);
		*text = NULL;
	}
	return err;
}

/* Opens directory @dir inside the root (created 0700 when @create) and
 * checks it may hold logs. Prints why not. */
int nn_state_open_dir(struct nn_ctx *ctx, const char *dir, int create)
{
	char why[128];
	struct stat st;
	int fd, err;

	if (!dir || dir[0] != '/') {
		nn_err(ctx, "state directory '%s' must be an absolute path", dir ? dir : "");
		return -EINVAL;
	}
	fd = nn_root_openat(&ctx->root, dir, O_RDONLY | O_DIRECTORY, 0);
	if (fd == -ENOENT && create)
		fd = nn_root_mkdir_p(&ctx->root, dir, 0700);
	if (fd < 0)
		return fd;
	err = fstat(fd, &st) < 0 ? -errno : nn_state_trusted(&st, why, sizeof(why));
	if (err) {
		nn_err(ctx, "refusing state directory %s: %s", dir,
		       err == -EPERM ? why : strerror(-err));
		close(fd);
		return err;
	}
	return fd;
}

int nn_state_dir_open(struct nn_ctx *ctx, int create)
{
	return nn_state_open_dir(ctx, ctx->state_dir, create);
}

/* ".NAME.XXXXXX" of nn_write_atomic_at, or ".NAME.tmp" of older versions. */
static bool is_temp_name(const char *n)
{
	size_t len = strlen(n), i;

	if (n[0] != '.' || len < 9)
		return false;
	if (!strcmp(n + len - 4, ".tmp"))
		return true;
	if (n[len - 7] != '.')
		return false;
	for (i = len - 6; i < len; i++)
		if (!((n[i] >= 'a' && n[i] <= 'z') || (n[i] >= 'A' && n[i] <= 'Z') ||
		      (n[i] >= '0' && n[i] <= '9')))
			return false;
	return true;
}

/* Under the lock every writer is us: a temp file from before we took it was
 * left by a run that was killed. */
static void prune_temps(struct nn_ctx *ctx, int dfd, time_t since)
{
	struct dirent *de;
	struct stat st;
	DIR *d;
	int fd = openat(dfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0 || !(d = fdopendir(fd))) {
		if (fd >= 0)
			close(fd);
		return;
	}
	while ((de = readdir(d)))
		if (is_temp_name(de->d_name) &&
		    !fstatat(dfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) && S_ISREG(st.st_mode) &&
		    st.st_mtime < since && unlinkat(dfd, de->d_name, 0) < 0)
			nn_warn(ctx, ctx->state_dir, "cannot remove stale %s: %s", de->d_name,
				strerror(errno));
	closedir(d);
}

int nn_state_lock(struct nn_ctx *ctx)
{
	char pid[32];
	struct stat st;
	time_t now = time(NULL);
	int dfd, fd, err;

	dfd = nn_state_dir_open(ctx, 1);
	if (dfd < 0) {
		nn_err(ctx, "cannot open state directory %s: %s", ctx->state_dir, strerror(-dfd));
		return dfd;
	}
	/* No O_TRUNC: the file is checked before anything is written to it. */
	fd = openat(dfd, "lock", O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0600);
	err = fd < 0 ? -errno : 0;
	if (err) {
		nn_err(ctx, "cannot open %s/lock: %s", ctx->state_dir, strerror(-err));
		goto fail;
	}
	/* A hard link to /etc/shadow would otherwise be truncated below. */
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_nlink != 1 ||
	    st.st_uid != geteuid()) {
		nn_err(ctx, "refusing %s/lock: not a regular file with one link owned by uid %u",
		       ctx->state_dir, (unsigned int)geteuid());
		err = -EPERM;
		goto fail;
	}
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		ssize_t n;

		err = errno == EWOULDBLOCK ? -EBUSY : -errno;
		n = pread(fd, pid, sizeof(pid) - 1, 0);
		pid[n > 0 ? n : 0] = '\0';
		pid[strcspn(pid, "\n")] = '\0';
		nn_err(ctx, "another nicnuma run holds %s/lock%s%s%s; try again when it is done",
		       ctx->state_dir, *pid ? " (pid " : "", pid, *pid ? ")" : "");
		goto fail;
	}
	/* The pid is a hint for the message above; the flock is the lock.
	 * Written over the old one, then cut to its length: truncating to 0
	 * first frees and reallocates the file's block on every run. */
	{
		int len = snprintf(pid, sizeof(pid), "%d\n", (int)getpid());

		if (pwrite(fd, pid, (size_t)len, 0) != len || ftruncate(fd, len) < 0)
			nn_warn(ctx, "lock", "cannot record pid in lock file: %s", strerror(errno));
	}
	prune_temps(ctx, dfd, now);
	close(dfd);
	return fd;
fail:
	if (fd >= 0)
		close(fd);
	close(dfd);
	return err;
}

void nn_state_unlock(int fd)
{
	if (fd >= 0) {
		flock(fd, LOCK_UN);
		close(fd);
	}
}
