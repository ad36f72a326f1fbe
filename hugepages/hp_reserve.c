// SPDX-License-Identifier: GPL-2.0-or-later
/* hp_reserve.c - set per-node hugepage pools: undo record, write, readback,
 * one compaction retry on a shortfall, restore unless told to keep it */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hugepages/hp_set.h"
#include "hugepages/hp_target.h"
#include "nicnuma/core/ctx.h"
#include "nicnuma/state/undo.h"
#include "nicnuma/state/value_restore.h"

static int write_count(struct nn_ctx *ctx, const char *path, long v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%ld", v);
	return nn_write_str(&ctx->root, path, buf);
}

static int read_count(struct nn_ctx *ctx, const char *path, long *v)
{
	int err = nn_read_long(&ctx->root, path, v);

	if (!err && *v < 0)
		err = -EINVAL;
	return err;
}

/* Puts @res->before back and reads it back into @res->after. */
static int restore(struct nn_ctx *ctx, const char *path, struct nn_hp_result *res)
{
	long now;
	int err;

	err = write_count(ctx, path, res->before);
	if (!err)
		err = read_count(ctx, path, &now);
	if (err) {
		nn_warn(ctx, path, "could not restore %ld: %s", res->before, strerror(-err));
		return err;
	}
	res->after = now;
	res->restored = true;
	if (now != res->before) {
		nn_warn(ctx, path, "restored %ld but the kernel reads back %ld", res->before, now);
		return -EIO;
	}
	return 0;
}

/* Writes @target into the pool at @path and reads it back into @res->got
 * and @res->after; the write's own error goes to *@werr (a short count is
 * the caller's to judge). When even the readback fails, the old value is put
 * back blind and the read's error returned. */
static int write_readback(struct nn_ctx *ctx, const char *path, long target,
			  struct nn_hp_result *res, int *werr)
{
	int err;

	*werr = write_count(ctx, path, target);
	err = read_count(ctx, path, &res->got);
	if (err) {
		res->got = -1;
		restore(ctx, path, res);
		return err;
	}
	res->after = res->got;
	return 0;
}

/* The write/readback/compact/retry core on one pool, already checked, its
 * file resolved: the only place a pool's count is written. */
static int set_pool(struct nn_ctx *ctx, struct nn_undo *undo, const char *path, long target,
		    int flags, struct nn_hp_result *res)
{
	char before[32], after[32];
	int err, werr;

	/* Fresh: the state the walk checked may be seconds old. */
	err = read_count(ctx, path, &res->before);
	if (err)
		return err;
	res->got = res->after = res->before;
	if (target == res->before || (flags & NN_HP_DRY_RUN))
		return 0;
	if (!undo)
		return -EINVAL;
	snprintf(before, sizeof(before), "%ld", res->before);
	snprintf(after, sizeof(after), "%ld", target);
	err = nn_undo_record(ctx, undo, &nn_file_change_ops, path, before, after, NULL);
	if (err)
		return err;
	res->changed = true;
	err = write_readback(ctx, path, target, res, &werr);
	if (err)
		return err;
	if (werr && werr != -ENOMEM && res->got == res->before)
		return werr;	/* refused outright (EACCES, EINVAL...): nothing changed */
	/* The kernel allocates what it can find and stops: a short count, or
	 * ENOMEM/EINVAL for gigantic pages. Compaction may make room. */
	if (res->got < target) {
		int cerr = nn_write_str(&ctx->root, NN_HP_COMPACT, "1");

		if (cerr)
			nn_warn(ctx, NN_HP_COMPACT, "compaction failed: %s", strerror(-cerr));
		res->compacted = true;
		err = write_readback(ctx, path, target, res, &werr);
		if (err)
			return err;
	}
	if (res->got == target)
		return 0;
	if (res->got > target && target < res->before) {
		/* A release the kernel did not complete. */
		nn_warn(ctx, path, "asked for %ld, reads back %ld", target, res->got);
	}
	if (!(flags & NN_HP_PARTIAL)) {
		err = restore(ctx, path, res);
		if (err)
			return err;
	}
	return -ENOMEM;
}

