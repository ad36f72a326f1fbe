// SPDX-License-Identifier: GPL-2.0-or-later
/* plan_print.c - a plan as "nicnuma plan" and "nicnuma check" print it, and the
 * profiles as "plan --profile list" does (table and JSON through core/print.c) */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "nicnuma/core/ctx.h"
#include "nicnuma/core/print.h"
#include "boot/boot_print.h"
#include "plan.h"

static const struct nn_irq *host_irq(const struct nn_host *h, const char *nic, int irq)
{
	const struct nn_nic *n = nn_nic_find(h->nics, h->nnics, nic);
	size_t i;

	for (i = 0; n && i < n->nirqs; i++)
		if (n->irqs[i].irq == irq)
			return &n->irqs[i];
	return NULL;
}

static char *list_or(const struct nn_cpuset *s, const char *empty)
{
	char *l = nn_cpuset_format_list(s);

	if (l && !*l) {
		free(l);
		l = strdup(empty);
	}
	return l;
}

static void print_nics(struct nn_out *o, const struct nn_plan *p)
{
	size_t i;

	nn_printf(o, "%-16s %-13s %-9s %-6s %-20s %s\n", "NIC", "PCI", "NUMA_NODE", "QUEUES",
		  "CPUS", "WHY");
	for (i = 0; i < p->nnics; i++) {
		const struct nn_plan_nic *n = &p->nics[i];
		char *l = list_or(&n->cpus, "-"), node[16];

		if (n->numa_node >= 0)
			snprintf(node, sizeof(node), "%d", n->numa_node);
		else
			snprintf(node, sizeof(node), "unknown");
		nn_printf(o, "%-16s %-13s %-9s %-6d %-20s %s\n", n->nic, n->pci ? n->pci : "-", node,
			  n->queues, l ? l : "?", n->reason ? n->reason : "");
		free(l);
	}
}

static void print_irqs(struct nn_out *o, const struct nn_plan *p, const struct nn_host *h)
{
	size_t i;
	int wc = 7, wp = 7;

	for (i = 0; i < p->nirqs; i++) {
		const struct nn_irq *cur = host_irq(h, p->irqs[i].nic, p->irqs[i].irq);
		char *a = cur && cur->has_affinity ? nn_cpuset_format_list(&cur->affinity) : NULL;
		char *b = nn_cpuset_format_list(&p->irqs[i].cpus);

		if (a && (int)strlen(a) > wc)
			wc = (int)strlen(a);
		if (b && (int)strlen(b) > wp)
			wp = (int)strlen(b);
		free(a);
		free(b);
	}
	nn_printf(o, "\n%-6s %-16s %-5s %-4s %-*s    %-*s  %s\n", "IRQ", "NIC", "QUEUE", "DIR",
		  wc, "CURRENT", wp, "PLANNED", "REASON");
	for (i = 0; i < p->nirqs; i++) {
		const struct nn_plan_irq *q = &p->irqs[i];
		const struct nn_irq *cur = host_irq(h, q->nic, q->irq);
		char *a = cur && cur->has_affinity ? nn_cpuset_format_list(&cur->affinity) : NULL;
		char *b = nn_cpuset_format_list(&q->cpus), qs[16];
		const char *dir = nn_qdir_name(q->dir);
		bool same = cur && cur->has_affinity && nn_cpuset_equal(&cur->affinity, &q->cpus);

		if (q->queue >= 0)
			snprintf(qs, sizeof(qs), "%d", q->queue);
		else
			snprintf(qs, sizeof(qs), "-");
		nn_printf(o, "%-6d %-16s %-5s %-4s %-*s %s %-*s  %s\n", q->irq, q->nic, qs, dir ? dir : "-",
			  wc, a ? a : "?", same ? " = " : "-> ", wp, b ? b : "?", q->reason ? q->reason : "");
		free(a);
		free(b);
	}
}

/* One line per threaded NAPI's kernel thread. */
static void print_napi(struct nn_out *o, const struct nn_plan *p)
{
	size_t i;

	if (!p->nnapi_threads)
		return;
	nn_printf(o, "\nNAPI threads (with their IRQs)\n  %-16s %-10s %-8s %-16s %s\n", "NIC", "NAPI",
		  "PID", "THREAD", "CPUS");
	for (i = 0; i < p->nnapi_threads; i++) {
		const struct nn_plan_napi *t = &p->napi_threads[i];
		char *l = nn_cpuset_format_list(&t->cpus);

		nn_printf(o, "  %-16s %-10lld %-8d %-16s %s\n", t->nic, t->napi_id, t->pid, t->name,
			  l ? l : "?");
		free(l);
	}
}

