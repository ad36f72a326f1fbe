/* SPDX-License-Identifier: GPL-2.0-or-later */
/* watch_claims.h - how the watcher hears of claim changes without polling
 *
 * Records are seen by watch.c's inotify on /run/nicnuma/claims. This
 * module follows the two other sources (docs/claims.md, "How the watcher
 * follows claims"):
 *  - cgroup v2 cpuset partitions: inotify on every directory of the cgroup
 *    tree (a new or removed cgroup is IN_CREATE/IN_DELETE on its parent; a
 *    write to a cgroup's cpuset.cpus* files is IN_MODIFY on its directory)
 *    and on every cpuset.cpus.partition file (the kernel's own changes of a
 *    partition's state, e.g. invalidated by a parent's change or hotplug:
 *    cpuset.c notify_partition_change() -> cgroup_file_notify() ->
 *    kernfs_notify(), which reaches inotify only while the file's inode is
 *    in memory: the watch on the file keeps it there). Bounded by a cap on
 *    watches; past the cap, or at the kernel's inotify limits, the tree is
 *    given up with a warning and the caller polls instead.
 *  - the owners of records tied to a pid: a pidfd each (Linux 5.3+), which
 *    polls readable when the process exits. Live root only: a fake root's
 *    /proc is a file tree.
 * Everything is opened through the fs root: under --root the watches are
 * on the fake tree. The caller re-reads the claims (nn_claims_read) when a
 * drain says something relevant happened; watches are always added before
 * that read, so a change is either in the read or in a later event.
 */
#ifndef NICNUMA_SERVICE_WATCH_CLAIMS_H
#define NICNUMA_SERVICE_WATCH_CLAIMS_H

#include <stdbool.h>
#include <stddef.h>

struct nn_ctx;
struct nn_claims;

#define NN_CGROUP_WATCHES_DEFAULT 8192	/* inotify watches on the cgroup tree */
#define NN_OWNER_PIDFDS_MAX 512		/* pidfds held for owners; the rest polled */

struct nn_cgw_ent {
	int wd;
	bool dir;		/* a cgroup directory; else its cpuset.cpus.partition */
	char *rel;		/* the cgroup, relative to the mount ("" the root, "/a/b") */
	/* a partition file: its state when last read (a write that leaves it,
	 * such as `member` into a member, changes no claim) */
	int part_kind;		/* enum nn_cg_part (none readable yet: member) */
	bool part_invalid;
	bool dirty;		/* an event came: compared at the next settle */
};

struct nn_cf_owner {
	char *name;		/* the record's name */
	int fd;			/* pidfd */
	int pid;
	unsigned long long start;
};

struct nn_claims_follow {
	/* the cgroup tree */
	int ifd;			/* inotify instance; -1 none */
	char *mount;			/* the cgroup2 mount inside the root, once watched */
	struct nn_cgw_ent *ents;	/* by wd, ascending */
	size_t n, cap;
	size_t max;			/* the cap on watches; 0: never watch */
	bool given_up;			/* the poll follows partitions (said once) */
	bool started;			/* the tree is watched */
	bool seen;			/* the last read found a cgroup2 mount with cpuset */
	bool limit_hit;			/* given up at the cap or the kernel's limit: retried */
	bool dirty;			/* a partition file has an event not compared yet */
	char **parts;			/* the cgroups that claimed in the last read (their
					 * removal changes a claim; another's does not) */
	size_t nparts;
	/* owners */
	int oep;			/* epoll of the owners' pidfds; -1 none */
	struct nn_cf_owner *owners;
	size_t nown, owncap;
	bool owners_polled;		/* a live owner has no pidfd: poll it */
	bool no_pidfd;			/* said once: the kernel has no pidfd_open */
};

/* Nothing opened, nothing watched (what --once and a closed follow are):
 * nn_cf_sync then only notes that partitions and owners need the poll. */
void nn_cf_init(struct nn_claims_follow *f);
/* Opens the inotify instance and the owners' epoll (either may fail: then
 * that source is polled, with a line on stderr saying so). @max: the cap on
 * the tree's watches (0: partitions by poll only). Never fails hard. */
void nn_cf_open(struct nn_ctx *ctx, struct nn_claims_follow *f, size_t max);
void nn_cf_close(struct nn_claims_follow *f);
/* The fds for the caller's epoll (-1: none). */
static inline int nn_cf_tree_fd(const struct nn_claims_follow *f) { return f->ifd; }
static inline int nn_cf_owners_fd(const struct nn_claims_follow *f) { return f->oep; }

/* After every read of the claims @cl: starts watching the cgroup tree the
 * first time @cl names a cgroup2 mount with the cpuset controller, and
 * holds a pidfd for every live record tied to a pid (closing the others).
 * Returns 1 when the caller must read the claims again now (the tree was
 * just watched: a change between @cl's read and the watches would
 * otherwise be missed; or an owner was found gone), else 0. */
int nn_cf_sync(struct nn_ctx *ctx, struct nn_claims_follow *f, const struct nn_claims *cl);

/* Reads the tree's pending events, adds watches for new cgroups. Returns 1
 * when a claim may have changed (@what: a short description), 0 when
 * nothing relevant happened. Giving up (cap, kernel limit) says why once
 * and returns 1. */
int nn_cf_tree_drain(struct nn_ctx *ctx, struct nn_claims_follow *f, char *what, size_t len);
/* A partition file's event is only marked (a write loop costs no read
 * per write); the caller settles the marks when its rate limit allows:
 * each marked file read once and compared with its last state. 1 when
 * one changed (@what names it), else 0. */
int nn_cf_settle(struct nn_ctx *ctx, struct nn_claims_follow *f, char *what, size_t len);
static inline bool nn_cf_dirty(const struct nn_claims_follow *f) { return f->dirty; }

/* Past the cap or the kernel's limit the tree is given up; called now
 * and then (the safety poll), this watches it again when it fits now (the
 * tree shrank, the limit was raised), saying so. 1 when it is watched
 * again (the caller reads the claims), else 0. */
int nn_cf_tree_retry(struct nn_ctx *ctx, struct nn_claims_follow *f);
/* Reads which owners exited; their pidfds are closed. 1 when one did
 * (@what names it), else 0. */
int nn_cf_owners_drain(struct nn_claims_follow *f, char *what, size_t len);

/* Whether the claims must still be polled often: the tree is not watched
 * (given up, or not started while cgroup2 has cpuset), or a live owner has
 * no pidfd. */
bool nn_cf_needs_poll(const struct nn_claims_follow *f);
/* "inotify", "poll" or "none" (no cgroup2 cpuset tree seen yet). */
const char *nn_cf_tree_mode(const struct nn_claims_follow *f);
/* The tree watches and owner pidfds held now. */
static inline size_t nn_cf_watches(const struct nn_claims_follow *f) { return f->n; }
static inline size_t nn_cf_pidfds(const struct nn_claims_follow *f) { return f->nown; }

#endif
