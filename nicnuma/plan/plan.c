// SPDX-License-Identifier: GPL-2.0-or-later
/* plan.c - where every queue IRQ, XPS mask, channel count and hugepage goes
 *
 * A pure function of the host snapshot and the options: no I/O, so every
 * fixture can be planned and every rule unit-tested. The rules, in order:
 *  - CPUs are grouped into physical cores (package/die/core ids, else thread
 *    siblings), cores sorted by node, then L3 group, then first thread, so one
 *    L3 group fills before the next;
 *  - isolated CPUs (nn_topo_isolated_cpus: isolcpus=, nohz_full,
 *    cpu/isolated) take nothing unless --cpus names them: they are left out
 *    of the allowed CPUs and of housekeeping, and the plan lists them;
 *  - housekeeping CPUs (first core of each node, or --reserve) never take
 *    queue IRQs; non-queue IRQs (config, async, ctrl) go there;
 *  - NICs whose queues target the same CPUs form a group: disjoint cores while
 *    the group's queues fit, otherwise a max-min fair share of the cores;
 *  - inside a NIC's share: one queue per core first, SMT siblings next, then
 *    queues wrap and share CPUs;
 *  - a node with no usable CPU, or fewer cores than queues, spills to the
 *    nearest nodes by the distance matrix (only "near" ones, distance below
 *    twice the local distance, i.e. the same package under NPS/SNC, for the
 *    "too few" case: a remote socket costs more than an SMT sibling);
 *  - --rss local: the RSS table spreads over the queues whose planned rx IRQs
 *    all sit on the NIC's node (the nearest spill node when the node has no
 *    usable CPU), equal weights or (local:cpu) each queue's CPU share;
 *    rx queues the kernel reports bound (AF_XDP, io_uring zero-copy, devmem:
 *    netdev genl queue-get) are left out, with a note.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicnuma/plan/plan.h"
#include "nicnuma/plan/plan_internal.h"

struct core {
	int node, package, die, core_id, l3;
	int sibkey;			/* first thread sibling, -1 unknown */
	int *thr;			/* all online threads, ascending */
	size_t nthr;
	int *use;			/* threads usable for queue IRQs */
	size_t nuse;
	bool used;			/* taken by an earlier group */
};

enum entry_kind { E_LOCAL, E_SPILL, E_REMOTE, E_SPREAD, E_LOCALCPUS, E_UNKNOWN };

