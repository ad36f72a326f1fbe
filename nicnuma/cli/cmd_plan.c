// SPDX-License-Identifier: GPL-2.0-or-later
/* cmd_plan.c - "nicnuma plan": where every queue IRQ, XPS mask and hugepage should go */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "cli.h"
#include "nicnuma/discover/pcie.h"
#include "plan_opts.h"

const struct nn_cmd_desc nn_desc_plan = {
	.name = "plan",
	.stray = "NICs go in --nics",
	.usage = "nicnuma [--root DIR] [--json] plan [OPTIONS]",
	.intro =
"Plan where each NIC's queue IRQs, XPS masks, channel counts and hugepages\n"
"should go on this host, and print it; nothing is changed. `nicnuma apply`\n"
"performs a plan, `nicnuma script` renders it as a standalone shell script.\n"
"\n"
"Rules, in order:\n"
"  - a NIC's queue IRQs go to CPUs of its own NUMA node: one queue per physical\n"
"    core first (filling one L3 group before the next), SMT siblings only when\n"
"    cores run out, then queues share CPUs; rx and tx IRQs of one queue index\n"
"    (virtio input.N/output.N) share a CPU;\n"
"  - isolated CPUs (cpu/isolated, nohz_full, isolcpus=; see nicnuma topo) take\n"
"    no queue IRQ, XPS mask or housekeeping role unless --cpus names them;\n"
"    the plan lists the ones it left out (\"isolated\"; a note in the table);\n"
"  - housekeeping CPUs (default: the first non-isolated core of each node and\n"
"    its siblings) take no queue IRQ; the NIC's other IRQs (config, async,\n"
"    misc) go there;\n"
"  - which IRQ serves which queue: the kernel's netdev netlink (napi-get's irq,\n"
"    Linux 6.8+) where the driver links NAPIs to IRQs, else the table of the\n"
"    drivers' IRQ name formats (docs/discovery.md); an IRQ neither knows (a\n"
"    driver nicnuma has no row for) is never moved to housekeeping: it is\n"
"    placed like one more queue IRQ of its NIC, after the recognised queues\n"
"    (role \"unknown\" in --json), with a warning naming each such IRQ;\n"
"  - NICs on the same node get disjoint cores while there are enough, otherwise\n"
"    a fair share each (a NIC that needs fewer keeps what it needs); a NIC's\n"
"    need is its active queue count, so extra completion vectors (mlx5 asks\n"
"    for one per CPU) wrap over its share instead of widening it;\n"
"  - a node without CPUs (memory-only, CXL) or with fewer cores than queues\n"
"    (NPS/SNC sub-NUMA nodes) spills to the nearest nodes by the distance\n"
"    matrix, into cores those nodes' own NICs leave free; for too few cores\n"
"    only near nodes (distance below twice the local one, i.e. the same\n"
"    package) are used: an SMT sibling costs less than the other socket.\n"
"    Every spill is a warning and named in the IRQ's reason;\n"
"  - numa_node -1: the device's local_cpulist when it is narrower than all\n"
"    CPUs, otherwise the queues are spread over all nodes with the warning\n"
"    'unknown locality';\n"
"  - XPS: each tx queue's xps_cpus is the CPU of its queue IRQ (NICs without\n"
"    per-queue IRQs, such as veth: a spread over the CPUs planned for them);\n"
"    single-queue devices have no xps_cpus and get none;\n"
"  - --rss local: the RSS indirection table (context 0) spreads over the\n"
"    queues (below the rx ring count) whose rx IRQs are all planned on the\n"
"    NIC's node - the nearest node its queues spilled to when its own has no\n"
"    usable CPU - round-robin (queue i % n); local:cpu weights each queue by\n"
"    its CPU share (sum of 1/k over its CPUs, k the local queues on a CPU) in\n"
"    contiguous blocks like ethtool -X weight. Rx queues bound to AF_XDP,\n"
"    io_uring zero-copy or devmem (netdev genl queue-get) are left out, with\n"
"    a note (\"reserved\"). No local queue, a driver\n"
"    without RSS, or a NIC not placed by node (spread, remote, unknown\n"
"    locality): no table and a warning. Under --root the table size is\n"
"    unknown (null): apply and check use the live size.\n",
	.groups = NN_GROUP_PLAN | NN_GROUP_PLAN_IRQB | NN_GROUP_RSS,
	.outro =
"Output: per NIC its node and chosen CPUs; per IRQ the current affinity and\n"
"the planned CPUs with the reason; XPS; hugepages (current -> target); for each\n"
"NIC node the DPDK EAL arguments that match the plan (-l lcores of the node\n"
"free of queue IRQs and housekeeping, --socket-mem MB per node, -a the node's\n"
"NIC PCI addresses); with --rss each NIC's table (size, queues, weights);\n"
"what happens to irqbalance; warnings. \"rss\" entries: {\"nic\",\"table_size\"\n"
"(null: the live size), \"queues\", \"weights\" (local:cpu only), \"reserved\" (the\n"
"bound queues left out: [{\"queue\",\"bound\"}])}.\n"
"\n"
"With --json: {\"plan\":{\"shape\",\"policy\",\"housekeeping\",\"isolated\",\"nics\",\"irqs\",\n"
"\"xps\",\"channels\",\"rss\",\"hugepages\",\"irqbalance\",\"warnings\"},\"eal\":[{\"node\",\"args\",\n"
"\"lcore_node\",\"shared\"}],\"warnings\":[..]}. Save it and give it to `nicnuma apply --plan\n"
"FILE` or `nicnuma script --plan FILE`; a plan made for another host shape\n"
"(CPU count, node count, NIC PCI addresses, IRQ numbers) is refused there.\n"
"\n"
"Examples:\n"
"  nicnuma plan\n"
"  nicnuma plan --nics eth2,eth3 --reserve 0,56 --hugepages 1G:8\n"
"  nicnuma plan --json > p.json && nicnuma apply --plan p.json\n"
"  nicnuma plan --policy remote --nics eth2     # a deliberate mismatch\n"
"  nicnuma plan --rss local --nics eth2         # RSS to node-local queues\n"
"\n"
"Exit status: 0 clean, 1 planned with warnings (unknown locality, spill,\n"
"queues sharing CPUs, a PCIe link down-trained or narrower than its ports,\n"
"discovery problems), 2 error (bad option value, unknown NIC, no usable CPU,\n"
"host not readable).\n",
};

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

