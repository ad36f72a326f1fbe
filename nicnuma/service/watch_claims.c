// SPDX-License-Identifier: GPL-2.0-or-later
/* watch_claims.c - inotify on the cgroup tree and pidfds of claim owners (design in watch_claims.h) */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/inotify.h>
#include <unistd.h>

#include "nicnuma/service/watch_claims.h"
#include "nicnuma/core/proc.h"
#include "nicnuma/core/ctx.h"
#include "nicnuma/core/fileio.h"
#include "nicnuma/core/strbuf.h"
#include "nicnuma/discover/claims.h"
#include "nicnuma/discover/claims_parse.h"

/* As deep as the claims' own walk (discover/claims.c) reads. */
#define TREE_DEPTH_MAX 32

#define DIR_MASK (IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_MODIFY | IN_ONLYDIR)
#define FILE_MASK IN_MODIFY

static const char part_file[] = "cpuset.cpus.partition";

void nn_cf_init(struct nn_claims_follow *f)
{
	memset(f, 0, sizeof(*f));
	f->ifd = f->oep = -1;
	f->given_up = true;
}

void nn_cf_open(struct nn_ctx *ctx, struct nn_claims_follow *f, size_t max)
{
	nn_cf_init(f);
	f->given_up = false;
	f->max = max;
	if (max) {
		f->ifd = inotify_init1(IN_CLOEXEC | IN_NONBLOCK);
		if (f->ifd < 0) {
			f->given_up = true;
			nn_fprintf_text(stderr, "%s: cannot watch the cgroup tree: inotify: %s%s: cpuset "
					"partitions are followed by the one-second poll only\n", ctx->prog,
					strerror(errno), errno == EMFILE ?
					" (fs.inotify.max_user_instances reached)" : "");
		}
	} else {
		f->given_up = true;
	}
	if (nn_root_is_live(&ctx->root)) {
		f->oep = epoll_create1(EPOLL_CLOEXEC);
		if (f->oep < 0)
			nn_fprintf_text(stderr, "%s: epoll for the claims' owners: %s: owners are "
					"followed by the one-second poll only\n", ctx->prog, strerror(errno));
	}
}

static void owner_drop(struct nn_claims_follow *f, size_t i)
{
	if (f->oep >= 0)
		epoll_ctl(f->oep, EPOLL_CTL_DEL, f->owners[i].fd, NULL);
	close(f->owners[i].fd);
	free(f->owners[i].name);
	f->owners[i] = f->owners[--f->nown];
}

static void tree_forget(struct nn_claims_follow *f)
{
	size_t i;

	for (i = 0; i < f->n; i++) {
		if (f->ifd >= 0)
			inotify_rm_watch(f->ifd, f->ents[i].wd);
		free(f->ents[i].rel);
	}
	free(f->ents);
	f->ents = NULL;
	f->n = f->cap = 0;
}

static void parts_free(struct nn_claims_follow *f)
{
	while (f->nparts)
		free(f->parts[--f->nparts]);
	free(f->parts);
	f->parts = NULL;
}

/* The cgroups whose claims the last read found (partitions, cut-short
 * cgroups): removing one of them changes a claim. */
static void parts_set(struct nn_claims_follow *f, const struct nn_claims *cl)
{
	size_t i;

	parts_free(f);
	f->parts = calloc(cl->n + 1, sizeof(*f->parts));
	for (i = 0; f->parts && i < cl->n; i++)
		if (cl->items[i].source == NN_CLAIM_SRC_PARTITION &&
		    (f->parts[f->nparts] = strdup(cl->items[i].c.name)))
			f->nparts++;
}

/* Whether cgroup @rel claimed in the last read; unknown (no memory for
 * the list) counts as yes. */
static bool was_claim(const struct nn_claims_follow *f, const char *rel)
{
	size_t i;

	if (!f->parts)
		return true;
	for (i = 0; i < f->nparts; i++)
		if (!strcmp(f->parts[i], rel))
			return true;
	return false;
}