/* One line per rx queue with RPS, then RFS's table; one per NAPI setting;
 * one per sysctl. */
static void print_rps_napi_conf(struct nn_out *o, const struct nn_plan *p)
{
	size_t i;

	if (p->nrps)
		nn_printf(o, "\nRPS/RFS (rx queue: rps_cpus, rps_flow_cnt)\n  %-16s %-6s %-12s %-9s %s\n",
			  "NIC", "QUEUE", "CPUS", "FLOW_CNT", "WHY");
	for (i = 0; i < p->nrps; i++) {
		const struct nn_plan_rps *r = &p->rps[i];
		char *l = nn_cpuset_format_list(&r->cpus);

		char fc[24];

		if (r->flow_cnt >= 0)
			snprintf(fc, sizeof(fc), "%ld", r->flow_cnt);
		else
			snprintf(fc, sizeof(fc), "as is");
		nn_printf(o, "  %-16s %-6d %-12s %-9s %s\n", r->nic, r->queue,
			  !l ? "?" : *l ? l : "off", fc, r->reason ? r->reason : "");
		free(l);
	}
	if (p->rps_sock_flow_entries > 0)
		nn_printf(o, "  rps_sock_flow_entries: at least %ld\n", p->rps_sock_flow_entries);
	if (p->nnapi_conf)
		nn_printf(o, "\nNAPI settings\n  %-16s %-10s %-20s %-12s %s\n", "NIC", "NAPI", "SETTING",
			  "VALUE", "WHY");
	for (i = 0; i < p->nnapi_conf; i++) {
		const struct nn_plan_napi_conf *c = &p->napi_conf[i];
		char id[24];

		if (c->napi_id > 0)
			snprintf(id, sizeof(id), "%lld", c->napi_id);
		else
			snprintf(id, sizeof(id), "device");
		nn_printf(o, "  %-16s %-10s %-20s %-12lld %s\n", c->nic, id, nn_napi_attr_name(c->attr),
			  c->value, c->reason ? c->reason : "");
	}
	if (p->nsysctls)
		nn_printf(o, "\nsysctls\n  %-28s %-12s %s\n", "NAME", "VALUE", "WHY");
	for (i = 0; i < p->nsysctls; i++)
		nn_printf(o, "  %-28s %-12lld %s\n", nn_busy_name(p->sysctls[i].which), p->sysctls[i].value,
			  p->sysctls[i].reason ? p->sysctls[i].reason : "");
}

/* One line per coalescing or ring value a profile sets (JSON "ethtool"). */
static void print_eth(struct nn_out *o, const struct nn_plan *p)
{
	size_t i;

	if (p->neth)
		nn_printf(o, "\ncoalescing and rings (ethtool -C, -G)\n  %-16s %-12s %-12s %s\n", "NIC",
			  "SETTING", "VALUE", "WHY");
	for (i = 0; i < p->neth; i++)
		nn_printf(o, "  %-16s %-12s %-12lld %s\n", p->eth[i].nic, nn_eth_setting_name(p->eth[i].setting),
			  p->eth[i].value, p->eth[i].reason ? p->eth[i].reason : "");
}

/* One line per NIC (eight queues a line): "tx-0:29 tx-1:30 ...". */
static void print_xps(struct nn_out *o, const struct nn_plan *p)
{
	size_t i, col = 0;

	if (!p->nxps)
		return;
	nn_printf(o, "\nXPS (tx queue:CPUs)");
	for (i = 0; i < p->nxps; i++) {
		char *l = nn_cpuset_format_list(&p->xps[i].cpus);

		if (!i || strcmp(p->xps[i].nic, p->xps[i - 1].nic)) {
			nn_printf(o, "\n  %-16s", p->xps[i].nic);
			col = 0;
		} else if (col == 8) {
			nn_printf(o, "\n  %-16s", "");
			col = 0;
		}
		nn_printf(o, " tx-%d:%s", p->xps[i].queue, l ? l : "?");
		col++;
		free(l);
	}
	nn_printf(o, "\n");
}

