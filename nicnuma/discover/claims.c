// SPDX-License-Identifier: GPL-2.0-or-later
/* claims.c - the claimed CPUs: cgroup v2 cpuset partitions and claim records, liveness judged */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "nicnuma/core/proc.h"
#include "nicnuma/core/ctx.h"
#include "nicnuma/core/fileio.h"
#include "nicnuma/core/parse.h"
#include "nicnuma/core/strbuf.h"
#include "nicnuma/discover/claims.h"
#include "nicnuma/discover/claims_parse.h"

/* A cgroup tree is walked whole on every read (the watcher reads it on each
 * change): bounded so a hostile or huge tree cannot stall it. */
#define CG_DEPTH_MAX 32
#define CG_DIRS_MAX 20000

static const char *const source_names[] = { "record", "partition", "cgroup_isolated" };

const char *nn_claim_source_name(enum nn_claim_source s)
{
	return (unsigned int)s < 3 ? source_names[s] : "?";
}

void nn_claims_free(struct nn_claims *cl)
{
	size_t i;

	for (i = 0; i < cl->n; i++) {
		nn_claim_free(&cl->items[i].c);
		free(cl->items[i].stale);
	}
	free(cl->items);
	nn_cpuset_free(&cl->cpus);
	free(cl->cgroup_mount);
	free(cl->cgroup_note);
	memset(cl, 0, sizeof(*cl));
}

int nn_claim_pid_start(struct nn_ctx *ctx, int pid, unsigned long long *start)
{
	struct nn_proc_stat st;
	int err;

	if (pid <= 0)
		return -ESRCH;
	err = nn_proc_read_stat(&ctx->root, NULL, pid, &st);
	if (err)
		return err;
	if (st.starttime < 0)
		return -EINVAL;
	/* A zombie has given its CPUs back: it only waits to be reaped. */
	if (st.state == 'Z' || st.state == 'X')
		return -ESRCH;
	*start = (unsigned long long)st.starttime;
	return 0;
}

bool nn_claim_owner_alive(struct nn_ctx *ctx, const struct nn_claim *c, char *why, size_t whylen)
{
	unsigned long long start;
	int err;

	if (c->pid < 0)
		return true;
	err = nn_claim_pid_start(ctx, c->pid, &start);
	if (err == -ESRCH) {
		snprintf(why, whylen, "pid %d is gone", c->pid);
		return false;
	}
	/* Unreadable is not gone: keep the claim rather than put NIC work on it. */
	if (err)
		return true;
	if (c->pid_start && start != c->pid_start) {
		snprintf(why, whylen, "pid %d is another process now (start %llu, not %llu)", c->pid,
			 start, c->pid_start);
		return false;
	}
	return true;
}

static int add_item(struct nn_claims *cl, struct nn_claim *c, enum nn_claim_source src,
		    bool live, const char *stale)
{
	struct nn_claim_item *it;

	if (NN_GROW(cl->items, cl->n, cl->cap))
		return -ENOMEM;
	it = &cl->items[cl->n];
	memset(it, 0, sizeof(*it));
	it->c = *c;
	*c = (struct nn_claim)NN_CLAIM_INIT;
	it->source = src;
	it->live = live;
	if (stale && !(it->stale = strdup(stale)))
		return -ENOMEM;
	cl->n++;
	if (live && nn_cpuset_or(&cl->cpus, &it->c.cpus))
		return -ENOMEM;
	return 0;
}

/* Pruning holds the store's lock from the listing to the last removal,
 * and removes only the very file it judged: a record `claim` writes
 * meanwhile under the same name waits for the lock, or is another file. */
