// SPDX-License-Identifier: GPL-2.0-or-later
/* plan.c - the planner's entry and its CPU allocation: which cores each NIC's queue IRQs get
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
 *    "too few" case: a remote socket costs more than an SMT sibling).
 *
 * plan_emit.c turns the allocation into the plan's entries, plan_rss.c plans
 * the RSS indirection table; plan_state.h is the working state the three share.
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
#include "nicnuma/plan/plan_state.h"

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

int nn__plan_addf(char ***v, size_t *n, const char *fmt, ...)
{
	char **w, *msg;
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = vasprintf(&msg, fmt, ap);
	va_end(ap);
	if (r < 0)
		return -ENOMEM;
	w = realloc(*v, (*n + 1) * sizeof(*w));
	if (!w) {
		free(msg);
		return -ENOMEM;
	}
	*v = w;
	w[(*n)++] = msg;
	return 0;
}

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
static bool same_core(const struct cpu_core *c, const struct nn_cpu *cpu)
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
	const struct cpu_core *x = a, *y = b;
	long lx = x->l3 < 0 ? INT_MAX : x->l3, ly = y->l3 < 0 ? INT_MAX : y->l3;

	if (x->node != y->node)
		return x->node < y->node ? -1 : 1;
	if (lx != ly)
		return lx < ly ? -1 : 1;
	return x->thr[0] < y->thr[0] ? -1 : x->thr[0] > y->thr[0];
}

static int build_cores(struct plan_state *st)
{
	const struct nn_topo *t = st->topo;
	size_t i, j;

	for (i = 0; i < t->ncpus; i++) {
		const struct nn_cpu *cpu = &t->cpus[i];
		struct cpu_core *c = NULL;

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

static int fill_usable(struct plan_state *st, bool with_hk)
{
	size_t i, k, total = 0;

	for (i = 0; i < st->ncores; i++) {
		struct cpu_core *c = &st->cores[i];

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

/* The --dpdk-ports entry naming @n's PCI function (or, in a hand-built
 * option set, its name), else NULL: apply unbinds that function, so a
 * kernel-side value of its netdev would be written only to vanish. */
static const char *dpdk_port_of(const struct nn_plan_opts *o, const struct nn_nic *n)
{
	size_t i;

	for (i = 0; i < o->ndpdk_ports; i++)
		if ((n->pci && !strcmp(o->dpdk_ports[i], n->pci)) || !strcmp(o->dpdk_ports[i], n->name))
			return o->dpdk_ports[i];
	return NULL;
}

/* Never worse than before: an IRQ neither netlink nor the name table gives a
 * role is not moved to housekeeping (where a whole NIC's queues could pile
 * up on one core) but placed like one more queue IRQ, after the recognised
 * queues, so it spreads over the NIC's CPUs like them (docs/discovery.md). */
static int effective_queues(struct nic_state *ns)
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

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

static int queue_slots(struct nic_state *ns)
{
	const struct nn_nic *n = ns->nic;
	size_t i, j;
	int err = effective_queues(ns);

	if (err)
		return err;
	for (i = 0; i < n->nirqs; i++) {
		if (ns->effq[i] >= 0 && push_int(&ns->slots, &ns->nslots, ns->effq[i]))
			return -ENOMEM;
		ns->ranges |= n->irqs[i].role == NN_IRQ_ROLE_QUEUE && n->irqs[i].source == NN_IRQ_SRC_NAME &&
			      (n->irqs[i].name_flags & NN_IRQ_ROW_RANGE);
	}
	/* Sorted, each index once (binary searched by slot_of). */
	if (ns->nslots > 1)
		qsort(ns->slots, ns->nslots, sizeof(*ns->slots), cmp_int);
	for (i = 0, j = 0; i < ns->nslots; i++)
		if (!j || ns->slots[j - 1] != ns->slots[i])
			ns->slots[j++] = ns->slots[i];
	ns->nslots = j;
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
int nn__plan_cpus_node(const struct nn_topo *t, const struct nn_cpuset *s)
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

int nn__plan_node_has_usable(const struct plan_state *st, int node)
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
	return nn__plan_node_has_usable(arg, node);
}

