// SPDX-License-Identifier: GPL-2.0-or-later
/* rollback.c - rollback: an undo log read back under the state lock */
#include <errno.h>
#include <string.h>

#include "nicnuma/act/change_kinds.h"
#include "nicnuma/act/dev_ident.h"
#include "nicnuma/act/rollback.h"
#include "nicnuma/core/ctx.h"
#include "nicnuma/core/print.h"
#include "nicnuma/discover/coexist.h"
#include "nicnuma/discover/nic.h"
#include "nicnuma/state/tx.h"
#include "nicnuma/state/undo.h"

static int status_of(const struct nn_ctx *ctx, int err)
{
	if (err < 0)
		return NN_EXIT_ERROR;
	return ctx->nwarns ? NN_EXIT_WARN : NN_EXIT_OK;
}

/* --json: a document on stdout even when no snapshot could be used (the
 * message naming the file and the reason is on stderr). */
static int refused(struct nn_ctx *ctx, int err)
{
	if (ctx->out.json) {
		nn_open_object(&ctx->out, NULL);
		nn_print_null(&ctx->out, PRINT_JSON, "rollback", NULL);
		nn_print_string(&ctx->out, PRINT_JSON, "error", NULL, strerror(-err));
		nn_print_warnings(ctx);
		nn_close_object(&ctx->out);
	}
	return NN_EXIT_ERROR;
}

/* Every snapshot rolled back already (or none): nothing to do, exit 0. */
static int nothing_left(struct nn_ctx *ctx)
{
	nn_open_object(&ctx->out, NULL);
	nn_open_object(&ctx->out, "rollback");
	nn_print_null(&ctx->out, PRINT_JSON, "snapshot", NULL);
	nn_printf(&ctx->out, "nothing to roll back in %s: no snapshot, or every one rolled back already "
		  "(rollback --list shows them)\n", ctx->state_dir);
	nn_close_object(&ctx->out);
	nn_print_warnings(ctx);
	nn_close_object(&ctx->out);
	return NN_EXIT_OK;
}

int nn_rollback_preview(struct nn_ctx *ctx, const char *file)
{
	struct nn_tx tx = NN_TX_INIT;
	int err = nn_tx_load(ctx, &tx, file, nn_change_kinds, NN_TX_VALIDATE);
	size_t i;

	if (err == -ENODATA) {
		nn_tx_end(&tx);
		return nothing_left(ctx);
	}
	if (err) {
		nn_tx_end(&tx);
		return refused(ctx, err);
	}
	nn_open_object(&ctx->out, NULL);
	nn_open_object(&ctx->out, "rollback");
	nn_print_bool(&ctx->out, PRINT_JSON, "dry_run", NULL, true);
	nn_print_string(&ctx->out, PRINT_ANY, "snapshot", "snapshot %s", tx.log.file);
	nn_print_string(&ctx->out, PRINT_ANY, "command", " (%s)", tx.log.command);
	nn_printf(&ctx->out, ": would restore, newest change first:\n");
	nn_open_array(&ctx->out, "values");
	for (i = tx.log.nchanges; i-- > 0;) {
		const struct nn_change *c = &tx.log.changes[i];

		nn_open_object(&ctx->out, NULL);
		nn_print_string(&ctx->out, PRINT_ANY, "kind", "  %-10s ", c->ops->name);
		nn_print_string(&ctx->out, PRINT_ANY, "path", "%s", c->path);
		nn_print_string(&ctx->out, PRINT_ANY, "restored", " -> %s\n", c->before);
		nn_close_object(&ctx->out);
	}
	nn_close_array(&ctx->out);
	nn_printf(&ctx->out, "nothing written (dry run)\n");
	nn_close_object(&ctx->out);
	nn_print_warnings(ctx);
	nn_close_object(&ctx->out);
	nn_tx_end(&tx);
	return status_of(ctx, 0);
}

int nn_rollback_list(struct nn_ctx *ctx)
{
	char **names;
	size_t n, i;
	int err = nn_undo_list(ctx, &names, &n);

	if (err && err != -ENOENT) {
		nn_err(ctx, "cannot list snapshots in %s: %s", ctx->state_dir, strerror(-err));
		return NN_EXIT_ERROR;
	}
	nn_open_object(&ctx->out, NULL);
	nn_open_array(&ctx->out, "snapshots");
	for (i = 0; i < n; i++) {
		struct nn_undo u;
		/* each one read under the rule rollback uses; one it refuses says why on stderr */
		int e = nn_undo_load(ctx, names[i], nn_change_kinds, &u);

		nn_open_object(&ctx->out, NULL);
		nn_print_string(&ctx->out, PRINT_ANY, "file", "%s", names[i]);
		if (e) {
			nn_print_null(&ctx->out, PRINT_JSON, "command", NULL);
			nn_print_bool(&ctx->out, PRINT_JSON, "usable", NULL, false);
			nn_printf(&ctx->out, "  cannot be used (%s)\n", strerror(-e));
		} else {
			nn_print_string(&ctx->out, PRINT_ANY, "command", "  %s", u.command);
			nn_print_uint(&ctx->out, PRINT_ANY, "nchanges", ", %llu values", u.nchanges);
			nn_print_bool(&ctx->out, PRINT_JSON, "usable", NULL, true);
			nn_print_bool(&ctx->out, PRINT_JSON, "rolled_back", NULL, u.rolled_back);
			nn_printf(&ctx->out, "%s\n", u.rolled_back ? ", rolled back" : ", not rolled back");
			nn_undo_free(&u);
		}
		nn_close_object(&ctx->out);
	}
	nn_close_array(&ctx->out);
	if (!n)
		nn_printf(&ctx->out, "no snapshot in %s\n", ctx->state_dir);
	nn_print_warnings(ctx);
	nn_close_object(&ctx->out);
	nn_undo_names_free(names, n);
	return status_of(ctx, 0);
}

int nn_rollback(struct nn_ctx *ctx, const char *file)
{
	struct nn_napi_answers napi = { 0 };	/* one napi-get dump for every NAPI thread */
	struct nn_tx tx = NN_TX_INIT;
	int err, ret = NN_EXIT_ERROR;

	/* the whole log is validated before any restore */
	err = nn_tx_load(ctx, &tx, file, nn_change_kinds, NN_TX_VALIDATE);
	if (err == -ENODATA) {
		ret = nothing_left(ctx);
		goto out;
	}
	if (err) {
		ret = refused(ctx, err);
		goto out;
	}
	err = nn_dev_ident_mark(ctx, &tx.log);
	if (err) {
		ret = refused(ctx, err);
		goto out;
	}
	nn_open_object(&ctx->out, NULL);
	nn_open_object(&ctx->out, "rollback");
	nn_print_string(&ctx->out, PRINT_JSON, "command", NULL, tx.log.command);
	nn_napi_answers_begin(ctx, &napi);
	err = nn_tx_replay(&tx, NN_TX_PRUNE);
	nn_napi_answers_end(ctx, &napi);
	nn_close_object(&ctx->out);
	if (err && !tx.restored)
		nn_err(ctx, "some values could not be restored (see above); the snapshot %s is "
		       "kept for another try", tx.log.file);
	nn_print_warnings(ctx);
	nn_close_object(&ctx->out);
	ret = status_of(ctx, err);
out:
	nn_tx_end(&tx);
	return ret;
}