static void print_channels_hugepages(struct nn_out *o, const struct nn_plan *p)
{
	size_t i;

	if (p->nchannels)
		nn_printf(o, "\nchannels (combined)\n");
	for (i = 0; i < p->nchannels; i++) {
		if (p->channels[i].current >= 0)
			nn_printf(o, "  %-16s %d -> %d\n", p->channels[i].nic, p->channels[i].current,
				  p->channels[i].target);
		else
			nn_printf(o, "  %-16s ? -> %d\n", p->channels[i].nic, p->channels[i].target);
	}
	if (p->nrss)
		nn_printf(o, "\nrss (indirection table)\n");
	for (i = 0; i < p->nrss; i++) {
		const struct nn_plan_rss *r = &p->rss[i];
		size_t k;

		nn_printf(o, "  %-16s ", r->nic);
		if (r->table_size > 0)
			nn_printf(o, "%d entries", r->table_size);
		else
			nn_printf(o, "live size");
		nn_printf(o, " over queues ");
		for (k = 0; k < r->nqueues; k++)
			nn_printf(o, "%s%d", k ? "," : "", r->queues[k]);
		if (r->weights) {
			nn_printf(o, " weights ");
			for (k = 0; k < r->nqueues; k++)
				nn_printf(o, "%s%d", k ? "," : "", r->weights[k]);
		}
		nn_printf(o, "\n");
		for (k = 0; k < r->nreserved; k++) {
			unsigned int bit;
			const char *sep = "";

			nn_printf(o, "  %-16s note: queue %d left out, bound to ", "", r->reserved[k].queue);
			for (bit = 1; bit & NN_QBIND_ALL; bit <<= 1)
				if (r->reserved[k].bound & bit) {
					nn_printf(o, "%s%s", sep, bit == NN_QBIND_XSK ? "AF_XDP (xsk)" :
						  bit == NN_QBIND_IO_URING ? "io_uring zero-copy" :
						  "devmem (dmabuf)");
					sep = ", ";
				}
			nn_printf(o, "\n");
		}
	}
	if (p->nhugepages)
		nn_printf(o, "\nhugepages (per node)\n");
	for (i = 0; i < p->nhugepages; i++) {
		const struct nn_plan_hugepages *hp = &p->hugepages[i];
		char cur[32];

		if (hp->current >= 0)
			snprintf(cur, sizeof(cur), "%ld", hp->current);
		else
			snprintf(cur, sizeof(cur), "?");
		nn_printf(o, "  node %-3d %7lu kB pages: %s -> %ld (%lu MB asked for%s)\n", hp->node,
			  hp->size_kb, cur, hp->target, hp->size_kb * (unsigned long)hp->request / 1024,
			  hp->target > hp->request ? "; the pool already holds more and is kept" : "");
	}
}

/* EAL lines for each node that holds a planned NIC (a node whose NICs have unknown
 * locality is skipped: there is no right node to start DPDK on). */
static int print_eal(struct nn_ctx *ctx, const struct nn_plan *p, const struct nn_host *h)
{
	struct nn_out *o = &ctx->out;
	int *nodes = calloc(p->nnics ? p->nnics : 1, sizeof(int));
	size_t i, k, n = 0;

	if (!nodes)
		return -ENOMEM;
	for (i = 0; i < p->nnics; i++) {
		int node = p->nics[i].numa_node >= 0 ? p->nics[i].numa_node : p->nics[i].node;
		bool seen = false;

		if (node < 0)
			continue;
		for (k = 0; k < n && !seen; k++)
			seen = nodes[k] == node;
		if (!seen) {
			for (k = n; k > 0 && nodes[k - 1] > node; k--)
				nodes[k] = nodes[k - 1];
			nodes[k] = node;
			n++;
		}
	}
	nn_open_array(o, "eal");
	if (n)
		nn_printf(o, "\nDPDK EAL arguments\n");
	for (i = 0; i < n; i++) {
		char *args = NULL;
		bool shared = false;
		int r = nn_plan_eal_args(p, h, nodes[i], &args, &shared);

		if (r == -ENOMEM) {
			free(nodes);
			return r;
		}
		nn_open_object(o, NULL);
		nn_print_int(o, PRINT_JSON, "node", NULL, nodes[i]);
		if (r) {
			nn_print_null(o, PRINT_JSON, "args", NULL);
			nn_printf(o, "  node %d: none (no node has a CPU outside housekeeping)\n", nodes[i]);
			nn_warn(ctx, NULL, "node %d: no CPU outside housekeeping for DPDK lcores", nodes[i]);
		} else {
			int ln = nn_plan_eal_lcore_node(p, h, nodes[i]);

			nn_printf(o, "  node %d: ", nodes[i]);
			nn_print_string(o, PRINT_ANY, "args", "%s\n", args);
			nn_print_opt_int(o, PRINT_JSON, "lcore_node", NULL, ln, NULL);
			if (ln != nodes[i])
				nn_printf(o, "    (node %d has no CPU outside housekeeping: lcores on the nearest, node %d)\n",
					  nodes[i], ln);
			if (shared)
				nn_printf(o, "    (every other CPU of node %d takes queue IRQs: lcores share them)\n",
					  ln);
		}
		nn_print_bool(o, PRINT_JSON, "shared", NULL, shared);
		nn_close_object(o);
		free(args);
	}
	nn_close_array(o);
	free(nodes);
	return 0;
}

