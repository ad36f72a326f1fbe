// SPDX-License-Identifier: GPL-2.0-or-later
/* enabled.c - the record of what enable set up (format in enabled.h) */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>

#include "nicnuma/core/fileio.h"
#include "nicnuma/core/ctx.h"
#include "nicnuma/service/enabled.h"
#include "nicnuma/core/fsroot.h"
#include "nicnuma/state/tx.h"
#include "nicnuma/act/change_kinds.h"
#include "nicnuma/service/persist.h"
#include "nicnuma/core/print.h"
#include "nicnuma/core/strbuf.h"
#include "nicnuma/core/trust.h"
#include "nicnuma/core/utc.h"

#define ENABLED_NAME "enabled.json"

void nn_enabled_free(struct nn_enabled *e)
{
	free(e->since);
	free(e->snapshot);
	free(e->unit);
	memset(e, 0, sizeof(*e));
}

static int get_str(struct json_object *doc, const char *key, char **out)
{
	struct json_object *v;

	*out = NULL;
	if (!json_object_object_get_ex(doc, key, &v) || !v)
		return 0;
	if (!json_object_is_type(v, json_type_string))
		return -EINVAL;
	*out = strdup(json_object_get_string(v));
	return *out ? 0 : -ENOMEM;
}

int nn_enabled_read(struct nn_ctx *ctx, struct nn_enabled *e)
{
	struct json_object *doc = NULL, *v;
	char path[1024], *text = NULL;
	size_t len;
	int err;

	memset(e, 0, sizeof(*e));
	snprintf(path, sizeof(path), "%s/" ENABLED_NAME, ctx->state_dir);
	err = nn_read_file(&ctx->root, path, &text, &len);
	if (err == -ENOENT)
		return err;
	if (!err) {
		doc = json_tokener_parse(text);
		err = doc && json_object_is_type(doc, json_type_object) ? 0 : -EINVAL;
	}
	if (!err) {
		e->enabled = json_object_object_get_ex(doc, "enabled", &v) && json_object_get_boolean(v);
		err = get_str(doc, "since", &e->since);
		if (!err)
			err = get_str(doc, "snapshot", &e->snapshot);
		if (!err)
			err = get_str(doc, "unit", &e->unit);
		/* a log name, never a path: it is looked up in the state dir */
		if (!err && e->snapshot && (strchr(e->snapshot, '/') || e->snapshot[0] == '.'))
			err = -EINVAL;
	}
	if (err) {
		nn_err(ctx, "%s: %s", path, err == -EINVAL ? "not a nicnuma enable record" : strerror(-err));
		nn_enabled_free(e);
	}
	json_object_put(doc);
	free(text);
	return err;
}

int nn_enabled_write(struct nn_ctx *ctx, const struct nn_enabled *e)
{
	struct json_object *doc = json_object_new_object();
	const char *text;
	int dfd, err = -ENOMEM;

	if (!doc)
		return err;
	json_object_object_add(doc, "enabled", json_object_new_boolean(e->enabled));
	json_object_object_add(doc, "since", e->since ? json_object_new_string(e->since) : NULL);
	json_object_object_add(doc, "snapshot", e->snapshot ? json_object_new_string(e->snapshot) : NULL);
	json_object_object_add(doc, "unit", e->unit ? json_object_new_string(e->unit) : NULL);
	text = json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE);
	dfd = nn_state_dir_open(ctx, 1);
	if (dfd < 0)
		err = dfd;
	else if (text)
		err = nn_write_atomic_at(dfd, ENABLED_NAME, text, strlen(text), 0600);
	if (dfd >= 0)
		close(dfd);
	if (err)
		nn_err(ctx, "cannot write %s/" ENABLED_NAME ": %s", ctx->state_dir, strerror(-err));
	json_object_put(doc);
	return err;
}

int nn_enabled_remove(struct nn_ctx *ctx)
{
	int dfd = nn_state_dir_open(ctx, 0), err;

	if (dfd < 0)
		return dfd;
	err = unlinkat(dfd, ENABLED_NAME, 0) < 0 ? -errno : 0;
	close(dfd);
	return err;
}

int nn_enabled_log(struct nn_ctx *ctx, const struct nn_enabled *e, struct nn_tx *tx)
{
	int err;

	if (!e->snapshot)
		return nn_tx_begin(ctx, tx, "enable");
	err = nn_tx_load(ctx, tx, e->snapshot, nn_change_kinds, 0);
	if (err)
		return err;
	if (tx->log.rolled_back) {	/* replayed by hand: start afresh */
		nn_undo_free(&tx->log);
		return nn_tx_begin(ctx, tx, "enable");
	}
	return 0;
}