struct entry {
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
	size_t nn;
	struct entry *pool;
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

struct nicst {
	const struct nn_nic *nic;
	int *effq;			/* per IRQ: the queue slot it is placed as, -1 housekeeping */
	size_t nunknown;		/* IRQs of no recognised role, placed like queues */
	int *slots;			/* distinct queue indices, ascending */
	size_t nslots;
	size_t demand;			/* cores it asks for: active queues, <= nslots */
	size_t group;
	size_t *share;			/* indices into the group's pool */
	size_t nshare;
	struct pick *order;		/* CPU per slot position (before wrapping) */
	size_t norder, order_cap;
	int home;			/* node for hugepages/EAL: -1 several/unknown */
	bool spilled;
};

struct state {
	const struct nn_host *host;
	const struct nn_topo *topo;
	const struct nn_plan_opts *opts;
	struct nn_plan *plan;
	struct nn_cpuset allowed;	/* online, within --cpus */
	struct nn_cpuset hk;		/* housekeeping, online */
	struct core *cores;
	size_t ncores;
	struct nicst *nics;
	size_t nnics;
	struct group *groups;
	size_t ngroups;
	size_t *spare;			/* per node index: cores its own NICs leave free */
	size_t *lent;			/* per node index: cores already lent from its back */
};

const char *nn_policy_name(enum nn_policy p)
{
	switch (p) {
	case NN_POLICY_LOCAL: return "local";
	case NN_POLICY_SPREAD: return "spread";
	case NN_POLICY_REMOTE: return "remote";
	}
	return "local";
}

int nn_policy_parse(const char *s, enum nn_policy *p)
{
	if (!strcmp(s, "local"))
		*p = NN_POLICY_LOCAL;
	else if (!strcmp(s, "spread"))
		*p = NN_POLICY_SPREAD;
	else if (!strcmp(s, "remote"))
		*p = NN_POLICY_REMOTE;
	else
		return -EINVAL;
	return 0;
}

const char *nn_qdir_name(enum nn_qdir d)
{
	switch (d) {
	case NN_QDIR_RXTX: return "rxtx";
	case NN_QDIR_RX: return "rx";
	case NN_QDIR_TX: return "tx";
	case NN_QDIR_NONE: break;
	}
	return NULL;
}

int nn__plan_add_warning(struct nn_plan *plan, const char *fmt, ...)
{
	char **w, *msg;
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = vasprintf(&msg, fmt, ap);
	va_end(ap);
	if (r < 0)
		return -ENOMEM;
	w = realloc(plan->warnings, (plan->nwarnings + 1) * sizeof(*w));
	if (!w) {
		free(msg);
		return -ENOMEM;
	}
	plan->warnings = w;
	plan->warnings[plan->nwarnings++] = msg;
	return 0;
}

#define WARN(st, ...) do { if (nn__plan_add_warning((st)->plan, __VA_ARGS__)) return -ENOMEM; } while (0)

static int push_int(int **v, size_t *n, int x)
{
	int *p = realloc(*v, (*n + 1) * sizeof(**v));

	if (!p)
		return -ENOMEM;
	p[(*n)++] = x;
	*v = p;
	return 0;
}

/* ---- cores ---- */

/* Same physical core: the kernel lists one in the other's thread siblings, or
 * package/die/core ids match. Either alone survives one unreadable file. */
static bool same_core(const struct core *c, const struct nn_cpu *cpu)
{
	size_t k;

	if (c->node != cpu->node)
		return false;
	for (k = 0; k < c->nthr; k++)
		if (nn_cpuset_test(&cpu->siblings, (unsigned)c->thr[k]))
			return true;
	if (cpu->package >= 0 && cpu->core >= 0)
		return c->package == cpu->package && c->die == cpu->die && c->core_id == cpu->core;
	return c->sibkey >= 0 && c->sibkey == cpu->id;
}

static int core_cmp(const void *a, const void *b)
{
	const struct core *x = a, *y = b;
	long lx = x->l3 < 0 ? INT_MAX : x->l3, ly = y->l3 < 0 ? INT_MAX : y->l3;

	if (x->node != y->node)
		return x->node < y->node ? -1 : 1;
	if (lx != ly)
		return lx < ly ? -1 : 1;
	return x->thr[0] < y->thr[0] ? -1 : x->thr[0] > y->thr[0];
}

static int build_cores(struct state *st)
{
	const struct nn_topo *t = st->topo;
	size_t i, j;

	for (i = 0; i < t->ncpus; i++) {
		const struct nn_cpu *cpu = &t->cpus[i];
		struct core *c = NULL;

		for (j = 0; j < st->ncores; j++)
			if (same_core(&st->cores[j], cpu)) {
				c = &st->cores[j];
				break;
			}
		if (!c) {
			c = realloc(st->cores, (st->ncores + 1) * sizeof(*c));
			if (!c)
				return -ENOMEM;
			st->cores = c;
			c = &st->cores[st->ncores++];
			memset(c, 0, sizeof(*c));
			c->node = cpu->node;
			c->package = cpu->package;
			c->die = cpu->die;
			c->core_id = cpu->core;
			c->l3 = cpu->l3;
			c->sibkey = nn_cpuset_empty(&cpu->siblings) ? -1 : nn_cpuset_first(&cpu->siblings);
		}
		if (push_int(&c->thr, &c->nthr, cpu->id))
			return -ENOMEM;
	}
	qsort(st->cores, st->ncores, sizeof(*st->cores), core_cmp);
	return 0;
}

static int fill_usable(struct state *st, bool with_hk)
{
	size_t i, k, total = 0;

	for (i = 0; i < st->ncores; i++) {
		struct core *c = &st->cores[i];

		c->nuse = 0;
		for (k = 0; k < c->nthr; k++) {
			unsigned cpu = (unsigned)c->thr[k];

			if (!nn_cpuset_test(&st->allowed, cpu))
				continue;
			if (!with_hk && nn_cpuset_test(&st->hk, cpu))
				continue;
			if (push_int(&c->use, &c->nuse, (int)cpu))
				return -ENOMEM;
		}
		total += c->nuse;
	}
	return (int)(total > 0);
}

/* ---- NICs and groups ---- */

/* Whether any of the NIC's IRQs has its /proc/irq files (a down NIC whose
 * driver requests IRQs on open has none yet). */
static bool nic_has_irq_files(const struct nn_nic *n)
{
	for (size_t i = 0; i < n->nirqs; i++)
		if (n->irqs[i].has_affinity)
			return true;
	return false;
}

static bool nic_selected(const struct nn_plan_opts *o, const struct nn_nic *n)
{
	size_t i;

	if (!o->nics || !o->nnics)
		return !n->is_virtual;
	for (i = 0; i < o->nnics; i++)
		if (!strcmp(o->nics[i], n->name))
			return true;
	return false;
}

/* Never worse than before: an IRQ neither netlink nor the name table gives a
 * role is not moved to housekeeping (where a whole NIC's queues could pile
 * up on one core) but placed like one more queue IRQ, after the recognised
 * queues, so it spreads over the NIC's CPUs like them (docs/discovery.md). */
static int effective_queues(struct nicst *ns)
{
	const struct nn_nic *n = ns->nic;
	int next = 0;
	size_t i;

	ns->effq = calloc(n->nirqs ? n->nirqs : 1, sizeof(*ns->effq));
	if (!ns->effq)
		return -ENOMEM;
	for (i = 0; i < n->nirqs; i++)
		if (n->irqs[i].queue >= next)
			next = n->irqs[i].queue + 1;
	for (i = 0; i < n->nirqs; i++) {
		const struct nn_irq *q = &n->irqs[i];

		if (q->queue >= 0) {
			ns->effq[i] = q->queue;
		} else if (q->role != NN_IRQ_ROLE_MISC && q->has_affinity) {
			/* unknown, or a queue vector without an index of its own */
			ns->effq[i] = next++;
			ns->nunknown += q->role == NN_IRQ_ROLE_UNKNOWN;
		} else {
			ns->effq[i] = -1;
		}
	}
	return 0;
}

static int queue_slots(struct nicst *ns)
{
	const struct nn_nic *n = ns->nic;
	size_t i, j;
	int err = effective_queues(ns);

	if (err)
		return err;
	for (i = 0; i < n->nirqs; i++) {
		int q = ns->effq[i];
		bool seen = false;

		if (q < 0)
			continue;
		for (j = 0; j < ns->nslots && !seen; j++)
			seen = ns->slots[j] == q;
		if (!seen && push_int(&ns->slots, &ns->nslots, q))
			return -ENOMEM;
	}
	/* Insertion sort: queue indices are few and nearly sorted already. */
	for (i = 1; i < ns->nslots; i++) {
		int v = ns->slots[i];

		for (j = i; j > 0 && ns->slots[j - 1] > v; j--)
			ns->slots[j] = ns->slots[j - 1];
		ns->slots[j] = v;
	}
	/* No per-queue IRQs (veth, tun, unknown driver): XPS alone is planned,
	 * one slot per tx queue of a multiqueue device. */
	if (!ns->nslots && n->tx_queues > 1)
		for (i = 0; i < (size_t)n->tx_queues; i++)
			if (push_int(&ns->slots, &ns->nslots, (int)i))
				return -ENOMEM;
	/* mlx5 requests a completion vector per CPU but runs its netdev on the
	 * first <channels> of them: the NIC's share of cores is sized by its
	 * active queues, and the extra vectors wrap over that share. Vectors of
	 * no known role count as queues only where no queue was recognised. */
	ns->demand = ns->nslots;
	{
		int active = n->rx_queues > n->tx_queues ? n->rx_queues : n->tx_queues;

		if (active > 0 && (size_t)active < ns->demand)
			ns->demand = (size_t)active;
	}
	return 0;
}

/* Node of a set of CPUs, -1 when several or unknown. */
static int cpus_node(const struct nn_topo *t, const struct nn_cpuset *s)
{
	int cpu, node = -2;

	nn_cpuset_foreach(cpu, s) {
		int n = nn_topo_cpu_node(t, cpu);

		if (n < 0 || (node != -2 && n != node))
			return -1;
		node = n;
	}
	return node == -2 ? -1 : node;
}

static int node_has_usable(const struct state *st, int node)
{
	size_t i;

	for (i = 0; i < st->ncores; i++)
		if (st->cores[i].node == node && st->cores[i].nuse)
			return 1;
	return 0;
}

static bool usable_filter(const struct nn_topo *t, int node, void *arg)
{
	(void)t;
	return node_has_usable(arg, node);
}

/* Picks the group kind for one NIC; warnings explain every fallback. */
static int classify(struct state *st, struct nicst *ns, struct group *key)
{
	const struct nn_nic *n = ns->nic;
	const struct nn_topo *t = st->topo;
	bool node_ok = n->numa_node >= 0 && nn_topo_node_index(t, n->numa_node) >= 0;

	memset(key, 0, sizeof(*key));
	key->node = -1;
	key->from = -1;
	if (n->numa_node >= 0 && !node_ok)
		WARN(st, "%s: numa_node %d is not a node of this host: unknown locality",
		     n->name, n->numa_node);
	if (st->opts->policy == NN_POLICY_SPREAD) {
		key->kind = G_ALL;
		return 0;
	}
	if (node_ok && st->opts->policy == NN_POLICY_REMOTE) {
		int far = nn_topo_farthest_node(t, n->numa_node, 0, usable_filter, st);

		if (far < 0) {
			WARN(st, "%s: no node distances: remote policy spreads over all nodes", n->name);
			key->kind = G_ALL;
			return 0;
		}
		if (far == n->numa_node)
			WARN(st, "%s: no other node with CPUs: remote policy stays on node %d",
			     n->name, far);
		key->kind = G_REMOTE;
		key->node = far;
		key->from = n->numa_node;
		return 0;
	}
	if (node_ok) {
		key->kind = G_NODE;
		key->node = n->numa_node;
		return 0;
	}
	if (n->locality_known && !nn_cpuset_empty(&n->local_cpus) &&
	    nn_cpuset_intersects(&n->local_cpus, &st->allowed)) {
		key->kind = G_LOCALCPUS;
		key->mask = &n->local_cpus;
		if (st->opts->policy == NN_POLICY_REMOTE)
			WARN(st, "%s: NUMA node unknown: remote policy uses its local_cpus", n->name);
		return 0;
	}
	key->kind = G_ALL;
	key->unknown = true;
	WARN(st, "%s: unknown locality: spread over all nodes", n->name);
	return 0;
}

static bool same_group(const struct group *g, const struct group *k)
{
	if (g->kind != k->kind)
		return false;
	switch (g->kind) {
	case G_NODE:
		return g->node == k->node;
	case G_REMOTE:
		return g->node == k->node && g->from == k->from;
	case G_LOCALCPUS:
		return nn_cpuset_equal(g->mask, k->mask);
	case G_ALL:
		return true;
	}
	return false;
}

static size_t core_usable_in(const struct core *c, const struct nn_cpuset *mask)
{
	size_t k, n = 0;

	if (!mask)
		return c->nuse;
	for (k = 0; k < c->nuse; k++)
		n += nn_cpuset_test(mask, (unsigned)c->use[k]);
	return n;
}

static int pool_push(struct group *g, size_t core, enum entry_kind kind, int dist)
{
	struct entry *e = realloc(g->pool, (g->npool + 1) * sizeof(*e));

	if (!e)
		return -ENOMEM;
	g->pool = e;
	e[g->npool].core = core;
	e[g->npool].kind = kind;
	e[g->npool].dist = dist;
	g->npool++;
	return 0;
}

/* Appends @node's usable cores: ones no earlier group took first, so groups
 * that overlap (a spill into a node with its own NICs) stay disjoint while
 * they can, without giving up locality order. */
static int pool_add_node(struct state *st, struct group *g, int node, enum entry_kind kind, int dist)
{
	int pass;
	size_t i;

	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < st->ncores; i++) {
			const struct core *c = &st->cores[i];

			if (c->node != node || !core_usable_in(c, g->mask) || c->used != (pass == 1))
				continue;
			if (pool_push(g, i, kind, dist))
				return -ENOMEM;
		}
	return 0;
}