void nn_cf_close(struct nn_claims_follow *f)
{
	tree_forget(f);
	if (f->ifd >= 0)
		close(f->ifd);
	while (f->nown)
		owner_drop(f, f->nown - 1);
	free(f->owners);
	if (f->oep >= 0)
		close(f->oep);
	free(f->mount);
	parts_free(f);
	nn_cf_init(f);
}

/* ---- the cgroup tree -------------------------------------------------- */

/* Index of @wd in the table, or where it goes (*@found false). */
static size_t ent_find(const struct nn_claims_follow *f, int wd, bool *found)
{
	size_t lo = 0, hi = f->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (f->ents[mid].wd < wd)
			lo = mid + 1;
		else
			hi = mid;
	}
	*found = lo < f->n && f->ents[lo].wd == wd;
	return lo;
}

/* Stops watching the tree for good: says why once; the caller polls. */
static void give_up(struct nn_ctx *ctx, struct nn_claims_follow *f, const char *why)
{
	f->limit_hit = true;
	if (!f->given_up)
		nn_fprintf_text(stderr, "%s: the cgroup tree under %s is no longer watched: %s: cpuset "
				"partitions are followed by the one-second poll only\n", ctx->prog,
				f->mount ? f->mount : "?", why);
	f->given_up = true;
	f->started = false;
	tree_forget(f);
}

/* The partition state in file @path: kind (-1 unreadable or not a state)
 * and whether invalid. */
static int part_state(struct nn_ctx *ctx, const char *path, bool *invalid)
{
	enum nn_cg_part kind;
	const char *reason;
	char text[256];
	size_t rlen;

	*invalid = false;
	if (nn_read_str(&ctx->root, path, text, sizeof(text)) ||
	    nn_cg_partition_parse(text, &kind, invalid, &reason, &rlen))
		return -1;
	return (int)kind;
}

/* One watch on @path (inside the root) for cgroup @rel. 0, or -ENOSPC
 * (the cap or the kernel's limit: the caller gives up), or another
 * negative errno (this one is skipped: a cgroup removed meanwhile). */
static int watch_one(struct nn_ctx *ctx, struct nn_claims_follow *f, const char *path,
		     const char *rel, bool dir)
{
	char proc[64];
	bool found;
	size_t at;
	char *copy;
	int fd, wd;

	fd = nn_root_openat(&ctx->root, path, O_PATH | O_NOFOLLOW | (dir ? O_DIRECTORY : 0), 0);
	if (fd < 0)
		return fd;
	/* through the fd: the inode the root's walk resolved, not a path
	 * the kernel would resolve again */
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	wd = inotify_add_watch(f->ifd, proc, dir ? DIR_MASK : FILE_MASK);
	if (wd < 0) {
		int err = -errno;

		close(fd);
		return err;
	}
	close(fd);
	at = ent_find(f, wd, &found);
	if (!(copy = strdup(rel))) {
		if (!found)
			inotify_rm_watch(f->ifd, wd);
		return -ENOMEM;
	}
	if (found) {		/* watched already (a rescan, a rename): the new name */
		free(f->ents[at].rel);
		f->ents[at].rel = copy;
		return 0;
	}
	if (f->n >= f->max || NN_GROW(f->ents, f->n, f->cap)) {
		inotify_rm_watch(f->ifd, wd);
		free(copy);
		return f->n >= f->max ? -E2BIG : -ENOMEM;
	}
	memmove(&f->ents[at + 1], &f->ents[at], (f->n - at) * sizeof(*f->ents));
	f->ents[at] = (struct nn_cgw_ent){ .wd = wd, .dir = dir, .rel = copy, .part_kind = -1 };
	/* read after the watch exists: a write after this read is an event */
	if (!dir) {
		int kind = part_state(ctx, path, &f->ents[at].part_invalid);

		/* no state yet (a file tree's file made empty) claims nothing,
		 * as a member does */
		f->ents[at].part_kind = kind < 0 ? NN_CG_PART_MEMBER : kind;
	}
	f->n++;
	return 0;
}

