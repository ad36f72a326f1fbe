// SPDX-License-Identifier: GPL-2.0-or-later
/* dpdk_telemetry_io.c - the telemetry v2 socket: connect, greeting, one
 * command -> one reply. Each wait is bounded by poll() against one deadline
 * for the whole exchange (--timeout), so a server that hangs or answers
 * slowly (or a socket somebody else listens on) gives a clear error in time.
 *
 * Telemetry v2 is a SOCK_SEQPACKET unix socket: one message per reply, at most
 * max_output_len bytes (16 KiB in 22.11), so one recv() reads a whole reply;
 * MSG_TRUNC tells when our buffer was too small.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "nicnuma/telemetry/dpdk_telemetry.h"

#define REPLY_CAP (1u << 20)	/* far above any release's max_output_len */

char *nn_dt_default_socket(const char *prefix, bool root)
{
	const char *base = "/var/run";
	char *path = NULL;

	if (!root) {
		base = getenv("XDG_RUNTIME_DIR");
		if (!base || !*base)
			base = "/tmp";
	}
	if (asprintf(&path, "%s/dpdk/%s/dpdk_telemetry.v2", base, prefix ? prefix : "rte") < 0)
		return NULL;
	return path;
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Waits for @events until the exchange's deadline: 0, -ETIMEDOUT, -errno. */
static int wait_fd(struct nn_dt_conn *c, short events)
{
	struct pollfd pfd = { .fd = c->fd, .events = events };

	for (;;) {
		long long left = c->deadline - now_ms();
		int n;

		if (left <= 0)
			return -ETIMEDOUT;
		n = poll(&pfd, 1, (int)left);
		if (n > 0)
			return 0;	/* readable, or POLLHUP/POLLERR: recv() tells */
		if (n == 0)
			return -ETIMEDOUT;
		if (errno != EINTR)
			return -errno;
	}
}

/* One message into c->buf; @what names it in errors ("the greeting"). */
static int recv_reply(struct nn_dt_conn *c, const char *what)
{
	ssize_t n;
	int err;

	for (;;) {
		err = wait_fd(c, POLLIN);
		if (err == -ETIMEDOUT) {
			snprintf(c->err, sizeof(c->err), "%s: no %s before the deadline (--timeout "
				 "%.1f s for the whole check): the server hangs or is too slow",
				 c->path, what, c->timeout_ms / 1000.0);
			return err;
		}
		if (err)
			break;
		n = recv(c->fd, c->buf, c->cap - 1, MSG_TRUNC);
		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			continue;
		if (n < 0) {
			err = -errno;
			break;
		}
		if (n == 0) {
			snprintf(c->err, sizeof(c->err), "%s: the server closed the connection before %s",
				 c->path, what);
			return -ECONNRESET;
		}
		if ((size_t)n >= c->cap) {
			snprintf(c->err, sizeof(c->err), "%s: %s is longer than %zu bytes", c->path,
				 what, c->cap - 1);
			return -EMSGSIZE;
		}
		c->buf[n] = '\0';
		if (memchr(c->buf, '\0', (size_t)n)) {
			snprintf(c->err, sizeof(c->err), "%s: %s holds a NUL byte: not telemetry",
				 c->path, what);
			return -EINVAL;
		}
		return 0;
	}
	snprintf(c->err, sizeof(c->err), "%s: reading %s: %s", c->path, what, strerror(-err));
	return err;
}

/* The socket file itself, not followed: an O_PATH fd of it, its owner in
 * c->sock_uid. -ENOENT, -ELOOP (a symlink), -ENOTSOCK, -errno. */
static int open_socket_file(struct nn_dt_conn *c, const char *path)
{
	struct stat st;
	int fd, err;

	fd = open(path, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) < 0) {
		err = -errno;
		if (fd >= 0)
			close(fd);
		if (err == -ENOENT)
			snprintf(c->err, sizeof(c->err), "no DPDK telemetry socket at %s: is the "
				 "process running with telemetry enabled?", path);
		else
			snprintf(c->err, sizeof(c->err), "cannot open %s: %s", path, strerror(-err));
		return err;
	}
	if (!S_ISSOCK(st.st_mode)) {
		close(fd);
		snprintf(c->err, sizeof(c->err), "%s is %s, not a socket: refused", path,
			 S_ISLNK(st.st_mode) ? "a symbolic link (not followed)" : "a file of another type");
		return S_ISLNK(st.st_mode) ? -ELOOP : -ENOTSOCK;
	}
	c->sock_uid = (long long)st.st_uid;
	return fd;
}