static size_t group_demand(const struct state *st, const struct group *g)
{
	size_t i, d = 0;

	for (i = 0; i < g->nn; i++)
		d += st->nics[g->nics[i]].demand;
	return d;
}

/* Usable cores of @node (within the group's mask), in core order. */
static size_t node_cores(const struct state *st, const struct group *g, int node, size_t *out)
{
	size_t i, n = 0;

	for (i = 0; i < st->ncores; i++)
		if (st->cores[i].node == node && core_usable_in(&st->cores[i], g ? g->mask : NULL)) {
			if (out)
				out[n] = i;
			n++;
		}
	return n;
}

/* The last @count usable cores of @node: a node's own NICs take its cores
 * from the front, so what another node borrows comes from the back. */
static int pool_add_tail(struct state *st, struct group *g, int node, size_t count, int dist)
{
	size_t *idx = calloc(st->ncores ? st->ncores : 1, sizeof(*idx));
	size_t n, i, ix = (size_t)nn_topo_node_index(st->topo, node), end;

	if (!idx)
		return -ENOMEM;
	n = node_cores(st, g, node, idx);
	end = st->lent[ix] < n ? n - st->lent[ix] : 0;
	if (count > end)
		count = end;
	st->lent[ix] += count;
	for (i = end - count; i < end; i++)
		if (pool_push(g, idx[i], E_SPILL, dist)) {
			free(idx);
			return -ENOMEM;
		}
	free(idx);
	return 0;
}

/* Local node first, then spill by distance, into cores other nodes' own NICs
 * do not need (st->spare): to the nearest node with CPUs when the node has
 * none (sharing that node's cores when it has no spare ones), and to near
 * nodes (same package: NPS/SNC) while cores are fewer than queues. */
static int pool_by_distance(struct state *st, struct group *g, int base, enum entry_kind own)
{
	const struct nn_topo *t = st->topo;
	size_t demand = group_demand(st, g), i;
	int self = nn_topo_distance(t, base, base), *ids, r = 0;

	if (self <= 0)
		self = NN_LOCAL_DISTANCE;	/* a bad diagonal entry: the SLIT value */
	ids = calloc(t->nnodes ? t->nnodes : 1, sizeof(*ids));
	if (!ids)
		return -ENOMEM;
	nn_topo_nodes_by_distance(t, base, ids, t->nnodes);
	for (i = 0; i < t->nnodes && !r; i++) {
		int id = ids[i], d = nn_topo_distance(t, base, id);
		int ix = nn_topo_node_index(t, id);
		size_t need = demand > g->npool ? demand - g->npool : 0, take;

		if (!node_has_usable(st, id))
			continue;
		if (id == base) {
			r = pool_add_node(st, g, id, own, d);
			continue;
		}
		if (g->npool && (!need || d < 0 || d >= 2 * self))
			continue;
		take = st->spare[ix] < need ? st->spare[ix] : need;
		if (!g->npool && !take) {
			/* No CPU of its own and nothing spare nearby: share the nearest. */
			r = pool_add_node(st, g, id, E_SPILL, d);
			continue;
		}
		r = pool_add_tail(st, g, id, take, d);
		st->spare[ix] -= take;
	}
	free(ids);
	return r;
}

/* Spare cores per node: usable cores its own NICs' queues leave free. */
static int compute_spare(struct state *st)
{
	const struct nn_topo *t = st->topo;
	size_t i, j;

	st->spare = calloc(t->nnodes ? t->nnodes : 1, sizeof(*st->spare));
	st->lent = calloc(t->nnodes ? t->nnodes : 1, sizeof(*st->lent));
	if (!st->spare || !st->lent)
		return -ENOMEM;
	for (i = 0; i < t->nnodes; i++) {
		size_t have = node_cores(st, NULL, t->nodes[i].id, NULL), want = 0;

		for (j = 0; j < st->ngroups; j++)
			if ((st->groups[j].kind == G_NODE || st->groups[j].kind == G_REMOTE) &&
			    st->groups[j].node == t->nodes[i].id)
				want += group_demand(st, &st->groups[j]);
		st->spare[i] = have > want ? have - want : 0;
	}
	return 0;
}

/* All nodes, interleaved core by core, so consecutive queues land on different nodes. */
static int pool_all(struct state *st, struct group *g, enum entry_kind kind)
{
	size_t round, i, added = 1;

	for (round = 0; added; round++) {
		added = 0;
		for (i = 0; i < st->topo->nnodes || (!st->topo->nnodes && i == 0); i++) {
			int node = st->topo->nnodes ? st->topo->nodes[i].id : -1;
			size_t k, seen = 0;

			for (k = 0; k < st->ncores; k++) {
				const struct core *c = &st->cores[k];

				if (c->node != node || !c->nuse)
					continue;
				if (seen++ == round) {
					if (pool_push(g, k, kind, -1))
						return -ENOMEM;
					added = 1;
					break;
				}
			}
		}
	}
	/* CPUs without a node (no NUMA in the kernel) when nodes exist. */
	if (st->topo->nnodes)
		for (i = 0; i < st->ncores; i++)
			if (st->cores[i].node < 0 && st->cores[i].nuse && pool_push(g, i, kind, -1))
				return -ENOMEM;
	return 0;
}

static int pool_localcpus(struct state *st, struct group *g)
{
	size_t i;

	for (i = 0; i < st->ncores; i++)
		if (core_usable_in(&st->cores[i], g->mask) && pool_push(g, i, E_LOCALCPUS, -1))
			return -ENOMEM;
	return 0;
}

/* Max-min fair split of @c cores among NICs wanting @want: NICs that need
 * less than an even share get what they need, the rest split evenly (the
 * remainder going to the first NICs by name). */
static void fair_share(const size_t *want, size_t k, size_t c, size_t *got)
{
	size_t left = c, nleft = k, i;
	bool changed = true;

	for (i = 0; i < k; i++)
		got[i] = SIZE_MAX;
	while (changed && nleft) {
		size_t fair = left / nleft;

		changed = false;
		for (i = 0; i < k; i++)
			if (got[i] == SIZE_MAX && want[i] <= fair) {
				got[i] = want[i];
				left -= want[i];
				nleft--;
				changed = true;
			}
	}
	if (nleft) {
		size_t fair = left / nleft, rem = left % nleft;

		for (i = 0; i < k; i++)
			if (got[i] == SIZE_MAX)
				got[i] = fair + (rem ? (rem--, 1) : 0);
	}
}

static int order_push(struct nicst *ns, int cpu, const struct entry *e, int thr)
{
	if (ns->norder == ns->order_cap) {
		size_t cap = ns->order_cap ? ns->order_cap * 2 : 8;
		struct pick *p = realloc(ns->order, cap * sizeof(*p));

		if (!p)
			return -ENOMEM;
		ns->order = p;
		ns->order_cap = cap;
	}
	ns->order[ns->norder++] = (struct pick){ cpu, e->kind, e->core, thr, e->dist };
	return 0;
}

/* Primary threads of the NIC's cores first, then second threads, and so on. */
static int build_order(struct state *st, struct group *g, struct nicst *ns)
{
	size_t t, i, maxt = 0;

	for (i = 0; i < ns->nshare; i++) {
		size_t u = core_usable_in(&st->cores[g->pool[ns->share[i]].core], g->mask);

		if (u > maxt)
			maxt = u;
	}
	for (t = 0; t < maxt; t++)
		for (i = 0; i < ns->nshare; i++) {
			const struct entry *e = &g->pool[ns->share[i]];
			const struct core *c = &st->cores[e->core];
			size_t k, seen = 0;

			for (k = 0; k < c->nuse; k++) {
				if (g->mask && !nn_cpuset_test(g->mask, (unsigned)c->use[k]))
					continue;
				if (seen++ == t) {
					if (order_push(ns, c->use[k], e, (int)t))
						return -ENOMEM;
					break;
				}
			}
		}
	return 0;
}

