// SPDX-License-Identifier: GPL-2.0-or-later
/* undo_log.c - the undo log being written: begin, add, save before each write, mark rolled back */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>

#include "nicnuma/core/fileio.h"
#include "nicnuma/core/limits.h"
#include "nicnuma/core/ctx.h"
#include "nicnuma/core/utc.h"
#include "nicnuma/state/undo.h"
#include "nicnuma/state/undo_internal.h"

static char *log_name(const char *command)
{
	struct timespec ts;
	char stamp[64], cmd[64];
	size_t i;
	char *name;

	clock_gettime(CLOCK_REALTIME, &ts);
	nn_utc_stamp(stamp, sizeof(stamp), ts.tv_sec, true);
	/* The timestamp leads so that name order is time order across commands. */
	for (i = 0; command[i] && i < sizeof(cmd) - 1; i++) {
		char c = command[i];

		cmd[i] = ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) ? c : '-';
	}
	cmd[i] = '\0';
	if (asprintf(&name, "%s.%09ldZ-%s" NN_UNDO_SUFFIX, stamp, ts.tv_nsec, cmd) < 0)
		return NULL;
	return name;
}

int nn_undo_begin(struct nn_ctx *ctx, struct nn_undo *u, const char *command)
{
	char *name;
	int n;

	memset(u, 0, sizeof(*u));
	u->command = strdup(command);
	name = log_name(command);
	if (!u->command || !name) {
		free(name);
		nn_undo_free(u);
		return -ENOMEM;
	}
	n = asprintf(&u->file, "%s/%s", ctx->state_dir, name);
	free(name);
	if (n < 0) {
		u->file = NULL;
		nn_undo_free(u);
		return -ENOMEM;
	}
	return 0;
}

static void change_free(struct nn_change *c)
{
	free(c->path);
	free(c->before);
	free(c->after);
	free(c->detail);
	free(c->device);
	free(c->skip);
}

int nn_undo_set_device(struct nn_undo *u, size_t i, const char *device)
{
	char *d;

	if (i >= u->nchanges || !device)
		return -EINVAL;
	d = strdup(device);
	if (!d)
		return -ENOMEM;
	free(u->changes[i].device);
	u->changes[i].device = d;
	return 0;
}

int nn_undo_add(struct nn_undo *u, const struct nn_change_ops *ops, const char *path,
		const char *before, const char *after, const char *detail)
{
	struct nn_change *c;
	int err;

	if (!ops)
		return -EINVAL;
	err = NN_GROW(u->changes, u->nchanges, u->cap);
	if (err)
		return err;
	c = &u->changes[u->nchanges];
	memset(c, 0, sizeof(*c));
	c->ops = ops;
	c->path = nn_undo_dupz(path);
	c->before = nn_undo_dupz(before);
	c->after = nn_undo_dupz(after);
	c->detail = nn_undo_dupz(detail);
	if ((path && !c->path) || (before && !c->before) || (after && !c->after) ||
	    (detail && !c->detail)) {
		change_free(c);
		return -ENOMEM;
	}
	u->nchanges++;
	return 0;
}

static struct json_object *jstr(const char *s)
{
	return s ? json_object_new_string(s) : NULL;
}

static struct json_object *to_json(const struct nn_undo *u, const char *rolled_back)
{
	struct json_object *doc = json_object_new_object(), *arr = json_object_new_array();
	char created[32];
	size_t i;

