/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tx.c - the transaction every writing command runs in: lock, undo log, save, mark, unlock */
#include <errno.h>

#include "nicnuma/core/ctx.h"
#include "nicnuma/state/applied_plan.h"
#include "nicnuma/state/tx.h"

int nn_tx_lock(struct nn_ctx *ctx, struct nn_tx *tx)
{
	int fd;

	tx->ctx = ctx;
	if (tx->lock >= 0)
		return 0;
	fd = nn_state_lock(ctx);
	if (fd < 0)
		return fd;
	tx->lock = fd;
	return 0;
}

void nn_tx_unlock(struct nn_tx *tx)
{
	nn_state_unlock(tx->lock);
	tx->lock = -1;
}

int nn_tx_begin(struct nn_ctx *ctx, struct nn_tx *tx, const char *command)
{
	int err = nn_tx_locked(tx) ? 0 : nn_tx_lock(ctx, tx);

	if (err)
		return err;
	err = nn_undo_begin(ctx, &tx->log, command);
	if (!err)
		tx->begun = true;
	return err;
}

int nn_tx_record(struct nn_tx *tx, const struct nn_change_ops *ops, const char *path,
		 const char *before, const char *after, const char *detail)
{
	if (!tx->begun)
		return -EINVAL;
	return nn_undo_record(tx->ctx, &tx->log, ops, path, before, after, detail);
}

int nn_tx_add(struct nn_tx *tx, const struct nn_change_ops *ops, const char *path,
	      const char *before, const char *after, const char *detail)
{
	if (!tx->begun)
		return -EINVAL;
	return nn_undo_add(&tx->log, ops, path, before, after, detail);
}

int nn_tx_save(struct nn_tx *tx)
{
	if (!tx->begun)
		return -EINVAL;
	return nn_undo_save(tx->ctx, &tx->log);
}

int nn_tx_load(struct nn_ctx *ctx, struct nn_tx *tx, const char *file,
	       const struct nn_change_ops *const *kinds, int flags)
{
	int err = nn_tx_locked(tx) ? 0 : nn_tx_lock(ctx, tx);

	if (err)
		return err;
	err = nn_undo_load(ctx, file, kinds, &tx->log);
	if (err)
		return err;
	tx->begun = true;
	if (flags & NN_TX_VALIDATE)
		err = nn_undo_validate(ctx, &tx->log);	/* the whole log, before any restore */
	return err;
}

int nn_tx_replay(struct nn_tx *tx, int flags)
{
	int err;

	if (!tx->begun)
		return -EINVAL;
	err = nn_undo_rollback(tx->ctx, &tx->log);
	if (err)
		return err;
	tx->restored = true;
	/* The file replayed is the one marked, wherever it is. */
	err = nn_undo_mark_rolled_back(tx->ctx, &tx->log);
	/* check no longer compares with a plan rolled back (the mark already says so) */
	if (!err && nn_applied_plan_drop(tx->ctx, &tx->log))
		nn_warn(tx->ctx, tx->log.file, "cannot remove its applied plan: check skips it (rolled back)");
	if (!err && (flags & NN_TX_PRUNE))
		nn_undo_prune(tx->ctx);
	return err;
}

int nn_tx_abort(struct nn_tx *tx)
{
	if (!tx->begun || !tx->log.nchanges)
		return 0;
	return nn_tx_replay(tx, 0);
}

void nn_tx_end(struct nn_tx *tx)
{
	nn_tx_unlock(tx);
	nn_undo_free(&tx->log);
	tx->begun = false;
}
