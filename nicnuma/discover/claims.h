/* SPDX-License-Identifier: GPL-2.0-or-later */
/* claims.h - the CPUs claimed now: cgroup v2 cpuset partitions and claim records
 *
 * The one answer to "which CPUs may no NIC work use now" beside
 * nn_topo_isolated_cpus(): nn_claims.cpus, the union of every live claim.
 * Sources (docs/claims.md):
 *  - cgroup v2 cpuset partitions read through the fs root: every `isolated`
 *    partition's effective CPUs, the root's cpuset.cpus.isolated (6.10+), and
 *    `root` partitions with exclusive CPUs when NN_CLAIMS_ROOT_PARTITIONS
 *    (the desired state's claim_root_partitions) asks; an invalid partition
 *    claims nothing (a note says so);
 *  - the records of state/claims_store.h, each judged live or stale: a
 *    record tied to a pid lasts while that pid runs with the same starttime.
 * The partition files' parsers are pure (discover/claims_parse.c, fuzzed).
 */
#ifndef NICNUMA_DISCOVER_CLAIMS_H
#define NICNUMA_DISCOVER_CLAIMS_H

#include <stdbool.h>
#include <stddef.h>

#include "nicnuma/core/cpuset.h"
#include "nicnuma/state/claims_store.h"

struct nn_ctx;

enum nn_claim_source {
	NN_CLAIM_SRC_RECORD,		/* a record: nicnuma claim or the OCI hook */
	NN_CLAIM_SRC_PARTITION,		/* a cgroup v2 cpuset partition (isolated, or root when asked) */
	NN_CLAIM_SRC_ROOT_ISOLATED,	/* the cgroup root's cpuset.cpus.isolated */
};
/* "record", "partition", "cgroup_isolated" */
const char *nn_claim_source_name(enum nn_claim_source s);

struct nn_claim_item {
	struct nn_claim c;		/* a partition: name = its cgroup path ("/" + dir), owner "cpuset",
					 * reason "isolated partition" or "root partition", pid -1 */
	enum nn_claim_source source;
	bool live;			/* false: a stale record (its owner is gone); not a claim */
	char *stale;			/* why it is stale, NULL when live */
	bool pruned;			/* a stale record this read removed (NN_CLAIMS_PRUNE) */
};

struct nn_claims {
	struct nn_claim_item *items;	/* records by name, then partitions by path */
	size_t n, cap;
	struct nn_cpuset cpus;		/* union of the live claims' CPUs */
	char *cgroup_mount;		/* the cgroup2 mount inside the root; NULL none */
	bool cpuset_ctrl;		/* the cgroup2 root offers the cpuset controller */
	char *cgroup_note;		/* why no partition was read ("no cgroup v2 cpuset controller"), NULL */
	size_t ninvalid;		/* invalid partitions seen (each a note) */
	bool truncated;			/* the cgroup walk hit its cap: the partitions read are
					 * claims, with the CPUs of every cgroup cut short
					 * (a warning), but not a complete read */
};

enum {
	NN_CLAIMS_ROOT_PARTITIONS = 1 << 0,	/* `root` partitions' exclusive CPUs claim too */
	NN_CLAIMS_NO_RECORDS = 1 << 1,		/* partitions only */
	NN_CLAIMS_PRUNE = 1 << 2,		/* remove stale records (root, live root only) */
};

/* Reads every source through ctx->root; a source that cannot be read is a
 * note or warning and the rest still counts. 0 or a negative errno
 * (-ENOMEM). */
int nn_claims_read(struct nn_ctx *ctx, unsigned int flags, struct nn_claims *out);
void nn_claims_free(struct nn_claims *cl);

/* The live cgroup-sourced claims' CPUs (partitions, cpuset.cpus.isolated,
 * cut-short cgroups) into @out. 0 or -ENOMEM. */
int nn_claims_cgroup_cpus(const struct nn_claims *cl, struct nn_cpuset *out);
/* A truncated read (@cl->truncated) keeps @last, the cgroup CPUs of the
 * last complete read (nn_claims_cgroup_cpus), claimed in @cl->cpus, with a
 * warning naming what only @last holds; a complete read is left as is.
 * 0 or -ENOMEM. */
int nn_claims_keep_last(struct nn_ctx *ctx, struct nn_claims *cl, const struct nn_cpuset *last);

/* The starttime of @pid (/proc/PID/stat field 22, clock ticks since boot),
 * through the fs root. 0, -ESRCH when there is no such process, or a
 * negative errno. */
int nn_claim_pid_start(struct nn_ctx *ctx, int pid, unsigned long long *start);
/* Whether record @c's owner still holds it: no pid: always; else the pid
 * runs with the recorded starttime. false with the reason in @why. */
bool nn_claim_owner_alive(struct nn_ctx *ctx, const struct nn_claim *c, char *why, size_t whylen);

#endif
