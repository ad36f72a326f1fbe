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
#include "nicnuma/act/enabled.h"
#include "nicnuma/core/fsroot.h"
#include "nicnuma/state/tx.h"
#include "nicnuma/act/change_kinds.h"

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
		time_t now = time(NULL);
		struct tm tm;

		gmtime_r(&now, &tm);
		strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%SZ", &tm);
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
