// SPDX-License-Identifier: GPL-2.0-or-later
/* hp_target.c - what `hugepages reserve|release` asks of each node's pool
 *
 * From the words the user gave (--nodes, --size, --count/--mem/--all) and a
 * snapshot of the pools, every target is computed; nn_hp_check_target is the
 * one check of a target (the pools' walk runs it on every pool before the
 * first write, so a bad node or an overflow changes nothing); and the boot
 * arguments that would reserve them. Pure.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicnuma/core/cpuset.h"
#include "nicnuma/core/strbuf.h"
#include "hugepages/hp_target.h"

static int fail(char *why, size_t whylen, int err, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static int fail(char *why, size_t whylen, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, whylen, fmt, ap);
	va_end(ap);
	return err;
}

void nn_hp_targets_free(struct nn_hp_targets *t)
{
	free(t->want);
	free(t->in_use);
	free(t->skipped);
	memset(t, 0, sizeof(*t));
}

static int resolve_size(const struct nn_hp_state *st, const struct nn_hp_request *rq,
			struct nn_hp_targets *t, char *why, size_t whylen)
{
	char sz[32], check[256];
	int err;

	if (rq->size) {
		err = nn_hp_parse_size(rq->size, &t->size_kb);
		if (err)
			return fail(why, whylen, -EINVAL, "--size '%s': %s (use 2M, 1G, 2048kB...)",
				    rq->size, err == -ERANGE ? "too large" : "not a page size");
	} else if (st->default_kb) {
		t->size_kb = st->default_kb;
	} else {
		return fail(why, whylen, -EINVAL, "--size not given and /proc/meminfo has no Hugepagesize");
	}
	if (nn_hp_state_has_size(st, t->size_kb))
		return 0;
	if (nn_hp_format_size(t->size_kb, sz, sizeof(sz)))
		snprintf(sz, sizeof(sz), "?");
	/* Let the pure check word it, listing the sizes there are. */
	nn_hp_check_target(st, st->nnodes ? st->nodes[0].id : 0, t->size_kb, 0, check, sizeof(check));
	return fail(why, whylen, -EOPNOTSUPP, "--size '%s': %s", rq->size ? rq->size : sz, check);
}

static int resolve_count(const struct nn_hp_request *rq, struct nn_hp_targets *t,
			 char *why, size_t whylen)
{
	unsigned long long mem_kb = 0;
	int err;

	if (rq->count) {
		err = nn_hp_parse_count(rq->count, &t->count);
		if (err)
			return fail(why, whylen, -EINVAL, "--count '%s': %s", rq->count,
				    err == -ERANGE ? "too large" : "not a page count (a whole number)");
		if (t->count == 0)
			return fail(why, whylen, -EINVAL, "--count '%s': nothing to %s", rq->count,
				    rq->release ? "release" : "reserve");
	}
	if (rq->mem) {
		err = nn_hp_parse_mem(rq->mem, &mem_kb);
		if (!err)
			err = nn_hp_pages_for_mem(mem_kb, t->size_kb, &t->count);
		if (err)
			return fail(why, whylen, -EINVAL, "--mem '%s': %s", rq->mem,
				    err == -ERANGE ? "too large" : "not an amount (512M, 4G, 1T)");
		if (t->count == 0)
			return fail(why, whylen, -EINVAL, "--mem '%s': nothing to reserve", rq->mem);
	}
	return 0;
}

/* The nodes to change: the list as given, or every node with memory for
 * "all" (the others land in t->skipped). */
