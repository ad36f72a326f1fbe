// SPDX-License-Identifier: GPL-2.0-or-later
/* claim.c - claim, release and list run-time CPU claims (design in claim.h, docs/claims.md) */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "nicnuma/service/claim.h"
#include "nicnuma/service/desired_io.h"
#include "nicnuma/service/watch.h"
#include "nicnuma/core/ctx.h"
#include "nicnuma/core/print.h"
#include "nicnuma/core/strbuf.h"
#include "nicnuma/discover/coexist.h"
#include "nicnuma/discover/nic.h"
#include "nicnuma/discover/topo.h"
#include "nicnuma/plan/desired.h"
#include "nicnuma/plan/plan.h"
#include "nicnuma/plan/plan_moves.h"

/* Only root may change what NIC work avoids. Under a fake root nothing
 * live changes: a user's test tree is theirs (the store's trust rule then
 * takes the euid as owner, as the undo log's does). */
static int require_root(struct nn_ctx *ctx, const char *what)
{
	if (nn_root_is_live(&ctx->root) && geteuid() != 0) {
		nn_err(ctx, "%s: only root may claim or release CPUs (euid %u)", what,
		       (unsigned int)geteuid());
		return -EPERM;
	}
	return 0;
}

/* The flags the claimed set is read with: the desired state's
 * claim_root_partitions. */
static unsigned int read_flags(struct nn_ctx *ctx)
{
	struct nn_desired d;
	unsigned int flags = 0;

	if (!nn_desired_read(ctx, NULL, &d)) {
		flags = nn_desired_claim_flags(&d);
		nn_desired_free(&d);
	}
	nn_warnings_clear(ctx);
	return flags;
}

/* "claim: CPUs 7 are not online CPUs of this host" and its like. */
static int say_cpus(struct nn_ctx *ctx, const char *before, const struct nn_cpuset *s,
		    const char *after)
{
	char *list = nn_cpuset_format_list(s);

	if (!list)
		return -ENOMEM;
	nn_err(ctx, "claim: %s%s%s", before, list, after);
	free(list);
	return -EINVAL;
}

/* The NICs (with queue IRQs) a refused claim would leave nothing to spill
 * to, with their nodes: the desired state's, or every one when nicnuma is
 * not enabled. Only the refusal reads them. */
static int say_no_room(struct nn_ctx *ctx, const struct nn_topo *t, const struct nn_desired *d,
		       const struct nn_cpuset *usable)
{
	struct nn_sb sb = NN_SB_INIT;
	struct nn_nic *nics = NULL;
	char **only = NULL, *list = nn_cpuset_format_list(usable);
	size_t i, n = 0, nonly = 0, named = 0;
	int err = -ENOMEM;

	if (!list)
		goto out;
	if (d && d->nnics) {
		only = calloc(d->nnics, sizeof(*only));
		if (!only)
			goto out;
		for (i = 0; i < d->nnics; i++)
			if (d->nics[i].name)
				only[nonly++] = d->nics[i].name;
	}
	if (nn_nics_discover(ctx, t, NN_NICS_SHAPE | NN_NICS_NO_EFFECTIVE, only, nonly, &nics, &n))
		n = 0;
	for (i = 0; i < n; i++) {
		if (!nics[i].nirqs)
			continue;
		if (nics[i].numa_node >= 0)
			nn_sb_printf(&sb, "%s%s (node %d)", named ? ", " : "", nics[i].name,
				     nics[i].numa_node);
		else
			nn_sb_printf(&sb, "%s%s (node unknown)", named ? ", " : "", nics[i].name);
		named++;
	}
	if (nn_sb_error(&sb))
		goto out;
	nn_err(ctx, "claim: with the other claims it would leave NIC work no CPU (the CPUs it may use "
	       "are %s: online, within the desired --cpus, less the isolated CPUs, less every "
	       "claim): %s would have nothing to spill to", list, named ? nn_sb_str(&sb) : "every NIC");
	err = -EINVAL;
out:
	nn_nics_free(nics, n);
	nn_sb_free(&sb);
	free(only);
	free(list);
	return err;
}

