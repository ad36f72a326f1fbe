// SPDX-License-Identifier: GPL-2.0-or-later
/* plan_eal.c - the DPDK EAL arguments that match a plan on one node
 *
 * A data plane started with these runs its lcores on the NIC's node, away
 * from the CPUs that take the kernel's queue IRQs, housekeeping and claims,
 * takes its packet memory from that node's planned hugepages (DPDK socket
 * ids are NUMA node ids) and probes only that node's NICs. The lcores are
 * not chosen here: they are nn_layout_make's (layout --dpdk), the one rule,
 * which puts them on the node's isolated CPUs first.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicnuma/plan/layout.h"
#include "nicnuma/plan/plan.h"
#include "nicnuma/plan/plan_internal.h"

static int append(char **buf, size_t *len, const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	char *nb = realloc(*buf, *len + la + lb + 1);

	if (!nb)
		return -ENOMEM;
	memcpy(nb + *len, a, la);
	memcpy(nb + *len + la, b, lb + 1);
	*len += la + lb;
	*buf = nb;
	return 0;
}

/* The lcores of @node by the one rule, nn_layout_make's (layout --dpdk with
 * the plan's housekeeping and queue IRQs): the node's online CPUs outside
 * housekeeping, claimed CPUs and the queue-IRQ cores (with their SMT
 * siblings), only its isolated CPUs when it has some; when every core takes
 * queue IRQs the siblings free of them, and only when none is free the IRQ
 * CPUs (*@shared: an lcore takes a queue IRQ). 0, -ENOENT (no instance on
 * that node: no CPU left, or memory only) or -ENOMEM. */
static int layout_lcores(const struct nn_plan *plan, const struct nn_host *host, int node,
			 struct nn_cpuset *lc, bool *shared)
{
	struct nn_layout_opts lo = { .service = "dpdk", .nodes_mode = NN_LAYOUT_LIST, .dpdk = true };
	struct nn_layout l;
	char why[256];
	int err;

	*shared = false;
	if (node < 0)
		return -ENOENT;
	err = nn_cpuset_set(&lo.nodes, (unsigned int)node);
	if (!err)
		err = nn_cpuset_copy(&lo.housekeeping, &plan->housekeeping);
	if (!err)
		err = nn_layout_make(host, plan, &lo, &l, why, sizeof(why));
	nn_layout_opts_free(&lo);
	if (err)
		return err == -ENOMEM ? err : -ENOENT;
	err = l.ninst == 1 ? nn_cpuset_copy(lc, &l.inst[0].cpus) : -ENOENT;
	nn_layout_free(&l);
	/* shared: an lcore takes a queue IRQ itself (an SMT sibling of an IRQ
	 * CPU, which the layout gives when every core takes one, is not) */
	for (size_t i = 0; !err && i < plan->nirqs && !*shared; i++)
		*shared = nn_cpuset_intersects(lc, &plan->irqs[i].cpus);
	return err;
}

struct lcore_q {
	const struct nn_plan *plan;
	const struct nn_host *host;
};

/* A node the layout gives lcores (filter for nn_topo_nearest_node). */
static bool node_has_lcores(const struct nn_topo *t, int node, void *arg)
{
	const struct lcore_q *q = arg;
	struct nn_cpuset c = NN_CPUSET_INIT;
	bool shared, ok;

	(void)t;
	ok = !layout_lcores(q->plan, q->host, node, &c, &shared);
	nn_cpuset_free(&c);
	return ok;
}

int nn_plan_eal_lcore_node(const struct nn_plan *plan, const struct nn_host *host, int node)
{
	struct lcore_q q = { plan, host };

	return nn_topo_nearest_node(&host->topo, node, 0, node_has_lcores, &q);
}

int nn_plan_eal_args(const struct nn_plan *plan, const struct nn_host *host, int node,
		     char **out, bool *shared)
{
	const struct nn_topo *t = &host->topo;
	struct nn_cpuset lc = NN_CPUSET_INIT;
	char *buf = NULL, *list = NULL;
	size_t len = 0, i;
	int ret, maxid = -1;

	*out = NULL;
	*shared = false;
	ret = layout_lcores(plan, host, nn_plan_eal_lcore_node(plan, host, node), &lc, shared);
	if (ret)
		goto out;
	ret = -ENOMEM;
	list = nn_cpuset_format_list(&lc);
	if (!list || append(&buf, &len, "-l ", list))
		goto out;
	if (plan->nhugepages) {
		for (i = 0; i < t->nnodes; i++)
			if (t->nodes[i].id > maxid)
				maxid = t->nodes[i].id;
		for (i = 0; i < plan->nhugepages; i++)
			if (plan->hugepages[i].node > maxid)
				maxid = plan->hugepages[i].node;
		if (append(&buf, &len, " --socket-mem", " "))
			goto out;
		for (int n = 0; n <= maxid; n++) {
			char num[32];
			long mb = 0;

			for (i = 0; i < plan->nhugepages; i++)
				if (plan->hugepages[i].node == n && n == node)
					mb = (long)(plan->hugepages[i].size_kb * (unsigned long)plan->hugepages[i].request / 1024);
			snprintf(num, sizeof(num), "%ld", mb);
			if (append(&buf, &len, n ? "," : "", num))
				goto out;
		}
	}
	/* With --dpdk-ports the ports planned for vfio-pci are the
	 * application's, each on its own node's instance; else the planned NICs. */
	for (i = 0; i < plan->nports; i++)
		if (plan->ports[i].node == node && append(&buf, &len, " -a ", plan->ports[i].pci))
			goto out;
	for (i = 0; i < plan->nnics && !plan->nports; i++) {
		bool seen = false;

		/* Ports of one PCI function (mlx4, cxgb4) share one -a. */
		for (size_t j = 0; j < i && plan->nics[i].pci && !seen; j++)
			seen = plan->nics[j].pci && !strcmp(plan->nics[j].pci, plan->nics[i].pci);
		if (plan->nics[i].pci && !seen &&
		    (plan->nics[i].numa_node == node ||
		     (plan->nics[i].numa_node < 0 && plan->nics[i].node == node)) &&
		    append(&buf, &len, " -a ", plan->nics[i].pci))
			goto out;
	}
	*out = buf;
	buf = NULL;
	ret = 0;
out:
	free(buf);
	free(list);
	nn_cpuset_free(&lc);
	return ret;
}
