// SPDX-License-Identifier: GPL-2.0-or-later
/* cmd_topo.c - "nicnuma topo": NUMA nodes, CPUs and the kernel's NUMA knobs */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "nicnuma/discover/topo.h"

enum { OPT_NO_CPUS = NN_OPT_OWN };

static const struct nn_opt opts[] = {
	{ "no-cpus", 0, NN_ARG_NONE, NULL, "leave out the per-CPU table (text output only)", OPT_NO_CPUS },
	{ 0 },
};

const struct nn_cmd_desc nn_desc_topo = {
	.name = "topo",
	.usage = "nicnuma [--root DIR] [--json] topo [--no-cpus]",
	.intro =
"Show the host's NUMA topology as the kernel reports it: every node with its\n"
"online CPUs (offline ones of its cpulist shown apart), memory, distance row\n"
"and hugepage pools; every online CPU with its node,\n"
"package, die, core, SMT siblings and L3 group; and the kernel settings that\n"
"change how a data plane behaves across nodes (automatic NUMA balancing, zone\n"
"reclaim, transparent hugepages) plus whether this is a virtual machine.\n"
"\n"
"Isolated CPUs are shown per source: cpu/isolated, cpu/nohz_full and the\n"
"isolcpus= words of /proc/cmdline with their flags (nohz, domain,\n"
"managed_irq; a plain list means domain). plan puts no queue IRQ, XPS mask\n"
"or housekeeping role on any of them unless --cpus names it.\n"
"\n"
"Nodes without CPUs are memory-only (CXL, HBM, or a VM's memory node); nodes\n"
"with CPUs but no memory are CPU-only: their CPUs always allocate remotely.\n"
"An unknown value prints as 'unknown' (JSON null), never as 0.\n",
	.opts = opts,
	.outro =
"Global options --root DIR (read a captured tree instead of this host) and\n"
"--json (one JSON document: nodes, cpus, knobs, isolation, warnings) go before\n"
"or after the command.\n"
"\n"
"Files read: /sys/devices/system/cpu/{online,cpuN/topology,cpuN/cache},\n"
"/sys/devices/system/node/nodeN/{cpulist,distance,meminfo,hugepages},\n"
"/proc/sys/kernel/numa_balancing, /proc/sys/vm/zone_reclaim_mode,\n"
"/sys/kernel/mm/transparent_hugepage/{enabled,defrag}, /proc/cpuinfo,\n"
"/sys/devices/system/cpu/{isolated,nohz_full}, /proc/cmdline.\n"
"\n"
"Exit status: 0 clean, 1 printed with warnings (a file was missing or\n"
"malformed; each warning names it), 2 error (no CPU list, bad option).\n",
};

int nn_cmd_topo(struct nn_ctx *ctx, int argc, char **argv)
{
	struct nn_optstate st = NN_OPTSTATE(argc, argv);
	struct nn_out *o = &ctx->out;
	struct nn_topo t;
	bool cpus = true;
	int c, err;

	while ((c = nn_opt_next(ctx, &nn_desc_topo, &st)) > 0) {
		switch (c) {
		case OPT_NO_CPUS:
			cpus = false;
			break;
		}
	}
	if (c < 0)
		return nn_opt_exit(c);

	err = nn_topo_discover(ctx, &t);
	nn_open_object(o, NULL);
	if (err) {
		nn_print_warnings(ctx);
		nn_err(ctx, "topo: cannot discover the topology under %s: %s", ctx->root.path,
		       strerror(-err));
		return NN_EXIT_ERROR;
	}
	if (nn_topo_print(o, &t, cpus))
		nn_err(ctx, "topo: out of memory");
	nn_print_warnings(ctx);
	nn_topo_free(&t);
	return nn_cli_status(ctx, 0);
}