/* Every CPU exists and is online, and the claims together leave NIC work a
 * CPU by the planner's own rule (nn_plan_usable_cpus: within the desired
 * --cpus, less the isolated CPUs): a claim that takes the last one is
 * refused, naming the NICs it would strand. @t: the topology (BASIC or
 * deeper: the isolated CPUs come with BASIC); @d: the desired state, NULL
 * when not enabled. */
static int check_cpus(struct nn_ctx *ctx, const struct nn_claim *c, const struct nn_topo *t,
		      const struct nn_desired *d)
{
	struct nn_claims cl;
	struct nn_cpuset bad = NN_CPUSET_INIT, all = NN_CPUSET_INIT, usable = NN_CPUSET_INIT;
	int err;

	err = nn_cpuset_copy(&bad, &c->cpus);
	if (err)
		goto out;
	nn_cpuset_andnot(&bad, &t->online);
	if (!nn_cpuset_empty(&bad)) {
		err = say_cpus(ctx, "CPUs ", &bad, " are not online CPUs of this host");
		goto out;
	}
	err = nn_claims_read(ctx, d ? nn_desired_claim_flags(d) : 0, &cl);
	if (err)
		goto out;
	err = nn_cpuset_copy(&all, &cl.cpus);
	nn_claims_free(&cl);
	if (!err)
		err = nn_cpuset_or(&all, &c->cpus);
	if (!err)
		err = nn_plan_usable_cpus(t, d ? &d->cpus : NULL, &all, &usable, NULL);
	if (err)
		goto out;
	if (nn_cpuset_empty(&usable)) {
		err = nn_plan_usable_cpus(t, d ? &d->cpus : NULL, NULL, &usable, NULL);
		if (!err)
			err = say_no_room(ctx, t, d, &usable);
	}
out:
	nn_cpuset_free(&bad);
	nn_cpuset_free(&all);
	nn_cpuset_free(&usable);
	return err;
}

static void print_moves(struct nn_out *o, const struct nn_irq_move *mv, size_t n)
{
	size_t i;

	if (n)
		nn_printf(o, "  %-5s %-16s %-5s %-12s %-12s %s\n", "IRQ", "NIC", "QUEUE", "FROM", "TO", "REASON");
	nn_open_array(o, "moves");
	for (i = 0; i < n; i++) {
		const struct nn_plan_irq *a = mv[i].after;

		nn_open_object(o, NULL);
		nn_print_int(o, PRINT_ANY, "irq", "  %-5lld", a->irq);
		nn_print_string(o, PRINT_ANY, "nic", " %-16s", a->nic ? a->nic : "?");
		nn_print_opt_int(o, PRINT_ANY, "queue", " %-5lld", a->queue, "-");
		if (mv[i].before)
			nn_print_cpuset(o, PRINT_ANY, "from", " %-12s", &mv[i].before->cpus);
		else
			nn_print_null(o, PRINT_ANY, "from", " %-12s");
		nn_print_cpuset(o, PRINT_ANY, "to", " %-12s", &a->cpus);
		nn_print_bool(o, PRINT_JSON, "spill", NULL, mv[i].spill);
		nn_print_string(o, PRINT_ANY, "reason", " %s\n", a->reason ? a->reason : "");
		nn_close_object(o);
	}
	nn_close_array(o);
}

/* `claim --dry-run`: the plan with the claims now and with this one too -
 * the desired state's plan when enabled, else the default plan `apply`
 * makes - and the IRQs that would move between the two. Nothing written.
 * @d: the desired state, NULL when not enabled. */
