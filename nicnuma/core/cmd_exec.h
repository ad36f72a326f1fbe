/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cmd_exec.h - a user's shell command run bounded (apply --verify-cmd)
 *
 * The command runs through /bin/sh -c in a process group of its own. Its
 * stdout is kept up to a cap and the rest read and thrown away (so a
 * chatty command neither blocks on a full pipe nor grows this process);
 * stderr likewise, to a smaller cap. At the deadline, and as soon as the
 * shell returns, the whole group gets SIGTERM, then SIGKILL after a grace,
 * so nothing it started in the background outlives it.
 */
#ifndef NICNUMA_CORE_CMD_EXEC_H
#define NICNUMA_CORE_CMD_EXEC_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

#define NN_CMD_OUT_MAX (64 * 1024)	/* one number needs far less */
#define NN_CMD_ERR_MAX 4096		/* enough for the last words of a failure */

struct nn_cmd_result {
	int status;		/* exit code, 128+N for signal N */
	bool timed_out;		/* ended at the deadline */
	bool interrupted;	/* a SIGINT/SIGTERM came while waiting */
	size_t out_dropped;	/* stdout bytes past the cap, read and discarded */
};

/* Runs @cmd (/bin/sh -c) bounded as above, SIGINT/SIGTERM/SIGCHLD blocked by
 * the caller (nn_bench_signals_block; @child_mask is what the child gets).
 * *out and *err are NUL-terminated captures (at most NN_CMD_OUT_MAX and
 * NN_CMD_ERR_MAX bytes). 0, or a negative errno when it could not run. */
int nn_cmd_run(const char *cmd, const sigset_t *child_mask, double timeout_s, char **out, char **err,
	       struct nn_cmd_result *res);

#endif
