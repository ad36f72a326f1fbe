/* SPDX-License-Identifier: GPL-2.0-or-later */
/* hp_target.h - what each node's hugepage pool is asked for, and the boot
 * arguments that would reserve it (pure: see hp_target.c) */
#ifndef NICNUMA_HUGEPAGES_HP_TARGET_H
#define NICNUMA_HUGEPAGES_HP_TARGET_H

#include "hugepages/hugepages.h"

struct nn_plan_hugepages;

/* The words of `hugepages reserve|release`, as given. */
struct nn_hp_request {
	bool release;
	const char *nodes;	/* --nodes: "0", "0,2", "1-3", "all" */
	const char *size;	/* --size; NULL: the kernel's default size */
	const char *count;	/* --count K */
	const char *mem;	/* --mem AMOUNT (reserve) */
	bool all;		/* --all (release) */
};

struct nn_hp_targets {
	unsigned long size_kb;
	long count;		/* pages to add / give back per node (0 with --all) */
	struct nn_plan_hugepages *want;	/* one per node: current and target */
	long *in_use;		/* release: mapped pages above the target, else 0 */
	size_t n;
	int *skipped;		/* "all": nodes without memory, left out */
	size_t nskipped;
};

/* Every node's target, computed from the words and the pools now (the
 * pools' walk, hp_set.h, checks each against the node then, once). Returns
 * 0, or a negative errno with @why saying what is wrong in the user's words
 * ("--count 9: node 0 holds only 4 pages of 2M"); t->skipped is filled
 * either way. Free @t whatever it returns. */
int nn_hp_targets_make(const struct nn_hp_state *st, const struct nn_hp_request *rq,
		       struct nn_hp_targets *t, char *why, size_t whylen);
void nn_hp_targets_free(struct nn_hp_targets *t);

/* Boot arguments that reserve @e[i].target pages of @size_kb on node
 * @e[i].node (the kernel's per-node form, Linux 5.16+):
 *   "hugepagesz=1G hugepages=0:4,1:4"
 * Entries of another size or with target 0 are skipped; nodes ascend. Returns
 * the length, -ENOENT when nothing is left, -ENAMETOOLONG when it does not fit. */
int nn_hp_format_boot_args(unsigned long size_kb, const struct nn_plan_hugepages *e, size_t n,
			   char *buf, size_t size);

#endif