int nn_dt_connect(struct nn_dt_conn *c, const char *path, int timeout_ms)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct ucred cred;
	socklen_t clen = sizeof(cred);
	int err, pfd;

	memset(c, 0, sizeof(*c));
	c->fd = -1;
	c->peer_pid = -1;
	c->peer_uid = c->sock_uid = -1;
	c->timeout_ms = timeout_ms > 0 ? timeout_ms : NN_DT_TIMEOUT_MS;
	c->deadline = now_ms() + c->timeout_ms;
	c->path = strdup(path);
	c->cap = REPLY_CAP;
	c->buf = malloc(c->cap);
	if (!c->path || !c->buf)
		return -ENOMEM;
	if (strlen(path) >= sizeof(sa.sun_path)) {
		snprintf(c->err, sizeof(c->err), "%s: socket path longer than %zu bytes", path,
			 sizeof(sa.sun_path) - 1);
		return -ENAMETOOLONG;
	}
	pfd = open_socket_file(c, path);
	if (pfd < 0)
		return pfd;
	/* Connect through the fd just checked: a link swapped in since is not
	 * followed. Without /proc, by the path checked a moment ago. */
	snprintf(sa.sun_path, sizeof(sa.sun_path), "/proc/self/fd/%d", pfd);
	if (access(sa.sun_path, F_OK) < 0)
		memcpy(sa.sun_path, path, strlen(path) + 1);
	c->fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (c->fd < 0) {
		err = -errno;
		close(pfd);
		snprintf(c->err, sizeof(c->err), "socket(AF_UNIX, SOCK_SEQPACKET): %s", strerror(-err));
		return err;
	}
	err = connect(c->fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 ? -errno : 0;
	close(pfd);
	if (!err && getsockopt(c->fd, SOL_SOCKET, SO_PEERCRED, &cred, &clen) == 0 &&
	    clen == sizeof(cred)) {
		c->peer_pid = (int)cred.pid;
		c->peer_uid = (long long)cred.uid;
	}
	if (err) {
		if (err == -ENOENT)
			snprintf(c->err, sizeof(c->err), "no DPDK telemetry socket at %s: is the "
				 "process running with telemetry enabled?", path);
		else if (err == -ECONNREFUSED)
			snprintf(c->err, sizeof(c->err), "stale socket %s: nobody listens on it "
				 "(the DPDK process exited without removing it?)", path);
		else if (err == -EPROTOTYPE)
			snprintf(c->err, sizeof(c->err), "%s is not a SOCK_SEQPACKET socket: not a "
				 "DPDK telemetry v2 socket", path);
		else if (err == -EAGAIN)
			snprintf(c->err, sizeof(c->err), "%s: the server accepts no more "
				 "connections (backlog full): it hangs or is busy", path);
		else
			snprintf(c->err, sizeof(c->err), "cannot connect to %s: %s", path,
				 strerror(-err));
		return err;
	}
	return recv_reply(c, "greeting");
}

int nn_dt_command(struct nn_dt_conn *c, const char *cmd)
{
	char what[160];
	int err;

	snprintf(what, sizeof(what), "reply to %s", cmd);
	err = wait_fd(c, POLLOUT);
	if (!err && send(c->fd, cmd, strlen(cmd), MSG_NOSIGNAL) < 0)
		err = -errno;
	if (err == -ETIMEDOUT) {
		snprintf(c->err, sizeof(c->err), "%s: cannot send %s before the deadline (--timeout "
			 "%.1f s for the whole check): the server hangs", c->path, cmd,
			 c->timeout_ms / 1000.0);
		return err;
	}
	if (err) {
		snprintf(c->err, sizeof(c->err), "%s: sending %s: %s", c->path, cmd, strerror(-err));
		return err;
	}
	return recv_reply(c, what);
}

void nn_dt_close(struct nn_dt_conn *c)
{
	if (c->fd >= 0)
		close(c->fd);
	free(c->path);
	free(c->buf);
	memset(c, 0, sizeof(*c));
	c->fd = -1;
}