static int preview(struct nn_ctx *ctx, const struct nn_cpuset *cpus, const struct nn_desired *d)
{
	struct nn_out *o = &ctx->out;
	struct nn_host host;
	struct nn_plan before, after;
	struct nn_plan_opts po = { 0 };
	struct nn_irq_move *mv = NULL;
	const char **missing = NULL;
	size_t n = 0, nmissing = 0, i, spills = 0;
	bool enabled = d != NULL;
	int err;

	memset(&host, 0, sizeof(host));
	memset(&before, 0, sizeof(before));
	memset(&after, 0, sizeof(after));
	err = nn_host_discover_flags(ctx, &host, 0, enabled ? nn_desired_claim_flags(d) : 0);
	if (!err && enabled)
		err = nn_desired_plan_opts(d, &host, &po, &missing, &nmissing);
	if (!err)
		err = nn_plan_make(&host, &po, &before);
	if (!err)
		err = nn_cpuset_or(&host.claims.cpus, cpus);
	if (!err)
		err = nn_plan_make(&host, &po, &after);
	if (!err)
		err = nn_plan_irq_moves(&before, &after, &mv, &n);
	/* the host's own warnings are other commands' to give; this one previews */
	nn_warnings_clear(ctx);
	nn_open_object(o, "preview");
	nn_print_string(o, PRINT_JSON, "plan", NULL, enabled ? "desired" : "default");
	nn_print_bool(o, PRINT_JSON, "enabled", NULL, enabled);
	if (err == -ENOENT) {
		nn_printf(o, "preview: no NIC of the desired state is on the host: nothing would move\n");
		err = 0;
	} else if (err) {
		nn_err(ctx, "claim --dry-run: cannot plan the preview: %s", strerror(-err));
	} else {
		for (i = 0; i < n; i++)
			spills += mv[i].spill;
		nn_printf(o, "preview (%s): ", enabled ? "the desired state's plan" :
			  "the default plan 'nicnuma apply' makes");
		if (n)
			nn_printf(o, "%zu IRQ%s would move, %zu of them off their NIC's node\n", n,
				  n == 1 ? "" : "s", spills);
		else
			nn_printf(o, "no IRQ would move\n");
		print_moves(o, mv, n);
		nn_print_uint(o, PRINT_JSON, "spills", NULL, spills);
		if (!enabled)
			nn_printf(o, "not enabled: the claim alone moves nothing; 'nicnuma apply' would place "
				  "them so\n");
	}
	nn_close_object(o);
	free(mv);
	free(missing);
	nn_plan_free(&before);
	nn_plan_free(&after);
	nn_plan_opts_free(&po);
	nn_host_free(&host);
	return err;
}

void nn_claim_inputs_init(struct nn_claim_inputs *in)
{
	memset(in, 0, sizeof(*in));
	nn_desired_init(&in->d);
	in->derr = 1;
	in->depth = -1;
}

void nn_claim_inputs_free(struct nn_claim_inputs *in)
{
	nn_desired_free(&in->d);
	nn_topo_free(&in->topo);
	nn_claim_inputs_init(in);
}

enum nn_topo_depth nn_claim_depth(struct nn_ctx *ctx, unsigned int flags)
{
	return (flags & NN_CLAIM_DRY_RUN) || nn_watch_lock_held(ctx, NULL) > 0 ? NN_TOPO_BASIC : NN_TOPO_FULL;
}

/* The desired state, unless read already; with @quiet its warnings are
 * dropped (the claim's checks: other commands' to give). */
static void read_desired(struct nn_ctx *ctx, struct nn_claim_inputs *in, bool quiet)
{
	if (in->derr != 1)
		return;
	in->derr = nn_desired_read(ctx, NULL, &in->d);
	if (quiet)
		nn_warnings_clear(ctx);
}

int nn_claim_inputs_read(struct nn_ctx *ctx, struct nn_claim_inputs *in, enum nn_topo_depth depth)
{
	int err;

	read_desired(ctx, in, true);
	if (in->depth >= (int)depth)
		return 0;
	nn_topo_free(&in->topo);
	memset(&in->topo, 0, sizeof(in->topo));
	in->depth = -1;
	err = nn_topo_discover_depth(ctx, &in->topo, depth);
	if (!err)
		in->depth = (int)depth;
	return err;
}

/* Gets the placement re-applied: the running watcher sees the record
 * (inotify) and re-applies at once; without one, one reconcile of the
 * desired state runs here under the state lock and into the before-enable
 * log, over the request's inputs @in (the desired state read here only
 * when needed; both taken over). Not enabled: nothing to re-apply. */
static void reapply(struct nn_ctx *ctx, const char *what, unsigned int flags, struct nn_claim_inputs *in,
		    struct nn_claim_result *res)
{
	int err;

