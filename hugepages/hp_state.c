// SPDX-License-Identifier: GPL-2.0-or-later
/* hp_state.c - the host's hugepage pools, nodes and hugetlbfs mounts, read
 * through the fs root; and the pure checks made on that snapshot */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicnuma/core/nodes.h"
#include "nicnuma/core/parse.h"
#include "nicnuma/core/fileio.h"
#include "hugepages/hugepages.h"
#include "nicnuma/core/ctx.h"

int nn_hp_pool_path(bool numa, int node, unsigned long size_kb, const char *file,
		    char *buf, size_t size)
{
	int n;

	if (numa && node >= 0)
		n = snprintf(buf, size, NN_HP_SYS_NODE "/node%d/hugepages/hugepages-%lukB/%s",
			     node, size_kb, file);
	else if (node == 0 || node < 0)
		n = snprintf(buf, size, NN_HP_SYS_MM "/hugepages-%lukB/%s", size_kb, file);
	else
		return -ENODEV;
	return (n < 0 || (size_t)n >= size) ? -ENAMETOOLONG : 0;
}

static int cmp_ulong(const void *a, const void *b)
{
	unsigned long x = *(const unsigned long *)a, y = *(const unsigned long *)b;

	return (x > y) - (x < y);
}

static int read_sizes(struct nn_ctx *ctx, struct nn_hp_state *st)
{
	struct dirent *de;
	size_t cap = 0;
	DIR *d;
	int err;

	err = nn_root_opendir(&ctx->root, NN_HP_SYS_MM, &d);
	if (err)
		return err;
	while ((de = readdir(d))) {
		unsigned long kb;

		if (nn_hp_parse_dirname(de->d_name, &kb))
			continue;
		if (NN_GROW(st->sizes, st->nsizes, cap)) {
			closedir(d);
			return -ENOMEM;
		}
		st->sizes[st->nsizes++] = kb;
	}
	closedir(d);
	if (st->nsizes)
		qsort(st->sizes, st->nsizes, sizeof(*st->sizes), cmp_ulong);
	return 0;
}

static int add_node(struct nn_hp_state *st, int id, size_t *cap)
{
	if (NN_GROW(st->nodes, st->nnodes, *cap))
		return -ENOMEM;
	st->nodes[st->nnodes].id = id;
	st->nodes[st->nnodes].mem_total_kb = -1;
	st->nodes[st->nnodes].mem_free_kb = -1;
	st->nnodes++;
	return 0;
}

static int read_nodes(struct nn_ctx *ctx, struct nn_hp_state *st)
{
	size_t cap = 0, i, nids = 0;
	int *ids = NULL, err;

	err = nn_node_dirs(&ctx->root, &ids, &nids);
	if (err == -ENOENT) {
		/* CONFIG_NUMA=n: one node 0, the host-wide pool is its pool. */
		st->numa = false;
		err = add_node(st, 0, &cap);
		if (err)
			return err;
	} else if (err == -ENOMEM) {
		return err;
	} else if (err) {
		nn_warn(ctx, NN_HP_SYS_NODE, "cannot list NUMA nodes: %s", strerror(-err));
		return 0;
	} else {
		st->numa = true;
		for (i = 0; i < nids && !err; i++)
			err = add_node(st, ids[i], &cap);
		free(ids);
		if (err)
			return err;
	}
	for (i = 0; i < st->nnodes; i++) {
		struct nn_hp_node *n = &st->nodes[i];
		char path[PATH_MAX], *text;

		if (st->numa)
			snprintf(path, sizeof(path), NN_HP_SYS_NODE "/node%d/meminfo", n->id);
		else
			snprintf(path, sizeof(path), "/proc/meminfo");
		err = nn_read_file(&ctx->root, path, &text, NULL);
		if (err) {
			nn_warn(ctx, path, "cannot read node memory: %s", strerror(-err));
			continue;
		}
		if (nn_parse_meminfo_kb(text, "MemTotal", &n->mem_total_kb))
			nn_warn(ctx, path, "no readable MemTotal");
		if (nn_parse_meminfo_kb(text, "MemFree", &n->mem_free_kb))
			n->mem_free_kb = -1;
		free(text);
	}
	return 0;
}

/* One counter of a pool; -1 with a warning naming the file when it is
 * missing, unreadable, not an integer or negative. */
static long read_counter(struct nn_ctx *ctx, const char *path, const char *what)
{
	long v;
	int err = nn_read_long(&ctx->root, path, &v);

	if (!err && v >= 0)
		return v;
	if (!err || err == -EINVAL || err == -ERANGE)
		nn_warn(ctx, path, "malformed %s (not an integer): %s unknown", what, what);
	else
		nn_warn(ctx, path, "cannot read %s: %s", what, strerror(-err));
	return -1;
}

void nn_hp_pool_read(struct nn_ctx *ctx, bool numa, int node, unsigned long size_kb,
		     struct nn_hp_pool *p)
{
	static const struct { const char *file, *what; } f[] = {
		{ "nr_hugepages", "hugepage count" },
		{ "free_hugepages", "free hugepage count" },
		{ "surplus_hugepages", "surplus hugepage count" },
		{ "resv_hugepages", "reserved hugepage count" },
	};
	long *out[] = { &p->total, &p->free, &p->surplus, &p->reserved };
	char path[PATH_MAX];
	size_t i;