static int read_records(struct nn_ctx *ctx, unsigned int flags, struct nn_claims *cl)
{
	struct nn_claim_records recs;
	size_t i;
	bool prune = (flags & NN_CLAIMS_PRUNE) && nn_root_is_live(&ctx->root) && geteuid() == 0;
	int lock = prune ? nn_claim_store_lock(ctx, false) : -1;
	int err;

	if (lock == -ENOENT)
		return 0;	/* no directory: no record */
	if (lock < 0)
		prune = false;
	err = nn_claim_store_list(ctx, &recs);
	if (err)
		goto out;
	for (i = 0; i < recs.n && !err; i++) {
		char why[128] = "";
		bool live = nn_claim_owner_alive(ctx, &recs.v[i], why, sizeof(why));

		bool pruned = !live && prune && !nn_claim_store_remove_read(ctx, &recs.v[i]);

		if (pruned)
			nn_note(ctx, NN_CLAIMS_DIR, "claim %s ended: %s", recs.v[i].name, why);
		/* a pruned record stays in the list, marked, so whoever pruned it can say so */
		err = add_item(cl, &recs.v[i], NN_CLAIM_SRC_RECORD, live, live ? NULL : why);
		if (!err && pruned)
			cl->items[cl->n - 1].pruned = true;
	}
	nn_claim_records_free(&recs);
out:
	if (lock >= 0)
		close(lock);
	return err;
}

struct cg_walk {
	struct nn_ctx *ctx;
	struct nn_claims *cl;
	unsigned int flags;
	size_t dirs;
	struct nn_cpuset parts;		/* CPUs of the partitions found */
};

/* The CPUs a valid partition holds: its exclusive effective CPUs (6.7+),
 * else its effective CPUs. A cgroup cut short (@cut) also tries the
 * exclusive CPUs it was given, before the effective ones. */
static int partition_cpus(struct nn_ctx *ctx, const char *dir, bool cut, struct nn_cpuset *cpus)
{
	static const char *const files[] = { "cpuset.cpus.exclusive.effective", "cpuset.cpus.exclusive" };
	char path[4096];
	size_t i;
	int err;

	for (i = 0; i < (cut ? 2u : 1u); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
		err = nn_read_cpulist(&ctx->root, path, cpus);
		if (!err && !nn_cpuset_empty(cpus))
			return 0;
	}
	snprintf(path, sizeof(path), "%s/cpuset.cpus.effective", dir);
	return nn_read_cpulist(&ctx->root, path, cpus);
}

/* Adds cgroup @dir's partition CPUs as a claim with @reason. */
static int add_cgroup_claim(struct cg_walk *w, const char *dir, const char *rel, bool cut,
			    const char *reason)
{
	struct nn_ctx *ctx = w->ctx;
	struct nn_claim c = NN_CLAIM_INIT;
	int err = partition_cpus(ctx, dir, cut, &c.cpus);

	if (err) {
		nn_warn(ctx, dir, "partition CPUs unreadable (%s)", nn_read_strerror(err));
		return 0;
	}
	if (nn_cpuset_empty(&c.cpus))
		return 0;
	c.name = strdup(rel[0] ? rel : "/");
	c.owner = strdup("cpuset");
	c.reason = strdup(reason);
	if (!c.name || !c.owner || !c.reason || nn_cpuset_or(&w->parts, &c.cpus)) {
		nn_claim_free(&c);
		return -ENOMEM;
	}
	err = add_item(w->cl, &c, NN_CLAIM_SRC_PARTITION, true, NULL);
	nn_claim_free(&c);
	return err;
}

/* Whether a partition can be at or below cgroup @dir: it is one (any
 * state but member, an invalid one included: a write may make it valid) or
 * it holds exclusive CPUs (a remote partition's ancestors, 6.7+, all hold
 * its CPUs in cpuset.cpus.exclusive). A member without exclusive CPUs has
 * none below it, so its subtree is not read: a user's delegated tree of
 * member cgroups costs nothing and cannot exhaust the walk. */
static bool may_hold_partition(struct nn_ctx *ctx, const char *dir, enum nn_cg_part kind)
{
	static const char *const files[] = { "cpuset.cpus.exclusive", "cpuset.cpus.exclusive.effective" };
	struct nn_cpuset x = NN_CPUSET_INIT;
	char path[4096];
	bool yes = kind != NN_CG_PART_MEMBER;
	size_t i;

	for (i = 0; !yes && i < 2; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
		yes = !nn_read_cpulist(&ctx->root, path, &x) && !nn_cpuset_empty(&x);
	}
	nn_cpuset_free(&x);
	return yes;
}

