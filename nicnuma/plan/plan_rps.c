// SPDX-License-Identifier: GPL-2.0-or-later
/* plan_rps.c - the RPS/RFS plan (--rps auto) and its names
 *
 * The rule (docs/rps.md has the sources):
 *  - only where the NIC has fewer rx queues than usable CPUs on its node
 *    (the planner's allowed set: online, within --cpus, not isolated or
 *    claimed; housekeeping counted): where the queues cover the node's
 *    CPUs, RSS spreads the flows already and RPS only adds IPIs
 *    (scaling.rst: "RPS is probably redundant and unnecessary");
 *  - rps_cpus: the node's usable CPUs that take none of this NIC's queue
 *    interrupts and are not housekeeping, as perftune's sq_split leaves the
 *    IRQ CPUs out (scaling.rst: "it might be wise to exclude the
 *    interrupting CPU from the map since that already performs much work");
 *    when that leaves none, the node's housekeeping CPUs that take none of
 *    them (a two-CPU VM: the other CPU); none left, no RPS;
 *  - RFS: rps_flow_cnt = 32768 / rx queues (a power of two) on each queue,
 *    and rps_sock_flow_entries at least 32768 (scaling.rst's figures);
 *  - never off the NIC's node: a NIC of unknown locality on a host of more
 *    than one node gets none.
 *
 * Keep-off (every profile, --rps off too: nn__plan_emit_rps_keep_off): an rx
 * queue's rps_cpus found holding a CPU that takes no NIC work - a DPDK lcore
 * of --profile dpdk, an isolated CPU the plan leaves out, a claimed CPU -
 * is planned as that mask without those CPUs, whoever set it: RPS work is
 * NIC work as much as a queue IRQ is (issue 27: NIC work including RPS
 * leaves claimed CPUs; issue 28: never on isolated or claimed CPUs, and
 * dpdk keeps every RPS CPU off the lcores). An empty result is RPS off for
 * that queue (0), a planned value like any other. rps_flow_cnt is left as it
 * is (flow_cnt -1). A mask that touches none of them is not planned at all,
 * so a host without such a mask plans as before.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicnuma/core/strbuf.h"
#include "nicnuma/plan/plan.h"
#include "nicnuma/plan/plan_internal.h"
#include "nicnuma/plan/plan_state.h"
#include "irq/rps.h"

const char *nn_rps_policy_name(enum nn_rps_policy p)
{
	return p == NN_RPS_AUTO ? "auto" : "off";
}

int nn_rps_policy_parse(const char *s, enum nn_rps_policy *p)
{
	if (!strcmp(s, "off"))
		*p = NN_RPS_OFF;
	else if (!strcmp(s, "auto"))
		*p = NN_RPS_AUTO;
	else
		return -EINVAL;
	return 0;
}

/* The CPUs the plan gives @ns's queue IRQs (plan->irqs[@irq0..]). */
static int irq_cpus(const struct nn_plan *plan, const char *nic, size_t irq0, struct nn_cpuset *out)
{
	size_t j;

	for (j = irq0; j < plan->nirqs; j++)
		if (plan->irqs[j].queue >= 0 && !strcmp(plan->irqs[j].nic, nic) &&
		    nn_cpuset_or(out, &plan->irqs[j].cpus))
			return -ENOMEM;
	return 0;
}

static int add_entry(struct nn_plan *plan, const char *nic, int queue, const struct nn_cpuset *cpus,
		     long flow_cnt, const char *reason)
{
	struct nn_plan_rps *r;
	void *p = realloc(plan->rps, (plan->nrps + 1) * sizeof(*plan->rps));

	if (!p)
		return -ENOMEM;
	plan->rps = p;
	r = &plan->rps[plan->nrps];
	memset(r, 0, sizeof(*r));
	plan->nrps++;
	r->nic = strdup(nic);
	r->reason = strdup(reason);
	r->queue = queue;
	r->flow_cnt = flow_cnt;
	if (!r->nic || !r->reason || nn_cpuset_copy(&r->cpus, cpus))
		return -ENOMEM;
	return 0;
}