int nn_enabled_note_log(struct nn_ctx *ctx, struct nn_enabled *e, const struct nn_undo *u)
{
	const char *slash;
	char *name;

	if (!u->file || !u->nchanges)
		return 0;
	slash = strrchr(u->file, '/');
	name = strdup(slash ? slash + 1 : u->file);
	if (!name)
		return -ENOMEM;
	if (e->snapshot && !strcmp(e->snapshot, name)) {
		free(name);
		return 0;
	}
	free(e->snapshot);
	e->snapshot = name;
	if (!e->since) {
		char stamp[32];

		nn_utc_stamp(stamp, sizeof(stamp), time(NULL), false);
		e->since = strdup(stamp);
	}
	return nn_enabled_write(ctx, e);
}

bool nn_enabled_on(struct nn_ctx *ctx)
{
	struct nn_enabled en = { 0 };
	bool on = !nn_enabled_read(ctx, &en) && en.enabled;

	nn_enabled_free(&en);
	return on;
}

/* Before anything is written: the binary the unit's ExecStart= names, which
 * systemd runs as root at every start, must be one nobody but root could
 * have written (nn_trusted_file, the rule irqbalance's binary follows). On a
 * fake root the unit is never started, so it is not asked there. */
int nn_enable_exe(struct nn_ctx *ctx, char *exe, size_t size)
{
	char why[512];

	if (nn_self_exe(exe, size))
		snprintf(exe, size, "/usr/sbin/nicnuma");
	if (!nn_root_is_live(&ctx->root) || !nn_trusted_file(&ctx->root, exe, why, sizeof(why)))
		return 0;
	nn_err(ctx, "enable: refusing to write a unit that runs %s as root at every start: %s; "
	       "install nicnuma and run the installed /usr/sbin/nicnuma enable", exe, why);
	return -1;
}

/* enable's step 3, the unit (enabled.h). Returns 0, or 1 when it was skipped with a warning. */
int nn_enable_unit(struct nn_ctx *ctx, const char *exe, bool conflicts_irqbalance, bool load_vfio,
		   bool no_start, struct nn_enabled *en)
{
	struct nn_unit_opts uo = { 0 };
	struct nn_sb sb = NN_SB_INIT;
	char packaged[256];
	const char *action = "failed";
	bool written = false;
	int err = 0, ret = 0;

	nn_open_object(&ctx->out, "unit");
	/* Always written: it overrides a packaged unit with this host's
	 * specifics (its binary, Conflicts=irqbalance.service). */
	if (nn_watch_unit_packaged(ctx, packaged, sizeof(packaged)))
		nn_printf(&ctx->out, "unit: overrides the packaged %s\n", packaged);
	uo.exe = exe;
	uo.conflicts_irqbalance = conflicts_irqbalance;
	uo.load_vfio = load_vfio;
	uo.notify = nn_watch_notify_supported();
	err = nn_watch_unit_text(&uo, &sb);
	if (!err)
		err = nn_watch_unit_write(ctx, sb.buf, sb.len);
	if (err) {
		nn_err(ctx, "cannot write %s: %s", NN_WATCH_UNIT_PATH, strerror(-err));
		ret = -1;
		goto out;
	}
	written = true;
	free(en->unit);
	en->unit = strdup(NN_WATCH_UNIT_PATH);
	/* under --root the file is in the tree: say where, and that systemd was not asked */
	nn_printf(&ctx->out, "unit: wrote %s%s\n", nn_root_is_live(&ctx->root) ? "" : ctx->root.path,
		  NN_WATCH_UNIT_PATH);
	if (!nn_root_is_live(&ctx->root)) {
		action = "not enabled or started (fake root: systemd left alone)";
	} else if (!nn_systemd_booted(ctx)) {
		action = "skipped: systemd is not PID 1";
		nn_warn(ctx, NN_WATCH_UNIT, "systemd is not PID 1: the unit is written but not "
			"enabled; run 'nicnuma watch' from the init system instead");
		ret = 1;
	} else {
		err = nn_systemctl(ctx, "daemon-reload", NULL, false);
		if (!err)
			err = nn_systemctl(ctx, no_start ? "enable" : "restart", NULL, true);
		if (!err && !no_start)
			err = nn_systemctl(ctx, "enable", NULL, true);
		action = no_start ? "enabled (not started: --no-start)" : "enabled and started";
		if (err) {
			nn_err(ctx, "systemctl on %s failed (%s%d); see journalctl -u %s",
			       NN_WATCH_UNIT, err < 0 ? "errno " : "status ", err < 0 ? -err : err,
			       NN_WATCH_UNIT);
			action = "failed";
			ret = -1;
		}
	}
	nn_printf(&ctx->out, "unit: %s\n", action);
out:
	nn_print_string(&ctx->out, PRINT_JSON, "path", NULL, written ? NN_WATCH_UNIT_PATH :
			packaged[0] ? packaged : NULL);
	nn_print_bool(&ctx->out, PRINT_JSON, "written", NULL, written);
	nn_print_bool(&ctx->out, PRINT_JSON, "packaged", NULL, packaged[0] != '\0');
	nn_print_string(&ctx->out, PRINT_JSON, "action", NULL, ret < 0 ? "failed" : action);
	nn_close_object(&ctx->out);
	nn_sb_free(&sb);
	return ret;
}