static int limit_error(int err)
{
	return err == -E2BIG || err == -ENOSPC || err == -ENOMEM;
}

/* Watches cgroup @rel, its partition file and every cgroup below it. */
static int watch_tree(struct nn_ctx *ctx, struct nn_claims_follow *f, const char *rel, int depth)
{
	struct nn_sb path = NN_SB_INIT, file = NN_SB_INIT;
	struct dirent *de;
	DIR *d = NULL;
	int err;

	nn_sb_printf(&path, "%s%s", f->mount, rel);
	nn_sb_printf(&file, "%s%s/%s", f->mount, rel, part_file);
	if (nn_sb_error(&path) || nn_sb_error(&file)) {
		err = -ENOMEM;
		goto out;
	}
	err = watch_one(ctx, f, nn_sb_str(&path), rel, true);
	if (err) {
		err = limit_error(err) ? err : 0;	/* gone meanwhile: nothing to watch */
		goto out;
	}
	err = watch_one(ctx, f, nn_sb_str(&file), rel, false);
	if (err && !limit_error(err))
		err = 0;	/* the root, or cpuset not enabled here: none */
	if (err || depth >= TREE_DEPTH_MAX || nn_root_opendir(&ctx->root, nn_sb_str(&path), &d))
		goto out;
	while (!err && (de = readdir(d))) {
		struct nn_sb sub = NN_SB_INIT;

		if ((de->d_type != DT_DIR && de->d_type != DT_UNKNOWN) || de->d_name[0] == '.')
			continue;
		nn_sb_printf(&sub, "%s/%s", rel, de->d_name);
		err = nn_sb_error(&sub) ? -ENOMEM : watch_tree(ctx, f, nn_sb_str(&sub), depth + 1);
		nn_sb_free(&sub);
	}
out:
	if (d)
		closedir(d);
	nn_sb_free(&path);
	nn_sb_free(&file);
	return err;
}

static int depth_of(const char *rel)
{
	int n = 0;

	for (; *rel; rel++)
		n += *rel == '/';
	return n;
}

/* watch_tree, giving the whole tree up when a limit is hit. */
static int watch_or_give_up(struct nn_ctx *ctx, struct nn_claims_follow *f, const char *rel)
{
	char why[200];
	int err = watch_tree(ctx, f, rel, depth_of(rel));

	if (!err)
		return 0;
	if (err == -E2BIG)
		snprintf(why, sizeof(why), "it needs more than %zu inotify watches (--cgroup-watches)",
			 f->max);
	else if (err == -ENOSPC)
		snprintf(why, sizeof(why), "the kernel's inotify watch limit is reached "
			 "(fs.inotify.max_user_watches) at %zu watches of ours", f->n);
	else
		snprintf(why, sizeof(why), "%s", strerror(-err));
	give_up(ctx, f, why);
	return err;
}

static int tree_start(struct nn_ctx *ctx, struct nn_claims_follow *f, const char *mount)
{
	free(f->mount);
	if (!(f->mount = strdup(mount)))
		return -ENOMEM;
	/* the mount's root is "" below: "/sys/fs/cgroup" + "" + "/a" */
	if (watch_or_give_up(ctx, f, ""))
		return -1;
	f->started = true;
	return 0;
}

/* Whether cgroup @rel is a partition now (root, isolated, or an invalid
 * one a write may make valid): a write to its CPUs may change a claim. A
 * member cgroup's or a cgroup without cpuset's cannot (a partition below
 * it that the write invalidates says so through its own partition file),
 * nor can a new cgroup (born a member): those need no read of the claims. */