/* Reads cgroup @dir's partition state; *@descend: whether its children
 * are read (may_hold_partition; the mount's root always). */
static int visit(struct cg_walk *w, const char *dir, const char *rel, bool *descend)
{
	struct nn_ctx *ctx = w->ctx;
	char path[4096], text[512];
	const char *reason;
	size_t rlen;
	enum nn_cg_part kind;
	bool invalid;

	*descend = !rel[0];
	snprintf(path, sizeof(path), "%s/cpuset.cpus.partition", dir);
	if (nn_read_str(&ctx->root, path, text, sizeof(text)))
		return 0;	/* no cpuset here: none below either */
	if (nn_cg_partition_parse(text, &kind, &invalid, &reason, &rlen)) {
		nn_warn(ctx, path, "not a partition state: ignored");
		*descend = true;	/* unknown: read below rather than miss one */
		return 0;
	}
	*descend = *descend || may_hold_partition(ctx, dir, kind);
	if (kind == NN_CG_PART_MEMBER)
		return 0;
	if (invalid) {
		w->cl->ninvalid++;
		nn_note(ctx, path, "invalid %s partition (%.*s): claims nothing", nn_cg_part_name(kind),
			(int)rlen, reason ? reason : "");
		return 0;
	}
	if (kind == NN_CG_PART_ROOT && !(w->flags & NN_CLAIMS_ROOT_PARTITIONS))
		return 0;
	return add_cgroup_claim(w, dir, rel, false, kind == NN_CG_PART_ISOLATED ? "isolated partition" :
				"root partition");
}

/* A cgroup whose children were not all read (the walk's cap): every
 * partition below it lies within its exclusive (else effective) CPUs, so
 * those claim, rather than let a cut-short read pass as complete. */
static int claim_cut_short(struct cg_walk *w, const char *dir, const char *rel)
{
	w->cl->truncated = true;
	return rel[0] ? add_cgroup_claim(w, dir, rel, true, "cgroup walk cut short below") : 0;
}

/* The run's deadline (the OCI hook's: the runtime waits) has passed. */
static bool past_deadline(const struct nn_ctx *ctx)
{
	struct timespec ts;

	if (!ctx->deadline_ms)
		return false;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000 >= ctx->deadline_ms;
}

static int walk(struct cg_walk *w, const char *dir, const char *rel, int depth)
{
	struct dirent *de;
	bool descend;
	DIR *d;
	int err = visit(w, dir, rel, &descend);

	if (err || !descend || depth >= CG_DEPTH_MAX)
		return err;
	if (nn_root_opendir(&w->ctx->root, dir, &d))
		return 0;
	while (!err && (de = readdir(d))) {
		struct nn_sb sub, subrel;

		/* DT_UNKNOWN (a fake root on a file system without d_type):
		 * tried, a file fails to open as a directory below */
		if ((de->d_type != DT_DIR && de->d_type != DT_UNKNOWN) || de->d_name[0] == '.')
			continue;
		if (past_deadline(w->ctx)) {
			nn_warn(w->ctx, w->cl->cgroup_mount, "the run's deadline passed after %zu cgroups: "
				"the rest not read", w->dirs);
			err = -E2BIG;
			break;
		}
		if (++w->dirs > CG_DIRS_MAX) {
			nn_warn(w->ctx, w->cl->cgroup_mount, "more than %d cgroups that can hold a partition: "
				"the rest not read; the CPUs of the cgroups cut short claim instead",
				CG_DIRS_MAX);
			err = -E2BIG;
			break;
		}
		nn_sb_init(&sub);
		nn_sb_init(&subrel);
		nn_sb_printf(&sub, "%s/%s", dir, de->d_name);
		nn_sb_printf(&subrel, "%s/%s", rel, de->d_name);
		err = nn_sb_error(&sub) || nn_sb_error(&subrel) ? -ENOMEM :
			walk(w, nn_sb_str(&sub), nn_sb_str(&subrel), depth + 1);
		nn_sb_free(&sub);
		nn_sb_free(&subrel);
	}
	closedir(d);
	if (err == -E2BIG) {
		int e2 = claim_cut_short(w, dir, rel);

		err = e2 ? e2 : err;
	}
	return err;
}

