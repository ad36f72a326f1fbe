/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pipeline.h - the one apply pipeline: lock, discover, plan, gates, apply
 *
 * apply, enable and the watcher run a plan the same way, calling down
 * three steps in order (nothing here calls back up into its caller):
 *   nn_pipeline_discover  the state lock (the caller's transaction, taken
 *                         here once) before the host is read, so the values
 *                         read become the undo log's before-values; one
 *                         discovery (no effective affinities: apply never
 *                         shows them);
 *   (the caller makes pl->plan from pl->host: a plan file checked against
 *    the host, plan options, the desired state; apply's request does it in
 *    act/apply_request.c)
 *   nn_pipeline_gate      a plan file's boot facts; the gates (another owner
 *                         of IRQ placement refuses unless allowed);
 *   (the caller's own checks, with the lock still held)
 *   nn_pipeline_apply     nn_apply_run with the discovery and the plan's
 *                         host shape.
 */
#ifndef NICNUMA_ACT_PIPELINE_H
#define NICNUMA_ACT_PIPELINE_H

#include <stdbool.h>
#include <stddef.h>

#include "nicnuma/act/apply.h"
#include "nicnuma/discover/host.h"
#include "nicnuma/plan/plan.h"
#include "nicnuma/state/tx.h"

struct nn_ctx;
struct json_object;

/* Where a pipeline stopped before applying (NN_PIPE_APPLIED: it applied). */
enum nn_pipe_stage { NN_PIPE_LOCK, NN_PIPE_DISCOVER, NN_PIPE_PLAN, NN_PIPE_GATE,
		     NN_PIPE_BEFORE_APPLY, NN_PIPE_APPLIED };

struct nn_pipeline {
	/* in */
	/* The transaction: @lock takes the pipeline's own (the commands: apply,
	 * enable), ended by nn_pipeline_free; a caller that keeps one across
	 * runs (the watcher) passes it in @tx instead. Neither: no lock (dry run). */
	bool lock;
	struct nn_tx *tx;		/* locked here before discovery */
	bool gate;			/* check other owners of IRQ placement */
	unsigned int gate_flags;	/* NN_COEXIST_* */
	bool gate_allow;		/* owners are warnings (--coexist, dry run) */
	char *const *nics;		/* the NICs the gate looks at; NULL: every NIC */
	size_t nnics;
	/* A plan file's NIC names: discovery reads what applying it needs
	 * (nn_host_discover_for_plan). NULL: the whole host, to plan from. */
	char *const *only;
	size_t nonly;
	unsigned int claim_flags;	/* NN_CLAIMS_* the host's claims are read with */
	/* The full topology the caller read already (a claimer's CPU check),
	 * taken over by the discovery; NULL: read there. Not with @only. */
	struct nn_topo *topo;
	struct nn_apply_opts ao;	/* dry_run, keep_going, irqbalance; tx, host, shape set here */
	/* out */
	struct nn_host host;
	struct nn_plan plan;
	struct json_object *shape;	/* the plan's host shape, kept in the log */
	enum nn_pipe_stage stage;	/* the stage reached: the next one to run, or the one that failed */
	struct nn_tx own;		/* @lock's transaction (private) */
};

/* Before nn_pipeline_discover: zeroes @pl's outputs and its own transaction. */
void nn_pipeline_init(struct nn_pipeline *pl);
/* The lock (@lock or @tx), then the host read once into pl->host. 0 (stage
 * NN_PIPE_PLAN: the caller makes pl->plan next), or the negative errno
 * with its message printed. */
int nn_pipeline_discover(struct nn_ctx *ctx, struct nn_pipeline *pl);
/* After the caller's plan: the boot facts a plan with boot arguments
 * needs, then the gate. 0 (stage NN_PIPE_BEFORE_APPLY), or the negative
 * errno with its message printed. */
int nn_pipeline_gate(struct nn_ctx *ctx, struct nn_pipeline *pl);
/* Applies pl->plan (stage NN_PIPE_APPLIED); @rep filled: nn_apply_run's
 * value (0, 1 failed values, or a negative errno). */
int nn_pipeline_apply(struct nn_ctx *ctx, struct nn_pipeline *pl, struct nn_apply_report *rep);
/* The undo log the run wrote (NULL without a transaction). */
const struct nn_undo *nn_pipeline_log(const struct nn_pipeline *pl);
/* Puts back everything the run's log holds through its transaction, and
 * marks the log rolled back (apply --verify on a host that got worse). 0,
 * -ENOENT without a transaction, or the first restore's error. */
int nn_pipeline_abort(struct nn_pipeline *pl);
/* Releases the state lock early (enable: the watcher it starts takes it);
 * the log stays. */
void nn_pipeline_unlock(struct nn_pipeline *pl);
/* Frees the host, the plan and the shape, and ends the pipeline's own
 * transaction (not a caller's @tx). */
void nn_pipeline_free(struct nn_pipeline *pl);

#endif