	/* whether a watcher runs, not who: no /proc/locks read here */
	if (nn_watch_lock_held(ctx, NULL) > 0) {
		res->watcher = true;
		res->applied = NN_CLAIM_BY_WATCHER;
		return;
	}
	if (flags & NN_CLAIM_NO_APPLY)
		return;
	read_desired(ctx, in, false);
	if (in->derr) {
		res->not_enabled = in->derr == -ENOENT;
		if (in->derr == -ENOENT)
			nn_note(ctx, NULL, "%s: nicnuma is not enabled and no watcher runs: nothing "
				"re-applied now (plan, apply and check take the claims from now on)", what);
		return;
	}
	err = nn_watch_reconcile_once(ctx, &in->d, in->depth == NN_TOPO_FULL ? &in->topo : NULL, what,
				      (flags & NN_CLAIM_COEXIST) != 0);
	/* taken over: nothing left to hand down */
	nn_claim_inputs_free(in);
	/* -EBUSY is also another owner at the gate, or the state lock: only
	 * a watcher that started meanwhile makes it the watcher's. */
	if (err == -EBUSY && nn_watch_lock_held(ctx, NULL) > 0) {
		res->watcher = true;
		res->applied = NN_CLAIM_BY_WATCHER;
		return;
	}
	res->applied = err < 0 ? NN_CLAIM_NOT_APPLIED : NN_CLAIM_BY_SELF;
	res->apply_rc = err;
}

void nn_claim_reapply(struct nn_ctx *ctx, const char *name, bool release, unsigned int flags,
		      struct nn_claim_inputs *in, struct nn_claim_result *res)
{
	char what[NN_CLAIM_NAME_MAX + 16];

	snprintf(what, sizeof(what), "%s %s", release ? "release" : "claim", name);
	reapply(ctx, what, flags & ~(unsigned int)NN_CLAIM_NO_APPLY, in, res);
}

int nn_claim_add(struct nn_ctx *ctx, const struct nn_claim *req, unsigned int flags, struct nn_claim_inputs *given,
		 struct nn_claim_result *res)
{
	struct nn_claim c, old;
	/* read once: the checks, the preview, the reconcile */
	struct nn_claim_inputs own, *in = given ? given : &own;
	char why[160], what[NN_CLAIM_NAME_MAX + 16];
	int err, lock = -1;

	memset(res, 0, sizeof(*res));
	nn_claim_inputs_init(&own);
	err = require_root(ctx, "claim");
	if (err)
		return err;
	err = nn_claim_copy(&c, req);
	if (err)
		return err;
	if (!c.owner && !(c.owner = strdup("claim"))) {
		err = -ENOMEM;
		goto out;
	}
	if (!c.created)
		c.created = (long long)time(NULL);
	if (c.pid >= 0 && !c.pid_start) {
		err = nn_claim_pid_start(ctx, c.pid, &c.pid_start);
		if (err) {
			nn_err(ctx, "claim: pid %d: %s", c.pid,
			       err == -ESRCH ? "no such process" : strerror(-err));
			goto out;
		}
	}
	err = nn_claim_validate(&c, why, sizeof(why));
	if (err) {
		nn_err(ctx, "claim: %s", why);
		goto out;
	}
	if (strcmp(c.owner, "claim") && strcmp(c.owner, "hook")) {
		nn_err(ctx, "claim: owner '%s': a record is a claim's or a hook's", c.owner);
		err = -EINVAL;
		goto out;
	}
	err = nn_claim_inputs_read(ctx, in, nn_claim_depth(ctx, flags));
	if (err) {
		nn_err(ctx, "cannot read the host's CPUs: %s", strerror(-err));
		goto out;
	}
	err = check_cpus(ctx, &c, &in->topo, in->derr ? NULL : &in->d);
	if (err)
		goto out;
	/* from judging the old record to writing the new one: no pruner
	 * judges the old one stale and removes the new one */
	lock = (flags & NN_CLAIM_DRY_RUN) ? -1 : nn_claim_store_lock(ctx, true);
	if (lock < 0 && !(flags & NN_CLAIM_DRY_RUN)) {
		err = lock;
		goto out;
	}
	err = nn_claim_store_read(ctx, c.name, &old, why, sizeof(why));
	if (!err) {
		char sw[128];
		bool alive = nn_claim_owner_alive(ctx, &old, sw, sizeof(sw));

		nn_claim_free(&old);
		if (alive && !(flags & NN_CLAIM_REPLACE)) {
			nn_err(ctx, "claim: %s exists; release it first", c.name);
			err = -EEXIST;
			goto out;
		}
	} else if (err != -ENOENT) {
		/* A forged or broken record under this name: never trusted, and
		 * not silently replaced either - root must look at it. */
		nn_err(ctx, "claim: %s/%s.json refused: %s", NN_CLAIMS_DIR, c.name, why);
		goto out;
	}
	if (flags & NN_CLAIM_DRY_RUN) {
		err = preview(ctx, &c.cpus, in->derr ? NULL : &in->d);
		goto out;
	}
	err = nn_claim_store_write(ctx, &c);
	close(lock);
	lock = -1;
	if (err)
		goto out;
	res->recorded = true;
	snprintf(what, sizeof(what), "claim %s", c.name);
	reapply(ctx, what, flags, in, res);
out:
	if (lock >= 0)
		close(lock);
	nn_claim_free(&c);
	nn_claim_inputs_free(&own);
	return err;
}