int nn_hp_walk_write(struct nn_ctx *ctx, struct nn_hp_walk *w, struct nn_undo *undo, int flags)
{
	size_t i, j;
	int err, short_err = 0;

	for (i = 0; i < w->n; i++) {
		err = set_pool(ctx, undo, w->path[i], w->want[i].target, flags, &w->res[i]);
		if (!err)
			continue;
		if (err == -ENOMEM && (flags & NN_HP_PARTIAL)) {
			short_err = err;
			continue;
		}
		/* All or nothing: put back every pool already set. */
		for (j = i; j-- > 0;)
			if (w->res[j].changed && w->res[j].after != w->res[j].before)
				restore(ctx, w->path[j], &w->res[j]);
		return err;
	}
	return short_err;
}

/* Relative change on one pool: a walk of one, its target from the state. */
static int change(struct nn_ctx *ctx, struct nn_undo *undo, int node, unsigned long size_kb,
		  long delta, bool all, int flags, struct nn_hp_result *res)
{
	struct nn_hp_walk w = NN_HP_WALK_INIT;
	struct nn_plan_hugepages want = { .node = node, .size_kb = size_kb, .target = -1 };
	const struct nn_hp_pool *p;
	char why[256];
	int err;

	nn_hp_result_init(res, node, size_kb, -1);
	err = nn_hp_walk_read(ctx, &w);
	if (err)
		return err;
	p = nn_hp_state_pool(&w.st, node, size_kb);
	if (!p || p->total < 0) {
		err = nn_hp_state_node(&w.st, node) ? -EOPNOTSUPP : -ENODEV;
		goto out;
	}
	if (all)
		want.target = 0;
	else if (delta < 0 || p->total <= LONG_MAX - delta)
		want.target = p->total + delta;
	if (want.target < 0) {
		err = -ERANGE;
		goto out;
	}
	want.current = p->total;
	err = nn_hp_walk_check(&w, &want, 1, res, why, sizeof(why));
	if (!err)
		err = nn_hp_walk_write(ctx, &w, undo, flags);
out:
	nn_hp_walk_free(&w);
	return err;
}

int nn_hugepages_reserve(struct nn_ctx *ctx, struct nn_undo *undo, int node,
			 unsigned long size_kb, long count, int flags, struct nn_hp_result *res)
{
	if (count < 0)
		return -EINVAL;
	return change(ctx, undo, node, size_kb, count, false, flags, res);
}

int nn_hugepages_release(struct nn_ctx *ctx, struct nn_undo *undo, int node,
			 unsigned long size_kb, long count, int flags, struct nn_hp_result *res)
{
	return change(ctx, undo, node, size_kb, count < 0 ? 0 : -count, count < 0, flags, res);
}

int nn_hp_boot_args(const struct nn_hp_state *st, unsigned long size_kb,
		    const struct nn_hp_result *res, size_t n, char *buf, size_t size)
{
	struct nn_plan_hugepages *e;
	size_t i, j, m = 0;
	int len;

	e = calloc(st->nnodes ? st->nnodes : 1, sizeof(*e));
	if (!e)
		return -ENOMEM;
	/* The boot line sets every node's pool: the asked-for count where the
	 * user asked, what each other node holds now everywhere else. */
	for (i = 0; i < st->nnodes; i++) {
		const struct nn_hp_pool *p = nn_hp_state_pool(st, st->nodes[i].id, size_kb);
		long want = p && p->total > 0 ? p->total : 0;

		for (j = 0; j < n; j++)
			if (res[j].node == st->nodes[i].id && res[j].size_kb == size_kb)
				want = res[j].target;
		e[m].node = st->nodes[i].id;
		e[m].size_kb = size_kb;
		e[m].current = p ? p->total : -1;
		e[m].target = want;
		m++;
	}
	len = nn_hp_format_boot_args(size_kb, e, m, buf, size);
	free(e);
	return len;
}

int nn_hugepages_apply_plan(struct nn_ctx *ctx, struct nn_undo *undo,
			    const struct nn_plan_hugepages *hp, size_t n, int flags,
			    struct nn_hp_result *out)
{
	struct nn_hp_walk w = NN_HP_WALK_INIT;
	struct nn_hp_result *res = out;
	char why[256];
	int err;

	if (!n)
		return 0;
	if (!res)
		res = calloc(n, sizeof(*res));
	if (!res)
		return -ENOMEM;
	err = nn_hp_walk_plan(ctx, &w, hp, n, res, why, sizeof(why));
	if (err) {
		nn_warn(ctx, NULL, "%s", why);
		goto out;
	}
	err = nn_hp_walk_write(ctx, &w, undo, flags & NN_HP_DRY_RUN);
	if (err)
		nn_hp_walk_warn(ctx, &w);
out:
	nn_hp_walk_free(&w);
	if (res != out)
		free(res);
	return err;
}
