/* SPDX-License-Identifier: GPL-2.0-or-later */
/* bench.h - "nicnuma bench": running nicnuma-fwd and keeping hugepages reversible */
#ifndef NICNUMA_CLI_BENCH_H
#define NICNUMA_CLI_BENCH_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

struct nn_ctx;

/* One child run: argv vector, no shell. stdout and stderr are captured whole
 * (memfd) and returned NUL-terminated. SIGINT/SIGTERM/SIGCHLD must be blocked
 * by the caller (see bench_signals_block); a SIGINT or SIGTERM received while
 * waiting is passed on to the child as SIGTERM (so it stops, drains and
 * closes its ports) and sets *interrupted. After @timeout_s the child gets
 * SIGTERM, 5 s later SIGKILL. Returns 0 with *status = the exit code (128+N
 * for signal N), or a negative errno when it could not run. */
int bench_exec(char *const argv[], const sigset_t *child_mask, double timeout_s,
	       char **out, char **err, int *status, bool *interrupted);

/* Blocks SIGINT/SIGTERM/SIGCHLD; @old receives the previous mask (children get it back). */
int bench_signals_block(sigset_t *old);
/* True when a SIGINT/SIGTERM is pending (consumes it). */
bool bench_interrupted(void);

struct nn_undo;

/* Hugepages added for the run: recorded in an undo log before the write (so a
 * bench killed outright leaves `nicnuma rollback` to give them back) and
 * rolled back when the runs are over. */
struct bench_hp {
	int node;
	long added;		/* 2 MB pages we added to nr_hugepages */
};

/* Makes sure @node has @pages free 2 MB hugepages, reserving the difference
 * through hugepages/ (readback, compaction retry) with @undo recording the
 * old count; a short result is kept. Warns and returns a negative errno when
 * the kernel does not give them all. */
int bench_hugepages_ensure(struct nn_ctx *ctx, struct nn_undo *undo, int node, long pages,
			   struct bench_hp *hp);
long bench_hugepages_free(struct nn_ctx *ctx, int node);

#endif