/* Picks the group kind for one NIC; warnings explain every fallback. */
static int classify(struct plan_state *st, struct nic_state *ns, struct group *key)
{
	const struct nn_nic *n = ns->nic;
	const struct nn_topo *t = st->topo;
	bool node_ok = n->numa_node >= 0 && nn_topo_node_index(t, n->numa_node) >= 0;

	memset(key, 0, sizeof(*key));
	key->node = -1;
	key->from = -1;
	if (n->numa_node >= 0 && !node_ok &&
	    nn__plan_warn(st, "%s: numa_node %d is not a node of this host: unknown locality",
			  n->name, n->numa_node))
		return -ENOMEM;
	if (st->opts->policy == NN_POLICY_SPREAD) {
		key->kind = G_ALL;
		return 0;
	}
	if (node_ok && st->opts->policy == NN_POLICY_REMOTE) {
		int far = nn_topo_farthest_node(t, n->numa_node, 0, usable_filter, st);

		if (far < 0) {
			if (nn__plan_warn(st, "%s: no node distances: remote policy spreads over all nodes", n->name))
				return -ENOMEM;
			key->kind = G_ALL;
			return 0;
		}
		if (far == n->numa_node &&
		    nn__plan_warn(st, "%s: no other node with CPUs: remote policy stays on node %d",
				  n->name, far))
			return -ENOMEM;
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
		if (st->opts->policy == NN_POLICY_REMOTE &&
		    nn__plan_warn(st, "%s: NUMA node unknown: remote policy uses its local_cpus", n->name))
			return -ENOMEM;
		return 0;
	}
	key->kind = G_ALL;
	key->unknown = true;
	/* a fact of the host (a VM, the firmware) no option changes: a note */
	if (nn__plan_note(st, "%s: unknown locality: spread over all nodes", n->name))
		return -ENOMEM;
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

static size_t core_usable_in(const struct cpu_core *c, const struct nn_cpuset *mask)
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
	struct pool_entry *e = realloc(g->pool, (g->npool + 1) * sizeof(*e));

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
static int pool_add_node(struct plan_state *st, struct group *g, int node, enum entry_kind kind, int dist)
{
	int pass;
	size_t i;

	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < st->ncores; i++) {
			const struct cpu_core *c = &st->cores[i];

			if (c->node != node || !core_usable_in(c, g->mask) || c->used != (pass == 1))
				continue;
			if (pool_push(g, i, kind, dist))
				return -ENOMEM;
		}
	return 0;
}

size_t nn__plan_group_demand(const struct plan_state *st, const struct group *g)
{
	size_t i, d = 0;

	for (i = 0; i < g->nnics; i++)
		d += st->nics[g->nics[i]].demand;
	return d;
}

/* Usable cores of @node (within the group's mask), in core order. */
static size_t node_cores(const struct plan_state *st, const struct group *g, int node, size_t *out)
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
static int pool_add_tail(struct plan_state *st, struct group *g, int node, size_t count, int dist)
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
static int pool_by_distance(struct plan_state *st, struct group *g, int base, enum entry_kind own)
{
	const struct nn_topo *t = st->topo;
	size_t demand = nn__plan_group_demand(st, g), i;
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

		if (!nn__plan_node_has_usable(st, id))
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
static int compute_spare(struct plan_state *st)
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
				want += nn__plan_group_demand(st, &st->groups[j]);
		st->spare[i] = have > want ? have - want : 0;
	}
	return 0;
}

