// SPDX-License-Identifier: GPL-2.0-or-later
/* plan_emit.c - the plan's entries from the allocation: NICs, IRQs, XPS, NAPI, channels, hugepages */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicnuma/discover/napi_index.h"
#include "nicnuma/plan/plan.h"
#include "nicnuma/plan/plan_internal.h"
#include "nicnuma/plan/plan_state.h"

static char *fmt_core(const struct cpu_core *c, int cpu, char *buf, size_t len)
{
	if (c->core_id >= 0)
		snprintf(buf, len, "core %d", c->core_id);
	else
		snprintf(buf, len, "cpu %d", cpu);
	return buf;
}

static char *slot_reason(const struct plan_state *st, const struct nic_state *ns, size_t slot)
{
	size_t pos = slot % ns->norder;
	const struct pick *pk = &ns->order[pos];
	const struct cpu_core *c = &st->cores[pk->core];
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

/* The slot of the largest queue index <= @queue (slots ascend); -1 none. */
static int slot_floor(const struct nic_state *ns, int queue)
{
	size_t lo = 0, hi = ns->nslots;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ns->slots[mid] <= queue)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? (int)lo - 1 : -1;
}

static int slot_of(const struct nic_state *ns, int queue)
{
	int s = slot_floor(ns, queue);

	return s >= 0 && ns->slots[s] == queue ? s : -1;
}

/* The slot whose CPU serves @queue: its own; on a NIC whose vectors serve
 * ranges of rings (out-of-tree ice), the vector of the range it falls in;
 * else the slots in turn. */
static int queue_slot(const struct nic_state *ns, int queue)
{
	int s = ns->ranges ? slot_floor(ns, queue) : slot_of(ns, queue);

	return s >= 0 ? s : (int)((size_t)queue % ns->nslots);
}

/* Housekeeping CPUs for a NIC's non-queue IRQs: those of its node, else of
 * the nearest node that has some, else (unknown) all of them. */
static int housekeeping_for(struct plan_state *st, const struct nic_state *ns, struct nn_cpuset *out, char **why)
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

/* Whether any of the NIC's IRQs has its /proc/irq files (a down NIC whose
 * driver requests IRQs on open has none yet). */
static bool nic_has_irq_files(const struct nn_nic *n)
{
	for (size_t i = 0; i < n->nirqs; i++)
		if (n->irqs[i].has_affinity)
			return true;
	return false;
}

/* More queues than CPUs. Under --profile dpdk the lcores took the rest of
 * the node: say so and what the user can do about it. */
static int share_warning(struct plan_state *st, const struct nic_state *ns)
{
	const char *nic = ns->nic->name;
	char *lc;
	int r;

	if (nn_cpuset_empty(&st->plan->dpdk_lcores))
		return nn__plan_add_warning(st->plan, "%s: %zu queues on %zu CPUs: queues share CPUs", nic,
					    ns->demand, ns->norder);
	lc = nn_cpuset_format_list(&st->plan->dpdk_lcores);
	if (!lc)
		return -ENOMEM;
	r = nn__plan_add_warning(st->plan, "%s: %zu queues on %zu CPUs: queues share CPUs, as profile dpdk keeps "
				 "the kernel's NIC work off its lcores %s; for a kernel NIC that carries the data "
				 "traffic: fewer queues (--channels), the port to a PMD (--dpdk-ports %s), or a "
				 "plan without --profile dpdk", nic, ns->demand, ns->norder, lc, nic);
	free(lc);
	return r;
}

static int emit_nic(struct plan_state *st, struct nic_state *ns)
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
	pn->node = nn__plan_cpus_node(st->topo, &pn->cpus);
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
		ns->home = nn__plan_cpus_node(st->topo, &n->local_cpus);
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
	if (ns->nshare && ns->nshare < ns->demand && g->nnics > 1 && ns->nshare < g->npool) {
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
		if (nn__plan_warn(st, "%s: node %d has %zu usable core%s for %zu queue%s: %zu spilled to the nearest nodes by distance",
				  n->name, g->node, local, local == 1 ? "" : "s", nn__plan_group_demand(st, g),
				  nn__plan_group_demand(st, g) == 1 ? "" : "s", spilled))
			return -ENOMEM;
	}
	if (ns->nslots && !ns->norder) {
		if (nn__plan_warn(st, "%s: no usable CPU for its queues", n->name))
			return -ENOMEM;
	} else if (ns->demand > ns->norder && share_warning(st, ns)) {
		return -ENOMEM;
	}
	if (!ns->nslots && n->nirqs && !(n->link_down && !nic_has_irq_files(n)) &&
	    nn__plan_warn(st, "%s: no queue IRQs recognised: only its other IRQs are planned", n->name))
		return -ENOMEM;
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