static int allocate_group(struct state *st, struct group *g)
{
	size_t k = g->nn, demand = group_demand(st, g), i, j, off = 0;
	size_t *want = NULL, *got = NULL;
	int ret = -ENOMEM;

	want = calloc(k, sizeof(*want));
	got = calloc(k, sizeof(*got));
	if (!want || !got)
		goto out;
	for (i = 0; i < k; i++)
		want[i] = st->nics[g->nics[i]].demand;
	if (demand <= g->npool) {
		for (i = 0; i < k; i++)
			got[i] = want[i];
	} else if (g->npool >= k) {
		fair_share(want, k, g->npool, got);
	} else {
		/* Fewer cores than NICs: every NIC shares every core. */
		for (i = 0; i < k; i++)
			got[i] = SIZE_MAX;
	}
	for (i = 0; i < k; i++) {
		struct nicst *ns = &st->nics[g->nics[i]];
		size_t n = got[i] == SIZE_MAX ? g->npool : got[i];

		if (!ns->nslots)
			continue;
		if (got[i] != SIZE_MAX && !n)
			n = 1;	/* fair_share never starves a NIC with queues; be safe */
		ns->share = calloc(n ? n : 1, sizeof(*ns->share));
		if (!ns->share)
			goto out;
		for (j = 0; j < n; j++) {
			size_t p = got[i] == SIZE_MAX ? j : (off + j) % g->npool;

			ns->share[j] = p;
			st->cores[g->pool[p].core].used = true;
		}
		ns->nshare = n;
		if (got[i] != SIZE_MAX)
			off += n;
		ret = build_order(st, g, ns);
		if (ret)
			goto out;
	}
	ret = 0;
out:
	free(want);
	free(got);
	return ret;
}

static int build_groups(struct state *st)
{
	size_t i, j;

	for (i = 0; i < st->nnics; i++) {
		struct group key, *g;

		if (classify(st, &st->nics[i], &key))
			return -ENOMEM;
		for (j = 0; j < st->ngroups; j++)
			if (same_group(&st->groups[j], &key))
				break;
		if (j == st->ngroups) {
			g = realloc(st->groups, (st->ngroups + 1) * sizeof(*g));
			if (!g)
				return -ENOMEM;
			st->groups = g;
			st->groups[st->ngroups++] = key;
		}
		g = &st->groups[j];
		st->nics[i].group = j;
		{
			size_t *v = realloc(g->nics, (g->nn + 1) * sizeof(*v));

			if (!v)
				return -ENOMEM;
			g->nics = v;
			v[g->nn++] = i;
		}
	}
	if (compute_spare(st))
		return -ENOMEM;
	for (j = 0; j < st->ngroups; j++) {
		struct group *g = &st->groups[j];
		int r;

		switch (g->kind) {
		case G_NODE:
			r = pool_by_distance(st, g, g->node, E_LOCAL);
			break;
		case G_REMOTE:
			r = pool_by_distance(st, g, g->node, E_REMOTE);
			break;
		case G_LOCALCPUS:
			r = pool_localcpus(st, g);
			if (!r && !g->npool)
				r = pool_all(st, g, E_UNKNOWN);
			break;
		default:
			r = pool_all(st, g, g->unknown ? E_UNKNOWN : E_SPREAD);
			break;
		}
		if (r)
			return r;
		if (!g->npool)
			continue;
		r = allocate_group(st, g);
		if (r)
			return r;
	}
	return 0;
}

/* ---- emitting the plan ---- */

static char *fmt_core(const struct core *c, int cpu, char *buf, size_t len)
{
	if (c->core_id >= 0)
		snprintf(buf, len, "core %d", c->core_id);
	else
		snprintf(buf, len, "cpu %d", cpu);
	return buf;
}

static char *slot_reason(const struct state *st, const struct nicst *ns, size_t slot)
{
	size_t pos = slot % ns->norder;
	const struct pick *pk = &ns->order[pos];
	const struct core *c = &st->cores[pk->core];
	int dist = pk->dist;
	char core[48], *r = NULL;
	const char *sib = pk->thr ? " (SMT sibling)" : "";
	const char *wr = slot < ns->norder ? "" : slot >= ns->demand ?
		" (vector beyond the active queues: shares a CPU)" : " (shared: more queues than CPUs)";
	int ok = -1;

	fmt_core(c, pk->cpu, core, sizeof(core));
	switch (pk->kind) {
	case E_LOCAL:
		ok = asprintf(&r, "local node %d, %s%s%s", c->node, core, sib, wr);
		break;
	case E_SPILL:
		ok = asprintf(&r, "spill to node %d (distance %d), %s%s%s", c->node, dist, core, sib, wr);
		break;
	case E_REMOTE:
		ok = asprintf(&r, "remote node %d (distance %d), %s%s%s", c->node,
			      nn_topo_distance(st->topo, st->groups[ns->group].from, c->node), core, sib, wr);
		break;
	case E_SPREAD:
		ok = asprintf(&r, "spread: node %d, %s%s%s", c->node, core, sib, wr);
		break;
	case E_LOCALCPUS:
		ok = asprintf(&r, "local_cpus (node unknown), node %d, %s%s%s", c->node, core, sib, wr);
		break;
	case E_UNKNOWN:
		ok = asprintf(&r, "unknown locality: spread, node %d, %s%s%s", c->node, core, sib, wr);
		break;
	}
	return ok < 0 ? NULL : r;
}

static int slot_of(const struct nicst *ns, int queue)
{
	size_t i;

	for (i = 0; i < ns->nslots; i++)
		if (ns->slots[i] == queue)
			return (int)i;
	return -1;
}

/* Housekeeping CPUs for a NIC's non-queue IRQs: those of its node, else of
 * the nearest node that has some, else (unknown) all of them. */
static int housekeeping_for(struct state *st, const struct nicst *ns, struct nn_cpuset *out, char **why)
{
	const struct group *g = &st->groups[ns->group];
	const struct nn_topo *t = st->topo;
	int base = -1, cpu;
	int ok;

	nn_cpuset_zero(out);
	*why = NULL;
	if (nn_cpuset_empty(&st->hk))
		return 0;	/* --reserve left none: the caller keeps them with the queues */
	if (g->kind == G_NODE || g->kind == G_REMOTE)
		base = g->node;
	if (base >= 0 && t->nnodes) {
		int *ids = calloc(t->nnodes, sizeof(*ids));
		size_t i;

		if (!ids)
			return -ENOMEM;
		nn_topo_nodes_by_distance(t, base, ids, t->nnodes);
		for (i = 0; i < t->nnodes; i++) {
			const struct nn_node *n = nn_topo_node(t, ids[i]);

			nn_cpuset_foreach(cpu, &n->cpus)
				if (nn_cpuset_test(&st->hk, (unsigned)cpu) && nn_cpuset_set(out, (unsigned)cpu)) {
					free(ids);
					return -ENOMEM;
				}
			if (!nn_cpuset_empty(out)) {
				ok = ids[i] == base ? asprintf(why, "housekeeping, node %d", ids[i])
					: asprintf(why, "housekeeping, node %d (nearest to node %d)", ids[i], base);
				free(ids);
				return ok < 0 ? -ENOMEM : 0;
			}
		}
		free(ids);
	}
	if (g->kind == G_LOCALCPUS) {
		if (nn_cpuset_copy(out, &st->hk))
			return -ENOMEM;
		nn_cpuset_and(out, g->mask);
		if (!nn_cpuset_empty(out)) {
			ok = asprintf(why, "housekeeping, within local_cpus");
			return ok < 0 ? -ENOMEM : 0;
		}
	}
	if (nn_cpuset_copy(out, &st->hk))
		return -ENOMEM;
	ok = asprintf(why, "housekeeping, all nodes");
	return ok < 0 ? -ENOMEM : 0;
}