/* All nodes, interleaved core by core, so consecutive queues land on different nodes. */
static int pool_all(struct plan_state *st, struct group *g, enum entry_kind kind)
{
	size_t round, i, added = 1;

	for (round = 0; added; round++) {
		added = 0;
		for (i = 0; i < st->topo->nnodes || (!st->topo->nnodes && i == 0); i++) {
			int node = st->topo->nnodes ? st->topo->nodes[i].id : -1;
			size_t k, seen = 0;

			for (k = 0; k < st->ncores; k++) {
				const struct cpu_core *c = &st->cores[k];

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

static int pool_localcpus(struct plan_state *st, struct group *g)
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

static int order_push(struct nic_state *ns, int cpu, const struct pool_entry *e, int thr)
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
static int build_order(struct plan_state *st, struct group *g, struct nic_state *ns)
{
	size_t t, i, maxt = 0;

	for (i = 0; i < ns->nshare; i++) {
		size_t u = core_usable_in(&st->cores[g->pool[ns->share[i]].core], g->mask);

		if (u > maxt)
			maxt = u;
	}
	for (t = 0; t < maxt; t++)
		for (i = 0; i < ns->nshare; i++) {
			const struct pool_entry *e = &g->pool[ns->share[i]];
			const struct cpu_core *c = &st->cores[e->core];
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

static int allocate_group(struct plan_state *st, struct group *g)
{
	size_t k = g->nnics, demand = nn__plan_group_demand(st, g), i, j, off = 0;
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
		struct nic_state *ns = &st->nics[g->nics[i]];
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

static int build_groups(struct plan_state *st)
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
			size_t *v = realloc(g->nics, (g->nnics + 1) * sizeof(*v));

			if (!v)
				return -ENOMEM;
			g->nics = v;
			v[g->nnics++] = i;
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

static void state_free(struct plan_state *st)
{
	size_t i;

	for (i = 0; i < st->ncores; i++) {
		free(st->cores[i].thr);
		free(st->cores[i].use);
	}
	free(st->cores);
	for (i = 0; i < st->nnics; i++) {
		struct nic_state *ns = &st->nics[i];

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

int nn_plan_usable_cpus(const struct nn_topo *t, const struct nn_cpuset *cpus,
			const struct nn_cpuset *claimed, struct nn_cpuset *out,
			struct nn_cpuset *isolated)
{
	struct nn_cpuset iso = NN_CPUSET_INIT;
	size_t i;
	int err = -ENOMEM;

	if (nn_cpuset_copy(out, &t->online))
		return -ENOMEM;
	if (nn_cpuset_empty(out))
		for (i = 0; i < t->ncpus; i++)
			if (nn_cpuset_set(out, (unsigned)t->cpus[i].id))
				goto out;
	if (cpus && !nn_cpuset_empty(cpus))
		nn_cpuset_and(out, cpus);
	/* Isolated CPUs belong to the workload that isolated them: only an
	 * explicit --cpus hands them to the kernel's network work. */
	if (nn_topo_isolated_cpus(t, &iso))
		goto out;
	if (cpus && !nn_cpuset_empty(cpus))
		nn_cpuset_andnot(&iso, cpus);
	nn_cpuset_andnot(out, &iso);
	/* a claim is a workload's while it lasts: --cpus never hands it back */
	if (claimed)
		nn_cpuset_andnot(out, claimed);
	if (isolated && nn_cpuset_copy(isolated, &iso))
		goto out;
	err = 0;
out:
	nn_cpuset_free(&iso);
	return err;
}

/* Claims that hold every CPU NIC work may use came from where no door
 * judged them (a cgroup partition, a record written beside `claim`): NIC
 * work then shares the housekeeping CPUs with them (the lowest usable CPU
 * when none is usable), with a warning, rather than have nowhere to go.
 * The plan's claimed set is what it honours; the node spill below still
 * applies to the rest. */
static int claims_hand_back(struct plan_state *st)
{
	struct nn_cpuset back = NN_CPUSET_INIT;
	char *held = NULL, *shared = NULL;
	int r = -ENOMEM;

	if (nn_cpuset_empty(&st->allowed) || !nn_cpuset_subset(&st->allowed, &st->plan->claimed))
		return 0;
	if (nn_topo_default_housekeeping(st->topo, &back))
		goto out;
	nn_cpuset_and(&back, &st->allowed);
	if (nn_cpuset_empty(&back) && nn_cpuset_set(&back, (unsigned int)nn_cpuset_first(&st->allowed)))
		goto out;
	held = nn_cpuset_format_list(&st->allowed);
	shared = nn_cpuset_format_list(&back);
	if (!held || !shared)
		goto out;
	nn_cpuset_andnot(&st->plan->claimed, &back);
	r = nn__plan_add_warning(st->plan, "claims hold every CPU NIC work may use (%s): NIC work "
				 "shares CPUs %s with them", held, shared);
out:
	free(held);
	free(shared);
	nn_cpuset_free(&back);
	return r;
}

/* The one decision "which CPUs may take NIC work" (st->allowed):
 * nn_plan_usable_cpus() with the host's claims. The plan lists both sets
 * left out. */
static int usable_cpus(struct plan_state *st)
{
	const struct nn_topo *t = st->topo;
	const struct nn_plan_opts *o = st->opts;
	const struct nn_cpuset *claimed = nn_host_claimed_cpus(st->host);
	size_t i;
	int r;

	if (nn_plan_usable_cpus(t, &o->cpus, NULL, &st->allowed, &st->plan->isolated))
		return -ENOMEM;
	if (nn_cpuset_empty(&st->allowed))
		return -EINVAL;
	if (nn_cpuset_copy(&st->plan->claimed, claimed))
		return -ENOMEM;
	if (!nn_cpuset_empty(&o->cpus) && nn_cpuset_intersects(&o->cpus, claimed)) {
		char *list = nn_cpuset_format_list(claimed);

		if (!list)
			return -ENOMEM;
		r = nn__plan_add_warning(st->plan, "--cpus: claimed CPUs %s left out while claimed", list);
		free(list);
		if (r)
			return r;
	}
	r = claims_hand_back(st);
	if (r)
		return r;
	nn_cpuset_andnot(&st->allowed, &st->plan->claimed);
	for (i = 0; i < st->host->claims.n; i++) {
		const struct nn_claim_item *it = &st->host->claims.items[i];
		struct nn_plan_claim *pc;

		if (!it->live)
			continue;
		if (!st->plan->claims) {
			st->plan->claims = calloc(st->host->claims.n, sizeof(*st->plan->claims));
			if (!st->plan->claims)
				return -ENOMEM;
		}
		pc = &st->plan->claims[st->plan->nclaims++];
		pc->name = strdup(it->c.name);
		pc->owner = strdup(it->c.owner);
		pc->source = strdup(nn_claim_source_name(it->source));
		if (!pc->name || !pc->owner || !pc->source || nn_cpuset_copy(&pc->cpus, &it->c.cpus))
			return -ENOMEM;
	}
	return 0;
}

/* Housekeeping is NIC work too (non-queue IRQs): never on a claimed CPU.
 * When the claims took it all, the lowest usable CPU keeps the role. */
static int housekeeping_unclaimed(struct plan_state *st)
{
	const struct nn_cpuset *claimed = &st->plan->claimed;

	if (!nn_cpuset_intersects(&st->hk, claimed))
		return 0;
	nn_cpuset_andnot(&st->hk, claimed);
	if (nn_cpuset_empty(&st->hk) && nn_cpuset_set(&st->hk, (unsigned int)nn_cpuset_first(&st->allowed)))
		return -ENOMEM;
	return 0;
}

/* A node whose CPUs outside housekeeping are all claimed (or the dpdk
 * profile's lcores) keeps its NIC work at home on its housekeeping CPUs
 * (sharing them, as a host of only housekeeping CPUs does) rather than
 * send it across the interconnect. */
static int claims_share_housekeeping(struct plan_state *st)
{
	const struct nn_topo *t = st->topo;
	size_t i, k, c;

	if (nn_cpuset_empty(&st->plan->claimed) && nn_cpuset_empty(&st->plan->dpdk_lcores) &&
	    nn_cpuset_empty(&st->plan->isolate))
		return 0;
	for (i = 0; i < t->nnodes; i++) {
		int node = t->nodes[i].id;
		bool hit = false, claims = nn_cpuset_intersects(&t->nodes[i].cpus, &st->plan->claimed);

		if (nn__plan_node_has_usable(st, node) ||
		    (!claims && !nn_cpuset_intersects(&t->nodes[i].cpus, &st->plan->dpdk_lcores) &&
		     !nn_cpuset_intersects(&t->nodes[i].cpus, &st->plan->isolate)))
			continue;
		for (c = 0; c < st->ncores; c++) {
			struct cpu_core *co = &st->cores[c];

			if (co->node != node)
				continue;
			for (k = 0; k < co->nthr; k++)
				if (nn_cpuset_test(&st->allowed, (unsigned int)co->thr[k])) {
					if (push_int(&co->use, &co->nuse, co->thr[k]))
						return -ENOMEM;
					hit = true;
				}
		}
		if (hit && claims &&
		    nn__plan_warn(st, "claims leave node %d only its housekeeping CPUs: its queue IRQs share them",
				  node))
			return -ENOMEM;
	}
	return 0;
}

/* A claim that leaves a NIC's node without a usable CPU: the allocation
 * spills it by the distance matrix (never onto a claim: claimed CPUs are
 * not in st->allowed); say so. */
static int claims_spill_check(struct plan_state *st)
{
	const struct nn_topo *t = st->topo;
	size_t i, k;

	if (nn_cpuset_empty(&st->plan->claimed))
		return 0;
	for (i = 0; i < st->nnics; i++) {
		const struct nn_nic *n = st->nics[i].nic;
		bool claimed_here = false;

		if (n->numa_node < 0 || nn__plan_node_has_usable(st, n->numa_node))
			continue;
		for (k = 0; k < t->ncpus && !claimed_here; k++)
			claimed_here = t->cpus[k].node == n->numa_node &&
				       nn_cpuset_test(&st->plan->claimed, (unsigned int)t->cpus[k].id);
		if (!claimed_here)
			continue;
		st->plan->claim_spills++;
		if (nn__plan_warn(st, "%s: claims leave node %d no CPU for NIC work: it spills to the nearest node "
				  "with a free CPU", n->name, n->numa_node))
			return -ENOMEM;
	}
	return 0;
}

static int setup(struct plan_state *st)
{
	const struct nn_topo *t = st->topo;
	const struct nn_plan_opts *o = st->opts;
	size_t i, nirqs = 0;
	int r;

	r = usable_cpus(st);
	if (r)
		return r;
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
	if (housekeeping_unclaimed(st))
		return -ENOMEM;
	if (o->profile == NN_PROFILE_DPDK && (r = nn__plan_dpdk_lcores(st)))
		return r;
	if ((r = nn__plan_isolate(st)))
		return r;
	r = fill_usable(st, false);
	if (r < 0)
		return r;
	if (!r) {
		/* the dpdk profile's lcores left them alone: its reason says so */
		if (nn_cpuset_empty(&st->plan->dpdk_lcores) &&
		    nn__plan_warn(st, "every allowed CPU is a housekeeping CPU: queue IRQs share them"))
			return -ENOMEM;
		if (fill_usable(st, true) < 0)
			return -ENOMEM;
	} else {
		r = claims_share_housekeeping(st);
		if (r)
			return r;
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
		const char *port;

		if (!nic_selected(o, n))
			continue;
		if ((port = dpdk_port_of(o, n))) {
			if (nn__plan_note(st, "%s: its PCI function %s is planned for vfio-pci (--dpdk-ports): "
					  "no kernel-side value of it is planned (queue IRQs, RPS/XPS, NAPI, "
					  "coalescing, rings, channels), the DPDK application drives the port",
					  n->name, n->pci ? n->pci : port))
				return -ENOMEM;
			continue;
		}
		st->nics[st->nnics].nic = n;
		st->nics[st->nnics].home = -1;
		r = queue_slots(&st->nics[st->nnics++]);
		if (r)
			return r;
		nirqs += n->nirqs;
	}
	r = claims_spill_check(st);
	if (r)
		return r;
	st->plan->irqs = calloc(nirqs ? nirqs : 1, sizeof(*st->plan->irqs));
	st->plan->nics = calloc(st->nnics ? st->nnics : 1, sizeof(*st->plan->nics));
	if (!st->plan->irqs || !st->plan->nics)
		return -ENOMEM;
	return nn_cpuset_copy(&st->plan->housekeeping, &st->hk) ? -ENOMEM : 0;
}

/* NICs in name order (discovery sorts them; a hand-built snapshot may not). */
static int nicst_cmp(const void *a, const void *b)
{
	const struct nic_state *x = a, *y = b;

	return strcmp(x->nic->name, y->nic->name);
}

int nn_plan_make(const struct nn_host *host, const struct nn_plan_opts *opts, struct nn_plan *plan)
{
	struct nn_plan_opts defopts;
	struct plan_state st;
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
	plan->profile = opts->profile;
	ret = setup(&st);
	if (ret)
		goto fail;
	qsort(st.nics, st.nnics, sizeof(*st.nics), nicst_cmp);
	ret = build_groups(&st);
	if (!ret)
		ret = nn__plan_emit(&st);
	if (!ret)
		ret = nn__plan_ports(&st);
	if (!ret)
		ret = nn__plan_boot(&st);
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

static void add_name(char **v, size_t *n, char *name)
{
	size_t i;

	for (i = 0; i < *n; i++)
		if (!strcmp(v[i], name))
			return;
	v[(*n)++] = name;
}

int nn_plan_nic_names(const struct nn_plan *plan, char ***out, size_t *nout)
{
	size_t cap = plan->nnics + plan->nirqs + plan->nxps + plan->nchannels + plan->nnapi_threads +
		     plan->nrss + plan->nrps + plan->nnapi_conf + plan->neth + plan->nports;
	char **v = calloc(cap ? cap : 1, sizeof(*v));
	size_t n = 0, i;

	if (!v)
		return -ENOMEM;
#define NAMES(arr, cnt) \
	for (i = 0; i < plan->cnt; i++) \
		if (plan->arr[i].nic) \
			add_name(v, &n, plan->arr[i].nic)
	NAMES(nics, nnics);
	NAMES(irqs, nirqs);
	NAMES(xps, nxps);
	NAMES(channels, nchannels);
	NAMES(napi_threads, nnapi_threads);
	NAMES(rss, nrss);
	NAMES(rps, nrps);
	NAMES(napi_conf, nnapi_conf);
	NAMES(eth, neth);
#undef NAMES
	/* a port's netdev is planned nothing, but its checks ask whether it is up */
	for (i = 0; i < plan->nports; i++)
		if (plan->ports[i].ifname[0])
			add_name(v, &n, (char *)plan->ports[i].ifname);
	*out = v;
	*nout = n;
	return 0;
}

const struct nn_plan_irq *nn_plan_irq_find(const struct nn_plan *plan, int irq)
{
	size_t i;

	for (i = 0; plan && i < plan->nirqs; i++)
		if (plan->irqs[i].irq == irq)
			return &plan->irqs[i];
	return NULL;
}

const struct nn_cpuset *nn_plan_irq_cpus(const void *plan, int irq)
{
	const struct nn_plan_irq *pq = nn_plan_irq_find(plan, irq);

	return pq && !nn_cpuset_empty(&pq->cpus) ? &pq->cpus : NULL;
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
	nn_cpuset_free(&plan->claimed);
	nn_cpuset_free(&plan->dpdk_lcores);
	free(plan->dpdk_reason);
	for (i = 0; i < plan->nclaims; i++) {
		free(plan->claims[i].name);
		free(plan->claims[i].owner);
		free(plan->claims[i].source);
		nn_cpuset_free(&plan->claims[i].cpus);
	}
	free(plan->claims);
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
	for (i = 0; i < plan->nrps; i++) {
		free(plan->rps[i].nic);
		free(plan->rps[i].reason);
		nn_cpuset_free(&plan->rps[i].cpus);
	}
	free(plan->rps);
	for (i = 0; i < plan->nnapi_conf; i++) {
		free(plan->napi_conf[i].nic);
		free(plan->napi_conf[i].reason);
	}
	free(plan->napi_conf);
	for (i = 0; i < plan->neth; i++) {
		free(plan->eth[i].nic);
		free(plan->eth[i].reason);
	}
	free(plan->eth);
	for (i = 0; i < plan->nsysctls; i++)
		free(plan->sysctls[i].reason);
	free(plan->sysctls);
	free(plan->hugepages);
	nn_cpuset_free(&plan->isolate);
	for (i = 0; i < plan->nports; i++)
		free(plan->ports[i].reason);
	free(plan->ports);
	nn_boot_args_free(plan->boot_args, plan->nboot_args);
	nn_boot_skips_free(plan->boot_left, plan->nboot_left);
	for (i = 0; i < plan->nwarnings; i++)
		free(plan->warnings[i]);
	free(plan->warnings);
	for (i = 0; i < plan->nnotes; i++)
		free(plan->notes[i]);
	free(plan->notes);
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
	nn_cpuset_free(&opts->isolate);
	for (i = 0; i < opts->ndpdk_ports; i++)
		free(opts->dpdk_ports[i]);
	free(opts->dpdk_ports);
	memset(opts, 0, sizeof(*opts));
}
