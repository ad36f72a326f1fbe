/* SPDX-License-Identifier: GPL-2.0-or-later */
/* claim.h - run-time CPU claims: add, release, list (docs/claims.md)
 *
 * The one door every claimer goes through: `nicnuma claim` / `release` /
 * `claims` and the OCI hook (`nicnuma hook`). A claim is recorded under
 * /run/nicnuma/claims (state/claims_store.h) and then the placement is
 * re-applied through the one pipeline (act/pipeline.h) and transaction:
 *  - a running watcher (it holds /run/nicnuma/watch.lock) sees the record
 *    through inotify and re-applies at once (no settle): the caller only
 *    records (res->applied = NN_CLAIM_BY_WATCHER);
 *  - no watcher: the caller applies itself under the state lock
 *    (NN_CLAIM_BY_SELF), with the desired state as the plan when enabled,
 *    else the default plan, so `rollback` and `disable` restore as found.
 * Only root may add or release (-EPERM, message printed). Hostile input
 * (bad name, empty/huge list, CPUs that do not exist or are offline, a
 * missing pid) is refused with a clear message and changes nothing.
 */
#ifndef NICNUMA_SERVICE_CLAIM_H
#define NICNUMA_SERVICE_CLAIM_H

#include <stdbool.h>

#include "nicnuma/discover/claims.h"
#include "nicnuma/discover/topo.h"
#include "nicnuma/plan/desired.h"
#include "nicnuma/state/claims_store.h"

struct nn_ctx;

enum {
	NN_CLAIM_DRY_RUN = 1 << 0,	/* validate and say what would happen; write nothing */
	NN_CLAIM_NO_APPLY = 1 << 1,	/* record only, even with no watcher (the hook under a deadline) */
	NN_CLAIM_REPLACE = 1 << 2,	/* add: a record of the same name is replaced (else -EEXIST) */
	NN_CLAIM_QUIET = 1 << 3,	/* print nothing of the apply (the hook) */
	NN_CLAIM_COEXIST = 1 << 4,	/* the re-apply here goes on beside another owner (warnings) */
	NN_CLAIM_IF_OWNER_GONE = 1 << 5,	/* release: only when the record's process is gone
						 * (else -EBUSY, printed): a stopped container's hook */
};

enum nn_claim_applied {
	NN_CLAIM_NOT_APPLIED,		/* dry run, NN_CLAIM_NO_APPLY, or it failed (apply_rc) */
	NN_CLAIM_BY_WATCHER,		/* recorded; the running watcher re-applies */
	NN_CLAIM_BY_SELF,		/* recorded and applied here under the state lock */
};

struct nn_claim_result {
	bool recorded;			/* the record was written (add) or removed (release) */
	enum nn_claim_applied applied;
	int apply_rc;			/* the pipeline's value when applied here (0 ok, 1 failed values,
					 * negative errno); 0 otherwise */
	bool existed;			/* release: there was such a record */
	bool watcher;			/* a watcher was running */
	bool not_enabled;		/* nothing re-applied: not enabled and no watcher */
};

/* What one request reads once and hands down - the CPU check, the hook's
 * housekeeping siblings, the re-apply's reconcile: the desired state and
 * the topology. nn_claim_inputs_init, filled by nn_claim_inputs_read
 * (what is not read yet), nn_claim_inputs_free. */
struct nn_claim_inputs {
	struct nn_desired d;
	int derr;			/* d's read: 0, -ENOENT not enabled, -errno; 1 not read */
	struct nn_topo topo;
	int depth;			/* enum nn_topo_depth read; -1 none */
};

void nn_claim_inputs_init(struct nn_claim_inputs *in);
void nn_claim_inputs_free(struct nn_claim_inputs *in);
/* The depth a claim's topology is read at: everything when the re-apply
 * runs here (no watcher, no dry run under @flags: its reconcile plans from
 * the same read), else what the CPU check needs (NN_TOPO_BASIC). */
enum nn_topo_depth nn_claim_depth(struct nn_ctx *ctx, unsigned int flags);
/* The desired state and the topology at @depth or deeper, each read only
 * if not yet. 0, or the topology read's negative errno (nothing printed). */
int nn_claim_inputs_read(struct nn_ctx *ctx, struct nn_claim_inputs *in, enum nn_topo_depth depth);

/* Records claim @c (c->owner, c->pid set by the caller; c->pid_start and
 * c->created filled here when 0) and gets it applied; @in: the request's
 * inputs (read here what is missing, the caller frees), NULL: read and
 * freed here. 0, or a negative errno with the message printed (-EPERM not
 * root, -EINVAL bad input, -EEXIST the name is taken, -ESRCH no such pid). */
int nn_claim_add(struct nn_ctx *ctx, const struct nn_claim *c, unsigned int flags, struct nn_claim_inputs *in,
		 struct nn_claim_result *res);
/* Removes record @name and gets the placement re-applied. -ENOENT (printed)
 * when there is no such record; -EBUSY (printed) under NN_CLAIM_IF_OWNER_GONE
 * when its process lives. */
int nn_claim_release(struct nn_ctx *ctx, const char *name, unsigned int flags,
		     struct nn_claim_result *res);
/* The re-apply of a claim (@release false) or release of record @name
 * that nn_claim_add/nn_claim_release skipped under NN_CLAIM_NO_APPLY with
 * no watcher running (the hook: the record at once, this in a child under
 * its deadline), over the inputs @in the record's checks read (what is
 * missing read here; the reconcile takes them over). Fills @res->applied,
 * watcher, apply_rc. */
void nn_claim_reapply(struct nn_ctx *ctx, const char *name, bool release, unsigned int flags,
		      struct nn_claim_inputs *in, struct nn_claim_result *res);
/* Every claim (records and cpuset partitions), liveness judged; with
 * @prune (root on the live host only: -EPERM otherwise, printed) stale
 * records are removed as they are read and listed as pruned. */
int nn_claims_list(struct nn_ctx *ctx, bool prune, struct nn_claims *out);
/* `nicnuma claims`: the table (name, source, owner, CPUs, live/stale,
 * pid, reason) or the JSON "claims" object. */
void nn_claims_print(struct nn_ctx *ctx, const struct nn_claims *cl);

#endif
