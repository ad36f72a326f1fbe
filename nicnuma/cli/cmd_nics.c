// SPDX-License-Identifier: GPL-2.0-or-later
/* cmd_nics.c - "nicnuma nics": every netdev, its locality, queues and queue IRQs */
#include <errno.h>
#include <string.h>

#include "cli.h"
#include "plan_opts.h"
#include "nicnuma/discover/nic_print.h"
#include "nicnuma/plan/plan.h"

enum { OPT_BRIEF = NN_OPT_OWN };

static const struct nn_opt opts[] = {
	{ "brief", 0, NN_ARG_NONE, NULL, "one line per device, no per-IRQ table (text output only)", OPT_BRIEF },
	{ 0 },
};

const struct nn_cmd_desc nn_desc_nics = {
	.name = "nics",
	.usage = "nicnuma [--root DIR] [--json] nics [--brief] [IFNAME...]",
	.intro =
"Show every network device in /sys/class/net (or only the IFNAMEs given): its\n"
"PCI address, driver, NUMA node and local CPUs, link speed, queue counts, and\n"
"each of its IRQs with the IRQ's name in /proc/interrupts, the queue it serves,\n"
"its smp_affinity_list and effective_affinity_list.\n"
"\n"
"NUMA node -1 is the kernel saying it does not know; the device's local_cpulist\n"
"then tells whether locality is really unknown (it spans every CPU) or still\n"
"narrower. Such devices are reported with 'unknown locality', never as node 0.\n"
"Each IRQ is judged where it fires (effective affinity, else its mask) against\n"
"the device's node and the default plan ('nicnuma plan'): 'local', 'spill' (off\n"
"the node, where the plan puts it: its node has too few cores or claims hold\n"
"them) or 'REMOTE' (off the node where the plan does not put it), the verdict\n"
"report, check and metrics give too.\n"
"Software devices (lo, veth, bridge, dummy, tun, ifb...) are marked virtual\n"
"with their kind and have no PCI address, driver or IRQs.\n"
"\n"
"Each PCI NIC's PCIe links, from its function up to the root port, are judged\n"
"against the speed of the ports they carry (the functions of one device share\n"
"its link; a switch's upstream link carries everything behind it): 'ok',\n"
"'down-trained: x8 of x16', 'link carries 126 Gb/s for 200 Gb/s of ports', or\n"
"'link unknown' where sysfs has no link files. virtio and other non-PCI\n"
"devices have none ('not a PCIe device'). plan and check warn about a bad one.\n"
"\n"
"On the live host the link list is also read over rtnetlink, and driver,\n"
"bus-info, channels and speed through the ethtool ioctl; any disagreement with\n"
"sysfs is a warning. Under --root nothing but files under DIR is read.\n",
	.opts = opts,
	.args = "[IFNAME...]",
	.outro =
"Global options --root DIR and --json go before or after the command. The JSON\n"
"document has \"nics\" (one object per device, with \"irqs\" and \"pcie\": see\n"
"docs/discovery.md), \"ports\" (the PCI functions on vfio-pci, which have no\n"
"netdev: \"pci\", \"driver\", \"node\", \"iommu_group\"; docs/ports.md),\n"
"\"irqbalance\" (whether it runs: it rewrites IRQ\n"
"affinities), \"warnings\" and, when there are any, \"notes\" (a down NIC's\n"
"vectors without IRQs yet, ports sharing a PCI function, a sub-function).\n"
"\n"
"Exit status: 0 clean (notes too), 1 printed with warnings (a missing or\n"
"malformed file, an IRQ of an up NIC without /proc/irq/N, sysfs and\n"
"netlink/ethtool disagreeing), 2 error (an unknown IFNAME, no CPU list, bad\n"
"option).\n",
};

/* The plan the IRQs' placement is judged against: this host's default plan.
 * Its discovery reads every CPU's files; what it finds wrong there is topo's
 * and plan's to say, not this listing's. */
static int default_plan(struct nn_ctx *ctx, struct nn_plan_opts *popts, struct nn_plan *plan)
{
	size_t nwarns = ctx->nwarns, nnotes = ctx->nnotes;
	struct nn_host full;
	int err;

	memset(plan, 0, sizeof(*plan));
	err = nn_host_discover(ctx, &full);
	if (!err) {
		err = nn_plan_opts_check(ctx, &full, popts);
		if (!err)
			err = nn_plan_make(&full, popts, plan);
		nn_host_free(&full);
	}
	nn_warnings_keep(ctx, nwarns, nnotes);
	return err;
}

int nn_cmd_nics(struct nn_ctx *ctx, int argc, char **argv)
{
	struct nn_optstate st = NN_OPTSTATE(argc, argv);
	struct nn_out *o = &ctx->out;
	struct nn_plan_opts popts = { 0 };
	struct nn_plan plan;
	struct nn_host h;
	bool brief = false, planned;
	int c, err, i, status = 0;

	while ((c = nn_opt_next(ctx, &nn_desc_nics, &st)) > 0) {
		switch (c) {
		case OPT_BRIEF:
			brief = true;
			break;
		}
	}
	if (c < 0)
		return nn_opt_exit(c);

	/* Per-CPU topology is not shown here: skip its files (topo shows them). */
	err = nn_host_discover_nics(ctx, &h);
	nn_open_object(o, NULL);
	if (err) {
		nn_print_warnings(ctx);
		nn_host_discover_failed(ctx, "nics", err);
		return NN_EXIT_ERROR;
	}
	for (i = st.ind; i < argc; i++)
		if (!nn_nic_find(h.nics, h.nnics, argv[i])) {
			nn_err(ctx, "nics: no network device '%s' in /sys/class/net", argv[i]);
			status = NN_EXIT_ERROR;
		}
	if (status) {
		nn_host_free(&h);
		return status;
	}

	/* a port on vfio-pci has no netdev: listed by its function */
	err = nn_host_bound_ports_read(ctx, &h);
	if (err)
		nn_warn(ctx, NULL, "nics: cannot read the functions on vfio-pci: %s", strerror(-err));
	planned = default_plan(ctx, &popts, &plan) == 0;
	nn_nics_print(o, &h, argv + st.ind, (size_t)(argc - st.ind), brief,
		      planned ? nn_plan_irq_cpus : NULL, planned ? &plan : NULL);
	nn_print_warnings(ctx);
	if (planned)
		nn_plan_free(&plan);
	nn_plan_opts_free(&popts);
	nn_host_free(&h);
	return nn_cli_status(ctx, 0);
}
