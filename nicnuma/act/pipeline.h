/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pipeline.h - the one apply pipeline: lock, discover, plan, gates, apply
 *
 * apply, enable and the watcher run a plan the same way: the state lock
 * (the caller's transaction) before the host is read, so the values read
 * become the undo log's before-values; one discovery (no effective
 * affinities: apply never shows them); the plan (the caller's stage: a plan
 * file checked against the host, plan options, the desired state); the
 * gates (another owner of IRQ placement refuses unless allowed; the
 * caller's own checks and output in @before_apply, where irqbalance's
 * action is settled); then nn_apply_run with the discovery and the plan's
 * host shape.
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
	/* Makes pl->plan from pl->host (and may set pl->nics for the gate).
	 * 0, or a negative errno with the message printed (-ENOENT is passed
	 * back as it is: the watcher's "nothing to keep yet"). */
	int (*make_plan)(struct nn_ctx *ctx, struct nn_pipeline *pl, void *arg);
	/* After the gates, before the apply: the caller's output and checks;
	 * nonzero stops the run with that value. May be NULL. */
	int (*before_apply)(struct nn_ctx *ctx, struct nn_pipeline *pl, void *arg);
	void *arg;
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
	struct nn_apply_opts ao;	/* dry_run, keep_going, irqbalance; tx, host, shape set here */
	/* out */
	struct nn_host host;
	struct nn_plan plan;
	struct json_object *shape;	/* the plan's host shape, kept in the log */
	enum nn_pipe_stage stage;	/* the stage reached */
	struct nn_tx own;		/* @lock's transaction (private) */
};

/* Before nn_pipeline_run: zeroes @pl's outputs and its own transaction. */
void nn_pipeline_init(struct nn_pipeline *pl);
/* Runs the stages; @rep is filled when the apply ran (stage
 * NN_PIPE_APPLIED): then nn_apply_run's value (0, 1 failed values, or a
 * negative errno). Before that: the stage's negative errno (or the
 * before_apply value), its message printed. */
int nn_pipeline_run(struct nn_ctx *ctx, struct nn_pipeline *pl, struct nn_apply_report *rep);
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