static int emit_nic(struct state *st, struct nicst *ns)
{
	struct nn_plan *plan = st->plan;
	const struct nn_nic *n = ns->nic;
	const struct group *g = &st->groups[ns->group];
	struct nn_plan_nic *pn = &plan->nics[plan->nnics];
	size_t i, used = ns->norder < ns->nslots ? ns->norder : ns->nslots;
	int ok = 0;

	memset(pn, 0, sizeof(*pn));
	plan->nnics++;
	pn->nic = strdup(n->name);
	pn->pci = n->pci ? strdup(n->pci) : NULL;
	if (!pn->nic || (n->pci && !pn->pci))
		return -ENOMEM;
	pn->numa_node = n->numa_node;
	pn->queues = (int)ns->nslots;
	for (i = 0; i < used; i++) {
		if (nn_cpuset_set(&pn->cpus, (unsigned)ns->order[i].cpu))
			return -ENOMEM;
		if (ns->order[i].kind == E_SPILL)
			ns->spilled = true;
	}
	pn->node = cpus_node(st->topo, &pn->cpus);
	switch (g->kind) {
	case G_NODE:
		ns->home = g->node;
		if (ns->spilled)
			ok = asprintf(&pn->reason, "local node %d, spilled by distance", g->node);
		else
			ok = asprintf(&pn->reason, "local node %d", g->node);
		break;
	case G_REMOTE:
		ns->home = g->node;
		ok = asprintf(&pn->reason, "remote node %d (distance %d from node %d)", g->node,
			      nn_topo_distance(st->topo, g->from, g->node), g->from);
		break;
	case G_LOCALCPUS:
		ns->home = cpus_node(st->topo, &n->local_cpus);
		ok = asprintf(&pn->reason, "local_cpus (node unknown)");
		break;
	case G_ALL:
		/* spread moves the queues, not the NIC: its memory stays home */
		ns->home = !g->unknown && n->numa_node >= 0 &&
			nn_topo_node_index(st->topo, n->numa_node) >= 0 ? n->numa_node : -1;
		ok = asprintf(&pn->reason, g->unknown ? "unknown locality: all nodes" : "spread over all nodes");
		break;
	}
	if (ok < 0)
		return -ENOMEM;
	if (ns->nshare && ns->nshare < ns->demand && g->nn > 1 && ns->nshare < g->npool) {
		char *r;

		if (asprintf(&r, "%s, even share of %zu cores", pn->reason, ns->nshare) < 0)
			return -ENOMEM;
		free(pn->reason);
		pn->reason = r;
	}
	if (ns->spilled) {
		size_t local = 0, spilled = 0;

		for (i = 0; i < g->npool; i++)
			local += g->pool[i].kind != E_SPILL;
		for (i = 0; i < ns->demand; i++)
			spilled += ns->order[i % ns->norder].kind == E_SPILL;
		WARN(st, "%s: node %d has %zu usable core%s for %zu queue%s: %zu spilled to the nearest nodes by distance",
		     n->name, g->node, local, local == 1 ? "" : "s", group_demand(st, g),
		     group_demand(st, g) == 1 ? "" : "s", spilled);
	}
	if (ns->nslots && !ns->norder)
		WARN(st, "%s: no usable CPU for its queues", n->name);
	else if (ns->demand > ns->norder)
		WARN(st, "%s: %zu queues on %zu CPUs: queues share CPUs", n->name, ns->demand, ns->norder);
	if (!ns->nslots && n->nirqs && !(n->link_down && !nic_has_irq_files(n)))
		WARN(st, "%s: no queue IRQs recognised: only its other IRQs are planned", n->name);
	if (ns->nunknown) {
		char *list = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&list, &len);

		if (!f)
			return -ENOMEM;
		for (i = 0; i < n->nirqs; i++)
			if (n->irqs[i].role == NN_IRQ_ROLE_UNKNOWN && ns->effq[i] >= 0)
				fprintf(f, "%s%d (%s)", ftell(f) ? ", " : "", n->irqs[i].irq,
					n->irqs[i].name ? n->irqs[i].name : "not in /proc/interrupts");
		if (fclose(f)) {
			free(list);
			return -ENOMEM;
		}
		ok = nn__plan_add_warning(plan, "%s: %zu IRQ%s of no recognised role (neither netdev netlink "
					  "nor the driver name table knows %s), placed like queue IRQs on the "
					  "NIC's CPUs, not on housekeeping: %s", n->name, ns->nunknown,
					  ns->nunknown == 1 ? "" : "s", ns->nunknown == 1 ? "it" : "them", list);
		free(list);
		if (ok)
			return -ENOMEM;
	}
	return 0;
}

static int emit_irqs(struct state *st, struct nicst *ns)
{
	struct nn_plan *plan = st->plan;
	const struct nn_nic *n = ns->nic;
	struct nn_cpuset hk = NN_CPUSET_INIT;
	char *hkwhy = NULL;
	size_t i;
	int ret;

	ret = housekeeping_for(st, ns, &hk, &hkwhy);
	if (ret)
		goto out;
	for (i = 0; i < n->nirqs; i++) {
		const struct nn_irq *q = &n->irqs[i];
		struct nn_plan_irq *pi;
		int s = ns->effq[i] >= 0 ? slot_of(ns, ns->effq[i]) : -1;

		/* No readable smp_affinity_list (no /proc/irq/N): nothing could set it.
		 * A down NIC's driver has not requested it yet: discovery's note says so. */
		if (!q->has_affinity) {
			if (!n->link_down)
				ret = nn__plan_add_warning(plan, "%s: IRQ %d has no readable affinity: left out of "
							   "the plan", n->name, q->irq);
			if (ret)
				goto out;
			continue;
		}
		pi = &plan->irqs[plan->nirqs];
		memset(pi, 0, sizeof(*pi));
		pi->irq = q->irq;
		pi->queue = q->queue;
		pi->dir = q->dir;
		pi->role = q->queue >= 0 ? NN_IRQ_ROLE_QUEUE : q->role;
		pi->nic = strdup(n->name);
		ret = -ENOMEM;
		if (!pi->nic)
			goto out;
		plan->nirqs++;
		if (s >= 0 && ns->norder) {
			size_t pos = (size_t)s % ns->norder;

			if (nn_cpuset_set(&pi->cpus, (unsigned)ns->order[pos].cpu))
				goto out;
			pi->reason = slot_reason(st, ns, (size_t)s);
			if (pi->reason && q->queue < 0) {
				char *r;

				if (asprintf(&r, "%s, placed like a queue: %s", pi->role == NN_IRQ_ROLE_UNKNOWN ?
					     "role unknown" : "queue vector of no index", pi->reason) < 0)
					goto out;
				free(pi->reason);
				pi->reason = r;
			}
		} else if (nn_cpuset_empty(&hk)) {
			const struct nn_plan_nic *pn = &plan->nics[plan->nnics - 1];

			if (nn_cpuset_copy(&pi->cpus, nn_cpuset_empty(&pn->cpus) ? &st->allowed : &pn->cpus))
				goto out;
			pi->reason = strdup("no housekeeping CPU: with the NIC's queues");
		} else {
			if (nn_cpuset_copy(&pi->cpus, &hk))
				goto out;
			pi->reason = strdup(hkwhy);
		}
		if (!pi->reason)
			goto out;
		pi->node = cpus_node(st->topo, &pi->cpus);
	}
	ret = 0;
out:
	nn_cpuset_free(&hk);
	free(hkwhy);
	return ret;
}

static int emit_xps(struct state *st, struct nicst *ns)
{
	struct nn_plan *plan = st->plan;
	const struct nn_nic *n = ns->nic;
	size_t i, ntx;

	/* The kernel has xps_cpus only on multiqueue devices (ENOENT otherwise). */
	if (!ns->norder || !ns->nslots || n->tx_queues <= 1)
		return 0;
	ntx = (size_t)n->tx_queues;
	for (i = 0; i < ntx; i++) {
		struct nn_plan_xps *x;
		int s = slot_of(ns, (int)i);
		size_t pos;
		void *p;

		if (s < 0)
			s = (int)(i % ns->nslots);
		pos = (size_t)s % ns->norder;
		p = realloc(plan->xps, (plan->nxps + 1) * sizeof(*plan->xps));
		if (!p)
			return -ENOMEM;
		plan->xps = p;
		x = &plan->xps[plan->nxps];
		memset(x, 0, sizeof(*x));
		x->nic = strdup(n->name);
		if (!x->nic)
			return -ENOMEM;
		x->queue = (int)i;
		plan->nxps++;
		if (nn_cpuset_set(&x->cpus, (unsigned)ns->order[pos].cpu))
			return -ENOMEM;
	}
	return 0;
}

/* The rx queue (else tx queue) whose NAPI is @id; -1 none. */
static int napi_queue(const struct nn_nic *n, long long id)
{
	size_t i;
	int tx = -1;

	for (i = 0; i < n->ngqueues; i++) {
		if (n->gqueues[i].napi_id != id)
			continue;
		if (n->gqueues[i].type == NN_GENL_QUEUE_RX)
			return n->gqueues[i].id;
		if (tx < 0 && n->gqueues[i].type == NN_GENL_QUEUE_TX)
			tx = n->gqueues[i].id;
	}
	return tx;
}