static int pick_nodes(const struct nn_hp_state *st, const char *arg, struct nn_hp_targets *t,
		      char *why, size_t whylen)
{
	struct nn_cpuset set = NN_CPUSET_INIT;
	size_t i, cap;
	bool all = false;
	int err, id;

	if (nn_hp_parse_nodes(arg, &set, &all))
		return fail(why, whylen, -EINVAL, "--nodes '%s': not a node list (0, 0,2, 1-3 or all)", arg);
	cap = st->nnodes + nn_cpuset_count(&set) + 1;
	t->want = calloc(cap, sizeof(*t->want));
	t->in_use = calloc(cap, sizeof(*t->in_use));
	t->skipped = calloc(cap, sizeof(*t->skipped));
	err = !t->want || !t->in_use || !t->skipped ? -ENOMEM : 0;
	if (err)
		goto out;
	if (all) {
		for (i = 0; i < st->nnodes; i++) {
			if (st->nodes[i].mem_total_kb == 0)
				t->skipped[t->nskipped++] = st->nodes[i].id;
			else
				t->want[t->n++].node = st->nodes[i].id;
		}
	} else {
		nn_cpuset_foreach(id, &set)
			t->want[t->n++].node = id;
	}
	if (!t->n)
		err = fail(why, whylen, -ENODEV, "--nodes '%s': no node with memory", arg);
out:
	nn_cpuset_free(&set);
	return err;
}

/* One node's target from its current count; checked against the node. */
static int one_target(const struct nn_hp_state *st, const struct nn_hp_request *rq,
		      struct nn_hp_targets *t, size_t i, char *why, size_t whylen)
{
	struct nn_plan_hugepages *w = &t->want[i];
	const struct nn_hp_pool *p = nn_hp_state_pool(st, w->node, t->size_kb);
	long cur = p ? p->total : -1;
	char sz[32];

	if (nn_hp_format_size(t->size_kb, sz, sizeof(sz)))
		snprintf(sz, sizeof(sz), "?");
	w->size_kb = t->size_kb;
	w->current = cur;
	if (cur >= 0 && !rq->release) {
		if (cur > LONG_MAX - t->count)
			return fail(why, whylen, -ERANGE,
				    "--count %ld: node %d already holds %ld pages of %s; the sum overflows",
				    t->count, w->node, cur, sz);
		w->target = cur + t->count;
	} else if (cur >= 0) {
		if (rq->all)
			w->target = 0;
		else if (t->count > cur)
			return fail(why, whylen, -ERANGE, "--count %ld: node %d holds only %ld pages of %s",
				    t->count, w->node, cur, sz);
		else
			w->target = cur - t->count;
	}
	if (cur < 0)
		w->target = 0;	/* unreadable or no such node: the walk's check names it */
	if (rq->release && p && p->free >= 0 && p->total - p->free > w->target)
		t->in_use[i] = p->total - p->free;
	return 0;
}

/* The one check of a pool's target (the pools' walk calls it, hp_set.h). */
int nn_hp_check_target(const struct nn_hp_state *st, int node, unsigned long size_kb,
		       long target, char *why, size_t whylen)
{
	const struct nn_hp_node *n = nn_hp_state_node(st, node);
	const struct nn_hp_pool *p;
	struct nn_sb sb = NN_SB_INIT;
	unsigned long long kb;
	char sz[32];
	size_t i;
	int err;

	if (nn_hp_format_size(size_kb, sz, sizeof(sz)))
		snprintf(sz, sizeof(sz), "%lukB", size_kb);
	if (!n) {
		nn_sb_printf(&sb, "node %d does not exist (nodes:", node);
		for (i = 0; i < st->nnodes; i++)
			nn_sb_printf(&sb, " %d", st->nodes[i].id);
		nn_sb_putc(&sb, ')');
		err = -ENODEV;
		goto out;
	}
	if (!nn_hp_state_has_size(st, size_kb)) {
		nn_sb_printf(&sb, "page size %s is not supported here (sizes:", sz);
		for (i = 0; i < st->nsizes; i++) {
			char s[32];

			if (!nn_hp_format_size(st->sizes[i], s, sizeof(s)))
				nn_sb_printf(&sb, " %s", s);
		}
		nn_sb_putc(&sb, ')');
		err = -EOPNOTSUPP;
		goto out;
	}
	if (n->mem_total_kb == 0) {
		snprintf(why, whylen, "node %d has no memory (CPU-only node): it cannot hold hugepages",
			 node);
		return -ENOMEM;
	}
	p = nn_hp_state_pool(st, node, size_kb);
	if (!p || p->total < 0) {
		snprintf(why, whylen, "node %d: the %s pool's nr_hugepages is unreadable", node, sz);
		return -EIO;
	}
	if (target < 0) {
		snprintf(why, whylen, "node %d: negative page count %ld", node, target);
		return -ERANGE;
	}
	if (nn_hp_pages_kb(target, size_kb, &kb)) {
		snprintf(why, whylen, "node %d: %ld pages of %s overflow", node, target, sz);
		return -ERANGE;
	}
	/* More than the node's memory can never be had; asking the kernel
	 * anyway would first squeeze every other user of that memory. */
	if (n->mem_total_kb > 0 && kb > (unsigned long long)n->mem_total_kb) {
		snprintf(why, whylen, "node %d: %ld pages of %s need %llu kB, the node has %ld kB",
			 node, target, sz, kb, n->mem_total_kb);
		return -ERANGE;
	}
	return 0;
out:
	/* the lists can be long: cut to @whylen like the other reasons */
	snprintf(why, whylen, "%s", nn_sb_str(&sb) ? nn_sb_str(&sb) : "out of memory");
	nn_sb_free(&sb);
	return err;
}