static int emit_irqs(struct plan_state *st, struct nic_state *ns)
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
		pi->node = nn__plan_cpus_node(st->topo, &pi->cpus);
	}
	ret = 0;
out:
	nn_cpuset_free(&hk);
	free(hkwhy);
	return ret;
}

static int emit_xps(struct plan_state *st, struct nic_state *ns)
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
		int s = queue_slot(ns, (int)i);
		size_t pos;
		void *p;

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

struct irq_at {
	int irq;
	size_t at;			/* into plan->irqs */
};

static int cmp_irq_at(const void *a, const void *b)
{
	const struct irq_at *x = a, *y = b;

	if (x->irq != y->irq)
		return (x->irq > y->irq) - (x->irq < y->irq);
	return (x->at > y->at) - (x->at < y->at);
}

/* The planned CPUs of IRQ @irq among @n sorted entries; NULL none. */
static const struct nn_cpuset *irq_cpus(const struct nn_plan *plan, const struct irq_at *v, size_t n, int irq)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (v[mid].irq < irq)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && v[lo].irq == irq ? &plan->irqs[v[lo].at].cpus : NULL;
}

/* Each threaded NAPI of @ns with a kthread: with its IRQ's planned CPUs;
 * IRQ-less, its queue's planned CPU (its rx queue, else tx), else the NIC's
 * planned CPUs, else every CPU the plan may use. The joins are sorted
 * (napi_index.h, irq_cpus): a capture may hold 100k NAPIs and queues. */
static int emit_napi(struct plan_state *st, struct nic_state *ns, size_t irq0)
{
	struct nn_plan *plan = st->plan;
	const struct nn_nic *n = ns->nic;
	const struct nn_plan_nic *pn = &plan->nics[plan->nnics - 1];
	struct nn_napi_index ix;
	struct irq_at *byirq = NULL;
	int *rx = NULL, *tx = NULL, err;
	size_t i, nthr, nirq = plan->nirqs - irq0;

	if (!n->ngnapis)
		return 0;
	err = nn_napi_index_init(&ix, n->gnapis, n->ngnapis);
	if (err)
		return err;
	rx = malloc((n->ngnapis + 1) * sizeof(*rx));
	tx = malloc((n->ngnapis + 1) * sizeof(*tx));
	byirq = malloc((nirq + 1) * sizeof(*byirq));
	err = -ENOMEM;
	if (!rx || !tx || !byirq)
		goto out;
	nn_napi_queues(&ix, n->gqueues, n->ngqueues, rx, tx);
	for (i = 0; i < nirq; i++) {
		byirq[i].irq = plan->irqs[irq0 + i].irq;
		byirq[i].at = irq0 + i;
	}
	qsort(byirq, nirq, sizeof(*byirq), cmp_irq_at);
	/* Room for them all at once: one realloc per thread copies quadratically. */
	for (i = 0, nthr = 0; i < n->ngnapis; i++)
		nthr += n->gnapis[i].pid > 0 && n->gnapis[i].threaded != 0;
	if (nthr) {
		void *p = realloc(plan->napi_threads, (plan->nnapi_threads + nthr) * sizeof(*plan->napi_threads));

		if (!p)
			goto out;
		plan->napi_threads = p;
	}
	for (i = 0; i < n->ngnapis; i++) {
		const struct nn_genl_napi *g = &n->gnapis[i];
		const struct nn_cpuset *from = NULL;
		struct nn_plan_napi *x;
		char comm[NN_NAPI_COMM_LEN];
		int q, cpu = -1;

		if (g->pid <= 0 || g->threaded == 0)
			continue;
		if (g->irq >= 0)
			from = irq_cpus(plan, byirq, nirq, g->irq);
		q = from ? -1 : rx[i] >= 0 ? rx[i] : tx[i];
		if (q >= 0 && ns->norder && ns->nslots) {
			int s = queue_slot(ns, q);

			cpu = ns->order[(size_t)s % ns->norder].cpu;
		}
		if (!from && cpu < 0)
			from = nn_cpuset_empty(&pn->cpus) ? &st->allowed : &pn->cpus;
		x = &plan->napi_threads[plan->nnapi_threads];
		memset(x, 0, sizeof(*x));
		nn_napi_comm(comm, sizeof(comm), n->name, g->id);
		x->nic = strdup(n->name);
		x->name = strdup(comm);
		x->napi_id = g->id;
		x->pid = g->pid;
		plan->nnapi_threads++;
		if (!x->nic || !x->name)
			goto out;
		if (from ? nn_cpuset_copy(&x->cpus, from) : nn_cpuset_set(&x->cpus, (unsigned)cpu))
			goto out;
	}
	err = 0;
out:
	free(byirq);
	free(rx);
	free(tx);
	nn_napi_index_free(&ix);
	return err;
}

