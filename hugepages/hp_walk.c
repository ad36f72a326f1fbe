// SPDX-License-Identifier: GPL-2.0-or-later
/* hp_walk.c - the pools' walk (hp_set.h): the state read once, every
 * target checked and every pool's file resolved before the first write,
 * and what a failed write says; the writes are hp_reserve.c's */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hugepages/hp_set.h"
#include "nicnuma/core/ctx.h"

void nn_hp_result_init(struct nn_hp_result *res, int node, unsigned long size_kb, long target)
{
	memset(res, 0, sizeof(*res));
	res->node = node;
	res->size_kb = size_kb;
	res->before = res->got = res->after = -1;
	res->target = target;
}

int nn_hp_walk_read(struct nn_ctx *ctx, struct nn_hp_walk *w)
{
	int err = nn_hp_state_read(ctx, &w->st);

	w->have_state = !err;
	return err;
}

int nn_hp_walk_check(struct nn_hp_walk *w, const struct nn_plan_hugepages *want, size_t n,
		     struct nn_hp_result *res, char *why, size_t whylen)
{
	size_t i, j;
	int err;

	free(w->path);
	w->path = calloc(n ? n : 1, sizeof(*w->path));
	if (!w->path) {
		snprintf(why, whylen, "out of memory");
		return -ENOMEM;
	}
	w->want = want;
	w->res = res;
	w->n = n;
	for (i = 0; i < n; i++) {
		const struct nn_hp_pool *p = nn_hp_state_pool(&w->st, want[i].node, want[i].size_kb);

		nn_hp_result_init(&res[i], want[i].node, want[i].size_kb, want[i].target);
		res[i].before = res[i].got = res[i].after = p ? p->total : -1;
	}
	/* Everything is checked before the first write: bad input changes nothing. */
	for (i = 0; i < n; i++) {
		err = nn_hp_check_target(&w->st, want[i].node, want[i].size_kb, want[i].target,
					 why, whylen);
		if (err)
			return err;
		for (j = 0; j < i; j++)
			if (want[j].node == want[i].node && want[j].size_kb == want[i].size_kb) {
				snprintf(why, whylen, "node %d: page size %lu kB asked twice",
					 want[i].node, want[i].size_kb);
				return -EINVAL;
			}
		err = nn_hp_pool_path(w->st.numa, want[i].node, want[i].size_kb, "nr_hugepages",
				      w->path[i], sizeof(w->path[i]));
		if (err) {
			snprintf(why, whylen, "node %d: the %lu kB pool has no path: %s", want[i].node,
				 want[i].size_kb, strerror(-err));
			return err;
		}
	}
	return 0;
}

void nn_hp_walk_drift(struct nn_ctx *ctx, const struct nn_hp_walk *w,
		      const struct nn_plan_hugepages *hp, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		const struct nn_hp_pool *p = nn_hp_state_pool(&w->st, hp[i].node, hp[i].size_kb);

		if (p && hp[i].current >= 0 && p->total != hp[i].current)
			nn_warn(ctx, NULL, "node %d: %lu kB pool holds %ld pages, the plan saw %ld",
				hp[i].node, hp[i].size_kb, p->total, hp[i].current);
	}
}

int nn_hp_walk_plan(struct nn_ctx *ctx, struct nn_hp_walk *w, const struct nn_plan_hugepages *hp,
		    size_t n, struct nn_hp_result *res, char *why, size_t whylen)
{
	int err = nn_hp_walk_read(ctx, w);

	if (err) {
		snprintf(why, whylen, "no hugepage support (%s: %s)", NN_HP_SYS_MM, strerror(-err));
		return err;
	}
	nn_hp_walk_drift(ctx, w, hp, n);
	return nn_hp_walk_check(w, hp, n, res, why, whylen);
}

void nn_hp_walk_warn(struct nn_ctx *ctx, const struct nn_hp_walk *w)
{
	const struct nn_hp_result *res = w->res;
	char boot[512];
	size_t i;

	for (i = 0; i < w->n; i++) {
		if (res[i].got >= 0 && res[i].got != res[i].target && res[i].changed) {
			nn_warn(ctx, w->path[i], "asked for %ld pages, the kernel gave %ld%s; left at %ld",
				res[i].target, res[i].got,
				res[i].compacted ? " after compaction" : "", res[i].after);
			if (nn_hp_boot_args(&w->st, res[i].size_kb, res, w->n, boot, sizeof(boot)) > 0)
				nn_warn(ctx, NULL, "to reserve them at boot, add to the kernel command line: %s",
					boot);
		} else if (res[i].restored) {
			nn_warn(ctx, w->path[i], "put back to %ld pages", res[i].after);
		}
	}
}

void nn_hp_walk_error(struct nn_ctx *ctx, const struct nn_hp_walk *w, int err)
{
	size_t i, last = 0;

	/* the write stops at the failing pool: the last one it touched */
	for (i = 0; i < w->n; i++)
		if (w->res[i].changed)
			last = i;
	nn_err(ctx, "%s: %s; every node put back", w->n ? w->path[last] : "", strerror(-err));
}

void nn_hp_walk_free(struct nn_hp_walk *w)
{
	if (w->have_state)
		nn_hp_state_free(&w->st);
	w->have_state = false;
	free(w->path);
	w->path = NULL;
	w->n = 0;
}