static bool is_partition(struct nn_ctx *ctx, const struct nn_claims_follow *f, const char *rel)
{
	struct nn_sb path = NN_SB_INIT;
	enum nn_cg_part kind;
	const char *reason;
	char text[256];
	size_t rlen;
	bool invalid, yes;
	int err;

	nn_sb_printf(&path, "%s%s/%s", f->mount, rel, part_file);
	if (nn_sb_error(&path))
		return true;
	err = nn_read_str(&ctx->root, nn_sb_str(&path), text, sizeof(text));
	nn_sb_free(&path);
	if (err)
		return false;
	yes = nn_cg_partition_parse(text, &kind, &invalid, &reason, &rlen) || kind != NN_CG_PART_MEMBER;
	return yes;
}

/* Whether a cgroup below @rel is a partition (a `mkdir -p` whose deeper
 * cgroup became one before the watches on the top one existed). */
static bool subtree_has_partition(struct nn_ctx *ctx, const struct nn_claims_follow *f,
				  const char *rel, int depth)
{
	struct nn_sb path = NN_SB_INIT;
	struct dirent *de;
	bool found = false;
	DIR *d;

	nn_sb_printf(&path, "%s%s", f->mount, rel);
	if (nn_sb_error(&path) || depth >= TREE_DEPTH_MAX ||
	    nn_root_opendir(&ctx->root, nn_sb_str(&path), &d)) {
		nn_sb_free(&path);
		return false;
	}
	nn_sb_free(&path);
	while (!found && (de = readdir(d))) {
		struct nn_sb sub = NN_SB_INIT;

		if ((de->d_type != DT_DIR && de->d_type != DT_UNKNOWN) || de->d_name[0] == '.')
			continue;
		nn_sb_printf(&sub, "%s/%s", rel, de->d_name);
		found = nn_sb_error(&sub) || is_partition(ctx, f, nn_sb_str(&sub)) ||
			subtree_has_partition(ctx, f, nn_sb_str(&sub), depth + 1);
		nn_sb_free(&sub);
	}
	closedir(d);
	return found;
}

/* A cgroup file whose change may change a claim: the CPUs and partition
 * state files, and subtree_control (cpuset enabled below: partition files
 * appear in the children without any event of their own). */
static bool relevant_file(const char *name)
{
	return !strncmp(name, "cpuset.cpus", 11) || !strcmp(name, "cgroup.subtree_control");
}

/* The batch's last relevant event names it (a partition is made by a mkdir
 * and then writes; removed by deletes and then an rmdir). */
static void note_what(char *what, size_t len, bool *any, const char *rel, const char *name,
		      const char *verb)
{
	*any = true;
	snprintf(what, len, "cgroup %s%s%s %s", rel[0] ? rel : "/", name && rel[0] ? "/" : "",
		 name ? name : "", verb);
}

/* A partition file's event: whether its state differs from the one last
 * read there (the new one kept). Writing the state a cgroup has, such as
 * `member` into a member in a loop, costs one read of the file, no claims
 * read. */
static bool part_changed(struct nn_ctx *ctx, struct nn_claims_follow *f, struct nn_cgw_ent *e)
{
	struct nn_sb path = NN_SB_INIT;
	bool invalid, changed;
	int kind;

	nn_sb_printf(&path, "%s%s/%s", f->mount, e->rel, part_file);
	if (nn_sb_error(&path))
		return true;
	kind = part_state(ctx, nn_sb_str(&path), &invalid);
	nn_sb_free(&path);
	/* no state to judge (a file tree's write truncates first; the
	 * cgroup going away): the next event or its removal says */
	if (kind < 0)
		return false;
	changed = kind != e->part_kind || invalid != e->part_invalid;
	e->part_kind = kind;
	e->part_invalid = invalid;
	return changed;
}

