// SPDX-License-Identifier: GPL-2.0-or-later
/* cmd_disable.c - "nicnuma disable": stop the watcher, roll back to before enable */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "plan_opts.h"
#include "nicnuma/act/change_kinds.h"
#include "nicnuma/discover/coexist.h"
#include "nicnuma/act/desired_io.h"
#include "nicnuma/act/enabled.h"
#include "nicnuma/act/persist.h"
#include "nicnuma/state/undo.h"

enum { OPT_KEEP = NN_OPT_OWN };

static const struct nn_opt opts[] = {
	{ "keep-config", 0, NN_ARG_NONE, NULL, "keep /etc/nicnuma/nicnuma.conf for a later enable", OPT_KEEP },
	{ "state-dir", 0, NN_ARG_REQUIRED, "DIR", "snapshots, the lock and enabled.json", NN_OPT_STATE_DIR },
	{ 0 },
};

const struct nn_cmd_desc nn_desc_disable = {
	.name = "disable",
	.usage = "nicnuma [--root DIR] [--json] disable [--keep-config] [--state-dir DIR]",
	.intro =
"Undo 'nicnuma enable': systemctl disable --now nicnuma-watch.service (under\n"
"--root: not touched (fake root)), roll back to the before-enable snapshot\n"
"named in STATE_DIR/enabled.json (every value enable and the watcher\n"
"changed, as it was before the first enable), remove the unit file enable\n"
"wrote (never a packaged one) and /etc/nicnuma/nicnuma.conf (unless\n"
"--keep-config), then the enable record.\n",
	.opts = opts,
	.outro =
"Exit status: 0 disabled; 1 done with warnings (some value not restored);\n"
"2 error (not enabled, a watcher still running, an untrusted snapshot).\n",
};

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

int nn_cmd_disable(struct nn_ctx *ctx, int argc, char **argv)
{
	struct nn_optstate st = NN_OPTSTATE(argc, argv);
	struct nn_enabled en = { 0 };
	struct nn_undo u = { 0 };
	bool keep = false;
	const char *unit;
	int opt, err, ret = NN_EXIT_ERROR, lock = -1, holder;

	while ((opt = nn_opt_next(ctx, &nn_desc_disable, &st)) > 0) {
		switch (opt) {
		case OPT_KEEP:
			keep = true;
			break;
		case NN_OPT_STATE_DIR:
			ctx->state_dir = st.arg;
			break;
		}
	}
	if (opt < 0)
		return nn_opt_exit(opt);
	err = nn_enabled_read(ctx, &en);
	if (err == -ENOENT)
		nn_err(ctx, "disable: not enabled (no %s/enabled.json)", ctx->state_dir);
	if (err)
		goto out;
	nn_open_object(&ctx->out, NULL);
	nn_open_object(&ctx->out, "disable");
	unit = stop_unit(ctx);
	nn_print_string(&ctx->out, PRINT_ANY, "unit", "unit: %s\n", unit);
	/* A watcher still running would put the values back at once. */
	if (nn_watch_lock_held(ctx, &holder) > 0) {
		nn_err(ctx, "disable: nicnuma watch (pid %d) still runs; stop it first", holder);
		goto close;
	}
	lock = nn_state_lock(ctx);
	if (lock < 0)
		goto close;
	if (en.snapshot) {
		err = nn_undo_load(ctx, en.snapshot, nn_change_kinds, &u);
		if (err)
			goto close;
		nn_open_object(&ctx->out, "rollback");
		if (u.rolled_back)
			nn_printf(&ctx->out, "snapshot %s was rolled back already\n", en.snapshot);
		else if (nn_undo_rollback(ctx, &u) == 0)
			nn_undo_mark_rolled_back(ctx, &u);
		else
			nn_warn(ctx, en.snapshot, "some values were not restored (above)");
		nn_close_object(&ctx->out);
	}
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
	nn_close_object(&ctx->out);
	nn_print_warnings(ctx);
	nn_close_object(&ctx->out);
	if (ret == NN_EXIT_OK && ctx->nwarns)
		ret = NN_EXIT_WARN;
out:
	nn_state_unlock(lock);
	nn_undo_free(&u);
	nn_enabled_free(&en);
	return ret;
}
