// SPDX-License-Identifier: GPL-2.0-or-later
/* trust.c - trusted files and helper programs (see trust.h) */
#include "nicnuma/core/trust.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "nicnuma/core/fsroot.h"

char *const nn_helper_env[] = { (char *)NN_HELPER_PATH, (char *)"LC_ALL=C", NULL };

/* Root-owned, not writable by group or others, of type @type. */
static int check_node(const struct nn_root *r, const char *path, mode_t type, char *why,
		      size_t whylen)
{
	struct stat st;
	int fd, err = 0;

	fd = nn_root_openat(r, path, O_PATH | O_NOFOLLOW, 0);
	if (fd < 0) {
		snprintf(why, whylen, "%s: %s", path, strerror(-fd));
		return fd;
	}
	if (fstat(fd, &st) < 0)
		err = -errno;
	close(fd);
	if (err)
		snprintf(why, whylen, "%s: %s", path, strerror(-err));
	else if ((st.st_mode & S_IFMT) != type)
		snprintf(why, whylen, "%s is not a %s", path, type == S_IFDIR ? "directory"
			 : "regular file"), err = -EPERM;
	else if (st.st_uid != 0)
		snprintf(why, whylen, "%s is owned by uid %u, not root", path,
			 (unsigned)st.st_uid), err = -EPERM;
	else if (st.st_mode & (S_IWGRP | S_IWOTH))
		snprintf(why, whylen, "%s is writable by group or others", path), err = -EPERM;
	return err;
}

int nn_trusted_file(const struct nn_root *r, const char *path, char *why, size_t whylen)
{
	char dir[PATH_MAX];
	size_t i, len = strlen(path);
	int err;

	if (path[0] != '/' || len >= sizeof(dir) || strstr(path, "//") || strstr(path, "/../") ||
	    strstr(path, "/./") || path[len - 1] == '/') {
		snprintf(why, whylen, "'%s' is not a plain absolute path", path);
		return -EINVAL;
	}
	/* "/", then each directory down to the file: none may be a symlink,
	 * owned by a user or writable by one (who could swap what is below). */
	err = check_node(r, "/", S_IFDIR, why, whylen);
	for (i = 1; !err && i < len; i++) {
		if (path[i] != '/')
			continue;
		memcpy(dir, path, i);
		dir[i] = '\0';
		err = check_node(r, dir, S_IFDIR, why, whylen);
	}
	return err ? err : check_node(r, path, S_IFREG, why, whylen);
}

int nn_run_helper(char *const argv[], char *out, size_t outlen)
{
	static const char *const dirs[] = { "/usr/bin", "/bin", "/usr/sbin", "/sbin" };
	int p[2] = { -1, -1 }, status;
	pid_t pid;

	if (!argv[0] || !*argv[0] || strchr(argv[0], '/'))
		return -EINVAL;
	if (out && (!outlen || pipe2(p, O_CLOEXEC) < 0))
		return outlen ? -errno : -EINVAL;
	pid = fork();
	if (pid < 0) {
		status = -errno;
		if (out) {
			close(p[0]);
			close(p[1]);
		}
		return status;
	}
	if (pid == 0) {
		char path[PATH_MAX];
		int fd = open("/dev/null", O_RDWR);
		size_t i;

		if (fd >= 0) {
			dup2(fd, STDIN_FILENO);
			dup2(out ? p[1] : fd, STDOUT_FILENO);
		}
		for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
			if ((size_t)snprintf(path, sizeof(path), "%s/%s", dirs[i], argv[0]) >= sizeof(path))
				_exit(127);
			execve(path, argv, nn_helper_env);
		}
		_exit(127);
	}
	if (out) {
		size_t len = 0;
		ssize_t n;

		close(p[1]);
		while (len + 1 < outlen) {
			n = read(p[0], out + len, outlen - 1 - len);
			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0)
				break;
			len += (size_t)n;
		}
		out[len] = '\0';
		close(p[0]);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