int nn_cf_tree_drain(struct nn_ctx *ctx, struct nn_claims_follow *f, char *what, size_t len)
{
	union {
		struct inotify_event ev;
		char buf[8192];
	} u;
	bool any = false, rescan = false;
	ssize_t n;

	while (f->ifd >= 0 && (n = read(f->ifd, u.buf, sizeof(u.buf))) > 0) {
		const char *p = u.buf;

		while (p < u.buf + n) {
			const struct inotify_event *ie = (const void *)p;
			const char *name = ie->len ? ie->name : NULL;
			struct nn_cgw_ent *e;
			bool found;
			size_t at;

			p += sizeof(*ie) + ie->len;
			if (ie->mask & IN_Q_OVERFLOW) {
				/* events were lost: watch everything again */
				rescan = true;
				note_what(what, len, &any, "", NULL, "events overflowed");
				continue;
			}
			if (!f->started)
				continue;	/* IN_IGNORED after giving up */
			at = ent_find(f, ie->wd, &found);
			if (!found)
				continue;
			e = &f->ents[at];
			if (ie->mask & IN_IGNORED) {
				/* the kernel removed it: the cgroup is gone */
				free(e->rel);
				memmove(e, e + 1, (f->n - at - 1) * sizeof(*e));
				f->n--;
				continue;
			}
			if (!e->dir) {
				/* compared at the next settle (nn_cf_settle) */
				e->dirty = f->dirty = true;
				continue;
			}
			if (!name || name[0] == '.')
				continue;
			if (ie->mask & IN_ISDIR) {
				if (ie->mask & (IN_CREATE | IN_MOVED_TO)) {
					struct nn_sb sub = NN_SB_INIT;
					int err;

					nn_sb_printf(&sub, "%s/%s", e->rel, name);
					err = nn_sb_error(&sub) ? -ENOMEM :
						watch_or_give_up(ctx, f, nn_sb_str(&sub));
					if (err && !f->started) {
						nn_sb_free(&sub);
						return 1;
					}
					/* read after its watches exist: a partition made
					 * before them is seen here, one made after is an
					 * event of theirs (mkdir -p: the walk above) */
					if (err || is_partition(ctx, f, nn_sb_str(&sub)) ||
					    subtree_has_partition(ctx, f, nn_sb_str(&sub), depth_of(nn_sb_str(&sub))))
						note_what(what, len, &any, nn_sb_str(&sub), NULL, "created");
					nn_sb_free(&sub);
				} else if (ie->mask & (IN_DELETE | IN_MOVED_FROM)) {
					/* only a cgroup that claimed: a member's
					 * rmdir changes nothing (a mkdir/rmdir
					 * loop costs no claims read) */
					struct nn_sb sub = NN_SB_INIT;

					nn_sb_printf(&sub, "%s/%s", e->rel, name);
					if (nn_sb_error(&sub) || was_claim(f, nn_sb_str(&sub)))
						note_what(what, len, &any, e->rel, name, "removed");
					nn_sb_free(&sub);
				}
				continue;
			}
			if (!relevant_file(name))
				continue;
			if (ie->mask & (IN_DELETE | IN_MOVED_FROM)) {
				/* a cgroup's files go with it: a claim only when
				 * it claimed */
				if (was_claim(f, e->rel))
					note_what(what, len, &any, e->rel, name, "removed");
				continue;
			}
			/* the partition file's writes are its own watch's events
			 * (compared with the state last read there); the CPUs of
			 * a member cgroup claim nothing; subtree_control only
			 * makes member partition files below */
			if (strcmp(name, part_file) && strcmp(name, "cgroup.subtree_control") &&
			    is_partition(ctx, f, e->rel))
				note_what(what, len, &any, e->rel, name, ie->mask & IN_CREATE ? "created" :
					  "written");
			if (ie->mask & (IN_CREATE | IN_MOVED_TO) && !strcmp(name, part_file)) {
				/* a file tree (--root) makes it after the directory */
				struct nn_sb file = NN_SB_INIT;
				char *rel = strdup(e->rel);
				bool invalid;
				int err = -ENOMEM;

				nn_sb_printf(&file, "%s%s/%s", f->mount, rel ? rel : "", part_file);
				if (rel && !nn_sb_error(&file))
					err = watch_one(ctx, f, nn_sb_str(&file), rel, false);
				nn_sb_free(&file);
				if (!err && part_state(ctx, nn_sb_str(&file), &invalid) > NN_CG_PART_MEMBER)
					note_what(what, len, &any, rel, part_file, "created");
				free(rel);
				if (limit_error(err)) {
					give_up(ctx, f, err == -E2BIG ? "it needs more inotify watches "
						"than --cgroup-watches" : "the kernel's inotify watch "
						"limit is reached (fs.inotify.max_user_watches)");
					return 1;
				}
			} else if (!strcmp(name, "cgroup.subtree_control")) {
				struct nn_sb rel = NN_SB_INIT;

				nn_sb_printf(&rel, "%s", e->rel);
				if (!nn_sb_error(&rel) && watch_or_give_up(ctx, f, nn_sb_str(&rel)) &&
				    !f->started) {
					nn_sb_free(&rel);
					return 1;
				}
				nn_sb_free(&rel);
			}
		}
	}
	if (rescan && f->started && watch_or_give_up(ctx, f, ""))
		return 1;
	return any;
}