int nn__plan_emit_rps(struct plan_state *st, struct nic_state *ns, size_t irq0)
{
	const struct nn_nic *n = ns->nic;
	struct nn_cpuset local = NN_CPUSET_INIT, irqs = NN_CPUSET_INIT, to = NN_CPUSET_INIT;
	const struct nn_node *node;
	char reason[256], *list = NULL;
	bool assumed = false, hk = false;
	unsigned int nlocal;
	int home, q, ret = -ENOMEM;
	long flows;

	if (n->rx_queues <= 0)
		return 0;	/* no rx-N directories to write */
	home = nn_nic_home_node(st->topo, n, &assumed);
	node = home >= 0 ? nn_topo_node(st->topo, home) : NULL;
	if (!node) {
		if (nn__plan_note(st, "%s: rps: locality unknown: no RPS (it would steer off the NIC's node)", n->name))
			return -ENOMEM;
		return 0;
	}
	if (nn_cpuset_copy(&local, &node->cpus))
		goto out;
	nn_cpuset_and(&local, &st->allowed);
	nlocal = nn_cpuset_count(&local);
	ret = 0;
	if ((unsigned int)n->rx_queues >= nlocal)
		goto out;	/* the queues cover the node's CPUs: RSS spreads already */
	ret = -ENOMEM;
	if (irq_cpus(st->plan, n->name, irq0, &irqs) || nn_cpuset_copy(&to, &local))
		goto out;
	nn_cpuset_andnot(&to, &irqs);
	nn_cpuset_andnot(&to, &st->hk);
	if (nn_cpuset_empty(&to)) {
		if (nn_cpuset_copy(&to, &local))
			goto out;
		nn_cpuset_andnot(&to, &irqs);
		hk = true;
	}
	ret = 0;
	if (nn_cpuset_empty(&to))
		goto out;	/* every usable CPU takes its interrupts: nothing to steer to */
	ret = -ENOMEM;
	list = nn_cpuset_format_list(&to);
	if (!list)
		goto out;
	flows = nn_rfs_round(NN_RFS_SOCK_FLOW_ENTRIES / n->rx_queues);
	snprintf(reason, sizeof(reason), "%d rx queue%s < %u usable CPUs on node %d%s: to %s %s%s",
		 n->rx_queues, n->rx_queues == 1 ? "" : "s", nlocal, home, assumed ? " (assumed)" : "",
		 hk ? "housekeeping CPUs" : "CPUs", list,
		 hk ? " (no other CPU is free of its IRQs)" : ", free of its IRQs");
	for (q = 0; q < n->rx_queues; q++)
		if (add_entry(st->plan, n->name, q, &to, flows, reason))
			goto out;
	if (st->host->rps_sock_flow_entries < 0) {
		/* a child network namespace: the table is the initial one's to size */
		if (!st->rfs_warned &&
		    nn__plan_add_note(st->plan, "RFS: %s does not exist here (not the initial network "
					 "namespace): rps_flow_cnt is planned, the global flow table is "
					 "left to the initial namespace", NN_RPS_SOCK_FLOW_PATH))
			goto out;
		st->rfs_warned = true;
	} else if (st->plan->rps_sock_flow_entries < NN_RFS_SOCK_FLOW_ENTRIES) {
		st->plan->rps_sock_flow_entries = NN_RFS_SOCK_FLOW_ENTRIES;
	}
	ret = 0;
out:
	free(list);
	nn_cpuset_free(&local);
	nn_cpuset_free(&irqs);
	nn_cpuset_free(&to);
	return ret;
}

/* "DPDK lcores 2-3, isolated CPUs 8, claimed CPUs 9" for the CPUs of @hit in
 * each set, malloc'd in *@out. 0 or -ENOMEM. */