static void print_irqbalance(struct nn_out *o, const struct nn_plan *p, const struct nn_host *h)
{
	if (!p->irqbalance.running) {
		nn_printf(o, "\nirqbalance: not running\n");
		return;
	}
	switch (p->irqbalance.action) {
	case NN_IRQB_STOP:
		nn_printf(o, "\nirqbalance: running (pid %d); apply stops it%s\n", h->irqbalance.pid,
			  h->irqbalance.systemd ? " (systemctl disable --now)" : "");
		break;
	case NN_IRQB_BAN:
		nn_printf(o, "\nirqbalance: running (pid %d); apply keeps it but bans the planned IRQs\n",
			  h->irqbalance.pid);
		break;
	case NN_IRQB_NONE:
		nn_printf(o, "\nirqbalance: running (pid %d) and left alone: it will move these IRQs again\n",
			  h->irqbalance.pid);
		break;
	}
}

/* --dpdk-ports: each port, its driver now -> planned, node and IOMMU group, why. */
static void print_ports(struct nn_out *o, const struct nn_plan *p)
{
	size_t i;

	if (p->nports)
		nn_printf(o, "\nports (driver now -> planned)\n");
	for (i = 0; i < p->nports; i++) {
		const struct nn_plan_port *x = &p->ports[i];
		char node[16] = "?", grp[16] = "none";

		if (x->node >= 0)
			snprintf(node, sizeof(node), "%d", x->node);
		if (x->iommu_group >= 0)
			snprintf(grp, sizeof(grp), "%d", x->iommu_group);
		nn_printf(o, "  %-14s %-10s %s -> %s%s  node %s  iommu group %s\n", x->pci,
			  x->ifname[0] ? x->ifname : "-", x->driver_now[0] ? x->driver_now : "(none)", x->driver,
			  x->noiommu ? " (no-IOMMU mode)" : "", node, grp);
		if (x->reason)
			nn_printf(o, "  %-14s %s\n", "", x->reason);
	}
}

int nn_plan_print(struct nn_ctx *ctx, const struct nn_plan *p, const struct nn_host *h)
{
	struct nn_out *o = &ctx->out;
	int boot_err = 0;

	if (o->json) {
		struct json_object *doc = nn_plan_to_json(p), *inner = NULL;

		if (!doc || !json_object_object_get_ex(doc, "plan", &inner)) {
			json_object_put(doc);
			return -ENOMEM;
		}
		nn_print_json(o, "plan", json_object_get(inner));
		json_object_put(doc);
	} else {
		char *hk = list_or(&p->housekeeping, "none");

		nn_printf(o, "plan: policy %s, housekeeping CPUs %s", nn_policy_name(p->policy), hk ? hk : "?");
		if (p->profile != NN_PROFILE_NONE)	/* what it sets: plan --profile list */
			nn_printf(o, ", profile %s", nn_profile_name(p->profile));
		nn_printf(o, "\n");
		free(hk);
		if (!nn_cpuset_empty(&p->isolated))
			nn_print_cpuset(o, PRINT_FP, NULL, "note: isolated CPUs %s left out (no queue IRQ, "
					"XPS mask or housekeeping role; --cpus naming them uses them)\n",
					&p->isolated);
		for (size_t i = 0; i < p->nclaims; i++) {
			char *cpus = nn_cpuset_format_list(&p->claims[i].cpus);

			nn_printf(o, "note: claimed CPUs %s left out (%s %s, owner %s)\n", cpus ? cpus : "?",
				  p->claims[i].source, p->claims[i].name, p->claims[i].owner);
			free(cpus);
		}
		if (p->dpdk_reason)
			nn_printf(o, "note: %s\n", p->dpdk_reason);
		if (!nn_cpuset_empty(&p->isolate))
			nn_print_cpuset(o, PRINT_FP, NULL, "note: --isolate CPUs %s kept for the application: no "
					"queue IRQ, XPS mask, NAPI thread or RPS CPU there\n", &p->isolate);
		nn_printf(o, "\n");
		print_nics(o, p);
		print_irqs(o, p, h);
		print_xps(o, p);
		print_napi(o, p);
		print_rps_napi_conf(o, p);
		print_eth(o, p);
		print_channels_hugepages(o, p);
		print_ports(o, p);
	}
	if (print_eal(ctx, p, h))
		return -ENOMEM;
	if (p->boot_mode != NN_BOOT_NONE) {
		struct nn_boot_report br;
		char mode[160];
		int err;

		nn_plan_boot_mode_text(p->boot_mode, p->boot_names, mode, sizeof(mode));
		err = nn_boot_print(o, &h->boot, mode, p->boot_args, p->nboot_args, p->boot_left, p->nboot_left, 0,
				    &br);
		if (err == -ENOMEM)
			return err;
		if (err)
			nn_err(ctx, "boot arguments: %s", br.error);
		boot_err = err;
	}
	if (!o->json) {
		size_t i;

		print_irqbalance(o, p, h);
		if (p->nwarnings)
			nn_printf(o, "\nwarnings:\n");
		for (i = 0; i < p->nwarnings; i++)
			nn_printf(o, "  %s\n", p->warnings[i]);
		if (p->nnotes)
			nn_printf(o, "\nnotes:\n");
		for (i = 0; i < p->nnotes; i++)
			nn_printf(o, "  %s\n", p->notes[i]);
	}
	return boot_err;
}

