// SPDX-License-Identifier: GPL-2.0-or-later
/* bench_run.c - run nicnuma-fwd as a child and lend it hugepages reversibly
 *
 * fork + execv with an argument vector (never a shell), stdout/stderr into
 * memfds so a large report cannot block the child on a full pipe. Signals are
 * taken synchronously (sigtimedwait) instead of through a handler, so no
 * global flag is needed: an interrupt is forwarded to the child as SIGTERM,
 * which nicnuma-fwd turns into stop traffic, drain, close ports.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "hugepages/hugepages.h"
#include "nicnuma/ctx.h"

int bench_signals_block(sigset_t *old)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGCHLD);
	if (sigprocmask(SIG_BLOCK, &set, old) < 0)
		return -errno;
	return 0;
}

bool bench_interrupted(void)
{
	struct timespec zero = { 0, 0 };
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	return sigtimedwait(&set, NULL, &zero) > 0;
}

static int slurp(int fd, char **out)
{
	struct stat st;
	char *buf;
	ssize_t n;
	size_t got = 0;

	if (fstat(fd, &st) < 0)
		return -errno;
	buf = malloc((size_t)st.st_size + 1);
	if (!buf)
		return -ENOMEM;
	while (got < (size_t)st.st_size) {
		n = pread(fd, buf + got, (size_t)st.st_size - got, (off_t)got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	buf[got] = '\0';
	*out = buf;
	return 0;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int bench_exec(char *const argv[], const sigset_t *child_mask, double timeout_s,
	       char **out, char **err, int *status, bool *interrupted)
{
	int ofd = -1, efd = -1, ret = 0, wst, sig;
	double deadline = now_s() + timeout_s, killed_at = 0;
	struct timespec tick = { 0, 200 * 1000 * 1000 };
	sigset_t wait_set;
	pid_t pid;

	*out = *err = NULL;
	ofd = memfd_create("nnbench-out", MFD_CLOEXEC);
	efd = memfd_create("nnbench-err", MFD_CLOEXEC);
	if (ofd < 0 || efd < 0) {
		ret = -errno;
		goto out;
	}
	pid = fork();
	if (pid < 0) {
		ret = -errno;
		goto out;
	}
	if (pid == 0) {
		int devnull = open("/dev/null", O_RDONLY);

		if (devnull >= 0)
			dup2(devnull, STDIN_FILENO);
		dup2(ofd, STDOUT_FILENO);
		dup2(efd, STDERR_FILENO);
		sigprocmask(SIG_SETMASK, child_mask, NULL);
		execv(argv[0], argv);
		dprintf(STDERR_FILENO, "cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	sigemptyset(&wait_set);
	sigaddset(&wait_set, SIGCHLD);
	sigaddset(&wait_set, SIGINT);
	sigaddset(&wait_set, SIGTERM);
	for (;;) {
		pid_t w = waitpid(pid, &wst, WNOHANG);

		if (w == pid)
			break;
		if (w < 0 && errno != EINTR) {
			ret = -errno;
			goto out;
		}
		sig = sigtimedwait(&wait_set, NULL, &tick);
		if (sig == SIGINT || sig == SIGTERM) {
			*interrupted = true;
			kill(pid, SIGTERM);
			if (!killed_at)
				killed_at = now_s();
		}
		if (!killed_at && now_s() > deadline) {
			kill(pid, SIGTERM);
			killed_at = now_s();
		} else if (killed_at && now_s() > killed_at + 5.0) {
			kill(pid, SIGKILL);
		}
	}
	*status = WIFEXITED(wst) ? WEXITSTATUS(wst) : 128 + WTERMSIG(wst);
	if ((ret = slurp(ofd, out)) < 0 || (ret = slurp(efd, err)) < 0)
		goto out;
out:
	if (ofd >= 0)
		close(ofd);
	if (efd >= 0)
		close(efd);
	if (ret < 0) {
		free(*out);
		free(*err);
		*out = *err = NULL;
	}
	return ret;
}

static void hp_path(char *buf, size_t size, int node, const char *file)
{
	snprintf(buf, size, "/sys/devices/system/node/node%d/hugepages/hugepages-2048kB/%s", node, file);
}

long bench_hugepages_free(struct nn_ctx *ctx, int node)
{
	char path[128];
	long v;

	hp_path(path, sizeof(path), node, "free_hugepages");
	return nn_read_long(&ctx->root, path, &v) < 0 ? -1 : v;
}

int bench_hugepages_ensure(struct nn_ctx *ctx, struct nn_undo *undo, int node, long pages,
			   struct bench_hp *hp)
{
	struct nn_hp_result res;
	char path[128];
	long free_now;
	int err;

	hp->node = node;
	hp->added = 0;
	hp_path(path, sizeof(path), node, "free_hugepages");
	free_now = bench_hugepages_free(ctx, node);
	if (free_now < 0) {
		nn_warn(ctx, path, "cannot read node %d's free 2 MB hugepages", node);
		return -ENOENT;
	}
	if (free_now >= pages)
		return 0;
	err = nn_hugepages_reserve(ctx, undo, node, 2048, pages - free_now, NN_HP_PARTIAL, &res);
	if (res.changed && res.after > res.before)
		hp->added = res.after - res.before;
	if (err && err != -ENOMEM) {
		nn_warn(ctx, path, "cannot reserve %ld hugepages on node %d: %s", pages - free_now, node,
			strerror(-err));
		return err;
	}
	if (err || bench_hugepages_free(ctx, node) < pages) {
		nn_warn(ctx, path, "the kernel gave %ld of %ld hugepages on node %d (memory fragmented "
			"or short); rows using it may fail", hp->added, pages - free_now, node);
		return -ENOMEM;
	}
	return 0;
}
