/* SPDX-License-Identifier: GPL-2.0-or-later */
/* plan_state.h - the planner's working state, shared by plan/'s planning files (plan*.c, profile.c) only */
#ifndef NICNUMA_PLAN_STATE_H
#define NICNUMA_PLAN_STATE_H

#include <stdbool.h>
#include <stddef.h>

#include "nicnuma/plan/plan.h"
#include "nicnuma/plan/plan_internal.h"

struct cpu_core {
	int node, package, die, core_id, l3;
	int sibkey;			/* first thread sibling, -1 unknown */
	int *thr;			/* all online threads, ascending */
	size_t nthr;
	int *use;			/* threads usable for queue IRQs */
	size_t nuse;
	bool used;			/* taken by an earlier group */
};

enum entry_kind { E_LOCAL, E_SPILL, E_REMOTE, E_SPREAD, E_LOCALCPUS, E_UNKNOWN };

struct pool_entry {
	size_t core;
	enum entry_kind kind;
	int dist;			/* from the group's base node, -1 n/a */
};

enum group_kind { G_NODE, G_REMOTE, G_LOCALCPUS, G_ALL };

struct group {
	enum group_kind kind;
	int node;			/* G_NODE: NIC node; G_REMOTE: target node */
	int from;			/* G_REMOTE: the NIC's own node */
	const struct nn_cpuset *mask;	/* G_LOCALCPUS: the NICs' local_cpus */
	bool unknown;			/* G_ALL because locality is unknown */
	size_t *nics;			/* indices into st->nics */
	size_t nnics;
	struct pool_entry *pool;
	size_t npool;
};

/* Where one slot position of a NIC goes, and why. */
struct pick {
	int cpu;
	enum entry_kind kind;
	size_t core;			/* index into st->cores */
	int thr;			/* thread index inside the core: 0 primary */
	int dist;			/* from the group's base node, -1 n/a */
};

struct nic_state {
	const struct nn_nic *nic;
	int *effq;			/* per IRQ: the queue slot it is placed as, -1 housekeeping */
	size_t nunknown;		/* IRQs of no recognised role, placed like queues */
	int *slots;			/* distinct queue indices, ascending */
	size_t nslots;
	size_t demand;			/* cores it asks for: active queues, <= nslots */
	bool ranges;			/* a vector serves a range of rings (NN_IRQ_ROW_RANGE) */
	size_t group;
	size_t *share;			/* indices into the group's pool */
	size_t nshare;
	struct pick *order;		/* CPU per slot position (before wrapping) */
	size_t norder, order_cap;
	int home;			/* node for hugepages/EAL: -1 several/unknown */
	bool spilled;
};

struct plan_state {
	const struct nn_host *host;
	const struct nn_topo *topo;
	const struct nn_plan_opts *opts;
	struct nn_plan *plan;
	struct nn_cpuset allowed;	/* online, within --cpus */
	struct nn_cpuset hk;		/* housekeeping, online */
	struct cpu_core *cores;
	size_t ncores;
	struct nic_state *nics;
	size_t nnics;
	struct group *groups;
	size_t ngroups;
	size_t *spare;			/* per node index: cores its own NICs leave free */
	size_t *lent;			/* per node index: cores already lent from its back */
	bool rfs_warned;		/* the "no RFS table in this netns" warning is given once */
};

/* The plan's warning (what the user can change) or note (a fact of the host
 * no option changes, exit 0): 0 or -ENOMEM, which the caller returns. */
#define nn__plan_warn(st, ...) nn__plan_add_warning((st)->plan, __VA_ARGS__)
#define nn__plan_note(st, ...) nn__plan_add_note((st)->plan, __VA_ARGS__)

/* plan.c: node of a set of CPUs, -1 when several or unknown. */
int nn__plan_cpus_node(const struct nn_topo *t, const struct nn_cpuset *s);
/* plan.c: whether @node has a core with a CPU usable for queue IRQs. */
int nn__plan_node_has_usable(const struct plan_state *st, int node);
/* plan.c: the cores a group's NICs ask for (their active queues). */
size_t nn__plan_group_demand(const struct plan_state *st, const struct group *g);
/* plan_emit.c: the plan's entries, after the allocation (build_groups). */
int nn__plan_emit(struct plan_state *st);
/* plan_rss.c: --rss local for @ns, after its IRQs (plan->irqs[@irq0..]) were placed. */
int nn__plan_emit_rss(struct plan_state *st, struct nic_state *ns, size_t irq0);

/* plan_rps.c: --rps auto for @ns, after its IRQs (plan->irqs[@irq0..]) were placed. */
int nn__plan_emit_rps(struct plan_state *st, struct nic_state *ns, size_t irq0);
/* plan_rps.c: an rps_cpus found on a DPDK lcore, isolated or claimed CPU
 * loses them (every profile; the rule is in plan_rps.c's header). */
int nn__plan_emit_rps_keep_off(struct plan_state *st, struct nic_state *ns);
/* plan_napi_conf.c: the NAPI settings asked for, for @ns. */
int nn__plan_emit_napi_conf(struct plan_state *st, struct nic_state *ns);
/* plan_dpdk.c: --profile dpdk takes layout --dpdk's lcores out of st->allowed. */
int nn__plan_dpdk_lcores(struct plan_state *st);
/* plan_boot.c: --profile latency --isolate's CPUs leave st->allowed and housekeeping. */
int nn__plan_isolate(struct plan_state *st);
/* plan_boot.c: the kernel arguments (--boot-args, the profiles), after the hugepages. */
int nn__plan_boot(struct plan_state *st);
/* plan_ports.c: plan->ports from --dpdk-ports and host->ports. */
int nn__plan_ports(struct plan_state *st);
/* profile.c: the busy-poll sysctls of latency with --busy-poll. */
int nn__plan_emit_busy(struct plan_state *st);
/* profile.c: the profile's coalescing and ring sizes for @ns. */
int nn__plan_emit_eth(struct plan_state *st, struct nic_state *ns);

#endif