	nn_utc_stamp(created, sizeof(created), time(NULL), false);
	json_object_object_add(doc, "version", json_object_new_int(1));
	json_object_object_add(doc, "command", jstr(u->command));
	json_object_object_add(doc, "created", json_object_new_string(created));
	json_object_object_add(doc, "host", u->host ? json_object_get(u->host) : NULL);
	if (rolled_back)
		json_object_object_add(doc, "rolled_back", json_object_new_string(rolled_back));
	for (i = 0; i < u->nchanges; i++) {
		const struct nn_change *c = &u->changes[i];
		struct json_object *o = json_object_new_object();

		json_object_object_add(o, "kind", json_object_new_string(c->ops->name));
		json_object_object_add(o, "path", jstr(c->path));
		json_object_object_add(o, "before", jstr(c->before));
		json_object_object_add(o, "after", jstr(c->after));
		if (c->detail) {
			/* Detail is JSON text: embed it as an object when it parses. */
			struct json_object *d = json_tokener_parse(c->detail);

			json_object_object_add(o, "detail", d ? d : json_object_new_string(c->detail));
		}
		if (c->device)
			json_object_object_add(o, "device", json_tokener_parse(c->device));
		json_object_array_add(arr, o);
	}
	json_object_object_add(doc, "changes", arr);
	return doc;
}

/* Splits a log path "DIR/NAME" into its directory (malloc'd) and name. */
int nn_undo_split_path(const char *path, char **dir, const char **name)
{
	const char *s = strrchr(path, '/');

	if (!s || !s[1])
		return -EINVAL;
	*name = s + 1;
	*dir = s == path ? strdup("/") : strndup(path, (size_t)(s - path));
	return *dir ? 0 : -ENOMEM;
}

/* Writes @u to u->file: the file it was loaded from, or the new one in the
 * state dir. */
static int save(struct nn_ctx *ctx, const struct nn_undo *u, const char *rolled_back)
{
	struct json_object *doc = to_json(u, rolled_back);
	const char *text = json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PRETTY |
							  JSON_C_TO_STRING_NOSLASHESCAPE);
	const char *name;
	char *dir = NULL;
	size_t len = text ? strlen(text) : 0;
	int dfd = -1, err;

	if (!text) {
		err = -ENOMEM;
		goto out;
	}
	/* Checked before any kernel write: a log rollback cannot read back would
	 * make the run irreversible. */
	if (len > NN_DOC_MAX_BYTES) {
		nn_err(ctx, "the snapshot of this %s would be %zu bytes, more than rollback reads "
		       "(%u MiB)", u->command && !strcmp(u->command, "apply") ? "plan" :
		       u->command ? u->command : "run", len, NN_MIB(NN_DOC_MAX_BYTES));
		err = -EFBIG;
		goto quiet;
	}
	err = nn_undo_split_path(u->file, &dir, &name);
	if (err)
		goto out;
	dfd = nn_state_open_dir(ctx, dir, !strcmp(dir, ctx->state_dir));
	if (dfd < 0) {
		err = dfd;
		goto out;
	}
	err = nn_write_atomic_at(dfd, name, text, len, 0600);
out:
	if (err)
		nn_err(ctx, "cannot save snapshot %s: %s", u->file, strerror(-err));
quiet:
	if (dfd >= 0)
		close(dfd);
	free(dir);
	json_object_put(doc);
	return err;
}

int nn_undo_save(struct nn_ctx *ctx, struct nn_undo *u)
{
	return save(ctx, u, NULL);
}

int nn_undo_record(struct nn_ctx *ctx, struct nn_undo *u, const struct nn_change_ops *ops,
		   const char *path, const char *before, const char *after, const char *detail)
{
	int err = nn_undo_add(u, ops, path, before, after, detail);

	if (err)
		return err;
	err = nn_undo_save(ctx, u);
	if (err)	/* not persisted: the caller must not write, so forget it too */
		change_free(&u->changes[--u->nchanges]);
	return err;
}

int nn_undo_mark_rolled_back(struct nn_ctx *ctx, const struct nn_undo *u)
{
	char stamp[32];

	nn_utc_stamp(stamp, sizeof(stamp), time(NULL), false);
	return save(ctx, u, stamp);
}

void nn_undo_free(struct nn_undo *u)
{
	size_t i;

	for (i = 0; i < u->nchanges; i++)
		change_free(&u->changes[i]);
	free(u->changes);
	free(u->file);
	free(u->command);
	json_object_put(u->host);
	memset(u, 0, sizeof(*u));
}
