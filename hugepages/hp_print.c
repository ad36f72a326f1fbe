// SPDX-License-Identifier: GPL-2.0-or-later
/* hp_print.c - the hugepage reports: the pools ("hugepages show") and a reserve's or release's results */
#include <stdio.h>

#include "hugepages/hp_print.h"
#include "hugepages/hp_set.h"
#include "nicnuma/core/print.h"

void nn_hp_size_name(unsigned long kb, char *buf, size_t len)
{
	if (nn_hp_format_size(kb, buf, len))
		snprintf(buf, len, "?");
}

void nn_hp_state_print(struct nn_out *o, const struct nn_hp_state *st)
{
	size_t i;

	nn_printf(o, "%-6s %-6s %8s %8s %8s %9s\n", "NODE", "SIZE", "TOTAL", "FREE", "SURPLUS",
		  "RESERVED");
	nn_open_array(o, "hugepages");
	for (i = 0; i < st->npools; i++) {
		const struct nn_hp_pool *p = &st->pools[i];
		const struct nn_hp_node *n = nn_hp_state_node(st, p->node);
		char sz[32];

		/* Memoryless nodes have no pools at all: nothing to show. */
		if (p->total < 0 && n && n->mem_total_kb == 0)
			continue;
		nn_hp_size_name(p->size_kb, sz, sizeof(sz));
		nn_open_object(o, NULL);
		nn_print_int(o, PRINT_ANY, "node", "%-6lld ", p->node);
		nn_printf(o, "%-6s ", sz);
		nn_print_uint(o, PRINT_JSON, "size_kb", NULL, p->size_kb);
		nn_print_opt_int(o, PRINT_ANY, "total", "%8lld ", p->total, "-");
		nn_print_opt_int(o, PRINT_ANY, "free", "%8lld ", p->free, "-");
		nn_print_opt_int(o, PRINT_ANY, "surplus", "%8lld ", p->surplus, "-");
		nn_printf(o, "%9s\n", "");
		nn_close_object(o);
	}
	nn_close_array(o);
	nn_open_array(o, "totals");
	for (i = 0; i < st->ntotals; i++) {
		const struct nn_hp_pool *p = &st->totals[i];
		char sz[32];

		nn_hp_size_name(p->size_kb, sz, sizeof(sz));
		nn_open_object(o, NULL);
		nn_printf(o, "%-6s %-6s ", "host", sz);
		nn_print_uint(o, PRINT_JSON, "size_kb", NULL, p->size_kb);
		nn_print_opt_int(o, PRINT_ANY, "total", "%8lld ", p->total, "-");
		nn_print_opt_int(o, PRINT_ANY, "free", "%8lld ", p->free, "-");
		nn_print_opt_int(o, PRINT_ANY, "surplus", "%8lld ", p->surplus, "-");
		nn_print_opt_int(o, PRINT_ANY, "reserved", "%9lld\n", p->reserved, "-");
		nn_close_object(o);
	}
	nn_close_array(o);
	if (st->default_kb)
		nn_print_uint(o, PRINT_JSON, "default_size_kb", NULL, st->default_kb);
	else
		nn_print_null(o, PRINT_JSON, "default_size_kb", NULL);
	nn_printf(o, "\nhugetlbfs mounts:%s\n", st->nmounts ? "" : " none");
	nn_open_array(o, "mounts");
	for (i = 0; i < st->nmounts; i++) {
		char sz[32];

		nn_open_object(o, NULL);
		nn_print_string(o, PRINT_ANY, "path", "  %s", st->mounts[i].path);
		if (st->mounts[i].size_kb) {
			nn_hp_size_name(st->mounts[i].size_kb, sz, sizeof(sz));
			nn_printf(o, "  pagesize=%s\n", sz);
			nn_print_uint(o, PRINT_JSON, "size_kb", NULL, st->mounts[i].size_kb);
		} else {
			nn_printf(o, "  pagesize unknown\n");
			nn_print_null(o, PRINT_JSON, "size_kb", NULL);
		}
		nn_close_object(o);
	}
	nn_close_array(o);
}

static void print_result(struct nn_out *o, const struct nn_hp_result *r, bool dry_run)
{
	char sz[32];

	nn_hp_size_name(r->size_kb, sz, sizeof(sz));
	nn_open_object(o, NULL);
	nn_print_int(o, PRINT_ANY, "node", "node %lld ", r->node);
	nn_printf(o, "%s: ", sz);
	nn_print_uint(o, PRINT_JSON, "size_kb", NULL, r->size_kb);
	nn_print_opt_int(o, PRINT_ANY, "before", "%lld -> ", r->before, "?");
	nn_print_opt_int(o, PRINT_ANY, "target", "%lld", r->target, "?");
	if (dry_run) {
		nn_printf(o, " (dry run)\n");
	} else {
		nn_print_opt_int(o, PRINT_ANY, "got", ": got %lld", r->got, "?");
		nn_print_bool(o, PRINT_JSON, "compacted", NULL, r->compacted);
		if (r->compacted)
			nn_printf(o, " after compaction");
		nn_print_bool(o, PRINT_JSON, "restored", NULL, r->restored);
		nn_print_opt_int(o, PRINT_ANY, "after", ", now %lld", r->after, "?");
		if (r->restored)
			nn_printf(o, " (restored)");
		nn_printf(o, "\n");
	}
	nn_close_object(o);
}

void nn_hp_results_print(struct nn_out *o, const struct nn_hp_result *res, size_t n, bool dry_run)
{
	size_t i;

	nn_open_array(o, "results");
	for (i = 0; i < n; i++)
		print_result(o, &res[i], dry_run);
	nn_close_array(o);
}

void nn_hp_shortfall_print(struct nn_out *o, const struct nn_hp_state *st, const struct nn_hp_result *res,
			   size_t n, unsigned long size_kb, bool partial, bool release)
{
	char sz[32], boot[512];
	size_t i;

	nn_hp_size_name(size_kb, sz, sizeof(sz));
	for (i = 0; i < n; i++)
		if (res[i].changed && res[i].got != res[i].target)
			nn_printf(o, "node %d: asked for %ld pages of %s, the kernel gave %ld%s\n",
				  res[i].node, res[i].target, sz, res[i].got,
				  partial ? " (kept: --partial)" : "; every node put back");
	if (!release && nn_hp_boot_args(st, size_kb, res, n, boot, sizeof(boot)) > 0) {
		nn_print_string(o, PRINT_ANY, "boot_args",
				"pages the running kernel cannot supply can be reserved at boot; "
				"kernel command line:\n  %s\n", boot);
	} else {
		nn_print_null(o, PRINT_JSON, "boot_args", NULL);
	}
}
