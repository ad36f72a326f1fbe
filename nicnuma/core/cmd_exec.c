// SPDX-License-Identifier: GPL-2.0-or-later
/* cmd_exec.c - a child (in its own process group where asked), its output
 * capped, ended at the deadline, on an interrupt and when it returns
 *
 * Pipes rather than files: what is past the cap is read and dropped, so
 * neither the command (a full pipe) nor this process (a growing buffer) is
 * held by its size. Signals are taken synchronously (sigtimedwait) instead
 * of through a handler, so no global flag is needed.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "nicnuma/core/cmd_exec.h"
#include "nicnuma/core/proc.h"

#define READ_PER_TURN (1 << 20)	/* a fast writer still lets the deadline be checked */
#define TICK_MS 50		/* how often signals are looked at while nothing happens */

struct capture {
	int fd;
	char *buf;
	size_t len, max, dropped;
};

int nn_cmd_signals_block(sigset_t *old)
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

bool nn_cmd_interrupted(void)
{
	struct timespec zero = { 0, 0 };
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	return sigtimedwait(&set, NULL, &zero) > 0;
}

static double mono_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Reads what is there (up to READ_PER_TURN): into the buffer up to its cap,
 * the rest counted and dropped; closes the pipe at its end. */
static void drain(struct capture *c)
{
	char scratch[16384];
	size_t turn = 0;

	while (c->fd >= 0 && turn < READ_PER_TURN) {
		bool keep = c->len < c->max;
		ssize_t n = keep ? read(c->fd, c->buf + c->len, c->max - c->len)
				 : read(c->fd, scratch, sizeof(scratch));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return;
		if (n <= 0) {
			close(c->fd);
			c->fd = -1;
			return;
		}
		*(keep ? &c->len : &c->dropped) += (size_t)n;
		turn += (size_t)n;
	}
}

static void child(const struct nn_cmd_child *c, const sigset_t *mask, const struct nn_cmd_limits *lim,
		  const int op[2], const int ep[2])
{
	int devnull = open("/dev/null", O_RDONLY);

	/* a function child runs on without an exec: holding the read ends, its
	 * writes would fill its own pipes rather than fail once the caller is gone */
	close(op[0]);
	close(ep[0]);
	if (lim->detach) {
		/* it may outlive the caller: a write to a closed capture fails
		 * (EPIPE) instead of killing it halfway */
		signal(SIGPIPE, SIG_IGN);
		setsid();
	} else if (lim->own_group) {
		setpgid(0, 0);
	}
	if (devnull >= 0)
		dup2(devnull, STDIN_FILENO);
	dup2(op[1], STDOUT_FILENO);
	dup2(ep[1], STDERR_FILENO);
	sigprocmask(SIG_SETMASK, mask, NULL);
	if (!c->argv) {
		c->fn(c->arg);
		_exit(0);
	}
	execv(c->argv[0], c->argv);
	dprintf(STDERR_FILENO, "cannot run %s: %s\n", c->argv[0], strerror(errno));
	_exit(127);
}

/* How long the next poll may sleep: a tick, less up to the deadline. */
static int sleep_ms(double deadline, double now, bool waiting)
{
	double left = (deadline - now) * 1000.0 + 1.0;

	return waiting && left < TICK_MS ? (left > 0 ? (int)left : 0) : TICK_MS;
}

/* True while a process of group @pgid is left. */
static bool group_alive(pid_t pgid)
{
	return kill(-pgid, 0) == 0 || errno == EPERM;
}

/* @sig to the child: its group, or the child itself while not reaped (a
 * reaped pid may be another process's already). */
static void signal_child(pid_t pid, bool own_group, bool reaped, int sig)
{
	if (own_group)
		kill(-pid, sig);
	else if (!reaped)
		kill(pid, sig);
}

/* True while the child, or a process of its group, is left. */
static bool child_left(pid_t pid, bool own_group, bool reaped)
{
	return own_group ? group_alive(pid) : !reaped;
}

/* Waits for the child (and its group), ending it as the header says. */
static void supervise(pid_t pid, const struct nn_cmd_limits *lim, struct capture *o, struct capture *e,
		      struct nn_cmd_result *res)
{
	double deadline = mono_s() + lim->timeout_s, term_at = 0, kill_at = 0, now = mono_s();
	struct timespec zero = { 0, 0 };
	bool reaped = false;
	sigset_t sigs;
	/* polls readable when the child ends, so its end is seen at once;
	 * negative on a kernel without pidfd_open (the tick finds it) */
	int wst = 0, sig, pfd = nn_pidfd_open((int)pid);