/* Under the store's lock: @name's record read, judged and removed (the
 * very file read; a refused one by name: release is how root clears it). */
static int release_locked(struct nn_ctx *ctx, const char *name, unsigned int flags,
			  struct nn_claim_result *res)
{
	struct nn_claim old;
	char why[160], sw[128] = "";
	int err = nn_claim_store_read(ctx, name, &old, why, sizeof(why));
	bool refused = err && err != -ENOENT;

	if (err == -ENOENT) {
		nn_err(ctx, "release: no claim %s", name);
		return err;
	}
	if (refused)
		nn_warn(ctx, NN_CLAIMS_DIR, "%s.json was refused (%s): removed", name, why);
	/* a stopped container's hook: a record whose owner still lives is
	 * another container's that took the name since */
	if (!refused && (flags & NN_CLAIM_IF_OWNER_GONE) && nn_claim_owner_alive(ctx, &old, sw, sizeof(sw)) &&
	    old.pid >= 0) {
		nn_err(ctx, "release: %s is held by pid %d, a living process (start %llu): another "
		       "container's claim now, not released", name, old.pid, old.pid_start);
		nn_claim_free(&old);
		return -EBUSY;
	}
	res->existed = true;
	if (flags & NN_CLAIM_DRY_RUN) {
		nn_claim_free(&old);
		return 0;
	}
	err = refused ? nn_claim_store_remove(ctx, name) : nn_claim_store_remove_read(ctx, &old);
	nn_claim_free(&old);
	if (err == -ENOENT)
		nn_err(ctx, "release: no claim %s", name);
	return err;
}

int nn_claim_release(struct nn_ctx *ctx, const char *name, unsigned int flags,
		     struct nn_claim_result *res)
{
	char what[NN_CLAIM_NAME_MAX + 16];
	struct nn_claim_inputs in;
	int err, lock;

	memset(res, 0, sizeof(*res));
	err = require_root(ctx, "release");
	if (err)
		return err;
	if (name && name[0] == '/') {
		nn_err(ctx, "release: %s is a cgroup partition: it ends when the partition does", name);
		return -EINVAL;
	}
	if (!nn_claim_name_ok(name)) {
		nn_err(ctx, "release: bad claim name '%s'", name ? name : "");
		return -EINVAL;
	}
	lock = nn_claim_store_lock(ctx, false);
	if (lock == -ENOENT)
		nn_err(ctx, "release: no claim %s", name);
	if (lock < 0)
		return lock;
	err = release_locked(ctx, name, flags, res);
	close(lock);
	if (err || (flags & NN_CLAIM_DRY_RUN))
		return err;
	res->recorded = true;
	snprintf(what, sizeof(what), "release %s", name);
	nn_claim_inputs_init(&in);
	reapply(ctx, what, flags, &in, res);
	nn_claim_inputs_free(&in);
	return 0;
}

int nn_claims_list(struct nn_ctx *ctx, bool prune, struct nn_claims *out)
{
	unsigned int flags = read_flags(ctx);

	if (prune && (!nn_root_is_live(&ctx->root) || geteuid() != 0)) {
		nn_err(ctx, "claims --prune: only root on the live host removes claim records%s",
		       nn_root_is_live(&ctx->root) ? "" : " (--root given: nothing is removed under a root)");
		return -EPERM;
	}
	if (prune)
		flags |= NN_CLAIMS_PRUNE;
	return nn_claims_read(ctx, flags, out);
}