int nn_cf_settle(struct nn_ctx *ctx, struct nn_claims_follow *f, char *what, size_t len)
{
	bool any = false;
	size_t i;

	if (!f->dirty)
		return 0;
	f->dirty = false;
	for (i = 0; i < f->n; i++) {
		struct nn_cgw_ent *e = &f->ents[i];

		if (e->dir || !e->dirty)
			continue;
		e->dirty = false;
		if (part_changed(ctx, f, e))
			note_what(what, len, &any, e->rel, part_file, "changed");
	}
	return any;
}

int nn_cf_tree_retry(struct nn_ctx *ctx, struct nn_claims_follow *f)
{
	if (!f->limit_hit || !f->given_up || f->started || f->ifd < 0 || !f->mount || !f->seen)
		return 0;
	/* quietly: giving up again says nothing new */
	if (watch_tree(ctx, f, "", 0)) {
		tree_forget(f);
		return 0;
	}
	f->given_up = f->limit_hit = false;
	f->started = true;
	nn_fprintf_text(stderr, "%s: the cgroup tree under %s is watched again (%zu watches): cpuset "
			"partitions are followed by inotify\n", ctx->prog, f->mount, f->n);
	return 1;
}

/* ---- the owners ----------------------------------------------------- */

static struct nn_cf_owner *owner_find(struct nn_claims_follow *f, const char *name)
{
	size_t i;

	for (i = 0; i < f->nown; i++)
		if (!strcmp(f->owners[i].name, name))
			return &f->owners[i];
	return NULL;
}

/* A pidfd for record @c's owner. 1: the owner is gone already (found after
 * the pidfd was opened: the pidfd is then the recorded process's, if any);
 * 0 held; negative: not held (the caller polls that owner). */
static int owner_hold(struct nn_ctx *ctx, struct nn_claims_follow *f, const struct nn_claim *c)
{
	struct epoll_event ev = { .events = EPOLLIN };
	unsigned long long start = 0;
	struct nn_cf_owner *o;
	int fd, err;

	if (f->oep < 0 || f->nown >= NN_OWNER_PIDFDS_MAX)
		return -ENOSPC;
	fd = nn_pidfd_open(c->pid);
	if (fd < 0) {
		if (fd == -ESRCH)
			return 1;
		err = fd;
		if (err == -ENOSYS && !f->no_pidfd) {
			f->no_pidfd = true;
			nn_fprintf_text(stderr, "%s: the kernel has no pidfd_open (Linux 5.3+): claim owners "
					"are followed by the one-second poll\n", ctx->prog);
		}
		return err;
	}
	/* The process the pidfd holds is the recorded one when it still has
	 * the recorded start time after the open (a pid is not reused while
	 * its process lives, and the record's process is older than any the
	 * pid could name after it). */
	err = nn_claim_pid_start(ctx, c->pid, &start);
	if (err == -ESRCH || (!err && c->pid_start && start != c->pid_start)) {
		close(fd);
		return 1;
	}
	ev.data.fd = fd;
	if (NN_GROW(f->owners, f->nown, f->owncap) || epoll_ctl(f->oep, EPOLL_CTL_ADD, fd, &ev)) {
		close(fd);
		return -ENOMEM;
	}
	o = &f->owners[f->nown];
	if (!(o->name = strdup(c->name))) {
		epoll_ctl(f->oep, EPOLL_CTL_DEL, fd, NULL);
		close(fd);
		return -ENOMEM;
	}
	o->fd = fd;
	o->pid = c->pid;
	o->start = c->pid_start;
	f->nown++;
	return 0;
}

