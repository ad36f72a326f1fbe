/* SPDX-License-Identifier: GPL-2.0-or-later */
/* bench_exec.h - the bench's host side: the forwarder binary, the child run,
 * and the hugepages it needs (emit layer; the pure rows, report
 * parsing and statistics are plan/bench.h) */
#ifndef NICNUMA_EMIT_BENCH_EXEC_H
#define NICNUMA_EMIT_BENCH_EXEC_H

#include <signal.h>
#include <stdbool.h>

#include "nicnuma/plan/bench.h"
#include "nicnuma/state/tx.h"

struct nn_ctx;
struct nn_tx;
struct nn_undo;

/* nicnuma-fwd: @opt when given (must be executable), else next to this
 * binary or in ../dpdk-app of a build tree. 0 or -ENOENT (message printed). */
int nn_bench_find_fwd(struct nn_ctx *ctx, const char *opt, char *buf, size_t size);
/* The node of the --pci ports (-1 unknown or virtual ports); -ENODEV with a
 * message when a device does not exist. A second port elsewhere warns. */
int nn_bench_port_node(struct nn_ctx *ctx, const struct nn_bench_cfg *cfg);
/* Without --pci: a function on vfio-pci now (nn_vfio_bound_list, the
 * reader 'nics' uses), the first on @prefer_node where one is
 * (nn_bench_pick_port), into @pci with its node (-1 unknown). 0, -ENOENT
 * none bound, -ENOMEM. */
int nn_bench_bound_port(struct nn_ctx *ctx, int prefer_node, char *pci, size_t len, int *node);

/* The forwarder's run (core/cmd_exec.h): its report and its EAL log kept up
 * to 16 MiB each (the warning quotes the log's last lines), SIGKILL 5 s
 * after a SIGTERM that it turns into stop, drain, close ports; in the
 * bench's process group, so a kill of that group ends it too. */
#define NN_BENCH_CAPTURE_MAX (16u << 20)
#define NN_BENCH_GRACE_S 5.0

/* The last three lines of a forwarder's stderr @err as one line (" | "
 * between them) in @buf: a warning's text, which has no newlines. */
void nn_bench_err_tail(const char *err, char *buf, size_t size);

/* Runs @r cfg->repeat times (stops early on an interrupt), parsing each
 * report; a failed run, a forwarder on another CPU or pages off their node
 * become warnings. Returns 0 or -ENOMEM. */
int nn_bench_run_row(struct nn_ctx *ctx, const struct nn_bench_cfg *cfg, struct nn_bench_row *r,
		     const sigset_t *child_mask, bool *interrupted);

/* Free 2 MB hugepages on @node, -1 unknown. */
long nn_bench_hugepages_free(struct nn_ctx *ctx, int node);
/* Makes sure @node has @pages free 2 MB hugepages, reserving the difference
 * through hugepages/hp_set.h (readback, compaction retry) with @undo recording the
 * old count; a short result is kept. Warns and returns a negative errno when
 * the kernel does not give them all. */
int nn_bench_hugepages_ensure(struct nn_ctx *ctx, struct nn_undo *undo, int node, long pages,
			      struct nn_bench_hp *hp);

/* The pages a bench lends itself: its transaction (state lock and undo
 * log), owned here from nn_bench_hugepages_lend to nn_bench_hugepages_return. */
struct nn_bench_lend {
	struct nn_tx tx;
	bool returned;		/* hugepages_given_back printed (object or null) */
};
#define NN_BENCH_LEND_INIT { .tx = NN_TX_INIT, .returned = false }

/* Adds the 2 MB pages each mbuf node of @b's rows lacks (none with
 * b->in_memory) into b->hp, under the state lock and in an undo log in @l
 * begun only when a node lacks some. Returns -errno when the lock or the log
 * cannot be had: then nothing was written. */
int nn_bench_hugepages_lend(struct nn_ctx *ctx, struct nn_bench_lend *l, struct nn_bench_result *b);
/* Gives the added pages back by replaying the log, reported as rollback does
 * under "hugepages_given_back" (null when none were added); ends the
 * transaction (the lock goes too). Safe on NN_BENCH_LEND_INIT, and a second
 * call (an error path's cleanup) prints nothing. */
void nn_bench_hugepages_return(struct nn_ctx *ctx, struct nn_bench_lend *l);

#endif