/* Each threaded NAPI of @ns with a kthread: with its IRQ's planned CPUs;
 * IRQ-less, its queue's planned CPU, else the NIC's planned CPUs, else
 * every CPU the plan may use. */
static int emit_napi(struct state *st, struct nicst *ns, size_t irq0)
{
	struct nn_plan *plan = st->plan;
	const struct nn_nic *n = ns->nic;
	const struct nn_plan_nic *pn = &plan->nics[plan->nnics - 1];
	size_t i, j;

	for (i = 0; i < n->ngnapis; i++) {
		const struct nn_genl_napi *g = &n->gnapis[i];
		const struct nn_cpuset *from = NULL;
		struct nn_plan_napi *x;
		char comm[NN_NAPI_COMM_LEN];
		int q, cpu = -1;
		void *p;

		if (g->pid <= 0 || g->threaded == 0)
			continue;
		for (j = irq0; g->irq >= 0 && j < plan->nirqs && !from; j++)
			if (plan->irqs[j].irq == g->irq)
				from = &plan->irqs[j].cpus;
		q = from ? -1 : napi_queue(n, g->id);
		if (q >= 0 && ns->norder && ns->nslots) {
			int s = slot_of(ns, q);

			if (s < 0)
				s = (int)((size_t)q % ns->nslots);
			cpu = ns->order[(size_t)s % ns->norder].cpu;
		}
		if (!from && cpu < 0)
			from = nn_cpuset_empty(&pn->cpus) ? &st->allowed : &pn->cpus;
		p = realloc(plan->napi_threads, (plan->nnapi_threads + 1) * sizeof(*plan->napi_threads));
		if (!p)
			return -ENOMEM;
		plan->napi_threads = p;
		x = &plan->napi_threads[plan->nnapi_threads];
		memset(x, 0, sizeof(*x));
		nn_napi_comm(comm, sizeof(comm), n->name, g->id);
		x->nic = strdup(n->name);
		x->name = strdup(comm);
		x->napi_id = g->id;
		x->pid = g->pid;
		plan->nnapi_threads++;
		if (!x->nic || !x->name)
			return -ENOMEM;
		if (from ? nn_cpuset_copy(&x->cpus, from) : nn_cpuset_set(&x->cpus, (unsigned)cpu))
			return -ENOMEM;
	}
	return 0;
}

static int emit_channels(struct state *st, struct nicst *ns)
{
	struct nn_plan *plan = st->plan;
	const struct nn_nic *n = ns->nic;
	struct nn_plan_channels *c;
	long target = (long)ns->nshare;
	void *p;

	if (n->is_virtual || !ns->nshare)
		return 0;
	if (n->channels_max > 0 && target > n->channels_max)
		target = n->channels_max;
	p = realloc(plan->channels, (plan->nchannels + 1) * sizeof(*plan->channels));
	if (!p)
		return -ENOMEM;
	plan->channels = p;
	c = &plan->channels[plan->nchannels];
	c->nic = strdup(n->name);
	if (!c->nic)
		return -ENOMEM;
	plan->nchannels++;
	c->current = n->channels_combined;
	c->target = (int)target;
	if (n->channels_combined < 0)
		WARN(st, "%s: current channel count unknown (ethtool is live-only)", n->name);
	return 0;
}

static long node_hugepages(const struct nn_topo *t, int node, unsigned long size_kb)
{
	int i = nn_topo_node_index(t, node);
	size_t k;

	if (i < 0)
		return -1;
	for (k = 0; k < t->nodes[i].nhugepages; k++)
		if (t->nodes[i].hugepages[k].size_kb == size_kb)
			return t->nodes[i].hugepages[k].total;
	return -1;
}

static int add_hugepage_node(struct state *st, int node)
{
	struct nn_plan *plan = st->plan;
	struct nn_plan_hugepages *h;
	size_t i, at;
	void *p;

	for (i = 0; i < plan->nhugepages; i++)
		if (plan->hugepages[i].node == node)
			return 0;
	p = realloc(plan->hugepages, (plan->nhugepages + 1) * sizeof(*plan->hugepages));
	if (!p)
		return -ENOMEM;
	plan->hugepages = p;
	for (at = 0; at < plan->nhugepages && plan->hugepages[at].node < node; at++)
		;
	memmove(&plan->hugepages[at + 1], &plan->hugepages[at],
		(plan->nhugepages - at) * sizeof(*plan->hugepages));
	h = &plan->hugepages[at];
	h->node = node;
	h->size_kb = st->opts->hugepage_size_kb;
	h->current = node_hugepages(st->topo, node, h->size_kb);
	/* Reserve at least COUNT: never shrink a pool someone else may use. */
	h->request = st->opts->hugepage_count;
	h->target = h->current > h->request ? h->current : h->request;
	plan->nhugepages++;
	return 0;
}

static int emit_hugepages(struct state *st)
{
	const struct nn_topo *t = st->topo;
	bool all = false;
	size_t i;

	if (!st->opts->hugepage_size_kb || st->opts->hugepage_count <= 0)
		return 0;
	for (i = 0; i < st->nnics; i++) {
		int home = st->nics[i].home;

		if (home < 0 && st->groups[st->nics[i].group].kind == G_NODE)
			home = st->groups[st->nics[i].group].node;
		if (home >= 0) {
			if (add_hugepage_node(st, home))
				return -ENOMEM;
		} else {
			all = true;
		}
	}
	if (all) {
		WARN(st, "hugepages: a NIC's node is unknown: reserving on every node with memory");
		for (i = 0; i < t->nnodes; i++)
			if (t->nodes[i].mem_total_kb != 0 && add_hugepage_node(st, t->nodes[i].id))
				return -ENOMEM;
	}
	return 0;
}

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int emit_shape(struct state *st)
{
	struct nn_plan_shape *s = &st->plan->shape;
	size_t i;

	s->ncpus = (int)st->topo->ncpus;
	s->nnodes = (int)st->topo->nnodes;
	s->pci = calloc(st->nnics ? st->nnics : 1, sizeof(*s->pci));
	if (!s->pci)
		return -ENOMEM;
	for (i = 0; i < st->nnics; i++)
		if (st->nics[i].nic->pci) {
			s->pci[s->npci] = strdup(st->nics[i].nic->pci);
			if (!s->pci[s->npci])
				return -ENOMEM;
			s->npci++;
		}
	qsort(s->pci, s->npci, sizeof(*s->pci), str_cmp);
	return 0;
}

static void state_free(struct state *st)
{
	size_t i;

	for (i = 0; i < st->ncores; i++) {
		free(st->cores[i].thr);
		free(st->cores[i].use);
	}
	free(st->cores);
	for (i = 0; i < st->nnics; i++) {
		struct nicst *ns = &st->nics[i];

		free(ns->slots);
		free(ns->effq);
		free(ns->share);
		free(ns->order);
	}
	free(st->nics);
	for (i = 0; i < st->ngroups; i++) {
		free(st->groups[i].nics);
		free(st->groups[i].pool);
	}
	free(st->groups);
	free(st->spare);
	free(st->lent);
	nn_cpuset_free(&st->allowed);
	nn_cpuset_free(&st->hk);
}

