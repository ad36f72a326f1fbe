// SPDX-License-Identifier: GPL-2.0-or-later
/* pipeline.c - lock and discover, gates, apply: the steps apply, enable and the watcher take, in order */
#include <errno.h>
#include <string.h>

#include <json-c/json.h>

#include "nicnuma/act/pipeline.h"
#include "nicnuma/core/ctx.h"
#include "nicnuma/discover/coexist.h"
#include "nicnuma/discover/nic.h"
#include "nicnuma/state/tx.h"

void nn_pipeline_init(struct nn_pipeline *pl)
{
	memset(&pl->host, 0, sizeof(pl->host));
	memset(&pl->plan, 0, sizeof(pl->plan));
	pl->shape = NULL;
	pl->stage = NN_PIPE_LOCK;
	pl->own = (struct nn_tx)NN_TX_INIT;
}

int nn_pipeline_discover(struct nn_ctx *ctx, struct nn_pipeline *pl)
{
	int err;

	pl->stage = NN_PIPE_LOCK;
	if (pl->lock && !pl->tx)
		pl->tx = &pl->own;
	/* The lock before discovery: the values it reads become the log's
	 * before-values, so another writer must not write between the two. */
	if (pl->tx) {
		err = nn_tx_lock(ctx, pl->tx);
		if (err)
			return err;
	}
	pl->stage = NN_PIPE_DISCOVER;
	err = pl->only ? nn_host_discover_for_plan(ctx, &pl->host, NN_NICS_NO_EFFECTIVE, pl->only, pl->nonly)
		       : nn_host_discover_topo(ctx, &pl->host, pl->topo, NN_NICS_NO_EFFECTIVE, pl->claim_flags);
	if (err) {
		return nn_host_discover_failed(ctx, NULL, err);
	}
	pl->stage = NN_PIPE_PLAN;
	return 0;
}

int nn_pipeline_gate(struct nn_ctx *ctx, struct nn_pipeline *pl)
{
	int err;

	/* a plan file's boot arguments: the kernel and bootloader they go to */
	if (pl->ao.boot && pl->plan.boot_mode != NN_BOOT_NONE && !pl->host.boot.read) {
		err = nn_host_boot_read(ctx, &pl->host, true);
		if (err) {
			nn_err(ctx, "cannot read the kernel's boot facts under %s: %s", ctx->root.path,
			       strerror(-err));
			return err;
		}
	}
	pl->stage = NN_PIPE_GATE;
	/* Another owner would rewrite what we write: refuse (or warn). */
	if (pl->gate) {
		unsigned int flags = pl->gate_flags;

		if (pl->ao.boot && pl->plan.nboot_args)
			flags |= NN_COEXIST_BOOT;
		err = nn_coexist_gate(ctx, &pl->host, pl->nics, pl->nnics, flags, pl->gate_allow);
		if (err)
			return err;
	}
	pl->stage = NN_PIPE_BEFORE_APPLY;
	return 0;
}

int nn_pipeline_apply(struct nn_ctx *ctx, struct nn_pipeline *pl, struct nn_apply_report *rep)
{
	pl->shape = nn_plan_shape_to_json(&pl->plan);
	pl->ao.shape = pl->shape;
	pl->ao.host = &pl->host;
	pl->ao.tx = pl->tx;
	pl->stage = NN_PIPE_APPLIED;
	return nn_apply_run(ctx, &pl->plan, &pl->ao, rep);
}

const struct nn_undo *nn_pipeline_log(const struct nn_pipeline *pl)
{
	return pl->tx ? &pl->tx->log : NULL;
}

int nn_pipeline_abort(struct nn_pipeline *pl)
{
	struct nn_napi_answers napi = { 0 };	/* one napi-get dump for every NAPI thread */
	int err;

	if (!pl->tx)
		return -ENOENT;
	if (!pl->tx->ctx)	/* never locked: nothing logged, nothing to put back */
		return nn_tx_abort(pl->tx);
	nn_napi_answers_begin(pl->tx->ctx, &napi);
	err = nn_tx_abort(pl->tx);
	nn_napi_answers_end(pl->tx->ctx, &napi);
	return err;
}

void nn_pipeline_unlock(struct nn_pipeline *pl)
{
	if (pl->tx)
		nn_tx_unlock(pl->tx);
}

void nn_pipeline_free(struct nn_pipeline *pl)
{
	nn_tx_end(&pl->own);
	json_object_put(pl->shape);
	pl->shape = NULL;
	nn_plan_free(&pl->plan);
	nn_host_free(&pl->host);
}
