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

#include <limits.h>

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

/* The pools' walk: ONE pass over the pools a command changes (apply's plan,
 * hugepages reserve/release), each step in one place:
 *   nn_hp_walk_read    the state, read once (hp_state.c);
 *   nn_hp_walk_check   every target checked against it (nn_hp_check_target,
 *                      hp_target.c) and each pool's nr_hugepages file
 *                      resolved (nn_hp_pool_path) before anything is written;
 *   nn_hp_walk_write   each pool: record, write, read back (hp_reserve.c);
 *                      all or nothing over the pools;
 *   nn_hp_walk_warn / nn_hp_walk_error  what a failed write says;
 *   nn_hp_walk_free.
 * The state stays for the whole walk: apply reads it before the IRQs and
 * writes the pools after them, and the write re-reads each count right
 * before recording it (the undo log's before-value is never stale). */
struct nn_hp_walk {
	struct nn_hp_state st;		/* read by nn_hp_walk_read */
	bool have_state;
	const struct nn_plan_hugepages *want;	/* the pools (nn_hp_walk_check's) */
	size_t n;
	struct nn_hp_result *res;	/* @n outcomes (the caller's array) */
	char (*path)[PATH_MAX];		/* @n: each pool's nr_hugepages, resolved once */
};
#define NN_HP_WALK_INIT { .have_state = false }

/* The hugepage state, read once; -ENOENT when the kernel has no hugepage
 * support (nothing printed). */
int nn_hp_walk_read(struct nn_ctx *ctx, struct nn_hp_walk *w);
/* Every target of @want checked (the node exists and has memory, the size
 * is offered, the pages fit; no pool asked twice) and its file resolved;
 * @res[i] starts with the pool's count from the state as before, got and
 * after. 0, or -errno with @why naming the pool: nothing may be written. */
int nn_hp_walk_check(struct nn_hp_walk *w, const struct nn_plan_hugepages *want, size_t n,
		     struct nn_hp_result *res, char *why, size_t whylen);
/* Sets each checked pool in order: reads its count, records it in @undo
 * (may be NULL only with NN_HP_DRY_RUN), writes, reads back; short of the
 * target it writes compact_memory and tries once more; still short, puts the
 * old count back unless NN_HP_PARTIAL. On a failure, or a shortfall without
 * NN_HP_PARTIAL, the pools already set are put back in reverse order.
 * Returns 0, -ENOMEM (shortfall: @res says what was got) or -errno. */
int nn_hp_walk_write(struct nn_ctx *ctx, struct nn_hp_walk *w, struct nn_undo *undo, int flags);
/* apply's warnings after a failed write: per pool what the kernel gave
 * (and the boot arguments that would), or that it was put back. */
void nn_hp_walk_warn(struct nn_ctx *ctx, const struct nn_hp_walk *w);
/* The error of a failed write (-errno @err, not a shortfall), naming the
 * pool's file it stopped at. */
void nn_hp_walk_error(struct nn_ctx *ctx, const struct nn_hp_walk *w, int err);
void nn_hp_walk_free(struct nn_hp_walk *w);
/* @res as nothing done yet: before, got and after unknown (-1). */
void nn_hp_result_init(struct nn_hp_result *res, int node, unsigned long size_kb, long target);

/* Reserve @count more pages on @node (target = current + @count): a walk
 * of one pool. */
int nn_hugepages_reserve(struct nn_ctx *ctx, struct nn_undo *undo, int node,
			 unsigned long size_kb, long count, int flags, struct nn_hp_result *res);
/* Give back @count pages (-1: all of them). -ERANGE when @node holds fewer. */
int nn_hugepages_release(struct nn_ctx *ctx, struct nn_undo *undo, int node,
			 unsigned long size_kb, long count, int flags, struct nn_hp_result *res);

/* Boot arguments for the pools of @size_kb: each node in @res at its target,
 * every other node at what it holds now. Length, or -errno as
 * nn_hp_format_boot_args(). Pure. */
int nn_hp_boot_args(const struct nn_hp_state *st, unsigned long size_kb,
		    const struct nn_hp_result *res, size_t n, char *buf, size_t size);

/* The whole walk in one call, for a plan's pools: read, a warning for a pool
 * that holds other than the plan saw, check, write (unless NN_HP_DRY_RUN),
 * the warnings. @res, when not NULL, has @n entries. apply takes the steps
 * itself (the check before its IRQs, the write after). */
int nn_hugepages_apply_plan(struct nn_ctx *ctx, struct nn_undo *undo,
			    const struct nn_plan_hugepages *hp, size_t n, int flags,
			    struct nn_hp_result *res);
/* A plan's walk up to its check: nn_hp_walk_read, the warning for a pool
 * that holds other than the plan saw, nn_hp_walk_check. -ENOENT (no
 * hugepage support: @why says so) or the check's error. */
int nn_hp_walk_plan(struct nn_ctx *ctx, struct nn_hp_walk *w, const struct nn_plan_hugepages *hp,
		    size_t n, struct nn_hp_result *res, char *why, size_t whylen);
/* The warning for a pool of @hp that holds other than the plan saw. */
void nn_hp_walk_drift(struct nn_ctx *ctx, const struct nn_hp_walk *w,
		      const struct nn_plan_hugepages *hp, size_t n);

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