static int setup(struct state *st)
{
	const struct nn_topo *t = st->topo;
	const struct nn_plan_opts *o = st->opts;
	size_t i, nirqs = 0;
	int r;

	if (nn_cpuset_copy(&st->allowed, &t->online))
		return -ENOMEM;
	if (nn_cpuset_empty(&st->allowed))
		for (i = 0; i < t->ncpus; i++)
			if (nn_cpuset_set(&st->allowed, (unsigned)t->cpus[i].id))
				return -ENOMEM;
	if (!nn_cpuset_empty(&o->cpus))
		nn_cpuset_and(&st->allowed, &o->cpus);
	/* Isolated CPUs belong to the workload that isolated them: only an
	 * explicit --cpus hands them to the kernel's network work. */
	if (nn_topo_isolated_cpus(t, &st->plan->isolated))
		return -ENOMEM;
	if (!nn_cpuset_empty(&o->cpus))
		nn_cpuset_andnot(&st->plan->isolated, &o->cpus);
	nn_cpuset_andnot(&st->allowed, &st->plan->isolated);
	if (nn_cpuset_empty(&st->allowed))
		return -EINVAL;
	r = build_cores(st);
	if (r)
		return r;
	if (o->has_reserve) {
		if (nn_cpuset_copy(&st->hk, &o->reserve))
			return -ENOMEM;
		nn_cpuset_and(&st->hk, &t->online);
		if (nn_cpuset_intersects(&st->hk, &st->plan->isolated)) {
			struct nn_cpuset drop = NN_CPUSET_INIT;
			char *list;

			if (nn_cpuset_copy(&drop, &st->hk))
				return -ENOMEM;
			nn_cpuset_and(&drop, &st->plan->isolated);
			nn_cpuset_andnot(&st->hk, &st->plan->isolated);
			list = nn_cpuset_format_list(&drop);
			nn_cpuset_free(&drop);
			if (!list)
				return -ENOMEM;
			r = nn__plan_add_warning(st->plan, "--reserve: CPUs %s are isolated: no housekeeping "
						 "role there (name them in --cpus to use them)", list);
			free(list);
			if (r)
				return r;
		}
	} else if (nn_topo_default_housekeeping(t, &st->hk)) {
		return -ENOMEM;
	}
	r = fill_usable(st, false);
	if (r < 0)
		return r;
	if (!r) {
		WARN(st, "every allowed CPU is a housekeeping CPU: queue IRQs share them");
		if (fill_usable(st, true) < 0)
			return -ENOMEM;
	}
	if (o->nics)
		for (i = 0; i < o->nnics; i++) {
			size_t k;

			for (k = 0; k < st->host->nnics; k++)
				if (!strcmp(st->host->nics[k].name, o->nics[i]))
					break;
			if (k == st->host->nnics)
				return -ENODEV;
		}
	st->nics = calloc(st->host->nnics ? st->host->nnics : 1, sizeof(*st->nics));
	if (!st->nics)
		return -ENOMEM;
	for (i = 0; i < st->host->nnics; i++) {
		const struct nn_nic *n = &st->host->nics[i];

		if (!nic_selected(o, n))
			continue;
		st->nics[st->nnics].nic = n;
		st->nics[st->nnics].home = -1;
		r = queue_slots(&st->nics[st->nnics++]);
		if (r)
			return r;
		nirqs += n->nirqs;
	}
	st->plan->irqs = calloc(nirqs ? nirqs : 1, sizeof(*st->plan->irqs));
	st->plan->nics = calloc(st->nnics ? st->nnics : 1, sizeof(*st->plan->nics));
	if (!st->plan->irqs || !st->plan->nics)
		return -ENOMEM;
	return nn_cpuset_copy(&st->plan->housekeeping, &st->hk) ? -ENOMEM : 0;
}

/* NICs in name order (discovery sorts them; a hand-built snapshot may not). */
const char *nn_rss_policy_name(enum nn_rss_policy p)
{
	switch (p) {
	case NN_RSSP_NONE: return "none";
	case NN_RSSP_LOCAL: return "local";
	case NN_RSSP_LOCAL_CPU: return "local:cpu";
	}
	return "none";
}

int nn_rss_policy_parse(const char *s, enum nn_rss_policy *p)
{
	if (!strcmp(s, "none"))
		*p = NN_RSSP_NONE;
	else if (!strcmp(s, "local"))
		*p = NN_RSSP_LOCAL;
	else if (!strcmp(s, "local:cpu"))
		*p = NN_RSSP_LOCAL_CPU;
	else
		return -EINVAL;
	return 0;
}

const char *nn_qbind_name(unsigned int bit)
{
	switch (bit) {
	case NN_QBIND_XSK: return "xsk";
	case NN_QBIND_IO_URING: return "io_uring";
	case NN_QBIND_DMABUF: return "dmabuf";
	}
	return NULL;
}

int nn_qbind_parse(const char *s, unsigned int *bit)
{
	unsigned int b;

	for (b = 1; b & NN_QBIND_ALL; b <<= 1)
		if (!strcmp(s, nn_qbind_name(b))) {
			*bit = b;
			return 0;
		}
	return -EINVAL;
}

/* What the kernel reports bound to rx queue @q of @n (queue-get): NN_QBIND_*. */
static unsigned int rxq_bound(const struct nn_nic *n, int q)
{
	unsigned int b = 0;
	size_t i;

	for (i = 0; i < n->ngqueues; i++) {
		const struct nn_genl_queue *g = &n->gqueues[i];

		if (g->type != NN_GENL_QUEUE_RX || g->id != q)
			continue;
		if (g->xsk)
			b |= NN_QBIND_XSK;
		if (g->io_uring)
			b |= NN_QBIND_IO_URING;
		if (g->dmabuf >= 0)
			b |= NN_QBIND_DMABUF;
	}
	return b;
}

int nn_plan_rss_table(const struct nn_plan_rss *r, unsigned int size, unsigned int *table)
{
	unsigned long long sum = 0, partial;
	size_t k = 0;
	unsigned int j;

	if (!r->nqueues || !size)
		return -EINVAL;
	if (!r->weights) {
		for (j = 0; j < size; j++)
			table[j] = (unsigned int)r->queues[j % r->nqueues];
		return 0;
	}
	for (k = 0; k < r->nqueues; k++) {
		if (r->weights[k] < 1)
			return -EINVAL;
		sum += (unsigned long long)r->weights[k];
	}
	k = 0;
	partial = (unsigned long long)r->weights[0];
	for (j = 0; j < size; j++) {
		while (k + 1 < r->nqueues && (unsigned long long)j * sum >= (unsigned long long)size * partial)
			partial += (unsigned long long)r->weights[++k];
		table[j] = (unsigned int)r->queues[k];
	}
	return 0;
}

static unsigned int gcd_u(unsigned int a, unsigned int b)
{
	while (b) {
		unsigned int t = a % b;

		a = b;
		b = t;
	}
	return a;
}

/* local:cpu: a queue's weight is its share of CPUs, sum over its CPUs c of
 * 1/k(c), k(c) the number of selected queues on c; scaled by 840 (exact while
 * at most 8 queues share a CPU, else rounded down, at least 1), reduced by the
 * weights' greatest common divisor. */
static int rss_weights(struct nn_plan_rss *r, struct nn_cpuset *qcpus)
{
	unsigned int g = 0;
	size_t i, k;
	int c;

	r->weights = calloc(r->nqueues, sizeof(*r->weights));
	if (!r->weights)
		return -ENOMEM;
	for (i = 0; i < r->nqueues; i++) {
		unsigned int w = 0;

		for (c = nn_cpuset_first(&qcpus[i]); c >= 0; c = nn_cpuset_next(&qcpus[i], c)) {
			unsigned int share = 0;

			for (k = 0; k < r->nqueues; k++)
				share += nn_cpuset_test(&qcpus[k], (unsigned int)c);
			w += 840u / share;
		}
		r->weights[i] = w ? (int)w : 1;
		g = gcd_u(g, (unsigned int)r->weights[i]);
	}
	for (i = 0; g > 1 && i < r->nqueues; i++)
		r->weights[i] /= (int)g;
	return 0;
}

