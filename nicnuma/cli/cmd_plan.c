// SPDX-License-Identifier: GPL-2.0-or-later
/* cmd_plan.c - "nicnuma plan": where every queue IRQ, XPS mask and hugepage should go */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
	.groups = NN_GROUP_PLAN | NN_GROUP_PLAN_IRQB | NN_GROUP_RSS | NN_GROUP_NET | NN_GROUP_BOOT,
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
"--profile list prints each profile, each value it sets and why, and plans\n"
"nothing; --json: {\"profiles\":[{\"name\",\"default\",\"sets\":[{\"setting\",\"value\",\n"
"\"why\"}]}]}.\n"
"\n"
"With --profile dpdk or latency, or --boot-args, the kernel's boot arguments\n"
"follow: each with its reason, running (/proc/cmdline), configured for the next\n"
"boot and planned, and the change apply makes (added, changed, removed,\n"
"unchanged, conflict); \"boot\" in JSON (docs/boot.md).\n"
"\n"
"With --json: {\"plan\":{\"shape\",\"policy\",\"housekeeping\",\"isolated\",\"nics\",\"irqs\",\n"
"\"xps\",\"channels\",\"rss\",\"hugepages\",\"irqbalance\",\"warnings\",\"notes\"},\"eal\":[{\"node\",\"args\",\n"
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
"  nicnuma plan --profile list                  # what each profile sets and why\n"
"\n"
"Exit status: 0 clean or only notes (facts of the host no option changes:\n"
"unknown locality, values only a live host answers), 1 planned with warnings\n"
"(spill, queues sharing CPUs, a PCIe link down-trained or narrower than its ports,\n"
"discovery problems), 2 error (bad option value, unknown NIC, no usable CPU,\n"
"host not readable, a kernel line holding a boot argument nicnuma cannot\n"
"parse).\n",
};

int nn_cmd_plan(struct nn_ctx *ctx, int argc, char **argv)
{
	struct nn_out *o = &ctx->out;
	struct nn_plan_opts po;
	struct nn_plan p;
	struct nn_host h;
	struct nn_optstate st = NN_OPTSTATE(argc, argv);
	int c, err, status = NN_EXIT_ERROR;

	memset(&po, 0, sizeof(po));
	po.boot_cmd = true;
	st.plan = &po;
	while ((c = nn_opt_next(ctx, &nn_desc_plan, &st)) > 0)
		;	/* plan takes only the plan options */
	if (c < 0) {
		nn_plan_opts_free(&po);
		return nn_opt_exit(c);
	}
	if (po.profile_list) {	/* the profiles' tables: no host needed */
		nn_open_object(o, NULL);
		nn_profile_list_print(o);
		nn_plan_opts_free(&po);
		return NN_EXIT_OK;
	}
	/* a plan shows current affinities, never effective ones */
	err = nn_host_discover_flags(ctx, &h, NN_NICS_NO_EFFECTIVE, 0);
	nn_open_object(o, NULL);
	if (err) {
		nn_print_warnings(ctx);
		nn_host_discover_failed(ctx, "plan", err);
		nn_plan_opts_free(&po);
		return NN_EXIT_ERROR;
	}
	/* No placement helps a port its PCIe link cannot carry: say so. */
	nn_pcie_warn(ctx, &h);
	if (nn_plan_get(ctx, &h, NULL, &po, &p))
		goto out;
	err = nn_plan_print(ctx, &p, &h);
	if (err == -ENOMEM) {
		nn_err(ctx, "plan: out of memory");
		goto out_plan;
	}
	nn_print_warnings(ctx);
	/* a kernel line nicnuma cannot parse: the rest printed, exit 2 */
	status = nn_cli_status(ctx, err);
	if (status == NN_EXIT_OK && p.nwarnings)
		status = NN_EXIT_WARN;
out_plan:
	nn_plan_free(&p);
out:
	nn_host_free(&h);
	nn_plan_opts_free(&po);
	return status;
}