int nn_cmd_plan(struct nn_ctx *ctx, int argc, char **argv)
{
	struct nn_out *o = &ctx->out;
	struct nn_plan_opts po;
	struct nn_plan p;
	struct nn_host h;
	struct nn_optstate st = NN_OPTSTATE(argc, argv);
	int c, err, status = NN_EXIT_ERROR;

	memset(&po, 0, sizeof(po));
	st.plan = &po;
	while ((c = nn_opt_next(ctx, &nn_desc_plan, &st)) > 0)
		;	/* plan takes only the plan options */
	if (c < 0) {
		nn_plan_opts_free(&po);
		return nn_opt_exit(c);
	}
	/* a plan shows current affinities, never effective ones */
	err = nn_host_discover_flags(ctx, &h, NN_NICS_NO_EFFECTIVE);
	nn_open_object(o, NULL);
	if (err) {
		nn_print_warnings(ctx);
		nn_err(ctx, "plan: cannot discover the host under %s: %s", ctx->root.path, strerror(-err));
		nn_plan_opts_free(&po);
		return NN_EXIT_ERROR;
	}
	/* No placement helps a port its PCIe link cannot carry: say so. */
	nn_pcie_warn(ctx, &h);
	if (nn_cli_get_plan(ctx, &h, NULL, &po, &p))
		goto out;
	if (o->json) {
		struct json_object *doc = nn_plan_to_json(&p), *inner = NULL;

		if (!doc || !json_object_object_get_ex(doc, "plan", &inner)) {
			json_object_put(doc);
			nn_err(ctx, "plan: out of memory");
			goto out_plan;
		}
		nn_print_json(o, "plan", json_object_get(inner));
		json_object_put(doc);
	} else {
		char *hk = list_or(&p.housekeeping, "none");

		nn_printf(o, "plan: policy %s, housekeeping CPUs %s\n", nn_policy_name(p.policy),
			  hk ? hk : "?");
		free(hk);
		if (!nn_cpuset_empty(&p.isolated))
			nn_print_cpuset(o, PRINT_FP, NULL, "note: isolated CPUs %s left out (no queue IRQ, "
					"XPS mask or housekeeping role; --cpus naming them uses them)\n",
					&p.isolated);
		nn_printf(o, "\n");
		print_nics(o, &p);
		print_irqs(o, &p, &h);
		print_xps(o, &p);
		print_napi(o, &p);
		print_channels_hugepages(o, &p);
	}
	if (print_eal(ctx, &p, &h)) {
		nn_err(ctx, "plan: out of memory");
		goto out_plan;
	}
	if (!o->json) {
		size_t i;

		print_irqbalance(o, &p, &h);
		if (p.nwarnings)
			nn_printf(o, "\nwarnings:\n");
		for (i = 0; i < p.nwarnings; i++)
			nn_printf(o, "  %s\n", p.warnings[i]);
	}
	nn_print_warnings(ctx);
	status = nn_cli_status(ctx, 0);
	if (status == NN_EXIT_OK && p.nwarnings)
		status = NN_EXIT_WARN;
out_plan:
	nn_plan_free(&p);
out:
	nn_host_free(&h);
	nn_plan_opts_free(&po);
	return status;
}
