// SPDX-License-Identifier: GPL-2.0-or-later
/* applied_plan.c - LOG.plan beside each apply's undo log (see applied_plan.h) */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nicnuma/core/ctx.h"
#include "nicnuma/core/fileio.h"
#include "nicnuma/core/limits.h"
#include "nicnuma/state/applied_plan.h"
#include "nicnuma/state/undo_internal.h"

/* LOG.plan for the log name @log ("STAMP-apply.json"): malloc'd or NULL. */
static char *plan_name(const char *log)
{
	size_t len = strlen(log), sl = strlen(NN_UNDO_SUFFIX);
	char *name;

	if (len > sl && !strcmp(log + len - sl, NN_UNDO_SUFFIX))
		len -= sl;
	if (asprintf(&name, "%.*s" NN_APPLIED_PLAN_SUFFIX, (int)len, log) < 0)
		return NULL;
	return name;
}

/* The directory of @u's file, opened under the state rule, and its plan's name. */
static int open_beside(struct nn_ctx *ctx, const struct nn_undo *u, int create, char **pname)
{
	const char *log;
	char *dir = NULL;
	int dfd, err;

	*pname = NULL;
	if (!u->file)
		return -EINVAL;
	err = nn_undo_split_path(u->file, &dir, &log);
	if (err)
		return err;
	dfd = nn_state_open_dir(ctx, dir, create);
	free(dir);
	if (dfd >= 0 && !(*pname = plan_name(log))) {
		close(dfd);
		return -ENOMEM;
	}
	return dfd;
}

int nn_applied_plan_save(struct nn_ctx *ctx, const struct nn_undo *u, const char *text, size_t len)
{
	char *name;
	int dfd = open_beside(ctx, u, 0, &name), err;

	if (dfd < 0)
		return dfd;
	err = nn_write_atomic_at(dfd, name, text, len, 0600);
	free(name);
	close(dfd);
	return err;
}

int nn_applied_plan_drop(struct nn_ctx *ctx, const struct nn_undo *u)
{
	char *name;
	int dfd = open_beside(ctx, u, 0, &name), err = 0;

	if (dfd < 0)
		return dfd;
	if (unlinkat(dfd, name, 0) < 0 && errno != ENOENT)
		err = -errno;
	free(name);
	close(dfd);
	return err;
}

int nn_applied_plan_read(struct nn_ctx *ctx, char **text, size_t *len, char **path, char *why,
			 size_t whylen)
{
	char **names = NULL, *name = NULL, inner[128];
	size_t n = 0, i;
	int dfd, err;

	*text = NULL;
	*path = NULL;
	dfd = nn_root_openat(&ctx->root, ctx->state_dir, O_RDONLY | O_DIRECTORY, 0);
	if (dfd == -ENOENT)
		return -ENODATA;
	if (dfd >= 0)
		close(dfd);
	dfd = nn_state_dir_open(ctx, 0);
	if (dfd < 0) {
		snprintf(why, whylen, "cannot open %s: %s", ctx->state_dir, strerror(-dfd));
		return dfd;
	}
	err = nn_undo_list_at(dfd, &names, &n);
	for (i = 0, err = err ? err : -ENODATA; err == -ENODATA && i < n; i++) {
		int rb = nn_undo_is_rolled_back(dfd, names[i]);

		if (rb == 1)
			continue;
		if (rb < 0) {
			snprintf(why, whylen, "cannot read snapshot %s/%s: %s", ctx->state_dir, names[i],
				 strerror(-rb));
			err = rb;
			break;
		}
		free(name);
		name = plan_name(names[i]);
		if (!name) {
			err = -ENOMEM;
			break;
		}
		err = nn_state_read_trusted(dfd, name, NN_DOC_MAX_BYTES, text, len, inner, sizeof(inner));
		if (err == -ENOENT)
			err = -ENODATA;	/* a log of another command (hugepages reserve): older ones count */
		else if (err)
			snprintf(why, whylen, "%s/%s: %s", ctx->state_dir, name, inner);
		else if (asprintf(path, "%s/%s", ctx->state_dir, name) < 0)
			err = -ENOMEM;
	}
	if (err) {
		free(*text);
		*text = NULL;
	}
	free(name);
	nn_undo_names_free(names, n);
	close(dfd);
	return err;
}