void nn_plan_print_roles(struct nn_out *o, const struct nn_host *host, const struct nn_plan *plan)
{
	size_t i, j, k, unknown = 0, unplaced = 0;

	for (i = 0; i < plan->nnics; i++) {
		const struct nn_nic *nic = nn_nic_find(host->nics, host->nnics, plan->nics[i].nic);

		for (j = 0; nic && j < nic->nirqs; j++) {
			bool found = false;

			for (k = 0; k < plan->nirqs && !found; k++)
				found = plan->irqs[k].irq == nic->irqs[j].irq;
			unplaced += !found;
		}
		if (nic)
			unknown += nn_nic_irqs_unknown_role(nic);
	}
	nn_print_uint(o, PRINT_JSON, "unknown_role", NULL, unknown);
	nn_print_uint(o, PRINT_JSON, "unplaced", NULL, unplaced);
	if (unknown)
		nn_printf(o, "%zu IRQ%s of no recognised role, placed like queue IRQs (see nicnuma nics)\n",
			  unknown, unknown == 1 ? "" : "s");
	if (unplaced)
		nn_printf(o, "%zu IRQ%s of the planned NICs not in the plan\n", unplaced,
			  unplaced == 1 ? "" : "s");
}

/* The profiles in the order --profile's help names them, none (the
 * default) last: it sets nothing beyond the placement. */
void nn_profile_list_print(struct nn_out *o)
{
	static const enum nn_profile order[] = { NN_PROFILE_THROUGHPUT, NN_PROFILE_LATENCY, NN_PROFILE_DPDK,
						 NN_PROFILE_NONE };
	size_t i;

	nn_open_array(o, "profiles");
	for (i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		const struct nn_profile_row *r = nn_profile_table(order[i]);

		nn_open_object(o, NULL);
		if (i)
			nn_printf(o, "\n");
		nn_print_string(o, PRINT_ANY, "name", "profile %s", nn_profile_name(order[i]));
		nn_print_bool(o, PRINT_JSON, "default", NULL, order[i] == NN_PROFILE_NONE);
		if (order[i] == NN_PROFILE_NONE)
			nn_printf(o, " (default): the placement alone; nothing else is set\n");
		else
			nn_printf(o, "\n  %-34s %-32s %s\n", "SETTING", "VALUE", "WHY");
		nn_open_array(o, "sets");
		for (; r->what; r++) {
			nn_open_object(o, NULL);
			nn_print_string(o, PRINT_ANY, "setting", "  %-34s", r->what);
			nn_print_string(o, PRINT_ANY, "value", " %-32s", r->value);
			nn_print_string(o, PRINT_ANY, "why", " %s\n", r->why);
			nn_close_object(o);
		}
		nn_close_array(o);
		nn_close_object(o);
	}
	nn_close_array(o);
	nn_printf(o, "\nAn option given beside --profile wins over the profile's value.\n");
}