int nn_hp_targets_make(const struct nn_hp_state *st, const struct nn_hp_request *rq,
		       struct nn_hp_targets *t, char *why, size_t whylen)
{
	size_t i;
	int err;

	memset(t, 0, sizeof(*t));
	if (whylen)
		why[0] = '\0';
	err = resolve_size(st, rq, t, why, whylen);
	if (!err)
		err = resolve_count(rq, t, why, whylen);
	if (!err)
		err = pick_nodes(st, rq->nodes ? rq->nodes : "", t, why, whylen);
	for (i = 0; !err && i < t->n; i++)
		err = one_target(st, rq, t, i, why, whylen);
	if (err == -ENOMEM && !why[0])
		fail(why, whylen, err, "out of memory");
	return err;
}

static int cmp_node(const void *a, const void *b)
{
	const struct nn_plan_hugepages *x = *(const struct nn_plan_hugepages * const *)a;
	const struct nn_plan_hugepages *y = *(const struct nn_plan_hugepages * const *)b;

	return (x->node > y->node) - (x->node < y->node);
}

int nn_hp_format_boot_args(unsigned long size_kb, const struct nn_plan_hugepages *e, size_t n,
			   char *buf, size_t size)
{
	const struct nn_plan_hugepages **v;
	struct nn_sb sb = NN_SB_INIT;
	char sz[32];
	size_t i, m = 0;
	int err = 0;

	err = nn_hp_format_size(size_kb, sz, sizeof(sz));
	if (err)
		return err;
	v = calloc(n ? n : 1, sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		if (e[i].size_kb == size_kb && e[i].target > 0 && e[i].node >= 0)
			v[m++] = &e[i];
	if (!m) {
		err = -ENOENT;
		goto out;
	}
	qsort(v, m, sizeof(*v), cmp_node);
	/* hugepagesz= must come first: it selects the pool hugepages= fills. */
	nn_sb_printf(&sb, "hugepagesz=%s hugepages=", sz);
	for (i = 0; i < m; i++) {
		if (i && v[i]->node == v[i - 1]->node) {
			err = -EINVAL;	/* one count per node */
			goto out;
		}
		nn_sb_printf(&sb, "%s%d:%ld", i ? "," : "", v[i]->node, v[i]->target);
	}
	err = nn_sb_error(&sb);
	if (!err && sb.len >= size)
		err = -ENAMETOOLONG;
	if (!err) {
		memcpy(buf, nn_sb_str(&sb), sb.len + 1);
		err = (int)sb.len;
	}
out:
	nn_sb_free(&sb);
	free(v);
	return err;
}