void nn_claims_print(struct nn_ctx *ctx, const struct nn_claims *cl)
{
	struct nn_out *o = &ctx->out;
	size_t i, stale = 0, pruned = 0;

	nn_open_object(o, "claims");
	nn_print_cpuset(o, PRINT_JSON, "claimed", NULL, &cl->cpus);
	if (nn_cpuset_empty(&cl->cpus))
		nn_printf(o, "claimed CPUs: none\n");
	else
		nn_print_cpuset(o, PRINT_FP, NULL, "claimed CPUs: %s\n", &cl->cpus);
	nn_open_object(o, "cgroup");
	if (cl->cgroup_mount)
		nn_print_string(o, PRINT_ANY, "mount", "cgroup v2: %s", cl->cgroup_mount);
	else
		nn_print_null(o, PRINT_ANY, "mount", "cgroup v2: %s");
	nn_print_bool(o, PRINT_ANY, "cpuset", ", cpuset controller: %s\n", cl->cpuset_ctrl);
	if (cl->cgroup_note)
		nn_print_string(o, PRINT_ANY, "note", "note: %s: no cpuset partition claims\n",
				cl->cgroup_note);
	else
		nn_print_null(o, PRINT_JSON, "note", NULL);
	nn_print_uint(o, PRINT_JSON, "invalid_partitions", NULL, cl->ninvalid);
	nn_close_object(o);
	if (cl->n)
		nn_printf(o, "%-24s %-15s %-6s %-12s %-6s %-8s %s\n", "NAME", "SOURCE", "OWNER", "CPUS",
			  "STATE", "PID", "REASON");
	nn_open_array(o, "items");
	for (i = 0; i < cl->n; i++) {
		const struct nn_claim_item *it = &cl->items[i];
		const struct nn_claim *c = &it->c;

		nn_open_object(o, NULL);
		nn_print_string(o, PRINT_ANY, "name", "%-24s", c->name);
		nn_print_string(o, PRINT_ANY, "source", " %-15s", nn_claim_source_name(it->source));
		nn_print_string(o, PRINT_ANY, "owner", " %-6s", c->owner);
		nn_print_cpuset(o, PRINT_ANY, "cpus", " %-12s", &c->cpus);
		nn_print_bool(o, PRINT_JSON, "live", NULL, it->live);
		nn_print_bool(o, PRINT_JSON, "pruned", NULL, it->pruned);
		nn_print_string(o, PRINT_FP, NULL, " %-6s", it->live ? "live" : it->pruned ? "pruned" : "stale");
		stale += !it->live && !it->pruned && it->source == NN_CLAIM_SRC_RECORD;
		pruned += it->pruned;
		if (it->stale)
			nn_print_string(o, PRINT_JSON, "stale_reason", NULL, it->stale);
		else
			nn_print_null(o, PRINT_JSON, "stale_reason", NULL);
		nn_print_opt_int(o, PRINT_ANY, "pid", " %-8lld", c->pid, "-");
		if (c->container_id)
			nn_print_string(o, PRINT_JSON, "container_id", NULL, c->container_id);
		else
			nn_print_null(o, PRINT_JSON, "container_id", NULL);
		if (c->reason)
			nn_print_string(o, PRINT_ANY, "reason", " %s", c->reason);
		else
			nn_print_null(o, PRINT_JSON, "reason", NULL);
		if (c->created)
			nn_print_int(o, PRINT_JSON, "created", NULL, c->created);
		else
			nn_print_null(o, PRINT_JSON, "created", NULL);
		if (it->stale)
			nn_print_string(o, PRINT_FP, NULL, " (%s)", it->stale);
		nn_printf(o, "\n");
		nn_close_object(o);
	}
	nn_close_array(o);
	if (!cl->n)
		nn_printf(o, "no claims\n");
	if (pruned)
		nn_printf(o, "%zu stale record%s removed (pruned)\n", pruned, pruned == 1 ? "" : "s");
	if (stale)
		nn_printf(o, "%zu stale record%s kept: their owners are gone and they claim nothing; "
			  "'nicnuma claims --prune' (root) removes them, as the watcher does\n",
			  stale, stale == 1 ? "" : "s");
	nn_close_object(o);
}
