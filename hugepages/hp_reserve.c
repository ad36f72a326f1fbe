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

static void result_init(struct nn_hp_result *res, int node, unsigned long size_kb, long target)
{
	memset(res, 0, sizeof(*res));
	res->node = node;
	res->size_kb = size_kb;
	res->before = res->got = res->after = -1;
	res->target = target;
}

/* The write/readback/compact/retry core on one pool, already checked. */
static int set_pool(struct nn_ctx *ctx, struct nn_undo *undo, bool numa, int node,
		    unsigned long size_kb, long target, int flags, struct nn_hp_result *res)
{
	char path[PATH_MAX], before[32], after[32];
	int err, werr;

	result_init(res, node, size_kb, target);
	err = nn_hp_pool_path(numa, node, size_kb, "nr_hugepages", path, sizeof(path));
	if (err)
		return err;
	/* Fresh: the snapshot the caller checked may be seconds old. */
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

int nn_hugepages_set(struct nn_ctx *ctx, struct nn_undo *undo, const struct nn_hp_state *st,
		     int node, unsigned long size_kb, long target, int flags,
		     struct nn_hp_result *res)
{
	char why[256];
	int err;

	err = nn_hp_check_target(st, node, size_kb, target, why, sizeof(why));
	if (err) {
		result_init(res, node, size_kb, target);
		return err;
	}
	return set_pool(ctx, undo, st->numa, node, size_kb, target, flags, res);
}

/* Relative change on one pool: reads the state for checks and the count. */
static int change(struct nn_ctx *ctx, struct nn_undo *undo, int node, unsigned long size_kb,
		  long delta, bool all, int flags, struct nn_hp_result *res)
{
	struct nn_hp_state st;
	const struct nn_hp_pool *p;
	long target;
	int err;

	result_init(res, node, size_kb, -1);
	err = nn_hp_state_read(ctx, &st);
	if (err)
		return err;
	p = nn_hp_state_pool(&st, node, size_kb);
	if (!p || p->total < 0) {
		err = nn_hp_state_node(&st, node) ? -EOPNOTSUPP : -ENODEV;
		goto out;
	}
	if (all)
		target = 0;
	else if (delta >= 0 && p->total > LONG_MAX - delta)
		target = -1;
	else
		target = p->total + delta;
	if (target < 0) {
		err = -ERANGE;
		goto out;
	}
	err = nn_hugepages_set(ctx, undo, &st, node, size_kb, target, flags, res);
out:
	nn_hp_state_free(&st);
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

int nn_hugepages_set_many(struct nn_ctx *ctx, struct nn_undo *undo, const struct nn_hp_state *st,
			  const struct nn_plan_hugepages *want, size_t n, int flags,
			  struct nn_hp_result *res)
{
	char why[256];
	size_t i, j;
	int err = 0, short_err = 0;

	for (i = 0; i < n; i++) {
		const struct nn_hp_pool *p = nn_hp_state_pool(st, want[i].node, want[i].size_kb);

		result_init(&res[i], want[i].node, want[i].size_kb, want[i].target);
		res[i].before = res[i].got = res[i].after = p ? p->total : -1;
	}
	/* Everything is checked before the first write: bad input changes nothing. */
	for (i = 0; i < n; i++) {
		err = nn_hp_check_target(st, want[i].node, want[i].size_kb, want[i].target,
					 why, sizeof(why));
		if (err) {
			nn_warn(ctx, NULL, "%s", why);
			return err;
		}
		for (j = 0; j < i; j++)
			if (want[j].node == want[i].node && want[j].size_kb == want[i].size_kb) {
				nn_warn(ctx, NULL, "node %d: page size %lu kB asked twice",
					want[i].node, want[i].size_kb);
				return -EINVAL;
			}
	}
	for (i = 0; i < n; i++) {
		err = set_pool(ctx, undo, st->numa, want[i].node, want[i].size_kb,
			       want[i].target, flags, &res[i]);
		if (!err)
			continue;
		if (err == -ENOMEM && (flags & NN_HP_PARTIAL)) {
			short_err = err;
			continue;
		}
		/* All or nothing: put back every pool already set. */
		for (j = i; j-- > 0;) {
			char path[PATH_MAX];

			if (!res[j].changed || res[j].after == res[j].before)
				continue;
			if (nn_hp_pool_path(st->numa, res[j].node, res[j].size_kb, "nr_hugepages",
					    path, sizeof(path)))
				continue;
			restore(ctx, path, &res[j]);
		}
		return err;
	}
	return short_err;
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
	struct nn_hp_result *res = out;
	struct nn_hp_state st;
	size_t i;
	int err;

	if (!n)
		return 0;
	if (!res)
		res = calloc(n, sizeof(*res));
	if (!res)
		return -ENOMEM;
	err = nn_hp_state_read(ctx, &st);
	if (err) {
		nn_warn(ctx, NN_HP_SYS_MM, "no hugepage support: %s", strerror(-err));
		if (res != out)
			free(res);
		return err;
	}
	for (i = 0; i < n; i++) {
		const struct nn_hp_pool *p = nn_hp_state_pool(&st, hp[i].node, hp[i].size_kb);

		if (p && hp[i].current >= 0 && p->total != hp[i].current)
			nn_warn(ctx, NULL, "node %d: %lu kB pool holds %ld pages, the plan saw %ld",
				hp[i].node, hp[i].size_kb, p->total, hp[i].current);
	}
	err = nn_hugepages_set_many(ctx, undo, &st, hp, n, flags & NN_HP_DRY_RUN, res);
	for (i = 0; err && i < n; i++) {
		char path[PATH_MAX], boot[512];

		if (nn_hp_pool_path(st.numa, res[i].node, res[i].size_kb, "nr_hugepages",
				    path, sizeof(path)))
			continue;
		if (res[i].got >= 0 && res[i].got != res[i].target && res[i].changed) {
			nn_warn(ctx, path, "asked for %ld pages, the kernel gave %ld%s; left at %ld",
				res[i].target, res[i].got,
				res[i].compacted ? " after compaction" : "", res[i].after);
			if (nn_hp_boot_args(&st, res[i].size_kb, res, n, boot, sizeof(boot)) > 0)
				nn_warn(ctx, NULL, "to reserve them at boot, add to the kernel command line: %s",
					boot);
		} else if (res[i].restored) {
			nn_warn(ctx, path, "put back to %ld pages", res[i].after);
		}
	}
	nn_hp_state_free(&st);
	if (res != out)
		free(res);
	return err;
}

void nn_hp_set_many_error(struct nn_ctx *ctx, const struct nn_hp_state *st,
			  const struct nn_plan_hugepages *want, const struct nn_hp_result *res, size_t n,
			  int err)
{
	char path[PATH_MAX];
	size_t i, last = 0;

	/* set_many stops at the failing pool: the last one it touched. */
	for (i = 0; i < n; i++)
		if (res[i].changed)
			last = i;
	if (nn_hp_pool_path(st->numa, want[last].node, want[last].size_kb, "nr_hugepages",
			    path, sizeof(path)))
		path[0] = '\0';
	nn_err(ctx, "%s: %s; every node put back", path, strerror(-err));
}
