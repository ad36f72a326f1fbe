// SPDX-License-Identifier: GPL-2.0-or-later
/* hugepages_change.c - `hugepages reserve|release`: targets, transaction,
 * the pools' walk (hugepages/hp_set.h), the report and --mount */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hugepages/hp_print.h"
#include "hugepages/hp_set.h"
#include "hugepages/hp_target.h"
#include "nicnuma/act/hugepages_change.h"
#include "nicnuma/core/ctx.h"
#include "nicnuma/core/print.h"
#include "nicnuma/state/tx.h"

/* One run: the pools read, the targets, their outcomes, the transaction. */
struct hp_run {
	const struct nn_hp_change *c;
	struct nn_hp_walk walk;		/* the pools' state, checks, files */
	struct nn_hp_targets tg;
	struct nn_hp_result *res;
	const struct nn_hp_mount *existing;
	struct nn_tx tx;
};

/* The walk's state read, every node's target made and checked, --mount
 * checked: nothing is written before all of it passed. 0 or -errno
 * (message printed). */
static int hp_prepare(struct nn_ctx *ctx, struct hp_run *r)
{
	const struct nn_hp_change *c = r->c;
	char why[512], sz[32];
	size_t i;
	int err;

	err = nn_hp_walk_read(ctx, &r->walk);
	if (err) {
		nn_err(ctx, "no hugepage support: %s: %s", NN_HP_SYS_MM, strerror(-err));
		return err;
	}
	err = nn_hp_targets_make(&r->walk.st, &(struct nn_hp_request){ .release = c->release,
				 .nodes = c->nodes, .size = c->size, .count = c->count,
				 .mem = c->mem, .all = c->all }, &r->tg, why, sizeof(why));
	for (i = 0; i < r->tg.nskipped; i++)
		nn_printf(&ctx->out, "node %d: no memory, skipped\n", r->tg.skipped[i]);
	if (err) {
		nn_err(ctx, "%s", why);
		return err;
	}
	nn_hp_size_name(r->tg.size_kb, sz, sizeof(sz));
	for (i = 0; i < r->tg.n; i++)
		if (r->tg.in_use[i])
			nn_warn(ctx, NULL, "node %d: %ld %s pages are in use; the kernel frees them "
				"as surplus when unmapped", r->tg.want[i].node, r->tg.in_use[i], sz);
	r->res = calloc(r->tg.n, sizeof(*r->res));
	if (!r->res) {
		nn_err(ctx, "out of memory");
		return -ENOMEM;
	}
	err = nn_hp_walk_check(&r->walk, r->tg.want, r->tg.n, r->res, why, sizeof(why));
	if (err) {
		nn_err(ctx, "hugepages %s: %s", c->release ? "release" : "reserve", why);
		return err;
	}
	if (c->mount_dir && nn_hp_mount_check(ctx, &r->walk.st, c->mount_dir, r->tg.size_kb,
					      c->dry_run, &r->existing))
		return -EINVAL;
	if (!c->dry_run && nn_root_is_live(&ctx->root) && geteuid() != 0) {
		nn_err(ctx, "hugepages %s writes %s/nodeN/hugepages/...: run as root (uid %u)",
		       c->release ? "release" : "reserve", NN_HP_SYS_NODE, (unsigned int)geteuid());
		return -EPERM;
	}
	return 0;
}

/* The transaction: one writer at a time (apply and rollback take the same
 * lock), the log begun before the first write. A dry run takes neither. */
static int hp_begin(struct nn_ctx *ctx, struct hp_run *r)
{
	int err;

	if (r->c->dry_run)
		return 0;
	err = nn_tx_lock(ctx, &r->tx);
	if (err)
		return err;
	err = nn_tx_begin(ctx, &r->tx, r->c->release ? "hugepages release" : "hugepages reserve");
	if (err)
		nn_err(ctx, "cannot start the undo log in %s: %s", ctx->state_dir, strerror(-err));
	return err;
}

/* The pools set, the outcome printed, then --mount where the pages are.
 * Returns the exit status. */
static int hp_write(struct nn_ctx *ctx, struct hp_run *r)
{
	const struct nn_hp_change *c = r->c;
	struct nn_out *o = &ctx->out;
	int flags = (c->partial ? NN_HP_PARTIAL : 0) | (c->dry_run ? NN_HP_DRY_RUN : 0);
	bool shortfall;
	int err;

	err = nn_hp_walk_write(ctx, &r->walk, r->tx.begun ? &r->tx.log : NULL, flags);
	shortfall = err == -ENOMEM;
	nn_open_object(o, NULL);
	nn_print_bool(o, PRINT_JSON, "dry_run", NULL, c->dry_run);
	nn_print_bool(o, PRINT_JSON, "partial", NULL, c->partial);
	nn_hp_results_print(o, r->res, r->tg.n, c->dry_run);
	if (shortfall)
		nn_hp_shortfall_print(o, &r->walk.st, r->res, r->tg.n, r->tg.size_kb, c->partial,
				      c->release);
	else if (err)
		nn_hp_walk_error(ctx, &r->walk, err);
	/* A mount only where the pages are (all of them, or --partial's share). */
	if (c->mount_dir) {
		int merr = nn_hp_mount_step(ctx, &r->tx.log, c->mount_dir, r->existing,
					    r->tg.size_kb, c->dry_run,
					    err && !(shortfall && c->partial));

		if (merr && !err)
			err = merr;
	}
	if (r->tx.begun && r->tx.log.nchanges)
		nn_print_string(o, PRINT_ANY, "undo_log", "undo log: %s (nicnuma rollback)\n",
				r->tx.log.file);
	else
		nn_print_null(o, PRINT_JSON, "undo_log", NULL);
	nn_print_warnings(ctx);
	nn_close_object(o);
	if (shortfall && c->partial)
		return NN_EXIT_WARN;
	if (err < 0)
		return NN_EXIT_ERROR;
	return ctx->nwarns ? NN_EXIT_WARN : NN_EXIT_OK;
}

int nn_hugepages_change(struct nn_ctx *ctx, const struct nn_hp_change *c)
{
	struct hp_run r = { .c = c, .walk = NN_HP_WALK_INIT, .tx = NN_TX_INIT };
	int status = NN_EXIT_ERROR;

	if (!hp_prepare(ctx, &r) && !hp_begin(ctx, &r))
		status = hp_write(ctx, &r);
	nn_tx_end(&r.tx);
	nn_hp_walk_free(&r.walk);
	nn_hp_targets_free(&r.tg);
	free(r.res);
	return status;
}
