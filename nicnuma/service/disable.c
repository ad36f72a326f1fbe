// SPDX-License-Identifier: GPL-2.0-or-later
/* disable.c - disable: the watcher's unit stopped, the before-enable log put back, enable's files removed */
#include <errno.h>
#include <string.h>

#include "nicnuma/act/change_kinds.h"
#include "nicnuma/act/dev_ident.h"
#include "nicnuma/service/desired_io.h"
#include "nicnuma/service/disable.h"
#include "nicnuma/service/enabled.h"
#include "nicnuma/service/persist.h"
#include "nicnuma/core/ctx.h"
#include "nicnuma/core/print.h"
#include "nicnuma/discover/coexist.h"
#include "nicnuma/discover/nic.h"
#include "nicnuma/state/tx.h"
#include "nicnuma/state/undo.h"

static const char *stop_unit(struct nn_ctx *ctx)
{
	if (!nn_root_is_live(&ctx->root))
		return "not touched (fake root)";
	if (!nn_systemd_booted(ctx))
		return "skipped: systemd is not PID 1";
	if (nn_systemctl(ctx, "disable", "--now", true)) {
		nn_warn(ctx, NN_WATCH_UNIT, "systemctl disable --now failed");
		return "failed";
	}
	return "stopped and disabled";
}

/* The before-enable log put back, under @tx's lock (held to the end). */
static int disable_rollback(struct nn_ctx *ctx, struct nn_tx *tx, const struct nn_enabled *en)
{
	struct nn_napi_answers napi = { 0 };	/* one napi-get dump for every NAPI thread */
	int err = nn_tx_lock(ctx, tx);

	if (err || !en->snapshot)
		return err;
	err = nn_tx_load(ctx, tx, en->snapshot, nn_change_kinds, 0);
	if (!err && !tx->log.rolled_back)
		err = nn_dev_ident_mark(ctx, &tx->log);
	if (err)
		return err;
	nn_open_object(&ctx->out, "rollback");
	if (tx->log.rolled_back)
		nn_printf(&ctx->out, "snapshot %s was rolled back already\n", en->snapshot);
	else {
		nn_napi_answers_begin(ctx, &napi);
		if (nn_tx_replay(tx, 0) && !tx->restored)
			nn_warn(ctx, en->snapshot, "some values were not restored (above)");
		nn_napi_answers_end(ctx, &napi);
	}
	nn_close_object(&ctx->out);
	return 0;
}

int nn_disable(struct nn_ctx *ctx, bool keep)
{
	struct nn_enabled en = { 0 };
	struct nn_tx tx = NN_TX_INIT;
	int err, ret = NN_EXIT_ERROR, holder;

	err = nn_enabled_read(ctx, &en);
	if (err == -ENOENT)
		nn_err(ctx, "disable: not enabled (no %s/enabled.json)", ctx->state_dir);
	if (err)
		goto out;
	nn_open_object(&ctx->out, NULL);
	nn_open_object(&ctx->out, "disable");
	nn_print_string(&ctx->out, PRINT_ANY, "unit", "unit: %s\n", stop_unit(ctx));
	/* A watcher still running would put the values back at once. */
	if (nn_watch_lock_held(ctx, &holder) > 0) {
		nn_err(ctx, "disable: nicnuma watch (pid %d) still runs; stop it first", holder);
		goto close;
	}
	if (disable_rollback(ctx, &tx, &en))
		goto close;
	nn_print_string(&ctx->out, PRINT_ANY, "snapshot", "before-enable snapshot: %s\n", en.snapshot);
	if (en.unit) {
		err = nn_watch_unit_remove(ctx, en.unit);
		if (err && err != -ENOENT)
			nn_warn(ctx, en.unit, "cannot remove it: %s", strerror(-err));
		if (nn_systemd_booted(ctx))
			nn_systemctl(ctx, "daemon-reload", NULL, false);
	}
	nn_print_string(&ctx->out, PRINT_ANY, "unit_removed", "unit file removed: %s\n", en.unit);
	if (!keep) {
		err = nn_desired_remove(ctx, NULL);
		if (err && err != -ENOENT)
			nn_warn(ctx, NN_DESIRED_PATH, "cannot remove it: %s", strerror(-err));
	}
	nn_print_bool(&ctx->out, PRINT_ANY, "config_kept", "config kept: %s\n", keep);
	err = nn_enabled_remove(ctx);
	if (err && err != -ENOENT)
		goto close;
	ret = NN_EXIT_OK;
close:
	ret = nn_end_report(ctx, ret);
out:
	nn_tx_end(&tx);
	nn_enabled_free(&en);
	return ret;
}
