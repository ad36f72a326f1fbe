// SPDX-License-Identifier: GPL-2.0-or-later
/* plan_rss.c - the RSS indirection table plan (--rss local, local:cpu) and its names
 *
 * --rss local: the RSS table spreads over the queues whose planned rx IRQs
 * all sit on the NIC's node (the nearest spill node when the node has no
 * usable CPU), equal weights or (local:cpu) each queue's CPU share;
 * rx queues the kernel reports bound (AF_XDP, io_uring zero-copy, devmem:
 * netdev genl queue-get) are left out, with a note.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicnuma/plan/plan.h"
#include "nicnuma/plan/plan_internal.h"
#include "nicnuma/plan/plan_state.h"

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

/* What the kernel reports bound to the rx queue of each slot of @ns
 * (queue-get): @held[slot] gets NN_QBIND_*. One pass over the queues, each
 * slot found by binary search (slots ascend): a capture may hold 100k. */
static void slots_bound(const struct nic_state *ns, unsigned int *held)
{
	const struct nn_nic *n = ns->nic;
	size_t i;

	for (i = 0; i < n->ngqueues; i++) {
		const struct nn_genl_queue *g = &n->gqueues[i];
		unsigned int b = (g->xsk ? NN_QBIND_XSK : 0) | (g->io_uring ? NN_QBIND_IO_URING : 0) |
				 (g->dmabuf >= 0 ? NN_QBIND_DMABUF : 0);
		size_t lo = 0, hi = ns->nslots;

		if (g->type != NN_GENL_QUEUE_RX || !b)
			continue;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (ns->slots[mid] < g->id)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo < ns->nslots && ns->slots[lo] == g->id)
			held[lo] |= b;
	}
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
int nn__plan_emit_rss(struct plan_state *st, struct nic_state *ns, size_t irq0)
{
	struct nn_plan *plan = st->plan;
	const struct nn_nic *n = ns->nic;
	const struct group *g = &st->groups[ns->group];
	struct nn_cpuset *qcpus = NULL;
	unsigned int *bound_bits = NULL;
	struct nn_plan_rss r = { 0 };
	int node, bound = -1, ret = -ENOMEM;
	size_t i, k;
	void *p;

	if (n->is_virtual || !ns->nslots)
		return 0;
	if (n->rss.state == NN_RSS_UNSUPPORTED) {
		if (nn__plan_warn(st, "%s: rss: not supported by this driver: no table planned", n->name))
			return -ENOMEM;
		return 0;
	}
	if (n->rss.state == NN_RSS_ERROR) {
		if (nn__plan_warn(st, "%s: rss: the indirection table is unreadable: no table planned", n->name))
			return -ENOMEM;
		return 0;
	}
	if (g->kind != G_NODE) {
		if (nn__plan_warn(st, "%s: rss local: its queues are not placed by its node (%s): no table planned",
				  n->name, g->kind == G_REMOTE ? "policy remote" : g->kind == G_LOCALCPUS ?
				  "node unknown" : g->unknown ? "locality unknown" : "policy spread"))
			return -ENOMEM;
		return 0;
	}
	if (!ns->norder) {
		if (nn__plan_warn(st, "%s: rss local: no usable CPU for its queues: no table planned", n->name))
			return -ENOMEM;
		return 0;
	}
	/* A node without a usable CPU: its queues went to the nearest nodes,
	 * and the nearest (the first in order) stands in for it. */
	node = nn__plan_node_has_usable(st, g->node) ? g->node : nn_topo_cpu_node(st->topo, ns->order[0].cpu);
	if (n->rss.state == NN_RSS_OK && n->rss.rings)
		bound = (int)n->rss.rings;
	else if (n->rx_queues > 0)
		bound = n->rx_queues;
	r.table_size = n->rss.state == NN_RSS_OK ? (int)n->rss.size : -1;
	qcpus = calloc(ns->nslots, sizeof(*qcpus));
	r.queues = calloc(ns->nslots, sizeof(*r.queues));
	r.reserved = calloc(ns->nslots, sizeof(*r.reserved));
	bound_bits = calloc(ns->nslots, sizeof(*bound_bits));
	if (!qcpus || !r.queues || !r.reserved || !bound_bits)
		goto out;
	slots_bound(ns, bound_bits);
	for (i = 0; i < ns->nslots; i++) {
		int q = ns->slots[i];
		unsigned int held;
		bool seen = false, local = true;

		if (bound >= 0 && q >= bound)
			continue;	/* no rx ring behind it (mlx5's extra vectors) */
		/* An AF_XDP, io_uring or devmem consumer owns the queue:
		 * flows hashed there would reach it, not the stack. */
		held = bound_bits[i];
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
	    (ret = nn__plan_add_note(plan, "%s: rss: table size unknown (ethtool is live-only): "
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
	free(bound_bits);
	free(r.nic);
	free(r.queues);
	free(r.weights);
	free(r.reserved);
	return ret;
}