static int sync_owners(struct nn_ctx *ctx, struct nn_claims_follow *f, const struct nn_claims *cl)
{
	bool *keep = calloc(f->nown + 1, sizeof(*keep));
	size_t i, k, had = f->nown;
	int gone = 0;

	if (!keep)
		return 0;
	f->owners_polled = false;
	for (i = 0; i < cl->n; i++) {
		const struct nn_claim_item *it = &cl->items[i];
		struct nn_cf_owner *o;
		int r;

		if (it->source != NN_CLAIM_SRC_RECORD || !it->live || it->c.pid <= 0)
			continue;
		o = owner_find(f, it->c.name);
		if (o && o->pid == it->c.pid && o->start == it->c.pid_start) {
			if ((size_t)(o - f->owners) < had)
				keep[o - f->owners] = true;
			continue;
		}
		if (!nn_root_is_live(&ctx->root)) {
			f->owners_polled = true;
			continue;
		}
		r = owner_hold(ctx, f, &it->c);
		if (r > 0)
			gone = 1;
		else if (r < 0)
			f->owners_polled = true;
	}
	/* the ones held before and not named now (released, replaced);
	 * from the end, so that the indexes of the rest hold */
	for (k = had; k-- > 0;) {
		bool named = keep[k];

		if (!named)
			owner_drop(f, k);
	}
	free(keep);
	return gone;
}

int nn_cf_sync(struct nn_ctx *ctx, struct nn_claims_follow *f, const struct nn_claims *cl)
{
	int again = 0;

	f->seen = cl->cgroup_mount && cl->cpuset_ctrl;
	if (f->seen && !f->started && !f->given_up && f->ifd >= 0) {
		if (!tree_start(ctx, f, cl->cgroup_mount))
			again = 1;
	} else if (f->started && cl->cgroup_mount && strcmp(cl->cgroup_mount, f->mount)) {
		/* remounted elsewhere: watch the new place */
		tree_forget(f);
		f->started = false;
		if (!tree_start(ctx, f, cl->cgroup_mount))
			again = 1;
	}
	if (sync_owners(ctx, f, cl))
		again = 1;
	parts_set(f, cl);
	return again;
}

int nn_cf_owners_drain(struct nn_claims_follow *f, char *what, size_t len)
{
	struct epoll_event evs[16];
	bool any = false;
	int n, i;

	while (f->oep >= 0 && (n = epoll_wait(f->oep, evs, 16, 0)) > 0) {
		for (i = 0; i < n; i++) {
			size_t k;

			for (k = 0; k < f->nown; k++)
				if (f->owners[k].fd == evs[i].data.fd)
					break;
			if (k == f->nown) {
				epoll_ctl(f->oep, EPOLL_CTL_DEL, evs[i].data.fd, NULL);
				continue;
			}
			if (!any)
				snprintf(what, len, "owner of %s exited (pid %d)", f->owners[k].name,
					 f->owners[k].pid);
			any = true;
			owner_drop(f, k);
		}
	}
	return any;
}

bool nn_cf_needs_poll(const struct nn_claims_follow *f)
{
	return (f->seen && !f->started) || f->owners_polled;
}

const char *nn_cf_tree_mode(const struct nn_claims_follow *f)
{
	return f->started ? "inotify" : f->seen ? "poll" : "none";
}
