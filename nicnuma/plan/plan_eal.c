// SPDX-License-Identifier: GPL-2.0-or-later
/* plan_eal.c - the DPDK EAL arguments that match a plan on one node
 *
 * A data plane started with these runs its lcores on the NIC's node, away
 * from the CPUs that take the kernel's queue IRQs and housekeeping, takes its
 * packet memory from that node's planned hugepages (DPDK socket ids are NUMA
 * node ids) and probes only that node's NICs.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* A node with an online CPU outside the plan's housekeeping (filter for
 * nn_topo_nearest_node). */
static bool node_has_lcores(const struct nn_topo *t, int node, void *arg)
{
	const struct nn_plan *plan = arg;
	const struct nn_node *n = nn_topo_node(t, node);
	struct nn_cpuset c = NN_CPUSET_INIT;
	bool ok;

	if (!n || nn_cpuset_copy(&c, &n->cpus))
		return false;
	if (!nn_cpuset_empty(&t->online))
		nn_cpuset_and(&c, &t->online);
	nn_cpuset_andnot(&c, &plan->housekeeping);
	ok = !nn_cpuset_empty(&c);
	nn_cpuset_free(&c);
	return ok;
}

int nn_plan_eal_lcore_node(const struct nn_plan *plan, const struct nn_host *host, int node)
{
	return nn_topo_nearest_node(&host->topo, node, 0, node_has_lcores, (void *)plan);
}

int nn_plan_eal_args(const struct nn_plan *plan, const struct nn_host *host, int node,
		     char **out, bool *shared)
{
	const struct nn_topo *t = &host->topo;
	struct nn_cpuset lc = NN_CPUSET_INIT, busy = NN_CPUSET_INIT;
	char *buf = NULL, *list = NULL;
	size_t len = 0, i;
	int idx, ret = -ENOMEM, maxid = -1;

	*out = NULL;
	*shared = false;
	idx = nn_topo_node_index(t, nn_plan_eal_lcore_node(plan, host, node));
	if (idx < 0)
		return -ENOENT;
	if (nn_cpuset_copy(&lc, &t->nodes[idx].cpus))
		goto out;
	if (!nn_cpuset_empty(&t->online))
		nn_cpuset_and(&lc, &t->online);
	nn_cpuset_andnot(&lc, &plan->housekeeping);
	if (nn_cpuset_empty(&lc)) {
		ret = -ENOENT;
		goto out;
	}
	for (i = 0; i < plan->nirqs; i++)
		if (nn_cpuset_or(&busy, &plan->irqs[i].cpus))
			goto out;
	if (nn_cpuset_intersects(&lc, &busy)) {
		struct nn_cpuset free_lc = NN_CPUSET_INIT;

		if (nn_cpuset_copy(&free_lc, &lc))
			goto out;
		nn_cpuset_andnot(&free_lc, &busy);
		if (nn_cpuset_empty(&free_lc)) {
			*shared = true;	/* no free CPU: share with the IRQs rather than leave the node */
			nn_cpuset_free(&free_lc);
		} else {
			nn_cpuset_free(&lc);
			lc = free_lc;
		}
	}
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
	for (i = 0; i < plan->nnics; i++) {
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
	nn_cpuset_free(&busy);
	return ret;
}
