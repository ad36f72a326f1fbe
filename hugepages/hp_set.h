/* SPDX-License-Identifier: GPL-2.0-or-later */
/* hp_set.h - changing hugepage pools and mounting hugetlbfs (hugepages/: the write path)
 *
 * A write asks for a count; the kernel gives what it can find in contiguous
 * memory, so every write is read back, a shortfall is retried once after
 * compaction, and by default a short result is put back rather than kept.
 * Every change is recorded in the undo log first; mounting is live-only.
 */
#ifndef NICNUMA_HUGEPAGES_HP_SET_H
#define NICNUMA_HUGEPAGES_HP_SET_H

#include "hugepages/hugepages.h"

struct nn_undo;
struct nn_plan_hugepages;

#define NN_HP_COMPACT	"/proc/sys/vm/compact_memory"

enum {
	NN_HP_PARTIAL = 1 << 0,	/* keep a short result instead of restoring */
	NN_HP_DRY_RUN = 1 << 1,	/* read and check, write nothing */
};

struct nn_hp_result {
	int node;
	unsigned long size_kb;
	long before;		/* nr_hugepages found */
	long target;		/* asked for */
	long got;		/* the last readback after setting @target */
	long after;		/* as left: @target, @got (partial) or @before (restored) */
	bool compacted;		/* a shortfall made us compact memory and retry */
	bool restored;		/* a shortfall (or a sibling's) made us put @before back */
	bool changed;		/* something was written */
};

/* Sets one pool to @target pages: records the old value in @undo (may be NULL
 * only with NN_HP_DRY_RUN), writes, reads back; short of @target it writes
 * compact_memory and tries once more. Still short: restores @before unless
 * NN_HP_PARTIAL. Returns 0 when @target was reached, -ENOMEM on a shortfall
 * (@res says what was got and what was left), another -errno on failure. */
int nn_hugepages_set(struct nn_ctx *ctx, struct nn_undo *undo, const struct nn_hp_state *st,
		     int node, unsigned long size_kb, long target, int flags,
		     struct nn_hp_result *res);
/* Reserve @count more pages on @node (target = current + @count). */
int nn_hugepages_reserve(struct nn_ctx *ctx, struct nn_undo *undo, int node,
			 unsigned long size_kb, long count, int flags, struct nn_hp_result *res);
/* Give back @count pages (-1: all of them). -ERANGE when @node holds fewer. */
int nn_hugepages_release(struct nn_ctx *ctx, struct nn_undo *undo, int node,
			 unsigned long size_kb, long count, int flags, struct nn_hp_result *res);

/* All-or-nothing over several pools: every target is checked first (nothing
 * is written when one is bad), then set in order; on a failure or, without
 * NN_HP_PARTIAL, a shortfall, the pools already set are put back in reverse
 * order. @res has @n entries. Returns 0, -ENOMEM (shortfall) or -errno. */
int nn_hugepages_set_many(struct nn_ctx *ctx, struct nn_undo *undo, const struct nn_hp_state *st,
			  const struct nn_plan_hugepages *want, size_t n, int flags,
			  struct nn_hp_result *res);
/* The error of a failed nn_hugepages_set_many (-errno @err, not a
 * shortfall): the nr_hugepages file of the pool it stopped at. */
void nn_hp_set_many_error(struct nn_ctx *ctx, const struct nn_hp_state *st,
			  const struct nn_plan_hugepages *want, const struct nn_hp_result *res, size_t n,
			  int err);

/* Boot arguments for the pools of @size_kb: each node in @res at its target,
 * every other node at what it holds now. Length, or -errno as
 * nn_hp_format_boot_args(). Pure. */
int nn_hp_boot_args(const struct nn_hp_state *st, unsigned long size_kb,
		    const struct nn_hp_result *res, size_t n, char *buf, size_t size);

/* For `apply`: sets every plan entry to its target (all or nothing, in the
 * same undo log as the rest of the plan). A shortfall or failure becomes a
 * warning naming the pool, what was got, and for sizes the runtime could not
 * supply the boot arguments. @flags: NN_HP_DRY_RUN (then @undo may be NULL).
 * @res, when not NULL, has @n entries and receives each pool's outcome. */
int nn_hugepages_apply_plan(struct nn_ctx *ctx, struct nn_undo *undo,
			    const struct nn_plan_hugepages *hp, size_t n, int flags,
			    struct nn_hp_result *res);

/* Checks a --mount request before anything changes: *@existing is set to
 * a hugetlbfs mount of @size_kb when there already is one (then 0);
 * otherwise @dir must be a directory (live root; a dry run under a fake
 * root passes) not holding a hugetlbfs of another size. Errors name @dir. */
int nn_hp_mount_check(struct nn_ctx *ctx, const struct nn_hp_state *st, const char *dir,
		      unsigned long size_kb, bool dry_run, const struct nn_hp_mount **existing);
/* Whether @dir (resolved) is the mount point of @m. */
bool nn_hp_mount_is(const struct nn_hp_mount *m, const char *dir);

/* Mounts hugetlbfs with @size_kb pages on @dir (an existing directory) and
 * records it in @undo as NN_CHANGE_MOUNT so rollback unmounts it. Live only;
 * reads /proc/mounts back to prove it. */
int nn_hp_mount(struct nn_ctx *ctx, struct nn_undo *undo, const char *dir, unsigned long size_kb);
/* The --mount step of "hugepages reserve" after the pools were set, as the
 * "mount" object of ctx->out: an @existing mount of the size is kept, a dry
 * run says it would mount, @failed (the reservation failed) skips it, else
 * nn_hp_mount. Returns 0, or the mount's error (message printed). */
int nn_hp_mount_step(struct nn_ctx *ctx, struct nn_undo *undo, const char *dir,
		     const struct nn_hp_mount *existing, unsigned long size_kb, bool dry_run, bool failed);

/* The undo log's "mount" kind (hp_mount.c): a hugetlbfs mount we made; path =
 * mount point. */
extern const struct nn_change_ops nn_mount_change_ops;

#endif