static int name_taken(const struct nn_plan *plan, const struct nn_cpuset *hit, char **out)
{
	const struct {
		const char *what;
		const struct nn_cpuset *set;
	} sets[] = {
		{ "DPDK lcores", &plan->dpdk_lcores },
		{ "isolated CPUs", &plan->isolated },
		{ "claimed CPUs", &plan->claimed },
	};
	struct nn_sb sb = NN_SB_INIT;
	bool first = true;
	size_t i;

	for (i = 0; i < sizeof(sets) / sizeof(sets[0]); i++) {
		struct nn_cpuset x = NN_CPUSET_INIT;
		char *l = NULL;

		if (nn_cpuset_copy(&x, hit)) {
			nn_sb_free(&sb);
			return -ENOMEM;
		}
		nn_cpuset_and(&x, sets[i].set);
		if (!nn_cpuset_empty(&x) && !(l = nn_cpuset_format_list(&x))) {
			nn_cpuset_free(&x);
			nn_sb_free(&sb);
			return -ENOMEM;
		}
		nn_cpuset_free(&x);
		if (!l)
			continue;
		nn_sb_printf(&sb, "%s%s %s", first ? "" : ", ", sets[i].what, l);
		first = false;
		free(l);
	}
	return nn_sb_steal(&sb, out);
}

static bool has_entry(const struct nn_plan *plan, const char *nic, int queue)
{
	size_t i;

	for (i = 0; i < plan->nrps; i++)
		if (plan->rps[i].queue == queue && !strcmp(plan->rps[i].nic, nic))
			return true;
	return false;
}

int nn__plan_emit_rps_keep_off(struct plan_state *st, struct nic_state *ns)
{
	const struct nn_nic *n = ns->nic;
	struct nn_plan *plan = st->plan;
	struct nn_cpuset taken = NN_CPUSET_INIT, hit = NN_CPUSET_INIT, to = NN_CPUSET_INIT;
	char reason[320], *names = NULL, *found = NULL, *left = NULL;
	int q, ret = -ENOMEM;

	if (nn_cpuset_copy(&taken, &plan->dpdk_lcores) || nn_cpuset_or(&taken, &plan->isolated) ||
	    nn_cpuset_or(&taken, &plan->claimed))
		goto out;
	ret = 0;
	if (nn_cpuset_empty(&taken))
		goto out;
	for (q = 0; q < n->rx_queues; q++) {
		const struct nn_cpuset *cur = nn_nic_rps_found(n, q);

		if (!cur || !nn_cpuset_intersects(cur, &taken) || has_entry(plan, n->name, q))
			continue;
		ret = -ENOMEM;
		if (nn_cpuset_copy(&hit, cur) || nn_cpuset_copy(&to, cur))
			goto out;
		nn_cpuset_and(&hit, &taken);
		nn_cpuset_andnot(&to, &taken);
		free(found);
		free(left);
		free(names);
		names = NULL;
		found = nn_cpuset_format_list(cur);
		left = nn_cpuset_format_list(&to);
		if (!found || !left || name_taken(plan, &hit, &names))
			goto out;
		if (nn_cpuset_empty(&to))
			snprintf(reason, sizeof(reason), "rps_cpus found %s: %s take no NIC work: RPS off for "
				 "this queue (rps_flow_cnt left as it is)", found, names);
		else
			snprintf(reason, sizeof(reason), "rps_cpus found %s: %s take no NIC work: to %s "
				 "(rps_flow_cnt left as it is)", found, names, left);
		if (add_entry(plan, n->name, q, &to, -1, reason))
			goto out;
		ret = 0;
	}
out:
	free(found);
	free(left);
	free(names);
	nn_cpuset_free(&taken);
	nn_cpuset_free(&hit);
	nn_cpuset_free(&to);
	return ret;
}
