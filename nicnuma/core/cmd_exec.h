/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cmd_exec.h - a child run with a deadline: apply --verify-cmd's shell
 * command, the bench's forwarder, the OCI hook's config.json read and
 * re-apply
 *
 * The child runs an argument vector (execv, no shell of its own: a shell
 * command is {"/bin/sh", "-c", CMD}) or a function of this process that
 * writes to its stdout and _exits (the OCI hook's read of config.json, where
 * open and read may hang on a dead file system), in a process group of its own where
 * the caller asks (a user's command: what it starts in the background is
 * ended with it) or in the caller's (the bench's forwarder: a kill of the
 * bench's group ends it too). Its
 * stdout is kept up to a cap and the rest read and thrown away (so a
 * chatty command neither blocks on a full pipe nor grows this process);
 * stderr likewise. At the deadline, on a SIGINT or SIGTERM to this process,
 * and as soon as the child returns, the child (its whole group, when it has
 * one) gets SIGTERM, then SIGKILL after a grace. A child the caller lets
 * outlive it (detach: the OCI hook's re-apply, which must not be cut
 * halfway while the runtime may not wait) runs in a session of its own with
 * SIGPIPE ignored: at the deadline the run returns without a signal or a
 * wait, and the child's later writes to the closed captures fail with EPIPE.
 */
#ifndef NICNUMA_CORE_CMD_EXEC_H
#define NICNUMA_CORE_CMD_EXEC_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

#define NN_CMD_OUT_MAX (64 * 1024)	/* one number needs far less */
#define NN_CMD_ERR_MAX 4096		/* enough for the last words of a failure */

/* What one run may take. */
struct nn_cmd_limits {
	double timeout_s;	/* the deadline, from the start */
	double grace_s;		/* SIGTERM to SIGKILL */
	size_t out_max, err_max;	/* the captures' caps, in bytes */
	bool own_group;		/* a process group of its own, ended whole */
	bool abandon;		/* at the deadline SIGKILL and return, not waiting
				 * for it (a read blocked in the kernel) */
	bool detach;		/* at the deadline neither kill nor wait: return
				 * with res->detached, the child left running in
				 * its own session (setsid) */
};

/* What the child runs: @argv (argv[0] a path), else @fn(@arg). */
struct nn_cmd_child {
	char *const *argv;
	void (*fn)(void *arg);
	void *arg;
};

struct nn_cmd_result {
	int status;		/* exit code, 128+N for signal N */
	bool timed_out;		/* ended at the deadline */
	bool interrupted;	/* a SIGINT/SIGTERM came while waiting */
	bool detached;		/* the deadline passed and the child goes on (detach) */
	int pid;		/* the child's pid: still running when detached */
	size_t out_len;		/* stdout bytes kept */
	size_t out_dropped;	/* stdout bytes past the cap, read and discarded */
};

/* Blocks SIGINT/SIGTERM/SIGCHLD, so a run takes them synchronously; @old
 * receives the previous mask (children get it back). */
int nn_cmd_signals_block(sigset_t *old);
/* True when a SIGINT/SIGTERM is pending (consumes it). */
bool nn_cmd_interrupted(void);

/* Runs @c bounded by @lim as above, SIGINT/SIGTERM/SIGCHLD
 * blocked by the caller (nn_cmd_signals_block; @child_mask is what the child
 * gets). *out and *err are NUL-terminated captures (at most lim->out_max and
 * lim->err_max bytes). 0, or a negative errno when it could not run. */
int nn_cmd_run(const struct nn_cmd_child *c, const sigset_t *child_mask, const struct nn_cmd_limits *lim,
	       char **out, char **err, struct nn_cmd_result *res);

#endif