/* Each kthread of a NAPI without an id (TX only, irq/napi_thread.h): no
 * IRQ or queue to follow, so the NIC's planned CPUs (which hold no claimed
 * or isolated CPU), else every CPU the plan may use. */
static int emit_napi_tx(struct plan_state *st, struct nic_state *ns)
{
	struct nn_plan *plan = st->plan;
	const struct nn_nic *n = ns->nic;
	const struct nn_plan_nic *pn = &plan->nics[plan->nnics - 1];
	const struct nn_cpuset *from = nn_cpuset_empty(&pn->cpus) ? &st->allowed : &pn->cpus;
	char comm[NN_NAPI_COMM_LEN];
	size_t i;
	void *p;

	if (!n->ntxnapis)
		return 0;
	p = realloc(plan->napi_threads, (plan->nnapi_threads + n->ntxnapis) * sizeof(*plan->napi_threads));
	if (!p)
		return -ENOMEM;
	plan->napi_threads = p;
	nn_napi_comm(comm, sizeof(comm), n->name, NN_NAPI_TX_ID);
	for (i = 0; i < n->ntxnapis; i++) {
		struct nn_plan_napi *x = &plan->napi_threads[plan->nnapi_threads];

		memset(x, 0, sizeof(*x));
		x->nic = strdup(n->name);
		x->name = strdup(comm);
		x->napi_id = NN_NAPI_TX_ID;
		x->pid = n->txnapis[i];
		plan->nnapi_threads++;
		if (!x->nic || !x->name || nn_cpuset_copy(&x->cpus, from))
			return -ENOMEM;
	}
	return 0;
}

static int emit_channels(struct plan_state *st, struct nic_state *ns)
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
	if (n->channels_combined < 0 &&
	    nn__plan_note(st, "%s: current channel count unknown (ethtool is live-only)", n->name))
		return -ENOMEM;
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

static int add_hugepage_node(struct plan_state *st, int node)
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

static int emit_hugepages(struct plan_state *st)
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
		if (nn__plan_note(st, "hugepages: a NIC's node is unknown: reserving on every node with memory"))
			return -ENOMEM;
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

static int emit_shape(struct plan_state *st)
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

/* Every selected NIC's entries in name order, then the hugepage pools and
 * the plan's shape. */
int nn__plan_emit(struct plan_state *st)
{
	const struct nn_plan_opts *opts = st->opts;
	struct nn_plan *plan = st->plan;
	size_t i;
	int ret;

	for (i = 0; i < st->nnics; i++) {
		size_t irq0 = plan->nirqs;

		ret = emit_nic(st, &st->nics[i]);
		if (!ret)
			ret = emit_irqs(st, &st->nics[i]);
		if (!ret && opts->rss != NN_RSSP_NONE)
			ret = nn__plan_emit_rss(st, &st->nics[i], irq0);
		if (!ret && !opts->no_xps)
			ret = emit_xps(st, &st->nics[i]);
		if (!ret)
			ret = emit_napi(st, &st->nics[i], irq0);
		if (!ret)
			ret = emit_napi_tx(st, &st->nics[i]);
		if (!ret && opts->rps != NN_RPS_OFF)
			ret = nn__plan_emit_rps(st, &st->nics[i], irq0);
		if (!ret)
			ret = nn__plan_emit_rps_keep_off(st, &st->nics[i]);
		if (!ret && opts->napi_set)
			ret = nn__plan_emit_napi_conf(st, &st->nics[i]);
		if (!ret && opts->profile != NN_PROFILE_NONE)
			ret = nn__plan_emit_eth(st, &st->nics[i]);
		if (!ret && opts->channels)
			ret = emit_channels(st, &st->nics[i]);
		if (ret)
			return ret;
	}
	ret = 0;
	if (opts->profile == NN_PROFILE_LATENCY && opts->busy_poll_us > 0)
		ret = nn__plan_emit_busy(st);
	if (!ret)
		ret = emit_hugepages(st);
	if (!ret)
		ret = emit_shape(st);
	return ret;
}