	p->node = node;
	p->size_kb = size_kb;
	for (i = 0; i < 4; i++) {
		*out[i] = -1;
		/* The kernel keeps reservations host-wide only. */
		if (i == 3 && node >= 0)
			continue;
		if (nn_hp_pool_path(numa, node, size_kb, f[i].file, path, sizeof(path)))
			continue;
		*out[i] = read_counter(ctx, path, f[i].what);
	}
}

static int read_pools(struct nn_ctx *ctx, struct nn_hp_state *st)
{
	size_t i, j;

	st->totals = calloc(st->nsizes ? st->nsizes : 1, sizeof(*st->totals));
	st->pools = calloc(st->nsizes * st->nnodes + 1, sizeof(*st->pools));
	if (!st->totals || !st->pools)
		return -ENOMEM;
	for (j = 0; j < st->nsizes; j++)
		nn_hp_pool_read(ctx, st->numa, -1, st->sizes[j], &st->totals[st->ntotals++]);
	for (i = 0; i < st->nnodes; i++) {
		const struct nn_hp_node *n = &st->nodes[i];

		for (j = 0; j < st->nsizes; j++) {
			struct nn_hp_pool *p = &st->pools[st->npools++];
			char dir[PATH_MAX];

			p->node = n->id;
			p->size_kb = st->sizes[j];
			if (!st->numa) {
				*p = st->totals[j];
				p->node = 0;
				p->reserved = -1;
				continue;
			}
			/* The kernel gives memoryless nodes no pools: not worth a warning. */
			if (n->mem_total_kb == 0 &&
			    !nn_hp_pool_path(true, n->id, st->sizes[j], "", dir, sizeof(dir)) &&
			    nn_root_access(&ctx->root, dir, 0) == -ENOENT) {
				p->total = p->free = p->surplus = p->reserved = -1;
				continue;
			}
			nn_hp_pool_read(ctx, true, n->id, st->sizes[j], p);
		}
	}
	return 0;
}

static void read_mounts(struct nn_ctx *ctx, struct nn_hp_state *st)
{
	size_t bad = 0;
	char *text;
	int err;

	err = nn_read_file(&ctx->root, "/proc/mounts", &text, NULL);
	if (err) {
		nn_warn(ctx, "/proc/mounts", "cannot read mounts: %s", strerror(-err));
		return;
	}
	err = nn_hp_parse_mounts(text, st->default_kb, &st->mounts, &st->nmounts, &bad);
	free(text);
	if (err)
		nn_warn(ctx, "/proc/mounts", "cannot parse: %s", strerror(-err));
	else if (bad)
		nn_warn(ctx, "/proc/mounts", "%zu malformed line(s) skipped", bad);
}

int nn_hp_state_read(struct nn_ctx *ctx, struct nn_hp_state *st)
{
	char *text;
	long kb;
	int err;

	memset(st, 0, sizeof(*st));
	err = read_sizes(ctx, st);
	if (err)
		goto fail;
	if (nn_read_file(&ctx->root, "/proc/meminfo", &text, NULL) == 0) {
		if (nn_parse_meminfo_kb(text, "Hugepagesize", &kb) == 0 && kb > 0)
			st->default_kb = (unsigned long)kb;
		free(text);
	}
	err = read_nodes(ctx, st);
	if (err)
		goto fail;
	err = read_pools(ctx, st);
	if (err)
		goto fail;
	read_mounts(ctx, st);
	return 0;
fail:
	nn_hp_state_free(st);
	return err;
}

void nn_hp_state_free(struct nn_hp_state *st)
{
	free(st->sizes);
	free(st->nodes);
	free(st->pools);
	free(st->totals);
	nn_hp_mounts_free(st->mounts, st->nmounts);
	memset(st, 0, sizeof(*st));
}

const struct nn_hp_node *nn_hp_state_node(const struct nn_hp_state *st, int id)
{
	size_t i;

	for (i = 0; i < st->nnodes; i++)
		if (st->nodes[i].id == id)
			return &st->nodes[i];
	return NULL;
}

const struct nn_hp_pool *nn_hp_state_pool(const struct nn_hp_state *st, int node,
					  unsigned long size_kb)
{
	size_t i;

	for (i = 0; i < st->npools; i++)
		if (st->pools[i].node == node && st->pools[i].size_kb == size_kb)
			return &st->pools[i];
	return NULL;
}

bool nn_hp_state_has_size(const struct nn_hp_state *st, unsigned long size_kb)
{
	size_t i;

	for (i = 0; i < st->nsizes; i++)
		if (st->sizes[i] == size_kb)
			return true;
	return false;
}

const struct nn_hp_mount *nn_hp_state_mount(const struct nn_hp_state *st, unsigned long size_kb)
{
	size_t i;

	for (i = 0; i < st->nmounts; i++)
		if (st->mounts[i].size_kb == size_kb)
			return &st->mounts[i];
	return NULL;
}
