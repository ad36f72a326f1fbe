// SPDX-License-Identifier: GPL-2.0-or-later
/* undo_replay.c - rollback: every change validated, then restored in reverse and reported */
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
#include "nicnuma/state/undo.h"
#include "nicnuma/state/undo_internal.h"

static void report(struct nn_ctx *ctx, const struct nn_change *c, const char *current,
		   const char *status, const char *error)
{
	struct nn_out *o = &ctx->out;

	nn_open_object(o, NULL);
	nn_print_string(o, PRINT_ANY, "kind", "%-10s ", c->ops->name);
	nn_print_string(o, PRINT_ANY, "path", "%-44s ", c->path);
	nn_print_string(o, PRINT_ANY, "current", "%-12s ", current);
	nn_print_string(o, PRINT_ANY, "restored", "%-12s ", c->before);
	nn_print_string(o, PRINT_ANY, "status", "%s", status);
	nn_print_string(o, PRINT_ANY, "error", error ? " (%s)" : NULL, error);
	nn_printf(o, "\n");
	nn_close_object(o);
}

int nn_undo_validate(struct nn_ctx *ctx, const struct nn_undo *u)
{
	char why[512];
	int err = nn_undo_validate_all(ctx, u, why, sizeof(why));

	if (err)
		nn_err(ctx, "cannot use snapshot %s: %s; nothing was restored", u->file, why);
	return err;
}

int nn_undo_rollback(struct nn_ctx *ctx, const struct nn_undo *u)
{
	int first = 0, err;
	size_t i;

	/* Every change is checked against the host before the first is
	 * restored: a log that fails anywhere changes nothing. */
	err = nn_undo_validate(ctx, u);
	if (err)
		return err;
	nn_print_string(&ctx->out, PRINT_ANY, "snapshot", "snapshot %s\n", u->file);
	nn_printf(&ctx->out, "%-10s %-44s %-12s %-12s %s\n", "KIND", "PATH", "CURRENT",
		  "RESTORED", "STATUS");
	nn_open_array(&ctx->out, "values");
	for (i = u->nchanges; i-- > 0;) {
		const struct nn_change *c = &u->changes[i];
		struct nn_restore res = { 0 };

		if (c->skip) {
			report(ctx, c, NULL, "skipped", c->skip);
			continue;
		}
		if (c->ops->live_only && !nn_root_is_live(&ctx->root)) {
			report(ctx, c, NULL, "skipped", "not touched (fake root)");
			continue;
		}
		err = c->ops->restore(ctx, c, &res);
		report(ctx, c, res.current, err ? "failed" : res.unchanged ? "unchanged" : "restored",
		       err ? (res.why[0] ? res.why : strerror(-err)) : NULL);
		free(res.current);
		if (err && !first)
			first = err;
	}
	nn_close_array(&ctx->out);
	return first;
}