/* --rss local: after emit_irqs placed this NIC's IRQs (plan->irqs[@irq0..]). */
static int emit_rss(struct state *st, struct nicst *ns, size_t irq0)
{
	struct nn_plan *plan = st->plan;
	const struct nn_nic *n = ns->nic;
	const struct group *g = &st->groups[ns->group];
	struct nn_cpuset *qcpus = NULL;
	struct nn_plan_rss r = { 0 };
	int node, bound = -1, ret = -ENOMEM;
	size_t i, k;
	void *p;

	if (n->is_virtual || !ns->nslots)
		return 0;
	if (n->rss.state == NN_RSS_UNSUPPORTED) {
		WARN(st, "%s: rss: not supported by this driver: no table planned", n->name);
		return 0;
	}
	if (n->rss.state == NN_RSS_ERROR) {
		WARN(st, "%s: rss: the indirection table is unreadable: no table planned", n->name);
		return 0;
	}
	if (g->kind != G_NODE) {
		WARN(st, "%s: rss local: its queues are not placed by its node (%s): no table planned",
		     n->name, g->kind == G_REMOTE ? "policy remote" : g->kind == G_LOCALCPUS ?
		     "node unknown" : g->unknown ? "locality unknown" : "policy spread");
		return 0;
	}
	if (!ns->norder) {
		WARN(st, "%s: rss local: no usable CPU for its queues: no table planned", n->name);
		return 0;
	}
	/* A node without a usable CPU: its queues went to the nearest nodes,
	 * and the nearest (the first in order) stands in for it. */
	node = node_has_usable(st, g->node) ? g->node : nn_topo_cpu_node(st->topo, ns->order[0].cpu);
	if (n->rss.state == NN_RSS_OK && n->rss.rings)
		bound = (int)n->rss.rings;
	else if (n->rx_queues > 0)
		bound = n->rx_queues;
	r.table_size = n->rss.state == NN_RSS_OK ? (int)n->rss.size : -1;
	qcpus = calloc(ns->nslots, sizeof(*qcpus));
	r.queues = calloc(ns->nslots, sizeof(*r.queues));
	r.reserved = calloc(ns->nslots, sizeof(*r.reserved));
	if (!qcpus || !r.queues || !r.reserved)
		goto out;
	for (i = 0; i < ns->nslots; i++) {
		int q = ns->slots[i];
		unsigned int held;
		bool seen = false, local = true;

		if (bound >= 0 && q >= bound)
			continue;	/* no rx ring behind it (mlx5's extra vectors) */
		/* An AF_XDP, io_uring or devmem consumer owns the queue:
		 * flows hashed there would reach it, not the stack. */
		held = rxq_bound(n, q);
		if (held) {
			r.reserved[r.nreserved].queue = q;
			r.reserved[r.nreserved++].bound = held;
			continue;
		}
		for (k = irq0; k < plan->nirqs; k++) {
			const struct nn_plan_irq *pi = &plan->irqs[k];

			if (pi->queue != q || pi->dir == NN_QDIR_TX)
				continue;
			seen = true;
			local = local && pi->node == node;
			if (nn_cpuset_or(&qcpus[r.nqueues], &pi->cpus))
				goto out;
		}
		if (seen && local)
			r.queues[r.nqueues++] = q;
		else
			nn_cpuset_zero(&qcpus[r.nqueues]);
	}
	if (!r.nqueues) {
		ret = r.nreserved ?
			nn__plan_add_warning(plan, "%s: rss local: every queue on node %d is bound "
					     "(AF_XDP, io_uring zero-copy or devmem): no table planned",
					     n->name, node) :
			nn__plan_add_warning(plan, "%s: rss local: no queue's IRQs are on node %d: "
					     "no table planned", n->name, node);
		goto out;
	}
	if (!r.nreserved) {
		free(r.reserved);
		r.reserved = NULL;
	}
	if (r.table_size > 0 && (size_t)r.table_size < r.nqueues &&
	    (ret = nn__plan_add_warning(plan, "%s: rss local: a table of %d entries for %zu local "
					"queues: only the first %d are used", n->name, r.table_size,
					r.nqueues, r.table_size)))
		goto out;
	if (r.table_size < 0 &&
	    (ret = nn__plan_add_warning(plan, "%s: rss: table size unknown (ethtool is live-only): "
					"apply and check use the live size", n->name)))
		goto out;
	if (st->opts->rss == NN_RSSP_LOCAL_CPU && (ret = rss_weights(&r, qcpus)))
		goto out;
	r.nic = strdup(n->name);
	p = r.nic ? realloc(plan->rss, (plan->nrss + 1) * sizeof(*plan->rss)) : NULL;
	ret = -ENOMEM;
	if (!p)
		goto out;
	plan->rss = p;
	plan->rss[plan->nrss++] = r;
	memset(&r, 0, sizeof(r));
	ret = 0;
out:
	for (i = 0; qcpus && i < ns->nslots; i++)
		nn_cpuset_free(&qcpus[i]);
	free(qcpus);
	free(r.nic);
	free(r.queues);
	free(r.weights);
	free(r.reserved);
	return ret;
}

static int nicst_cmp(const void *a, const void *b)
{
	const struct nicst *x = a, *y = b;

	return strcmp(x->nic->name, y->nic->name);
}

int nn_plan_make(const struct nn_host *host, const struct nn_plan_opts *opts, struct nn_plan *plan)
{
	struct nn_plan_opts defopts;
	struct state st;
	size_t i;
	int ret;

	memset(plan, 0, sizeof(*plan));
	if (!opts) {
		memset(&defopts, 0, sizeof(defopts));
		opts = &defopts;
	}
	memset(&st, 0, sizeof(st));
	st.host = host;
	st.topo = &host->topo;
	st.opts = opts;
	st.plan = plan;
	plan->policy = opts->policy;
	ret = setup(&st);
	if (ret)
		goto fail;
	qsort(st.nics, st.nnics, sizeof(*st.nics), nicst_cmp);
	ret = build_groups(&st);
	if (ret)
		goto fail;
	for (i = 0; i < st.nnics; i++) {
		size_t irq0 = plan->nirqs;

		ret = emit_nic(&st, &st.nics[i]);
		if (!ret)
			ret = emit_irqs(&st, &st.nics[i]);
		if (!ret && opts->rss != NN_RSSP_NONE)
			ret = emit_rss(&st, &st.nics[i], irq0);
		if (!ret && !opts->no_xps)
			ret = emit_xps(&st, &st.nics[i]);
		if (!ret)
			ret = emit_napi(&st, &st.nics[i], irq0);
		if (!ret && opts->channels)
			ret = emit_channels(&st, &st.nics[i]);
		if (ret)
			goto fail;
	}
	ret = emit_hugepages(&st);
	if (!ret)
		ret = emit_shape(&st);
	if (ret)
		goto fail;
	plan->irqbalance.running = host->irqbalance.running;
	plan->irqbalance.action = host->irqbalance.running ? opts->irqbalance : NN_IRQB_NONE;
	state_free(&st);
	return 0;
fail:
	state_free(&st);
	nn_plan_free(plan);
	return ret;
}

void nn_plan_free(struct nn_plan *plan)
{
	size_t i;

	if (!plan)
		return;
	for (i = 0; i < plan->shape.npci; i++)
		free(plan->shape.pci[i]);
	free(plan->shape.pci);
	nn_cpuset_free(&plan->housekeeping);
	nn_cpuset_free(&plan->isolated);
	for (i = 0; i < plan->nnics; i++) {
		free(plan->nics[i].nic);
		free(plan->nics[i].pci);
		free(plan->nics[i].reason);
		nn_cpuset_free(&plan->nics[i].cpus);
	}
	free(plan->nics);
	for (i = 0; i < plan->nirqs; i++) {
		free(plan->irqs[i].nic);
		free(plan->irqs[i].reason);
		nn_cpuset_free(&plan->irqs[i].cpus);
	}
	free(plan->irqs);
	for (i = 0; i < plan->nxps; i++) {
		free(plan->xps[i].nic);
		nn_cpuset_free(&plan->xps[i].cpus);
	}
	free(plan->xps);
	for (i = 0; i < plan->nnapi_threads; i++) {
		free(plan->napi_threads[i].nic);
		free(plan->napi_threads[i].name);
		nn_cpuset_free(&plan->napi_threads[i].cpus);
	}
	free(plan->napi_threads);
	for (i = 0; i < plan->nchannels; i++)
		free(plan->channels[i].nic);
	free(plan->channels);
	for (i = 0; i < plan->nrss; i++) {
		free(plan->rss[i].nic);
		free(plan->rss[i].queues);
		free(plan->rss[i].weights);
		free(plan->rss[i].reserved);
	}
	free(plan->rss);
	free(plan->hugepages);
	for (i = 0; i < plan->nwarnings; i++)
		free(plan->warnings[i]);
	free(plan->warnings);
	memset(plan, 0, sizeof(*plan));
}

void nn_plan_opts_free(struct nn_plan_opts *opts)
{
	size_t i;

	if (!opts)
		return;
	for (i = 0; i < opts->nnics; i++)
		free(opts->nics[i]);
	free(opts->nics);
	nn_cpuset_free(&opts->cpus);
	nn_cpuset_free(&opts->reserve);
	memset(opts, 0, sizeof(*opts));
}