	sigemptyset(&sigs);
	sigaddset(&sigs, SIGCHLD);
	sigaddset(&sigs, SIGINT);
	sigaddset(&sigs, SIGTERM);
	for (;;) {
		struct pollfd p[3];
		nfds_t n = 0;

		if (o->fd >= 0)
			p[n++] = (struct pollfd){ .fd = o->fd, .events = POLLIN };
		if (e->fd >= 0)
			p[n++] = (struct pollfd){ .fd = e->fd, .events = POLLIN };
		if (pfd >= 0 && !reaped)
			p[n++] = (struct pollfd){ .fd = pfd, .events = POLLIN };
		poll(n ? p : NULL, n, sleep_ms(deadline, now, !term_at && !reaped));
		drain(o);
		drain(e);
		if (!reaped && waitpid(pid, &wst, WNOHANG) == pid) {
			reaped = true;
			res->status = WIFEXITED(wst) ? WEXITSTATUS(wst) : 128 + WTERMSIG(wst);
		}
		sig = sigtimedwait(&sigs, NULL, &zero);
		if (sig == SIGINT || sig == SIGTERM)
			res->interrupted = true;
		now = mono_s();
		if (!term_at && !reaped && now > deadline)
			res->timed_out = true;
		/* past the deadline a detached child goes on alone, and a
		 * returned one's leftovers holding the pipes are not waited for */
		if (lim->detach && now > deadline) {
			res->detached = res->timed_out;
			break;
		}
		if (res->timed_out && lim->abandon) {
			signal_child(pid, lim->own_group, reaped, SIGKILL);
			waitpid(pid, NULL, WNOHANG);
			break;
		}
		if (!term_at && (reaped || res->interrupted || res->timed_out)) {
			signal_child(pid, lim->own_group, reaped, SIGTERM);
			term_at = now;
		}
		if (term_at && !kill_at && now > term_at + lim->grace_s && child_left(pid, lim->own_group, reaped)) {
			signal_child(pid, lim->own_group, reaped, SIGKILL);
			kill_at = now;
		}
		if (reaped && !child_left(pid, lim->own_group, reaped) && o->fd < 0 && e->fd < 0)
			break;
		/* a process that left the group, or a child's own child, may hold
		 * the pipes: stop reading */
		if (reaped && (kill_at || !lim->own_group) && now > (kill_at ? kill_at : term_at + lim->grace_s) + 1.0)
			break;
	}
	if (pfd >= 0)
		close(pfd);
}

int nn_cmd_run(const struct nn_cmd_child *c, const sigset_t *child_mask, const struct nn_cmd_limits *lim,
	       char **out, char **err, struct nn_cmd_result *res)
{
	struct capture o = { .fd = -1, .max = lim->out_max }, e = { .fd = -1, .max = lim->err_max };
	int op[2] = { -1, -1 }, ep[2] = { -1, -1 }, ret = 0;
	pid_t pid;

	memset(res, 0, sizeof(*res));
	*out = *err = NULL;
	o.buf = malloc(o.max + 1);
	e.buf = malloc(e.max + 1);
	if (!o.buf || !e.buf) {
		ret = -ENOMEM;
		goto out;
	}
	if (pipe2(op, O_CLOEXEC) < 0 || pipe2(ep, O_CLOEXEC) < 0 || (pid = fork()) < 0) {
		ret = -errno;
		goto out;
	}
	if (pid == 0)
		child(c, child_mask, lim, op, ep);
	res->pid = pid;
	/* both sides set the group, so a kill(-pid) never races the child's own
	 * call (a detached child's setsid would fail in a group of its own) */
	if (lim->own_group && !lim->detach)
		setpgid(pid, pid);
	close(op[1]);
	close(ep[1]);
	op[1] = ep[1] = -1;
	o.fd = op[0];
	e.fd = ep[0];
	op[0] = ep[0] = -1;
	fcntl(o.fd, F_SETFL, O_NONBLOCK);
	fcntl(e.fd, F_SETFL, O_NONBLOCK);
	supervise(pid, lim, &o, &e, res);
	res->out_len = o.len;
	res->out_dropped = o.dropped;
	o.buf[o.len] = '\0';
	e.buf[e.len] = '\0';
	*out = o.buf;
	*err = e.buf;
	o.buf = e.buf = NULL;
out:
	for (int i = 0; i < 2; i++) {
		if (op[i] >= 0)
			close(op[i]);
		if (ep[i] >= 0)
			close(ep[i]);
	}
	if (o.fd >= 0)
		close(o.fd);
	if (e.fd >= 0)
		close(e.fd);
	free(o.buf);
	free(e.buf);
	return ret;
}