static int read_cgroup(struct nn_ctx *ctx, unsigned int flags, struct nn_claims *cl)
{
	struct cg_walk w = { .ctx = ctx, .cl = cl, .flags = flags, .dirs = 0, .parts = NN_CPUSET_INIT };
	struct nn_claim c = NN_CLAIM_INIT;
	char *text = NULL, path[4096];
	int err;

	err = nn_read_file(&ctx->root, "/proc/self/mountinfo", &text, NULL);
	if (!err) {
		err = nn_cg_mountinfo_cgroup2(text, &cl->cgroup_mount);
		free(text);
		text = NULL;
	}
	if (err == -ENOMEM)
		return err;
	if (err) {
		cl->cgroup_note = strdup("no cgroup v2 mount in /proc/self/mountinfo");
		return cl->cgroup_note ? 0 : -ENOMEM;
	}
	snprintf(path, sizeof(path), "%s/cgroup.controllers", cl->cgroup_mount);
	err = nn_read_file(&ctx->root, path, &text, NULL);
	cl->cpuset_ctrl = !err && nn_cg_has_controller(text, "cpuset");
	free(text);
	if (!cl->cpuset_ctrl) {
		cl->cgroup_note = strdup("no cgroup v2 cpuset controller");
		return cl->cgroup_note ? 0 : -ENOMEM;
	}
	err = walk(&w, cl->cgroup_mount, "", 0);
	if (err == -E2BIG)
		err = 0;
	/* The root's cpuset.cpus.isolated (6.10+): what the kernel counts as
	 * isolated by partitions; CPUs the walk did not find still claim. */
	snprintf(path, sizeof(path), "%s/cpuset.cpus.isolated", cl->cgroup_mount);
	if (!err && !nn_read_cpulist(&ctx->root, path, &c.cpus)) {
		nn_cpuset_andnot(&c.cpus, &w.parts);
		if (!nn_cpuset_empty(&c.cpus)) {
			c.name = strdup("/");
			c.owner = strdup("cpuset");
			c.reason = strdup("cpuset.cpus.isolated");
			err = c.name && c.owner && c.reason ?
				add_item(cl, &c, NN_CLAIM_SRC_ROOT_ISOLATED, true, NULL) : -ENOMEM;
		}
	}
	nn_claim_free(&c);
	nn_cpuset_free(&w.parts);
	return err;
}

int nn_claims_read(struct nn_ctx *ctx, unsigned int flags, struct nn_claims *out)
{
	int err;

	memset(out, 0, sizeof(*out));
	err = (flags & NN_CLAIMS_NO_RECORDS) ? 0 : read_records(ctx, flags, out);
	if (!err)
		err = read_cgroup(ctx, flags, out);
	if (err)
		nn_claims_free(out);
	return err;
}

int nn_claims_cgroup_cpus(const struct nn_claims *cl, struct nn_cpuset *out)
{
	size_t i;

	nn_cpuset_zero(out);
	for (i = 0; i < cl->n; i++)
		if (cl->items[i].source != NN_CLAIM_SRC_RECORD && cl->items[i].live &&
		    nn_cpuset_or(out, &cl->items[i].c.cpus))
			return -ENOMEM;
	return 0;
}

int nn_claims_keep_last(struct nn_ctx *ctx, struct nn_claims *cl, const struct nn_cpuset *last)
{
	struct nn_cpuset more = NN_CPUSET_INIT;
	char *list;
	int err;

	if (!cl->truncated || !last || nn_cpuset_empty(last))
		return 0;
	err = nn_cpuset_copy(&more, last);
	if (!err) {
		nn_cpuset_andnot(&more, &cl->cpus);
		if (!nn_cpuset_empty(&more)) {
			list = nn_cpuset_format_list(&more);
			nn_warn(ctx, cl->cgroup_mount, "cgroup walk cut short: CPUs %s of the last complete "
				"read's partitions stay claimed", list ? list : "?");
			free(list);
			err = nn_cpuset_or(&cl->cpus, &more);
		}
	}
	nn_cpuset_free(&more);
	return err;
}
